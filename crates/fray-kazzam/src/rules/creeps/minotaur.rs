//! The Minotaur (L2591-2609): Heedless Rush (its Charges grant no Opportunities, read in
//! `rules::opportunity`; any of its attacks ends a Charge), Wild Card (the farthest enemy it can
//! Charge first; it always Charges when it can, after a move or shift that grants no
//! Opportunity and lines up the longest Charge), Gore, Plow, Rampage and its Miss Trigger (a
//! Charge for 3 damage). Rulings: docs/rulings/kazzam.md, "Creeps".

use super::{CreepDef, Walk, grants, priorities, strike};
use crate::engine::events::{Event, How};
use crate::engine::frames::rules::{CreepFrame, ForcedKind, Mode};
use crate::engine::kit::{Ctx, Frame};
use crate::engine::state::{State, UnitIdx, UnitKind};
use crate::rules::statuses::StatusKind;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// Gore's bonus and the Charge it needs (L2601).
const GORE_BONUS: i32 = 2;
const GORE_RUN: u8 = 3;
/// Plow's longest push (L2602).
const PLOW_MAX: u8 = 5;
/// The Miss Trigger's damage at the end of its Charge (L2609).
const MISS_DAMAGE: i32 = 3;

/// A Charge worked out ahead: the route (empty: already beside the target), the squares it
/// covers and the non-Creeps it passes.
struct Run {
    path: Vec<Pos>,
    passed: Vec<UnitIdx>,
}

/// Whether `u` counts as a non-Creep that Rampage hurts: a creature with HP that is not a Creep.
fn non_creep(s: &State, u: UnitIdx) -> bool {
    matches!(s.unit(u).kind, UnitKind::Athlete | UnitKind::Summon | UnitKind::Automaton)
}

/// The non-Creeps beside any square `path` enters, `t` apart, in the order first passed.
fn passed_by(s: &State, unit: UnitIdx, t: UnitIdx, path: &[Pos]) -> Vec<UnitIdx> {
    let size = s.unit(unit).size;
    let mut out = Vec::new();
    for &q in path {
        for v in s.units_on_map() {
            if v == t || v == unit || out.contains(&v) || !non_creep(s, v) {
                continue;
            }
            let vu = s.unit(v);
            if distance(q, size, vu.pos.unwrap(), vu.size) == 1 {
                out.push(v);
            }
        }
    }
    out
}

/// The best Charge at `t` from where `unit` stands in `s`: every route whose each square is one
/// nearer the target (K-MOVE-11) is weighed, most non-Creeps passed first when `rampage`, then
/// the last square nearest the target in a straight line, then its row and column; `None` if no
/// Charge reaches `t`.
fn best_run(s: &State, unit: UnitIdx, t: UnitIdx, rampage: bool) -> Option<Run> {
    let here = s.unit(unit).pos?;
    let (size, tp, ts) = (s.unit(unit).size, s.unit(t).pos?, s.unit(t).size);
    if s.has(unit, StatusKind::Immobilized) || s.has(unit, StatusKind::Grabbed) || s.has(unit, StatusKind::Restrained) {
        return None;
    }
    let d = distance(here, size, tp, ts);
    if d == 1 {
        return Some(Run { path: Vec::new(), passed: Vec::new() });
    }
    let speed = crate::rules::movement::speed(s, unit, Mode::Walk);
    if d < 1 || d - 1 > speed {
        return None;
    }
    // Every route of squares each one nearer (at most three choices a step).
    let mut routes: Vec<Vec<Pos>> = vec![Vec::new()];
    for _ in 0..d - 1 {
        let mut next = Vec::new();
        for r in routes {
            let at = r.last().copied().unwrap_or(here);
            let now = distance(at, size, tp, ts);
            for q in at.neighbours() {
                if !s.arena.terrain.contains(q) || distance(q, size, tp, ts) != now - 1 {
                    continue;
                }
                if crate::rules::movement::step_cost(s, unit, at, q) != Some(1) {
                    continue;
                }
                let mut r2 = r.clone();
                r2.push(q);
                next.push(r2);
            }
        }
        routes = next;
    }
    let mut weighed: Vec<((usize, i32, i32, i32), Run)> = routes
        .into_iter()
        .map(|path| {
            let passed = if rampage { passed_by(s, unit, t, &path) } else { Vec::new() };
            let last = *path.last().unwrap();
            let line = (last.x - tp.x).pow(2) + (last.y - tp.y).pow(2);
            ((usize::MAX - passed.len(), line, last.y, last.x), Run { path, passed })
        })
        .collect();
    weighed.sort_by_key(|a| a.0);
    weighed
        .into_iter()
        .map(|w| w.1)
        .find(|r| crate::rules::movement::check_path(s, unit, &r.path, Mode::Charge(t)).is_ok())
}

