//! The action economy (K-ACT) and every action a unit can take on its turn: the menu a player
//! or bot chooses from, the complete [`Command`] form the CLI, server and scenario files send,
//! the checks that refuse an illegal action with the rule that forbids it, and execution.

pub use crate::content::hooks::ACTIONS_POWER as POWER_HOOKS;
use crate::content::powers::{ActionKind, Frequency, Targeting};
use crate::engine::events::{Event, How, Slot};
pub use crate::engine::frames::rules::Pending;
use crate::engine::kit::{Ctx, Frame};
pub use crate::engine::kit::{quietly, refuse};
use crate::engine::state::{Implement, OrbIdx, OrbLoc, State, UnitIdx};
use crate::rules::attack::{self, AttackFrame};
use crate::rules::movement::{self, Mode, MoveFrame};
use crate::rules::orbs;
use crate::rules::statuses::{Duration, StatusKind};
use crate::rules::zones;
use fray_core::decision::DecisionOption;
use fray_core::geometry::{burst, distance};
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;
use fray_core::sight::Sight;
use serde::{Deserialize, Serialize};

/// Free Actions allowed per turn ("within the bounds of common sense", K-ACT-1; see rulings).
pub const FREE_ACTIONS_PER_TURN: u8 = 4;

pub use fray_core::command::{Route, Targets};

/// A complete command. Exactly one verb field is given, with its arguments:
/// `{ unit = "ada", power = "basic-implement-attack", target = "bo" }`,
/// `{ unit = "ada", move = [[2, 1], [3, 1]] }`, `{ unit = "ada", end_turn = true }`.
#[derive(Clone, Debug, Serialize, Deserialize, Default, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Command {
    /// The acting unit.
    pub unit: String,
    /// Use a power (by id or name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,
    /// The power's target(s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Targets>,
    /// A square the power needs (Charge's destination).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub square: Option<Pos>,
    /// Creative Use: apply the power's Effect to yourself or a willing ally (K-CREAT-1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub creative: bool,
    /// The ally you attack grants you Advantage (K-CREAT-2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub advantage: bool,
    /// Move with a Move Action.
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub move_to: Option<Route>,
    /// Shift 1 square.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shift: Option<Pos>,
    /// Crawl while Prone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crawl: Option<Route>,
    /// Stand up from Prone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand: bool,
    /// Try to escape a Grab (or another escape-ends status).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub escape: bool,
    /// Pick up this orb.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pick_up: Option<String>,
    /// Drop this orb (at `at`, or in your square).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drop: Option<String>,
    /// Where to drop it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Pos>,
    /// Hand this orb to `to`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<String>,
    /// Who receives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Take this orb from an adjacent ally.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub take: Option<String>,
    /// Dunk this orb on `pedestal`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dunk: Option<String>,
    /// Which pedestal (defaults to the only adjacent one of yours).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pedestal: Option<String>,
    /// Hit a Dungeon exit's button.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub button: bool,
    /// Stow the implement.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stow: bool,
    /// Take the implement back out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub retrieve: bool,
    /// Drop Prone on purpose.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub drop_prone: bool,
    /// Stop Flying.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub land: bool,
    /// End the turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub end_turn: bool,
    /// Statuses to fail the save against without rolling (K-SAVE-2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fail_saves: Vec<String>,
    /// Make the power's attack from this Source Warp's square (`warp_origin`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Pos>,
}

pub use crate::engine::frames::rules::Verb;

pub use crate::engine::kit::{label, unlabelled};

fn who(s: &State, u: UnitIdx) -> &str {
    &s.unit(u).id
}

/// Whether a Move Action is available (K-ACT-1, K-ACT-2, K-ST-Dazed, K-ST-Stunned).
pub fn check_slot(s: &State, u: UnitIdx, slot: Slot) -> Result<(), RuleError> {
    let a = s.unit(u).actions;
    if s.has(u, StatusKind::Stunned) {
        return Err(crate::rules::actions::refuse(
            "K-ST-Stunned",
            format_args!("{} is Stunned and can take no actions", who(s, u)),
        ));
    }
    if slot == Slot::Move && s.unit(u).granted_move {
        return Ok(()); // a Move Action another's power gives it (Tactics), not one of its own
    }
    if s.has(u, StatusKind::Dazed) && a.taken >= 1 {
        return Err(crate::rules::actions::refuse(
            "K-ST-Dazed",
            format_args!("{} is Dazed and has already taken its one action this turn", who(s, u)),
        ));
    }
    match slot {
        Slot::Attack if a.attack && a.bonus_attacks == 0 => Err(crate::rules::actions::refuse(
            "K-ACT-1",
            format_args!("{} has already used its Attack Action this turn", who(s, u)),
        )),
        Slot::Move if (a.moves >= 2 || (a.moves == 1 && a.attack)) && a.bonus_moves == 0 => {
            Err(crate::rules::actions::refuse(
                "K-ACT-2",
                format_args!("{} has no Move Action left (a second one costs the Attack Action)", who(s, u)),
            ))
        }
        Slot::Role if s.has(u, StatusKind::Distracted) => Err(crate::rules::actions::refuse(
            "K-ST-Distracted",
            format_args!("{} is Distracted and cannot take Role Actions", who(s, u)),
        )),
        Slot::Role if s.has(u, StatusKind::Dazed) => Err(crate::rules::actions::refuse(
            "K-ST-Dazed",
            format_args!("{} is Dazed: only an Attack or a Move Action", who(s, u)),
        )),
        Slot::Role if a.role => Err(crate::rules::actions::refuse(
            "K-ACT-1",
            format_args!("{} has already used its Role Action this turn", who(s, u)),
        )),
        _ => Ok(()),
    }
}

/// The action a Dungeon button costs (K-DUN-6): an Attack Action, or a Free Action for a team
/// with Get Out of Jail Free (L3791).
fn check_button(s: &State, u: UnitIdx) -> Result<(), RuleError> {
    if crate::rules::team_traits::free_button(s, u) { check_free(s, u) } else { check_slot(s, u, Slot::Attack) }
}

fn check_free(s: &State, u: UnitIdx) -> Result<(), RuleError> {
    if s.has(u, StatusKind::Stunned) {
        return Err(crate::rules::actions::refuse(
            "K-ST-Stunned",
            format_args!("{} is Stunned and can take no actions", who(s, u)),
        ));
    }
    if s.unit(u).actions.free >= FREE_ACTIONS_PER_TURN {
        return Err(crate::rules::actions::refuse(
            "K-ACT-1",
            format_args!("{} has taken {FREE_ACTIONS_PER_TURN} Free Actions this turn, the table limit", who(s, u)),
        ));
    }
    Ok(())
}

fn slot_of(kind: ActionKind) -> Option<Slot> {
    match kind {
        ActionKind::Attack => Some(Slot::Attack),
        ActionKind::Move => Some(Slot::Move),
        ActionKind::Role => Some(Slot::Role),
        _ => None,
    }
}

/// Range of a targeting mode for `u`.
fn range_of(s: &State, u: UnitIdx, t: Targeting) -> i32 {
    match t {
        Targeting::Implement => {
            crate::rules::query::creature_implement_range(s, u).unwrap_or_else(|| s.implement_range(u))
        }
        Targeting::Melee => s.reach(u),
        Targeting::Ranged { range } | Targeting::Ally { range } | Targeting::Creature { range } => range,
        Targeting::Burst { radius } => radius,
        Targeting::Area { range, .. } => range,
        Targeting::Myself | Targeting::None => 0,
    }
}

/// Checks that `power` may be used by `u` at all right now (actions, frequency, statuses,
/// implement).
pub fn check_power_use(s: &State, u: UnitIdx, power: u16, creative: bool) -> Result<(), RuleError> {
    // A carried Elixir, a tether, a Pest to shake off, a team die, Takeoff Charm: powers a unit
    // may use without having them (the table's list).
    if !s.unit(u).powers.contains(&power) && !crate::engine::hooks::table(s).lends(s, u, power) {
        return Err(crate::rules::actions::refuse(
            "K-CHAR-3",
            format_args!("{} does not have the power {}", who(s, u), s.powers.get(power).name),
        ));
    }
    check_held_power_use(s, u, power, creative)
}

/// [`check_power_use`] for a power `u` has (one of its own `powers`): the rest of the checks.
fn check_held_power_use(s: &State, u: UnitIdx, power: u16, creative: bool) -> Result<(), RuleError> {
    let def = s.powers.get(power);
    let unit = s.unit(u);
    if def.reference_only {
        return Err(crate::rules::actions::refuse(
            "K-CHAR-3",
            format_args!("{} is listed for look-up only: Fray does not play it yet", def.name),
        ));
    }
    if def.frequency == Frequency::Encounter && unit.spent.contains(&power) {
        return Err(crate::rules::actions::refuse(
            "K-ACT-9",
            format_args!("{} is an Encounter power and {} has already spent it", def.name, who(s, u)),
        ));
    }
    (crate::engine::hooks::brews(s).check_use)(s, u, power)?;
    if def.not_after_moving && unit.actions.moved > 0 {
        return Err(crate::rules::actions::refuse(
            "K-ACT-1",
            format_args!("{} cannot be used once {} has moved this turn", def.name, who(s, u)),
        ));
    }
    if matches!(def.action, ActionKind::Interrupt | ActionKind::Reaction) {
        return Err(crate::rules::actions::refuse(
            "K-ACT-7",
            format_args!("{} is triggered: it is offered when its trigger happens", def.name),
        ));
    }
    if unit.granted_by.is_some() && def.grants_attacks() {
        return Err(crate::rules::actions::refuse(
            "K-ACT-8",
            format_args!(
                "{} is making a granted attack and cannot use {}, which grants one in turn",
                who(s, u),
                def.name
            ),
        ));
    }
    if unit.granted_by.is_some() && def.action == ActionKind::Attack {
        // K-ACT-4: a granted attack is made as if with an Attack Action; none is spent.
    } else if creative {
        check_slot(s, u, Slot::Attack)?;
    } else if let Some(slot) = slot_of(def.action) {
        check_slot(s, u, slot)?;
    } else {
        check_free(s, u)?;
    }
    check_wielding(s, u, def)?;
    // Tinker, Pest, Role Actions, the Hunter's Creep powers, Hub Warp, Removal from Existence,
    // summons, Path of Blades, Tamer: the checks the hook table holds, in their order.
    crate::engine::hooks::table(s).check_use(s, u, def)
}

/// Whether `u` can wield `def` as things stand, whatever action pays for it: its implement out
/// (K-IMP-10) and not Disarmed, the banishing ray's seat (K-DUN-13), Change Spell, the Takeoff
/// Charm, the implement a power requires (K-IMP-8). A granted attack asks this too.
fn check_wielding(s: &State, u: UnitIdx, def: &crate::content::powers::PowerDef) -> Result<(), RuleError> {
    if def.is_attack() && s.unit(u).stowed {
        return Err(crate::rules::actions::refuse(
            "K-IMP-10",
            format_args!("{}'s implement is stowed: no attacks until it is taken back", who(s, u)),
        ));
    }
    if (def.uses_implement() || def.hook.as_deref() == Some("charge")) && s.has(u, StatusKind::Disarmed) {
        return Err(crate::rules::actions::refuse(
            "K-ST-Disarmed",
            format_args!("{} is Disarmed and cannot use implement powers", who(s, u)),
        ));
    }
    if s.arena.ray_seat.is_some() && def.id == crate::rules::map_rules::RAY {
        crate::rules::map_rules::check_ray_user(s, u)?;
    }
    (crate::engine::hooks::features(s).check_power)(s, u, def)?; // Change Spell
    (crate::engine::hooks::charms(s).check_takeoff)(s, u, def)?; // Takeoff Charm
    if let Some(req) = def.requires.as_deref().filter(|r| Implement::parse(r) != Some(s.unit(u).implement)) {
        return Err(crate::rules::actions::refuse("K-IMP-8", format_args!("{} needs a {req}", def.name)));
    }
    Ok(())
}

/// Checks one target of a power from `from` (K-CONC-3, K-COV-8, ranges, Flying).
pub fn check_target(s: &State, u: UnitIdx, power: u16, t: UnitIdx, creative: bool) -> Result<(), RuleError> {
    check_target_at(s, u, power, t, creative, None)
}

