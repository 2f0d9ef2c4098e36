//! Creeps (K-CRP, K-CTYPE, K-CAI, K-CSP): stat blocks as data (content/kazzam/creeps.toml),
//! Creep groups with their orb, pedestal and Enemies List, the Creep phase at the end of each
//! round (retrieve the orb, one action roll per group or none for a Team, a Champion's second
//! attack, recover), the generic Melee, Ranged and No Target AI, bursts, Miss Triggers
//! (K-CAI-18, K-MULTI-4), auras, group credit and bounties (K-SCO-5..10), and the Hunter's
//! Creep powers (Manipulate Creeps, False Flag, Provocation) and save (K-CSP-6). Type rules
//! living elsewhere: Goons in `damage`, saves in `saves`, Stooges' and Mobs' Opportunities in
//! `opportunity`, Mob bursts and flanking in `attack`, Heavyweight and Immovable in `forced`. Group records live in [`State::creeps`] and change only through
//! `Event::Creeps`. Simplifications are listed in docs/rulings/kazzam.md, "Creeps".

pub use crate::content::creeps::{CreepAction, CreepDef, CreepTarget, CreepType, FILE, TEXT, add_powers, parse};
pub use crate::content::hooks::CREEPS_POWER as HOOKS;
use crate::content::powers::PowerDef;
use crate::engine::events::{Event, How};
pub use crate::engine::frames::rules::CreepFrame;
use crate::engine::kit::Rolls;
use crate::engine::kit::{Ctx, Flow, Frame};
pub use crate::engine::records::creeps::Change;
pub use crate::engine::records::creeps::Creeps;
pub use crate::engine::records::creeps::Group;
pub use crate::engine::records::creeps::{Enemy, Nudge};
use crate::engine::state::{OrbLoc, State, UnitIdx, UnitKind};
pub use crate::rules::query::{counts_as_enemy, group_of, is_enemy, would_join};
use crate::rules::query::{joiners, joins};
use crate::rules::statuses::StatusKind;
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

// The Chuck's Blocks, throws and traits (L2556-2570), and the Minotaur's Charges (L2591-2609).
pub mod charm_ball;
mod chuck;
pub mod golem;
pub mod lost_souls;
pub mod love_beast;
mod minotaur;
pub mod squid;
pub mod swarm;

/// How far the Hunter's "within 5 squares" reaches.
const NEAR: i32 = 5;

// ------------------------------------------------------------------ groups

fn emit(cx: &mut Ctx, change: Change, text: String) {
    cx.emit(Event::Creeps { change, text });
}

pub(crate) fn def_of(s: &State, u: UnitIdx) -> Option<u16> {
    let g = group_of(s, u)?;
    s.creeps.groups[g as usize].members.iter().find(|m| m.0 == u).map(|m| m.1)
}

/// The view of the groups: `creep_groups.<id>` with `members`, `orb`, `pedestal`, `enemies`,
/// `nudges`, `out` (each Creep Taken Out with the team credited), `credited` and `pins`.
pub fn view(s: &State) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (gi, g) in s.creeps.groups.iter().enumerate() {
        let id = |u: UnitIdx| s.unit(u).id.to_string();
        m.insert(
            g.id.to_string(),
            serde_json::json!({
                "members": g.members.iter().map(|x| id(x.0)).collect::<Vec<_>>(),
                "orb": g.orb.map(|o| s.orbs[o as usize].id.to_string()),
                "pedestal": g.pedestal.map(|p| s.arena.pedestals[p as usize].id.clone()),
                "enemies": g.enemies.iter().map(|e| id(e.unit)).collect::<Vec<_>>(),
                "nudges": g.nudges.iter().map(|n| n.amount).collect::<Vec<_>>(),
                "out": g.out.iter().map(|o| serde_json::json!({
                    "unit": id(o.0),
                    "team": o.1.map(|t| if t == 0 { "red" } else { "blue" }),
                })).collect::<Vec<_>>(),
                "credited": g.credited,
                "quest": crate::rules::quests::view(s, gi as u8),
                "shades": g.members.iter().filter(|m| crate::rules::shades::is_shade(s, m.0)).map(|m| id(m.0)).collect::<Vec<_>>(),
                // Pinning Shots its archers have waiting, by target (rules/creep_tricks.rs).
                "pins": s.creeps.pins.iter().filter(|p| g.members.iter().any(|m| m.0 == p.archer))
                    .map(|p| id(p.target)).collect::<Vec<_>>(),
            }),
        );
    }
    serde_json::Value::Object(m)
}

// ------------------------------------------------------------------ Enemies Lists

fn join(cx: &mut Ctx, g: u8, who: UnitIdx, why: &str) {
    if is_enemy(cx.s, g, who) || !cx.s.unit(who).on_map() {
        return;
    }
    let u = cx.s.unit(who);
    let in_dungeon = cx.s.arena.footprint_in_dungeon(u.pos.unwrap(), u.size);
    let text = format!("{} joins the Enemies List of the {} ({why})", u.id, cx.s.creeps.groups[g as usize].id);
    emit(cx, Change::Joined(g, Enemy { unit: who, in_dungeon }), text);
}

/// `actor` dealt damage to `target`, gave it a negative status or attacked it: if the target is
/// a grouped Creep, the actor joins that group's Enemies List (K-CAI-1, K-CAI-2).
pub fn provoked(cx: &mut Ctx, actor: UnitIdx, target: UnitIdx, why: &str) {
    if cx.s.creeps.groups.is_empty() || cx.s.unit(target).kind != UnitKind::Creep {
        return;
    }
    let Some(g) = group_of(cx.s, target) else { return };
    for w in joiners(cx.s, actor) {
        join(cx, g, w, why);
    }
}

/// An attack is made: every grouped Creep among its targets puts the attacker on its group's
/// list, hit or miss (K-CAI-1).
pub fn attacked(cx: &mut Ctx, attacker: UnitIdx, targets: &[UnitIdx]) {
    for &t in targets {
        provoked(cx, attacker, t, "it attacked one of them");
    }
}

/// A turn ends next to a group's Creep or its unheld orb: the one whose turn it was joins
/// (K-CAI-1).
pub fn turn_ended(cx: &mut Ctx, unit: UnitIdx) {
    if cx.s.creeps.groups.is_empty() || !joins(cx.s, unit) {
        return;
    }
    let Some(p) = cx.s.unit(unit).pos else { return };
    let size = cx.s.unit(unit).size;
    for g in 0..cx.s.creeps.groups.len() as u8 {
        if is_enemy(cx.s, g, unit) {
            continue; // on the list already: joining again changes nothing
        }
        let grp = &cx.s.creeps.groups[g as usize];
        let by_creep = grp.members.iter().any(|m| {
            let c = cx.s.unit(m.0);
            c.pos.is_some_and(|q| distance(p, size, q, c.size) == 1)
        });
        let by_orb = grp.orb.is_some_and(|o| match cx.s.orbs[o as usize].loc {
            OrbLoc::Pedestal { pedestal } => distance(p, size, cx.s.arena.pedestals[pedestal as usize].at, 1) <= 1,
            OrbLoc::Ground { at } => distance(p, size, at, 1) <= 1,
            OrbLoc::Held { .. } => false,
        });
        if by_creep || by_orb {
            join(
                cx,
                g,
                unit,
                if by_creep { "its turn ended next to one of them" } else { "its turn ended next to their orb" },
            );
        }
    }
}

/// Checked after every step: whoever holds a group's orb joins its list; whoever on a list was
/// sent to the Dungeon or went in or out of it leaves (K-CAI-1, K-CAI-3).
pub fn watch(cx: &mut Ctx) {
    if cx.s.creeps.groups.is_empty() {
        return;
    }
    // It reads the facts alone: facts it found nothing in last time give nothing again.
    let stamp = cx.s.stamp();
    if QUIET.get() == Some(stamp) {
        return;
    }
    watch_groups(cx);
    if cx.s.stamp() == stamp {
        QUIET.set(Some(stamp));
    }
}

thread_local! {
    /// The facts (by [`crate::engine::state::Stamp`]) [`watch`] last changed nothing in.
    static QUIET: std::cell::Cell<Option<crate::engine::state::Stamp>> = const { std::cell::Cell::new(None) };
}

/// [`watch`]'s work (kept out of line: most steps skip it).
#[inline(never)]
fn watch_groups(cx: &mut Ctx) {
    for g in 0..cx.s.creeps.groups.len() as u8 {
        let grp = &cx.s.creeps.groups[g as usize];
        let mut leave = Vec::new();
        for e in &grp.enemies {
            let u = cx.s.unit(e.unit);
            let gone = match u.pos {
                None => true,
                Some(p) => cx.s.arena.footprint_in_dungeon(p, u.size) != e.in_dungeon,
            };
            if gone {
                leave.push(e.unit);
            }
        }
        // Its own orb, and (K-CAI-4, L2536) those of the groups guarding the same pedestal: on
        // the Dual Dungeons' shared central pedestal, taking either orb makes an enemy of both.
        let shared = |h: &crate::engine::records::creeps::Group| {
            std::ptr::eq(h, grp) || h.pedestal.is_some() && h.pedestal == grp.pedestal
        };
        let holders: Vec<UnitIdx> =
            cx.s.creeps
                .groups
                .iter()
                .filter(|h| shared(h))
                .filter_map(|h| match cx.s.orbs[h.orb? as usize].loc {
                    OrbLoc::Held { by } => Some(by),
                    _ => None,
                })
                .collect();
        for u in leave {
            let text = format!(
                "{} leaves the Enemies List of the {} (sent to the Dungeon, or left it)",
                cx.s.unit(u).id,
                cx.s.creeps.groups[g as usize].id
            );
            emit(cx, Change::Left(g, u), text);
        }
        for h in holders {
            for w in joiners(cx.s, h) {
                join(cx, g, w, "it holds their orb");
            }
        }
    }
}

// ------------------------------------------------------------------ the Creep phase

