//! Adding matches up: [`Totals`] holds only counts and sums, so shards of one study merge
//! exactly ([`Totals::merge`]); the rates, intervals and means are worked out from them when a
//! report is written ([`Totals::summary`]).

use crate::stats::{Difference, Rate, difference, mean_sd, wilson};
use crate::{MatchResult, Plan};
use fray_core::tally::Tally;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Wins, draws and losses of a seat or a bot.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Matches played (finished or not).
    pub matches: u64,
    /// Won.
    pub wins: u64,
    /// Drawn (or unfinished).
    pub draws: u64,
    /// Lost.
    pub losses: u64,
    /// Points scored over all matches.
    pub points: i64,
}

impl Record {
    fn add(&mut self, won: Option<bool>, points: i64) {
        self.matches += 1;
        self.points += points;
        match won {
            Some(true) => self.wins += 1,
            Some(false) => self.losses += 1,
            None => self.draws += 1,
        }
    }
    fn merge(&mut self, o: &Record) {
        self.matches += o.matches;
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        self.points += o.points;
    }
    /// Wins over matches, with its interval.
    pub fn win_rate(&self) -> Rate {
        wilson(self.wins as f64, self.matches as f64)
    }
    /// Wins and half the draws over matches, with its interval.
    pub fn score_rate(&self) -> Rate {
        wilson(self.wins as f64 + 0.5 * self.draws as f64, self.matches as f64)
    }
}

/// A study's counts: everything a report says, added up over matches in seed order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// The system.
    pub system: String,
    /// Seat names, in order.
    pub seats: Vec<String>,
    /// The bot at each seat as planned (before swaps).
    pub bots: Vec<String>,
    /// Team files and table options (as given).
    pub teams: Vec<String>,
    /// Table options.
    pub options: Vec<String>,
    /// The study's seed.
    pub seed: u64,
    /// Matches in the whole study.
    pub planned: u64,
    /// Whether bots swapped seats every other match.
    pub swap: bool,
    /// The shards (1-based) these totals hold, out of how many (`[1]` of 1 for a whole run).
    pub shards: Vec<u64>,
    /// Shards the study was split into.
    pub shard_count: u64,
    /// Matches added up here.
    pub matches: u64,
    /// Matches that hit the decision limit.
    pub unfinished: u64,
    /// By seat.
    pub by_seat: Vec<Record>,
    /// By bot (its name at whichever seat it sat).
    pub by_bot: BTreeMap<String, Record>,
    /// Score margins of the first seat over the second: how many matches ended with each.
    pub margins: BTreeMap<i64, u64>,
    /// Sum and sum of squares of decisions a match.
    pub decisions: (f64, f64),
    /// What the events counted, summed over matches.
    pub tally: Tally,
}

/// A line's field that a tally category fills ([`Totals::spread`]).
type Field<L> = fn(&mut L) -> &mut f64;

impl Totals {
    /// Empty totals for `plan` of `system` with these seats.
    pub fn new(system: &str, seats: Vec<String>, plan: &Plan, teams: Vec<String>) -> Self {
        let (shards, shard_count) = match plan.shard {
            Some((k, n)) => (vec![k], n),
            None => (vec![1], 1),
        };
        Totals {
            system: system.to_string(),
            bots: (0..seats.len())
                .map(|i| plan.bots.get(i).cloned().flatten().map(|b| b.to_string()).unwrap_or_else(|| "random".into()))
                .collect(),
            by_seat: vec![Record::default(); seats.len()],
            seats,
            teams,
            options: plan.request.options.clone(),
            seed: plan.seed,
            planned: plan.matches,
            swap: plan.swap,
            shards,
            shard_count,
            ..Default::default()
        }
    }

    /// How many of the seats are sides that can win: all of them up to a `neutral` one (Kazzam's
    /// Creeps, nobody's), so a Dojo three-way battle's rivals count too.
    fn playing(&self) -> usize {
        self.seats.iter().take_while(|s| s.as_str() != "neutral").count()
    }

    /// Adds one match.
    pub fn add(&mut self, m: &MatchResult) {
        self.matches += 1;
        if !m.finished {
            self.unfinished += 1;
        }
        let playing = self.playing();
        for (i, record) in self.by_seat.iter_mut().enumerate().take(playing) {
            let won = m.winner.map(|w| w == i);
            record.add(won, m.score.get(i).copied().unwrap_or(0));
            let bot = m.bots.get(i).cloned().unwrap_or_else(|| "random".into());
            self.by_bot.entry(bot).or_default().add(won, m.score.get(i).copied().unwrap_or(0));
        }
        if m.score.len() >= 2 {
            *self.margins.entry(m.score[0] - m.score[1]).or_default() += 1;
        }
        let d = m.decisions as f64;
        self.decisions.0 += d;
        self.decisions.1 += d * d;
        self.tally.merge(&m.tally);
    }

