//! Turn orders shared by systems.
//!
//! - [`Alternating`]: sides alternate picking which of their creatures acts next, each creature
//!   acting once a round; when one side has nobody left, the other side's remaining creatures
//!   act one after another.
//! - [`Meter`]: a turn meter with a slot for every health bar in the fight. Sides fill slots in
//!   turn, the first side first every round, each picking one of its units that still has a
//!   turn this round; a unit with several bars takes that many turns a round, even once some
//!   have broken.

use serde::{Deserialize, Serialize};

/// The state of one round of alternating activations between sides `0..sides`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alternating {
    /// The side that picks first this round.
    pub first: usize,
    /// The side whose pick is next.
    pub next: usize,
    /// Number of sides.
    pub sides: usize,
}

impl Alternating {
    /// A round starting with side `first`.
    pub fn new(sides: usize, first: usize) -> Self {
        Alternating { first, next: first, sides }
    }
    /// The side to pick next, given which sides still have creatures able to act; `None` once
    /// no side has any. Skips sides that have nobody left.
    pub fn side_to_pick(&self, has_ready: impl Fn(usize) -> bool) -> Option<usize> {
        (0..self.sides).map(|i| (self.next + i) % self.sides).find(|&s| has_ready(s))
    }
    /// Records that `side` picked: the other side picks next.
    pub fn picked(&mut self, side: usize) {
        self.next = (side + 1) % self.sides;
    }
    /// Starts a new round: the same side picks first every round.
    pub fn new_round(&mut self) {
        self.next = self.first;
    }
}

/// A turn meter: one slot a round for every health bar in the fight. Slots alternate between
/// the sides (side 0 first every round); in its slot a side picks one of its units that still
/// has a turn this round. A unit takes as many turns a round as it had bars when the fight
/// began, and a side may also hold open slots (a bar shared out evenly) that any of its units
/// may fill once its own turns are taken. A side with nothing left to fill is skipped, so the
/// other side's remaining slots come one after another. The round ends when no side has a slot
/// it can fill.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meter {
    /// Number of sides.
    pub sides: usize,
    /// Each unit's side, by unit index.
    pub side: Vec<usize>,
    /// Each unit's turns a round (its health bars when the fight began).
    pub turns: Vec<u32>,
    /// Turns each unit has taken this round.
    pub taken: Vec<u32>,
    /// Per side, slots any of its units may fill.
    pub open: Vec<u32>,
    /// Per side, open slots filled this round.
    pub open_taken: Vec<u32>,
    /// Slots filled this round.
    pub filled: u32,
    /// The side whose slot is next.
    pub next: usize,
}

impl Meter {
    /// An empty meter for `sides` sides.
    pub fn new(sides: usize) -> Self {
        Meter { sides, open: vec![0; sides], open_taken: vec![0; sides], ..Meter::default() }
    }
    /// Adds a unit of `side` that takes `turns` turns a round (one per health bar); returns its
    /// index on the meter.
    pub fn add(&mut self, side: usize, turns: u32) -> usize {
        debug_assert!(side < self.sides, "side {side} of {}", self.sides);
        self.side.push(side);
        self.turns.push(turns);
        self.taken.push(0);
        self.side.len() - 1
    }
    /// Gives `side` `n` more open slots a round, which any of its units may fill.
    pub fn add_open(&mut self, side: usize, n: u32) {
        self.open[side] += n;
    }
    /// Slots in a round: every unit's turns and every open slot.
    pub fn slots(&self) -> u32 {
        self.turns.iter().sum::<u32>() + self.open.iter().sum::<u32>()
    }
    /// Slots `side` has left to fill this round.
    pub fn left(&self, side: usize) -> u32 {
        let own: u32 =
            (0..self.side.len()).filter(|&u| self.side[u] == side).map(|u| self.turns[u] - self.taken[u]).sum();
        own + self.open[side] - self.open_taken[side]
    }
    /// Whether `unit` may fill its side's next slot: it has a turn of its own left this round,
    /// or its side an open slot.
    pub fn may_act(&self, unit: usize) -> bool {
        let side = self.side[unit];
        self.taken[unit] < self.turns[unit] || self.open_taken[side] < self.open[side]
    }
    /// The units of `side` that may fill its next slot, among those `able` allows (a unit
    /// removed from the fight for now, say, is not).
    pub fn candidates(&self, side: usize, able: impl Fn(usize) -> bool) -> impl Iterator<Item = usize> {
        (0..self.side.len()).filter(move |&u| self.side[u] == side && self.may_act(u) && able(u))
    }
    /// The side whose slot is next: the sides take turns, and a side none of whose units may
    /// fill a slot (as [`Meter::candidates`] says) is skipped. `None` once the round is over.
    pub fn side_to_pick(&self, able: impl Fn(usize) -> bool) -> Option<usize> {
        (0..self.sides).map(|i| (self.next + i) % self.sides).find(|&s| self.candidates(s, &able).next().is_some())
    }
    /// `unit` fills its side's slot: one of its own turns if it has one left, else one of its
    /// side's open slots; the next side's slot comes next. Returns `false` and changes nothing
    /// if it may not act.
    pub fn fill(&mut self, unit: usize) -> bool {
        let side = self.side[unit];
        if self.taken[unit] < self.turns[unit] {
            self.taken[unit] += 1;
        } else if self.open_taken[side] < self.open[side] {
            self.open_taken[side] += 1;
        } else {
            return false;
        }
        self.filled += 1;
        self.next = (side + 1) % self.sides;
        true
    }
    /// Starts a new round: every slot empty, the first side's slot first.
    pub fn new_round(&mut self) {
        self.taken.iter_mut().for_each(|t| *t = 0);
        self.open_taken.iter_mut().for_each(|t| *t = 0);
        self.filled = 0;
        self.next = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_alternate_and_the_rest_act_in_a_row() {
        let mut a = Alternating::new(2, 1);
        let mut ready = [2, 1];
        let mut order = Vec::new();
        while let Some(s) = a.side_to_pick(|s| ready[s] > 0) {
            order.push(s);
            ready[s] -= 1;
            a.picked(s);
        }
        assert_eq!(order, vec![1, 0, 0]);
        a.new_round();
        assert_eq!(a.next, 1);
    }
}
