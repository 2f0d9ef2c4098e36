//! The `fray` command: play a match, run scenario files, print a view.

mod bench;
mod board;
mod input;
mod lookup;
mod play;
mod points;
mod scenarios;
mod sim;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use fray_core::table::Registry;

#[global_allocator]
static ALLOC: bench::Counting = bench::Counting;

/// Every system this program plays, with its bots and its simulator: the one place that names
/// them. `FRAY_CONTENT_DIR` names a folder laid out like `content/` whose Kazzam files are
/// played instead of the compiled-in ones (the rules crates read no files: this is the only
/// place that does).
pub struct Systems {
    /// The systems as the CLI offers them.
    pub registry: Registry,
    /// Their simulators.
    pub labs: Vec<Arc<dyn fray_sim::Lab>>,
    /// Their bots.
    pub bots: Vec<Arc<dyn fray_ai::Bots>>,
}

impl Systems {
    /// The simulator of `system`.
    pub fn lab(&self, system: &str) -> Result<Arc<dyn fray_sim::Lab>, String> {
        self.registry.get(system)?;
        self.labs
            .iter()
            .find(|l| l.system() == system)
            .cloned()
            .ok_or_else(|| format!("{system} has no matches to simulate yet"))
    }
    /// The bots of `system`.
    pub fn bots(&self, system: &str) -> Option<Arc<dyn fray_ai::Bots>> {
        self.bots.iter().find(|b| b.system() == system).cloned()
    }
}

/// Kazzam's content from `dir` (laid out like `content/`). With `overlay`, a file missing from
/// `dir` is the built-in one (a variant folder holds only what it changes); without, every
/// file must be there.
pub fn kazzam_content(dir: &std::path::Path, overlay: bool) -> Result<fray_kazzam::Content, String> {
    let not_loaded = |errors: Vec<String>| {
        format!("the content in {} does not load:\n{}", dir.display(), fray_core::scenario::capped(errors).join("\n"))
    };
    if !dir.is_dir() {
        return Err(format!("{}: not a folder", dir.display()));
    }
    let (mut files, mut errors) = (Vec::new(), Vec::new());
    for (name, builtin) in fray_kazzam::content::builtin_files() {
        let path = dir.join(name.strip_prefix("content/").unwrap_or(name));
        if overlay && !path.exists() {
            files.push((name.to_string(), builtin.to_string()));
            continue;
        }
        match input::read_text(&path) {
            Ok(text) => files.push((path.display().to_string(), text)),
            Err(e) => errors.push(e),
        }
    }
    if overlay {
        // A variant that changes nothing is a mistake in its layout: say what is expected.
        let known: Vec<std::path::PathBuf> = fray_kazzam::content::builtin_files()
            .iter()
            .map(|(name, _)| dir.join(name.strip_prefix("content/").unwrap_or(name)))
            .collect();
        let mut stray = Vec::new();
        let mut pending = vec![dir.to_path_buf()];
        let mut found = 0;
        while let Some(d) = pending.pop() {
            for entry in std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?.flatten() {
                let p = entry.path();
                if p.is_dir() {
                    pending.push(p);
                } else if known.contains(&p) {
                    found += 1;
                } else if p.extension().is_some_and(|e| e == "toml") {
                    stray.push(p.display().to_string());
                }
            }
        }
        if !stray.is_empty() {
            errors.push(format!(
                "{} {} no content file Fray reads (the folder is laid out like content/, e.g. {})",
                stray.join(", "),
                if stray.len() == 1 { "is" } else { "are" },
                dir.join("kazzam/classes/hexer.toml").display()
            ));
        } else if found == 0 {
            errors.push(format!(
                "{} changes none of the content files (lay it out like content/, e.g. {})",
                dir.display(),
                dir.join("kazzam/classes/hexer.toml").display()
            ));
        }
    }
    if !errors.is_empty() {
        return Err(not_loaded(errors));
    }
    fray_kazzam::Content::from_files(files).map_err(not_loaded)
}

