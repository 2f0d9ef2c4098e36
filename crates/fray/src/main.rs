//! The `fray` command: play a match, run scenario files, print a view.

mod bench;
mod board;
mod input;
mod lookup;
mod play;
mod scenarios;

use clap::{Parser, Subcommand};
use fray_core::table::Registry;

#[global_allocator]
static ALLOC: bench::Counting = bench::Counting;

/// Every system this program plays: the one place that names them. `FRAY_CONTENT_DIR` names a
/// folder laid out like `content/` whose Kazzam files are played instead of the compiled-in ones
/// (the rules crates read no files: this is the only place that does).
fn registry() -> Result<Registry, String> {
    let kazzam = match std::env::var_os("FRAY_CONTENT_DIR") {
        None => fray_kazzam::engine::game::system(),
        Some(dir) => {
            let not_loaded = |errors: Vec<String>| {
                format!(
                    "the content in FRAY_CONTENT_DIR does not load:\n{}",
                    fray_core::scenario::capped(errors).join("\n")
                )
            };
            let dir = std::path::Path::new(&dir);
            let (mut files, mut errors) = (Vec::new(), Vec::new());
            for (name, _) in fray_kazzam::content::builtin_files() {
                let path = dir.join(name.strip_prefix("content/").unwrap_or(name));
                match input::read_text(&path) {
                    Ok(text) => files.push((path.display().to_string(), text)),
                    Err(e) => errors.push(e),
                }
            }
            if !errors.is_empty() {
                return Err(not_loaded(errors));
            }
            let content = fray_kazzam::Content::from_files(files).map_err(not_loaded)?;
            fray_kazzam::engine::game::system_with(std::sync::Arc::new(content))
        }
    };
    Ok(Registry::new().with(kazzam).with(fray_drawsteel::game::system()).with(fray_collision::system::system()))
}
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "fray", version, about = "A rules engine for grid-tactics tabletop games")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a match in the terminal; every seat is a random-legal bot unless --seat makes it yours.
    Play {
        /// The game system (kazzam, drawsteel).
        system: String,
        /// Seed for the dice and the bots: the same seed and choices replay the same match.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A seat (team) you play at the prompt: red or blue. Repeat for both.
        #[arg(long)]
        seat: Vec<String>,
        /// Print only the result, not the journal.
        #[arg(long)]
        quiet: bool,
        /// Write the match (seed and every choice) to this file as it goes; `fray view` replays it.
        #[arg(long)]
        save: Option<String>,
        /// A team file (as `fray build` checks) for the first seat (Kazzam: red, the home team).
        #[arg(long, requires = "away")]
        home: Option<String>,
        /// A team file for the second seat (Kazzam: blue, the away team).
        #[arg(long, requires = "home")]
        away: Option<String>,
        /// A table option as KEY=VALUE, e.g. Kazzam's `creeps=false` or Draw Steel's
        /// `push=glossary` (docs/rulings/<system>.md, "Table options"). Repeat for several.
        #[arg(long = "option", value_name = "KEY=VALUE")]
        option: Vec<String>,
    },
    /// Run scenario files or folders of them.
    Scenario {
        /// Files or folders.
        paths: Vec<String>,
        /// Print the journal of passing scenarios too.
        #[arg(long)]
        trace: bool,
    },
    /// Look up a rule, status, power or creature by name or id (forgiving about case and typos).
    Rules {
        /// The game system (kazzam, drawsteel, collision).
        system: String,
        /// What to look up.
        term: Option<String>,
        /// List every entry.
        #[arg(long)]
        list: bool,
        /// Where the rule with this id lives in the code, and the scenarios that check it.
        #[arg(long, value_name = "RULE-ID")]
        code: Option<String>,
        /// The rule ids of the checklist that no code cites and no scenario names.
        #[arg(long)]
        coverage: bool,
        /// The rules checklist for --coverage (default ../shared/rules/SYSTEM.md).
        #[arg(long, requires = "coverage")]
        checklist: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Check a character or team file (Kazzam), stat blocks (Draw Steel) or characters and a
    /// battle group (Collision) against the creation rules and print the cards, or every error
    /// with its file, line and field.
    Build {
        /// The game system.
        system: String,
        /// The file.
        file: String,
        /// Also draw the cards as SVG into this file (Collision).
        #[arg(long, value_name = "OUT")]
        svg: Option<String>,
    },
    /// Measure the engine on this machine: random-legal decisions per second, state clone, a
    /// whole random match, memory per live match.
    Bench {
        /// The game system.
        system: String,
        /// How many random matches to time.
        #[arg(long, default_value_t = 40)]
        matches: u64,
        /// Measure this many times and report the round with the median decisions per second,
        /// with the lowest and highest (a busy or drifting machine moves single rounds).
        #[arg(long, default_value_t = 1)]
        rounds: u32,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Print the view of a scenario after its steps, or of a saved match.
    View {
        /// A scenario file (.toml) or a saved match (.json).
        path: String,
        /// Print JSON (the form scenario assertions read).
        #[arg(long)]
        json: bool,
    },
}

/// A closed pipe ends `fray` quietly, as it does `cat` and `grep` (`fray rules kazzam --list |
/// head -1`): Rust ignores SIGPIPE and turns the write error into a panic in `println!`; the
/// default action ends the process without a word.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any other thread exists; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let cli = Cli::parse();
    let registry = match registry() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Play { system, seed, seat, quiet, save, home, away, option } => {
            let teams: Vec<String> = home.into_iter().chain(away).collect();
            let args = play::PlayArgs {
                system: &system,
                seed,
                seats: &seat,
                quiet,
                save: save.as_deref(),
                teams: &teams,
                options: &option,
            };
            play::run(&registry, &args)
        }
        Command::Scenario { paths, trace } => scenarios::run(&registry, &paths, trace),
        Command::Rules { system, code: Some(id), .. } => lookup::code(&registry, &system, &id),
        Command::Rules { system, coverage: true, checklist, .. } => {
            lookup::coverage(&registry, &system, checklist.as_deref())
        }
        Command::Rules { system, term, list, json, .. } => {
            lookup::rules(&registry, &system, term.as_deref(), list, json)
        }
        Command::Build { system, file, svg } => lookup::build(&registry, &system, &file, svg.as_deref()),
        Command::Bench { system, matches, rounds, json } => bench::run(&registry, &system, matches, rounds, json),
        Command::View { path, json } => {
            if path.ends_with(".json") {
                play::view_saved(&registry, &path, json)
            } else {
                scenarios::view(&registry, &path, json)
            }
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
