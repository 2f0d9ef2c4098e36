//! Draw Steel as a [`Game`]: its seats (the heroes and the Director), what an encounter starts
//! from ([`EncounterSetup`]), and option ids carried as [`ActionId`]s by the core's
//! [`fray_core::answer`] codec.

use crate::events::{Ctx, Event};
use crate::flow::{self, Frame};
use crate::options::Options;
use crate::state::{Side, State};
use crate::{actions, respite, setup};
use fray_core::answer::{Answer, Names};
use fray_core::decision::{Decision, DecisionOption};
use fray_core::dice::Dice;
use fray_core::engine;
use fray_core::game::{ActionId, Fingerprint, Game, Node, Prompt, Seat, SeatInfo, SeatSet, SetupErrors, Sink, Viewer};
use fray_core::lookup::Entry;
use fray_core::ruleset::{Outcome, RuleError};
use fray_core::scenario::Report;
use fray_core::session::{MatchRecord, Session};
use fray_core::table::{BuildReport, SetupRequest, System, Table};
use fray_core::view::View;
use serde::{Deserialize, Serialize};

/// The version of Draw Steel's rules code: bumped whenever the same inputs could play
/// differently, so saves from before are refused rather than replayed into another match.
/// 4: issue 19's third pass (the null's and tactician's triggers, a squad's shared maneuver
/// rolls, Defend against extra main actions, the conduit's prayer).
pub const RULES_VERSION: u32 = 4;

/// The seats, in index order (a side's index is its seat).
pub const SEATS: [&str; 2] = ["heroes", "director"];

/// The menu words that have a short action id: the first eleven, then the menu's [`actions::PLAIN`]
/// entries and its [`actions::AIMED`] entries, in their order.
pub const WORDS: &[&str] = &[
    "advance",
    "charge",
    "decline",
    "end-turn",
    "free-strike",
    "none",
    "shift",
    "stay",
    "stop",
    "keep",
    "strike",
    "stand-up",
    "catch-breath",
    "escape-grab",
    "hide",
    "defend",
    "go-prone",
    "jump-test",
    "search",
    "release",
    "token-surges",
    "token-stamina",
    "brutal-effectiveness",
    "malicious-strike",
    "end-effect",
    "solo-action",
    "grab",
    "knockback",
    "help-up",
    "heal",
    "aid-attack",
    "end-condition",
];

/// Where the [`actions::PLAIN`] entries start in [`WORDS`].
const PLAIN_WORD: usize = 11;
/// Where the [`actions::AIMED`] entries start in [`WORDS`].
const AIMED_WORD: usize = PLAIN_WORD + actions::PLAIN.len();

/// What an encounter starts from besides the seed: the table options as `KEY=VALUE`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterSetup {
    /// Table options as `KEY=VALUE` (docs/rulings/drawsteel.md names them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// The encounter file (or a built-in encounter's text, `--map NAME`); the sample encounter
    /// without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<fray_core::table::TeamText>,
}

/// Reads table options given as `KEY=VALUE` (`push=glossary`, `round-limit=10`); every bad one
/// is reported.
pub fn options_from_pairs(pairs: &[String]) -> Result<Options, SetupErrors> {
    let mut table = toml::Table::new();
    let mut errors = Vec::new();
    for p in pairs {
        let (k, v) = match fray_core::table::option_pair(p) {
            Ok(kv) => kv,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        table.insert(k.to_string(), fray_core::table::option_value(v));
    }
    if !errors.is_empty() {
        return Err(SetupErrors(errors));
    }
    let options: Options = toml::Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| SetupErrors::one(format!("--option: {e}")))?;
    // Issue 14: the numbers within their ranges (docs/scenarios/drawsteel.md, "Limits").
    let mut errors = Vec::new();
    errors.extend(fray_core::scenario::out_of_range("--option round-limit", options.round_limit as i64, 0..=999));
    if let Some(t) = options.hero_tokens {
        errors.extend(fray_core::scenario::out_of_range("--option hero-tokens", t as i64, 0..=99));
    }
    if errors.is_empty() { Ok(options) } else { Err(SetupErrors(errors)) }
}

