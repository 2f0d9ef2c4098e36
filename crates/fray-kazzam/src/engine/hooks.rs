//! The hook table: how class, role and implement behaviour reaches the core rules without the
//! rules naming a class module (issue 12). Each class file registers what it plays in its
//! `register(&mut Registry)`; [`crate::engine::plugins`] (the top of the crate) calls them all and
//! [`crate::engine::setup`] puts the finished [`Table`] in the state. Rule code asks
//! [`table`]`(cx.s)` and calls what it finds.
//!
//! Two shapes:
//! - **Hooks by name**: the power hooks and Effect hooks content names (`hook = "…"`, the lists
//!   in [`crate::content::hooks`]) map to one function each, with one argument struct per kind
//!   ([`PowerUse`], [`EffectUse`]). A name two modules list goes to the first registered (the
//!   order the old `contains` chains tested them).
//! - **Trigger points** ([`Trigger`]): lists of listeners, each with an explicit `order` and the
//!   rule id it plays. Listeners run by ascending `order`; the orders written in the class files
//!   are the order the rules called them in before the table existed, so every journal is the
//!   same. They are the rules' own automatic consequences (K-MISS-7, Reflective Ward, a Floor
//!   Portal trap...), not Interrupts or Reactions: those are offered as decisions by
//!   [`crate::engine::triggers`] (K-ACT-7), and where a listener offers one it pushes its frame
//!   like any rule does. See docs/rulings/kazzam.md "Trigger points".

use crate::content::hooks::{EffectHook, PowerHook};
use crate::content::powers::Effect;
use crate::content::powers::PowerDef;
use crate::engine::events::How;
use crate::engine::frames::rules::{ForcedFrame, PlacedFrame};
use crate::engine::kit::Ctx;
use crate::engine::records::statuses::{Status, StatusKind};
use crate::engine::state::{State, UnitIdx};
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// A power hook's call: who uses which power on whom (or where).
pub struct PowerUse<'a> {
    /// The user.
    pub unit: UnitIdx,
    /// The power.
    pub power: u16,
    /// Its targets, as checked.
    pub targets: &'a [UnitIdx],
    /// Its square, if it names one.
    pub square: Option<Pos>,
}

/// An Effect hook's call: an Effect line of `power` by `user` lands on `target`.
pub struct EffectUse<'a> {
    /// The hook's name.
    pub hook: &'a str,
    /// The Effect's amount, if it gives one.
    pub amount: Option<i32>,
    /// The power's user.
    pub user: UnitIdx,
    /// Whom the Effect applies to.
    pub target: UnitIdx,
    /// The power's own target (a Porter's warp aims at it).
    pub power_target: UnitIdx,
    /// The power.
    pub power: u16,
}

/// An attack missed (K-MISS), after the Miss Token: what the listeners of
/// [`Trigger::AttackMissed`] are told.
pub struct Missed<'a> {
    /// The attacker.
    pub attacker: UnitIdx,
    /// The target it missed.
    pub target: UnitIdx,
    /// The power.
    pub power: u16,
    /// The power's definition.
    pub def: &'a PowerDef,
    /// The first roll of the attack (K-MISS-1, K-MULTI-2).
    pub first: bool,
    /// The die's value, as read.
    pub value: i32,
    /// The target evaded it (the roll hit, an evasion made it a miss).
    pub evaded: bool,
    /// Only the Effect applies (no Role Boost on it).
    pub effect_only: bool,
    /// The attack carries no Role Boost.
    pub no_boost: bool,
    /// The brews delivered with it.
    pub brew: &'a [u16],
    /// Every target of the attack, in the order rolled (K-MULTI-4).
    pub targets: &'a [UnitIdx],
}

/// An attack hit (its damage and Effect done): what the listeners of [`Trigger::AttackHit`]
/// are told.
pub struct Hit<'a> {
    /// The attacker.
    pub attacker: UnitIdx,
    /// The target it hit.
    pub target: UnitIdx,
    /// The power's definition.
    pub def: &'a PowerDef,
    /// Where in the stack the hit's queued frames start (a Reaction offered goes below them).
    pub below: usize,
}

/// An Effect hook that acts once the hit's Effect is over ([`Registry::after_hit_hooks`]).
pub struct AfterHit<'a> {
    /// The hook's name.
    pub hook: &'a str,
    /// The attacker.
    pub user: UnitIdx,
    /// The target it hit.
    pub target: UnitIdx,
    /// The target's square when hit, if it was on the map.
    pub at: Option<Pos>,
    /// The power.
    pub power: u16,
}

/// A unit entered a square ([`Trigger::SquareEntered`]), after terrain and zones.
pub struct Entered {
    /// Who.
    pub unit: UnitIdx,
    /// From where.
    pub from: Pos,
    /// The square entered.
    pub to: Pos,
    /// Who moved it (itself, if it moved under its own power), if anyone.
    pub by: Option<UnitIdx>,
}

/// An attack roll was read against a target ([`Trigger::RollRead`]).
pub struct RollRead {
    /// The attacker.
    pub attacker: UnitIdx,
    /// The target.
    pub target: UnitIdx,
    /// The die's value, as read.
    pub value: i32,
    /// Whether it hit.
    pub hit: bool,
}

/// What a listener leaves the trigger point to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Then {
    /// Go on to the next listener.
    Go,
    /// It pushed frames: stop here; they resolve first and the trigger point is reached again
    /// (its listeners keep their own record of having acted).
    Wait,
}

/// A listener at a trigger point: `F` is the point's function type ([`MissedFn`], [`RoundFn`]).
pub struct Listener<F> {
    /// When it runs among the point's listeners (ascending).
    pub order: u16,
    /// The rule id (or power id) it plays.
    pub rule: &'static str,
    /// What it does.
    pub run: F,
}

/// A listener of [`Trigger::AttackMissed`].
pub type MissedFn = fn(&mut Ctx, &Missed) -> Result<(), RuleError>;
/// A listener of [`Trigger::RoundBegins`] and [`Trigger::RoundEnds`].
pub type RoundFn = fn(&mut Ctx) -> Result<Then, RuleError>;
/// A listener of [`Trigger::AttackHit`].
pub type HitFn = fn(&mut Ctx, &Hit) -> Result<(), RuleError>;
/// A listener of [`Trigger::Attacked`]: the unit that attacked (these cannot fail: the attack
/// is over).
pub type UnitFn = fn(&mut Ctx, UnitIdx);
/// A listener at [`Trigger::StepDone`].
pub type StepFn = fn(&mut Ctx) -> Result<(), RuleError>;
/// A listener of [`Trigger::RollRead`].
pub type RollReadFn = fn(&mut Ctx, &RollRead) -> Result<(), RuleError>;
/// A listener of [`Trigger::AttackActionSpent`]: the unit that spent it.
pub type SpentFn = fn(&mut Ctx, UnitIdx) -> Result<(), RuleError>;
/// A listener of [`Trigger::StatusGiven`]: the unit, the status it gained.
pub type StatusFn = fn(&mut Ctx, UnitIdx, &Status);
/// A listener of [`Trigger::SavesDue`]: the unit and the statuses it is about to save against,
/// which the listener may hold back.
pub type SavesFn = fn(&mut Ctx, UnitIdx, &mut Vec<Status>);
/// A listener of [`Trigger::Provoked`]: the mover, the creature it provoked.
pub type ProvokedFn = fn(&mut Ctx, UnitIdx, UnitIdx) -> Result<(), RuleError>;

