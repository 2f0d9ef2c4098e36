//! Issue 14, "No input breaks Fray": the Kazzam loaders refuse numbers outside the stated limits
//! (docs/scenarios/kazzam.md, "Limits") with file, line, field and range, one error per problem;
//! game sums cannot wrap. Each test names the finding it guards.

/// The errors of a scenario that must not load.
fn refused(text: &str) -> String {
    let content = std::sync::Arc::new(fray_kazzam::content::Content::builtin());
    match fray_kazzam::engine::scenario::load(&content, "t.toml", text) {
        Ok(_) => panic!("loaded:\n{text}"),
        Err(e) => e,
    }
}

const HEAD: &str = "system = \"kazzam\"\ntitle = \"t\"\n[map]\nrows = [\"......\", \"......\"]\n";

/// Issue 14, "Hangs": a unit of `size = 100000` printed one "off the map" error per footprint
/// square after saying the size is invalid (minutes, gigabytes). Now: one error.
#[test]
fn a_huge_unit_is_one_error() {
    let e = refused(&format!("{HEAD}[[unit]]\nid = \"ada\"\nteam = \"red\"\nat = [0, 0]\nsize = 100000\n"));
    assert_eq!(e, "t.toml: line 9, unit[0].size: 100000 is beyond ±9999, the largest number Fray reads");
    let e = refused(&format!("{HEAD}[[unit]]\nid = \"ada\"\nteam = \"red\"\nat = [0, 0]\nsize = 5000\n"));
    assert_eq!(e, "t.toml: line 5, unit[0] (ada).size: size 5000 is outside 1..4");
    // A legal size reaching off the map: one error, not one per square.
    let e = refused(&format!("{HEAD}[[unit]]\nid = \"ada\"\nteam = \"red\"\nat = [4, 0]\nsize = 4\n"));
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("unit[0] (ada).at: (6,0) is off the map"), "{e}");
}

/// Issue 14, "Hangs" and "Garbage accepted": `speed = 2147483647` aborted on a 51 GB
/// allocation; negative speed, Ward, amounts and terrain damage, empty ids, a unit grabbed by
/// itself and a Creep on a team were accepted; so was Vulnerable 2147483647 (a hit for 0
/// damage in release builds) and initiative -2147483648 (acted first).
#[test]
fn numbers_outside_their_ranges_and_nonsense_units_are_refused() {
    // Beyond any rule's range: refused before anything else is read.
    let e = refused(&format!(
        "{HEAD}terrain_damage = -1\n[[unit]]\nid = \"ada\"\nteam = \"red\"\nat = [0, 0]\nspeed = 2147483647\n\
         [[unit]]\nid = \"\"\nteam = \"blue\"\nat = [2, 0]\nspeed = -3\nward = -2\ninitiative = -2147483648\n\
         statuses = [{{ name = \"vulnerable\", amount = 2147483647 }}, {{ name = \"ongoing\", amount = -2 }}]\n\
         [[unit]]\nid = \"cy\"\nteam = \"red\"\nat = [4, 0]\nstatuses = [{{ name = \"grabbed\", source = \"cy\" }}]\n\
         [[unit]]\nid = \"bear\"\nteam = \"red\"\nkind = \"creep\"\nwhat = \"guardian-bear\"\nat = [0, 1]\n"
    ));
    for want in [
        "line 10, unit[0].speed: 2147483647 is beyond ±9999",
        "line 17, unit[1].initiative: -2147483648 is beyond ±9999",
        "line 18, unit[1].statuses[0].amount: 2147483647 is beyond ±9999",
    ] {
        assert!(e.contains(want), "{want}\n{e}");
    }
    // Within that, each field's own range.
    let e = refused(&format!(
        "{HEAD}terrain_damage = -1\n[[unit]]\nid = \"ada\"\nteam = \"red\"\nat = [0, 0]\nspeed = 9999\n\
         [[unit]]\nid = \"\"\nteam = \"blue\"\nat = [2, 0]\nspeed = -3\nward = -2\ninitiative = -9999\n\
         statuses = [{{ name = \"vulnerable\", amount = 9999 }}, {{ name = \"ongoing\", amount = -2 }}]\n\
         [[unit]]\nid = \"cy\"\nteam = \"red\"\nat = [4, 0]\nstatuses = [{{ name = \"grabbed\", source = \"cy\" }}]\n\
         [[unit]]\nid = \"bear\"\nteam = \"red\"\nkind = \"creep\"\nwhat = \"guardian-bear\"\nat = [0, 1]\n"
    ));
    for want in [
        "t.toml: map.terrain_damage: -1 is outside 0..99",
        "line 6, unit[0] (ada).speed: 9999 is outside 0..99",
        "unit[1] ().id: a unit needs an id",
        "unit[1] ().speed: -3 is outside 0..99",
        "unit[1] ().ward: -2 is outside 0..99",
        "unit[1] ().initiative: -9999 is outside -99..99",
        "unit[1] ().statuses[0].amount: 9999 is outside 0..99",
        "unit[1] ().statuses[1].amount: -2 is outside 0..99",
        "unit[2] (cy).statuses[0]: a unit is not the source of its own grabbed",
        "unit[3] (bear).team: a Creep plays for no team",
    ] {
        assert!(e.contains(want), "{want}\n{e}");
    }
}

