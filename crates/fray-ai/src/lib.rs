//! Generic bots for any Fray system. They see the state only through the [`Game`] trait (and
//! its [`Game::evaluate`]) and answer with one of the [`ActionId`]s `legal` offers, so they
//! work for every system:
//!
//! - [`RandomBot`]: uniformly random legal play, for tests and throughput;
//! - [`Greedy`]: looks one whole choice ahead (through the menu steps that change nothing) and
//!   takes the best by the system's evaluation, averaging over sampled dice;
//! - [`Mcts`]: open-loop Monte Carlo tree search over the decision tree, dice sampled afresh on
//!   every iteration, short rollouts cut off with the evaluation.
//!
//! A [`BotSpec`] names one (`random`, `greedy`, `mcts:2000`); [`bot_for`] makes it for one
//! system, and [`TableBot`] plays it at a [`Table`] of that system.
#![deny(missing_docs)]

mod greedy;
mod mcts;
mod spec;

pub use greedy::Greedy;
pub use mcts::{Mcts, MctsSettings, MctsStats, RootEdge};
pub use spec::BotSpec;

use fray_core::game::{ActionId, Game, Seat};
use fray_core::session::Session;
use fray_core::table::Table;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Something that answers decisions of one system, seeing its state.
pub trait Bot<G: Game>: Send {
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

/// Makes the bot `spec` names for the system `G`, seeded by `seed`.
pub fn bot_for<G: Game>(spec: &BotSpec, seed: u64) -> Box<dyn Bot<G>> {
    match spec {
        BotSpec::Random => Box::new(RandomBot::new(seed)),
        BotSpec::Greedy => Box::new(Greedy::new(seed)),
        BotSpec::Mcts(settings) => Box::new(Mcts::new(settings.clone(), seed)),
    }
}

/// A bot of the system `G` playing at a [`Table`]: the table must be a `Session<G>` (a table of
/// another system gets a random answer rather than a panic).
pub struct AtTable<G: Game> {
    bot: Box<dyn Bot<G>>,
    fallback: RandomBot,
}

impl<G: Game> TableBot for AtTable<G> {
    fn choose_at(&mut self, table: &dyn Table, seat: Seat, legal: &[ActionId]) -> ActionId {
        match table.as_any().downcast_ref::<Session<G>>() {
            Some(session) => self.bot.choose(session.game(), session.state(), seat, legal),
            None => self.fallback.pick(legal),
        }
    }
}

/// Makes [`TableBot`]s of one system, so a driver that names no system can seat any bot.
pub trait Bots: Send + Sync {
    /// The system's id.
    fn system(&self) -> &'static str;
    /// The bot `spec` names, seeded by `seed`.
    fn make(&self, spec: &BotSpec, seed: u64) -> Box<dyn TableBot>;
}

/// The [`Bots`] of the system `G`.
pub struct BotsOf<G: Game> {
    id: &'static str,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game> BotsOf<G> {
    /// Bots for `game`'s system.
    pub fn new(game: &G) -> Self {
        BotsOf { id: game.id(), _game: std::marker::PhantomData }
    }
}

impl<G: Game> Bots for BotsOf<G> {
    fn system(&self) -> &'static str {
        self.id
    }
    fn make(&self, spec: &BotSpec, seed: u64) -> Box<dyn TableBot> {
        Box::new(AtTable::<G> { bot: bot_for::<G>(spec, seed), fallback: RandomBot::new(seed) })
    }
}

/// Whether `action` is worth trying when other ways forward exist: backing out of a half-made
/// choice only leads back to an earlier question, so search never takes it unless it must.
pub(crate) fn forward(legal: &[ActionId]) -> impl Iterator<Item = ActionId> + '_ {
    let only_back = legal.iter().all(|&a| a == ActionId::BACK);
    legal.iter().copied().filter(move |&a| only_back || a != ActionId::BACK)
}
