//! Collision's battle as a [`Game`]: battle groups from card files (the builder's) deployed on a
//! square map, the view, scenario files (docs/scenarios/collision.md in short: a map, `[[unit]]`
//! tables each with a `[unit.character]` the builder checks, dice, steps, expectations).

use crate::battle::{Fighter, Options, Pending, SIDES, State, options_from_pairs};
use crate::builder::{Card, check_file};
use crate::content::Content;
use crate::rules::{self, Cx};
use fray_core::decision::{Decision, DecisionOption};
use fray_core::dice::{Dice, ScriptedDice};
use fray_core::game::{ActionId, Fingerprint, Game, Node, Prompt, Seat, SeatInfo, SetupErrors, Sink, Viewer};
use fray_core::grid::Pos;
use fray_core::one_question::{self, OneQuestion};
use fray_core::ruleset::{Outcome, RuleError};
use fray_core::scenario::{DiceSpec, Loaded, Step};
use fray_core::table::{SetupRequest, TeamText};
use fray_core::view::{UnitView, View};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The version of the battle rules code: bumped whenever the same inputs could play differently.
pub const RULES_VERSION: u32 = 1;

/// The built-in battle groups: the home side's and the away side's.
pub const BUILTIN_GROUPS: [(&str, &str); 2] = [
    ("content/collision/battle/home.toml", include_str!("../../../content/collision/battle/home.toml")),
    ("content/collision/battle/away.toml", include_str!("../../../content/collision/battle/away.toml")),
];

/// What a battle starts from besides the seed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleSetup {
    /// Table options as `KEY=VALUE`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// The two battle-group files (home, away); the built-in groups without them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<TeamText>,
}

/// A command: an answer to the pending decision, named by the unit it is about (or the side).
pub use fray_core::one_question::Command;

/// Collision's battle rules, holding the builder's content.
#[derive(Clone, Debug)]
pub struct Collision {
    fingerprint: Fingerprint,
    content: Result<Arc<Content>, String>,
}

impl Collision {
    /// The battle with the built-in content.
    pub fn builtin() -> Self {
        let texts = crate::content::FILES.iter().copied().chain(BUILTIN_GROUPS.iter().copied());
        let fingerprint = Fingerprint::of(format!("collision rules {RULES_VERSION}"), texts);
        Collision { fingerprint, content: Content::builtin().map(Arc::new) }
    }
    /// The content.
    pub fn content(&self) -> Result<Arc<Content>, String> {
        self.content.clone()
    }
    /// The state `setup` builds, before the roll-off.
    pub fn build(&self, setup: &BattleSetup) -> Result<State, SetupErrors> {
        let content = self.content.clone().map_err(SetupErrors::from)?;
        let options = options_from_pairs(&setup.options).map_err(SetupErrors)?;
        let groups: Vec<(String, String)> = if setup.groups.is_empty() {
            BUILTIN_GROUPS.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect()
        } else {
            setup.groups.iter().map(|g| (g.path.clone(), g.text.clone())).collect()
        };
        if groups.len() != 2 {
            return Err(SetupErrors::one(format!(
                "a Collision battle takes two battle-group files (--home for red, --away for blue), not {}",
                groups.len()
            )));
        }
        let mut errors = Vec::new();
        let mut cards = Vec::new();
        let mut owners = Vec::new();
        for (side, (path, text)) in groups.iter().enumerate() {
            match check_file(&content, path, text) {
                Ok(g) => {
                    for c in g.cards {
                        cards.push(c);
                        owners.push(side as u8);
                    }
                }
                Err(e) => errors.extend(e),
            }
        }
        if !errors.is_empty() {
            return Err(SetupErrors(errors));
        }
        let size = options.size;
        // Deployment (C-BAT-3, inferred zones): home along the second row, away along the
        // second-to-last, spread from the middle.
        let mut placed = Vec::new();
        for side in 0..2u8 {
            let mine: Vec<usize> = (0..cards.len()).filter(|&i| owners[i] == side).collect();
            if mine.len() as i32 > size {
                return Err(SetupErrors::one(format!(
                    "{}: {} characters do not fit a row of {size} squares (--option size=N)",
                    groups[side as usize].0,
                    mine.len()
                )));
            }
            let row = if side == 0 { 1 } else { size - 2 };
            let gap = if 2 * mine.len() as i32 <= size { 2 } else { 1 };
            let start = (size - gap * (mine.len() as i32 - 1)) / 2;
            for (k, &i) in mine.iter().enumerate() {
                placed.push((i, side, Pos::new((start + gap * k as i32).min(size - 1), row)));
            }
        }
        placed.sort_by_key(|p| p.0);
        let units = placed.into_iter().map(|(i, side, at)| (i, side, at, Adjust::default())).collect();
        let terrain = if options.hills { hills(size) } else { Terrain::open(size, size) };
        Ok(assemble(options, cards, size, size, terrain, units))
    }
}

