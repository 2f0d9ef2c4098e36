//! The turn's actions (DS-TURN-1, DS-TURN-2, DS-GAP-12): the menu, the complete [`Command`]
//! form, the checks that name the rule refusing an action, and execution — moving with
//! opportunity attacks (DS-OA), shifting (DS-SHIFT-1), charging (DS-CHG-1), abilities, free
//! strikes, the standard maneuvers, tests (DS-TEST) and hero tokens (DS-TOKEN).

use crate::abilities;
use crate::events::{Ctx, Event};
use crate::frames::Frame;
use crate::model::{AbilityDef, Characteristic, ConditionKind, Distance, TargetKind, Usage};
use crate::rolls::Difficulty;
use crate::state::footprint_distance as distance;
use crate::state::{Cx, Side, State, Terrain, Until};
use fray_core::decision::DecisionOption;
use fray_core::engine::Flow;
use fray_core::geometry::{Frontier, ReachScratch};
use fray_core::grid::{Pos, footprint};
use fray_core::ruleset::RuleError;
use fray_core::sight::Sight;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub use crate::frames::{AfterWalk, Pending};

pub use fray_core::command::{Route, Targets};

/// A test to make (DS-TEST).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TestSpec {
    /// Characteristic.
    pub characteristic: String,
    /// easy, medium or hard.
    pub difficulty: String,
    /// A skill applies (+2, DS-SKILL-1).
    #[serde(default)]
    pub skill: bool,
}

/// A complete command; exactly one verb.
#[derive(Clone, Debug, Serialize, Deserialize, Default, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Command {
    /// Who acts.
    pub unit: String,
    /// Use an ability.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<String>,
    /// Targets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Targets>,
    /// A square (charge destination, area origin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub square: Option<Pos>,
    /// Move (Advance).
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub move_to: Option<Route>,
    /// Shift 1 (Disengage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shift: Option<Pos>,
    /// Charge this creature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge: Option<String>,
    /// Free strike this creature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_strike: Option<String>,
    /// Stand up.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_up: bool,
    /// Catch breath.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub catch_breath: bool,
    /// Escape a grab.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub escape_grab: bool,
    /// Go prone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub go_prone: bool,
    /// Defend.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub defend: bool,
    /// Hide.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hide: bool,
    /// Make a test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<TestSpec>,
    /// After the combat: rest ("respite", "interrupted" or "sleep", DS-REST).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rest: Option<String>,
    /// Make a jump test: this turn's jumps go farther (part of movement, DS-JUMP-3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub jump_test: bool,
    /// Grab this creature (maneuver).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grab: Option<String>,
    /// Knock this creature back (maneuver).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knockback: Option<String>,
    /// Move the creature you grab to this adjacent square (maneuver).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_grabbed: Option<Pos>,
    /// Let go of the creature you grab (no action).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub release: bool,
    /// Heal: this adjacent creature spends a Recovery (main action).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heal: Option<String>,
    /// Aid an attack on this adjacent enemy (maneuver): an ally's next roll against it gains
    /// an edge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aid_attack: Option<String>,
    /// Search for hidden enemies within 10 squares (maneuver).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub search: bool,
    /// Help this adjacent prone creature stand (maneuver).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help_up: Option<String>,
    /// End the conditions you gave this creature (free maneuver, DS-GAP-22).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_condition: Option<String>,
    /// Spend hero tokens: "surges" (1), "stamina" (2), or "test" (1: the last failed test succeeds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The Director buys a Malice feature for this creature at the start of its turn
    /// (DS-GAP-17): `"brutal-effectiveness"`, or the id of the creature's own Malice feature
    /// (with `target` or `square` as its ability needs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub malice: Option<String>,
    /// The Director spends this much Malice (5 or more) on Malicious Strike for this creature
    /// at the start of its turn (DS-GAP-17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub malicious_strike: Option<i32>,
    /// A solo's End Effect: take 10 damage to end a save-ends effect (DS-GAP-19).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub end_effect: bool,
    /// End the turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub end_turn: bool,
    /// With `end_turn`: if the save against this condition fails, spend a hero token to succeed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_save: Option<String>,
}

/// A checked action.
#[derive(Clone, Debug, PartialEq)]
pub enum Verb {
    /// Advance along a route.
    Move(Vec<Pos>),
    /// Shift one square.
    Shift(Pos),
    /// Charge: to a square, then a melee free strike.
    Charge(Cx, Pos),
    /// An ability on targets.
    Ability(Arc<AbilityDef>, Vec<Cx>, Option<Pos>),
    /// A free strike.
    FreeStrike(Cx),
    /// Stand up.
    StandUp,
    /// Catch breath.
    CatchBreath,
    /// Escape a grab.
    EscapeGrab,
    /// Go prone.
    GoProne,
    /// Defend.
    Defend,
    /// Hide.
    Hide,
    /// A test.
    Test(Characteristic, Difficulty, bool),
    /// A jump test (DS-JUMP-3).
    JumpTest,
    /// Rest after the combat (DS-REST).
    Rest(crate::respite::Rest),
    /// Grab (DS-GAP-12).
    Grab(Cx),
    /// Knockback (DS-GAP-12).
    Knockback(Cx),
    /// Move the grabbed creature (DS-COND-GRAB-2).
    MoveGrabbed(Pos),
    /// Let go (DS-COND-GRAB-3).
    Release,
    /// Help an adjacent prone creature up (DS-COND-PRONE-2).
    HelpUp(Cx),
    /// Aid Attack on an adjacent enemy (DS-GAP-12).
    AidAttack(Cx),
    /// Search for hidden enemies (DS-GAP-23).
    Search,
    /// End the conditions this creature gave `t` (DS-GAP-22).
    EndCondition(Cx),
    /// Heal: an adjacent creature spends a Recovery (DS-GAP-12, DS-HP-DYING-1; one of the main
    /// actions the published rules name besides Defend and Disengage, DS-DELTA-4).
    Heal(Cx),
    /// Hero tokens.
    Token(String),
    /// Brutal Effectiveness, bought with Malice (DS-GAP-17).
    Brutal,
    /// Malicious Strike, bought with this much Malice (DS-GAP-17).
    MaliciousStrike(i32),
    /// A solo's End Effect: 10 damage to end a save-ends effect (DS-GAP-19).
    EndEffect,
    /// A solo's Solo Action: 5 Malice for a main action more, at once (DS-GAP-19).
    SoloAction,
    /// End the turn.
    EndTurn,
    /// End the turn, ready to spend a hero token on a failed save (DS-TOKEN-3).
    EndTurnTokenSave(ConditionKind),
}

fn who(s: &State, c: Cx) -> &str {
    &s.c(c).id
}

/// Action slots (DS-TURN-1, DS-TURN-2, DS-COND-DAZED).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The main action.
    Main,
    /// A maneuver.
    Maneuver,
    /// A move action.
    Move,
    /// No action (free maneuvers, hero tokens).
    Free,
}

/// Why a slot is not free now (DS-TURN-1, DS-TURN-2, DS-COND-DAZED, DS-CRIT-1): the cheap
/// test the menu asks; [`check_slot`] words it.
#[derive(Clone, Copy)]
enum SlotRefusal {
    ExtraIsMain,
    NotTurn,
    DazedDone,
    MainUsed,
    NoManeuver,
    NoMove,
    DazedFree,
    Minion,
    Defended,
}

fn slot_refusal(s: &State, c: Cx, slot: Slot, extra: bool) -> Option<SlotRefusal> {
    let a = s.c(c).acts;
    if extra {
        // DS-GAP-19: a creature that has Defended this turn takes no other main action.
        if slot == Slot::Main && s.c(c).defending && s.current == Some(c) {
            return Some(SlotRefusal::Defended);
        }
        return (slot != Slot::Main).then_some(SlotRefusal::ExtraIsMain);
    }
    if s.current != Some(c) {
        return Some(SlotRefusal::NotTurn);
    }
    let dazed = s.has(c, ConditionKind::Dazed);
    if dazed && a.done >= 1 && slot != Slot::Free {
        return Some(SlotRefusal::DazedDone);
    }
    // DS-GAP-19: a minion takes a move and a main action, a move and a maneuver, or two moves.
    if s.c(c).minion {
        match slot {
            Slot::Main if a.maneuvers >= 1 => return Some(SlotRefusal::Minion),
            Slot::Maneuver if a.maneuvers >= 1 || a.main => return Some(SlotRefusal::Minion),
            _ => {}
        }
    }
    match slot {
        // DS-GAP-19: Defended (as a Solo Action's extra main action): no other main action.
        Slot::Main if s.c(c).defending => Some(SlotRefusal::Defended),
        Slot::Main if a.main => Some(SlotRefusal::MainUsed),
        Slot::Maneuver if a.maneuvers >= 2 || (a.maneuvers == 1 && a.main) => Some(SlotRefusal::NoManeuver),
        Slot::Move if a.moves >= 2 || (a.moves == 1 && a.main) => Some(SlotRefusal::NoMove),
        Slot::Free if dazed => Some(SlotRefusal::DazedFree),
        _ => None,
    }
}

/// Whether [`check_slot`] allows the slot, with no refusal worded.
fn slot_ok(s: &State, c: Cx, slot: Slot, extra: bool) -> bool {
    slot_refusal(s, c, slot, extra).is_none()
}

/// Whether `c` may use a slot now; `extra` for a critical hit's extra action.
pub fn check_slot(s: &State, c: Cx, slot: Slot, extra: bool) -> Result<(), RuleError> {
    let Some(why) = slot_refusal(s, c, slot, extra) else { return Ok(()) };
    Err(match why {
        SlotRefusal::ExtraIsMain => RuleError::refused("DS-CRIT-1", "a critical hit's extra action is a main action"),
        SlotRefusal::NotTurn => RuleError::refused("DS-TURN-1", format!("it is not {}'s turn", who(s, c))),
        SlotRefusal::DazedDone => RuleError::refused(
            "DS-COND-DAZED",
            format!("{} is dazed and has already done its one thing this turn", who(s, c)),
        ),
        SlotRefusal::MainUsed => RuleError::refused("DS-TURN-1", format!("{} has used its main action", who(s, c))),
        SlotRefusal::NoManeuver => RuleError::refused(
            "DS-TURN-2",
            format!("{} has no maneuver left (a second one costs the main action)", who(s, c)),
        ),
        SlotRefusal::NoMove => RuleError::refused(
            "DS-TURN-2",
            format!("{} has no move action left (a second one costs the main action)", who(s, c)),
        ),
        SlotRefusal::DazedFree => {
            RuleError::refused("DS-COND-DAZED", format!("{} is dazed: no free maneuvers", who(s, c)))
        }
        SlotRefusal::Defended => {
            RuleError::refused("DS-GAP-19", format!("{} has Defended this turn: no other main action", who(s, c)))
        }
        SlotRefusal::Minion => RuleError::refused(
            "DS-GAP-19",
            format!("{} is a minion: a move and a main action, a move and a maneuver, or two moves", who(s, c)),
        ),
    })
}

fn slot_of(u: Usage) -> Slot {
    match u {
        Usage::Main => Slot::Main,
        Usage::Maneuver => Slot::Maneuver,
        Usage::Move => Slot::Move,
        Usage::Triggered | Usage::FreeTriggered | Usage::Malice | Usage::Villain => Slot::Free,
    }
}

/// Speed now (DS-COND-GRAB-1, DS-COND-RESTR-1, DS-COND-SLOW).
pub fn speed(s: &State, c: Cx) -> i32 {
    let x = s.c(c);
    // `s.has` of each condition read, the conditions walked once.
    let (mut held, mut slowed) = (false, false);
    for k in &x.conditions {
        match k.kind {
            ConditionKind::Grabbed | ConditionKind::Restrained => held = true,
            ConditionKind::Slowed => slowed = true,
            _ => {}
        }
    }
    if held {
        return 0;
    }
    let mut v = x.speed + s.captain_bonus(c).map_or(0, |w| w.speed);
    if slowed {
        v = v.min(2);
    }
    // Holding a creature its size or larger halves the grabber's speed (`s.active()` walked
    // directly, `source_of` read in place).
    let rank = x.size.rank();
    if s.creatures.iter().any(|o| {
        o.active()
            && o.conditions.iter().find(|k| k.kind == ConditionKind::Grabbed).and_then(|k| k.source) == Some(c)
            && o.size.rank() >= rank
    }) {
        v /= 2;
    }
    v
}

fn occupied_by_other(s: &State, c: Cx, q: Pos) -> Option<Cx> {
    // `s.active()` walked directly, each creature read once.
    s.creatures.iter().enumerate().find_map(|(o, y)| {
        let at = y.pos?;
        (!y.dead && o as Cx != c && distance(at, y.size.squares, q, 1) == 0).then_some(o as Cx)
    })
}

/// Cost of stepping into `q` (DS-GAP-9): 1; +1 difficult terrain or an enemy's square; +1 a
/// square while crawling prone (DS-COND-PRONE-1). `None` where it cannot go. `run_up` says the
/// step follows a straight run of two squares in its direction (DS-JUMP-4).
fn step_cost(s: &State, c: Cx, from: Pos, q: Pos, charging: bool) -> Option<u32> {
    step_cost_run(s, c, from, q, charging, false)
}

/// How high `c` can jump now (DS-JUMP-4, DS-DELTA-11): 1 square; published, a jump test adds
/// its squares to height as well as length; glossary, a two-square straight run-up adds 1.
pub fn jump_height(s: &State, c: Cx, run_up: bool) -> i32 {
    let glossary = s.options.jumping == crate::options::Text::Glossary;
    1 + if glossary { i32::from(run_up) } else { s.c(c).acts.jump_extra }
}

/// How far `c` can long-jump now (DS-JUMP-1..3, DS-DELTA-11): its Might or Agility (at least 1),
/// plus a jump test's squares, plus 1 after a run-up under the glossary's rule.
pub fn jump_length(s: &State, c: Cx, run_up: bool) -> i32 {
    let x = s.c(c);
    let glossary = s.options.jumping == crate::options::Text::Glossary;
    x.char(Characteristic::Might).max(x.char(Characteristic::Agility)).max(1)
        + x.acts.jump_extra
        + i32::from(glossary && run_up)
}

/// Whether `c` can jump from `p` at all (DS-JUMP-5, DS-COND-PRONE-1): not prone, not out of
/// difficult or damaging terrain, one square in size.
fn can_jump_from(s: &State, c: Cx, p: Pos) -> bool {
    s.c(c).size.squares == 1
        && !matches!(s.terrain_at(p), Terrain::Difficult | Terrain::Damaging)
        && !s.has(c, ConditionKind::Prone)
}

/// What a step's cost reads of the map: terrain (walls and objects counted) and who else
/// stands where.
trait Footing {
    fn terrain(&self, s: &State, p: Pos) -> Terrain;
    fn other_at(&self, s: &State, c: Cx, p: Pos) -> Option<Cx>;
}

/// The map read square by square as it is asked.
struct Direct;

impl Footing for Direct {
    fn terrain(&self, s: &State, p: Pos) -> Terrain {
        s.terrain_at(p)
    }
    fn other_at(&self, s: &State, c: Cx, p: Pos) -> Option<Cx> {
        occupied_by_other(s, c, p)
    }
}

/// One square as a mover's [`Ground`] reads it.
#[derive(Clone, Copy)]
struct Square {
    /// `terrain_at`: the map, the standing objects over it, the raised walls over those.
    terrain: Terrain,
    /// The first other creature standing on it (as [`occupied_by_other`] finds it).
    other: Option<Cx>,
    /// `other` is an enemy of the mover.
    hostile: bool,
    /// The ground's height (`arena.ground`).
    ground: i32,
}

/// The map as one mover's route search reads it, each square looked up once (the map and a
/// border around it), with what the mover's steps ask of itself (size, prone,
/// jumping) worked out once.
struct Ground {
    /// The border's width: the mover's size (at least 1).
    pad: i32,
    /// The map's width and height, with the border.
    width: i32,
    height: i32,
    squares: Vec<Square>,
    /// Whether any square is a chasm (without one, no long jump is possible).
    chasm: bool,
    c: Cx,
    size: i32,
    prone: bool,
    /// [`jump_height`] and [`jump_length`] with no run-up.
    jump_height: i32,
    jump_length: i32,
}

/// The part of a [`Ground`] that reads only the map (terrain, heights, standing objects, raised
/// walls) and the border's width: the same for every mover of that size on that map.
struct GroundBase {
    /// The arena, held so that its address names it.
    arena: Arc<crate::state::Arena>,
    walls: Vec<Pos>,
    objects: Vec<(Pos, i32, bool, usize)>,
    pad: i32,
    width: i32,
    height: i32,
    squares: Vec<Square>,
    chasm: bool,
}

/// Map bases kept ([`GroundBase`]), the one asked last first.
const GROUND_BASES_KEPT: usize = 4;

