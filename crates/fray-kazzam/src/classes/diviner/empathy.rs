//! The Diviner's Empath (L1171-1177, L1269): an Empath copies what an ally near it regains, the
//! Ward it gains and the saving throws it makes, and its Empathic Bond hands 2 HP over and then
//! sends the damage and negative statuses meant for either of the pair to the one the Diviner
//! named. Copies are automatic (they never hurt: see the rulings); "the same effect" is told by
//! its name within one step of the engine loop ([`Empathy::seen`]).

use crate::engine::events::Event;
pub use crate::engine::frames::classes::BondStep;
use crate::engine::kit::Ctx;
use crate::engine::records::curses::{Curse, CurseOn};
pub use crate::engine::records::empathy::Empathy;
use crate::engine::records::features::Feature;
use crate::engine::state::{State, UnitIdx, UnitKind};
pub use crate::rules::damage::bond_receiver as receiver;
pub use crate::rules::query::empathy_copied as copied_already;
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::decision::DecisionOption;
use fray_core::ruleset::RuleError;

/// The HP Empathic Bond hands over, and how far an Empath feels its allies.
const BOND_HP: i32 = 2;
const EMPATH_RANGE: i32 = 5;

/// What an Empath may copy.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gain {
    Hp(i32),
    Ward(i32),
}

/// The athletes that may copy what `u` gets: Empaths of its team within 5 squares of it
/// (Empath); Improved Empath's ally is [`reverse`]'s.
fn empaths_near(s: &State, u: UnitIdx) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&e| e != u && s.unit(e).kind == UnitKind::Athlete && s.unit(e).side == s.unit(u).side)
        .filter(|&e| s.has_feature(e, Feature::Empath))
        .filter(|&e| s.distance(e, u).is_some_and(|d| d <= EMPATH_RANGE))
        .collect()
}

/// Improved Empath: the ally that shares what the Empath `u` gets — the nearest athlete of its
/// team the effect did not cover and that would gain from it (below its maximum HP for HP, a
/// status a save ends for a save; anyone for Ward), then the one with the fewest HP.
fn reverse(s: &State, u: UnitIdx, why: &str, gain: Option<Gain>) -> Option<UnitIdx> {
    if !s.has_feature(u, Feature::ImprovedEmpath) || !s.has_feature(u, Feature::Empath) {
        return None;
    }
    s.units_on_map()
        .filter(|&a| a != u && s.unit(a).kind == UnitKind::Athlete && s.unit(a).side == s.unit(u).side)
        .filter(|&a| !seen(s, a, why))
        .filter(|&a| match gain {
            Some(Gain::Hp(_)) => s.unit(a).hp < s.unit(a).max_hp,
            Some(Gain::Ward(_)) => true,
            None => save_target(s, a).is_some(),
        })
        .min_by_key(|&a| (s.distance(u, a).unwrap_or(i32::MAX), s.unit(a).hp, a))
}

fn seen(s: &State, u: UnitIdx, why: &str) -> bool {
    s.empathy.seen.iter().any(|(w, y, _)| *w == u && y == why)
}

/// `u` regained `amount` HP from `why`.
pub fn healed(cx: &mut Ctx, u: UnitIdx, amount: i32, why: &str) {
    spread(cx, u, Gain::Hp(amount), why);
}

/// `u` gained `amount` Ward from `why`.
pub fn ward_gained(cx: &mut Ctx, u: UnitIdx, amount: i32, why: &str) {
    if amount > 0 {
        spread(cx, u, Gain::Ward(amount), why);
    }
}

/// `u` made a saving throw (`what`).
pub fn saved(cx: &mut Ctx, u: UnitIdx, what: &str) -> Result<(), RuleError> {
    if cx.s.empathy.copying || !cx.s.unit(u).on_map() || cx.s.unit(u).kind != UnitKind::Athlete {
        return Ok(());
    }
    cx.s.empathy.seen.push((u, what.to_string(), false));
    let mut copiers = empaths_near(cx.s, u);
    copiers.extend(reverse(cx.s, u, what, None));
    for e in copiers {
        if seen(cx.s, e, what) {
            continue;
        }
        cx.s.empathy.seen.push((e, what.to_string(), true));
        let Some(st) = save_target(cx.s, e) else { continue };
        cx.s.empathy.copying = true;
        let success = crate::rules::turn::saving_throw(cx, e, &format!("{} (Empath)", st.kind));
        cx.s.empathy.copying = false;
        crate::rules::turn::settle_save(cx, e, st, success?);
    }
    Ok(())
}

/// The status a copied save is rolled against: the first negative "save ends" status, in the
/// order of the Saving Throw Phase (Distracted and Dazed last, K-SAVE-5).
fn save_target(s: &State, u: UnitIdx) -> Option<Status> {
    let mut saves: Vec<Status> = s
        .unit(u)
        .statuses
        .iter()
        .filter(|st| st.duration == Duration::SaveEnds && st.kind.is_negative())
        .copied()
        .collect();
    saves.sort_by_key(|st| matches!(st.kind, StatusKind::Distracted | StatusKind::Dazed));
    saves.first().copied()
}