fn systems() -> Result<Systems, String> {
    let content = match std::env::var_os("FRAY_CONTENT_DIR") {
        None => fray_kazzam::Content::builtin(),
        Some(dir) => kazzam_content(std::path::Path::new(&dir), false)
            .map_err(|e| e.replacen("the content in", "the content in FRAY_CONTENT_DIR,", 1))?,
    };
    let kazzam = Arc::new(fray_kazzam::Kazzam::with_content(Arc::new(content)));
    let drawsteel = Arc::new(fray_drawsteel::game::DrawSteel::builtin());
    let dojo = Arc::new(fray_dojo::Dojo::builtin());
    let collision = Arc::new(fray_collision::Collision::builtin());
    Ok(Systems {
        registry: Registry::new()
            .with(fray_kazzam::engine::game::system_of(kazzam.clone()))
            .with(fray_drawsteel::game::system_of(drawsteel.clone()))
            .with(fray_dojo::game::system_of(dojo.clone()))
            .with(fray_collision::system::system_of(collision.clone())),
        bots: vec![
            Arc::new(fray_ai::BotsOf::new(&*kazzam)),
            Arc::new(fray_ai::BotsOf::new(&*drawsteel)),
            Arc::new(fray_ai::BotsOf::new(&*dojo)),
            Arc::new(fray_ai::BotsOf::new(&*collision)),
        ],
        labs: vec![
            Arc::new(fray_sim::LabOf::new(kazzam)),
            Arc::new(fray_sim::LabOf::new(drawsteel)),
            Arc::new(fray_sim::LabOf::new(dojo)),
            Arc::new(fray_sim::LabOf::new(collision)),
        ],
    })
}

/// `fray serve`: the systems, their bots and their built-in teams and maps, served to browsers.
fn serve(systems: Systems, addr: &str, data: &str) -> Result<ExitCode, String> {
    let names = |list: &[(&'static str, &'static str)]| list.iter().map(|(id, _)| *id).collect::<Vec<_>>();
    let catalog = vec![
        fray_server::Catalog {
            system: "kazzam",
            teams: names(fray_kazzam::content::teams::BUILTIN),
            maps: names(fray_kazzam::content::maps::BUILTIN),
        },
        fray_server::Catalog { system: "drawsteel", teams: Vec::new(), maps: names(fray_drawsteel::setup::ENCOUNTERS) },
    ];
    let served = fray_server::Systems { registry: systems.registry, bots: systems.bots, catalog };
    fray_server::run(served, addr, std::path::Path::new(data))?;
    Ok(ExitCode::SUCCESS)
}

