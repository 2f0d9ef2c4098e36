//! Generic bots for any Fray ruleset. They see only the pending [`Decision`] and the state
//! through the [`Ruleset`] trait, so they work for every system.
#![deny(missing_docs)]

use fray_core::decision::Decision;
use fray_core::ruleset::Ruleset;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Something that answers decisions.
pub trait Bot<R: Ruleset> {
    /// Picks one of the decision's option ids.
    fn choose(&mut self, state: &R::State, decision: &Decision) -> String;
}

/// Picks uniformly among the legal options, never backing out of a half-made choice when it
/// has another way forward. For testing and for throughput.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot with its own seed (independent of the match's dice).
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl<R: Ruleset> Bot<R> for RandomBot {
    fn choose(&mut self, _state: &R::State, decision: &Decision) -> String {
        let forward: Vec<&str> = decision.options.iter().map(|o| o.id.as_str()).filter(|id| *id != "cancel").collect();
        let pool: Vec<&str> =
            if forward.is_empty() { decision.options.iter().map(|o| o.id.as_str()).collect() } else { forward };
        pool[self.rng.gen_range(0..pool.len())].to_string()
    }
}
