//! Forced movement (DS-FM, DS-STAB-1, DS-SLAM, DS-FALL-4/5): the mover picks squares one at a
//! time (and may stop, DS-FM-4); stability shortens it; moving into a creature or a wall slams;
//! being moved off a height is a fall.

use crate::events::{Ctx, Event};
use crate::frames::Frame;
use crate::model::ConditionKind;
use crate::options::Text;
use crate::state::{Cx, Terrain};
use fray_core::decision::DecisionOption;
use fray_core::engine::Flow;
use fray_core::engine::forced::{Forced, direction, straight_on};
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

pub use crate::frames::ForcedFrame;

/// Starts forced movement at once (see [`prepare`]).
pub fn begin(cx: &mut Ctx, mover: Cx, target: Cx, kind: Forced, n: i32, vertical: bool) {
    if let Some(f) = prepare(cx, mover, target, kind, n, vertical) {
        cx.push(Frame::Forced(f));
    }
}

/// Forced movement about to start: restrained creatures cannot be moved (DS-COND-RESTR-1), nor
/// grabbed ones (DS-COND-GRAB-1) — except, under the published text, by their own grabber
/// (DS-DELTA-7); stability shortens the distance (DS-STAB-1). `None` when nothing moves.
pub fn prepare(cx: &mut Ctx, mover: Cx, target: Cx, kind: Forced, n: i32, vertical: bool) -> Option<ForcedFrame> {
    // A target killed by the ability's damage is still moved while its body is on the map
    // (DS-SLAM-3, DS-GAP-10: the movement comes before anything its death sets off).
    cx.s.c(target).pos?;
    if cx.s.has(target, ConditionKind::Restrained) {
        cx.emit(Event::Note { text: format!("{} cannot be force-moved while restrained", cx.s.c(target).id) });
        return None;
    }
    let by_grabber = cx.s.options.grabbed == Text::Published
        && cx.s.source_of(target, ConditionKind::Grabbed) == Some(mover)
        && mover != target;
    if cx.s.has(target, ConditionKind::Grabbed) && !by_grabber {
        let text = match cx.s.options.grabbed {
            Text::Published => format!("{} is grabbed: only its grabber can force-move it", cx.s.c(target).id),
            Text::Glossary => format!("{} cannot be force-moved while grabbed", cx.s.c(target).id),
        };
        cx.emit(Event::Note { text });
        return None;
    }
    let stability = if mover == target { 0 } else { cx.s.c(target).stability };
    let n = (n - stability).max(0);
    if stability > 0 {
        cx.emit(Event::Note {
            text: format!("{}'s stability {stability} shortens the {} to {n}", cx.s.c(target).id, kind.name()),
        });
    }
    (n > 0).then(|| ForcedFrame { mover, target, kind, remaining: n, steps: Vec::new(), vertical, rise: 0, down: 0 })
}

/// Starts the forced movements one ability gives its targets (DS-GAP-10): with several, its
/// user picks which target to move next, and each finishes before the next starts.
pub fn queue(cx: &mut Ctx, mut frames: Vec<ForcedFrame>) {
    match frames.len() {
        0 => {}
        1 => cx.push(Frame::Forced(frames.pop().expect("one"))),
        _ => cx.push(Frame::ForcedOrder { mover: frames[0].mover, frames }),
    }
}

/// Whether a forced movement still has somewhere to take its target.
fn movable(s: &crate::state::State, f: &ForcedFrame) -> bool {
    f.remaining > 0 && s.c(f.target).pos.is_some() && !(next_squares(s, f).is_empty() && vertical_steps(f).is_empty())
}

/// Several targets waiting to be moved (DS-GAP-10): asks which goes next while two or more
/// can still move; one that can is moved without asking; those that can't are dropped once
/// none can.
pub fn order_step(cx: &mut Ctx, mover: Cx, mut frames: Vec<ForcedFrame>) -> Flow {
    let movable: Vec<usize> = (0..frames.len()).filter(|&i| movable(cx.s, &frames[i])).collect();
    match movable.as_slice() {
        [] => Flow::Continue,
        [one] => {
            let f = frames.remove(*one);
            if !frames.is_empty() {
                cx.push(Frame::ForcedOrder { mover, frames });
            }
            cx.push(Frame::Forced(f));
            Flow::Continue
        }
        _ => {
            cx.push(Frame::ForcedOrder { mover, frames });
            Flow::Wait
        }
    }
}

