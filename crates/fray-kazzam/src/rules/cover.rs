//! Cover, sight and concealment (K-COV, K-CONC, K-LARGE-5, K-LARGE-6): whether an attacker
//! has a shot, whether the target has cover from it, and whether it is Concealed.

use crate::engine::arena::Terrain;
use crate::engine::records::statuses::StatusKind;
use crate::engine::state::{State, UnitIdx};
use fray_core::geometry::distance;
use fray_core::grid::{Pos, footprint};
use fray_core::sight::{Sight, sight};

/// Whether square `q` stops lines drawn at `target` (K-COV-5, K-COV-10, K-COV-12, K-COV-13):
/// walls and Full Cover always; Low Cover only by table option, or beside a Prone target.
/// `walls` are the squares of the walls on the map (`summons::wall_squares`), gathered once a shot.
fn blocks_for(s: &State, walls: &[Pos], target: UnitIdx, q: Pos) -> bool {
    blocks_with(s, walls, target, q, true)
}

/// [`blocks_for`], Low Cover counted only when `low` (Draw a Bead ignores it).
fn blocks_with(s: &State, walls: &[Pos], target: UnitIdx, q: Pos, low: bool) -> bool {
    let t = s.arena.at(q);
    if t.blocks_sight() || walls.contains(&q) {
        return true;
    }
    if low && t.is_low_cover() {
        if s.options.low_cover_intervenes {
            return true;
        }
        let tu = s.unit(target);
        if let Some(tp) = tu.pos {
            return s.has(target, StatusKind::Prone) && distance(tp, tu.size, q, 1) == 1;
        }
    }
    false
}

/// A shot judged while [`remembering`]: from, size, target, sight.
type Judged = (Pos, i32, UnitIdx, Sight);

