//! The Lost Soul Team's own actions (L2635-2672): the Huntress's Hunting Arrow that grows with
//! each Take Out, the Thunderbolt's second bolt, the Harpist's Lullaby that takes the group's
//! orb back from its holder, and the Aegis's aegis that stops the next hit on an ally. The rest of the Team is data (content/kazzam/creeps.toml)
//! played by [`crate::rules::creeps`].

use super::{group_of, priorities};
use crate::content::creeps::CreepDef;
use crate::engine::events::{Event, How};
use crate::engine::kit::{Ctx, Frame};
use crate::engine::records::creeps::Change;
use crate::engine::state::{OrbLoc, State, UnitIdx};
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// How far the Thunderbolt's second bolt reaches.
const BOLT_RANGE: i32 = 5;

/// Damage a Creep's actions gained for good (Hunting Arrow), less 1 for a Shade.
pub fn bonus(s: &State, unit: UnitIdx) -> i32 {
    let shade = if crate::rules::shades::is_shade(s, unit) { 1 } else { 0 };
    s.creeps.hunted.iter().filter(|&&u| u == unit).count() as i32 - shade
}

/// Raise Shade, its first part: with a Shade of its group within its action's range, the
/// Shadekeeper makes no attack and brings the first such Shade (in listing order) back as a
/// Bloodied Lost Soul (1 HP, no longer a Shade). True if it did.
pub fn revive(cx: &mut Ctx, unit: UnitIdx, range: i32) -> bool {
    let Some(g) = group_of(cx.s, unit) else { return false };
    let shade = cx.s.creeps.groups[g as usize]
        .members
        .iter()
        .map(|m| m.0)
        .find(|&m| crate::rules::shades::is_shade(cx.s, m) && cx.s.distance(unit, m).is_some_and(|d| d <= range));
    let Some(m) = shade else { return false };
    let text = format!("{} raises {} from the Shades, Bloodied", cx.s.unit(unit).id, cx.s.unit(m).id);
    cx.emit(Event::Creeps { change: Change::ShadeGone(m), text });
    true
}

/// Raise Shade with no Shade about: it hurts the lowest-listed unhurt Lost Soul of its group
/// by 1 (itself last of all) to deal 1 more; the 1 it adds (0 with nobody unhurt).
pub fn sacrifice(cx: &mut Ctx, unit: UnitIdx, def: &CreepDef, ai: usize) -> i32 {
    if def.action[ai].hook.as_deref() != Some(crate::rules::shades::KEEPER) {
        return 0;
    }
    let Some(g) = group_of(cx.s, unit) else { return 0 };
    let unhurt = cx.s.creeps.groups[g as usize].members.iter().rev().map(|m| m.0).find(|&m| {
        let u = cx.s.unit(m);
        u.on_map() && u.hp >= u.max_hp && !crate::rules::shades::is_shade(cx.s, m)
    });
    let Some(m) = unhurt else { return 0 };
    let why = format!("{}'s Raise Shade", cx.s.unit(unit).id);
    crate::rules::damage::deal(cx, m, 1, Some(unit), &why, None);
    1
}

/// The Shadekeeper is Taken Out: every Shade of its group vanishes, Taken Out for good and
/// counted for whoever made it a Shade.
pub fn keeper_down(cx: &mut Ctx, unit: UnitIdx) {
    if !crate::rules::shades::is_keeper(cx.s, unit) {
        return;
    }
    let Some(g) = group_of(cx.s, unit) else { return };
    let members: Vec<UnitIdx> = cx.s.creeps.groups[g as usize].members.iter().map(|m| m.0).collect();
    let shades: Vec<(UnitIdx, Option<UnitIdx>)> =
        cx.s.creeps.shades.iter().copied().filter(|x| members.contains(&x.0)).collect();
    for (m, by) in shades {
        let text = format!("{} vanishes with its Shadekeeper", cx.s.unit(m).id);
        cx.emit(Event::Creeps { change: Change::ShadeGone(m), text });
        crate::rules::damage::take_out(cx, m, by);
    }
}