/// A power hook.
pub type PowerFn = fn(&mut Ctx, &PowerUse) -> Result<(), RuleError>;
/// An Effect hook.
pub type EffectFn = fn(&mut Ctx, &EffectUse) -> Result<(), RuleError>;
/// An Effect hook played after the hit ([`AfterHit`]).
pub type AfterHitFn = fn(&mut Ctx, &AfterHit);
/// A check that a power may be used now (after the core's own checks).
pub type CheckUseFn = fn(&State, UnitIdx, &PowerDef) -> Result<(), RuleError>;
/// A check that `t` may be a target of `power` by `u` (after range and line; `creative` for a
/// Creative Use).
pub type CheckTargetFn = fn(&State, UnitIdx, u16, UnitIdx, bool) -> Result<(), RuleError>;
/// A listener of [`Trigger::AttackDeclared`]: the attacker, its targets, the power.
pub type DeclaredFn = fn(&mut Ctx, UnitIdx, &[UnitIdx], u16);
/// A listener of [`Trigger::DamageDealt`]: the unit damaged, the damage's source.
pub type DealtFn = fn(&mut Ctx, UnitIdx, Option<UnitIdx>);
/// A listener of [`Trigger::SquareEntered`].
pub type EnteredFn = fn(&mut Ctx, &Entered) -> Result<(), RuleError>;
/// An attack roll about to be made by a unit: the value that stands for it (Foresight), if any.
pub type AttackDieFn = fn(&mut Ctx, UnitIdx) -> Option<i32>;
/// A listener of [`Trigger::TakenOut`]: the unit, its square, who Took it Out.
pub type TakenOutFn = fn(&mut Ctx, UnitIdx, Pos, Option<UnitIdx>);
/// Menu entries a class adds to a unit's turn menu.
pub type MenuFn = fn(&State, UnitIdx) -> Vec<fray_core::decision::DecisionOption>;
/// Whether a class lets a unit use a power it does not have (a carried Elixir...).
pub type LendsFn = fn(&State, UnitIdx, u16) -> bool;
/// A listener of [`Trigger::TrapSprung`]: the trap, its victim, whether it was a free trigger.
pub type TrapFn = fn(&mut Ctx, UnitIdx, UnitIdx, bool);
/// A curse left behind in a square fires there (its curse, the square, its Effect line).
pub type LeftBehindFn = fn(&mut Ctx, &crate::engine::records::curses::Curse, Pos, &[crate::content::powers::Effect]);
/// A Role Boost applied on a hit (or a miss that still boosts): the boost, user, target, and
/// whether the hit dealt damage.
pub type BoostFn = fn(&mut Ctx, crate::engine::records::roles::Boost, UnitIdx, UnitIdx, bool);
/// A listener of [`Trigger::HitComing`]: whether it asked a question (pushed a frame) before the
/// hit resolves.
pub type HitComingFn = fn(&mut Ctx, &mut crate::engine::frames::AttackFrame, &PowerDef) -> bool;
/// A listener of [`Trigger::AttackDone`].
pub type AttackDoneFn = fn(&mut Ctx, &crate::engine::frames::AttackFrame);
/// A listener of [`Trigger::TakenOutByAttack`]: the Death Wards found on the target before it
/// was Taken Out, the target, who Took it Out.
pub type DeathWardFn = fn(&mut Ctx, &[crate::engine::records::curses::Curse], UnitIdx, Option<UnitIdx>);
/// Multi-Sword and Multi-Staff (K-MULTI-5): the squares a unit may centre `power` on.
pub type MultiOptionsFn = fn(&State, UnitIdx, u16) -> Vec<Pos>;
/// The targets `power` takes when centred on a square.
pub type MultiTargetsFn = fn(&State, UnitIdx, u16, Pos) -> Vec<UnitIdx>;
/// Checks a centre and targets named for `power`.
pub type CheckMultiFn = fn(&State, UnitIdx, u16, Pos, &[UnitIdx]) -> Result<(), RuleError>;
/// A die about to be rolled for a unit: a value that replaces it (Seer), if any.
pub type DieFn = fn(&mut Ctx, UnitIdx) -> Option<i32>;
/// The decision kind, prompt and options of a class's frame kept among the placed ones.
/// A unit gained an amount (of HP, of Ward) from something named.
pub type GainFn = fn(&mut Ctx, UnitIdx, i32, &str);
/// A unit made a saving throw against something named.
pub type SaveMadeFn = fn(&mut Ctx, UnitIdx, &str) -> Result<(), RuleError>;
/// The decision kind, prompt and options of a class's frame kept among the placed ones.
pub type PlacedQuestionFn =
    fn(&State, &PlacedFrame) -> (&'static str, String, Vec<fray_core::decision::DecisionOption>);
/// A creature removed from existence (Removal from Existence): what may target it, and its
/// turn outside existence (its menu, commands and move).
#[derive(Clone, Copy)]
pub struct RemovedTurn {
    /// Refuses a power aimed at `t` (a removed creature, or a target Removal does not take).
    pub check_target: fn(&State, UnitIdx, &PowerDef, UnitIdx) -> Result<(), RuleError>,
    /// Whether a removed unit's turn has nothing left in it.
    pub turn_done: fn(&State, UnitIdx) -> bool,
    /// A removed unit's action menu.
    pub menu: fn(&State, UnitIdx) -> Vec<fray_core::decision::DecisionOption>,
    /// Answers that menu with a square.
    pub answer_menu: fn(&mut Ctx, UnitIdx, &str) -> Result<(), RuleError>,
    /// Checks a command of a unit: `None` unless it is removed.
    pub check: fn(&State, UnitIdx, &crate::engine::frames::rules::Verb) -> Option<Result<(), RuleError>>,
    /// A removed unit's move.
    pub move_to: fn(&mut Ctx, UnitIdx, Pos) -> Result<(), RuleError>,
}

/// Lasting charms' saves (unit, statuses it fails without rolling).
pub type LastingSavesFn =
    fn(&mut Ctx, UnitIdx, &[crate::engine::records::statuses::StatusKind]) -> Result<(), RuleError>;
/// Who chooses whether a Luck reroll is used (attacker, target, after whom), if anyone.
pub type LuckChooserFn = fn(&State, UnitIdx, UnitIdx, Option<UnitIdx>) -> Option<UnitIdx>;
/// The natural roll as a Charmer's wand reads it (attacker, target, power, natural).
pub type WandReadingFn = fn(&mut Ctx, UnitIdx, UnitIdx, &PowerDef, i32) -> i32;
/// A charm power's hit or miss (user, target, power, how it hit).
pub type CharmResolveFn = fn(&mut Ctx, UnitIdx, UnitIdx, u16, crate::engine::events::Hit) -> Result<(), RuleError>;

/// The Charmer's charms where the core rules meet them (`classes::charmer`), each called at the
/// one place the rules always called it.
#[derive(Clone, Copy)]
pub struct Charms {
    /// Lasting: one save per charm.
    pub lasting_saves: LastingSavesFn,
    /// Whether a status is held by a Lasting charm (saved against on its own).
    pub lasting_status: fn(&State, &Status) -> bool,
    /// Forced Flight: who lands the unit at this turn's end, if anyone.
    pub forced_landing: fn(&State, UnitIdx, u32) -> Option<UnitIdx>,
    /// Forced Flight's landing attack.
    pub landing_attack: fn(&mut Ctx, UnitIdx, UnitIdx),
    /// Whether the unit's saves succeed without a roll.
    pub saves_succeed: fn(&State, UnitIdx) -> bool,
    /// Takeoff Charm's check on a power.
    pub check_takeoff: fn(&State, UnitIdx, &PowerDef) -> Result<(), RuleError>,
    /// Whether a status is Forced Flight's.
    pub forced_flight: fn(&State, &Status) -> bool,
    /// Who chooses a Luck reroll.
    pub luck_chooser: LuckChooserFn,
    /// The natural roll as a wand reads it.
    pub wand_reading: WandReadingFn,
    /// A charm's hit or miss.
    pub resolve: CharmResolveFn,
    /// Enlarging Charm's extra damage.
    pub enlarged_damage: fn(&State, UnitIdx, UnitIdx, &PowerDef) -> i32,
    /// Wraith Charm: the mover passed through someone.
    pub moved_through: fn(&mut Ctx, UnitIdx),
    /// Whether the unit cannot be Taken Out yet.
    pub undying: fn(&State, UnitIdx) -> bool,
}

/// A hit with Potions (definition, user, target, Potions, whether it deals damage): who was splashed.
pub type BrewHitFn = fn(&mut Ctx, &PowerDef, UnitIdx, UnitIdx, &[u16], bool) -> Result<Vec<UnitIdx>, RuleError>;
/// The Potions' Effect lines (user, target, Potions, those splashed).
pub type DeliverFn = fn(&mut Ctx, UnitIdx, UnitIdx, &[u16], &[UnitIdx]) -> Result<(), RuleError>;

/// The Brewer's Potions and Elixirs where the core rules meet them (`classes::brewer`), each
/// called at the one place the rules always called it.
#[derive(Clone, Copy)]
pub struct Brews {
    /// Refuses a delivery power without its Potions, a brew used on its own, a locked stash.
    pub check_use: fn(&State, UnitIdx, u16) -> Result<(), RuleError>,
    /// A delivery power's attack frame is on the stack: asks for the Potions.
    pub begin: fn(&mut Ctx, UnitIdx, u16),
    /// On a hit, before its damage: the Potions' Specials and the splash; who was splashed.
    pub on_hit: BrewHitFn,
    /// The Potions' Effect lines on the target and those splashed.
    pub deliver: DeliverFn,
    /// A blade attack's Potions were applied: the blade is wiped.
    pub blade_used: fn(&mut Ctx, UnitIdx, &PowerDef),
    /// A creature Taken Out loses its Elixirs (after its orbs).
    pub drop_all: fn(&mut Ctx, UnitIdx),
    /// A failed save against a status (Corrosive Potion grows).
    pub failed_save: fn(&mut Ctx, UnitIdx, Status),
    /// Drinks a carried Elixir as a Reaction (Phoenix Elixir).
    pub drink_power: fn(&mut Ctx, UnitIdx, u16) -> Result<(), RuleError>,
    /// Kill Switch, used as a Reaction.
    pub kill_switch: fn(&mut Ctx, UnitIdx, u16) -> Result<(), RuleError>,
}

/// Crowd Control (L1835): after `user`'s attack with `power` applied its Effect `line` to
/// `target`, queues the choice of one more enemy (a frame at flow index `at`); true when queued.
pub type CrowdControlFn = fn(&mut Ctx, UnitIdx, UnitIdx, u16, &[UnitIdx], &[Effect], usize) -> bool;

/// The Defender and Controller features where forced movement and attacks meet them
/// (`roles::defender_controller`).
#[derive(Clone, Copy)]
pub struct DefenderController {
    /// The squares a forced movement may take next, given those the ordinary rules allow.
    pub forced_squares: fn(&State, &ForcedFrame, Vec<Pos>) -> Vec<Pos>,
    /// The character a chosen square runs a level-4 Controller's slide into, if any.
    pub bumped: fn(&State, &ForcedFrame, Pos) -> Option<UnitIdx>,
    /// The slide runs its target into that character.
    pub bump: fn(&mut Ctx, ForcedFrame, UnitIdx),
    /// Crowd Control: the Effect line goes to one more enemy; true when the choice is queued.
    pub crowd_control: CrowdControlFn,
}

/// The Porter's warps, traps and tunnels where the core rules meet them (`classes::porter`);
/// the read-only questions about them are in `rules::portals`.
#[derive(Clone, Copy)]
pub struct Warps {
    /// Whether `t` may be the target of the power (Hub Warp's room, Involuntary Lift's slide).
    pub check_target: fn(&State, UnitIdx, &PowerDef, UnitIdx) -> Result<(), RuleError>,
    /// A hit with the power: Floor Portal's trap opens under the target.
    pub on_hit: fn(&mut Ctx, UnitIdx, UnitIdx, &PowerDef),
    /// Warp frames pushed while a square was entered (above stack height `mark`) are lifted
    /// above the movement's own frame, to be answered first.
    pub lift: fn(&mut Ctx, usize),
    /// Squares past a Short Tunnel that a forced movement (of a footprint of this size) may reach.
    pub forced_through: fn(&State, &ForcedFrame, i32) -> Vec<Pos>,
}

/// The role actions where the core rules meet them (`roles::role_actions`); their read-only
/// questions (Draw a Bead, Spread Fire, Boost Squares) are in `rules::query`.
#[derive(Clone, Copy)]
pub struct RoleActions {
    /// The Hide power a unit whose turn was cut short may still use as it ends, if any.
    pub hide_offer: fn(&State, UnitIdx) -> Option<u16>,
    /// Whether the unit's next saving throw or escape roll has Restore's Advantage (using it up).
    pub save_advantage: fn(&mut Ctx, UnitIdx) -> bool,
}

/// Checks a waiting power's targets (`Triggered::check_use`).
pub type WaitingUseFn = fn(&State, UnitIdx, u16, &[UnitIdx], bool) -> Result<(), RuleError>;
/// Reads an attack's dice with 2s as 5s (`ClassFeatures::read_roll`).
pub type ReadRollFn = fn(&State, UnitIdx, UnitIdx, &[i32], Option<bool>) -> Option<(i32, &'static str)>;
/// What the zones and terrain of an entered square do (`Zones::entered_as`).
pub type EnteredAsFn = fn(&mut Ctx, UnitIdx, Pos, Pos, Option<UnitIdx>, bool) -> Result<(), RuleError>;

/// Triggered powers (K-ACT-7) at the trigger points the core rules reach them from
/// (`engine::triggers`): each offers a unit's Interrupts or Reactions as decisions.
#[derive(Clone, Copy)]
pub struct Triggered {
    /// What a waiting power's targets must be (Patient Gaze watches an enemy).
    pub check_use: WaitingUseFn,
    /// An Opportunity the taker gets on the granter: taken at once or offered (true: pushed).
    pub opportunity: fn(&mut Ctx, UnitIdx, UnitIdx, &'static str) -> bool,
    /// An attack on these targets: Retribution's Opportunities (`already`: those who took one).
    pub retribution: fn(&mut Ctx, UnitIdx, &[UnitIdx], &[UnitIdx]),
    /// The attacker is about to roll (true: an Interrupt was offered).
    pub attacking: fn(&mut Ctx, UnitIdx) -> bool,
    /// An attack roll is about to hit the target (true: an Interrupt was offered).
    pub would_be_hit: fn(&mut Ctx, UnitIdx, UnitIdx) -> bool,
    /// A Patient power's rider on its interrupting attack's hit.
    pub rider: fn(&mut Ctx, UnitIdx, UnitIdx, u16),
    /// The Juggernaut's Defender Reaction on damage about to be taken: the damage left.
    pub resist_reaction: fn(&mut Ctx, UnitIdx, i32) -> i32,
    /// The unit lost HP to damage: its Reactions to that.
    pub took_damage: fn(&mut Ctx, UnitIdx),
    /// The mover is about to leave a square (true: an Interrupt was offered).
    pub moving: fn(&mut Ctx, UnitIdx, How) -> bool,
    /// The mover finished a move: Reactions to it.
    pub move_ended: fn(&mut Ctx, UnitIdx, How),
    /// The start of the unit's turn: its Defender Reaction is ready again.
    pub start_of_turn: fn(&mut Ctx, UnitIdx),
    /// The unit failed its save against the status (`left` and `fail`: the rest of its phase);
    /// true when a Keep Walking was offered and the phase waits.
    pub save_failed: fn(&mut Ctx, UnitIdx, Status, &[Status], &[StatusKind]) -> bool,
}

/// The Tamer's creatures where the core rules meet them (`classes::tamer`); the read-only
/// questions about them are in `rules::beasts`.
#[derive(Clone, Copy)]
pub struct Taming {
    /// The Tamer took a Move Action: its creatures may follow (L1660).
    pub move_action: fn(&mut Ctx, UnitIdx),
    /// The unit starts a move held by Vine Worms: Slowed and 1 damage; the most the move may cost.
    pub vines: fn(&mut Ctx, UnitIdx) -> Option<u32>,
    /// A creature's attack on the target with its Tamer's Sword near: +1 once a turn (0: none).
    pub sword_bonus: fn(&mut Ctx, UnitIdx, UnitIdx) -> i32,
    /// The taker's Opportunity on the target, when a creature's own (true: handled there).
    pub opportunity: fn(&mut Ctx, UnitIdx, UnitIdx) -> bool,
    /// The Tamer acted: its creatures' delayed Ongoing damage (L1669).
    pub after_action: fn(&mut Ctx, UnitIdx),
    /// A save against Nettlekin's Ongoing damage eases it by 1 instead (true: handled there).
    pub nettle_save: fn(&mut Ctx, UnitIdx, Status) -> bool,
    /// The unit failed a save: the Scalehound's bite.
    pub save_failed: fn(&mut Ctx, UnitIdx),
}

/// Class features where the core rules meet them (`classes::features`); their read-only
/// questions (Ricochet Shot, Scryer's lock, Tinker Armor, Directional Shield...) are in
/// `rules::query`.
#[derive(Clone, Copy)]
pub struct ClassFeatures {
    /// Whether the unit may use the power now as features see it (Change Spell, taking off).
    pub check_power: fn(&State, UnitIdx, &PowerDef) -> Result<(), RuleError>,
    /// The attacker's dice read with 2s as 5s against the target (K-ROLL-7): the kept value and
    /// the feature, when it changed anything.
    pub read_roll: ReadRollFn,
    /// The user's power with an Effect reached an ally (Cheerful, Creative).
    pub after_effect: fn(&mut Ctx, UnitIdx, UnitIdx, &PowerDef, bool),
    /// The mover teleported the unit (Teleportation Specialist).
    pub teleported: fn(&mut Ctx, UnitIdx, UnitIdx),
    /// The unit failed to escape a status (Sword Hold).
    pub escape_failed: fn(&mut Ctx, UnitIdx, StatusKind),
    /// Focused Blade's bonus to the attacker's roll against the target.
    pub focus_bonus: fn(&mut Ctx, UnitIdx, UnitIdx) -> i32,
    /// Capacitive Ward's damage spent on the attacker's attack (`dealing`: it deals damage).
    pub capacitive_damage: fn(&mut Ctx, UnitIdx, bool) -> i32,
    /// A hit by the attacker on the target at this distance (Portal Brawler...).
    pub on_hit: fn(&mut Ctx, UnitIdx, UnitIdx, Option<i32>),
    /// A hit with the power by the attacker (Guardless Blade).
    pub on_hit_blade: fn(&mut Ctx, UnitIdx, UnitIdx, &PowerDef),
    /// The target was damaged by the attacker (Guardless Blade's answer).
    pub on_damaged: fn(&mut Ctx, UnitIdx, UnitIdx),
    /// The unit took damage from the other (Electrified).
    pub zap: fn(&mut Ctx, UnitIdx, UnitIdx),
    /// The unit lost its Special Ward (Capacitive Ward's charge).
    pub special_ward_lost: fn(&mut Ctx, UnitIdx),
    /// The unit came back after being Taken Out (Shivering Sword's spells).
    pub after_respawn: fn(&mut Ctx, UnitIdx),
}

/// Traps, walls and summoned things where damage meets them (`rules::summons`).
#[derive(Clone, Copy)]
pub struct Traps {
    /// An Improved Trap's Resist All, once: the damage left.
    pub resist_once: fn(&mut Ctx, UnitIdx, i32) -> i32,
    /// A Ward Wall's section took damage (its HP now this): the other sections take it too.
    pub share_damage: fn(&mut Ctx, UnitIdx, i32, i32),
    /// A trap, wall or summoned thing was destroyed (by this unit).
    pub destroyed: fn(&mut Ctx, UnitIdx, Option<UnitIdx>),
}

/// Curses where damage and movement meet them (`rules::curses`).
#[derive(Clone, Copy)]
pub struct Curses {
    /// The unit took damage: curses that fire on it (Empathic Imposition).
    pub damaged: fn(&mut Ctx, UnitIdx),
    /// The unit was Bloodied: curses laid by it (Linked Doom).
    pub maker_bloodied: fn(&mut Ctx, UnitIdx),
    /// The unit is about to leave a square under its own power: curses that fire on it (true:
    /// one fired and the move waits).
    pub moving: fn(&mut Ctx, UnitIdx, How) -> Result<bool, RuleError>,
}

/// Zones and special terrain where movement meets them (`rules::zones`).
#[derive(Clone, Copy)]
pub struct Zones {
    /// The unit entered `to` from `from` (moved by the given unit; `true`: it may ignore Damaging
    /// Terrain, a Misty Charge): what the zones and terrain there do.
    pub entered_as: EnteredAsFn,
}

/// The Specialists' saves where the core rules meet them (`roles::specialists`).
#[derive(Clone, Copy)]
pub struct Specialists {
    /// An Opportunity on a Runner waits for its save; true when the save was queued.
    pub dodge: fn(&mut Ctx, UnitIdx, UnitIdx, &str) -> bool,
    /// A Runner about to drop what it holds saves; true when it keeps hold.
    pub keeps_hold: fn(&mut Ctx, UnitIdx) -> Result<bool, RuleError>,
    /// A Trapper about to be hurt by a trap or terrain saves; true when it avoids it.
    pub evades: fn(&mut Ctx, UnitIdx, &str) -> Result<bool, RuleError>,
    /// A save against a trap for those who get one (Trapper, Self-Lift); true when avoided.
    pub evades_trap: fn(&mut Ctx, UnitIdx, &str) -> Result<bool, RuleError>,
}

/// The `<unit>@x,y` target options of a power made from a Source Warp.
pub type WarpOptionsFn = fn(&State, UnitIdx, u16) -> Vec<fray_core::decision::DecisionOption>;
/// Checks a power made from the Source Warp at the square on these targets.
pub type CheckWarpFn = fn(&State, UnitIdx, u16, &[UnitIdx], Pos) -> Result<(), RuleError>;
/// Answers a class's frame kept among the placed ones.
pub type PlacedAnswerFn = fn(&mut Ctx, PlacedFrame, &str) -> Result<(), RuleError>;

/// The trigger points with listeners.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// A step of play is over (the resolution loop's `after_step`), before the next one.
    StepDone,
    /// An attack roll missed ([`Missed`]).
    AttackMissed,
    /// A round begins, before its first turn.
    RoundBegins,
    /// Every turn of the round is over, before the round ends (K-TURN-6).
    RoundEnds,
    /// An attack hit ([`Hit`]), after its damage, Effect, boost and rider.
    AttackHit,
    /// A unit's attack power has resolved (after "Hidden until you attack" ends).
    Attacked,
    /// An attack roll was read ([`RollRead`]), right after its result is journaled.
    RollRead,
    /// A mover provoked an opportunity from a creature (K-OPP), once per creature and move.
    Provoked,
    /// A unit spent an Attack Action (or used a power as one).
    AttackActionSpent,
    /// A unit gained a status from a power (after `StatusGained`).
    StatusGiven,
    /// A unit's Saving Throw Phase is about to save against these statuses (K-TURN-5).
    SavesDue,
    /// An attack is made, before any roll (hit or miss).
    AttackDeclared,
    /// Damage was journaled (and shared with a Ward Wall's other squares).
    DamageDealt,
    /// A unit was Taken Out (its orbs, statuses and Ward seen to, K-DUN-3), before the curses on
    /// it end.
    TakenOut,
    /// A roll would hit, before Interrupts to "would be hit" are offered: a listener may ask its
    /// owner a question first (Ward Bash's peel).
    HitComing,
    /// Every target of an attack has been rolled against, before the attack finishes.
    AttackDone,
    /// A creature was Taken Out by an enemy's attack or Opportunity (Death Ward).
    TakenOutByAttack,
    /// A trap went off on a victim (after its damage and ride, before its charge is spent).
    TrapSprung,
    /// A unit entered a square ([`Entered`]), after terrain, auras, zones and slick ground.
    SquareEntered,
    /// A unit's Start Phase has checked the damaging terrain under it (K-TER-2).
    StartTerrain,
    /// Modifiers whose time came have ended (the unit argument is unused).
    ModifiersExpired,
    /// A unit's turn has started and its Start Phase is queued (K-TURN-1).
    TurnStarted,
    /// Its Start Phase begins (summons and creatures it owns act first).
    StartPhase,
    /// Its Start Phase, once curses waiting for the turn have fired, before Regenerate.
    StartEffects,
    /// A unit's saves are made; its end-of-turn statuses have not ended yet (K-TURN-4).
    TurnEnding,
    /// Its end-of-turn statuses have ended (and Explosive Attachment fired).
    EndOfTurn,
    /// Its turn has ended (`TurnEnded` journaled, the next turn queued).
    TurnEnded,
    /// A unit left the map (Taken Out, destroyed, removed from existence), right after that was
    /// journaled: what rode it lets go.
    UnitGone,
    /// An automaton other than a Tinker's Helper has moved on its turn, before it acts.
    AutomatonMoved,
    /// A unit regained HP (after `Healed` is journaled).
    Healed,
    /// A unit gained Ward from a power, feature or Boost Square (after `WardSet`).
    WardGained,
    /// A unit made a saving throw (after `Save` is journaled and a failure seen to).
    SaveMade,
}

/// The finished table a match plays with.
#[derive(Default)]
pub struct Table {
    /// Power hooks by [`PowerHook`] number.
    powers: Vec<Option<PowerFn>>,
    /// Effect hooks by [`EffectHook`] number.
    effects: Vec<Option<EffectFn>>,
    effect_default: Option<EffectFn>,
    /// After-hit Effect hooks by [`EffectHook`] number.
    after_hit: Vec<Option<AfterHitFn>>,
    check_use: Vec<(u16, CheckUseFn)>,
    check_target: Vec<(u16, CheckTargetFn)>,
    menu: Vec<(u16, MenuFn)>,
    lends: Vec<LendsFn>,
    declared: Vec<Listener<DeclaredFn>>,
    dealt: Vec<Listener<DealtFn>>,
    entered: Vec<Listener<EnteredFn>>,
    start_terrain: Vec<Listener<UnitFn>>,
    die: Option<DieFn>,
    attack_die: Option<AttackDieFn>,
    boost: Option<BoostFn>,
    multi: Option<(MultiOptionsFn, MultiTargetsFn, CheckMultiFn)>,
    hit_coming: Vec<Listener<HitComingFn>>,
    attack_done: Vec<Listener<AttackDoneFn>>,
    death_ward: Vec<Listener<DeathWardFn>>,
    left_behind: Option<LeftBehindFn>,
    trap_sprung: Vec<Listener<TrapFn>>,
    taken_out: Vec<Listener<TakenOutFn>>,
    missed: Vec<Listener<MissedFn>>,
    round_begins: Vec<Listener<RoundFn>>,
    round_ends: Vec<Listener<RoundFn>>,
    hit: Vec<Listener<HitFn>>,
    attacked: Vec<Listener<UnitFn>>,
    roll_read: Vec<Listener<RollReadFn>>,
    provoked: Vec<Listener<ProvokedFn>>,
    spent: Vec<Listener<SpentFn>>,
    status_given: Vec<Listener<StatusFn>>,
    saves_due: Vec<Listener<SavesFn>>,
    turn_started: Vec<Listener<UnitFn>>,
    modifiers_expired: Vec<Listener<UnitFn>>,
    start_phase: Vec<Listener<SpentFn>>,
    start_effects: Vec<Listener<UnitFn>>,
    turn_ending: Vec<Listener<UnitFn>>,
    end_of_turn: Vec<Listener<UnitFn>>,
    turn_ended: Vec<Listener<UnitFn>>,
    unit_gone: Vec<Listener<UnitFn>>,
    automaton_moved: Vec<Listener<UnitFn>>,
    healed: Vec<Listener<GainFn>>,
    ward_gained: Vec<Listener<GainFn>>,
    save_made: Vec<Listener<SaveMadeFn>>,
    step_done: Vec<Listener<StepFn>>,
    placed: Option<(PlacedQuestionFn, PlacedAnswerFn)>,
    warp: Option<(WarpOptionsFn, CheckWarpFn)>,
    removed: Option<RemovedTurn>,
    brews: Option<Brews>,
    charms: Option<Charms>,
    specialists: Option<Specialists>,
    warps: Option<Warps>,
    traps: Option<Traps>,
    curses: Option<Curses>,
    zones: Option<Zones>,
    features: Option<ClassFeatures>,
    taming: Option<Taming>,
    triggered: Option<Triggered>,
    role_actions: Option<RoleActions>,
    defender_controller: Option<DefenderController>,
}

/// `v`, grown to `n` empty slots if it is shorter.
fn grow<T>(v: &mut Vec<Option<T>>, n: usize) -> &mut Vec<Option<T>> {
    if v.len() < n {
        v.resize_with(n, || None);
    }
    v
}

/// What the class files fill ([`Registry::finish`] makes the [`Table`]).
#[derive(Default)]
pub struct Registry {
    t: Table,
    /// The module registering now plays a class nobody in the match has
    /// ([`crate::engine::plugins::Present`]): only its power and Effect hooks and its bundles
    /// are kept (a power is asked for only when someone uses it, and the core rules call the
    /// bundles); its listeners, menu entries and checks are left out, as they would find
    /// nothing of theirs to act on.
    dormant: bool,
}

impl Registry {
    /// Whether the module registering next is one the match leaves out (see `dormant`).
    pub fn set_dormant(&mut self, dormant: bool) {
        self.dormant = dormant;
    }
    /// Every name in `names` plays `f` as a power hook (a name already taken keeps its first).
    pub fn power_hooks(&mut self, names: &[&'static str], f: PowerFn) {
        for n in names {
            let id = PowerHook::parse(n).expect("a listed power hook").id();
            grow(&mut self.t.powers, PowerHook::count())[id].get_or_insert(f);
        }
    }
    /// Every name in `names` plays `f` as an Effect hook (a name already taken keeps its first).
    pub fn effect_hooks(&mut self, names: &[&'static str], f: EffectFn) {
        for n in names {
            let id = EffectHook::parse(n).expect("a listed Effect hook").id();
            grow(&mut self.t.effects, EffectHook::count())[id].get_or_insert(f);
        }
    }
    /// Every name in `names` also acts after the hit's Effect is over, even if the hit Took the
    /// target Out.
    pub fn after_hit_hooks(&mut self, names: &[&'static str], f: AfterHitFn) {
        for n in names {
            let id = EffectHook::parse(n).expect("a listed Effect hook").id();
            grow(&mut self.t.after_hit, EffectHook::count())[id].get_or_insert(f);
        }
    }
    /// The Effect hook for every name nobody else plays.
    pub fn effect_default(&mut self, f: EffectFn) {
        assert!(self.t.effect_default.replace(f).is_none(), "one default Effect hook");
    }
    /// A check a power's use must pass, at `order` among them.
    pub fn check_use(&mut self, order: u16, f: CheckUseFn) {
        if self.dormant {
            return;
        }
        self.t.check_use.push((order, f));
    }
    /// Entries for a unit's turn menu, at `order` among the classes' entries.
    pub fn menu(&mut self, order: u16, f: MenuFn) {
        if self.dormant {
            return;
        }
        self.t.menu.push((order, f));
    }
    /// Powers a unit may use without having them.
    pub fn lends(&mut self, f: LendsFn) {
        if self.dormant {
            return;
        }
        self.t.lends.push(f);
    }
    /// A check a power's target must pass, at `order` among them.
    pub fn check_target(&mut self, order: u16, f: CheckTargetFn) {
        if self.dormant {
            return;
        }
        self.t.check_target.push((order, f));
    }
    /// A listener at [`Trigger::AttackDeclared`].
    pub fn on_attack_declared(&mut self, order: u16, rule: &'static str, run: DeclaredFn) {
        if self.dormant {
            return;
        }
        self.t.declared.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::DamageDealt`].
    pub fn on_damage_dealt(&mut self, order: u16, rule: &'static str, run: DealtFn) {
        if self.dormant {
            return;
        }
        self.t.dealt.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::SquareEntered`].
    pub fn on_square_entered(&mut self, order: u16, rule: &'static str, run: EnteredFn) {
        if self.dormant {
            return;
        }
        self.t.entered.push(Listener { order, rule, run });
    }
    /// The die hook (one per match).
    pub fn die(&mut self, f: DieFn) {
        assert!(self.t.die.replace(f).is_none(), "one die hook");
    }
    /// What a curse left behind in a square does when it fires (one per match).
    pub fn left_behind(&mut self, f: LeftBehindFn) {
        assert!(self.t.left_behind.replace(f).is_none(), "one left-behind hook");
    }
    /// A listener at [`Trigger::TrapSprung`].
    pub fn on_trap_sprung(&mut self, order: u16, rule: &'static str, run: TrapFn) {
        if self.dormant {
            return;
        }
        self.t.trap_sprung.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::HitComing`].
    pub fn on_hit_coming(&mut self, order: u16, rule: &'static str, run: HitComingFn) {
        if self.dormant {
            return;
        }
        self.t.hit_coming.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::AttackDone`].
    pub fn on_attack_done(&mut self, order: u16, rule: &'static str, run: AttackDoneFn) {
        if self.dormant {
            return;
        }
        self.t.attack_done.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::TakenOutByAttack`].
    pub fn on_taken_out_by_attack(&mut self, order: u16, rule: &'static str, run: DeathWardFn) {
        if self.dormant {
            return;
        }
        self.t.death_ward.push(Listener { order, rule, run });
    }
    /// Attacks centred on a square by an implement (one per match; K-MULTI-5).
    pub fn multi(&mut self, options: MultiOptionsFn, targets: MultiTargetsFn, check: CheckMultiFn) {
        assert!(self.t.multi.replace((options, targets, check)).is_none(), "one multi-target hook");
    }
    /// How Role Boosts apply (one per match; K-ROLL-5).
    pub fn role_boost(&mut self, f: BoostFn) {
        assert!(self.t.boost.replace(f).is_none(), "one Role Boost hook");
    }
    /// The attack-roll hook (one per match).
    pub fn attack_die(&mut self, f: AttackDieFn) {
        assert!(self.t.attack_die.replace(f).is_none(), "one attack-roll hook");
    }
    /// A listener at [`Trigger::TakenOut`].
    pub fn on_taken_out(&mut self, order: u16, rule: &'static str, run: TakenOutFn) {
        if self.dormant {
            return;
        }
        self.t.taken_out.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::AttackMissed`].
    pub fn on_missed(&mut self, order: u16, rule: &'static str, run: MissedFn) {
        if self.dormant {
            return;
        }
        self.t.missed.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::AttackHit`].
    pub fn on_hit(&mut self, order: u16, rule: &'static str, run: HitFn) {
        if self.dormant {
            return;
        }
        self.t.hit.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::Attacked`].
    pub fn on_attacked(&mut self, order: u16, rule: &'static str, run: UnitFn) {
        if self.dormant {
            return;
        }
        self.t.attacked.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::RollRead`].
    pub fn on_roll_read(&mut self, order: u16, rule: &'static str, run: RollReadFn) {
        if self.dormant {
            return;
        }
        self.t.roll_read.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::Provoked`].
    pub fn on_provoked(&mut self, order: u16, rule: &'static str, run: ProvokedFn) {
        if self.dormant {
            return;
        }
        self.t.provoked.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::AttackActionSpent`].
    pub fn on_attack_action_spent(&mut self, order: u16, rule: &'static str, run: SpentFn) {
        if self.dormant {
            return;
        }
        self.t.spent.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::StatusGiven`].
    pub fn on_status_given(&mut self, order: u16, rule: &'static str, run: StatusFn) {
        if self.dormant {
            return;
        }
        self.t.status_given.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::SavesDue`].
    pub fn on_saves_due(&mut self, order: u16, rule: &'static str, run: SavesFn) {
        if self.dormant {
            return;
        }
        self.t.saves_due.push(Listener { order, rule, run });
    }
    /// A listener at a turn trigger point ([`Trigger::TurnStarted`], [`Trigger::StartEffects`],
    /// [`Trigger::TurnEnding`], [`Trigger::EndOfTurn`], [`Trigger::TurnEnded`]).
    pub fn on_turn(&mut self, point: Trigger, order: u16, rule: &'static str, run: UnitFn) {
        if self.dormant {
            return;
        }
        let l = Listener { order, rule, run };
        match point {
            Trigger::TurnStarted => self.t.turn_started.push(l),
            Trigger::ModifiersExpired => self.t.modifiers_expired.push(l),
            Trigger::StartTerrain => self.t.start_terrain.push(l),
            Trigger::StartEffects => self.t.start_effects.push(l),
            Trigger::TurnEnding => self.t.turn_ending.push(l),
            Trigger::EndOfTurn => self.t.end_of_turn.push(l),
            Trigger::TurnEnded => self.t.turn_ended.push(l),
            p => panic!("{p:?} listeners are not turn listeners"),
        }
    }
    /// Listens at [`Trigger::Healed`].
    pub fn on_healed(&mut self, order: u16, rule: &'static str, run: GainFn) {
        if self.dormant {
            return;
        }
        self.t.healed.push(Listener { order, rule, run });
    }
    /// Listens at [`Trigger::WardGained`].
    pub fn on_ward_gained(&mut self, order: u16, rule: &'static str, run: GainFn) {
        if self.dormant {
            return;
        }
        self.t.ward_gained.push(Listener { order, rule, run });
    }
    /// Listens at [`Trigger::SaveMade`].
    pub fn on_save_made(&mut self, order: u16, rule: &'static str, run: SaveMadeFn) {
        if self.dormant {
            return;
        }
        self.t.save_made.push(Listener { order, rule, run });
    }
    /// Listens at [`Trigger::UnitGone`].
    pub fn on_unit_gone(&mut self, order: u16, rule: &'static str, run: UnitFn) {
        if self.dormant {
            return;
        }
        self.t.unit_gone.push(Listener { order, rule, run });
    }
    /// Listens at [`Trigger::AutomatonMoved`].
    pub fn on_automaton_moved(&mut self, order: u16, rule: &'static str, run: UnitFn) {
        if self.dormant {
            return;
        }
        self.t.automaton_moved.push(Listener { order, rule, run });
    }
    /// The question and answer of the frames a class keeps among the placed ones (the Pest's).
    pub fn placed_frames(&mut self, question: PlacedQuestionFn, answer: PlacedAnswerFn) {
        assert!(self.t.placed.replace((question, answer)).is_none(), "one placed-frame hook");
    }
    /// The Charmer's charms where the core rules meet them.
    pub fn charms(&mut self, c: Charms) {
        assert!(self.t.charms.replace(c).is_none(), "one Charmer hook");
    }
    /// The Defender and Controller features where the core rules meet them.
    pub fn defender_controller(&mut self, d: DefenderController) {
        assert!(self.t.defender_controller.replace(d).is_none(), "one Defender and Controller hook");
    }
    /// The Porter's warps, traps and tunnels where the core rules meet them.
    pub fn warps(&mut self, w: Warps) {
        assert!(self.t.warps.replace(w).is_none(), "one Porter warps hook");
    }
    /// The role actions where the core rules meet them.
    pub fn role_actions(&mut self, r: RoleActions) {
        assert!(self.t.role_actions.replace(r).is_none(), "one role actions hook");
    }
    /// The triggered powers at the core rules' trigger points.
    pub fn triggered(&mut self, t: Triggered) {
        assert!(self.t.triggered.replace(t).is_none(), "one triggered powers hook");
    }
    /// The Tamer's creatures where the core rules meet them.
    pub fn taming(&mut self, t: Taming) {
        assert!(self.t.taming.replace(t).is_none(), "one Tamer hook");
    }
    /// Class features where the core rules meet them.
    pub fn features(&mut self, f: ClassFeatures) {
        assert!(self.t.features.replace(f).is_none(), "one class features hook");
    }
    /// Traps and walls where damage meets them.
    pub fn traps(&mut self, t: Traps) {
        assert!(self.t.traps.replace(t).is_none(), "one traps hook");
    }
    /// Curses where damage and movement meet them.
    pub fn curses(&mut self, c: Curses) {
        assert!(self.t.curses.replace(c).is_none(), "one curses hook");
    }
    /// Zones where movement meets them.
    pub fn zones(&mut self, z: Zones) {
        assert!(self.t.zones.replace(z).is_none(), "one zones hook");
    }
    /// The Specialists' saves where the core rules meet them.
    pub fn specialists(&mut self, s: Specialists) {
        assert!(self.t.specialists.replace(s).is_none(), "one Specialists hook");
    }
    /// The Brewer's Potions and Elixirs where the core rules meet them.
    pub fn brews(&mut self, b: Brews) {
        assert!(self.t.brews.replace(b).is_none(), "one Brewer hook");
    }
    /// What may target a removed creature, and its turn outside existence.
    pub fn removed_turn(&mut self, r: RemovedTurn) {
        assert!(self.t.removed.replace(r).is_none(), "one Removal from Existence hook");
    }
    /// Attacks made from a Source Warp: their menu options and their check.
    pub fn warp_attacks(&mut self, options: WarpOptionsFn, check: CheckWarpFn) {
        assert!(self.t.warp.replace((options, check)).is_none(), "one Source Warp hook");
    }
    /// A listener at [`Trigger::StartPhase`] (these may fail: a summon's act may be refused).
    pub fn on_start_phase(&mut self, order: u16, rule: &'static str, run: SpentFn) {
        if self.dormant {
            return;
        }
        self.t.start_phase.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::StepDone`].
    pub fn on_step_done(&mut self, order: u16, rule: &'static str, run: StepFn) {
        if self.dormant {
            return;
        }
        self.t.step_done.push(Listener { order, rule, run });
    }
    /// A listener at [`Trigger::RoundBegins`] or [`Trigger::RoundEnds`].
    pub fn on_round(&mut self, point: Trigger, order: u16, rule: &'static str, run: RoundFn) {
        if self.dormant {
            return;
        }
        let l = Listener { order, rule, run };
        match point {
            Trigger::RoundBegins => self.t.round_begins.push(l),
            Trigger::RoundEnds => self.t.round_ends.push(l),
            p => panic!("{p:?} listeners are not round listeners"),
        }
    }
    /// The table, each list sorted by order (two listeners of one point never share an order).
    pub fn finish(mut self) -> Table {
        fn sort<F>(v: &mut [Listener<F>]) {
            v.sort_by_key(|l| l.order);
            assert!(v.windows(2).all(|w| w[0].order != w[1].order), "two listeners share an order");
        }
        self.t.check_use.sort_by_key(|c| c.0);
        assert!(self.t.check_use.windows(2).all(|w| w[0].0 != w[1].0), "two use checks share an order");
        self.t.menu.sort_by_key(|c| c.0);
        assert!(self.t.menu.windows(2).all(|w| w[0].0 != w[1].0), "two menu entries share an order");
        self.t.check_target.sort_by_key(|c| c.0);
        assert!(self.t.check_target.windows(2).all(|w| w[0].0 != w[1].0), "two target checks share an order");
        sort(&mut self.t.declared);
        sort(&mut self.t.dealt);
        sort(&mut self.t.taken_out);
        sort(&mut self.t.trap_sprung);
        sort(&mut self.t.hit_coming);
        sort(&mut self.t.attack_done);
        sort(&mut self.t.death_ward);
        sort(&mut self.t.entered);
        sort(&mut self.t.start_terrain);
        sort(&mut self.t.missed);
        sort(&mut self.t.round_begins);
        sort(&mut self.t.round_ends);
        sort(&mut self.t.hit);
        sort(&mut self.t.attacked);
        sort(&mut self.t.roll_read);
        sort(&mut self.t.provoked);
        sort(&mut self.t.spent);
        sort(&mut self.t.status_given);
        sort(&mut self.t.saves_due);
        sort(&mut self.t.turn_started);
        sort(&mut self.t.modifiers_expired);
        sort(&mut self.t.start_phase);
        sort(&mut self.t.start_effects);
        sort(&mut self.t.turn_ending);
        sort(&mut self.t.end_of_turn);
        sort(&mut self.t.turn_ended);
        sort(&mut self.t.unit_gone);
        sort(&mut self.t.automaton_moved);
        sort(&mut self.t.healed);
        sort(&mut self.t.ward_gained);
        sort(&mut self.t.save_made);
        sort(&mut self.t.step_done);
        self.t
    }
}

impl Table {
    /// The power hook `h`, if one is registered.
    pub fn power(&self, h: PowerHook) -> Option<PowerFn> {
        self.powers.get(h.id()).copied().flatten()
    }
    /// The Effect hook `h`, else the default one.
    pub fn effect(&self, h: EffectHook) -> Option<EffectFn> {
        self.effects.get(h.id()).copied().flatten().or(self.effect_default)
    }
    /// What the Effect hook `h` does after the hit, if anything.
    pub fn after_hit(&self, h: EffectHook) -> Option<AfterHitFn> {
        self.after_hit.get(h.id()).copied().flatten()
    }
    /// Runs the use checks in order; the first refusal stands.
    pub fn check_use(&self, s: &State, u: UnitIdx, def: &PowerDef) -> Result<(), RuleError> {
        self.check_use.iter().try_for_each(|(_, f)| f(s, u, def))
    }
    /// The classes' entries for `u`'s turn menu, in order, added to `out`.
    pub fn menu(&self, s: &State, u: UnitIdx, out: &mut Vec<fray_core::decision::DecisionOption>) {
        for (_, f) in &self.menu {
            out.extend(f(s, u));
        }
    }
    /// Whether some class lets `u` use `power` without having it.
    pub fn lends(&self, s: &State, u: UnitIdx, power: u16) -> bool {
        self.lends.iter().any(|f| f(s, u, power))
    }
    /// Runs the target checks in order; the first refusal stands.
    pub fn check_target(&self, s: &State, u: UnitIdx, power: u16, t: UnitIdx, creative: bool) -> Result<(), RuleError> {
        self.check_target.iter().try_for_each(|(_, f)| f(s, u, power, t, creative))
    }
    /// What a curse left behind does when it fires.
    pub fn left_behind(&self) -> Option<LeftBehindFn> {
        self.left_behind
    }
    /// The attack-roll hook.
    pub fn attack_die(&self) -> Option<AttackDieFn> {
        self.attack_die
    }
    /// The die hook.
    pub fn die(&self) -> Option<DieFn> {
        self.die
    }
    /// The listeners at a round trigger point, in order.
    pub fn round(&self, point: Trigger) -> &[Listener<RoundFn>] {
        match point {
            Trigger::RoundBegins => &self.round_begins,
            Trigger::RoundEnds => &self.round_ends,
            _ => &[],
        }
    }
    /// Every listener's trigger point, order and rule id (for `fray rules --code` and tests).
    pub fn listeners(&self) -> Vec<(Trigger, u16, &'static str)> {
        fn add<F>(out: &mut Vec<(Trigger, u16, &'static str)>, p: Trigger, v: &[Listener<F>]) {
            out.extend(v.iter().map(|l| (p, l.order, l.rule)));
        }
        let mut out = Vec::new();
        add(&mut out, Trigger::AttackDeclared, &self.declared);
        add(&mut out, Trigger::RollRead, &self.roll_read);
        add(&mut out, Trigger::AttackMissed, &self.missed);
        add(&mut out, Trigger::AttackHit, &self.hit);
        add(&mut out, Trigger::Attacked, &self.attacked);
        add(&mut out, Trigger::StatusGiven, &self.status_given);
        add(&mut out, Trigger::DamageDealt, &self.dealt);
        add(&mut out, Trigger::HitComing, &self.hit_coming);
        add(&mut out, Trigger::AttackDone, &self.attack_done);
        add(&mut out, Trigger::TakenOut, &self.taken_out);
        add(&mut out, Trigger::TakenOutByAttack, &self.death_ward);
        add(&mut out, Trigger::TrapSprung, &self.trap_sprung);
        add(&mut out, Trigger::SquareEntered, &self.entered);
        add(&mut out, Trigger::Provoked, &self.provoked);
        add(&mut out, Trigger::AttackActionSpent, &self.spent);
        add(&mut out, Trigger::ModifiersExpired, &self.modifiers_expired);
        add(&mut out, Trigger::TurnStarted, &self.turn_started);
        add(&mut out, Trigger::StartPhase, &self.start_phase);
        add(&mut out, Trigger::StartTerrain, &self.start_terrain);
        add(&mut out, Trigger::StartEffects, &self.start_effects);
        add(&mut out, Trigger::SavesDue, &self.saves_due);
        add(&mut out, Trigger::TurnEnding, &self.turn_ending);
        add(&mut out, Trigger::EndOfTurn, &self.end_of_turn);
        add(&mut out, Trigger::TurnEnded, &self.turn_ended);
        add(&mut out, Trigger::UnitGone, &self.unit_gone);
        add(&mut out, Trigger::AutomatonMoved, &self.automaton_moved);
        add(&mut out, Trigger::Healed, &self.healed);
        add(&mut out, Trigger::WardGained, &self.ward_gained);
        add(&mut out, Trigger::SaveMade, &self.save_made);
        add(&mut out, Trigger::RoundBegins, &self.round_begins);
        add(&mut out, Trigger::RoundEnds, &self.round_ends);
        add(&mut out, Trigger::StepDone, &self.step_done);
        out
    }
}

/// The match's hook table.
pub fn table(s: &State) -> &'static Table {
    s.hooks.0.downcast_ref().expect("a state made by setup holds Kazzam's hook table")
}

/// Runs the listeners of [`Trigger::AttackMissed`] in order.
pub fn attack_missed(cx: &mut Ctx, args: &Missed) -> Result<(), RuleError> {
    let t = shared(cx);
    t.missed.iter().try_for_each(|l| (l.run)(cx, args))
}

/// Runs the listeners of a round trigger point in order.
pub fn round(cx: &mut Ctx, point: Trigger) -> Result<Then, RuleError> {
    let t = shared(cx);
    for l in t.round(point) {
        if (l.run)(cx)? == Then::Wait {
            return Ok(Then::Wait);
        }
    }
    Ok(Then::Go)
}

/// The match's table, not borrowed from the state (it lives for the whole program,
/// [`crate::engine::plugins::table_for`]), so listeners may take the context mutably while it is
/// walked.
fn shared(cx: &Ctx) -> &'static Table {
    cx.s.hooks.0.downcast_ref().expect("a state made by setup holds Kazzam's hook table")
}

/// Runs the listeners of [`Trigger::AttackHit`] in order.
pub fn attack_hit(cx: &mut Ctx, args: &Hit) -> Result<(), RuleError> {
    let t = shared(cx);
    t.hit.iter().try_for_each(|l| (l.run)(cx, args))
}

/// Runs the listeners of [`Trigger::Attacked`] in order.
pub fn attacked(cx: &mut Ctx, unit: UnitIdx) {
    let t = shared(cx);
    t.attacked.iter().for_each(|l| (l.run)(cx, unit))
}

/// Runs the listeners of [`Trigger::RollRead`] in order.
pub fn roll_read(cx: &mut Ctx, args: &RollRead) -> Result<(), RuleError> {
    let t = shared(cx);
    t.roll_read.iter().try_for_each(|l| (l.run)(cx, args))
}

/// Runs the listeners of [`Trigger::Provoked`] in order.
pub fn provoked(cx: &mut Ctx, mover: UnitIdx, taker: UnitIdx) -> Result<(), RuleError> {
    let t = shared(cx);
    t.provoked.iter().try_for_each(|l| (l.run)(cx, mover, taker))
}

/// Runs the listeners of [`Trigger::AttackActionSpent`] in order.
pub fn attack_action_spent(cx: &mut Ctx, unit: UnitIdx) -> Result<(), RuleError> {
    let t = shared(cx);
    t.spent.iter().try_for_each(|l| (l.run)(cx, unit))
}

/// Runs the listeners of [`Trigger::StatusGiven`] in order.
pub fn status_given(cx: &mut Ctx, unit: UnitIdx, status: &Status) {
    let t = shared(cx);
    t.status_given.iter().for_each(|l| (l.run)(cx, unit, status))
}

/// Runs the listeners of [`Trigger::SavesDue`] in order.
pub fn saves_due(cx: &mut Ctx, unit: UnitIdx, saves: &mut Vec<Status>) {
    let t = shared(cx);
    t.saves_due.iter().for_each(|l| (l.run)(cx, unit, saves))
}

/// Runs the listeners of a turn trigger point ([`Trigger::TurnStarted`],
/// [`Trigger::StartEffects`], [`Trigger::TurnEnding`], [`Trigger::EndOfTurn`],
/// [`Trigger::TurnEnded`]) for `unit` in order.
pub fn turn_point(cx: &mut Ctx, point: Trigger, unit: UnitIdx) {
    let t = shared(cx);
    let list = match point {
        Trigger::TurnStarted => &t.turn_started,
        Trigger::ModifiersExpired => &t.modifiers_expired,
        Trigger::StartTerrain => &t.start_terrain,
        Trigger::StartEffects => &t.start_effects,
        Trigger::TurnEnding => &t.turn_ending,
        Trigger::EndOfTurn => &t.end_of_turn,
        Trigger::TurnEnded => &t.turn_ended,
        p => panic!("{p:?} is not a turn trigger point"),
    };
    list.iter().for_each(|l| (l.run)(cx, unit))
}

/// Runs the listeners of [`Trigger::StepDone`] in order.
pub fn step_done(cx: &mut Ctx) -> Result<(), RuleError> {
    let t = shared(cx);
    t.step_done.iter().try_for_each(|l| (l.run)(cx))
}

/// Runs the listeners of [`Trigger::StartPhase`] for `unit` in order.
pub fn start_phase(cx: &mut Ctx, unit: UnitIdx) -> Result<(), RuleError> {
    let t = shared(cx);
    t.start_phase.iter().try_for_each(|l| (l.run)(cx, unit))
}

/// Runs the listeners of [`Trigger::AttackDeclared`] in order.
pub fn attack_declared(cx: &mut Ctx, attacker: UnitIdx, targets: &[UnitIdx], power: u16) {
    let t = shared(cx);
    t.declared.iter().for_each(|l| (l.run)(cx, attacker, targets, power))
}

/// Runs the listeners of [`Trigger::DamageDealt`] in order.
pub fn damage_dealt(cx: &mut Ctx, target: UnitIdx, source: Option<UnitIdx>) {
    let t = shared(cx);
    t.dealt.iter().for_each(|l| (l.run)(cx, target, source))
}

/// Runs the listeners of [`Trigger::SquareEntered`] in order.
pub fn square_entered(cx: &mut Ctx, args: &Entered) -> Result<(), RuleError> {
    let t = shared(cx);
    t.entered.iter().try_for_each(|l| (l.run)(cx, args))
}

/// Runs the listeners of [`Trigger::TakenOut`] in order.
pub fn taken_out(cx: &mut Ctx, unit: UnitIdx, at: Pos, by: Option<UnitIdx>) {
    let t = shared(cx);
    t.taken_out.iter().for_each(|l| (l.run)(cx, unit, at, by))
}

/// Runs the listeners of [`Trigger::TrapSprung`] in order.
pub fn trap_sprung(cx: &mut Ctx, trap: UnitIdx, victim: UnitIdx, free: bool) {
    let t = shared(cx);
    t.trap_sprung.iter().for_each(|l| (l.run)(cx, trap, victim, free))
}

/// Applies a Role Boost (K-ROLL-5) through the table.
pub fn role_boost(cx: &mut Ctx, b: crate::engine::records::roles::Boost, user: UnitIdx, target: UnitIdx, damage: bool) {
    if let Some(f) = table(cx.s).boost {
        f(cx, b, user, target, damage);
    }
}

/// Runs the listeners of [`Trigger::HitComing`] in order; whether any asked a question.
pub fn hit_coming(cx: &mut Ctx, a: &mut crate::engine::frames::AttackFrame, def: &PowerDef) -> bool {
    let t = shared(cx);
    let mut asked = false;
    for l in &t.hit_coming {
        asked |= (l.run)(cx, a, def);
    }
    asked
}

/// Runs the listeners of [`Trigger::AttackDone`] in order.
pub fn attack_done(cx: &mut Ctx, a: &crate::engine::frames::AttackFrame) {
    let t = shared(cx);
    t.attack_done.iter().for_each(|l| (l.run)(cx, a))
}

/// Runs the listeners of [`Trigger::TakenOutByAttack`] in order.
pub fn taken_out_by_attack(
    cx: &mut Ctx,
    wards: &[crate::engine::records::curses::Curse],
    target: UnitIdx,
    by: Option<UnitIdx>,
) {
    let t = shared(cx);
    t.death_ward.iter().for_each(|l| (l.run)(cx, wards, target, by))
}

/// The squares `u` may centre `power` on (Multi-Sword, Multi-Staff), if any.
pub fn multi_options(s: &State, u: UnitIdx, power: u16) -> Vec<Pos> {
    table(s).multi.map_or_else(Vec::new, |m| (m.0)(s, u, power))
}

/// The targets `power` takes centred on `centre`.
pub fn multi_targets(s: &State, u: UnitIdx, power: u16, centre: Pos) -> Vec<UnitIdx> {
    table(s).multi.map_or_else(Vec::new, |m| (m.1)(s, u, power, centre))
}

/// Checks a centre and the targets named for `power` (K-MULTI-5).
pub fn check_multi(s: &State, u: UnitIdx, power: u16, centre: Pos, targets: &[UnitIdx]) -> Result<(), RuleError> {
    match table(s).multi {
        Some(m) => (m.2)(s, u, power, centre, targets),
        None => Err(crate::engine::kit::refuse("K-MULTI-5", "no implement here attacks a square")),
    }
}

/// [`Trigger::UnitGone`]: `unit` left the map.
pub fn unit_gone(cx: &mut Ctx, unit: UnitIdx) {
    let t = shared(cx);
    t.unit_gone.iter().for_each(|l| (l.run)(cx, unit))
}

/// [`Trigger::AutomatonMoved`]: the automaton `unit` has moved on its turn.
pub fn automaton_moved(cx: &mut Ctx, unit: UnitIdx) {
    let t = shared(cx);
    t.automaton_moved.iter().for_each(|l| (l.run)(cx, unit))
}

/// The question of a class's frame kept among the placed ones.
pub fn placed_question(s: &State, f: &PlacedFrame) -> (&'static str, String, Vec<fray_core::decision::DecisionOption>) {
    let (question, _) = table(s).placed.expect("the placed frame's class registered its hook");
    question(s, f)
}

/// Answers a class's frame kept among the placed ones.
pub fn placed_answer(cx: &mut Ctx, f: PlacedFrame, option: &str) -> Result<(), RuleError> {
    let (_, answer) = table(cx.s).placed.expect("the placed frame's class registered its hook");
    answer(cx, f, option)
}

/// The `<unit>@x,y` target options for `u`'s `power` made from its Source Warps.
pub fn warp_options(s: &State, u: UnitIdx, power: u16) -> Vec<fray_core::decision::DecisionOption> {
    table(s).warp.map_or_else(Vec::new, |w| (w.0)(s, u, power))
}

/// Checks `u` using `power` on `targets` from its Source Warp at `from`.
pub fn check_warp(s: &State, u: UnitIdx, power: u16, targets: &[UnitIdx], from: Pos) -> Result<(), RuleError> {
    match table(s).warp {
        Some(w) => (w.1)(s, u, power, targets, from),
        None => Err(crate::engine::kit::refuse("source-warp", "no Source Warp here")),
    }
}

/// [`Trigger::Healed`]: `unit` regained `amount` HP from `why`.
pub fn healed(cx: &mut Ctx, unit: UnitIdx, amount: i32, why: &str) {
    let t = shared(cx);
    t.healed.iter().for_each(|l| (l.run)(cx, unit, amount, why))
}

/// [`Trigger::WardGained`]: `unit` gained `amount` Ward from `why`.
pub fn ward_gained(cx: &mut Ctx, unit: UnitIdx, amount: i32, why: &str) {
    let t = shared(cx);
    t.ward_gained.iter().for_each(|l| (l.run)(cx, unit, amount, why))
}

/// [`Trigger::SaveMade`]: `unit` made a saving throw against `what`.
pub fn save_made(cx: &mut Ctx, unit: UnitIdx, what: &str) -> Result<(), RuleError> {
    let t = shared(cx);
    t.save_made.iter().try_for_each(|l| (l.run)(cx, unit, what))
}

fn removed(s: &State) -> RemovedTurn {
    table(s).removed.expect("Removal from Existence registered its hook")
}

/// Refuses a power aimed at a removed creature (or a target Removal from Existence cannot take).
pub fn removed_check_target(s: &State, u: UnitIdx, def: &PowerDef, t: UnitIdx) -> Result<(), RuleError> {
    (removed(s).check_target)(s, u, def, t)
}

/// Whether a removed unit's turn has nothing left in it.
pub fn removed_turn_done(s: &State, u: UnitIdx) -> bool {
    (removed(s).turn_done)(s, u)
}

/// A removed unit's action menu.
pub fn removed_menu(s: &State, u: UnitIdx) -> Vec<fray_core::decision::DecisionOption> {
    (removed(s).menu)(s, u)
}

/// Answers a removed unit's menu with a square.
pub fn removed_answer_menu(cx: &mut Ctx, u: UnitIdx, option: &str) -> Result<(), RuleError> {
    (removed(cx.s).answer_menu)(cx, u, option)
}

/// Checks a command of `u`: `None` unless it is removed from existence.
pub fn removed_check(s: &State, u: UnitIdx, v: &crate::engine::frames::rules::Verb) -> Option<Result<(), RuleError>> {
    (removed(s).check)(s, u, v)
}

/// A removed unit's move outside existence.
pub fn removed_move_to(cx: &mut Ctx, u: UnitIdx, q: Pos) -> Result<(), RuleError> {
    (removed(cx.s).move_to)(cx, u, q)
}

/// The Brewer's functions the core rules call ([`Brews`]).
pub fn brews(s: &State) -> Brews {
    table(s).brews.expect("the Brewer registered its hook")
}

/// The Defender and Controller functions the core rules call ([`DefenderController`]).
pub fn defender_controller(s: &State) -> DefenderController {
    table(s).defender_controller.expect("the Defender and Controller registered their hook")
}

/// The Porter's functions the core rules call ([`Warps`]).
pub fn warps(s: &State) -> Warps {
    table(s).warps.expect("the Porter registered its hook")
}

/// The role actions' functions the core rules call ([`RoleActions`]).
pub fn role_actions(s: &State) -> RoleActions {
    table(s).role_actions.expect("the role actions registered their hook")
}

/// The triggered powers' functions the core rules call ([`Triggered`]).
pub fn triggered(s: &State) -> Triggered {
    table(s).triggered.expect("the triggered powers registered their hook")
}

/// The Tamer's functions the core rules call ([`Taming`]).
pub fn taming(s: &State) -> Taming {
    table(s).taming.expect("the Tamer registered its hook")
}

/// The class features' functions the core rules call ([`ClassFeatures`]).
pub fn features(s: &State) -> ClassFeatures {
    table(s).features.expect("the class features registered their hook")
}

/// The traps' functions damage calls ([`Traps`]).
pub fn traps(s: &State) -> Traps {
    table(s).traps.expect("the traps registered their hook")
}

/// The curses' functions damage and movement call ([`Curses`]).
pub fn curses(s: &State) -> Curses {
    table(s).curses.expect("the curses registered their hook")
}

/// The zones' functions movement calls ([`Zones`]).
pub fn zones(s: &State) -> Zones {
    table(s).zones.expect("the zones registered their hook")
}

/// The Specialists' functions the core rules call ([`Specialists`]).
pub fn specialists(s: &State) -> Specialists {
    table(s).specialists.expect("the Specialists registered their hook")
}

/// The Charmer's functions the core rules call ([`Charms`]).
pub fn charms(s: &State) -> Charms {
    table(s).charms.expect("the Charmer registered its hook")
}
