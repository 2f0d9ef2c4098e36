//! The Royal Golem's own actions (L2682-2701; K-SCO-10): Questgiver's quests, set on the
//! group's pedestal (delivering them: [`crate::rules::quests`]), Parent's Crowned Bird, and
//! Oppressor's Ongoing damage that lasts while the golem can see its victim. The rest of its stat block is data
//! (content/kazzam/creeps.toml) played by [`crate::rules::creeps`]; its Bounty is there too.

use super::group_of;
use crate::engine::arena::Side;
use crate::engine::events::Event;
use crate::engine::kit::Ctx;
use crate::engine::kit::Rolls;
use crate::engine::records::creeps::{Change, Quest};
use crate::engine::state::{OrbIdx, OrbLoc, State, UnitIdx};
use crate::rules::statuses::StatusKind;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// Points a new quest is worth.
const REWARD: i32 = 2;

fn emit(cx: &mut Ctx, change: Change, text: String) {
    cx.emit(Event::Creeps { change, text });
}

/// Whether group `g`'s own orb is away: not on its pedestal and not held by one of its Creeps.
fn own_orb_stolen(s: &State, g: u8) -> Option<OrbIdx> {
    let grp = &s.creeps.groups[g as usize];
    let (o, ped) = (grp.orb?, grp.pedestal?);
    match s.orbs[o as usize].loc {
        OrbLoc::Pedestal { pedestal } if pedestal == ped => None,
        OrbLoc::Held { by } if grp.members.iter().any(|m| m.0 == by) => None,
        _ => Some(o),
    }
}

/// Questgiver (roll 1): a standing quest's reward grows by 1; otherwise, with the group's own
/// orb away, the quest is to bring it back; otherwise one red and one blue orb are picked at
/// random (a die as large as the count of each colour's orbs not on the pedestal already,
/// in the orbs' order; none rolled for a single one).
pub fn questgiver(cx: &mut Ctx, unit: UnitIdx) -> Result<(), RuleError> {
    let Some(g) = group_of(cx.s, unit) else { return Ok(()) };
    let name = cx.s.unit(unit).id.clone();
    let Some(ped) = cx.s.creeps.groups[g as usize].pedestal else {
        cx.emit(Event::Note { text: format!("{name} has no pedestal: no quest") });
        return Ok(());
    };
    if let Some(q) = crate::rules::quests::quest_of(cx.s, g).cloned() {
        // A quest to bring back an orb that is home again is over: a new one is set instead.
        let home = q.returning && own_orb_stolen(cx.s, g).is_none();
        if !home {
            let q = Quest { reward: q.reward + 1, ..q };
            let text = format!("{name}'s quest is worth {} now", q.reward);
            emit(cx, Change::Quest(q), text);
            return Ok(());
        }
        emit(cx, Change::QuestOver(g), format!("{name}'s orb is home: that quest is over"));
    }
    let (orbs, returning) = match own_orb_stolen(cx.s, g) {
        Some(o) => (vec![o], true),
        None => {
            let mut picked = Vec::new();
            for side in [Side::Red, Side::Blue] {
                let pool: Vec<OrbIdx> = (0..cx.s.orbs.len() as OrbIdx)
                    .filter(|&o| cx.s.orbs[o as usize].color == side)
                    .filter(|&o| cx.s.orbs[o as usize].loc != OrbLoc::Pedestal { pedestal: ped })
                    .collect();
                let pick = match pool.len() {
                    0 => continue,
                    1 => 0,
                    n => cx.dice.roll(n as u32)? as usize - 1,
                };
                picked.push(pool[pick]);
            }
            (picked, false)
        }
    };
    if orbs.is_empty() {
        cx.emit(Event::Note { text: format!("{name} finds no red or blue orb to ask for") });
        return Ok(());
    }
    let names: Vec<String> = orbs.iter().map(|&o| cx.s.orbs[o as usize].id.to_string()).collect();
    let what = if returning { "bring back its orb" } else { "bring one of these orbs" };
    let text = format!(
        "{name} sets a quest (K-SCO-10): {what} ({}) to pedestal {} for {REWARD} points",
        names.join(", "),
        cx.s.arena.pedestals[ped as usize].id
    );
    emit(cx, Change::Quest(Quest { group: g, orbs, reward: REWARD, returning }), text);
    Ok(())
}

/// The Crowned Birds Parent may call, by a d6: 1-2 flame, 3-4 ice, 5-6 needle (the faces of
/// their own crowns' actions).
const BIRDS: [&str; 3] = ["flamecrowned-bird", "icecrowned-bird", "needlecrowned-bird"];

