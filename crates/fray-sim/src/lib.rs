//! Many matches of any Fray system, played by bots in parallel, added up into a report with
//! intervals, compared between two versions of the content, and drawn as charts.
//!
//! A [`Lab`] plays one match of one system with a bot at every seat and returns what happened
//! ([`MatchResult`]: the winner, the score, the decisions, a [`Tally`] of the typed events).
//! [`run`] plays many on a thread pool, each from its own seed, and [`Totals`] adds them up in
//! seed order, so the same seeds give the same report whatever the number of threads. Nothing
//! here names a system: [`LabOf`] works for any [`Game`].
#![deny(missing_docs)]

pub mod plot;
pub mod report;
pub mod stats;

pub use report::{Comparison, Totals};

use fray_ai::{Bot, BotSpec, RandomBot};
use fray_core::dice::SeededDice;
use fray_core::game::{ActionId, Game, Node, NullSink, Seat, Sink};
use fray_core::table::SetupRequest;
use fray_core::tally::Tally;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Upper bound on decisions in one match, so a rules bug cannot hang a simulation.
pub const MAX_DECISIONS: u64 = 200_000;

/// The seed of the random bot that answers for every seat not given a bot of its own (as
/// `fray play` does, so a simulated match replays there).
pub fn shared_bot_seed(match_seed: u64) -> u64 {
    match_seed ^ 0x5eed
}

/// The seed of the bot at `seat` in the match seeded `match_seed`.
pub fn seat_bot_seed(match_seed: u64, seat: Seat) -> u64 {
    match_seed ^ 0x5eed ^ ((u64::from(seat.0) + 1) << 40)
}

/// The seed of the `i`-th match of a simulation seeded `seed` (SplitMix64: neighbouring
/// indices give unrelated seeds).
pub fn match_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What one match came to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// Its index in the simulation.
    pub index: u64,
    /// Its seed (`fray play --seed` replays it with the same bots at the same seats).
    pub seed: u64,
    /// The bot at each seat, in seat order ("random" for the shared random bot).
    pub bots: Vec<String>,
    /// The winning seat, or `None` for a draw or an unfinished match.
    pub winner: Option<usize>,
    /// Whether the match ended within [`MAX_DECISIONS`].
    pub finished: bool,
    /// Final points by seat.
    pub score: Vec<i64>,
    /// Decisions taken.
    pub decisions: u64,
    /// What the events counted.
    pub tally: Tally,
}

/// One system's matches, for a driver that names no system.
pub trait Lab: Send + Sync {
    /// The system's id.
    fn system(&self) -> &'static str;
    /// Every seat of its matches, in order.
    fn seats(&self, request: &SetupRequest) -> Result<Vec<String>, String>;
    /// Plays one match from `request` seeded `seed`, with `bots[i]` at seat `i` (`None`: the
    /// shared random bot).
    fn play(&self, request: &SetupRequest, seed: u64, bots: &[Option<BotSpec>]) -> Result<MatchResult, String>;
    /// Measures the search bot on one core from states in the middle of random matches:
    /// iterations a second, and actions (menu steps included) it applied a second.
    fn mcts_rate(&self, iterations: u32, positions: u32) -> (f64, f64);
}

/// The [`Lab`] of the system `G`.
pub struct LabOf<G: Game> {
    game: Arc<G>,
}

impl<G: Game> LabOf<G> {
    /// A lab playing `game`.
    pub fn new(game: Arc<G>) -> Self {
        LabOf { game }
    }
}

/// Tallies every event of a match as it happens.
struct TallySink<'a, G: Game> {
    game: &'a G,
    tally: &'a mut Tally,
}

impl<G: Game> Sink<G::Event> for TallySink<'_, G> {
    fn push(&mut self, event: G::Event) {
        self.game.tally(&event, self.tally);
    }
    fn keeps(&self) -> bool {
        false
    }
}