/// The decision: which target the mover moves next.
pub fn order_question(
    s: &crate::state::State,
    mover: Cx,
    frames: &[ForcedFrame],
) -> (&'static str, String, Vec<DecisionOption>) {
    let mut o: Vec<DecisionOption> = Vec::new();
    for f in frames.iter().filter(|f| movable(s, f)) {
        let id = s.c(f.target).id.to_string();
        if !o.iter().any(|x| x.id == id) {
            o.push(DecisionOption::new(id.clone(), format!("{} {id} next ({} squares)", f.kind.name(), f.remaining)));
        }
    }
    ("forced-order", format!("{}: which target do you move next?", s.c(mover).id), o)
}

/// Moves the chosen target now; the others wait for it to finish.
pub fn answer_order(cx: &mut Ctx, mover: Cx, mut frames: Vec<ForcedFrame>, option: &str) -> Result<(), RuleError> {
    let i = frames
        .iter()
        .position(|f| &*cx.s.c(f.target).id == option && movable(cx.s, f))
        .ok_or_else(|| RuleError::malformed(format!("{option:?} is not a target waiting to be moved")))?;
    let f = frames.remove(i);
    if !frames.is_empty() {
        cx.push(Frame::ForcedOrder { mover, frames });
    }
    cx.push(Frame::Forced(f));
    Ok(())
}

/// Next squares: one step that keeps to the kind's direction (farther for a push, closer for a
/// pull, DS-FM-1, DS-FM-2) and never turns back against an earlier step (a straight line,
/// DS-GAP-8), on the same level. Occupied squares and walls are offered too: moving there is a
/// slam (DS-SLAM-1, DS-SLAM-4). The mover's own space is offered to a pull or a slide under the
/// published text only (DS-DELTA-9): a slam into the mover.
pub fn next_squares(cx: &crate::state::State, f: &ForcedFrame) -> Vec<Pos> {
    let into_self_ok = cx.options.collisions == Text::Published && matches!(f.kind, Forced::Pull | Forced::Slide);
    let t = cx.c(f.target);
    let (Some(p), Some(mp)) = (t.pos, cx.c(f.mover).pos) else { return Vec::new() };
    let (size, ms) = (t.size.squares, cx.c(f.mover).size.squares);
    let glossary_push = f.kind == Forced::Push && cx.options.push == Text::Glossary;
    p.neighbours()
        .into_iter()
        .filter(|&q| {
            let dir = direction(p, q);
            let ok = match f.steps.first() {
                // Glossary: a straight line away — the first step away, then the same direction.
                Some(&first) if glossary_push => first == dir,
                _ => f.kind.step_ok(p, q, size, mp, ms),
            };
            let terrain = cx.terrain_at(q);
            let into_self =
                f.mover != f.target && (cx.at(q) == Some(f.mover) || collisions(cx, f.target, p, q).contains(&f.mover));
            ok && (f.kind == Forced::Slide || straight_on(&f.steps, dir))
                && terrain != Terrain::Edge
                && (into_self_ok || !into_self)
        })
        .collect()
}

