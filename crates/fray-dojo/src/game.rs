//! Panic at the Dojo as a [`Game`] and a [`System`]: its seats (the heroes and the enemies),
//! what a fight starts from, the view, scenario files, the look-up.

use crate::content::Content;
use crate::frames::Frame;
use crate::state::{Event, SIDES, State};
use crate::{rules, setup};
use fray_core::decision::{Decision, DecisionOption};
use fray_core::dice::{Dice, ScriptedDice};
use fray_core::engine;
use fray_core::game::{ActionId, Fingerprint, Game, Node, Prompt, Seat, SeatInfo, SetupErrors, Sink, Viewer};
use fray_core::lookup::Entry;
use fray_core::one_question::{self, OneQuestion};
use fray_core::ruleset::{Outcome, RuleError};
use fray_core::scenario::{DiceSpec, Loaded, Report, Step};
use fray_core::session::{MatchRecord, Session};
use fray_core::table::{BuildReport, SetupRequest, System, Table, TeamText};
use fray_core::view::{UnitView, View};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The version of the Dojo rules code: bumped whenever the same inputs could play differently.
pub const RULES_VERSION: u32 = 1;

/// What a fight starts from besides the seed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FightSetup {
    /// Table options as `KEY=VALUE`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// An encounter file; the sample encounter without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<TeamText>,
    /// An enemy side file (`enemies = ["angel"]`): these enemies replace the encounter's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enemies: Option<TeamText>,
}

/// A command: an answer to the pending decision, named by the unit it is about (or the side).
pub use fray_core::one_question::Command;

/// The Dojo rules, holding their content.
#[derive(Clone, Debug)]
pub struct Dojo {
    fingerprint: Fingerprint,
    content: Result<Arc<Content>, String>,
}

impl Dojo {
    /// The Dojo with its built-in content.
    pub fn builtin() -> Self {
        let fingerprint =
            Fingerprint::of(format!("dojo rules {RULES_VERSION}"), crate::content::BUILTIN.iter().copied());
        Dojo { fingerprint, content: Content::builtin().map(Arc::new) }
    }
    /// The content.
    pub fn content(&self) -> Result<Arc<Content>, String> {
        self.content.clone()
    }
    /// The state `setup` builds, before the first step.
    pub fn build(&self, setup: &FightSetup) -> Result<State, SetupErrors> {
        let content = self.content.clone().map_err(SetupErrors::from)?;
        let mut options = setup::options_from_pairs(&setup.options, &content).map_err(SetupErrors)?;
        let (path, text) = match &setup.map {
            Some(f) => (f.path.clone(), f.text.clone()),
            None => ("dojo/encounter.toml".to_string(), content.encounter.clone()),
        };
        let e = setup::read_encounter(&path, &text).map_err(SetupErrors)?;
        // D-FLOW-4: the Director's fight file sets the Cinematic Weight (a table option given
        // outright wins); its Complications come with its units (guests, a side's rivals) and
        // its stakes.
        if let Some(w) = e.weight
            && !setup.options.iter().any(|o| o.trim_start().starts_with("weight="))
        {
            options.weight = w;
        }
        let Some(side) = &setup.enemies else {
            return setup::build(&path, &text, &content, &e.map, &e.unit, options).map_err(SetupErrors);
        };
        // The enemy chapter's forces against the encounter's heroes (D-EN-*, D-CMP-2).
        let file: crate::enemies::SideFile = toml::from_str(&side.text)
            .map_err(|er| SetupErrors::one(format!("{}: {}", side.path, er.to_string().trim_end())))?;
        let units = crate::enemies::with_force(&side.path, &content, &file, &e.map.rows, &e.unit, options.ambush)
            .map_err(SetupErrors)?;
        let mut state = setup::build(&path, &text, &content, &e.map, &units, options).map_err(SetupErrors)?;
        crate::enemies::even_out(&mut state, file.uneven.as_deref() == Some("even"));
        let errors = crate::stakes::check(&side.path, &state, &file.stake);
        if !errors.is_empty() {
            return Err(SetupErrors(errors));
        }
        Ok(state)
    }
    /// The Bonuses and Penalties `setup`'s enemy side file hands out (checked by [`Dojo::build`]).
    pub fn stakes(&self, setup: &FightSetup) -> Vec<crate::stakes::StakeSpec> {
        setup
            .enemies
            .as_ref()
            .and_then(|side| toml::from_str::<crate::enemies::SideFile>(&side.text).ok())
            .map(|f| f.stake)
            .unwrap_or_default()
    }
}

