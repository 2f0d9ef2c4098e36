//! The battle's facts: the table options (every inferred number of the reconstruction), the
//! fighters with their pools and tokens, the map, what is pending, and the journal's events.
//!
//! Rule ids C-BAT-N name step N of the reconstructed combat procedure (rules/collision.md
//! §5.3); C-GL-TERM names a glossary term played in battle. docs/rulings/collision.md says which
//! parts the guide states and which Fray infers.

use crate::builder::Card;
use fray_core::grid::Pos;
use fray_core::ruleset::Outcome;
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// The two sides, in seat order: red takes the `--home` group, blue the `--away` one.
pub const SIDES: [&str; 2] = ["red", "blue"];

/// The endurance pool never goes above this (C-BAT-7, stated).
pub const ENDURANCE_CAP: i32 = 9;

/// When a character's recovery step comes (C-BAT-7; the timing is inferred).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum RecoveryAt {
    /// Right after its own activation.
    Activation,
    /// For every character at the end of the turn.
    EndOfTurn,
}

/// Who takes the turn-order advantage (C-BAT-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum First {
    /// A roll-off: D10 plus the group's highest Command.
    Roll,
    /// Red, the first seat (`--home`).
    Red,
    /// Blue, the second seat (`--away`).
    Blue,
}

/// When a crit's Injury+X counts (C-BAT-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum CritInjury {
    /// Always added to a crit.
    Always,
    /// Only when the injury roll dealt at least one injury.
    Wounding,
}

/// The table options: every number the guide leaves to the core rulebook.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Options {
    /// H: a hit needs D10 + W-Att ≥ Def + H (C-BAT-10).
    pub hit_threshold: i32,
    /// K: injuries are 1 + (margin − 1) / K for a positive margin (C-BAT-12).
    pub injury_step: i32,
    /// Arm lost per injury already taken (C-BAT-13).
    pub injury_armour: i32,
    /// When Injury+X counts.
    pub crit_injury: CritInjury,
    /// Endurance added at recovery after a hold action (C-BAT-6d).
    pub hold_bonus: i32,
    /// When recovery comes.
    pub recovery: RecoveryAt,
    /// Who starts each turn.
    pub first: First,
    /// Movement actions per activation (C-BAT-6b).
    pub moves: u8,
    /// Turns before the battle is scored (C-BAT-22).
    pub turns: u32,
    /// Map size for a battle from group files.
    pub size: i32,
    /// Att lost per space a ranged attack reaches beyond its Reach (stated: 1).
    pub ranged_penalty: i32,
    /// Who wins a tied contest (C-BAT-18).
    pub contest_ties: TieGoesTo,
    /// Whether Mage Armor's 8 still takes the injury penalty (the glossary) or not (the skill
    /// table) (C-GL-MAGE-ARMOR).
    pub mage_armor_penalty: bool,
    /// Whether a fleeing character can run off the board into the reserves (C-GL-FLEE).
    pub flee_off_board: bool,
    /// Att gained by attacking a target on lower ground (C-BAT-HEIGHT, inferred size).
    pub high_ground: i32,
    /// Att lost by a ranged attack on a target in partial cover (C-BAT-COVER, inferred size).
    pub partial_cover: i32,
    /// Extra spaces a step costs for each level climbed (C-BAT-20, inferred).
    pub climb_cost: i32,
    /// Extra spaces a step onto an obstacle square costs (C-BAT-20, inferred).
    pub obstacle_cost: i32,
    /// Whether a battle from group files gets the built-in hills and cover (Fray's own map).
    pub hills: bool,
}

/// Who wins a tied contest (C-BAT-18, inferred).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TieGoesTo {
    /// The one the ability is used on.
    Defender,
    /// The one using the ability.
    Initiator,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hit_threshold: 3,
            injury_step: 3,
            injury_armour: 1,
            crit_injury: CritInjury::Always,
            hold_bonus: 1,
            recovery: RecoveryAt::Activation,
            first: First::Roll,
            moves: 1,
            turns: 8,
            size: 12,
            ranged_penalty: 1,
            contest_ties: TieGoesTo::Defender,
            mage_armor_penalty: true,
            flee_off_board: true,
            high_ground: 1,
            partial_cover: 2,
            climb_cost: 1,
            obstacle_cost: 1,
            hills: false,
        }
    }
}

