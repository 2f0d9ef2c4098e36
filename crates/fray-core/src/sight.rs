//! Line of sight and intervening cover between footprints (Kazzam K-COV-8).
//!
//! A shot is judged by drawing straight lines. A line may not pass through, touch the edge of,
//! or clip the corner of any blocking square (blocking squares are closed sets). If some line
//! runs from a point of the shooter's footprint to the centre of a target square, the shot is
//! clear; if some line runs from a point of the shooter's footprint to a point of the target's,
//! the target has cover; otherwise there is no shot. Systems decide which squares block.
//!
//! The judgement is exact, not sampled. The lines that pass form an open set; where it is not
//! empty, a line of it lies next to one of its edge lines, and every edge line passes through
//! corners of squares (blocking squares and the two footprints): through the target's centre and
//! a corner for the clear test, through two corners for the cover test. So the lines tried are
//! those edge lines turned or shifted by a hair on each side ([`EPS`]): far less than any gap
//! between two corners of a map can be, far more than the rounding of the arithmetic.

use crate::grid::{Pos, footprint};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// How well one footprint can see another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sight {
    /// No line can be drawn: no shot.
    Blocked,
    /// Only lines to the edges of the target can be drawn: the target has cover.
    Cover,
    /// A line reaches the centre of a target square.
    Clear,
}

/// The turn (in radians, about) or shift (in squares) that moves an edge line off the corners
/// it passes through. Two corners of a map of up to 1,000 squares across are never closer to a
/// line through two others than about a thousandth of a square, and no two lines from a point
/// through corners differ by less than a millionth of a radian; the rounding of the arithmetic
/// is a billion times smaller than either.
const EPS: f64 = 1e-9;

