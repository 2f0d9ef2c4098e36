//! The Role Boosts as data: which one a unit has (K-ROLL-5, §2.11) and a Striker's reading of
//! one attack.

/// A Role Boost Fray applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boost {
    /// Controller (every specialization): slide the target 3 squares; from level 4, 4 squares
    /// and into other characters.
    Controller,
    /// Juggernaut: gain 1 Ward (level 4+: 2 if you have none).
    Juggernaut,
    /// Smasher: at full HP 1 more damage; otherwise regain 1 HP (level 4+: 2 while Bloodied).
    Smasher,
    /// Leader: one ally you can see regains 2 HP (level 4+: 3); Rescuer +1 if that ally is
    /// Bloodied; Vanguard may take it itself; Motivator may heal past maximum HP; Tactician's
    /// healed ally may shift 1.
    Leader,
    /// Punisher: with an enemy Marked by you, +1 Opportunity damage until your next turn;
    /// otherwise Mark the target (level 4+: and one more enemy within 5). defctl.rs.
    Punisher,
    /// Pursuer: pull the target 2 (level 4+: 4); one already adjacent is slid round you, then
    /// you shift 1. defctl.rs.
    Pursuer,
    /// Runner: shift 1 then move 3 (level 4+: shift 6, no move).
    Runner,
    /// Trapper: once the attack is over, a 2-HP trap next to the target (2 damage; 3 at level 4+).
    Trapper,
    /// Terrain Artist: Change Terrain or Boost Square on or next to the target, at any range.
    TerrainArtist,
    /// Striker (every specialization): extra damage by roll and Striker Condition (striker.rs).
    Striker(Strike),
    /// Hunter: extra damage against Creeps and Summoned Creatures (striker.rs).
    Hunter,
}

/// A Striker's boost for one attack, read once the roll is known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strike {
    /// The Striker Condition is met.
    pub met: bool,
    /// The extra damage (0 when the roll gives none or the hit deals no damage).
    pub extra: i32,
    /// A Blaster's: how many other targets take the extra damage, within how many squares.
    pub splash: Option<(u8, i32)>,
}
