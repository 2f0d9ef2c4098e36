//! Rest after a fight (DS-REST-1..3). A respite is a day of safe, unbroken rest between
//! combats: it gives back every Recovery and all Stamina and turns the heroes' Victories into
//! Experience. An interrupted respite gives nothing, and neither does an ordinary night's sleep.
//! Fray takes a respite only once the combat is over; the respite activity (a project roll, a
//! kit change) is the table's business and is not modelled.

use crate::events::{Ctx, Event};
use crate::state::{Cx, State};
use fray_core::ruleset::RuleError;

/// How the heroes rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rest {
    /// A full respite: 24 uninterrupted hours somewhere safe (DS-REST-1, DS-REST-2).
    Respite,
    /// A respite cut short: no benefit (DS-REST-2).
    Interrupted,
    /// A night's sleep: not a respite (DS-REST-3).
    Sleep,
}

impl Rest {
    /// Parses "respite", "interrupted" or "sleep".
    pub fn parse(s: &str) -> Option<Rest> {
        match s.trim().to_lowercase().as_str() {
            "respite" => Some(Rest::Respite),
            "interrupted" | "interrupted-respite" => Some(Rest::Interrupted),
            "sleep" | "night" => Some(Rest::Sleep),
            _ => None,
        }
    }
}

/// Whether `c` may rest now: after the combat, a living hero (DS-REST-1).
pub fn check(s: &State, c: Cx) -> Result<(), RuleError> {
    let x = s.c(c);
    if s.outcome.is_none() {
        return Err(RuleError::refused(
            "DS-REST-1",
            "a respite takes 24 safe, uninterrupted hours: not in the middle of a combat",
        ));
    }
    if !x.hero {
        return Err(RuleError::refused("DS-REST-1", format!("{} is not a hero: respites are for heroes", x.id)));
    }
    if x.dead {
        return Err(RuleError::refused("DS-HP-DEATH", format!("{} is dead", x.id)));
    }
    Ok(())
}

/// Rests.
pub fn take(cx: &mut Ctx, c: Cx, how: Rest) {
    let x = cx.s.c(c);
    match how {
        Rest::Respite => {
            let (stamina, recoveries) = (x.max_stamina, x.max_recoveries);
            let experience = x.experience + x.victories;
            cx.emit(Event::Respite { creature: cx.s.who(c), stamina, recoveries, experience });
        }
        Rest::Interrupted => cx.emit(Event::Note {
            text: format!("{}'s respite is interrupted: no Stamina, Recoveries or Experience from it", x.id),
        }),
        Rest::Sleep => cx.emit(Event::Note {
            text: format!("{} sleeps the night: rest, but not a respite, so nothing comes back", x.id),
        }),
    }
}

/// Victories for a won combat (DS-REST-2): each hero still alive earns one (Fray's reading of
/// the published rule that the Director awards victories for overcoming an encounter).
pub fn award_victories(cx: &mut Ctx) {
    for c in cx.s.all().collect::<Vec<_>>() {
        let x = cx.s.c(c);
        if x.hero && !x.dead {
            let total = x.victories + 1;
            cx.emit(Event::Victories { creature: cx.s.who(c), total });
        }
    }
}
