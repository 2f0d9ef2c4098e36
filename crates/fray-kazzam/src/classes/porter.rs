//! The Porter's lasting marks on the map, the teleports they give and its kinemancy (Porter,
//! L918-1044): warps, which stay until their maker opens a newer one than it may keep (one, two
//! with Warp Specialist), even while it is Taken Out; Scouting Warp's 4-square jump for whoever of
//! its side steps in; Hub Warp's teleports onto it; the Floor Portal's trap; Reinforcements'
//! teleport beside the target; Bend Space's longer reach; objects slid about (Basic Kinemancy's
//! orbs, Ripping Tides' held things, an implement lying where it was slid). The records live in
//! `State::porter` and change only through `Event::Porter`; questions wait on the stack as
//! [`WarpFrame`]s.

pub use crate::content::hooks::{PORTER_EFFECT as EFFECT_HOOKS, PORTER_POWER as POWER_HOOKS};
use crate::content::powers::PowerDef;
use crate::engine::events::Event;
pub use crate::engine::frames::classes::Object;
pub use crate::engine::frames::classes::WarpFrame;
use crate::engine::kit::{Ctx, Flow, Frame};
pub use crate::engine::records::porter::Change;
pub use crate::engine::records::porter::Porter;
pub use crate::engine::records::porter::{Bend, Dropped, Trap, Tunnel, Warp};
use crate::engine::state::{State, UnitIdx};
use crate::rules::forced::{ForcedFrame, ForcedKind};
pub use crate::rules::portals::{
    carried, forced_origin, grab_reach, is_portal, is_tunnel, lift_grab, portal_exit, range_bonus, tunnel_exit,
    vortex_room,
};
pub use crate::rules::query::lifted;
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::{Pos, footprint};
use fray_core::ruleset::RuleError;

/// How far Basic Kinemancy reaches for an orb, and how far it slides it.
const KINEMANCY_REACH: i32 = 5;
const KINEMANCY_SLIDE: i32 = 6;
/// How far Ripping Tides slides what it takes.
const RIP_SLIDE: i32 = 3;

fn emit(cx: &mut Ctx, change: Change, text: String) {
    cx.emit(Event::Porter { change, text });
}

fn name(s: &State, power: u16) -> String {
    s.powers.get(power).name.clone()
}

fn kind(s: &State, w: &Warp) -> String {
    s.powers.get(w.power).id.clone()
}

/// How many warps `u` may keep at once (Warp Specialist: 2).
pub fn limit(s: &State, u: UnitIdx) -> usize {
    if s.has_feature(u, crate::engine::records::features::Feature::WarpSpecialist) { 2 } else { 1 }
}

/// Squares next to `t` where a warp or a trap may open: on the map, open ground (not walls,
/// edges or the arena's portals).
fn beside(s: &State, t: UnitIdx, empty: bool) -> Vec<Pos> {
    let Some(p) = s.unit(t).pos else { return Vec::new() };
    let size = s.unit(t).size;
    s.arena
        .terrain
        .squares()
        .filter(|&q| distance(q, 1, p, size) == 1)
        .filter(|&q| s.arena.at(q).enterable() && s.arena.at(q) != crate::engine::arena::Terrain::Portal)
        .filter(|&q| !empty || s.unit_at(q).is_none())
        .collect()
}

/// Squares `unit` could be teleported to next to `target` (Reinforcements).
fn landing_beside(s: &State, unit: UnitIdx, target: UnitIdx) -> Vec<Pos> {
    let (Some(p), Some(up)) = (s.unit(target).pos, s.unit(unit).pos) else { return Vec::new() };
    let (ts, us) = (s.unit(target).size, s.unit(unit).size);
    s.arena
        .terrain
        .squares()
        .filter(|&q| q != up && distance(q, us, p, ts) == 1 && crate::rules::movement::can_stand(s, unit, q, us))
        .collect()
}

/// Hub warps of `user` that `unit` could be teleported onto.
fn hub_squares(s: &State, user: UnitIdx, unit: UnitIdx) -> Vec<Pos> {
    let Some(up) = s.unit(unit).pos else { return Vec::new() };
    let size = s.unit(unit).size;
    s.porter
        .warps
        .iter()
        .filter(|w| w.owner == user && crate::rules::portals::warp_is(s, w, "hub-warp"))
        .map(|w| w.at)
        .filter(|&q| q != up && crate::rules::movement::can_stand(s, unit, q, size))
        .collect()
}

/// Whether `def` may be used by `u` now: Hub Warp's teleports need a hub warp to go to.
pub fn check_use(s: &State, u: UnitIdx, def: &PowerDef) -> Result<(), RuleError> {
    if def.hook.as_deref() == Some("hub-jump") && hub_squares(s, u, u).is_empty() {
        return Err(crate::engine::kit::refuse(
            "K-FM-5",
            format_args!(
                "{} has no Hub Warp it could teleport onto (none open, or someone stands there)",
                s.unit(u).id
            ),
        ));
    }
    if def.hook.as_deref() == Some("hub-send")
        && !s.porter.warps.iter().any(|w| w.owner == u && crate::rules::portals::warp_is(s, w, "hub-warp"))
    {
        return Err(crate::engine::kit::refuse("K-FM-5", format_args!("{} has no Hub Warp open", s.unit(u).id)));
    }
    if def.hook.as_deref() == Some("short-tunnel") && tunnel_squares(s, u).is_empty() {
        return Err(crate::engine::kit::refuse(
            "K-TER-4",
            format_args!("no empty square of open ground next to {} to open a portal on", s.unit(u).id),
        ));
    }
    if def.hook.as_deref() == Some("kinemancy") && movable_orbs(s, u).is_empty() {
        return Err(crate::engine::kit::refuse(
            "K-ORB-5",
            format_args!(
                "no orb within {KINEMANCY_REACH} squares that {} can see and move (not its own team's, not held by an enemy)",
                s.unit(u).id
            ),
        ));
    }
    Ok(())
}

