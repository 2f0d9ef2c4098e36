//! Frames of the core rules: actions being put together, moves, attacks, forced movement,
//! things put on the map, trigger points and the Creep phase.

use crate::engine::ids::{OrbIdx, UnitIdx};
use crate::engine::records::statuses::{Status, StatusKind};
use crate::engine::records::summons::Rider;
use fray_core::grid::Pos;
use serde::{Deserialize, Serialize};

/// A menu choice that still needs more answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// Walk or crawl: where to.
    Move(Mode),
    /// Shift: where to.
    Shift,
    /// A power: its target.
    Target(u16),
    /// A power that may take several targets: another one, or done.
    MoreTargets(u16, Vec<UnitIdx>),
    /// An area power: the square its area is centred on.
    Centre(u16),
    /// Charge: the square to charge to.
    ChargeSquare(u16, UnitIdx),
    /// Multi-Sword, Multi-Staff: the centre of the zone an implement attack is spread over.
    Zone(u16),
    /// Which orb to pick up.
    PickUp,
    /// Which orb to drop.
    Drop,
    /// Which orb to hand, then to whom.
    Hand(Option<OrbIdx>),
    /// Which orb to take.
    Take,
    /// Which orb to dunk, then where.
    Dunk(Option<OrbIdx>),
    /// Which status to escape.
    Escape,
}

/// A decision this module waits on.
#[derive(Clone, Debug)]
pub enum PlacedFrame {
    /// Where a trap goes after its Trap Roll.
    TrapSquare {
        /// The Tinker.
        owner: UnitIdx,
        /// The trap power.
        power: u16,
        /// Its charges after the roll.
        charges: i32,
        /// The Trap Roll (0 for a trap set without one).
        roll: i32,
        /// Advanced Trap's rider (its trap has 4 HP).
        rider: Option<Rider>,
    },
    /// Where a new automaton appears.
    AutomatonSquare {
        /// The Tinker.
        owner: UnitIdx,
        /// The automaton power.
        power: u16,
    },
    /// Which trap or automaton Disarm Traps damages, or which Damaging Terrain it clears.
    DisarmTarget {
        /// The Specialist.
        user: UnitIdx,
    },
    /// Disarm Traps clearing Damaging Terrain: the next square, or done.
    DisarmTerrain {
        /// The Specialist.
        user: UnitIdx,
        /// Squares it may still clear.
        left: u8,
    },
    /// Where a Ward Wall is centred.
    WallCentre {
        /// The Wardmaster.
        owner: UnitIdx,
        /// The power.
        power: u16,
    },
    /// Which way the Ward Wall runs through its centre.
    WallLine {
        /// The Wardmaster.
        owner: UnitIdx,
        /// The power.
        power: u16,
        /// Its middle square.
        centre: Pos,
    },
    /// The next square of the Specialist's Wall: each joins the chain edge to edge.
    WallChain {
        /// The Specialist.
        owner: UnitIdx,
        /// The power.
        power: u16,
        /// The chain's first square, once placed.
        first: Option<UnitIdx>,
        /// Squares still to place.
        left: u8,
    },
    /// Tinker's Helper improves a trap next to it.
    Improve {
        /// The helper.
        unit: UnitIdx,
    },
    /// An automaton's turn: where it moves (K-INIT-5).
    AutomatonTurn {
        /// The automaton.
        unit: UnitIdx,
    },
    /// Redirecting: which of the Tinker's traps gains the charge.
    Redirect {
        /// The Tinker.
        owner: UnitIdx,
    },
    /// Advanced Trap: which kind of trap.
    AdvancedKind {
        /// The Tinker.
        owner: UnitIdx,
        /// Its charges after the roll.
        charges: i32,
        /// The Trap Roll (0 for a trap set without one).
        roll: i32,
    },
    /// Advanced Trap: what it adds to every trigger.
    AdvancedRider {
        /// The Tinker.
        owner: UnitIdx,
        /// The trap power chosen.
        power: u16,
        /// Its charges after the roll.
        charges: i32,
        /// The Trap Roll (0 for a trap set without one).
        roll: i32,
    },
    /// The Pest after its move: which enemy next to it it latches onto (pest.rs).
    PestAttach {
        /// The Pest.
        unit: UnitIdx,
    },
    /// A host shaking its Pest off: the square it lands in (pest.rs).
    PestShake {
        /// The creature carrying the Pest.
        host: UnitIdx,
    },
}

