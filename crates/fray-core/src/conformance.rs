//! The conformance harness every system passes (OpenSpiel's `RandomSimTest` is the model):
//! random-legal play from a setup to the end, checking at every step that
//!
//! - a node that asks seats something offers each of them at least one action, and seats it
//!   does not ask are offered nothing;
//! - every offered action is accepted by `apply` (offered ⇒ accepted);
//! - option ids are distinct within a decision and each reads back, through
//!   [`Game::parse_choice`], to the action it describes (menu ⇔ id);
//! - an option id that is not offered is refused;
//! - the system's own invariants hold after every action;
//! - the match ends within a bound, with an outcome and per-seat returns;
//!
//! and at the end that the [`MatchRecord`] replays through [`Session::replay`] to the same
//! journal and the same final view, and that the same seed plays the same match again.
//! Nothing panics: a panic inside the rules is caught and reported with the seed.
//!
//! A system that keeps secrets from some seats may also pass a [`Secrets`] check
//! ([`random_match_with_secrets`]): after every action, for each seat and for a spectator, the
//! harness builds that viewer's view and redacts the events the action journaled, and the check
//! says whether anything leaked; the referee's redaction must leave every event as it is.

use crate::dice::{AnyDice, SeededDice};
use crate::game::{ActionId, Game, Node, NullSink, Seat, Viewer};
use crate::session::{Entry, Input, MatchRecord, RecordingDice, Session};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

/// A system's own invariants, checked after every action: `Err` says what is broken.
pub type Invariants<'a, G> = &'a (dyn Fn(&G, &<G as Game>::State) -> Result<(), String> + Sync);

/// What a viewer may see, checked after every action by a system that keeps secrets: the
/// viewer, its view of the state, and the events the action journaled as that viewer may read
/// them. `Err` says what leaked.
pub type Secrets<'a, G> = &'a (
        dyn Fn(&G, &<G as Game>::State, Viewer, &crate::view::View, &[<G as Game>::Event]) -> Result<(), String> + Sync
    );

/// How a match starts: from the dice, writing its first events. Built from a [`Game::Setup`]
/// by [`from_setup`], or by hand for setups the record cannot hold (every power on every
/// athlete, say).
pub type Start<'a, G> = &'a (
        dyn Fn(
    &G,
    &mut dyn crate::dice::Dice,
    &mut Vec<<G as Game>::Event>,
) -> Result<<G as Game>::State, crate::game::SetupErrors>
            + Sync
    );

/// A start from the system's own setup.
pub fn from_setup<G: Game>(
    setup: &G::Setup,
) -> impl Fn(&G, &mut dyn crate::dice::Dice, &mut Vec<G::Event>) -> Result<G::State, crate::game::SetupErrors> + Sync + '_
{
    move |g, dice, out| g.start(setup, dice, out)
}

/// How a random match is played and checked.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Give up (and fail) after this many decisions.
    pub max_decisions: usize,
    /// Check every option id of one decision in this many (1: every decision).
    pub describe_every: usize,
    /// Replay the record at the end and compare.
    pub replay: bool,
    /// Check one menu path in this many that the system has a command for against that command
    /// (0: never).
    pub command_every: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { max_decisions: 100_000, describe_every: 7, replay: true, command_every: 1 }
    }
}

/// One random match that passed every check.
pub struct Played<G: Game> {
    /// The final state.
    pub state: G::State,
    /// The journal.
    pub journal: Vec<G::Event>,
    /// The record that replays it.
    pub record: MatchRecord<G::Setup, G::Command>,
    /// How many decisions were taken.
    pub decisions: usize,
}

/// Picks uniformly among `legal`, never backing out ([`ActionId::BACK`]) while something else
/// is offered: the random-legal bot's rule.
pub fn random_pick(rng: &mut ChaCha8Rng, legal: &[ActionId]) -> ActionId {
    let forward = legal.iter().filter(|&&a| a != ActionId::BACK).count();
    if forward == 0 {
        return legal[rng.gen_range(0..legal.len())];
    }
    let k = rng.gen_range(0..forward);
    *legal.iter().filter(|&&a| a != ActionId::BACK).nth(k).expect("k < forward")
}

/// Plays one random-legal match from `setup` with dice and bots seeded by `seed`, checking
/// everything the module lists. `Err` names the seed, the decision and what failed.
pub fn random_match<G: Game>(
    game: &Arc<G>,
    start: Start<'_, G>,
    seed: u64,
    settings: &Settings,
    invariants: Invariants<'_, G>,
) -> Result<Played<G>, String> {
    random_match_with_secrets(game, start, seed, settings, invariants, None)
}

