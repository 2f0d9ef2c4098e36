//! Kazzam as a [`Game`]: its seats (red, blue, and the neutral creepmaster, who is asked nothing
//! while the Creep AI plays by the rules), what a match starts from ([`MatchSetup`]), and the
//! encoding of option ids as [`ActionId`]s.
//!
//! Option ids (`"move"`, `"3,4"`, `"power:swap-places"`, a unit id, `"2"`) are what scenario
//! files and people write; bots and search pass [`ActionId`]s, encoded by the core's
//! [`fray_core::answer`] codec with Kazzam's menu words ([`WORDS`]).

use crate::content::Content;
use crate::content::builtin;
use crate::content::powers::Targeting;
use crate::engine::events::Event;
use crate::engine::flow::{self, Ctx, Frame};
use crate::engine::options::TableOptions;
use crate::engine::plugins::Present;
use crate::engine::setup;
use crate::engine::state::{State, UnitIdx};
use crate::rules::actions;
use fray_core::answer::{Answer, Names};
use fray_core::decision::DecisionOption;
use fray_core::dice::Dice;
use fray_core::game::{ActionId, Fingerprint, Game, Node, Prompt, Seat, SeatInfo, SeatSet, SetupErrors, Sink, Viewer};
use fray_core::lookup::Entry;
use fray_core::ruleset::{Outcome, RuleError};
use fray_core::scenario::Report;
use fray_core::session::{MatchRecord, Session};
use fray_core::table::{BuildReport, SetupRequest, System, Table, TeamText};
use fray_core::view::View;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The version of Kazzam's rules code: bumped whenever the same inputs could play differently,
/// so saves from before are refused rather than replayed into another match.
pub const RULES_VERSION: u32 = 1;

/// The seats, in index order.
pub const SEATS: [&str; 3] = ["red", "blue", "neutral"];

/// What a Kazzam match starts from besides the seed: the team files and the table options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchSetup {
    /// The home (red) and away (blue) team files, or none for the built-in teams.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teams: Option<[TeamText; 2]>,
    /// Table options as `KEY=VALUE` (docs/rulings/kazzam.md names them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// The map file (docs/maps.md), or none for the default arena.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<TeamText>,
}

/// The Kazzam rules, holding the content they play.
#[derive(Clone, Debug)]
pub struct Kazzam {
    content: Arc<Content>,
    fingerprint: Fingerprint,
    /// The arenas its matches were played on, one shared copy of each (the last few).
    arenas: Arc<std::sync::Mutex<Vec<Arc<crate::engine::arena::Arena>>>>,
}

impl Kazzam {
    /// Kazzam with its compiled-in content.
    pub fn builtin() -> Self {
        Kazzam::with_content(Arc::new(Content::builtin()))
    }
    /// Kazzam playing `content`; its fingerprint hashes the content's files.
    pub fn with_content(content: Arc<Content>) -> Self {
        let fingerprint = Fingerprint::of(format!("kazzam rules {RULES_VERSION}"), content.files());
        Kazzam { content, fingerprint, arenas: Default::default() }
    }
    /// The content it plays.
    pub fn content(&self) -> &Arc<Content> {
        &self.content
    }
}

impl setup::Shared for Kazzam {
    /// The program's table for those classes ([`crate::engine::plugins::table_for`]).
    fn hooks(&self, present: Present) -> crate::engine::state::HookTable {
        crate::engine::state::HookTable(crate::engine::plugins::table_for(present))
    }
    /// The copy of an equal arena already played on, or this one, kept for later matches.
    fn arena(&self, arena: crate::engine::arena::Arena) -> Arc<crate::engine::arena::Arena> {
        /// How many arenas are kept.
        const KEPT: usize = 8;
        let mut arenas = self.arenas.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(a) = arenas.iter().find(|a| ***a == arena) {
            return a.clone();
        }
        let a = Arc::new(arena);
        if arenas.len() >= KEPT {
            arenas.remove(0);
        }
        arenas.push(a.clone());
        a
    }
}

