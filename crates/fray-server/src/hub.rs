//! The matches a server holds. Everything here is synchronous and may take a while (a bot's
//! search, a replay): the HTTP layer calls it on blocking threads, never on the async runtime.
//!
//! A match changes only under its own lock, one input at a time: the engine takes the input
//! (or refuses it, changing nothing), the store commits it, and only then is the new
//! [`Snapshot`] published to the match's connections. A snapshot holds one message per viewer
//! (each seat and the spectators), built from [`Table::view`] for that viewer alone: the full
//! state never leaves this module.

use crate::Systems;
use crate::store::{SeatPlayer, Store, StoredMatch, StoredSeat};
use fray_ai::{BotSpec, TableBot};
use fray_core::game::{Node, Seat, Viewer};
use fray_core::table::{SetupRequest, System, Table};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use tokio::sync::broadcast;

/// A refusal, with the HTTP status it answers with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// 400 malformed, 404 unknown, 403 not yours, 409 not now, 422 the rules say no, 500 ours.
    pub status: u16,
    /// What is wrong, for a person.
    pub message: String,
}

impl Refusal {
    pub(crate) fn new(status: u16, message: impl Into<String>) -> Self {
        Refusal { status, message: message.into() }
    }
}

/// Who a token lets in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A person at this seat.
    Seat(Seat),
    /// A spectator.
    Spectator,
}

impl Role {
    fn viewer(self) -> Viewer {
        match self {
            Role::Seat(s) => Viewer::Seat(s),
            Role::Spectator => Viewer::Spectator,
        }
    }
}

/// What every connection of a match is sent after a change: one message per viewer.
pub struct Snapshot {
    /// How many inputs the match has taken.
    pub version: u64,
    /// How many snapshots the match had before this one since the server started: it only
    /// grows (the version goes back when a choice is undone).
    pub revision: u64,
    /// The message for each seat (by index; empty for a bot's), then the spectators'.
    pub messages: Vec<Arc<str>>,
}

impl Snapshot {
    /// The message for `role`.
    pub fn message(&self, role: Role) -> Arc<str> {
        let i = match role {
            Role::Seat(s) => s.index(),
            Role::Spectator => self.messages.len() - 1,
        };
        self.messages[i].clone()
    }
}

struct Inner {
    table: Box<dyn Table>,
    bots: Vec<Option<Box<dyn TableBot>>>,
    stored: StoredMatch,
    /// The person seat that may undo the last input: it gave it, and no die was rolled by it.
    undoable: Option<Seat>,
}

/// One match the server holds.
pub struct Match {
    /// Its id.
    pub id: String,
    system: Arc<dyn System>,
    seats: Vec<StoredSeat>,
    inner: Mutex<Inner>,
    latest: RwLock<Arc<Snapshot>>,
    updates: broadcast::Sender<Arc<Snapshot>>,
    bots_running: AtomicBool,
    revision: AtomicU64,
    /// Open WebSockets: one count a seat, then the spectators'.
    sockets: Vec<Arc<AtomicUsize>>,
}

/// One open WebSocket of a match, counted until it is dropped.
pub struct SocketSlot(Arc<AtomicUsize>);

