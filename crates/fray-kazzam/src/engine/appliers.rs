//! What `events::apply` does for the records of rule areas and classes: each function here is
//! called by [`crate::engine::events::apply`] only, and names the data layer only (the journal's
//! events carry the records' changes; the rule modules that emit them re-export their types).

use crate::engine::records::creeps::Change as CreepsChange;
use crate::engine::records::porter::Change as PorterChange;
use crate::engine::records::removal::Change as RemovalChange;
use crate::engine::records::summons::{Placed, Spawn};
use crate::engine::state::{Actions, Facts, Implement, Unit, UnitIdx};

/// A unit named in an event (as [`crate::engine::events::Who`]).
type Who = fray_core::engine::Who<UnitIdx>;

/// Applies a change (called by `events::apply` only).
pub fn apply_porter(s: &mut Facts, c: &PorterChange) {
    let p = &mut s.porter;
    match c {
        PorterChange::WarpOpened(w) => p.warps.push(w.clone()),
        PorterChange::WarpClosed(i) => {
            p.warps.remove(*i);
        }
        PorterChange::TrapOpened(t) => p.traps.push(t.clone()),
        PorterChange::TrapClosed(i) => {
            p.traps.remove(*i);
        }
        PorterChange::Bent(b) => p.bends.push(b.clone()),
        PorterChange::BendEnded(i) => {
            p.bends.remove(*i);
        }
        PorterChange::Dropped(d) => p.dropped.push(d.clone()),
        PorterChange::Retrieved(i) => {
            p.dropped.remove(*i);
        }
        PorterChange::Pulled(r) => p.pulled_round = *r,
        PorterChange::TunnelOpened(t) => p.tunnels.push(t.clone()),
        PorterChange::TunnelClosed(i) => {
            p.tunnels.remove(*i);
        }
    }
}

/// Applies a change (called by `events::apply` only).
pub fn apply_removal(s: &mut Facts, c: &RemovalChange) {
    match c {
        RemovalChange::Vanished(r) => {
            s.unit_mut(r.unit).pos = None;
            s.removal.removed.push(r.clone());
        }
        RemovalChange::Moved { unit, to, turn } => {
            if let Some(r) = s.removal.removed.iter_mut().find(|r| r.unit == *unit) {
                (r.at, r.moved_turn) = (*to, Some(*turn));
            }
        }
        RemovalChange::Returned { unit, at } => {
            s.removal.removed.retain(|r| r.unit != *unit);
            s.unit_mut(*unit).pos = Some(*at);
        }
    }
}

/// Applies a change (called by `events::apply` only).
pub fn apply_creeps(s: &mut Facts, c: &CreepsChange) {
    let groups = &mut s.creeps.groups;
    match c {
        CreepsChange::Phase(r) => s.creeps.acted_round = *r,
        CreepsChange::Joined(g, e) => groups[*g as usize].enemies.push(*e),
        CreepsChange::Left(g, u) => groups[*g as usize].enemies.retain(|e| e.unit != *u),
        CreepsChange::Nudged(g, n) => groups[*g as usize].nudges.push(*n),
        CreepsChange::Decided(g, i, a) => groups[*g as usize].nudges[*i].amount = Some(*a),
        CreepsChange::NudgesUsed(g) => groups[*g as usize].nudges.clear(),
        CreepsChange::Guarded(g, u) => groups[*g as usize].guarded.push(*u),
        CreepsChange::GuardReset(g) => groups[*g as usize].guarded.clear(),
        CreepsChange::Out(g, u, t) => groups[*g as usize].out.push((*u, *t)),
        CreepsChange::Credited(g) => groups[*g as usize].credited = true,
        CreepsChange::Bounty(g, u) => groups[*g as usize].bounties.push(*u),
        CreepsChange::BountyPaid(g, u) => groups[*g as usize].bounties.retain(|b| b != u),
        CreepsChange::Aura(g, u, r, t) => {
            let auras = &mut groups[*g as usize].auras;
            auras.retain(|a| a.0 != *u); // only its latest use matters
            auras.push((*u, *r, *t));
        }
        CreepsChange::Pinned(p) => s.creeps.pins.push(*p),
        CreepsChange::Unpinned(a, t) => s.creeps.pins.retain(|p| (p.archer, p.target) != (*a, *t)),
        CreepsChange::Mesmerized(u, r) => {
            s.creeps.mesmerized.retain(|m| m.1 == *r); // only this round's count
            s.creeps.mesmerized.push((*u, *r));
        }
        CreepsChange::Wounded(w) => {
            s.creeps.wounds.retain(|x| x.head != w.head);
            s.creeps.wounds.push(*w);
        }
        CreepsChange::Quest(q) => {
            s.creeps.quests.retain(|x| x.group != q.group);
            s.creeps.quests.push(q.clone());
        }
        CreepsChange::QuestOver(g) => s.creeps.quests.retain(|x| x.group != *g),
        CreepsChange::Summoned(g, u, d) => {
            s.creeps.groups[*g as usize].members.push((*u, *d));
            s.creeps.summoned.push(*u);
            s.unit_mut(*u).placed = None; // a Creep of the group, not a thing someone placed
        }
        CreepsChange::Hunted(u) => s.creeps.hunted.push(*u),
        CreepsChange::Shade(u, by) => s.creeps.shades.push((*u, *by)),
        CreepsChange::ShadeGone(u) => s.creeps.shades.retain(|x| x.0 != *u),
        CreepsChange::Aegis(u, up) => {
            s.creeps.aegis.retain(|x| x != u);
            if *up {
                s.creeps.aegis.push(*u);
            }
        }
    }
}

