//! Who controls a creature's turn and what it may do there: Dominated, Frenzied and Panicked
//! (K-ST-Dominated, K-ST-Frenzied, K-ST-Panicked). Frenzied and Panicked creatures roll a d6 as
//! their Action Phase begins; the result becomes a [`Compulsion`] that the action checks obey.

use crate::content::powers::PowerDef;
use crate::engine::events::Event;
use crate::engine::kit::Ctx;
use crate::engine::kit::Rolls;
pub use crate::engine::records::control::Compulsion;
pub use crate::engine::records::control::Only;
use crate::engine::state::{Implement, State, UnitIdx};
pub use crate::rules::query::{controlled_daze, controller};
use crate::rules::statuses::StatusKind;
use fray_core::ruleset::RuleError;

/// The Frenzied/Panicked roll at the start of the Action Phase.
pub fn roll(cx: &mut Ctx, u: UnitIdx) -> Result<(), RuleError> {
    for (kind, panic) in [(StatusKind::Frenzied, false), (StatusKind::Panicked, true)] {
        let Some(source) = cx.s.unit(u).statuses.iter().find(|s| s.kind == kind).and_then(|s| s.source) else {
            continue;
        };
        let r = cx.d6(Some(u))?;
        let only = if panic { Only::BasicImplement } else { Only::Melee };
        let mut c = match r {
            1 => Compulsion::Controlled { by: source, only },
            2..=4 => Compulsion::Attack { source, disadvantage: r == 2, panic },
            _ => Compulsion::Restricted { only },
        };
        if panic && matches!(c, Compulsion::Attack { .. }) && !source_in_range(cx.s, u, source) {
            c = Compulsion::Flee { source }; // the attack needs the source in range
        }
        cx.emit(Event::Compelled { unit: cx.s.who(u), why: format!("{kind} roll {r}"), compulsion: Some(c) });
        return Ok(());
    }
    Ok(())
}

fn source_in_range(s: &State, u: UnitIdx, source: UnitIdx) -> bool {
    s.unit(source).on_map() && s.distance(u, source).is_some_and(|d| d <= s.implement_range(u))
}

/// The basic melee attack (rulings K-ST-Frenzied: a sword user's Basic Implement Attack is
/// melee; everyone else uses the Basic Physical Attack).
pub fn basic_melee(s: &State, u: UnitIdx) -> &'static str {
    if s.unit(u).implement == Implement::Sword { "basic-implement-attack" } else { "basic-physical-attack" }
}

/// Whether `u` may use `def` on `targets` under its control statuses.
pub fn check_power(s: &State, u: UnitIdx, def: &PowerDef, targets: &[UnitIdx]) -> Result<(), RuleError> {
    let unit = s.unit(u);
    if controller(s, u).is_some() && def.frequency == crate::content::powers::Frequency::Encounter {
        return Err(crate::engine::kit::refuse(
            "K-ST-Dominated",
            format_args!("{} is controlled by another: At-Will powers only", unit.id),
        ));
    }
    let restrict = |only: Only, rule: &str| -> Result<(), RuleError> {
        if !def.is_attack() {
            return Ok(());
        }
        let ok = match only {
            Only::Melee => def.is_melee(unit.implement == Implement::Sword),
            Only::BasicImplement => def.id == "basic-implement-attack" || def.basic.as_deref() == Some("implement"),
        };
        if ok {
            Ok(())
        } else {
            let what = if only == Only::Melee { "melee attacks" } else { "Basic Implement Attacks" };
            Err(crate::engine::kit::refuse(rule, format_args!("{} may only make {what} this turn", unit.id)))
        }
    };
    match unit.compulsion {
        None => Ok(()),
        Some(Compulsion::Controlled { only, .. }) | Some(Compulsion::Restricted { only }) => {
            restrict(only, if only == Only::Melee { "K-ST-Frenzied" } else { "K-ST-Panicked" })
        }
        Some(Compulsion::Attack { source, panic, .. }) => {
            let (rule, power) =
                if panic { ("K-ST-Panicked", "basic-implement-attack") } else { ("K-ST-Frenzied", basic_melee(s, u)) };
            if !def.is_attack() {
                return Ok(());
            }
            if def.id != power || targets != [source] {
                return Err(crate::engine::kit::refuse(
                    rule,
                    format_args!("{} must use {power} on {}", unit.id, s.unit(source).id),
                ));
            }
            Ok(())
        }
        Some(Compulsion::Flee { source }) => Err(crate::engine::kit::refuse(
            "K-ST-Panicked",
            format_args!("{} must run away from {}", unit.id, s.unit(source).id),
        )),
    }
}