/// The Draw Steel rules, holding what they were built from.
#[derive(Clone, Debug)]
pub struct DrawSteel {
    fingerprint: Fingerprint,
    /// The built-in stat blocks, read once (content the game holds).
    blocks: Result<std::sync::Arc<Vec<crate::model::StatBlock>>, String>,
}

impl DrawSteel {
    /// Draw Steel with its built-in stat blocks.
    pub fn builtin() -> Self {
        let fingerprint = Fingerprint::of(format!("drawsteel rules {RULES_VERSION}"), setup::BUILTIN.iter().copied());
        let blocks = setup::builtin_blocks().map(std::sync::Arc::new);
        DrawSteel { fingerprint, blocks }
    }
}

struct DsNames<'a>(&'a State);

impl Names for DsNames<'_> {
    fn unit_index(&self, id: &str) -> Option<u16> {
        self.0.find(id).map(|c| c as u16)
    }
    fn unit_id(&self, i: u16) -> Option<&str> {
        self.0.creatures.get(i as usize).map(|c| &*c.id)
    }
}

fn seat_index(name: &str) -> Seat {
    Seat(SEATS.iter().position(|s| *s == name).unwrap_or(0) as u8)
}

fn side_seat(side: Side) -> Seat {
    Seat(side.index() as u8)
}

/// The creature whose turn's menu (or extra action, `true`) is asked now.
fn menu_actor(s: &State) -> Option<(crate::state::Cx, bool)> {
    match *s.flow.last()? {
        Frame::Act { c } => Some((c, false)),
        Frame::Extra { c } => Some((c, true)),
        _ => None,
    }
}

/// The place in `c`'s list of its first ability with id `id`: a menu's `ability:ID` is carried
/// as that place ([`Answer::Power`]), so answering needs no menu.
fn ability_slot(s: &State, c: crate::state::Cx, id: &str) -> Option<u16> {
    s.c(c).abilities.iter().position(|a| a.id == id).map(|k| k as u16)
}

/// The action id of option `id`, the `index`-th of the pending decision.
pub fn encode(s: &State, id: &str, index: usize) -> ActionId {
    if let Some(ability) = id.strip_prefix("ability:")
        && let Some((c, _)) = menu_actor(s)
        && let Some(k) = ability_slot(s, c, ability)
    {
        return Answer::Power(k).id();
    }
    Answer::encode(&DsNames(s), WORDS, id, index).id()
}

