//! Building athletes and teams (K-CHAR, K-PROG, K-FMT-1, K-IMP-13, K-AIMP-1): a character file
//! names class, role, specialization, implement, level and the choices each level grants;
//! `check` reports every problem with the line and field, and `card` writes the athlete out.

use crate::content::Content;
use crate::content::classes::ClassFile;
use crate::content::powers::PowerDef;
use crate::engine::state::Implement;
use serde::Deserialize;
use toml::Spanned;

/// One athlete as its player writes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AthleteSpec {
    /// Name.
    pub name: String,
    /// Class id.
    pub class: String,
    /// Role.
    pub role: String,
    /// Role specialization.
    pub specialization: String,
    /// wand, staff or sword.
    pub implement: String,
    /// 1 to 6.
    pub level: u8,
    /// Class features chosen (for a Shivering Sword: the Blade Enchantments and Self-Charms it
    /// learned).
    #[serde(default)]
    pub features: Vec<String>,
    /// Shivering Sword: the learned Blade Enchantment and Self-Charm in force as the match
    /// starts (two of a kind with Twin Enchantments or Twin Charms).
    #[serde(default)]
    pub in_force: Vec<String>,
    /// Class powers chosen.
    #[serde(default)]
    pub powers: Vec<String>,
    /// Role encounter powers chosen at levels 2 and 6.
    #[serde(default)]
    pub role_powers: Vec<String>,
    /// A rival team's printed versions of its class powers, played in their place (ids from
    /// content/kazzam/powers/npc.toml; only in a team file with `[team] npc = true`).
    #[serde(default)]
    pub variants: Vec<String>,
    /// The advanced implement chosen at level 3.
    #[serde(default)]
    pub advanced_implement: Option<String>,
    /// Free text: looks, house, motivation (no rules).
    #[serde(default)]
    pub appearance: Option<String>,
    /// Motivation (K-CHAR-5; no rules).
    #[serde(default)]
    pub motivation: Option<String>,
}

/// A character or team file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamFile {
    /// Team name (optional).
    #[serde(default)]
    pub team: Option<toml::Table>,
    /// The athletes.
    pub athlete: Vec<Spanned<AthleteSpec>>,
}

fn power_def<'a>(c: &'a ClassFile, id: &str) -> Option<&'a PowerDef> {
    c.power.iter().find(|p| p.id == id)
}

/// Checks one athlete against its class's choices in `content`; every problem, with its field.
pub fn check_athlete(a: &AthleteSpec, content: &Content) -> Vec<String> {
    check_athlete_as(a, content, false)
}

