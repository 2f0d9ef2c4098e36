//! The Tamer's summoned creatures (L1652-1821; K-DEF-5, K-STK-4, K-CAI-2). A summon power puts
//! a creature on the map (a [`UnitKind::Summon`] owned by the Tamer, made through
//! [`crate::rules::summons::spawn`]) and makes its attack with the creature as the source; a Command
//! power makes the creature attack or act again. Each time the Tamer spends a Move Action, each
//! of its creatures may move its speed (or use its stand-in for the move). The creatures'
//! own rules (end-of-turn Marks and Grabs, the Pig's heat) run from the Tamer's turn hooks.

pub use crate::content::hooks::{TAMER_EFFECT as EFFECT_HOOKS, TAMER_POWER as HOOKS};
use crate::content::powers::PowerDef;
use crate::engine::events::{Event, How};
pub use crate::engine::frames::classes::TamerFrame;
use crate::engine::kit::{Ctx, Flow, Frame};
use crate::engine::records::features::Feature;
pub use crate::engine::records::summons::Beast;
pub use crate::engine::records::tamer::{CREATURES, Creature};
use crate::engine::state::{Implement, State, UnitIdx, UnitKind};
use crate::rules::attack::AttackFrame;
pub use crate::rules::beasts::{
    bars, check_beast_charm as check_target, check_verb, convert, creature_opportunity_range as opportunity_range,
    creatures, eviction, hooked, implement_bonus, roller, vantages,
};
use crate::rules::beasts::{beast, inside};
use crate::rules::forced::{ForcedFrame, ForcedKind};
use crate::rules::movement::{Mode, MoveFrame};
pub use crate::rules::query::creature_implement_range as implement_range;
use crate::rules::query::owner;
use crate::rules::query::{creature_named, what};
pub use crate::rules::query::{creature_reach as reach, darkfly_conceals, glowfly_reveals, loose};
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// The conjured creatures (K-DEF-5): power id, creature name.
const CONJURED: &[(&str, &str)] =
    &[("glowfly-swarm", "Glowfly Swarm"), ("fleeting-mantis", "Fleeting Mantis"), ("darkfly-swarm", "Darkfly Swarm")];

/// Summons are placed within this many squares of the Tamer (every summon power says 5).
const SUMMON_RANGE: i32 = 5;

/// Every summon power of the class file with its creature's Command (played or not).
pub const SUMMON_COMMANDS: &[(&str, &str)] = &[
    ("summon-spitting-tree", "tamer-spray"),
    ("summon-flame-pig", "goring-tusks"),
    ("summon-scalehound", "hissing-howl"),
    ("summon-kerpoof", "poof"),
    ("summon-giraffape", "sudden-eviction"),
    ("summon-nettlekin", "spine-catapult"),
];

/// Whether an athlete that chose `chosen` powers gets power `id` granted: a creature's Command
/// comes only with its summon power (L1711: the command is printed under its summon).
pub fn command_granted(id: &str, chosen: &[String]) -> bool {
    SUMMON_COMMANDS.iter().find(|(_, c)| *c == id).is_none_or(|(sm, _)| chosen.iter().any(|p| p == sm))
}

/// How many summons a Tamer chooses at each summon level (L1681, L1821): one; two with
/// Collector or Completionist Collector alone; three with both.
pub fn summon_limit(features: &[String]) -> u8 {
    let has = |f: &str| features.iter().any(|x| x == f);
    match (has("tamer-collector"), has("tamer-completionist-collector")) {
        (true, true) => 3,
        (false, false) => 1,
        _ => 2,
    }
}

/// The creature a summon or command power belongs to.
pub fn creature_of(power_id: &str) -> Option<&'static Creature> {
    CREATURES.iter().find(|c| c.summon == power_id || c.command == power_id)
}

fn set_beast(cx: &mut Ctx, u: UnitIdx, f: impl FnOnce(&mut Beast)) {
    let mut b = beast(cx.s, u);
    f(&mut b);
    cx.emit(Event::Beast { unit: cx.s.who(u), beast: b });
}

/// Whether the creature can obey a command now: not Stunned or Dominated, and a Dazed one only
/// once a turn (L1664).
fn obeys(s: &State, c: UnitIdx) -> bool {
    let once = s.has(c, StatusKind::Dazed) && beast(s, c).obeyed == s.current().map(|t| (s.round, t));
    s.unit(c).on_map() && !s.has(c, StatusKind::Stunned) && !s.has(c, StatusKind::Dominated) && !once
}

/// The Tamer's creatures a command power can be given to.
fn commandable(s: &State, tamer: UnitIdx, def: &PowerDef) -> Vec<UnitIdx> {
    let Some(kind) = creature_of(&def.id) else { return Vec::new() };
    creatures(s, tamer).into_iter().filter(|&c| what(s, c) == kind.id && obeys(s, c)).collect()
}

/// Free squares within [`SUMMON_RANGE`] of the Tamer where a creature may appear.
fn place_squares(s: &State, tamer: UnitIdx) -> Vec<Pos> {
    let Some(p) = s.unit(tamer).pos else { return Vec::new() };
    let size = s.unit(tamer).size;
    s.arena
        .terrain
        .squares()
        .filter(|&q| {
            let d = distance(p, size, q, 1);
            (1..=SUMMON_RANGE).contains(&d)
                && s.arena.at(q).enterable()
                && s.arena.at(q) != crate::engine::arena::Terrain::Portal
                && !s.arena.in_dungeon(q)
        })
        .filter(|&q| {
            s.units_on_map().all(|o| {
                let ou = s.unit(o);
                !crate::rules::summons::occupies(ou) || distance(ou.pos.unwrap(), ou.size, q, 1) > 0
            })
        })
        .collect()
}

/// Who a creature's single-target attack with `power` may name (checked from the creature).
fn aim_targets(s: &State, c: UnitIdx, power: u16) -> Vec<UnitIdx> {
    s.units_on_map().filter(|&t| crate::rules::actions::check_target(s, c, power, t, false).is_ok()).collect()
}

