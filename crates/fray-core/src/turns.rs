//! Turn orders shared by systems: sides that alternate picking which of their creatures acts
//! next, each creature acting once a round; when one side has nobody left, the other side's
//! remaining creatures act one after another.

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
