//! Combat rounds (DS-INIT, DS-SURP, DS-GAP-11): who goes first, sides alternating picks, the
//! start and end of a turn (EoT effects, saves), and the end of the combat.

use crate::events::{Ctx, Event};
use crate::frames::Frame;
use crate::model::ConditionKind;
use crate::options::Text;
use crate::state::{Cx, Side, State, Until};
use fray_core::engine::Flow;
use fray_core::ruleset::RuleError;

/// Decides which side goes first (DS-INIT-1, DS-INIT-2, DS-GAP-11) and starts round 1. If every
/// creature of one side is surprised, the other goes first; otherwise a d10: 6+ the heroes
/// (glossary) — or, published, the heroes choose, and Fray's heroes choose to go first.
pub fn start(cx: &mut Ctx) -> Result<(), RuleError> {
    let all_surprised = |side: Side| cx.s.creatures.iter().filter(|c| c.side == side).all(|c| c.surprised);
    let (side, roll, why) = if all_surprised(Side::Director) && !all_surprised(Side::Heroes) {
        (Side::Heroes, None, "every enemy is surprised".to_string())
    } else if all_surprised(Side::Heroes) && !all_surprised(Side::Director) {
        (Side::Director, None, "every hero is surprised".to_string())
    } else {
        let r = cx.dice.roll(10)? as i32;
        let side = if r >= 6 { Side::Heroes } else { Side::Director };
        let why = match (cx.s.options.initiative, r >= 6) {
            (Text::Published, true) => "6 or more: the heroes choose, and go first",
            (Text::Published, false) => "5 or less: the Director chooses, and goes first",
            (Text::Glossary, true) => "6 or more: the heroes' side",
            (Text::Glossary, false) => "5 or less: the other side",
        };
        (side, Some(r), why.to_string())
    };
    cx.emit(Event::FirstSide { side, roll, why });
    cx.emit(Event::RoundStarted { round: 1 });
    Ok(())
}

/// The next pick, or the end of the round.
pub fn next(cx: &mut Ctx) -> Result<Flow, RuleError> {
    if let Some(winner) = decided(cx) {
        finish(cx, winner);
        return Ok(Flow::Continue);
    }
    let side = cx.s.order.side_to_pick(|i| !ready(cx.s, Side::from_index(i)).is_empty());
    match side {
        Some(i) => cx.push(Frame::Pick { side: Side::from_index(i) }),
        None => {
            // End of round: surprise lasts until the end of round 1 (DS-SURP-1).
            if cx.s.round == 1 {
                for c in cx.s.all().collect::<Vec<_>>() {
                    if cx.s.c(c).surprised {
                        cx.emit(Event::SurpriseEnds { creature: cx.s.who(c) });
                    }
                }
            }
            // DS-FALL-7: a creature still falling from a great height drops another 100
            // squares at the end of each round after the one its fall began in.
            for c in cx.s.active().collect::<Vec<_>>() {
                if cx.s.c(c).falling.is_some_and(|(_, since)| since < cx.s.round) {
                    crate::forced::fall(cx, c)?;
                }
            }
            let limit = cx.s.options.round_limit;
            if limit > 0 && cx.s.round >= limit {
                finish(cx, None);
                return Ok(Flow::Continue);
            }
            cx.emit(Event::RoundStarted { round: cx.s.round + 1 });
            round_malice(cx);
            new_captains(cx);
            cx.push(Frame::Next);
        }
    }
    Ok(Flow::Continue)
}

/// A side has won once the other has nobody able to fight. A dying hero still takes its turns
/// and acts (DS-HP-DYING-1, DS-DELTA-12), so it keeps its side in the fight.
fn decided(cx: &Ctx) -> Option<Option<Side>> {
    let standing = |side: Side| cx.s.creatures.iter().any(|c| c.side == side && c.active());
    match (standing(Side::Heroes), standing(Side::Director)) {
        (true, true) => None,
        (true, false) => Some(Some(Side::Heroes)),
        (false, true) => Some(Some(Side::Director)),
        (false, false) => Some(None),
    }
}

