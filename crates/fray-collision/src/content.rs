//! The guide's option tables and glossary as data (`content/collision/*.toml`, compiled in): each
//! file is parsed into a [`Content`] value, and every row is checked (known values, suits, types,
//! glossary terms, unique names). A problem names the file, the line and the field.

use fray_core::lookup::Entry;
use fray_core::scenario::line_of;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use toml::Spanned;

/// The content files, by path, as compiled into the program.
pub const FILES: [(&str, &str); 11] = [
    ("content/collision/values.toml", include_str!("../../../content/collision/values.toml")),
    ("content/collision/races.toml", include_str!("../../../content/collision/races.toml")),
    ("content/collision/tarots.toml", include_str!("../../../content/collision/tarots.toml")),
    ("content/collision/weapons.toml", include_str!("../../../content/collision/weapons.toml")),
    ("content/collision/weapon-enchantments.toml", include_str!("../../../content/collision/weapon-enchantments.toml")),
    ("content/collision/armours.toml", include_str!("../../../content/collision/armours.toml")),
    ("content/collision/armour-enchantments.toml", include_str!("../../../content/collision/armour-enchantments.toml")),
    ("content/collision/accessories.toml", include_str!("../../../content/collision/accessories.toml")),
    ("content/collision/skills.toml", include_str!("../../../content/collision/skills.toml")),
    ("content/collision/glossary.toml", include_str!("../../../content/collision/glossary.toml")),
    ("content/collision/rules.toml", include_str!("../../../content/collision/rules.toml")),
];

/// The four suits, in the guide's order (C-CREATE-10).
pub const SUITS: [&str; 4] = ["swords", "cups", "rods", "coins"];
/// The damage types (guide line 49; C-CREATE-21).
pub const TYPES: [&str; 8] = ["Mundane", "Magic", "Light", "Dark", "Fire", "Cold", "Electric", "Acid"];
/// Glossary kinds.
pub const KINDS: [&str; 11] = [
    "ability",
    "attack",
    "weapon attack",
    "reaction",
    "effect",
    "aura",
    "status",
    "keyword",
    "area",
    "timing",
    "creation",
];

/// Stat changes: a race's core stats, a tarot's bonuses, armour, enchantment and accessory
/// bonuses. Every field is 0 unless written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Bonus {
    /// Defence.
    pub def: i32,
    /// Armour.
    pub arm: i32,
    /// Toughness.
    pub tuf: i32,
    /// Endurance.
    pub end: i32,
    /// Mana.
    pub mana: i32,
    /// Command.
    pub comm: i32,
    /// Move.
    #[serde(rename = "move")]
    pub mv: i32,
    /// Attack.
    pub att: i32,
    /// Strength.
    pub str: i32,
    /// Spell power.
    pub spow: i32,
    /// Added to an enchanted weapon's W-Att.
    pub w_att: i32,
    /// Added to an enchanted weapon's W-Pow.
    pub w_pow: i32,
    /// Added to an enchanted weapon's reach (melee).
    pub reach: i32,
    /// Added to an enchanted weapon's reach when it is ranged.
    pub reach_ranged: i32,
}

impl Bonus {
    /// The non-zero entries as the guide writes them ("Def+1", "Move-1", "W-Att+1").
    pub fn words(&self) -> Vec<String> {
        let fields = [
            ("Def", self.def),
            ("Arm", self.arm),
            ("Tuf", self.tuf),
            ("End", self.end),
            ("Mana", self.mana),
            ("Comm", self.comm),
            ("Move", self.mv),
            ("Att", self.att),
            ("Str", self.str),
            ("S-Pow", self.spow),
            ("W-Att", self.w_att),
            ("W-Pow", self.w_pow),
        ];
        let mut out: Vec<String> = fields.iter().filter(|(_, v)| *v != 0).map(|(n, v)| format!("{n}{v:+}")).collect();
        if self.reach != 0 || self.reach_ranged != 0 {
            out.push(format!("Reach{:+} ({:+} if ranged)", self.reach, self.reach_ranged));
        }
        out
    }
}

