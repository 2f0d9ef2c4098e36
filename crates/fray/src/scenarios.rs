//! `fray scenario` and `fray view`: run rules-test files and show their views. The file's
//! `system` field picks the system from the [`Registry`].

use fray_core::game::Viewer;
use fray_core::scenario::Report;
use fray_core::table::Registry;
use fray_core::view::View;
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

/// The system a scenario file names, from the registry.
fn system_of<'r>(
    registry: &'r Registry,
    name: &str,
    text: &str,
) -> Result<&'r std::sync::Arc<dyn fray_core::table::System>, String> {
    let v: toml::Table = toml::from_str(text).map_err(|e| format!("{name}: {e}"))?;
    let Some(system) = v.get("system").and_then(|s| s.as_str()) else {
        return Err(format!("{name}: missing field `system` (kazzam | dojo | collision | drawsteel)"));
    };
    registry.get(system).map_err(|e| format!("{name}: {e}"))
}

/// Loads and runs one scenario file.
pub fn run_file(registry: &Registry, path: &Path) -> Result<Report, String> {
    // Lets tests/all/cli.rs check that a panic in the engine is a FAIL (debug builds only).
    if cfg!(debug_assertions) && std::env::var_os("FRAY_TEST_PANIC_IN").is_some_and(|p| Path::new(&p) == path) {
        panic!("FRAY_TEST_PANIC_IN names this file");
    }
    let text = crate::input::read_text(path)?;
    let name = path.display().to_string();
    system_of(registry, &name, &text)?.run_scenario(&name, &text)
}

std::thread_local! {
    /// Where the last panic on this thread happened, for the FAIL line.
    static PANIC_AT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// [`run_file`], with a panic of the engine caught and made an error carrying its message: the
/// file is a FAIL and the run goes on to its summary.
fn run_guarded(registry: &Registry, path: &Path) -> Result<Report, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_file(registry, path))) {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".into());
            let at = PANIC_AT.with(|p| p.borrow_mut().take()).map(|l| format!(" at {l}")).unwrap_or_default();
            Err(format!("{}: the engine panicked{at} (a bug in Fray): {msg}", path.display()))
        }
    }
}

/// `fray scenario PATH...`
pub fn run(registry: &Registry, paths: &[String], trace: bool) -> Result<ExitCode, String> {
    let mut files = Vec::new();
    for p in paths {
        collect(Path::new(p), &mut files)?;
    }
    if files.is_empty() {
        return Err("no scenario files found".into());
    }
    let (mut passed, mut failed) = (0, 0);
    // A panic is reported on the file's FAIL line, not by the default hook.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let at = info.location().map(|l| format!("{}:{}", l.file(), l.line()));
        PANIC_AT.with(|p| *p.borrow_mut() = at);
    }));
    for f in &files {
        match run_guarded(registry, f) {
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
    std::panic::set_hook(default_hook);
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// `fray view [--json] SCENARIO`: the view after the scenario's steps.
pub fn view(registry: &Registry, path: &str, json: bool) -> Result<ExitCode, String> {
    let text = crate::input::read_text(Path::new(path))?;
    let table = system_of(registry, path, &text)?.scenario_table(path, &text)?;
    print_view(&table.view(Viewer::Referee), &crate::play::seat_names(table.as_ref()), json)
}

/// Prints a view as JSON or as the board and its latest journal lines.
pub fn print_view(v: &View, seats: &[String], json: bool) -> Result<ExitCode, String> {
    if json {
        println!("{}", serde_json::to_string_pretty(v).map_err(|e| e.to_string())?);
    } else {
        print!("{}", crate::board::render(v, seats, None, crate::board::Style::for_stdout()));
        for l in &v.log {
            println!("  {l}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