/// `holder` moved: its Involuntary Lifts on creatures now beyond its implement range end.
pub fn lifts_out_of_range(cx: &mut Ctx, holder: UnitIdx) {
    for v in cx.s.units_on_map().collect::<Vec<_>>() {
        if lift_grab(cx.s, v, holder) && cx.s.distance(holder, v).is_none_or(|d| d > cx.s.implement_range(holder)) {
            let st = cx.s.status_from(v, StatusKind::Grabbed, holder).expect("checked");
            cx.emit(Event::StatusEnded { unit: cx.s.who(v), status: st, why: "out of the Lift's range".into() });
        }
    }
}

/// Whether `t` may be the target of `def` used by `u` (Hub Warp: room on the warp; Involuntary
/// Lift's slide: a creature it holds).
pub fn check_target(s: &State, u: UnitIdx, def: &PowerDef, t: UnitIdx) -> Result<(), RuleError> {
    if def.hook.as_deref() == Some("lift-slide") && !lift_grab(s, t, u) {
        return Err(crate::engine::kit::refuse(
            "K-ST-Grabbed",
            format_args!("{} does not hold {} in an Involuntary Lift", s.unit(u).id, s.unit(t).id),
        ));
    }
    if def.hook.as_deref() == Some("hub-send") && hub_squares(s, u, t).is_empty() {
        return Err(crate::engine::kit::refuse(
            "K-FM-5",
            format_args!("{} cannot be teleported onto {}'s Hub Warp: it is taken", s.unit(t).id, s.unit(u).id),
        ));
    }
    Ok(())
}

/// An Effect hook of this module, for `user`'s `power`, applied to `target` (whose power's own
/// target is `power_target`).
pub fn effect_hook(
    cx: &mut Ctx,
    hook: &str,
    user: UnitIdx,
    target: UnitIdx,
    power_target: UnitIdx,
    power: u16,
) -> Result<(), RuleError> {
    match hook {
        "warp" if cx.s.unit(target).on_map() => {
            cx.push(Frame::Warp(WarpFrame::Place { owner: user, power, target }));
        }
        "reinforce" if cx.s.unit(target).on_map() && cx.s.unit(power_target).on_map() => {
            cx.push(Frame::Warp(WarpFrame::Reinforce { user, ally: target, target: power_target }));
        }
        // Obi Francis's own Ripping Tides teleports the object (L3727; the class power slides it).
        "rip" | "rip-teleport" if cx.s.unit(target).on_map() && !held_objects(cx.s, target).is_empty() => {
            cx.push(Frame::Warp(WarpFrame::Rip { user, target, teleport: hook == "rip-teleport" }));
        }
        "bend-space" if cx.s.unit(target).on_map() => {
            let ends_after_turn = cx.s.unit(user).turns_started + 1;
            let text = format!(
                "{} bends space around {}: attacks on it by {} and allies reach 5 farther",
                cx.s.unit(user).id,
                cx.s.unit(target).id,
                cx.s.unit(user).id
            );
            emit(cx, Change::Bent(Bend { user, target, ends_after_turn }), text);
        }
        _ => {}
    }
    Ok(())
}

/// A hook power (Hub Warp's teleports).
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16, targets: &[UnitIdx]) -> Result<(), RuleError> {
    let def = cx.s.powers.get(power).clone();
    if def.hook.as_deref() == Some("kinemancy") {
        cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![] });
        cx.push(Frame::Warp(WarpFrame::Item { user: u }));
        return Ok(());
    }
    if def.hook.as_deref() == Some("short-tunnel") {
        cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![] });
        cx.push(Frame::Warp(WarpFrame::TunnelPlace { user: u }));
        return Ok(());
    }
    if def.hook.as_deref() == Some("lift-slide") {
        let t = targets[0];
        cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![cx.s.who(t)] });
        cx.push(Frame::Forced(ForcedFrame::new(cx.s, u, t, ForcedKind::Slide, 3)));
        return Ok(());
    }
    let unit = if def.hook.as_deref() == Some("hub-send") { targets[0] } else { u };
    cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![cx.s.who(unit)] });
    let squares = hub_squares(cx.s, u, unit);
    match squares[..] {
        [q] => teleport(cx, u, unit, q),
        _ => {
            cx.push(Frame::Warp(WarpFrame::Hub { user: u, unit }));
            Ok(())
        }
    }
}

/// Teleports `unit` to `q` as `mover`'s teleport (K-FM-5).
fn teleport(cx: &mut Ctx, mover: UnitIdx, unit: UnitIdx, q: Pos) -> Result<(), RuleError> {
    crate::rules::forced::teleport_to(cx, mover, unit, q)
}