impl Kazzam {
    /// Starts a match from a setup built by hand (a scenario's, or a test's that hands every
    /// power to every athlete): initiative is rolled, then the match runs to its first decision.
    pub fn start_from(
        &self,
        setup: setup::Setup,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Event>,
    ) -> Result<State, SetupErrors> {
        let mut state = setup::build_with(setup, self)?;
        for e in setup::start(&mut state, dice, true)? {
            out.push(e);
        }
        Ok(state)
    }
}

fn seat_index(name: &str) -> Seat {
    Seat(SEATS.iter().position(|s| *s == name).unwrap_or(2) as u8)
}

/// The unit whose seat answers the pending question, where that is known without building it.
fn asker(s: &State) -> Option<Option<UnitIdx>> {
    Some(Some(match s.flow.last()? {
        Frame::Act { unit }
        | Frame::FinalAction { unit, .. }
        | Frame::Pending { unit, .. }
        | Frame::Respawn { unit }
        | Frame::Exit { unit }
        | Frame::Recharge { unit }
        | Frame::TeleportSelf { unit, .. }
        | Frame::GrantedMove { unit, .. }
        | Frame::Granted { unit, .. }
        | Frame::ShiftSelf { unit, .. }
        | Frame::LeaderBoost { unit } => *unit,
        Frame::ChooseEffect { chooser, .. } => *chooser,
        Frame::Banish { by, .. } => *by,
        // A push, pull or slide: its mover picks each square, its target whether to roll to
        // safety (`forced::question`).
        Frame::Forced(f) => {
            if f.safety.is_some() {
                f.target
            } else {
                f.mover
            }
        }
        // The attack's questions (`attack::question`); its other stages ask nothing.
        Frame::Attack(a) => match a.stage {
            crate::engine::frames::rules::Stage::Tokens { .. } | crate::engine::frames::rules::Stage::Glancing => {
                a.attacker
            }
            crate::engine::frames::rules::Stage::Luck { who, .. } => who,
            _ => return Some(None),
        },
        Frame::GrantedAttack { unit, by, terms, .. } => {
            if terms.granter_aims {
                *by
            } else {
                *unit
            }
        }
        _ => return Some(None),
    }))
}

/// The menu words that have an [`Answer::Word`] form.
pub const WORDS: &[&str] = &[
    "advantage",
    "button",
    "crawl",
    "damage",
    "deal",
    "decline",
    "done",
    "drop",
    "dunk",
    "each",
    "effect",
    "end-turn",
    "escape",
    "give",
    "guarded",
    "hand",
    "hide",
    "hold",
    "implement",
    "keep",
    "leave",
    "minus",
    "move",
    "no",
    "none",
    "pass",
    "pick-up",
    "plus",
    "prone",
    "push",
    "reroll",
    "roll",
    "shift",
    "snatch",
    "spend",
    "stand",
    "stay",
    "stop",
    "swap",
    "take",
    "use",
    "yes",
    "zone",
    "disarm",
    "charge",
    // Added later, at the end so earlier words keep their numbers.
    "drop-prone",
    "retrieve",
    "stow",
    "land",
];

struct KazzamNames<'a>(&'a State);

impl Names for KazzamNames<'_> {
    fn unit_index(&self, id: &str) -> Option<u16> {
        self.0.find_unit(id)
    }
    fn unit_id(&self, i: u16) -> Option<&str> {
        self.0.units.get(i as usize).map(|u| &*u.id)
    }
    fn power_index(&self, id: &str) -> Option<u16> {
        self.0.powers.by_exact_id(id)
    }
    fn power_id(&self, i: u16) -> Option<&str> {
        self.0.powers.all().get(i as usize).map(|d| d.id.as_str())
    }
}

/// A word's bytes as one number (`None` past 16 bytes: no menu word is that long).
const fn packed(word: &[u8]) -> Option<u128> {
    if word.len() > 16 {
        return None;
    }
    let (mut n, mut i) = (0u128, 0);
    while i < word.len() {
        n |= (word[i] as u128) << (8 * i);
        i += 1;
    }
    Some(n)
}

