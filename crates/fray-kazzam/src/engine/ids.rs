//! Indices into the match state's lists: the leaf every data module names units and orbs by.

/// Index of a unit in `State::units`.
pub type UnitIdx = u16;
/// Index of an orb in `State::orbs`.
pub type OrbIdx = u8;
