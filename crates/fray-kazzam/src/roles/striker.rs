//! Strikers and the Hunter (K-ROLL-5, §2.11): the Striker Role Boost read against each
//! specialization's Striker Condition (Blitzer, Bruiser, Sniper, Blaster), the Blaster's extra
//! damage sent to other targets, the Bruiser's Ward, the Sniper's range, and the Hunter's boost
//! against Creeps and Summoned Creatures. A roll of 2 stays a miss; the extra damage a 2 gives
//! still lands (see rulings).

use crate::content::powers::PowerDef;
pub use crate::engine::frames::roles::StrikerFrame;
use crate::engine::kit::{Ctx, Frame};
pub use crate::engine::records::roles::Strike;
use crate::engine::state::{State, UnitIdx};
use crate::roles::boosts::Boost;
use crate::rules::query::{amount, others, spec, splash_shape};
pub use crate::rules::query::{both_on_three, condition, hunter_extra, refine, sniper_range_bonus as range_bonus};
use fray_core::decision::DecisionOption;
use fray_core::ruleset::RuleError;

fn weakened(s: &State, u: UnitIdx, amount: i32) -> i32 {
    if s.has(u, crate::rules::statuses::StatusKind::Weakened) { amount / 2 } else { amount }
}

/// After the hit: a Blaster sends its extra damage to other targets.
pub fn after_hit(cx: &mut Ctx, st: Strike, user: UnitIdx, target: UnitIdx) {
    if let Some((n, range)) = st.splash
        && st.extra > 0
    {
        let amount = weakened(cx.s, user, st.extra);
        splash(cx, user, target, amount, n, range, Vec::new());
    }
}

/// An attack's first roll was a 2 (a miss, K-ROLL-2): a Striker whose condition holds, or a
/// Hunter against a Creep or Summoned Creature, still deals the boost's extra damage (a
/// Blaster's goes to the other targets). Only powers with a damage line.
pub fn on_two(cx: &mut Ctx, u: UnitIdx, target: UnitIdx, def: &PowerDef) {
    if def.damage.is_none() || !cx.s.unit(target).on_map() {
        return;
    }
    let why = format!("{}'s Role Boost (a 2)", cx.s.unit(u).id);
    match crate::roles::boosts::boost_of(cx.s, u) {
        Some(Boost::Striker(_)) if condition(cx.s, u, target, def) => {
            let extra = weakened(cx.s, u, amount(true, 2, cx.s.unit(u).level));
            if spec(cx.s, u) == Some("blaster") {
                let (n, range) = splash_shape(cx.s, u, target, def);
                splash(cx, u, target, extra, n, range, Vec::new());
            } else {
                crate::rules::damage::deal(cx, target, extra, Some(u), &why, None);
            }
        }
        Some(Boost::Hunter) => {
            let extra = weakened(cx.s, u, hunter_extra(cx.s, u, target, 2));
            if extra > 0 {
                crate::rules::damage::deal(cx, target, extra, Some(u), &why, None);
            }
        }
        _ => {}
    }
}

fn splash(cx: &mut Ctx, user: UnitIdx, primary: UnitIdx, amount: i32, left: u8, range: i32, taken: Vec<UnitIdx>) {
    let cands = others(cx.s, user, primary, range, &taken);
    if left == 0 || cands.is_empty() {
        if taken.is_empty() {
            cx.emit(crate::engine::events::Event::Note {
                text: format!("{}: no other target for the Blaster's extra damage; it is lost", cx.s.unit(user).id),
            });
        }
        return;
    }
    if cands.len() <= left as usize {
        for t in cands {
            hit_other(cx, user, t, amount);
        }
        return;
    }
    cx.push(Frame::Striker(StrikerFrame::Splash { user, primary, amount, left, range, taken }));
}

fn hit_other(cx: &mut Ctx, user: UnitIdx, t: UnitIdx, amount: i32) {
    let why = format!("{}'s Role Boost (Blaster)", cx.s.unit(user).id);
    crate::rules::damage::deal(cx, t, amount, Some(user), &why, None);
}

/// The Blaster's question: which other enemy takes the extra damage.
pub fn question(s: &State, f: &StrikerFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match f {
        StrikerFrame::Splash { user, primary, amount, range, taken, .. } => (
            *user,
            "target",
            format!("{}: Role Boost — who takes the {amount} extra damage?", s.unit(*user).id),
            others(s, *user, *primary, *range, taken)
                .into_iter()
                .map(|t| DecisionOption::new(s.unit(t).id.to_string(), format!("{amount} damage to {}", s.unit(t).id)))
                .collect(),
        ),
    }
}

/// Answers the Blaster's question.
pub fn answer(cx: &mut Ctx, f: StrikerFrame, option: &str) -> Result<(), RuleError> {
    match f {
        StrikerFrame::Splash { user, primary, amount, left, range, mut taken } => {
            let cands = others(cx.s, user, primary, range, &taken);
            let Some(t) = cands.into_iter().find(|&t| &*cx.s.unit(t).id == option) else {
                return Err(RuleError::malformed(format!("{option} cannot take the extra damage")));
            };
            hit_other(cx, user, t, amount);
            taken.push(t);
            splash(cx, user, primary, amount, left - 1, range, taken);
        }
    }
    Ok(())
}

/// End Phase: a Bruiser that moved itself 1 square or less this turn gains 1 Ward (level 8's 2
/// is beyond scope).
pub fn end_of_turn(cx: &mut Ctx, u: UnitIdx) {
    let x = cx.s.unit(u);
    if x.role.as_deref() == Some("striker") && spec(cx.s, u) == Some("bruiser") && x.on_map() && x.actions.moved <= 1 {
        let ward = x.ward + 1;
        let why = "Bruiser: moved 1 square or less this turn".to_string();
        cx.emit(crate::engine::events::Event::WardSet { unit: cx.s.who(u), ward, why });
    }
}

/// Striker, Hunter: a first roll of 2 stays a miss but its boost damage lands; Bruiser's Ward
/// at the end of a turn.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_turn(crate::engine::hooks::Trigger::TurnEnding, 30, "K-ROLL-5", end_of_turn); // Bruiser's Ward
    r.on_missed(20, "K-ROLL-5", |cx, m| {
        if m.first
            && m.value == 2
            && !m.evaded
            && !m.effect_only
            && !m.no_boost
            && !m.def.no_role_boost
            && !cx.s.unit(m.attacker).grant_no_boost
        {
            on_two(cx, m.attacker, m.target, m.def);
        }
        Ok(())
    });
}