/// [`check_target`] with range and line measured `from` a Source Warp's square, if given.
pub fn check_target_at(
    s: &State,
    u: UnitIdx,
    power: u16,
    t: UnitIdx,
    creative: bool,
    from: Option<Pos>,
) -> Result<(), RuleError> {
    check_target_ranged(s, u, power, t, creative, from, false)
}

/// [`check_target_at`]; `in_range` when the caller has already found `t` within range by the
/// same test ([`in_reach`]), which is then not made again.
fn check_target_ranged(
    s: &State,
    u: UnitIdx,
    power: u16,
    t: UnitIdx,
    creative: bool,
    from: Option<Pos>,
    in_range: bool,
) -> Result<(), RuleError> {
    let def = s.powers.get(power);
    let (au, tu) = (s.unit(u), s.unit(t));
    crate::engine::hooks::removed_check_target(s, u, def, t)?; // nothing targets a removed creature
    if !tu.on_map() {
        return Err(crate::rules::actions::refuse("K-DUN-1", format_args!("{} is not on the map", tu.id)));
    }
    crate::rules::summons::check_target(s, def, t)?;
    if s.arena.ray_seat.is_some() && def.id == crate::rules::map_rules::RAY {
        crate::rules::map_rules::check_ray_target(s, t)?; // the banishing ray (L2478)
    }
    crate::rules::beasts::check_beast_charm(s, u, def, t)?; // Beast Charm
    if creative {
        if t != u && s.enemies(u, t) {
            return Err(crate::rules::actions::refuse(
                "K-CREAT-1",
                format_args!("Creative Use applies an Effect to yourself or a willing ally; {} is not an ally", tu.id),
            ));
        }
    } else {
        match def.target {
            Targeting::Myself if t != u => {
                return Err(crate::rules::actions::refuse(
                    "K-ROLL-3",
                    format_args!("{} targets only its user", def.name),
                ));
            }
            Targeting::Ally { .. } if t == u && def.affects == Some(crate::content::powers::Affects::Allies) => {
                return Err(crate::rules::actions::refuse(
                    "K-CREAT-3",
                    format_args!("{} targets an ally other than its user", def.name),
                ));
            }
            Targeting::Ranged { .. } | Targeting::Implement | Targeting::Melee | Targeting::Creature { .. }
                if def.affects == Some(crate::content::powers::Affects::Enemies) && !s.enemies(u, t) =>
            {
                return Err(crate::rules::actions::refuse(
                    "K-CREAT-3",
                    format_args!("{} targets enemies; {} is not one", def.name, tu.id),
                ));
            }
            Targeting::Ally { .. } if s.enemies(u, t) => {
                return Err(crate::rules::actions::refuse(
                    "K-CREAT-3",
                    format_args!("{} targets an ally; {} is not one", def.name, tu.id),
                ));
            }
            // A charm: yourself or an ally in implement range (L1533, L1542).
            Targeting::Implement if def.charm.is_some() && s.enemies(u, t) => {
                return Err(crate::rules::actions::refuse(
                    "K-ROLL-8",
                    format_args!("{} is a charm: it targets you or an ally; {} is not one", def.name, tu.id),
                ));
            }
            Targeting::Implement if def.charm.is_some() => {}
            // Potent Edge aimed at its user only coats the blade (brews.rs).
            Targeting::Implement if t == u && def.delivers.as_ref().is_some_and(|d| d.blade) => {}
            Targeting::Implement | Targeting::Melee | Targeting::Ranged { .. } if t == u => {
                return Err(crate::rules::actions::refuse(
                    "K-ROLL-3",
                    format_args!("{} cannot target its own user", def.name),
                ));
            }
            _ => {}
        }
    }
    let charge = def.hook.as_deref() == Some("charge");
    (crate::engine::hooks::warps(s).check_target)(s, u, def, t)?;
    if !in_range && let Some((d, range)) = beyond_range(s, u, def, t, base_range(s, u, def, creative), from) {
        let rule = if def.target == Targeting::Implement { "K-IMP-9" } else { "K-MOVE-6" };
        return Err(crate::rules::actions::refuse(
            rule,
            format_args!("{} is {d} squares from {}; {} reaches {range}", tu.id, au.id, def.name),
        ));
    }
    // Brews, Role Actions, the Hunter's Creep powers: the target checks the table holds.
    crate::engine::hooks::table(s).check_target(s, u, power, t, creative)?;
    if let Some(limit) = crate::rules::modifiers::sight_limit(s, u)
        && t != u
        && target_distance(s, u, t, from) > limit
        && !matches!(def.target, Targeting::Burst { .. } | Targeting::Area { .. })
    {
        // Close Focus Charm: what it cannot see, it cannot target.
        return Err(crate::rules::actions::refuse(
            "K-COV-8",
            format_args!("{} sees nothing beyond {limit} squares", au.id),
        ));
    }
    if def.hook.as_deref() == Some("swap-places") && t != u && au.size != tu.size {
        // An Enlarging Charm may leave two creatures of one kind in different sizes.
        return Err(crate::rules::actions::refuse("K-FM-5", "only creatures of the same size can swap places"));
    }
    if def.hook.as_deref() == Some("swap-places") && t != u && !crate::rules::query::swap_fits(s, u, t) {
        return Err(crate::rules::actions::refuse(
            "K-ST-Flying",
            "after the swap a creature would share a square with another on the ground or in the air",
        ));
    }
    let burst = matches!(def.target, Targeting::Burst { .. });
    if !burst
        && t != u
        && s.hidden_from(t, u)
        && !crate::rules::query::ignores_concealment(s, u, t, def)
        && !crate::rules::query::sees_hidden(s, u, t, def)
    {
        return Err(crate::rules::actions::refuse(
            "K-CONC-3",
            format_args!("{} is Hidden from {}: it cannot be targeted", tu.id, au.id),
        ));
    }
    // K-ST-Revealed: seen by everyone from anywhere, and attacks ignore its Cover (see rulings).
    // Ricochet Shot ignores line of sight for basic implement attacks.
    // (Each test is made only when the ones before it leave the shot blocked.)
    let revealed = || s.has(t, StatusKind::Revealed) || crate::rules::query::sees_through(s, u, t, def);
    let eye = from.map(|at| (at, 1)).or(au.pos.map(|p| (p, au.size))); // Source Warp
    // A Porter sees through its warps (L920): enough for powers that roll nothing (Short Jump).
    let warp_sight = || !def.rolls() && sees_through_warps(s, u, t);
    if t != u
        && !charge
        && eye.is_none_or(|(at, size)| crate::rules::cover::shot(s, at, size, t) == Sight::Blocked)
        && !revealed()
        && !warp_sight()
    {
        return Err(crate::rules::actions::refuse(
            "K-COV-8",
            format_args!("{} has no line to {}: no shot", au.id, tu.id),
        ));
    }
    if def.is_melee(au.implement == Implement::Sword)
        && t != u
        && s.has(u, StatusKind::Flying) != s.has(t, StatusKind::Flying)
        // Long Sword: next to it across the air-ground line; Throwing Sword: thrown, not melee.
        && !crate::rules::query::melee_across_air(s, u, t)
        && !crate::rules::query::thrown(s, u, t, def)
    {
        return Err(crate::rules::actions::refuse(
            "K-ST-Flying",
            "Flying and non-Flying creatures cannot reach each other in melee",
        ));
    }
    Ok(())
}

/// How far `u` reaches with `def` before any bonus that depends on the target: the power's or
/// implement's range (K-MOVE-6, K-IMP-9), an Elixir's, a burst grown by an Empowering Staff, a
/// Sniper's bonus; Creative Use reaches as `target_range_for_creative` says.
fn base_range(s: &State, u: UnitIdx, def: &crate::content::powers::PowerDef, creative: bool) -> i32 {
    let range = match (creative, def.target) {
        (true, Targeting::Implement) => s.implement_range(u),
        (true, _) => def.target_range_for_creative(),
        (false, Targeting::Burst { radius }) => radius + crate::rules::query::area_growth(s, u, def), // Empowering Staff
        (false, t) => crate::rules::query::brew_range(def).unwrap_or(range_of(s, u, t)),
    };
    range + crate::rules::query::sniper_range_bonus(s, u, def) // Sniper
}

/// Whether `t` lies beyond `u`'s reach with `def` (`reach` from [`base_range`]), measured from
/// `from` (a Source Warp's square) or from `u`: the distance and the range if so. A Charge
/// reaches anyone; Bend Space adds to the range; Revelation puts anyone in your zone in range of
/// every power (see rulings); some features ignore range.
fn beyond_range(
    s: &State,
    u: UnitIdx,
    def: &crate::content::powers::PowerDef,
    t: UnitIdx,
    reach: i32,
    from: Option<Pos>,
) -> Option<(i32, i32)> {
    if t == u || def.hook.as_deref() == Some("charge") {
        return None;
    }
    let d = target_distance(s, u, t, from);
    let range = reach + crate::rules::portals::range_bonus(s, u, t, def); // Bend Space
    let beyond = d > range && !zones::revealed_to(s, u, t) && !crate::rules::query::ignores_range(s, u, t, def);
    beyond.then_some((d, range))
}

/// How far `t` is from `u`, or from `from` (a Source Warp's square); off the map is beyond
/// every range.
fn target_distance(s: &State, u: UnitIdx, t: UnitIdx, from: Option<Pos>) -> i32 {
    match from {
        Some(at) => crate::rules::query::warp_distance(s, at, t), // Source Warp
        None => s.distance(u, t),
    }
    .unwrap_or(i32::MAX)
}

impl crate::content::powers::PowerDef {
    /// Creative Use reaches allies within the power's own range (a burst's radius, a ranged
    /// power's range; implement powers use the user's implement range) — see rulings K-CREAT-1.
    pub fn target_range_for_creative(&self) -> i32 {
        match self.target {
            Targeting::Ranged { range } | Targeting::Ally { range } | Targeting::Creature { range } => range,
            Targeting::Burst { radius } => radius,
            _ => 1,
        }
    }
}

/// Everyone a burst power of `u` affects, nearest first (K-MULTI-1: everyone but the user,
/// unless the power names whom it affects: "you and each ally within 3").
pub fn burst_targets(s: &State, u: UnitIdx, power: u16) -> Vec<UnitIdx> {
    let def = s.powers.get(power);
    let Targeting::Burst { radius } = def.target else { return Vec::new() };
    let radius = radius + crate::rules::query::area_growth(s, u, def); // Empowering Staff
    let affects = def.affects();
    let (p, size) = (s.unit(u).pos.unwrap(), s.unit(u).size);
    let area = burst(p, size, radius);
    let mut ts: Vec<UnitIdx> = s
        .units_on_map()
        .filter(|&t| t == u || area.iter().any(|&q| distance(s.unit(t).pos.unwrap(), s.unit(t).size, q, 1) == 0))
        .filter(|&t| affects.includes(s, u, t))
        .filter(|&t| s.unit(t).kind != crate::engine::state::UnitKind::Conjured) // K-DEF-5: never a target
        .filter(|&t| t == u || crate::rules::cover::shot(s, p, 1, t) != Sight::Blocked)
        .filter(|&t| !def.is_attack() || !crate::rules::query::attack_forbidden(s, u, t)) // Spread Fire
        .collect();
    ts.sort_by_key(|&t| (s.distance(u, t), t));
    ts
}

/// A unit as a decision option: its id, labelled with its name and square.
pub fn unit_option(s: &State, t: UnitIdx) -> DecisionOption {
    DecisionOption::new(who(s, t).to_string(), unit_label(s, t))
}

fn unit_label(s: &State, t: UnitIdx) -> String {
    label(|| {
        let at = s.unit(t).pos.map_or("-".to_string(), |p| p.to_string());
        format!("{} at {at}", s.unit(t).name)
    })
}

/// Where a menu puts its options, in order: a labelled list ([`DecisionOption`]s, for
/// `decision` and `describe`), or their action ids alone (`Game::legal`, game.rs). One builder
/// serves both, so the two never disagree.
pub trait Opts {
    /// An option with a fixed id and label.
    fn word(&mut self, id: &'static str, label: &'static str);
    /// An option whose label is written only when someone reads it.
    fn labelled(&mut self, id: &str, label: impl FnOnce() -> String);
    /// A square.
    fn square(&mut self, q: Pos, label: impl FnOnce() -> String);
    /// A unit, labelled as [`unit_option`].
    fn unit(&mut self, s: &State, t: UnitIdx);
    /// `"power:ID"`, labelled with the power's name.
    fn power(&mut self, s: &State, p: u16);
    /// An option built whole.
    fn option(&mut self, o: DecisionOption);
    /// How many options so far.
    fn count(&self) -> usize;
}

