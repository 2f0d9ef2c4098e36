//! Orbs and pedestals (K-ORB): picking up, handing, taking, dropping and dunking, and the
//! points a dunk scores (K-SCO-4). Each check returns the rule that refuses it.

use crate::engine::arena::Side;
use crate::engine::events::Event;
use crate::engine::kit::Ctx;
use crate::engine::state::{OrbIdx, OrbLoc, State, UnitIdx};
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// Where an orb lies, if on a pedestal or the ground.
pub fn orb_square(s: &State, o: OrbIdx) -> Option<Pos> {
    match s.orbs[o as usize].loc {
        OrbLoc::Pedestal { pedestal } => Some(s.arena.pedestals[pedestal as usize].at),
        OrbLoc::Ground { at } => Some(at),
        OrbLoc::Held { .. } => None,
    }
}

fn near(s: &State, u: UnitIdx, p: Pos) -> bool {
    let un = s.unit(u);
    un.pos.is_some_and(|up| distance(up, un.size, p, 1) <= 1)
}

fn own_orb(s: &State, u: UnitIdx, o: OrbIdx) -> Result<(), RuleError> {
    if !crate::rules::query::holds_orbs(s.unit(u)) {
        // Only athletes and Creeps carry orbs (see rulings: things put on the map).
        return Err(crate::engine::kit::refuse("K-ORB-4", format_args!("{} cannot carry orbs", s.unit(u).id)));
    }
    if s.orbs[o as usize].color == s.unit(u).side {
        return Err(crate::engine::kit::refuse(
            "K-ORB-5",
            format_args!("{} cannot move or touch its own team's orb {}", s.unit(u).id, s.orbs[o as usize].id),
        ));
    }
    Ok(())
}

/// Hands free to carry one more orb: the implement takes one hand unless stowed (K-ORB-6).
pub fn free_hands(s: &State, u: UnitIdx) -> i32 {
    let held = (s.held_orbs(u).count() + s.unit(u).brewer.elixirs.len()) as i32; // Elixirs take a hand too
    // The implement takes a hand unless stowed, absent, or a Wristwand.
    let handless = s.unit(u).stowed
        || s.unit(u).implement == crate::engine::state::Implement::None
        || crate::rules::query::handless(s, u);
    let implement = if handless { 0 } else { 1 };
    2 - implement - held
}

/// Whether orb `o` lies where `u` could pick it up or could take it from an ally: on the ground
/// or a pedestal in or next to `u`'s square, or held by someone next to `u`. Every orb that
/// [`check_pick_up`] or [`check_take`] allows passes; a menu asks this first, as it is cheaper.
#[inline]
pub fn within_reach(s: &State, u: UnitIdx, o: OrbIdx) -> bool {
    match s.orbs[o as usize].loc {
        OrbLoc::Held { by } => by != u && s.distance(u, by) == Some(1),
        _ => orb_square(s, o).is_some_and(|p| near(s, u, p)),
    }
}

/// K-ORB-4, K-ORB-5, K-ORB-6: picking up an orb in your square or an adjacent one.
pub fn check_pick_up(s: &State, u: UnitIdx, o: OrbIdx) -> Result<(), RuleError> {
    if !crate::rules::query::holds_orbs(s.unit(u)) {
        return Err(crate::engine::kit::refuse("K-ORB-4", format_args!("{} cannot carry orbs", s.unit(u).id)));
    }
    own_orb(s, u, o)?;
    let Some(p) = orb_square(s, o) else {
        return Err(crate::engine::kit::refuse(
            "K-ORB-4",
            format_args!("orb {} is being carried; ask for it to be handed over", s.orbs[o as usize].id),
        ));
    };
    if !near(s, u, p) {
        return Err(crate::engine::kit::refuse(
            "K-ORB-4",
            format_args!("orb {} at {p} is not in or next to {}'s square", s.orbs[o as usize].id, s.unit(u).id),
        ));
    }
    if free_hands(s, u) <= 0 {
        return Err(crate::engine::kit::refuse(
            "K-ORB-6",
            format_args!("{} has no free hand: stow the implement to carry a second orb", s.unit(u).id),
        ));
    }
    Ok(())
}

/// K-ORB-9: dropping an orb in your square or an adjacent one.
pub fn check_drop(s: &State, u: UnitIdx, o: OrbIdx, at: Pos) -> Result<(), RuleError> {
    if s.orbs[o as usize].loc != (OrbLoc::Held { by: u }) {
        return Err(crate::engine::kit::refuse(
            "K-ORB-9",
            format_args!("{} is not carrying orb {}", s.unit(u).id, s.orbs[o as usize].id),
        ));
    }
    if !near(s, u, at) || !s.arena.at(at).enterable() {
        return Err(crate::engine::kit::refuse(
            "K-ORB-9",
            format_args!("an orb can be dropped only in {}'s square or an open square next to it", s.unit(u).id),
        ));
    }
    Ok(())
}

