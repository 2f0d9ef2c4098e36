//! `FRAY_CONTENT_DIR`: the `fray` binary reads a folder laid out like `content/` and plays its
//! Kazzam files instead of the compiled-in ones (the rules crates read no files themselves);
//! a broken file stops it with the file and the line.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fray(dir: Option<&Path>, args: &[&str]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fray"));
    cmd.args(args).env_remove("FRAY_CONTENT_DIR");
    if let Some(d) = dir {
        cmd.env("FRAY_CONTENT_DIR", d);
    }
    let out = cmd.output().expect("fray runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let target = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &target);
        } else {
            std::fs::copy(&p, &target).unwrap();
        }
    }
}

/// A fresh copy of the repository's `content/` folder.
fn content_copy(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-content-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content"), &dir);
    dir
}

/// Rewrites the first `from` after `after` in `file` to `to`.
fn edit(file: &Path, after: &str, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    let at = text.find(after).expect("the anchor is in the file");
    let i = at + text[at..].find(from).expect("the text to change follows the anchor");
    std::fs::write(file, format!("{}{to}{}", &text[..i], &text[i + from.len()..])).unwrap();
}

const SCENARIO: &str = r#"system = "kazzam"
title = "Petrov's Petrification deals the damage its content file gives it"
rules = ["K-ROLL-2"]

[map]
rows = ["......"]

[[unit]]
id = "ada"
team = "red"
at = [0, 0]
implement = "wand"
powers = ["petrovs-petrification"]

[[unit]]
id = "bo"
team = "blue"
at = [3, 0]

[dice]
rolls = [4]

[[step]]
act = { unit = "ada", power = "petrovs-petrification", target = "bo" }

[expect]
"units.bo.hp" = 3
"#;

#[test]
fn an_edited_power_in_the_content_folder_is_what_fray_plays() {
    let dir = content_copy("edit");
    edit(&dir.join("kazzam/powers/examples.toml"), "id = \"petrovs-petrification\"", "damage = 2", "damage = 5");
    // The look-up reads the folder's numbers; without the folder, the compiled-in ones.
    let (code, out, err) = fray(Some(&dir), &["rules", "kazzam", "petrovs-petrification"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("implement range, damage 5)"), "{out}");
    let (_, out, _) = fray(None, &["rules", "kazzam", "petrovs-petrification"]);
    assert!(out.contains("implement range, damage 2)") && !out.contains("damage 5"), "{out}");
    // A match sees it too: the scenario expects the edited 5 damage (8 HP down to 3).
    let file = dir.join("petrification.toml");
    std::fs::write(&file, SCENARIO).unwrap();
    let file = file.to_str().unwrap();
    let (code, out, err) = fray(Some(&dir), &["scenario", file]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = fray(None, &["scenario", file]);
    assert_eq!(code, 1, "the compiled-in power deals 2, not 5: {out}");
    // An unedited copy plays under the compiled-in fingerprint, so saves move between them.
    let same = content_copy("same");
    let save = same.join("m.json");
    let save = save.to_str().unwrap();
    let (code, _, err) = fray(None, &["play", "kazzam", "--seed", "4", "--quiet", "--save", save]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = fray(Some(&same), &["view", save]);
    assert_eq!(code, 0, "{err}");
    // The edited content is other content: the save is refused.
    let (code, _, err) = fray(Some(&dir), &["view", save]);
    assert_eq!(code, 2);
    assert!(err.contains("played with"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&same);
}

#[test]
fn a_broken_content_file_is_reported_with_its_file_and_line() {
    let dir = content_copy("broken");
    let examples = dir.join("kazzam/powers/examples.toml");
    // A power the checks refuse: the file, the power's line and the field.
    edit(&examples, "id = \"petrovs-petrification\"", "status = \"dazed\"", "status = \"dizzy\"");
    let line = std::fs::read_to_string(&examples)
        .unwrap()
        .lines()
        .position(|l| l.trim() == "id = \"petrovs-petrification\"")
        .unwrap()
        + 1;
    let (code, _, err) = fray(Some(&dir), &["rules", "kazzam", "petrovs-petrification"]);
    assert_eq!(code, 2, "{err}");
    let want = format!("{}, line {line}: power \"petrovs-petrification\"", examples.display());
    assert!(err.contains(&want) && err.contains("status") && err.contains("dizzy"), "{err}");
    // A file that is not TOML of the right shape: its file and line from the parser.
    let roles = dir.join("kazzam/roles.toml");
    let text = std::fs::read_to_string(&roles).unwrap();
    std::fs::write(&roles, format!("{text}\n[[role]]\nid = 3\n")).unwrap();
    let at = text.lines().count() + 3;
    let (code, _, err) = fray(Some(&dir), &["play", "kazzam", "--seed", "1", "--quiet"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&roles.display().to_string()) && err.contains(&format!("line {at}")), "{err}");
    // Both problems at once.
    assert!(err.contains("dizzy"), "{err}");
    // A missing file is named.
    std::fs::remove_file(dir.join("kazzam/creeps.toml")).unwrap();
    let (code, _, err) = fray(Some(&dir), &["rules", "kazzam", "swap-places"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("creeps.toml") && err.contains("FRAY_CONTENT_DIR"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 14, "Wrapping arithmetic" and "Garbage accepted": a content number no rule allows (a
/// power dealing 2147483647, a push of -3 squares, a Creep of size 5) is refused at load, each
/// with its file, line, field and the field's range, all at once, before any game adds to it.
#[test]
fn a_content_number_outside_its_fields_range_is_refused_at_load() {
    let dir = content_copy("huge");
    let examples = dir.join("kazzam/powers/examples.toml");
    edit(&examples, "id = \"petrovs-petrification\"", "damage = 2", "damage = 2147483647");
    edit(
        &examples,
        "id = \"petrovs-petrification\"",
        "until = \"end-of-next-turn\" }",
        "until = \"end-of-next-turn\" }, { push = -3 }",
    );
    let creeps = dir.join("kazzam/creeps.toml");
    edit(&creeps, "id = \"guardian-bear\"", "size = 2", "size = 5");
    let line_of = |file: &Path, what: &str| {
        std::fs::read_to_string(file).unwrap().lines().position(|l| l.contains(what)).unwrap() + 1
    };
    let (code, _, err) = fray(Some(&dir), &["rules", "kazzam", "petrovs-petrification"]);
    assert_eq!(code, 2, "{err}");
    let line = line_of(&examples, "2147483647");
    let want = format!("{}: line {line}, power[", examples.display());
    assert!(err.contains(&want) && err.contains("damage: 2147483647 is outside 0..99"), "{err}");
    let line = line_of(&examples, "push = -3");
    assert!(err.contains(&format!("line {line}, power[")) && err.contains("].push: -3 is outside 0..99"), "{err}");
    let at = format!("{}: line {}, creep[1].size: 5 is outside 1..4", creeps.display(), line_of(&creeps, "size = 5"));
    assert!(err.contains(&at), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