/// The simulator of `system` playing the content variant in `dir` (for `fray sim --compare`).
pub fn variant_lab(system: &str, dir: &std::path::Path) -> Result<Arc<dyn fray_sim::Lab>, String> {
    match system {
        "kazzam" => {
            let content = kazzam_content(dir, true)?;
            Ok(Arc::new(fray_sim::LabOf::new(Arc::new(fray_kazzam::Kazzam::with_content(Arc::new(content))))))
        }
        other => Err(format!("{other} reads no content folder yet, so it has no variant to compare")),
    }
}
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Parser)]
#[command(name = "fray", version, about = "A rules engine for grid-tactics tabletop games")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve matches to browsers: open the printed address, start a match against a bot or send
    /// each person their seat's link. Matches are kept in --data and resume after a restart.
    Serve {
        /// The address to listen on (port 0: any free port; the address is printed).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
        /// The folder the matches are kept in (a SQLite file, fray.sqlite).
        #[arg(long, default_value = "fray-data")]
        data: String,
    },
    /// Play a match in the terminal; every seat is a random-legal bot unless --seat makes it yours.
    Play {
        /// The game system (kazzam, drawsteel, dojo, collision).
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
        /// A team file (as `fray build` checks) for the first seat (Kazzam: red, the home team),
        /// or a built-in team's name (Kazzam: driannis, bagwung, kishanta, mormissa; `kishanta-3`
        /// for level 3).
        #[arg(long, requires = "away")]
        home: Option<String>,
        /// A team file or built-in team for the second seat (Kazzam: blue, the away team).
        #[arg(long, requires = "home")]
        away: Option<String>,
        /// The arena: a built-in map's name (Kazzam: beginner, one-way-doors, dual-dungeons,
        /// maze, throne; Draw Steel's encounters: sample, mire-ambush, warband) or a map file
        /// (docs/maps.md; Draw Steel: an encounter file, docs/encounters.md; `--encounter FILE`
        /// says the same). The default arena without it.
        #[arg(long, alias = "encounter")]
        map: Option<String>,
        /// A table option as KEY=VALUE, e.g. Kazzam's `creeps=false` or Draw Steel's
        /// `push=glossary` (docs/rulings/<system>.md, "Table options"). Repeat for several.
        #[arg(long = "option", value_name = "KEY=VALUE")]
        option: Vec<String>,
        /// The bot at a seat nobody plays: SEAT=BOT with BOT random, greedy, mcts, mcts:ITERATIONS
        /// or mcts:MILLISECONDSms; `--red mcts:2000` is short for `--bot red=mcts:2000`. Seats
        /// without one get the random bot.
        #[arg(long, value_name = "SEAT=BOT")]
        bot: Vec<String>,
    },
    /// Play many bot matches in parallel and report win rates with 95% intervals, points by
    /// source, match length and per-power and per-creature figures; `fray sim merge A.json
    /// B.json` adds up shards of one study.
    Sim {
        /// The game system (kazzam, drawsteel, dojo, collision). or `merge` followed by JSON reports.
        system: String,
        /// With `merge`: the JSON reports of the shards.
        files: Vec<String>,
        /// Matches in the study.
        #[arg(long, default_value_t = 1000)]
        matches: u64,
        /// The study's seed: the same seed gives the same report.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads (default: every core).
        #[arg(long)]
        jobs: Option<usize>,
        /// The bot at a seat: SEAT=BOT (as `fray play`); `--red greedy` for short.
        #[arg(long, value_name = "SEAT=BOT")]
        bot: Vec<String>,
        /// Swap the bots of the two sides every other match, so each plays both sides.
        #[arg(long)]
        swap: bool,
        /// A team file or built-in team for the first seat (as `fray play`).
        #[arg(long, requires = "away")]
        home: Option<String>,
        /// A team file or built-in team for the second seat.
        #[arg(long, requires = "home")]
        away: Option<String>,
        /// A table option as KEY=VALUE. Repeat for several.
        #[arg(long = "option", value_name = "KEY=VALUE")]
        option: Vec<String>,
        /// The arena: a built-in map's name or a map file (as `fray play`).
        #[arg(long)]
        map: Option<String>,
        /// Play only the K-th of N equal parts of the study (K from 1): run the parts on several
        /// machines and add them up with `fray sim merge`.
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
        /// Also play the same seeds with this content folder (laid out like content/, holding
        /// only the files it changes) and report the difference.
        #[arg(long, value_name = "DIR")]
        compare: Option<String>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Write one CSV row a match (seed, bots, winner, score, length) to this file.
        #[arg(long, value_name = "FILE")]
        csv: Option<String>,
        /// Write charts as SVG and PNG into this folder.
        #[arg(long, value_name = "DIR")]
        plot: Option<String>,
        /// Collision only: the points study. Each match draws two battle groups of different
        /// sizes from Fray's groups and prints the richer side's win rate by point difference
        /// (takes --matches, --seed, --jobs, --bot, --option and --json).
        #[arg(long)]
        points_study: bool,
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
        /// The game system (kazzam, drawsteel, dojo, collision).
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
        /// Describe the built-in maps (Kazzam's five arenas, Draw Steel's encounters).
        #[arg(long)]
        maps: bool,
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
        /// Measure the bots instead: MCTS iterations a second, and matches a second of each
        /// pairing (random, greedy, mcts), over --matches matches each.
        #[arg(long)]
        bots: bool,
    },
    /// Print the view of a scenario after its steps, or of a saved match.
    View {
        /// A scenario file (.toml) or a saved match (.json).
        path: String,
        /// Print JSON (the form scenario assertions read).
        #[arg(long)]
        json: bool,
        /// A saved match: replay it from the start one decision at a time, Enter for the next
        /// (q to stop), the board showing each decision's options and the one taken.
        #[arg(long, conflicts_with = "json")]
        step: bool,
    },
}

/// `--red mcts` is `--bot red=mcts`: a flag named after a seat of any system, on `play` and
/// `sim`, names that seat's bot.
fn seat_flags(args: Vec<String>, seats: &[String]) -> Vec<String> {
    let playing = args.get(1).is_some_and(|c| c == "play" || c == "sim");
    if !playing {
        return args;
    }
    let mut out = Vec::with_capacity(args.len());
    let mut it = args.into_iter().peekable();
    while let Some(a) = it.next() {
        let flag = a.strip_prefix("--").map(|f| {
            f.split_once('=').map(|(n, v)| (n.to_string(), Some(v.to_string()))).unwrap_or((f.to_string(), None))
        });
        match flag {
            Some((name, value)) if seats.contains(&name) => {
                let value = value.or_else(|| it.next()).unwrap_or_default();
                out.push("--bot".into());
                out.push(format!("{name}={value}"));
            }
            _ => out.push(a),
        }
    }
    out
}

