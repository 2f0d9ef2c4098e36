//! The object-safe faces of a system, so the CLI, the server and the simulator never name one:
//! a [`Table`] is a match in progress of any system, a [`System`] starts tables, runs scenario
//! files, looks rules up and checks builds, and the [`Registry`] holds the systems a program
//! offers.

use crate::decision::Decision;
use crate::game::{ActionId, Game, Node, Seat, SeatInfo, SetupErrors, Viewer};
use crate::lookup::Entry;
use crate::ruleset::{Outcome, RuleError};
use crate::scenario::Report;
use crate::session::Session;
use crate::view::View;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A match in progress, whatever its system.
pub trait Table: Send {
    /// The system's id.
    fn system(&self) -> &'static str;
    /// The seats, in index order.
    fn seats(&self) -> Vec<SeatInfo>;
    /// Where the match stands.
    fn node(&self) -> Node;
    /// The decision pending for `seat`.
    fn decision(&self, seat: Seat) -> Option<Decision>;
    /// The first seat asked something, and its decision.
    fn pending(&self) -> Option<(Seat, Decision)>;
    /// The actions `seat` may take (for bots).
    fn legal(&self, seat: Seat, out: &mut Vec<ActionId>);
    /// Takes an action `legal` offered; returns how many journal entries it added.
    fn apply(&mut self, seat: Seat, action: ActionId) -> Result<usize, RuleError>;
    /// Answers `seat`'s decision by option id; returns how many journal entries it added.
    fn choose(&mut self, seat: Seat, id: &str) -> Result<usize, RuleError>;
    /// Carries out a command given as JSON; a malformed one is refused and changes nothing.
    fn act_json(&mut self, seat: Seat, command: &serde_json::Value) -> Result<usize, RuleError>;
    /// The view as `viewer` may see it.
    fn view(&self, viewer: Viewer) -> View;
    /// Notes for a person on the options of `seat`'s pending decision ([`Game::notes`]).
    fn notes(&self, seat: Seat) -> Vec<String>;
    /// How many journal entries there are.
    fn journal_len(&self) -> usize;
    /// Journal lines from the `from`-th on, as `viewer` may read them.
    fn log_since(&self, from: usize, viewer: Viewer) -> Vec<String>;
    /// Journal entries from the `from`-th on as JSON, as `viewer` may see them.
    fn events_since(&self, from: usize, viewer: Viewer) -> Vec<serde_json::Value>;
    /// How the match ended, once it has.
    fn outcome(&self) -> Option<Outcome>;
    /// The record that replays the match, as JSON (what a save holds).
    fn record_json(&self) -> serde_json::Value;
    /// The last input the match took, as its record holds it (`{"seat": 0, "choose": "id"}`):
    /// for a store that keeps a match's inputs one at a time (the server) without writing the
    /// whole record after each.
    fn last_input_json(&self) -> Option<serde_json::Value>;
    /// How many dice the match has rolled, setup included (the server allows undoing a choice
    /// only while no die has been rolled since).
    fn rolls_made(&self) -> usize;
    /// The match as its concrete type, for drivers generic over one [`Game`] (bots that search
    /// its state): a `Session<G>`.
    fn as_any(&self) -> &dyn std::any::Any;
}

