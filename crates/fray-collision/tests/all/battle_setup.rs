//! Starting a battle: deployment from the builder's cards (C-BAT-3), table options, and bad
//! input refused with file, line and field.

use fray_collision::battle::{SIDES, options_from_pairs};
use fray_collision::{BattleSetup, Collision};
use fray_core::table::TeamText;

/// C-BAT-3: the built-in groups deploy with End as Endurance and Mana as tokens, facing each
/// other, home on the second row and away on the second-to-last.
#[test]
fn built_in_battle_deploys_from_the_cards() {
    let game = Collision::builtin();
    let s = game.build(&BattleSetup::default()).unwrap();
    assert_eq!(s.units.len(), 6);
    for x in &s.units {
        let c = &s.cards[x.card];
        assert_eq!(x.endurance, c.deploy_endurance, "{}", x.id);
        assert_eq!(x.mana, c.stats.mana, "{}", x.id);
        assert_eq!(x.injuries, 0);
        let at = x.at.unwrap();
        assert_eq!(at.y, if x.side == 0 { 1 } else { s.height - 2 }, "{} of {}", x.id, SIDES[x.side as usize]);
        assert_eq!(x.facing, if x.side == 0 { (0, 1) } else { (0, -1) });
    }
    assert!(s.units.iter().any(|x| x.id == "robed-elf-warrior" && s.cards[x.card].points == 75));
}

/// Group files from the command line: both are checked by the builder and every problem listed.
#[test]
fn bad_group_files_are_refused_with_every_problem() {
    let game = Collision::builtin();
    let bad = "[[character]]\nname = \"A\"\nrace = \"Hobbit\"\ntarot = \"3 of Swords\"\n";
    let good = "[[character]]\nname = \"B\"\nrace = \"Human\"\ntarot = \"3 of Swords\"\nweapons = [\"Spear\"]\n";
    let setup = BattleSetup {
        options: vec!["turns=0".into(), "colour=red".into()],
        groups: vec![
            TeamText { path: "a.toml".into(), text: bad.into() },
            TeamText { path: "b.toml".into(), text: good.into() },
        ],
    };
    let e = game.build(&setup).unwrap_err().0;
    assert!(e.iter().any(|m| m.contains("turns=0")), "{e:?}");
    assert!(e.iter().any(|m| m.contains("colour")), "{e:?}");
    let setup = BattleSetup { options: Vec::new(), groups: setup.groups };
    let e = game.build(&setup).unwrap_err().0;
    assert!(e.iter().any(|m| m.starts_with("a.toml:3:") && m.contains("Hobbit")), "{e:?}");
    let one = BattleSetup { options: Vec::new(), groups: vec![TeamText { path: "b.toml".into(), text: good.into() }] };
    assert!(game.build(&one).unwrap_err().0[0].contains("two battle-group files"));
}

/// Every inferred number is a table option with a checked range.
#[test]
fn table_options_read_and_check() {
    let o =
        options_from_pairs(&["hit-threshold=0".into(), "injury-step=2".into(), "recovery=end-of-turn".into()]).unwrap();
    assert_eq!((o.hit_threshold, o.injury_step), (0, 2));
    let e = options_from_pairs(&["hit-threshold=10".into(), "first=nobody".into(), "moves".into()]).unwrap_err();
    assert_eq!(e.len(), 3, "{e:?}");
}

/// A scenario file's units: bad fields name the file, the line and the field.
#[test]
fn bad_scenario_units_name_line_and_field() {
    let game = Collision::builtin();
    let text = r#"system = "collision"
title = "bad"
options = ["first=red"]

[[unit]]
id = "a"
side = "red"
at = [1, 1]
facing = "up"
character = { name = "X", race = "Human", tarot = "3 of Swords", weapons = ["Spear"] }

[[unit]]
id = "b"
side = "middle"
at = [2, 1]
character = { name = "Y", race = "Human", tarot = "3 of Swords", weapons = ["Spear"] }

[[unit]]
id = "c"
side = "blue"
at = [3, 1]
character = { name = "Z", race = "Hobbit", tarot = "3 of Swords", weapons = ["Spear"] }
"#;
    let e = fray_collision::play::load(&game, "s.toml", text).err().unwrap();
    assert!(e.contains("s.toml:5: unit[0].facing"), "{e}");
    assert!(e.contains("s.toml:12: unit[1].side"), "{e}");
    assert!(e.contains("s.toml:22: unit[2].character.race"), "{e}");
}
