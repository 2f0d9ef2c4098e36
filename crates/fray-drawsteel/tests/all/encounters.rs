//! Encounter files (`fray play drawsteel --map NAME|FILE`, docs/encounters.md): every built-in
//! encounter reads and plays to its end under random bots; a bad file is refused with its name,
//! line and field; a file may bring stat blocks of its own.

use fray_core::conformance::{self, Settings};
use fray_core::dice::SeededDice;
use fray_core::game::{Game, NullSink};
use fray_core::table::TeamText;
use fray_drawsteel::{DrawSteel, EncounterSetup};
use std::sync::Arc;

fn setup(path: &str, text: &str) -> EncounterSetup {
    EncounterSetup { options: vec![], map: Some(TeamText { path: path.into(), text: text.into() }) }
}

fn refused(text: &str) -> String {
    let game = DrawSteel::builtin();
    match game.start(&setup("bad.toml", text), &mut SeededDice::new(1), &mut NullSink) {
        Ok(_) => panic!("the encounter was accepted:\n{text}"),
        Err(e) => e.0.join("\n"),
    }
}

#[test]
fn every_built_in_encounter_plays_to_its_end() {
    let game = Arc::new(DrawSteel::builtin());
    for (name, text) in fray_drawsteel::setup::ENCOUNTERS {
        let encounter = setup(name, text);
        let start = conformance::from_setup::<DrawSteel>(&encounter);
        let settings = Settings { max_decisions: 20_000, ..Settings::default() };
        let (_, failures) = conformance::random_matches(&game, &start, 0..20, &settings, &|_, _| Ok(()), |_, _| ());
        assert!(failures.is_empty(), "{name}: {}", failures.join("\n"));
    }
}

#[test]
fn the_sample_file_is_the_default_encounter() {
    let game = DrawSteel::builtin();
    let (_, sample) = fray_drawsteel::setup::ENCOUNTERS[0];
    let a = game.start(&EncounterSetup::default(), &mut SeededDice::new(7), &mut NullSink).unwrap();
    let b = game.start(&setup("sample", sample), &mut SeededDice::new(7), &mut NullSink).unwrap();
    let ids = |s: &fray_drawsteel::State| s.creatures.iter().map(|c| (c.id.to_string(), c.pos)).collect::<Vec<_>>();
    assert_eq!(ids(&a), ids(&b));
}

const FIELD: &str = "name = \"t\"\ntext = \"t\"\n[map]\nrows = [\"......\", \"......\"]\n";

#[test]
fn a_bad_encounter_names_file_line_and_field() {
    let off = format!(
        "{FIELD}\n[[unit]]\nid = \"a\"\nteam = \"heroes\"\nat = [0, 0]\ncreature = \"vessa\"\n\n\
         [[unit]]\nid = \"b\"\nteam = \"director\"\nat = [9, 0]\ncreature = \"bog-brute\"\n"
    );
    let e = refused(&off);
    assert!(e.starts_with("bad.toml:") && e.contains("line 12"), "{e}");
    let unknown = format!("{FIELD}\n[[unit]]\nid = \"a\"\nteam = \"heroes\"\nat = [0, 0]\ncreature = \"nobody\"\n");
    let e = refused(&unknown);
    assert!(e.contains("bad.toml") && e.contains("nobody"), "{e}");
    let e = refused(FIELD);
    assert!(e.contains("bad.toml") && e.contains("[[unit]]"), "{e}");
    let e = refused("name = \"t\"\ntext = \"t\"\nmapp = 3\n");
    assert!(e.contains("bad.toml") && e.contains("mapp"), "{e}");
}

#[test]
fn an_encounter_may_bring_its_own_stat_blocks() {
    let text = format!(
        "{FIELD}\n[[creature]]\nid = \"mud-imp\"\nname = \"Mud Imp\"\nkind = \"monster\"\nlevel = 1\n\
         organization = \"horde\"\nrole = \"harrier\"\nstamina = 7\nspeed = 5\nsize = \"1S\"\nstability = 0\n\
         free_strike = 1\ncharacteristics = {{ might = 0, agility = 1, reason = 0, intuition = 0, presence = 0 }}\n\
         text = \"A small mud thing.\"\n\n\
         [[unit]]\nid = \"a\"\nteam = \"heroes\"\nat = [0, 0]\ncreature = \"vessa\"\n\n\
         [[unit]]\nid = \"imp\"\nteam = \"director\"\nat = [5, 1]\ncreature = \"mud-imp\"\n"
    );
    let game = DrawSteel::builtin();
    let s = game.start(&setup("imp.toml", &text), &mut SeededDice::new(1), &mut NullSink).unwrap();
    let imp = s.creatures.iter().find(|c| &*c.id == "imp").unwrap();
    assert_eq!(imp.max_stamina, 7);
}

