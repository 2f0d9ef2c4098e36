//! The Lost Soul Team's Shades (the Shadekeeper's trait, L2635-2672) as the damage path sees
//! them: a Lost Soul that would be Taken Out while its Shadekeeper stands becomes a Shade
//! instead, untouched by damage and statuses. The Shadekeeper's action and the Shades' end
//! are in [`crate::rules::creeps::lost_souls`].

use crate::engine::events::Event;
use crate::engine::kit::Ctx;
use crate::engine::records::creeps::Change;
use crate::engine::state::{State, UnitIdx, UnitKind};

/// The stat-block hook that marks a Shadekeeper (its action, Raise Shade).
pub const KEEPER: &str = "raise-shade";

/// Whether `u` is a Shade.
pub fn is_shade(s: &State, u: UnitIdx) -> bool {
    s.creeps.shades.iter().any(|x| x.0 == u)
}

/// Whether Creep `u` is a Shadekeeper.
pub fn is_keeper(s: &State, u: UnitIdx) -> bool {
    s.creep_def(u).is_some_and(|d| d.action.iter().any(|a| a.hook.as_deref() == Some(KEEPER)))
}

/// A Creep reaching 0 HP: a Team member of a group whose Shadekeeper (not itself) is on the map
/// becomes a Shade (1 HP; it stays and acts) instead of being Taken Out. True if it did.
pub fn becomes_shade(cx: &mut Ctx, unit: UnitIdx, by: Option<UnitIdx>) -> bool {
    let s = &*cx.s;
    if s.unit(unit).kind != UnitKind::Creep || !s.unit(unit).on_map() || is_shade(s, unit) || is_keeper(s, unit) {
        return false;
    }
    if s.creep_def(unit).is_none_or(|d| d.team.is_none()) {
        return false;
    }
    let Some(g) = crate::rules::query::group_of(s, unit) else { return false };
    let keeper =
        s.creeps.groups[g as usize].members.iter().any(|m| m.0 != unit && s.unit(m.0).on_map() && is_keeper(s, m.0));
    if !keeper {
        return false;
    }
    let text = format!("{} becomes a Shade (Shadekeeper)", s.unit(unit).id);
    cx.emit(Event::Creeps { change: Change::Shade(unit, by), text });
    let who = cx.s.who(unit);
    cx.emit(Event::Healed { unit: who, amount: 1, hp: 1, why: "a Shade".into() });
    true
}