/// A move in progress, one square at a time, so Opportunities and other Interrupts come
/// before each square is left (K-OPP-3, K-ACT-7) and a Take Out or a fall stops it (K-MOVE-10).
#[derive(Clone, Debug)]
pub struct MoveFrame {
    /// Who moves.
    pub unit: UnitIdx,
    /// Squares still to enter, in order.
    pub path: Vec<Pos>,
    /// Next square's index.
    pub next: usize,
    /// How.
    pub how: How,
    /// Enemies that already took an Opportunity during this move (once each, see rulings).
    pub provoked: Vec<UnitIdx>,
    /// Interrupts on leaving the current square have been offered.
    pub asked: bool,
    /// Movement spent so far.
    pub spent: u32,
    /// The most this move may cost now (Slowed partway through by Patient Gaze).
    pub limit: Option<u32>,
}

/// An attack in progress.
#[derive(Clone, Debug)]
pub struct AttackFrame {
    /// Declared as it starts to resolve, not when pushed: a Charge's attack, after the run
    /// (Spread Fire's count, K-CAI-1).
    pub declare: bool,
    /// The attacker.
    pub attacker: UnitIdx,
    /// The power used.
    pub power: u16,
    /// Targets, in the order they are rolled (K-MULTI-3).
    pub targets: Vec<UnitIdx>,
    /// Index of the target being resolved.
    pub next: usize,
    /// Stage.
    pub stage: Stage,
    /// Where lines and cover are judged from (the burst's centre, K-COV-2).
    pub origin: Pos,
    /// Whether the first roll has been made: later rolls give no Strike or Miss Token.
    pub first_done: bool,
    /// Whether an Attack Action was spent (staff and sword implement powers then end the turn).
    pub via_action: bool,
    /// The target avoided the hit with an Interrupt: the attack misses it.
    pub evaded: bool,
    /// Allies attacked on purpose granted Advantage (K-CREAT-2).
    pub granted_advantage: bool,
    /// The first roll's result while its hit resolves: the Role Boost reads it (K-ROLL-5,
    /// K-ROLE-3).
    pub boost: Option<i32>,
    /// The rival Charmer whose Role Boost this attack's first roll carries and earned (a 3-6):
    /// it works after the attacker's own (L2831).
    pub gift: Option<UnitIdx>,
    /// A triggered power whose rider applies on each hit (Patient powers, [`crate::engine::triggers`]).
    pub rider: Option<u16>,
    /// An Interrupt imposed Disadvantage on this attack (Patient Gaze).
    pub disadvantage: bool,
    /// Only the Effect line applies on a hit: no damage, no Role Boost (Punisher's reaction).
    pub effect_only: bool,
    /// No Role Boost (Revenge Fire).
    pub no_boost: bool,
    /// The Potions the attack carries (brews.rs).
    pub brew: Vec<u16>,
    /// No die is rolled: the roll counts as this (Absorbing's kept attack, robes.rs).
    pub fixed: Option<i32>,
    /// Special Ward points peeled for damage on each hit (Ward Bash, Ward Burst; wards.rs).
    pub peel: i32,
    /// The peel question has been asked (once per attack).
    pub peel_asked: bool,
    /// The roll being resolved used up a Focus (wandslinger-focus): 1 more damage if basic.
    pub focused: bool,
    /// A Throwing Sword was thrown at one of the targets: Disarmed once the attack is over.
    pub thrown: bool,
    /// It is Rapid Fire's repeat: its own Effect does not repeat it again.
    pub repeat: bool,
    /// Spread over a 3x3 zone by a Multi-Sword or Multi-Staff: 1 less damage instead of the
    /// implement's 1 more (K-MULTI-5).
    pub multi: bool,
    /// A spread attack's roll after the first: the damage line and the Effect only.
    pub later: bool,
    /// Crowd Control has spread this attack's Effect once already (defctl.rs).
    pub crowd_done: bool,
    /// Made from the attacker's Source Warp (`warp_origin`): `origin` is the warp's square, and
    /// the attack's distances, lines, cover, flanking and Opportunities are read from it.
    pub warp: bool,
}

