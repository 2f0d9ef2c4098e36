//! Building characters and battle groups (C-CREATE-1 to C-CREATE-38): a file names each
//! character's options; [`check_file`] finds every broken creation rule at once, each with the
//! file, line and field and what to change, or computes the cards (stats with Att into W-Att and
//! Str into W-Pow, reach bonuses, types, crits, effects, points, values, restrictions).

use crate::content::{
    Accessory, Armour, ArmourEnchantment, Bonus, Content, Race, Skill, Tarot, Weapon, WeaponEnchantment, field_line,
    norm, rank_name, title, toml_error,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use toml::Spanned;

/// One name, or (wrongly, for the rule to say so) several.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    /// One name.
    One(String),
    /// A list of names.
    Many(Vec<String>),
}

impl OneOrMany {
    fn list(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => vec![s.as_str()],
            OneOrMany::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// A weapon as a file names it: `"Sabre"` or `{ name = "Sabre", enchantment = "Shadow" }`.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum WeaponPick {
    /// A weapon with no enchantment.
    Name(String),
    /// A weapon and, optionally, its enchantment.
    Full(WeaponSpec),
}

/// A weapon and its enchantment.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    /// The weapon.
    pub name: String,
    /// Its enchantment (C-CREATE-20).
    #[serde(default)]
    pub enchantment: Option<String>,
}

impl WeaponPick {
    fn parts(&self) -> (&str, Option<&str>) {
        match self {
            WeaponPick::Name(n) => (n, None),
            WeaponPick::Full(w) => (&w.name, w.enchantment.as_deref()),
        }
    }
}

/// One character as its player writes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterSpec {
    /// Name (C-CREATE-37).
    pub name: String,
    /// Race (exactly one, C-CREATE-7).
    #[serde(default)]
    pub race: Option<OneOrMany>,
    /// Tarot (exactly one, C-CREATE-9).
    #[serde(default)]
    pub tarot: Option<OneOrMany>,
    /// Up to two weapons (C-CREATE-14).
    #[serde(default)]
    pub weapons: Vec<WeaponPick>,
    /// At most one armour (C-CREATE-25).
    #[serde(default, alias = "armor")]
    pub armour: Option<OneOrMany>,
    /// At most one armour enchantment (C-CREATE-26).
    #[serde(default, alias = "armor_enchantment")]
    pub armour_enchantment: Option<OneOrMany>,
    /// At most one accessory (C-CREATE-27).
    #[serde(default)]
    pub accessory: Option<OneOrMany>,
    /// Skills (C-CREATE-29).
    #[serde(default)]
    pub skills: Vec<String>,
    /// The values the player means the character to have (C-CREATE-4, C-CREATE-6); worked out
    /// from the options when left out.
    #[serde(default)]
    pub values: Option<Vec<String>>,
    /// Free text (no rules).
    #[serde(default)]
    pub notes: Option<String>,
}

/// The battle group's own fields.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSpec {
    /// Name.
    #[serde(default)]
    pub name: Option<String>,
    /// The game's point allotment (C-CREATE-36; 250 or more allows rank 8+, C-CREATE-12).
    #[serde(default)]
    pub allotment: Option<u32>,
}

/// A character or battle-group file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupFile {
    /// The group's fields, if any.
    #[serde(default)]
    pub group: Option<Spanned<GroupSpec>>,
    /// The characters.
    #[serde(default)]
    pub character: Vec<Spanned<CharacterSpec>>,
}

/// A card's core and weapon stats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
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
}

impl Stats {
    fn add(&mut self, b: &Bonus) {
        self.def += b.def;
        self.arm += b.arm;
        self.tuf += b.tuf;
        self.end += b.end;
        self.mana += b.mana;
        self.comm += b.comm;
        self.mv += b.mv;
        self.att += b.att;
        self.str += b.str;
        self.spow += b.spow;
    }
}

/// A weapon as the card shows it, with the character's stats added.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardWeapon {
    /// Weapon name.
    pub name: String,
    /// Its enchantment.
    pub enchantment: Option<String>,
    /// Endurance cost.
    pub ec: u8,
    /// Damage type (the enchantment's, if any: C-CREATE-21).
    #[serde(rename = "type")]
    pub kind: String,
    /// W-Att: weapon + Att + enchantment (C-CREATE-16).
    pub w_att: i32,
    /// W-Pow: weapon + Str + enchantment (C-CREATE-16).
    pub w_pow: i32,
    /// Reach: weapon + race + enchantment, "N+" when ranged (C-CREATE-17).
    pub reach: String,
    /// Crit entries.
    pub crit: Vec<String>,
    /// Special entries.
    pub special: Vec<String>,
    /// Hands.
    pub hands: u8,
}