/// Whether a Tamer power can be used now (checked before it is offered).
pub fn check_use(s: &State, u: UnitIdx, def: &PowerDef) -> Result<(), RuleError> {
    match def.hook.as_deref() {
        Some("tamer-summon") if place_squares(s, u).is_empty() => Err(crate::engine::kit::refuse(
            "K-DEF-5",
            format_args!("{} has no free square within {SUMMON_RANGE} for the creature", s.unit(u).id),
        )),
        Some("tamer-give-move") if !creatures(s, u).into_iter().any(|c| obeys(s, c)) => {
            Err(crate::engine::kit::refuse(
                "K-IMP-8",
                format_args!("{} has no summoned creature that could take its move", s.unit(u).id),
            ))
        }
        Some("tamer-territory") if territorial(s, u).is_empty() => Err(crate::engine::kit::refuse(
            "K-ZONE-1",
            format_args!("{} has no territorial beast on the map", s.unit(u).id),
        )),
        Some("tamer-command") => {
            let name = creature_of(&def.id).map_or("creature", |c| c.name);
            let cs = commandable(s, u, def);
            if cs.is_empty() {
                return Err(crate::engine::kit::refuse(
                    "K-DEF-5",
                    format_args!("{} has no {name} on the map that can obey {}", s.unit(u).id, def.name),
                ));
            }
            let single = !matches!(
                def.target,
                crate::content::powers::Targeting::Burst { .. } | crate::content::powers::Targeting::None
            );
            if single && cs.iter().all(|&c| aim_targets(s, c, s.powers.find(&def.id).unwrap()).is_empty()) {
                return Err(crate::engine::kit::refuse(
                    "K-MOVE-6",
                    format_args!("no {name} of {} has a target for {}", s.unit(u).id, def.name),
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Uses a summon or command power (its action is already spent).
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16) -> Result<(), RuleError> {
    let def = cx.s.powers.get(power).clone();
    cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![] });
    if def.hook.as_deref() == Some("tamer-give-move") {
        // L1675: the Tamer stays; one creature moves an extra time before the others follow.
        let cs: Vec<UnitIdx> = creatures(cx.s, u).into_iter().filter(|&c| obeys(cx.s, c)).collect();
        let creature = (cs.len() == 1).then(|| cs[0]);
        cx.push(Frame::Tamer(TamerFrame::Extra { tamer: u, creature }));
        return Ok(());
    }
    if def.hook.as_deref() == Some("tamer-territory") {
        let beasts = territorial(cx.s, u);
        let beast = (beasts.len() == 1).then(|| beasts[0]);
        cx.push(Frame::Tamer(TamerFrame::Territory { tamer: u, beast }));
        return Ok(());
    }
    cx.push(Frame::Tamer(TamerFrame::Finish { tamer: u }));
    if def.hook.as_deref() == Some("tamer-summon") {
        collector(cx, u, power);
        cx.push(Frame::Tamer(TamerFrame::Place { tamer: u, power }));
        return Ok(());
    }
    let cs = commandable(cx.s, u, &def);
    if cs.len() == 1 {
        command(cx, u, cs[0], power)?;
    } else {
        cx.push(Frame::Tamer(TamerFrame::Which { tamer: u, power }));
    }
    Ok(())
}

/// Collector (L1681, L1821): using a summon power spends every summon power of the same level.
fn collector(cx: &mut Ctx, u: UnitIdx, power: u16) {
    if !cx.s.has_feature(u, Feature::Collector) && !cx.s.has_feature(u, Feature::CompletionistCollector) {
        return;
    }
    let level = cx.s.powers.get(power).level;
    let others: Vec<u16> =
        cx.s.unit(u)
            .powers
            .iter()
            .copied()
            .filter(|&p| p != power && !cx.s.unit(u).spent.contains(&p))
            .filter(|&p| {
                let d = cx.s.powers.get(p);
                d.hook.as_deref() == Some("tamer-summon") && d.level == level
            })
            .collect();
    for p in others {
        let name = cx.s.powers.get(p).name.clone();
        cx.emit(Event::EncounterSpent { unit: cx.s.who(u), power: p, name });
    }
}

/// The Tamer commands creature `c` with `power`: Commander and Advanced Commander, then the
/// creature acts.
fn command(cx: &mut Ctx, tamer: UnitIdx, c: UnitIdx, power: u16) -> Result<(), RuleError> {
    let turn = cx.s.current().map(|t| (cx.s.round, t));
    set_beast(cx, c, |b| b.obeyed = turn);
    let name = cx.s.powers.get(power).name.clone();
    if cx.s.has_feature(tamer, Feature::AdvancedCommander) && cx.s.unit(c).ward > 0 {
        // L1819: no duration is given; Fray keeps it to the end of the Tamer's next turn.
        let turn = cx.s.unit(tamer).turns_started + 1;
        let mut st = Status::simple(StatusKind::Fierce, Duration::EndOfTurn { unit: tamer, turn });
        st.source = Some(tamer);
        crate::rules::statuses::give::give_status(cx, c, st, "Advanced Commander");
    }
    if cx.s.has_feature(tamer, Feature::Commander) {
        let ward = cx.s.unit(c).ward + 1;
        cx.emit(Event::WardSet { unit: cx.s.who(c), ward, why: format!("Commander ({name})") });
    }
    let charmed = beast(cx.s, c).charmed == Some(cx.s.unit(tamer).turns_started);
    act(cx, tamer, c, power, charmed)
}

/// Creature `c` makes the attack or does what `power` says, as its source (with Advantage
/// after Beast Charm).
fn act(cx: &mut Ctx, tamer: UnitIdx, c: UnitIdx, power: u16, advantage: bool) -> Result<(), RuleError> {
    if !cx.s.unit(c).on_map() {
        return Ok(());
    }
    let def = cx.s.powers.get(power).clone();
    let origin = cx.s.unit(c).pos.unwrap();
    match def.id.as_str() {
        "summon-flame-pig" => cx.push(Frame::Tamer(TamerFrame::PigBite { pig: c, left: 4, bitten: Vec::new() })),
        "hissing-howl" => howl(cx, tamer, c),
        "poof" => poof(cx, c),
        _ => match def.target {
            crate::content::powers::Targeting::Burst { .. } => {
                let targets = crate::rules::actions::burst_targets(cx.s, c, power);
                let frame = AttackFrame { granted_advantage: advantage, ..AttackFrame::new(c, power, targets, origin) };
                crate::rules::attack::begin(cx, frame)?;
            }
            _ => cx.push(Frame::Tamer(TamerFrame::Aim { creature: c, power, advantage })),
        },
    }
    Ok(())
}

/// Hissing Howl (L1757-1759): within 5 of the Hound each ally may shift 1 and the Tamer may
/// slide each enemy 1; an enemy the Hound grabs takes 2.
fn howl(cx: &mut Ctx, tamer: UnitIdx, hound: UnitIdx) {
    let near: Vec<UnitIdx> =
        cx.s.units_on_map()
            .filter(|&t| t != hound && t != tamer && cx.s.distance(hound, t).is_some_and(|d| d <= 5))
            .filter(|&t| crate::rules::summons::movable(cx.s.unit(t)) && cx.s.unit(t).kind != UnitKind::Automaton)
            .collect();
    let grabbed: Vec<UnitIdx> =
        cx.s.units_on_map().filter(|&t| cx.s.status_from(t, StatusKind::Grabbed, hound).is_some()).collect();
    // Frames run last-pushed first: the damage, then the moves in order of distance.
    let mut queued = Vec::new();
    for &t in near.iter().rev() {
        if cx.s.enemies(tamer, t) {
            queued.push(Frame::Forced(ForcedFrame::new(cx.s, tamer, t, ForcedKind::Slide, 1)));
        } else if crate::rules::summons::takes_actions(cx.s.unit(t)) {
            queued.push(Frame::ShiftSelf { unit: t, left: 1 });
        }
    }
    for f in queued {
        cx.push(f);
    }
    for t in grabbed {
        crate::rules::damage::deal(cx, t, 2, Some(hound), "Hissing Howl", None);
    }
}

/// The Tamer spent a Move Action (L1660): each of its creatures may move its speed too, after
/// the Tamer's own move.
pub fn move_action(cx: &mut Ctx, tamer: UnitIdx) {
    if !creatures(cx.s, tamer).is_empty() {
        cx.push(Frame::Tamer(TamerFrame::Follow { tamer, done: Vec::new() }));
    }
}

/// The next creature asked whether it follows the Move Action.
fn next_follower(s: &State, tamer: UnitIdx, done: &[UnitIdx]) -> Option<UnitIdx> {
    creatures(s, tamer).into_iter().find(|c| !done.contains(c) && obeys(s, *c))
}

fn follow_options(s: &State, c: UnitIdx) -> Vec<DecisionOption> {
    let mut out = vec![DecisionOption::new("stay", "stay where it is")];
    if let Some((id, label)) = creature_named(what(s, c)).and_then(|k| k.instead) {
        out.push(DecisionOption::new(id, label));
    }
    if crate::rules::actions::check_move_allowed(s, c, Mode::Walk).is_ok() {
        out.extend(
            crate::rules::movement::destinations(s, c, Mode::Walk)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("move to {q}"))),
        );
    }
    out
}

/// The start of the Tamer's turn, which is its creatures' turn too: each one's square is noted
/// (Goring Tusks), statuses lasting to the start of its turn end, then Regenerate and Ongoing
/// damage; lethal Ongoing damage waits until just after the Tamer's first action (L1669).
pub fn start_of_turn(cx: &mut Ctx, unit: UnitIdx) {
    for c in creatures(cx.s, unit) {
        let at = cx.s.unit(c).pos;
        let turn = beast(cx.s, c).turn + 1;
        set_beast(cx, c, |b| {
            b.start = at;
            b.turn = turn;
        });
        crate::rules::turn::end_statuses(
            cx,
            |d| matches!(d, Duration::StartOfTurn { unit: w, turn: t } if *w == c && *t <= turn),
            "its turn started",
        );
        let regen = cx.s.amount(c, StatusKind::Regenerate);
        if regen > 0 && cx.s.unit(c).hp >= 1 {
            crate::rules::damage::heal(cx, c, regen, "Regenerate");
        }
        let (ongoing, _) = crate::rules::turn::ongoing_damage(cx.s, c);
        if ongoing > 0 && crate::rules::damage::would_take_out(cx.s, c, ongoing) {
            set_beast(cx, c, |b| b.delayed = true);
            let text = format!("{}'s lethal Ongoing damage waits for its Tamer's first action", cx.s.unit(c).id);
            cx.emit(Event::Note { text });
        } else if ongoing > 0 {
            crate::rules::turn::take_ongoing(cx, c);
        }
    }
    // L1665: a Dominated creature moves once and makes its at-will attack once, for its
    // dominator, just before its Tamer acts. Frames run last-pushed first: in unit order.
    for c in creatures(cx.s, unit).into_iter().rev() {
        if let Some(by) = dominator(cx.s, c) {
            cx.push(Frame::Tamer(TamerFrame::Dominated { creature: c, by, moved: false }));
        }
    }
}

/// Who Dominates creature `c`, if anyone.
fn dominator(s: &State, c: UnitIdx) -> Option<UnitIdx> {
    s.unit(c).statuses.iter().find(|st| st.kind == StatusKind::Dominated).and_then(|st| st.source)
}

/// A Dominated creature's at-will attack: its Command, when that rolls.
fn at_will_attack(s: &State, c: UnitIdx) -> Option<u16> {
    let p = s.powers.find(creature_named(what(s, c))?.command)?;
    s.powers.get(p).rolls().then_some(p)
}

/// What the dominator may have creature `c` do: move (a square or `stay`), then attack (a
/// target, `use` for a burst, or `decline`).
fn dominated_options(s: &State, c: UnitIdx, moved: bool) -> Vec<DecisionOption> {
    if !moved {
        let mut out = vec![DecisionOption::new("stay", "stay where it is")];
        if crate::rules::actions::check_move_allowed(s, c, Mode::Walk).is_ok() {
            out.extend(
                crate::rules::movement::destinations(s, c, Mode::Walk)
                    .into_iter()
                    .map(|q| DecisionOption::square(q, format!("move to {q}"))),
            );
        }
        return out;
    }
    let mut out = Vec::new();
    if let Some(p) = at_will_attack(s, c).filter(|_| !s.has(c, StatusKind::Stunned)) {
        match s.powers.get(p).target {
            crate::content::powers::Targeting::Burst { .. } => {
                out.push(DecisionOption::new("use", s.powers.get(p).name.clone()))
            }
            _ => out.extend(aim_targets(s, c, p).into_iter().map(|t| crate::rules::actions::unit_option(s, t))),
        }
    }
    out.push(DecisionOption::new("decline", "no attack"));
    out
}

/// The Tamer has taken an action: its creatures' delayed Ongoing damage lands now, if the
/// action did not end it (L1669).
pub fn after_action(cx: &mut Ctx, tamer: UnitIdx) {
    if cx.s.unit(tamer).actions.taken == 0 && cx.s.unit(tamer).actions.free == 0 {
        return;
    }
    for c in creatures(cx.s, tamer) {
        if beast(cx.s, c).delayed {
            set_beast(cx, c, |b| b.delayed = false);
            crate::rules::turn::take_ongoing(cx, c);
        }
    }
}

/// The end of the Tamer's turn, its creatures' too: delayed Ongoing damage (no action was
/// taken), their saving throws, then statuses lasting to the end of their turn end.
fn creatures_end_turn(cx: &mut Ctx, tamer: UnitIdx) {
    for c in creatures(cx.s, tamer) {
        if beast(cx.s, c).delayed {
            set_beast(cx, c, |b| b.delayed = false);
            crate::rules::turn::take_ongoing(cx, c);
        }
        let mut saves: Vec<Status> =
            cx.s.unit(c)
                .statuses
                .iter()
                .filter(|st| matches!(st.duration, Duration::SaveEnds | Duration::SaveSustains))
                .copied()
                .collect();
        saves.sort_by_key(|st| matches!(st.kind, StatusKind::Distracted | StatusKind::Dazed)); // K-TURN-5
        for st in saves {
            if !cx.s.unit(c).on_map() || !cx.s.unit(c).statuses.contains(&st) {
                continue;
            }
            let Ok(success) = crate::rules::turn::saving_throw(cx, c, st.kind.name()) else { return };
            crate::rules::turn::settle_save(cx, c, st, success);
        }
        let turn = beast(cx.s, c).turn;
        crate::rules::turn::end_statuses(
            cx,
            |d| matches!(d, Duration::EndOfTurn { unit: w, turn: t } if *w == c && *t <= turn),
            "end of turn",
        );
    }
}

/// The end of `unit`'s turn: the Flame Pig burns enemies ending their turn next to it; at the
/// end of a Tamer's turn its Spitting Tree Marks and its Scalehound Grabs.
pub fn end_of_turn(cx: &mut Ctx, unit: UnitIdx) {
    if !cx.s.unit(unit).on_map() {
        return;
    }
    for pig in cx.s.units_on_map().filter(|&p| what(cx.s, p) == "flame-pig").collect::<Vec<_>>() {
        if cx.s.enemies(pig, unit) && cx.s.distance(pig, unit) == Some(1) {
            burn(cx, pig, unit, "ends its turn next to the Flame Pig");
        }
    }
    territories_end_turn(cx, unit);
    creatures_end_turn(cx, unit);
    for c in creatures(cx.s, unit) {
        match what(cx.s, c) {
            "spitting-tree" => tree_marks(cx, c),
            "scalehound" if !hound_choices(cx.s, c).is_empty() => {
                cx.push(Frame::Tamer(TamerFrame::HoundGrab { hound: c }));
            }
            _ => {}
        }
    }
}

/// The Flame Pig's Ongoing 1 (save ends) on `t`.
fn burn(cx: &mut Ctx, pig: UnitIdx, t: UnitIdx, why: &str) {
    let origin = cx.s.powers.find("summon-flame-pig");
    let st = Status { kind: StatusKind::Ongoing, amount: 1, source: Some(pig), origin, duration: Duration::SaveEnds };
    crate::rules::statuses::give::give_status(cx, t, st, &format!("Flame Pig: {} {why}", cx.s.unit(t).id));
}

/// L1731: the Tree Marks the nearest enemy 2-6 squares away until that enemy's next turn ends
/// (ties: the first in the unit list).
fn tree_marks(cx: &mut Ctx, tree: UnitIdx) {
    let s = &*cx.s;
    let best = s
        .units_on_map()
        .filter(|&t| {
            s.enemies(tree, t) && crate::rules::summons::occupies(s.unit(t)) && s.unit(t).kind != UnitKind::Wall
        })
        .filter(|&t| s.distance(tree, t).is_some_and(|d| (2..=6).contains(&d)))
        .min_by_key(|&t| (s.distance(tree, t), t));
    if let Some(t) = best {
        let turn = cx.s.unit(t).turns_started + 1;
        let mut st = Status::simple(StatusKind::Marked, Duration::EndOfTurn { unit: t, turn });
        st.source = Some(tree);
        st.origin = cx.s.powers.find("summon-spitting-tree"); // one Mark from the Tree at a time
        crate::rules::statuses::give::give_status(cx, t, st, "Spitting Tree");
    }
}

/// Enemies next to the Scalehound it may Grab (it holds one at a time, see rulings).
fn hound_choices(s: &State, hound: UnitIdx) -> Vec<UnitIdx> {
    if s.units_on_map().any(|t| s.status_from(t, StatusKind::Grabbed, hound).is_some()) {
        return Vec::new();
    }
    s.units_on_map()
        .filter(|&t| s.enemies(hound, t) && s.distance(hound, t) == Some(1))
        .filter(|&t| crate::rules::summons::movable(s.unit(t)) && s.unit(t).kind != UnitKind::Automaton)
        .collect()
}

/// A saving throw (or escape roll) of `unit` failed: a Scalehound's Distracted costs it 1.
pub fn save_failed(cx: &mut Ctx, unit: UnitIdx) {
    let Some(p) = cx.s.powers.find("summon-scalehound") else { return };
    let bite =
        cx.s.unit(unit).statuses.iter().find(|st| st.kind == StatusKind::Distracted && st.origin == Some(p)).copied();
    if let Some(st) = bite {
        crate::rules::damage::deal(cx, unit, 1, st.source, "Scalehound: a failed save", None);
    }
}

/// Effect hooks: Goring Tusks' push or Prone; the Giraffape's snatch; the Nettlekin's growing
/// Ongoing damage.
pub fn effect_hook(
    cx: &mut Ctx,
    hook: &str,
    amount: Option<i32>,
    user: UnitIdx,
    target: UnitIdx,
    power: u16,
) -> Result<(), RuleError> {
    if hook == "snatch" {
        snatch(cx, target, &cx.s.powers.get(power).name.clone())?;
    }
    if hook == "nettle" {
        let grows = cx.s.powers.get(power).id != "summon-nettlekin";
        nettle(cx, user, target, amount.unwrap_or(1), grows);
    }
    if hook == "beast-charm" && cx.s.unit(target).on_map() {
        let turn = cx.s.unit(user).turns_started + 1;
        set_beast(cx, target, |b| b.charmed = Some(turn));
        if !cx.s.unit(target).statuses.is_empty() {
            cx.push(Frame::Tamer(TamerFrame::CharmSave { creature: target, tamer: user }));
        }
    }
    if hook == "conjure" && cx.s.unit(target).on_map() {
        if cx.s.has_feature(user, Feature::MassConjuror) {
            // L1817: a second one anywhere in implement range, the Effect line only.
            cx.push(Frame::Tamer(TamerFrame::Conjure { tamer: user, power, near: None }));
        }
        cx.push(Frame::Tamer(TamerFrame::Conjure { tamer: user, power, near: Some(target) }));
    }
    if hook == "goring-tusks" && cx.s.unit(target).on_map() {
        let far = beast(cx.s, user)
            .start
            .zip(cx.s.unit(target).pos)
            .is_some_and(|(a, b)| distance(a, 1, b, cx.s.unit(target).size) >= 4);
        if far {
            cx.push(Frame::Tamer(TamerFrame::Tusks { pig: user, target }));
        } else {
            cx.push(Frame::Forced(ForcedFrame::new(cx.s, user, target, ForcedKind::Push, 2)));
        }
    }
    Ok(())
}

/// The sword Tamer's extra damage on a hit through a creature (L1677): 1, once a turn, when the
/// Tamer is within reach of the target.
pub fn sword_bonus(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx) -> i32 {
    let Some(tamer) = owner(cx.s, attacker).filter(|_| cx.s.unit(attacker).kind == UnitKind::Summon) else {
        return 0;
    };
    let turn = cx.s.current().map(|t| (cx.s.round, t));
    let used = creatures(cx.s, tamer).into_iter().any(|c| turn.is_some() && beast(cx.s, c).sword == turn);
    let near = cx.s.distance(tamer, target).is_some_and(|d| d <= cx.s.reach(tamer));
    if cx.s.unit(tamer).implement != Implement::Sword || used || !near {
        return 0;
    }
    set_beast(cx, attacker, |b| b.sword = turn);
    1
}

/// Advances a frame of this module.
pub fn step(cx: &mut Ctx, f: TamerFrame) -> Result<Flow, RuleError> {
    match f {
        TamerFrame::Finish { tamer } => {
            let u = cx.s.unit(tamer);
            if matches!(u.implement, Implement::Staff | Implement::Sword)
                && u.on_map()
                && cx.s.current() == Some(tamer)
                && !u.actions.keep_turn
                && u.granted_by.is_none()
            {
                let why = format!("a {} Tamer's command or summon ends the turn", u.implement.name());
                cx.emit(Event::TurnCutShort { unit: cx.s.who(tamer), why });
            }
            Ok(Flow::Continue)
        }
        TamerFrame::PigBite { pig, left, mut bitten } => {
            if !cx.s.unit(pig).on_map() {
                return Ok(Flow::Continue);
            }
            let fresh: Vec<UnitIdx> =
                cx.s.units_on_map()
                    .filter(|&t| cx.s.enemies(pig, t) && cx.s.distance(pig, t) == Some(1) && !bitten.contains(&t))
                    .filter(|&t| crate::rules::summons::occupies(cx.s.unit(t)))
                    .collect();
            bitten.extend(fresh.iter().copied());
            if left > 0 {
                cx.push(Frame::Tamer(TamerFrame::PigRun { pig, left, bitten }));
            }
            let basic = cx.s.powers.find("basic-physical-attack").expect("built-in");
            let origin = cx.s.unit(pig).pos.unwrap();
            for &t in fresh.iter().rev() {
                crate::rules::attack::begin(cx, AttackFrame::new(pig, basic, vec![t], origin))?;
            }
            Ok(Flow::Continue)
        }
        ref other => {
            let (_, _, _, options) = question(cx.s, other);
            let lapses = match other {
                TamerFrame::PigRun { pig, .. } => !cx.s.unit(*pig).on_map() || options.len() <= 1,
                TamerFrame::Follow { tamer, done } => next_follower(cx.s, *tamer, done).is_none(),
                TamerFrame::Aim { creature, .. } => !cx.s.unit(*creature).on_map() || options.is_empty(),
                TamerFrame::Extra { creature: Some(c), .. } => !cx.s.unit(*c).on_map(),
                TamerFrame::Dominated { creature, .. } => {
                    !cx.s.unit(*creature).on_map() || dominator(cx.s, *creature).is_none()
                }
                TamerFrame::Tusks { pig, target } => !cx.s.unit(*pig).on_map() || !cx.s.unit(*target).on_map(),
                _ => options.is_empty(),
            };
            if lapses {
                if let TamerFrame::Aim { creature, .. } = other {
                    let text = format!("{} has nothing to attack", cx.s.unit(*creature).id);
                    cx.emit(Event::Note { text });
                }
                return Ok(Flow::Continue);
            }
            cx.push(Frame::Tamer(f));
            Ok(Flow::Wait)
        }
    }
}

/// The unit answering a frame, the decision kind, its prompt and its options.
pub fn question(s: &State, f: &TamerFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    let unit = crate::rules::actions::unit_option;
    match f {
        TamerFrame::Place { tamer, power } => (
            *tamer,
            "square",
            format!("{}: where does the {} appear?", s.unit(*tamer).id, s.powers.get(*power).name),
            place_squares(s, *tamer)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("summon it at {q}")))
                .collect(),
        ),
        TamerFrame::Which { tamer, power } => (
            *tamer,
            "target",
            format!("{}: which creature obeys {}?", s.unit(*tamer).id, s.powers.get(*power).name),
            commandable(s, *tamer, s.powers.get(*power)).into_iter().map(|c| unit(s, c)).collect(),
        ),
        TamerFrame::Aim { creature, power, .. } => (
            roller(s, *creature),
            "target",
            format!(
                "{}: whom does {} attack with {}?",
                s.unit(roller(s, *creature)).id,
                s.unit(*creature).id,
                s.powers.get(*power).name
            ),
            aim_targets(s, *creature, *power).into_iter().map(|t| unit(s, t)).collect(),
        ),
        TamerFrame::PigRun { pig, left, .. } => (
            roller(s, *pig),
            "square",
            format!("{}: shift ({left} square(s) left)", s.unit(*pig).id),
            crate::rules::movement::power_shift_options(s, *pig),
        ),
        TamerFrame::Tusks { pig, target } => (
            roller(s, *pig),
            "effect",
            format!(
                "{}: Goring Tusks — push {} 2 squares or knock it Prone?",
                s.unit(roller(s, *pig)).id,
                s.unit(*target).id
            ),
            vec![DecisionOption::new("push", "push it 2 squares"), DecisionOption::new("prone", "knock it Prone")],
        ),
        TamerFrame::Follow { tamer, done } => match next_follower(s, *tamer, done) {
            Some(c) => (
                *tamer,
                "square",
                format!("{}: {} may move too", s.unit(*tamer).id, s.unit(c).id),
                follow_options(s, c),
            ),
            None => (*tamer, "square", String::new(), Vec::new()),
        },
        TamerFrame::HoundGrab { hound } => (
            roller(s, *hound),
            "target",
            format!("{}: which enemy does the Scalehound Grab?", s.unit(*hound).id),
            hound_choices(s, *hound).into_iter().map(|t| unit(s, t)).collect(),
        ),
        TamerFrame::Territory { tamer, beast: None } => (
            *tamer,
            "target",
            format!("{}: whose territory moves?", s.unit(*tamer).id),
            territorial(s, *tamer).into_iter().map(|b| unit(s, b)).collect(),
        ),
        TamerFrame::Territory { tamer, beast: Some(b) } => (
            *tamer,
            "square",
            format!("{}: the new centre of {}'s territory?", s.unit(*tamer).id, s.unit(*b).id),
            seen_squares(s, *tamer)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("centre it on {q}")))
                .collect(),
        ),
        TamerFrame::Snatch { ape, target } => (
            roller(s, *ape),
            "effect",
            format!("{}: the Giraffape's Opportunity on {}", s.unit(roller(s, *ape)).id, s.unit(*target).id),
            vec![
                DecisionOption::new("damage", "deal its Opportunity damage"),
                DecisionOption::new("snatch", "make it drop what it holds and be Disarmed"),
            ],
        ),
        TamerFrame::Dominated { creature, by, moved } => (
            *by,
            if *moved { "target" } else { "square" },
            format!(
                "{}: Dominated {} {}",
                s.unit(*by).id,
                s.unit(*creature).id,
                if *moved { "attacks whom?" } else { "moves where?" }
            ),
            dominated_options(s, *creature, *moved),
        ),
        TamerFrame::Extra { tamer, creature: None } => (
            *tamer,
            "target",
            format!("{}: which creature takes your move?", s.unit(*tamer).id),
            creatures(s, *tamer).into_iter().filter(|&c| obeys(s, c)).map(|c| unit(s, c)).collect(),
        ),
        TamerFrame::Extra { tamer, creature: Some(c) } => {
            let mut opts = vec![DecisionOption::new("stay", "stay where it is")];
            if crate::rules::actions::check_move_allowed(s, *c, Mode::Walk).is_ok() {
                opts.extend(
                    crate::rules::movement::destinations(s, *c, Mode::Walk)
                        .into_iter()
                        .map(|q| DecisionOption::square(q, format!("move to {q}"))),
                );
            }
            (*tamer, "square", format!("{}: {} moves with your move", s.unit(*tamer).id, s.unit(*c).id), opts)
        }
        TamerFrame::CharmSave { creature, tamer } => (
            *tamer,
            "effect",
            format!("{}: Beast Charm — {} saves against which status?", s.unit(*tamer).id, s.unit(*creature).id),
            charm_statuses(s, *creature)
                .into_iter()
                .map(|k| DecisionOption::new(k.name(), format!("save against {}", k.name())))
                .collect(),
        ),
        TamerFrame::Conjure { tamer, power, near } => (
            *tamer,
            "square",
            format!("{}: where does the {} appear?", s.unit(*tamer).id, s.powers.get(*power).name),
            conjure_squares(s, *tamer, *near)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("conjure it at {q}")))
                .collect(),
        ),
        TamerFrame::PigBite { pig, .. } | TamerFrame::Finish { tamer: pig } => {
            (*pig, "square", String::new(), Vec::new())
        }
    }
}