/// A scenario's changes to a fighter's starting pools and tokens.
#[derive(Clone, Debug, Default)]
struct Adjust {
    id: Option<String>,
    facing: Option<(i8, i8)>,
    endurance: Option<i32>,
    mana: Option<i32>,
    injuries: Option<i32>,
    stun: Option<i32>,
    hex: Option<i32>,
    poison: Option<i32>,
    flee: Option<i32>,
    luck: Option<i32>,
}

/// The map's squares, row by row: impassable ones, the ground's elevation level, and obstacles
/// that give cover (C-BAT-HEIGHT, C-BAT-COVER).
struct Terrain {
    walls: Vec<bool>,
    heights: Vec<i32>,
    cover: Vec<bool>,
    /// Objective squares a scenario's map gives (C-BAT-22).
    objectives: Vec<Pos>,
}

impl Terrain {
    fn open(w: i32, h: i32) -> Self {
        let n = (w * h) as usize;
        Terrain { walls: vec![false; n], heights: vec![0; n], cover: vec![false; n], objectives: Vec::new() }
    }
}

/// Fray's map with hills and cover for a battle from group files (`--option terrain=hills`):
/// the deployment rows stay flat, the middle gets two hills of levels 1 and 2 and a few
/// obstacles, mirrored so neither side is favoured.
fn hills(size: i32) -> Terrain {
    let mut t = Terrain::open(size, size);
    let mut set = |x: i32, y: i32, h: i32, c: bool| {
        for (x, y) in [(x, y), (size - 1 - x, size - 1 - y)] {
            let i = (y * size + x) as usize;
            t.heights[i] = h;
            t.cover[i] = c;
        }
    };
    let mid = size / 2;
    set(1, mid - 1, 1, false);
    set(2, mid - 1, 2, false);
    set(2, mid - 2, 1, false);
    set(mid - 1, mid - 1, 0, true);
    set(mid, mid - 2, 0, true);
    set(mid - 2, 3.min(mid - 1), 1, true);
    t
}

