//! The [`Game`] trait: what the CLI, the bots, the simulator, the scenario runner and the server
//! drive. A system implements it once, as a value holding its content (so one process can hold
//! several content sets side by side); every driver then works for that system.
//!
//! The trait has two faces:
//!
//! - **The hot path** ([`Game::node`], [`Game::legal`], [`Game::apply`]): integer
//!   [`ActionId`]s, a [`Sink`] that search passes as [`NullSink`], no validation beyond
//!   `debug_assert` (the [`crate::session::Session`] validates for people). Bots, the simulator
//!   and tree search live here.
//! - **Presentation** ([`Game::describe`], [`Game::prompt`], [`Game::view`], [`Game::redact`]):
//!   option ids and labels as scenario files and people write them, per-seat views, the journal
//!   as each seat may see it.
//!
//! Seats are the sides people (or bots) play. A [`Node::Decide`] names every seat that may act
//! at that moment, so a window in which several seats may act or pass (an Interrupt, a token
//! spent on another unit's turn) is one node, not a question put to each seat in turn.

use crate::decision::{Decision, DecisionOption};
use crate::dice::Dice;
use crate::ruleset::{Outcome, RuleError};
use crate::view::View;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::{Debug, Display};

/// A side of the table, as an index into [`Game::seats`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of seats (at most 32), as a bitmask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(pub u32);

impl SeatSet {
    /// No seat.
    pub const EMPTY: SeatSet = SeatSet(0);
    /// Just `seat`.
    pub fn one(seat: Seat) -> SeatSet {
        SeatSet(1 << seat.0)
    }
    /// Whether `seat` is in the set.
    pub fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }
    /// The set with `seat` added.
    pub fn with(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 | (1 << seat.0))
    }
    /// Whether no seat is in the set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// How many seats are in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    /// The seats in the set, lowest first.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..32u8).filter(move |i| self.0 & (1 << i) != 0).map(Seat)
    }
    /// The lowest seat in the set.
    pub fn first(self) -> Option<Seat> {
        (self.0 != 0).then(|| Seat(self.0.trailing_zeros() as u8))
    }
}

/// One legal answer, encoded by the system (a square, a unit, a power, a word of the menu...).
/// Only the system that produced it can read it; [`Game::describe`] turns it into the option id
/// and label a person sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ActionId(pub u32);

impl ActionId {
    /// Passing: declining to act in a window where a seat may act or pass. Systems offer it in
    /// [`Game::legal`] whenever [`Node::Decide::passable`] is true.
    pub const PASS: ActionId = ActionId(u32::MAX);
    /// Backing out of a half-made choice (a menu's "cancel"): it leads back to an earlier
    /// question, so the decision graph has cycles through it. Bots take it only when nothing
    /// else is offered.
    pub const BACK: ActionId = ActionId(u32::MAX - 1);
}

/// Who is looking at a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// A player at this seat: sees what that side may know.
    Seat(Seat),
    /// Someone watching: sees what every side may know.
    Spectator,
    /// The referee (tests, replays after the match, a game master): sees everything.
    Referee,
}

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// The match is over.
    Terminal,
    /// Some seats may act now.
    Decide {
        /// Every seat that may act.
        seats: SeatSet,
        /// Whether a seat may pass ([`ActionId::PASS`]) instead.
        passable: bool,
    },
}

impl Node {
    /// Whether the match is over.
    pub fn is_terminal(self) -> bool {
        matches!(self, Node::Terminal)
    }
    /// The seats that may act (none once the match is over).
    pub fn seats(self) -> SeatSet {
        match self {
            Node::Terminal => SeatSet::EMPTY,
            Node::Decide { seats, .. } => seats,
        }
    }
}

/// A seat as a person sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// The name commands and scenario files use ("red", "heroes").
    pub name: String,
}

impl SeatInfo {
    /// A seat called `name`.
    pub fn new(name: impl Into<String>) -> Self {
        SeatInfo { name: name.into() }
    }
}

/// What a pending question is about, for a person: everything of a [`Decision`] but its options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// The unit the question is about, if any.
    pub unit: Option<String>,
    /// A short machine-readable kind ("action", "square", "target", "glancing"...).
    pub kind: String,
    /// The question, in words.
    pub text: String,
}

/// Where the events a rule produces go. The journal is a `Vec`; search passes [`NullSink`] and
/// keeps nothing.
pub trait Sink<E> {
    /// Takes one event (after the rules have applied it to the state).
    fn push(&mut self, event: E);
    /// Whether events are kept: rules may skip building prose-only events when they are not.
    fn keeps(&self) -> bool {
        true
    }
}

impl<E> Sink<E> for Vec<E> {
    fn push(&mut self, event: E) {
        Vec::push(self, event);
    }
}

/// A sink that keeps nothing: for bots, search and simulation.
#[derive(Clone, Copy, Debug, Default)]
pub struct NullSink;

