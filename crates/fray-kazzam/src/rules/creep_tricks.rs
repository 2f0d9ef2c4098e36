//! Creep actions and traits played in Rust beyond the generic AI of [`crate::rules::creeps`]
//! (K-CAI-15, K-CAI-16; rulebook L2480-2583): the Imp Team's thefts, Parry, Pinning Shot and
//! Tonic and the Thief's traits; the Dungeon Squid's Regenerate, Drag (the slide toward its
//! pedestal), its "else Drag" fallbacks and Snatch; the Mesmer Jelly's Steal; the Two-Headed
//! Molesnake's heads (one pool of HP, Retreat, Drag through the ground, Bury apart) and its head
//! hiding after a miss. Each action names its part with a `hook` in
//! content/kazzam/creeps.toml; the readings are in docs/rulings/kazzam.md, "Creeps".

use crate::content::creeps::CreepDef;
use crate::engine::events::{Event, How};
use crate::engine::kit::Ctx;
use crate::engine::records::creeps::{Change, Pin};
use crate::engine::state::{OrbLoc, State, UnitIdx};
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

fn hook(def: &CreepDef, ai: usize) -> Option<&str> {
    def.action[ai].hook.as_deref()
}

/// The action with the hook `drag` (the squid's Drag), which the fallbacks turn into.
fn drag_action(def: &CreepDef) -> Option<usize> {
    def.action.iter().position(|a| a.hook.as_deref() == Some("drag"))
}

/// The Creep's group members on the map, in listing order ("from the top of the list", L2488).
fn members(s: &State, unit: UnitIdx) -> Vec<UnitIdx> {
    let Some(g) = crate::rules::query::group_of(s, unit) else { return Vec::new() };
    s.creeps.groups[g as usize].members.iter().map(|m| m.0).filter(|&u| s.unit(u).on_map()).collect()
}

// ------------------------------------------------------------------ choosing the action

/// Regenerate (L2525): a Bloodied squid makes no attack but hides and heals.
pub fn regenerates(s: &State, unit: UnitIdx, def: &CreepDef, ai: usize) -> bool {
    hook(def, ai) == Some("regenerate") && s.is_bloodied(unit)
}

/// The action a Creep plays for the rolled one `ai` before it picks a target: Regenerate on an
/// unhurt squid is a Drag (K-CAI-15).
pub fn action_for(s: &State, unit: UnitIdx, def: &CreepDef, ai: usize) -> usize {
    if hook(def, ai) == Some("regenerate") && !s.is_bloodied(unit) {
        return drag_action(def).unwrap_or(ai);
    }
    ai
}

/// The action a Creep plays on target `t` for the rolled one `ai` (K-CAI-15: the first option
/// with an effect): Entangle on a Weakened target, Trip on a Prone one, and Snatch on a target
/// with no orb that is Disarmed already, are Drags (L2527-2530).
pub fn action_on(s: &State, def: &CreepDef, ai: usize, t: UnitIdx) -> usize {
    let drag = match hook(def, ai) {
        Some("drag-if-weakened") => s.has(t, StatusKind::Weakened),
        Some("drag-if-prone") => s.has(t, StatusKind::Prone),
        Some("snatch") => s.held_orbs(t).next().is_none() && s.has(t, StatusKind::Disarmed),
        _ => false,
    };
    if drag { drag_action(def).unwrap_or(ai) } else { ai }
}

/// Damage the action's own trait adds: the Imp Thief's 1 while Hidden (L2482), the Imp Archer's
/// 1 against a target without cover from where it shoots (L2486).
pub fn bonus(s: &State, unit: UnitIdx, def: &CreepDef, ai: usize, t: UnitIdx) -> Option<(i32, &'static str)> {
    match hook(def, ai) {
        Some("pilfer") if s.has(unit, StatusKind::Hidden) => Some((1, "Hidden thief +1")),
        Some("pin") => {
            let (p, size) = (s.unit(unit).pos?, s.unit(unit).size);
            (!crate::rules::cover::has_cover(s, p, size, t)).then_some((1, "no cover +1"))
        }
        _ => None,
    }
}

/// The Imp Thief's priority (L2482): once the imps have enemies, those carrying an orb come
/// first, in the usual order among them.
pub fn prefer(s: &State, unit: UnitIdx, list: &mut [UnitIdx]) {
    if s.creep_def(unit).and_then(|d| d.prefers.as_deref()) == Some("carriers") {
        list.sort_by_key(|&t| s.held_orbs(t).next().is_none()); // stable: keeps the rest in order
    }
}

// ------------------------------------------------------------------ hiding

/// The Hidden a Creep gives itself or a group mate: until the end of the next round, or until
/// it attacks (see [`attacked`]).
fn hide(cx: &mut Ctx, unit: UnitIdx, source: UnitIdx, round: u32, why: &str) {
    if !cx.s.unit(unit).on_map() || cx.s.has(unit, StatusKind::Hidden) {
        return;
    }
    let st = Status {
        kind: StatusKind::Hidden,
        amount: 0,
        source: Some(source),
        origin: None,
        duration: Duration::EndOfRound { round },
    };
    crate::rules::statuses::give::give_status(cx, unit, st, why);
}