/// The table options `fray play --option` takes, each as `KEY=VALUES` (default first) and what
/// it changes.
pub const TABLE_OPTIONS: &[(&str, &str)] = &[
    ("hit-threshold=3 (0-9)", "H: a hit needs D10 + W-Att at least Def + H (C-BAT-10, inferred)"),
    ("injury-step=3 (1-9)", "K: injuries are 1 + (margin - 1) / K for a positive margin (C-BAT-12, inferred)"),
    ("injury-armour=1 (0-3)", "Arm lost per injury already taken (C-BAT-13, inferred)"),
    ("crit-injury=always|wounding", "whether a crit's Injury+X needs an injury roll that wounded (C-BAT-12)"),
    ("hold-bonus=1 (0-9)", "Endurance added at recovery after a hold action (C-BAT-6d, inferred size)"),
    ("recovery=activation|end-of-turn", "when a character's recovery step comes (C-BAT-7, inferred timing)"),
    ("first=roll|red|blue", "who starts each turn: a roll-off of D10 + highest Comm, or a fixed side (C-BAT-2)"),
    ("moves=1 (1-3)", "movement actions per activation (C-BAT-6b, inferred)"),
    ("turns=8 (1-99)", "turns before the battle is scored on victory points (C-BAT-22, inferred)"),
    ("size=12 (6-30)", "the square map's side for a battle from group files"),
    ("ranged-penalty=1 (0-3)", "Att lost per space a ranged attack reaches beyond its Reach (stated 1)"),
    ("contest-ties=defender|initiator", "who wins a tied contest (C-BAT-18, inferred)"),
    (
        "mage-armor=glossary|table",
        "whether Mage Armor's Arm 8 still loses the injury penalty (glossary) or not (skill table)",
    ),
    (
        "flee-off-board=on|off",
        "whether a fleeing run with spaces to spare at the edge leaves the board for the reserves (C-GL-FLEE)",
    ),
    (
        "high-ground=1 (0-3)",
        "Att gained attacking a target whose square is lower than your level (C-BAT-HEIGHT, inferred)",
    ),
    ("partial-cover=2 (0-5)", "Att lost by a ranged attack on a target in partial cover (C-BAT-COVER, inferred)"),
    ("climb-cost=1 (0-3)", "extra spaces a step costs per elevation level climbed (C-BAT-20, inferred)"),
    ("obstacle-cost=1 (0-3)", "extra spaces a step onto an obstacle (cover) square costs (C-BAT-20, inferred)"),
    ("terrain=flat|hills", "a battle from group files on an open map, or on Fray's map with hills and cover"),
];

