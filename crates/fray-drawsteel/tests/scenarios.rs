//! Runs every scenario under `scenarios/drawsteel/`.

use std::path::{Path, PathBuf};

#[test]
fn every_drawsteel_scenario_passes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/drawsteel");
    let mut all: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    all.sort();
    assert!(!all.is_empty());
    let mut failures = Vec::new();
    let game = std::sync::Arc::new(fray_drawsteel::DrawSteel::builtin());
    for f in &all {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        match fray_drawsteel::scenario::load(&name, &std::fs::read_to_string(f).unwrap()) {
            Err(e) => failures.push(e),
            Ok(l) => {
                let r = fray_core::scenario::run(&game, l);
                if let Some(fail) = r.failure {
                    failures.push(format!("{name}: {fail}\n    {}", r.journal.join("\n    ")));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} failed:\n{}", failures.len(), all.len(), failures.join("\n"));
}