/// Runs the fight from its start to the first decision.
pub fn start(state: &mut State, dice: &mut dyn Dice) -> Result<Vec<Event>, RuleError> {
    let mut log = Vec::new();
    let mut cx = crate::state::Ctx::new(state, dice, &mut log);
    engine::run(&mut cx)?;
    Ok(log)
}

impl OneQuestion for Dojo {
    const SIDES: &'static [&'static str] = &SIDES;
    fn question(&self, s: &State) -> Option<Decision> {
        engine::decision(s)
    }
    fn answer(&self, s: &mut State, id: &str, dice: &mut dyn Dice, out: &mut dyn Sink<Event>) -> Result<(), RuleError> {
        engine::answer(&mut crate::state::Ctx::new(s, dice, out), id)
    }
}

impl Game for Dojo {
    type State = State;
    type Setup = FightSetup;
    type Command = Command;
    type Event = Event;

    fn id(&self) -> &'static str {
        "dojo"
    }
    fn fingerprint(&self) -> Fingerprint {
        self.fingerprint.clone()
    }
    fn seats(&self, s: &State) -> Vec<SeatInfo> {
        // D-CMP-4: the rivals' seat only in a three-way battle.
        SIDES[..s.sides()].iter().map(|s| SeatInfo::new(*s)).collect()
    }
    fn start(&self, setup: &FightSetup, dice: &mut dyn Dice, out: &mut dyn Sink<Event>) -> Result<State, SetupErrors> {
        let mut state = self.build(setup)?;
        let stakes = self.stakes(setup);
        if !stakes.is_empty() {
            let mut log = Vec::new();
            crate::stakes::apply(&mut crate::state::Ctx::new(&mut state, dice, &mut log), &stakes);
            for e in log {
                out.push(e);
            }
        }
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
        out: &mut dyn Sink<Event>,
    ) -> Result<(), RuleError> {
        one_question::apply(self, s, action, dice, out)
    }
    fn act(
        &self,
        s: &mut State,
        seat: Seat,
        command: &Command,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Event>,
    ) -> Result<(), RuleError> {
        // D-INIT-2: only the unit whose turn it is (or who is asked) answers.
        one_question::act(self, s, seat, &command.unit, &command.choose, "D-INIT-2", dice, out)
    }
    fn command_seat(&self, s: &State, command: &Command) -> Option<Seat> {
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
    fn setup_for(&self, request: &SetupRequest) -> Result<FightSetup, SetupErrors> {
        match request.teams.as_slice() {
            [] => Ok(FightSetup { options: request.options.clone(), map: request.map.clone(), enemies: None }),
            // The heroes' encounter (its map and heroes) and the enemies to fight.
            [heroes, enemies] if request.map.is_none() => Ok(FightSetup {
                options: request.options.clone(),
                map: Some(heroes.clone()),
                enemies: Some(enemies.clone()),
            }),
            [_, _] => Err(SetupErrors::one(
                "--home names the heroes' encounter (its map too): leave out --map when you give --home and --away",
            )),
            _ => {
                Err(SetupErrors::one("Panic at the Dojo takes --home (the heroes' encounter) and --away (the enemies)"))
            }
        }
    }
    fn tally(&self, event: &Event, tally: &mut fray_core::tally::Tally) {
        tally_event(event, tally);
    }
    fn evaluate(&self, s: &State, seat: Seat) -> f64 {
        if let Some(r) = self.returns(s) {
            return r.get(seat.index()).copied().unwrap_or(0.0);
        }
        // Each side's worth: its units' health, valued so a bot presses its attacks home. A bar's
        // last points are worth more than its first (the square root of what is left of it), so
        // a hit on a hurt unit beats the same hit on a fresh one and bots gang up on one target
        // rather than spreading damage that heals back; a unit still standing is worth half a bar
        // more, so Taking it Out counts. A Shield counts up to one bar (a Shield that keeps
        // growing, like Singing's, is not worth stacking forever).
        let mut hp = [0f64; SIDES.len()];
        let mut standing = [0f64; SIDES.len()];
        for x in &s.units {
            hp[x.side as usize] += unit_worth(x);
            if !x.out {
                standing[x.side as usize] = standing[x.side as usize].max(f64::from(x.bar_max));
            }
        }
        // A side still in the fight is worth two bars more: Taking Out a side's last unit (in a
        // three-way battle, putting one side out of the fight) counts for more than its HP.
        for (h, bar) in hp.iter_mut().zip(standing) {
            *h += 2.0 * bar;
        }
        let total: f64 = hp.iter().sum();
        if total <= 0.0 {
            return 0.0;
        }
        let me = seat.index().min(SIDES.len() - 1);
        let side = me as u8;
        // The side's own worth against all the others together (2 x share - 1), so in a
        // three-way battle a hit on either other side counts.
        let others = total - hp[me];
        // A little for closing in: each of the side's units with an enemy within its Stance's
        // range, or as few squares short of it as can be, so a bot walks into the fight rather
        // than spending its dice on nothing. Speed tokens in hand count for part of the way
        // (they are steps still to take this turn), so gaining Speed when nothing is in reach
        // beats an Action that does nothing, and the steps themselves still count.
        let mut near = 0.0;
        let mut count = 0.0;
        for (i, x) in s.units.iter().enumerate().filter(|(_, x)| x.side == side && !x.out) {
            let Some(p) = x.at else { continue };
            let (lo, hi) = rules::range(s, i as u8);
            let gap = s
                .units
                .iter()
                .filter(|y| y.side != side && !y.out)
                .filter_map(|y| y.at)
                .map(|q| {
                    let d = crate::effects::dist(p, q);
                    if d > hi {
                        d - hi.max(1)
                    } else if d < lo {
                        lo - d
                    } else {
                        0
                    }
                })
                .min();
            if let Some(gap) = gap {
                let steps = (gap - x.has(crate::content::Token::Speed)).max(0);
                near += 0.7 / f64::from(1 + gap) + 0.3 / f64::from(1 + steps);
                count += 1.0;
            }
        }
        let approach = if count > 0.0 { near / count } else { 0.0 };
        ((hp[me] - others) / total) * 0.85 + 0.1 * approach
    }
}

