//! The [`Ruleset`] trait: what the CLI, the bots, the simulator, the scenario runner and the
//! server drive. A system implements it once; every driver then works for that system.

use crate::decision::Decision;
use crate::dice::{Dice, DiceError};
use crate::view::View;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::{Debug, Display};
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

/// A game system's rules.
///
/// Architecture invariant: state changes only inside `act` and `choose`, and if either returns
/// an error the caller must discard the state it passed in (the [`crate::session::Session`]
/// does this by working on a copy).
pub trait Ruleset: 'static {
    /// The system's name, as scenario files spell it.
    const SYSTEM: &'static str;
    /// The whole match state. Cloning it must be cheap: search bots clone it constantly.
    type State: Clone + Send + Sync + 'static;
    /// A complete command (the form the server, the CLI and scenario files send).
    type Command: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static;
    /// A journal entry: what happened, readable through `Display`.
    type Event: Serialize + Display + Clone + Debug + Send + Sync + 'static;

    /// The decision the match is waiting for, or `None` once it is over.
    fn decision(state: &Self::State) -> Option<Decision>;
    /// Answers the pending decision with one of its option ids.
    fn choose(
        state: &mut Self::State,
        option: &str,
        dice: &mut dyn Dice,
        journal: &mut Vec<Self::Event>,
    ) -> Result<(), RuleError>;
    /// Carries out a complete command, as if each of its parts had been chosen in turn.
    fn act(
        state: &mut Self::State,
        command: &Self::Command,
        dice: &mut dyn Dice,
        journal: &mut Vec<Self::Event>,
    ) -> Result<(), RuleError>;
    /// The reader's picture of the state.
    fn view(state: &Self::State) -> View;
    /// How the match ended, once it has.
    fn outcome(state: &Self::State) -> Option<Outcome>;
}
