//! Removal from Existence (Porter, L1032-1036; rulings "Removal from Existence"): a creature
//! taken off the map yet still in play. While removed it has no square (`pos` is `None`, so
//! nothing finds it on the map: it blocks nobody, is in no burst, zone or aura, grants and takes
//! no Opportunities) and keeps the square it will come back to in a [`Removed`] record in
//! `State::removal`, changed only by `Event::Existence`. On each of its turns its one deed is a
//! move of up to twice its speed to any square it could stand on, whatever lies between; as its
//! remover's next turn ends it comes back there, or to the nearest free square.

pub use crate::content::hooks::{REMOVAL_EFFECT as EFFECT_HOOKS, REMOVAL_POWER as POWER_HOOKS};
use crate::content::powers::PowerDef;
use crate::engine::events::Event;
use crate::engine::kit::Ctx;
pub use crate::engine::records::removal::Change;
pub use crate::engine::records::removal::Removal;
pub use crate::engine::records::removal::Removed;
use crate::engine::state::{State, UnitIdx, UnitKind};
use crate::rules::movement::Mode;
pub use crate::rules::query::is_removed;
use crate::rules::statuses::StatusKind;
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::{Pos, footprint};
use fray_core::ruleset::RuleError;

/// The rule id refusals cite.
const RULE: &str = "removal-from-existence";
/// The attack power whose Encounter use the Free Action spends.
const POWER: &str = "removal-from-existence";

fn emit(cx: &mut Ctx, change: Change, text: String) {
    cx.emit(Event::Existence { change, text });
}

fn record(s: &State, u: UnitIdx) -> Option<&Removed> {
    s.removal.removed.iter().find(|r| r.unit == u)
}

fn is_ours(def: &PowerDef) -> bool {
    def.hook.as_deref().is_some_and(|h| POWER_HOOKS.contains(&h))
        || def.effect.iter().any(|e| e.hook.as_deref().is_some_and(|h| EFFECT_HOOKS.contains(&h)))
}

/// Targets: a removed creature is no power's target; Removal from Existence takes only
/// athletes (the creatures with turns of their own), and its Free Action use reaches yourself or
/// an ally within your implement range.
pub fn check_target(s: &State, u: UnitIdx, def: &PowerDef, t: UnitIdx) -> Result<(), RuleError> {
    let tu = s.unit(t);
    if is_removed(s, t) {
        return Err(crate::engine::kit::refuse(
            RULE,
            format_args!("{} is removed from existence: no power may target it", tu.id),
        ));
    }
    if !tu.on_map() || !is_ours(def) {
        return Ok(());
    }
    if tu.kind != UnitKind::Athlete {
        return Err(crate::engine::kit::refuse(
            RULE,
            format_args!("{} removes only athletes from existence", def.name),
        ));
    }
    if def.hook.as_deref() == Some("remove-from-existence-free") {
        let (d, range) = (s.distance(u, t).unwrap_or(i32::MAX), s.implement_range(u));
        if d > range {
            return Err(crate::engine::kit::refuse(
                "K-IMP-9",
                format_args!("{} is {d} squares from {}; {} reaches {range}", tu.id, s.unit(u).id, def.name),
            ));
        }
    }
    Ok(())
}

/// The Free Action use shares the attack's one Encounter use.
pub fn check_use(s: &State, u: UnitIdx, def: &PowerDef) -> Result<(), RuleError> {
    if def.hook.as_deref() != Some("remove-from-existence-free") {
        return Ok(());
    }
    if let Some(p) = s.powers.find(POWER)
        && s.unit(u).spent.contains(&p)
    {
        return Err(crate::engine::kit::refuse(
            "K-ACT-9",
            format_args!("{} has already spent {} this match", s.unit(u).id, s.powers.get(p).name),
        ));
    }
    Ok(())
}

/// On an Effect: the target leaves existence.
pub fn effect_hook(cx: &mut Ctx, user: UnitIdx, target: UnitIdx) -> Result<(), RuleError> {
    let t = cx.s.unit(target);
    if t.on_map() && t.kind == UnitKind::Athlete && !is_removed(cx.s, target) {
        vanish(cx, target, user);
    }
    Ok(())
}