/// Reads table options given as `KEY=VALUE`; every bad one is reported.
pub fn options_from_pairs(pairs: &[String]) -> Result<Options, Vec<String>> {
    let mut o = Options::default();
    let mut errors = Vec::new();
    for p in pairs {
        let (k, v) = match fray_core::table::option_pair(p) {
            Ok(kv) => kv,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let bad = |what: &str| format!("--option {k}={v}: {what}");
        let num = |lo: i64, hi: i64| v.parse::<i64>().ok().filter(|n| (lo..=hi).contains(n));
        let set_num = |field: &mut i32, lo: i64, hi: i64, errors: &mut Vec<String>| match num(lo, hi) {
            Some(n) => *field = n as i32,
            None => errors.push(bad(&format!("a whole number from {lo} to {hi}"))),
        };
        match k {
            "hit-threshold" => set_num(&mut o.hit_threshold, 0, 9, &mut errors),
            "injury-step" => set_num(&mut o.injury_step, 1, 9, &mut errors),
            "injury-armour" => set_num(&mut o.injury_armour, 0, 3, &mut errors),
            "hold-bonus" => set_num(&mut o.hold_bonus, 0, 9, &mut errors),
            "size" => set_num(&mut o.size, 6, 30, &mut errors),
            "ranged-penalty" => set_num(&mut o.ranged_penalty, 0, 3, &mut errors),
            "high-ground" => set_num(&mut o.high_ground, 0, 3, &mut errors),
            "partial-cover" => set_num(&mut o.partial_cover, 0, 5, &mut errors),
            "climb-cost" => set_num(&mut o.climb_cost, 0, 3, &mut errors),
            "obstacle-cost" => set_num(&mut o.obstacle_cost, 0, 3, &mut errors),
            "terrain" => match v {
                "flat" => o.hills = false,
                "hills" => o.hills = true,
                _ => errors.push(bad("flat or hills")),
            },
            "moves" => match num(1, 3) {
                Some(n) => o.moves = n as u8,
                None => errors.push(bad("a whole number from 1 to 3")),
            },
            "turns" => match num(1, 99) {
                Some(n) => o.turns = n as u32,
                None => errors.push(bad("a whole number from 1 to 99")),
            },
            "crit-injury" => match v {
                "always" => o.crit_injury = CritInjury::Always,
                "wounding" => o.crit_injury = CritInjury::Wounding,
                _ => errors.push(bad("always or wounding")),
            },
            "recovery" => match v {
                "activation" => o.recovery = RecoveryAt::Activation,
                "end-of-turn" => o.recovery = RecoveryAt::EndOfTurn,
                _ => errors.push(bad("activation or end-of-turn")),
            },
            "contest-ties" => match v {
                "defender" => o.contest_ties = TieGoesTo::Defender,
                "initiator" => o.contest_ties = TieGoesTo::Initiator,
                _ => errors.push(bad("defender or initiator")),
            },
            "mage-armor" => match v {
                "glossary" => o.mage_armor_penalty = true,
                "table" => o.mage_armor_penalty = false,
                _ => errors.push(bad("glossary or table")),
            },
            "flee-off-board" => match v {
                "on" => o.flee_off_board = true,
                "off" => o.flee_off_board = false,
                _ => errors.push(bad("on or off")),
            },
            "first" => match v {
                "roll" => o.first = First::Roll,
                "red" => o.first = First::Red,
                "blue" => o.first = First::Blue,
                _ => errors.push(bad("roll, red or blue")),
            },
            _ => errors.push(format!(
                "--option {k}: no such table option (there are: {})",
                TABLE_OPTIONS.iter().map(|(o, _)| o.split('=').next().unwrap_or(o)).collect::<Vec<_>>().join(", ")
            )),
        }
    }
    if errors.is_empty() { Ok(o) } else { Err(errors) }
}

/// One character on (or off) the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// The id commands and scenario files use.
    pub id: String,
    /// 0 red, 1 blue.
    pub side: u8,
    /// Its card, in [`State::cards`].
    pub card: usize,
    /// Where it stands; `None` once defeated or off the table.
    pub at: Option<Pos>,
    /// The Endurance pool (C-BAT-3).
    pub endurance: i32,
    /// Mana tokens (C-BAT-3).
    pub mana: i32,
    /// Injuries taken.
    pub injuries: i32,
    /// Stun tokens (C-GL-STUN).
    pub stun: i32,
    /// Hex counters (C-GL-HEX).
    pub hex: i32,
    /// Poison counters (C-GL-POISON).
    pub poison: i32,
    /// Flee tokens (C-GL-FLEE).
    pub flee: i32,
    /// What it flees from, if that is a character.
    pub flee_from: Option<u8>,
    /// Whether it has activated this turn.
    pub activated: bool,
    /// Whether it still has its recovery step to come this turn (end-of-turn recovery).
    pub recover_due: bool,
    /// Whether it held this turn (C-BAT-6d).
    pub held: bool,
    /// Endurance spent this turn (what Poison hits with).
    pub spent: i32,
    /// Defeated (C-BAT-15).
    pub defeated: bool,
    /// The way it faces, one of the eight directions as (dx, dy) (C-BAT-21).
    pub facing: (i8, i8),
    /// Luck tokens (C-GL-LUCK).
    pub luck: i32,
    /// Clinging to Life: defeated at the end of its next recovery step (C-GL-CLING-TO-LIFE).
    pub clinging: bool,
    /// Persevering: no injury penalties and no defeat until its next activation (C-GL-PERSEVERE).
    pub persevering: bool,
    /// In reserves, off the table but not defeated, with the turns it still waits (C-BAT-5).
    pub reserve: Option<u32>,
}

/// The eight facings by name, clockwise from north (row 0 is north).
pub const FACINGS: [(&str, (i8, i8)); 8] = [
    ("north", (0, -1)),
    ("north-east", (1, -1)),
    ("east", (1, 0)),
    ("south-east", (1, 1)),
    ("south", (0, 1)),
    ("south-west", (-1, 1)),
    ("west", (-1, 0)),
    ("north-west", (-1, -1)),
];

