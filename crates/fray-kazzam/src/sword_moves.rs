//! Shivering Sword powers that move (rulings: bullying-blade, ghost-walk).
//!
//! Bullying Blade (K-FM-1, K-MOVE-2): push the target up to 2 squares, then 1 extra damage for
//! each square a wall, obstacle or creature kept it from, then the user may shift as many
//! squares as the push moved it, ending next to it. Ghost Walk (K-CONC-4, K-ST-Flying): Hidden
//! and Flying until the user's next turn ends or its next attack has resolved, then a walk up
//! to its speed.

use crate::events::{Event, How};
use crate::flow::{Ctx, Flow, Frame};
use crate::forced::{ForcedFrame, ForcedKind};
use crate::movement::{Mode, MoveFrame, can_stand, step_cost};
use crate::state::{State, UnitIdx};
use crate::statuses::{Duration, Status, StatusKind};
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;
use std::collections::HashMap;

/// Effect hooks this module answers.
pub const EFFECT_HOOKS: &[&str] = &["bullying-blade"];

/// Power hooks this module answers.
pub const POWER_HOOKS: &[&str] = &["ghost-walk"];

/// How far Bullying Blade pushes.
const PUSH: i32 = 2;

/// What Bullying Blade still has to do after its push.
#[derive(Clone, Debug)]
pub enum BullyFrame {
    /// The push has resolved: work out what follows.
    After {
        /// The attacker.
        user: UnitIdx,
        /// The pushed creature.
        target: UnitIdx,
        /// Where the target stood before the push.
        start: Pos,
        /// Where the user stood (the push is measured from it).
        origin: Pos,
    },
    /// The user may deal extra damage for the squares the push was kept from.
    Damage {
        /// The attacker.
        user: UnitIdx,
        /// The pushed creature.
        target: UnitIdx,
        /// Extra damage on offer.
        extra: i32,
        /// Squares the push moved it (the shift that may follow).
        pushed: i32,
    },
    /// Ghost Walk's walk: the unit picks where to go, `left` squares of movement left.
    Walk {
        /// Who walks.
        unit: UnitIdx,
        /// Squares of movement left.
        left: i32,
    },
    /// The user may shift up to `pushed` squares, ending next to the target.
    Shift {
        /// The attacker.
        user: UnitIdx,
        /// The pushed creature.
        target: UnitIdx,
        /// Up to how many squares.
        pushed: i32,
    },
}

/// Bullying Blade's Effect: the push, then the follow-up frame.
pub fn effect_hook(cx: &mut Ctx, _hook: &str, user: UnitIdx, target: UnitIdx) -> Result<(), RuleError> {
    let (Some(start), Some(origin)) = (cx.s.unit(target).pos, cx.s.unit(user).pos) else {
        return Ok(());
    };
    cx.push(Frame::Bully(BullyFrame::After { user, target, start, origin }));
    cx.push(Frame::Forced(ForcedFrame::new(cx.s, user, target, ForcedKind::Push, PUSH)));
    Ok(())
}

/// Extra damage owed: the squares of the push left over when no square farther from the user
/// had room for the target (a wall, an obstacle or a creature). None when it was Immobilized or
/// the user stopped early by choice.
fn prevented(s: &State, target: UnitIdx, origin: Pos, user_size: i32, pushed: i32) -> i32 {
    let t = s.unit(target);
    let Some(p) = t.pos else { return 0 };
    if pushed >= PUSH || s.has(target, StatusKind::Immobilized) {
        return 0;
    }
    let here = distance(p, t.size, origin, user_size);
    let room = p
        .neighbours()
        .into_iter()
        .any(|q| distance(q, t.size, origin, user_size) > here && can_stand(s, target, q, t.size));
    if room { 0 } else { PUSH - pushed }
}

