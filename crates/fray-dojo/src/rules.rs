//! The combat rules: the round and the meter, the turn (Stance, roll, menu, end), actions and
//! their effects, hits, Shields, Armor, healing, tokens, forced movement and Free Movement.

use crate::content::{ActionDef, Cost, Die, Effect, Form, Gate, Num, Obstacle, TOKENS, Target, Token, Trait};
pub use crate::effects::{dist, gain, heal};
use crate::frames::{Frame, Run, Stage};
use crate::state::{ActionKey, Ctx, Event, Kind, SIDES, State, Variant};
use fray_core::decision::{Decision, DecisionOption};
use fray_core::engine::{Flow, Machine, Resolve};
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

// ---------------------------------------------------------------- geometry and targeting

pub use crate::effects::sees;

/// Whether `p` is in Fog or next to it (D-OBS-3).
pub fn fogged(s: &State, p: Pos) -> bool {
    s.obstacle(p) == Some(Obstacle::Fog) || p.neighbours().iter().any(|&q| s.obstacle(q) == Some(Obstacle::Fog))
}

/// The range of `u`'s Stance (D-RNG-1, D-RNG-2): the Style's (the table's formless range for a
/// Stance with no Style), widened by the Form. A Style with no range reaches nobody (1 to 0).
pub fn range(s: &State, u: u8) -> (i32, i32) {
    let (mut lo, mut hi) = match s.style(u) {
        Some(st) => match st.span() {
            Some(r) => r,
            None => return (1, 0),
        },
        None => s.options.formless_range,
    };
    if s.has_trait(u, Trait::RangePlus1) {
        hi += 1;
    }
    // Control: the longest range +3, or (its `near` pick) the shortest range 1.
    if s.has_trait(u, Trait::RangePlus3) {
        if s.u(u).stance.is_some_and(|st| s.u(u).stances[st].near) {
            lo = lo.min(1);
        } else {
            hi += 3;
        }
    }
    hi += crate::bosses::range_plus(s, u);
    // Mysterious: the longest range doubles while standing in Fog.
    if crate::style_abilities::doubled(s, u) {
        hi *= 2;
    }
    // Amplify: the amplified Action under way reaches 2 further.
    if s.marks.amplified.contains(&(u, 2)) {
        hi += 2;
    }
    (lo, hi)
}

fn foes(s: &State, a: u8, b: u8) -> bool {
    s.u(a).side != s.u(b).side
}

/// Whether `user` may aim at `t` from `d` spaces: sight, and Fog keeps enemies to range 1.
/// A Stooge group standing as figures may be aimed at through any of its Stooges.
fn aim_ok(s: &State, user: u8, t: u8) -> bool {
    if user != t && crate::enemies::figures(s, t) {
        return crate::enemies::spots(s, t).into_iter().any(|b| aim_at(s, user, t, b));
    }
    // D-G-22: a big unit is aimed at through any square it covers; one inside a Vehicle is
    // always within its reach (D-RNG-5).
    if user != t && crate::big::big(s, t) {
        return crate::big::squares(s, t).into_iter().any(|b| aim_at(s, user, t, b));
    }
    if crate::big::inside(s, user, t) {
        return true;
    }
    s.u(t).at.is_some_and(|b| aim_at(s, user, t, b))
}

/// Whether `user` may aim at `t` standing on `b`.
fn aim_at(s: &State, user: u8, t: u8, b: Pos) -> bool {
    // D-G-22: a big user looks from any square it covers.
    if crate::big::big(s, user) {
        return crate::big::squares(s, user).into_iter().any(|a| aim_from(s, user, t, a, b));
    }
    let Some(a) = s.u(user).at else { return false };
    aim_from(s, user, t, a, b)
}

/// Whether `user`, looking from `a`, may aim at `t` standing on `b`.
fn aim_from(s: &State, user: u8, t: u8, a: Pos, b: Pos) -> bool {
    // Dark and Artillery aim through Fog; Artillery, Hidden and Reflected through Walls; anyone at a
    // Spotlit unit.
    let fog_blind = !crate::style_abilities::through_fog(s, user) && !crate::stakes::spotlit(s, t);
    (sees(s, a, b) || crate::style_abilities::through_walls(s, user))
        && !(fog_blind && foes(s, user, t) && fogged(s, b) && dist(a, b) > 1)
}

fn within(s: &State, user: u8, t: u8, lo: i32, hi: i32) -> bool {
    // D-G-22: range from a big unit, or to one, counts from the nearest square it covers;
    // D-RNG-5: a unit inside a Vehicle is always in the Vehicle's range.
    if user != t && (crate::big::big(s, user) || crate::big::big(s, t)) {
        if crate::big::inside(s, user, t) {
            return true;
        }
        return crate::big::between(s, user, t).is_some_and(|d| (lo..=hi).contains(&d));
    }
    if user != t && crate::enemies::figures(s, t) {
        let Some(a) = s.u(user).at else { return false };
        return crate::enemies::spots(s, t).into_iter().any(|b| (lo..=hi).contains(&dist(a, b)));
    }
    match (s.u(user).at, s.u(t).at) {
        (Some(a), Some(b)) => (lo..=hi).contains(&dist(a, b)) || (user == t && lo <= 1),
        _ => false,
    }
}

/// Whether the target kind aims at enemies (D-TOK-4 asks the challenger to be among them).
fn hostile(t: Target) -> bool {
    matches!(
        t,
        Target::Enemy
            | Target::NewEnemy
            | Target::Enemies
            | Target::EnemySeen
            | Target::EnemiesSeen
            | Target::SomeEnemiesSeen
            | Target::EnemyWithin4
            | Target::Anyone
            | Target::Adjacent
            | Target::AdjacentEnemy
            | Target::Everyone
            | Target::EveryoneAdjacent
            | Target::EnemiesInFog
            | Target::EnemySeenMoved
            | Target::EnemyBeyond
            | Target::Challenged
            | Target::EnemiesByWall
            | Target::AnyoneSeen
            | Target::EnemiesBySpot
            | Target::EnemyNearSpot
            | Target::AdjacentEnemies
            | Target::AroundSame
            | Target::SameReach
            | Target::EnemyFromSpot
            | Target::EnemyWhoHurtYou
            | Target::EnemyBySpot
    )
}

/// Whether the target kind takes every unit it lists, not one.
fn every(t: Target) -> bool {
    matches!(
        t,
        Target::Enemies
            | Target::EnemiesSeen
            | Target::Allies
            | Target::Everyone
            | Target::EveryoneAdjacent
            | Target::EnemiesInFog
            | Target::EnemiesByWall
            | Target::EnemiesBySpot
            | Target::AdjacentEnemies
            | Target::AroundSame
            | Target::SameReach
    )
}

/// The value of `n` for the effect on `t`: Held counts `t`'s tokens (a Challenge too), Picked
/// the units the action has picked.
fn num(s: &State, run: &Run, n: Num, t: u8) -> i32 {
    match n {
        Num::Held => s.u(t).tokens.iter().sum::<i32>() + i32::from(s.u(t).challenge.is_some()),
        Num::Picked => run.picked.len() as i32,
        n => n.of(run.x),
    }
}

/// Whether nobody stands next to `v` (Suddenly...).
fn alone(s: &State, v: u8) -> bool {
    let Some(p) = s.u(v).at else { return false };
    // D-G-22: next to a big unit is next to any square it covers.
    if !s.shapes.is_empty() {
        return !(0..s.units.len() as u8)
            .any(|w| w != v && s.u(w).active() && crate::big::between(s, v, w).is_some_and(|d| d <= 1));
    }
    !(0..s.units.len() as u8).any(|w| w != v && s.u(w).active() && s.u(w).at.is_some_and(|q| dist(p, q) == 1))
}

/// The units `user` may pick for `t` (before the Challenge rule).
pub fn candidates(s: &State, user: u8, t: Target, picked: &[u8]) -> Vec<u8> {
    candidates_judged(s, user, None, t, picked)
}

/// [`candidates`], with the enemies and allies those of `by` when it took the action over with
/// Control (D-CLAR-6): the user itself is then one more enemy to pick.
fn candidates_judged(s: &State, user: u8, by: Option<u8>, t: Target, picked: &[u8]) -> Vec<u8> {
    let (lo, hi) = range(s, user);
    let n = s.units.len() as u8;
    let all = (0..n).filter(|&v| s.u(v).active());
    // D-CMP-4: a Favor token may have turned the user away from a side this turn.
    let enemy = |v: u8| match by {
        Some(c) => foes(s, c, v) || v == user,
        None => foes(s, user, v) && !crate::complications::turned_away(s, user, v),
    };
    let ally = |v: u8| match by {
        Some(c) => !foes(s, c, v) && v != user,
        None => !foes(s, user, v),
    };
    // D-CMP-4: in a three-way battle a pick of one ally may be anyone.
    let friend = |v: u8| match by {
        Some(c) => crate::complications::befriends(s, c, v) && v != user,
        None => crate::complications::befriends(s, user, v),
    };
    let mut out: Vec<u8> = match t {
        Target::Me => vec![user],
        Target::Same => Vec::new(),
        Target::Enemy | Target::Enemies => {
            all.filter(|&v| enemy(v) && within(s, user, v, lo, hi) && aim_ok(s, user, v)).collect()
        }
        // D-ACT-11: a many-target action never picks one target twice.
        Target::NewEnemy => all
            .filter(|&v| enemy(v) && !picked.contains(&v) && within(s, user, v, lo, hi) && aim_ok(s, user, v))
            .collect(),
        Target::EnemySeen | Target::EnemiesSeen | Target::SomeEnemiesSeen => {
            all.filter(|&v| enemy(v) && aim_ok(s, user, v)).collect()
        }
        Target::EnemyWithin4 => all.filter(|&v| enemy(v) && within(s, user, v, 1, 4) && aim_ok(s, user, v)).collect(),
        Target::Ally => {
            all.filter(|&v| friend(v) && (v == user || within(s, user, v, lo, hi) && aim_ok(s, user, v))).collect()
        }
        Target::AllySeen => all.filter(|&v| friend(v) && aim_ok(s, user, v)).collect(),
        // D-OUT-2: only healing may aim at an ally that is out.
        // D-BA-9: down in range, or out of play anywhere.
        Target::FallenAlly => (0..n)
            .filter(|&v| {
                let x = s.u(v);
                friend(v) && v != user && x.out && (x.at.is_none() || within(s, user, v, lo, hi) && aim_ok(s, user, v))
            })
            .collect(),
        Target::Anyone => all.filter(|&v| v == user || within(s, user, v, lo, hi) && aim_ok(s, user, v)).collect(),
        Target::Adjacent | Target::EveryoneAdjacent => all.filter(|&v| v != user && within(s, user, v, 1, 1)).collect(),
        Target::AdjacentEnemy | Target::AdjacentEnemies => {
            all.filter(|&v| enemy(v) && within(s, user, v, 1, 1)).collect()
        }
        Target::Allies => {
            all.filter(|&v| ally(v) && (v == user || within(s, user, v, lo, hi) && aim_ok(s, user, v))).collect()
        }
        Target::Everyone => all.filter(|&v| v != user && within(s, user, v, lo, hi) && aim_ok(s, user, v)).collect(),
        Target::EnemiesInFog => all.filter(|&v| enemy(v) && s.u(v).at.is_some_and(|p| fogged(s, p))).collect(),
        Target::EnemySeenMoved => {
            all.filter(|&v| enemy(v) && aim_ok(s, user, v) && s.marks.moved.contains(&v)).collect()
        }
        Target::EnemyBeyond => all
            .filter(|&v| {
                enemy(v) && aim_ok(s, user, v) && s.u(user).at.zip(s.u(v).at).is_some_and(|(a, b)| dist(a, b) > hi)
            })
            .collect(),
        Target::Challenged => all.filter(|&v| enemy(v) && s.u(v).challenge == Some(user)).collect(),
        Target::EnemiesByWall => all
            .filter(|&v| {
                enemy(v)
                    && s.u(v).at.is_some_and(|p| p.neighbours().iter().any(|&q| s.obstacle(q) == Some(Obstacle::Wall)))
            })
            .collect(),
        Target::AnyoneSeen => all.filter(|&v| v == user || aim_ok(s, user, v)).collect(),
        // L8805: a twin may aim at the other twin, its ally.
        Target::OtherAllySeen => all
            .filter(|&v| {
                friend(v) && v != user && aim_ok(s, user, v)
                    || v == user && by.is_none() && crate::figures::twin_ally(s, user, 0, 0, false, true)
            })
            .collect(),
        // These count from the square the action marked (`spot_candidates`) or from the unit
        // picked before (`around_same`).
        Target::EnemiesBySpot
        | Target::EnemyNearSpot
        | Target::EnemyFromSpot
        | Target::EnemyBySpot
        | Target::AroundSame
        | Target::SameReach => Vec::new(),
        // D-CLAR-4: damage from an action or ability this turn (Traps and Burning have no dealer).
        Target::EnemyWhoHurtYou => all.filter(|&v| enemy(v) && s.marks.damaged.contains(&(v, user))).collect(),
        Target::OtherAlly => all
            .filter(|&v| {
                ally(v) && v != user && within(s, user, v, lo, hi) && aim_ok(s, user, v)
                    || v == user && by.is_none() && crate::figures::twin_ally(s, user, lo, hi, true, true)
            })
            .collect(),
    };
    out.sort_unstable();
    out
}

/// The challenger `user` must aim at, if it holds a live Challenge (D-TOK-4).
fn challenger(s: &State, user: u8) -> Option<u8> {
    s.u(user).challenge.filter(|&c| s.u(c).active())
}

/// [`candidates`] under the Challenge rule: one pick among enemies must be the challenger when
/// it can be (D-TOK-4).
fn pickable(s: &State, run: &Run, t: Target) -> Vec<u8> {
    let c = match t {
        Target::Same => run.current.filter(|&c| s.u(c).active()).into_iter().collect(),
        Target::EnemiesBySpot | Target::EnemyNearSpot | Target::EnemyFromSpot | Target::EnemyBySpot => {
            spot_candidates(s, run, t)
        }
        Target::AroundSame | Target::SameReach => around_same(s, run, t),
        _ => candidates_judged(s, run.user, run.by, t, &run.picked),
    };
    // D-PEN-6: partners may not Throw each other.
    let mut c = c;
    if !run.quiet && action(s, run.key).id == "throw" {
        c.retain(|&v| crate::stakes::may_throw(s, run.user, v));
    }
    // D-CLAR-6: the user's Challenge does not bind picks made by whoever took its action over.
    match challenger(s, run.user).filter(|_| run.by.is_none()) {
        // Abilities (a turn end's effects) are no Actions: the Challenge does not bind them; an
        // effect on every enemy of a kind takes the challenger with the others.
        Some(ch) if !run.quiet && hostile(t) && !every(t) && c.contains(&ch) && !run.picked.contains(&ch) => vec![ch],
        _ => c,
    }
}

/// Take Aim: every number an effect names, 1 higher (X stays what was spent; the Heal Value
/// is no number of the action's).
fn sharpen(e: &mut Effect) {
    let up = |n: &mut Num| {
        if let Num::N(v) = n {
            *v += 1;
        }
    };
    match e {
        Effect::Damage { amount, push, .. } => {
            up(amount);
            if *push > 0 {
                *push += 1;
            }
        }
        Effect::Push { n, .. } | Effect::Pull { n, .. } | Effect::Gain { n, .. } | Effect::Give { n, .. } => up(n),
        Effect::AddNumber { n } => up(n),
        Effect::PushLater { n, .. }
        | Effect::Shield { n, .. }
        | Effect::Move { n }
        | Effect::Shift { n, .. }
        | Effect::Strip { n, .. }
        | Effect::RemoveToken { n, .. }
        | Effect::GainBasic { n } => *n += 1,
        Effect::Heal { n: Some(v), .. } => *v += 1,
        Effect::Teleport { n, min, .. } => {
            if *n > 0 {
                *n += 1;
            }
            if *min > 0 {
                *min += 1;
            }
        }
        Effect::Relay { effects, .. } => effects.iter_mut().for_each(sharpen),
        _ => {}
    }
}

/// Enemies counted from the square the action marked: next to it (Roughhousing), or within 3
/// of it and seen from it (Trick Shot, D-G-TRICK).
fn spot_candidates(s: &State, run: &Run, t: Target) -> Vec<u8> {
    let Some(spot) = run.spot else { return Vec::new() };
    let (lo, hi) = range(s, run.user);
    (0..s.units.len() as u8)
        .filter(|&v| {
            let Some(p) = s.u(v).at else { return false };
            foes(s, run.user, v)
                && !crate::complications::turned_away(s, run.user, v)
                && s.u(v).active()
                && match t {
                    Target::EnemiesBySpot | Target::EnemyBySpot => dist(p, spot) == 1,
                    // Shatter: in the user's range of the Copy's square, as if aimed from there.
                    Target::EnemyFromSpot => {
                        (lo..=hi).contains(&dist(p, spot)) && sees(s, spot, p) && !(fogged(s, p) && dist(p, spot) > 1)
                    }
                    // Ricochet's ability (a quiet run): another enemy than the one hit.
                    _ => dist(p, spot) <= 3 && sees(s, spot, p) && !(run.quiet && run.current == Some(v)),
                }
        })
        .collect()
}

/// The unit `run` picked before and every enemy of the user next to it (`AroundSame`) or in its
/// range (`SameReach`), sight aside; that unit comes last, so the effect after still finds it.
fn around_same(s: &State, run: &Run, t: Target) -> Vec<u8> {
    let Some(c) = run.current.filter(|&c| s.u(c).active()) else { return Vec::new() };
    let (lo, hi) = if t == Target::SameReach { range(s, c) } else { (1, 1) };
    let mut out: Vec<u8> = (0..s.units.len() as u8)
        .filter(|&v| {
            v != c
                && s.u(v).active()
                && foes(s, run.user, v)
                && !crate::complications::turned_away(s, run.user, v)
                && within(s, c, v, lo, hi)
        })
        .collect();
    out.push(c);
    out
}

/// The Copies of `u`'s enemies that a hit aimed at `t` may take as an enemy (D-OBS-1): a pick
/// of one enemy (in range, in sight, or next to `u`), or every one an area hit reaches; with
/// `all`, the Copies of allies too (Firing Wild), never `u`'s own.
fn copy_squares(s: &State, u: u8, t: Target) -> Vec<Pos> {
    let Some(at) = s.u(u).at else { return Vec::new() };
    let (lo, hi) = range(s, u);
    let aim = |p: Pos| sees(s, at, p) && !(fogged(s, p) && dist(at, p) > 1);
    s.copies
        .iter()
        .filter(|&&(p, o)| {
            let d = dist(at, p);
            let enemy = foes(s, u, o);
            match t {
                Target::Enemy | Target::NewEnemy | Target::Enemies => enemy && (lo..=hi).contains(&d) && aim(p),
                Target::EnemySeen | Target::EnemiesSeen | Target::SomeEnemiesSeen => enemy && aim(p),
                Target::AdjacentEnemy => enemy && d == 1,
                Target::Everyone => o != u && (lo..=hi).contains(&d) && aim(p),
                Target::EveryoneAdjacent => o != u && d == 1,
                _ => false,
            }
        })
        .map(|c| c.0)
        .collect()
}

/// The Copies the current effect of `run` may pick as its one enemy: a hit's, while no
/// Challenge binds the pick (D-TOK-4).
fn copy_targets(s: &State, run: &Run) -> Vec<Pos> {
    match run.ops.get(run.i) {
        Some(Effect::Damage { target, reverse: false, .. }) if !every(*target) && challenger(s, run.user).is_none() => {
            copy_squares(s, run.user, *target)
        }
        _ => Vec::new(),
    }
}

/// An area hit breaks every Copy it reaches (D-OBS-1: any damage destroys one): those of the
/// user's enemies, or of anyone but the user for a hit on friend and foe, or next to the spot.
fn sweep_copies(cx: &mut Ctx, run: &Run, op: &Effect) {
    let Effect::Damage { amount, target, reverse: false, .. } = op else { return };
    if num(cx.s, run, *amount, run.user) <= 0 {
        return;
    }
    let squares = match target {
        Target::EnemiesBySpot => run.spot.map_or_else(Vec::new, |spot| {
            cx.s.copies.iter().filter(|&&(p, o)| foes(cx.s, run.user, o) && dist(p, spot) == 1).map(|c| c.0).collect()
        }),
        t => copy_squares(cx.s, run.user, *t),
    };
    for p in squares {
        crate::copies::destroy(cx, p);
    }
}

/// Whether an effect may pick nobody.
fn optional(e: &Effect) -> bool {
    matches!(
        e,
        Effect::Damage { optional: true, .. }
            | Effect::Give { optional: true, .. }
            | Effect::Relay { optional: true, .. }
    )
}

fn effect_target(e: &Effect) -> Option<Target> {
    match e {
        Effect::Approach { target }
        | Effect::DestroyAround { target }
        | Effect::Shift { target, .. }
        | Effect::DropChallenge { target }
        | Effect::Relay { target, .. }
        | Effect::Aim { target } => Some(*target),
        Effect::Shield { target, .. } | Effect::Teleport { target, .. } => *target,
        Effect::Damage { target, .. }
        | Effect::Push { target, .. }
        | Effect::Pull { target, .. }
        | Effect::PushLater { target, .. }
        | Effect::Give { target, .. }
        | Effect::Heal { target, .. }
        | Effect::Challenge { target }
        | Effect::Strip { target, .. }
        | Effect::RemoveToken { target, .. } => Some(*target),
        _ => None,
    }
}

