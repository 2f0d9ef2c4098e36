//! Arena files (docs/maps.md): a map drawn as rows of characters, its portals, its Creep groups
//! and what it is for, in TOML. The book's five arenas are compiled in ([`BUILTIN`]); a person's
//! own file is read by the program and handed here as text. A map that cannot be played is
//! refused with the file, the line and what is wrong: unknown characters, ragged rows, a pedestal
//! a team cannot reach, a start area too small, a Dungeon without a way out, a Creep placed in a
//! wall or on top of another.

use crate::content::Content;
use crate::engine::arena::{Arena, Portal, Side, Terrain};
use crate::engine::setup::{MapSpec, UnitSpec};
use fray_core::grid::{Pos, footprint};
use serde::Deserialize;
use std::collections::{BTreeMap, VecDeque};
use toml::Spanned;

/// The book's five arenas (L2411-2727), by id, as compiled in.
pub const BUILTIN: &[(&str, &str)] = &[
    ("beginner", include_str!("../../../../content/kazzam/maps/beginner.toml")),
    ("one-way-doors", include_str!("../../../../content/kazzam/maps/one-way-doors.toml")),
    ("dual-dungeons", include_str!("../../../../content/kazzam/maps/dual-dungeons.toml")),
    ("maze", include_str!("../../../../content/kazzam/maps/maze.toml")),
    ("throne", include_str!("../../../../content/kazzam/maps/throne.toml")),
];

/// The fourteen Creeps of the book (§3), by the ids their stat blocks take: a map may place one
/// whose stat block is not in the content yet, and the group is then left off with a note.
pub const BOOK_CREEPS: [&str; 14] = [
    "vampiric-swarm",
    "guardian-bear",
    "love-beast",
    "imp-team",
    "dungeon-squid",
    "mesmer-jelly",
    "chuck",
    "two-headed-molesnake",
    "minotaur",
    "charm-ball",
    "lost-soul-team",
    "royal-golem",
    "crowned-bird",
    "horror-beast",
];

/// The most athletes a team fields (K-FMT-1: one per Role).
pub const MAX_ATHLETES: usize = 5;

/// The compiled-in text of the built-in map `name` (its id, or its file name).
pub fn builtin(name: &str) -> Option<&'static str> {
    let name = name.trim().trim_end_matches(".toml").to_lowercase().replace([' ', '_'], "-");
    BUILTIN.iter().find(|(id, _)| *id == name).map(|(_, t)| *t)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    id: String,
    name: String,
    /// Where the book describes it.
    #[serde(default)]
    source: Option<String>,
    /// Its special rule in our own words.
    #[serde(default)]
    special: Option<String>,
    /// The rule ids the special rule plays.
    #[serde(default)]
    rules: Vec<String>,
    #[serde(default)]
    terrain_damage: Option<i32>,
    rows: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreepGroupFile {
    group: String,
    what: String,
    #[serde(default)]
    guards: Option<String>,
    /// Fixed group size (a Team's members); otherwise the type's size for N athletes.
    #[serde(default)]
    count: Option<usize>,
    at: Vec<Pos>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PortalFile {
    a: Pos,
    b: Pos,
    #[serde(default)]
    one_way: bool,
    #[serde(default)]
    side: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    arena: Header,
    #[serde(default)]
    legend: BTreeMap<String, String>,
    #[serde(default)]
    orbs: BTreeMap<String, usize>,
    #[serde(default)]
    portal: Vec<Spanned<PortalFile>>,
    #[serde(default)]
    creeps: Vec<Spanned<CreepGroupFile>>,
}

/// A Creep group a map places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreepGroup {
    /// Group id (its Creeps are `{group}-1`, `{group}-2`...).
    pub group: String,
    /// What the file names: a stat block's id, a Team's or a family's name ([`members`]).
    pub what: String,
    /// The orb it guards.
    pub guards: Option<String>,
    /// A fixed size, if the file gives one.
    pub count: Option<usize>,
    /// Its squares, in the order Creeps are put on them.
    pub at: Vec<Pos>,
}

