//! Encounter files and content files: what a fight may be built from, every problem named with
//! its file, line and field.

use fray_core::table::TeamText;
use fray_dojo::content::{BUILTIN, Content};
use fray_dojo::{Dojo, FightSetup};

/// Builds a fight from an encounter file's text (also used by `book_gaps`).
pub(crate) fn build(text: &str) -> Result<fray_dojo::State, Vec<String>> {
    let setup = FightSetup {
        options: Vec::new(),
        map: Some(TeamText { path: "fight.toml".into(), text: text.into() }),
        enemies: None,
    };
    Dojo::builtin().build(&setup).map_err(|e| e.0)
}

const HEAD: &str = "name = \"test\"\n[map]\nrows = [\"......\", \"......\"]\n";

/// D-EN-2, D-EN-11, D-EN-14, D-HC-1, D-HC-2, D-GRID-1: Warriors have one Stance and one bar,
/// Bosses three Stances and 2 to 5 bars, Heroes one to three Stances of different Forms; the
/// map is at most 20 squares a side. Every problem is reported at once, with its line.
#[test]
fn units_are_checked_against_the_creation_rules() {
    let text = format!(
        "{HEAD}
[[unit]]
id = \"ada\"
side = \"heroes\"
kind = \"hero\"
at = [0, 0]
stances = [\"iron\", \"fortress\"]

[[unit]]
id = \"w\"
side = \"enemies\"
kind = \"warrior\"
at = [1, 0]
stances = [\"iron\", \"zen\"]
build = \"agile\"

[[unit]]
id = \"b\"
side = \"enemies\"
kind = \"boss\"
bars = 6
at = [2, 0]
stances = [\"iron\", \"zen\", \"wild\"]
"
    );
    let errors = build(&text).unwrap_err();
    let all = errors.join("\n");
    assert!(all.contains("fight.toml:5: unit ada: field `stances`") && all.contains("D-HC-2"), "{all}");
    assert!(all.contains("fight.toml:12: unit w") && all.contains("D-EN-2"), "{all}");
    assert!(all.contains("unit b: field `bars`") && all.contains("D-EN-14"), "{all}");
    assert!(all.contains("unit w: field `build`") && all.contains("have no Build"), "{all}");
    let units = "[[unit]]\nid = \"a\"\nside = \"heroes\"\nkind = \"hero\"\nat = [0, 0]\nstances = [\"zen\"]\n";
    let big = format!("name = \"big\"\n[map]\nrows = [{}]\n{units}", ["\".....................\""; 2].join(", "));
    assert!(build(&big).unwrap_err().join("\n").contains("D-GRID-1"));
}

/// D-INIT-1, D-CMP-2, D-EN-1: the sample fight gives each side three health bars (two heroes
/// against a Warrior and a two-bar Boss), so the meter has six slots.
#[test]
fn the_sample_fight_is_even() {
    let s = Dojo::builtin().build(&FightSetup::default()).unwrap();
    for side in 0..2 {
        let bars: u32 = s.units.iter().filter(|u| u.side == side).map(|u| u.bars as u32).sum();
        assert_eq!(bars, 3, "side {side}");
    }
    assert_eq!(s.meter.slots(), 6);
}

/// A content file that does not read names its file, line and field.
#[test]
fn content_errors_name_file_line_and_field() {
    let mut files: Vec<(String, String)> = BUILTIN.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect();
    let k = files.iter().position(|(n, _)| n == "dojo/actions.toml").unwrap();
    let actions = files[k].1.clone();
    files[k].1 = actions.replace("target = \"adjacent\"", "target = \"nearby\"");
    let e = Content::from_files(files.clone()).unwrap_err();
    assert!(e.contains("dojo/actions.toml") && e.contains("line") && e.contains("nearby"), "{e}");
    files[k].1 = actions.replace("cost = \"1+/3+/5+/7+/9+\"", "cost = \"1+/3+/5+\"");
    let e = Content::from_files(files).unwrap_err();
    assert!(e.contains("dojo/actions.toml:") && e.contains("action damage: field `gate`"), "{e}");
    let c = Content::builtin().unwrap();
    assert_eq!((c.forms.len(), c.styles.len(), c.archetypes.len(), c.basic.len(), c.tokens.len()), (13, 67, 22, 9, 12));
    // The 12 Forms, 65 Styles and 13 Archetypes of the hero chapters; the rest are the enemy
    // chapter's: the Stunning Style and Dragon's Ego's Style and Form (§2.5), and the nine Boss
    // Archetypes (§2.4).
    let bosses = c.archetypes.iter().filter(|a| a.boss.is_some()).count();
    assert_eq!(
        (c.forms.len() - c.enemies.form.len(), c.styles.len() - c.enemies.style.len(), c.archetypes.len() - bosses),
        (12, 65, 13)
    );
}

/// Every Form's dice follow the reconstruction (rules/dojo.md §3.4) and a table may change them
/// (D-G-DICE).
#[test]
fn dice_are_table_options() {
    let c = Content::builtin().unwrap();
    let dice = |id: &str| c.forms[c.form(id).unwrap()].dice.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(" ");
    assert_eq!(dice("iron"), "d8 d6 d6");
    assert_eq!(dice("shadow"), "d4 d4 d4 d4 d4 d4");
    assert_eq!(dice("zen"), "7 5 3 1");
    assert_eq!(dice("Tiger"), "d10 d10 d4");
    let setup = FightSetup { options: vec!["dice-song=d8,d8".into(), "boss-die=4".into()], map: None, enemies: None };
    let s = Dojo::builtin().build(&setup).unwrap();
    assert_eq!(s.options.boss_die, 4);
    assert_eq!(s.options.dice[0].0, "song");
    let bad = FightSetup { options: vec!["dice-nope=d8".into(), "boss-die=99".into()], map: None, enemies: None };
    assert_eq!(Dojo::builtin().build(&bad).unwrap_err().0.len(), 2);
}

/// D-TERR-1, D-OBS-1: no Copy is drawn in the map's rows (terrain setup places none); a unit's
/// `copies` stand on empty squares only, each refused with its file and field.
#[test]
fn copies_are_no_terrain_and_stand_on_empty_squares() {
    let drawn = "name = \"test\"\n[map]\nrows = [\"..C...\", \"......\"]\n\
        [[unit]]\nid = \"ada\"\nside = \"heroes\"\nkind = \"hero\"\nat = [0, 0]\nstances = [\"zen\"]\n\
        [[unit]]\nid = \"foe\"\nside = \"enemies\"\nkind = \"warrior\"\nat = [5, 1]\nstances = [\"zen\"]\n";
    let err = build(drawn).unwrap_err().join("\n");
    assert!(err.contains("fight.toml: map row 0: 'C' is not"), "{err}");
    let placed = format!(
        "{HEAD}[[unit]]\nid = \"ada\"\nside = \"heroes\"\nkind = \"hero\"\nat = [0, 0]\nstances = [\"zen\"]\n\
         copies = [[5, 1], [2, 0]]\n\
         [[unit]]\nid = \"foe\"\nside = \"enemies\"\nkind = \"warrior\"\nat = [5, 1]\nstances = [\"zen\"]\n"
    );
    let err = build(&placed).unwrap_err().join("\n");
    assert!(err.contains("unit ada: field `copies`: [5, 1] is not an empty square"), "{err}");
    assert!(!err.contains("[2, 0]"), "{err}");
    let fine = placed.replace("[[5, 1], [2, 0]]", "[[2, 0]]");
    let s = build(&fine).unwrap();
    assert_eq!(s.copies, vec![(fray_core::grid::Pos::new(2, 0), 0)]);
}

/// D-RNG-5: a big unit's squares are on the map and free; only a Vehicle draws a shape; errors
/// name the file, line and field.
#[test]
fn big_units_are_checked() {
    let unit = |id: &str, side: &str, at: &str, extra: &str| {
        format!(
            "[[unit]]\nid = \"{id}\"\nside = \"{side}\"\nkind = \"warrior\"\nat = {at}\nstances = [\"zen\"]\n{extra}"
        )
    };
    let off = format!(
        "{HEAD}{}{}",
        unit("ada", "heroes", "[0, 0]", ""),
        unit("ogre", "enemies", "[5, 0]", "archetypes = [\"giant\"]\n")
    );
    let err = build(&off).unwrap_err().join("\n");
    assert!(err.contains("fight.toml:10: unit ogre: field `at`: its squares from 5,0 run off the map"), "{err}");
    let onto = off
        .replace("[5, 0]", "[0, 0]")
        .replace("at = [0, 0]\nstances = [\"zen\"]\n[[unit]]", "at = [1, 1]\nstances = [\"zen\"]\n[[unit]]");
    assert!(build(&onto).unwrap_err().join("\n").contains("unit ogre: field `at`"));
    let shaped = format!(
        "{HEAD}{}{}",
        unit("ada", "heroes", "[0, 0]", ""),
        unit("ogre", "enemies", "[3, 0]", "shape = [[0, 0], [1, 0]]\n")
    );
    let err = build(&shaped).unwrap_err().join("\n");
    assert!(err.contains("unit ogre: field `shape`: only a Vehicle draws its shape"), "{err}");
    let car = shaped.replace("shape = ", "archetypes = [\"vehicle\"]\nshape = ");
    let s = build(&car).unwrap();
    assert_eq!(s.shapes, vec![(1, true, vec![(0, 0), (1, 0)])]);
}