/// At the end of a round, before its resets (K-TURN-6, K-CRP-2): starts the Creep phase once per
/// round. True when it pushed frames (the round end comes back after them).
pub fn round_ends(cx: &mut Ctx) -> bool {
    if cx.s.creeps.groups.is_empty() || cx.s.creeps.acted_round == cx.s.round {
        return false;
    }
    let round = cx.s.round;
    emit(cx, Change::Phase(round), format!("the Creeps act (end of round {round})"));
    cx.push(Frame::NextTurn);
    cx.push(Frame::Creeps(CreepFrame::Group { g: 0 }));
    true
}

fn on_map_members(s: &State, g: u8) -> Vec<UnitIdx> {
    s.creeps.groups[g as usize].members.iter().map(|m| m.0).filter(|&u| s.unit(u).on_map()).collect()
}

/// Where the group's orb is, if on the map: its square and whether it lies on the ground.
fn orb_square(s: &State, g: u8) -> Option<(Pos, Option<UnitIdx>)> {
    let o = s.creeps.groups[g as usize].orb?;
    match s.orbs[o as usize].loc {
        OrbLoc::Pedestal { pedestal } => Some((s.arena.pedestals[pedestal as usize].at, None)),
        OrbLoc::Ground { at } => Some((at, None)),
        OrbLoc::Held { by } => s.unit(by).pos.map(|p| (p, Some(by))),
    }
}

/// Advances a Creep frame.
pub fn step(cx: &mut Ctx, f: CreepFrame) -> Result<Flow, RuleError> {
    match f {
        CreepFrame::Group { g } => {
            if g as usize >= cx.s.creeps.groups.len() {
                return Ok(Flow::Continue);
            }
            cx.push(Frame::Creeps(CreepFrame::Group { g: g + 1 }));
            let members = on_map_members(cx.s, g);
            if members.is_empty() {
                return Ok(Flow::Continue);
            }
            let name = cx.s.creeps.groups[g as usize].id.clone();
            if cx.s.creeps.groups[g as usize].enemies.is_empty() {
                // K-CRP-3: no enemies, no action.
                cx.emit(Event::Note { text: format!("the {name} have no enemies and do nothing") });
                return Ok(Flow::Continue);
            }
            if !cx.s.creeps.groups[g as usize].guarded.is_empty() {
                emit(cx, Change::GuardReset(g), format!("the {name} begin their attacks"));
            }
            cx.push(Frame::Creeps(CreepFrame::Recover { g }));
            // Step 1 (K-CAI-9): the orb on the ground, or held by one of them.
            let o = cx.s.creeps.groups[g as usize].orb;
            let retriever = o.and_then(|o| match cx.s.orbs[o as usize].loc {
                OrbLoc::Held { by } if members.contains(&by) => Some(by),
                OrbLoc::Ground { at } => members
                    .iter()
                    .copied()
                    .min_by_key(|&m| (distance(cx.s.unit(m).pos.unwrap(), cx.s.unit(m).size, at, 1), m)),
                _ => None,
            });
            let actors: Vec<UnitIdx> = members.iter().copied().filter(|&m| Some(m) != retriever).collect();
            cx.push(Frame::Creeps(CreepFrame::Roll { g, actors }));
            if let Some(r) = retriever {
                retrieve_move(cx, r);
            }
            Ok(Flow::Continue)
        }
        CreepFrame::Retrieve { unit } => {
            retrieve_finish(cx, unit);
            Ok(Flow::Continue)
        }
        CreepFrame::Roll { g, actors } => {
            if let Some(index) = cx.s.creeps.groups[g as usize].nudges.iter().position(|n| n.amount.is_none()) {
                cx.push(Frame::Creeps(CreepFrame::Roll { g, actors }));
                if cx.s.unit(cx.s.creeps.groups[g as usize].nudges[index].hunter).on_map() {
                    cx.push(Frame::Creeps(CreepFrame::Nudge { g, index }));
                    return Ok(Flow::Wait);
                }
                emit(cx, Change::Decided(g, index, 0), "the Hunter is gone: no nudge".into());
                return Ok(Flow::Continue);
            }
            if actors.iter().all(|&a| !cx.s.unit(a).on_map()) {
                return Ok(Flow::Continue);
            }
            // The Molesnake's Two Heads: one head may go to guard the other Dungeon's orb instead.
            let actors = crate::rules::creep_tricks::two_heads(cx, actors)?;
            let name = cx.s.creeps.groups[g as usize].id.clone();
            // K-CTYPE-7: a Team rolls nothing; each member takes its own one action, top to bottom.
            if actors.iter().all(|&a| cx.s.creep_def(a).is_some_and(|d| d.team.is_some())) {
                cx.emit(Event::Note { text: format!("the {name} are a Team: each takes its own action") });
                push_acts(cx, &actors, 1);
                return Ok(Flow::Continue);
            }
            let roll = cx.d6(None)?;
            let nudge: i32 = cx.s.creeps.groups[g as usize].nudges.iter().filter_map(|n| n.amount).sum();
            let face = (roll + nudge).clamp(1, 6);
            if nudge != 0 {
                emit(
                    cx,
                    Change::NudgesUsed(g),
                    format!("Manipulate Creeps: the roll of {roll} for the {name} becomes {face}"),
                );
            } else if !cx.s.creeps.groups[g as usize].nudges.is_empty() {
                emit(cx, Change::NudgesUsed(g), "the nudges cancel out".into());
            }
            cx.emit(Event::Note { text: format!("the {name} roll {roll} for their action: {face}") });
            push_acts(cx, &actors, face);
            Ok(Flow::Continue)
        }
        CreepFrame::Act { unit, face, first, moves } => {
            act(cx, unit, face, first, moves)?;
            Ok(Flow::Continue)
        }
        CreepFrame::Charge { unit, face, target } => {
            charge(cx, unit, face, target)?;
            Ok(Flow::Continue)
        }
        CreepFrame::Charged { unit, face, target, run, passed } => {
            minotaur::charged(cx, unit, face, target, run, passed)?;
            Ok(Flow::Continue)
        }
        CreepFrame::Recover { g } => {
            recover(cx, g)?;
            Ok(Flow::Continue)
        }
        CreepFrame::Sting { unit, face, target } => {
            let content = cx.s.content.clone();
            if let Some(def) = def_of(cx.s, unit).map(|i| &content.creeps()[i as usize])
                && let Some(ai) = def.action_for(face)
                && cx.s.unit(unit).on_map()
                && cx.s.unit(target).on_map()
            {
                strike(cx, unit, def, ai, target)?;
            }
            Ok(Flow::Continue)
        }
        CreepFrame::Mesmerized { unit, jelly } => {
            // Mesmerize: it walks its speed to end as near the jelly as it can.
            if let (Some(here), true) = (cx.s.unit(jelly).pos, cx.s.unit(unit).on_map()) {
                let (size, ts) = (cx.s.unit(jelly).size, cx.s.unit(unit).size);
                move_toward(cx, unit, move |_, p| distance(p, ts, here, size));
            }
            Ok(Flow::Continue)
        }
        CreepFrame::Eyes { unit, face } => {
            charm_ball::eyes(cx, unit, face)?;
            Ok(Flow::Continue)
        }
        CreepFrame::EyesFire { unit, face, first } => {
            charm_ball::fire(cx, unit, face, first)?;
            Ok(Flow::Continue)
        }
        waiting => {
            cx.push(Frame::Creeps(waiting));
            Ok(Flow::Wait)
        }
    }
}

/// Each of `actors` takes action `face` in turn; a Champion's further attacks (K-CTYPE-1) come
/// right after its first, from where it then stands.
fn push_acts(cx: &mut Ctx, actors: &[UnitIdx], face: i32) {
    for &a in actors.iter().rev() {
        if cx.s.creep_def(a).is_some_and(|d| d.multiple_eyes) {
            cx.push(Frame::Creeps(CreepFrame::Eyes { unit: a, face }));
            continue; // the Charm Ball: its eyes are its attacks (rules/charm_ball.rs)
        }
        // K-ST-Dazed (L438): one action, so no further attack.
        let dazed = cx.s.has(a, StatusKind::Dazed);
        // Dual Focus: on a 3-6 a second attack, on its second priority.
        if !dazed && cx.s.creep_def(a).is_some_and(|d| d.dual_focus) && face >= 3 {
            let second = priorities(cx.s, a, None).get(1).copied();
            if let Some(t) = second {
                cx.push(Frame::Creeps(CreepFrame::Act { unit: a, face, first: Some(t), moves: 0 }));
            }
        }
        let extra = if dazed { 0 } else { cx.s.creep_def(a).map_or(1, |d| d.attacks()).max(1) - 1 };
        for _ in 0..extra {
            cx.push(Frame::Creeps(CreepFrame::Act { unit: a, face, first: None, moves: 0 }));
        }
        cx.push(Frame::Creeps(CreepFrame::Act { unit: a, face, first: None, moves: 2 }));
    }
}

/// A move of up to its speed toward the best square by `score` (lower is better); nothing if
/// staying is as good.
fn move_toward(cx: &mut Ctx, unit: UnitIdx, score: impl Fn(&State, Pos) -> i32) -> bool {
    let Some(path) = best_toward(cx.s, unit, &score, &[]) else { return false };
    cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(unit, path, How::Walk)));
    true
}

/// The route of [`move_toward`]: of the squares better by `score` than its own, a route
/// granting no Opportunity to an enemy on `list` first (K-CAI-7), then the best score, the least
/// movement, a route granting no Opportunity at all, then [`tie`] (toward `list`'s first), row
/// and column.
fn best_toward(s: &State, unit: UnitIdx, score: &impl Fn(&State, Pos) -> i32, list: &[UnitIdx]) -> Option<Vec<Pos>> {
    let here = s.unit(unit).pos?;
    if s.has(unit, StatusKind::Immobilized) || s.has(unit, StatusKind::Grabbed) || s.has(unit, StatusKind::Restrained) {
        return None;
    }
    let (reach, dests) = crate::rules::movement::reach_and_destinations(s, unit, crate::rules::movement::Mode::Walk)?;
    let now = score(s, here);
    let scored: Vec<(i32, u32, Pos)> = dests
        .into_iter()
        .filter_map(|p| reach.cost(p).map(|c| (score(s, p), c, p)))
        .filter(|&(sc, _, _)| sc < now)
        .collect();
    // Without a list (a compelled walk, an orb fetched) only the best score and cost are ranked.
    let (sc, c) = scored.iter().map(|&(sc, c, _)| (sc, c)).min()?;
    let target = list.first().copied();
    scored
        .into_iter()
        .filter(|&(x, y, _)| !list.is_empty() || (x, y) == (sc, c))
        .filter_map(|(x, y, p)| reach.path_to(p).map(|path| (x, y, path, p)))
        .map(|(x, y, path, p)| {
            let (to_list, to_any) = grants(s, unit, &path, list);
            ((to_list, x, y, to_any, tie(s, unit, p, target), p.y, p.x), path)
        })
        .min_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, path)| path)
}

