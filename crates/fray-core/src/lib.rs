//! Fray's rules-agnostic engine core.
//!
//! Everything here is shared by every game system: the square grid and its geometry
//! ([`grid`], [`geometry`], [`sight`]), dice behind a trait ([`dice`]), the decision
//! protocol ([`decision`]), the serializable [`view`], the [`ruleset::Ruleset`] trait that
//! drivers (CLI, bots, scenarios, server) use, the [`session::Session`] that records choices
//! and applies them transactionally, and the [`scenario`] test-file runner.
//!
//! Architecture invariant: nothing in this crate names a game system. Systems plug in through
//! [`ruleset::Ruleset`].
#![deny(missing_docs)]

pub mod decision;
pub mod dice;
pub mod geometry;
pub mod grid;
pub mod lookup;
pub mod ruleset;
pub mod scenario;
pub mod session;
pub mod sight;
pub mod tiers;
pub mod turns;
pub mod view;

pub use decision::{Decision, DecisionOption};
pub use dice::{Dice, DiceError, ScriptedDice, SeededDice};
pub use grid::{Grid, Pos};
pub use ruleset::{Outcome, RuleError, Ruleset};
pub use view::View;