    /// Adds up another shard of the same study; refused if it is another study or a shard
    /// already here.
    pub fn merge(&mut self, o: &Totals) -> Result<(), String> {
        let same = self.system == o.system
            && self.seats == o.seats
            && self.bots == o.bots
            && self.teams == o.teams
            && self.options == o.options
            && self.seed == o.seed
            && self.planned == o.planned
            && self.swap == o.swap
            && self.shard_count == o.shard_count;
        if !same {
            return Err("these reports are not shards of one study (system, seats, bots, teams, options, seed, \
                        matches, swap and shard count must all agree)"
                .into());
        }
        if let Some(k) = o.shards.iter().find(|k| self.shards.contains(k)) {
            return Err(format!("shard {k}/{} is given twice", self.shard_count));
        }
        self.shards.extend(&o.shards);
        self.shards.sort_unstable();
        self.matches += o.matches;
        self.unfinished += o.unfinished;
        for (a, b) in self.by_seat.iter_mut().zip(&o.by_seat) {
            a.merge(b);
        }
        for (k, r) in &o.by_bot {
            self.by_bot.entry(k.clone()).or_default().merge(r);
        }
        for (k, n) in &o.margins {
            *self.margins.entry(*k).or_default() += n;
        }
        self.decisions.0 += o.decisions.0;
        self.decisions.1 += o.decisions.1;
        self.tally.merge(&o.tally);
        Ok(())
    }

    /// Lines by key (a power, a creature), each field a tally category per match: `fields`
    /// pairs a category with the field of the line it fills.
    fn spread<L: Default>(&self, fields: &[(&str, Field<L>)]) -> BTreeMap<String, L> {
        let n = self.matches as f64;
        let mut lines: BTreeMap<String, L> = BTreeMap::new();
        for (category, field) in fields {
            for (key, v) in self.tally.counts.get(*category).into_iter().flatten() {
                *field(lines.entry(key.clone()).or_default()) = if n > 0.0 { v / n } else { 0.0 };
            }
        }
        lines
    }

    /// Rates, intervals and means worked out from the counts.
    pub fn summary(&self) -> Summary {
        let n = self.matches as f64;
        let per_match = |v: f64| if n > 0.0 { v / n } else { 0.0 };
        let (decisions_mean, decisions_sd) = mean_sd(n, self.decisions.0, self.decisions.1);
        let line = |name: String, r: &Record| Line {
            name,
            matches: r.matches,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            points_per_match: if r.matches > 0 { r.points as f64 / r.matches as f64 } else { 0.0 },
            win_rate: r.win_rate(),
            score_rate: r.score_rate(),
        };
        let playing = self.playing();
        let seats = self
            .seats
            .iter()
            .zip(&self.by_seat)
            .take(playing)
            .enumerate()
            .map(|(i, (s, r))| {
                let bot = self.bots.get(i).map(String::as_str).unwrap_or("random");
                line(if self.swap { s.clone() } else { format!("{s} ({bot})") }, r)
            })
            .collect();
        let bots = self.by_bot.iter().map(|(k, r)| line(k.clone(), r)).collect();
        let per_power = self.spread::<PowerLine>(&[
            ("power uses", |p| &mut p.uses),
            ("power attacks", |p| &mut p.attacks),
            ("power hits", |p| &mut p.hits),
            ("power damage", |p| &mut p.damage),
            ("power take outs", |p| &mut p.take_outs),
        ]);
        let per_creature = self.spread::<CreatureLine>(&[
            ("damage dealt", |c| &mut c.damage_dealt),
            ("damage taken", |c| &mut c.damage_taken),
            ("take outs", |c| &mut c.take_outs),
            ("taken out", |c| &mut c.taken_out),
            ("strikes", |c| &mut c.strikes),
        ]);
        let points_by_source = self
            .tally
            .counts
            .get("points")
            .map(|k| k.iter().map(|(s, v)| (s.clone(), per_match(*v))).collect())
            .unwrap_or_default();
        let stance_picks = self
            .tally
            .counts
            .get("stance picks")
            .map(|k| k.iter().map(|(s, v)| (s.clone(), per_match(*v))).collect())
            .unwrap_or_default();
        Summary {
            stance_picks,
            matches: self.matches,
            unfinished: self.unfinished,
            seats,
            bots,
            decisions_mean,
            decisions_sd,
            rounds_mean: per_match(self.tally.get("match", "rounds")),
            strikes_per_match: per_match(
                self.tally.counts.get("strikes").map(|k| k.values().sum::<f64>()).unwrap_or(0.0),
            ),
            points_by_source,
            per_power,
            per_creature,
        }
    }

