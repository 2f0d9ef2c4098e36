//! `fray scenario` and `fray view`: run rules-test files and show their views.

use fray_core::dice::AnyDice;
use fray_core::scenario::{self, Loaded, Report};
use fray_core::session::Session;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            collect(&e, out)?;
        }
    } else if path.extension().is_some_and(|x| x == "toml") {
        out.push(path.to_path_buf());
    } else if !path.exists() {
        return Err(format!("{}: no such file or folder", path.display()));
    }
    Ok(())
}

fn system_of(text: &str) -> Option<String> {
    let v: toml::Table = toml::from_str(text).ok()?;
    v.get("system")?.as_str().map(str::to_string)
}

/// Loads and runs one scenario file.
pub fn run_file(path: &Path) -> Result<Report, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.display().to_string();
    match system_of(&text).as_deref() {
        Some("kazzam") => Ok(scenario::run(fray_kazzam::scenario::load(&name, &text)?)),
        Some("drawsteel") => Ok(scenario::run(fray_drawsteel::scenario::load(&name, &text)?)),
        Some(other) => Err(format!("{name}: system {other:?} is not supported yet (kazzam and drawsteel are)")),
        None => match toml::from_str::<toml::Table>(&text) {
            Err(e) => Err(format!("{name}: {e}")),
            Ok(_) => Err(format!("{name}: missing field `system` (kazzam | dojo | collision | drawsteel)")),
        },
    }
}

/// `fray scenario PATH...`
pub fn run(paths: &[String], trace: bool) -> Result<ExitCode, String> {
    let mut files = Vec::new();
    for p in paths {
        collect(Path::new(p), &mut files)?;
    }
    if files.is_empty() {
        return Err("no scenario files found".into());
    }
    let (mut passed, mut failed) = (0, 0);
    for f in &files {
        match run_file(f) {
            Ok(r) if r.passed() => {
                passed += 1;
                println!("ok    {} — {} [{}]", f.display(), r.title, r.rules.join(", "));
                if trace {
                    for line in &r.journal {
                        println!("        {line}");
                    }
                }
            }
            Ok(r) => {
                failed += 1;
                println!("FAIL  {} — {}", f.display(), r.title);
                println!("      {}", r.failure.unwrap_or_default());
                println!("      journal:");
                for line in &r.journal {
                    println!("        {line}");
                }
            }
            Err(e) => {
                failed += 1;
                println!("FAIL  {e}");
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// `fray view [--json] SCENARIO`: the view after the scenario's steps.
pub fn view(path: &str, json: bool) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    match system_of(&text).as_deref() {
        Some("kazzam") => view_loaded(path, fray_kazzam::scenario::load(path, &text)?, json),
        Some("drawsteel") => view_loaded(path, fray_drawsteel::scenario::load(path, &text)?, json),
        _ => Err(format!("{path}: not a kazzam or drawsteel scenario")),
    }
}

fn view_loaded<R: fray_core::ruleset::Ruleset>(path: &str, loaded: Loaded<R>, json: bool) -> Result<ExitCode, String> {
    let Loaded { state, setup_journal, dice, steps, .. } = loaded;
    let mut session = Session::<R>::with_journal(state, AnyDice::Scripted(dice), setup_journal);
    for (i, step) in steps.iter().enumerate() {
        let r = match (&step.act, &step.choose) {
            (Some(c), _) => session.act(c.clone()).map(|_| ()),
            (None, Some(c)) => session.choose(&c.option_id()).map(|_| ()),
            _ => Ok(()),
        };
        if let (Err(e), None) = (r, &step.error) {
            return Err(format!("{path}: step {}: {e}", i + 1));
        }
    }
    let v = session.view();
    if json {
        println!("{}", serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?);
    } else {
        print!("{}", crate::board::render(&v));
        for l in &v.log {
            println!("  {l}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