/// One of the eight values (C-CREATE-1).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Value {
    /// Name ("Chivalry").
    pub name: String,
    /// The suit of its rank 4 to Ace tarots (C-CREATE-11).
    pub suit: String,
    /// Guide lines of its section.
    pub source: Vec<u32>,
}

/// A race (C-CREATE-7).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Race {
    /// Name.
    pub name: String,
    /// The value offering it, or "universal".
    pub value: String,
    /// Core stats.
    pub stats: Bonus,
    /// Added to every weapon's reach (C-CREATE-17).
    pub reach: i32,
    /// Glossary terms it grants (C-CREATE-8).
    pub effects: Vec<String>,
    /// Points.
    pub points: u32,
    /// Guide lines.
    pub source: Vec<u32>,
    /// A short note of our own.
    pub text: String,
}

/// A Minor Arcana tarot (C-CREATE-9, C-CREATE-10).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Tarot {
    /// Name ("6 of Cups").
    pub name: String,
    /// Suit.
    pub suit: String,
    /// Rank, 2 to 11 (Ace).
    pub rank: u8,
    /// The values offering it; none for Universal (C-CREATE-11).
    pub values: Vec<String>,
    /// Stat bonuses (C-CREATE-13).
    pub bonus: Bonus,
    /// The most skills it allows (C-CREATE-29).
    pub skills: u8,
    /// The smallest game (in points) that may field it (C-CREATE-12).
    #[serde(default)]
    pub restrict: Option<u32>,
    /// Points.
    pub points: u32,
    /// Guide lines.
    pub source: Vec<u32>,
}

/// A weapon, with its base values (C-CREATE-14 to C-CREATE-19).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Name.
    pub name: String,
    /// The value offering it, or "universal".
    pub value: String,
    /// Endurance cost.
    pub ec: u8,
    /// Damage type.
    #[serde(rename = "type")]
    pub kind: String,
    /// Base W-Att.
    pub w_att: i32,
    /// Base W-Pow.
    pub w_pow: i32,
    /// Reach; "N+" is ranged.
    pub reach: String,
    /// Crit entries.
    pub crit: Vec<String>,
    /// Special entries.
    pub special: Vec<String>,
    /// Hands used.
    pub hands: u8,
    /// Points.
    pub points: u32,
    /// Guide lines.
    pub source: Vec<u32>,
}

impl Weapon {
    /// The reach as a number and whether the weapon is ranged.
    pub fn reach(&self) -> (i32, bool) {
        parse_reach(&self.reach).unwrap_or((0, false))
    }
}

fn parse_reach(s: &str) -> Option<(i32, bool)> {
    let ranged = s.ends_with('+');
    s.trim_end_matches('+').parse().ok().map(|n| (n, ranged))
}

/// A weapon enchantment (C-CREATE-20 to C-CREATE-24).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponEnchantment {
    /// Name.
    pub name: String,
    /// The value offering it.
    pub value: String,
    /// The lowest tarot rank that may take it.
    pub min_rank: u8,
    /// The type it gives the weapon.
    #[serde(rename = "type")]
    pub kind: String,
    /// Bonuses added to the weapon at creation.
    #[serde(default)]
    pub bonus: Bonus,
    /// Special entries it adds.
    #[serde(default)]
    pub special: Vec<String>,
    /// Crit entries it adds.
    #[serde(default)]
    pub crit: Vec<String>,
    /// Points.
    pub points: u32,
    /// Guide lines.
    pub source: Vec<u32>,
}

impl WeaponEnchantment {
    /// The table's Special column, rebuilt from the data.
    pub fn printed(&self) -> String {
        let mut parts = self.bonus.words();
        parts.extend(self.special.iter().cloned());
        parts.extend(self.crit.iter().map(|c| format!("Crit: {c}")));
        parts.join(", ")
    }
}

/// A set of armour (C-CREATE-25).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Armour {
    /// Name.
    pub name: String,
    /// The values offering it; none for Universal.
    pub values: Vec<String>,
    /// light, medium or heavy (no rule attached).
    pub class: String,
    /// Def modifier and Arm bonus.
    pub bonus: Bonus,
    /// Points.
    pub points: u32,
    /// Guide lines.
    pub source: Vec<u32>,
}

