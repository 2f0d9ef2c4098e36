//! The rival teams' team traits (§5, rules §2.14): each of the book's four teams plays one, and
//! a team file names it in `[team] trait = ...`. Team Effort heals a team that keeps together
//! at the start of each round (L2751-2753); Agile turns incoming 3s into misses (L3090);
//! Untouchable starts and respawns its athletes with fewer HP and a Ward (L3497-3499); Get Out of
//! Jail Free lets them leave the Dungeon for a Free Action, and from level 3 come out anywhere
//! (L3791-3793). A trait's level-3 form follows the athlete's own level.

use crate::engine::events::Event;
use crate::engine::kit::Ctx;
use crate::engine::state::{State, UnitIdx, UnitKind};
use crate::rules::statuses::Duration;
use fray_core::geometry::distance;
use fray_core::ruleset::RuleError;

pub use crate::engine::state::TeamTrait;

fn has(s: &State, u: UnitIdx, t: TeamTrait) -> bool {
    s.unit(u).team_trait == Some(t)
}

/// Untouchable's maximum HP and Ward (L3497-3499): 6 HP and 3 Ward, 8 HP and 3 Ward from level 3.
/// The Ward is the one a Taken Out athlete gets back (K-DUN-3), so it respawns with it too.
pub fn untouchable_start(level: u8) -> (i32, i32) {
    (if level >= 3 { 8 } else { 6 }, 3)
}

/// Agile (L3090): an incoming attack roll of 3 reads as 2, or as 1 from level 3; applied after
/// Guarded, so a 4 that Guarded made a 3 is not lowered again. A 1 made this way is a miss but
/// no Strike: Strikes come from natural 1s (rules §6.2 #38).
pub fn agile(cx: &mut Ctx, target: UnitIdx, value: i32, guarded_already: bool) -> i32 {
    if value != 3 || guarded_already || !has(cx.s, target, TeamTrait::Agile) {
        return value;
    }
    let to = if cx.s.unit(target).level >= 3 { 1 } else { 2 };
    cx.emit(Event::RollAdjusted { target: cx.s.who(target), from: value, to, why: "Agile".into() });
    to
}

/// Whether `u` hits a Dungeon button with a Free Action (Get Out of Jail Free, K-DUN-6).
pub fn free_button(s: &State, u: UnitIdx) -> bool {
    has(s, u, TeamTrait::GetOutOfJailFree)
}

/// Whether `u` leaving the Dungeon may come out anywhere (Get Out of Jail Free at level 3, L3793).
pub fn out_anywhere(s: &State, u: UnitIdx) -> bool {
    has(s, u, TeamTrait::GetOutOfJailFree) && s.unit(u).level >= 3
}

/// Team Effort at the start of a round (L2751-2753): every athlete on the map within 3 squares
/// of a teammate regains 2 HP; from level 3 it also saves against one status that would end at
/// the end of its next turn or ends on a save (the first such, see rulings).
pub fn round_begins(cx: &mut Ctx) -> Result<(), RuleError> {
    let athletes: Vec<UnitIdx> =
        cx.s.unit_indices()
            .filter(|&u| {
                let x = cx.s.unit(u);
                x.kind == UnitKind::Athlete && x.on_map() && x.team_trait == Some(TeamTrait::TeamEffort)
            })
            .collect();
    if athletes.is_empty() {
        return Ok(());
    }
    // Who is near a teammate is read once, before anyone heals.
    let near: Vec<UnitIdx> = athletes
        .iter()
        .copied()
        .filter(|&u| {
            let a = cx.s.unit(u);
            athletes.iter().any(|&v| {
                let b = cx.s.unit(v);
                v != u && b.side == a.side && distance(a.pos.unwrap(), a.size, b.pos.unwrap(), b.size) <= 3
            })
        })
        .collect();
    for u in near {
        if cx.s.unit(u).hp < cx.s.unit(u).max_hp {
            crate::rules::damage::heal(cx, u, 2, "Team Effort");
        }
        if cx.s.unit(u).level >= 3 {
            let turn = cx.s.unit(u).turns_started;
            let st = cx.s.unit(u).statuses.iter().copied().find(|st| {
                matches!(st.duration, Duration::SaveEnds)
                    || matches!(st.duration, Duration::EndOfTurn { unit: w, turn: t } if w == u && t <= turn + 1)
            });
            if let Some(st) = st {
                let saved = crate::rules::saves::saving_throw(cx, u, st.kind.name())?;
                if saved && cx.s.unit(u).statuses.contains(&st) {
                    cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "saved (Team Effort)".into() });
                }
            }
        }
    }
    Ok(())
}
