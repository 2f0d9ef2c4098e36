//! The core rules a player learns first, by rule area: actions, movement, attacks, damage, statuses, orbs, cover, zones, turns, Creeps.

pub mod actions;
pub mod attack;
pub mod beasts;
pub mod contagion;
pub mod control;
pub mod counters;
pub mod cover;
pub mod creep_tricks;
pub mod creeps;
pub mod curses;
pub mod damage;
pub mod effects;
pub mod forced;
pub mod map_rules;
pub mod modifiers;
pub mod movement;
pub mod opportunity;
pub mod orbs;
pub mod portals;
pub mod query;
pub mod quests;
pub mod saves;
pub mod scoring;
pub mod shades;
pub mod statuses;
pub mod summons;
pub mod team_traits;
pub mod turn;
pub mod zones;

/// The arena is data the state holds; it lives in [`crate::engine::arena`].
pub use crate::engine::arena;