impl<G: Game> Table for Session<G> {
    fn system(&self) -> &'static str {
        self.game().id()
    }
    fn seats(&self) -> Vec<SeatInfo> {
        self.game().seats(self.state())
    }
    fn node(&self) -> Node {
        Session::node(self)
    }
    fn decision(&self, seat: Seat) -> Option<Decision> {
        Session::decision(self, seat)
    }
    fn pending(&self) -> Option<(Seat, Decision)> {
        Session::pending(self)
    }
    fn legal(&self, seat: Seat, out: &mut Vec<ActionId>) {
        Session::legal(self, seat, out)
    }
    fn apply(&mut self, seat: Seat, action: ActionId) -> Result<usize, RuleError> {
        Session::apply(self, seat, action).map(|e| e.len())
    }
    fn choose(&mut self, seat: Seat, id: &str) -> Result<usize, RuleError> {
        Session::choose(self, seat, id).map(|e| e.len())
    }
    fn act_json(&mut self, seat: Seat, command: &serde_json::Value) -> Result<usize, RuleError> {
        let c: G::Command = serde_json::from_value(command.clone())
            .map_err(|e| RuleError::malformed(format!("not a {} command: {e}", self.game().id())))?;
        Session::act(self, seat, c).map(|e| e.len())
    }
    fn view(&self, viewer: Viewer) -> View {
        Session::view(self, viewer)
    }
    fn notes(&self, seat: Seat) -> Vec<String> {
        self.game().notes(self.state(), seat)
    }
    fn journal_len(&self) -> usize {
        self.journal().len()
    }
    fn log_since(&self, from: usize, viewer: Viewer) -> Vec<String> {
        self.events_since(from, viewer).iter().map(|e| e.to_string()).collect()
    }
    fn events_since(&self, from: usize, viewer: Viewer) -> Vec<serde_json::Value> {
        Session::events_since(self, from, viewer)
            .iter()
            .map(|e| serde_json::to_value(e).unwrap_or(serde_json::Value::Null))
            .collect()
    }
    fn outcome(&self) -> Option<Outcome> {
        Session::outcome(self)
    }
    fn record_json(&self) -> serde_json::Value {
        serde_json::to_value(self.record()).unwrap_or(serde_json::Value::Null)
    }
    fn last_input_json(&self) -> Option<serde_json::Value> {
        self.record().inputs.last().and_then(|e| serde_json::to_value(e).ok())
    }
    fn rolls_made(&self) -> usize {
        self.dice().rolls.len()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A team (or character) file as it was when a match began: kept in the record, so the match
/// replays even if the file changes later.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamText {
    /// Where it was read from.
    pub path: String,
    /// Its text.
    pub text: String,
}

/// What a person asks a match to start from, in the form every system reads: team files by
/// seat (none for the built-in teams) and table options as `KEY=VALUE`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupRequest {
    /// Team files, one per seat in seat order, or none.
    #[serde(default)]
    pub teams: Vec<TeamText>,
    /// Table options as `KEY=VALUE`.
    #[serde(default)]
    pub options: Vec<String>,
    /// A map file (or a built-in map's text), for systems that play on maps; none for the
    /// default arena.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<TeamText>,
}

/// One table option `KEY=VALUE` split and trimmed, or the error every system gives for a pair
/// without `=`.
pub fn option_pair(pair: &str) -> Result<(&str, &str), String> {
    pair.split_once('=')
        .map(|(k, v)| (k.trim(), v.trim()))
        .ok_or_else(|| format!("--option {pair:?}: write it as KEY=VALUE"))
}

