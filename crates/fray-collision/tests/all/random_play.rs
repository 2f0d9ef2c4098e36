//! Conformance: random-legal bots fight battles between built groups to the end over many seeds,
//! through the core's harness (every offered option accepted, option ids read back, the record
//! replays); the battle's own invariants hold after every choice.

use fray_collision::battle::{ENDURANCE_CAP, State};
use fray_collision::{BattleSetup, Collision};
use fray_core::conformance::{self, Settings};
use std::sync::Arc;

fn invariants(_: &Collision, s: &State) -> Result<(), String> {
    for x in &s.units {
        let c = &s.cards[x.card];
        // C-BAT-7: the pool never goes above 9 nor below 0.
        if x.endurance > ENDURANCE_CAP || x.endurance < 0 {
            return Err(format!("{} has {}E", x.id, x.endurance));
        }
        if x.mana < 0 || x.stun < 0 || x.hex < 0 || x.poison < 0 || x.injuries < 0 || x.flee < 0 || x.luck < 0 {
            return Err(format!("{} holds a negative count", x.id));
        }
        // C-BAT-15: defeated exactly when injuries reach Tuf (or a Slay), and then off the table;
        // C-GL-CLING-TO-LIFE holds it on until its next recovery ends.
        if x.injuries >= c.stats.tuf && !x.defeated && !x.clinging && !x.persevering {
            return Err(format!("{} has {} injuries of Tuf {} and still stands", x.id, x.injuries, c.stats.tuf));
        }
        if x.defeated && x.at.is_some() {
            return Err(format!("{} is defeated but on the table", x.id));
        }
        if let Some(p) = x.at
            && !s.open(p)
        {
            return Err(format!("{} stands on {p:?}, not an open square", x.id));
        }
    }
    let mut squares: Vec<_> = s.units.iter().filter_map(|x| x.at).collect();
    let n = squares.len();
    squares.sort_unstable();
    squares.dedup();
    if squares.len() != n {
        return Err("two characters share a square".into());
    }
    Ok(())
}

fn play(options: &[&str], n: u64) {
    play_groups(options, &[], n);
}

/// `n` battles between two group files given as (path, text), home then away (the built-in
/// groups when none are given), under `options`.
fn play_groups(options: &[&str], groups: &[(&str, &str)], n: u64) {
    let game = Arc::new(Collision::builtin());
    let groups =
        groups.iter().map(|(path, text)| fray_core::table::TeamText { path: (*path).into(), text: (*text).into() });
    let setup = BattleSetup { options: options.iter().map(|s| s.to_string()).collect(), groups: groups.collect() };
    let start = conformance::from_setup::<Collision>(&setup);
    let settings = Settings { max_decisions: 50_000, ..Settings::default() };
    let (_, failures) = conformance::random_matches(&game, &start, 0..n, &settings, &invariants, |_, _| ());
    assert!(failures.is_empty(), "{} of {n} battles failed:\n{}", failures.len(), failures.join("\n"));
}

fn count() -> u64 {
    std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(60)
}

/// The built-in battle, to the end, over many seeds.
#[test]
fn random_battles_finish_cleanly() {
    play(&[], count());
}

/// The same with the other readings of the inferred rules, one on Fray's map with hills and
/// cover (C-BAT-HEIGHT, C-BAT-COVER).
#[test]
fn random_battles_under_other_table_options() {
    play(
        &[
            "recovery=end-of-turn",
            "crit-injury=wounding",
            "hit-threshold=0",
            "injury-step=1",
            "moves=2",
            "size=8",
            "terrain=hills",
        ],
        count().div_ceil(4),
    );
    play(&["first=blue", "hold-bonus=3", "injury-armour=0", "turns=3"], count().div_ceil(4));
}

