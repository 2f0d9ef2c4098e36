//! The seed corpus: the landed files each loader reads (scenarios, content, maps, teams), the
//! saved matches and decision strings kept in `fuzz/seeds/`, and the regression inputs in
//! `fuzz/regressions/TARGET/` (each a crash a fuzzer found, fixed since). The `corpus` test
//! replays all of them; `fray-fuzz-corpus DIR` writes them out for libFuzzer.

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file under `dir` whose name ends in `ext` (any file for ""), sorted; none if `dir` is
/// missing.
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.to_string_lossy().ends_with(ext) {
            out.push(p);
        }
    }
}

fn read(paths: &[PathBuf]) -> Vec<(String, Vec<u8>)> {
    let root = root();
    paths
        .iter()
        .map(|p| {
            let name = p.strip_prefix(&root).unwrap_or(p).display().to_string();
            (name, std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        })
        .collect()
}

/// The seeds of `target` (name for messages, bytes): its landed files, then its kept seeds.
pub fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let root = root();
    let mut paths = Vec::new();
    match target {
        "kazzam_scenario" => files(&root.join("scenarios/kazzam"), ".toml", &mut paths),
        "drawsteel_scenario" => files(&root.join("scenarios/drawsteel"), ".toml", &mut paths),
        "kazzam_team" => {
            files(&root.join("content/kazzam/teams"), ".toml", &mut paths);
            files(&root.join("examples/kazzam"), ".toml", &mut paths);
        }
        "kazzam_map" => files(&root.join("content/kazzam/maps"), ".toml", &mut paths),
        _ => {}
    }
    let mut out = read(&paths);
    if target == "kazzam_content" {
        // The content files as the loader sees them: the name, a newline, the text.
        out.extend(
            fray_kazzam::content::builtin_files()
                .into_iter()
                .map(|(n, t)| (n.to_string(), format!("{n}\n{t}").into_bytes())),
        );
    }
    if target == "command" {
        out.extend(command_seeds());
    }
    let mut kept = Vec::new();
    files(&root.join("fuzz/seeds").join(target), "", &mut kept);
    out.extend(read(&kept));
    out
}

/// Decision strings for the `command` target: each system and setup choice, a seed, and a few
/// hundred steps of mostly legal choices with some of every other kind.
fn command_seeds() -> Vec<(String, Vec<u8>)> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
    (0u8..12)
        .map(|pick| {
            let mut bytes = vec![pick];
            bytes.extend_from_slice(&(pick as u64).to_be_bytes());
            bytes.extend((0..200).map(|i| if i % 10 == 9 { rng.r#gen::<u8>() } else { rng.gen_range(0..0xC0u8) }));
            (format!("generated/command-{pick}"), bytes)
        })
        .collect()
}

/// The regression inputs of `target`: crashes found by fuzzing, each fixed.
pub fn regressions(target: &str) -> Vec<(String, Vec<u8>)> {
    let mut paths = Vec::new();
    files(&root().join("fuzz/regressions").join(target), "", &mut paths);
    paths.retain(|p| !p.ends_with("README.md"));
    read(&paths)
}
