//! Runs every scenario under `scenarios/collision/`: each must pass. Each file is its own test
//! case, named by its path under `scenarios/collision/`
//! (`cargo test -p fray-collision --test scenarios -- damage`), spread over the cores.

use libtest_mimic::{Arguments, Failed, Trial};
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

/// One scenario file: loads and runs it; a failure carries the journal.
fn run(game: &std::sync::Arc<fray_collision::Collision>, name: &str, file: &Path) -> Result<(), Failed> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{name}: {e}"))?;
    let loaded = fray_collision::play::load(game, name, &text)?;
    let r = fray_core::scenario::run(game, loaded);
    match r.failure {
        None => Ok(()),
        Some(fail) => Err(format!("{name}: {fail}\n    {}", r.journal.join("\n    ")).into()),
    }
}

fn main() {
    let args = Arguments::from_args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/collision");
    let mut all = Vec::new();
    files(&dir, &mut all);
    assert!(!all.is_empty(), "no scenarios found in {}", dir.display());
    let game = std::sync::Arc::new(fray_collision::Collision::builtin());
    let trials = all
        .into_iter()
        .map(|f| {
            let name = f.strip_prefix(&dir).unwrap_or(&f).display().to_string();
            let game = game.clone();
            Trial::test(name.clone(), move || run(&game, &name, &f))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
