//! `fray play`: a match in the terminal. Bots answer for every seat nobody claimed; a person
//! at a claimed seat sees the board and the numbered options and answers at the prompt.

use fray_ai::{Bot, RandomBot};
use fray_core::dice::{AnyDice, SeededDice};
use fray_core::ruleset::Ruleset;
use fray_core::session::{Input, Session};
use fray_kazzam::Kazzam;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Upper bound on decisions in one match, so a bug can never hang the terminal.
const MAX_DECISIONS: usize = 200_000;

/// A team file as it was when the match began, kept in the save so the match replays even if
/// the file changes later.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamText {
    /// Where it was read from.
    pub path: String,
    /// Its text.
    pub text: String,
}

/// A saved match: the built-in setup (or the two team files it names), the seed and the inputs
/// replay it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(bound(deserialize = "C: serde::de::DeserializeOwned", serialize = "C: Serialize"))]
pub struct Saved<C> {
    /// Game system.
    pub system: String,
    /// Seed of the dice.
    pub seed: u64,
    /// Kazzam: the home and away team files, when the match was played with `--home/--away`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teams: Option<[TeamText; 2]>,
    /// Kazzam: the table options set with `--option KEY=VALUE`, as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// Every input, in order.
    pub inputs: Vec<Input<C>>,
}

fn new_drawsteel(seed: u64) -> Result<Session<fray_drawsteel::DrawSteel>, String> {
    let blocks = fray_drawsteel::setup::builtin_blocks()?;
    let (map, units) = fray_drawsteel::setup::default_encounter();
    let mut state =
        fray_drawsteel::setup::build(&map, &blocks, &units, Default::default()).map_err(|e| e.join("\n"))?;
    let mut dice = SeededDice::new(seed);
    let journal = fray_drawsteel::start(&mut state, &mut dice, None).map_err(|e| e.to_string())?;
    Ok(Session::with_journal(state, AnyDice::Seeded(dice), journal))
}

/// What a Kazzam match starts from besides the seed: the team files and the table options.
#[derive(Clone, Debug, Default)]
pub struct MatchSetup {
    /// The home and away team files, or none for the built-in teams.
    pub teams: Option<[TeamText; 2]>,
    /// Table options as `KEY=VALUE` (docs/rulings/kazzam.md names them).
    pub options: Vec<String>,
}

fn new_session(seed: u64, m: &MatchSetup) -> Result<Session<Kazzam>, String> {
    let mut dice = SeededDice::new(seed);
    let options = fray_kazzam::options::TableOptions::from_pairs(&m.options)?;
    let setup = match &m.teams {
        Some([h, a]) => fray_kazzam::builtin::team_setup(
            (h.path.as_str(), h.text.as_str()),
            (a.path.as_str(), a.text.as_str()),
            options,
        )?,
        None => fray_kazzam::builtin::default_setup(options)?,
    };
    let (state, journal) = fray_kazzam::builtin::start(setup, &mut dice)?;
    Ok(Session::with_journal(state, AnyDice::Seeded(dice), journal))
}

fn save<R: Ruleset>(path: &str, seed: u64, m: &MatchSetup, session: &Session<R>) -> Result<(), String> {
    let saved = Saved {
        system: R::SYSTEM.into(),
        seed,
        teams: m.teams.clone(),
        options: m.options.clone(),
        inputs: session.inputs().to_vec(),
    };
    let text = serde_json::to_string_pretty(&saved).map_err(|e| e.to_string())?;
    // Write then rename, so a crash never leaves half a save behind.
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("{tmp}: {e}"))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{path}: {e}"))
}

/// Replays a saved match; a truncated or altered save gets an error naming what is wrong.
pub fn load_saved(path: &str) -> Result<Session<Kazzam>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let saved: Saved<fray_kazzam::Command> =
        serde_json::from_str(&text).map_err(|e| format!("{path}: not a saved match: {e}"))?;
    if saved.system != "kazzam" {
        return Err(format!("{path}: system {:?} cannot be replayed yet", saved.system));
    }
    let mut session = new_session(saved.seed, &MatchSetup { teams: saved.teams, options: saved.options })?;
    for (i, input) in saved.inputs.into_iter().enumerate() {
        session.apply(input).map_err(|e| format!("{path}: input {} no longer applies: {e}", i + 1))?;
    }
    Ok(session)
}