/// A map file, loaded and checked.
#[derive(Clone, Debug)]
pub struct Map {
    /// Id (`throne`).
    pub id: String,
    /// Name.
    pub name: String,
    /// The header comment: what the layout is meant to do.
    pub intent: String,
    /// Where the book describes it.
    pub source: Option<String>,
    /// Its special rule.
    pub special: Option<String>,
    /// Rule ids.
    pub rules: Vec<String>,
    /// The map as a match setup reads it.
    pub spec: MapSpec,
    /// The arena it draws.
    pub arena: Arena,
    /// Creep groups placed (their stat blocks are in the content).
    pub creeps: Vec<CreepGroup>,
    /// Creep groups left off: the book's Creeps whose stat blocks are not in the content yet.
    pub missing: Vec<String>,
}

/// The line of `key = ...` in the `[table]` of `text`.
fn key_line(text: &str, table: &str, key: &str) -> Option<usize> {
    let mut current = "";
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.starts_with('[') {
            current = l;
        } else if current == table
            && let Some((k, _)) = l.split_once('=')
            && k.trim().trim_matches(['"', '\'']) == key
        {
            return Some(i + 1);
        }
    }
    None
}

fn line_at(text: &str, offset: usize) -> usize {
    fray_core::scenario::line_of(text, offset)
}

/// The stat blocks of a group a map names by `what`, for `n` athletes a team: a stat block's id
/// (a group of its type's size), a Team's name (its members in file order, as many as the type's
/// size: the Imp Team, the Lost Soul Team; K-CTYPE-7), or a family's (its blocks one after the
/// other: the Crowned Birds, one of each crown). `count` fixes the size. None: no such Creep.
pub fn members(content: &Content, what: &str, n: usize, count: Option<usize>) -> Option<Vec<String>> {
    let defs = content.creeps();
    let pool: Vec<&crate::content::creeps::CreepDef> = match content.creep(what) {
        Some((_, d)) => vec![d],
        None => {
            let team: Vec<_> = defs.iter().filter(|d| d.team.as_deref() == Some(what)).collect();
            if team.is_empty() { defs.iter().filter(|d| d.family.as_deref() == Some(what)).collect() } else { team }
        }
    };
    let first = pool.first()?;
    let size = count.unwrap_or_else(|| group_size(first, n));
    Some((0..size).map(|k| pool[k % pool.len()].id.clone()).collect())
}

/// The size of a group of `def`'s type with `n` athletes a team (K-CTYPE-1..6).
pub fn group_size(def: &crate::content::creeps::CreepDef, n: usize) -> usize {
    use crate::content::creeps::CreepType as T;
    match def.kind {
        T::Champion => 1,
        T::Elite => 2,
        T::Standard => 3,
        T::Goon => n + 1,
        T::Stooge => 2 * n + 2,
        T::Scab => 5 * n + 5,
    }
}