/// Opens a warp for `owner` at `q`, closing its oldest ones beyond what it may keep.
fn open_warp(cx: &mut Ctx, owner: UnitIdx, power: u16, q: Pos) {
    let keep = limit(cx.s, owner);
    loop {
        let mine: Vec<usize> =
            cx.s.porter.warps.iter().enumerate().filter(|(_, w)| w.owner == owner).map(|(i, _)| i).collect();
        if mine.len() < keep {
            break;
        }
        let i = mine[0];
        let at = cx.s.porter.warps[i].at;
        let text = format!("{}'s {} at {at} closes", cx.s.unit(owner).id, name(cx.s, cx.s.porter.warps[i].power));
        emit(cx, Change::WarpClosed(i), text);
        // Creatures a vortex had drawn together spread to the nearest free squares.
        for u in cx.s.units_on_map().filter(|&u| cx.s.unit(u).pos == Some(at)).collect::<Vec<_>>() {
            crate::rules::movement::settle_on_legal_square(cx, u, "is thrown clear of the closing vortex");
        }
    }
    let text = format!("{} opens a warp ({}) at {q}", cx.s.unit(owner).id, name(cx.s, power));
    emit(cx, Change::WarpOpened(Warp { owner, power, at: q }), text);
}

fn open_trap(cx: &mut Ctx, owner: UnitIdx, power: u16, q: Pos) {
    let ends_after_turn = cx.s.unit(owner).turns_started + 1;
    let text = format!("{} opens a portal trap on the floor at {q}", cx.s.unit(owner).id);
    emit(cx, Change::TrapOpened(Trap { owner, power, at: q, ends_after_turn }), text);
}

/// Floor Portal's Special on a hit: the trap opens where the target stands (before the Effect
/// moves it).
pub fn on_hit(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx, def: &PowerDef) {
    if def.id == "floor-portal"
        && let Some(p) = cx.s.unit(target).pos
    {
        let power = cx.s.powers.find(&def.id).expect("a known power");
        open_trap(cx, attacker, power, p);
    }
}

/// Floor Portal's Special on a miss: the trap opens on an empty square next to the target.
pub fn on_miss(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx, def: &PowerDef) {
    if def.id == "floor-portal" && !beside(cx.s, target, true).is_empty() {
        let power = cx.s.powers.find(&def.id).expect("a known power");
        cx.push(Frame::Warp(WarpFrame::TrapPlace { owner: attacker, power, target }));
    }
}

/// `unit` moved from `from` to `to` (any way): a Scouting Warp of its side offers its jump, a
/// Floor Portal trap swallows it (Flying creatures pass over the floor).
pub fn entered(cx: &mut Ctx, unit: UnitIdx, from: Pos, to: Pos, by: Option<UnitIdx>) {
    if !cx.s.unit(unit).on_map() || !crate::rules::summons::movable(cx.s.unit(unit)) {
        return;
    }
    retrieve(cx, unit); // Ripping Tides
    lifts_out_of_range(cx, unit); // Involuntary Lift holds only within implement range
    let size = cx.s.unit(unit).size;
    let comes_in = |q: Pos| footprint(to, size).any(|x| x == q) && !footprint(from, size).any(|x| x == q);
    let scouts: Vec<UnitIdx> = cx
        .s
        .porter
        .warps
        .iter()
        .filter(|w| {
            crate::rules::portals::warp_is(cx.s, w, "scouting-warp") && comes_in(w.at) && !cx.s.enemies(w.owner, unit)
        })
        .map(|w| w.owner)
        .collect();
    if let Some(&owner) = scouts.first() {
        cx.push(Frame::Warp(WarpFrame::Scout { unit, owner }));
    }
    // Vortex Warp: an enemy its Porter pulls (or otherwise forces) into the centre.
    let vortices: Vec<(UnitIdx, u16, Pos)> =
        cx.s.porter
            .warps
            .iter()
            .filter(|w| {
                crate::rules::portals::warp_is(cx.s, w, "vortex-warp")
                    && comes_in(w.at)
                    && by == Some(w.owner)
                    && cx.s.enemies(w.owner, unit)
            })
            .map(|w| (w.owner, w.power, w.at))
            .collect();
    for (owner, power, at) in vortices {
        vortex_damage(cx, unit, owner, power, at, "pulled into");
    }
    if cx.s.has(unit, StatusKind::Flying) {
        return;
    }
    let traps: Vec<(UnitIdx, u16)> =
        cx.s.porter.traps.iter().filter(|t| comes_in(t.at)).map(|t| (t.owner, t.power)).collect();
    if let Some(&(owner, power)) = traps.first() {
        cx.push(Frame::Warp(WarpFrame::Swallow { unit, owner, power }));
    }
}

/// A Vortex Warp's centre hurts `unit`: 2, and 1 more for each other enemy of its Porter there.
fn vortex_damage(cx: &mut Ctx, unit: UnitIdx, owner: UnitIdx, power: u16, at: Pos, how: &str) {
    if !cx.s.unit(unit).on_map() {
        return;
    }
    let others =
        cx.s.units_on_map()
            .filter(|&o| {
                o != unit
                    && cx.s.enemies(owner, o)
                    && cx.s.unit(o).pos.is_some_and(|p| distance(p, cx.s.unit(o).size, at, 1) == 0)
            })
            .count() as i32;
    let why = format!("{}, {how} its centre", name(cx.s, power));
    crate::rules::damage::deal(cx, unit, 2 + others, Some(owner), &why, None);
}