/// [`WORDS`] packed, each with its number, shortest first; the words of length `n` are
/// `PACKED[STARTS[n]..STARTS[n + 1]]`. Both are worked out when the program is compiled.
const PACKED: [(u128, u16); WORDS.len()] = {
    let mut out = [(0u128, 0u16); WORDS.len()];
    let (mut len, mut k) = (0, 0);
    while len <= 16 {
        let mut i = 0;
        while i < WORDS.len() {
            if WORDS[i].len() == len {
                out[k] = match packed(WORDS[i].as_bytes()) {
                    Some(p) => (p, i as u16),
                    None => panic!("menu words are at most 16 bytes long"),
                };
                k += 1;
            }
            i += 1;
        }
        len += 1;
    }
    assert!(k == WORDS.len(), "menu words are at most 16 bytes long");
    out
};

/// Where the words of each length start in [`PACKED`].
const STARTS: [usize; 18] = {
    let mut starts = [0; 18];
    let mut len = 0;
    while len <= 16 {
        let mut i = 0;
        let mut shorter_or_equal = 0;
        while i < WORDS.len() {
            if WORDS[i].len() <= len {
                shorter_or_equal += 1;
            }
            i += 1;
        }
        starts[len + 1] = shorter_or_equal;
        len += 1;
    }
    starts
};

/// The number of menu word `id` in [`WORDS`]: only the words of its length are compared, as
/// numbers ([`PACKED`]), not as strings.
fn word_number(id: &str) -> Option<u16> {
    let id_packed = packed(id.as_bytes())?;
    let words = &PACKED[STARTS[id.len()]..STARTS[id.len() + 1]];
    words.iter().find(|(w, _)| *w == id_packed).map(|&(_, i)| i)
}

/// The action id of option `id`, the `index`-th of the pending decision.
pub fn encode(s: &State, id: &str, index: usize) -> ActionId {
    Answer::encode_with(&KazzamNames(s), word_number, id, index).id()
}

/// The option id an action id stands for.
pub fn decode(s: &State, a: ActionId) -> Result<String, RuleError> {
    Answer::of(a)
        .decode(&KazzamNames(s), WORDS, |i| {
            flow::decision_ids(s).and_then(|d| d.options.into_iter().nth(i)).map(|o| o.id)
        })
        .ok_or_else(bad)
}

fn bad() -> RuleError {
    RuleError::malformed("that action id is not an option now")
}

/// The seat that answers for `unit` ([`flow::seat_of`], with no name written).
fn seat_of_unit(s: &State, unit: UnitIdx) -> Seat {
    let who = crate::rules::control::controller(s, unit).unwrap_or(unit);
    seat_index(s.unit(who).side.name())
}

/// The options of a menu as action ids, each the one [`encode`] gives its id: what
/// `Game::legal` reads, with no option id or label written.
struct Ids<'a> {
    s: &'a State,
    out: &'a mut Vec<ActionId>,
    n: usize,
}

impl Ids<'_> {
    fn id(&mut self, a: ActionId) {
        self.out.push(a);
        self.n += 1;
    }
    fn encoded(&mut self, id: &str) {
        let a = encode(self.s, id, self.n);
        self.id(a);
    }
}

impl actions::Opts for Ids<'_> {
    fn word(&mut self, id: &'static str, _label: &'static str) {
        // A menu word is no square, number or power: `encode` would find it among the words.
        if id == "cancel" {
            return self.id(Answer::Back.id());
        }
        match word_number(id) {
            Some(i) => self.id(Answer::Word(i).id()),
            None => self.encoded(id),
        }
    }
    fn labelled(&mut self, id: &str, _label: impl FnOnce() -> String) {
        self.encoded(id);
    }
    fn square(&mut self, q: fray_core::grid::Pos, _label: impl FnOnce() -> String) {
        // As `Answer::encode` reads "x,y": the short form only inside its range.
        if (0..1 << 14).contains(&q.x) && (0..1 << 14).contains(&q.y) {
            self.id(Answer::Square(q.x, q.y).id());
        } else {
            self.encoded(&q.key());
        }
    }
    fn unit(&mut self, s: &State, t: UnitIdx) {
        self.encoded(&s.unit(t).id);
    }
    fn power(&mut self, s: &State, p: u16) {
        // What `encode` makes of "power:ID": no square, number or word starts "power:". Ids are
        // unique, so the power found by `p`'s id is `p` itself (`Powers::by_exact_id`).
        debug_assert_eq!(s.powers.by_exact_id(&s.powers.get(p).id), Some(p));
        self.id(Answer::Power(p).id())
    }
    fn option(&mut self, o: DecisionOption) {
        self.encoded(&o.id);
    }
    fn count(&self) -> usize {
        self.n
    }
}