/// The state from cards and where each stands; ids from the card names (numbered when two
/// share one).
fn assemble(
    options: Options,
    cards: Vec<Card>,
    width: i32,
    height: i32,
    terrain: Terrain,
    units: Vec<(usize, u8, Pos, Adjust)>,
) -> State {
    let mut fighters: Vec<Fighter> = Vec::new();
    for (card, side, at, adj) in units {
        let c = &cards[card];
        let base = rules::slug(&c.name);
        let mut id = adj.id.clone().unwrap_or_else(|| base.clone());
        let mut n = 2;
        while fighters.iter().any(|f| f.id == id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        fighters.push(Fighter {
            id,
            side,
            card,
            at: Some(at),
            // C-BAT-3: deploy with End (doubled by Mark of the Titans, capped) and Mana.
            endurance: adj.endurance.unwrap_or(c.deploy_endurance),
            mana: adj.mana.unwrap_or(c.stats.mana),
            injuries: adj.injuries.unwrap_or(0),
            stun: adj.stun.unwrap_or(0),
            hex: adj.hex.unwrap_or(0),
            poison: adj.poison.unwrap_or(0),
            flee: adj.flee.unwrap_or(0),
            flee_from: None,
            activated: false,
            recover_due: false,
            held: false,
            spent: 0,
            defeated: false,
            // C-BAT-3 (Fray's reading): each side deploys facing the other.
            facing: adj.facing.unwrap_or(if side == 0 { (0, 1) } else { (0, -1) }),
            luck: adj.luck.unwrap_or(0),
            clinging: false,
            persevering: false,
            reserve: None,
            kissed: false,
            phase: 1,
            warped_by: None,
            pouncing: false,
        });
    }
    // C-BAT-22: the map's objectives, or Fray's placement of `objectives=N`.
    let objectives = if terrain.objectives.is_empty() {
        let walls = &terrain.walls;
        crate::objectives::place(options.objectives, width, height, |p| !walls[(p.y * width + p.x) as usize])
    } else {
        terrain.objectives.clone()
    };
    State {
        options,
        cards: Arc::new(cards),
        width,
        height,
        walls: Arc::new(terrain.walls),
        heights: Arc::new(terrain.heights),
        cover: Arc::new(terrain.cover),
        units: fighters,
        turn: 0,
        first: 0,
        next_side: 0,
        active: None,
        pending: Pending::Over,
        vp: [0, 0],
        upheaval: [Vec::new(), Vec::new()],
        outcome: None,
        objectives,
        meteor: [None, None],
        planned: [None, None],
        follow: None,
    }
}

/// Runs the battle from its start to the first decision.
pub fn start(state: &mut State, dice: &mut dyn Dice) -> Result<Vec<crate::battle::Event>, RuleError> {
    let mut log = Vec::new();
    rules::begin(&mut Cx { s: state, dice, out: &mut log })?;
    Ok(log)
}

impl OneQuestion for Collision {
    const SIDES: &'static [&'static str] = &SIDES;
    fn question(&self, s: &State) -> Option<Decision> {
        rules::decision(s)
    }
    fn answer(
        &self,
        s: &mut State,
        id: &str,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<crate::battle::Event>,
    ) -> Result<(), RuleError> {
        rules::answer(&mut Cx { s, dice, out }, id)
    }
}

impl Game for Collision {
    type State = State;
    type Setup = BattleSetup;
    type Command = Command;
    type Event = crate::battle::Event;