/// [`random_match`], also checking after every action what each seat and a spectator may see
/// (see [`Secrets`]).
pub fn random_match_with_secrets<G: Game>(
    game: &Arc<G>,
    start: Start<'_, G>,
    seed: u64,
    settings: &Settings,
    invariants: Invariants<'_, G>,
    secrets: Option<Secrets<'_, G>>,
) -> Result<Played<G>, String> {
    match catch_unwind(AssertUnwindSafe(|| play(game, start, seed, settings, invariants, secrets))) {
        Ok(r) => r.map_err(|e| format!("seed {seed}: {e}")),
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(format!("seed {seed}: the rules panicked: {msg}"))
        }
    }
}

fn play<G: Game>(
    game: &Arc<G>,
    start: Start<'_, G>,
    seed: u64,
    settings: &Settings,
    invariants: Invariants<'_, G>,
    secrets: Option<Secrets<'_, G>>,
) -> Result<Played<G>, String> {
    let mut dice = RecordingDice::new(AnyDice::Seeded(SeededDice::new(seed)));
    let mut journal = Vec::new();
    let mut state = start(game, &mut dice, &mut journal).map_err(|e| format!("setup refused: {e}"))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut inputs = Vec::new();
    let mut legal = Vec::new();
    let mut ready: Vec<(Seat, usize)> = Vec::new();
    let nseats = game.seats(&state).len();
    // Menu paths under way, one starting at each of the acting seat's last few decisions: where
    // it started, whose it is, what it chose so far.
    let mut open: Vec<(G::State, Seat, Vec<ActionId>)> = Vec::new();
    let mut paths = 0usize;
    for n in 0..settings.max_decisions {
        let node = game.node(&state);
        let asked = match node {
            Node::Terminal => {
                let outcome = game.outcome(&state).ok_or("a terminal node without an outcome")?;
                let returns = game.returns(&state).ok_or("a terminal node without returns")?;
                if returns.len() != nseats {
                    return Err(format!("returns for {} seats, but there are {nseats}", returns.len()));
                }
                let _ = outcome;
                let record = MatchRecord {
                    system: game.id().to_string(),
                    fingerprint: game.fingerprint(),
                    setup: None,
                    seed: Some(seed),
                    inputs,
                    rolls: dice.rolls.clone(),
                };
                let played = Played { state, journal, record, decisions: n };
                if settings.replay {
                    check_replay(game, start, &played)?;
                }
                return Ok(played);
            }
            Node::Decide { seats, .. } => seats,
        };
        // Who may act, and what.
        ready.clear();
        legal.clear();
        for i in 0..nseats {
            let seat = Seat(i as u8);
            let start = legal.len();
            game.legal(&state, seat, &mut legal);
            let offered = legal.len() - start;
            if asked.contains(seat) {
                if offered == 0 {
                    let asking: Vec<String> = asked
                        .iter()
                        .filter_map(|s| {
                            game.prompt(&state, s).map(|p| format!("seat {}: {} ({})", s.0, p.text, p.kind))
                        })
                        .collect();
                    return Err(format!(
                        "decision {n}: seat {i} is asked but offered nothing; asked: {}",
                        asking.join("; ")
                    ));
                }
                ready.push((seat, start));
            } else if offered != 0 {
                return Err(format!("decision {n}: seat {i} is not asked but offered {offered} actions"));
            }
        }
        let k = rng.gen_range(0..ready.len());
        let (seat, start) = ready[k];
        let end = ready.get(k + 1).map_or(legal.len(), |&(_, s)| s);
        let offered = &legal[start..end];
        if n.is_multiple_of(settings.describe_every.max(1)) {
            check_ids(&**game, &state, seat, offered).map_err(|e| {
                let d = game.decision(&state, seat);
                let what = d.map(|d| {
                    let ids: Vec<String> = d.options.iter().map(|o| o.id.clone()).collect();
                    format!(" (a {} decision: {}; options {})", d.kind, d.prompt, ids.join(" | "))
                });
                format!("decision {n}: {e}{}", what.unwrap_or_default())
            })?;
        }
        let action = random_pick(&mut rng, offered);
        if settings.command_every > 0 {
            open.retain(|(_, by, chosen)| *by == seat && chosen.len() < MAX_PATH);
            open.push((state.clone(), seat, Vec::new()));
            for (_, _, chosen) in &mut open {
                chosen.push(action);
            }
        }
        let id = game.describe(&state, action).id;
        let before = journal.len();
        game.apply(&mut state, seat, action, &mut dice, &mut journal).map_err(|e| {
            let kind = game.prompt(&state, seat).map(|p| p.kind).unwrap_or_default();
            // The journal's last lines, to tell how the match got there.
            let tail: Vec<String> = journal[journal.len().saturating_sub(16)..].iter().map(|e| e.to_string()).collect();
            let tail = tail.join("\n    ");
            format!("decision {n}: the offered option {id:?} of a {kind:?} decision was refused: {e}\n  last log lines:\n    {tail}")
        })?;
        inputs.push(Entry { seat: seat.0, input: Input::Choose(id) });
        let mut i = 0;
        while i < open.len() {
            let (root, by, chosen) = &open[i];
            if let Some(command) = game.command_for(root, &state, *by, chosen) {
                if paths.is_multiple_of(settings.command_every.max(1)) {
                    check_command(&**game, root, *by, chosen, &command, seed ^ n as u64)
                        .map_err(|e| format!("decision {n}: {e}"))?;
                }
                paths += 1;
                open.remove(i);
            } else {
                i += 1;
            }
        }
        invariants(game, &state).map_err(|e| format!("after decision {n}: {e}"))?;
        if let Some(check) = secrets {
            check_secrets(&**game, &state, &journal[before..], nseats, check)
                .map_err(|e| format!("after decision {n}: {e}"))?;
        }
    }
    Err(format!("the match did not end within {} decisions", settings.max_decisions))
}