/// Mastermind (L2688): on its own turn, each number of its pool may make an ally it can see take
/// an Action paid with it, from the ally's square with the ally's range and Stance
/// (`mind:ALLY/ID:N`). Token-priced actions are the ally's own to take.
fn mind_options(s: &State, u: u8, out: &mut Vec<DecisionOption>) {
    let x = s.u(u);
    if !crate::style_abilities::mastermind(s, u) || x.pool.is_empty() || s.turn != Some(u) {
        return;
    }
    let Some(at) = x.at else { return };
    for v in 0..s.units.len() as u8 {
        let Some(p) = s.u(v).at else { continue };
        if v == u || s.u(v).side != x.side || !s.u(v).active() || !sees(s, at, p) {
            continue;
        }
        // The ally's menu as if the Mastermind's numbers were its own.
        let mut w = s.clone();
        w.units[v as usize].pool = x.pool.clone();
        let mut theirs = Vec::new();
        action_options_here(&w, v, true, "", &mut theirs);
        for o in theirs {
            let numbered = o.id.split_once(':').is_some_and(|(_, n)| n.split('&').all(|k| k.parse::<i32>().is_ok()));
            if numbered && !o.id.starts_with("chaos/") && !o.id.starts_with("elder/") {
                out.push(DecisionOption::new(
                    format!("mind:{}/{}", s.u(v).id, o.id),
                    format!("{} takes {}", s.u(v).name, o.label),
                ));
            }
        }
    }
}

/// Elder (L2672): once during its own turn, any Unique Action of any of its Stances, for free
/// (`elder/ID`, or `elder/ID:7` for one paid with a number: a tiered one as if paid with 7;
/// Fray reads an X action the same way, X = 7).
fn elder_options(s: &State, u: u8, prefix: &str, out: &mut Vec<DecisionOption>) {
    if !crate::style_abilities::elder(s, u) || s.turn != Some(u) || s.marks.elder.contains(&u) || one_done(s, u) {
        return;
    }
    let mut picks = Picks::default();
    for (key, a) in crate::style_abilities::elder_actions(s, u) {
        if a.enemy_turn {
            continue;
        }
        let v = match price(s, u, key, a) {
            Cost::Gates(g) if g[0] > 7 => continue,
            // Two numbers at once are no tier: not offered.
            Cost::Pair(_) => continue,
            Cost::Gates(_) | Cost::X => Some(7),
            _ => None,
        };
        if !challenge_allows(s, u, &gate_effects(s, u, key, a, v.unwrap_or(0)), &mut picks) {
            continue;
        }
        let id = match v {
            Some(v) => format!("{prefix}elder/{}:{v}", a.id),
            None => format!("{prefix}elder/{}", a.id),
        };
        out.push(DecisionOption::new(id, format!("{} for free (Elder)", a.name)));
    }
}

/// Whether `u` may take an action doing `effects` now: if its first effect picks someone, there is
/// someone to pick (D-RNG-4), and a Challenge allows it (D-TOK-4): an action aimed at enemies
/// must be able to aim at the challenger; one aimed only at allies is refused.
/// The units each kind of pick could take for `u` now, worked out once per menu: the menu asks
/// [`challenge_allows`] for every action and number, and most of them aim alike.
#[derive(Default)]
struct Picks(Vec<(Target, Vec<u8>)>);

impl Picks {
    fn of(&mut self, s: &State, u: u8, t: Target) -> &[u8] {
        let i = match self.0.iter().position(|(k, _)| *k == t) {
            Some(i) => i,
            None => {
                self.0.push((t, candidates(s, u, t, &[])));
                self.0.len() - 1
            }
        };
        &self.0[i].1
    }
}

fn challenge_allows(s: &State, u: u8, effects: &[&Effect], picks: &mut Picks) -> bool {
    // Only the first effect is judged from where the user stands now: a teleport or a move first
    // may bring targets into range.
    // Picks counted from a square the action itself names (Shatter's Copy) are judged as they come.
    let spot = |t: Target| {
        matches!(t, Target::EnemiesBySpot | Target::EnemyNearSpot | Target::EnemyFromSpot | Target::EnemyBySpot)
    };
    if let Some(t) =
        effects.first().and_then(|e| effect_target(e)).filter(|&t| t != Target::Me && t != Target::Same && !spot(t))
        && picks.of(s, u, t).is_empty()
        && (!matches!(effects.first(), Some(Effect::Damage { .. })) || copy_squares(s, u, t).is_empty())
    {
        return false;
    }
    let Some(c) = challenger(s, u) else { return true };
    let targets: Vec<Target> = effects.iter().filter_map(|e| effect_target(e)).collect();
    if let Some(&t) = targets.iter().find(|&&t| hostile(t)) {
        return picks.of(s, u, t).contains(&c);
    }
    let untargeted = effects.iter().any(|e| effect_target(e).is_none_or(|t| t == Target::Me));
    targets.is_empty() || untargeted
}

// ---------------------------------------------------------------- hits, healing, tokens

fn armored(s: &State, u: u8) -> bool {
    !crate::stakes::armor_off(s, u)
        && (s.has_trait(u, Trait::Armor) || crate::bosses::armored(s, u) || crate::stakes::armor_on(s, u))
}

/// A hit of `dmg` on `t` (D-HP-1, D-HP-2, D-HP-6, D-HP-7): Armor takes 1 (if `armor`), the
/// Shield takes what it can and passes the rest on, the bar takes the rest and a breaking hit
/// carries nothing over. `pierce` skips Armor and the Shield. Returns the damage dealt and what
/// the Shield took.
pub fn hurt(cx: &mut Ctx, by: Option<u8>, t: u8, dmg: i32, armor: bool, pierce: bool) -> (i32, i32) {
    let x = cx.s.u(t);
    if x.out || x.at.is_none() {
        return (0, 0);
    }
    // Heroic: an ally in range takes the larger half of a hit (never of a price paid in HP).
    if let Some(w) = crate::style_abilities::heroic_guard(cx.s, t).filter(|_| by.is_some() || armor || !pierce) {
        let mine = dmg.max(0) / 2;
        harm(cx, by, w, dmg.max(0) - mine, armor, pierce);
        return harm(cx, by, t, mine, armor, pierce);
    }
    harm(cx, by, t, dmg, armor, pierce)
}

/// [`hurt`] for a unit that may be out of play (a lone Boss's ring-out damage, D-OUT-5).
pub fn harm(cx: &mut Ctx, by: Option<u8>, t: u8, dmg: i32, armor: bool, pierce: bool) -> (i32, i32) {
    let x = cx.s.u(t);
    let mut d = dmg.max(0);
    if armor && !pierce && armored(cx.s, t) {
        d = (d - 1).max(0);
    }
    let (mut shield, mut hp, mut broken) = (x.shield, x.hp, x.broken);
    let mut to_shield = 0;
    if !pierce && shield > 0 && !crate::stakes::shields_off(cx.s, t) {
        to_shield = d.min(shield);
        shield -= to_shield;
        d -= to_shield;
    }
    let to_hp = d.min(hp);
    hp -= to_hp;
    let bars = x.bars;
    let bar_max = x.bar_max;
    if to_hp > 0 && hp == 0 {
        broken += 1;
        if broken < bars {
            hp = bar_max;
        }
    }
    let dealt = to_shield + to_hp;
    let who = cx.s.who(t);
    let from = by;
    let by = by.map(|b| cx.s.who(b));
    let shield_broke = x.shield > 0 && shield == 0;
    cx.emit(Event::Hurt { who, by, damage: dealt, shield, hp, broken });
    // Focused Cavalry: a Speed token when its or an ally's Shield breaks.
    if shield_broke {
        // Zen: a Shield held in reserve goes to work (the hit's rest has gone to HP already).
        if crate::style_abilities::zen_shields(cx.s, t) && !cx.s.u(t).spares.is_empty() {
            let who = cx.s.who(t);
            cx.emit(Event::ShieldToWork { who });
        }
        crate::archetypes::shield_broke(cx, t);
        crate::style_abilities::shield_broke(cx, t);
        crate::style_abilities::aura_iron(cx, t);
    }
    let swept = crate::endless_stooges::swept(cx.s, from, t, dealt);
    // Bleeding (D-G-28): 0 HP does not take it out while it stays on the map.
    if broken >= bars && !crate::style_abilities::bleeding(cx.s, t) {
        take_out(cx, t);
    } else if swept {
        // D-OPT-4: Endless Stooges: the Stooge hit leaves play (the last one takes the group out).
        remove(cx, t);
    }
    crate::stakes::on_hurt(cx, t, from, dealt);
    crate::archetypes::underdog_hurt(cx, t, dealt);
    // Aura: the enemy that damaged or broke a Shield in its range may be moved 1.
    if let Some(b) = from.filter(|_| to_shield > 0) {
        crate::style_abilities::shield_hit(cx, b, t);
    }
    (dealt, to_shield)
}

/// `t` is Taken Out (D-OUT-1, D-HP-3); the Challenges it gave go (D-TOK-4).
fn take_out(cx: &mut Ctx, t: u8) {
    let who = cx.s.who(t);
    cx.emit(Event::Out { who, out: true });
    crate::copies::clear(cx, t);
    crate::enemies::all_gone(cx, t);
    for v in 0..cx.s.units.len() as u8 {
        if cx.s.u(v).challenge == Some(t) {
            let who = cx.s.who(v);
            cx.emit(Event::Challenge { who, by: None });
        }
    }
}

/// `u` pays `n` tokens of `t` for an action (Armored heals after spending Iron).
fn pay(cx: &mut Ctx, u: u8, t: Token, n: i32) {
    let own = n.min(cx.s.u(u).has(t));
    lose(cx, u, t, own, "paid");
    if t == Token::Iron {
        crate::style_abilities::spent_iron(cx, u, own);
    }
    lend(cx, u, t, n - own, "paid for an ally");
}

/// The tokens of `t` an Unbreakable ally lets `u` spend (L1791).
fn borrowed(s: &State, u: u8, t: Token) -> i32 {
    crate::style_abilities::lender(s, u).map_or(0, |w| s.u(w).has(t))
}

/// `u` spends `n` more tokens of `t` than it holds: its Unbreakable ally's, as far as they go
/// (Fray spends the unit's own first).
fn lend(cx: &mut Ctx, u: u8, t: Token, n: i32, why: &'static str) {
    if let Some(w) = crate::style_abilities::lender(cx.s, u).filter(|_| n > 0) {
        let take = n.min(cx.s.u(w).has(t));
        lose(cx, w, t, take, why);
        if t == Token::Iron {
            crate::style_abilities::spent_iron(cx, w, take);
        }
    }
}

/// Machine (L1882): `u` spends `n` Basic tokens as `t`, that kind first, then the others (Power,
/// then Iron, then Speed, Speed only where it may be spent; Fray picks, D-G-MACHINE).
fn spend_as(cx: &mut Ctx, u: u8, t: Token, n: i32, why: &'static str) {
    let mut left = n;
    for k in [t, Token::Power, Token::Iron, Token::Speed] {
        let take = left.min(spendable(cx.s, u, k));
        if take > 0 {
            lose(cx, u, k, take, why);
            left -= take;
        }
    }
}

fn lose(cx: &mut Ctx, u: u8, t: Token, n: i32, why: &'static str) {
    let n = n.min(cx.s.u(u).has(t));
    if n > 0 {
        let who = cx.s.who(u);
        cx.emit(Event::Tokens { who, token: t, delta: -n, why });
    }
}

/// `by` Challenges `t` (D-TOK-4).
fn challenge(cx: &mut Ctx, t: u8, by: u8) {
    let who = cx.s.who(t);
    let from = cx.s.who(by);
    cx.emit(Event::Challenge { who, by: Some(from) });
    crate::archetypes::on_challenge(cx, t, by);
}

/// D-PEN-6: once `moved` was pushed or pulled, its Handcuffed partner is pulled after it until
/// they stand side by side (Fray picks the squares, `stakes::drag_path`).
fn handcuff_drag(cx: &mut Ctx, moved: u8) {
    let (Some(p), path) = crate::stakes::drag_path(cx.s, moved) else { return };
    for q in path {
        if !cx.s.u(p).active() {
            break;
        }
        enter(cx, p, q, "pull");
    }
}

/// `u` enters `p` by moving there: a Trap deals 1 (D-OBS-5, D-G-46).
fn enter(cx: &mut Ctx, u: u8, p: Pos, how: &'static str) {
    // The Giant and the Vehicle go over Walls, turning them to Rubble.
    crate::bosses::crash(cx, u, p);
    // D-RNG-5: a big unit moves as a whole, over every Wall its squares enter, with its riders.
    let big_trap = crate::big::big(cx.s, u) && crate::big::carry(cx, u, p);
    let who = cx.s.who(u);
    cx.emit(Event::Moved { who, to: p, how });
    // Volcanic: entering a Trap does not hurt.
    let trap = cx.s.obstacle(p) == Some(Obstacle::Trap) && !crate::big::big(cx.s, u) || big_trap;
    if trap && !crate::style_abilities::enters_traps(cx.s, u) {
        trapped(cx, u, p);
    }
    // Frozen: an enemy stepping in next to it gains a Weakness.
    crate::style_abilities::entered(cx, u, p);
}

/// The Trap on `at` deals `u` 1 (D-OBS-5): Phoenix heals it instead, Weightless takes none.
/// Each Trap deals its damage once a turn: entered and then stood on, it hurts once.
pub(crate) fn trapped(cx: &mut Ctx, u: u8, at: Pos) {
    if cx.s.marks.traps.contains(&at) {
        return;
    }
    let who = cx.s.who(u);
    if crate::style_abilities::phoenix(cx.s, u) {
        cx.emit(Event::Trapped { who, at });
        heal(cx, u, 1);
    } else if crate::style_abilities::traps_hurt(cx.s, u) && !crate::style_abilities::misfortune(cx, u) {
        cx.emit(Event::Trapped { who, at });
        hurt(cx, None, u, 1, false, false);
    }
}

/// The engine's loop over the state: a fight ends when a side has no one left standing.
impl Machine for State {
    type Event = Event;
    fn over(&self) -> bool {
        self.outcome.is_some()
    }
    fn idle(&self) -> Frame {
        Frame::Next
    }
    fn after_step(cx: &mut Ctx<'_>) -> Result<(), fray_core::ruleset::RuleError> {
        check_end(cx);
        Ok(())
    }
}

/// The side's result, once one side has nobody left in the fight (D-OUT-1, D-LS-1).
pub fn check_end(cx: &mut Ctx) {
    if cx.s.outcome.is_some() {
        return;
    }
    // D-CMP-4: a three-way battle goes on while two sides stand.
    // D-LS-1, D-G-28: a Bleeding unit at 0 HP fights on, but a side all at 0 HP has lost.
    let standing = |side: u8| {
        cx.s.units.iter().any(|x| {
            x.side == side && (x.active() && !(x.hp == 0 && x.broken >= x.bars) || crate::enemies::ringed_out(x))
        })
    };
    let Some((winner, side)) = crate::complications::decided(cx.s, standing) else { return };
    let mut why = match winner {
        Some(_) if cx.s.three_way() => {
            let down: Vec<&str> = (0..cx.s.sides()).filter(|&k| Some(k as u8) != winner).map(|k| SIDES[k]).collect();
            format!("every one of the {} is Taken Out", down.join(" and the "))
        }
        Some(_) => format!("every one of the {} is Taken Out", SIDES[side as usize]),
        None => "every side is Taken Out".to_string(),
    };
    // D-FLOW-5: the fight is over; the side that lost makes the Last Stand (D-LS-*).
    if let Some(who) = crate::last_stand::settle(cx, side, winner) {
        why.push_str(&format!("; {who} makes the Last Stand"));
    }
    cx.emit(Event::Ended { winner: winner.map(|w| SIDES[w as usize].to_string()), why });
}

// ---------------------------------------------------------------- the turn

/// The dice `u`'s Stance rolls this turn (D-TURN-2): the Form's (or the table's), Wild's bonus
/// dice (one a condition that holds), and a Boss's extra die (D-EN-12).
pub fn stance_dice(s: &State, u: u8) -> Vec<Die> {
    let (Some(form), Some(st)) = (s.form(u), s.u(u).stance) else { return Vec::new() };
    let mut dice = s.form_dice(s.u(u).stances[st]);
    if form.has(Trait::WildDice) || s.form2(u).is_some_and(|f| f.has(Trait::WildDice)) {
        let x = s.u(u);
        let conditions = [
            x.hp * 2 <= x.bar_max,
            // D-G-28: a Bleeding unit at 0 HP counts itself (L2532).
            s.units.iter().any(|y| y.side == x.side && (y.out || y.at.is_some() && y.hp == 0 && y.broken >= y.bars)),
            x.challenge.is_some() || TOKENS.iter().any(|&t| !t.basic() && x.has(t) > 0),
        ];
        // D-TURN-5: Wild's extra dice.
        for _ in conditions.iter().filter(|&&c| c) {
            dice.push(Die::Roll(s.options.wild_die));
        }
    }
    if let Some(st) = s.style(u) {
        dice.extend(st.dice.iter().copied());
    }
    if s.u(u).kind == Kind::Boss {
        dice.push(Die::Roll(s.options.boss_die));
    }
    dice
}

fn roll(cx: &mut Ctx, u: u8) -> Result<(), RuleError> {
    let keep = cx.s.has_trait(u, Trait::KeepPool);
    if keep && !cx.s.u(u).pool.is_empty() {
        return Ok(()); // D-TURN-6, D-G-13: a kept pool is spent before it is rolled again
    }
    if !cx.s.u(u).pool.is_empty() {
        let who = cx.s.who(u);
        cx.emit(Event::PoolEmptied { who });
    }
    let mut dice = stance_dice(cx.s, u);
    // D-G-14: Zen's fixed numbers and any dice added to them make one pool, each number a die.
    // Judgment: the lowest die (fewest faces; a fixed number by its value) is not rolled.
    if crate::style_abilities::judged(cx.s, u) {
        let size = |d: &Die| match d {
            Die::Roll(n) => *n as i32,
            Die::Fixed(v) => *v,
        };
        if let Some(i) = (0..dice.len()).min_by_key(|&i| size(&dice[i])) {
            dice.remove(i);
        }
    }
    let mut numbers = Vec::new();
    for d in dice {
        numbers.push(match d {
            Die::Roll(n) => cx.roll(n)? as i32,
            Die::Fixed(v) => v,
        });
    }
    let who = cx.s.who(u);
    cx.emit(Event::Rolled { who: who.clone(), numbers });
    // D-TOK-11: each Stun takes 4 off a number (the highest, D-G-STUN, a fixed one or a rolled
    // one alike, D-G-14); numbers at 0 or less go;
    // then the Stun tokens go.
    let stun = cx.s.u(u).has(Token::Stun);
    for _ in 0..stun {
        let Some(high) = cx.s.u(u).pool.highest() else { break };
        cx.emit(Event::Spent { who: who.clone(), number: high });
        if high > 4 {
            cx.emit(Event::Rolled { who: who.clone(), numbers: vec![high - 4] });
        }
    }
    lose(cx, u, Token::Stun, stun, "Stun");
    crate::stakes::after_roll(cx, u)
}

/// The Stances `u` may take now (D-TURN-1; a Boss not the one of its last turn, D-EN-13).
pub fn stance_options(s: &State, u: u8) -> Vec<usize> {
    let x = s.u(u);
    let all: Vec<usize> = (0..x.stances.len()).collect();
    // D-HC-9: a Frantic hero uses neither the Form nor the Style of its last turn.
    if x.frantic()
        && let Some(last) = x.last_stance.map(|l| x.stances[l])
    {
        return all
            .into_iter()
            .filter(|&i| x.stances[i].form != last.form && x.stances[i].style != last.style)
            .collect();
    }
    if x.kind == Kind::Boss && all.len() > 1 {
        return all.into_iter().filter(|&i| Some(i) != x.last_stance).collect();
    }
    all
}

/// The actions `u` has in its Stance: the Basic Actions (D-BA-1..D-BA-9, played from
/// `content/dojo/actions.toml`), then its Form's Unique Actions, only while its Stance has the
/// Form (D-STN-5).
pub fn actions_of(s: &State, u: u8) -> Vec<(ActionKey, &ActionDef)> {
    let mut out: Vec<(ActionKey, &ActionDef)> =
        s.content.basic.iter().enumerate().map(|(i, a)| (ActionKey::Basic(i as u8), a)).collect();
    let x = s.u(u);
    if let Some(st) = x.stance {
        let phantom = crate::archetypes::has(s, u, "phantom");
        // A Frantic Phantom has every Unique Action of its Forms and Styles this turn.
        let mut forms: Vec<usize> = if phantom == Some(Variant::FranticNow) {
            x.stances.iter().map(|st| st.form).collect()
        } else {
            vec![x.stances[st].form]
        };
        // D-STN-4: a Forbidden Stance has both its Forms' Unique Actions.
        forms.extend(x.stances[st].form2);
        forms.sort_unstable();
        forms.dedup();
        for f in forms {
            for (i, a) in s.content.forms[f].action.iter().enumerate() {
                if !a.reference_only {
                    out.push((ActionKey::Form(f as u8, i as u8), a));
                }
            }
        }
        // A Focused Phantom has every Style's Unique Actions of its Stances in any of them.
        let mut styles: Vec<usize> = if matches!(phantom, Some(Variant::Focused | Variant::FranticNow)) {
            x.stances.iter().filter_map(|st| st.style).collect()
        } else {
            x.stances[st].style.into_iter().collect()
        };
        styles.sort_unstable();
        styles.dedup();
        for sy in styles {
            for (i, a) in s.content.styles[sy].action.iter().enumerate() {
                if !a.reference_only {
                    out.push((ActionKey::Style(sy as u8, i as u8), a));
                }
            }
        }
    }
    // D-EN-8: Stooges have Reinforcements; once every member has acted (D-EN-5) it is all
    // they may do with their numbers.
    if crate::enemies::stooges(s, u) {
        if !crate::enemies::member_free(s, u) {
            out.clear();
        }
        // D-OPT-4: Endless Stooges has no Reinforcements: numbers past the Stooges are lost.
        if !crate::endless_stooges::on(s, u) {
            out.push((ActionKey::Reinforcements, &s.content.enemies.reinforcements));
        }
    }
    out
}