impl Drop for SocketSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Match {
    /// Counts one more open WebSocket for `role`, unless `cap` are open for it already. Each
    /// seat and the spectators together have their own count, so watchers never crowd out a
    /// player.
    pub fn open_socket(&self, role: Role, cap: usize) -> Option<SocketSlot> {
        let i = match role {
            Role::Seat(s) => s.index(),
            Role::Spectator => self.sockets.len() - 1,
        };
        let count = self.sockets.get(i)?;
        count.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < cap).then_some(n + 1)).ok()?;
        Some(SocketSlot(count.clone()))
    }
    /// The latest snapshot.
    pub fn latest(&self) -> Arc<Snapshot> {
        self.latest.read().unwrap_or_else(|p| p.into_inner()).clone()
    }
    /// Snapshots as they are published.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Snapshot>> {
        self.updates.subscribe()
    }
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
    fn is_bot(&self, seat: Seat) -> bool {
        self.seats.get(seat.index()).is_some_and(|s| matches!(s.player, SeatPlayer::Bot { .. }))
    }
    fn seats_json(&self) -> Value {
        Value::Array(
            self.seats
                .iter()
                .map(|s| match &s.player {
                    SeatPlayer::Person { .. } => json!({"name": s.name, "kind": "person"}),
                    SeatPlayer::Bot { bot } => json!({"name": s.name, "kind": "bot", "bot": bot}),
                })
                .collect(),
        )
    }
    /// The message `role` gets for the table as it stands, with `log` the lines since the
    /// last change and `rolls` the dice rolled in it ([`rolls_of`]).
    fn message(
        &self,
        table: &dyn Table,
        at: (u64, u64),
        role: Role,
        (log, rolls): (Vec<String>, Vec<Value>),
        undoable: Option<Seat>,
    ) -> Arc<str> {
        let (version, revision) = at;
        let viewer = role.viewer();
        let you = match role {
            Role::Seat(s) => json!({"seat": s.index(), "name": self.seats[s.index()].name}),
            Role::Spectator => json!({"seat": null, "name": "spectator"}),
        };
        // The pending seat is public (every view names whose decision it is).
        let waiting = table.pending().map(|(s, _)| self.seats.get(s.index()).map(|x| x.name.clone()));
        let notes = match role {
            Role::Seat(s) if table.decision(s).is_some() => table.notes(s),
            _ => Vec::new(),
        };
        json!({
            "type": "update",
            "match": self.id,
            "system": self.system.id(),
            "title": self.system.title(),
            "version": version,
            "revision": revision,
            "can_undo": matches!(role, Role::Seat(s) if undoable == Some(s)),
            "you": you,
            "seats": self.seats_json(),
            "waiting": waiting,
            "view": table.view(viewer),
            "notes": notes,
            "log": log,
            "rolls": rolls,
        })
        .to_string()
        .into()
    }
    fn snapshot(&self, table: &dyn Table, version: u64, journal_from: usize, undoable: Option<Seat>) -> Arc<Snapshot> {
        let revision = self.revision.fetch_add(1, Ordering::AcqRel) + 1;
        let roles = (0..self.seats.len()).map(|i| Role::Seat(Seat(i as u8))).chain([Role::Spectator]);
        // A bot's seat has no token, so nobody is sent its view: none is made.
        let messages = roles
            .map(|r| match r {
                Role::Seat(s) if self.is_bot(s) => Arc::from(""),
                _ => {
                    // Both come from the journal as this viewer may read it, so a roll the
                    // rules keep from a seat is not in that seat's message.
                    let lines = table.log_since(journal_from, r.viewer());
                    let rolls = rolls_of(&table.events_since(journal_from, r.viewer()), &lines);
                    self.message(table, (version, revision), r, (lines, rolls), undoable)
                }
            })
            .collect();
        Arc::new(Snapshot { version, revision, messages })
    }
    fn publish(&self, snap: Arc<Snapshot>) {
        *self.latest.write().unwrap_or_else(|p| p.into_inner()) = snap.clone();
        // No receiver is not an error: nobody is connected.
        let _ = self.updates.send(snap);
    }
}

/// A request to start a match, with its teams and map already read.
pub struct NewMatch {
    /// The system's id.
    pub system: String,
    /// Teams, map and options.
    pub request: SetupRequest,
    /// The dice's seed.
    pub seed: u64,
    /// For the first seats in order: `None` for a person, or the bot; the seats left out get
    /// the greedy bot (with none listed, the first seat is a person).
    pub players: Vec<Option<String>>,
}

/// The largest search a client may ask a bot for: the bots run on this server's cores.
fn allowed_bot(spec: &str) -> Result<BotSpec, String> {
    let b: BotSpec = spec.parse()?;
    if let BotSpec::Mcts(s) = &b
        && (s.iterations > 5000 || s.millis.is_some_and(|ms| ms > 2000) || s.trees > 2)
    {
        return Err(format!("{spec:?}: this server plays bots up to mcts:5000 (or mcts:2000ms) with at most 2 trees"));
    }
    Ok(b)
}

