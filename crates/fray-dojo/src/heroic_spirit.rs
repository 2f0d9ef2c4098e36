//! Heroic Spirit (D-OUT-6, D-G-04, D-G-36) and the optional Heroic Power Up (D-OPT-2): who may
//! take an out unit's numbers, and what the hand-off may carry besides them.

use crate::stakes::{StakeKind, StakeSpec};
use crate::state::{Ctx, Event, State};
use fray_core::decision::DecisionOption;

/// D-G-36: who may take `u`'s numbers: a unit of its own side (an enemy's go to another enemy
/// unit), in play and not Taken Out.
pub fn takers(s: &State, u: u8) -> Vec<u8> {
    (0..s.units.len() as u8).filter(|&v| v != u && s.u(v).side == s.u(u).side && s.u(v).active()).collect()
}

/// D-OPT-2: the Bonuses a Heroic Power Up may hand on: every one played, but the Default.
pub fn bonuses(s: &State) -> Vec<(&str, &str)> {
    s.content
        .stakes
        .iter()
        .filter(|d| d.kind == StakeKind::Bonus && d.id != "default" && d.unplayed.is_none())
        .map(|d| (d.id.as_str(), d.name.as_str()))
        .collect()
}

/// The answers to `u`'s hand-off: each taker (`ID`), and with Heroic Power Up each taker with
/// each Bonus (`ID/BONUS`).
pub fn options(s: &State, u: u8) -> Vec<DecisionOption> {
    let mut out = Vec::new();
    for v in takers(s, u) {
        let x = s.u(v);
        out.push(DecisionOption::new(x.id.to_string(), x.name.clone()));
        if s.options.heroic_power_up {
            for (id, name) in bonuses(s) {
                out.push(DecisionOption::new(
                    format!("{}/{id}", x.id),
                    format!("{}, with {name} for the two lowest numbers (Heroic Power Up)", x.name),
                ));
            }
        }
    }
    out
}

/// Splits an answer into the taker's id and the Bonus handed on with the numbers, if any.
pub fn parse(option: &str) -> (&str, Option<&str>) {
    match option.split_once('/') {
        Some((who, bonus)) => (who, Some(bonus)),
        None => (option, None),
    }
}

/// The numbers `numbers` go to the taker: all of them, or with a Bonus (D-OPT-2) all but the
/// two lowest.
pub fn handed(numbers: &[i32], bonus: Option<&str>) -> Vec<i32> {
    let mut kept = numbers.to_vec();
    if bonus.is_some() {
        kept.sort_unstable();
        kept.drain(..kept.len().min(2));
        kept.reverse();
    }
    kept
}

/// D-OPT-2: `to` gets the Bonus `bonus` as the stakes give it when a fight starts (a round-long
/// one lasts the rest of this round). Found An Opening adds its number to the numbers handed on
/// at once, since the taker rolls nothing this turn.
pub fn power_up(cx: &mut Ctx, to: u8, bonus: &str) -> Result<(), fray_core::ruleset::RuleError> {
    let spec = StakeSpec { unit: cx.s.u(to).id.to_string(), bonus: Some(bonus.to_string()), ..Default::default() };
    let who = cx.s.who(to);
    cx.emit(Event::PoweredUp { who, bonus: bonus.to_string() });
    crate::stakes::apply(cx, &[spec]);
    if bonus == "found-an-opening" {
        crate::stakes::opening(cx, to)?;
    }
    Ok(())
}