/// DS-GAP-17: at the start of the combat the Director gains the heroes' average Victories
/// (rounded down, docs/rulings/drawsteel.md "Malice").
pub fn combat_malice(cx: &mut Ctx) {
    let heroes: Vec<i32> =
        cx.s.creatures.iter().filter(|c| c.hero && c.side == Side::Heroes).map(|c| c.victories).collect();
    if heroes.is_empty() {
        return;
    }
    let average = heroes.iter().sum::<i32>() / heroes.len() as i32;
    if average > 0 {
        let total = cx.s.malice + average;
        cx.emit(Event::Malice { total, why: format!("+{average}, the heroes' average Victories") });
    }
}

/// DS-GAP-17: at the start of each round the Director gains one Malice per hero still alive
/// (a dying hero counts; a dead one does not) plus the round's number.
pub fn round_malice(cx: &mut Ctx) {
    let heroes = cx.s.creatures.iter().filter(|c| c.hero && c.side == Side::Heroes && !c.dead).count() as i32;
    let round = cx.s.round as i32;
    let gain = heroes + round;
    let total = cx.s.malice + gain;
    cx.emit(Event::Malice { total, why: format!("+{gain}: {heroes} hero(es) and round {round}") });
}

fn finish(cx: &mut Ctx, winner: Option<Side>) {
    // DS-GAP-15: Heroic Resources are lost when the encounter ends.
    for c in cx.s.all().collect::<Vec<_>>() {
        if cx.s.c(c).resource > 0 {
            let why = "the combat ended".to_string();
            cx.emit(Event::Resource {
                creature: cx.s.who(c),
                total: 0,
                why,
                damaged: false,
                winded: false,
                second: false,
            });
        }
    }
    // DS-GAP-17: Malice not spent is lost when the encounter ends.
    if cx.s.malice > 0 {
        cx.emit(Event::Malice { total: 0, why: "the combat ended".into() });
    }
    // DS-SURGE-3: surges are lost at the end of combat.
    for c in cx.s.all().collect::<Vec<_>>() {
        if cx.s.c(c).surges > 0 {
            cx.emit(Event::Surges { creature: cx.s.who(c), total: 0, why: "combat ended".into() });
        }
    }
    if winner == Some(Side::Heroes) {
        crate::respite::award_victories(cx);
    }
    let summary = match winner {
        Some(w) => format!("the {} win after {} rounds", w.name(), cx.s.round),
        None => format!("no side won after {} rounds", cx.s.round),
    };
    cx.emit(Event::CombatOver { summary, winner });
}

/// A side picked its next creature: its turn starts.
pub fn answer_pick(cx: &mut Ctx, side: Side, option: &str) -> Result<(), RuleError> {
    let c = cx.s.find(option).ok_or_else(|| RuleError::malformed(format!("no creature {option:?}")))?;
    cx.emit(Event::Picked { side, creature: cx.s.who(c) });
    begin_turn(cx, c)
}

/// DS-GAP-15: each hero with a class starts the combat with its Victories in its Heroic
/// Resource.
pub fn combat_resources(cx: &mut Ctx) {
    for c in cx.s.all().collect::<Vec<_>>() {
        let x = cx.s.c(c);
        if let Some((_, name, _)) = x.class
            && x.victories > 0
        {
            let total = x.resource + x.victories;
            let why = format!("{name}: +{} for its Victories", x.victories);
            cx.emit(Event::Resource {
                creature: cx.s.who(c),
                total,
                why,
                damaged: false,
                winded: false,
                second: false,
            });
        }
    }
}

/// The conduit's choice as its turn starts (DS-GAP-15): its options' ids and labels.
pub const PRAYER: [(&str, &str); 2] =
    [("pray", "pray: more piety, but a 1 angers the gods"), ("decline", "roll for piety without praying")];

