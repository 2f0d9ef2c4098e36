//! What every system's rules answer with: a typed refusal ([`RuleError`]) and how a match
//! ended ([`Outcome`]). The trait the drivers use is [`crate::game::Game`].

use crate::dice::DiceError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Display;
use thiserror::Error;

/// A refused command or choice. It names the rule that refuses it, says what to do, and the
/// state it was tried against is unchanged.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RuleError {
    /// The rules forbid it.
    #[error("{message}")]
    Refused {
        /// Rule id, when one rule refuses it ("K-ACT-1").
        rule: Option<String>,
        /// What is wrong, and what to do instead.
        message: String,
    },
    /// The input does not make sense (an unknown unit, an option that is not offered).
    #[error("{0}")]
    Malformed(String),
    /// A die could not be rolled.
    #[error(transparent)]
    Dice(#[from] DiceError),
}

impl RuleError {
    /// A refusal by rule `rule` (its id is prefixed to the message).
    pub fn refused(rule: &str, message: impl Display) -> Self {
        RuleError::Refused { rule: Some(rule.to_string()), message: format!("{message} ({rule})") }
    }
    /// Input that does not make sense.
    pub fn malformed(message: impl Display) -> Self {
        RuleError::Malformed(message.to_string())
    }
    /// The rule id that refused, if any.
    pub fn rule(&self) -> Option<&str> {
        match self {
            RuleError::Refused { rule, .. } => rule.as_deref(),
            _ => None,
        }
    }
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning side, or `None` for a draw.
    pub winner: Option<String>,
    /// Final points by side, after any end-of-match adjustments.
    pub score: BTreeMap<String, i64>,
    /// One line for a person.
    pub summary: String,
}