/// How much cheaper `u`'s Unique Actions are: 1 for a Phantom (Focused or Fused), else 0.
fn phantom_cut(s: &State, u: u8, key: ActionKey) -> i32 {
    // Elder: the Stance's own Form's Unique Actions, 1 less too (never 2 less, D-G-17, D-G-18).
    let elder = matches!(key, ActionKey::Form(..)) && crate::style_abilities::elder(s, u);
    i32::from(!matches!(key, ActionKey::Basic(_)) && crate::archetypes::has(s, u, "phantom").is_some() || elder)
}

/// Whether `u`'s next Action is aimed (Take Aim): it costs 1 more (an X cost stays X).
fn aimed(s: &State, u: u8) -> i32 {
    i32::from(s.marks.aimed.contains(&u))
}

/// What `key` costs `u`: a Phantom's Unique Actions 1 less, never under 1+ or 2 tokens; an aimed
/// Action 1 more.
pub fn price(s: &State, u: u8, key: ActionKey, a: &ActionDef) -> Cost {
    // Machine: a price in one Basic kind is paid in any Basic tokens.
    let cost = crate::style_abilities::machine_cost(s, u, &a.cost);
    let cut = phantom_cut(s, u, key) - aimed(s, u);
    if cut == 0 {
        return cost;
    }
    let fewer = |n: u32| {
        if cut < 0 {
            n + 1
        } else if n > 2 {
            n - 1
        } else {
            n
        }
    };
    match &cost {
        Cost::Gates(g) => Cost::Gates(g.iter().map(|&v| (v - cut).max(1)).collect()),
        Cost::Pair(v) => Cost::Pair((v - cut).max(1)),
        Cost::Tokens(t, n) => Cost::Tokens(*t, fewer(*n)),
        Cost::Basic(n) => Cost::Basic(fewer(*n)),
        Cost::Mix(k, n) => Cost::Mix(k.clone(), fewer(*n)),
        c => c.clone(),
    }
}

/// The gate of `key` that the number `v` reaches for `u` (a Phantom's gates 1 lower).
pub fn gate_of<'a>(s: &State, u: u8, key: ActionKey, a: &'a ActionDef, v: i32) -> Option<&'a Gate> {
    match &a.cost {
        Cost::Gates(_) => a.gate_for(v + phantom_cut(s, u, key) - aimed(s, u)),
        _ => a.gate_for(v),
    }
}

/// The action `key` stands for.
pub fn action(s: &State, key: ActionKey) -> &ActionDef {
    match key {
        ActionKey::Basic(i) => &s.content.basic[i as usize],
        ActionKey::Form(f, i) => &s.content.forms[f as usize].action[i as usize],
        ActionKey::Style(st, i) => &s.content.styles[st as usize].action[i as usize],
        ActionKey::Reinforcements => &s.content.enemies.reinforcements,
    }
}

fn gate_effects<'a>(s: &State, u: u8, key: ActionKey, a: &'a ActionDef, v: i32) -> Vec<&'a Effect> {
    // A choice's picks are checked as they are made; its fixed parts here.
    // Whip and Ogres: their Throw reaches into the Style's range.
    let throw = crate::style_abilities::throw_target(s, u, &a.id);
    gate_of(s, u, key, a, v).map_or_else(Vec::new, |g| {
        g.first
            .iter()
            .chain(g.effects.iter())
            .map(|e| match (e, throw) {
                (Effect::Push { .. }, Some(w)) => w,
                _ => e,
            })
            .collect()
    })
}

/// Basic tokens of `kinds` that `u` holds.
fn held_of(s: &State, u: u8, kinds: &[Token]) -> i32 {
    kinds.iter().map(|&t| spendable(s, u, t)).sum()
}

/// The tokens of `t` that `u` may spend: none of its Speed next to a Caged enemy.
fn spendable(s: &State, u: u8, t: Token) -> i32 {
    if t == Token::Speed && crate::style_abilities::caged(s, u) { 0 } else { s.u(u).has(t) }
}

/// Whether `u`, in a one-Action Stance, has taken its action this turn (D-TURN-6).
fn one_done(s: &State, u: u8) -> bool {
    s.has_trait(u, Trait::OneAction) && s.marks.acted.contains(&u)
}

/// The actions `u` may take now, each as `prefix` + its id: on its own turn (`own`) every one it
/// can pay; off its turn those paid in tokens (D-ACT-6), and a one-Action Stance's one action a
/// turn from its kept pool (D-TURN-6).
fn action_options_here(s: &State, u: u8, own: bool, prefix: &str, out: &mut Vec<DecisionOption>) {
    let x = s.u(u);
    // Mastermind takes no Actions itself (L2688).
    if !x.active() || crate::style_abilities::mastermind(s, u) {
        return;
    }
    let mut picks = Picks::default();
    // D-TOK-8, D-G-38: a Chaos token is an Action as if paid with a 4, at any time.
    if x.has(Token::Chaos) > 0 && !one_done(s, u) {
        for (key, a) in actions_of(s, u) {
            if a.enemy_turn && !s.turn.is_some_and(|t| foes(s, t, u)) {
                continue;
            }
            let fits = match price(s, u, key, a) {
                Cost::Gates(g) => g[0] <= 4,
                Cost::X => true,
                _ => false,
            };
            if fits && challenge_allows(s, u, &gate_effects(s, u, key, a, 4), &mut picks) {
                out.push(DecisionOption::new(
                    format!("{prefix}chaos/{}:4", a.id),
                    format!("{} as a 4, for a Chaos token", a.name),
                ));
            }
        }
    }
    let numbers = !one_done(s, u) && (own || s.has_trait(u, Trait::OneAction));
    let values = if numbers { x.pool.at_least(i32::MIN) } else { Vec::new() };
    for (key, a) in actions_of(s, u) {
        if key == ActionKey::Reinforcements && !own {
            continue; // D-EN-8: the Stooges call for help on their own turn
        }
        // Waiting Game: only while an enemy takes its turn.
        if a.enemy_turn && !s.turn.is_some_and(|t| foes(s, t, u)) {
            continue;
        }
        if let Some(limit) = a.per_turn {
            let used = s.marks.uses.iter().find(|(w, k, _)| *w == u && *k == key).map_or(0, |m| m.2);
            if used >= limit {
                continue;
            }
        }
        match &price(s, u, key, a) {
            Cost::Gates(g) => {
                for &v in values.iter().filter(|&&v| v >= g[0]) {
                    if challenge_allows(s, u, &gate_effects(s, u, key, a, v), &mut picks) {
                        out.push(DecisionOption::new(
                            format!("{prefix}{}:{v}", a.id),
                            format!("{} paid with {v}", a.name),
                        ));
                    }
                }
            }
            Cost::X => {
                for &v in values.iter().filter(|&&v| v >= 1) {
                    if challenge_allows(s, u, &gate_effects(s, u, key, a, v), &mut picks) {
                        out.push(DecisionOption::new(
                            format!("{prefix}{}:{v}", a.id),
                            format!("{} with X = {v}", a.name),
                        ));
                    }
                }
            }
            Cost::Tokens(t, n) => {
                // Unbreakable: an ally's tokens count too.
                let held = spendable(s, u, *t) + borrowed(s, u, *t);
                if held >= *n as i32 && challenge_allows(s, u, &gate_effects(s, u, key, a, 0), &mut picks) {
                    out.push(DecisionOption::new(format!("{prefix}{}", a.id), format!("{} for {n} {t}", a.name)));
                }
            }
            Cost::Basic(n) => {
                let basic = held_of(s, u, &[Token::Iron, Token::Power, Token::Speed]);
                if basic >= *n as i32 && challenge_allows(s, u, &gate_effects(s, u, key, a, 0), &mut picks) {
                    out.push(DecisionOption::new(
                        format!("{prefix}{}", a.id),
                        format!("{} for {n} Basic tokens", a.name),
                    ));
                }
            }
            Cost::Mix(kinds, n) => {
                if held_of(s, u, kinds) >= *n as i32
                    && challenge_allows(s, u, &gate_effects(s, u, key, a, 0), &mut picks)
                {
                    out.push(DecisionOption::new(
                        format!("{prefix}{}", a.id),
                        format!("{} for {} tokens", a.name, a.cost),
                    ));
                }
            }
            // D-ACT-6: a cost that is no number is a token action, paid at any time.
            Cost::GainTokens(..) | Cost::Hp(_) | Cost::Shield => {
                let can = match &a.cost {
                    Cost::Hp(n) => x.hp >= *n as i32, // L1499: from the bar, never more than it holds
                    Cost::Shield => x.shield > 0,
                    _ => true,
                };
                if can && challenge_allows(s, u, &gate_effects(s, u, key, a, 0), &mut picks) {
                    out.push(DecisionOption::new(format!("{prefix}{}", a.id), format!("{} for {}", a.name, a.cost)));
                }
            }
            // Two numbers at once (Perfect Strike): `id:A&B`.
            Cost::Pair(g) => {
                let all = x.pool.values();
                for (i, &a1) in values.iter().enumerate().filter(|(_, v)| **v >= *g) {
                    for &a2 in values[i..].iter() {
                        let twice = a1 != a2 || all.iter().filter(|&&v| v == a1).count() >= 2;
                        if twice && challenge_allows(s, u, &gate_effects(s, u, key, a, 0), &mut picks) {
                            out.push(DecisionOption::new(
                                format!("{prefix}{}:{a1}&{a2}", a.id),
                                format!("{} paid with {a1} and {a2}", a.name),
                            ));
                        }
                    }
                }
            }
            // ...Now You Don't, Shatter: paid by breaking one of the user's Copies (`id#x,y`).
            Cost::Copy => {
                for p in crate::copies::of(s, u) {
                    if challenge_allows(s, u, &gate_effects(s, u, key, a, 0), &mut picks) {
                        out.push(DecisionOption::new(
                            format!("{prefix}{}#{}", a.id, p.key()),
                            format!("{} for the Copy at {}", a.name, p.key()),
                        ));
                    }
                }
            }
        }
    }
}

/// The actions `u` may take now (see [`action_options_here`]), and those that reach beyond it
/// taken as if it stood on one of its Copies (D-OBS-1, L9585), as `id...@x,y`.
fn action_options(s: &State, u: u8, own: bool, prefix: &str, out: &mut Vec<DecisionOption>) {
    action_options_here(s, u, own, prefix, out);
    if own && s.u(u).active() {
        elder_options(s, u, prefix, out);
        mind_options(s, u, out);
    }
    if !s.standing_in.is_empty() || !s.u(u).active() {
        return;
    }
    for p in crate::copies::of(s, u) {
        let there = crate::copies::standing_on(s, u, p);
        let mut more = Vec::new();
        action_options_here(&there, u, own, prefix, &mut more);
        for mut o in more {
            let id = o.id.strip_prefix(prefix).unwrap_or(&o.id);
            let id = id.strip_prefix("chaos/").unwrap_or(id);
            let id = id.split([':', '#']).next().unwrap_or(id);
            if actions_of(s, u).iter().any(|(_, a)| a.id == id && crate::copies::reaches_out(a)) {
                o.id = format!("{}@{}", o.id, p.key());
                o.label = format!("{} (from the Copy at {})", o.label, p.key());
                out.push(o);
            }
        }
    }
}

/// The tokens `u` may pay Free Movement with (D-MOVE-1): its Speed (none next to a Caged enemy);
/// in Machine Style any Basic token (L1882).
fn move_tokens(s: &State, u: u8) -> i32 {
    let speed = spendable(s, u, Token::Speed);
    let lent = if crate::style_abilities::caged(s, u) { 0 } else { borrowed(s, u, Token::Speed) };
    let own = if crate::style_abilities::machine(s, u) {
        speed + s.u(u).has(Token::Iron) + s.u(u).has(Token::Power)
    } else {
        speed
    };
    own + lent
}

/// `u` pays `cost` for Free Movement (D-MOVE-2, D-G-10: down to 0, never below): Speed, or in
/// Machine Style Speed first, then Power, then Iron.
fn pay_steps(cx: &mut Ctx, u: u8, cost: i32, why: &'static str) {
    let before = move_tokens(cx.s, u) - borrowed(cx.s, u, Token::Speed);
    if crate::style_abilities::machine(cx.s, u) {
        spend_as(cx, u, Token::Speed, cost, why);
    } else {
        lose(cx, u, Token::Speed, cost, why);
    }
    // Unbreakable: what its own tokens did not cover, an ally's Speed pays.
    lend(cx, u, Token::Speed, cost - before, why);
}

/// Free Movement steps for `u` (D-MOVE-1, D-MOVE-3: only while Speed is held), as `prefix` +
/// the square.
fn step_options(s: &State, u: u8, prefix: &str, out: &mut Vec<DecisionOption>) {
    let x = s.u(u);
    if move_tokens(s, u) > 0
        && x.active()
        && !crate::style_abilities::caged(s, u)
        && let Some(at) = x.at
    {
        // The Giant and the Vehicle may step onto Walls too (Boss Archetypes); Portals add squares.
        for q in step_squares(s, u) {
            if crate::style_abilities::shut_out(s, u, q) {
                continue;
            }
            let cost = unit_step_cost(s, u, at, q);
            let mut o = DecisionOption::square(q, format!("step to {} ({cost} Speed)", q.key()));
            o.id = format!("{prefix}{}", q.key());
            out.push(o);
        }
        // D-PEN-6: its Speed may move its partner too, by the same rules (`mate:x,y`).
        if let Some(p) = crate::stakes::partner(s, u)
            && let Some(pa) = s.u(p).at
        {
            for q in pa.neighbours() {
                if s.empty(q) && crate::stakes::cuffed_ok(s, p, q) {
                    let cost = unit_step_cost(s, p, pa, q);
                    out.push(DecisionOption::new(
                        format!("{prefix}mate:{}", q.key()),
                        format!("step {} to {} ({cost} of its Speed)", s.u(p).name, q.key()),
                    ));
                }
            }
        }
        // Puppet's: anyone or any obstacle in its range, on its Speed (`puppet:x,y>x,y`).
        for (from, to) in crate::style_abilities::puppet_steps(s, u) {
            let cost = step_cost(s, from, to);
            out.push(DecisionOption::new(
                format!("{prefix}puppet:{}>{}", from.key(), to.key()),
                format!("move what stands at {} to {} ({cost} Speed)", from.key(), to.key()),
            ));
        }
        // D-OBS-1: its Copies move by Free Movement too, on its Speed (`copy:x,y>x,y`).
        for c in crate::copies::of(s, u) {
            for q in c.neighbours() {
                // Spirit: its Copies go through Walls too.
                if s.empty(q) || crate::style_abilities::copies_through_walls(s, u) && crate::bosses::wall_open(s, q) {
                    let cost = step_cost(s, c, q);
                    out.push(DecisionOption::new(
                        format!("{prefix}copy:{}>{}", c.key(), q.key()),
                        format!("step the Copy at {} to {} ({cost} Speed)", c.key(), q.key()),
                    ));
                }
            }
        }
    }
}

/// A Free Movement step of `u`'s Handcuffed partner to `mate:x,y`, paid with `u`'s Speed
/// (D-PEN-6, D-MOVE-2).
fn mate_step(cx: &mut Ctx, u: u8, option: &str) -> Result<(), RuleError> {
    let q = option.strip_prefix("mate:").and_then(Pos::parse).ok_or_else(|| RuleError::malformed("mate:x,y"))?;
    let p = crate::stakes::partner(cx.s, u).ok_or_else(|| RuleError::malformed("no partner"))?;
    let at = cx.s.u(p).at.ok_or_else(|| RuleError::malformed("not on the map"))?;
    let cost = unit_step_cost(cx.s, p, at, q);
    enter(cx, p, q, "step");
    pay_steps(cx, u, cost, "Free Movement of a partner");
    if edge(cx.s, q) {
        over_edge(cx, p);
    }
    Ok(())
}

/// Puppet's (L2412): `u` moves the unit or obstacle on `x,y` one space by Free Movement
/// (`puppet:x,y>x,y`), paid with its own Speed; a Wall or a Trap moved so becomes Rubble.
fn puppet_step(cx: &mut Ctx, u: u8, option: &str) -> Result<(), RuleError> {
    let (from, to) = option
        .strip_prefix("puppet:")
        .and_then(|r| r.split_once('>'))
        .and_then(|(a, b)| Some((Pos::parse(a)?, Pos::parse(b)?)))
        .ok_or_else(|| RuleError::malformed("puppet:x,y>x,y"))?;
    if !crate::style_abilities::puppet_steps(cx.s, u).contains(&(from, to)) {
        return Err(RuleError::malformed("no such Puppet's move"));
    }
    let cost = step_cost(cx.s, from, to);
    if let Some(v) = cx.s.unit_at(from) {
        enter(cx, v, to, "moved by Puppet's");
        pay_steps(cx, u, cost, "Puppet's Free Movement");
        if edge(cx.s, to) {
            over_edge(cx, v);
        }
    } else if let Some(o) = cx.s.obstacle(from) {
        let now = if matches!(o, Obstacle::Wall | Obstacle::Trap) { Obstacle::Rubble } else { o };
        cx.emit(Event::Obstacle { at: from, now: None });
        cx.emit(Event::Obstacle { at: to, now: Some(now) });
        pay_steps(cx, u, cost, "Puppet's Free Movement");
    }
    Ok(())
}

/// A Free Movement step of `u`'s Copy (`copy:x,y>x,y`), paid with `u`'s Speed after it (D-MOVE-2).
fn copy_step(cx: &mut Ctx, u: u8, option: &str) -> Result<(), RuleError> {
    let (from, to) = option
        .strip_prefix("copy:")
        .and_then(|r| r.split_once('>'))
        .and_then(|(a, b)| Some((Pos::parse(a)?, Pos::parse(b)?)))
        .ok_or_else(|| RuleError::malformed("copy:x,y>x,y"))?;
    let cost = step_cost(cx.s, from, to);
    crate::copies::step(cx, from, to);
    pay_steps(cx, u, cost, "Free Movement of a Copy");
    crate::style_abilities::after_step(cx, u);
    Ok(())
}

/// The turn's menu for `u` (D-TURN-4, D-ACT-*, D-MOVE-1): actions by number (`id:N`) or by
/// tokens (`id`), Free Movement steps (`x,y`), and ending the turn.
pub fn menu(s: &State, u: u8) -> Vec<DecisionOption> {
    let mut out = Vec::new();
    action_options(s, u, true, "", &mut out);
    // D-TOK-10: a Training token on the next Action, one a turn (as Take Aim: numbers +1).
    let x = s.u(u);
    if x.has(Token::Training) > 0
        && !x.pool.is_empty()
        && !s.marks.trained.contains(&u)
        && !s.marks.aimed.contains(&u)
        && !one_done(s, u)
    {
        out.push(DecisionOption::new("train", "spend a Training token: the next Action's numbers and cost +1"));
    }
    step_options(s, u, "", &mut out);
    // D-OPT-4: Endless Stooges whose every Stooge has acted lose the numbers left.
    let lost = crate::endless_stooges::numbers_lost(s, u);
    // D-EN-5: with `stooge-figures`, the controller picks which Stooge takes the next action.
    if !x.pool.is_empty() && crate::enemies::figures(s, u) && !lost {
        for p in crate::enemies::of(s, u) {
            out.push(DecisionOption::new(format!("lead:{}", p.key()), format!("the Stooge on {} acts next", p.key())));
        }
    }
    // D-TURN-4, D-G-19: the turn goes on until the pool is spent (a number can always go on
    // Movement); then, or once a one-Action Stance has acted, it may end.
    // Mastermind: with no ally to spend a number on, the numbers may stay unspent.
    let stuck = crate::style_abilities::mastermind(s, u) && !out.iter().any(|o| o.id.starts_with("mind:"));
    if s.u(u).pool.is_empty() || one_done(s, u) || lost || stuck {
        out.push(DecisionOption::new("end-turn", "end the turn"));
    }
    out
}

/// What `side` may do in a window of `active`'s turn (D-ACT-6, D-ACT-9, D-MOVE-4): token
/// actions, a one-Action Stance's action, and at the turn's start and end, Free Movement.
pub fn window_options(s: &State, active: u8, phase: u8, side: u8) -> Vec<DecisionOption> {
    let mut out = Vec::new();
    for v in 0..s.units.len() as u8 {
        if v == active || s.u(v).side != side || !s.u(v).active() {
            continue;
        }
        let prefix = format!("{}/", s.u(v).id);
        action_options(s, v, false, &prefix, &mut out);
        // D-TOK-9: an Inspired token adds a die to an acting ally's pool. D-G-27: whoever holds
        // it may spend it, a Stooge group (the Cheerleaders) as well as a Teacher.
        if s.u(v).has(Token::Inspired) > 0 && s.u(active).side == side && s.u(active).active() {
            out.push(DecisionOption::new(
                format!("{prefix}inspire"),
                format!("{} rolls a d{} into {}'s pool", s.u(v).name, s.options.inspired_die, s.u(active).name),
            ));
        }
        if phase != 1 {
            step_options(s, v, &prefix, &mut out);
        }
    }
    out
}

