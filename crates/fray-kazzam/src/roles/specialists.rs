//! The Specialists' Role Boosts and specialization features (K-ROLE-3, K-ROLL-5; rulebook
//! L2045-2101): the Runner's shift-and-move and its saves against Opportunities and dropped
//! orbs, the Trapper's boost trap and its saves against traps and terrain, the Terrain Artist's
//! boost (Change Terrain or Boost Square at the target) and its ease on Difficult Terrain.
//! Their questions go through a [`SpecFrame`].

use crate::engine::arena::Terrain;
use crate::engine::events::{Event, How};
pub use crate::engine::frames::roles::SpecFrame;
use crate::engine::kit::{Ctx, Flow, Frame};
use crate::engine::state::{State, UnitIdx, UnitKind};
use crate::rules::movement::{Mode, MoveFrame};
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

pub use crate::rules::query::{TRAPPER_TRAP, dodge_pending, ignores_difficult, is_specialist as is, trap_damage};

// ------------------------------------------------------------------ Role Boosts

/// Runner boost (L2049): shift 1 then move 3; from level 4 shift 6 and no move.
pub fn runner_boost(cx: &mut Ctx, u: UnitIdx) {
    if !cx.s.unit(u).on_map() {
        return;
    }
    if cx.s.unit(u).level >= 4 {
        cx.push(Frame::ShiftSelf { unit: u, left: 6 });
    } else {
        cx.push(Frame::Spec(SpecFrame::RunnerMove { unit: u, left: 3 }));
        cx.push(Frame::ShiftSelf { unit: u, left: 1 });
    }
}

/// Trapper boost (L2069): once the attack has fully resolved, a trap next to the target.
pub fn trapper_boost(cx: &mut Ctx, u: UnitIdx, target: UnitIdx) {
    if cx.s.unit(u).on_map() && !trap_squares(cx.s, target).is_empty() {
        cx.push(Frame::Spec(SpecFrame::TrapSquare { user: u, target, settled: false }));
    }
}

/// Terrain Artist boost (L2101): Change Terrain or Boost Square at the target, at any range.
pub fn terrain_boost(cx: &mut Ctx, u: UnitIdx, target: UnitIdx) {
    if cx.s.unit(u).on_map() && terrain_options(cx.s, u, target).len() > 1 {
        cx.push(Frame::Spec(SpecFrame::Terrain { user: u, target }));
    }
}

/// Empty squares next to `target` where the Trapper's boost trap may go: open ground, no
/// creature, trap or other thing there.
fn trap_squares(s: &State, target: UnitIdx) -> Vec<Pos> {
    let t = s.unit(target);
    let Some(tp) = t.pos else { return Vec::new() };
    s.arena
        .terrain
        .squares()
        .filter(|&q| distance(tp, t.size, q, 1) == 1 && s.arena.at(q).enterable() && s.arena.at(q) != Terrain::Portal)
        .filter(|&q| s.units_on_map().all(|o| distance(s.unit(o).pos.unwrap(), s.unit(o).size, q, 1) > 0))
        .collect()
}

/// Change Terrain (`x,y:<terrain>`) and Boost Square (`x,y:boost`) choices on the target's
/// squares and those next to them, and `none`.
fn terrain_options(s: &State, u: UnitIdx, target: UnitIdx) -> Vec<DecisionOption> {
    let t = s.unit(target);
    let Some(tp) = t.pos else { return Vec::new() };
    let level = s.unit(u).level;
    let strength = if level >= 4 { 2 } else { 1 };
    let mut out = Vec::new();
    for q in s.arena.terrain.squares().filter(|&q| distance(tp, t.size, q, 1) <= 1) {
        if !crate::roles::role_actions::changeable(s, q) {
            continue;
        }
        let here = s.arena.at(q);
        for (id, kind) in crate::roles::role_actions::terrain_list(level) {
            // Low Cover cannot go where a creature stands (as for the Role Action).
            if kind != here && (kind != Terrain::LowCover || s.unit_at(q).is_none()) {
                out.push(DecisionOption::new(format!("{},{}:{id}", q.x, q.y), format!("make {q} {id}")));
            }
        }
        if here != Terrain::Boost(strength) {
            out.push(DecisionOption::new(format!("{},{}:boost", q.x, q.y), format!("make {q} a Boost Square")));
        }
    }
    if !out.is_empty() {
        out.push(DecisionOption::new("none", "change nothing"));
    }
    out
}

