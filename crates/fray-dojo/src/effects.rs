//! The plain effects every rule reaches for: the distance between squares, healing, and gaining
//! tokens (with what turns or stops a gain). They read and change the state only, so the
//! Archetype, Bonus and Penalty modules use them without going through the rules.

use crate::content::{Token, Trait};
use crate::state::{Ctx, Event, State};
use fray_core::grid::Pos;

/// Spaces between two squares, a diagonal counting 1 (D-RNG-1, D-G-11).
pub fn dist(a: Pos, b: Pos) -> i32 {
    (a.x - b.x).abs().max((a.y - b.y).abs())
}

/// Whether a line from `a` to `b` passes no Wall (D-RNG-3, D-G-08).
pub fn sees(s: &State, a: Pos, b: Pos) -> bool {
    use fray_core::sight::{Sight, sight};
    a == b || sight(a, 1, b, 1, |p| s.obstacle(p) == Some(crate::content::Obstacle::Wall)) != Sight::Blocked
}

/// Heals `t` by `n` (D-HP-4): never past the current bar's top; an ally down at 0 HP still on
/// the map gets up with its last bar at `n`.
pub fn heal(cx: &mut Ctx, t: u8, n: i32) {
    let x = cx.s.u(t);
    if x.at.is_none() || n <= 0 {
        return;
    }
    let who = cx.s.who(t);
    // A Bleeding unit at 0 HP (D-G-28) gets up too, its last bar back at `n`.
    if x.out || x.hp == 0 && x.broken >= x.bars {
        let (hp, out) = (n.min(x.bar_max), x.out);
        cx.emit(Event::Hurt { who: who.clone(), by: None, damage: 0, shield: x.shield, hp, broken: x.bars - 1 });
        if out {
            cx.emit(Event::Out { who, out: false });
        }
        return;
    }
    let hp = (x.hp + n).min(x.bar_max);
    if hp != x.hp {
        cx.emit(Event::Healed { who, hp });
    }
}

/// `u` gains `n` tokens of `t` (D-TOK-*); Speed comes half as Iron or Power in Iron or Power
/// Form (D-CLAR-9). An out unit gains nothing (D-TOK-13).
pub fn gain(cx: &mut Ctx, u: u8, t: Token, n: i32, why: &'static str) {
    if n <= 0 || cx.s.u(u).out || blocks(cx.s, u, t) {
        return;
    }
    let who = cx.s.who(u);
    if t == Token::Speed {
        let turn = if cx.s.has_trait(u, Trait::SpeedToIron) {
            Some(Token::Iron)
        } else if cx.s.has_trait(u, Trait::SpeedToPower) {
            Some(Token::Power)
        } else {
            None
        };
        if let Some(other) = turn.filter(|&o| !blocks(cx.s, u, o)) {
            let half = (n + 1) / 2;
            cx.emit(Event::Tokens { who: who.clone(), token: other, delta: half, why });
            if n - half > 0 {
                cx.emit(Event::Tokens { who, token: Token::Speed, delta: n - half, why });
            }
            return;
        }
    }
    if t == Token::Stun {
        let room = 3 - cx.s.u(u).has(Token::Stun);
        if room > 0 {
            cx.emit(Event::Tokens { who, token: t, delta: n.min(room), why });
        }
        return;
    }
    cx.emit(Event::Tokens { who, token: t, delta: n, why });
}

/// D-PEN-8: a unit Powered Down gains no Power or Iron this round; next to a Caged enemy, no
/// Speed.
pub fn blocks(s: &State, u: u8, t: Token) -> bool {
    matches!(t, Token::Power | Token::Iron) && s.lasting(u, "power-down")
        || t == Token::Speed && crate::style_abilities::caged(s, u)
}