/// K-ORB-8: handing an orb to an adjacent ally.
pub fn check_hand(s: &State, u: UnitIdx, o: OrbIdx, to: UnitIdx) -> Result<(), RuleError> {
    if s.orbs[o as usize].loc != (OrbLoc::Held { by: u }) {
        return Err(crate::engine::kit::refuse(
            "K-ORB-8",
            format_args!("{} is not carrying orb {}", s.unit(u).id, s.orbs[o as usize].id),
        ));
    }
    if s.enemies(u, to) || u == to || s.distance(u, to) != Some(1) || !crate::rules::query::holds_orbs(s.unit(to)) {
        return Err(crate::engine::kit::refuse(
            "K-ORB-8",
            format_args!("orbs can be handed only to an adjacent ally; {} is not one", s.unit(to).id),
        ));
    }
    if free_hands(s, to) <= 0 {
        return Err(crate::engine::kit::refuse(
            "K-ORB-6",
            format_args!("{} has no free hand for the orb", s.unit(to).id),
        ));
    }
    Ok(())
}

/// K-ORB-8: taking an orb from a willing adjacent ally.
pub fn check_take(s: &State, u: UnitIdx, o: OrbIdx) -> Result<(), RuleError> {
    let OrbLoc::Held { by } = s.orbs[o as usize].loc else {
        return Err(crate::engine::kit::refuse(
            "K-ORB-8",
            format_args!("orb {} is not being carried; pick it up instead", s.orbs[o as usize].id),
        ));
    };
    if s.enemies(u, by) || by == u || s.distance(u, by) != Some(1) {
        return Err(crate::engine::kit::refuse(
            "K-ORB-8",
            format_args!("orbs can be taken only from a willing adjacent ally; {} is not one", s.unit(by).id),
        ));
    }
    own_orb(s, u, o)?;
    if free_hands(s, u) <= 0 {
        return Err(crate::engine::kit::refuse(
            "K-ORB-6",
            format_args!("{} has no free hand for the orb", s.unit(u).id),
        ));
    }
    Ok(())
}

/// K-ORB-7, K-SCO-4: dunking a carried orb that is not your colour on your own adjacent pedestal.
pub fn check_dunk(s: &State, u: UnitIdx, o: OrbIdx, pedestal: u8) -> Result<(), RuleError> {
    if s.orbs[o as usize].loc != (OrbLoc::Held { by: u }) {
        return Err(crate::engine::kit::refuse(
            "K-ORB-7",
            format_args!("{} is not carrying orb {}", s.unit(u).id, s.orbs[o as usize].id),
        ));
    }
    if crate::rules::quests::can_deliver(s, u, o, pedestal) {
        return Ok(()); // a Royal Golem's quest (K-SCO-10)
    }
    let ped = &s.arena.pedestals[pedestal as usize];
    if ped.side != s.unit(u).side {
        return Err(crate::engine::kit::refuse(
            "K-ORB-7",
            format_args!("pedestal {} is not {}'s team's", ped.id, s.unit(u).id),
        ));
    }
    if !near(s, u, ped.at) {
        return Err(crate::engine::kit::refuse(
            "K-ORB-7",
            format_args!("{} must be adjacent to pedestal {} to dunk", s.unit(u).id, ped.id),
        ));
    }
    own_orb(s, u, o)
}

/// Picks up an orb.
pub fn pick_up(cx: &mut Ctx, u: UnitIdx, o: OrbIdx) {
    let id = cx.s.orbs[o as usize].id.to_string();
    cx.emit(Event::OrbMoved {
        orb: id,
        idx: o,
        to: OrbLoc::Held { by: u },
        why: format!("picked up by {}", cx.s.unit(u).id),
    });
}

/// Drops an orb.
pub fn drop(cx: &mut Ctx, u: UnitIdx, o: OrbIdx, at: Pos) {
    let id = cx.s.orbs[o as usize].id.to_string();
    cx.emit(Event::OrbMoved {
        orb: id,
        idx: o,
        to: OrbLoc::Ground { at },
        why: format!("dropped by {} at {at}", cx.s.unit(u).id),
    });
}

/// Passes an orb between allies.
pub fn give(cx: &mut Ctx, from: UnitIdx, o: OrbIdx, to: UnitIdx) {
    let id = cx.s.orbs[o as usize].id.to_string();
    cx.emit(Event::OrbMoved {
        orb: id,
        idx: o,
        to: OrbLoc::Held { by: to },
        why: format!("passed from {} to {}", cx.s.unit(from).id, cx.s.unit(to).id),
    });
}

/// Dunks: 1 point per orb on the pedestal counting the new one, then the orb turns the
/// dunker's colour (K-SCO-4, K-ORB-11).
pub fn dunk(cx: &mut Ctx, u: UnitIdx, o: OrbIdx, pedestal: u8) {
    if crate::rules::quests::quest_for(cx.s, o, pedestal).is_some() {
        return crate::rules::quests::deliver(cx, u, o, pedestal); // K-SCO-10
    }
    let side: Side = cx.s.unit(u).side;
    let id = cx.s.orbs[o as usize].id.to_string();
    let ped_id = cx.s.arena.pedestals[pedestal as usize].id.clone();
    cx.emit(Event::OrbMoved {
        orb: id.clone(),
        idx: o,
        to: OrbLoc::Pedestal { pedestal },
        why: format!("dunked by {} on {ped_id}", cx.s.unit(u).id),
    });
    let on_pedestal = cx.s.orbs.iter().filter(|x| x.loc == (OrbLoc::Pedestal { pedestal })).count() as i32;
    crate::rules::scoring::score(
        cx,
        side,
        on_pedestal,
        Some(u),
        format!("dunked orb {id} on {ped_id}: {on_pedestal} orb{} there", if on_pedestal == 1 { "" } else { "s" }),
    );
    cx.emit(Event::OrbRecoloured { orb: id, idx: o, color: side });
}
