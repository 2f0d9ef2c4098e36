//! The Brewer's flask records; the rules are in [`crate::classes::brewer`].

use crate::engine::state::UnitIdx;
use serde::Serialize;

/// A flask someone carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Elixir {
    /// The Elixir or Potion it holds.
    pub power: u16,
    /// The Brewer who made it.
    pub maker: UnitIdx,
}