// ------------------------------------------------------------------ frames

/// Advances a frame of this module.
pub fn step(cx: &mut Ctx, f: SpecFrame) -> Result<Flow, RuleError> {
    match f {
        SpecFrame::Dodge { taker, target, why } => {
            if cx.s.unit(target).on_map() && cx.s.unit(taker).on_map() {
                let what = format!("the Opportunity {} takes ({why})", cx.s.unit(taker).id);
                if crate::rules::turn::saving_throw(cx, target, &what)? {
                    cx.emit(Event::Note { text: format!("{} slips away from it (Runner)", cx.s.unit(target).id) });
                } else {
                    crate::rules::opportunity::strike(cx, taker, target);
                }
            }
            Ok(Flow::Continue)
        }
        SpecFrame::TrapSquare { user, target, settled: false } => {
            // "Fully resolve your attack, then...": the question waits below the attack's frame.
            let attack = cx.s.flow.iter().rposition(|f| matches!(f, Frame::Attack(a) if a.attacker == user));
            let f = Frame::Spec(SpecFrame::TrapSquare { user, target, settled: true });
            match attack {
                Some(i) => cx.s.flow.insert(i, f),
                None => cx.push(f),
            }
            Ok(Flow::Continue)
        }
        f => {
            if question(cx.s, &f).3.is_empty() {
                return Ok(Flow::Continue); // nothing left to choose: the frame lapses
            }
            cx.push(Frame::Spec(f));
            Ok(Flow::Wait)
        }
    }
}

/// The unit answering a frame, the decision kind, its prompt and its options.
pub fn question(s: &State, f: &SpecFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match *f {
        SpecFrame::RunnerMove { unit, left } => {
            // Nowhere to go (Immobilized, hemmed in, off the map): nothing is asked.
            let mut options: Vec<DecisionOption> = Vec::new();
            if s.unit(unit).on_map() {
                options = crate::rules::actions::walk_ends(s, unit, left)
                    .into_iter()
                    .map(|q| DecisionOption::square(q, format!("move to {q}")))
                    .collect();
            }
            if !options.is_empty() {
                options.push(DecisionOption::new("stop", "stay here"));
            }
            (unit, "square", format!("{}: Role Boost — move up to {left} square(s)", s.unit(unit).id), options)
        }
        SpecFrame::Dodge { target, .. } => (target, "save", String::new(), Vec::new()),
        SpecFrame::TrapSquare { user, target, .. } => (
            user,
            "square",
            format!("{}: Role Boost — where does the trap go, next to {}?", s.unit(user).id, s.unit(target).id),
            if s.unit(user).on_map() {
                trap_squares(s, target).into_iter().map(|q| DecisionOption::square(q, format!("trap at {q}"))).collect()
            } else {
                Vec::new()
            },
        ),
        SpecFrame::Terrain { user, target } => (
            user,
            "terrain",
            format!("{}: Role Boost — change which square at {}?", s.unit(user).id, s.unit(target).id),
            if s.unit(user).on_map() { terrain_options(s, user, target) } else { Vec::new() },
        ),
    }
}

