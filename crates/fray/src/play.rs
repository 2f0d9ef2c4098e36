//! `fray play`: a match in the terminal. Bots answer for every seat nobody claimed; a person
//! at a claimed seat sees the board and the numbered options and answers at the prompt.
//! Nothing here names a system: the match is a [`Table`] from the [`Registry`].

use fray_ai::{RandomBot, TableBot};
use fray_core::game::{Node, Viewer};
use fray_core::table::{Registry, SetupRequest, System, Table, TeamText};
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Upper bound on decisions in one match, so a bug can never hang the terminal.
const MAX_DECISIONS: usize = 200_000;

/// What `fray play` was asked for.
pub struct PlayArgs<'a> {
    /// The system's id.
    pub system: &'a str,
    /// Seed of the dice and the bots.
    pub seed: u64,
    /// Seats people play at the prompt.
    pub seats: &'a [String],
    /// Print only the result.
    pub quiet: bool,
    /// Where to keep the match record as it goes.
    pub save: Option<&'a str>,
    /// Team files, one per seat, or none.
    pub teams: &'a [String],
    /// Table options as KEY=VALUE.
    pub options: &'a [String],
    /// Bots at seats as SEAT=BOT.
    pub bots: &'a [String],
    /// A built-in map's name or a map file.
    pub map: Option<&'a str>,
}

/// Checks a `--save` target: nothing there yet (`Ok(false)`) or a regular file to replace
/// (`Ok(true)`); a symlink, a device or a folder is refused, since the save replaces the file
/// whole.
fn save_target(path: &str) -> Result<bool, String> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() => Ok(true),
        Ok(m) => {
            let what = if m.file_type().is_symlink() {
                "a symbolic link"
            } else if m.is_dir() {
                "a folder"
            } else {
                "not a regular file"
            };
            Err(format!("--save {path}: it is {what}; a save replaces only a regular file"))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(format!("--save {path}: {e}")),
    }
}

/// The folder a save is written in (and its temporary file beside it).
fn save_folder(target: &std::path::Path) -> &std::path::Path {
    match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    }
}

/// An I/O error's reason alone: the temporary file's name never reaches the user.
fn reason(e: &std::io::Error) -> std::io::Error {
    std::io::Error::from(e.kind())
}