/// What a unit is worth to its side for the bots' evaluation (see [`Dojo::evaluate`]), in HP.
fn unit_worth(x: &crate::state::Unit) -> f64 {
    if x.out {
        return 0.0;
    }
    let bar = f64::from(x.bar_max.max(1));
    let full_bars = f64::from(x.bars.saturating_sub(x.broken).saturating_sub(1));
    let current = (f64::from(x.hp.max(0)) * bar).sqrt();
    let shield = f64::from(x.shield.clamp(0, x.bar_max));
    0.5 * bar + full_bars * bar + current + shield
}

/// A unit's line at the table, in short words: Taken Out, the bars left, its Shield, its
/// tokens, whose Challenge it holds, its Favor tokens and its Stance, so a person at the prompt
/// sees what the fight's state is without asking.
fn statuses(s: &State, i: usize) -> Vec<String> {
    let x = &s.units[i];
    let mut out = Vec::new();
    if x.out {
        out.push("Taken Out".to_string());
    } else if x.at.is_none() {
        out.push("out of play".to_string());
    }
    if x.bars > 1 {
        out.push(format!("bar {} of {}", (x.broken + 1).min(x.bars), x.bars));
    }
    if x.shield > 0 {
        out.push(format!("Shield {}", x.shield));
    }
    for (t, n) in crate::state::token_list(x) {
        out.push(format!("{t} {n}"));
    }
    if let Some(c) = x.challenge {
        out.push(format!("holds {}'s Challenge", s.u(c).id));
    }
    for f in s.favors.iter().filter(|f| f.0 as usize == i) {
        out.push(format!("Favor of the {}", SIDES[f.1 as usize]));
    }
    if let Some(st) = x.stance {
        out.push(format!("{} Stance", s.stance_name(i as u8, st)));
    }
    out
}