/// [`check_athlete`]; for an `npc` (a rival team of §5, `[team] npc = true`) the stat block is
/// the authority (rulings, §6.7): it may list fewer choices than a level grants, and no
/// advanced implement, but nothing it lists may be unknown or above its level.
pub fn check_athlete_as(a: &AthleteSpec, content: &Content, npc: bool) -> Vec<String> {
    let classes = content.classes();
    let mut e = Vec::new();
    let Some(c) = classes.iter().find(|c| c.class.id == a.class.trim().to_lowercase()) else {
        let known: Vec<&str> = classes.iter().map(|c| c.class.id.as_str()).collect();
        e.push(format!("class: no class {:?}; choose one of {}", a.class, known.join(", ")));
        return e;
    };
    if !(1..=6).contains(&a.level) {
        e.push(format!("level: {} is outside 1-6, the levels this rulebook covers (K-PROG-7)", a.level));
    }
    let imp = Implement::parse(&a.implement);
    match imp {
        None | Some(Implement::None) => {
            e.push(format!("implement: {:?} is not wand, staff or sword (K-IMP-1)", a.implement))
        }
        Some(i) if !c.class.implements.iter().any(|x| Implement::parse(x) == Some(i)) => e.push(format!(
            "implement: a {} must use {}; change implement (K-IMP-13)",
            c.class.name,
            c.class.implements.join(" or ")
        )),
        _ => {}
    }
    let role = a.role.trim().to_lowercase();
    let spec = a.specialization.trim().to_lowercase();
    let roles = content.roles();
    let role_known = roles.role(&role).is_some();
    if !role_known {
        let known: Vec<&str> = roles.role.iter().map(|r| r.id.as_str()).collect();
        e.push(format!("role: {:?} is not one of {} (K-CHAR-1)", a.role, known.join(", ")));
    } else {
        let mine: Vec<&str> = roles.specialization.iter().filter(|s| s.role == role).map(|s| s.id.as_str()).collect();
        if !mine.contains(&spec.as_str()) {
            e.push(format!(
                "specialization: {:?} is not a {role} specialization; choose one of {} (K-CHAR-2)",
                a.specialization,
                mine.join(", ")
            ));
        }
    }
    // Duplicates.
    for (field, list) in [("features", &a.features), ("powers", &a.powers), ("role_powers", &a.role_powers)] {
        for (i, x) in list.iter().enumerate() {
            if list[..i].contains(x) {
                e.push(format!("{field}: {x:?} is chosen twice; pick something else"));
            }
        }
    }
    // Unknown or out-of-level choices.
    for f in &a.features {
        match c.feature.iter().find(|x| &x.id == f) {
            None => e.push(format!("features: {f:?} is not a {} feature", c.class.name)),
            Some(x) if x.level > a.level => {
                e.push(format!("features: {} comes at level {}, not {} (K-PROG-5)", x.name, x.level, a.level))
            }
            _ => {}
        }
    }
    for p in &a.powers {
        match power_def(c, p) {
            None => e.push(format!("powers: {p:?} is not a {} power", c.class.name)),
            Some(x) if x.level.unwrap_or(1) > a.level => e.push(format!(
                "powers: {} is chosen at level {}, not {} (K-PROG-3)",
                x.name,
                x.level.unwrap_or(1),
                a.level
            )),
            _ => {}
        }
    }
    // A stat block's own versions of class powers (§5): only for a rival team, each standing
    // in for a power the athlete has.
    if !a.variants.is_empty() && !npc {
        e.push("variants: a stat block's versions of powers are for rival teams ([team] npc = true)".into());
    } else {
        let have = power_ids(&AthleteSpec { variants: Vec::new(), ..a.clone() }, content);
        for v in &a.variants {
            match content.powers().by_exact_id(v).map(|i| content.powers().get(i)) {
                Some(d) if d.variant_of.as_ref().is_some_and(|o| have.contains(o)) => {}
                Some(d) if d.variant_of.is_some() => e.push(format!(
                    "variants: {v:?} stands for {:?}, which this athlete does not have",
                    d.variant_of.as_deref().unwrap_or_default()
                )),
                _ => e.push(format!(
                    "variants: {v:?} is not a stat block's version of a power (content/kazzam/powers/npc.toml)"
                )),
            }
        }
    }
    // The choices each level grants (K-PROG-1..6).
    for pick in c.pick.iter().filter(|p| p.level <= a.level && !p.automatic) {
        let chosen = if pick.kind == "feature" {
            a.features
                .iter()
                .filter(|f| {
                    c.feature.iter().any(|x| {
                        &x.id == *f
                            && x.group.as_ref().is_some_and(|g| pick.groups.contains(g))
                            && x.level == pick.level
                    })
                })
                .count()
        } else {
            a.powers
                .iter()
                .filter(|p| {
                    power_def(c, p).is_some_and(|x| {
                        x.group.as_ref().is_some_and(|g| pick.groups.contains(g)) && x.level.unwrap_or(1) == pick.level
                    })
                })
                .count()
        } as u8;
        if (chosen < pick.min && !npc) || chosen > pick.max {
            let want =
                if pick.min == pick.max { pick.min.to_string() } else { format!("{} to {}", pick.min, pick.max) };
            let options: Vec<String> = if pick.kind == "feature" {
                c.feature
                    .iter()
                    .filter(|x| x.group.as_ref().is_some_and(|g| pick.groups.contains(g)) && x.level == pick.level)
                    .map(|x| x.id.clone())
                    .collect()
            } else {
                c.power
                    .iter()
                    .filter(|x| {
                        x.group.as_ref().is_some_and(|g| pick.groups.contains(g)) && x.level.unwrap_or(1) == pick.level
                    })
                    .map(|x| x.id.clone())
                    .collect()
            };
            e.push(format!(
                "{}: level {} grants {want} {} from {} ({} chosen); choose from {}",
                if pick.kind == "feature" { "features" } else { "powers" },
                pick.level,
                pick.kind,
                pick.groups.join(" / "),
                chosen,
                options.join(", ")
            ));
        }
    }
    // The Tamer's summons: one per level, more with Collector (L1681, L1821).
    if c.class.id == "tamer" {
        let limit = crate::classes::tamer::summon_limit(&a.features);
        for level in [1, 3] {
            let n = a
                .powers
                .iter()
                .filter(|p| {
                    power_def(c, p)
                        .is_some_and(|x| x.group.as_deref() == Some("summon") && x.level.unwrap_or(1) == level)
                })
                .count();
            if n > limit as usize {
                e.push(format!(
                    "powers: {n} summons chosen at level {level}; a Tamer takes {limit} (two with Collector, three with Collector and Completionist Collector)"
                ));
            }
        }
    }
    // Chosen things that no pick allows (granted ones, or another level's list).
    for p in &a.powers {
        if let Some(x) = power_def(c, p) {
            let allowed = c.pick.iter().any(|pk| {
                !pk.automatic
                    && pk.kind == "power"
                    && pk.level == x.level.unwrap_or(1)
                    && x.group.as_ref().is_some_and(|g| pk.groups.contains(g))
            });
            if !allowed {
                e.push(format!(
                    "powers: {} is not one you choose ({}); remove it",
                    x.name,
                    if c.pick.iter().any(|pk| pk.automatic && x.group.as_ref().is_some_and(|g| pk.groups.contains(g))) {
                        "it is granted"
                    } else {
                        "it comes with something else"
                    }
                ));
            }
        }
    }
    // Advanced implement at level 3 (K-PROG-3, K-AIMP-1).
    match (&a.advanced_implement, a.level >= 3) {
        (None, true) if npc => {}
        (None, true) => e.push(
            "advanced_implement: level 3 grants an advanced implement of your implement's type (K-AIMP-1)".into(),
        ),
        (Some(x), false) => e.push(format!("advanced_implement: {x:?} comes at level 3 (K-PROG-3)")),
        (Some(x), true) => {
            let known = match crate::content::classes::advanced_implements() {
                Ok(k) => k,
                Err(x) => {
                    e.push(x);
                    Vec::new()
                }
            };
            match known.iter().find(|k| &k.id == x) {
                None => e.push(format!(
                    "advanced_implement: {x:?} is not an advanced implement (see `fray rules kazzam implement`)"
                )),
                Some(k) => {
                    if let Some(mine) = imp
                        && Implement::parse(&k.kind) != Some(mine)
                    {
                        e.push(format!(
                            "advanced_implement: {} is a {}, and this athlete uses a {} (K-AIMP-1)",
                            k.name,
                            k.kind,
                            mine.name()
                        ));
                    }
                }
            }
        }
        _ => {}
    }
    // Role encounter powers: one at level 2, another at 6 (K-PROG-2, K-PROG-6).
    if role_known {
        for r in &a.role_powers {
            match roles.power(r) {
                Some(p)
                    if p.role.as_deref() == Some(role.as_str())
                        && p.group.as_deref() == Some(crate::content::roles::ENCOUNTER_GROUP) => {}
                _ => {
                    let mine: Vec<&str> = roles
                        .power
                        .iter()
                        .filter(|p| {
                            p.role.as_deref() == Some(role.as_str())
                                && p.group.as_deref() == Some(crate::content::roles::ENCOUNTER_GROUP)
                        })
                        .map(|p| p.id.as_str())
                        .collect();
                    e.push(format!(
                        "role_powers: {r:?} is not a {role} encounter power; choose from {} (K-PROG-2)",
                        mine.join(", ")
                    ));
                }
            }
        }
    }
    // Multi-Sword and Multi-Staff are closed to Blasters and Crowd Control (K-AIMP-1).
    if let Some(x) = &a.advanced_implement
        && (x == "multi-sword" || x == "multi-staff")
        && (spec == "blaster" || spec == "crowd-control")
    {
        e.push(format!("advanced_implement: {x} cannot be taken by a {spec} (K-AIMP-1)"));
    }
    let want = usize::from(a.level >= 2) + usize::from(a.level >= 6);
    if a.role_powers.len() > want || (a.role_powers.len() < want && !npc) {
        e.push(format!(
            "role_powers: level {} grants {want} role encounter power(s), {} chosen (K-PROG-2, K-PROG-6)",
            a.level,
            a.role_powers.len()
        ));
    }
    check_in_force(a, c, &mut e);
    // Porter: Spellwarp Sniper is not for sword users (K-IMP-13).
    if a.features.iter().any(|f| f == "spellwarp-sniper") && imp == Some(Implement::Sword) {
        e.push("features: Spellwarp Sniper cannot be taken with a sword (K-IMP-13)".into());
    }
    e
}

