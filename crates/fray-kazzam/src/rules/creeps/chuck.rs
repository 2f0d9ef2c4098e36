//! The Chuck (L2556-2570): Reload (a glowing Block, Low Cover, set beside it), Chuck (an
//! adjacent enemy thrown at another enemy, else an adjacent Block thrown at an enemy, else
//! Reload), Throw Orb (its group's orb at an enemy, landing in that enemy's square, else
//! Chuck), Moving Cover (a Block goes along when it walks and is set where it gives Cover),
//! Passive Behavior (no target: Reload, K-CAI-16) and its Miss Trigger. Blocks are the
//! `Terrain::Block` squares of the arena. Rulings: docs/rulings/kazzam.md, "Creeps".

use super::{CreepDef, Walk, choose, in_range, in_the_way, override_attack, priorities, strike};
use crate::engine::arena::Terrain;
use crate::engine::events::{Event, How};
use crate::engine::frames::rules::{CreepFrame, ForcedKind};
use crate::engine::kit::{Ctx, Frame};
use crate::engine::state::{OrbLoc, State, UnitIdx};
use crate::rules::statuses::StatusKind;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// How far a Chuck throws an enemy (its Miss Trigger's 5 squares, L2568; Chuck's range 5).
const THROW: i32 = 5;

/// The Blocks beside `unit`, in reading order.
fn blocks_beside(s: &State, unit: UnitIdx) -> Vec<Pos> {
    let Some(p) = s.unit(unit).pos else { return Vec::new() };
    let size = s.unit(unit).size;
    let mut out: Vec<Pos> = s
        .arena
        .terrain
        .squares()
        .filter(|&q| s.arena.at(q) == Terrain::Block && distance(p, size, q, 1) == 1)
        .collect();
    out.sort_by_key(|q| (q.y, q.x));
    out
}

/// Whether a Block may be set on `q`: open ground with nobody on it and no orb lying there.
fn room_for_block(s: &State, q: Pos) -> bool {
    s.arena.terrain.contains(q)
        && s.arena.at(q) == Terrain::Open
        && s.unit_at(q).is_none()
        && !s.orbs.iter().any(|o| o.loc == OrbLoc::Ground { at: q })
        && !s.arena.pedestals.iter().any(|pd| pd.at == q)
}

/// How many of `unit`'s enemies (its priority list) it would have Cover from with a Block on `q`
/// (and none where `gone` stands, if given).
fn cover_with(s: &State, unit: UnitIdx, q: Pos, gone: Option<Pos>) -> usize {
    let mut h = s.clone();
    h.flow.clear();
    if let Some(g) = gone {
        let e = Event::TerrainChanged { at: g, terrain: Terrain::Open, why: String::new() };
        crate::engine::events::apply(&mut h, &e);
    }
    let e = Event::TerrainChanged { at: q, terrain: Terrain::Block, why: String::new() };
    crate::engine::events::apply(&mut h, &e);
    priorities(s, unit, None)
        .into_iter()
        .filter(|&t| {
            let tu = h.unit(t);
            tu.pos.is_some_and(|tp| crate::rules::cover::has_cover(&h, tp, tu.size, unit))
        })
        .count()
}

/// The square beside `unit` where a Block gives it Cover from the most enemies (Moving Cover,
/// L2558), `keep` (a Block's own square) winning ties, then the square nearest `near`, then
/// the one nearest in a straight line to its first enemy in priority, row and column.
fn best_square(s: &State, unit: UnitIdx, keep: Option<Pos>, near: Pos) -> Option<Pos> {
    let p = s.unit(unit).pos?;
    let size = s.unit(unit).size;
    let toward = priorities(s, unit, None).first().and_then(|&t| s.unit(t).pos);
    let line = |q: Pos| toward.map_or(0, |f| (q.x - f.x).pow(2) + (q.y - f.y).pow(2));
    s.arena
        .terrain
        .squares()
        .filter(|&q| distance(p, size, q, 1) == 1 && (Some(q) == keep || room_for_block(s, q)))
        .min_by_key(|&q| {
            let gone = keep.filter(|&k| k != q);
            let covered = cover_with(s, unit, q, gone);
            (std::cmp::Reverse(covered), Some(q) != keep, distance(q, 1, near, 1), line(q), q.y, q.x)
        })
}