impl<E> Sink<E> for NullSink {
    fn push(&mut self, _event: E) {}
    fn keeps(&self) -> bool {
        false
    }
}

/// Everything wrong with a setup, reported at once (each line names its file, line and field
/// where it has one).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", crate::scenario::capped(.0.clone()).join("\n"))]
pub struct SetupErrors(pub Vec<String>);

impl SetupErrors {
    /// One problem.
    pub fn one(message: impl Into<String>) -> Self {
        SetupErrors(vec![message.into()])
    }
}

impl From<String> for SetupErrors {
    fn from(s: String) -> Self {
        SetupErrors(s.lines().map(str::to_string).collect())
    }
}

impl From<Vec<String>> for SetupErrors {
    fn from(v: Vec<String>) -> Self {
        SetupErrors(v)
    }
}

impl From<RuleError> for SetupErrors {
    fn from(e: RuleError) -> Self {
        SetupErrors::one(e.to_string())
    }
}

/// What a match was played with: the engine (system and rules version) and a hash of the
/// content it loaded. A saved match records it; a replay under another fingerprint is refused,
/// because the same inputs could mean another match.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fingerprint {
    /// The system and the version of its rules ("kazzam rules 2").
    pub engine: String,
    /// A hash of every content file the system loaded, as 16 hex digits.
    pub content: String,
}

impl Fingerprint {
    /// The fingerprint of `engine` with content made of `texts` (file names and their text).
    pub fn of<'a>(engine: impl Into<String>, texts: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        for (name, text) in texts {
            h.update(name.as_bytes());
            h.update(&[0]);
            h.update(text.as_bytes());
            h.update(&[0]);
        }
        Fingerprint { engine: engine.into(), content: format!("{:016x}", h.digest()) }
    }
}

impl Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}, content {}", self.engine, self.content)
    }
}