/// The option id an action id stands for. An action carried by its place in a turn's menu is
/// read from the menu's entries, with no words built for the others.
pub fn decode(s: &State, a: ActionId) -> Result<String, RuleError> {
    let not_now = || RuleError::malformed("that action id is not an option now");
    match Answer::of(a) {
        // A menu entry named by itself: only its own test is asked (no other entry is worked out).
        Answer::Power(k) => {
            let (c, extra) = menu_actor(s).ok_or_else(not_now)?;
            let ability = s.c(c).abilities.get(k as usize).ok_or_else(not_now)?;
            // Carried by its own place: no earlier ability has its id (`ability_slot`).
            if s.c(c).abilities[..k as usize].iter().any(|b| b.id == ability.id)
                || !actions::menu_offers(s, c, extra, actions::MenuItem::Ability(k))
            {
                return Err(not_now());
            }
            return Ok(format!("ability:{}", ability.id));
        }
        Answer::Word(w) if (w as usize) >= PLAIN_WORD => {
            let word = *WORDS.get(w as usize).ok_or_else(not_now)?;
            let w = w as usize;
            let offered = match menu_actor(s) {
                Some((c, extra)) => {
                    let item = if w < AIMED_WORD {
                        actions::MenuItem::Plain((w - PLAIN_WORD) as u8)
                    } else {
                        actions::MenuItem::Aimed((w - AIMED_WORD) as u8)
                    };
                    actions::menu_offers(s, c, extra, item)
                }
                None => flow::decision(s).is_some_and(|d| d.allows(word)),
            };
            return if offered { Ok(word.to_string()) } else { Err(not_now()) };
        }
        // A square's id, `x,y`, written with itoa rather than the formatting machinery.
        Answer::Square(x, y) => {
            let mut digits = itoa::Buffer::new();
            let mut id = String::with_capacity(12);
            id.push_str(digits.format(x));
            id.push(',');
            id.push_str(digits.format(y));
            debug_assert_eq!(Some(&id), Answer::of(a).decode(&DsNames(s), WORDS, |_| None).as_ref());
            return Ok(id);
        }
        _ => {}
    }
    Answer::of(a)
        .decode(&DsNames(s), WORDS, |i| match s.flow.last() {
            Some(&Frame::Act { c }) => {
                actions::menu_nth(s, c, false, i).map(|m| actions::item_id(s, c, m).into_owned())
            }
            Some(&Frame::Extra { c }) => {
                actions::menu_nth(s, c, true, i).map(|m| actions::item_id(s, c, m).into_owned())
            }
            _ => flow::decision(s).and_then(|d| d.options.into_iter().nth(i)).map(|o| o.id),
        })
        .ok_or_else(not_now)
}

/// The action id of a square offered `index`-th: as [`encode`] gives for its `x,y` id.
fn square_action(q: fray_core::grid::Pos, index: usize) -> ActionId {
    const COORD: i32 = 1 << 14;
    if (0..COORD).contains(&q.x) && (0..COORD).contains(&q.y) {
        Answer::Square(q.x, q.y).id()
    } else {
        Answer::Nth(index as u32).id()
    }
}

/// The action id of a menu entry offered `index`-th: as [`encode`] gives for its option id,
/// with no words built.
fn menu_action(s: &State, c: crate::state::Cx, item: actions::MenuItem, index: usize) -> ActionId {
    match item {
        actions::MenuItem::Ability(i) => {
            // `ability_slot`: the first place with its id, at most its own.
            let abilities = &s.c(c).abilities;
            let id = &abilities[i as usize].id;
            let k = abilities[..i as usize].iter().position(|b| b.id == *id).map_or(i, |k| k as u16);
            debug_assert_eq!(Some(k), ability_slot(s, c, id));
            Answer::Power(k).id()
        }
        actions::MenuItem::Plain(i) => Answer::Word((PLAIN_WORD + i as usize) as u16).id(),
        actions::MenuItem::Aimed(i) => Answer::Word((AIMED_WORD + i as usize) as u16).id(),
        other => {
            // The other entries' ids are words of [`WORDS`] (as `encode` finds them).
            let w = match other {
                actions::MenuItem::Advance => 0,
                actions::MenuItem::Charge => 1,
                actions::MenuItem::Decline => 2,
                actions::MenuItem::EndTurn => 3,
                actions::MenuItem::FreeStrike => 4,
                _ => 6, // MenuItem::Shift
            };
            let a = Answer::Word(w).id();
            debug_assert_eq!(WORDS[w as usize], actions::item_id(s, c, other));
            debug_assert_eq!(a, encode(s, &actions::item_id(s, c, other), index));
            a
        }
    }
}

