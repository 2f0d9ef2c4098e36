//! Kazzam's content is a value (issue 12, "Not a value"): a `Kazzam` holds the content it was
//! made with, and every match it starts carries that content, so two content sets play side by
//! side in one process without sharing anything. Content is built from (file, text) pairs, and
//! every problem names its file, line and field.

use fray_core::conformance::{self, Settings};
use fray_core::game::{Game, Viewer};
use fray_core::session::Session;
use fray_kazzam::classes::features::Feature;
use fray_kazzam::{Content, Kazzam, MatchSetup};
use std::sync::Arc;

/// The compiled-in files with `edit` applied to each (name, text).
fn files(edit: impl Fn(&str, &str) -> String) -> Vec<(String, String)> {
    fray_kazzam::content::builtin_files().into_iter().map(|(n, t)| (n.to_string(), edit(n, t))).collect()
}

/// Replaces the first `from` after `anchor` in `text`.
fn after(text: &str, anchor: &str, from: &str, to: &str) -> String {
    let at = text.find(anchor).expect("anchor");
    let i = at + text[at..].find(from).expect("text after the anchor");
    format!("{}{to}{}", &text[..i], &text[i + from.len()..])
}

/// A feature the class files list and Fray does not play yet.
fn listed_feature(c: &Content) -> String {
    c.features().iter().find(|id| Feature::parse(id, c).is_some_and(|f| !f.played())).expect("a listed feature").clone()
}

/// Other content: Petrov's Petrification deals 5, a Guardian Bear has speed 9, and one listed
/// class feature is renamed.
fn other_content(builtin: &Content) -> Content {
    let listed = listed_feature(builtin);
    let renamed = format!("id = \"{listed}-b\"");
    Content::from_files(files(|name, text| match name {
        "content/kazzam/powers/examples.toml" => {
            after(text, "id = \"petrovs-petrification\"", "damage = 2", "damage = 5")
        }
        "content/kazzam/creeps.toml" => after(text, "id = \"guardian-bear\"", "speed = 4", "speed = 9"),
        _ => text.replace(&format!("id = \"{listed}\""), &renamed),
    }))
    .expect("the edited content loads")
}

const SCENARIO: &str = r#"system = "kazzam"
title = "Petrov's Petrification deals the damage its content gives it"

[map]
rows = ["......"]

[[unit]]
id = "ada"
team = "red"
at = [0, 0]
implement = "wand"
powers = ["petrovs-petrification"]

[[unit]]
id = "bo"
team = "blue"
at = [3, 0]

[dice]
rolls = [4]

[[step]]
act = { unit = "ada", power = "petrovs-petrification", target = "bo" }
"#;

/// bo's HP after the scenario's hit, played by `game` on its content.
fn hp_after_hit(game: &Arc<Kazzam>) -> i64 {
    let loaded = fray_kazzam::engine::scenario::load(game.content(), "petrification.toml", SCENARIO).unwrap();
    let session = fray_core::scenario::play_steps(game, loaded).unwrap();
    assert!(Arc::ptr_eq(&session.state().content, game.content()), "the match carries its game's content");
    let view = serde_json::to_value(session.view(Viewer::Referee)).unwrap();
    view["units"]["bo"]["hp"].as_i64().unwrap()
}

/// One seeded random match of the default setup (Creeps on): its journal.
fn random_journal(game: &Arc<Kazzam>, seed: u64) -> Vec<String> {
    let setup = MatchSetup::default();
    let settings = Settings { replay: true, ..Settings::default() };
    let played =
        conformance::random_match(game, &conformance::from_setup(&setup), seed, &settings, &|_, _| Ok(())).unwrap();
    played.journal.iter().map(|e| e.to_string()).collect()
}

