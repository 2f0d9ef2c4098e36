//! What the Charmer's charms leave on a unit; the rules are in [`crate::classes::charmer`].

/// A unit's marks from the Charmer's charms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Charmed {
    /// Luck Tokens (Luck Charm): each buys a reroll of its own attack or of one against it.
    pub luck_tokens: i32,
    /// Grown to 2x2 by an Enlarging Charm (it goes back to 1x1 when the charm ends).
    pub enlarged: bool,
}
