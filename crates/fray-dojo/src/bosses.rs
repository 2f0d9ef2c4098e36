//! The Boss Archetypes (rules/dojo.md §2.4; D-EN-2, D-EN-11) and the content that exists for one
//! Boss only (§2.5), from `content/dojo/enemies.toml`. A Boss Archetype joins the content's
//! Archetypes (marked by its list of Styles), so a Warrior or Boss holds it as it holds a Fused
//! one and [`crate::state::has_archetype`] finds it. A leaf: it reads the state and content, and acts
//! by events and frames; the rules call its hooks.

pub use crate::content::boss_file::{BossArchetype, boss_form, boss_style, fits, is_boss, join};
use crate::content::{Effect, Num, Obstacle, Target, Token};
use crate::frames::{BossStep, Frame, Run};
use crate::state::{ActionKey, Ctx, Event, State};
use fray_core::decision::{Decision, DecisionOption};
use fray_core::engine::Flow;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

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

/// Whether `u` may move over Walls (the Giant while it holds a Speed token to discard, the
/// Vehicle while it has a number in its pool).
pub fn through_walls(s: &State, u: u8) -> bool {
    holds(s, u, "giant") && s.u(u).has(Token::Speed) > 0 || holds(s, u, "vehicle") && !s.u(u).pool.is_empty()
}

/// Whether `q` is a Wall that a unit going over Walls may enter: no unit or Copy stands there.
pub fn wall_open(s: &State, q: Pos) -> bool {
    s.obstacle(q) == Some(Obstacle::Wall)
        && s.unit_at(q).is_none()
        && crate::copies::owner(s, q).is_none()
        && !s.standing_in.iter().any(|c| c.1 == q)
}

