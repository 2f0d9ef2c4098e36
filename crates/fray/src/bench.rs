//! `fray bench SYSTEM`: the engine's figures on this machine (random-legal decisions per
//! second, state clone, a whole match, memory per live match), measured by the core for every
//! system. The program counts its live heap bytes so the memory figure is real.

use fray_core::table::Registry;
use mimalloc::MiMalloc;
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

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        // SAFETY: the caller's layout is passed on unchanged.
        unsafe { MiMalloc.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        // SAFETY: as for `alloc`.
        unsafe { MiMalloc.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as i64));
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { MiMalloc.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as i64 - layout.size() as i64);
        // SAFETY: as for `alloc` and `dealloc`.
        unsafe { MiMalloc.realloc(ptr, layout, new_size) }
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
pub fn run(registry: &Registry, system: &str, matches: u64, rounds: u32, json: bool) -> Result<ExitCode, String> {
    let sys = registry.get(system)?;
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