/// Why the mover can't take the target to `option` (a square next to it that the decision
/// does not offer), naming the rule: not farther for a push, not closer for a pull, or a bend
/// back against the line (DS-FM-1, DS-FM-2, DS-GAP-8, DS-DELTA-10).
pub fn refusal(s: &crate::state::State, f: &ForcedFrame, option: &str) -> Option<RuleError> {
    let q = Pos::parse(option)?;
    let t = s.c(f.target);
    let (p, mp) = (t.pos?, s.c(f.mover).pos?);
    if distance(p, 1, q, 1) != 1 {
        return None;
    }
    let dir = direction(p, q);
    let (size, ms) = (t.size.squares, s.c(f.mover).size.squares);
    let (here, there) = (distance(p, size, mp, ms), distance(q, size, mp, ms));
    let (id, name) = (&t.id, f.kind.name());
    let why = match f.kind {
        Forced::Push if s.options.push == Text::Glossary && f.steps.first().is_some_and(|&d| d != dir) => {
            ("DS-DELTA-10", format!("a {name} keeps to its first step's direction (push = glossary)"))
        }
        Forced::Push if !f.kind.keeps_to(here, there) => {
            ("DS-FM-1", format!("each square of a {name} must take {id} farther away"))
        }
        Forced::Pull if !f.kind.keeps_to(here, there) => {
            ("DS-FM-2", format!("each square of a {name} must bring {id} closer"))
        }
        Forced::Push | Forced::Pull if !straight_on(&f.steps, dir) => {
            ("DS-GAP-8", format!("a {name} runs in a straight line: {q} bends back against a way {id} already went"))
        }
        _ => return None,
    };
    Some(RuleError::refused(why.0, format!("{q} is not an option for this {name} of {id}: {}", why.1)))
}

/// Up and down steps a vertical forced movement still allows (DS-GAP-10): it may rise or sink,
/// but a straight line never turns back.
pub fn vertical_steps(f: &ForcedFrame) -> Vec<&'static str> {
    let mut v = Vec::new();
    if f.vertical && f.rise >= 0 {
        v.push("up");
    }
    if f.vertical && f.rise <= 0 {
        v.push("down");
    }
    v
}

/// The decision: where the mover takes the target next.
pub fn question(s: &crate::state::State, f: &ForcedFrame) -> (&'static str, String, Vec<DecisionOption>) {
    let mut o: Vec<DecisionOption> = next_squares(s, f)
        .into_iter()
        .map(|q| {
            let from = s.c(f.target).pos.unwrap();
            let size = s.c(f.target).size.rank();
            let objects = objects_in_way(s, f.target, from, q);
            let what = if collides_with(s, f.target, from, q).is_some() {
                " (slam into a creature)"
            } else if objects.iter().any(|&i| s.objects[i].size.rank() >= size) {
                " (slam into an object)"
            } else if !objects.is_empty() {
                " (knock an object over)"
            } else if hits_object(s, f.target, from, q) {
                " (slam into the wall)"
            } else {
                ""
            };
            DecisionOption::square(q, format!("{} to {q}{what}", f.kind.name()))
        })
        .collect();
    for v in vertical_steps(f) {
        o.push(DecisionOption::new(v, format!("{} {} one square {v}", f.kind.name(), s.c(f.target).id)));
    }
    o.push(DecisionOption::new("stop", "stop here"));
    ("square", format!("{}: {} {} ({} left)", s.c(f.mover).id, f.kind.name(), s.c(f.target).id, f.remaining), o)
}

/// Forced-movement frames wait for the mover.
pub fn step(cx: &mut Ctx, f: ForcedFrame) -> Flow {
    if !movable(cx.s, &f) {
        return Flow::Continue;
    }
    cx.push(Frame::Forced(f));
    Flow::Wait
}

