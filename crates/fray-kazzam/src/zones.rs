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

/// Zone id of the map's damaging terrain.
pub const TERRAIN_ZONE: u32 = 0;
/// Zone id of pits (forced into a pit: 1 damage, K-TER-8).
pub const PIT_ZONE: u32 = 1;

fn on_terrain(s: &State, at: Pos, size: i32, t: Terrain) -> bool {
    footprint(at, size).any(|q| s.arena.at(q) == t)
}

/// Whether moving the footprint from `from` to `to` enters a square of terrain `t`
/// (K-LARGE-2: squares already under it are not entered).
pub fn enters(s: &State, unit: UnitIdx, from: Pos, to: Pos, t: Terrain) -> bool {
    let size = s.unit(unit).size;
    footprint(to, size).any(|q| s.arena.at(q) == t && distance(from, size, q, 1) > 0)
}

fn hit(cx: &mut Ctx, unit: UnitIdx, zone: u32, amount: i32, why: &str) {
    if cx.s.unit(unit).zone_hits & (1 << zone) != 0 {
        return; // K-ZONE-2: once per round
    }
    cx.emit(Event::ZoneHit { unit: cx.s.who(unit), zone });
    // K-SCO-2: terrain nobody created credits nobody.
    damage::deal(cx, unit, amount, None, why, None);
}

/// A unit moved from `from` to `to`: damaging terrain it entered hurts (K-TER-2); a pit it
/// was forced into does 1 damage (K-TER-8). Hovering creatures ignore damaging terrain.
pub fn entered(cx: &mut Ctx, unit: UnitIdx, from: Pos, to: Pos, forced: bool) {
    if !cx.s.unit(unit).on_map() || cx.s.has(unit, StatusKind::Hovering) {
        return;
    }
    if enters(cx.s, unit, from, to, Terrain::Damaging) {
        let amount = cx.s.arena.terrain_damage;
        hit(cx, unit, TERRAIN_ZONE, amount, "damaging terrain");
    }
    if forced && enters(cx.s, unit, from, to, Terrain::Pit) {
        hit(cx, unit, PIT_ZONE, 1, "forced into a pit");
    }
}

/// Starting a turn in damaging terrain hurts (K-TER-2, K-ZONE-5).
pub fn start_turn_in_terrain(cx: &mut Ctx, unit: UnitIdx) {
    let Some(at) = cx.s.unit(unit).pos else {
        return;
    };
    if !cx.s.has(unit, StatusKind::Hovering) && on_terrain(cx.s, at, cx.s.unit(unit).size, Terrain::Damaging) {
        let amount = cx.s.arena.terrain_damage;
        hit(cx, unit, TERRAIN_ZONE, amount, "starts its turn in damaging terrain");
    }
}

/// Whether a square is dangerous to be forced into: damaging terrain or a pit (K-ZONE-6).
pub fn dangerous(s: &State, unit: UnitIdx, at: Pos) -> bool {
    let size = s.unit(unit).size;
    !s.has(unit, StatusKind::Hovering)
        && (on_terrain(s, at, size, Terrain::Damaging) || on_terrain(s, at, size, Terrain::Pit))
}
