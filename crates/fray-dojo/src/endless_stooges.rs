//! The optional rule Endless Stooges (D-OPT-4, table option `endless-stooges`): every hit takes
//! the Stooge it lands on out of play, and as each Stooge turn starts fresh Stooges come in next
//! to the Edges and obstacles, in place of Reinforcements. It plays the Stooges as figures
//! ([`crate::figures`]), so that each Stooge has a square to leave.

use crate::content::Kind;
use crate::frames::{Frame, StoogeStep};
use crate::state::{Ctx, Event, State};
use fray_core::decision::{Decision, DecisionOption};
use fray_core::grid::Pos;

/// Whether Endless Stooges holds for `u`: the option is on and `u` is a Stooge group.
pub fn on(s: &State, u: u8) -> bool {
    s.options.endless_stooges && s.u(u).kind == Kind::Stooges
}

/// D-OPT-4: whether a hit on `t` that dealt `dealt` by `by` takes the Stooge it landed on out
/// of play: damage from another unit (Burning and Traps hurt no one's Stooge in particular).
pub fn swept(s: &State, by: Option<u8>, t: u8, dealt: i32) -> bool {
    on(s, t) && dealt > 0 && by.is_some_and(|b| b != t) && s.u(t).active()
}

/// Whether `u`'s numbers left are lost: every Stooge in play has acted this turn, and there
/// is no Reinforcements to spend them on.
pub fn numbers_lost(s: &State, u: u8) -> bool {
    on(s, u) && !s.u(u).pool.is_empty() && !crate::enemies::member_free(s, u)
}

/// The squares a fresh Stooge may come in on: empty, holding no obstacle, and next to an Edge
/// (the map's border is one), an obstacle or a Copy.
pub fn squares(s: &State) -> Vec<Pos> {
    let beside = |q: Pos| {
        q.neighbours()
            .into_iter()
            .any(|p| !s.map.contains(p) || s.obstacle(p).is_some() || s.copies.iter().any(|c| c.0 == p))
    };
    s.map.squares().filter(|&q| s.empty(q) && s.obstacle(q).is_none() && beside(q)).collect()
}

/// As a Stooge group's own turn starts (its Stance taken): Heal Value fresh Stooges come in,
/// then the group heals. A group whose Stooges are all gone comes back this way; one at 0 HP
/// stays down.
pub fn turn_start(cx: &mut Ctx, u: u8) {
    let x = cx.s.u(u);
    if on(cx.s, u) && x.broken < x.bars {
        let n = cx.s.options.heal();
        cx.push(Frame::Stooges { u, step: StoogeStep::Endless { left: n } });
    }
}

/// The question of the placing step, `left` Stooges still to come in.
pub fn question(s: &State, u: u8, left: i32) -> Option<Decision> {
    if left <= 0 {
        return None;
    }
    let options: Vec<DecisionOption> = squares(s).into_iter().map(|q| DecisionOption::square(q, q.key())).collect();
    (!options.is_empty()).then(|| Decision {
        seat: crate::state::SIDES[s.u(u).side as usize].into(),
        unit: Some(s.u(u).id.to_string()),
        kind: "square".into(),
        prompt: format!("{}: where does a fresh Stooge come in ({left} to place)?", s.u(u).name),
        options,
    })
}

/// Nothing left to place (or nowhere to put them): the Stooges heal, if any stand in play.
pub fn done(cx: &mut Ctx, u: u8) {
    if cx.s.u(u).active() {
        let n = cx.s.options.heal();
        crate::effects::heal(cx, u, n);
    }
}

/// A fresh Stooge comes in on `q`: the group's unit itself if none of it stands in play.
pub fn place(cx: &mut Ctx, u: u8, q: Pos, left: i32) {
    let who = cx.s.who(u);
    if cx.s.u(u).at.is_none() {
        cx.emit(Event::Moved { who: who.clone(), to: q, how: "return" });
        cx.emit(Event::Out { who, out: false });
    } else {
        cx.emit(Event::MemberPlaced { of: who, at: q });
    }
    cx.push(Frame::Stooges { u, step: StoogeStep::Endless { left: left - 1 } });
}
