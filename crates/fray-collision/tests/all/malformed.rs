//! Malformed files get an error naming the file, the line and the field, and build nothing:
//! character files, and the content files themselves (parsed from text, as the program does).

use fray_collision::builder::check_file;
use fray_collision::content::{Content, FILES};

fn errors(text: &str) -> Vec<String> {
    check_file(&Content::builtin().unwrap(), "bad.toml", text).expect_err("refused")
}

#[test]
fn a_character_file_with_broken_toml_names_its_line_and_field() {
    let e = errors("[[character]]\nname = \"X\"\nrace = \n");
    assert_eq!(e.len(), 1);
    assert!(e[0].starts_with("bad.toml:3: field `race`:"), "{}", e[0]);
}

#[test]
fn an_unknown_field_is_named_with_its_line() {
    let e = errors("[[character]]\nname = \"X\"\nrace = \"Human\"\ntarot = \"2 of Cups\"\nhat = \"tall\"\n");
    assert!(e[0].starts_with("bad.toml:5: field `hat`:") && e[0].contains("unknown field `hat`"), "{}", e[0]);
}

#[test]
fn a_wrong_type_is_named_with_its_line() {
    let e = errors("[[character]]\nname = \"X\"\nrace = \"Human\"\ntarot = \"2 of Cups\"\nskills = \"Parry\"\n");
    assert!(e[0].starts_with("bad.toml:5: field `skills`:"), "{}", e[0]);
    let e = errors("[group]\nallotment = \"lots\"\n\n[[character]]\nname = \"X\"\n");
    assert!(e[0].starts_with("bad.toml:2: field `allotment`:"), "{}", e[0]);
}

#[test]
fn a_file_without_characters_says_how_to_write_one() {
    let e = errors("# nothing here\n");
    assert!(e[0].contains("no characters") && e[0].contains("[[character]]"), "{}", e[0]);
    let e = errors("[[character]]\nrace = \"Human\"\n");
    assert!(e[0].starts_with("bad.toml:1:") && e[0].contains("missing field `name`"), "{}", e[0]);
}

/// The content files with one of them replaced.
fn with(file: &str, text: &str) -> Result<Content, String> {
    let files: Vec<(&str, &str)> =
        FILES.iter().map(|(p, t)| if p.ends_with(file) { (*p, text) } else { (*p, *t) }).collect();
    Content::parse(&files)
}

fn file(name: &str) -> &'static str {
    FILES.iter().find(|(p, _)| p.ends_with(name)).unwrap().1
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn content_with_an_unknown_value_names_file_line_row_and_field() {
    let text = file("weapons.toml").replacen("value = \"universal\"", "value = \"valour\"", 1);
    let e = with("weapons.toml", &text).unwrap_err();
    let line = line_of(&text, "valour");
    assert!(
        e.starts_with(&format!("content/collision/weapons.toml:{line}: weapon[0] (Blade).value:"))
            && e.contains("C-CREATE-1"),
        "{e}"
    );
}

#[test]
fn content_with_broken_toml_names_file_line_and_field() {
    let text = file("glossary.toml").replacen("cost = \"1M\"", "cost = 1M", 1);
    let e = with("glossary.toml", &text).unwrap_err();
    let line = line_of(&text, "cost = 1M");
    assert!(e.starts_with(&format!("content/collision/glossary.toml:{line}: field `cost`:")), "{e}");
}

#[test]
fn content_with_an_unknown_field_or_bad_cross_reference_is_refused() {
    let text = file("races.toml").replacen("reach = 0", "reach = 0\ncolour = \"green\"", 1);
    let e = with("races.toml", &text).unwrap_err();
    assert!(
        e.starts_with(&format!("content/collision/races.toml:{}: field `colour`:", line_of(&text, "colour"))),
        "{e}"
    );
    let text = file("accessories.toml").replacen("grants = [\"Block 2\"]", "grants = [\"Block 3\"]", 1);
    let e = with("accessories.toml", &text).unwrap_err();
    assert!(e.contains("accessory[0] (Shield).grants: \"Block 3\" is not a glossary term"), "{e}");
    assert!(e.starts_with(&format!("content/collision/accessories.toml:{}:", line_of(&text, "Block 3"))), "{e}");
    let text = file("tarots.toml").replacen("suit = \"swords\"", "suit = \"wands\"", 1);
    let e = with("tarots.toml", &text).unwrap_err();
    assert!(e.contains("tarot[0] (2 of Swords).suit: \"wands\" is not a suit"), "{e}");
    let text = file("weapons.toml").replacen("reach = \"1\"", "reach = \"far\"", 1);
    let e = with("weapons.toml", &text).unwrap_err();
    assert!(e.contains("weapon[0] (Blade).reach"), "{e}");
}

#[test]
fn content_with_a_duplicate_or_a_missing_file_is_refused() {
    let text = file("skills.toml").replacen("name = \"Parry\"", "name = \"Power Attack\"", 1);
    let e = with("skills.toml", &text).unwrap_err();
    assert!(e.contains("(Power Attack).name: \"Power Attack\" appears twice"), "{e}");
    let files: Vec<(&str, &str)> = FILES.iter().filter(|(p, _)| !p.ends_with("skills.toml")).copied().collect();
    let e = Content::parse(&files).unwrap_err();
    assert!(e.contains("content/collision/skills.toml: missing"), "{e}");
    let text = file("values.toml").replacen("[[value]]", "[[valu]]", 1);
    let e = with("values.toml", &text).unwrap_err();
    assert!(e.contains("unknown table `valu`"), "{e}");
}

/// A scenario whose `[map]` has bad squares.
fn bad_map(map: &str) -> String {
    let text = format!(
        "system = \"collision\"\ntitle = \"t\"\n\n[map]\n{map}\n\n[[unit]]\nside = \"red\"\nat = [0, 0]\n\
         character = {{ name = \"A\", race = \"Human\", tarot = \"2 of Cups\", weapons = [\"Bow\"] }}\n"
    );
    match fray_collision::play::load(&fray_collision::Collision::builtin(), "bad.toml", &text) {
        Ok(_) => panic!("the map was accepted"),
        Err(e) => e,
    }
}

/// C-BAT-HEIGHT, C-BAT-COVER: a bad height or square names the file, the line, the row and
/// the column, and every bad square is listed.
#[test]
fn a_bad_map_square_or_height_names_its_line_and_field() {
    let e = bad_map("rows = [\n  \"..\",\n  \".x\",\n]\nheights = [\n  \"00\",\n  \"0a\",\n]");
    assert!(e.contains("bad.toml:7: [map].rows[1] column 1: 'x'"), "{e}");
    assert!(e.contains("bad.toml:11: [map].heights[1] column 1: 'a' is not a level 0 to 9"), "{e}");
    let e = bad_map("rows = [\"..\", \"..\"]\nheights = [\"00\"]");
    assert!(e.contains("bad.toml:6: [map].heights: 1 rows, [map].rows has 2"), "{e}");
    let e = bad_map("rows = [\"..\", \"..\"]\nheights = [\"00\", \"000\"]");
    assert!(e.contains("bad.toml:6: [map].heights[1]: 3 squares long"), "{e}");
}
