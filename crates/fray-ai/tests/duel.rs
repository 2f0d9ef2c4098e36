//! The bots on a toy duel that needs a two-step menu: each seat has two fighters; on its turn a
//! seat picks "attack" (a menu step that changes nothing), then any of the four fighters,
//! its own included, who loses 1 to 3 HP (a die). The first seat to lose both fighters loses.
//! The bots must look through the menu step, never hit their own side, beat the random bot,
//! and answer the same way for the same seed.

use fray_ai::{Bot, BotSpec, Greedy, Mcts, MctsSettings, RandomBot, bot_for};
use fray_core::decision::DecisionOption;
use fray_core::dice::{Dice, SeededDice};
use fray_core::game::*;
use fray_core::ruleset::{Outcome, RuleError};
use fray_core::view::View;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
struct Duel {
    hp: [i32; 4],
    turn: u8,
    aiming: bool,
}

#[derive(Clone, Debug, Serialize)]
struct Hit(usize, i32);

impl std::fmt::Display for Hit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "fighter {} loses {}", self.0, self.1)
    }
}

struct Toy;

const ATTACK: ActionId = ActionId(100);

fn side_of(fighter: usize) -> u8 {
    (fighter / 2) as u8
}

fn loser(s: &Duel) -> Option<u8> {
    (0..2u8).find(|&side| s.hp[2 * side as usize] <= 0 && s.hp[2 * side as usize + 1] <= 0)
}