/// One line of the points total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cost {
    /// race, tarot, weapon, weapon enchantment, armour, armour enchantment, accessory, skill.
    pub part: String,
    /// The option.
    pub name: String,
    /// The value that supplied it; none for Universal.
    pub value: Option<String>,
    /// Its points.
    pub points: u32,
}

/// A character card (L13-67).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Card {
    /// Name.
    pub name: String,
    /// Points (C-CREATE-35).
    pub points: u32,
    /// Values, in the guide's order (C-CREATE-4).
    pub values: Vec<String>,
    /// Race.
    pub race: String,
    /// Tarot.
    pub tarot: String,
    /// Core and weapon stats.
    pub stats: Stats,
    /// Weapons.
    pub weapons: Vec<CardWeapon>,
    /// Accessory, and the hands it uses.
    pub accessory: Option<(String, u8)>,
    /// Armour.
    pub armour: Option<String>,
    /// Armour enchantment.
    pub armour_enchantment: Option<String>,
    /// Effects and abilities, with their costs.
    pub effects: Vec<String>,
    /// "250+" for rank 8+ (C-CREATE-12).
    pub restrictions: Option<String>,
    /// Endurance at deployment: End, doubled by Mark of the Titans, never above 9 (C-CREATE-38).
    pub deploy_endurance: i32,
    /// Skills taken and allowed.
    pub skills: (usize, u8),
    /// Where the points come from.
    pub costs: Vec<Cost>,
}

/// A legal file: its cards and the group's totals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Checked {
    /// The group's name, if given.
    pub group: Option<String>,
    /// The game's allotment, if given.
    pub allotment: Option<u32>,
    /// The cards.
    pub cards: Vec<Card>,
    /// Total points.
    pub points: u32,
    /// The values the group uses (C-CREATE-3).
    pub values: Vec<String>,
}

/// The Major Arcana (C-CREATE-9): named characters, not built.
const MAJOR_ARCANA: [&str; 22] = [
    "The Fool",
    "The Magician",
    "The High Priestess",
    "The Empress",
    "The Emperor",
    "The Hierophant",
    "The Lovers",
    "The Chariot",
    "Strength",
    "The Hermit",
    "Wheel of Fortune",
    "Justice",
    "The Hanged Man",
    "Death",
    "Temperance",
    "The Devil",
    "The Tower",
    "The Star",
    "The Moon",
    "The Sun",
    "Judgement",
    "The World",
];

/// A problem with one field of one character.
struct Problem {
    field: String,
    msg: String,
}

fn problem(field: impl Into<String>, msg: impl Into<String>) -> Problem {
    Problem { field: field.into(), msg: msg.into() }
}

/// Finds `wanted` among `names`; else says what there is.
fn find<'a, T>(list: &'a [T], name: fn(&T) -> &str, wanted: &str, what: &str) -> Result<&'a T, String> {
    let w = norm(wanted);
    if let Some(x) = list.iter().find(|x| norm(name(x)) == w) {
        return Ok(x);
    }
    let names: Vec<&str> = list.iter().map(name).collect();
    Err(match fray_core::lookup::closest(wanted, &names) {
        Some(near) => format!("no {what} {wanted:?}; did you mean {near:?}?"),
        None if names.len() <= 16 => format!("no {what} {wanted:?}; choose one of {}", names.join(", ")),
        None => format!("no {what} {wanted:?}; `fray rules collision --list` lists every {what}"),
    })
}

/// The options one character names, found in the content.
#[derive(Default)]
struct Resolved<'c> {
    race: Option<&'c Race>,
    tarot: Option<&'c Tarot>,
    weapons: Vec<(&'c Weapon, Option<&'c WeaponEnchantment>)>,
    armour: Option<&'c Armour>,
    armour_enchantment: Option<&'c ArmourEnchantment>,
    accessory: Option<&'c Accessory>,
    skills: Vec<&'c Skill>,
    problems: Vec<Problem>,
}

