//! Kazzam: A Magical Sport, on the Fray engine.
//!
//! Code map, by rule area: [`arena`] (terrain, pedestals, Dungeon), [`state`] (units, orbs),
//! [`statuses`] (K-ST), [`events`] (the journal and the only code that changes state),
//! [`flow`] (the resolution stack and decisions), [`turn`] (initiative, phases, saves, the
//! end), [`actions`] (the action economy, the menu, commands), [`movement`] (K-MOVE),
//! [`opportunity`] (K-OPP), [`attack`] (K-ROLL, K-MISS, K-MULTI, K-ADV), [`damage`] (Ward,
//! Resist, Vulnerable, Taken Out, scoring Take Outs), [`forced`] (K-FM), [`zones`] (K-ZONE,
//! damaging terrain), [`cover`] (K-COV, K-CONC), [`orbs`] (K-ORB, dunking), [`powers`] (power
//! data), [`features`] (class features in play), [`empathy`] (the Diviner's Empath and Empathic Bond), [`role_actions`] (Role Actions in Rust), [`setup`] and [`scenario`] (building matches), [`view`] (what readers see),
//! [`builtin`] (the default arena and teams), [`options`] (table options), [`reference`] (the
//! rules look-up), [`content`] (the content files as a value a game and its states hold).
#![deny(missing_docs)]

pub mod actions;
pub mod advanced;
pub mod arena;
pub mod attack;
pub mod boosts;
pub mod brews;
pub mod builder;
pub mod builtin;
pub mod charms;
pub mod classes;
pub mod contagion;
pub mod content;
pub mod control;
pub mod cover;
pub mod creeps;
pub mod curses;
pub mod damage;
pub mod defctl;
pub mod divination;
pub mod empathy;
pub mod events;
pub mod features;
pub mod flow;
pub mod forced;
pub mod gadgets;
pub mod game;
pub mod jinx;
pub mod modifiers;
pub mod movement;
pub mod opportunity;
pub mod options;
pub mod orbs;
pub mod pest;
pub mod powers;
pub mod reference;
pub mod removal;
pub mod robes;
pub mod role_actions;
pub mod roles;
pub mod scenario;
pub mod setup;
pub mod specialists;
pub mod state;
pub mod statuses;
pub mod striker;
pub mod summons;
pub mod sword_moves;
pub mod tamer;
pub mod triggers;
pub mod turn;
pub mod view;
pub mod wandslinger;
pub mod wards;
pub mod warp_origin;
pub mod warps;
pub mod zones;

pub use actions::Command;
pub use content::Content;
pub use events::Event;
pub use game::{Kazzam, MatchSetup};
pub use state::State;