/// The longest menu path checked against a command.
const MAX_PATH: usize = 4;

/// Command ⇔ menu equivalence: from `root`, the command and the menu path it stands for, each
/// with the same dice, leave the same state (as the referee sees it) waiting on the same node.
fn check_command<G: Game>(
    game: &G,
    root: &G::State,
    seat: Seat,
    path: &[ActionId],
    command: &G::Command,
    seed: u64,
) -> Result<(), String> {
    let mut by_menu = root.clone();
    let mut dice = SeededDice::new(seed);
    let mut said = Vec::new();
    for &a in path {
        said.push(game.describe(&by_menu, a).id);
        game.apply(&mut by_menu, seat, a, &mut dice, &mut NullSink)
            .map_err(|e| format!("the menu path {} was refused on a copy: {e}", said.join(" ")))?;
    }
    let ids = || said.join(" ");
    let mut by_command = root.clone();
    let mut dice = SeededDice::new(seed);
    game.act(&mut by_command, seat, command, &mut dice, &mut NullSink)
        .map_err(|e| format!("the command {} for the menu path {} was refused: {e}", json(command), ids()))?;
    let (a, b) = (game.view(&by_menu, Viewer::Referee), game.view(&by_command, Viewer::Referee));
    if json(&a) != json(&b) || game.node(&by_menu) != game.node(&by_command) {
        return Err(format!("the menu path {} and the command {} lead to different states", ids(), json(command)));
    }
    Ok(())
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Each seat's and a spectator's view and reading of `events` pass `check`; the referee reads
/// every event unchanged.
fn check_secrets<G: Game>(
    game: &G,
    state: &G::State,
    events: &[G::Event],
    nseats: usize,
    check: Secrets<'_, G>,
) -> Result<(), String> {
    for e in events {
        if game.redact(state, e, Viewer::Referee).map(|r| r.to_string()) != Some(e.to_string()) {
            return Err(format!("the referee does not read {e:?} as it is"));
        }
    }
    let viewers = (0..nseats).map(|i| Viewer::Seat(Seat(i as u8))).chain([Viewer::Spectator]);
    for viewer in viewers {
        let view = game.view(state, viewer);
        let read: Vec<G::Event> = events.iter().filter_map(|e| game.redact(state, e, viewer)).collect();
        check(game, state, viewer, &view, &read).map_err(|e| format!("{viewer:?}: {e}"))?;
    }
    Ok(())
}

/// Every option id of a decision is distinct and reads back to its action; an id not offered
/// is refused.
fn check_ids<G: Game>(game: &G, state: &G::State, seat: Seat, offered: &[ActionId]) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for &a in offered {
        let o = game.describe(state, a);
        if !seen.insert(o.id.clone()) {
            return Err(format!("option id {:?} is offered twice", o.id));
        }
        match game.parse_choice(state, seat, &o.id) {
            Ok(b) if b == a => {}
            Ok(_) => return Err(format!("option id {:?} reads back to another action", o.id)),
            Err(e) => return Err(format!("option id {:?} is offered but refused by parse_choice: {e}", o.id)),
        }
    }
    if game.parse_choice(state, seat, "\u{1}not-an-option").is_ok() {
        return Err("an option id that is not offered was accepted".into());
    }
    Ok(())
}