/// A closed box `[x0, x1] × [y0, y1]`: a footprint.
#[derive(Clone, Copy, Debug)]
struct Rect {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Rect {
    fn of(at: Pos, size: i32) -> Rect {
        let (x, y, n) = (at.x as f64, at.y as f64, size as f64);
        Rect { x0: x, y0: y, x1: x + n, y1: y + n }
    }
    fn corners(self) -> [(f64, f64); 4] {
        [(self.x0, self.y0), (self.x1, self.y0), (self.x0, self.y1), (self.x1, self.y1)]
    }
    fn centre(self) -> (f64, f64) {
        ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }
}

/// Where the line `a + t·d` (all t) crosses the closed box `r`: the range of `t`, if it does.
fn clip_line(a: (f64, f64), d: (f64, f64), r: Rect) -> Option<(f64, f64)> {
    let mut t0 = f64::NEG_INFINITY;
    let mut t1 = f64::INFINITY;
    for (p, q) in [(-d.0, a.0 - r.x0), (d.0, r.x1 - a.0), (-d.1, a.1 - r.y0), (d.1, r.y1 - a.1)] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    (t0 <= t1).then_some((t0, t1))
}

/// `d` turned by about `turn` radians.
fn turned(d: (f64, f64), turn: f64) -> (f64, f64) {
    (d.0 - turn * d.1, d.1 + turn * d.0)
}

/// Whether some line from a point of `s` to the point `c` meets none of `walls`: the lines from
/// `c` through each corner (of a wall or of `s`), turned a hair either way, and the line to the
/// centre of `s`, turned a hair; each runs from `c` to where it first meets `s`.
fn sees_point(s: Rect, c: (f64, f64), corners: &[(f64, f64)], walls: &[Pos], last: &mut usize) -> Option<Segment> {
    // The line to the centre first (turned a hair: a straight line through corners is where
    // rounding could decide); then the edge lines. A wall's corner beyond the
    // point where its line meets `s` bounds nothing (a wall there stops no line to `s`), so its
    // line is not tried; the corners of `s` always are.
    let centre = turned((s.centre().0 - c.0, s.centre().1 - c.1), EPS);
    let ways = [(centre.0, centre.1, true)].into_iter().chain(corners.iter().flat_map(|v| {
        let d = (v.0 - c.0, v.1 - c.1);
        let own = v.0 == s.x0 || v.0 == s.x1 || v.1 == s.y0 || v.1 == s.y1;
        let (a, b) = (turned(d, EPS), turned(d, -EPS));
        [(a.0, a.1, own), (b.0, b.1, own)]
    }));
    for (dx, dy, always) in ways {
        let d = (dx, dy);
        if let Some((t0, t1)) = clip_line(c, d, s)
            && t1 >= 0.0
            && (always || t0 >= 1.0 - 1e-6)
        {
            let t = t0.max(0.0);
            let p = (c.0 + t * d.0, c.1 + t * d.1);
            if line_clear(c, p, walls, last) {
                return Some((p, c));
            }
        }
    }
    None
}

/// A line from a point of the shooter's footprint to a point of the target's.
type Segment = ((f64, f64), (f64, f64));

/// The part of the line `a + t·d` between boxes `s` and `t`: from where it leaves the one to
/// where it enters the other, if it crosses both.
fn between(a: (f64, f64), d: (f64, f64), s: Rect, t: Rect) -> Option<((f64, f64), (f64, f64))> {
    let (s0, s1) = clip_line(a, d, s)?;
    let (t0, t1) = clip_line(a, d, t)?;
    let at = |k: f64| (a.0 + k * d.0, a.1 + k * d.1);
    if s1 <= t0 {
        Some((at(s1), at(t0)))
    } else if t1 <= s0 {
        Some((at(s0), at(t1)))
    } else {
        // The boxes overlap along the line: they touch, and nothing stands between them.
        Some((at(s1.min(t1)), at(s1.min(t1))))
    }
}

/// Whether some line from a point of `s` to a point of `t` meets none of `walls`: for every two
/// corners (of walls and of both boxes), the line through them shifted a hair to either side and
/// turned a hair either way about their midpoint; the rows and columns beside each corner; and,
/// first, the line between the two centres, turned a hair.
fn sees_box(s: Rect, t: Rect, corners: &[(f64, f64)], walls: &[Pos], last: &mut usize) -> Option<Segment> {
    let (cs, ct) = (s.centre(), t.centre());
    if let Some((p, q)) = between(cs, turned((ct.0 - cs.0, ct.1 - cs.1), EPS), s, t)
        && line_clear(p, q, walls, last)
    {
        return Some((p, q));
    }
    // Lines along a row or a column just beside a corner: edge lines that pass through one
    // corner only (a footprint straight above the other, walls in line with both).
    for u in corners {
        for (a, d) in [
            ((u.0 + EPS, u.1), (0.0, 1.0)),
            ((u.0 - EPS, u.1), (0.0, 1.0)),
            ((u.0, u.1 + EPS), (1.0, 0.0)),
            ((u.0, u.1 - EPS), (1.0, 0.0)),
        ] {
            if let Some((p, q)) = between(a, d, s, t)
                && line_clear(p, q, walls, last)
            {
                return Some((p, q));
            }
        }
    }
    for (i, u) in corners.iter().enumerate() {
        for v in &corners[i + 1..] {
            let d = (v.0 - u.0, v.1 - u.1);
            let len = (d.0 * d.0 + d.1 * d.1).sqrt();
            let n = (-d.1 / len * EPS, d.0 / len * EPS);
            let mid = ((u.0 + v.0) / 2.0, (u.1 + v.1) / 2.0);
            for (a, d) in [
                ((mid.0 + n.0, mid.1 + n.1), d),
                ((mid.0 - n.0, mid.1 - n.1), d),
                (mid, turned(d, EPS)),
                (mid, turned(d, -EPS)),
            ] {
                if let Some((p, q)) = between(a, d, s, t)
                    && line_clear(p, q, walls, last)
                {
                    return Some((p, q));
                }
            }
        }
    }
    None
}

/// The corners of `walls` and of `boxes`, each once.
fn corners_of(walls: &[Pos], boxes: &[Rect]) -> Vec<(f64, f64)> {
    let mut out: Vec<(i64, i64)> = walls
        .iter()
        .flat_map(|w| {
            let (x, y) = (w.x as i64, w.y as i64);
            [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]
        })
        .chain(boxes.iter().flat_map(|r| r.corners()).map(|(x, y)| (x as i64, y as i64)))
        .collect();
    out.sort_unstable();
    out.dedup();
    out.into_iter().map(|(x, y)| (x as f64, y as f64)).collect()
}

/// Whether the closed segment from `a` to `b` meets the closed unit square at `sq`: the part
/// of its line inside the square ([`clip_line`]) overlaps the segment's `[0, 1]`.
#[inline]
fn segment_meets_square(a: (f64, f64), b: (f64, f64), sq: Pos) -> bool {
    clip_line(a, (b.0 - a.0, b.1 - a.1), Rect::of(sq, 1)).is_some_and(|(t0, t1)| t0.max(0.0) <= t1.min(1.0))
}

/// How a shooter with footprint (`from`, `from_size`) sees a target (`to`, `to_size`), where
/// `blocks(square)` says which squares stop lines. Squares of the two footprints never block.
pub fn sight(from: Pos, from_size: i32, to: Pos, to_size: i32, blocks: impl Fn(Pos) -> bool) -> Sight {
    let inside = |p: Pos, at: Pos, size: i32| p.x >= at.x && p.y >= at.y && p.x < at.x + size && p.y < at.y + size;
    sight_gathered(from, from_size, to, to_size, &blocks, |(x0, x1), (y0, y1), walls| {
        for y in y0..=y1 {
            for x in x0..=x1 {
                let p = Pos::new(x, y);
                if !inside(p, from, from_size) && !inside(p, to, to_size) && blocks(p) {
                    walls.push(p);
                }
            }
        }
    })
}

/// [`sight`] told, besides `blocks`, every square for which it holds (`listed`, in any order, each
/// once): the blocking squares near the two footprints are picked from the list instead of
/// asking `blocks` square by square. The same answer as [`sight`] with `blocks`.
pub fn sight_listed(
    from: Pos,
    from_size: i32,
    to: Pos,
    to_size: i32,
    blocks: impl Fn(Pos) -> bool,
    listed: &[Pos],
) -> Sight {
    sight_gathered(from, from_size, to, to_size, &blocks, picked_from(listed, (from, from_size), (to, to_size)))
}

/// The gathering of [`sight_gathered`] for [`sight_listed`] and [`clear_listed`]: the squares of
/// `listed` in the box and outside both footprints, in the order the box is scanned (row by
/// row), as [`sight`] gathers them.
fn picked_from(
    listed: &[Pos],
    (from, from_size): (Pos, i32),
    (to, to_size): (Pos, i32),
) -> impl FnOnce((i32, i32), (i32, i32), &mut Vec<Pos>) + '_ {
    let inside = |p: Pos, at: Pos, size: i32| p.x >= at.x && p.y >= at.y && p.x < at.x + size && p.y < at.y + size;
    move |(x0, x1), (y0, y1), walls| {
        walls.extend(listed.iter().copied().filter(|&p| {
            (x0..=x1).contains(&p.x)
                && (y0..=y1).contains(&p.y)
                && !inside(p, from, from_size)
                && !inside(p, to, to_size)
        }));
        walls.sort_unstable_by_key(|p| (p.y, p.x));
    }
}

