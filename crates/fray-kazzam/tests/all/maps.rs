//! Arena files (docs/maps.md): the book's five arenas load and play; a bad map is refused with
//! the file, the line and what is wrong; random matches on every arena and between the rival teams
//! keep every invariant random play checks (`tests/all/common.rs`), a few by default and thousands in
//! the long sweep (`.ci/sweep`).

use crate::common;
use fray_core::conformance;
use fray_core::table::TeamText;
use fray_kazzam::content::maps;
use fray_kazzam::{Content, Kazzam, MatchSetup};
use std::sync::{Arc, LazyLock};

static CONTENT: LazyLock<Arc<Content>> = LazyLock::new(|| Arc::new(Content::builtin()));
static GAME: LazyLock<Arc<Kazzam>> = LazyLock::new(|| Arc::new(Kazzam::with_content(CONTENT.clone())));

/// A small map that loads; tests break one thing in it at a time.
const GOOD: &str = r#"# A test arena: the least a map needs.
[arena]
id = "test"
name = "Test"
rows = """
.R.H.....A.B.
.R.H.....A.B.
.R.H..N..A.B.
...H.....A...
...H.....A...
####X###X####
#1DDDDDDDDD2#
#############
"""

[[creeps]]
group = "bears"
what = "guardian-bear"
guards = "n-1"
at = [[5, 0], [7, 0]]
"#;

fn load(text: &str) -> Result<maps::Map, Vec<String>> {
    maps::load(&CONTENT, "test.toml", text)
}

fn refused(text: &str, wanted: &str) -> String {
    let errors = load(text).expect_err("the map should be refused");
    let hit = errors.iter().find(|e| e.contains(wanted)).unwrap_or_else(|| panic!("no {wanted:?} in {errors:#?}"));
    hit.clone()
}

#[test]
fn every_builtin_map_loads_with_its_intent() {
    for (id, text) in maps::BUILTIN {
        let m = maps::load(&CONTENT, id, text).unwrap_or_else(|e| panic!("{id}: {}", e.join("\n")));
        assert_eq!(m.id, *id);
        assert!(m.intent.len() > 80, "{id}: the header comment says what the arena is for");
        assert!(m.special.is_some() && !m.rules.is_empty(), "{id}: names its special rule and rule ids");
        assert_eq!(m.arena.pedestals.iter().filter(|p| p.side != fray_kazzam::engine::arena::Side::Neutral).count(), 6);
        for g in &m.missing {
            assert!(maps::BOOK_CREEPS.iter().any(|c| g.contains(c)), "{id}: {g}");
        }
    }
    assert_eq!(maps::builtin("Throne"), maps::builtin("throne.toml"));
    assert!(maps::builtin("nowhere").is_none());
}

#[test]
fn the_good_test_map_loads() {
    let m = load(GOOD).unwrap();
    assert_eq!(m.creeps.len(), 1);
    assert_eq!(m.arena.starts[0].len(), 5);
}

#[test]
fn a_pedestal_nobody_can_reach_is_refused_with_its_line() {
    // Red's top pedestal walled in.
    let bad = GOOD.replacen(".R.H.....A.B.\n.R.H", "#R#H.....A.B.\n###H", 1);
    let e = refused(&bad, "pedestal red-1");
    assert!(e.starts_with("test.toml:6:") && e.contains("cannot be reached"), "{e}");
}

#[test]
fn a_creep_in_a_wall_or_on_another_creep_is_refused() {
    let wall = GOOD.replace("at = [[5, 0], [7, 0]]", "at = [[5, 0], [0, 5]]");
    let e = refused(&wall, "bears-2");
    assert!(e.starts_with("test.toml:16:") && e.contains("Blocking"), "{e}");
    let overlap = GOOD.replace("at = [[5, 0], [7, 0]]", "at = [[5, 0], [6, 1]]");
    let e = refused(&overlap, "overlaps");
    assert!(e.contains("bears-2") && e.contains("bears-1"), "{e}");
}

#[test]
fn a_walled_in_spawn_square_is_refused() {
    let bad = GOOD.replace("#1DDDDDDDDD2#", "#1#DDDDDDDD2#");
    let e = refused(&bad, "spawn square");
    assert!(e.starts_with("test.toml:12:") && e.contains("red") && e.contains("walled in"), "{e}");
}