/// Moves one square, or slams.
pub fn answer(cx: &mut Ctx, mut f: ForcedFrame, option: &str) -> Result<(), RuleError> {
    if option == "stop" {
        // DS-FALL-4: stopped over a drop, it falls.
        let t = f.target;
        if !cx.s.c(t).flying && cx.s.c(t).pos.is_some_and(|p| cx.s.c(t).z > cx.s.arena.ground(p)) {
            fall_from(cx, t, f.down, true)?;
        }
        return Ok(());
    }
    if matches!(option, "up" | "down") && vertical_steps(&f).contains(&option) {
        return vertical(cx, f, option == "up");
    }
    let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y, up, down or stop"))?;
    let t = f.target;
    let p = cx.s.c(t).pos.unwrap();
    let others = collisions(cx.s, t, p, q);
    if !others.is_empty() {
        // DS-SLAM-1..3: both take 1 per square left; the movement ends. A large creature may hit
        // several smaller ones at once: each of them, and the moved creature, takes the damage
        // once (DS-SLAM-2, DS-DELTA-9). Under the published text the creature hit may be the
        // one doing the pulling or sliding (DS-DELTA-9).
        let n = f.remaining;
        let names: Vec<String> = others.iter().map(|&o| cx.s.c(o).id.to_string()).collect();
        cx.emit(Event::Note { text: format!("{} slams into {}", cx.s.c(t).id, names.join(" and ")) });
        crate::damage::deal(cx, t, n, Some(f.mover), "slammed into a creature");
        for other in others {
            crate::damage::deal(cx, other, n, Some(f.mover), "hit by a slammed creature");
        }
        return Ok(());
    }
    // DS-SLAM-4, DS-SIZE-3: an object at least the target's size (by heft, for oblong ones)
    // stops it like a wall; a smaller one is knocked over and the target carries on.
    for i in objects_in_way(cx.s, t, p, q) {
        if cx.s.objects[i].size.rank() >= cx.s.c(t).size.rank() {
            let n = f.remaining;
            let what = format!("slammed into the {}", cx.s.objects[i].name);
            crate::damage::deal(cx, t, 2 + n, Some(f.mover), &what);
            return Ok(());
        }
    }
    for i in objects_in_way(cx.s, t, p, q) {
        let name = cx.s.objects[i].name.clone();
        cx.emit(Event::ObjectToppled { object: i, name, by: cx.s.who(t), unseen: cx.s.unseen(t) });
    }
    // Forced movement is never vertical: ground higher than the target stands is an object.
    if hits_object(cx.s, t, p, q) {
        // DS-SLAM-4: 2 + 1 per square left.
        let n = f.remaining;
        crate::damage::deal(cx, t, 2 + n, Some(f.mover), "slammed into an object");
        return Ok(());
    }
    let z = cx.s.c(t).z;
    let ground = cx.s.arena.ground(q);
    cx.emit(Event::moved(cx.s, t, p, q, z.max(ground), format!("is {}", f.kind.past())));
    crate::heroic::force_moved(cx, t); // DS-GAP-15: the talent's clarity
    f.steps.push(direction(p, q));
    f.remaining -= 1;
    pulled_apart(cx, t);
    // DS-FM-6: terrain affects it as if it walked in.
    crate::damage::entered(cx, t, q);
    // DS-FALL-4: moved off a height, it falls at the end of the movement (a body too).
    if cx.s.c(t).pos.is_some()
        && !cx.s.c(t).flying
        && cx.s.c(t).z > ground
        && (f.remaining <= 0 || next_squares(cx.s, &f).is_empty())
    {
        fall_from(cx, t, f.down, true)?;
        return Ok(());
    }
    cx.push(Frame::Forced(f));
    Ok(())
}

/// One square up or down (DS-GAP-10). Driven down into the ground, the target is slammed
/// into an object (DS-SLAM-4) and also takes falling damage for the squares it was moved
/// downward, Agility not counting (DS-SLAM-5, DS-FALL-4). Left in the air without flight, it
/// falls (DS-FALL-4).
fn vertical(cx: &mut Ctx, mut f: ForcedFrame, up: bool) -> Result<(), RuleError> {
    let t = f.target;
    let p = cx.s.c(t).pos.unwrap();
    let (z, ground) = (cx.s.c(t).z, cx.s.arena.ground(p));
    if !up && z <= ground {
        let n = f.remaining;
        cx.emit(Event::Note { text: format!("{} is driven into the ground", cx.s.c(t).id) });
        crate::damage::deal(cx, t, 2 + n, Some(f.mover), "slammed into the ground");
        if cx.s.c(t).active() && f.down > 0 {
            land(cx, t, f.down, false, None)?;
        }
        return Ok(());
    }
    let nz = if up { z + 1 } else { z - 1 };
    let how = format!("is {} {}", f.kind.past(), if up { "up" } else { "down" });
    cx.emit(Event::moved(cx.s, t, p, p, nz, how));
    f.rise = if up { 1 } else { -1 };
    f.down += i32::from(!up);
    f.remaining -= 1;
    pulled_apart(cx, t);
    let done = f.remaining <= 0 || (next_squares(cx.s, &f).is_empty() && vertical_steps(&f).is_empty());
    if done {
        if cx.s.c(t).pos.is_some() && !cx.s.c(t).flying && nz > ground {
            fall_from(cx, t, f.down, true)?;
        }
        return Ok(());
    }
    cx.push(Frame::Forced(f));
    Ok(())
}

