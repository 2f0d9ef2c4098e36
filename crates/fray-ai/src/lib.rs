//! Generic bots for any Fray system. They see the state only through the [`Game`] trait (or a
//! [`Table`] of any system) and answer with one of the [`ActionId`]s `legal` offers, so they
//! work for every system.
#![deny(missing_docs)]

use fray_core::game::{ActionId, Game, Seat};
use fray_core::table::Table;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Something that answers decisions of one system, seeing its state.
pub trait Bot<G: Game> {
    /// Picks one of `legal`, the actions `seat` may take in `state`.
    fn choose(&mut self, game: &G, state: &G::State, seat: Seat, legal: &[ActionId]) -> ActionId;
}

/// Something that answers decisions of any system, through its [`Table`].
pub trait TableBot: Send {
    /// Picks one of `legal`, the actions `seat` may take at `table`.
    fn choose_at(&mut self, table: &dyn Table, seat: Seat, legal: &[ActionId]) -> ActionId;
}

/// Picks uniformly among the legal actions, never backing out of a half-made choice
/// ([`ActionId::BACK`]) when it has another way forward. For testing and for throughput.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot with its own seed (independent of the match's dice).
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
    /// Picks one of `legal`.
    pub fn pick(&mut self, legal: &[ActionId]) -> ActionId {
        fray_core::conformance::random_pick(&mut self.rng, legal)
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn choose(&mut self, _game: &G, _state: &G::State, _seat: Seat, legal: &[ActionId]) -> ActionId {
        self.pick(legal)
    }
}

impl TableBot for RandomBot {
    fn choose_at(&mut self, _table: &dyn Table, _seat: Seat, legal: &[ActionId]) -> ActionId {
        self.pick(legal)
    }
}
