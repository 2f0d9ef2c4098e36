//! Where matches are kept: a [`Store`] holds each match as what started it (system, setup
//! request, seed, seats and their tokens) and its inputs in order. Replaying the inputs from the
//! setup rebuilds the match exactly (the engine is deterministic for a seed), so nothing else is
//! stored.

use fray_core::table::SetupRequest;
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Mutex;

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum SeatPlayer {
    /// A person, who answers through the seat's secret token.
    Person {
        /// The seat's secret token (its link).
        token: String,
    },
    /// A bot on the server.
    Bot {
        /// The bot, as `fray play --bot` names it (`greedy`, `mcts:200`).
        bot: String,
    },
}

/// One seat of a stored match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSeat {
    /// The seat's name ("red").
    pub name: String,
    /// Who plays it.
    #[serde(flatten)]
    pub player: SeatPlayer,
}

/// A match as a store keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredMatch {
    /// The match's id (not secret: it is no token).
    pub id: String,
    /// The system's id.
    pub system: String,
    /// What it started from.
    pub request: SetupRequest,
    /// The seed of its dice.
    pub seed: u64,
    /// Its seats in seat order.
    pub seats: Vec<StoredSeat>,
    /// The spectators' token.
    pub spectator: String,
    /// Every input so far, in order, as the match record holds them
    /// (`{"seat": 0, "choose": "3,4"}`).
    pub inputs: Vec<serde_json::Value>,
    /// Whether the match has ended.
    pub finished: bool,
    /// The engine and content it is played with (the match record's fingerprint, as JSON
    /// text): a server of another Fray does not resume it, since the same inputs could make
    /// another match.
    pub fingerprint: String,
}

/// Keeps matches. Every method is synchronous: the server calls it from blocking threads.
///
/// The contract is written so that a shared database can back several server instances:
/// [`Store::append_input`] names the index the input gets, and must refuse (not overwrite)
/// when that index is taken, so two instances that both took a match's next input cannot both
/// commit it; the one refused reloads the match. A PostgreSQL store would keep the same two
/// tables (matches; inputs keyed by match and index) and use a transaction per call, with the
/// primary key on (match, index) doing the refusing; instances would tell each other about new
/// inputs with LISTEN/NOTIFY. Only SQLite is built.
pub trait Store: Send + Sync {
    /// Stores a new match (with no inputs).
    fn create(&self, m: &StoredMatch) -> Result<(), String>;
    /// Commits `input` as input number `index` (from 0) of match `id`, and whether the match is
    /// now over, in one transaction. Refused if `index` is not the next free index.
    fn append_input(&self, id: &str, index: u64, input: &serde_json::Value, finished: bool) -> Result<(), String>;
    /// Forgets input number `index` of match `id` (a choice undone); refused unless it is the
    /// last one.
    fn remove_last_input(&self, id: &str, index: u64) -> Result<(), String>;
    /// The match `id`, with its inputs.
    fn load(&self, id: &str) -> Result<Option<StoredMatch>, String>;
    /// The id of the match a seat or spectator token belongs to.
    fn match_of_token(&self, token: &str) -> Result<Option<String>, String>;
    /// Every match not yet over, with its inputs.
    fn unfinished(&self) -> Result<Vec<StoredMatch>, String>;
}

/// A [`Store`] in one SQLite file. Every write is a transaction committed with
/// `synchronous=FULL` before the call returns, so a killed server (or machine) loses nothing
/// the store acknowledged.
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

fn err(e: rusqlite::Error) -> String {
    format!("the match store: {e}")
}

