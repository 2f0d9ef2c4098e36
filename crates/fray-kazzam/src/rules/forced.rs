//! Forced movement (K-FM): push, pull, slide, throw and teleport, square by square where the
//! rules care about each square, with roll-to-safety (K-ZONE-6, K-FM-7) and the Grab rules
//! (K-ST-Grabbed, K-FM-8). The creature doing the moving picks the squares and may stop early
//! (K-FM-2); the creature being moved decides whether to roll to safety.

use crate::engine::events::{Event, How};
pub use crate::engine::frames::rules::ForcedFrame;
pub use crate::engine::frames::rules::ForcedKind;
use crate::engine::kit::{Ctx, Flow, Frame};
use crate::engine::state::{State, UnitIdx};
use crate::rules::movement::can_stand;
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

impl ForcedKind {
    /// The kit's square-by-square kind, for the three that move a square at a time (a throw
    /// and a teleport pick their landing square).
    pub fn stepwise(self) -> Option<fray_core::engine::Forced> {
        use fray_core::engine::Forced;
        match self {
            ForcedKind::Push => Some(Forced::Push),
            ForcedKind::Pull => Some(Forced::Pull),
            ForcedKind::Slide => Some(Forced::Slide),
            ForcedKind::Throw | ForcedKind::Teleport => None,
        }
    }
    fn how(self) -> How {
        match self {
            ForcedKind::Push => How::Push,
            ForcedKind::Pull => How::Pull,
            ForcedKind::Slide => How::Slide,
            ForcedKind::Throw => How::Throw,
            ForcedKind::Teleport => How::Teleport,
        }
    }
    fn name(self) -> &'static str {
        match self {
            ForcedKind::Push => "push",
            ForcedKind::Pull => "pull",
            ForcedKind::Slide => "slide",
            ForcedKind::Throw => "throw",
            ForcedKind::Teleport => "teleport",
        }
    }
}

impl ForcedFrame {
    /// Forced movement of `target` by `mover`, `n` squares.
    pub fn new(s: &State, mover: UnitIdx, target: UnitIdx, kind: ForcedKind, n: i32) -> Self {
        let origin = s.unit(mover).pos.unwrap_or(Pos::new(0, 0));
        let start = s.unit(target).pos.unwrap_or(origin);
        // K-FM-9: Heavyweight takes squares off; Immovable takes them all.
        let n = match s.creep_def(target) {
            Some(d) if d.immovable => 0,
            _ if crate::rules::shades::is_shade(s, target) => 0, // untouched by effects
            Some(d) => (n - d.forced_reduction).max(0),
            None => n,
        };
        ForcedFrame {
            mover,
            target,
            kind,
            remaining: n,
            origin,
            start,
            safety: None,
            ring: false,
            bump: false,
            must_move: false,
        }
    }
}

/// The next squares a forced movement may use (K-FM-3, K-FM-4).
pub fn next_squares(s: &State, f: &ForcedFrame) -> Vec<Pos> {
    let t = s.unit(f.target);
    let Some(p) = t.pos else { return Vec::new() };
    if f.remaining <= 0
        // K-ST-Immobilized: only a teleport moves it — except that a Grab's victim may be
        // forced away, with a free escape attempt (K-ST-Grabbed).
        || s.has(f.target, StatusKind::Immobilized)
            && f.kind != ForcedKind::Teleport
            && !s.has(f.target, StatusKind::Grabbed)
    {
        return Vec::new();
    }
    let size = t.size;
    let ms = s.unit(f.mover).size;
    let footing = crate::rules::movement::Footing::of(s, f.target);
    let out = match f.kind {
        ForcedKind::Teleport | ForcedKind::Throw => s
            .arena
            .terrain
            .squares()
            .filter(|&q| {
                q != p
                    && distance(q, size, f.start, size) <= f.remaining
                    && footing.can_stand(q, size)
                    && (f.kind == ForcedKind::Teleport
                        || distance(q, size, f.origin, ms) > distance(f.start, size, f.origin, ms))
            })
            .collect(),
        _ => p
            .neighbours()
            .into_iter()
            .filter(|&q| !crate::rules::portals::is_tunnel(s, q)) // through a tunnel: below
            .filter(|&q| {
                // K-FM-1..3: a push steps farther from its origin, a pull nearer, a slide anywhere.
                let direction_ok = f.kind.stepwise().is_none_or(|k| k.step_ok(p, q, size, f.origin, ms));
                // K-TER-3: Difficult Terrain costs 2 squares of forced movement too.
                let cost = footing.step_cost(p, q);
                let room = footing.can_stand(q, size) || crate::rules::portals::vortex_room(s, f, q);
                direction_ok && room && cost.is_some_and(|c| c as i32 <= f.remaining)
            })
            .chain((crate::engine::hooks::warps(s).forced_through)(s, f, size))
            .collect(),
    };
    let out = (crate::engine::hooks::defender_controller(s).forced_squares)(s, f, out); // Pursuer's ring, level-4 Controller's bumps
    let mut out = crate::rules::beasts::eviction(s, f.mover, f.target, f.kind == ForcedKind::Throw, out); // Sudden Eviction
    // A square reached both by a plain step and through a Short Tunnel (or added by a feature
    // that also reaches it) is one option: the first way listed, the plain step, is taken.
    let mut seen = Vec::with_capacity(out.len());
    out.retain(|q| {
        let new = !seen.contains(q);
        seen.push(*q);
        new
    });
    out
}