/// The name of a facing.
pub fn facing_name(f: (i8, i8)) -> &'static str {
    FACINGS.iter().find(|(_, d)| *d == f).map_or("south", |(n, _)| n)
}

/// Special weapon attacks from skills (C-GL terms): a weapon attack with its own cost and
/// changes. [`crate::abilities::weapon_attack`] gives each one's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// A plain weapon attack.
    Plain,
    /// Guided Strike: W-Att +2 (C-GL-GUIDED-STRIKE).
    Guided,
    /// Butcher: Att −2, Pow +4 (C-GL-BUTCHER).
    Butcher,
    /// Gouge: Pow +2, On Hit Hex 1, on a crit Hex +2 more (C-GL-GOUGE).
    Gouge,
    /// Finishing Blow: Att +1, only against a character 2 injuries from defeat, no reactions,
    /// On Hit Slay (C-GL-FINISHING-BLOW).
    Finishing,
    /// Backstab: a hit on the target's rear is a crit (C-GL-BACKSTAB).
    Backstab,
    /// Power Attack: W-Att −1, W-Pow +2 (C-GL-POWER-ATTACK).
    Power,
    /// Sudden Strike: melee, W-Att +1, no reactions, Crit Pow+2 (C-GL-SUDDEN-STRIKE).
    Sudden,
    /// Snipe: ranged, no reactions, Crit Pow+2 (C-GL-SNIPE).
    Snipe,
    /// Smite: Light melee, W-Pow + Comm, never defeats (C-GL-SMITE).
    Smite,
    /// Chilling Strike: Cold melee, a hit drains S-Pow Endurance (C-GL-CHILLING-STRIKE).
    Chilling,
    /// Rip Around: melee Att +1, a hit turns the target and drains 2E (C-GL-RIP-AROUND).
    RipAround,
    /// Thunder Strike: Electric, Att +1, Pow +2, a radius 1 blast on the target; a hit drains
    /// 1E (C-GL-THUNDER-STRIKE, C-GL-BLAST-ATTACK).
    Thunder,
    /// Throw: 1E more, a ranged attack at the weapon's reach + 3 (C-GL-THROW).
    Throw,
}

impl Special {
    /// Every special attack with its skill's name.
    pub const ALL: [(Special, &'static str); 13] = [
        (Special::Guided, "Guided Strike"),
        (Special::Butcher, "Butcher"),
        (Special::Gouge, "Gouge"),
        (Special::Finishing, "Finishing Blow"),
        (Special::Backstab, "Backstab"),
        (Special::Power, "Power Attack"),
        (Special::Sudden, "Sudden Strike"),
        (Special::Snipe, "Snipe"),
        (Special::Smite, "Smite"),
        (Special::Chilling, "Chilling Strike"),
        (Special::RipAround, "Rip Around"),
        (Special::Thunder, "Thunder Strike"),
        (Special::Throw, "Throw"),
    ];
    /// The skill's name ("" for a plain attack).
    pub fn name(self) -> &'static str {
        Special::ALL.iter().find(|(s, _)| *s == self).map_or("", |(_, n)| n)
    }
}