impl SqliteStore {
    /// Opens (or creates) the store at `path`, making its folder if needed.
    pub fn open(path: &Path) -> Result<Self, String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let conn = Connection::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = FULL;
             PRAGMA busy_timeout = 5000;
             CREATE TABLE IF NOT EXISTS matches (
                 id TEXT PRIMARY KEY,
                 system TEXT NOT NULL,
                 request TEXT NOT NULL,
                 seed TEXT NOT NULL,
                 seats TEXT NOT NULL,
                 spectator TEXT NOT NULL,
                 finished INTEGER NOT NULL DEFAULT 0,
                 fingerprint TEXT NOT NULL DEFAULT ''
             );
             CREATE TABLE IF NOT EXISTS inputs (
                 match_id TEXT NOT NULL REFERENCES matches(id),
                 idx INTEGER NOT NULL,
                 input TEXT NOT NULL,
                 PRIMARY KEY (match_id, idx)
             );
             CREATE TABLE IF NOT EXISTS tokens (
                 token TEXT PRIMARY KEY,
                 match_id TEXT NOT NULL REFERENCES matches(id)
             );",
        )
        .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(SqliteStore { conn: Mutex::new(conn) })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn read(conn: &Connection, id: &str) -> Result<Option<StoredMatch>, String> {
        let row = conn
            .query_row(
                "SELECT system, request, seed, seats, spectator, finished, fingerprint FROM matches WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, i64>(5)?,
                        r.get::<_, String>(6)?,
                    ))
                },
            )
            .optional()
            .map_err(err)?;
        let Some((system, request, seed, seats, spectator, finished, fingerprint)) = row else {
            return Ok(None);
        };
        let bad = |what: &str, e: &dyn std::fmt::Display| format!("match {id}: its stored {what} does not read: {e}");
        let mut stmt =
            conn.prepare_cached("SELECT idx, input FROM inputs WHERE match_id = ?1 ORDER BY idx").map_err(err)?;
        let rows = stmt.query_map(params![id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))).map_err(err)?;
        let mut inputs = Vec::new();
        for (i, row) in rows.enumerate() {
            let (idx, text) = row.map_err(err)?;
            if idx != i as i64 {
                return Err(format!("match {id}: input {i} is missing from the store"));
            }
            inputs.push(serde_json::from_str(&text).map_err(|e| bad("input", &e))?);
        }
        Ok(Some(StoredMatch {
            id: id.to_string(),
            system,
            request: serde_json::from_str(&request).map_err(|e| bad("setup", &e))?,
            seed: seed.parse().map_err(|e| bad("seed", &e))?,
            seats: serde_json::from_str(&seats).map_err(|e| bad("seats", &e))?,
            spectator,
            inputs,
            finished: finished != 0,
            fingerprint,
        }))
    }
}

impl Store for SqliteStore {
    fn create(&self, m: &StoredMatch) -> Result<(), String> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(err)?;
        tx.execute(
            "INSERT INTO matches (id, system, request, seed, seats, spectator, finished, fingerprint) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                m.id,
                m.system,
                json(&m.request),
                m.seed.to_string(),
                json(&m.seats),
                m.spectator,
                m.finished as i64,
                m.fingerprint
            ],
        )
        .map_err(err)?;
        let people = m.seats.iter().filter_map(|s| match &s.player {
            SeatPlayer::Person { token } => Some(token),
            SeatPlayer::Bot { .. } => None,
        });
        for token in people.chain([&m.spectator]) {
            tx.execute("INSERT INTO tokens (token, match_id) VALUES (?1, ?2)", params![token, m.id]).map_err(err)?;
        }
        for (i, input) in m.inputs.iter().enumerate() {
            tx.execute(
                "INSERT INTO inputs (match_id, idx, input) VALUES (?1, ?2, ?3)",
                params![m.id, i as i64, input.to_string()],
            )
            .map_err(err)?;
        }
        tx.commit().map_err(err)
    }

    fn append_input(&self, id: &str, index: u64, input: &serde_json::Value, finished: bool) -> Result<(), String> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(err)?;
        let next: i64 =
            tx.query_row("SELECT COUNT(*) FROM inputs WHERE match_id = ?1", params![id], |r| r.get(0)).map_err(err)?;
        if next != index as i64 {
            return Err(format!("match {id}: input {index} is not the next one (the store holds {next})"));
        }
        tx.execute(
            "INSERT INTO inputs (match_id, idx, input) VALUES (?1, ?2, ?3)",
            params![id, index as i64, input.to_string()],
        )
        .map_err(err)?;
        if finished {
            tx.execute("UPDATE matches SET finished = 1 WHERE id = ?1", params![id]).map_err(err)?;
        }
        tx.commit().map_err(err)
    }

    fn remove_last_input(&self, id: &str, index: u64) -> Result<(), String> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(err)?;
        let count: i64 =
            tx.query_row("SELECT COUNT(*) FROM inputs WHERE match_id = ?1", params![id], |r| r.get(0)).map_err(err)?;
        if count != index as i64 + 1 {
            return Err(format!("match {id}: input {index} is not the last one (the store holds {count})"));
        }
        tx.execute("DELETE FROM inputs WHERE match_id = ?1 AND idx = ?2", params![id, index as i64]).map_err(err)?;
        tx.execute("UPDATE matches SET finished = 0 WHERE id = ?1", params![id]).map_err(err)?;
        tx.commit().map_err(err)
    }

    fn load(&self, id: &str) -> Result<Option<StoredMatch>, String> {
        SqliteStore::read(&self.conn(), id)
    }

    fn match_of_token(&self, token: &str) -> Result<Option<String>, String> {
        self.conn()
            .query_row("SELECT match_id FROM tokens WHERE token = ?1", params![token], |r| r.get(0))
            .optional()
            .map_err(err)
    }

    fn unfinished(&self) -> Result<Vec<StoredMatch>, String> {
        let conn = self.conn();
        let ids: Vec<String> = {
            let mut stmt = conn.prepare("SELECT id FROM matches WHERE finished = 0 ORDER BY rowid").map_err(err)?;
            stmt.query_map([], |r| r.get(0)).map_err(err)?.collect::<Result<_, _>>().map_err(err)?
        };
        let mut out = Vec::new();
        for id in ids {
            if let Some(m) = SqliteStore::read(&conn, &id)? {
                out.push(m);
            }
        }
        Ok(out)
    }
}