/// The side a window asks next: the acting unit's enemies first (in a three-way battle, the
/// sides after its own on the meter), then its allies, skipping those that passed or have
/// nothing to do.
fn window_side(s: &State, active: u8, phase: u8, passed: u8) -> Option<u8> {
    let own = s.u(active).side;
    crate::complications::others_first(s, own)
        .into_iter()
        .find(|&side| passed & (1 << side) == 0 && !window_options(s, active, phase, side).is_empty())
}

/// What `u`'s Free Movement step costs: Weightless pays nothing more for Rubble.
fn unit_step_cost(s: &State, u: u8, from: Pos, to: Pos) -> i32 {
    // Vortex: a step from one Edge to another, as if next to it, costs 1.
    if dist(from, to) > 1 {
        return 1;
    }
    let mut rubble = s.obstacle(to) == Some(Obstacle::Rubble);
    // D-RNG-5: a big unit pays 1 more when any square it newly covers is Rubble (a Wall it
    // crashes is paid for apart, D-G-VEHICLE).
    if crate::big::big(s, u) {
        let old = crate::big::squares_at(s, u, from);
        rubble = crate::big::squares_at(s, u, to)
            .into_iter()
            .any(|q| !old.contains(&q) && s.obstacle(q) == Some(Obstacle::Rubble));
        let diagonal = from.x != to.x && from.y != to.y;
        return if diagonal { 2 } else { 1 } + i32::from(rubble && !crate::style_abilities::light_on_rubble(s, u));
    }
    step_cost(s, from, to) - i32::from(rubble && crate::style_abilities::light_on_rubble(s, u))
}

/// What a Free Movement step costs (D-MOVE-2): 1 straight, 2 diagonal, 1 more into Rubble
/// (D-G-10: it may cost more than is held).
pub fn step_cost(s: &State, from: Pos, to: Pos) -> i32 {
    let diagonal = from.x != to.x && from.y != to.y;
    let mut c = if diagonal { 2 } else { 1 };
    if s.obstacle(to) == Some(Obstacle::Rubble) {
        c += 1;
    }
    c
}

// ---------------------------------------------------------------- questions

fn seat(s: &State, u: u8) -> String {
    SIDES[s.u(u).side as usize].to_string()
}

fn ask(s: &State, u: u8, kind: &str, prompt: String, options: Vec<DecisionOption>) -> Option<Decision> {
    (!options.is_empty()).then(|| Decision {
        seat: seat(s, u),
        unit: Some(s.u(u).id.to_string()),
        kind: kind.into(),
        prompt,
        options,
    })
}

fn unit_options(s: &State, us: &[u8]) -> Vec<DecisionOption> {
    us.iter().map(|&v| DecisionOption::new(s.u(v).id.to_string(), s.u(v).name.clone())).collect()
}

fn numbers(max: i32) -> Vec<DecisionOption> {
    (0..=max).map(|n| DecisionOption::new(n.to_string(), format!("spend {n}"))).collect()
}

fn form_of(s: &State, u: u8, i: usize) -> &Form {
    &s.content.forms[s.u(u).stances[i].form]
}

fn vigil_options(s: &State, u: u8) -> Vec<DecisionOption> {
    let x = s.u(u);
    // Healing at full HP does nothing, but it is how a unit keeps its tokens.
    let mut out = vec![DecisionOption::new("heal", "heal")];
    for t in TOKENS {
        if t != Token::Challenge && x.has(t) > 0 {
            out.push(DecisionOption::new(format!("shed:{t}"), format!("shed a {t} token")));
        }
    }
    if x.challenge.is_some() {
        out.push(DecisionOption::new("shed:challenge", "shed the Challenge"));
    }
    out
}

/// The squares the current square effect of `run` may pick.
fn squares(s: &State, run: &Run) -> Vec<Pos> {
    let Some(at) = s.u(run.user).at else { return Vec::new() };
    let (lo, hi) = range(s, run.user);
    let map: Vec<Pos> = s.map.squares().collect();
    match run.ops.get(run.i) {
        Some(Effect::Teleport { n, min, in_range, seen, onto, placed, beside_alone, spot, reach_same, .. }) => {
            let aimed_at = run.current.and_then(|c| s.u(c).at);
            let mover = run.tgt.unwrap_or(run.user);
            let Some(from) = s.u(mover).at else { return Vec::new() };
            map.into_iter()
                .filter(|&q| {
                    let d = dist(from, q);
                    // Hidden, Spirit, Weightless may land in a Wall; Shining keeps enemies away.
                    let open = crate::big::room(s, mover, q)
                        || crate::style_abilities::wall_walker(s, mover) && crate::bosses::wall_open(s, q);
                    q != from
                        && open
                        && !crate::style_abilities::shut_out(s, mover, q)
                        && crate::stakes::cuffed_ok(s, mover, q)
                        && (*n == 0 || d <= *n)
                        && d >= *min
                        && (!*in_range || (lo..=hi).contains(&dist(at, q)) && sees(s, at, q))
                        && (!*seen || sees(s, from, q))
                        && onto.is_none_or(|o| s.obstacle(q) == Some(o))
                        && (!*placed || run.placed.contains(&q))
                        && (!*spot || run.spot == Some(q))
                        && (!*reach_same || aimed_at.is_some_and(|p| (lo..=hi).contains(&dist(q, p)) && sees(s, q, p)))
                        && (!*beside_alone
                            || (0..s.units.len() as u8).any(|v| {
                                v != mover
                                    && s.u(v).active()
                                    && alone(s, v)
                                    && s.u(v).at.is_some_and(|p| dist(p, q) == 1)
                            }))
                })
                .collect()
        }
        // Denial: an empty space next to the unit picked.
        Some(Effect::Approach { .. }) => {
            let Some(p) = run.tgt.and_then(|t| s.u(t).at) else { return Vec::new() };
            p.neighbours()
                .into_iter()
                .filter(|&q| {
                    crate::big::room(s, run.user, q)
                        && !crate::style_abilities::shut_out(s, run.user, q)
                        && crate::stakes::cuffed_ok(s, run.user, q)
                })
                .collect()
        }
        Some(Effect::Place { obstacle, adjacent, touching, within, .. }) => map
            .into_iter()
            .filter(|&q| {
                let d = dist(at, q);
                let reach = if *adjacent {
                    d == 1
                } else if let Some(w) = within {
                    (1..=*w).contains(&d)
                } else {
                    (lo..=hi).contains(&d) && sees(s, at, q)
                };
                // A unit, a Wall or a Copy fills a square (D-OBS-0); an ability's run that marked
                // a square puts it there only (Volcanic).
                // D-RNG-5: no Wall goes onto a square of a big unit (a Vehicle's is open to stand on).
                reach
                    && s.empty(q)
                    && !(*obstacle == Obstacle::Wall && crate::big::covering(s, q).is_some())
                    && (!run.quiet || run.spot.is_none_or(|p| p == q))
                    && s.obstacle(q) != Some(*obstacle)
                    && touching.is_none_or(|o| q.neighbours().iter().any(|&p| s.obstacle(p) == Some(o)))
            })
            .collect(),
        // A Copy is an obstacle to pick too (D-OBS-1).
        Some(Effect::Destroy { .. } | Effect::Mark) => map
            .into_iter()
            .filter(|&q| {
                (s.obstacle(q).is_some() || crate::copies::owner(s, q).is_some())
                    && (lo.max(1)..=hi).contains(&dist(at, q))
                    && sees(s, at, q)
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Relentless (L3087): its push of an enemy it damaged is over, the enemy having left `from`.
/// With another of its pushes still waiting (several enemies damaged at once), the square is
/// handed on to that push; the last push over steps into the first of the squares left that is
/// empty (Fray picks).
fn relentless_follow(cx: &mut Ctx, run: &Run, from: Option<Pos>) {
    let Some(spot) = run.spot.filter(|&p| crate::style_abilities::relentless_push(cx.s, run, p)) else { return };
    let user = run.user;
    let mut left: Vec<Pos> = run.placed.clone();
    left.extend(from.filter(|&p| p == spot));
    if left.is_empty() {
        return;
    }
    let waiting = cx.s.flow.iter().rposition(|f| match f {
        Frame::Run(r) => {
            r.i == 0 && r.user == user && r.spot.is_some_and(|p| crate::style_abilities::relentless_push(cx.s, r, p))
        }
        _ => false,
    });
    if let Some(k) = waiting
        && let Frame::Run(r) = &mut cx.s.flow[k]
    {
        r.placed.extend(left);
        return;
    }
    if let Some(p) = left.into_iter().find(|&p| cx.s.empty(p)) {
        enter(cx, user, p, "Relentless");
    }
}

/// The squares a push or pull may take next (D-FMV-1; D-G-09: the map's border, Walls and
/// units stop it).
fn forced_squares(s: &State, mover: u8, origin: Pos, push: bool) -> Vec<Pos> {
    let Some(at) = s.u(mover).at else { return Vec::new() };
    // D-G-22: a big unit is pushed or pulled as a whole, measured from its nearest square; it
    // stays on the map (its border stops it as a Wall would), and no push crashes a Wall.
    if crate::big::big(s, mover) {
        let near =
            |to: Pos| crate::big::squares_at(s, mover, to).into_iter().map(|q| dist(q, origin)).min().unwrap_or(0);
        let d = near(at);
        return at
            .neighbours()
            .into_iter()
            .filter(|&q| crate::big::fits_with(s, mover, q, false) && if push { near(q) > d } else { near(q) < d })
            .collect();
    }
    let d = dist(at, origin);
    at.neighbours()
        .into_iter()
        // D-GRID-2, D-FMV-3: past the map's border is Edge, and a push or pull may go there.
        // D-OPT-1: with World of Cardboard a Wall may take the push too.
        .filter(|&q| {
            let cardboard = s.options.world_of_cardboard
                && s.obstacle(q) == Some(Obstacle::Wall)
                && s.unit_at(q).is_none()
                && crate::copies::owner(s, q).is_none();
            let off = !s.map.contains(q) && !crate::style_abilities::edge_proof(s, mover);
            (s.empty(q) || off || cardboard) && if push { dist(q, origin) > d } else { dist(q, origin) < d }
        })
        .collect()
}

/// The map's empty squares next to an Edge (its border), where a removed unit comes back
/// (D-OUT-4).
fn border_squares(s: &State) -> Vec<Pos> {
    let (w, h) = (s.map.width(), s.map.height());
    let by_hole = |q: Pos| q.neighbours().iter().any(|&p| s.obstacle(p) == Some(Obstacle::Edge));
    s.map
        .squares()
        .filter(|q| {
            (q.x == 0 || q.y == 0 || q.x == w - 1 || q.y == h - 1 || by_hole(*q))
                && s.empty(*q)
                && s.obstacle(*q) != Some(Obstacle::Edge)
        })
        .collect()
}

/// `u` has been put over an Edge: with Speed it may step back (D-MOVE-4), without it goes
/// (D-OBS-2).
fn over_edge(cx: &mut Ctx, u: u8) {
    // Winged, Vortex, Weightless: an Edge never takes them.
    if crate::style_abilities::edge_proof(cx.s, u) {
        return;
    }
    // D-RNG-5: a Giant or a Vehicle goes only with all of it over Edges.
    if crate::big::big(cx.s, u) && !crate::big::all_over_edge(cx.s, u) {
        return;
    }
    if move_tokens(cx.s, u) > 0 && !step_squares(cx.s, u).is_empty() {
        cx.push(Frame::Edge { u });
    } else {
        remove(cx, u);
    }
}

/// `u` leaves play (D-OUT-1): it keeps its HP and tokens, out until it comes back.
fn remove(cx: &mut Ctx, u: u8) {
    // D-EN-7: one Stooge of a group standing as figures goes; the others fight on.
    if crate::enemies::figures(cx.s, u) && crate::enemies::lose_lead(cx, u) {
        return;
    }
    let who = cx.s.who(u);
    cx.emit(Event::Removed { who });
    // D-OUT-5, D-EN-15: the last enemy Boss is not Taken Out by an Edge.
    if !crate::enemies::lone_boss(cx.s, u) {
        take_out(cx, u);
    }
}

fn step_squares(s: &State, u: u8) -> Vec<Pos> {
    let walls = crate::bosses::through_walls(s, u);
    s.u(u).at.map_or_else(Vec::new, |at| {
        at.neighbours()
            .into_iter()
            .chain(crate::style_abilities::portals(s, u))
            // D-PEN-6: a Handcuffed unit steps only next to its partner.
            .filter(|&q| {
                // D-RNG-5: a big unit steps as a whole, each of its squares free (or a Wall to crash).
                // Hidden, Spirit and Weightless go through Walls and may stand in one.
                let wall = walls || crate::style_abilities::wall_walker(s, u);
                let free = if crate::big::big(s, u) {
                    crate::big::fits(s, u, q)
                } else {
                    s.empty(q) || wall && crate::bosses::wall_open(s, q)
                };
                // Shining: no enemy moves in next to it, by any step or move (L1631).
                free && !crate::style_abilities::shut_out(s, u, q) && crate::stakes::cuffed_ok(s, u, q)
            })
            .collect()
    })
}

fn held_tokens(s: &State, t: u8) -> Vec<DecisionOption> {
    let x = s.u(t);
    let mut out: Vec<DecisionOption> = TOKENS
        .iter()
        .filter(|&&k| k != Token::Challenge && x.has(k) > 0)
        .map(|k| DecisionOption::new(k.id(), format!("take a {k} token")))
        .collect();
    if x.challenge.is_some() {
        out.push(DecisionOption::new("challenge", "take the Challenge"));
    }
    out
}

/// D-CLAR-6: the unit that took `run` over with Control makes the decisions its user would.
fn taken_over(s: &State, run: &Run, mut d: Decision) -> Decision {
    if let Some(c) = run.by
        && d.seat == seat(s, run.user)
        && d.unit.as_deref() == Some(&*s.u(run.user).id)
    {
        d.seat = seat(s, c);
        d.unit = Some(s.u(c).id.to_string());
    }
    d
}

fn run_question(s: &State, run: &Run) -> Option<Decision> {
    let u = run.user;
    let name = &action(s, run.key).name;
    match &run.stage {
        Stage::Choose => {
            let (opts, need, picked, _) = run.choice.as_ref()?;
            let options = opts
                .iter()
                .enumerate()
                .filter(|(k, _)| !picked.contains(&(*k as u8)))
                .map(|(k, o)| DecisionOption::new((k + 1).to_string(), o.name.clone()))
                .collect();
            ask(s, u, "choice", format!("{name}: pick {} more", *need as usize - picked.len()), options)
        }
        Stage::Target => {
            let t = effect_target(run.ops.get(run.i)?)?;
            let mut options = unit_options(s, &pickable(s, run, t));
            for p in copy_targets(s, run) {
                let of = crate::copies::owner(s, p).map_or("?", |o| &s.u(o).name);
                options
                    .push(DecisionOption::new(format!("copy:{}", p.key()), format!("the Copy of {of} at {}", p.key())));
            }
            if run.ops.get(run.i).is_some_and(optional) {
                options.push(DecisionOption::new("none", "nobody"));
            }
            ask(s, u, "target", format!("{name}: whom?"), options)
        }
        Stage::More => {
            let mut options = unit_options(s, &more_targets(s, run));
            options.push(DecisionOption::new("none", "no more targets"));
            let text = if matches!(run.ops.get(run.i).and_then(effect_target), Some(Target::SomeEnemiesSeen)) {
                format!("{name}: one more target?")
            } else {
                format!("{name}: one more target ({} left)?", run.more)
            };
            ask(s, u, "target", text, options)
        }
        Stage::Iron { t } => ask(
            s,
            *t,
            "iron",
            format!("{} is aimed at by {name}: spend Iron tokens?", s.u(*t).name),
            numbers(ironable(s, *t)),
        ),
        Stage::Power { max, .. } => {
            ask(s, u, "power", format!("{name}: pour Power tokens into the hit?"), numbers(*max))
        }
        Stage::Forced { mover, origin, push, left } => {
            let mut options: Vec<DecisionOption> = forced_squares(s, *mover, *origin, *push)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("to {}", q.key())))
                .collect();
            options.push(DecisionOption::new("stop", "stop here"));
            let what = if *push { "push" } else { "pull" };
            ask(s, u, "square", format!("{what} {} ({left} left)", s.u(*mover).name), options)
        }
        Stage::Square => {
            let mut options: Vec<DecisionOption> =
                squares(s, run).into_iter().map(|q| DecisionOption::square(q, q.key())).collect();
            // A teleport may stay; an ability's placing, or a further obstacle, may be passed up.
            if matches!(run.ops.get(run.i), Some(Effect::Teleport { .. })) || run.quiet || run.bonus_place {
                options.push(DecisionOption::new("stay", "stay"));
            }
            ask(s, u, "square", format!("{name}: where?"), options)
        }
        Stage::Steps { left } => {
            let mut options: Vec<DecisionOption> =
                step_squares(s, u).into_iter().map(|q| DecisionOption::square(q, format!("to {}", q.key()))).collect();
            // Akimbo's move after damage may not be let go while a square is open.
            if options.is_empty() || !crate::style_abilities::akimbo_must(s, run) {
                options.push(DecisionOption::new("stop", "stop here"));
            }
            ask(s, u, "square", format!("{name}: move ({left} left)"), options)
        }
        Stage::TokenPick { left } => {
            let t = run.tgt?;
            let mut options = held_tokens(s, t);
            // A token taken for yourself or copied is a counted one, never a Challenge.
            if matches!(
                run.ops.get(run.i),
                Some(
                    Effect::RemoveToken { steal: true, .. }
                        | Effect::RemoveToken { copy: true, .. }
                        | Effect::RemoveToken { to_power: true, .. }
                )
            ) {
                options.retain(|o| o.id != "challenge");
            }
            options.push(DecisionOption::new("stop", "take no more"));
            ask(s, u, "token", format!("{name}: take a token from {} ({left} left)", s.u(t).name), options)
        }
        Stage::Shield { new } if crate::style_abilities::zen_shields(s, run.tgt.unwrap_or(u)) => ask(
            s,
            run.tgt.unwrap_or(u),
            "shield",
            format!(
                "which Shield works, the {}-point one or the new {new}-point one?",
                s.u(run.tgt.unwrap_or(u)).shield
            ),
            vec![
                DecisionOption::new("keep", "keep the old one at work, the new one held"),
                DecisionOption::new("take", "put the new one to work, the old one held"),
            ],
        ),
        Stage::Shield { new } => ask(
            s,
            run.tgt.unwrap_or(u),
            "shield",
            format!("keep the {}-point Shield or take the {new}-point one?", s.u(run.tgt.unwrap_or(u)).shield),
            vec![
                DecisionOption::new("keep", "keep the old Shield"),
                DecisionOption::new("take", "take the new Shield"),
            ],
        ),
        Stage::KeepChallenge => {
            let t = run.tgt?;
            ask(
                s,
                t,
                "challenge",
                format!("{} already holds a Challenge: keep it or take {}'s?", s.u(t).name, s.u(u).name),
                vec![DecisionOption::new("keep", "keep the old one"), DecisionOption::new("take", "take the new one")],
            )
        }
        Stage::PayBasic { left } => {
            // The price as this unit pays it (Machine pays a mix in any Basic kind).
            let kinds = match price(s, u, run.key, action(s, run.key)) {
                Cost::Mix(k, _) => k,
                _ => vec![Token::Iron, Token::Power, Token::Speed],
            };
            let options = kinds
                .into_iter()
                .filter(|&t| spendable(s, u, t) > 0)
                .map(|t| DecisionOption::new(t.id(), format!("pay a {t} token")))
                .collect();
            ask(s, u, "pay", format!("{name}: pay {left} more Basic tokens"), options)
        }
        Stage::Shift { mover, left } => {
            let mut options: Vec<DecisionOption> = step_squares(s, *mover)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("to {}", q.key())))
                .collect();
            options.push(DecisionOption::new("stop", "stop here"));
            ask(s, u, "square", format!("{name}: move {} ({left} left)", s.u(*mover).name), options)
        }
        Stage::Buy => {
            let (opts, need, _, _) = run.choice.as_ref()?;
            let g = gate_of(s, u, run.key, action(s, run.key), run.x)?;
            let mut options = vec![DecisionOption::new(need.to_string(), format!("{need} pick(s), nothing more paid"))];
            for (k, &price) in g.buy.iter().enumerate() {
                let picks = *need as usize + k + 1;
                if s.u(u).basic() >= price as i32 && picks <= opts.len() {
                    options.push(DecisionOption::new(
                        picks.to_string(),
                        format!("{picks} picks for {price} Basic tokens"),
                    ));
                }
            }
            ask(s, u, "buy", format!("{name}: how many picks?"), options)
        }
        Stage::GainPick { left } => ask(
            s,
            u,
            "token",
            format!("{name}: gain which Basic token ({left} left)?"),
            [Token::Iron, Token::Power, Token::Speed]
                .into_iter()
                .map(|t| DecisionOption::new(t.id(), format!("gain a {t} token")))
                .collect(),
        ),
        Stage::Ready => None,
    }
}