/// After a Creep's action on `t`: Hunting Arrow grows by 1 if
/// it Took its target Out; Twin Strike's second bolt flies, whatever became of the first target.
pub fn after_strike(cx: &mut Ctx, unit: UnitIdx, def: &CreepDef, ai: usize, t: UnitIdx) -> Result<(), RuleError> {
    match def.action[ai].hook.as_deref() {
        Some("hunting-arrow") if !cx.s.unit(t).on_map() && cx.s.unit(t).taken_out => {
            let text = format!(
                "{}'s Hunting Arrow Took {} Out: its damage is 1 greater for good",
                cx.s.unit(unit).id,
                cx.s.unit(t).id
            );
            cx.emit(Event::Creeps { change: Change::Hunted(unit), text });
        }
        Some("twin-strike") => second_bolt(cx, unit, def, ai, t)?,
        Some("raise-aegis") if cx.s.unit(unit).on_map() && !cx.s.creeps.aegis.contains(&unit) => {
            let text = format!("{} raises its aegis over its allies", cx.s.unit(unit).id);
            cx.emit(Event::Creeps { change: Change::Aegis(unit, true), text });
        }
        _ => {}
    }
    Ok(())
}

/// Twin Strike's second bolt: 1 damage to the first other enemy on its list within 5 squares in
/// its line of sight (K-CAI-6 order), as an attack (Advantage +1, Disadvantage -1, K-CSP-1).
fn second_bolt(cx: &mut Ctx, unit: UnitIdx, def: &CreepDef, ai: usize, first: UnitIdx) -> Result<(), RuleError> {
    let Some(here) = cx.s.unit(unit).pos else { return Ok(()) };
    let size = cx.s.unit(unit).size;
    let second = priorities(cx.s, unit, None).into_iter().find(|&x| {
        x != first
            && cx.s.unit(x).pos.is_some_and(|q| distance(here, size, q, cx.s.unit(x).size) <= BOLT_RANGE)
            && crate::rules::cover::shot(cx.s, here, size, x) != fray_core::sight::Sight::Blocked
    });
    let Some(x) = second else {
        cx.emit(Event::Note { text: format!("{}'s second bolt finds no other target", cx.s.unit(unit).id) });
        return Ok(());
    };
    let name = format!("{} (second bolt)", def.action[ai].name);
    cx.emit(Event::PowerUsed { unit: cx.s.who(unit), power: name.clone(), targets: vec![cx.s.who(x)] });
    let Some(power) = cx.s.powers.find(&def.power_id(ai)) else { return Ok(()) };
    let table = cx.s.powers.clone();
    let mut amount = 1;
    match crate::rules::attack::roll_mode(cx.s, unit, x, table.get(power), here, false) {
        crate::engine::events::RollMode::Advantage => amount += 1,
        crate::engine::events::RollMode::Disadvantage => amount -= 1,
        crate::engine::events::RollMode::Normal => {}
    }
    let ctx = crate::rules::damage::FromAttack { attack_or_opportunity: true, pierce: false, melee: false };
    let why = format!("{}'s {name}", cx.s.unit(unit).id);
    crate::rules::damage::deal(cx, x, amount.max(0), Some(unit), &why, Some(ctx));
    Ok(())
}

/// Lullaby on a target holding the group's orb: the orb goes back on the group's pedestal and
/// the target is slid, by the shortest way, to the free square next to that pedestal nearest
/// it (no save against Dazed then). True when it did so (the Dazed save is skipped).
pub fn lullaby(cx: &mut Ctx, unit: UnitIdx, t: UnitIdx) -> bool {
    let Some(g) = group_of(cx.s, unit) else { return false };
    let grp = &cx.s.creeps.groups[g as usize];
    let (Some(o), Some(ped)) = (grp.orb, grp.pedestal) else { return false };
    if cx.s.orbs[o as usize].loc != (OrbLoc::Held { by: t }) {
        return false;
    }
    let at = cx.s.arena.pedestals[ped as usize].at;
    let path = slide_path(cx.s, t, at);
    cx.emit(Event::OrbMoved {
        orb: cx.s.orbs[o as usize].id.to_string(),
        idx: o,
        to: OrbLoc::Pedestal { pedestal: ped },
        why: format!("taken back to its pedestal by {}'s Lullaby", cx.s.unit(unit).id),
    });
    if let Some(path) = path.filter(|p| !p.is_empty()) {
        cx.emit(Event::Note {
            text: format!("{} is slid to the pedestal {}", cx.s.unit(t).id, cx.s.arena.pedestals[ped as usize].id),
        });
        cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(t, path, How::Slide)));
    }
    true
}

