//! Wardmaster powers that spend or answer with Wards (L874-904): peeling the Wardmaster's own
//! Special Ward for damage (Ward Bash, Ward Burst) and Death Ward's answer to a Take Out. The
//! Special Ward itself is a class feature (`features`).

use crate::engine::events::Event;
pub use crate::engine::frames::classes::WardFrame;
use crate::engine::kit::{Ctx, Frame};
use crate::engine::state::{State, UnitIdx};
use crate::rules::attack::AttackFrame;
pub use crate::rules::query::{death_wards, own_special, peel_damage, peel_offer};
use fray_core::decision::DecisionOption;
use fray_core::ruleset::RuleError;

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

/// Once the attack has resolved, the peeled points come off the Wardmaster's own Special Ward
/// (as many as it still holds).
pub fn pay_peel(cx: &mut Ctx, a: &AttackFrame) {
    let n = a.peel.min(own_special(cx.s, a.attacker));
    if n > 0 {
        let why = format!("peeled for {}", cx.s.powers.get(a.power).name);
        cx.emit(Event::WardLost { unit: cx.s.who(a.attacker), amount: n, why });
    }
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

/// Ward Bash and Ward Burst's peel (asked before the hit, paid when the attack is done); Death
/// Ward firing when its target is Taken Out by an enemy's attack.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_hit_coming(20, "ward-bash", |cx, a, def| {
        let ask = peel_offer(cx.s, a, def);
        if ask {
            ask_peel(cx, a);
        }
        ask
    });
    r.on_attack_done(10, "ward-bash", pay_peel);
    r.on_taken_out_by_attack(10, "death-ward", |cx, wards, target, by| {
        death_ward_fires(cx, wards.to_vec(), target, by)
    });
}