thread_local! {
    /// GROUND_BASES: [`GroundBase`]s built before, each kept with what it read.
    static GROUND_BASES: std::cell::RefCell<Vec<GroundBase>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl GroundBase {
    fn is_for(&self, s: &State, pad: i32) -> bool {
        self.pad == pad
            && Arc::ptr_eq(&self.arena, &s.arena)
            && self.walls == s.walls
            && self.objects.len() == s.objects.len()
            && self.objects.iter().zip(&s.objects).all(|(k, o)| *k == object_key(o))
    }

    fn new(s: &State, pad: i32) -> Self {
        let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
        let (width, height) = (w + 2 * pad, h + 2 * pad);
        // Off the map: edge, ground 0 (`arena.at`, `arena.ground`).
        let edge = Square { terrain: Terrain::Edge, other: None, hostile: false, ground: 0 };
        let mut squares = vec![edge; (width * height).max(0) as usize];
        let heights = (s.arena.height.width() == w && s.arena.height.height() == h).then(|| s.arena.height.cells());
        if w > 0 {
            for (y, row) in s.arena.terrain.cells().chunks(w as usize).enumerate() {
                let at = ((y as i32 + pad) * width + pad) as usize;
                for (x, (sq, &t)) in squares[at..at + row.len()].iter_mut().zip(row).enumerate() {
                    sq.terrain = t;
                    sq.ground = heights.map_or(0, |g| g[y * w as usize + x]);
                }
            }
        }
        if heights.is_none() {
            for y in -pad..h + pad {
                for x in -pad..w + pad {
                    squares[((y + pad) * width + x + pad) as usize].ground = s.arena.ground(Pos::new(x, y));
                }
            }
        }
        let cell = |p: Pos| {
            let (x, y) = (p.x + pad, p.y + pad);
            ((x as u32) < width as u32 && (y as u32) < height as u32).then_some((y * width + x) as usize)
        };
        // As `terrain_at` reads it: the standing objects over the map, the raised walls over
        // those.
        for o in s.objects.iter().filter(|o| !o.toppled) {
            for q in o.squares() {
                if let Some(i) = cell(q) {
                    squares[i].terrain = Terrain::Object;
                }
            }
        }
        for &w in &s.walls {
            if let Some(i) = cell(w) {
                squares[i].terrain = Terrain::Wall;
            }
        }
        let chasm = squares.iter().any(|q| q.terrain == Terrain::Chasm);
        GroundBase {
            arena: s.arena.clone(),
            walls: s.walls.clone(),
            objects: s.objects.iter().map(object_key).collect(),
            pad,
            width,
            height,
            squares,
            chasm,
        }
    }
}

impl Ground {
    fn new(s: &State, c: Cx) -> Self {
        // The border is as wide as the mover, so that every square of a step's footprint is in
        // the table.
        let size = s.c(c).size.squares;
        let pad = size.max(1);
        let base = |b: &GroundBase| (b.width, b.height, b.squares.clone(), b.chasm);
        let (width, height, squares, chasm) = GROUND_BASES.with(|bases| match bases.try_borrow_mut() {
            Ok(mut bases) => {
                if !bases.first().is_some_and(|b| b.is_for(s, pad)) {
                    match bases.iter().position(|b| b.is_for(s, pad)) {
                        Some(k) => {
                            let b = bases.remove(k);
                            bases.insert(0, b);
                        }
                        None => {
                            bases.truncate(GROUND_BASES_KEPT - 1);
                            bases.insert(0, GroundBase::new(s, pad));
                        }
                    }
                }
                base(&bases[0])
            }
            Err(_) => base(&GroundBase::new(s, pad)),
        });
        let mut ground = Ground {
            pad,
            width,
            height,
            squares,
            chasm,
            c,
            size,
            prone: s.has(c, ConditionKind::Prone),
            jump_height: jump_height(s, c, false),
            jump_length: jump_length(s, c, false),
        };
        for o in s.active().filter(|&o| o != c) {
            let hostile = s.enemies(c, o);
            for q in footprint(s.c(o).pos.unwrap(), s.c(o).size.squares) {
                if let Some(i) = ground.cell(q) {
                    let sq = &mut ground.squares[i];
                    if sq.other.is_none() {
                        sq.other = Some(o);
                        sq.hostile = hostile;
                    }
                }
            }
        }
        ground
    }
    #[inline]
    fn cell(&self, p: Pos) -> Option<usize> {
        let (x, y) = (p.x + self.pad, p.y + self.pad);
        // A negative coordinate wraps to a large unsigned one: one compare per axis.
        ((x as u32) < self.width as u32 && (y as u32) < self.height as u32).then_some((y * self.width + x) as usize)
    }
    /// `s.terrain_at(p)`.
    #[inline]
    fn terrain(&self, s: &State, p: Pos) -> Terrain {
        self.cell(p).map_or_else(|| s.terrain_at(p), |i| self.squares[i].terrain)
    }
    /// `s.arena.ground(p)`.
    #[inline]
    fn ground(&self, s: &State, p: Pos) -> i32 {
        self.cell(p).map_or_else(|| s.arena.ground(p), |i| self.squares[i].ground)
    }
    /// `occupied_by_other(s, c, p)`.
    #[inline]
    fn other_at(&self, s: &State, p: Pos) -> Option<Cx> {
        self.cell(p).map_or_else(|| occupied_by_other(s, self.c, p), |i| self.squares[i].other)
    }
    /// Whether another creature standing at `p` is an enemy of the mover.
    #[inline]
    fn hostile_at(&self, s: &State, p: Pos) -> bool {
        self.cell(p).map_or_else(
            || occupied_by_other(s, self.c, p).is_some_and(|o| s.enemies(self.c, o)),
            |i| self.squares[i].hostile,
        )
    }
    /// [`can_jump_from`] for the mover.
    #[inline]
    fn can_jump_from(&self, s: &State, p: Pos) -> bool {
        self.size == 1 && !matches!(self.terrain(s, p), Terrain::Difficult | Terrain::Damaging) && !self.prone
    }
    /// [`jumps`] with no run-up, pushed onto `out`.
    fn jumps_into(&self, s: &State, p: Pos, out: &mut Vec<(Pos, u32)>) {
        // Every jump crosses a chasm square first.
        if !self.chasm || !self.can_jump_from(s, p) {
            return;
        }
        for (dx, dy) in fray_core::grid::NEIGHBOUR_OFFSETS {
            let length = self.jump_length;
            let mut k = 0;
            while k < length && self.terrain(s, p.offset(dx * (k + 1), dy * (k + 1))) == Terrain::Chasm {
                k += 1;
            }
            let land = p.offset(dx * (k + 1), dy * (k + 1));
            let climb = self.ground(s, land) - self.ground(s, p);
            if k > 0
                && self.terrain(s, land).standable()
                && self.other_at(s, land).is_none()
                && climb <= self.jump_height
            {
                out.push((land, (k + 1).max(climb) as u32));
            }
        }
    }
}

thread_local! {
    /// Route-search buffers, reused from search to search (they hold no state between calls).
    static SCRATCH: std::cell::RefCell<ReachScratch> = std::cell::RefCell::new(ReachScratch::new());
}

/// Runs `f` with the thread's route-search buffers (a fresh set if they are in use).
fn with_scratch<R>(f: impl FnOnce(&mut ReachScratch) -> R) -> R {
    // Every step costs at least 1 (`step_cost_ground`, `Ground::jumps_into`).
    SCRATCH.with(|sc| match sc.try_borrow_mut() {
        Ok(mut sc) => f(sc.min_step(1)),
        Err(_) => f(ReachScratch::new().min_step(1)),
    })
}

/// Everything a mover's route search reads of a state (its [`Ground`], its start and budget):
/// the map (the arena, held so that its address names it; raised walls; objects), where each
/// creature stands, its size and side, and the mover's own size, prone, jump reach and budget.
#[derive(Default)]
struct RouteKey {
    arena: Option<Arc<crate::state::Arena>>,
    walls: Vec<Pos>,
    objects: Vec<(Pos, i32, bool, usize)>,
    creatures: Vec<(bool, Option<Pos>, i32, crate::state::Side)>,
    c: Cx,
    prone: bool,
    jump_height: i32,
    jump_length: i32,
    budget: u32,
}

fn object_key(o: &crate::state::MapObject) -> (Pos, i32, bool, usize) {
    (o.at, if o.oblong { 1 } else { o.size.squares }, o.toppled, o.destroyed())
}

fn creature_key(x: &crate::state::Creature) -> (bool, Option<Pos>, i32, crate::state::Side) {
    (x.active(), x.pos, x.size.squares, x.side)
}

impl RouteKey {
    fn mover(s: &State, c: Cx) -> (bool, i32, i32) {
        (s.has(c, ConditionKind::Prone), jump_height(s, c, false), jump_length(s, c, false))
    }
    fn matches(&self, s: &State, c: Cx, budget: u32) -> bool {
        self.c == c
            && self.budget == budget
            && self.arena.as_ref().is_some_and(|a| Arc::ptr_eq(a, &s.arena))
            && self.creatures.len() == s.creatures.len()
            && self.creatures.iter().zip(&s.creatures).all(|(k, x)| *k == creature_key(x))
            && self.walls == s.walls
            && self.objects.len() == s.objects.len()
            && self.objects.iter().zip(&s.objects).all(|(k, o)| *k == object_key(o))
            && (self.prone, self.jump_height, self.jump_length) == Self::mover(s, c)
    }
    fn of(s: &State, c: Cx, budget: u32) -> Self {
        let (prone, jump_height, jump_length) = Self::mover(s, c);
        RouteKey {
            arena: Some(s.arena.clone()),
            walls: s.walls.clone(),
            objects: s.objects.iter().map(object_key).collect(),
            creatures: s.creatures.iter().map(creature_key).collect(),
            c,
            prone,
            jump_height,
            jump_length,
            budget,
        }
    }
}

/// Route searches made before, each under the [`RouteKey`] of what it read: a search asked again
/// on a state that reads the same (the menu, its square question and the answer's check, all on
/// one mover) is answered from here. A key holds everything the search reads, so an answer kept
/// here is the answer the search would give.
#[derive(Default)]
struct RouteMemo {
    /// Whole Advance searches (not glossary jumping), newest first; their reached squares in
    /// the order found (not row by row: [`row_order`]).
    advance: Vec<(RouteKey, fray_core::geometry::Reach)>,
    /// The squares a charge's four quadrant searches reach, in [`charge_ends`] order, newest
    /// first.
    charge: Vec<(RouteKey, Vec<Pos>)>,
}

/// Entries kept of each kind in the [`RouteMemo`].
const ROUTES_KEPT: usize = 4;

thread_local! {
    /// ROUTES: a [`RouteMemo`] (answers keyed by everything their search reads).
    static ROUTES: std::cell::RefCell<RouteMemo> = std::cell::RefCell::new(RouteMemo::default());
}

/// Runs `f` on the whole Advance search of `c` with `budget` (not glossary jumping), kept from
/// an earlier search of the same key or searched now (and kept).
fn with_advance<R>(s: &State, c: Cx, start: Pos, budget: u32, f: impl FnOnce(&fray_core::geometry::Reach) -> R) -> R {
    let search = |sc: &mut ReachScratch| {
        let ground = Ground::new(s, c);
        let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
        // The whole search (nothing accepted), its reached squares left in the order found.
        sc.find_pruned(w, h, start, budget, advance_edges(&ground, s), |_| false);
        sc.reach().clone()
    };
    ROUTES.with(|m| match m.try_borrow_mut() {
        Ok(mut m) => {
            if let Some(k) = m.advance.iter().position(|(key, _)| key.matches(s, c, budget)) {
                let e = m.advance.remove(k);
                m.advance.insert(0, e);
            } else {
                let reach = with_scratch(search);
                m.advance.truncate(ROUTES_KEPT - 1);
                m.advance.insert(0, (RouteKey::of(s, c, budget), reach));
            }
            f(&m.advance[0].1)
        }
        Err(_) => f(&with_scratch(search)),
    })
}

/// A kept Advance search of `c` with `budget`, if there is one, given to `f`.
fn kept_advance<R>(s: &State, c: Cx, budget: u32, f: impl FnOnce(&fray_core::geometry::Reach) -> R) -> Option<R> {
    ROUTES.with(|m| {
        let m = m.try_borrow().ok()?;
        m.advance.iter().find(|(key, _)| key.matches(s, c, budget)).map(|(_, r)| f(r))
    })
}

/// The squares a charge's quadrant searches reach (see [`charge_ends`]), kept or searched now.
fn with_charge_reach<R>(s: &State, c: Cx, start: Pos, budget: u32, f: impl FnOnce(&[Pos]) -> R) -> R {
    let search = || {
        let ground = Ground::new(s, c);
        let mut seen: Vec<Pos> = Vec::new();
        let mut cost = Vec::new();
        // The squares already in `seen` (all on the map).
        let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
        let mut listed = vec![false; (w.max(0) * h.max(0)) as usize];
        for quadrant in QUADRANTS {
            let whole = (budget as i32, budget as i32);
            quadrant_costs(&ground, s, start, budget, quadrant, whole, &mut cost, |_| false);
            quadrant_squares(start, budget, quadrant, &cost, |q| {
                let i = (q.y * w + q.x) as usize;
                if !listed[i] {
                    listed[i] = true;
                    seen.push(q);
                }
            });
        }
        debug_assert_eq!(seen, {
            let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
            let mut searched: Vec<Pos> = Vec::new();
            with_scratch(|sc| {
                for quadrant in QUADRANTS {
                    for q in sc.search_pruned(w, h, start, budget, charge_edges(&ground, s, quadrant)).squares() {
                        if !searched.contains(&q) {
                            searched.push(q);
                        }
                    }
                }
            });
            searched
        });
        seen
    };
    ROUTES.with(|m| match m.try_borrow_mut() {
        Ok(mut m) => {
            if let Some(k) = m.charge.iter().position(|(key, _)| key.matches(s, c, budget)) {
                let e = m.charge.remove(k);
                m.charge.insert(0, e);
            } else {
                let seen = search();
                m.charge.truncate(ROUTES_KEPT - 1);
                m.charge.insert(0, (RouteKey::of(s, c, budget), seen));
            }
            f(&m.charge[0].1)
        }
        Err(_) => f(&search()),
    })
}

/// Kept charge squares of `c` with `budget`, if there are some, given to `f`.
fn kept_charge_reach<R>(s: &State, c: Cx, budget: u32, f: impl FnOnce(&[Pos]) -> R) -> Option<R> {
    ROUTES.with(|m| {
        let m = m.try_borrow().ok()?;
        m.charge.iter().find(|(key, _)| key.matches(s, c, budget)).map(|(_, r)| f(r))
    })
}

/// An Advance's steps over a mover's [`Ground`] (not a charge): single steps and long jumps.
/// Steps the search would ignore ([`Frontier::may_improve`]) are not judged.
fn advance_edges<'a>(ground: &'a Ground, s: &'a State) -> impl FnMut(Pos, &Frontier, &mut Vec<(Pos, u32)>) + 'a {
    move |p, f, out| {
        match ground.cell(p) {
            // A one-square mover on the map: its steps read straight from the table
            // (`step_cost_ground`'s own reading, not charging); every neighbour is in it.
            Some(fi) if ground.size == 1 && s.arena.terrain.get(p).is_some() => {
                let from = ground.squares[fi];
                for (dx, dy) in fray_core::grid::NEIGHBOUR_OFFSETS {
                    let q = p.offset(dx, dy);
                    if !f.may_improve(q) {
                        continue;
                    }
                    let t = &ground.squares[(fi as i32 + dx + dy * ground.width) as usize];
                    let step = (|| {
                        let mut cost = 1;
                        let dz = t.ground - from.ground;
                        if !(-1..=0).contains(&dz) {
                            if ground.prone {
                                return None;
                            }
                            let jump = dz > 0
                                && !matches!(from.terrain, Terrain::Difficult | Terrain::Damaging)
                                && dz <= ground.jump_height;
                            cost = if jump { dz as u32 } else { 2 * dz.unsigned_abs() };
                        }
                        if !t.terrain.standable() {
                            return None;
                        }
                        if t.terrain == Terrain::Difficult || t.hostile {
                            cost = cost.max(2);
                        }
                        if dx != 0
                            && dy != 0
                            && !ground.squares[(fi as i32 + dx) as usize].terrain.standable()
                            && !ground.squares[(fi as i32 + dy * ground.width) as usize].terrain.standable()
                        {
                            return None;
                        }
                        Some(if ground.prone { cost + 1 } else { cost })
                    })();
                    debug_assert_eq!(step, step_cost_ground(ground, s, p, q, false));
                    if let Some(cost) = step {
                        out.push((q, cost));
                    }
                }
            }
            _ => {
                for q in p.neighbours() {
                    if f.may_improve(q)
                        && let Some(cost) = step_cost_ground(ground, s, p, q, false)
                    {
                        out.push((q, cost));
                    }
                }
            }
        }
        ground.jumps_into(s, p, out);
    }
}

fn step_cost_run(s: &State, c: Cx, from: Pos, q: Pos, charging: bool, run_up: bool) -> Option<u32> {
    step_cost_on(&Direct, s, c, from, q, charging, run_up)
}

/// [`step_cost`] over a mover's [`Ground`]: [`step_cost_on`] with the mover's own questions
/// answered once.
fn step_cost_ground(g: &Ground, s: &State, from: Pos, q: Pos, charging: bool) -> Option<u32> {
    let size = g.size;
    if let (Some(fi), Some(qi)) = (g.cell(from), g.cell(q))
        && (size == 1 || g.cell(q.offset(size - 1, size - 1)).is_some())
    {
        // Every square of the step in the table: read straight from it.
        let (f, t) = (&g.squares[fi], &g.squares[qi]);
        let mut cost = 1;
        let dz = t.ground - f.ground;
        if !(-1..=0).contains(&dz) {
            if g.prone {
                return None;
            }
            let jump = dz > 0
                && size == 1
                && !matches!(f.terrain, Terrain::Difficult | Terrain::Damaging)
                && dz <= g.jump_height;
            cost = if jump { dz as u32 } else { 2 * dz.unsigned_abs() };
        }
        if size == 1 {
            // The common case, unrolled: the one square stepped into.
            if !t.terrain.standable() {
                return None;
            }
            if t.terrain == Terrain::Difficult && q != from {
                if charging {
                    return None; // DS-DELTA-13
                }
                cost = cost.max(2);
            }
            if t.hostile {
                cost = cost.max(2);
            }
            let (dx, dy) = (q.x - from.x, q.y - from.y);
            // The two corner squares share a row or a column with `from` and `q`, both in the
            // table, so they are in it too: read them by offset.
            if dx != 0
                && dy != 0
                && !g.squares[(fi as i32 + dx) as usize].terrain.standable()
                && !g.squares[(fi as i32 + dy * g.width) as usize].terrain.standable()
            {
                return None;
            }
            return Some(if g.prone { cost + 1 } else { cost });
        }
        let width = g.width as usize;
        for dy in 0..size {
            for dx in 0..size {
                let sq = &g.squares[qi + dy as usize * width + dx as usize];
                if !sq.terrain.standable() {
                    return None;
                }
                // Difficult terrain counts where the mover was not already standing.
                let (x, y) = (q.x + dx, q.y + dy);
                if sq.terrain == Terrain::Difficult
                    && !((from.x..from.x + size).contains(&x) && (from.y..from.y + size).contains(&y))
                {
                    if charging {
                        return None; // DS-DELTA-13
                    }
                    cost = cost.max(2);
                }
                if sq.hostile {
                    cost = cost.max(2);
                }
            }
        }
        let (dx, dy) = (q.x - from.x, q.y - from.y);
        if dx != 0
            && dy != 0
            && size == 1
            && !g.terrain(s, from.offset(dx, 0)).standable()
            && !g.terrain(s, from.offset(0, dy)).standable()
        {
            return None;
        }
        if g.prone {
            cost += 1;
        }
        return Some(cost);
    }
    let mut cost = 1;
    let dz = g.ground(s, q) - g.ground(s, from);
    if !(-1..=0).contains(&dz) {
        if g.prone {
            return None;
        }
        let jump = dz > 0 && g.can_jump_from(s, from) && dz <= g.jump_height;
        cost = if jump { dz as u32 } else { 2 * dz.unsigned_abs() };
    }
    for sq in footprint(q, size) {
        let t = g.terrain(s, sq);
        if !t.standable() {
            return None;
        }
        if t == Terrain::Difficult && distance(from, size, sq, 1) > 0 {
            if charging {
                return None; // DS-DELTA-13
            }
            cost = cost.max(2);
        }
        if g.hostile_at(s, sq) {
            cost = cost.max(2);
        }
    }
    let (dx, dy) = (q.x - from.x, q.y - from.y);
    if dx != 0
        && dy != 0
        && size == 1
        && !g.terrain(s, from.offset(dx, 0)).standable()
        && !g.terrain(s, from.offset(0, dy)).standable()
    {
        return None;
    }
    if g.prone {
        cost += 1;
    }
    Some(cost)
}

/// What a step from `from` to `q` costs for the height between them (DS-GAP-9, DS-JUMP-4): a
/// square of height is a ledge to climb, 2 movement a square (up or down), unless the creature
/// can jump that high; level ground or one square down is a plain step of 1. Prone creatures
/// neither climb nor jump (`None`).
#[inline]
fn ledge_cost(s: &State, c: Cx, from: Pos, q: Pos, prone: bool, run_up: bool) -> Option<u32> {
    let dz = s.arena.ground(q) - s.arena.ground(from);
    if (-1..=0).contains(&dz) {
        return Some(1);
    }
    if prone {
        return None;
    }
    let jump = dz > 0 && can_jump_from(s, c, from) && dz <= jump_height(s, c, run_up);
    Some(if jump { dz as u32 } else { 2 * dz.unsigned_abs() })
}

fn step_cost_on(f: &impl Footing, s: &State, c: Cx, from: Pos, q: Pos, charging: bool, run_up: bool) -> Option<u32> {
    let size = s.c(c).size.squares;
    let prone = s.has(c, ConditionKind::Prone);
    let mut cost = ledge_cost(s, c, from, q, prone, run_up)?;
    let mut into = |sq: Pos| -> Option<()> {
        let t = f.terrain(s, sq);
        if !t.standable() {
            return None;
        }
        if distance(from, size, sq, 1) > 0 && t == Terrain::Difficult {
            if charging {
                return None; // DS-DELTA-13
            }
            cost = cost.max(2);
        }
        if f.other_at(s, c, sq).is_some_and(|o| s.enemies(c, o)) {
            cost = cost.max(2);
        }
        Some(())
    };
    if size == 1 {
        // A one-square footprint is its square.
        into(q)?;
    } else {
        for sq in footprint(q, size) {
            into(sq)?;
        }
    }
    // No cutting around wall corners.
    let (dx, dy) = (q.x - from.x, q.y - from.y);
    if dx != 0
        && dy != 0
        && size == 1
        && !f.terrain(s, from.offset(dx, 0)).standable()
        && !f.terrain(s, from.offset(0, dy)).standable()
    {
        return None;
    }
    if prone {
        cost += 1;
    }
    Some(cost)
}

fn can_end(s: &State, c: Cx, p: Pos) -> bool {
    let size = s.c(c).size.squares;
    // A one-square footprint is its square.
    let standable =
        if size == 1 { s.terrain_at(p).standable() } else { footprint(p, size).all(|q| s.terrain_at(q).standable()) };
    standable && occupant(s, c, p).is_none()
}

/// [`can_end`] for a square a route search of `c` reached: every step and jump into a square
/// checks that its squares can be stood on, so only the occupants are asked.
fn reached_end(s: &State, c: Cx, p: Pos) -> bool {
    debug_assert!(footprint(p, s.c(c).size.squares).all(|q| s.terrain_at(q).standable()));
    occupant(s, c, p).is_none()
}

/// The other creatures [`occupant`] may find for `c` (square and size): only their spaces can
/// stop `c` ending a move.
fn end_blockers(s: &State, c: Cx) -> Vec<(Pos, i32)> {
    let size = s.c(c).size.squares;
    s.creatures
        .iter()
        .enumerate()
        .filter(|&(o, y)| !y.dead && o as Cx != c && (y.size.squares - size).abs() < 2)
        .filter_map(|(_, y)| Some((y.pos?, y.size.squares)))
        .collect()
}

/// The creature whose space `c` may not end its move in at `p` (DS-GAP-9): another creature
/// there, unless their sizes are 2 or more apart. Sizes count by squares (1, 2, 3 ...): the
/// letters of size 1 do not make a medium creature small enough to stand inside a size 2 one
/// (docs/rulings/drawsteel.md).
pub fn occupant(s: &State, c: Cx, p: Pos) -> Option<Cx> {
    let size = s.c(c).size.squares;
    // `s.active()` walked directly, each creature read once.
    s.creatures.iter().enumerate().find_map(|(o, y)| {
        let o = o as Cx;
        let at = y.pos?;
        (!y.dead && o != c && distance(at, y.size.squares, p, size) == 0 && (y.size.squares - size).abs() < 2)
            .then_some(o)
    })
}

/// The refusal for ending a move in an occupied space (DS-GAP-9), if `p` is one.
fn occupied_error(s: &State, c: Cx, p: Pos) -> Result<(), RuleError> {
    match occupant(s, c, p) {
        Some(o) => Err(RuleError::refused(
            "DS-GAP-9",
            format!(
                "{p} is occupied by {} (size {}): {} (size {}) can't end its move there",
                who(s, o),
                s.c(o).size.label(),
                who(s, c),
                s.c(c).size.label()
            ),
        )),
        None => Ok(()),
    }
}

/// The squares `c` may still advance this move: what is left of a move action under way, or a
/// new one's worth of its speed (DS-TURN-1).
pub fn move_budget(s: &State, c: Cx) -> i32 {
    let left = s.c(c).acts.move_left;
    if left > 0 { left.min(speed(s, c)) } else { speed(s, c) }
}

/// How far an Advance can go now: a fresh move action's speed if one is left, otherwise what
/// remains of the current one.
fn advance_budget(s: &State, c: Cx) -> i32 {
    if slot_ok(s, c, Slot::Move, false) { speed(s, c) } else { move_budget(s, c) }
}

/// Whether a route of this cost continues the move action under way (it fits in what is left)
/// or needs a fresh move action (DS-TURN-1, DS-TURN-2).
fn continues_move(s: &State, c: Cx, cost: i32) -> bool {
    s.c(c).acts.move_left > 0 && s.current == Some(c) && cost <= move_budget(s, c)
}

/// Long jumps from `p` over chasm squares (DS-JUMP-1..3, DS-JUMP-5): up to [`jump_length`]
/// squares of gap, as part of its move, landing on the far side; never out of difficult or
/// damaging terrain, nor while prone. The squares crossed count as movement. `run_up` names the
/// direction of a two-square straight run just made, if any.
pub fn jumps(s: &State, c: Cx, p: Pos, run_up: Option<(i32, i32)>) -> Vec<(Pos, u32)> {
    if !can_jump_from(s, c, p) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (dx, dy) in fray_core::grid::NEIGHBOUR_OFFSETS {
        let length = jump_length(s, c, run_up == Some((dx, dy)));
        let mut k = 0;
        while k < length && s.terrain_at(p.offset(dx * (k + 1), dy * (k + 1))) == Terrain::Chasm {
            k += 1;
        }
        let land = p.offset(dx * (k + 1), dy * (k + 1));
        // The far side may be higher only as far as the jump reaches up (DS-JUMP-4).
        let climb = s.arena.ground(land) - s.arena.ground(p);
        if k > 0
            && s.terrain_at(land).standable()
            && occupied_by_other(s, c, land).is_none()
            && climb <= jump_height(s, c, run_up == Some((dx, dy)))
        {
            out.push((land, (k + 1).max(climb) as u32));
        }
    }
    out
}

/// The direction of the last two single steps of a route, if they ran straight (a run-up).
fn run_up_of(start: Pos, path: &[Pos]) -> Option<(i32, i32)> {
    let n = path.len();
    let (a, b, c) = match n {
        0 | 1 => return None,
        2 => (start, path[0], path[1]),
        _ => (path[n - 3], path[n - 2], path[n - 1]),
    };
    let d1 = (b.x - a.x, b.y - a.y);
    let d2 = (c.x - b.x, c.y - b.y);
    (d1 == d2 && d1.0.abs() <= 1 && d1.1.abs() <= 1).then_some(d1)
}

/// Cost of walking an explicit route, if every step is legal.
pub fn route_cost(s: &State, c: Cx, path: &[Pos]) -> Option<i32> {
    let start = s.c(c).pos?;
    let mut at = start;
    let mut cost = 0;
    for (i, &q) in path.iter().enumerate() {
        let run = run_up_of(start, &path[..i]);
        if distance(at, 1, q, 1) != 1 {
            // A long jump over a chasm (DS-JUMP-1).
            cost += jumps(s, c, at, run).into_iter().find(|(l, _)| *l == q)?.1 as i32;
        } else {
            let dir = (q.x - at.x, q.y - at.y);
            cost += step_cost_run(s, c, at, q, false, run == Some(dir))? as i32;
        }
        at = q;
    }
    Some(cost)
}

/// Where `c` can advance to, with routes.
pub fn destinations(s: &State, c: Cx, budget: i32, charge_line: bool) -> Vec<(Pos, Vec<Pos>)> {
    let Some(start) = s.c(c).pos else { return vec![] };
    let fright = s.source_of(c, ConditionKind::Frightened);
    // DS-COND-FRIGHT: not willingly closer to a known source of fear.
    let unafraid = |q: Pos| {
        fright.is_none_or(|f| {
            s.c(f).pos.is_none_or(|fp| {
                distance(q, s.c(c).size.squares, fp, s.c(f).size.squares) >= s.distance(c, f).unwrap_or(0)
            })
        })
    };
    if charge_line {
        return charge_runs(s, c, start, budget)
            .into_iter()
            .filter(|(q, _)| reached_end(s, c, *q) && unafraid(*q))
            .collect();
    }
    let ground = Ground::new(s, c);
    let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
    let r = with_scratch(|sc| sc.search_pruned(w, h, start, budget.max(0) as u32, advance_edges(&ground, s)).clone());
    // Glossary jumping (DS-JUMP-2, DS-JUMP-4): a straight run of two squares lets the next
    // jump go a square farther and higher; offered as one more leap from each run's end.
    let mut extra: Vec<(Pos, Vec<Pos>)> = Vec::new();
    if s.options.jumping == crate::options::Text::Glossary {
        for p in r.squares() {
            for dir in fray_core::grid::NEIGHBOUR_OFFSETS {
                // The run-up: two straight steps into `p` from the direction `dir` comes from.
                let (b, a) = (p.offset(-dir.0, -dir.1), p.offset(-2 * dir.0, -2 * dir.1));
                let before = if a == start { Some((0, Vec::new())) } else { r.cost(a).zip(r.path_to(a)) };
                let Some((spent, mut route)) = before else { continue };
                let (Some(k1), Some(k2)) = (step_cost(s, c, a, b, false), step_cost(s, c, b, p, false)) else {
                    continue;
                };
                route.extend([b, p]);
                let q = p.offset(dir.0, dir.1);
                let mut leaps: Vec<(Pos, u32)> = jumps(s, c, p, Some(dir));
                if let Some(k) = step_cost_run(s, c, p, q, false, true) {
                    leaps.push((q, k));
                }
                for (land, k) in leaps {
                    let total = spent + k1 + k2 + k;
                    if total <= budget.max(0) as u32
                        && r.cost(land).is_none_or(|known| known > total)
                        && can_end(s, c, land)
                        && !extra.iter().any(|(e, _)| *e == land)
                    {
                        let mut leap = route.clone();
                        leap.push(land);
                        extra.push((land, leap));
                    }
                }
            }
        }
    }
    let mut found: Vec<(Pos, Vec<Pos>)> = r
        .squares()
        .filter(|&q| reached_end(s, c, q) && unafraid(q))
        .filter_map(|q| r.path_to(q).map(|path| (q, path)))
        .collect();
    for (q, route) in extra.into_iter().filter(|(q, _)| unafraid(*q)) {
        match found.iter_mut().find(|(f, _)| *f == q) {
            Some(f) => f.1 = route,
            None => found.push((q, route)),
        }
    }
    found
}

/// The squares [`destinations`] (not a charge) offers, in its order, without their routes.
pub fn destination_squares(s: &State, c: Cx, budget: i32) -> Vec<Pos> {
    let Some(start) = s.c(c).pos else { return vec![] };
    if s.options.jumping == crate::options::Text::Glossary {
        return destinations(s, c, budget, false).into_iter().map(|(q, _)| q).collect();
    }
    let unafraid = unafraid_of(s, c);
    let (blockers, size) = (end_blockers(s, c), s.c(c).size.squares);
    let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
    with_advance(s, c, start, budget.max(0) as u32, |r| {
        let mut out = Vec::with_capacity(r.squares().size_hint().0);
        row_order(r, w, h, |q| {
            let free = blockers.iter().all(|&(at, n)| distance(at, n, q, size) != 0);
            debug_assert_eq!(free, reached_end(s, c, q));
            if free && unafraid(q) {
                out.push(q);
            }
        });
        debug_assert_eq!(out, {
            let mut all: Vec<Pos> = r.squares().filter(|&q| reached_end(s, c, q) && unafraid(q)).collect();
            all.sort_unstable_by_key(|p| (p.y, p.x));
            all
        });
        out
    })
}

/// The squares a search on a `w`×`h` map reached, row by row (as a sorted [`Reach::squares`]),
/// each handed to `put`.
fn row_order(r: &fray_core::geometry::Reach, w: i32, h: i32, mut put: impl FnMut(Pos)) {
    if w > 0 && h > 0 && w * h <= 128 {
        // A bit a square, row by row: the set bits, low to high, are the rows in order.
        let mut marks: u128 = 0;
        for q in r.squares() {
            marks |= 1 << (q.y * w + q.x);
        }
        while marks != 0 {
            let i = marks.trailing_zeros() as i32;
            put(Pos::new(i % w, i / w));
            marks &= marks - 1;
        }
    } else {
        let mut all: Vec<Pos> = r.squares().collect();
        all.sort_unstable_by_key(|p| (p.y, p.x));
        all.into_iter().for_each(put);
    }
}

/// The route [`destinations`] (not a charge) gives to `to`, searched only until `to` is
/// settled; `None` where it offers no route there.
fn destination_route(s: &State, c: Cx, budget: i32, to: Pos) -> Option<Vec<Pos>> {
    let start = s.c(c).pos?;
    if s.options.jumping == crate::options::Text::Glossary {
        return destinations(s, c, budget, false).into_iter().find(|(q, _)| *q == to).map(|(_, p)| p);
    }
    if to == start || !can_end(s, c, to) || !unafraid_of(s, c)(to) {
        return None;
    }
    // The whole search's route to `to` is the one a search stopped there gives.
    with_advance(s, c, start, budget.max(0) as u32, |r| r.path_to(to))
}

/// Whether [`destinations`] (not a charge) offers `to`, searched only until `to` is reached.
fn is_destination(s: &State, c: Cx, budget: i32, to: Pos) -> bool {
    let Some(start) = s.c(c).pos else { return false };
    if s.options.jumping == crate::options::Text::Glossary {
        return destinations(s, c, budget, false).iter().any(|(q, _)| *q == to);
    }
    if to == start || !can_end(s, c, to) || !unafraid_of(s, c)(to) {
        return false;
    }
    with_advance(s, c, start, budget.max(0) as u32, |r| r.cost(to).is_some())
}

/// Whether [`destinations`] (not a charge) would offer any square, searched only until the first.
fn has_destination<'g>(s: &State, c: Cx, budget: i32, ground: impl FnOnce() -> &'g Ground, steps: &FirstSteps) -> bool {
    let Some(start) = s.c(c).pos else { return false };
    if s.options.jumping == crate::options::Text::Glossary {
        return !destinations(s, c, budget, false).is_empty();
    }
    let fright = s.source_of(c, ConditionKind::Frightened);
    let unafraid = |q: Pos| {
        fright.is_none_or(|f| {
            s.c(f).pos.is_none_or(|fp| {
                distance(q, s.c(c).size.squares, fp, s.c(f).size.squares) >= s.distance(c, f).unwrap_or(0)
            })
        })
    };
    let budget = budget.max(0) as u32;
    // A square one step away that the search would reach and accept answers without it (its
    // steps are asked by the Shift entry too).
    if start.neighbours().into_iter().enumerate().any(|(i, q)| {
        s.arena.terrain.get(q).is_some()
            && can_end(s, c, q)
            && steps.cost(i).is_some_and(|k| k <= budget)
            && unafraid(q)
    }) {
        return true;
    }
    if let Some(found) = kept_advance(s, c, budget, |r| r.squares().any(|q| reached_end(s, c, q) && unafraid(q))) {
        return found;
    }
    let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
    with_scratch(|sc| {
        sc.find_pruned(w, h, start, budget, advance_edges(ground(), s), |q| reached_end(s, c, q) && unafraid(q))
            .is_some()
    })
}