/// The ability's forced movement is over: the bodies of the Director creatures it killed leave
/// the map (DS-SLAM-3, DS-HP-NPC); a dead hero's body stays, as always.
pub fn remove_bodies(cx: &mut Ctx, cs: &[Cx]) -> Flow {
    for &c in cs {
        let x = cx.s.c(c);
        if x.dead && !x.hero && x.pos.is_some() {
            cx.emit(Event::BodyRemoved { creature: cx.s.who(c) });
        }
    }
    Flow::Continue
}

/// A grab ends once forced movement leaves the two creatures apart: a grabber moved away from
/// the creature it holds (DS-COND-GRAB-3), or a grabbed creature moved away from its grabber —
/// which only its grabber can do, under the published text (DS-DELTA-7).
fn pulled_apart(cx: &mut Ctx, t: Cx) {
    for v in cx.s.active().filter(|&v| cx.s.source_of(v, ConditionKind::Grabbed) == Some(t)).collect::<Vec<_>>() {
        if cx.s.distance(v, t).is_some_and(|d| d > 1) {
            crate::conditions::release(cx, v, "its grabber was moved away");
        }
    }
    if let Some(g) = cx.s.source_of(t, ConditionKind::Grabbed)
        && cx.s.distance(t, g).is_none_or(|d| d > 1)
    {
        crate::conditions::release(cx, t, "moved out of its grabber's reach");
    }
}

fn nearest_free(s: &crate::state::State, c: Cx, near: Pos) -> Option<Pos> {
    let size = s.c(c).size.squares;
    s.arena
        .terrain
        .squares()
        .filter(|&q| s.terrain_at(q).standable() && s.at(q).is_none() && q != near)
        .min_by_key(|&q| (distance(q, size, near, 1), q.y, q.x))
}

/// Where the next wall square may go: a free square (no creature, not solid), the first within
/// `within` of the builder, the others sharing a side with a square already placed.
pub fn wall_options(s: &crate::state::State, c: Cx, within: i32, placed: &[Pos]) -> Vec<DecisionOption> {
    let Some(squares) = wall_squares(s, c, within, placed) else {
        return vec![DecisionOption::new("stop", "stop")];
    };
    let mut o: Vec<DecisionOption> =
        squares.into_iter().map(|q| DecisionOption::square(q, format!("wall at {q}"))).collect();
    o.push(DecisionOption::new("stop", "stop building"));
    o
}

/// The squares [`wall_options`] offers before its `stop`, in its order; `None` where it offers
/// only `stop` (its builder is off the map).
pub fn wall_squares(s: &crate::state::State, c: Cx, within: i32, placed: &[Pos]) -> Option<Vec<Pos>> {
    let me = s.c(c);
    let p = me.pos?;
    Some(
        s.arena
            .terrain
            .squares()
            .filter(|&q| s.terrain_at(q).standable() && s.at(q).is_none() && !placed.contains(&q))
            .filter(|&q| {
                if placed.is_empty() {
                    distance(p, me.size.squares, q, 1) <= within
                } else {
                    placed.iter().any(|w| (w.x - q.x).abs() + (w.y - q.y).abs() == 1)
                }
            })
            .collect(),
    )
}

/// Places one wall square.
pub fn answer_wall(
    cx: &mut Ctx,
    c: Cx,
    left: i32,
    within: i32,
    mut placed: Vec<Pos>,
    option: &str,
) -> Result<(), RuleError> {
    if option == "stop" {
        return Ok(());
    }
    let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
    cx.emit(Event::WallRaised { by: cx.s.who(c), at: q });
    placed.push(q);
    if left > 1 {
        cx.push(Frame::Wall { c, left: left - 1, within, placed });
    }
    Ok(())
}

