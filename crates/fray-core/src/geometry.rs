//! Distances, adjacency, areas and reachable squares on the square grid.
//!
//! Distance counts diagonal steps as 1 (a creature has eight neighbours), which is how the
//! grid-tactics systems Fray runs measure it. Footprints are `size`×`size` squares anchored at
//! their top-left square.

use crate::grid::{Grid, Pos, footprint};

/// Squares between two footprints, counting diagonals as 1; adjacent footprints are 1 apart,
/// overlapping ones 0.
#[inline]
pub fn distance(a: Pos, a_size: i32, b: Pos, b_size: i32) -> i32 {
    let gap = |a0: i32, asz: i32, b0: i32, bsz: i32| (b0 - (a0 + asz - 1)).max(a0 - (b0 + bsz - 1)).max(0);
    gap(a.x, a_size, b.x, b_size).max(gap(a.y, a_size, b.y, b_size))
}

/// Distance between two cubes of `a_size` and `b_size` squares at elevations `az` and `bz`
/// (the square each stands on, counted upward): the greatest gap along any axis.
#[inline]
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
#[inline]
pub fn square_distance(a: Pos, b: Pos) -> i32 {
    (a.x - b.x).abs().max((a.y - b.y).abs())
}

/// Whether two footprints are adjacent (distance 1).
#[inline]
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
    /// Every reached square other than the start, in row order.
    reached: Vec<Pos>,
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
    /// Lists the reached squares in row order after a whole search, which reaches every square
    /// it gives a cost (each once): read from the costs instead of sorted.
    fn list_in_row_order(&mut self) {
        self.reached.clear();
        let w = self.cost.width().max(0) as usize;
        if w == 0 {
            return;
        }
        for (y, row) in self.cost.cells().chunks_exact(w).enumerate() {
            for (x, &c) in row.iter().enumerate() {
                if c != UNREACHED {
                    let p = Pos::new(x as i32, y as i32);
                    if p != self.start {
                        self.reached.push(p);
                    }
                }
            }
        }
    }
    /// Every reached square other than the start, in row order.
    pub fn squares(&self) -> impl Iterator<Item = Pos> + '_ {
        self.reached.iter().copied()
    }
}

/// Buffers for route searches, kept between searches so that repeated searches (a menu asking
/// about several movers, a bot deciding again and again) allocate nothing.
#[derive(Clone, Debug)]
pub struct ReachScratch {
    reach: Reach,
    buckets: Vec<Vec<Pos>>,
    out: Vec<(Pos, u32)>,
    /// The least a step costs ([`ReachScratch::min_step`]): squares reached with less than it
    /// left in the budget are not asked for their steps.
    min_step: u32,
}

impl Default for ReachScratch {
    fn default() -> Self {
        ReachScratch {
            reach: Reach {
                start: Pos::new(0, 0),
                cost: Grid::new(0, 0, UNREACHED),
                prev: Grid::new(0, 0, Pos::new(0, 0)),
                reached: Vec::new(),
            },
            buckets: Vec::new(),
            out: Vec::with_capacity(8),
            min_step: 0,
        }
    }
}

impl ReachScratch {
    /// Empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Tells the searches that follow that no step costs less than `m` (0 by default: free
    /// steps allowed), so the squares that use up the budget are not asked for their steps.
    pub fn min_step(&mut self, m: u32) -> &mut Self {
        self.min_step = m;
        self
    }

    /// The result of the last [`ReachScratch::search`].
    pub fn reach(&self) -> &Reach {
        &self.reach
    }

    /// The result of the last search, taking it out of the buffers.
    pub fn into_reach(self) -> Reach {
        self.reach
    }

    /// As [`reachable`], into these buffers.
    pub fn search(
        &mut self,
        width: i32,
        height: i32,
        start: Pos,
        budget: u32,
        mut edges: impl FnMut(Pos, &mut Vec<(Pos, u32)>),
    ) -> &Reach {
        self.search_pruned(width, height, start, budget, |p, _: &Frontier, out| edges(p, out))
    }

    /// Searches as [`reachable`] does but stops at the first reached square other than the start
    /// for which `accept` holds; squares are offered cheapest first. The buffers then hold a
    /// partial search: read only the answer.
    pub fn find(
        &mut self,
        width: i32,
        height: i32,
        start: Pos,
        budget: u32,
        mut edges: impl FnMut(Pos, &mut Vec<(Pos, u32)>),
        accept: impl FnMut(Pos) -> bool,
    ) -> Option<Pos> {
        self.run_pruned(width, height, start, budget, |p, _: &Frontier, out| edges(p, out), accept)
    }

