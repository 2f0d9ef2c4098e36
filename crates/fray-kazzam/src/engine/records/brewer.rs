//! The Brewer's flask records; the rules are in [`crate::classes::brewer`].

use crate::engine::ids::UnitIdx;
use serde::{Deserialize, Serialize};

/// A flask someone carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Elixir {
    /// The Elixir or Potion it holds.
    pub power: u16,
    /// The Brewer who made it.
    pub maker: UnitIdx,
}

/// What a unit carries of the Brewer's: Elixirs in hand, Potions coating its blade.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Carried {
    /// Elixirs it carries, one a hand (brews.rs).
    pub elixirs: Vec<Elixir>,
    /// Potions coating its blade (Potent Edge, brews.rs).
    pub blade: Vec<u16>,
}

/// What a delivery power carries (`delivers = { potions = 2, at-will-only = true, miss = "you" }`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Delivery {
    /// How many different Potions it carries.
    pub potions: u8,
    /// Only At-Will Potions (Unstable Concoction).
    #[serde(default)]
    pub at_will_only: bool,
    /// On a miss the Potions go to the user instead (and from level 5 to the target as well).
    #[serde(default)]
    pub miss_on_you: bool,
    /// The damage splashes 1 onto everyone within this many squares of the target, and the
    /// Potions reach them too (Hurl Flask; one square more from level 5).
    #[serde(default)]
    pub splash: Option<i32>,
    /// Its range, instead of the implement's (Hurl Flask: 10).
    #[serde(default)]
    pub range: Option<i32>,
    /// The Potion goes onto the blade and the attack carries every Potion there (Potent Edge);
    /// aimed at its user, the power only coats the blade.
    #[serde(default)]
    pub blade: bool,
}