/// Shivering Sword (L1050-1060, L1164-1165): two of each kind learned (a third with the level-5
/// twin feature of that kind), and `in_force` names which learned ones are in force at the start:
/// one of each kind, two of a kind with its twin feature. Other classes leave `in_force` out.
fn check_in_force(a: &AthleteSpec, c: &ClassFile, e: &mut Vec<String>) {
    let group = |id: &str| c.feature.iter().find(|f| f.id == id).and_then(|f| f.group.clone()).unwrap_or_default();
    let chosen: Vec<&str> = a.features.iter().map(String::as_str).collect();
    let mut any = false;
    for (g, twin) in crate::classes::features::SWAPPABLE {
        if !c.feature.iter().any(|f| f.group.as_deref() == Some(*g)) {
            continue;
        }
        any = true;
        let learned: Vec<&String> = a.features.iter().filter(|f| group(f) == *g).collect();
        let want = crate::classes::features::in_force_count(g, &chosen);
        if learned.len() > want + 1 {
            e.push(format!(
                "features: {} {g} features learned; {} at most{} (L1050, L1164)",
                learned.len(),
                want + 1,
                if want == 1 { format!(" without {twin}") } else { String::new() }
            ));
        }
        let on: Vec<&String> = a.in_force.iter().filter(|f| group(f) == *g).collect();
        if on.len() != want && !learned.is_empty() {
            e.push(format!(
                "in_force: name {want} learned {g} feature(s) in force at the start ({} named); choose from {}",
                on.len(),
                learned.iter().map(|x| x.as_str()).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    for f in &a.in_force {
        let g = group(f);
        if !any {
            e.push(format!("in_force: {f:?}: only a Shivering Sword names spells in force; remove it"));
        } else if !crate::classes::features::SWAPPABLE.iter().any(|(x, _)| *x == g) {
            e.push(format!("in_force: {f:?} is not a Blade Enchantment or Self-Charm; name learned ones only"));
        } else if !a.features.contains(f) {
            e.push(format!("in_force: {f:?} is not learned; add it to features first"));
        }
    }
    for (i, x) in a.in_force.iter().enumerate() {
        if a.in_force[..i].contains(x) {
            e.push(format!("in_force: {x:?} is named twice"));
        }
    }
}

/// Checks a character or team file: every problem with file, line and field (K-FMT-1,
/// K-CHAR-1: one athlete of each role and of each class per team) against `content`; or the
/// athletes' cards.
pub fn check_file(content: &Content, path: &str, text: &str) -> Result<Vec<String>, Vec<String>> {
    let f: TeamFile = toml::from_str(text).map_err(|e| vec![format!("{path}: {e}")])?;
    // K-FMT-1: a team is five athletes, one of each Role (issue 14: a file of a thousand took
    // minutes to check).
    if f.athlete.len() > crate::engine::setup::ROLES.len() {
        let line = fray_core::scenario::line_of(text, f.athlete[crate::engine::setup::ROLES.len()].span().start);
        return Err(vec![format!(
            "{path}:{line}: athlete: {} athletes; a team has at most {}, one of each role (K-FMT-1)",
            f.athlete.len(),
            crate::engine::setup::ROLES.len()
        )]);
    }
    let mut errors: Vec<String> =
        fray_core::scenario::numbers_beyond(text, &[]).into_iter().map(|e| format!("{path}: {e}")).collect();
    let mut cards = Vec::new();
    let npc = f.team.as_ref().and_then(|t| t.get("npc")).and_then(|v| v.as_bool()).unwrap_or(false);
    if let Some(Err(e)) = team_trait(&f) {
        errors.push(format!("{path}: team.trait: {e}"));
    }
    for (i, a) in f.athlete.iter().enumerate() {
        let span = a.span();
        let line = |field: &str| field_line(text, span.clone(), field);
        let a = a.get_ref();
        let es = check_athlete_as(a, content, npc);
        if es.is_empty() {
            cards.push(card(a, content));
        }
        // Each problem starts with its field's name: point at that field's own line.
        errors.extend(es.into_iter().map(|e| {
            let field = e.split(':').next().unwrap_or_default();
            format!("{path}:{}: athlete[{i}] ({}).{e}", line(field), a.name)
        }));
        for (j, b) in f.athlete[..i].iter().enumerate() {
            let b = b.get_ref();
            if b.role.trim().eq_ignore_ascii_case(a.role.trim()) {
                errors.push(format!("{path}:{}: athlete[{i}] ({}).role: {} already plays {} (athlete[{j}]); one of each role per team (K-FMT-1)", line("role"), a.name, b.name, a.role));
            }
            if b.class.trim().eq_ignore_ascii_case(a.class.trim()) {
                errors.push(format!("{path}:{}: athlete[{i}] ({}).class: {} is already a {} (athlete[{j}]); one of each class per team (K-CHAR-1)", line("class"), a.name, b.name, a.class));
            }
        }
    }
    if errors.is_empty() { Ok(cards) } else { Err(fray_core::scenario::capped(errors)) }
}

/// The team trait a file's `[team]` table names (`trait = "untouchable"`), if any (§5, L2751,
/// L3090, L3497, L3791).
fn team_trait(f: &TeamFile) -> Option<Result<crate::engine::state::TeamTrait, String>> {
    let v = f.team.as_ref()?.get("trait")?;
    Some(match v.as_str() {
        Some(s) => crate::engine::state::TeamTrait::parse(s).ok_or_else(|| {
            format!("unknown team trait {s:?}; use team-effort, agile, untouchable or get-out-of-jail-free")
        }),
        None => Err("write the trait's name as a string".into()),
    })
}

/// The line of `field` (its `field = ...` line) in the athlete table spanning `span` of
/// `text`; the table's own line when the field is not written out (missing, or inline).
fn field_line(text: &str, span: std::ops::Range<usize>, field: &str) -> usize {
    let end = span.end.min(text.len());
    let mut at = span.start.min(end);
    let quoted = format!("\"{field}\"");
    for l in text[at..end].split_inclusive('\n') {
        let key = l.trim_start();
        if let Some(rest) = key.strip_prefix(field).or_else(|| key.strip_prefix(quoted.as_str()))
            && rest.trim_start().starts_with('=')
        {
            return fray_core::scenario::line_of(text, at);
        }
        at += l.len();
    }
    fray_core::scenario::line_of(text, span.start)
}

/// The athlete's card: what it has in play, with the numbers.
pub fn card(a: &AthleteSpec, content: &Content) -> String {
    let c = content.classes().iter().find(|c| c.class.id == a.class.trim().to_lowercase()).expect("checked");
    let imp = Implement::parse(&a.implement).unwrap_or(Implement::None);
    let spec = a.specialization.trim().to_lowercase();
    let (hp, ward) = if spec == "juggernaut" { (5, ", 3 Ward at the start") } else { (8, "") };
    let speed = if matches!(spec.as_str(), "pursuer" | "blitzer" | "runner") { 8 } else { 6 };
    let mut out = format!(
        "{} — level {} {} {} ({}), {}\n  HP {hp}{ward}, speed {speed}, implement range {}{}\n",
        a.name,
        a.level,
        a.role,
        c.class.name,
        a.specialization,
        a.implement,
        match imp {
            Implement::Wand => "5".to_string(),
            Implement::Staff => "6".to_string(),
            _ => "1 (reach)".to_string(),
        },
        a.advanced_implement.as_ref().map(|x| format!(", advanced implement {x}")).unwrap_or_default()
    );
    out.push_str("  Basic Physical Attack, Basic Implement Attack, Reveal");
    if imp == Implement::Sword {
        out.push_str(", Charge");
    }
    out.push('\n');
    for f in &c.feature {
        let auto = c.pick.iter().any(|p| {
            p.automatic
                && p.kind == "feature"
                && f.group.as_ref().is_some_and(|g| p.groups.contains(g))
                && p.level <= a.level
        });
        if a.features.contains(&f.id) || auto {
            let swappable = crate::classes::features::SWAPPABLE.iter().any(|(g, _)| f.group.as_deref() == Some(*g));
            let state = match (swappable, a.in_force.contains(&f.id)) {
                (true, true) => " (learned, in force at the start)",
                (true, false) => " (learned)",
                _ => "",
            };
            out.push_str(&format!("  feature: {}{state} — {}\n", f.name, f.text));
        }
    }
    for p in &c.power {
        let auto = c.pick.iter().any(|pk| {
            pk.automatic
                && pk.kind == "power"
                && p.group.as_ref().is_some_and(|g| pk.groups.contains(g))
                && pk.level <= a.level
        }) && p.requires.as_deref().is_none_or(|r| Implement::parse(r) == Some(imp))
            && crate::classes::tamer::command_granted(&p.id, &a.powers);
        if a.powers.contains(&p.id) || auto {
            // A rival team's own version of it, where its stat block prints one (§5).
            let shown = a
                .variants
                .iter()
                .filter_map(|v| content.powers().by_exact_id(v).map(|i| content.powers().get(i)))
                .find(|d| d.variant_of.as_deref() == Some(p.id.as_str()))
                .unwrap_or(p);
            out.push_str(&format!("  power: {}\n", crate::content::reference::power_card(shown)));
            // A summon brings its creature (the Tamer's `summoned-creature` features).
            let beast = p.id.strip_prefix("summon-").and_then(|b| c.feature.iter().find(|f| f.id == b));
            if let Some(f) = beast.filter(|f| f.group.as_deref() == Some("summoned-creature")) {
                out.push_str(&format!("  creature: {} — {}\n", f.name, f.text));
            }
        }
    }
    let roles = content.roles();
    let role = a.role.trim().to_lowercase();
    let spec = a.specialization.trim().to_lowercase();
    if let Some(r) = roles.role(&role) {
        let boost = if a.level >= 4 { &r.boost_level4 } else { &r.boost };
        out.push_str(&format!("  Role Boost: {boost}\n"));
    }
    if let Some(s) = roles.specialization(&spec) {
        out.push_str(&format!("  specialization: {} — {}\n", s.name, s.text));
    }
    for p in roles.granted(&role, &spec) {
        out.push_str(&format!("  role power: {}\n", crate::content::reference::power_card(p)));
    }
    for r in &a.role_powers {
        if let Some(p) = roles.power(r) {
            out.push_str(&format!("  role power: {}\n", crate::content::reference::power_card(p)));
        }
    }
    if let Some(x) = &a.advanced_implement
        && let Some(k) =
            crate::content::classes::advanced_implements().unwrap_or_default().into_iter().find(|k| &k.id == x)
    {
        out.push_str(&format!("  advanced implement: {} — {}\n", k.name, k.text));
    }
    out
}

/// Every power an athlete has in play, by id: its chosen and automatic class powers, the role
/// powers its specialization grants, and its role encounter powers (K-CHAR-3, K-PROG-1..6). The
/// basic powers every athlete has are added by the match setup.
pub fn power_ids(a: &AthleteSpec, content: &Content) -> Vec<String> {
    let classes = content.classes();
    let mut out = Vec::new();
    let imp = Implement::parse(&a.implement).unwrap_or(Implement::None);
    if let Some(c) = classes.iter().find(|c| c.class.id == a.class.trim().to_lowercase()) {
        for p in &c.power {
            let auto = c.pick.iter().any(|pk| {
                pk.automatic
                    && pk.kind == "power"
                    && p.group.as_ref().is_some_and(|g| pk.groups.contains(g))
                    && pk.level <= a.level
            }) && p.requires.as_deref().is_none_or(|r| Implement::parse(r) == Some(imp))
                && crate::classes::tamer::command_granted(&p.id, &a.powers);
            if a.powers.contains(&p.id) || auto {
                out.push(p.id.clone());
                out.extend(p.grants.iter().filter(|g| !a.powers.contains(g)).cloned());
            }
        }
    }
    if let Some(c) = classes.iter().find(|c| c.class.id == a.class.trim().to_lowercase()) {
        for f in c.feature.iter().filter(|f| feature_ids(a, content).contains(&f.id)) {
            out.extend(f.grants.iter().filter(|g| !out.contains(g)).cloned().collect::<Vec<_>>());
        }
    }
    let roles = content.roles();
    let role = a.role.trim().to_lowercase();
    let spec = a.specialization.trim().to_lowercase();
    out.extend(roles.granted(&role, &spec).map(|p| p.id.clone()));
    out.extend(a.role_powers.iter().filter(|r| roles.power(r).is_some()).cloned());
    // A rival team's printed versions stand in for the powers they vary (§5).
    for v in &a.variants {
        let of = content.powers().by_exact_id(v).and_then(|i| content.powers().get(i).variant_of.as_ref());
        if let Some(slot) = of.and_then(|o| out.iter_mut().find(|p| *p == o)) {
            *slot = v.clone();
        }
    }
    out
}

/// Every class feature an athlete has in play, by id: the ones it chose and the ones its class
/// grants at its level (K-CHAR-2, K-PROG-5).
pub fn feature_ids(a: &AthleteSpec, content: &Content) -> Vec<String> {
    let Some(c) = content.classes().iter().find(|c| c.class.id == a.class.trim().to_lowercase()) else {
        return Vec::new();
    };
    c.feature
        .iter()
        .filter(|f| {
            a.features.contains(&f.id)
                || c.pick.iter().any(|p| {
                    p.automatic
                        && p.kind == "feature"
                        && f.group.as_ref().is_some_and(|g| p.groups.contains(g))
                        && p.level <= a.level
                        && f.level <= a.level
                })
        })
        .map(|f| f.id.clone())
        .collect()
}

/// The athletes of a team file as match units on `squares` (one per athlete, in order), for
/// `team` (red or blue). The file is checked against `content` first; every problem is returned
/// with its line.
pub fn team_units(
    content: &Content,
    path: &str,
    text: &str,
    team: &str,
    squares: &[fray_core::grid::Pos],
) -> Result<Vec<crate::engine::setup::UnitSpec>, Vec<String>> {
    check_file(content, path, text)?;
    let f: TeamFile = toml::from_str(text).map_err(|e| vec![format!("{path}: {e}")])?;
    if f.athlete.len() > squares.len() {
        return Err(vec![format!(
            "{path}: {} athletes, but the arena has starting squares for {} a side",
            f.athlete.len(),
            squares.len()
        )]);
    }
    let mut units = Vec::new();
    for (a, at) in f.athlete.iter().map(|a| a.get_ref()).zip(squares) {
        let slug: String = a
            .name
            .to_lowercase()
            .chars()
            .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '-' })
            .collect::<String>()
            .split('-')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        let mut spec = crate::engine::setup::UnitSpec::athlete(&format!("{team}-{slug}"), team, *at);
        spec.name = Some(a.name.clone());
        spec.implement = Some(a.implement.trim().to_lowercase());
        spec.role = Some(a.role.trim().to_lowercase());
        spec.specialization = Some(a.specialization.trim().to_lowercase());
        spec.level = Some(a.level);
        spec.class = Some(a.class.trim().to_lowercase());
        spec.powers = power_ids(a, content);
        let (learned, features): (Vec<String>, Vec<String>) = feature_ids(a, content)
            .into_iter()
            .partition(|f| crate::classes::features::SWAPPABLE.iter().any(|(g, _)| content.feature_group(f) == *g));
        spec.features = features;
        spec.advanced_implement = a.advanced_implement.clone();
        spec.features.extend(learned.iter().filter(|f| a.in_force.contains(f)).cloned());
        spec.learned = learned;
        spec.team_trait = team_trait(&f).and_then(Result::ok);
        // NPC athletes earn no Miss Tokens (L268) and win initiative ties (K-INIT-2).
        if f.team.as_ref().and_then(|t| t.get("npc")).and_then(|v| v.as_bool()) == Some(true) {
            spec.pc = Some(false);
        }
        units.push(spec);
    }
    Ok(units)
}