/// The Free Action use: yourself or an ally, no roll; it spends the attack's Encounter use.
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16, targets: &[UnitIdx]) -> Result<(), RuleError> {
    let name = cx.s.powers.get(power).name.clone();
    let t = targets[0];
    cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: name, targets: vec![cx.s.who(t)] });
    if let Some(p) = cx.s.powers.find(POWER)
        && cx.s.unit(u).powers.contains(&p)
    {
        let name = cx.s.powers.get(p).name.clone();
        cx.emit(Event::EncounterSpent { unit: cx.s.who(u), power: p, name });
    }
    vanish(cx, t, u);
    Ok(())
}

/// `t` leaves the map until `maker`'s next turn ends: it drops the orbs it carries, slips any
/// Grab on it, lets go of what it maintains and leaves a Pest riding it behind.
fn vanish(cx: &mut Ctx, t: UnitIdx, maker: UnitIdx) {
    let Some(at) = cx.s.unit(t).pos else { return };
    for o in cx.s.held_orbs(t).collect::<Vec<_>>() {
        crate::rules::orbs::drop(cx, t, o, at);
    }
    for st in cx.s.unit(t).statuses.clone().into_iter().filter(|st| st.kind == StatusKind::Grabbed) {
        cx.emit(Event::StatusEnded { unit: cx.s.who(t), status: st, why: "removed from existence".into() });
    }
    crate::rules::damage::release_maintained(cx, t, "its source was removed from existence");
    let ends_after_turn = cx.s.unit(maker).turns_started + 1;
    let text = format!(
        "{} is removed from existence (it left {at}) until the end of {}'s next turn",
        cx.s.unit(t).id,
        cx.s.unit(maker).id
    );
    emit(cx, Change::Vanished(Removed { unit: t, at, maker, ends_after_turn, moved_turn: None }), text);
    crate::engine::hooks::unit_gone(cx, t); // a Pest riding it stays behind on the square (the-pest)
}

/// Squares a removed `u` may move to this turn: up to twice its speed from its square (Slowed
/// halves the speed first; Immobilized or Stunned, it stays), whatever lies between, onto any
/// square it could stand on were it alone, on its own side of the Dungeon's walls.
pub fn destinations(s: &State, u: UnitIdx) -> Vec<Pos> {
    let Some(r) = record(s, u) else { return Vec::new() };
    let un = s.unit(u);
    if r.moved_turn == Some(un.turns_started) || s.has(u, StatusKind::Immobilized) || s.has(u, StatusKind::Stunned) {
        return Vec::new();
    }
    let budget = 2 * crate::rules::movement::speed(s, u, Mode::Walk).max(0);
    let inside = s.arena.footprint_in_dungeon(r.at, un.size);
    s.arena
        .terrain
        .squares()
        .filter(|&q| q != r.at && distance(q, 1, r.at, 1) <= budget)
        .filter(|&q| standable(s, q, un.size) && s.arena.footprint_in_dungeon(q, un.size) == inside)
        .collect()
}

/// Ground a creature could stand on, ignoring creatures: no wall, edge, exit or portal.
fn standable(s: &State, q: Pos, size: i32) -> bool {
    footprint(q, size).all(|p| {
        let t = s.arena.at(p);
        t.enterable() && t != crate::engine::arena::Terrain::Portal && !crate::classes::porter::is_tunnel(s, p)
    })
}

/// Whether a removed `u`'s turn has nothing left in it (it moved, or cannot).
pub fn turn_done(s: &State, u: UnitIdx) -> bool {
    is_removed(s, u) && destinations(s, u).is_empty()
}

/// The action menu of a removed creature: where it may move, or end the turn.
pub fn menu(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let mut out: Vec<DecisionOption> = destinations(s, u)
        .into_iter()
        .map(|q| DecisionOption::square(q, format!("move (out of existence) to {q}")))
        .collect();
    out.push(DecisionOption::new("end-turn", "end the turn"));
    out
}

/// Answers the removed creature's menu with a square.
pub fn answer_menu(cx: &mut Ctx, u: UnitIdx, option: &str) -> Result<(), RuleError> {
    let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y, or end-turn"))?;
    check_move(cx.s, u, q)?;
    move_to(cx, u, q)
}