/// Reload (L2564): a Block appears beside the Chuck where it gives the most Cover.
pub fn reload(cx: &mut Ctx, unit: UnitIdx) {
    let Some(here) = cx.s.unit(unit).pos else { return };
    let id = cx.s.unit(unit).id.clone();
    match best_square(cx.s, unit, None, here) {
        Some(q) => {
            cx.emit(Event::Note { text: format!("{id} Reloads: a glowing Block appears at {q}") });
            cx.emit(Event::TerrainChanged { at: q, terrain: Terrain::Block, why: format!("{id}'s Reload") });
        }
        None => cx.emit(Event::Note { text: format!("{id} Reloads, but there is no room beside it for a Block") }),
    }
}

/// Moving Cover (L2558), square by square: a Chuck walking on its own from beside a Block, with
/// none beside the square it enters, takes one along into the square it left (or, if that
/// square cannot hold it, the nearest one beside it that can).
pub fn carried(cx: &mut Ctx, e: &crate::engine::hooks::Entered) {
    let unit = e.unit;
    if e.by != Some(unit) || !cx.s.creep_def(unit).is_some_and(|d| d.moving_cover) {
        return;
    }
    let size = cx.s.unit(unit).size;
    let beside = |s: &State, at: Pos| -> Vec<Pos> {
        s.arena
            .terrain
            .squares()
            .filter(|&q| s.arena.at(q) == Terrain::Block && distance(at, size, q, 1) == 1)
            .collect()
    };
    if !beside(cx.s, e.to).is_empty() {
        return;
    }
    let Some(old) = beside(cx.s, e.from).into_iter().min_by_key(|q| (q.y, q.x)) else { return };
    let spot = if room_for_block(cx.s, e.from) {
        Some(e.from)
    } else {
        cx.s.arena
            .terrain
            .squares()
            .filter(|&q| distance(e.to, size, q, 1) == 1 && room_for_block(cx.s, q))
            .min_by_key(|&q| (distance(q, 1, old, 1), q.y, q.x))
    };
    let Some(q) = spot else { return };
    let id = cx.s.unit(unit).id.clone();
    cx.emit(Event::TerrainChanged { at: old, terrain: Terrain::Open, why: format!("{id} takes its Block along") });
    cx.emit(Event::TerrainChanged { at: q, terrain: Terrain::Block, why: format!("{id}'s Moving Cover") });
}

/// After its own move the Chuck sets one Block beside it where it gives the most Cover (Moving
/// Cover: it places its Blocks for Cover from its enemies).
fn settle(cx: &mut Ctx, unit: UnitIdx) {
    let Some(b) = blocks_beside(cx.s, unit).into_iter().max_by_key(|&b| std::cmp::Reverse((b.y, b.x))) else {
        return;
    };
    if let Some(q) = best_square(cx.s, unit, Some(b), b).filter(|&q| q != b) {
        let id = cx.s.unit(unit).id.clone();
        cx.emit(Event::TerrainChanged { at: b, terrain: Terrain::Open, why: format!("{id} shifts its Block") });
        cx.emit(Event::TerrainChanged { at: q, terrain: Terrain::Block, why: format!("{id}'s Moving Cover") });
    }
}

/// An enemy beside the Chuck to throw at another enemy, that other one, and where the thrown
/// one lands (a square beside the other, within 5 squares of where it stood, farther from the
/// Chuck; the nearest to where it stood, then in a straight line): the first adjacent enemy in
/// priority order, at the first other enemy it can reach (`at` only, for its Miss Trigger).
fn throw_pair(
    s: &State,
    unit: UnitIdx,
    def: &CreepDef,
    ai: usize,
    list: &[UnitIdx],
    at: Option<UnitIdx>,
) -> Option<(UnitIdx, UnitIdx, Pos)> {
    let here = s.unit(unit).pos?;
    let reach = s.reach(unit).max(def.reach.unwrap_or(1));
    let a = &def.action[ai];
    for &e1 in list.iter().filter(|&&e| s.distance(unit, e) == Some(1)) {
        let f = crate::rules::forced::ForcedFrame::new(s, unit, e1, ForcedKind::Throw, THROW);
        let squares = crate::rules::forced::next_squares(s, &f);
        let (p1, s1) = (s.unit(e1).pos?, s.unit(e1).size);
        for &e2 in list.iter().filter(|&&e| e != e1 && at.is_none_or(|x| x == e)) {
            if !in_range(s, unit, a, reach, here, e2) {
                continue;
            }
            let (p2, s2) = (s.unit(e2).pos?, s.unit(e2).size);
            let land = squares
                .iter()
                .copied()
                .filter(|&q| distance(q, s1, p2, s2) == 1)
                .min_by_key(|&q| (distance(q, s1, p1, s1), (q.x - p1.x).pow(2) + (q.y - p1.y).pow(2), q.y, q.x));
            if let Some(q) = land {
                return Some((e1, e2, q));
            }
        }
    }
    None
}