/// The question `frame` puts.
pub fn question(s: &State, frame: &Frame) -> Option<Decision> {
    match frame {
        Frame::Pick { side } => {
            let us: Vec<u8> = s.meter.candidates(*side as usize, |_| true).map(|u| u as u8).collect();
            let options = unit_options(s, &us);
            (!options.is_empty()).then(|| Decision {
                seat: SIDES[*side as usize].into(),
                unit: None,
                kind: "pick".into(),
                prompt: format!("round {}: who of the {} takes this slot?", s.round, SIDES[*side as usize]),
                options,
            })
        }
        Frame::Stance { u } => {
            let options = stance_options(s, *u)
                .into_iter()
                .map(|i| {
                    let f = form_of(s, *u, i);
                    let extra = s.u(*u).stances[i].style.map_or(&[][..], |st| &s.content.styles[st].dice[..]);
                    let dice: Vec<String> = f.dice.iter().chain(extra).map(|d| d.to_string()).collect();
                    DecisionOption::new(
                        s.stance_id(*u, i),
                        format!("{} Stance ({})", s.stance_name(*u, i), dice.join(" ")),
                    )
                })
                .collect();
            ask(s, *u, "stance", format!("{}: which Stance this turn?", s.u(*u).name), options)
        }
        Frame::Start { u, stage: 1 } => {
            ask(s, *u, "vigilance", "Vigilance: heal, or shed a token?".into(), vigil_options(s, *u))
        }
        Frame::Start { u, stage: 2 } => ask(
            s,
            *u,
            "song",
            "Song: which song this turn?".into(),
            [Token::Iron, Token::Power, Token::Speed]
                .iter()
                .map(|t| DecisionOption::new(t.id(), format!("a song of {t}")))
                .collect(),
        ),
        Frame::Spirit { u } => {
            // D-OUT-6, D-G-36: an ally in play takes the numbers (D-OPT-2: maybe with a Bonus).
            let options = crate::heroic_spirit::options(s, *u);
            ask(s, *u, "spirit", format!("{} is out: who takes its numbers?", s.u(*u).name), options)
        }
        Frame::Act { u, .. } => {
            let pool = s.u(*u).pool.values().to_vec();
            ask(s, *u, "action", format!("{}'s turn, pool {pool:?}", s.u(*u).name), menu(s, *u))
        }
        Frame::Run(run) => run_question(s, run).map(|d| taken_over(s, run, d)),
        Frame::Boss { u, step } => crate::bosses::question(s, *u, step),
        Frame::Stooges { u, step } => crate::enemies::question(s, *u, step),
        Frame::SpendNow { u, n, aim } => {
            // The number is spent at once, whatever the one-Action limit (Reversal's Counter Attack).
            // A Stooge group keeps its own limit: once every member has acted it has only
            // Reinforcements (D-EN-5, D-EN-8), as when the Action is taken (`start_action`).
            let mut free = s.clone();
            if !crate::enemies::stooges(s, *u) {
                free.marks.acted.retain(|&w| w != *u);
            }
            let mut options = Vec::new();
            action_options_here(&free, *u, true, "", &mut options);
            let tail = format!(":{n}");
            options.retain(|o| o.id.ends_with(&tail) && !o.id.starts_with("chaos/"));
            // D-CLAR-4: Counter Attack's Action must be able to aim at the enemy.
            if let Some(t) = aim {
                options.retain(|o| {
                    let id = o.id.split(':').next().unwrap_or("");
                    actions_of(s, *u).into_iter().filter(|(_, a)| a.id == id).any(|(key, a)| {
                        gate_effects(s, *u, key, a, *n)
                            .iter()
                            .filter_map(|e| effect_target(e))
                            .any(|k| hostile(k) && candidates(s, *u, k, &[]).contains(t))
                    })
                });
            }
            ask(s, *u, "action", format!("{}: spend the {n} on an Action now", s.u(*u).name), options)
        }
        Frame::Edge { u } => {
            let mut options: Vec<DecisionOption> = step_squares(s, *u)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("back to {}", q.key())))
                .collect();
            options.push(DecisionOption::new("fall", "leave play"));
            ask(s, *u, "edge", format!("{} is over the Edge: spend Speed to step back?", s.u(*u).name), options)
        }
        Frame::Return { u, anywhere } => {
            let squares: Vec<Pos> =
                if *anywhere { s.map.squares().filter(|q| s.empty(*q)).collect() } else { border_squares(s) };
            // D-RNG-5: a big unit comes back where all of it fits.
            let squares: Vec<Pos> = squares.into_iter().filter(|&q| crate::big::fits_with(s, *u, q, false)).collect();
            let mut options: Vec<DecisionOption> =
                squares.into_iter().map(|q| DecisionOption::square(q, q.key())).collect();
            if !*anywhere {
                options.push(DecisionOption::new("stay", "stay out"));
            }
            ask(s, *u, "return", format!("{} comes back into the fight: where?", s.u(*u).name), options)
        }
        Frame::Bonus { u } => {
            let options = crate::stakes::pickable_bonuses(s)
                .into_iter()
                .map(|d| DecisionOption::new(d.id.clone(), format!("{}: {}", d.name, d.text)))
                .collect();
            ask(s, *u, "bonus", "Eye of the: which Bonus?".into(), options)
        }
        Frame::SpiritCopies { u, moved } => {
            let mut options: Vec<DecisionOption> = crate::style_abilities::spirit_moves(s, *u, moved)
                .into_iter()
                .map(|(c, q)| {
                    DecisionOption::new(
                        format!("copy:{}>{}", c.key(), q.key()),
                        format!("move the Copy at {} to {}", c.key(), q.key()),
                    )
                })
                .collect();
            options.push(DecisionOption::new("stop", "move no more Copies"));
            ask(s, *u, "spirit", "Spirit: move a Copy 1?".into(), options)
        }
        Frame::Flashy { u } => {
            let mut options: Vec<DecisionOption> = crate::style_abilities::flashy_pairs(s, *u)
                .into_iter()
                .map(|(a, b)| DecisionOption::new(format!("{a}+{b}"), format!("{a} and {b} become {}", a + b)))
                .collect();
            options.push(DecisionOption::new("keep", "keep the numbers"));
            ask(s, *u, "flashy", "Flashy: add two numbers into one?".into(), options)
        }
        Frame::Boost { u, left, focused } => {
            let values = s.u(*u).pool.at_least(i32::MIN);
            let mut options = Vec::new();
            if *focused {
                options.push(DecisionOption::new("all", "every number +1"));
            }
            let by = if *focused { 4 } else { 2 };
            options
                .extend(values.iter().map(|v| DecisionOption::new(v.to_string(), format!("{v} becomes {}", v + by))));
            ask(s, *u, "raise", format!("Wardancer: raise numbers ({left} left)"), options)
        }
        Frame::Control { user, passed } => {
            let (side, cs) = control_side(s, *user, *passed)?;
            let mut options: Vec<DecisionOption> = cs
                .iter()
                .map(|&c| DecisionOption::new(format!("{}/negate", s.u(c).id), format!("{} cancels it", s.u(c).name)))
                .collect();
            // The Untouchable may Counter instead (Boss Archetypes).
            options.extend(cs.iter().filter(|&&c| crate::bosses::counters(s, c)).map(|&c| {
                DecisionOption::new(
                    format!("{}/counter", s.u(c).id),
                    format!("{} turns it back on its user", s.u(c).name),
                )
            }));
            // D-CLAR-6: two Control tokens take the action over.
            options.extend(cs.iter().filter(|&&c| s.u(c).has(Token::Control) >= 2).map(|&c| {
                DecisionOption::new(
                    format!("{}/redirect", s.u(c).id),
                    format!("{} takes it over with two Control tokens", s.u(c).name),
                )
            }));
            options.push(DecisionOption::new("allow", "let it happen"));
            Some(Decision {
                seat: SIDES[side as usize].into(),
                unit: None,
                kind: "control".into(),
                prompt: format!("{} takes an action: cancel it with a Control token?", s.u(*user).name),
                options,
            })
        }
        Frame::Favor { user, passed } => {
            let side = crate::complications::favor_side(s, *user, favor_reach(s, *user), *passed)?;
            let team = SIDES[s.u(*user).side as usize];
            let mut options: Vec<DecisionOption> = crate::complications::favor_holders(s, *user, side)
                .iter()
                .map(|&v| {
                    DecisionOption::new(
                        format!("{}/favor", s.u(v).id),
                        format!("{} spends a Favor token naming the {team}", s.u(v).name),
                    )
                })
                .collect();
            options.push(DecisionOption::new("allow", "let it attack"));
            Some(Decision {
                seat: SIDES[side as usize].into(),
                unit: None,
                kind: "favor".into(),
                prompt: format!(
                    "{} attacks: turn it away from the {} for this turn with a Favor token?",
                    s.u(*user).name,
                    SIDES[side as usize]
                ),
                options,
            })
        }
        Frame::Window { active, phase, passed } => {
            let side = window_side(s, *active, *phase, *passed)?;
            let mut options = window_options(s, *active, *phase, side);
            options.push(DecisionOption::new("pass", "let the turn go on"));
            let when = ["starts", "goes on", "ends"][(*phase).min(2) as usize];
            Some(Decision {
                seat: SIDES[side as usize].into(),
                unit: None,
                kind: "window".into(),
                prompt: format!("{}'s turn {when}: act out of turn?", s.u(*active).name),
                options,
            })
        }
        _ => None,
    }
}

// ---------------------------------------------------------------- stepping frames

impl Resolve<State> for Frame {
    fn step(self, cx: &mut Ctx) -> Result<Flow, RuleError> {
        match self {
            Frame::Next => next(cx),
            Frame::Spirit { u } if question(cx.s, &self).is_none() => {
                // Nobody on its side is left to take the numbers: the slot passes.
                cx.push(Frame::End { u, slot: u, stage: 2 });
                Ok(Flow::Continue)
            }
            Frame::Pick { .. } | Frame::Spirit { .. } => Ok(cx.wait(self)),
            Frame::Stance { u } => {
                let opts = stance_options(cx.s, u);
                if opts.len() == 1 {
                    take_stance(cx, u, opts[0]);
                    Ok(Flow::Continue)
                } else {
                    Ok(cx.wait(self))
                }
            }
            Frame::Start { u, stage } => start(cx, u, stage),
            Frame::Act { u, slot } => {
                // Nothing but the turn's end, or nothing at all (Stooges whose numbers no longer
                // pay for their aimed Reinforcements): the turn ends.
                if cx.s.u(u).out || menu(cx.s, u).len() <= 1 {
                    end_turn(cx, u, slot);
                    return Ok(Flow::Continue);
                }
                Ok(cx.wait(Frame::Act { u, slot }))
            }
            Frame::Run(run) => step_run(cx, *run),
            Frame::End { u, slot, stage } => end(cx, u, slot, stage),
            Frame::SpendNow { u, n, .. } => {
                if question(cx.s, &self).is_some() {
                    return Ok(cx.wait(self));
                }
                // Nothing it may take: the number goes unspent.
                let who = cx.s.who(u);
                if cx.s.u(u).pool.values().contains(&n) {
                    cx.emit(Event::Spent { who, number: n });
                }
                Ok(Flow::Continue)
            }
            Frame::AmplifyDone { u } => {
                if cx.s.marks.amplified.iter().any(|a| a.0 == u) {
                    let who = cx.s.who(u);
                    cx.emit(Event::Amplified { who, stage: 0 });
                }
                Ok(Flow::Continue)
            }
            Frame::BackFromCopy { u } => {
                crate::copies::back(cx, u);
                Ok(Flow::Continue)
            }
            Frame::Boss { u, step } => crate::bosses::advance(cx, u, step),
            Frame::Stooges { u, step } => crate::enemies::advance(cx, u, step),
            Frame::StyleAfterAction { u } => {
                crate::style_abilities::action_over(cx, u);
                Ok(Flow::Continue)
            }
            Frame::Edge { .. } | Frame::Return { .. } => {
                if question(cx.s, &self).is_some() {
                    Ok(cx.wait(self))
                } else {
                    if let Frame::Edge { u } = self {
                        remove(cx, u);
                    }
                    Ok(Flow::Continue)
                }
            }
            Frame::Bonus { u } => {
                if cx.s.u(u).active() {
                    Ok(cx.wait(self))
                } else {
                    Ok(Flow::Continue)
                }
            }
            Frame::SpiritCopies { u, ref moved } => {
                if crate::style_abilities::spirit_moves(cx.s, u, moved).is_empty() {
                    Ok(Flow::Continue)
                } else {
                    Ok(cx.wait(self))
                }
            }
            Frame::Flashy { u } => {
                if crate::style_abilities::flashy_pairs(cx.s, u).is_empty() {
                    Ok(Flow::Continue)
                } else {
                    Ok(cx.wait(Frame::Flashy { u }))
                }
            }
            Frame::Boost { u, left, focused } => {
                if cx.s.u(u).pool.is_empty() || left == 0 {
                    Ok(Flow::Continue)
                } else {
                    Ok(cx.wait(Frame::Boost { u, left, focused }))
                }
            }
            Frame::Control { user, passed } => {
                if control_side(cx.s, user, passed).is_none() {
                    Ok(Flow::Continue)
                } else {
                    Ok(cx.wait(Frame::Control { user, passed }))
                }
            }
            Frame::Favor { user, passed } => {
                if crate::complications::favor_side(cx.s, user, favor_reach(cx.s, user), passed).is_none() {
                    Ok(Flow::Continue)
                } else {
                    Ok(cx.wait(Frame::Favor { user, passed }))
                }
            }
            Frame::Window { active, phase, passed } => {
                if window_side(cx.s, active, phase, passed).is_some() {
                    Ok(cx.wait(Frame::Window { active, phase, passed }))
                } else {
                    Ok(Flow::Continue)
                }
            }
        }
    }

    fn question(&self, s: &State) -> Option<Decision> {
        question(s, self)
    }

    fn answer(self, cx: &mut Ctx, option: &str) -> Result<(), RuleError> {
        let offered = question(cx.s, &self).is_some_and(|d| d.allows(option));
        if !offered {
            let frame = self;
            cx.push(frame);
            return Err(RuleError::malformed(format!("{option:?} is not an option now")));
        }
        match self {
            Frame::Pick { .. } => {
                let u = cx.s.find(option).ok_or_else(|| RuleError::malformed("no such unit"))?;
                let who = cx.s.who(u);
                cx.emit(Event::TurnStarted { who });
                cx.push(Frame::Stance { u });
            }
            Frame::Stance { u } => {
                let i = (0..cx.s.u(u).stances.len()).find(|&i| cx.s.stance_id(u, i) == option).unwrap_or(0);
                take_stance(cx, u, i);
            }
            Frame::Start { u, stage: 1 } => {
                if option == "heal" {
                    let n = cx.s.options.heal();
                    heal(cx, u, n);
                } else if option == "shed:challenge" {
                    let who = cx.s.who(u);
                    cx.emit(Event::Challenge { who, by: None });
                } else if let Some(t) = option.strip_prefix("shed:").and_then(Token::parse) {
                    lose(cx, u, t, 1, "Vigilance");
                }
                cx.push(Frame::Start { u, stage: 2 });
            }
            Frame::Start { u, stage } => {
                // stage 2: the song (Song Form)
                let t = Token::parse(option).unwrap_or(Token::Iron);
                let who = cx.s.who(u);
                cx.emit(Event::Sang { who, token: t });
                gain(cx, u, t, 3, "Song");
                for v in 0..cx.s.units.len() as u8 {
                    if v != u && !foes(cx.s, u, v) && cx.s.u(v).active() {
                        gain(cx, v, t, 1, "an ally's Song");
                    }
                }
                cx.push(Frame::Start { u, stage: stage + 1 });
            }
            Frame::Spirit { u } => {
                // D-OUT-6, D-G-04, D-G-36: the numbers go to the ally, who acts in its current
                // Stance; D-OPT-2: with a Bonus, the two lowest are dropped.
                let (id, bonus) = crate::heroic_spirit::parse(option);
                let to = cx.s.find(id).ok_or_else(|| RuleError::malformed("no such unit"))?;
                let (from_w, to_w) = (cx.s.who(u), cx.s.who(to));
                cx.emit(Event::Spirit { from: from_w.clone(), to: to_w.clone() });
                if cx.s.u(to).stance.is_none() {
                    take_stance(cx, to, 0);
                    cx.pop();
                }
                let numbers = crate::heroic_spirit::handed(cx.s.u(u).pool.values(), bonus);
                cx.emit(Event::PoolEmptied { who: from_w });
                cx.emit(Event::Rolled { who: to_w, numbers });
                cx.push(Frame::Act { u: to, slot: u });
                if let Some(b) = bonus {
                    crate::heroic_spirit::power_up(cx, to, b)?;
                }
            }
            Frame::Act { u, slot } => act(cx, u, slot, option)?,
            Frame::Edge { u } => match Pos::parse(option) {
                Some(q) => step(cx, u, q)?,
                None => remove(cx, u),
            },
            Frame::Return { u, .. } => {
                if let Some(q) = Pos::parse(option) {
                    let who = cx.s.who(u);
                    cx.emit(Event::Moved { who: who.clone(), to: q, how: "return" });
                    cx.emit(Event::Out { who, out: false });
                }
            }
            Frame::Bonus { u } => crate::stakes::take_bonus(cx, u, option)?,
            Frame::SpiritCopies { u, mut moved } => {
                if option != "stop" {
                    let (from, to) = option
                        .strip_prefix("copy:")
                        .and_then(|r| r.split_once('>'))
                        .and_then(|(a, b)| Some((Pos::parse(a)?, Pos::parse(b)?)))
                        .ok_or_else(|| RuleError::malformed("copy:x,y>x,y"))?;
                    crate::copies::step(cx, from, to);
                    moved.push(to);
                    cx.push(Frame::SpiritCopies { u, moved });
                }
            }
            Frame::Flashy { u } => {
                if let Some((a, b)) = option.split_once('+') {
                    let (a, b): (i32, i32) = (
                        a.parse().map_err(|_| RuleError::malformed("a number"))?,
                        b.parse().map_err(|_| RuleError::malformed("a number"))?,
                    );
                    let who = cx.s.who(u);
                    cx.emit(Event::Spent { who: who.clone(), number: b });
                    cx.emit(Event::Raised { who, from: a, to: a + b });
                }
            }
            Frame::Boost { u, left, focused } => {
                let who = cx.s.who(u);
                if option == "all" {
                    for v in cx.s.u(u).pool.values().to_vec() {
                        cx.emit(Event::Raised { who: who.clone(), from: v, to: v + 1 });
                    }
                } else {
                    let v: i32 = option.parse().map_err(|_| RuleError::malformed("a number"))?;
                    let to = v + if focused { 4 } else { 2 };
                    cx.emit(Event::Raised { who, from: v, to });
                    cx.push(Frame::Boost { u, left: left - 1, focused });
                }
            }
            Frame::Favor { user, passed } => {
                let side = crate::complications::favor_side(cx.s, user, favor_reach(cx.s, user), passed).unwrap_or(0);
                if let Some(id) = option.strip_suffix("/favor") {
                    let v = cx.s.find(id).ok_or_else(|| RuleError::malformed("no such unit"))?;
                    crate::complications::spend_favor(cx, v, user);
                } else {
                    cx.push(Frame::Favor { user, passed: passed | (1 << side) });
                }
            }
            Frame::Control { user, passed } => {
                if option == "allow" {
                    // In a three-way battle the other enemy side may still answer.
                    let side = control_side(cx.s, user, passed).map_or(0, |c| c.0);
                    cx.push(Frame::Control { user, passed: passed | (1 << side) });
                } else if let Some(id) = option.strip_suffix("/negate") {
                    let c = cx.s.find(id).ok_or_else(|| RuleError::malformed("no such unit"))?;
                    lose(cx, c, Token::Control, 1, "Control");
                    let (who, by) = (cx.s.who(user), cx.s.who(c));
                    cx.emit(Event::Negated { who, by });
                    // The action's run, just below, is dropped: the number stays spent.
                    if matches!(cx.top(), Some(Frame::Run(_))) {
                        cx.pop();
                    }
                } else if let Some(id) = option.strip_suffix("/redirect") {
                    let c = cx.s.find(id).ok_or_else(|| RuleError::malformed("no such unit"))?;
                    lose(cx, c, Token::Control, 2, "Control");
                    let (who, by) = (cx.s.who(user), cx.s.who(c));
                    cx.emit(Event::Redirected { who, by });
                    // The action's run, just below, goes on with `c` deciding and aiming.
                    if matches!(cx.top(), Some(Frame::Run(_)))
                        && let Some(Frame::Run(mut run)) = cx.pop()
                    {
                        run.by = Some(c);
                        cx.push(Frame::Run(run));
                    }
                } else if let Some(id) = option.strip_suffix("/counter") {
                    let c = cx.s.find(id).ok_or_else(|| RuleError::malformed("no such unit"))?;
                    if !crate::bosses::counters(cx.s, c) {
                        return Err(RuleError::malformed("only the Untouchable Counters"));
                    }
                    crate::bosses::counter(cx, user, c);
                }
            }
            Frame::Window { active, phase, passed } => {
                if option == "pass" {
                    let side = window_side(cx.s, active, phase, passed).unwrap_or(0);
                    cx.push(Frame::Window { active, phase, passed: passed | (1 << side) });
                } else {
                    let (id, rest) = option.split_once('/').ok_or_else(|| RuleError::malformed("unit/option"))?;
                    let v = cx.s.find(id).ok_or_else(|| RuleError::malformed("no such unit"))?;
                    // After anything done out of turn, both sides may answer it.
                    cx.push(Frame::Window { active, phase, passed: 0 });
                    if let Some(q) = Pos::parse(rest) {
                        step(cx, v, q)?;
                    } else if rest.starts_with("copy:") {
                        copy_step(cx, v, rest)?;
                    } else if rest.starts_with("puppet:") {
                        puppet_step(cx, v, rest)?;
                    } else if rest.starts_with("mate:") {
                        mate_step(cx, v, rest)?;
                    } else if rest == "inspire" {
                        lose(cx, v, Token::Inspired, 1, "Inspired");
                        let n = cx.roll(cx.s.options.inspired_die)? as i32;
                        let who = cx.s.who(active);
                        cx.emit(Event::Rolled { who, numbers: vec![n] });
                    } else {
                        start_action(cx, v, rest)?;
                    }
                }
            }
            Frame::Run(run) => answer_run(cx, *run, option)?,
            Frame::SpendNow { u, .. } => start_action(cx, u, option)?,
            Frame::Boss { u, step } => crate::bosses::answer(cx, u, step, option)?,
            Frame::Stooges { u, step } => crate::enemies::answer(cx, u, step, option)?,
            other => {
                cx.push(other);
                return Err(RuleError::malformed("nothing is asked"));
            }
        }
        Ok(())
    }
}

