//! `fray rules` (look-up) and `fray build` (content checks).

use fray_core::lookup::{Entry, search};
use fray_core::table::{BuildReport, Registry};

/// Where rule ids are cited: built from the sources and scenarios by build.rs.
mod index {
    include!(concat!(env!("OUT_DIR"), "/rule_index.rs"));
}

/// `fray rules SYSTEM --code ID`: where the rule lives in the code, and the scenarios and Rust
/// tests that check it.
pub fn code(registry: &Registry, system: &str, id: &str) -> Result<ExitCode, String> {
    registry.get(system)?;
    let id = id.trim();
    let places: Vec<String> =
        index::CODE.iter().filter(|(i, ..)| i.eq_ignore_ascii_case(id)).map(|(_, f, l)| format!("{f}:{l}")).collect();
    let named = |list: &'static [(&'static str, &'static str)]| -> Vec<&'static str> {
        list.iter().filter(|(i, _)| i.eq_ignore_ascii_case(id)).map(|(_, f)| *f).collect()
    };
    let (scenarios, tests) = (named(index::SCENARIOS), named(index::TESTS));
    if places.is_empty() && scenarios.is_empty() && tests.is_empty() {
        println!("{id}: no code cites it and no scenario or test names it");
        return Ok(ExitCode::FAILURE);
    }
    println!(
        "{id}: cited at {} place(s) in the code, named by {} scenario(s) and {} test file(s)",
        places.len(),
        scenarios.len(),
        tests.len()
    );
    for p in places {
        println!("  code      {p}");
    }
    for t in scenarios {
        println!("  scenario  {t}");
    }
    for t in tests {
        println!("  test      {t}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The rule ids of a checklist file (`../shared/rules/SYSTEM.md`): every id it defines, in the
/// order first seen.
fn checklist_ids(text: &str, prefix: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
            let w = word.trim_matches('-');
            if w.starts_with(prefix) && w.matches('-').count() >= 2 && !out.iter().any(|x| x == w) {
                out.push(w.to_string());
            }
        }
    }
    out
}

/// `fray rules SYSTEM --coverage [--checklist FILE]`: how the checklist's rule ids are covered:
/// cited in the rule crates' code, and named by a scenario or asserted by a Rust test. The ids
/// the rulings list under "Nothing for the engine to play" (table talk, levels beyond the book)
/// are counted apart.
pub fn coverage(registry: &Registry, system: &str, checklist: Option<&str>) -> Result<ExitCode, String> {
    let sys = registry.get(system)?;
    let path = checklist.map(str::to_string).unwrap_or_else(|| format!("../shared/rules/{}.md", sys.id()));
    let text = crate::input::read_text(std::path::Path::new(&path))
        .map_err(|e| format!("{e} (give the rules checklist with --checklist)"))?;
    let prefix = index::CODE
        .iter()
        .chain(std::iter::empty())
        .find(|(i, f, _)| f.contains(&format!("fray-{}", sys.id())) && i.contains('-'))
        .map(|(i, ..)| format!("{}-", i.split('-').next().unwrap_or_default()))
        .ok_or_else(|| format!("no rule ids are cited in {}'s code yet", sys.id()))?;
    let ids = checklist_ids(&text, &prefix);
    // The rulings' own list of ids with nothing to play, if the rulings file is at hand.
    let rulings = std::fs::read_to_string(format!("docs/rulings/{}.md", sys.id())).unwrap_or_default();
    let idle: Vec<String> = rulings
        .split("\n## ")
        .find(|sec| sec.starts_with("Nothing for the engine to play"))
        .map(|sec| checklist_ids(sec, &prefix))
        .unwrap_or_default();
    let cited = |id: &str| index::CODE.iter().any(|(i, ..)| *i == id);
    let tested = |id: &str| index::SCENARIOS.iter().chain(index::TESTS).any(|(i, _)| *i == id);
    let (mut neither, mut untested, mut uncited, mut set_aside) = (Vec::new(), Vec::new(), 0, 0);
    for id in &ids {
        if idle.contains(id) {
            set_aside += 1;
            continue;
        }
        match (cited(id), tested(id)) {
            (false, false) => neither.push(id.as_str()),
            (true, false) => untested.push(id.as_str()),
            (false, true) => uncited += 1,
            (true, true) => {}
        }
    }
    println!(
        "{path}: {} rule ids; {set_aside} with nothing for the engine to play (rulings); {} with neither code nor test, {} cited in code but named by no scenario or test, {uncited} tested but cited in no code",
        ids.len(),
        neither.len(),
        untested.len()
    );
    if !neither.is_empty() {
        println!("with neither code nor test:");
    }
    for id in neither {
        println!("  {id}");
    }
    if !untested.is_empty() {
        println!("cited in code but named by no scenario or test:");
    }
    for id in untested {
        println!("  {id}");
    }
    Ok(ExitCode::SUCCESS)
}
use std::process::ExitCode;

/// `fray rules SYSTEM [TERM] [--list] [--json]`
pub fn rules(
    registry: &Registry,
    system: &str,
    term: Option<&str>,
    list: bool,
    json: bool,
) -> Result<ExitCode, String> {
    let sys = registry.get(system)?;
    let entries = sys.rules_index()?;
    // A system whose matches are not played yet says so above its entries.
    let note = sys.playable().err().filter(|_| !json);
    let found: Vec<&Entry> = match (term, list) {
        (_, true) => entries.iter().collect(),
        (Some(t), false) => search(&entries, t),
        (None, false) => return Err("give a term to look up, or --list".into()),
    };
    if json {
        let v: Vec<serde_json::Value> = found
            .iter()
            .map(|e| {
                if list {
                    serde_json::json!({ "kind": e.kind, "id": e.id, "name": e.name })
                } else {
                    serde_json::to_value(e).unwrap()
                }
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?);
        return Ok(ExitCode::SUCCESS);
    }
    if found.is_empty() {
        println!("nothing found for {:?}; try `fray rules {system} --list`", term.unwrap_or_default());
        return Ok(ExitCode::FAILURE);
    }
    if let Some(n) = note {
        println!("note: {n}\n");
    }
    for e in found {
        if list {
            println!("{:<10} {:<24} {}", e.kind, e.id, e.name);
        } else {
            println!("{}", entry_text(e));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One look-up entry as `fray rules SYSTEM TERM` prints it (and the prompt's `rules TERM`).
pub fn entry_text(e: &Entry) -> String {
    format!("{} [{}, {}]\n  {}\n", e.name, e.kind, e.id, e.text.replace('\n', "\n  "))
}

/// `fray build SYSTEM FILE [--svg OUT]`
pub fn build(registry: &Registry, system: &str, file: &str, svg: Option<&str>) -> Result<ExitCode, String> {
    let sys = registry.get(system)?;
    let text = crate::input::read_text(std::path::Path::new(file))?;
    match sys.check_build(file, &text) {
        BuildReport::Legal(cards) => {
            for c in cards {
                println!("{c}");
            }
            if let Some(out) = svg {
                let doc = sys.build_svg(file, &text)?;
                std::fs::write(out, doc).map_err(|e| format!("{out}: {e}"))?;
                println!("cards drawn in {out}");
            }
            Ok(ExitCode::SUCCESS)
        }
        BuildReport::Illegal(errors) => {
            for e in errors {
                println!("{e}");
            }
            Ok(ExitCode::FAILURE)
        }
    }
}
