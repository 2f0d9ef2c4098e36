//! `fray sim` and the bots end to end: the same seed gives byte-identical JSON whatever the
//! threads, shards merge into the whole study, `--compare` finds a deliberately overpowered
//! homebrew power, greedy beats random, the charts are real SVG and PNG files, and `fray play`
//! seats bots by seat name.

use crate::common::fray;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-sim-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn data(file: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(file).display().to_string()
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn the_same_seed_gives_the_same_report_on_any_number_of_threads() {
    let args = ["sim", "kazzam", "--matches", "24", "--seed", "7", "--red", "greedy", "--json"];
    let (code, a, err) = fray(&[&args[..], &["--jobs", "2"]].concat());
    assert_eq!(code, 0, "{err}");
    let (_, b, _) = fray(&[&args[..], &["--jobs", "1"]].concat());
    assert_eq!(a, b, "the same seed must give byte-identical JSON");
    let v = json(&a);
    assert_eq!(v["matches"], 24);
    assert_eq!(v["summary"]["seats"][0]["name"], "red (greedy)");
    // Greedy beats random, with the interval clear of one half.
    let red = &v["summary"]["seats"][0]["score_rate"];
    assert!(red["low"].as_f64().unwrap() > 0.5, "{red}");
    let (_, c, _) = fray(&["sim", "kazzam", "--matches", "24", "--seed", "8", "--red", "greedy", "--json"]);
    assert_ne!(a, c, "another seed plays other matches");
}

#[test]
fn shards_merge_into_the_whole_study() {
    let dir = scratch("shards");
    let base = ["sim", "drawsteel", "--matches", "30", "--heroes", "greedy", "--json"];
    let (code, whole, err) = fray(&base);
    assert_eq!(code, 0, "{err}");
    let mut files = Vec::new();
    for k in 1..=3 {
        let (code, out, err) = fray(&[&base[..], &["--shard", &format!("{k}/3")]].concat());
        assert_eq!(code, 0, "{err}");
        let f = dir.join(format!("s{k}.json"));
        std::fs::write(&f, out).unwrap();
        files.push(f.display().to_string());
    }
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    let (code, merged, err) = fray(&[&["sim", "merge", "--json"][..], &refs].concat());
    assert_eq!(code, 0, "{err}");
    let (w, m) = (json(&whole), json(&merged));
    for field in ["matches", "by_seat", "by_bot", "margins", "decisions", "tally", "summary"] {
        assert_eq!(w[field], m[field], "{field}");
    }
    // The same shard twice, or a shard of another study, is refused.
    let (code, _, err) = fray(&["sim", "merge", &files[0], &files[0]]);
    assert_eq!(code, 2);
    assert!(err.contains("given twice"), "{err}");
    let (_, other, _) = fray(&["sim", "drawsteel", "--matches", "30", "--seed", "2", "--shard", "2/3", "--json"]);
    let o = dir.join("other.json");
    std::fs::write(&o, other).unwrap();
    let (code, _, err) = fray(&["sim", "merge", &files[0], o.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not shards of one study"), "{err}");
}

/// A homebrew variant that makes red's Quickdraw deal 30 damage: the two teams differ only in
/// that red's wandslinger takes Quickdraw where blue's takes Running Shot, so the variant must
/// show red's score rate up with an interval clear of zero.
#[test]
fn compare_finds_an_overpowered_homebrew_power() {
    let dir = scratch("compare");
    let builtin = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content/kazzam/classes/wandslinger.toml");
    let text = std::fs::read_to_string(builtin).unwrap();
    let at = text.find("id = \"quickdraw\"").unwrap();
    let damage = at + text[at..].find("damage = ").unwrap();
    let end = damage + text[damage..].find('\n').unwrap();
    let variant = format!("{}damage = 30{}", &text[..damage], &text[end..]);
    std::fs::create_dir_all(dir.join("kazzam/classes")).unwrap();
    std::fs::write(dir.join("kazzam/classes/wandslinger.toml"), variant).unwrap();
    let (red, blue) = (data("sim-red.toml"), data("sim-blue.toml"));
    let (code, out, err) = fray(&[
        "sim",
        "kazzam",
        "--matches",
        "60",
        "--red",
        "greedy",
        "--blue",
        "greedy",
        "--home",
        &red,
        "--away",
        &blue,
        "--compare",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    let red = &v["difference"][0];
    assert_eq!(red["seat"], "red (greedy)");
    assert_eq!(red["score_rate"]["significant"], true, "{red}");
    assert!(red["score_rate"]["low"].as_f64().unwrap() > 0.0, "{red}");
    // A folder laid out wrongly is refused, not taken for "no change".
    let wrong = scratch("compare-wrong");
    std::fs::create_dir_all(wrong.join("classes")).unwrap();
    std::fs::write(wrong.join("classes/wandslinger.toml"), "x = 1").unwrap();
    let (code, _, err) = fray(&["sim", "kazzam", "--matches", "2", "--compare", wrong.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("no content file") && err.contains("kazzam/classes"), "{err}");
}

#[test]
fn the_charts_are_svg_and_png_pictures() {
    let dir = scratch("plots");
    let (code, out, err) =
        fray(&["sim", "drawsteel", "--matches", "12", "--director", "greedy", "--plot", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for chart in ["margin", "rate-by-seat", "rate-by-bot", "powers"] {
        let svg = std::fs::read_to_string(dir.join(format!("{chart}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{chart}.svg");
        assert!(svg.contains("<text"), "{chart}.svg has no labels");
        let png = std::fs::read(dir.join(format!("{chart}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{chart}.png");
        assert!(out.contains(&format!("{chart}.png")), "{out}");
    }
    let svg = std::fs::read_to_string(dir.join("rate-by-seat.svg")).unwrap();
    assert!(svg.contains("director (greedy)") && svg.contains("Score rate by seat"), "{svg}");
}

#[test]
fn bad_simulation_requests_are_refused_clearly() {
    for (args, says) in [
        (&["sim", "kazzam", "--red", "smart"][..], "names no bot"),
        (&["sim", "kazzam", "--bot", "green=greedy"][..], "no seat \"green\""),
        (&["sim", "kazzam", "--red", "greedy", "--bot", "red=mcts"][..], "two bots"),
        (&["sim", "kazzam", "--shard", "3/2"][..], "K/N"),
        (&["sim", "kazzam", "--matches", "0"][..], "--matches"),
        (&["sim", "collision", "--option", "turns=0"][..], "turns=0"),
        (&["sim", "merge"][..], "give the JSON reports"),
        (&["play", "kazzam", "--seat", "red", "--red", "greedy"][..], "played by a person"),
    ] {
        let (code, _, err) = fray(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `fray play` seats bots by seat name, and a simulated match replays there: the replay
/// command the report prints plays the match the CSV recorded.
#[test]
fn play_seats_bots_and_replays_a_simulated_match() {
    let dir = scratch("replay");
    let csv = dir.join("m.csv");
    let (code, out, err) = fray(&[
        "sim",
        "kazzam",
        "--matches",
        "3",
        "--red",
        "mcts:8",
        "--blue",
        "greedy",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let replay = out.lines().find_map(|l| l.strip_prefix("replay a match: fray ")).expect("a replay command");
    let rows = std::fs::read_to_string(&csv).unwrap();
    let first: Vec<&str> = rows.lines().nth(1).unwrap().split(',').collect();
    let args: Vec<&str> = replay.split_whitespace().chain(["--quiet"]).collect();
    let (code, played, err) = fray(&args);
    assert_eq!(code, 0, "{err}");
    // The row: index, seed, bots (red, blue, neutral), winner, scores (red, blue, neutral), ...
    let (winner, red, blue) = (first[5], first[6], first[7]);
    let score = format!("final score (after the Strike penalty): red {red}, blue {blue}");
    assert!(played.contains(&score), "{played}\nexpected {score} ({winner} won)");
}

#[test]
fn bench_measures_the_bots() {
    let (code, out, err) = fray(&["bench", "drawsteel", "--bots", "--matches", "1", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert!(v["mcts_iterations_per_second"].as_f64().unwrap() > 0.0, "{v}");
    assert_eq!(v["pairings"].as_array().unwrap().len(), 4, "{v}");
    assert!(v["pairings"][3]["matches_per_second"].as_f64().unwrap() > 0.0, "{v}");
}

/// Draw Steel's encounters by name (`--map`, docs/encounters.md): a study on the hard one
/// replays in `fray play` with the same map, and an unknown name is refused.
#[test]
fn draw_steel_studies_take_a_built_in_encounter() {
    let (code, out, err) =
        fray(&["sim", "drawsteel", "--map", "mire-ambush", "--matches", "2", "--heroes", "greedy", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["matches"], 2, "{out}");
    let (code, out, err) = fray(&["play", "drawsteel", "--map", "mire-ambush", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
    let (code, out, _) = fray(&["play", "drawsteel", "--map", "mire-ambush", "--seed", "2"]);
    assert_eq!(code, 0);
    assert!(out.contains("hound-2") && out.contains("brute-3"), "the ambush's creatures play:\n{out}");
    let (code, _, err) = fray(&["sim", "drawsteel", "--map", "nowhere", "--matches", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("nowhere"), "{err}");
}

/// `fray sim dojo` reports Panic at the Dojo's own figures (issue 17): rounds, Stance picks,
/// action uses with their damage, and no Kazzam Strikes; greedy bots finish their fights.
#[test]
fn dojo_studies_count_stances_and_actions() {
    let args = ["sim", "dojo", "--matches", "2", "--heroes", "greedy", "--enemies", "greedy"];
    let (code, out, err) = fray(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    let s = &v["summary"];
    assert_eq!(s["unfinished"], 0, "{out}");
    assert!(s["rounds_mean"].as_f64().unwrap() >= 1.0, "{out}");
    let picks: f64 = s["stance_picks"].as_object().unwrap().values().map(|x| x.as_f64().unwrap()).sum();
    assert!(picks >= 1.0, "every turn takes a Stance: {out}");
    assert!(s["per_power"]["Damage"]["uses"].as_f64().unwrap() > 0.0, "{out}");
    let (code, text, err) = fray(&args);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("stance") && text.contains("picks"), "{text}");
    assert!(!text.contains("Strikes"), "Strikes are Kazzam's: {text}");
}