/// Whether several creatures of one layer (flying or not; flyers and walkers share squares
/// anyway) may stand on square `p`: a Vortex Warp's centre holding its Porter's enemies.
pub fn shared_square_allowed(s: &State, p: Pos, flying: bool) -> bool {
    s.porter.warps.iter().any(|w| {
        w.at == p
            && crate::rules::portals::warp_is(s, w, "vortex-warp")
            && s.units_on_map()
                // A riding Pest fills no square of its own (pest.rs): it is no one sharing it.
                .filter(|&o| crate::rules::summons::occupies(s.unit(o)))
                .filter(|&o| s.unit(o).pos == Some(p) && s.has(o, StatusKind::Flying) == flying)
                .all(|o| s.enemies(w.owner, o))
    })
}

/// The end of a round: each Vortex Warp pulls its Porter's enemies within 5 squares of it up to
/// 2 squares toward it, the Porter choosing the squares. Returns whether pulls were queued
/// (above a fresh `NextTurn`, which then ends the round).
pub fn round_ends(cx: &mut Ctx) -> bool {
    if cx.s.porter.pulled_round == cx.s.round {
        return false;
    }
    let mut pulls: Vec<(UnitIdx, UnitIdx, Pos)> = Vec::new();
    for w in cx.s.porter.warps.iter().filter(|w| crate::rules::portals::warp_is(cx.s, w, "vortex-warp")) {
        let mut near: Vec<(i32, UnitIdx)> =
            cx.s.units_on_map()
                .filter(|&e| cx.s.enemies(w.owner, e) && crate::rules::summons::movable(cx.s.unit(e)))
                .filter_map(|e| {
                    let u = cx.s.unit(e);
                    let d = distance(u.pos?, u.size, w.at, 1);
                    (1..=5).contains(&d).then_some((d, e))
                })
                .collect();
        near.sort();
        pulls.extend(near.into_iter().map(|(_, e)| (w.owner, e, w.at)));
    }
    if pulls.is_empty() {
        return false;
    }
    let round = cx.s.round;
    emit(cx, Change::Pulled(round), "the vortex warps pull".into());
    cx.push(Frame::NextTurn);
    for (owner, e, at) in pulls.into_iter().rev() {
        let mut f = ForcedFrame::new(cx.s, owner, e, ForcedKind::Pull, 2);
        f.origin = at;
        cx.push(Frame::Forced(f));
    }
    true
}

/// Frames this module pushed while a move or forced movement entered a square sit below that
/// movement's own frame once it is pushed back: they are lifted above it, so that they resolve
/// before it goes on (from `mark`, the stack's height before the square was entered).
pub fn lift(cx: &mut Ctx, mark: usize) {
    let flow = &mut cx.s.flow;
    if flow.len() < mark + 2 {
        return;
    }
    let top = flow.len() - 1;
    let mut lifted = Vec::new();
    let mut i = mark;
    while i < top - lifted.len() {
        if matches!(flow[i], Frame::Warp(_)) {
            lifted.push(flow.remove(i));
        } else {
            i += 1;
        }
    }
    flow.extend(lifted.into_iter().rev());
}

/// A teleport took `unit` out of the movement under way: what was left of it is dropped.
fn cut_below(cx: &mut Ctx, unit: UnitIdx) {
    match cx.s.flow.last_mut() {
        Some(Frame::Move(m)) if m.unit == unit => m.path.truncate(m.next),
        Some(Frame::Forced(f)) if f.target == unit => {
            f.remaining = 0;
            f.safety = None;
        }
        _ => {}
    }
}

/// Advances a frame: questions wait, a trap's swallow resolves at once.
pub fn step(cx: &mut Ctx, f: WarpFrame) -> Result<Flow, RuleError> {
    match f {
        WarpFrame::Swallow { unit, owner, power } => {
            if !cx.s.unit(unit).on_map() {
                return Ok(Flow::Continue);
            }
            if (crate::engine::hooks::specialists(cx.s).evades_trap)(cx, unit, "the portal trap")? {
                return Ok(Flow::Continue); // a Trapper's or Self-Lift's save: nothing happens to it
            }
            cut_below(cx, unit);
            cx.emit(Event::Note {
                text: format!("{} falls into {}'s portal trap", cx.s.unit(unit).id, cx.s.unit(owner).id),
            });
            // The Effect again, the trap's Porter choosing the square; its own side stays up.
            cx.push(Frame::Forced(ForcedFrame::new(cx.s, owner, unit, ForcedKind::Teleport, 3)));
            if cx.s.enemies(owner, unit) {
                let status = Status {
                    kind: StatusKind::Prone,
                    amount: 0,
                    source: Some(owner),
                    origin: Some(power),
                    duration: Duration::Indefinite,
                };
                crate::rules::statuses::give::give_status(cx, unit, status, &name(cx.s, power));
            }
            Ok(Flow::Continue)
        }
        f => {
            if options(cx.s, &f).is_empty() {
                return Ok(Flow::Continue);
            }
            cx.push(Frame::Warp(f));
            Ok(Flow::Wait)
        }
    }
}

