//! The conformance harness every system runs: random-legal bots play whole matches; every
//! option the engine offers must be accepted, every invariant must hold after every choice,
//! and the same seed must replay the same journal.
//!
//! Budgets: `cargo test` plays a short fixed run of every test (`quick` below). The long sweep
//! (`.ci/sweep`: `FRAY_RANDOM_MATCHES=3000`) plays thousands of matches and
//! checks that every playable power comes up.

use fray_core::conformance;
use fray_kazzam::content::builtin;
use fray_kazzam::engine::state::State;
use fray_kazzam::{Content, Kazzam};
use std::sync::{Arc, LazyLock};

const MAX_DECISIONS: usize = 50_000;

/// The compiled-in content, parsed once for the whole run.
static CONTENT: LazyLock<Arc<Content>> = LazyLock::new(|| Arc::new(Content::builtin()));
/// Kazzam playing it.
static GAME: LazyLock<Arc<Kazzam>> = LazyLock::new(|| Arc::new(Kazzam::with_content(CONTENT.clone())));

use crate::common::invariants;

/// `FRAY_RANDOM_MATCHES`, set for the long sweep (`.ci/sweep`); unset in the default run.
fn sweep_matches() -> Option<u64> {
    std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse().ok())
}

/// How many matches a test plays: `quick` in the default run, `sweep(FRAY_RANDOM_MATCHES)` in
/// the sweep.
fn budget(quick: u64, sweep: impl Fn(u64) -> u64) -> u64 {
    sweep_matches().map_or(quick, sweep)
}

/// Whether a setup unit is an athlete (the built-in arena also holds Creeps, table option `creeps`).
fn is_athlete(u: &fray_kazzam::engine::setup::UnitSpec) -> bool {
    u.kind.as_deref().is_none_or(|k| k == "athlete")
}

/// Plays one match on the built-in setup; returns its journal.
fn play(seed: u64, check: bool) -> Vec<String> {
    play_setup(seed, check, builtin::default_setup(&CONTENT, Default::default()).unwrap())
}

const JETSAM: &str = include_str!("../../../../examples/kazzam/team-jetsam.toml");
const FLOTSAM: &str = include_str!("../../../../examples/kazzam/team-flotsam.toml");

fn teams() -> fray_kazzam::engine::setup::Setup {
    builtin::team_setup(&CONTENT, ("team-jetsam.toml", JETSAM), ("team-flotsam.toml", FLOTSAM), Default::default())
        .unwrap()
}

/// Plays one match through the core's conformance harness (every offered option accepted,
/// option ids read back, menu paths against their commands, the record replays on one seed in
/// eight); returns its journal.
fn play_setup(seed: u64, check: bool, setup: fray_kazzam::engine::setup::Setup) -> Vec<String> {
    play_checking(seed, check, setup, (7, 3))
}

/// [`play_setup`], describing every `every.0`-th decision and taking every `every.1`-th as a
/// typed command (both checked against the menu by the conformance harness).
fn play_checking(
    seed: u64,
    check: bool,
    setup: fray_kazzam::engine::setup::Setup,
    every: (usize, usize),
) -> Vec<String> {
    let game = GAME.clone();
    let start = move |g: &Kazzam, dice: &mut dyn fray_core::dice::Dice, out: &mut Vec<fray_kazzam::Event>| {
        g.start_from(setup.clone(), dice, out)
    };
    let settings = conformance::Settings {
        max_decisions: MAX_DECISIONS,
        describe_every: every.0,
        replay: seed.is_multiple_of(8),
        command_every: every.1,
    };
    let checks = move |_: &Kazzam, s: &State| if check { invariants(s) } else { Ok(()) };
    match conformance::random_match(&game, &start, seed, &settings, &checks) {
        Ok(played) => played.journal.iter().map(|e| e.to_string()).collect(),
        Err(e) => panic!("{e}"),
    }
}