/// Forced movement in progress.
#[derive(Clone, Debug)]
pub struct ForcedFrame {
    /// Who does the moving.
    pub mover: UnitIdx,
    /// Who is moved.
    pub target: UnitIdx,
    /// How.
    pub kind: ForcedKind,
    /// Squares left.
    pub remaining: i32,
    /// Where the mover stood when it began (distances for push and pull are measured from it).
    pub origin: Pos,
    /// Where the target started (throws and teleports measure from it).
    pub start: Pos,
    /// A dangerous square is next and the target is deciding whether to roll to safety.
    pub safety: Option<Pos>,
    /// Every square stays next to the mover (the Pursuer's boost, defctl.rs).
    pub ring: bool,
    /// The slide may run the target into another character (a level-4 Controller's boost).
    pub bump: bool,
    /// A character just run into: it must be slid a square before the slide may stop.
    pub must_move: bool,
}

/// A decision a trigger waits on.
#[derive(Clone, Debug)]
pub enum TriggerFrame {
    /// Use a triggered power now, or not.
    Offer {
        /// Whose power.
        owner: UnitIdx,
        /// What set it off.
        trigger: Trigger,
    },
    /// Salorn's Patient Surprise hit: the enemy drops an orb, or is Disarmed.
    Surprise {
        /// The Hexer.
        owner: UnitIdx,
        /// The enemy hit.
        target: UnitIdx,
    },
    /// Pursuer's Defender Reaction: the square next to the enemy to move to.
    Pursue {
        /// The Defender.
        owner: UnitIdx,
        /// The enemy.
        toward: UnitIdx,
    },
    /// Reposition: where the Wandslinger walks.
    Reposition {
        /// The Wandslinger.
        owner: UnitIdx,
    },
    /// The rest of a Saving Throw Phase paused by a failed save (no decision of its own).
    Resume {
        /// Whose turn.
        unit: UnitIdx,
        /// Statuses still to save against.
        left: Vec<Status>,
        /// Statuses the unit chose to fail its saves against.
        fail: Vec<StatusKind>,
    },
}

