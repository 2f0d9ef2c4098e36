//! Powers as data: the action they use, how often, whom they target, their damage line and
//! their Effect line, composed from a small vocabulary of effect primitives (DESIGN.md,
//! "Content is data"). Powers no primitive covers name a hook written in Rust.
//!
//! The built-in powers every athlete has (K-CHAR-3, K-IMP-12, K-CONC-5, K-MOVE-11) and the
//! rulebook's example powers are loaded from `content/kazzam/powers/*.toml`, compiled in.

use crate::engine::records::statuses::StatusKind;
pub use crate::engine::records::zones::ZoneKind;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Which action a power spends (K-ACT-1, K-ACT-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActionKind {
    /// An Attack Action.
    Attack,
    /// A Move Action.
    Move,
    /// A Role Action.
    Role,
    /// A Free Action, on your own turn only (K-ACT-3).
    Free,
    /// Triggered, resolved before its trigger (K-ACT-7).
    Interrupt,
    /// Triggered, resolved after its trigger (K-ACT-7).
    Reaction,
}

/// How often a power may be used (K-ACT-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Frequency {
    /// Without limit.
    #[default]
    AtWill,
    /// Once per match, until recharged (K-ACT-13, K-DUN-3).
    Encounter,
}

/// Whom a power may target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Targeting {
    /// One creature within implement range; uses the implement (K-IMP-9).
    Implement,
    /// One adjacent (within reach) creature (L240).
    Melee,
    /// One creature within `range` (L239).
    Ranged {
        /// Range in squares.
        range: i32,
    },
    /// Everyone but the user within `radius`; one roll per target (K-MULTI-1).
    Burst {
        /// Radius in squares.
        radius: i32,
    },
    /// The user only.
    Myself,
    /// One willing ally (or the user) within `range`.
    Ally {
        /// Range in squares.
        range: i32,
    },
    /// One creature, ally or enemy, within `range` (Swap Places).
    Creature {
        /// Range in squares.
        range: i32,
    },
    /// No target (Reveal acts around the user).
    None,
    /// A square area (`size` by `size`) centred on a square within `range` of the user: every
    /// creature in it that the power `affects` is a target (K-ZONE-1; "create a 5x5 zone
    /// centred within 5 squares"). The command names the centre with `square`.
    Area {
        /// How far the centre may be, in squares (99: anywhere).
        range: i32,
        /// Side of the square area (3 for 3x3).
        size: i32,
    },
}

/// Which creatures in a burst or area a power affects, or a primitive applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Affects {
    /// Everyone, the user included.
    All,
    /// Everyone but the user (a burst's default, K-MULTI-1).
    Others,
    /// Creatures the user treats as enemies.
    Enemies,
    /// The user's allies, not the user.
    Allies,
    /// The user's allies and the user ("you and each ally").
    AlliesAndYou,
    /// The user's teammates: the other athletes of its team, not its summons or traps (K-CREAT-4).
    Teammates,
    /// Everyone but the user's teammates, the user included ("everything else", L1503).
    AllButTeammates,
}

/// How long a power's zone lasts (K-ZONE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ZoneLasts {
    /// To the end of its owner's next turn.
    EndOfYourNextTurn,
    /// The rest of the match.
    Encounter,
}

/// A zone a power leaves on the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ZoneDef {
    /// What it does.
    pub kind: ZoneKind,
    /// Its number (damage, Vulnerable).
    #[serde(default)]
    pub amount: i32,
    /// How long: to the end of its owner's next turn (the default) or the rest of the match.
    #[serde(default)]
    pub until: Option<ZoneLasts>,
}

