//! Conformance: random-legal bots fight the built-in encounter to the end over many seeds,
//! through the core's harness (every offered option accepted, option ids read back, the record
//! replays), spread over the cores; Draw Steel's own invariants hold after every choice.

use fray_core::conformance::{self, Settings};
use fray_drawsteel::{DrawSteel, EncounterSetup, State};
use std::sync::Arc;

fn invariants(_: &DrawSteel, s: &State) -> Result<(), String> {
    for x in &s.creatures {
        if x.stamina > x.max_stamina {
            return Err(format!("{} above maximum Stamina", x.id));
        }
        if !(x.dead || x.hero || x.stamina > 0) {
            return Err(format!("{} should be dead", x.id));
        }
    }
    Ok(())
}

/// 200 combats in the default run; `FRAY_RANDOM_MATCHES` of them in the long sweep (`.ci/sweep`),
/// spread over the cores by the harness.
#[test]
fn random_combats_finish_cleanly() {
    let n: u64 = std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let game = Arc::new(DrawSteel::builtin());
    let setup = EncounterSetup::default();
    let start = conformance::from_setup::<DrawSteel>(&setup);
    let settings = Settings { max_decisions: 20_000, ..Settings::default() };
    let (_, failures) = conformance::random_matches(&game, &start, 0..n, &settings, &invariants, |_, _| ());
    assert!(failures.is_empty(), "{} of {n} combats failed:\n{}", failures.len(), failures.join("\n"));
}

/// The table option that offers every ability roll at a lower tier (DS-GAP-1) gives the bots
/// one more decision; a quarter as many combats as the default run.
#[test]
fn random_combats_with_lower_tiers_offered() {
    let n: u64 = std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let game = Arc::new(DrawSteel::builtin());
    let setup = EncounterSetup { options: vec!["offer-lower-tier=true".into()] };
    let start = conformance::from_setup::<DrawSteel>(&setup);
    let settings = Settings { max_decisions: 20_000, ..Settings::default() };
    let (_, failures) = conformance::random_matches(&game, &start, 0..n.div_ceil(4), &settings, &invariants, |_, _| ());
    assert!(failures.is_empty(), "{} combats failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_same_seed_replays_the_same_combat() {
    let game = Arc::new(DrawSteel::builtin());
    let setup = EncounterSetup::default();
    conformance::same_seed_same_match(&game, &conformance::from_setup::<DrawSteel>(&setup), 4).unwrap();
}