/// Squares `user` can shift to in up to `n` steps, ending next to `target`, with the path.
fn shift_targets(s: &State, user: UnitIdx, target: UnitIdx, n: i32) -> Vec<(Pos, Vec<Pos>)> {
    let u = s.unit(user);
    let (Some(p), Some(tp)) = (u.pos, s.unit(target).pos) else { return Vec::new() };
    if n <= 0 || s.has(user, StatusKind::Immobilized) {
        return Vec::new();
    }
    let tsize = s.unit(target).size;
    let mut parent: HashMap<Pos, Pos> = HashMap::new();
    let mut frontier = vec![p];
    let mut seen = vec![p];
    for _ in 0..n {
        let mut next = Vec::new();
        for &a in &frontier {
            for b in a.neighbours() {
                if !seen.contains(&b) && step_cost(s, user, a, b) == Some(1) && can_stand(s, user, b, u.size) {
                    seen.push(b);
                    parent.insert(b, a);
                    next.push(b);
                }
            }
        }
        frontier = next;
    }
    let mut out: Vec<(Pos, Vec<Pos>)> = seen
        .into_iter()
        .filter(|&q| q != p && distance(q, u.size, tp, tsize) == 1)
        .map(|q| {
            let mut path = vec![q];
            let mut at = q;
            while let Some(&prev) = parent.get(&at) {
                if prev == p {
                    break;
                }
                path.push(prev);
                at = prev;
            }
            path.reverse();
            (q, path)
        })
        .collect();
    out.sort_by_key(|(q, _)| (q.y, q.x));
    out
}

/// Advances Bullying Blade after its push.
pub fn step(cx: &mut Ctx, f: BullyFrame) -> Result<Flow, RuleError> {
    match f {
        BullyFrame::After { user, target, start, origin } => {
            let Some(now) = cx.s.unit(target).pos else { return Ok(Flow::Continue) };
            let size = cx.s.unit(target).size;
            let pushed = distance(start, 1, now, 1); // how far its anchor square moved
            let _ = size;
            let extra = prevented(cx.s, target, origin, cx.s.unit(user).size, pushed);
            if extra > 0 {
                cx.push(Frame::Bully(BullyFrame::Damage { user, target, extra, pushed }));
            } else {
                cx.push(Frame::Bully(BullyFrame::Shift { user, target, pushed }));
            }
            Ok(Flow::Continue)
        }
        BullyFrame::Shift { user, target, pushed } => {
            if !cx.s.unit(user).on_map() || shift_targets(cx.s, user, target, pushed).is_empty() {
                return Ok(Flow::Continue);
            }
            cx.push(Frame::Bully(f));
            Ok(Flow::Wait)
        }
        BullyFrame::Walk { unit, left } => {
            if !cx.s.unit(unit).on_map() || walk_squares(cx.s, unit, left).is_empty() {
                return Ok(Flow::Continue);
            }
            cx.push(Frame::Bully(f));
            Ok(Flow::Wait)
        }
        BullyFrame::Damage { target, .. } => {
            if !cx.s.unit(target).on_map() {
                return Ok(Flow::Continue);
            }
            cx.push(Frame::Bully(f));
            Ok(Flow::Wait)
        }
    }
}

/// The decision Bullying Blade waits on.
pub fn question(s: &State, f: &BullyFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match *f {
        BullyFrame::Damage { user, target, extra, .. } => (
            user,
            "bullying-blade",
            format!("{}: the push was blocked — deal {} {extra} extra damage?", s.unit(user).id, s.unit(target).id),
            vec![
                DecisionOption::new("deal", format!("deal {extra} extra damage")),
                DecisionOption::new("no", "no extra damage"),
            ],
        ),
        BullyFrame::Walk { unit, left } => {
            let mut options: Vec<DecisionOption> = walk_squares(s, unit, left)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("move to {q}")))
                .collect();
            options.push(DecisionOption::new("stop", "stop here"));
            (unit, "square", format!("{}: Ghost Walk — {left} square(s) left", s.unit(unit).id), options)
        }
        BullyFrame::Shift { user, target, .. } | BullyFrame::After { user, target, .. } => {
            let mut options: Vec<DecisionOption> = shift_targets(s, user, target, pushed_of(f))
                .into_iter()
                .map(|(q, _)| DecisionOption::square(q, format!("shift to {q}")))
                .collect();
            options.push(DecisionOption::new("stay", "stay put"));
            (
                user,
                "square",
                format!(
                    "{}: shift up to {} square(s), ending next to {}",
                    s.unit(user).id,
                    pushed_of(f),
                    s.unit(target).id
                ),
                options,
            )
        }
    }
}

