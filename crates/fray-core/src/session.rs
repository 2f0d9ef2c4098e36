//! A match in progress: state, dice, journal and the record of inputs that reproduces it.
//! Inputs are applied to a copy and committed only on success, so a refused input changes
//! nothing, dice included.

use crate::decision::Decision;
use crate::dice::AnyDice;
use crate::ruleset::{Outcome, RuleError, Ruleset};
use crate::view::View;
use serde::{Deserialize, Serialize};

/// One input a match received.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Input<C> {
    /// A complete command.
    Act(C),
    /// An answer to the pending decision.
    Choose(String),
}

/// How many journal lines a view carries.
pub const VIEW_LOG_LINES: usize = 12;

/// A match in progress.
#[derive(Clone)]
pub struct Session<R: Ruleset> {
    state: R::State,
    dice: AnyDice,
    journal: Vec<R::Event>,
    inputs: Vec<Input<R::Command>>,
}

impl<R: Ruleset> Session<R> {
    /// A match starting from `state`, rolling `dice`.
    pub fn new(state: R::State, dice: AnyDice) -> Self {
        Session { state, dice, journal: Vec::new(), inputs: Vec::new() }
    }
    /// A match whose setup already wrote journal entries.
    pub fn with_journal(state: R::State, dice: AnyDice, journal: Vec<R::Event>) -> Self {
        Session { state, dice, journal, inputs: Vec::new() }
    }
    /// The current state.
    pub fn state(&self) -> &R::State {
        &self.state
    }
    /// Everything that happened so far.
    pub fn journal(&self) -> &[R::Event] {
        &self.journal
    }
    /// Every input received, in order.
    pub fn inputs(&self) -> &[Input<R::Command>] {
        &self.inputs
    }
    /// The pending decision.
    pub fn decision(&self) -> Option<Decision> {
        R::decision(&self.state)
    }
    /// How the match ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        R::outcome(&self.state)
    }
    /// The reader's view, with the latest journal lines.
    pub fn view(&self) -> View {
        let mut v = R::view(&self.state);
        let start = self.journal.len().saturating_sub(VIEW_LOG_LINES);
        v.log = self.journal[start..].iter().map(|e| e.to_string()).collect();
        v
    }
    /// Applies one input; on error nothing changes. Returns the journal entries it produced.
    pub fn apply(&mut self, input: Input<R::Command>) -> Result<&[R::Event], RuleError> {
        let mut state = self.state.clone();
        let mut dice = self.dice.clone();
        let mut events = Vec::new();
        match &input {
            Input::Act(c) => R::act(&mut state, c, &mut dice, &mut events)?,
            Input::Choose(o) => R::choose(&mut state, o, &mut dice, &mut events)?,
        }
        self.state = state;
        self.dice = dice;
        let start = self.journal.len();
        self.journal.extend(events);
        self.inputs.push(input);
        Ok(&self.journal[start..])
    }
    /// Answers the pending decision.
    pub fn choose(&mut self, option: &str) -> Result<&[R::Event], RuleError> {
        self.apply(Input::Choose(option.to_string()))
    }
    /// Carries out a complete command.
    pub fn act(&mut self, command: R::Command) -> Result<&[R::Event], RuleError> {
        self.apply(Input::Act(command))
    }
    /// Answers the pending decision without keeping a copy to roll back to: for bots choosing
    /// among offered options, where a refusal is a bug. On error the session is left as the
    /// failed attempt made it.
    pub fn choose_in_place(&mut self, option: &str) -> Result<(), RuleError> {
        R::choose(&mut self.state, option, &mut self.dice, &mut self.journal)?;
        self.inputs.push(Input::Choose(option.to_string()));
        Ok(())
    }
}