/// A Creep's attack has resolved: a Hidden it gave itself or had from its group ends (it is
/// Hidden until it attacks, K-CONC-4).
pub fn attacked(cx: &mut Ctx, unit: UnitIdx) {
    for st in cx.s.unit(unit).statuses.clone() {
        if st.kind == StatusKind::Hidden && st.source.is_some_and(|s| s == unit || same_group(cx.s, s, unit)) {
            cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why: "it attacked".into() });
        }
    }
}

fn same_group(s: &State, a: UnitIdx, b: UnitIdx) -> bool {
    let g = crate::rules::query::group_of(s, a);
    g.is_some() && g == crate::rules::query::group_of(s, b)
}

/// Regenerate (L2525): no attack; the Bloodied squid is unhurt again and Hidden.
pub fn regenerate(cx: &mut Ctx, unit: UnitIdx) {
    cx.emit(Event::Note { text: format!("{} regenerates instead of attacking", cx.s.unit(unit).id) });
    crate::rules::damage::heal(cx, unit, 1, "Regenerate");
    let round = cx.s.round + 1;
    hide(cx, unit, unit, round, "Regenerate");
}

/// Tonic (the Imp Brewer, L2503): the first Bloodied imp of its group, top of the list first, is
/// unhurt again; with none, the first other imp not yet Hidden becomes Hidden.
pub fn tonic(cx: &mut Ctx, unit: UnitIdx) {
    let group = members(cx.s, unit);
    if let Some(&b) = group.iter().find(|&&m| cx.s.is_bloodied(m)) {
        let text = format!("{}'s Tonic: {} is unhurt again", cx.s.unit(unit).id, cx.s.unit(b).id);
        cx.emit(Event::Note { text });
        crate::rules::damage::heal(cx, b, 1, "Tonic");
        return;
    }
    if let Some(&h) = group.iter().find(|&&m| m != unit && !cx.s.has(m, StatusKind::Hidden)) {
        let text = format!("{}'s Tonic: {} slips out of sight", cx.s.unit(unit).id, cx.s.unit(h).id);
        cx.emit(Event::Note { text });
        let round = cx.s.round + 1;
        hide(cx, h, unit, round, "Tonic");
        return;
    }
    cx.emit(Event::Note { text: format!("{}'s Tonic has nobody to work on", cx.s.unit(unit).id) });
}

/// The Imp Brewer's trait (L2486): with every other imp of its group Taken Out as it begins to
/// act, it brings the first of them on the list back on the free square beside it (top row,
/// then left column), Bloodied; that is all it does that round. True if it did.
fn revive(cx: &mut Ctx, unit: UnitIdx) -> bool {
    let Some(g) = crate::rules::query::group_of(cx.s, unit) else { return false };
    let others: Vec<UnitIdx> =
        cx.s.creeps.groups[g as usize].members.iter().map(|m| m.0).filter(|&m| m != unit).collect();
    let (Some(&who), Some(bp)) = (others.first(), cx.s.unit(unit).pos) else { return false };
    if others.iter().any(|&m| cx.s.unit(m).on_map()) {
        return false;
    }
    let (bs, size) = (cx.s.unit(unit).size, cx.s.unit(who).size);
    let spot = (bp.y - size..=bp.y + bs)
        .flat_map(|y| (bp.x - size..=bp.x + bs).map(move |x| Pos::new(x, y)))
        .filter(|&q| distance(q, size, bp, bs) == 1 && crate::rules::movement::can_stand(cx.s, who, q, size))
        .min_by_key(|&q| (q.y, q.x));
    let Some(q) = spot else { return false };
    let max_hp = cx.s.unit(who).max_hp;
    cx.emit(Event::Placed { unit: cx.s.who(who), at: q, why: format!("is brought back by {}", cx.s.unit(unit).id) });
    // A Goon back on its feet but wounded: 1 HP, Bloodied (K-CTYPE-4).
    cx.emit(Event::Restored { unit: cx.s.who(who), max_hp, hp: 1.min(max_hp) });
    true
}

/// An action on itself (`target = "myself"`) played here; false if it has no part here.
pub fn own_action(cx: &mut Ctx, unit: UnitIdx, def: &CreepDef, ai: usize) -> bool {
    match hook(def, ai) {
        Some("tonic") => {
            if !revive(cx, unit) {
                tonic(cx, unit);
            }
            true
        }
        _ => false,
    }
}

// ------------------------------------------------------------------ thefts

/// `unit` takes orb `o` out of `t`'s hands: it carries it from now on; it leaves it on its
/// square if Taken Out (K-ORB-10). Taken, not dropped: no Runner's save.
fn take_orb(cx: &mut Ctx, unit: UnitIdx, t: UnitIdx, o: crate::engine::ids::OrbIdx, what: &str) {
    let why = format!("{}'s {what} takes it from {}", cx.s.unit(unit).id, cx.s.unit(t).id);
    cx.emit(Event::OrbMoved { orb: cx.s.orbs[o as usize].id.to_string(), idx: o, to: OrbLoc::Held { by: unit }, why });
}