/// Answers a frame's decision.
pub fn answer(cx: &mut Ctx, f: TamerFrame, option: &str) -> Result<(), RuleError> {
    let square = || Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"));
    let unit = |cx: &Ctx| cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")));
    match f {
        TamerFrame::Place { tamer, power } => {
            let def = cx.s.powers.get(power).clone();
            let Some(kind) = creature_of(&def.id) else { return Ok(()) };
            let sp = crate::rules::summons::Spawn {
                name: kind.name.into(),
                kind: UnitKind::Summon,
                at: square()?,
                hp: kind.hp,
                speed: kind.speed,
                owner: Some(cx.s.who(tamer)),
                what: kind.id.into(),
                charges: 0,
                turn_before: None,
                group: None,
                until_turn: None,
            };
            let c = crate::rules::summons::spawn(cx, sp);
            let at = cx.s.unit(c).pos;
            let territory = if kind.territorial { at } else { None };
            set_beast(cx, c, |b| {
                b.start = at;
                b.territory = territory;
            });
            if cx.s.has(tamer, StatusKind::Hidden) {
                // L1667: summoned while Hidden, it is Hidden too, until it attacks.
                let st =
                    Status::simple(StatusKind::Hidden, Duration::Other(crate::rules::statuses::Lingers::UntilAttack));
                crate::rules::statuses::give::give_status(cx, c, st, "summoned while Hidden");
            }
            act(cx, tamer, c, power, false)?;
        }
        TamerFrame::Which { tamer, power } => command(cx, tamer, unit(cx)?, power)?,
        TamerFrame::Aim { creature, power, advantage } => {
            let t = unit(cx)?;
            let origin = cx.s.unit(creature).pos.unwrap();
            let frame =
                AttackFrame { granted_advantage: advantage, ..AttackFrame::new(creature, power, vec![t], origin) };
            crate::rules::attack::begin(cx, frame)?;
        }
        TamerFrame::PigRun { pig, left, bitten } => {
            if option != "stop" {
                let q = square()?;
                cx.push(Frame::Tamer(TamerFrame::PigBite { pig, left: left - 1, bitten }));
                cx.push(Frame::Move(MoveFrame::new(pig, vec![q], How::Shift)));
            }
        }
        TamerFrame::Tusks { pig, target } => {
            if option == "prone" {
                let mut st = Status::simple(StatusKind::Prone, Duration::Indefinite);
                st.source = Some(pig);
                crate::rules::statuses::give::give_status(cx, target, st, "Goring Tusks");
            } else {
                cx.push(Frame::Forced(ForcedFrame::new(cx.s, pig, target, ForcedKind::Push, 2)));
            }
        }
        TamerFrame::Follow { tamer, mut done } => {
            let Some(c) = next_follower(cx.s, tamer, &done) else { return Ok(()) };
            done.push(c);
            cx.push(Frame::Tamer(TamerFrame::Follow { tamer, done }));
            if option == "stay" {
                return Ok(());
            }
            let turn = cx.s.current().map(|t| (cx.s.round, t));
            set_beast(cx, c, |b| b.obeyed = turn);
            match option {
                "regain" => crate::rules::damage::heal(cx, c, 2, "Spitting Tree: regains instead of moving"),
                "scorch" => {
                    let near: Vec<UnitIdx> =
                        cx.s.units_on_map()
                            .filter(|&t| t != c && cx.s.distance(c, t) == Some(1))
                            .filter(|&t| crate::rules::summons::occupies(cx.s.unit(t)))
                            .collect();
                    for t in near {
                        burn(cx, c, t, "stands next to the Flame Pig");
                    }
                }
                "resist" => {
                    let turn = cx.s.unit(tamer).turns_started + 1;
                    let mut st = Status::simple(StatusKind::Resist, Duration::EndOfTurn { unit: tamer, turn });
                    st.amount = 1;
                    st.source = Some(c);
                    crate::rules::statuses::give::give_status(cx, c, st, "Scalehound");
                }
                _ => {
                    let to = square()?;
                    let path = crate::rules::movement::route_to(cx.s, c, to, Mode::Walk)
                        .ok_or_else(|| RuleError::malformed(format!("{to} cannot be reached")))?;
                    cx.push(Frame::Move(MoveFrame::new(c, path, How::Walk)));
                }
            }
        }
        TamerFrame::HoundGrab { hound } => {
            let t = unit(cx)?;
            let st = Status {
                kind: StatusKind::Grabbed,
                amount: 0,
                source: Some(hound),
                origin: None,
                duration: Duration::EscapeEnds,
            };
            crate::rules::statuses::give::give_status(cx, t, st, "Scalehound");
        }
        TamerFrame::Territory { tamer, beast: None } => {
            let b = unit(cx)?;
            cx.push(Frame::Tamer(TamerFrame::Territory { tamer, beast: Some(b) }));
        }
        TamerFrame::Territory { beast: Some(b), .. } => {
            let q = square()?;
            set_beast(cx, b, |x| x.territory = Some(q));
            cx.emit(Event::Note { text: format!("{}'s territory is now centred on {q}", cx.s.unit(b).id) });
        }
        TamerFrame::Snatch { ape, target } => {
            if option == "snatch" {
                snatch(cx, target, "Giraffape")?;
            } else {
                let amount = crate::rules::opportunity::damage_of(cx.s, ape, target);
                let ctx = crate::rules::damage::FromAttack { attack_or_opportunity: true, pierce: false, melee: true };
                crate::rules::damage::deal(cx, target, amount, Some(ape), "Opportunity", Some(ctx));
            }
        }
        TamerFrame::Dominated { creature, by, moved: false } => {
            cx.push(Frame::Tamer(TamerFrame::Dominated { creature, by, moved: true }));
            if option != "stay" {
                let to = square()?;
                let path = crate::rules::movement::route_to(cx.s, creature, to, Mode::Walk)
                    .ok_or_else(|| RuleError::malformed(format!("{to} cannot be reached")))?;
                cx.push(Frame::Move(MoveFrame::new(creature, path, How::Walk)));
            }
        }
        TamerFrame::Dominated { creature, moved: true, .. } => {
            let Some(p) = at_will_attack(cx.s, creature).filter(|_| option != "decline") else { return Ok(()) };
            let origin = cx.s.unit(creature).pos.unwrap();
            let targets =
                if option == "use" { crate::rules::actions::burst_targets(cx.s, creature, p) } else { vec![unit(cx)?] };
            crate::rules::attack::begin(cx, AttackFrame::new(creature, p, targets, origin))?;
        }
        TamerFrame::Extra { tamer, creature: None } => {
            let c = unit(cx)?;
            cx.push(Frame::Tamer(TamerFrame::Extra { tamer, creature: Some(c) }));
        }
        TamerFrame::Extra { creature: Some(c), .. } => {
            if option != "stay" {
                let turn = cx.s.current().map(|t| (cx.s.round, t));
                set_beast(cx, c, |b| b.obeyed = turn);
                let to = square()?;
                let path = crate::rules::movement::route_to(cx.s, c, to, Mode::Walk)
                    .ok_or_else(|| RuleError::malformed(format!("{to} cannot be reached")))?;
                cx.push(Frame::Move(MoveFrame::new(c, path, How::Walk)));
            }
        }
        TamerFrame::CharmSave { creature, .. } => {
            let kind = StatusKind::parse(option).ok_or_else(|| RuleError::malformed("name a status"))?;
            let Some(st) = cx.s.unit(creature).statuses.iter().find(|st| st.kind == kind).copied() else {
                return Ok(());
            };
            if crate::rules::turn::saving_throw(cx, creature, &format!("{} (Beast Charm)", kind.name()))? {
                cx.emit(Event::StatusEnded { unit: cx.s.who(creature), status: st, why: "saved (Beast Charm)".into() });
            }
        }
        TamerFrame::Conjure { tamer, power, .. } => {
            let def = cx.s.powers.get(power).clone();
            let name = CONJURED.iter().find(|(id, _)| *id == def.id).map_or(def.name.as_str(), |(_, n)| n);
            // Until the end of the Tamer's next turn; a round longer with Conjuror (L1683).
            let rounds = if cx.s.has_feature(tamer, Feature::Conjuror) { 2 } else { 1 };
            let sp = crate::rules::summons::Spawn {
                name: name.into(),
                kind: UnitKind::Conjured,
                at: square()?,
                hp: 1,
                speed: 0,
                owner: Some(cx.s.who(tamer)),
                what: def.id.clone(),
                charges: 0,
                turn_before: None,
                group: None,
                until_turn: Some(cx.s.unit(tamer).turns_started + rounds),
            };
            crate::rules::summons::spawn(cx, sp);
        }
        TamerFrame::PigBite { .. } | TamerFrame::Finish { .. } => {}
    }
    Ok(())
}

