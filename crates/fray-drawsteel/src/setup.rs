//! Building a combat: the map (terrain and heights), creatures from stat blocks or given
//! outright, and the start (who goes first).

use crate::model::{AbilityDef, Size, StatBlock, check_block, limits};
use crate::options::Options;
use crate::state::{Acts, Arena, Condition, Creature, Cx, Side, Squad, State, Terrain, Until};
use fray_core::grid::{Grid, Pos};
use fray_core::turns::Alternating;
use serde::Deserialize;
use std::sync::Arc;

/// The `[map]` table: rows of terrain (`.` open, `#` wall, `~` difficult, `!` damaging,
/// `w` water, `o` fog, `c` chasm, `e` edge) and, optionally, rows of ground heights (digits).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    /// Terrain rows.
    pub rows: Vec<String>,
    /// Height rows (a digit per square), optional.
    #[serde(default)]
    pub heights: Vec<String>,
    /// Damage of damaging terrain (default 2).
    #[serde(default)]
    pub terrain_damage: Option<i32>,
    /// Objects standing on the map (DS-SIZE-3, DS-SLAM-4).
    #[serde(default)]
    pub object: Vec<ObjectSpec>,
}

/// An object on the map: a name, a square and a size; an O after the size ("2O") means heft,
/// not space: the object fills one square (DS-SIZE-3).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectSpec {
    /// What it is.
    pub name: String,
    /// Its (top-left) square.
    pub at: Pos,
    /// "1M", "2", "3O"...
    pub size: String,
    /// glass, wood, stone or metal: gives each square Stamina (DS-GAP-20). Without one, the
    /// object cannot be damaged.
    #[serde(default)]
    pub material: Option<crate::state::Material>,
}

/// A creature in a scenario or encounter: a stat block by id (from content or the file), with
/// overrides.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Id.
    pub id: String,
    /// heroes or director.
    pub team: String,
    /// Square.
    pub at: Pos,
    /// Standing this many squares up (flying or on a height; defaults to the ground).
    #[serde(default)]
    pub z: Option<i32>,
    /// The stat block it uses.
    pub creature: String,
    /// Current Stamina (defaults to the maximum).
    #[serde(default)]
    pub stamina: Option<i32>,
    /// Conditions (names; durations: until the encounter ends).
    #[serde(default)]
    pub conditions: Vec<String>,
    /// Source of frightened, grabbed or taunted conditions.
    #[serde(default)]
    pub source: Option<String>,
    /// Surges.
    #[serde(default)]
    pub surges: i32,
    /// Surprised (DS-SURP-1).
    #[serde(default)]
    pub surprised: bool,
    /// Hidden.
    #[serde(default)]
    pub hidden: bool,
    /// Invisible.
    #[serde(default)]
    pub invisible: bool,
    /// Flying.
    #[serde(default)]
    pub flying: bool,
    /// Recoveries left (defaults to the stat block's).
    #[serde(default)]
    pub recoveries: Option<i32>,
    /// Victories earned since the last respite (heroes, DS-REST-2).
    #[serde(default)]
    pub victories: i32,
    /// Experience (heroes, DS-REST-2).
    #[serde(default)]
    pub experience: i32,
    /// The squad it is in (DS-GAP-19): minions of one stat block sharing a name form a squad;
    /// a creature that is not a minion with that name is its captain.
    #[serde(default)]
    pub squad: Option<String>,
}

