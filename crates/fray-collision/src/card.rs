//! Cards written out: as text for the terminal, and as SVG (front and back of each card side by
//! side, the fields of L13-67: core stats and weapons on the front; race, tarot, points, effects
//! and restrictions on the back).

use crate::builder::{Card, CardWeapon, Checked};

fn weapon_line(w: &CardWeapon) -> String {
    let name = match &w.enchantment {
        Some(e) => format!("{} ({e})", w.name),
        None => w.name.clone(),
    };
    let crit = if w.crit.is_empty() { "-".to_string() } else { w.crit.join(", ") };
    let special = if w.special.is_empty() { "-".to_string() } else { w.special.join(", ") };
    format!(
        "{name}: EC {}, {}, W-Att {}, W-Pow {}, Reach {}, Crit {crit}, Special {special}",
        w.ec, w.kind, w.w_att, w.w_pow, w.reach
    )
}

/// The card as text.
pub fn text(k: &Card) -> String {
    let s = &k.stats;
    let mut out = format!("{} ({} points)\n", k.name, k.points);
    let values = if k.values.is_empty() { "none (Universal options only)".to_string() } else { k.values.join(", ") };
    out.push_str(&format!("  Race {}, Tarot {}, Values {values}\n", k.race, k.tarot));
    out.push_str(&format!(
        "  Def {}  Arm {}  Tuf {}  End {}  Mana {}  Comm {}  Move {}   Att {}  Str {}  S-Pow {}\n",
        s.def, s.arm, s.tuf, s.end, s.mana, s.comm, s.mv, s.att, s.str, s.spow
    ));
    let mut slot = 0;
    for w in &k.weapons {
        slot += 1;
        out.push_str(&format!("  Weapon {slot}: {}\n", weapon_line(w)));
    }
    if let Some((a, hands)) = &k.accessory {
        if *hands > 0 && slot < 2 {
            // L133: an accessory held in a hand goes in a free weapon slot.
            out.push_str(&format!(
                "  Weapon {}: {a} (accessory, {hands} hand{})\n",
                slot + 1,
                if *hands == 1 { "" } else { "s" }
            ));
        } else {
            out.push_str(&format!("  Accessory: {a}\n"));
        }
    }
    if let Some(a) = &k.armour {
        match &k.armour_enchantment {
            Some(e) => out.push_str(&format!("  Armour: {a} ({e})\n")),
            None => out.push_str(&format!("  Armour: {a}\n")),
        }
    }
    let effects = if k.effects.is_empty() { "-".to_string() } else { k.effects.join("; ") };
    out.push_str(&format!("  Effects and abilities: {effects}\n"));
    out.push_str(&format!("  Skills: {} of {}\n", k.skills.0, k.skills.1));
    if k.deploy_endurance != s.end {
        out.push_str(&format!("  Deploys with {} Endurance (Mark of the Titans)\n", k.deploy_endurance));
    }
    out.push_str(&format!("  Restrictions: {}\n", k.restrictions.as_deref().unwrap_or("none")));
    let parts: Vec<String> = k
        .costs
        .iter()
        .map(|c| match &c.value {
            Some(v) => format!("{} {} ({v})", c.name, c.points),
            None => format!("{} {}", c.name, c.points),
        })
        .collect();
    out.push_str(&format!("  Points: {} = {}", parts.join(" + "), k.points));
    out
}

/// Every card, then the group's totals.
pub fn group_text(g: &Checked) -> Vec<String> {
    let mut out: Vec<String> = g.cards.iter().map(text).collect();
    let name = g.group.as_deref().unwrap_or("Battle group");
    let allot = g.allotment.map(|a| format!(" of an allotment of {a}")).unwrap_or_default();
    let values = if g.values.is_empty() { "none".to_string() } else { g.values.join(", ") };
    out.push(format!(
        "{name}: {} character{}, {} points{allot}; values {values}",
        g.cards.len(),
        if g.cards.len() == 1 { "" } else { "s" },
        g.points
    ));
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Splits `s` into lines of at most `width` characters at spaces.
fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in s.split(' ') {
        if !cur.is_empty() && cur.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

const W: i32 = 420;
const H: i32 = 300;
const GAP: i32 = 20;

struct Svg(String);

impl Svg {
    fn text(&mut self, x: i32, y: i32, size: i32, bold: bool, s: &str) {
        let weight = if bold { " font-weight=\"bold\"" } else { "" };
        self.0.push_str(&format!("<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\"{weight}>{}</text>\n", esc(s)));
    }
    fn rect(&mut self, x: i32, y: i32, w: i32, h: i32, fill: &str) {
        self.0.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"8\" fill=\"{fill}\" stroke=\"#333\" stroke-width=\"1.5\"/>\n"
        ));
    }
    fn stat(&mut self, x: i32, y: i32, label: &str, v: i32) {
        self.0.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"44\" height=\"34\" fill=\"#fff\" stroke=\"#777\"/>\n"
        ));
        self.text(x + 4, y + 12, 9, false, label);
        self.text(x + 16, y + 29, 15, true, &v.to_string());
    }
}

