//! Gaps of the book (rules/dojo.md §4) that Fray settles at the builder and the look-up: hex
//! grids, the example heroes' sheets, the Frantic hero's Styles, the two Swarms.

use fray_core::table::BuildReport;
use fray_dojo::Dojo;

const UNITS: &str = "
[[unit]]
id = \"ada\"
side = \"heroes\"
kind = \"hero\"
at = [0, 0]
stances = [\"zen\"]

[[unit]]
id = \"foe\"
side = \"enemies\"
kind = \"warrior\"
at = [5, 1]
stances = [\"zen\"]
";

use crate::setup::build;

/// D-G-07, D-OPT-5: a map asking for a hexagonal grid is refused, naming the file, the line and
/// the field; `grid = "square"` (or none) builds as before.
#[test]
fn a_hex_grid_is_refused_with_its_line() {
    let hex = format!("name = \"t\"\n[map]\ngrid = \"hex\"\nrows = [\"......\", \"......\"]\n{UNITS}");
    let Err(errors) = build(&hex) else { panic!("a hex map must be refused") };
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("fight.toml:3: map: field `grid`: \"hex\" is not played"), "{errors:?}");
    assert!(errors[0].contains("D-G-07"), "{errors:?}");
    let square = format!("name = \"t\"\n[map]\ngrid = \"square\"\nrows = [\"......\", \"......\"]\n{UNITS}");
    let s = build(&square).expect("a square map builds");
    assert_eq!((s.map.width(), s.map.height()), (6, 2));
}

fn check(path: &str, text: &str) -> BuildReport {
    fray_dojo::game::system().check_build(path, text)
}

/// D-G-24, D-G-25, D-G-26: the chapter's three example heroes, entered with their Form Skills by
/// the Forms' own names, build as they are printed: Patty North Focused, Truth Crimson Fused and
/// Pompadour Rex Frantic (two of his three Frantic abilities match his Styles' Archetypes).
#[test]
fn the_example_heroes_build() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/dojo/example-heroes.toml");
    let text = std::fs::read_to_string(path).unwrap();
    match check("example-heroes.toml", &text) {
        BuildReport::Legal(lines) => {
            assert_eq!(lines.len(), 4, "{lines:?}");
            assert!(lines[0].starts_with("Patty North (Hero, heroes): 1 bar(s) of 14 HP"), "{lines:?}");
            assert!(lines[2].contains("Bleeding Wild, Jumping Wild, Misfortune's Wild"), "{lines:?}");
        }
        BuildReport::Illegal(e) => panic!("{}", e.join("\n")),
    }
    // D-G-24: the sheet's misprinted Skill name is no Form's Skill: it would be a second
    // Skill of the hero's own, which the builder refuses.
    let misprint = text.replace("\"Unmovable\"]", "\"Unbreakable\"]");
    match check("example-heroes.toml", &misprint) {
        BuildReport::Illegal(e) => {
            assert!(e.iter().any(|l| l.contains("hero patty: field `skills`: 3 Skills of Forms")), "{e:?}")
        }
        BuildReport::Legal(l) => panic!("accepted: {l:?}"),
    }
}

const FRANTIC: &str = "name = \"t\"\n[map]\nrows = [\"......\", \"......\"]\n
[[unit]]
id = \"rex\"
side = \"heroes\"
kind = \"hero\"
at = [0, 0]
forms = [\"wild\", \"song\", \"blaster\"]
styles = STYLES
frantic = FRANTIC
build = \"bumbling\"
skills = [\"Overconfident Punk\", \"Professional\", \"Wind Runner\", \"Natural Charisma\"]

[[unit]]
id = \"foe\"
side = \"enemies\"
kind = \"warrior\"
at = [5, 1]
stances = [\"zen\"]
";

fn frantic(styles: &str, abilities: &str) -> Vec<String> {
    match check("rex.toml", &FRANTIC.replace("STYLES", styles).replace("FRANTIC", abilities)) {
        BuildReport::Legal(_) => Vec::new(),
        BuildReport::Illegal(e) => e,
    }
}

/// D-G-26: a Frantic hero takes three Styles of three different Archetypes (the Styles
/// chapter's "two of two Archetypes and any third" is not enough), and at least two of its
/// Frantic abilities belong to those Archetypes.
#[test]
fn a_frantic_hero_takes_styles_of_three_archetypes() {
    let ok = frantic("[\"bleeding\", \"jumping\", \"misfortunes\"]", "[\"angel\", \"punk\", \"underdog\"]");
    assert!(ok.is_empty(), "{ok:?}");
    // Two Styles of the Angel and one of the Punk: the looser reading, refused.
    let two = frantic("[\"winged\", \"halcyon\", \"bleeding\"]", "[\"angel\", \"punk\", \"underdog\"]");
    assert!(two.iter().any(|e| e.contains("field `styles`: 3 Styles of 3 different Archetypes")), "{two:?}");
    // Only one Frantic ability (the Punk's) matches the Styles: refused.
    let one = frantic("[\"bleeding\", \"jumping\", \"misfortunes\"]", "[\"angel\", \"punk\", \"demon\"]");
    assert!(one.iter().any(|e| e.contains("field `frantic`: at least 2 Frantic abilities")), "{one:?}");
}

/// D-G-24: the book's two things called the Swarm, the Trickster Stooges and the Boss Archetype,
/// are two look-up entries with ids of their own; the Basic Action is A Challenger Approaches.
#[test]
fn the_look_up_tells_the_two_swarms_apart() {
    let entries = fray_dojo::game::rules_index(&Dojo::builtin()).unwrap();
    let named = |alias: &str| entries.iter().filter(|e| e.aliases.iter().any(|a| a == alias)).count();
    assert_eq!(named("the-swarm"), 1);
    assert_eq!(named("swarm"), 1);
    let swarms: Vec<&str> = entries
        .iter()
        .filter(|e| e.aliases.iter().any(|a| a == "swarm" || a == "the-swarm"))
        .map(|e| e.kind.as_str())
        .collect();
    assert_eq!(swarms.len(), 2);
    assert_ne!(swarms[0], swarms[1], "the two Swarms are of different kinds");
    assert!(entries.iter().any(|e| e.name == "A Challenger Approaches"));
}
