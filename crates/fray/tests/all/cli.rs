//! The `fray` command end to end: a seeded match prints the same thing twice, a saved match
//! replays to the same final view, a damaged save is refused with a clear error, a person can
//! play a seat at the prompt, and scenario runs report failures with exit status 1.

use crate::common::fray;
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn the_same_seed_prints_the_same_match() {
    let a = fray(&["play", "kazzam", "--seed", "11"]);
    let b = fray(&["play", "kazzam", "--seed", "11"]);
    assert_eq!(a.0, 0, "{}", a.2);
    assert!(a.1.contains("match over"), "{}", a.1);
    assert_eq!(a.1, b.1);
    let c = fray(&["play", "kazzam", "--seed", "12"]);
    assert_ne!(a.1, c.1, "different seeds should give different matches");
}

#[test]
fn a_saved_match_replays_and_a_damaged_one_is_refused() {
    let dir = std::env::temp_dir().join(format!("fray-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("m.json");
    let save = save.to_str().unwrap();
    let (code, out, err) = fray(&["play", "kazzam", "--seed", "5", "--quiet", "--save", save]);
    assert_eq!(code, 0, "{err}");
    let (code, view, err) = fray(&["view", "--json", save]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&view).unwrap();
    assert!(out.contains(v["outcome"]["summary"].as_str().unwrap()), "{out}");
    let text = std::fs::read_to_string(save).unwrap();
    let cut = dir.join("cut.json");
    std::fs::write(&cut, &text[..text.len() / 2]).unwrap();
    let (code, _, err) = fray(&["view", cut.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("cut.json") && err.contains("not a saved match"), "{err}");
}

/// A save records the engine and content it was played with and every die rolled: a save from
/// another version is refused, and one whose rolls no longer come up is a divergence, never
/// another match.
#[test]
fn a_save_from_another_version_or_with_other_rolls_is_refused() {
    let dir = std::env::temp_dir().join(format!("fray-cli-fp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("m.json");
    let save = save.to_str().unwrap();
    let (code, _, err) = fray(&["play", "kazzam", "--seed", "6", "--quiet", "--save", save]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(save).unwrap()).unwrap();
    assert!(v["fingerprint"]["engine"].as_str().unwrap().starts_with("kazzam rules"), "{v}");
    assert!(v["rolls"].as_array().unwrap().len() > 10, "{v}");
    let mut old = v.clone();
    old["fingerprint"]["content"] = "0000000000000000".into();
    let f = dir.join("old.json");
    std::fs::write(&f, old.to_string()).unwrap();
    let (code, _, err) = fray(&["view", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("old.json") && err.contains("played with"), "{err}");
    let mut other = v.clone();
    let r = other["rolls"][3].as_u64().unwrap();
    other["rolls"][3] = (r % 6 + 1).into();
    let f = dir.join("other.json");
    std::fs::write(&f, other.to_string()).unwrap();
    let (code, _, err) = fray(&["view", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("diverged"), "{err}");
}

#[test]
fn table_options_change_the_match_replay_from_the_save_and_bad_ones_are_refused() {
    let dir = std::env::temp_dir().join(format!("fray-cli-options-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("opts.json");
    let save = save.to_str().unwrap();
    let base = ["play", "kazzam", "--seed", "4", "--quiet"];
    let opts = ["--option", "creeps=false", "--option", "round-limit=4"];
    let (code, out, err) = fray(&[&base[..], &opts[..], &["--save", save]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("after 4 rounds"), "{out}");
    let (code, view, err) = fray(&["view", "--json", save]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&view).unwrap();
    assert_eq!(v["round"], 4, "the save keeps the options: {view}");
    assert!(v["creep_groups"].as_object().is_none_or(|g| g.is_empty()), "no Creeps with creeps=false: {view}");
    let (code, view, err) =
        fray(&["play", "kazzam", "--seed", "4", "--quiet", "--option", "round-limit=2", "--save", save]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(save).unwrap()).unwrap();
    assert_eq!(v["setup"]["options"][0], "round-limit=2", "{view}");
    for (bad, says) in [("creeps=maybe", "creeps"), ("speed=3", "unknown field `speed`"), ("creeps", "KEY=VALUE")] {
        let (code, out, err) = fray(&["play", "kazzam", "--quiet", "--option", bad]);
        assert_eq!(code, 2, "{bad}: {out}");
        assert!(err.contains(says), "{bad}: {err}");
    }
}

#[test]
fn two_team_files_play_a_match_that_saves_and_replays() {
    let ex = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/kazzam/");
    let (home, away) = (format!("{ex}team-jetsam.toml"), format!("{ex}team-flotsam.toml"));
    let dir = std::env::temp_dir().join(format!("fray-cli-teams-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("teams.json");
    let save = save.to_str().unwrap();
    let args = ["play", "kazzam", "--seed", "7", "--home", &home, "--away", &away];
    let (code, out, err) = fray(&[&args[..], &["--save", save]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("red-ada-quill") && out.contains("blue-cass-wren"), "{out}");
    assert!(out.contains("final score"), "{out}");
    let (code, view, err) = fray(&["view", "--json", save]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&view).unwrap();
    assert!(out.contains(v["outcome"]["summary"].as_str().unwrap()), "{out}");
    assert!(v["units"]["blue-dell-marsh"].is_object(), "{view}");
    // A team that breaks a creation rule is refused before anything is played.
    let bad = dir.join("bad-team.toml");
    std::fs::write(&bad, std::fs::read_to_string(&away).unwrap().replace("role = \"leader\"", "role = \"defender\""))
        .unwrap();
    let (code, _, err) = fray(&["play", "kazzam", "--home", &home, "--away", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad-team.toml") && err.contains("one of each role per team"), "{err}");
}

#[test]
fn a_person_can_play_a_seat_at_the_prompt() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["play", "kazzam", "--seed", "2", "--seat", "red"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Pick the first option twice (move, then the first square), then a bad answer, then quit.
    child.stdin.as_mut().unwrap().write_all(b"1\n1\nnonsense\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("red (action)") && text.contains("1. move"), "{text}");
    assert!(text.contains("red (square)"), "{text}");
    assert!(text.contains("choose a number from 1 to"), "{text}");
}

#[test]
fn scenario_failures_exit_with_status_one() {
    let dir = std::env::temp_dir().join(format!("fray-cli-sc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("wrong.toml");
    std::fs::write(
        &f,
        "system = \"kazzam\"\ntitle = \"wrong on purpose\"\n[map]\nrows = [\"...\"]\n[[unit]]\nid = \"a\"\nteam = \"red\"\nat = [0, 0]\n[expect]\n\"units.a.hp\" = 3\n",
    )
    .unwrap();
    let (code, out, _) = fray(&["scenario", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.contains("FAIL") && out.contains("units.a.hp: expected 3, found 8"), "{out}");
    assert!(out.contains("0 passed, 1 failed"), "{out}");
}

#[test]
fn rules_look_up_forgives_typos_and_lists_as_json() {
    let (code, out, _) = fray(&["rules", "kazzam", "grabed"]);
    assert_eq!(code, 0);
    assert!(out.contains("Grabbed [status, K-ST-Grabbed]"), "{out}");
    let (code, out, _) = fray(&["rules", "drawsteel", "DS-COND-SLOW"]);
    assert_eq!(code, 0);
    assert!(out.contains("Slowed"), "{out}");
    let (code, out, _) = fray(&["rules", "kazzam", "--list", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let items = v.as_array().unwrap();
    assert!(items.iter().any(|e| e["id"] == "basic-implement-attack" && e["kind"] == "power"));
    assert!(items.iter().any(|e| e["id"] == "K-ST-Prone" && e["kind"] == "status"));
    let (code, out, _) = fray(&["rules", "kazzam", "xyzzy-nothing"]);
    assert_eq!(code, 1);
    assert!(out.contains("nothing found"), "{out}");
}

#[test]
fn build_checks_stat_blocks_with_file_line_and_field() {
    let dir = std::env::temp_dir().join(format!("fray-cli-build-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.toml");
    std::fs::write(&f, "[[creature]]\nid = \"x\"\nname = \"X\"\nkind = \"monster\"\nstamina = 0\nspeed = 5\nsize = \"9Q\"\ncharacteristics = { might = 7 }\n").unwrap();
    let (code, out, _) = fray(&["build", "drawsteel", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    // DS-GAP-4: a characteristic runs from -5 to +5.
    assert!(
        out.contains("bad.toml:1: x (X): size") && out.contains("characteristics.might: 7 is outside -5..5"),
        "{out}"
    );
    assert!(out.contains("free_strike: monsters need a free strike value"), "{out}");
    // A moving ability that cannot move.
    let f = dir.join("sweep.toml");
    std::fs::write(
        &f,
        concat!(
            "[[creature]]\nid = \"y\"\nname = \"Y\"\nkind = \"hero\"\nstamina = 20\nspeed = 5\nsize = \"1M\"\n",
            "characteristics = { might = 1 }\n\n[[creature.ability]]\nid = \"dash\"\nname = \"Dash\"\n",
            "usage = \"main\"\ndistance = { kind = \"sweep\", shift = 0, reach = 1 }\n",
        ),
    )
    .unwrap();
    let (code, out, _) = fray(&["build", "drawsteel", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.contains("ability[0] (dash).distance: a sweep shifts at least 1 square"), "{out}");
    let good = concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/drawsteel/creatures.toml");
    let (code, out, _) = fray(&["build", "drawsteel", good]);
    assert_eq!(code, 0);
    assert!(out.contains("Bog Brute") && out.contains("winded at 15"), "{out}");
}

#[test]
fn a_draw_steel_combat_plays_to_the_end() {
    let (code, out, err) = fray(&["play", "drawsteel", "--seed", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("combat over"), "{out}");
    assert_eq!(out, fray(&["play", "drawsteel", "--seed", "3"]).1);
}

/// Issue 19: an encounter file of four heroes against a leader, a captained squad of minions
/// and an elite (`content/drawsteel/encounters/warband.toml`) plays to the end from the command
/// line with bots at both seats; the journal shows the Director spending Malice and its leader
/// taking villain actions.
#[test]
fn a_draw_steel_encounter_file_plays_to_the_end_with_bots() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/drawsteel/encounters/warband.toml");
    let args =
        ["play", "drawsteel", "--encounter", file, "--seed", "1", "--bot", "heroes=greedy", "--bot", "director=greedy"];
    let (code, out, err) = fray(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("combat over: the heroes win"), "{out}");
    assert!(out.contains("the Director spends") && out.contains("warlord takes a villain action"), "{out}");
    // Random bots at both seats end it too: with a winner, or at the round limit.
    let (code, out, err) = fray(&["play", "drawsteel", "--encounter", file, "--seed", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("combat over: "), "{out}");
}

/// `fray rules SYSTEM --code ID` finds the code citing a rule and the scenarios naming it;
/// `--coverage` lists a checklist's ids that have neither (a Rust test counts as a check).
#[test]
fn rules_code_and_coverage_find_where_rules_live() {
    let (code, out, _) = fray(&["rules", "kazzam", "--code", "K-OPP-3"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("crates/fray-kazzam/src/rules/opportunity.rs:") && out.contains("scenarios/kazzam/"), "{out}");
    // An id no file cites (spelt in two pieces, or this test file would cite it).
    let nope = format!("K-{}-1", "NOPE");
    let (code, out, _) = fray(&["rules", "kazzam", "--code", &nope]);
    assert_eq!(code, 1);
    assert!(out.contains("no code cites it"), "{out}");
    let (code, out, _) = fray(&["rules", "kazzam", "--code", "K-IMP-13"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("  test      crates/fray-kazzam/tests/all/builder.rs"), "{out}");
    let dir = std::env::temp_dir().join(format!("fray-cli-cov-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("kazzam.md");
    std::fs::write(&list, format!("- K-OPP-3: leaving a square.\n- {nope}: nothing plays this.\n")).unwrap();
    let (code, out, err) = fray(&["rules", "kazzam", "--coverage", "--checklist", list.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("2 rule ids;") && out.contains("; 1 with neither") && out.contains(&format!("  {nope}")),
        "{out}"
    );
    assert!(!out.contains("  K-OPP-3"), "{out}");
}

/// `fray bench --rounds R --json` measures R times and prints the median round, with how many
/// rounds there were and the lowest and highest decisions per second.
#[test]
fn bench_reports_the_median_of_its_rounds() {
    let (code, out, err) = fray(&["bench", "drawsteel", "--matches", "2", "--rounds", "3", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["system"], "drawsteel");
    assert_eq!(v["rounds"], 3);
    assert_eq!(v["matches"], 2);
    let dps = v["decisions_per_second"].as_f64().unwrap();
    let (lo, hi) =
        (v["decisions_per_second_range"][0].as_f64().unwrap(), v["decisions_per_second_range"][1].as_f64().unwrap());
    assert!(lo > 0.0 && lo <= dps && dps <= hi, "{out}");
    for field in ["clone_ns", "match_ms", "decisions_per_match"] {
        assert!(v[field].as_f64().is_some_and(|x| x > 0.0), "{field} in {out}");
    }
    // The program's allocator counts what a live match holds: state, journal and record are
    // more than a kilobyte and far less than a gigabyte.
    let bytes = v["bytes_per_match"].as_u64().unwrap();
    assert!((1_000..1_000_000_000).contains(&bytes), "bytes_per_match {bytes} in {out}");
}