/// The costs of the steps from a mover's square to each of its neighbours (in
/// [`Pos::neighbours`] order, `step_cost` with no charge), each worked out once when first
/// asked: the menu's Advance and Shift entries both ask them.
struct FirstSteps<'a> {
    s: &'a State,
    c: Cx,
    known: [std::cell::Cell<Option<Option<u32>>>; 8],
}

impl<'a> FirstSteps<'a> {
    fn new(s: &'a State, c: Cx) -> Self {
        FirstSteps { s, c, known: Default::default() }
    }
    /// `step_cost` from the mover's square to its `i`-th neighbour.
    fn cost(&self, i: usize) -> Option<u32> {
        if let Some(k) = self.known[i].get() {
            return k;
        }
        let p = self.s.c(self.c).pos?;
        let q = p.neighbours()[i];
        let k = if self.s.c(self.c).size.squares == 1 {
            self.one_square_step(p, q)
        } else {
            step_cost(self.s, self.c, p, q, false)
        };
        debug_assert_eq!(k, step_cost(self.s, self.c, p, q, false));
        self.known[i].set(Some(k));
        k
    }
    /// `step_cost` (`step_cost_on` read square by square, not charging) for a one-square mover
    /// stepping from `p` to its neighbour `q`.
    fn one_square_step(&self, p: Pos, q: Pos) -> Option<u32> {
        let (s, c) = (self.s, self.c);
        let prone = s.has(c, ConditionKind::Prone);
        let mut cost = ledge_cost(s, c, p, q, prone, false)?;
        let t = s.terrain_at(q);
        if !t.standable() {
            return None;
        }
        if t == Terrain::Difficult {
            cost = cost.max(2);
        }
        if cost < 2 && occupied_by_other(s, c, q).is_some_and(|o| s.enemies(c, o)) {
            cost = 2;
        }
        let (dx, dy) = (q.x - p.x, q.y - p.y);
        if dx != 0
            && dy != 0
            && !s.terrain_at(p.offset(dx, 0)).standable()
            && !s.terrain_at(p.offset(0, dy)).standable()
        {
            return None;
        }
        Some(if prone { cost + 1 } else { cost })
    }
}

/// The four quadrants of directions a straight run keeps to (DS-CHG-1).
const QUADRANTS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// A charge's steps within one quadrant of directions: no jumps, no difficult terrain.
fn charge_edges<'a>(
    ground: &'a Ground,
    s: &'a State,
    (sx, sy): (i32, i32),
) -> impl FnMut(Pos, &Frontier, &mut Vec<(Pos, u32)>) + 'a {
    move |p, f, out| {
        for q in p.neighbours() {
            let (dx, dy) = (q.x - p.x, q.y - p.y);
            if (dx == 0 || dx == sx)
                && (dy == 0 || dy == sy)
                && f.may_improve(q)
                && let Some(cost) = step_cost_ground(ground, s, p, q, true)
            {
                out.push((q, cost));
            }
        }
    }
}

/// The cheapest cost of a charge's straight run in one quadrant to each square up to `extent`
/// (columns, rows) steps from `start` on that side, within `budget` (DS-CHG-1, DS-DELTA-13):
/// the costs [`charge_edges`]' search finds. Every step of the quadrant moves away from `start`
/// along at least one axis and back along none, so a square's cost follows from the three
/// squares before it, worked out first (and none beyond `extent` comes before one within it).
/// `cost` is filled `extent.0 + 1` squares a row, by steps away (`dy * (extent.0 + 1) + dx`),
/// with [`fray_core::geometry::UNREACHED`] off the map or beyond the budget; `accept` is asked
/// of each reached square but the start, in an order of no meaning, and stops the filling when
/// it holds. Returns whether it held.
#[allow(clippy::too_many_arguments)]
fn quadrant_costs(
    ground: &Ground,
    s: &State,
    start: Pos,
    budget: u32,
    (sx, sy): (i32, i32),
    (ex, ey): (i32, i32),
    cost: &mut Vec<u32>,
    mut accept: impl FnMut(Pos) -> bool,
) -> bool {
    use fray_core::geometry::UNREACHED;
    let (nx, ny) = (ex + 1, ey + 1);
    let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
    cost.clear();
    cost.resize((nx.max(0) * ny.max(0)) as usize, UNREACHED);
    let on_map = |q: Pos| q.x >= 0 && q.y >= 0 && q.x < w && q.y < h;
    if cost.is_empty() || !on_map(start) {
        return false;
    }
    cost[0] = 0;
    for dy in 0..ny {
        for dx in 0..nx {
            if dx == 0 && dy == 0 {
                continue;
            }
            let q = start.offset(dx * sx, dy * sy);
            if !on_map(q) {
                continue;
            }
            let mut best = UNREACHED;
            // A one-square mover's steps read straight from the table (`step_cost_ground`'s
            // own reading, charging): the square stepped into refuses every step alike.
            let into = match ground.cell(q) {
                Some(qi) if ground.size == 1 => {
                    let t = &ground.squares[qi];
                    if !t.terrain.standable() || t.terrain == Terrain::Difficult {
                        cost[(dy * nx + dx) as usize] = UNREACHED;
                        continue;
                    }
                    Some((qi, t))
                }
                _ => None,
            };
            for (px, py) in [(dx - 1, dy), (dx, dy - 1), (dx - 1, dy - 1)] {
                if px < 0 || py < 0 {
                    continue;
                }
                let k = cost[(py * nx + px) as usize];
                if k == UNREACHED {
                    continue;
                }
                let from = start.offset(px * sx, py * sy);
                let step = match into {
                    Some((qi, t)) => {
                        let (mx, my) = (q.x - from.x, q.y - from.y);
                        let fi = (qi as i32 - mx - my * ground.width) as usize;
                        let f = &ground.squares[fi];
                        let dz = t.ground - f.ground;
                        let mut step = 1;
                        let mut refused = false;
                        if !(-1..=0).contains(&dz) {
                            refused = ground.prone;
                            let jump = dz > 0
                                && !matches!(f.terrain, Terrain::Difficult | Terrain::Damaging)
                                && dz <= ground.jump_height;
                            step = if jump { dz as u32 } else { 2 * dz.unsigned_abs() };
                        }
                        if t.hostile {
                            step = step.max(2);
                        }
                        refused |= mx != 0
                            && my != 0
                            && !ground.squares[(fi as i32 + mx) as usize].terrain.standable()
                            && !ground.squares[(fi as i32 + my * ground.width) as usize].terrain.standable();
                        let step = (!refused).then_some(if ground.prone { step + 1 } else { step });
                        debug_assert_eq!(step, step_cost_ground(ground, s, from, q, true));
                        step
                    }
                    None => step_cost_ground(ground, s, from, q, true),
                };
                if let Some(step) = step
                    && k + step <= budget
                    && k + step < best
                {
                    best = k + step;
                }
            }
            cost[(dy * nx + dx) as usize] = best;
            if best != UNREACHED && accept(q) {
                return true;
            }
        }
    }
    false
}

/// The squares [`quadrant_costs`] reached (not the start) with `extent` (`budget`, `budget`),
/// row by row as a search's reach lists them, each handed to `put`.
fn quadrant_squares(start: Pos, budget: u32, (sx, sy): (i32, i32), cost: &[u32], mut put: impl FnMut(Pos)) {
    let n = budget as i32 + 1;
    for row in 0..n {
        let dy = if sy > 0 { row } else { n - 1 - row };
        for col in 0..n {
            let dx = if sx > 0 { col } else { n - 1 - col };
            if (dx, dy) != (0, 0) && cost[(dy * n + dx) as usize] != fray_core::geometry::UNREACHED {
                put(start.offset(dx * sx, dy * sy));
            }
        }
    }
}

/// DS-COND-FRIGHT: whether `c` may end at `q`, not willingly closer to a known source of fear.
fn unafraid_of(s: &State, c: Cx) -> impl Fn(Pos) -> bool + '_ {
    let fright = s.source_of(c, ConditionKind::Frightened);
    move |q: Pos| {
        fright.is_none_or(|f| {
            s.c(f).pos.is_none_or(|fp| {
                distance(q, s.c(c).size.squares, fp, s.c(f).size.squares) >= s.distance(c, f).unwrap_or(0)
            })
        })
    }
}

/// A charge's runs (DS-CHG-1, DS-GAP-8): the cheapest route to each square that never bends
/// back — no step against a way an earlier one went, so each axis is crossed one way only. Such
/// a route keeps to one quadrant of directions, so one search per quadrant finds them all. No
/// jumps; difficult terrain is refused (DS-DELTA-13).
fn charge_runs(s: &State, c: Cx, start: Pos, budget: i32) -> Vec<(Pos, Vec<Pos>)> {
    let mut best: Vec<(Pos, u32, Vec<Pos>)> = Vec::new();
    let ground = Ground::new(s, c);
    for quadrant in QUADRANTS {
        let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
        let r = with_scratch(|sc| {
            sc.search_pruned(w, h, start, budget.max(0) as u32, charge_edges(&ground, s, quadrant)).clone()
        });
        for q in r.squares() {
            let (Some(k), Some(path)) = (r.cost(q), r.path_to(q)) else { continue };
            match best.iter_mut().find(|b| b.0 == q) {
                Some(b) if b.1 <= k => {}
                Some(b) => *b = (q, k, path),
                None => best.push((q, k, path)),
            }
        }
    }
    best.into_iter().map(|(q, _, path)| (q, path)).collect()
}