/// The record replays, through the session's slow path (option ids, seats checked, a copy per
/// input), to the same journal, the same rolls and the same final view.
fn check_replay<G: Game>(game: &Arc<G>, start: Start<'_, G>, played: &Played<G>) -> Result<(), String> {
    let seed = played.record.seed.ok_or("replay: no seed")?;
    let mut dice = SeededDice::new(seed);
    let mut journal = Vec::new();
    let state = start(game, &mut dice, &mut journal).map_err(|e| format!("replay: setup refused: {e}"))?;
    let mut session = Session::from_state(game.clone(), state, AnyDice::Seeded(dice), journal);
    for (i, e) in played.record.inputs.iter().enumerate() {
        let r = match &e.input {
            Input::Choose(id) => session.choose(Seat(e.seat), id).map(|_| ()),
            Input::Act(c) => session.act(Seat(e.seat), c.clone()).map(|_| ()),
        };
        r.map_err(|err| format!("replay: input {} refused: {err}", i + 1))?;
    }
    if session.journal().len() != played.journal.len() {
        return Err(format!(
            "replay: {} journal entries, the match had {}",
            session.journal().len(),
            played.journal.len()
        ));
    }
    for (i, (a, b)) in session.journal().iter().zip(&played.journal).enumerate() {
        if a.to_string() != b.to_string() {
            return Err(format!("replay: journal entry {} differs: {a} / {b}", i + 1));
        }
    }
    let a = serde_json::to_value(game.view(session.state(), Viewer::Referee)).map_err(|e| e.to_string())?;
    let b = serde_json::to_value(game.view(&played.state, Viewer::Referee)).map_err(|e| e.to_string())?;
    if a != b {
        return Err("replay: the final view differs".into());
    }
    Ok(())
}

/// Plays `random_match` for every seed, spread over all cores; returns every failure (empty
/// when all passed) and each passing match's summary from `fold`.
pub fn random_matches<G: Game, T: Send>(
    game: &Arc<G>,
    start: Start<'_, G>,
    seeds: std::ops::Range<u64>,
    settings: &Settings,
    invariants: Invariants<'_, G>,
    fold: impl Fn(u64, &Played<G>) -> T + Sync,
) -> (Vec<T>, Vec<String>) {
    random_matches_with_secrets(game, start, seeds, settings, invariants, None, fold)
}

/// [`random_matches`], also checking what each seat and a spectator may see (see [`Secrets`]).
pub fn random_matches_with_secrets<G: Game, T: Send>(
    game: &Arc<G>,
    start: Start<'_, G>,
    seeds: std::ops::Range<u64>,
    settings: &Settings,
    invariants: Invariants<'_, G>,
    secrets: Option<Secrets<'_, G>>,
    fold: impl Fn(u64, &Played<G>) -> T + Sync,
) -> (Vec<T>, Vec<String>) {
    let results: Vec<Result<T, String>> = seeds
        .into_par_iter()
        .map(|seed| random_match_with_secrets(game, start, seed, settings, invariants, secrets).map(|p| fold(seed, &p)))
        .collect();
    let mut ok = Vec::new();
    let mut failures = Vec::new();
    for r in results {
        match r {
            Ok(t) => ok.push(t),
            Err(e) => failures.push(e),
        }
    }
    (ok, failures)
}

/// The same seed plays the same match: same inputs, same rolls, same journal.
pub fn same_seed_same_match<G: Game>(game: &Arc<G>, start: Start<'_, G>, seed: u64) -> Result<(), String> {
    let settings = Settings { replay: false, ..Settings::default() };
    let none: Invariants<'_, G> = &|_, _| Ok(());
    let a = random_match(game, start, seed, &settings, none)?;
    let b = random_match(game, start, seed, &settings, none)?;
    if serde_json::to_value(&a.record.inputs).ok() != serde_json::to_value(&b.record.inputs).ok()
        || a.record.rolls != b.record.rolls
    {
        return Err(format!("seed {seed}: two runs took different inputs or rolls"));
    }
    let ja: Vec<String> = a.journal.iter().map(|e| e.to_string()).collect();
    let jb: Vec<String> = b.journal.iter().map(|e| e.to_string()).collect();
    if ja != jb {
        return Err(format!("seed {seed}: two runs wrote different journals"));
    }
    Ok(())
}
