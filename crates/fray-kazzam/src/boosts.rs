//! Role Boosts (K-ROLL-5, K-ROLE-2, K-ROLE-3): the rider an attack's first roll of 3-6 adds,
//! by role and specialization (§2.11). Fray plays the boosts whose every clause it can follow;
//! the others are listed in docs/rulings/kazzam.md and not applied yet.
//!
//! Order (K-ROLL-4 lets the attacker choose): the boost's damage joins the hit's damage; its
//! other parts come after the Effect.

use crate::flow::{Ctx, Frame};
use crate::forced::{ForcedFrame, ForcedKind};
use crate::state::{State, UnitIdx};

/// A Role Boost Fray applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boost {
    /// Controller (every specialization): slide the target 3 squares (levels 1-3).
    Controller,
    /// Juggernaut: gain 1 Ward (level 4+: 2 if you have none).
    Juggernaut,
    /// Smasher: at full HP 1 more damage; otherwise regain 1 HP (level 4+: 2 while Bloodied).
    Smasher,
}

/// The Role Boost `u` gets, if Fray plays it.
pub fn boost_of(s: &State, u: UnitIdx) -> Option<Boost> {
    let x = s.unit(u);
    match (x.role.as_deref(), x.specialization.as_deref()) {
        // From level 4 the Controller boost also slides into other characters, which is not
        // modelled: the boost is applied at levels 1-3 only.
        (Some("controller"), _) if x.level < 4 => Some(Boost::Controller),
        (Some("defender"), Some("juggernaut")) => Some(Boost::Juggernaut),
        (Some("defender"), Some("smasher")) => Some(Boost::Smasher),
        _ => None,
    }
}

/// Applies the parts of a boost that follow the hit; `damage_given` says its extra damage went
/// into the hit already.
pub fn apply(cx: &mut Ctx, b: Boost, user: UnitIdx, target: UnitIdx, damage_given: bool) {
    let why = format!("{}'s Role Boost", cx.s.unit(user).id);
    match b {
        Boost::Controller => {
            if cx.s.unit(target).on_map() {
                cx.emit(crate::events::Event::Note {
                    text: format!("{why}: slide {} 3 squares", cx.s.unit(target).id),
                });
                cx.push(Frame::Forced(ForcedFrame::new(cx.s, user, target, ForcedKind::Slide, 3)));
            }
        }
        Boost::Juggernaut => {
            let x = cx.s.unit(user);
            let gain = if x.level >= 4 && x.ward == 0 { 2 } else { 1 };
            let ward = x.ward + gain;
            cx.emit(crate::events::Event::WardSet { unit: cx.s.who(user), ward, why });
        }
        Boost::Smasher => {
            // Not at full HP when the hit landed: regain 1 HP instead of the extra damage.
            let x = cx.s.unit(user);
            if !damage_given && x.hp < x.max_hp {
                let heal = if x.level >= 4 && cx.s.is_bloodied(user) { 2 } else { 1 };
                crate::damage::heal(cx, user, heal, &why);
            }
        }
    }
}
