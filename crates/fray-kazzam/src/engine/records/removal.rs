//! Records of creatures removed from existence; the rules are in [`crate::classes::porter::removal`].

use crate::engine::ids::UnitIdx;
use fray_core::grid::Pos;
use serde::Serialize;

/// Everything this module keeps in the state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Removal {
    /// Creatures removed from existence now.
    pub removed: Vec<Removed>,
}

/// A creature removed from existence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Removed {
    /// Who.
    pub unit: UnitIdx,
    /// The square it will come back to (where it vanished, or where it last moved).
    pub at: Pos,
    /// The Porter who removed it.
    pub maker: UnitIdx,
    /// It comes back as its maker's turn with this number ends.
    pub ends_after_turn: u32,
    /// The number of its own turn in which it made its move, if it has.
    pub moved_turn: Option<u32>,
}

/// A change to [`Removal`] (carried by `Event::Existence`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// A creature leaves the map and existence.
    Vanished(Removed),
    /// A removed creature moves its square during its turn (with that turn's number).
    Moved {
        /// Who.
        unit: UnitIdx,
        /// Its new square.
        to: Pos,
        /// Its turn number.
        turn: u32,
    },
    /// A removed creature comes back onto the map at this square.
    Returned {
        /// Who.
        unit: UnitIdx,
        /// Where.
        at: Pos,
    },
}