fn options(s: &State, f: &WarpFrame) -> Vec<DecisionOption> {
    let squares = |v: Vec<Pos>, what: &str| -> Vec<DecisionOption> {
        v.into_iter().map(|q| DecisionOption::square(q, format!("{what} {q}"))).collect()
    };
    match *f {
        WarpFrame::Place { target, .. } if s.unit(target).on_map() => squares(beside(s, target, false), "open it at"),
        WarpFrame::TrapPlace { target, .. } if s.unit(target).on_map() => {
            squares(beside(s, target, true), "open it at")
        }
        WarpFrame::Scout { unit, .. } if s.unit(unit).on_map() => {
            crate::rules::forced::teleport_options(s, unit, unit, 4)
        }
        WarpFrame::Reinforce { ally, target, .. } => squares(landing_beside(s, ally, target), "teleport it to"),
        WarpFrame::Hub { user, unit } => squares(hub_squares(s, user, unit), "teleport onto the warp at"),
        WarpFrame::TunnelPlace { user } => squares(tunnel_squares(s, user), "open a portal at"),
        WarpFrame::TunnelClose { user, .. } => {
            squares(s.porter.tunnels.iter().filter(|t| t.owner == user).map(|t| t.at).collect(), "close the portal at")
        }
        WarpFrame::TunnelStep { user, portal } => {
            let mut out = squares(tunnel_landings(s, user, portal), "step through, out at");
            out.push(DecisionOption::new("stay", "stay on this side"));
            out
        }
        WarpFrame::Item { user } => movable_orbs(s, user)
            .into_iter()
            .map(|o| DecisionOption::new(s.orbs[o as usize].id.to_string(), format!("orb {}", s.orbs[o as usize].id)))
            .collect(),
        WarpFrame::Rip { target, .. } => held_objects(s, target)
            .into_iter()
            .map(|o| match o {
                Object::Orb(o) => {
                    DecisionOption::new(s.orbs[o as usize].id.to_string(), format!("orb {}", s.orbs[o as usize].id))
                }
                Object::Implement(_) => DecisionOption::new("implement", "its implement"),
            })
            .collect(),
        WarpFrame::Slide { from, range, teleport: false, .. } => squares(slide_squares(s, from, range), "slide it to"),
        WarpFrame::Slide { from, range, teleport: true, .. } => {
            squares(teleport_squares(s, from, range), "teleport it to")
        }
        WarpFrame::Hold { .. } => vec![
            DecisionOption::new("hold", "take the orb in hand"),
            DecisionOption::new("leave", "leave it on the ground"),
        ],
        _ => Vec::new(),
    }
}

/// Where an object starts a slide: an orb's square or its carrier's; an implement's owner's.
fn object_square(s: &State, what: Object) -> Option<Pos> {
    match what {
        Object::Orb(o) => match s.orbs[o as usize].loc {
            crate::engine::state::OrbLoc::Held { by } => s.unit(by).pos,
            _ => crate::rules::orbs::orb_square(s, o),
        },
        Object::Implement(u) => s.unit(u).pos,
    }
}

/// Orbs Basic Kinemancy may take: within reach and in sight of `u`, not its own team's (K-ORB-5),
/// not carried by an enemy, with somewhere to go.
fn movable_orbs(s: &State, u: UnitIdx) -> Vec<crate::engine::state::OrbIdx> {
    let Some(up) = s.unit(u).pos else { return Vec::new() };
    let size = s.unit(u).size;
    (0..s.orbs.len() as crate::engine::state::OrbIdx)
        .filter(|&o| s.orbs[o as usize].color != s.unit(u).side)
        .filter(|&o| !matches!(s.orbs[o as usize].loc, crate::engine::state::OrbLoc::Held { by } if s.enemies(u, by)))
        .filter(|&o| {
            object_square(s, Object::Orb(o)).is_some_and(|p| {
                distance(up, size, p, 1) <= KINEMANCY_REACH
                    && fray_core::sight::sight(up, size, p, 1, |q| blocks_sight(s, q))
                        != fray_core::sight::Sight::Blocked
                    && !slide_squares(s, p, KINEMANCY_SLIDE).is_empty()
            })
        })
        .collect()
}

fn blocks_sight(s: &State, q: Pos) -> bool {
    s.arena.at(q).blocks_sight() || crate::rules::summons::wall_at(s, q)
}

/// What `t` holds that Ripping Tides can take: its orbs, and its implement unless stowed.
fn held_objects(s: &State, t: UnitIdx) -> Vec<Object> {
    let mut out: Vec<Object> = s.held_orbs(t).map(Object::Orb).collect();
    let u = s.unit(t);
    if u.implement != crate::engine::state::Implement::None
        && !u.stowed
        && !s.porter.dropped.iter().any(|d| d.owner == t)
    {
        out.push(Object::Implement(t));
    }
    out.retain(|&o| object_square(s, o).is_some_and(|p| !slide_squares(s, p, RIP_SLIDE).is_empty()));
    out
}

/// Squares an object slid from `from` may end on: up to `range` steps over open ground (walls
/// stop it, creatures do not), never on a pedestal.
fn slide_squares(s: &State, from: Pos, range: i32) -> Vec<Pos> {
    let open = |q: Pos| open_ground(s, q);
    let reach = fray_core::geometry::reachable(
        s.arena.terrain.width(),
        s.arena.terrain.height(),
        from,
        range as u32,
        |p, out| {
            for q in p.neighbours() {
                if open(q) {
                    out.push((q, 1));
                }
            }
        },
    );
    reach.squares().filter(|q| !s.arena.pedestals.iter().any(|p| p.at == *q)).collect()
}

/// Open ground an object may lie on: no wall, no blocking terrain, not the map's edge.
fn open_ground(s: &State, q: Pos) -> bool {
    let t = s.arena.at(q);
    t.enterable() && t != crate::engine::arena::Terrain::Edge && !crate::rules::summons::wall_at(s, q)
}

/// Squares an object teleported from `from` may land on: open ground up to `range` squares away,
/// whatever lies between, never a pedestal (Obi Francis's Ripping Tides, L3727).
fn teleport_squares(s: &State, from: Pos, range: i32) -> Vec<Pos> {
    s.arena
        .terrain
        .squares()
        .filter(|&q| q != from && distance(from, 1, q, 1) <= range && open_ground(s, q))
        .filter(|q| !s.arena.pedestals.iter().any(|p| p.at == *q))
        .collect()
}

