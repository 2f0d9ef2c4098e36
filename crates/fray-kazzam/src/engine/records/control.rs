//! Frenzied and Panicked compulsions as records; the rules are in [`crate::rules::control`].

use crate::engine::ids::UnitIdx;
use serde::Serialize;

/// What a Frenzied or Panicked creature's roll obliges it to do this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Compulsion {
    /// A 1: as if Dominated by the source, with only those attacks.
    Controlled {
        /// The creature whose side now chooses.
        by: UnitIdx,
        /// Attacks allowed.
        only: Only,
    },
    /// A 2-4: a basic attack on the source (moving to reach it when Frenzied).
    Attack {
        /// The source of the frenzy or panic.
        source: UnitIdx,
        /// A 2 attacks with Disadvantage.
        disadvantage: bool,
        /// Panicked (flees afterwards) rather than Frenzied.
        panic: bool,
    },
    /// Panicked, after its attack: it must run away from the source.
    Flee {
        /// What it runs from.
        source: UnitIdx,
    },
    /// A 5-6: a normal turn with only those attacks.
    Restricted {
        /// Attacks allowed.
        only: Only,
    },
}

/// Which attacks a restricted creature may make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Only {
    /// Melee attacks only (Frenzied).
    Melee,
    /// Basic Implement Attacks only (Panicked).
    BasicImplement,
}