/// An armour enchantment (C-CREATE-26).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ArmourEnchantment {
    /// Name.
    pub name: String,
    /// The value offering it.
    pub value: String,
    /// The lowest tarot rank that may take it.
    pub min_rank: u8,
    /// Glossary terms it grants.
    #[serde(default)]
    pub grants: Vec<String>,
    /// Stat bonuses at creation.
    #[serde(default)]
    pub bonus: Bonus,
    /// Points.
    pub points: u32,
    /// Guide lines.
    pub source: Vec<u32>,
}

/// An accessory (C-CREATE-27).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Accessory {
    /// Name.
    pub name: String,
    /// The value offering it, or "universal".
    pub value: String,
    /// Hands used.
    pub hands: u8,
    /// Glossary terms it grants.
    pub grants: Vec<String>,
    /// Stat bonuses at creation.
    #[serde(default)]
    pub bonus: Bonus,
    /// Points.
    pub points: u32,
    /// Guide lines.
    pub source: Vec<u32>,
}

/// Which tarots may take a skill (C-CREATE-32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// A tarot of the skill's suit, any rank.
    Suit,
    /// A tarot of the skill's suit, rank 4 or more.
    Suit4,
    /// A tarot of the skill's suit, rank 8 or more.
    Suit8,
    /// Any tarot of rank 4 or more.
    Any4,
}

impl Tier {
    /// The table heading, for a suit ("Cups 4+ Skills").
    pub fn heading(self, suit: &str) -> String {
        let s = title(suit);
        match self {
            Tier::Suit => format!("{s} skills"),
            Tier::Suit4 => format!("{s} 4+ skills"),
            Tier::Suit8 => format!("{s} 8+ skills"),
            Tier::Any4 => "skills for any rank 4 or greater".into(),
        }
    }
    /// Whether a tarot of `suit` and `rank` may take a skill of this tier listed under
    /// `skill_suit`.
    pub fn allows(self, skill_suit: &str, suit: &str, rank: u8) -> bool {
        match self {
            Tier::Suit => suit == skill_suit,
            Tier::Suit4 => suit == skill_suit && rank >= 4,
            Tier::Suit8 => suit == skill_suit && rank >= 8,
            Tier::Any4 => rank >= 4,
        }
    }
}

/// A skill (C-CREATE-29 to C-CREATE-34); its cost and text are the glossary term of its name.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Skill {
    /// Name.
    pub name: String,
    /// The value offering it, or "universal".
    pub value: String,
    /// Its tier.
    pub tier: Tier,
    /// The suit of its heading.
    pub suit: String,
    /// Points.
    pub points: u32,
    /// Guide lines.
    pub source: Vec<u32>,
}

/// A glossary term, in our own words.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Term {
    /// Name.
    pub name: String,
    /// What it is (one of [`KINDS`]).
    pub kind: String,
    /// Endurance and Mana cost.
    #[serde(default)]
    pub cost: Option<String>,
    /// A reaction (RE).
    #[serde(default)]
    pub reaction: bool,
    /// A Fear effect.
    #[serde(default)]
    pub fear: bool,
    /// Other spellings.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// What it does.
    pub text: String,
    /// Guide lines.
    pub source: Vec<u32>,
}

impl Term {
    /// As written on a card: name, (RE), cost, (Fear).
    pub fn card_line(&self) -> String {
        let mut s = self.name.clone();
        if self.reaction {
            s.push_str(" (RE)");
        }
        if let Some(c) = &self.cost {
            s.push(' ');
            s.push_str(c);
        }
        if self.fear {
            s.push_str(" (Fear)");
        }
        s
    }
}

/// Everything the builder and the look-up read.
#[derive(Clone, Debug, Default)]
pub struct Content {
    /// The eight values.
    pub values: Vec<Value>,
    /// Races.
    pub races: Vec<Race>,
    /// Tarots.
    pub tarots: Vec<Tarot>,
    /// Weapons.
    pub weapons: Vec<Weapon>,
    /// Weapon enchantments.
    pub weapon_enchantments: Vec<WeaponEnchantment>,
    /// Armours.
    pub armours: Vec<Armour>,
    /// Armour enchantments.
    pub armour_enchantments: Vec<ArmourEnchantment>,
    /// Accessories.
    pub accessories: Vec<Accessory>,
    /// Skills.
    pub skills: Vec<Skill>,
    /// Glossary terms.
    pub terms: Vec<Term>,
    /// Card fields and creation rules for the look-up.
    pub rules: Vec<Entry>,
}

