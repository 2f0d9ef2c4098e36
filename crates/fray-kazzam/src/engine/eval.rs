//! What bots and the simulator read off a Kazzam match: how well it is going for a seat (the
//! evaluation greedy play and search maximise) and what its events count for a report.
//!
//! The evaluation is a judgement, not a rule: points are worth most, then orbs carried toward
//! a pedestal that can take them (K-ORB-7, K-SCO-4), then athletes' HP and Ward, then being
//! on the map rather than in the Dungeon (K-DUN), then Strikes, which cost a point per three at
//! the end (K-END-3), then being near an orb worth taking.

use crate::engine::arena::Side;
use crate::engine::events::{Event, Hit};
use crate::engine::state::{OrbLoc, State, UnitKind};
use fray_core::game::Seat;
use fray_core::grid::Pos;
use fray_core::tally::Tally;

/// The side a seat plays (red 0, blue 1; the neutral seat is nobody's team).
fn side_of(seat: Seat) -> Option<Side> {
    match seat.0 {
        0 => Some(Side::Red),
        1 => Some(Side::Blue),
        _ => None,
    }
}

/// Squares between two squares, moving as a piece does (diagonals count one).
fn steps(a: Pos, b: Pos) -> i32 {
    (a.x - b.x).abs().max((a.y - b.y).abs())
}

/// The material of `side`, in points: what it has scored and what it holds on the board.
fn material(s: &State, side: Side) -> f64 {
    let Some(team) = side.team() else { return 0.0 };
    let mut v = f64::from(s.score[team]);
    let pedestals: Vec<Pos> = s.arena.pedestals.iter().filter(|p| p.side == side).map(|p| p.at).collect();
    let mut strikes = 0;
    // Orbs a teammate may take: neither of this side's colour (K-ORB-5) nor in a teammate's hands.
    let takeable: Vec<Pos> = s
        .orbs
        .iter()
        .filter(|o| o.color != side)
        .filter_map(|o| match o.loc {
            OrbLoc::Pedestal { pedestal } => s.arena.pedestals.get(pedestal as usize).map(|p| p.at),
            OrbLoc::Ground { at } => Some(at),
            OrbLoc::Held { by } => (s.unit(by).side != side).then_some(s.unit(by).pos).flatten(),
        })
        .collect();
    for u in s.unit_indices() {
        let unit = s.unit(u);
        if unit.side != side {
            continue;
        }
        if unit.kind == UnitKind::Athlete {
            strikes += unit.strikes;
        }
        let Some(at) = unit.pos else {
            // In the Dungeon's queue or banished: a turn or more lost (K-DUN-2).
            if unit.kind == UnitKind::Athlete {
                v -= 0.6;
            }
            continue;
        };
        if !matches!(unit.kind, UnitKind::Athlete | UnitKind::Summon | UnitKind::Automaton) {
            continue;
        }
        let weight = if unit.kind == UnitKind::Athlete { 1.0 } else { 0.4 };
        let max = f64::from(unit.max_hp.max(1));
        v += weight * (0.8 * f64::from(unit.hp.max(0)) / max + 0.08 * f64::from(unit.ward.max(0)).min(5.0));
        if s.arena.dungeon.get(at).copied().unwrap_or(false) {
            v -= 0.3 * weight;
        }
        // An orb carried is worth about a point once it reaches a pedestal (K-SCO-4): more the
        // nearer it is.
        let mut carrying = false;
        for o in s.held_orbs(u) {
            if s.orbs[o as usize].color == side {
                continue;
            }
            carrying = true;
            let d = pedestals.iter().map(|&p| steps(at, p)).min().unwrap_or(20);
            v += 0.7 + 0.5 / (1.0 + f64::from(d) / 3.0);
        }
        if !carrying && unit.kind == UnitKind::Athlete {
            let d = takeable.iter().map(|&p| steps(at, p)).min().unwrap_or(20);
            v += 0.25 / (1.0 + f64::from(d) / 4.0);
        }
    }
    v - f64::from(strikes) / 3.0
}

/// How well the match is going for `seat`, in [-1, 1]: the result once it is over, else the
/// difference in material squashed into the range.
pub fn evaluate(s: &State, seat: Seat) -> f64 {
    let Some(side) = side_of(seat) else { return 0.0 };
    let other = if side == Side::Red { Side::Blue } else { Side::Red };
    if let Some(outcome) = &s.outcome {
        let name = if side == Side::Red { "red" } else { "blue" };
        return match &outcome.winner {
            None => 0.0,
            Some(w) if w == name => 1.0,
            Some(_) => -1.0,
        };
    }
    ((material(s, side) - material(s, other)) / 6.0).tanh()
}

/// Counts what `event` means for a simulator's report: points by source, power uses, hits,
/// damage dealt and taken, Take Outs and Strikes, per athlete and per power.
pub fn tally(event: &Event, t: &mut Tally) {
    match event {
        Event::PowerUsed { unit, power, .. } => {
            t.add("power uses", power, 1.0);
            t.add("uses by athlete", &unit.id, 1.0);
            t.context.insert(unit.id.to_string(), power.clone());
        }
        Event::AttackResult { attacker, hit, .. } => {
            let power = t.context.get(&*attacker.id).cloned().unwrap_or_else(|| "(other)".into());
            t.add("power attacks", &power, 1.0);
            if *hit != Hit::Miss {
                t.add("power hits", &power, 1.0);
                t.add("hits by athlete", &attacker.id, 1.0);
            }
        }
        Event::Damaged { unit, amount, source, .. } => {
            t.add("damage taken", &unit.id, f64::from(*amount));
            if let Some(src) = source {
                t.add("damage dealt", &src.id, f64::from(*amount));
                let power = t.context.get(&*src.id).cloned().unwrap_or_else(|| "(other)".into());
                t.add("power damage", &power, f64::from(*amount));
            }
        }
        Event::TakenOut { unit, by, .. } => {
            t.add("taken out", &unit.id, 1.0);
            if let Some(by) = by {
                t.add("take outs", &by.id, 1.0);
                let power = t.context.get(&*by.id).cloned().unwrap_or_else(|| "(other)".into());
                t.add("power take outs", &power, 1.0);
            }
        }
        Event::Scored { side, points, why, .. } => {
            let source = if why.starts_with("took out") {
                "take outs"
            } else if why.starts_with("dunked") {
                "dunks"
            } else if why.contains("Creep") || why.contains("credit") {
                "creep credit"
            } else if why.contains("Throne") {
                "throne"
            } else {
                "other"
            };
            t.add("points", source, f64::from(*points));
            t.add("points by side", &format!("{side:?}").to_lowercase(), f64::from(*points));
        }
        Event::StrikePenalty { penalty, .. } => t.add("points", "strike penalty", -f64::from(*penalty)),
        Event::Strike { unit, .. } => t.add("strikes", &unit.id, 1.0),
        Event::RoundStarted { .. } => t.add("match", "rounds", 1.0),
        _ => {}
    }
}