/// `s` with `unit` standing at `p` (a square it could move to), to weigh a Charge from there.
fn standing_at(s: &State, unit: UnitIdx, p: Pos) -> State {
    let mut h = s.clone();
    h.flow.clear();
    let e = Event::Moved { unit: s.who(unit), from: s.unit(unit).pos.unwrap(), to: p, how: How::Dragged };
    crate::engine::events::apply(&mut h, &e);
    h
}

/// Wild Card's order (L2597): whoever holds the orb, then the farthest first.
fn wild_order(s: &State, unit: UnitIdx, first: Option<UnitIdx>) -> Vec<UnitIdx> {
    let list = priorities(s, unit, first);
    let Some(&head) = list.first() else { return list };
    let named = first.is_some_and(|f| f == head);
    let holder = super::orb_square(s, super::group_of(s, unit).unwrap_or(0)).and_then(|o| o.1).filter(|&h| h == head);
    let keep = usize::from(named || holder.is_some());
    let (lead, rest) = list.split_at(keep);
    let mut rest = rest.to_vec();
    rest.sort_by_key(|&t| std::cmp::Reverse(s.distance(unit, t)));
    lead.iter().copied().chain(rest).collect()
}

/// A square to Charge from: its cost to reach, the route there (empty: it stays) and how.
struct Start {
    cost: u32,
    at: Pos,
    path: Vec<Pos>,
    how: How,
}