/// The view: units with their bars, Shields, tokens, Stances and pools; the meter.
pub fn view(s: &State) -> View {
    let mut units = std::collections::BTreeMap::new();
    for (i, x) in s.units.iter().enumerate() {
        let mut extra = serde_json::Map::new();
        extra.insert("bars".into(), x.bars.into());
        extra.insert("broken".into(), x.broken.into());
        extra.insert("shield".into(), x.shield.into());
        extra.insert("spare_shields".into(), x.spares.clone().into());
        extra.insert("out".into(), x.out.into());
        extra.insert("tokens".into(), serde_json::Value::Object(crate::state::token_list(x)));
        extra.insert("challenge".into(), x.challenge.map(|c| s.u(c).id.to_string()).into());
        extra.insert("stance".into(), x.stance.map(|st| s.stance_id(i as u8, st)).into());
        extra.insert("pool".into(), x.pool.values().to_vec().into());
        extra.insert("turns_left".into(), (s.meter.turns[i] - s.meter.taken[i]).into());
        extra.insert("kind".into(), serde_json::to_value(x.kind).unwrap_or_default());
        // D-CMP-4: the Favor tokens held, each by the side it names.
        let favors: Vec<&str> = s.favors.iter().filter(|f| f.0 as usize == i).map(|f| SIDES[f.1 as usize]).collect();
        if !favors.is_empty() {
            extra.insert("favors".into(), favors.into());
        }
        if x.stance.is_some() {
            let (lo, hi) = rules::range(s, i as u8);
            extra.insert("range".into(), vec![lo, hi].into());
        }
        extra
            .insert("stances".into(), (0..x.stances.len()).map(|k| s.stance_id(i as u8, k)).collect::<Vec<_>>().into());
        units.insert(
            x.id.to_string(),
            UnitView {
                name: x.name.clone(),
                team: SIDES[x.side as usize].into(),
                at: x.at,
                // D-RNG-5: the Giant's 2 by 2 block; a Vehicle's other squares are marks below.
                size: if crate::big::big(s, i as u8) && !crate::big::vehicle(s, i as u8) { 2 } else { 1 },
                hp: x.hp as i64,
                max_hp: x.bar_max as i64,
                statuses: statuses(s, i),
                status_details: Vec::new(),
                extra,
            },
        );
    }
    let map = (0..s.map.height())
        .map(|y| {
            (0..s.map.width())
                .map(|x| {
                    let p = fray_core::grid::Pos::new(x, y);
                    // D-OBS-1: a Copy shows over whatever it stands in.
                    if crate::copies::owner(s, p).is_some() { 'C' } else { s.obstacle(p).map_or('.', |o| o.glyph()) }
                })
                .collect()
        })
        .collect();
    let mut extra = serde_json::Map::new();
    extra.insert("slots".into(), s.meter.slots().into());
    extra.insert("filled".into(), s.meter.filled.into());
    let legend: serde_json::Map<String, serde_json::Value> =
        [("#", "Wall"), ("%", "Rubble"), ("^", "Trap"), ("~", "Fog"), ("O", "Edge"), ("C", "Copy")]
            .iter()
            .map(|(c, m)| (c.to_string(), (*m).into()))
            .collect();
    extra.insert("legend".into(), legend.into());
    extra.insert("weight".into(), serde_json::to_value(s.options.weight).unwrap_or_default());
    // D-OBS-1: each Copy's square and its Original.
    let copies: serde_json::Map<String, serde_json::Value> =
        s.copies.iter().map(|(p, u)| (p.key(), s.u(*u).id.to_string().into())).collect();
    extra.insert("copies".into(), copies.into());
    // The figures standing besides their unit (Stooges with `stooge-figures`, the Twins), by square.
    let stooges: serde_json::Map<String, serde_json::Value> =
        s.members.iter().map(|(p, u)| (p.key(), s.u(*u).id.to_string().into())).collect();
    extra.insert("figures".into(), stooges.into());
    // D-RNG-5: every square of a Vehicle, marked on the board (its riders show over it).
    let mut marks = Vec::new();
    for &(u, car, _) in &s.shapes {
        if car && !s.u(u).out {
            for p in crate::big::squares(s, u) {
                marks.push(serde_json::json!({
                    "at": [p.x, p.y],
                    "glyph": "V",
                    "means": format!("the Vehicle {}", s.u(u).name),
                }));
            }
        }
    }
    if !marks.is_empty() {
        extra.insert("marks".into(), marks.into());
    }
    // D-RNG-5: the squares each big unit covers, by unit.
    let big: serde_json::Map<String, serde_json::Value> = s
        .shapes
        .iter()
        .map(|&(u, _, _)| {
            let squares: Vec<String> = crate::big::squares(s, u).into_iter().map(|p| p.key()).collect();
            (s.u(u).id.to_string(), squares.into())
        })
        .collect();
    if !big.is_empty() {
        extra.insert("big".into(), big.into());
    }
    View {
        system: "dojo".into(),
        round: s.round,
        turn: s.turn.map(|t| s.u(t).id.to_string()),
        map,
        units,
        score: Default::default(),
        decision: engine::decision(s),
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
    weight: Option<crate::state::Weight>,
    #[serde(default)]
    seed: Option<u64>,
    map: setup::MapSpec,
    unit: Vec<toml::Spanned<setup::UnitSpec>>,
    /// Enemies of the enemy chapter to fight instead of the file's own (forces or enemy ids).
    #[serde(default)]
    enemies: Vec<String>,
    /// How spare bars are shared with those enemies (D-CMP-2): `whole` or `even`.
    #[serde(default)]
    uneven: Option<String>,
    /// Bonuses and Penalties handed out as the fight starts (D-BON-*, D-PEN-*).
    #[serde(default)]
    stake: Vec<crate::stakes::StakeSpec>,
    #[serde(default)]
    dice: DiceSpec,
    #[serde(default)]
    step: Vec<Step<Command>>,
    #[serde(default)]
    expect: toml::Table,
}

/// Reads a scenario file (docs/scenarios/dojo.md); errors name file, line and field.
pub fn load(game: &Dojo, path: &str, text: &str) -> Result<Loaded<Dojo>, String> {
    let f: ScenarioFile = toml::from_str(text).map_err(|e| format!("{path}: {}", e.to_string().trim_end()))?;
    if f.system != "dojo" {
        return Err(format!("{path}: system is {:?}, expected \"dojo\"", f.system));
    }
    let content = game.content()?;
    let mut options =
        setup::options_from_pairs(&f.options, &content).map_err(|e| format!("{path}: {}", e.join("; ")))?;
    // D-FLOW-4: a scenario's weight, as an encounter file's.
    if let Some(w) = f.weight {
        options.weight = w;
    }
    let mut state = if f.enemies.is_empty() {
        setup::build(path, text, &content, &f.map, &f.unit, options).map_err(|e| e.join("\n"))?
    } else {
        let side = crate::enemies::SideFile {
            enemies: f.enemies.clone(),
            uneven: f.uneven.clone(),
            stake: Vec::new(),
            rivals: Vec::new(),
        };
        let units = crate::enemies::with_force(path, &content, &side, &f.map.rows, &f.unit, options.ambush)
            .map_err(|e| e.join("\n"))?;
        let mut s = setup::build(path, text, &content, &f.map, &units, options).map_err(|e| e.join("\n"))?;
        crate::enemies::even_out(&mut s, f.uneven.as_deref() == Some("even"));
        s
    };
    let unused_dice_ok = f.dice.unused.is_some();
    let mut dice = ScriptedDice::new(f.dice.rolls, f.seed);
    let stake_errors = crate::stakes::check(path, &state, &f.stake);
    if !stake_errors.is_empty() {
        return Err(stake_errors.join("\n"));
    }
    let mut journal = Vec::new();
    crate::stakes::apply(&mut crate::state::Ctx::new(&mut state, &mut dice, &mut journal), &f.stake);
    journal.extend(start(&mut state, &mut dice).map_err(|e| format!("{path}: setting up: {e}"))?);
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

// ---------------------------------------------------------------- the system

/// Panic at the Dojo as a program offers it.
pub struct DojoSystem {
    game: Arc<Dojo>,
}

/// The Dojo for the registry.
pub fn system() -> Arc<dyn System> {
    system_of(Arc::new(Dojo::builtin()))
}

/// This Dojo, for the registry (a program that also hands `game` to bots and the simulator).
pub fn system_of(game: Arc<Dojo>) -> Arc<dyn System> {
    Arc::new(DojoSystem { game })
}

/// Every entry of the look-up: the content's, the frames' words.
pub fn rules_index(game: &Dojo) -> Result<Vec<Entry>, String> {
    let content = game.content()?;
    let mut out = content.entries();
    out.extend(crate::enemies::entries(&content));
    out.extend(crate::bosses::entries(&content));
    out.extend(crate::stakes::entries(&content));
    Ok(out)
}

impl System for DojoSystem {
    fn id(&self) -> &'static str {
        "dojo"
    }
    fn title(&self) -> &'static str {
        "Panic at the Dojo"
    }
    fn seat_names(&self) -> Vec<String> {
        SIDES.iter().map(|s| s.to_string()).collect()
    }
    fn builtin_team(&self, name: &str) -> Option<&'static str> {
        // `--home sample`: the sample encounter's heroes; `--away angel`: a force or one enemy.
        if name == "sample" {
            return crate::content::BUILTIN.iter().find(|(n, _)| *n == "dojo/encounter.toml").map(|(_, t)| *t);
        }
        crate::enemies::side_text(name)
    }
    fn table_options(&self) -> Vec<(&'static str, &'static str)> {
        setup::TABLE_OPTIONS.to_vec()
    }
    fn new_table(&self, request: &SetupRequest, seed: u64) -> Result<Box<dyn Table>, SetupErrors> {
        let setup = self.game.setup_for(request)?;
        Ok(Box::new(Session::start(self.game.clone(), setup, seed)?))
    }
    fn replay(&self, record: serde_json::Value) -> Result<Box<dyn Table>, String> {
        let record: MatchRecord<FightSetup, Command> =
            serde_json::from_value(record).map_err(|e| format!("not a saved Dojo fight: {e}"))?;
        Ok(Box::new(Session::replay(self.game.clone(), record)?))
    }
    fn replay_start(&self, record: serde_json::Value) -> Result<Box<dyn Table>, String> {
        let record: MatchRecord<FightSetup, Command> =
            serde_json::from_value(record).map_err(|e| format!("not a saved Dojo fight: {e}"))?;
        Ok(Box::new(Session::replay_start(self.game.clone(), &record)?))
    }
    fn run_scenario(&self, name: &str, text: &str) -> Result<Report, String> {
        Ok(fray_core::scenario::run(&self.game, load(&self.game, name, text)?))
    }
    fn scenario_table(&self, name: &str, text: &str) -> Result<Box<dyn Table>, String> {
        let session = fray_core::scenario::play_steps(&self.game, load(&self.game, name, text)?)
            .map_err(|e| format!("{name}: {e}"))?;
        Ok(Box::new(session))
    }
    fn rules_index(&self) -> Result<Vec<Entry>, String> {
        rules_index(&self.game)
    }
    fn check_build(&self, file: &str, text: &str) -> BuildReport {
        let setup = FightSetup {
            options: Vec::new(),
            map: Some(TeamText { path: file.into(), text: text.into() }),
            enemies: None,
        };
        // D-HC-*: the hero creation rules, beside what any fight needs; every problem at once.
        let creation = crate::creation::check_text(&self.game, file, text);
        match self.game.build(&setup) {
            Ok(_) if !creation.is_empty() => BuildReport::Illegal(creation),
            Ok(s) => BuildReport::Legal(
                s.units
                    .iter()
                    .map(|x| {
                        let st: Vec<String> =
                            (0..x.stances.len()).map(|k| s.stance_name(s.find(&x.id).unwrap_or(0), k)).collect();
                        format!(
                            "{} ({:?}, {}): {} bar(s) of {} HP; Stances: {}",
                            x.name,
                            x.kind,
                            SIDES[x.side as usize],
                            x.bars,
                            x.bar_max,
                            st.join(", ")
                        )
                    })
                    .collect(),
            ),
            Err(e) => BuildReport::Illegal(e.0.into_iter().chain(creation).collect()),
        }
    }
    fn bench(&self, matches: u64, live_bytes: Option<&dyn Fn() -> u64>) -> fray_core::bench::BenchReport {
        let setup = FightSetup::default();
        fray_core::bench::measure(&self.game, &fray_core::conformance::from_setup(&setup), matches, live_bytes)
    }
}

