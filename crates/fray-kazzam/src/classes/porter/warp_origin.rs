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
use crate::engine::kit::{Ctx, Frame};
use crate::engine::state::{Implement, State, UnitIdx};
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;
use fray_core::sight::Sight;

/// The power whose warps are origins.
pub const SOURCE_WARP: &str = "source-warp";

/// The squares of `u`'s Source Warps (one, two with Warp Specialist).
pub fn squares(s: &State, u: UnitIdx) -> Vec<Pos> {
    s.porter.warps.iter().filter(|w| w.owner == u && s.powers.get(w.power).id == SOURCE_WARP).map(|w| w.at).collect()
}

/// Squares `u` takes Opportunities from besides its own: its Source Warps'.
pub fn vantages(s: &State, u: UnitIdx) -> Vec<Pos> {
    if s.unit(u).on_map() { squares(s, u) } else { Vec::new() }
}

/// Whether `u` sees `t` through one of its own warps, of any kind (L920: a line from the warp's
/// square).
pub fn sees_through_warps(s: &State, u: UnitIdx, t: UnitIdx) -> bool {
    s.porter.warps.iter().any(|w| w.owner == u && crate::rules::cover::shot(s, w.at, 1, t) != Sight::Blocked)
}

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

/// Reads a `<unit>@x,y` option.
pub fn parse_option(s: &State, option: &str) -> Option<(UnitIdx, Pos)> {
    let (id, at) = option.split_once('@')?;
    Some((s.find_unit(id)?, Pos::parse(at)?))
}

/// Distance from a warp's square to `t`.
pub fn distance_from(s: &State, at: Pos, t: UnitIdx) -> Option<i32> {
    let tu = s.unit(t);
    Some(distance(at, 1, tu.pos?, tu.size))
}

/// The implement's damage bonus for an attack from the warp at `at`: a staff's +1 counts its 3
/// squares from the warp (K-IMP-5); the rest as usual.
pub fn implement_bonus(s: &State, attacker: UnitIdx, target: UnitIdx, def: &PowerDef, at: Pos) -> i32 {
    if def.uses_implement() && s.unit(attacker).implement == Implement::Staff {
        let far = distance_from(s, at, target).is_some_and(|d| d >= 3);
        return i32::from(far || crate::rules::zones::revealed_to(s, attacker, target));
    }
    crate::rules::attack::implement_bonus(s, attacker, target, def)
}

/// Pushes and pulls the attack queued (frames above `since`) are made away from or toward the
/// warp's square, not the Porter's body.
pub fn aim_forced(cx: &mut Ctx, since: usize, attacker: UnitIdx, at: Pos) {
    for f in cx.s.flow.iter_mut().skip(since) {
        if let Frame::Forced(f) = f
            && f.mover == attacker
        {
            f.origin = at;
        }
    }
}
