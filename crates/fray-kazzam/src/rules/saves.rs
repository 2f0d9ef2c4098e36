//! Saving throws (K-SAVE) and how Advantage and Disadvantage combine on a roll (K-ADV-0): the
//! roll every rule area makes when a status, a zone or a curse gives a creature its chance. Low
//! in the layers: it reaches classes only through the hook table.

use crate::engine::events::{Event, RollMode};
use crate::engine::kit::{Ctx, Rolls};
use crate::engine::records::statuses::StatusKind;
use crate::engine::state::UnitIdx;
use fray_core::ruleset::RuleError;

/// Advantage and Disadvantage cancel (rulings K-ADV-0).
pub fn combine((adv, dis): (bool, bool)) -> RollMode {
    match (adv, dis) {
        (true, false) => RollMode::Advantage,
        (false, true) => RollMode::Disadvantage,
        _ => RollMode::Normal,
    }
}

/// A saving throw: d6, 4-6 succeeds (K-SAVE-1), with Disadvantage while Distracted (K-SAVE-5).
pub fn saving_throw(cx: &mut Ctx, unit: UnitIdx, what: &str) -> Result<bool, RuleError> {
    Ok(saving_roll(cx, unit, what)?.1)
}

/// A saving throw, with the number it came to (Perfect Shot compares it).
pub fn saving_roll(cx: &mut Ctx, unit: UnitIdx, what: &str) -> Result<(i32, bool), RuleError> {
    // K-SAVE-4: a Champion always saves, a Stooge never does; no die either way.
    if let Some(success) = cx.s.creep_def(unit).and_then(|d| d.kind.save()) {
        let why = if success { "a Champion always saves" } else { "a Stooge never saves" };
        let roll = if success { 6 } else { 1 };
        cx.emit(Event::Save { unit: cx.s.who(unit), what: format!("{what} ({why})"), roll, success });
        return Ok((roll, success));
    }
    if (crate::engine::hooks::charms(cx.s).saves_succeed)(cx.s, unit) {
        // Luck Charm: the save succeeds with no roll.
        cx.emit(Event::Save { unit: cx.s.who(unit), what: format!("{what} (Luck Charm)"), roll: 6, success: true });
        return Ok((6, true));
    }
    let mut roll = cx.d6(Some(unit))?;
    // Distracted: the lower of two dice (K-SAVE-5); Restore's Advantage (used up) and Coin of
    // Fortune's cancel it or give the higher (K-ADV-0).
    let restore = (crate::engine::hooks::role_actions(cx.s).save_advantage)(cx, unit);
    let (adv, dis) = crate::rules::query::fortune(cx.s, unit);
    match combine((adv || restore, dis || cx.s.has(unit, StatusKind::Distracted))) {
        RollMode::Advantage => roll = roll.max(cx.d6(Some(unit))?),
        RollMode::Disadvantage => roll = roll.min(cx.d6(Some(unit))?),
        RollMode::Normal => {}
    }
    let success = roll >= 4;
    cx.emit(Event::Save { unit: cx.s.who(unit), what: what.into(), roll, success });
    if !success {
        (crate::engine::hooks::taming(cx.s).save_failed)(cx, unit); // Summon Scalehound
    }
    crate::engine::hooks::save_made(cx, unit, what)?; // Empath
    Ok((roll, success))
}