    /// The route [`reachable`] would give to `dest` (other than `start`), searching only until
    /// `dest` is settled: its route is final then, as in the whole search.
    pub fn route(
        &mut self,
        width: i32,
        height: i32,
        start: Pos,
        budget: u32,
        mut edges: impl FnMut(Pos, &mut Vec<(Pos, u32)>),
        dest: Pos,
    ) -> Option<Vec<Pos>> {
        self.route_pruned(width, height, start, budget, |p, _: &Frontier, out| edges(p, out), dest)
    }
}

/// What a route search knows while it asks a square for its steps ([`ReachScratch::search_pruned`]):
/// which squares a step from there could still make cheaper.
pub struct Frontier<'a> {
    cost: &'a Grid<u32>,
    /// The cost of the square asked, plus the least a step costs.
    floor: u32,
}

impl Frontier<'_> {
    /// Whether a step onto `q` could lower its cost: off the grid, or already reached for no
    /// more than the cheapest step from here would cost, it could not (the search would ignore
    /// the step), so the step need not be judged at all.
    #[inline]
    pub fn may_improve(&self, q: Pos) -> bool {
        self.cost.get(q).is_some_and(|&c| c > self.floor)
    }
}

/// Searches whose `edges` may leave out the steps the search would ignore ([`Frontier`]): the
/// same answers as [`ReachScratch::search`], [`ReachScratch::find`] and [`ReachScratch::route`],
/// with fewer steps judged.
impl ReachScratch {
    /// [`ReachScratch::search`], `edges` told the [`Frontier`].
    pub fn search_pruned(
        &mut self,
        width: i32,
        height: i32,
        start: Pos,
        budget: u32,
        edges: impl FnMut(Pos, &Frontier, &mut Vec<(Pos, u32)>),
    ) -> &Reach {
        self.run_pruned(width, height, start, budget, edges, |_| false);
        self.reach.list_in_row_order();
        &self.reach
    }

    /// [`ReachScratch::find`], `edges` told the [`Frontier`].
    pub fn find_pruned(
        &mut self,
        width: i32,
        height: i32,
        start: Pos,
        budget: u32,
        edges: impl FnMut(Pos, &Frontier, &mut Vec<(Pos, u32)>),
        accept: impl FnMut(Pos) -> bool,
    ) -> Option<Pos> {
        self.run_pruned(width, height, start, budget, edges, accept)
    }

    /// [`ReachScratch::route`], `edges` told the [`Frontier`].
    pub fn route_pruned(
        &mut self,
        width: i32,
        height: i32,
        start: Pos,
        budget: u32,
        edges: impl FnMut(Pos, &Frontier, &mut Vec<(Pos, u32)>),
        dest: Pos,
    ) -> Option<Vec<Pos>> {
        if dest == start {
            // As `route`: a whole search in fresh buffers (no least step), read for `dest`.
            return ReachScratch::new().search_pruned(width, height, start, budget, edges).path_to(dest);
        }
        self.run_pruned(width, height, start, budget, edges, |p| p == dest)?;
        self.reach.path_to(dest)
    }

    /// Readies the scratch for a search from `start` with `budget`: every square unreached but
    /// `start`, at cost 0 in the first bucket, and no square listed yet.
    fn restart(&mut self, width: i32, height: i32, start: Pos, budget: u32) {
        let r = &mut self.reach;
        if r.cost.width() != width || r.cost.height() != height {
            r.cost = Grid::new(width, height, UNREACHED);
            r.prev = Grid::new(width, height, start);
        } else {
            r.cost.fill(UNREACHED);
        }
        r.start = start;
        r.reached.clear();
        let buckets = &mut self.buckets;
        if buckets.len() < budget as usize + 1 {
            buckets.resize_with(budget as usize + 1, Vec::new);
        }
        for b in buckets.iter_mut() {
            b.clear();
        }
        if let Some(c) = r.cost.get_mut(start) {
            *c = 0;
            buckets[0].push(start);
        }
    }