/// Throws `e1` onto `land` beside `e2`: 3 damage to each (Chuck, L2565).
fn throw_enemy(
    cx: &mut Ctx,
    unit: UnitIdx,
    def: &CreepDef,
    ai: usize,
    (e1, e2, land): (UnitIdx, UnitIdx, Pos),
) -> Result<(), RuleError> {
    cx.emit(Event::Note {
        text: format!("{} throws {} at {}", cx.s.unit(unit).id, cx.s.unit(e1).id, cx.s.unit(e2).id),
    });
    let f = crate::rules::forced::ForcedFrame::new(cx.s, unit, e1, ForcedKind::Throw, THROW);
    crate::rules::forced::answer(cx, f, &format!("{},{}", land.x, land.y))?;
    for v in [e2, e1] {
        if cx.s.unit(v).on_map() && cx.s.unit(unit).on_map() {
            strike(cx, unit, def, ai, v)?;
        }
    }
    Ok(())
}

/// Throws the Block at `b` at `t`: 3 damage; the Block breaks on it (rulings).
fn throw_block(cx: &mut Ctx, unit: UnitIdx, def: &CreepDef, ai: usize, b: Pos, t: UnitIdx) -> Result<(), RuleError> {
    let id = cx.s.unit(unit).id.clone();
    cx.emit(Event::Note { text: format!("{id} throws the Block at {b} at {}", cx.s.unit(t).id) });
    cx.emit(Event::TerrainChanged { at: b, terrain: Terrain::Open, why: format!("thrown by {id}; it breaks") });
    strike(cx, unit, def, ai, t)
}

/// The Chuck action (L2565) in the Creep phase: an adjacent enemy thrown at another; else a
/// Block beside it thrown at the first enemy it can reach — with the Ranged AI's move first if
/// it must (the Block comes along, Moving Cover); else Reload.
fn chuck(
    cx: &mut Ctx,
    unit: UnitIdx,
    def: &CreepDef,
    ai: usize,
    face: i32,
    first: Option<UnitIdx>,
    moves: u8,
) -> Result<(), RuleError> {
    let list = priorities(cx.s, unit, first);
    if let Some(pair) = throw_pair(cx.s, unit, def, ai, &list, None) {
        return throw_enemy(cx, unit, def, ai, pair);
    }
    let here = cx.s.unit(unit).pos.unwrap();
    let reach = cx.s.reach(unit).max(def.reach.unwrap_or(1));
    let a = &def.action[ai];
    if let Some(&b) = blocks_beside(cx.s, unit).first() {
        if let Some(&t) = list.iter().find(|&&t| in_range(cx.s, unit, a, reach, here, t)) {
            return throw_block(cx, unit, def, ai, b, t);
        }
        let free = !(cx.s.has(unit, StatusKind::Immobilized)
            || cx.s.has(unit, StatusKind::Grabbed)
            || cx.s.has(unit, StatusKind::Restrained)
            || cx.s.has(unit, StatusKind::Dazed));
        let power = cx.s.powers.find(&def.power_id(ai));
        if moves == 2 && free {
            let walk = Walk::of(cx.s, unit);
            if let Some((t, path)) = power.and_then(|p| choose(cx.s, unit, a, p, reach, &list, &list, &walk)) {
                if let Some(e) = in_the_way(cx.s, unit, a, reach, &path, &list) {
                    return override_attack(cx, unit, def, ai, e);
                }
                cx.push(Frame::Creeps(CreepFrame::Act { unit, face, first: Some(t), moves: 0 }));
                cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(unit, path, How::Walk)));
                return Ok(());
            }
        }
    }
    cx.emit(Event::Note { text: format!("{} has nothing to throw: it Reloads", cx.s.unit(unit).id) });
    reload(cx, unit);
    Ok(())
}

/// The group's orb, if the Chuck holds it or it lies unheld within its reach.
fn orb_in_hand(s: &State, unit: UnitIdx) -> Option<crate::engine::ids::OrbIdx> {
    let g = super::group_of(s, unit)?;
    let o = s.creeps.groups[g as usize].orb?;
    let (p, size) = (s.unit(unit).pos?, s.unit(unit).size);
    let near = |q: Pos| distance(p, size, q, 1) <= 1;
    match s.orbs[o as usize].loc {
        OrbLoc::Held { by } if by == unit => Some(o),
        OrbLoc::Pedestal { pedestal } if near(s.arena.pedestals[pedestal as usize].at) => Some(o),
        OrbLoc::Ground { at } if near(at) => Some(o),
        _ => None,
    }
}

