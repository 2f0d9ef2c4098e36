//! Attacks and Opportunities made from a Porter's Source Warp (source-warp, L962-968): the
//! warp's square is the attack's origin, as though the Porter stood there. An attack made from
//! the warp is a [`crate::rules::actions::Verb::WarpPower`] (command field `from = [x, y]`, menu
//! target options `<unit>@x,y`); its `AttackFrame` has `warp` set and its `origin` on the warp,
//! and range, line of sight, cover, flanking, the Opportunities it grants, the staff's range
//! bonus, the distance Spellwarp Sniper and Portal Brawler read and the direction of its pushes
//! and pulls are all judged from that square. The warp is also a square the Porter takes
//! Opportunities from (`opportunity::vantages`). Every warp of a Porter lends it sight
//! ([`sees_through_warps`]) for powers that roll nothing.

use crate::content::powers::{PowerDef, Targeting};
use crate::engine::state::{State, UnitIdx};
pub use crate::rules::actions::sees_through_warps;
pub use crate::rules::attack::{aim_forced_from_warp as aim_forced, warp_implement_bonus as implement_bonus};
pub use crate::rules::query::{
    SOURCE_WARP, parse_warp_option as parse_option, source_warps as squares, warp_distance as distance_from,
    warp_vantages as vantages,
};
use fray_core::decision::DecisionOption;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// Whether `def` may be made from a warp: an attack roll against chosen creatures, with no
/// Rust power hook, charm, Potion, zone or every-target rule of its own (bursts and areas stay
/// centred on or measured from the Porter's body; see rulings).
pub fn eligible(def: &PowerDef) -> bool {
    matches!(
        def.target,
        Targeting::Implement | Targeting::Melee | Targeting::Ranged { .. } | Targeting::Creature { .. }
    ) && def.rolls()
        && def.is_attack()
        && def.hook.is_none()
        && def.charm.is_none()
        && def.delivers.is_none()
        && def.zone.is_none()
        && !def.every_target
        && !crate::classes::tamer::hooked(def)
}

/// Checks `u` using `power` on `targets` from its Source Warp at `from`.
pub fn check(s: &State, u: UnitIdx, power: u16, targets: &[UnitIdx], from: Pos) -> Result<(), RuleError> {
    let def = s.powers.get(power);
    crate::rules::actions::check_power_use(s, u, power, false)?;
    if !s.unit(u).on_map() {
        return Err(crate::engine::kit::refuse("K-DUN-1", format_args!("{} is not on the map", s.unit(u).id)));
    }
    if !squares(s, u).contains(&from) {
        return Err(crate::engine::kit::refuse(
            SOURCE_WARP,
            format_args!("{} has no Source Warp at {from}", s.unit(u).id),
        ));
    }
    if !eligible(def) {
        return Err(crate::engine::kit::refuse(
            SOURCE_WARP,
            format_args!("{} cannot be made from a warp: only attack rolls against chosen creatures can", def.name),
        ));
    }
    crate::rules::control::check_power(s, u, def, targets)?;
    let most = def.max_targets_at(s.unit(u).level) as usize;
    if targets.is_empty() || targets.len() > most {
        return Err(RuleError::malformed(format!("{} takes one to {most} targets", def.name)));
    }
    if targets.iter().enumerate().any(|(i, t)| targets[..i].contains(t)) {
        return Err(RuleError::malformed(format!("{} names the same target twice", def.name)));
    }
    for &t in targets {
        crate::rules::actions::check_target_at(s, u, power, t, false, Some(from))?;
    }
    crate::engine::triggers::check_use(s, u, power, targets, false)
}

/// The menu's extra target options for `power`: `<unit>@x,y`, a target reached from the Source
/// Warp at x,y (one target: a power of several targets names the others by command).
pub fn options(s: &State, u: UnitIdx, power: u16) -> Vec<DecisionOption> {
    let def = s.powers.get(power);
    if !eligible(def) || !s.unit(u).on_map() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for at in squares(s, u) {
        for t in s.units_on_map() {
            if check(s, u, power, &[t], at).is_ok() {
                let label = format!("{} at {}, from the warp at {at}", s.unit(t).name, s.unit(t).pos.unwrap());
                out.push(DecisionOption::new(format!("{}@{},{}", s.unit(t).id, at.x, at.y), label));
            }
        }
    }
    out
}

/// The menu options and check of attacks made from a Source Warp, for `actions` to reach
/// through the hook table.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.warp_attacks(options, check);
}
