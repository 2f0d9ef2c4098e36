//! A charm's effects as content writes them; the rules are in [`crate::classes::charmer`].

use crate::content::powers::Effect;
use serde::{Deserialize, Serialize};

/// A charm's two effects as content writes them (`charm = { effect-1 = [...], doubled = [...],
/// effect-2 = [...] }`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct CharmDef {
    /// Effect 1 (it always holds a number).
    pub effect_1: Vec<Effect>,
    /// Effect 1 with its number doubled (a 6 on the Charm Roll).
    pub doubled: Vec<Effect>,
    /// Effect 2.
    pub effect_2: Vec<Effect>,
}
