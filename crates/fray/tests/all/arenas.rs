//! `fray play kazzam --map`, built-in rival teams by name, and `fray rules kazzam --maps`
//! (docs/maps.md): a whole match on the Throne arena between two rival teams, saved and replayed;
//! a bad map file refused with its file and line.

use crate::common::fray;

#[test]
fn the_throne_match_between_two_rival_teams_plays_saves_and_replays() {
    let dir = std::env::temp_dir().join(format!("fray-arenas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("throne.json");
    let save = save.to_str().unwrap();
    let args = ["play", "kazzam", "--map", "throne", "--home", "kishanta", "--away", "mormissa", "--seed", "3"];
    let (code, out, err) = fray(&[&args[..], &["--save", save]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("red-pila-balamurali") && out.contains("blue-fennec-rathburn"), "{out}");
    assert!(out.contains("match over") || out.contains("wins") || out.contains("draw"), "{out}");
    let (code, view, err) = fray(&["view", "--json", save]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&view).unwrap();
    assert!(out.contains(v["outcome"]["summary"].as_str().unwrap()), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn maps_are_described_and_a_bad_map_file_is_refused_with_its_line() {
    let (code, out, err) = fray(&["rules", "kazzam", "--maps"]);
    assert_eq!(code, 0, "{err}");
    for name in ["Beginner Map", "One-Way Doors Map", "Dual Dungeons Map", "Maze Map", "Throne Map"] {
        assert!(out.contains(name), "{out}");
    }
    let dir = std::env::temp_dir().join(format!("fray-badmap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    let text = crate_file("content/kazzam/maps/beginner.toml").replacen(
        "......~~.F.N.F.~~......",
        "......~~.F.N.F.~~.....?",
        1,
    );
    std::fs::write(&bad, text).unwrap();
    let (code, _, err) = fray(&["play", "kazzam", "--map", bad.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("bad.toml:") && err.contains("unknown map character"), "{err}");
    let (code, _, err) = fray(&["play", "kazzam", "--map", "nowhere"]);
    assert_ne!(code, 0);
    assert!(err.contains("nowhere"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

fn crate_file(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)).unwrap()
}