/// The decision a frame waits on: who answers, its kind, prompt and options.
pub fn question(s: &State, f: &WarpFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    let id = |u: UnitIdx| s.unit(u).id.to_string();
    let (who, prompt) = match *f {
        WarpFrame::Place { owner, power, target } => {
            (owner, format!("{}: {} — open the warp next to {}", id(owner), name(s, power), id(target)))
        }
        WarpFrame::TrapPlace { owner, target, .. } => (
            owner,
            format!("{}: Floor Portal missed — open the trap on an empty square next to {}", id(owner), id(target)),
        ),
        WarpFrame::Scout { unit, owner } => {
            (unit, format!("{}: {}'s Scouting Warp — teleport up to 4 squares, or stay", id(unit), id(owner)))
        }
        WarpFrame::Swallow { unit, .. } => (unit, String::new()),
        WarpFrame::Reinforce { user, ally, target } => {
            (user, format!("{}: Reinforcements — teleport {} next to {}", id(user), id(ally), id(target)))
        }
        WarpFrame::Hub { user, unit } => {
            (user, format!("{}: Hub Warp — onto which warp does {} go?", id(user), id(unit)))
        }
        WarpFrame::TunnelPlace { user } => (user, format!("{}: Short Tunnel — open a portal next to you", id(user))),
        WarpFrame::TunnelClose { user, .. } => {
            (user, format!("{}: Short Tunnel — two are open already: which one closes?", id(user)))
        }
        WarpFrame::TunnelStep { user, .. } => {
            (user, format!("{}: Short Tunnel — step through the portal now?", id(user)))
        }
        WarpFrame::Item { user } => {
            return (user, "kinemancy", format!("{}: Basic Kinemancy — which orb?", id(user)), options(s, f));
        }
        WarpFrame::Rip { user, target, .. } => {
            let prompt = format!("{}: Ripping Tides — take what from {}?", id(user), id(target));
            return (user, "kinemancy", prompt, options(s, f));
        }
        WarpFrame::Slide { user, range, teleport, .. } => {
            let how = if teleport { "teleport" } else { "slide" };
            (user, format!("{}: {how} it up to {range} squares", id(user)))
        }
        WarpFrame::Hold { holder, orb } => {
            let prompt = format!("{}: the orb {} comes to you — take it in hand?", id(holder), s.orbs[orb as usize].id);
            return (holder, "kinemancy", prompt, options(s, f));
        }
    };
    (who, "square", prompt, options(s, f))
}

/// Answers a frame's decision.
pub fn answer(cx: &mut Ctx, f: WarpFrame, option: &str) -> Result<(), RuleError> {
    if option == "stay" {
        return Ok(());
    }
    match f {
        WarpFrame::Item { user } => {
            let o = cx.s.find_orb(option).ok_or_else(|| RuleError::malformed(format!("no orb {option:?}")))?;
            let from = object_square(cx.s, Object::Orb(o)).expect("offered");
            cx.push(Frame::Warp(WarpFrame::Slide {
                user,
                what: Object::Orb(o),
                from,
                range: KINEMANCY_SLIDE,
                teleport: false,
            }));
            return Ok(());
        }
        WarpFrame::Rip { user, target, teleport } => {
            let what = if option == "implement" {
                Object::Implement(target)
            } else {
                Object::Orb(cx.s.find_orb(option).ok_or_else(|| RuleError::malformed(format!("no orb {option:?}")))?)
            };
            let from = object_square(cx.s, what).expect("offered");
            cx.push(Frame::Warp(WarpFrame::Slide { user, what, from, range: RIP_SLIDE, teleport }));
            return Ok(());
        }
        WarpFrame::Hold { holder, orb } => {
            if option == "hold" {
                crate::rules::orbs::pick_up(cx, holder, orb);
            }
            return Ok(());
        }
        _ => {}
    }
    let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
    match f {
        WarpFrame::Place { owner, power, .. } => open_warp(cx, owner, power, q),
        WarpFrame::TrapPlace { owner, power, .. } => open_trap(cx, owner, power, q),
        WarpFrame::Scout { unit, owner } => {
            cut_below(cx, unit);
            let mark = cx.s.flow.len();
            teleport(cx, owner, unit, q)?;
            // The warp's own jump does not set off another warp's.
            let mut i = mark;
            while i < cx.s.flow.len() {
                if matches!(cx.s.flow[i], Frame::Warp(WarpFrame::Scout { unit: x, .. }) if x == unit) {
                    cx.s.flow.remove(i);
                } else {
                    i += 1;
                }
            }
        }
        WarpFrame::Reinforce { user, ally, .. } => teleport(cx, user, ally, q)?,
        WarpFrame::Hub { user, unit } => teleport(cx, user, unit, q)?,
        WarpFrame::Slide { user, what, teleport, .. } => slide(cx, user, what, q, teleport),
        WarpFrame::TunnelPlace { user } => {
            if cx.s.porter.tunnels.iter().filter(|t| t.owner == user).count() >= 2 {
                cx.push(Frame::Warp(WarpFrame::TunnelClose { user, new: q }));
            } else {
                open_tunnel(cx, user, q);
            }
        }
        WarpFrame::TunnelClose { user, new } => {
            if let Some(i) = cx.s.porter.tunnels.iter().position(|t| t.owner == user && t.at == q) {
                emit(cx, Change::TunnelClosed(i), format!("the portal at {q} closes"));
            }
            open_tunnel(cx, user, new);
        }
        WarpFrame::TunnelStep { user, .. } => {
            // Through the portal: a one-square walk that comes out by the other end (K-TER-4).
            cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(
                user,
                vec![q],
                crate::engine::events::How::Walk,
            )));
        }
        _ => {}
    }
    Ok(())
}

