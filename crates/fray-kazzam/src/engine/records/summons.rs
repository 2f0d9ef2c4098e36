//! Records of things put on the map; the rules are in [`crate::rules::summons`].

use crate::engine::ids::{UnitIdx, UnitKind};

/// A unit named in an event.
type Who = fray_core::engine::Who<UnitIdx>;
use fray_core::grid::Pos;
use serde::Serialize;
use std::sync::Arc;

/// Who owns a placed thing and what it is (the `placed` field of a [`Unit`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Placed {
    /// Its owner (the Tamer, Tinker, Wardmaster or Specialist who put it there).
    pub owner: Option<UnitIdx>,
    /// What it is: the id of the power or creature that made it (`staff-trap`, `zapper`).
    pub what: Arc<str>,
    /// A trap's charges (K-DEF-2): each trigger spends one; it is gone at 0.
    pub charges: i32,
    /// The charges it was set with (Reset Traps refreshes to this).
    pub full: i32,
    /// A Wand Trap that spent a charge triggers free until its owner's next turn (L1312).
    pub free: bool,
    /// The turn (round, acting unit) it last triggered in, for "once per turn" traps.
    pub fired: Option<(u32, UnitIdx)>,
    /// Extra damage it deals when it springs (Tinker's Helper).
    pub bonus: i32,
    /// It goes at the end of its owner's turn with this number (conjured creatures).
    pub until_turn: Option<u32>,
    /// The first unit of the group it was made with (a Ward Wall's three squares share HP).
    pub group: Option<UnitIdx>,
    /// Its one Resist All has been used (Improved Traps, L1307).
    pub resisted: bool,
    /// What it adds to every trigger (Advanced Trap).
    pub rider: Option<Rider>,
    /// A Tamer's creature's own record (tamer.rs).
    pub beast: Beast,
    /// The Tinker's Role Boost loaded into the trap, with the Trap Roll it was set on
    /// (K-ROLE-5); spent on the first enemy that sets it off (gadgets.rs).
    pub loaded: Option<i32>,
    /// The host a Pest rides (pest.rs): it shares that creature's square.
    pub host: Option<UnitIdx>,
}

/// What Advanced Trap adds to every trigger of its trap (L1346).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rider {
    /// Slowed until the end of the creature's next turn.
    Slowed,
    /// Weakened until the end of the creature's next turn.
    Weakened,
    /// Distracted until the end of the creature's next turn.
    Distracted,
    /// Pulled 2 squares toward the trap.
    Pull,
    /// Pushed 2 squares away from the trap.
    Push,
}

/// What Fray remembers about one creature (the `tamer` part of its `placed` record), changed only
/// by [`Event::Beast`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Beast {
    /// Its square when its Tamer's current turn began (Goring Tusks' "started its turn").
    pub start: Option<Pos>,
    /// The turn (round, acting unit) in which it last obeyed a command (Dazed: one a turn).
    pub obeyed: Option<(u32, UnitIdx)>,
    /// Its turns so far: each of its Tamer's turns is also its own (statuses' durations).
    pub turn: u32,
    /// Lethal Ongoing damage waits until just after its Tamer's first action (L1669).
    pub delayed: bool,
    /// A territorial beast's territory: the 5x5 area centred here (L1767).
    pub territory: Option<Pos>,
    /// Beast Charm: commanded during its Tamer's turn with this number, it attacks with
    /// Advantage (L1689).
    pub charmed: Option<u32>,
    /// The turn (round, acting unit) in which an attack through it took the sword Tamer's extra
    /// damage (once a turn, L1677).
    pub sword: Option<(u32, UnitIdx)>,
}

/// A trap's changing state, as [`Event::TrapChanged`] records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TrapState {
    /// Charges left.
    pub charges: i32,
    /// Whether it triggers free for now (Wand Trap).
    pub free: bool,
    /// The turn it last triggered in.
    pub fired: Option<(u32, UnitIdx)>,
    /// Extra damage.
    pub bonus: i32,
    /// Its one Resist All has been used (Improved Traps).
    pub resisted: bool,
    /// What it adds to every trigger (Advanced Trap).
    pub rider: Option<Rider>,
    /// The loaded Role Boost's Trap Roll (K-ROLE-5).
    pub loaded: Option<i32>,
}

/// What a new unit is made of ([`Event::Spawned`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Spawn {
    /// Display name.
    pub name: String,
    /// What kind of unit.
    pub kind: UnitKind,
    /// Where.
    pub at: Pos,
    /// Hit points (and maximum).
    pub hp: i32,
    /// Speed.
    pub speed: i32,
    /// Owner.
    pub owner: Option<Who>,
    /// What it is (power or creature id).
    pub what: String,
    /// Trap charges.
    pub charges: i32,
    /// It takes its turns just before this unit's (automata, K-INIT-5).
    pub turn_before: Option<Who>,
    /// Made together with this unit, sharing its HP (a Ward Wall's squares).
    pub group: Option<Who>,
    /// It goes at the end of its owner's turn with this number (conjured creatures).
    pub until_turn: Option<u32>,
}
