//! The journal of a Draw Steel combat: every change is an [`Event`]; [`apply`] is the only
//! code that changes game-visible state; events read as sentences.

use crate::state::{Acts, Condition, Cx, Side, State};
use fray_core::grid::Pos;
use serde::Serialize;
use std::fmt;

/// A creature named in an event: its index for [`apply`], its id for readers.
pub type Who = fray_core::engine::Who<Cx>;

/// The state, the dice and the journal while rules resolve: [`Ctx::emit`] applies an event
/// through [`apply`] and journals it (the core's [`fray_core::engine::Ctx`]).
pub type Ctx<'a> = fray_core::engine::Ctx<'a, State, Event>;

impl State {
    /// The [`Who`] for creature `c`.
    pub fn who(&self, c: Cx) -> Who {
        Who { idx: c, id: self.c(c).id.clone() }
    }
}

impl Event {
    /// `c` moves from `from` to `to` at height `z`, marked `unseen` if no enemy knows where it
    /// is (DS-HIDE-3).
    pub fn moved(s: &State, c: Cx, from: Pos, to: Pos, z: i32, how: impl Into<String>) -> Event {
        Event::Moved { creature: s.who(c), from, to, z, how: how.into(), unseen: s.unseen(c) }
    }
}

/// Everything that can happen. (Fields are named for what they hold.)
#[allow(missing_docs)]
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// A round began; the side that goes first picks first again.
    RoundStarted { round: u32 },
    /// Which side goes first (DS-INIT-1, DS-GAP-11).
    FirstSide { side: Side, roll: Option<i32>, why: String },
    /// A side picked the creature that acts next.
    Picked { side: Side, creature: Who },
    /// A creature's turn began.
    TurnStarted { creature: Who, turn: u32 },
    /// A creature's turn ended.
    TurnEnded { creature: Who },
    /// An action was spent: "main", "maneuver", "move", "extra-main".
    Spent { creature: Who, what: String },
    /// A wall square was raised (DS-AREA-5).
    WallRaised { by: Who, at: Pos },
    /// Squares left of the current move action (DS-TURN-1).
    MoveLeft { creature: Who, left: i32 },
    /// A jump test's result: this turn's jumps go this many squares farther (DS-JUMP-3).
    JumpTest { creature: Who, extra: i32 },
    /// A triggered action was spent (one a round, DS-GAP-12).
    TriggeredUsed { creature: Who },
    /// A critical hit granted an extra main action (DS-CRIT-1).
    ExtraAction { creature: Who },
    /// An ability was used.
    AbilityUsed { creature: Who, ability: String, targets: Vec<Who> },
    /// A power roll.
    PowerRoll { creature: Who, dice: [i32; 2], natural: i32, bonus: i32, total: i32 },
    /// The tier a target got, and why.
    Tier { target: Who, tier: usize, why: String },
    /// A test (DS-TEST). `again` is set for an ordinary test a hero token may reroll
    /// (DS-DELTA-6).
    Test {
        creature: Who,
        dice: [i32; 2],
        total: i32,
        difficulty: String,
        outcome: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        again: Option<crate::power_roll::TestKind>,
    },
    /// Damage taken.
    Damaged { creature: Who, amount: i32, temp_lost: i32, stamina: i32, source: Option<Who>, why: String },
    /// Stamina lost that nothing can prevent (bleeding).
    StaminaLost { creature: Who, amount: i32, stamina: i32, why: String },
    /// Stamina regained.
    Healed { creature: Who, amount: i32, stamina: i32, why: String },
    /// Temporary Stamina set.
    TempStamina { creature: Who, value: i32 },
    /// A Recovery spent (DS-REC-1).
    RecoverySpent { creature: Who, left: i32 },
    /// A condition began.
    ConditionGained { creature: Who, condition: Condition },
    /// A condition ended.
    ConditionEnded { creature: Who, condition: Condition, why: String },
    /// A creature changed squares (or height). `unseen`: it was hidden from every enemy on the
    /// battlefield as it moved, so their seat never reads this line (DS-HIDE-3; seat views in
    /// docs/rulings/drawsteel.md).
    Moved {
        creature: Who,
        from: Pos,
        to: Pos,
        z: i32,
        how: String,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        unseen: bool,
    },
    /// Still falling from a great height, from this elevation, or no longer (DS-FALL-7).
    Falling { creature: Who, from: Option<(i32, u32)> },
    /// A smaller creature's forced movement knocked an object over (DS-SLAM-4, DS-SIZE-3).
    ObjectToppled {
        object: usize,
        name: String,
        by: Who,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        unseen: bool,
    },
    /// A square of an object took damage (DS-GAP-20); at 0 Stamina it is destroyed and
    /// becomes open ground.
    ObjectDamaged { object: usize, name: String, square: Pos, damage: i32, stamina: i32 },
    /// A completed respite: Stamina and Recoveries back, Victories turned into Experience
    /// (DS-REST-2).
    Respite { creature: Who, stamina: i32, recoveries: i32, experience: i32 },
    /// Victories earned (DS-REST-2).
    Victories { creature: Who, total: i32 },
    /// Aid Attack: the next ability roll against `target` by an ally of `by` gains an edge, or
    /// (with `by` = None) that help is used or lapses (DS-GAP-12).
    Aid { target: Who, by: Option<Who> },
    /// Fell and landed (DS-FALL-1).
    Fell { creature: Who, squares: i32 },
    /// Died (DS-HP-DEATH, DS-HP-NPC). A Director creature's body leaves the map at once, unless
    /// `body_stays`: the ability that killed it still has to force-move it (DS-SLAM-3); then
    /// `BodyRemoved` takes it off later.
    Died {
        creature: Who,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        body_stays: bool,
    },
    /// A killed Director creature's body, moved by the ability that killed it, leaves the map.
    BodyRemoved { creature: Who },
    /// Surges changed (DS-SURGE).
    Surges { creature: Who, total: i32, why: String },
    /// A hero's Heroic Resource changed (DS-GAP-15); `damaged` / `winded` / `second`: the gain
    /// used up the class's once-a-round trigger (the fury's first damage) / its once-an-encounter
    /// trigger / its second once-a-round trigger (the censor's and the tactician's).
    Resource {
        creature: Who,
        total: i32,
        why: String,
        damaged: bool,
        winded: bool,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        second: bool,
    },
    /// A censor judged a creature (DS-GAP-15): its earlier judgment ended.
    Judged { by: Who, target: Who },
    /// A tactician marked a creature (DS-GAP-15): its earlier mark ended.
    Marked { by: Who, target: Who },
    /// The Director's Malice changed: gained at the start of the combat and of each round, or
    /// lost when the combat ends (DS-GAP-17).
    Malice { total: i32, why: String },
    /// A Malice feature bought at the start of `creature`'s turn (DS-GAP-17): `feature` is
    /// `brutal-effectiveness`, `malicious-strike` (with its extra damage, `bonus`) or the id of
    /// the creature's own feature.
    MaliceSpent { creature: Who, feature: String, spent: i32, total: i32, bonus: i32 },
    /// A bought Malice benefit is used up: `feature` names it (DS-GAP-17).
    MaliceUsed { creature: Who, feature: String },
    /// A minion's squad took damage from its shared pool (DS-GAP-19).
    SquadDamaged { creature: Who, squad: usize, amount: i32, pool: i32, source: Option<Who>, why: String },
    /// The next minion of a squad takes its part of the squad's turn (DS-GAP-19).
    SquadTurn { creature: Who },
    /// A squad's one power roll for its signature ability this turn (DS-GAP-19).
    SquadRoll { squad: usize, ability: String, dice: [i32; 2], bonus: i32 },
    /// A squad's one roll for a maneuver its minions use together this round (DS-GAP-19:
    /// `grab`, `knockback` or `search`).
    SquadManeuverRoll { squad: usize, maneuver: String, dice: [i32; 2], bonus: i32 },
    /// A squad's shared maneuver has affected `target`; no other minion's may this round.
    SquadManeuvered { squad: usize, maneuver: String, target: Who },
    /// A minion's signature ability reached `target` with the squad's roll; `minions`: how many
    /// of the squad have now struck it (DS-GAP-19).
    SquadStruck { squad: usize, target: Who, minions: u8, by: Who },
    /// Knocked out instead of killed (DS-GAP-20): unconscious and prone.
    KnockedOut { creature: Who, by: Who },
    /// A villain action (DS-GAP-19): `index` is its place in the creature's abilities.
    VillainAction { creature: Who, ability: String, index: u16 },
    /// A squad's captain changed (DS-GAP-19).
    Captain { squad: usize, name: String, captain: Option<Who> },
    /// The heroes' hero tokens changed (DS-TOKEN).
    HeroTokens { total: i32, why: String },
    /// A saving throw (DS-DUR-SAVE).
    Save { creature: Who, what: String, roll: i32, success: bool },
    /// Hidden or not (DS-HIDE).
    /// Under the published text, `seen_by` lists the enemies it is not hidden from
    /// (DS-DELTA-8).
    Hidden { creature: Who, hidden: bool, seen_by: Vec<Who> },
    /// Given away: no longer hidden once this turn ends (DS-HIDE-3, DS-HIDE-4).
    Revealing { creature: Who },
    /// Flying or not.
    Flying { creature: Who, flying: bool },
    /// Defending until the start of its next turn.
    Defending { creature: Who, on: bool },
    /// No longer surprised (DS-SURP-1).
    SurpriseEnds { creature: Who },
    /// Anything else worth a line.
    Note { text: String },
    /// The combat ended.
    CombatOver { summary: String, winner: Option<Side> },
}

