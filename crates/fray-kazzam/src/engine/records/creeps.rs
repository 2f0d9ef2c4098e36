//! Creep group records; the rules are in [`crate::rules::creeps`].

use crate::engine::ids::{OrbIdx, UnitIdx};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Every Creep group and the round the Creep phase last ran.
#[derive(Clone, Debug, Default)]
pub struct Creeps {
    /// Groups, in printed order.
    pub groups: Vec<Group>,
    /// The round whose Creep phase has begun.
    pub acted_round: u32,
    /// N, the athletes a team (the larger team's count): group credit reads it (K-SCO-9).
    pub n: i32,
    /// The Royal Golems' standing quests (Questgiver, K-SCO-10), one a group at most.
    pub quests: Vec<Quest>,
    /// Creeps that joined a group mid-match (the Royal Golem's Parent): no part of its credit.
    pub summoned: Vec<UnitIdx>,
    /// A Creep once for each Take Out by its Hunting Arrow (1 more damage each, for good).
    pub hunted: Vec<UnitIdx>,
    /// Aegis Creeps whose aegis is up (Raise Aegis).
    pub aegis: Vec<UnitIdx>,
    /// Lost Souls turned Shades, each with whoever Took it Out (the Shadekeeper's trait).
    pub shades: Vec<(UnitIdx, Option<UnitIdx>)>,
    /// Pinning Shots waiting for their target to move (the Imp Archer; rules/creep_tricks.rs).
    pub pins: Vec<Pin>,
    /// Damage each Molesnake head took this round, for Retreat (rules/creep_tricks.rs).
    pub wounds: Vec<Wound>,
    /// Players a Mesmer Jelly mesmerised, with the round (one jelly a turn; no Opportunities
    /// among them while they walk).
    pub mesmerized: Vec<(UnitIdx, u32)>,
}

/// Damage a head took in a round (the Two-Headed Molesnake's Retreat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wound {
    /// The head.
    pub head: UnitIdx,
    /// The round.
    pub round: u32,
    /// Damage it took in that round so far.
    pub amount: i32,
}

/// A Pinning Shot: if `target` moves before the end of its turn number `turn`, `archer` takes
/// an Opportunity on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pin {
    /// The Imp Archer.
    pub archer: UnitIdx,
    /// Whom it pinned.
    pub target: UnitIdx,
    /// The target's turn whose end lets it go.
    pub turn: u32,
}

/// A Creep group (K-CAI-4, K-INIT-4).
#[derive(Clone, Debug)]
pub struct Group {
    /// Its id (the scenario's `group`).
    pub id: Arc<str>,
    /// Its Creeps in printed order, each with its stat block's index in the match's content.
    pub members: Vec<(UnitIdx, u16)>,
    /// The orb it guards.
    pub orb: Option<OrbIdx>,
    /// That orb's pedestal.
    pub pedestal: Option<u8>,
    /// Its Enemies List (K-CAI-1..3).
    pub enemies: Vec<Enemy>,
    /// Manipulate Creeps waiting for its next roll.
    pub nudges: Vec<Nudge>,
    /// Creatures whose Guarded already took 1 off this phase's first attack (K-CSP-2).
    pub guarded: Vec<UnitIdx>,
    /// Its Creeps Taken Out so far, each with the team credited (red 0, blue 1; none if no
    /// athlete's doing) (K-SCO-5..9).
    pub out: Vec<(UnitIdx, Option<u8>)>,
    /// Its points are given (K-SCO-6..9): nothing more comes of it.
    pub credited: bool,
    /// Athletes with a Bounty on them, once per Miss Trigger (the Royal Golem, K-SCO-10).
    pub bounties: Vec<UnitIdx>,
    /// Auras used: the Creep, the round and whose turn it was (once a turn).
    pub auras: Vec<(UnitIdx, u32, Option<UnitIdx>)>,
}

/// One player on a group's Enemies List.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Enemy {
    /// Who.
    pub unit: UnitIdx,
    /// Whether it was in the Dungeon when it joined: leaving or entering ends it (K-CAI-3).
    pub in_dungeon: bool,
}

/// A Manipulate Creeps waiting for the group's next action roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nudge {
    /// The Hunter.
    pub hunter: UnitIdx,
    /// +1 or -1; `None` until decided (level 4: just before the roll).
    pub amount: Option<i32>,
}

/// A change to the Creep records (applied by `events::apply` only).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Change {
    /// The Creep phase of this round begins.
    Phase(u32),
    /// A player joins a group's Enemies List.
    Joined(u8, Enemy),
    /// A player leaves it.
    Left(u8, UnitIdx),
    /// A Manipulate Creeps is laid on a group.
    Nudged(u8, Nudge),
    /// A level-4 Hunter decides its waiting nudge.
    Decided(u8, usize, i32),
    /// The group's roll used its nudges up.
    NudgesUsed(u8),
    /// Guarded has taken 1 off this creature's first attack by the group this phase.
    Guarded(u8, UnitIdx),
    /// The group starts acting: the Guarded record is cleared.
    GuardReset(u8),
    /// One of its Creeps is Taken Out, credited to a team (or none) (K-SCO-5).
    Out(u8, UnitIdx, Option<u8>),
    /// Its points are given (K-SCO-6..9).
    Credited(u8),
    /// A Bounty is set on an athlete (K-SCO-10).
    Bounty(u8, UnitIdx),
    /// The athlete's Bounties are settled.
    BountyPaid(u8, UnitIdx),
    /// A Creep's aura is used this turn (its Creep, round, whose turn).
    Aura(u8, UnitIdx, u32, Option<UnitIdx>),
    /// A Pinning Shot waits on its target.
    Pinned(Pin),
    /// A Pinning Shot is over (used, run out, or its archer gone): archer and target.
    Unpinned(UnitIdx, UnitIdx),
    /// A head's damage this round comes to this (replacing its older record).
    Wounded(Wound),
    /// A player is mesmerised in this round's Creep phase.
    Mesmerized(UnitIdx, u32),
    /// A group's quest is set or its reward changes (Questgiver, K-SCO-10).
    Quest(Quest),
    /// A group's quest is over (done, or nothing left to do).
    QuestOver(u8),
    /// A Creep just put on the map joins a group (Parent), with its stat block's index.
    Summoned(u8, UnitIdx, u16),
    /// A Huntress's Hunting Arrow Took its target Out: 1 more damage for good.
    Hunted(UnitIdx),
    /// An Aegis raises (true) or lowers (false) its aegis.
    Aegis(UnitIdx, bool),
    /// A Lost Soul becomes a Shade, with whoever Took it Out.
    Shade(UnitIdx, Option<UnitIdx>),
    /// A Shade is revived, or vanishes.
    ShadeGone(UnitIdx),
}

/// A Royal Golem's quest (Questgiver, K-SCO-10): whoever sets one of `orbs` on the group's
/// pedestal scores `reward`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quest {
    /// The group that set it.
    pub group: u8,
    /// The orbs to bring (one red and one blue, or the group's own stolen orb).
    pub orbs: Vec<OrbIdx>,
    /// Points for whoever brings one.
    pub reward: i32,
    /// Whether it is the group's own orb to bring back.
    pub returning: bool,
}