/// One primitive of an Effect line, applied to the target unless it says otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Effect {
    /// Gives the target a status.
    #[serde(default)]
    pub status: Option<String>,
    /// Its number (Ongoing 2).
    #[serde(default)]
    pub amount: Option<i32>,
    /// How long: "end-of-next-turn" (the default), "end-of-your-next-turn", "save-ends",
    /// "save-sustains", "escape-ends", "indefinite"; read into a typed value at load.
    #[serde(default)]
    pub until: Option<crate::engine::records::statuses::Until>,
    /// Pushes the target this many squares (K-FM-4).
    #[serde(default)]
    pub push: Option<i32>,
    /// Pulls the target.
    #[serde(default)]
    pub pull: Option<i32>,
    /// Slides the target.
    #[serde(default)]
    pub slide: Option<i32>,
    /// Throws the target (K-FM-6).
    #[serde(default)]
    pub throw: Option<i32>,
    /// Teleports the target (K-FM-5).
    #[serde(default)]
    pub teleport: Option<i32>,
    /// Teleports the user.
    #[serde(default)]
    pub teleport_self: Option<i32>,
    /// The user shifts up to this many squares, one at a time, without granting Opportunities
    /// (K-MOVE-2; a power's shift, so Slowed does not stop it).
    #[serde(default)]
    pub shift_self: Option<i32>,
    /// Extra damage as part of the Effect.
    #[serde(default)]
    pub damage: Option<i32>,
    /// Extra damage only if the target was already Grabbed by the user (Grasping Blade).
    #[serde(default)]
    pub damage_if_grabbed_by_you: Option<i32>,
    /// Ward gained by the target.
    #[serde(default)]
    pub ward: Option<i32>,
    /// HP regained by the target.
    #[serde(default)]
    pub heal: Option<i32>,
    /// Sends the target to one of its team's spawn squares, the user's choice, without being
    /// Taken Out: no HP restored, no power recharged, no point (K-DUN-13).
    #[serde(default)]
    pub banish: bool,
    /// The target may make an attack at once (K-ACT-4), unless it is itself making a granted
    /// attack (K-ACT-8).
    #[serde(default)]
    pub grant_attack: bool,
    /// A named rule written in Rust.
    #[serde(default)]
    pub hook: Option<crate::content::hooks::EffectHook>,
    /// The status, Ward or healing goes to the power's user, not the target ("you gain...").
    #[serde(default)]
    pub on_user: bool,
    /// Only if the target has this status (or is `bloodied`): for extra damage, judged before
    /// the hit's damage ("if it was already Distracted"); for anything else, when the Effect
    /// applies, after the damage ("2 Ward if the target is Bloodied").
    #[serde(default)]
    pub if_target: Option<String>,
    /// Only if the target does not have this status (or is not `bloodied`), judged likewise.
    #[serde(default)]
    pub unless_target: Option<String>,
    /// The target first makes a saving throw (K-SAVE-1); the primitive applies only if it fails.
    /// One Effect line rolls one save: `unless_saved` and `if_saved` primitives share it.
    #[serde(default)]
    pub unless_saved: bool,
    /// The primitive applies only if the target's save succeeds ("if it succeeds, it is
    /// Distracted instead").
    #[serde(default)]
    pub if_saved: bool,
    /// Only for these targets of a burst or area ("teammates regain 2 HP, everything else takes
    /// 2 damage").
    #[serde(default)]
    pub to: Option<Affects>,
    /// Leaves a lingering attack modifier (Advantage or Disadvantage on later attacks).
    #[serde(default)]
    pub modifier: Option<crate::engine::records::modifiers::ModifierDef>,
    /// A choice between Effect lines ("the target may instead..."): `chooser` picks one.
    #[serde(default)]
    pub one_of: Vec<Choice>,
    /// Who picks among `one_of`: `you` (the default) or the `target`.
    #[serde(default)]
    pub chooser: Option<crate::engine::records::modifiers::Party>,
    /// How many different options of `one_of` are picked (1 by default).
    #[serde(default)]
    pub picks: Option<u8>,
    /// The attack roll sets how many: a 3 one, a 4 two, a 5 or 6 three (the Amalgams).
    #[serde(default)]
    pub picks_by_roll: bool,
    /// Only on an attack roll of at least this ("on a 6, 2 more damage").
    #[serde(default)]
    pub min_roll: Option<i32>,
    /// The user names a creature ("name one ally", "another enemy next to you or the target"),
    /// and the pick's own Effect line applies to it.
    #[serde(default)]
    pub pick: Option<Box<Pick>>,
    /// The target (with `on-user`, the user) may make an attack at once on these terms
    /// (K-ACT-4; "take an Attack Action immediately with no Role Boost").
    #[serde(default)]
    pub grant: Option<GrantDef>,
    /// The creature has no Move Action on its next turn (Borrowed Time).
    #[serde(default)]
    pub lose_next_move: bool,
    /// The Ongoing status this primitive gives echoes: each later hit by the user on the target
    /// deals its damage at once, and the target then saves against it (Echoing Shot).
    #[serde(default)]
    pub echo: bool,
    /// The Ongoing status this primitive gives rises to this amount while the target is
    /// Bloodied, now or later (Bloody Blade).
    #[serde(default)]
    pub bloodied_amount: Option<i32>,
    /// The Prone status this primitive gives costs the target this much damage when it stands
    /// up next to the user (Sword Sweep).
    #[serde(default)]
    pub stand_up_damage: Option<i32>,
    /// Leaves a curse that applies its own Effect line when something comes to pass
    /// (Misfortune, Speak Doom, Empathic Imposition, Foreseen Attack).
    #[serde(default)]
    pub curse: Option<CurseDef>,
    /// The status this primitive gives can be ended by its bearer spending its Attack Action
    /// on its own turn (Revealing Projectile's missile pulled off).
    #[serde(default)]
    pub shake_off: bool,
    /// Damage nothing reduces, dealt at once (Costly Ward).
    #[serde(default)]
    pub unreduced_damage: Option<i32>,
    /// Only when, judged from the user: `target-cannot-see-you` (it is Blinded, or has no line
    /// to the user, or the user is Hidden from it), `target-has-cover` (Cover or Concealment
    /// against the user) — Crooked Hex.
    #[serde(default)]
    pub when: Option<String>,
    /// The creature gains this many Miss Tokens, if it is a player character (K-MISS-5).
    #[serde(default)]
    pub miss_tokens: Option<i32>,
    /// The target may at once spend a Move Action, not its own (Tactics).
    #[serde(default)]
    pub grant_move: bool,
    /// The target may shift up to this many squares, its own choice of squares (Tactics at
    /// level 4).
    #[serde(default)]
    pub shift: Option<i32>,
    /// The status's number goes up by 1 with each failed save against it (Corrosive Potion).
    #[serde(default)]
    pub grows: bool,
}