/// Abilities used in an activation that are not weapon attacks (C-GL terms).
/// [`crate::abilities`] gives each one's reach, rolls and effects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ability {
    /// Frighten: an enemy within Comm is stunned (Fear) (C-GL-FRIGHTEN).
    Frighten,
    /// Heal: self or a friend within 4 recovers 1 injury (C-GL-HEAL).
    Heal,
    /// Berserk: take 1 injury, then gain 1 Mana per injury (C-GL-BERSERK).
    Berserk,
    /// Check: a Command contest with an enemy within Comm; the loser flees (C-GL-CHECK).
    Check,
    /// Caustic Burst (C-GL-CAUSTIC-BURST, C-GL-BURST-ATTACK).
    CausticBurst,
    /// Fire Breathing (C-GL-FIRE-BREATHING, C-GL-LINE-ATTACK).
    FireBreathing,
    /// Clobber (C-GL-CLOBBER).
    Clobber,
    /// Dazzle (C-GL-DAZZLE).
    Dazzle,
    /// Embloody (C-GL-EMBLOODY).
    Embloody,
    /// Flash Freeze (C-GL-FLASH-FREEZE).
    FlashFreeze,
    /// Mana Theft (C-GL-MANA-THEFT).
    ManaTheft,
    /// Shockwave (C-GL-SHOCKWAVE).
    Shockwave,
    /// Static Jolt (C-GL-STATIC-JOLT).
    StaticJolt,
    /// Venom (C-GL-VENOM).
    Venom,
    /// Touch of Death (C-GL-TOUCH-OF-DEATH).
    TouchOfDeath,
    /// Shove (C-GL-SHOVE, C-GL-KNOCKBACK).
    Shove,
    /// Whirling Gale (C-GL-WHIRLING-GALE).
    WhirlingGale,
    /// Meditate: 1 Mana (C-GL-MEDITATE).
    Meditate,
    /// Tap into Gea: a D10 of 4+ gives 1 Mana, again and again (C-GL-TAP-INTO-GEA).
    TapIntoGea,
    /// Heat of Battle: 2 Mana with an enemy in melee reach (C-GL-HEAT-OF-BATTLE).
    HeatOfBattle,
    /// Assess the Threat: a Command contest for 1 Mana (C-GL-ASSESS-THE-THREAT).
    AssessTheThreat,
    /// Mana Gift: a friend regains 1 Mana (C-GL-MANA-GIFT).
    ManaGift,
    /// Regenerate: heal 1 of your own injuries (C-GL-REGENERATE).
    Regenerate,
    /// Vigorate: self or someone within 2 regains 2E (C-GL-VIGORATE).
    Vigorate,
    /// Rally: flee tokens off self and friends within Comm (C-GL-RALLY).
    Rally,
    /// Epic Heal: friends within 8 heal 1, the user 2 (C-GL-EPIC-HEAL).
    EpicHeal,
    /// Remedy: every harmful token of one kind off self or an ally within 2 (C-GL-REMEDY).
    Remedy,
    /// Fortune: a Luck token (C-GL-FORTUNE, C-GL-LUCK).
    Fortune,
    /// Persevere: injuries neither hamper nor defeat until the next activation (C-GL-PERSEVERE).
    Persevere,
    /// Gather Courage: 1 Mana when every enemy would give you cover (C-GL-GATHER-COURAGE).
    GatherCourage,
    /// Wreck: D10 + Tuf of 8 or more destroys an adjacent terrain square (C-GL-WRECK).
    Wreck,
    /// Upheaval: raise a terrain piece next to the user (C-GL-UPHEAVAL).
    Upheaval,
}

impl Ability {
    /// Every ability with its name.
    pub const ALL: [(Ability, &'static str); 32] = [
        (Ability::Frighten, "Frighten"),
        (Ability::Heal, "Heal"),
        (Ability::Berserk, "Berserk"),
        (Ability::Check, "Check"),
        (Ability::CausticBurst, "Caustic Burst"),
        (Ability::FireBreathing, "Fire Breathing"),
        (Ability::Clobber, "Clobber"),
        (Ability::Dazzle, "Dazzle"),
        (Ability::Embloody, "Embloody"),
        (Ability::FlashFreeze, "Flash Freeze"),
        (Ability::ManaTheft, "Mana Theft"),
        (Ability::Shockwave, "Shockwave"),
        (Ability::StaticJolt, "Static Jolt"),
        (Ability::Venom, "Venom"),
        (Ability::TouchOfDeath, "Touch of Death"),
        (Ability::Shove, "Shove"),
        (Ability::WhirlingGale, "Whirling Gale"),
        (Ability::Meditate, "Meditate"),
        (Ability::TapIntoGea, "Tap into Gea"),
        (Ability::HeatOfBattle, "Heat of Battle"),
        (Ability::AssessTheThreat, "Assess the Threat"),
        (Ability::ManaGift, "Mana Gift"),
        (Ability::Regenerate, "Regenerate"),
        (Ability::Vigorate, "Vigorate"),
        (Ability::Rally, "Rally"),
        (Ability::EpicHeal, "Epic Heal"),
        (Ability::Remedy, "Remedy"),
        (Ability::Fortune, "Fortune"),
        (Ability::Persevere, "Persevere"),
        (Ability::GatherCourage, "Gather Courage"),
        (Ability::Wreck, "Wreck"),
        (Ability::Upheaval, "Upheaval"),
    ];
    /// Its name.
    pub fn name(self) -> &'static str {
        Ability::ALL.iter().find(|(s, _)| *s == self).map_or("", |(_, n)| n)
    }
    /// Its bit in [`Activation::abilities`].
    pub fn bit(self) -> u64 {
        1 << (self as u64)
    }
}

