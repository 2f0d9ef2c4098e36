//! Advanced implements (K-AIMP, rulebook L2217-2257): the level-3 upgrade of an athlete's wand,
//! staff or sword. Each one Fray plays is a small change to a number somewhere else — range,
//! implement bonuses, Opportunity reach and damage, Miss Tokens, what grants Opportunities — and
//! those rule areas ask here. The others stay look-up only (content/kazzam/implements.toml).

pub use crate::engine::frames::roles::AdvancedFrame;
pub use crate::engine::records::advanced::Advanced;
use crate::engine::state::{Implement, State, UnitIdx};
pub use crate::rules::query::{THROW_RANGE, sword_range};
pub use crate::rules::query::{
    area_growth, handless, melee_across_air, opportunity_reach_bonus, physical_bonus, sword_bonus_applies,
};
pub use crate::rules::query::{has_advanced as has, opportunity_range, sniper_staff_bonus as range_bonus, thrown};

/// Ids of the advanced implements Fray plays.
pub const PLAYED: &[(&str, Advanced)] = &[
    ("defenders-sword", Advanced::DefendersSword),
    ("duelling-sword", Advanced::DuellingSword),
    ("corkscrew-staff", Advanced::CorkscrewStaff),
    ("nimble-staff", Advanced::NimbleStaff),
    ("snipers-staff", Advanced::SnipersStaff),
    ("spiked-staff", Advanced::SpikedStaff),
    ("distracting-wand", Advanced::DistractingWand),
    ("parrying-wand", Advanced::ParryingWand),
    ("piercing-wand", Advanced::PiercingWand),
    ("wristwand", Advanced::Wristwand),
    ("long-sword", Advanced::LongSword),
    ("throwing-sword", Advanced::ThrowingSword),
    ("charging-sword", Advanced::ChargingSword),
    ("multi-sword", Advanced::MultiSword),
    ("multi-staff", Advanced::MultiStaff),
    ("empowering-staff", Advanced::EmpoweringStaff),
];

impl Advanced {
    /// The one called `id`, if Fray plays it.
    pub fn parse(id: &str) -> Option<Advanced> {
        PLAYED.iter().find(|(i, _)| *i == id).map(|(_, a)| *a)
    }
    /// Its id.
    pub fn id(self) -> &'static str {
        PLAYED.iter().find(|(_, a)| *a == self).map(|(i, _)| *i).unwrap_or("")
    }
    /// The implement it upgrades.
    pub fn implement(self) -> Implement {
        match self {
            Advanced::DefendersSword
            | Advanced::DuellingSword
            | Advanced::LongSword
            | Advanced::ThrowingSword
            | Advanced::ChargingSword
            | Advanced::MultiSword => Implement::Sword,
            Advanced::CorkscrewStaff
            | Advanced::NimbleStaff
            | Advanced::SnipersStaff
            | Advanced::SpikedStaff
            | Advanced::MultiStaff
            | Advanced::EmpoweringStaff => Implement::Staff,
            Advanced::DistractingWand | Advanced::ParryingWand | Advanced::PiercingWand | Advanced::Wristwand => {
                Implement::Wand
            }
        }
    }
}

/// Throwing Sword: once thrown, the thrower is Disarmed until its next turn starts, when the
/// sword is recalled (see rulings).
pub fn after_throw(cx: &mut crate::engine::kit::Ctx, u: UnitIdx) {
    let turn = cx.s.unit(u).turns_started + 1;
    let status = crate::rules::statuses::Status {
        kind: crate::rules::statuses::StatusKind::Disarmed,
        amount: 0,
        source: Some(u),
        origin: None,
        duration: crate::rules::statuses::Duration::StartOfTurn { unit: u, turn },
    };
    crate::rules::statuses::give::give_status(cx, u, status, "Throwing Sword: thrown");
}

/// Charging Sword: the attacks `u` may end a Charge on `t` with: the basic sword attack, or an
/// At-Will attack power of its own that targets one creature and reaches `t` from here.
pub fn charge_powers(s: &State, u: UnitIdx, t: UnitIdx) -> Vec<u16> {
    use crate::content::powers::{ActionKind, Frequency, Targeting};
    let un = s.unit(u);
    if !un.on_map() || !s.unit(t).on_map() || s.has(u, crate::rules::statuses::StatusKind::Stunned) {
        return Vec::new();
    }
    let bia = s.powers.find("basic-implement-attack");
    let mut out: Vec<u16> = bia.into_iter().collect();
    for &p in &un.powers {
        let def = s.powers.get(p);
        let fits = def.action == ActionKind::Attack
            && def.frequency == Frequency::AtWill
            && def.rolls()
            && def.hook.is_none()
            && def.charm.is_none()
            && def.delivers.is_none()
            && !def.every_target
            && matches!(def.target, Targeting::Implement | Targeting::Melee | Targeting::Ranged { .. })
            && Some(p) != bia
            && !(def.uses_implement() && s.has(u, crate::rules::statuses::StatusKind::Disarmed))
            && crate::rules::actions::check_target(s, u, p, t, false).is_ok()
            && crate::rules::control::check_power(s, u, def, &[t]).is_ok();
        if fits {
            out.push(p);
        }
    }
    out
}