/// Squares a conjured creature may appear on: next to `near` (or, with none, within the
/// Tamer's implement range), open, with no creature or other conjured thing on it.
fn conjure_squares(s: &State, tamer: UnitIdx, near: Option<UnitIdx>) -> Vec<Pos> {
    let (Some(tp), size) = (s.unit(tamer).pos, s.unit(tamer).size) else { return Vec::new() };
    let range = s.implement_range(tamer);
    s.arena
        .terrain
        .squares()
        .filter(|&q| match near {
            Some(t) => s.unit(t).pos.is_some_and(|p| distance(p, s.unit(t).size, q, 1) == 1),
            None => distance(tp, size, q, 1) <= range,
        })
        .filter(|&q| s.arena.at(q).enterable() && s.arena.at(q) != crate::engine::arena::Terrain::Portal)
        .filter(|&q| {
            s.units_on_map().all(|o| {
                let ou = s.unit(o);
                ou.kind == UnitKind::Trap || distance(ou.pos.unwrap(), ou.size, q, 1) > 0
            })
        })
        .collect()
}

/// The statuses a creature could save against with Beast Charm, once each.
fn charm_statuses(s: &State, c: UnitIdx) -> Vec<StatusKind> {
    let mut out: Vec<StatusKind> = Vec::new();
    for st in &s.unit(c).statuses {
        if !out.contains(&st.kind) {
            out.push(st.kind);
        }
    }
    out
}