/// Whether [`sight_listed`] answers [`Sight::Clear`], told the same: the same lines to the
/// target's centres are tried, and the cover test is left out when none of them is clear.
pub fn clear_listed(
    from: Pos,
    from_size: i32,
    to: Pos,
    to_size: i32,
    blocks: impl Fn(Pos) -> bool,
    listed: &[Pos],
) -> bool {
    let gather = picked_from(listed, (from, from_size), (to, to_size));
    sight_judged(from, from_size, to, to_size, &blocks, gather, true) == Some(Sight::Clear)
}

/// [`sight`], with `gather(xs, ys, walls)` pushing the blocking squares of the box (columns
/// `xs`, rows `ys`, both inclusive) outside the two footprints, row by row.
fn sight_gathered(
    from: Pos,
    from_size: i32,
    to: Pos,
    to_size: i32,
    blocks: &impl Fn(Pos) -> bool,
    gather: impl FnOnce((i32, i32), (i32, i32), &mut Vec<Pos>),
) -> Sight {
    sight_judged(from, from_size, to, to_size, blocks, gather, false).expect("judged in full")
}

/// [`sight_gathered`]; with `clear_only`, `None` where the sight is not clear and the cover
/// test was left out.
fn sight_judged(
    from: Pos,
    from_size: i32,
    to: Pos,
    to_size: i32,
    blocks: &impl Fn(Pos) -> bool,
    gather: impl FnOnce((i32, i32), (i32, i32), &mut Vec<Pos>),
    clear_only: bool,
) -> Option<Sight> {
    // Only blocking squares in or touching the box around both footprints can meet a line
    // between them (a line along the box's edge touches squares just outside it).
    let (x0, x1) = (from.x.min(to.x) - 1, (from.x + from_size).max(to.x + to_size));
    let (y0, y1) = (from.y.min(to.y) - 1, (from.y + from_size).max(to.y + to_size));
    let inside = |p: Pos, at: Pos, size: i32| p.x >= at.x && p.y >= at.y && p.x < at.x + size && p.y < at.y + size;
    // Early exit: a clear line from the centre of one of our squares (a point of the fine
    // lattice) to the centre of one of theirs is what `judge` looks for first; walking it
    // square by square spares scanning the whole box. A few pairs are tried, then the box.
    let pairs = footprint(to, to_size).flat_map(|t| footprint(from, from_size).map(move |s| (s, t)));
    for (s, t) in pairs.take(4) {
        if centre_line_clear(s, t, |p| !inside(p, from, from_size) && !inside(p, to, to_size) && blocks(p)) {
            return Some(Sight::Clear);
        }
    }
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        let seen = &mut *seen;
        seen.walls.clear();
        gather((x0, x1), (y0, y1), &mut seen.walls);
        if seen.walls.is_empty() {
            return Some(Sight::Clear);
        }
        // The answer depends only on the footprints and the blocking squares: judged once each.
        let mut h = Fnv::default();
        (from, from_size, to, to_size, &seen.walls).hash(&mut h);
        let key = h.finish();
        if let Some(e) = seen.known.get(&key)
            && e.0 == from
            && e.1 == from_size
            && e.2 == to
            && e.3 == to_size
            && e.4 == seen.walls
        {
            return Some(e.5);
        }
        let answer = if clear_only {
            // Only a clear sight is the whole answer (and kept).
            if !judge_clear(from, from_size, to, to_size, &seen.walls, &mut 0) {
                return None;
            }
            Sight::Clear
        } else {
            judge(from, from_size, to, to_size, &seen.walls)
        };
        if seen.known.len() >= SEEN_MAX {
            seen.known.clear();
        }
        seen.known.insert(key, (from, from_size, to, to_size, seen.walls.clone(), answer));
        Some(answer)
    })
}

