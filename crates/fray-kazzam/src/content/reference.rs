//! The rules reference for `fray rules kazzam`: the entries of `content/kazzam/rules.toml`
//! (rules, statuses, terrain, in Fray's own words) and every power in play.

use crate::content::Content;
use crate::content::powers::{PowerDef, Targeting};
use fray_core::lookup::Entry;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    entry: Vec<Entry>,
}

/// A power written out with its numbers.
pub fn power_card(p: &PowerDef) -> String {
    // Range 99 stands for "any distance you can see" in the content files.
    let within = |range: i32| if range >= 99 { "in sight".to_string() } else { format!("within {range}") };
    let target = match p.target {
        Targeting::Implement => "implement range".to_string(),
        Targeting::Melee => "melee".to_string(),
        Targeting::Ranged { range } => {
            if range >= 99 {
                "ranged, in sight".to_string()
            } else {
                format!("ranged {range}")
            }
        }
        Targeting::Burst { radius } => format!("burst {radius}"),
        Targeting::Myself => "self".to_string(),
        Targeting::Ally { range } => format!("an ally {}", within(range)),
        Targeting::Creature { range } => format!("a creature {}", within(range)),
        Targeting::None => "no target".to_string(),
        Targeting::Area { range, size } => {
            if range >= 99 {
                format!("a {size}x{size} area anywhere")
            } else {
                format!("a {size}x{size} area centred within {range}")
            }
        }
    };
    let damage = p.damage.map(|d| format!(", damage {d}")).unwrap_or_default();
    let played = if p.reference_only { " [look-up only: Fray does not play it yet]" } else { "" };
    format!("{} ({:?}, {:?}, {target}{damage}){played}: {}", p.name, p.action, p.frequency, p.text)
}

/// Every entry: the rules file, then `content`'s powers, classes, roles, Creeps and the advanced
/// implements.
pub fn index(content: &Content) -> Result<Vec<Entry>, String> {
    let text = include_str!("../../../../content/kazzam/rules.toml");
    let mut out = toml::from_str::<RulesFile>(text).map_err(|e| format!("content/kazzam/rules.toml: {e}"))?.entry;
    for p in content.builtin_powers().all() {
        out.push(Entry {
            id: p.id.clone(),
            name: p.name.clone(),
            kind: "power".into(),
            aliases: vec![],
            text: power_card(p),
        });
    }
    for c in content.classes() {
        let imps = c.class.implements.join(", ");
        out.push(Entry {
            id: c.class.id.clone(),
            name: c.class.name.clone(),
            kind: "class".into(),
            aliases: vec![],
            text: format!("{} (implements: {imps})", c.class.text),
        });
        for f in &c.feature {
            let text = format!("{} class feature, level {}: {}", c.class.name, f.level, f.text);
            out.push(Entry { id: f.id.clone(), name: f.name.clone(), kind: "feature".into(), aliases: vec![], text });
        }
        for p in &c.power {
            let text = format!("{} power, level {}: {}", c.class.name, p.level.unwrap_or(1), power_card(p));
            // A class copy of a built-in power (Swap Places...) is already listed once.
            if out.iter().any(|e| e.id == p.id && e.kind == "power") {
                continue;
            }
            out.push(Entry { id: p.id.clone(), name: p.name.clone(), kind: "power".into(), aliases: vec![], text });
        }
    }
    let roles = content.roles();
    for r in &roles.role {
        let text = format!("{} Role Boost: {} From level 4: {}", r.text, r.boost, r.boost_level4);
        out.push(Entry { id: r.id.clone(), name: r.name.clone(), kind: "role".into(), aliases: vec![], text });
    }
    for s in &roles.specialization {
        let role = roles.role(&s.role).map_or(s.role.as_str(), |r| r.name.as_str());
        let text = format!("{role} specialization: {}", s.text);
        out.push(Entry {
            id: s.id.clone(),
            name: s.name.clone(),
            kind: "specialization".into(),
            aliases: vec![],
            text,
        });
    }
    for p in &roles.power {
        let role = p.role.as_deref().and_then(|r| roles.role(r)).map_or("", |r| r.name.as_str());
        let whose = match p.specialization.as_deref().and_then(|s| roles.specialization(s)) {
            Some(s) => format!("{role} ({}) role power", s.name),
            None => format!("{role} role power"),
        };
        let text = format!("{whose}: {}", power_card(p));
        // The four Defender Reactions share a name: their specialization tells them apart.
        let aliases = p.specialization.iter().map(|s| format!("{s} reaction")).collect();
        out.push(Entry { id: p.id.clone(), name: p.name.clone(), kind: "power".into(), aliases, text });
    }
    for c in content.creeps() {
        let actions: Vec<String> = c
            .action
            .iter()
            .map(|a| {
                let played = if a.reference_only { " [partly look-up only]" } else { "" };
                format!("{} {}: {}{played}", a.rolls, a.name, a.text)
            })
            .collect();
        let text = format!(
            "Creep ({:?}, size {}, speed {}, {}). Actions on the group's d6: {}. Traits: {} Miss Trigger: {}",
            c.kind,
            c.size,
            c.speed,
            c.source,
            actions.join("; "),
            c.traits,
            c.miss_trigger
        );
        out.push(Entry { id: c.id.clone(), name: c.name.clone(), kind: "creep".into(), aliases: vec![], text });
    }
    for a in crate::content::classes::advanced_implements()? {
        let text = format!("Advanced {} (level 3): {}", a.kind, a.text);
        out.push(Entry { id: a.id.clone(), name: a.name.clone(), kind: "implement".into(), aliases: vec![], text });
    }
    Ok(out)
}

/// A class file as a card: its implements, text, features and powers (`fray build kazzam
/// CLASS.toml`).
pub fn class_card(c: &crate::content::classes::ClassFile) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "{} — implements: {}\n  {}", c.class.name, c.class.implements.join(", "), c.class.text);
    for f in &c.feature {
        let _ = writeln!(
            out,
            "  feature (level {}{}): {} — {}",
            f.level,
            f.group.as_deref().map(|g| format!(", {g}")).unwrap_or_default(),
            f.name,
            f.text
        );
    }
    for p in &c.power {
        let note = if p.reference_only { " [look-up only]" } else { "" };
        let _ = writeln!(
            out,
            "  power (level {}, {}){note}: {}",
            p.level.unwrap_or(1),
            p.group.as_deref().unwrap_or("-"),
            power_card(p)
        );
    }
    let playable = c.power.iter().filter(|p| !p.reference_only).count();
    let _ = write!(out, "{} features, {} powers ({playable} played by the engine)", c.feature.len(), c.power.len());
    out
}
