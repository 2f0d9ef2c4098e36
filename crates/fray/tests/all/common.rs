//! What the `fray` binary's end-to-end tests share: running it and reading what it printed.

use std::process::Command;

/// `fray ARGS`: the exit code, stdout and stderr.
pub fn fray(args: &[&str]) -> (i32, String, String) {
    fray_env(args, &[])
}

/// `fray ARGS` with these environment variables set.
pub fn fray_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_fray")).args(args).envs(env.iter().copied()).output().expect("fray runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}