/// Parses the map.
pub fn arena(m: &MapSpec) -> Result<Arena, Vec<String>> {
    let h = m.rows.len() as i32;
    let w = m.rows.iter().map(|r| r.chars().count()).max().unwrap_or(0) as i32;
    let mut errors = Vec::new();
    // Issue 14: a map has at most MAP_SIDE rows and columns.
    if m.rows.len() > limits::MAP_SIDE || w as usize > limits::MAP_SIDE || m.heights.len() > limits::MAP_SIDE {
        return Err(vec![format!(
            "map.rows: the map is {w} squares wide and {h} rows high; Fray plays maps of at most {0} by {0}",
            limits::MAP_SIDE
        )]);
    }
    let mut terrain = Grid::new(w, h, Terrain::Edge);
    let mut height = Grid::new(w, h, 0);
    for (y, row) in m.rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let t = match ch {
                '.' => Terrain::Open,
                '#' => Terrain::Wall,
                '~' => Terrain::Difficult,
                '!' => Terrain::Damaging,
                'w' => Terrain::Water,
                'o' => Terrain::Fog,
                'c' => Terrain::Chasm,
                'e' => Terrain::Edge,
                other => {
                    errors.push(format!("map.rows[{y}], column {x}: unknown map character {other:?}"));
                    Terrain::Open
                }
            };
            *terrain.get_mut(Pos::new(x as i32, y as i32)).unwrap() = t;
        }
    }
    for (y, row) in m.heights.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            match ch.to_digit(10) {
                Some(d) => {
                    if let Some(c) = height.get_mut(Pos::new(x as i32, y as i32)) {
                        *c = d as i32;
                    }
                }
                None => errors.push(format!("map.heights[{y}], column {x}: heights are digits 0-9, not {ch:?}")),
            }
        }
    }
    if errors.is_empty() {
        let g = height.get(Pos::new(0, 0)).copied().unwrap_or(0);
        let leaps = terrain.squares().any(|q| terrain.get(q) == Some(&Terrain::Chasm) || height.get(q) != Some(&g));
        Ok(Arena { terrain, height, terrain_damage: m.terrain_damage.unwrap_or(2), leaps })
    } else {
        Err(errors)
    }
}