impl Opts for Vec<DecisionOption> {
    fn word(&mut self, id: &'static str, label: &'static str) {
        self.push(DecisionOption::new(id, label));
    }
    fn labelled(&mut self, id: &str, l: impl FnOnce() -> String) {
        self.push(DecisionOption::new(id, l()));
    }
    fn square(&mut self, q: Pos, l: impl FnOnce() -> String) {
        self.push(DecisionOption::square(q, l()));
    }
    fn unit(&mut self, s: &State, t: UnitIdx) {
        self.push(unit_option(s, t));
    }
    fn power(&mut self, s: &State, p: u16) {
        let def = s.powers.get(p);
        self.push(DecisionOption::new(format!("power:{}", def.id), label(|| def.name.clone())));
    }
    fn option(&mut self, o: DecisionOption) {
        self.push(o);
    }
    fn count(&self) -> usize {
        self.len()
    }
}

/// Legal targets for a power.
pub fn legal_targets(s: &State, u: UnitIdx, power: u16) -> Vec<UnitIdx> {
    let in_reach = in_reach(s, u, power);
    s.units_on_map().filter(|&t| in_reach(t) && is_legal_target(s, u, power, t)).collect()
}

/// Whether the power has a legal target at all: the menu's question, answered at the first.
fn has_legal_target(s: &State, u: UnitIdx, power: u16) -> bool {
    let in_reach = in_reach(s, u, power);
    s.units_on_map().any(|t| in_reach(t) && is_legal_target(s, u, power, t))
}

/// The range test of [`check_target`] alone, with the range worked out once for every target: a
/// target it refuses is refused whatever else holds, so the whole check is spared.
fn in_reach(s: &State, u: UnitIdx, power: u16) -> impl Fn(UnitIdx) -> bool + '_ {
    let def = s.powers.get(power);
    let reach = base_range(s, u, def, false);
    move |t| beyond_range(s, u, def, t, reach, None).is_none()
}

/// Whether `t`, already found within range ([`in_reach`]), is a legal target.
fn is_legal_target(s: &State, u: UnitIdx, power: u16, t: UnitIdx) -> bool {
    check_target_ranged(s, u, power, t, false, None, true).is_ok()
        && crate::rules::control::check_power(s, u, s.powers.get(power), &[t]).is_ok()
        && (crate::engine::hooks::triggered(s).check_use)(s, u, power, &[t], false).is_ok()
}

fn orbs_to_pick_up(s: &State, u: UnitIdx) -> Vec<OrbIdx> {
    (0..s.orbs.len() as OrbIdx).filter(|&o| orbs::check_pick_up(s, u, o).is_ok()).collect()
}

fn orbs_to_take(s: &State, u: UnitIdx) -> Vec<OrbIdx> {
    (0..s.orbs.len() as OrbIdx).filter(|&o| orbs::check_take(s, u, o).is_ok()).collect()
}

fn dunk_options(s: &State, u: UnitIdx) -> Vec<(OrbIdx, u8)> {
    let mut out = Vec::new();
    for o in s.held_orbs(u) {
        for p in 0..s.arena.pedestals.len() as u8 {
            if orbs::check_dunk(s, u, o, p).is_ok() {
                out.push((o, p));
            }
        }
    }
    out
}

fn escapable(s: &State, u: UnitIdx) -> Vec<StatusKind> {
    let mut v: Vec<StatusKind> = s
        .unit(u)
        .statuses
        .iter()
        .filter(|st| st.kind == StatusKind::Grabbed || st.duration == Duration::EscapeEnds)
        .map(|st| st.kind)
        .collect();
    // Each kind once, wherever its repeats stand (two Grabs round a Weakened that an escape ends).
    let mut seen = Vec::new();
    v.retain(|k| {
        !seen.contains(k) && {
            seen.push(*k);
            true
        }
    });
    v
}

fn exit_beside(s: &State, u: UnitIdx) -> Option<Pos> {
    let un = s.unit(u);
    let p = un.pos?;
    if !s.arena.footprint_in_dungeon(p, un.size) {
        return None;
    }
    s.arena.exits.iter().copied().find(|&e| distance(p, un.size, e, 1) == 1)
}

/// Where `u` may move this action: reachable, and allowed by what controls it.
fn move_destinations(s: &State, u: UnitIdx, mode: Mode) -> Vec<Pos> {
    let mut d = movement::destinations(s, u, mode);
    if s.unit(u).compulsion.is_some() {
        d.retain(|&q| crate::rules::control::check_move(s, u, q).is_ok());
    }
    d
}

/// Whether a move in `mode` has somewhere to go: [`move_destinations`] is not empty (the
/// search stops at the first square).
fn can_move_somewhere(footing: &movement::Footing, s: &State, u: UnitIdx, mode: Mode) -> bool {
    let compelled = s.unit(u).compulsion.is_some();
    movement::any_destination_on(footing, s, u, mode, |q| {
        !compelled || crate::rules::control::check_move(s, u, q).is_ok()
    })
}

/// The squares [`check_shift`] allows, in neighbour order: its unit-wide checks asked once,
/// the mover's footing gathered once.
fn shift_squares(s: &State, u: UnitIdx) -> Vec<Pos> {
    shift_squares_on(&std::cell::OnceCell::new(), s, u)
}

/// [`shift_squares`] on a footing of `u` gathered at most once (and only if needed).
fn shift_squares_on<'a>(footing: &std::cell::OnceCell<movement::Footing<'a>>, s: &'a State, u: UnitIdx) -> Vec<Pos> {
    let Some((p, footing)) = shift_start(footing, s, u) else { return Vec::new() };
    p.neighbours().into_iter().filter(|&q| shift_fits(footing, s, u, p, q)).collect()
}

/// Whether [`shift_squares_on`] has any square (the menu's question, answered at the first).
fn can_shift_on<'a>(footing: &std::cell::OnceCell<movement::Footing<'a>>, s: &'a State, u: UnitIdx) -> bool {
    shift_start(footing, s, u)
        .is_some_and(|(p, footing)| p.neighbours().into_iter().any(|q| shift_fits(footing, s, u, p, q)))
}

/// Where `u` would shift from, if it may shift at all, with its footing (gathered then).
fn shift_start<'a, 'f>(
    footing: &'f std::cell::OnceCell<movement::Footing<'a>>,
    s: &'a State,
    u: UnitIdx,
) -> Option<(Pos, &'f movement::Footing<'a>)> {
    let p = s.unit(u).pos?;
    if check_slot(s, u, Slot::Move).is_err()
        || check_move_allowed(s, u, Mode::Walk).is_err()
        || s.has(u, StatusKind::Slowed)
    {
        return None;
    }
    Some((p, footing.get_or_init(|| movement::Footing::of(s, u))))
}

/// Whether `u` may shift from `p` to its neighbour `q` ([`check_shift`]'s square questions).
fn shift_fits(footing: &movement::Footing, s: &State, u: UnitIdx, p: Pos, q: Pos) -> bool {
    crate::rules::control::check_move(s, u, q).is_ok()
        && distance(p, 1, q, 1) == 1
        && !crate::rules::query::barred(s, u, q)
        && footing.step_cost(p, q).is_some_and(|c| c <= 1)
        && footing.can_stand(q, s.unit(u).size)
}

/// Squares other than its own where a walk by `u` of at most `left` squares of movement may end
/// (walking rules, K-MOVE-1; compulsions, K-ST-Dominated): Running Shot, Ghost Walk, Path of
/// Blades, the Runner's boost.
pub fn walk_ends(s: &State, u: UnitIdx, left: i32) -> Vec<Pos> {
    if left <= 0 || check_move_allowed(s, u, Mode::Walk).is_err() {
        return Vec::new();
    }
    let Some(reach) = movement::reach(s, u, Mode::Walk) else { return Vec::new() };
    let here = s.unit(u).pos;
    movement::destinations(s, u, Mode::Walk)
        .into_iter()
        .filter(|&q| Some(q) != here && reach.cost(q).is_some_and(|c| c as i32 <= left))
        .filter(|&q| crate::rules::control::check_move(s, u, q).is_ok())
        .collect()
}

/// Whether `u` may walk or crawl at all now (Immobilized, Restrained, Grabbed...).
pub fn check_move_allowed(s: &State, u: UnitIdx, mode: Mode) -> Result<(), RuleError> {
    if s.has(u, StatusKind::Immobilized) {
        let rule = if s.has(u, StatusKind::Grabbed) {
            "K-ST-Grabbed"
        } else if s.has(u, StatusKind::Restrained) {
            "K-ST-Restrained"
        } else {
            "K-ST-Immobilized"
        };
        return Err(crate::rules::actions::refuse(
            rule,
            format_args!("{} is Immobilized: it cannot move except by teleporting", who(s, u)),
        ));
    }
    let prone = s.has(u, StatusKind::Prone);
    if prone && mode != Mode::Crawl {
        return Err(crate::rules::actions::refuse(
            "K-MOVE-9",
            format_args!("{} is Prone: crawl or stand up first", who(s, u)),
        ));
    }
    if !prone && mode == Mode::Crawl {
        return Err(crate::rules::actions::refuse(
            "K-MOVE-9",
            format_args!("{} is not Prone: only Prone creatures crawl", who(s, u)),
        ));
    }
    Ok(())
}

fn check_shift(s: &State, u: UnitIdx, to: Pos) -> Result<(), RuleError> {
    check_slot(s, u, Slot::Move)?;
    check_move_allowed(s, u, Mode::Walk)?;
    crate::rules::control::check_move(s, u, to)?;
    if s.has(u, StatusKind::Slowed) {
        return Err(crate::rules::actions::refuse(
            "K-MOVE-2",
            format_args!("{} is Slowed and cannot shift with a Move Action", who(s, u)),
        ));
    }
    let un = s.unit(u);
    let p = un.pos.unwrap();
    if distance(p, 1, to, 1) != 1 {
        return Err(crate::rules::actions::refuse("K-MOVE-2", "a Shift moves exactly 1 square"));
    }
    if crate::rules::query::barred(s, u, to) {
        return Err(crate::rules::actions::refuse(
            "irenas-cloak",
            format_args!("{} may not enter {to} of its own accord", who(s, u)),
        ));
    }
    match movement::step_cost(s, u, p, to) {
        None => Err(crate::rules::actions::refuse("K-TER-1", format_args!("{} cannot enter {to}", who(s, u)))),
        Some(c) if c > 1 => Err(crate::rules::actions::refuse(
            "K-MOVE-7",
            format_args!("{to} is Difficult Terrain: no 1-square shift into it"),
        )),
        Some(_) if !movement::can_stand(s, u, to, un.size) => {
            Err(crate::rules::actions::refuse("K-TER-4", format_args!("{} cannot stand at {to}", who(s, u))))
        }
        Some(_) => Ok(()),
    }
}

/// The top-level menu: every action the unit can take now.
pub fn menu(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let mut out = Vec::with_capacity(16); // a menu's usual size, grown once
    menu_into(s, u, &mut out);
    out
}

