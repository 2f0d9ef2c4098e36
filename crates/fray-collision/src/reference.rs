//! The look-up behind `fray rules collision`: the card fields and creation rules
//! (`content/collision/rules.toml`), every value, race, tarot, weapon, enchantment, armour,
//! accessory and skill row, and every glossary term. Ability entries say whether the battle game
//! plays them.

use crate::content::{Content, Tier, norm, title};
use fray_core::lookup::Entry;

/// Appended to an ability, effect or skill entry the battle game does not play yet.
pub const NOT_PLAYED: &str = "[look-up only: not played in Fray's battles yet]";

/// Appended to an entry the battle game plays.
pub const PLAYED: &str = "[played in battle: docs/rulings/collision.md]";

/// The glossary terms and skills the battle game plays (crate::rules, crate::abilities).
pub const PLAYED_TERMS: &[&str] = &[
    "Guided Strike",
    "Butcher",
    "Gouge",
    "Finishing Blow",
    "Backstab",
    "Frighten",
    "Heal",
    "Berserk",
    "Check",
    "Caustic Burst",
    "Fire Breathing",
    "Dodge",
    "Block 2",
    "Block 4",
    "Hex X",
    "Hex",
    "Stun",
    "Poison",
    "Poison X",
    "Flee",
    "Skittish",
    "Dauntless",
    "Vicious",
    "Sharp",
    "Slay",
    "Unstable",
    "Multiattack",
    "Drain",
    "Ranged",
    "On Hit",
    "On Injury",
    "Burst Attack",
    "Line Attack",
    "Few Stood Against Many",
    "Clobber",
    "Dazzle",
    "Embloody",
    "Flash Freeze",
    "Mana Theft",
    "Shockwave",
    "Static Jolt",
    "Venom",
    "Touch of Death",
    "Shove",
    "Whirling Gale",
    "Knockback",
    "Steal",
    "Power Attack",
    "Sudden Strike",
    "Snipe",
    "Smite",
    "Chilling Strike",
    "Rip Around",
    "Thunder Strike",
    "Blast Attack",
    "Throw",
    "No Reactions",
    "Meditate",
    "Tap into Gea",
    "Heat of Battle",
    "Assess the Threat",
    "Mana Gift",
    "Regenerate",
    "Vigorate",
    "Rally",
    "Epic Heal",
    "Remedy",
    "Fortune",
    "Luck",
    "Serenity",
    "Immune",
    "Immune to Acid",
    "Immune to Cold",
    "Immune to Dark",
    "Immune to Electric",
    "Immune to Fire",
    "Immune to Light",
    "Immune to Magic",
    "Immune to Slay",
    "Resist Elements 2",
    "Voodoo",
    "Shrieking Armor",
    "Flame Wreath",
    "Leaping Move",
    "Levitating Move",
    "Mark of the Titans",
    "Mage Armor",
    "Power Channel",
    "Adamant Form",
    "Contort",
    "Majesty",
    "Damage types",
    "Fear",
    "Pow+X",
    "Injury+X",
    "Parry",
    "Decoy",
    "Look Out",
    "Deflect",
    "Shrug",
    "Retaliate",
    "Cling to Life",
    "Total Cover",
    "Inspire Fortitude",
    "Inspire Hatred",
    "Inspire Urgency",
    "Inspire Bravery",
    "Aura",
    "Persevere",
    "Shadow Hop",
    "Massive",
    "Partial Cover",
    "Camouflage",
    "Gather Courage",
    "Ignore Partial Cover",
    "Wreck",
    "Upheaval",
    // Reactions to others' attacks, abilities, moves and activations (crate::reactions).
    "Castle",
    "Got your Back",
    "Sidestep",
    "Tactical Strike",
    "Trip",
    "Distract",
    "Counter Attack",
    "Challenge",
    "Kiss of Death",
    "Haste",
    "Pounce",
    "Plan Ahead",
    "Barrage",
    "Buck Shot",
    "Checkmate",
    "Scissor Strike",
    "Hyper Cutter",
    "Pain Warp",
    "Meteor",
    "Out-Maneuver",
    "Swift Assault",
];

