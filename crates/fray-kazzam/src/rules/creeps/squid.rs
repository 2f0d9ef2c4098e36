//! The Dungeon Squid's traits (L2519-2523): Lightweight (its victims still walk, slower, and
//! haul every squid holding them along) and Item Grabbing (orbs stay behind in the Dungeon when
//! a held victim leaves it). Its actions are in `rules/creep_tricks.rs`.

use crate::engine::events::{Event, How};
use crate::engine::hooks::Entered;
use crate::engine::kit::Ctx;
use crate::engine::state::{State, UnitIdx};
use crate::rules::statuses::StatusKind;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// The squids holding `victim` in a Grab, in listing order.
pub fn holders(s: &State, victim: UnitIdx) -> Vec<UnitIdx> {
    s.unit(victim)
        .statuses
        .iter()
        .filter(|st| crate::rules::query::lightweight(s, st))
        .filter_map(|st| st.source)
        .filter(|&g| s.unit(g).on_map())
        .collect()
}

/// Lightweight: `victim` moved (under its own power or forced) from `from` to `to`; each squid
/// holding it that is no longer beside it is hauled after it: into the square it left if the
/// squid can stand there, else the free square beside it nearest the squid (rows, then columns);
/// when a squid holding it moved it, the square it left is that squid's and the others keep out.
/// A squid with nowhere to go lets go (rulings, K-CTYPE / dungeon-squid).
fn pulled_along(cx: &mut Ctx, e: &Entered) -> Result<(), RuleError> {
    let victim = e.unit;
    let all = holders(cx.s, victim);
    // A squid moving its victim itself (its own walk, its Drag) comes along by its own rules,
    // perhaps into the square the victim left: the others keep out of that one.
    let mover = e.by.filter(|b| all.contains(b));
    for g in all.into_iter().filter(|&g| e.by != Some(g)) {
        let (Some(vp), Some(gp)) = (cx.s.unit(victim).pos, cx.s.unit(g).pos) else { continue };
        let (vsize, gsize) = (cx.s.unit(victim).size, cx.s.unit(g).size);
        if distance(gp, gsize, vp, vsize) <= cx.s.reach(g) {
            continue;
        }
        let footing = crate::rules::movement::Footing::of(cx.s, g);
        let beside = |q: Pos| {
            distance(q, gsize, vp, vsize) == 1 && footing.can_stand(q, gsize) && (mover.is_none() || q != e.from)
        };
        let dest = Some(e.from).filter(|&q| beside(q)).or_else(|| {
            cx.s.arena.terrain.squares().filter(|&q| beside(q)).min_by_key(|&q| (distance(q, 1, gp, 1), q.y, q.x))
        });
        match dest {
            Some(q) => {
                cx.emit(Event::Moved { unit: cx.s.who(g), from: gp, to: q, how: How::Dragged });
                crate::rules::zones::entered(cx, g, gp, q, Some(victim))?;
            }
            None => {
                if let Some(st) = cx.s.status_from(victim, StatusKind::Grabbed, g) {
                    let why = format!("{} has no room to follow: it lets go", cx.s.unit(g).id);
                    cx.emit(Event::StatusEnded { unit: cx.s.who(victim), status: st, why });
                }
            }
        }
    }
    Ok(())
}

/// Item Grabbing: `victim`, held by a squid, is leaving the Dungeon from `from`: every orb it
/// carries is left on that square (an implement is no orb: it always goes along).
pub fn leaving_dungeon(cx: &mut Ctx, victim: UnitIdx, from: Pos) {
    if holders(cx.s, victim).is_empty() {
        return;
    }
    for o in cx.s.held_orbs(victim).collect::<Vec<_>>() {
        let text = format!("the squid's grip keeps {}'s orb in the Dungeon (Item Grabbing)", cx.s.unit(victim).id);
        cx.emit(Event::Note { text });
        crate::rules::orbs::drop(cx, victim, o, from);
    }
}

/// The squid's trait hooks.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_square_entered(66, "dungeon-squid", |cx, e| {
        if cx.s.has(e.unit, StatusKind::Grabbed) {
            pulled_along(cx, e)?;
        }
        Ok(())
    });
}