    fn id(&self) -> &'static str {
        "collision"
    }
    fn fingerprint(&self) -> Fingerprint {
        self.fingerprint.clone()
    }
    fn seats(&self, _s: &State) -> Vec<SeatInfo> {
        SIDES.iter().map(|s| SeatInfo::new(*s)).collect()
    }
    fn start(
        &self,
        setup: &BattleSetup,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Self::Event>,
    ) -> Result<State, SetupErrors> {
        let mut state = self.build(setup)?;
        for e in start(&mut state, dice)? {
            out.push(e);
        }
        Ok(state)
    }
    fn node(&self, s: &State) -> Node {
        one_question::node(self, s)
    }
    fn legal(&self, s: &State, seat: Seat, out: &mut Vec<ActionId>) {
        one_question::legal(self, s, seat, out)
    }
    fn apply(
        &self,
        s: &mut State,
        _seat: Seat,
        action: ActionId,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Self::Event>,
    ) -> Result<(), RuleError> {
        one_question::apply(self, s, action, dice, out)
    }
    fn act(
        &self,
        s: &mut State,
        seat: Seat,
        command: &Command,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Self::Event>,
    ) -> Result<(), RuleError> {
        // C-BAT-4: only the character activating (or the side asked) answers.
        one_question::act(self, s, seat, &command.unit, &command.choose, "C-BAT-4", dice, out)
    }
    fn command_seat(&self, s: &State, command: &Command) -> Option<Seat> {
        if let Some(i) = SIDES.iter().position(|x| *x == command.unit) {
            return Some(Seat(i as u8));
        }
        s.find(&command.unit).map(|u| Seat(s.u(u).side))
    }
    fn describe(&self, s: &State, action: ActionId) -> DecisionOption {
        one_question::describe(self, s, action)
    }
    fn decision(&self, s: &State, seat: Seat) -> Option<Decision> {
        one_question::decision(self, s, seat)
    }
    fn prompt(&self, s: &State, seat: Seat) -> Option<Prompt> {
        one_question::prompt(self, s, seat)
    }
    fn parse_choice(&self, s: &State, seat: Seat, id: &str) -> Result<ActionId, RuleError> {
        one_question::parse_choice(self, s, seat, id)
    }
    fn view(&self, s: &State, _viewer: Viewer) -> View {
        view(s)
    }
    fn outcome(&self, s: &State) -> Option<Outcome> {
        s.outcome.clone()
    }
    fn setup_for(&self, request: &SetupRequest) -> Result<BattleSetup, SetupErrors> {
        if request.map.is_some() {
            return Err(SetupErrors::one(
                "Collision battles from group files play on an open map (--option size=N); --map is not read",
            ));
        }
        Ok(BattleSetup { options: request.options.clone(), groups: request.teams.clone() })
    }
    fn tally(&self, event: &Self::Event, tally: &mut fray_core::tally::Tally) {
        for (category, key, amount) in &event.counts {
            tally.add(category, key, *amount);
        }
    }
    fn evaluate(&self, s: &State, seat: Seat) -> f64 {
        if let Some(r) = self.returns(s) {
            return r.get(seat.index()).copied().unwrap_or(0.0);
        }
        // Points still standing, each weighed by the share of its Toughness left.
        let mut worth = [0f64; 2];
        for x in &s.units {
            if x.at.is_some() {
                let c = &s.cards[x.card];
                let left = 1.0 - x.injuries as f64 / c.stats.tuf.max(1) as f64;
                worth[x.side as usize] += c.points as f64 * left.max(0.0);
            }
        }
        let total = worth[0] + worth[1];
        if total <= 0.0 {
            return 0.0;
        }
        (2.0 * worth[seat.index().min(1)] / total - 1.0) * 0.9
    }
}

