//! The Charm Ball's own rules (L2611-2631): Multiple Eyes (the rolled charm on its priority
//! target, each lower charm on the next enemy in priority, down to charm 1, nobody twice, from
//! the square where most eyes can be used) and Life & Death. Its charms themselves are data
//! (content/kazzam/creeps.toml) struck through [`crate::rules::creeps`].

use super::{CreepFrame, Walk, def_of, favoured, grants, in_range, in_the_way, priorities, tie};
use crate::engine::events::{Event, How};
use crate::engine::kit::{Ctx, Frame};
use crate::engine::records::statuses::StatusKind;
use crate::engine::state::UnitIdx;
use fray_core::ruleset::RuleError;

/// Multiple Eyes, the move: the Ranged AI's target (the first on its list it can reach from
/// some square of one move, K-CAI-14), and of the squares it can charm that target from, the
/// one from which the most other enemies on its list are in range of a charm (no more than the
/// lower charms it has), then the AI's usual order (no Opportunity to an enemy, no
/// Disadvantage, least movement, no Opportunity at all, the tie-break). With no such square it
/// falls back on the generic AI (move twice toward its target, or No Target AI).
pub fn eyes(cx: &mut Ctx, unit: UnitIdx, face: i32) -> Result<(), RuleError> {
    let content = cx.s.content.clone();
    let Some(def) = def_of(cx.s, unit).map(|i| &content.creeps()[i as usize]) else { return Ok(()) };
    if !cx.s.unit(unit).on_map() || cx.s.has(unit, StatusKind::Stunned) || cx.s.has(unit, StatusKind::Incapacitated) {
        return Ok(());
    }
    // K-CAI-11 (simplified): a Prone Creep stands up before it acts.
    for st in cx.s.unit(unit).statuses.clone().into_iter().filter(|s| s.kind == StatusKind::Prone) {
        cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why: "stands up (Creep recovery)".into() });
    }
    // K-CSP-3: Disarmed, it acts as if it rolled a 1 (one charm).
    let face = if cx.s.has(unit, StatusKind::Disarmed) { 1 } else { face };
    let Some(ai) = def.action_for(face) else { return Ok(()) };
    let a = &def.action[ai];
    let here = cx.s.unit(unit).pos.unwrap();
    let list = priorities(cx.s, unit, None);
    let reach = cx.s.reach(unit).max(def.reach.unwrap_or(1));
    let stuck =
        [StatusKind::Immobilized, StatusKind::Grabbed, StatusKind::Restrained].iter().any(|&k| cx.s.has(unit, k));
    // K-ST-Dazed (L438): one action; its charms from where it stands.
    let walk = if stuck || cx.s.has(unit, StatusKind::Dazed) || list.is_empty() {
        Walk::stay(here)
    } else {
        Walk::of(cx.s, unit)
    };
    let power = cx.s.powers.find(&def.power_id(ai));
    for &t in &list {
        let best = walk
            .squares
            .iter()
            .filter(|&&(_, p)| in_range(cx.s, unit, a, reach, p, t))
            .filter_map(|&(c, p)| walk.path(here, p).map(|path| (c, p, path)))
            .map(|(c, p, path)| {
                let others = list
                    .iter()
                    .filter(|&&x| x != t && in_range(cx.s, unit, a, reach, p, x))
                    .count()
                    .min(face as usize - 1);
                let (to_list, to_any) = grants(cx.s, unit, &path, &list);
                let edge = power.is_some_and(|pw| favoured(cx.s, unit, t, pw, false, p));
                ((to_list, std::cmp::Reverse(others), !edge, c, to_any, tie(cx.s, unit, p, Some(t)), p.y, p.x), path)
            })
            .min_by(|x, y| x.0.cmp(&y.0));
        let Some((_, path)) = best else { continue };
        // Override 0.1 (K-CAI-7): no walking away from an enemy beside it; it charms that one.
        let first = in_the_way(cx.s, unit, a, reach, &path, &list).unwrap_or(t);
        if first != t || path.is_empty() {
            return fire(cx, unit, face, first);
        }
        cx.push(Frame::Creeps(CreepFrame::EyesFire { unit, face, first }));
        cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(unit, path, How::Walk)));
        return Ok(());
    }
    // Nobody in range this round: the generic Ranged AI's moves (or No Target AI).
    cx.push(Frame::Creeps(CreepFrame::Act { unit, face, first: None, moves: 2 }));
    Ok(())
}

/// Multiple Eyes, the charms: charm `face` on `first` (if it can still reach it), then each
/// lower charm on the next enemy on its list in range, down to charm 1; nobody twice. An enemy
/// out of range is passed over and the charm goes to the next one.
pub fn fire(cx: &mut Ctx, unit: UnitIdx, face: i32, first: UnitIdx) -> Result<(), RuleError> {
    let content = cx.s.content.clone();
    let Some(def) = def_of(cx.s, unit).map(|i| &content.creeps()[i as usize]) else { return Ok(()) };
    let reach = cx.s.reach(unit).max(def.reach.unwrap_or(1));
    let mut charm = face;
    for t in priorities(cx.s, unit, Some(first)) {
        if charm < 1 || !cx.s.unit(unit).on_map() {
            break;
        }
        let Some(ai) = def.action_for(charm) else { break };
        let here = cx.s.unit(unit).pos.unwrap();
        if !cx.s.unit(t).on_map() || !in_range(cx.s, unit, &def.action[ai], reach, here, t) {
            continue;
        }
        cx.emit(Event::Note {
            text: format!("{}'s eye {charm}: {} on {}", cx.s.unit(unit).id, def.action[ai].name, cx.s.unit(t).id),
        });
        super::strike_nth(cx, unit, def, ai, t, charm == face)?; // K-CSP-5: Weakened, the first eye only
        charm -= 1;
    }
    Ok(())
}

/// Life & Death: the target makes a saving throw; a failure Takes it Out (by the Charm Ball: no
/// point, K-SCO-2), a success gives it back every HP it lacks.
pub fn life_and_death(cx: &mut Ctx, unit: UnitIdx, t: UnitIdx) -> Result<(), RuleError> {
    let saved = crate::rules::turn::saving_throw(cx, t, "Life & Death")?;
    if !cx.s.unit(t).on_map() {
        return Ok(());
    }
    if saved {
        let missing = cx.s.unit(t).max_hp - cx.s.unit(t).hp;
        if missing > 0 {
            crate::rules::damage::heal(cx, t, missing, "Life & Death");
        }
    } else {
        cx.emit(Event::Note { text: format!("{} fails against Life & Death", cx.s.unit(t).id) });
        crate::rules::damage::take_out(cx, t, Some(unit));
    }
    Ok(())
}