/// The actions `legal` offers, written with no option ids or labels for the common questions
/// (a turn's menu, a pending target or square, who acts next, an opportunity attack); `None`
/// for the others, read from their decision.
fn legal_fast(s: &State, out: &mut Vec<ActionId>) -> Option<()> {
    // Lines of effect asked more than once (and the map they are judged on) are looked up once.
    let _sights = crate::abilities::remember_sights(s);
    match s.flow.last()? {
        &Frame::Act { c } | &Frame::Extra { c } => {
            let extra = matches!(s.flow.last(), Some(Frame::Extra { .. }));
            let mut i = 0;
            actions::menu_items(s, c, extra, |item| {
                out.push(menu_action(s, c, item, i));
                i += 1;
                true
            });
        }
        Frame::Pending { c, p } => {
            let n = match actions::pending_choices(s, *c, p) {
                actions::Choices::Units(ts) => {
                    out.extend(ts.iter().enumerate().map(|(i, &t)| encode(s, &s.c(t).id, i)));
                    ts.len()
                }
                actions::Choices::Squares(qs) => {
                    out.extend(qs.iter().enumerate().map(|(i, &q)| square_action(q, i)));
                    qs.len()
                }
            };
            out.push(encode(s, "cancel", n));
        }
        Frame::Pick { side } => {
            out.extend(crate::turn::ready(s, *side).into_iter().enumerate().map(|(i, c)| encode(s, &s.c(c).id, i)));
        }
        Frame::Opportunity { .. } => out.extend([encode(s, "strike", 0), encode(s, "decline", 1)]),
        // An ability's question (tier, potency, surges: [`crate::abilities::question`]).
        Frame::Ability(a) if a.asking_tier || a.asking_potency || a.asking_surges => {
            let start = out.len();
            crate::abilities::question_ids(s, a, |id, i| out.push(encode(s, id, i)));
            debug_assert_eq!(
                out[start..],
                flow::decision(s).map_or(vec![], |d| d
                    .options
                    .iter()
                    .enumerate()
                    .map(|(i, o)| encode(s, &o.id, i))
                    .collect::<Vec<_>>())[..]
            );
        }
        // A forced move's question ([`crate::forced::question`]): its squares, the vertical
        // steps, then the word that ends it.
        Frame::Forced(f) => {
            let squares = crate::forced::next_squares(s, f);
            out.extend(squares.iter().enumerate().map(|(i, &q)| square_action(q, i)));
            let mut n = squares.len();
            for v in crate::forced::vertical_steps(f) {
                out.push(encode(s, v, n));
                n += 1;
            }
            out.push(encode(s, "stop", n));
        }
        // Square questions ([`crate::forced::wall_options`], [`crate::forced::teleport_options`]):
        // their squares, then the word that ends them.
        Frame::Wall { c, within, placed, .. } => {
            let squares = crate::forced::wall_squares(s, *c, *within, placed).unwrap_or_default();
            out.extend(squares.iter().enumerate().map(|(i, &q)| square_action(q, i)));
            out.push(encode(s, "stop", squares.len()));
        }
        Frame::Teleport { target, range, .. } => {
            let squares = crate::forced::teleport_squares(s, *target, *range).unwrap_or_default();
            out.extend(squares.iter().enumerate().map(|(i, &q)| square_action(q, i)));
            out.push(encode(s, "stay", squares.len()));
        }
        _ => return None,
    }
    Some(())
}

impl Game for DrawSteel {
    type State = State;
    type Setup = EncounterSetup;
    type Command = actions::Command;
    type Event = Event;