#[test]
fn two_content_sets_play_side_by_side_without_sharing_anything() {
    let a = Arc::new(Kazzam::builtin());
    let b = Arc::new(Kazzam::with_content(Arc::new(other_content(a.content()))));
    assert_ne!(a.fingerprint(), b.fingerprint(), "other content, another fingerprint");
    assert_eq!(a.fingerprint(), Kazzam::builtin().fingerprint(), "the same content, the same fingerprint");

    // Powers: each game's scenario hits with its own numbers, and making B changed nothing of A's.
    assert_eq!(hp_after_hit(&b), 3);
    assert_eq!(hp_after_hit(&a), 6);
    let damage = |g: &Kazzam| {
        let p = g.content().powers();
        p.get(p.find("petrovs-petrification").unwrap()).damage
    };
    assert_eq!((damage(&a), damage(&b)), (Some(2), Some(5)));

    // Creep stat blocks and feature ids: each state reads its own.
    let speed = |g: &Arc<Kazzam>| {
        let s = Session::start(g.clone(), MatchSetup::default(), 3).unwrap();
        let view = serde_json::to_value(s.view(Viewer::Referee)).unwrap();
        view["units"]["bear-1"]["speed"].as_i64().unwrap()
    };
    assert_eq!((speed(&a), speed(&b)), (4, 9));
    let listed = listed_feature(a.content());
    let renamed = format!("{listed}-b");
    assert!(Feature::parse(&listed, a.content()).is_some() && Feature::parse(&renamed, a.content()).is_none());
    assert!(Feature::parse(&listed, b.content()).is_none());
    let f = Feature::parse(&renamed, b.content()).expect("B lists the renamed feature");
    assert_eq!(f.id(b.content()), renamed);

    // Whole matches, both games at once on two threads: each plays exactly what it plays alone
    // (the same seed, the same match), and the two differ (the bears are faster in B).
    let alone = (random_journal(&a, 5), random_journal(&b, 5));
    let together = std::thread::scope(|s| {
        let ta = s.spawn(|| random_journal(&a, 5));
        let tb = s.spawn(|| random_journal(&b, 5));
        (ta.join().unwrap(), tb.join().unwrap())
    });
    assert!(alone.0 == together.0 && alone.1 == together.1, "a match depends only on its own game");
    assert_ne!(alone.0, alone.1, "the bears' speed changes the match");

    // A record made with one content replays with it and is refused by the other.
    let mut s = Session::start(a.clone(), MatchSetup::default(), 9).unwrap();
    let (seat, d) = s.pending().unwrap();
    s.choose(seat, &d.options[0].id).unwrap();
    let record = s.record().clone();
    assert!(Session::replay(a.clone(), record.clone()).is_ok());
    let refused = Session::replay(b.clone(), record).err().expect("refused");
    assert!(refused.contains("played with"), "{refused}");
}

#[test]
fn content_errors_name_file_line_and_field_all_at_once() {
    let broken = files(|name, text| match name {
        "content/kazzam/powers/examples.toml" => after(text, "id = \"grasping-blade\"", "escape-ends", "whenever"),
        "content/kazzam/creeps.toml" => after(text, "id = \"guardian-bear\"", "size = 2", "size = 7"),
        _ => text.to_string(),
    });
    let line = broken
        .iter()
        .find(|(n, _)| n.ends_with("examples.toml"))
        .map(|(_, t)| t.lines().position(|l| l.contains("until = \"whenever\"")).unwrap() + 1)
        .unwrap();
    let e = Content::from_files(broken).unwrap_err().join("\n");
    // A duration is read into its type as the file loads, so the parser names the line and points
    // at the value.
    assert!(e.contains(&format!("content/kazzam/powers/examples.toml: TOML parse error at line {line}")), "{e}");
    assert!(e.contains("unknown duration \"whenever\"; use end-of-next-turn"), "{e}");
    assert!(e.contains("content/kazzam/creeps.toml, line") && e.contains("guardian-bear") && e.contains("size"), "{e}");
    // A hook is checked against the hooks written in Rust (and numbered) as the file loads.
    let broken = files(|name, text| match name {
        "content/kazzam/powers/basic.toml" => after(text, "id = \"charge\"", "hook = \"charge\"", "hook = \"chrage\""),
        _ => text.to_string(),
    });
    let line = broken
        .iter()
        .find(|(n, _)| n.ends_with("powers/basic.toml"))
        .map(|(_, t)| t.lines().position(|l| l.contains("hook = \"chrage\"")).unwrap() + 1)
        .unwrap();
    let e = Content::from_files(broken).unwrap_err().join("\n");
    assert!(e.contains(&format!("content/kazzam/powers/basic.toml: TOML parse error at line {line}")), "{e}");
    assert!(e.contains("unknown hook \"chrage\""), "{e}");
    // Names say where a file sits in the layout; anything else is refused, and the roles and
    // stat blocks are required.
    let e = Content::from_files([("notes/readme.toml".to_string(), String::new())]).unwrap_err().join("\n");
    assert!(e.contains("notes/readme.toml: not a Kazzam content file"), "{e}");
    assert!(e.contains("roles.toml: missing") && e.contains("creeps.toml: missing"), "{e}");
    // The same texts read from elsewhere are the same content (same fingerprint).
    let moved = files(|_, t| t.to_string())
        .into_iter()
        .map(|(n, t)| (n.replace("content/kazzam/", "/tmp/my copy/kazzam/"), t))
        .collect::<Vec<_>>();
    let moved = Kazzam::with_content(Arc::new(Content::from_files(moved).unwrap()));
    assert_eq!(moved.fingerprint(), Kazzam::builtin().fingerprint());
}