#[test]
fn unknown_characters_ragged_rows_and_unknown_creeps_are_refused() {
    let e = refused(&GOOD.replace(".R.H..N..A.B.", ".R.H..N..A.B?"), "unknown map character");
    assert!(e.starts_with("test.toml:8:"), "{e}");
    let e = refused(&GOOD.replace(".R.H..N..A.B.", ".R.H..N..A.B"), "squares but the widest");
    assert!(e.starts_with("test.toml:8:"), "{e}");
    let e = refused(&GOOD.replace("guardian-bear", "guardian-beer"), "no Creep stat block");
    assert!(e.starts_with("test.toml:16:"), "{e}");
    let e = refused(&GOOD.replace("...H.....A...\n...H.....A...", "...H.....A...\n.........A..."), "start squares");
    assert!(e.contains("red has 4"), "{e}");
    // Every Creep of the book has its stat block, so any of them places its group.
    let m = load(&GOOD.replace("guardian-bear", "royal-golem")).unwrap();
    assert!(!m.creeps.is_empty() && m.missing.is_empty());
    let e = refused(&GOOD.replacen("# A test arena: the least a map needs.\n", "", 1), "start the file with a comment");
    assert!(e.starts_with("test.toml:1:"), "{e}");
}

fn map_match(id: &str, teams: Option<[&str; 2]>) -> MatchSetup {
    let text = maps::builtin(id).unwrap();
    MatchSetup {
        teams: teams.map(|t| {
            t.map(|n| TeamText { path: n.into(), text: fray_kazzam::content::teams::builtin(n).unwrap().into() })
        }),
        options: vec![],
        map: Some(TeamText { path: id.into(), text: text.into() }),
    }
}

fn play(setup: &MatchSetup, seed: u64) {
    let settings = conformance::Settings {
        max_decisions: 50_000,
        describe_every: 7,
        replay: seed.is_multiple_of(4),
        command_every: 3,
    };
    let start = conformance::from_setup(setup);
    if let Err(e) = conformance::random_match(&GAME, &start, seed, &settings, &|_: &Kazzam, s| common::invariants(s)) {
        panic!("seed {seed}: {e}");
    }
}

/// Seeds a test plays: `quick` by default, more in the long sweep (`FRAY_RANDOM_MATCHES`).
fn seeds(quick: u64) -> u64 {
    std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse::<u64>().ok()).map_or(quick, |n| (n / 50).max(quick))
}

/// Random play on every arena, with the built-in teams: no panic, every offered option accepted.
#[test]
fn random_matches_play_on_every_arena() {
    for (id, _) in maps::BUILTIN {
        for seed in 0..seeds(3) {
            play(&map_match(id, None), seed);
        }
    }
}

/// The four rival teams at every level the book prints pass `fray build` as NPC teams (K-PROG-8:
/// each level's file follows the same ladder as a player's athlete).
#[test]
fn every_rival_team_file_is_legal() {
    use fray_kazzam::content::teams;
    assert_eq!(teams::BUILTIN.len(), 20);
    for (id, text) in teams::BUILTIN {
        if let Err(e) = fray_kazzam::content::builder::check_file(&CONTENT, id, text) {
            panic!("{id}: {}", e.join("\n"));
        }
    }
    assert_eq!(teams::builtin("Kishanta"), teams::builtin("kishanta-1"));
    assert!(teams::builtin("kishanta-9").is_none());
}

