//! `fray bench SYSTEM`: the engine's figures on this machine (random-legal decisions per
//! second, state clone, a whole match, memory per live match), measured by the core for every
//! system. The program counts its live heap bytes so the memory figure is real.

use fray_core::table::Registry;
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