/// Squares a creature may be teleported to.
pub fn teleport_options(s: &crate::state::State, t: Cx, range: i32) -> Vec<DecisionOption> {
    let Some(squares) = teleport_squares(s, t, range) else { return vec![DecisionOption::new("stay", "stay")] };
    let mut o: Vec<DecisionOption> =
        squares.into_iter().map(|q| DecisionOption::square(q, format!("teleport to {q}"))).collect();
    o.push(DecisionOption::new("stay", "leave it where it is"));
    o
}

/// The squares [`teleport_options`] offers before its `stay`, in its order; `None` where it
/// offers only `stay` (the creature is off the map).
pub fn teleport_squares(s: &crate::state::State, t: Cx, range: i32) -> Option<Vec<Pos>> {
    let x = s.c(t);
    let p = x.pos?;
    Some(
        s.arena
            .terrain
            .squares()
            .filter(|&q| q != p && distance(q, x.size.squares, p, x.size.squares) <= range)
            .filter(|&q| {
                fray_core::grid::footprint(q, x.size.squares)
                    .all(|sq| s.terrain_at(sq).standable() && s.at(sq).is_none_or(|o| o == t))
            })
            .collect(),
    )
}

/// Teleports a creature: no opportunity attacks; it slips any grab and stops being restrained
/// (DS-COND-GRAB-3, DS-COND-RESTR-2).
pub fn answer_teleport(cx: &mut Ctx, t: Cx, option: &str) -> Result<(), RuleError> {
    if option == "stay" {
        return Ok(());
    }
    let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
    let from = cx.s.c(t).pos.unwrap();
    cx.emit(Event::moved(cx.s, t, from, q, cx.s.arena.ground(q), "teleports"));
    for cond in
        cx.s.c(t)
            .conditions
            .clone()
            .into_iter()
            .filter(|x| matches!(x.kind, ConditionKind::Grabbed | ConditionKind::Restrained))
    {
        cx.emit(Event::ConditionEnded { creature: cx.s.who(t), condition: cond, why: "teleported".into() });
    }
    for v in cx.s.active().filter(|&v| cx.s.source_of(v, ConditionKind::Grabbed) == Some(t)).collect::<Vec<_>>() {
        if cx.s.distance(v, t).is_some_and(|d| d > 1) {
            crate::conditions::release(cx, v, "its grabber teleported away");
        }
    }
    crate::damage::entered(cx, t, q);
    Ok(())
}

/// The squares a footprint moving from `p` to `q` newly covers.
fn new_squares(size: i32, p: Pos, q: Pos) -> Vec<Pos> {
    fray_core::grid::footprint(q, size).filter(|&sq| distance(p, size, sq, 1) > 0).collect()
}

/// The creature a move from `p` to `q` would run into: one in a newly covered square at an
/// overlapping height (DS-SLAM-1; a creature passing high over another does not hit it).
pub fn collides_with(s: &crate::state::State, t: Cx, p: Pos, q: Pos) -> Option<Cx> {
    collisions(s, t, p, q).into_iter().next()
}

/// Every creature a move from `p` to `q` runs into, each once (DS-SLAM-2).
pub fn collisions(s: &crate::state::State, t: Cx, p: Pos, q: Pos) -> Vec<Cx> {
    let x = s.c(t);
    let size = x.size.squares;
    let squares = new_squares(size, p, q);
    s.active()
        .filter(|&o| {
            let y = s.c(o);
            o != t
                && squares.iter().any(|&sq| distance(y.pos.unwrap(), y.size.squares, sq, 1) == 0)
                && y.z < x.z + size
                && x.z < y.z + y.size.squares
        })
        .collect()
}

/// The standing objects a move from `p` to `q` runs into (DS-SIZE-3).
pub fn objects_in_way(s: &crate::state::State, t: Cx, p: Pos, q: Pos) -> Vec<usize> {
    let mut v: Vec<usize> =
        new_squares(s.c(t).size.squares, p, q).into_iter().filter_map(|sq| s.object_at(sq)).collect();
    v.dedup();
    v
}