/// A step of the Creep phase or of a Hunter power, or the decision it waits on.
#[derive(Clone, Debug)]
pub enum CreepFrame {
    /// Group `g` acts next (K-INIT-4: printed order).
    Group {
        /// Which group.
        g: u8,
    },
    /// The group's action roll and its Creeps' actions (K-CAI-10).
    Roll {
        /// Which group.
        g: u8,
        /// Its Creeps that take the rolled action (not the one retrieving).
        actors: Vec<UnitIdx>,
    },
    /// A level-4 Hunter decides its Manipulate Creeps just before the roll.
    Nudge {
        /// Which group.
        g: u8,
        /// Which waiting nudge.
        index: usize,
    },
    /// One Creep takes the action of face `face`: choose a target, move, attack.
    Act {
        /// The Creep.
        unit: UnitIdx,
        /// The action face (1-6).
        face: i32,
        /// A Dominated Creep's first target, named by its dominator (K-CSP-4).
        first: Option<UnitIdx>,
        /// Moves left ("move twice", K-CAI-13, K-CAI-14).
        moves: u8,
    },
    /// A Creep's Charge after its move (K-CAI-13 step 2), then its action on `target`.
    Charge {
        /// The Creep.
        unit: UnitIdx,
        /// The action face (1-6).
        face: i32,
        /// Whom it charges.
        target: UnitIdx,
    },
    /// A Minotaur's action at the end of its Charge: `run` squares charged, past `passed`
    /// (Gore, Plow, Rampage); face 0 is its Miss Trigger's 3 damage.
    Charged {
        /// The Creep.
        unit: UnitIdx,
        /// The action face (1-6), 0 for the Miss Trigger.
        face: i32,
        /// Whom it charged.
        target: UnitIdx,
        /// Squares the Charge covered.
        run: u8,
        /// Non-Creeps it passed on the way.
        passed: Vec<UnitIdx>,
    },
    /// The Charm Ball's Multiple Eyes: where to stand for the charms of face `face` and down.
    Eyes {
        /// The Creep.
        unit: UnitIdx,
        /// The rolled face: its first charm.
        face: i32,
    },
    /// The Charm Ball's charms from where it stands, `first` first (Multiple Eyes).
    EyesFire {
        /// The Creep.
        unit: UnitIdx,
        /// The rolled face.
        face: i32,
        /// Its priority target, chosen before the move.
        first: UnitIdx,
    },
    /// The Creep retrieving its orb (K-CAI-9): after its move, pick up or put back.
    Retrieve {
        /// The Creep.
        unit: UnitIdx,
    },
    /// A mesmerised player walks toward the jelly, when its turn to walk comes (Mesmerize:
    /// initiative order).
    Mesmerized {
        /// The player.
        unit: UnitIdx,
        /// The jelly.
        jelly: UnitIdx,
    },
    /// The jelly's Drift stings an enemy it passes (the action of face `face` on `target`).
    Sting {
        /// The jelly.
        unit: UnitIdx,
        /// The action face (1-6).
        face: i32,
        /// The enemy.
        target: UnitIdx,
    },
    /// Step 3, recover (K-CAI-11).
    Recover {
        /// Which group.
        g: u8,
    },
    /// Manipulate Creeps (level 1-3): +1 or -1 now.
    Manipulate {
        /// The Hunter.
        user: UnitIdx,
        /// The group.
        g: u8,
    },
    /// False Flag: whom to take off the list.
    FlagOut {
        /// The Hunter.
        user: UnitIdx,
        /// The group.
        g: u8,
    },
    /// False Flag: whom to put on it.
    FlagIn {
        /// The Hunter.
        user: UnitIdx,
        /// The group.
        g: u8,
        /// Who came off.
        out: Option<UnitIdx>,
    },
    /// Provocation: the Hunter names the Creep's first target.
    Provoke {
        /// The Hunter.
        user: UnitIdx,
        /// The Creep.
        creep: UnitIdx,
    },
}

/// How a unit changed squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum How {
    /// Walking with a Move Action.
    Walk,
    /// A 1-square Shift (K-MOVE-2).
    Shift,
    /// Crawling while Prone (K-MOVE-9).
    Crawl,
    /// Dragged by its grabber (K-MOVE-8).
    Dragged,
    /// Pushed (K-FM-4).
    Push,
    /// Pulled (K-FM-4).
    Pull,
    /// Slid (K-FM-4).
    Slide,
    /// Thrown (K-FM-6).
    Throw,
    /// Teleported (K-FM-5).
    Teleport,
    /// Through a portal (K-TER-4).
    Portal,
    /// Charging (K-MOVE-11).
    Charge,
}

/// What set a triggered power off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// `attacker`'s roll is about to hit the owner (Interrupt).
    WouldBeHit {
        /// The attacker.
        attacker: UnitIdx,
    },
    /// `mover` is about to leave a square under its own power (Interrupt).
    Moving {
        /// Who moves.
        mover: UnitIdx,
    },
    /// `attacker` is about to roll an attack (Interrupt).
    Attacking {
        /// The attacker.
        attacker: UnitIdx,
    },
    /// `granter` grants the owner an Opportunity (Interrupt; the Opportunity is taken either way).
    Opportunity {
        /// Who grants it.
        granter: UnitIdx,
        /// Why, for the journal.
        why: &'static str,
    },
    /// `mover` finished a move under its own power (Reaction).
    MoveEnded {
        /// Who moved.
        mover: UnitIdx,
    },
    /// `unit` ended its turn (Reaction).
    TurnEnded {
        /// Whose turn ended.
        unit: UnitIdx,
    },
    /// `granter`, Marked by the owner, granted it an Opportunity, now taken (Reaction).
    Punish {
        /// Who granted it.
        granter: UnitIdx,
    },
    /// `attacker`'s attack hit the owner (Reaction).
    WasHit {
        /// The attacker.
        attacker: UnitIdx,
    },
    /// `unit` failed its save against `status` in its Saving Throw Phase (Reaction; the answer
    /// settles the save).
    SaveFailed {
        /// Who saved.
        unit: UnitIdx,
        /// Against what.
        status: Status,
    },
    /// The owner `unit` lost HP to damage and is still on the map (Reaction: Phoenix Elixir).
    TookDamage {
        /// Who took it.
        unit: UnitIdx,
    },
}

