//! Elevation and cover on the battle map (C-BAT-HEIGHT, C-BAT-COVER, C-BAT-20), and the glossary
//! terms that work through them: Massive, Camouflage, Leaping Move, Levitating Move, Gather
//! Courage. The guide names these ideas but gives no numbers; every number here is a table
//! option (docs/rulings/collision.md, "Elevation and cover").

use crate::battle::{MoveKind, State};
use crate::rules::{dist, effect_cost};
use fray_core::grid::Pos;

/// Whether `u` has Levitating Move (C-GL-LEVITATING-MOVE).
pub fn levitates(s: &State, u: u8) -> bool {
    effect_cost(s, u, "Levitating Move").is_some()
}

/// Whether `u` has Leaping Move (C-GL-LEAPING-MOVE).
pub fn leaps(s: &State, u: u8) -> bool {
    // C-GL-POUNCE: a pounce moves as with Leaping Move.
    effect_cost(s, u, "Leaping Move").is_some() || s.u(u).pouncing
}

/// The level `u` moves and attacks from: its square's, one higher with Levitating Move
/// (C-GL-LEVITATING-MOVE).
pub fn level(s: &State, u: u8) -> i32 {
    s.u(u).at.map_or(0, |p| s.height(p)) + i32::from(levitates(s, u))
}

/// The level `t` counts as when attacked, for cover: its square's, one higher when Massive
/// (C-GL-MASSIVE).
pub fn cover_level(s: &State, t: u8) -> i32 {
    s.u(t).at.map_or(0, |p| s.height(p)) + i32::from(effect_cost(s, t, "Massive").is_some())
}

/// The squares strictly between `a` and `b` on the straight line joining their centres.
pub fn between(a: Pos, b: Pos) -> Vec<Pos> {
    let n = dist(a, b);
    (1..n)
        .map(|i| {
            let x = a.x as f64 + f64::from(b.x - a.x) * f64::from(i) / f64::from(n);
            let y = a.y as f64 + f64::from(b.y - a.y) * f64::from(i) / f64::from(n);
            Pos::new(x.round() as i32, y.round() as i32)
        })
        .collect()
}

/// How high a square stands in the way of an attack line: its ground, one more for an
/// obstacle, and without limit for impassable terrain (C-BAT-COVER, Fray's reading).
fn top(s: &State, p: Pos) -> i32 {
    if !s.open(p) { i32::MAX } else { s.height(p) + i32::from(s.is_cover(p)) }
}

/// Whether `t` is in partial cover from an attacker at `from` on level `from_level`: some
/// square on the line between stands higher than both the attacker's level and the level `t`
/// counts as when attacked (C-BAT-COVER, C-GL-MASSIVE; Fray's reading).
pub fn partial_cover_from(s: &State, from: Pos, from_level: i32, t: u8) -> bool {
    let Some(to) = s.u(t).at else { return false };
    let over = from_level.max(cover_level(s, t));
    between(from, to).into_iter().any(|p| top(s, p) > over)
}

/// Whether `t` is in partial cover from attacker `a`.
pub fn partial_cover(s: &State, a: u8, t: u8) -> bool {
    s.u(a).at.is_some_and(|from| partial_cover_from(s, from, level(s, a), t))
}

/// Whether `t` has total cover against an attack by `a` through Camouflage: 4 or more spaces
/// away (C-GL-CAMOUFLAGE).
pub fn camouflaged(s: &State, a: u8, t: u8) -> bool {
    effect_cost(s, t, "Camouflage").is_some() && matches!((s.u(a).at, s.u(t).at), (Some(p), Some(q)) if dist(p, q) >= 4)
}

/// Att `a` gains against `t` for attacking from higher ground: when its level is above the
/// target's square (C-BAT-HEIGHT, inferred size `high-ground`).
pub fn high_ground(s: &State, a: u8, t: u8) -> i32 {
    let below = s.u(t).at.map_or(0, |p| s.height(p));
    if level(s, a) > below { s.options.high_ground } else { 0 }
}

/// Gather Courage's test: every enemy on the table would give `u` cover when attacking it
/// (C-GL-GATHER-COURAGE; Fray's reading: partial cover, or Camouflage's total cover).
pub fn sheltered(s: &State, u: u8) -> bool {
    let side = s.u(u).side;
    s.standing().filter(|&e| s.u(e).side != side).all(|e| partial_cover(s, e, u) || camouflaged(s, e, u))
}

/// The spaces a step from `p` onto `q` costs `u` (C-BAT-20, inferred): 1, plus `climb-cost`
/// per level climbed above the level it moves at, plus `obstacle-cost` onto an obstacle
/// (Leaping and Levitating Move ignore obstacles); `None` when the climb is too high (more
/// than 1 level above the level it moves at). Leaping Move compares only where a movement
/// starts and ends, so its steps here ignore heights ([`destinations`] checks the end).
pub(crate) fn step_cost(s: &State, u: u8, p: Pos, q: Pos) -> Option<i32> {
    let free_of_obstacles = leaps(s, u) || levitates(s, u);
    let obstacle = if s.is_cover(q) && !free_of_obstacles { s.options.obstacle_cost } else { 0 };
    if leaps(s, u) {
        return Some(1 + obstacle);
    }
    let climb = s.height(q) - (s.height(p) + i32::from(levitates(s, u)));
    if climb > 1 {
        return None;
    }
    Some(1 + obstacle + climb.max(0) * s.options.climb_cost)
}