/// Builds a combat from a map, stat blocks and units; returns every problem.
pub fn build(
    map: &MapSpec,
    blocks: &[StatBlock],
    units: &[(UnitSpec, Option<usize>)],
    options: Options,
) -> Result<State, Vec<String>> {
    let mut errors = Vec::new();
    for b in blocks {
        errors.extend(check_block(b));
    }
    if let Some(d) = map.terrain_damage {
        errors.extend(fray_core::scenario::out_of_range("map.terrain_damage", d as i64, 0..=limits::DAMAGE as i64));
    }
    let arena = match arena(map) {
        Ok(a) => a,
        Err(e) => {
            errors.extend(e);
            return Err(errors);
        }
    };
    let mut objects = Vec::new();
    for (i, o) in map.object.iter().enumerate() {
        match Size::parse_object(&o.size) {
            Some((size, oblong)) => {
                let obj = crate::state::MapObject::new(o.name.clone(), o.at, size, oblong, o.material);
                if obj.squares().any(|q| !arena.at(q).standable()) {
                    errors.push(format!("map.object[{i}] ({}).at: {} is not open ground", o.name, o.at));
                }
                objects.push(obj);
            }
            None => errors.push(format!(
                "map.object[{i}] ({}).size: {:?} is not a size; write 1T, 1S, 1M, 1L, 2, 3... or 2O for a one-square object of size-2 heft",
                o.name, o.size
            )),
        }
    }
    if units.len() > limits::UNITS {
        errors.push(format!("unit: {} units; a combat has at most {}", units.len(), limits::UNITS));
        return Err(errors);
    }
    let mut creatures: Vec<Creature> = Vec::new();
    for (i, (u, line)) in units.iter().enumerate() {
        let at = |f: &str| match line {
            Some(l) => format!("line {l}, unit[{i}] ({}).{f}", u.id),
            None => format!("unit[{i}] ({}).{f}", u.id),
        };
        if u.id.trim().is_empty() {
            errors.push(format!("{}: a unit needs an id", at("id")));
        } else if units[..i].iter().any(|(v, _)| v.id == u.id) {
            errors.push(format!("{}: the id {:?} is used twice", at("id"), u.id));
        }
        let Some(b) = blocks.iter().find(|b| b.id == u.creature) else {
            errors.push(format!("{}: no stat block called {:?}", at("creature"), u.creature));
            continue;
        };
        let side = Side::parse(&u.team).unwrap_or_else(|| {
            errors.push(format!("{}: team is heroes or director, not {:?}", at("team"), u.team));
            Side::Heroes
        });
        if arena.at(u.at) == Terrain::Edge || arena.at(u.at) == Terrain::Wall {
            errors.push(format!("{}: {} is not a square to stand on", at("at"), u.at));
        }
        // Issue 14: the unit's numbers within the stated limits (docs/scenarios/drawsteel.md).
        let mut range = |f: &str, v: i32, lo: i32, hi: i32| {
            errors.extend(fray_core::scenario::out_of_range(&at(f), v as i64, lo as i64..=hi as i64));
        };
        if let Some(s) = u.stamina {
            range("stamina", s, -b.stamina, b.stamina);
        }
        if let Some(z) = u.z {
            range("z", z, -limits::HEIGHT, limits::HEIGHT);
        }
        if let Some(r) = u.recoveries {
            range("recoveries", r, 0, b.recoveries);
        }
        range("surges", u.surges, 0, limits::COUNT);
        range("victories", u.victories, 0, limits::COUNT);
        range("experience", u.experience, 0, limits::STAMINA);
        let mut conditions = Vec::new();
        for (j, n) in u.conditions.iter().enumerate() {
            match crate::model::ConditionKind::parse(n) {
                Some(k) => conditions.push(Condition { kind: k, source: None, until: Until::Encounter }),
                None => errors.push(format!("{}: unknown condition {n:?}", at(&format!("conditions[{j}]")))),
            }
        }
        let mut abilities: Vec<Arc<AbilityDef>> = b.ability.iter().cloned().map(Arc::new).collect();
        abilities.sort_by(|a, b| a.id.cmp(&b.id));
        let z = u.z.unwrap_or_else(|| arena.ground(u.at));
        creatures.push(Creature {
            id: u.id.as_str().into(),
            name: b.name.as_str().into(),
            side,
            hero: b.kind == "hero",
            level: b.level,
            pos: Some(u.at),
            z,
            size: Size::parse(&b.size).unwrap_or(Size { squares: 1, class: 2 }),
            stamina: u.stamina.unwrap_or(b.stamina),
            max_stamina: b.stamina,
            temp_stamina: 0,
            recoveries: u.recoveries.unwrap_or(b.recoveries),
            max_recoveries: b.recoveries,
            victories: u.victories,
            experience: u.experience,
            speed: b.speed,
            stability: b.stability,
            chars: b.characteristics.array(),
            free_strike: if b.kind == "hero" { None } else { b.free_strike },
            abilities: abilities.into(),
            conditions,
            surges: u.surges,
            acts: Acts::default(),
            acted: false,
            turns: 0,
            triggered_used: false,
            surprised: u.surprised,
            hidden: u.hidden,
            seen_by: Vec::new(),
            revealing: false,
            invisible: u.invisible,
            defending: false,
            flying: u.flying,
            falling: None,
            aided_by: None,
            villain_used: Vec::new(),
            class: b.class.as_deref().and_then(crate::model::class),
            resource: 0,
            resource_triggers: (false, false, false),
            judged_by: None,
            marked_by: None,
            solo: b.organization.as_deref() == Some("solo"),
            round_turns: 0,
            minion: b.organization.as_deref() == Some("minion"),
            squad: None,
            with_captain: b.with_captain,
            immunities: resists(&b.immunities),
            weaknesses: resists(&b.weaknesses),
            mount: b.role.as_deref() == Some("mount"),
            brutal: false,
            malicious: 0,
            dead: false,
            unconscious: false,
        });
    }
    // No two creatures in one space unless their sizes differ by 2 or more (DS-GAP-9).
    for a in 0..creatures.len() {
        for b in a + 1..creatures.len() {
            let (x, y) = (&creatures[a], &creatures[b]);
            if let (Some(p), Some(q)) = (x.pos, y.pos)
                && fray_core::geometry::overlaps(p, x.size.squares, q, y.size.squares)
                && (x.size.rank() - y.size.rank()).abs() < 2
            {
                errors.push(format!("unit {} and unit {} share a space", x.id, y.id));
            }
        }
    }
    // Sources of conditions. A unit whose stat block is missing made no creature, so each is
    // found by its id (issue 14: indexing by position ran past the end of the list).
    for (i, (u, _)) in units.iter().enumerate() {
        let me = creatures.iter().position(|c| *c.id == *u.id);
        if let Some(src) = &u.source {
            match creatures.iter().position(|c| &*c.id == src.as_str()) {
                Some(s) if Some(s) == me => errors
                    .push(format!("unit[{i}] ({}).source: a creature is not the source of its own condition", u.id)),
                Some(s) => {
                    if let Some(m) = me {
                        for cond in creatures[m].conditions.iter_mut() {
                            cond.source = Some(s as u8);
                        }
                    }
                }
                None => errors.push(format!("unit[{i}] ({}).source: no creature called {src:?}", u.id)),
            }
        } else if me.is_some_and(|m| creatures[m].conditions.iter().any(|c| c.kind.has_source())) {
            errors.push(format!("unit[{i}] ({}).source: frightened, grabbed and taunted need a source", u.id));
        }
    }
    let squads = squads(units, &mut creatures, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let heroes = creatures.iter().filter(|c| c.hero && c.side == Side::Heroes).count() as i32;
    Ok(State {
        arena: Arc::new(arena),
        hero_tokens: options.hero_tokens.unwrap_or(heroes),
        options: Arc::new(options),
        creatures,
        round: 0,
        order: Alternating::new(2, 0),
        current: None,
        token_spent_this_turn: false,
        walls: Vec::new(),
        objects,
        last_test: None,
        rerollable: None,
        malice: 0,
        malicious_strike_round: None,
        villain_round: None,
        last_turn: None,
        squads,
        flow: Vec::new(),
        outcome: None,
    })
}

/// A stat block's immunities or weaknesses as the state keeps them (DS-GAP-20).
fn resists(m: &std::collections::BTreeMap<String, crate::model::Amount>) -> Arc<[(Arc<str>, i32)]> {
    m.iter().filter_map(|(k, v)| Some((Arc::from(k.as_str()), v.value()?))).collect()
}

/// The squads of minions (DS-GAP-19): units naming the same `squad`. At most eight minions of
/// one stat block, on the Director's side; at most one captain, not a minion and not a mount.
/// A minion with no `squad` is a squad of one.
fn squads(units: &[(UnitSpec, Option<usize>)], creatures: &mut [Creature], errors: &mut Vec<String>) -> Vec<Squad> {
    let mut out: Vec<Squad> = Vec::new();
    let mut captains: Vec<(String, Cx)> = Vec::new();
    for (i, (u, _)) in units.iter().enumerate() {
        let Some(c) = creatures.iter().position(|c| *c.id == *u.id) else { continue };
        let x = &creatures[c];
        let name = match (&u.squad, x.minion) {
            (None, false) => continue,
            (Some(n), false) => {
                if x.side != Side::Director || x.hero || x.mount {
                    errors.push(format!(
                        "unit[{i}] ({}).squad: a captain is one of the Director's creatures, not a hero or a mount",
                        u.id
                    ));
                }
                if captains.iter().any(|(m, _)| m == n) {
                    errors.push(format!("unit[{i}] ({}).squad: squad {n:?} already has a captain", u.id));
                }
                captains.push((n.clone(), c as Cx));
                continue;
            }
            (Some(n), true) => n.clone(),
            (None, true) => format!("{} alone", u.id),
        };
        if x.side != Side::Director {
            errors.push(format!("unit[{i}] ({}).squad: minions fight for the Director", u.id));
        }
        match out.iter_mut().find(|q| *q.name == *name) {
            Some(q) => {
                let first = &creatures[q.members[0] as usize];
                if first.max_stamina != x.max_stamina || first.name != x.name {
                    errors.push(format!(
                        "unit[{i}] ({}).squad: a squad's minions share one stat block ({} is a {})",
                        u.id, first.id, first.name
                    ));
                }
                if q.members.len() >= 8 {
                    errors.push(format!("unit[{i}] ({}).squad: a squad has at most eight minions", u.id));
                }
                q.members.push(c as Cx);
                q.pool += x.stamina.max(0);
            }
            None => out.push(Squad {
                name: name.into(),
                members: vec![c as Cx],
                each: x.max_stamina,
                pool: x.stamina.max(0),
                captain: None,
                roll: None,
                struck: Vec::new(),
                rolled_for: Vec::new(),
                maneuver_rolls: Vec::new(),
                maneuvered: Vec::new(),
            }),
        }
    }
    for (n, c) in captains {
        match out.iter_mut().find(|q| *q.name == *n) {
            Some(q) => q.captain = Some(c),
            None => errors.push(format!("unit {}: squad {n:?} has no minions to captain", creatures[c as usize].id)),
        }
    }
    for (k, q) in out.iter().enumerate() {
        for &m in &q.members {
            creatures[m as usize].squad = Some(k as u8);
        }
        if let Some(c) = q.captain {
            creatures[c as usize].squad = Some(k as u8);
        }
    }
    out
}

/// Encounter value of one creature (DS-GAP-21): (2 x level + 4) times its organization's
/// modifier; for a minion, the value of a group of four (minions are bought four at a time).
pub fn encounter_value(b: &StatBlock) -> Option<f64> {
    let m = match b.organization.as_deref()? {
        "minion" => 0.5,
        "horde" => 0.5,
        "platoon" => 1.0,
        "elite" | "leader" => 2.0,
        "solo" => 6.0,
        _ => return None,
    };
    Some(f64::from(2 * b.level + 4) * m)
}

/// The encounter's budget against its heroes (DS-GAP-21): encounter strength is 4 + 2 x level
/// per hero, and every 2 Victories the heroes have on average count as one hero more; the
/// Director's creatures' encounter values add up, and their total against that strength names
/// the difficulty. Each line is one part of the report.
pub fn budget(e: &Encounter, blocks: &[StatBlock]) -> Result<Vec<String>, Vec<String>> {
    let find = |id: &str| blocks.iter().find(|b| b.id == id);
    let mut errors = Vec::new();
    let (mut heroes, mut levels, mut victories, mut ev) = (0i32, 0i32, 0i32, 0.0f64);
    let mut lines = Vec::new();
    // DS-GAP-21: minions are bought four at a time: each stat block's minions count in groups
    // of four, a group begun counting whole.
    let mut minions: Vec<(&StatBlock, usize)> = Vec::new();
    for (u, line) in &e.units {
        let at = line.map_or(String::new(), |l| format!("line {l}, "));
        let Some(b) = find(&u.creature) else {
            errors.push(format!("{at}unit {}: no stat block {:?}", u.id, u.creature));
            continue;
        };
        if u.team == "heroes" {
            heroes += 1;
            levels += b.level;
            victories += u.victories;
            continue;
        }
        if b.organization.as_deref() == Some("minion") {
            match minions.iter_mut().find(|(m, _)| m.id == b.id) {
                Some(p) => p.1 += 1,
                None => minions.push((b, 1)),
            }
            continue;
        }
        match encounter_value(b) {
            Some(v) => {
                ev += v;
                lines.push(format!(
                    "  {} ({}, level {} {}): EV {v}",
                    u.id,
                    b.name,
                    b.level,
                    b.organization.as_deref().unwrap_or("?")
                ));
            }
            None => errors.push(format!(
                "{at}unit {} ({}): organization must be minion, horde, platoon, elite, leader or solo to count its EV",
                u.id, b.id
            )),
        }
    }
    for (b, n) in minions {
        let groups = n.div_ceil(4);
        let v = encounter_value(b).unwrap_or(0.0) * groups as f64;
        ev += v;
        lines.push(format!(
            "  {n} x {} (level {} minion): EV {v}, {groups} group(s) of four{}",
            b.name,
            b.level,
            if n % 4 != 0 { format!(" (a group of four is counted for the last {})", n % 4) } else { String::new() }
        ));
    }
    if heroes == 0 {
        errors.push("no heroes: encounter strength is counted per hero".into());
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let level = levels as f64 / heroes as f64;
    let one = 4.0 + 2.0 * level;
    let extra = (victories / heroes / 2) as f64;
    let strength: f64 = e
        .units
        .iter()
        .filter(|(u, _)| u.team == "heroes")
        .filter_map(|(u, _)| find(&u.creature))
        .map(|b| f64::from(4 + 2 * b.level))
        .sum::<f64>()
        + extra * one;
    let difficulty = if ev < strength - one {
        "trivial"
    } else if ev < strength {
        "easy"
    } else if ev <= strength + one {
        "standard"
    } else if ev <= strength + 3.0 * one {
        "hard"
    } else {
        "extreme"
    };
    let mut out = vec![format!(
        "{}: {heroes} heroes of level {level:.1} (encounter strength {strength}{}) against EV {ev}: {difficulty}",
        e.name,
        if extra > 0.0 { format!(", {extra} hero(es) more for their Victories") } else { String::new() }
    )];
    out.extend(lines);
    Ok(out)
}

/// The built-in stat blocks (content/drawsteel), compiled in.
pub const BUILTIN: &[(&str, &str)] = &[
    ("content/drawsteel/heroes.toml", include_str!("../../../content/drawsteel/heroes.toml")),
    ("content/drawsteel/creatures.toml", include_str!("../../../content/drawsteel/creatures.toml")),
];

/// A file of stat blocks.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockFile {
    /// The stat blocks.
    pub creature: Vec<StatBlock>,
}

/// Loads the built-in stat blocks.
pub fn builtin_blocks() -> Result<Vec<StatBlock>, String> {
    let mut out = Vec::new();
    for (file, text) in BUILTIN {
        let f: BlockFile = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
        out.extend(f.creature);
    }
    Ok(out)
}

/// The built-in encounters (`fray play drawsteel --map NAME`), the first the default: each a
/// file in the encounter format ([`Encounter`]), compiled in.
pub const ENCOUNTERS: &[(&str, &str)] = &[
    ("sample", include_str!("../../../content/drawsteel/encounters/sample.toml")),
    ("mire-ambush", include_str!("../../../content/drawsteel/encounters/mire-ambush.toml")),
    ("warband", include_str!("../../../content/drawsteel/encounters/warband.toml")),
];

/// An encounter file: a name, a line on what it is, the map, the creatures placed on it, and
/// stat blocks of its own (`[[creature]]`, as in scenarios) beside the built-in ones.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterFile {
    /// Its name.
    pub name: String,
    /// What it is, in a line.
    pub text: String,
    /// The field.
    pub map: MapSpec,
    /// Stat blocks of its own.
    #[serde(default)]
    pub creature: Vec<StatBlock>,
    /// The creatures and where they stand.
    #[serde(default)]
    pub unit: Vec<toml::Spanned<UnitSpec>>,
    /// Stat blocks in the community's JSON shapes (issue 19, item 6).
    #[serde(default)]
    pub import: Vec<ImportSpec>,
}