/// Lower-case letters and digits only: how names are compared ("Long sword" = "longsword").
pub fn norm(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// "swords" as "Swords".
pub fn title(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// A TOML error as `FILE:LINE: field `KEY`: MESSAGE` (the key is the one written on that line).
pub fn toml_error(file: &str, text: &str, e: &toml::de::Error) -> String {
    let msg = e.message().trim();
    let Some(span) = e.span() else { return format!("{file}: {msg}") };
    let line = line_of(text, span.start);
    let line_text = text.lines().nth(line - 1).unwrap_or_default();
    let key = line_text
        .split_once('=')
        .map(|(k, _)| k.trim().trim_matches('"'))
        .filter(|k| !k.is_empty() && k.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.'));
    let header = line_text.trim().trim_start_matches('[').trim_end_matches(']');
    match key {
        Some(k) => format!("{file}:{line}: field `{k}`: {msg}"),
        None if line_text.trim_start().starts_with('[') => format!("{file}:{line}: [{header}]: {msg}"),
        None => format!("{file}:{line}: {msg}"),
    }
}

/// The line of `field = ...` inside the table spanning `span` of `text`; the table's first line
/// when the field is not written there.
pub fn field_line(text: &str, span: std::ops::Range<usize>, field: &str) -> usize {
    let end = span.end.min(text.len());
    let mut at = span.start.min(end);
    let field = field.split(['[', '.']).next().unwrap_or(field);
    for l in text[at..end].split_inclusive('\n') {
        let key = l.trim_start();
        if let Some(rest) = key.strip_prefix(field)
            && rest.trim_start().starts_with('=')
        {
            return line_of(text, at);
        }
        at += l.len();
    }
    line_of(text, span.start)
}

fn table<T: DeserializeOwned>(file: &str, text: &str, key: &str) -> Result<Vec<Spanned<T>>, String> {
    let mut doc: std::collections::BTreeMap<String, Vec<Spanned<T>>> =
        toml::from_str(text).map_err(|e| toml_error(file, text, &e))?;
    if let Some(other) = doc.keys().find(|k| *k != key) {
        return Err(format!("{file}: unknown table `{other}`; this file holds [[{key}]] rows only"));
    }
    doc.remove(key).ok_or_else(|| format!("{file}: no [[{key}]] rows"))
}

/// Collects the problems of one content file, each with its line.
struct Check<'a> {
    file: &'a str,
    text: &'a str,
    errors: Vec<String>,
}

impl Check<'_> {
    fn row(&mut self, kind: &str, i: usize, name: &str, span: &std::ops::Range<usize>, field: &str, msg: String) {
        let line = field_line(self.text, span.clone(), field);
        self.errors.push(format!("{}:{line}: {kind}[{i}] ({name}).{field}: {msg}", self.file));
    }
}

impl Content {
    /// The content compiled into the program.
    pub fn builtin() -> Result<Content, String> {
        Content::parse(&FILES)
    }

    /// Parses content files given as (path, text), in the order of [`FILES`] (matched by file
    /// name); every problem is reported, one per line.
    pub fn parse(files: &[(&str, &str)]) -> Result<Content, String> {
        let get = |name: &str| -> Result<(&str, &str), String> {
            files
                .iter()
                .find(|(p, _)| p.ends_with(&format!("/{name}")) || *p == name)
                .copied()
                .ok_or_else(|| format!("content/collision/{name}: missing"))
        };
        let mut errors = Vec::new();
        let mut c = Content::default();
        macro_rules! load {
            ($field:ident, $ty:ty, $file:expr, $key:expr) => {{
                match get($file).and_then(|(p, t)| table::<$ty>(p, t, $key).map(|rows| (p, t, rows))) {
                    Ok((p, t, rows)) => {
                        c.$field = rows.iter().map(|r| r.get_ref().clone()).collect();
                        Some((p, t, rows.iter().map(|r| r.span()).collect::<Vec<_>>()))
                    }
                    Err(e) => {
                        errors.push(e);
                        None
                    }
                }
            }};
        }
        let values = load!(values, Value, "values.toml", "value");
        let races = load!(races, Race, "races.toml", "race");
        let tarots = load!(tarots, Tarot, "tarots.toml", "tarot");
        let weapons = load!(weapons, Weapon, "weapons.toml", "weapon");
        let wench = load!(weapon_enchantments, WeaponEnchantment, "weapon-enchantments.toml", "enchantment");
        let armours = load!(armours, Armour, "armours.toml", "armour");
        let aench = load!(armour_enchantments, ArmourEnchantment, "armour-enchantments.toml", "enchantment");
        let accessories = load!(accessories, Accessory, "accessories.toml", "accessory");
        let skills = load!(skills, Skill, "skills.toml", "skill");
        let terms = load!(terms, Term, "glossary.toml", "term");
        match get("rules.toml").and_then(|(p, t)| table::<Entry>(p, t, "entry")) {
            Ok(rows) => c.rules = rows.into_iter().map(|r| r.into_inner()).collect(),
            Err(e) => errors.push(e),
        }
        if !errors.is_empty() {
            return Err(errors.join("\n"));
        }
        let mut errors_late: Vec<String> = Vec::new();
        let value_names: Vec<String> = c.values.iter().map(|v| norm(&v.name)).collect();
        let known_value = |v: &str| value_names.contains(&norm(v));
        let term_known = |t: &str| c.term(t).is_some();
        let mut check = |loaded: Option<(&str, &str, Vec<std::ops::Range<usize>>)>,
                         kind: &str,
                         rows: &dyn Fn(usize) -> (String, Vec<(&'static str, String)>)| {
            let Some((file, text, spans)) = loaded else { return };
            let mut ch = Check { file, text, errors: Vec::new() };
            let mut seen: Vec<String> = Vec::new();
            for (i, span) in spans.iter().enumerate() {
                let (name, problems) = rows(i);
                if seen.contains(&norm(&name)) {
                    ch.row(kind, i, &name, span, "name", format!("{name:?} appears twice in this file"));
                }
                seen.push(norm(&name));
                for (field, msg) in problems {
                    ch.row(kind, i, &name, span, field, msg);
                }
            }
            errors.extend(ch.errors);
        };
        let one_value = |v: &str, universal_ok: bool| -> Option<String> {
            if (universal_ok && v == "universal") || known_value(v) {
                None
            } else {
                Some(format!(
                    "{v:?} is not one of the eight values (C-CREATE-1){}",
                    if universal_ok { " or universal" } else { "" }
                ))
            }
        };
        check(values, "value", &|i| {
            let v = &c.values[i];
            let mut p = Vec::new();
            if !SUITS.contains(&v.suit.as_str()) {
                p.push(("suit", format!("{:?} is not a suit ({})", v.suit, SUITS.join(", "))));
            }
            (v.name.clone(), p)
        });
        let eight = c.values.len();
        if eight != 8 {
            errors_late.push(format!(
                "content/collision/values.toml: {} values; the guide has exactly eight (C-CREATE-1)",
                eight
            ));
        }
        check(races, "race", &|i| {
            let r = &c.races[i];
            let mut p = Vec::new();
            p.extend(one_value(&r.value, true).map(|m| ("value", m)));
            for e in r.effects.iter().filter(|e| !term_known(e)) {
                p.push(("effects", format!("{e:?} is not a glossary term")));
            }
            (r.name.clone(), p)
        });
        check(tarots, "tarot", &|i| {
            let t = &c.tarots[i];
            let mut p = Vec::new();
            if !SUITS.contains(&t.suit.as_str()) {
                p.push(("suit", format!("{:?} is not a suit ({})", t.suit, SUITS.join(", "))));
            }
            if !(2..=11).contains(&t.rank) {
                p.push(("rank", format!("{} is not a rank from 2 to 11 (Ace) (C-CREATE-10)", t.rank)));
            }
            if norm(&t.name) != norm(&format!("{} of {}", rank_name(t.rank), t.suit)) {
                p.push(("name", format!("does not match rank {} and suit {}", t.rank, t.suit)));
            }
            for v in &t.values {
                p.extend(one_value(v, false).map(|m| ("values", m)));
            }
            if t.bonus.arm != 0 {
                p.push(("bonus", "a tarot never changes Arm".into()));
            }
            (t.name.clone(), p)
        });
        check(weapons, "weapon", &|i| {
            let w = &c.weapons[i];
            let mut p = Vec::new();
            p.extend(one_value(&w.value, true).map(|m| ("value", m)));
            if !TYPES.contains(&w.kind.as_str()) {
                p.push(("type", format!("{:?} is not a damage type ({})", w.kind, TYPES.join(", "))));
            }
            if parse_reach(&w.reach).is_none() {
                p.push(("reach", format!("{:?} is not a number, or a number and + for ranged", w.reach)));
            }
            if w.hands > 2 {
                p.push(("hands", format!("{} hands; at most 2", w.hands)));
            }
            (w.name.clone(), p)
        });
        check(wench, "enchantment", &|i| {
            let e = &c.weapon_enchantments[i];
            let mut p = Vec::new();
            p.extend(one_value(&e.value, false).map(|m| ("value", m)));
            if !TYPES.contains(&e.kind.as_str()) {
                p.push(("type", format!("{:?} is not a damage type ({})", e.kind, TYPES.join(", "))));
            }
            (e.name.clone(), p)
        });
        check(armours, "armour", &|i| {
            let a = &c.armours[i];
            let mut p = Vec::new();
            for v in &a.values {
                p.extend(one_value(v, false).map(|m| ("values", m)));
            }
            (a.name.clone(), p)
        });
        check(aench, "enchantment", &|i| {
            let e = &c.armour_enchantments[i];
            let mut p = Vec::new();
            p.extend(one_value(&e.value, false).map(|m| ("value", m)));
            for g in e.grants.iter().filter(|g| !term_known(g)) {
                p.push(("grants", format!("{g:?} is not a glossary term")));
            }
            (e.name.clone(), p)
        });
        check(accessories, "accessory", &|i| {
            let a = &c.accessories[i];
            let mut p = Vec::new();
            p.extend(one_value(&a.value, true).map(|m| ("value", m)));
            for g in a.grants.iter().filter(|g| !term_known(g)) {
                p.push(("grants", format!("{g:?} is not a glossary term")));
            }
            (a.name.clone(), p)
        });
        check(skills, "skill", &|i| {
            let s = &c.skills[i];
            let mut p = Vec::new();
            p.extend(one_value(&s.value, true).map(|m| ("value", m)));
            if !SUITS.contains(&s.suit.as_str()) {
                p.push(("suit", format!("{:?} is not a suit ({})", s.suit, SUITS.join(", "))));
            }
            if !term_known(&s.name) {
                p.push(("name", "has no glossary term of that name".into()));
            }
            (s.name.clone(), p)
        });
        check(terms, "term", &|i| {
            let t = &c.terms[i];
            let mut p = Vec::new();
            if !KINDS.contains(&t.kind.as_str()) {
                p.push(("kind", format!("{:?} is not one of {}", t.kind, KINDS.join(", "))));
            }
            (t.name.clone(), p)
        });
        errors.extend(errors_late);
        if errors.is_empty() { Ok(c) } else { Err(errors.join("\n")) }
    }

    /// The glossary term called `name` (or with that alias).
    pub fn term(&self, name: &str) -> Option<&Term> {
        let n = norm(name);
        self.terms
            .iter()
            .find(|t| norm(&t.name) == n)
            .or_else(|| self.terms.iter().find(|t| t.aliases.iter().any(|a| norm(a) == n)))
    }

    /// The value called `name`.
    pub fn value(&self, name: &str) -> Option<&Value> {
        self.values.iter().find(|v| norm(&v.name) == norm(name))
    }

    /// A value's display name ("conquest" as "Conquest").
    pub fn value_name(&self, id: &str) -> String {
        self.value(id).map(|v| v.name.clone()).unwrap_or_else(|| title(id))
    }
}

/// "6", "10", "Ace".
pub fn rank_name(rank: u8) -> String {
    if rank == 11 { "Ace".into() } else { rank.to_string() }
}
