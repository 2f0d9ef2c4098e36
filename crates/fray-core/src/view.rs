//! The one serializable picture of a match that every reader uses: the terminal, the browser,
//! scenario assertions. Systems fill the common fields and add their own under `extra`
//! (flattened into the JSON, so a scenario writes `units.ada.miss_tokens`).

use crate::decision::Decision;
use crate::grid::Pos;
use crate::ruleset::Outcome;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Everything a reader may know about a match.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The system's name ("kazzam").
    pub system: String,
    /// Current round, from 1.
    pub round: u32,
    /// The unit whose turn it is, if any.
    pub turn: Option<String>,
    /// The terrain, one string per row, one character per square.
    pub map: Vec<String>,
    /// Units by id.
    pub units: BTreeMap<String, UnitView>,
    /// Points by side.
    pub score: BTreeMap<String, i64>,
    /// The decision the match is waiting for.
    pub decision: Option<Decision>,
    /// The most recent journal lines.
    pub log: Vec<String>,
    /// How the match ended, once it has.
    pub outcome: Option<Outcome>,
    /// System-specific fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One unit as a reader sees it.
#[derive(Clone, Debug, Serialize)]
pub struct UnitView {
    /// Display name.
    pub name: String,
    /// Side it plays for.
    pub team: String,
    /// Top-left square, or `None` while off the map.
    pub at: Option<Pos>,
    /// Footprint size (1 for 1×1).
    pub size: i32,
    /// Hit points.
    pub hp: i64,
    /// Maximum hit points.
    pub max_hp: i64,
    /// Status names, lowercase (`"prone"`, `"ongoing"`), one per instance.
    pub statuses: Vec<String>,
    /// Statuses with their amounts, sources and durations.
    pub status_details: Vec<StatusView>,
    /// System-specific fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A status with its bookkeeping.
#[derive(Clone, Debug, Serialize)]
pub struct StatusView {
    /// Lowercase name.
    pub name: String,
    /// Amount for numbered statuses (Ongoing 2, Resist 1), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<i64>,
    /// Who applied or maintains it, if anyone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// How it ends, in words ("save ends", "end of bo's next turn").
    pub duration: String,
}
