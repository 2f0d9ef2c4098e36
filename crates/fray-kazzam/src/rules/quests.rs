//! The Royal Golem's quests (Questgiver, K-SCO-10) as the orbs see them: which quest an orb set
//! on a pedestal fulfils, and the delivery that scores it. The quests are set in
//! [`crate::rules::creeps::golem`].

use crate::engine::events::Event;
use crate::engine::kit::Ctx;
use crate::engine::records::creeps::{Change, Quest};
use crate::engine::state::{OrbIdx, OrbLoc, State, UnitIdx};
use fray_core::geometry::distance;

/// The quest group `g` has standing, if any.
pub fn quest_of(s: &State, g: u8) -> Option<&Quest> {
    s.creeps.quests.iter().find(|q| q.group == g)
}

/// The quest (its group) that orb `o` set on pedestal `pedestal` would fulfil.
pub fn quest_for(s: &State, o: OrbIdx, pedestal: u8) -> Option<u8> {
    s.creeps
        .quests
        .iter()
        .find(|q| q.orbs.contains(&o) && s.creeps.groups[q.group as usize].pedestal == Some(pedestal))
        .map(|q| q.group)
}

/// Whether `u`, carrying orb `o`, may set it on `pedestal` for a quest: next to it, and the
/// orb is one the quest names.
pub fn can_deliver(s: &State, u: UnitIdx, o: OrbIdx, pedestal: u8) -> bool {
    let un = s.unit(u);
    quest_for(s, o, pedestal).is_some()
        && crate::rules::query::holds_orbs(un)
        && un.pos.is_some_and(|p| distance(p, un.size, s.arena.pedestals[pedestal as usize].at, 1) <= 1)
}

/// `u` sets orb `o` on the quest's pedestal: the orb stays there with its colour, `u`'s team
/// scores the reward, and the quest is over.
pub fn deliver(cx: &mut Ctx, u: UnitIdx, o: OrbIdx, pedestal: u8) {
    let Some(g) = quest_for(cx.s, o, pedestal) else { return };
    let reward = quest_of(cx.s, g).map_or(0, |q| q.reward);
    let (id, ped) = (cx.s.orbs[o as usize].id.to_string(), cx.s.arena.pedestals[pedestal as usize].id.clone());
    cx.emit(Event::OrbMoved {
        orb: id.clone(),
        idx: o,
        to: OrbLoc::Pedestal { pedestal },
        why: format!("set on {ped} by {} for a quest", cx.s.unit(u).id),
    });
    let gid = cx.s.creeps.groups[g as usize].id.clone();
    let text = format!("the quest of the {gid} is done");
    cx.emit(Event::Creeps { change: Change::QuestOver(g), text });
    let side = cx.s.unit(u).side;
    crate::rules::scoring::score(cx, side, reward, Some(u), format!("the quest of the {gid}: orb {id} (K-SCO-10)"));
}

/// The quest for the group view: its orbs and reward.
pub fn view(s: &State, g: u8) -> serde_json::Value {
    match quest_of(s, g) {
        Some(q) => serde_json::json!({
            "orbs": q.orbs.iter().map(|&o| s.orbs[o as usize].id.to_string()).collect::<Vec<_>>(),
            "reward": q.reward,
            "returning": q.returning,
        }),
        None => serde_json::Value::Null,
    }
}