/// The view: fighters with their pools, injuries and tokens; the turn and victory points.
pub fn view(s: &State) -> View {
    let mut units = std::collections::BTreeMap::new();
    for (i, x) in s.units.iter().enumerate() {
        let c = &s.cards[x.card];
        let mut extra = serde_json::Map::new();
        extra.insert("endurance".into(), x.endurance.into());
        extra.insert("mana".into(), x.mana.into());
        extra.insert("injuries".into(), x.injuries.into());
        extra.insert("stun".into(), x.stun.into());
        extra.insert("hex".into(), x.hex.into());
        extra.insert("poison".into(), x.poison.into());
        extra.insert("flee".into(), x.flee.into());
        extra.insert("luck".into(), x.luck.into());
        extra.insert("activated".into(), x.activated.into());
        extra.insert("defeated".into(), x.defeated.into());
        extra.insert("points".into(), c.points.into());
        extra.insert("facing".into(), crate::battle::facing_name(x.facing).into());
        // C-BAT-4, C-GL-OUT-MANEUVER: the phase of its activation card; C-GL-PAIN-WARP's link.
        extra.insert("phase".into(), x.phase.into());
        if let Some(w) = x.warped_by {
            extra.insert("warped_by".into(), s.units[w as usize].id.clone().into());
            extra.insert("counted_injuries".into(), crate::tactics::injuries_of(s, i as u8).into());
        }
        let mut statuses = Vec::new();
        for (name, n) in [("stun", x.stun), ("hex", x.hex), ("poison", x.poison), ("flee", x.flee)] {
            statuses.extend(std::iter::repeat_n(name.to_string(), n.max(0) as usize));
        }
        units.insert(
            x.id.clone(),
            UnitView {
                name: c.name.clone(),
                team: SIDES[x.side as usize].into(),
                at: x.at,
                size: 1,
                hp: (c.stats.tuf - x.injuries) as i64,
                max_hp: c.stats.tuf as i64,
                statuses,
                status_details: Vec::new(),
                extra,
            },
        );
    }
    // `#` impassable, `+` an obstacle giving cover, `.` open; the levels are in `heights`.
    let square = |p: Pos| {
        if !s.open(p) {
            '#'
        } else if s.is_cover(p) {
            '+'
        } else {
            '.'
        }
    };
    let map = (0..s.height).map(|y| (0..s.width).map(|x| square(Pos::new(x, y))).collect()).collect();
    let heights: Vec<String> = (0..s.height)
        .map(|y| {
            (0..s.width)
                .map(|x| char::from_digit(s.height(Pos::new(x, y)).clamp(0, 9) as u32, 10).unwrap_or('0'))
                .collect()
        })
        .collect();
    let mut extra = serde_json::Map::new();
    if s.heights.iter().any(|&h| h != 0) {
        extra.insert("heights".into(), heights.into());
    }
    extra.insert("first".into(), SIDES[s.first as usize].into());
    // C-BAT-22: the objectives and who holds each now.
    let objectives: Vec<serde_json::Value> = s
        .objectives
        .iter()
        .map(|&p| {
            let held = crate::objectives::holder(s, p).map(|side| SIDES[side as usize]);
            serde_json::json!({"at": [p.x, p.y], "held_by": held})
        })
        .collect();
    if !objectives.is_empty() {
        extra.insert("objectives".into(), objectives.into());
    }
    // C-GL-PLAN-AHEAD's set-aside dice and C-GL-METEOR's tokens, by side.
    let planned: serde_json::Map<String, serde_json::Value> =
        SIDES.iter().zip(s.planned).filter_map(|(n, d)| Some((n.to_string(), d?.into()))).collect();
    extra.insert("planned".into(), planned.into());
    let meteors: serde_json::Map<String, serde_json::Value> = SIDES
        .iter()
        .zip(&s.meteor)
        .filter_map(|(n, m)| {
            let m = m.as_ref()?;
            Some((n.to_string(), serde_json::json!({"at": [m.at.x, m.at.y], "due": m.due})))
        })
        .collect();
    extra.insert("meteor".into(), meteors.into());
    extra.insert("vp".into(), serde_json::json!({"red": s.vp[0], "blue": s.vp[1]}));
    let score = SIDES.iter().zip(s.vp).map(|(n, v)| (n.to_string(), v as i64)).collect();
    View {
        system: "collision".into(),
        round: s.turn,
        turn: s.active.as_ref().map(|a| s.u(a.unit).id.clone()),
        map,
        units,
        score,
        decision: rules::decision(s),
        log: Vec::new(),
        outcome: s.outcome.clone(),
        extra,
    }
}

// ---------------------------------------------------------------- scenario files

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    system: String,
    title: String,
    #[serde(default)]
    rules: Vec<String>,
    #[serde(default)]
    options: Vec<String>,
    #[serde(default)]
    seed: Option<u64>,
    /// The map: an open square of `size` without it.
    #[serde(default)]
    map: Option<MapSpec>,
    unit: Vec<toml::Spanned<UnitSpec>>,
    #[serde(default)]
    dice: DiceSpec,
    #[serde(default)]
    step: Vec<Step<Command>>,
    #[serde(default)]
    expect: toml::Table,
}

/// A scenario's map: rows of `.` (open), `#` (impassable) and `+` (an obstacle giving cover),
/// and optionally `heights`, rows of digits giving each square's elevation level.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapSpec {
    rows: Vec<String>,
    #[serde(default)]
    heights: Vec<String>,
    /// Objective squares as [x, y] (C-BAT-22).
    #[serde(default)]
    objectives: Vec<[i32; 2]>,
}

