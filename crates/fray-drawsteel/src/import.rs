//! Reading stat blocks in the shapes the community's open data uses (issue 19, item 6): a
//! monster in the Steel Compendium's statblock JSON and a hero in Forge Steel's hero JSON. Each
//! becomes a [`StatBlock`]; every field Fray cannot play is refused by name, with the path of the
//! field in the file. A data module: it imports no rule module. The shapes were learned from the
//! two projects' public data; the sample files in `content/drawsteel/import/` are Fray's own.

use crate::model::{
    AbilityDef, Characteristic, Characteristics, Distance, EffectDef, StatBlock, TargetKind, TierDef, Usage,
};
use serde_json::Value;

/// Which shape a JSON file is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A Steel Compendium monster statblock (`"type": "statblock"`).
    SteelCompendium,
    /// A Forge Steel hero (a `class` object and a `state`).
    ForgeSteel,
}

impl Format {
    /// Parses a format's name: `steel-compendium` or `forge-steel`.
    pub fn parse(s: &str) -> Option<Format> {
        match s.trim() {
            "steel-compendium" => Some(Format::SteelCompendium),
            "forge-steel" => Some(Format::ForgeSteel),
            _ => None,
        }
    }
    /// Recognises a JSON value's shape.
    pub fn detect(v: &Value) -> Option<Format> {
        if v.get("type").and_then(Value::as_str) == Some("statblock") {
            Some(Format::SteelCompendium)
        } else if v.get("class").is_some_and(Value::is_object) {
            Some(Format::ForgeSteel)
        } else {
            None
        }
    }
}

/// Reads a JSON file of either shape (told, or recognised); errors name `path` and each field.
pub fn read(path: &str, text: &str, format: Option<Format>) -> Result<StatBlock, Vec<String>> {
    let v: Value = serde_json::from_str(text).map_err(|e| vec![format!("{path}: not JSON: {e}")])?;
    let format = format.or_else(|| Format::detect(&v)).ok_or_else(|| {
        vec![format!(
            "{path}: neither a Steel Compendium statblock (\"type\": \"statblock\") nor a Forge Steel hero (a \"class\" object)"
        )]
    })?;
    let mut r = Reader { path, errors: Vec::new(), json: Some(text) };
    let block = match format {
        Format::SteelCompendium => r.monster(&v),
        Format::ForgeSteel => r.hero(&v),
    };
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    let errors = crate::model::check_block(&block);
    if errors.is_empty() { Ok(block) } else { Err(errors.into_iter().map(|e| format!("{path}: {e}")).collect()) }
}

/// An id from a name: lower case, words joined by `-`.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for w in name.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&w.to_ascii_lowercase());
    }
    out
}

/// Markdown links `[text](target)` and emphasis reduced to their text.
fn plain(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('[') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match (after.find(']'), after.find("](")) {
            (Some(j), Some(k)) if j == k => {
                out.push_str(&after[..j]);
                let tail = &after[j + 2..];
                rest = tail.find(')').map_or("", |e| &tail[e + 1..]);
            }
            _ => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.replace("**", "").trim().to_string()
}

struct Reader<'a> {
    path: &'a str,
    errors: Vec<String>,
    /// The JSON text, to find the line of a refused field (the markdown reader's fields carry
    /// their lines already).
    json: Option<&'a str>,
}

/// The line of `field` in a JSON file's text: each part of its path looked for in turn after
/// the one before (`class.name` is the `"name"` after `"class"`), a feature's keys after the
/// line naming it and before the next feature's name (`features[1] (Zap).usage` is the
/// `"usage"` after `"Zap"`); the line of the last part found, none if no part is written.
fn json_line(text: &str, field: &str) -> Option<usize> {
    let (before, name, after) = match (field.find(" ("), field.rfind(')')) {
        (Some(a), Some(b)) if b > a => (&field[..a], Some(&field[a + 2..b]), &field[b + 1..]),
        _ => (field, None, ""),
    };
    let quoted = |seg: &str| format!("\"{}\"", seg.split('[').next().unwrap_or(seg));
    // The parts found in turn from `pos`, before `end`: the last one's position.
    let seek = |path: &str, mut pos: usize, end: usize| {
        let mut found = None;
        for seg in path.split('.').filter(|p| !p.is_empty()) {
            if let Some(i) = text[pos..end].find(&quoted(seg)) {
                pos += i;
                found = Some(pos);
            }
        }
        found
    };
    let mut found = seek(before, 0, text.len());
    if let Some(n) = name {
        let pos = found.unwrap_or(0);
        let pos = pos + text[pos..].find(&format!("\"{n}\""))?;
        // A feature's keys come before the next feature's name.
        let from = pos + n.len() + 2;
        let end = text[from..].find("\"name\"").map_or(text.len(), |i| from + i);
        found = seek(after, pos, end).or(Some(pos));
    }
    found.map(|at| text[..at].matches('\n').count() + 1)
}