/// Groups that play the skills the battle game knows (special attacks, Frighten, Heal, Berserk,
/// Check and Flee, Dodge and Block), over many seeds.
#[test]
fn random_skirmishes_with_every_played_skill() {
    let groups = [
        ("skirmish-home.toml", include_str!("../../../../examples/collision/skirmish-home.toml")),
        ("skirmish-away.toml", include_str!("../../../../examples/collision/skirmish-away.toml")),
    ];
    play_groups(&["size=10"], &groups, count());
}

/// Groups that play the abilities grouped in `fray_collision::abilities` (ability attacks, special
/// weapon attacks, support abilities, on-hit reactions, passive effects), over many seeds.
#[test]
fn random_battles_with_the_abilities_module() {
    let groups = [
        ("abilities-home.toml", include_str!("../../../../examples/collision/abilities-home.toml")),
        ("abilities-away.toml", include_str!("../../../../examples/collision/abilities-away.toml")),
    ];
    play_groups(&["size=10"], &groups, count());
    play_groups(&["size=8", "mage-armor=table", "moves=2", "terrain=hills"], &groups, count());
}

/// Groups that play elevation and cover (Upheaval, Wreck, Gather Courage, Snipe, Massive,
/// Levitating Move, Camouflage) on Fray's map with hills and obstacles, over many seeds
/// (C-BAT-HEIGHT, C-BAT-COVER).
#[test]
fn random_battles_on_hills_and_cover() {
    let groups = [
        ("terrain-home.toml", include_str!("../../../../examples/collision/terrain-home.toml")),
        ("terrain-away.toml", include_str!("../../../../examples/collision/terrain-away.toml")),
    ];
    play_groups(&["size=8", "terrain=hills"], &groups, count());
}

/// Groups that play the reactions of `fray_collision::reactions` (Castle, Got your Back, Sidestep,
/// Tactical Strike, Trip, Distract, Counter Attack, Challenge, Kiss of Death), over many seeds.
#[test]
fn random_battles_with_reactions_to_moves_abilities_and_activations() {
    let groups = [
        ("reactions-home.toml", include_str!("../../../../examples/collision/reactions-home.toml")),
        ("reactions-away.toml", include_str!("../../../../examples/collision/reactions-away.toml")),
    ];
    play_groups(&["size=8"], &groups, count().div_ceil(2));
    play_groups(&["size=8", "kiss-of-death=table", "recovery=end-of-turn"], &groups, count().div_ceil(4));
}

/// Groups that play the tactics abilities (`fray_collision::tactics`: Haste, Pounce, Plan Ahead,
/// Barrage and Buck Shot chains, Scissor Strike, Hyper Cutter, Pain Warp, Meteor's card,
/// Out-Maneuver's phases, Swift Assault's roles, Checkmate), over many seeds.
#[test]
fn random_battles_with_the_tactics_abilities() {
    let groups = [
        ("tactics-home.toml", include_str!("../../../../examples/collision/tactics-home.toml")),
        ("tactics-away.toml", include_str!("../../../../examples/collision/tactics-away.toml")),
    ];
    play_groups(&["size=8", "first=roll"], &groups, count().div_ceil(2));
    // With objectives scored at the end and falls from Fray's hills (C-BAT-22, C-BAT-20).
    play_groups(
        &["size=10", "pain-warp=match", "recovery=end-of-turn", "objectives=3", "terrain=hills", "falling=3"],
        &groups,
        count().div_ceil(4),
    );
    // Checkmate's friends paying in (C-GL-CHECKMATE).
    let checkmate =
        [("tactics-checkmate.toml", include_str!("../../../../examples/collision/tactics-checkmate.toml")), groups[1]];
    play_groups(&["size=8"], &checkmate, count().div_ceil(4));
}

#[test]
fn the_same_seed_replays_the_same_battle() {
    let game = Arc::new(Collision::builtin());
    let setup = BattleSetup::default();
    conformance::same_seed_same_match(&game, &conformance::from_setup::<Collision>(&setup), 4).unwrap();
}