/// The Minotaur's turn (Wild Card): for the first enemy in [`wild_order`] it can Charge, the
/// move or shift granting no Opportunity (none, if it need not move) after which the Charge is
/// the longest (Rampage: passes the most non-Creeps first), the least movement among equals;
/// then the Charge. False if it can Charge nobody: the Melee AI plays it as usual.
pub fn act(cx: &mut Ctx, unit: UnitIdx, def: &CreepDef, ai: usize, face: i32, first: Option<UnitIdx>) -> bool {
    let s = &*cx.s;
    let Some(here) = s.unit(unit).pos else { return false };
    let rampage = def.action[ai].hook.as_deref() == Some("rampage");
    let dazed = s.has(unit, StatusKind::Dazed);
    let free = !(s.has(unit, StatusKind::Immobilized)
        || s.has(unit, StatusKind::Grabbed)
        || s.has(unit, StatusKind::Restrained));
    // Where it may stand before the Charge: staying, a walk granting nobody an Opportunity, or a
    // one-square shift granting none (a Dazed Minotaur only Charges).
    let mut starts = vec![Start { cost: 0, at: here, path: Vec::new(), how: How::Walk }];
    if free && !dazed {
        let walk = Walk::of(s, unit);
        for &(c, p) in walk.squares.iter().filter(|&&(_, p)| p != here) {
            let Some(path) = walk.path(here, p) else { continue };
            if !grants(s, unit, &path, &[]).1 {
                starts.push(Start { cost: c, at: p, path, how: How::Walk });
            } else if distance(here, 1, p, 1) == 1
                && crate::rules::opportunity::for_leaving(s, unit, here, p, How::Shift, &[]).is_empty()
            {
                starts.push(Start { cost: 1, at: p, path: vec![p], how: How::Shift });
            }
        }
    }
    let speed = crate::rules::movement::speed(s, unit, Mode::Walk);
    let size = s.unit(unit).size;
    for t in wild_order(s, unit, first) {
        let (tp, ts) = (s.unit(t).pos.unwrap(), s.unit(t).size);
        // The Charge's length from each start is its distance less one: longest first.
        let mut order: Vec<&Start> = starts
            .iter()
            .filter(|st| {
                // A move that only brings it beside the target is no Charge: the Melee AI's.
                let d = distance(st.at, size, tp, ts);
                d <= speed + 1 && (d >= 2 || d == 1 && st.at == here)
            })
            .collect();
        order.sort_by_key(|st| (std::cmp::Reverse(distance(st.at, size, tp, ts)), st.cost, st.at.y, st.at.x));
        let mut best: Option<((usize, i32, u32), &Start)> = None;
        for st in order {
            let run_len = distance(st.at, size, tp, ts) - 1;
            if !rampage && best.is_some() {
                break; // the longest Charge with the least movement is found
            }
            let h;
            let view = if st.at == here {
                s
            } else {
                h = standing_at(s, unit, st.at);
                &h
            };
            if let Some(r) = best_run(view, unit, t, rampage) {
                let key = (usize::MAX - r.passed.len(), -run_len, st.cost);
                if best.as_ref().is_none_or(|b| key < b.0) {
                    best = Some((key, st));
                }
            }
        }
        if let Some((_, st)) = best {
            let (path, how) = (st.path.clone(), st.how);
            cx.push(Frame::Creeps(CreepFrame::Charge { unit, face, target: t }));
            if !path.is_empty() {
                let verb = if how == How::Shift { "shifts" } else { "moves" };
                cx.emit(Event::Note {
                    text: format!(
                        "{} {verb} to line up its Charge at {} (Wild Card)",
                        cx.s.unit(unit).id,
                        cx.s.unit(t).id
                    ),
                });
                cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(unit, path, how)));
            }
            return true;
        }
    }
    false
}

/// The Charge itself, from where the Minotaur now stands (after its move, or as its Miss
/// Trigger with `face` 0): the run of [`best_run`], then its action at the end. False if it
/// cannot Charge `t`.
pub fn charge(cx: &mut Ctx, unit: UnitIdx, def: &CreepDef, face: i32, t: UnitIdx) -> bool {
    let rampage = face > 0 && def.action_for(face).is_some_and(|ai| def.action[ai].hook.as_deref() == Some("rampage"));
    let Some(run) = best_run(cx.s, unit, t, rampage) else { return false };
    cx.emit(Event::Note {
        text: format!("{} charges {} ({} squares)", cx.s.unit(unit).id, cx.s.unit(t).id, run.path.len()),
    });
    let steps = run.path.len().min(u8::MAX as usize) as u8;
    cx.push(Frame::Creeps(CreepFrame::Charged { unit, face, target: t, run: steps, passed: run.passed }));
    if !run.path.is_empty() {
        cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(unit, run.path, How::Charge)));
    }
    true
}

/// The Miss Trigger (L2607-2609): it Charges the attacker if it can, for 3 damage.
pub fn miss_charge(cx: &mut Ctx, unit: UnitIdx, attacker: UnitIdx) {
    let content = cx.s.content.clone();
    let Some(def) = cx.s.creep_def(unit).map(|d| d.id.clone()) else { return };
    let Some(def) = content.creeps().iter().find(|d| d.id == def) else { return };
    if !charge(cx, unit, def, 0, attacker) {
        cx.emit(Event::Note { text: format!("{} cannot Charge {}", cx.s.unit(unit).id, cx.s.unit(attacker).id) });
    }
}

