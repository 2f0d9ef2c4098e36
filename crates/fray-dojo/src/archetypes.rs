//! Archetype abilities (D-HC-3, D-HC-4, D-EN-2, D-EN-11; rules/dojo.md §2.2): the ones Fray
//! plays, at the start and end of a turn, on a Challenge and on damage. A unit's Archetypes are
//! Focused (a hero of one Archetype) or Fused (a hero of two, every Warrior and Boss).

use crate::content::{Choice, Effect, Num, Target, Token};
use crate::effects::{dist, gain, heal};
use crate::frames::{Frame, Run, Stage};
use crate::rules::hurt;
use crate::state::{ActionKey, Ctx, Event, State, Variant};
pub use crate::state::{FRANTIC_AS_FOCUSED, has_archetype as has};

/// A Frantic hero's pick of its ability for the turn, never the last turn's (D-HC-9).
pub fn frantic_pick(s: &State, u: u8) -> Option<Frame> {
    let x = s.u(u);
    if !x.frantic() {
        return None;
    }
    let choices: Vec<Choice> = x
        .archetypes
        .iter()
        // D-HC-9: the ability still in use is the one of its last turn (it lasts until this pick).
        .filter(|(_, v)| *v != Variant::FranticNow)
        .map(|(a, _)| {
            let arch = &s.content.archetypes[*a];
            Choice {
                name: format!("Frantic {}", arch.name),
                effects: vec![Effect::PickFrantic { id: arch.id.clone() }],
            }
        })
        .collect();
    let mut run = Run::new(u, ActionKey::Basic(0), 0, Vec::new());
    run.quiet = true;
    run.choice = Some((choices, 1, Vec::new(), Vec::new()));
    run.stage = Stage::Choose;
    Some(Frame::Run(Box::new(run)))
}

fn quiet(u: u8, ops: Vec<Effect>) -> Frame {
    let mut run = Run::new(u, ActionKey::Basic(0), 0, ops);
    run.quiet = true;
    Frame::Run(Box::new(run))
}

fn pick_basic(u: u8, n: i32) -> Frame {
    let mut run = Run::new(u, ActionKey::Basic(0), 0, Vec::new());
    run.quiet = true;
    let choices = [Token::Iron, Token::Power, Token::Speed]
        .into_iter()
        .map(|t| Choice { name: format!("{n} {t}"), effects: vec![Effect::Gain { token: t, n: Num::N(n) }] })
        .collect();
    run.choice = Some((choices, 1, Vec::new(), Vec::new()));
    run.stage = Stage::Choose;
    Frame::Run(Box::new(run))
}

/// After `u` rolled at the start of its turn: Punk's number, then the start abilities (pushed
/// above what follows, so they resolve first): Wardancer's raise, Angel's Challenge, Cyborg's
/// and Underdog's tokens, Winterblossom's Weakness, and a Focused Winterblossom's on any turn.
pub fn start(cx: &mut Ctx, u: u8) {
    build_start(cx, u);
    // Punk: the damage on the current bar as a number (twice that Focused; 1 on a whole bar).
    if let Some(v) = has(cx.s, u, "punk") {
        let x = cx.s.u(u);
        let lost = x.bar_max - x.hp;
        let n = if lost == 0 {
            1
        } else if v == Variant::Focused {
            2 * lost
        } else {
            lost
        };
        let who = cx.s.who(u);
        cx.emit(Event::Rolled { who, numbers: vec![n] });
    }
    for w in 0..cx.s.units.len() as u8 {
        if w != u && has(cx.s, w, "winterblossom") == Some(Variant::Focused) {
            cx.push(quiet(w, vec![weakness(1)]));
        }
    }
    // Frantic Winterblossom: 2 Weakness as this turn starts (and ends).
    match has(cx.s, u, "winterblossom") {
        Some(Variant::FranticNow) => cx.push(quiet(u, vec![weakness(2)])),
        Some(_) => cx.push(quiet(u, vec![weakness(1)])),
        None => {}
    }
    // Cavalry: Focused and Frantic, Shields as the turn starts too.
    if matches!(has(cx.s, u, "cavalry"), Some(Variant::Focused | Variant::FranticNow)) {
        cavalry_shields(cx, u);
    }
    if has(cx.s, u, "underdog").is_some() {
        cx.push(pick_basic(u, 1));
    }
    // Focused Gunkata (L2198): each enemy next to it is pushed 1, then it may move 1.
    if has(cx.s, u, "gunkata") == Some(Variant::Focused) {
        cx.push(quiet(u, vec![Effect::Push { n: Num::N(1), target: Target::AdjacentEnemies }, Effect::Move { n: 1 }]));
    }
    if let Some(v) = has(cx.s, u, "cyborg") {
        cx.push(pick_basic(u, if v == Variant::Focused { 4 } else { 2 }));
    }
    if let Some(v) = has(cx.s, u, "angel") {
        let mut ops = vec![Effect::Challenge { target: Target::EnemySeen }];
        // Frantic Angel: this turn's Challenge hurts for 2 and heals the Heal Value.
        if v == Variant::FranticNow {
            ops.push(Effect::Damage {
                amount: Num::N(2),
                target: Target::Same,
                push: 0,
                pierce: false,
                any_power: false,
                optional: false,
                reverse: false,
            });
            ops.push(Effect::Heal { n: None, target: Target::Me });
        }
        if v == Variant::Focused {
            ops.push(Effect::Damage {
                amount: Num::N(1),
                target: Target::Same,
                push: 0,
                pierce: false,
                any_power: false,
                optional: false,
                reverse: false,
            });
            ops.push(Effect::Heal { n: Some(1), target: Target::Me });
        }
        cx.push(quiet(u, ops));
    }
    if let Some(v) = has(cx.s, u, "wardancer")
        && !cx.s.u(u).pool.is_empty()
    {
        cx.push(Frame::Boost { u, left: if v == Variant::Focused { 1 } else { 2 }, focused: v == Variant::Focused });
    }
}

