//! The frames of the resolution stack, as data: what a half-resolved piece of the combat holds
//! (a turn waiting for its action, a menu choice under way, an ability, a forced movement, a
//! walk...). Which rule advances each one, what it asks and how it takes an answer is the
//! dispatch in [`crate::flow`]; the rule modules push and pop these.

use crate::model::{AbilityDef, ConditionKind, Cx, Side};
use crate::power_roll::Rolled;
use fray_core::engine::forced::Forced;
use fray_core::grid::Pos;
use std::sync::Arc;

/// A half-resolved piece of the combat.
#[derive(Clone, Debug)]
pub enum Frame {
    /// Between turns: the next side picks, or the round ends.
    Next,
    /// A side picks which of its creatures acts (DS-GAP-11).
    Pick {
        /// The side picking.
        side: Side,
    },
    /// A creature's turn: waiting for its next action.
    Act {
        /// Whose turn.
        c: Cx,
    },
    /// A menu choice waiting for a target or square.
    Pending {
        /// Who acts.
        c: Cx,
        /// What is chosen so far.
        p: Pending,
    },
    /// The end of `after`'s turn: the Director may take a villain action with another creature
    /// (DS-GAP-19).
    Villain {
        /// Whose turn just ended.
        after: Cx,
    },
    /// A conduit's turn starts: it prays before its piety roll, or not (DS-GAP-15).
    Pray {
        /// The conduit.
        c: Cx,
    },
    /// How much Malice the Director spends on Malicious Strike for `c` (DS-GAP-17).
    MaliceAmount {
        /// The creature whose turn it is.
        c: Cx,
    },
    /// A critical hit's extra action, taken at once (DS-CRIT-1).
    Extra {
        /// Who.
        c: Cx,
    },
    /// An ability resolving.
    Ability(Box<AbilityFrame>),
    /// Forced movement resolving.
    Forced(ForcedFrame),
    /// Several targets of one ability waiting to be force-moved: its user picks the next
    /// (DS-GAP-10).
    ForcedOrder {
        /// The ability's user.
        mover: Cx,
        /// The movements still to make.
        frames: Vec<ForcedFrame>,
    },
    /// A walk that may provoke opportunity attacks, square by square (DS-OA-1).
    Walk {
        /// Who walks.
        c: Cx,
        /// Squares still to enter.
        path: Vec<Pos>,
        /// How the journal says it moves ("moves", "charges").
        how: &'static str,
        /// Enemies already offered an opportunity attack for the next step.
        asked: Vec<Cx>,
        /// What follows the walk.
        after: AfterWalk,
    },
    /// An enemy leaving `by`'s reach: strike it or let it go (DS-OA-1).
    Opportunity {
        /// Who may strike.
        by: Cx,
        /// Who is leaving.
        mover: Cx,
    },
    /// Raising a wall, one square at a time (DS-AREA-5).
    Wall {
        /// Who raises it.
        c: Cx,
        /// Squares still to place.
        left: i32,
        /// How far the first square may be.
        within: i32,
        /// Squares placed so far.
        placed: Vec<Pos>,
    },
    /// Teleporting a creature: the user picks the square.
    Teleport {
        /// Who teleports it.
        by: Cx,
        /// Who is teleported.
        target: Cx,
        /// Up to how far.
        range: i32,
    },
    /// A moving ability's shift, one square at a time (DS-TURN-3).
    Sweep {
        /// The user.
        c: Cx,
        /// The ability.
        ability: Arc<AbilityDef>,
        /// Squares of shift left.
        left: i32,
        /// Every space of the move so far, the first one left included.
        visited: Vec<Pos>,
        /// Whether it is the main action.
        main_action: bool,
    },
    /// The targets of an ability that force-moves: a target it kills is still moved, its body
    /// staying on the map until the ability's forced movement is over (DS-SLAM-3, DS-GAP-10).
    /// Reached once that movement is done: the Director creatures' bodies leave the map.
    Bodies {
        /// The ability's targets.
        cs: Vec<Cx>,
    },
    /// End of a turn: saves and EoT effects.
    EndTurn {
        /// Whose turn.
        c: Cx,
        /// A failed save against this condition is turned into a success with a hero token
        /// (DS-TOKEN-3).
        token_save: Option<ConditionKind>,
    },
}

/// An ability in progress.
#[derive(Clone, Debug)]
pub struct AbilityFrame {
    /// User.
    pub user: Cx,
    /// The ability.
    pub ability: Arc<AbilityDef>,
    /// Targets.
    pub targets: Vec<Cx>,
    /// The squares of a cube or line (empty for other abilities): objects inside take its
    /// damage (DS-GAP-20).
    pub area: Vec<fray_core::grid::Pos>,
    /// The roll, once made.
    pub rolled: Option<Rolled>,
    /// Each target's tier.
    pub tiers: Vec<usize>,
    /// Waiting for the surges decision.
    pub asking_surges: bool,
    /// Surges spent on the first target.
    pub surges: i32,
    /// Whether it is the main action (crit extra actions, DS-DELTA-2).
    pub main_action: bool,
    /// Waiting for the potency-surge decision (DS-SURGE-2).
    pub asking_potency: bool,
    /// The potency-surge question has been answered.
    pub potency_asked: bool,
    /// Targets whose potency was raised by 1 with two surges.
    pub potency_up: Vec<Cx>,
    /// Waiting for the roller to keep its tier or take a lower one (DS-GAP-1).
    pub asking_tier: bool,
}

/// Forced movement in progress.
#[derive(Clone, Debug)]
pub struct ForcedFrame {
    /// Who moves it.
    pub mover: Cx,
    /// Who is moved.
    pub target: Cx,
    /// How: push, pull or slide (DS-FM-1..3).
    pub kind: Forced,
    /// Squares left.
    pub remaining: i32,
    /// Steps taken so far (for "straight line").
    pub steps: Vec<(i32, i32)>,
    /// Up and down allowed (the "vertical" keyword, DS-GAP-10).
    pub vertical: bool,
    /// Vertical direction taken so far: +1 up, -1 down, 0 none (a straight line never turns
    /// back).
    pub rise: i32,
    /// Squares moved downward so far: falling (DS-FALL-4).
    pub down: i32,
}

/// What is chosen so far from the menu.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// Where to advance.
    Move,
    /// Where to shift.
    Shift,
    /// Whom to target.
    Target(Arc<AbilityDef>),
    /// Whom to free strike.
    FreeStrike,
    /// Whom to charge.
    Charge,
    /// Where to charge to.
    ChargeSquare(Cx),
    /// Where to place an area (a cube's corner, a line's direction).
    Area(Arc<AbilityDef>),
    /// A maneuver on an adjacent creature: grab, knockback, help-up.
    Maneuver(&'static str),
}

/// What a walk does once it is over (or cut short).
#[derive(Clone, Debug, PartialEq)]
pub enum AfterWalk {
    /// Record the squares left of the move action (DS-TURN-1).
    MoveLeft(i32),
    /// A charge's melee free strike on this creature, if both still stand (DS-CHG-1).
    ChargeStrike(Cx),
}