/// What `fray play --help` adds after the flags: every playable system's seats and table
/// options, from the systems themselves.
fn play_help(registry: &Registry) -> String {
    let mut out = String::from("Systems, their seats (--seat, --bot) and table options (--option KEY=VALUE):\n");
    for sys in registry.all() {
        if let Err(why) = sys.playable() {
            out.push_str(&format!("\n{} ({}): not played yet: {why}\n", sys.id(), sys.title()));
            continue;
        }
        out.push_str(&format!("\n{} ({}): seats {}\n", sys.id(), sys.title(), sys.seat_names().join(", ")));
        for (key, what) in sys.table_options() {
            out.push_str(&format!("  {key:<40} {what}\n"));
        }
    }
    out.push_str(
        "\nAt the prompt: an option's number or id; `info N` tells what option N does, `rules TERM`\nlooks a rule up, `board` draws the board again, `help` lists these, `quit` stops.",
    );
    out
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
    let systems = match systems() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let seats: Vec<String> = systems.registry.all().iter().flat_map(|s| s.seat_names()).collect();
    let command = Cli::command().mut_subcommand("play", |c| c.after_help(play_help(&systems.registry)));
    let cli = match Cli::from_arg_matches(&command.get_matches_from(seat_flags(std::env::args().collect(), &seats))) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    let registry = &systems.registry;
    let result = match cli.command {
        Command::Serve { addr, data } => serve(systems, &addr, &data),
        Command::Play { system, seed, seat, quiet, save, home, away, map, option, bot } => {
            let teams: Vec<String> = home.into_iter().chain(away).collect();
            let args = play::PlayArgs {
                system: &system,
                seed,
                seats: &seat,
                quiet,
                save: save.as_deref(),
                teams: &teams,
                options: &option,
                bots: &bot,
                map: map.as_deref(),
            };
            play::run(&systems, &args)
        }
        Command::Sim {
            system,
            files,
            matches,
            seed,
            jobs,
            bot,
            swap,
            home,
            away,
            option,
            map,
            shard,
            compare,
            json,
            csv,
            plot,
            points_study,
        } => {
            let others = home.is_some()
                || map.is_some()
                || compare.is_some()
                || shard.is_some()
                || csv.is_some()
                || plot.is_some()
                || swap;
            if points_study {
                let study = points::Study { matches, seed, jobs, bots: &bot, options: &option, json };
                points::command(&systems, &system, &study, others)
            } else if system == "merge" {
                sim::merge(&files, json, plot.as_deref())
            } else if !files.is_empty() {
                Err(format!("unexpected arguments {files:?}: `fray sim SYSTEM` takes options only"))
            } else {
                let args = sim::SimArgs {
                    system: &system,
                    matches,
                    seed,
                    jobs,
                    bots: &bot,
                    swap,
                    teams: home.into_iter().chain(away).collect(),
                    map: map.as_deref(),
                    options: &option,
                    shard: shard.as_deref(),
                    compare: compare.as_deref(),
                    json,
                    csv: csv.as_deref(),
                    plot: plot.as_deref(),
                };
                sim::run(&systems, &args)
            }
        }
        Command::Scenario { paths, trace } => scenarios::run(registry, &paths, trace),
        Command::Rules { system, maps: true, .. } => registry.get(&system).and_then(|s| s.maps()).map(|text| {
            print!("{text}");
            ExitCode::SUCCESS
        }),
        Command::Rules { system, code: Some(id), .. } => lookup::code(registry, &system, &id),
        Command::Rules { system, coverage: true, checklist, .. } => {
            lookup::coverage(registry, &system, checklist.as_deref())
        }
        Command::Rules { system, term, list, json, .. } => {
            lookup::rules(registry, &system, term.as_deref(), list, json)
        }
        Command::Build { system, file, svg } => lookup::build(registry, &system, &file, svg.as_deref()),
        Command::Bench { system, matches, json, bots: true, .. } => bench::bots(&systems, &system, matches, json),
        Command::Bench { system, matches, rounds, json, .. } => bench::run(&systems, &system, matches, rounds, json),
        Command::View { path, json, step } => {
            if path.ends_with(".json") {
                play::view_saved(registry, &path, json, step)
            } else if step {
                Err("--step replays a saved match (a .json file from `fray play --save`)".into())
            } else {
                scenarios::view(registry, &path, json)
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