/// [`menu`], into `out`.
pub fn menu_into(s: &State, u: UnitIdx, out: &mut impl Opts) {
    if crate::rules::query::is_removed(s, u) {
        // its move outside existence, or the end
        crate::engine::hooks::removed_menu(s, u).into_iter().for_each(|o| out.option(o));
        return;
    }
    let final_action = matches!(s.flow.last(), Some(Frame::FinalAction { .. }));
    let can_move = check_slot(s, u, Slot::Move).is_ok();
    // The mover's footing, gathered once for every question about moving below.
    let footing = std::cell::OnceCell::new();
    let foot = || footing.get_or_init(|| movement::Footing::of(s, u));
    if can_move && check_move_allowed(s, u, Mode::Walk).is_ok() && can_move_somewhere(foot(), s, u, Mode::Walk) {
        out.word("move", "move up to your speed (Move Action)");
    }
    if can_move && can_shift_on(&footing, s, u) {
        out.word("shift", "shift 1 square without granting Opportunities (Move Action)");
    }
    if can_move && check_move_allowed(s, u, Mode::Crawl).is_ok() && can_move_somewhere(foot(), s, u, Mode::Crawl) {
        out.word("crawl", "crawl at half speed (Move Action)");
    }
    if can_move && check(s, u, &Verb::Stand).is_ok() {
        out.word("stand", "stand up (Move Action)");
    }
    if can_move && !escapable(s, u).is_empty() {
        out.word("escape", "try to escape (Move Action, saving throw)");
    }
    let un = s.unit(u);
    // Whether each action slot is open, asked once: a power whose slot is spent fails
    // `check_power_use` whatever else holds, as does a triggered power (K-ACT-7).
    let open: [std::cell::OnceCell<bool>; 3] = Default::default(); // Attack, Move, Role
    let slot_open = |slot: Slot| *open[slot as usize].get_or_init(|| check_slot(s, u, slot).is_ok());
    for &p in &un.powers {
        let def = s.powers.get(p);
        if matches!(def.action, ActionKind::Interrupt | ActionKind::Reaction)
            || (un.granted_by.is_none() && slot_of(def.action).is_some_and(|slot| !slot_open(slot)))
        {
            continue;
        }
        if check_held_power_use(s, u, p, false).is_err() {
            continue;
        }
        let usable = match def.target {
            _ if crate::rules::beasts::hooked(def) => crate::rules::control::check_power(s, u, def, &[]).is_ok(),
            Targeting::None => crate::rules::control::check_power(s, u, def, &[]).is_ok(),
            Targeting::Myself => crate::rules::control::check_power(s, u, def, &[u]).is_ok(),
            Targeting::Burst { .. } => crate::rules::control::check_power(s, u, def, &burst_targets(s, u, p)).is_ok(),
            // Compulsions never depend on who is in an area (an area power is never the one a
            // Frenzied or Panicked creature is forced to use).
            Targeting::Area { range, .. } => {
                let range = range + crate::rules::query::sniper_range_bonus(s, u, def); // Sniper
                crate::rules::control::check_power(s, u, def, &[]).is_ok()
                    && !zones::area_centres(s, u, range).is_empty()
            }
            // What controls the charger must allow it (an Encounter charge while Dominated is not).
            _ if def.hook.as_deref() == Some("charge") => {
                chargeable_on(foot, s, u, p).any(|t| crate::rules::control::check_power(s, u, def, &[t]).is_ok())
            }
            _ => {
                has_legal_target(s, u, p)
                    || !crate::engine::hooks::multi_options(s, u, p).is_empty()
                    || !crate::engine::hooks::warp_options(s, u, p).is_empty() // Source Warp
            }
        };
        if usable {
            out.power(s, p);
        }
    }
    // The orbs within reach first: most are not, and that is cheaper to tell.
    let (mut pick_up, mut take) = (false, false);
    if can_move {
        for o in (0..s.orbs.len() as OrbIdx).filter(|&o| orbs::within_reach(s, u, o)) {
            pick_up = pick_up || orbs::check_pick_up(s, u, o).is_ok();
            take = take || orbs::check_take(s, u, o).is_ok();
        }
    }
    if pick_up {
        out.word("pick-up", "pick up an orb (Move Action)");
    }
    if take {
        out.word("take", "take an orb from an adjacent ally (Move Action)");
    }
    if can_move && s.held_orbs(u).any(|o| s.units_on_map().any(|t| orbs::check_hand(s, u, o, t).is_ok())) {
        out.word("hand", "hand an orb to an adjacent ally (Move Action)");
    }
    if can_move && !dunk_options(s, u).is_empty() {
        out.word("dunk", "dunk an orb on your pedestal (Move Action)");
    }
    // Carried Elixirs, a tethered creature, shaking a Pest off, Improved Seer's team die,
    // Takeoff Charm: the menu entries the table holds, in order.
    let mut held = Vec::new();
    crate::engine::hooks::table(s).menu(s, u, &mut held);
    held.into_iter().for_each(|o| out.option(o));
    if let Some(e) = exit_beside(s, u).filter(|_| check_button(s, u).is_ok()) {
        if crate::rules::team_traits::free_button(s, u) {
            out.labelled("button", || format!("hit the button of the exit at {e} (Free Action: Get Out of Jail Free)"));
        } else {
            out.labelled("button", || format!("hit the button of the exit at {e} (Attack Action)"));
        }
    }
    if check_free(s, u).is_ok() && s.held_orbs(u).next().is_some() {
        out.word("drop", "drop an orb (Free Action)");
    }
    // Single-step actions are offered exactly when their check passes.
    let stow_useful = s.held_orbs(u).next().is_some() && un.implement != Implement::None;
    for (id, verb, text) in [
        ("retrieve", Verb::Retrieve, "take your implement back out (free)"),
        ("stow", Verb::Stow, "stow your implement to free a hand (free)"),
        ("drop-prone", Verb::DropProne, "drop Prone (Free Action)"),
        ("land", Verb::Land, "stop Flying (Free Action)"),
    ] {
        if (id != "stow" || stow_useful) && check(s, u, &verb).is_ok() {
            out.word(id, text);
        }
    }
    for k in shakeable(s, u) {
        if check(s, u, &Verb::ShakeOff(k)).is_ok() {
            out.labelled(&format!("shake-off:{}", k.name()), || format!("end {k} (Attack Action)"));
        }
    }
    if final_action {
        out.word("pass", "take the damage");
    } else if (!(movement::inside_wall(s, u) && can_walk_out_of_wall(s, u))
        && crate::rules::control::must_still_act(s, u).is_none())
        || out.count() == 0
    {
        out.word("end-turn", "end your turn");
    }
}

/// K-ST-Phasing: whether a creature inside a wall can still walk (or crawl) out of it this turn.
/// Only then is ending the turn there refused; a creature that cannot (its Move Action spent,
/// Immobilized) ends its turn and is put on the nearest free square (`turn::end_turn`).
fn can_walk_out_of_wall(s: &State, u: UnitIdx) -> bool {
    let size = s.unit(u).size;
    check_slot(s, u, Slot::Move).is_ok()
        && [Mode::Walk, Mode::Crawl].into_iter().any(|mode| {
            check_move_allowed(s, u, mode).is_ok()
                && movement::any_destination(s, u, mode, |p| movement::can_stand(s, u, p, size))
        })
}

/// Whom `u` may Charge with `power` (the built-in Charge, or a power that charges).
fn charge_targets(s: &State, u: UnitIdx, power: u16) -> Vec<UnitIdx> {
    let footing = std::cell::OnceCell::new();
    chargeable_on(|| footing.get_or_init(|| movement::Footing::of(s, u)), s, u, power).collect()
}

/// [`charge_targets`] one at a time, the route search last, on `u`'s footing (`foot`).
fn chargeable_on<'a, 'f>(
    foot: impl Fn() -> &'f movement::Footing<'a> + 'f,
    s: &'a State,
    u: UnitIdx,
    power: u16,
) -> impl Iterator<Item = UnitIdx> + 'f
where
    'a: 'f,
{
    let def = s.powers.get(power);
    let flying = s.has(u, StatusKind::Flying);
    let long_sword = crate::rules::query::has_advanced(s, u, crate::engine::records::advanced::Advanced::LongSword); // ends next to it
    let sight = crate::rules::modifiers::sight_limit(s, u);
    s.units_on_map()
        .filter(move |&t| s.enemies(u, t) && !s.hidden_from(t, u))
        .filter(move |&t| s.unit(t).kind != crate::engine::state::UnitKind::Conjured) // K-DEF-5
        .filter(move |&t| !crate::rules::query::attack_forbidden(s, u, t)) // Spread Fire (random play)
        // K-ST-Flying: the strike at the end is melee.
        .filter(move |&t| flying == s.has(t, StatusKind::Flying) || long_sword)
        .filter(move |&t| sight.is_none_or(|l| s.distance(u, t).is_some_and(|d| d <= l)))
        .filter(move |&t| {
            // The power itself (an Encounter one is barred while Dominated, found by random play).
            crate::rules::control::check_power(s, u, def, &[t]).is_ok()
                && crate::rules::summons::check_target(s, def, t).is_ok()
        })
        .filter(move |&t| can_charge_to(foot(), s, u, t))
}

/// Out of running distance: no route can end beside `t` (saves a route search per enemy).
fn out_of_charge_range(s: &State, u: UnitIdx, t: UnitIdx) -> bool {
    s.distance(u, t).is_none_or(|d| d > movement::speed(s, u, Mode::Walk) + 1)
        && s.arena.portals.is_empty()
        && s.porter.tunnels.is_empty() // a portal may shorten the way
}

/// Whether [`charge_squares`] has any square, the search stopping at the first.
fn can_charge_to(footing: &movement::Footing, s: &State, u: UnitIdx, t: UnitIdx) -> bool {
    if out_of_charge_range(s, u, t) || check_move_allowed(s, u, Mode::Walk).is_err() {
        return false;
    }
    if s.distance(u, t) == Some(1) {
        return true; // already adjacent: a Charge of zero squares
    }
    movement::can_charge_beside(footing, s, u, t)
}

/// The squares next to `t` a Charge by `u` can end on (K-MOVE-11), its own if already beside it.
pub fn charge_squares(s: &State, u: UnitIdx, t: UnitIdx) -> Vec<Pos> {
    if out_of_charge_range(s, u, t) || check_move_allowed(s, u, Mode::Walk).is_err() {
        return Vec::new();
    }
    let size = s.unit(u).size;
    let (tp, ts) = (s.unit(t).pos.unwrap(), s.unit(t).size);
    let mut out: Vec<Pos> =
        movement::destinations(s, u, Mode::Charge(t)).into_iter().filter(|&q| distance(q, size, tp, ts) == 1).collect();
    if s.distance(u, t) == Some(1) {
        out.push(s.unit(u).pos.unwrap()); // already adjacent: a Charge of zero squares
    }
    out
}

/// The question a pending menu choice asks.
pub fn pending_question(s: &State, u: UnitIdx, p: &Pending) -> (&'static str, String, Vec<DecisionOption>) {
    let name = who(s, u);
    let (kind, prompt) = match p {
        Pending::Move(_) => ("square", format!("{name}: where to?")),
        Pending::Shift => ("square", format!("{name}: shift where?")),
        Pending::Target(power) => ("target", format!("{name}: {} — choose a target", s.powers.get(*power).name)),
        Pending::MoreTargets(power, _) => {
            ("target", format!("{name}: {} — another target?", s.powers.get(*power).name))
        }
        Pending::Centre(power) => {
            ("square", format!("{name}: {} — where is its area centred?", s.powers.get(*power).name))
        }
        Pending::Zone(power) => {
            ("square", format!("{name}: {} — where is the zone centred?", s.powers.get(*power).name))
        }
        Pending::ChargeSquare(..) => ("square", format!("{name}: charge to which square?")),
        Pending::PickUp => ("orb", format!("{name}: pick up which orb?")),
        Pending::Take => ("orb", format!("{name}: take which orb?")),
        Pending::Drop => ("orb", format!("{name}: drop which orb?")),
        Pending::Hand(None) | Pending::Dunk(None) => ("orb", format!("{name}: which orb?")),
        Pending::Hand(Some(_)) => ("target", format!("{name}: hand it to whom?")),
        Pending::Dunk(Some(_)) => ("pedestal", format!("{name}: dunk on which pedestal?")),
        Pending::Escape => ("status", format!("{name}: escape which status?")),
    };
    let mut opts = Vec::new();
    pending_options(s, u, p, &mut opts);
    (kind, prompt, opts)
}

