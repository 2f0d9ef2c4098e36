//! Collision as the `fray` program offers it: the builder and the look-up work; every
//! play-related method refuses with [`NOT_BUILT`] (the battle game comes with engine v2).

use crate::content::Content;
use fray_core::game::SetupErrors;
use fray_core::lookup::Entry;
use fray_core::scenario::Report;
use fray_core::table::{BuildReport, SetupRequest, System, Table};
use std::sync::Arc;

/// What every play-related request answers.
pub const NOT_BUILT: &str =
    "Collision's battle game is not built yet; `fray build collision` and `fray rules collision` work";

/// Collision for the registry: the content, parsed once when the program starts (or why it
/// could not be).
pub struct CollisionSystem {
    content: Result<Content, String>,
}

/// Collision for the registry.
pub fn system() -> Arc<dyn System> {
    Arc::new(CollisionSystem { content: Content::builtin() })
}

impl CollisionSystem {
    fn content(&self) -> Result<&Content, String> {
        self.content.as_ref().map_err(Clone::clone)
    }
}

impl System for CollisionSystem {
    fn id(&self) -> &'static str {
        "collision"
    }
    fn title(&self) -> &'static str {
        "Collision"
    }
    fn seat_names(&self) -> Vec<String> {
        Vec::new()
    }
    fn playable(&self) -> Result<(), String> {
        Err(NOT_BUILT.into())
    }
    fn new_table(&self, _request: &SetupRequest, _seed: u64) -> Result<Box<dyn Table>, SetupErrors> {
        Err(SetupErrors::one(NOT_BUILT))
    }
    fn replay(&self, _record: serde_json::Value) -> Result<Box<dyn Table>, String> {
        Err(NOT_BUILT.into())
    }
    fn run_scenario(&self, name: &str, _text: &str) -> Result<Report, String> {
        Err(format!("{name}: {NOT_BUILT}"))
    }
    fn scenario_table(&self, name: &str, _text: &str) -> Result<Box<dyn Table>, String> {
        Err(format!("{name}: {NOT_BUILT}"))
    }
    fn rules_index(&self) -> Result<Vec<Entry>, String> {
        Ok(crate::reference::index(self.content()?))
    }
    fn check_build(&self, file: &str, text: &str) -> BuildReport {
        let content = match self.content() {
            Ok(c) => c,
            Err(e) => return BuildReport::Illegal(vec![e]),
        };
        match crate::builder::check_file(content, file, text) {
            Ok(g) => BuildReport::Legal(crate::card::group_text(&g)),
            Err(errors) => BuildReport::Illegal(errors),
        }
    }
    fn build_svg(&self, file: &str, text: &str) -> Result<String, String> {
        let g = crate::builder::check_file(self.content()?, file, text)
            .map_err(|e| fray_core::scenario::capped(e).join("\n"))?;
        Ok(crate::card::svg(&g))
    }
    /// Never reached: the drivers ask [`System::playable`] first. Nothing is measured.
    fn bench(&self, _matches: u64, _live_bytes: Option<&dyn Fn() -> u64>) -> fray_core::bench::BenchReport {
        fray_core::bench::BenchReport {
            system: "collision".into(),
            matches: 0,
            decisions_per_second: 0.0,
            decisions_per_match: 0.0,
            clone_ns: 0.0,
            match_ms: 0.0,
            bytes_per_match: None,
        }
    }
}
