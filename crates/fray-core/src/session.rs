//! A match in progress: state, dice, journal and the [`MatchRecord`] that reproduces it.
//!
//! The session is the door people (the terminal, the server, scenario files) come through: it
//! checks that an answer comes from a seat that may act and is among the actions
//! [`Game::legal`] offers, applies inputs to a copy and commits only on success (so a refused
//! input changes nothing, dice included), and writes every input and every die rolled into its
//! record. A record replays only under the fingerprint it was made with, and a replay whose
//! rolls differ from the recorded ones is an error, never a different match.

use crate::decision::Decision;
use crate::dice::{AnyDice, Dice, DiceError, ScriptedDice, SeededDice};
use crate::game::{ActionId, Fingerprint, Game, Node, Seat, SetupErrors, Viewer};
use crate::ruleset::{Outcome, RuleError};
use crate::view::View;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One input a match received.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Input<C> {
    /// A complete command.
    Act(C),
    /// An answer to a pending decision, by option id.
    Choose(String),
}

/// An input and the seat that gave it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Entry<C> {
    /// The seat, by index.
    pub seat: u8,
    /// What it sent.
    #[serde(flatten)]
    pub input: Input<C>,
}

/// Everything that reproduces a match: what it was played with, how it started, and every
/// input and die roll in order. Saves are records.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(bound(
    deserialize = "S: serde::de::DeserializeOwned, C: serde::de::DeserializeOwned",
    serialize = "S: Serialize, C: Serialize"
))]
pub struct MatchRecord<S, C> {
    /// The game system.
    pub system: String,
    /// The engine and content it was played with.
    pub fingerprint: Fingerprint,
    /// What it started from; `None` for a match built by hand (a scenario), which replays from
    /// its rolls only together with its builder.
    pub setup: Option<S>,
    /// The seed of the dice, for a seeded match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Every input, in order, with its seat.
    pub inputs: Vec<Entry<C>>,
    /// Every die rolled, in order (setup included).
    pub rolls: Vec<u32>,
}

/// Dice that write down every roll.
#[derive(Clone, Debug)]
pub struct RecordingDice<D> {
    /// The dice rolled.
    pub inner: D,
    /// Every value rolled so far.
    pub rolls: Vec<u32>,
}

impl<D: Dice> RecordingDice<D> {
    /// Records the rolls of `inner`.
    pub fn new(inner: D) -> Self {
        RecordingDice { inner, rolls: Vec::new() }
    }
}

impl<D: Dice> Dice for RecordingDice<D> {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        let v = self.inner.roll(sides)?;
        self.rolls.push(v);
        Ok(v)
    }
}

/// How many journal lines a view carries.
pub const VIEW_LOG_LINES: usize = 12;

/// A match in progress.
pub struct Session<G: Game> {
    game: Arc<G>,
    state: G::State,
    dice: RecordingDice<AnyDice>,
    journal: Vec<G::Event>,
    record: MatchRecord<G::Setup, G::Command>,
}

impl<G: Game> Clone for Session<G> {
    fn clone(&self) -> Self {
        Session {
            game: self.game.clone(),
            state: self.state.clone(),
            dice: self.dice.clone(),
            journal: self.journal.clone(),
            record: self.record.clone(),
        }
    }
}

