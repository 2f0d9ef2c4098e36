//! The Boss Archetypes (rules/dojo.md §2.4; D-EN-2, D-EN-11) and the content that exists for one
//! Boss only (§2.5), from `content/dojo/enemies.toml`. A Boss Archetype joins the content's
//! Archetypes (marked by its list of Styles), so a Warrior or Boss holds it as it holds a Fused
//! one and [`crate::state::has_archetype`] finds it. A leaf: it reads the state and content, and acts
//! by events and frames; the rules call its hooks.

pub use crate::content::boss_file::{BossArchetype, boss_form, boss_style, fits, is_boss, join};
use crate::content::{Effect, Num, Target, Token};
use crate::frames::{Frame, Run};
use crate::state::{ActionKey, Ctx, Event, State};

fn holds(s: &State, u: u8, id: &str) -> bool {
    crate::state::has_archetype(s, u, id).is_some()
}

fn quiet(u: u8, ops: Vec<Effect>) -> Frame {
    let mut run = Run::new(u, ActionKey::Basic(0), 0, ops);
    run.quiet = true;
    Frame::Run(Box::new(run))
}

/// The Giant: every Stance reaches 1 farther.
pub fn range_plus(s: &State, u: u8) -> i32 {
    i32::from(holds(s, u, "giant"))
}

/// The Tank has Armor.
pub fn armored(s: &State, u: u8) -> bool {
    holds(s, u, "tank")
}

/// The Tank moves 1 space less when pushed or pulled.
pub fn forced_less(s: &State, t: u8) -> i32 {
    i32::from(holds(s, t, "tank"))
}

/// Whether `c` may Counter an Action with a Control token (the Untouchable).
pub fn counters(s: &State, c: u8) -> bool {
    holds(s, c, "untouchable")
}

/// `c` Counters the Action `user` has just paid for (the Action's run is on top of the flow):
/// a Control token, once a turn as any (D-TOK-7), and each of the Action's hits lands on its user
/// too.
pub fn counter(cx: &mut Ctx, user: u8, c: u8) {
    let (who, by) = (cx.s.who(user), cx.s.who(c));
    cx.emit(Event::Tokens { who: by.clone(), token: Token::Control, delta: -1, why: "Counter" });
    cx.emit(Event::Countered { who, by });
    if matches!(cx.top(), Some(Frame::Run(_)))
        && let Some(Frame::Run(mut run)) = cx.pop()
    {
        run.countered = true;
        cx.push(Frame::Run(run));
    }
}

/// As `u`'s turn starts (with the Archetypes' start abilities): the Untouchable's Control token.
pub fn start(cx: &mut Ctx, u: u8) {
    if holds(cx.s, u, "untouchable") {
        let who = cx.s.who(u);
        cx.emit(Event::Tokens { who, token: Token::Control, delta: 1, why: "Untouchable" });
    }
}

/// As `u`'s turn ends: the Stunning Style's Stun token for an enemy in range.
pub fn end(cx: &mut Ctx, u: u8) {
    if cx.s.u(u).active() && cx.s.style(u).is_some_and(|st| st.id == "stunning") {
        cx.push(quiet(
            u,
            vec![Effect::Give { token: Token::Stun, n: Num::N(1), target: Target::Enemy, optional: false }],
        ));
    }
}

/// `u` has just paid for an Action (the frame that follows is pushed first, so it runs once the
/// Action is over): the Blur may move 1 space.
pub fn after_action(cx: &mut Ctx, u: u8) {
    if holds(cx.s, u, "blur") {
        cx.push(quiet(u, vec![Effect::Move { n: 1 }]));
    }
}

/// `by`'s Action dealt `dealt` to the enemy `t`: the Immortal's first such hit in a turn heals
/// it by the Heal Value.
pub fn on_damage(cx: &mut Ctx, by: u8, dealt: i32) {
    if dealt <= 0 || !holds(cx.s, by, "immortal") || cx.s.marks.drained.contains(&by) {
        return;
    }
    let who = cx.s.who(by);
    cx.emit(Event::Drained { who: who.clone() });
    let x = cx.s.u(by);
    let hp = (x.hp + cx.s.options.heal()).min(x.bar_max);
    if hp != x.hp {
        cx.emit(Event::Healed { who, hp });
    }
}

/// Whether `u` stands in Big Jay's Dragon's Ego (its Form, `ego`, with its abilities on, §2.5).
pub fn dragon(s: &State, u: u8) -> bool {
    !s.lasting(u, "dazed") && s.form(u).is_some_and(|f| f.id == "ego")
}

/// The tokens `u` may spend as Power in Dragon's Ego: every counted token it holds.
pub fn as_power(s: &State, u: u8) -> i32 {
    s.u(u).tokens.iter().sum()
}

/// Dragon's Ego: `u` pours `n` tokens into its hit on `t` as Power (its Power first, then the
/// other kinds in the tokens' order; D-G-DRAGON), and the target gains a Burning token.
pub fn spend_as_power(cx: &mut Ctx, u: u8, t: u8, n: i32) {
    let mut left = n;
    let order = [Token::Power].into_iter().chain(crate::content::TOKENS.into_iter().filter(|&k| k != Token::Power));
    for k in order {
        let take = left.min(cx.s.u(u).has(k));
        if take > 0 {
            let who = cx.s.who(u);
            cx.emit(Event::Tokens { who, token: k, delta: -take, why: "Power into a hit" });
            left -= take;
        }
    }
    if n > 0 && cx.s.u(t).active() {
        let who = cx.s.who(t);
        cx.emit(Event::Tokens { who, token: Token::Burning, delta: 1, why: "Dragon's Ego" });
    }
}

/// The look-up's entries for the Boss Archetypes.
pub fn entries(content: &crate::content::Content) -> Vec<fray_core::lookup::Entry> {
    content
        .enemies
        .boss_archetype
        .iter()
        .map(|b| {
            let mut text = format!(
                "Boss Archetype ({}), for Bosses and Warriors only. {} Style needed: {}.",
                b.lines,
                b.ability,
                if b.styles.is_empty() { "none (its own Stances)".into() } else { b.styles.join(", ") }
            );
            if let Some(u) = &b.unplayed {
                text.push_str(&format!(" Not played yet: {u}."));
            }
            fray_core::lookup::Entry {
                id: format!("archetype:{}", b.id),
                name: b.name.clone(),
                kind: "boss archetype".into(),
                aliases: vec![b.id.clone()],
                text,
            }
        })
        .collect()
}
