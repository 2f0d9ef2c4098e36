//! Units standing as several figures on the map: a Stooge group with the table option
//! `stooge-figures` (D-EN-4, one figure a die) and the Twins (two, always). Which units they
//! are, the squares of their figures (`State::members`), and where the figures stand as a fight
//! is set up. A leaf: how figures move, lead and leave play is in [`crate::enemies`].

use crate::content::{Kind, Obstacle};
use crate::state::State;
use fray_core::grid::Pos;

/// Whether `u` stands as several figures: a Stooge group with `stooge-figures`, or the Twins
/// (two figures always, L8805).
pub fn figures(s: &State, u: u8) -> bool {
    s.options.stooge_figures && s.u(u).kind == Kind::Stooges || twins(s, u)
}

/// Whether `u` holds the Twins Boss Archetype.
pub fn twins(s: &State, u: u8) -> bool {
    crate::state::has_archetype(s, u, "twins").is_some()
}

/// The Twins (L8805): the square of the twin that is not taking the lead, the other figure.
pub fn other_twin(s: &State, u: u8) -> Option<Pos> {
    if twins(s, u) { of(s, u).first().copied() } else { None }
}

/// The Twins count as each other's allies (L8805): whether the twin not taking the lead is an
/// ally `u`'s acting twin may aim at, within `lo..=hi` of it (any distance when `reach` is
/// false) and, when `sight`, seen from it.
pub fn twin_ally(s: &State, u: u8, lo: i32, hi: i32, reach: bool, sight: bool) -> bool {
    let (Some(a), Some(b)) = (s.u(u).at, other_twin(s, u)) else { return false };
    (!reach || (lo..=hi).contains(&crate::effects::dist(a, b))) && (!sight || crate::effects::sees(s, a, b))
}

/// The squares of `u`'s Stooges besides the one on its unit's square.
pub fn of(s: &State, u: u8) -> Vec<Pos> {
    s.members.iter().filter(|m| m.1 == u).map(|m| m.0).collect()
}

/// Every square a Stooge of `u` stands on, its unit's first; just its square for anyone else.
pub fn spots(s: &State, u: u8) -> Vec<Pos> {
    s.u(u).at.into_iter().chain(of(s, u)).collect()
}

/// D-EN-4: as the fight is set up with `stooge-figures`, each Stooge group puts its other
/// Stooges on the free squares nearest its own (closest first, then by row and column). Traps
/// and Edges are skipped; a crowded map may leave some out.
/// The Twins start side by side: the second twin takes the nearest free square the same way.
pub fn place_members(s: &mut State) {
    for u in 0..s.units.len() as u8 {
        let Some(at) = s.u(u).at else { continue };
        if !figures(s, u) || s.u(u).out {
            continue;
        }
        let want = if twins(s, u) { 1 } else { dice_members(s, u).saturating_sub(1) };
        let mut free: Vec<Pos> = s
            .map
            .squares()
            .filter(|&q| s.empty(q) && !matches!(s.obstacle(q), Some(Obstacle::Trap) | Some(Obstacle::Edge)))
            .collect();
        free.sort_by_key(|&q| (crate::effects::dist(at, q), q.y, q.x));
        for q in free.into_iter().take(want) {
            s.members.push((q, u));
        }
    }
}

/// The Stooges a group starts with: one for each die its Stance always rolls (D-EN-4, D-G-41).
pub fn dice_members(s: &State, u: u8) -> usize {
    let x = s.u(u);
    let Some(st) = x.stance else { return 0 };
    let stance = x.stances[st];
    // D-STN-4: a Forbidden Stance counts the Forbidden chart's dice of both its Forms.
    let base = s.form_dice(stance).len();
    base + stance.style.map_or(0, |i| s.content.styles[i].dice.len())
}