impl<G: Game> Session<G> {
    /// Starts a match from `setup` with seeded dice.
    pub fn start(game: Arc<G>, setup: G::Setup, seed: u64) -> Result<Self, SetupErrors> {
        let mut dice = RecordingDice::new(AnyDice::Seeded(SeededDice::new(seed)));
        let mut journal = Vec::new();
        let state = game.start(&setup, &mut dice, &mut journal)?;
        let record = MatchRecord {
            system: game.id().to_string(),
            fingerprint: game.fingerprint(),
            setup: Some(setup),
            seed: Some(seed),
            inputs: Vec::new(),
            rolls: dice.rolls.clone(),
        };
        Ok(Session { game, state, dice, journal, record })
    }
    /// A match from a state built by hand (a scenario), rolling `dice`.
    pub fn from_state(game: Arc<G>, state: G::State, dice: AnyDice, journal: Vec<G::Event>) -> Self {
        let record = MatchRecord {
            system: game.id().to_string(),
            fingerprint: game.fingerprint(),
            setup: None,
            seed: None,
            inputs: Vec::new(),
            rolls: Vec::new(),
        };
        Session { game, state, dice: RecordingDice::new(dice), journal, record }
    }
    /// Replays a record: refused if it was made with another system, engine or content, and an
    /// error if an input no longer applies or the dice roll differently from the record.
    pub fn replay(game: Arc<G>, record: MatchRecord<G::Setup, G::Command>) -> Result<Self, String> {
        let mut s = Session::replay_start(game, &record)?;
        for (i, entry) in record.inputs.iter().enumerate() {
            let seat = Seat(entry.seat);
            let r = match &entry.input {
                Input::Act(c) => s.act(seat, c.clone()).map(|_| ()),
                Input::Choose(id) => s.choose(seat, id).map(|_| ()),
            };
            r.map_err(|e| format!("input {} no longer applies: {e}", i + 1))?;
            s.check_rolls(&record.rolls, &format!("input {}", i + 1))?;
        }
        if s.dice.rolls.len() != record.rolls.len() {
            return Err(format!(
                "the record holds {} rolls but replaying it rolled {}",
                record.rolls.len(),
                s.dice.rolls.len()
            ));
        }
        Ok(s)
    }
    /// A record's match as it stood before its first input, checked as [`Session::replay`]
    /// checks it: for replaying it one input at a time (`fray view --step`).
    pub fn replay_start(game: Arc<G>, record: &MatchRecord<G::Setup, G::Command>) -> Result<Self, String> {
        if record.system != game.id() {
            return Err(format!("this is a {} match, not {}", record.system, game.id()));
        }
        let here = game.fingerprint();
        if record.fingerprint != here {
            return Err(format!(
                "this match was played with {} and this Fray plays {}: the same inputs could make another match",
                record.fingerprint, here
            ));
        }
        let Some(setup) = record.setup.clone() else {
            return Err("this record has no setup to start from (it was built by hand)".into());
        };
        let seed = record.seed.ok_or("this record has no seed")?;
        let s = Session::start(game, setup, seed).map_err(|e| format!("its setup no longer starts: {e}"))?;
        s.check_rolls(&record.rolls, "setting up")?;
        Ok(s)
    }
    fn check_rolls(&self, recorded: &[u32], during: &str) -> Result<(), String> {
        let made = &self.dice.rolls;
        for (i, v) in made.iter().enumerate() {
            match recorded.get(i) {
                Some(r) if r == v => {}
                Some(r) => {
                    return Err(format!("the replay diverged while {during}: roll {} was {r}, now {v}", i + 1));
                }
                None => {
                    return Err(format!(
                        "the replay diverged while {during}: it rolls more dice than the record holds"
                    ));
                }
            }
        }
        Ok(())
    }

