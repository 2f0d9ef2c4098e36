//! Seat views and the redacted log (docs/rulings/drawsteel.md, "Seat views"; DS-HIDE-1,
//! DS-HIDE-2, DS-HIDE-3, DS-HIDE-4, DS-CONC-1): a hero hides in fog and walks on; the
//! Director's seat and a spectator never learn her square until she gives herself away, and
//! the moves she made while hidden stay out of their log for good.

use fray_core::game::{Seat, Viewer};
use fray_core::session::Session;
use fray_drawsteel::{DrawSteel, Event};
use std::sync::Arc;

const HEROES: Viewer = Viewer::Seat(Seat(0));
const DIRECTOR: Viewer = Viewer::Seat(Seat(1));

/// A hero two squares from a fog bank, a dummy across the field; `steps` played after.
fn play(steps: &str) -> Session<DrawSteel> {
    let text = format!(
        r#"
system = "drawsteel"
title = "seat views"
rules = ["DS-HIDE-1", "DS-HIDE-3"]
first = "heroes"

[map]
rows = [
  "..oo....",
  "..oo....",
  "........",
]

[[creature]]
id = "sneak"
name = "Test Sneak"
kind = "hero"
level = 1
stamina = 30
recoveries = 8
speed = 5
size = "1M"
stability = 0
characteristics = {{ might = 0, agility = 0, reason = 0, intuition = 0, presence = 0 }}

[[creature]]
id = "dummy"
name = "Straw Dummy"
kind = "monster"
level = 1
stamina = 20
speed = 5
size = "1M"
stability = 0
free_strike = 2
characteristics = {{ might = 0, agility = 0, reason = 0, intuition = 0, presence = 0 }}

[[unit]]
id = "hero"
team = "heroes"
at = [0, 0]
creature = "sneak"

[[unit]]
id = "dummy"
team = "director"
at = [7, 2]
creature = "dummy"

[dice]
rolls = [5, 5]

[[step]]
choose = "hero"
[[step]]
act = {{ unit = "hero", move = [[1, 0], [2, 0]] }}
[[step]]
act = {{ unit = "hero", hide = true }}
{steps}
"#
    );
    let game = Arc::new(DrawSteel::builtin());
    let loaded = fray_drawsteel::scenario::load("seats", &text).unwrap();
    fray_core::scenario::play_steps(&game, loaded).unwrap()
}

fn at(s: &Session<DrawSteel>, viewer: Viewer, id: &str) -> Option<(i32, i32)> {
    s.view(viewer).units[id].at.map(|p| (p.x, p.y))
}

fn moves_read(s: &Session<DrawSteel>, viewer: Viewer, id: &str) -> Vec<String> {
    s.events_since(0, viewer)
        .iter()
        .filter(|e| matches!(e, Event::Moved { creature, .. } if &*creature.id == id))
        .map(|e| e.to_string())
        .collect()
}

/// DS-HIDE-1, DS-HIDE-3: hidden in the fog, the hero's square is known to her own seat and the
/// referee only; the others read that she hid, and see her listed with no square.
#[test]
fn a_hidden_hero_has_no_square_for_the_director_or_a_spectator() {
    let s = play("");
    assert_eq!(at(&s, Viewer::Referee, "hero"), Some((2, 0)));
    assert_eq!(at(&s, HEROES, "hero"), Some((2, 0)));
    assert_eq!(at(&s, DIRECTOR, "hero"), None);
    assert_eq!(at(&s, Viewer::Spectator, "hero"), None);
    let v = s.view(DIRECTOR);
    assert_eq!(v.units["hero"].extra["unseen"], true);
    assert!(v.units["hero"].extra["z"].is_null());
    assert!(v.log.iter().any(|l| l == "hero is hidden"), "{:?}", v.log);
    // The referee's view is the rules' own, unmarked.
    assert!(s.view(Viewer::Referee).units["hero"].extra.get("unseen").is_none());
    // Her moves into the fog end where she hid: while she is unseen, the Director reads none.
    assert_eq!(moves_read(&s, HEROES, "hero").len(), 2);
    assert!(moves_read(&s, DIRECTOR, "hero").is_empty());
    assert!(moves_read(&s, Viewer::Spectator, "hero").is_empty());
    // The dummy hides nothing.
    assert_eq!(at(&s, HEROES, "dummy"), Some((7, 2)));
}

/// Only the seat asked sees a decision's options; the other seat sees whose it is.
#[test]
fn a_seat_sees_no_options_of_the_other_seats_decision() {
    let s = play("");
    let mine = s.view(HEROES).decision.unwrap();
    assert!(!mine.options.is_empty());
    let theirs = s.view(DIRECTOR).decision.unwrap();
    assert_eq!((theirs.seat.as_str(), theirs.kind.as_str()), ("heroes", mine.kind.as_str()));
    assert!(theirs.options.is_empty());
    assert!(s.view(Viewer::Spectator).decision.unwrap().options.is_empty());
}

/// DS-HIDE-3, DS-HIDE-4: she walks on while hidden (Fray does not track losing cover by
/// moving), then gives herself away with a free strike: from then on everyone sees her square,
/// but the step she took while hidden stays out of the Director's log.
#[test]
fn moves_made_while_hidden_stay_out_of_the_log_after_she_is_found() {
    let s = play(
        r#"
[[step]]
act = { unit = "hero", move = [[3, 1]] }
"#,
    );
    assert_eq!(at(&s, DIRECTOR, "hero"), None);
    assert!(moves_read(&s, DIRECTOR, "hero").is_empty());
    let s = play(
        r#"
[[step]]
act = { unit = "hero", move = [[3, 1]] }
[[step]]
act = { unit = "hero", free_strike = "dummy" }
[[step]]
act = { unit = "hero", end_turn = true }
"#,
    );
    assert_eq!(s.view(Viewer::Referee).units["hero"].extra["hidden"], false);
    assert_eq!(at(&s, DIRECTOR, "hero"), Some((3, 1)));
    assert_eq!(at(&s, Viewer::Spectator, "hero"), Some((3, 1)));
    // The two moves before she hid are read again; the one while hidden never.
    assert_eq!(moves_read(&s, DIRECTOR, "hero"), ["hero moves (0,0) → (1,0)", "hero moves (1,0) → (2,0)"]);
    assert_eq!(moves_read(&s, HEROES, "hero").len(), 3);
    assert_eq!(moves_read(&s, Viewer::Referee, "hero").len(), 3);
}