/// The route [`destinations`] gives a charge to `to` (from [`charge_runs`]), with only that
/// route built: the cheapest of the quadrants' routes to it, the first quadrant's on a tie.
fn charge_route(s: &State, c: Cx, budget: i32, to: Pos) -> Option<Vec<Pos>> {
    let route = charge_route_to(s, c, budget, to);
    debug_assert_eq!(
        route,
        charge_runs(s, c, s.c(c).pos?, budget).into_iter().find(|(q, _)| *q == to).and_then(|(q, p)| (q
            != s.c(c).pos?
            && reached_end(s, c, q)
            && unafraid_of(s, c)(q))
        .then_some(p))
    );
    route
}

fn charge_route_to(s: &State, c: Cx, budget: i32, to: Pos) -> Option<Vec<Pos>> {
    let start = s.c(c).pos?;
    let ground = Ground::new(s, c);
    let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
    if to == start || !(reached_end(s, c, to) && unafraid_of(s, c)(to)) {
        return None;
    }
    let mut best: Option<(u32, Vec<Pos>)> = None;
    let (ox, oy) = (to.x - start.x, to.y - start.y);
    for quadrant in QUADRANTS {
        // A quadrant's runs never reach a square on the other side of either axis.
        if ox * quadrant.0 < 0 || oy * quadrant.1 < 0 {
            continue;
        }
        with_scratch(|sc| {
            // Searched until `to` is settled: its cost and route are then those of the whole
            // search.
            if sc
                .find_pruned(w, h, start, budget.max(0) as u32, charge_edges(&ground, s, quadrant), |q| q == to)
                .is_none()
            {
                return;
            }
            let r = sc.reach();
            if let (Some(k), Some(path)) = (r.cost(to), r.path_to(to))
                && best.as_ref().is_none_or(|b| k < b.0)
            {
                best = Some((k, path));
            }
        });
    }
    Some(best?.1)
}

/// Who may make an opportunity attack on `mover` for leaving `from` for `to` (DS-OA-1,
/// DS-OA-2, DS-COND-DAZED, DS-SURP-1). Only a willing move asks this: forced movement never
/// does (DS-DELTA-5).
fn opportunity_attackers(s: &State, mover: Cx, from: Pos, to: Pos) -> Vec<Cx> {
    let size = s.c(mover).size.squares;
    // Built only if some enemy gets as far as its roll's edges and banes.
    let strike = std::cell::OnceCell::new();
    s.active()
        .filter(|&e| {
            let x = s.c(e);
            let ep = x.pos.unwrap();
            s.enemies(e, mover)
                && s.source_of(e, ConditionKind::Grabbed) != Some(mover) // dragged along beside it
                && distance(from, size, ep, x.size.squares) == 1
                && distance(to, size, ep, x.size.squares) > 1
                && !s.has(e, ConditionKind::Dazed)
                && !x.surprised
                && !x.dying()
                && {
                    let net = abilities::mods(s, e, mover, strike.get_or_init(|| abilities::hero_free_strike(false)), &[mover]).net();
                    net.0 >= 0 && net.1 >= 0
                }
        })
        .collect()
}

/// Starts a walk that may provoke opportunity attacks (an Advance or a Charge): it goes square
/// by square, and before each step every enemy it leaves the reach of is asked whether to strike
/// (DS-OA-1).
pub fn start_walk(cx: &mut Ctx, c: Cx, path: Vec<Pos>, how: &'static str, after: AfterWalk) {
    cx.push(Frame::Walk { c, path, how, asked: Vec::new(), after });
}

/// Advances a walk: the next enemy the next step would leave behind is offered its opportunity
/// attack (DS-OA-1, DS-OA-2); once none is left to ask, the step is taken. A mover struck down
/// stops where it is.
pub fn walk_step(
    cx: &mut Ctx,
    c: Cx,
    mut path: Vec<Pos>,
    how: &'static str,
    mut asked: Vec<Cx>,
    after: AfterWalk,
) -> Result<Flow, RuleError> {
    while let (Some(&q), Some(from)) = (path.first(), cx.s.c(c).pos.filter(|_| cx.s.c(c).active())) {
        if let Some(e) = opportunity_attackers(cx.s, c, from, q).into_iter().find(|e| !asked.contains(e)) {
            asked.push(e);
            cx.push(Frame::Walk { c, path, how, asked, after });
            cx.push(Frame::Opportunity { by: e, mover: c });
            return Ok(Flow::Continue);
        }
        step_to(cx, c, q, how);
        path.remove(0);
        asked.clear();
    }
    match after {
        AfterWalk::MoveLeft(left) => cx.emit(Event::MoveLeft { creature: cx.s.who(c), left }),
        AfterWalk::ChargeStrike(t) => {
            if cx.s.c(c).active() && cx.s.c(t).active() {
                abilities::free_strike(cx, c, t, true)?;
            }
        }
    }
    Ok(Flow::Continue)
}

/// DS-GAP-19: minions of one squad striking the same creature at once make one strike: every
/// other minion of the squad next to `mover` that could strike joins `by`'s opportunity attack,
/// their free strikes added together; none of them is asked again for this step.
fn squad_free_strike(cx: &mut Ctx, q: usize, by: Cx, mover: Cx) -> Result<(), RuleError> {
    let s = &*cx.s;
    let joined: Vec<Cx> = s.squads[q]
        .members
        .iter()
        .copied()
        .filter(|&m| {
            let x = s.c(m);
            m != by
                && x.active()
                && x.free_strike.is_some()
                && s.distance(m, mover) == Some(1)
                && !s.has(m, ConditionKind::Dazed)
                && !x.surprised
        })
        .collect();
    if joined.is_empty() {
        return abilities::opportunity_attack(cx, by, mover);
    }
    let captain = |m: Cx| s.captain_bonus(m).map_or(0, |w| w.damage);
    let total: i32 =
        std::iter::once(by).chain(joined.iter().copied()).map(|m| s.c(m).free_strike.unwrap_or(0) + captain(m)).sum();
    let names: Vec<String> = joined.iter().map(|&m| s.c(m).id.to_string()).collect();
    cx.emit(Event::Note {
        text: format!(
            "the squad's free strikes merge: {} strikes with {}, {total} damage in one",
            s.c(by).id,
            names.join(", ")
        ),
    });
    if matches!(cx.s.flow.last(), Some(Frame::Walk { .. }))
        && let Some(Frame::Walk { c, path, how, mut asked, after }) = cx.pop()
    {
        asked.extend(joined.iter().copied());
        cx.push(Frame::Walk { c, path, how, asked, after });
    }
    cx.emit(Event::AbilityUsed {
        creature: cx.s.who(by),
        ability: "Free Strike".into(),
        targets: vec![cx.s.who(mover)],
    });
    crate::damage::deal(cx, mover, total, Some(by), "the squad's free strikes");
    Ok(())
}

/// The decision: an enemy leaving `by`'s reach — strike it, or let it go (DS-OA-1).
pub fn opportunity_question(s: &State, by: Cx, mover: Cx) -> (&'static str, String, Vec<DecisionOption>) {
    let (b, m) = (who(s, by), who(s, mover));
    let options = vec![
        DecisionOption::new("strike", format!("make a melee free strike against {m} (free triggered action)")),
        DecisionOption::new("decline", format!("let {m} go")),
    ];
    ("opportunity-attack", format!("{b}: {m} is leaving your reach — make an opportunity attack?"), options)
}

/// Answers an opportunity attack: the strike resolves at once, before the mover leaves its
/// square; the walk then goes on.
pub fn answer_opportunity(cx: &mut Ctx, by: Cx, mover: Cx, option: &str) -> Result<(), RuleError> {
    match option {
        "strike" => {
            cx.emit(Event::Note {
                text: format!("{} makes an opportunity attack on {}", cx.s.c(by).id, cx.s.c(mover).id),
            });
            if let Some(q) = cx.s.squad_of(by)
                && cx.s.c(by).free_strike.is_some()
            {
                return squad_free_strike(cx, q, by, mover);
            }
            abilities::opportunity_attack(cx, by, mover)
        }
        "decline" => {
            cx.emit(Event::Note {
                text: format!("{} lets {} go without an opportunity attack", cx.s.c(by).id, cx.s.c(mover).id),
            });
            Ok(())
        }
        other => Err(RuleError::malformed(format!("answer strike or decline, not {other:?}"))),
    }
}

/// A shift's squares, taken at once: shifting never provokes (DS-SHIFT-1).
fn shift_along(cx: &mut Ctx, c: Cx, path: &[Pos]) {
    for &q in path {
        if !cx.s.c(c).active() {
            return;
        }
        step_to(cx, c, q, "shifts");
    }
}

/// One step of a walk or shift: the move, a grabbed creature dragged along, the terrain.
fn step_to(cx: &mut Ctx, c: Cx, q: Pos, how: &str) {
    {
        let Some(from) = cx.s.c(c).pos else { return };
        let z = cx.s.arena.ground(q);
        // `how` is only words for the journal.
        let how = if cx.keeps() { how } else { "" };
        cx.emit(Event::moved(cx.s, c, from, q, z, how));
        // A grabbed creature comes along (DS-COND-GRAB-1).
        for v in cx.s.active().filter(|&v| cx.s.source_of(v, ConditionKind::Grabbed) == Some(c)).collect::<Vec<_>>() {
            let vp = cx.s.c(v).pos.unwrap();
            if distance(vp, 1, q, 1) > 1 {
                cx.emit(Event::moved(cx.s, v, vp, from, cx.s.arena.ground(from), "is dragged"));
            }
        }
        crate::damage::entered(cx, c, q);
    }
}

/// Legal targets for an ability (DS-DIST-1, DS-GAP-6, DS-GAP-7, DS-HIDE-3).
pub fn targets_for(s: &State, c: Cx, a: &AbilityDef) -> Vec<Cx> {
    targets_iter(s, c, a).collect()
}

/// How far [`targets_iter`] looks for targets of `a` (`None`: it finds none).
fn target_reach(a: &AbilityDef) -> Option<i32> {
    match a.distance {
        Distance::Melee { reach } => Some(reach),
        Distance::Ranged { range } => Some(range),
        Distance::Aura { size } | Distance::Burst { size } => Some(size),
        Distance::Myself => Some(0),
        Distance::Cube { within, size } => Some(within + size),
        Distance::Line { length, .. } => Some(length),
        Distance::Wall { .. } => None,
        Distance::Sweep { shift, reach } => Some(shift + reach),
    }
}

fn targets_iter<'a>(s: &'a State, c: Cx, a: &'a AbilityDef) -> impl Iterator<Item = Cx> + 'a {
    let reach = target_reach(a);
    s.active()
        .take_while(move |_| reach.is_some())
        .filter(move |&t| match a.target {
            TargetKind::Myself => t == c,
            TargetKind::Enemies => s.enemies(c, t),
            TargetKind::Allies => !s.enemies(c, t),
            TargetKind::Creatures => t != c,
        })
        .filter(move |&t| t == c || s.distance(c, t).is_some_and(|d| Some(d) <= reach))
        // The cheap test first (the two filters commute).
        .filter(move |&t| a.distance.is_area() || !abilities::sheltered_from(s, t, c))
        .filter(move |&t| t == c || abilities::line_of_effect(s, c, t) != Sight::Blocked)
}

fn check_ability(s: &State, c: Cx, a: &AbilityDef, targets: &[Cx], extra: bool) -> Result<(), RuleError> {
    if let Some(n) = a.cost
        && s.c(c).resource < n
    {
        return Err(RuleError::refused(
            "DS-GAP-15",
            format!("{} costs {n} Heroic Resource and {} has {}", a.name, who(s, c), s.c(c).resource),
        ));
    }
    match (a.usage, a.malice) {
        (Usage::Malice, cost) => check_malice(s, c, cost.unwrap_or(0), extra)?,
        (Usage::Villain, _) => {
            return Err(RuleError::refused(
                "DS-GAP-19",
                format!("{} is a villain action: the Director takes it at the end of another creature's turn", a.name),
            ));
        }
        _ => check_slot(s, c, slot_of(a.usage), extra)?,
    }
    if extra && a.usage != Usage::Main {
        return Err(RuleError::refused("DS-CRIT-1", "the extra action is a main action"));
    }
    if a.distance.needs_square() || matches!(a.distance, Distance::Wall { .. } | Distance::Sweep { .. }) {
        return Ok(()); // whoever the placed area catches (computed from its square)
    }
    let legal = targets_for(s, c, a);
    if targets.is_empty() && !a.distance.is_area() && a.target != TargetKind::Myself {
        return Err(RuleError::malformed(format!("{} needs a target", a.name)));
    }
    if !a.distance.is_area() && targets.len() as i32 > a.targets {
        return Err(RuleError::refused("DS-GAP-14", format!("{} takes at most {} target(s)", a.name, a.targets)));
    }
    for &t in targets {
        if !legal.contains(&t) {
            let why = if abilities::sheltered_from(s, t, c) && !a.distance.is_area() {
                ("DS-HIDE-3", "it is hidden from the user: only area abilities can target it")
            } else if t != c && abilities::line_of_effect(s, c, t) == Sight::Blocked {
                ("DS-GAP-6", "there is no line of effect")
            } else {
                ("DS-DIST-1", "it is out of reach or not a valid target")
            };
            return Err(RuleError::refused(
                why.0,
                format!("{} cannot target {}: {} ({})", a.name, who(s, t), why.1, why.0),
            ));
        }
    }
    Ok(())
}

/// One entry of the turn's menu as the rules know it, with no words: [`menu`] gives each its
/// option id and label, [`crate::game`] its action id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuItem {
    /// Advance (a move action).
    Advance,
    /// Shift 1 square.
    Shift,
    /// The creature's `n`-th ability.
    Ability(u16),
    /// A free strike.
    FreeStrike,
    /// A charge.
    Charge,
    /// The `n`-th of [`PLAIN`]: maneuvers and the like with no target.
    Plain(u8),
    /// The `n`-th of [`AIMED`]: maneuvers at an adjacent creature.
    Aimed(u8),
    /// End the turn.
    EndTurn,
    /// No extra action (DS-CRIT-1).
    Decline,
}

/// The menu's entries with no target: id, label.
pub const PLAIN: [(&str, &str); 15] = [
    ("stand-up", "stand up (maneuver)"),
    ("catch-breath", "catch your breath: spend a Recovery (maneuver)"),
    ("escape-grab", "escape a grab (maneuver)"),
    ("hide", "hide (maneuver)"),
    ("defend", "defend: double bane against you (main action)"),
    ("go-prone", "go prone (free maneuver)"),
    ("jump-test", "make a jump test: jump farther this turn (part of your move)"),
    ("search", "search for hidden enemies within 10 squares (maneuver)"),
    ("release", "let go of the creature you grab (no action)"),
    ("token-surges", "spend a hero token for 2 surges"),
    ("token-stamina", "spend 2 hero tokens to regain your recovery value"),
    ("brutal-effectiveness", "Malice (3): +1 potency on this creature's next ability with a potency"),
    ("malicious-strike", "Malice (5 or more): extra damage to one target of this creature's next strike"),
    ("end-effect", "End Effect: take 10 damage to end a save-ends effect on you (solo, no action)"),
    ("solo-action", "Solo Action, Malice (5): take another main action now, even while dazed (solo)"),
];

fn plain_verb(i: u8) -> Verb {
    match i {
        0 => Verb::StandUp,
        1 => Verb::CatchBreath,
        2 => Verb::EscapeGrab,
        3 => Verb::Hide,
        4 => Verb::Defend,
        5 => Verb::GoProne,
        6 => Verb::JumpTest,
        7 => Verb::Search,
        8 => Verb::Release,
        9 => Verb::Token("surges".into()),
        10 => Verb::Token("stamina".into()),
        11 => Verb::Brutal,
        12 => Verb::MaliciousStrike(MALICIOUS_STRIKE),
        13 => Verb::EndEffect,
        _ => Verb::SoloAction,
    }
}

/// What the menu's entries ask of its actor again and again, read once per menu: whether it is
/// active, its conditions, its slots (as [`slot_ok`] gives them for the menu's `extra`) and its
/// speed (worked out when first asked).
struct Actor {
    active: bool,
    prone: bool,
    grabbed: bool,
    restrained: bool,
    slowed: bool,
    /// `slot_ok` of [`Slot::Main`], [`Slot::Maneuver`], [`Slot::Move`], [`Slot::Free`].
    slots: [bool; 4],
    speed: std::cell::Cell<Option<i32>>,
}

impl Actor {
    fn new(s: &State, c: Cx, extra: bool) -> Self {
        let x = s.c(c);
        let (mut prone, mut grabbed, mut restrained, mut slowed) = (false, false, false, false);
        for k in &x.conditions {
            match k.kind {
                ConditionKind::Prone => prone = true,
                ConditionKind::Grabbed => grabbed = true,
                ConditionKind::Restrained => restrained = true,
                ConditionKind::Slowed => slowed = true,
                _ => {}
            }
        }
        // slot_refusal of each slot, the turn and dazed read once.
        let slots = if extra {
            [!(x.defending && s.current == Some(c)), false, false, false]
        } else if s.current != Some(c) {
            [false; 4]
        } else {
            let a = x.acts;
            let dazed = x.conditions.iter().any(|k| k.kind == ConditionKind::Dazed);
            let done = dazed && a.done >= 1;
            let used_up = |n: u8| n >= 2 || (n == 1 && a.main);
            let minion = x.minion;
            [
                !(done || a.main || x.defending || (minion && a.maneuvers >= 1)),
                !(done || used_up(a.maneuvers) || (minion && (a.main || a.maneuvers >= 1))),
                !(done || used_up(a.moves)),
                !dazed,
            ]
        };
        let slot = |slot| slot_ok(s, c, slot, extra);
        debug_assert_eq!(slots, [slot(Slot::Main), slot(Slot::Maneuver), slot(Slot::Move), slot(Slot::Free)]);
        Actor { active: x.active(), prone, grabbed, restrained, slowed, slots, speed: std::cell::Cell::new(None) }
    }
    /// `slot_ok(s, c, slot, extra)`.
    #[inline]
    fn slot(&self, slot: Slot) -> bool {
        self.slots[match slot {
            Slot::Main => 0,
            Slot::Maneuver => 1,
            Slot::Move => 2,
            Slot::Free => 3,
        }]
    }
    /// `speed(s, c)`.
    fn speed(&self, s: &State, c: Cx) -> i32 {
        match self.speed.get() {
            Some(v) => v,
            None => {
                let v = speed(s, c);
                self.speed.set(Some(v));
                v
            }
        }
    }
}

/// Whether the [`PLAIN`] entry `i` is plainly refused, without building its verb: a cheap
/// necessary condition of [`check_verb`] refusing it (the menu then skips the full check).
/// `f`: the actor's facts for a menu that is not the extra action's.
fn plain_refused(s: &State, c: Cx, i: u8, f: &Actor) -> bool {
    let x = s.c(c);
    let slot = |slot| !f.slot(slot);
    let grabbing = || s.active().any(|v| s.source_of(v, ConditionKind::Grabbed) == Some(c));
    let tokens = |need| !x.hero || s.hero_tokens < need || s.token_spent_this_turn || s.current != Some(c);
    !f.active
        || match i {
            0 => slot(Slot::Maneuver) || !f.prone,
            1 => slot(Slot::Maneuver) || x.dying() || x.recoveries <= 0,
            2 => slot(Slot::Maneuver) || !f.grabbed,
            3 | 7 => slot(Slot::Maneuver),
            4 => slot(Slot::Main) || x.acts.extra_used,
            5 => slot(Slot::Free) || f.prone,
            6 => !s.arena.leaps || x.acts.jump_tested || f.prone,
            8 => !grabbing(),
            9 => tokens(1),
            10 => tokens(2),
            11 => !malice_ready(s, c, BRUTAL_EFFECTIVENESS),
            12 => !malice_ready(s, c, MALICIOUS_STRIKE),
            13 => !x.solo || s.current != Some(c) || !x.conditions.iter().any(|k| k.until == Until::SaveEnds),
            _ => !x.solo || !malice_ready(s, c, SOLO_ACTION),
        }
}

/// Malice that Brutal Effectiveness costs (DS-GAP-17).
pub const BRUTAL_EFFECTIVENESS: i32 = 3;
/// Malice that a solo's Solo Action costs (DS-GAP-19).
pub const SOLO_ACTION: i32 = 5;
/// Damage a solo takes for End Effect (DS-GAP-19).
pub const END_EFFECT: i32 = 10;
/// Malice that Malicious Strike costs at least (DS-GAP-17).
pub const MALICIOUS_STRIKE: i32 = 5;

/// Whether the Director may buy a Malice feature costing `cost` for `c` now (DS-GAP-17): one of
/// its creatures at the very start of its turn, before it does anything, with no feature
/// bought yet this turn, and the Malice to pay for it. Dazed does not stop it (a Malice feature
/// is neither a triggered action nor a free maneuver; docs/rulings/drawsteel.md "Malice").
pub fn malice_ready(s: &State, c: Cx, cost: i32) -> bool {
    let x = s.c(c);
    s.current == Some(c) && x.side == Side::Director && !x.hero && x.active() && x.acts.fresh() && s.malice >= cost
}

