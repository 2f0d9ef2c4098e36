//! Power zone records (K-ZONE); the rules are in [`crate::rules::zones`].

use crate::engine::ids::UnitIdx;
use fray_core::grid::Pos;
use serde::{Deserialize, Serialize};

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

/// What a zone left by a power does while it lasts (K-ZONE-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ZoneKind {
    /// Every creature wholly inside is Concealed (Sight Ward).
    Conceal,
    /// Creatures inside when it appears, or entering it, are Revealed until the end of their
    /// next turn, and the owner may target anyone inside whatever the range (Revelation).
    Reveal,
    /// A creature entering it takes `amount` damage (Entry Ward).
    EntryDamage,
    /// Damaging Terrain dealing `amount` (K-ZONE-5): on creation, on entering, at the start of
    /// a turn inside; Hovering creatures are spared (The Not-So-Friendly Zone).
    Damaging,
    /// The owner's enemies are Vulnerable `amount` while any part of them is inside (The
    /// Friend Zone).
    VulnerableEnemies,
    /// No line of sight crosses its edge, either way (Curtain of Shadows).
    Curtain,
    /// Damaging Terrain dealing `amount` that travels with its owner, who is immune: entering
    /// it or starting a turn in it hurts, its own moving does not (Salamander Elixir).
    Aura,
    /// The owner's allies wholly inside are Concealed; its enemies may not enter it by their
    /// own choice (Irena's Cloak).
    Cloak,
}