/// The options of [`pending_question`], into `out`.
pub fn pending_options(s: &State, u: UnitIdx, p: &Pending, out: &mut impl Opts) {
    let orb_id = |o: OrbIdx| &*s.orbs[o as usize].id;
    match p {
        Pending::Move(mode) => {
            for q in move_destinations(s, u, *mode) {
                out.square(q, || label(|| format!("to {q}")));
            }
        }
        Pending::Shift => {
            for q in shift_squares(s, u) {
                out.square(q, || label(|| format!("shift to {q}")));
            }
        }
        Pending::Target(power) => {
            let def = s.powers.get(*power);
            let ts = if def.hook.as_deref() == Some("charge") {
                charge_targets(s, u, *power)
            } else {
                legal_targets(s, u, *power)
            };
            for t in ts {
                out.unit(s, t);
            }
            // from a Source Warp
            crate::engine::hooks::warp_options(s, u, *power).into_iter().for_each(|o| out.option(o));
            if !crate::engine::hooks::multi_options(s, u, *power).is_empty() {
                out.word("zone", "spread it over a 3x3 zone, 1 less damage (Multi-Sword, Multi-Staff)");
            }
        }
        Pending::MoreTargets(power, chosen) => {
            for t in legal_targets(s, u, *power).into_iter().filter(|t| !chosen.contains(t)) {
                out.unit(s, t);
            }
            out.labelled("done", || format!("no more targets ({} chosen)", chosen.len()));
        }
        Pending::Centre(power) => {
            let def = s.powers.get(*power);
            let Targeting::Area { range, size } = def.target else { unreachable!("an area power") };
            let range = range + crate::rules::query::sniper_range_bonus(s, u, def); // Sniper
            let size = size + crate::rules::query::area_growth(s, u, def); // Empowering Staff
            let allowed = crate::rules::control::check_power(s, u, def, &[]).is_ok();
            for q in zones::area_centres(s, u, range).into_iter().filter(|_| allowed) {
                out.square(q, || format!("centre the {size}x{size} area on {q}"));
            }
        }
        Pending::Zone(power) => {
            for q in crate::engine::hooks::multi_options(s, u, *power) {
                out.square(q, || format!("centre the 3x3 zone on {q}"));
            }
        }
        Pending::ChargeSquare(_, t) => {
            for q in charge_squares(s, u, *t) {
                out.square(q, || label(|| format!("charge to {q}")));
            }
        }
        Pending::PickUp => {
            for o in orbs_to_pick_up(s, u) {
                out.labelled(orb_id(o), || format!("orb {}", orb_id(o)));
            }
        }
        Pending::Take => {
            for o in orbs_to_take(s, u) {
                out.labelled(orb_id(o), || format!("orb {}", orb_id(o)));
            }
        }
        Pending::Drop => {
            for o in s.held_orbs(u) {
                out.labelled(orb_id(o), || format!("drop orb {} here", orb_id(o)));
            }
        }
        Pending::Hand(None) | Pending::Dunk(None) => {
            for o in s.held_orbs(u) {
                out.labelled(orb_id(o), || format!("orb {}", orb_id(o)));
            }
        }
        Pending::Hand(Some(o)) => {
            for t in s.units_on_map().filter(|&t| orbs::check_hand(s, u, *o, t).is_ok()) {
                out.labelled(who(s, t), || format!("hand it to {}", s.unit(t).name));
            }
        }
        Pending::Dunk(Some(o)) => {
            for (_, p) in dunk_options(s, u).into_iter().filter(|(x, _)| x == o) {
                let id = &s.arena.pedestals[p as usize].id;
                out.labelled(id, || format!("pedestal {id}"));
            }
        }
        Pending::Escape => {
            for k in escapable(s, u) {
                out.labelled(k.name(), || format!("escape {k}"));
            }
        }
    }
    out.word("cancel", "back to the action menu");
}

/// Answers the top-level menu.
pub fn answer_menu(cx: &mut Ctx, u: UnitIdx, option: &str, final_action: bool) -> Result<(), RuleError> {
    if !final_action {
        cx.push(Frame::Act { unit: u });
    }
    if crate::rules::query::is_removed(cx.s, u) && option != "end-turn" {
        return crate::engine::hooks::removed_answer_menu(cx, u, option);
    }
    enum Next {
        Do(Verb),
        Ask(Pending),
        Pass,
    }
    let s = &*cx.s;
    let next = match option {
        "end-turn" => Next::Do(Verb::EndTurn(Vec::new())),
        "pass" => Next::Pass,
        "move" => Next::Ask(Pending::Move(Mode::Walk)),
        "crawl" => Next::Ask(Pending::Move(Mode::Crawl)),
        "shift" => Next::Ask(Pending::Shift),
        "stand" => Next::Do(Verb::Stand),
        "escape" => {
            let e = escapable(s, u);
            if e.len() == 1 { Next::Do(Verb::Escape(e[0])) } else { Next::Ask(Pending::Escape) }
        }
        "pick-up" => Next::Ask(Pending::PickUp),
        "take" => Next::Ask(Pending::Take),
        "drop" => Next::Ask(Pending::Drop),
        "hand" => Next::Ask(Pending::Hand(None)),
        "dunk" => Next::Ask(Pending::Dunk(None)),
        "button" => {
            Next::Do(Verb::Button(exit_beside(s, u).ok_or_else(|| RuleError::malformed("no exit beside you"))?))
        }
        "stow" => Next::Do(Verb::Stow),
        "retrieve" => Next::Do(Verb::Retrieve),
        "drop-prone" => Next::Do(Verb::DropProne),
        other if other.starts_with("shake-off:") => {
            let k = StatusKind::parse(&other["shake-off:".len()..])
                .ok_or_else(|| RuleError::malformed(format!("unknown status in {other:?}")))?;
            Next::Do(Verb::ShakeOff(k))
        }
        "land" => Next::Do(Verb::Land),
        other => {
            let id = other
                .strip_prefix("power:")
                .ok_or_else(|| RuleError::malformed(format!("unknown menu option {other:?}")))?;
            let p = s.powers.find(id).ok_or_else(|| RuleError::malformed(format!("unknown power {id:?}")))?;
            let power =
                |targets| Next::Do(Verb::Power { power: p, targets, square: None, creative: false, advantage: false });
            match s.powers.get(p).target {
                _ if crate::rules::beasts::hooked(s.powers.get(p)) => power(vec![]),
                Targeting::None => power(vec![]),
                Targeting::Myself => power(vec![u]),
                Targeting::Burst { .. } => power(burst_targets(s, u, p)),
                Targeting::Area { .. } => Next::Ask(Pending::Centre(p)),
                _ if s.powers.get(p).every_target => power(legal_targets(s, u, p)),
                _ => Next::Ask(Pending::Target(p)),
            }
        }
    };
    match next {
        Next::Do(v) => {
            check_offered(cx.s, u, &v)?;
            execute(cx, u, v)?;
        }
        Next::Ask(p) => cx.push(Frame::Pending { unit: u, pending: p }),
        Next::Pass => {}
    }
    Ok(())
}

/// Whether a status came from a primitive that lets its bearer pull it off.
fn shake_off_status(s: &State, st: &crate::rules::statuses::Status) -> bool {
    st.origin.is_some_and(|p| {
        s.powers.get(p).effect.iter().any(|e| e.shake_off && e.status.as_deref() == Some(st.kind.name()))
    })
}

/// Statuses `u` could end by spending its Attack Action (Revealing Projectile).
fn shakeable(s: &State, u: UnitIdx) -> Vec<StatusKind> {
    let mut out: Vec<StatusKind> =
        s.unit(u).statuses.iter().filter(|st| shake_off_status(s, st)).map(|st| st.kind).collect();
    out.dedup();
    out
}