/// The Tamer's territorial beasts on the map.
fn territorial(s: &State, tamer: UnitIdx) -> Vec<UnitIdx> {
    creatures(s, tamer).into_iter().filter(|&c| beast(s, c).territory.is_some()).collect()
}

/// Whether `u` stands in beast `b`'s territory.
fn in_territory(s: &State, b: UnitIdx, u: UnitIdx) -> bool {
    s.unit(u).pos.is_some_and(|q| inside(s, b, q, s.unit(u).size))
}

/// Squares the Tamer can see (a new territory centre, L1767): a clear or partial line.
fn seen_squares(s: &State, tamer: UnitIdx) -> Vec<Pos> {
    let Some(p) = s.unit(tamer).pos else { return Vec::new() };
    let size = s.unit(tamer).size;
    s.arena
        .terrain
        .squares()
        .filter(|&q| {
            fray_core::sight::sight(p, size, q, 1, |w| {
                s.arena.at(w).blocks_sight() || crate::rules::summons::wall_at(s, w)
            }) != fray_core::sight::Sight::Blocked
        })
        .collect()
}

/// `taker` takes an Opportunity on `target`: the Spitting Tree's gives Ongoing 2 (save ends)
/// in place of damage; the Giraffape's asks whether to snatch instead. True when handled here.
pub fn opportunity(cx: &mut Ctx, taker: UnitIdx, target: UnitIdx) -> bool {
    if cx.s.unit(taker).kind != UnitKind::Summon {
        return false;
    }
    match what(cx.s, taker) {
        "spitting-tree" => {
            let origin = cx.s.powers.find("summon-spitting-tree");
            let st = Status {
                kind: StatusKind::Ongoing,
                amount: 2,
                source: Some(taker),
                origin,
                duration: Duration::SaveEnds,
            };
            crate::rules::statuses::give::give_status(cx, target, st, "Spitting Tree's Opportunity");
            true
        }
        "giraffape" => {
            cx.push(Frame::Tamer(TamerFrame::Snatch { ape: taker, target }));
            true
        }
        _ => false,
    }
}

