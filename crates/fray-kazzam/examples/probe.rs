//! Speed probe for random-bot play, in thread CPU time (the machine may be shared): decisions
//! per CPU second over whole matches (menu, bot, answer), and `decision()` alone replayed on
//! the states those matches passed through. `full − decision` is what a decision costs once
//! answering no longer rebuilds the menu.
//!
//! `cargo run --release -p fray-kazzam --example probe -- [default|teams|every-power] [MATCHES] [REPEATS]`
//!
//! On a busy machine, count instructions instead (deterministic): with `FRAY_PROBE_DECIDE=0`
//! (no replay) under `valgrind --tool=callgrind`, the difference between 8 and 4 matches is
//! what matches 4..8 cost to play.

use fray_ai::{Bot, RandomBot};
use fray_core::dice::{AnyDice, SeededDice};
use fray_core::ruleset::Ruleset;
use fray_kazzam::options::TableOptions;
use fray_kazzam::setup::Setup;
use fray_kazzam::state::State;
use fray_kazzam::{Kazzam, builtin};

const JETSAM: &str = include_str!("../../../examples/kazzam/team-jetsam.toml");
const FLOTSAM: &str = include_str!("../../../examples/kazzam/team-flotsam.toml");

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}
unsafe extern "C" {
    fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
}
/// Seconds of CPU this thread has used.
fn cpu() -> f64 {
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: CLOCK_THREAD_CPUTIME_ID (3 on Linux) into a valid timespec.
    unsafe { clock_gettime(3, &mut t) };
    t.sec as f64 + t.nsec as f64 * 1e-9
}

fn every_power() -> Setup {
    let all = fray_kazzam::powers::Powers::with_content().unwrap();
    let mut setup = builtin::default_setup(TableOptions { creeps: true, ..Default::default() }).unwrap();
    setup.powers = all.clone();
    for (u, _) in &mut setup.units {
        if u.kind.as_deref() == Some("creep") {
            continue;
        }
        u.level = Some(if u.team == "red" { 6 } else { 1 });
        let imp = u.implement.clone().unwrap_or_default();
        for d in all.all().iter().filter(|d| !d.reference_only && (d.class.is_some() || d.role.is_some())) {
            if d.requires.as_ref().is_none_or(|r| *r == imp) && !u.powers.contains(&d.id) {
                u.powers.push(d.id.clone());
            }
        }
    }
    setup
}

fn setup(which: &str) -> Setup {
    match which {
        "default" => builtin::default_setup(Default::default()).unwrap(),
        "teams" => {
            builtin::team_setup(("team-jetsam.toml", JETSAM), ("team-flotsam.toml", FLOTSAM), Default::default())
                .unwrap()
        }
        "every-power" => every_power(),
        other => panic!("unknown setup {other}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("default", |s| s.as_str()).to_string();
    let matches: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let repeats: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(3);
    let starts: Vec<(State, SeededDice)> = (0..matches)
        .map(|seed| {
            let mut dice = SeededDice::new(seed);
            let (state, _) = builtin::start(setup(&which), &mut dice).unwrap();
            (state, dice)
        })
        .collect();
    let (mut fulls, mut decs, mut clones) = (Vec::new(), Vec::new(), Vec::new());
    let mut n_total = 0;
    for _ in 0..repeats {
        // Whole matches.
        let mut sampled: Vec<State> = Vec::new();
        let mut n = 0usize;
        let t0 = cpu();
        for (seed, (state, dice)) in starts.iter().enumerate() {
            let (mut s, mut dice) = (state.clone(), AnyDice::Seeded(dice.clone()));
            let mut journal = Vec::new();
            let mut bot = RandomBot::new(seed as u64);
            while let Some(d) = Kazzam::decision(&s) {
                let c = <RandomBot as Bot<Kazzam>>::choose(&mut bot, &s, &d);
                Kazzam::choose(&mut s, &c, &mut dice, &mut journal).expect("offered");
                n += 1;
                if n.is_multiple_of(3) {
                    sampled.push(s.clone()); // timed below and taken out
                }
            }
        }
        let full = cpu() - t0;
        // The copies above were made inside the loop: time them alone and take them out.
        let t1 = cpu();
        let copies: Vec<State> = sampled.to_vec();
        let copy = cpu() - t1;
        drop(copies);
        // FRAY_PROBE_DECIDE=N replays decision() N times over (for profiling it alone).
        let times: usize = std::env::var("FRAY_PROBE_DECIDE").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
        let t2 = cpu();
        let mut k = 0usize;
        for _ in 0..times {
            for s in &sampled {
                k += Kazzam::decision(s).map_or(0, |d| d.options.len());
            }
        }
        let dec = (cpu() - t2) / times.max(1) as f64;
        std::hint::black_box(k);
        fulls.push((full - copy) / n as f64 * 1e6);
        decs.push(dec / sampled.len() as f64 * 1e6);
        clones.push(copy / sampled.len() as f64 * 1e6);
        n_total = n;
    }
    let med = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        (v[v.len() / 2], v[0], v[v.len() - 1])
    };
    let (f, fmin, fmax) = med(&mut fulls);
    let (d, dmin, dmax) = med(&mut decs);
    let (c, _, _) = med(&mut clones);
    println!(
        "{which}: {matches} matches, {} decisions/match; µs per decision (CPU, median of {repeats} [min–max]): \
         full {f:.2} [{fmin:.2}–{fmax:.2}], decision() {d:.2} [{dmin:.2}–{dmax:.2}], full−decision {:.2}; \
         clone {c:.2}; decisions/cpu-s full {:.0}, after change 1 ≈ {:.0}",
        n_total / matches as usize,
        f - d,
        1e6 / f,
        1e6 / (f - d)
    );
}
