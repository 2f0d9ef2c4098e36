//! Attack modifier records (K-ADV); the rules are in [`crate::rules::modifiers`].

use crate::engine::ids::UnitIdx;
use crate::engine::records::statuses::Duration;
use serde::{Deserialize, Serialize};

/// A modifier on the field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Modifier {
    /// What it does.
    pub kind: ModifierKind,
    /// Its number.
    pub amount: i32,
    /// Whose attacks.
    pub attackers: Attackers,
    /// Against whom, if only one creature.
    pub against: Option<UnitIdx>,
    /// Used up by the first roll it changes.
    pub first: bool,
    /// Only during this creature's turn with this number.
    pub during: Option<(UnitIdx, u32)>,
    /// How long it lasts.
    pub duration: Duration,
    /// Who laid it down.
    pub source: UnitIdx,
    /// With which power.
    pub power: u16,
}

/// What a modifier does to an attack roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModifierKind {
    /// The roll has Advantage.
    Advantage,
    /// A rival Charmer's Role Boost, given to the ally it charmed for the ally's next attack
    /// roll: on a 3-6 the boost works as its maker's (L2831, L4099; charmer.rs).
    GiftedBoost,
    /// The roll has Disadvantage.
    Disadvantage,
    /// The target takes `amount` more damage from the attack, as Vulnerable that counts only
    /// against these attackers (Victimize).
    Vulnerable,
    /// The attackers' Opportunities deal `amount` more damage (Inhale, Exhale).
    OpportunityDamage,
    /// On the attack it applies to, a roll of 6 makes the target save: a failure Takes it Out,
    /// a success leaves it Distracted until the end of its next turn (Let's End This).
    Execution,
    /// Disadvantage on any attack whose targets leave out the modifier's maker (You're Mine).
    Spurned,
    /// The Special Ward its maker hands out next is `amount` bigger (Ward Boost).
    WardBoost,
    /// A hit deals `amount` extra damage (Assault Charm).
    ExtraDamage,
    /// The creature's speed goes up by `amount` (Surefoot Charm); the attacker names it.
    Speed,
    /// Whoever the attacker attacks counts as Guarded against it (Stoneskin, K-ST-Guarded).
    TargetsGuarded,
    /// The attacker's attacks roll no die and count as a 6, and deal no damage (Dispersion).
    HitAsSix,
    /// Every saving throw the attacker makes succeeds (Luck Charm).
    SavesSucceed,
    /// The attacker sees, and so targets, nothing more than `amount` squares away (Close Focus
    /// Charm).
    SightLimit,
    /// The attacker's melee attacks have Advantage (Close Focus Charm).
    MeleeAdvantage,
    /// As the attacker's turn starts in round `amount`, it teleports next to the creature
    /// `against` (Draught of Bonded Futures).
    BondedFutures,
    /// As its `during` turn ends, the attacker hands `amount` HP to each creature within 2, or
    /// carries the debt to its next turn, 1 higher, if nobody is there (Generosity Tonic).
    Generosity,
    /// The attacker cannot be Taken Out; at 0 HP or less it goes on acting (Ugnatio's
    /// Preservation Charm).
    Undying,
    /// The attacker takes Opportunities against its allies and none against its enemies
    /// (Lesser Confusion).
    Confused,
    /// In round `amount`, every roll by the maker's team has Advantage (Coin of Fortune).
    TeamAdvantage,
    /// In round `amount`, every roll by the team opposing the maker has Disadvantage (Coin of
    /// Fortune).
    EnemyDisadvantage,
    /// The attacker's attacks on `against` ignore Concealment and Low Cover; with `amount` 2,
    /// every Cover and Hidden too (Draw a Bead; role_actions.rs).
    DrawABead,
    /// `against` is Concealed from enemies more than `amount` squares away (Cloak).
    Cloak,
    /// The next ally of the maker to attack `against` while the maker is next to it deals
    /// `amount` more damage on a hit, or gains a Miss Token on a miss (Outflank).
    Outflank,
    /// The attacker's next saving throw or escape roll has Advantage (Restore).
    SaveAdvantage,
    /// A record: the attacker used Hide on its turn number `amount` (Hide's limit).
    HideUsed,
    /// The attacker may not attack `against` this turn, unless it is the last enemy on the
    /// map (Spread Fire).
    SpreadFire,
    /// A record: the attacker has attacked `against` this turn (Spread Fire's limit).
    Attacked,
    /// The attacker's implement range is at least `amount` (Focus).
    ImplementRange,
    /// The attacker's next implement attack has Advantage, and deals 1 more damage if it is a
    /// basic implement attack (Focus; wandslinger.rs).
    Focus,
    /// A record: the attacker may use no Potion or Elixir until it spends an Attack Action to
    /// recover (Kill Switch; brews.rs).
    BrewsLocked,
    /// The attacker's hits deal `amount` extra damage to creatures whose squares it passed
    /// through this turn (Wraith Charm; charms.rs).
    Wraith,
    /// A record: the attacker passed through the square of `against` this turn (Wraith Charm).
    PassedThrough,
    /// The attacker may take off (become Flying) with any Move Action (Takeoff Charm).
    Takeoff,
    /// The attacker's reach grows by `amount` (Enlarging Charm).
    Reach,
    /// The attacker's Basic Physical Attacks deal `amount` extra damage when they hit; it
    /// grows to 2x2 while it lasts, room allowing (Enlarging Charm; charms.rs).
    Enlarged,
    /// The attacker may not attack `against` at all (a Love or Horror Beast's Miss Trigger).
    Forbidden,
}

/// Whose attacks a laid-down modifier changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "unit")]
pub enum Attackers {
    /// One creature's.
    Unit(UnitIdx),
    /// The allies of this creature (not itself).
    AlliesOf(UnitIdx),
    /// Anyone's.
    Any,
}

fn anyone() -> Party {
    Party::Anyone
}

/// A modifier as content writes it, inside an Effect line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ModifierDef {
    /// What it does.
    pub kind: ModifierKind,
    /// Its number (Vulnerable, extra damage, speed).
    #[serde(default)]
    pub amount: i32,
    /// Whose attacks it changes.
    pub attacker: Party,
    /// Against whom (the default: anyone).
    #[serde(default = "anyone")]
    pub against: Party,
    /// Only the first attack roll that qualifies, then it is used up.
    #[serde(default)]
    pub first: bool,
    /// Only during the next turn of `you` or the `target` ("on its next turn").
    #[serde(default)]
    pub during: Option<Party>,
    /// How long it lasts, as a status's `until` (the default: the end of the target's next turn).
    #[serde(default)]
    pub until: Option<crate::engine::records::statuses::Until>,
}

/// A party named relative to a power's user and target, as content writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Party {
    /// The power's user.
    You,
    /// The user's allies (not the user).
    Allies,
    /// The creature the primitive applies to (the power's target, or the one a `pick` chose).
    Target,
    /// The power's own target, inside a `pick` ("the ally's attacks against the target").
    PowerTarget,
    /// Anyone.
    Anyone,
}