    /// The report for a person.
    pub fn text(&self) -> String {
        let s = self.summary();
        let mut out = String::new();
        let pct = |r: &Rate| format!("{:5.1}% [{:4.1}–{:4.1}]", 100.0 * r.rate, 100.0 * r.low, 100.0 * r.high);
        let _ = writeln!(
            out,
            "{} matches of {} (seed {}{}{}), {} unfinished",
            s.matches,
            self.system,
            self.seed,
            if self.swap { ", bots swap seats every other match" } else { "" },
            if self.shard_count > 1 {
                format!(", shards {:?} of {}", self.shards, self.shard_count)
            } else {
                String::new()
            },
            s.unfinished
        );
        let table = |out: &mut String, title: &str, lines: &[Line]| {
            let _ = writeln!(
                out,
                "\n{title:<24} {:>6} {:>6} {:>6}   {:<22} {:<22} pts/match",
                "wins", "draws", "losses", "win rate (95%)", "score rate (95%)"
            );
            for l in lines {
                let _ = writeln!(
                    out,
                    "{:<24} {:>6} {:>6} {:>6}   {:<22} {:<22} {:.2}",
                    l.name,
                    l.wins,
                    l.draws,
                    l.losses,
                    pct(&l.win_rate),
                    pct(&l.score_rate),
                    l.points_per_match
                );
            }
        };
        table(&mut out, "by seat", &s.seats);
        if s.bots.len() > 1 {
            table(&mut out, "by bot", &s.bots);
        }
        let _ = write!(
            out,
            "\nmatch length: {:.0} decisions (sd {:.0}), {:.1} rounds",
            s.decisions_mean, s.decisions_sd, s.rounds_mean
        );
        // Strikes are Kazzam's; other systems leave the count out.
        if self.tally.counts.contains_key("strikes") {
            let _ = write!(out, "; {:.2} Strikes a match", s.strikes_per_match);
        }
        out.push('\n');
        if !s.points_by_source.is_empty() {
            let parts: Vec<String> = s.points_by_source.iter().map(|(k, v)| format!("{k} {v:.2}")).collect();
            let _ = writeln!(out, "points a match by source: {}", parts.join(", "));
        }
        if !s.per_power.is_empty() {
            let _ = writeln!(
                out,
                "\n{:<32} {:>8} {:>8} {:>8} {:>8} {:>9}   (a match)",
                "power", "uses", "attacks", "hits", "damage", "take outs"
            );
            let mut powers: Vec<_> = s.per_power.iter().collect();
            powers.sort_by(|a, b| b.1.uses.total_cmp(&a.1.uses).then(a.0.cmp(b.0)));
            for (name, p) in powers {
                let _ = writeln!(
                    out,
                    "{:<32} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>9.2}",
                    name, p.uses, p.attacks, p.hits, p.damage, p.take_outs
                );
            }
        }
        if !s.stance_picks.is_empty() {
            let _ = writeln!(out, "\n{:<32} {:>8}   (a match)", "stance", "picks");
            let mut stances: Vec<_> = s.stance_picks.iter().collect();
            stances.sort_by(|a, b| b.1.total_cmp(a.1).then(a.0.cmp(b.0)));
            for (name, n) in stances {
                let _ = writeln!(out, "{name:<32} {n:>8.2}");
            }
        }
        if !s.per_creature.is_empty() {
            let strikes = self.tally.counts.contains_key("strikes");
            let _ = writeln!(
                out,
                "\n{:<20} {:>8} {:>8} {:>9} {:>9}{}   (a match)",
                "creature",
                "dealt",
                "taken",
                "take outs",
                "taken out",
                if strikes { format!(" {:>8}", "strikes") } else { String::new() }
            );
            for (name, c) in &s.per_creature {
                let _ = writeln!(
                    out,
                    "{:<20} {:>8.2} {:>8.2} {:>9.2} {:>9.2}{}",
                    name,
                    c.damage_dealt,
                    c.damage_taken,
                    c.take_outs,
                    c.taken_out,
                    if strikes { format!(" {:>8.2}", c.strikes) } else { String::new() }
                );
            }
        }
        out
    }

    /// The totals and their summary as one JSON document (what `fray sim merge` reads back).
    pub fn json(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        if let Some(map) = v.as_object_mut() {
            map.insert("summary".into(), serde_json::to_value(self.summary()).unwrap_or_default());
        }
        v
    }
}