/// What a unit may do with a Move Action a power gives it (Tactics): the Move Action entries of
/// its menu, plus declining.
pub fn granted_move_options(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let mut out: Vec<DecisionOption> = if s.unit(u).on_map() && s.unit(u).granted_move {
        menu(s, u)
            .into_iter()
            .filter(|o| match o.id.strip_prefix("power:") {
                Some(p) => s.powers.find(p).is_some_and(|i| s.powers.get(i).action == ActionKind::Move),
                None => {
                    matches!(
                        o.id.as_str(),
                        "move" | "shift" | "crawl" | "stand" | "escape" | "pick-up" | "take" | "hand" | "dunk"
                    )
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    out.push(DecisionOption::new("decline", "do nothing with it"));
    out
}

/// Attack powers a unit could use for a granted attack (K-ACT-4), plus declining.
pub fn granted_options(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let mut out = Vec::new();
    let un = s.unit(u);
    if un.on_map() && !s.has(u, StatusKind::Stunned) {
        for &p in &un.powers {
            let def = s.powers.get(p);
            let spent = def.frequency == Frequency::Encounter && un.spent.contains(&p);
            let blocked = def.action != ActionKind::Attack
                || spent
                || def.grants_attacks() // K-ACT-8
                || check_wielding(s, u, def).is_err()
                || def.hook.is_some()
                || (crate::engine::hooks::brews(s).check_use)(s, u, p).is_err();
            let usable = !blocked
                && match def.target {
                    // What controls it (Frenzied, Panicked) limits a granted attack too.
                    Targeting::Burst { .. } => {
                        crate::rules::control::check_power(s, u, def, &burst_targets(s, u, p)).is_ok()
                    }
                    Targeting::Myself => crate::rules::control::check_power(s, u, def, &[u]).is_ok(),
                    Targeting::None | Targeting::Area { .. } => {
                        crate::rules::control::check_power(s, u, def, &[]).is_ok()
                    }
                    _ => has_legal_target(s, u, p),
                };
            if usable {
                out.push(DecisionOption::new(format!("power:{}", def.id), label(|| def.name.clone())));
            }
        }
    }
    out.push(DecisionOption::new("decline", "make no attack"));
    out
}

/// Options of an attack granted on terms: the attack powers it may use (then their target), or
/// with a set power the targets, or with the same target just that one; plus declining unless
/// the granter aims it.
pub fn grant_options(
    s: &State,
    u: UnitIdx,
    by: UnitIdx,
    power_target: UnitIdx,
    terms: &crate::content::powers::GrantDef,
) -> Vec<DecisionOption> {
    let _ = by;
    let mut out = match terms.power.as_deref().and_then(|p| s.powers.find(p)) {
        None => {
            let mut o = granted_options(s, u);
            o.retain(|x| x.id != "decline");
            o
        }
        Some(p) => {
            let un = s.unit(u);
            let usable = un.on_map()
                && !s.has(u, StatusKind::Stunned)
                && un.powers.contains(&p)
                && !(un.stowed && s.powers.get(p).is_attack())
                && !(s.powers.get(p).uses_implement() && s.has(u, StatusKind::Disarmed));
            let legal = if usable { legal_targets(s, u, p) } else { Vec::new() };
            let ts: Vec<UnitIdx> = if terms.same_target && legal.contains(&power_target) {
                vec![power_target]
            } else if terms.same_target && s.unit(power_target).on_map() {
                Vec::new() // still there but out of reach: no second attack
            } else {
                legal
            };
            ts.into_iter()
                .filter(|&t| !terms.enemies_only || s.enemies(u, t))
                .map(|t| DecisionOption::new(who(s, t).to_string(), format!("attack {}", s.unit(t).name)))
                .collect()
        }
    };
    if !terms.granter_aims || out.is_empty() {
        out.push(DecisionOption::new("decline", "make no attack"));
    }
    out
}

/// Answers an attack granted on terms.
pub fn answer_grant(
    cx: &mut Ctx,
    u: UnitIdx,
    by: UnitIdx,
    terms: &crate::content::powers::GrantDef,
    option: &str,
) -> Result<(), RuleError> {
    if option == "decline" {
        return Ok(());
    }
    cx.push(Frame::GrantEnd { unit: u });
    cx.emit(Event::Granted { unit: cx.s.who(u), by: Some(cx.s.who(by)) });
    if terms.no_role_boost {
        cx.emit(Event::GrantTerms { unit: cx.s.who(u), no_role_boost: true });
    }
    match terms.power.as_deref().and_then(|p| cx.s.powers.find(p)) {
        None => answer_menu(cx, u, option, true),
        Some(power) => {
            let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
            let verb = Verb::Power { power, targets: vec![t], square: None, creative: false, advantage: false };
            check(cx.s, u, &verb)?;
            execute(cx, u, verb)
        }
    }
}

/// Answers a granted attack: picks the power (its target comes next), or declines.
pub fn answer_granted(cx: &mut Ctx, u: UnitIdx, by: UnitIdx, option: &str) -> Result<(), RuleError> {
    if option == "decline" {
        return Ok(());
    }
    cx.push(Frame::GrantEnd { unit: u });
    cx.emit(Event::Granted { unit: cx.s.who(u), by: Some(cx.s.who(by)) });
    // The same menu answer as on its own turn, with the grant standing in for the action.
    answer_menu(cx, u, option, true)
}

/// Answers a pending menu choice.
pub fn answer_pending(cx: &mut Ctx, u: UnitIdx, p: Pending, option: &str) -> Result<(), RuleError> {
    if option == "cancel" {
        return Ok(());
    }
    let s = &*cx.s;
    let square = || Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"));
    let orb = || s.find_orb(option).ok_or_else(|| RuleError::malformed(format!("no orb {option:?}")));
    let verb = match p {
        Pending::Move(mode) => {
            let to = square()?;
            let path = movement::route_to(s, u, to, mode)
                .ok_or_else(|| RuleError::malformed(format!("{to} cannot be reached")))?;
            Verb::Move { path, mode }
        }
        Pending::Shift => Verb::Shift(square()?),
        Pending::Target(power) if option == "zone" => {
            cx.push(Frame::Pending { unit: u, pending: Pending::Zone(power) });
            return Ok(());
        }
        Pending::Zone(power) => {
            let centre = square()?;
            let targets = crate::engine::hooks::multi_targets(s, u, power, centre);
            Verb::Power { power, targets, square: Some(centre), creative: false, advantage: false }
        }
        Pending::Target(power) if option.contains('@') && s.find_unit(option).is_none() => {
            let (t, from) = crate::rules::query::parse_warp_option(s, option)
                .ok_or_else(|| RuleError::malformed(format!("no unit and warp square in {option:?}")))?;
            Verb::WarpPower { power, targets: vec![t], from }
        }
        Pending::Target(power) => {
            let t = s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
            if s.powers.get(power).hook.as_deref() == Some("charge") {
                cx.push(Frame::Pending { unit: u, pending: Pending::ChargeSquare(power, t) });
                return Ok(());
            }
            let verb = Verb::Power { power, targets: vec![t], square: None, creative: false, advantage: false };
            if s.powers.get(power).max_targets_at(s.unit(u).level) > 1 {
                check(s, u, &verb)?;
                cx.push(Frame::Pending { unit: u, pending: Pending::MoreTargets(power, vec![t]) });
                return Ok(());
            }
            verb
        }
        Pending::MoreTargets(power, mut chosen) => {
            if option != "done" {
                let t = s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
                chosen.push(t);
                let most = s.powers.get(power).max_targets_at(s.unit(u).level) as usize;
                if chosen.len() < most {
                    let verb =
                        Verb::Power { power, targets: chosen.clone(), square: None, creative: false, advantage: false };
                    check(s, u, &verb)?;
                    cx.push(Frame::Pending { unit: u, pending: Pending::MoreTargets(power, chosen) });
                    return Ok(());
                }
            }
            Verb::Power { power, targets: chosen, square: None, creative: false, advantage: false }
        }
        Pending::Centre(power) => {
            let centre = square()?;
            let targets = zones::area_targets(s, u, power, centre);
            Verb::Power { power, targets, square: Some(centre), creative: false, advantage: false }
        }
        Pending::ChargeSquare(power, t) => {
            Verb::Power { power, targets: vec![t], square: Some(square()?), creative: false, advantage: false }
        }
        Pending::PickUp => Verb::PickUp(orb()?),
        Pending::Take => Verb::Take(orb()?),
        Pending::Drop => Verb::Drop(orb()?, s.unit(u).pos.unwrap()),
        Pending::Hand(None) => {
            cx.push(Frame::Pending { unit: u, pending: Pending::Hand(Some(orb()?)) });
            return Ok(());
        }
        Pending::Hand(Some(o)) => {
            Verb::Hand(o, s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?)
        }
        Pending::Dunk(None) => {
            cx.push(Frame::Pending { unit: u, pending: Pending::Dunk(Some(orb()?)) });
            return Ok(());
        }
        Pending::Dunk(Some(o)) => {
            let ped = s
                .arena
                .pedestals
                .iter()
                .position(|p| p.id == option)
                .ok_or_else(|| RuleError::malformed(format!("no pedestal {option:?}")))?;
            Verb::Dunk(o, ped as u8)
        }
        Pending::Escape => Verb::Escape(
            StatusKind::parse(option).ok_or_else(|| RuleError::malformed(format!("no status {option:?}")))?,
        ),
    };
    check_offered(cx.s, u, &verb)?;
    execute(cx, u, verb)
}

/// [`check`] for a verb an offered option makes. An answer is one of the options the menu
/// offered (the session checks that before `Game::apply`), and the menus offer only what
/// `check` allows: the conformance harness holds every offered option to being accepted. So a
/// release build does not check it twice; test builds (debug assertions on) still do.
fn check_offered(s: &State, u: UnitIdx, v: &Verb) -> Result<(), RuleError> {
    if cfg!(debug_assertions) { check(s, u, v) } else { Ok(()) }
}

/// Turns a complete command into a verb, resolving ids.
pub fn parse(s: &State, c: &Command) -> Result<(UnitIdx, Verb), RuleError> {
    let u = s.find_unit(&c.unit).ok_or_else(|| RuleError::malformed(format!("no unit called {:?}", c.unit)))?;
    let unit_id = |id: &str| s.find_unit(id).ok_or_else(|| RuleError::malformed(format!("no unit called {id:?}")));
    let orb_id = |id: &str| s.find_orb(id).ok_or_else(|| RuleError::malformed(format!("no orb called {id:?}")));
    let mut verbs: Vec<Verb> = Vec::new();
    if let Some(pw) = &c.power {
        let p = s.powers.find(pw).ok_or_else(|| RuleError::malformed(format!("no power called {pw:?}")))?;
        let def = s.powers.get(p);
        let mut targets: Vec<UnitIdx> = match &c.target {
            Some(Targets::One(t)) => vec![unit_id(t)?],
            Some(Targets::Many(ts)) => ts.iter().map(|t| unit_id(t)).collect::<Result<_, _>>()?,
            None => Vec::new(),
        };
        if targets.is_empty() {
            match def.target {
                _ if crate::rules::beasts::hooked(def) => {}
                Targeting::Myself => targets.push(u),
                Targeting::Burst { .. } if s.unit(u).on_map() => targets = burst_targets(s, u, p),
                Targeting::Area { .. } if s.unit(u).on_map() => {
                    let centre = c.square.ok_or_else(|| {
                        RuleError::malformed(format!("{} needs the centre of its area: square = [x, y]", def.name))
                    })?;
                    targets = zones::area_targets(s, u, p, centre);
                }
                Targeting::None | Targeting::Burst { .. } | Targeting::Area { .. } => {}
                _ if c.creative => targets.push(u),
                _ if def.every_target && s.unit(u).on_map() => targets = legal_targets(s, u, p),
                // Multi-Sword, Multi-Staff: the zone's centre instead of a target.
                Targeting::Implement if c.square.is_some() && s.unit(u).on_map() => {
                    targets = crate::engine::hooks::multi_targets(s, u, p, c.square.expect("checked"))
                }
                _ => {
                    return Err(RuleError::malformed(format!(
                        "{} needs a target: add target = \"<unit id>\"",
                        def.name
                    )));
                }
            }
        }
        if let Some(from) = c.from {
            verbs.push(Verb::WarpPower { power: p, targets, from }); // Source Warp
        } else {
            verbs.push(Verb::Power {
                power: p,
                targets,
                square: c.square,
                creative: c.creative,
                advantage: c.advantage,
            });
        }
    }
    if let Some(r) = &c.move_to {
        verbs.push(route_verb(s, u, r, Mode::Walk)?);
    }
    if let Some(r) = &c.crawl {
        verbs.push(route_verb(s, u, r, Mode::Crawl)?);
    }
    if let Some(p) = c.shift {
        verbs.push(Verb::Shift(p));
    }
    if c.stand {
        verbs.push(Verb::Stand);
    }
    if c.escape {
        let e = escapable(s, u);
        verbs.push(Verb::Escape(e.first().copied().unwrap_or(StatusKind::Grabbed)));
    }
    if let Some(o) = &c.pick_up {
        verbs.push(Verb::PickUp(orb_id(o)?));
    }
    if let Some(o) = &c.drop {
        let at = c.at.or(s.unit(u).pos).ok_or_else(|| RuleError::malformed("say where to drop it with at = [x, y]"))?;
        verbs.push(Verb::Drop(orb_id(o)?, at));
    }
    if let Some(o) = &c.hand {
        let to =
            c.to.as_deref().ok_or_else(|| RuleError::malformed("say who receives the orb with to = \"<unit id>\""))?;
        verbs.push(Verb::Hand(orb_id(o)?, unit_id(to)?));
    }
    if let Some(o) = &c.take {
        verbs.push(Verb::Take(orb_id(o)?));
    }
    if let Some(o) = &c.dunk {
        let o = orb_id(o)?;
        let ped =
            match &c.pedestal {
                Some(id) => s
                    .arena
                    .pedestals
                    .iter()
                    .position(|p| &p.id == id)
                    .ok_or_else(|| RuleError::malformed(format!("no pedestal called {id:?}")))?
                    as u8,
                None => dunk_options(s, u).into_iter().find(|(x, _)| *x == o).map(|(_, p)| p).unwrap_or_else(|| {
                    s.arena.pedestals.iter().position(|p| p.side == s.unit(u).side).unwrap_or(0) as u8
                }),
            };
        verbs.push(Verb::Dunk(o, ped));
    }
    if c.button {
        let e = exit_beside(s, u).ok_or_else(|| {
            crate::rules::actions::refuse(
                "K-DUN-6",
                format_args!("{} must be in the Dungeon beside an exit to hit its button", c.unit),
            )
        })?;
        verbs.push(Verb::Button(e));
    }
    if c.stow {
        verbs.push(Verb::Stow);
    }
    if c.retrieve {
        verbs.push(Verb::Retrieve);
    }
    if c.drop_prone {
        verbs.push(Verb::DropProne);
    }
    if c.land {
        verbs.push(Verb::Land);
    }
    if c.end_turn {
        let fail = c
            .fail_saves
            .iter()
            .map(|n| {
                StatusKind::parse(n).ok_or_else(|| RuleError::malformed(format!("fail_saves: no status called {n:?}")))
            })
            .collect::<Result<_, _>>()?;
        verbs.push(Verb::EndTurn(fail));
    }
    match verbs.len() {
        1 => Ok((u, verbs.pop().unwrap())),
        0 => Err(RuleError::malformed(
            "the command has no action: give one of power, move, shift, crawl, stand, escape, pick_up, drop, hand, take, dunk, button, stow, retrieve, drop_prone, land, end_turn",
        )),
        _ => Err(RuleError::malformed("the command has more than one action: give one per step")),
    }
}

fn route_verb(s: &State, u: UnitIdx, r: &Route, mode: Mode) -> Result<Verb, RuleError> {
    if crate::rules::query::is_removed(s, u) {
        // Outside existence only the destination counts.
        let to = match r {
            Route::To(to) => Some(*to),
            Route::Path(p) => p.last().copied(),
        };
        return Ok(Verb::Move { path: to.into_iter().collect(), mode });
    }
    let path = match r {
        Route::Path(p) => p.clone(),
        Route::To(to) => movement::route_to(s, u, *to, mode).ok_or_else(|| {
            crate::rules::actions::refuse("K-MOVE-1", format_args!("{} cannot reach {to} this move", s.unit(u).id))
        })?,
    };
    Ok(Verb::Move { path, mode })
}

/// Checks a verb against every rule that could refuse it.
pub fn check(s: &State, u: UnitIdx, v: &Verb) -> Result<(), RuleError> {
    if let Some(r) = crate::engine::hooks::removed_check(s, u, v) {
        return r; // a removed creature only moves
    }
    if !s.unit(u).on_map() && !matches!(v, Verb::EndTurn(_)) {
        return Err(crate::rules::actions::refuse(
            "K-DUN-1",
            format_args!("{} is Taken Out and not on the map", who(s, u)),
        ));
    }
    match v {
        Verb::Move { path, mode } => {
            check_slot(s, u, Slot::Move)?;
            check_move_allowed(s, u, *mode)?;
            movement::check_path(s, u, path, *mode)?;
            crate::rules::control::check_move(s, u, *path.last().expect("checked"))
        }
        Verb::Shift(to) => check_shift(s, u, *to),
        Verb::Stand => {
            check_slot(s, u, Slot::Move)?;
            if !s.has(u, StatusKind::Prone) {
                return Err(crate::rules::actions::refuse("K-MOVE-3", format_args!("{} is not Prone", who(s, u))));
            }
            Ok(())
        }
        Verb::Escape(k) => {
            check_slot(s, u, Slot::Move)?;
            if !escapable(s, u).contains(k) {
                return Err(crate::rules::actions::refuse(
                    "K-SAVE-3",
                    format_args!("{} has nothing to escape", who(s, u)),
                ));
            }
            Ok(())
        }
        Verb::Power { power, targets, square, creative, advantage } => {
            check_power_use(s, u, *power, *creative)?;
            let def = s.powers.get(*power);
            crate::rules::control::check_power(s, u, def, targets)?;
            if crate::rules::beasts::hooked(def) {
                return crate::rules::beasts::check_verb(def, targets, *creative);
            }
            if *creative && def.effect.is_empty() {
                return Err(crate::rules::actions::refuse(
                    "K-CREAT-1",
                    format_args!("{} has no Effect line to apply", def.name),
                ));
            }
            if *creative && !def.is_attack() {
                return Err(crate::rules::actions::refuse(
                    "K-CREAT-1",
                    format_args!("Creative Use applies an attack power's Effect; {} is not an attack", def.name),
                ));
            }
            if let (Some(centre), Targeting::Implement, false) = (square, def.target, *creative) {
                // Multi-Sword, Multi-Staff: a single-target implement attack spread over a zone.
                crate::engine::hooks::check_multi(s, u, *power, *centre, targets)?;
                return (crate::engine::hooks::triggered(s).check_use)(s, u, *power, targets, *creative);
            }
            let single = matches!(
                def.target,
                Targeting::Implement
                    | Targeting::Melee
                    | Targeting::Ranged { .. }
                    | Targeting::Ally { .. }
                    | Targeting::Creature { .. }
                    | Targeting::Myself
            );
            if def.every_target && !*creative {
                let all = legal_targets(s, u, *power);
                if all.is_empty() || targets.len() != all.len() || targets.iter().any(|t| !all.contains(t)) {
                    return Err(crate::rules::actions::refuse(
                        "K-MULTI-1",
                        format_args!(
                            "{} targets every creature it can; list all of them (in the order to roll) or none",
                            def.name
                        ),
                    ));
                }
            }
            let most = if def.every_target && !*creative {
                usize::MAX
            } else if *creative {
                1
            } else {
                def.max_targets_at(s.unit(u).level) as usize
            };
            if (single || *creative) && (targets.is_empty() || targets.len() > most) {
                return Err(RuleError::malformed(if most == 1 {
                    format!("{} takes exactly one target", def.name)
                } else {
                    format!("{} takes one to {most} targets", def.name)
                }));
            }
            if targets.iter().enumerate().any(|(i, t)| targets[..i].contains(t)) {
                return Err(RuleError::malformed(format!("{} names the same target twice", def.name)));
            }
            if let Targeting::Area { range, .. } = def.target
                && !*creative
            {
                let centre = square.ok_or_else(|| {
                    RuleError::malformed(format!("{} needs the centre of its area: square = [x, y]", def.name))
                })?;
                let range = range + crate::rules::query::sniper_range_bonus(s, u, def); // Sniper
                if !zones::area_centres(s, u, range).contains(&centre) {
                    return Err(crate::rules::actions::refuse(
                        "K-ZONE-1",
                        format_args!(
                            "{}'s area must be centred on the map within {range} squares of {}",
                            def.name,
                            who(s, u)
                        ),
                    ));
                }
                let all = zones::area_targets(s, u, *power, centre);
                if targets.len() != all.len() || targets.iter().any(|t| !all.contains(t)) {
                    return Err(crate::rules::actions::refuse(
                        "K-MULTI-1",
                        "an area affects everyone in it the power names; list all of them (in the order to roll) or none",
                    ));
                }
                return Ok(());
            }
            if let Targeting::Burst { radius } = def.target {
                let all = burst_targets(s, u, *power);
                if !*creative && (targets.len() != all.len() || targets.iter().any(|t| !all.contains(t))) {
                    return Err(crate::rules::actions::refuse(
                        "K-MULTI-1",
                        format_args!(
                            "a burst targets everyone within {radius} but its user; list all of them (in the order to roll) or none"
                        ),
                    ));
                }
            }
            for &t in targets {
                check_target(s, u, *power, t, *creative)?;
            }
            (crate::engine::hooks::triggered(s).check_use)(s, u, *power, targets, *creative)?;
            if *advantage && targets.iter().any(|&t| s.enemies(u, t)) {
                return Err(crate::rules::actions::refuse(
                    "K-CREAT-2",
                    "only allies you attack on purpose can grant you Advantage",
                ));
            }
            if def.hook.as_deref() == Some("charge") {
                let t = targets[0];
                if !s.enemies(u, t) {
                    return Err(crate::rules::actions::refuse("K-MOVE-11", "a Charge is made against an enemy"));
                }
                let sq = square
                    .ok_or_else(|| RuleError::malformed("a Charge needs the square to charge to: square = [x, y]"))?;
                check_move_allowed(s, u, Mode::Walk)?;
                if !charge_squares(s, u, t).contains(&sq) {
                    return Err(crate::rules::actions::refuse(
                        "K-MOVE-11",
                        format_args!(
                            "{sq} is not a square next to {} that a Charge can reach, every step closer and none through Difficult Terrain",
                            who(s, t)
                        ),
                    ));
                }
            }
            if def.hook.as_deref() == Some("swap-places") {
                let t = targets[0];
                let (a, b) = (s.unit(u), s.unit(t));
                if a.size != b.size {
                    return Err(crate::rules::actions::refuse(
                        "K-FM-5",
                        "only creatures of the same size can swap places",
                    ));
                }
            }
            Ok(())
        }
        Verb::PickUp(o) => {
            check_slot(s, u, Slot::Move)?;
            orbs::check_pick_up(s, u, *o)
        }
        Verb::Drop(o, at) => {
            check_free(s, u)?;
            orbs::check_drop(s, u, *o, *at)
        }
        Verb::Hand(o, to) => {
            check_slot(s, u, Slot::Move)?;
            orbs::check_hand(s, u, *o, *to)
        }
        Verb::Take(o) => {
            check_slot(s, u, Slot::Move)?;
            orbs::check_take(s, u, *o)
        }
        Verb::Dunk(o, p) => {
            check_slot(s, u, Slot::Move)?;
            orbs::check_dunk(s, u, *o, *p)
        }
        Verb::Button(e) => {
            check_button(s, u)?;
            if exit_beside(s, u) != Some(*e) {
                return Err(crate::rules::actions::refuse(
                    "K-DUN-6",
                    format_args!("{} must be in the Dungeon beside an exit to hit its button", who(s, u)),
                ));
            }
            Ok(())
        }
        Verb::Stow => {
            check_free(s, u)?;
            if s.unit(u).stowed {
                return Err(crate::rules::actions::refuse("K-IMP-10", "the implement is already stowed"));
            }
            Ok(())
        }
        Verb::Retrieve => {
            check_free(s, u)?;
            if !s.unit(u).stowed {
                return Err(crate::rules::actions::refuse("K-IMP-10", "the implement is not stowed"));
            }
            if s.held_orbs(u).count() + s.unit(u).brewer.elixirs.len() >= 2 && !crate::rules::query::handless(s, u) {
                return Err(crate::rules::actions::refuse(
                    "K-ORB-6",
                    "both hands hold orbs: drop or hand one over before taking the implement back",
                ));
            }
            Ok(())
        }
        Verb::ShakeOff(k) => {
            check_slot(s, u, Slot::Attack)?;
            if !shakeable(s, u).contains(k) {
                return Err(crate::rules::actions::refuse(
                    "K-ACT-1",
                    format_args!("{} has no {k} that it can end by spending its Attack Action", who(s, u)),
                ));
            }
            Ok(())
        }
        Verb::DropProne => {
            check_free(s, u)?;
            if s.has(u, StatusKind::Grabbed) || s.has(u, StatusKind::Restrained) || s.has(u, StatusKind::Prone) {
                return Err(crate::rules::actions::refuse(
                    "K-ST-Prone",
                    "a creature that is Grabbed, Restrained or already Prone cannot drop Prone",
                ));
            }
            Ok(())
        }
        Verb::Land => {
            check_free(s, u)?;
            if !s.has(u, StatusKind::Flying) {
                return Err(crate::rules::actions::refuse("K-ST-Flying", format_args!("{} is not Flying", who(s, u))));
            }
            if s.unit(u).statuses.iter().any(|st| {
                st.kind == StatusKind::Flying
                    && (st.source.is_some_and(|src| src != u) || (crate::engine::hooks::charms(s).forced_flight)(s, st))
            }) {
                return Err(crate::rules::actions::refuse(
                    "K-ST-Flying",
                    format_args!("{} is forced to fly and cannot land by choice", who(s, u)),
                ));
            }
            Ok(())
        }
        Verb::EndTurn(_) if crate::rules::control::must_still_act(s, u).is_some() => {
            Err(crate::rules::control::must_still_act(s, u).expect("checked"))
        }
        Verb::EndTurn(_) if movement::inside_wall(s, u) && can_walk_out_of_wall(s, u) => {
            Err(crate::rules::actions::refuse(
                "K-ST-Phasing",
                format_args!("{} is inside a wall and may not end its turn there: move out first", who(s, u)),
            ))
        }
        Verb::EndTurn(_) => Ok(()),
        Verb::WarpPower { power, targets, from } => crate::engine::hooks::check_warp(s, u, *power, targets, *from),
    }
}

/// K-MOVE-5: standing up or escaping where the square would hurt puts the creature on an
/// adjacent legal square instead (the first safe one in reading order; see rulings).
fn step_clear_of_danger(cx: &mut Ctx, u: UnitIdx, why: &str) {
    let p = cx.s.unit(u).pos.unwrap();
    if crate::rules::zones::dangerous(cx.s, u, p) {
        let size = cx.s.unit(u).size;
        let safe = p
            .neighbours()
            .into_iter()
            .filter(|&q| movement::can_stand(cx.s, u, q, size) && !crate::rules::zones::dangerous(cx.s, u, q))
            .min_by_key(|q| (q.y, q.x));
        if let Some(q) = safe {
            cx.emit(Event::Placed { unit: cx.s.who(u), at: q, why: why.into() });
        }
    }
}

fn spend(cx: &mut Ctx, u: UnitIdx, slot: Slot) {
    if slot == Slot::Move {
        (crate::engine::hooks::taming(cx.s).move_action)(cx, u); // L1660: the Tamer's creatures move too
    }
    if slot == Slot::Move && cx.s.unit(u).granted_move {
        // The granted Move Action is used: it was not one of the unit's own.
        cx.emit(Event::MoveGranted { unit: cx.s.who(u), by: None });
        return;
    }
    cx.emit(Event::ActionSpent { unit: cx.s.who(u), slot });
}

fn free(cx: &mut Ctx, u: UnitIdx, what: &str) {
    cx.emit(Event::FreeAction { unit: cx.s.who(u), what: what.into() });
}

/// Carries out a checked verb.
pub fn execute(cx: &mut Ctx, u: UnitIdx, v: Verb) -> Result<(), RuleError> {
    if let Verb::Move { path, .. } = &v
        && let Some(&q) = path.last()
        && crate::rules::query::is_removed(cx.s, u)
    {
        return crate::engine::hooks::removed_move_to(cx, u, q);
    }
    match v {
        Verb::EndTurn(fail) => {
            if let Some(Frame::Act { unit }) = cx.s.flow.last()
                && *unit == u
            {
                cx.s.flow.pop();
            }
            cx.push(Frame::EndTurn { unit: u, fail });
        }
        Verb::Move { path, mode } => {
            spend(cx, u, Slot::Move);
            if let Some(crate::engine::records::control::Compulsion::Flee { .. }) = cx.s.unit(u).compulsion {
                cx.emit(Event::TurnCutShort { unit: cx.s.who(u), why: "it has fled".into() });
            }
            let how = if mode == Mode::Crawl { How::Crawl } else { How::Walk };
            let limit = (crate::engine::hooks::taming(cx.s).vines)(cx, u); // Vine Worms
            cx.push(Frame::Move(MoveFrame { limit, ..MoveFrame::new(u, path, how) }));
        }
        Verb::Shift(to) => {
            spend(cx, u, Slot::Move);
            (crate::engine::hooks::taming(cx.s).vines)(cx, u); // Vine Worms
            cx.push(Frame::Move(MoveFrame::new(u, vec![to], How::Shift)));
        }
        Verb::Stand => {
            spend(cx, u, Slot::Move);
            stand_up(cx, u);
        }
        Verb::Escape(kind) => {
            spend(cx, u, Slot::Move);
            escape_attempt(cx, u, kind)?;
        }
        Verb::Power { power, targets, square, creative, advantage } => {
            use_power(cx, u, power, targets, square, creative, advantage, None)?
        }
        Verb::WarpPower { power, targets, from } => use_power(cx, u, power, targets, None, false, false, Some(from))?,
        Verb::PickUp(o) => {
            spend(cx, u, Slot::Move);
            orbs::pick_up(cx, u, o);
        }
        Verb::Drop(o, at) => {
            free(cx, u, "drops an orb");
            orbs::drop(cx, u, o, at);
        }
        Verb::Hand(o, to) => {
            spend(cx, u, Slot::Move);
            orbs::give(cx, u, o, to);
        }
        Verb::Take(o) => {
            spend(cx, u, Slot::Move);
            let OrbLoc::Held { by } = cx.s.orbs[o as usize].loc else { unreachable!("checked") };
            orbs::give(cx, by, o, u);
        }
        Verb::Dunk(o, p) => {
            spend(cx, u, Slot::Move);
            orbs::dunk(cx, u, o, p);
        }
        Verb::Button(e) if crate::rules::team_traits::free_button(cx.s, u) => {
            free(cx, u, "hits the button (Get Out of Jail Free)");
            let with_orb = cx.s.held_orbs(u).any(|o| cx.s.orbs[o as usize].dungeon_orb);
            cx.emit(Event::ButtonHit { unit: cx.s.who(u), exit: e, with_orb });
        }
        Verb::Button(e) => {
            spend(cx, u, Slot::Attack);
            crate::engine::hooks::attack_action_spent(cx, u)?; // Jinxer
            let with_orb = cx.s.held_orbs(u).any(|o| cx.s.orbs[o as usize].dungeon_orb);
            cx.emit(Event::ButtonHit { unit: cx.s.who(u), exit: e, with_orb });
        }
        Verb::Stow => {
            free(cx, u, "stows the implement");
            cx.emit(Event::Stowed { unit: cx.s.who(u), stowed: true });
        }
        Verb::Retrieve => {
            free(cx, u, "takes the implement back");
            cx.emit(Event::Stowed { unit: cx.s.who(u), stowed: false });
        }
        Verb::ShakeOff(k) => {
            spend(cx, u, Slot::Attack);
            crate::engine::hooks::attack_action_spent(cx, u)?; // Jinxer
            let shaken: Vec<crate::rules::statuses::Status> =
                cx.s.unit(u).statuses.iter().filter(|st| st.kind == k && shake_off_status(cx.s, st)).copied().collect();
            // What came with it from the same power and source goes too (Talisman of Distraction's Dazed).
            let ending: Vec<crate::rules::statuses::Status> =
                cx.s.unit(u)
                    .statuses
                    .iter()
                    .filter(|st| shaken.iter().any(|x| x.origin == st.origin && x.source == st.source))
                    .copied()
                    .collect();
            for st in ending {
                cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "pulled off".into() });
            }
        }
        Verb::DropProne => {
            free(cx, u, "drops Prone");
            attack::give_status(
                cx,
                u,
                crate::rules::statuses::Status::simple(StatusKind::Prone, Duration::Indefinite),
                "dropped Prone",
            );
        }
        Verb::Land => {
            free(cx, u, "stops Flying");
            for st in cx.s.unit(u).statuses.clone().into_iter().filter(|s| s.kind == StatusKind::Flying) {
                cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "landed".into() });
            }
            movement::settle_on_legal_square(cx, u, "lands beside the creature below");
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)] // `from`: a Source Warp's square (warp_origin)
fn use_power(
    cx: &mut Ctx,
    u: UnitIdx,
    power: u16,
    targets: Vec<UnitIdx>,
    square: Option<Pos>,
    creative: bool,
    advantage: bool,
    from: Option<Pos>,
) -> Result<(), RuleError> {
    let table = cx.s.powers.clone(); // shared: the power is read, not copied
    let def = table.get(power);
    let granted = cx.s.unit(u).granted_by.is_some() && def.action == ActionKind::Attack;
    if granted {
        // K-ACT-4: no action of its own is spent.
    } else if creative {
        spend(cx, u, Slot::Attack);
        crate::engine::hooks::attack_action_spent(cx, u)?; // Jinxer
    } else if let Some(slot) = slot_of(def.action) {
        spend(cx, u, slot);
        if slot == Slot::Attack {
            crate::engine::hooks::attack_action_spent(cx, u)?; // Jinxer
        }
    } else {
        free(cx, u, &format!("uses {}", def.name));
    }
    if def.frequency == Frequency::Encounter {
        cx.emit(Event::EncounterSpent { unit: cx.s.who(u), power, name: def.name.clone() });
    }
    if creative {
        // K-CREAT-1: the Effect line, no roll, no damage.
        cx.emit(Event::PowerUsed {
            unit: cx.s.who(u),
            power: format!("{} (Creative Use)", def.name),
            targets: targets.iter().map(|&t| cx.s.who(t)).collect(),
        });
        let effects: Vec<_> = def
            .effect
            .iter()
            .map(|e| crate::content::powers::Effect { damage: None, damage_if_grabbed_by_you: None, ..e.clone() })
            .collect();
        attack::apply_effects(cx, u, targets[0], power, &effects)?;
        (crate::engine::hooks::features(cx.s).after_effect)(cx, u, targets[0], def, true); // Creative, Cheerful
        return Ok(());
    }
    // A power hook a class, role or rule area registered (no name is in two lists, nor one of
    // the core's own below).
    if let Some(f) = def.hook.and_then(|h| crate::engine::hooks::table(cx.s).power(h)) {
        return f(cx, &crate::engine::hooks::PowerUse { unit: u, power, targets: &targets, square });
    }
    match def.hook.as_deref() {
        Some("reveal") => {
            // K-CONC-5: every Hidden creature within 2 squares stops being Hidden.
            cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![] });
            let p = cx.s.unit(u).pos.unwrap();
            let size = cx.s.unit(u).size;
            let mut found = Vec::new();
            for t in cx.s.units_on_map() {
                let tu = cx.s.unit(t);
                if t != u && distance(p, size, tu.pos.unwrap(), tu.size) <= 2 {
                    for st in tu.statuses.iter().filter(|s| s.kind == StatusKind::Hidden) {
                        found.push((t, *st));
                    }
                }
            }
            if found.is_empty() {
                cx.emit(Event::Note { text: format!("{} finds nobody hidden nearby", cx.s.unit(u).id) });
            }
            for (t, st) in found {
                cx.emit(Event::StatusEnded {
                    unit: cx.s.who(t),
                    status: st,
                    why: format!("revealed by {}", cx.s.unit(u).id),
                });
            }
            Ok(())
        }
        Some("reversal-of-fortune") => {
            cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![] });
            cx.emit(Event::Reversal { unit: cx.s.who(u), armed: true });
            Ok(())
        }
        Some("swap-places") => {
            let t = targets[0];
            cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![cx.s.who(t)] });
            let (a, b) = (cx.s.unit(u).pos.unwrap(), cx.s.unit(t).pos.unwrap());
            cx.emit(Event::Moved { unit: cx.s.who(u), from: a, to: b, how: How::Teleport });
            cx.emit(Event::Moved { unit: cx.s.who(t), from: b, to: a, how: How::Teleport });
            // K-FM-5: a teleport escapes Grabs.
            for who_ in [u, t] {
                for st in cx.s.unit(who_).statuses.clone().into_iter().filter(|s| s.kind == StatusKind::Grabbed) {
                    cx.emit(Event::StatusEnded {
                        unit: cx.s.who(who_),
                        status: st,
                        why: "teleported out of the Grab".into(),
                    });
                }
            }
            crate::rules::zones::entered(cx, u, a, b, Some(u))?;
            crate::rules::zones::entered(cx, t, b, a, Some(u))?;
            (crate::engine::hooks::features(cx.s).teleported)(cx, u, u); // Teleportation Specialist
            (crate::engine::hooks::features(cx.s).teleported)(cx, u, t);
            Ok(())
        }
        Some("charge") => {
            let t = targets[0];
            let sq = square.expect("checked");
            let from = cx.s.unit(u).pos.unwrap();
            // K-MOVE-11: the run, then a basic sword attack; Hidden chargers keep Advantage (K-ADV-3).
            let attack_power = cx.s.powers.find("basic-implement-attack").expect("built-in");
            let frame = AttackFrame {
                // Initial Rush charges with the Move Action: no turn end (K-ACT-5), no Role Boost.
                via_action: def.action == ActionKind::Attack,
                no_boost: def.no_role_boost,
                declare: true,
                ..AttackFrame::new(u, attack_power, vec![t], sq)
            };
            cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![cx.s.who(t)] });
            if crate::rules::query::has_advanced(cx.s, u, crate::engine::records::advanced::Advanced::ChargingSword)
                || crate::rules::query::misty_charge(cx.s, u)
            {
                // Charging Sword: the attack is chosen once the run is over.
                let (via_action, no_boost) = (frame.via_action, frame.no_boost);
                let ask = crate::engine::frames::roles::AdvancedFrame::ChargeAttack {
                    unit: u,
                    target: t,
                    via_action,
                    no_boost,
                };
                cx.push(Frame::Advanced(ask));
            } else {
                cx.push(Frame::Attack(Box::new(frame)));
            }
            if sq != from {
                let path = movement::route_to(cx.s, u, sq, Mode::Charge(t)).unwrap_or(vec![sq]);
                cx.push(Frame::Move(MoveFrame::new(u, path, How::Charge)));
            }
            Ok(())
        }
        _ => {
            if let Some(at) = from {
                cx.emit(crate::engine::events::Event::Note {
                    text: format!("{} attacks from its Source Warp at {at}", cx.s.unit(u).id),
                });
            }
            // An area is judged from its centre (K-COV-2), and leaves its zone first.
            let multi = square.is_some() && def.target == Targeting::Implement; // Multi-Sword, Multi-Staff
            let origin = square
                .filter(|_| multi || matches!(def.target, Targeting::Area { .. }))
                .unwrap_or(cx.s.unit(u).pos.unwrap());
            let frame = AttackFrame {
                via_action: def.action == ActionKind::Attack && !granted,
                granted_advantage: advantage,
                multi,
                warp: from.is_some(), // Source Warp
                ..AttackFrame::new(u, power, targets, from.unwrap_or(origin))
            };
            attack::begin(cx, frame)?;
            (crate::engine::hooks::brews(cx.s).begin)(cx, u, power);
            if def.zone.is_some() {
                zones::create(cx, u, power, origin)?;
            }
            Ok(())
        }
    }
}