/// The squares a movement action of `kind` can end on, with their climbing and obstacle costs
/// (C-BAT-6b, C-BAT-20); enemies block unless [`crate::abilities::passes`] lets `u` through.
pub fn destinations(s: &State, u: u8, kind: MoveKind) -> Vec<Pos> {
    let Some(from) = s.u(u).at else { return Vec::new() };
    let side = s.u(u).side;
    // C-GL-INSPIRE-URGENCY: Move +1 for a move started within a friend's aura.
    let range = kind.spaces(s.card(u).stats.mv + i32::from(crate::abilities::aura(s, u, "Inspire Urgency", false)));
    let w = s.width as usize;
    let mut best = vec![i32::MAX; w * s.height as usize];
    best[from.y as usize * w + from.x as usize] = 0;
    let mut frontier = vec![from];
    while let Some(p) = frontier.pop() {
        let here = best[p.y as usize * w + p.x as usize];
        for q in p.neighbours() {
            if !s.open(q) {
                continue;
            }
            // C-GL-LEAPING-MOVE, C-GL-LEVITATING-MOVE: some may pass through enemies.
            if s.at(q).is_some_and(|o| s.u(o).side != side && !crate::abilities::passes(s, u, o)) {
                continue;
            }
            let Some(c) = step_cost(s, u, p, q) else { continue };
            let i = q.y as usize * w + q.x as usize;
            if here + c <= range && here + c < best[i] {
                best[i] = here + c;
                frontier.push(q);
            }
        }
    }
    let start = s.height(from);
    let mut out: Vec<Pos> = (0..s.height)
        .flat_map(|y| (0..s.width).map(move |x| Pos::new(x, y)))
        .filter(|&q| q != from && best[q.y as usize * w + q.x as usize] <= range && s.at(q).is_none())
        .filter(|&q| {
            if !leaps(s, u) {
                return true;
            }
            // C-GL-LEAPING-MOVE: up to two levels above the start, climbing paid once.
            let up = s.height(q) - start;
            up <= 2 && best[q.y as usize * w + q.x as usize] + up.max(0) * s.options.climb_cost <= range
        })
        .collect();
    out.sort_unstable_by_key(|p| (p.y, p.x));
    out
}

/// The terrain squares next to `u` that Wreck can destroy: impassable, obstacle or raised
/// squares, each a 1×1 piece (C-GL-WRECK; Fray's maps have no objective terrain).
pub fn wreck_squares(s: &State, u: u8) -> Vec<Pos> {
    let Some(at) = s.u(u).at else { return Vec::new() };
    let inside = |p: Pos| p.x >= 0 && p.y >= 0 && p.x < s.width && p.y < s.height;
    let mut out: Vec<Pos> = at
        .neighbours()
        .into_iter()
        // C-GL-WRECK: never an objective square (C-BAT-22).
        .filter(|&p| inside(p) && !crate::objectives::is_objective(s, p))
        .filter(|&p| !s.open(p) || s.is_cover(p) || s.height(p) > 0)
        .collect();
    out.sort_unstable_by_key(|p| (p.y, p.x));
    out
}

/// Wreck (C-GL-WRECK): `u` rolls D10 + Tuf; on 8 or more the square at `p` becomes open
/// ground at level 0.
pub fn wreck(cx: &mut crate::rules::Cx, u: u8, p: Pos) -> Result<(), fray_core::ruleset::RuleError> {
    let n = cx.d10()? as i32;
    let tuf = cx.s.card(u).stats.tuf;
    let uid = cx.s.u(u).id.clone();
    let done = n + tuf >= 8;
    cx.log(|| {
        format!(
            "{uid} tries to wreck the terrain at {}: {n} + Tuf {tuf} = {}{} (C-GL-WRECK)",
            p.key(),
            n + tuf,
            if done { ", it is destroyed" } else { ", it holds (8 needed)" }
        )
    });
    if done {
        let i = (p.y * cx.s.width + p.x) as usize;
        std::sync::Arc::make_mut(&mut cx.s.walls)[i] = false;
        std::sync::Arc::make_mut(&mut cx.s.cover)[i] = false;
        std::sync::Arc::make_mut(&mut cx.s.heights)[i] = 0;
    }
    Ok(())
}

/// Whether `p` is bare ground: on the map, open, level 0 and no obstacle (Upheaval's pieces
/// can't overlap other terrain).
fn bare(s: &State, p: Pos) -> bool {
    s.open(p) && s.height(p) == 0 && !s.is_cover(p)
}