/// Writes the match record to a temporary file beside `path`, then renames it over `path`: a
/// crash never leaves half a save, and a failed write leaves nothing behind (the temporary file
/// is removed when dropped).
fn save(path: &str, table: &dyn Table) -> Result<(), String> {
    save_target(path)?;
    let text = serde_json::to_string_pretty(&table.record_json()).map_err(|e| e.to_string())?;
    let target = std::path::Path::new(path);
    let dir = save_folder(target);
    let mut builder = tempfile::Builder::new();
    builder.prefix(".fray-save-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o644));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(|e| format!("--save {path}: {}", reason(&e)))?;
    tmp.write_all(text.as_bytes()).map_err(|e| format!("--save {path}: {}", reason(&e)))?;
    tmp.persist(target).map_err(|e| format!("--save {path}: {}", reason(&e.error)))?;
    Ok(())
}

/// Replays a saved match; a truncated or altered save gets an error naming what is wrong.
pub fn load_saved(registry: &Registry, path: &str) -> Result<Box<dyn Table>, String> {
    let text = crate::input::read_text(std::path::Path::new(path))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{path}: not a saved match: {e}"))?;
    let system = json
        .get("system")
        .and_then(|s| s.as_str())
        .ok_or_else(|| format!("{path}: not a saved match: it names no system"))?;
    let sys = registry.get(system).map_err(|e| format!("{path}: {e}"))?;
    sys.replay(json).map_err(|e| format!("{path}: {e}"))
}

/// The seats' names, in seat order.
pub fn seat_names(table: &dyn Table) -> Vec<String> {
    table.seats().into_iter().map(|s| s.name).collect()
}

/// `fray view SAVE.json [--step]`
pub fn view_saved(registry: &Registry, path: &str, json: bool, step: bool) -> Result<ExitCode, String> {
    let table = load_saved(registry, path)?;
    if step {
        return step_saved(registry, path);
    }
    crate::scenarios::print_view(&table.view(Viewer::Referee), &seat_names(table.as_ref()), json)
}

/// `fray view SAVE.json --step`: the saved match from its start, one input each time Enter is
/// pressed, the board showing the options of each decision and which was taken.
fn step_saved(registry: &Registry, path: &str) -> Result<ExitCode, String> {
    let text = crate::input::read_text(std::path::Path::new(path))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{path}: not a saved match: {e}"))?;
    let system = json.get("system").and_then(|s| s.as_str()).unwrap_or_default();
    let sys = registry.get(system).map_err(|e| format!("{path}: {e}"))?;
    let inputs: Vec<serde_json::Value> = json.get("inputs").and_then(|i| i.as_array()).cloned().unwrap_or_default();
    let mut table = sys.replay_start(json).map_err(|e| format!("{path}: {e}"))?;
    let seats = seat_names(table.as_ref());
    let style = crate::board::Style::for_stdout();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout().lock();
    let mut printed = 0;
    let n = inputs.len();
    for (i, entry) in inputs.iter().enumerate() {
        for line in table.log_since(printed, Viewer::Referee) {
            let _ = writeln!(out, "{line}");
        }
        printed = table.journal_len();
        let seat = fray_core::game::Seat(entry.get("seat").and_then(|s| s.as_u64()).unwrap_or(0) as u8);
        let chosen = entry.get("choose").and_then(|c| c.as_str());
        let d = table.decision(seat);
        let v = table.view(Viewer::Referee);
        let _ = writeln!(out, "\n{}", crate::board::render(&v, &seats, d.as_ref(), style));
        let what = match (&d, chosen) {
            (Some(d), Some(id)) => {
                let at = d.options.iter().position(|o| o.id == id);
                let label = at.map(|k| format!("{}. {}", k + 1, d.options[k].label)).unwrap_or_else(|| id.to_string());
                format!("{} ({}): {}\n  chose {label}", d.seat, d.kind, d.prompt)
            }
            _ => format!(
                "{} sent {}",
                seats.get(seat.index()).cloned().unwrap_or_default(),
                entry.get("act").map(|c| c.to_string()).unwrap_or_default()
            ),
        };
        let _ = writeln!(out, "step {} of {n}: {what}", i + 1);
        let _ = write!(out, "[Enter: next step, q: stop] ");
        let _ = out.flush();
        match lines.next() {
            Some(Ok(l)) if l.trim() != "q" && l.trim() != "quit" => {}
            _ => {
                let _ = writeln!(out, "\nstopped at step {} of {n}", i + 1);
                return Ok(ExitCode::SUCCESS);
            }
        }
        let r = match (chosen, entry.get("act")) {
            (Some(id), _) => table.choose(seat, id),
            (None, Some(c)) => table.act_json(seat, c),
            _ => return Err(format!("{path}: input {} is neither a choice nor a command", i + 1)),
        };
        r.map_err(|e| format!("{path}: input {} no longer applies: {e}", i + 1))?;
    }
    for line in table.log_since(printed, Viewer::Referee) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "\n{}", crate::board::render(&table.view(Viewer::Referee), &seats, None, style));
    if let Some(o) = table.outcome() {
        let _ = writeln!(out, "{}", o.summary);
    }
    let _ = writeln!(out, "end of the saved match ({n} steps)");
    Ok(ExitCode::SUCCESS)
}

/// What a person asked a match to start from: team files (or built-in teams), a map file (or
/// a built-in map) and table options.
pub fn request(
    sys: &dyn System,
    teams: &[String],
    map: Option<&str>,
    options: &[String],
) -> Result<SetupRequest, String> {
    // A file if there is one by that name, else a built-in team or map of that name.
    let read = |p: &str, builtin: Option<&'static str>| match (std::path::Path::new(p).exists(), builtin) {
        (false, Some(text)) => Ok(TeamText { path: p.to_string(), text: text.into() }),
        (false, None) => Err(format!("{p}: no such file, and there is no built-in team or map of that name")),
        (true, _) => {
            crate::input::read_text(std::path::Path::new(p)).map(|text| TeamText { path: p.to_string(), text })
        }
    };
    let teams = teams.iter().map(|p| read(p, sys.builtin_team(p))).collect::<Result<Vec<_>, String>>()?;
    let map = map.map(|m| read(m, sys.builtin_map(m))).transpose()?;
    Ok(SetupRequest { teams, options: options.to_vec(), map })
}