fn c_mut<'a>(s: &'a mut State, w: &Who) -> &'a mut crate::state::Creature {
    &mut s.creatures[w.idx as usize]
}

impl fray_core::engine::Apply<Event> for State {
    fn apply(&mut self, e: &Event) {
        apply(self, e)
    }
}

/// Applies an event: the only code that changes game-visible state.
pub fn apply(s: &mut State, e: &Event) {
    match e {
        Event::RoundStarted { round } => {
            s.round = *round;
            s.order.new_round();
            for c in &mut s.creatures {
                c.acted = false;
                c.triggered_used = false;
                c.round_turns = 0;
                c.resource_triggers.0 = false;
                c.resource_triggers.2 = false;
            }
        }
        Event::FirstSide { side, .. } => s.order = fray_core::turns::Alternating::new(2, side.index()),
        Event::Picked { side, creature } => {
            s.order.picked(side.index());
            s.current = Some(creature.idx);
        }
        Event::TurnStarted { creature, turn } => {
            let c = c_mut(s, creature);
            c.turns = *turn;
            c.acts = Acts::default();
            s.token_spent_this_turn = false;
        }
        Event::TurnEnded { creature } => {
            let c = c_mut(s, creature);
            c.round_turns = c.round_turns.saturating_add(1);
            // DS-GAP-19: a solo has acted for the round after its second turn.
            c.acted = !c.solo || c.round_turns >= 2;
            s.last_turn = Some(creature.idx);
            s.current = None;
            s.rerollable = None;
        }
        Event::Spent { creature, what } => {
            let a = &mut c_mut(s, creature).acts;
            a.done += 1;
            match what.as_str() {
                "main" => a.main = true,
                "maneuver" => {
                    if a.maneuvers >= 1 {
                        a.main = true; // DS-TURN-2: the second maneuver is the main action
                    }
                    a.maneuvers += 1;
                }
                "move" => {
                    if a.moves >= 1 {
                        a.main = true; // DS-TURN-2
                    }
                    a.moves += 1;
                }
                "extra-main" => {
                    a.extra_main = a.extra_main.saturating_sub(1);
                    a.extra_used = true;
                }
                _ => {}
            }
        }
        Event::TriggeredUsed { creature } => c_mut(s, creature).triggered_used = true,
        Event::MoveLeft { creature, left } => c_mut(s, creature).acts.move_left = *left,
        Event::JumpTest { creature, extra } => {
            let a = &mut c_mut(s, creature).acts;
            a.jump_extra = *extra;
            a.jump_tested = true;
        }
        Event::WallRaised { at, .. } => s.walls.push(*at),
        Event::ExtraAction { creature } => c_mut(s, creature).acts.extra_main += 1,
        Event::Damaged { creature, temp_lost, stamina, .. } => {
            let c = c_mut(s, creature);
            c.temp_stamina -= temp_lost;
            c.stamina = *stamina;
        }
        Event::StaminaLost { creature, stamina, .. } | Event::Healed { creature, stamina, .. } => {
            c_mut(s, creature).stamina = *stamina
        }
        Event::TempStamina { creature, value } => c_mut(s, creature).temp_stamina = *value,
        Event::RecoverySpent { creature, left } => c_mut(s, creature).recoveries = *left,
        Event::ConditionGained { creature, condition } => c_mut(s, creature).conditions.push(*condition),
        Event::ConditionEnded { creature, condition, .. } => {
            let c = c_mut(s, creature);
            if let Some(i) = c.conditions.iter().position(|x| x == condition) {
                c.conditions.remove(i);
            }
        }
        Event::Moved { creature, to, z, .. } => {
            let c = c_mut(s, creature);
            c.pos = Some(*to);
            c.z = *z;
        }
        Event::Falling { creature, from } => c_mut(s, creature).falling = *from,
        Event::Respite { creature, stamina, recoveries, experience } => {
            let c = c_mut(s, creature);
            c.stamina = *stamina;
            c.temp_stamina = 0;
            c.recoveries = *recoveries;
            c.experience = *experience;
            c.victories = 0;
        }
        Event::Aid { target, by } => c_mut(s, target).aided_by = by.as_ref().map(|w| w.idx),
        Event::Victories { creature, total } => c_mut(s, creature).victories = *total,
        Event::ObjectToppled { object, .. } => {
            if let Some(o) = s.objects.get_mut(*object) {
                o.toppled = true;
            }
        }
        Event::ObjectDamaged { object, square, stamina, .. } => {
            if let Some(o) = s.objects.get_mut(*object)
                && let Some(i) = o.index(*square)
                && let Some(x) = o.stamina.get_mut(i)
            {
                *x = *stamina;
            }
        }
        Event::KnockedOut { creature, .. } => c_mut(s, creature).unconscious = true,
        Event::Died { creature, body_stays } => {
            let c = c_mut(s, creature);
            c.dead = true;
            if !c.hero && !body_stays {
                c.pos = None; // Director creatures are removed
            }
        }
        Event::BodyRemoved { creature } => c_mut(s, creature).pos = None,
        Event::Surges { creature, total, .. } => c_mut(s, creature).surges = *total,
        Event::Malice { total, .. } => s.malice = *total,
        Event::Resource { creature, total, damaged, winded, second, .. } => {
            let c = c_mut(s, creature);
            c.resource = *total;
            c.resource_triggers.0 |= *damaged;
            c.resource_triggers.1 |= *winded;
            c.resource_triggers.2 |= *second;
        }
        Event::Judged { by, target } => {
            for c in &mut s.creatures {
                if c.judged_by == Some(by.idx) {
                    c.judged_by = None;
                }
            }
            c_mut(s, target).judged_by = Some(by.idx);
        }
        Event::Marked { by, target } => {
            for c in &mut s.creatures {
                if c.marked_by == Some(by.idx) {
                    c.marked_by = None;
                }
            }
            c_mut(s, target).marked_by = Some(by.idx);
        }
        Event::SquadDamaged { squad, pool, .. } => s.squads[*squad].pool = *pool,
        Event::SquadTurn { creature } => s.current = Some(creature.idx),
        Event::SquadManeuverRoll { squad, maneuver, dice, bonus } => {
            let r = crate::power_roll::Rolled { dice: *dice, natural: dice[0] + dice[1], bonus: *bonus };
            let round = s.round;
            let q = &mut s.squads[*squad];
            q.maneuver_rolls.retain(|m| m.0 == round);
            q.maneuvered.retain(|m| m.0 == round);
            q.maneuver_rolls.push((round, crate::state::shared_maneuver(maneuver), r));
        }
        Event::SquadManeuvered { squad, maneuver, target } => {
            let round = s.round;
            s.squads[*squad].maneuvered.push((round, crate::state::shared_maneuver(maneuver), target.idx));
        }
        Event::SquadRoll { squad, ability, dice, bonus } => {
            let r = crate::power_roll::Rolled { dice: *dice, natural: dice[0] + dice[1], bonus: *bonus };
            s.squads[*squad].roll = Some((s.round, ability.as_str().into(), r));
            s.squads[*squad].struck.clear();
            s.squads[*squad].rolled_for.clear();
        }
        Event::SquadStruck { squad, target, minions, by } => {
            if !s.squads[*squad].rolled_for.contains(&by.idx) {
                s.squads[*squad].rolled_for.push(by.idx);
            }
            let list = &mut s.squads[*squad].struck;
            match list.iter_mut().find(|p| p.0 == target.idx) {
                Some(p) => p.1 = *minions,
                None => list.push((target.idx, *minions)),
            }
        }
        Event::VillainAction { creature, index, .. } => {
            s.villain_round = Some(s.round);
            c_mut(s, creature).villain_used.push(*index);
        }
        Event::Captain { squad, captain, .. } => {
            s.squads[*squad].captain = captain.as_ref().map(|w| w.idx);
            if let Some(w) = captain {
                c_mut(s, w).squad = Some(*squad as u8);
            }
        }
        Event::MaliceSpent { creature, feature, total, bonus, .. } => {
            s.malice = *total;
            let round = s.round;
            let c = c_mut(s, creature);
            c.acts.malice_used = true;
            match feature.as_str() {
                "brutal-effectiveness" => c.brutal = true,
                "malicious-strike" => {
                    c.malicious = *bonus;
                    s.malicious_strike_round = Some(round);
                }
                _ => {}
            }
        }
        Event::MaliceUsed { creature, feature } => {
            let c = c_mut(s, creature);
            match feature.as_str() {
                "brutal-effectiveness" => c.brutal = false,
                _ => c.malicious = 0,
            }
        }
        Event::HeroTokens { total, why } => {
            if why.starts_with("spent") {
                s.token_spent_this_turn = true;
            }
            s.hero_tokens = *total;
        }
        Event::Hidden { creature, hidden, seen_by } => {
            let c = c_mut(s, creature);
            c.hidden = *hidden;
            c.seen_by = seen_by.iter().map(|w| w.idx).collect();
            c.revealing = false;
        }
        Event::Revealing { creature } => {
            let c = c_mut(s, creature);
            c.revealing = true; // the benefits last until this turn ends
            c.hidden = false;
        }
        Event::Flying { creature, flying } => c_mut(s, creature).flying = *flying,
        Event::Defending { creature, on } => c_mut(s, creature).defending = *on,
        Event::SurpriseEnds { creature } => c_mut(s, creature).surprised = false,
        Event::Test { outcome, creature, again, .. } => {
            s.last_test = Some(format!("{creature}: {outcome}"));
            s.rerollable = again.map(|k| (creature.idx, k));
        }
        Event::CombatOver { summary, winner } => {
            let mut score = std::collections::BTreeMap::new();
            for side in [Side::Heroes, Side::Director] {
                let standing = s.creatures.iter().filter(|c| c.side == side && c.active() && !c.dying()).count();
                score.insert(side.name().to_string(), standing as i64);
            }
            s.outcome = Some(fray_core::Outcome {
                winner: winner.map(|w| w.name().to_string()),
                score,
                summary: summary.clone(),
            });
        }
        Event::PowerRoll { .. }
        | Event::Tier { .. }
        | Event::Fell { .. }
        | Event::Save { .. }
        | Event::AbilityUsed { .. }
        | Event::Note { .. } => {}
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::RoundStarted { round } => write!(f, "— round {round} —"),
            Event::FirstSide { side, roll, why } => match roll {
                Some(r) => write!(f, "initiative roll {r}: the {} go first ({why})", side.name()),
                None => write!(f, "the {} go first ({why})", side.name()),
            },
            Event::Picked { side, creature } => write!(f, "the {} pick {creature} to act", side.name()),
            Event::TurnStarted { creature, .. } => write!(f, "{creature}'s turn"),
            Event::TurnEnded { creature } => write!(f, "{creature} ends the turn"),
            Event::Spent { creature, what } => write!(f, "{creature} uses a {what} action"),
            Event::WallRaised { by, at } => write!(f, "{by} raises a wall square at {at}"),
            Event::MoveLeft { creature, left } => write!(f, "{creature} has {left} squares of movement left"),
            Event::JumpTest { creature, extra } => {
                write!(f, "{creature}'s jumps this turn go {extra} square(s) farther")
            }
            Event::TriggeredUsed { creature } => write!(f, "{creature} uses its triggered action for the round"),
            Event::ExtraAction { creature } => write!(f, "critical hit: {creature} may take another main action"),
            Event::AbilityUsed { creature, ability, targets } => {
                let t: Vec<String> = targets.iter().map(|w| w.id.to_string()).collect();
                if t.is_empty() {
                    write!(f, "{creature} uses {ability}")
                } else {
                    write!(f, "{creature} uses {ability} on {}", t.join(", "))
                }
            }
            Event::PowerRoll { creature, dice, natural, bonus, total } => {
                write!(f, "{creature} rolls {} + {} = {natural}, {bonus:+} → {total}", dice[0], dice[1])
            }
            Event::Tier { target, tier, why } => write!(
                f,
                "against {target}: tier {}{}",
                tier + 1,
                if why.is_empty() { String::new() } else { format!(" ({why})") }
            ),
            Event::Test { creature, total, difficulty, outcome, .. } => {
                write!(f, "{creature}'s {difficulty} test: {total}, {outcome}")
            }
            Event::Damaged { creature, amount, temp_lost, stamina, source, why } => {
                write!(f, "{creature} takes {amount} damage")?;
                if let Some(s) = source {
                    write!(f, " from {s}")?;
                }
                if !why.is_empty() {
                    write!(f, " ({why})")?;
                }
                if *temp_lost > 0 {
                    write!(f, ", {temp_lost} from temporary Stamina")?;
                }
                write!(f, " — Stamina {stamina}")
            }
            Event::StaminaLost { creature, amount, stamina, why } => {
                write!(f, "{creature} loses {amount} Stamina ({why}) — Stamina {stamina}")
            }
            Event::Healed { creature, amount, stamina, why } => {
                write!(f, "{creature} regains {amount} Stamina ({why}) — Stamina {stamina}")
            }
            Event::TempStamina { creature, value } => write!(f, "{creature} has {value} temporary Stamina"),
            Event::RecoverySpent { creature, left } => write!(f, "{creature} spends a Recovery ({left} left)"),
            Event::ConditionGained { creature, condition } => write!(f, "{creature} is {}", condition.kind.name()),
            Event::ConditionEnded { creature, condition, why } => {
                write!(f, "{creature} is no longer {} ({why})", condition.kind.name())
            }
            Event::Moved { creature, from, to, how, .. } => write!(f, "{creature} {how} {from} → {to}"),
            Event::Falling { creature, from: Some((z, _)) } => {
                write!(f, "{creature} is falling from a great height (from {z} squares up)")
            }
            Event::Falling { creature, from: None } => write!(f, "{creature} reaches the ground"),
            Event::ObjectToppled { name, by, .. } => write!(f, "{by} knocks over the {name}"),
            Event::ObjectDamaged { name, square, damage, stamina, .. } if *stamina <= 0 => {
                write!(f, "the {name} at {square} takes {damage} damage and that square is destroyed")
            }
            Event::ObjectDamaged { name, square, damage, stamina, .. } => {
                write!(f, "the {name} at {square} takes {damage} damage ({stamina} Stamina left there)")
            }
            Event::Respite { creature, stamina, recoveries, experience } => write!(
                f,
                "{creature} finishes a respite: Stamina {stamina}, {recoveries} Recoveries, victories become Experience ({experience})"
            ),
            Event::Victories { creature, total } => write!(f, "{creature} now has {total} victories"),
            Event::Aid { target, by: Some(by) } => {
                write!(f, "{by} aids the attack: the next ally's roll against {target} gains an edge")
            }
            Event::Aid { target, by: None } => write!(f, "the aid against {target} is spent or lapses"),
            Event::Fell { creature, squares } => write!(f, "{creature} falls {squares} squares"),
            Event::Died { creature, .. } => write!(f, "{creature} dies"),
            Event::KnockedOut { creature, by } => {
                write!(f, "{by} knocks {creature} out instead of killing it: unconscious and prone")
            }
            Event::BodyRemoved { creature } => write!(f, "{creature}'s body is taken off the battlefield"),
            Event::Surges { creature, total, why } => write!(f, "{creature} has {total} surges ({why})"),
            Event::HeroTokens { total, why } => write!(f, "hero tokens: {total} ({why})"),
            Event::Malice { total, why } => write!(f, "the Director's Malice: {total} ({why})"),
            Event::Resource { creature, total, why, .. } => write!(f, "{creature}'s Heroic Resource: {total} ({why})"),
            Event::Judged { by, target } => write!(f, "{by} judges {target}"),
            Event::Marked { by, target } => write!(f, "{by} marks {target}"),
            Event::SquadDamaged { creature, amount, pool, source, why, .. } => {
                write!(f, "{creature} takes {amount} damage")?;
                if let Some(s) = source {
                    write!(f, " from {s}")?;
                }
                if !why.is_empty() {
                    write!(f, " ({why})")?;
                }
                write!(f, " — its squad's Stamina {pool}")
            }
            Event::SquadTurn { creature } => write!(f, "the squad's turn goes on: {creature}"),
            Event::SquadManeuverRoll { maneuver, dice, bonus, .. } => {
                write!(f, "the squad's one roll for {maneuver}: {} + {} + {bonus}", dice[0], dice[1])
            }
            Event::SquadManeuvered { maneuver, target, .. } => {
                write!(f, "{target} has felt the squad's {maneuver} this round")
            }
            Event::SquadRoll { ability, dice, bonus, .. } => {
                write!(f, "the squad's one roll for {ability}: {} + {} + {bonus}", dice[0], dice[1])
            }
            Event::SquadStruck { target, minions, .. } => {
                write!(f, "{minions} of the squad's minions have struck {target} with the squad's roll")
            }
            Event::VillainAction { creature, ability, .. } => write!(f, "{creature} takes a villain action: {ability}"),
            Event::Captain { name, captain: Some(c), .. } => write!(f, "{c} now captains squad {name}"),
            Event::Captain { name, captain: None, .. } => write!(f, "squad {name} has no captain"),
            Event::MaliceSpent { creature, feature, spent, total, bonus } => {
                write!(f, "the Director spends {spent} Malice on {feature} for {creature}")?;
                if *bonus > 0 {
                    write!(f, " (+{bonus} damage)")?;
                }
                write!(f, " — {total} left")
            }
            Event::MaliceUsed { creature, feature } => write!(f, "{creature} uses its {feature}"),
            Event::Save { creature, what, roll, success } => {
                write!(f, "{creature} saves against {what}: {roll}, {}", if *success { "ends" } else { "continues" })
            }
            Event::Revealing { creature } => {
                write!(f, "{creature} gives itself away (the edge from hiding lasts until this turn ends)")
            }
            Event::Flying { creature, flying } => {
                write!(f, "{creature} {}", if *flying { "takes to the air" } else { "is no longer flying" })
            }
            Event::Hidden { creature, hidden: true, seen_by } if !seen_by.is_empty() => {
                let seen: Vec<String> = seen_by.iter().map(|w| w.id.to_string()).collect();
                write!(f, "{creature} is hidden, but not from {}", seen.join(", "))
            }
            Event::Hidden { creature, hidden, .. } => {
                write!(f, "{creature} is {}", if *hidden { "hidden" } else { "no longer hidden" })
            }
            Event::Defending { creature, on } => {
                write!(f, "{creature} {}", if *on { "takes the Defend action" } else { "stops defending" })
            }
            Event::SurpriseEnds { creature } => write!(f, "{creature} is no longer surprised"),
            Event::Note { text } => f.write_str(text),
            Event::CombatOver { summary, .. } => write!(f, "combat over: {summary}"),
        }
    }
}