/// The Malicious Strike amounts the Director may spend for `c` now: `spend-N` options, then
/// `cancel` (DS-GAP-17).
pub fn malice_amounts(s: &State, c: Cx) -> Vec<DecisionOption> {
    let most = malicious_strike_most(s, c).min(s.malice);
    let h = s.c(c).highest();
    let mut o: Vec<DecisionOption> = (MALICIOUS_STRIKE..=most)
        .map(|n| {
            DecisionOption::new(format!("spend-{n}"), format!("spend {n} Malice: +{} damage", h + n - MALICIOUS_STRIKE))
        })
        .collect();
    o.push(DecisionOption::new("cancel", "back to the menu"));
    o
}

/// Answers how much Malice goes into Malicious Strike (DS-GAP-17).
pub fn answer_malice_amount(cx: &mut Ctx, c: Cx, option: &str) -> Result<(), RuleError> {
    if option == "cancel" {
        return Ok(());
    }
    let n = option
        .strip_prefix("spend-")
        .and_then(|n| n.parse::<i32>().ok())
        .ok_or_else(|| RuleError::malformed(format!("answer spend-N or cancel, not {option:?}")))?;
    let v = Verb::MaliciousStrike(n);
    check_verb(cx.s, c, &v, false)?;
    execute(cx, c, v, false)
}

/// Why [`malice_ready`] refuses, worded.
fn check_malice(s: &State, c: Cx, cost: i32, extra: bool) -> Result<(), RuleError> {
    let x = s.c(c);
    if extra || x.side != Side::Director || x.hero {
        return Err(RuleError::refused(
            "DS-GAP-17",
            format!("only the Director spends Malice, for its creatures, not for {}", who(s, c)),
        ));
    }
    if s.current != Some(c) || !x.acts.fresh() {
        return Err(RuleError::refused(
            "DS-GAP-17",
            format!(
                "Malice features are bought at the start of the creature's turn, before {} does anything",
                who(s, c)
            ),
        ));
    }
    if s.malice < cost {
        return Err(RuleError::refused(
            "DS-GAP-17",
            format!("that costs {cost} Malice and the Director has {}", s.malice),
        ));
    }
    Ok(())
}

/// The most Malice Malicious Strike can take for `c`: 5 for its highest characteristic in
/// extra damage, 1 more per extra damage, up to three times that characteristic (DS-GAP-17).
pub fn malicious_strike_most(s: &State, c: Cx) -> i32 {
    MALICIOUS_STRIKE + 2 * s.c(c).highest().max(0)
}

/// Whether Malicious Strike may be bought now at all (DS-GAP-17): not in the round after the
/// one it was last bought in, and only for a creature whose highest characteristic adds damage.
fn malicious_strike_allowed(s: &State, c: Cx) -> Result<(), RuleError> {
    if s.c(c).highest() < 1 {
        return Err(RuleError::refused(
            "DS-GAP-17",
            format!("{}'s highest characteristic is below 1: Malicious Strike would add nothing", who(s, c)),
        ));
    }
    if s.malicious_strike_round.is_some_and(|r| r + 1 == s.round) {
        return Err(RuleError::refused("DS-GAP-17", "Malicious Strike was bought last round: not two rounds in a row"));
    }
    Ok(())
}

/// The menu's entries at an adjacent creature: id, label.
pub const AIMED: [(&str, &str); 6] = [
    ("grab", "grab an adjacent creature (maneuver)"),
    ("knockback", "knock an adjacent creature back (maneuver)"),
    ("help-up", "help an adjacent prone ally up (maneuver)"),
    ("heal", "help an adjacent ally spend a Recovery (main action)"),
    ("aid-attack", "aid an attack: an ally's next roll against an adjacent enemy gains an edge (maneuver)"),
    ("end-condition", "end the conditions you gave a creature (free maneuver)"),
];

/// The option id of a menu entry.
pub fn item_id<'a>(s: &'a State, c: Cx, item: MenuItem) -> std::borrow::Cow<'a, str> {
    use std::borrow::Cow;
    Cow::Borrowed(match item {
        MenuItem::Advance => "advance",
        MenuItem::Shift => "shift",
        MenuItem::Ability(i) => return Cow::Owned(format!("ability:{}", s.c(c).abilities[i as usize].id)),
        MenuItem::FreeStrike => "free-strike",
        MenuItem::Charge => "charge",
        MenuItem::Plain(i) => PLAIN[i as usize].0,
        MenuItem::Aimed(i) => AIMED[i as usize].0,
        MenuItem::EndTurn => "end-turn",
        MenuItem::Decline => "decline",
    })
}

fn item_label(s: &State, c: Cx, item: MenuItem) -> String {
    match item {
        MenuItem::Advance => "move up to your speed (move action)".into(),
        MenuItem::Shift => "shift 1 square (move action)".into(),
        MenuItem::Ability(i) => s.c(c).abilities[i as usize].name.clone(),
        MenuItem::FreeStrike => "make a free strike (main action)".into(),
        MenuItem::Charge => "charge: a straight run, then a melee free strike (main action)".into(),
        MenuItem::Plain(i) => PLAIN[i as usize].1.into(),
        MenuItem::Aimed(i) => AIMED[i as usize].1.into(),
        MenuItem::EndTurn => "end your turn".into(),
        MenuItem::Decline => "take no extra action".into(),
    }
}

/// The menu (or, with `extra`, the critical hit's extra main action).
pub fn menu(s: &State, c: Cx, extra: bool) -> Vec<DecisionOption> {
    let mut out = Vec::new();
    menu_items(s, c, extra, |item| {
        out.push(DecisionOption::new(item_id(s, c, item).into_owned(), item_label(s, c, item)));
        true
    });
    out
}

/// The `n`-th entry of the menu, found without the entries after it.
pub fn menu_nth(s: &State, c: Cx, extra: bool, n: usize) -> Option<MenuItem> {
    let (mut i, mut found) = (0, None);
    menu_items(s, c, extra, |item| {
        if i == n {
            found = Some(item);
        }
        i += 1;
        found.is_none()
    });
    found
}

/// The menu's entries in order, each handed to `put`, which returns whether to go on. No
/// words are built: refusals are tested by their cheap conditions before the full check.
pub fn menu_items(s: &State, c: Cx, extra: bool, mut put: impl FnMut(MenuItem) -> bool) {
    let f = Actor::new(s, c, extra);
    let main = f.slot(Slot::Main);
    let _sights = abilities::remember_sights(s);
    // The mover's map, read once for the Advance and the charge.
    let ground = std::cell::OnceCell::new();
    let ground = || ground.get_or_init(|| Ground::new(s, c));
    let steps = FirstSteps::new(s, c);
    if !extra {
        let moving = s.c(c).acts.move_left > 0 && s.current == Some(c);
        let can_advance = moving || f.slot(Slot::Move);
        // advance_budget: a fresh move action's speed, or what is left of the one under way.
        let budget = || {
            let v = f.speed(s, c);
            let left = s.c(c).acts.move_left;
            if f.slot(Slot::Move) || left <= 0 { v } else { left.min(v) }
        };
        debug_assert!(!can_advance || f.speed(s, c) <= 0 || budget() == advance_budget(s, c));
        if can_advance
            && f.speed(s, c) > 0
            && has_destination(s, c, budget(), ground, &steps)
            && !put(MenuItem::Advance)
        {
            return;
        }
        // shift_able.
        let able = f.active && f.slot(Slot::Move) && !f.slowed && f.speed(s, c) != 0;
        debug_assert_eq!(able, shift_able(s, c));
        if any_shift_square(s, c, able, &steps) && !put(MenuItem::Shift) {
            return;
        }
    }
    for (i, a) in s.c(c).abilities.iter().enumerate() {
        let free = match a.usage {
            Usage::Malice => !extra && malice_ready(s, c, a.malice.unwrap_or(0)),
            Usage::Villain => false,
            u => f.slot(slot_of(u)),
        } && a.cost.is_none_or(|n| s.c(c).resource >= n);
        if free && ability_offered_in_slot(s, c, a, extra) && !put(MenuItem::Ability(i as u16)) {
            return;
        }
    }
    if main && free_strike_iter(s, c).next().is_some() && !put(MenuItem::FreeStrike) {
        return;
    }
    if extra {
        put(MenuItem::Decline);
        return;
    }
    if main && f.speed(s, c) > 0 && can_charge_someone(s, c, f.speed(s, c), ground) && !put(MenuItem::Charge) {
        return;
    }
    for i in 0..PLAIN.len() as u8 {
        if plain_offered(s, c, i, &f) && !put(MenuItem::Plain(i)) {
            return;
        }
    }
    // Every aimed maneuver but the last wants a creature within 1 square (maneuver_refused).
    let near = s.active().any(|t| t != c && s.distance(c, t).is_some_and(|d| d <= 1));
    for i in 0..AIMED.len() as u8 {
        if (near || AIMED[i as usize].0 == "end-condition") && aimed_offered(s, c, i) && !put(MenuItem::Aimed(i)) {
            return;
        }
    }
    put(MenuItem::EndTurn);
}

/// Whether the menu offers ability `a` (its entry's test in [`menu_items`]).
fn ability_offered(s: &State, c: Cx, a: &AbilityDef, extra: bool) -> bool {
    // Every branch below checks the ability's slot first (check_ability).
    let free = match a.usage {
        Usage::Malice => !extra && malice_ready(s, c, a.malice.unwrap_or(0)),
        Usage::Villain => false,
        u => slot_ok(s, c, slot_of(u), extra),
    } && a.cost.is_none_or(|n| s.c(c).resource >= n);
    free && ability_offered_in_slot(s, c, a, extra)
}

/// [`ability_offered`] for an ability whose slot is free.
fn ability_offered_in_slot(s: &State, c: Cx, a: &AbilityDef, extra: bool) -> bool {
    if a.distance.needs_square() {
        check_ability(s, c, a, &[], extra).is_ok() && crate::areas::any_placement(s, c, a)
    } else if a.distance.is_area() && a.target != TargetKind::Myself {
        // check_ability(s, c, a, &area_targets(s, c, a), extra): an area's targets are its own
        // legal targets, so only the slot (checked above) and the extra action's kind refuse.
        let offered = !(extra && a.usage != Usage::Main);
        debug_assert_eq!(offered, check_ability(s, c, a, &area_targets(s, c, a), extra).is_ok());
        offered
    } else if a.distance.is_area() || a.target == TargetKind::Myself {
        // check_ability(s, c, a, &[c], extra): the user is its own only target. Refused for the
        // extra action's kind; a wall or a sweep takes whoever it catches; otherwise the user
        // must be one of its legal targets (a reach, the user on the field) and, for an ability
        // that is not an area, it must take a target.
        let offered = !(extra && a.usage != Usage::Main)
            && (matches!(a.distance, Distance::Wall { .. } | Distance::Sweep { .. })
                || ((a.distance.is_area() || a.targets >= 1) && target_reach(a).is_some() && s.c(c).active()));
        debug_assert_eq!(offered, check_ability(s, c, a, &area_targets(s, c, a), extra).is_ok());
        offered
    } else {
        // check_ability(s, c, a, &[t], extra) for a target t it offers: the same for each.
        !(extra && a.usage != Usage::Main) && a.targets >= 1 && targets_iter(s, c, a).next().is_some()
    }
}

/// Whether the menu (not the extra action's) offers the [`PLAIN`] entry `i`; `f`: the actor's
/// facts for that menu.
fn plain_offered(s: &State, c: Cx, i: u8, f: &Actor) -> bool {
    if plain_refused(s, c, i, f) {
        return false;
    }
    let offered = match i {
        3 => hide_allowed(s, c),
        7 => search_allowed(s, c),
        // The refusals of catching breath, escaping a grab, defending, going prone, letting go
        // and spending tokens are all in `plain_refused`.
        1 | 2 | 4 | 5 | 8 | 9 | 10 => true,
        // DS-COND-RESTR-1.
        0 => !f.restrained,
        // DS-JUMP-3, DS-JUMP-5: a move under way or a move action left, and a speed.
        6 => {
            let moving = s.c(c).acts.move_left > 0 && s.current == Some(c);
            (moving || f.slot(Slot::Move)) && f.speed(s, c) != 0
        }
        _ => return check_verb(s, c, &plain_verb(i), false).is_ok(),
    };
    debug_assert_eq!(offered, check_verb(s, c, &plain_verb(i), false).is_ok());
    offered
}

/// Whether [`check_verb`] accepts a Hide by `c` whose slot [`plain_refused`] has checked:
/// its refusals as a yes/no, with no words built (DS-HIDE-1, DS-DELTA-8).
fn hide_allowed(s: &State, c: Cx) -> bool {
    let concealed = abilities::concealed(s, c);
    // Each enemy's line to `c` is asked once here: looked up in the sight book, not per state.
    abilities::with_clear_lines(s, |clear| {
        if s.options.hidden == crate::options::Text::Published {
            // Some enemy it has cover or concealment from that it is not yet hidden from.
            return s
                .active()
                .any(|e| s.enemies(c, e) && !abilities::hidden_from(s, c, e) && (concealed || !clear(e, c)));
        }
        !s.c(c).hidden && (concealed || !s.active().any(|e| s.enemies(c, e) && clear(e, c)))
    })
}

/// Whether [`check_verb`] accepts a Search by `c` whose slot [`plain_refused`] has checked:
/// [`search_targets`] not empty, asked until the first (DS-GAP-23).
fn search_allowed(s: &State, c: Cx) -> bool {
    s.active().any(|h| {
        abilities::hidden_from(s, h, c)
            && !squad_maneuvered(s, c, "search", h)
            && s.distance(c, h).is_some_and(|d| d <= 10)
            && abilities::line_of_effect(s, c, h) != Sight::Blocked
    })
}

/// Whether the menu (not the extra action's) offers the [`AIMED`] entry `i`.
fn aimed_offered(s: &State, c: Cx, i: u8) -> bool {
    maneuver_targets_iter(s, c, AIMED[i as usize].0).next().is_some()
}

/// Whether the menu offers `item` now: its own entry's test in [`menu_items`], with none of
/// the other entries worked out. Only the entries an answer names by word or ability are asked
/// (abilities, [`PLAIN`] and [`AIMED`] entries).
pub fn menu_offers(s: &State, c: Cx, extra: bool, item: MenuItem) -> bool {
    match item {
        MenuItem::Ability(i) => s.c(c).abilities.get(i as usize).is_some_and(|a| ability_offered(s, c, a, extra)),
        MenuItem::Plain(i) => !extra && (i as usize) < PLAIN.len() && plain_offered(s, c, i, &Actor::new(s, c, false)),
        MenuItem::Aimed(i) => !extra && (i as usize) < AIMED.len() && aimed_offered(s, c, i),
        _ => menu_items_contain(s, c, extra, item),
    }
}

fn menu_items_contain(s: &State, c: Cx, extra: bool, item: MenuItem) -> bool {
    let mut found = false;
    menu_items(s, c, extra, |m| {
        found = m == item;
        !found
    });
    found
}

/// Hidden enemies a search may find: within 10 squares, in line of effect (DS-GAP-23).
fn search_targets(s: &State, c: Cx) -> Vec<Cx> {
    s.active()
        .filter(|&h| abilities::hidden_from(s, h, c) && !squad_maneuvered(s, c, "search", h))
        .filter(|&h| s.distance(c, h).is_some_and(|d| d <= 10) && abilities::line_of_effect(s, c, h) != Sight::Blocked)
        .collect()
}

/// DS-GAP-19: whether `c`'s squad has already used its shared `maneuver` on `t` this round
/// (each target feels one instance of it).
fn squad_maneuvered(s: &State, c: Cx, maneuver: &str, t: Cx) -> bool {
    s.squad_of(c).is_some_and(|q| s.squads[q].maneuvered(s.round, maneuver, t))
}

/// DS-GAP-19: a minion's Grab, Knockback or Search takes its squad's one roll for that
/// maneuver this round; the first minion to use it makes the roll. Anyone else just rolls.
fn maneuver_roll(cx: &mut Ctx, c: Cx, maneuver: &str, bonus: i32) -> Result<crate::rolls::Rolled, RuleError> {
    let Some(q) = cx.s.squad_of(c) else { return crate::rolls::roll(cx, c, bonus) };
    if let Some(r) = cx.s.squads[q].maneuver_roll(cx.s.round, maneuver) {
        let text = format!("{} uses its squad's {maneuver} roll: {} in all", cx.s.c(c).id, r.natural + r.bonus);
        cx.emit(Event::Note { text });
        return Ok(r);
    }
    let r = crate::rolls::roll(cx, c, bonus)?;
    cx.emit(Event::SquadManeuverRoll { squad: q, maneuver: maneuver.into(), dice: r.dice, bonus: r.bonus });
    Ok(r)
}

/// DS-GAP-19: marks `t` as having felt `c`'s squad's shared `maneuver` this round.
fn squad_maneuvers(cx: &mut Ctx, c: Cx, maneuver: &str, t: Cx) {
    if let Some(q) = cx.s.squad_of(c) {
        cx.emit(Event::SquadManeuvered { squad: q, maneuver: maneuver.into(), target: cx.s.who(t) });
    }
}

fn maneuver_verb(kind: &str, t: Cx) -> Verb {
    match kind {
        "grab" => Verb::Grab(t),
        "knockback" => Verb::Knockback(t),
        "heal" => Verb::Heal(t),
        "aid-attack" => Verb::AidAttack(t),
        "end-condition" => Verb::EndCondition(t),
        _ => Verb::HelpUp(t),
    }
}

fn maneuver_targets(s: &State, c: Cx, kind: &str) -> Vec<Cx> {
    maneuver_targets_iter(s, c, kind).collect()
}

/// Whether a maneuver at `t` is plainly refused: a cheap necessary condition of
/// [`check_verb`] refusing it (the slot, the distance, the side).
fn maneuver_refused(s: &State, c: Cx, kind: &str, t: Cx) -> bool {
    let near = || s.distance(c, t) == Some(1);
    !s.c(c).active()
        || match kind {
            "grab" | "knockback" | "aid-attack" => !slot_ok(s, c, Slot::Maneuver, false) || !near(),
            "heal" => !slot_ok(s, c, Slot::Main, false) || s.distance(c, t).is_none_or(|d| d > 1) || s.enemies(c, t),
            "end-condition" => !slot_ok(s, c, Slot::Free, false) || !gave_conditions(s, c, t),
            _ => !slot_ok(s, c, Slot::Maneuver, false) || !near() || s.enemies(c, t),
        }
}

/// [`maneuver_refused`] once its first part (`c` active, the maneuver's slot free) has passed:
/// the distance and the side.
fn maneuver_refused_at(s: &State, c: Cx, kind: &str, t: Cx) -> bool {
    let near = || s.distance(c, t) == Some(1);
    match kind {
        "grab" | "knockback" | "aid-attack" => !near(),
        "heal" => s.distance(c, t).is_none_or(|d| d > 1) || s.enemies(c, t),
        "end-condition" => !gave_conditions(s, c, t),
        _ => !near() || s.enemies(c, t),
    }
}

fn maneuver_targets_iter<'a>(s: &'a State, c: Cx, kind: &'a str) -> impl Iterator<Item = Cx> + 'a {
    // The part of `maneuver_refused` that does not depend on the target, asked once.
    let slot = match kind {
        "heal" => Slot::Main,
        "end-condition" => Slot::Free,
        _ => Slot::Maneuver,
    };
    let open = s.c(c).active() && slot_ok(s, c, slot, false);
    s.active().take_while(move |_| open).filter(move |&t| {
        let offered = t != c && !maneuver_refused_at(s, c, kind, t) && maneuver_allowed(s, c, kind, t);
        debug_assert_eq!(
            open && t != c && !maneuver_refused_at(s, c, kind, t),
            !maneuver_refused(s, c, kind, t) && t != c
        );
        debug_assert_eq!(
            offered,
            t != c && !maneuver_refused(s, c, kind, t) && check_verb(s, c, &maneuver_verb(kind, t), false).is_ok()
        );
        offered
    })
}

/// Whether [`check_verb`] accepts the maneuver at `t` (not `c`) that [`maneuver_refused`] has
/// let through: the refusals it has not checked, as a yes/no with no words built.
fn maneuver_allowed(s: &State, c: Cx, kind: &str, t: Cx) -> bool {
    match kind {
        "grab" | "knockback" => {
            // DS-COND-GRAB-1; up to your size, or bigger up to your Might (DS-GAP-24, DS-DELTA-7).
            let (me, size) = (s.c(c), s.c(t).size);
            let might = me.char(Characteristic::Might);
            !(kind == "knockback" && s.has(c, ConditionKind::Grabbed))
                && !(size.rank() > me.size.rank() && !(might >= 2 && size.value() <= might))
                && !squad_maneuvered(s, c, kind, t)
        }
        "heal" => s.c(t).recoveries > 0,
        "aid-attack" => s.enemies(c, t),
        "end-condition" => true,
        _ => s.has(t, ConditionKind::Prone),
    }
}