/// `Game::legal` for the frames whose options come from a shared builder ([`actions::Opts`]):
/// false for the others, which are read off their [`flow::decision_ids`].
fn legal_ids(s: &State, seat: Seat, out: &mut Vec<ActionId>) -> bool {
    if s.outcome.is_some() {
        return true; // nothing is asked
    }
    let (unit, pending) = match s.flow.last() {
        Some(Frame::Act { unit } | Frame::FinalAction { unit, .. }) => (*unit, None),
        Some(Frame::Pending { unit, pending }) => (*unit, Some(pending)),
        _ => return false,
    };
    if seat_of_unit(s, unit) != seat {
        return true;
    }
    let mut ids = Ids { s, out, n: 0 };
    actions::unlabelled(|| {
        actions::quietly(|| {
            crate::rules::cover::remembering(|| match pending {
                None => actions::menu_into(s, unit, &mut ids),
                Some(p) => actions::pending_options(s, unit, p, &mut ids),
            })
        })
    });
    true
}

impl Game for Kazzam {
    type State = State;
    type Setup = MatchSetup;
    type Command = actions::Command;
    type Event = Event;

    fn id(&self) -> &'static str {
        "kazzam"
    }
    fn fingerprint(&self) -> Fingerprint {
        self.fingerprint.clone()
    }
    fn seats(&self, _state: &State) -> Vec<SeatInfo> {
        SEATS.iter().map(|s| SeatInfo::new(*s)).collect()
    }
    fn start(&self, setup: &MatchSetup, dice: &mut dyn Dice, out: &mut dyn Sink<Event>) -> Result<State, SetupErrors> {
        let options = TableOptions::from_pairs(&setup.options)?;
        if let Some(m) = &setup.map {
            let map = crate::content::maps::load(&self.content, &m.path, &m.text).map_err(|e| e.join("\n"))?;
            let teams = setup
                .teams
                .as_ref()
                .map(|[h, a]| ((h.path.as_str(), h.text.as_str()), (a.path.as_str(), a.text.as_str())));
            let built = builtin::map_setup(&self.content, &map, teams, options)?;
            // The arena is announced first (K-SET-1): its name, its special rule, any Creep group
            // left off for want of a stat block.
            let mut text = format!("arena: {}", map.name);
            if let Some(s) = &map.special {
                text.push_str(&format!(" — {s}"));
            }
            out.push(Event::Note { text });
            for m in &map.missing {
                out.push(Event::Note { text: format!("not placed: {m}") });
            }
            return self.start_from(built, dice, out);
        }
        let built = match &setup.teams {
            Some([h, a]) => {
                let (h, a) = ((h.path.as_str(), h.text.as_str()), (a.path.as_str(), a.text.as_str()));
                builtin::team_setup(&self.content, h, a, options)?
            }
            None => builtin::default_setup(&self.content, options)?,
        };
        self.start_from(built, dice, out)
    }

    fn node(&self, s: &State) -> Node {
        if s.outcome.is_some() {
            return Node::Terminal;
        }
        let seat = match asker(s) {
            None => return Node::Terminal,
            Some(Some(u)) => seat_of_unit(s, u),
            Some(None) => match flow::decision_ids(s) {
                Some(d) => seat_index(&d.seat),
                None => return Node::Terminal,
            },
        };
        Node::Decide { seats: SeatSet::one(seat), passable: false }
    }
    fn legal(&self, s: &State, seat: Seat, out: &mut Vec<ActionId>) {
        if legal_ids(s, seat, out) {
            return;
        }
        let Some(d) = flow::decision_ids(s) else { return };
        if seat_index(&d.seat) != seat {
            return;
        }
        out.extend(d.options.iter().enumerate().map(|(i, o)| encode(s, &o.id, i)));
    }
    fn apply(
        &self,
        s: &mut State,
        seat: Seat,
        action: ActionId,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Event>,
    ) -> Result<(), RuleError> {
        debug_assert!(self.node(s).seats().contains(seat), "apply for a seat that is not asked");
        let option = decode(s, action)?;
        s.empathy.seen.clear();
        let mut cx = Ctx { s, dice, log: out };
        flow::answer(&mut cx, &option)
    }
    fn act(
        &self,
        state: &mut State,
        seat: Seat,
        command: &actions::Command,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Event>,
    ) -> Result<(), RuleError> {
        let (u, verb) = actions::parse(state, command)?;
        if seat_of_unit(state, u) != seat {
            return Err(RuleError::refused(
                "K-TURN-2",
                format!("{} is not played from the {} seat", command.unit, SEATS.get(seat.index()).unwrap_or(&"?")),
            ));
        }
        let acting = match state.flow.last() {
            Some(Frame::Act { unit }) => *unit == u,
            Some(Frame::FinalAction { unit, acted: false, .. }) => *unit == u,
            _ => false,
        };
        if !acting {
            let msg = match flow::decision(state) {
                Some(d) if d.kind == "action" => {
                    format!("it is not {}'s turn to act (waiting for {})", command.unit, d.unit.unwrap_or_default())
                }
                Some(d) => format!("a {} decision is pending ({}); answer it with choose", d.kind, d.prompt),
                None => "the match is over".to_string(),
            };
            return Err(RuleError::refused("K-TURN-2", msg));
        }
        actions::check(state, u, &verb)?;
        state.empathy.seen.clear();
        let mut cx = Ctx { s: state, dice, log: out };
        let frame = cx.s.flow.pop().expect("checked above");
        if let (Frame::FinalAction { unit, stings, blow, .. }, actions::Verb::EndTurn(_)) = (&frame, &verb) {
            // Ending the turn during the final action passes it: the damage lands.
            cx.push(Frame::FinalAction { unit: *unit, acted: true, stings: stings.clone(), blow: blow.clone() });
            return flow::run(&mut cx);
        }
        match frame {
            Frame::FinalAction { unit, stings, blow, .. } => {
                cx.push(Frame::FinalAction { unit, acted: true, stings, blow })
            }
            other => cx.push(other),
        }
        actions::execute(&mut cx, u, verb)?;
        flow::run(&mut cx)
    }
    fn command_seat(&self, state: &State, command: &actions::Command) -> Option<Seat> {
        state.find_unit(&command.unit).map(|u| seat_of_unit(state, u))
    }

    fn command_for(&self, before: &State, after: &State, _seat: Seat, path: &[ActionId]) -> Option<actions::Command> {
        // Menu paths from the action menu that a command also says: the actions of the menu
        // (K-ACT), moves, shifts and crawls to a square (K-MOVE), a power at one creature.
        let Some(&Frame::Act { unit }) = before.flow.last() else { return None };
        if matches!(after.flow.last(), Some(Frame::Pending { unit: u, .. }) if *u == unit) {
            return None; // the menu still asks
        }
        let ids = path
            .iter()
            .map(|&a| if let Answer::Nth(_) = Answer::of(a) { None } else { decode(before, a).ok() })
            .collect::<Option<Vec<String>>>()?;
        let square = fray_core::grid::Pos::parse;
        let mut c = actions::Command { unit: before.unit(unit).id.to_string(), ..Default::default() };
        match ids.iter().map(String::as_str).collect::<Vec<_>>()[..] {
            ["end-turn"] => c.end_turn = true,
            ["stand"] => c.stand = true,
            ["stow"] => c.stow = true,
            ["retrieve"] => c.retrieve = true,
            ["drop-prone"] => c.drop_prone = true,
            ["land"] => c.land = true,
            ["move", to] => c.move_to = Some(actions::Route::To(square(to)?)),
            ["crawl", to] => c.crawl = Some(actions::Route::To(square(to)?)),
            ["shift", to] => c.shift = Some(square(to)?),
            [power, target]
                if before.find_unit(target).is_some()
                    && power.strip_prefix("power:").and_then(|p| before.powers.find(p)).is_some_and(|p| {
                        let d = before.powers.get(p);
                        // One creature named as the power's target; a hooked power's menu asks
                        // its own questions.
                        d.hook.is_none()
                            && !d.every_target
                            && d.max_targets.is_none_or(|n| n <= 1)
                            && d.zone.is_none()
                            && matches!(d.target, Targeting::Implement | Targeting::Melee | Targeting::Ranged { .. })
                    }) =>
            {
                c.power = Some(power["power:".len()..].to_string());
                c.target = Some(actions::Targets::One(target.to_string()));
            }
            _ => return None,
        }
        Some(c)
    }

    fn describe(&self, s: &State, action: ActionId) -> DecisionOption {
        fray_core::answer::describe_in(flow::decision(s), decode(s, action).ok(), action)
    }
    fn decision(&self, s: &State, seat: Seat) -> Option<fray_core::decision::Decision> {
        flow::decision(s).filter(|d| seat_index(&d.seat) == seat)
    }
    fn parse_choice(&self, s: &State, seat: Seat, id: &str) -> Result<ActionId, RuleError> {
        // Only ids are read: the question without its labels, as `legal` builds it (the
        // conformance harness reads back every option id; labelled, that was most of random play).
        let d = flow::decision_ids(s);
        let name = SEATS.get(seat.index()).copied().unwrap_or_default();
        fray_core::answer::choose_in(d, name, id, "the match is over", |id, i| encode(s, id, i))
    }
    fn prompt(&self, s: &State, seat: Seat) -> Option<Prompt> {
        let d = flow::decision(s)?;
        (seat_index(&d.seat) == seat).then_some(Prompt { unit: d.unit, kind: d.kind, text: d.prompt })
    }
    fn notes(&self, s: &State, seat: Seat) -> Vec<String> {
        match flow::decision(s) {
            Some(d) if seat_index(&d.seat) == seat => crate::engine::notes::notes(s),
            _ => Vec::new(),
        }
    }
    fn view(&self, s: &State, _viewer: Viewer) -> View {
        // Kazzam is played with every figure on the table: a Hidden creature cannot be targeted,
        // but its square is no secret (K-ST-Hidden), so every viewer sees the same.
        crate::engine::view::build(s)
    }
    fn outcome(&self, s: &State) -> Option<Outcome> {
        s.outcome.clone()
    }
    fn setup_for(&self, request: &SetupRequest) -> Result<MatchSetup, SetupErrors> {
        let teams = match request.teams.as_slice() {
            [] => None,
            [h, a] => Some([h.clone(), a.clone()]),
            _ => return Err(SetupErrors::one("give two team files: the home (red) team and the away (blue) team")),
        };
        Ok(MatchSetup { teams, options: request.options.clone(), map: request.map.clone() })
    }
    fn evaluate(&self, s: &State, seat: Seat) -> f64 {
        crate::engine::eval::evaluate(s, seat)
    }
    fn tally(&self, event: &Event, tally: &mut fray_core::tally::Tally) {
        crate::engine::eval::tally(event, tally)
    }
}