/// A new secret: 128 random bits as hex.
fn token() -> String {
    use rand::RngCore;
    let mut b = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut b);
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Every match the server holds, the store behind them, and the systems.
pub struct Hub {
    systems: Systems,
    store: Arc<dyn Store>,
    matches: RwLock<HashMap<String, Arc<Match>>>,
    tokens: RwLock<HashMap<String, (String, Role)>>,
    rules: Mutex<HashMap<String, Arc<Value>>>,
}

impl Hub {
    /// A hub over `store`, holding every unfinished match in it again (each replayed from its
    /// inputs).
    pub fn open(systems: Systems, store: Arc<dyn Store>) -> Result<Arc<Hub>, String> {
        let hub = Arc::new(Hub {
            systems,
            store,
            matches: RwLock::default(),
            tokens: RwLock::default(),
            rules: Mutex::default(),
        });
        for m in hub.store.unfinished()? {
            let id = m.id.clone();
            if let Err(e) = hub.hold(m) {
                // One match that no longer replays (another Fray's content) leaves the rest.
                tracing::warn!("match {id} is not resumed: {e}");
                eprintln!("warning: match {id} is not resumed: {e}");
            }
        }
        Ok(hub)
    }

    /// The systems served.
    pub fn systems(&self) -> &Systems {
        &self.systems
    }

    /// How many matches are held.
    pub fn held(&self) -> usize {
        self.matches.read().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// The ids of the matches where a bot is to move (to start their bots after a restart).
    pub fn waiting_on_bots(&self) -> Vec<Arc<Match>> {
        let all: Vec<Arc<Match>> = self.matches.read().unwrap_or_else(|p| p.into_inner()).values().cloned().collect();
        all.into_iter().filter(|m| bot_to_move(m, m.lock().table.as_ref()).is_some()).collect()
    }

    fn table_of(&self, m: &StoredMatch, inputs: usize) -> Result<Rebuilt, String> {
        let sys = self.systems.registry.get(&m.system)?.clone();
        let mut table = sys.new_table(&m.request, m.seed).map_err(|e| e.to_string())?;
        let here = table.record_json()["fingerprint"].to_string();
        if here != m.fingerprint {
            return Err(format!(
                "it was played with {} and this Fray plays {here}: the same inputs could make another match",
                m.fingerprint
            ));
        }
        for (i, input) in m.inputs.iter().take(inputs).enumerate() {
            apply_input(table.as_mut(), input).map_err(|e| format!("input {} no longer applies: {e}", i + 1))?;
        }
        Ok((sys, table))
    }

    fn bots_of(&self, m: &StoredMatch) -> Result<Vec<Option<Box<dyn TableBot>>>, String> {
        let mut out = Vec::new();
        for (i, seat) in m.seats.iter().enumerate() {
            out.push(match &seat.player {
                SeatPlayer::Person { .. } => None,
                SeatPlayer::Bot { bot } => {
                    let spec = allowed_bot(bot)?;
                    let maker = self
                        .systems
                        .bots
                        .iter()
                        .find(|b| b.system() == m.system)
                        .ok_or_else(|| format!("{} has no bots", m.system))?;
                    // Seeded from the match's seed and the input count, so a bot resumed after
                    // a restart plays on as it would have.
                    let seed = m.seed ^ (0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i as u64 + 1)) ^ m.inputs.len() as u64;
                    Some(maker.make(&spec, seed))
                }
            });
        }
        Ok(out)
    }