/// The terms of an attack a power lets someone make at once (K-ACT-4, K-ACT-8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct GrantDef {
    /// The attack gets no Role Boost.
    #[serde(default)]
    pub no_role_boost: bool,
    /// Only this power (`basic-implement-attack`); any attack power it has otherwise.
    #[serde(default)]
    pub power: Option<String>,
    /// At the power's own target while it is still there; at another otherwise (Follow-Up).
    #[serde(default)]
    pub same_target: bool,
    /// The granter aims it, and the attacker cannot decline (Greater Confusion).
    #[serde(default)]
    pub granter_aims: bool,
    /// Only at an enemy (Forced Flight's landing attack).
    #[serde(default)]
    pub enemies_only: bool,
}

/// Whom a `pick` may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PickWho {
    /// One of the user's allies (not the user).
    Ally,
    /// The user or one of its allies.
    YouOrAlly,
    /// One of the user's enemies.
    Enemy,
}

/// "Name a creature": whom, where, and what happens to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Pick {
    /// Whom.
    pub who: PickWho,
    /// Within this many squares (99: anywhere in sight) of one of `near` (the user by default).
    pub within: i32,
    /// Measured from the user (`you`), the power's target (`target`), or either.
    #[serde(default)]
    pub near: Vec<crate::engine::records::modifiers::Party>,
    /// Never the power's own target ("one other enemy").
    #[serde(default)]
    pub other: bool,
    /// Needs a line of sight from the user (K-COV-8).
    #[serde(default)]
    pub sight: bool,
    /// What happens to the named creature (`target` inside means it; `power-target` the
    /// power's own target).
    pub effect: Vec<Effect>,
}