/// `fray view SAVE.json`
pub fn view_saved(path: &str, json: bool) -> Result<ExitCode, String> {
    let session = load_saved(path)?;
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

pub fn run(
    system: &str,
    seed: u64,
    seats: &[String],
    quiet: bool,
    save_to: Option<&str>,
    team_files: Option<&[String; 2]>,
    options: &[String],
) -> Result<ExitCode, String> {
    let teams = match team_files {
        Some([h, a]) if system == "kazzam" => {
            let read = |p: &String| std::fs::read_to_string(p).map_err(|e| format!("{p}: {e}"));
            Some([TeamText { path: h.clone(), text: read(h)? }, TeamText { path: a.clone(), text: read(a)? }])
        }
        Some(_) => return Err(format!("--home and --away are for kazzam, not {system}")),
        None => None,
    };
    if !options.is_empty() && system != "kazzam" {
        return Err(format!("--option is for kazzam's table options, not {system}"));
    }
    let m = MatchSetup { teams, options: options.to_vec() };
    match system {
        "kazzam" => drive(new_session(seed, &m)?, &["red", "blue"], seed, seats, quiet, save_to, &m),
        "drawsteel" => drive(new_drawsteel(seed)?, &["heroes", "director"], seed, seats, quiet, save_to, &m),
        other => Err(format!("system {other:?} cannot be played yet; try kazzam or drawsteel")),
    }
}

fn drive<R: Ruleset>(
    mut session: Session<R>,
    seat_names: &[&str],
    seed: u64,
    seats: &[String],
    quiet: bool,
    save_to: Option<&str>,
    m: &MatchSetup,
) -> Result<ExitCode, String> {
    for s in seats {
        if !seat_names.contains(&s.as_str()) {
            return Err(format!("--seat {s:?}: the seats are {}", seat_names.join(" and ")));
        }
    }
    let mut bot = RandomBot::new(seed ^ 0x5eed);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut printed = 0;
    let mut out = std::io::stdout().lock();
    let flush_journal = |session: &Session<R>, printed: &mut usize, out: &mut dyn Write| {
        if !quiet {
            for e in &session.journal()[*printed..] {
                let _ = writeln!(out, "{e}");
            }
        }
        *printed = session.journal().len();
    };
    for _ in 0..MAX_DECISIONS {
        flush_journal(&session, &mut printed, &mut out);
        let Some(d) = session.decision() else { break };
        let answer = if seats.contains(&d.seat) {
            let _ = writeln!(out, "\n{}", crate::board::render(&session.view()));
            let _ = writeln!(out, "{} ({}): {}", d.seat, d.kind, d.prompt);
            for (i, o) in d.options.iter().enumerate() {
                let _ = writeln!(out, "  {:>2}. {:<14} {}", i + 1, o.id, o.label);
            }
            loop {
                let _ = write!(out, "> ");
                let _ = out.flush();
                let Some(Ok(line)) = lines.next() else {
                    return Err("input ended before the match did".into());
                };
                let line = line.trim();
                if line == "quit" {
                    return Ok(ExitCode::SUCCESS);
                }
                let pick = line
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| d.options.get(n.wrapping_sub(1)))
                    .map(|o| o.id.clone())
                    .or_else(|| d.allows(line).then(|| line.to_string()));
                match pick {
                    Some(p) => break p,
                    None => {
                        let _ = writeln!(
                            out,
                            "choose a number from 1 to {} or an option id (quit to stop)",
                            d.options.len()
                        );
                    }
                }
            }
        } else {
            <RandomBot as Bot<R>>::choose(&mut bot, session.state(), &d)
        };
        match session.choose(&answer) {
            Err(e) => {
                let _ = writeln!(out, "refused: {e}");
            }
            Ok(_) => {
                // A choice is written down before anything else happens (DESIGN: no acknowledged choice is lost).
                if let Some(p) = save_to {
                    save(p, seed, m, &session)?;
                }
            }
        }
    }
    flush_journal(&session, &mut printed, &mut out);
    let v = session.view();
    let _ = writeln!(out, "\n{}", crate::board::render(&v));
    match R::outcome(session.state()) {
        Some(o) => {
            let _ = writeln!(out, "{}", o.summary);
            if let Some(strikes) = v.extra.get("strikes") {
                let _ = writeln!(
                    out,
                    "final score (after the Strike penalty): red {}, blue {}; strikes {strikes}",
                    o.score["red"], o.score["blue"]
                );
            }
        }
        None => {
            let _ = writeln!(out, "the match did not finish within {MAX_DECISIONS} decisions");
            return Ok(ExitCode::FAILURE);
        }
    }
    Ok(ExitCode::SUCCESS)
}
