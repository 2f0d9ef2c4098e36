//! Mobs (K-CTYPE-8, L578) and the Vampiric Swarm's Swarm Behavior (L2436-2451). A Mob shares
//! squares with other creatures (rules/movement.rs leaves it out of everyone's footing, and
//! everyone out of its own); it stings, with its attack damage, an enemy that starts its turn
//! inside it (counted with Ongoing damage for the final action, rules/turn.rs), enters one of
//! its squares, or ends its turn inside it. Swarm Behavior: among the squares from which it can
//! make its attack, it takes the one covering the most characters (rules/creeps.rs, `choose`).
//! Rulings: docs/rulings/kazzam.md, "Creeps", "Mobs".

use crate::engine::kit::Ctx;
use crate::engine::state::{State, UnitIdx, UnitKind};
use fray_core::geometry::overlaps;
use fray_core::grid::Pos;

/// Whether `u` is a Mob on the map.
fn mob_on_map(s: &State, u: UnitIdx) -> bool {
    s.unit(u).on_map() && crate::rules::opportunity::is_mob(s, u)
}

/// A Mob's attack damage (ruling): the largest damage line among its actions (the Vampiric
/// Swarm's Buffet and Bite: 2).
pub fn sting_damage(s: &State, mob: UnitIdx) -> i32 {
    s.creep_def(mob).map_or(0, |d| d.action.iter().filter_map(|a| a.damage).max().unwrap_or(0))
}

/// Whether a Mob stings `unit`: an enemy creature that acts (not a trap, wall or conjured thing).
fn stings(s: &State, mob: UnitIdx, unit: UnitIdx) -> bool {
    s.enemies(mob, unit) && crate::rules::query::takes_actions(s.unit(unit)) && sting_damage(s, mob) > 0
}

/// The enemy Mobs whose squares `unit`'s footprint at `at` overlaps.
fn mobs_over_at(s: &State, unit: UnitIdx, at: Pos) -> Vec<UnitIdx> {
    let size = s.unit(unit).size;
    s.units_on_map()
        .filter(|&m| m != unit && mob_on_map(s, m) && stings(s, m, unit))
        .filter(|&m| s.unit(m).pos.is_some_and(|p| overlaps(p, s.unit(m).size, at, size)))
        .collect()
}

/// The enemy Mobs `unit` stands in now.
pub fn mobs_over(s: &State, unit: UnitIdx) -> Vec<UnitIdx> {
    s.unit(unit).pos.map_or_else(Vec::new, |at| mobs_over_at(s, unit, at))
}

/// The damage the Mobs `unit` stands in would deal it as its turn starts.
pub fn start_dose(s: &State, unit: UnitIdx) -> i32 {
    mobs_over(s, unit).iter().map(|&m| sting_damage(s, m)).sum()
}

/// Each of `mobs` still on the map and still over `unit` stings it (`why` says when).
pub fn sting(cx: &mut Ctx, unit: UnitIdx, mobs: &[UnitIdx], why: &str) {
    for &m in mobs {
        if !cx.s.unit(unit).on_map() || !mob_on_map(cx.s, m) {
            continue;
        }
        let amount = sting_damage(cx.s, m);
        let name = cx.s.unit(m).id.clone();
        crate::rules::damage::deal(cx, unit, amount, Some(m), &format!("{why} {name}"), None);
    }
}

/// A creature's footprint moved from `from` to `to`: every enemy Mob it was not in before and
/// is in now stings it (entering a square of the Mob; one sting per Mob entered).
pub fn entered(cx: &mut Ctx, unit: UnitIdx, from: Pos, to: Pos) {
    if !cx.s.units_on_map().any(|m| mob_on_map(cx.s, m)) {
        return;
    }
    let before = mobs_over_at(cx.s, unit, from);
    let new: Vec<UnitIdx> = mobs_over_at(cx.s, unit, to).into_iter().filter(|m| !before.contains(m)).collect();
    sting(cx, unit, &new, "enters");
}

/// The End Phase: a creature ending its turn inside enemy Mobs is stung by each.
pub fn turn_ends(cx: &mut Ctx, unit: UnitIdx) {
    let mobs = mobs_over(cx.s, unit);
    sting(cx, unit, &mobs, "ends its turn in");
}

/// Swarm Behavior: how many characters (athletes) a Mob standing at `p` would cover; 0 for
/// any other Creep.
pub fn covered(s: &State, unit: UnitIdx, p: Pos) -> usize {
    if !crate::rules::opportunity::is_mob(s, unit) {
        return 0;
    }
    let size = s.unit(unit).size;
    s.units_on_map()
        .filter(|&t| s.unit(t).kind == UnitKind::Athlete)
        .filter(|&t| s.unit(t).pos.is_some_and(|q| overlaps(p, size, q, s.unit(t).size)))
        .count()
}

/// Return to the Swarm (L2447): `unit` saved against `st`; if a Creep whose stat block has
/// `swarm_return` gave it, one Creep of that stat block regains that much: the giver if it is on
/// the map and hurt, else the first hurt one in unit order (ruling).
pub fn saved(cx: &mut Ctx, unit: UnitIdx, st: crate::engine::records::statuses::Status) {
    let Some(giver) = st.source else { return };
    let Some(def) = cx.s.creep_def(giver).filter(|d| d.swarm_return > 0) else { return };
    let (id, amount) = (def.id.clone(), def.swarm_return);
    if !cx.s.enemies(giver, unit) {
        return;
    }
    let hurt = |s: &State, c: UnitIdx| {
        s.unit(c).on_map() && s.unit(c).hp < s.unit(c).max_hp && s.creep_def(c).is_some_and(|d| d.id == id)
    };
    let Some(swarm) = Some(giver).filter(|&g| hurt(cx.s, g)).or_else(|| cx.s.units_on_map().find(|&c| hurt(cx.s, c)))
    else {
        return;
    };
    let why = format!("Return to the Swarm: {} saved against {}", cx.s.unit(unit).id, st.kind);
    crate::rules::damage::heal(cx, swarm, amount, &why);
}
