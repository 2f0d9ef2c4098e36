//! `fray rules` (look-up) and `fray build` (content checks).

use fray_core::lookup::{Entry, search};
use std::process::ExitCode;

fn index(system: &str) -> Result<Vec<Entry>, String> {
    match system {
        "kazzam" => fray_kazzam::reference::index(&fray_kazzam::powers::Powers::builtin()?),
        "drawsteel" => fray_drawsteel::setup::rules_index(),
        other => Err(format!("no rules for {other:?} yet; try kazzam or drawsteel")),
    }
}

/// `fray rules SYSTEM [TERM] [--list] [--json]`
pub fn rules(system: &str, term: Option<&str>, list: bool, json: bool) -> Result<ExitCode, String> {
    let entries = index(system)?;
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
pub fn build(system: &str, file: &str) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    match system {
        "drawsteel" => match fray_drawsteel::setup::check_file(file, &text) {
            Ok(cards) => {
                for c in cards {
                    println!("{c}");
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(errors) => {
                for e in errors {
                    println!("{e}");
                }
                Ok(ExitCode::FAILURE)
            }
        },
        "kazzam" if text.contains("[class]") => match fray_kazzam::classes::parse(file, &text) {
            Ok(c) => {
                println!("{} — implements: {}\n  {}", c.class.name, c.class.implements.join(", "), c.class.text);
                for f in &c.feature {
                    println!(
                        "  feature (level {}{}): {} — {}",
                        f.level,
                        f.group.as_deref().map(|g| format!(", {g}")).unwrap_or_default(),
                        f.name,
                        f.text
                    );
                }
                for p in &c.power {
                    let note = if p.reference_only { " [look-up only]" } else { "" };
                    println!(
                        "  power (level {}, {}){note}: {}",
                        p.level.unwrap_or(1),
                        p.group.as_deref().unwrap_or("-"),
                        fray_kazzam::reference::power_card(p)
                    );
                }
                let playable = c.power.iter().filter(|p| !p.reference_only).count();
                println!("{} features, {} powers ({playable} played by the engine)", c.feature.len(), c.power.len());
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => {
                println!("{e}");
                Ok(ExitCode::FAILURE)
            }
        },
        "kazzam" => match fray_kazzam::builder::check_file(file, &text) {
            Ok(cards) => {
                for c in cards {
                    println!("{c}");
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(errors) => {
                for e in errors {
                    println!("{e}");
                }
                Ok(ExitCode::FAILURE)
            }
        },
        other => Err(format!("no builder for {other:?}")),
    }
}
