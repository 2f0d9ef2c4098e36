//! `fray sim collision --points-study`: the designer's question for Collision's point-buy
//! battles, win rate against points spent. Each match draws two battle groups of different sizes
//! ([`fray_collision::study::draw`]), the system's lab plays them with the chosen bots, and the
//! richer side's results are printed by point difference with 95% intervals.

use fray_collision::study::{self, Band, Played};
use fray_core::table::SetupRequest;
use rayon::prelude::*;
use std::process::ExitCode;

/// What the study was asked for.
pub struct Study<'a> {
    pub matches: u64,
    pub seed: u64,
    pub jobs: Option<usize>,
    pub bots: &'a [String],
    pub options: &'a [String],
    pub json: bool,
}

fn table(title: &str, bands: &[Band]) -> String {
    let mut out = format!("{title}\n");
    out.push_str(&format!(
        "{:<12} {:>7} {:>6} {:>6} {:>6} {:>7}  95% interval\n",
        "", "battles", "wins", "draws", "losses", "score"
    ));
    for b in bands {
        let r = fray_sim::stats::wilson(b.wins as f64 + b.draws as f64 / 2.0, b.battles as f64);
        out.push_str(&format!(
            "{:<12} {:>7} {:>6} {:>6} {:>6} {:>6.1}%  {:.1}% to {:.1}%\n",
            b.label,
            b.battles,
            b.wins,
            b.draws,
            b.losses,
            r.rate * 100.0,
            r.low * 100.0,
            r.high * 100.0
        ));
    }
    out
}

/// `fray sim SYSTEM --points-study`: only Collision's, and without the flags of other studies.
pub fn command(systems: &crate::Systems, system: &str, s: &Study, others: bool) -> Result<ExitCode, String> {
    if system != "collision" {
        return Err(format!("--points-study is Collision's study (fray sim collision --points-study), not {system}'s"));
    }
    if others {
        return Err(
            "--points-study draws its own groups: it takes --matches, --seed, --jobs, --bot, --option and --json only"
                .into(),
        );
    }
    run(&*systems.lab(system)?, s)
}

/// Runs the study on `lab` (Collision's).
pub fn run(lab: &dyn fray_sim::Lab, s: &Study) -> Result<ExitCode, String> {
    let seats = lab.seats(&SetupRequest::default())?;
    let bots = crate::sim::parse_bots(s.bots, &seats)?;
    if s.matches == 0 || s.matches > 10_000_000 {
        return Err("--matches must be from 1 to 10000000".into());
    }
    let content = fray_collision::Content::builtin()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(s.jobs.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start the threads: {e}"))?;
    let started = std::time::Instant::now();
    let played: Vec<Played> = pool.install(|| {
        (0..s.matches)
            .into_par_iter()
            .map(|i| {
                let seed = fray_sim::match_seed(s.seed, i);
                let d = study::draw(&content, seed)?;
                let request = SetupRequest { teams: d.teams.to_vec(), options: s.options.to_vec(), map: None };
                let m = lab.play(&request, seed, &bots)?;
                Ok(Played { points: d.points, winner: if m.finished { m.winner } else { None } })
            })
            .collect::<Result<Vec<_>, String>>()
    })?;
    let (lead, ratio) = (study::by_lead(&played), study::by_ratio(&played));
    if s.json {
        let rows = |bands: &[Band]| -> Vec<serde_json::Value> {
            bands
                .iter()
                .map(|b| {
                    serde_json::json!({"band": b.label, "battles": b.battles, "wins": b.wins, "draws": b.draws, "losses": b.losses})
                })
                .collect()
        };
        let v = serde_json::json!({"system": "collision", "study": "points", "matches": played.len(), "seed": s.seed,
            "by_lead": rows(&lead), "by_ratio": rows(&ratio)});
        println!("{}", serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("Collision points study: {} battles between random parts of Fray's battle groups", played.len());
    println!("(the side that spent more points: its wins, draws and losses; score counts a draw half)\n");
    print!("{}", table("By how many points more it spent:", &lead));
    println!();
    print!("{}", table("By the ratio of its total to the other's (equal totals left out):", &ratio));
    let (red, blue) =
        (played.iter().filter(|p| p.winner == Some(0)).count(), played.iter().filter(|p| p.winner == Some(1)).count());
    let mean = played.iter().map(|p| f64::from(p.points[0] + p.points[1]) / 2.0).sum::<f64>() / played.len() as f64;
    println!(
        "\nSeats: red won {red}, blue {blue}, {} drawn or unfinished; groups averaged {mean:.0} points",
        played.len() - red - blue
    );
    println!(
        "{} battles in {:.1} s on {} threads",
        played.len(),
        started.elapsed().as_secs_f64(),
        pool.current_num_threads()
    );
    Ok(ExitCode::SUCCESS)
}