/// What a side's activation has done so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Activation {
    /// The fighter.
    pub unit: u8,
    /// Movement actions taken (C-BAT-6b).
    pub moves: u8,
    /// Weapons already used, by card slot (C-BAT-6c).
    pub used: u8,
    /// Whether it has acted at all (a hold must come first).
    pub acted: bool,
    /// Abilities already used, by [`Ability::bit`] (once each per activation).
    pub abilities: u64,
}

/// Kinds of movement action (C-BAT-6b).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// One space, free.
    Step,
    /// Up to Move spaces, 1E.
    Maneuver,
    /// Up to twice Move spaces, 3E.
    Run,
}

impl MoveKind {
    /// The menu word.
    pub fn word(self) -> &'static str {
        match self {
            MoveKind::Step => "step",
            MoveKind::Maneuver => "maneuver",
            MoveKind::Run => "run",
        }
    }
    /// Endurance cost (stated, guide L37).
    pub fn cost(self) -> i32 {
        match self {
            MoveKind::Step => 0,
            MoveKind::Maneuver => 1,
            MoveKind::Run => 3,
        }
    }
    /// Spaces allowed for a character with `mv` Move.
    pub fn spaces(self, mv: i32) -> i32 {
        match self {
            MoveKind::Step => 1,
            MoveKind::Maneuver => mv,
            MoveKind::Run => 2 * mv,
        }
    }
}

/// An attack waiting on the target's reaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strike {
    /// Attacker.
    pub attacker: u8,
    /// Target.
    pub target: u8,
    /// The attacker's weapon slot.
    pub weapon: u8,
    /// Def added by reactions before the roll (Dodge).
    pub def_bonus: i32,
    /// Arm added by reactions after the hit (Block).
    pub arm_bonus: i32,
    /// The special attack it is.
    pub special: Special,
    /// The to-hit die, once rolled.
    pub roll: Option<u32>,
    /// Whether it crits.
    pub crit: bool,
    /// Reactions the target has used against it, by [`Strike::bit`] of the name.
    pub reacted: u16,
    /// Mage Armor: the Arm it counts as (C-GL-MAGE-ARMOR).
    pub arm_set: Option<i32>,
    /// Adamant Form: at most one injury (C-GL-ADAMANT-FORM).
    pub cap_one: bool,
    /// Decoy: a hit still fails on a D10 of 1 to 6 (C-GL-DECOY).
    pub decoy: bool,
    /// A free strike (Retaliate): no EC and no Retaliate in answer.
    pub free: bool,
}

/// The reactions before the roll (C-BAT-9): by the target (Dodge, Parry, Decoy) or by a friend
/// of it within its own Comm (Look Out; Deflect by either).
pub const BEFORE_ROLL_REACTIONS: [&str; 5] = ["Dodge", "Parry", "Decoy", "Look Out", "Deflect"];

/// The on-hit reactions (C-BAT-11), with their glossary ids.
pub const ON_HIT_REACTIONS: [&str; 8] =
    ["Block 2", "Block 4", "Mage Armor", "Power Channel", "Adamant Form", "Contort", "Majesty", "Shadow Hop"];

/// Every reaction an attack keeps track of (each once per attack).
const TRACKED: [&str; 13] = [
    "Block 2",
    "Block 4",
    "Mage Armor",
    "Power Channel",
    "Adamant Form",
    "Contort",
    "Majesty",
    "Dodge",
    "Parry",
    "Decoy",
    "Look Out",
    "Deflect",
    "Shadow Hop",
];

impl Strike {
    /// A new attack on `target`.
    pub fn new(attacker: u8, target: u8, weapon: u8, special: Special) -> Self {
        Strike {
            attacker,
            target,
            weapon,
            def_bonus: 0,
            arm_bonus: 0,
            special,
            roll: None,
            crit: false,
            reacted: 0,
            arm_set: None,
            cap_one: false,
            decoy: false,
            free: false,
        }
    }
    /// The bit of reaction `name` in [`Strike::reacted`].
    pub fn bit(name: &str) -> u16 {
        TRACKED.iter().position(|r| *r == name).map_or(1 << 15, |i| 1 << i)
    }
}

