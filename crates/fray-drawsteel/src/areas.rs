//! Areas that need a square chosen (DS-AREA-3, DS-AREA-4, DS-GAP-8): a cube placed with its
//! corner square within reach and in line of effect, a line running from the user toward a
//! chosen neighbouring square. Auras and bursts are centred on the user ([`crate::actions`]).

use crate::model::{AbilityDef, Distance};
use crate::state::{Cx, State, Terrain};
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::sight::Sight;

/// The squares of an area placed at `square`, or `None` if it cannot go there.
pub fn squares(s: &State, c: Cx, a: &AbilityDef, square: Pos) -> Option<Vec<Pos>> {
    let me = s.c(c);
    let (p, size) = (me.pos?, me.size.squares);
    match a.distance {
        Distance::Cube { size: n, within } => {
            // The cube's top-left square must be within reach and in line of effect (DS-GAP-8).
            if distance(p, size, square, 1) > within {
                return None;
            }
            let origin_seen = crate::abilities::sight_between(s, p, size, square, 1) != Sight::Blocked;
            if !origin_seen && distance(p, size, square, 1) > 0 {
                return None;
            }
            Some(
                (0..n)
                    .flat_map(|dy| (0..n).map(move |dx| square.offset(dx, dy)))
                    .filter(|&q| s.terrain_at(q) != Terrain::Edge)
                    .collect(),
            )
        }
        Distance::Line { length, width } => {
            // A direction: toward a square next to the user's space.
            if distance(p, size, square, 1) != 1 {
                return None;
            }
            let dir = ((square.x - p.x).signum(), (square.y - p.y).signum());
            let mut out = Vec::new();
            for i in 0..length {
                let base = square.offset(dir.0 * i, dir.1 * i);
                if s.terrain_at(base) == Terrain::Wall {
                    break; // areas do not pass through solid barriers (DS-GAP-8)
                }
                for w in 0..width {
                    // Widen sideways: across the direction of travel.
                    let q = if dir.0 == 0 {
                        base.offset(w, 0)
                    } else if dir.1 == 0 {
                        base.offset(0, w)
                    } else {
                        base.offset(w * dir.0.signum(), 0)
                    };
                    if s.terrain_at(q) != Terrain::Wall && s.terrain_at(q) != Terrain::Edge {
                        out.push(q);
                    }
                }
            }
            Some(out)
        }
        _ => None,
    }
}

/// Whether the area can go at `square` and covers some square there: `squares` giving a
/// list that is not empty, without building it. `sight`: [`crate::abilities::sight_between`]
/// ([`crate::abilities::with_sights`]).
fn offered(
    s: &State,
    c: Cx,
    a: &AbilityDef,
    square: Pos,
    sight: &mut dyn FnMut(crate::abilities::SightKey) -> Sight,
) -> bool {
    let me = s.c(c);
    let Some(p) = me.pos else { return false };
    let size = me.size.squares;
    let answer = match a.distance {
        Distance::Cube { size: n, within } => {
            let d = distance(p, size, square, 1);
            d <= within
                && (d == 0 || sight((p, size, square, 1)) != Sight::Blocked)
                && (0..n).any(|dy| (0..n).any(|dx| s.terrain_at(square.offset(dx, dy)) != Terrain::Edge))
        }
        Distance::Line { length, width } => {
            distance(p, size, square, 1) == 1 && {
                let dir = ((square.x - p.x).signum(), (square.y - p.y).signum());
                (0..length)
                    .map(|i| square.offset(dir.0 * i, dir.1 * i))
                    .take_while(|&base| s.terrain_at(base) != Terrain::Wall)
                    .any(|base| {
                        (0..width).any(|w| {
                            let q = if dir.0 == 0 {
                                base.offset(w, 0)
                            } else if dir.1 == 0 {
                                base.offset(0, w)
                            } else {
                                base.offset(w * dir.0.signum(), 0)
                            };
                            s.terrain_at(q) != Terrain::Wall && s.terrain_at(q) != Terrain::Edge
                        })
                    })
            }
        }
        _ => false,
    };
    debug_assert_eq!(answer, squares(s, c, a, square).is_some_and(|v| !v.is_empty()));
    answer
}

/// The map's squares, row by row, that [`offered`] may accept: those within reach of the user
/// (a cube's), or beside it (a line's); none for other areas.
fn candidates<'a>(s: &'a State, c: Cx, a: &AbilityDef) -> impl Iterator<Item = Pos> + 'a {
    let me = s.c(c);
    let reach = match (me.pos, a.distance) {
        (Some(_), Distance::Cube { within, .. }) => Some(within),
        (Some(_), Distance::Line { .. }) => Some(1),
        _ => None,
    };
    let (p, size) = (me.pos.unwrap_or(Pos::new(0, 0)), me.size.squares);
    let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
    let (xs, ys) = match reach {
        Some(r) => ((p.x - r).max(0)..(p.x + size + r).min(w), (p.y - r).max(0)..(p.y + size + r).min(h)),
        None => (0..0, 0..0),
    };
    ys.flat_map(move |y| xs.clone().map(move |x| Pos::new(x, y)))
}

/// Squares the area may be placed at (for the menu).
pub fn placements(s: &State, c: Cx, a: &AbilityDef) -> Vec<Pos> {
    let found: Vec<Pos> =
        crate::abilities::with_sights(s, |sight| candidates(s, c, a).filter(|&q| offered(s, c, a, q, sight)).collect());
    debug_assert_eq!(
        found,
        crate::abilities::with_sights(s, |sight| s
            .arena
            .terrain
            .squares()
            .filter(|&q| offered(s, c, a, q, sight))
            .collect::<Vec<_>>())
    );
    found
}

/// Whether [`placements`] offers any square, looked for only until the first.
pub fn any_placement(s: &State, c: Cx, a: &AbilityDef) -> bool {
    crate::abilities::with_sights(s, |sight| {
        let mut offered = |q: Pos| offered(s, c, a, q, sight);
        // The user's own square first: a cube there needs no line of effect (one of the
        // squares looked for, so the answer is the same).
        if let Some(p) = s.c(c).pos
            && s.arena.terrain.get(p).is_some()
            && offered(p)
        {
            return true;
        }
        let found = candidates(s, c, a).any(&mut offered);
        debug_assert_eq!(found, s.arena.terrain.squares().any(&mut offered));
        found
    })
}

/// The creatures an area placed at `square` catches, by the ability's target kind.
pub fn targets(s: &State, c: Cx, a: &AbilityDef, square: Pos) -> Vec<Cx> {
    let Some(area) = squares(s, c, a, square) else { return Vec::new() };
    s.active()
        .filter(|&t| match a.target {
            crate::model::TargetKind::Enemies => s.enemies(c, t),
            crate::model::TargetKind::Allies => !s.enemies(c, t),
            crate::model::TargetKind::Myself => t == c,
            crate::model::TargetKind::Creatures => t != c,
        })
        .filter(|&t| {
            let x = s.c(t);
            area.iter().any(|&q| distance(x.pos.unwrap(), x.size.squares, q, 1) == 0)
        })
        .collect()
}