/// Kazzam as a program offers it (the [`System`] the registry holds).
pub struct KazzamSystem {
    game: std::sync::Arc<Kazzam>,
}

/// Kazzam with its compiled-in content, for the registry.
pub fn system() -> std::sync::Arc<dyn System> {
    system_with(Arc::new(Content::builtin()))
}

/// Kazzam playing `content`, for the registry.
pub fn system_with(content: Arc<Content>) -> std::sync::Arc<dyn System> {
    system_of(std::sync::Arc::new(Kazzam::with_content(content)))
}

/// This Kazzam, for the registry (a program that also hands `game` to bots and the simulator).
pub fn system_of(game: Arc<Kazzam>) -> std::sync::Arc<dyn System> {
    std::sync::Arc::new(KazzamSystem { game })
}

impl System for KazzamSystem {
    fn id(&self) -> &'static str {
        "kazzam"
    }
    fn title(&self) -> &'static str {
        "Kazzam: A Magical Sport"
    }
    fn seat_names(&self) -> Vec<String> {
        vec!["red".into(), "blue".into()]
    }
    fn table_options(&self) -> Vec<(&'static str, &'static str)> {
        // docs/rulings/kazzam.md explains each (engine/options.rs).
        vec![
            ("creeps=true|false", "Creep groups guard the arena's neutral orbs (K-ORB-2)"),
            ("target-score=10 (1-999)", "the points that end the match (K-END-1)"),
            ("match-end=finish-round|immediate", "play out the round once a side reaches the target, or stop at once"),
            ("round-limit=30 (0-999, 0 none)", "rounds after which an unfinished match ends anyway"),
            ("dominated=alternate|good-faith", "which version of Dominated is played (K-ST-Dominated)"),
            ("crit-doubles=damage-line|all-damage", "what a Critical Hit doubles (K-ROLL-1)"),
            ("low-cover-intervenes=false|true", "whether Low Cover between attacker and target counts (K-COV-10)"),
        ]
    }
    fn new_table(&self, request: &SetupRequest, seed: u64) -> Result<Box<dyn Table>, SetupErrors> {
        let setup = self.game.setup_for(request)?;
        Ok(Box::new(Session::start(self.game.clone(), setup, seed)?))
    }
    fn replay(&self, record: serde_json::Value) -> Result<Box<dyn Table>, String> {
        let record: MatchRecord<MatchSetup, actions::Command> =
            serde_json::from_value(record).map_err(|e| format!("not a saved Kazzam match: {e}"))?;
        Ok(Box::new(Session::replay(self.game.clone(), record)?))
    }
    fn replay_start(&self, record: serde_json::Value) -> Result<Box<dyn Table>, String> {
        let record: MatchRecord<MatchSetup, actions::Command> =
            serde_json::from_value(record).map_err(|e| format!("not a saved Kazzam match: {e}"))?;
        Ok(Box::new(Session::replay_start(self.game.clone(), &record)?))
    }
    fn run_scenario(&self, name: &str, text: &str) -> Result<Report, String> {
        Ok(fray_core::scenario::run(&self.game, crate::engine::scenario::load(&self.game.content, name, text)?))
    }
    fn scenario_table(&self, name: &str, text: &str) -> Result<Box<dyn Table>, String> {
        let session =
            fray_core::scenario::play_steps(&self.game, crate::engine::scenario::load(&self.game.content, name, text)?)
                .map_err(|e| format!("{name}: {e}"))?;
        Ok(Box::new(session))
    }
    fn rules_index(&self) -> Result<Vec<Entry>, String> {
        crate::content::reference::index(&self.game.content)
    }
    fn bench(&self, matches: u64, live_bytes: Option<&dyn Fn() -> u64>) -> fray_core::bench::BenchReport {
        let setup = MatchSetup::default();
        fray_core::bench::measure(&self.game, &fray_core::conformance::from_setup(&setup), matches, live_bytes)
    }
    fn builtin_team(&self, name: &str) -> Option<&'static str> {
        crate::content::teams::builtin(name)
    }
    fn builtin_map(&self, name: &str) -> Option<&'static str> {
        crate::content::maps::builtin(name)
    }
    fn maps(&self) -> Result<String, String> {
        let mut out = String::new();
        for (id, text) in crate::content::maps::BUILTIN {
            let m = crate::content::maps::load(&self.game.content, id, text).map_err(|e| e.join("\n"))?;
            out.push_str(&m.describe());
            out.push('\n');
        }
        Ok(out)
    }
    fn check_build(&self, file: &str, text: &str) -> BuildReport {
        if text.contains("[arena]") {
            return match crate::content::maps::load(&self.game.content, file, text) {
                Ok(m) => BuildReport::Legal(vec![m.describe()]),
                Err(e) => BuildReport::Illegal(e),
            };
        }
        if text.contains("[class]") {
            return match crate::content::classes::parse(file, text) {
                Ok(c) => BuildReport::Legal(vec![crate::content::reference::class_card(&c)]),
                Err(e) => BuildReport::Illegal(vec![e]),
            };
        }
        match crate::content::builder::check_file(&self.game.content, file, text) {
            Ok(cards) => BuildReport::Legal(cards),
            Err(errors) => BuildReport::Illegal(errors),
        }
    }
}