/// What the battle is waiting for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// A side picks a character to activate (C-BAT-4).
    Activate(u8),
    /// The active character's menu (C-BAT-6).
    Menu,
    /// Where a movement action ends.
    Square(MoveKind),
    /// Whom a weapon attack (of this weapon slot, plain or special) targets.
    Target(u8, Special),
    /// Whom an ability targets.
    AbilityTarget(Ability),
    /// Which way a line attack goes.
    Direction(Ability),
    /// Which terrain an ability works on (Wreck, Upheaval).
    Terrain(Ability),
    /// The target may react before the roll (Dodge, C-BAT-9).
    BeforeRoll(Strike),
    /// The target may react to a hit (Block, C-BAT-11).
    OnHit(Strike),
    /// The target may Shrug off exactly one injury (C-GL-SHRUG, C-BAT-13).
    Shrug(Strike, i32),
    /// The target may Retaliate against an attack that did not injure it (C-GL-RETALIATE,
    /// C-BAT-16).
    Retaliate(Strike),
    /// The battle is over.
    Over,
}

/// The whole battle.
#[derive(Clone, Debug)]
pub struct State {
    /// Table options.
    pub options: Options,
    /// Cards, shared (never changed in play).
    pub cards: Arc<Vec<Card>>,
    /// Map width and height.
    pub width: i32,
    /// Map height.
    pub height: i32,
    /// Impassable squares, row by row.
    pub walls: Arc<Vec<bool>>,
    /// The ground's elevation level of each square, row by row (C-BAT-HEIGHT).
    pub heights: Arc<Vec<i32>>,
    /// Obstacle squares: passable, and they give cover (C-BAT-COVER).
    pub cover: Arc<Vec<bool>>,
    /// The fighters.
    pub units: Vec<Fighter>,
    /// The turn, from 1.
    pub turn: u32,
    /// The side with the turn-order advantage.
    pub first: u8,
    /// The side whose pick is next.
    pub next_side: u8,
    /// The activation under way.
    pub active: Option<Activation>,
    /// What is pending.
    pub pending: Pending,
    /// Victory points by side (C-BAT-22).
    pub vp: [i32; 2],
    /// Each side's Upheaval piece, its squares, removed when it makes another (C-GL-UPHEAVAL).
    pub upheaval: [Vec<Pos>; 2],
    /// How it ended.
    pub outcome: Option<Outcome>,
}

impl State {
    /// The card of fighter `u`.
    pub fn card(&self, u: u8) -> &Card {
        &self.cards[self.units[u as usize].card]
    }
    /// Fighter `u`.
    pub fn u(&self, u: u8) -> &Fighter {
        &self.units[u as usize]
    }
    /// Fighter `u`, to change.
    pub fn um(&mut self, u: u8) -> &mut Fighter {
        &mut self.units[u as usize]
    }
    /// The fighter called `id`.
    pub fn find(&self, id: &str) -> Option<u8> {
        self.units.iter().position(|x| x.id == id).map(|i| i as u8)
    }
    /// Whether `p` is on the map and not a wall.
    pub fn open(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height && !self.walls[(p.y * self.width + p.x) as usize]
    }
    /// The elevation level of the ground at `p` (0 off the map).
    pub fn height(&self, p: Pos) -> i32 {
        self.index(p).map_or(0, |i| self.heights[i])
    }
    /// Whether `p` is an obstacle square that gives cover.
    pub fn is_cover(&self, p: Pos) -> bool {
        self.index(p).is_some_and(|i| self.cover[i])
    }
    fn index(&self, p: Pos) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height).then(|| (p.y * self.width + p.x) as usize)
    }
    /// The fighter standing on `p`.
    pub fn at(&self, p: Pos) -> Option<u8> {
        self.units.iter().position(|x| x.at == Some(p)).map(|i| i as u8)
    }
    /// Fighters still on the table.
    pub fn standing(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.units.len() as u8).filter(|&i| self.units[i as usize].at.is_some())
    }
}

/// A journal entry: what happened in words, and what a simulator counts of it.
#[derive(Clone, Debug, Serialize)]
pub struct Event {
    /// The line a person reads (empty when the journal is not kept).
    pub text: String,
    /// Figures for `fray sim`: (category, key, amount), as [`fray_core::tally::Tally`] adds them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub counts: Vec<(String, String, f64)>,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}