/// The marker for `name`'s entry: played or look-up only.
fn marker(name: &str) -> &'static str {
    if PLAYED_TERMS.iter().any(|t| norm(t) == norm(name)) { PLAYED } else { NOT_PLAYED }
}

fn lines(source: &[u32]) -> String {
    let l: Vec<String> = source.iter().map(u32::to_string).collect();
    format!("guide line{} {}", if l.len() == 1 { "" } else { "s" }, l.join(", "))
}

fn slug(s: &str) -> String {
    let mut out = String::new();
    for ch in s.chars() {
        if ch.is_alphanumeric() {
            out.extend(ch.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn value_of(c: &Content, v: &str) -> String {
    if v == "universal" { "Universal".into() } else { c.value_name(v) }
}

fn values_of(c: &Content, vs: &[String]) -> String {
    if vs.is_empty() { "Universal".into() } else { vs.iter().map(|v| c.value_name(v)).collect::<Vec<_>>().join(" or ") }
}

fn or_dash(v: &[String]) -> String {
    if v.is_empty() { "-".into() } else { v.join(", ") }
}

/// Every entry of the look-up.
pub fn index(c: &Content) -> Vec<Entry> {
    let mut out: Vec<Entry> = c.rules.clone();
    let entry = |id: String, name: &str, kind: &str, text: String| Entry {
        id,
        name: name.to_string(),
        kind: kind.to_string(),
        aliases: Vec::new(),
        text,
    };
    for v in &c.values {
        let n = norm(&v.name);
        let of = |list: Vec<&str>| if list.is_empty() { "-".to_string() } else { list.join(", ") };
        let races = of(c.races.iter().filter(|r| norm(&r.value) == n).map(|r| r.name.as_str()).collect());
        let weapons = of(c.weapons.iter().filter(|r| norm(&r.value) == n).map(|r| r.name.as_str()).collect());
        let we = of(c.weapon_enchantments.iter().filter(|r| norm(&r.value) == n).map(|r| r.name.as_str()).collect());
        let armour =
            of(c.armours.iter().filter(|r| r.values.iter().any(|x| norm(x) == n)).map(|r| r.name.as_str()).collect());
        let ae = of(c.armour_enchantments.iter().filter(|r| norm(&r.value) == n).map(|r| r.name.as_str()).collect());
        let acc = of(c.accessories.iter().filter(|r| norm(&r.value) == n).map(|r| r.name.as_str()).collect());
        let skills = of(c.skills.iter().filter(|r| norm(&r.value) == n).map(|r| r.name.as_str()).collect());
        let text = format!(
            "One of the eight values (C-CREATE-1). Offers: races {races}; tarots 4 to Ace of {}; weapons {weapons}; weapon enchantments {we}; armour {armour}; armour enchantments {ae}; accessory {acc}; skills {skills}. ({})",
            title(&v.suit),
            lines(&v.source)
        );
        out.push(entry(format!("value-{n}"), &v.name, "value", text));
    }
    for r in &c.races {
        let s = &r.stats;
        let text = format!(
            "{} race, {} points: Def {}, Arm {}, Tuf {}, End {}, Mana {}, Comm {}, Move {}, Att {}, Str {}, S-Pow {}; weapon reach {:+}; effects {}. {} ({})",
            value_of(c, &r.value),
            r.points,
            s.def,
            s.arm,
            s.tuf,
            s.end,
            s.mana,
            s.comm,
            s.mv,
            s.att,
            s.str,
            s.spow,
            r.reach,
            or_dash(&r.effects),
            r.text,
            lines(&r.source)
        );
        out.push(entry(format!("race-{}", slug(&r.name)), &r.name, "race", text));
    }
    for t in &c.tarots {
        let bonus = t.bonus.words();
        let restrict = t.restrict.map(|n| format!("; restricted to games of {n}+ points")).unwrap_or_default();
        let text = format!(
            "Tarot of rank {} ({}), from {}, {} points: {}; up to {} skill{}{restrict}. ({})",
            t.rank,
            title(&t.suit),
            values_of(c, &t.values),
            t.points,
            if bonus.is_empty() { "no stat bonus".into() } else { bonus.join(", ") },
            t.skills,
            if t.skills == 1 { "" } else { "s" },
            lines(&t.source)
        );
        let mut e = entry(format!("tarot-{}", slug(&t.name)), &t.name, "tarot", text);
        if t.rank == 11 {
            e.aliases.push(format!("11 of {}", title(&t.suit)));
        }
        out.push(e);
    }
    for w in &c.weapons {
        let text = format!(
            "{} weapon, {} points, {} hand{}: EC {}, {}, W-Att {}, W-Pow {}, Reach {}, Crit {}, Special {}. These are base values: a card adds the character's Att to W-Att, Str to W-Pow and the race's reach bonus. ({})",
            value_of(c, &w.value),
            w.points,
            w.hands,
            if w.hands == 1 { "" } else { "s" },
            w.ec,
            w.kind,
            w.w_att,
            w.w_pow,
            w.reach,
            or_dash(&w.crit),
            or_dash(&w.special),
            lines(&w.source)
        );
        out.push(entry(format!("weapon-{}", slug(&w.name)), &w.name, "weapon", text));
    }
    for e in &c.weapon_enchantments {
        let text = format!(
            "{} weapon enchantment, {} points, minimum rank {}: the weapon becomes {}; {}. ({})",
            value_of(c, &e.value),
            e.points,
            e.min_rank,
            e.kind,
            e.printed(),
            lines(&e.source)
        );
        out.push(entry(format!("weapon-enchantment-{}", slug(&e.name)), &e.name, "weapon enchantment", text));
    }
    for a in &c.armours {
        let text = format!(
            "{} {} armour, {} points: Def {:+}, Arm {:+}. ({})",
            values_of(c, &a.values),
            a.class,
            a.points,
            a.bonus.def,
            a.bonus.arm,
            lines(&a.source)
        );
        let mut e = entry(format!("armour-{}", slug(&a.name)), &a.name, "armour", text);
        e.aliases.push(a.name.replace("Armor", "Armour"));
        out.push(e);
    }
    for a in &c.armour_enchantments {
        let mut gives = a.grants.clone();
        gives.extend(a.bonus.words());
        let text = format!(
            "{} armour enchantment, {} points, minimum rank {}: {}. ({})",
            value_of(c, &a.value),
            a.points,
            a.min_rank,
            or_dash(&gives),
            lines(&a.source)
        );
        out.push(entry(format!("armour-enchantment-{}", slug(&a.name)), &a.name, "armour enchantment", text));
    }
    for a in &c.accessories {
        let mut gives: Vec<String> = a.grants.iter().map(|g| c.term(g).map_or(g.clone(), |t| t.card_line())).collect();
        gives.extend(a.bonus.words());
        let text = format!(
            "{} accessory, {} points, {} hand{}: {}. ({})",
            value_of(c, &a.value),
            a.points,
            a.hands,
            if a.hands == 1 { "" } else { "s" },
            or_dash(&gives),
            lines(&a.source)
        );
        out.push(entry(format!("accessory-{}", slug(&a.name)), &a.name, "accessory", text));
    }
    for s in &c.skills {
        let Some(t) = c.term(&s.name) else { continue };
        let tier = match s.tier {
            Tier::Any4 => "any rank 4 or greater".to_string(),
            _ => s.tier.heading(&s.suit),
        };
        let text = format!(
            "{} skill ({tier}), {} points: {}. {} {} ({})",
            value_of(c, &s.value),
            s.points,
            t.card_line(),
            t.text,
            marker(&s.name),
            lines(&t.source)
        );
        let mut e = entry(format!("skill-{}", slug(&s.name)), &s.name, "skill", text);
        e.aliases = t.aliases.clone();
        out.push(e);
    }
    for t in &c.terms {
        if c.skills.iter().any(|s| norm(&s.name) == norm(&t.name)) {
            continue;
        }
        let marker = if t.kind == "creation" { String::new() } else { format!(" {}", marker(&t.name)) };
        let text = format!("{}: {}{marker} ({})", t.card_line(), t.text, lines(&t.source));
        let mut e = entry(format!("term-{}", slug(&t.name)), &t.name, &t.kind, text);
        e.aliases = t.aliases.clone();
        out.push(e);
    }
    out
}