/// Parent (roll 2): a Crowned Bird of a crown a d6 picks appears on a free square next to the
/// golem (Creep's Best Judgement: the one nearest its priority target, K-CAI-17; then row and
/// column), joins its group, and acts at once with its own crown's action (3 damage and the
/// greater effect); in later rounds it takes the group's roll like the others.
pub fn parent(cx: &mut Ctx, unit: UnitIdx) -> Result<(), RuleError> {
    let Some(g) = group_of(cx.s, unit) else { return Ok(()) };
    let roll = cx.d6(None)?;
    let what = BIRDS[((roll - 1) / 2) as usize];
    let content = cx.s.content.clone();
    let Some((d, def)) = content.creep(what) else { return Ok(()) };
    let (here, size) = (cx.s.unit(unit).pos.unwrap(), cx.s.unit(unit).size);
    let target = super::priorities(cx.s, unit, None).first().copied();
    let near = |p: Pos| target.and_then(|t| cx.s.unit(t).pos.map(|q| distance(p, 1, q, cx.s.unit(t).size)));
    let square = (here.y - 1..=here.y + size)
        .flat_map(|y| (here.x - 1..=here.x + size).map(move |x| Pos::new(x, y)))
        .filter(|&p| distance(p, 1, here, size) == 1 && cx.s.arena.terrain.contains(p))
        .filter(|&p| crate::rules::movement::can_stand(cx.s, unit, p, 1))
        .min_by_key(|&p| (near(p).unwrap_or(0), p.y, p.x));
    let Some(at) = square else {
        cx.emit(Event::Note { text: format!("{} has no free square beside it: no bird comes", cx.s.unit(unit).id) });
        return Ok(());
    };
    let base = format!("{}-{what}", cx.s.unit(unit).id);
    let mut id = base.clone();
    let mut n = 2;
    while cx.s.find_unit(&id).is_some() {
        id = format!("{base}-{n}");
        n += 1;
    }
    let sp = crate::engine::records::summons::Spawn {
        name: def.name.clone(),
        kind: crate::engine::state::UnitKind::Creep,
        at,
        hp: def.hp(cx.s.creeps.n.max(1)),
        speed: def.speed,
        owner: None,
        what: id,
        charges: 0,
        turn_before: None,
        group: None,
        until_turn: None,
    };
    cx.emit(Event::Note { text: format!("{} rolls {roll}: a {} answers its call", cx.s.unit(unit).id, def.name) });
    let bird = crate::rules::summons::spawn(cx, sp);
    let gid = cx.s.creeps.groups[g as usize].id.clone();
    emit(cx, Change::Summoned(g, bird, d), format!("{} joins the {gid}", cx.s.unit(bird).id));
    // Its own crown's action is the one dealing 3 with the greater effect.
    let face = def.action.iter().find(|a| a.damage == Some(3)).map_or(1, |a| a.faces.0);
    cx.push(crate::engine::kit::Frame::Creeps(super::CreepFrame::Act { unit: bird, face, first: None, moves: 2 }));
    Ok(())
}

/// Oppressor: its Ongoing lasts while the golem can see the target (on the map, not Blinded,
/// with a line to it and the target not Hidden from it). Checked as the target's Start Phase
/// reaches Ongoing damage: one the golem cannot see then ends, before it deals anything.
pub fn oppressor_check(cx: &mut Ctx, unit: UnitIdx) {
    let held: Vec<_> =
        cx.s.unit(unit)
            .statuses
            .iter()
            .filter(|st| st.kind == StatusKind::Ongoing && st.source.is_some())
            .copied()
            .collect();
    for st in held {
        let Some(src) = st.source else { continue };
        let Some(def) = cx.s.creep_def(src) else { continue };
        let oppressor =
            def.action.iter().enumerate().any(|(i, a)| {
                a.hook.as_deref() == Some("oppressor") && cx.s.powers.find(&def.power_id(i)) == st.origin
            });
        if !oppressor || sees(cx.s, src, unit) {
            continue;
        }
        let why = format!("{} can no longer see it (Oppressor)", cx.s.unit(src).id);
        cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why });
    }
}

/// Whether Creep `c` can see `t`.
fn sees(s: &State, c: UnitIdx, t: UnitIdx) -> bool {
    let cu = s.unit(c);
    let Some(p) = cu.pos else { return false };
    s.unit(t).on_map()
        && !s.has(c, StatusKind::Blinded)
        && !s.hidden_from(t, c)
        && crate::rules::cover::shot(s, p, cu.size, t) != fray_core::sight::Sight::Blocked
}

/// Oppressor's check at each Start Phase.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_turn(crate::engine::hooks::Trigger::StartEffects, 5, "royal-golem", |cx, unit| {
        if !cx.s.creeps.groups.is_empty() {
            oppressor_check(cx, unit);
        }
    });
}