fn take_stance(cx: &mut Ctx, u: u8, i: usize) {
    let name = cx.s.stance_name(u, i);
    let who = cx.s.who(u);
    cx.emit(Event::StanceTaken { who, stance: i, name });
    cx.push(Frame::Start { u, stage: 0 });
    // D-G-28: leaving Bleeding at 0 HP is being Taken Out.
    if !cx.s.u(u).out && crate::style_abilities::at_zero(cx.s, u) && !crate::style_abilities::bleeding(cx.s, u) {
        take_out(cx, u);
    }
    // D-OPT-4: on its own turn, an Endless Stooge group's fresh Stooges come in first.
    if cx.s.turn == Some(u) {
        crate::endless_stooges::turn_start(cx, u);
    }
}

/// Nothing under way: a new round, the next slot (D-INIT-*; a unit with several bars has a
/// slot for each, D-INIT-3; out units keep theirs, D-INIT-5), or the end.
fn next(cx: &mut Ctx) -> Result<Flow, RuleError> {
    check_end(cx);
    if cx.s.outcome.is_some() {
        return Ok(Flow::Continue);
    }
    if cx.s.round == 0 {
        cx.emit(Event::RoundStarted { round: 1 });
        return Ok(Flow::Continue);
    }
    match cx.s.meter.side_to_pick(|_| true) {
        None if !cx.s.returns_asked => {
            // D-INIT-4, D-OUT-4, D-EN-9: the round ends; units out of play may come back.
            cx.emit(Event::ReturnsAsked);
            for u in (0..cx.s.units.len() as u8).rev() {
                let x = cx.s.u(u);
                // D-EN-9: Stooges never come back so (Super Stooges do, D-EN-10).
                let stays_gone = x.kind == Kind::Stooges && x.bars < 2;
                // D-G-05: only those out of play with HP left; a unit down at 0 HP on its square
                // comes back by healing alone.
                if x.out && x.at.is_none() && x.hp > 0 && !stays_gone {
                    cx.push(Frame::Return { u, anywhere: false });
                }
            }
        }
        None => {
            let limit = cx.s.options.round_limit;
            if limit > 0 && cx.s.round >= limit {
                cx.emit(Event::Ended { winner: None, why: format!("{limit} rounds are over") });
            } else {
                let round = cx.s.round + 1;
                cx.emit(Event::RoundStarted { round });
            }
        }
        Some(side) => {
            let us: Vec<u8> = cx.s.meter.candidates(side, |_| true).map(|u| u as u8).collect();
            if us.len() == 1 {
                let who = cx.s.who(us[0]);
                cx.emit(Event::TurnStarted { who });
                cx.push(Frame::Stance { u: us[0] });
            } else {
                cx.push(Frame::Pick { side: side as u8 });
            }
        }
    }
    Ok(Flow::Continue)
}

/// The start of `u`'s turn (D-TURN-1..3): Shadow's Speed, Vigilance, Song, then the roll
/// (D-TURN-3: healing comes before the roll).
fn start(cx: &mut Ctx, u: u8, stage: u8) -> Result<Flow, RuleError> {
    let x = cx.s.u(u);
    if stage == 0 && crate::enemies::ringed_out(x) {
        crate::enemies::ring_out_return(cx, u);
        return Ok(Flow::Continue);
    }
    // D-OUT-6, D-G-28: a unit Taken Out at 0 HP still on the map that takes a Bleeding Stance
    // is back in the fight at 0 HP (not healed), and plays a normal turn.
    if stage == 0 && x.out && crate::style_abilities::bleeding(cx.s, u) && crate::style_abilities::at_zero(cx.s, u) {
        let who = cx.s.who(u);
        cx.emit(Event::Out { who, out: false });
    }
    let x = cx.s.u(u);
    if stage == 0 && x.out {
        // D-OUT-6: a Stance that heals at the start gets it up for a normal turn.
        if cx.s.has_trait(u, Trait::Vigilant) && x.at.is_some() {
            let n = cx.s.options.heal();
            heal(cx, u, n);
            cx.push(Frame::Start { u, stage: 2 });
            return Ok(Flow::Continue);
        }
        roll(cx, u)?;
        cx.push(Frame::Spirit { u });
        return Ok(Flow::Continue);
    }
    match stage {
        0 => {
            if cx.s.has_trait(u, Trait::SpeedStartEnd) {
                gain(cx, u, Token::Speed, 2, "Shadow");
            }
            cx.push(Frame::Start { u, stage: 1 });
            // D-HC-9: a Frantic hero picks its ability for the turn first.
            if let Some(pick) = crate::archetypes::frantic_pick(cx.s, u) {
                cx.push(pick);
            }
            Ok(Flow::Continue)
        }
        1 => {
            if cx.s.has_trait(u, Trait::Vigilant) {
                if vigil_options(cx.s, u).len() > 1 {
                    return Ok(cx.wait(Frame::Start { u, stage: 1 }));
                }
                let n = cx.s.options.heal();
                heal(cx, u, n);
            }
            cx.push(Frame::Start { u, stage: 2 });
            Ok(Flow::Continue)
        }
        2 => {
            if cx.s.has_trait(u, Trait::Song) {
                return Ok(cx.wait(Frame::Start { u, stage: 2 }));
            }
            cx.push(Frame::Start { u, stage: 3 });
            Ok(Flow::Continue)
        }
        _ => {
            roll(cx, u)?;
            cx.push(Frame::Act { u, slot: u });
            cx.push(Frame::Window { active: u, phase: 0, passed: 0 });
            crate::archetypes::start(cx, u);
            crate::bosses::start(cx, u);
            crate::stakes::turn_start(cx);
            crate::style_abilities::start(cx, u);
            Ok(Flow::Continue)
        }
    }
}

/// The end of a turn (D-TURN-7, D-G-42 for the order): Fury's pushes, Vigilance, Shadow,
/// Burning, Traps, the Challenge check, Speed and the pool.
fn end(cx: &mut Ctx, u: u8, slot: u8, stage: u8) -> Result<Flow, RuleError> {
    let active = cx.s.u(u).active();
    match stage {
        0 => {
            cx.push(Frame::End { u, slot, stage: 1 });
            let later = cx.s.marks.later.clone();
            if !later.is_empty() {
                cx.emit(Event::LaterDone);
            }
            for &(by, t, n) in later.iter().rev() {
                if cx.s.u(t).active() && cx.s.u(by).at.is_some() {
                    let mut run =
                        Run::new(by, ActionKey::Basic(0), 0, vec![Effect::Push { n: Num::N(n), target: Target::Same }]);
                    run.current = Some(t);
                    run.quiet = true;
                    cx.push(Frame::Run(Box::new(run)));
                }
            }
        }
        1 => {
            cx.push(Frame::End { u, slot, stage: 2 });
            crate::archetypes::bumbling(cx);
            crate::archetypes::end(cx, u);
            crate::bosses::end(cx, u);
            crate::style_abilities::end(cx, u);
            crate::style_abilities::every_turn_end(cx);
            if active && cx.s.has_trait(u, Trait::Vigilant) {
                let give =
                    Effect::Give { token: Token::Weakness, n: Num::N(1), target: Target::Enemy, optional: false };
                let mut run = Run::new(u, ActionKey::Basic(0), 0, vec![give]);
                run.quiet = true;
                cx.push(Frame::Run(Box::new(run)));
            }
        }
        _ => {
            if active && cx.s.has_trait(u, Trait::SpeedStartEnd) {
                gain(cx, u, Token::Speed, 2, "Shadow");
            }
            // D-TOK-4: a Challenge goes once its holder hurt the challenger this turn.
            if let Some(c) = cx.s.u(u).challenge
                && cx.s.marks.damaged.contains(&(u, c))
            {
                let who = cx.s.who(u);
                cx.emit(Event::Challenge { who, by: None });
            }
            // D-TOK-5: Burning hurts at the end of the holder's own turn, then half goes. It is no hit,
            // so Armor does not touch it (D-G-44).
            let burning = cx.s.u(u).has(Token::Burning);
            if active && burning > 0 {
                // Phoenix: Burning heals instead.
                if crate::style_abilities::phoenix(cx.s, u) {
                    heal(cx, u, burning);
                } else {
                    hurt(cx, None, u, burning, false, false);
                }
                lose(cx, u, Token::Burning, (burning + 1) / 2, "Burning burns down");
            }
            if active {
                crate::style_abilities::burned(cx, u);
            }
            // D-OBS-5: everyone on a Trap takes 1 (each Stooge standing as a figure too).
            crate::enemies::on_traps(cx);
            for v in 0..cx.s.units.len() as u8 {
                if let Some(p) = cx.s.u(v).at
                    && cx.s.u(v).active()
                    && cx.s.obstacle(p) == Some(Obstacle::Trap)
                {
                    trapped(cx, v, p);
                }
            }
            let who = cx.s.who(slot);
            cx.emit(Event::TurnEnded { who });
            // D-MOVE-5: everyone drops Speed, save Stances that keep it.
            for v in 0..cx.s.units.len() as u8 {
                if cx.s.u(v).active() && !cx.s.has_trait(v, Trait::KeepSpeed) {
                    let n = cx.s.u(v).has(Token::Speed);
                    lose(cx, v, Token::Speed, n, "the turn ends");
                }
            }
            if !cx.s.has_trait(u, Trait::KeepPool) && !cx.s.u(u).pool.is_empty() {
                let who = cx.s.who(u);
                cx.emit(Event::PoolEmptied { who });
            }
        }
    }
    Ok(Flow::Continue)
}

/// `u` answers its turn's menu.
fn act(cx: &mut Ctx, u: u8, slot: u8, option: &str) -> Result<(), RuleError> {
    if option == "end-turn" {
        end_turn(cx, u, slot);
        return Ok(());
    }
    cx.push(Frame::Act { u, slot });
    if let Some(q) = Pos::parse(option) {
        step(cx, u, q)?;
        crate::enemies::after_step(cx, u);
        return Ok(());
    }
    // `stooge-figures`: another Stooge takes the lead for the next action (D-EN-5).
    if let Some(p) = option.strip_prefix("lead:").and_then(Pos::parse) {
        crate::enemies::lead(cx, u, p);
        return Ok(());
    }
    if option.starts_with("copy:") {
        return copy_step(cx, u, option);
    }
    if option.starts_with("puppet:") {
        return puppet_step(cx, u, option);
    }
    if option.starts_with("mate:") {
        return mate_step(cx, u, option);
    }
    if option == "train" {
        lose(cx, u, Token::Training, 1, "Training");
        let who = cx.s.who(u);
        cx.emit(Event::Trained { who: who.clone(), watch: false });
        cx.emit(Event::Aimed { who, on: true });
        // Watch Closely: the token spent this turn passes one on to an ally.
        if cx.s.marks.watching.contains(&u) {
            let give =
                Effect::Give { token: Token::Training, n: Num::N(1), target: Target::OtherAllySeen, optional: false };
            let mut run = Run::new(u, ActionKey::Basic(0), 0, vec![give]);
            run.quiet = true;
            cx.push(Frame::Run(Box::new(run)));
        }
        return Ok(());
    }
    cx.push(Frame::Window { active: u, phase: 1, passed: 0 });
    // Mastermind: an ally acts on its number, then it may move 1.
    if let Some(rest) = option.strip_prefix("mind:") {
        let (id, what) = rest.split_once('/').ok_or_else(|| RuleError::malformed("mind:ally/action"))?;
        let v = cx.s.find(id).ok_or_else(|| RuleError::malformed("no such ally"))?;
        let mut run = Run::new(u, ActionKey::Basic(0), 0, vec![Effect::Move { n: 1 }]);
        run.quiet = true;
        cx.push(Frame::Run(Box::new(run)));
        return start_action_paid(cx, v, what, u);
    }
    start_action(cx, u, option)
}

/// The turn ends: the last window, then the end's effects.
fn end_turn(cx: &mut Ctx, u: u8, slot: u8) {
    cx.push(Frame::End { u, slot, stage: 0 });
    if cx.s.u(u).active() {
        cx.push(Frame::Window { active: u, phase: 2, passed: 0 });
    }
}

/// A step of Free Movement to `q` (D-MOVE-1, D-MOVE-2): paid after it, never below 0.
fn step(cx: &mut Ctx, u: u8, q: Pos) -> Result<(), RuleError> {
    let at = cx.s.u(u).at.ok_or_else(|| RuleError::malformed("not on the map"))?;
    let cost = unit_step_cost(cx.s, u, at, q);
    enter(cx, u, q, "step");
    pay_steps(cx, u, cost, "Free Movement");
    crate::style_abilities::stepped_off(cx, u, at);
    // Spirit's Copies and Dance's pull after each space of Free Movement.
    crate::style_abilities::after_step(cx, u);
    if edge(cx.s, q) {
        over_edge(cx, u);
    }
    Ok(())
}

/// Whether `q` is Edge: beyond the map's border, or an Edge inside it (D-OBS-2, Black Hole).
fn edge(s: &State, q: Pos) -> bool {
    !s.map.contains(q) || s.obstacle(q) == Some(Obstacle::Edge)
}

/// `u` pays for the action `option` names (`id:N` or `id`) and it starts resolving.
fn start_action(cx: &mut Ctx, u: u8, option: &str) -> Result<(), RuleError> {
    start_action_paid(cx, u, option, u)
}

/// [`start_action`] with its number (or numbers) spent from `payer`'s pool (Mastermind's).
fn start_action_paid(cx: &mut Ctx, u: u8, option: &str, payer: u8) -> Result<(), RuleError> {
    let chaos = option.starts_with("chaos/");
    let option = option.strip_prefix("chaos/").unwrap_or(option);
    // Elder: a Unique Action of any of its Stances, nothing paid (L2672).
    let free = option.starts_with("elder/");
    let option = option.strip_prefix("elder/").unwrap_or(option);
    // D-OBS-1: `@x,y` takes it from a Copy's square; `#x,y` names the Copy paying for it.
    let (option, from) = crate::copies::split_square(option, '@');
    let (option, paid_copy) = crate::copies::split_square(option, '#');
    let (id, number, second) = match option.split_once(':') {
        Some((id, n)) => match n.split_once('&') {
            Some((a, b)) => (id, a.parse::<i32>().ok(), b.parse::<i32>().ok()),
            None => (id, n.parse::<i32>().ok(), None),
        },
        None => (option, None, None),
    };
    let listed = if free { crate::style_abilities::elder_actions(cx.s, u) } else { actions_of(cx.s, u) };
    let (key, a) = listed
        .into_iter()
        .find(|(_, a)| a.id == id)
        .map(|(k, a)| (k, a.clone()))
        .ok_or_else(|| RuleError::malformed(format!("no action {id}")))?;
    if let Some(p) = from {
        cx.push(Frame::BackFromCopy { u });
        crate::copies::act_from(cx, u, p);
    }
    let who = cx.s.who(u);
    if chaos {
        lose(cx, u, Token::Chaos, 1, "a 4 Action");
    } else if free {
        cx.emit(Event::FreeAction { who: who.clone() });
    } else if let Some(n) = number {
        let paid = cx.s.who(payer);
        cx.emit(Event::Spent { who: paid.clone(), number: n });
        if let Some(m) = second {
            cx.emit(Event::Spent { who: paid, number: m });
        }
    }
    let cost = if free { Cost::Gates(vec![0]) } else { price(cx.s, u, key, &a) };
    match &cost {
        Cost::Tokens(t, n) => pay(cx, u, *t, *n as i32),
        Cost::GainTokens(t, n) => gain(cx, u, *t, *n as i32, "paid"),
        Cost::Hp(n) => {
            // L1499: HP from the bar, past Armor and the Shield.
            hurt(cx, None, u, *n as i32, false, true);
        }
        Cost::Shield => {
            let who = cx.s.who(u);
            cx.emit(Event::Shielded { who: who.clone(), points: 0 });
            // Zen: a Shield held in reserve goes to work.
            if crate::style_abilities::zen_shields(cx.s, u) && !cx.s.u(u).spares.is_empty() {
                cx.emit(Event::ShieldToWork { who });
            }
        }
        Cost::Copy => {
            if let Some(p) = paid_copy.filter(|&p| crate::copies::owner(cx.s, p) == Some(u)) {
                crate::copies::destroy(cx, p);
            }
        }
        _ => {}
    }
    cx.emit(Event::Acted { who: who.clone(), action: key, name: a.name.clone(), number });
    if a.per_turn.is_some() {
        cx.emit(Event::Used { who, action: key });
    }
    let mut gate =
        gate_of(cx.s, u, key, &a, number.unwrap_or(0)).cloned().ok_or_else(|| RuleError::malformed("no gate"))?;
    // Take Aim: this Action has every number 1 higher, one more pick included; the aim is spent.
    if aimed(cx.s, u) > 0 {
        let w = cx.s.who(u);
        cx.emit(Event::Aimed { who: w, on: false });
        gate.effects.iter_mut().chain(gate.first.iter_mut()).for_each(sharpen);
        for o in gate.option.iter_mut() {
            o.effects.iter_mut().for_each(sharpen);
        }
        if gate.choose > 0 {
            gate.choose = (gate.choose + 1).min(gate.option.len() as u8);
        }
    }
    let mut run = Run::new(u, key, number.unwrap_or(0), Vec::new());
    run.spot = paid_copy;
    if gate.choose > 0 {
        run.choice = Some((gate.option.clone(), gate.choose, Vec::new(), gate.effects.clone()));
        // What comes first (Roughhousing's break) is done before the picks are asked.
        run.ops = gate.first.clone();
        run.stage = if run.ops.is_empty() { Stage::Choose } else { Stage::Ready };
        // Roughhousing and its kind: further picks bought with Basic tokens.
        if gate.buy.first().is_some_and(|&b| cx.s.u(u).basic() >= b as i32) {
            run.stage = Stage::Buy;
        }
    } else {
        run.ops = gate.first.iter().chain(gate.effects.iter()).cloned().collect();
    }
    // Ogres and Whip: a Throw reaching further or taking several enemies.
    crate::style_abilities::throw_reach(cx.s, u, &a.id, &mut run);
    let basic = match &cost {
        Cost::Basic(n) => Some((vec![Token::Iron, Token::Power, Token::Speed], *n)),
        Cost::Mix(k, n) => Some((k.clone(), *n)),
        _ => None,
    };
    if let Some((kinds, n)) = basic {
        let kinds: Vec<Token> = kinds.into_iter().filter(|&t| spendable(cx.s, u, t) > 0).collect();
        if kinds.len() == 1 {
            pay(cx, u, kinds[0], n as i32);
        } else {
            run.stage = Stage::PayBasic { left: n };
        }
    }
    let pierce = gate
        .effects
        .iter()
        .chain(gate.option.iter().flat_map(|o| o.effects.iter()))
        .any(|e| matches!(e, Effect::Damage { pierce: true, .. }));
    // D-CLAR-1: Blaster's one more target; Amplify's three more and 2 more range, for this Action.
    if cx.s.has_trait(u, Trait::ExtraTarget) {
        run.more += 1;
    }
    if cx.s.marks.amplified.contains(&(u, 1)) {
        let who = cx.s.who(u);
        cx.emit(Event::Amplified { who, stage: 2 });
        cx.push(Frame::AmplifyDone { u });
        run.more += 3;
    }
    crate::bosses::after_action(cx, u);
    let moves = run.ops.iter().map(|e| if let Effect::Move { n } = e { *n } else { 0 }).max().unwrap_or(0);
    crate::enemies::after_action(cx, u, key, moves);
    crate::style_abilities::after_action(cx, u);
    cx.push(Frame::Run(Box::new(run)));
    // D-TOK-7, D-CLAR-3: enemies in range may cancel it with Control, unless it pierces.
    if !pierce && !controllers(cx.s, u).is_empty() {
        cx.push(Frame::Control { user: u, passed: 0 });
    }
    // D-CMP-4: a side the Action may attack may spend a Favor token on it first.
    let attacks = gate
        .effects
        .iter()
        .chain(gate.first.iter())
        .chain(gate.option.iter().flat_map(|o| o.effects.iter()))
        .any(|e| matches!(e, Effect::Damage { .. }));
    if attacks && crate::complications::favor_side(cx.s, u, favor_reach(cx.s, u), 0).is_some() {
        cx.push(Frame::Favor { user: u, passed: 0 });
    }
    Ok(())
}

/// The side asked next whether to cancel `u`'s action with Control, and its units that may:
/// the sides in the meter's order after `u`'s, skipping those that let it happen (`passed`).
fn control_side(s: &State, u: u8, passed: u8) -> Option<(u8, Vec<u8>)> {
    let cs = controllers(s, u);
    crate::complications::others_first(s, s.u(u).side).into_iter().find_map(|side| {
        let ours: Vec<u8> = cs.iter().copied().filter(|&c| s.u(c).side == side).collect();
        (passed & (1 << side) == 0 && !ours.is_empty()).then_some((side, ours))
    })
}

/// The sides (a bit each) `u`'s Action may attack: those with a unit it could aim at as an
/// enemy, in range or in sight (D-CMP-4: who may spend a Favor token on it).
fn favor_reach(s: &State, u: u8) -> u8 {
    let mut reach = 0u8;
    for t in [Target::Enemies, Target::EnemySeen] {
        for v in candidates(s, u, t, &[]) {
            reach |= 1 << s.u(v).side;
        }
    }
    reach
}

