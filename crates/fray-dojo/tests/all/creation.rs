//! Hero creation (D-HC-1..D-HC-6, D-HC-9) as `fray build dojo FILE` checks it: every problem of
//! every hero at once, each with its file, line and field; Frantic heroes' Stances.

use fray_core::table::TeamText;
use fray_dojo::{Dojo, FightSetup};

const HEAD: &str = "name = \"heroes\"\n[map]\nrows = [\"......\", \"......\"]\n";
const FOE: &str =
    "\n[[unit]]\nid = \"foe\"\nside = \"enemies\"\nkind = \"warrior\"\nat = [5, 1]\nstances = [\"zen\"]\n";

fn check(heroes: &str) -> fray_core::table::BuildReport {
    fray_dojo::game::system().check_build("team.toml", &format!("{HEAD}{heroes}{FOE}"))
}

fn problems(heroes: &str) -> String {
    match check(heroes) {
        fray_core::table::BuildReport::Illegal(e) => e.join("\n"),
        fray_core::table::BuildReport::Legal(l) => panic!("accepted: {l:?}"),
    }
}

/// D-HC-1, D-HC-3, D-HC-4, D-HC-5, D-HC-6: a Focused, a Fused and a Frantic hero that keep
/// every rule are accepted.
#[test]
fn heroes_that_keep_the_rules_are_accepted() {
    let good = "
[[unit]]
id = \"focused\"
side = \"heroes\"
kind = \"hero\"
at = [0, 0]
stances = [\"judgment+zen\", \"singing+song\", \"winged+shadow\"]
archetypes = [\"angel\"]
build = \"agile\"
skills = [\"Peaceful Heart\", \"Natural Charisma\", \"Wind Runner\", \"Lonely Lighthouse-keeper\"]

[[unit]]
id = \"fused\"
side = \"heroes\"
kind = \"hero\"
at = [1, 0]
stances = [\"dark+iron\", \"burning+blaster\", \"inferno+power\"]
archetypes = [\"demon\", \"flametongue\"]
build = \"tough\"
skills = [\"Unmovable\", \"Basically Magic\", \"Unstoppable\", \"Grumpy Baker\"]

[[unit]]
id = \"frantic\"
side = \"heroes\"
kind = \"hero\"
at = [2, 0]
forms = [\"dance\", \"control\", \"wild\"]
styles = [\"charging\", \"bleeding\", \"whip\"]
frantic = [\"cavalry\", \"punk\", \"angel\"]
build = \"scheming\"
skills = [\"Put On A Show\", \"Professional\", \"Unmovable\", \"Restless Courier\"]
";
    match check(good) {
        fray_core::table::BuildReport::Legal(lines) => assert_eq!(lines.len(), 4, "{lines:?}"),
        fray_core::table::BuildReport::Illegal(e) => panic!("{}", e.join("\n")),
    }
}

/// Every broken rule of every hero is named at once, with its line and field.
#[test]
fn every_creation_problem_is_reported_at_once() {
    let bad = "
[[unit]]
id = \"two\"
side = \"heroes\"
kind = \"hero\"
at = [0, 0]
stances = [\"judgment+zen\", \"iron\"]
archetypes = [\"angel\"]
skills = [\"Peaceful Heart\", \"Unmovable\", \"Wind Runner\", \"Loner\"]

[[unit]]
id = \"mixed\"
side = \"heroes\"
kind = \"hero\"
at = [1, 0]
stances = [\"dark+iron\", \"burning+blaster\", \"judgment+power\"]
archetypes = [\"demon\", \"cavalry\"]
build = \"tough\"
skills = [\"Unmovable\", \"Basically Magic\", \"Unstoppable\"]

[[unit]]
id = \"wild\"
side = \"heroes\"
kind = \"hero\"
at = [2, 0]
forms = [\"dance\", \"control\"]
styles = [\"charging\", \"heroic\", \"whip\"]
frantic = [\"demon\", \"punk\", \"angel\"]
build = \"scheming\"
skills = [\"Wind Runner\", \"Unmovable\", \"Professional\", \"Happy Courier\"]
";
    let all = problems(bad);
    let want = [
        // two: line 5
        "team.toml:5: hero two: field `stances`: a hero has 3 Stances",
        "team.toml:5: hero two: field `stances`: \"iron\" has no Style",
        "team.toml:5: hero two: field `build`",
        "team.toml:5: hero two: field `skills`: the hero's own Skill is two words",
        // mixed: line 14
        "team.toml:14: hero mixed: field `stances`: a Fused hero needs a Style of cavalry",
        "team.toml:14: hero mixed: field `stances`: a Fused hero's Styles come from its two Archetypes only",
        "team.toml:14: hero mixed: field `skills`: a hero has 4 different Skills",
        // wild: line 24
        "team.toml:24: hero wild: field `forms`: a Frantic hero has 3 different Forms",
        "team.toml:24: hero wild: field `styles`: 3 Styles of 3 different Archetypes",
        "team.toml:24: hero wild: field `frantic`: at least 2 Frantic abilities",
        "team.toml:24: hero wild: field `skills`: 3 Skills of Forms, at least 2 of them of the hero's own Forms",
    ];
    for w in want {
        assert!(all.contains(w), "missing {w:?} in:\n{all}");
    }
}

/// D-HC-9: a Frantic hero stands in any of its Forms with any of its Styles, but in neither the
/// Form nor the Style of its last turn.
#[test]
fn a_frantic_hero_changes_form_and_style_every_turn() {
    let text = format!(
        "{HEAD}
[[unit]]
id = \"frantic\"
side = \"heroes\"
kind = \"hero\"
at = [2, 0]
forms = [\"dance\", \"control\", \"wild\"]
styles = [\"charging\", \"bleeding\", \"whip\"]
frantic = [\"cavalry\", \"punk\", \"angel\"]
{FOE}"
    );
    let setup = FightSetup { options: Vec::new(), map: Some(TeamText { path: "f.toml".into(), text }), enemies: None };
    let mut s = Dojo::builtin().build(&setup).unwrap();
    assert_eq!(s.units[0].stances.len(), 9);
    assert_eq!(fray_dojo::rules::stance_options(&s, 0).len(), 9);
    let last = (0..9).find(|&i| s.stance_id(0, i) == "charging+dance").unwrap();
    s.units[0].last_stance = Some(last);
    let next: Vec<String> = fray_dojo::rules::stance_options(&s, 0).into_iter().map(|i| s.stance_id(0, i)).collect();
    assert_eq!(next.len(), 4, "{next:?}");
    assert!(next.iter().all(|id| !id.contains("dance") && !id.contains("charging")), "{next:?}");
}

/// D-HC-9: a Frantic hero may not pick the Frantic ability of its last turn again.
#[test]
fn a_frantic_hero_changes_its_ability_every_turn() {
    use fray_dojo::state::Variant;
    let text = format!(
        "{HEAD}
[[unit]]
id = \"frantic\"
side = \"heroes\"
kind = \"hero\"
at = [2, 0]
forms = [\"dance\", \"control\", \"wild\"]
styles = [\"charging\", \"bleeding\", \"whip\"]
frantic = [\"cavalry\", \"punk\", \"angel\"]
{FOE}"
    );
    let setup = FightSetup { options: Vec::new(), map: Some(TeamText { path: "f.toml".into(), text }), enemies: None };
    let mut s = Dojo::builtin().build(&setup).unwrap();
    let picks = |s: &fray_dojo::State| match fray_dojo::archetypes::frantic_pick(s, 0) {
        Some(fray_dojo::frames::Frame::Run(run)) => run.choice.unwrap().0.len(),
        _ => 0,
    };
    assert_eq!(picks(&s), 3);
    // The ability picked on its last turn is still the one in use as the next turn starts.
    s.units[0].archetypes[1].1 = Variant::FranticNow;
    assert_eq!(picks(&s), 2);
    // The one of the turn before that may come back.
    s.units[0].archetypes[1].1 = Variant::FranticLast;
    assert_eq!(picks(&s), 3);
}

/// D-HC-8, D-OPT-3: with `niche-protection = true` no hero takes a Style an earlier hero has, and
/// no Focused or Fused hero an Archetype an earlier one has; without it the same heroes are fine.
#[test]
fn niche_protection_keeps_styles_and_archetypes_apart() {
    let heroes = "
[[unit]]
id = \"first\"
side = \"heroes\"
kind = \"hero\"
at = [0, 0]
stances = [\"judgment+zen\", \"singing+song\", \"winged+shadow\"]
archetypes = [\"angel\"]
build = \"agile\"
skills = [\"Peaceful Heart\", \"Natural Charisma\", \"Wind Runner\", \"Lonely Lighthouse-keeper\"]

[[unit]]
id = \"second\"
side = \"heroes\"
kind = \"hero\"
at = [1, 0]
stances = [\"judgment+iron\", \"shining+power\", \"halcyon+dance\"]
archetypes = [\"angel\"]
build = \"tough\"
skills = [\"Unmovable\", \"Unstoppable\", \"Put On A Show\", \"Quiet Gardener\"]

[[unit]]
id = \"third\"
side = \"heroes\"
kind = \"hero\"
at = [2, 0]
forms = [\"dance\", \"control\", \"wild\"]
styles = [\"charging\", \"winged\", \"whip\"]
frantic = [\"cavalry\", \"angel\", \"trickster\"]
build = \"scheming\"
skills = [\"Put On A Show\", \"Professional\", \"Unmovable\", \"Restless Courier\"]
";
    let sys = fray_dojo::game::system();
    let plain = format!("{HEAD}{heroes}{FOE}");
    match sys.check_build("team.toml", &plain) {
        fray_core::table::BuildReport::Legal(lines) => assert_eq!(lines.len(), 4, "{lines:?}"),
        fray_core::table::BuildReport::Illegal(e) => panic!("{}", e.join("\n")),
    }
    let niche = plain.replacen("[map]", "niche-protection = true\n[map]", 1);
    let e = match sys.check_build("team.toml", &niche) {
        fray_core::table::BuildReport::Illegal(e) => e.join("\n"),
        fray_core::table::BuildReport::Legal(l) => panic!("accepted: {l:?}"),
    };
    assert!(
        e.contains("hero second: field `stances`: the judgment Style is first's (Niche Protection, D-HC-8)"),
        "{e}"
    );
    assert!(e.contains("hero second: field `archetypes`: angel is first's Archetype"), "{e}");
    assert!(e.contains("hero third: field `styles`: the winged Style is first's"), "{e}");
    // A Frantic hero's Frantic Angel is no Archetype it holds: no clash with the Focused Angels.
    assert!(!e.contains("hero third: field `archetypes`"), "{e}");
    assert_eq!(e.lines().count(), 3, "{e}");
}

/// D-STN-4: a Forbidden Stance's two Forms give the hero one Skill between them, of either Form;
/// taking both is refused.
#[test]
fn a_forbidden_stance_gives_one_skill() {
    let hero = |skills: &str| {
        format!(
            "
[[unit]]
id = \"wild\"
side = \"heroes\"
kind = \"hero\"
at = [0, 0]
stances = [\"forbidden+power+blaster\", \"relentless+zen\", \"weightless+iron\"]
archetypes = [\"wardancer\"]
build = \"agile\"
skills = [{skills}]
"
        )
    };
    // Power's Skill for the Forbidden Stance, Zen's and Iron's: accepted.
    match check(&hero("\"Unstoppable\", \"Peaceful Heart\", \"Unmovable\", \"Quiet Gardener\"")) {
        fray_core::table::BuildReport::Legal(lines) => assert_eq!(lines.len(), 2, "{lines:?}"),
        fray_core::table::BuildReport::Illegal(e) => panic!("{}", e.join("\n")),
    }
    // Blaster's instead of Power's: accepted too.
    match check(&hero("\"Basically Magic\", \"Peaceful Heart\", \"Unmovable\", \"Quiet Gardener\"")) {
        fray_core::table::BuildReport::Legal(_) => {}
        fray_core::table::BuildReport::Illegal(e) => panic!("{}", e.join("\n")),
    }
    // Both of the Forbidden Stance's Skills: refused, naming the field.
    let e = problems(&hero("\"Unstoppable\", \"Basically Magic\", \"Peaceful Heart\", \"Quiet Gardener\""));
    assert!(
        e.contains(
            "hero wild: field `skills`: a Forbidden Stance gives one Skill, of either of its Forms, not both (D-STN-4)"
        ),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
}
