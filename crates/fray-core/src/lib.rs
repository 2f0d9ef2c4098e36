//! Fray's rules-agnostic engine core.
//!
//! Everything here is shared by every game system: the square grid and its geometry
//! ([`grid`], [`geometry`], [`sight`]), dice behind a trait and dice pools ([`dice`]), turn
//! orders ([`turns`]), the decision protocol ([`decision`]), the [`engine`] kit a system's
//! rules run on (the frame stack and its loop, the context that applies and journals events,
//! units named in events, durations, forced-movement steps), the serializable [`view`], the
//! [`game::Game`] trait that drivers (CLI, bots, scenarios, server, simulator) use, its
//! object-safe faces ([`table::Table`], [`table::System`], [`table::Registry`]), the
//! [`session::Session`] that checks seats, records inputs and rolls and applies them
//! transactionally, the [`scenario`] test-file runner and the [`conformance`] harness every
//! system passes.
//!
//! Architecture invariant: nothing in this crate names a game system. Systems plug in through
//! [`game::Game`] and [`table::Registry`].
#![deny(missing_docs)]

pub mod answer;
pub mod bench;
pub mod command;
pub mod conformance;
pub mod decision;
pub mod dice;
pub mod engine;
pub mod game;
pub mod geometry;
pub mod grid;
pub mod lookup;
pub mod one_question;
pub mod ruleset;
pub mod scenario;
#[cfg(feature = "scenario-tests")]
pub mod scenario_tests;
pub mod session;
pub mod sight;
pub mod table;
pub mod tally;
pub mod tiers;
pub mod turns;
pub mod view;

pub use decision::{Decision, DecisionOption};
pub use dice::{Dice, DiceError, Pool, ScriptedDice, SeededDice};
pub use game::{ActionId, Game, Node, NullSink, Seat, SeatSet, Sink, Viewer};
pub use grid::{Grid, Pos};
pub use ruleset::{Outcome, RuleError};
pub use session::Session;
pub use table::{Registry, System, Table};
pub use view::View;