/// A stat block written in another project's JSON shape, inline (`crate::import`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportSpec {
    /// `steel-compendium` (a monster statblock) or `forge-steel` (a hero).
    pub format: String,
    /// The JSON text.
    #[serde(default)]
    pub json: String,
    /// Or, for `steel-compendium`, a statblock in its markdown shape.
    #[serde(default)]
    pub markdown: String,
}

/// Reads `[[import]]` entries into stat blocks; errors name `path`, the entry and each field.
pub fn imports(path: &str, specs: &[ImportSpec]) -> Result<Vec<StatBlock>, Vec<String>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        let at = format!("{path}: import[{i}]");
        let Some(f) = crate::import::Format::parse(&s.format) else {
            errors.push(format!("{at}.format: write steel-compendium or forge-steel, not {:?}", s.format));
            continue;
        };
        let read = match (s.json.trim().is_empty(), s.markdown.trim().is_empty(), f) {
            (true, false, crate::import::Format::SteelCompendium) => crate::import::read_markdown(&at, &s.markdown),
            (false, true, _) => crate::import::read(&at, &s.json, Some(f)),
            _ => {
                errors.push(format!("{at}: give json, or markdown for a steel-compendium statblock (one of the two)"));
                continue;
            }
        };
        match read {
            Ok(b) => out.push(b),
            Err(es) => errors.extend(es),
        }
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}