fn check_move(s: &State, u: UnitIdx, q: Pos) -> Result<(), RuleError> {
    if destinations(s, u).contains(&q) {
        return Ok(());
    }
    let why = match record(s, u) {
        Some(r) if r.moved_turn == Some(s.unit(u).turns_started) => "it has already moved this turn".to_string(),
        _ => format!("{q} is not a square it could stand on within twice its speed"),
    };
    Err(crate::engine::kit::refuse(RULE, format_args!("{} is removed from existence: {why}", s.unit(u).id)))
}

/// A command from a removed creature: only its move (to the route's last square) and ending the
/// turn; `None` if `u` is not removed.
pub fn check(s: &State, u: UnitIdx, v: &crate::engine::frames::rules::Verb) -> Option<Result<(), RuleError>> {
    use crate::engine::frames::rules::Verb;
    if !is_removed(s, u) {
        return None;
    }
    Some(match v {
        Verb::EndTurn(_) => Ok(()),
        Verb::Move { path, .. } => match path.last() {
            Some(&q) => check_move(s, u, q),
            None => Err(RuleError::malformed("a move needs a square")),
        },
        _ => Err(crate::engine::kit::refuse(
            RULE,
            format_args!("{} is removed from existence: on its turn it may only move", s.unit(u).id),
        )),
    })
}

/// The removed creature's move: its square changes; it enters nothing on the way or there.
pub fn move_to(cx: &mut Ctx, u: UnitIdx, q: Pos) -> Result<(), RuleError> {
    let turn = cx.s.unit(u).turns_started;
    let text = format!("{} moves outside existence: it will come back at {q}", cx.s.unit(u).id);
    emit(cx, Change::Moved { unit: u, to: q, turn }, text);
    Ok(())
}

/// As `unit`'s turn ends, the creatures it removed until now come back: on their square, or
/// the nearest one they can stand on if someone stands there. Coming back is no move: it
/// enters no square (no zone or terrain is entered, nothing is picked up).
pub fn end_of_turn(cx: &mut Ctx, unit: UnitIdx) {
    let turn = cx.s.unit(unit).turns_started;
    let back: Vec<Removed> =
        cx.s.removal.removed.iter().filter(|r| r.maker == unit && r.ends_after_turn <= turn).cloned().collect();
    for r in back {
        let size = cx.s.unit(r.unit).size;
        let inside = cx.s.arena.footprint_in_dungeon(r.at, size);
        let at = if crate::rules::movement::can_stand(cx.s, r.unit, r.at, size) {
            r.at
        } else {
            cx.s.arena
                .terrain
                .squares()
                .filter(|&q| {
                    crate::rules::movement::can_stand(cx.s, r.unit, q, size)
                        && cx.s.arena.footprint_in_dungeon(q, size) == inside
                })
                .min_by_key(|&q| (distance(q, size, r.at, 1), q.y, q.x))
                .unwrap_or(r.at)
        };
        let text = if at == r.at {
            format!("{} returns to existence at {at}", cx.s.unit(r.unit).id)
        } else {
            format!("{} returns to existence at {at}, the nearest free square to {}", cx.s.unit(r.unit).id, r.at)
        };
        emit(cx, Change::Returned { unit: r.unit, at }, text);
        // Ugnatio's Preservation ran out while it was away: at 0 HP or less it is Taken Out now.
        crate::classes::charmer::undying_ends(cx, r.unit);
    }
}

/// The view's `removed` list.
pub fn view(s: &State) -> serde_json::Value {
    s.removal
        .removed
        .iter()
        .map(|r| {
            serde_json::json!({
                "unit": s.unit(r.unit).id.to_string(),
                "at": r.at,
                "maker": s.unit(r.maker).id.to_string(),
                "returns_after_turn": r.ends_after_turn,
            })
        })
        .collect()
}

/// Removal from Existence: its power and Effect hooks and its Free Action's use check.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(POWER_HOOKS, |cx, a| use_power(cx, a.unit, a.power, a.targets));
    r.effect_hooks(EFFECT_HOOKS, |cx, e| effect_hook(cx, e.user, e.target));
    r.check_use(60, check_use);
    r.on_turn(crate::engine::hooks::Trigger::TurnEnded, 30, "removal-from-existence", end_of_turn);
    r.removed_turn(crate::engine::hooks::RemovedTurn { check_target, turn_done, menu, answer_menu, check, move_to });
}