/// DS-GAP-22: the conditions `c` gave `t` that it may end as a free maneuver. A grab is let go
/// with `release` instead (DS-COND-GRAB-3).
fn given_conditions(s: &State, c: Cx, t: Cx) -> impl Iterator<Item = &crate::state::Condition> {
    s.c(t).conditions.iter().filter(move |k| k.source == Some(c) && k.kind != ConditionKind::Grabbed)
}

fn gave_conditions(s: &State, c: Cx, t: Cx) -> bool {
    given_conditions(s, c, t).next().is_some()
}

/// Whether a shift to `q` is plainly refused: a cheap necessary condition of [`check_verb`]
/// refusing it.
fn shift_refused(s: &State, c: Cx, q: Pos) -> bool {
    !s.c(c).active()
        || !slot_ok(s, c, Slot::Move, false)
        || s.has(c, ConditionKind::Slowed)
        || matches!(s.terrain_at(q), Terrain::Difficult | Terrain::Damaging)
        || occupant(s, c, q).is_some()
}

/// Whether [`check_verb`] accepts a shift by `c` from `p` to `q`: [`shift_refused`], then its
/// other refusals as a yes/no with no words built. `able` holds the parts that do not depend
/// on `q` (active, a move action left, not slowed, speed not 0: [`shift_able`]).
fn shift_offered(s: &State, c: Cx, p: Pos, q: Pos, able: bool, step: impl FnOnce() -> Option<u32>) -> bool {
    let offered = able
        && !matches!(s.terrain_at(q), Terrain::Difficult | Terrain::Damaging)
        && occupant(s, c, q).is_none()
        && distance(p, 1, q, 1) == 1
        // Also can_end: its occupant test is the one above, and a step's cost is `None` unless
        // every square of the footprint at `q` is standable.
        && step().is_some();
    debug_assert_eq!(offered, !shift_refused(s, c, q) && check_verb(s, c, &Verb::Shift(q), false).is_ok());
    offered
}

/// The parts of [`shift_offered`] that do not depend on the square.
fn shift_able(s: &State, c: Cx) -> bool {
    s.c(c).active() && slot_ok(s, c, Slot::Move, false) && !s.has(c, ConditionKind::Slowed) && speed(s, c) != 0
}

fn shift_squares(s: &State, c: Cx) -> Vec<Pos> {
    let Some(p) = s.c(c).pos else { return vec![] };
    let able = shift_able(s, c);
    p.neighbours().into_iter().filter(|&q| shift_offered(s, c, p, q, able, || step_cost(s, c, p, q, false))).collect()
}

/// Whether [`shift_squares`] is not empty; `able`: [`shift_able`].
fn any_shift_square(s: &State, c: Cx, able: bool, steps: &FirstSteps) -> bool {
    let Some(p) = s.c(c).pos else { return false };
    p.neighbours().into_iter().enumerate().any(|(i, q)| shift_offered(s, c, p, q, able, || steps.cost(i)))
}

fn free_strike_targets(s: &State, c: Cx) -> Vec<Cx> {
    free_strike_iter(s, c).collect()
}

fn free_strike_iter(s: &State, c: Cx) -> impl Iterator<Item = Cx> + '_ {
    // Heroes: melee 1 or ranged 5; Director creatures likewise reach 1 or 5 (DS-GAP-13).
    let reach = 5;
    s.active()
        .filter(move |&t| t != c && s.enemies(c, t) && s.distance(c, t).is_some_and(|d| d <= reach))
        .filter(move |&t| !abilities::hidden_from(s, t, c) && abilities::line_of_effect(s, c, t) != Sight::Blocked)
}

/// A set of a map's squares by index (`y * width + x`): a bit each on a small map, a table
/// otherwise.
enum SquareSet {
    Bits(u128),
    Table(Vec<bool>),
}

impl SquareSet {
    fn new(w: i32, h: i32) -> Self {
        let n = (w.max(0) * h.max(0)) as usize;
        if n <= 128 { SquareSet::Bits(0) } else { SquareSet::Table(vec![false; n]) }
    }
    #[inline]
    fn insert(&mut self, i: usize) {
        match self {
            SquareSet::Bits(b) => *b |= 1 << i,
            SquareSet::Table(t) => t[i] = true,
        }
    }
    #[inline]
    fn contains(&self, i: usize) -> bool {
        match self {
            SquareSet::Bits(b) => b >> i & 1 == 1,
            SquareSet::Table(t) => t[i],
        }
    }
}

/// Whether some creature has a square to charge to ([`charge_squares`] not empty for one of
/// them): each quadrant's straight runs searched only until a square beside one is found.
/// `speed`: the charger's [`speed`].
fn can_charge_someone<'g>(s: &State, c: Cx, speed: i32, ground: impl FnOnce() -> &'g Ground) -> bool {
    let Some(start) = s.c(c).pos else { return false };
    let size = s.c(c).size.squares;
    let near_one = |q: Pos| {
        s.active().any(|t| {
            s.enemies(c, t)
                && !abilities::hidden_from(s, t, c)
                && distance(q, size, s.c(t).pos.unwrap(), s.c(t).size.squares) == 1
        })
    };
    if !s.active().any(|t| s.enemies(c, t) && !abilities::hidden_from(s, t, c)) {
        return false;
    }
    let unafraid = unafraid_of(s, c);
    debug_assert_eq!(speed, self::speed(s, c));
    let budget = speed.max(0) as u32;
    // The squares the searches accept, looked for first: beside a creature that can be charged,
    // free to end on, other than the start, within `budget` squares of it (a step costs at least
    // 1). A quadrant's runs stay in it, so only the quadrants holding such a square are searched.
    // `ring`: the map's squares beside a creature that can be charged (`near_one`) within
    // `budget` squares of the start, the only ones the searches below may accept.
    let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
    let mut ring = SquareSet::new(w, h);
    let mut wanted = [false; 4];
    // How far each quadrant's ring squares lie from the start (columns, rows): its runs are
    // looked at no farther.
    let mut extent = [(0, 0); 4];
    for t in s.active().filter(|&t| s.enemies(c, t) && !abilities::hidden_from(s, t, c)) {
        let (tp, ts) = (s.c(t).pos.unwrap(), s.c(t).size.squares);
        for y in tp.y - size..=tp.y + ts {
            for x in tp.x - size..=tp.x + ts {
                let q = Pos::new(x, y);
                let (ox, oy) = (q.x - start.x, q.y - start.y);
                if q == start || ox.abs().max(oy.abs()) > budget as i32 || distance(q, size, tp, ts) != 1 {
                    continue;
                }
                if x >= 0 && y >= 0 && x < w && y < h {
                    ring.insert((y * w + x) as usize);
                    for (e, &(sx, sy)) in extent.iter_mut().zip(&QUADRANTS) {
                        if ox * sx >= 0 && oy * sy >= 0 {
                            *e = (e.0.max(ox.abs()), e.1.max(oy.abs()));
                        }
                    }
                }
                if QUADRANTS.iter().zip(&wanted).all(|(&(sx, sy), &w)| w || ox * sx < 0 || oy * sy < 0)
                    || !can_end(s, c, q)
                    || !unafraid(q)
                {
                    continue;
                }
                // One step away: the search's first step reaches it (and accepts it) if it fits.
                if ox.abs().max(oy.abs()) == 1
                    && s.arena.terrain.get(q).is_some()
                    && step_cost_run(s, c, start, q, true, false).is_some_and(|k| k <= budget)
                {
                    return true;
                }
                for (w, &(sx, sy)) in wanted.iter_mut().zip(&QUADRANTS) {
                    *w |= ox * sx >= 0 && oy * sy >= 0;
                }
            }
        }
    }
    if !wanted.contains(&true) {
        return false;
    }
    // The charge's squares kept from an earlier question answer as the searches would.
    if let Some(found) =
        kept_charge_reach(s, c, budget, |seen| seen.iter().any(|&q| reached_end(s, c, q) && unafraid(q) && near_one(q)))
    {
        return found;
    }
    let ground = ground();
    // A reached square is on the map, other than the start and within `budget` squares of it
    // (a step costs at least 1): `near_one` there is `ring`.
    let in_ring = |q: Pos| ring.contains((q.y * w + q.x) as usize);
    let mut cost = Vec::new();
    let found = QUADRANTS.iter().zip(wanted).zip(extent).any(|((&quadrant, wanted), extent)| {
        wanted
            && quadrant_costs(ground, s, start, budget, quadrant, extent, &mut cost, |q| {
                debug_assert_eq!(in_ring(q), near_one(q));
                in_ring(q) && reached_end(s, c, q) && unafraid(q)
            })
    });
    debug_assert_eq!(
        found,
        with_scratch(|sc| {
            QUADRANTS.iter().zip(wanted).any(|(&quadrant, wanted)| {
                wanted
                    && sc
                        .find_pruned(w, h, start, budget, charge_edges(ground, s, quadrant), |q| {
                            in_ring(q) && reached_end(s, c, q) && unafraid(q)
                        })
                        .is_some()
            })
        })
    );
    found
}

fn charge_squares(s: &State, c: Cx, t: Cx) -> Vec<Pos> {
    if !s.enemies(c, t) || abilities::hidden_from(s, t, c) {
        return vec![];
    }
    charge_squares_among(s, c, t, &charge_ends(s, c))
}

/// [`charge_squares`] from the squares [`charge_ends`] gave.
fn charge_squares_among(s: &State, c: Cx, t: Cx, ends: &[Pos]) -> Vec<Pos> {
    if !s.enemies(c, t) || abilities::hidden_from(s, t, c) {
        return vec![];
    }
    let (tp, ts) = (s.c(t).pos.unwrap(), s.c(t).size.squares);
    ends.iter().copied().filter(|&q| distance(q, s.c(c).size.squares, tp, ts) == 1).collect()
}

/// The squares a charge may end on, in the order [`destinations`] gives them for a charge,
/// without their routes (DS-CHG-1).
fn charge_ends(s: &State, c: Cx) -> Vec<Pos> {
    let Some(start) = s.c(c).pos else { return vec![] };
    let unafraid = unafraid_of(s, c);
    let budget = speed(s, c).max(0) as u32;
    with_charge_reach(s, c, start, budget, |seen| {
        seen.iter().copied().filter(|&q| reached_end(s, c, q) && unafraid(q)).collect()
    })
}

/// Everyone an area or self ability catches.
pub fn area_targets(s: &State, c: Cx, a: &AbilityDef) -> Vec<Cx> {
    if a.target == TargetKind::Myself {
        return vec![c];
    }
    targets_for(s, c, a)
}

/// What a pending choice offers, before its `cancel`: creatures or squares.
pub enum Choices {
    /// Creatures, by index.
    Units(Vec<Cx>),
    /// Squares.
    Squares(Vec<Pos>),
}

/// The creatures or squares a pending choice offers, in the order its question lists them.
pub fn pending_choices(s: &State, c: Cx, p: &Pending) -> Choices {
    match p {
        Pending::Move => Choices::Squares(destination_squares(s, c, advance_budget(s, c))),
        Pending::Shift => Choices::Squares(shift_squares(s, c)),
        Pending::Target(a) => Choices::Units(targets_for(s, c, a)),
        Pending::FreeStrike => Choices::Units(free_strike_targets(s, c)),
        Pending::Charge => {
            let ends = charge_ends(s, c);
            Choices::Units(s.active().filter(|&t| !charge_squares_among(s, c, t, &ends).is_empty()).collect())
        }
        Pending::ChargeSquare(t) => Choices::Squares(charge_squares(s, c, *t)),
        Pending::Area(a) => Choices::Squares(crate::areas::placements(s, c, a)),
        Pending::Maneuver(kind) => Choices::Units(maneuver_targets(s, c, kind)),
    }
}

/// The question a pending choice asks.
pub fn pending_question(s: &State, c: Cx, p: &Pending) -> (&'static str, String, Vec<DecisionOption>) {
    let name = who(s, c);
    let mut o: Vec<DecisionOption> = match pending_choices(s, c, p) {
        Choices::Units(ts) => {
            ts.into_iter().map(|t| DecisionOption::new(who(s, t).to_string(), s.c(t).name.to_string())).collect()
        }
        Choices::Squares(qs) => {
            let how = match p {
                Pending::Shift => "shift to",
                Pending::ChargeSquare(_) => "charge to",
                Pending::Area(_) => "place it at",
                _ => "to",
            };
            qs.into_iter().map(|q| DecisionOption::square(q, format!("{how} {q}"))).collect()
        }
    };
    o.push(DecisionOption::new("cancel", "back to the menu"));
    let kind = if matches!(p, Pending::Move | Pending::Shift | Pending::ChargeSquare(_) | Pending::Area(_)) {
        "square"
    } else {
        "target"
    };
    (kind, format!("{name}: choose"), o)
}

/// Answers the menu.
pub fn answer_menu(cx: &mut Ctx, c: Cx, option: &str, extra: bool) -> Result<(), RuleError> {
    if !extra {
        cx.push(Frame::Act { c });
    }
    let s = &*cx.s;
    let next: Result<Verb, Pending> = match option {
        "end-turn" => Ok(Verb::EndTurn),
        "decline" => return Ok(()),
        "advance" => Err(Pending::Move),
        "shift" => Err(Pending::Shift),
        "free-strike" => Err(Pending::FreeStrike),
        "charge" => Err(Pending::Charge),
        "stand-up" => Ok(Verb::StandUp),
        "catch-breath" => Ok(Verb::CatchBreath),
        "escape-grab" => Ok(Verb::EscapeGrab),
        "hide" => Ok(Verb::Hide),
        "defend" => Ok(Verb::Defend),
        "go-prone" => Ok(Verb::GoProne),
        "jump-test" => Ok(Verb::JumpTest),
        "token-surges" => Ok(Verb::Token("surges".into())),
        "release" => Ok(Verb::Release),
        "grab" => Err(Pending::Maneuver("grab")),
        "knockback" => Err(Pending::Maneuver("knockback")),
        "help-up" => Err(Pending::Maneuver("help-up")),
        "heal" => Err(Pending::Maneuver("heal")),
        "aid-attack" => Err(Pending::Maneuver("aid-attack")),
        "end-condition" => Err(Pending::Maneuver("end-condition")),
        "search" => Ok(Verb::Search),
        "token-stamina" => Ok(Verb::Token("stamina".into())),
        "brutal-effectiveness" => Ok(Verb::Brutal),
        "end-effect" => Ok(Verb::EndEffect),
        "solo-action" => Ok(Verb::SoloAction),
        "malicious-strike" => {
            check_offered(s, c, &Verb::MaliciousStrike(MALICIOUS_STRIKE), extra, None)?;
            cx.push(Frame::MaliceAmount { c });
            return Ok(());
        }
        other => {
            let id = other
                .strip_prefix("ability:")
                .ok_or_else(|| RuleError::malformed(format!("unknown option {other:?}")))?;
            let a = s
                .c(c)
                .abilities
                .iter()
                .find(|a| a.id == id)
                .cloned()
                .ok_or_else(|| RuleError::malformed(format!("no ability {id:?}")))?;
            if a.distance.needs_square() {
                Err(Pending::Area(a))
            } else if a.distance.is_area() || a.target == TargetKind::Myself {
                Ok(Verb::Ability(a.clone(), area_targets(s, c, &a), None))
            } else {
                Err(Pending::Target(a))
            }
        }
    };
    match next {
        Ok(v) => {
            check_offered(cx.s, c, &v, extra, None)?;
            execute(cx, c, v, extra)
        }
        Err(p) => {
            if extra {
                cx.push(Frame::Extra { c });
            }
            cx.push(Frame::Pending { c, p });
            Ok(())
        }
    }
}

/// Answers a pending choice.
pub fn answer_pending(cx: &mut Ctx, c: Cx, p: Pending, option: &str) -> Result<(), RuleError> {
    let extra = matches!(cx.s.flow.last(), Some(Frame::Extra { .. }));
    if extra {
        cx.s.flow.pop();
    }
    if option == "cancel" {
        return Ok(());
    }
    let s = &*cx.s;
    let sq = || Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"));
    let unit = || s.find(option).ok_or_else(|| RuleError::malformed(format!("no creature {option:?}")));
    let mut routed = None;
    let v = match p {
        Pending::Move => {
            let to = sq()?;
            let budget = advance_budget(s, c);
            let path = destination_route(s, c, budget, to).ok_or_else(|| RuleError::malformed("unreachable"))?;
            routed = Some((budget, route_cost(s, c, &path)));
            Verb::Move(path)
        }
        Pending::Shift => Verb::Shift(sq()?),
        Pending::Target(a) => Verb::Ability(a, vec![unit()?], None),
        Pending::FreeStrike => Verb::FreeStrike(unit()?),
        Pending::Charge => {
            let t = unit()?;
            cx.push(Frame::Pending { c, p: Pending::ChargeSquare(t) });
            return Ok(());
        }
        Pending::ChargeSquare(t) => Verb::Charge(t, sq()?),
        Pending::Maneuver(kind) => maneuver_verb(kind, unit()?),
        Pending::Area(a) => {
            let q = sq()?;
            let targets = crate::areas::targets(s, c, &a, q);
            Verb::Ability(a, targets, Some(q))
        }
    };
    check_offered(cx.s, c, &v, extra, routed)?;
    execute_routed(cx, c, v, extra, routed.map(|(_, cost)| cost))
}

/// [`check_verb_routed`] for a verb an offered option makes. An answer is one of the options
/// the menu offered (the session checks that before `Game::apply`), and the menus offer only
/// what the check allows: the conformance harness holds every offered option to being
/// accepted. So a release build does not check it twice; test builds (debug assertions on)
/// still do.
fn check_offered(s: &State, c: Cx, v: &Verb, extra: bool, routed: Option<(i32, Option<i32>)>) -> Result<(), RuleError> {
    if cfg!(debug_assertions) { check_verb_routed(s, c, v, extra, routed) } else { Ok(()) }
}