/// The decision an [`AdvancedFrame`] asks.
pub fn question(
    s: &State,
    f: &AdvancedFrame,
) -> (UnitIdx, &'static str, String, Vec<fray_core::decision::DecisionOption>) {
    match f {
        AdvancedFrame::ChargeAttack { unit, target, .. } => {
            let options = charge_powers(s, *unit, *target)
                .into_iter()
                .map(|p| {
                    let def = s.powers.get(p);
                    fray_core::decision::DecisionOption::new(format!("power:{}", def.id), def.name.clone())
                })
                .collect();
            let prompt = format!("{}: which attack ends the Charge on {}?", s.unit(*unit).id, s.unit(*target).id);
            (*unit, "granted-attack", prompt, options)
        }
    }
}

/// Answers an [`AdvancedFrame`].
pub fn answer(
    cx: &mut crate::engine::kit::Ctx,
    f: AdvancedFrame,
    option: &str,
) -> Result<(), fray_core::ruleset::RuleError> {
    use fray_core::ruleset::RuleError;
    match f {
        AdvancedFrame::ChargeAttack { unit, target, via_action, no_boost } => {
            let id = option.strip_prefix("power:").unwrap_or(option);
            let p = cx.s.powers.find(id).ok_or_else(|| RuleError::malformed(format!("no power {id:?}")))?;
            let origin = cx.s.unit(unit).pos.unwrap();
            let frame = crate::rules::attack::AttackFrame {
                via_action,
                no_boost,
                ..crate::rules::attack::AttackFrame::new(unit, p, vec![target], origin)
            };
            crate::rules::attack::begin(cx, frame)
        }
    }
}

/// Advances an [`AdvancedFrame`]: it waits unless there is nothing to choose (the charger or
/// the enemy is gone) or only the basic sword attack, made at once.
pub fn step(
    cx: &mut crate::engine::kit::Ctx,
    f: AdvancedFrame,
) -> Result<crate::engine::kit::Flow, fray_core::ruleset::RuleError> {
    let (_, _, _, options) = question(cx.s, &f);
    match options.len() {
        0 => Ok(crate::engine::kit::Flow::Continue),
        1 => {
            let only = options[0].id.clone();
            answer(cx, f, &only)?;
            Ok(crate::engine::kit::Flow::Continue)
        }
        _ => {
            cx.push(crate::engine::kit::Frame::Advanced(f));
            Ok(crate::engine::kit::Flow::Wait)
        }
    }
}

/// Multi-Sword, Multi-Staff (K-MULTI-5, K-STK-6): whether `u` may spread implement power
/// `power` over a 3x3 zone — a single-target implement attack, not a multi-target one.
pub fn multi_eligible(s: &State, u: UnitIdx, power: u16) -> bool {
    let def = s.powers.get(power);
    (has(s, u, Advanced::MultiSword) || has(s, u, Advanced::MultiStaff))
        && def.uses_implement()
        && def.rolls()
        && !def.every_target
        && def.max_targets_at(s.unit(u).level) == 1
        && def.hook.is_none()
        && def.charm.is_none()
        && def.delivers.is_none()
}

/// Where `u`'s 3x3 zone may be centred: touching or holding its square (Multi-Sword); within
/// implement range with no square next to it (Multi-Staff).
pub fn multi_centres(s: &State, u: UnitIdx) -> Vec<fray_core::grid::Pos> {
    let Some(p) = s.unit(u).pos else { return Vec::new() };
    let size = s.unit(u).size;
    let d = |q| fray_core::geometry::distance(p, size, q, 1);
    if has(s, u, Advanced::MultiSword) {
        crate::rules::zones::area_centres(s, u, 2)
    } else if has(s, u, Advanced::MultiStaff) {
        crate::rules::zones::area_centres(s, u, s.implement_range(u)).into_iter().filter(|&q| d(q) >= 3).collect()
    } else {
        Vec::new()
    }
}

