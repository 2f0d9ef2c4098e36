//! Collision as the `fray` program offers it: the builder, the look-up, and battles between
//! built groups (`fray play collision`, scenario files).

use crate::content::Content;
use crate::play::{BattleSetup, Collision, Command};
use fray_core::game::Game;
use fray_core::game::SetupErrors;
use fray_core::lookup::Entry;
use fray_core::scenario::Report;
use fray_core::session::{MatchRecord, Session};
use fray_core::table::{BuildReport, SetupRequest, System, Table};
use std::sync::Arc;

/// Collision for the registry: the content, parsed once when the program starts (or why it
/// could not be), and the battle rules.
pub struct CollisionSystem {
    content: Result<Content, String>,
    game: Arc<Collision>,
}

/// Collision for the registry.
pub fn system() -> Arc<dyn System> {
    system_of(Arc::new(Collision::builtin()))
}

/// This Collision, for the registry (a program that also hands `game` to bots and the
/// simulator).
pub fn system_of(game: Arc<Collision>) -> Arc<dyn System> {
    Arc::new(CollisionSystem { content: Content::builtin(), game })
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
        crate::battle::SIDES.iter().map(|s| s.to_string()).collect()
    }
    fn table_options(&self) -> Vec<(&'static str, &'static str)> {
        crate::battle::TABLE_OPTIONS.to_vec()
    }
    fn builtin_team(&self, name: &str) -> Option<&'static str> {
        crate::play::BUILTIN_GROUPS.iter().find(|(p, _)| p.ends_with(&format!("/{name}.toml"))).map(|(_, t)| *t)
    }
    fn new_table(&self, request: &SetupRequest, seed: u64) -> Result<Box<dyn Table>, SetupErrors> {
        let setup = self.game.setup_for(request)?;
        Ok(Box::new(Session::start(self.game.clone(), setup, seed)?))
    }
    fn replay(&self, record: serde_json::Value) -> Result<Box<dyn Table>, String> {
        let record: MatchRecord<BattleSetup, Command> =
            serde_json::from_value(record).map_err(|e| format!("not a saved Collision battle: {e}"))?;
        Ok(Box::new(Session::replay(self.game.clone(), record)?))
    }
    fn replay_start(&self, record: serde_json::Value) -> Result<Box<dyn Table>, String> {
        let record: MatchRecord<BattleSetup, Command> =
            serde_json::from_value(record).map_err(|e| format!("not a saved Collision battle: {e}"))?;
        Ok(Box::new(Session::replay_start(self.game.clone(), &record)?))
    }
    fn run_scenario(&self, name: &str, text: &str) -> Result<Report, String> {
        Ok(fray_core::scenario::run(&self.game, crate::play::load(&self.game, name, text)?))
    }
    fn scenario_table(&self, name: &str, text: &str) -> Result<Box<dyn Table>, String> {
        let session = fray_core::scenario::play_steps(&self.game, crate::play::load(&self.game, name, text)?)
            .map_err(|e| format!("{name}: {e}"))?;
        Ok(Box::new(session))
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
    fn bench(&self, matches: u64, live_bytes: Option<&dyn Fn() -> u64>) -> fray_core::bench::BenchReport {
        let setup = BattleSetup::default();
        fray_core::bench::measure(&self.game, &fray_core::conformance::from_setup(&setup), matches, live_bytes)
    }
}
