//! Issue 14, "No input breaks Fray": each test names the finding it guards. Bad input gets a
//! clear error naming what is wrong and changes nothing; no panic reaches the user.

use crate::common::{fray, fray_env};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Finding "Saves": `--save` replaced a symlink or a device node with a regular file,
/// overwrote silently, left a `.tmp` behind when it failed and named the `.tmp` in its error.
#[cfg(unix)]
#[test]
fn save_replaces_only_a_regular_file_says_when_it_overwrites_and_leaves_nothing_behind() {
    let dir = scratch("save");
    let kept = dir.join("kept.txt");
    std::fs::write(&kept, "mine").unwrap();
    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&kept, &link).unwrap();
    let play = |save: &str| fray(&["play", "kazzam", "--seed", "4", "--quiet", "--save", save]);
    let (code, _, err) = play(s(&link));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("link.json") && err.contains("symbolic link"), "{err}");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "mine");
    let (code, _, err) = play("/dev/null");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/dev/null") && err.contains("not a regular file"), "{err}");
    let (code, _, err) = play(s(&dir));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a folder"), "{err}");
    // A first save says nothing; a second one over it says it overwrites.
    let save = dir.join("m.json");
    let (code, _, err) = play(s(&save));
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("overwritten"), "{err}");
    let (code, _, err) = play(s(&save));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("m.json") && err.contains("overwritten"), "{err}");
    // A save that cannot be written names the save, never a temporary file, and leaves nothing.
    let missing = dir.join("no-such-folder").join("m.json");
    let (code, _, err) = play(s(&missing));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no-such-folder/m.json") && err.contains("no folder"), "{err}");
    assert!(!err.contains(".tmp") && !err.contains(".fray-save"), "{err}");
    let mut left: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    left.sort();
    assert_eq!(left, ["kept.txt", "link.json", "m.json"]);
}

/// Finding "Saves": Draw Steel saves replay in `fray view`.
#[test]
fn a_draw_steel_save_replays_in_view() {
    let dir = scratch("ds-save");
    let save = dir.join("d.json");
    let (code, out, err) = fray(&["play", "drawsteel", "--seed", "9", "--quiet", "--save", s(&save)]);
    assert_eq!(code, 0, "{err}");
    let (code, view, err) = fray(&["view", "--json", s(&save)]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&view).unwrap();
    assert!(out.contains(v["outcome"]["summary"].as_str().unwrap()), "{out}\n{view}");
}

/// Finding "Hangs and exhaustion": `fray view /dev/zero` and `fray build kazzam /dev/zero` read
/// without limit. Every input file is read with a size cap.
#[cfg(unix)]
#[test]
fn input_files_are_read_with_a_size_cap() {
    for args in [
        &["view", "/dev/zero"][..],
        &["view", "/dev/zero.json"][..],
        &["build", "kazzam", "/dev/zero"][..],
        &["build", "drawsteel", "/dev/zero"][..],
        &["play", "kazzam", "--home", "/dev/zero", "--away", "/dev/zero"][..],
    ] {
        let (code, _, err) = fray(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("/dev/zero") && (err.contains("MiB") || err.contains("No such file")), "{args:?}: {err}");
    }
    let dir = scratch("big");
    let big = dir.join("big.toml");
    let mut f = std::fs::File::create(&big).unwrap();
    for _ in 0..(9 * 1024) {
        f.write_all(&[b'#'; 1024]).unwrap();
    }
    drop(f);
    let (code, out, err) = fray(&["scenario", s(&big)]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("big.toml") && out.contains("larger than 8 MiB"), "{out}");
}

/// Finding "Panics": `scenario`, `rules`, `build` and `view` panicked on a closed pipe
/// (`fray rules kazzam --list | head -1`). Now they end quietly, as `play` did.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_every_subcommand_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let scenarios = format!("{root}/scenarios/kazzam");
    let team = format!("{root}/examples/kazzam/team-jetsam.toml");
    let view = format!("{root}/scenarios/kazzam/act-third-move-refused.toml");
    for args in [
        vec!["rules", "kazzam", "--list"],
        vec!["rules", "kazzam", "grabbed"],
        vec!["scenario", &scenarios],
        vec!["build", "kazzam", &team],
        vec!["view", &view],
        vec!["play", "kazzam"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader goes away before anything is written
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked") && err.is_empty(), "{args:?}: {err}");
        assert!(out.status.success() || out.status.signal() == Some(13), "{args:?}: {:?}", out.status);
    }
}

/// Finding "Panics": one bad file stopped a whole folder run with no summary. A file that
/// panics the engine is a FAIL with the panic's message, and the run goes on to the summary.
#[test]
fn a_scenario_that_panics_the_engine_is_a_fail_and_the_run_goes_on() {
    let dir = scratch("panic");
    let good = "system = \"kazzam\"\ntitle = \"fine\"\n[map]\nrows = [\"...\"]\n[[unit]]\nid = \"a\"\nteam = \"red\"\nat = [0, 0]\n[expect]\n\"units.a.hp\" = 8\n";
    for n in ["a.toml", "b.toml", "c.toml"] {
        std::fs::write(dir.join(n), good).unwrap();
    }
    let b = dir.join("b.toml");
    let (code, out, err) = fray_env(&["scenario", s(&dir)], &[("FRAY_TEST_PANIC_IN", s(&b))]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("FAIL") && out.contains("b.toml") && out.contains("panicked"), "{out}");
    assert!(out.contains("FRAY_TEST_PANIC_IN names this file"), "{out}");
    assert!(out.contains("2 passed, 1 failed"), "{out}");
    assert!(!err.contains("panicked"), "{err}");
}
