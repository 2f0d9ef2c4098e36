//! Strikers and the Hunter (K-ROLL-5, §2.11): the Striker Role Boost read against each
//! specialization's Striker Condition (Blitzer, Bruiser, Sniper, Blaster), the Blaster's extra
//! damage sent to other targets, the Bruiser's Ward, the Sniper's range, and the Hunter's boost
//! against Creeps and Summoned Creatures. A roll of 2 stays a miss; the extra damage a 2 gives
//! still lands (see rulings).

use crate::content::powers::{PowerDef, Targeting};
pub use crate::engine::frames::roles::StrikerFrame;
use crate::engine::kit::{Ctx, Frame};
pub use crate::engine::records::roles::Strike;
use crate::engine::state::{Implement, State, UnitIdx, UnitKind};
use crate::roles::boosts::Boost;
use fray_core::decision::DecisionOption;
use fray_core::ruleset::RuleError;

fn spec(s: &State, u: UnitIdx) -> Option<&str> {
    s.unit(u).specialization.as_deref()
}

/// Whether `def` is a ranged attack for `u`: a wand or staff implement attack, a ranged power, or
/// an area placed at range.
fn ranged(s: &State, u: UnitIdx, def: &PowerDef) -> bool {
    def.is_attack()
        && def.charm.is_none()
        && match def.target {
            Targeting::Implement => matches!(s.unit(u).implement, Implement::Wand | Implement::Staff),
            Targeting::Ranged { .. } | Targeting::Area { .. } => true,
            _ => false,
        }
}

/// Sniper: ranged attacks reach 2 squares farther (level 8's 4 is beyond scope).
pub fn range_bonus(s: &State, u: UnitIdx, def: &PowerDef) -> i32 {
    if spec(s, u) == Some("sniper") && s.unit(u).role.as_deref() == Some("striker") && ranged(s, u, def) {
        2
    } else {
        0
    }
}

/// Where a Blaster's extra damage may go: (how many targets, within how many squares). Melee:
/// two within reach + 1; otherwise one within the attack's range.
fn splash_shape(s: &State, u: UnitIdx, target: UnitIdx, def: &PowerDef) -> (u8, i32) {
    let melee = def.is_melee(s.unit(u).implement == Implement::Sword)
        && !crate::implements::advanced::thrown(s, u, target, def);
    if melee {
        return (2, s.reach(u) + 1);
    }
    let range = match def.target {
        Targeting::Implement => crate::classes::tamer::implement_range(s, u).unwrap_or_else(|| s.implement_range(u)),
        Targeting::Ranged { range } | Targeting::Creature { range } | Targeting::Area { range, .. } => range,
        Targeting::Burst { radius } => radius,
        _ => s.reach(u),
    };
    (1, range)
}

/// Enemies of `u` other than `primary` and `taken` that could take a Blaster's extra damage.
fn others(s: &State, u: UnitIdx, primary: UnitIdx, range: i32, taken: &[UnitIdx]) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&t| t != primary && !taken.contains(&t) && s.enemies(u, t))
        .filter(|&t| {
            matches!(s.unit(t).kind, UnitKind::Athlete | UnitKind::Creep | UnitKind::Summon | UnitKind::Automaton)
        })
        .filter(|&t| s.distance(u, t).is_some_and(|d| d <= range))
        .collect()
}

/// Whether `u`'s Striker Condition holds for its attack with `def` on `target`.
pub fn condition(s: &State, u: UnitIdx, target: UnitIdx, def: &PowerDef) -> bool {
    let x = s.unit(u);
    let own_turn = s.current() == Some(u);
    match spec(s, u) {
        // At least 3 squares from where its turn began (anchor square to anchor square).
        Some("blitzer") => {
            own_turn
                && matches!((x.turn_start, x.pos), (Some(a), Some(b))
                    if fray_core::geometry::distance(a, 1, b, 1) >= 3)
        }
        // Moved 1 square or less itself this turn; off its turn it has not moved this turn.
        Some("bruiser") => !own_turn || x.actions.moved <= 1,
        Some("sniper") => s.distance(u, target).is_some_and(|d| d > 3),
        // A true choice: one more eligible enemy than the extra damage needs.
        Some("blaster") => {
            let (n, range) = splash_shape(s, u, target, def);
            others(s, u, target, range, &[]).len() > n as usize
        }
        _ => false,
    }
}

/// The Striker's extra damage on roll `roll`, condition met or not; doubled from level 4.
fn amount(met: bool, roll: i32, level: u8) -> i32 {
    let base = match (met, roll) {
        (true, 2..=5) => 1,
        (true, 6) => 2,
        (false, 3..=6) => 1,
        _ => 0,
    };
    if level >= 4 { base * 2 } else { base }
}

/// Reads a Striker's boost for this attack: the condition, the extra damage (none unless the
/// hit deals damage), and where a Blaster's goes. Other boosts are returned as they are.
pub fn refine(s: &State, b: Boost, u: UnitIdx, target: UnitIdx, def: &PowerDef, roll: i32, damage: bool) -> Boost {
    let Boost::Striker(_) = b else { return b };
    let met = condition(s, u, target, def);
    let extra = if damage { amount(met, roll, s.unit(u).level) } else { 0 };
    let splash = (spec(s, u) == Some("blaster")).then(|| splash_shape(s, u, target, def));
    Boost::Striker(Strike { met, extra, splash })
}

/// Whether a Glancing Hit (a 3) gives both damage and Effect: a Striker whose condition holds.
pub fn both_on_three(s: &State, u: UnitIdx, target: UnitIdx, def: &PowerDef) -> bool {
    matches!(crate::roles::boosts::boost_of(s, u), Some(Boost::Striker(_))) && condition(s, u, target, def)
}

/// The Hunter's extra damage on roll `roll`: against Creeps and Summoned Creatures only, 2 on
/// 2-5 and 4 on a 6 (3 and 6 from level 4).
pub fn hunter_extra(s: &State, u: UnitIdx, target: UnitIdx, roll: i32) -> i32 {
    if !matches!(s.unit(target).kind, UnitKind::Creep | UnitKind::Summon) {
        return 0;
    }
    let (low, high) = if s.unit(u).level >= 4 { (3, 6) } else { (2, 4) };
    match roll {
        2..=5 => low,
        6 => high,
        _ => 0,
    }
}

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
