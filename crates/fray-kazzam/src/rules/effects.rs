//! Which creatures an Effect primitive applies to: its `to` filter, its target condition
//! (`if_target`, `unless_target`) and its `when` condition, judged on the state.

use crate::content::powers::{Affects, Effect};
use crate::engine::state::{State, UnitIdx};
use crate::rules::statuses::StatusKind;

impl Effect {
    /// Whether the primitive's target condition holds (checked before the hit's damage).
    pub fn condition_holds(&self, s: &State, target: UnitIdx) -> bool {
        self.target_condition_holds(s, target)
    }
    /// Whether the primitive applies to `target` of `user`'s power: its target condition and
    /// its `to` filter.
    pub fn applies_to(&self, s: &State, user: UnitIdx, target: UnitIdx) -> bool {
        self.to.is_none_or(|a| a.includes(s, user, target))
            && self.condition_holds(s, target)
            && self.when.as_deref().is_none_or(|w| when_holds(s, w, user, target))
    }
    fn target_condition_holds(&self, s: &State, target: UnitIdx) -> bool {
        let has = |name: &str| {
            if name == "bloodied" {
                s.is_bloodied(target)
            } else {
                StatusKind::parse(name).is_some_and(|k| s.has(target, k))
            }
        };
        self.if_target.as_deref().is_none_or(has) && !self.unless_target.as_deref().is_some_and(has)
    }
}

/// Whether a `when` condition ([`crate::content::powers::WHEN`]) holds for `user`'s primitive on `target`.
fn when_holds(s: &State, when: &str, user: UnitIdx, target: UnitIdx) -> bool {
    let (Some(up), Some(tp)) = (s.unit(user).pos, s.unit(target).pos) else { return false };
    match when {
        "target-cannot-see-you" => {
            s.has(target, StatusKind::Blinded)
                || s.hidden_from(user, target)
                || crate::rules::cover::shot(s, tp, s.unit(target).size, user) == fray_core::sight::Sight::Blocked
        }
        "target-has-cover" => {
            crate::rules::cover::has_cover(s, up, s.unit(user).size, target)
                || crate::rules::cover::concealed_from(s, target, user)
        }
        "you-have-ward" => s.unit(user).ward > 0, // Ward Bash, Ward Burst
        _ => false,
    }
}

impl Affects {
    /// Whether `t` is affected by a power of `user`.
    pub fn includes(self, s: &State, user: UnitIdx, t: UnitIdx) -> bool {
        if s.unit(t).kind == crate::engine::state::UnitKind::Conjured {
            return false; // K-DEF-5: nothing targets a conjured creature
        }
        match self {
            Affects::All => true,
            Affects::Others => t != user,
            Affects::Enemies => s.enemies(user, t),
            Affects::Allies => t != user && !s.enemies(user, t),
            Affects::AlliesAndYou => !s.enemies(user, t),
            Affects::Teammates => teammate(s, user, t),
            Affects::AllButTeammates => !teammate(s, user, t),
        }
    }
}

/// K-CREAT-4: `t` is one of `user`'s teammates, another athlete of its team.
fn teammate(s: &State, user: UnitIdx, t: UnitIdx) -> bool {
    t != user && s.unit(t).kind == crate::engine::state::UnitKind::Athlete && s.unit(t).side == s.unit(user).side
}