/// The decision a forced movement waits on.
pub fn question(s: &State, f: &ForcedFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    let (m, t) = (&s.unit(f.mover).id, &s.unit(f.target).id);
    if let Some(q) = f.safety {
        return (
            f.target,
            "roll-to-safety",
            format!("{t} is being forced into danger at {q}: roll to safety?"),
            vec![
                DecisionOption::new("roll", "roll a save: on a success fall Prone at the edge"),
                DecisionOption::new("no", "go in"),
            ],
        );
    }
    let squares = next_squares(s, f);
    // Sudden Eviction (L1793): with a landing square outside the territory, the throw is made.
    let evicting = crate::rules::beasts::evicting(s, f.mover, f.target, f.kind == ForcedKind::Throw, &squares);
    let mut options: Vec<DecisionOption> = squares
        .into_iter()
        .map(|q| match (crate::engine::hooks::defender_controller(s).bumped)(s, f, q) {
            Some(c) => DecisionOption::square(q, format!("run {t} into {}", s.unit(c).id)),
            None => DecisionOption::square(q, format!("{} {t} to {q}", f.kind.name())),
        })
        .collect();
    if !f.must_move && !evicting {
        options.push(DecisionOption::new("stop", "stop here"));
    }
    (f.mover, "square", format!("{m}: {} {t} ({} left)", f.kind.name(), f.remaining), options)
}

/// Forced movement frames wait for the mover's square choices.
pub fn step(cx: &mut Ctx, f: ForcedFrame) -> Result<Flow, RuleError> {
    if !cx.s.unit(f.target).on_map()
        || !crate::rules::query::movable(cx.s.unit(f.target))
        || (f.safety.is_none() && next_squares(cx.s, &f).is_empty())
    {
        return Ok(Flow::Continue);
    }
    // A Creep asks nobody (K-CAI-17, Creep's Best Judgement): it moves its target the whole way,
    // each step to the square farthest from itself (a pull: nearest; then by row, then column).
    if f.safety.is_none() && cx.s.unit(f.mover).kind == crate::engine::state::UnitKind::Creep {
        let (mp, ms, size) =
            (cx.s.unit(f.mover).pos.unwrap_or(f.origin), cx.s.unit(f.mover).size, cx.s.unit(f.target).size);
        let best = next_squares(cx.s, &f).into_iter().max_by_key(|&q| {
            let d = distance(q, size, mp, ms);
            (if f.kind == ForcedKind::Pull { -d } else { d }, -q.y, -q.x)
        });
        if let Some(q) = best {
            answer(cx, f, &format!("{},{}", q.x, q.y))?;
        }
        return Ok(Flow::Continue);
    }
    cx.push(Frame::Forced(f));
    Ok(Flow::Wait)
}