/// Loads and checks a map file; every problem names `path`, the line and what is wrong.
pub fn load(content: &Content, path: &str, text: &str) -> Result<Map, Vec<String>> {
    let f: MapFile = toml::from_str(text).map_err(|e| vec![format!("{path}: {e}")])?;
    let mut errors = Vec::new();
    let intent: String = text
        .lines()
        .take_while(|l| l.trim_start().starts_with('#') || l.trim().is_empty())
        .filter_map(|l| l.trim_start().strip_prefix('#'))
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join(" ")
        .trim()
        .to_string();
    if intent.is_empty() {
        errors.push(format!("{path}:1: start the file with a comment saying what the arena is meant to do"));
    }
    // The rows: the line of each, for errors.
    let rows_span = f.arena.rows.span();
    let raw = &text[rows_span.clone()];
    let first_line = line_at(text, rows_span.start)
        + usize::from(raw.starts_with("\"\"\"\n") || raw.starts_with("'''\n") || raw.starts_with("\"\"\"\r\n"));
    let rows: Vec<String> =
        f.arena.rows.get_ref().lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect();
    let row_line = |y: usize| first_line + y;
    let mut extra = Vec::new();
    for (k, v) in &f.legend {
        let line = key_line(text, "[legend]", k).unwrap_or(1);
        let mut chars = k.chars();
        match (chars.next(), chars.next(), Terrain::parse(v)) {
            (Some(c), None, Some(t)) => extra.push((c, t)),
            (_, _, None) => errors.push(format!("{path}:{line}: legend {k:?}: unknown terrain {v:?}")),
            _ => errors.push(format!("{path}:{line}: legend key {k:?} must be one character")),
        }
    }
    let mut arena = match Arena::parse(&rows, &extra) {
        Ok(a) => a,
        Err(es) => {
            errors.extend(es.into_iter().map(|e| match e.row {
                Some(y) => format!("{path}:{}: {}", row_line(y), e.message),
                None => format!("{path}: {}", e.message),
            }));
            // Capped (issue 14): a garbled map may have an error on every square.
            return Err(fray_core::scenario::capped(errors));
        }
    };
    if let Some(d) = f.arena.terrain_damage {
        arena.terrain_damage = d;
    }
    let row_of = |p: Pos| row_line(p.y.max(0) as usize);
    let mut portals = Vec::new();
    for pt in &f.portal {
        let line = line_at(text, pt.span().start);
        let p = pt.get_ref();
        let side = match p.side.as_deref().map(Side::parse) {
            None => None,
            Some(Some(s)) if s != Side::Neutral => Some(s),
            Some(_) => {
                errors.push(format!("{path}:{line}: portal side {:?}: use red or blue", p.side));
                None
            }
        };
        for end in [p.a, p.b] {
            if !arena.terrain.contains(end) {
                errors.push(format!("{path}:{line}: portal end {end} is off the map"));
            } else if !arena.at(end).enterable() || arena.at(end) == Terrain::Pedestal || arena.in_dungeon(end) {
                errors.push(format!(
                    "{path}:{line}: portal end {end} is {:?} terrain; a portal needs open ground",
                    arena.at(end)
                ));
            } else {
                *arena.terrain.get_mut(end).unwrap() = Terrain::Portal;
            }
        }
        portals.push(Portal { a: p.a, b: p.b, one_way: p.one_way, side });
    }
    arena.portals = portals.clone();
    // The start areas, spawn squares, exits and pedestals every match needs.
    for (t, side) in [(0, Side::Red), (1, Side::Blue)] {
        let glyph = if t == 0 { 'H' } else { 'A' };
        if arena.starts[t].len() < MAX_ATHLETES {
            errors.push(format!(
                "{path}: {} has {} start squares ('{glyph}'); draw at least {MAX_ATHLETES}",
                side.name(),
                arena.starts[t].len()
            ));
        }
        if arena.spawns[t].is_empty() {
            errors.push(format!("{path}: {} has no Dungeon spawn square ('{}')", side.name(), t + 1));
        }
        if !arena.pedestals.iter().any(|p| p.side == side) {
            errors.push(format!("{path}: {} has no pedestal (K-ORB-1: three a team)", side.name()));
        }
    }
    if arena.exits.is_empty() {
        errors.push(format!("{path}: the Dungeon has no exit ('X')"));
    }
    if arena.ray_seat.is_some() == arena.ray_squares.is_empty() {
        errors.push(format!("{path}: a banishing ray needs its seat 'Z' and the squares it reaches 'z'"));
    }
    // Reachability: what each team can walk to from its start area and spawn squares, through
    // portals (for it) and out of the Dungeon by the buttons.
    for (t, side) in [(0, Side::Red), (1, Side::Blue)] {
        let seen = reach(&arena, side, arena.starts[t].iter().chain(&arena.spawns[t]).copied());
        let reached = |p: Pos| seen.get(p).copied().unwrap_or(false);
        for pd in &arena.pedestals {
            if !reached(pd.at) && !pd.at.neighbours().into_iter().any(reached) {
                errors.push(format!(
                    "{path}:{}: pedestal {} at {} cannot be reached by {} from its start area or spawn squares",
                    row_of(pd.at),
                    pd.id,
                    pd.at,
                    side.name()
                ));
            }
        }
        for &s in &arena.spawns[t] {
            let out = arena.exits.iter().any(|e| e.neighbours().into_iter().any(|q| arena.in_dungeon(q) && reached(q)));
            let inside = reach(&arena, side, [s]);
            let walled = !arena.exits.iter().any(|e| {
                e.neighbours().into_iter().any(|q| arena.in_dungeon(q) && inside.get(q).copied().unwrap_or(false))
            });
            if walled || !out {
                errors.push(format!(
                    "{path}:{}: {} spawn square {s} is walled in: no way from it to a Dungeon exit's button",
                    row_of(s),
                    side.name()
                ));
            }
        }
        if let Some(z) = arena.ray_seat
            && !reached(z)
        {
            errors.push(format!(
                "{path}:{}: the banishing ray's seat {z} cannot be reached by {}",
                row_of(z),
                side.name()
            ));
        }
        if let Some(z) = arena.throne
            && !reached(z)
        {
            errors.push(format!("{path}:{}: the Throne at {z} cannot be reached by {}", row_of(z), side.name()));
        }
    }
    // Creep groups: known stat blocks, squares on open ground, no two Creeps on one square.
    let mut creeps = Vec::new();
    let mut missing = Vec::new();
    let mut taken: BTreeMap<Pos, String> = BTreeMap::new();
    for g in &f.creeps {
        let line = line_at(text, g.span().start);
        let g = g.get_ref();
        let whole = members(content, &g.what, MAX_ATHLETES, g.count);
        // K-CTYPE-7: each member of a Team has its own action, so none comes twice.
        let team = content.creeps().iter().filter(|d| d.team.as_deref() == Some(g.what.as_str())).count();
        if team > 0 && g.count.is_some_and(|c| c > team) {
            errors.push(format!(
                "{path}:{line}: creeps {:?}: count {} is more than the {team} members of the {} (K-CTYPE-7)",
                g.group,
                g.count.unwrap_or_default(),
                g.what
            ));
        }
        let def = whole.as_ref().and_then(|m| content.creep(&m[0])).map(|(_, d)| d);
        let Some(def) = def else {
            if BOOK_CREEPS.contains(&g.what.as_str()) {
                missing.push(format!("{} ({}): no stat block for {} yet", g.group, path, g.what));
                continue;
            }
            errors.push(format!(
                "{path}:{line}: creeps {:?}: no Creep stat block {:?} (see `fray rules kazzam creep`)",
                g.group, g.what
            ));
            continue;
        };
        let need = whole.as_ref().map_or(0, Vec::len);
        if g.at.len() < need {
            errors.push(format!(
                "{path}:{line}: creeps {:?}: {} squares listed, but a group of {} needs {need} with {MAX_ATHLETES} athletes a team",
                g.group,
                g.at.len(),
                def.name
            ));
        }
        if let Some(o) = &g.guards
            && !arena.pedestals.iter().any(|p| p.id == *o && p.side == Side::Neutral)
        {
            errors.push(format!("{path}:{line}: creeps {:?}: guards {o:?}, which is no neutral pedestal", g.group));
        }
        for (k, &at) in g.at.iter().enumerate() {
            let me = format!("{}-{}", g.group, k + 1);
            let size =
                whole.as_ref().and_then(|m| m.get(k)).and_then(|w| content.creep(w)).map_or(def.size, |(_, d)| d.size);
            for q in footprint(at, size) {
                let t = arena.at(q);
                if !arena.terrain.contains(q) {
                    errors.push(format!("{path}:{line}: creeps {:?}: {me} at {at} is partly off the map", g.group));
                } else if !t.enterable() || matches!(t, Terrain::Portal | Terrain::Pedestal) {
                    errors.push(format!(
                        "{path}:{line}: creeps {:?}: {me} at {at} stands in {t:?} terrain at {q} (a wall or a fixture)",
                        g.group
                    ));
                } else if let Some(other) = taken.insert(q, me.clone()) {
                    errors.push(format!("{path}:{line}: creeps {:?}: {me} at {at} overlaps {other} at {q}", g.group));
                }
            }
        }
        creeps.push(CreepGroup {
            group: g.group.clone(),
            what: g.what.clone(),
            guards: g.guards.clone(),
            count: g.count,
            at: g.at.clone(),
        });
    }
    for (id, n) in &f.orbs {
        let line = key_line(text, "[orbs]", id).unwrap_or(1);
        if !arena.pedestals.iter().any(|p| p.id == *id) {
            errors.push(format!("{path}:{line}: orbs: no pedestal {id:?}"));
        } else if !(1..=6).contains(n) {
            errors.push(format!("{path}:{line}: orbs: {n} orbs on {id}; give 1 to 6"));
        }
    }
    if !errors.is_empty() {
        return Err(fray_core::scenario::capped(errors));
    }
    let spec = MapSpec {
        rows,
        legend: f.legend.clone(),
        portal: portals,
        terrain_damage: f.arena.terrain_damage,
        orbs: f.orbs.clone(),
    };
    Ok(Map {
        id: f.arena.id,
        name: f.arena.name,
        intent,
        source: f.arena.source,
        special: f.arena.special,
        rules: f.arena.rules,
        spec,
        arena,
        creeps,
        missing,
    })
}

