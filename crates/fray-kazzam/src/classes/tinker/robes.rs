//! The Tinker's robe tricks (L1390-1393), which act when an enemy's attack misses the Tinker:
//! Redirecting puts a charge into one of its traps (`summons::redirect`); Absorbing keeps the
//! missed attack (a [`Feature::Absorbing`] counter holding the power) and turns it on the next
//! enemy whose attack hits the Tinker, read as a roll of 4.

use crate::classes::features::{Feature, set_counter};
use crate::engine::events::Event;
use crate::engine::kit::{Ctx, Frame};
use crate::engine::state::UnitIdx;
use crate::rules::attack::{AttackFrame, Stage};

/// The roll a kept attack counts as (L1393).
const ABSORBED_ROLL: i32 = 4;

/// `attacker`'s attack roll missed `target` (not an Interrupt's evasion, see rulings).
pub fn missed(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx, power: u16, evaded: bool) {
    if evaded || !cx.s.enemies(target, attacker) || !cx.s.unit(target).on_map() {
        return;
    }
    if cx.s.has_feature(target, Feature::Redirecting) {
        crate::rules::summons::redirect(cx, target);
    }
    if cx.s.has_feature(target, Feature::Absorbing) {
        cx.emit(Event::Note { text: format!("{}'s robes keep {}", cx.s.unit(target).id, cx.s.powers.get(power).name) });
        set_counter(cx, target, Feature::Absorbing, i32::from(power) + 1, None);
    }
}

/// The power `u`'s robes keep, if any.
pub fn kept(s: &crate::engine::state::State, u: UnitIdx) -> Option<u16> {
    let (v, _) = s.counter(u, Feature::Absorbing);
    (v > 0).then(|| (v - 1) as u16)
}

/// `attacker`'s attack hit `target`: a kept attack strikes back, placed at `below` in the flow so
/// that what the hit queued resolves first.
pub fn hit(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx, below: usize) {
    if !cx.s.has_feature(target, Feature::Absorbing)
        || !cx.s.enemies(target, attacker)
        || !cx.s.unit(target).on_map()
        || !cx.s.unit(attacker).on_map()
    {
        return;
    }
    let Some(power) = kept(cx.s, target) else { return };
    set_counter(cx, target, Feature::Absorbing, 0, None);
    cx.emit(Event::Note {
        text: format!(
            "{}'s robes let loose the kept {} on {}",
            cx.s.unit(target).id,
            cx.s.powers.get(power).name,
            cx.s.unit(attacker).id
        ),
    });
    let origin = cx.s.unit(target).pos.unwrap();
    let mut a = AttackFrame::new(target, power, vec![attacker], origin);
    a.stage = Stage::Roll;
    a.fixed = Some(ABSORBED_ROLL);
    a.no_boost = true;
    let at = below.min(cx.s.flow.len());
    cx.s.flow.insert(at, Frame::Attack(Box::new(a)));
}

/// Redirecting and Absorbing Robes on a miss, Absorbing Robes on a hit.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_hit(30, "absorbing-robes", |cx, h| {
        hit(cx, h.attacker, h.target, h.below);
        Ok(())
    });
    r.on_missed(70, "robes", |cx, m| {
        missed(cx, m.attacker, m.target, m.power, m.evaded);
        Ok(())
    });
}