fn retrieve_move(cx: &mut Ctx, unit: UnitIdx) {
    let Some(g) = group_of(cx.s, unit) else { return };
    let size = cx.s.unit(unit).size;
    let goal = match orb_square(cx.s, g) {
        Some((_, Some(by))) if by == unit => {
            cx.s.creeps.groups[g as usize].pedestal.map(|p| cx.s.arena.pedestals[p as usize].at)
        }
        Some((at, None)) => Some(at),
        _ => None,
    };
    let Some(goal) = goal else { return };
    cx.push(Frame::Creeps(CreepFrame::Retrieve { unit }));
    cx.emit(Event::Note { text: format!("{} goes to retrieve its orb", cx.s.unit(unit).id) });
    move_toward(cx, unit, move |_, p| (distance(p, size, goal, 1) - 1).max(0));
}

fn retrieve_finish(cx: &mut Ctx, unit: UnitIdx) {
    let (Some(g), Some(p)) = (group_of(cx.s, unit), cx.s.unit(unit).pos) else { return };
    let size = cx.s.unit(unit).size;
    let Some(o) = cx.s.creeps.groups[g as usize].orb else { return };
    let id = cx.s.orbs[o as usize].id.to_string();
    match cx.s.orbs[o as usize].loc {
        OrbLoc::Ground { at } if distance(p, size, at, 1) <= 1 => {
            cx.emit(Event::OrbMoved {
                orb: id,
                idx: o,
                to: OrbLoc::Held { by: unit },
                why: format!("picked up by {}", cx.s.unit(unit).id),
            });
        }
        OrbLoc::Held { by } if by == unit => {
            if let Some(ped) = cx.s.creeps.groups[g as usize].pedestal
                && distance(p, size, cx.s.arena.pedestals[ped as usize].at, 1) <= 1
            {
                cx.emit(Event::OrbMoved {
                    orb: id,
                    idx: o,
                    to: OrbLoc::Pedestal { pedestal: ped },
                    why: format!("put back on its pedestal by {}", cx.s.unit(unit).id),
                });
            }
        }
        _ => {}
    }
}

/// The creatures `unit` may go for, in priority order (K-CAI-5, K-CAI-6; K-CSP-4's named one
/// first).
pub fn priorities(s: &State, unit: UnitIdx, first: Option<UnitIdx>) -> Vec<UnitIdx> {
    let Some(g) = group_of(s, unit) else { return Vec::new() };
    let grp = &s.creeps.groups[g as usize];
    let holder = grp.orb.and_then(|o| match s.orbs[o as usize].loc {
        OrbLoc::Held { by } => Some(by),
        _ => None,
    });
    let mut list: Vec<UnitIdx> = grp
        .enemies
        .iter()
        .map(|e| e.unit)
        .filter(|&t| s.unit(t).on_map() && !s.hidden_from(t, unit) && s.unit(t).kind != UnitKind::Conjured)
        .collect();
    let later = |t: UnitIdx| s.order.iter().position(|&x| x == t).map_or(0, |i| i + 1);
    // The Huntress: Bloodied enemies right after the orb's holder.
    let hunts = s.creep_def(unit).is_some_and(|d| d.hunts_bloodied);
    let prey = |t: UnitIdx| hunts && s.is_bloodied(t);
    list.sort_by_key(|&t| (Some(t) != holder, !prey(t), s.distance(unit, t), std::cmp::Reverse(later(t)), t));
    crate::rules::creep_tricks::prefer(s, unit, &mut list); // the Imp Thief: carriers first
    if let Some(f) = first.filter(|&f| s.unit(f).on_map() && f != unit) {
        list.retain(|&t| t != f);
        list.insert(0, f);
    }
    list
}

/// Whether `unit` standing at `p` could use action `a` on `t`.
pub(crate) fn in_range(s: &State, unit: UnitIdx, a: &CreepAction, reach: i32, p: Pos, t: UnitIdx) -> bool {
    let (size, tu) = (s.unit(unit).size, s.unit(t));
    let Some(tp) = tu.pos else { return false };
    let d = distance(p, size, tp, tu.size);
    match a.target {
        CreepTarget::Melee => d <= reach,
        CreepTarget::Myself => true,
        CreepTarget::Ranged | CreepTarget::Burst => {
            d <= a.range.unwrap_or(1) && crate::rules::cover::shot(s, p, size, t) != fray_core::sight::Sight::Blocked
        }
    }
}

fn act(cx: &mut Ctx, unit: UnitIdx, face: i32, first: Option<UnitIdx>, moves: u8) -> Result<(), RuleError> {
    let content = cx.s.content.clone();
    let Some(def) = def_of(cx.s, unit).map(|i| &content.creeps()[i as usize]) else { return Ok(()) };
    if !cx.s.unit(unit).on_map() || cx.s.has(unit, StatusKind::Stunned) || cx.s.has(unit, StatusKind::Incapacitated) {
        return Ok(());
    }
    if moves == 2 && def.turn_ward > 0 {
        // The Aegis: Ward as it begins to act.
        let ward = cx.s.unit(unit).ward + def.turn_ward;
        cx.emit(Event::WardSet { unit: cx.s.who(unit), ward, why: format!("{} begins to act", def.name) });
    }
    if moves == 2 {
        // K-CAI-11 (simplified): a Prone Creep stands up before it acts.
        for st in cx.s.unit(unit).statuses.clone().into_iter().filter(|s| s.kind == StatusKind::Prone) {
            cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why: "stands up (Creep recovery)".into() });
        }
    }
    // K-CSP-3: a Disarmed Creep acts as if it rolled a 1.
    let face = if cx.s.has(unit, StatusKind::Disarmed) { 1 } else { face };
    let Some(ai) = def.action_for(face) else { return Ok(()) };
    // The squid's Regenerate (K-CAI-15): a Bloodied squid heals and hides, else it Drags.
    if crate::rules::creep_tricks::regenerates(cx.s, unit, def, ai) {
        if moves == 2 {
            crate::rules::creep_tricks::regenerate(cx, unit);
        }
        return Ok(());
    }
    let ai = crate::rules::creep_tricks::action_for(cx.s, unit, def, ai);
    if crate::rules::creep_tricks::sits_out(cx, unit, def, ai, moves) {
        return Ok(()); // the Molesnake's Retreat, or its other head's Drag
    }
    let a = &def.action[ai];
    if a.hook.as_deref() == Some("drift") {
        // Drift has its own AI (K-CAI-10's special icon, L2547).
        if moves == 2 {
            crate::rules::creep_tricks::drift(cx, unit, face);
        }
        return Ok(());
    }
    // The Chuck's and the Minotaur's own parts (rules/creeps/chuck.rs, minotaur.rs).
    if chuck::act(cx, unit, def, ai, face, first, moves)? {
        return Ok(());
    }
    if moves == 2 && def.wild_card && minotaur::act(cx, unit, def, ai, face, first) {
        return Ok(());
    }
    // Trample: its own run through its enemies, when one passes any.
    if moves == 2 && a.hook.as_deref() == Some("trample") && lost_souls::trample(cx, unit, def, ai)? {
        return Ok(());
    }
    // Raise Shade: a Shade to bring back takes the place of the attack.
    if moves == 2
        && a.hook.as_deref() == Some(crate::rules::shades::KEEPER)
        && lost_souls::revive(cx, unit, a.range.unwrap_or(1))
    {
        return Ok(());
    }
    if a.target == CreepTarget::Myself {
        if moves == 2 && matches!(a.hook.as_deref(), Some("questgiver" | "parent")) {
            cx.emit(Event::Note { text: format!("{} uses {}", cx.s.unit(unit).id, a.name) });
            if a.hook.as_deref() == Some("parent") {
                return golem::parent(cx, unit);
            }
            return golem::questgiver(cx, unit);
        }
        if moves == 2 {
            let played =
                if a.effect.is_empty() && a.hook.is_none() { " (not played yet: nothing happens)" } else { "" };
            cx.emit(Event::Note { text: format!("{} uses {}{played}", cx.s.unit(unit).id, a.name) });
            crate::rules::creep_tricks::own_action(cx, unit, def, ai);
            if !a.effect.is_empty()
                && let Some(power) = cx.s.powers.find(&def.power_id(ai))
            {
                crate::rules::attack::apply_effects(cx, unit, unit, power, &a.effect)?;
            }
        }
        return Ok(());
    }
    let reach = cx.s.reach(unit).max(def.reach.unwrap_or(1));
    let here = cx.s.unit(unit).pos.unwrap();
    let list = priorities(cx.s, unit, first);
    let list = crate::rules::creep_tricks::apart(cx.s, unit, def, ai, list); // Bury: a head each
    // Melee AI targets its priority target only; Ranged AI takes the next one it can reach.
    let pool: Vec<UnitIdx> =
        if a.target == CreepTarget::Melee { list.iter().copied().take(1).collect() } else { list.clone() };
    let size = cx.s.unit(unit).size;
    // K-ST-Dazed (L438): one action, an attack or a move.
    let dazed = cx.s.has(unit, StatusKind::Dazed);
    let power = cx.s.powers.find(&def.power_id(ai));
    if moves == 1 {
        // The second of two moves toward the priority target (K-CAI-13 step 3, K-CAI-14 step 2).
        if let Some(&t) = list.first() {
            let (tp, ts) = (cx.s.unit(t).pos.unwrap(), cx.s.unit(t).size);
            return walk_or_override(cx, unit, def, ai, reach, &list, move |_, p| distance(p, size, tp, ts), None);
        }
        return Ok(());
    }
    if moves == 0 {
        // After its move (or a further attack): the attack from where it now stands.
        for &t in &pool {
            if in_range(cx.s, unit, a, reach, here, t) {
                return strike_all(cx, unit, def, ai, t);
            }
        }
        return Ok(());
    }
    let free = !(cx.s.has(unit, StatusKind::Immobilized)
        || cx.s.has(unit, StatusKind::Grabbed)
        || cx.s.has(unit, StatusKind::Restrained));
    // Move then attack (K-CAI-13, K-CAI-14): the least movement to a square it can attack from,
    // with Advantage (melee) or without Disadvantage (ranged) if any such square is in reach.
    let walk = if free && !pool.is_empty() { Walk::of(cx.s, unit) } else { Walk::stay(here) };
    let walk = if dazed { Walk::stay(here) } else { walk };
    if let Some((t, path)) = power.and_then(|p| choose(cx.s, unit, a, p, reach, &pool, &list, &walk)) {
        if path.is_empty() {
            return strike_all(cx, unit, def, ai, t);
        }
        // Override 0.1 (K-CAI-7): no walking away from an enemy beside it.
        if let Some(e) = in_the_way(cx.s, unit, a, reach, &path, &list) {
            return override_attack(cx, unit, def, ai, e);
        }
        cx.push(Frame::Creeps(CreepFrame::Act { unit, face, first: Some(t), moves: 0 }));
        cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(unit, path, How::Walk)));
        return Ok(());
    }
    // Melee AI step 2 (K-CAI-13): move, then Charge (a Dazed Creep: the Charge alone).
    if a.target == CreepTarget::Melee
        && free
        && let Some(&t) = pool.first()
        && let Some(path) = charge_plan(cx.s, unit, t, &list, &walk)
    {
        if let Some(e) = in_the_way(cx.s, unit, a, reach, &path, &list) {
            return override_attack(cx, unit, def, ai, e);
        }
        cx.push(Frame::Creeps(CreepFrame::Charge { unit, face, target: t }));
        if !path.is_empty() {
            cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(unit, path, How::Walk)));
        }
        return Ok(());
    }
    if let Some(&t) = list.first() {
        // Otherwise move twice toward the priority target (once if Dazed).
        let (tp, ts) = (cx.s.unit(t).pos.unwrap(), cx.s.unit(t).size);
        let second = (!dazed).then_some(Frame::Creeps(CreepFrame::Act { unit, face, first, moves: 1 }));
        return walk_or_override(cx, unit, def, ai, reach, &list, move |_, p| distance(p, size, tp, ts), second);
    }
    // No Target AI (K-CAI-12): toward its orb, nothing if already next to it.
    if let Some(g) = group_of(cx.s, unit)
        && let Some((at, holder)) = orb_square(cx.s, g)
        && holder != Some(unit)
        && distance(here, size, at, 1) > 1
    {
        cx.emit(Event::Note { text: format!("{} has no target and heads back to its orb", cx.s.unit(unit).id) });
        move_toward(cx, unit, move |_, p| (distance(p, size, at, 1) - 1).max(0));
    }
    Ok(())
}

