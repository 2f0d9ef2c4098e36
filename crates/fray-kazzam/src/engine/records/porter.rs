//! The Porter's records; the rules are in [`crate::classes::porter`].

use crate::engine::ids::UnitIdx;
use fray_core::grid::Pos;
use serde::Serialize;

/// Everything this module keeps in the state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Porter {
    /// Warps, oldest first.
    pub warps: Vec<Warp>,
    /// Floor Portal traps.
    pub traps: Vec<Trap>,
    /// Bend Space marks.
    pub bends: Vec<Bend>,
    /// Implements slid out of their owners' hands.
    pub dropped: Vec<Dropped>,
    /// The last round whose end the Vortex Warps have pulled at.
    pub pulled_round: u32,
    /// Short Tunnel portals, oldest first.
    pub tunnels: Vec<Tunnel>,
}

/// A warp on the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Warp {
    /// Its Porter.
    pub owner: UnitIdx,
    /// The power that opened it (its kind: Scouting, Hub...).
    pub power: u16,
    /// Its square.
    pub at: Pos,
}

/// A Floor Portal's trap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trap {
    /// Its Porter.
    pub owner: UnitIdx,
    /// The power that opened it.
    pub power: u16,
    /// Its square.
    pub at: Pos,
    /// It closes as its owner's turn with this number ends.
    pub ends_after_turn: u32,
}

/// Bend Space on a target: longer reach against it, and a hop when it ends a turn beside its
/// Porter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bend {
    /// The Porter.
    pub user: UnitIdx,
    /// The target.
    pub target: UnitIdx,
    /// It ends as the Porter's turn with this number ends.
    pub ends_after_turn: u32,
}

/// An implement lying on the map: its owner is Disarmed until it comes next to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Dropped {
    /// Whose implement.
    pub owner: UnitIdx,
    /// Where it lies.
    pub at: Pos,
}

/// A Short Tunnel portal: with its Porter's other one, a passage for anyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Tunnel {
    /// Its Porter.
    pub owner: UnitIdx,
    /// Its square.
    pub at: Pos,
}

/// A change to [`Porter`] (carried by `Event::Porter`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// A warp opens.
    WarpOpened(Warp),
    /// The warp at this index closes.
    WarpClosed(usize),
    /// A Floor Portal trap opens.
    TrapOpened(Trap),
    /// The trap at this index closes.
    TrapClosed(usize),
    /// Bend Space marks a target.
    Bent(Bend),
    /// The mark at this index ends.
    BendEnded(usize),
    /// An implement is slid out of its owner's hands.
    Dropped(Dropped),
    /// The implement at this index is back in its owner's hands.
    Retrieved(usize),
    /// The Vortex Warps pull at the end of this round.
    Pulled(u32),
    /// A Short Tunnel portal opens.
    TunnelOpened(Tunnel),
    /// The portal at this index closes.
    TunnelClosed(usize),
}