/// One option of a choice between Effect lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Choice {
    /// What the option does, in a few words (shown in the decision).
    pub label: String,
    /// Its Effect line.
    pub effect: Vec<Effect>,
}

impl Effect {
    /// Whether it only adds damage (to the hit's packet).
    pub fn only_damage(&self) -> bool {
        (self.damage.is_some() || self.damage_if_grabbed_by_you.is_some())
            && self.status.is_none()
            && self.ward.is_none()
            && self.heal.is_none()
            && !self.banish
            && !self.grant_attack
            && self.modifier.is_none()
            && self.one_of.is_empty()
            && self.pick.is_none()
            && self.grant.is_none()
            && !self.lose_next_move
            && self.bloodied_amount.is_none()
            && self.stand_up_damage.is_none()
            && !self.grant_move
            && self.curse.is_none()
            && self.miss_tokens.is_none()
            && self.unreduced_damage.is_none()
            && !self.picks_by_roll
            && self.shift.is_none()
            && self.teleport_self.is_none()
            && self.shift_self.is_none()
            && self.hook.is_none()
            && [self.push, self.pull, self.slide, self.throw, self.teleport].iter().all(Option::is_none)
    }
}

/// The `when` conditions of a primitive, judged from the user.
pub const WHEN: &[&str] = &["target-cannot-see-you", "target-has-cover", "you-have-ward"];

/// An Effect line that replaces the power's from a level on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelEffect {
    /// The level it starts at (2-6).
    pub from: u8,
    /// The Effect line from that level (the power's own when left out).
    #[serde(default)]
    pub effect: Option<Vec<Effect>>,
    /// Up to how many targets from that level.
    #[serde(default)]
    pub max_targets: Option<u8>,
}

/// A trap's numbers where a rival's stat block prints them otherwise than its class power
/// (content/kazzam/powers/npc.toml; rules/summons.rs reads them). Each left out keeps the class
/// power's number.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrapNumbers {
    /// Its HP when set (1).
    #[serde(default)]
    pub hp: Option<i32>,
    /// The damage each trigger deals (2 for the Staff and Sword Traps).
    #[serde(default)]
    pub damage: Option<i32>,
    /// A Staff Trap strikes enemies up to this many squares from it (4).
    #[serde(default)]
    pub within: Option<i32>,
    /// A Staff Trap strikes the enemies next to it too (the class trap passes over them).
    #[serde(default)]
    pub next_to_it: bool,
    /// It is set in a square next to its user, whatever the user's reach.
    #[serde(default)]
    pub adjacent: bool,
}

