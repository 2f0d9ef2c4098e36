//! `fray rules` (look-up) and `fray build` (content checks).

use fray_core::lookup::{Entry, search};
use fray_core::table::{BuildReport, Registry};
use std::process::ExitCode;

/// `fray rules SYSTEM [TERM] [--list] [--json]`
pub fn rules(
    registry: &Registry,
    system: &str,
    term: Option<&str>,
    list: bool,
    json: bool,
) -> Result<ExitCode, String> {
    let entries = registry.get(system)?.rules_index()?;
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
    for e in found {
        if list {
            println!("{:<10} {:<24} {}", e.kind, e.id, e.name);
        } else {
            println!("{} [{}, {}]\n  {}\n", e.name, e.kind, e.id, e.text.replace('\n', "\n  "));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `fray build SYSTEM FILE`
pub fn build(registry: &Registry, system: &str, file: &str) -> Result<ExitCode, String> {
    let sys = registry.get(system)?;
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    match sys.check_build(file, &text) {
        BuildReport::Legal(cards) => {
            for c in cards {
                println!("{c}");
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