/// Squares `side` can walk to from `from`: over enterable ground, through portals open to it,
/// and out of the Dungeon past a button (K-DUN-6).
fn reach(arena: &Arena, side: Side, from: impl IntoIterator<Item = Pos>) -> fray_core::grid::Grid<bool> {
    let (w, h) = arena.size();
    let mut seen = fray_core::grid::Grid::new(w, h, false);
    let mut queue: VecDeque<Pos> = VecDeque::new();
    for p in from {
        if let Some(c) = seen.get_mut(p)
            && !*c
        {
            *c = true;
            queue.push_back(p);
        }
    }
    while let Some(p) = queue.pop_front() {
        let mut next: Vec<Pos> = p.neighbours().into_iter().filter(|&q| arena.at(q).enterable()).collect();
        if let Some(out) = arena.portal_exit(p, side) {
            next.extend(out.neighbours().into_iter().chain([out]).filter(|&q| arena.at(q).enterable()));
        }
        // A button beside an exit lets a creature out beside that exit.
        for e in p.neighbours() {
            if arena.at(e) == Terrain::Exit && arena.in_dungeon(p) {
                next.extend(e.neighbours().into_iter().filter(|&q| !arena.in_dungeon(q) && arena.at(q).enterable()));
            }
        }
        for q in next {
            if let Some(c) = seen.get_mut(q)
                && !*c
            {
                *c = true;
                queue.push_back(q);
            }
        }
    }
    seen
}