/// An option's value as TOML reads it (`true`, `12`, `"x"`), or else as a bare word
/// (`good-faith`), for systems whose options deserialize from a table.
pub fn option_value(value: &str) -> toml::Value {
    toml::from_str::<toml::Table>(&format!("v = {value}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.trim().to_string()))
}

/// What checking a build file found: the cards, or every problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildReport {
    /// Everything is legal: one card per character, to print.
    Legal(Vec<String>),
    /// Every problem, each naming its file, line and field.
    Illegal(Vec<String>),
}

/// A game system as a program offers it.
pub trait System: Send + Sync {
    /// The id scenario files and the command line use ("kazzam").
    fn id(&self) -> &'static str;
    /// The game's name for a person.
    fn title(&self) -> &'static str;
    /// The seat names of its default match.
    fn seat_names(&self) -> Vec<String>;
    /// Starts a match.
    fn new_table(&self, request: &SetupRequest, seed: u64) -> Result<Box<dyn Table>, SetupErrors>;
    /// Replays a record (a save); refused if made by another engine or content.
    fn replay(&self, record: serde_json::Value) -> Result<Box<dyn Table>, String>;
    /// A saved match as it stood before its first input, for replaying it one input at a time
    /// (`fray view --step`): the inputs are the record's, applied with [`Table::choose`] and
    /// [`Table::act_json`].
    fn replay_start(&self, record: serde_json::Value) -> Result<Box<dyn Table>, String> {
        let _ = record;
        Err(format!("{} matches cannot be replayed step by step", self.title()))
    }
    /// Runs a scenario file.
    fn run_scenario(&self, name: &str, text: &str) -> Result<Report, String>;
    /// The table after a scenario file's steps (for `fray view`).
    fn scenario_table(&self, name: &str, text: &str) -> Result<Box<dyn Table>, String>;
    /// Every entry of the rules look-up.
    fn rules_index(&self) -> Result<Vec<Entry>, String>;
    /// Checks a build file (a character, a team, stat blocks).
    fn check_build(&self, file: &str, text: &str) -> BuildReport;
    /// Measures the default match ([`crate::bench::measure`]).
    fn bench(&self, matches: u64, live_bytes: Option<&dyn Fn() -> u64>) -> crate::bench::BenchReport;
    /// Whether matches can be played: `Err` says why not and what the system offers instead. The
    /// drivers ask before starting, replaying, running scenarios or benchmarking a match.
    fn playable(&self) -> Result<(), String> {
        Ok(())
    }
    /// The table options `fray play --option KEY=VALUE` takes: each as `KEY=VALUES` (the
    /// default first) and what it changes, for `fray play --help`.
    fn table_options(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }
    /// The text of a built-in team called `name` (`fray play --home NAME`), if the system has one.
    fn builtin_team(&self, name: &str) -> Option<&'static str> {
        let _ = name;
        None
    }
    /// The text of a built-in map called `name` (`fray play --map NAME`), if the system has one.
    fn builtin_map(&self, name: &str) -> Option<&'static str> {
        let _ = name;
        None
    }
    /// A description of every built-in map (`fray rules SYSTEM --maps`).
    fn maps(&self) -> Result<String, String> {
        Err(format!("{} has no maps", self.title()))
    }
    /// The cards of a legal build file as one SVG document, for systems that draw their cards.
    fn build_svg(&self, file: &str, text: &str) -> Result<String, String> {
        let _ = (file, text);
        Err(format!("{} has no SVG cards; `fray build` prints them as text", self.title()))
    }
}

/// The systems a program offers.
#[derive(Default, Clone)]
pub struct Registry {
    systems: Vec<Arc<dyn System>>,
}

impl Registry {
    /// No system yet.
    pub fn new() -> Self {
        Registry::default()
    }
    /// Adds a system.
    pub fn with(mut self, system: Arc<dyn System>) -> Self {
        self.systems.push(system);
        self
    }
    /// Every system's id.
    pub fn ids(&self) -> Vec<&'static str> {
        self.systems.iter().map(|s| s.id()).collect()
    }
    /// The system called `id`, or an error listing those there are.
    pub fn get(&self, id: &str) -> Result<&Arc<dyn System>, String> {
        self.systems.iter().find(|s| s.id() == id).ok_or_else(|| {
            let known = self.ids().join(", ");
            match crate::lookup::closest(id, &self.ids()) {
                Some(near) => format!("no system {id:?} (did you mean {near}?); the systems are {known}"),
                None => format!("no system {id:?}; the systems are {known}"),
            }
        })
    }
    /// Every system.
    pub fn all(&self) -> &[Arc<dyn System>] {
        &self.systems
    }
}

#[cfg(test)]
mod option_tests {
    use super::*;

    #[test]
    fn option_pairs_split_and_values_read_as_toml_or_words() {
        assert_eq!(option_pair(" round-limit = 10 "), Ok(("round-limit", "10")));
        assert!(option_pair("creeps").unwrap_err().contains("KEY=VALUE"));
        assert_eq!(option_value("10"), toml::Value::Integer(10));
        assert_eq!(option_value("false"), toml::Value::Boolean(false));
        assert_eq!(option_value("good-faith"), toml::Value::String("good-faith".into()));
    }
}
