//! Conformance: random-legal bots fight the built-in encounter to the end over many seeds;
//! every offered option is accepted and the invariants hold.

use fray_ai::{Bot, RandomBot};
use fray_core::dice::{AnyDice, SeededDice};
use fray_core::session::Session;
use fray_drawsteel::{DrawSteel, setup};

fn play(seed: u64) -> Vec<String> {
    let blocks = setup::builtin_blocks().unwrap();
    let (map, units) = setup::default_encounter();
    let mut state = setup::build(&map, &blocks, &units, Default::default()).unwrap();
    let mut dice = SeededDice::new(seed);
    let journal = fray_drawsteel::start(&mut state, &mut dice, None).unwrap();
    let mut session = Session::<DrawSteel>::with_journal(state, AnyDice::Seeded(dice), journal);
    let mut bot = RandomBot::new(seed);
    for n in 0..20_000 {
        let Some(d) = session.decision() else {
            return session.journal().iter().map(|e| e.to_string()).collect();
        };
        assert!(!d.options.is_empty(), "seed {seed}: decision {n} offers nothing");
        let c = <RandomBot as Bot<DrawSteel>>::choose(&mut bot, session.state(), &d);
        if let Err(e) = session.choose(&c) {
            panic!("seed {seed}: decision {n}: offered option {c:?} of a {} decision refused: {e}", d.kind);
        }
        let s = session.state();
        for x in &s.creatures {
            assert!(x.stamina <= x.max_stamina, "seed {seed}: {} above maximum Stamina", x.id);
            assert!(x.dead || x.hero || x.stamina > 0, "seed {seed}: {} should be dead", x.id);
        }
    }
    panic!("seed {seed}: the combat did not end");
}

/// Runs `f` on every seed of `seeds`, spread over the machine's cores. A panic on any seed is
/// passed on.
fn across_cores(seeds: std::ops::Range<u64>, f: impl Fn(u64) + Sync) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (seeds, f) = (seeds.clone(), &f);
                scope.spawn(move || seeds.filter(|s| s % threads == t).for_each(f))
            })
            .collect();
        for h in handles {
            h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        }
    });
}

/// 200 combats in the default run; `FRAY_RANDOM_MATCHES` of them in the long sweep (`.ci/sweep`).
#[test]
fn random_combats_finish_cleanly() {
    let n: u64 = std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    across_cores(0..n, |seed| {
        play(seed);
    });
}

#[test]
fn the_same_seed_replays_the_same_combat() {
    assert_eq!(play(4), play(4));
}