/// Whether a move from `p` to `q` runs into something solid: a wall or ground higher than the
/// creature stands (DS-SLAM-4).
pub fn hits_object(s: &crate::state::State, t: Cx, p: Pos, q: Pos) -> bool {
    let x = s.c(t);
    new_squares(x.size.squares, p, q)
        .into_iter()
        .any(|sq| s.terrain_at(sq) == Terrain::Wall || s.arena.ground(sq) > x.z)
}

/// A fall to the ground below (DS-FALL-1..3, DS-FALL-5): 2 damage a square for falls of 2 or
/// more (Agility and deep liquid reduce the height), at most 50, and after a fall of 2 or more
/// the creature lands prone.
pub fn fall(cx: &mut Ctx, c: Cx) -> Result<(), RuleError> {
    fall_from(cx, c, 0, true)
}

/// A fall that began `already` squares higher (forced downward, DS-FALL-4). From a great
/// height (more than 100 squares) it falls 100 squares now and goes on falling at the end of
/// each later round (DS-FALL-7).
pub fn fall_from(cx: &mut Ctx, c: Cx, already: i32, agility: bool) -> Result<(), RuleError> {
    let x = cx.s.c(c);
    let Some(p) = x.pos else { return Ok(()) };
    let ground = cx.s.arena.ground(p);
    let height = x.z - ground;
    if height <= 0 {
        return Ok(());
    }
    let start = x.falling.map_or(x.z + already, |f| f.0);
    if height > GREAT_FALL {
        let z = x.z - GREAT_FALL;
        let since = x.falling.map_or(cx.s.round, |f| f.1);
        cx.emit(Event::Falling { creature: cx.s.who(c), from: Some((start, since)) });
        cx.emit(Event::moved(cx.s, c, p, p, z, format!("falls {GREAT_FALL} squares")));
        return Ok(());
    }
    cx.emit(Event::Fell { creature: cx.s.who(c), squares: height });
    let total = start - ground;
    if cx.s.c(c).falling.is_some() {
        cx.emit(Event::Falling { creature: cx.s.who(c), from: None });
    }
    let below = cx.s.active().find(|&o| {
        o != c && cx.s.c(o).pos.is_some_and(|op| distance(op, cx.s.c(o).size.squares, p, cx.s.c(c).size.squares) == 0)
    });
    let landing = match below {
        // DS-FALL-6: landing on a creature: the nearest free square of the faller's choice
        // (Fray: the nearest in reading order).
        Some(_) => nearest_free(cx.s, c, p).unwrap_or(p),
        None => p,
    };
    cx.emit(Event::moved(cx.s, c, p, landing, cx.s.arena.ground(landing), "falls"));
    land(cx, c, total, agility, below)
}

/// The squares a fall from a great height covers each round (DS-FALL-7).
pub const GREAT_FALL: i32 = 100;

/// The landing after a fall of `height` squares: damage, prone, and whoever was landed on.
fn land(cx: &mut Ctx, c: Cx, height: i32, agility: bool, below: Option<Cx>) -> Result<(), RuleError> {
    let p = cx.s.c(c).pos.unwrap();
    let mut effective = height;
    if agility {
        effective -= cx.s.c(c).char(crate::model::Characteristic::Agility).max(0);
    }
    if cx.s.terrain_at(p) == Terrain::Water {
        effective -= 4;
    }
    if effective >= 2 {
        let dmg = (2 * effective).min(50);
        crate::damage::deal(cx, c, dmg, None, "falling");
        if let Some(o) = below {
            crate::damage::deal(cx, o, dmg, Some(c), "landed on");
            let faller_size = cx.s.c(c).size.value();
            if cx.s.c(o).active() && faller_size > cx.s.c(o).char(crate::model::Characteristic::Might) {
                crate::conditions::give_condition(cx, o, ConditionKind::Prone, None, crate::state::Until::Encounter);
            }
        }
    }
    if height >= 2 && cx.s.c(c).active() && !cx.s.has(c, ConditionKind::Prone) {
        crate::conditions::give_condition(cx, c, ConditionKind::Prone, None, crate::state::Until::Encounter);
    }
    Ok(())
}
