//! The test harness behind every system's `tests/scenarios.rs` (feature `scenario-tests`): each
//! scenario file under a folder is its own test case, named by its path under that folder, so
//! `cargo test -p fray-dojo --test scenarios -- stances` runs the files whose path holds
//! "stances", and the cases spread over the cores. A failing case prints the first failed step or
//! assertion, then the journal.

use crate::table::System;
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Every `.toml` file below `dir`, sorted, so the test list is the same on every machine.
pub fn scenario_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("scenario folder {}: {e}", dir.display()))
            .map(|e| e.expect("scenario folder entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out
}

/// Loads and runs one scenario file through its system.
fn run_one(system: &dyn System, name: &str, file: &Path) -> Result<(), Failed> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{name}: {e}"))?;
    let report = system.run_scenario(name, &text)?;
    match report.failure {
        None => Ok(()),
        Some(f) => Err(format!("{name} ({}): {f}\n    {}", report.title, report.journal.join("\n    ")).into()),
    }
}

/// The `main` of a `tests/scenarios.rs` (declared with `harness = false`): runs every scenario
/// file under `dir` with `system`, honouring the usual test filters and flags, and exits.
pub fn main(system: Arc<dyn System>, dir: &Path) -> ! {
    let args = Arguments::from_args();
    let files = scenario_files(dir);
    assert!(!files.is_empty(), "no scenarios found in {}", dir.display());
    let trials = files
        .into_iter()
        .map(|f| {
            let name = f.strip_prefix(dir).unwrap_or(&f).display().to_string();
            let system = system.clone();
            Trial::test(name.clone(), move || run_one(system.as_ref(), &name, &f))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit()
}