    /// Holds a stored match: replays it and registers its tokens.
    fn hold(&self, m: StoredMatch) -> Result<Arc<Match>, String> {
        let (system, table) = self.table_of(&m, m.inputs.len())?;
        let bots = self.bots_of(&m)?;
        let seats = m.seats.clone();
        let (updates, _) = broadcast::channel(64);
        let version = m.inputs.len() as u64;
        let placeholder = Arc::new(Snapshot { version, revision: 0, messages: Vec::new() });
        let held = Arc::new(Match {
            id: m.id.clone(),
            system,
            seats,
            latest: RwLock::new(placeholder),
            updates,
            bots_running: AtomicBool::new(false),
            revision: AtomicU64::new(0),
            sockets: (0..=m.seats.len()).map(|_| Arc::default()).collect(),
            inner: Mutex::new(Inner { table, bots, stored: m, undoable: None }),
        });
        {
            let inner = held.lock();
            let from = inner.table.journal_len();
            let snap = held.snapshot(inner.table.as_ref(), version, from, None);
            *held.latest.write().unwrap_or_else(|p| p.into_inner()) = snap;
            let mut tokens = self.tokens.write().unwrap_or_else(|p| p.into_inner());
            for (i, s) in inner.stored.seats.iter().enumerate() {
                if let SeatPlayer::Person { token } = &s.player {
                    tokens.insert(token.clone(), (held.id.clone(), Role::Seat(Seat(i as u8))));
                }
            }
            tokens.insert(inner.stored.spectator.clone(), (held.id.clone(), Role::Spectator));
        }
        self.matches.write().unwrap_or_else(|p| p.into_inner()).insert(held.id.clone(), held.clone());
        Ok(held)
    }

    /// Starts a match, stores it and holds it. Returns it with its stored form (the tokens).
    pub fn create(&self, new: NewMatch) -> Result<(Arc<Match>, StoredMatch), Refusal> {
        let sys = self.systems.registry.get(&new.system).map_err(|e| Refusal::new(400, e))?.clone();
        sys.playable().map_err(|e| Refusal::new(400, e))?;
        let table = sys.new_table(&new.request, new.seed).map_err(|e| Refusal::new(422, e.to_string()))?;
        let names: Vec<String> = table.seats().into_iter().map(|s| s.name).collect();
        // Seats not listed are played by the greedy bot; with none listed, the first is a person.
        let mut players = new.players;
        if players.is_empty() {
            players.push(None);
        }
        if players.len() > names.len() {
            return Err(Refusal::new(
                400,
                format!(
                    "{} has {} seats ({}); `seats` lists {}",
                    sys.title(),
                    names.len(),
                    names.join(", "),
                    players.len()
                ),
            ));
        }
        players.resize(names.len(), Some("greedy".to_string()));
        let mut seats = Vec::new();
        for (name, p) in names.iter().zip(players) {
            let player = match p {
                None => SeatPlayer::Person { token: token() },
                Some(bot) => {
                    allowed_bot(&bot).map_err(|e| Refusal::new(400, format!("seat {name}: {e}")))?;
                    if !self.systems.bots.iter().any(|b| b.system() == sys.id()) {
                        return Err(Refusal::new(400, format!("{} has no bots: every seat is a person", sys.title())));
                    }
                    SeatPlayer::Bot { bot: allowed_bot(&bot).map(|b| b.to_string()).unwrap_or(bot) }
                }
            };
            seats.push(StoredSeat { name: name.clone(), player });
        }
        let stored = StoredMatch {
            id: token()[..12].to_string(),
            system: sys.id().to_string(),
            request: new.request,
            seed: new.seed,
            seats,
            spectator: token(),
            inputs: Vec::new(),
            finished: table.outcome().is_some(),
            fingerprint: table.record_json()["fingerprint"].to_string(),
        };
        drop(table);
        self.store.create(&stored).map_err(|e| Refusal::new(500, e))?;
        let m = self.hold(stored.clone()).map_err(|e| Refusal::new(500, e))?;
        Ok((m, stored))
    }