/// One row of a report's table: a seat or a bot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// The seat or bot.
    pub name: String,
    /// Matches.
    pub matches: u64,
    /// Won.
    pub wins: u64,
    /// Drawn or unfinished.
    pub draws: u64,
    /// Lost.
    pub losses: u64,
    /// Mean points a match.
    pub points_per_match: f64,
    /// Wins over matches.
    pub win_rate: Rate,
    /// Wins and half the draws over matches.
    pub score_rate: Rate,
}

/// A power's figures, each a mean a match.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PowerLine {
    /// Times used.
    pub uses: f64,
    /// Attack rolls.
    pub attacks: f64,
    /// Attack rolls that hit.
    pub hits: f64,
    /// Damage dealt.
    pub damage: f64,
    /// Take Outs.
    pub take_outs: f64,
}

/// A creature's figures, each a mean a match.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CreatureLine {
    /// Damage it dealt.
    pub damage_dealt: f64,
    /// Damage it took.
    pub damage_taken: f64,
    /// Creatures it took out.
    pub take_outs: f64,
    /// Times it was taken out.
    pub taken_out: f64,
    /// Strikes it took.
    pub strikes: f64,
}

/// What a report works out from its totals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Matches.
    pub matches: u64,
    /// Matches that hit the decision limit (counted as draws).
    pub unfinished: u64,
    /// By seat.
    pub seats: Vec<Line>,
    /// By bot.
    pub bots: Vec<Line>,
    /// Mean decisions a match.
    pub decisions_mean: f64,
    /// Their standard deviation.
    pub decisions_sd: f64,
    /// Mean rounds a match.
    pub rounds_mean: f64,
    /// Mean Strikes a match, both sides.
    pub strikes_per_match: f64,
    /// Mean points a match by where they came from.
    pub points_by_source: BTreeMap<String, f64>,
    /// By power.
    pub per_power: BTreeMap<String, PowerLine>,
    /// By creature.
    pub per_creature: BTreeMap<String, CreatureLine>,
    /// Stance picks a match, by Stance (Panic at the Dojo).
    #[serde(default)]
    pub stance_picks: BTreeMap<String, f64>,
}

/// The same seeds played with two versions of the content.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// With the built-in content.
    pub base: Totals,
    /// With the variant.
    pub variant: Totals,
    /// Each seat's score rate with the variant less that with the base content.
    pub seats: Vec<(String, Difference)>,
}

impl Comparison {
    /// Compares two runs of the same plan.
    pub fn new(base: Totals, variant: Totals) -> Self {
        let (b, v) = (base.summary(), variant.summary());
        let seats = b
            .seats
            .iter()
            .zip(&v.seats)
            .map(|(x, y)| (x.name.clone(), difference(y.score_rate, x.score_rate)))
            .collect();
        Comparison { base, variant, seats }
    }
    /// The comparison for a person.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "== built-in content ==\n{}", self.base.text());
        let _ = writeln!(out, "== variant ==\n{}", self.variant.text());
        let _ = writeln!(out, "== variant less built-in (score rate: wins and half the draws) ==");
        for (seat, d) in &self.seats {
            let _ = writeln!(
                out,
                "{seat:<24} {:+6.1} points of percentage, 95% interval [{:+.1}, {:+.1}]: {}",
                100.0 * d.difference,
                100.0 * d.low,
                100.0 * d.high,
                if d.significant { "a real difference" } else { "no difference shown at 95%" }
            );
        }
        out
    }
    /// As JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "base": self.base.json(),
            "variant": self.variant.json(),
            "difference": self.seats.iter().map(|(s, d)| serde_json::json!({"seat": s, "score_rate": d})).collect::<Vec<_>>(),
        })
    }
}

/// One CSV row a match: `index,seed,bots...,winner,scores...,decisions,finished`.
pub fn csv(seats: &[String], results: &[MatchResult]) -> String {
    let mut out = String::from("index,seed");
    for s in seats {
        let _ = write!(out, ",bot_{s}");
    }
    out.push_str(",winner");
    for s in seats {
        let _ = write!(out, ",score_{s}");
    }
    out.push_str(",decisions,finished\n");
    for m in results {
        let _ = write!(out, "{},{}", m.index, m.seed);
        for i in 0..seats.len() {
            let _ = write!(out, ",{}", m.bots.get(i).map(String::as_str).unwrap_or("random"));
        }
        let _ = write!(out, ",{}", m.winner.and_then(|w| seats.get(w)).map(String::as_str).unwrap_or("draw"));
        for i in 0..seats.len() {
            let _ = write!(out, ",{}", m.score.get(i).copied().unwrap_or(0));
        }
        let _ = writeln!(out, ",{},{}", m.decisions, m.finished);
    }
    out
}