/// `u` enters `p`: a Wall there becomes Rubble, for a Speed token (the Giant) or the pool's lowest
/// number (the Vehicle; Fray picks the lowest, D-G-VEHICLE).
pub fn crash(cx: &mut Ctx, u: u8, p: Pos) {
    if cx.s.obstacle(p) != Some(Obstacle::Wall) || !through_walls(cx.s, u) {
        return;
    }
    cx.emit(Event::Obstacle { at: p, now: Some(Obstacle::Rubble) });
    let who = cx.s.who(u);
    if holds(cx.s, u, "giant") && cx.s.u(u).has(Token::Speed) > 0 {
        cx.emit(Event::Tokens { who, token: Token::Speed, delta: -1, why: "the Giant goes over a Wall" });
    } else if let Some(&number) = cx.s.u(u).pool.values().iter().min() {
        cx.emit(Event::Spent { who, number });
    }
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

/// As `u`'s turn starts (with the Archetypes' start abilities): the Untouchable's Control token,
/// the Necromancer's new Copy.
pub fn start(cx: &mut Ctx, u: u8) {
    if holds(cx.s, u, "necromancer") && cx.s.u(u).active() {
        cx.push(Frame::Boss { u, step: BossStep::Raise });
    }
    if holds(cx.s, u, "untouchable") {
        let who = cx.s.who(u);
        cx.emit(Event::Tokens { who, token: Token::Control, delta: 1, why: "Untouchable" });
    }
}

/// As `u`'s turn ends: the Stunning Style's Stun token for an enemy in range; the Necromancer's
/// Copies step and hit; the Swarm's picks, one for each Copy.
pub fn end(cx: &mut Ctx, u: u8) {
    if cx.s.u(u).active() {
        let copies = crate::copies::of(cx.s, u);
        if holds(cx.s, u, "swarm") && !copies.is_empty() {
            cx.push(Frame::Boss { u, step: BossStep::Swarm { left: copies.len().min(255) as u8 } });
        }
        if holds(cx.s, u, "necromancer") {
            cx.push(Frame::Boss { u, step: BossStep::CopySteps { left: copies, hit: true } });
        }
    }
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

/// The Twins: `by`'s Action dealt `dealt` to the enemy `t`, which stands in the other twin's
/// range (`reach`): the other twin hits it for 1 more (L8805).
pub fn twin_strike(cx: &mut Ctx, by: u8, t: u8, dealt: i32, reach: bool) {
    if dealt <= 0 || !reach || !holds(cx.s, by, "twins") || !cx.s.u(t).active() {
        return;
    }
    let hit = Effect::Damage {
        amount: Num::N(1),
        target: Target::Same,
        push: 0,
        pierce: false,
        any_power: false,
        optional: false,
        reverse: false,
    };
    let mut run = Run::new(by, ActionKey::Basic(0), 0, vec![hit]);
    run.quiet = true;
    run.current = Some(t);
    cx.push(Frame::Run(Box::new(run)));
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

// ---------------------------------------------------------------- the Necromancer and the Swarm

/// The empty squares the Necromancer may raise a Copy on: any it sees, at any distance (an Edge
/// inside the map is left out: the Copy would be gone at once).
fn raise_squares(s: &State, u: u8) -> Vec<Pos> {
    let Some(at) = s.u(u).at else { return Vec::new() };
    s.map
        .squares()
        .filter(|&q| s.empty(q) && s.obstacle(q) != Some(Obstacle::Edge) && crate::effects::sees(s, at, q))
        .collect()
}

/// The squares the Copy on `p` may step to: the empty ones next to it.
fn copy_steps(s: &State, p: Pos) -> Vec<Pos> {
    p.neighbours().into_iter().filter(|&q| s.empty(q)).collect()
}

/// The Swarm's picks that would do something now.
fn swarm_options(s: &State, u: u8) -> Vec<DecisionOption> {
    let mut out =
        vec![DecisionOption::new("power", "gain a Power token"), DecisionOption::new("iron", "gain an Iron token")];
    if s.u(u).at.is_some_and(|p| !copy_steps(s, p).is_empty()) {
        out.push(DecisionOption::new("step", "move 1 space"));
    }
    let copies = crate::copies::of(s, u);
    if copies.iter().any(|&p| !copy_steps(s, p).is_empty()) {
        out.push(DecisionOption::new("copies-step", "each Copy may move 1 space"));
    }
    for p in copies {
        out.push(DecisionOption::new(
            format!("burst:{}", p.key()),
            format!("break the Copy on {} to hit each enemy next to it for 1", p.key()),
        ));
    }
    out
}

/// The question a Boss Archetype's frame puts, if any.
pub fn question(s: &State, u: u8, step: &BossStep) -> Option<Decision> {
    let name = &s.u(u).name;
    let (kind, prompt, options) = match step {
        BossStep::Raise => (
            "square",
            format!("{name} (the Necromancer): put a Copy on an empty square you see"),
            raise_squares(s, u).into_iter().map(|q| DecisionOption::square(q, q.key())).collect::<Vec<_>>(),
        ),
        BossStep::CopySteps { left, .. } => {
            let p = *left.first()?;
            if crate::copies::owner(s, p) != Some(u) {
                return None;
            }
            let steps = copy_steps(s, p);
            if steps.is_empty() {
                return None;
            }
            let mut options: Vec<DecisionOption> = steps
                .into_iter()
                .map(|q| DecisionOption::new(format!("copy:{}>{}", p.key(), q.key()), format!("to {}", q.key())))
                .collect();
            options.push(DecisionOption::new("stay", "the Copy stays"));
            ("copy-step", format!("{name}: the Copy on {} may move 1 space", p.key()), options)
        }
        BossStep::Swarm { left } => (
            "swarm",
            format!("{name} (the Swarm): pick what a Copy gives ({left} left)"),
            if s.u(u).active() { swarm_options(s, u) } else { Vec::new() },
        ),
    };
    (!options.is_empty()).then(|| Decision {
        seat: crate::state::SIDES[s.u(u).side as usize].into(),
        unit: Some(s.u(u).id.to_string()),
        kind: kind.into(),
        prompt,
        options,
    })
}

/// Each of `u`'s Copies hits one enemy next to it for 1 (the Necromancer), the oldest first. The
/// hits are the Original's: Armor and Weakness count, no Power is asked.
fn copies_hit(cx: &mut Ctx, u: u8) {
    for p in crate::copies::of(cx.s, u).into_iter().rev() {
        let hit = Effect::Damage {
            amount: Num::N(1),
            target: Target::EnemyBySpot,
            push: 0,
            pierce: false,
            any_power: false,
            optional: false,
            reverse: false,
        };
        let mut run = Run::new(u, ActionKey::Basic(0), 0, vec![hit]);
        run.quiet = true;
        run.spot = Some(p);
        cx.push(Frame::Run(Box::new(run)));
    }
}

/// A Boss Archetype's frame comes up: it waits for its question, or does what follows when
/// nothing is asked.
pub fn advance(cx: &mut Ctx, u: u8, step: BossStep) -> Result<Flow, RuleError> {
    if question(cx.s, u, &step).is_some() {
        return Ok(cx.wait(Frame::Boss { u, step }));
    }
    if let BossStep::CopySteps { mut left, hit } = step {
        if left.is_empty() {
            if hit && cx.s.u(u).active() {
                copies_hit(cx, u);
            }
        } else {
            left.remove(0);
            cx.push(Frame::Boss { u, step: BossStep::CopySteps { left, hit } });
        }
    }
    Ok(Flow::Continue)
}

/// `u` answers its Boss Archetype's question (the option was offered).
pub fn answer(cx: &mut Ctx, u: u8, step: BossStep, option: &str) -> Result<(), RuleError> {
    match step {
        BossStep::Raise => {
            let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("a square"))?;
            crate::copies::place(cx, u, q);
        }
        BossStep::CopySteps { mut left, hit } => {
            let from = left.remove(0);
            cx.push(Frame::Boss { u, step: BossStep::CopySteps { left, hit } });
            if let Some((_, to)) = option.split_once('>')
                && let Some(to) = Pos::parse(to)
            {
                crate::copies::step(cx, from, to);
            }
        }
        BossStep::Swarm { left } => {
            if left > 1 {
                cx.push(Frame::Boss { u, step: BossStep::Swarm { left: left - 1 } });
            }
            match option {
                "power" => crate::effects::gain(cx, u, Token::Power, 1, "the Swarm"),
                "iron" => crate::effects::gain(cx, u, Token::Iron, 1, "the Swarm"),
                "step" => cx.push(quiet(u, vec![Effect::Move { n: 1 }])),
                "copies-step" => {
                    let left = crate::copies::of(cx.s, u);
                    cx.push(Frame::Boss { u, step: BossStep::CopySteps { left, hit: false } });
                }
                _ => {
                    let p = option
                        .strip_prefix("burst:")
                        .and_then(Pos::parse)
                        .ok_or_else(|| RuleError::malformed("a Copy's square"))?;
                    // The burst's hits come after the Copy is gone (and after Crystal's, if any).
                    let mut run = Run::new(
                        u,
                        ActionKey::Basic(0),
                        0,
                        vec![Effect::Damage {
                            amount: Num::N(1),
                            target: Target::EnemiesBySpot,
                            push: 0,
                            pierce: false,
                            any_power: false,
                            optional: false,
                            reverse: false,
                        }],
                    );
                    run.quiet = true;
                    run.spot = Some(p);
                    cx.push(Frame::Run(Box::new(run)));
                    crate::copies::destroy(cx, p);
                }
            }
        }
    }
    Ok(())
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