/// Whether the line between the centres of squares `a` and `b` meets no square for which
/// `blocks` holds: the squares it may meet are visited column by column (a generous superset),
/// each judged by [`segment_meets_square`] as [`judge`] judges it.
fn centre_line_clear(a: Pos, b: Pos, blocks: impl Fn(Pos) -> bool) -> bool {
    let pa = (a.x as f64 + 0.5, a.y as f64 + 0.5);
    let pb = (b.x as f64 + 0.5, b.y as f64 + 0.5);
    let (lo, hi) = if pa.0 <= pb.0 { (pa, pb) } else { (pb, pa) };
    for x in a.x.min(b.x)..=a.x.max(b.x) {
        // The segment's y-extent over the column [x, x + 1].
        let (ylo, yhi) = if lo.0 == hi.0 {
            (lo.1.min(hi.1), lo.1.max(hi.1))
        } else {
            let at = |xv: f64| lo.1 + (xv - lo.0) * (hi.1 - lo.1) / (hi.0 - lo.0);
            let (y0, y1) = (at((x as f64).max(lo.0)), at((x as f64 + 1.0).min(hi.0)));
            (y0.min(y1), y0.max(y1))
        };
        // A closed square [y, y + 1] meets [ylo, yhi] when y <= yhi and y + 1 >= ylo (with a
        // margin for rounding).
        for y in ceil(ylo - 1e-6) - 1..=floor(yhi + 1e-6) {
            let p = Pos::new(x, y);
            if blocks(p) && segment_meets_square(pa, pb, p) {
                return false;
            }
        }
    }
    // Squares in the columns just outside the centres' span cannot meet the segment: it stays
    // strictly inside [min + 0.5, max + 0.5].
    true
}

/// `v.floor()` as an `i32`, for `v` well inside its range (no call into the maths library).
#[inline]
fn floor(v: f64) -> i32 {
    let i = v as i32;
    if i as f64 > v { i - 1 } else { i }
}

/// `v.ceil()` as an `i32`, for `v` well inside its range.
#[inline]
fn ceil(v: f64) -> i32 {
    let i = v as i32;
    if (i as f64) < v { i + 1 } else { i }
}

/// How many judged sights a thread keeps.
const SEEN_MAX: usize = 1 << 14;

/// A judged sight: shooter and target footprints, the blocking squares, the answer.
type Judged = (Pos, i32, Pos, i32, Vec<Pos>, Sight);

/// FNV-1a over the words of a sight's key: quicker than SipHash, and the key is no secret.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = (self.0 ^ n as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    fn write_i32(&mut self, n: i32) {
        self.write_u32(n as u32);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x0000_0100_0000_01b3);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// The hasher of a map keyed by hashes already made: the key is its own hash.
#[derive(Default)]
struct Ready(u64);

impl Hasher for Ready {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A thread's judged sights, by a hash of what they depend on, and a buffer for the walls.
#[derive(Default)]
struct Seen {
    known: HashMap<u64, Judged, std::hash::BuildHasherDefault<Ready>>,
    walls: Vec<Pos>,
}

thread_local! {
    static SEEN: RefCell<Seen> = RefCell::new(Seen::default());
}

/// Sights already judged on one map whose blocking squares do not change, so each pair of
/// footprints is judged once: a system keeps one per shared, unchanging map and asks it only
/// when nothing but that map (and the few facts it folds into `extra`) decides what blocks.
#[derive(Default, Clone, Debug)]
pub struct Memo {
    known: HashMap<u64, Sight, std::hash::BuildHasherDefault<Ready>>,
}

impl Memo {
    /// How many sights a memo keeps before it starts afresh (a map of 64×64 squares has about
    /// 16 million pairs; a match asks for a few thousand).
    pub const MAX: usize = 1 << 16;

