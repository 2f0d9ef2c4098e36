//! What bots and the simulator read off a Draw Steel encounter: how well it is going for a
//! side (the evaluation greedy play and search maximise) and what its events count for a report.
//!
//! The evaluation is a judgement, not a rule: each side's creatures are worth their share of
//! Stamina left, less for being winded (DS-HP-WIND) or dying (DS-HP-DYING-1), nothing dead,
//! a little less under conditions that take actions or moves away, and a little more for
//! standing within reach of a foe (the encounter is won by fighting).

use crate::events::Event;
use crate::model::{ConditionKind, Side};
use crate::state::{State, footprint_distance};
use fray_core::game::Seat;
use fray_core::tally::Tally;

/// The worth of `side`'s creatures, each about 1 at full Stamina.
fn material(s: &State, side: Side) -> f64 {
    let mut v = 0.0;
    for c in s.all() {
        let cr = s.c(c);
        if cr.side != side || cr.dead || cr.unconscious {
            continue;
        }
        let max = f64::from(cr.max_stamina.max(1));
        let mut worth = 0.3 + 0.7 * f64::from(cr.stamina.max(0)) / max;
        // A squad's minions share its pool (DS-GAP-19): each is worth its share of what is left.
        if let Some(q) = s.squad_of(c) {
            let sq = &s.squads[q];
            let alive = sq.members.iter().filter(|&&m| s.c(m).active()).count().max(1);
            worth = 0.3 + 0.7 * (f64::from(sq.pool) / alive as f64 / max).min(1.0);
        }
        // Malice bought and waiting for its strike or potency (DS-GAP-17); the pool itself is
        // worth nothing once the combat ends, so spending it costs nothing here.
        worth += if cr.brutal { 0.03 } else { 0.0 } + 0.01 * f64::from(cr.malicious);
        if cr.dying() {
            worth = 0.15;
        } else if cr.winded() {
            worth -= 0.1;
        }
        for cond in &cr.conditions {
            worth -= match cond.kind {
                ConditionKind::Dazed | ConditionKind::Restrained => 0.08,
                ConditionKind::Slowed | ConditionKind::Prone | ConditionKind::Grabbed => 0.04,
                _ => 0.03,
            };
        }
        // Closing in: a creature near a foe can strike next turn.
        if let Some(at) = cr.pos {
            let near = s
                .all()
                .map(|o| s.c(o))
                .filter(|o| o.side != side && o.active())
                .filter_map(|o| o.pos.map(|p| footprint_distance(at, cr.size.squares, p, o.size.squares)))
                .min()
                .unwrap_or(0);
            worth += 0.05 / (1.0 + f64::from(near));
        }
        v += worth;
    }
    v
}

/// How well the encounter is going for `seat` (heroes 0, Director 1), in [-1, 1].
pub fn evaluate(s: &State, seat: Seat) -> f64 {
    let side = if seat.0 == 0 { Side::Heroes } else { Side::Director };
    if let Some(outcome) = &s.outcome {
        let name = crate::game::SEATS[side.index()];
        return match &outcome.winner {
            None => 0.0,
            Some(w) if w == name => 1.0,
            Some(_) => -1.0,
        };
    }
    ((material(s, side) - material(s, side.other())) / 2.0).tanh()
}

/// Counts what `event` means for a simulator's report: ability uses, damage dealt and taken
/// per creature and per ability, deaths.
pub fn tally(event: &Event, t: &mut Tally) {
    match event {
        Event::AbilityUsed { creature, ability, .. } => {
            t.add("power uses", ability, 1.0);
            t.add("uses by creature", &creature.id, 1.0);
            t.context.insert(creature.id.to_string(), ability.clone());
        }
        Event::Damaged { creature, amount, source, .. } => {
            t.add("damage taken", &creature.id, f64::from(*amount));
            if let Some(src) = source {
                t.add("damage dealt", &src.id, f64::from(*amount));
                let power = t.context.get(&*src.id).cloned().unwrap_or_else(|| "(other)".into());
                t.add("power damage", &power, f64::from(*amount));
            }
        }
        Event::SquadDamaged { creature, amount, source, .. } => {
            t.add("damage taken", &creature.id, f64::from(*amount));
            if let Some(src) = source {
                t.add("damage dealt", &src.id, f64::from(*amount));
            }
        }
        Event::MaliceSpent { feature, spent, .. } => t.add("malice spent", feature, f64::from(*spent)),
        Event::VillainAction { ability, .. } => t.add("villain actions", ability, 1.0),
        Event::Died { creature, .. } => t.add("taken out", &creature.id, 1.0),
        Event::RoundStarted { .. } => t.add("match", "rounds", 1.0),
        _ => {}
    }
}
