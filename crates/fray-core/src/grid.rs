//! The square grid: positions, square footprints and a flat array keyed by square.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A square on the grid: `x` is the column from 0 at the left, `y` the row from 0 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[i32; 2]", into = "[i32; 2]")]
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
        format!("{},{}", self.x, self.y)
    }
}

/// Offsets of the eight neighbours: orthogonal first, then diagonal.
pub const NEIGHBOUR_OFFSETS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

impl From<[i32; 2]> for Pos {
    fn from(a: [i32; 2]) -> Self {
        Pos::new(a[0], a[1])
    }
}
impl From<Pos> for [i32; 2] {
    fn from(p: Pos) -> Self {
        [p.x, p.y]
    }
}
impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// The squares covered by an `size`×`size` footprint whose top-left square is `at`.
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
