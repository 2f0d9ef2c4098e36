//! Runs every scenario under `scenarios/kazzam/` (SCENARIOS.md): each must pass.

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("scenario folder").map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

#[test]
fn every_kazzam_scenario_passes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/kazzam");
    let mut all = Vec::new();
    files(&dir, &mut all);
    assert!(!all.is_empty(), "no scenarios found in {}", dir.display());
    let mut failures = Vec::new();
    let game = std::sync::Arc::new(fray_kazzam::Kazzam::builtin());
    for f in &all {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.strip_prefix(&dir).unwrap_or(f).display().to_string();
        match fray_kazzam::scenario::load(&name, &text) {
            Err(e) => failures.push(format!("{name}: {e}")),
            Ok(loaded) => {
                let report = fray_core::scenario::run(&game, loaded);
                if let Some(f) = report.failure {
                    failures.push(format!("{name} ({}): {f}\n    {}", report.title, report.journal.join("\n    ")));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} scenarios failed:\n{}", failures.len(), all.len(), failures.join("\n"));
}
