//! Defender and Controller role rules beyond the shared boost code (K-ROLE-3, §2.11): every
//! Defender's Opportunity bonus and Resist against its Marked enemies (L1877); the Punisher's
//! and Pursuer's Role Boosts (L1895-1915); the level-4 Controller boost's slide into other
//! characters (L1833); and the Controller specializations' features: Guardian, Protector,
//! Lockdown and Crowd Control (L1835-1867).

use crate::content::powers::Effect;
use crate::engine::events::Event;
pub use crate::engine::frames::roles::DefCtlFrame;
use crate::engine::kit::{Ctx, Flow, Frame};
use crate::engine::state::{State, UnitIdx};
use crate::rules::forced::{ForcedFrame, ForcedKind};
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::{Pos, footprint};
use fray_core::ruleset::RuleError;

/// How far the Punisher's level-4 second Mark reaches.
const PUNISHER_REACH: i32 = 5;

use crate::rules::query::is_role as is;
pub use crate::rules::query::{in_lockdown, lockdown_zones, opportunity_bonus, resist};

// ------------------------------------------------------------------ Punisher

/// The Punisher's Role Boost (L1895-1905): with an enemy already Marked by you, your
/// Opportunities deal 1 more damage until your next turn starts; with none, the target becomes
/// Marked by you, and from level 4 one more enemy within 5 squares too.
pub fn punisher(cx: &mut Ctx, user: UnitIdx, target: UnitIdx) {
    let why = format!("{}'s Role Boost", cx.s.unit(user).id);
    let s = &*cx.s;
    let marking = s.units_on_map().any(|t| s.enemies(user, t) && s.status_from(t, StatusKind::Marked, user).is_some());
    if marking {
        let m = crate::rules::modifiers::Modifier {
            kind: crate::rules::modifiers::ModifierKind::OpportunityDamage,
            amount: 1,
            attackers: crate::rules::modifiers::Attackers::Unit(user),
            against: None,
            first: false,
            during: None,
            duration: Duration::StartOfTurn { unit: user, turn: s.unit(user).turns_started + 1 },
            source: user,
            power: mark_power(s),
        };
        cx.emit(Event::ModifierAdded { name: why, modifier: m });
        return;
    }
    if !cx.s.unit(target).on_map() || !cx.s.enemies(user, target) {
        return;
    }
    mark(cx, user, target, &why);
    if cx.s.unit(user).level >= 4 {
        cx.push(Frame::DefCtl(DefCtlFrame::Mark { user, except: target }));
    }
}

/// The power whose Mark the Punisher lays: Defender's Mark (so a new Mark replaces the old).
fn mark_power(s: &State) -> u16 {
    s.powers.find("defenders-mark").unwrap_or(0)
}

fn mark(cx: &mut Ctx, user: UnitIdx, t: UnitIdx, why: &str) {
    let origin = cx.s.powers.find("defenders-mark");
    let duration =
        crate::rules::query::duration_for(cx.s, user, t, Some(crate::rules::statuses::Until::EndOfTargetsNextTurn));
    let status = Status { kind: StatusKind::Marked, amount: 0, source: Some(user), origin, duration };
    crate::rules::statuses::give::give_status(cx, t, status, why);
}

/// Enemies the level-4 Punisher may Mark besides `except`: within 5 squares of it.
fn mark_candidates(s: &State, user: UnitIdx, except: UnitIdx) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&t| t != except && s.enemies(user, t) && crate::rules::summons::movable(s.unit(t)))
        .filter(|&t| s.distance(user, t).is_some_and(|d| d <= PUNISHER_REACH))
        .collect()
}

// ------------------------------------------------------------------ Pursuer

/// The Pursuer's Role Boost (L1907-1915): pull the target 2 squares (4 from level 4); a target
/// already next to you is instead slid around you to another square next to you, and then you
/// shift 1 square.
pub fn pursuer(cx: &mut Ctx, user: UnitIdx, target: UnitIdx) {
    if !cx.s.unit(target).on_map() || !cx.s.unit(user).on_map() {
        return;
    }
    let id = cx.s.unit(target).id.clone();
    if cx.s.distance(user, target) == Some(1) {
        cx.emit(Event::Note {
            text: format!("{}'s Role Boost: slide {id} around it, then shift 1", cx.s.unit(user).id),
        });
        cx.push(Frame::ShiftSelf { unit: user, left: 1 });
        // Enough squares to go round a creature of any size, over Difficult Terrain too.
        let budget = 4 * (cx.s.unit(user).size + 1);
        let mut f = ForcedFrame::new(cx.s, user, target, ForcedKind::Slide, budget);
        f.ring = true;
        cx.push(Frame::Forced(f));
    } else {
        let n = if cx.s.unit(user).level >= 4 { 4 } else { 2 };
        cx.emit(Event::Note { text: format!("{}'s Role Boost: pull {id} {n} squares", cx.s.unit(user).id) });
        cx.push(Frame::Forced(ForcedFrame::new(cx.s, user, target, ForcedKind::Pull, n)));
    }
}

