//! `fray-fuzz-corpus DIR`: writes each target's seeds and regression inputs to `DIR/TARGET/`
//! (the libFuzzer corpus `.ci/fuzz` starts from), leaving files already there.

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: fray-fuzz-corpus DIR");
        return ExitCode::FAILURE;
    };
    for t in fray_fuzz::TARGETS {
        let dir = std::path::Path::new(&dir).join(t.name);
        if let Err(e) = std::fs::create_dir_all(&dir) {
            eprintln!("{}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        let seeds = [fray_fuzz::corpus::seeds(t.name), fray_fuzz::corpus::regressions(t.name)].concat();
        for (name, bytes) in &seeds {
            let file = dir.join(format!("seed-{}", name.replace(['/', '\\'], "_")));
            if let Err(e) = std::fs::write(&file, bytes) {
                eprintln!("{}: {e}", file.display());
                return ExitCode::FAILURE;
            }
        }
        println!("{}: {} seeds", t.name, seeds.len());
    }
    ExitCode::SUCCESS
}