impl Reader<'_> {
    fn refuse(&mut self, field: &str, why: impl std::fmt::Display) {
        match self.json.and_then(|t| json_line(t, field)) {
            Some(line) => self.errors.push(format!("{}: line {line}, {field}: {why}", self.path)),
            None => self.errors.push(format!("{}: {field}: {why}", self.path)),
        }
    }

    /// A whole number, written as a number or as a string holding one.
    fn int(&mut self, v: &Value, field: &str, default: Option<i32>) -> i32 {
        match v.get(field) {
            Some(Value::Number(n)) if n.as_i64().is_some() => n.as_i64().unwrap_or(0) as i32,
            Some(Value::String(s)) if s.trim().parse::<i32>().is_ok() => s.trim().parse().unwrap_or(0),
            None if default.is_some() => default.unwrap_or(0),
            Some(other) => {
                self.refuse(field, format!("Fray reads a whole number here, not {other}"));
                0
            }
            None => {
                self.refuse(field, "missing: Fray needs it");
                0
            }
        }
    }

    fn text(&mut self, v: &Value, field: &str) -> String {
        match v.get(field).and_then(Value::as_str) {
            Some(s) => s.to_string(),
            None => {
                self.refuse(field, "missing: Fray needs it as text");
                String::new()
            }
        }
    }

    /// A Steel Compendium statblock.
    fn monster(&mut self, v: &Value) -> StatBlock {
        let name = self.text(v, "name");
        let chars = Characteristics {
            might: self.int(v, "might", Some(0)),
            agility: self.int(v, "agility", Some(0)),
            reason: self.int(v, "reason", Some(0)),
            intuition: self.int(v, "intuition", Some(0)),
            presence: self.int(v, "presence", Some(0)),
        };
        let organization = v.get("organization").and_then(Value::as_str).map(|s| s.trim().to_lowercase());
        let with_captain = match v.get("with_captain").and_then(Value::as_str) {
            None => None,
            Some(s) => self.with_captain(s),
        };
        if v.get("movement")
            .is_some_and(|x| !x.is_null() && x != "" && x != "-" && x.as_array().is_none_or(|a| !a.is_empty()))
        {
            self.refuse("movement", "Fray does not play special movement (flying, climbing...) from a statblock yet");
        }
        let immunities = self.resists(v, "immunities");
        let weaknesses = self.resists(v, "weaknesses");
        let mut ability = Vec::new();
        for (i, f) in v.get("features").and_then(Value::as_array).into_iter().flatten().enumerate() {
            if let Some(a) = self.sc_feature(f, &format!("features[{i}]"), &chars) {
                ability.push(a);
            }
        }
        StatBlock {
            id: slug(&name),
            name,
            kind: "monster".into(),
            level: self.int(v, "level", Some(1)),
            organization,
            role: v.get("role").and_then(Value::as_str).map(|s| s.trim().to_lowercase()),
            class: None,
            stamina: self.int(v, "stamina", None),
            recoveries: 0,
            speed: self.int(v, "speed", None),
            size: v.get("size").and_then(Value::as_str).unwrap_or("1M").to_string(),
            stability: self.int(v, "stability", Some(0)),
            free_strike: Some(self.int(v, "free_strike", None)),
            characteristics: chars,
            with_captain,
            immunities,
            weaknesses,
            ability,
            text: "Imported from a Steel Compendium statblock.".into(),
        }
    }

    /// Immunities or weaknesses (DS-GAP-20): a list of "Fire 5", "Damage 3", "Poison all", or
    /// one string of them joined by commas.
    fn resists(&mut self, v: &Value, field: &str) -> std::collections::BTreeMap<String, crate::model::Amount> {
        let mut out = std::collections::BTreeMap::new();
        let items: Vec<(String, String)> = match v.get(field) {
            None | Some(Value::Null) => vec![],
            Some(Value::String(s)) => {
                s.split(',').enumerate().map(|(i, p)| (format!("{field}[{i}]"), p.to_string())).collect()
            }
            Some(Value::Array(a)) => a
                .iter()
                .enumerate()
                .map(|(i, x)| (format!("{field}[{i}]"), x.as_str().map_or_else(|| x.to_string(), str::to_string)))
                .collect(),
            Some(other) => {
                self.refuse(field, format!("Fray reads a list such as [\"Fire 5\"], not {other}"));
                vec![]
            }
        };
        for (at, item) in items {
            let t = plain(&item).to_lowercase();
            let words: Vec<&str> = t.split_whitespace().collect();
            let amount = match words.last().copied() {
                Some("all") => Some(crate::model::Amount::Word("all".into())),
                Some(n) => n.parse::<i32>().ok().map(crate::model::Amount::Value),
                None => None,
            };
            match (words.as_slice(), amount) {
                ([] | ["-"], _) => {}
                ([kind, _], Some(a)) if *kind == "damage" || crate::model::DAMAGE_TYPES.contains(kind) => {
                    out.insert(kind.to_string(), a);
                }
                _ => self.refuse(
                    &at,
                    format!("Fray reads a damage type (or \"damage\") and an amount, such as \"Fire 5\", not {item:?}"),
                ),
            }
        }
        out
    }

    /// "Gain an edge on strikes", "+2 bonus to speed", "+1 damage bonus to strikes".
    fn with_captain(&mut self, s: &str) -> Option<crate::model::WithCaptain> {
        let t = s.to_lowercase();
        let number = t.split(|c: char| !c.is_ascii_digit()).find(|w| !w.is_empty()).and_then(|w| w.parse::<i32>().ok());
        let mut w = crate::model::WithCaptain::default();
        if t.contains("edge on strikes") {
            w.edge = true;
        } else if t.contains("speed") && number.is_some() {
            w.speed = number.unwrap_or(0);
        } else if t.contains("damage") && number.is_some() {
            w.damage = number.unwrap_or(0);
        } else {
            self.refuse("with_captain", format!("Fray plays an edge on strikes, more speed or more damage, not {s:?}"));
            return None;
        }
        Some(w)
    }

    /// One feature of a statblock: an ability Fray can play, or a refusal.
    fn sc_feature(&mut self, f: &Value, at: &str, chars: &Characteristics) -> Option<AbilityDef> {
        let name = f.get("name").and_then(Value::as_str).unwrap_or("?").to_string();
        let at = match f.get("_line").and_then(Value::as_i64) {
            Some(n) => format!("line {n}, {at} ({name})"),
            None => format!("{at} ({name})"),
        };
        if f.get("feature_type").and_then(Value::as_str) == Some("trait") {
            self.refuse(&at, "traits are rules of their own; Fray does not read them yet");
            return None;
        }
        if let Some(c) = f.get("cost").and_then(Value::as_str) {
            self.refuse(&format!("{at}.cost"), format!("Fray does not play an ability paid with {c:?} yet"));
            return None;
        }
        let usage_text = f.get("usage").and_then(Value::as_str).unwrap_or("").to_lowercase();
        let usage = if usage_text.starts_with("main") {
            Usage::Main
        } else if usage_text.starts_with("maneuver") {
            Usage::Maneuver
        } else if usage_text.starts_with("villain") {
            Usage::Villain
        } else if usage_text.starts_with("move") {
            Usage::Move
        } else {
            self.refuse(
                &format!("{at}.usage"),
                format!("Fray plays main actions, maneuvers, moves and villain actions, not {usage_text:?}"),
            );
            return None;
        };
        let distance =
            self.distance(f.get("distance").and_then(Value::as_str).unwrap_or(""), &format!("{at}.distance"))?;
        let (target, targets) =
            self.target(f.get("target").and_then(Value::as_str).unwrap_or("self"), &format!("{at}.target"))?;
        let keywords = keywords_of(f);
        let mut a = AbilityDef {
            id: slug(&name),
            name,
            keywords,
            usage,
            distance,
            targets,
            target,
            objects: false,
            roll: vec![],
            tier1: TierDef::default(),
            tier2: TierDef::default(),
            tier3: TierDef::default(),
            effect: vec![],
            text: "Imported.".into(),
            cost: None,
            malice: None,
        };
        for (j, e) in f.get("effects").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let here = format!("{at}.effects[{j}]");
            if let Some(roll) = e.get("roll").and_then(Value::as_str) {
                // "Power Roll + 2": the characteristic scoring 2 (the highest, if several do).
                let bonus = roll.rsplit('+').next().and_then(|n| n.trim().parse::<i32>().ok());
                let ch = bonus.and_then(|b| Characteristic::ALL.into_iter().find(|c| chars.array()[c.index()] == b));
                match ch {
                    Some(c) => a.roll = vec![c],
                    None => self.refuse(&format!("{here}.roll"), format!("no characteristic gives {roll:?}")),
                }
                for (t, key) in ["tier1", "tier2", "tier3"].iter().enumerate() {
                    let text = e.get(*key).and_then(Value::as_str).unwrap_or("");
                    let tier = self.tier(text, &format!("{here}.{key}"), false);
                    *[&mut a.tier1, &mut a.tier2, &mut a.tier3][t] = tier;
                }
            } else if let Some(text) = e.get("effect").and_then(Value::as_str) {
                self.refuse(&here, format!("Fray cannot read the free text {:?} yet", plain(text)));
            }
        }
        Some(a)
    }

    /// "Melee 1", "Ranged 8", "3 burst", "2 aura", "3 cube within 10", "5 x 1 line within 1",
    /// "Self".
    fn distance(&mut self, s: &str, at: &str) -> Option<Distance> {
        let t = s.trim().to_lowercase();
        let nums: Vec<i32> = t.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect();
        let d = match (t.as_str(), nums.as_slice()) {
            (x, [n]) if x.starts_with("melee") => Distance::Melee { reach: *n },
            (x, [n]) if x.starts_with("ranged") => Distance::Ranged { range: *n },
            (x, [n]) if x.contains("burst") => Distance::Burst { size: *n },
            (x, [n]) if x.contains("aura") => Distance::Aura { size: *n },
            (x, [n, w]) if x.contains("cube") => Distance::Cube { size: *n, within: *w },
            (x, [l, w, _]) if x.contains("line") => Distance::Line { length: *l, width: *w },
            ("self", []) => Distance::Myself,
            _ => {
                self.refuse(
                    at,
                    format!(
                        "Fray reads melee N, ranged N, N burst, N aura, N cube within M, N x M line or self, not {s:?}"
                    ),
                );
                return None;
            }
        };
        Some(d)
    }

    /// "One creature", "Two creatures or objects", "One ally", "Each enemy in the area", "Self".
    fn target(&mut self, s: &str, at: &str) -> Option<(TargetKind, i32)> {
        let t = s.trim().to_lowercase();
        let count = [("one", 1), ("two", 2), ("three", 3), ("four", 4), ("each", 1), ("all", 1)]
            .iter()
            .find(|(w, _)| t.starts_with(w))
            .map(|&(_, n)| n);
        let kind = if t == "self" || t.starts_with("self") {
            TargetKind::Myself
        } else if t.contains("ally") || t.contains("allies") {
            TargetKind::Allies
        } else if t.contains("enem") {
            TargetKind::Enemies
        } else if t.contains("creature") {
            TargetKind::Creatures
        } else {
            self.refuse(at, format!("Fray reads targets such as \"One creature\", \"One ally\", \"Each enemy in the area\" or \"Self\", not {s:?}"));
            return None;
        };
        if t.contains("per minion") {
            self.refuse(at, "targets counted per minion are not played yet");
            return None;
        }
        Some((kind, if kind == TargetKind::Myself { 1 } else { count.unwrap_or(1) }))
    }

    /// A tier: "7 damage", "3 + M damage", "10 damage; push 2", "13 damage; M<2 grabbed (save
    /// ends)"; `hero`: damage written "N + X" adds the rolled characteristic.
    fn tier(&mut self, s: &str, at: &str, hero: bool) -> TierDef {
        let s = plain(s);
        let mut tier = TierDef::default();
        for (k, part) in s.split(';').map(str::trim).filter(|p| !p.is_empty()).enumerate() {
            let lower = part.to_lowercase();
            if k == 0 && lower.ends_with("damage") {
                let mut words: Vec<&str> = lower.trim_end_matches("damage").split_whitespace().collect();
                // "6 fire damage": the type before the word damage (DS-GAP-20).
                if let Some(&k) = words.last()
                    && crate::model::DAMAGE_TYPES.contains(&k)
                {
                    tier.damage_type = Some(k.to_string());
                    words.pop();
                }
                match words.as_slice() {
                    [n] if n.parse::<i32>().is_ok() => tier.damage = n.parse().unwrap_or(0),
                    [n, "+", _] if hero && n.parse::<i32>().is_ok() => {
                        tier.damage = n.parse().unwrap_or(0);
                        tier.plus_characteristic = true;
                    }
                    _ => {
                        self.refuse(at, format!("Fray reads damage as \"N damage\" or \"N fire damage\", not {part:?}"))
                    }
                }
                continue;
            }
            match self.effect(&lower) {
                Some(e) => tier.effects.push(e),
                None => self.refuse(at, format!("Fray cannot read {part:?} yet")),
            }
        }
        tier
    }

    /// "push 2", "vertical slide 3", "grabbed", "m<2 prone", "a < 1 slowed (save ends)".
    fn effect(&mut self, p: &str) -> Option<EffectDef> {
        let mut e = EffectDef::default();
        let mut rest = p.trim().to_string();
        if let Some(r) = rest.strip_prefix("vertical ") {
            e.vertical = true;
            rest = r.to_string();
        }
        let words: Vec<&str> = rest.split_whitespace().collect();
        if let [kind, n] = words.as_slice()
            && let Ok(n) = n.parse::<i32>()
        {
            match *kind {
                "push" => e.push = Some(n),
                "pull" => e.pull = Some(n),
                "slide" => e.slide = Some(n),
                _ => return None,
            }
            return Some(e);
        }
        let (until, body) = if let Some(b) = rest.strip_suffix("(save ends)") {
            (Some("save-ends"), b.trim().to_string())
        } else if let Some(b) = rest.strip_suffix("(eot)") {
            (None, b.trim().to_string())
        } else {
            (None, rest.clone())
        };
        let compact: String = body.chars().filter(|c| !c.is_whitespace()).collect();
        let (potency, condition) = match compact.find('<') {
            Some(i) => {
                let digits: String = compact[i + 1..].chars().take_while(|c| c.is_ascii_digit()).collect();
                let cond = compact[i + 1 + digits.len()..].to_string();
                (Some(format!("{}<{digits}", &compact[..i].to_uppercase())), cond)
            }
            None => (None, compact),
        };
        crate::model::ConditionKind::parse(&condition)?;
        if potency.as_deref().is_some_and(|p| crate::model::parse_potency(p).is_none()) {
            return None;
        }
        e.condition = Some(condition);
        e.potency = potency;
        e.until = until.map(str::to_string);
        Some(e)
    }

    /// A Forge Steel hero.
    fn hero(&mut self, v: &Value) -> StatBlock {
        let name = self.text(v, "name");
        let empty = Value::Null;
        let class = v.get("class").unwrap_or(&empty);
        let class_name = class.get("name").and_then(Value::as_str).unwrap_or("").to_lowercase();
        if crate::model::class(&class_name).is_none() {
            self.refuse("class.name", format!("{class_name:?} is not a class Fray knows"));
        }
        let level = self.int(class, "level", Some(1));
        let mut chars = Characteristics::default();
        for (i, c) in class.get("characteristics").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let which = c.get("characteristic").and_then(Value::as_str).and_then(Characteristic::parse);
            let value = c.get("value").and_then(Value::as_i64).map(|n| n as i32);
            match (which, value) {
                (Some(ch), Some(n)) => match ch {
                    Characteristic::Might => chars.might = n,
                    Characteristic::Agility => chars.agility = n,
                    Characteristic::Reason => chars.reason = n,
                    Characteristic::Intuition => chars.intuition = n,
                    Characteristic::Presence => chars.presence = n,
                },
                _ => self.refuse(
                    &format!("class.characteristics[{i}]"),
                    "write { \"characteristic\": \"Might\", \"value\": 2 }",
                ),
            }
        }
        let start = self.int(class, "startingStamina", None);
        let per = self.int(class, "staminaPerLevel", Some(0));
        let recoveries = self.int(class, "recoveries", None);
        let mut ability = Vec::new();
        for (i, a) in class.get("abilities").and_then(Value::as_array).into_iter().flatten().enumerate() {
            if let Some(a) = self.fs_ability(a, &format!("class.abilities[{i}]")) {
                ability.push(a);
            }
        }
        let ancestry = v.get("ancestry").unwrap_or(&empty);
        let speed = ancestry.get("speed").and_then(Value::as_i64).map_or(5, |n| n as i32);
        let size = ancestry.get("size").and_then(Value::as_str).unwrap_or("1M").to_string();
        StatBlock {
            id: slug(&name),
            name,
            kind: "hero".into(),
            level,
            organization: None,
            role: None,
            class: crate::model::class(&class_name).map(|c| c.0.to_string()),
            stamina: start + per * (level - 1),
            recoveries,
            speed,
            size,
            stability: 0,
            free_strike: None,
            characteristics: chars,
            with_captain: None,
            immunities: Default::default(),
            weaknesses: Default::default(),
            ability,
            text: "Imported from a Forge Steel hero.".into(),
        }
    }

    /// One Forge Steel ability.
    fn fs_ability(&mut self, a: &Value, at: &str) -> Option<AbilityDef> {
        let name = a.get("name").and_then(Value::as_str).unwrap_or("?").to_string();
        let at = format!("{at} ({name})");
        let usage_text = a.pointer("/type/usage").and_then(Value::as_str).unwrap_or("").to_lowercase();
        let usage = match usage_text.as_str() {
            "main action" | "action" => Usage::Main,
            "maneuver" => Usage::Maneuver,
            "move action" | "move" => Usage::Move,
            other => {
                self.refuse(
                    &format!("{at}.type.usage"),
                    format!("Fray plays main actions, maneuvers and moves, not {other:?}"),
                );
                return None;
            }
        };
        let d = a.get("distance").and_then(Value::as_array).and_then(|d| d.first()).cloned().unwrap_or(Value::Null);
        let value = d.get("value").and_then(Value::as_i64).unwrap_or(1) as i32;
        let within = d.get("within").and_then(Value::as_i64).unwrap_or(1) as i32;
        let distance = match d.get("type").and_then(Value::as_str).unwrap_or("").to_lowercase().as_str() {
            "melee" => Distance::Melee { reach: value },
            "ranged" => Distance::Ranged { range: value },
            "burst" => Distance::Burst { size: value },
            "aura" => Distance::Aura { size: value },
            "cube" => Distance::Cube { size: value, within },
            "line" => {
                Distance::Line { length: value, width: d.get("value2").and_then(Value::as_i64).unwrap_or(1) as i32 }
            }
            "self" => Distance::Myself,
            other => {
                self.refuse(
                    &format!("{at}.distance"),
                    format!("Fray reads melee, ranged, burst, aura, cube, line or self, not {other:?}"),
                );
                return None;
            }
        };
        let (target, targets) =
            self.target(a.get("target").and_then(Value::as_str).unwrap_or("self"), &format!("{at}.target"))?;
        let cost = match a.get("cost") {
            Some(Value::Number(n)) if n.as_i64().is_some_and(|n| n > 0) => Some(n.as_i64().unwrap_or(0) as i32),
            _ => None,
        };
        for field in ["effect", "preEffect", "strained"] {
            if let Some(t) = a.get(field).and_then(Value::as_str)
                && !t.trim().is_empty()
            {
                self.refuse(&format!("{at}.{field}"), format!("Fray cannot read the free text {:?} yet", plain(t)));
            }
        }
        for field in ["spend", "persistence", "alternateEffects"] {
            if a.get(field).and_then(Value::as_array).is_some_and(|x| !x.is_empty()) {
                self.refuse(&format!("{at}.{field}"), "not played yet");
            }
        }
        let keywords = keywords_of(a);
        let mut def = AbilityDef {
            id: slug(&name),
            name,
            keywords,
            usage,
            distance,
            targets,
            target,
            objects: false,
            roll: vec![],
            tier1: TierDef::default(),
            tier2: TierDef::default(),
            tier3: TierDef::default(),
            effect: vec![],
            text: "Imported.".into(),
            cost,
            malice: None,
        };
        if let Some(pr) = a.get("powerRoll").filter(|p| !p.is_null()) {
            def.roll = pr
                .get("characteristic")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .filter_map(Characteristic::parse)
                .collect();
            if def.roll.is_empty() {
                self.refuse(&format!("{at}.powerRoll.characteristic"), "name at least one characteristic");
            }
            for (t, key) in ["tier1", "tier2", "tier3"].iter().enumerate() {
                let text = pr.get(*key).and_then(Value::as_str).unwrap_or("");
                let tier = self.tier(text, &format!("{at}.powerRoll.{key}"), true);
                *[&mut def.tier1, &mut def.tier2, &mut def.tier3][t] = tier;
            }
        }
        Some(def)
    }
}

