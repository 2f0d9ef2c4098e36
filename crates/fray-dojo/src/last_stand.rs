//! The Last Stand and the end of a fight (D-LS-1..D-LS-4): who on the losing side makes it, the
//! hand-off of the story to the winners, then everyone healed to full with no tokens.

use crate::state::{Ctx, Event, Kind, SIDES, State};

/// Who on `side` makes the Last Stand (D-LS-2): a Boss of the Director's side, else the last
/// Warrior to fall; on the heroes' side the last Hero to fall (the book lets the players name the
/// most invested Hero instead: that is a matter of the telling, D-G-LS). Anyone else of the side
/// when neither is there.
pub fn speaker(s: &State, side: u8) -> Option<u8> {
    let ours = |v: &u8| s.u(*v).side == side;
    let last_of = |k: Kind| s.fallen.iter().rev().copied().filter(ours).find(|&v| s.u(v).kind == k);
    // The Director's sides: the enemies, and in a three-way battle the rivals too (D-CMP-4).
    let director = SIDES[side as usize] != "heroes";
    if director && let Some(b) = (0..s.units.len() as u8).filter(ours).find(|&v| s.u(v).kind == Kind::Boss) {
        return Some(b);
    }
    let first = if director { Kind::Warrior } else { Kind::Hero };
    last_of(first).or_else(|| s.fallen.iter().rev().copied().find(ours)).or_else(|| (0..s.units.len() as u8).find(ours))
}

/// `side` has lost (D-LS-1): its Last Stand is made and handed to the winners (`winner`; D-LS-2,
/// D-LS-3); then the losers flee and everyone heals to full and drops every token (D-LS-4).
/// Returns the name of who made the Last Stand.
pub fn settle(cx: &mut Ctx, side: u8, winner: Option<u8>) -> Option<String> {
    let who = speaker(cx.s, side)?;
    let name = cx.s.u(who).name.clone();
    let answered_by = SIDES[winner.unwrap_or(1 - side.min(1)) as usize].to_string();
    let w = cx.s.who(who);
    cx.emit(Event::LastStand { who: w, answered_by });
    for v in 0..cx.s.units.len() as u8 {
        let w = cx.s.who(v);
        cx.emit(Event::Restored { who: w });
    }
    Some(name)
}