/// A read encounter: its name and line, map, units (with their lines) and the stat blocks it
/// adds.
pub struct Encounter {
    /// Its name.
    pub name: String,
    /// What it is, in a line.
    pub text: String,
    /// The field.
    pub map: MapSpec,
    /// The creatures placed, each with its line in the file.
    pub units: Vec<(UnitSpec, Option<usize>)>,
    /// Stat blocks the file adds.
    pub blocks: Vec<StatBlock>,
}

/// Reads an encounter file; errors name the file and line. Placing the creatures is checked
/// when the encounter is built ([`build`]).
pub fn read_encounter(path: &str, text: &str) -> Result<Encounter, Vec<String>> {
    let f: EncounterFile = toml::from_str(text).map_err(|e| vec![format!("{path}: {e}")])?;
    let beyond = fray_core::scenario::numbers_beyond(text, &[]);
    if !beyond.is_empty() {
        return Err(beyond.iter().map(|e| format!("{path}: {e}")).collect());
    }
    if f.unit.is_empty() {
        return Err(vec![format!("{path}: an encounter needs creatures: add [[unit]] entries")]);
    }
    let units = f
        .unit
        .into_iter()
        .map(|u| (fray_core::scenario::line_of(text, u.span().start), u.into_inner()))
        .map(|(l, u)| (u, Some(l)))
        .collect();
    let mut blocks = f.creature;
    blocks.extend(imports(path, &f.import)?);
    Ok(Encounter { name: f.name, text: f.text, map: f.map, units, blocks })
}

