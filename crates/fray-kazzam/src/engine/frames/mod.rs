//! The resolution stack's frames as data: [`Frame`] and the payload each rule area keeps while
//! an action is half-resolved. Architecture invariant (tests/all/layers.rs): these files import no
//! rule module; the dispatch (`step`, `question`, `answer`) is in [`crate::engine::flow`] and
//! the rule modules, which re-export their frames at their old paths.

pub mod classes;
pub mod roles;
pub mod rules;

use crate::engine::ids::UnitIdx;
use crate::engine::records::statuses::StatusKind;
pub use classes::{
    BrewFrame, BullyFrame, CharmFrame, DivFrame, FeatureFrame, GadgetFrame, TamerFrame, WandFrame, WardFrame, WarpFrame,
};
pub use roles::{AdvancedFrame, DefCtlFrame, RoleFrame, SpecFrame, StrikerFrame};
pub use rules::{AttackFrame, CreepFrame, ForcedFrame, MoveFrame, Pending, PlacedFrame, TriggerFrame};

/// A Creep's blow held back while its victim takes a last turn (Pain of Eros, L2472).
#[derive(Clone, Debug, PartialEq)]
pub struct Blow {
    /// The Creep that struck.
    pub by: UnitIdx,
    /// The damage, as the attack worked it out.
    pub amount: i32,
    /// What struck ("love-beast's Pain of Eros").
    pub why: String,
}