/// Exactly one (`required`) or at most one of a field (C-CREATE-7, -9, -25, -26, -27).
fn single<'s>(
    p: &mut Vec<Problem>,
    field: &str,
    v: &'s Option<OneOrMany>,
    required: bool,
    rule: &str,
) -> Option<&'s str> {
    let list = v.as_ref().map(OneOrMany::list).unwrap_or_default();
    match list.as_slice() {
        [] if required => {
            p.push(problem(field, format!("missing; every character has exactly one {field} ({rule})")));
            None
        }
        [] => None,
        [one] => Some(one),
        many => {
            p.push(problem(
                field,
                format!(
                    "{} given ({}); a character has {} one {field} ({rule}); keep one",
                    many.len(),
                    many.join(", "),
                    if required { "exactly" } else { "at most" }
                ),
            ));
            Some(many[0])
        }
    }
}

fn resolve<'c>(c: &'c Content, spec: &CharacterSpec) -> Resolved<'c> {
    let mut r = Resolved::default();
    let p = &mut r.problems;
    if let Some(name) = single(p, "race", &spec.race, true, "C-CREATE-7") {
        match find(&c.races, |x| &x.name, name, "race") {
            Ok(x) => r.race = Some(x),
            Err(e) => p.push(problem("race", format!("{e} (C-CREATE-7)"))),
        }
    }
    if let Some(name) = single(p, "tarot", &spec.tarot, true, "C-CREATE-9") {
        let n = norm(name);
        let major = MAJOR_ARCANA.iter().find(|m| norm(m) == n || norm(m.trim_start_matches("The ")) == n);
        let court = ["page", "knight", "queen", "king"].iter().any(|k| n.starts_with(k) && n.contains("of"));
        if let Some(m) = major {
            p.push(problem(
                "tarot",
                format!(
                    "{m} is a Major Arcana: those are fixed story characters, not built (C-CREATE-9); choose a Minor Arcana such as \"4 of Swords\""
                ),
            ));
        } else if court {
            p.push(problem(
                "tarot",
                format!("{name:?}: Minor Arcana ranks run 2 to 10 and Ace (C-CREATE-10); choose one of those"),
            ));
        } else {
            match find(&c.tarots, |x| &x.name, name, "tarot") {
                Ok(x) => r.tarot = Some(x),
                Err(e) => p.push(problem("tarot", format!("{e} (C-CREATE-10)"))),
            }
        }
    }
    if spec.weapons.len() > 2 {
        let names: Vec<&str> = spec.weapons.iter().map(|w| w.parts().0).collect();
        p.push(problem(
            "weapons",
            format!(
                "{} weapons ({}); a character carries at most two (C-CREATE-14); drop {}",
                names.len(),
                names.join(", "),
                names.len() - 2
            ),
        ));
    }
    for (i, w) in spec.weapons.iter().enumerate() {
        let (name, ench) = w.parts();
        let field = format!("weapons[{i}]");
        let weapon = match find(&c.weapons, |x| &x.name, name, "weapon") {
            Ok(x) => Some(x),
            Err(e) => {
                p.push(problem(&field, format!("{e} (C-CREATE-14)")));
                None
            }
        };
        let ench = ench.and_then(|e| match find(&c.weapon_enchantments, |x| &x.name, e, "weapon enchantment") {
            Ok(x) => Some(x),
            Err(e) => {
                p.push(problem(format!("{field}.enchantment"), format!("{e} (C-CREATE-20)")));
                None
            }
        });
        if let Some(w) = weapon {
            r.weapons.push((w, ench));
        }
    }
    if let Some(name) = single(p, "armour", &spec.armour, false, "C-CREATE-25") {
        match find(&c.armours, |x| &x.name, name, "armour") {
            Ok(x) => r.armour = Some(x),
            Err(e) => p.push(problem("armour", format!("{e} (C-CREATE-25)"))),
        }
    }
    if let Some(name) = single(p, "armour_enchantment", &spec.armour_enchantment, false, "C-CREATE-26") {
        match find(&c.armour_enchantments, |x| &x.name, name, "armour enchantment") {
            Ok(x) => r.armour_enchantment = Some(x),
            Err(e) => p.push(problem("armour_enchantment", format!("{e} (C-CREATE-26)"))),
        }
    }
    if let Some(name) = single(p, "accessory", &spec.accessory, false, "C-CREATE-27") {
        match find(&c.accessories, |x| &x.name, name, "accessory") {
            Ok(x) => r.accessory = Some(x),
            Err(e) => p.push(problem("accessory", format!("{e} (C-CREATE-27)"))),
        }
    }
    for (i, s) in spec.skills.iter().enumerate() {
        match find(&c.skills, |x| &x.name, s, "skill") {
            Ok(x) => {
                if r.skills.iter().any(|y| y.name == x.name) {
                    p.push(problem(
                        format!("skills[{i}]"),
                        format!("{} is taken twice; each skill is taken once (C-CREATE-33); remove one", x.name),
                    ));
                } else {
                    r.skills.push(x);
                }
            }
            Err(e) => p.push(problem(format!("skills[{i}]"), format!("{e} (C-CREATE-32)"))),
        }
    }
    r
}

