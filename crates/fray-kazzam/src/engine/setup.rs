//! Building a match: the arena, the units (given stats and powers outright, or later from
//! character files), the orbs on their pedestals, and the first turn. Every problem is reported
//! with the field it is in, all at once.

use crate::content::Content;
use crate::content::powers::Powers;
use crate::engine::arena::{Arena, Portal, Side, Terrain};
use crate::engine::events::Event;
use crate::engine::flow::{self, Ctx};
use crate::engine::options::TableOptions;
use crate::engine::records::creeps::{Creeps, Enemy, Group};
use crate::engine::state::OrbIdx;
use crate::engine::state::{Actions, Implement, Orb, OrbLoc, State, Unit, UnitIdx, UnitKind};
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::dice::Dice;
use fray_core::geometry::distance;
use fray_core::grid::{Pos, footprint};
use fray_core::ruleset::RuleError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Not;
use std::sync::Arc;

/// The `[map]` table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    /// One string per row (see [`Arena::parse`] for the legend).
    pub rows: Vec<String>,
    /// Extra characters: `{ "=" = "water" }`.
    #[serde(default)]
    pub legend: BTreeMap<String, String>,
    /// Portals.
    #[serde(default)]
    pub portal: Vec<Portal>,
    /// Damage dealt by damaging terrain on this map (1 unless the map says otherwise).
    #[serde(default)]
    pub terrain_damage: Option<i32>,
    /// Pedestals that start with more than one orb, by pedestal id (`n-2 = 2`; the Dual
    /// Dungeons' central pedestal, L2536). The extra orbs are named `n-2b`, `n-2c`...
    #[serde(default)]
    pub orbs: BTreeMap<String, usize>,
}

/// A status given outright: a name, or a table with amount, duration and source.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum StatusSpec {
    /// Just the name: lasts until removed.
    Name(String),
    /// With details.
    Full {
        /// Status name.
        name: String,
        /// Its number.
        #[serde(default)]
        amount: Option<i32>,
        /// How long ("save ends", "end of next turn", "indefinite"...).
        #[serde(default)]
        until: Option<String>,
        /// Unit id of its source (grabber, marker...).
        #[serde(default)]
        source: Option<String>,
    },
}

/// A unit given outright.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Id used in commands and assertions.
    pub id: String,
    /// Display name (defaults to the id).
    #[serde(default)]
    pub name: Option<String>,
    /// `red`/`home` or `blue`/`away` (or `neutral`).
    pub team: String,
    /// Top-left square; leave out for a unit that starts Taken Out.
    #[serde(default)]
    pub at: Option<Pos>,
    /// Footprint size (1).
    #[serde(default)]
    pub size: Option<i32>,
    /// Current HP (defaults to max_hp).
    #[serde(default)]
    pub hp: Option<i32>,
    /// Maximum HP (8, K-FMT-2).
    #[serde(default)]
    pub max_hp: Option<i32>,
    /// Speed (6, K-FMT-2).
    #[serde(default)]
    pub speed: Option<i32>,
    /// wand, staff, sword or none (staff).
    #[serde(default)]
    pub implement: Option<String>,
    /// Player character (earns Miss Tokens; true for athletes).
    #[serde(default)]
    pub pc: Option<bool>,
    /// athlete or creep.
    #[serde(default)]
    pub kind: Option<String>,
    /// Role: controller, defender, leader, striker or specialist (one of each per team, K-FMT-1).
    #[serde(default)]
    pub role: Option<String>,
    /// Role specialization (K-CHAR-2): its Role Boost and simple features apply in play.
    #[serde(default)]
    pub specialization: Option<String>,
    /// Level 1-6 (K-PROG); 1 unless given.
    #[serde(default)]
    pub level: Option<u8>,
    /// Class (no two athletes of a team share one, K-CHAR-1).
    #[serde(default)]
    pub class: Option<String>,
    /// Powers beyond the basic ones (ids).
    #[serde(default)]
    pub powers: Vec<String>,
    /// Class features in force (ids from the class files).
    #[serde(default)]
    pub features: Vec<String>,
    /// Blade Enchantments and Self-Charms learned but not in force (Change Spell swaps them in).
    #[serde(default)]
    pub learned: Vec<String>,
    /// Capacitive Ward's Charge Tokens held at the start.
    #[serde(default)]
    pub charge_tokens: Option<i32>,
    /// A Wardmaster's own Special Ward held at the start (on top of `ward`).
    #[serde(default)]
    pub special_ward: Option<i32>,
    /// Its advanced implement (K-AIMP), by id.
    #[serde(default)]
    pub advanced_implement: Option<String>,
    /// Encounter powers already spent.
    #[serde(default)]
    pub spent: Vec<String>,
    /// Statuses.
    #[serde(default)]
    pub statuses: Vec<StatusSpec>,
    /// Ward.
    #[serde(default)]
    pub ward: Option<i32>,
    /// Miss Tokens.
    #[serde(default)]
    pub miss_tokens: Option<i32>,
    /// Strikes already taken.
    #[serde(default)]
    pub strikes: Option<i32>,
    /// Initiative (fixes the turn order instead of rolling).
    #[serde(default)]
    pub initiative: Option<i32>,
    /// Orb ids it carries.
    #[serde(default)]
    pub holding: Vec<String>,
    /// Elixirs it carries (ids of Elixirs or Potions); by default one flask of each At-Will
    /// Elixir it knows (brews.rs).
    #[serde(default)]
    pub elixirs: Option<Vec<String>>,
    /// Implement stowed.
    #[serde(default)]
    pub stowed: bool,
    /// Has hit the button of this exit (K-DUN-6).
    #[serde(default)]
    pub button: Option<Pos>,
    /// For a summon, conjured creature, trap, automaton or wall: the unit id of its owner.
    #[serde(default)]
    pub owner: Option<String>,
    /// What it is: the power or creature id (`staff-trap`, `zapper`).
    #[serde(default)]
    pub what: Option<String>,
    /// A trap's charges.
    #[serde(default)]
    pub charges: Option<i32>,
    /// A Creep's group (creeps.rs; a Creep with a stat block in `what` and no group makes a group
    /// of its own stat block's name).
    #[serde(default)]
    pub group: Option<String>,
    /// The orb a Creep's group guards (the neutral orb nearest its first Creep unless given).
    #[serde(default)]
    pub guards: Option<String>,
    /// Players already on a Creep's group's Enemies List.
    #[serde(default)]
    pub enemies: Vec<String>,
    /// Its team's trait (a rival team of §5): team-effort, agile, untouchable or
    /// get-out-of-jail-free.
    #[serde(default)]
    pub team_trait: Option<crate::engine::state::TeamTrait>,
}

