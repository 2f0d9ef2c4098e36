//! Copies (D-OBS-1, D-G-30): replicas of a unit that stand on the map as obstacles filling their
//! square. A Copy is kept with its Original (`State::copies`), not in the map's grid, so it may
//! stand in Fog or on Rubble as a unit does; placing one overwrites the obstacle there (D-OBS-0).
//!
//! This module places, moves and breaks Copies, lets an Original act as if standing on one
//! (L9585), and holds the Style abilities built on them: Crystal's burst when one breaks,
//! Illusion's answer to a hit and its Copies spent as Iron. It is a leaf: what hurts someone is
//! queued as a quiet run of effects for the rules to resolve.

use crate::content::{ActionDef, Cost, Effect, Num, Target};
use crate::frames::{Frame, Run};
use crate::state::{ActionKey, Ctx, Event, Kind, State};
use fray_core::grid::Pos;

/// Spaces between two squares, a diagonal counting 1 (D-RNG-1).
fn dist(a: Pos, b: Pos) -> i32 {
    (a.x - b.x).abs().max((a.y - b.y).abs())
}

/// The squares of `u`'s Copies, oldest first.
pub fn of(s: &State, u: u8) -> Vec<Pos> {
    s.copies.iter().filter(|c| c.1 == u).map(|c| c.0).collect()
}

/// The Original of the Copy on `p`, if one stands there.
pub fn owner(s: &State, p: Pos) -> Option<u8> {
    s.copies.iter().find(|c| c.0 == p).map(|c| c.1)
}

/// Whether `u`'s current Stance has the Style `id`.
fn in_style(s: &State, u: u8, id: &str) -> bool {
    s.u(u).active() && s.style(u).is_some_and(|st| st.id == id)
}

fn quiet(u: u8, ops: Vec<Effect>) -> Run {
    let mut run = Run::new(u, ActionKey::Basic(0), 0, ops);
    run.quiet = true;
    run
}

fn hit(amount: i32, target: Target) -> Effect {
    Effect::Damage {
        amount: Num::N(amount),
        target,
        push: 0,
        pierce: false,
        any_power: false,
        optional: false,
        reverse: false,
    }
}

/// `u` puts a Copy of itself on `p`, over any obstacle there. A Stooge group has no Copies
/// (D-OBS-1, L4130: its "Copy" is one more Stooge, put there when its Stooges stand as figures).
pub fn place(cx: &mut Ctx, u: u8, p: Pos) {
    if cx.s.u(u).out {
        return;
    }
    if cx.s.u(u).kind == Kind::Stooges {
        if cx.s.options.stooge_figures && cx.s.u(u).active() {
            let of = cx.s.who(u);
            cx.emit(Event::MemberPlaced { of, at: p });
        }
        return;
    }
    let of = cx.s.who(u);
    cx.emit(Event::CopyPlaced { of, at: p });
}

/// The Copy on `p` is destroyed; Crystal Style makes it burst: 1 damage to each enemy of its
/// Original next to it (L3165).
pub fn destroy(cx: &mut Ctx, p: Pos) {
    let Some(u) = owner(cx.s, p) else { return };
    let of = cx.s.who(u);
    cx.emit(Event::CopyGone { of, at: p });
    if in_style(cx.s, u, "crystal") {
        let mut run = quiet(u, vec![hit(1, Target::EnemiesBySpot)]);
        run.spot = Some(p);
        cx.push(Frame::Run(Box::new(run)));
    }
}

/// Every Copy of `u` goes (its Original is Taken Out: Fray's reading of D-G-30).
pub fn clear(cx: &mut Ctx, u: u8) {
    for p in of(cx.s, u) {
        let of = cx.s.who(u);
        cx.emit(Event::CopyGone { of, at: p });
    }
}

/// The Copy on `from` steps to `to` (Free Movement, paid by its Original, or a push). A Copy
/// entering a Trap takes its damage and breaks; one over an Edge is gone (D-OBS-2).
pub fn step(cx: &mut Ctx, from: Pos, to: Pos) {
    let Some(u) = owner(cx.s, from) else { return };
    let of = cx.s.who(u);
    cx.emit(Event::CopyMoved { of, from, to });
    let over = !cx.s.map.contains(to) || cx.s.obstacle(to) == Some(crate::content::Obstacle::Edge);
    // Spirit: Edges do not take its Copies.
    if cx.s.obstacle(to) == Some(crate::content::Obstacle::Trap) || over && !in_style(cx.s, u, "spirit") {
        destroy(cx, to);
    }
}

