//! The built-in arena and teams `fray play kazzam` uses when none are given: a small field of
//! Fray's own design with three pedestals a side, three neutral orbs (one in the Dungeon),
//! cover, fog, difficult and damaging terrain, and a Dungeon with spawn squares and two exits.

use crate::content::Content;
use crate::engine::events::Event;
use crate::engine::options::TableOptions;
use crate::engine::setup::{MapSpec, Setup, UnitSpec};
use crate::engine::state::State;
use fray_core::dice::Dice;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;
use std::sync::Arc;

/// The default arena, row by row (legend in [`crate::engine::arena::Arena::parse`]).
pub const ARENA: [&str; 16] = [
    ".....................",
    "..R.......N.......B..",
    ".......F.....F.......",
    "....~~.........~~....",
    ".R.......l.l.......B.",
    "........o...o........",
    "..!.......N.......!..",
    "........o...o........",
    ".R.......l.l.......B.",
    "....~~.........~~....",
    ".....................",
    ".....##X#####X##.....",
    ".....#1DDDDDDD2#.....",
    ".....#1DDDNDDD2#.....",
    ".....#1DDDDDDD2#.....",
    ".....###########.....",
];

fn athlete(id: &str, name: &str, team: &str, at: (i32, i32), implement: &str, powers: &[&str]) -> UnitSpec {
    let mut u = UnitSpec::athlete(id, team, Pos::new(at.0, at.1));
    u.name = Some(name.into());
    u.implement = Some(implement.into());
    u.powers = powers.iter().map(|p| p.to_string()).collect();
    u
}

fn arena_map() -> MapSpec {
    MapSpec {
        rows: ARENA.iter().map(|r| r.to_string()).collect(),
        legend: Default::default(),
        portal: vec![],
        terrain_damage: None,
        orbs: Default::default(),
    }
}

/// The Creep groups of the built-in arena (table option `creeps`): two Guardian Bears on the
/// upper neutral orb and three Love Beasts on the central one.
pub fn creep_units() -> Vec<UnitSpec> {
    let creep = |id: &str, what: &str, group: &str, at: (i32, i32)| {
        let mut u = UnitSpec::athlete(id, "neutral", Pos::new(at.0, at.1));
        u.kind = Some("creep".into());
        u.what = Some(what.into());
        u.group = Some(group.into());
        u
    };
    vec![
        creep("bear-1", "guardian-bear", "bears", (8, 0)),
        creep("bear-2", "guardian-bear", "bears", (11, 0)),
        creep("beast-1", "love-beast", "beasts", (10, 5)),
        creep("beast-2", "love-beast", "beasts", (9, 6)),
        creep("beast-3", "love-beast", "beasts", (10, 7)),
    ]
}

fn with_creeps(mut units: Vec<UnitSpec>, options: &TableOptions) -> Vec<UnitSpec> {
    if options.creeps {
        units.extend(creep_units());
    }
    units
}

/// Where built teams start: five squares down each side of the default arena.
pub const HOME_SQUARES: [(i32, i32); 5] = [(3, 2), (3, 4), (3, 6), (3, 8), (3, 10)];
/// The away team's starting squares.
pub const AWAY_SQUARES: [(i32, i32); 5] = [(17, 2), (17, 4), (17, 6), (17, 8), (17, 10)];

/// A match on the default arena between two team files (K-FMT-1): home plays red, away blue.
/// Each file is checked against `content` as `fray build` checks it; every problem is reported.
pub fn team_setup(
    content: &Arc<Content>,
    home: (&str, &str),
    away: (&str, &str),
    options: TableOptions,
) -> Result<Setup, String> {
    let squares = |v: &[(i32, i32)]| v.iter().map(|&(x, y)| Pos::new(x, y)).collect::<Vec<_>>();
    let mut errors = Vec::new();
    let mut units = Vec::new();
    for ((path, text), team, at) in [(home, "red", squares(&HOME_SQUARES)), (away, "blue", squares(&AWAY_SQUARES))] {
        match crate::content::builder::team_units(content, path, text, team, &at) {
            Ok(us) => units.extend(us),
            Err(es) => errors.extend(es),
        }
    }
    if !errors.is_empty() {
        return Err(fray_core::scenario::capped(errors).join("\n"));
    }
    let units = with_creeps(units, &options);
    Ok(Setup {
        map: arena_map(),
        units: units.into_iter().map(|u| (u, None)).collect(),
        orbs: vec![],
        powers: content.powers().clone(),
        options,
        content: content.clone(),
    })
}