fn pushed_of(f: &BullyFrame) -> i32 {
    match f {
        BullyFrame::Shift { pushed, .. } | BullyFrame::Damage { pushed, .. } => *pushed,
        BullyFrame::After { .. } | BullyFrame::Walk { .. } => 0,
    }
}

/// Answers Bullying Blade's decision.
pub fn answer(cx: &mut Ctx, f: BullyFrame, option: &str) -> Result<(), RuleError> {
    match f {
        BullyFrame::Damage { user, target, extra, pushed } => {
            cx.push(Frame::Bully(BullyFrame::Shift { user, target, pushed }));
            if option == "deal" {
                crate::damage::deal(cx, target, extra, Some(user), "Bullying Blade (push blocked)", None);
            }
        }
        BullyFrame::Shift { user, target, pushed } => {
            if option == "stay" {
                return Ok(());
            }
            let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y or stay"))?;
            let Some((_, path)) = shift_targets(cx.s, user, target, pushed).into_iter().find(|(p, _)| *p == q) else {
                return Err(RuleError::malformed("not a square the shift can reach"));
            };
            cx.push(Frame::Move(MoveFrame::new(user, path, How::Shift)));
        }
        BullyFrame::Walk { unit, left } => {
            if option == "stop" {
                return Ok(());
            }
            let to = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y or stop"))?;
            let reach =
                crate::movement::reach(cx.s, unit, Mode::Walk).ok_or_else(|| RuleError::malformed("not on the map"))?;
            let (Some(path), Some(cost)) = (reach.path_to(to), reach.cost(to)) else {
                return Err(RuleError::malformed(format!("{to} cannot be reached")));
            };
            cx.push(Frame::Bully(BullyFrame::Walk { unit, left: left - cost as i32 }));
            cx.push(Frame::Move(MoveFrame::new(unit, path, How::Walk)));
        }
        BullyFrame::After { .. } => {}
    }
    Ok(())
}

/// Squares Ghost Walk's walk may go to with `left` squares of movement (K-MOVE-1).
fn walk_squares(s: &State, u: UnitIdx, left: i32) -> Vec<Pos> {
    if left <= 0 || crate::actions::check_move_allowed(s, u, Mode::Walk).is_err() {
        return Vec::new();
    }
    let Some(reach) = crate::movement::reach(s, u, Mode::Walk) else { return Vec::new() };
    let here = s.unit(u).pos;
    crate::movement::destinations(s, u, Mode::Walk)
        .into_iter()
        .filter(|&q| Some(q) != here && reach.cost(q).is_some_and(|c| c as i32 <= left))
        .filter(|&q| crate::control::check_move(s, u, q).is_ok())
        .collect()
}

/// Uses Ghost Walk: Hidden and Flying until the end of the user's next turn (or its next
/// attack, [`attacked`]), then the walk.
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16) -> Result<(), RuleError> {
    let name = cx.s.powers.get(power).name.clone();
    cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: name.clone(), targets: vec![] });
    let duration = Duration::EndOfTurn { unit: u, turn: cx.s.unit(u).turns_started + 1 };
    for kind in [StatusKind::Hidden, StatusKind::Flying] {
        let st = Status { kind, amount: 0, source: Some(u), origin: Some(power), duration };
        crate::attack::give_status(cx, u, st, &name);
    }
    let left = crate::movement::speed(cx.s, u, Mode::Walk);
    cx.push(Frame::Bully(BullyFrame::Walk { unit: u, left }));
    Ok(())
}

/// An attack by `u` has resolved: Ghost Walk's Hidden and Flying end (K-CONC-4).
pub fn attacked(cx: &mut Ctx, u: UnitIdx) {
    let Some(p) = cx.s.powers.find("ghost-walk") else { return };
    for st in cx.s.unit(u).statuses.clone().into_iter().filter(|s| s.origin == Some(p)) {
        cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "it attacked (Ghost Walk)".into() });
    }
    if cx.s.unit(u).on_map() && !cx.s.has(u, StatusKind::Flying) {
        // K-ST-Flying: come down on an occupied square, it takes the nearest free one.
        crate::movement::settle_on_legal_square(cx, u, "comes down beside the creature below");
    }
}
