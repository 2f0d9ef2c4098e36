//! Indices into the match state's lists: the leaf every data module names units and orbs by.

use serde::{Deserialize, Serialize};

/// Index of a unit in `State::units`.
pub type UnitIdx = u16;
/// Index of an orb in `State::orbs`.
pub type OrbIdx = u8;

/// What a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    /// A team's athlete.
    Athlete,
    /// A neutral Creep.
    Creep,
    /// A Summoned Creature: HP, stays until Taken Out (K-DEF-5); see [`crate::rules::summons`].
    Summon,
    /// A Conjured creature: cannot be attacked, blocks nobody, lasts a while (K-DEF-5).
    Conjured,
    /// A trap: HP and charges, not anyone's ally, immune to statuses (K-DEF-2).
    Trap,
    /// A Tinker's automaton: an ally of its Tinker with a turn of its own (K-INIT-5).
    Automaton,
    /// A wall with hit points (Ward Wall, the Specialist's Wall).
    Wall,
}
