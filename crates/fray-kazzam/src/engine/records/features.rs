//! Class feature records; the rules are in [`crate::classes::features`].

use crate::engine::ids::UnitIdx;

/// A class feature a unit has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Hexer: a 2 reads as a 5 while exactly one enemy is within 5 squares (L666).
    Duelist,
    /// Hexer: a 2 reads as a 5 while two or more enemies are within 3 squares (L668).
    Brawler,
    /// Hexer: a 2 reads as a 5 when an ally is adjacent to the target (L670).
    TeamUp,
    /// Hexer: a roll of 6 leaves the target Panicked for its next turn (L746).
    Terror,
    /// Wandslinger: basic implement attacks ignore Ward and Resist (L754).
    PiercingShot,
    /// Wandslinger: basic implement attacks ignore cover and line of sight (L756).
    RicochetShot,
    /// Wandslinger: basic implement attacks ignore Concealment and Hidden (L758).
    SeekingShot,
    /// Porter: wand or staff range 10; a hit on an enemy 5+ squares away may teleport it 2 (L922).
    SpellwarpSniper,
    /// Porter: a hit on an enemy within 3 squares may swap places with it (L924).
    PortalBrawler,
    /// Porter: always Hovering; a Move Action power gives Flying (L926).
    SelfLift,
    /// Wardmaster: at the end of each of its turns, 1 Special Ward to itself or an ally in sight (L842).
    SpecialWard,
    /// Wardmaster level 5: 2 Special Ward a turn, and the level-1 feature improves (L910).
    ImprovedWardmaster,
    /// Wardmaster: anyone holding your Special Ward has +2 speed (+3 improved) (L846).
    MotileWard,
    /// Wardmaster: an enemy missing anyone holding your Special Ward takes 1 damage (2 improved) (L848).
    ReflectiveWard,
    /// Charmer: an implement attack's Effect (or a charm) on an ally with 1+ HP heals it 1 (2 from
    /// level 5) (L1550, L1646).
    Cheerful,
    /// Charmer: Creative Use on an ally earns a Miss Token (L1552).
    Creative,
    /// Diviner: a die foreseen each round, used once in place of a roll, or 3 damage (L1179).
    Seer,
    /// Diviner: Lock On to a creature in sight within 5 as your turn ends (L1187).
    Scryer,
    /// Diviner level 5: one teammate shares the Scryer's lock (L1273).
    ImprovedScryer,
    /// Shivering Sword blade enchantment: an attack missing you while you Grab an enemy, or its
    /// failed escape roll, costs it 2 damage (L1064).
    SwordHold,
    /// Shivering Sword blade enchantment: once a round an enemy ending its turn in reach takes 1
    /// (L1066).
    Whirling,
    /// Shivering Sword blade enchantment: Focus Tokens add to rolls against the same target
    /// (L1072).
    FocusedBlade,
    /// Shivering Sword blade enchantment: a hit may move one status between you and the target
    /// (L1068).
    StatusThief,
    /// Shivering Sword blade enchantment: pay 2 unresisted damage to hit back, or to hit another
    /// enemy in reach after a melee hit (L1070).
    GuardlessBlade,
    /// Shivering Sword self-charm: Resist 2 against damage from a chosen half of the map, melee
    /// attacks aside (L1076).
    DirectionalShield,
    /// Shivering Sword self-charm: enemies within 3 take no Opportunities your allies grant (L1080).
    ConsumingFocus,
    /// Porter level 5: allies within 5 squares are Hovering (L1042).
    LiftSpecialist,
    /// Porter level 5: whoever the Porter teleports, itself or an ally, gains 1 Ward (L1044).
    TeleportationSpecialist,
    /// Tinker robes: Guarded against melee attacks and adjacent enemies' other attacks (L1387).
    TinkerArmor,
    /// Tinker robes: Guarded against non-melee attacks by enemies not adjacent (L1388).
    TinkerCloak,
    /// Shivering Sword self-charm: an adjacent enemy attacking or damaging you takes 1 (once per
    /// enemy a turn); a Grab between you and an enemy costs it 1 each turn (L1084).
    Electrified,
    /// Wardmaster: Charge Tokens when an ally loses your Special Ward to damage; spent on +1 damage
    /// or +1 Special Ward (L850, L916).
    CapacitiveWard,
    /// Shivering Sword self-charm: Reach 2 (L1078).
    LongArm,
    /// Shivering Sword self-charm: Regenerate 1 (L1082).
    Regenerative,
    /// Tinker: each trap set holds 1 more charge (L1305).
    ImprovedTrapsCharge,
    /// Tinker: each trap deals 1 more damage when it springs (L1306).
    ImprovedTrapsDamage,
    /// Tinker: each trap ignores the first damage that reaches it (L1307).
    ImprovedTrapsResist,
    /// Tinker robe trick: an enemy's miss adds a charge to one of the Tinker's traps (L1392).
    Redirecting,
    /// Tinker robe trick: an enemy's miss is kept, and turned on the next enemy that hits (L1393).
    Absorbing,
    /// Diviner level 5: a second foreseen die each round, for a teammate to use (L1271).
    ImprovedSeer,
    /// Porter level 5: two warps may stand on the map at once (L1040).
    WarpSpecialist,
    /// Hexer level 5: end-of-next-turn effects on enemies last while the Hexer chants (L744).
    Jinxer,
    /// Brewer level 5: Unstable Concoction, Hurl Flask and Potent Edge improve (L1515); the rules
    /// read the Brewer's level, which always brings it (brews.rs).
    ImprovedAtWills,
    /// Tamer: a commanded summoned creature gains 1 Ward (L1685; tamer.rs).
    Commander,
    /// Tamer level 5: a commanded creature already holding Ward is Fierce (L1819; tamer.rs).
    AdvancedCommander,
    /// Tamer: two summons per summon level, one use spends both (L1681; tamer.rs, builder).
    Collector,
    /// Tamer level 5: Collector, or three summons per level with it (L1821; tamer.rs, builder).
    CompletionistCollector,
    /// Tamer creature: the Spitting Tree's stat block (L1729-1733; tamer.rs).
    SpittingTree,
    /// Tamer creature: the Flame Pig's stat block (L1745-1749; tamer.rs).
    FlamePig,
    /// Tamer creature: the Scalehound's stat block (L1761-1765; tamer.rs).
    Scalehound,
    /// Tamer: conjured creatures last a round longer (L1683; tamer.rs).
    Conjuror,
    /// Tamer level 5: each conjuring conjures a second creature in implement range (L1817).
    MassConjuror,
    /// Tamer creature: the Kerpoof's stat block (L1781-1783; tamer.rs).
    Kerpoof,
    /// Tamer creature: the Giraffape's stat block (L1795-1797; tamer.rs).
    Giraffape,
    /// Tamer creature: the Nettlekin's stat block (L1809-1813; tamer.rs).
    Nettlekin,
    /// Shivering Sword Self-Charm: Charges ignore Difficult and Damaging Terrain, pass through
    /// creatures, grant no Opportunities and may end with any At-Will attack (L1086).
    MistyCharge,
    /// Diviner: Empath (L1171-1175; empathy.rs).
    Empath,
    /// Diviner: Improved Empath (L1269; empathy.rs).
    ImprovedEmpath,
    /// Charmer: Lasting (L1554, L1650; charms.rs).
    Lasting,
    /// A feature in the class files that Fray does not play yet (an index into the match's
    /// [`Content::features`]).
    Listed(u16),
}

/// A number a feature keeps on its unit between events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter {
    /// Whose counter.
    pub feature: Feature,
    /// The number (Whirling: 1 once used this round; Focused Blade: Focus Tokens).
    pub value: i32,
    /// Whom it is about (Focused Blade's target).
    pub about: Option<UnitIdx>,
}