/// An option and the values that offer it (none: Universal).
struct Source {
    label: String,
    values: Vec<String>,
}

/// A Universal option supplies no value (C-CREATE-5).
fn ids(v: &str) -> Vec<String> {
    if v == "universal" { Vec::new() } else { vec![norm(v)] }
}

/// Every option with the values offering it (C-CREATE-4), in card order.
fn sources(r: &Resolved) -> Vec<Source> {
    let mut out = Vec::new();
    let mut add = |label: String, values: Vec<String>| out.push(Source { label, values });
    if let Some(x) = r.race {
        add(x.name.clone(), ids(&x.value));
    }
    if let Some(x) = r.tarot {
        add(x.name.clone(), x.values.iter().map(|v| norm(v)).collect());
    }
    for (w, e) in &r.weapons {
        add(w.name.clone(), ids(&w.value));
        if let Some(e) = e {
            add(format!("{} enchantment", e.name), ids(&e.value));
        }
    }
    if let Some(x) = r.armour {
        add(x.name.clone(), x.values.iter().map(|v| norm(v)).collect());
    }
    if let Some(x) = r.armour_enchantment {
        add(format!("{} armour enchantment", x.name), ids(&x.value));
    }
    if let Some(x) = r.accessory {
        add(x.name.clone(), ids(&x.value));
    }
    for s in &r.skills {
        add(s.name.clone(), ids(&s.value));
    }
    out
}

/// Values every source forces (offered by one value only).
fn forced(src: &[Source]) -> BTreeSet<String> {
    src.iter().filter(|s| s.values.len() == 1).map(|s| s.values[0].clone()).collect()
}

/// Which value supplies each option, and the character's values (C-CREATE-4, C-CREATE-6): an
/// option offered by two values takes one the character already has, else one it declared,
/// else one the group already uses, else the first the guide lists.
fn attribute(
    c: &Content,
    src: &[Source],
    declared: Option<&[String]>,
    group: &BTreeSet<String>,
    p: &mut Vec<Problem>,
) -> (Vec<Option<String>>, Vec<String>) {
    let known: Vec<String> = c.values.iter().map(|v| norm(&v.name)).collect();
    let declared: Option<Vec<String>> = declared.map(|d| {
        d.iter()
            .filter_map(|v| {
                if known.contains(&norm(v)) {
                    Some(norm(v))
                } else {
                    let names: Vec<&str> = c.values.iter().map(|v| v.name.as_str()).collect();
                    p.push(problem(
                        "values",
                        format!("{v:?} is not a value; the eight are {} (C-CREATE-1)", names.join(", ")),
                    ));
                    None
                }
            })
            .collect()
    });
    let mut chosen = forced(src);
    let mut by: Vec<Option<String>> = Vec::new();
    for s in src {
        let pick = match s.values.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            many => {
                // Best: a value the character already has (the one supplying most of its
                // options), then one it declared, then one its group uses, then the guide's order.
                let supplied = |v: &String| src.iter().filter(|s| s.values == [v.clone()]).count();
                let key = |v: &String| {
                    (
                        chosen.contains(v),
                        declared.as_ref().is_some_and(|d| d.contains(v)),
                        group.contains(v),
                        supplied(v),
                    )
                };
                let pick = many.iter().rev().max_by_key(|v| key(v)).cloned().unwrap_or_else(|| many[0].clone());
                if let Some(d) = &declared
                    && !many.iter().any(|v| d.contains(v))
                {
                    let names: Vec<String> = many.iter().map(|v| c.value_name(v)).collect();
                    p.push(problem(
                        "values",
                        format!(
                            "{} is offered by {}; add one of them to values (C-CREATE-6)",
                            s.label,
                            names.join(" or ")
                        ),
                    ));
                }
                chosen.insert(pick.clone());
                Some(pick)
            }
        };
        by.push(pick);
    }
    if let Some(d) = &declared {
        for v in forced(src).iter().filter(|v| !d.contains(v)) {
            let from: Vec<&str> = src.iter().filter(|s| s.values == [v.clone()]).map(|s| s.label.as_str()).collect();
            p.push(problem(
                "values",
                format!(
                    "{} comes only from {}; add {} to values (C-CREATE-4)",
                    from.join(", "),
                    c.value_name(v),
                    c.value_name(v)
                ),
            ));
        }
        for v in d.iter().filter(|v| !chosen.contains(*v)) {
            p.push(problem(
                "values",
                format!("{} supplies none of this character's options; remove it (C-CREATE-4)", c.value_name(v)),
            ));
        }
    }
    let ordered: Vec<String> = known.iter().filter(|v| chosen.contains(*v)).cloned().collect();
    (by, ordered)
}

