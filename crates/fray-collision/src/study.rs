//! The designer's question for a point-buy game: how often does the side that spent more points
//! win, by how much it outspent the other? `fray sim collision --points-study` draws, for each
//! match, two battle groups of different sizes from the battle groups Fray ships (each side a
//! random non-empty part of one group file, so every drawn group stays legal: C-CREATE-3 and the
//! allotment hold for any part of a legal group), plays them, and [`by_lead`] and [`by_ratio`]
//! count the richer side's results by point difference.

use crate::builder::check_file;
use crate::content::Content;
use fray_core::table::TeamText;

/// The legal battle groups the draws take characters from.
pub const POOL: [(&str, &str); 6] = [
    ("content/collision/battle/home.toml", include_str!("../../../content/collision/battle/home.toml")),
    ("content/collision/battle/away.toml", include_str!("../../../content/collision/battle/away.toml")),
    ("examples/collision/skirmish-home.toml", include_str!("../../../examples/collision/skirmish-home.toml")),
    ("examples/collision/skirmish-away.toml", include_str!("../../../examples/collision/skirmish-away.toml")),
    ("examples/collision/abilities-home.toml", include_str!("../../../examples/collision/abilities-home.toml")),
    ("examples/collision/abilities-away.toml", include_str!("../../../examples/collision/abilities-away.toml")),
];

/// The two groups of one match and their point totals.
#[derive(Clone, Debug)]
pub struct Draw {
    /// Red's and blue's group files.
    pub teams: [TeamText; 2],
    /// Their points (C-CREATE-35).
    pub points: [u32; 2],
}

/// A small deterministic generator (SplitMix64), so a study's seed gives the same draws.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A random non-empty part of group file `i` of the pool, as a group file of its own.
fn part(c: &Content, i: usize, mix: &mut Mix) -> Result<(TeamText, u32), String> {
    let (path, text) = POOL[i];
    let mut table: toml::Table = toml::from_str(text).map_err(|e| format!("{path}: {e}"))?;
    let chars = table.get("character").and_then(|v| v.as_array()).cloned().unwrap_or_default();
    if chars.is_empty() {
        return Err(format!("{path}: no characters"));
    }
    let mut keep: Vec<toml::Value> = chars.iter().filter(|_| mix.below(2) == 0).cloned().collect();
    if keep.is_empty() {
        keep.push(chars[mix.below(chars.len() as u64) as usize].clone());
    }
    let n = keep.len();
    table.insert("character".into(), toml::Value::Array(keep));
    let out = toml::to_string(&table).map_err(|e| format!("{path}: {e}"))?;
    let name = format!("{path} ({n} of {})", chars.len());
    let checked = check_file(c, &name, &out).map_err(|e| e.join("\n"))?;
    Ok((TeamText { path: name, text: out }, checked.points))
}

/// The groups of match `seed`: each side a part of a random pool file.
pub fn draw(c: &Content, seed: u64) -> Result<Draw, String> {
    let mut mix = Mix(seed ^ 0x5EED_C011_1510_u64);
    let (a, pa) = part(c, mix.below(POOL.len() as u64) as usize, &mut mix)?;
    let (b, pb) = part(c, mix.below(POOL.len() as u64) as usize, &mut mix)?;
    Ok(Draw { teams: [a, b], points: [pa, pb] })
}

/// One played match of the study: the points of each side and the winning seat.
#[derive(Clone, Copy, Debug)]
pub struct Played {
    /// Red's and blue's points.
    pub points: [u32; 2],
    /// The winner, `None` for a draw or an unfinished battle.
    pub winner: Option<usize>,
}

/// The point-difference bands of the report (the richer side's lead in points).
pub const BANDS: [(u32, u32); 7] = [(0, 0), (1, 19), (20, 39), (40, 79), (80, 119), (120, 179), (180, u32::MAX)];