/// An ability's `keywords` list, lower-cased (both formats write it the same way).
fn keywords_of(v: &Value) -> Vec<String> {
    v.get("keywords")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_lowercase)
        .collect()
}

/// Reads a monster in the Steel Compendium's markdown statblock shape (issue 19): a front
/// matter of `key: value` lines (and `- item` lists) holding the statblock's numbers, then one
/// quoted block per feature: a bold heading (its name, and "(N Malice)" or "(Villain Action N)"),
/// a table of keywords and usage over distance (📏) and target (🎯), a "Power Roll + N:" line
/// with three tier bullets, and "Effect:" or "Special:" lines. Each feature is read as the JSON
/// shape's feature is; refusals name the line of its heading.
pub fn read_markdown(path: &str, text: &str) -> Result<StatBlock, Vec<String>> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).peekable();
    let mut top = serde_json::Map::new();
    if lines.peek().is_none_or(|(_, l)| l.trim() != "---") {
        return Err(vec![format!(
            "{path}: line 1: a Steel Compendium markdown statblock starts with its front matter, a line of ---"
        )]);
    }
    lines.next();
    let mut list_key: Option<String> = None;
    let mut closed = false;
    for (n, l) in lines.by_ref() {
        if l.trim() == "---" {
            closed = true;
            break;
        }
        if let Some(item) = l.trim_start().strip_prefix("- ") {
            match &list_key {
                Some(k) => {
                    if let Some(Value::Array(a)) = top.get_mut(k) {
                        a.push(Value::String(unquote(item)));
                    }
                }
                None => return Err(vec![format!("{path}: line {n}: a list item outside a list")]),
            }
            continue;
        }
        let Some((k, v)) = l.split_once(':') else {
            if l.trim().is_empty() {
                continue;
            }
            return Err(vec![format!("{path}: line {n}: front matter lines are key: value, not {l:?}")]);
        };
        let (k, v) = (k.trim().to_string(), v.trim());
        if v.is_empty() {
            top.insert(k.clone(), Value::Array(vec![]));
            list_key = Some(k);
            continue;
        }
        list_key = None;
        let value = match v.parse::<i64>() {
            Ok(i) if !v.starts_with('+') => Value::from(i),
            _ => Value::String(unquote(v)),
        };
        top.insert(k, value);
    }
    if !closed {
        return Err(vec![format!("{path}: the front matter has no closing line of ---")]);
    }
    if top.get("type").and_then(Value::as_str) != Some("statblock") {
        return Err(vec![format!("{path}: type: the front matter must say type: statblock")]);
    }
    // The quoted feature blocks.
    let mut features = Vec::new();
    let mut block: Vec<(usize, String)> = Vec::new();
    for (n, l) in lines.chain(std::iter::once((0, ""))) {
        match l.strip_prefix('>') {
            Some(rest) => block.push((n, rest.trim().to_string())),
            None if !block.is_empty() => features.push(md_feature(&std::mem::take(&mut block))),
            None => {}
        }
    }
    top.insert("features".into(), Value::Array(features));
    let v = Value::Object(top);
    let mut r = Reader { path, errors: Vec::new(), json: None };
    let b = r.monster(&v);
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    let errors = crate::model::check_block(&b);
    if errors.is_empty() { Ok(b) } else { Err(errors.into_iter().map(|e| format!("{path}: {e}")).collect()) }
}

