//! The short fuzz pass CI runs (issue 14), on stable: every target replays its whole seed corpus
//! and its regression inputs, then a fixed number of seeded mutations of the seeds
//! (`FRAY_FUZZ_MUTATIONS=N` for more, `FRAY_FUZZ_SEED=N` for other ones). An input that panics
//! is written to `target/tmp/fuzz-failures/TARGET/` and named in the failure; put it in
//! `fuzz/regressions/TARGET/` once fixed. The long libFuzzer run is `.ci/fuzz`.

use fray_fuzz::corpus;
use fray_fuzz::mutate::mutate;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{AssertUnwindSafe, catch_unwind};

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn run(target: &fray_fuzz::Target, bytes: &[u8]) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(|| (target.run)(bytes))).map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".into())
    })
}

fn pass(name: &str, mutations: u64) {
    let target = fray_fuzz::target(name).expect("a target");
    let seeds = corpus::seeds(name);
    assert!(!seeds.is_empty(), "{name}: no seeds");
    let mut failures = Vec::new();
    for (file, bytes) in seeds.iter().chain(&corpus::regressions(name)) {
        if let Err(e) = run(target, bytes) {
            failures.push(format!("{file}: {e}"));
        }
    }
    let mutations = env_number("FRAY_FUZZ_MUTATIONS").unwrap_or(mutations);
    let seed = env_number("FRAY_FUZZ_SEED").unwrap_or(14);
    let mut rng =
        ChaCha8Rng::seed_from_u64(seed ^ fray_fuzz::TARGETS.iter().position(|t| t.name == name).unwrap() as u64);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures").join(name);
    for i in 0..mutations {
        let a = &seeds[rng.gen_range(0..seeds.len())].1;
        let b = &seeds[rng.gen_range(0..seeds.len())].1;
        let input = mutate(&mut rng, a, b);
        if let Err(e) = run(target, &input) {
            let _ = std::fs::create_dir_all(&dir);
            let file = dir.join(format!("seed-{seed}-mutation-{i}"));
            let _ = std::fs::write(&file, &input);
            failures.push(format!("{}: {e}", file.display()));
            if failures.len() >= 5 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{name}: {} inputs failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn kazzam_scenario() {
    pass("kazzam_scenario", 500);
}

#[test]
fn drawsteel_scenario() {
    pass("drawsteel_scenario", 1000);
}

#[test]
fn kazzam_team() {
    pass("kazzam_team", 600);
}

#[test]
fn kazzam_content() {
    pass("kazzam_content", 30);
}

#[test]
fn kazzam_map() {
    pass("kazzam_map", 600);
}

#[test]
fn save() {
    pass("save", 1000);
}

#[test]
fn command() {
    pass("command", 150);
}

#[test]
fn every_target_has_a_test() {
    let here = include_str!("corpus.rs");
    for t in fray_fuzz::TARGETS {
        assert!(here.contains(&format!("fn {}()", t.name)), "{}: no test in tests/corpus.rs", t.name);
    }
}