/// Where a Creep may walk with one Move Action: each square with its cost, its own first at 0.
pub(crate) struct Walk {
    reach: Option<fray_core::geometry::Reach>,
    pub(crate) squares: Vec<(u32, Pos)>,
}

impl Walk {
    pub(crate) fn stay(here: Pos) -> Walk {
        Walk { reach: None, squares: vec![(0, here)] }
    }
    pub(crate) fn of(s: &State, unit: UnitIdx) -> Walk {
        let here = s.unit(unit).pos.unwrap();
        let Some((reach, dests)) =
            crate::rules::movement::reach_and_destinations(s, unit, crate::rules::movement::Mode::Walk)
        else {
            return Walk::stay(here);
        };
        let mut squares: Vec<(u32, Pos)> = vec![(0, here)];
        squares.extend(dests.into_iter().filter(|&p| p != here).filter_map(|p| reach.cost(p).map(|c| (c, p))));
        squares.sort_by_key(|&(c, p)| (c, p.y, p.x));
        Walk { reach: Some(reach), squares }
    }
    /// The route to `p` (empty: it stays).
    pub(crate) fn path(&self, here: Pos, p: Pos) -> Option<Vec<Pos>> {
        if p == here {
            return Some(Vec::new());
        }
        self.reach.as_ref()?.path_to(p)
    }
}

/// Those a walk along `path` grants an Opportunity to (K-OPP-1, K-OPP-7), in the order of the
/// squares left.
fn granted(s: &State, unit: UnitIdx, path: &[Pos]) -> Vec<UnitIdx> {
    let Some(mut from) = s.unit(unit).pos else { return Vec::new() };
    let mut out = Vec::new();
    for &to in path {
        let more = crate::rules::opportunity::for_leaving(s, unit, from, to, How::Walk, &out);
        out.extend(more);
        from = to;
    }
    out
}

/// Override 0.1 (K-CAI-7): an enemy on its list that the walk would grant an Opportunity and
/// that the action can reach from where the Creep stands: the first in priority order.
pub(crate) fn in_the_way(
    s: &State,
    unit: UnitIdx,
    a: &CreepAction,
    reach: i32,
    path: &[Pos],
    list: &[UnitIdx],
) -> Option<UnitIdx> {
    if a.target == CreepTarget::Myself || path.is_empty() {
        return None;
    }
    let here = s.unit(unit).pos?;
    let given = granted(s, unit, path);
    list.iter().copied().find(|&e| given.contains(&e) && in_range(s, unit, a, reach, here, e))
}

pub(crate) fn override_attack(
    cx: &mut Ctx,
    unit: UnitIdx,
    def: &CreepDef,
    ai: usize,
    e: UnitIdx,
) -> Result<(), RuleError> {
    cx.emit(Event::Note {
        text: format!(
            "{} will not walk away from {} and grant it an Opportunity: it attacks it instead (Override 0.1)",
            cx.s.unit(unit).id,
            cx.s.unit(e).id
        ),
    });
    strike_all(cx, unit, def, ai, e)
}

/// The tie-break among squares the AI leaves open (K-CAI-17, table option `creep-ties`):
/// lower is better.
pub(crate) fn tie(s: &State, unit: UnitIdx, p: Pos, target: Option<UnitIdx>) -> i32 {
    use crate::engine::options::CreepTies;
    let size = s.unit(unit).size;
    let near = |t: UnitIdx| s.unit(t).pos.map_or(i32::MAX, |q| distance(p, size, q, s.unit(t).size));
    let side = match s.options.creep_ties {
        CreepTies::BestJudgement => return target.map_or(0, near),
        CreepTies::HelpRed => crate::engine::arena::Side::Blue,
        CreepTies::HelpBlue => crate::engine::arena::Side::Red,
    };
    s.units_on_map()
        .filter(|&t| s.unit(t).kind == UnitKind::Athlete && s.unit(t).side == side)
        .map(near)
        .min()
        .unwrap_or(0)
}

/// Whether attacking `t` from `p` would have the edge the AI looks for: Advantage for a melee
/// action, no Disadvantage for any other (K-CAI-13, K-CAI-14).
pub(crate) fn favoured(s: &State, unit: UnitIdx, t: UnitIdx, power: u16, melee: bool, p: Pos) -> bool {
    let pdef = s.powers.get(power);
    let here = s.unit(unit).pos.unwrap();
    let judge = |st: &State| crate::rules::attack::roll_adv_dis(st, unit, t, pdef, p, false);
    let (adv, dis) = if p == here {
        judge(s)
    } else {
        // The Creep as if it stood at `p` (flanking and the rest read its square).
        let mut h = s.clone();
        h.flow.clear();
        let e = Event::Moved { unit: s.who(unit), from: here, to: p, how: How::Dragged };
        crate::engine::events::apply(&mut h, &e);
        judge(&h)
    };
    if melee { adv && !dis } else { !dis }
}

/// The target and the route (empty: it stays) of a move then attack: for each of `pool` in
/// turn, the squares it can attack from, ranked: a route granting no Opportunity to an enemy on
/// its list `list` first (Override 0.1 outranks the AI, K-CAI-7), then the edge [`favoured`],
/// then the least movement, then a route granting no Opportunity at all, then [`tie`], row and
/// column.
#[allow(clippy::too_many_arguments)]
fn choose(
    s: &State,
    unit: UnitIdx,
    a: &CreepAction,
    power: u16,
    reach: i32,
    pool: &[UnitIdx],
    list: &[UnitIdx],
    walk: &Walk,
) -> Option<(UnitIdx, Vec<Pos>)> {
    let here = s.unit(unit).pos?;
    if a.target == CreepTarget::Burst {
        return burst_choice(s, unit, a, pool, list, walk);
    }
    let melee = a.target == CreepTarget::Melee;
    for &t in pool {
        let best = walk
            .squares
            .iter()
            .filter(|&&(_, p)| in_range(s, unit, a, reach, p, t))
            .filter_map(|&(c, p)| walk.path(here, p).map(|path| (c, p, path)))
            .map(|(c, p, path)| {
                let (to_list, to_any) = grants(s, unit, &path, list);
                let edge = favoured(s, unit, t, power, melee, p);
                // Swarm Behavior: a Mob covers as many characters as it can.
                let cover = std::cmp::Reverse(swarm::covered(s, unit, p));
                ((to_list, cover, !edge, c, to_any, tie(s, unit, p, Some(t)), p.y, p.x), path)
            })
            .min_by(|x, y| x.0.cmp(&y.0));
        if let Some((_, path)) = best {
            return Some((t, path));
        }
    }
    None
}