/// The target drops everything it holds and is Disarmed until the end of its next turn
/// (Summon Giraffape, the Giraffape's Opportunity).
fn snatch(cx: &mut Ctx, target: UnitIdx, label: &str) -> Result<(), RuleError> {
    if !cx.s.unit(target).on_map() {
        return Ok(());
    }
    let at = cx.s.unit(target).pos.unwrap();
    if !(crate::engine::hooks::specialists(cx.s).keeps_hold)(cx, target)? {
        for o in cx.s.held_orbs(target).collect::<Vec<_>>() {
            crate::rules::orbs::drop(cx, target, o, at);
        }
    }
    let turn = cx.s.unit(target).turns_started + 1;
    let st = Status::simple(StatusKind::Disarmed, Duration::EndOfTurn { unit: target, turn });
    crate::rules::statuses::give::give_status(cx, target, st, label);
    Ok(())
}

/// Whether `st` is Ongoing damage from a Nettlekin.
fn nettles(s: &State, st: &Status) -> bool {
    st.kind == StatusKind::Ongoing && st.source.is_some_and(|n| what(s, n) == "nettlekin")
}

/// The Nettlekin's Ongoing damage on `t`: `amount` (save ends), or 1 more than it already has
/// from a Nettlekin when it `grows` (L1805-1813).
fn nettle(cx: &mut Ctx, n: UnitIdx, t: UnitIdx, amount: i32, grows: bool) {
    if !cx.s.unit(t).on_map() {
        return;
    }
    let old = cx.s.unit(t).statuses.iter().find(|st| nettles(cx.s, st)).copied();
    let new = match old {
        Some(o) if grows => o.amount + 1,
        Some(o) => o.amount.max(amount),
        None => amount,
    };
    if let Some(o) = old {
        cx.emit(Event::StatusEnded {
            unit: cx.s.who(t),
            status: o,
            why: "the Nettlekin's Ongoing damage grows".into(),
        });
    }
    let origin = cx.s.powers.find("summon-nettlekin");
    let st = Status { kind: StatusKind::Ongoing, amount: new, source: Some(n), origin, duration: Duration::SaveEnds };
    crate::rules::statuses::give::give_status(cx, t, st, "Nettlekin");
}

