//! Loading encounters and scenarios: out-of-range numbers, oversized maps and unknown names are
//! refused with file, line and field (issue 14); the look-up and the view say what Fray plays.

/// The errors of a scenario that must not load.
fn refused(text: &str) -> String {
    match fray_drawsteel::scenario::load("t.toml", text) {
        Ok(_) => panic!("loaded:\n{text}"),
        Err(e) => e,
    }
}

const HEAD: &str = "system = \"drawsteel\"\ntitle = \"t\"\n[map]\nrows = [\"......\"]\n";

/// Issue 14, "Panics": a unit naming an unknown creature before a unit whose condition has a
/// source indexed past the end of the creature list. Also "a unit grabbed by itself" and
/// "Stamina above maximum".
#[test]
fn an_unknown_creature_before_a_condition_source_is_an_error_not_a_panic() {
    let e = refused(&format!(
        "{HEAD}[[unit]]\nid = \"a\"\nteam = \"heroes\"\nat = [0, 0]\ncreature = \"nobody\"\n\
         [[unit]]\nid = \"b\"\nteam = \"director\"\nat = [2, 0]\ncreature = \"bog-brute\"\n\
         conditions = [\"grabbed\"]\nsource = \"b\"\nstamina = 9999\n"
    ));
    assert!(e.contains("t.toml: line 5, unit[0] (a).creature: no stat block called \"nobody\""), "{e}");
    assert!(e.contains("unit[1] (b).source: a creature is not the source of its own condition"), "{e}");
    assert!(e.contains("line 10, unit[1] (b).stamina: 9999 is outside"), "{e}");
}

/// Issue 14, "Hangs" and "Garbage accepted": a creature of size "100000" was accepted and
/// the first turn hung; stat blocks with level 0, negative speed, reach, damage, push and
/// stability were accepted; so was negative terrain damage and an empty id.
#[test]
fn stat_block_numbers_outside_the_limits_are_refused_with_field_and_range() {
    let e = refused(&format!(
        "{HEAD}terrain_damage = -4\n[[creature]]\nid = \"huge\"\nname = \"Huge\"\nkind = \"monster\"\n\
         level = 0\nstamina = 10\nrecoveries = 0\nspeed = -5\nsize = \"100000\"\nstability = -1\n\
         free_strike = 2\ncharacteristics = {{ might = 0, agility = 0, reason = 0, intuition = 0, presence = 0 }}\n\
         text = \"\"\n[[creature.ability]]\nid = \"hit\"\nname = \"Hit\"\nusage = \"main\"\n\
         distance = {{ kind = \"melee\", reach = -1 }}\nroll = [\"might\"]\n\
         tier1 = {{ damage = -3, effects = [{{ push = -2 }}] }}\ntier2 = {{ damage = 2 }}\ntier3 = {{ damage = 3 }}\n\
         [[unit]]\nid = \"\"\nteam = \"director\"\nat = [0, 0]\ncreature = \"huge\"\n"
    ));
    for want in [
        "huge (Huge): level: 0 is outside 1..10",
        "huge (Huge): speed: -5 is outside 0..99",
        "huge (Huge): stability: -1 is outside 0..99",
        "ability[0] (hit).distance.reach: -1 is outside 1..99",
        "ability[0] (hit).tier1.damage: -3 is outside 0..999",
        "ability[0] (hit).tier1.effects[0].push: -2 is outside 0..99",
        "size: size 100000 is larger than 10",
        "map.terrain_damage: -4 is outside 0..999",
        "unit[0] ().id: a unit needs an id",
    ] {
        assert!(e.contains(want), "{want}\n{e}");
    }
}

/// Issue 14: a map larger than the limit is one error, not one per square.
#[test]
fn an_oversized_map_is_one_error() {
    let row = ".".repeat(5000);
    let e = refused(&format!(
        "system = \"drawsteel\"\ntitle = \"t\"\n[map]\nrows = [\"{row}\", \"{row}\"]\n\
         [[unit]]\nid = \"a\"\nteam = \"heroes\"\nat = [0, 0]\ncreature = \"vessa\"\n"
    ));
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("5000 squares wide") && e.contains("at most 100 by 100"), "{e}");
}

fn entry(id: &str, name: &str) -> String {
    let all = fray_drawsteel::setup::rules_index().unwrap();
    all.into_iter().find(|e| e.id == id && e.name == name).unwrap_or_else(|| panic!("no entry {id} {name}")).text
}

/// The look-up says what Fray plays: the grabbed option (DS-DELTA-7), surges on potency
/// (DS-SURGE-2) and hero tokens on saves (DS-TOKEN-3) are all played.
#[test]
fn lookup_entries_say_what_fray_plays() {
    let grabbed = entry("DS-COND-GRAB-1", "Grabbed");
    assert!(grabbed.contains("grabbed = published") && grabbed.contains("grabbed = glossary"), "{grabbed}");
    assert!(!grabbed.contains("no option yet"), "{grabbed}");
    for (id, name) in [("DS-GAP-5", "Potency"), ("DS-SURGE-1", "Surges")] {
        let t = entry(id, name);
        assert!(!t.contains("not in Fray") && !t.contains("not yet in Fray"), "{t}");
    }
    let tokens = entry("DS-TOKEN-1", "Hero tokens");
    assert!(tokens.contains("token_save") && !tokens.contains("saving-throw use is not offered"), "{tokens}");
}

/// DS-GAP-20: an object's material is glass, wood, stone or metal; anything else is refused
/// naming the file, the line and the field.
#[test]
fn an_unknown_object_material_names_file_line_and_field() {
    let e = refused(&format!(
        "{HEAD}object = [\n  {{ name = \"pane\", at = [1, 0], size = \"1M\", material = \"paper\" }},\n]\n"
    ));
    assert!(e.starts_with("t.toml: "), "{e}");
    assert!(e.contains("line 6"), "{e}");
    assert!(e.contains("material = \"paper\""), "{e}");
    assert!(e.contains("glass") && e.contains("wood") && e.contains("stone") && e.contains("metal"), "{e}");
}

/// Each unit's JSON names `size` once: the core's number of squares (DS-SIZE-1), with the
/// written size under `size_label` (DS-SIZE-2).
#[test]
fn each_unit_writes_size_once() {
    let blocks = fray_drawsteel::setup::builtin_blocks().unwrap();
    let (map, units) = fray_drawsteel::setup::default_encounter();
    let state = fray_drawsteel::setup::build(&map, &blocks, &units, Default::default()).unwrap();
    let view = fray_drawsteel::view::build(&state);
    assert!(!view.units.is_empty());
    for (id, unit) in &view.units {
        let text = serde_json::to_string(unit).unwrap();
        assert_eq!(text.matches("\"size\":").count(), 1, "{id}: {text}");
        assert_eq!(text.matches("\"size_label\":").count(), 1, "{id}: {text}");
    }
}

/// The menu's words end with its plain entries and then its aimed entries, in their order: an
/// answer names an entry by its place in [`WORDS`](fray_drawsteel::game::WORDS).
#[test]
fn the_menu_words_follow_the_menu_entries() {
    use fray_drawsteel::{actions, game::WORDS};
    let entries: Vec<&str> = actions::PLAIN.iter().chain(actions::AIMED.iter()).map(|p| p.0).collect();
    assert_eq!(WORDS[WORDS.len() - entries.len()..], entries[..]);
}