/// DS-GAP-15: a conduit's piety roll as its turn starts, 1d3, after it has chosen whether to
/// pray. With a prayer a 1 gives 1 more piety and angers the gods (psychic damage, 1d6 + its
/// level, that nothing reduces), a 2 gives 1 more, a 3 gives 2 more (its domain effect is not
/// played).
pub fn answer_pray(cx: &mut Ctx, c: Cx, option: &str) -> Result<(), RuleError> {
    let pray = match option {
        "pray" => true,
        "decline" => false,
        _ => {
            cx.push(Frame::Pray { c });
            return Err(RuleError::malformed(format!("{option:?}: answer pray or decline")));
        }
    };
    let d = cx.dice.roll(3)? as i32;
    let more = match (pray, d) {
        (false, _) => 0,
        (true, 3) => 2,
        (true, _) => 1,
    };
    let total = cx.s.c(c).resource + d + more;
    let why = if pray {
        format!("piety: +{d} as its turn starts, +{more} for its prayer")
    } else {
        format!("piety: +{d} as its turn starts")
    };
    cx.emit(Event::Resource { creature: cx.s.who(c), total, why, damaged: false, winded: false, second: false });
    if pray && d == 1 {
        let n = cx.dice.roll(6)? as i32 + cx.s.c(c).level;
        let hit = crate::damage::Hit { kind: Some("psychic"), unreduced: true, ..Default::default() };
        crate::damage::deal_in(cx, c, n, None, "the angered gods", hit);
    }
    Ok(())
}

/// Whether `c` is a conduit, who chooses whether to pray as its turn starts (DS-GAP-15).
fn prays(s: &crate::state::State, c: Cx) -> bool {
    s.c(c).class.is_some_and(|k| k.0 == "conduit")
}

/// DS-GAP-15: a hero with a class gains its Heroic Resource at the start of each of its turns.
fn turn_resource(cx: &mut Ctx, c: Cx) -> Result<(), RuleError> {
    let Some((_, name, gain)) = cx.s.c(c).class else { return Ok(()) };
    let n = match gain {
        crate::model::Gain::Flat(n) => n,
        crate::model::Gain::D3 => cx.dice.roll(3)? as i32,
    };
    let total = cx.s.c(c).resource + n;
    let why = format!("{name}: +{n} as its turn starts");
    cx.emit(Event::Resource { creature: cx.s.who(c), total, why, damaged: false, winded: false, second: false });
    Ok(())
}

/// `c`'s turn starts (picked, or the next minion of a squad's turn).
fn begin_turn(cx: &mut Ctx, c: Cx) -> Result<(), RuleError> {
    let turn = cx.s.c(c).turns + 1;
    cx.emit(Event::TurnStarted { creature: cx.s.who(c), turn });
    // Aid Attack lasts until the start of the aider's next turn (DS-GAP-12).
    for t in cx.s.all().collect::<Vec<_>>() {
        if cx.s.c(t).aided_by == Some(c) {
            cx.emit(Event::Aid { target: cx.s.who(t), by: None });
        }
    }
    if cx.s.c(c).defending {
        cx.emit(Event::Defending { creature: cx.s.who(c), on: false });
    }
    cx.push(Frame::Act { c });
    if prays(cx.s, c) {
        cx.push(Frame::Pray { c }); // its piety roll waits for its choice
    } else {
        turn_resource(cx, c)?;
    }
    Ok(())
}

/// DS-GAP-19: a squad whose captain has died gets a new one when the next round starts: the
/// Director's nearest creature to the squad that is neither a minion nor a mount (Fray picks
/// it; docs/rulings/drawsteel.md "Minions").
pub fn new_captains(cx: &mut Ctx) {
    for q in 0..cx.s.squads.len() {
        let sq = &cx.s.squads[q];
        let Some(old) = sq.captain else { continue };
        let Some(first) = sq.members.iter().copied().find(|&m| cx.s.c(m).active()) else { continue };
        if cx.s.c(old).active() {
            continue;
        }
        let s = &*cx.s;
        let best = s
            .active()
            .filter(|&x| {
                let y = s.c(x);
                y.side == Side::Director
                    && !y.hero
                    && !y.minion
                    && !y.mount
                    && s.squads.iter().all(|o| o.captain != Some(x) || !s.c(x).active())
            })
            .min_by_key(|&x| (s.distance(first, x).unwrap_or(i32::MAX), x));
        let name = s.squads[q].name.to_string();
        cx.emit(Event::Captain { squad: q, name, captain: best.map(|b| cx.s.who(b)) });
    }
}

/// The action phase waits for the creature's next action (dead creatures' turns end).
pub fn act_step(cx: &mut Ctx, c: Cx) -> Flow {
    if !cx.s.c(c).active() {
        cx.push(Frame::EndTurn { c, token_save: None });
        return Flow::Continue;
    }
    cx.push(Frame::Act { c });
    Flow::Wait
}