    fn id(&self) -> &'static str {
        "drawsteel"
    }
    fn fingerprint(&self) -> Fingerprint {
        self.fingerprint.clone()
    }
    fn seats(&self, _state: &State) -> Vec<SeatInfo> {
        SEATS.iter().map(|s| SeatInfo::new(*s)).collect()
    }
    fn start(
        &self,
        setup: &EncounterSetup,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Event>,
    ) -> Result<State, SetupErrors> {
        let options = options_from_pairs(&setup.options)?;
        let blocks = self.blocks.clone()?;
        let mut state = match &setup.map {
            None => {
                let (map, units) = setup::default_encounter();
                setup::build(&map, &blocks, &units, options)?
            }
            Some(file) => {
                let e = setup::read_encounter(&file.path, &file.text).map_err(SetupErrors)?;
                let mut all: Vec<_> =
                    blocks.iter().filter(|b| e.blocks.iter().all(|x| x.id != b.id)).cloned().collect();
                all.extend(e.blocks);
                setup::build(&e.map, &all, &e.units, options)
                    .map_err(|es| SetupErrors(es.into_iter().map(|x| format!("{}: {x}", file.path)).collect()))?
            }
        };
        for e in crate::start(&mut state, dice, None)? {
            out.push(e);
        }
        Ok(state)
    }

    fn node(&self, s: &State) -> Node {
        if s.outcome.is_some() {
            return Node::Terminal;
        }
        let side = match s.flow.last() {
            None => return Node::Terminal,
            Some(Frame::Pick { side }) => *side,
            Some(Frame::Act { c } | Frame::Extra { c } | Frame::Pending { c, .. } | Frame::Wall { c, .. }) => {
                s.c(*c).side
            }
            Some(Frame::Sweep { c, .. }) => s.c(*c).side,
            Some(Frame::Teleport { by, .. }) => s.c(*by).side,
            Some(Frame::ForcedOrder { mover, .. }) => s.c(*mover).side,
            Some(Frame::Opportunity { by, .. }) => s.c(*by).side,
            Some(Frame::Forced(f)) => s.c(f.mover).side,
            Some(Frame::Ability(a)) if a.asking_tier || a.asking_potency || a.asking_surges => s.c(a.user).side,
            Some(_) => match flow::decision(s) {
                Some(d) => return Node::Decide { seats: SeatSet::one(seat_index(&d.seat)), passable: false },
                None => return Node::Terminal,
            },
        };
        Node::Decide { seats: SeatSet::one(side_seat(side)), passable: false }
    }
    fn legal(&self, s: &State, seat: Seat, out: &mut Vec<ActionId>) {
        if s.outcome.is_none() && matches!(self.node(s), Node::Decide { seats, .. } if !seats.contains(seat)) {
            return;
        }
        if s.outcome.is_none() && legal_fast(s, out).is_some() {
            return;
        }
        let Some(d) = flow::decision(s) else { return };
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
        engine::answer(&mut Ctx::new(s, dice, out), &option)
    }
    fn act(
        &self,
        state: &mut State,
        seat: Seat,
        command: &actions::Command,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Event>,
    ) -> Result<(), RuleError> {
        let (c, verb) = actions::parse(state, command)?;
        if side_seat(state.c(c).side) != seat {
            return Err(RuleError::refused(
                "DS-TURN-1",
                format!("{} is not played from the {} seat", command.unit, SEATS.get(seat.index()).unwrap_or(&"?")),
            ));
        }
        if let actions::Verb::Rest(how) = verb {
            // DS-REST-1: between combats, not a turn's action.
            respite::check(state, c)?;
            respite::take(&mut Ctx::new(state, dice, out), c, how);
            return Ok(());
        }
        let extra = match state.flow.last() {
            Some(Frame::Act { c: x }) if *x == c => false,
            Some(Frame::Extra { c: x }) if *x == c => true,
            _ => {
                let msg = match flow::decision(state) {
                    Some(d) => {
                        format!("{} cannot act now: a {} decision is pending ({})", command.unit, d.kind, d.prompt)
                    }
                    None => "the combat is over".into(),
                };
                return Err(RuleError::refused("DS-TURN-1", msg));
            }
        };
        actions::check_verb(state, c, &verb, extra)?;
        let mut cx = Ctx::new(state, dice, out);
        let top = cx.pop().expect("checked");
        if !extra {
            cx.push(top);
        }
        actions::execute(&mut cx, c, verb, extra)?;
        engine::run(&mut cx)
    }
    fn command_seat(&self, state: &State, command: &actions::Command) -> Option<Seat> {
        state.find(&command.unit).map(|c| side_seat(state.c(c).side))
    }

    fn command_for(&self, before: &State, after: &State, _seat: Seat, path: &[ActionId]) -> Option<actions::Command> {
        // Menu paths from a turn's menu (or a critical hit's extra action, DS-CRIT-1) that a
        // command also says (DS-TURN-1, DS-TURN-2): moves and shifts to a square, abilities at
        // one creature, at a square or at whoever their area catches, free strikes, charges,
        // maneuvers with or without a target, hero tokens, ending the turn.
        let c = match before.flow.last()? {
            Frame::Act { c } | Frame::Extra { c } => *c,
            _ => return None,
        };
        if matches!(after.flow.last(), Some(Frame::Pending { c: x, .. }) if *x == c) {
            return None; // the menu still asks
        }
        let (&first, rest) = path.split_first()?;
        let first = decode(before, first).ok()?;
        // After the menu word, a pending choice's answers are creatures and squares.
        let unit = |i: usize| match Answer::of(*rest.get(i)?) {
            Answer::Unit(u) => before.creatures.get(u as usize).map(|x| x.id.to_string()),
            _ => None,
        };
        let square = |i: usize| match Answer::of(*rest.get(i)?) {
            Answer::Square(x, y) => Some(fray_core::grid::Pos::new(x, y)),
            _ => None,
        };
        let mut cmd = actions::Command { unit: before.c(c).id.to_string(), ..Default::default() };
        match (first.as_str(), rest.len()) {
            ("end-turn", 0) => cmd.end_turn = true,
            ("stand-up", 0) => cmd.stand_up = true,
            ("catch-breath", 0) => cmd.catch_breath = true,
            ("escape-grab", 0) => cmd.escape_grab = true,
            ("hide", 0) => cmd.hide = true,
            ("defend", 0) => cmd.defend = true,
            ("go-prone", 0) => cmd.go_prone = true,
            ("jump-test", 0) => cmd.jump_test = true,
            ("search", 0) => cmd.search = true,
            ("release", 0) => cmd.release = true,
            ("token-surges", 0) => cmd.token = Some("surges".into()),
            ("token-stamina", 0) => cmd.token = Some("stamina".into()),
            ("brutal-effectiveness", 0) => cmd.malice = Some("brutal-effectiveness".into()),
            ("end-effect", 0) => cmd.end_effect = true,
            ("solo-action", 0) => cmd.malice = Some("solo-action".into()),
            ("advance", 1) => cmd.move_to = Some(actions::Route::To(square(0)?)),
            ("shift", 1) => cmd.shift = Some(square(0)?),
            ("free-strike", 1) => cmd.free_strike = Some(unit(0)?),
            ("charge", 2) => (cmd.charge, cmd.square) = (Some(unit(0)?), Some(square(1)?)),
            ("grab", 1) => cmd.grab = Some(unit(0)?),
            ("knockback", 1) => cmd.knockback = Some(unit(0)?),
            ("help-up", 1) => cmd.help_up = Some(unit(0)?),
            ("heal", 1) => cmd.heal = Some(unit(0)?),
            ("aid-attack", 1) => cmd.aid_attack = Some(unit(0)?),
            ("end-condition", 1) => cmd.end_condition = Some(unit(0)?),
            (word, n) if n <= 1 && word.starts_with("ability:") => {
                cmd.ability = Some(word["ability:".len()..].to_string());
                if n == 1 {
                    match unit(0) {
                        Some(t) => cmd.target = Some(actions::Targets::One(t)),
                        None => cmd.square = Some(square(0)?),
                    }
                }
            }
            _ => return None,
        }
        Some(cmd)
    }

    fn describe(&self, s: &State, action: ActionId) -> DecisionOption {
        fray_core::answer::describe_in(flow::decision(s), decode(s, action).ok(), action)
    }
    fn decision(&self, s: &State, seat: Seat) -> Option<Decision> {
        flow::decision(s).filter(|d| seat_index(&d.seat) == seat)
    }
    fn notes(&self, s: &State, seat: Seat) -> Vec<String> {
        match flow::decision(s) {
            Some(d) if seat_index(&d.seat) == seat => crate::actions::notes(s),
            _ => Vec::new(),
        }
    }
    fn parse_choice(&self, s: &State, seat: Seat, id: &str) -> Result<ActionId, RuleError> {
        let d = flow::decision(s);
        if d.as_ref().is_some_and(|d| !d.allows(id)) {
            // DS-FM-1, DS-FM-2, DS-GAP-8: a forced-movement square refused says which rule.
            if let Some(Frame::Forced(f)) = s.flow.last()
                && let Some(e) = crate::forced::refusal(s, f, id)
            {
                return Err(e);
            }
        }
        let name = SEATS.get(seat.index()).copied().unwrap_or_default();
        fray_core::answer::choose_in(d, name, id, "the combat is over", |id, i| encode(s, id, i))
    }
    fn prompt(&self, s: &State, seat: Seat) -> Option<Prompt> {
        let d = flow::decision(s)?;
        (seat_index(&d.seat) == seat).then_some(Prompt { unit: d.unit, kind: d.kind, text: d.prompt })
    }
    fn view(&self, s: &State, viewer: Viewer) -> View {
        crate::seats::view(s, viewer)
    }
    fn redact(&self, s: &State, event: &Event, viewer: Viewer) -> Option<Event> {
        crate::seats::redact(s, event, viewer)
    }
    fn outcome(&self, s: &State) -> Option<Outcome> {
        s.outcome.clone()
    }
    fn setup_for(&self, request: &SetupRequest) -> Result<EncounterSetup, SetupErrors> {
        if !request.teams.is_empty() {
            return Err(SetupErrors::one(
                "Draw Steel takes both sides from its encounter (--map NAME|FILE, docs/encounters.md): team files are not read",
            ));
        }
        Ok(EncounterSetup { options: request.options.clone(), map: request.map.clone() })
    }
    fn evaluate(&self, s: &State, seat: Seat) -> f64 {
        crate::eval::evaluate(s, seat)
    }
    fn tally(&self, event: &Event, tally: &mut fray_core::tally::Tally) {
        crate::eval::tally(event, tally)
    }
}

