//! Power zone records (K-ZONE); the rules are in [`crate::rules::zones`].

use crate::content::powers::ZoneKind;
use crate::engine::state::UnitIdx;
use fray_core::grid::Pos;

/// A zone a power left on the map (K-ZONE-1): Sight Ward, Entry Ward, Revelation, The Friend
/// Zone, The Not-So-Friendly Zone.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PowerZone {
    /// Its bit in each unit's once-per-round record (K-ZONE-2).
    pub bit: u32,
    /// Who made it.
    pub owner: UnitIdx,
    /// The power that made it.
    pub power: u16,
    /// Its centre square.
    pub centre: Pos,
    /// Its side in squares: odd, or even when an Empowering Staff grew it (a 4x4's centre is
    /// the lower right of its middle four squares).
    pub size: i32,
    /// What it does.
    pub kind: ZoneKind,
    /// Its number (damage, Vulnerable).
    pub amount: i32,
    /// It ends as the owner's turn with this number ends; `None`: it lasts the whole match.
    pub ends_after_turn: Option<u32>,
}