/// The line of `text` on which the quoted `row` appears after the key `field`.
fn row_line(text: &str, field: &str, row: &str) -> usize {
    let start = text.find(&format!("{field} =")).or_else(|| text.find(field)).unwrap_or(0);
    let at = text[start..].find(&format!("\"{row}\"")).map_or(start, |k| start + k);
    text[..at].matches('\n').count() + 1
}

/// Reads `[map]`: every bad square is reported with its line, row and column.
fn read_map(path: &str, text: &str, m: MapSpec) -> Result<(i32, i32, Terrain), String> {
    let w = m.rows[0].chars().count() as i32;
    let h = m.rows.len() as i32;
    let mut errors = Vec::new();
    let mut t = Terrain::open(w, h);
    for (y, r) in m.rows.iter().enumerate() {
        let line = row_line(text, "rows", r);
        if r.chars().count() as i32 != w {
            errors.push(format!(
                "{path}:{line}: [map].rows[{y}]: {} squares long, the first row has {w}",
                r.chars().count()
            ));
            continue;
        }
        for (x, c) in r.chars().enumerate() {
            let i = y * w as usize + x;
            match c {
                '.' => {}
                '#' => t.walls[i] = true,
                '+' => t.cover[i] = true,
                _ => errors.push(format!(
                    "{path}:{line}: [map].rows[{y}] column {x}: {c:?} is not `.` (open), `#` (impassable) or `+` (obstacle)"
                )),
            }
        }
    }
    if !m.heights.is_empty() && m.heights.len() as i32 != h {
        let line = row_line(text, "heights", &m.heights[0]);
        errors.push(format!("{path}:{line}: [map].heights: {} rows, [map].rows has {h}", m.heights.len()));
    }
    for (y, r) in m.heights.iter().enumerate().take(h as usize) {
        let line = row_line(text, "heights", r);
        if r.chars().count() as i32 != w {
            errors.push(format!(
                "{path}:{line}: [map].heights[{y}]: {} squares long, [map].rows are {w}",
                r.chars().count()
            ));
            continue;
        }
        for (x, c) in r.chars().enumerate() {
            match c.to_digit(10) {
                Some(d) => t.heights[y * w as usize + x] = d as i32,
                None => {
                    errors.push(format!("{path}:{line}: [map].heights[{y}] column {x}: {c:?} is not a level 0 to 9"))
                }
            }
        }
    }
    for (i, [x, y]) in m.objectives.iter().copied().enumerate() {
        let p = Pos::new(x, y);
        if x < 0 || y < 0 || x >= w || y >= h || t.walls[(y * w + x) as usize] {
            let line = row_line(text, "objectives", "");
            errors.push(format!("{path}:{line}: [map].objectives[{i}]: [{x}, {y}] is not an open square of the map"));
        } else if !t.objectives.contains(&p) {
            t.objectives.push(p);
        }
    }
    if errors.is_empty() { Ok((w, h, t)) } else { Err(errors.join("\n")) }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitSpec {
    #[serde(default)]
    id: Option<String>,
    side: String,
    at: [i32; 2],
    character: toml::Table,
    #[serde(default)]
    endurance: Option<i32>,
    #[serde(default)]
    mana: Option<i32>,
    #[serde(default)]
    injuries: Option<i32>,
    #[serde(default)]
    stun: Option<i32>,
    #[serde(default)]
    hex: Option<i32>,
    #[serde(default)]
    poison: Option<i32>,
    /// Flee tokens at the start (C-GL-FLEE).
    #[serde(default)]
    flee: Option<i32>,
    /// Luck tokens at the start (C-GL-LUCK).
    #[serde(default)]
    luck: Option<i32>,
    /// north, north-east, ... (C-BAT-21).
    #[serde(default)]
    facing: Option<String>,
}

/// Reads a scenario file; errors name file, line and field.
pub fn load(game: &Collision, path: &str, text: &str) -> Result<Loaded<Collision>, String> {
    let f: ScenarioFile = toml::from_str(text).map_err(|e| crate::content::toml_error(path, text, &e))?;
    if f.system != "collision" {
        return Err(format!("{path}: system is {:?}, expected \"collision\"", f.system));
    }
    let content = game.content()?;
    let options = options_from_pairs(&f.options).map_err(|e| format!("{path}: {}", e.join("; ")))?;
    let (width, height, terrain) = match f.map {
        Some(m) if !m.rows.is_empty() => read_map(path, text, m)?,
        _ => (options.size, options.size, Terrain::open(options.size, options.size)),
    };
    let walls = &terrain.walls;
    let mut errors = Vec::new();
    let mut cards = Vec::new();
    let mut units = Vec::new();
    for (i, u) in f.unit.iter().enumerate() {
        let line = fray_core::scenario::line_of(text, u.span().start);
        let spec = u.get_ref();
        let side = match SIDES.iter().position(|s| *s == spec.side) {
            Some(s) => s as u8,
            None => {
                errors.push(format!("{path}:{line}: unit[{i}].side: {:?} is not red or blue", spec.side));
                continue;
            }
        };
        let at = Pos::new(spec.at[0], spec.at[1]);
        if at.x < 0 || at.y < 0 || at.x >= width || at.y >= height || walls[(at.y * width + at.x) as usize] {
            errors.push(format!("{path}:{line}: unit[{i}].at: [{}, {}] is not an open square of the map", at.x, at.y));
            continue;
        }
        if units.iter().any(|(_, _, p, _)| *p == at) {
            errors.push(format!("{path}:{line}: unit[{i}].at: [{}, {}] already holds a character", at.x, at.y));
            continue;
        }
        let mut file = toml::Table::new();
        file.insert("character".into(), toml::Value::Array(vec![toml::Value::Table(spec.character.clone())]));
        let one = toml::to_string(&file).unwrap_or_default();
        match check_file(&content, &format!("{path} unit[{i}].character"), &one) {
            Ok(g) => {
                cards.extend(g.cards);
                let a = spec;
                let facing = match &a.facing {
                    None => None,
                    Some(f) => match crate::battle::FACINGS.iter().find(|(n, _)| n == f) {
                        Some((_, d)) => Some(*d),
                        None => {
                            errors.push(format!("{path}:{line}: unit[{i}].facing: {f:?} is not one of north, north-east, east, south-east, south, south-west, west, north-west"));
                            continue;
                        }
                    },
                };
                let adj = Adjust {
                    id: a.id.clone(),
                    facing,
                    endurance: a.endurance,
                    mana: a.mana,
                    injuries: a.injuries,
                    stun: a.stun,
                    hex: a.hex,
                    poison: a.poison,
                    flee: a.flee,
                    luck: a.luck,
                };
                units.push((cards.len() - 1, side, at, adj));
            }
            Err(e) => {
                // The builder names the one-character text it was given: name the scenario's
                // lines and the unit's field instead.
                let at = crate::content::field_line(text, u.span(), "character");
                let synthetic = format!("{path} unit[{i}].character");
                errors.extend(e.into_iter().map(|m| {
                    let rest = m
                        .strip_prefix(&synthetic)
                        .map(|r| r.trim_start_matches(|c: char| c == ':' || c.is_ascii_digit()).trim_start())
                        .unwrap_or(&m);
                    let rest = match rest.find(").") {
                        Some(k) if rest.starts_with("character[") => format!("unit[{i}].character.{}", &rest[k + 2..]),
                        _ => rest.to_string(),
                    };
                    format!("{path}:{at}: {rest}")
                }));
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    let mut state = assemble(options, cards, width, height, terrain, units);
    let unused_dice_ok = f.dice.unused.is_some();
    let mut dice = ScriptedDice::new(f.dice.rolls, f.seed);
    let journal = start(&mut state, &mut dice).map_err(|e| format!("{path}: setting up: {e}"))?;
    Ok(Loaded {
        title: f.title,
        rules: f.rules,
        state,
        setup_journal: journal,
        dice,
        unused_dice_ok,
        steps: f.step,
        expect: f.expect,
    })
}