/// An extra orb on the ground.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrbSpec {
    /// Id.
    pub id: String,
    /// red, blue or neutral.
    pub color: String,
    /// Square.
    pub at: Pos,
}

/// Everything needed to start a match.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Map.
    pub map: MapSpec,
    /// Units, with the line each was declared on (for errors), if known.
    pub units: Vec<(UnitSpec, Option<usize>)>,
    /// Extra orbs.
    pub orbs: Vec<OrbSpec>,
    /// Powers in play.
    pub powers: Powers,
    /// Table options.
    pub options: TableOptions,
    /// The content it was built from (Creep stat blocks, specializations, class features).
    pub content: Arc<Content>,
}

/// The stated limits of the numbers in scenario and team files (issue 14; listed in
/// docs/scenarios/kazzam.md, "Limits"). Within them no game arithmetic overflows.
pub mod limits {
    /// Rows and columns of a map.
    pub const MAP_SIDE: usize = 100;
    /// Units in one match.
    pub const UNITS: usize = 100;
    /// Pedestals and orbs on one map (each is indexed by a byte).
    pub const ORBS: usize = 64;
    /// Hit points, speed, Ward, tokens, Strikes, charges, status amounts, terrain damage.
    pub const NUMBER: i32 = 99;
}

/// A number of the file outside `lo..=hi`, as an error naming the field.
fn range(errors: &mut Vec<String>, field: &str, value: Option<i32>, lo: i32, hi: i32) {
    if let Some(v) = value {
        errors.extend(fray_core::scenario::out_of_range(field, v as i64, lo as i64..=hi as i64));
    }
}

/// The statuses a unit holds from another unit: the grabber, the marker, the controller.
fn needs_other_source(kind: StatusKind) -> bool {
    matches!(
        kind,
        StatusKind::Grabbed | StatusKind::Marked | StatusKind::Dominated | StatusKind::Frenzied | StatusKind::Panicked
    )
}

/// The five Roles (K-CHAR-1).
pub const ROLES: [&str; 5] = ["controller", "defender", "leader", "striker", "specialist"];
/// The ten Classes (K-CHAR-1).
pub const CLASSES: [&str; 10] = [
    "hexer",
    "wandslinger",
    "wardmaster",
    "porter",
    "shivering-sword",
    "diviner",
    "tinker",
    "brewer",
    "charmer",
    "tamer",
];

/// The basic powers every athlete has (K-CHAR-3, K-MOVE-11).
pub const BASIC_POWERS: &[&str] = &["basic-physical-attack", "basic-implement-attack", "reveal"];

fn where_(line: Option<usize>, field: &str) -> String {
    match line {
        Some(l) => format!("line {l}, {field}"),
        None => field.to_string(),
    }
}

/// What the matches one `Kazzam` value builds share: the hook table for the classes in a
/// match, and one copy of each arena, so that what is worked out per arena (sight, Boost
/// Squares) is kept from match to match.
pub trait Shared {
    /// The hook table of a match with the classes `present`.
    fn hooks(&self, present: crate::engine::plugins::Present) -> crate::engine::state::HookTable;
    /// The shared copy of `arena`.
    fn arena(&self, arena: Arena) -> Arc<Arena>;
}

/// Nothing shared: a table and an arena made for this match alone.
struct Alone;

impl Shared for Alone {
    fn hooks(&self, present: crate::engine::plugins::Present) -> crate::engine::state::HookTable {
        crate::engine::state::HookTable(crate::engine::plugins::table_for(present))
    }
    fn arena(&self, arena: Arena) -> Arc<Arena> {
        Arc::new(arena)
    }
}

/// Builds the state, or every error found.
pub fn build(setup: Setup) -> Result<State, Vec<String>> {
    build_with(setup, &Alone)
}