/// Issue 14, "Garbage accepted": a three-number square was read as its first two.
#[test]
fn a_square_is_two_numbers() {
    let e = refused(&format!("{HEAD}[[unit]]\nid = \"ada\"\nteam = \"red\"\nat = [0, 0, 7]\n"));
    assert!(e.contains("a square is two numbers [x, y], not 3"), "{e}");
    let e = refused(&format!("{HEAD}[[unit]]\nid = \"ada\"\nteam = \"red\"\nat = [2147483647, 0]\n"));
    assert!(e.contains("far off any map"), "{e}");
}

/// Issue 14: a map beyond the limit is one error; a long error list is capped.
#[test]
fn an_oversized_map_is_one_error_and_long_error_lists_are_capped() {
    let row = ".".repeat(5000);
    let e = refused(&format!("system = \"kazzam\"\ntitle = \"t\"\n[map]\nrows = [\"{row}\"]\n"));
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("at most 100 by 100"), "{e}");
    let mut text = HEAD.to_string();
    for i in 0..30 {
        text.push_str(&format!("[[unit]]\nid = \"u{i}\"\nteam = \"red\"\nat = [0, 0]\nspeed = -{i}\n"));
    }
    let e = refused(&text);
    assert_eq!(e.lines().count(), fray_core::scenario::MAX_ERRORS + 1, "{e}");
    assert!(e.lines().last().unwrap().starts_with("…and ") && e.ends_with(" more"), "{e}");
}

/// Issue 14, "Garbage accepted": `--option target-score=0` was accepted.
#[test]
fn table_option_numbers_are_checked() {
    let e = fray_kazzam::engine::options::TableOptions::from_pairs(&["target-score=0".into()]).unwrap_err();
    assert_eq!(e, "--option target-score: 0 is outside 1..999");
    let e = refused(&format!("{HEAD}[options]\nround-limit = 5000\n"));
    assert!(e.contains("options.round-limit: 5000 is outside 0..999"), "{e}");
}

/// Issue 14, "Hangs": a team of 1,000 athletes took minutes to check.
#[test]
fn a_team_file_of_too_many_athletes_is_one_error() {
    let content = fray_kazzam::content::Content::builtin();
    let one = "[[athlete]]\nname = \"a\"\nclass = \"hexer\"\nrole = \"striker\"\nspecialization = \"x\"\nimplement = \"wand\"\nlevel = 1\n";
    let e = fray_kazzam::content::builder::check_file(&content, "team.toml", &one.repeat(1000)).unwrap_err();
    assert_eq!(e, ["team.toml:36: athlete: 1000 athletes; a team has at most 5, one of each role (K-FMT-1)"]);
}

/// Issue 14, "Wrapping arithmetic": in release builds Vulnerable 2147483647 turned a hit into
/// 0 damage (and the test build panicked). Files can no longer give such an amount; the sum
/// saturates anyway, so a hit is never reduced by an enormous Vulnerable.
#[test]
fn an_enormous_vulnerable_never_wraps_a_hit_into_nothing() {
    let content = std::sync::Arc::new(fray_kazzam::content::Content::builtin());
    let text = "system = \"kazzam\"\ntitle = \"t\"\n[map]\nrows = [\"....\"]\n\
                [[unit]]\nid = \"ada\"\nteam = \"red\"\nat = [0, 0]\n\
                [[unit]]\nid = \"bo\"\nteam = \"blue\"\nat = [2, 0]\nstatuses = [{ name = \"vulnerable\", amount = 1 }]\n";
    let s = fray_kazzam::engine::scenario::load(&content, "t.toml", text).unwrap().state;
    assert_eq!(fray_kazzam::rules::damage::adjusted(&s, 1, 2, None), 3);
    let mut facts = (*s).clone();
    facts.unit_mut(1).statuses[0].amount = i32::MAX;
    let s = fray_kazzam::engine::state::State::new(facts);
    assert_eq!(fray_kazzam::rules::damage::adjusted(&s, 1, 2, None), i32::MAX);
}