/// `fray play SYSTEM`
pub fn run(systems: &crate::Systems, args: &PlayArgs) -> Result<ExitCode, String> {
    let sys = systems.registry.get(args.system)?;
    sys.playable()?;
    let names = sys.seat_names();
    for (i, s) in args.seats.iter().enumerate() {
        if !names.contains(s) {
            return Err(format!("--seat {s:?}: the seats are {}", names.join(" and ")));
        }
        if args.seats[..i].contains(s) {
            return Err(format!("--seat {s:?} is given twice"));
        }
    }
    if let Some(p) = args.save {
        if save_target(p)? {
            eprintln!("note: --save {p}: the saved match there will be overwritten");
        }
        let dir = save_folder(std::path::Path::new(p));
        if !dir.is_dir() {
            return Err(format!("--save {p}: there is no folder {}", dir.display()));
        }
    }
    let request = request(sys.as_ref(), args.teams, args.map, args.options)?;
    let mut table = sys.new_table(&request, args.seed).map_err(|e| e.to_string())?;
    let seat_infos = table.seats();
    let specs = crate::sim::parse_bots(args.bots, &seat_infos.iter().map(|s| s.name.clone()).collect::<Vec<_>>())?;
    if let Some(s) =
        args.seats.iter().find(|s| seat_infos.iter().position(|i| &i.name == *s).is_some_and(|i| specs[i].is_some()))
    {
        return Err(format!("--seat {s} is played by a person, so it takes no bot"));
    }
    // Each seat's bot seeded as `fray sim` seeds it, so a simulated match replays here.
    let mut bots: Vec<Option<Box<dyn TableBot>>> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        bots.push(match spec {
            None => None,
            Some(spec) => {
                let maker = systems.bots(args.system).ok_or_else(|| format!("{} has no bots", args.system))?;
                Some(maker.make(spec, fray_sim::seat_bot_seed(args.seed, fray_core::game::Seat(i as u8))))
            }
        });
    }
    drive(sys.as_ref(), table.as_mut(), args, &mut bots)
}

