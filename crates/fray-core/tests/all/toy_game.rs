//! A toy game that uses every part of the core's trait: two seats racing to 12 by adding 1
//! or 2 (a die decides who starts), and every time the total passes a multiple of 5 a window
//! opens in which both seats may shout (the first shout scores) or pass. The conformance
//! harness, the session's seat checks, windows and records are tested on it.

use fray_core::conformance::{self, Settings};
use fray_core::decision::DecisionOption;
use fray_core::dice::Dice;
use fray_core::game::*;
use fray_core::ruleset::{Outcome, RuleError};
use fray_core::session::Session;
use fray_core::view::View;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Clone, Debug, Default)]
struct Race {
    total: u32,
    turn: u8,
    window: SeatSet,
    shouts: [u32; 2],
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Add(u32);

#[derive(Clone, Debug, Serialize)]
enum Ev {
    First(u8),
    Added(u8, u32),
    Shout(u8),
    Passed(u8),
}

impl std::fmt::Display for Ev {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

struct Toy;

const SHOUT: ActionId = ActionId(100);

impl Game for Toy {
    type State = Race;
    type Setup = ();
    type Command = Add;
    type Event = Ev;
    fn id(&self) -> &'static str {
        "toy"
    }
    fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of("toy rules 1", [])
    }
    fn seats(&self, _: &Race) -> Vec<SeatInfo> {
        vec![SeatInfo::new("a"), SeatInfo::new("b")]
    }
    fn start(&self, _: &(), dice: &mut dyn Dice, out: &mut dyn Sink<Ev>) -> Result<Race, SetupErrors> {
        let first = (dice.roll(2).map_err(RuleError::from)? - 1) as u8;
        out.push(Ev::First(first));
        Ok(Race { turn: first, ..Race::default() })
    }
    fn node(&self, s: &Race) -> Node {
        if s.total >= 12 {
            Node::Terminal
        } else if !s.window.is_empty() {
            Node::Decide { seats: s.window, passable: true }
        } else {
            Node::Decide { seats: SeatSet::one(Seat(s.turn)), passable: false }
        }
    }
    fn legal(&self, s: &Race, seat: Seat, out: &mut Vec<ActionId>) {
        match self.node(s) {
            Node::Decide { seats, passable: true } if seats.contains(seat) => out.extend([SHOUT, ActionId::PASS]),
            Node::Decide { seats, .. } if seats.contains(seat) => out.extend([ActionId(1), ActionId(2)]),
            _ => {}
        }
    }
    fn apply(
        &self,
        s: &mut Race,
        seat: Seat,
        a: ActionId,
        _: &mut dyn Dice,
        out: &mut dyn Sink<Ev>,
    ) -> Result<(), RuleError> {
        match a {
            SHOUT => {
                s.shouts[seat.index()] += 1;
                s.window = SeatSet::EMPTY;
                out.push(Ev::Shout(seat.0));
            }
            ActionId::PASS => {
                s.window = SeatSet(s.window.0 & !(1 << seat.0));
                out.push(Ev::Passed(seat.0));
            }
            ActionId(n) => {
                let before = s.total;
                s.total += n;
                s.turn = 1 - s.turn;
                out.push(Ev::Added(seat.0, n));
                if before / 5 != s.total / 5 && s.total < 12 {
                    s.window = SeatSet(0b11);
                }
            }
        }
        Ok(())
    }
    fn act(
        &self,
        s: &mut Race,
        seat: Seat,
        c: &Add,
        d: &mut dyn Dice,
        out: &mut dyn Sink<Ev>,
    ) -> Result<(), RuleError> {
        if !self.node(s).seats().contains(seat) || !s.window.is_empty() {
            return Err(RuleError::refused("TOY-1", "not your turn"));
        }
        if !(1..=2).contains(&c.0) {
            return Err(RuleError::refused("TOY-2", "add 1 or 2"));
        }
        self.apply(s, seat, ActionId(c.0), d, out)
    }
    fn command_seat(&self, s: &Race, _: &Add) -> Option<Seat> {
        Some(Seat(s.turn))
    }
    fn describe(&self, _: &Race, a: ActionId) -> DecisionOption {
        match a {
            SHOUT => DecisionOption::new("shout", "shout first"),
            ActionId::PASS => DecisionOption::new("pass", "stay quiet"),
            ActionId(n) => DecisionOption::new(n.to_string(), format!("add {n}")),
        }
    }
    fn prompt(&self, s: &Race, seat: Seat) -> Option<Prompt> {
        self.node(s).seats().contains(seat).then(|| Prompt { unit: None, kind: "add".into(), text: "add".into() })
    }
    fn view(&self, s: &Race, _: Viewer) -> View {
        View {
            system: "toy".into(),
            round: s.total,
            turn: None,
            map: vec![],
            units: BTreeMap::new(),
            score: BTreeMap::new(),
            decision: None,
            log: vec![],
            outcome: self.outcome(s),
            extra: Default::default(),
        }
    }
    fn outcome(&self, s: &Race) -> Option<Outcome> {
        (s.total >= 12).then(|| Outcome {
            winner: Some(if s.turn == 1 { "a" } else { "b" }.into()),
            score: BTreeMap::new(),
            summary: "over".into(),
        })
    }
}

#[test]
fn the_harness_passes_a_game_with_windows_for_two_seats() {
    let game = Arc::new(Toy);
    let start = conformance::from_setup::<Toy>(&());
    let settings = Settings { describe_every: 1, ..Settings::default() };
    let none = |_: &Toy, _: &Race| Ok(());
    let (played, failures) = conformance::random_matches(&game, &start, 0..64, &settings, &none, |_, p| p.decisions);
    assert!(failures.is_empty(), "{failures:?}");
    assert_eq!(played.len(), 64);
    conformance::same_seed_same_match(&game, &start, 3).unwrap();
}

#[test]
fn a_window_asks_both_seats_and_closes_when_both_pass() {
    let game = Arc::new(Toy);
    let mut s = Session::start(game.clone(), (), 1).unwrap();
    let first = s.state().turn;
    let (me, other) = (Seat(first), Seat(1 - first));
    // Out of turn: refused, nothing changes.
    assert!(s.choose(other, "2").is_err());
    assert!(s.act(other, Add(2)).is_err());
    assert_eq!(s.state().total, 0);
    s.choose(me, "2").unwrap();
    s.choose(other, "2").unwrap();
    s.choose(me, "2").unwrap(); // 6: a window for both seats
    assert_eq!(s.node().seats(), SeatSet(0b11));
    assert!(s.decision(me).is_some() && s.decision(other).is_some());
    s.choose(me, "pass").unwrap();
    assert_eq!(s.node().seats(), SeatSet::one(other), "the other seat may still shout");
    assert!(s.choose(me, "shout").is_err(), "a seat that passed is not asked again");
    s.choose(other, "pass").unwrap();
    assert_eq!(s.node(), Node::Decide { seats: SeatSet::one(other), passable: false });
    // The record replays; another fingerprint is refused.
    let record = s.record().clone();
    let again = Session::replay(game.clone(), record.clone()).unwrap();
    assert_eq!(again.state().total, s.state().total);
    let mut wrong = record;
    wrong.fingerprint.content = "0".repeat(16);
    let e = Session::replay(game, wrong).err().unwrap();
    assert!(e.contains("played with"), "{e}");
}
