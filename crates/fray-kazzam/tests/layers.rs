//! Architecture invariant: the data layer — the match state, the records it holds, the arena,
//! the table options and the content files — imports no rule, class, role or implement module,
//! nor the resolution stack's dispatch (`engine::flow`) or the trigger points (`engine::triggers`).
//! Rules read and change the data; the data knows nothing of the rules (issue 12: no module cycle
//! through the whole crate). This test reads the data-layer sources and fails on such an import.

use std::path::Path;

/// The data layer, relative to `src/`. Every file in `engine/records/` and `engine/frames/` must
/// be listed.
const DATA_LAYER: &[&str] = &[
    "engine/state.rs",
    "engine/arena.rs",
    "engine/ids.rs",
    "engine/appliers.rs",
    "engine/options.rs",
    "engine/records/mod.rs",
    "engine/records/advanced.rs",
    "engine/records/brewer.rs",
    "engine/records/control.rs",
    "engine/records/creeps.rs",
    "engine/records/curses.rs",
    "engine/records/empathy.rs",
    "engine/records/features.rs",
    "engine/records/implement.rs",
    "engine/records/modifiers.rs",
    "engine/records/porter.rs",
    "engine/records/removal.rs",
    "engine/records/statuses.rs",
    "engine/records/summons.rs",
    "engine/records/triggers.rs",
    "engine/records/zones.rs",
    "engine/frames/mod.rs",
    "engine/frames/classes.rs",
    "engine/frames/roles.rs",
    "engine/frames/rules.rs",
    "content/mod.rs",
    "content/classes.rs",
    "content/creeps.rs",
    "content/hooks.rs",
    "content/powers.rs",
    "content/roles.rs",
];

/// Paths the data layer must not name, as whole words (`crate::rules` but not `my_crate::rules`).
/// `use crate::{...}` is refused too, so every import names its module in full.
const FORBIDDEN: &[&str] = &[
    "crate::rules",
    "crate::classes",
    "crate::roles",
    "crate::implements",
    "crate::engine::flow",
    "crate::engine::triggers",
    "crate::engine::events",
    "crate::engine::setup",
    "crate::engine::game",
    "crate::{",
];

/// Known debt, by file and path (none today). An entry here needs a reason and an issue.
const ALLOWED: &[(&str, &str)] = &[];

/// Whether `word` occurs in `line` not glued to a longer name on its left.
fn has_word(line: &str, word: &str) -> bool {
    line.match_indices(word)
        .any(|(i, _)| line[..i].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_')))
}

#[test]
fn the_data_layer_imports_no_rules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for file in DATA_LAYER {
        let text = std::fs::read_to_string(src.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or(""); // doc links may name rule modules
            for w in FORBIDDEN.iter().filter(|w| has_word(code, w) && !ALLOWED.contains(&(file, w))) {
                found.push(format!("src/{file}:{}: {w}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the data layer must not import rules (move the type into a data module, or the query into the rule module):\n{}",
        found.join("\n")
    );
}

#[test]
fn every_record_and_frame_file_is_checked() {
    for folder in ["engine/records", "engine/frames"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(folder);
        for e in std::fs::read_dir(&dir).unwrap() {
            let name = format!("{folder}/{}", e.unwrap().file_name().to_string_lossy());
            assert!(DATA_LAYER.contains(&name.as_str()), "{name} is not listed in DATA_LAYER");
        }
    }
}