    /// The search: buckets by cost, cheapest first; `edges` is told the [`Frontier`], and a step
    /// it leaves out is one the search would not take.
    fn run_pruned(
        &mut self,
        width: i32,
        height: i32,
        start: Pos,
        budget: u32,
        mut edges: impl FnMut(Pos, &Frontier, &mut Vec<(Pos, u32)>),
        mut accept: impl FnMut(Pos) -> bool,
    ) -> Option<Pos> {
        self.restart(width, height, start, budget);
        let (r, buckets) = (&mut self.reach, &mut self.buckets);
        let out = &mut self.out;
        for b in 0..=budget as usize {
            while let Some(p) = buckets[b].pop() {
                if r.cost.get(p).copied() != Some(b as u32) {
                    continue;
                }
                if p != start {
                    r.reached.push(p);
                    if accept(p) {
                        return Some(p);
                    }
                }
                if b as u32 + self.min_step > budget {
                    continue; // no step from here fits in the budget
                }
                out.clear();
                edges(p, &Frontier { cost: &r.cost, floor: b as u32 + self.min_step }, out);
                for &(q, step) in out.iter() {
                    let nc = b as u32 + step;
                    if nc > budget || !r.cost.contains(q) {
                        continue;
                    }
                    let i = r.cost.index(q);
                    if nc < r.cost.cells()[i] {
                        r.cost.cells_mut()[i] = nc;
                        r.prev.cells_mut()[i] = p;
                        buckets[nc as usize].push(q);
                    }
                }
            }
        }
        None
    }
}

/// Searches whose steps go to the eight neighbours only, each judged on its own: `step(from, to)`
/// is the cost of stepping from `from` onto its neighbour `to` (`None`: not allowed), asked only
/// of squares on the grid that the step could make cheaper ([`Frontier::may_improve`]). The same
/// answers as the `_pruned` searches given `edges` that push those steps in
/// [`Pos::neighbours`] order, without gathering them first.
impl ReachScratch {
    /// [`ReachScratch::search_pruned`] with steps judged one by one.
    pub fn search_steps(
        &mut self,
        width: i32,
        height: i32,
        start: Pos,
        budget: u32,
        step: impl FnMut(Pos, Pos) -> Option<u32>,
    ) -> &Reach {
        self.run_steps(width, height, start, budget, step, |_| false);
        self.reach.list_in_row_order();
        &self.reach
    }

    /// [`ReachScratch::find_pruned`] with steps judged one by one.
    pub fn find_steps(
        &mut self,
        width: i32,
        height: i32,
        start: Pos,
        budget: u32,
        step: impl FnMut(Pos, Pos) -> Option<u32>,
        accept: impl FnMut(Pos) -> bool,
    ) -> Option<Pos> {
        self.run_steps(width, height, start, budget, step, accept)
    }

    /// [`ReachScratch::route_pruned`] with steps judged one by one.
    pub fn route_steps(
        &mut self,
        width: i32,
        height: i32,
        start: Pos,
        budget: u32,
        step: impl FnMut(Pos, Pos) -> Option<u32>,
        dest: Pos,
    ) -> Option<Vec<Pos>> {
        if dest == start {
            // As `route_pruned`.
            return ReachScratch::new().search_steps(width, height, start, budget, step).path_to(dest);
        }
        self.run_steps(width, height, start, budget, step, |p| p == dest)?;
        self.reach.path_to(dest)
    }