fn weakness(n: i32) -> Effect {
    Effect::Give { token: Token::Weakness, n: Num::N(n), target: Target::Enemy, optional: false }
}

/// At the end of `u`'s turn: Demon's Chaos, Teacher's Inspired, Gunkata's volley,
/// Winterblossom's Weakness (Fused), Cavalry's Shields.
pub fn end(cx: &mut Ctx, u: u8) {
    let two = |v: Variant| if v == Variant::Focused { 2 } else { 1 };
    if let Some(v) = has(cx.s, u, "demon") {
        gain(cx, u, Token::Chaos, two(v), "Demon");
    }
    if let Some(v) = has(cx.s, u, "teacher") {
        gain(cx, u, Token::Inspired, two(v), "Teacher");
    }
    if has(cx.s, u, "cavalry").is_some() {
        cavalry_shields(cx, u);
    }
    match has(cx.s, u, "winterblossom") {
        Some(Variant::Fused) => cx.push(quiet(u, vec![weakness(1)])),
        Some(Variant::FranticNow) => cx.push(quiet(u, vec![weakness(2)])),
        _ => {}
    }
    if let Some(v) = has(cx.s, u, "gunkata") {
        let volley = Effect::Damage {
            amount: Num::N(1),
            target: Target::Enemies,
            push: 0,
            pierce: false,
            any_power: false,
            optional: false,
            reverse: false,
        };
        // Frantic Gunkata: a move of 1 before and after the volley, each one it may pass up.
        let ops = if v == Variant::FranticNow {
            vec![Effect::Move { n: 1 }, volley, Effect::Move { n: 1 }]
        } else {
            vec![volley]
        };
        cx.push(quiet(u, ops));
    }
}

/// Cavalry: you and each ally next to you gain a 2-point Shield (a bigger one is kept, D-G-CAV).
fn cavalry_shields(cx: &mut Ctx, u: u8) {
    for v in 0..cx.s.units.len() as u8 {
        let near = match (cx.s.u(u).at, cx.s.u(v).at) {
            (Some(a), Some(b)) => dist(a, b) <= 1,
            _ => false,
        };
        if near && cx.s.u(v).side == cx.s.u(u).side && cx.s.u(v).active() && cx.s.u(v).shield < 2 {
            let who = cx.s.who(v);
            cx.emit(Event::Shielded { who, points: 2 });
        }
    }
}

/// `t`'s Shield has just broken: a Focused Cavalry on its side (itself included) gains 1 Speed.
pub fn shield_broke(cx: &mut Ctx, t: u8) {
    for v in 0..cx.s.units.len() as u8 {
        if cx.s.u(v).side == cx.s.u(t).side && has(cx.s, v, "cavalry") == Some(Variant::Focused) {
            gain(cx, v, Token::Speed, 1, "Cavalry");
        }
    }
}