    /// The match and role a token lets in; a finished match not held is loaded from the store.
    pub fn enter(&self, token: &str) -> Result<(Arc<Match>, Role), Refusal> {
        let unknown = || Refusal::new(404, "no match has this link: check that it was copied whole");
        if token.len() > 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(unknown());
        }
        let found = self.tokens.read().unwrap_or_else(|p| p.into_inner()).get(token).cloned();
        if let Some((id, role)) = found
            && let Some(m) = self.matches.read().unwrap_or_else(|p| p.into_inner()).get(&id)
        {
            return Ok((m.clone(), role));
        }
        let id = self.store.match_of_token(token).map_err(|e| Refusal::new(500, e))?.ok_or_else(unknown)?;
        let m = self.store.load(&id).map_err(|e| Refusal::new(500, e))?.ok_or_else(unknown)?;
        self.hold(m).map_err(|e| Refusal::new(500, e))?;
        let (id, role) =
            self.tokens.read().unwrap_or_else(|p| p.into_inner()).get(token).cloned().ok_or_else(unknown)?;
        let m = self.matches.read().unwrap_or_else(|p| p.into_inner()).get(&id).cloned().ok_or_else(unknown)?;
        Ok((m, role))
    }

    /// `role` answers its pending decision with option `id`. On success the input is stored and
    /// published; the bots to move next are left to [`Hub::run_bots`].
    pub fn answer(&self, m: &Match, role: Role, id: &str) -> Result<Arc<Snapshot>, Refusal> {
        let Role::Seat(seat) = role else {
            return Err(Refusal::new(403, "a spectator watches: it answers no decision"));
        };
        let mut inner = m.lock();
        if inner.table.outcome().is_some() || matches!(inner.table.node(), Node::Terminal) {
            return Err(Refusal::new(409, "the match is over"));
        }
        if inner.table.decision(seat).is_none() {
            let whose = inner
                .table
                .pending()
                .and_then(|(s, _)| m.seats.get(s.index()).map(|x| x.name.clone()))
                .unwrap_or_else(|| "nobody".into());
            return Err(Refusal::new(
                409,
                format!("{} is not asked anything now: it is {whose}'s decision", m.seats[seat.index()].name),
            ));
        }
        let (from, rolls) = (inner.table.journal_len(), inner.table.rolls_made());
        inner.table.choose(seat, id).map_err(|e| Refusal::new(422, e.to_string()))?;
        self.commit(m, &mut inner, from, Some(rolls))
    }

    /// `role` takes back its own last choice: allowed while nobody has acted since and the
    /// choice rolled no die (so undoing it reveals nothing). The store forgets the input and the
    /// match is rebuilt from the inputs before it.
    pub fn undo(&self, m: &Match, role: Role) -> Result<Arc<Snapshot>, Refusal> {
        let Role::Seat(seat) = role else {
            return Err(Refusal::new(403, "a spectator watches: it has no choice to undo"));
        };
        let mut inner = m.lock();
        if inner.table.outcome().is_some() {
            return Err(Refusal::new(409, "the match is over"));
        }
        if inner.undoable != Some(seat) {
            return Err(Refusal::new(
                409,
                "only your own last choice can be undone, before anyone else acts and while no die has been rolled since",
            ));
        }
        let n = inner.stored.inputs.len();
        let (_, table) = self.table_of(&inner.stored, n - 1).map_err(|e| Refusal::new(500, e))?;
        self.store.remove_last_input(&m.id, n as u64 - 1).map_err(|e| Refusal::new(500, e))?;
        inner.stored.inputs.pop();
        inner.table = table;
        inner.undoable = None;
        // The log lines since the start would repeat the match: the view carries the recent ones.
        let from = inner.table.journal_len();
        let snap = m.snapshot(inner.table.as_ref(), n as u64 - 1, from, None);
        m.publish(snap.clone());
        Ok(snap)
    }

    /// Stores the input the table just took, then publishes the new snapshot. If the store
    /// refuses, the match is rebuilt from what the store holds and nothing is published.
    /// `person_rolls` is, for a person's input, how many dice had been rolled before it.
    fn commit(
        &self,
        m: &Match,
        inner: &mut Inner,
        from: usize,
        person_rolls: Option<usize>,
    ) -> Result<Arc<Snapshot>, Refusal> {
        let input = inner.table.last_input_json().unwrap_or(Value::Null);
        let index = inner.stored.inputs.len() as u64;
        let finished = inner.table.outcome().is_some();
        if let Err(e) = self.store.append_input(&m.id, index, &input, finished) {
            tracing::error!("match {}: {e}", m.id);
            inner.undoable = None;
            if let Ok((_, table)) = self.table_of(&inner.stored, inner.stored.inputs.len()) {
                inner.table = table;
            }
            return Err(Refusal::new(500, format!("the input was not stored, so it is not taken: {e}")));
        }
        let seat = input["seat"].as_u64().map(|s| Seat(s as u8));
        inner.undoable = seat.filter(|_| person_rolls == Some(inner.table.rolls_made()));
        inner.stored.inputs.push(input);
        inner.stored.finished = finished;
        let snap = m.snapshot(inner.table.as_ref(), index + 1, from, inner.undoable);
        m.publish(snap.clone());
        Ok(snap)
    }

    /// Lets the bots answer while a bot is asked. Call from a blocking thread after every
    /// change; at most one call runs a match's bots at a time.
    pub fn run_bots(&self, m: &Match) {
        loop {
            if m.bots_running.swap(true, Ordering::AcqRel) {
                return;
            }
            self.bot_turns(m);
            m.bots_running.store(false, Ordering::Release);
            // A person's answer may have landed between the last look and the flag's release.
            if bot_to_move(m, m.lock().table.as_ref()).is_none() {
                return;
            }
        }
    }

    fn bot_turns(&self, m: &Match) {
        let mut legal = Vec::new();
        loop {
            let mut inner = m.lock();
            let Some(seat) = bot_to_move(m, inner.table.as_ref()) else { return };
            inner.table.legal(seat, &mut legal);
            if legal.is_empty() {
                tracing::error!("match {}: a bot seat is asked but has nothing to choose", m.id);
                return;
            }
            let Inner { table, bots, .. } = &mut *inner;
            let Some(bot) = bots.get_mut(seat.index()).and_then(|b| b.as_mut()) else { return };
            let action = bot.choose_at(table.as_ref(), seat, &legal);
            let from = table.journal_len();
            if let Err(e) = table.apply(seat, action) {
                tracing::error!("match {}: the bot's choice was refused: {e}", m.id);
                return;
            }
            if self.commit(m, &mut inner, from, None).is_err() {
                return;
            }
        }
    }

    /// The match as `role` saw it after its first `step` inputs (the replay, step by step).
    pub fn replay(&self, m: &Match, role: Role, step: usize) -> Result<String, Refusal> {
        let stored = m.lock().stored.clone();
        if step > stored.inputs.len() {
            return Err(Refusal::new(
                404,
                format!("the match has taken {} inputs; step {step} is not played yet", stored.inputs.len()),
            ));
        }
        let (_, table) = self.table_of(&stored, step).map_err(|e| Refusal::new(500, e))?;
        let taken = stored.inputs.get(step).cloned();
        let mut msg: Value =
            serde_json::from_str(&m.message(table.as_ref(), (step as u64, 0), role, (Vec::new(), Vec::new()), None))
                .map_err(|e| Refusal::new(500, e.to_string()))?;
        msg["type"] = json!("replay");
        msg["steps"] = json!(stored.inputs.len());
        // The answer given next, when this role may see it (a seat its own; everyone once over).
        let mine = taken.as_ref().and_then(|t| t["seat"].as_u64()).is_some_and(|s| Role::Seat(Seat(s as u8)) == role);
        if mine || stored.finished {
            msg["next"] = taken.unwrap_or(Value::Null);
        }
        Ok(msg.to_string())
    }

    /// The look-up entries of `system` as JSON (read once).
    pub fn rules(&self, system: &str) -> Result<Arc<Value>, Refusal> {
        if let Some(v) = self.rules.lock().unwrap_or_else(|p| p.into_inner()).get(system) {
            return Ok(v.clone());
        }
        let sys = self.systems.registry.get(system).map_err(|e| Refusal::new(404, e))?;
        let entries = sys.rules_index().map_err(|e| Refusal::new(500, e))?;
        let v = Arc::new(serde_json::to_value(entries).unwrap_or(Value::Null));
        self.rules.lock().unwrap_or_else(|p| p.into_inner()).insert(system.to_string(), v.clone());
        Ok(v)
    }
}