/// One row of the study's table: the richer side's results in one band.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Band {
    /// "20-39" points ahead, or "1.5-2x" the other's total.
    pub label: String,
    /// Battles in the band.
    pub battles: usize,
    /// Won by the side that spent more.
    pub wins: usize,
    /// Drawn or unfinished.
    pub draws: usize,
    /// Lost by the side that spent more.
    pub losses: usize,
}

fn band(label: String, rows: &[&Played]) -> Band {
    let richer = |p: &Played| if p.points[0] >= p.points[1] { 0 } else { 1 };
    let wins = rows.iter().filter(|p| p.winner == Some(richer(p))).count();
    let draws = rows.iter().filter(|p| p.winner.is_none()).count();
    Band { label, battles: rows.len(), wins, draws, losses: rows.len() - wins - draws }
}

fn lead(p: &Played) -> u32 {
    p.points[0].abs_diff(p.points[1])
}

/// The richer side's results by how many more points it spent ([`BANDS`]); empty bands are
/// left out.
pub fn by_lead(played: &[Played]) -> Vec<Band> {
    BANDS
        .iter()
        .filter_map(|&(lo, hi)| {
            let rows: Vec<&Played> = played.iter().filter(|p| (lo..=hi).contains(&lead(p))).collect();
            let label = match (lo, hi) {
                (0, 0) => "equal".to_string(),
                (_, u32::MAX) => format!("{lo}+"),
                _ => format!("{lo}-{hi}"),
            };
            (!rows.is_empty()).then(|| band(label, &rows))
        })
        .collect()
}

/// The richer side's results by the ratio of the two totals (equal totals left out).
pub fn by_ratio(played: &[Played]) -> Vec<Band> {
    let ratio = |p: &Played| {
        let (a, b) = (p.points[0].max(p.points[1]) as f64, p.points[0].min(p.points[1]).max(1) as f64);
        a / b
    };
    [(1.0, 1.25), (1.25, 1.5), (1.5, 2.0), (2.0, 3.0), (3.0, f64::MAX)]
        .iter()
        .filter_map(|&(lo, hi)| {
            let rows: Vec<&Played> = played.iter().filter(|p| lead(p) > 0 && ratio(p) > lo && ratio(p) <= hi).collect();
            let label = if hi == f64::MAX { format!("over {lo}x") } else { format!("{lo}-{hi}x") };
            (!rows.is_empty()).then(|| band(label, &rows))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_draw_is_a_legal_group_with_its_points() {
        let c = Content::builtin().unwrap();
        let mut totals = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let d = draw(&c, seed).unwrap();
            for (t, p) in d.teams.iter().zip(d.points) {
                let checked = check_file(&c, &t.path, &t.text).unwrap();
                assert_eq!(checked.points, p);
                assert!(!checked.cards.is_empty());
                totals.insert(p);
            }
        }
        // The draws spread the totals: the study needs groups of many sizes.
        assert!(totals.len() >= 15, "only {} different totals", totals.len());
    }

    #[test]
    fn the_bands_count_the_richer_side() {
        let played = [
            Played { points: [100, 50], winner: Some(0) },
            Played { points: [40, 90], winner: Some(1) },
            Played { points: [60, 60], winner: None },
            Played { points: [100, 95], winner: Some(1) },
        ];
        let b = by_lead(&played);
        let row =
            |label: &str, battles, wins, draws, losses| Band { label: label.into(), battles, wins, draws, losses };
        // 50 ahead twice (band 40-79), both won by the richer side; a draw at equal points; the
        // side 5 ahead lost.
        assert_eq!(b, vec![row("equal", 1, 0, 1, 0), row("1-19", 1, 0, 0, 1), row("40-79", 2, 2, 0, 0)]);
        let r = by_ratio(&played);
        assert_eq!(r, vec![row("1-1.25x", 1, 0, 0, 1), row("1.5-2x", 1, 1, 0, 0), row("2-3x", 1, 1, 0, 0)]);
    }
}