// ------------------------------------------------------------------ forced movement riders

/// The squares a forced movement may take next, given those the ordinary rules allow (`out`):
/// the Pursuer's slide keeps to the squares next to it; a level-4 Controller's slide may also
/// run the target into another character.
pub fn forced_squares(s: &State, f: &ForcedFrame, mut out: Vec<Pos>) -> Vec<Pos> {
    if f.ring {
        let (ms, size) = (s.unit(f.mover).size, s.unit(f.target).size);
        out.retain(|&q| distance(q, size, f.origin, ms) == 1);
    }
    if f.bump && !f.must_move && f.kind == ForcedKind::Slide && f.remaining > 0 {
        let p = s.unit(f.target).pos.unwrap();
        for q in p.neighbours() {
            if !out.contains(&q) && struck(s, f, q).is_some() {
                out.push(q);
            }
        }
    }
    out
}

/// The character a level-4 Controller's slide would run the target into by moving it to `q`,
/// if that is allowed: one character (not the slider) stands there, the target's other squares
/// there are open ground, and the character has a square to be slid to.
fn struck(s: &State, f: &ForcedFrame, q: Pos) -> Option<UnitIdx> {
    let t = s.unit(f.target);
    let flying = s.has(f.target, StatusKind::Flying);
    let hit: Vec<UnitIdx> = s
        .units_on_map()
        .filter(|&c| {
            c != f.target && crate::rules::summons::occupies(s.unit(c)) && s.has(c, StatusKind::Flying) == flying
        })
        .filter(|&c| distance(s.unit(c).pos.unwrap(), s.unit(c).size, q, t.size) == 0)
        .collect();
    let [c] = hit[..] else { return None };
    if c == f.mover || !crate::rules::summons::movable(s.unit(c)) {
        return None;
    }
    let cu = s.unit(c);
    let (cp, cs) = (cu.pos.unwrap(), cu.size);
    let open = footprint(q, t.size).all(|r| {
        let terrain = s.arena.at(r);
        distance(cp, cs, r, 1) == 0 || (terrain.enterable() && terrain != crate::engine::arena::Terrain::Edge)
    });
    let mut next = ForcedFrame::new(s, f.mover, c, ForcedKind::Slide, f.remaining);
    next.must_move = true;
    next.origin = f.origin;
    (open && !crate::rules::forced::next_squares(s, &next).is_empty()).then_some(c)
}

/// The character a chosen square `q` runs the slide into, if it is such a square.
pub fn bumped(s: &State, f: &ForcedFrame, q: Pos) -> Option<UnitIdx> {
    if !f.bump
        || f.kind != ForcedKind::Slide
        || crate::rules::movement::can_stand(s, f.target, q, s.unit(f.target).size)
    {
        return None;
    }
    struck(s, f, q)
}

/// The slide runs its target into `c` (L1833, level 4): the target stops; `c` is slid a square
/// and the rest of the slide may go on moving it.
pub fn bump(cx: &mut Ctx, f: ForcedFrame, c: UnitIdx) {
    cx.emit(Event::Note {
        text: format!(
            "{} slides {} into {}: {} is slid on with the rest of the slide",
            cx.s.unit(f.mover).id,
            cx.s.unit(f.target).id,
            cx.s.unit(c).id,
            cx.s.unit(c).id
        ),
    });
    let mut next = ForcedFrame::new(cx.s, f.mover, c, ForcedKind::Slide, f.remaining);
    next.origin = f.origin;
    next.bump = true;
    next.must_move = true;
    cx.push(Frame::Forced(next));
}

// ------------------------------------------------------------------ Crowd Control