/// Steal an item (Pilfer, Snatch): one orb `t` holds, the group's own first. True if it took one.
fn steal_one(cx: &mut Ctx, unit: UnitIdx, t: UnitIdx, what: &str) -> bool {
    let own = crate::rules::query::group_of(cx.s, unit).and_then(|g| cx.s.creeps.groups[g as usize].orb);
    let held: Vec<_> = cx.s.held_orbs(t).collect();
    let Some(&o) = held.iter().find(|&&o| Some(o) == own).or(held.first()) else { return false };
    take_orb(cx, unit, t, o, what);
    true
}

/// Steal everything (the jelly's Steal and its Miss Trigger): every orb `t` holds.
pub fn steal_all(cx: &mut Ctx, unit: UnitIdx, t: UnitIdx, what: &str) {
    for o in cx.s.held_orbs(t).collect::<Vec<_>>() {
        take_orb(cx, unit, t, o, what);
    }
}

fn disarm_till_next_turn(cx: &mut Ctx, unit: UnitIdx, t: UnitIdx, what: &str) {
    let turn = cx.s.unit(t).turns_started + 1;
    let st = Status {
        kind: StatusKind::Disarmed,
        amount: 0,
        source: Some(unit),
        origin: None,
        duration: Duration::EndOfTurn { unit: t, turn },
    };
    crate::rules::statuses::give::give_status(cx, t, st, what);
}

// ------------------------------------------------------------------ after the damage

/// The action's own part on target `t` after its damage and Effect (the Ward did not take it
/// all): the theft or Disarm, the Parry, the pin, the Drag's slide.
pub fn after_hit(cx: &mut Ctx, unit: UnitIdx, def: &CreepDef, ai: usize, t: UnitIdx) -> Result<(), RuleError> {
    let name = def.action[ai].name.clone();
    match hook(def, ai) {
        // "Steal an item or Disarm" (K-CAI-15: the theft if it has an orb).
        Some("pilfer" | "snatch") => {
            let stole = steal_one(cx, unit, t, &name);
            if !stole {
                disarm_till_next_turn(cx, unit, t, &name);
            }
        }
        Some("steal") => steal_all(cx, unit, t, &name),
        Some("parry") => parry(cx, unit),
        Some("pin") => {
            let turn = cx.s.unit(t).turns_started + 1;
            let text = format!(
                "{} is pinned: if it moves before its next turn ends, {} shoots",
                cx.s.unit(t).id,
                cx.s.unit(unit).id
            );
            cx.emit(Event::Creeps { change: Change::Pinned(Pin { archer: unit, target: t, turn }), text });
        }
        Some("drag") => slide_toward_pedestal(cx, unit, t)?,
        Some("drag-under") => drag_under(cx, unit, t)?,
        _ => {}
    }
    Ok(())
}

// ------------------------------------------------------------------ Parry

/// Parry (the Imp Fighter, L2500): the next attack that would hit it, or the next damage that
/// would reach it, is ignored. Kept as a Resist All status from the fighter until used.
fn parry(cx: &mut Ctx, unit: UnitIdx) {
    if parrying(cx.s, unit).is_some() {
        return;
    }
    let st = Status {
        kind: StatusKind::ResistAll,
        amount: 0,
        source: Some(unit),
        origin: None,
        duration: Duration::Indefinite,
    };
    crate::rules::statuses::give::give_status(cx, unit, st, "Parry");
}

fn parrying(s: &State, unit: UnitIdx) -> Option<Status> {
    s.creep_def(unit)?;
    s.status_from(unit, StatusKind::ResistAll, unit).filter(|st| st.duration == Duration::Indefinite)
}

fn parry_used(cx: &mut Ctx, unit: UnitIdx, why: &str) {
    if let Some(st) = parrying(cx.s, unit) {
        cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why: why.into() });
    }
}

// ------------------------------------------------------------------ Drag

/// Drag (L2526): the squid and its target slide 1 square together toward the group's pedestal,
/// the direction that brings the squid nearest it (in squares, then as the crow flies, then the
/// target nearest, then the top row, the left column); none if no direction brings the squid nearer or both cannot stand there.
fn slide_toward_pedestal(cx: &mut Ctx, unit: UnitIdx, t: UnitIdx) -> Result<(), RuleError> {
    let Some(g) = crate::rules::query::group_of(cx.s, unit) else { return Ok(()) };
    let Some(ped) = cx.s.creeps.groups[g as usize].pedestal.map(|p| cx.s.arena.pedestals[p as usize].at) else {
        return Ok(());
    };
    let (Some(sp), Some(tp)) = (cx.s.unit(unit).pos, cx.s.unit(t).pos) else { return Ok(()) };
    let (ss, ts) = (cx.s.unit(unit).size, cx.s.unit(t).size);
    let now = distance(sp, ss, ped, 1);
    let mut best: Option<(SlideKey, Pos, bool)> = None;
    for dy in -1..=1 {
        for dx in -1..=1 {
            if (dx, dy) == (0, 0) {
                continue;
            }
            let (ns, nt) = (Pos::new(sp.x + dx, sp.y + dy), Pos::new(tp.x + dx, tp.y + dy));
            let d = distance(ns, ss, ped, 1);
            if d >= now {
                continue;
            }
            // The one moving into the other's square goes second.
            let squid_first = distance(ns, ss, tp, ts) > 0 || distance(nt, ts, sp, ss) == 0;
            if !pair_fits(cx.s, unit, ns, t, nt, squid_first) {
                continue;
            }
            // Straightest toward it among equal counts of squares: the nearer as the crow flies.
            let crow = (ns.x - ped.x).pow(2) + (ns.y - ped.y).pow(2);
            let key = (d, crow, distance(nt, ts, ped, 1), ns.y, ns.x);
            if best.as_ref().is_none_or(|b| key < b.0) {
                best = Some((key, Pos::new(dx, dy), squid_first));
            }
        }
    }
    let Some((_, dir, squid_first)) = best else {
        cx.emit(Event::Note {
            text: format!("{} has no room to drag {} nearer its pedestal", cx.s.unit(unit).id, cx.s.unit(t).id),
        });
        return Ok(());
    };
    let order = if squid_first { [unit, t] } else { [t, unit] };
    for u in order {
        let Some(p) = cx.s.unit(u).pos else { continue };
        let q = Pos::new(p.x + dir.x, p.y + dir.y);
        cx.emit(Event::Moved { unit: cx.s.who(u), from: p, to: q, how: How::Slide });
        crate::rules::zones::entered(cx, u, p, q, Some(unit))?;
    }
    Ok(())
}