impl Game for Toy {
    type State = Duel;
    type Setup = ();
    type Command = ();
    type Event = Hit;
    fn id(&self) -> &'static str {
        "duel"
    }
    fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of("duel", [])
    }
    fn seats(&self, _: &Duel) -> Vec<SeatInfo> {
        vec![SeatInfo::new("a"), SeatInfo::new("b")]
    }
    fn start(&self, _: &(), _: &mut dyn Dice, _: &mut dyn Sink<Hit>) -> Result<Duel, SetupErrors> {
        Ok(Duel { hp: [6; 4], turn: 0, aiming: false })
    }
    fn node(&self, s: &Duel) -> Node {
        if loser(s).is_some() {
            Node::Terminal
        } else {
            Node::Decide { seats: SeatSet::one(Seat(s.turn)), passable: false }
        }
    }
    fn legal(&self, s: &Duel, seat: Seat, out: &mut Vec<ActionId>) {
        if seat.0 != s.turn || loser(s).is_some() {
            return;
        }
        if s.aiming {
            out.extend((0..4).filter(|&f| s.hp[f] > 0).map(|f| ActionId(f as u32)));
        } else {
            out.push(ATTACK);
        }
    }
    fn apply(
        &self,
        s: &mut Duel,
        _: Seat,
        a: ActionId,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Hit>,
    ) -> Result<(), RuleError> {
        if a == ATTACK {
            s.aiming = true;
            return Ok(());
        }
        let f = a.0 as usize;
        let d = dice.roll(3).map_err(|e| RuleError::malformed(e.to_string()))? as i32;
        s.hp[f] -= d;
        out.push(Hit(f, d));
        s.aiming = false;
        s.turn = 1 - s.turn;
        Ok(())
    }
    fn act(&self, _: &mut Duel, _: Seat, _: &(), _: &mut dyn Dice, _: &mut dyn Sink<Hit>) -> Result<(), RuleError> {
        Err(RuleError::malformed("no commands"))
    }
    fn command_seat(&self, _: &Duel, _: &()) -> Option<Seat> {
        None
    }
    fn describe(&self, _: &Duel, a: ActionId) -> DecisionOption {
        DecisionOption::new(a.0.to_string(), a.0.to_string())
    }
    fn prompt(&self, _: &Duel, _: Seat) -> Option<Prompt> {
        None
    }
    fn view(&self, s: &Duel, _: Viewer) -> View {
        View {
            system: "duel".into(),
            round: 0,
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
    fn outcome(&self, s: &Duel) -> Option<Outcome> {
        let l = loser(s)?;
        let winner = if l == 0 { "b" } else { "a" };
        Some(Outcome { winner: Some(winner.into()), score: BTreeMap::new(), summary: format!("{winner} wins") })
    }
    fn evaluate(&self, s: &Duel, seat: Seat) -> f64 {
        if let Some(r) = self.returns(s) {
            return r[seat.index()];
        }
        let mine: i32 = (0..4).filter(|&f| side_of(f) == seat.0).map(|f| s.hp[f].max(0)).sum();
        let theirs: i32 = (0..4).filter(|&f| side_of(f) != seat.0).map(|f| s.hp[f].max(0)).sum();
        f64::from(mine - theirs) / 12.0
    }
}

/// Plays a duel; returns the winner's seat and every fighter hit by each seat.
fn duel(bots: &mut [Box<dyn Bot<Toy>>; 2], seed: u64) -> (u8, Vec<(u8, usize)>) {
    let mut s = Toy.start(&(), &mut SeededDice::new(seed), &mut NullSink).unwrap();
    let mut dice = SeededDice::new(seed);
    let mut hits = Vec::new();
    let mut legal = Vec::new();
    while let Node::Decide { seats, .. } = Toy.node(&s) {
        let seat = seats.first().unwrap();
        legal.clear();
        Toy.legal(&s, seat, &mut legal);
        let a = bots[seat.index()].choose(&Toy, &s, seat, &legal);
        assert!(legal.contains(&a), "a bot answered with an action not offered");
        if a != ATTACK {
            hits.push((seat.0, a.0 as usize));
        }
        Toy.apply(&mut s, seat, a, &mut dice, &mut NullSink).unwrap();
    }
    (if loser(&s) == Some(0) { 1 } else { 0 }, hits)
}

#[test]
fn greedy_and_search_never_hit_their_own_side_and_beat_random() {
    for spec in ["greedy", "mcts:40"] {
        let spec: BotSpec = spec.parse().unwrap();
        let mut wins = 0;
        for seed in 0..40 {
            let mut bots: [Box<dyn Bot<Toy>>; 2] = [bot_for::<Toy>(&spec, seed), Box::new(RandomBot::new(seed))];
            let (winner, hits) = duel(&mut bots, seed);
            wins += u32::from(winner == 0);
            for (seat, fighter) in hits.iter().filter(|(seat, _)| *seat == 0) {
                assert_ne!(side_of(*fighter), *seat, "{spec} hit its own fighter {fighter} (seed {seed})");
            }
        }
        assert!(wins >= 34, "{spec} won only {wins} of 40 against random");
    }
}

#[test]
fn the_same_seed_gives_the_same_answers() {
    let s = Duel { hp: [5, 2, 3, 6], turn: 0, aiming: false };
    let mut legal = Vec::new();
    Toy.legal(&s, Seat(0), &mut legal);
    for _ in 0..2 {
        let mut a = Mcts::new(MctsSettings { iterations: 30, ..Default::default() }, 9);
        let mut b = Mcts::new(MctsSettings { iterations: 30, ..Default::default() }, 9);
        let (ra, rb) = (a.search(&Toy, &s, Seat(0)), b.search(&Toy, &s, Seat(0)));
        assert_eq!(format!("{ra:?}"), format!("{rb:?}"));
    }
    // Greedy looks through the menu step: from "attack" it plans the hit on the weakest enemy
    // worth hitting, and its next answer is that hit.
    let mut g = Greedy::new(3);
    assert_eq!(g.choose(&Toy, &s, Seat(0), &legal), ATTACK);
    let mut aiming = s.clone();
    aiming.aiming = true;
    legal.clear();
    Toy.legal(&aiming, Seat(0), &mut legal);
    let target = g.choose(&Toy, &aiming, Seat(0), &legal);
    assert!(target == ActionId(2) || target == ActionId(3), "{target:?}");
}