/// The pieces Upheaval can raise next to `u`, as (option id, description) (C-GL-UPHEAVAL):
/// `wall-X,Y` a 1×1 impassable piece 2 high (not on a character), `hill-X,Y` a 1×1 piece 1 high,
/// `obstacle-X,Y-X2,Y2` a 2×1 obstacle with its first square next to `u` (Fray's reading).
/// The side's previous piece does not count as terrain here, since it goes.
pub fn upheaval_pieces(s: &State, u: u8) -> Vec<(String, String)> {
    let Some(at) = s.u(u).at else { return Vec::new() };
    let mine = &s.upheaval[s.u(u).side as usize];
    let free = |p: Pos| bare(s, p) || mine.contains(&p);
    let mut around: Vec<Pos> = at.neighbours().into_iter().filter(|&p| free(p)).collect();
    around.sort_unstable_by_key(|p| (p.y, p.x));
    let mut out = Vec::new();
    for p in around {
        let k = p.key();
        if s.at(p).is_none() {
            out.push((format!("wall-{k}"), format!("an impassable piece 2 high at {k}")));
        }
        out.push((format!("hill-{k}"), format!("a level-1 rise at {k}")));
        for q in [p.offset(1, 0), p.offset(0, 1)] {
            if free(q) && q != at {
                out.push((format!("obstacle-{k}-{}", q.key()), format!("an obstacle over {k} and {}", q.key())));
            }
        }
    }
    out
}

/// Upheaval (C-GL-UPHEAVAL): removes the side's previous piece, then raises piece `id` from
/// [`upheaval_pieces`].
pub fn upheaval(cx: &mut crate::rules::Cx, u: u8, id: &str) -> Result<(), fray_core::ruleset::RuleError> {
    let bad = || fray_core::ruleset::RuleError::malformed(format!("{id}: no such terrain piece"));
    let (kind, rest) = id.split_once('-').ok_or_else(bad)?;
    let squares: Vec<Pos> = match kind {
        "obstacle" => {
            let mut parts = rest.split('-');
            let a = parts.next().and_then(Pos::parse).ok_or_else(bad)?;
            let b = parts.next().and_then(Pos::parse).ok_or_else(bad)?;
            vec![a, b]
        }
        _ => vec![Pos::parse(rest).ok_or_else(bad)?],
    };
    let side = cx.s.u(u).side as usize;
    let uid = cx.s.u(u).id.clone();
    let w = cx.s.width;
    let old = std::mem::take(&mut cx.s.upheaval[side]);
    for p in &old {
        let i = (p.y * w + p.x) as usize;
        std::sync::Arc::make_mut(&mut cx.s.walls)[i] = false;
        std::sync::Arc::make_mut(&mut cx.s.cover)[i] = false;
        std::sync::Arc::make_mut(&mut cx.s.heights)[i] = 0;
    }
    if !old.is_empty() {
        cx.log(|| format!("{uid}'s side's previous Upheaval piece is removed (C-GL-UPHEAVAL)"));
    }
    for p in &squares {
        let i = (p.y * w + p.x) as usize;
        match kind {
            "wall" => {
                std::sync::Arc::make_mut(&mut cx.s.walls)[i] = true;
                std::sync::Arc::make_mut(&mut cx.s.heights)[i] = 2;
            }
            "hill" => std::sync::Arc::make_mut(&mut cx.s.heights)[i] = 1,
            _ => std::sync::Arc::make_mut(&mut cx.s.cover)[i] = true,
        }
    }
    let what = match kind {
        "wall" => "an impassable piece 2 high",
        "hill" => "a level-1 rise",
        _ => "a 2x1 obstacle",
    };
    let at: Vec<String> = squares.iter().map(|p| p.key()).collect();
    cx.log(|| format!("{uid} raises {what} at {} (C-GL-UPHEAVAL)", at.join(" and ")));
    cx.s.upheaval[side] = squares;
    Ok(())
}

/// Falling damage (C-BAT-20; the size is Fray's reading, `falling=2`): a move, Haste's or
/// Pounce's move or a knockback that ends 2 or more levels below where it started is a fall;
/// the character takes a Mundane hit at Pow `falling` per level. Levitating Move never falls
/// (C-GL-LEVITATING-MOVE).
pub fn fall(cx: &mut crate::rules::Cx, u: u8, from: Option<Pos>) -> Result<(), fray_core::ruleset::RuleError> {
    let (Some(from), Some(to)) = (from, cx.s.u(u).at) else { return Ok(()) };
    let drop = cx.s.height(from) - cx.s.height(to);
    if drop < 2 || cx.s.options.falling == 0 || levitates(cx.s, u) {
        return Ok(());
    }
    let pow = cx.s.options.falling * drop;
    let id = cx.s.u(u).id.clone();
    cx.log(|| format!("{id} falls {drop} levels: a Pow {pow} Mundane hit (C-BAT-20)"));
    if crate::abilities::immune(cx.s, u, "Mundane") {
        cx.log(|| format!("{id} is Immune to Mundane (C-GL-IMMUNE)"));
        return Ok(());
    }
    let hurt = crate::rules::injury_roll(cx, u, pow, 0, "Mundane")?;
    crate::rules::wound(cx, u, hurt, None)
}
