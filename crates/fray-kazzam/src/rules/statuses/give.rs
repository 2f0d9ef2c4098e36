//! Giving a creature a status (K-ST): what the status becomes (a summoned creature's Frenzy is
//! Dazed, L1666), whom it reaches (Empathic Bond), who is immune (K-DEF-2), Flying knocked out
//! of the air (K-ST-Flying), and what a new status sets off. Below the attack rules, which give
//! most statuses, so zones, forced movement and classes give them without importing attacks.

use crate::engine::events::Event;
use crate::engine::kit::Ctx;
use crate::engine::state::{State, UnitIdx};
use crate::rules::statuses::{Duration, Status, StatusKind};

/// Gives `target` a status (the status entries' own rules on gaining them live here: Flying
/// creatures knocked Prone fall instead, Incapacitated creatures fall Prone and drop what they
/// maintain, Ongoing damage gained on one's own turn bites at once).
pub fn give_status(cx: &mut Ctx, target: UnitIdx, status: Status, label: &str) {
    let status = crate::rules::beasts::convert(cx.s, target, status); // L1666
    let kind = status.kind;
    // Empathic Bond: a negative status other than a Grab may go to the other of the pair.
    let target = if kind.is_negative() && kind != StatusKind::Grabbed {
        crate::rules::damage::bond_receiver(cx, target, kind.name())
    } else {
        target
    };
    if crate::rules::query::immune(cx.s.unit(target), kind) {
        return; // K-DEF-2, L1371
    }
    // A stat block's immunities (the Charioteer's; the Royal Golem is never Prone).
    if let Some(d) = cx.s.creep_def(target).filter(|d| d.immune.iter().any(|i| i == kind.name())) {
        let text = format!("{} cannot be {kind} ({})", cx.s.unit(target).id, d.name);
        cx.emit(Event::Note { text });
        return;
    }
    if crate::rules::shades::is_shade(cx.s, target) {
        let text = format!("{} is a Shade: it cannot be {kind}", cx.s.unit(target).id);
        cx.emit(Event::Note { text });
        return;
    }
    if kind == StatusKind::Prone && cx.s.has(target, StatusKind::Flying) {
        // K-ST-Flying: lose Flying and fall, but do not fall Prone.
        for st in cx.s.unit(target).statuses.clone().into_iter().filter(|s| s.kind == StatusKind::Flying) {
            cx.emit(Event::StatusEnded { unit: cx.s.who(target), status: st, why: "knocked out of the air".into() });
        }
        // K-ST-Flying: falling onto a square it may not occupy, it takes the nearest legal one.
        crate::rules::movement::settle_on_legal_square(cx, target, "falls beside the creature below");
        return;
    }
    if kind == StatusKind::Hidden && cx.s.has(target, StatusKind::Revealed) {
        return; // K-ST-Revealed
    }
    if kind == StatusKind::Hidden && crate::rules::map_rules::on_throne(cx.s, target) {
        cx.emit(Event::Note { text: format!("{} cannot be Hidden on the Throne (K-CONC-9)", cx.s.unit(target).id) });
        return;
    }
    if kind == StatusKind::Flying && !cx.s.has(target, StatusKind::Flying) && flyer_above(cx.s, target) {
        // K-ST-Flying: the air above is taken by another Flying creature (see rulings).
        cx.emit(Event::Note { text: format!("{} cannot take to the air: a flyer is above it", cx.s.unit(target).id) });
        return;
    }
    if kind == StatusKind::Revealed {
        // K-ST-Revealed: a Revealed creature cannot be Hidden, so it stops being Hidden.
        for st in cx.s.unit(target).statuses.clone().into_iter().filter(|s| s.kind == StatusKind::Hidden) {
            cx.emit(Event::StatusEnded { unit: cx.s.who(target), status: st, why: "revealed".into() });
        }
    }
    // Same source, same power: the new instance replaces the old (no stacking).
    if let Some(old) = cx
        .s
        .unit(target)
        .statuses
        .iter()
        .find(|s| s.kind == kind && s.source == status.source && s.origin == status.origin && status.origin.is_some())
        .copied()
    {
        cx.emit(Event::StatusEnded { unit: cx.s.who(target), status: old, why: "replaced".into() });
    }
    // K-OPP-9: taking off counts as leaving your square — unless the Flying was forced on you,
    // which is forced movement and grants nothing (K-FM-1, K-FM-2).
    if kind == StatusKind::Flying && status.source == Some(target) && !cx.s.has(target, StatusKind::Flying) {
        for t in cx.s.units_on_map().collect::<Vec<_>>() {
            if cx.s.distance(t, target) == Some(1)
                && crate::rules::opportunity::may_take(cx.s, t, target)
                && !cx.s.has(target, StatusKind::Nimble)
            {
                crate::rules::opportunity::take(cx, t, target, "taking off");
            }
        }
        if !cx.s.unit(target).on_map() {
            return;
        }
    }
    cx.emit(Event::StatusGained { unit: cx.s.who(target), status, label: label.into() });
    crate::engine::hooks::status_given(cx, target, &status); // K-CAI-1, Jinxer
    match kind {
        StatusKind::Incapacitated => {
            if !cx.s.unit(target).statuses.iter().any(|s| s.kind == StatusKind::Prone) {
                give_status(cx, target, Status::simple(StatusKind::Prone, Duration::Indefinite), "falls down");
            }
            crate::rules::damage::release_maintained(cx, target, "its source is Incapacitated");
        }
        StatusKind::Ongoing if cx.s.current() == Some(target) => {
            crate::rules::damage::deal(
                cx,
                target,
                status.amount,
                status.source,
                "ongoing damage gained during its own turn",
                None,
            );
        }
        StatusKind::Prone | StatusKind::Grabbed | StatusKind::Restrained | StatusKind::Immobilized => {}
        _ => {}
    }
}

/// Whether another Flying creature's footprint overlaps `u`'s.
pub fn flyer_above(s: &State, u: UnitIdx) -> bool {
    let (Some(p), size) = (s.unit(u).pos, s.unit(u).size) else { return false };
    s.units_on_map().any(|o| {
        o != u
            && s.has(o, StatusKind::Flying)
            && fray_core::geometry::overlaps(p, size, s.unit(o).pos.unwrap(), s.unit(o).size)
    })
}