/// [`build`], with what `shared` holds for every match.
pub fn build_with(setup: Setup, shared: &dyn Shared) -> Result<State, Vec<String>> {
    let mut errors = Vec::new();
    let mut extra = Vec::new();
    for (k, v) in &setup.map.legend {
        let mut chars = k.chars();
        match (chars.next(), chars.next(), Terrain::parse(v)) {
            (Some(c), None, Some(t)) => extra.push((c, t)),
            (_, _, None) => errors.push(format!("map.legend.{k}: unknown terrain {v:?}; use open, blocking, difficult, damaging, water, low-cover, full-cover, fog, edge or pit")),
            _ => errors.push(format!("map.legend: key {k:?} must be a single character")),
        }
    }
    let side = setup.map.rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    if setup.map.rows.len() > limits::MAP_SIDE || side > limits::MAP_SIDE {
        errors.push(format!(
            "map.rows: the map is {side} squares wide and {} rows high; Fray plays maps of at most {1} by {1}",
            setup.map.rows.len(),
            limits::MAP_SIDE
        ));
        return Err(errors);
    }
    if setup.units.len() > limits::UNITS {
        errors.push(format!("unit: {} units; a match has at most {}", setup.units.len(), limits::UNITS));
        return Err(errors);
    }
    let mut arena = match Arena::parse(&setup.map.rows, &extra) {
        Ok(a) => a,
        Err(es) => {
            errors.extend(es.into_iter().map(|e| format!("map.rows: {}", e.message)));
            return Err(errors);
        }
    };
    if arena.pedestals.len() + setup.orbs.len() > limits::ORBS {
        errors.push(format!(
            "map.rows: {} pedestals and {} more orbs; a map has at most {} orbs",
            arena.pedestals.len(),
            setup.orbs.len(),
            limits::ORBS
        ));
        return Err(errors);
    }
    range(&mut errors, "map.terrain_damage", setup.map.terrain_damage, 0, limits::NUMBER);
    errors.extend(setup.options.out_of_range().into_iter().map(|e| format!("options.{e}")));
    if let Some(d) = setup.map.terrain_damage {
        arena.terrain_damage = d;
    }
    for (i, p) in setup.map.portal.iter().enumerate() {
        for end in [p.a, p.b] {
            if !arena.terrain.contains(end) {
                errors.push(format!("map.portal[{i}]: {end} is off the map"));
            } else {
                *arena.terrain.get_mut(end).unwrap() = Terrain::Portal;
            }
        }
        arena.portals.push(p.clone());
    }
    let powers = Arc::new(setup.powers);
    let content = &*setup.content;
    let mut units: Vec<Unit> = Vec::new();
    // N, the players a team (K-CTYPE): the larger team's athletes.
    let team_n = |t: &str| {
        setup.units.iter().filter(|(u, _)| u.team == t && matches!(u.kind.as_deref(), None | Some("athlete"))).count()
    };
    let players = team_n("red").max(team_n("blue")).max(1) as i32;
    for (i, (spec, line)) in setup.units.iter().enumerate() {
        let at = |f: &str| where_(*line, &format!("unit[{i}] ({}).{f}", spec.id));
        if spec.id.trim().is_empty() {
            errors.push(format!("{}: a unit needs an id", at("id")));
        } else if units.iter().any(|u| &*u.id == spec.id.as_str()) {
            errors.push(format!("{}: the id {:?} is used twice", at("id"), spec.id));
        }
        let side = Side::parse(&spec.team).unwrap_or_else(|| {
            errors.push(format!("{}: unknown team {:?}; use red, blue or neutral", at("team"), spec.team));
            Side::Red
        });
        let implement = match &spec.implement {
            None => Implement::Staff,
            Some(s) => Implement::parse(s).unwrap_or_else(|| {
                errors.push(format!("{}: unknown implement {s:?}; use wand, staff, sword or none", at("implement")));
                Implement::Staff
            }),
        };
        let kind = match spec.kind.as_deref() {
            None | Some("athlete") => UnitKind::Athlete,
            Some("creep") => UnitKind::Creep,
            Some("summon") => UnitKind::Summon,
            Some("conjured") => UnitKind::Conjured,
            Some("trap") => UnitKind::Trap,
            Some("automaton") => UnitKind::Automaton,
            Some("wall") => UnitKind::Wall,
            Some(k) => {
                errors.push(format!(
                    "{}: unknown kind {k:?}; use athlete, creep, summon, conjured, trap, automaton or wall",
                    at("kind")
                ));
                UnitKind::Athlete
            }
        };
        // A Creep's stat block gives its size, speed and HP (creeps.rs, K-CTYPE).
        let creep = (kind == UnitKind::Creep)
            .then(|| spec.what.as_deref().and_then(|w| content.creep(w)))
            .flatten()
            .map(|(_, c)| c);
        let implement = if creep.is_some() && spec.implement.is_none() { Implement::None } else { implement };
        // K-CTYPE: a Creep of a stat block guards the neutral orbs for no team. (A bare
        // `kind = "creep"` on a team stands in for a creature in some scenarios.)
        if creep.is_some() && side != Side::Neutral {
            errors.push(format!("{}: a Creep plays for no team; its team is neutral", at("team")));
        }
        let size = spec.size.or(creep.map(|c| c.size)).unwrap_or(1);
        let size_ok = (1..=4).contains(&size);
        if !size_ok {
            errors.push(format!("{}: size {size} is outside 1..4", at("size")));
        }
        // Issue 14: the unit's numbers within the stated limits.
        let n = limits::NUMBER;
        for (f, v, lo) in [
            ("hp", spec.hp, 1),
            ("max_hp", spec.max_hp, 1),
            ("speed", spec.speed, 0),
            ("ward", spec.ward, 0),
            ("special_ward", spec.special_ward, 0),
            ("miss_tokens", spec.miss_tokens, 0),
            ("strikes", spec.strikes, 0),
            ("charge_tokens", spec.charge_tokens, 0),
            ("charges", spec.charges, 0),
        ] {
            range(&mut errors, &at(f), v, lo, n);
        }
        range(&mut errors, &at("initiative"), spec.initiative, -n, n);
        let spec_name = spec.specialization.as_deref().map(|x| x.trim().to_lowercase());
        let level = spec.level.unwrap_or(1);
        if !(1..=6).contains(&level) {
            errors.push(format!("{}: level {level} is outside 1-6 (K-PROG-7)", at("level")));
        }
        if let Some(sp) = &spec_name
            && content.roles().specialization(sp).is_none()
        {
            errors.push(format!("{}: no specialization {sp:?}", at("specialization")));
        }
        // Specialization features that change numbers (§2.11): Juggernaut, 3 less maximum HP and
        // 3 Ward to start; Pursuer, Blitzer and Runner, 2 more speed. Given numbers win.
        let juggernaut = spec_name.as_deref() == Some("juggernaut");
        let fast = matches!(spec_name.as_deref(), Some("pursuer" | "blitzer" | "runner"));
        // Untouchable (L3497-3499): fewer HP and a Ward, at the start and on every respawn.
        let untouchable = (spec.team_trait == Some(crate::engine::state::TeamTrait::Untouchable))
            .then(|| crate::rules::team_traits::untouchable_start(level));
        let max_hp = spec
            .max_hp
            .or(creep.map(|c| c.hp(players)))
            .or(untouchable.map(|(hp, _)| hp))
            .unwrap_or(if juggernaut { 5 } else { 8 });
        let start_ward = spec.ward.or(creep.map(|c| c.ward)).or(untouchable.map(|(_, w)| w)).unwrap_or(if juggernaut {
            3
        } else {
            0
        });
        let hp = spec.hp.unwrap_or(max_hp);
        // Hover (a stat block's trait): terrain means nothing to it, for good.
        // Retaliate (the Thunderbolt's trait) likewise.
        let innate: Vec<Status> = creep
            .map(|c| {
                let lasting =
                    |kind, amount| Status { kind, amount, source: None, origin: None, duration: Duration::Indefinite };
                let mut v = Vec::new();
                if c.hover {
                    v.push(lasting(StatusKind::Hovering, 0));
                }
                if c.retaliate > 0 {
                    v.push(lasting(StatusKind::Retaliate, c.retaliate));
                }
                v
            })
            .unwrap_or_default();
        if max_hp < 1 || hp > max_hp || hp < 1 {
            errors.push(format!("{}: hp must be between 1 and max_hp ({max_hp})", at("hp")));
        }
        // One error for the footprint, not one per square (issue 14).
        if let Some(p) = spec.at
            && size_ok
        {
            if let Some(q) = footprint(p, size).find(|&q| !arena.terrain.contains(q)) {
                errors.push(format!("{}: {q} is off the map", at("at")));
            } else if let Some(q) =
                footprint(p, size).find(|&q| !arena.at(q).enterable() || arena.at(q) == Terrain::Portal)
            {
                errors.push(format!("{}: {q} is {:?} terrain, where nobody can stand", at("at"), arena.at(q)));
            }
        }
        let mut plist: Vec<u16> = Vec::new();
        if kind == UnitKind::Athlete {
            for b in BASIC_POWERS {
                plist.push(powers.find(b).expect("built-in power"));
            }
            if implement == Implement::Sword {
                plist.push(powers.find("charge").expect("built-in power"));
            }
            // The banishing ray (L2478): anyone may use it from its seat.
            if arena.ray_seat.is_some() {
                plist.extend(powers.find(crate::rules::map_rules::RAY));
            }
        }
        for (j, p) in spec.powers.iter().enumerate() {
            match powers.find(p) {
                Some(x) if !plist.contains(&x) => plist.push(x),
                Some(_) => {}
                None => errors.push(format!("{}: no power called {p:?}", at(&format!("powers[{j}]")))),
            }
        }
        let mut features = Vec::new();
        for (j, f) in spec.features.iter().enumerate() {
            match crate::classes::features::Feature::parse(f, content) {
                Some(x) if !features.contains(&x) => features.push(x),
                Some(_) => {}
                None => errors.push(format!(
                    "{}: no class feature called {f:?} (see `fray rules kazzam feature`)",
                    at(&format!("features[{j}]"))
                )),
            }
        }
        let mut learned: Vec<crate::classes::features::Feature> = features
            .iter()
            .copied()
            .filter(|f| crate::classes::features::SWAPPABLE.iter().any(|(g, _)| *g == f.group(content)))
            .collect();
        for (j, f) in spec.learned.iter().enumerate() {
            match crate::classes::features::Feature::parse(f, content) {
                Some(x) if crate::classes::features::SWAPPABLE.iter().any(|(g, _)| *g == x.group(content)) => {
                    if !learned.contains(&x) {
                        learned.push(x)
                    }
                }
                _ => errors
                    .push(format!("{}: {f:?} is not a Blade Enchantment or Self-Charm", at(&format!("learned[{j}]")))),
            }
        }
        // The triggered features (Wandslinger level 5) are played by `triggers`.
        let triggered_features = spec
            .features
            .iter()
            .filter(|f| crate::engine::triggers::FEATURES.contains(&f.as_str()))
            .map(|f| f.as_str().into())
            .collect();
        // Brewers start with one flask of each At-Will Elixir they know (L1443).
        let mut elixirs = Vec::new();
        let me = units.len() as crate::engine::state::UnitIdx;
        match &spec.elixirs {
            Some(list) => {
                for (j, p) in list.iter().enumerate() {
                    match powers.find(p) {
                        Some(x) => elixirs.push(crate::classes::brewer::Elixir { power: x, maker: me }),
                        None => errors.push(format!("{}: no Elixir called {p:?}", at(&format!("elixirs[{j}]")))),
                    }
                }
            }
            None => {
                for &p in &plist {
                    let def = powers.get(p);
                    if def.group.as_deref() == Some("elixir") && !def.reference_only {
                        elixirs.push(crate::classes::brewer::Elixir { power: p, maker: me });
                    }
                }
            }
        }
        let mut spent = Vec::new();
        for (j, p) in spec.spent.iter().enumerate() {
            match powers.find(p) {
                Some(x) => spent.push(x),
                None => errors.push(format!("{}: no power called {p:?}", at(&format!("spent[{j}]")))),
            }
        }
        // K-AIMP: an advanced implement upgrades the implement of its kind.
        let advanced = match spec.advanced_implement.as_deref() {
            None => None,
            Some(a) => {
                let known = crate::content::classes::advanced_implements()
                    .map(|list| list.iter().any(|x| x.id == a))
                    .unwrap_or(false);
                match crate::implements::advanced::Advanced::parse(a) {
                    Some(x) if x.implement() == implement => Some(x),
                    Some(x) => {
                        errors.push(format!(
                            "{}: {a} upgrades a {}, not a {}",
                            at("advanced_implement"),
                            x.implement().name(),
                            implement.name()
                        ));
                        None
                    }
                    None if known => None, // listed for look-up; Fray does not play it yet
                    None => {
                        errors.push(format!("{}: no advanced implement called {a:?}", at("advanced_implement")));
                        None
                    }
                }
            }
        };
        let miss_tokens = spec
            .miss_tokens
            .unwrap_or(if advanced == Some(crate::implements::advanced::Advanced::CorkscrewStaff) { 1 } else { 0 });
        units.push(Unit {
            id: spec.id.as_str().into(),
            role: spec.role.as_deref().map(|r| r.trim().to_lowercase().into()),
            specialization: spec_name.map(Into::into),
            level,
            name: spec.name.clone().unwrap_or_else(|| spec.id.clone()).into(),
            side,
            kind,
            pc: spec.pc.unwrap_or(kind == UnitKind::Athlete),
            pos: spec.at,
            size,
            hp,
            max_hp,
            speed: spec.speed.or(creep.map(|c| c.speed)).unwrap_or(if fast { 8 } else { 6 }),
            implement,
            advanced,
            stowed: spec.stowed,
            ward: start_ward + spec.special_ward.unwrap_or(0).max(0),
            start_ward,
            team_trait: spec.team_trait,
            throne: false,
            special_ward: spec.special_ward.unwrap_or(0).max(0),
            special_from: spec.special_ward.filter(|&n| n > 0).map(|_| units.len() as UnitIdx),
            statuses: innate.clone(),
            status_mask: crate::rules::statuses::mask(&innate),
            miss_tokens,
            strikes: spec.strikes.unwrap_or(0),
            kills: 0,
            orbs_scored: 0,
            points: 0,
            powers: plist,
            features,
            learned,
            counters: spec
                .charge_tokens
                .filter(|&n| n > 0)
                .map(|n| crate::classes::features::Counter {
                    feature: crate::classes::features::Feature::CapacitiveWard,
                    value: n,
                    about: None,
                })
                .into_iter()
                .collect(),
            spent,
            actions: Actions::default(),
            turns_started: 0,
            initiative: spec.initiative.unwrap_or(0),
            taken_out: spec.at.is_none(),
            button: spec.button,
            button_with_orb: false,
            zone_hits: 0,
            wand_hits: Vec::new(),
            hits_this_turn: Vec::new(),
            turn_start: spec.at,
            reversal: false,
            turn_over: false,
            compulsion: None,
            armed: Vec::new(),
            triggered_features,
            cooldowns: Vec::new(),
            granted_by: None,
            grant_no_boost: false,
            forfeit_move: false,
            granted_move: false,
            placed: matches!(kind, UnitKind::Athlete | UnitKind::Creep).not().then(|| crate::rules::summons::Placed {
                owner: None,
                what: spec.what.as_deref().unwrap_or(&spec.id).into(),
                charges: spec.charges.unwrap_or(if kind == UnitKind::Trap { 2 } else { 0 }),
                full: spec.charges.unwrap_or(if kind == UnitKind::Trap { 2 } else { 0 }),
                free: false,
                fired: None,
                bonus: 0,
                until_turn: None,
                group: None,
                resisted: false,
                loaded: None,
                rider: None,
                beast: Default::default(),
                host: None,
            }),
            brewer: crate::engine::records::brewer::Carried { elixirs, blade: Vec::new() },
            charmed: Default::default(),
        });
    }
    // K-FMT-1, K-CHAR-1: one athlete of each Role and of each Class per team.
    for (field, list) in [("role", &ROLES[..]), ("class", &CLASSES[..])] {
        let mut seen: Vec<(String, String, String)> = Vec::new();
        for (i, (spec, line)) in setup.units.iter().enumerate() {
            let value = if field == "role" { &spec.role } else { &spec.class };
            let Some(v) = value else { continue };
            let v = v.trim().to_lowercase().replace(' ', "-");
            let at = where_(*line, &format!("unit[{i}] ({}).{field}", spec.id));
            if !list.contains(&v.as_str()) {
                errors.push(format!("{at}: unknown {field} {v:?}; use one of {}", list.join(", ")));
            } else if let Some((_, _, other)) = seen.iter().find(|(t, x, _)| *t == spec.team && *x == v) {
                let rule = if field == "role" { "K-FMT-1" } else { "K-CHAR-1" };
                errors.push(format!(
                    "{at}: {other} already plays {v} for {}; a team has one athlete of each {field} ({rule})",
                    spec.team
                ));
            } else {
                seen.push((spec.team.clone(), v, spec.id.clone()));
            }
        }
    }
    // Overlaps (a Flying creature may be above one on the ground, K-ST-Flying).
    let flying = |i: usize| {
        setup.units[i].0.statuses.iter().any(|st| match st {
            StatusSpec::Name(n) | StatusSpec::Full { name: n, .. } => n.trim().eq_ignore_ascii_case("flying"),
        })
    };
    // A Mob shares squares with anyone (K-CTYPE-8).
    let mob = |i: usize| {
        let spec = &setup.units[i].0;
        units[i].kind == UnitKind::Creep
            && spec.what.as_deref().and_then(|w| content.creep(w)).is_some_and(|(_, c)| c.mob)
    };
    for a in 0..units.len() {
        for b in a + 1..units.len() {
            if let (Some(pa), Some(pb)) = (units[a].pos, units[b].pos)
                && fray_core::geometry::overlaps(pa, units[a].size, pb, units[b].size)
                && flying(a) == flying(b)
                && !mob(a)
                && !mob(b)
            {
                errors.push(format!("unit {} and unit {} stand on the same square", units[a].id, units[b].id));
            }
        }
    }
    // Owners of placed things (after all units exist).
    for (i, (spec, line)) in setup.units.iter().enumerate() {
        if let Some(o) = &spec.owner {
            match (units.iter().position(|u| &*u.id == o.as_str()), units[i].placed.as_mut()) {
                (Some(x), Some(p)) => p.owner = Some(x as UnitIdx),
                (None, _) => errors.push(format!(
                    "{}: no unit called {o:?} to own it",
                    where_(*line, &format!("unit[{i}] ({}).owner", spec.id))
                )),
                (_, None) => errors.push(format!(
                    "{}: only summons, traps, automata and walls have owners",
                    where_(*line, &format!("unit[{i}] ({}).owner", spec.id))
                )),
            }
        }
    }
    // Statuses (after all units exist, so sources resolve).
    for (i, (spec, line)) in setup.units.iter().enumerate() {
        for (j, st) in spec.statuses.iter().enumerate() {
            let field = where_(*line, &format!("unit[{i}] ({}).statuses[{j}]", spec.id));
            let (name, amount, until, source) = match st {
                StatusSpec::Name(n) => (n.clone(), None, None, None),
                StatusSpec::Full { name, amount, until, source } => {
                    (name.clone(), *amount, until.clone(), source.clone())
                }
            };
            let Some(kind) = StatusKind::parse(&name) else {
                errors.push(format!("{field}: unknown status {name:?}"));
                continue;
            };
            range(&mut errors, &format!("{field}.amount"), amount, 0, limits::NUMBER);
            if kind.has_amount() && amount.is_none() {
                errors.push(format!("{field}: {kind} needs an amount: {{ name = \"{kind}\", amount = 2 }}"));
            }
            let src: Option<UnitIdx> = match &source {
                None => None,
                Some(id) => match units.iter().position(|u| &*u.id == id.as_str()) {
                    Some(x) if x == i && needs_other_source(kind) => {
                        errors.push(format!("{field}: a unit is not the source of its own {kind}"));
                        None
                    }
                    Some(x) => Some(x as UnitIdx),
                    None => {
                        errors.push(format!("{field}: no unit called {id:?} to be the source"));
                        None
                    }
                },
            };
            if needs_other_source(kind) && src.is_none() && source.as_deref() != Some(spec.id.as_str()) {
                errors.push(format!("{field}: {kind} needs a source = \"<unit id>\""));
            }
            let duration = match until.as_deref() {
                None => {
                    if kind == StatusKind::Grabbed {
                        Duration::EscapeEnds
                    } else {
                        Duration::Indefinite
                    }
                }
                Some(u) => match crate::rules::statuses::parse_until(u) {
                    Some(crate::rules::statuses::Until::EndOfTargetsNextTurn) => {
                        Duration::EndOfTurn { unit: i as UnitIdx, turn: 1 }
                    }
                    Some(crate::rules::statuses::Until::EndOfUsersNextTurn) => {
                        Duration::EndOfTurn { unit: src.unwrap_or(i as UnitIdx), turn: 1 }
                    }
                    Some(crate::rules::statuses::Until::StartOfTargetsNextTurn) => {
                        Duration::StartOfTurn { unit: i as UnitIdx, turn: 1 }
                    }
                    Some(crate::rules::statuses::Until::StartOfUsersNextTurn) => {
                        Duration::StartOfTurn { unit: src.unwrap_or(i as UnitIdx), turn: 1 }
                    }
                    Some(crate::rules::statuses::Until::SaveEnds) => Duration::SaveEnds,
                    Some(crate::rules::statuses::Until::SaveSustains) => Duration::SaveSustains,
                    Some(crate::rules::statuses::Until::EscapeEnds) => Duration::EscapeEnds,
                    Some(crate::rules::statuses::Until::Indefinite) => Duration::Indefinite,
                    Some(crate::rules::statuses::Until::UntilYouAttack) => {
                        Duration::Other(crate::rules::statuses::Lingers::UntilAttack)
                    }
                    None => {
                        errors.push(format!("{field}: unknown duration {u:?}"));
                        Duration::Indefinite
                    }
                },
            };
            units[i].statuses.push(Status { kind, amount: amount.unwrap_or(0), source: src, origin: None, duration });
            units[i].status_mask = crate::rules::statuses::mask(&units[i].statuses);
        }
    }
    // Orbs: one per starting pedestal, then extras, then what units hold.
    let mut orbs: Vec<Orb> = arena
        .starting_orbs
        .iter()
        .map(|&(p, color)| Orb {
            id: arena.pedestals[p].id.as_str().into(),
            color,
            loc: OrbLoc::Pedestal { pedestal: p as u8 },
            dungeon_orb: arena.in_dungeon(arena.pedestals[p].at)
                || arena.pedestals[p].at.neighbours().iter().any(|&q| arena.in_dungeon(q)),
        })
        .collect();
    for (id, &count) in &setup.map.orbs {
        let Some(&(p, color)) = arena.starting_orbs.iter().find(|(p, _)| arena.pedestals[*p].id == *id) else {
            errors.push(format!("map.orbs.{id}: no pedestal {id:?} with an orb on it"));
            continue;
        };
        if !(1..=6).contains(&count) {
            errors.push(format!("map.orbs.{id}: {count} orbs; a pedestal starts with 1 to 6"));
            continue;
        }
        for k in 1..count {
            orbs.push(Orb {
                id: format!("{id}{}", (b'a' + k as u8) as char).as_str().into(),
                color,
                loc: OrbLoc::Pedestal { pedestal: p as u8 },
                dungeon_orb: orbs.iter().find(|o| *o.id == **id).is_some_and(|o| o.dungeon_orb),
            });
        }
    }
    for (i, o) in setup.orbs.iter().enumerate() {
        let color = Side::parse(&o.color).unwrap_or_else(|| {
            errors.push(format!("orb[{i}].color: unknown colour {:?}", o.color));
            Side::Neutral
        });
        if o.id.trim().is_empty() {
            errors.push(format!("orb[{i}].id: an orb needs an id"));
        }
        if !arena.terrain.contains(o.at) {
            errors.push(format!("orb[{i}].at: {} is off the map", o.at));
        }
        orbs.push(Orb {
            id: o.id.as_str().into(),
            color,
            loc: OrbLoc::Ground { at: o.at },
            dungeon_orb: arena.in_dungeon(o.at),
        });
    }
    for (i, (spec, line)) in setup.units.iter().enumerate() {
        if spec.holding.len() > 2 {
            errors.push(format!(
                "{}: an athlete has two hands (K-ORB-6)",
                where_(*line, &format!("unit[{i}] ({}).holding", spec.id))
            ));
        }
        for (j, id) in spec.holding.iter().enumerate() {
            match orbs.iter().position(|o| &*o.id == id.as_str()) {
                Some(o) => orbs[o].loc = OrbLoc::Held { by: i as UnitIdx },
                None => errors.push(format!(
                    "{}: no orb called {id:?} (orbs are named after their starting pedestal: {})",
                    where_(*line, &format!("unit[{i}] ({}).holding[{j}]", spec.id)),
                    orbs.iter().map(|o| o.id.to_string()).collect::<Vec<_>>().join(", ")
                )),
            }
        }
    }
    let creeps = build_creeps(content, &setup.units, &units, &orbs, &arena, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let hooks = shared.hooks(crate::engine::plugins::Present::of(&units, &powers));
    Ok(State::new(crate::engine::state::Facts {
        arena: shared.arena(arena),
        powers,
        options: Arc::new(setup.options),
        content: setup.content.clone(),
        units: units.into_iter().map(Arc::new).collect(),
        orbs,
        score: [0, 0],
        round: 0,
        order: Vec::new(),
        turn_index: 0,
        zones: Vec::new(),
        modifiers: Vec::new(),
        curses: Vec::new(),
        end_triggered: false,
        outcome: None,
        porter: Default::default(),
        creeps,
        removal: Default::default(),
        hooks,
    }))
}

/// Starts the match: initiative (rolled, or fixed by the units' `initiative` / file order),
/// then runs to the first decision.
pub fn start(state: &mut State, dice: &mut dyn Dice, roll: bool) -> Result<Vec<Event>, RuleError> {
    let mut log = Vec::new();
    let mut cx = Ctx { s: state, dice, log: &mut log };
    let athletes: Vec<UnitIdx> = cx.s.unit_indices().filter(|&u| cx.s.unit(u).kind == UnitKind::Athlete).collect();
    if roll {
        crate::rules::turn::roll_initiative(&mut cx)?;
    } else {
        // Fixed order: by given initiative, then file order (a stable sort keeps it).
        let mut order = athletes.clone();
        order.sort_by_key(|&u| std::cmp::Reverse(cx.s.unit(u).initiative));
        // K-INIT-5: automata placed by the file act just before their owners.
        for a in cx.s.unit_indices().filter(|&u| cx.s.unit(u).kind == UnitKind::Automaton).collect::<Vec<_>>() {
            if let Some(o) = cx.s.unit(a).placed.as_ref().and_then(|p| p.owner) {
                let mut ti = 0;
                crate::rules::summons::insert_before(&mut order, &mut ti, a, o);
            }
        }
        let order_w = order.iter().map(|&u| cx.s.who(u)).collect();
        cx.emit(Event::TurnOrder { order: order_w });
        cx.emit(Event::RoundStarted { round: 1 });
    }
    flow::run(&mut cx)?;
    Ok(log)
}

impl UnitSpec {
    /// An athlete with default stats on square `at`; the caller fills in the rest.
    pub fn athlete(id: &str, team: &str, at: Pos) -> UnitSpec {
        UnitSpec {
            id: id.into(),
            name: None,
            team: team.into(),
            at: Some(at),
            size: None,
            hp: None,
            max_hp: None,
            speed: None,
            implement: None,
            pc: None,
            kind: None,
            powers: vec![],
            features: vec![],
            learned: vec![],
            charge_tokens: None,
            special_ward: None,
            advanced_implement: None,
            spent: vec![],
            statuses: vec![],
            ward: None,
            miss_tokens: None,
            strikes: None,
            initiative: None,
            holding: vec![],
            elixirs: None,
            stowed: false,
            button: None,
            owner: None,
            what: None,
            charges: None,
            group: None,
            guards: None,
            enemies: vec![],
            team_trait: None,
            role: None,
            specialization: None,
            level: None,
            class: None,
        }
    }
}

/// Builds the groups at setup: each Creep unit with a `group` (or a stat block, which makes a
/// group of its own name) joins it in file order; a group guards the orb named by `guards`, or
/// the neutral orb nearest its first Creep; `enemies` start its Enemies List.
pub fn build_creeps(
    content: &crate::content::Content,
    specs: &[(crate::engine::setup::UnitSpec, Option<usize>)],
    units: &[crate::engine::state::Unit],
    orbs: &[crate::engine::state::Orb],
    arena: &crate::engine::arena::Arena,
    errors: &mut Vec<String>,
) -> Creeps {
    let mut out = Creeps::default();
    let team_n = |side: Side| units.iter().filter(|u| u.side == side && u.kind == UnitKind::Athlete).count() as i32;
    out.n = team_n(Side::Red).max(team_n(Side::Blue)).max(1);
    for (i, (spec, line)) in specs.iter().enumerate() {
        let at = |f: &str| match line {
            Some(l) => format!("line {l}, unit[{i}] ({}).{f}", spec.id),
            None => format!("unit[{i}] ({}).{f}", spec.id),
        };
        if units[i].kind != UnitKind::Creep {
            if spec.group.is_some() || spec.guards.is_some() || !spec.enemies.is_empty() {
                errors.push(format!("{}: only Creeps (kind = \"creep\") have a group", at("group")));
            }
            continue;
        }
        let Some(what) = spec.what.as_deref() else {
            if spec.group.is_some() {
                errors.push(format!(
                    "{}: a Creep in a group needs its stat block (what = \"guardian-bear\")",
                    at("what")
                ));
            }
            continue;
        };
        let Some((def, _)) = content.creep(what) else {
            let known: Vec<&str> = content.creeps().iter().map(|d| d.id.as_str()).collect();
            errors.push(format!("{}: no Creep stat block {what:?}; known: {}", at("what"), known.join(", ")));
            continue;
        };
        let gid = spec.group.clone().unwrap_or_else(|| what.to_string());
        let g = match out.groups.iter().position(|g| *g.id == *gid) {
            Some(g) => g,
            None => {
                out.groups.push(Group {
                    id: gid.as_str().into(),
                    members: Vec::new(),
                    orb: None,
                    pedestal: None,
                    enemies: Vec::new(),
                    nudges: Vec::new(),
                    guarded: Vec::new(),
                    out: Vec::new(),
                    credited: false,
                    bounties: Vec::new(),
                    auras: Vec::new(),
                });
                out.groups.len() - 1
            }
        };
        out.groups[g].members.push((i as UnitIdx, def));
        if let Some(o) = &spec.guards {
            match orbs.iter().position(|x| *x.id == **o) {
                Some(x) => out.groups[g].orb = Some(x as OrbIdx),
                None => errors.push(format!("{}: no orb called {o:?}", at("guards"))),
            }
        }
        for (j, e) in spec.enemies.iter().enumerate() {
            match units.iter().position(|u| *u.id == **e) {
                Some(x) if !out.groups[g].enemies.iter().any(|y| y.unit as usize == x) => {
                    let in_dungeon = units[x].pos.is_some_and(|p| arena.footprint_in_dungeon(p, units[x].size));
                    out.groups[g].enemies.push(Enemy { unit: x as UnitIdx, in_dungeon });
                }
                Some(_) => {}
                None => errors.push(format!("{}: no unit called {e:?}", at(&format!("enemies[{j}]")))),
            }
        }
    }
    // The nearest neutral orb to the group's first Creep, and that orb's pedestal.
    for g in &mut out.groups {
        let first = &units[g.members[0].0 as usize];
        let orb_at = |o: &crate::engine::state::Orb| match o.loc {
            OrbLoc::Pedestal { pedestal } => Some(arena.pedestals[pedestal as usize].at),
            OrbLoc::Ground { at } => Some(at),
            OrbLoc::Held { .. } => None,
        };
        if g.orb.is_none()
            && let Some(p) = first.pos
        {
            g.orb = orbs
                .iter()
                .enumerate()
                .filter(|(_, o)| o.color == crate::engine::arena::Side::Neutral)
                .filter_map(|(i, o)| orb_at(o).map(|q| (distance(p, first.size, q, 1), i)))
                .min()
                .map(|(_, i)| i as OrbIdx);
        }
        g.pedestal = g.orb.and_then(|o| match orbs[o as usize].loc {
            OrbLoc::Pedestal { pedestal } => Some(pedestal),
            _ => {
                let q = orb_at(&orbs[o as usize])?;
                (0..arena.pedestals.len()).min_by_key(|&i| distance(arena.pedestals[i].at, 1, q, 1)).map(|i| i as u8)
            }
        });
    }
    out
}
