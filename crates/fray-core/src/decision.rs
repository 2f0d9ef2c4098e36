//! The decision protocol: the engine never calls out and waits. When a choice is needed it
//! stops with a pending [`Decision`] naming the seat that must answer and the legal options;
//! it resumes when one option's id is chosen.

use crate::grid::Pos;
use serde::{Deserialize, Serialize};

/// A choice the engine is waiting for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// The seat (side) that must answer.
    pub seat: String,
    /// The unit the decision is about, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// A short machine-readable kind ("action", "target", "square", "glancing"...).
    pub kind: String,
    /// What is being asked, for a person.
    pub prompt: String,
    /// The legal answers; never empty.
    pub options: Vec<DecisionOption>,
}

/// One legal answer to a decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionOption {
    /// The id to send back: a word, a unit id, a number, or `"x,y"` for a square.
    pub id: String,
    /// What it means, for a person.
    pub label: String,
    /// The square this option stands for, so a board can highlight it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub square: Option<Pos>,
}

impl DecisionOption {
    /// An option identified by a word or a unit id.
    pub fn new(id: impl Into<String>, label: impl Into<String>) -> Self {
        DecisionOption { id: id.into(), label: label.into(), square: None }
    }
    /// An option that stands for a square.
    pub fn square(p: Pos, label: impl Into<String>) -> Self {
        DecisionOption { id: p.key(), label: label.into(), square: Some(p) }
    }
}

impl Decision {
    /// Whether `id` is one of the options.
    pub fn allows(&self, id: &str) -> bool {
        self.options.iter().any(|o| o.id == id)
    }
}
