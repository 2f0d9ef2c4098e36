//! `fray build collision` and `fray rules collision` end to end: the worked example's card as
//! text and SVG, an illegal file with every problem and exit status 1, the look-up forgiving
//! about typos, and the battle game refused with a clear message.

use crate::common::fray;

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/collision/robed-elf-warrior.toml");

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-collision-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn build_prints_the_worked_example_card() {
    let (code, out, err) = fray(&["build", "collision", EXAMPLE]);
    assert_eq!(code, 0, "{err}");
    for want in [
        "Robed Elf Warrior (75 points)",
        "Race Red Elf, Tarot 6 of Cups, Values Diplomacy, Conquest, Sorcery",
        "Def 7  Arm 7  Tuf 2  End 4  Mana 4  Comm 5  Move 5   Att 2  Str 2  S-Pow 0",
        "Weapon 1: Sabre (Shadow): EC 2, Dark, W-Att 4, W-Pow 3, Reach 1, Crit Injury+2, Special Sharp, On Hit: Hex 1",
        "Weapon 2: Shield (accessory, 1 hand)",
        "Effects and abilities: Vicious; Block 2 (RE) 1E; Check 2M (Fear); Majesty (RE) 1E (Fear)",
        "Battle group: 1 character, 75 points; values Diplomacy, Conquest, Sorcery",
    ] {
        assert!(out.contains(want), "{want:?} not in\n{out}");
    }
}

#[test]
fn build_svg_draws_the_cards() {
    let svg = tmp("cards.svg");
    let (code, out, err) = fray(&["build", "collision", EXAMPLE, "--svg", svg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("cards drawn in"), "{out}");
    let doc = std::fs::read_to_string(&svg).unwrap();
    assert!(doc.starts_with("<svg") && doc.trim_end().ends_with("</svg>"), "{doc}");
    for want in ["Robed Elf Warrior", "RACE Red Elf", "WEAPON 1: Sabre (Shadow)", "Majesty (RE) 1E (Fear)", ">7</text>"]
    {
        assert!(doc.contains(want), "{want:?} not in the SVG");
    }
    // Other systems have no SVG cards.
    let kazzam = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/kazzam/tamer.toml");
    let (code, _, err) = fray(&["build", "kazzam", kazzam, "--svg", svg.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("no SVG cards"), "{err}");
}

#[test]
fn build_lists_every_problem_of_an_illegal_group() {
    let bad = tmp("bad.toml");
    std::fs::write(
        &bad,
        "[group]\nallotment = 50\n\n[[character]]\nname = \"Knight\"\nrace = \"Angel\"\ntarot = \"8 of Swords\"\nweapons = [\"Pike\"]\naccessory = \"Shield\"\nskills = [\"Parry\", \"Tactical Strike\"]\n",
    )
    .unwrap();
    let path = bad.to_str().unwrap();
    let (code, out, _) = fray(&["build", "collision", path]);
    assert_eq!(code, 1, "{out}");
    for (line, rule) in [(9, "C-CREATE-15"), (10, "C-CREATE-32"), (2, "C-CREATE-36"), (7, "C-CREATE-12")] {
        assert!(out.contains(&format!("{path}:{line}:")) && out.contains(rule), "{rule} at line {line} not in\n{out}");
    }
    let broken = tmp("broken.toml");
    std::fs::write(&broken, "[[character]]\nname = \"X\"\nrace = [\n").unwrap();
    let (code, out, _) = fray(&["build", "collision", broken.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.contains("broken.toml:"), "{out}");
}

#[test]
fn rules_looks_up_rows_terms_and_rules_forgiving_typos() {
    let (code, out, err) = fray(&["rules", "collision", "majsty"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Majesty [skill, skill-majesty]") && out.contains("Conquest skill"), "{out}");
    assert!(out.contains("played in battle"), "{out}");
    let (_, out, _) = fray(&["rules", "collision", "castle"]);
    assert!(out.contains("Castle [skill") && out.contains("played in battle"), "{out}");
    // One of the two entries no option of the guide grants, so not played.
    let (_, out, _) = fray(&["rules", "collision", "immune to mundane"]);
    assert!(out.contains("not played in Fray's battles yet"), "{out}");
    let (_, out, _) = fray(&["rules", "collision", "hyper cutter"]);
    assert!(out.contains("Hyper Cutter [skill") && out.contains("played in battle"), "{out}");
    let (_, out, _) = fray(&["rules", "collision", "guided strike"]);
    assert!(out.contains("played in battle"), "{out}");
    let (code, out, _) = fray(&["rules", "collision", "red elf"]);
    assert_eq!(code, 0);
    assert!(out.contains("Conquest race, 25 points: Def 7, Arm 4"), "{out}");
    let (_, out, _) = fray(&["rules", "collision", "C-CREATE-15"]);
    assert!(out.contains("Two hands [rule, C-CREATE-15]"), "{out}");
    let (_, out, _) = fray(&["rules", "collision", "Block 2"]);
    assert!(out.contains("Block 2 (RE) 1E") && out.contains("played in battle"), "{out}");
    let (code, out, _) = fray(&["rules", "collision", "--list", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // 8 values, 27 races, 40 tarots, 29 weapons, 32 enchantments, 7 armours, 13 accessories,
    // 80 skills, the other glossary terms and the rules.
    assert!(v.as_array().unwrap().len() > 300, "{}", v.as_array().unwrap().len());
}

/// `fray play collision`: bots fight the built-in groups to the end, and groups from files.
#[test]
fn the_battle_game_plays_with_bots() {
    let (code, out, err) = fray(&["play", "collision", "--seed", "3", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wins") || out.contains("a draw"), "{out}");
    let home = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/collision/skirmish-home.toml");
    let away = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/collision/skirmish-away.toml");
    let (code, out, err) =
        fray(&["play", "collision", "--seed", "4", "--home", home, "--away", away, "--blue", "greedy", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("VP"), "{out}");
    let (code, _, err) = fray(&["play", "collision", "--option", "hit-threshold=12"]);
    assert_eq!(code, 2);
    assert!(err.contains("hit-threshold=12"), "{err}");
}

/// `fray sim collision --points-study`: win rate against points spent, by point difference
/// (issue 18, part 3); other systems and other studies' flags are refused.
#[test]
fn the_points_study_prints_the_richer_sides_results() {
    let (code, out, err) =
        fray(&["sim", "collision", "--points-study", "--matches", "6", "--jobs", "1", "--seed", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Collision points study: 6 battles"), "{out}");
    assert!(out.contains("By how many points more it spent:") && out.contains("95% interval"), "{out}");
    // Every battle is counted once in the lead table.
    let counted: u64 = out
        .lines()
        .skip_while(|l| !l.starts_with("By how many"))
        .skip(2)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().nth(1).and_then(|n| n.parse::<u64>().ok()).unwrap_or(0))
        .sum();
    assert_eq!(counted, 6, "{out}");
    let (code, _, err) = fray(&["sim", "dojo", "--points-study"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--points-study is Collision's study"), "{err}");
    let (code, _, err) = fray(&["sim", "collision", "--points-study", "--swap"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("draws its own groups"), "{err}");
}
