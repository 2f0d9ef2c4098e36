//! Portals (K-TER-4) and the Porter's warps, tunnels and lifts, as the core rules see them:
//! read-only questions on the data layer only, so that movement, forced movement and attacks
//! ask them without importing the Porter's class file (issue 12). What the Porter *does* lives
//! in `classes::porter` and reaches the rules through the hook table (`hooks::Warps`).

use crate::content::powers::PowerDef;
use crate::engine::arena::{Side, Terrain};
use crate::engine::frames::rules::{ForcedFrame, ForcedKind};
use crate::engine::records::porter::Warp;
use crate::engine::records::statuses::StatusKind;
use crate::engine::state::{State, UnitIdx};
use fray_core::geometry::distance;
use fray_core::grid::Pos;

/// Whether warp `w` was opened by the power named `id`.
pub fn warp_is(s: &State, w: &Warp, id: &str) -> bool {
    s.powers.get(w.power).id == id
}

/// Whether `victim`'s Grab by `holder` is Involuntary Lift's, held at implement range.
pub fn lift_grab(s: &State, victim: UnitIdx, holder: UnitIdx) -> bool {
    s.unit(victim).statuses.iter().any(|st| {
        st.kind == StatusKind::Grabbed
            && st.source == Some(holder)
            && st.origin.is_some_and(|p| s.powers.get(p).id == "involuntary-lift")
    })
}

/// How far `holder` may be from `victim` and keep its Grab: its reach, or its implement range
/// for an Involuntary Lift.
pub fn grab_reach(s: &State, holder: UnitIdx, victim: UnitIdx) -> i32 {
    if lift_grab(s, victim, holder) { s.implement_range(holder) } else { s.reach(holder) }
}

/// Extra range for `u`'s power against `t`: Bend Space reaches 5 past the implement, and
/// attacks on a target it marked reach 5 farther for its Porter and the Porter's allies.
pub fn range_bonus(s: &State, u: UnitIdx, t: UnitIdx, def: &PowerDef) -> i32 {
    let own = if def.id == "bend-space" { 5 } else { 0 };
    let marked = def.is_attack()
        && s.porter.bends.iter().any(|b| b.target == t && (b.user == u || !s.enemies(b.user, u)) && t != u);
    own + if marked { 5 } else { 0 }
}

/// Whether a Short Tunnel portal is open on `p`.
pub fn is_tunnel(s: &State, p: Pos) -> bool {
    s.porter.tunnels.iter().any(|t| t.at == p)
}

/// The other end of the Short Tunnel portal on `p`, once its Porter has two open.
pub fn tunnel_exit(s: &State, p: Pos) -> Option<Pos> {
    let t = s.porter.tunnels.iter().find(|t| t.at == p)?;
    s.porter.tunnels.iter().find(|o| o.owner == t.owner && o.at != p).map(|o| o.at)
}

/// Whether `p` is a portal end: the arena's (K-TER-4) or a Short Tunnel's.
pub fn is_portal(s: &State, p: Pos) -> bool {
    s.arena.at(p) == Terrain::Portal || is_tunnel(s, p)
}

/// Where entering the portal on `p` leads a creature of `side`, if anywhere.
pub fn portal_exit(s: &State, p: Pos, side: Side) -> Option<Pos> {
    if s.arena.at(p) == Terrain::Portal { s.arena.portal_exit(p, side) } else { tunnel_exit(s, p) }
}

/// A square carried through the tunnel from the portal at `from` to the one at `to`.
pub fn carried(p: Pos, from: Pos, to: Pos) -> Pos {
    Pos::new(p.x + to.x - from.x, p.y + to.y - from.y)
}

/// A forced movement went through a tunnel from `p` to `q` (not next to each other): its
/// mover's square, which directions are measured from, is carried through too.
pub fn forced_origin(s: &State, f: &ForcedFrame, p: Pos, q: Pos) -> Pos {
    p.neighbours()
        .into_iter()
        .find_map(|pt| tunnel_exit(s, pt).filter(|o| distance(*o, 1, q, 1) == 1).map(|o| carried(f.origin, pt, o)))
        .unwrap_or(f.origin)
}

/// Whether a pull by a Vortex Warp's Porter may bring its target into the warp's centre though
/// other enemies of the Porter are there already (several may share it).
pub fn vortex_room(s: &State, f: &ForcedFrame, q: Pos) -> bool {
    f.kind == ForcedKind::Pull
        && s.unit(f.target).size == 1
        && s.enemies(f.mover, f.target)
        && s.arena.at(q).enterable()
        && s.porter.warps.iter().any(|w| w.owner == f.mover && w.at == q && warp_is(s, w, "vortex-warp"))
        && s.units_on_map()
            .filter(|&o| o != f.target && s.unit(o).pos == Some(q))
            .all(|o| s.enemies(f.mover, o) && s.has(o, StatusKind::Flying) == s.has(f.target, StatusKind::Flying))
}
