//! Big units (D-RNG-5, D-G-22): the Giant fills a 2 by 2 block, the Vehicle the shape the
//! Director draws for it (the enemy file's or scenario's `shape`, a list of offsets from its
//! square). The unit's own square (`Unit::at`) is the shape's anchor, offset (0, 0); every other
//! square follows it. `State::shapes` holds the offsets of each big unit, set as the fight is set
//! up, so nothing here looks the Archetypes up on a hot path.
//!
//! What the rules ask of a big unit, all here: which squares it covers, how far it is from a
//! square or a unit (D-G-22: from the nearest square it covers), whether it fits on a new anchor
//! (a move, push, pull or return moves the whole block), its riders (D-RNG-5: the Vehicle's
//! units on top move with it) and its Edges (gone only with every square over one).

use crate::content::Obstacle;
use crate::state::{Ctx, Event, State};
use fray_core::grid::Pos;

/// The squares a big unit fills, as offsets `(dx, dy)` from its own square.
pub type Shape = Vec<(i32, i32)>;

/// D-RNG-5: the Giant's 2 by 2 block, its square the top left one.
pub const GIANT: [(i32, i32); 4] = [(0, 0), (1, 0), (0, 1), (1, 1)];

/// D-RNG-5: the Vehicle's shape when the Director draws none, a block 3 wide and 2 deep (a car
/// or a van seen from above; the book leaves the size open).
pub const VEHICLE: [(i32, i32); 6] = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)];

/// The offsets a unit holding `archetypes` fills, from a drawn `shape` for the Vehicle: `None`
/// for a unit on one square. An error names what is wrong with a drawn shape.
pub fn offsets_for(archetypes: &[String], shape: &[[i32; 2]]) -> Result<Option<Shape>, String> {
    let giant = archetypes.iter().any(|a| a == "giant");
    let vehicle = archetypes.iter().any(|a| a == "vehicle");
    if !shape.is_empty() && !vehicle {
        return Err("only a Vehicle draws its shape (D-RNG-5)".into());
    }
    if vehicle {
        if shape.is_empty() {
            return Ok(Some(VEHICLE.to_vec()));
        }
        let mut out: Vec<(i32, i32)> = shape.iter().map(|o| (o[0], o[1])).collect();
        if out.iter().any(|&(x, y)| !(0..=8).contains(&x) || !(0..=8).contains(&y)) {
            return Err("offsets run 0 to 8 from the Vehicle's square".into());
        }
        out.sort_by_key(|&(x, y)| (y, x));
        out.dedup();
        if !out.contains(&(0, 0)) {
            out.insert(0, (0, 0));
        }
        return Ok(Some(out));
    }
    Ok(giant.then(|| GIANT.to_vec()))
}

/// The offsets `u` fills, when it is big.
pub fn offsets(s: &State, u: u8) -> Option<&[(i32, i32)]> {
    s.shapes.iter().find(|x| x.0 == u).map(|x| x.2.as_slice())
}

/// Whether `u` fills more than one square.
pub fn big(s: &State, u: u8) -> bool {
    !s.shapes.is_empty() && offsets(s, u).is_some()
}

/// Whether `u` is a Vehicle (its squares may be stood on).
pub fn vehicle(s: &State, u: u8) -> bool {
    s.shapes.iter().any(|x| x.0 == u && x.1)
}

/// The squares `u` would cover with its square on `at`.
pub fn squares_at(s: &State, u: u8, at: Pos) -> Vec<Pos> {
    match offsets(s, u) {
        Some(o) => o.iter().map(|&(dx, dy)| at.offset(dx, dy)).collect(),
        None => vec![at],
    }
}

/// Every square `u` covers (its own first); none off the map.
pub fn squares(s: &State, u: u8) -> Vec<Pos> {
    s.u(u).at.map_or_else(Vec::new, |at| squares_at(s, u, at))
}

/// The big unit covering `p` (its own square too), a Giant before a Vehicle.
pub fn covering(s: &State, p: Pos) -> Option<u8> {
    let mut found = None;
    for (u, car, o) in &s.shapes {
        let Some(at) = s.u(*u).at else { continue };
        if o.iter().any(|&(dx, dy)| at.offset(dx, dy) == p) {
            if !car {
                return Some(*u);
            }
            found = Some(*u);
        }
    }
    found
}

/// The Giant (or another big unit that is no Vehicle) filling `p`: no one else may stand there.
pub fn filling(s: &State, p: Pos) -> Option<u8> {
    s.shapes.iter().filter(|x| !x.1).map(|x| x.0).find(|&u| squares(s, u).contains(&p))
}

/// D-G-22: spaces from `u` to the square `p`, from the nearest square `u` covers.
pub fn gap(s: &State, u: u8, p: Pos) -> Option<i32> {
    squares(s, u).into_iter().map(|a| crate::effects::dist(a, p)).min()
}

/// D-G-22: spaces between units `a` and `b`, nearest square to nearest square.
pub fn between(s: &State, a: u8, b: u8) -> Option<i32> {
    let bs = squares(s, b);
    squares(s, a).into_iter().flat_map(|p| bs.iter().map(move |&q| crate::effects::dist(p, q))).min()
}