/// The built-in encounter `fray play drawsteel` uses without `--map`: two heroes against a bog
/// brute, an ash archer and a gloom hound on a small field with a ledge, difficult ground and
/// fog (`content/drawsteel/encounters/sample.toml`).
pub fn default_encounter() -> (MapSpec, Vec<(UnitSpec, Option<usize>)>) {
    let (name, text) = ENCOUNTERS[0];
    let e = read_encounter(name, text).expect("the built-in sample encounter reads");
    (e.map, e.units)
}

/// The rules reference (`content/drawsteel/rules.toml`) and every built-in creature and
/// ability, for `fray rules drawsteel`.
pub fn rules_index() -> Result<Vec<fray_core::lookup::Entry>, String> {
    #[derive(Deserialize)]
    struct RulesFile {
        entry: Vec<fray_core::lookup::Entry>,
    }
    let text = include_str!("../../../content/drawsteel/rules.toml");
    let mut out = toml::from_str::<RulesFile>(text).map_err(|e| format!("content/drawsteel/rules.toml: {e}"))?.entry;
    for b in builtin_blocks()? {
        out.push(fray_core::lookup::Entry {
            id: b.id.clone(),
            name: b.name.clone(),
            kind: "creature".into(),
            aliases: vec![],
            text: card(&b),
        });
        for a in &b.ability {
            out.push(fray_core::lookup::Entry {
                id: a.id.clone(),
                name: a.name.clone(),
                kind: "ability".into(),
                aliases: vec![],
                text: ability_card(a),
            });
        }
    }
    Ok(out)
}

