//! Shivering Sword powers that move (rulings: bullying-blade, ghost-walk, path-of-blades).
//!
//! Bullying Blade (K-FM-1, K-MOVE-2): push the target up to 2 squares, then 1 extra damage for
//! each square a wall, obstacle or creature kept it from, then the user may shift as many
//! squares as the push moved it, ending next to it. Ghost Walk (K-CONC-4, K-ST-Flying): Hidden
//! and Flying until the user's next turn ends or its next attack has resolved, then a walk up
//! to its speed. Path of Blades (K-OPP-1, K-ROLL-5): a walk that stops to make a basic
//! implement attack against each enemy it comes next to ([`PathOfBlades`]).

pub use crate::content::hooks::{SHIVERING_SWORD_EFFECT as EFFECT_HOOKS, SHIVERING_SWORD_POWER as POWER_HOOKS};
use crate::engine::events::{Event, How};
pub use crate::engine::frames::classes::BullyFrame;
pub use crate::engine::frames::classes::PathOfBlades;
pub use crate::engine::frames::classes::PathStage;
use crate::engine::kit::{Ctx, Flow, Frame};
use crate::engine::state::{State, UnitIdx};
use crate::rules::forced::{ForcedFrame, ForcedKind};
use crate::rules::movement::{Mode, MoveFrame, can_stand};
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;
use std::collections::HashMap;

/// How far Bullying Blade pushes.
const PUSH: i32 = 2;

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
    let footing = crate::rules::movement::Footing::of(s, user);
    let mut parent: HashMap<Pos, Pos> = HashMap::new();
    let mut frontier = vec![p];
    let mut seen = vec![p];
    for _ in 0..n {
        let mut next = Vec::new();
        for &a in &frontier {
            for b in a.neighbours() {
                if !seen.contains(&b) && footing.step_cost(a, b) == Some(1) && footing.can_stand(b, u.size) {
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
            if !cx.s.unit(unit).on_map() || crate::rules::actions::walk_ends(cx.s, unit, left).is_empty() {
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
        BullyFrame::Path(p) => path_step(cx, *p),
    }
}

/// The decision Bullying Blade waits on.
pub fn question(s: &State, f: &BullyFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match *f {
        BullyFrame::Path(ref p) => path_question(s, p),
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
            let mut options: Vec<DecisionOption> = crate::rules::actions::walk_ends(s, unit, left)
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
        BullyFrame::After { .. } | BullyFrame::Walk { .. } | BullyFrame::Path(_) => 0,
    }
}

/// Answers Bullying Blade's decision.
pub fn answer(cx: &mut Ctx, f: BullyFrame, option: &str) -> Result<(), RuleError> {
    match f {
        BullyFrame::Damage { user, target, extra, pushed } => {
            cx.push(Frame::Bully(BullyFrame::Shift { user, target, pushed }));
            if option == "deal" {
                crate::rules::damage::deal(cx, target, extra, Some(user), "Bullying Blade (push blocked)", None);
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
            let reach = crate::rules::movement::reach(cx.s, unit, Mode::Walk)
                .ok_or_else(|| RuleError::malformed("not on the map"))?;
            let (Some(path), Some(cost)) = (reach.path_to(to), reach.cost(to)) else {
                return Err(RuleError::malformed(format!("{to} cannot be reached")));
            };
            cx.push(Frame::Bully(BullyFrame::Walk { unit, left: left - cost as i32 }));
            cx.push(Frame::Move(MoveFrame::new(unit, path, How::Walk)));
        }
        BullyFrame::After { .. } => {}
        BullyFrame::Path(p) => path_answer(cx, *p, option)?,
    }
    Ok(())
}

/// Uses Ghost Walk: Hidden and Flying until the end of the user's next turn (or its next
/// attack, [`attacked`]), then the walk.
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16) -> Result<(), RuleError> {
    if cx.s.powers.get(power).hook.as_deref() == Some("path-of-blades") {
        return path_begin(cx, u, power);
    }
    let name = cx.s.powers.get(power).name.clone();
    cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: name.clone(), targets: vec![] });
    let duration = Duration::EndOfTurn { unit: u, turn: cx.s.unit(u).turns_started + 1 };
    for kind in [StatusKind::Hidden, StatusKind::Flying] {
        let st = Status { kind, amount: 0, source: Some(u), origin: Some(power), duration };
        crate::rules::statuses::give::give_status(cx, u, st, &name);
    }
    let left = crate::rules::movement::speed(cx.s, u, Mode::Walk);
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
        crate::rules::movement::settle_on_legal_square(cx, u, "comes down beside the creature below");
    }
}

