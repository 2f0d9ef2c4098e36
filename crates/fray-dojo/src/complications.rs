//! The complications a Director may add to a fight (D-CMP-*): guests on the heroes' side
//! (D-CMP-1), units gone over to the other side (D-CMP-3), three-way battles with their Favor
//! tokens (D-CMP-4). Uneven fights (D-CMP-2) are evened out in [`crate::enemies::even_out`];
//! higher stakes (D-CMP-5) are [`crate::stakes`].

use crate::content::Token;
use crate::state::{Ctx, Event, Kind, SIDES, State};

/// Whether a unit of `kind` on side `side` is a guest (D-CMP-1): an enemy-made unit (a Warrior,
/// a Boss or Stooges) fighting on the heroes' side. It has one bar, takes one hero slot a round,
/// and brings the enemies one more slot; the heroes' seat plays it.
pub fn guest_kind(kind: Kind, side: usize) -> bool {
    side == 0 && kind != Kind::Hero
}

// ---------------------------------------------------------------- three-way battles (D-CMP-4)

/// The other sides from `own` on, in the meter's order (Team A after the heroes, Team B after
/// Team A), then `own` last: the order in which sides are asked to answer a unit of `own`.
pub fn others_first(s: &State, own: u8) -> Vec<u8> {
    let n = s.sides() as u8;
    (1..=n).map(|i| (own + i) % n).collect()
}

/// Whether `user` may pick `v` where an Action picks one ally: in a three-way battle an Ally is
/// anyone the user wants (L411), otherwise a unit of its own side.
pub fn befriends(s: &State, user: u8, v: u8) -> bool {
    s.u(user).side == s.u(v).side || s.three_way()
}

/// Whether a Favor token turned `attacker` away from `v`'s side for the rest of this turn: its
/// Actions may not aim at `v` as an enemy.
pub fn turned_away(s: &State, attacker: u8, v: u8) -> bool {
    s.marks.turned_away.contains(&(attacker, s.u(v).side))
}

/// Whether giving `token` helps its holder (D-CMP-4: healing and friendly tokens are help).
pub fn friendly(token: Token) -> bool {
    !matches!(token, Token::Burning | Token::Weakness | Token::Stun | Token::Challenge | Token::Favor)
}

/// `helper` helped `t` of another side (a heal, a Shield, a friendly token) in a three-way
/// battle: a Favor token changes hands (D-G-FAVOR): by default the helper gains one naming the
/// side it helped (`favor=helped`: the unit helped gains one naming the helper's side). A unit
/// gains at most one a turn.
pub fn helped(cx: &mut Ctx, helper: u8, t: u8) {
    let s = &*cx.s;
    if !s.three_way() || s.u(helper).side == s.u(t).side {
        return;
    }
    let (holder, named) = if s.options.favor_to_helper { (helper, t) } else { (t, helper) };
    if s.marks.favor_gained.contains(&holder) || !s.u(holder).active() {
        return;
    }
    let team = SIDES[s.u(named).side as usize].to_string();
    let (who, helped) = (s.who(holder), s.who(t));
    cx.emit(Event::FavorGained { who, team, helped });
}

/// The units of `side` that may spend a Favor token on `user`'s attack now: holding one naming
/// `user`'s side, no Favor token spent this turn by anyone, `user` not turned away from `side`
/// already.
pub fn favor_holders(s: &State, user: u8, side: u8) -> Vec<u8> {
    let own = s.u(user).side;
    if !s.three_way() || s.marks.favor_spent || side == own || s.marks.turned_away.contains(&(user, side)) {
        return Vec::new();
    }
    (0..s.units.len() as u8)
        .filter(|&v| {
            s.u(v).side == side && s.u(v).active() && s.u(v).has(Token::Favor) > 0 && s.favors.contains(&(v, own))
        })
        .collect()
}

/// The side asked next whether to spend a Favor token on `user`'s attack: among the sides in
/// `reach` (a bit each: those the attack may aim at) that have not declined (`passed`), the
/// first in the meter's order after the attacker's (first caller wins, L415).
pub fn favor_side(s: &State, user: u8, reach: u8, passed: u8) -> Option<u8> {
    others_first(s, s.u(user).side)
        .into_iter()
        .find(|&side| passed & (1 << side) == 0 && reach & (1 << side) != 0 && !favor_holders(s, user, side).is_empty())
}

/// `v` spends a Favor token naming `user`'s side: `user` may not attack `v`'s side for the rest
/// of the turn.
pub fn spend_favor(cx: &mut Ctx, v: u8, user: u8) {
    let team = SIDES[cx.s.u(user).side as usize].to_string();
    let (who, attacker) = (cx.s.who(v), cx.s.who(user));
    cx.emit(Event::FavorSpent { who, team, attacker });
}

/// The side that has won a three-way battle or a two-sided fight, and the side that lost last
/// (who makes the Last Stand, D-LS-2), once at most one side has anyone left in the fight;
/// `standing(side)` says whether a side still has someone. In a two-sided fight the first side
/// found with nobody left loses and the other wins. In a three-way battle the fight goes on
/// while two sides stand; the side of the unit that fell last loses, and the side left wins (no
/// side left: nobody wins).
pub fn decided(s: &State, standing: impl Fn(u8) -> bool) -> Option<(Option<u8>, u8)> {
    let n = s.sides() as u8;
    let down: Vec<u8> = (0..n).filter(|&side| !standing(side)).collect();
    if n == 2 {
        return down.first().map(|&l| (Some(1 - l), l));
    }
    if down.len() + 1 < n as usize {
        return None;
    }
    let winner = (0..n).find(|&side| standing(side));
    let loser =
        s.fallen.iter().rev().map(|&v| s.u(v).side).find(|side| down.contains(side)).unwrap_or(down[down.len() - 1]);
    Some((winner, loser))
}
