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
    "engine/records/charmer.rs",
    "engine/records/control.rs",
    "engine/records/creeps.rs",
    "engine/records/curses.rs",
    "engine/records/empathy.rs",
    "engine/records/features.rs",
    "engine/records/implement.rs",
    "engine/records/modifiers.rs",
    "engine/records/porter.rs",
    "engine/records/removal.rs",
    "engine/records/roles.rs",
    "engine/records/statuses.rs",
    "engine/records/summons.rs",
    "engine/records/tamer.rs",
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

/// Known exceptions, by file and path. An entry here needs a reason (and an issue, for debt).
const ALLOWED: &[(&str, &str)] = &[
    // `State::facts_mut` asks for `events::Key`, which only `events` can make: the one way to
    // write a fact (issue 12). Naming the type imports no rule.
    ("engine/state.rs", "crate::engine::events"),
];

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

/// Modules that may name only the data layer (above) and each other, by allowed path prefix:
/// `events::apply` and its appliers (the one place state changes), and the base rule modules
/// whose read-only questions every rule asks (issue 12).
const BASE: &[(&str, &[&str])] = &[
    ("engine/appliers.rs", &[]),
    ("engine/events.rs", &["crate::engine::appliers", "crate::engine::events"]),
    ("rules/query.rs", &[]),
    ("rules/statuses.rs", &["crate::rules::query", "crate::rules::statuses"]),
    ("rules/cover.rs", &["crate::rules::query", "crate::rules::statuses"]),
    ("rules/scoring.rs", &["crate::engine::events", "crate::engine::kit"]),
    ("rules/portals.rs", &[]),
    ("rules/beasts.rs", &["crate::rules::query", "crate::rules::statuses", "crate::engine::kit"]),
    ("rules/counters.rs", &["crate::engine::events", "crate::engine::kit"]),
];

/// The data layer's paths, which every module may name.
const DATA_PATHS: &[&str] = &[
    "crate::engine::state",
    "crate::engine::ids",
    "crate::engine::arena",
    "crate::engine::options",
    "crate::engine::records",
    "crate::engine::frames",
    "crate::engine::appliers",
    "crate::content",
];

#[test]
fn the_journal_and_the_base_rules_name_only_the_data_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for (file, extra) in BASE {
        let text = std::fs::read_to_string(src.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for (i, _) in code.match_indices("crate::") {
                let path = &code[i..];
                if !DATA_PATHS.iter().chain(extra.iter()).any(|p| path.starts_with(p)) || path.starts_with("crate::{") {
                    found.push(format!("src/{file}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "these modules may name only the data layer:\n{}", found.join("\n"));
}

/// The largest import cycle among fray-kazzam's modules may not grow past this (issue 12: it
/// was 43 of 86 modules; lower it here whenever a change shrinks it).
const LARGEST_CYCLE: usize = 5;

/// Every module of `src/` (`a::b` for `src/a/b.rs` or `src/a/b/mod.rs`; not `lib`) and the
/// modules it names by a `crate::` path (the longest prefix that is a module).
fn module_graph() -> (Vec<String>, Vec<Vec<usize>>) {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, std::path::PathBuf)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, root, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(root).unwrap().with_extension("");
                let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
                if parts.last().is_some_and(|l| l == "mod") {
                    parts.pop();
                }
                if parts != ["lib"] {
                    out.push((parts.join("::"), p));
                }
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &src, &mut files);
    files.sort();
    let names: Vec<String> = files.iter().map(|f| f.0.clone()).collect();
    let index = |m: &str| names.iter().position(|n| n == m);
    let mut edges = vec![Vec::new(); names.len()];
    for (i, (_, path)) in files.iter().enumerate() {
        let text = std::fs::read_to_string(path).unwrap();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            for (at, _) in code.match_indices("crate::") {
                let rest = &code[at + 7..];
                let end = rest
                    .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == ':'))
                    .unwrap_or(rest.len());
                let segs: Vec<&str> = rest[..end].split("::").filter(|s| !s.is_empty()).collect();
                let target = (1..=segs.len()).rev().find_map(|k| index(&segs[..k].join("::")));
                if let Some(t) = target.filter(|&t| t != i && !edges[i].contains(&t)) {
                    edges[i].push(t);
                }
            }
        }
    }
    (names, edges)
}

/// Strongly connected components (Tarjan), largest first.
fn cycles(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct T<'a> {
        e: &'a [Vec<usize>],
        idx: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        st: Vec<usize>,
        n: usize,
        out: Vec<Vec<usize>>,
    }
    fn go(t: &mut T, v: usize) {
        t.idx[v] = Some(t.n);
        t.low[v] = t.n;
        t.n += 1;
        t.st.push(v);
        t.on[v] = true;
        for &w in &t.e[v] {
            match t.idx[w] {
                None => {
                    go(t, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(iw) if t.on[w] => t.low[v] = t.low[v].min(iw),
                _ => {}
            }
        }
        if Some(t.low[v]) == t.idx[v] {
            let mut c = Vec::new();
            while let Some(w) = t.st.pop() {
                t.on[w] = false;
                c.push(w);
                if w == v {
                    break;
                }
            }
            t.out.push(c);
        }
    }
    let n = edges.len();
    let mut t =
        T { e: edges, idx: vec![None; n], low: vec![0; n], on: vec![false; n], st: Vec::new(), n: 0, out: Vec::new() };
    for v in 0..n {
        if t.idx[v].is_none() {
            go(&mut t, v);
        }
    }
    t.out.sort_by_key(|c| std::cmp::Reverse(c.len()));
    t.out
}

#[test]
fn the_largest_import_cycle_does_not_grow() {
    let (names, edges) = module_graph();
    let sccs = cycles(&edges);
    let mut big: Vec<&str> = sccs[0].iter().map(|&i| names[i].as_str()).collect();
    big.sort();
    assert!(
        big.len() <= LARGEST_CYCLE,
        "the largest module cycle has {} modules (at most {LARGEST_CYCLE}): {big:?}\n\
         reach class behaviour through engine::hooks, and move read-only questions into rules::query",
        big.len()
    );
}

/// Every module with a `register` for the hook table is registered by `engine::plugins`, so
/// no class behaviour silently drops out of the match.
#[test]
fn every_register_is_called_by_plugins() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let plugins = std::fs::read_to_string(src.join("engine/plugins.rs")).unwrap();
    let (names, _) = module_graph();
    let mut missing = Vec::new();
    for m in names {
        let rel = m.replace("::", "/");
        let file = [format!("{rel}.rs"), format!("{rel}/mod.rs")].into_iter().map(|f| src.join(f)).find(|p| p.exists());
        let text = std::fs::read_to_string(file.unwrap()).unwrap();
        if text.contains("pub fn register(r: &mut crate::engine::hooks::Registry)")
            && !plugins.contains(&format!("crate::{m}::register(&mut r);"))
            && !plugins.contains(&format!("crate::{m}::register);"))
        {
            missing.push(m);
        }
    }
    assert!(missing.is_empty(), "engine::plugins::table does not call these modules' register: {missing:?}");
}