/// Where an attack stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Interrupts the attack itself provokes (Opportunities) resolve first.
    Provoke,
    /// Roll against the current target.
    Roll,
    /// Waiting for the attacker to spend Miss Tokens (K-MISS-2).
    Tokens {
        /// The natural roll.
        natural: i32,
    },
    /// Waiting for an Interrupt by the target (Contingency Jump).
    Interrupted {
        /// The final roll.
        value: i32,
    },
    /// Waiting for the Glancing Hit choice (K-ROLL-1).
    Glancing,
    /// Waiting for `who` to decide whether to spend a Luck Token on a reroll (Luck Charm).
    Luck {
        /// The natural roll.
        natural: i32,
        /// How it was rolled (a reroll rolls the same way).
        mode: RollMode,
        /// Who decides: the attacker, then the target.
        who: UnitIdx,
        /// The dice rolled (0: no second die).
        dice: [i32; 2],
    },
    /// Everything resolved.
    Done,
}

/// Ways of moving under one's own power.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// Walking with a Move Action (K-MOVE-1).
    Walk,
    /// Crawling while Prone, as if Slowed (K-MOVE-9).
    Crawl,
    /// Charging: each square nearer the target, no Difficult Terrain (K-MOVE-11).
    Charge(UnitIdx),
}

/// Kinds of forced movement (K-FM-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcedKind {
    /// Every square farther from the mover.
    Push,
    /// Every square nearer the mover.
    Pull,
    /// Any direction.
    Slide,
    /// Like a push, but over terrain and creatures; no roll to safety.
    Throw,
    /// Anywhere within range, over everything; no roll to safety; escapes Grabs.
    Teleport,
}

/// Advantage or Disadvantage on a roll (K-ADV).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RollMode {
    /// One die.
    Normal,
    /// Two dice, keep the higher.
    Advantage,
    /// Two dice, keep the lower.
    Disadvantage,
}

/// A checked, resolved action.
#[derive(Clone, Debug, PartialEq)]
pub enum Verb {
    /// Walk or crawl along a route.
    Move {
        /// Squares entered.
        path: Vec<Pos>,
        /// Walking or crawling.
        mode: Mode,
    },
    /// Shift 1 square.
    Shift(Pos),
    /// Stand up.
    Stand,
    /// Escape attempt against one status.
    Escape(StatusKind),
    /// Use a power.
    Power {
        /// Which.
        power: u16,
        /// Targets in roll order.
        targets: Vec<UnitIdx>,
        /// A square it needs.
        square: Option<Pos>,
        /// Creative Use.
        creative: bool,
        /// Advantage granted by a willing ally target.
        advantage: bool,
    },
    /// Pick up an orb.
    PickUp(OrbIdx),
    /// Drop an orb.
    Drop(OrbIdx, Pos),
    /// Hand an orb over.
    Hand(OrbIdx, UnitIdx),
    /// Take an orb from an ally.
    Take(OrbIdx),
    /// Dunk an orb.
    Dunk(OrbIdx, u8),
    /// Hit the button of this exit.
    Button(Pos),
    /// Stow the implement.
    Stow,
    /// Take it back.
    Retrieve,
    /// Drop Prone.
    DropProne,
    /// End a status a power lets its bearer pull off, for the Attack Action.
    ShakeOff(StatusKind),
    /// Stop Flying.
    Land,
    /// End the turn.
    EndTurn(Vec<StatusKind>),
    /// Use an attack power from one of the user's Source Warps (`warp_origin`).
    WarpPower {
        /// Which.
        power: u16,
        /// Targets in roll order.
        targets: Vec<UnitIdx>,
        /// The warp's square: the attack's origin.
        from: Pos,
    },
}