/// `u`'s Build when its turn starts (D-BLD-1, D-BLD-3..6): tokens, or an optional Fog or Trap
/// next to it (pushed above what follows, like the Archetypes').
fn build_start(cx: &mut Ctx, u: u8) {
    if !cx.s.u(u).active() {
        return;
    }
    match cx.s.u(u).build.as_deref() {
        Some("agile") => gain(cx, u, Token::Speed, 2, "Agile"),
        Some("overpowering") => gain(cx, u, Token::Power, 1, "Overpowering"),
        Some("tough") => gain(cx, u, Token::Iron, 1, "Tough"),
        // D-BLD-3: a Copy of you or Fog next to you (the square may be passed up).
        Some("mysterious") => {
            let next_to = |obstacle| Effect::Place {
                obstacle,
                adjacent: true,
                under: false,
                touching: None,
                around: false,
                within: None,
            };
            let choices = [("Fog", crate::content::Obstacle::Fog), ("a Copy", crate::content::Obstacle::Copy)]
                .into_iter()
                .map(|(name, o)| Choice { name: format!("{name} next to you"), effects: vec![next_to(o)] })
                .collect();
            let mut run = Run::new(u, ActionKey::Basic(0), 0, Vec::new());
            run.quiet = true;
            run.choice = Some((choices, 1, Vec::new(), Vec::new()));
            run.stage = Stage::Choose;
            cx.push(Frame::Run(Box::new(run)));
        }
        Some("scheming") => cx.push(quiet(
            u,
            vec![Effect::Place {
                obstacle: crate::content::Obstacle::Trap,
                adjacent: true,
                under: false,
                touching: None,
                around: false,
                within: None,
            }],
        )),
        _ => {}
    }
}

/// When any turn ends: each Bumbling unit hurt during it may move 1 (D-BLD-2). D-G-25: the
/// Builds chapter's reading for everyone, Pompadour Rex too (not his sheet's start-and-end move).
pub fn bumbling(cx: &mut Ctx) {
    for v in 0..cx.s.units.len() as u8 {
        let hurt_now = cx.s.marks.damaged.iter().any(|&(_, t)| t == v);
        if hurt_now && cx.s.u(v).active() && cx.s.u(v).build.as_deref() == Some("bumbling") {
            cx.push(quiet(v, vec![Effect::Move { n: 1 }]));
        }
    }
}

/// `by` has just Challenged `t`: an Angel hurts it for 1 and heals 1.
pub fn on_challenge(cx: &mut Ctx, t: u8, by: u8) {
    // The Frantic Angel's Challenge hurts only at its turn's start (`start`).
    if has(cx.s, by, "angel").is_some_and(|v| v != Variant::FranticNow) {
        hurt(cx, Some(by), t, 1, true, false);
        heal(cx, by, 1);
    }
}

/// `by`'s hit dealt `dealt` to the enemy `t` in an action: Flametongue's Burning (Fused: the
/// first enemy damaged in its own turn gains 2; Focused: every enemy damaged gains 1).
pub fn on_damage(cx: &mut Ctx, by: u8, t: u8, dealt: i32) {
    if dealt <= 0 || !cx.s.u(t).active() {
        return;
    }
    match has(cx.s, by, "flametongue") {
        Some(Variant::Focused) => gain(cx, t, Token::Burning, 1, "Flametongue"),
        // Frantic: this turn, an enemy holding 3 Burning or fewer gains 1 more.
        Some(Variant::FranticNow) if cx.s.turn == Some(by) && cx.s.u(t).has(Token::Burning) <= 3 => {
            gain(cx, t, Token::Burning, 1, "Flametongue");
        }
        Some(Variant::FranticNow) => {}
        Some(_) if cx.s.turn == Some(by) && !cx.s.marks.flame.contains(&by) => {
            let who = cx.s.who(by);
            cx.emit(Event::Flared { who });
            gain(cx, t, Token::Burning, 2, "Flametongue");
        }
        _ => {}
    }
}

/// `t` took `dealt` damage (its Shield's share too): a Focused Underdog gains a Basic token of
/// its choice, a Fused one a Basic token of a kind it holds none of (L2870).
pub fn underdog_hurt(cx: &mut Ctx, t: u8, dealt: i32) {
    if dealt <= 0 || !cx.s.u(t).active() {
        return;
    }
    match has(cx.s, t, "underdog") {
        Some(Variant::Focused) => cx.push(pick_basic(t, 1)),
        Some(Variant::Fused) => {
            let kinds: Vec<Token> =
                [Token::Iron, Token::Power, Token::Speed].into_iter().filter(|&k| cx.s.u(t).has(k) == 0).collect();
            match kinds.as_slice() {
                [] => {}
                [k] => gain(cx, t, *k, 1, "Underdog"),
                _ => {
                    let mut run = Run::new(t, ActionKey::Basic(0), 0, Vec::new());
                    run.quiet = true;
                    let choices = kinds
                        .into_iter()
                        .map(|k| Choice {
                            name: format!("1 {k}"),
                            effects: vec![Effect::Gain { token: k, n: Num::N(1) }],
                        })
                        .collect();
                    run.choice = Some((choices, 1, Vec::new(), Vec::new()));
                    run.stage = Stage::Choose;
                    cx.push(Frame::Run(Box::new(run)));
                }
            }
        }
        _ => {}
    }
}
