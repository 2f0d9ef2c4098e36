//! The square grid: positions, square footprints and a flat array keyed by square.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A square on the grid: `x` is the column from 0 at the left, `y` the row from 0 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "Vec<i64>", into = "[i32; 2]")]
pub struct Pos {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

impl Pos {
    /// The square at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Self {
        Pos { x, y }
    }
    /// This square moved by `(dx, dy)`.
    pub const fn offset(self, dx: i32, dy: i32) -> Self {
        Pos { x: self.x + dx, y: self.y + dy }
    }
    /// The eight neighbouring squares, orthogonal ones first.
    #[inline]
    pub fn neighbours(self) -> [Pos; 8] {
        NEIGHBOUR_OFFSETS.map(|(dx, dy)| self.offset(dx, dy))
    }
    /// Parses `"x,y"` (the form decision options use for squares).
    pub fn parse(s: &str) -> Option<Pos> {
        let (a, b) = s.split_once(',')?;
        Some(Pos::new(a.trim().parse().ok()?, b.trim().parse().ok()?))
    }
    /// The `"x,y"` form of this square.
    pub fn key(self) -> String {
        let mut buf = [0u8; 24];
        let n = self.write_digits(&mut buf, false);
        String::from_utf8_lossy(&buf[..n]).into_owned()
    }

    /// Writes `x,y` (or `(x,y)` when `parens`) into `buf`; returns its length. Squares are
    /// written on every option of a decision: this skips the formatting machinery.
    fn write_digits(self, buf: &mut [u8; 24], parens: bool) -> usize {
        fn int(v: i32, buf: &mut [u8; 24], mut at: usize) -> usize {
            if v < 0 {
                buf[at] = b'-';
                at += 1;
            }
            let mut u = v.unsigned_abs();
            let mut digits = [0u8; 10];
            let mut k = 0;
            loop {
                digits[k] = b'0' + (u % 10) as u8;
                k += 1;
                u /= 10;
                if u == 0 {
                    break;
                }
            }
            for d in digits[..k].iter().rev() {
                buf[at] = *d;
                at += 1;
            }
            at
        }
        let mut at = 0;
        if parens {
            buf[at] = b'(';
            at += 1;
        }
        at = int(self.x, buf, at);
        buf[at] = b',';
        at = int(self.y, buf, at + 1);
        if parens {
            buf[at] = b')';
            at += 1;
        }
        at
    }
}

/// Offsets of the eight neighbours: orthogonal first, then diagonal.
pub const NEIGHBOUR_OFFSETS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

impl From<[i32; 2]> for Pos {
    fn from(a: [i32; 2]) -> Self {
        Pos::new(a[0], a[1])
    }
}
/// The largest coordinate a file may give (issue 14): far beyond any map, and far from where
/// sums of coordinates could overflow.
pub const MAX_COORD: i64 = 9999;

/// A square as files write it: exactly two numbers, each within ±[`MAX_COORD`].
impl TryFrom<Vec<i64>> for Pos {
    type Error = String;
    fn try_from(v: Vec<i64>) -> Result<Self, String> {
        match v[..] {
            // `unsigned_abs`: the most negative integer has no `abs` (found by fuzzing).
            [x, y] if x.unsigned_abs() <= MAX_COORD as u64 && y.unsigned_abs() <= MAX_COORD as u64 => {
                Ok(Pos::new(x as i32, y as i32))
            }
            [x, y] => {
                Err(format!("the square [{x}, {y}] is far off any map (coordinates are -{MAX_COORD} to {MAX_COORD})"))
            }
            _ => Err(format!("a square is two numbers [x, y], not {}", v.len())),
        }
    }
}
impl From<Pos> for [i32; 2] {
    fn from(p: Pos) -> Self {
        [p.x, p.y]
    }
}
impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 24];
        let n = self.write_digits(&mut buf, true);
        // Only ASCII digits, signs, a comma and parentheses were written; like `write!`, no
        // padding is applied.
        f.write_str(std::str::from_utf8(&buf[..n]).map_err(|_| fmt::Error)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fuzzing (issue 14): the most negative integer is far off any map too; `abs` overflowed
    /// on it in a test build and let it through as column 0 in a release build.
    #[test]
    fn the_most_negative_coordinate_is_refused() {
        assert!(Pos::try_from(vec![i64::MIN, 3]).is_err());
        assert!(Pos::try_from(vec![3, i64::MIN]).is_err());
        assert_eq!(Pos::try_from(vec![-MAX_COORD, MAX_COORD]), Ok(Pos::new(-9999, 9999)));
    }

    #[test]
    fn squares_print_as_the_formatter_would() {
        for (x, y) in [(0, 0), (3, 14), (-1, 7), (i32::MIN, i32::MAX), (120, -45)] {
            let p = Pos::new(x, y);
            assert_eq!(p.key(), format!("{x},{y}"));
            assert_eq!(p.to_string(), format!("({x},{y})"));
            assert_eq!(format!("{p:>10}|"), format!("({x},{y})|")); // as `write!` did: no padding
        }
    }
}

/// The squares covered by an `size`×`size` footprint whose top-left square is `at`.
#[inline]
pub fn footprint(at: Pos, size: i32) -> impl Iterator<Item = Pos> + Clone {
    (0..size).flat_map(move |dy| (0..size).map(move |dx| at.offset(dx, dy)))
}

/// A rectangular array with one value per square, stored flat (row-major).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid<T> {
    width: i32,
    height: i32,
    cells: Vec<T>,
}

impl<T: Clone> Grid<T> {
    /// A `width`×`height` grid filled with `fill`.
    pub fn new(width: i32, height: i32, fill: T) -> Self {
        Grid { width, height, cells: vec![fill; (width.max(0) * height.max(0)) as usize] }
    }
    /// Sets every square to `value`.
    pub fn fill(&mut self, value: T) {
        self.cells.fill(value);
    }
}

impl<T> Grid<T> {
    /// Number of columns.
    pub fn width(&self) -> i32 {
        self.width
    }
    /// Number of rows.
    pub fn height(&self) -> i32 {
        self.height
    }
    /// Whether `p` lies on the grid.
    pub fn contains(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }
    /// Flat index of `p` (which must be on the grid).
    pub fn index(&self, p: Pos) -> usize {
        (p.y * self.width + p.x) as usize
    }
    /// The value at `p`, or `None` off the grid.
    pub fn get(&self, p: Pos) -> Option<&T> {
        if self.contains(p) { Some(&self.cells[self.index(p)]) } else { None }
    }
    /// Mutable value at `p`, or `None` off the grid.
    pub fn get_mut(&mut self, p: Pos) -> Option<&mut T> {
        if self.contains(p) {
            let i = self.index(p);
            Some(&mut self.cells[i])
        } else {
            None
        }
    }
    /// The values, row by row.
    pub fn cells(&self) -> &[T] {
        &self.cells
    }
    /// The values, row by row, to change.
    pub fn cells_mut(&mut self) -> &mut [T] {
        &mut self.cells
    }
    /// Every square of the grid, row by row.
    pub fn squares(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }
}