// ---------------------------------------------------------------------------------------
// Path of Blades (L1148; rulings path-of-blades)
// ---------------------------------------------------------------------------------------

/// The attack Path of Blades makes.
fn basic_attack(s: &State) -> u16 {
    s.powers.find("basic-implement-attack").expect("built-in")
}

/// Enemies beside `at` (for a walker of `size`) that Path of Blades could attack now.
fn beside(s: &State, u: UnitIdx, at: Pos, size: i32) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&t| t != u && s.enemies(u, t))
        .filter(|&t| {
            !matches!(
                s.unit(t).kind,
                crate::engine::state::UnitKind::Trap
                    | crate::engine::state::UnitKind::Wall
                    | crate::engine::state::UnitKind::Conjured
            )
        })
        .filter(|&t| distance(at, size, s.unit(t).pos.unwrap(), s.unit(t).size) == 1)
        .collect()
}

/// Whether the user may attack `t` from where it stands now with its basic implement attack.
fn attackable(s: &State, u: UnitIdx, t: UnitIdx) -> bool {
    s.unit(t).on_map()
        && s.unit(u).pos.is_some_and(|p| beside(s, u, p, s.unit(u).size).contains(&t))
        && !s.has(u, StatusKind::Disarmed)
        && !s.unit(u).stowed
        && crate::rules::actions::check_target(s, u, basic_attack(s), t, false).is_ok()
}

/// Refuses Path of Blades when both the Attack and the Move Action cannot be spent on it.
pub fn check_use(s: &State, u: UnitIdx, def: &crate::content::powers::PowerDef) -> Result<(), RuleError> {
    if def.hook.as_deref() != Some("path-of-blades") {
        return Ok(());
    }
    let x = s.unit(u);
    if x.granted_by.is_some() || x.granted_move {
        return Err(crate::engine::kit::refuse(
            "K-ACT-4",
            format_args!("{} needs {}'s own Attack and Move Actions, not a granted one", def.name, x.id),
        ));
    }
    if s.has(u, StatusKind::Dazed) {
        return Err(crate::engine::kit::refuse(
            "K-ST-Dazed",
            format_args!("{} is Dazed: one action a turn, and {} needs two", x.id, def.name),
        ));
    }
    if x.actions.moves >= 1 && x.actions.bonus_moves == 0 {
        return Err(crate::engine::kit::refuse(
            "K-ACT-12",
            format_args!("{} needs the Move Action as well, and {} has spent it", def.name, x.id),
        ));
    }
    if s.has(u, StatusKind::Disarmed) {
        return Err(crate::engine::kit::refuse(
            "K-ST-Disarmed",
            format_args!("{} is Disarmed: no implement attacks", x.id),
        ));
    }
    Ok(())
}

/// Uses Path of Blades: the Attack Action is spent already; the Move Action goes too.
fn path_begin(cx: &mut Ctx, u: UnitIdx, power: u16) -> Result<(), RuleError> {
    let name = cx.s.powers.get(power).name.clone();
    cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: name, targets: vec![] });
    cx.emit(Event::ActionSpent { unit: cx.s.who(u), slot: crate::engine::events::Slot::Move });
    let left = crate::rules::movement::speed(cx.s, u, Mode::Walk);
    let p = PathOfBlades {
        unit: u,
        left,
        attacked: Vec::new(),
        hit: Vec::new(),
        provoked: Vec::new(),
        stage: PathStage::Walk,
    };
    cx.push(Frame::Bully(BullyFrame::Path(Box::new(p))));
    Ok(())
}

/// Whether the user may name the Role Boost for its next attack.
fn boost_on_offer(s: &State, p: &PathOfBlades) -> bool {
    crate::roles::boosts::boost_of(s, p.unit).is_some()
}