thread_local! {
    /// Shots already judged while [`remembering`].
    static SHOTS: std::cell::RefCell<Option<Vec<Judged>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f`, which reads one state and changes nothing, judging each shot in it once (a menu
/// asks the same shooter about the same target for each of its powers).
pub fn remembering<R>(f: impl FnOnce() -> R) -> R {
    struct Forget(bool);
    impl Drop for Forget {
        fn drop(&mut self) {
            if self.0 {
                SHOTS.with(|m| *m.borrow_mut() = None);
            }
        }
    }
    let outermost = SHOTS.with(|m| {
        let mut m = m.borrow_mut();
        let fresh = m.is_none();
        if fresh {
            *m = Some(Vec::new());
        }
        fresh
    });
    let _forget = Forget(outermost);
    f()
}

/// How a shooter at `from` (footprint `size`) sees `target` (K-COV-8, K-COV-9, K-LARGE-4).
pub fn shot(s: &State, from: Pos, size: i32, target: UnitIdx) -> Sight {
    let known = SHOTS.with(|m| {
        m.borrow().as_ref().map(|v| v.iter().find(|k| k.0 == from && k.1 == size && k.2 == target).map(|k| k.3))
    });
    match known {
        Some(Some(sight)) => sight,
        Some(None) => {
            let sight = judge_shot(s, from, size, target);
            SHOTS.with(|m| m.borrow_mut().as_mut().map(|v| v.push((from, size, target, sight))));
            sight
        }
        None => judge_shot(s, from, size, target),
    }
}

fn judge_shot(s: &State, from: Pos, size: i32, target: UnitIdx) -> Sight {
    let tu = s.unit(target);
    let Some(tp) = tu.pos else {
        return Sight::Blocked;
    };
    if crate::rules::query::curtain_between(s, from, size, tp, tu.size) {
        return Sight::Blocked; // Curtain of Shadows
    }
    let walls = crate::rules::query::wall_squares(s);
    let judge = || sight(from, size, tp, tu.size, |q| blocks_for(s, &walls, target, q));
    if !walls.is_empty() {
        return judge();
    }
    // With no wall raised, what blocks is the arena's terrain, the Low Cover option and whether
    // the target lies Prone (`blocks_for`): judged once per arena.
    let extra = u8::from(s.options.low_cover_intervenes) | u8::from(s.has(target, StatusKind::Prone)) << 1;
    SIGHTS.with(|m| {
        let mut m = m.borrow_mut();
        if !m.as_ref().is_some_and(|(arena, _)| std::sync::Arc::ptr_eq(arena, &s.arena)) {
            *m = Some((s.arena.clone(), fray_core::sight::Memo::default()));
        }
        let (_, memo) = m.as_mut().expect("just set");
        memo.get_or(from, size, tp, tu.size, extra, judge)
    })
}

thread_local! {
    /// Shots judged on an arena with no wall raised, with the arena they were judged on.
    /// Holding the arena keeps it shared, so a change to its terrain (copy on write,
    /// `Arc::make_mut`) makes a new one: while the pointer is the same, the terrain is too.
    static SIGHTS: std::cell::RefCell<Option<(std::sync::Arc<crate::engine::arena::Arena>, fray_core::sight::Memo)>> =
        const { std::cell::RefCell::new(None) };
}

/// Cover squares pressed against (K-COV-3): terrain that a creature can take cover behind.
/// Low Cover counts only when `count_low` (Draw a Bead ignores it).
fn cover_square_with(s: &State, target: UnitIdx, q: Pos, count_low: bool) -> bool {
    let t = s.arena.at(q);
    let low = count_low && t.is_low_cover() && !s.has(target, StatusKind::Hovering); // K-ST-Hovering
    low || matches!(t, Terrain::FullCover | Terrain::Blocking | Terrain::Exit) || crate::rules::query::wall_at(s, q)
}

/// Whether `target` is taking cover against an attack from `from` (K-COV-4, K-COV-5,
/// K-COV-11): cover beside it orthogonally protects the half-plane beyond that side, cover at
/// a corner the quarter-plane beyond that corner. A 2×2 creature needs cover along a whole
/// side; larger creatures cannot take cover.
pub fn takes_cover(s: &State, target: UnitIdx, from: Pos) -> bool {
    takes_cover_with(s, target, from, true)
}

/// [`takes_cover`], Low Cover counted only when `low`.
fn takes_cover_with(s: &State, target: UnitIdx, from: Pos, low: bool) -> bool {
    let tu = s.unit(target);
    let Some(tp) = tu.pos else { return false };
    let size = tu.size;
    if size > 2 {
        return false;
    }
    // Position of the attacker relative to the target's footprint, per axis: -1, 0 or +1.
    let rel = |a: i32, t0: i32| {
        if a < t0 {
            -1
        } else if a > t0 + size - 1 {
            1
        } else {
            0
        }
    };
    let (rx, ry) = (rel(from.x, tp.x), rel(from.y, tp.y));
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        // Only a side facing the attacker can protect (tested first: it is cheaper).
        if !((dx != 0 && rx == dx) || (dy != 0 && ry == dy)) {
            continue;
        }
        // The squares along that whole side.
        let along = |i: i32| {
            let x = match dx {
                1 => tp.x + size,
                -1 => tp.x - 1,
                _ => tp.x + i,
            };
            let y = match dy {
                1 => tp.y + size,
                -1 => tp.y - 1,
                _ => tp.y + i,
            };
            Pos::new(x, y)
        };
        if (0..size).all(|i| cover_square_with(s, target, along(i), low)) {
            return true;
        }
    }
    if size == 1 {
        for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            if rx == dx && ry == dy && cover_square_with(s, target, tp.offset(dx, dy), low) {
                return true;
            }
        }
    }
    false
}

/// Whether an attack from `from` faces cover on `target` (K-ADV-5): intervening cover or cover
/// the target takes. Revealed targets have none (K-ST-Revealed).
pub fn has_cover(s: &State, from: Pos, size: i32, target: UnitIdx) -> bool {
    if s.has(target, StatusKind::Revealed) {
        return false;
    }
    shot(s, from, size, target) == Sight::Cover || footprint(from, size).all(|q| takes_cover(s, target, q))
}

/// Whether `target` is Concealed (K-CONC-1): by status, or standing wholly in fog
/// (K-LARGE-5). Revealed targets are not (K-ST-Revealed).
pub fn concealed(s: &State, target: UnitIdx) -> bool {
    if s.has(target, StatusKind::Revealed) {
        return false;
    }
    let tu = s.unit(target);
    s.has(target, StatusKind::Concealed)
        || crate::rules::query::concealed_by_zone(s, target)
        || crate::rules::query::darkfly_conceals(s, target)
        || tu.pos.is_some_and(|p| footprint(p, tu.size).all(|q| s.arena.at(q) == Terrain::Fog))
}

/// Whether an attack from `from` faces cover on `target` other than Low Cover (Draw a Bead
/// ignores Low Cover, pedestals included).
pub fn has_cover_beyond_low(s: &State, from: Pos, size: i32, target: UnitIdx) -> bool {
    if s.has(target, StatusKind::Revealed) {
        return false;
    }
    let tu = s.unit(target);
    let Some(tp) = tu.pos else { return false };
    let walls = crate::rules::query::wall_squares(s);
    sight(from, size, tp, tu.size, |q| blocks_with(s, &walls, target, q, false)) == Sight::Cover
        || footprint(from, size).all(|q| takes_cover_with(s, target, q, false))
}

/// Whether `target` is Concealed from `viewer`: Concealed as such ([`concealed`]), or by a
/// Cloak or Gas that hides it from enemies farther than some distance (role_actions.rs).
pub fn concealed_from(s: &State, target: UnitIdx, viewer: UnitIdx) -> bool {
    concealed(s, target) || crate::rules::query::concealed_at_distance(s, target, viewer)
}

/// Whether Draw a Bead lets `attacker` ignore the cover `target` has against an attack from
/// `from` (size `size`): all of it from level 4, otherwise as long as only Low Cover is left.
pub fn bead_clears_cover(s: &State, attacker: UnitIdx, target: UnitIdx, from: Pos, size: i32) -> bool {
    match crate::rules::query::bead(s, attacker, target) {
        Some(a) if a >= 2 => true,
        Some(_) => !has_cover_beyond_low(s, from, size, target),
        None => false,
    }
}
