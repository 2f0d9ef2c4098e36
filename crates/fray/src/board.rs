//! Drawing a view as text: the board two characters a square, units by the first two letters
//! of their ids, then each unit's line.

use fray_core::view::View;

/// The board and the unit roster.
pub fn render(v: &View) -> String {
    let mut grid: Vec<Vec<String>> = v.map.iter().map(|r| r.chars().map(|c| format!("{c} ")).collect()).collect();
    for (id, u) in &v.units {
        if let Some(at) = u.at {
            let tag: String = id.chars().take(2).collect::<String>();
            let tag = if u.team == "red" { tag.to_uppercase() } else { tag.to_lowercase() };
            for dy in 0..u.size {
                for dx in 0..u.size {
                    if let Some(cell) = grid.get_mut((at.y + dy) as usize).and_then(|r| r.get_mut((at.x + dx) as usize))
                    {
                        *cell = format!("{tag:<2}");
                    }
                }
            }
        }
    }
    let mut out = String::new();
    out.push_str("   ");
    for x in 0..v.map.first().map(|r| r.chars().count()).unwrap_or(0) {
        out.push_str(&format!("{:<2}", x % 100));
    }
    out.push('\n');
    for (y, row) in grid.iter().enumerate() {
        out.push_str(&format!("{y:>2} {}\n", row.concat()));
    }
    for (id, u) in &v.units {
        let at = u.at.map(|p| format!("({},{})", p.x, p.y)).unwrap_or_else(|| "off the map".into());
        let statuses = if u.statuses.is_empty() { String::new() } else { format!(" [{}]", u.statuses.join(", ")) };
        let mut fields = String::new();
        for (key, label) in [
            ("ward", "ward"),
            ("miss_tokens", "tokens"),
            ("strikes", "strikes"),
            ("orbs", "orbs"),
            ("surges", "surges"),
            ("recoveries", "recoveries"),
        ] {
            if let Some(v) = u.extra.get(key) {
                fields.push_str(&format!("  {label} {v}"));
            }
        }
        out.push_str(&format!("  {id:<6} {:<8} {at:<12} {}/{} HP{fields}{statuses}\n", u.team, u.hp, u.max_hp));
    }
    let score: Vec<String> = v.score.iter().map(|(k, s)| format!("{k} {s}")).collect();
    out.push_str(&format!("  round {}  score: {}\n", v.round, score.join(", ")));
    out
}