fn path_step(cx: &mut Ctx, mut p: PathOfBlades) -> Result<Flow, RuleError> {
    let u = p.unit;
    if !cx.s.unit(u).on_map() || cx.s.unit(u).turn_over {
        return Ok(Flow::Continue); // Taken Out, or the turn was cut short
    }
    match std::mem::replace(&mut p.stage, PathStage::Walk) {
        PathStage::Walk => {
            if crate::rules::actions::walk_ends(cx.s, u, p.left).is_empty() {
                return Ok(Flow::Continue);
            }
            cx.push(Frame::Bully(BullyFrame::Path(Box::new(p))));
            Ok(Flow::Wait)
        }
        PathStage::Arrive { end, met } => {
            let queue = if cx.s.unit(u).pos == Some(end) { met } else { Vec::new() };
            p.stage = PathStage::Attack { queue };
            cx.push(Frame::Bully(BullyFrame::Path(Box::new(p))));
            Ok(Flow::Continue)
        }
        PathStage::Attack { queue } => {
            let queue: Vec<UnitIdx> =
                queue.into_iter().filter(|&t| !p.attacked.contains(&t) && attackable(cx.s, u, t)).collect();
            if queue.is_empty() {
                cx.push(Frame::Bully(BullyFrame::Path(Box::new(p))));
                return Ok(Flow::Continue);
            }
            if queue.len() == 1 && !boost_on_offer(cx.s, &p) {
                launch(cx, p, queue[0], false, Vec::new())?;
                return Ok(Flow::Continue);
            }
            p.stage = PathStage::Attack { queue };
            cx.push(Frame::Bully(BullyFrame::Path(Box::new(p))));
            Ok(Flow::Wait)
        }
        PathStage::Resolve { target, boost, hit, queue } => {
            let hit = hit.unwrap_or(false);
            if hit {
                p.hit.push(target);
            }
            if boost && hit && crate::roles::boosts::boost_of(cx.s, u).is_some() {
                // The Role Boost went on this target: the turn is over (the rest of the walk too).
                cx.emit(Event::TurnCutShort { unit: cx.s.who(u), why: "Path of Blades gave its Role Boost".into() });
                return Ok(Flow::Continue);
            }
            p.stage = PathStage::Attack { queue };
            cx.push(Frame::Bully(BullyFrame::Path(Box::new(p))));
            Ok(Flow::Continue)
        }
    }
}

/// Makes the basic implement attack on `t` (no Attack Action: it does not end the turn).
fn launch(cx: &mut Ctx, mut p: PathOfBlades, t: UnitIdx, boost: bool, queue: Vec<UnitIdx>) -> Result<(), RuleError> {
    let u = p.unit;
    p.attacked.push(t);
    p.stage = PathStage::Resolve { target: t, boost, hit: None, queue };
    cx.push(Frame::Bully(BullyFrame::Path(Box::new(p))));
    let at = cx.s.unit(u).pos.expect("on the map");
    let frame = crate::rules::attack::AttackFrame {
        no_boost: !boost,
        ..crate::rules::attack::AttackFrame::new(u, basic_attack(cx.s), vec![t], at)
    };
    crate::rules::attack::begin(cx, frame)
}

fn path_question(s: &State, p: &PathOfBlades) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    let u = p.unit;
    match &p.stage {
        PathStage::Attack { queue } => {
            let mut options = Vec::new();
            for &t in queue {
                let id = s.unit(t).id.to_string();
                options.push(DecisionOption::new(id.clone(), format!("attack {id}")));
                if boost_on_offer(s, p) {
                    options.push(DecisionOption::new(
                        format!("{id}:boost"),
                        format!("attack {id} with the Role Boost (the turn ends if it hits)"),
                    ));
                }
            }
            (u, "path-of-blades", format!("{}: Path of Blades — which enemy now?", s.unit(u).id), options)
        }
        _ => {
            let mut options: Vec<DecisionOption> = crate::rules::actions::walk_ends(s, u, p.left)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("move to {q}")))
                .collect();
            options.push(DecisionOption::new("stop", "stop here"));
            let prompt = format!("{}: Path of Blades — {} square(s) left", s.unit(u).id, p.left);
            (u, "square", prompt, options)
        }
    }
}