/// Checks one character and computes its card (the card is made even when there are
/// problems, for the group totals; it is printed only when the whole file is legal).
fn build(c: &Content, spec: &CharacterSpec, group: &BTreeSet<String>) -> (Option<Card>, Vec<Problem>) {
    let r = resolve(c, spec);
    let src = sources(&r);
    let mut p = r.problems;
    let (by, values) = attribute(c, &src, spec.values.as_deref(), group, &mut p);
    // C-CREATE-2: at most three values; name the options that bring each.
    if values.len() > 3 {
        let detail: Vec<String> = values
            .iter()
            .map(|v| {
                let opts: Vec<&str> = src
                    .iter()
                    .zip(&by)
                    .filter(|(_, b)| b.as_deref() == Some(v.as_str()))
                    .map(|(s, _)| s.label.as_str())
                    .collect();
                format!("{} ({})", c.value_name(v), opts.join(", "))
            })
            .collect();
        p.push(problem(
            "values",
            format!(
                "{} values: {}; a character has at most three (C-CREATE-2); swap the options of one value for Universal ones or another value's",
                values.len(),
                detail.join("; ")
            ),
        ));
    }
    let (Some(race), Some(tarot)) = (r.race, r.tarot) else { return (None, p) };
    // C-CREATE-20, C-CREATE-24: enchantment rank and Sharp.
    for (i, (w, e)) in r.weapons.iter().enumerate() {
        let Some(e) = e else { continue };
        if tarot.rank < e.min_rank {
            p.push(problem(
                format!("weapons[{i}].enchantment"),
                format!(
                    "{} needs a tarot of rank {} or more; {} is rank {} (C-CREATE-20); choose a rank {} tarot or another enchantment",
                    e.name, e.min_rank, tarot.name, tarot.rank, e.min_rank
                ),
            ));
        }
        if w.special.iter().any(|s| s == "Sharp") && e.crit.iter().any(|x| x == "Slay") {
            p.push(problem(
                format!("weapons[{i}].enchantment"),
                format!(
                    "{} is Sharp and Sharp weapons may not have Crit: Slay, which {} gives (C-CREATE-24); choose another enchantment",
                    w.name, e.name
                ),
            ));
        }
    }
    // C-CREATE-26: armour enchantment needs armour and rank.
    if let Some(e) = r.armour_enchantment {
        if r.armour.is_none() {
            p.push(problem(
                "armour_enchantment",
                format!(
                    "{} enchants armour, and this character wears none (C-CREATE-26); add armour or remove it",
                    e.name
                ),
            ));
        }
        if tarot.rank < e.min_rank {
            p.push(problem(
                "armour_enchantment",
                format!(
                    "{} needs a tarot of rank {} or more; {} is rank {} (C-CREATE-26); choose a rank {} tarot or another enchantment",
                    e.name, e.min_rank, tarot.name, tarot.rank, e.min_rank
                ),
            ));
        }
    }
    // C-CREATE-15: two hands for weapons and accessory together.
    let hands: u32 =
        r.weapons.iter().map(|(w, _)| u32::from(w.hands)).sum::<u32>() + r.accessory.map_or(0, |a| u32::from(a.hands));
    if hands > 2 {
        let mut items: Vec<String> = r.weapons.iter().map(|(w, _)| format!("{} {}", w.name, w.hands)).collect();
        if let Some(a) = r.accessory {
            items.push(format!("{} {}", a.name, a.hands));
        }
        p.push(problem(
            if r.accessory.is_some_and(|a| a.hands > 0) { "accessory" } else { "weapons" },
            format!(
                "weapons and accessory use {hands} hands ({}); two at most (C-CREATE-15); drop an item or pick one that uses fewer hands",
                items.join(", ")
            ),
        ));
    }
    // C-CREATE-29, C-CREATE-30: skills per tarot, plus one for Skill+1 races.
    let extra = u8::from(race.effects.iter().any(|e| e == "Skill+1"));
    let cap = tarot.skills + extra;
    if r.skills.len() > usize::from(cap) {
        let why = if extra > 0 {
            format!("{} allows {} and {} adds one (C-CREATE-29, C-CREATE-30)", tarot.name, tarot.skills, race.name)
        } else {
            format!("{} allows {} (C-CREATE-29)", tarot.name, tarot.skills)
        };
        p.push(problem(
            "skills",
            format!("{} skills; {why}; remove {}", r.skills.len(), r.skills.len() - usize::from(cap)),
        ));
    }
    // C-CREATE-32: skill tiers.
    for s in &r.skills {
        if !s.tier.allows(&s.suit, &tarot.suit, tarot.rank) {
            let i = spec.skills.iter().position(|x| norm(x) == norm(&s.name)).unwrap_or(0);
            let needs = match s.tier {
                crate::content::Tier::Any4 => "a tarot of rank 4 or more".to_string(),
                crate::content::Tier::Suit => format!("a {} tarot", title(&s.suit)),
                crate::content::Tier::Suit4 => format!("a {} tarot of rank 4 or more", title(&s.suit)),
                crate::content::Tier::Suit8 => format!("a {} tarot of rank 8 or more", title(&s.suit)),
            };
            p.push(problem(
                format!("skills[{i}]"),
                format!(
                    "{} is one of the {} and needs {needs}; {} does not qualify (C-CREATE-32); choose another skill or tarot",
                    s.name,
                    s.tier.heading(&s.suit),
                    tarot.name
                ),
            ));
        }
    }
    let parts = Parts {
        race,
        tarot,
        weapons: &r.weapons,
        armour: r.armour,
        armour_enchantment: r.armour_enchantment,
        accessory: r.accessory,
        skills: &r.skills,
    };
    (Some(card(c, spec, &parts, &src, &by, &values)), p)
}