/// End of turn: saves against "save ends" effects (DS-DUR-SAVE), then EoT effects end
/// (DS-DUR-EOT).
pub fn end_turn(cx: &mut Ctx, c: Cx, token_save: Option<ConditionKind>) -> Result<Flow, RuleError> {
    if cx.s.c(c).active() {
        let saves: Vec<_> = cx.s.c(c).conditions.iter().filter(|x| x.until == Until::SaveEnds).copied().collect();
        for cond in saves {
            if !cx.s.c(c).conditions.contains(&cond) {
                continue;
            }
            let mut saved = crate::rolls::save(cx, c, cond.kind.name())?;
            // DS-TOKEN-3: a hero token turns a failed save into a success.
            if !saved
                && token_save == Some(cond.kind)
                && cx.s.hero_tokens >= 1
                && !cx.s.token_spent_this_turn
                && cx.s.c(c).hero
            {
                let total = cx.s.hero_tokens - 1;
                cx.emit(Event::HeroTokens {
                    total,
                    why: format!("spent 1 to succeed on the save against {}", cond.kind.name()),
                });
                saved = true;
            }
            if saved {
                cx.emit(Event::ConditionEnded { creature: cx.s.who(c), condition: cond, why: "saved".into() });
            }
        }
    }
    let turn = cx.s.c(c).turns;
    let mut ended = Vec::new();
    for x in cx.s.all() {
        for cond in &cx.s.c(x).conditions {
            if matches!(cond.until, Until::EndOfTurn { who, turn: t } if who == c && t <= turn) {
                ended.push((x, *cond));
            }
        }
    }
    for (x, cond) in ended {
        cx.emit(Event::ConditionEnded { creature: cx.s.who(x), condition: cond, why: "end of turn".into() });
    }
    for x in cx.s.all().collect::<Vec<_>>() {
        if cx.s.c(x).revealing {
            cx.emit(Event::Hidden { creature: cx.s.who(x), hidden: false, seen_by: Vec::new() });
        }
    }
    cx.emit(Event::TurnEnded { creature: cx.s.who(c) });
    // DS-GAP-19: a squad's minions take their turns together: the next one not yet acted goes
    // straight on.
    if let Some(q) = cx.s.squad_of(c)
        && decided(cx).is_none()
        && let Some(n) = cx.s.squads[q].members.iter().copied().find(|&m| ready(cx.s, Side::Director).contains(&m))
    {
        cx.emit(Event::SquadTurn { creature: cx.s.who(n) });
        begin_turn(cx, n)?;
        return Ok(Flow::Continue);
    }
    cx.push(Frame::Next);
    // DS-GAP-19: at the end of a turn the Director may take a villain action with another
    // creature, if none was taken this round.
    if decided(cx).is_none() && !villain_actions(cx.s, c).is_empty() {
        cx.push(Frame::Villain { after: c });
    }
    Ok(Flow::Continue)
}

/// The villain actions the Director may take at the end of `after`'s turn (DS-GAP-19): those
/// not yet used, of its creatures other than `after` still in the fight, if no villain action
/// has been taken this round. Each: the creature and the place of the ability.
pub fn villain_actions(s: &State, after: Cx) -> Vec<(Cx, u16)> {
    if s.villain_round == Some(s.round) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for v in s.active() {
        let x = s.c(v);
        if v == after || x.side != Side::Director || x.hero {
            continue;
        }
        for (i, a) in x.abilities.iter().enumerate() {
            if a.usage == crate::model::Usage::Villain && !x.villain_used.contains(&(i as u16)) {
                out.push((v, i as u16));
            }
        }
    }
    out
}

/// The villain-action decision's options: `villain:<creature>:<ability>`, then `pass`.
pub fn villain_options(s: &State, after: Cx) -> Vec<fray_core::decision::DecisionOption> {
    use fray_core::decision::DecisionOption;
    let mut o = Vec::new();
    for (v, i) in villain_actions(s, after) {
        let a = &s.c(v).abilities[i as usize];
        let head = format!("villain:{}:{}", s.c(v).id, a.id);
        match villain_target_sets(s, v, a) {
            None => o.push(DecisionOption::new(head, format!("{}: {}", s.c(v).name, a.name))),
            Some(sets) => {
                for set in sets {
                    let ids: Vec<&str> = set.iter().map(|&t| &*s.c(t).id).collect();
                    let label = format!("{}: {} against {}", s.c(v).name, a.name, ids.join(", "));
                    o.push(DecisionOption::new(format!("{head}:{}", ids.join("+")), label));
                }
            }
        }
    }
    o.push(DecisionOption::new("pass", "no villain action now"));
    o
}

