//! `fray bench SYSTEM`: the engine's figures on this machine (random-legal decisions per
//! second, state clone, a whole match, memory per live match), measured by the core for every
//! system. The program counts its live heap bytes so the memory figure is real.

use libmimalloc_sys as ffi;
use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::process::ExitCode;

/// The program's allocator: mimalloc (much quicker than the C library's for the many small,
/// short-lived allocations of menus and frames), counting per thread the bytes allocated and not
/// yet freed. The count is per thread so it costs no atomic operation; `fray bench` measures
/// memory on one thread.
pub struct Counting;

thread_local! {
    static LIVE: Cell<i64> = const { Cell::new(0) };
}

fn count(bytes: i64) {
    LIVE.with(|live| live.set(live.get().wrapping_add(bytes)));
}

/// The alignment every mimalloc block of at least that size has without asking (its
/// `MI_MAX_ALIGN_SIZE`, as `malloc`'s on 64-bit targets); larger ones take the aligned calls.
const PLAIN_ALIGN: usize = 16;

/// Whether `layout` is served by the plain calls: its alignment is no more than the block's.
fn plain(layout: &Layout) -> bool {
    layout.align() <= PLAIN_ALIGN && layout.align() <= layout.size()
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        // SAFETY: mimalloc's allocation calls take any size and a power-of-two alignment.
        unsafe {
            if plain(&layout) {
                ffi::mi_malloc(layout.size()).cast()
            } else {
                ffi::mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        // SAFETY: as for `alloc`.
        unsafe {
            if plain(&layout) {
                ffi::mi_zalloc(layout.size()).cast()
            } else {
                ffi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as i64));
        // SAFETY: `ptr` came from mimalloc (`alloc` or `realloc` above).
        unsafe { ffi::mi_free(ptr.cast()) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as i64 - layout.size() as i64);
        // SAFETY: `ptr` came from mimalloc with `layout`; the new block keeps its alignment.
        unsafe {
            if layout.align() <= PLAIN_ALIGN && layout.align() <= new_size {
                ffi::mi_realloc(ptr.cast(), new_size).cast()
            } else {
                ffi::mi_realloc_aligned(ptr.cast(), new_size, layout.align()).cast()
            }
        }
    }
}

/// The bytes this thread has allocated and not freed.
fn live() -> u64 {
    LIVE.with(Cell::get).max(0) as u64
}

/// What `fray bench` prints: the round with the median decisions per second, and the spread of
/// all rounds.
#[derive(serde::Serialize)]
struct Rounds {
    #[serde(flatten)]
    median: fray_core::bench::BenchReport,
    /// How many times the matches were measured.
    rounds: u32,
    /// The lowest and highest decisions per second of the rounds.
    decisions_per_second_range: (f64, f64),
}

/// `fray bench SYSTEM [--matches N] [--rounds R] [--json]`
pub fn run(systems: &crate::Systems, system: &str, matches: u64, rounds: u32, json: bool) -> Result<ExitCode, String> {
    let sys = systems.registry.get(system)?;
    sys.playable()?;
    let rounds = rounds.max(1);
    let mut all: Vec<_> = (0..rounds).map(|_| sys.bench(matches.max(1), Some(&live))).collect();
    all.sort_by(|a, b| a.decisions_per_second.total_cmp(&b.decisions_per_second));
    let range = (all[0].decisions_per_second, all[all.len() - 1].decisions_per_second);
    let r = all.swap_remove(all.len() / 2);
    if json {
        let out = Rounds { median: r, rounds, decisions_per_second_range: range };
        println!("{}", serde_json::to_string(&out).map_err(|e| e.to_string())?);
    } else {
        println!("{} — {} random matches on one core (CPU time of this thread)", sys.title(), r.matches);
        println!("  random-legal decisions per second  {:>12.0}", r.decisions_per_second);
        if rounds > 1 {
            println!("    median of {rounds} rounds; lowest {:.0}, highest {:.0}", range.0, range.1);
        }
        println!("  decisions per match                {:>12.1}", r.decisions_per_match);
        println!("  state clone (median, ns)           {:>12.0}", r.clone_ns);
        println!("  one random match (ms)              {:>12.2}", r.match_ms);
        if let Some(b) = r.bytes_per_match {
            println!("  bytes held by a finished match     {:>12}", b);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What `fray bench SYSTEM --bots` measures: the search bot's iterations a second on one core,
/// and whole matches a second of each pairing of bots.
#[derive(serde::Serialize)]
struct BotFigures {
    system: String,
    mcts_iterations_per_second: f64,
    mcts_actions_per_second: f64,
    mcts_positions: u32,
    pairings: Vec<Pairing>,
}

#[derive(serde::Serialize)]
struct Pairing {
    bots: Vec<String>,
    matches: u64,
    matches_per_second: f64,
    decisions_per_match: f64,
}

/// `fray bench SYSTEM --bots`
pub fn bots(systems: &crate::Systems, system: &str, matches: u64, json: bool) -> Result<ExitCode, String> {
    let lab = systems.lab(system)?;
    let positions = 8;
    let (rate, actions) = lab.mcts_rate(fray_ai::MctsSettings::default().iterations, positions);
    let request = fray_core::table::SetupRequest::default();
    let mut pairings = Vec::new();
    for pair in [["random", "random"], ["greedy", "random"], ["greedy", "greedy"], ["mcts", "greedy"]] {
        let specs: Vec<Option<fray_ai::BotSpec>> =
            pair.iter().map(|b| b.parse().map(Some)).collect::<Result<_, String>>()?;
        let n = if pair[0] == "random" { matches.max(1) * 10 } else { matches.max(1) };
        let start = fray_core::bench::thread_time();
        let mut decisions = 0;
        for seed in 0..n {
            decisions += lab.play(&request, seed, &specs)?.decisions;
        }
        let secs = (fray_core::bench::thread_time() - start).as_secs_f64();
        pairings.push(Pairing {
            bots: pair.iter().map(|s| s.to_string()).collect(),
            matches: n,
            matches_per_second: if secs > 0.0 { n as f64 / secs } else { 0.0 },
            decisions_per_match: decisions as f64 / n as f64,
        });
    }
    let figures = BotFigures {
        system: system.to_string(),
        mcts_iterations_per_second: rate,
        mcts_actions_per_second: actions,
        mcts_positions: positions,
        pairings,
    };
    if json {
        println!("{}", serde_json::to_string(&figures).map_err(|e| e.to_string())?);
    } else {
        println!("{system} bots, on one core (CPU time of this thread)");
        println!(
            "  MCTS iterations per second (mcts, {positions} mid-match positions)  {:>10.0}",
            figures.mcts_iterations_per_second
        );
        println!(
            "    (each expands a whole menu: actions applied per second {:>10.0})",
            figures.mcts_actions_per_second
        );
        for p in &figures.pairings {
            println!(
                "  {:<16} {:>8.2} matches/s  ({} matches, {:.0} decisions each)",
                p.bots.join(" v "),
                p.matches_per_second,
                p.matches,
                p.decisions_per_match
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
