//! The special rules of the book's arenas that are more than terrain (docs/maps.md): the Throne
//! (K-CONC-9, K-SCO-10, L2676) and the banishing ray (K-DUN-13, L2478). Portals, shadows and
//! a second Dungeon need nothing here: the arena's terrain and spawn squares say it all.

use crate::engine::arena::Side;
use crate::engine::events::Event;
use crate::engine::kit::Ctx;
use crate::engine::state::{OrbLoc, State, UnitIdx, UnitKind};
use crate::rules::statuses::StatusKind;
use fray_core::geometry::square_distance;
use fray_core::ruleset::RuleError;

/// The banishing ray's power id (content/kazzam/powers/arenas.toml).
pub const RAY: &str = "banishing-ray";

/// The banishing ray is shot from its seat (L2478).
pub fn check_ray_user(s: &State, u: UnitIdx) -> Result<(), RuleError> {
    if s.arena.ray_seat.is_some() && s.unit(u).pos == s.arena.ray_seat && s.unit(u).size == 1 {
        return Ok(());
    }
    Err(crate::engine::kit::refuse(
        "K-DUN-13",
        format_args!("{} must stand on the banishing ray's seat to shoot it", s.unit(u).id),
    ))
}

/// The banishing ray reaches only athletes standing on its squares (L2478: it sends them to
/// their team's spawn squares, which Creeps and summons have none of; see rulings).
pub fn check_ray_target(s: &State, t: UnitIdx) -> Result<(), RuleError> {
    let x = s.unit(t);
    if x.kind != UnitKind::Athlete {
        return Err(crate::engine::kit::refuse(
            "K-DUN-13",
            format_args!("{} has no Dungeon spawn square: the banishing ray sends only athletes", x.id),
        ));
    }
    if x.pos.is_some_and(|p| fray_core::grid::footprint(p, x.size).any(|q| s.arena.ray_squares.contains(&q))) {
        return Ok(());
    }
    Err(crate::engine::kit::refuse("K-DUN-13", format_args!("{} is not on a square the banishing ray reaches", x.id)))
}

/// Whether `u` stands on the Throne.
pub fn on_throne(s: &State, u: UnitIdx) -> bool {
    let x = s.unit(u);
    match (s.arena.throne, x.pos) {
        (Some(t), Some(p)) => fray_core::grid::footprint(p, x.size).any(|q| q == t),
        _ => false,
    }
}

/// The pedestal "behind" a sitter of `side` (L2676): its own team's pedestal nearest the Throne
/// (the first in the map's order on a tie; see rulings).
pub fn behind_throne(s: &State, side: Side) -> Option<usize> {
    let t = s.arena.throne?;
    s.arena
        .pedestals
        .iter()
        .enumerate()
        .filter(|(_, p)| p.side == side)
        .min_by_key(|(i, p)| (square_distance(p.at, t), *i))
        .map(|(i, _)| i)
}

/// K-CONC-9: nobody on the Throne is Hidden.
fn unhide(cx: &mut Ctx, u: UnitIdx) {
    for st in cx.s.unit(u).statuses.clone().into_iter().filter(|x| x.kind == StatusKind::Hidden) {
        cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "nobody on the Throne is Hidden".into() });
    }
}

/// A creature stepping onto the Throne stops being Hidden (K-CONC-9).
pub fn entered(cx: &mut Ctx, u: UnitIdx) {
    if on_throne(cx.s, u) && cx.s.has(u, StatusKind::Hidden) {
        unhide(cx, u);
    }
}

/// As a turn ends: an athlete on the Throne is sitting on it (K-SCO-10).
pub fn turn_ends(cx: &mut Ctx, u: UnitIdx) {
    if cx.s.arena.throne.is_none() || cx.s.unit(u).kind != UnitKind::Athlete || !on_throne(cx.s, u) {
        return;
    }
    unhide(cx, u);
    cx.emit(Event::Throne { unit: cx.s.who(u), held: true });
}

/// As a turn starts: an athlete that ended its last turn on the Throne and is still there
/// scores a point per orb on the pedestal behind it (K-SCO-10, L2676).
pub fn turn_starts(cx: &mut Ctx, u: UnitIdx) {
    if !cx.s.unit(u).throne {
        return;
    }
    cx.emit(Event::Throne { unit: cx.s.who(u), held: false });
    if !on_throne(cx.s, u) {
        return;
    }
    unhide(cx, u);
    let side = cx.s.unit(u).side;
    let Some(p) = behind_throne(cx.s, side) else { return };
    let orbs = cx.s.orbs.iter().filter(|o| o.loc == (OrbLoc::Pedestal { pedestal: p as u8 })).count() as i32;
    if orbs > 0 {
        let id = cx.s.arena.pedestals[p].id.clone();
        crate::rules::scoring::score(
            cx,
            side,
            orbs,
            Some(u),
            format!("held the Throne: {orbs} orb(s) on {id} behind it (K-SCO-10)"),
        );
    } else {
        cx.emit(Event::Note {
            text: format!("{} held the Throne, but no orb lies on the pedestal behind it", cx.s.unit(u).id),
        });
    }
}
