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
