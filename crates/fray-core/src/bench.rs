//! The figures `fray bench SYSTEM` prints, measured the same way for every system: random-legal
//! decisions per second on the hot path (`node`, `legal`, a random pick, `apply` with no
//! journal), a state clone, a whole random match, and the memory a live match holds.
//!
//! Times are CPU time of the measuring thread, so other processes on the machine do not count;
//! they still vary with the machine, so compare figures taken on the same one.

use crate::conformance::{Start, random_pick};
use crate::dice::{AnyDice, SeededDice};
use crate::game::{ActionId, Game, Node, NullSink};
use crate::session::Session;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

/// What `fray bench` measured.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    /// The system.
    pub system: String,
    /// Matches played for the decision and match figures.
    pub matches: u64,
    /// Random-legal decisions per second of CPU, on one core.
    pub decisions_per_second: f64,
    /// Mean decisions in a match.
    pub decisions_per_match: f64,
    /// A state clone and its drop, on states from the middle of matches (median, ns).
    pub clone_ns: f64,
    /// A whole random match, setup included (mean CPU ms).
    pub match_ms: f64,
    /// The bytes a finished match holds live in a session (state, journal, record).
    pub bytes_per_match: Option<u64>,
}

/// CPU time of the calling thread (zero where the platform cannot tell).
pub fn thread_time() -> Duration {
    cpu_time::ThreadTime::try_now().map(|t| t.as_duration()).unwrap_or_default()
}

/// Plays one random match on the hot path; returns its decisions, and every `sample`-th state
/// when asked.
fn play<G: Game>(game: &G, start: Start<'_, G>, seed: u64, mut sample: Option<&mut Vec<G::State>>) -> usize {
    let mut dice = SeededDice::new(seed);
    let Ok(mut state) = start(game, &mut dice, &mut Vec::new()) else { return 0 };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut legal: Vec<ActionId> = Vec::new();
    let mut n: usize = 0;
    while let Node::Decide { seats, .. } = game.node(&state) {
        let Some(seat) = seats.first() else { break };
        legal.clear();
        game.legal(&state, seat, &mut legal);
        if legal.is_empty() {
            break;
        }
        let a = random_pick(&mut rng, &legal);
        if game.apply(&mut state, seat, a, &mut dice, &mut NullSink).is_err() {
            break;
        }
        n += 1;
        if let Some(s) = sample.as_deref_mut()
            && n.is_multiple_of(7)
        {
            s.push(state.clone());
        }
    }
    n
}

/// Measures `game` over `matches` random matches from `start` (seeds 0..matches); `live_bytes`,
/// when the program counts its allocations, reads how many bytes are allocated now.
pub fn measure<G: Game>(
    game: &Arc<G>,
    start: Start<'_, G>,
    matches: u64,
    live_bytes: Option<&dyn Fn() -> u64>,
) -> BenchReport {
    // Warm up (page in, fill caches), then time the matches.
    play(&**game, start, u64::MAX, None);
    let t0 = thread_time();
    let mut decisions = 0usize;
    for seed in 0..matches {
        decisions += play(&**game, start, seed, None);
    }
    let cpu = (thread_time() - t0).as_secs_f64().max(1e-9);

    let mut states = Vec::new();
    for seed in 0..matches.min(20) {
        play(&**game, start, seed, Some(&mut states));
    }
    let mut clone_ns: Vec<f64> = states
        .iter()
        .map(|s| {
            const REPS: u32 = 200;
            let t = thread_time();
            for _ in 0..REPS {
                black_box(black_box(s).clone());
            }
            (thread_time() - t).as_nanos() as f64 / REPS as f64
        })
        .collect();
    clone_ns.sort_by(f64::total_cmp);

    let bytes_per_match = live_bytes.map(|live| {
        let before = live();
        let session = play_session(game, start);
        let after = live();
        drop(session);
        after.saturating_sub(before)
    });

    BenchReport {
        system: game.id().to_string(),
        matches,
        decisions_per_second: decisions as f64 / cpu,
        decisions_per_match: decisions as f64 / matches.max(1) as f64,
        clone_ns: clone_ns.get(clone_ns.len() / 2).copied().unwrap_or(0.0),
        match_ms: cpu * 1000.0 / matches.max(1) as f64,
        bytes_per_match,
    }
}

/// A whole random match through a session, as a server holds one: state, journal and record.
fn play_session<G: Game>(game: &Arc<G>, start: Start<'_, G>) -> Option<Session<G>> {
    let mut dice = SeededDice::new(0);
    let mut journal = Vec::new();
    let state = start(&**game, &mut dice, &mut journal).ok()?;
    let mut session = Session::from_state(game.clone(), state, AnyDice::Seeded(dice), journal);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut legal = Vec::new();
    while let Node::Decide { seats, .. } = session.node() {
        let seat = seats.first()?;
        session.legal(seat, &mut legal);
        let a = random_pick(&mut rng, &legal);
        session.apply(seat, a).ok()?;
    }
    Some(session)
}
