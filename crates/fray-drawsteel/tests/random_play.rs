//! Conformance: random-legal bots fight the built-in encounter to the end over many seeds;
//! every offered option is accepted and the invariants hold.

use fray_ai::{Bot, RandomBot};
use fray_core::dice::{AnyDice, SeededDice};
use fray_core::session::Session;
use fray_drawsteel::{DrawSteel, setup};

fn play(seed: u64) -> Vec<String> {
    play_with(seed, Default::default())
}

fn play_with(seed: u64, options: fray_drawsteel::options::Options) -> Vec<String> {
    let blocks = setup::builtin_blocks().unwrap();
    let (map, units) = setup::default_encounter();
    let mut state = setup::build(&map, &blocks, &units, options).unwrap();
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

#[test]
fn random_combats_finish_cleanly() {
    let n: u64 = std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    for seed in 0..n {
        play(seed);
    }
}

/// The table option that offers every ability roll at a lower tier (DS-GAP-1) gives the bots
/// one more decision; a quarter as many combats as the default run.
#[test]
fn random_combats_with_lower_tiers_offered() {
    let n: u64 = std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let options = fray_drawsteel::options::Options { offer_lower_tier: true, ..Default::default() };
    for seed in 0..n.div_ceil(4) {
        play_with(seed, options.clone());
    }
}

#[test]
fn the_same_seed_replays_the_same_combat() {
    assert_eq!(play(4), play(4));
}
