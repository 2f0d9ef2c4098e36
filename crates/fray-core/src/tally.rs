//! What a simulator counts in a match, from the journal's typed events rather than its prose:
//! points by source, power uses, hits, damage, Take Outs. Each system says what its events
//! mean in [`crate::game::Game::tally`]; the simulator adds tallies up across matches.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Counts by category ("points", "power uses", "damage dealt") and key (a source, a power, a
/// creature as `side/name`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Category, then key, then the amount.
    pub counts: BTreeMap<String, BTreeMap<String, f64>>,
    /// Scratch a system may keep between events of one match (say, the power each creature is
    /// using, so the damage that follows is put down to it). Not reported.
    #[serde(skip)]
    pub context: BTreeMap<String, String>,
}

impl Tally {
    /// Adds `amount` to `key` of `category`.
    pub fn add(&mut self, category: &str, key: &str, amount: f64) {
        let keys = match self.counts.get_mut(category) {
            Some(k) => k,
            None => self.counts.entry(category.to_string()).or_default(),
        };
        match keys.get_mut(key) {
            Some(v) => *v += amount,
            None => {
                keys.insert(key.to_string(), amount);
            }
        }
    }
    /// The amount of `key` in `category` (0 if never counted).
    pub fn get(&self, category: &str, key: &str) -> f64 {
        self.counts.get(category).and_then(|k| k.get(key)).copied().unwrap_or(0.0)
    }
    /// Adds every count of `other` to this one.
    pub fn merge(&mut self, other: &Tally) {
        for (category, keys) in &other.counts {
            for (key, v) in keys {
                self.add(category, key, *v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_and_merge() {
        let mut a = Tally::default();
        a.add("points", "dunk", 3.0);
        a.add("points", "dunk", 3.0);
        a.add("points", "take out", 1.0);
        let mut b = Tally::default();
        b.add("points", "dunk", 1.0);
        b.add("power uses", "Fireball", 2.0);
        a.merge(&b);
        assert_eq!(a.get("points", "dunk"), 7.0);
        assert_eq!(a.get("points", "take out"), 1.0);
        assert_eq!(a.get("power uses", "Fireball"), 2.0);
        assert_eq!(a.get("power uses", "nothing"), 0.0);
    }
}
