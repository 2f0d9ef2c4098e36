//! Distances, adjacency, areas and reachable squares on the square grid.
//!
//! Distance counts diagonal steps as 1 (a creature has eight neighbours), which is how the
//! grid-tactics systems Fray runs measure it. Footprints are `size`×`size` squares anchored at
//! their top-left square.

use crate::grid::{Grid, Pos, footprint};

/// Squares between two footprints, counting diagonals as 1; adjacent footprints are 1 apart,
/// overlapping ones 0.
pub fn distance(a: Pos, a_size: i32, b: Pos, b_size: i32) -> i32 {
    let gap = |a0: i32, asz: i32, b0: i32, bsz: i32| (b0 - (a0 + asz - 1)).max(a0 - (b0 + bsz - 1)).max(0);
    gap(a.x, a_size, b.x, b_size).max(gap(a.y, a_size, b.y, b_size))
}

/// Distance between two cubes of `a_size` and `b_size` squares at elevations `az` and `bz`
/// (the square each stands on, counted upward): the greatest gap along any axis.
pub fn distance_3d(a: Pos, az: i32, a_size: i32, b: Pos, bz: i32, b_size: i32) -> i32 {
    let flat = distance(a, a_size, b, b_size);
    let dz = (bz - (az + a_size - 1)).max(az - (bz + b_size - 1)).max(0);
    flat.max(dz)
}

/// The squares a straight push or pull passes through: steps of one square in a fixed
/// direction `(dx, dy)` (each -1, 0 or 1), from `from`, at most `n` of them.
pub fn straight_steps(from: Pos, dir: (i32, i32), n: i32) -> Vec<Pos> {
    (1..=n.max(0)).map(|i| from.offset(dir.0 * i, dir.1 * i)).collect()
}

/// Distance between two single squares.
pub fn square_distance(a: Pos, b: Pos) -> i32 {
    (a.x - b.x).abs().max((a.y - b.y).abs())
}

/// Whether two footprints are adjacent (distance 1).
pub fn adjacent(a: Pos, a_size: i32, b: Pos, b_size: i32) -> bool {
    distance(a, a_size, b, b_size) == 1
}

/// Every square within `radius` of a footprint, excluding the footprint itself: a burst.
pub fn burst(center: Pos, size: i32, radius: i32) -> Vec<Pos> {
    let mut out = Vec::new();
    for y in center.y - radius..center.y + size + radius {
        for x in center.x - radius..center.x + size + radius {
            let p = Pos::new(x, y);
            if distance(center, size, p, 1) > 0 {
                out.push(p);
            }
        }
    }
    out
}

/// The squares adjacent to a footprint (8 for a 1×1, 12 for a 2×2).
pub fn ring(at: Pos, size: i32) -> Vec<Pos> {
    burst(at, size, 1)
}

/// Whether two footprints overlap.
pub fn overlaps(a: Pos, a_size: i32, b: Pos, b_size: i32) -> bool {
    footprint(a, a_size).any(|p| distance(p, 1, b, b_size) == 0)
}

/// Result of a shortest-path search: the cheapest cost to reach each square and the square
/// it was reached from.
#[derive(Clone, Debug)]
pub struct Reach {
    start: Pos,
    cost: Grid<u32>,
    prev: Grid<Pos>,
}

/// Marks a square as not reached.
pub const UNREACHED: u32 = u32::MAX;

impl Reach {
    /// Cost of the cheapest route to `p`, if it was reached within the budget.
    pub fn cost(&self, p: Pos) -> Option<u32> {
        self.cost.get(p).copied().filter(|&c| c != UNREACHED)
    }
    /// The route from the start to `p` (excluding the start), if reached.
    pub fn path_to(&self, p: Pos) -> Option<Vec<Pos>> {
        self.cost(p)?;
        let mut path = vec![p];
        let mut cur = p;
        while cur != self.start {
            cur = *self.prev.get(cur)?;
            if cur != self.start {
                path.push(cur);
            }
        }
        path.reverse();
        Some(path)
    }
    /// Every reached square other than the start, in row order.
    pub fn squares(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cost.squares().filter(move |&p| p != self.start && self.cost(p).is_some())
    }
}

/// Cheapest routes from `start` on a `width`×`height` grid, spending at most `budget`.
///
/// `edges(from, out)` pushes every `(to, cost)` step that may be taken from `from`: it is
/// where a system puts difficult terrain, blocking squares, occupied squares, footprints,
/// portals and direction constraints. Costs are small integers, so a bucket queue serves.
pub fn reachable(
    width: i32,
    height: i32,
    start: Pos,
    budget: u32,
    mut edges: impl FnMut(Pos, &mut Vec<(Pos, u32)>),
) -> Reach {
    let mut cost = Grid::new(width, height, UNREACHED);
    let mut prev = Grid::new(width, height, start);
    let mut buckets: Vec<Vec<Pos>> = vec![Vec::new(); budget as usize + 1];
    if let Some(c) = cost.get_mut(start) {
        *c = 0;
        buckets[0].push(start);
    }
    let mut out = Vec::with_capacity(8);
    for b in 0..=budget as usize {
        while let Some(p) = buckets[b].pop() {
            if cost.get(p).copied() != Some(b as u32) {
                continue;
            }
            out.clear();
            edges(p, &mut out);
            for &(q, step) in &out {
                let nc = b as u32 + step;
                if nc > budget || !cost.contains(q) {
                    continue;
                }
                let i = cost.index(q);
                if nc < *cost.get(q).unwrap() {
                    let _ = i;
                    *cost.get_mut(q).unwrap() = nc;
                    *prev.get_mut(q).unwrap() = p;
                    buckets[nc as usize].push(q);
                }
            }
        }
    }
    Reach { start, cost, prev }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonal_steps_count_as_one() {
        assert_eq!(distance(Pos::new(0, 0), 1, Pos::new(3, 2), 1), 3);
        assert!(adjacent(Pos::new(0, 0), 1, Pos::new(1, 1), 1));
        assert_eq!(distance(Pos::new(0, 0), 2, Pos::new(2, 2), 1), 1);
        assert_eq!(distance(Pos::new(0, 0), 2, Pos::new(1, 1), 1), 0);
    }

    #[test]
    fn height_counts_like_any_other_axis() {
        assert_eq!(distance_3d(Pos::new(0, 0), 0, 1, Pos::new(1, 0), 3, 1), 3);
        assert_eq!(distance_3d(Pos::new(0, 0), 0, 2, Pos::new(2, 0), 1, 1), 1);
        assert_eq!(straight_steps(Pos::new(1, 1), (1, -1), 2), vec![Pos::new(2, 0), Pos::new(3, -1)]);
    }

    #[test]
    fn a_large_creature_has_twelve_neighbours() {
        assert_eq!(ring(Pos::new(5, 5), 1).len(), 8);
        assert_eq!(ring(Pos::new(5, 5), 2).len(), 12);
    }

    #[test]
    fn difficult_squares_cost_two() {
        let difficult = Pos::new(1, 0);
        let reach = reachable(3, 1, Pos::new(0, 0), 3, |p, out| {
            for q in [p.offset(1, 0), p.offset(-1, 0)] {
                out.push((q, if q == difficult { 2 } else { 1 }));
            }
        });
        assert_eq!(reach.cost(Pos::new(1, 0)), Some(2));
        assert_eq!(reach.cost(Pos::new(2, 0)), Some(3));
        assert_eq!(reach.path_to(Pos::new(2, 0)).unwrap(), vec![Pos::new(1, 0), Pos::new(2, 0)]);
    }
}
