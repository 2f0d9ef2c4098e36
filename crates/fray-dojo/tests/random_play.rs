//! Conformance: random-legal bots fight the sample encounter to the end over many seeds,
//! through the core's harness (every offered option accepted, option ids read back, the record
//! replays); the Dojo's own invariants hold after every choice.

use fray_core::conformance::{self, Settings};
use fray_dojo::{Dojo, FightSetup, State};
use std::sync::Arc;

fn invariants(_: &Dojo, s: &State) -> Result<(), String> {
    for x in &s.units {
        if x.hp > x.bar_max || x.hp < 0 {
            return Err(format!("{} has {} HP of {}", x.id, x.hp, x.bar_max));
        }
        if x.broken > x.bars {
            return Err(format!("{} has more broken bars than bars", x.id));
        }
        // Out: the last bar broken, or out of play (D-OUT-1).
        // A lone Boss over the Edge is out of play but not out (D-OUT-5).
        let gone = x.at.is_none() && !fray_dojo::enemies::ringed_out(x);
        if x.out != (x.broken >= x.bars || gone) {
            return Err(format!(
                "{}: out is {} with {} of {} bars broken, at {:?}",
                x.id, x.out, x.broken, x.bars, x.at
            ));
        }
        if let Some(p) = x.at
            && !s.map.contains(p)
            && !matches!(s.flow.last(), Some(fray_dojo::frames::Frame::Edge { .. }))
        {
            return Err(format!("{} stands beyond the map with no Edge question pending", x.id));
        }
        if x.tokens.iter().any(|&t| t < 0) || x.shield < 0 {
            return Err(format!("{} holds a negative count", x.id));
        }
        if let Some(c) = x.challenge
            && s.u(c).out
        {
            return Err(format!("{} holds the Challenge of {}, who is out (D-TOK-4)", x.id, s.u(c).id));
        }
    }
    let mut squares: Vec<_> = s.units.iter().filter_map(|x| x.at).collect();
    let n = squares.len();
    squares.sort_unstable();
    squares.dedup();
    if squares.len() != n {
        return Err("two units share a square".into());
    }
    Ok(())
}

fn play(options: &[&str], n: u64) {
    let game = Arc::new(Dojo::builtin());
    let setup = FightSetup { options: options.iter().map(|s| s.to_string()).collect(), ..Default::default() };
    let start = conformance::from_setup::<Dojo>(&setup);
    let settings = Settings { max_decisions: 50_000, ..Settings::default() };
    let (_, failures) = conformance::random_matches(&game, &start, 0..n, &settings, &invariants, |_, _| ());
    assert!(failures.is_empty(), "{} of {n} fights failed:\n{}", failures.len(), failures.join("\n"));
}

fn count() -> u64 {
    std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(60)
}

/// The sample fight, to the end, over many seeds.
#[test]
fn random_fights_finish_cleanly() {
    play(&[], count());
}

/// The same at every weight class, with the other dice choices.
#[test]
fn random_fights_at_every_weight() {
    for w in ["featherweight", "lightweight", "heavyweight", "weight-of-the-world"] {
        let weight = format!("weight={w}");
        play(&[&weight, "boss-die=4", "wild-die=8"], count().div_ceil(8));
    }
}

#[test]
fn the_same_seed_replays_the_same_fight() {
    let game = Arc::new(Dojo::builtin());
    let setup = FightSetup::default();
    conformance::same_seed_same_match(&game, &conformance::from_setup::<Dojo>(&setup), 4).unwrap();
}

/// The sample encounter's heroes against `enemies` (a force or enemy ids), `n` seeds.
fn play_force(enemies: &str, uneven: &str, n: u64) {
    let game = Arc::new(Dojo::builtin());
    let text = format!("enemies = [{enemies}]\nuneven = \"{uneven}\"\n");
    let setup = FightSetup {
        enemies: Some(fray_core::table::TeamText { path: "force.toml".into(), text }),
        ..Default::default()
    };
    let start = conformance::from_setup::<Dojo>(&setup);
    let settings = Settings { max_decisions: 50_000, ..Settings::default() };
    let (_, failures) = conformance::random_matches(&game, &start, 0..n, &settings, &invariants, |_, _| ());
    assert!(failures.is_empty(), "{enemies}: {} of {n} fights failed:\n{}", failures.len(), failures.join("\n"));
}

/// D-EN-*: the heroes against every force of the enemy chapter, to the end, with the sides'
/// bars evened out both ways (D-CMP-2).
#[test]
fn random_fights_against_every_force() {
    let content = Dojo::builtin().content().unwrap();
    let file = &content.enemies;
    let per = count().div_ceil(30).max(2);
    for (i, f) in file.force.iter().enumerate() {
        let uneven = if i % 2 == 0 { "whole" } else { "even" };
        play_force(&format!("{:?}", f.id), uneven, per);
    }
}