/// Squares next to `u` where Short Tunnel may open a portal: open ground, no creature, no
/// portal, warp or trap already, not a pedestal.
fn tunnel_squares(s: &State, u: UnitIdx) -> Vec<Pos> {
    beside(s, u, true)
        .into_iter()
        .filter(|&q| !is_portal(s, q) && !s.arena.pedestals.iter().any(|p| p.at == q))
        .filter(|&q| !s.porter.warps.iter().any(|w| w.at == q) && !s.porter.traps.iter().any(|t| t.at == q))
        .collect()
}

/// Where `u` comes out stepping into the portal at `portal`: next to its other end.
fn tunnel_landings(s: &State, u: UnitIdx, portal: Pos) -> Vec<Pos> {
    let Some(other) = tunnel_exit(s, portal) else { return Vec::new() };
    if s.unit(u).size != 1 || !s.unit(u).on_map() {
        return Vec::new();
    }
    other
        .neighbours()
        .into_iter()
        .filter(|&r| !is_portal(s, r) && crate::rules::movement::can_stand(s, u, r, 1))
        .collect()
}

fn open_tunnel(cx: &mut Ctx, user: UnitIdx, q: Pos) {
    let text = format!("{} opens a portal at {q}", cx.s.unit(user).id);
    emit(cx, Change::TunnelOpened(Tunnel { owner: user, at: q }), text);
    if !tunnel_landings(cx.s, user, q).is_empty() {
        cx.push(Frame::Warp(WarpFrame::TunnelStep { user, portal: q }));
    }
}

/// Forced movement through a Short Tunnel (K-FM-3, K-FM-4): squares beside the far end that a
/// push, pull or slide entering the portal next to the target may take it to. Distances are
/// then measured from the far side: the mover's square is carried through the tunnel.
pub fn forced_through(s: &State, f: &ForcedFrame, size: i32) -> Vec<Pos> {
    let Some(p) = s.unit(f.target).pos else { return Vec::new() };
    if size != 1 || f.remaining < 1 {
        return Vec::new();
    }
    let ms = s.unit(f.mover).size;
    let mut out = Vec::new();
    for q in p.neighbours() {
        let Some(other) = tunnel_exit(s, q) else { continue };
        // K-FM-1..3: the step into the portal keeps to the push, pull or slide.
        let into = f.kind.stepwise().is_none_or(|k| k.step_ok(p, q, 1, f.origin, ms));
        if !into {
            continue;
        }
        let o = carried(f.origin, q, other);
        for r in other.neighbours() {
            let on = f.kind.stepwise().is_none_or(|k| k.step_ok(other, r, 1, o, ms));
            if on && !is_portal(s, r) && crate::rules::movement::can_stand(s, f.target, r, 1) && !out.contains(&r) {
                out.push(r);
            }
        }
    }
    out
}

/// Slides an object to `q`: an orb lands on the ground there (and may be taken in hand by the
/// Porter or an ally standing there, after Basic Kinemancy); an implement leaves its owner
/// Disarmed (Ripping Tides). `teleport`: it goes there without crossing what lies between.
fn slide(cx: &mut Ctx, user: UnitIdx, what: Object, q: Pos, teleport: bool) {
    let how = if teleport { "teleported" } else { "slid" };
    match what {
        Object::Orb(o) => {
            let id = cx.s.orbs[o as usize].id.to_string();
            let ripped = matches!(cx.s.orbs[o as usize].loc, crate::engine::state::OrbLoc::Held { by } if cx.s.enemies(user, by));
            cx.emit(Event::OrbMoved {
                orb: id,
                idx: o,
                to: crate::engine::state::OrbLoc::Ground { at: q },
                why: format!("{how} by {} to {q}", cx.s.unit(user).id),
            });
            if ripped {
                return;
            }
            let holder = cx.s.units_on_map().find(|&h| {
                !cx.s.enemies(user, h)
                    && cx.s.unit(h).pos.is_some_and(|p| distance(p, cx.s.unit(h).size, q, 1) == 0)
                    && crate::rules::summons::holds_orbs(cx.s.unit(h))
                    && cx.s.orbs[o as usize].color != cx.s.unit(h).side
                    && crate::rules::orbs::free_hands(cx.s, h) > 0
            });
            if let Some(holder) = holder {
                cx.push(Frame::Warp(WarpFrame::Hold { holder, orb: o }));
            }
        }
        Object::Implement(t) => {
            let text = format!("{}'s implement is {how} to {q}", cx.s.unit(t).id);
            emit(cx, Change::Dropped(Dropped { owner: t, at: q }), text);
            let power = cx.s.powers.find("ripping-tides");
            let status = Status {
                kind: StatusKind::Disarmed,
                amount: 0,
                source: Some(user),
                origin: power,
                duration: Duration::Indefinite,
            };
            crate::rules::statuses::give::give_status(cx, t, status, "Ripping Tides");
        }
    }
}

