//! Power rolls (DS-ROLL, DS-EB, DS-GAP-1..3): 2d10 plus a characteristic and bonuses, read on
//! three tiers; edges and banes; natural 19-20; tests (DS-TEST, DS-SKILL) and saving throws
//! (DS-DUR-SAVE). The data (tiers, edges and banes, tests) is [`crate::power_roll`]; this rolls
//! them and journals the dice.

use crate::events::{Ctx, Event};
use crate::state::Cx;
use fray_core::ruleset::RuleError;

pub use crate::power_roll::{Difficulty, Mods, Rolled, TestKind, test_outcome, tiers};

/// Rolls 2d10 for `c` and adds `bonus` (DS-GAP-1).
pub fn roll(cx: &mut Ctx, c: Cx, bonus: i32) -> Result<Rolled, RuleError> {
    let a = cx.dice.roll(10)? as i32;
    let b = cx.dice.roll(10)? as i32;
    let r = Rolled { dice: [a, b], natural: a + b, bonus };
    cx.emit(Event::PowerRoll {
        creature: cx.s.who(c),
        dice: r.dice,
        natural: r.natural,
        bonus,
        total: r.natural + bonus,
    });
    if r.natural_crit() {
        crate::heroic::natural_crit(cx, c); // DS-GAP-15: the troubadour's drama
    }
    Ok(r)
}

/// A saving throw: d10, 6 or more succeeds (DS-DUR-SAVE).
pub fn save(cx: &mut Ctx, c: Cx, what: &str) -> Result<bool, RuleError> {
    let roll = cx.dice.roll(10)? as i32;
    let success = roll >= 6;
    cx.emit(Event::Save { creature: cx.s.who(c), what: what.into(), roll, success });
    Ok(success)
}