    /// The rules this match plays.
    pub fn game(&self) -> &G {
        &self.game
    }
    /// A shared handle on the rules.
    pub fn game_arc(&self) -> &Arc<G> {
        &self.game
    }
    /// The current state.
    pub fn state(&self) -> &G::State {
        &self.state
    }
    /// Everything that happened so far (unredacted: the referee's journal).
    pub fn journal(&self) -> &[G::Event] {
        &self.journal
    }
    /// The dice (with every roll so far).
    pub fn dice(&self) -> &RecordingDice<AnyDice> {
        &self.dice
    }
    /// The record that replays this match.
    pub fn record(&self) -> &MatchRecord<G::Setup, G::Command> {
        &self.record
    }
    /// Where the match stands.
    pub fn node(&self) -> Node {
        self.game.node(&self.state)
    }
    /// The decision pending for `seat`.
    pub fn decision(&self, seat: Seat) -> Option<Decision> {
        self.game.decision(&self.state, seat)
    }
    /// The first seat asked something, and its decision.
    pub fn pending(&self) -> Option<(Seat, Decision)> {
        self.game.pending(&self.state)
    }
    /// How the match ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome(&self.state)
    }
    /// The actions `seat` may take.
    pub fn legal(&self, seat: Seat, out: &mut Vec<ActionId>) {
        out.clear();
        self.game.legal(&self.state, seat, out);
    }
    /// The view as `viewer` may see it, with the latest journal lines it may read.
    pub fn view(&self, viewer: Viewer) -> View {
        let mut v = self.game.view(&self.state, viewer);
        v.log = self.log_tail(viewer, VIEW_LOG_LINES);
        v
    }
    /// The last `n` journal lines `viewer` may read, oldest first.
    pub fn log_tail(&self, viewer: Viewer, n: usize) -> Vec<String> {
        let mut lines: Vec<String> = self
            .journal
            .iter()
            .rev()
            .filter_map(|e| self.game.redact(&self.state, e, viewer))
            .take(n)
            .map(|e| e.to_string())
            .collect();
        lines.reverse();
        lines
    }
    /// Journal entries from the `from`-th on, as `viewer` may see them.
    pub fn events_since(&self, from: usize, viewer: Viewer) -> Vec<G::Event> {
        self.journal
            .get(from..)
            .unwrap_or(&[])
            .iter()
            .filter_map(|e| self.game.redact(&self.state, e, viewer))
            .collect()
    }

    /// Takes one action `seat` may take; refused (changing nothing) if `seat` may not act or
    /// `legal` does not offer it. Returns the journal entries it produced.
    pub fn apply(&mut self, seat: Seat, action: ActionId) -> Result<&[G::Event], RuleError> {
        let mut legal = Vec::new();
        self.game.legal(&self.state, seat, &mut legal);
        if !legal.contains(&action) {
            return Err(self.not_offered(&legal));
        }
        let id = self.game.describe(&self.state, action).id;
        self.commit(seat, Input::Choose(id), |g, s, d, out| g.apply(s, seat, action, d, out))
    }
    /// Answers `seat`'s pending decision with the option called `id`.
    pub fn choose(&mut self, seat: Seat, id: &str) -> Result<&[G::Event], RuleError> {
        let action = self.game.parse_choice(&self.state, seat, id)?;
        self.commit(seat, Input::Choose(id.to_string()), |g, s, d, out| g.apply(s, seat, action, d, out))
    }
    /// Answers the pending decision with the option called `id`, for whichever seat is asked
    /// (scenario files do not name seats).
    pub fn choose_pending(&mut self, id: &str) -> Result<&[G::Event], RuleError> {
        let seats = self.node().seats();
        let mut first_err = None;
        for seat in seats.iter() {
            match self.game.parse_choice(&self.state, seat, id) {
                Ok(_) => return self.choose(seat, id),
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        Err(first_err.unwrap_or_else(|| RuleError::malformed("nothing is pending: the match is over")))
    }
    /// Carries out a complete command for `seat`.
    pub fn act(&mut self, seat: Seat, command: G::Command) -> Result<&[G::Event], RuleError> {
        let c = command.clone();
        self.commit(seat, Input::Act(command), move |g, s, d, out| g.act(s, seat, &c, d, out))
    }
    /// Carries out a complete command for the seat that owns it (the side of the unit it
    /// names): scenario files do not name seats.
    pub fn act_as_owner(&mut self, command: G::Command) -> Result<&[G::Event], RuleError> {
        let seat = self
            .game
            .command_seat(&self.state, &command)
            .ok_or_else(|| RuleError::malformed("the command names no unit a seat plays"))?;
        self.act(seat, command)
    }
    fn commit(
        &mut self,
        seat: Seat,
        input: Input<G::Command>,
        f: impl FnOnce(&G, &mut G::State, &mut dyn Dice, &mut Vec<G::Event>) -> Result<(), RuleError>,
    ) -> Result<&[G::Event], RuleError> {
        let mut state = self.state.clone();
        let mut dice = self.dice.clone();
        let mut events = Vec::new();
        f(&self.game, &mut state, &mut dice, &mut events)?;
        self.state = state;
        self.dice = dice;
        let known = self.record.rolls.len();
        self.record.rolls.extend_from_slice(&self.dice.rolls[known..]);
        self.record.inputs.push(Entry { seat: seat.0, input });
        let start = self.journal.len();
        self.journal.extend(events);
        Ok(&self.journal[start..])
    }
    fn not_offered(&self, legal: &[ActionId]) -> RuleError {
        if legal.is_empty() {
            match self.node() {
                Node::Terminal => RuleError::malformed("nothing is pending: the match is over"),
                Node::Decide { .. } => RuleError::malformed("this seat is not asked anything now"),
            }
        } else {
            let ids: Vec<String> = legal.iter().map(|&a| self.game.describe(&self.state, a).id).collect();
            RuleError::malformed(format!("that is not an option now; choose one of: {}", ids.join(", ")))
        }
    }
}

/// Scripted dice for a record's rolls (a hand-built match replays from these).
pub fn dice_of_rolls(rolls: &[u32]) -> AnyDice {
    AnyDice::Scripted(ScriptedDice::new(rolls.iter().copied(), None))
}