/// One half-resolved piece of the match.
#[derive(Clone, Debug)]
pub enum Frame {
    /// Between turns: start the next one (or end the round).
    NextTurn,
    /// A unit's Start Phase (K-TURN-1).
    StartTurn {
        /// Whose turn.
        unit: UnitIdx,
    },
    /// Start-of-turn effects after any placement: Regenerate, Ongoing damage, damaging
    /// terrain (K-TURN-1).
    StartEffects {
        /// Whose turn.
        unit: UnitIdx,
    },
    /// A Taken Out unit chooses its spawn square (K-DUN-2).
    Respawn {
        /// Who.
        unit: UnitIdx,
    },
    /// A unit that hit the button chooses where to come out, or stays (K-DUN-7, K-DUN-8).
    Exit {
        /// Who.
        unit: UnitIdx,
    },
    /// A Taken Out unit picks which spent Encounter power to recharge (K-DUN-3).
    Recharge {
        /// Who.
        unit: UnitIdx,
    },
    /// Damage at the start of its turn (Ongoing damage, K-ST-Ongoing; the Mobs it stands in,
    /// K-CTYPE-8) would take the unit out: it may take one final action first.
    FinalAction {
        /// Who.
        unit: UnitIdx,
        /// Whether the final action has been taken.
        acted: bool,
        /// The Mobs whose damage was counted: each still on the map stings once it has acted,
        /// wherever the unit then stands.
        stings: Vec<UnitIdx>,
        /// A blow that has already felled it, landing once it has acted (Pain of Eros: a last
        /// turn Dominated by the Love Beast), in place of the start-of-turn damage.
        blow: Option<Blow>,
    },
    /// The Action Phase (K-TURN-2): waiting for the unit's next action.
    Act {
        /// Whose turn.
        unit: UnitIdx,
    },
    /// An action being put together from menu choices.
    Pending {
        /// Who acts.
        unit: UnitIdx,
        /// What has been chosen so far.
        pending: Pending,
    },
    /// A decision about something put on the map ([`crate::rules::summons`]).
    Placed(PlacedFrame),
    /// The Saving Throw and End Phases (K-TURN-3, K-TURN-4).
    EndTurn {
        /// Whose turn.
        unit: UnitIdx,
        /// Statuses the unit chose to fail its saves against (K-SAVE-2).
        fail: Vec<StatusKind>,
    },
    /// A move in progress.
    Move(MoveFrame),
    /// An attack in progress.
    Attack(Box<AttackFrame>),
    /// Forced movement in progress.
    Forced(ForcedFrame),
    /// A unit chooses a square to teleport itself to (K-FM-5).
    TeleportSelf {
        /// Who.
        unit: UnitIdx,
        /// Up to how far.
        range: i32,
    },
    /// A power's shift: the unit picks each square, or stops (K-MOVE-2).
    ShiftSelf {
        /// Who shifts.
        unit: UnitIdx,
        /// Squares left.
        left: i32,
    },
    /// A creature is being banished: the banisher picks its spawn square (K-DUN-13).
    Banish {
        /// Who is banished.
        unit: UnitIdx,
        /// Who banishes it.
        by: UnitIdx,
    },
    /// A Leader's Role Boost: which ally in sight regains HP (K-ROLL-5, §2.11).
    LeaderBoost {
        /// The leader.
        unit: UnitIdx,
    },
    /// A power let this unit make an attack now (K-ACT-4): which one, or none.
    Granted {
        /// Who may attack.
        unit: UnitIdx,
        /// Who granted it.
        by: UnitIdx,
    },
    /// A power lets this unit make an attack now on set terms (no Role Boost, only a basic
    /// attack, aimed by the granter...).
    GrantedAttack {
        /// Who may attack.
        unit: UnitIdx,
        /// Who granted it.
        by: UnitIdx,
        /// The granting power's own target.
        power_target: UnitIdx,
        /// The terms.
        terms: crate::content::powers::GrantDef,
    },
    /// A power lets this unit spend a Move Action now (Tactics).
    GrantedMove {
        /// Who may move.
        unit: UnitIdx,
        /// Who granted it.
        by: UnitIdx,
    },
    /// The granted attack (or Move Action) is over.
    GrantEnd {
        /// Who attacked.
        unit: UnitIdx,
    },
    /// A power's Effect offers a choice between Effect lines ("the target may instead...").
    ChooseEffect {
        /// Who picks.
        chooser: UnitIdx,
        /// The power's user.
        user: UnitIdx,
        /// The creature the choice is about.
        target: UnitIdx,
        /// The power's own target.
        power_target: UnitIdx,
        /// The power.
        power: u16,
        /// The options.
        options: Vec<crate::content::powers::Choice>,
        /// How many different options are still to be picked.
        picks: u8,
    },
    /// A power's Effect has its user name a creature (Tag Team's ally, Tempest Blade's other
    /// enemy); the pick's Effect line applies to it.
    Pick {
        /// The power's user, who names it.
        user: UnitIdx,
        /// The power's own target.
        power_target: UnitIdx,
        /// The power.
        power: u16,
        /// Whom it may name and what happens.
        pick: Box<crate::content::powers::Pick>,
    },
    /// A class feature's question (Portal Brawler's swap).
    Feature(FeatureFrame),
    /// A triggered power's decision (K-ACT-7): use it or not, and its follow-up choices.
    Trigger(TriggerFrame),
    /// A charm's decision (charms.rs).
    Charm(CharmFrame),
    /// A brew's decision (brews.rs).
    Brew(BrewFrame),
    /// Bag of Tricks: which gadget (gadgets.rs).
    Gadget(GadgetFrame),
    /// A Ward power's decision (wards.rs).
    Ward(WardFrame),
    /// A Diviner power's decision (divination.rs).
    Divination(DivFrame),
    /// A Role Action's decision (role_actions.rs).
    Role(RoleFrame),
    /// A Wandslinger power's decision (wandslinger.rs).
    Wand(WandFrame),
    /// An advanced implement's decision (advanced.rs).
    Advanced(AdvancedFrame),
    /// A Porter's warp, trap or teleport question (warps.rs).
    Warp(WarpFrame),
    /// A Tamer's creature decision (tamer.rs).
    Tamer(TamerFrame),
    /// Bullying Blade's extra damage and shift (sword_moves.rs).
    Bully(BullyFrame),
    /// A Defender's or Controller's choice (defctl.rs).
    DefCtl(DefCtlFrame),
    /// A Specialist's Role Boost or feature (specialists.rs).
    Spec(SpecFrame),
    /// A Blaster's pick of who takes its extra damage (striker.rs).
    Striker(StrikerFrame),
    /// The Creep phase, or a Hunter power's decision (creeps.rs).
    Creeps(CreepFrame),
}
