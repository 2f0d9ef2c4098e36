//! Rolls read on a table of tiers: a total falls into one of several bands ("11 or less",
//! "12 to 16", "17 or more"), and rules may shift the result up or down a band. Systems give
//! the thresholds; nothing here knows a game.

use serde::{Deserialize, Serialize};

/// Bands of a tiered roll, from the lowest tier (0) up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tiers {
    /// The lowest total of each tier above the first, ascending.
    pub thresholds: Vec<i32>,
}

impl Tiers {
    /// Tiers starting at the given totals (`[12, 17]`: ≤11 → 0, 12–16 → 1, 17+ → 2).
    pub fn new(thresholds: &[i32]) -> Self {
        Tiers { thresholds: thresholds.to_vec() }
    }
    /// Number of tiers.
    pub fn count(&self) -> usize {
        self.thresholds.len() + 1
    }
    /// The tier a total falls in.
    pub fn tier_of(&self, total: i32) -> usize {
        self.thresholds.iter().take_while(|&&t| total >= t).count()
    }
    /// A tier moved by `steps` (positive up), kept within the table.
    pub fn shift(&self, tier: usize, steps: i32) -> usize {
        (tier as i32 + steps).clamp(0, self.count() as i32 - 1) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_fall_into_bands_and_shifts_stay_inside() {
        let t = Tiers::new(&[12, 17]);
        assert_eq!(
            (t.tier_of(2), t.tier_of(11), t.tier_of(12), t.tier_of(16), t.tier_of(17), t.tier_of(30)),
            (0, 0, 1, 1, 2, 2)
        );
        assert_eq!(t.shift(2, 1), 2);
        assert_eq!(t.shift(0, -1), 0);
        assert_eq!(t.shift(1, 1), 2);
    }
}