/// Override 0.2 (K-CAI-8): a burst's square. Among the squares of its move from which the burst
/// takes in its priority target (the first of `pool`), the one that takes in the most targets;
/// when no square takes that one in, the one that takes in the most targets with someone on its
/// list `list` among them. Ties as [`choose`]: no Opportunity to an enemy on the list first
/// (Override 0.1 outranks it), then the least movement, then no Opportunity at all, then [`tie`].
/// The target is the priority target, else the first on the list the burst takes in.
fn burst_choice(
    s: &State,
    unit: UnitIdx,
    a: &CreepAction,
    pool: &[UnitIdx],
    list: &[UnitIdx],
    walk: &Walk,
) -> Option<(UnitIdx, Vec<Pos>)> {
    let here = s.unit(unit).pos?;
    let best = |need: Option<UnitIdx>| {
        walk.squares
            .iter()
            .filter_map(|&(c, p)| {
                let hit = burst_targets_at(s, unit, a, p);
                let t = match need {
                    Some(t) => hit.contains(&t).then_some(t)?,
                    None => list.iter().copied().find(|x| hit.contains(x))?,
                };
                let path = walk.path(here, p)?;
                let (to_list, to_any) = grants(s, unit, &path, list);
                let cover = std::cmp::Reverse(swarm::covered(s, unit, p)); // Swarm Behavior
                let key = (to_list, std::cmp::Reverse(hit.len()), cover, c, to_any, tie(s, unit, p, Some(t)), p.y, p.x);
                Some((key, (t, path)))
            })
            .min_by(|x, y| x.0.cmp(&y.0))
            .map(|(_, choice)| choice)
    };
    best(Some(*pool.first()?)).or_else(|| best(None))
}

/// Whether a walk along `path` grants an Opportunity to an enemy on the list `list`, and
/// whether to anyone at all.
pub(crate) fn grants(s: &State, unit: UnitIdx, path: &[Pos], list: &[UnitIdx]) -> (bool, bool) {
    let given = granted(s, unit, path);
    (given.iter().any(|g| list.contains(g)), !given.is_empty())
}

/// Melee AI step 2 (K-CAI-13): the least movement (empty: none) after which a Charge reaches
/// `t` (K-MOVE-11), routes granting no Opportunity first.
fn charge_plan(s: &State, unit: UnitIdx, t: UnitIdx, list: &[UnitIdx], walk: &Walk) -> Option<Vec<Pos>> {
    let here = s.unit(unit).pos?;
    let (size, tp, ts) = (s.unit(unit).size, s.unit(t).pos?, s.unit(t).size);
    let run = crate::rules::movement::speed(s, unit, crate::rules::movement::Mode::Walk) + 1;
    let far = s.arena.portals.is_empty() && s.porter.tunnels.is_empty();
    type Key = (bool, u32, bool, i32, i32, i32);
    let mut found: Option<(Key, Vec<Pos>)> = None;
    for &(c, p) in &walk.squares {
        if far && distance(p, size, tp, ts) > run {
            continue;
        }
        let Some(path) = walk.path(here, p) else { continue };
        let can = if p == here {
            !crate::rules::actions::charge_squares(s, unit, t).is_empty()
        } else {
            let mut h = s.clone();
            h.flow.clear();
            let e = Event::Moved { unit: s.who(unit), from: here, to: p, how: How::Dragged };
            crate::engine::events::apply(&mut h, &e);
            !crate::rules::actions::charge_squares(&h, unit, t).is_empty()
        };
        if can {
            let (to_list, to_any) = grants(s, unit, &path, list);
            let key = (to_list, c, to_any, tie(s, unit, p, Some(t)), p.y, p.x);
            if found.as_ref().is_none_or(|f| key < f.0) {
                found = Some((key, path));
            }
        }
    }
    found.map(|f| f.1)
}

/// The Charge of a Creep's Melee AI (K-CAI-13 step 2, K-MOVE-11): the run to the square beside
/// `t` it reaches most cheaply (no Opportunity granted first, then [`tie`]), then the action.
fn charge(cx: &mut Ctx, unit: UnitIdx, face: i32, t: UnitIdx) -> Result<(), RuleError> {
    let content = cx.s.content.clone();
    let Some(def) = def_of(cx.s, unit).map(|i| &content.creeps()[i as usize]) else { return Ok(()) };
    if !cx.s.unit(unit).on_map() || !cx.s.unit(t).on_map() {
        return Ok(());
    }
    let face = if cx.s.has(unit, StatusKind::Disarmed) { 1 } else { face };
    let Some(ai) = def.action_for(face) else { return Ok(()) };
    let ai = crate::rules::creep_tricks::action_for(cx.s, unit, def, ai);
    if def.wild_card {
        minotaur::charge(cx, unit, def, face, t);
        return Ok(());
    }
    let a = &def.action[ai];
    let reach = cx.s.reach(unit).max(def.reach.unwrap_or(1));
    let here = cx.s.unit(unit).pos.unwrap();
    let mode = crate::rules::movement::Mode::Charge(t);
    let list = priorities(cx.s, unit, Some(t));
    let best = crate::rules::actions::charge_squares(cx.s, unit, t)
        .into_iter()
        .filter_map(|q| {
            let path = if q == here { Vec::new() } else { crate::rules::movement::route_to(cx.s, unit, q, mode)? };
            let (to_list, to_any) = grants(cx.s, unit, &path, &list);
            let key = (to_list, path.len(), to_any, tie(cx.s, unit, q, Some(t)), q.y, q.x);
            Some((key, path))
        })
        .min_by(|a, b| a.0.cmp(&b.0));
    let Some((_, path)) = best else { return Ok(()) };
    if let Some(e) = in_the_way(cx.s, unit, a, reach, &path, &list) {
        return override_attack(cx, unit, def, ai, e);
    }
    cx.emit(Event::Note { text: format!("{} charges {}", cx.s.unit(unit).id, cx.s.unit(t).id) });
    cx.push(Frame::Creeps(CreepFrame::Act { unit, face, first: Some(t), moves: 0 }));
    if !path.is_empty() {
        cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(unit, path, How::Charge)));
    }
    Ok(())
}

/// A move toward the best square by `score` (as [`move_toward`]), unless Override 0.1 turns it
/// into an attack on an enemy beside the Creep (K-CAI-7); `then` follows the move.
#[allow(clippy::too_many_arguments)]
fn walk_or_override(
    cx: &mut Ctx,
    unit: UnitIdx,
    def: &CreepDef,
    ai: usize,
    reach: i32,
    list: &[UnitIdx],
    score: impl Fn(&State, Pos) -> i32,
    then: Option<Frame>,
) -> Result<(), RuleError> {
    let Some(path) = best_toward(cx.s, unit, &score, list) else { return Ok(()) };
    if let Some(e) = in_the_way(cx.s, unit, &def.action[ai], reach, &path, list) {
        return override_attack(cx, unit, def, ai, e);
    }
    if let Some(f) = then {
        cx.push(f);
    }
    cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(unit, path, How::Walk)));
    Ok(())
}

/// Who a burst action from where `unit` stands reaches: everyone but Creeps within its radius
/// (or only those on its group's list, `to = "enemies"`), never conjured things or walls.
fn burst_targets(s: &State, unit: UnitIdx, a: &CreepAction) -> Vec<UnitIdx> {
    s.unit(unit).pos.map_or_else(Vec::new, |p| burst_targets_at(s, unit, a, p))
}

/// Who a burst action would reach with `unit` standing at `p` (as [`burst_targets`]).
fn burst_targets_at(s: &State, unit: UnitIdx, a: &CreepAction, p: Pos) -> Vec<UnitIdx> {
    let g = group_of(s, unit);
    let (r, size) = (a.range.unwrap_or(1), s.unit(unit).size);
    s.units_on_map()
        .filter(|&t| t != unit && s.unit(t).pos.is_some_and(|q| distance(p, size, q, s.unit(t).size) <= r))
        .filter(|&t| !matches!(s.unit(t).kind, UnitKind::Creep | UnitKind::Conjured | UnitKind::Wall))
        .filter(|&t| {
            a.to.as_deref() != Some("enemies") || g.is_some_and(|g| is_enemy(s, g, t) && !s.hidden_from(t, unit))
        })
        .collect()
}

/// The action on its chosen target `t`; a burst on everyone it reaches, `t` first.
fn strike_all(cx: &mut Ctx, unit: UnitIdx, def: &CreepDef, ai: usize, t: UnitIdx) -> Result<(), RuleError> {
    if def.action[ai].target != CreepTarget::Burst {
        strike(cx, unit, def, ai, t)?;
        crate::rules::creep_tricks::attacked(cx, unit); // a Hidden Creep shows itself
        return Ok(());
    }
    let mut targets = burst_targets(cx.s, unit, &def.action[ai]);
    if def.action[ai].hook.as_deref() == Some("mesmerize") {
        return crate::rules::creep_tricks::mesmerize(cx, unit, targets);
    }
    targets.retain(|&x| x != t);
    targets.insert(0, t);
    for x in targets {
        if cx.s.unit(x).on_map() && cx.s.unit(unit).on_map() {
            strike(cx, unit, def, ai, x)?;
        }
    }
    crate::rules::creep_tricks::attacked(cx, unit);
    Ok(())
}

/// A Creep's attack: no roll (K-CRP-4); Advantage and Disadvantage are +1 and -1 damage
/// (K-CSP-1), Weakened halves it, Guarded takes 1 off the group's first attack on it (K-CSP-2);
/// a Hunter may save to avoid it (K-CSP-6).
pub(crate) fn strike(cx: &mut Ctx, unit: UnitIdx, def: &CreepDef, ai: usize, t: UnitIdx) -> Result<(), RuleError> {
    strike_nth(cx, unit, def, ai, t, true)
}