/// The built-in teams' six athletes, red's three on `red` and blue's on `blue`.
fn default_athletes(red: [(i32, i32); 3], blue: [(i32, i32); 3]) -> Vec<UnitSpec> {
    vec![
        athlete("ada", "Ada", "red", red[0], "staff", &["petrovs-petrification"]),
        athlete("bo", "Bo", "red", red[1], "wand", &["grasping-blade", "reversal-of-fortune"]),
        athlete("cy", "Cy", "red", red[2], "sword", &["contingency-jump", "swap-places"]),
        athlete("dax", "Dax", "blue", blue[0], "staff", &["petrovs-petrification"]),
        athlete("eve", "Eve", "blue", blue[1], "wand", &["grasping-blade", "reversal-of-fortune"]),
        athlete("fin", "Fin", "blue", blue[2], "sword", &["contingency-jump", "swap-places"]),
    ]
}

/// The default match: two teams of three athletes, a staff, a wand and a sword each, armed with
/// the rulebook's example powers (from `content`'s power files).
pub fn default_setup(content: &Arc<Content>, options: TableOptions) -> Result<Setup, String> {
    let units = default_athletes([(3, 3), (3, 6), (3, 9)], [(17, 3), (17, 6), (17, 9)]);
    let units = with_creeps(units, &options);
    Ok(Setup {
        map: arena_map(),
        units: units.into_iter().map(|u| (u, None)).collect(),
        orbs: vec![],
        powers: content.builtin_powers().clone(),
        options,
        content: content.clone(),
    })
}

/// A team file's path and text.
pub type TeamFileText<'a> = (&'a str, &'a str);

/// A match on a map file (docs/maps.md): two team files set up in the map's start areas (K-SET-2),
/// or the built-in teams; the map's Creep groups, scaled to the larger team (K-CTYPE), unless the
/// table option `creeps` is off.
pub fn map_setup(
    content: &Arc<Content>,
    map: &crate::content::maps::Map,
    teams: Option<(TeamFileText, TeamFileText)>,
    options: TableOptions,
) -> Result<Setup, String> {
    use crate::engine::arena::Side;
    let mut units = Vec::new();
    let powers = match teams {
        Some((home, away)) => {
            let mut errors = Vec::new();
            for ((path, text), side) in [(home, Side::Red), (away, Side::Blue)] {
                let at = map.start_squares(side, crate::content::maps::MAX_ATHLETES);
                match crate::content::builder::team_units(content, path, text, side.name(), &at) {
                    Ok(us) => units.extend(us),
                    Err(es) => errors.extend(es),
                }
            }
            if !errors.is_empty() {
                return Err(errors.join("\n"));
            }
            content.powers().clone()
        }
        None => {
            let sq = |side: Side| {
                let v = map.start_squares(side, 3);
                let p = |i: usize| v.get(i).map(|p| (p.x, p.y)).unwrap_or((0, 0));
                [p(0), p(1), p(2)]
            };
            units = default_athletes(sq(Side::Red), sq(Side::Blue));
            content.builtin_powers().clone()
        }
    };
    let n = [Side::Red, Side::Blue].map(|s| units.iter().filter(|u| u.team == s.name()).count()).into_iter().max();
    if options.creeps {
        units.extend(map.creep_units(content, n.unwrap_or(1)));
    }
    Ok(Setup {
        map: map.spec.clone(),
        units: units.into_iter().map(|u| (u, None)).collect(),
        orbs: vec![],
        powers,
        options,
        content: content.clone(),
    })
}

/// Builds a match from a setup and starts it (initiative rolled).
pub fn start(setup: Setup, dice: &mut dyn Dice) -> Result<(State, Vec<Event>), String> {
    let mut state = crate::engine::setup::build(setup).map_err(|e| e.join("\n"))?;
    let log = crate::engine::setup::start(&mut state, dice, true).map_err(|e: RuleError| e.to_string())?;
    Ok((state, log))
}