/// A match's system and its table rebuilt from the store.
type Rebuilt = (Arc<dyn System>, Box<dyn Table>);

/// The first seat asked something that a bot plays.
fn bot_to_move(m: &Match, table: &dyn Table) -> Option<Seat> {
    match table.node() {
        Node::Terminal => None,
        Node::Decide { seats, .. } => seats.iter().find(|&s| m.is_bot(s) && table.decision(s).is_some()),
    }
}

/// The dice rolled among `events` (the journal entries of one change as one viewer may read
/// them, `lines` their log lines), for the browser's dice tray. Nothing here knows a system: an
/// entry is a roll when it carries dice faces (a list of numbers under `dice` or `numbers`) or
/// one roll's result (`roll`, `natural`), which is how the systems' journals spell them. Each
/// roll says who rolled (`unit`, `creature`, `attacker` or `who`), against whom (`target`),
/// for what (the entry's kind and its `what`, `mode` or `difficulty`), the faces, which faces
/// count (`kept`: where the natural result is one face, as with Advantage, the others were
/// dropped), what was added (`bonus`), the result and how it came out (`hit`, `outcome` or
/// `success`).
pub fn rolls_of(events: &[Value], lines: &[String]) -> Vec<Value> {
    let mut out = Vec::new();
    for (e, line) in events.iter().zip(lines) {
        let Some(obj) = e.as_object() else { continue };
        let faces: Vec<i64> = ["dice", "numbers"]
            .iter()
            .find_map(|k| obj.get(*k).and_then(|v| v.as_array()))
            .map(|a| a.iter().filter_map(|x| x.as_i64()).collect())
            .unwrap_or_default();
        let natural = obj.get("natural").and_then(|v| v.as_i64());
        let roll = obj.get("roll").and_then(|v| v.as_i64());
        if faces.is_empty() && natural.is_none() && roll.is_none() {
            continue;
        }
        // Which faces count: all of them when the natural result is their sum (or there is
        // none); the first face equal to it when it is one face (the higher or lower of two).
        let kept: Vec<bool> = match natural {
            Some(n) if faces.len() > 1 && faces.iter().sum::<i64>() != n => {
                let at = faces.iter().position(|&f| f == n);
                (0..faces.len()).map(|i| Some(i) == at).collect()
            }
            _ => vec![true; faces.len()],
        };
        let text = |k: &str| obj.get(k).and_then(|v| v.as_str()).map(str::to_string);
        let who = ["unit", "creature", "attacker", "who"].iter().find_map(|k| text(k));
        let what = ["what", "mode", "difficulty"].iter().find_map(|k| text(k));
        let result = obj.get("total").and_then(|v| v.as_i64()).or(natural).or(roll);
        let outcome = ["hit", "outcome"].iter().find_map(|k| text(k)).or_else(|| {
            obj.get("success").and_then(|v| v.as_bool()).map(|ok| if ok { "success" } else { "failure" }.to_string())
        });
        out.push(json!({
            "text": line,
            "kind": text("event").unwrap_or_default().replace('-', " "),
            "who": who,
            "target": text("target"),
            "what": what,
            "faces": faces,
            "kept": kept,
            "bonus": obj.get("bonus").and_then(|v| v.as_i64()),
            "result": result,
            "outcome": outcome.map(|o| o.replace('-', " ")),
        }));
    }
    out
}

/// Applies a stored input (`{"seat": n, "choose": id}` or `{"seat": n, "act": command}`).
fn apply_input(table: &mut dyn Table, input: &Value) -> Result<(), String> {
    let seat = Seat(input["seat"].as_u64().filter(|&s| s < 256).ok_or("an input names no seat")? as u8);
    match (input.get("choose").and_then(|c| c.as_str()), input.get("act")) {
        (Some(id), _) => table.choose(seat, id).map(|_| ()).map_err(|e| e.to_string()),
        (None, Some(c)) => table.act_json(seat, c).map(|_| ()).map_err(|e| e.to_string()),
        _ => Err("an input is neither a choice nor a command".into()),
    }
}