/// The chosen options of a character whose race and tarot are known.
struct Parts<'a, 'c> {
    race: &'c Race,
    tarot: &'c Tarot,
    weapons: &'a [(&'c Weapon, Option<&'c WeaponEnchantment>)],
    armour: Option<&'c Armour>,
    armour_enchantment: Option<&'c ArmourEnchantment>,
    accessory: Option<&'c Accessory>,
    skills: &'a [&'c Skill],
}

/// The card (C-CREATE-13, -16 to -19, -21, -22, -25, -27, -28, -34, -35, -38).
fn card(
    c: &Content,
    spec: &CharacterSpec,
    x: &Parts,
    src: &[Source],
    by: &[Option<String>],
    values: &[String],
) -> Card {
    let mut stats = Stats::default();
    stats.add(&x.race.stats);
    stats.add(&x.tarot.bonus);
    // C-CREATE-28: creation-time bonuses of armour, armour enchantment and accessory.
    for b in [x.armour.map(|a| &a.bonus), x.armour_enchantment.map(|a| &a.bonus), x.accessory.map(|a| &a.bonus)]
        .into_iter()
        .flatten()
    {
        stats.add(b);
    }
    // C-CREATE-19: each S-Pow+1 weapon adds 1 (docs/rulings/collision.md).
    stats.spow += x.weapons.iter().filter(|(w, _)| w.special.iter().any(|s| s == "S-Pow+1")).count() as i32;
    // C-CREATE-38: Endurance never above 9.
    stats.end = stats.end.min(9);
    let weapons: Vec<CardWeapon> = x
        .weapons
        .iter()
        .map(|(w, e)| {
            let none = Bonus::default();
            let eb = e.map_or(&none, |e| &e.bonus);
            let (reach, ranged) = w.reach();
            // C-CREATE-17: the race's reach bonus applies to every weapon.
            let reach = reach + x.race.reach + if ranged { eb.reach_ranged } else { eb.reach };
            let mut crit = w.crit.clone();
            let mut special: Vec<String> = w.special.iter().filter(|s| *s != "S-Pow+1").cloned().collect();
            // C-CREATE-22: the enchantment's crits and specials join the weapon's.
            if let Some(e) = e {
                crit.extend(e.crit.iter().cloned());
                special.extend(e.special.iter().cloned());
            }
            CardWeapon {
                name: w.name.clone(),
                enchantment: e.map(|e| e.name.clone()),
                ec: w.ec,
                kind: e.map_or(&w.kind, |e| &e.kind).clone(),
                w_att: w.w_att + stats.att + eb.w_att,
                w_pow: w.w_pow + stats.str + eb.w_pow,
                reach: format!("{reach}{}", if ranged { "+" } else { "" }),
                crit,
                special,
                hands: w.hands,
            }
        })
        .collect();
    let mut effects: Vec<String> = Vec::new();
    let grants = x
        .race
        .effects
        .iter()
        .chain(x.accessory.iter().flat_map(|a| a.grants.iter()))
        .chain(x.armour_enchantment.iter().flat_map(|a| a.grants.iter()))
        .chain(x.skills.iter().map(|s| &s.name));
    for g in grants {
        let line = c.term(g).map_or_else(|| g.clone(), |t| t.card_line());
        if !effects.contains(&line) {
            effects.push(line);
        }
    }
    let mark = effects.iter().any(|e| e == "Mark of the Titans");
    // Costs in card order, each with the value that supplied it.
    let mut points_of: Vec<(String, String, u32)> = vec![
        ("race".into(), x.race.name.clone(), x.race.points),
        ("tarot".into(), x.tarot.name.clone(), x.tarot.points),
    ];
    // C-CREATE-18: weapons and their enchantments (C-CREATE-23: each from its own value).
    for (w, e) in x.weapons {
        points_of.push(("weapon".into(), w.name.clone(), w.points));
        if let Some(e) = e {
            points_of.push(("weapon enchantment".into(), e.name.clone(), e.points));
        }
    }
    if let Some(a) = x.armour {
        points_of.push(("armour".into(), a.name.clone(), a.points));
    }
    if let Some(a) = x.armour_enchantment {
        points_of.push(("armour enchantment".into(), a.name.clone(), a.points));
    }
    if let Some(a) = x.accessory {
        points_of.push(("accessory".into(), a.name.clone(), a.points));
    }
    // C-CREATE-31: skills are optional; some cost 0 points.
    for s in x.skills {
        points_of.push(("skill".into(), s.name.clone(), s.points));
    }
    debug_assert_eq!(points_of.len(), src.len());
    let costs: Vec<Cost> = points_of
        .into_iter()
        .zip(by)
        .map(|((part, name, points), v)| Cost { part, name, value: v.as_ref().map(|v| c.value_name(v)), points })
        .collect();
    Card {
        name: spec.name.clone(),
        points: costs.iter().map(|k| k.points).sum(),
        values: values.iter().map(|v| c.value_name(v)).collect(),
        race: x.race.name.clone(),
        tarot: x.tarot.name.clone(),
        stats,
        weapons,
        accessory: x.accessory.map(|a| (a.name.clone(), a.hands)),
        armour: x.armour.map(|a| a.name.clone()),
        armour_enchantment: x.armour_enchantment.map(|a| a.name.clone()),
        effects,
        restrictions: x.tarot.restrict.map(|n| format!("{n}+")),
        deploy_endurance: if mark { (stats.end * 2).min(9) } else { stats.end },
        skills: (x.skills.len(), x.tarot.skills + u8::from(x.race.effects.iter().any(|e| e == "Skill+1"))),
        costs,
    }
}