/// How a Drag's direction ranks (lower first): squares to the pedestal, the crow's distance,
/// the target's squares, row, column.
type SlideKey = (i32, i32, i32, i32, i32);

/// Whether the squid at `ns` and its target at `nt` can both stand after the slide, moved in
/// the order given.
fn pair_fits(s: &State, squid: UnitIdx, ns: Pos, t: UnitIdx, nt: Pos, squid_first: bool) -> bool {
    let mut h = s.clone();
    h.flow.clear();
    let moves = if squid_first { [(squid, ns), (t, nt)] } else { [(t, nt), (squid, ns)] };
    for (u, q) in moves {
        let (p, size) = (h.unit(u).pos.unwrap(), h.unit(u).size);
        if !crate::rules::movement::can_stand(&h, u, q, size) {
            return false;
        }
        let e = Event::Moved { unit: h.who(u), from: p, to: q, how: How::Slide };
        crate::engine::events::apply(&mut h, &e);
    }
    true
}

// ------------------------------------------------------------------ Mesmerize

/// Mesmerize (the Mesmer Jelly, L2546): every player (athlete) within its burst not yet
/// mesmerised this round walks to end next to the jelly or as near as it can, one after
/// another in initiative order; none of them takes an Opportunity the others grant meanwhile.
pub fn mesmerize(cx: &mut Ctx, jelly: UnitIdx, targets: Vec<UnitIdx>) -> Result<(), RuleError> {
    let round = cx.s.round;
    let mut players: Vec<UnitIdx> = targets
        .into_iter()
        .filter(|&t| cx.s.unit(t).kind == crate::engine::state::UnitKind::Athlete)
        .filter(|&t| !cx.s.creeps.mesmerized.iter().any(|&(u, r)| u == t && r == round))
        .collect();
    let place = |s: &State, t: UnitIdx| s.order.iter().position(|&x| x == t).unwrap_or(usize::MAX);
    players.sort_by_key(|&t| (place(cx.s, t), t));
    if players.is_empty() {
        let text = format!("{}'s Mesmerize finds no player it can still mesmerise", cx.s.unit(jelly).id);
        cx.emit(Event::Note { text });
        return Ok(());
    }
    cx.emit(Event::PowerUsed {
        unit: cx.s.who(jelly),
        power: "Mesmerize".into(),
        targets: players.iter().map(|&t| cx.s.who(t)).collect(),
    });
    let mut walkers = Vec::new();
    for t in players {
        // K-CSP-6: a Hunter may save against a Creep's attack.
        if crate::rules::query::is_specialist(cx.s, t, "hunter")
            && crate::rules::turn::saving_throw(cx, t, "a Creep's attack (Hunter)")?
        {
            cx.emit(Event::Note { text: format!("{} shakes off the Mesmerize (Hunter)", cx.s.unit(t).id) });
            continue;
        }
        let text = format!("{} is mesmerised by {}", cx.s.unit(t).id, cx.s.unit(jelly).id);
        cx.emit(Event::Creeps { change: Change::Mesmerized(t, round), text });
        walkers.push(t);
    }
    let names: Vec<String> = walkers.iter().map(|&t| cx.s.unit(t).id.to_string()).collect();
    cx.emit(Event::Note { text: format!("they walk to the jelly in initiative order: {}", names.join(", ")) });
    // Frames run last pushed first: the last in initiative order goes on first.
    for &t in walkers.iter().rev() {
        cx.push(crate::engine::kit::Frame::Creeps(crate::engine::frames::rules::CreepFrame::Mesmerized {
            unit: t,
            jelly,
        }));
    }
    Ok(())
}

// ------------------------------------------------------------------ Drift

/// The most squares Drift moves.
const DRIFT: usize = 6;

