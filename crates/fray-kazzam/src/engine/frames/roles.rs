//! Frames of the roles (Role Actions, Role Boosts) and of advanced implements.

use crate::content::powers::Effect;
use crate::engine::ids::{OrbIdx, UnitIdx};
use fray_core::grid::Pos;

/// A question an advanced implement asks.
#[derive(Clone, Debug)]
pub enum AdvancedFrame {
    /// Charging Sword, Misty Charge: which attack ends the Charge (decision kind `granted-attack`).
    ChargeAttack {
        /// The charger.
        unit: UnitIdx,
        /// The enemy charged.
        target: UnitIdx,
        /// Made with the Attack Action (a sword implement attack then ends the turn).
        via_action: bool,
        /// No Role Boost (Initial Rush).
        no_boost: bool,
    },
}

/// A decision a Role Action of this module waits on.
#[derive(Clone, Debug)]
pub enum RoleFrame {
    /// Outflank: the square next to the target to shift to.
    OutflankSquare {
        /// The Leader.
        user: UnitIdx,
        /// The enemy.
        target: UnitIdx,
        /// The power.
        power: u16,
    },
    /// Restore: the target picks what it gets.
    Restore {
        /// The Leader.
        user: UnitIdx,
        /// Who is restored (and chooses).
        target: UnitIdx,
        /// The power.
        power: u16,
        /// Picks left.
        picks: u8,
        /// Kinds already picked.
        taken: Vec<String>,
    },
    /// Bust Some Heads!: which ally.
    BustAlly {
        /// The Leader.
        user: UnitIdx,
        /// The enemy.
        enemy: UnitIdx,
        /// The power.
        power: u16,
    },
    /// Bust Some Heads!: where the ally ends, next to the enemy.
    BustSquare {
        /// The Leader.
        user: UnitIdx,
        /// The enemy.
        enemy: UnitIdx,
        /// The ally.
        ally: UnitIdx,
        /// The power.
        power: u16,
    },
    /// Replace Traps: the next trap to move, or done.
    ReplacePick {
        /// The Trapper.
        user: UnitIdx,
        /// Traps moved already.
        moved: Vec<UnitIdx>,
    },
    /// Replace Traps: where the trap goes.
    ReplaceSquare {
        /// The Trapper.
        user: UnitIdx,
        /// The trap.
        trap: UnitIdx,
        /// Traps moved already.
        moved: Vec<UnitIdx>,
    },
    /// Swipe: what to take.
    Swipe {
        /// The Runner.
        user: UnitIdx,
    },
    /// Swipe took the team's own orb: where it is dropped.
    SwipeDrop {
        /// The Runner.
        user: UnitIdx,
        /// The orb.
        orb: OrbIdx,
    },
    /// A turn cut short: Hide as it ends, or not.
    HideAtEnd {
        /// Whose turn.
        unit: UnitIdx,
    },
    /// Change Terrain: which square, and what it becomes.
    Terrain {
        /// The Terrain Artist.
        user: UnitIdx,
    },
    /// Boost Square: which square.
    Boost {
        /// The Terrain Artist.
        user: UnitIdx,
    },
    /// Major Terrain: which of its four works.
    Major {
        /// The Terrain Artist.
        user: UnitIdx,
    },
    /// Major Terrain: the square (or the pedestal) for the chosen work.
    MajorSquare {
        /// The Terrain Artist.
        user: UnitIdx,
        /// The work: `pedestal`, `remove-pedestal`, `wall`, `remove-wall`.
        work: &'static str,
        /// Wall squares still to make or take away.
        left: u8,
    },
    /// A creature standing where a new wall square goes: it steps to a square next to it, then
    /// the wall rises.
    WallShove {
        /// The creature (it chooses).
        unit: UnitIdx,
        /// The Terrain Artist.
        user: UnitIdx,
        /// Where the wall goes.
        at: Pos,
        /// Wall squares still to raise, this one included.
        left: u8,
    },
    /// Battlefield Repositioning: where the next enemy in the zone is slid.
    Reposition {
        /// The Controller.
        user: UnitIdx,
        /// The power.
        power: u16,
        /// The zone's centre.
        centre: Pos,
        /// Enemies still to slide, the next first.
        left: Vec<UnitIdx>,
    },
}

/// A Defender's or Controller's question.
#[derive(Clone, Debug)]
pub enum DefCtlFrame {
    /// A level-4 Punisher's boost: which other enemy within 5 is Marked too.
    Mark {
        /// The Punisher.
        user: UnitIdx,
        /// The attack's target, Marked already.
        except: UnitIdx,
    },
    /// Crowd Control: which other enemy the Effect goes to.
    Crowd {
        /// The Controller.
        user: UnitIdx,
        /// The attack's power.
        power: u16,
        /// The attack's targets.
        except: Vec<UnitIdx>,
        /// The Effect line to apply.
        effects: Vec<Effect>,
    },
}

/// A Specialist boost's or feature's step, or the decision it waits on.
#[derive(Clone, Debug)]
pub enum SpecFrame {
    /// Runner boost: the move of up to `left` squares after the shift (a square, or stop).
    RunnerMove {
        /// The Runner.
        unit: UnitIdx,
        /// Squares of movement left.
        left: i32,
    },
    /// Runner feature: the saving throw against an Opportunity `taker` took on `target`; the
    /// Opportunity lands on a failure.
    Dodge {
        /// Who took the Opportunity.
        taker: UnitIdx,
        /// The Runner.
        target: UnitIdx,
        /// Why it was granted.
        why: String,
    },
    /// Trapper boost: the square next to the target for the trap.
    TrapSquare {
        /// The Trapper.
        user: UnitIdx,
        /// The attack's target.
        target: UnitIdx,
        /// Already moved below the attack, to wait for its end.
        settled: bool,
    },
    /// Terrain Artist boost: Change Terrain or Boost Square on the target's square or next to it.
    Terrain {
        /// The Terrain Artist.
        user: UnitIdx,
        /// The attack's target.
        target: UnitIdx,
    },
}

/// A Blaster's pick of who takes its extra damage.
#[derive(Clone, Debug)]
pub enum StrikerFrame {
    /// Which other enemy takes the extra damage (`left` picks to make).
    Splash {
        /// The Blaster.
        user: UnitIdx,
        /// The attack's target, never one of them.
        primary: UnitIdx,
        /// Damage each takes.
        amount: i32,
        /// Picks left.
        left: u8,
        /// How far from the Blaster they may be.
        range: i32,
        /// Those already picked.
        taken: Vec<UnitIdx>,
    },
}