/// The shortest way (fewest squares of movement) for `t` to a square next to `goal` it can stand
/// on: empty if it is there already; `None` if there is no way.
fn slide_path(s: &State, t: UnitIdx, goal: Pos) -> Option<Vec<Pos>> {
    let u = s.unit(t);
    let (start, size) = (u.pos?, u.size);
    let footing = crate::rules::movement::Footing::of(s, t);
    let done = |p: Pos| distance(p, size, goal, 1) == 1 && (p == start || footing.can_stand(p, size));
    if done(start) {
        return Some(Vec::new());
    }
    // Dijkstra over step costs (small maps: a plain scan of the frontier will do).
    let mut best: std::collections::HashMap<Pos, (u32, Option<Pos>)> = std::collections::HashMap::new();
    best.insert(start, (0, None));
    let mut open = vec![start];
    let mut found: Option<(u32, Pos)> = None;
    while let Some(i) = (0..open.len()).min_by_key(|&i| (best[&open[i]].0, open[i].y, open[i].x)) {
        let p = open.swap_remove(i);
        let c = best[&p].0;
        if found.is_some_and(|f| f.0 <= c) {
            break;
        }
        if p != start && done(p) {
            found = Some((c, p));
            break;
        }
        for q in p.neighbours() {
            let Some(step) = footing.step_cost(p, q) else { continue };
            let nc = c + step;
            if best.get(&q).is_none_or(|b| nc < b.0) {
                best.insert(q, (nc, Some(p)));
                open.push(q);
            }
        }
    }
    let (_, mut p) = found?;
    let mut path = vec![p];
    while let Some((_, Some(prev))) = best.get(&p).copied() {
        if prev == start {
            break;
        }
        path.push(prev);
        p = prev;
    }
    path.reverse();
    Some(path)
}

/// Raise Aegis: an attack roll about to hit a Creep of the same group as an Aegis whose aegis
/// is up (not the Aegis itself) is negated: played as the roll missing that Creep (the attack's
/// `evaded`), and the aegis goes down. No question is asked.
fn aegis_stops(cx: &mut Ctx, a: &mut crate::engine::frames::AttackFrame, _: &crate::content::powers::PowerDef) -> bool {
    if cx.s.creeps.aegis.is_empty() || a.evaded {
        return false;
    }
    let Some(&t) = a.targets.get(a.next) else { return false };
    let Some(g) = group_of(cx.s, t) else { return false };
    let shield =
        cx.s.creeps.aegis.iter().copied().find(|&x| {
            x != t && cx.s.unit(x).on_map() && cx.s.creeps.groups[g as usize].members.iter().any(|m| m.0 == x)
        });
    if let Some(x) = shield {
        a.evaded = true;
        let text = format!("{}'s aegis stops the attack on {} and goes down", cx.s.unit(x).id, cx.s.unit(t).id);
        cx.emit(Event::Creeps { change: Change::Aegis(x, false), text });
    }
    false
}

/// The Harpist's trait: an athlete ending its turn in the Dungeon while not on the list of a
/// group whose Harpist is on the map gains 1 Ward (once for each such Harpist), judged before
/// ending the turn there can put it on the list.
fn harpist_ward(cx: &mut Ctx, unit: UnitIdx) {
    let u = cx.s.unit(unit);
    if u.kind != crate::engine::state::UnitKind::Athlete || cx.s.creeps.groups.is_empty() {
        return;
    }
    let Some(p) = u.pos else { return };
    if !cx.s.arena.footprint_in_dungeon(p, u.size) {
        return;
    }
    let mut gain = 0;
    for g in 0..cx.s.creeps.groups.len() as u8 {
        if crate::rules::query::is_enemy(cx.s, g, unit) {
            continue;
        }
        for m in &cx.s.creeps.groups[g as usize].members {
            if cx.s.unit(m.0).on_map() {
                gain += cx.s.creep_def(m.0).map_or(0, |d| d.dungeon_ward);
            }
        }
    }
    if gain > 0 {
        let ward = cx.s.unit(unit).ward + gain;
        cx.emit(Event::WardSet { unit: cx.s.who(unit), ward, why: "the Harpist's song in the Dungeon".into() });
    }
}

/// The aegis, as a roll is about to hit; the Harpist's Ward as a turn ends.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_hit_coming(90, "aegis", aegis_stops);
    r.on_turn(crate::engine::hooks::Trigger::TurnEnding, 35, "harpist", harpist_ward);
}

/// Squares Trample's run may cover (K-CAI: "move 8 squares").
const TRAMPLE_RUN: usize = 8;
/// Enemies its route search keeps track of (the nearest on its list).
const TRAMPLE_TRACKED: usize = 12;