    /// The sight from (`from`, `from_size`) to (`to`, `to_size`) with `extra` (six bits of
    /// whatever else the blocking depends on), worked out by `judge` the first time. Footprints
    /// off the 4,096-square range or larger than 31 are judged every time.
    pub fn get_or(
        &mut self,
        from: Pos,
        from_size: i32,
        to: Pos,
        to_size: i32,
        extra: u8,
        judge: impl FnOnce() -> Sight,
    ) -> Sight {
        let Some(key) = Self::key(from, from_size, to, to_size, extra) else {
            return judge();
        };
        if let Some(&known) = self.known.get(&key) {
            return known;
        }
        let answer = judge();
        if self.known.len() >= Self::MAX {
            self.known.clear();
        }
        self.known.insert(key, answer);
        answer
    }

    fn key(from: Pos, from_size: i32, to: Pos, to_size: i32, extra: u8) -> Option<u64> {
        let coord = |c: i32| u64::try_from(c).ok().filter(|&c| c < 1 << 12);
        let size = |n: i32| u64::try_from(n).ok().filter(|&n| n < 1 << 5);
        let key = coord(from.x)?
            | coord(from.y)? << 12
            | coord(to.x)? << 24
            | coord(to.y)? << 36
            | size(from_size)? << 48
            | size(to_size)? << 53
            | u64::from(extra).checked_shl(58).filter(|_| extra < 1 << 6)?;
        // Spread the bits (the map picks buckets by the low ones) one to one: an odd multiplier
        // and a rotation lose nothing, so two keys never meet.
        Some(key.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(32))
    }
}

/// Whether the segment from `a` to `b` meets none of `walls`; `last` names the wall that
/// stopped a line last, tried first (neighbouring lines are mostly stopped by the same square).
#[inline]
fn line_clear(a: (f64, f64), b: (f64, f64), walls: &[Pos], last: &mut usize) -> bool {
    if segment_meets_square(a, b, walls[*last]) {
        return false;
    }
    match walls.iter().position(|&sq| segment_meets_square(a, b, sq)) {
        Some(i) => {
            *last = i;
            false
        }
        None => true,
    }
}

/// Whether some line from a point of ours to the centre of one of their squares meets none of
/// `walls` (not empty): [`judge`]'s test for a clear sight.
fn judge_clear(from: Pos, from_size: i32, to: Pos, to_size: i32, walls: &[Pos], last: &mut usize) -> bool {
    clear_line(from, from_size, to, to_size, walls, last).is_some()
}

/// A line from a point of ours to the centre of one of their squares that meets none of `walls`.
fn clear_line(from: Pos, from_size: i32, to: Pos, to_size: i32, walls: &[Pos], last: &mut usize) -> Option<Segment> {
    let s = Rect::of(from, from_size);
    let corners = corners_of(walls, &[s]);
    footprint(to, to_size).find_map(|t| sees_point(s, (t.x as f64 + 0.5, t.y as f64 + 0.5), &corners, walls, last))
}

/// [`sight`] with the blocking squares gathered (not empty).
fn judge(from: Pos, from_size: i32, to: Pos, to_size: i32, walls: &[Pos]) -> Sight {
    witnessed(from, from_size, to, to_size, walls).0
}

/// [`judge`], with the line that shows it (none for no shot).
fn witnessed(from: Pos, from_size: i32, to: Pos, to_size: i32, walls: &[Pos]) -> (Sight, Option<Segment>) {
    let mut last = 0;
    // Clear: a line from any point of ours to the centre of one of their squares.
    if let Some(line) = clear_line(from, from_size, to, to_size, walls, &mut last) {
        return (Sight::Clear, Some(line));
    }
    // Cover: a line from any point of ours to any point of theirs.
    let (s, t) = (Rect::of(from, from_size), Rect::of(to, to_size));
    match sees_box(s, t, &corners_of(walls, &[s, t]), walls, &mut last) {
        Some(line) => (Sight::Cover, Some(line)),
        None => (Sight::Blocked, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walls(ws: &'static [(i32, i32)]) -> impl Fn(Pos) -> bool {
        move |p| ws.contains(&(p.x, p.y))
    }

    #[test]
    fn a_memo_judges_each_pair_once_and_tells_pairs_apart() {
        let mut memo = Memo::default();
        let mut judged = 0;
        let mut ask = |memo: &mut Memo, from: (i32, i32), extra: u8, answer: Sight| {
            memo.get_or(Pos::new(from.0, from.1), 1, Pos::new(4, 2), 2, extra, || {
                judged += 1;
                answer
            })
        };
        assert_eq!(ask(&mut memo, (0, 0), 0, Sight::Cover), Sight::Cover);
        assert_eq!(ask(&mut memo, (0, 0), 0, Sight::Clear), Sight::Cover, "remembered");
        assert_eq!(ask(&mut memo, (0, 0), 1, Sight::Blocked), Sight::Blocked, "other extra bits");
        assert_eq!(ask(&mut memo, (1, 0), 0, Sight::Clear), Sight::Clear, "another square");
        assert_eq!(ask(&mut memo, (-1, 0), 0, Sight::Blocked), Sight::Blocked, "off the range: judged");
        assert_eq!(ask(&mut memo, (-1, 0), 0, Sight::Clear), Sight::Clear, "off the range: judged again");
        assert_eq!(judged, 5);
    }

    #[test]
    fn open_ground_is_clear() {
        assert_eq!(sight(Pos::new(0, 0), 1, Pos::new(5, 3), 1, |_| false), Sight::Clear);
    }

    #[test]
    fn a_pillar_in_the_row_blocks_the_row() {
        // Shooter at (0,0), target at (4,0), pillar at (2,0): every line touches the pillar.
        assert_eq!(sight(Pos::new(0, 0), 1, Pos::new(4, 0), 1, walls(&[(2, 0)])), Sight::Blocked);
        // A pillar off the straight line casts a shadow: no shot straight behind it, cover
        // at the shadow's edges, a clear shot elsewhere.
        let pillar = walls(&[(2, 1)]);
        assert_eq!(sight(Pos::new(0, 0), 1, Pos::new(4, 2), 1, &pillar), Sight::Blocked);
        assert_eq!(sight(Pos::new(0, 0), 1, Pos::new(3, 2), 1, &pillar), Sight::Cover);
        assert_eq!(sight(Pos::new(0, 0), 1, Pos::new(3, 1), 1, &pillar), Sight::Cover);
        assert_eq!(sight(Pos::new(0, 0), 1, Pos::new(4, 0), 1, &pillar), Sight::Clear);
        // A three-square wall across the row leaves no shot at all.
        assert_eq!(sight(Pos::new(0, 1), 1, Pos::new(4, 1), 1, walls(&[(2, 0), (2, 1), (2, 2)])), Sight::Blocked);
    }

    #[test]
    fn lines_may_not_squeeze_between_diagonal_walls() {
        // Walls at (1,0) and (0,1) touch at a corner: the line from (0,0) to (1,1) and beyond
        // would have to pass through that shared corner.
        assert_eq!(sight(Pos::new(0, 0), 1, Pos::new(2, 2), 1, walls(&[(1, 0), (0, 1)])), Sight::Blocked);
    }

    #[test]
    fn a_judged_sight_is_remembered_only_for_the_same_walls() {
        let pillar = walls(&[(2, 1)]);
        for _ in 0..2 {
            assert_eq!(sight(Pos::new(0, 0), 1, Pos::new(4, 2), 1, &pillar), Sight::Blocked);
            assert_eq!(sight(Pos::new(0, 0), 1, Pos::new(4, 2), 1, walls(&[(2, 0)])), Sight::Clear);
            assert_eq!(sight(Pos::new(0, 0), 1, Pos::new(4, 2), 2, &pillar), Sight::Clear);
        }
    }

    /// `sight` as judged without the early exit: every blocking square of the box, then `judge`.
    fn slow(from: Pos, fs: i32, to: Pos, ts: i32, blocks: impl Fn(Pos) -> bool) -> Sight {
        let walls = box_walls(from, fs, to, ts, blocks);
        if walls.is_empty() { Sight::Clear } else { judge(from, fs, to, ts, &walls) }
    }

    /// The blocking squares of the box, as [`sight`] gathers them.
    fn box_walls(from: Pos, fs: i32, to: Pos, ts: i32, blocks: impl Fn(Pos) -> bool) -> Vec<Pos> {
        let inside = |p: Pos, at: Pos, size: i32| p.x >= at.x && p.y >= at.y && p.x < at.x + size && p.y < at.y + size;
        let mut walls = Vec::new();
        for y in from.y.min(to.y) - 1..=(from.y + fs).max(to.y + ts) {
            for x in from.x.min(to.x) - 1..=(from.x + fs).max(to.x + ts) {
                let p = Pos::new(x, y);
                if !inside(p, from, fs) && !inside(p, to, ts) && blocks(p) {
                    walls.push(p);
                }
            }
        }
        walls
    }

    /// The sight a sampling finds, with points every `1/steps` of a square across both
    /// footprints (corners and edges included): never more than there is.
    fn sampled(from: Pos, fs: i32, to: Pos, ts: i32, blocks: impl Fn(Pos) -> bool, steps: i32) -> Sight {
        let walls = box_walls(from, fs, to, ts, blocks);
        let clear = |a: (f64, f64), b: (f64, f64)| walls.iter().all(|&w| !segment_meets_square(a, b, w));
        let points = |at: Pos, size: i32| -> Vec<(f64, f64)> {
            (0..=size * steps)
                .flat_map(|i| {
                    (0..=size * steps)
                        .map(move |j| (at.x as f64 + i as f64 / steps as f64, at.y as f64 + j as f64 / steps as f64))
                })
                .collect()
        };
        let ours = points(from, fs);
        let centres: Vec<(f64, f64)> = footprint(to, ts).map(|t| (t.x as f64 + 0.5, t.y as f64 + 0.5)).collect();
        if ours.iter().any(|&p| centres.iter().any(|&c| clear(p, c))) {
            return Sight::Clear;
        }
        let theirs = points(to, ts);
        if ours.iter().any(|&p| theirs.iter().any(|&q| clear(p, q))) { Sight::Cover } else { Sight::Blocked }
    }

    /// K-COV-8 exactly: whatever a fine sampling of both footprints finds, the judgement finds
    /// too, and it finds lines the old half-square lattice missed.
    #[test]
    fn the_judgement_finds_every_line_a_fine_sampling_finds() {
        let (mut finer, mut beyond_coarse) = (0, 0);
        random_boards(0x51_7cc1_b727_220a, 4, 600, |_, blocks, _, (from, fs), (to, ts)| {
            let exact = sight(from, fs, to, ts, blocks);
            let fine = sampled(from, fs, to, ts, blocks, 8);
            assert!(exact >= fine, "{from} {fs} {to} {ts}: judged {exact:?}, sampled {fine:?}");
            finer += usize::from(exact > fine);
            beyond_coarse += usize::from(exact > sampled(from, fs, to, ts, blocks, 2));
        });
        assert!(beyond_coarse > 0, "the boards hold thin lines a coarse lattice misses");
        eprintln!("thin lines: {finer} beyond an eighth-square sampling, {beyond_coarse} beyond a half-square one");
    }

    /// Every line the judgement stands on is a real one: from the shooter's footprint to a
    /// target square's centre (clear) or to the target's footprint (cover), meeting no wall.
    #[test]
    fn every_line_the_judgement_finds_is_a_real_one() {
        let within = |p: (f64, f64), at: Pos, size: i32| {
            let r = Rect::of(at, size);
            p.0 >= r.x0 - 1e-9 && p.0 <= r.x1 + 1e-9 && p.1 >= r.y0 - 1e-9 && p.1 <= r.y1 + 1e-9
        };
        let mut found = [0; 3];
        random_boards(0x2f1b_a3c5_d7e9_0b13, 4, 3000, |_, blocks, _, (from, fs), (to, ts)| {
            let walls = box_walls(from, fs, to, ts, blocks);
            if walls.is_empty() {
                return;
            }
            let (judged, line) = witnessed(from, fs, to, ts, &walls);
            found[judged as usize] += 1;
            let Some((p, q)) = line else { return };
            assert!(within(p, from, fs), "{p:?} not on the shooter {from} {fs}");
            match judged {
                Sight::Clear => assert!(footprint(to, ts).any(|t| (t.x as f64 + 0.5, t.y as f64 + 0.5) == q)),
                _ => assert!(within(q, to, ts), "{q:?} not on the target {to} {ts}"),
            }
            for &w in &walls {
                assert!(!segment_meets_square(p, q, w), "{from} {fs} {to} {ts}: {p:?}-{q:?} meets {w}");
            }
        });
        assert!(found.iter().all(|&n| n > 50), "every answer is tried: {found:?}");
    }

    /// A search for a board where the half-square lattice missed a line (kept for the record).
    #[test]
    #[ignore]
    fn show_a_thin_line() {
        random_boards(0x51_7cc1_b727_220a, 4, 600, |_, blocks, listed, (from, fs), (to, ts)| {
            let exact = sight(from, fs, to, ts, blocks);
            let coarse = sampled(from, fs, to, ts, blocks, 2);
            if exact == Sight::Cover && coarse == Sight::Blocked {
                // Fewest walls that keep the difference.
                let mut ws: Vec<Pos> = listed.to_vec();
                let mut i = 0;
                while i < ws.len() {
                    let mut fewer = ws.clone();
                    fewer.remove(i);
                    let b = |p: Pos| fewer.contains(&p);
                    if sight(from, fs, to, ts, b) == Sight::Cover && sampled(from, fs, to, ts, b, 2) == Sight::Blocked {
                        ws = fewer;
                    } else {
                        i += 1;
                    }
                }
                eprintln!("{from} {fs} {to} {ts}: walls {:?}", ws.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>());
            }
        });
    }

    /// Random 10×10 boards (one square in `one_in` blocks, on average) with a shooter and a
    /// target placed on each, from `seed`: `check(round, blocks, listed, shooter, target)` for
    /// each of `rounds` boards, `listed` holding the blocking squares row by row.
    fn random_boards(
        seed: u64,
        one_in: u64,
        rounds: usize,
        mut check: impl FnMut(usize, &dyn Fn(Pos) -> bool, &[Pos], (Pos, i32), (Pos, i32)),
    ) {
        let mut seed = seed;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as i32
        };
        for round in 0..rounds {
            let cells: Vec<bool> = (0..100).map(|_| next(one_in) == 0).collect();
            let blocks = |p: Pos| p.x >= 0 && p.y >= 0 && p.x < 10 && p.y < 10 && cells[(p.y * 10 + p.x) as usize];
            let listed: Vec<Pos> = (0..100).map(|i| Pos::new(i % 10, i / 10)).filter(|&p| blocks(p)).collect();
            let (fs, ts) = (1 + next(2), 1 + next(3));
            let from = Pos::new(next(9), next(9));
            let to = Pos::new(next(9), next(9));
            check(round, &blocks, &listed, (from, fs), (to, ts));
        }
    }

    #[test]
    fn the_early_exit_answers_as_the_full_judgement() {
        random_boards(0x9e37_79b9_7f4a_7c15, 5, 3000, |_, blocks, _, (from, fs), (to, ts)| {
            assert_eq!(sight(from, fs, to, ts, blocks), slow(from, fs, to, ts, blocks), "{from} {fs} {to} {ts}");
        });
    }

    #[test]
    fn listed_walls_answer_as_asked_ones() {
        random_boards(0x2545_f491_4f6c_dd1d, 5, 2000, |_, blocks, listed, (from, fs), (to, ts)| {
            // In any order.
            let reversed: Vec<Pos> = listed.iter().rev().copied().collect();
            assert_eq!(sight_listed(from, fs, to, ts, blocks, &reversed), sight(from, fs, to, ts, blocks));
        });
    }

    #[test]
    fn the_clear_question_answers_as_the_whole_sight() {
        let mut unclear = 0;
        random_boards(0x1f83_d9ab_fb41_bd6b, 4, 3000, |round, blocks, listed, (from, fs), (to, ts)| {
            let whole = slow(from, fs, to, ts, blocks);
            unclear += usize::from(whole != Sight::Clear);
            // Asked before and after the whole sight is judged (and remembered).
            if round % 2 == 0 {
                assert_eq!(clear_listed(from, fs, to, ts, blocks, listed), whole == Sight::Clear);
                assert_eq!(sight_listed(from, fs, to, ts, blocks, listed), whole);
            } else {
                assert_eq!(sight_listed(from, fs, to, ts, blocks, listed), whole);
                assert_eq!(clear_listed(from, fs, to, ts, blocks, listed), whole == Sight::Clear);
            }
            assert_eq!(clear_listed(from, fs, to, ts, blocks, listed), whole == Sight::Clear);
        });
        assert!(unclear > 300, "the boards block some sights ({unclear})");
    }

    #[test]
    fn floor_and_ceil_are_the_library_ones() {
        for k in -4000..4000 {
            let v = k as f64 / 16.0 + 1e-6 * (k % 3) as f64;
            assert_eq!(floor(v), v.floor() as i32, "{v}");
            assert_eq!(ceil(v), v.ceil() as i32, "{v}");
        }
    }

    /// K-COV-8: one thin line is enough. Pillars touch the shooter's top-right corner and its
    /// bottom edge; lines from just below that corner pass under the upper pillar to the
    /// target's corner, though none from a corner or half-way point of the shooter's square do.
    #[test]
    fn a_thin_line_past_two_pillars_gives_cover() {
        let pillars = walls(&[(1, 3), (0, 5)]);
        assert_eq!(sight(Pos::new(0, 4), 1, Pos::new(5, 0), 1, &pillars), Sight::Cover);
        assert_eq!(sampled(Pos::new(0, 4), 1, Pos::new(5, 0), 1, &pillars, 2), Sight::Blocked);
    }

    #[test]
    fn large_targets_are_seen_if_any_square_is() {
        // A 2×2 target half behind a wall: its uncovered squares can still be seen.
        assert_eq!(sight(Pos::new(0, 0), 1, Pos::new(4, 0), 2, walls(&[(2, 0)])), Sight::Clear);
    }
}