/// Answers a forced-movement decision.
pub fn answer(cx: &mut Ctx, mut f: ForcedFrame, option: &str) -> Result<(), RuleError> {
    if let Some(q) = f.safety.take() {
        let mark = cx.s.flow.len();
        if option == "roll" {
            // K-ZONE-6: success → Prone at the edge; failure → in anyway, and Prone.
            if crate::rules::saves::saving_throw(cx, f.target, "the danger (roll to safety)")? {
                fall_prone(cx, f.target);
                return Ok(());
            }
            move_one(cx, &mut f, q)?;
            fall_prone(cx, f.target);
        } else {
            move_one(cx, &mut f, q)?;
        }
        cx.push(Frame::Forced(f));
        (crate::engine::hooks::warps(cx.s).lift)(cx, mark);
        return Ok(());
    }
    if option == "stop" {
        return Ok(());
    }
    let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y or stop"))?;
    f.must_move = false;
    if let Some(c) = (crate::engine::hooks::defender_controller(cx.s).bumped)(cx.s, &f, q) {
        (crate::engine::hooks::defender_controller(cx.s).bump)(cx, f, c); // a level-4 Controller's slide runs into a character
        return Ok(());
    }
    let rolls_to_safety = matches!(f.kind, ForcedKind::Push | ForcedKind::Pull | ForcedKind::Slide);
    if rolls_to_safety
        && crate::rules::zones::dangerous(cx.s, f.target, q)
        && !crate::rules::zones::dangerous(cx.s, f.target, cx.s.unit(f.target).pos.unwrap())
    {
        f.safety = Some(q);
        cx.push(Frame::Forced(f));
        return Ok(());
    }
    let mark = cx.s.flow.len();
    let at = cx.s.unit(f.target).pos.unwrap();
    if distance(at, 1, q, 1) > 1 {
        f.origin = crate::rules::portals::forced_origin(cx.s, &f, at, q); // through a Short Tunnel
    }
    move_one(cx, &mut f, q)?;
    cx.push(Frame::Forced(f));
    (crate::engine::hooks::warps(cx.s).lift)(cx, mark); // a warp or trap entered on the way is answered first
    Ok(())
}

fn fall_prone(cx: &mut Ctx, u: UnitIdx) {
    if cx.s.unit(u).on_map() && !cx.s.unit(u).statuses.iter().any(|s| s.kind == StatusKind::Prone) {
        crate::rules::statuses::give::give_status(
            cx,
            u,
            Status::simple(StatusKind::Prone, Duration::Indefinite),
            "fell",
        );
    }
}