/// Checks a character or battle-group file: the cards and totals, or every problem, each as
/// `FILE:LINE: character[i] (NAME).FIELD: what is wrong (RULE); what to change`.
pub fn check_file(c: &Content, file: &str, text: &str) -> Result<Checked, Vec<String>> {
    let f: GroupFile = toml::from_str(text).map_err(|e| vec![toml_error(file, text, &e)])?;
    let group_line = f.group.as_ref().map_or(1, |g| fray_core::scenario::line_of(text, g.span().start));
    let group_field = |field: &str| match &f.group {
        Some(g) => field_line(text, g.span(), field),
        None => 1,
    };
    let group = f.group.as_ref().map(|g| g.get_ref().clone());
    let mut errors = Vec::new();
    if f.character.is_empty() {
        errors.push(format!(
            "{file}:{group_line}: no characters; write each as a [[character]] table with name, race, tarot and the other options"
        ));
        return Err(errors);
    }
    // The values the group's characters cannot avoid, to settle two-value options (C-CREATE-6).
    let group_forced: BTreeSet<String> =
        f.character.iter().flat_map(|ch| forced(&sources(&resolve(c, ch.get_ref())))).collect();
    let mut cards = Vec::new();
    for (i, ch) in f.character.iter().enumerate() {
        let spec = ch.get_ref();
        let (card, problems) = build(c, spec, &group_forced);
        let mut lines: Vec<(usize, String)> = problems
            .into_iter()
            .map(|pr| {
                let line = field_line(text, ch.span(), &pr.field);
                (line, format!("{file}:{line}: character[{i}] ({}).{}: {}", spec.name, pr.field, pr.msg))
            })
            .collect();
        lines.sort_by_key(|(l, _)| *l);
        errors.extend(lines.into_iter().map(|(_, e)| e));
        // C-CREATE-37: copies need told-apart names.
        if let Some(j) = f.character[..i].iter().position(|o| norm(&o.get_ref().name) == norm(&spec.name)) {
            errors.push(format!(
                "{file}:{}: character[{i}] ({}).name: character[{j}] has the same name; number or colour copies, such as \"{} (2)\" (C-CREATE-37)",
                field_line(text, ch.span(), "name"),
                spec.name,
                spec.name
            ));
        }
        cards.extend(card.map(|k| (i, k)));
    }
    let points: u32 = cards.iter().map(|(_, k)| k.points).sum();
    let mut values: Vec<String> = Vec::new();
    for v in c.values.iter().map(|v| &v.name) {
        if cards.iter().any(|(_, k)| k.values.contains(v)) {
            values.push(v.clone());
        }
    }
    // C-CREATE-3: three values per battle group.
    if values.len() > 3 {
        let who: Vec<String> = values
            .iter()
            .map(|v| {
                let names: Vec<&str> =
                    cards.iter().filter(|(_, k)| k.values.contains(v)).map(|(_, k)| k.name.as_str()).collect();
                format!("{v} ({})", names.join(", "))
            })
            .collect();
        errors.push(format!(
            "{file}:{group_line}: group.values: the characters use {} values: {}; a battle group uses at most three (C-CREATE-3); rebuild or drop the characters of one value",
            values.len(),
            who.join("; ")
        ));
    }
    let allotment = group.as_ref().and_then(|g| g.allotment);
    if let Some(a) = allotment {
        // C-CREATE-36: the group fits the allotment.
        if points > a {
            errors.push(format!(
                "{file}:{}: group.allotment: the characters cost {points} points, over the allotment of {a} (C-CREATE-36); remove {} points",
                group_field("allotment"),
                points - a
            ));
        }
        // C-CREATE-12: rank 8+ only in games of 250 points or more.
        for (i, k) in &cards {
            if let Some(r) = &k.restrictions
                && let Ok(min) = r.trim_end_matches('+').parse::<u32>()
                && a < min
            {
                errors.push(format!(
                    "{file}:{}: character[{i}] ({}).tarot: {} is rank 8 or more, allowed only in games of {min} points or more; this game allots {a} (C-CREATE-12); choose a tarot of rank 7 or less or a larger game",
                    field_line(text, f.character[*i].span(), "tarot"),
                    k.name,
                    k.tarot
                ));
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Checked {
        group: group.and_then(|g| g.name),
        allotment,
        cards: cards.into_iter().map(|(_, k)| k).collect(),
        points,
        values,
    })
}

/// The tarot called "RANK of SUIT", for tests and tools.
pub fn tarot_name(rank: u8, suit: &str) -> String {
    format!("{} of {}", rank_name(rank), title(suit))
}