fn path_answer(cx: &mut Ctx, mut p: PathOfBlades, option: &str) -> Result<(), RuleError> {
    let u = p.unit;
    if let PathStage::Attack { queue } = std::mem::replace(&mut p.stage, PathStage::Walk) {
        let (id, boost) = match option.strip_suffix(":boost") {
            Some(id) => (id, true),
            None => (option, false),
        };
        let Some(i) = queue.iter().position(|&t| &*cx.s.unit(t).id == id) else {
            return Err(RuleError::malformed("name one of the enemies on offer"));
        };
        let mut rest = queue;
        let t = rest.remove(i);
        return launch(cx, p, t, boost, rest);
    }
    if option == "stop" {
        return Ok(());
    }
    let to = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y or stop"))?;
    let reach =
        crate::rules::movement::reach(cx.s, u, Mode::Walk).ok_or_else(|| RuleError::malformed("not on the map"))?;
    let Some(route) = reach.path_to(to) else {
        return Err(RuleError::malformed(format!("{to} cannot be reached")));
    };
    // The leg stops on the first square it could stop on beside an enemy it came next to.
    let size = cx.s.unit(u).size;
    let mut prev = cx.s.unit(u).pos.expect("on the map");
    let mut met: Vec<UnitIdx> = Vec::new();
    let mut end = route.len();
    for (i, &q) in route.iter().enumerate() {
        let before = beside(cx.s, u, prev, size);
        // Only enemies it could strike there (not Hidden from it, on its side of the air-ground line).
        let now: Vec<UnitIdx> = beside(cx.s, u, q, size)
            .into_iter()
            .filter(|&t| !cx.s.hidden_from(t, u))
            .filter(|&t| {
                cx.s.has(u, StatusKind::Flying) == cx.s.has(t, StatusKind::Flying)
                    || crate::implements::advanced::melee_across_air(cx.s, u, t)
            })
            .collect();
        met.retain(|t| now.contains(t));
        for t in now {
            if !before.contains(&t) && !p.attacked.contains(&t) && !met.contains(&t) {
                met.push(t);
            }
        }
        if !met.is_empty() && can_stand(cx.s, u, q, size) {
            end = i + 1;
            break;
        }
        prev = q;
    }
    let leg: Vec<Pos> = route[..end].to_vec();
    let last = *leg.last().expect("a route has squares");
    let cost = reach.cost(last).unwrap_or(0) as i32;
    p.left -= cost;
    p.stage = PathStage::Arrive { end: last, met };
    let mut m = MoveFrame::new(u, leg, How::Walk);
    // K-OPP-1 once per enemy for the whole walk; enemies it hit take none.
    m.provoked = p.hit.iter().chain(p.provoked.iter()).copied().collect();
    cx.push(Frame::Bully(BullyFrame::Path(Box::new(p))));
    cx.push(Frame::Move(m));
    Ok(())
}

/// An attack roll by `attacker` on `target` was read: Path of Blades notes whether it hit.
pub fn rolled(s: &mut State, attacker: UnitIdx, target: UnitIdx, hit: bool) {
    for f in s.flow.iter_mut().rev() {
        if let Frame::Bully(BullyFrame::Path(p)) = f
            && p.unit == attacker
            && let PathStage::Resolve { target: t, hit: h @ None, .. } = &mut p.stage
            && *t == target
        {
            *h = Some(hit);
            return;
        }
    }
}

/// `taker` took an Opportunity on `mover` as it moved: a Path of Blades walk notes it.
pub fn provoked(s: &mut State, mover: UnitIdx, taker: UnitIdx) {
    for f in s.flow.iter_mut().rev() {
        if let Frame::Bully(BullyFrame::Path(p)) = f
            && p.unit == mover
        {
            if !p.provoked.contains(&taker) {
                p.provoked.push(taker);
            }
            return;
        }
    }
}

/// What the Shivering Sword adds to the core rules: its power and Effect hooks, Path of Blades'
/// use check and its record of rolls and provoked creatures, Ghost Walk ending on an attack.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(POWER_HOOKS, |cx, a| use_power(cx, a.unit, a.power));
    r.effect_hooks(EFFECT_HOOKS, |cx, e| effect_hook(cx, e.hook, e.user, e.target));
    r.check_use(80, check_use);
    r.on_attacked(20, "ghost-walk", attacked);
    r.on_roll_read(10, "path-of-blades", |cx, r| {
        rolled(cx.s, r.attacker, r.target, r.hit);
        Ok(())
    });
    r.on_provoked(10, "path-of-blades", |cx, mover, taker| {
        provoked(cx.s, mover, taker); // once for the whole walk
        Ok(())
    });
}