/// Parses a command.
pub fn parse(s: &State, cmd: &Command) -> Result<(Cx, Verb), RuleError> {
    let c = s.find(&cmd.unit).ok_or_else(|| RuleError::malformed(format!("no creature called {:?}", cmd.unit)))?;
    let unit = |id: &str| s.find(id).ok_or_else(|| RuleError::malformed(format!("no creature called {id:?}")));
    let mut verbs = Vec::new();
    if let Some(id) = &cmd.ability {
        let a = s.c(c).abilities.iter().find(|a| a.id == *id || a.name.eq_ignore_ascii_case(id)).cloned();
        let a = a.ok_or_else(|| RuleError::malformed(format!("{} has no ability {id:?}", cmd.unit)))?;
        let targets = match (&cmd.target, a.distance.needs_square()) {
            (_, true) => {
                let sq = cmd.square.ok_or_else(|| {
                    RuleError::malformed(format!(
                        "{} needs square = [x, y] (a cube's corner or a line's direction)",
                        a.name
                    ))
                })?;
                if crate::areas::squares(s, c, &a, sq).is_none() {
                    return Err(RuleError::refused("DS-GAP-8", format!("{} cannot be placed at {sq}", a.name)));
                }
                crate::areas::targets(s, c, &a, sq)
            }
            (Some(Targets::One(t)), _) => vec![unit(t)?],
            (Some(Targets::Many(ts)), _) => ts.iter().map(|t| unit(t)).collect::<Result<_, _>>()?,
            (None, _) => area_targets(s, c, &a),
        };
        let square = cmd.square.filter(|_| a.distance.needs_square());
        verbs.push(Verb::Ability(a, targets, square));
    }
    if let Some(r) = &cmd.move_to {
        let path = match r {
            Route::Path(p) => p.clone(),
            Route::To(to) => {
                occupied_error(s, c, *to)?;
                destination_route(s, c, speed(s, c), *to).ok_or_else(|| {
                    RuleError::refused(
                        "DS-TURN-1",
                        format!("{} cannot reach {to} with its speed {}", cmd.unit, speed(s, c)),
                    )
                })?
            }
        };
        verbs.push(Verb::Move(path));
    }
    if let Some(p) = cmd.shift {
        verbs.push(Verb::Shift(p));
    }
    if let Some(t) = &cmd.charge {
        let sq = cmd.square.ok_or_else(|| RuleError::malformed("a charge needs square = [x, y]"))?;
        verbs.push(Verb::Charge(unit(t)?, sq));
    }
    if let Some(t) = &cmd.free_strike {
        verbs.push(Verb::FreeStrike(unit(t)?));
    }
    for (flag, v) in [
        (cmd.stand_up, Verb::StandUp),
        (cmd.catch_breath, Verb::CatchBreath),
        (cmd.escape_grab, Verb::EscapeGrab),
        (cmd.go_prone, Verb::GoProne),
        (cmd.defend, Verb::Defend),
        (cmd.hide, Verb::Hide),
        (cmd.jump_test, Verb::JumpTest),
        (cmd.search, Verb::Search),
        (cmd.end_effect, Verb::EndEffect),
        (cmd.end_turn && cmd.token_save.is_none(), Verb::EndTurn),
    ] {
        if flag {
            verbs.push(v);
        }
    }
    if let Some(t) = &cmd.test {
        let ch = Characteristic::parse(&t.characteristic)
            .ok_or_else(|| RuleError::malformed(format!("no characteristic {:?}", t.characteristic)))?;
        let d = Difficulty::parse(&t.difficulty)
            .ok_or_else(|| RuleError::malformed("difficulty is easy, medium or hard"))?;
        verbs.push(Verb::Test(ch, d, t.skill));
    }
    if let Some(t) = &cmd.token {
        verbs.push(Verb::Token(t.clone()));
    }
    match cmd.malice.as_deref() {
        None => {}
        Some("brutal-effectiveness") => verbs.push(Verb::Brutal),
        Some("solo-action") => verbs.push(Verb::SoloAction),
        Some(id) => {
            let a = s.c(c).abilities.iter().find(|a| a.id == id && a.usage == Usage::Malice).cloned();
            let a = a.ok_or_else(|| {
                RuleError::malformed(format!(
                    "{} has no Malice feature {id:?} (brutal-effectiveness, or one of its own)",
                    cmd.unit
                ))
            })?;
            let targets = match (&cmd.target, a.distance.needs_square()) {
                (_, true) => {
                    let sq =
                        cmd.square.ok_or_else(|| RuleError::malformed(format!("{} needs square = [x, y]", a.name)))?;
                    crate::areas::targets(s, c, &a, sq)
                }
                (Some(Targets::One(t)), _) => vec![unit(t)?],
                (Some(Targets::Many(ts)), _) => ts.iter().map(|t| unit(t)).collect::<Result<_, _>>()?,
                (None, _) => area_targets(s, c, &a),
            };
            let square = cmd.square.filter(|_| a.distance.needs_square());
            verbs.push(Verb::Ability(a, targets, square));
        }
    }
    if let Some(n) = cmd.malicious_strike {
        verbs.push(Verb::MaliciousStrike(n));
    }
    if let Some(r) = &cmd.rest {
        let how = crate::respite::Rest::parse(r).ok_or_else(|| {
            RuleError::malformed(format!("rest is \"respite\", \"interrupted\" or \"sleep\", not {r:?}"))
        })?;
        verbs.push(Verb::Rest(how));
    }
    if let Some(t) = &cmd.grab {
        verbs.push(Verb::Grab(unit(t)?));
    }
    if let Some(t) = &cmd.knockback {
        verbs.push(Verb::Knockback(unit(t)?));
    }
    if let Some(p) = cmd.move_grabbed {
        verbs.push(Verb::MoveGrabbed(p));
    }
    if cmd.release {
        verbs.push(Verb::Release);
    }
    if let Some(t) = &cmd.help_up {
        verbs.push(Verb::HelpUp(unit(t)?));
    }
    if let Some(t) = &cmd.aid_attack {
        verbs.push(Verb::AidAttack(unit(t)?));
    }
    if let Some(t) = &cmd.end_condition {
        verbs.push(Verb::EndCondition(unit(t)?));
    }
    if let (true, Some(k)) = (cmd.end_turn, &cmd.token_save) {
        let k = ConditionKind::parse(k)
            .ok_or_else(|| RuleError::malformed(format!("token_save: no condition called {k:?}")))?;
        verbs.push(Verb::EndTurnTokenSave(k));
    }
    if let Some(t) = &cmd.heal {
        verbs.push(Verb::Heal(unit(t)?));
    }
    match verbs.len() {
        1 => Ok((c, verbs.pop().unwrap())),
        0 => Err(RuleError::malformed(
            "the command has no action: give ability, move, shift, charge, free_strike, stand_up, catch_breath, escape_grab, go_prone, defend, hide, test, jump_test, token or end_turn",
        )),
        _ => Err(RuleError::malformed("one action per command")),
    }
}

/// Checks a verb against the rules.
pub fn check_verb(s: &State, c: Cx, v: &Verb, extra: bool) -> Result<(), RuleError> {
    check_verb_routed(s, c, v, extra, None)
}

/// [`check_verb`], told for a move that its route was found by [`destination_route`] with the
/// budget `routed.0` (so its end is known to be a destination with that budget), and its
/// [`route_cost`], `routed.1`.
fn check_verb_routed(
    s: &State,
    c: Cx,
    v: &Verb,
    extra: bool,
    routed: Option<(i32, Option<i32>)>,
) -> Result<(), RuleError> {
    if !s.c(c).active() && !matches!(v, Verb::EndTurn | Verb::EndTurnTokenSave(_) | Verb::Rest(_)) {
        return Err(RuleError::refused("DS-HP-DEATH", format!("{} is dead", who(s, c))));
    }
    match v {
        Verb::Move(path) => {
            let cost = routed.map_or_else(|| route_cost(s, c, path), |(_, cost)| cost);
            debug_assert_eq!(cost, route_cost(s, c, path));
            let fresh = extra || !cost.is_some_and(|k| continues_move(s, c, k));
            if fresh {
                check_slot(s, c, Slot::Move, extra)?;
            }
            if speed(s, c) == 0 {
                let rule = if s.has(c, ConditionKind::Grabbed) { "DS-COND-GRAB-1" } else { "DS-COND-RESTR-1" };
                return Err(RuleError::refused(rule, format!("{}'s speed is 0", who(s, c))));
            }
            let dest = *path.last().ok_or_else(|| RuleError::malformed("an empty route"))?;
            occupied_error(s, c, dest)?;
            let budget = if fresh { speed(s, c) } else { move_budget(s, c) };
            let reachable_end = routed.is_some_and(|(b, _)| b == budget) || is_destination(s, c, budget, dest);
            if !reachable_end || cost.is_none_or(|k| k > budget) {
                let rule = if s.has(c, ConditionKind::Frightened) { "DS-COND-FRIGHT" } else { "DS-TURN-1" };
                return Err(RuleError::refused(
                    rule,
                    format!("{} cannot move to {dest} that way with {budget} squares of movement", who(s, c)),
                ));
            }
            Ok(())
        }
        Verb::Shift(q) => {
            check_slot(s, c, Slot::Move, extra)?;
            if s.has(c, ConditionKind::Slowed) {
                return Err(RuleError::refused("DS-COND-SLOW", format!("{} is slowed and cannot shift", who(s, c))));
            }
            if speed(s, c) == 0 {
                return Err(RuleError::refused("DS-COND-GRAB-1", format!("{}'s speed is 0", who(s, c))));
            }
            let p = s.c(c).pos.unwrap();
            let t = s.terrain_at(*q);
            if matches!(t, Terrain::Difficult | Terrain::Damaging) {
                return Err(RuleError::refused("DS-SHIFT-1", "no shifting into difficult or damaging terrain"));
            }
            occupied_error(s, c, *q)?;
            if distance(p, 1, *q, 1) != 1 || step_cost(s, c, p, *q, false).is_none() || !can_end(s, c, *q) {
                return Err(RuleError::refused("DS-SHIFT-1", format!("{} cannot shift to {q}", who(s, c))));
            }
            Ok(())
        }
        Verb::Charge(t, sq) => {
            check_slot(s, c, Slot::Main, extra)?;
            occupied_error(s, c, *sq)?;
            if !charge_squares(s, c, *t).contains(sq) {
                return Err(RuleError::refused(
                    "DS-CHG-1",
                    format!("{sq} is not the end of a straight run beside {}", who(s, *t)),
                ));
            }
            Ok(())
        }
        Verb::Ability(a, targets, _) => check_ability(s, c, a, targets, extra),
        Verb::Brutal => check_malice(s, c, BRUTAL_EFFECTIVENESS, extra),
        Verb::SoloAction => {
            if !s.c(c).solo {
                return Err(RuleError::refused("DS-GAP-19", format!("{} is not a solo", who(s, c))));
            }
            check_malice(s, c, SOLO_ACTION, extra)
        }
        Verb::EndEffect => {
            if !s.c(c).solo {
                return Err(RuleError::refused("DS-GAP-19", format!("{} is not a solo", who(s, c))));
            }
            if extra || s.current != Some(c) {
                return Err(RuleError::refused("DS-GAP-19", "End Effect is used on the solo's own turn"));
            }
            if !s.c(c).conditions.iter().any(|k| k.until == Until::SaveEnds) {
                return Err(RuleError::refused("DS-GAP-19", format!("{} has no save-ends effect to end", who(s, c))));
            }
            Ok(())
        }
        Verb::MaliciousStrike(n) => {
            check_malice(s, c, MALICIOUS_STRIKE, extra)?;
            malicious_strike_allowed(s, c)?;
            let most = malicious_strike_most(s, c);
            if !(MALICIOUS_STRIKE..=most).contains(n) {
                return Err(RuleError::refused(
                    "DS-GAP-17",
                    format!("Malicious Strike for {} takes {MALICIOUS_STRIKE} to {most} Malice, not {n}", who(s, c)),
                ));
            }
            check_malice(s, c, *n, extra)
        }
        Verb::FreeStrike(t) => {
            check_slot(s, c, Slot::Main, extra)?;
            if !free_strike_targets(s, c).contains(t) {
                return Err(RuleError::refused("DS-FS-1", format!("{} cannot free strike {}", who(s, c), who(s, *t))));
            }
            Ok(())
        }
        Verb::StandUp => {
            check_slot(s, c, Slot::Maneuver, extra)?;
            if !s.has(c, ConditionKind::Prone) {
                return Err(RuleError::refused("DS-COND-PRONE-2", format!("{} is not prone", who(s, c))));
            }
            if s.has(c, ConditionKind::Restrained) {
                return Err(RuleError::refused("DS-COND-RESTR-1", "a restrained creature cannot stand up"));
            }
            Ok(())
        }
        Verb::CatchBreath => {
            check_slot(s, c, Slot::Maneuver, extra)?;
            if s.c(c).dying() {
                return Err(RuleError::refused(
                    "DS-HP-DYING-1",
                    format!("{} is dying and cannot catch its breath", who(s, c)),
                ));
            }
            if s.c(c).recoveries <= 0 {
                return Err(RuleError::refused("DS-REC-1", format!("{} has no Recoveries left", who(s, c))));
            }
            Ok(())
        }
        Verb::EscapeGrab => {
            check_slot(s, c, Slot::Maneuver, extra)?;
            if !s.has(c, ConditionKind::Grabbed) {
                return Err(RuleError::refused("DS-COND-GRAB-3", format!("{} is not grabbed", who(s, c))));
            }
            Ok(())
        }
        Verb::GoProne => {
            check_slot(s, c, Slot::Free, extra)?;
            if s.has(c, ConditionKind::Prone) {
                return Err(RuleError::refused("DS-COND-PRONE-1", "already prone"));
            }
            Ok(())
        }
        Verb::Defend => {
            check_slot(s, c, Slot::Main, extra)?;
            // DS-GAP-19: Defend rules out every other main action that turn, extra ones too.
            if s.c(c).acts.extra_used || (extra && s.c(c).acts.main) {
                return Err(RuleError::refused(
                    "DS-GAP-19",
                    format!("{} has taken another main action this turn and cannot Defend", who(s, c)),
                ));
            }
            Ok(())
        }
        Verb::Hide => {
            check_slot(s, c, Slot::Maneuver, extra)?;
            if s.options.hidden == crate::options::Text::Published {
                // DS-DELTA-8: hide from each enemy you have cover or concealment from; the others
                // still see you.
                let unseen = abilities::unobserved_by(s, c);
                if unseen.is_empty() {
                    return Err(RuleError::refused(
                        "DS-HIDE-1",
                        format!("{} has no cover or concealment from any enemy", who(s, c)),
                    ));
                }
                if unseen.iter().all(|&e| abilities::hidden_from(s, c, e)) {
                    return Err(RuleError::refused(
                        "DS-HIDE-1",
                        format!("{} is already hidden from every enemy it has cover or concealment from", who(s, c)),
                    ));
                }
                return Ok(());
            }
            if s.c(c).hidden {
                return Err(RuleError::refused("DS-HIDE-1", "already hidden"));
            }
            let observed = s.active().any(|e| s.enemies(c, e) && abilities::clear_line_of_effect(s, e, c))
                && !abilities::concealed(s, c);
            if observed {
                return Err(RuleError::refused(
                    "DS-HIDE-1",
                    format!("{} is observed: get out of sight (cover or concealment) first", who(s, c)),
                ));
            }
            Ok(())
        }
        Verb::Test(..) => Ok(()),
        Verb::JumpTest => {
            if s.c(c).acts.jump_tested {
                return Err(RuleError::refused("DS-JUMP-3", format!("{} has made its jump test this turn", who(s, c))));
            }
            if s.has(c, ConditionKind::Prone) {
                return Err(RuleError::refused("DS-COND-PRONE-1", format!("{} is prone and cannot jump", who(s, c))));
            }
            let moving = s.c(c).acts.move_left > 0 && s.current == Some(c);
            if !moving {
                check_slot(s, c, Slot::Move, extra)?;
            }
            if speed(s, c) == 0 {
                return Err(RuleError::refused("DS-JUMP-5", format!("{} cannot move, so cannot jump", who(s, c))));
            }
            Ok(())
        }
        Verb::Grab(t) | Verb::Knockback(t) => {
            check_slot(s, c, Slot::Maneuver, extra)?;
            let knock = matches!(v, Verb::Knockback(_));
            if knock && s.has(c, ConditionKind::Grabbed) {
                return Err(RuleError::refused(
                    "DS-COND-GRAB-1",
                    format!("{} is grabbed and cannot use Knockback", who(s, c)),
                ));
            }
            if *t == c || s.distance(c, *t) != Some(1) {
                return Err(RuleError::refused("DS-GAP-12", format!("{} must be adjacent", who(s, *t))));
            }
            // Up to your own size (1T < 1S < 1M < 1L < 2 ..., DS-GAP-24), or a bigger creature
            // whose size is at most your Might if your Might is 2 or more (DS-DELTA-7).
            let me = s.c(c);
            let might = me.char(Characteristic::Might);
            let size = s.c(*t).size;
            if size.rank() > me.size.rank() && !(might >= 2 && size.value() <= might) {
                return Err(RuleError::refused(
                    "DS-GAP-12",
                    format!("{} is too big for {} to move", who(s, *t), who(s, c)),
                ));
            }
            let kind = if knock { "knockback" } else { "grab" };
            if squad_maneuvered(s, c, kind, *t) {
                return Err(RuleError::refused(
                    "DS-GAP-19",
                    format!("{}'s squad has already used its {kind} on {} this round", who(s, c), who(s, *t)),
                ));
            }
            Ok(())
        }
        Verb::MoveGrabbed(q) => {
            check_slot(s, c, Slot::Maneuver, extra)?;
            let v = s.active().find(|&v| s.source_of(v, ConditionKind::Grabbed) == Some(c));
            let Some(v) = v else {
                return Err(RuleError::refused("DS-COND-GRAB-2", format!("{} is grabbing nobody", who(s, c))));
            };
            let me = s.c(c);
            if distance(me.pos.unwrap(), me.size.squares, *q, s.c(v).size.squares) != 1 || !can_end(s, v, *q) {
                return Err(RuleError::refused(
                    "DS-COND-GRAB-2",
                    format!("{q} is not a free square next to {}", who(s, c)),
                ));
            }
            Ok(())
        }
        Verb::EndCondition(t) => {
            check_slot(s, c, Slot::Free, extra)?;
            if !gave_conditions(s, c, *t) {
                return Err(RuleError::refused(
                    "DS-GAP-22",
                    format!("{} holds no condition {} gave it", who(s, *t), who(s, c)),
                ));
            }
            Ok(())
        }
        Verb::Release => {
            if !s.active().any(|v| s.source_of(v, ConditionKind::Grabbed) == Some(c)) {
                return Err(RuleError::refused("DS-COND-GRAB-3", format!("{} is grabbing nobody", who(s, c))));
            }
            Ok(())
        }
        Verb::Heal(t) => {
            check_slot(s, c, Slot::Main, extra)?;
            if s.distance(c, *t).is_none_or(|d| d > 1) || s.enemies(c, *t) {
                return Err(RuleError::refused(
                    "DS-GAP-12",
                    format!("{} is not an ally next to {}", who(s, *t), who(s, c)),
                ));
            }
            if s.c(*t).recoveries <= 0 {
                return Err(RuleError::refused("DS-REC-1", format!("{} has no Recoveries left", who(s, *t))));
            }
            Ok(())
        }
        Verb::HelpUp(t) => {
            check_slot(s, c, Slot::Maneuver, extra)?;
            // DS-DELTA-14: only a willing creature is helped up, so never an enemy.
            if s.distance(c, *t) != Some(1) || !s.has(*t, ConditionKind::Prone) || s.enemies(c, *t) {
                return Err(RuleError::refused(
                    "DS-COND-PRONE-2",
                    format!("{} is not a prone ally next to {}", who(s, *t), who(s, c)),
                ));
            }
            Ok(())
        }
        Verb::Token(kind) => {
            let need = if kind == "stamina" { 2 } else { 1 };
            if !s.c(c).hero {
                return Err(RuleError::refused("DS-TOKEN-1", "only heroes spend hero tokens"));
            }
            if s.hero_tokens < need {
                return Err(RuleError::refused(
                    "DS-TOKEN-1",
                    format!("the heroes have {} hero token(s); this needs {need}", s.hero_tokens),
                ));
            }
            if s.token_spent_this_turn || s.current != Some(c) {
                return Err(RuleError::refused("DS-TOKEN-1", "one hero token a turn, on your own turn"));
            }
            if !matches!(kind.as_str(), "surges" | "stamina" | "test") {
                return Err(RuleError::malformed("token is \"surges\", \"stamina\" or \"test\""));
            }
            if kind == "test" && s.options.hero_tokens_on_tests == crate::options::Text::Published {
                // DS-DELTA-6: a token rerolls a test the hero has just made, whatever it came to;
                // a reroll stands (one token per test, DS-TOKEN-1).
                if s.rerollable.is_none_or(|(x, _)| x != c) {
                    return Err(RuleError::refused(
                        "DS-TOKEN-4",
                        format!("{} has made no test this turn that a hero token could reroll", who(s, c)),
                    ));
                }
            } else if kind == "test" {
                let failed = s.last_test.as_deref().is_some_and(|t| {
                    t.starts_with(&format!("{}:", who(s, c))) && (t.contains("failure") || t.contains("consequence"))
                });
                if !failed {
                    return Err(RuleError::refused(
                        "DS-TOKEN-4",
                        format!("{}'s last test did not fail or cost a consequence", who(s, c)),
                    ));
                }
            }
            Ok(())
        }
        Verb::EndTurn => Ok(()),
        Verb::Rest(_) => crate::respite::check(s, c),
        Verb::AidAttack(t) => {
            check_slot(s, c, Slot::Maneuver, extra)?;
            if !s.enemies(c, *t) || s.distance(c, *t) != Some(1) {
                return Err(RuleError::refused(
                    "DS-GAP-12",
                    format!("{} is not an enemy next to {}", who(s, *t), who(s, c)),
                ));
            }
            Ok(())
        }
        Verb::Search => {
            check_slot(s, c, Slot::Maneuver, extra)?;
            if search_targets(s, c).is_empty() {
                return Err(RuleError::refused(
                    "DS-GAP-23",
                    format!("no hidden enemy within 10 squares and in line of effect of {}", who(s, c)),
                ));
            }
            Ok(())
        }
        Verb::EndTurnTokenSave(_) => {
            if !s.c(c).hero || s.hero_tokens < 1 {
                return Err(RuleError::refused("DS-TOKEN-3", "a hero token is needed for that"));
            }
            Ok(())
        }
    }
}

fn spend(cx: &mut Ctx, c: Cx, what: &str) {
    cx.emit(Event::Spent { creature: cx.s.who(c), what: what.into() });
}

/// Carries out a checked verb.
pub fn execute(cx: &mut Ctx, c: Cx, v: Verb, extra: bool) -> Result<(), RuleError> {
    execute_routed(cx, c, v, extra, None)
}