/// [`strike`], for an action's later attack when `first` is false (K-CSP-5: Weakened halves
/// only the first; the Charm Ball's later eyes).
pub(crate) fn strike_nth(
    cx: &mut Ctx,
    unit: UnitIdx,
    def: &CreepDef,
    ai: usize,
    t: UnitIdx,
    first: bool,
) -> Result<(), RuleError> {
    // K-CAI-15: "if the target is already ..., Drag" (the squid's fallbacks).
    let ai = crate::rules::creep_tricks::action_on(cx.s, def, ai, t);
    let a = &def.action[ai];
    let Some(power) = cx.s.powers.find(&def.power_id(ai)) else {
        return Err(RuleError::malformed(format!("the Creep action {} is not among the powers", def.power_id(ai))));
    };
    cx.emit(Event::PowerUsed { unit: cx.s.who(unit), power: a.name.clone(), targets: vec![cx.s.who(t)] });
    if crate::rules::query::is_specialist(cx.s, t, "hunter")
        && crate::rules::turn::saving_throw(cx, t, "a Creep's attack (Hunter)")?
    {
        cx.emit(Event::Note {
            text: format!("{} avoids {}'s {} (Hunter)", cx.s.unit(t).id, cx.s.unit(unit).id, a.name),
        });
        return Ok(());
    }
    let table = cx.s.powers.clone(); // shared: the power is read, not copied
    let pdef = table.get(power);
    let origin = cx.s.unit(unit).pos.unwrap();
    // Hunting Arrow's Take Outs add to it for good.
    let mut amount = a.damage.unwrap_or(0) + lost_souls::bonus(cx.s, unit) + lost_souls::sacrifice(cx, unit, def, ai);
    let mut notes = Vec::new();
    if let Some((more, why)) = crate::rules::creep_tricks::bonus(cx.s, unit, def, ai, t).filter(|_| a.damage.is_some())
    {
        amount += more; // the Thief's and the Archer's traits
        notes.push(why);
    }
    if def.hunts_bloodied && a.damage.is_some() && cx.s.is_bloodied(t) {
        amount += 1; // the Huntress on a Bloodied enemy
        notes.push("Bloodied prey +1");
    }
    match crate::rules::attack::roll_mode(cx.s, unit, t, pdef, origin, false) {
        crate::engine::events::RollMode::Advantage => {
            amount += 1;
            notes.push("Advantage +1");
        }
        crate::engine::events::RollMode::Disadvantage => {
            amount -= 1;
            notes.push("Disadvantage -1");
        }
        crate::engine::events::RollMode::Normal => {}
    }
    if first && cx.s.has(unit, StatusKind::Weakened) {
        amount /= 2; // K-ST-Weakened; K-CSP-5: the first attack only
        notes.push("Weakened: halved");
    }
    let g = group_of(cx.s, unit).unwrap_or(0);
    if cx.s.has(t, StatusKind::Guarded) && !cx.s.creeps.groups[g as usize].guarded.contains(&t) {
        amount -= 1;
        notes.push("Guarded -1");
        let text = format!(
            "{}'s Guarded takes 1 off the {}' first attack on it",
            cx.s.unit(t).id,
            cx.s.creeps.groups[g as usize].id
        );
        emit(cx, Change::Guarded(g, t), text);
    }
    if !notes.is_empty() {
        cx.emit(Event::Note { text: format!("{} against {}: {}", a.name, cx.s.unit(t).id, notes.join(", ")) });
    }
    let melee = a.target == CreepTarget::Melee;
    let ctx = crate::rules::damage::FromAttack { attack_or_opportunity: true, pierce: false, melee };
    let why = format!("{}'s {}", cx.s.unit(unit).id, a.name);
    // An action with no damage line deals none (Trip, Snatch).
    let dealt =
        if a.hook.as_deref() == Some("pain-of-eros") && love_beast::pain_of_eros(cx, unit, t, amount.max(0), &why) {
            crate::rules::damage::Dealt::default() // held back until its last turn is over
        } else if a.damage.is_some() {
            crate::rules::damage::deal(cx, t, amount.max(0), Some(unit), &why, Some(ctx))
        } else {
            crate::rules::damage::Dealt::default()
        };
    // Lullaby on the orb's holder takes the orb back instead of its Dazed.
    let lulled = a.hook.as_deref() == Some("lullaby")
        && cx.s.unit(t).on_map()
        && !dealt.only_ward()
        && lost_souls::lullaby(cx, unit, t);
    if !lulled && cx.s.unit(t).on_map() && !dealt.only_ward() && !a.effect.is_empty() {
        // Screech: a target inside the Creep's own squares fails the save unrolled.
        let inside = a.inside_fails && {
            let (u, v) = (cx.s.unit(unit), cx.s.unit(t));
            u.pos.zip(v.pos).is_some_and(|(p, q)| distance(p, u.size, q, v.size) == 0)
        };
        if inside {
            cx.emit(Event::Note {
                text: format!("{} is inside {}: its save fails", cx.s.unit(t).id, cx.s.unit(unit).id),
            });
            let effect: Vec<_> = a
                .effect
                .iter()
                .filter(|e| !e.if_saved)
                .map(|e| crate::content::powers::Effect { unless_saved: false, ..e.clone() })
                .collect();
            crate::rules::attack::apply_effects(cx, unit, t, power, &effect)?;
        } else {
            crate::rules::attack::apply_effects(cx, unit, t, power, &a.effect)?;
        }
    }
    if cx.s.unit(t).on_map() && !dealt.only_ward() {
        let here = cx.s.unit(unit).pos.unwrap_or(origin);
        let (size, ts) = (cx.s.unit(unit).size, cx.s.unit(t).size);
        match a.hook.as_deref() {
            // Beckon: the target walks its speed to end as near the Creep as it can.
            Some("beckon") => {
                cx.emit(Event::Note { text: format!("{} must come toward {}", cx.s.unit(t).id, cx.s.unit(unit).id) });
                move_toward(cx, t, move |_, p| distance(p, ts, here, size));
            }
            // Life & Death: a save, or Taken Out; a success restores every HP.
            Some("life-and-death") => charm_ball::life_and_death(cx, unit, t)?,
            // The Horror Beast's Beckon: as far from the Creep as it can.
            // Plow: the target drops what it carries but its implement.
            Some("plow") => minotaur::drop_carried(cx, t),
            Some("repel") => {
                cx.emit(Event::Note { text: format!("{} must flee from {}", cx.s.unit(t).id, cx.s.unit(unit).id) });
                move_toward(cx, t, move |_, p| -distance(p, ts, here, size));
            }
            Some(_) => crate::rules::creep_tricks::after_hit(cx, unit, def, ai, t)?,
            None => {}
        }
    }
    lost_souls::after_strike(cx, unit, def, ai, t)
}

/// Step 3 (K-CAI-11): a Grabbed Creep tries to escape with a saving throw.
fn recover(cx: &mut Ctx, g: u8) -> Result<(), RuleError> {
    for u in on_map_members(cx.s, g) {
        let grabs: Vec<_> = cx.s.unit(u).statuses.iter().filter(|s| s.kind == StatusKind::Grabbed).copied().collect();
        if !grabs.is_empty() && crate::rules::turn::saving_throw(cx, u, "escaping a grab (Creep recovery)")? {
            for st in grabs {
                cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "escapes (Creep recovery)".into() });
            }
        }
    }
    Ok(())
}

// ------------------------------------------------------------------ group credit (K-SCO-5..9)

/// The team a Take Out by `by` is credited to: an athlete's, or a summon's or trap's owner's.
fn credit_team(s: &State, by: UnitIdx) -> Option<u8> {
    let b = crate::rules::beasts::roller(s, by); // a creature's Tamer
    let b = s.unit(b).placed.as_ref().and_then(|p| p.owner).unwrap_or(b);
    let u = s.unit(b);
    (u.kind == UnitKind::Athlete).then(|| u.side.team()).flatten().map(|t| t as u8)
}

/// A grouped Creep is Taken Out: its group counts it for the taker's team, and credit is given
/// as soon as it is due (K-SCO-5..9).
pub fn creep_taken_out(cx: &mut Ctx, unit: UnitIdx, by: Option<UnitIdx>) {
    let Some(g) = group_of(cx.s, unit) else { return };
    if cx.s.creeps.groups[g as usize].out.iter().any(|o| o.0 == unit) {
        return;
    }
    let team = by.and_then(|b| credit_team(cx.s, b));
    let name = |t: Option<u8>| match t {
        Some(0) => "red",
        Some(_) => "blue",
        None => "no team",
    };
    let text = format!(
        "{} of the {} is defeated for good (counted for {})",
        cx.s.unit(unit).id,
        cx.s.creeps.groups[g as usize].id,
        name(team)
    );
    emit(cx, Change::Out(g, unit, team), text);
    credit(cx, g, by);
}

/// Gives group `g`'s points once due (K-SCO-6..9).
fn credit(cx: &mut Ctx, g: u8, by: Option<UnitIdx>) {
    let grp = &cx.s.creeps.groups[g as usize];
    if grp.credited {
        return;
    }
    let content = cx.s.content.clone();
    let def = |u: u16| &content.creeps()[u as usize];
    // A Creep that joined mid-match (Parent's bird) is no part of the group's credit.
    let own = |u: UnitIdx| !cx.s.creeps.summoned.contains(&u);
    let count = |team: u8, pack: Option<bool>| {
        grp.out
            .iter()
            .filter(|o| o.1 == Some(team) && own(o.0))
            .filter(|o| pack.is_none_or(|p| grp.members.iter().any(|m| m.0 == o.0 && def(m.1).packmaster == p)))
            .count() as i32
    };
    let total = grp.members.iter().filter(|m| own(m.0)).count() as i32;
    let n = cx.s.creeps.n;
    let packmaster = grp.members.iter().find(|m| def(m.1).packmaster).map(|m| m.0);
    let full = (0..2u8).find(|&t| match packmaster {
        // K-SCO-9: the packmaster and at least N more Stooges (2N more Scabs) than the other team.
        Some(pm) => {
            let scabs = grp.members.iter().any(|m| def(m.1).kind == CreepType::Scab);
            let lead = if scabs { 2 * n } else { n };
            grp.out.iter().any(|o| o.0 == pm && o.1 == Some(t))
                && count(t, Some(false)) >= count(1 - t, Some(false)) + lead
        }
        // K-SCO-6, K-SCO-7: all of them; Goons all but 1; Stooges (and Scabs) all but 2.
        None => {
            let spare = match grp.members.first().map(|m| def(m.1).kind) {
                Some(CreepType::Goon) => 1,
                Some(CreepType::Stooge | CreepType::Scab) => 2,
                _ => 0,
            };
            count(t, None) >= (total - spare).max(1)
        }
    });
    let gid = grp.id.clone();
    let all_out = grp.out.iter().filter(|o| own(o.0)).count() as i32 >= total;
    let (red, blue) = (count(0, None), count(1, None));
    let side = |t: u8| if t == 0 { crate::engine::arena::Side::Red } else { crate::engine::arena::Side::Blue };
    if let Some(t) = full {
        emit(cx, Change::Credited(g), format!("full credit for the {gid}"));
        let by = by.filter(|&b| credit_team(cx.s, b) == Some(t));
        crate::rules::scoring::score(cx, side(t), 3, by, format!("full credit for the {gid} (K-SCO-6)"));
    } else if all_out {
        // K-SCO-8: the last one fell with no full credit: 2 to the team that took out more, 1 to
        // the other; 1 each on a draw.
        emit(
            cx,
            Change::Credited(g),
            format!("the last of the {gid} is down: partial credit ({red} red, {blue} blue)"),
        );
        let (r, b) = match red.cmp(&blue) {
            std::cmp::Ordering::Greater => (2, 1),
            std::cmp::Ordering::Less => (1, 2),
            std::cmp::Ordering::Equal => (1, 1),
        };
        crate::rules::scoring::score(cx, side(0), r, None, format!("partial credit for the {gid} (K-SCO-8)"));
        crate::rules::scoring::score(cx, side(1), b, None, format!("partial credit for the {gid} (K-SCO-8)"));
    }
}