/// Whether a move to `dest` is allowed: a panicking creature fleeing must end farther from
/// what panicked it (rulings K-ST-Panicked); a compelled Panicked attacker attacks first.
pub fn check_move(s: &State, u: UnitIdx, dest: fray_core::grid::Pos) -> Result<(), RuleError> {
    match s.unit(u).compulsion {
        Some(Compulsion::Flee { source }) => {
            let su = s.unit(source);
            let (Some(sp), Some(up)) = (su.pos, s.unit(u).pos) else { return Ok(()) };
            let size = s.unit(u).size;
            let before = fray_core::geometry::distance(up, size, sp, su.size);
            let after = fray_core::geometry::distance(dest, size, sp, su.size);
            if after <= before {
                return Err(crate::engine::kit::refuse(
                    "K-ST-Panicked",
                    format_args!("{} must run away from {}", s.unit(u).id, su.id),
                ));
            }
            Ok(())
        }
        Some(Compulsion::Attack { panic: true, source, .. }) => Err(crate::engine::kit::refuse(
            "K-ST-Panicked",
            format_args!("{} must first make its Basic Implement Attack on {}", s.unit(u).id, s.unit(source).id),
        )),
        _ => Ok(()),
    }
}

/// Why a Frenzied or Panicked creature may not end its turn yet, if it still can and must:
/// make its compelled attack (moving first, for a frenzy), or run (K-ST-Frenzied, K-ST-Panicked).
pub fn must_still_act(s: &State, u: UnitIdx) -> Option<RuleError> {
    let unit = s.unit(u);
    match unit.compulsion? {
        Compulsion::Attack { source, panic, .. } => {
            let power = if panic { "basic-implement-attack" } else { basic_melee(s, u) };
            let p = s.powers.find(power)?;
            let attack_now = crate::rules::actions::check(
                s,
                u,
                &crate::rules::actions::Verb::Power {
                    power: p,
                    targets: vec![source],
                    square: None,
                    creative: false,
                    advantage: false,
                },
            )
            .is_ok();
            let reach = s.implement_range(u).max(if panic { 0 } else { s.reach(u) });
            let can_close_in = !panic
                && crate::rules::actions::check_slot(s, u, crate::engine::events::Slot::Move).is_ok()
                && !s.has(u, crate::rules::statuses::StatusKind::Immobilized) // it cannot walk at all
                && s.unit(source).pos.is_some_and(|sp| {
                    crate::rules::movement::destinations(s, u, crate::rules::movement::Mode::Walk)
                        .iter()
                        .any(|&q| fray_core::geometry::distance(q, unit.size, sp, s.unit(source).size) <= reach)
                });
            let rule = if panic { "K-ST-Panicked" } else { "K-ST-Frenzied" };
            (attack_now || can_close_in).then(|| {
                crate::engine::kit::refuse(rule, format_args!("{} must first attack {}", unit.id, s.unit(source).id))
            })
        }
        Compulsion::Flee { source } => {
            let can_run = crate::rules::actions::check_slot(s, u, crate::engine::events::Slot::Move).is_ok()
                && !s.has(u, crate::rules::statuses::StatusKind::Immobilized) // it cannot walk at all
                && crate::rules::movement::destinations(s, u, crate::rules::movement::Mode::Walk)
                    .iter()
                    .any(|&q| check_move(s, u, q).is_ok());
            can_run.then(|| {
                crate::engine::kit::refuse(
                    "K-ST-Panicked",
                    format_args!("{} must run away from {} first", unit.id, s.unit(source).id),
                )
            })
        }
        _ => None,
    }
}

/// After a compelled attack: a Frenzied creature's turn ends; a Panicked one must flee.
pub fn after_attack(cx: &mut Ctx, u: UnitIdx) {
    if let Some(Compulsion::Attack { source, panic, .. }) = cx.s.unit(u).compulsion {
        if panic {
            cx.emit(Event::Compelled {
                unit: cx.s.who(u),
                why: "panic: now it runs".into(),
                compulsion: Some(Compulsion::Flee { source }),
            });
        } else {
            cx.emit(Event::TurnCutShort { unit: cx.s.who(u), why: "the frenzied attack ends the turn".into() });
        }
    }
}