fn drive(
    sys: &dyn System,
    table: &mut dyn Table,
    args: &PlayArgs,
    bots: &mut [Option<Box<dyn TableBot>>],
) -> Result<ExitCode, String> {
    let seat_infos = table.seats();
    let seat_names = seat_names(table);
    let style = crate::board::Style::for_stdout();
    let people =
        |seat: fray_core::game::Seat| seat_infos.get(seat.index()).is_some_and(|s| args.seats.contains(&s.name));
    // A person sees what their seat may know; with nobody at the table the log is the referee's.
    let viewer = match args.seats.first().and_then(|p| seat_infos.iter().position(|s| s.name == *p)) {
        Some(i) if args.seats.len() == 1 => Viewer::Seat(fray_core::game::Seat(i as u8)),
        _ => Viewer::Referee,
    };
    let mut bot = RandomBot::new(fray_sim::shared_bot_seed(args.seed));
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut printed = 0;
    let mut out = std::io::stdout().lock();
    let mut legal = Vec::new();
    let flush = |table: &dyn Table, printed: &mut usize, out: &mut dyn Write| {
        if !args.quiet {
            for line in table.log_since(*printed, viewer) {
                let _ = writeln!(out, "{line}");
            }
        }
        *printed = table.journal_len();
    };
    for _ in 0..MAX_DECISIONS {
        flush(table, &mut printed, &mut out);
        let Node::Decide { seats, .. } = table.node() else { break };
        let Some(seat) = seats.first() else { break };
        let result = if people(seat) {
            let Some(d) = table.decision(seat) else { break };
            let notes = table.notes(seat);
            // The unit list is left off while the board numbers squares or targets (the list
            // of options names them); `board` draws everything.
            let show = |out: &mut dyn Write, all: bool| {
                let v = table.view(Viewer::Seat(seat));
                let board = crate::board::board(&v, &seat_names, Some(&d), &notes, style);
                let marks = crate::board::option_squares(&v, &d).iter().any(|p| p.is_some());
                let roster = if all || !marks { crate::board::roster(&v, &seat_names, style) } else { String::new() };
                let _ = writeln!(out, "\n{board}{roster}");
                let _ = write!(out, "{}", options_text(&v, &d, &notes, &seat_names, style));
            };
            show(&mut out, false);
            let answer = loop {
                let _ = write!(out, "> ");
                let _ = out.flush();
                let Some(Ok(line)) = lines.next() else {
                    return Err("input ended before the match did".into());
                };
                let line = line.trim();
                let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
                let rest = rest.trim();
                match word {
                    "quit" => return Ok(ExitCode::SUCCESS),
                    "" => continue,
                    "help" | "?" => {
                        let _ = writeln!(out, "{}", HELP);
                        continue;
                    }
                    "board" => {
                        show(&mut out, true);
                        continue;
                    }
                    "info" => {
                        let v = table.view(Viewer::Seat(seat));
                        let _ = write!(out, "{}", info(sys, &v, &d, rest));
                        continue;
                    }
                    "rules" => {
                        let _ = write!(out, "{}", rules(sys, rest));
                        continue;
                    }
                    _ => {}
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
                            "choose a number from 1 to {} or an option id; `info N` tells what option N does, `rules TERM` looks a rule up, `help` for more, `quit` to stop",
                            d.options.len()
                        );
                    }
                }
            };
            table.choose(seat, &answer)
        } else {
            table.legal(seat, &mut legal);
            if legal.is_empty() {
                return Err("the match asks a seat that has nothing to choose (a rules bug)".into());
            }
            let a = match bots.get_mut(seat.index()).and_then(|b| b.as_mut()) {
                Some(b) => b.choose_at(table, seat, &legal),
                None => bot.choose_at(table, seat, &legal),
            };
            table.apply(seat, a)
        };
        match result {
            Err(e) => {
                let _ = writeln!(out, "refused: {e}");
            }
            Ok(_) => {
                // A choice is written down before anything else happens (DESIGN: no acknowledged choice is lost).
                if let Some(p) = args.save {
                    save(p, table)?;
                }
            }
        }
    }
    flush(table, &mut printed, &mut out);
    let v = table.view(viewer);
    let _ = writeln!(out, "\n{}", crate::board::render(&v, &seat_names, None, style));
    match table.outcome() {
        Some(o) => {
            let _ = writeln!(out, "{}", o.summary);
            if let Some(strikes) = v.extra.get("strikes") {
                let score: Vec<String> =
                    seat_infos.iter().filter_map(|s| o.score.get(&s.name).map(|v| format!("{} {v}", s.name))).collect();
                let _ =
                    writeln!(out, "final score (after the Strike penalty): {}; strikes {strikes}", score.join(", "));
            }
        }
        None => {
            let _ = writeln!(out, "the match did not finish within {MAX_DECISIONS} decisions");
            return Ok(ExitCode::FAILURE);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What the prompt understands besides an option's number or id.
const HELP: &str = "\
at the prompt:
  N or ID     take option N (its number) or the option with that id (a square as x,y)
  info N      what option N does: the look-up text of its power, ability or action, or the
              unit it names
  rules TERM  look a rule, status, power or creature up (as `fray rules SYSTEM TERM`)
  board       draw the board and the options again
  quit        stop the match (a --save keeps what was played)";

/// More square options than this are listed several to a line.
const COMPACT_OVER: usize = 12;

/// The decision's question and its numbered options: a target's side, distance and HP, and
/// each option's note (Opportunities it grants, a turn it ends).
fn options_text(
    v: &fray_core::view::View,
    d: &fray_core::decision::Decision,
    notes: &[String],
    seats: &[String],
    style: crate::board::Style,
) -> String {
    let mut out = format!("{} ({}): {}\n", d.seat, d.kind, d.prompt);
    let glyphs = crate::board::glyphs(v, seats);
    let me = d.unit.as_ref().and_then(|u| v.units.get(u));
    let note = |i: usize| notes.get(i).filter(|n| !n.is_empty());
    let compact = d.options.iter().filter(|o| o.square.is_some()).count() > COMPACT_OVER;
    let (mut row, mut full): (Vec<String>, String) = (Vec::new(), String::new());
    for (i, o) in d.options.iter().enumerate() {
        if compact && o.square.is_some() {
            let id = if note(i).is_some() { format!("{}!", o.id) } else { o.id.clone() };
            row.push(format!("{:>3}. {id:<7}", i + 1));
            if row.len() == 8 {
                out.push_str(&format!("{}\n", row.concat().trim_end()));
                row.clear();
            }
            continue;
        }
        let mut line = format!("  {:>2}. {:<14} {}", i + 1, o.id, o.label);
        if let Some(t) = v.units.get(&o.id) {
            let dist = match (me.and_then(|m| m.at.map(|p| (p, m.size))), t.at) {
                (Some((a, asz)), Some(b)) => {
                    let n = fray_core::geometry::distance(a, asz, b, t.size);
                    if n == 1 { ", adjacent".to_string() } else { format!(", {n} squares away") }
                }
                _ => String::new(),
            };
            let side = match me {
                Some(m) if m.team == t.team => " (ally)",
                Some(_) => " (enemy)",
                None => "",
            };
            line.push_str(&format!("  [{} {}{side}{dist}, {}/{} HP]", glyphs[&o.id], t.team, t.hp, t.max_hp));
        }
        if let Some(n) = note(i) {
            line.push_str(&format!("  {}", style.paint(&format!("! {n}"), "1;33")));
        }
        full.push_str(&line);
        full.push('\n');
    }
    if !row.is_empty() {
        out.push_str(&format!("{}\n", row.concat().trim_end()));
    }
    if compact {
        // The listed squares' warnings, each once with the options it concerns.
        let mut said: Vec<(&String, Vec<String>)> = Vec::new();
        for (i, o) in d.options.iter().enumerate() {
            if let (Some(n), Some(_)) = (note(i), o.square) {
                match said.iter_mut().find(|(m, _)| *m == n) {
                    Some((_, at)) => at.push((i + 1).to_string()),
                    None => said.push((n, vec![(i + 1).to_string()])),
                }
            }
        }
        for (n, at) in said {
            out.push_str(&format!("  {}: {}\n", style.paint(&format!("! {n}"), "1;33"), at.join(", ")));
        }
    }
    out.push_str(&full);
    out.push_str("(a number or an option id; info N, rules TERM, board, help, quit)\n");
    out
}

/// `info ARG` at the prompt: the look-up text of the option numbered or named ARG (its power,
/// ability or action), or of the unit it names; any other ARG is looked up as a term.
fn info(sys: &dyn System, v: &fray_core::view::View, d: &fray_core::decision::Decision, arg: &str) -> String {
    if arg.is_empty() {
        return "info N: what option N does (N its number or its id)\n".into();
    }
    let option = arg
        .parse::<usize>()
        .ok()
        .and_then(|n| d.options.get(n.wrapping_sub(1)))
        .or_else(|| d.options.iter().find(|o| o.id == arg));
    let Some(o) = option else { return rules(sys, arg) };
    let entries = match sys.rules_index() {
        Ok(e) => e,
        Err(e) => return format!("{e}\n"),
    };
    let term = o.id.split_once(':').map(|(_, t)| t).unwrap_or(&o.id);
    let exact: Vec<&fray_core::lookup::Entry> =
        entries.iter().filter(|e| e.id.eq_ignore_ascii_case(term) || e.name.eq_ignore_ascii_case(term)).collect();
    if !exact.is_empty() {
        return exact.iter().map(|e| crate::lookup::entry_text(e) + "\n").collect();
    }
    // An id made of parts joined by `+` (a Dojo Stance, `style+form`): each part's entry.
    if term.contains('+') {
        let parts: Vec<&fray_core::lookup::Entry> = term
            .split('+')
            .filter_map(|p| {
                entries.iter().find(|e| {
                    e.id.eq_ignore_ascii_case(p)
                        || e.id.rsplit_once(':').is_some_and(|(_, tail)| tail.eq_ignore_ascii_case(p))
                })
            })
            .collect();
        if !parts.is_empty() {
            return parts.iter().map(|e| crate::lookup::entry_text(e) + "\n").collect();
        }
    }
    if let Some(u) = v.units.get(&o.id) {
        let mut text = format!("{} ({}, {}): {}/{} HP", u.name, o.id, u.team, u.hp, u.max_hp);
        if let Some(at) = u.at {
            text.push_str(&format!(" at ({},{})", at.x, at.y));
        }
        text.push('\n');
        for st in &u.status_details {
            let amount = st.amount.map(|a| format!(" {a}")).unwrap_or_default();
            text.push_str(&format!("  {}{amount}: {}\n", st.name, st.duration));
        }
        if let Some(ps) = u.extra.get("powers").and_then(|p| p.as_array()) {
            let ps: Vec<&str> = ps.iter().filter_map(|p| p.as_str()).collect();
            text.push_str(&format!("  powers: {} (rules NAME tells what one does)\n", ps.join(", ")));
        }
        return text;
    }
    let found = fray_core::lookup::search(&entries, term);
    let found = if found.is_empty() { fray_core::lookup::search(&entries, &o.label) } else { found };
    if found.is_empty() {
        return format!("option {}: {} — nothing to look up for it; try rules TERM\n", o.id, o.label);
    }
    found.iter().take(3).map(|e| crate::lookup::entry_text(e) + "\n").collect()
}

/// `rules TERM` at the prompt: what `fray rules SYSTEM TERM` prints.
fn rules(sys: &dyn System, term: &str) -> String {
    if term.is_empty() {
        return "rules TERM: look a rule, status, power or creature up\n".into();
    }
    let entries = match sys.rules_index() {
        Ok(e) => e,
        Err(e) => return format!("{e}\n"),
    };
    let found = fray_core::lookup::search(&entries, term);
    if found.is_empty() {
        return format!("nothing found for {term:?}; `fray rules {} --list` lists every entry\n", sys.id());
    }
    found.iter().map(|e| crate::lookup::entry_text(e) + "\n").collect()
}
