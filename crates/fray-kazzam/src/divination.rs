//! Diviner powers that read or bend fate beyond a plain Effect line (L1167-1273): Foresight's
//! die rolled ahead for a creature's first attack roll on its turn, Coin of Fortune's round of
//! Advantage or Disadvantage, Line-of-Sight Curse's Ongoing damage that lasts while the Diviner
//! keeps a line to its target, and Empathic Wave's Regenerate that ends when the Diviner is hit
//! and reaches allies starting their turn near it. Revealed Pain and Linked Doom are curses
//! (`curses`).

use crate::curses::{Curse, CurseOn};
use crate::events::Event;
use crate::flow::Ctx;
use crate::modifiers::{Attackers, Modifier, ModifierKind};
use crate::state::{State, UnitIdx};
use crate::statuses::{Duration, Status};
use fray_core::ruleset::RuleError;

/// Power hooks played here.
pub const POWER_HOOKS: &[&str] = &["foresight", "coin-of-fortune"];

/// Whether status `st` was given by a primitive carrying effect hook `hook`.
fn from_hook(s: &State, st: &Status, hook: &str) -> bool {
    st.origin.is_some_and(|p| {
        s.powers
            .get(p)
            .effect
            .iter()
            .any(|e| e.hook.as_deref() == Some(hook) && e.status.as_deref() == Some(st.kind.name()))
    })
}

/// Uses a power played here.
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16, targets: &[UnitIdx]) -> Result<(), RuleError> {
    let def = cx.s.powers.get(power).clone();
    cx.emit(Event::PowerUsed {
        unit: cx.s.who(u),
        power: def.name.clone(),
        targets: targets.iter().map(|&t| cx.s.who(t)).collect(),
    });
    match def.hook.as_deref() {
        Some("foresight") => {
            let t = targets[0];
            // A die the Diviner rolls (a Seer's foreseen result or Reversal of Fortune may stand in).
            let value = cx.d6(Some(u))?;
            // A new Foresight from the same Diviner replaces the old one on that creature.
            if let Some(i) = cx.s.curses.iter().position(|c| c.on == CurseOn::ForeseenRoll && c.target == t && c.maker == u)
            {
                cx.emit(Event::CurseEnded { index: i, why: "foreseen again".into() });
            }
            let curse =
                Curse { on: CurseOn::ForeseenRoll, maker: u, target: t, power, index: 0, duration: Duration::Indefinite, value };
            cx.emit(Event::CurseLaid { name: def.name.clone(), target: cx.s.who(t), curse });
        }
        Some("coin-of-fortune") => {
            let roll = cx.d6(Some(u))?;
            let kind = if roll % 2 == 0 { ModifierKind::TeamAdvantage } else { ModifierKind::EnemyDisadvantage };
            cx.emit(Event::Note { text: format!("{} tosses the coin: {roll}", cx.s.unit(u).id) });
            let modifier = Modifier {
                kind,
                amount: cx.s.round as i32 + 1, // the next round
                attackers: Attackers::Unit(u),
                against: None,
                first: false,
                during: None,
                duration: Duration::Indefinite,
                source: u,
                power,
            };
            cx.emit(Event::ModifierAdded { name: def.name.clone(), modifier });
        }
        _ => {}
    }
    Ok(())
}

/// Foresight: the die foreseen for `attacker`, read as its first attack roll on its own turn
/// (used up then).
pub fn foreseen_roll(cx: &mut Ctx, attacker: UnitIdx) -> Option<i32> {
    if cx.s.current() != Some(attacker) {
        return None;
    }
    let i = cx.s.curses.iter().position(|c| c.on == CurseOn::ForeseenRoll && c.target == attacker)?;
    let (v, maker) = (cx.s.curses[i].value, cx.s.curses[i].maker);
    cx.emit(Event::CurseEnded { index: i, why: "its attack roll is made".into() });
    cx.emit(Event::Note {
        text: format!("{}'s attack roll is the die {} foresaw: {v}", cx.s.unit(attacker).id, cx.s.unit(maker).id),
    });
    Some(v)
}

/// Coin of Fortune: (Advantage, Disadvantage) on every roll `u` makes this round.
pub fn fortune(s: &State, u: UnitIdx) -> (bool, bool) {
    let side = s.unit(u).side;
    let mut out = (false, false);
    for m in s.modifiers.iter().filter(|m| m.amount == s.round as i32) {
        let maker = s.unit(m.source).side;
        match m.kind {
            ModifierKind::TeamAdvantage if side == maker => out.0 = true,
            ModifierKind::EnemyDisadvantage if side != maker && side.team().is_some() => out.1 = true,
            _ => {}
        }
    }
    out
}

/// As a round begins: Coin of Fortune's rounds that are over end.
pub fn round_begins(cx: &mut Ctx) {
    for i in (0..cx.s.modifiers.len()).rev() {
        let m = &cx.s.modifiers[i];
        if matches!(m.kind, ModifierKind::TeamAdvantage | ModifierKind::EnemyDisadvantage)
            && m.amount < cx.s.round as i32
        {
            cx.emit(Event::ModifierEnded { index: i, why: "its round is over".into() });
        }
    }
}

/// Line-of-Sight Curse: each Ongoing status that lasts while its source keeps a line to its
/// bearer ends once the source has none (or has left the map). Checked whenever a creature
/// enters a square and as each turn starts. A Scryer's lock counts as a line.
pub fn sight_check(cx: &mut Ctx) {
    let mut ended = Vec::new();
    for u in cx.s.units_on_map() {
        for st in &cx.s.unit(u).statuses {
            if !from_hook(cx.s, st, "while-in-sight") {
                continue;
            }
            let seen = st.source.is_some_and(|src| {
                let x = cx.s.unit(src);
                x.pos.is_some_and(|p| {
                    crate::features::locked(cx.s, src, u)
                        || crate::cover::shot(cx.s, p, x.size, u) != fray_core::sight::Sight::Blocked
                })
            });
            if !seen {
                ended.push((u, *st));
            }
        }
    }
    for (u, st) in ended {
        cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "out of its curser's sight".into() });
    }
}

/// Empathic Wave: the Regenerate `unit` gains as its turn starts from a Diviner ally within 5
/// squares whose wave is still running (the strongest one, if several).
pub fn wave_regenerate(s: &State, unit: UnitIdx) -> i32 {
    s.units_on_map()
        .filter(|&w| w != unit && !s.enemies(w, unit) && s.distance(w, unit).is_some_and(|d| d <= 5))
        .flat_map(|w| {
            s.unit(w)
                .statuses
                .iter()
                .filter(move |st| st.source == Some(w) && from_hook(s, st, "empathic-wave"))
                .map(|st| st.amount)
                .collect::<Vec<_>>()
        })
        .max()
        .unwrap_or(0)
}

/// `target` was hit by an attack: its Empathic Wave ends.
pub fn was_hit(cx: &mut Ctx, target: UnitIdx) {
    let waves: Vec<Status> =
        cx.s.unit(target).statuses.iter().filter(|st| from_hook(cx.s, st, "empathic-wave")).copied().collect();
    for st in waves {
        cx.emit(Event::StatusEnded { unit: cx.s.who(target), status: st, why: "hit by an attack".into() });
    }
}