/// Stands `u` up from Prone, with no action spent here (K-MOVE-9; Restore).
pub fn stand_up(cx: &mut Ctx, u: UnitIdx) {
    // Sword Sweep: standing up beside the sweeper hurts.
    let sweeps: Vec<(UnitIdx, i32, String)> =
        cx.s.unit(u)
            .statuses
            .iter()
            .filter(|st| st.kind == StatusKind::Prone)
            .filter_map(|st| {
                let (src, p) = (st.source?, st.origin?);
                let def = cx.s.powers.get(p);
                let d = def.effect.iter().find_map(|e| e.stand_up_damage)?;
                (cx.s.distance(src, u) == Some(1)).then(|| (src, d, def.name.clone()))
            })
            .collect();
    for st in cx.s.unit(u).statuses.clone().into_iter().filter(|s| s.kind == StatusKind::Prone) {
        cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "stood up".into() });
    }
    step_clear_of_danger(cx, u, "stands up clear of the danger");
    for (src, d, name) in sweeps {
        crate::rules::damage::deal(cx, u, d, Some(src), &format!("{name}: stood up beside its sweeper"), None);
    }
}

/// An escape attempt against `kind`, with no action spent here (K-SAVE-3; Restore).
pub fn escape_attempt(cx: &mut Ctx, u: UnitIdx, kind: StatusKind) -> Result<(), RuleError> {
    if !crate::rules::saves::saving_throw(cx, u, &format!("{kind} (escape)"))? {
        (crate::engine::hooks::features(cx.s).escape_failed)(cx, u, kind); // Sword Hold
    } else if let Some(st) = cx.s.unit(u).statuses.iter().find(|s| s.kind == kind).copied() {
        cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "escaped".into() });
        step_clear_of_danger(cx, u, "slips free onto a safe square");
    }
    Ok(())
}

/// Spends `u`'s Role Action (Hide as a cut-short turn ends).
pub fn spend_role(cx: &mut Ctx, u: UnitIdx) {
    spend(cx, u, Slot::Role);
}

/// Whether `u` sees `t` through one of its own warps, of any kind (L920: a line from the warp's
/// square; source-warp).
pub fn sees_through_warps(s: &State, u: UnitIdx, t: UnitIdx) -> bool {
    s.porter.warps.iter().any(|w| w.owner == u && crate::rules::cover::shot(s, w.at, 1, t) != Sight::Blocked)
}
