//! Conditions given and ended (DS-COND-*, DS-DUR-*): one source at a time for frightened,
//! taunted and grabbed, no stacking, EoT durations, letting go of a grab. Knocked prone in the
//! air, a creature falls ([`crate::forced::fall`]).

use crate::events::{Ctx, Event};
use crate::model::ConditionKind;
use crate::state::{Cx, Until};

/// Gives a condition; a new frightening or taunting source replaces the old one
/// (DS-COND-FRIGHT, DS-COND-TAUNT).
pub fn give_condition(cx: &mut Ctx, c: Cx, kind: ConditionKind, source: Option<Cx>, until: Until) {
    if matches!(kind, ConditionKind::Frightened | ConditionKind::Taunted | ConditionKind::Grabbed) {
        for old in cx.s.c(c).conditions.clone().into_iter().filter(|x| x.kind == kind) {
            cx.emit(Event::ConditionEnded {
                creature: cx.s.who(c),
                condition: old,
                why: "replaced by a new source".into(),
            });
        }
    } else if let Some(old) = cx.s.c(c).conditions.iter().find(|x| x.kind == kind).copied() {
        // The same condition from another source does not stack (DS-GAP-19): keep one.
        cx.emit(Event::ConditionEnded { creature: cx.s.who(c), condition: old, why: "renewed".into() });
    }
    cx.emit(Event::ConditionGained {
        creature: cx.s.who(c),
        condition: crate::state::Condition { kind, source, until },
    });
    // DS-COND-PRONE-1: knocked prone while flying, it falls.
    if kind == ConditionKind::Prone && cx.s.c(c).flying {
        cx.emit(Event::Flying { creature: cx.s.who(c), flying: false });
        let _ = crate::forced::fall(cx, c);
    }
}

/// "EoT": to the end of the creature's next turn, or of this one if it is its turn (DS-DUR-EOT).
pub fn eot(cx: &Ctx, c: Cx) -> Until {
    let x = cx.s.c(c);
    let turn = if cx.s.current == Some(c) { x.turns } else { x.turns + 1 };
    Until::EndOfTurn { who: c, turn }
}

/// Ends the grab on `v`.
pub fn release(cx: &mut Ctx, v: Cx, why: &str) {
    for cond in cx.s.c(v).conditions.clone().into_iter().filter(|x| x.kind == ConditionKind::Grabbed) {
        cx.emit(Event::ConditionEnded { creature: cx.s.who(v), condition: cond, why: why.into() });
    }
}