/// Random play on every arena between the rival teams: no panic and no broken invariant. By
/// default four pairings at levels 1, 3 and 5; in the long sweep every team file at every level
/// meets others on every arena (FRAY_RANDOM_MATCHES=3000: 1,200 matches; FRAY_RANDOM_SEED picks
/// some of them).
#[test]
fn random_matches_play_between_the_rival_teams_on_every_arena() {
    use fray_kazzam::content::teams;
    let pairs = [
        ["driannis", "bagwung-3"],
        ["kishanta-5", "mormissa"],
        ["mormissa-3", "driannis-5"],
        ["bagwung-5", "kishanta-3"],
    ];
    if let Some(n) = std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse::<u64>().ok()) {
        let ids: Vec<&str> = teams::BUILTIN.iter().map(|(id, _)| *id).collect();
        // FRAY_RANDOM_SEED=S replays only the match of seed S, FRAY_RANDOM_SEED=S-T seeds S to T
        // (to chase a sweep's failure, or go on past one).
        let only = std::env::var("FRAY_RANDOM_SEED").ok().and_then(|v| {
            let (a, b) = v.split_once('-').unwrap_or((&v, &v));
            Some(a.parse::<u64>().ok()?..=b.parse::<u64>().ok()?)
        });
        for seed in (0..(n * 2 / 5).max(1)).filter(|s| only.as_ref().is_none_or(|o| o.contains(s))) {
            let (home, away) = (ids[seed as usize % ids.len()], ids[(seed as usize * 7 + 3) % ids.len()]);
            let (arena, _) = maps::BUILTIN[(seed / ids.len() as u64) as usize % maps::BUILTIN.len()];
            play(&map_match(arena, Some([home, away])), seed);
        }
        return;
    }
    for (i, (id, _)) in maps::BUILTIN.iter().enumerate() {
        for (j, pair) in pairs.iter().enumerate() {
            if (i + j).is_multiple_of(2) {
                play(&map_match(id, Some(*pair)), (i * 7 + j) as u64);
            }
        }
    }
}

/// A map's group may name a Team (its members in file order, K-CTYPE-7) or a family (the Crowned
/// Birds, one of each crown): the One-Way Doors, the Maze and the Throne placed none of these
/// groups before. A Team asked for more members than it has is refused.
#[test]
fn a_group_names_a_team_or_a_family_of_stat_blocks() {
    let units =
        |m: &maps::Map| -> Vec<String> { m.creep_units(&CONTENT, 2).into_iter().filter_map(|u| u.what).collect() };
    let imps = load(&GOOD.replace("what = \"guardian-bear\"", "what = \"imp-team\"\ncount = 2")).unwrap();
    assert_eq!(units(&imps), ["imp-thief", "imp-fighter"]);
    let birds = GOOD
        .replace("what = \"guardian-bear\"", "what = \"crowned-bird\"")
        .replace("[[5, 0], [7, 0]]", "[[5, 0], [7, 0], [8, 0]]");
    assert_eq!(units(&load(&birds).unwrap()), ["flamecrowned-bird", "icecrowned-bird", "needlecrowned-bird"]);
    let e =
        refused(&GOOD.replace("what = \"guardian-bear\"", "what = \"imp-team\"\ncount = 7"), "more than the 6 members");
    assert!(e.contains("K-CTYPE-7"), "{e}");
    for id in ["one-way-doors", "maze", "throne"] {
        let m = maps::load(&CONTENT, id, maps::builtin(id).unwrap()).unwrap();
        assert!(m.missing.is_empty(), "{id}: {:?}", m.missing);
    }
}

/// K-SET-2: each team's athletes are set up inside its own start area of the arena, and the
/// arena is announced first (K-SET-1: its name and special rule are public).
#[test]
fn athletes_start_in_their_own_start_areas_and_the_arena_is_announced() {
    use fray_core::game::Game;
    use fray_kazzam::engine::state::UnitKind;
    for (id, _) in maps::BUILTIN {
        let setup = map_match(id, Some(["kishanta", "mormissa"]));
        let mut dice = fray_core::dice::SeededDice::new(1);
        let mut events = Vec::new();
        let s = GAME.start(&setup, &mut dice, &mut events).unwrap_or_else(|e| panic!("{id}: {e}"));
        let first = format!("{:?}", events.first().expect("the announcement"));
        assert!(first.contains("arena: "), "{id}: the first event announces the arena: {first}");
        let mut seen = 0;
        for u in s.units.iter().filter(|u| u.kind == UnitKind::Athlete) {
            let team = u.side.team().expect("an athlete plays for a team");
            let at = u.pos.expect("on the map");
            assert!(s.arena.starts[team].contains(&at), "{id}: {} starts at {at}, outside its start area", u.id);
            seen += 1;
        }
        assert!(seen >= 2, "{id}: both teams set up");
    }
}