/// Answers a frame's decision.
pub fn answer(cx: &mut Ctx, f: SpecFrame, option: &str) -> Result<(), RuleError> {
    match f {
        SpecFrame::RunnerMove { unit, left } => {
            if option == "stop" {
                return Ok(());
            }
            let to = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y or stop"))?;
            let reach = crate::rules::movement::reach(cx.s, unit, Mode::Walk)
                .ok_or_else(|| RuleError::malformed("not on the map"))?;
            let (Some(path), Some(cost)) = (reach.path_to(to), reach.cost(to)) else {
                return Err(RuleError::malformed(format!("{to} cannot be reached")));
            };
            if cost as i32 > left {
                return Err(RuleError::malformed(format!("{to} is more than {left} squares of movement away")));
            }
            cx.push(Frame::Move(MoveFrame::new(unit, path, How::Walk)));
        }
        SpecFrame::TrapSquare { user, .. } => {
            let at = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
            let sp = crate::rules::summons::Spawn {
                name: "Trapper's trap".into(),
                kind: UnitKind::Trap,
                at,
                hp: 2,
                speed: 0,
                owner: Some(cx.s.who(user)),
                what: TRAPPER_TRAP.into(),
                charges: 1,
                turn_before: None,
                group: None,
                until_turn: None,
            };
            crate::rules::summons::spawn(cx, sp);
        }
        SpecFrame::Terrain { user, .. } => {
            if option == "none" {
                return Ok(());
            }
            let (sq, what) = option.split_once(':').ok_or_else(|| RuleError::malformed("answer x,y:terrain"))?;
            let q = Pos::parse(sq).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
            let level = cx.s.unit(user).level;
            let (terrain, why) = if what == "boost" {
                (Terrain::Boost(if level >= 4 { 2 } else { 1 }), "Boost Square (Role Boost)")
            } else {
                let t = crate::roles::role_actions::terrain_list(level)
                    .into_iter()
                    .find(|(id, _)| *id == what)
                    .map(|(_, t)| t)
                    .ok_or_else(|| RuleError::malformed(format!("unknown terrain {what:?}")))?;
                (t, "Change Terrain (Role Boost)")
            };
            cx.emit(Event::TerrainChanged { at: q, terrain, why: why.into() });
        }
        SpecFrame::Dodge { .. } => {}
    }
    Ok(())
}

// ------------------------------------------------------------------ features

/// Runner feature (L2047): an Opportunity on a Runner waits for its saving throw (returns true:
/// the save is queued and the Opportunity's damage follows only on a failure).
pub fn dodge(cx: &mut Ctx, taker: UnitIdx, target: UnitIdx, why: &str) -> bool {
    if !is(cx.s, target, "runner") {
        return false;
    }
    cx.push(Frame::Spec(SpecFrame::Dodge { taker, target, why: why.into() }));
    true
}

/// Runner feature (L2047): a Runner about to drop what it holds against its will may roll a
/// saving throw; true when it keeps hold (nothing is dropped).
pub fn keeps_hold(cx: &mut Ctx, unit: UnitIdx) -> Result<bool, RuleError> {
    if !is(cx.s, unit, "runner") || !cx.s.unit(unit).on_map() || cx.s.held_orbs(unit).next().is_none() {
        return Ok(false);
    }
    let kept = crate::rules::turn::saving_throw(cx, unit, "dropping what it holds")?;
    if kept {
        cx.emit(Event::Note { text: format!("{} keeps hold (Runner)", cx.s.unit(unit).id) });
    }
    Ok(kept)
}

/// Trapper feature (L2067): a Trapper about to be hit or hurt by a trap or terrain may roll a
/// saving throw; true when it avoids it.
pub fn evades(cx: &mut Ctx, unit: UnitIdx, what: &str) -> Result<bool, RuleError> {
    if !is(cx.s, unit, "trapper") {
        return Ok(false);
    }
    save_to_avoid(cx, unit, what, "Trapper")
}

/// A saving throw against a trap about to act on `unit`, for those who get one: a Trapper
/// (L2067) and a Porter with Self-Lift (L926, K-SAVE-6); true when it avoids the trap.
pub fn evades_trap(cx: &mut Ctx, unit: UnitIdx, what: &str) -> Result<bool, RuleError> {
    let by = if is(cx.s, unit, "trapper") {
        "Trapper"
    } else if cx.s.has_feature(unit, crate::classes::features::Feature::SelfLift) {
        "Self-Lift"
    } else {
        return Ok(false);
    };
    save_to_avoid(cx, unit, what, by)
}

/// The saving throw of [`evades`] and [`evades_trap`], `by` naming the feature that gives it.
fn save_to_avoid(cx: &mut Ctx, unit: UnitIdx, what: &str, by: &str) -> Result<bool, RuleError> {
    if !cx.s.unit(unit).on_map() {
        return Ok(false);
    }
    let saved = crate::rules::turn::saving_throw(cx, unit, what)?;
    if saved {
        cx.emit(Event::Note { text: format!("{} avoids {what} ({by})", cx.s.unit(unit).id) });
    }
    Ok(saved)
}

/// Registers the Specialists' saves with the hook table.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.specialists(crate::engine::hooks::Specialists { dodge, keeps_hold, evades, evades_trap });
}