/// Draw Steel as a program offers it (the [`System`] the registry holds).
pub struct DrawSteelSystem {
    game: std::sync::Arc<DrawSteel>,
}

/// Draw Steel for the registry.
pub fn system() -> std::sync::Arc<dyn System> {
    system_of(std::sync::Arc::new(DrawSteel::builtin()))
}

/// This Draw Steel, for the registry (a program that also hands `game` to bots and the
/// simulator).
pub fn system_of(game: std::sync::Arc<DrawSteel>) -> std::sync::Arc<dyn System> {
    std::sync::Arc::new(DrawSteelSystem { game })
}

impl System for DrawSteelSystem {
    fn id(&self) -> &'static str {
        "drawsteel"
    }
    fn title(&self) -> &'static str {
        "Draw Steel"
    }
    fn seat_names(&self) -> Vec<String> {
        SEATS.iter().map(|s| s.to_string()).collect()
    }
    fn table_options(&self) -> Vec<(&'static str, &'static str)> {
        // docs/rulings/drawsteel.md explains each (options.rs); `glossary` plays the glossary's text.
        vec![
            ("bleeding=published|glossary", "when Bleeding hurts (DS-DELTA-1)"),
            ("critical=published|glossary", "what a critical hit needs and gives (DS-DELTA-2)"),
            ("initiative=published|glossary", "who goes first on a 6 or more (DS-DELTA-3)"),
            ("push=published|glossary", "whether a push may bend away or must go straight (DS-DELTA-10)"),
            ("collisions=published|glossary", "whether a creature may slam its target into itself (DS-DELTA-9)"),
            (
                "hero-tokens-on-tests=published|glossary",
                "a hero token rerolls a test, or turns it into a success (DS-DELTA-6)",
            ),
            ("grabbed=published|glossary", "whether a grabbed creature can be force-moved (DS-DELTA-7)"),
            ("hidden=published|glossary", "from whom the Hide maneuver hides (DS-DELTA-8)"),
            ("jumping=published|glossary", "how far a jump reaches (DS-DELTA-11)"),
            ("offer-lower-tier=true|false", "offer each power roll at a lower tier (DS-GAP-1)"),
            ("round-limit=20 (0-999, 0 none)", "rounds after which a combat ends anyway"),
            ("hero-tokens=N (0-99)", "hero tokens the heroes start with (default one per hero)"),
            (
                "knock-out=true|false",
                "heroes knock out the Director's creatures at 0 Stamina instead of killing them (DS-GAP-20)",
            ),
            (
                "knock-out-heroes=true|false",
                "the Director's creatures knock out a hero they would kill instead (DS-GAP-20)",
            ),
        ]
    }
    fn new_table(&self, request: &SetupRequest, seed: u64) -> Result<Box<dyn Table>, SetupErrors> {
        let setup = self.game.setup_for(request)?;
        Ok(Box::new(Session::start(self.game.clone(), setup, seed)?))
    }
    fn replay(&self, record: serde_json::Value) -> Result<Box<dyn Table>, String> {
        let record: MatchRecord<EncounterSetup, actions::Command> =
            serde_json::from_value(record).map_err(|e| format!("not a saved Draw Steel encounter: {e}"))?;
        Ok(Box::new(Session::replay(self.game.clone(), record)?))
    }
    fn replay_start(&self, record: serde_json::Value) -> Result<Box<dyn Table>, String> {
        let record: MatchRecord<EncounterSetup, actions::Command> =
            serde_json::from_value(record).map_err(|e| format!("not a saved Draw Steel encounter: {e}"))?;
        Ok(Box::new(Session::replay_start(self.game.clone(), &record)?))
    }
    fn run_scenario(&self, name: &str, text: &str) -> Result<Report, String> {
        Ok(fray_core::scenario::run(&self.game, crate::scenario::load(name, text)?))
    }
    fn scenario_table(&self, name: &str, text: &str) -> Result<Box<dyn Table>, String> {
        let session = fray_core::scenario::play_steps(&self.game, crate::scenario::load(name, text)?)
            .map_err(|e| format!("{name}: {e}"))?;
        Ok(Box::new(session))
    }
    fn rules_index(&self) -> Result<Vec<Entry>, String> {
        setup::rules_index()
    }
    fn builtin_map(&self, name: &str) -> Option<&'static str> {
        setup::ENCOUNTERS.iter().find(|(id, _)| *id == name).map(|(_, text)| *text)
    }
    fn maps(&self) -> Result<String, String> {
        let mut out = String::new();
        for (i, (id, text)) in setup::ENCOUNTERS.iter().enumerate() {
            let e = setup::read_encounter(id, text).map_err(|e| e.join("\n"))?;
            let default = if i == 0 { " (the default)" } else { "" };
            out.push_str(&format!("{id}{default}: {}\n  {}\n", e.name, e.text));
            for side in SEATS {
                let names: Vec<String> = e
                    .units
                    .iter()
                    .filter(|(u, _)| u.team == side)
                    .map(|(u, _)| format!("{} ({})", u.id, u.creature))
                    .collect();
                out.push_str(&format!("  {side}: {}\n", names.join(", ")));
            }
            out.push('\n');
        }
        Ok(out)
    }
    fn bench(&self, matches: u64, live_bytes: Option<&dyn Fn() -> u64>) -> fray_core::bench::BenchReport {
        let setup = EncounterSetup::default();
        fray_core::bench::measure(&self.game, &fray_core::conformance::from_setup(&setup), matches, live_bytes)
    }
    fn check_build(&self, file: &str, text: &str) -> BuildReport {
        match setup::check_file(file, text) {
            Ok(cards) => BuildReport::Legal(cards),
            Err(errors) => BuildReport::Illegal(errors),
        }
    }
}