impl Map {
    /// The Creeps it places for `n` athletes a team, as match units.
    pub fn creep_units(&self, content: &Content, n: usize) -> Vec<UnitSpec> {
        let mut out = Vec::new();
        for g in &self.creeps {
            let Some(whats) = members(content, &g.what, n.max(1), g.count) else { continue };
            for ((k, &at), what) in g.at.iter().enumerate().zip(whats) {
                let mut u = UnitSpec::athlete(&format!("{}-{}", g.group, k + 1), "neutral", at);
                u.kind = Some("creep".into());
                u.what = Some(what);
                u.group = Some(g.group.clone());
                u.guards = g.guards.clone();
                out.push(u);
            }
        }
        out
    }

    /// `n` squares of `side`'s start area, spread over it.
    pub fn start_squares(&self, side: Side, n: usize) -> Vec<Pos> {
        let all = &self.arena.starts[side.team().unwrap_or(0)];
        if n == 0 || all.is_empty() {
            return Vec::new();
        }
        (0..n.min(all.len())).map(|i| all[i * all.len() / n.min(all.len())]).collect()
    }

    /// A description for `fray rules kazzam --maps`.
    pub fn describe(&self) -> String {
        let (w, h) = self.arena.size();
        let mut out = format!("{} ({}) — {w}x{h} squares\n", self.name, self.id);
        out.push_str(&format!("  {}\n", self.intent));
        if let Some(s) = &self.special {
            out.push_str(&format!("  Special rule: {s}"));
            if !self.rules.is_empty() {
                out.push_str(&format!(" [{}]", self.rules.join(", ")));
            }
            out.push('\n');
        }
        if let Some(s) = &self.source {
            out.push_str(&format!("  Source: {s}\n"));
        }
        for g in &self.creeps {
            let guards = g.guards.as_deref().map(|o| format!(" guarding {o}")).unwrap_or_default();
            out.push_str(&format!("  Creeps: {} ({}){guards}\n", g.group, g.what));
        }
        for p in &self.spec.portal {
            let way = if p.one_way { "one way" } else { "both ways" };
            let who = p.side.map(|s| format!(", {} only", s.name())).unwrap_or_default();
            out.push_str(&format!("  Portal: {} to {} ({way}{who})\n", p.a, p.b));
        }
        for m in &self.missing {
            out.push_str(&format!("  Not placed: {m}\n"));
        }
        for r in &self.spec.rows {
            out.push_str(&format!("    {r}\n"));
        }
        out
    }
}
