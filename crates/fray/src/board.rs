//! Drawing a view as text, for any system: the board three characters a square, a legend, and
//! each unit's line. Every unit has its own two-character glyph (upper case for the first seat,
//! lower case for the second, capitalised for everyone else); what the map characters cannot
//! show comes from the view (`legend`, `marks`: see fray-kazzam's view). When the match asks
//! for a square or a target, the board shows each option's number where it is.

use fray_core::decision::Decision;
use fray_core::grid::Pos;
use fray_core::view::{UnitView, View};
use std::collections::BTreeMap;

/// How the board is drawn.
#[derive(Clone, Copy, Default)]
pub struct Style {
    /// ANSI colours (only on a terminal).
    pub colour: bool,
}

impl Style {
    /// Colours when stdout is a terminal and `NO_COLOR` is not set.
    pub fn for_stdout() -> Style {
        use std::io::IsTerminal;
        Style { colour: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() }
    }
    /// `text` in the ANSI colour `code`, or plain.
    pub fn paint(self, text: &str, code: &str) -> String {
        if self.colour && !code.is_empty() { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_string() }
    }
}

/// The most options the board can number (a number in the two characters a glyph takes).
const MAX_MARKS: usize = 99;

/// Each unit's glyph: two characters, unique whatever the case, by id.
pub fn glyphs(v: &View, seats: &[String]) -> BTreeMap<String, String> {
    let mut taken: Vec<String> = Vec::new();
    let mut out = BTreeMap::new();
    for (id, u) in &v.units {
        let chars: Vec<char> =
            id.chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect();
        let first = chars.first().copied().unwrap_or('u');
        let first = if first.is_ascii_digit() { 'u' } else { first };
        // The first two letters, then the first with the last, then with each later one, then
        // with any letter or digit, then any pair at all.
        let mut candidates: Vec<String> = Vec::new();
        if let Some(&c) = chars.get(1) {
            candidates.push(format!("{first}{c}"));
        }
        if let Some(&c) = chars.last() {
            candidates.push(format!("{first}{c}"));
        }
        candidates.extend(chars.iter().skip(2).map(|c| format!("{first}{c}")));
        candidates.extend(('1'..='9').chain('a'..='z').map(|c| format!("{first}{c}")));
        candidates.extend(('a'..='z').flat_map(|a| ('a'..='z').chain('0'..='9').map(move |b| format!("{a}{b}"))));
        let tag = candidates.into_iter().find(|c| !taken.contains(c)).unwrap_or_else(|| "??".into());
        taken.push(tag.clone());
        out.insert(id.clone(), cased(&tag, u, seats));
    }
    out
}

fn cased(tag: &str, u: &UnitView, seats: &[String]) -> String {
    match seats.iter().position(|s| *s == u.team) {
        Some(0) => tag.to_uppercase(),
        Some(1) => tag.to_lowercase(),
        _ => {
            let mut c = tag.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        }
    }
}

/// The colour of a side: the first seat red, the second blue, everyone else green.
fn side_colour(team: &str, seats: &[String]) -> &'static str {
    match seats.iter().position(|s| s == team) {
        Some(0) => "1;31",
        Some(1) => "1;34",
        _ => "1;32",
    }
}

/// Where each option of `d` is drawn: its square, or the top-left square of the unit it names.
pub fn option_squares(v: &View, d: &Decision) -> Vec<Option<Pos>> {
    d.options.iter().map(|o| o.square.or_else(|| v.units.get(&o.id).and_then(|u| u.at))).collect()
}

/// The board, the legend and the unit roster; with `decision`, its options numbered on the board.
pub fn render(v: &View, seats: &[String], decision: Option<&Decision>, style: Style) -> String {
    board(v, seats, decision, &[], style) + &roster(v, seats, style)
}