/// A front-matter value without its quotes.
fn unquote(s: &str) -> String {
    let t = s.trim();
    t.strip_prefix('"').and_then(|x| x.strip_suffix('"')).unwrap_or(t).to_string()
}

/// One quoted feature block as the JSON shape's feature object (with `_line`, its heading's).
fn md_feature(block: &[(usize, String)]) -> Value {
    let (line, head) = &block[0];
    let head = head.trim_start_matches(|c: char| !c.is_ascii() || c.is_whitespace());
    let title = head.trim().trim_matches('*').trim().to_string();
    let (name, note) = match title.rfind(" (") {
        Some(i) if title.ends_with(')') => (title[..i].to_string(), title[i + 2..title.len() - 1].to_string()),
        _ => (title.clone(), String::new()),
    };
    let mut f = serde_json::Map::new();
    f.insert("name".into(), Value::String(name));
    f.insert("_line".into(), Value::from(*line as i64));
    if note.to_lowercase().contains("malice") {
        f.insert("cost".into(), Value::String(note.clone()));
    }
    // Table rows: cells between pipes; the first row keywords and usage, the third distance
    // and target (the second is the alignment row).
    let rows: Vec<Vec<String>> = block
        .iter()
        .filter(|(_, l)| l.starts_with('|'))
        .map(|(_, l)| l.trim_matches('|').split('|').map(|c| plain(c).trim().to_string()).collect())
        .collect();
    if rows.is_empty() {
        f.insert("feature_type".into(), Value::String("trait".into()));
        return Value::Object(f);
    }
    f.insert("feature_type".into(), Value::String("ability".into()));
    let cell = |r: usize, c: usize| rows.get(r).and_then(|row| row.get(c)).cloned().unwrap_or_default();
    let keywords: Vec<Value> = cell(0, 0)
        .split(',')
        .map(str::trim)
        .filter(|k| !k.is_empty() && *k != "-")
        .map(|k| Value::String(k.into()))
        .collect();
    f.insert("keywords".into(), Value::Array(keywords));
    let usage = if note.starts_with("Villain Action") { "Villain action".to_string() } else { cell(0, 1) };
    f.insert("usage".into(), Value::String(usage));
    let strip_icon = |s: String| s.trim_start_matches(|c: char| !c.is_ascii() || c.is_whitespace()).to_string();
    f.insert("distance".into(), Value::String(strip_icon(cell(2, 0))));
    f.insert("target".into(), Value::String(strip_icon(cell(2, 1))));
    let mut effects = Vec::new();
    let mut roll: Option<serde_json::Map<String, Value>> = None;
    for (_, l) in block.iter().skip(1) {
        let t = plain(l);
        if t.starts_with("Power Roll") {
            let mut m = serde_json::Map::new();
            m.insert("roll".into(), Value::String(t.trim_end_matches(':').to_string()));
            roll = Some(m);
        } else if let Some(b) = t.strip_prefix("- ") {
            let Some(m) = roll.as_mut() else { continue };
            let (band, rest) = b.split_once(':').unwrap_or((b, ""));
            let key = match band.trim() {
                x if x.starts_with('≤') => "tier1",
                x if x.ends_with('+') => "tier3",
                _ => "tier2",
            };
            m.insert(key.into(), Value::String(rest.trim().to_string()));
        } else if let Some((label, rest)) = t.split_once(':')
            && matches!(label.trim(), "Effect" | "Special" | "Trigger")
        {
            if let Some(m) = roll.take() {
                effects.push(Value::Object(m));
            }
            effects.push(serde_json::json!({ "effect": format!("{}: {}", label.trim(), rest.trim()) }));
        }
    }
    if let Some(m) = roll.take() {
        effects.push(Value::Object(m));
    }
    f.insert("effects".into(), Value::Array(effects));
    Value::Object(f)
}