fn front(svg: &mut Svg, k: &Card, x: i32, y: i32) {
    let s = &k.stats;
    svg.rect(x, y, W, H, "#f6f1e3");
    svg.text(x + 12, y + 24, 16, true, &k.name);
    svg.text(x + W - 90, y + 24, 13, true, &format!("Points {}", k.points));
    let values = if k.values.is_empty() { "-".to_string() } else { k.values.join(", ") };
    svg.text(x + 12, y + 42, 11, false, &format!("Values: {values}    Tarot: {}", k.tarot));
    svg.text(x + 12, y + 62, 10, true, "CORE STATS");
    for (i, (l, v)) in [
        ("DEF", s.def),
        ("ARM", s.arm),
        ("TUF", s.tuf),
        ("END", s.end),
        ("MANA", s.mana),
        ("COMM", s.comm),
        ("MOVE", s.mv),
    ]
    .iter()
    .enumerate()
    {
        svg.stat(x + 12 + 50 * i as i32, y + 68, l, *v);
    }
    svg.text(x + 12, y + 122, 10, true, "WEAPON STATS");
    for (i, (l, v)) in [("ATT", s.att), ("STR", s.str), ("S-POW", s.spow)].iter().enumerate() {
        svg.stat(x + 12 + 50 * i as i32, y + 128, l, *v);
    }
    let mut row = y + 182;
    let mut slot = 0;
    for w in &k.weapons {
        slot += 1;
        let name = match &w.enchantment {
            Some(e) => format!("{} ({e})", w.name),
            None => w.name.clone(),
        };
        svg.text(x + 12, row, 11, true, &format!("WEAPON {slot}: {name}"));
        svg.text(
            x + 12,
            row + 14,
            10,
            false,
            &format!("EC {}  Type {}  W-Att {}  W-Pow {}  Reach {}", w.ec, w.kind, w.w_att, w.w_pow, w.reach),
        );
        let crit = if w.crit.is_empty() { "-".into() } else { w.crit.join(", ") };
        let special = if w.special.is_empty() { "-".into() } else { w.special.join(", ") };
        for (j, l) in wrap(&format!("Crit {crit}   Special {special}"), 70).iter().take(2).enumerate() {
            svg.text(x + 12, row + 28 + 12 * j as i32, 10, false, l);
        }
        row += 56;
    }
    if let Some((a, hands)) = &k.accessory
        && *hands > 0
        && slot < 2
    {
        svg.text(x + 12, row, 11, true, &format!("WEAPON {}: {a} (accessory)", slot + 1));
    }
}

fn back(svg: &mut Svg, k: &Card, x: i32, y: i32) {
    svg.rect(x, y, W, H, "#e9eef6");
    svg.text(x + 12, y + 24, 14, true, &format!("RACE {}", k.race));
    svg.text(x + 12, y + 42, 12, false, &format!("TAROT {}    POINTS {}", k.tarot, k.points));
    let mut kit = Vec::new();
    if let Some(a) = &k.armour {
        kit.push(match &k.armour_enchantment {
            Some(e) => format!("Armour {a} ({e})"),
            None => format!("Armour {a}"),
        });
    }
    if let Some((a, _)) = &k.accessory {
        kit.push(format!("Accessory {a}"));
    }
    if !kit.is_empty() {
        svg.text(x + 12, y + 60, 11, false, &kit.join("    "));
    }
    svg.text(x + 12, y + 82, 10, true, "EFFECTS AND ABILITIES");
    let mut row = y + 98;
    for e in &k.effects {
        for l in wrap(e, 64) {
            if row < y + H - 36 {
                svg.text(x + 16, row, 11, false, &l);
            }
            row += 14;
        }
    }
    let r = k.restrictions.as_deref().unwrap_or("-");
    svg.text(x + 12, y + H - 14, 11, true, &format!("RESTRICTIONS {r}"));
}

/// Every card of a legal file as one SVG document: a row per character, front then back.
pub fn svg(g: &Checked) -> String {
    let rows = g.cards.len() as i32;
    let width = 2 * W + 3 * GAP;
    let height = rows * (H + GAP) + GAP + 30;
    let mut svg = Svg(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">\n"
    ));
    for (i, k) in g.cards.iter().enumerate() {
        let y = GAP + i as i32 * (H + GAP);
        front(&mut svg, k, GAP, y);
        back(&mut svg, k, 2 * GAP + W, y);
    }
    let total = group_text(g).pop().unwrap_or_default();
    svg.text(GAP, height - 14, 12, false, &total);
    svg.0.push_str("</svg>\n");
    svg.0
}