/// A value as the JSON text a column holds.
fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(id: &str) -> StoredMatch {
        StoredMatch {
            id: id.into(),
            system: "kazzam".into(),
            request: SetupRequest::default(),
            seed: u64::MAX,
            seats: vec![
                StoredSeat { name: "red".into(), player: SeatPlayer::Person { token: format!("{id}-red") } },
                StoredSeat { name: "blue".into(), player: SeatPlayer::Bot { bot: "greedy".into() } },
            ],
            spectator: format!("{id}-watch"),
            inputs: Vec::new(),
            finished: false,
            fingerprint: "{}".into(),
        }
    }

    #[test]
    fn inputs_are_kept_in_order_and_an_index_is_taken_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/fray.sqlite");
        let store = SqliteStore::open(&path).unwrap();
        store.create(&sample("a")).unwrap();
        store.create(&sample("b")).unwrap();
        store.append_input("a", 0, &serde_json::json!({"seat": 0, "choose": "x"}), false).unwrap();
        assert!(store.append_input("a", 0, &serde_json::json!({"seat": 0, "choose": "y"}), false).is_err());
        assert!(store.append_input("a", 2, &serde_json::json!({"seat": 0, "choose": "y"}), false).is_err());
        store.append_input("a", 1, &serde_json::json!({"seat": 1, "choose": "z"}), false).unwrap();
        store.append_input("b", 0, &serde_json::json!({"seat": 1, "choose": "w"}), true).unwrap();
        store.append_input("a", 2, &serde_json::json!({"seat": 0, "choose": "u"}), false).unwrap();
        assert!(store.remove_last_input("a", 1).is_err(), "only the last input is forgotten");
        store.remove_last_input("a", 2).unwrap();
        drop(store);
        let store = SqliteStore::open(&path).unwrap();
        let a = store.load("a").unwrap().unwrap();
        assert_eq!(a.seed, u64::MAX);
        assert_eq!(a.inputs.len(), 2);
        assert_eq!(a.inputs[1]["choose"], "z");
        let open: Vec<String> = store.unfinished().unwrap().into_iter().map(|m| m.id).collect();
        assert_eq!(open, vec!["a".to_string()]);
        assert_eq!(store.match_of_token("b-watch").unwrap().as_deref(), Some("b"));
        assert_eq!(store.match_of_token("nope").unwrap(), None);
    }
}
