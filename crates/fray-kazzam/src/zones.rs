//! Zones and damaging terrain (K-ZONE, K-TER-2): a zone affects a given creature at most once
//! per round (K-ZONE-2), reset at the end of that creature's turn (K-ZONE-3).

use crate::arena::Terrain;
use crate::damage;
use crate::events::Event;
use crate::flow::Ctx;
use crate::state::{State, UnitIdx};
use crate::statuses::StatusKind;
use fray_core::geometry::distance;
use fray_core::grid::{Pos, footprint};
use fray_core::ruleset::RuleError;

/// Zone id of the map's damaging terrain.
pub const TERRAIN_ZONE: u32 = 0;
/// Zone id of pits (forced into a pit: 1 damage, K-TER-8).
pub const PIT_ZONE: u32 = 1;
/// Zone id of slick ground (entering: save or fall Prone, K-TER-8).
pub const SLICK_ZONE: u32 = 2;

fn on_terrain(s: &State, at: Pos, size: i32, t: Terrain) -> bool {
    footprint(at, size).any(|q| s.arena.at(q) == t)
}

/// Whether moving the footprint from `from` to `to` enters a square of terrain `t`
/// (K-LARGE-2: squares already under it are not entered).
pub fn enters(s: &State, unit: UnitIdx, from: Pos, to: Pos, t: Terrain) -> bool {
    let size = s.unit(unit).size;
    footprint(to, size).any(|q| s.arena.at(q) == t && distance(from, size, q, 1) > 0)
}

fn hit(cx: &mut Ctx, unit: UnitIdx, zone: u32, amount: i32, why: &str, credit: Option<UnitIdx>) {
    if cx.s.unit(unit).zone_hits & (1 << zone) != 0 {
        return; // K-ZONE-2: once per round
    }
    cx.emit(Event::ZoneHit { unit: cx.s.who(unit), zone });
    damage::deal(cx, unit, amount, credit, why, None);
}

/// A unit moved from `from` to `to` (moved by `by`: itself, another creature, or nobody):
/// damaging terrain it entered hurts (K-TER-2); a pit it was forced into does 1 damage
/// (K-TER-8). Hovering creatures ignore damaging terrain. The map's own terrain credits
/// nobody (K-SCO-2) unless the creature walked in itself: a creature that Takes itself Out that
/// way takes a Strike (K-STK-3, see rulings).
pub fn entered(cx: &mut Ctx, unit: UnitIdx, from: Pos, to: Pos, by: Option<UnitIdx>) -> Result<(), RuleError> {
    if !cx.s.unit(unit).on_map() {
        return Ok(());
    }
    let hovering = cx.s.has(unit, StatusKind::Hovering);
    let own = by == Some(unit);
    // K-ST-Hovering: Damaging Terrain (and pits) do not touch it; special terrain still does.
    if !hovering && enters(cx.s, unit, from, to, Terrain::Damaging) {
        let amount = cx.s.arena.terrain_damage;
        hit(cx, unit, TERRAIN_ZONE, amount, "damaging terrain", own.then_some(unit));
    }
    if !own && !hovering && enters(cx.s, unit, from, to, Terrain::Pit) {
        hit(cx, unit, PIT_ZONE, 1, "forced into a pit", None);
    }
    // Slick ground: a save or a fall (which ends a move under way, K-MOVE-10).
    if cx.s.unit(unit).on_map()
        && enters(cx.s, unit, from, to, Terrain::Slick)
        && cx.s.unit(unit).zone_hits & (1 << SLICK_ZONE) == 0
        && !cx.s.has(unit, StatusKind::Prone)
    {
        cx.emit(Event::ZoneHit { unit: cx.s.who(unit), zone: SLICK_ZONE });
        if !crate::turn::saving_throw(cx, unit, "slick ground")? {
            let prone = crate::statuses::Status::simple(StatusKind::Prone, crate::statuses::Duration::Indefinite);
            crate::attack::give_status(cx, unit, prone, "slipped on slick ground");
        }
    }
    Ok(())
}

/// Starting a turn in damaging terrain hurts (K-TER-2, K-ZONE-5).
pub fn start_turn_in_terrain(cx: &mut Ctx, unit: UnitIdx) {
    let Some(at) = cx.s.unit(unit).pos else {
        return;
    };
    if !cx.s.has(unit, StatusKind::Hovering) && on_terrain(cx.s, at, cx.s.unit(unit).size, Terrain::Damaging) {
        let amount = cx.s.arena.terrain_damage;
        hit(cx, unit, TERRAIN_ZONE, amount, "starts its turn in damaging terrain", None);
    }
}

/// Whether a square is dangerous to be forced into: damaging terrain or a pit (K-ZONE-6).
pub fn dangerous(s: &State, unit: UnitIdx, at: Pos) -> bool {
    let size = s.unit(unit).size;
    !s.has(unit, StatusKind::Hovering)
        && (on_terrain(s, at, size, Terrain::Damaging) || on_terrain(s, at, size, Terrain::Pit))
}