/// Everyone but `u` with any part inside the 3x3 zone centred on `centre` and a line from the
/// centre (as for an area, K-COV-2), of the kind `power` affects if it names one, nearest the
/// centre first.
pub fn multi_targets(s: &State, u: UnitIdx, power: u16, centre: fray_core::grid::Pos) -> Vec<UnitIdx> {
    let affects = s.powers.get(power).affects;
    let squares: Vec<fray_core::grid::Pos> = crate::rules::zones::area_squares(centre, 3).collect();
    let mut ts: Vec<UnitIdx> = s
        .units_on_map()
        .filter(|&t| t != u && affects.is_none_or(|a| a.includes(s, u, t)))
        .filter(|&t| fray_core::grid::footprint(s.unit(t).pos.unwrap(), s.unit(t).size).any(|q| squares.contains(&q)))
        .filter(|&t| crate::rules::cover::shot(s, centre, 1, t) != fray_core::sight::Sight::Blocked)
        .collect();
    ts.sort_by_key(|&t| (fray_core::geometry::distance(centre, 1, s.unit(t).pos.unwrap(), s.unit(t).size), t));
    ts
}

/// Zone centres for `power` that catch at least one creature, and that what controls `u` allows.
pub fn multi_options(s: &State, u: UnitIdx, power: u16) -> Vec<fray_core::grid::Pos> {
    if !multi_eligible(s, u, power) {
        return Vec::new();
    }
    let def = s.powers.get(power);
    multi_centres(s, u)
        .into_iter()
        .filter(|&c| {
            let ts = multi_targets(s, u, power, c);
            // What controls the user (Frenzied, Panicked) limits a spread attack too.
            !ts.is_empty()
                && crate::rules::control::check_power(s, u, def, &ts).is_ok()
                && crate::engine::triggers::check_use(s, u, power, &ts, false).is_ok()
        })
        .collect()
}

/// Checks a spread attack: `power` over the zone centred on `centre`, at `targets`.
pub fn check_multi(
    s: &State,
    u: UnitIdx,
    power: u16,
    centre: fray_core::grid::Pos,
    targets: &[UnitIdx],
) -> Result<(), fray_core::ruleset::RuleError> {
    let name = &s.powers.get(power).name;
    if !(has(s, u, Advanced::MultiSword) || has(s, u, Advanced::MultiStaff)) {
        return Err(crate::engine::kit::refuse(
            "K-AIMP-1",
            format_args!("only a Multi-Sword or a Multi-Staff spreads {name} over a zone: name a target instead"),
        ));
    }
    if !multi_eligible(s, u, power) {
        return Err(crate::engine::kit::refuse(
            "K-MULTI-5",
            format_args!("{name} is not a single-target implement attack: it cannot be spread over a zone"),
        ));
    }
    if !multi_centres(s, u).contains(&centre) {
        let rule = if has(s, u, Advanced::MultiSword) {
            "the 3x3 zone must touch or hold your square"
        } else {
            "the 3x3 zone must be centred within implement range, with no square next to you"
        };
        return Err(crate::engine::kit::refuse("K-MULTI-5", format_args!("{centre}: {rule}")));
    }
    let all = multi_targets(s, u, power, centre);
    if all.is_empty() {
        return Err(crate::engine::kit::refuse("K-MULTI-1", "nobody is in that zone"));
    }
    if targets.len() != all.len() || targets.iter().any(|t| !all.contains(t)) {
        return Err(crate::engine::kit::refuse(
            "K-MULTI-1",
            "a spread attack targets everyone in its zone: list all of them (in the order to roll) or none",
        ));
    }
    Ok(())
}

/// Multi-Sword and Multi-Staff targeting, Throwing Sword once its attack is done, Corkscrew
/// Staff's Miss Token each time its carrier is Taken Out.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.multi(multi_options, multi_targets, check_multi);
    r.on_attack_done(30, "throwing-sword", |cx, a| {
        if a.thrown && cx.s.unit(a.attacker).on_map() {
            after_throw(cx, a.attacker);
        }
    });
    r.on_taken_out(30, "corkscrew-staff", |cx, unit, _, _| {
        if cx.s.unit(unit).advanced == Some(Advanced::CorkscrewStaff) && cx.s.unit(unit).pc {
            let total = cx.s.unit(unit).miss_tokens + 1;
            cx.emit(crate::engine::events::Event::MissToken { unit: cx.s.who(unit), total });
        }
    });
}