// ------------------------------------------------------------------ Miss Triggers (K-CAI-18)

/// Statuses that keep a Creep from its Miss Trigger (K-CAI-18).
const NO_TRIGGER: [StatusKind; 7] = [
    StatusKind::Blinded,
    StatusKind::Distracted,
    StatusKind::Dominated,
    StatusKind::Grabbed,
    StatusKind::Prone,
    StatusKind::Restrained,
    StatusKind::Stunned,
];

/// An attack missed grouped Creep `m.target`: its Miss Trigger answers the attacker, if this is
/// the roll that counts (K-MULTI-4: the one against the strongest Creep among the attack's
/// targets, the first rolled among equals) and no status keeps it from reacting.
pub fn missed(cx: &mut Ctx, m: &crate::engine::hooks::Missed) -> Result<(), RuleError> {
    let (t, attacker) = (m.target, m.attacker);
    if m.evaded {
        return Ok(()); // an Aegis stopped it: no miss the Creep answers (the only way a Creep evades)
    }
    let content = cx.s.content.clone();
    let Some(g) = group_of(cx.s, t) else { return Ok(()) };
    let Some(def) = def_of(cx.s, t).map(|i| &content.creeps()[i as usize]) else { return Ok(()) };
    if def.miss.is_empty() || !joins(cx.s, attacker) || m.evaded {
        return Ok(()); // an evaded roll (a Parry) is no miss the Creep answers
    }
    let strength = |x: UnitIdx| cx.s.creep_def(x).map(|d| d.kind.strength());
    let mut counts: Option<(UnitIdx, i32)> = None;
    for &x in m.targets {
        if let Some(st) = strength(x)
            && counts.is_none_or(|c| st > c.1)
        {
            counts = Some((x, st));
        }
    }
    if counts.is_some_and(|c| c.0 != t) {
        return Ok(()); // K-MULTI-4: another, stronger Creep's roll is the one that counts
    }
    if !cx.s.unit(t).on_map() || !cx.s.unit(attacker).on_map() {
        return Ok(());
    }
    let (cid, vid) = (cx.s.unit(t).id.clone(), cx.s.unit(attacker).id.clone());
    if let Some(k) = NO_TRIGGER.iter().find(|&&k| cx.s.has(t, k)) {
        cx.emit(Event::Note { text: format!("{cid} is {k} and cannot use its Miss Trigger") });
        return Ok(());
    }
    let adjacent = cx.s.distance(t, attacker).is_some_and(|d| d <= 1);
    let power = cx.s.powers.find(&format!("{}-miss-trigger", def.id));
    cx.emit(Event::Note { text: format!("{cid}'s Miss Trigger answers {vid}") });
    let why = format!("{cid}'s Miss Trigger");
    for line in &def.miss {
        if !cx.s.unit(attacker).on_map() || !cx.s.unit(t).on_map() {
            break;
        }
        match line.when.as_deref() {
            Some("adjacent") if !adjacent => continue,
            Some("far") if adjacent => continue,
            _ => {}
        }
        if let Some(d) = line.damage {
            crate::rules::damage::deal(cx, attacker, d, Some(t), &why, None);
        }
        if let Some(p) = power.filter(|_| !line.effect.is_empty() && cx.s.unit(attacker).on_map()) {
            crate::rules::attack::apply_effects(cx, t, attacker, p, &line.effect)?;
        }
        match line.hook.as_deref() {
            Some("opportunity") => {
                let by = line.by.as_deref().unwrap_or_default();
                let taker =
                    on_map_members(cx.s, g).into_iter().find(|&x| cx.s.creep_def(x).is_some_and(|d| d.id == by));
                if let Some(x) = taker {
                    crate::rules::opportunity::take(cx, x, attacker, "a Miss Trigger");
                }
            }
            Some("grab-all") => {
                for x in on_map_members(cx.s, g) {
                    if cx.s.distance(x, attacker) == Some(1) && cx.s.unit(attacker).on_map() {
                        let grab = crate::rules::statuses::Status {
                            kind: StatusKind::Grabbed,
                            amount: 0,
                            source: Some(x),
                            origin: None,
                            duration: crate::rules::statuses::Duration::EscapeEnds,
                        };
                        crate::rules::statuses::give::give_status(cx, attacker, grab, "Miss Trigger");
                    }
                }
            }
            Some("beckon") => {
                let (here, size, vs) = (cx.s.unit(t).pos.unwrap(), cx.s.unit(t).size, cx.s.unit(attacker).size);
                move_toward(cx, attacker, move |_, p| distance(p, vs, here, size));
            }
            Some("charm") => {
                // One of its charms at random: a d6 picks the action.
                let face = cx.d6(None)?;
                if let Some(ai) = def.action_for(face) {
                    cx.emit(Event::Note { text: format!("{} rolls {face}: {}", cx.s.unit(t).id, def.action[ai].name) });
                    if def.action[ai].target != CreepTarget::Myself {
                        strike(cx, t, def, ai, attacker)?;
                    }
                }
            }
            Some(h @ ("steal" | "hide")) => crate::rules::creep_tricks::miss_hook(cx, t, attacker, h),
            Some("chuck") => chuck::miss_chuck(cx, t, attacker)?,
            Some("charge") => minotaur::miss_charge(cx, t, attacker),
            Some("bounty") => {
                let text = format!("a bounty is set on {} (K-SCO-10)", cx.s.unit(attacker).id);
                emit(cx, Change::Bounty(g, attacker), text);
            }
            _ => {}
        }
    }
    Ok(())
}

/// Bounty (the Royal Golem, K-SCO-10): an athlete with bounties on it Taken Out while the
/// golem's group still stands gives the other team a point for each.
fn bounty_paid(cx: &mut Ctx, unit: UnitIdx) {
    for g in 0..cx.s.creeps.groups.len() as u8 {
        let n = cx.s.creeps.groups[g as usize].bounties.iter().filter(|&&b| b == unit).count() as i32;
        if n == 0 {
            continue;
        }
        // Before the golem itself falls: a bird it called does not count.
        let standing = on_map_members(cx.s, g).iter().any(|u| !cx.s.creeps.summoned.contains(u));
        let text = format!("the bounties on {} are settled", cx.s.unit(unit).id);
        emit(cx, Change::BountyPaid(g, unit), text);
        let side = match cx.s.unit(unit).side {
            crate::engine::arena::Side::Red => crate::engine::arena::Side::Blue,
            crate::engine::arena::Side::Blue => crate::engine::arena::Side::Red,
            crate::engine::arena::Side::Neutral => continue,
        };
        if standing {
            let why = format!("the bounty on {} (K-SCO-10)", cx.s.unit(unit).id);
            crate::rules::scoring::score(cx, side, n, None, why);
        }
    }
}

// ------------------------------------------------------------------ auras

/// Aura of Desire and Aura of Fear: an enemy on its group's list leaving (or entering) a square
/// next to the Creep loses 2 HP (no Ward or Resist stops it) and the Creep gains 2 Ward, once
/// a turn.
fn aura(cx: &mut Ctx, e: &crate::engine::hooks::Entered) {
    let mover = e.unit;
    let Some(msize) = cx.s.unit(mover).pos.map(|_| cx.s.unit(mover).size) else { return };
    let (round, turn) = (cx.s.round, cx.s.current());
    for g in 0..cx.s.creeps.groups.len() as u8 {
        if !is_enemy(cx.s, g, mover) {
            continue;
        }
        for c in on_map_members(cx.s, g) {
            let Some(kind) = cx.s.creep_def(c).and_then(|d| d.aura.clone()) else { continue };
            // An earlier aura's damage may have taken this Creep off the map (a Goon's
            // threshold, a felled leader): it reaches nobody then.
            let Some(cp) = cx.s.unit(c).pos else { continue };
            let cs = cx.s.unit(c).size;
            let near = |p: Pos| distance(p, msize, cp, cs) == 1;
            let fires = if kind == "leave" { near(e.from) } else { near(e.to) };
            let used = cx.s.creeps.groups[g as usize].auras.contains(&(c, round, turn));
            if !fires || used || !cx.s.unit(mover).on_map() {
                continue;
            }
            let name = if kind == "leave" { "Aura of Desire" } else { "Aura of Fear" };
            emit(
                cx,
                Change::Aura(g, c, round, turn),
                format!("{}'s {name} reaches {}", cx.s.unit(c).id, cx.s.unit(mover).id),
            );
            crate::rules::damage::deal_unreduced(cx, mover, 2, Some(c), name);
            let ward = cx.s.unit(c).ward + 2;
            cx.emit(Event::WardSet { unit: cx.s.who(c), ward, why: name.into() });
        }
    }
}

// ------------------------------------------------------------------ the Hunter's powers

fn creep_near(s: &State, u: UnitIdx, t: UnitIdx) -> Option<u8> {
    (s.unit(t).kind == UnitKind::Creep && s.distance(u, t).is_some_and(|d| d <= NEAR)).then(|| group_of(s, t)).flatten()
}