fn tier_text(t: &crate::model::TierDef, chars: &[crate::model::Characteristic]) -> String {
    let mut parts = Vec::new();
    if t.damage > 0 {
        let plus = if t.plus_characteristic {
            format!(" + {}", chars.iter().map(|c| format!("{c:?}")).collect::<Vec<_>>().join(" or "))
        } else {
            String::new()
        };
        let kind = t.damage_type.as_ref().map(|k| format!(" {k}")).unwrap_or_default();
        parts.push(format!("{}{plus}{kind} damage", t.damage));
    }
    for e in &t.effects {
        let mut s = String::new();
        if let Some(c) = &e.condition {
            s = format!("{c} ({})", e.until.as_deref().unwrap_or("eot"));
        }
        for (n, what) in [(e.push, "push"), (e.pull, "pull"), (e.slide, "slide")] {
            if let Some(n) = n {
                s = format!("{}{what} {n}", if e.vertical { "vertical " } else { "" });
            }
        }
        if e.recovery {
            s = "spends a Recovery".into();
        }
        if e.judge {
            s = "judged".into();
        }
        if e.mark {
            s = "marked".into();
        }
        if let Some(p) = &e.potency {
            s = format!("{p}: {s}");
        }
        if !s.is_empty() {
            parts.push(s);
        }
    }
    if parts.is_empty() { "no effect".into() } else { parts.join("; ") }
}

/// An ability written out with its numbers.
pub fn ability_card(a: &AbilityDef) -> String {
    let roll = if a.roll.is_empty() {
        "no power roll".to_string()
    } else {
        format!("power roll + {}", a.roll.iter().map(|c| format!("{c:?}")).collect::<Vec<_>>().join(" or "))
    };
    let cost = match (a.cost, a.malice) {
        (Some(n), _) => format!(", costs {n} Heroic Resource"),
        (_, Some(n)) => format!(", costs {n} Malice"),
        _ => String::new(),
    };
    format!(
        "{} ({:?}{cost}, {}; {}; {roll}). ≤11: {}. 12-16: {}. 17+: {}. {}",
        a.name,
        a.usage,
        a.distance,
        a.keywords.join(", "),
        tier_text(&a.tier1, &a.roll),
        tier_text(&a.tier2, &a.roll),
        tier_text(&a.tier3, &a.roll),
        a.text
    )
}