/// Trample: the Charioteer's own run of up to 8 squares through the squares of as many enemies on
/// its list as it can (their squares may be passed, not ended on), then the fewest squares,
/// then ending nearest its priority target, row and column. Each enemy whose square it enters
/// takes the action (1 damage and Prone; 1 more if already Prone) as it passes. The run is no
/// walk: it grants no Opportunities. False when no route passes an enemy (the generic AI then
/// plays the action).
pub fn trample(cx: &mut Ctx, unit: UnitIdx, def: &CreepDef, ai: usize) -> Result<bool, RuleError> {
    let Some(path) = trample_route(cx.s, unit) else { return Ok(false) };
    cx.emit(Event::Note { text: format!("{} tramples through its enemies", cx.s.unit(unit).id) });
    let mut hit: Vec<UnitIdx> = Vec::new();
    for to in path {
        let Some(from) = cx.s.unit(unit).pos else { break };
        cx.emit(Event::Moved { unit: cx.s.who(unit), from, to, how: How::Walk });
        (crate::engine::hooks::zones(cx.s).entered_as)(cx, unit, from, to, Some(unit), false)?;
        if !cx.s.unit(unit).on_map() {
            break;
        }
        let list = priorities(cx.s, unit, None);
        let here: Vec<UnitIdx> = list
            .into_iter()
            .filter(|&e| {
                !hit.contains(&e) && cx.s.unit(e).pos.is_some_and(|p| distance(p, cx.s.unit(e).size, to, 1) == 0)
            })
            .collect();
        for e in here {
            hit.push(e);
            super::strike(cx, unit, def, ai, e)?;
        }
    }
    // The run's last square was free when it was chosen; a strike on the way can move someone
    // onto it. The runner then takes the nearest free square (as a move cut short, K-MOVE-10).
    if cx.s.unit(unit).on_map() {
        crate::rules::movement::settle_on_legal_square(cx, unit, "ends its Trample on the nearest free square");
    }
    Ok(true)
}

/// Trample's route (the squares entered, in order), if one passes an enemy.
fn trample_route(s: &State, unit: UnitIdx) -> Option<Vec<Pos>> {
    let u = s.unit(unit);
    let (start, size) = (u.pos?, u.size);
    if size != 1 {
        return None; // the Lost Souls are 1x1; a larger runner is not worked out
    }
    let list = priorities(s, unit, None);
    let tracked: Vec<(UnitIdx, Pos, i32)> =
        list.iter().filter_map(|&e| s.unit(e).pos.map(|p| (e, p, s.unit(e).size))).take(TRAMPLE_TRACKED).collect();
    if tracked.is_empty() {
        return None;
    }
    let first = list.first().copied();
    let mask_at = |p: Pos| {
        tracked.iter().enumerate().filter(|(_, t)| distance(p, 1, t.1, t.2) == 0).fold(0u32, |m, (i, _)| m | 1 << i)
    };
    let open = |p: Pos| s.arena.terrain.contains(p) && s.arena.at(p).enterable();
    // Breadth first over (square, enemies passed): each state's route, shortest first.
    let mut seen: std::collections::HashMap<(Pos, u32), Vec<Pos>> = std::collections::HashMap::new();
    let mut layer: Vec<(Pos, u32)> = vec![(start, 0)];
    seen.insert((start, 0), Vec::new());
    type Key = (std::cmp::Reverse<u32>, bool, usize, i32, i32, i32);
    let mut best: Option<(Key, Vec<Pos>)> = None;
    for _ in 0..TRAMPLE_RUN {
        let mut next = Vec::new();
        for (p, m) in layer {
            let route = seen[&(p, m)].clone();
            for q in p.neighbours() {
                if !open(q) {
                    continue;
                }
                let nm = m | mask_at(q);
                if seen.contains_key(&(q, nm)) {
                    continue;
                }
                let mut r = route.clone();
                r.push(q);
                if nm != 0 && crate::rules::movement::can_stand(s, unit, q, 1) {
                    let near =
                        first.and_then(|f| s.unit(f).pos.map(|fp| distance(q, 1, fp, s.unit(f).size))).unwrap_or(0);
                    let key = (std::cmp::Reverse(nm.count_ones()), nm & 1 == 0, r.len(), near, q.y, q.x);
                    if best.as_ref().is_none_or(|b| key < b.0) {
                        best = Some((key, r.clone()));
                    }
                }
                seen.insert((q, nm), r);
                next.push((q, nm));
            }
        }
        layer = next;
    }
    best.map(|b| b.1)
}