/// A power as content data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerDef {
    /// Id used in commands (`basic-implement-attack`).
    pub id: String,
    /// Name as printed.
    pub name: String,
    /// Action spent.
    pub action: ActionKind,
    /// Frequency.
    #[serde(default)]
    pub frequency: Frequency,
    /// Targeting.
    pub target: Targeting,
    /// The damage line; a power with one makes an attack roll (K-ROLL-3).
    #[serde(default)]
    pub damage: Option<i32>,
    /// Whether it makes an attack roll even with no damage line.
    #[serde(default)]
    pub roll: bool,
    /// Happens to the user as the power is used, whatever the roll ("you gain 1 Ward, then
    /// attack"): statuses, Ward, healing (every primitive here is `on_user`).
    #[serde(default)]
    pub first: Vec<Effect>,
    /// From a level on, the Effect line reads differently ("at level 4: save ends", K-PROG-4):
    /// the entry with the highest `from` not above the user's level replaces `effect`.
    #[serde(default)]
    pub from_level: Vec<LevelEffect>,
    /// Which creatures in its burst or area it affects: everyone but the user for a burst,
    /// everyone for an area, unless it says otherwise.
    #[serde(default)]
    pub affects: Option<Affects>,
    /// It targets every creature it could target, each rolled separately (Filov's Fusillade:
    /// "every enemy in range"), like a burst (K-MULTI-1).
    #[serde(default)]
    pub every_target: bool,
    /// Up to how many targets a single-target power may take (Defender's Mark at level 4);
    /// from a level on, `from_level` may raise it.
    #[serde(default)]
    pub max_targets: Option<u8>,
    /// A zone the power leaves on its area (K-ZONE-1).
    #[serde(default)]
    pub zone: Option<ZoneDef>,
    /// Happens to the user once every target is resolved, whatever the rolls ("then shift 2
    /// squares"): statuses, Ward, healing, a shift or teleport of the user.
    #[serde(default)]
    pub after: Vec<Effect>,
    /// Only before the user has moved this turn (Get Back Here).
    #[serde(default)]
    pub not_after_moving: bool,
    /// Its attack gets no Role Boost ("no Role Boost", K-ROLE-3).
    #[serde(default)]
    pub no_role_boost: bool,
    /// It counts as a basic attack (`implement` or `physical`) for rules that allow only those
    /// (K-ST-Panicked).
    #[serde(default)]
    pub basic: Option<String>,
    /// The Effect line.
    #[serde(default)]
    pub effect: Vec<Effect>,
    /// A charm's two effects, settled by a Charm Roll (charms.rs); the target is yourself or an
    /// ally in implement range.
    #[serde(default)]
    pub charm: Option<CharmDef>,
    /// The Potions it carries, chosen before the roll: their Effect lines are its Effect
    /// (Toss Potion; brews.rs).
    #[serde(default)]
    pub delivers: Option<crate::engine::records::brewer::Delivery>,
    /// A Potion's Special: what a hit carrying it does to the target before the damage.
    #[serde(default)]
    pub on_hit: Vec<Effect>,
    /// Only wielders of this implement have it (`sword` for Charge).
    #[serde(default)]
    pub requires: Option<String>,
    /// A named rule written in Rust that replaces the usual resolution.
    #[serde(default)]
    pub hook: Option<crate::content::hooks::PowerHook>,
    /// What it does, in our own words.
    pub text: String,
    /// Rule ids it implements.
    #[serde(default)]
    pub rules: Vec<String>,
    /// The class it belongs to (class powers).
    #[serde(default)]
    pub class: Option<String>,
    /// The level it is chosen at (1 or 3 for class powers; 2 or 6 for role encounter powers).
    #[serde(default)]
    pub level: Option<u8>,
    /// The role whose power it is (role powers).
    #[serde(default)]
    pub role: Option<String>,
    /// The specialization that grants it, when only one does.
    #[serde(default)]
    pub specialization: Option<String>,
    /// Which pick it belongs to ("at-will", "encounter", "movement", "trap"...).
    #[serde(default)]
    pub group: Option<String>,
    /// Where the rulebook prints it ("L686").
    #[serde(default)]
    pub source: Option<String>,
    /// Its name was lost in the rulebook's conversion; the name is Fray's (see rulings).
    #[serde(default)]
    pub name_lost: bool,
    /// Listed for look-up and building, but its effect is not played by the engine yet: using it
    /// in a match is refused.
    #[serde(default)]
    pub reference_only: bool,
    /// Special: on its first hit the user may peel points off its own Special Ward, each adding
    /// 1 damage to every hit of this attack (Ward Bash, Ward Burst; wards.rs).
    #[serde(default)]
    pub peel: bool,
    /// Its attack is always rolled with Disadvantage (Trick Shot's Special).
    #[serde(default)]
    pub disadvantage: bool,
    /// Powers that come with this one (Hub Warp's teleports onto the warp).
    #[serde(default)]
    pub grants: Vec<String>,
    /// A rival team's printed version of the class power with this id (content/kazzam/powers/
    /// npc.toml): an athlete of an NPC team that names it in `variants` plays it in place of
    /// that power (§5, rulings "Rival teams").
    #[serde(default)]
    pub variant_of: Option<String>,
    /// A trap power's own numbers, where a stat block prints them otherwise (`TrapNumbers`).
    #[serde(default)]
    pub trap: Option<TrapNumbers>,
}