/// Crowd Control (L1835): once an attack by `user` has applied its Effect line to the enemy
/// `target`, the same Effect goes to one more enemy the attack could have targeted (not one of
/// its targets). Once per attack: returns whether it queued the choice, a frame put at `at` in
/// the flow, below what the first Effect queued.
pub fn crowd_control(
    cx: &mut Ctx,
    user: UnitIdx,
    target: UnitIdx,
    power: u16,
    targets: &[UnitIdx],
    line: &[Effect],
    at: usize,
) -> bool {
    if !is(cx.s, user, "controller", Some("crowd-control")) || !cx.s.enemies(user, target) {
        return false;
    }
    // The parts that land on the target: not those for the user; Effect damage that a save
    // decides is left out with its save (see rulings).
    let effects: Vec<Effect> = line
        .iter()
        .filter(|e| !e.on_user && e.shift_self.is_none() && e.teleport_self.is_none())
        .map(|e| Effect {
            damage: e.damage.filter(|_| !(e.unless_saved || e.if_saved)),
            damage_if_grabbed_by_you: None,
            ..e.clone()
        })
        .filter(|e| e.damage.is_some_and(|d| d > 0) || !Effect { damage: Some(1), ..e.clone() }.only_damage())
        .collect();
    if effects.is_empty() {
        return false;
    }
    let f = Frame::DefCtl(DefCtlFrame::Crowd { user, power, except: targets.to_vec(), effects });
    let at = at.min(cx.s.flow.len());
    cx.s.flow.insert(at, f);
    true
}

/// Enemies Crowd Control may spread an Effect to: those the power could target now, other than
/// the attack's own targets.
fn crowd_candidates(s: &State, user: UnitIdx, power: u16, except: &[UnitIdx]) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&t| !except.contains(&t) && s.enemies(user, t))
        .filter(|&t| crate::rules::actions::check_target(s, user, power, t, false).is_ok())
        .collect()
}

fn spread(cx: &mut Ctx, user: UnitIdx, power: u16, t: UnitIdx, effects: &[Effect]) -> Result<(), RuleError> {
    let def = cx.s.powers.get(power).clone();
    let name = def.name.clone();
    cx.emit(Event::Note {
        text: format!("{}'s Crowd Control: {name}'s Effect goes to {} too", cx.s.unit(user).id, cx.s.unit(t).id),
    });
    let origin = cx.s.unit(user).pos.unwrap_or(Pos::new(0, 0));
    let mode = crate::rules::attack::roll_mode(cx.s, user, t, &def, origin, false);
    if mode == crate::engine::events::RollMode::Disadvantage
        && crate::rules::turn::saving_throw(cx, t, &format!("{name} (Crowd Control)"))?
    {
        return Ok(()); // it would have been attacked at Disadvantage: its save avoids it
    }
    crate::rules::attack::apply_effects(cx, user, t, power, effects)
}

// ------------------------------------------------------------------ decisions

fn candidates(s: &State, f: &DefCtlFrame) -> Vec<UnitIdx> {
    match f {
        DefCtlFrame::Mark { user, except } => mark_candidates(s, *user, *except),
        DefCtlFrame::Crowd { user, power, except, .. } => crowd_candidates(s, *user, *power, except),
    }
}

/// Advances the frame: nothing to choose from lets it lapse, one choice applies at once.
pub fn step(cx: &mut Ctx, f: DefCtlFrame) -> Result<Flow, RuleError> {
    let found = candidates(cx.s, &f);
    match found[..] {
        [] => Ok(Flow::Continue),
        [t] => {
            resolve(cx, f, t)?;
            Ok(Flow::Continue)
        }
        _ => {
            cx.push(Frame::DefCtl(f));
            Ok(Flow::Wait)
        }
    }
}

/// The question the frame asks.
pub fn question(s: &State, f: &DefCtlFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    let options = candidates(s, f).into_iter().map(|t| crate::rules::actions::unit_option(s, t)).collect();
    match f {
        DefCtlFrame::Mark { user, .. } => {
            (*user, "target", format!("{}: Role Boost — which other enemy is Marked?", s.unit(*user).id), options)
        }
        DefCtlFrame::Crowd { user, power, .. } => (
            *user,
            "target",
            format!(
                "{}: Crowd Control — which other enemy does {}'s Effect go to?",
                s.unit(*user).id,
                s.powers.get(*power).name
            ),
            options,
        ),
    }
}

/// Answers the frame's question with a unit id.
pub fn answer(cx: &mut Ctx, f: DefCtlFrame, option: &str) -> Result<(), RuleError> {
    let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
    resolve(cx, f, t)
}

fn resolve(cx: &mut Ctx, f: DefCtlFrame, t: UnitIdx) -> Result<(), RuleError> {
    match f {
        DefCtlFrame::Mark { user, .. } => {
            let why = format!("{}'s Role Boost", cx.s.unit(user).id);
            mark(cx, user, t, &why);
            Ok(())
        }
        DefCtlFrame::Crowd { user, power, effects, .. } => spread(cx, user, power, t, &effects),
    }
}

/// Registers the Defender and Controller features with the hook table.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.defender_controller(crate::engine::hooks::DefenderController { forced_squares, bumped, bump, crowd_control });
}