/// A Chuck's action for a rolled face: true if `def.action[ai]` is one of its hooks and it was
/// played here.
pub fn act(
    cx: &mut Ctx,
    unit: UnitIdx,
    def: &CreepDef,
    ai: usize,
    face: i32,
    first: Option<UnitIdx>,
    moves: u8,
) -> Result<bool, RuleError> {
    let hooked = matches!(def.action[ai].hook.as_deref(), Some("reload" | "chuck" | "throw-orb"));
    if !hooked || moves == 1 {
        return Ok(false);
    }
    if moves == 0 {
        settle(cx, unit);
    }
    if moves == 2 && priorities(cx.s, unit, first).is_empty() && passive(cx, unit, def) {
        return Ok(true);
    }
    let chuck_ai = def.action.iter().position(|a| a.hook.as_deref() == Some("chuck"));
    match def.action[ai].hook.as_deref() {
        Some("reload") => {
            if moves == 2 {
                reload(cx, unit);
            }
        }
        Some("chuck") => chuck(cx, unit, def, ai, face, first, moves)?,
        Some("throw-orb") => {
            // Throw Orb (L2566): from where it stands, at the first enemy within 5 it has a
            // shot at; else the Chuck action.
            let here = cx.s.unit(unit).pos.unwrap();
            let reach = cx.s.reach(unit).max(def.reach.unwrap_or(1));
            let list = priorities(cx.s, unit, first);
            let orb = orb_in_hand(cx.s, unit);
            let t = list.iter().copied().find(|&t| in_range(cx.s, unit, &def.action[ai], reach, here, t));
            match (orb, t) {
                (Some(o), Some(t)) if moves == 2 => {
                    let id = cx.s.orbs[o as usize].id.to_string();
                    cx.emit(Event::Note {
                        text: format!("{} throws its orb at {}", cx.s.unit(unit).id, cx.s.unit(t).id),
                    });
                    let at = cx.s.unit(t).pos.unwrap_or(here);
                    strike(cx, unit, def, ai, t)?;
                    let why = format!("thrown by {}, it lands at {at}", cx.s.unit(unit).id);
                    cx.emit(Event::OrbMoved { orb: id, idx: o, to: OrbLoc::Ground { at }, why });
                }
                _ => match chuck_ai {
                    Some(c) => chuck(cx, unit, def, c, face, first, moves)?,
                    None => reload(cx, unit),
                },
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Passive Behavior (K-CAI-16, L2560): a Chuck with no target Reloads (in place of the No
/// Target AI). True if `def` has it.
pub fn passive(cx: &mut Ctx, unit: UnitIdx, def: &CreepDef) -> bool {
    if def.passive.as_deref() != Some("reload") {
        return false;
    }
    cx.emit(Event::Note { text: format!("{} has no target: it Reloads (Passive Behavior)", cx.s.unit(unit).id) });
    reload(cx, unit);
    true
}

/// Its Miss Trigger when the attacker is not beside it (L2569-2570): the Chuck action aimed at
/// the attacker — another enemy beside the Chuck thrown at it, else a Block thrown at it, else
/// Reload. (An attacker beside it is thrown 5 squares: `throw = 5` in the stat block.)
pub fn miss_chuck(cx: &mut Ctx, unit: UnitIdx, attacker: UnitIdx) -> Result<(), RuleError> {
    if cx.s.distance(unit, attacker).is_some_and(|d| d <= 1) {
        return Ok(());
    }
    let content = cx.s.content.clone();
    let Some(d) = super::def_of(cx.s, unit) else { return Ok(()) };
    let def = &content.creeps()[d as usize];
    let Some(ai) = def.action.iter().position(|a| a.hook.as_deref() == Some("chuck")) else { return Ok(()) };
    let mut list = priorities(cx.s, unit, None);
    if !list.contains(&attacker) {
        list.push(attacker);
    }
    if let Some(pair) = throw_pair(cx.s, unit, def, ai, &list, Some(attacker)) {
        return throw_enemy(cx, unit, def, ai, pair);
    }
    let here = cx.s.unit(unit).pos.unwrap();
    let reach = cx.s.reach(unit).max(def.reach.unwrap_or(1));
    if let Some(&b) = blocks_beside(cx.s, unit).first()
        && in_range(cx.s, unit, &def.action[ai], reach, here, attacker)
    {
        return throw_block(cx, unit, def, ai, b, attacker);
    }
    reload(cx, unit);
    Ok(())
}