/// Moves the target one step (or, for throws and teleports, all the way), with the Grab rules.
fn move_one(cx: &mut Ctx, f: &mut ForcedFrame, q: Pos) -> Result<(), RuleError> {
    let t = f.target;
    let Some(p) = cx.s.unit(t).pos else {
        return Ok(());
    };
    let size = cx.s.unit(t).size;
    // K-ST-Grabbed: moved out of the grabber's reach → a free escape attempt; failing it stops
    // the movement. Teleports escape outright (K-FM-5).
    let grabbers: Vec<(UnitIdx, Status)> =
        cx.s.unit(t)
            .statuses
            .iter()
            .filter(|s| s.kind == StatusKind::Grabbed)
            .filter(|st| !crate::rules::query::is_tether(cx.s, st)) // a Tether holds at any distance
            // Lightweight: a squid's victim hauls it along instead (rules/creeps/squid.rs).
            .filter(|st| f.kind == ForcedKind::Teleport || !crate::rules::query::lightweight(cx.s, st))
            .filter_map(|s| s.source.map(|g| (g, *s)))
            .collect();
    for (g, st) in grabbers {
        if f.kind == ForcedKind::Teleport {
            cx.emit(Event::StatusEnded { unit: cx.s.who(t), status: st, why: "teleported out of the Grab".into() });
            continue;
        }
        let gu = cx.s.unit(g);
        let Some(gp) = gu.pos else { continue };
        if distance(q, size, gp, gu.size) > crate::rules::portals::grab_reach(cx.s, g, t) {
            if crate::rules::saves::saving_throw(cx, t, "the Grab (free escape attempt)")? {
                cx.emit(Event::StatusEnded { unit: cx.s.who(t), status: st, why: "escaped".into() });
            } else {
                (crate::engine::hooks::features(cx.s).escape_failed)(cx, t, StatusKind::Grabbed); // Sword Hold
                cx.emit(Event::Note { text: format!("{} is held fast: the {} fails", cx.s.unit(t).id, f.kind.name()) });
                f.remaining = 0;
                return Ok(());
            }
        }
    }
    let cost = crate::rules::movement::step_cost(cx.s, t, p, q).unwrap_or(1) as i32;
    cx.emit(Event::Moved { unit: cx.s.who(t), from: p, to: q, how: f.kind.how() });
    if f.kind == ForcedKind::Teleport {
        (crate::engine::hooks::features(cx.s).teleported)(cx, f.mover, t); // Teleportation Specialist
    }
    f.remaining = if matches!(f.kind, ForcedKind::Teleport | ForcedKind::Throw) { 0 } else { f.remaining - cost };
    // A grabber moved away from its victim: the victim may escape, or is dragged along.
    for v in crate::rules::movement::grabbed_by(cx.s, t).collect::<Vec<_>>() {
        let (vp, vsize) = (cx.s.unit(v).pos.unwrap(), cx.s.unit(v).size);
        if crate::rules::portals::lift_grab(cx.s, v, t) {
            continue; // Involuntary Lift: held at a distance, never dragged (below)
        }
        if distance(vp, vsize, q, size) > cx.s.reach(t) {
            let st = cx.s.status_from(v, StatusKind::Grabbed, t).unwrap();
            if f.kind != ForcedKind::Teleport
                && !crate::rules::saves::saving_throw(cx, v, "the Grab (free escape attempt)")?
            {
                // A failed save can cost the victim its last HP (Summon Scalehound): one Taken Out
                // meanwhile is not dragged back onto the map, nor one the Grab no longer holds.
                let held = cx.s.unit(v).on_map() && cx.s.status_from(v, StatusKind::Grabbed, t).is_some();
                if held && cx.s.unit(t).on_map() && can_stand(cx.s, v, p, vsize) {
                    cx.emit(Event::Moved { unit: cx.s.who(v), from: vp, to: p, how: How::Dragged });
                }
            } else {
                cx.emit(Event::StatusEnded { unit: cx.s.who(v), status: st, why: "slipped the Grab".into() });
            }
        }
    }
    crate::rules::zones::entered(cx, t, p, q, Some(f.mover))?;
    Ok(())
}

/// Squares `unit` may teleport to: within `range`, where it can stand.
pub fn teleport_options(s: &State, mover: UnitIdx, unit: UnitIdx, range: i32) -> Vec<DecisionOption> {
    let u = s.unit(unit);
    let Some(p) = u.pos else {
        return vec![DecisionOption::new("stay", "stay")];
    };
    let footing = crate::rules::movement::Footing::of(s, unit); // gathered once for every square
    let mut out: Vec<DecisionOption> = s
        .arena
        .terrain
        .squares()
        .filter(|&q| q != p && distance(q, u.size, p, u.size) <= range && footing.can_stand(q, u.size))
        .filter(|&q| mover != unit || !crate::rules::query::barred(s, unit, q)) // Irena's Cloak
        .map(|q| DecisionOption::square(q, crate::engine::kit::label(|| format!("teleport to {q}"))))
        .collect();
    out.push(DecisionOption::new("stay", "stay put"));
    out
}

/// A unit teleports itself (K-FM-5: escapes Grabs, no Opportunities, no roll to safety).
pub fn answer_teleport_self(cx: &mut Ctx, unit: UnitIdx, option: &str) -> Result<(), RuleError> {
    if option == "stay" {
        return Ok(());
    }
    let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
    let mut f = ForcedFrame::new(cx.s, unit, unit, ForcedKind::Teleport, 0);
    f.remaining = 1;
    move_one(cx, &mut f, q)
}

/// `mover` teleports `unit` to `q` (K-FM-5), the square already chosen (warps.rs).
pub fn teleport_to(cx: &mut Ctx, mover: UnitIdx, unit: UnitIdx, q: Pos) -> Result<(), RuleError> {
    if mover != unit && cx.s.creep_def(unit).is_some_and(|d| d.immovable) {
        return Ok(()); // K-FM-9: Immovable
    }
    let mut f = ForcedFrame::new(cx.s, mover, unit, ForcedKind::Teleport, 1);
    move_one(cx, &mut f, q)
}