/// DS-GAP-21 (issue 19): `fray build drawsteel FILE` on an encounter reports its budget:
/// encounter strength 4 + 2 x level per hero (and one hero more per 2 average Victories) against
/// the Director's creatures' encounter values, (2 x level + 4) times the organization's modifier.
#[test]
fn an_encounter_file_reports_its_budget() {
    let report = |name: &str| {
        let (_, text) = fray_drawsteel::setup::ENCOUNTERS.iter().find(|(id, _)| *id == name).copied().unwrap();
        fray_drawsteel::setup::check_file(name, text).unwrap().join("\n")
    };
    // Two level-1 heroes (12) against a platoon brute (6) and two hordes (3 each).
    let sample = report("sample");
    assert!(sample.contains("encounter strength 12") && sample.contains("EV 12: standard"), "{sample}");
    // Three brutes, two hounds and an archer: 27, more than one hero over 12.
    let ambush = report("mire-ambush");
    assert!(ambush.contains("EV 27: hard"), "{ambush}");
    // Four heroes (24) against a leader (12), an elite (12) and four minions (3 in all).
    let warband = report("warband");
    assert!(warband.contains("encounter strength 24") && warband.contains("EV 27: standard"), "{warband}");
    assert!(warband.contains("4 x Mire Goblin (level 1 minion): EV 3, 1 group(s) of four"), "{warband}");
    // DS-GAP-21: minions are bought four at a time: a fifth goblin begins a second group.
    let (_, text) = fray_drawsteel::setup::ENCOUNTERS.iter().find(|(id, _)| *id == "warband").copied().unwrap();
    let fifth =
        format!("{text}\n[[unit]]\nid = \"goblin-5\"\nteam = \"director\"\nat = [0, 0]\ncreature = \"mire-goblin\"\n");
    let r = fray_drawsteel::setup::check_file("fifth", &fifth).unwrap().join("\n");
    assert!(r.contains("EV 30: standard") && r.contains("5 x Mire Goblin (level 1 minion): EV 6, 2 group(s)"), "{r}");
    // Victories: 4 heroes with 2 on average count as a fifth.
    let (_, text) = fray_drawsteel::setup::ENCOUNTERS.iter().find(|(id, _)| *id == "warband").copied().unwrap();
    let seasoned = text.replace("creature = \"vessa\"", "creature = \"vessa\"\nvictories = 8");
    let r = fray_drawsteel::setup::check_file("seasoned", &seasoned).unwrap().join("\n");
    assert!(r.contains("encounter strength 30") && r.contains("EV 27: easy"), "{r}");
}

const HOUND: &str = include_str!("../../../../content/drawsteel/import/cinder-hound.statblock.md");

/// Issue 19: a monster in the Steel Compendium's markdown statblock shape (Fray's own sample) is
/// read with its damage types, immunity and weakness (DS-GAP-20); `fray build drawsteel FILE.md`
/// shows its card.
#[test]
fn a_markdown_statblock_is_read() {
    let m = fray_drawsteel::import::read_markdown("hound.md", HOUND).unwrap();
    assert_eq!(
        (m.id.as_str(), m.stamina, m.speed, m.organization.as_deref()),
        ("cinder-hound", 16, 7, Some("platoon"))
    );
    assert_eq!(m.immunities.get("fire").and_then(|a| a.value()), Some(3));
    assert_eq!(m.weaknesses.get("cold").and_then(|a| a.value()), Some(2));
    let bite = m.ability.iter().find(|a| a.id == "smouldering-bite").unwrap();
    assert_eq!((bite.tier2.damage, bite.tier2.damage_type.as_deref()), (5, Some("fire")));
    assert_eq!(bite.tier3.effects[0].potency.as_deref(), Some("A<1"));
    let shake = m.ability.iter().find(|a| a.id == "ash-shake").unwrap();
    assert_eq!(shake.tier3.effects[0].push, Some(3));
    let card = fray_drawsteel::setup::check_file("hound.md", HOUND).unwrap().join("\n");
    assert!(card.contains("Immunities: fire 3") && card.contains("Weaknesses: cold 2"), "{card}");
    assert!(card.contains("12-16: 5 fire damage"), "{card}");
}

/// A markdown statblock Fray cannot use is refused feature by feature, each with the line of its
/// heading and the field.
#[test]
fn a_markdown_statblock_fray_cannot_use_is_refused_with_lines() {
    let bad = "---\nname: Odd Beast\ntype: statblock\nlevel: 1\norganization: Platoon\nstamina: \"20\"\nspeed: 5\n\
               size: 1M\nfree_strike: 2\nmovement: Fly\nimmunities:\n    - Glitter 4\n---\n\n\
               > ⭐️ **Slippery**\n>\n> It slips away.\n\n\
               > 🗡 **Gnaw (3 Malice)**\n>\n> | **Melee** | **Main action** |\n> |---|---:|\n> | **📏 Melee 1** | **🎯 One creature** |\n\n\
               > 🗡 **Snap**\n>\n> | **Melee, Strike** | **Main action** |\n> |---|---:|\n> | **📏 Melee 1** | **🎯 One creature** |\n>\n\
               > **Power Roll + 0:**\n>\n> - **≤11:** 2 damage\n> - **12-16:** 4 damage\n> - **17+:** 6 damage\n>\n\
               > **Effect:** The beast howls.\n";
    let e = fray_drawsteel::import::read_markdown("odd.md", bad).unwrap_err().join("\n");
    for field in [
        "odd.md: movement:",
        "odd.md: immunities[0]:",
        "line 15, features[0] (Slippery)",
        "line 19, features[1] (Gnaw).cost",
        "line 25, features[2] (Snap).effects[1]",
    ] {
        assert!(e.contains(field), "no error for {field}:\n{e}");
    }
    let e = fray_drawsteel::import::read_markdown("none.md", "name: x\n").unwrap_err().join("\n");
    assert!(e.contains("none.md: line 1"), "{e}");
}