impl PowerDef {
    /// The Effect line for a user of `level` (K-PROG-4).
    pub fn effect_at(&self, level: u8) -> &[Effect] {
        self.from_level
            .iter()
            .filter(|l| l.from <= level && l.effect.is_some())
            .max_by_key(|l| l.from)
            .and_then(|l| l.effect.as_deref())
            .unwrap_or(&self.effect[..])
    }
    /// Up to how many targets a user of `level` may pick (1 unless the power says more).
    pub fn max_targets_at(&self, level: u8) -> u8 {
        self.from_level
            .iter()
            .filter(|l| l.from <= level && l.max_targets.is_some())
            .max_by_key(|l| l.from)
            .and_then(|l| l.max_targets)
            .or(self.max_targets)
            .unwrap_or(1)
    }
    /// Whom its burst or area affects.
    pub fn affects(&self) -> Affects {
        self.affects.unwrap_or(match self.target {
            Targeting::Area { .. } => Affects::All,
            _ => Affects::Others,
        })
    }
    /// Whether using it makes an attack roll.
    pub fn rolls(&self) -> bool {
        self.damage.is_some() || self.roll
    }
    /// Whether it is an implement-icon power (K-IMP-9).
    pub fn uses_implement(&self) -> bool {
        self.target == Targeting::Implement
    }
    /// Whether it is an "attack" (K-ACT-10): it costs an Attack Action or rolls.
    pub fn is_attack(&self) -> bool {
        self.action == ActionKind::Attack || self.rolls()
    }
    /// Whether its Effect lets another creature make an attack.
    pub fn grants_attacks(&self) -> bool {
        self.effect
            .iter()
            .chain(self.from_level.iter().flat_map(|l| l.effect.iter().flatten()))
            .any(|e| e.grant_attack || e.grant.is_some())
    }
    /// Whether it is a melee attack (for Advantage vs Prone or Blinded, flanking).
    pub fn is_melee(&self, implement_is_sword: bool) -> bool {
        self.target == Targeting::Melee || (self.target == Targeting::Implement && implement_is_sword)
    }
}

/// A content file of powers.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerFile {
    /// The powers.
    pub power: Vec<PowerDef>,
}

/// Every power a match knows, by index.
#[derive(Clone, Debug, Default)]
pub struct Powers {
    defs: Vec<PowerDef>,
    /// Index by id (ids are unique: `add` replaces a power of the same id).
    by_id: HashMap<String, u16, Fnv>,
    /// Index by lower-cased name, the first power of each name.
    by_name: HashMap<String, u16, Fnv>,
    /// What [`Powers::find`] answers for a key written as in content (lowercase, digits,
    /// dashes): the first power with that id or that name, in one look-up.
    by_key: HashMap<String, u16, Fnv>,
}

/// FNV-1a: a quick hash for the short ids the rules look powers up by.
type Fnv = std::hash::BuildHasherDefault<FnvHasher>;

/// The state of an FNV-1a hash.
struct FnvHasher(u64);

