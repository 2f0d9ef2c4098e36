//! Armed waiting powers and feature cooldowns as records; trigger points are in [`crate::engine::triggers`].

use crate::engine::ids::UnitIdx;
use crate::engine::records::statuses::Duration;
use serde::Serialize;

/// A triggered feature used and not ready again until `until` runs out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cooldown {
    /// The feature id.
    pub feature: std::sync::Arc<str>,
    /// Until when.
    pub until: Duration,
}

/// A waiting power armed on its user until its duration runs out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Armed {
    /// The power.
    pub power: u16,
    /// The one creature it watches (Patient Gaze) or protects (Retribution).
    pub target: Option<UnitIdx>,
    /// How long it lasts.
    pub duration: Duration,
    /// Creatures it has already been used against.
    pub used_on: Vec<UnitIdx>,
}

/// The printed name of a feature of [`FEATURES`].
pub fn feature_name(id: &str) -> &'static str {
    match id {
        "revenge-fire" => "Revenge Fire",
        "defensive-fire" => "Defensive Fire",
        "wandslinger-reposition" => "Reposition",
        "hexer-sentinel" => "Sentinel",
        _ => "a feature",
    }
}