/// A saving throw against `st` succeeded: a Nettlekin's Ongoing damage only drops by 1 (L1813).
/// True when it stays (lowered).
pub fn nettle_save(cx: &mut Ctx, unit: UnitIdx, st: Status) -> bool {
    if !nettles(cx.s, &st) || st.amount <= 1 {
        return false;
    }
    cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why: "saved: it eases by 1".into() });
    let lower = Status { amount: st.amount - 1, ..st };
    cx.emit(Event::StatusGained { unit: cx.s.who(unit), status: lower, label: "Nettlekin".into() });
    true
}

/// Poof! (L1777): damage equal to the Kerpoof's Ward to every creature in its territory, then
/// it loses its Ward.
fn poof(cx: &mut Ctx, k: UnitIdx) {
    let ward = cx.s.unit(k).ward;
    let hit: Vec<UnitIdx> =
        cx.s.units_on_map().filter(|&t| t != k && creature(cx.s, t) && in_territory(cx.s, k, t)).collect();
    for t in hit {
        if ward > 0 {
            crate::rules::damage::deal(cx, t, ward, Some(k), "Poof!", None);
        }
    }
    if cx.s.unit(k).on_map() && cx.s.unit(k).ward > 0 {
        cx.emit(Event::WardSet { unit: cx.s.who(k), ward: 0, why: "Poof!".into() });
    }
}

