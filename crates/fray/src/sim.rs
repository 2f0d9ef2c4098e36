//! `fray sim`: many bot matches in parallel, reported with intervals; `--compare` plays the
//! same seeds with a content variant; `fray sim merge` adds up shards of one study. Nothing
//! here names a system: the matches are played by the system's [`fray_sim::Lab`].

use fray_ai::BotSpec;
use fray_sim::{Comparison, Lab, Plan, Totals};
use indicatif::{ProgressBar, ProgressStyle};
use std::process::ExitCode;
use std::sync::Arc;

/// What `fray sim` was asked for.
pub struct SimArgs<'a> {
    pub system: &'a str,
    pub matches: u64,
    pub seed: u64,
    pub jobs: Option<usize>,
    pub bots: &'a [String],
    pub swap: bool,
    pub teams: Vec<String>,
    pub map: Option<&'a str>,
    pub options: &'a [String],
    pub shard: Option<&'a str>,
    pub compare: Option<&'a str>,
    pub json: bool,
    pub csv: Option<&'a str>,
    pub plot: Option<&'a str>,
}

/// Reads `SEAT=BOT` flags into a bot for each of `seats` (`None`: the shared random bot).
pub fn parse_bots(flags: &[String], seats: &[String]) -> Result<Vec<Option<BotSpec>>, String> {
    let mut bots = vec![None; seats.len()];
    for f in flags {
        let Some((seat, spec)) = f.split_once('=') else {
            return Err(format!("--bot {f:?}: write SEAT=BOT, e.g. {}=greedy", seats.first().map_or("red", |s| s)));
        };
        let Some(i) = seats.iter().position(|s| s == seat) else {
            return Err(format!("--bot {f:?}: no seat {seat:?}; the seats are {}", seats.join(", ")));
        };
        if bots[i].is_some() {
            return Err(format!("seat {seat} is given two bots"));
        }
        bots[i] = Some(spec.parse::<BotSpec>().map_err(|e| format!("--bot {f:?}: {e}"))?);
    }
    Ok(bots)
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard {s:?}: write K/N with 1 <= K <= N, e.g. 2/4");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// Plays the plan with a progress bar on the terminal (none when output is not a terminal).
fn play(lab: &dyn Lab, plan: &Plan, what: &str) -> Result<Vec<fray_sim::MatchResult>, String> {
    let bar = ProgressBar::new(plan.indices().len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} {wide_bar} {pos}/{len} matches, {elapsed} gone, about {eta} to go")
            .map_err(|e| e.to_string())?,
    );
    bar.set_message(what.to_string());
    let results = fray_sim::run(lab, plan, &|done| bar.set_position(done));
    bar.finish_and_clear();
    results
}

fn totals(
    lab: &dyn Lab,
    plan: &Plan,
    teams: &[String],
    what: &str,
) -> Result<(Totals, Vec<fray_sim::MatchResult>), String> {
    let seats = lab.seats(&plan.request)?;
    let results = play(lab, plan, what)?;
    let mut t = Totals::new(lab.system(), seats, plan, teams.to_vec());
    for m in &results {
        t.add(m);
    }
    Ok((t, results))
}

/// The command that replays match `m` of the plan in the terminal: the bots the match had at
/// each seat (after any swap), the seats without one left to the shared random bot as there.
fn replay_command(args: &SimArgs, plan: &Plan, seats: &[String], m: &fray_sim::MatchResult) -> String {
    let mut cmd = format!("fray play {} --seed {}", args.system, m.seed);
    for (i, (seat, bot)) in seats.iter().zip(plan.bots_of(m.index)).enumerate() {
        match bot {
            Some(bot) if i < 2 => cmd.push_str(&format!(" --{seat} {bot}")),
            Some(bot) => cmd.push_str(&format!(" --bot {seat}={bot}")),
            None => {}
        }
    }
    if let [home, away] = args.teams.as_slice() {
        cmd.push_str(&format!(" --home {home} --away {away}"));
    }
    if let Some(map) = args.map {
        cmd.push_str(&format!(" --map {map}"));
    }
    for o in args.options {
        cmd.push_str(&format!(" --option {o}"));
    }
    cmd
}