impl Default for FnvHasher {
    fn default() -> Self {
        FnvHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for FnvHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Built-in power files, compiled in.
pub const BUILTIN: &[(&str, &str)] = &[
    ("content/kazzam/powers/basic.toml", include_str!("../../../../content/kazzam/powers/basic.toml")),
    ("content/kazzam/powers/examples.toml", include_str!("../../../../content/kazzam/powers/examples.toml")),
    ("content/kazzam/powers/arenas.toml", include_str!("../../../../content/kazzam/powers/arenas.toml")),
    ("content/kazzam/powers/npc.toml", include_str!("../../../../content/kazzam/powers/npc.toml")),
];

impl Powers {
    /// Loads a power file, checking every power; errors name file, line and field.
    pub fn load(&mut self, file: &str, text: &str) -> Result<(), String> {
        let parsed: PowerFile = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
        for def in parsed.power {
            self.add(def).map_err(|e| format!("{file}: {e}"))?;
        }
        Ok(())
    }
    /// Adds one power after checking it; a power with the same id replaces the old one.
    pub fn add(&mut self, def: PowerDef) -> Result<u16, String> {
        check_power(&def)?;
        if let Some(&i) = self.by_id.get(&def.id) {
            self.defs[i as usize] = def;
            // A name may have changed: index the names again.
            self.by_name.clear();
            for (j, d) in self.defs.iter().enumerate() {
                self.by_name.entry(d.name.to_lowercase()).or_insert(j as u16);
            }
            self.index_keys();
            return Ok(i);
        }
        let i = self.defs.len() as u16;
        self.by_id.insert(def.id.clone(), i);
        self.by_name.entry(def.name.to_lowercase()).or_insert(i);
        for key in [def.id.clone(), def.name.to_lowercase()] {
            let first = self.by_key.entry(key).or_insert(i);
            *first = (*first).min(i);
        }
        self.defs.push(def);
        Ok(i)
    }
    /// Builds `by_key` from `by_id` and `by_name` again.
    fn index_keys(&mut self) {
        self.by_key.clear();
        for (k, &i) in self.by_id.iter().chain(self.by_name.iter()) {
            let first = self.by_key.entry(k.clone()).or_insert(i);
            *first = (*first).min(i);
        }
    }
    /// The power at `i`.
    pub fn get(&self, i: u16) -> &PowerDef {
        &self.defs[i as usize]
    }
    /// The index of the power called `id`: its id, or its name in any case, spaces and
    /// underscores in an id read as dashes; the first power either way.
    pub fn find(&self, id: &str) -> Option<u16> {
        let first = |a: Option<&u16>, b: Option<&u16>| match (a, b) {
            (Some(&a), Some(&b)) => Some(a.min(b)),
            (a, b) => a.or(b).copied(),
        };
        // An id as written in content and code needs no normalising.
        if id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
            let found = self.by_key.get(id).copied();
            debug_assert_eq!(found, first(self.by_id.get(id), self.by_name.get(id)));
            return found;
        }
        let lower = id.trim().to_lowercase();
        first(self.by_id.get(&lower.replace([' ', '_'], "-")), self.by_name.get(&lower))
    }
    /// The index of the power whose id is exactly `id` (ids are unique).
    pub fn by_exact_id(&self, id: &str) -> Option<u16> {
        self.by_id.get(id).copied()
    }
    /// Every power.
    pub fn all(&self) -> &[PowerDef] {
        &self.defs
    }
}

fn check_power(def: &PowerDef) -> Result<(), String> {
    let at = |field: &str, msg: String| Err(format!("power {:?}, field {field}: {msg}", def.id));
    if def.id.is_empty() || def.id.chars().any(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')) {
        return at("id", "use lowercase letters, digits and dashes".into());
    }
    for (i, l) in def.from_level.iter().enumerate() {
        if !(2..=6).contains(&l.from) {
            return at(&format!("from_level[{i}].from"), format!("{} is not a level 2-6", l.from));
        }
    }
    let level_effects = def.from_level.iter().flat_map(|l| l.effect.iter().flatten());
    let mut all: Vec<&Effect> = Vec::new();
    fn flatten<'a>(out: &mut Vec<&'a Effect>, e: &'a Effect) {
        out.push(e);
        for inner in e
            .one_of
            .iter()
            .flat_map(|c| c.effect.iter())
            .chain(e.pick.iter().flat_map(|p| p.effect.iter()))
            .chain(e.curse.iter().flat_map(|c| c.effect.iter()))
        {
            flatten(out, inner);
        }
    }
    let charm_effects = def.charm.iter().flat_map(|c| c.effect_1.iter().chain(&c.doubled).chain(&c.effect_2));
    for e in def.effect.iter().chain(level_effects).chain(charm_effects) {
        flatten(&mut all, e);
    }
    for (i, e) in all.into_iter().enumerate() {
        if let Some(w) = &e.when
            && !WHEN.contains(&w.as_str())
        {
            return at(&format!("effect[{i}].when"), format!("unknown condition {w:?}; use {}", WHEN.join(" or ")));
        }
        if let Some(s) = &e.status {
            match StatusKind::parse(s) {
                None => {
                    return at(&format!("effect[{i}].status"), format!("unknown status {s:?}"));
                }
                Some(k) if k.has_amount() && e.amount.is_none() => {
                    return at(&format!("effect[{i}].amount"), format!("{k} needs an amount"));
                }
                _ => {}
            }
        }
        for (field, cond) in [("if_target", &e.if_target), ("unless_target", &e.unless_target)] {
            if let Some(c) = cond
                && c != "bloodied"
                && StatusKind::parse(c).is_none()
            {
                return at(&format!("effect[{i}].{field}"), format!("{c:?} is neither a status nor bloodied"));
            }
        }
        let moves = [e.push, e.pull, e.slide, e.throw, e.teleport].iter().any(Option::is_some);
        if let Some(g) = &e.grant
            && g.power.as_deref().is_some_and(|p| p != "basic-implement-attack" && p != "basic-physical-attack")
        {
            return at(
                &format!("effect[{i}].grant.power"),
                "use basic-implement-attack or basic-physical-attack".into(),
            );
        }
        if e.on_user && (moves || e.banish || e.grant_attack || e.damage.is_some()) {
            return at(
                &format!("effect[{i}].on_user"),
                "on_user applies a status, Ward or healing to the user; forced movement, banishing, granted attacks and damage stay on the target".into(),
            );
        }
    }
    for (i, e) in def.first.iter().enumerate() {
        let moves = [e.push, e.pull, e.slide, e.throw, e.teleport].iter().any(Option::is_some);
        if moves
            || e.banish
            || e.grant_attack
            || e.damage.is_some()
            || e.if_target.is_some()
            || e.unless_saved
            || e.shift_self.is_some()
        {
            return at(
                &format!("first[{i}]"),
                "what happens first is a status, Ward or healing for the user; put the rest in effect".into(),
            );
        }
    }
    for (i, e) in def.after.iter().enumerate() {
        let moves = [e.push, e.pull, e.slide, e.throw, e.teleport].iter().any(Option::is_some);
        if moves || e.banish || e.grant_attack || e.damage.is_some() || e.if_target.is_some() || e.unless_saved {
            return at(
                &format!("after[{i}]"),
                "what happens after is a status, Ward, healing, a shift or a teleport for the user".into(),
            );
        }
    }
    if def.zone.is_some() && !matches!(def.target, Targeting::Area { .. }) {
        return at("zone", "a zone needs an area: target = { kind = \"area\", range = N, size = N }".into());
    }
    if let Targeting::Area { size, .. } = def.target
        && (size < 1 || size % 2 == 0)
    {
        return at("target.size", format!("{size}: an area is an odd number of squares across (3 for 3x3)"));
    }
    if let Some(b) = &def.basic
        && !matches!(b.as_str(), "implement" | "physical")
    {
        return at("basic", format!("{b:?}: write implement or physical"));
    }
    if let Some(r) = &def.requires
        && crate::engine::records::implement::Implement::parse(r).is_none()
    {
        return at("requires", format!("unknown implement {r:?}; use wand, staff or sword"));
    }
    Ok(())
}

/// A curse as content writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct CurseDef {
    /// What sets it off.
    pub on: crate::engine::records::curses::CurseOn,
    /// How long it waits, as a status's `until` (default: the end of the target's next turn).
    #[serde(default)]
    pub until: Option<crate::engine::records::statuses::Until>,
    /// What happens.
    pub effect: Vec<Effect>,
}

/// A charm's two effects as content writes them (`charm = { effect-1 = [...], doubled = [...],
/// effect-2 = [...] }`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct CharmDef {
    /// Effect 1 (it always holds a number).
    pub effect_1: Vec<Effect>,
    /// Effect 1 with its number doubled (a 6 on the Charm Roll).
    pub doubled: Vec<Effect>,
    /// Effect 2.
    pub effect_2: Vec<Effect>,
}
