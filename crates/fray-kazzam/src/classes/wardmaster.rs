//! Wardmaster powers that spend or answer with Wards (L874-904): peeling the Wardmaster's own
//! Special Ward for damage (Ward Bash, Ward Burst) and Death Ward's answer to a Take Out. The
//! Special Ward itself is a class feature (`features`).

use crate::content::powers::PowerDef;
use crate::engine::events::Event;
pub use crate::engine::frames::classes::WardFrame;
use crate::engine::kit::{Ctx, Frame};
use crate::engine::state::{State, UnitIdx};
use crate::rules::attack::AttackFrame;
use fray_core::decision::DecisionOption;
use fray_core::ruleset::RuleError;

/// The points of its own Special Ward `u` holds (never one it gave an ally, nor another
/// Wardmaster's).
pub fn own_special(s: &State, u: UnitIdx) -> i32 {
    let x = s.unit(u);
    if x.special_from == Some(u) { x.special_ward } else { 0 }
}

/// Whether the attack's hit asks the peel question: a peeling power, asked once per attack
/// (Ward Burst's choice serves every target hit), while the attacker holds its own Special Ward.
pub fn peel_offer(s: &State, a: &AttackFrame, def: &PowerDef) -> bool {
    def.peel && !a.peel_asked && own_special(s, a.attacker) > 0
}

/// Pushes the peel question for `a`'s hit.
pub fn ask_peel(cx: &mut Ctx, a: &mut AttackFrame) {
    a.peel_asked = true;
    cx.push(Frame::Ward(WardFrame::Peel { unit: a.attacker }));
}

/// The decision a Ward frame waits on: (who answers, kind, prompt, options).
pub fn question(s: &State, f: &WardFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match *f {
        WardFrame::Peel { unit } => (
            unit,
            "peel",
            format!("{}: peel how many points off your Special Ward, each for 1 more damage?", s.unit(unit).id),
            (0..=own_special(s, unit))
                .map(|n| DecisionOption::new(n.to_string(), format!("peel {n} for +{n} damage")))
                .collect(),
        ),
    }
}

/// Answers a Ward frame. The attack waits just below (an Interrupt that turned the hit into a
/// miss leaves nothing to pay for).
pub fn answer(cx: &mut Ctx, f: WardFrame, option: &str) -> Result<(), RuleError> {
    match f {
        WardFrame::Peel { unit } => {
            let n: i32 = option.parse().map_err(|_| RuleError::malformed("answer with a number of points"))?;
            let attack = cx.s.flow.iter_mut().rev().find_map(|fr| match fr {
                Frame::Attack(a) if a.attacker == unit => Some(a),
                _ => None,
            });
            if let Some(a) = attack
                && !a.evaded
            {
                a.peel = n;
            }
        }
    }
    Ok(())
}

/// The damage the peel adds to a hit that deals damage.
pub fn peel_damage(a: &AttackFrame, dealing: bool) -> i32 {
    if dealing { a.peel } else { 0 }
}

/// Once the attack has resolved, the peeled points come off the Wardmaster's own Special Ward
/// (as many as it still holds).
pub fn pay_peel(cx: &mut Ctx, a: &AttackFrame) {
    let n = a.peel.min(own_special(cx.s, a.attacker));
    if n > 0 {
        let why = format!("peeled for {}", cx.s.powers.get(a.power).name);
        cx.emit(Event::WardLost { unit: cx.s.who(a.attacker), amount: n, why });
    }
}

/// Death Ward: before `target` is Taken Out by an attack (or an Opportunity) of `by`, the curses
/// that answer it; [`death_ward_fires`] applies them once the Take Out is done.
pub fn death_wards(s: &State, target: UnitIdx, by: Option<UnitIdx>) -> Vec<crate::rules::curses::Curse> {
    let Some(b) = by else { return Vec::new() };
    if !s.enemies(b, target) {
        return Vec::new(); // only an attacking enemy
    }
    s.curses
        .iter()
        .filter(|c| c.on == crate::rules::curses::CurseOn::AttackTakesOut && c.target == target)
        .cloned()
        .collect()
}

/// Applies the Death Ward curses collected before the Take Out to the attacker `by`.
pub fn death_ward_fires(cx: &mut Ctx, fired: Vec<crate::rules::curses::Curse>, target: UnitIdx, by: Option<UnitIdx>) {
    let Some(b) = by else { return };
    for c in fired {
        if cx.s.unit(b).on_map() {
            let effect = crate::rules::curses::effect_line(cx.s, &c);
            // Nothing here asks a question: a Take Out.
            crate::rules::curses::fire(cx, c.maker, b, target, c.power, &effect);
        }
    }
}