/// The enemies of `u` that may cancel its action now (D-TOK-7): holding Control, not used this
/// turn, `u` in their range.
fn controllers(s: &State, u: u8) -> Vec<u8> {
    (0..s.units.len() as u8)
        .filter(|&c| {
            let (lo, hi) = range(s, c);
            foes(s, u, c)
                && s.u(c).active()
                && s.u(c).has(Token::Control) > 0
                && !s.marks.control.contains(&c)
                && within(s, c, u, lo, hi)
        })
        .collect()
}

// ---------------------------------------------------------------- actions resolving

fn wait_run(cx: &mut Ctx, run: Run) -> Result<Flow, RuleError> {
    if run_question(cx.s, &run).is_none() {
        // Nothing to ask after all: the effect (or a choice with nothing left) is skipped.
        let mut run = run;
        if run.stage == Stage::Choose {
            run.choice = None;
        }
        run.stage = Stage::Ready;
        run.i += 1;
        run.tgt = None;
        cx.push(Frame::Run(Box::new(run)));
        return Ok(Flow::Continue);
    }
    Ok(cx.wait(Frame::Run(Box::new(run))))
}

/// `t` is picked by `run` for the first time: it joins the picks, and Burning Style marks an enemy
/// its Action aims at.
fn pick(cx: &mut Ctx, run: &mut Run, t: u8) {
    // A Stooge group standing as figures: the Stooge aimed at takes the lead (a push moves it).
    if t != run.user && crate::enemies::figures(cx.s, t) {
        let nth = run.multi.as_ref().map_or(0, |m| m.iter().filter(|&&v| v == t).count());
        let kind = run.ops.get(run.i).and_then(effect_target).unwrap_or(Target::Enemy);
        if let Some(p) = aimed_stooge(cx.s, run.user, kind, t, nth) {
            crate::enemies::lead(cx, t, p);
        }
    }
    if !run.picked.contains(&t) {
        run.picked.push(t);
        if !run.quiet && foes(cx.s, run.user, t) {
            crate::style_abilities::aimed_at(cx, run.user, t);
            crate::style_abilities::precision_strip(cx, run.user, t);
        }
    }
}

/// The square of the Stooge of `t` that `user` aims at: its `nth` one in range and sight (the
/// group's unit's own first), else the nearest one in sight, else the nearest.
fn aimed_stooge(s: &State, user: u8, kind: Target, t: u8, nth: usize) -> Option<Pos> {
    let a = s.u(user).at?;
    let (lo, hi) = match kind {
        Target::Adjacent | Target::AdjacentEnemy | Target::EveryoneAdjacent | Target::AdjacentEnemies => (1, 1),
        Target::EnemyWithin4 => (1, 4),
        Target::EnemySeen | Target::EnemiesSeen | Target::SomeEnemiesSeen | Target::AllySeen | Target::AnyoneSeen => {
            (0, i32::MAX)
        }
        _ => range(s, user),
    };
    let mut all = crate::enemies::spots(s, t);
    let reach: Vec<Pos> =
        all.iter().copied().filter(|&b| (lo..=hi).contains(&dist(a, b)) && aim_at(s, user, t, b)).collect();
    if !reach.is_empty() {
        return Some(reach[nth % reach.len()]);
    }
    all.sort_by_key(|&b| (!aim_at(s, user, t, b), dist(a, b)));
    all.first().copied()
}

/// How many times an effect on every enemy of a kind hits `t`: once for each of its Stooges it
/// reaches when they stand as figures (D-EN-7: a hit on any of them hurts the group), else once.
fn hits_on(s: &State, user: u8, kind: Target, t: u8) -> usize {
    if t == user || !crate::enemies::figures(s, t) {
        return 1;
    }
    let Some(a) = s.u(user).at else { return 1 };
    let (lo, hi) = range(s, user);
    let n = crate::enemies::spots(s, t)
        .into_iter()
        .filter(|&b| match kind {
            Target::Enemies | Target::Everyone => (lo..=hi).contains(&dist(a, b)) && aim_at(s, user, t, b),
            Target::EnemiesSeen => aim_at(s, user, t, b),
            Target::EveryoneAdjacent | Target::AdjacentEnemies => dist(a, b) == 1,
            _ => false,
        })
        .count();
    n.max(1)
}

/// Moves on to the next effect (or the next target of a many-target effect).
fn advance(run: &mut Run) {
    run.stage = Stage::Ready;
    run.tgt = None;
    run.hit = 0;
    run.power = 0;
    if run.multi.as_ref().is_none_or(|m| m.is_empty()) {
        run.multi = None;
        run.i += 1;
        run.more_asked = false;
    }
    run.bonus_place = false;
}

/// The further units the effect under way may take (D-CLAR-1: new ones it could legally pick;
/// none for an effect on the user, on the unit before, or on every unit of a kind).
fn more_targets(s: &State, run: &Run) -> Vec<u8> {
    let Some(t) = run.ops.get(run.i).and_then(effect_target) else { return Vec::new() };
    if matches!(t, Target::Me | Target::Same) || every(t) {
        return Vec::new();
    }
    pickable(s, run, t)
        .into_iter()
        .filter(|v| Some(*v) != run.tgt && !run.multi.as_ref().is_some_and(|m| m.contains(v)))
        .collect()
}

fn step_run(cx: &mut Ctx, mut run: Run) -> Result<Flow, RuleError> {
    if run.stage != Stage::Ready {
        return wait_run(cx, run);
    }
    if cx.s.outcome.is_some() || !cx.s.u(run.user).active() && !run.quiet {
        return Ok(Flow::Continue);
    }
    let Some(op) = run.ops.get(run.i).cloned() else {
        if run.choice.is_some() {
            // The first effects are done: now the picks.
            run.stage = Stage::Choose;
            return wait_run(cx, run);
        }
        return Ok(Flow::Continue); // done
    };
    // Show Off: a Basic Action as if paid with the number spent, in place of this effect.
    if let Effect::Basic { id } = &op {
        let effects: Vec<Effect> =
            cx.s.content
                .basic
                .iter()
                .find(|a| a.id == *id)
                .and_then(|a| a.gate_for(run.x))
                .map_or_else(Vec::new, |g| g.first.iter().chain(g.effects.iter()).cloned().collect());
        let i = run.i;
        run.ops.splice(i..=i, effects);
        cx.push(Frame::Run(Box::new(run)));
        return Ok(Flow::Continue);
    }
    // Pick the effect's target first.
    if let Some(t) = effect_target(&op)
        && run.tgt.is_none()
    {
        match t {
            Target::Me => run.tgt = Some(run.user),
            Target::Same => match run.current.filter(|&c| cx.s.u(c).active()) {
                Some(_) if optional(&op) => {
                    run.stage = Stage::Target;
                    return wait_run(cx, run);
                }
                Some(c) => run.tgt = Some(c),
                None => {
                    advance(&mut run);
                    cx.push(Frame::Run(Box::new(run)));
                    return Ok(Flow::Continue);
                }
            },
            t if every(t) => {
                if run.multi.is_none() {
                    sweep_copies(cx, &run, &op);
                    let all = pickable(cx.s, &run, t);
                    let s = &*cx.s;
                    let user = run.user;
                    let each = all.into_iter().flat_map(|v| std::iter::repeat_n(v, hits_on(s, user, t, v)));
                    run.multi = Some(each.collect::<Vec<u8>>().into_iter().rev().collect());
                }
                match run.multi.as_mut().and_then(|m| m.pop()) {
                    Some(v) => run.tgt = Some(v),
                    None => {
                        run.multi = None;
                        advance(&mut run);
                        cx.push(Frame::Run(Box::new(run)));
                        return Ok(Flow::Continue);
                    }
                }
            }
            // A further target given by Blaster or Amplify (D-CLAR-1).
            _ if run.multi.as_ref().is_some_and(|m| !m.is_empty()) => {
                run.tgt = run.multi.as_mut().and_then(|m| m.pop());
            }
            _ => {
                let c = pickable(cx.s, &run, t);
                let optional = optional(&op);
                let copies = copy_targets(cx.s, &run);
                if c.is_empty() && copies.is_empty() {
                    advance(&mut run);
                    cx.push(Frame::Run(Box::new(run)));
                    return Ok(Flow::Continue);
                }
                if c.len() == 1 && !optional && copies.is_empty() {
                    run.tgt = Some(c[0]);
                } else {
                    run.stage = Stage::Target;
                    return wait_run(cx, run);
                }
            }
        }
        let t = run.tgt.unwrap_or(run.user);
        run.current = Some(t);
        pick(cx, &mut run, t);
    }
    // D-BA-8: Bring It On! takes as many more enemies it can see as its user likes.
    if matches!(effect_target(&op), Some(Target::SomeEnemiesSeen)) && !run.more_asked && run.tgt.is_some() {
        run.more = run.more.max(cx.s.units.len().min(u8::MAX as usize) as u8);
    }
    // D-CLAR-1: once its first target is picked, an effect may take more (Blaster, Amplify).
    if run.more > 0 && !run.more_asked && !run.quiet && run.tgt.is_some() {
        run.more_asked = true;
        if !more_targets(cx.s, &run).is_empty() {
            run.stage = Stage::More;
            return wait_run(cx, run);
        }
    }
    // D-TOK-1: an enemy aimed at by a hit or a push or pull may spend Iron, once an action.
    if let Some(t) = run.tgt
        && foes(cx.s, run.user, t)
        && !run.quiet
        && !(crate::style_abilities::piercing(cx.s, run.user).1 && matches!(op, Effect::Damage { .. }))
        && ironable(cx.s, t) > 0
        && !run.iron.iter().any(|(v, _, _)| *v == t)
        && matches!(
            op,
            Effect::Damage { pierce: false, reverse: false, .. } | Effect::Push { .. } | Effect::Pull { .. }
        )
    {
        run.stage = Stage::Iron { t };
        return wait_run(cx, run);
    }
    do_effect(cx, run, op)
}

/// The tokens `t` may spend as Iron: its Iron; a Fused Trickster's Basic tokens too; a Focused
/// Trickster's every token.
fn ironable(s: &State, t: u8) -> i32 {
    let x = s.u(t);
    let tokens = match crate::archetypes::has(s, t, "trickster") {
        Some(Variant::Focused) => x.tokens.iter().sum(),
        Some(_) => x.basic(),
        // Machine: any Basic token serves as Iron.
        None if crate::style_abilities::machine(s, t) => x.basic(),
        None => x.has(Token::Iron),
    };
    // Caged: Speed stays unspent (a Trickster's or Machine's counted it).
    let locked = if x.has(Token::Iron) < tokens { x.has(Token::Speed) - spendable(s, t, Token::Speed) } else { 0 };
    // Illusion: Copies may be spent as Iron; Unbreakable: an ally's Iron.
    tokens - locked + crate::copies::as_iron(s, t) + borrowed(s, t, Token::Iron)
}

/// `t` spends `n` tokens as Iron: Iron first, then (a Trickster) Speed, Power and the others in
/// the order tokens are listed (D-G-TRICKSTER: Fray picks which).
fn spend_as_iron(cx: &mut Ctx, t: u8, n: i32) {
    let mut left = n;
    let order = [Token::Iron, Token::Speed, Token::Power].into_iter().chain(TOKENS.into_iter().filter(|k| !k.basic()));
    for k in order {
        if left == 0 {
            break;
        }
        let take = left.min(spendable(cx.s, t, k));
        lose(cx, t, k, take, "Iron against an action");
        if k == Token::Iron {
            crate::style_abilities::spent_iron(cx, t, take);
        }
        left -= take;
    }
    // Unbreakable: an ally's Iron, before any Copy.
    let lent = left.min(borrowed(cx.s, t, Token::Iron));
    lend(cx, t, Token::Iron, lent, "Iron for an ally");
    crate::copies::spend_as_iron(cx, t, left - lent);
}

fn iron_cut(run: &mut Run, t: u8, amount: i32, damage: bool) -> i32 {
    match run.iron.iter_mut().find(|(v, _, _)| *v == t) {
        Some((_, d, m)) => {
            let pool = if damage { d } else { m };
            let cut = (*pool).min(amount);
            *pool -= cut;
            amount - cut
        }
        None => amount,
    }
}