/// A game system's rules, as a value holding its content.
///
/// Architecture invariants: state changes only inside `start`, `apply` and `act`; `apply` and
/// `act` that return an error leave the state as it was (the conformance harness checks it by
/// comparing views); `legal` offers only actions `apply` accepts; nothing here reads files or
/// the environment.
pub trait Game: Send + Sync + 'static {
    /// The whole match state. Cloning it must be cheap: search clones it constantly.
    type State: Clone + Send + Sync + 'static;
    /// What a match starts from (team files, map, table options), as data a record can keep.
    type Setup: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static;
    /// A complete command (the form the server, the CLI and scenario files send).
    type Command: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static;
    /// A journal entry: what happened, readable through `Display`.
    type Event: Serialize + Display + Clone + Debug + Send + Sync + 'static;

    /// The system's name, as scenario files spell it ("kazzam").
    fn id(&self) -> &'static str;
    /// The engine and content this value plays.
    fn fingerprint(&self) -> Fingerprint;
    /// The seats of a match, in index order.
    fn seats(&self, state: &Self::State) -> Vec<SeatInfo>;
    /// Starts a match: every setup error at once, or the state at its first decision.
    fn start(
        &self,
        setup: &Self::Setup,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Self::Event>,
    ) -> Result<Self::State, SetupErrors>;

    /// Where the match stands: over, or which seats may act.
    fn node(&self, state: &Self::State) -> Node;
    /// Appends every action `seat` may take now to `out` (which the caller cleared). Empty when
    /// `seat` may not act.
    fn legal(&self, state: &Self::State, seat: Seat, out: &mut Vec<ActionId>);
    /// Takes one of the actions `legal` offered `seat`. Offering an action `legal` did not is
    /// the caller's error (the session checks; this may only `debug_assert`).
    fn apply(
        &self,
        state: &mut Self::State,
        seat: Seat,
        action: ActionId,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Self::Event>,
    ) -> Result<(), RuleError>;
    /// Carries out a complete command for `seat`, as if each of its parts had been chosen in
    /// turn; a refused command changes nothing.
    fn act(
        &self,
        state: &mut Self::State,
        seat: Seat,
        command: &Self::Command,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Self::Event>,
    ) -> Result<(), RuleError>;
    /// The seat that gives `command` (the side of the unit it names), if any.
    fn command_seat(&self, state: &Self::State, command: &Self::Command) -> Option<Seat>;
    /// The command that does what `path` does: the actions `seat` chose, in order, from
    /// `before`, which led to `after`; `None` while the path is not (yet) one whole command, or
    /// for paths the system has no command for. The conformance harness checks that both lead
    /// to the same state (commands are sugar for menu paths).
    fn command_for(
        &self,
        _before: &Self::State,
        _after: &Self::State,
        _seat: Seat,
        _path: &[ActionId],
    ) -> Option<Self::Command> {
        None
    }

    /// The option id and label of an action `legal` offered (the ids scenario files write).
    fn describe(&self, state: &Self::State, action: ActionId) -> DecisionOption;
    /// What `seat` is being asked, if it may act.
    fn prompt(&self, state: &Self::State, seat: Seat) -> Option<Prompt>;
    /// The reader's picture of the state, as `viewer` may see it.
    fn view(&self, state: &Self::State, viewer: Viewer) -> View;
    /// Notes for a person on the options of `seat`'s pending decision, one per option in its
    /// order (empty text where there is nothing to say): what choosing it costs that its label
    /// does not say, such as Opportunities it grants or a turn it ends. Presentation only: never
    /// journaled, never part of a label. Systems with nothing to add leave it empty.
    fn notes(&self, _state: &Self::State, _seat: Seat) -> Vec<String> {
        Vec::new()
    }
    /// An event as `viewer` may see it, or `None` if it must not see it at all.
    fn redact(&self, _state: &Self::State, event: &Self::Event, _viewer: Viewer) -> Option<Self::Event> {
        Some(event.clone())
    }
    /// How the match ended, once it has.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;
    /// Per seat, how well the match went, in [-1, 1] (a win 1, a loss -1), once it is over:
    /// what search maximises.
    fn returns(&self, state: &Self::State) -> Option<Vec<f64>> {
        let outcome = self.outcome(state)?;
        let seats = self.seats(state);
        Some(
            seats
                .iter()
                .map(|s| match &outcome.winner {
                    None => 0.0,
                    Some(w) if *w == s.name => 1.0,
                    Some(_) => -1.0,
                })
                .collect(),
        )
    }

    /// How well the match is going for `seat`, in [-1, 1]: what bots maximise before the end
    /// (greedy after each choice, search where it stops looking ahead). A system that knows its
    /// game says more than who won; by default it is the [`Game::returns`] once the match is
    /// over and 0 before.
    fn evaluate(&self, state: &Self::State, seat: Seat) -> f64 {
        self.returns(state).and_then(|r| r.get(seat.index()).copied()).unwrap_or(0.0)
    }
    /// Counts what `event` means for a simulator's report (points by source, power uses, hits,
    /// damage, Take Outs) into `tally`. By default nothing is counted.
    fn tally(&self, event: &Self::Event, tally: &mut crate::tally::Tally) {
        let _ = (event, tally);
    }
    /// The setup a person's request (team files, table options) asks for, refused with every
    /// problem. By default a system takes no request and plays its default match.
    fn setup_for(&self, request: &crate::table::SetupRequest) -> Result<Self::Setup, SetupErrors> {
        let _ = request;
        Err(SetupErrors::one(format!("{} takes no setup request", self.id())))
    }

    /// The seat called `name`.
    fn seat_named(&self, state: &Self::State, name: &str) -> Option<Seat> {
        self.seats(state).iter().position(|s| s.name == name).map(|i| Seat(i as u8))
    }
    /// The pending decision for `seat`, with every option described (slow: for people and tests).
    fn decision(&self, state: &Self::State, seat: Seat) -> Option<Decision> {
        let prompt = self.prompt(state, seat)?;
        let mut ids = Vec::new();
        self.legal(state, seat, &mut ids);
        if ids.is_empty() {
            return None;
        }
        let seat_name = self.seats(state).get(seat.index()).map(|s| s.name.clone()).unwrap_or_default();
        Some(Decision {
            seat: seat_name,
            unit: prompt.unit,
            kind: prompt.kind,
            prompt: prompt.text,
            options: ids.iter().map(|&a| self.describe(state, a)).collect(),
        })
    }
    /// The first seat that may act and its decision (slow: for people and tests).
    fn pending(&self, state: &Self::State) -> Option<(Seat, Decision)> {
        self.node(state).seats().iter().find_map(|seat| self.decision(state, seat).map(|d| (seat, d)))
    }
    /// The action whose option id is `id`, among those `seat` may take (slow path: people,
    /// scenario files, saved matches). Refused with the list of options when none matches.
    fn parse_choice(&self, state: &Self::State, seat: Seat, id: &str) -> Result<ActionId, RuleError> {
        let mut ids = Vec::new();
        self.legal(state, seat, &mut ids);
        if ids.is_empty() {
            return Err(match self.node(state) {
                Node::Terminal => RuleError::malformed("nothing is pending: the match is over"),
                Node::Decide { .. } => RuleError::malformed("nothing is asked of this seat now"),
            });
        }
        let mut options = Vec::with_capacity(ids.len());
        for &a in &ids {
            let o = self.describe(state, a);
            if o.id == id {
                return Ok(a);
            }
            options.push(o.id);
        }
        let kind = self.prompt(state, seat).map(|p| p.kind).unwrap_or_default();
        Err(crate::answer::not_an_option(id, &kind, options.iter().map(String::as_str)))
    }
}