/// D-RNG-5: whether `t` stands inside the Vehicle `u` (on top of it): always in `u`'s range.
pub fn inside(s: &State, u: u8, t: u8) -> bool {
    u != t && vehicle(s, u) && s.u(t).at.is_some_and(|p| squares(s, u).contains(&p))
}

/// D-RNG-5: the units riding the Vehicle `u` (standing on its squares), in unit order.
pub fn riders(s: &State, u: u8) -> Vec<u8> {
    if !vehicle(s, u) {
        return Vec::new();
    }
    (0..s.units.len() as u8).filter(|&t| s.u(t).active() && inside(s, u, t)).collect()
}

/// Whether the big unit `u` fits with its square on `at`: every square on the map, none a Wall
/// (unless `u` goes over Walls and no one stands in it), and no other unit, Copy or figure on it
/// (the Vehicle's riders move with it, so they do not count; a Vehicle does not drive onto
/// anyone else). For a unit on one square: whether `at` is empty.
pub fn fits(s: &State, u: u8, at: Pos) -> bool {
    fits_with(s, u, at, crate::bosses::through_walls(s, u))
}

/// [`fits`], with Walls open to it only when `walls` (a push or pull never crashes one,
/// D-G-VEHICLE).
pub fn fits_with(s: &State, u: u8, at: Pos, walls: bool) -> bool {
    if !big(s, u) {
        return s.empty(at);
    }
    let riders = riders(s, u);
    let new = squares_at(s, u, at);
    // One Speed token (the Giant) or pool number (the Vehicle) for each Wall crashed.
    let crashes = new.iter().filter(|&&q| s.obstacle(q) == Some(Obstacle::Wall)).count() as i32;
    let budget = if s.shapes.iter().any(|x| x.0 == u && x.1) {
        s.u(u).pool.values().len() as i32
    } else {
        s.u(u).has(crate::content::Token::Speed)
    };
    if crashes > 0 && (!walls || budget < crashes) {
        return false;
    }
    new.into_iter().all(|q| {
        let wall = s.obstacle(q) == Some(Obstacle::Wall);
        s.map.contains(q)
            && (!wall || walls && crate::bosses::wall_open(s, q))
            && !s.units.iter().enumerate().any(|(v, x)| {
                v as u8 != u
                    && x.at.is_some()
                    && !riders.contains(&(v as u8))
                    && (x.at == Some(q) || big(s, v as u8) && squares(s, v as u8).contains(&q))
            })
            && !s.copies.iter().any(|c| c.0 == q)
            && !s.members.iter().any(|c| c.0 == q)
            && !s.standing_in.iter().any(|c| c.1 == q)
    })
}

/// D-RNG-5: whether every square of `u` is over an Edge (only then does one take a big unit).
pub fn all_over_edge(s: &State, u: u8) -> bool {
    squares(s, u).into_iter().all(|q| !s.map.contains(q) || s.obstacle(q) == Some(Obstacle::Edge))
}

/// The big unit `u` moves its square to `to`: every Wall under its new squares becomes Rubble
/// (D-G-VEHICLE, one payment each), and the Vehicle's riders move with it (D-RNG-5). Call before
/// the unit's own move is journalled. Returns whether a new square holds a Trap.
pub fn carry(cx: &mut Ctx, u: u8, to: Pos) -> bool {
    let Some(from) = cx.s.u(u).at else { return false };
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let old = squares(cx.s, u);
    let new = squares_at(cx.s, u, to);
    let riders = riders(cx.s, u);
    let mut trap = false;
    for &q in &new {
        // The anchor's Wall is crashed by the move itself (`bosses::crash`).
        if q != to {
            crate::bosses::crash(cx, u, q);
        }
        trap |= !old.contains(&q) && cx.s.obstacle(q) == Some(Obstacle::Trap);
    }
    for r in riders {
        if let Some(p) = cx.s.u(r).at {
            let who = cx.s.who(r);
            cx.emit(Event::Moved { who, to: p.offset(dx, dy), how: "ride" });
        }
    }
    trap
}

/// Whether `u` may go to `q` by a move (a step, a push or pull, a teleport): all of a big unit
/// fits there, else the square is empty.
pub fn room(s: &State, u: u8, q: Pos) -> bool {
    if big(s, u) { fits(s, u, q) } else { s.empty(q) }
}

/// The big units set up with `at` as their squares (a scenario's or the enemy file's `shape`).
/// Errors name the unit and what is in the way.
pub fn check(s: &State) -> Vec<(u8, String)> {
    let mut errors = Vec::new();
    for &(u, _, _) in &s.shapes {
        let Some(at) = s.u(u).at else { continue };
        if !squares_at(s, u, at).into_iter().all(|q| s.map.contains(q) && s.obstacle(q) != Some(Obstacle::Wall))
            || !fits(s, u, at)
        {
            errors
                .push((u, format!("its squares from {} run off the map, onto a Wall or onto another unit", at.key())));
        }
    }
    errors
}

/// For an enemy set-up: the first of `open` (in order) where a unit of `offsets` fits on squares
/// none of `used` holds and every one is in `open`.
pub fn first_fit(open: &[Pos], used: &[Pos], offsets: &[(i32, i32)]) -> Option<Pos> {
    open.iter().copied().find(|&p| {
        offsets.iter().all(|&(dx, dy)| {
            let q = p.offset(dx, dy);
            open.contains(&q) && !used.contains(&q)
        })
    })
}
