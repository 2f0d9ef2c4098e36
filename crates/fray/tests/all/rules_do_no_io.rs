//! Architecture invariant: the rules crates read no files and no environment, and keep nothing
//! process-wide (content is a value a game holds, so one process may hold several content
//! sets). Only the `fray` binary reads files. This test reads the rules crates' sources and fails
//! on a file system or environment call, or a process-wide cache, in any of them.

use std::path::{Path, PathBuf};

const RULES_CRATES: &[&str] = &["fray-kazzam", "fray-drawsteel", "fray-dojo", "fray-collision"];

/// What must not appear in a rules crate's source, as whole words (`fs::` but not `refs::`).
const FORBIDDEN: &[&str] =
    &["std::fs", "std::env", "fs::", "env::", "OnceLock", "LazyLock", "lazy_static", "thread_local!", "static mut"];

/// The thread-locals allowed, by file: per-call scratch buffers and memos that start empty and are
/// cleared when the outermost call returns, so no content or state outlives a call; or memos keyed
/// by everything their answers depend on, which forget what they hold when asked under another
/// key; or memos that hold the shared piece of state they were worked out from (an `Arc`, which
/// copy on write keeps unchanged while held) and answer only for that same piece.
const SCRATCH_THREAD_LOCALS: &[&str] = &[
    "fray-kazzam/src/engine/kit.rs", // QUIET: refusals left unworded; UNLABELLED: unlabelled options
    "fray-kazzam/src/engine/memo.rs", // FOUND: power ids looked up, per set of powers
    "fray-kazzam/src/rules/movement.rs", // SCRATCH, BOOSTS: per arena; BODIES, SPEEDS: per stamp
    "fray-kazzam/src/rules/cover.rs", // SHOTS: shots judged within one menu; SIGHTS: per arena
    "fray-kazzam/src/rules/creeps.rs", // QUIET: the stamp of the facts `watch` found nothing in
    "fray-kazzam/src/rules/contagion.rs", // SPREADERS: per power list (an Arc, held)
    "fray-kazzam/src/rules/query.rs", // LIFTERS: whether a Lift Specialist is on the map, per stamp
    "fray-drawsteel/src/actions.rs", // SCRATCH: route-search buffers; ROUTES: searches keyed by all they read
    "fray-drawsteel/src/abilities.rs", // SIGHTS: sights within one menu; BOOK: sights keyed by their map
];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Whether `word` occurs in `line` not glued to a longer name on its left.
fn has_word(line: &str, word: &str) -> bool {
    line.match_indices(word)
        .any(|(i, _)| line[..i].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_')))
}

#[test]
fn the_rules_crates_read_no_files_and_no_environment() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    let mut checked = 0;
    for krate in RULES_CRATES {
        let mut files = Vec::new();
        sources(&root.join(krate).join("src"), &mut files);
        assert!(!files.is_empty(), "no sources found for {krate}");
        for f in files {
            checked += 1;
            let text = std::fs::read_to_string(&f).unwrap();
            for (n, line) in text.lines().enumerate() {
                let scratch = SCRATCH_THREAD_LOCALS.iter().any(|a| f.ends_with(a));
                for w in FORBIDDEN.iter().filter(|w| has_word(line, w) && !(scratch && **w == "thread_local!")) {
                    found.push(format!("{}:{}: {w}: {}", f.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(checked > 10, "only {checked} source files read");
    assert!(
        found.is_empty(),
        "the rules must not read files or the environment or cache content process-wide (only the fray binary reads files):\n{}",
        found.join("\n")
    );
}