/// Does effect `op` with its target picked (`run.tgt`): a simple action pays, then does its
/// effects in order (D-ACT-2).
fn do_effect(cx: &mut Ctx, mut run: Run, op: Effect) -> Result<Flow, RuleError> {
    let u = run.user;
    let t = run.tgt.unwrap_or(u);
    match op {
        Effect::Damage { reverse: true, amount, .. } => {
            run.hit = num(cx.s, &run, amount, t);
            land_hit(cx, run)
        }
        Effect::Damage { amount, pierce, any_power, .. } => {
            let mut dmg = num(cx.s, &run, amount, t);
            // D-TOK-6, D-G-32: Weakness takes 2 off each Damage effect the holder resolves, then one goes (not
            // Crosshair's).
            let crosshair = crate::style_abilities::piercing(cx.s, u).1;
            if !pierce && !crosshair && cx.s.u(u).has(Token::Weakness) > 0 {
                dmg = (dmg - 2).max(0);
                lose(cx, u, Token::Weakness, 1, "Weakness");
            }
            run.hit = dmg;
            // Dragon's Ego: any token serves as Power, up to 2 a hit.
            let dragon = crate::bosses::dragon(cx.s, u);
            // Machine: any Basic token serves as Power (L1882).
            let held = if dragon {
                crate::bosses::as_power(cx.s, u)
            } else if crate::style_abilities::machine(cx.s, u) {
                cx.s.u(u).basic() - cx.s.u(u).has(Token::Speed) + spendable(cx.s, u, Token::Speed)
            } else {
                cx.s.u(u).has(Token::Power)
            } + if dragon { 0 } else { borrowed(cx.s, u, Token::Power) };
            let max = if any_power {
                held
            } else if dragon {
                held.min(2)
            } else if cx.s.has_trait(u, Trait::PowerThree) {
                held.min(3)
            } else {
                held.min(1)
            };
            if max > 0 && !run.quiet {
                run.stage = Stage::Power { t, max };
                return wait_run(cx, run);
            }
            land_hit(cx, run)
        }
        Effect::Push { n, .. } | Effect::Pull { n, .. } => {
            let push = matches!(op, Effect::Push { .. });
            let n = n.of(run.x);
            let left = iron_cut(&mut run, t, n, false);
            start_forced(cx, run, t, left, push)
        }
        Effect::PushLater { n, .. } => {
            let (by, target) = (cx.s.who(u), cx.s.who(t));
            cx.emit(Event::PushLater { by, target, n });
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        Effect::Gain { token, n } => {
            let n = num(cx.s, &run, n, u);
            gain(cx, u, token, n, "an action");
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        Effect::Give { token, n, .. } => {
            let n = num(cx.s, &run, n, t);
            gain(cx, t, token, n, "given");
            // D-CMP-4: a friendly token for another side is help.
            if crate::complications::friendly(token) && n > 0 {
                crate::complications::helped(cx, u, t);
            }
            // Vampire: Power for Weakness given to an enemy.
            if token == Token::Weakness && foes(cx.s, u, t) {
                crate::style_abilities::gave_weakness(cx, u, n);
            }
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        // D-CLAR-8, D-G-16: Stand Strong's second heal may pick the same ally.
        Effect::Heal { n, .. } => {
            let n = n.unwrap_or(cx.s.options.heal());
            if cx.s.u(t).at.is_none() {
                // D-BA-9: an ally out of play heals and comes back where it likes.
                let x = cx.s.u(t);
                let hp = (x.hp + n).min(x.bar_max);
                let who = cx.s.who(t);
                cx.emit(Event::Healed { who, hp });
                advance(&mut run);
                cx.push(Frame::Run(Box::new(run)));
                cx.push(Frame::Return { u: t, anywhere: true });
                return Ok(Flow::Continue);
            }
            heal(cx, t, n);
            crate::complications::helped(cx, u, t);
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        Effect::Shield { n, .. } => {
            crate::complications::helped(cx, u, t);
            if cx.s.u(t).shield > 0 {
                run.stage = Stage::Shield { new: n };
                return wait_run(cx, run);
            }
            let who = cx.s.who(t);
            cx.emit(Event::Shielded { who, points: n });
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        // Burn It All Down: under the unit picked before, no question.
        Effect::Place { obstacle, under: true, .. } => {
            if let Some(p) = run.current.and_then(|c| cx.s.u(c).at) {
                cx.emit(Event::Obstacle { at: p, now: Some(obstacle) });
                run.placed.push(p);
            }
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        Effect::Teleport { .. }
        | Effect::Place { .. }
        | Effect::Destroy { .. }
        | Effect::Approach { .. }
        | Effect::Mark => {
            run.stage = Stage::Square;
            wait_run(cx, run)
        }
        Effect::Aim { .. } | Effect::Basic { .. } => {
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        // Ka-Boom!: every obstacle next to the target breaks.
        Effect::DestroyAround { .. } => {
            if let Some(p) = cx.s.u(t).at {
                for q in p.neighbours() {
                    if cx.s.obstacle(q).is_some() || crate::copies::owner(cx.s, q).is_some() {
                        let b = destroy(cx, q, 0);
                        broke(cx, u, b);
                    }
                }
            }
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        // Banshee's Wail: Traps and Walls in range turn to Rubble (D-G-WAIL: by distance).
        Effect::Crumble => {
            let (lo, hi) = range(cx.s, u);
            if let Some(at) = cx.s.u(u).at {
                let squares: Vec<Pos> = cx.s.map.squares().collect();
                for q in squares {
                    let o = cx.s.obstacle(q);
                    if (lo..=hi).contains(&dist(at, q)) && matches!(o, Some(Obstacle::Trap | Obstacle::Wall)) {
                        cx.emit(Event::Obstacle { at: q, now: Some(Obstacle::Rubble) });
                    }
                }
            }
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        Effect::Shift { n, .. } => {
            run.stage = Stage::Shift { mover: t, left: n };
            wait_run(cx, run)
        }
        Effect::DropChallenge { .. } => {
            if cx.s.u(t).challenge == Some(u) {
                let who = cx.s.who(t);
                cx.emit(Event::Challenge { who, by: None });
            }
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        // Follow My Lead: the ally does its part as its own, then the user's action goes on.
        Effect::Relay { effects, choose, mut option, .. } => {
            // Sing Along: a gift of the singer's song is a Gain of that token.
            let song = cx.s.songs.iter().find(|s| s.0 == u).map(|s| s.1);
            for o in option.iter_mut() {
                for e in o.effects.iter_mut() {
                    if let Effect::GainSong { n } = *e
                        && let Some(token) = song
                    {
                        *e = Effect::Gain { token, n: Num::N(n) };
                    }
                }
            }
            let key = run.key;
            let x = run.x;
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            // L8805: a twin handing on to its ally, the other twin: that one takes the lead.
            if t == u
                && let Some(p) = crate::figures::other_twin(cx.s, u)
            {
                crate::enemies::lead(cx, u, p);
            }
            let mut theirs = Run::new(t, key, x, Vec::new());
            if choose > 0 {
                // You Can Do It!: the ally makes the picks.
                theirs.choice = Some((option, choose, Vec::new(), effects));
                theirs.stage = Stage::Choose;
            } else {
                theirs.ops = effects;
            }
            cx.push(Frame::Run(Box::new(theirs)));
            Ok(Flow::Continue)
        }
        Effect::PickFrantic { id } => {
            if let Some(a) = cx.s.content.archetypes.iter().position(|x| x.id == id) {
                let who = cx.s.who(u);
                let name = cx.s.content.archetypes[a].name.clone();
                cx.emit(Event::FranticPicked { who, archetype: a, name });
            }
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        Effect::WatchClosely => {
            let who = cx.s.who(u);
            cx.emit(Event::Trained { who, watch: true });
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        Effect::Amplify => {
            let who = cx.s.who(u);
            cx.emit(Event::Amplified { who, stage: 1 });
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        Effect::TakeAim => {
            let who = cx.s.who(u);
            cx.emit(Event::Aimed { who, on: true });
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        Effect::GainSong { .. } => {
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        // Sing Along 6+: the number joins the pool, and the unit spends it now.
        Effect::SpendNow { n, aim } => {
            let n = num(cx.s, &run, n, u);
            let aim = if aim { run.current } else { None };
            let who = cx.s.who(u);
            cx.emit(Event::Rolled { who, numbers: vec![n] });
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            cx.push(Frame::SpendNow { u, n, aim });
            Ok(Flow::Continue)
        }
        Effect::AddNumber { n } => {
            let n = num(cx.s, &run, n, u);
            let who = cx.s.who(u);
            cx.emit(Event::Rolled { who, numbers: vec![n] });
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        Effect::GainBasic { n } => {
            run.stage = Stage::GainPick { left: n };
            wait_run(cx, run)
        }
        Effect::Move { n } => {
            run.stage = Stage::Steps { left: n };
            wait_run(cx, run)
        }
        Effect::Challenge { .. } => {
            match cx.s.u(t).challenge {
                Some(c) if c != u => {
                    run.stage = Stage::KeepChallenge;
                    return wait_run(cx, run);
                }
                Some(_) => {}
                None => challenge(cx, t, u),
            }
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
        Effect::RemoveToken { n, .. } => {
            run.stage = Stage::TokenPick { left: n };
            wait_run(cx, run)
        }
        Effect::Strip { token, n, .. } => {
            lose(cx, t, token, n, "taken away");
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
    }
}

/// The hit under way lands: damage with Power, Zen's answer, the push, One-Two's second hit.
fn land_hit(cx: &mut Ctx, mut run: Run) -> Result<Flow, RuleError> {
    let u = run.user;
    let t = run.tgt.unwrap_or(u);
    let Some(Effect::Damage { push, pierce, .. }) = run.ops.get(run.i).cloned() else {
        advance(&mut run);
        cx.push(Frame::Run(Box::new(run)));
        return Ok(Flow::Continue);
    };
    if matches!(run.ops.get(run.i), Some(Effect::Damage { reverse: true, .. })) {
        // Take It On The Chin: the target hits the user.
        hurt(cx, Some(t), u, run.hit, true, false);
        advance(&mut run);
        cx.push(Frame::Run(Box::new(run)));
        return Ok(Flow::Continue);
    }
    // Crosshair: past Armor, Shields and Iron; Overwhelming: past Armor; Precision: 1 more against
    // Armor or a Shield.
    let (no_armor, crosshair) = crate::style_abilities::piercing(cx.s, u);
    let raw = run.hit + run.power + crate::style_abilities::precision(cx.s, u, t, armored(cx.s, t));
    let dmg = if pierce || crosshair { raw } else { iron_cut(&mut run, t, raw, true) };
    let (dealt, to_shield) = hurt(cx, Some(u), t, dmg, !no_armor, pierce || crosshair);
    // Countered by the Untouchable: the hit lands on its user as well (once a hit).
    if run.countered && t != u {
        hurt(cx, Some(u), u, raw, true, pierce);
    }
    if !run.quiet && foes(cx.s, u, t) {
        crate::style_abilities::after_hit(cx, u, t, dealt, run.power);
        crate::style_abilities::after_hit_more(cx, u, t, dealt);
        if dealt > 0 {
            crate::style_abilities::explosion(cx, u, t);
        }
    }
    if !run.quiet {
        crate::style_abilities::dealt(cx, u, t, dealt);
    }
    // Illusion: an enemy hurting you in reach of your Copies is hurt back.
    if dealt > 0 && !pierce && foes(cx.s, u, t) {
        let r = range(cx.s, t);
        crate::copies::illusion(cx, t, u, r);
    }
    // Zen: an enemy that damages your Shield takes 1 (no answer to a piercing hit).
    if to_shield > 0 && !pierce && foes(cx.s, u, t) && cx.s.has_trait(t, Trait::ZenRetaliate) && cx.s.u(t).active() {
        hurt(cx, Some(t), u, 1, true, false);
    }
    if !run.quiet && foes(cx.s, u, t) {
        crate::archetypes::on_damage(cx, u, t, dealt);
        crate::bosses::on_damage(cx, u, dealt);
        // The Twins: the other twin strikes too when the enemy is in its range.
        let (lo, hi) = range(cx.s, u);
        let reach =
            cx.s.u(t).at.is_some_and(|b| cx.s.members.iter().any(|m| m.1 == u && (lo..=hi).contains(&dist(m.0, b))));
        crate::bosses::twin_strike(cx, u, t, dealt, reach);
    }
    // D-CLAR-2: One-Two strikes an enemy it damaged with an action once more for 1.
    let extra = dealt > 0
        && foes(cx.s, u, t)
        && !run.quiet
        && cx.s.has_trait(u, Trait::ExtraHit)
        && !run.extra.contains(&t)
        && cx.s.u(t).active();
    if extra {
        run.extra.push(t);
        let mut d = 1;
        if cx.s.u(u).has(Token::Weakness) > 0 {
            d = (d - 2).max(0);
            lose(cx, u, Token::Weakness, 1, "Weakness");
        }
        hurt(cx, Some(u), t, d, true, false);
    }
    let boosted = if push > 0 { push + run.power } else { 0 };
    let left = iron_cut(&mut run, t, boosted, false);
    // D-OPT-4: a Stooge the hit took out of play is not there to push.
    let gone = crate::endless_stooges::on(cx.s, t) && dealt > 0 && t != u;
    if left > 0 && cx.s.u(t).active() && !gone {
        return start_forced(cx, run, t, left, true);
    }
    advance(&mut run);
    cx.push(Frame::Run(Box::new(run)));
    Ok(Flow::Continue)
}

/// A push or pull of `left` spaces, after Iron (D-FMV-2; Rubble ends it as it goes).
fn start_forced(cx: &mut Ctx, mut run: Run, t: u8, left: i32, push: bool) -> Result<Flow, RuleError> {
    let origin = cx.s.u(run.user).at;
    let left = left - crate::bosses::forced_less(cx.s, t);
    // L8805: a twin pushing or pulling itself as an ally moves the other twin, which takes the
    // lead for it (the acting twin's square stays the origin).
    let twin = t == run.user && !run.quiet && left > 0 && {
        let ally = matches!(
            run.ops.get(run.i).and_then(effect_target),
            Some(Target::Ally | Target::OtherAlly | Target::Allies)
        );
        let (lo, hi) = range(cx.s, t);
        match crate::figures::other_twin(cx.s, t) {
            Some(p) if ally && crate::figures::twin_ally(cx.s, t, lo, hi, true, true) => {
                crate::enemies::lead(cx, t, p);
                true
            }
            _ => false,
        }
    };
    match origin {
        Some(origin) if left > 0 && cx.s.u(t).active() && (t != run.user || twin) => {
            run.stage = Stage::Forced { mover: t, origin, left, push };
            if forced_squares(cx.s, t, origin, push).is_empty() {
                advance(&mut run);
                cx.push(Frame::Run(Box::new(run)));
                return Ok(Flow::Continue);
            }
            wait_run(cx, run)
        }
        _ => {
            advance(&mut run);
            cx.push(Frame::Run(Box::new(run)));
            Ok(Flow::Continue)
        }
    }
}

fn answer_run(cx: &mut Ctx, mut run: Run, option: &str) -> Result<(), RuleError> {
    let u = run.user;
    match run.stage.clone() {
        Stage::Choose => {
            let k: u8 = option.parse::<u8>().map_err(|_| RuleError::malformed("pick by number"))? - 1;
            if let Some((opts, need, picked, after)) = run.choice.as_mut() {
                picked.push(k);
                if picked.len() >= *need as usize {
                    picked.sort_unstable(); // D-ACT-3: done in list order
                    let mut ops: Vec<Effect> = run.ops[run.i.min(run.ops.len())..].to_vec();
                    ops.extend(picked.iter().flat_map(|&k| opts[k as usize].effects.iter().cloned()));
                    ops.extend(after.iter().cloned());
                    run.ops = ops;
                    run.i = 0;
                    run.choice = None;
                    run.stage = Stage::Ready;
                }
            }
        }
        Stage::PayBasic { left } => {
            let t = Token::parse(option).ok_or_else(|| RuleError::malformed("a Basic token"))?;
            pay(cx, u, t, 1);
            run.stage = if left > 1 {
                Stage::PayBasic { left: left - 1 }
            } else if run.choice.is_some() && run.i >= run.ops.len() {
                Stage::Choose
            } else {
                Stage::Ready
            };
        }
        Stage::Target => {
            if option == "none" {
                run.multi = None;
                advance(&mut run);
            } else if let Some(p) = option.strip_prefix("copy:").and_then(Pos::parse) {
                // D-OBS-1: any damage breaks a Copy; the user's Weakness may leave none.
                let mut dmg = match run.ops.get(run.i) {
                    Some(Effect::Damage { amount, .. }) => num(cx.s, &run, *amount, u),
                    _ => 0,
                };
                if dmg > 0 && cx.s.u(u).has(Token::Weakness) > 0 {
                    dmg -= 2;
                    lose(cx, u, Token::Weakness, 1, "Weakness");
                }
                if dmg > 0 {
                    crate::copies::destroy(cx, p);
                }
                advance(&mut run);
            } else {
                let t = cx.s.find(option).ok_or_else(|| RuleError::malformed("no such unit"))?;
                run.tgt = Some(t);
                run.current = Some(t);
                pick(cx, &mut run, t);
                // The rest of the effect (further targets, Iron, the effect itself) follows.
                run.stage = Stage::Ready;
            }
        }
        Stage::More => {
            if option == "none" {
                run.stage = Stage::Ready;
            } else {
                let v = cx.s.find(option).ok_or_else(|| RuleError::malformed("no such unit"))?;
                run.multi.get_or_insert_with(Vec::new).insert(0, v);
                pick(cx, &mut run, v);
                run.more -= 1;
                run.stage =
                    if run.more > 0 && !more_targets(cx.s, &run).is_empty() { Stage::More } else { Stage::Ready };
            }
        }
        Stage::Iron { t } => {
            // D-G-02: the rules text's Iron, spent once an action against its whole damage and
            // movement.
            let n: i32 = option.parse().map_err(|_| RuleError::malformed("a number"))?;
            spend_as_iron(cx, t, n);
            run.iron.push((t, n, n));
            // Trickster: Iron that cuts damage lets the holder move 1 once the action is done
            // (Focused: after pushing the attacker 1).
            if n > 0
                && matches!(run.ops.get(run.i), Some(Effect::Damage { .. }))
                && let Some(v) = crate::archetypes::has(cx.s, t, "trickster")
            {
                let mut ops = vec![Effect::Move { n: 1 }];
                if v == Variant::Focused {
                    ops.insert(0, Effect::Push { n: Num::N(1), target: Target::Same });
                }
                let mut after = Run::new(t, ActionKey::Basic(0), 0, ops);
                after.current = Some(u);
                after.quiet = true;
                cx.push(Frame::Run(Box::new(after)));
            }
            run.stage = Stage::Ready;
            let op = run.ops[run.i].clone();
            return resume(cx, run, op);
        }
        Stage::Power { t, .. } => {
            // D-G-43: the push grows only on a hit that pushes (land_hit).
            let n: i32 = option.parse().map_err(|_| RuleError::malformed("a number"))?;
            if crate::bosses::dragon(cx.s, u) {
                crate::bosses::spend_as_power(cx, u, t, n);
            } else {
                let own = if crate::style_abilities::machine(cx.s, u) {
                    cx.s.u(u).basic()
                } else {
                    cx.s.u(u).has(Token::Power)
                };
                if crate::style_abilities::machine(cx.s, u) {
                    spend_as(cx, u, Token::Power, n, "Power into a hit");
                } else {
                    lose(cx, u, Token::Power, n, "Power into a hit");
                }
                // Unbreakable: an ally's Power for what its own did not cover.
                lend(cx, u, Token::Power, n - own, "Power into an ally's hit");
            }
            run.power = n;
            run.stage = Stage::Ready;
            return land_hit(cx, run).map(|_| ());
        }
        Stage::Forced { mover, origin, left, push } => {
            if option == "stop" {
                // Stopped short: the unit was still thrown, pushed or pulled (Rocket, Ogres, Whip).
                if push {
                    relentless_follow(cx, &run, None);
                    crate::style_abilities::pushed(cx, u, mover);
                }
                if !run.quiet && foes(cx.s, u, mover) {
                    let id = action(cx.s, run.key).id.clone();
                    crate::style_abilities::thrown(cx, u, mover, &id);
                }
                advance(&mut run);
                handcuff_drag(cx, mover);
            } else {
                let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("a square"))?;
                let left_from = cx.s.u(mover).at;
                // D-OPT-1: the Wall breaks to Rubble, which ends the movement below.
                if cx.s.obstacle(q) == Some(Obstacle::Wall) {
                    cx.emit(Event::Obstacle { at: q, now: Some(Obstacle::Rubble) });
                }
                enter(cx, mover, q, if push { "push" } else { "pull" });
                // D-RNG-5: a big unit is over the Edge only with all of it over Edges.
                let over =
                    if crate::big::big(cx.s, mover) { crate::big::all_over_edge(cx.s, mover) } else { edge(cx.s, q) };
                if over {
                    // Over the Edge: the push ends there.
                    advance(&mut run);
                    cx.push(Frame::Run(Box::new(run)));
                    over_edge(cx, mover);
                    return Ok(());
                }
                let rubble = cx.s.obstacle(q) == Some(Obstacle::Rubble);
                // D-OBS-4: Rubble ends it.
                if left > 1
                    && !rubble
                    && cx.s.u(mover).active()
                    && !forced_squares(cx.s, mover, origin, push).is_empty()
                {
                    run.stage = Stage::Forced { mover, origin, left: left - 1, push };
                } else {
                    // The push is over: Relentless follows into the square left, Rocket may
                    // teleport next to the unit pushed.
                    if push {
                        relentless_follow(cx, &run, left_from);
                        crate::style_abilities::pushed(cx, u, mover);
                    }
                    // Ogres, Whip: an enemy thrown (or by Whip, grappled) is hurt.
                    if !run.quiet && foes(cx.s, u, mover) {
                        let id = action(cx.s, run.key).id.clone();
                        crate::style_abilities::thrown(cx, u, mover, &id);
                    }
                    advance(&mut run);
                    handcuff_drag(cx, mover);
                }
                // Dance: a Throw or Grapple gives Speed for each space moved.
                let throw = matches!(action(cx.s, run.key).id.as_str(), "throw" | "grapple");
                if throw && !run.quiet && cx.s.has_trait(u, Trait::SpeedAfterThrow) {
                    gain(cx, u, Token::Speed, 1, "Dance");
                }
            }
        }
        Stage::Square => {
            let op = run.ops[run.i].clone();
            if option != "stay" {
                let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("a square"))?;
                match op {
                    Effect::Teleport { .. } | Effect::Approach { .. } => {
                        let mover = if matches!(op, Effect::Teleport { .. }) { run.tgt.unwrap_or(u) } else { u };
                        // D-RNG-5: a big unit lands whole, over Walls it crashes, with its riders.
                        if crate::big::big(cx.s, mover) {
                            crate::bosses::crash(cx, mover, q);
                            crate::big::carry(cx, mover, q);
                        }
                        let who = cx.s.who(mover);
                        cx.emit(Event::Moved { who, to: q, how: "teleport" });
                        if edge(cx.s, q) {
                            advance(&mut run);
                            cx.push(Frame::Run(Box::new(run)));
                            over_edge(cx, mover);
                            return Ok(());
                        }
                    }
                    // D-OBS-1: a Copy of the user; what follows counts from it (Splinter).
                    Effect::Place { obstacle: Obstacle::Copy, .. } => {
                        crate::copies::place(cx, u, q);
                        run.placed.push(q);
                        run.spot = Some(q);
                    }
                    Effect::Place { obstacle, around, .. } => {
                        cx.emit(Event::Obstacle { at: q, now: Some(obstacle) });
                        run.placed.push(q);
                        // Bombardment 6+: every map space next to it but Walls.
                        if around {
                            for p in q.neighbours() {
                                if cx.s.map.contains(p)
                                    && cx.s.obstacle(p) != Some(Obstacle::Wall)
                                    && !(obstacle == Obstacle::Wall && crate::big::covering(cx.s, p).is_some())
                                {
                                    cx.emit(Event::Obstacle { at: p, now: Some(obstacle) });
                                    run.placed.push(p);
                                }
                            }
                        }
                    }
                    Effect::Destroy { spread } => {
                        let b = destroy(cx, q, spread);
                        broke(cx, u, b);
                        run.spot = Some(q);
                    }
                    Effect::Mark => run.spot = Some(q),
                    _ => {}
                }
            }
            // D-CLAR-1: an obstacle-placing effect may put one more with an extra target to spare.
            let placed = option != "stay" && matches!(op, Effect::Place { .. });
            if placed && run.more > 0 && !run.bonus_place && !run.quiet {
                run.more -= 1;
                run.bonus_place = true;
            } else {
                advance(&mut run);
            }
        }
        Stage::Steps { left } => {
            if option == "stop" {
                advance(&mut run);
            } else {
                let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("a square"))?;
                enter(cx, u, q, "move");
                if edge(cx.s, q) {
                    advance(&mut run);
                    cx.push(Frame::Run(Box::new(run)));
                    over_edge(cx, u);
                    return Ok(());
                }
                if left > 1 && cx.s.u(u).active() {
                    run.stage = Stage::Steps { left: left - 1 };
                } else {
                    advance(&mut run);
                }
            }
        }
        Stage::TokenPick { left } => {
            let t = run.tgt.unwrap_or(u);
            if option == "stop" {
                advance(&mut run);
            } else {
                if option == "challenge" {
                    let who = cx.s.who(t);
                    cx.emit(Event::Challenge { who, by: None });
                    crate::style_abilities::removed(cx, u, 1);
                } else if let Some(k) = Token::parse(option)
                    && matches!(run.ops.get(run.i), Some(Effect::RemoveToken { copy: true, .. }))
                {
                    gain(cx, t, k, 1, "a copy");
                } else if let Some(k) = Token::parse(option) {
                    let (steal, to_power, all) = match run.ops.get(run.i) {
                        Some(Effect::RemoveToken { steal, to_power, all, .. }) => (*steal, *to_power, *all),
                        _ => (false, false, false),
                    };
                    let n = if all { cx.s.u(t).has(k) } else { 1 };
                    if !(to_power && !steal && k == Token::Power) {
                        lose(cx, t, k, n, "Put It Out!");
                        crate::style_abilities::removed(cx, u, n);
                    }
                    // Hunger: the user gains what it takes; Power Converter: as Power, or the
                    // target's turn to Power.
                    match (steal, to_power) {
                        (true, false) => gain(cx, u, k, n, "taken"),
                        (true, true) => gain(cx, u, Token::Power, n, "taken as Power"),
                        (false, true) if k != Token::Power => gain(cx, t, Token::Power, n, "turned to Power"),
                        _ => {}
                    }
                }
                if left > 1 && !held_tokens(cx.s, t).is_empty() {
                    run.stage = Stage::TokenPick { left: left - 1 };
                } else {
                    advance(&mut run);
                }
            }
        }
        // D-CLAR-5: one Shield kept, the holder's choice; Zen keeps the other in reserve.
        Stage::Shield { new } => {
            let t = run.tgt.unwrap_or(u);
            let zen = crate::style_abilities::zen_shields(cx.s, t);
            let who = cx.s.who(t);
            let old = cx.s.u(t).shield;
            if option == "take" {
                cx.emit(Event::Shielded { who: who.clone(), points: new });
            }
            if zen {
                let points = if option == "take" { old } else { new };
                cx.emit(Event::ShieldHeld { who, points });
            }
            advance(&mut run);
        }
        Stage::KeepChallenge => {
            let t = run.tgt.unwrap_or(u);
            if option == "take" {
                challenge(cx, t, u);
            }
            advance(&mut run);
        }
        Stage::Shift { mover, left } => {
            if option == "stop" {
                advance(&mut run);
            } else {
                let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("a square"))?;
                enter(cx, mover, q, "moved");
                if edge(cx.s, q) {
                    advance(&mut run);
                    cx.push(Frame::Run(Box::new(run)));
                    over_edge(cx, mover);
                    return Ok(());
                }
                if left > 1 && cx.s.u(mover).active() {
                    run.stage = Stage::Shift { mover, left: left - 1 };
                } else {
                    advance(&mut run);
                }
            }
        }
        Stage::Buy => {
            let picks: u8 = option.parse().map_err(|_| RuleError::malformed("a number of picks"))?;
            let g = gate_of(cx.s, u, run.key, action(cx.s, run.key), run.x)
                .cloned()
                .ok_or_else(|| RuleError::malformed("no gate"))?;
            let Some((_, need, _, _)) = run.choice.as_mut() else { return Err(RuleError::malformed("no choice")) };
            let price = if picks > *need { g.buy[(picks - *need - 1) as usize] } else { 0 };
            *need = picks;
            run.stage = if run.i >= run.ops.len() { Stage::Choose } else { Stage::Ready };
            if price > 0 {
                let kinds: Vec<Token> =
                    [Token::Iron, Token::Power, Token::Speed].into_iter().filter(|&t| cx.s.u(u).has(t) > 0).collect();
                if kinds.len() == 1 {
                    pay(cx, u, kinds[0], price as i32);
                } else {
                    run.stage = Stage::PayBasic { left: price };
                }
            }
        }
        Stage::GainPick { left } => {
            let t = Token::parse(option).ok_or_else(|| RuleError::malformed("a Basic token"))?;
            gain(cx, u, t, 1, "an action");
            if left > 1 {
                run.stage = Stage::GainPick { left: left - 1 };
            } else {
                advance(&mut run);
            }
        }
        Stage::Ready => {}
    }
    cx.push(Frame::Run(Box::new(run)));
    Ok(())
}

/// After a target or Iron answer: the effect itself.
fn resume(cx: &mut Ctx, run: Run, op: Effect) -> Result<(), RuleError> {
    do_effect(cx, run, op).map(|_| ())
}

/// Breaks the obstacle on `q` and `spread` rings of touching ones (D-BA-5, D-OBS-7; D-G-31:
/// the space left is plain floor).
fn destroy(cx: &mut Ctx, q: Pos, spread: u8) -> Vec<Pos> {
    let mut ring = vec![q];
    let mut all = vec![q];
    for _ in 0..spread {
        let mut next = Vec::new();
        for p in &ring {
            for n in p.neighbours() {
                let copy = crate::copies::owner(cx.s, n).is_some();
                if (cx.s.obstacle(n).is_some() || copy) && !all.contains(&n) {
                    all.push(n);
                    next.push(n);
                }
            }
        }
        ring = next;
    }
    let mut broken = Vec::new();
    for p in all {
        if crate::copies::owner(cx.s, p).is_some() {
            crate::copies::destroy(cx, p);
        } else {
            cx.emit(Event::Obstacle { at: p, now: None });
            broken.push(p);
        }
    }
    broken
}

/// `u` broke the obstacles on `squares`: its Style's answer to each (Explosion, Collateral).
fn broke(cx: &mut Ctx, u: u8, squares: Vec<Pos>) {
    for q in squares {
        crate::style_abilities::broke(cx, u, q);
    }
}