/// [`execute`], told for a move the [`route_cost`] of its route if it is known.
fn execute_routed(cx: &mut Ctx, c: Cx, v: Verb, extra: bool, known: Option<Option<i32>>) -> Result<(), RuleError> {
    let main = if extra { "extra-main" } else { "main" };
    match v {
        Verb::EndTurn | Verb::EndTurnTokenSave(_) => {
            let token_save = if let Verb::EndTurnTokenSave(k) = v { Some(k) } else { None };
            if let Some(Frame::Act { c: x }) = cx.s.flow.last()
                && *x == c
            {
                cx.s.flow.pop();
            }
            cx.push(Frame::EndTurn { c, token_save });
        }
        Verb::Move(path) => {
            // DS-TURN-1: a move action's squares may be spent in several goes around the others;
            // a route that does not fit in what is left takes a fresh move action.
            let cost = known.unwrap_or_else(|| route_cost(cx.s, c, &path)).unwrap_or(0);
            debug_assert_eq!(cost, route_cost(cx.s, c, &path).unwrap_or(0));
            let budget = if !extra && continues_move(cx.s, c, cost) {
                move_budget(cx.s, c)
            } else {
                spend(cx, c, "move");
                speed(cx.s, c)
            };
            start_walk(cx, c, path, "moves", AfterWalk::MoveLeft((budget - cost).max(0)));
        }
        Verb::Shift(q) => {
            spend(cx, c, "move");
            shift_along(cx, c, &[q]);
        }
        Verb::Charge(t, sq) => {
            spend(cx, c, main);
            let path = charge_route(cx.s, c, speed(cx.s, c), sq).unwrap_or_default();
            start_walk(cx, c, path, "charges", AfterWalk::ChargeStrike(t));
        }
        Verb::Ability(a, targets, square) => {
            let usage = a.usage;
            if let Some(n) = a.cost {
                // DS-GAP-15: the ability's cost comes out of the hero's Heroic Resource.
                let total = cx.s.c(c).resource - n;
                let why = format!("spent {n} on {}", a.name);
                cx.emit(Event::Resource {
                    creature: cx.s.who(c),
                    total,
                    why,
                    damaged: false,
                    winded: false,
                    second: false,
                });
                crate::heroic::heroic_ability_used(cx, c); // DS-GAP-15: the tactician's focus
            }
            if usage == Usage::Malice {
                // DS-GAP-17: the creature's own Malice feature, paid from the Director's pool.
                let spent = a.malice.unwrap_or(0);
                cx.emit(Event::MaliceSpent {
                    creature: cx.s.who(c),
                    feature: a.id.clone(),
                    spent,
                    total: cx.s.malice - spent,
                    bonus: 0,
                });
                crate::heroic::malice_spent(cx, c); // DS-GAP-15: the null's discipline
            } else {
                spend(
                    cx,
                    c,
                    match usage {
                        Usage::Main => main,
                        Usage::Maneuver => "maneuver",
                        Usage::Move => "move",
                        _ => "triggered",
                    },
                );
            }
            if let Distance::Sweep { shift, .. } = a.distance {
                // DS-TURN-3: the move comes first, one square at a time; whom it affects is
                // known once the move has ended.
                let start = cx.s.c(c).pos.unwrap();
                let main_action = usage == Usage::Main;
                cx.push(Frame::Sweep { c, ability: a, left: shift, visited: vec![start], main_action });
            } else {
                // DS-GAP-20: a cube's or line's squares, for the objects inside it.
                let area = square.and_then(|q| crate::areas::squares(cx.s, c, &a, q)).unwrap_or_default();
                abilities::begin(cx, c, a, targets, area, usage == Usage::Main);
            }
        }
        Verb::Brutal => {
            let total = cx.s.malice - BRUTAL_EFFECTIVENESS;
            cx.emit(Event::MaliceSpent {
                creature: cx.s.who(c),
                feature: "brutal-effectiveness".into(),
                spent: BRUTAL_EFFECTIVENESS,
                total,
                bonus: 0,
            });
            crate::heroic::malice_spent(cx, c); // DS-GAP-15: the null's discipline
        }
        Verb::EndEffect => {
            // DS-GAP-19: 10 damage nothing reduces, then the first save-ends effect ends.
            let cond = cx.s.c(c).conditions.iter().find(|k| k.until == Until::SaveEnds).copied();
            crate::damage::lose(cx, c, END_EFFECT, "End Effect");
            if let Some(cond) = cond
                && cx.s.c(c).active()
            {
                cx.emit(Event::ConditionEnded { creature: cx.s.who(c), condition: cond, why: "End Effect".into() });
            }
        }
        Verb::SoloAction => {
            let total = cx.s.malice - SOLO_ACTION;
            cx.emit(Event::MaliceSpent {
                creature: cx.s.who(c),
                feature: "solo-action".into(),
                spent: SOLO_ACTION,
                total,
                bonus: 0,
            });
            crate::heroic::malice_spent(cx, c); // DS-GAP-15: the null's discipline
            cx.emit(Event::ExtraAction { creature: cx.s.who(c) });
            cx.push(Frame::Extra { c });
        }
        Verb::MaliciousStrike(n) => {
            // DS-GAP-17: the highest characteristic in extra damage, +1 for each Malice past 5.
            let bonus = cx.s.c(c).highest() + (n - MALICIOUS_STRIKE);
            let total = cx.s.malice - n;
            cx.emit(Event::MaliceSpent {
                creature: cx.s.who(c),
                feature: "malicious-strike".into(),
                spent: n,
                total,
                bonus,
            });
            crate::heroic::malice_spent(cx, c); // DS-GAP-15: the null's discipline
        }
        Verb::FreeStrike(t) => {
            spend(cx, c, main);
            abilities::free_strike(cx, c, t, true)?;
        }
        Verb::StandUp => {
            spend(cx, c, "maneuver");
            for x in cx.s.c(c).conditions.clone().into_iter().filter(|x| x.kind == ConditionKind::Prone) {
                cx.emit(Event::ConditionEnded { creature: cx.s.who(c), condition: x, why: "stood up".into() });
            }
        }
        Verb::CatchBreath => {
            spend(cx, c, "maneuver");
            crate::damage::spend_recovery(cx, c, "catching its breath");
        }
        Verb::EscapeGrab => {
            spend(cx, c, "maneuver");
            // DS-GAP-12: Might or Agility; tier 1 nothing, 2 free but the grabber strikes, 3 free.
            let g = cx.s.source_of(c, ConditionKind::Grabbed);
            let x = cx.s.c(c);
            let bonus = x.char(Characteristic::Might).max(x.char(Characteristic::Agility));
            let r = crate::rolls::roll(cx, c, bonus)?;
            let mut m = crate::rolls::Mods::default();
            if g.is_some_and(|g| cx.s.c(g).size.rank() > cx.s.c(c).size.rank()) {
                m.bane("smaller than the grabber");
            }
            let tier = r.tier(&m);
            cx.emit(Event::Tier {
                target: cx.s.who(c),
                tier,
                why: if cx.keeps() { m.describe() } else { String::new() },
            });
            if tier >= 1 {
                for cond in cx.s.c(c).conditions.clone().into_iter().filter(|x| x.kind == ConditionKind::Grabbed) {
                    cx.emit(Event::ConditionEnded { creature: cx.s.who(c), condition: cond, why: "escaped".into() });
                }
                if tier == 1
                    && let Some(g) = g
                {
                    abilities::free_strike(cx, g, c, false)?;
                }
            }
            crate::damage::bleed(cx, c, crate::damage::Deed::MightOrAgility)?;
        }
        Verb::GoProne => {
            crate::conditions::give_condition(cx, c, ConditionKind::Prone, None, crate::state::Until::Encounter);
        }
        Verb::Defend => {
            spend(cx, c, main);
            cx.emit(Event::Defending { creature: cx.s.who(c), on: true });
            crate::damage::bleed(cx, c, crate::damage::Deed::Main)?;
        }
        Verb::Hide => {
            spend(cx, c, "maneuver");
            // Glossary: hidden from everyone. Published: from the enemies it has cover or
            // concealment from (DS-DELTA-8).
            let seen_by = match cx.s.options.hidden {
                crate::options::Text::Glossary => Vec::new(),
                crate::options::Text::Published => {
                    let unseen = abilities::unobserved_by(cx.s, c);
                    cx.s.active().filter(|&e| cx.s.enemies(c, e) && !unseen.contains(&e)).map(|e| cx.s.who(e)).collect()
                }
            };
            cx.emit(Event::Hidden { creature: cx.s.who(c), hidden: true, seen_by });
        }
        Verb::Test(ch, d, skill) => {
            let kind = crate::rolls::TestKind { characteristic: ch, difficulty: d, skill };
            make_test(cx, c, kind, false)?;
            if matches!(ch, Characteristic::Might | Characteristic::Agility) {
                crate::damage::bleed(cx, c, crate::damage::Deed::MightOrAgility)?;
            }
        }
        Verb::JumpTest => {
            // DS-JUMP-3, DS-DELTA-11. Published: Might or Agility (the better), 12-16 adds a
            // square of length and height, 17+ two. Glossary: a medium Might test, a success
            // adds a square of length, a success with a reward two.
            let glossary = cx.s.options.jumping == crate::options::Text::Glossary;
            let x = cx.s.c(c);
            let ch = if glossary || x.char(Characteristic::Might) >= x.char(Characteristic::Agility) {
                Characteristic::Might
            } else {
                Characteristic::Agility
            };
            let bonus = x.char(ch);
            let a = cx.dice.roll(10)? as i32;
            let b = cx.dice.roll(10)? as i32;
            let mut m = crate::rolls::Mods::default();
            if cx.s.has(c, ConditionKind::Restrained) {
                m.bane("restrained");
            }
            if cx.s.has(c, ConditionKind::Weakened) {
                m.bane("weakened: a bane on every power roll, tests included");
            }
            let r = crate::rolls::Rolled { dice: [a, b], natural: a + b, bonus };
            let tier = r.tier(&m);
            let (outcome, extra) = if glossary {
                let o = crate::rolls::test_outcome(Difficulty::Medium, tier, r.natural_crit());
                (
                    o,
                    if o.contains("reward") {
                        2
                    } else if o.starts_with("success") {
                        1
                    } else {
                        0
                    },
                )
            } else {
                (["no farther", "a square farther and higher", "two squares farther and higher"][tier], tier as i32)
            };
            cx.emit(Event::Test {
                creature: cx.s.who(c),
                dice: [a, b],
                total: a + b + bonus,
                difficulty: if glossary { "medium (jump)".into() } else { "jump".into() },
                outcome: outcome.into(),
                again: None,
            });
            cx.emit(Event::JumpTest { creature: cx.s.who(c), extra });
            crate::damage::bleed(cx, c, crate::damage::Deed::MightOrAgility)?;
        }
        Verb::Grab(t) => {
            spend(cx, c, "maneuver");
            // DS-GAP-12: Might; tier 1 nothing, tier 2 grab but the target strikes back, tier 3 grab.
            let bonus = cx.s.c(c).char(Characteristic::Might);
            let r = maneuver_roll(cx, c, "grab", bonus)?;
            squad_maneuvers(cx, c, "grab", t);
            let tier = r.tier(&crate::rolls::Mods::default());
            cx.emit(Event::Tier { target: cx.s.who(t), tier, why: String::new() });
            if tier >= 1 {
                for v in
                    cx.s.active().filter(|&v| cx.s.source_of(v, ConditionKind::Grabbed) == Some(c)).collect::<Vec<_>>()
                {
                    crate::conditions::release(cx, v, "one grab at a time");
                }
                crate::conditions::give_condition(
                    cx,
                    t,
                    ConditionKind::Grabbed,
                    Some(c),
                    crate::state::Until::Encounter,
                );
                if tier == 1 {
                    abilities::free_strike(cx, t, c, false)?;
                }
            }
            crate::damage::bleed(cx, c, crate::damage::Deed::MightOrAgility)?;
        }
        Verb::Knockback(t) => {
            spend(cx, c, "maneuver");
            let bonus = cx.s.c(c).char(Characteristic::Might);
            let r = maneuver_roll(cx, c, "knockback", bonus)?;
            squad_maneuvers(cx, c, "knockback", t);
            let tier = r.tier(&crate::rolls::Mods::default());
            cx.emit(Event::Tier { target: cx.s.who(t), tier, why: String::new() });
            crate::forced::begin(cx, c, t, fray_core::engine::Forced::Push, tier as i32 + 1, false);
            crate::damage::bleed(cx, c, crate::damage::Deed::MightOrAgility)?;
        }
        Verb::MoveGrabbed(q) => {
            spend(cx, c, "maneuver");
            let grabbed = cx.s.active().find(|&v| cx.s.source_of(v, ConditionKind::Grabbed) == Some(c));
            if let Some(v) = grabbed {
                let from = cx.s.c(v).pos.unwrap();
                let z = cx.s.arena.ground(q);
                cx.emit(Event::moved(cx.s, v, from, q, z, "is hauled"));
                crate::damage::entered(cx, v, q);
            }
        }
        Verb::EndCondition(t) => {
            let ended: Vec<_> = given_conditions(cx.s, c, t).copied().collect();
            let why = format!("ended by {}", cx.s.c(c).id);
            for k in ended {
                cx.emit(Event::ConditionEnded { creature: cx.s.who(t), condition: k, why: why.clone() });
            }
        }
        Verb::Release => {
            for v in cx.s.active().filter(|&v| cx.s.source_of(v, ConditionKind::Grabbed) == Some(c)).collect::<Vec<_>>()
            {
                crate::conditions::release(cx, v, "let go");
            }
        }
        Verb::Heal(t) => {
            spend(cx, c, main);
            crate::damage::spend_recovery(cx, t, &format!("healed by {}", cx.s.c(c).id));
            crate::damage::bleed(cx, c, crate::damage::Deed::Main)?;
        }
        Verb::HelpUp(t) => {
            spend(cx, c, "maneuver");
            for x in cx.s.c(t).conditions.clone().into_iter().filter(|x| x.kind == ConditionKind::Prone) {
                cx.emit(Event::ConditionEnded {
                    creature: cx.s.who(t),
                    condition: x,
                    why: format!("helped up by {}", cx.s.c(c).id),
                });
            }
        }
        Verb::Rest(how) => crate::respite::take(cx, c, how),
        Verb::AidAttack(t) => {
            spend(cx, c, "maneuver");
            cx.emit(Event::Aid { target: cx.s.who(t), by: Some(cx.s.who(c)) });
        }
        Verb::Search => {
            spend(cx, c, "maneuver");
            // DS-GAP-23: the searcher's Intuition test against each hidden enemy's Agility
            // test, opposed: no tiers, the higher total wins, a tie leaves it hidden.
            let found = search_targets(cx.s, c);
            let mine = maneuver_roll(cx, c, "search", cx.s.c(c).char(Characteristic::Intuition))?;
            for h in found {
                squad_maneuvers(cx, c, "search", h);
                let theirs = crate::rolls::roll(cx, h, cx.s.c(h).char(Characteristic::Agility))?;
                let (a, b) = (mine.natural + mine.bonus, theirs.natural + theirs.bonus);
                if a > b {
                    cx.emit(Event::Hidden { creature: cx.s.who(h), hidden: false, seen_by: Vec::new() });
                } else {
                    cx.emit(Event::Note { text: format!("{} stays hidden ({b} against {a})", cx.s.c(h).id) });
                }
            }
        }
        Verb::Token(kind) if kind == "test" => {
            let total = cx.s.hero_tokens - 1;
            match (cx.s.options.hero_tokens_on_tests, cx.s.rerollable) {
                // DS-DELTA-6 (published): roll the same test again; the new roll stands. It is
                // still the one test, so bleeding does not bite a second time.
                (crate::options::Text::Published, Some((_, test))) => {
                    cx.emit(Event::HeroTokens { total, why: "spent 1 to reroll a test".into() });
                    make_test(cx, c, test, true)?;
                }
                // DS-TOKEN-4 (glossary): the test becomes a plain success.
                _ => {
                    cx.emit(Event::HeroTokens { total, why: "spent 1 to turn a test into a success".into() });
                    cx.emit(Event::Test {
                        creature: cx.s.who(c),
                        dice: [0, 0],
                        total: 0,
                        difficulty: "the same".into(),
                        outcome: "success (hero token)".into(),
                        again: None,
                    });
                }
            }
        }
        Verb::Token(kind) => {
            if kind == "surges" {
                let total = cx.s.hero_tokens - 1;
                cx.emit(Event::HeroTokens { total, why: "spent 1 for 2 surges".into() });
                let surges = cx.s.c(c).surges + 2;
                cx.emit(Event::Surges { creature: cx.s.who(c), total: surges, why: "hero token".into() });
            } else {
                let total = cx.s.hero_tokens - 2;
                cx.emit(Event::HeroTokens { total, why: "spent 2 for Stamina".into() });
                let v = cx.s.c(c).recovery_value();
                crate::damage::heal(cx, c, v, "hero tokens");
            }
        }
    }
    Ok(())
}

/// Makes a test (DS-TEST-2..5, DS-SKILL-1): 2d10 + the characteristic (+2 for a skill), a bane
/// for a restrained creature's Might or Agility test and for a weakened creature's. `reroll`
/// marks a hero token's reroll (DS-DELTA-6); a reroll can't itself be rerolled.
fn make_test(cx: &mut Ctx, c: Cx, kind: crate::rolls::TestKind, reroll: bool) -> Result<(), RuleError> {
    let ch = kind.characteristic;
    let bonus = cx.s.c(c).char(ch) + if kind.skill { 2 } else { 0 };
    let a = cx.dice.roll(10)? as i32;
    let b = cx.dice.roll(10)? as i32;
    let mut m = crate::rolls::Mods::default();
    if matches!(ch, Characteristic::Might | Characteristic::Agility) && cx.s.has(c, ConditionKind::Restrained) {
        m.bane("restrained");
    }
    if cx.s.has(c, ConditionKind::Weakened) {
        m.bane("weakened: a bane on every power roll, tests included");
    }
    let r = crate::rolls::Rolled { dice: [a, b], natural: a + b, bonus };
    let outcome = crate::rolls::test_outcome(kind.difficulty, r.tier(&m), r.natural_crit());
    let name = kind.difficulty.name();
    cx.emit(Event::Test {
        creature: cx.s.who(c),
        dice: [a, b],
        total: a + b + bonus,
        difficulty: if reroll { format!("{name} (rerolled with a hero token)") } else { name.into() },
        outcome: outcome.into(),
        again: (!reroll).then_some(kind),
    });
    Ok(())
}

/// Squares a sweeping ability's shift may enter next (DS-TURN-3, DS-SHIFT-1): adjacent, within
/// the squares left, not difficult or damaging, where the user could stand.
pub fn sweep_squares(s: &State, c: Cx, left: i32) -> Vec<Pos> {
    let Some(p) = s.c(c).pos else { return Vec::new() };
    p.neighbours()
        .into_iter()
        .filter(|&q| !matches!(s.terrain_at(q), Terrain::Difficult | Terrain::Damaging))
        .filter(|&q| step_cost(s, c, p, q, false).is_some_and(|k| k as i32 <= left) && can_end(s, c, q))
        .collect()
}

/// One square of a sweeping ability's shift, or its end: then the ability resolves against
/// every creature within reach of a space of the move, the first space left and the last
/// entered included (DS-TURN-3).
pub fn answer_sweep(
    cx: &mut Ctx,
    c: Cx,
    ability: Arc<AbilityDef>,
    mut left: i32,
    mut visited: Vec<Pos>,
    main_action: bool,
    option: &str,
) -> Result<(), RuleError> {
    if option != "stop" {
        let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y or stop"))?;
        let p = cx.s.c(c).pos.unwrap();
        left -= step_cost(cx.s, c, p, q, false).unwrap_or(1) as i32;
        shift_along(cx, c, &[q]);
        visited.push(q);
        if cx.s.c(c).active() && left > 0 && !sweep_squares(cx.s, c, left).is_empty() {
            cx.push(Frame::Sweep { c, ability, left, visited, main_action });
            return Ok(());
        }
    }
    if !cx.s.c(c).active() {
        return Ok(());
    }
    let Distance::Sweep { reach, .. } = ability.distance else { return Ok(()) };
    let size = cx.s.c(c).size.squares;
    let targets: Vec<Cx> =
        cx.s.active()
            .filter(|&t| t != c)
            .filter(|&t| match ability.target {
                TargetKind::Enemies => cx.s.enemies(c, t),
                TargetKind::Allies => !cx.s.enemies(c, t),
                _ => true,
            })
            .filter(|&t| {
                let (tp, ts) = (cx.s.c(t).pos.unwrap(), cx.s.c(t).size.squares);
                visited.iter().any(|&v| distance(v, size, tp, ts) <= reach)
            })
            .collect();
    abilities::begin(cx, c, ability, targets, Vec::new(), main_action);
    Ok(())
}

/// Notes for a person on the pending decision's options ([`fray_core::game::Game::notes`]):
/// the enemies an Advance to each square lets make an opportunity attack on the way (DS-OA-1),
/// and the option that ends the turn. Read from the state only; never journaled.
pub fn notes(s: &State) -> Vec<String> {
    let Some(d) = crate::flow::decision(s) else { return Vec::new() };
    match s.flow.last() {
        Some(Frame::Act { .. } | Frame::Extra { .. }) => {
            d.options.iter().map(|o| if o.id == "end-turn" { "ends the turn".into() } else { String::new() }).collect()
        }
        Some(Frame::Pending { c, p: crate::frames::Pending::Move }) => {
            let budget = advance_budget(s, *c);
            d.options
                .iter()
                .map(|o| {
                    o.square
                        .and_then(|q| destination_route(s, *c, budget, q))
                        .map(|p| provoked(s, *c, &p))
                        .unwrap_or_default()
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Who may make an opportunity attack on `c` walking `path` (the squares after its own), as a note.
fn provoked(s: &State, c: Cx, path: &[Pos]) -> String {
    let Some(mut from) = s.c(c).pos else { return String::new() };
    let mut by: Vec<Cx> = Vec::new();
    for &to in path {
        for e in opportunity_attackers(s, c, from, to) {
            if !by.contains(&e) {
                by.push(e);
            }
        }
        from = to;
    }
    let names: Vec<&str> = by.iter().map(|&e| &*s.c(e).id).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => format!("{one} may make an opportunity attack"),
        many => format!("{} may make opportunity attacks", many.join(", ")),
    }
}
