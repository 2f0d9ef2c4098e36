//! The Empath's bookkeeping; the rules are in [`crate::classes::diviner::empathy`].

use crate::engine::ids::UnitIdx;

/// Engine bookkeeping for the Empath's copies (not game state: cleared at each step).
#[derive(Clone, Debug, Default)]
pub struct Empathy {
    /// Who regained HP, gained Ward or saved in this step, by what, and whether through a copy.
    pub seen: Vec<(UnitIdx, String, bool)>,
    /// A copy is being made: it sets off no further copy.
    pub copying: bool,
    /// Damage is being sent on by an Empathic Bond: it is not sent on again.
    pub redirected: bool,
}