/// The frame kinds, for tests that look at the stack.
pub fn top(s: &State) -> Option<&Frame> {
    s.flow.last()
}

/// The pending decision for `seat` with its rule check: whose turn and what it may do.
pub fn menu_of(s: &State, u: u8) -> Vec<DecisionOption> {
    rules::menu(s, u)
}

/// What `fray sim dojo` counts of an event: rounds, Stance picks, action uses, damage dealt and
/// taken by unit and by action, and Take Outs (with the action that caused them).
pub fn tally_event(event: &Event, t: &mut fray_core::tally::Tally) {
    match event {
        Event::RoundStarted { .. } => t.add("match", "rounds", 1.0),
        Event::StanceTaken { name, .. } => t.add("stance picks", name, 1.0),
        Event::Acted { who, name, .. } => {
            t.add("power uses", name, 1.0);
            t.context.insert(who.id.to_string(), name.clone());
        }
        Event::Hurt { who, by, damage, .. } if *damage > 0 => {
            let amount = f64::from(*damage);
            t.add("damage taken", &who.id, amount);
            if let Some(by) = by {
                t.add("damage dealt", &by.id, amount);
                let action = t.context.get(&*by.id).cloned().unwrap_or_else(|| "(other)".into());
                t.add("power damage", &action, amount);
                t.context.insert(format!("hit:{}", who.id), by.id.to_string());
            }
        }
        Event::Out { who, out: true } => {
            t.add("taken out", &who.id, 1.0);
            if let Some(by) = t.context.get(&format!("hit:{}", who.id)).cloned() {
                t.add("take outs", &by, 1.0);
                let action = t.context.get(&by).cloned().unwrap_or_else(|| "(other)".into());
                t.add("power take outs", &action, 1.0);
            }
        }
        _ => {}
    }
}
