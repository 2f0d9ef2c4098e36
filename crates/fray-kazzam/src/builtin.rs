//! The built-in arena and teams `fray play kazzam` uses when none are given: a small field of
//! Fray's own design with three pedestals a side, three neutral orbs (one in the Dungeon),
//! cover, fog, difficult and damaging terrain, and a Dungeon with spawn squares and two exits.

use crate::events::Event;
use crate::options::TableOptions;
use crate::powers::Powers;
use crate::setup::{MapSpec, Setup, UnitSpec};
use crate::state::State;
use fray_core::dice::Dice;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// The default arena, row by row (legend in [`crate::arena::Arena::parse`]).
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
    UnitSpec {
        id: id.into(),
        name: Some(name.into()),
        team: team.into(),
        at: Some(Pos::new(at.0, at.1)),
        size: None,
        hp: None,
        max_hp: None,
        speed: None,
        implement: Some(implement.into()),
        pc: None,
        kind: None,
        powers: powers.iter().map(|p| p.to_string()).collect(),
        spent: vec![],
        statuses: vec![],
        ward: None,
        miss_tokens: None,
        strikes: None,
        initiative: None,
        holding: vec![],
        stowed: false,
        button: None,
        role: None,
        class: None,
    }
}

/// The default match: two teams of three athletes, a staff, a wand and a sword each, armed with
/// the rulebook's example powers.
pub fn default_setup(options: TableOptions) -> Result<Setup, String> {
    let units = vec![
        athlete("ada", "Ada", "red", (3, 3), "staff", &["petrovs-petrification"]),
        athlete("bo", "Bo", "red", (3, 6), "wand", &["grasping-blade", "reversal-of-fortune"]),
        athlete("cy", "Cy", "red", (3, 9), "sword", &["contingency-jump", "swap-places"]),
        athlete("dax", "Dax", "blue", (17, 3), "staff", &["petrovs-petrification"]),
        athlete("eve", "Eve", "blue", (17, 6), "wand", &["grasping-blade", "reversal-of-fortune"]),
        athlete("fin", "Fin", "blue", (17, 9), "sword", &["contingency-jump", "swap-places"]),
    ];
    Ok(Setup {
        map: MapSpec {
            rows: ARENA.iter().map(|r| r.to_string()).collect(),
            legend: Default::default(),
            portal: vec![],
            terrain_damage: None,
        },
        units: units.into_iter().map(|u| (u, None)).collect(),
        orbs: vec![],
        powers: Powers::builtin()?,
        options,
    })
}

/// Builds a match from a setup and starts it (initiative rolled).
pub fn start(setup: Setup, dice: &mut dyn Dice) -> Result<(State, Vec<Event>), String> {
    let mut state = crate::setup::build(setup).map_err(|e| e.join("\n"))?;
    let log = crate::setup::start(&mut state, dice, true).map_err(|e: RuleError| e.to_string())?;
    Ok((state, log))
}