    /// [`ReachScratch::run_pruned`] with each step relaxed as soon as it is judged (a step
    /// changes only its own square's cost, so the steps judged after it are judged alike).
    fn run_steps(
        &mut self,
        width: i32,
        height: i32,
        start: Pos,
        budget: u32,
        mut step: impl FnMut(Pos, Pos) -> Option<u32>,
        mut accept: impl FnMut(Pos) -> bool,
    ) -> Option<Pos> {
        self.restart(width, height, start, budget);
        let (r, buckets) = (&mut self.reach, &mut self.buckets);
        let w = width as usize;
        let (cost, prev) = (r.cost.cells_mut(), r.prev.cells_mut());
        for b in 0..=budget as usize {
            while let Some(p) = buckets[b].pop() {
                let pi = p.y as usize * w + p.x as usize;
                if cost[pi] != b as u32 {
                    continue;
                }
                if p != start {
                    r.reached.push(p);
                    if accept(p) {
                        return Some(p);
                    }
                }
                let floor = b as u32 + self.min_step;
                if floor > budget {
                    continue; // no step from here fits in the budget
                }
                for (dx, dy) in crate::grid::NEIGHBOUR_OFFSETS {
                    let q = p.offset(dx, dy);
                    if q.x < 0 || q.y < 0 || q.x >= width || q.y >= height {
                        continue;
                    }
                    let i = q.y as usize * w + q.x as usize;
                    if cost[i] <= floor {
                        continue; // Frontier::may_improve
                    }
                    let Some(c) = step(p, q) else { continue };
                    let nc = b as u32 + c;
                    if nc <= budget && nc < cost[i] {
                        cost[i] = nc;
                        prev[i] = p;
                        buckets[nc as usize].push(q);
                    }
                }
            }
        }
        None
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
    edges: impl FnMut(Pos, &mut Vec<(Pos, u32)>),
) -> Reach {
    let mut scratch = ReachScratch::new();
    scratch.search(width, height, start, budget, edges);
    scratch.into_reach()
}

/// Whether some square other than `start` that [`reachable`] would reach satisfies `accept`:
/// the search stops at the first one (cheapest first).
pub fn reachable_any(
    width: i32,
    height: i32,
    start: Pos,
    budget: u32,
    edges: impl FnMut(Pos, &mut Vec<(Pos, u32)>),
    accept: impl FnMut(Pos) -> bool,
) -> bool {
    ReachScratch::new().find(width, height, start, budget, edges, accept).is_some()
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

    /// The walls of [`walled_edges`].
    fn walls(p: Pos) -> bool {
        matches!((p.x, p.y), (3, 3) | (4, 3) | (5, 5) | (2, 6))
    }

    /// A 9×8 board with four walls, where every fifth diagonal costs 2 to enter.
    fn walled_edges(p: Pos, out: &mut Vec<(Pos, u32)>) {
        for q in p.neighbours() {
            if q.x >= 0 && q.y >= 0 && q.x < 9 && q.y < 8 && !walls(q) {
                out.push((q, if (q.x + q.y) % 5 == 0 { 2 } else { 1 }));
            }
        }
    }

    #[test]
    fn pruned_searches_answer_as_the_plain_ones() {
        let edges = walled_edges;
        let pruned = |p: Pos, f: &Frontier, out: &mut Vec<(Pos, u32)>| {
            let mut all = Vec::new();
            edges(p, &mut all);
            out.extend(all.into_iter().filter(|&(q, _)| f.may_improve(q)));
        };
        for least in [0, 1] {
            for (start, budget) in [(Pos::new(4, 4), 3), (Pos::new(0, 0), 6), (Pos::new(8, 7), 2)] {
                let mut plain = ReachScratch::new();
                let mut cut = ReachScratch::new();
                let a = plain.min_step(least).search(9, 8, start, budget, edges).clone();
                let b = cut.min_step(least).search_pruned(9, 8, start, budget, pruned);
                assert_eq!(a.squares().collect::<Vec<_>>(), b.squares().collect::<Vec<_>>());
                for p in a.squares() {
                    assert_eq!(a.cost(p), b.cost(p));
                    assert_eq!(a.path_to(p), b.path_to(p));
                }
                let far = |p: Pos| p.x + p.y >= start.x + start.y + 2;
                assert_eq!(
                    plain.find(9, 8, start, budget, edges, far),
                    cut.find_pruned(9, 8, start, budget, pruned, far)
                );
                for dest in [Pos::new(6, 6), Pos::new(1, 1), start] {
                    assert_eq!(
                        plain.route(9, 8, start, budget, edges, dest),
                        cut.route_pruned(9, 8, start, budget, pruned, dest)
                    );
                }
            }
        }
    }

    #[test]
    fn reused_buffers_answer_as_a_fresh_search() {
        let edges = walled_edges;
        let mut scratch = ReachScratch::new();
        for (start, budget) in [(Pos::new(4, 4), 3), (Pos::new(0, 0), 6), (Pos::new(8, 7), 2), (Pos::new(4, 4), 3)] {
            let fresh = reachable(9, 8, start, budget, edges);
            let again = scratch.search(9, 8, start, budget, edges);
            let all: Vec<Pos> = fresh.cost.squares().filter(|&p| p != start && fresh.cost(p).is_some()).collect();
            assert_eq!(fresh.squares().collect::<Vec<_>>(), all, "row order");
            assert_eq!(again.squares().collect::<Vec<_>>(), all);
            for p in &all {
                assert_eq!(again.cost(*p), fresh.cost(*p));
                assert_eq!(again.path_to(*p), fresh.path_to(*p));
            }
            let far = |p: Pos| p.x + p.y >= start.x + start.y + 2;
            assert_eq!(reachable_any(9, 8, start, budget, edges, far), all.iter().any(|&p| far(p)));
            assert!(!reachable_any(9, 8, start, budget, edges, |p| walls(p) || p == start));
        }
    }
}
