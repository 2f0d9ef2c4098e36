//! Role Boosts (K-ROLL-5, K-ROLE-2, K-ROLE-3): the rider an attack's first roll of 3-6 adds,
//! by role and specialization (§2.11). Fray plays the boosts whose every clause it can follow;
//! the others are listed in docs/rulings/kazzam.md and not applied yet.
//!
//! Order (K-ROLL-4 lets the attacker choose): the boost's damage joins the hit's damage; its
//! other parts come after the Effect.

use crate::engine::kit::{Ctx, Frame};
pub use crate::engine::records::roles::Boost;
use crate::engine::state::{State, UnitIdx};
use crate::rules::forced::{ForcedFrame, ForcedKind};
pub use crate::rules::query::boost_of;
pub use crate::rules::query::extra_damage;

/// Applies the parts of a boost that follow the hit; `damage_given` says its extra damage went
/// into the hit already.
pub fn apply(cx: &mut Ctx, b: Boost, user: UnitIdx, target: UnitIdx, damage_given: bool) {
    let why = format!("{}'s Role Boost", cx.s.unit(user).id);
    match b {
        Boost::Controller => {
            if cx.s.unit(target).on_map() {
                let level4 = cx.s.unit(user).level >= 4;
                // L1833: 4 squares from level 4. Every rival Controller's stat block keeps 3
                // (L2893, L3489, L3745, L4003): a non-player athlete slides 3 (§5, rulings).
                let n = if level4 && cx.s.unit(user).pc { 4 } else { 3 };
                cx.emit(crate::engine::events::Event::Note {
                    text: format!("{why}: slide {} {n} squares", cx.s.unit(target).id),
                });
                let mut f = ForcedFrame::new(cx.s, user, target, ForcedKind::Slide, n);
                f.bump = level4; // L1833: into other characters
                cx.push(Frame::Forced(f));
            }
        }
        Boost::Juggernaut => {
            let x = cx.s.unit(user);
            let gain = if x.level >= 4 && x.ward == 0 { 2 } else { 1 };
            let ward = x.ward + gain;
            cx.emit(crate::engine::events::Event::WardSet { unit: cx.s.who(user), ward, why: why.clone() });
            crate::engine::hooks::ward_gained(cx, user, gain, &why); // Empath
        }
        Boost::Leader => {
            if leader_options(cx.s, user).len() > 1 {
                cx.push(Frame::LeaderBoost { unit: user });
            }
        }
        Boost::Smasher => {
            // Not at full HP when the hit landed: regain 1 HP instead of the extra damage.
            let x = cx.s.unit(user);
            if !damage_given && x.hp < x.max_hp {
                let heal = if x.level >= 4 && cx.s.is_bloodied(user) { 2 } else { 1 };
                crate::rules::damage::heal(cx, user, heal, &why);
            }
        }
        Boost::Punisher => crate::roles::defender_controller::punisher(cx, user, target),
        Boost::Pursuer => crate::roles::defender_controller::pursuer(cx, user, target),
        Boost::Runner => crate::roles::specialists::runner_boost(cx, user),
        Boost::Trapper => crate::roles::specialists::trapper_boost(cx, user, target),
        Boost::TerrainArtist => crate::roles::specialists::terrain_boost(cx, user, target),
        Boost::Striker(st) => crate::roles::striker::after_hit(cx, st, user, target),
        Boost::Hunter => {}
    }
}

/// Whom a Leader's boost may heal: allies it can see (a clear line, not Hidden), the Vanguard
/// itself too; or nobody.
pub fn leader_options(s: &State, u: UnitIdx) -> Vec<fray_core::decision::DecisionOption> {
    let x = s.unit(u);
    let Some(p) = x.pos else { return Vec::new() };
    let vanguard = x.specialization.as_deref() == Some("vanguard");
    let mut out: Vec<fray_core::decision::DecisionOption> = s
        .units_on_map()
        .filter(|&t| (t != u && !s.enemies(u, t)) || (t == u && vanguard))
        .filter(|&t| {
            t == u
                || (crate::rules::cover::shot(s, p, x.size, t) != fray_core::sight::Sight::Blocked
                    && !s.has(t, crate::rules::statuses::StatusKind::Hidden))
        })
        .map(|t| fray_core::decision::DecisionOption::new(s.unit(t).id.to_string(), format!("heal {}", s.unit(t).id)))
        .collect();
    if !out.is_empty() {
        out.push(fray_core::decision::DecisionOption::new("none", "heal nobody"));
    }
    out
}

/// Heals the chosen ally: 2 HP (3 from level 4), +1 for a Rescuer healing a Bloodied ally.
pub fn answer_leader(cx: &mut Ctx, u: UnitIdx, option: &str) {
    if option == "none" {
        return;
    }
    let Some(t) = cx.s.units_on_map().find(|&t| &*cx.s.unit(t).id == option) else { return };
    let x = cx.s.unit(u);
    let rescuer = x.specialization.as_deref() == Some("rescuer");
    let amount = if x.level >= 4 { 3 } else { 2 } + i32::from(rescuer && cx.s.is_bloodied(t));
    let why = format!("{}'s Role Boost", x.id);
    match x.specialization.as_deref() {
        Some("motivator") => over_heal(cx, t, amount, &why),
        Some("tactician") => {
            crate::rules::damage::heal(cx, t, amount, &why);
            // The recipient's side decides its shift of 1 (or stops).
            if cx.s.unit(t).on_map() && crate::rules::summons::takes_actions(cx.s.unit(t)) {
                cx.push(Frame::ShiftSelf { unit: t, left: 1 });
            }
        }
        _ => crate::rules::damage::heal(cx, t, amount, &why),
    }
}

/// Motivator: the boost's healing is not capped at maximum HP.
fn over_heal(cx: &mut Ctx, t: UnitIdx, amount: i32, why: &str) {
    let hp = cx.s.unit(t).hp + amount;
    cx.emit(crate::engine::events::Event::Healed { unit: cx.s.who(t), amount, hp, why: why.into() });
}

/// Start of `unit`'s turn (Motivator): above its maximum HP, it loses 1 HP and is Fierce for
/// this turn.
pub fn turn_started(cx: &mut Ctx, unit: UnitIdx) {
    let u = cx.s.unit(unit);
    if u.hp <= u.max_hp || !u.on_map() {
        return;
    }
    let why = "above its maximum HP".to_string();
    cx.emit(crate::engine::events::Event::HpLost { unit: cx.s.who(unit), amount: 1, hp: u.hp - 1, why: why.clone() });
    let turn = cx.s.unit(unit).turns_started;
    let st = crate::rules::statuses::Status::simple(
        crate::rules::statuses::StatusKind::Fierce,
        crate::rules::statuses::Duration::EndOfTurn { unit, turn },
    );
    crate::rules::statuses::give::give_status(cx, unit, st, &why);
}

/// How Role Boosts apply (K-ROLL-5); Motivator's hit points above the maximum, checked at the
/// start of a turn.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.role_boost(apply);
    r.on_turn(crate::engine::hooks::Trigger::StartEffects, 20, "motivator", turn_started);
}