impl<G: Game> Lab for LabOf<G> {
    fn system(&self) -> &'static str {
        self.game.id()
    }
    fn seats(&self, request: &SetupRequest) -> Result<Vec<String>, String> {
        let setup = self.game.setup_for(request).map_err(|e| e.0.join("\n"))?;
        let state = self.game.start(&setup, &mut SeededDice::new(0), &mut NullSink).map_err(|e| e.0.join("\n"))?;
        Ok(self.game.seats(&state).into_iter().map(|s| s.name).collect())
    }
    fn play(&self, request: &SetupRequest, seed: u64, bots: &[Option<BotSpec>]) -> Result<MatchResult, String> {
        let game = &*self.game;
        let setup = game.setup_for(request).map_err(|e| e.0.join("\n"))?;
        let mut tally = Tally::default();
        let mut dice = SeededDice::new(seed);
        let mut state =
            game.start(&setup, &mut dice, &mut TallySink { game, tally: &mut tally }).map_err(|e| e.0.join("\n"))?;
        let seats = game.seats(&state).len();
        let mut shared = RandomBot::new(shared_bot_seed(seed));
        let mut own: Vec<Option<Box<dyn Bot<G>>>> = (0..seats)
            .map(|i| {
                bots.get(i)
                    .cloned()
                    .flatten()
                    .map(|spec| fray_ai::bot_for::<G>(&spec, seat_bot_seed(seed, Seat(i as u8))))
            })
            .collect();
        let mut legal: Vec<ActionId> = Vec::new();
        let mut decisions = 0;
        while decisions < MAX_DECISIONS {
            let Node::Decide { seats: asked, .. } = game.node(&state) else { break };
            let Some(seat) = asked.first() else { break };
            legal.clear();
            game.legal(&state, seat, &mut legal);
            if legal.is_empty() {
                return Err(format!("seed {seed}: a seat is asked with nothing to choose (a rules bug)"));
            }
            let a = match own.get_mut(seat.index()).and_then(|b| b.as_mut()) {
                Some(bot) => bot.choose(game, &state, seat, &legal),
                None => shared.pick(&legal),
            };
            game.apply(&mut state, seat, a, &mut dice, &mut TallySink { game, tally: &mut tally })
                .map_err(|e| format!("seed {seed}: a bot's choice was refused (a rules bug): {e}"))?;
            decisions += 1;
        }
        let names: Vec<String> = game.seats(&state).into_iter().map(|s| s.name).collect();
        let outcome = game.outcome(&state);
        let winner = outcome.as_ref().and_then(|o| o.winner.as_ref()).and_then(|w| names.iter().position(|n| n == w));
        let score = names.iter().map(|n| outcome.as_ref().and_then(|o| o.score.get(n).copied()).unwrap_or(0)).collect();
        Ok(MatchResult {
            index: 0,
            seed,
            bots: (0..seats)
                .map(|i| bots.get(i).cloned().flatten().map(|b| b.to_string()).unwrap_or_else(|| "random".into()))
                .collect(),
            winner,
            finished: outcome.is_some(),
            score,
            decisions,
            tally,
        })
    }
    fn mcts_rate(&self, iterations: u32, positions: u32) -> (f64, f64) {
        let game = &*self.game;
        let Ok(setup) = game.setup_for(&SetupRequest::default()) else { return (0.0, 0.0) };
        let mut total_iterations = 0u64;
        let mut nodes = 0u64;
        let mut seconds = 0.0;
        for p in 0..u64::from(positions) {
            // A state some way into a random match: where a bot spends its time.
            let mut dice = SeededDice::new(p);
            let Ok(mut state) = game.start(&setup, &mut dice, &mut NullSink) else { return (0.0, 0.0) };
            let mut rng = RandomBot::new(p);
            let mut legal = Vec::new();
            for _ in 0..60 + 7 * p {
                let Node::Decide { seats, .. } = game.node(&state) else { break };
                let Some(seat) = seats.first() else { break };
                legal.clear();
                game.legal(&state, seat, &mut legal);
                let Some(&a) = legal.first() else { break };
                let a = if legal.len() > 1 { rng.pick(&legal) } else { a };
                if game.apply(&mut state, seat, a, &mut dice, &mut NullSink).is_err() {
                    break;
                }
            }
            let Node::Decide { seats, .. } = game.node(&state) else { continue };
            let Some(seat) = seats.first() else { continue };
            legal.clear();
            game.legal(&state, seat, &mut legal);
            let settings = fray_ai::MctsSettings { iterations, ..Default::default() };
            let mut bot = fray_ai::Mcts::new(settings, p);
            let start = thread_time();
            bot.search(game, &state, seat);
            seconds += (thread_time() - start).as_secs_f64();
            total_iterations += bot.last.iterations;
            nodes += bot.last.actions;
        }
        if seconds <= 0.0 {
            return (0.0, 0.0);
        }
        (total_iterations as f64 / seconds, nodes as f64 / seconds)
    }
}

fn thread_time() -> std::time::Duration {
    fray_core::bench::thread_time()
}

/// What to simulate.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Team files and table options.
    pub request: SetupRequest,
    /// The bot at each seat, in seat order (`None`: the shared random bot).
    pub bots: Vec<Option<BotSpec>>,
    /// Matches in the whole study.
    pub matches: u64,
    /// The study's seed.
    pub seed: u64,
    /// Whether every other match swaps the bots of the first two seats, so each bot plays
    /// both sides equally.
    pub swap: bool,
    /// This run plays only the matches `i` with `i % n == k - 1` (`Some((k, n))`).
    pub shard: Option<(u64, u64)>,
}

impl Plan {
    /// The indices this run plays.
    pub fn indices(&self) -> Vec<u64> {
        (0..self.matches).filter(|i| self.shard.is_none_or(|(k, n)| i % n == k - 1)).collect()
    }
    /// The bots of match `i`, after any swap.
    pub fn bots_of(&self, i: u64) -> Vec<Option<BotSpec>> {
        let mut bots = self.bots.clone();
        if self.swap && i % 2 == 1 && bots.len() >= 2 {
            bots.swap(0, 1);
        }
        bots
    }
}

/// Plays the plan's matches on the current thread pool; `progress` is called after each
/// match with the number done. Results come back in index order.
pub fn run(lab: &dyn Lab, plan: &Plan, progress: &(dyn Fn(u64) + Sync)) -> Result<Vec<MatchResult>, String> {
    let done = AtomicU64::new(0);
    let mut results: Vec<Result<MatchResult, String>> = plan
        .indices()
        .into_par_iter()
        .map(|i| {
            let seed = match_seed(plan.seed, i);
            let r = lab.play(&plan.request, seed, &plan.bots_of(i)).map(|mut m| {
                m.index = i;
                m
            });
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            r
        })
        .collect();
    results.sort_by_key(|r| r.as_ref().map(|m| m.index).unwrap_or(0));
    results.into_iter().collect()
}
