//! Bad input gets a clear error naming file, line and field, and nothing runs.

fn load_err(text: &str) -> String {
    let content = std::sync::Arc::new(fray_kazzam::Content::builtin());
    match fray_kazzam::engine::scenario::load(&content, "bad.toml", text) {
        Ok(_) => panic!("the malformed scenario was accepted"),
        Err(e) => e,
    }
}

const HEAD: &str = "system = \"kazzam\"\ntitle = \"bad\"\n[map]\nrows = [\"....\", \"....\"]\n";

#[test]
fn a_wrong_type_names_file_line_and_field() {
    let e = load_err(&format!("{HEAD}[[unit]]\nid = \"ada\"\nteam = \"red\"\nat = [0, 0]\nhp = \"lots\"\n"));
    assert!(e.starts_with("bad.toml"), "{e}");
    assert!(e.contains("line 9"), "{e}");
    assert!(e.contains("hp = \"lots\""), "{e}");
}

#[test]
fn bad_values_are_all_reported_with_their_fields() {
    let e = load_err(&format!(
        "{HEAD}[[unit]]\nid = \"ada\"\nteam = \"red\"\nat = [9, 0]\nstatuses = [\"sleepy\"]\n[[unit]]\nid = \"bo\"\nteam = \"purple\"\nat = [1, 0]\n"
    ));
    assert!(e.contains("line 5, unit[0] (ada).at: (9,0) is off the map"), "{e}");
    assert!(e.contains("unit[0] (ada).statuses[0]: unknown status \"sleepy\""), "{e}");
    assert!(e.contains("line 10, unit[1] (bo).team: unknown team \"purple\""), "{e}");
}

#[test]
fn unknown_command_fields_and_map_characters_are_refused() {
    let e = load_err(&format!("{HEAD}[[step]]\nact = {{ unit = \"ada\", fly = true }}\n"));
    assert!(e.contains("line 6") && e.contains("unknown field `fly`"), "{e}");
    let e = load_err("system = \"kazzam\"\ntitle = \"bad\"\n[map]\nrows = [\"....\", \"..Y.\"]\n");
    assert!(e.contains("map.rows") && e.contains("row 1, column 2") && e.contains("'Y'"), "{e}");
}

#[test]
fn a_truncated_file_is_refused() {
    let e = load_err("system = \"kazzam\"\ntitle = \"trunc");
    assert!(e.contains("line 2"), "{e}");
}

#[test]
fn an_inline_power_with_a_bad_status_names_its_line() {
    let e = load_err(&format!(
        "{HEAD}[[power]]\nid = \"zap\"\nname = \"Zap\"\naction = \"attack\"\ntarget = {{ kind = \"melee\" }}\neffect = [{{ status = \"sleepy\" }}]\ntext = \"x\"\n"
    ));
    assert!(e.contains("bad.toml:5") && e.contains("effect[0].status") && e.contains("sleepy"), "{e}");
}

#[test]
fn conditional_and_user_effects_are_checked() {
    let power = |effect: &str| {
        format!(
            "{HEAD}[[power]]\nid = \"zap\"\nname = \"Zap\"\naction = \"attack\"\ntarget = {{ kind = \"melee\" }}\neffect = [{effect}]\ntext = \"x\"\n"
        )
    };
    let e = load_err(&power("{ damage = 1, if-target = \"sleepy\" }"));
    assert!(e.contains("effect[0].if_target") && e.contains("sleepy"), "{e}");
    let e = load_err(&power("{ push = 2, on-user = true }"));
    assert!(e.contains("effect[0].on_user"), "{e}");
    let e = load_err(&format!(
        "{HEAD}[[power]]\nid = \"zap\"\nname = \"Zap\"\naction = \"attack\"\ntarget = {{ kind = \"melee\" }}\nfirst = [{{ push = 1 }}]\nbasic = \"fancy\"\ntext = \"x\"\n"
    ));
    assert!(e.contains("first[0]"), "{e}");
}

#[test]
fn a_team_may_not_field_two_athletes_of_one_role_or_class() {
    let e = load_err(&format!(
        "{HEAD}[[unit]]\nid = \"ada\"\nteam = \"red\"\nat = [0, 0]\nrole = \"striker\"\nclass = \"hexer\"\n\
         [[unit]]\nid = \"bo\"\nteam = \"red\"\nat = [1, 0]\nrole = \"Striker\"\nclass = \"hexer\"\n\
         [[unit]]\nid = \"cy\"\nteam = \"blue\"\nat = [2, 0]\nrole = \"striker\"\nclass = \"hexer\"\n"
    ));
    assert!(e.contains("unit[1] (bo).role: ada already plays striker for red") && e.contains("(K-FMT-1)"), "{e}");
    assert!(e.contains("unit[1] (bo).class: ada already plays hexer for red") && e.contains("(K-CHAR-1)"), "{e}");
    assert!(!e.contains("unit[2]"), "the other team may field the same role and class: {e}");
}

// A Creep face listed twice or missing is refused, naming the file, the line and the field.
#[test]
fn bad_creep_faces_name_file_line_and_field() {
    let parse = fray_kazzam::rules::creeps::parse;
    let text = "[[creep]]\nid = \"x\"\nname = \"X\"\ntype = \"elite\"\nsize = 1\nspeed = 4\nsource = \"L1\"\n\n[[creep.action]]\nrolls = \"1-7\"\nname = \"A\"\ntarget = \"melee\"\ntext = \"a\"\n";
    let e = parse("creeps.toml", text).unwrap_err();
    assert!(e.contains("creeps.toml, line 2") && e.contains("action[0].rolls"), "{e}");
    let e = parse("creeps.toml", &text.replace("1-7", "1-5")).unwrap_err();
    assert!(e.contains("no action for a roll of 6"), "{e}");
    let e = parse("creeps.toml", &text.replace("speed = 4", "speed = \"fast\"")).unwrap_err();
    assert!(e.contains("creeps.toml") && e.contains("line 6"), "{e}");
}

#[test]
fn a_power_naming_an_unknown_specialization_is_refused_with_file_and_field() {
    let text = "[[role]]\nid='r'\nname='R'\ntext='x'\nboost='b'\nboost_level4='b'\n\n[[power]]\nid='p'\nname='P'\nrole='r'\nspecialization='nope'\naction='role'\ntarget={kind='none'}\ntext='t'\n";
    let e = fray_kazzam::content::roles::parse("roles.toml", text).unwrap_err();
    assert!(e.contains("roles.toml") && e.contains("power[0] (p).specialization"), "{e}");
}

#[test]
fn scripted_dice_left_unrolled_fail_unless_the_file_says_why() {
    let game = std::sync::Arc::new(fray_kazzam::Kazzam::builtin());
    let file = |dice: &str| {
        format!(
            "{HEAD}[[unit]]\nid = \"ada\"\nteam = \"red\"\nat = [0, 0]\n[dice]\n{dice}\n[[step]]\nact = {{ unit = \"ada\", end_turn = true }}\n"
        )
    };
    let run = |text: String| {
        let loaded = fray_kazzam::engine::scenario::load(game.content(), "dice.toml", &text).unwrap();
        fray_core::scenario::run(&game, loaded).failure
    };
    let f = run(file("rolls = [4]")).expect("a die never rolled fails the scenario");
    assert!(f.contains("never rolled"), "{f}");
    assert_eq!(run(file("rolls = [4]\nunused = \"a guard die\"")), None);
    assert_eq!(run(file("rolls = []")), None);
}