/// `fray sim SYSTEM`
pub fn run(systems: &crate::Systems, args: &SimArgs) -> Result<ExitCode, String> {
    let lab = systems.lab(args.system)?;
    let request =
        crate::play::request(systems.registry.get(args.system)?.as_ref(), &args.teams, args.map, args.options)?;
    let seats = lab.seats(&request)?;
    let bots = parse_bots(args.bots, &seats)?;
    if args.matches == 0 || args.matches > 100_000_000 {
        return Err("--matches must be from 1 to 100000000".into());
    }
    let shard = args.shard.map(parse_shard).transpose()?;
    if let Some(0) = args.jobs {
        return Err("--jobs must be at least 1".into());
    }
    let plan = Plan { request, bots, matches: args.matches, seed: args.seed, swap: args.swap, shard };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start the threads: {e}"))?;
    let started = std::time::Instant::now();
    pool.install(|| -> Result<ExitCode, String> {
        let (base, results) = totals(&*lab, &plan, &args.teams, "built-in")?;
        if let Some(path) = args.csv {
            std::fs::write(path, fray_sim::report::csv(&seats, &results)).map_err(|e| format!("{path}: {e}"))?;
        }
        let comparison = match args.compare {
            None => None,
            Some(dir) => {
                let variant: Arc<dyn Lab> = crate::variant_lab(args.system, std::path::Path::new(dir))?;
                let (v, _) = totals(&*variant, &plan, &args.teams, "variant")?;
                Some(Comparison::new(base.clone(), v))
            }
        };
        let mut written = Vec::new();
        if let Some(dir) = args.plot {
            let dir = std::path::Path::new(dir);
            written = match &comparison {
                Some(c) => fray_sim::plot::write_comparison(dir, c)?,
                None => fray_sim::plot::write(dir, &base)?,
            };
        }
        if args.json {
            let v = match &comparison {
                Some(c) => c.json(),
                None => base.json(),
            };
            println!("{}", serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?);
        } else {
            match &comparison {
                Some(c) => print!("{}", c.text()),
                None => print!("{}", base.text()),
            }
            if let Some(first) = results.first() {
                println!("\nreplay a match: {}", replay_command(args, &plan, &seats, first));
                if args.csv.is_none() {
                    println!("(--csv FILE lists every match's seed and result)");
                }
            }
            let secs = started.elapsed().as_secs_f64();
            println!("{} matches in {secs:.1} s on {} threads", results.len(), rayon::current_num_threads());
            for f in &written {
                println!("wrote {}", f.display());
            }
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// `fray sim merge A.json B.json …`
pub fn merge(files: &[String], json: bool, plot: Option<&str>) -> Result<ExitCode, String> {
    if files.is_empty() {
        return Err("give the JSON reports to merge: fray sim merge A.json B.json".into());
    }
    let mut total: Option<Totals> = None;
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        let t: Totals =
            serde_json::from_str(&text).map_err(|e| format!("{f}: not a `fray sim --json` report of one run: {e}"))?;
        match &mut total {
            None => total = Some(t),
            Some(acc) => acc.merge(&t).map_err(|e| format!("{f}: {e}"))?,
        }
    }
    let total = total.expect("at least one file");
    if let Some(dir) = plot {
        for f in fray_sim::plot::write(std::path::Path::new(dir), &total)? {
            eprintln!("wrote {}", f.display());
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&total.json()).map_err(|e| e.to_string())?);
    } else {
        print!("{}", total.text());
        if total.shards.len() as u64 != total.shard_count {
            println!("(shards {:?} of {}: the study is not complete yet)", total.shards, total.shard_count);
        }
    }
    Ok(ExitCode::SUCCESS)
}
