//! Draw Steel combat on the Fray engine, from the glossary (`../shared/seeds/003_...`) and, where
//! the glossary is silent or older, the published rules (docs/rulings/drawsteel.md).
//!
//! Code map, in layers (a module imports only from its own layer or the layers listed before it):
//!
//! - data: [`model`] (characteristics, sizes, conditions, stat blocks and abilities as data;
//!   creature indexes and sides), [`options`], [`power_roll`] (tier bands, edges and banes, tests
//!   as data), [`frames`] (what a half-resolved piece of the combat holds), [`state`],
//!   [`events`] (the journal; `apply`, the only code that changes the state), [`import`]
//!   (stat blocks from the community's JSON shapes);
//! - rules: [`rolls`] (rolling power rolls, tests, saves), [`damage`] (Stamina, dying,
//!   Recoveries, bleeding, damaging terrain), [`conditions`] (giving and ending them), [`areas`],
//!   [`respite`] (rest after a fight), [`forced`] (push, pull, slide, slams, falls),
//!   [`abilities`] (using abilities, free strikes, potency, surges), [`actions`] (the turn's
//!   actions, commands, checks), [`turn`] (initiative, alternating sides, EoT and saves);
//! - the top: [`flow`] (each frame handed to the rule that advances it, asks or answers),
//!   [`seats`] (what each seat may see), [`view`], [`game`], [`setup`], [`scenario`].
#![deny(missing_docs)]

pub mod abilities;
pub mod actions;
pub mod areas;
pub mod conditions;
pub mod damage;
pub mod eval;
pub mod events;
pub mod flow;
pub mod forced;
pub mod frames;
pub mod game;
pub mod heroic;
pub mod import;
pub mod model;
pub mod objects;
pub mod options;
pub mod power_roll;
pub mod respite;
pub mod rolls;
pub mod scenario;
pub mod seats;
pub mod setup;
pub mod state;
pub mod turn;
pub mod view;

use fray_core::dice::Dice;
use fray_core::ruleset::RuleError;

pub use actions::Command;
pub use events::Event;
pub use game::{DrawSteel, EncounterSetup};
pub use state::State;

/// Starts a combat: who goes first (rolled, or fixed by `first`), then runs to the first
/// decision.
pub fn start(state: &mut State, dice: &mut dyn Dice, first: Option<state::Side>) -> Result<Vec<Event>, RuleError> {
    let mut log = Vec::new();
    let mut cx = events::Ctx::new(state, dice, &mut log);
    turn::combat_malice(&mut cx);
    turn::combat_resources(&mut cx);
    match first {
        Some(side) => {
            cx.emit(Event::FirstSide { side, roll: None, why: "set by the scenario".into() });
            cx.emit(Event::RoundStarted { round: 1 });
        }
        None => turn::start(&mut cx)?,
    }
    turn::round_malice(&mut cx);
    fray_core::engine::run(&mut cx)?;
    Ok(log)
}