/// The board and its legend; with `decision`, its options numbered on the board, a `!` before
/// those with a note (`notes`, one per option: [`fray_core::game::Game::notes`]).
pub fn board(v: &View, seats: &[String], decision: Option<&Decision>, notes: &[String], style: Style) -> String {
    let glyph = glyphs(v, seats);
    let width = v.map.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let mut grid: Vec<Vec<String>> = v
        .map
        .iter()
        .map(|r| {
            let mut row: Vec<String> = r.chars().map(|c| format!(" {c} ")).collect();
            row.resize(width, "   ".into());
            row
        })
        .collect();
    let mut legend: Vec<(String, String)> = Vec::new();
    if let Some(l) = v.extra.get("legend").and_then(|l| l.as_object()) {
        legend.extend(l.iter().map(|(c, m)| (c.clone(), m.as_str().unwrap_or_default().to_string())));
    }
    // Marks the system adds over the terrain (an empty pedestal, an orb on the ground).
    let mut cell = |at: Pos, text: String| {
        if let Some(c) = grid.get_mut(at.y as usize).and_then(|r| r.get_mut(at.x as usize)) {
            *c = text;
        }
    };
    let mut marks_shown: Vec<String> = Vec::new();
    for m in v.extra.get("marks").and_then(|m| m.as_array()).into_iter().flatten() {
        let at = m.get("at").and_then(|a| serde_json::from_value::<Pos>(a.clone()).ok());
        let g = m.get("glyph").and_then(|g| g.as_str()).unwrap_or("?");
        if let Some(at) = at {
            cell(at, format!(" {}", style.paint(&format!("{g:<2}"), "1;35")));
        }
        let means = m.get("means").and_then(|g| g.as_str()).unwrap_or_default();
        marks_shown.push(g.to_string());
        if !legend.iter().any(|(c, _)| c == g) {
            legend.push((g.to_string(), means.to_string()));
        }
    }
    let mut carriers = false;
    for (id, u) in &v.units {
        if let Some(at) = u.at {
            let code = side_colour(&u.team, seats);
            let code = if v.turn.as_deref() == Some(id) { format!("{code};4") } else { code.to_string() };
            // A unit carrying an orb (a view's `orbs` list) has a `*` before its glyph.
            let carrying = u.extra.get("orbs").and_then(|o| o.as_array()).is_some_and(|o| !o.is_empty());
            carriers |= carrying;
            let carry = if carrying { style.paint("*", "1;35") } else { " ".into() };
            for dy in 0..u.size.max(1) {
                for dx in 0..u.size.max(1) {
                    cell(Pos::new(at.x + dx, at.y + dy), format!("{carry}{}", style.paint(&glyph[id], &code)));
                }
            }
        }
    }
    // The options of the decision, by number, where they are.
    let numbered = decision.map(|d| (d, option_squares(v, d)));
    let (mut marked, mut warned) = (0, false);
    if let Some((d, at)) = &numbered {
        for (i, p) in at.iter().enumerate() {
            if let Some(p) = p {
                let warn = notes.get(i).is_some_and(|n| !n.is_empty());
                warned |= warn;
                let lead = if warn { style.paint("!", "1;33") } else { " ".into() };
                let mark = if d.options.len() <= MAX_MARKS { format!("{:<2}", i + 1) } else { "++".into() };
                cell(*p, format!("{lead}{}", style.paint(&mark, "7;1;33")));
                marked += 1;
            }
        }
    }
    let mut out = String::from("  ");
    for x in 0..width {
        out.push_str(&format!(" {x:<2}"));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for (y, row) in grid.iter().enumerate() {
        out.push_str(&format!("{y:>2}{}\n", row.concat().trim_end()));
    }
    // The legend, wrapped: only what the board still shows.
    let shown = |c: &str| marks_shown.iter().any(|g| g == c) || grid.iter().flatten().any(|cell| cell.trim() == c);
    legend.retain(|(c, _)| shown(c));
    let mut words: Vec<String> = legend.iter().map(|(c, m)| format!("{c} {m}")).collect();
    let upper = seats.first().map(|s| format!("AB {s}"));
    let lower = seats.get(1).map(|s| format!("ab {s}"));
    let mut sides: Vec<String> = upper.into_iter().chain(lower).collect();
    let others: Vec<&str> = {
        let mut o: Vec<&str> =
            v.units.values().map(|u| u.team.as_str()).filter(|t| seats.iter().take(2).all(|s| s != t)).collect();
        o.sort();
        o.dedup();
        o
    };
    if !others.is_empty() {
        sides.push(format!("Ab {}", others.join(", ")));
    }
    if carriers {
        sides.push("*AB carries an orb".into());
    }
    words.push(format!("units: {}", sides.join(", ")));
    if marked > 0 {
        words.push(if numbered.is_some_and(|(d, _)| d.options.len() > MAX_MARKS) {
            "++ a square you may choose: type it as x,y".into()
        } else {
            "highlighted numbers: the options of that number".into()
        });
    }
    if warned {
        words.push("!N: option N has a warning (below)".into());
    }
    let mut line = String::from("legend:");
    for w in words {
        if line.len() + w.len() + 3 > 96 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("       ");
        }
        line.push_str("  ");
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Each unit's line, sides in seat order, the unit whose turn it is marked `*`; then the round
/// and the score.
pub fn roster(v: &View, seats: &[String], style: Style) -> String {
    let glyph = glyphs(v, seats);
    let mut out = String::new();
    let mut ids: Vec<&String> = v.units.keys().collect();
    ids.sort_by_key(|id| (seats.iter().position(|s| *s == v.units[*id].team).unwrap_or(seats.len()), (*id).clone()));
    let id_width = ids.iter().map(|i| i.len()).max().unwrap_or(0).max(6);
    let team_width = v.units.values().map(|u| u.team.len()).max().unwrap_or(0).max(7);
    let turn = if v.turn.is_some() { "   (> whose turn it is)" } else { "" };
    out.push_str(&format!("     {:<id_width$} {:<team_width$} {:<12} HP{turn}\n", "unit", "side", "square"));
    for id in ids {
        let u = &v.units[id];
        let turn = if v.turn.as_deref() == Some(id) { ">" } else { " " };
        let at = u.at.map(|p| format!("({},{})", p.x, p.y)).unwrap_or_else(|| "off the map".into());
        let statuses = if u.statuses.is_empty() { String::new() } else { format!(" [{}]", u.statuses.join(", ")) };
        let mut fields = String::new();
        for (key, label) in [
            ("ward", "ward"),
            ("miss_tokens", "tokens"),
            ("strikes", "strikes"),
            ("surges", "surges"),
            ("recoveries", "recoveries"),
        ] {
            if let Some(v) = u.extra.get(key) {
                fields.push_str(&format!("  {label} {v}"));
            }
        }
        if let Some(orbs) = u.extra.get("orbs").and_then(|o| o.as_array()).filter(|o| !o.is_empty()) {
            let names: Vec<&str> = orbs.iter().filter_map(|o| o.as_str()).collect();
            fields.push_str(&format!("  carries orb {}", names.join(", ")));
        }
        let tag = style.paint(&glyph[id], side_colour(&u.team, seats));
        let hp = format!("{}/{} HP", u.hp, u.max_hp);
        out.push_str(&format!(
            "{turn} {tag} {id:<id_width$} {:<team_width$} {at:<12} {hp:<9}{fields}{statuses}\n",
            u.team
        ));
    }
    let score: Vec<String> = v.score.iter().map(|(k, s)| format!("{k} {s}")).collect();
    if score.is_empty() {
        out.push_str(&format!("  round {}\n", v.round)); // a system that keeps no score (Panic at the Dojo)
    } else {
        out.push_str(&format!("  round {}  score: {}\n", v.round, score.join(", ")));
    }
    out
}