/// Drift (the Mesmer Jelly, L2547, its own AI): it moves up to 6 squares, Stinging each enemy
/// it passes next to (those next to it as it sets off included), once each, as it comes by.
/// Route: the most enemies passed, then the fewest squares, then the lowest total initiative of
/// those passed, then the earliest squares by row and column.
pub fn drift(cx: &mut Ctx, unit: UnitIdx, face: i32) {
    let Some(start) = cx.s.unit(unit).pos else { return };
    let size = cx.s.unit(unit).size;
    let enemies: Vec<UnitIdx> = crate::rules::query::group_of(cx.s, unit)
        .map(|g| cx.s.creeps.groups[g as usize].enemies.iter().map(|e| e.unit).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter(|&t| cx.s.unit(t).on_map() && !cx.s.hidden_from(t, unit))
        .take(64)
        .collect();
    let near = |p: Pos| -> u64 {
        enemies.iter().enumerate().fold(0, |m, (i, &t)| {
            let tu = cx.s.unit(t);
            if distance(p, size, tu.pos.unwrap(), tu.size) == 1 { m | 1 << i } else { m }
        })
    };
    let stuck =
        [StatusKind::Immobilized, StatusKind::Grabbed, StatusKind::Restrained].iter().any(|&k| cx.s.has(unit, k));
    // Squares it may pass over: those it could stand on within reach.
    let r = DRIFT as i32;
    let side = 2 * r + 1;
    let index = |q: Pos| ((q.y - start.y + r) * side + (q.x - start.x + r)) as usize;
    let mut grid = vec![false; (side * side) as usize];
    if !stuck {
        for y in start.y - r..=start.y + r {
            for x in start.x - r..=start.x + r {
                let q = Pos::new(x, y);
                grid[index(q)] = q != start && crate::rules::movement::can_stand(cx.s, unit, q, size);
            }
        }
    }
    let open = |q: Pos| (q.x - start.x).abs() <= r && (q.y - start.y).abs() <= r && grid[index(q)];
    let init = |m: u64| -> i32 {
        enemies.iter().enumerate().filter(|(i, _)| m & (1 << i) != 0).map(|(_, &t)| cx.s.unit(t).initiative).sum()
    };
    let first = near(start);
    let mut best: (DriftKey, Vec<Pos>) = ((0, 0, 0, Vec::new()), Vec::new());
    best.0 = (-(first.count_ones() as i32), 0, init(first), Vec::new());
    let mut path = Vec::new();
    drift_search(&open, start, first, &near, &init, &mut path, &mut best);
    let route = best.1;
    // Stings and steps in order: frames run last pushed first.
    let mut plan: Vec<crate::engine::kit::Frame> = Vec::new();
    let mut seen = 0u64;
    let sting = |m: u64, plan: &mut Vec<crate::engine::kit::Frame>, seen: &mut u64| {
        for (i, &t) in enemies.iter().enumerate() {
            if m & (1 << i) != 0 && *seen & (1 << i) == 0 {
                *seen |= 1 << i;
                plan.push(crate::engine::kit::Frame::Creeps(crate::engine::frames::rules::CreepFrame::Sting {
                    unit,
                    face,
                    target: t,
                }));
            }
        }
    };
    sting(first, &mut plan, &mut seen);
    for &q in &route {
        plan.push(crate::engine::kit::Frame::Move(crate::rules::movement::MoveFrame::new(unit, vec![q], How::Walk)));
        sting(near(q), &mut plan, &mut seen);
    }
    let text =
        format!("{} drifts {} squares, passing {} of its enemies", cx.s.unit(unit).id, route.len(), seen.count_ones());
    cx.emit(Event::Note { text });
    for f in plan.into_iter().rev() {
        cx.push(f);
    }
}

/// How a Drift route ranks (lower first): enemies passed (negated), squares, their total
/// initiative, the squares by row and column.
type DriftKey = (i32, usize, i32, Vec<(i32, i32)>);

/// Every route of up to [`DRIFT`] squares over `open` from `at`, keeping the best in `best`.
fn drift_search(
    open: &dyn Fn(Pos) -> bool,
    at: Pos,
    passed: u64,
    near: &dyn Fn(Pos) -> u64,
    init: &dyn Fn(u64) -> i32,
    path: &mut Vec<Pos>,
    best: &mut (DriftKey, Vec<Pos>),
) {
    if path.len() == DRIFT {
        return;
    }
    for n in at.neighbours() {
        if !open(n) || path.contains(&n) {
            continue;
        }
        path.push(n);
        let m = passed | near(n);
        let key: DriftKey = (-(m.count_ones() as i32), path.len(), init(m), path.iter().map(|p| (p.y, p.x)).collect());
        if key < best.0 {
            *best = (key, path.clone());
        }
        drift_search(open, n, m, near, init, path, best);
        path.pop();
    }
}

// ------------------------------------------------------------------ the Two-Headed Molesnake

fn is_head(s: &State, u: UnitIdx) -> bool {
    s.creep_def(u).is_some_and(|d| d.heads)
}

/// The other heads of `unit`'s creature on the map, in listing order.
fn other_heads(s: &State, unit: UnitIdx) -> Vec<UnitIdx> {
    members(s, unit).into_iter().filter(|&m| m != unit && is_head(s, m)).collect()
}

/// Retreat (L2576): the head took 6 or more damage this round.
pub fn retreated(s: &State, unit: UnitIdx) -> bool {
    s.creeps.wounds.iter().any(|w| w.head == unit && w.round == s.round && w.amount >= RETREAT)
}

/// The damage in a round that sends a head underground.
const RETREAT: i32 = 6;

/// Whether the Creep sits this action out: a head in Retreat, or a second head when the action
/// is one head's alone (Drag, L2579: the first head in listing order that is not in Retreat).
pub fn sits_out(cx: &mut Ctx, unit: UnitIdx, def: &CreepDef, ai: usize, moves: u8) -> bool {
    let why = if retreated(cx.s, unit) {
        "it retreated underground this round (Retreat)"
    } else if hook(def, ai) == Some("drag-under")
        && members(cx.s, unit).into_iter().take_while(|&m| m != unit).any(|m| is_head(cx.s, m) && !retreated(cx.s, m))
    {
        "the other head drags"
    } else {
        return false;
    };
    if moves == 2 {
        cx.emit(Event::Note { text: format!("{} does not act: {why}", cx.s.unit(unit).id) });
    }
    true
}

/// Bury (L2581): each head takes a different enemy: one another head holds Grabbed is left out.
pub fn apart(s: &State, unit: UnitIdx, def: &CreepDef, ai: usize, mut list: Vec<UnitIdx>) -> Vec<UnitIdx> {
    if hook(def, ai) == Some("bury-apart") {
        let others = other_heads(s, unit);
        list.retain(|&t| !others.iter().any(|&o| s.status_from(t, StatusKind::Grabbed, o).is_some()));
    }
    list
}

/// Drag (L2579): the target is pulled through the ground to the square next to the other head
/// that it can stand on, nearest its own square (then the top row, the left column).
fn drag_under(cx: &mut Ctx, unit: UnitIdx, t: UnitIdx) -> Result<(), RuleError> {
    let Some(&o) = other_heads(cx.s, unit).first() else { return Ok(()) };
    let (Some(op), Some(tp)) = (cx.s.unit(o).pos, cx.s.unit(t).pos) else { return Ok(()) };
    let (os, ts) = (cx.s.unit(o).size, cx.s.unit(t).size);
    let mut best: Option<((i32, i32, i32), Pos)> = None;
    for y in op.y - ts..=op.y + os {
        for x in op.x - ts..=op.x + os {
            let q = Pos::new(x, y);
            if distance(q, ts, op, os) != 1 || !crate::rules::movement::can_stand(cx.s, t, q, ts) {
                continue;
            }
            let key = (distance(q, ts, tp, ts), y, x);
            if best.is_none_or(|b| key < b.0) {
                best = Some((key, q));
            }
        }
    }
    let Some((_, q)) = best else {
        let text = format!("there is no room beside {} to drag {} to", cx.s.unit(o).id, cx.s.unit(t).id);
        cx.emit(Event::Note { text });
        return Ok(());
    };
    if distance(tp, ts, op, os) == 1 {
        return Ok(()); // already beside the other head
    }
    let text = format!("{} drags {} through the ground to {}", cx.s.unit(unit).id, cx.s.unit(t).id, cx.s.unit(o).id);
    cx.emit(Event::Note { text });
    crate::rules::forced::teleport_to(cx, unit, t, q)
}

/// Damage to a head: every head shares the one pool of HP (Two Heads, L2574), and the head's
/// damage this round is counted for Retreat: at 6 it burrows, Hidden until the round ends.
fn head_hurt(cx: &mut Ctx, target: UnitIdx, source: Option<UnitIdx>) {
    if !is_head(cx.s, target) {
        return;
    }
    let hp = cx.s.unit(target).hp;
    let others = other_heads(cx.s, target);
    // The pool before this damage is what the other heads still show.
    let Some(before) = others.iter().map(|&o| cx.s.unit(o).hp).max() else { return };
    let taken = before - hp;
    if taken <= 0 {
        return;
    }
    for o in others {
        let lost = cx.s.unit(o).hp - hp;
        if lost > 0 && cx.s.unit(o).on_map() {
            cx.emit(Event::Damaged {
                unit: cx.s.who(o),
                amount: lost,
                ward_lost: 0,
                hp,
                source: source.map(|x| cx.s.who(x)),
                why: "the heads share one pool of HP".into(),
            });
            if hp <= 0 {
                crate::rules::damage::take_out(cx, o, source);
            }
        }
    }
    if hp <= 0 {
        return;
    }
    let round = cx.s.round;
    let prior = cx.s.creeps.wounds.iter().find(|w| w.head == target && w.round == round).map_or(0, |w| w.amount);
    let amount = prior + taken;
    let text = format!("{} has taken {amount} damage this round", cx.s.unit(target).id);
    let w = crate::engine::records::creeps::Wound { head: target, round, amount };
    cx.emit(Event::Creeps { change: Change::Wounded(w), text });
    if prior < RETREAT && amount >= RETREAT {
        cx.emit(Event::Note { text: format!("{} burrows underground (Retreat)", cx.s.unit(target).id) });
        hide(cx, target, target, round, "Retreat");
    }
}

/// Which Dungeon (a connected patch of Dungeon squares, counted from the top left) `p` lies in.
fn dungeon_of(s: &State, p: Pos) -> Option<usize> {
    if !s.arena.in_dungeon(p) {
        return None;
    }
    let (w, h) = (s.arena.dungeon.width(), s.arena.dungeon.height());
    let mut label = vec![usize::MAX; (w * h) as usize];
    let mut next = 0;
    for y in 0..h {
        for x in 0..w {
            let start = Pos::new(x, y);
            if !s.arena.in_dungeon(start) || label[(y * w + x) as usize] != usize::MAX {
                continue;
            }
            let mut stack = vec![start];
            label[(y * w + x) as usize] = next;
            while let Some(q) = stack.pop() {
                for n in q.neighbours() {
                    let i = (n.y * w + n.x) as usize;
                    if n.x >= 0 && n.y >= 0 && n.x < w && n.y < h && s.arena.in_dungeon(n) && label[i] == usize::MAX {
                        label[i] = next;
                        stack.push(n);
                    }
                }
            }
            next += 1;
        }
    }
    Some(label[(p.y * w + p.x) as usize])
}

/// Two Heads (L2574): if the heads are together (in one Dungeon, or both outside every Dungeon)
/// and another Dungeon holds both a character and an orb, the head nearest that orb goes
/// through the ground to the free square beside the orb nearest it (top row, then left column)
/// and does nothing else this round. Returns the Creeps that still take the group's action.
pub fn two_heads(cx: &mut Ctx, actors: Vec<UnitIdx>) -> Result<Vec<UnitIdx>, RuleError> {
    let heads: Vec<UnitIdx> = actors.iter().copied().filter(|&a| is_head(cx.s, a) && cx.s.unit(a).on_map()).collect();
    if heads.len() < 2 {
        return Ok(actors);
    }
    let place = |s: &State, u: UnitIdx| s.unit(u).pos.and_then(|p| dungeon_of(s, p));
    let here = place(cx.s, heads[0]);
    if heads.iter().any(|&h| place(cx.s, h) != here) {
        return Ok(actors); // apart: each keeps to its own ground
    }
    let orb_at = |s: &State, o: usize| match s.orbs[o].loc {
        OrbLoc::Pedestal { pedestal } => Some(s.arena.pedestals[pedestal as usize].at),
        OrbLoc::Ground { at } => Some(at),
        OrbLoc::Held { by } => s.unit(by).pos,
    };
    let character_in = |s: &State, d: usize| {
        s.units_on_map().any(|u| {
            s.unit(u).kind == crate::engine::state::UnitKind::Athlete
                && s.unit(u).pos.is_some_and(|p| dungeon_of(s, p) == Some(d))
        })
    };
    let Some(orb) = (0..cx.s.orbs.len())
        .filter_map(|o| orb_at(cx.s, o).map(|p| (o, p)))
        .find(|&(_, p)| {
            // A pedestal in a Dungeon is not Dungeon floor: it belongs to the floor around it.
            let d = dungeon_of(cx.s, p).or_else(|| p.neighbours().into_iter().find_map(|n| dungeon_of(cx.s, n)));
            d.is_some_and(|d| Some(d) != here && character_in(cx.s, d))
        })
        .map(|(_, p)| p)
    else {
        return Ok(actors);
    };
    let head = heads
        .iter()
        .copied()
        .min_by_key(|&h| (distance(cx.s.unit(h).pos.unwrap(), cx.s.unit(h).size, orb, 1), h))
        .unwrap();
    let size = cx.s.unit(head).size;
    let spot = (orb.y - size..=orb.y + 1)
        .flat_map(|y| (orb.x - size..=orb.x + 1).map(move |x| Pos::new(x, y)))
        .filter(|&q| distance(q, size, orb, 1) == 1 && crate::rules::movement::can_stand(cx.s, head, q, size))
        .min_by_key(|&q| (q.y, q.x));
    let text =
        format!("{} goes through the ground to guard the orb in the other Dungeon (Two Heads)", cx.s.unit(head).id);
    cx.emit(Event::Note { text });
    if let Some(q) = spot {
        crate::rules::forced::teleport_to(cx, head, head, q)?;
    }
    Ok(actors.into_iter().filter(|&a| a != head).collect())
}

/// Healing one head heals the pool: every head shows it.
fn head_healed(cx: &mut Ctx, unit: UnitIdx) {
    if !is_head(cx.s, unit) {
        return;
    }
    let hp = cx.s.unit(unit).hp;
    for o in other_heads(cx.s, unit) {
        let gain = hp - cx.s.unit(o).hp;
        if gain > 0 {
            cx.emit(Event::Healed {
                unit: cx.s.who(o),
                amount: gain,
                hp,
                why: "the heads share one pool of HP".into(),
            });
        }
    }
}

// ------------------------------------------------------------------ Miss Triggers

/// The Miss Trigger parts played here: `steal` (the jelly robs an attacker next to it of every
/// orb), `hide` (the Molesnake's head is Hidden until the round ends).
pub fn miss_hook(cx: &mut Ctx, creep: UnitIdx, attacker: UnitIdx, h: &str) {
    match h {
        "steal" => steal_all(cx, creep, attacker, "Miss Trigger"),
        "hide" => {
            let round = cx.s.round;
            hide(cx, creep, creep, round, "Miss Trigger");
        }
        _ => {}
    }
}

// ------------------------------------------------------------------ listeners

/// Pinning Shot: the pinned target moving under its own power gives the archer its Opportunity,
/// once.
fn pinned_moved(cx: &mut Ctx, e: &crate::engine::hooks::Entered) {
    if e.by != Some(e.unit) {
        return;
    }
    let pins: Vec<Pin> = cx.s.creeps.pins.iter().filter(|p| p.target == e.unit).copied().collect();
    for p in pins {
        let text = format!("{} moves while pinned", cx.s.unit(e.unit).id);
        cx.emit(Event::Creeps { change: Change::Unpinned(p.archer, p.target), text });
        if cx.s.unit(p.archer).on_map() && cx.s.unit(e.unit).on_map() {
            crate::rules::opportunity::take(cx, p.archer, e.unit, "Pinning Shot");
        }
    }
}

/// A pin runs out at the end of its target's next turn.
fn pin_expires(cx: &mut Ctx, unit: UnitIdx) {
    let turn = cx.s.unit(unit).turns_started;
    let done: Vec<Pin> = cx.s.creeps.pins.iter().filter(|p| p.target == unit && p.turn <= turn).copied().collect();
    for p in done {
        let text = format!("the Pinning Shot on {} runs out", cx.s.unit(unit).id);
        cx.emit(Event::Creeps { change: Change::Unpinned(p.archer, p.target), text });
    }
}

/// The jelly is defeated: the Disarmed its Steal left lasts no longer (L2545).
fn thief_gone(cx: &mut Ctx, unit: UnitIdx) {
    let gone: Vec<(UnitIdx, Status)> = cx
        .s
        .units_on_map()
        .flat_map(|v| {
            cx.s.unit(v)
                .statuses
                .iter()
                .filter(|st| {
                    st.kind == StatusKind::Disarmed && st.source == Some(unit) && st.duration == Duration::Indefinite
                })
                .map(move |st| (v, *st))
                .collect::<Vec<_>>()
        })
        .collect();
    for (v, st) in gone {
        cx.emit(Event::StatusEnded {
            unit: cx.s.who(v),
            status: st,
            why: "the jelly that robbed it is defeated".into(),
        });
    }
    let pins: Vec<Pin> = cx.s.creeps.pins.iter().filter(|p| p.archer == unit).copied().collect();
    for p in pins {
        let text = format!("{} is gone: its pin is over", cx.s.unit(unit).id);
        cx.emit(Event::Creeps { change: Change::Unpinned(p.archer, p.target), text });
    }
}

/// Parry turns a hit on the fighter into nothing (played as an evaded roll).
fn parry_hit(cx: &mut Ctx, a: &mut crate::engine::frames::AttackFrame) -> bool {
    let Some(&t) = a.targets.get(a.next) else { return false };
    if a.evaded || parrying(cx.s, t).is_none() {
        return false;
    }
    a.evaded = true;
    cx.emit(Event::Note { text: format!("{} parries the attack: it is ignored", cx.s.unit(t).id) });
    parry_used(cx, t, "Parry used on an attack");
    false
}

/// The round is over (after the Creep phase): a Creep's Hidden lasting to the end of a round
/// that has now ended goes.
fn round_over(cx: &mut Ctx) {
    let round = cx.s.round;
    let ending: Vec<(UnitIdx, Status)> =
        cx.s.units_on_map()
            .filter(|&u| cx.s.unit(u).kind == crate::engine::state::UnitKind::Creep)
            .flat_map(|u| {
                cx.s.unit(u)
                    .statuses
                    .iter()
                    .filter(|st| st.duration.ends_at_end_of_round(round))
                    .map(move |st| (u, *st))
                    .collect::<Vec<_>>()
            })
            .collect();
    for (u, st) in ending {
        cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "the round is over".into() });
    }
}