/// The most target sets offered for one villain action (the first ones, by creature order).
const VILLAIN_SETS: usize = 64;

/// DS-GAP-19: a villain action that targets (melee or ranged) is offered once per set of legal
/// targets: as many as it takes, or all there are if fewer. `None`: it does not pick targets
/// (the user, or an aura or burst around it).
pub fn villain_target_sets(s: &State, v: Cx, a: &crate::model::AbilityDef) -> Option<Vec<Vec<Cx>>> {
    use crate::model::Distance;
    if !matches!(a.distance, Distance::Melee { .. } | Distance::Ranged { .. }) {
        return None;
    }
    let legal = crate::actions::targets_for(s, v, a);
    let k = (a.targets.max(1) as usize).min(legal.len());
    let mut sets = Vec::new();
    if k == 0 {
        return Some(sets);
    }
    let mut pick: Vec<usize> = (0..k).collect();
    loop {
        sets.push(pick.iter().map(|&i| legal[i]).collect());
        if sets.len() >= VILLAIN_SETS {
            break;
        }
        // The next combination in order.
        let Some(j) = (0..k).rev().find(|&j| pick[j] < legal.len() - k + j) else { break };
        pick[j] += 1;
        for m in j + 1..k {
            pick[m] = pick[m - 1] + 1;
        }
    }
    Some(sets)
}

/// Answers the villain-action decision (DS-GAP-19): the ability resolves at once, catching
/// whoever its area (or the user) covers.
pub fn answer_villain(cx: &mut Ctx, after: Cx, option: &str) -> Result<(), RuleError> {
    if option == "pass" {
        return Ok(());
    }
    let mut parts = option.strip_prefix("villain:").unwrap_or("").splitn(3, ':');
    let (who_id, ability_id, picked) = (parts.next(), parts.next(), parts.next());
    let found = villain_actions(cx.s, after).into_iter().find(|&(v, i)| {
        let x = cx.s.c(v);
        who_id == Some(&*x.id) && ability_id == Some(x.abilities[i as usize].id.as_str())
    });
    // A villain action that targets names its targets, one of the sets offered.
    let targets = found.and_then(|(v, i)| {
        let a = &cx.s.c(v).abilities[i as usize];
        match villain_target_sets(cx.s, v, a) {
            None => picked.is_none().then(|| crate::actions::area_targets(cx.s, v, a)),
            Some(sets) => sets.into_iter().find(|set| {
                let ids: Vec<&str> = set.iter().map(|&t| &*cx.s.c(t).id).collect();
                picked == Some(ids.join("+").as_str())
            }),
        }
    });
    let (Some((v, i)), Some(targets)) = (found, targets) else {
        cx.push(Frame::Villain { after });
        return Err(RuleError::refused(
            "DS-GAP-19",
            format!("{option:?} is not a villain action the Director can take now"),
        ));
    };
    let a = cx.s.c(v).abilities[i as usize].clone();
    cx.emit(Event::VillainAction { creature: cx.s.who(v), ability: a.name.clone(), index: i });
    crate::abilities::begin(cx, v, a, targets, Vec::new(), false);
    Ok(())
}

/// Creatures of `side` that may still act this round.
pub fn ready(s: &State, side: Side) -> Vec<Cx> {
    let can = |c: Cx| {
        let x = s.c(c);
        !x.acted && !x.dead && !x.unconscious && x.pos.is_some()
    };
    s.all()
        .filter(|&c| s.c(c).side == side && can(c))
        // DS-GAP-19: a solo's two turns are never back to back, unless nobody else has a turn
        // left this round (docs/rulings/drawsteel.md "Solos").
        .filter(|&c| !(s.c(c).solo && s.last_turn == Some(c) && s.all().any(|o| o != c && can(o))))
        .collect()
}