/// The end of a Charge of `run` squares (Heedless Rush: any of its attacks): Gore, Plow or
/// Rampage for its rolled `face`, or the Miss Trigger's 3 damage (face 0).
pub fn charged(
    cx: &mut Ctx,
    unit: UnitIdx,
    face: i32,
    t: UnitIdx,
    run: u8,
    passed: Vec<UnitIdx>,
) -> Result<(), RuleError> {
    let content = cx.s.content.clone();
    let Some(d) = super::def_of(cx.s, unit) else { return Ok(()) };
    let def = &content.creeps()[d as usize];
    if !cx.s.unit(unit).on_map() || !cx.s.unit(t).on_map() || cx.s.distance(unit, t) != Some(1) {
        return Ok(()); // the Charge was cut short: no attack
    }
    if face == 0 {
        let why = format!("{}'s Miss Trigger", cx.s.unit(unit).id);
        crate::rules::damage::deal(cx, t, MISS_DAMAGE, Some(unit), &why, None);
        return Ok(());
    }
    let face = if cx.s.has(unit, StatusKind::Disarmed) { 1 } else { face };
    let Some(ai) = def.action_for(face) else { return Ok(()) };
    match def.action[ai].hook.as_deref() {
        Some("gore") if run >= GORE_RUN => {
            // Gore: 2 more after a Charge of 3 squares or more.
            cx.emit(Event::Note { text: format!("Gore after a Charge of {run} squares: +{GORE_BONUS}") });
            let mut more = def.clone();
            more.action[ai].damage = Some(more.action[ai].damage.unwrap_or(0) + GORE_BONUS);
            strike(cx, unit, &more, ai, t)
        }
        Some("plow") => {
            strike(cx, unit, def, ai, t)?;
            plow(cx, unit, t, run);
            Ok(())
        }
        Some("rampage") => {
            strike(cx, unit, def, ai, t)?;
            for v in passed {
                if cx.s.unit(v).on_map() && cx.s.unit(unit).on_map() {
                    cx.emit(Event::Note {
                        text: format!("{} was charged past: Rampage reaches it too", cx.s.unit(v).id),
                    });
                    strike(cx, unit, def, ai, v)?;
                }
            }
            Ok(())
        }
        _ => strike(cx, unit, def, ai, t),
    }
}

/// Plow (L2602), on the hit: the target drops what it carries but its implement — orbs where
/// it stands, Elixir flasks lost (as Trick Shot's, rulings).
pub fn drop_carried(cx: &mut Ctx, t: UnitIdx) {
    if !cx.s.unit(t).on_map() {
        return;
    }
    let at = cx.s.unit(t).pos.unwrap();
    let held: Vec<_> = cx.s.held_orbs(t).collect();
    for o in held {
        crate::rules::orbs::drop(cx, t, o, at);
    }
    for i in (0..cx.s.unit(t).brewer.elixirs.len()).rev() {
        let name = cx.s.powers.get(cx.s.unit(t).brewer.elixirs[i].power).name.clone();
        cx.emit(Event::ElixirLost { unit: cx.s.who(t), index: i, name, why: "knocked loose (Plow)".into() });
    }
}

/// Plow (L2602) after a Charge of `run` squares: the target is pushed that many squares (5 at
/// most) and knocked Prone if the Charge was longer.
fn plow(cx: &mut Ctx, unit: UnitIdx, t: UnitIdx, run: u8) {
    if !cx.s.unit(t).on_map() {
        return;
    }
    if run > PLOW_MAX {
        let prone =
            crate::rules::statuses::Status::simple(StatusKind::Prone, crate::rules::statuses::Duration::Indefinite);
        crate::rules::statuses::give::give_status(cx, t, prone, "Plow");
    }
    let n = run.min(PLOW_MAX) as i32;
    if n > 0 {
        let f = crate::rules::forced::ForcedFrame::new(cx.s, unit, t, ForcedKind::Push, n);
        cx.push(Frame::Forced(f));
    }
}