/// Parry, Pinning Shot, the jelly's Steal and the Molesnake's heads as time passes.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_hit_coming(5, "imp-fighter", |cx, a, _| parry_hit(cx, a));
    r.on_damage_dealt(7, "imp-fighter", |cx, target, _| {
        if parrying(cx.s, target).is_some() {
            let text = format!("{} parries the damage: it is ignored", cx.s.unit(target).id);
            cx.emit(Event::Note { text });
            parry_used(cx, target, "Parry used on damage");
        }
    });
    r.on_damage_dealt(8, "two-headed-molesnake", head_hurt);
    r.on_healed(15, "two-headed-molesnake", |cx, unit, _, _| head_healed(cx, unit));
    r.on_square_entered(65, "imp-archer", |cx, e| {
        if !cx.s.creeps.pins.is_empty() {
            pinned_moved(cx, e);
        }
        Ok(())
    });
    r.on_turn(crate::engine::hooks::Trigger::TurnEnded, 45, "imp-archer", |cx, unit| {
        if !cx.s.creeps.pins.is_empty() {
            pin_expires(cx, unit);
        }
    });
    r.on_round(crate::engine::hooks::Trigger::RoundEnds, 25, "creep-hidden", |cx| {
        if !cx.s.creeps.groups.is_empty() {
            round_over(cx);
        }
        Ok(crate::engine::hooks::Then::Go)
    });
    r.on_taken_out(65, "mesmer-jelly", |cx, unit, _, _| {
        if cx.s.unit(unit).kind == crate::engine::state::UnitKind::Creep {
            thief_gone(cx, unit);
        }
    });
}