/// A stat block written out: every number a table needs.
pub fn card(b: &StatBlock) -> String {
    let c = &b.characteristics;
    let mut out = format!(
        "{} — {} level {}{}{}{}\n  Stamina {} (winded at {}, recovery value {}), Recoveries {}, speed {}, size {}, stability {}{}\n  Might {:+}, Agility {:+}, Reason {:+}, Intuition {:+}, Presence {:+}\n",
        b.name,
        b.kind,
        b.level,
        b.organization.as_ref().map(|o| format!(" {o}")).unwrap_or_default(),
        b.role.as_ref().map(|r| format!(" {r}")).unwrap_or_default(),
        b.class.as_ref().map(|r| format!(" {r}")).unwrap_or_default(),
        b.stamina,
        b.stamina / 2,
        b.stamina / 3,
        b.recoveries,
        b.speed,
        b.size,
        b.stability,
        b.free_strike
            .map(|f| format!(", free strike {f}"))
            .unwrap_or_else(|| ", free strike: melee 2/5/7 or ranged 2/4/6 + Might or Agility".into()),
        c.might,
        c.agility,
        c.reason,
        c.intuition,
        c.presence
    );
    // DS-GAP-20: immunities and weaknesses.
    for (label, map) in [("Immunities", &b.immunities), ("Weaknesses", &b.weaknesses)] {
        if !map.is_empty() {
            let list: Vec<String> = map
                .iter()
                .map(|(k, v)| match v.value() {
                    Some(crate::model::ALL_DAMAGE) => format!("{k} all"),
                    Some(n) => format!("{k} {n}"),
                    None => k.clone(),
                })
                .collect();
            out.push_str(&format!("  {label}: {}\n", list.join(", ")));
        }
    }
    for a in &b.ability {
        out.push_str(&format!("  • {}\n", ability_card(a)));
    }
    if !b.text.is_empty() {
        out.push_str(&format!("  {}\n", b.text));
    }
    out
}

/// Checks a file of stat blocks: every problem with file, line and field; or the cards.
pub fn check_file(path: &str, text: &str) -> Result<Vec<String>, Vec<String>> {
    // A JSON file: a Steel Compendium monster or a Forge Steel hero (issue 19, item 6).
    if text.trim_start().starts_with('{') {
        return crate::import::read(path, text, None).map(|b| vec![card(&b)]);
    }
    // A Steel Compendium markdown statblock (its front matter first).
    if text.trim_start().starts_with("---") {
        return crate::import::read_markdown(path, text).map(|b| vec![card(&b)]);
    }
    // An encounter file (it has a map): its budget (DS-GAP-21), then its own stat blocks' cards.
    if toml::from_str::<toml::Table>(text).is_ok_and(|t| t.contains_key("map")) {
        let e = read_encounter(path, text)?;
        let mut blocks = builtin_blocks().map_err(|e| vec![e])?;
        blocks.retain(|b| e.blocks.iter().all(|x| x.id != b.id));
        blocks.extend(e.blocks.iter().cloned());
        let mut out =
            budget(&e, &blocks).map_err(|es| es.into_iter().map(|x| format!("{path}: {x}")).collect::<Vec<_>>())?;
        out.extend(e.blocks.iter().map(card));
        return Ok(out);
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        creature: Vec<toml::Spanned<StatBlock>>,
    }
    let f: File = toml::from_str(text).map_err(|e| vec![format!("{path}: {e}")])?;
    let mut errors: Vec<String> =
        fray_core::scenario::numbers_beyond(text, &[]).into_iter().map(|e| format!("{path}: {e}")).collect();
    let mut cards = Vec::new();
    for b in &f.creature {
        let line = fray_core::scenario::line_of(text, b.span().start);
        let es = check_block(b.get_ref());
        if es.is_empty() {
            cards.push(card(b.get_ref()));
        }
        errors.extend(es.into_iter().map(|e| format!("{path}:{line}: {e}")));
    }
    if errors.is_empty() { Ok(cards) } else { Err(fray_core::scenario::capped(errors)) }
}