/// Whether a unit counts as a creature for the beasts' rules (K-DEF-1): not a trap, wall or
/// conjured creature.
fn creature(s: &State, u: UnitIdx) -> bool {
    !matches!(s.unit(u).kind, UnitKind::Trap | UnitKind::Wall | UnitKind::Conjured)
}

/// The Kerpoof's sting: 1 damage to `t`, and the Kerpoof gains 1 Ward (L1783).
fn sting(cx: &mut Ctx, k: UnitIdx, t: UnitIdx, why: &str) {
    crate::rules::damage::deal(cx, t, 1, Some(k), &format!("Kerpoof: {why}"), None);
    if cx.s.unit(k).on_map() {
        let ward = cx.s.unit(k).ward + 1;
        cx.emit(Event::WardSet { unit: cx.s.who(k), ward, why: "Kerpoof".into() });
    }
}

/// A creature moved from `from` into `to`: every Kerpoof whose territory it has just entered
/// stings it.
pub fn entered(cx: &mut Ctx, unit: UnitIdx, from: Pos, to: Pos) {
    if !creature(cx.s, unit) {
        return;
    }
    let size = cx.s.unit(unit).size;
    let ks: Vec<UnitIdx> = cx.s.units_on_map().filter(|&k| k != unit && what(cx.s, k) == "kerpoof").collect();
    for k in ks {
        if cx.s.unit(unit).on_map() && inside(cx.s, k, to, size) && !inside(cx.s, k, from, size) {
            sting(cx, k, unit, "entered its territory");
        }
    }
}

/// `unit` ends its turn: Kerpoof and Nettlekin territories act on it; its own territorial
/// beasts outside their territory take 3 (L1767).
fn territories_end_turn(cx: &mut Ctx, unit: UnitIdx) {
    let beasts: Vec<UnitIdx> =
        cx.s.units_on_map().filter(|&b| b != unit && beast(cx.s, b).territory.is_some()).collect();
    for b in beasts {
        if !cx.s.unit(unit).on_map() || !in_territory(cx.s, b, unit) || !creature(cx.s, unit) {
            continue;
        }
        match what(cx.s, b) {
            "kerpoof" => sting(cx, b, unit, "ended its turn in its territory"),
            "nettlekin" if cx.s.enemies(b, unit) => nettle(cx, b, unit, 1, true),
            _ => {}
        }
    }
    for b in territorial(cx.s, unit) {
        if !in_territory(cx.s, b, b) {
            crate::rules::damage::deal(cx, b, 3, None, "outside its territory", None);
        }
    }
}

/// `u` starts a move under its own power: held by Vine Worms, it becomes Slowed for the rest of
/// its turn and takes 1 damage. Returns the most the move may then cost.
pub fn vines(cx: &mut Ctx, u: UnitIdx) -> Option<u32> {
    let st = cx.s.unit(u).statuses.iter().find(|st| loose(cx.s, st)).copied()?;
    let turn = cx.s.unit(u).turns_started;
    let mut slowed = Status::simple(StatusKind::Slowed, Duration::EndOfTurn { unit: u, turn });
    slowed.source = st.source;
    slowed.origin = st.origin;
    crate::rules::statuses::give::give_status(cx, u, slowed, "Vine Worms");
    crate::rules::damage::deal(cx, u, 1, st.source, "Vine Worms: moving in their grip", None);
    Some(crate::rules::movement::speed(cx.s, u, Mode::Walk).max(0) as u32)
}

/// What the Tamer adds to the core rules: its power and Effect hooks, its use checks.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(HOOKS, |cx, a| use_power(cx, a.unit, a.power));
    r.effect_hooks(EFFECT_HOOKS, |cx, e| effect_hook(cx, e.hook, e.amount, e.user, e.target, e.power));
    r.check_use(90, check_use);
    r.on_square_entered(50, "kerpoof", |cx, e| {
        entered(cx, e.unit, e.from, e.to); // a territory
        Ok(())
    });
    r.on_start_phase(20, "tamer", |cx, u| {
        start_of_turn(cx, u);
        Ok(())
    });
    r.on_turn(crate::engine::hooks::Trigger::TurnEnded, 40, "tamer", end_of_turn);
    r.taming(crate::engine::hooks::Taming {
        move_action,
        vines,
        sword_bonus,
        opportunity,
        after_action,
        nettle_save,
        save_failed,
    });
}