/// Runs `f` on every seed of `seeds`, spread over the machine's cores; the results in seed
/// order. A panic on any seed is passed on.
fn across_cores<T: Send>(seeds: std::ops::Range<u64>, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let mut out: Vec<(u64, T)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (seeds, f) = (seeds.clone(), &f);
                scope.spawn(move || seeds.filter(|s| s % threads == t).map(|s| (s, f(s))).collect::<Vec<_>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    out.sort_by_key(|(s, _)| *s);
    out.into_iter().map(|(_, x)| x).collect()
}

#[test]
fn random_matches_finish_with_every_invariant_intact() {
    let matches = budget(200, |n| n);
    across_cores(0..matches, |seed| {
        play(seed, true);
    });
}

#[test]
fn the_same_seed_replays_the_same_match() {
    for seed in [3, 17, 99] {
        assert_eq!(play(seed, false), play(seed, false), "seed {seed} replayed differently");
    }
}

/// Two teams built from files play whole matches; every power of theirs that the engine plays
/// gets used across the seeds (issue: Kazzam content, "Done means").
#[test]
fn built_teams_play_and_use_their_powers() {
    let matches = budget(100, |n| (n / 10).max(50));
    let setup = teams();
    let mut playable: Vec<String> = Vec::new();
    for (u, _) in &setup.units {
        for p in &u.powers {
            let i = setup.powers.find(p).expect("team power in the registry");
            let def = setup.powers.get(i);
            if !def.reference_only && !playable.contains(&def.name) {
                playable.push(def.name.clone());
            }
        }
    }
    assert!(!playable.is_empty());
    let found = across_cores(0..matches, |seed| {
        let mut used = std::collections::BTreeSet::new();
        for line in play_setup(seed, true, teams()) {
            for name in &playable {
                if line.contains(&format!("uses {name}")) {
                    used.insert(name.clone());
                }
            }
        }
        used
    });
    let used: std::collections::BTreeSet<String> = found.into_iter().flatten().collect();
    let unused: Vec<&String> = playable.iter().filter(|p| !used.contains(*p)).collect();
    assert!(unused.is_empty(), "powers never used in {matches} matches: {unused:?}");
}

/// Not a power: an attack made from a Source Warp (its journal note), which bots must make too.
const FROM_WARP: &str = "an attack from a Source Warp";

/// Every class and role power the engine plays, given to every athlete of the built-in match
/// (red at level 6, blue at level 1): random bots must be able to use each of them, and nothing
/// they do with them may break a rule invariant or be refused once offered.
#[test]
fn every_playable_power_survives_random_play() {
    let matches = budget(10, |n| (n / 20).max(50));
    let all = CONTENT.powers().clone();
    let playable: Vec<&fray_kazzam::content::powers::PowerDef> =
        all.all().iter().filter(|d| !d.reference_only && (d.class.is_some() || d.role.is_some())).collect();
    let setup = || {
        // Creep groups on the field orbs, so the Hunter's Creep powers have something to work on.
        let options = fray_kazzam::engine::options::TableOptions { creeps: true, ..Default::default() };
        let mut setup = builtin::default_setup(&CONTENT, options).unwrap();
        setup.powers = all.clone();
        for (u, _) in &mut setup.units {
            if u.kind.as_deref() == Some("creep") {
                continue;
            }
            u.level = Some(if u.team == "red" { 6 } else { 1 });
            let imp = u.implement.clone().unwrap_or_default();
            // Change Spell needs a learned spell out of force; Foreseen Result, the Seer feature;
            // Target Lock, the Scryer's lock; Empathic Bond goes with the Empath's copies.
            u.learned = vec!["shivering-sword-regenerative".into()];
            u.features = vec!["diviner-seer".into(), "diviner-scryer".into(), "diviner-empath".into()];
            for d in &playable {
                if d.requires.as_ref().is_none_or(|r| *r == imp) && !u.powers.contains(&d.id) {
                    u.powers.push(d.id.clone());
                }
            }
            // The triggered class features too (Revenge Fire, Defensive Fire, Reposition).
            for f in fray_kazzam::engine::triggers::FEATURES {
                if !u.features.iter().any(|x| x == f) {
                    u.features.push(f.to_string());
                }
            }
        }
        setup
    };
    // Every one of `matches` seeds is played (no panic, no refusal); if some power has still not
    // come up by then, as many again are played looking for it, twice over (follow-up powers such as
    // Involuntary Lift's slide need their opener first). Seeds are spread over the cores. The
    // default run plays one short batch and checks invariants only; the sweep checks coverage.
    let sweep = sweep_matches().is_some();
    // Describing a decision and parsing a typed command each rebuild the whole menu, which with
    // every power on every athlete is most of this test's time: the default run checks them
    // less often than the other tests do (they check the same code on every match), the sweep
    // as often.
    let every = if sweep { (7, 3) } else { (29, 11) };
    let names = |journal: Vec<String>| -> std::collections::BTreeSet<String> {
        let mut out = std::collections::BTreeSet::new();
        for line in journal {
            for d in &playable {
                if line.contains(&format!("uses {}", d.name)) {
                    out.insert(d.name.clone());
                }
            }
            if line.contains("attacks from its Source Warp") {
                out.insert(FROM_WARP.to_string()); // an attack made from the warp (warp_origin)
            }
        }
        out
    };
    // FRAY_SEED=N replays just that seed (to look into a failure this test reported).
    if let Some(seed) = std::env::var("FRAY_SEED").ok().and_then(|v| v.parse::<u64>().ok()) {
        play_setup(seed, true, setup());
        return;
    }
    let mut used = std::collections::BTreeSet::new();
    let mut played = 0;
    for batch in [0..matches, matches..matches * 2, matches * 2..matches * 3] {
        if batch.start > 0 && (!sweep || used.len() == playable.len() + 1) {
            break;
        }
        played = batch.end;
        used.extend(across_cores(batch, |seed| names(play_checking(seed, true, setup(), every))).into_iter().flatten());
    }
    let unused: Vec<&str> =
        playable.iter().map(|d| d.name.as_str()).chain([FROM_WARP]).filter(|n| !used.contains(*n)).collect();
    if sweep {
        assert!(unused.is_empty(), "playable powers never used in {played} random matches: {unused:?}");
    } else {
        eprintln!("{} powers not used in {played} matches (the sweep, .ci/sweep, checks them all)", unused.len());
    }
}

/// The built-in arena with its Creep groups (table option `creeps`): random bots provoke them,
/// the Creeps act at the end of the round, and every invariant holds.
#[test]
fn creeps_act_in_random_play() {
    let matches = budget(40, |n| (n / 5).max(40));
    let seen = across_cores(0..matches, |seed| {
        let (mut joined, mut acted) = (false, false);
        let options = fray_kazzam::engine::options::TableOptions { creeps: true, ..Default::default() };
        for line in play_setup(seed, true, builtin::default_setup(&CONTENT, options).unwrap()) {
            joined |= line.contains("joins the Enemies List");
            acted |= [
                "uses Grab",
                "uses Tackle",
                "uses Heave",
                "uses Roar",
                "uses Soften",
                "uses Beckon",
                "uses Pain of Eros",
            ]
            .iter()
            .any(|a| line.contains(a));
        }
        (joined, acted)
    });
    let (joined, acted) = (seen.iter().any(|s| s.0), seen.iter().any(|s| s.1));
    assert!(joined, "nobody ever joined a Creep group's Enemies List in {matches} matches");
    assert!(acted, "no Creep ever attacked in {matches} matches");
}

/// Every stat block plays: the built-in arena with its two field orbs guarded by each Creep
/// group of the book in turn (group sizes by type and N, K-CTYPE, at most four; Teams their
/// first N+1 members, then the rest; the Crowned Birds one of each crown), and every invariant
/// holds.
#[test]
fn every_stat_block_plays_in_random_matches() {
    use fray_kazzam::content::creeps::CreepType;
    let matches = budget(8, |n| (n / 50).max(10));
    let mut base = builtin::default_setup(&CONTENT, Default::default()).unwrap();
    base.units.retain(|(u, _)| u.kind.as_deref() != Some("creep")); // the arena's own groups
    let n = ["red", "blue"].map(|t| base.units.iter().filter(|(u, _)| u.team == t && is_athlete(u)).count());
    let n = n[0].max(n[1]) as i32;
    let defs = CONTENT.creeps();
    // Each group: its members' stat blocks.
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut teams: Vec<&str> = Vec::new();
    for d in defs {
        match (&d.team, d.id.ends_with("crowned-bird")) {
            (Some(t), _) if !teams.contains(&t.as_str()) => {
                teams.push(t);
                // The first N+1 as a map places them, the rest as a second group (all play).
                let members: Vec<String> =
                    defs.iter().filter(|x| x.team.as_deref() == Some(t)).map(|x| x.id.clone()).collect();
                groups.extend(members.chunks((n + 1).min(4) as usize).map(|c| c.to_vec()));
            }
            (Some(_), _) => {}
            (None, true) if d.id.starts_with("flame") => {
                groups.push(defs.iter().filter(|x| x.id.ends_with("crowned-bird")).map(|x| x.id.clone()).collect());
            }
            (None, true) => {}
            (None, false) => groups.push(vec![d.id.clone(); d.kind.group_size(n).min(4) as usize]),
        }
    }
    assert!(groups.len() >= 13, "{groups:?}");
    assert!(defs.iter().all(|d| groups.iter().flatten().any(|g| *g == d.id)));
    // Room for four Creeps (2x2 ones too) round the upper and the central neutral orb.
    let slots = [[(7, 0), (12, 0), (4, 0), (15, 0)], [(6, 5), (13, 5), (6, 7), (13, 7)]];
    let orbs = ["n-1", "n-2"];
    let setups: Vec<_> = groups
        .chunks(2)
        .map(|pair| {
            let mut setup = base.clone();
            for (k, group) in pair.iter().enumerate() {
                for (i, what) in group.iter().enumerate() {
                    let at = slots[k][i];
                    let mut u = fray_kazzam::engine::setup::UnitSpec::athlete(
                        &format!("{what}-{}", i + 1),
                        "neutral",
                        fray_core::grid::Pos::new(at.0, at.1),
                    );
                    u.kind = Some("creep".into());
                    u.what = Some(what.clone());
                    u.group = Some(format!("{}-group", group[0]));
                    u.guards = Some(orbs[k].into());
                    setup.units.push((u, None));
                }
            }
            setup
        })
        .collect();
    assert!(defs.iter().any(|d| d.kind == CreepType::Goon));
    for setup in setups {
        across_cores(0..matches, |seed| {
            play_setup(seed, true, setup.clone());
        });
    }
}

/// A Shivering Sword with learned spells plays random matches against a built team: Change
/// Spell and the respawn choice come up, and every invariant holds.
#[test]
fn a_shivering_sword_swaps_its_spells_in_random_matches() {
    let sword = include_str!("../../../../examples/kazzam/shivering-sword.toml");
    let swapped = across_cores(0..40, |seed| {
        let setup = builtin::team_setup(
            &CONTENT,
            ("shivering-sword.toml", sword),
            ("team-flotsam.toml", FLOTSAM),
            Default::default(),
        )
        .unwrap();
        play_setup(seed, true, setup).iter().any(|l| l.contains("in force in place of"))
    });
    assert!(swapped.contains(&true), "no spell was ever swapped");
}

/// A Tamer built from a character file plays random matches against a built team: it summons
/// its creatures (both, with Collector, once a Take Out refreshes one), commands them, and
/// every invariant holds.
#[test]
fn a_built_tamer_summons_and_commands_in_random_matches() {
    let tamer = include_str!("../../../../examples/kazzam/tamer.toml");
    let seen = across_cores(0..40, |seed| {
        let setup =
            builtin::team_setup(&CONTENT, ("tamer.toml", tamer), ("team-flotsam.toml", FLOTSAM), Default::default())
                .unwrap();
        let (mut summoned, mut commanded) = (false, false);
        for line in play_setup(seed, true, setup) {
            summoned |= line.contains("(Flame Pig) appears") || line.contains("(Scalehound) appears");
            commanded |= line.contains("uses Goring Tusks") || line.contains("uses Hissing Howl");
        }
        (summoned, commanded)
    });
    let (summoned, commanded) = (seen.iter().any(|s| s.0), seen.iter().any(|s| s.1));
    assert!(summoned, "the Tamer never summoned a creature");
    assert!(commanded, "the Tamer never commanded a creature");
}

/// Every class feature Fray plays, given together to every athlete of the built-in match (red at
/// level 5, blue at level 1): random bots answer every question the features ask, and nothing
/// they do breaks a rule invariant or is refused once offered.
#[test]
fn every_played_feature_survives_random_play() {
    let matches = budget(60, |n| (n / 5).max(30));
    let played: Vec<String> = CONTENT
        .features()
        .iter()
        .filter(|id| fray_kazzam::classes::features::Feature::parse(id, &CONTENT).is_some_and(|f| f.played()))
        .cloned()
        .collect();
    assert!(played.len() >= 30, "{played:?}");
    let setup = || {
        let mut setup = builtin::default_setup(&CONTENT, Default::default()).unwrap();
        setup.powers = CONTENT.powers().clone();
        for (u, _) in &mut setup.units {
            u.level = Some(if u.team == "red" { 5 } else { 1 });
            u.features = played.iter().filter(|f| *f != "shivering-sword-regenerative").cloned().collect();
            u.learned = vec!["shivering-sword-regenerative".into()];
            u.charge_tokens = Some(2);
            u.powers.extend(["self-lift-flight".to_string(), "change-spell".to_string()]);
        }
        setup
    };
    across_cores(0..matches, |seed| {
        play_setup(seed, true, setup());
    });
}

/// Every advanced implement Fray plays, handed out in turn to the athletes of the built-in match
/// whose implement it upgrades: random bots play with them, every invariant holds and nothing
/// offered is refused; the Throwing Sword gets thrown and attacks get spread over zones.
#[test]
fn every_played_advanced_implement_survives_random_play() {
    let matches = budget(60, |n| (n / 5).max(30));
    let played = fray_kazzam::implements::advanced::PLAYED;
    let seen = across_cores(0..matches, |seed| {
        let mut setup = builtin::default_setup(&CONTENT, Default::default()).unwrap();
        for (i, (u, _)) in setup.units.iter_mut().enumerate().filter(|(_, (u, _))| is_athlete(u)) {
            let imp = fray_kazzam::engine::state::Implement::parse(u.implement.as_deref().unwrap_or("staff"));
            let fits: Vec<&str> =
                played.iter().filter(|(_, a)| Some(a.implement()) == imp).map(|(id, _)| *id).collect();
            if !fits.is_empty() {
                u.advanced_implement = Some(fits[(seed as usize + i) % fits.len()].to_string());
            }
        }
        let log = play_setup(seed, true, setup);
        let thrown = log.iter().any(|l| l.contains("Throwing Sword: thrown"));
        // A basic attack on several targets: spread over a zone (Multi-Sword, Multi-Staff).
        let spread = log.iter().any(|l| l.contains("uses Basic Implement Attack on") && l.contains(", "));
        (thrown, spread)
    });
    let (thrown, spread) = (seen.iter().any(|s| s.0), seen.iter().any(|s| s.1));
    assert!(thrown, "no Throwing Sword was ever thrown in {matches} matches");
    assert!(spread, "no attack was ever spread over a zone in {matches} matches");
}

/// Defender and Controller specializations in turn (red at level 4, blue at level 1): their Role
/// Boosts and features (Punisher's Marks, Pursuer's pull and slide round, the level-4 slide into
/// characters, Lockdown, Crowd Control...) come up in random matches, every invariant holds and
/// nothing offered is refused.
#[test]
fn defender_and_controller_specializations_survive_random_play() {
    let matches = budget(60, |n| (n / 5).max(30));
    const CONTROLLERS: [&str; 4] = ["crowd-control", "guardian", "lockdown", "protector"];
    const DEFENDERS: [&str; 4] = ["punisher", "pursuer", "juggernaut", "smasher"];
    let found = across_cores(0..matches, |seed| {
        let mut seen = std::collections::BTreeSet::new();
        let mut setup = builtin::default_setup(&CONTENT, Default::default()).unwrap();
        setup.powers = CONTENT.powers().clone();
        for (i, (u, _)) in setup.units.iter_mut().enumerate().filter(|(_, (u, _))| is_athlete(u)) {
            let k = seed as usize + i;
            match i % 3 {
                0 => (u.role, u.specialization) = (Some("controller".into()), Some(CONTROLLERS[k % 4].into())),
                1 => {
                    (u.role, u.specialization) = (Some("defender".into()), Some(DEFENDERS[k % 4].into()));
                    u.powers.push("defenders-mark".into());
                }
                _ => {}
            }
            u.level = Some(if u.team == "red" { 4 } else { 1 });
        }
        for line in play_setup(seed, true, setup) {
            for key in ["Crowd Control", "around it, then shift", "Role Boost: pull", "is slid on with", "+1 damage"] {
                if line.contains(key) {
                    seen.insert(key);
                }
            }
        }
        seen
    });
    let seen: std::collections::BTreeSet<&str> = found.into_iter().flatten().collect();
    for key in ["Crowd Control", "around it, then shift", "Role Boost: pull", "is slid on with", "+1 damage"] {
        assert!(seen.contains(key), "{key:?} never came up in {matches} matches: {seen:?}");
    }
}

/// The Role Boosts and specialization features of the Leaders and Specialists (Motivator,
/// Tactician, Runner, Trapper, Terrain Artist and the rest), handed out in turn to the athletes
/// of the built-in match at levels 1 and 4: random bots answer every question they ask.
#[test]
fn specializations_survive_random_play() {
    let matches = budget(60, |n| (n / 5).max(30));
    // One athlete per role on a team (K-FMT-1): a Leader and a Specialist each.
    let leaders = ["motivator", "tactician", "rescuer", "vanguard"];
    let specialists = ["runner", "trapper", "terrain-artist", "hunter"];
    let found = across_cores(0..matches, |seed| {
        let mut seen = std::collections::BTreeSet::new();
        let mut setup = builtin::default_setup(&CONTENT, Default::default()).unwrap();
        for (i, (u, _)) in setup.units.iter_mut().enumerate().filter(|(_, (u, _))| is_athlete(u)) {
            let k = seed as usize + i;
            let (role, spec) = match i % 3 {
                0 => ("leader", leaders[k % leaders.len()]),
                1 => ("specialist", specialists[k % specialists.len()]),
                _ => continue,
            };
            u.role = Some(role.into());
            u.specialization = Some(spec.into());
            u.level = Some(if u.team == "red" { 4 } else { 1 });
        }
        for line in play_setup(seed, true, setup) {
            for what in ["Role Boost", "Runner", "Trapper", "trapper-trap", "above its maximum HP"] {
                if line.contains(what) {
                    seen.insert(what);
                }
            }
        }
        seen
    });
    let seen: std::collections::BTreeSet<&str> = found.into_iter().flatten().collect();
    assert_eq!(seen.len(), 5, "only {seen:?} came up in {matches} matches");
}

/// Strikers of every specialization and Hunters in the built-in match (red at level 4, blue at
/// level 1): the Striker Conditions, the Blaster's picks, the Bruiser's Ward and the Sniper's
/// range hold up in random play, and nothing offered is refused.
#[test]
fn striker_and_hunter_boosts_survive_random_play() {
    let matches = budget(40, |n| (n / 5).max(40));
    let specs = ["blitzer", "bruiser", "sniper", "blaster"];
    let seen = across_cores(0..matches, |seed| {
        let mut setup = builtin::default_setup(&CONTENT, Default::default()).unwrap();
        for (i, (u, _)) in setup.units.iter_mut().enumerate().filter(|(_, (u, _))| is_athlete(u)) {
            let slot = (i + seed as usize) % 3; // which of the three carries which role
            u.level = Some(if u.team == "red" { 4 } else { 1 });
            let (role, spec) = match slot {
                0 => ("striker", specs[(seed as usize + i) % specs.len()]),
                1 => ("specialist", "hunter"),
                _ => ("defender", "juggernaut"),
            };
            u.role = Some(role.into());
            u.specialization = Some(spec.into());
        }
        let log = play_setup(seed, true, setup);
        let blasted = log.iter().any(|l| l.contains("Role Boost (Blaster)"));
        let ward = log.iter().any(|l| l.contains("Bruiser: moved 1 square or less"));
        (blasted, ward)
    });
    let (blasted, ward) = (seen.iter().any(|s| s.0), seen.iter().any(|s| s.1));
    assert!(blasted, "no Blaster ever sent its extra damage elsewhere in {matches} matches");
    assert!(ward, "no Bruiser ever gained its Ward in {matches} matches");
}

/// The Pest given to every athlete of the built-in match: random bots summon it, it latches onto
/// enemies and rides them about, hosts shake it off, misses on it hit its host, and every
/// invariant holds (a riding Pest shares its host's square and nobody else's).
#[test]
fn the_pest_rides_in_random_matches() {
    let counts = across_cores(0..40, |seed| {
        let (mut latched, mut shaken, mut redirected) = (0, 0, 0);
        let mut setup = builtin::default_setup(&CONTENT, Default::default()).unwrap();
        setup.powers = CONTENT.powers().clone();
        for (u, _) in &mut setup.units {
            u.level = Some(3);
            u.powers.push("the-pest".into());
        }
        for line in play_setup(seed, true, setup) {
            latched += usize::from(line.contains("latches onto"));
            shaken += usize::from(line.contains("uses Shake Off Pest"));
            redirected += usize::from(line.contains("hits") && line.contains("instead"));
        }
        (latched, shaken, redirected)
    });
    let latched: usize = counts.iter().map(|c| c.0).sum();
    let shaken: usize = counts.iter().map(|c| c.1).sum();
    let redirected: usize = counts.iter().map(|c| c.2).sum();
    eprintln!("latched {latched}, shaken off {shaken}, redirected {redirected}");
    assert!(latched > 0 && shaken > 0 && redirected > 0, "latched {latched}, shaken {shaken}, redirected {redirected}");
}

/// Every menu word is read into its own number, and an id that is no word is not
/// (`game::encode` finds words by length).
#[test]
fn every_menu_word_encodes_as_its_own_number() {
    use fray_core::answer::Answer;
    use fray_kazzam::engine::game::{WORDS, encode};
    let setup = builtin::default_setup(&CONTENT, Default::default()).unwrap();
    let s = GAME.start_from(setup, &mut fray_core::dice::SeededDice::new(0), &mut Vec::new()).unwrap();
    for (i, w) in WORDS.iter().enumerate() {
        assert_eq!(Answer::of(encode(&s, w, 99)), Answer::Word(i as u16), "{w}");
    }
    for id in ["", "mov", "moves", "no-such-word-at-all"] {
        assert_eq!(Answer::of(encode(&s, id, 3)), Answer::Nth(3), "{id:?}");
    }
}