/// Players within 5 squares of the Hunter that False Flag could put on group `g`'s list.
fn flag_candidates(s: &State, u: UnitIdx, g: u8) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&p| s.unit(p).kind == UnitKind::Athlete && !is_enemy(s, g, p))
        .filter(|&p| s.distance(u, p).is_some_and(|d| d <= NEAR))
        .collect()
}

/// Checks a target of the Hunter's powers: a Creep of a group within 5 squares; False Flag
/// also needs someone to take off (below level 4) and someone to put on.
pub fn check_target(s: &State, u: UnitIdx, power: u16, t: UnitIdx) -> Result<(), RuleError> {
    let Some(h) = s.powers.get(power).hook.as_deref().filter(|h| HOOKS.contains(h)) else { return Ok(()) };
    let Some(g) = creep_near(s, u, t) else {
        return Err(crate::engine::kit::refuse(h, format_args!("{} is not a Creep of a Creep group", s.unit(t).id)));
    };
    if h == "false-flag" {
        if s.unit(u).level < 4 && s.creeps.groups[g as usize].enemies.is_empty() {
            return Err(crate::engine::kit::refuse(h, "its group's Enemies List is empty: there is nobody to replace"));
        }
        if flag_candidates(s, u, g).is_empty() {
            return Err(crate::engine::kit::refuse(h, "no player within 5 squares could go on its Enemies List"));
        }
    }
    Ok(())
}

/// Whether a Hunter power has any target now (for the menu).
pub fn check_use(s: &State, u: UnitIdx, def: &PowerDef) -> Result<(), RuleError> {
    let Some(h) = def.hook.as_deref().filter(|h| HOOKS.contains(h)) else { return Ok(()) };
    let Some(power) = s.powers.find(&def.id) else { return Ok(()) };
    if s.units_on_map().any(|t| check_target(s, u, power, t).is_ok()) {
        Ok(())
    } else {
        Err(crate::engine::kit::refuse(h, "no Creep of a Creep group within 5 squares that it could work on"))
    }
}

/// Uses a Hunter power on Creep `t` (the action is already spent).
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16, t: UnitIdx) -> Result<(), RuleError> {
    let table = cx.s.powers.clone(); // shared: the power is read, not copied
    let def = table.get(power);
    cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![cx.s.who(t)] });
    let Some(g) = group_of(cx.s, t) else { return Ok(()) };
    let level = cx.s.unit(u).level;
    match def.hook.as_deref() {
        Some("manipulate-creeps") if level >= 4 => {
            let text = format!(
                "{} will nudge the {}' next roll, deciding just before it",
                cx.s.unit(u).id,
                cx.s.creeps.groups[g as usize].id
            );
            emit(cx, Change::Nudged(g, Nudge { hunter: u, amount: None }), text);
        }
        Some("manipulate-creeps") => cx.push(Frame::Creeps(CreepFrame::Manipulate { user: u, g })),
        Some("false-flag") => cx.push(Frame::Creeps(CreepFrame::FlagOut { user: u, g })),
        Some("provocation") => cx.push(Frame::Creeps(CreepFrame::Provoke { user: u, creep: t })),
        _ => {}
    }
    Ok(())
}

/// The decision a Creep frame waits on.
pub fn question(s: &State, f: &CreepFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    let nudge_options =
        || vec![DecisionOption::new("plus", "+1 to the roll"), DecisionOption::new("minus", "-1 to the roll")];
    match f {
        CreepFrame::Nudge { g, index } => {
            let grp = &s.creeps.groups[*g as usize];
            let h = grp.nudges[*index].hunter;
            (
                h,
                "nudge",
                format!("{}: Manipulate Creeps — the {} are about to roll: +1 or -1?", s.unit(h).id, grp.id),
                nudge_options(),
            )
        }
        CreepFrame::Manipulate { user, g } => (
            *user,
            "nudge",
            format!(
                "{}: Manipulate Creeps — +1 or -1 on the {}' next action roll?",
                s.unit(*user).id,
                s.creeps.groups[*g as usize].id
            ),
            nudge_options(),
        ),
        CreepFrame::FlagOut { user, g } => {
            let grp = &s.creeps.groups[*g as usize];
            let mut options: Vec<DecisionOption> =
                grp.enemies.iter().map(|e| crate::rules::actions::unit_option(s, e.unit)).collect();
            if s.unit(*user).level >= 4 || options.is_empty() {
                options.push(DecisionOption::new("none", "take nobody off: only add"));
            }
            (
                *user,
                "target",
                format!("{}: False Flag — whom to take off the {}' Enemies List?", s.unit(*user).id, grp.id),
                options,
            )
        }
        CreepFrame::FlagIn { user, g, .. } => (
            *user,
            "target",
            format!(
                "{}: False Flag — whom to put on the {}' Enemies List?",
                s.unit(*user).id,
                s.creeps.groups[*g as usize].id
            ),
            flag_candidates(s, *user, *g).into_iter().map(|p| crate::rules::actions::unit_option(s, p)).collect(),
        ),
        CreepFrame::Provoke { user, creep } => {
            let mut options: Vec<DecisionOption> = s
                .units_on_map()
                .filter(|&t| t != *creep && s.unit(t).kind != UnitKind::Conjured && !s.hidden_from(t, *creep))
                .filter(|&t| s.unit(t).kind != UnitKind::Creep)
                .map(|t| crate::rules::actions::unit_option(s, t))
                .collect();
            options.push(DecisionOption::new("none", "keep its own priorities"));
            (
                *user,
                "target",
                format!("{}: Provocation — whom does {} go for first?", s.unit(*user).id, s.unit(*creep).id),
                options,
            )
        }
        _ => unreachable!("only decisions are asked"),
    }
}

/// Answers a Creep frame's decision.
pub fn answer(cx: &mut Ctx, f: CreepFrame, option: &str) -> Result<(), RuleError> {
    let amount = if option == "plus" { 1 } else { -1 };
    let unit = |cx: &Ctx, o: &str| cx.s.find_unit(o).ok_or_else(|| RuleError::malformed(format!("no unit {o:?}")));
    match f {
        CreepFrame::Nudge { g, index } => {
            let text = format!("Manipulate Creeps: {:+} on the {}' roll", amount, cx.s.creeps.groups[g as usize].id);
            emit(cx, Change::Decided(g, index, amount), text);
        }
        CreepFrame::Manipulate { user, g } => {
            let text = format!(
                "{} nudges the {}' next roll by {:+}",
                cx.s.unit(user).id,
                cx.s.creeps.groups[g as usize].id,
                amount
            );
            emit(cx, Change::Nudged(g, Nudge { hunter: user, amount: Some(amount) }), text);
        }
        CreepFrame::FlagOut { user, g } => {
            let out = if option == "none" { None } else { Some(unit(cx, option)?) };
            cx.push(Frame::Creeps(CreepFrame::FlagIn { user, g, out }));
        }
        CreepFrame::FlagIn { g, out, .. } => {
            let p = unit(cx, option)?;
            let gid = cx.s.creeps.groups[g as usize].id.clone();
            if let Some(o) = out {
                let text = format!("False Flag: {} comes off the {}' Enemies List", cx.s.unit(o).id, gid);
                emit(cx, Change::Left(g, o), text);
            }
            join(cx, g, p, "False Flag");
        }
        CreepFrame::Provoke { user, creep } => {
            let first = if option == "none" { None } else { Some(unit(cx, option)?) };
            let Some(g) = group_of(cx.s, creep) else { return Ok(()) };
            cx.emit(Event::Note {
                text: format!(
                    "Provocation: {} takes a turn now, Dominated by {}",
                    cx.s.unit(creep).id,
                    cx.s.unit(user).id
                ),
            });
            // K-CSP-4: it rolls its action as usual; its dominator sets whom it goes for first.
            let roll = cx.d6(None)?;
            cx.emit(Event::Note {
                text: format!(
                    "{} of the {} rolls {roll} for its action",
                    cx.s.unit(creep).id,
                    cx.s.creeps.groups[g as usize].id
                ),
            });
            cx.push(Frame::Creeps(CreepFrame::Act { unit: creep, face: roll, first, moves: 2 }));
        }
        other => {
            cx.push(Frame::Creeps(other));
            return Err(RuleError::malformed("that decision cannot be answered"));
        }
    }
    Ok(())
}

/// The Hunter's Creep powers, their use checks, the Creep phase as the round ends (K-CRP-2).
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(HOOKS, |cx, a| use_power(cx, a.unit, a.power, a.targets[0]));
    r.check_use(40, check_use);
    r.check_target(30, |s, u, power, t, _| check_target(s, u, power, t));
    r.on_attack_declared(20, "K-CAI-1", |cx, attacker, targets, _| attacked(cx, attacker, targets)); // hit or miss
    r.on_status_given(5, "K-CAI-1", |cx, target, status| {
        if let Some(src) = status.source.filter(|_| status.kind.is_negative()) {
            provoked(cx, src, target, "it gave them a negative status");
        }
    });
    r.on_damage_dealt(10, "K-CAI-1", |cx, target, source| {
        if let Some(src) = source {
            provoked(cx, src, target, "it dealt them damage");
        }
    });
    r.on_turn(crate::engine::hooks::Trigger::TurnEnding, 40, "K-CAI-1", turn_ended);
    r.on_taken_out(70, "K-SCO-5", |cx, unit, _, by| {
        creep_taken_out(cx, unit, by);
        lost_souls::keeper_down(cx, unit); // the Shades vanish with their Shadekeeper
        if cx.s.creeps.groups.iter().any(|g| !g.bounties.is_empty()) {
            bounty_paid(cx, unit);
        }
    });
    r.on_missed(55, "K-CAI-18", missed);
    r.on_square_entered(60, "creep-auras", |cx, e| {
        if !cx.s.creeps.groups.is_empty() {
            aura(cx, e);
        }
        Ok(())
    });
    r.on_square_entered(61, "moving-cover", |cx, e| {
        if !cx.s.creeps.groups.is_empty() {
            chuck::carried(cx, e);
        }
        Ok(())
    });
    r.on_round(crate::engine::hooks::Trigger::RoundEnds, 20, "K-CRP-2", |cx| {
        Ok(if round_ends(cx) { crate::engine::hooks::Then::Wait } else { crate::engine::hooks::Then::Go })
    });
}