/// Illusion Style (L2816): an enemy that damaged `t` while within `t`'s range of one of its
/// Copies takes 1 (2 when three Copies or more have it in range). `range` is `t`'s.
pub fn illusion(cx: &mut Ctx, t: u8, by: u8, range: (i32, i32)) {
    if !in_style(cx.s, t, "illusion") || !cx.s.u(by).active() {
        return;
    }
    let Some(at) = cx.s.u(by).at else { return };
    let near = of(cx.s, t).into_iter().filter(|&c| (range.0..=range.1).contains(&dist(c, at))).count();
    if near == 0 {
        return;
    }
    let mut run = quiet(t, vec![hit(if near >= 3 { 2 } else { 1 }, Target::Same)]);
    run.current = Some(by);
    cx.push(Frame::Run(Box::new(run)));
}

/// How many Copies `t` may spend as Iron tokens (Illusion Style, L2816).
pub fn as_iron(s: &State, t: u8) -> i32 {
    if in_style(s, t, "illusion") { of(s, t).len() as i32 } else { 0 }
}

/// `t` spends `n` Copies as Iron, the newest first (Fray picks which, D-G-COPY).
pub fn spend_as_iron(cx: &mut Ctx, t: u8, n: i32) {
    for p in of(cx.s, t).into_iter().rev().take(n.max(0) as usize) {
        destroy(cx, p);
    }
}

/// Whether an action may be taken from a Copy to any purpose: it aims at someone or somewhere
/// besides its user (a self-only action, such as Yell, gains nothing from standing elsewhere).
/// Actions paid with a Copy are taken from the Original.
pub fn reaches_out(a: &ActionDef) -> bool {
    if a.cost == Cost::Copy {
        return false;
    }
    let selfish = |e: &Effect| match e {
        Effect::Gain { .. } | Effect::GainBasic { .. } | Effect::AddNumber { .. } | Effect::TakeAim => true,
        Effect::Amplify | Effect::WatchClosely => true,
        Effect::PickFrantic { .. } => true,
        Effect::Heal { target, .. } | Effect::Strip { target, .. } | Effect::RemoveToken { target, .. } => {
            *target == Target::Me
        }
        Effect::Give { target, .. } => *target == Target::Me,
        Effect::Shield { target, .. } => target.is_none_or(|t| t == Target::Me),
        _ => false,
    };
    a.gate.iter().any(|g| {
        g.first
            .iter()
            .chain(g.effects.iter())
            .chain(g.option.iter().flat_map(|o| o.effects.iter()))
            .any(|e| !selfish(e))
    })
}

/// The fight as it would be with `u` standing on its Copy at `p`, its own square kept full: what
/// it may do from there.
pub fn standing_on(s: &State, u: u8, p: Pos) -> State {
    let mut v = s.clone();
    if let Some(own) = v.units[u as usize].at {
        v.standing_in.push((u, own, p));
        v.units[u as usize].at = Some(p);
    }
    v
}

/// `u` takes its next action as if standing on its Copy at `p` (L9585); it comes back after.
pub fn act_from(cx: &mut Ctx, u: u8, p: Pos) {
    let who = cx.s.who(u);
    cx.emit(Event::FromCopy { who, at: p });
}

/// The action taken from a Copy is over: back to the unit's own square, unless the action moved it
/// (then it stays where it went, D-G-COPY).
pub fn back(cx: &mut Ctx, u: u8) {
    let Some(&(_, own, copy)) = cx.s.standing_in.iter().find(|c| c.0 == u) else { return };
    let stayed = cx.s.u(u).at == Some(copy);
    let who = cx.s.who(u);
    cx.emit(Event::BackFromCopy { who, back: stayed.then_some(own) });
}

/// A square written `x,y` after `sep` at the end of an option id, and the id before it.
pub fn split_square(option: &str, sep: char) -> (&str, Option<Pos>) {
    match option.rsplit_once(sep) {
        Some((id, sq)) => match Pos::parse(sq) {
            Some(p) => (id, Some(p)),
            None => (option, None),
        },
        None => (option, None),
    }
}