/// Builds the unit an [`Event::Spawned`] adds (called by `events::apply` only).
pub fn apply_spawn(s: &mut Facts, who: &Who, sp: &Spawn) {
    debug_assert_eq!(who.idx as usize, s.units.len());
    let side = sp.owner.as_ref().map_or(crate::engine::arena::Side::Neutral, |o| s.unit(o.idx).side);
    s.units.push(std::sync::Arc::new(Unit {
        id: who.id.clone(),
        role: None,
        specialization: None,
        level: 1,
        name: sp.name.as_str().into(),
        side,
        kind: sp.kind,
        pc: false,
        pos: Some(sp.at),
        size: 1,
        hp: sp.hp,
        max_hp: sp.hp,
        speed: sp.speed,
        implement: Implement::None,
        advanced: None,
        stowed: false,
        ward: 0,
        start_ward: 0,
        team_trait: None,
        throne: false,
        special_ward: 0,
        special_from: None,
        statuses: Vec::new(),
        status_mask: 0,
        miss_tokens: 0,
        strikes: 0,
        kills: 0,
        orbs_scored: 0,
        points: 0,
        powers: Vec::new(),
        features: Vec::new(),
        learned: Vec::new(),
        counters: Vec::new(),
        spent: Vec::new(),
        actions: Actions::default(),
        turns_started: 0,
        initiative: 0,
        taken_out: false,
        button: None,
        button_with_orb: false,
        zone_hits: 0,
        wand_hits: Vec::new(),
        hits_this_turn: Vec::new(),
        turn_start: None,
        reversal: false,
        turn_over: false,
        granted_by: None,
        grant_no_boost: false,
        forfeit_move: false,
        granted_move: false,
        compulsion: None,
        armed: Vec::new(),
        triggered_features: Vec::new(),
        cooldowns: Vec::new(),
        brewer: Default::default(),
        charmed: Default::default(),
        placed: Some(Placed {
            owner: sp.owner.as_ref().map(|o| o.idx),
            what: sp.what.as_str().into(),
            charges: sp.charges,
            full: sp.charges,
            free: false,
            fired: None,
            bonus: 0,
            until_turn: sp.until_turn,
            group: sp.group.as_ref().map(|g| g.idx),
            resisted: false,
            loaded: None,
            rider: None,
            beast: Default::default(),
            host: None,
        }),
    }));
    if let Some(b) = &sp.turn_before {
        insert_before(&mut s.order, &mut s.turn_index, who.idx, b.idx);
    }
}

/// Puts `u` in the turn order just before `before` (K-INIT-5); the unit whose turn it is keeps it.
pub fn insert_before(order: &mut Vec<UnitIdx>, turn_index: &mut usize, u: UnitIdx, before: UnitIdx) {
    let at = order.iter().position(|&o| o == before).unwrap_or(order.len());
    order.insert(at, u);
    if at <= *turn_index {
        *turn_index += 1;
    }
}

/// Takes a placed unit off the map for good (called by `events::apply` only). It leaves the
/// turn order at once, or at the end of its own turn if it is the one acting.
pub fn apply_vanish(s: &mut Facts, who: &Who) {
    s.unit_mut(who.idx).pos = None;
    if let Some(i) = s.order.iter().position(|&o| o == who.idx)
        && i != s.turn_index
    {
        s.order.remove(i);
        if i < s.turn_index {
            s.turn_index -= 1;
        }
    }
}

/// Whether the unit whose turn just ended leaves the order instead of passing it on (it
/// vanished during its own turn).
pub fn leaves_order(s: &Facts, u: UnitIdx) -> bool {
    let un = s.unit(u);
    un.placed.is_some() && !un.on_map() && s.order.get(s.turn_index) == Some(&u)
}

/// The host a Pest rides, if it rides one (the `host` of its `placed` record).
pub fn host(u: &Unit) -> Option<UnitIdx> {
    u.placed.as_ref().and_then(|p| p.host)
}

/// Whether `u` is on the map riding a host: it fills no square of its own.
pub fn riding(u: &Unit) -> bool {
    u.on_map() && host(u).is_some()
}

/// Carries every Pest riding `h` to `h`'s square (called by `events::apply` only, after `h`
/// moved, was placed or resized).
pub fn carry(s: &mut Facts, h: UnitIdx) {
    let Some(at) = s.unit(h).pos else { return };
    for u in &mut s.units {
        if riding(u) && host(u) == Some(h) {
            std::sync::Arc::make_mut(u).pos = Some(at);
        }
    }
}

/// A riding Pest that is moved or placed itself lets go of its host (called by
/// `events::apply` only, before the move lands).
pub fn torn_off(s: &mut Facts, p: UnitIdx) {
    if s.unit(p).placed.is_some()
        && let Some(pl) = s.unit_mut(p).placed.as_mut()
    {
        pl.host = None;
    }
}

/// Applies [`Event::Attached`] (called by `events::apply` only).
pub fn apply_attached(s: &mut Facts, pest: UnitIdx, h: Option<UnitIdx>) {
    let at = h.and_then(|h| s.unit(h).pos);
    let u = s.unit_mut(pest);
    if let Some(pl) = u.placed.as_mut() {
        pl.host = h;
    }
    if at.is_some() {
        u.pos = at;
    }
}