const STALKER: &str = include_str!("../../../../content/drawsteel/import/reed-stalker.statblock.json");
const WREN: &str = include_str!("../../../../content/drawsteel/import/wren-marsh.hero.json");

/// Issue 19, item 6: Fray's sample files in the Steel Compendium's statblock shape and Forge
/// Steel's hero shape are read (`fray build drawsteel FILE.json`) and play in an encounter to the
/// end under random bots.
#[test]
fn community_shaped_samples_import_and_play() {
    let m = fray_drawsteel::import::read("stalker.json", STALKER, None).unwrap();
    assert_eq!(
        (m.id.as_str(), m.stamina, m.organization.as_deref(), m.ability.len()),
        ("reed-stalker", 18, Some("platoon"), 2)
    );
    let h = fray_drawsteel::import::read("wren.json", WREN, None).unwrap();
    assert_eq!((h.id.as_str(), h.stamina, h.recoveries, h.class.as_deref()), ("wren-marsh", 21, 10, Some("fury")));
    assert!(fray_drawsteel::setup::check_file("wren.json", WREN).is_ok());
    let text = format!(
        "{FIELD}\n[[import]]\nformat = \"steel-compendium\"\njson = '''\n{STALKER}'''\n\n\
         [[import]]\nformat = \"forge-steel\"\njson = '''\n{WREN}'''\n\n\
         [[unit]]\nid = \"wren\"\nteam = \"heroes\"\nat = [0, 0]\ncreature = \"wren-marsh\"\n\n\
         [[unit]]\nid = \"stalker\"\nteam = \"director\"\nat = [5, 1]\ncreature = \"reed-stalker\"\n"
    );
    let game = Arc::new(DrawSteel::builtin());
    let encounter = setup("imported.toml", &text);
    let start = conformance::from_setup::<DrawSteel>(&encounter);
    let settings = Settings { max_decisions: 20_000, ..Settings::default() };
    let (_, failures) = conformance::random_matches(&game, &start, 0..10, &settings, &|_, _| Ok(()), |_, _| ());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A file Fray cannot use is refused field by field, each error naming the file, the line of
/// the field (or of the feature it belongs to) where the file writes it, and the field.
#[test]
fn a_community_shaped_file_fray_cannot_use_is_refused_field_by_field() {
    let bad = r#"{
      "type": "statblock", "name": "Odd Thing", "level": 2, "organization": "Elite", "stamina": "lots",
      "speed": 5, "size": "1M", "free_strike": 3, "might": 2, "immunities": ["sparkle 5"],
      "with_captain": "Sings a song",
      "features": [
        { "feature_type": "trait", "name": "Slippery", "effects": [{ "effect": "It slips away." }] },
        { "feature_type": "ability", "name": "Zap", "usage": "Triggered action", "distance": "Ranged 5", "target": "One creature" },
        { "feature_type": "ability", "name": "Bonk", "usage": "Main action", "distance": "Melee 1", "target": "One creature",
          "effects": [{ "roll": "Power Roll + 2", "tier1": "2 damage", "tier2": "4 damage; it sneezes", "tier3": "6 damage" }] }
      ]
    }"#;
    let e = fray_drawsteel::import::read("odd.json", bad, None).unwrap_err().join("\n");
    for field in [
        "odd.json: line 2, stamina:",
        "odd.json: line 3, immunities[0]:",
        "odd.json: line 4, with_captain:",
        "odd.json: line 6, features[0] (Slippery)",
        "odd.json: line 7, features[1] (Zap).usage",
        "odd.json: line 9, features[2] (Bonk).effects[0].tier2",
    ] {
        assert!(e.contains(field), "no error for {field}:\n{e}");
    }
    let hero = r#"{ "name": "Odd Hero", "class": { "name": "Wizard", "level": 1, "recoveries": 8,
      "abilities": [{ "name": "Mystery", "type": { "usage": "Main Action" }, "distance": [{ "type": "Ranged", "value": 5 }],
        "target": "One creature", "cost": 0, "powerRoll": null, "effect": "Something strange happens." }] } }"#;
    let e = fray_drawsteel::import::read("hero.json", hero, None).unwrap_err().join("\n");
    for field in ["line 1, class.name", "startingStamina", "line 3, class.abilities[0] (Mystery).effect"] {
        assert!(e.contains(field), "no error for {field}:\n{e}");
    }
}