/// An implement slid away comes back to its owner when it stands in or next to its square
/// after moving (or when it is off the map: it respawns armed).
fn retrieve(cx: &mut Ctx, unit: UnitIdx) {
    let Some(i) = cx.s.porter.dropped.iter().position(|d| d.owner == unit) else { return };
    let at = cx.s.porter.dropped[i].at;
    let rip = cx.s.powers.find("ripping-tides");
    let ending: Vec<Status> =
        cx.s.unit(unit)
            .statuses
            .iter()
            .filter(|st| st.kind == StatusKind::Disarmed && st.duration == Duration::Indefinite && st.origin == rip)
            .copied()
            .collect();
    let u = cx.s.unit(unit);
    // Taken Out since (its statuses gone), it came back armed.
    let back = ending.is_empty() || u.pos.is_none_or(|p| distance(p, u.size, at, 1) <= 1);
    if !back {
        return;
    }
    let text = format!("{} takes its implement back", u.id);
    emit(cx, Change::Retrieved(i), text);
    for st in ending {
        cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why: "took its implement back".into() });
    }
}

/// As `unit`'s turn ends: a Bend Space target beside its Porter lets the Porter teleport 2; the
/// Floor Portal traps and Bend Space marks of `unit` that last until now end.
pub fn end_of_turn(cx: &mut Ctx, unit: UnitIdx) {
    let turn = cx.s.unit(unit).turns_started;
    let hops: Vec<UnitIdx> =
        cx.s.porter
            .bends
            .iter()
            .filter(|b| b.target == unit && cx.s.distance(b.user, unit) == Some(1))
            .map(|b| b.user)
            .collect();
    for i in (0..cx.s.porter.traps.len()).rev() {
        let t = &cx.s.porter.traps[i];
        if t.owner == unit && t.ends_after_turn <= turn {
            let text = format!("the portal trap at {} closes", t.at);
            emit(cx, Change::TrapClosed(i), text);
        }
    }
    for i in (0..cx.s.porter.bends.len()).rev() {
        let b = &cx.s.porter.bends[i];
        if b.user == unit && b.ends_after_turn <= turn {
            let text = format!("space around {} unbends", cx.s.unit(b.target).id);
            emit(cx, Change::BendEnded(i), text);
        }
    }
    let centres: Vec<(UnitIdx, u16, Pos)> =
        cx.s.porter
            .warps
            .iter()
            .filter(|w| {
                crate::rules::portals::warp_is(cx.s, w, "vortex-warp")
                    && cx.s.enemies(w.owner, unit)
                    && cx.s.unit(unit).pos == Some(w.at)
            })
            .map(|w| (w.owner, w.power, w.at))
            .collect();
    for (owner, power, at) in centres {
        vortex_damage(cx, unit, owner, power, at, "ends its turn in");
    }
    for user in hops {
        if cx.s.unit(user).on_map() {
            cx.emit(Event::Note {
                text: format!("{} ends its turn next to {}: Bend Space", cx.s.unit(unit).id, cx.s.unit(user).id),
            });
            cx.push(Frame::TeleportSelf { unit: user, range: 2 });
        }
    }
}

/// The view's `tunnels` list.
pub fn view_tunnels(s: &State) -> serde_json::Value {
    s.porter
        .tunnels
        .iter()
        .map(|t| serde_json::json!({ "owner": s.unit(t.owner).id.to_string(), "at": t.at }))
        .collect()
}

/// The view's `warps`, `portal_traps` and `dropped_implements` lists.
pub fn view(s: &State) -> (serde_json::Value, serde_json::Value, serde_json::Value) {
    let warps = s
        .porter
        .warps
        .iter()
        .map(|w| serde_json::json!({ "owner": s.unit(w.owner).id.to_string(), "power": kind(s, w), "at": w.at }))
        .collect();
    let traps = s
        .porter
        .traps
        .iter()
        .map(|t| serde_json::json!({ "owner": s.unit(t.owner).id.to_string(), "at": t.at }))
        .collect();
    let dropped = s
        .porter
        .dropped
        .iter()
        .map(|d| serde_json::json!({ "owner": s.unit(d.owner).id.to_string(), "at": d.at }))
        .collect();
    (serde_json::Value::Array(warps), serde_json::Value::Array(traps), serde_json::Value::Array(dropped))
}

pub mod removal;
pub mod warp_origin;

/// What the Porter adds to the core rules: its power and Effect hooks, its use checks, a Floor
/// Portal trap on a miss, the Vortex Warps' pull as the round ends.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(POWER_HOOKS, |cx, a| use_power(cx, a.unit, a.power, a.targets));
    r.effect_hooks(EFFECT_HOOKS, |cx, e| effect_hook(cx, e.hook, e.user, e.target, e.power_target, e.power));
    r.check_use(50, check_use);
    r.on_square_entered(40, "scouting-warp", |cx, e| {
        entered(cx, e.unit, e.from, e.to, e.by); // and Floor Portal, Vortex Warp
        Ok(())
    });
    r.on_turn(crate::engine::hooks::Trigger::TurnEnded, 20, "floor-portal", end_of_turn); // and Bend Space
    r.on_missed(80, "floor-portal", |cx, m| {
        on_miss(cx, m.attacker, m.target, m.def);
        Ok(())
    });
    r.on_round(crate::engine::hooks::Trigger::RoundEnds, 10, "vortex-warp", |cx| {
        Ok(if round_ends(cx) { crate::engine::hooks::Then::Wait } else { crate::engine::hooks::Then::Go })
    });
    r.warps(crate::engine::hooks::Warps { check_target, on_hit, lift, forced_through });
}