fn spread(cx: &mut Ctx, u: UnitIdx, gain: Gain, why: &str) {
    if cx.s.empathy.copying || !cx.s.unit(u).on_map() || cx.s.unit(u).kind != UnitKind::Athlete {
        return;
    }
    cx.s.empathy.seen.push((u, why.to_string(), false));
    let mut copiers = empaths_near(cx.s, u);
    copiers.extend(reverse(cx.s, u, why, Some(gain)));
    for e in copiers {
        if seen(cx.s, e, why) {
            continue; // the effect covers it already
        }
        cx.s.empathy.seen.push((e, why.to_string(), true));
        cx.s.empathy.copying = true;
        let label = format!("Empath: as {} from {why}", cx.s.unit(u).id);
        match gain {
            Gain::Hp(n) => crate::rules::damage::heal(cx, e, n, &label),
            Gain::Ward(n) => {
                let ward = cx.s.unit(e).ward + n;
                cx.emit(Event::WardSet { unit: cx.s.who(e), ward, why: label });
            }
        }
        cx.s.empathy.copying = false;
    }
}

/// Uses Empathic Bond on `ally`.
pub fn use_bond(cx: &mut Ctx, u: UnitIdx, ally: UnitIdx, power: u16) {
    let step = if transfer_options(cx.s, u, ally).is_empty() { BondStep::Receiver } else { BondStep::Transfer };
    cx.push(crate::engine::kit::Frame::Divination(crate::engine::frames::classes::DivFrame::Bond {
        unit: u,
        ally,
        power,
        step,
    }));
}

/// Which ways the HP may go: the giver keeps at least 1 HP (see the rulings).
fn transfer_options(s: &State, u: UnitIdx, ally: UnitIdx) -> Vec<DecisionOption> {
    let mut out = Vec::new();
    if s.unit(u).hp > BOND_HP {
        out.push(DecisionOption::new("give", format!("{} hands {BOND_HP} HP to {}", s.unit(u).id, s.unit(ally).id)));
    }
    if s.unit(ally).hp > BOND_HP {
        out.push(DecisionOption::new("take", format!("{} hands {BOND_HP} HP to {}", s.unit(ally).id, s.unit(u).id)));
    }
    out
}

/// The question of an Empathic Bond frame.
pub fn question(
    s: &State,
    u: UnitIdx,
    ally: UnitIdx,
    step: &BondStep,
) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match step {
        BondStep::Transfer => (
            u,
            "effect",
            format!("{}: Empathic Bond — which way do the {BOND_HP} HP go?", s.unit(u).id),
            transfer_options(s, u, ally),
        ),
        BondStep::Receiver => (
            u,
            "effect",
            format!("{}: Empathic Bond — who takes what is meant for either of you?", s.unit(u).id),
            vec![
                DecisionOption::new(s.unit(u).id.to_string(), format!("{} takes it all", s.unit(u).id)),
                DecisionOption::new(s.unit(ally).id.to_string(), format!("{} takes it all", s.unit(ally).id)),
                DecisionOption::new("each", "each keeps its own"),
            ],
        ),
    }
}

/// Answers an Empathic Bond frame.
pub fn answer(cx: &mut Ctx, u: UnitIdx, ally: UnitIdx, power: u16, step: BondStep, option: &str) {
    let name = cx.s.powers.get(power).name.clone();
    match step {
        BondStep::Transfer => {
            let (from, to) = if option == "give" { (u, ally) } else { (ally, u) };
            // The Diviner and the ally are both in the transfer: no Empath copies it.
            cx.s.empathy.seen.push((u, name.clone(), false));
            cx.s.empathy.seen.push((ally, name.clone(), false));
            crate::rules::damage::deal_unreduced(cx, from, BOND_HP, Some(u), &format!("{name}: HP handed over"));
            crate::rules::damage::heal(cx, to, BOND_HP, &name);
            let next =
                crate::engine::frames::classes::DivFrame::Bond { unit: u, ally, power, step: BondStep::Receiver };
            cx.push(crate::engine::kit::Frame::Divination(next));
        }
        BondStep::Receiver => {
            let value = if option == "each" {
                0
            } else if option == &*cx.s.unit(u).id {
                1
            } else {
                2
            };
            // One bond per Diviner: a new one replaces the old.
            if let Some(i) = cx.s.curses.iter().position(|c| c.on == CurseOn::Bonded && c.maker == u) {
                cx.emit(Event::CurseEnded { index: i, why: "a new bond".into() });
            }
            let curse = Curse {
                on: CurseOn::Bonded,
                maker: u,
                target: ally,
                power,
                index: 0,
                duration: Duration::EndOfTurn { unit: u, turn: cx.s.unit(u).turns_started + 1 },
                value,
                via: None,
                at: None,
            };
            cx.emit(Event::CurseLaid { name, target: cx.s.who(ally), curse });
        }
    }
}

/// The Empath's copies of what its allies gain (healing, Ward, a save), as trigger points.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_healed(10, "empath", healed);
    r.on_ward_gained(10, "empath", ward_gained);
    r.on_save_made(10, "empath", saved);
}
