//! Panic at the Dojo combat on the Fray engine, from the rulebook
//! (`../shared/seeds/002_f9e4697d771d6801.txt`, CC-BY-SA) with the checklist
//! `../shared/rules/dojo.md` (ids D-*); rulings in docs/rulings/dojo.md.
//!
//! Code map, in layers:
//!
//! - data: [`content`] (Forms with their action dice, Basic Actions, tokens, as TOML under
//!   `content/dojo/`), [`enemies`] (the enemy chapter's forces and the Stooges' rules), [`frames`], [`state`] (units, bars, Shields, tokens, pools, the meter;
//!   the journal's events and `apply`, the only code that changes a fact);
//! - [`copies`] (placing, moving and breaking Copies, acting from one; Crystal and Illusion), a
//!   leaf the rules call;
//! - [`style_abilities`] (the Style abilities played at a turn's start and end, after hits,
//!   and on sight, range and Armor), a leaf the rules call;
//! - rules: [`rules`] (the round and the meter, the turn, actions and their effects, hits,
//!   healing, tokens, forced and Free Movement), [`archetypes`] (the Archetype abilities played),
//!   [`bosses`] (the Boss Archetypes and the one-Boss content, a leaf the rules call by hooks),
//!   [`last_stand`] (the end of a fight);
//! - [`complications`] (guests and switched sides), [`stakes`] (Bonuses and Penalties handed out as a fight starts, and the
//!   hooks of those that last a round);
//! - the top: [`setup`] (table options, encounter files), [`creation`] (the hero creation rules
//!   `fray build` checks), [`game`] (the `Game` and `System`,
//!   the view, scenario files).
#![deny(missing_docs)]

pub mod archetypes;
pub mod bosses;
pub mod complications;
pub mod content;
pub mod copies;
pub mod creation;
pub mod enemies;
pub mod frames;
pub mod game;
pub mod last_stand;
pub mod rules;
pub mod setup;
pub mod stakes;
pub mod state;
pub mod style_abilities;

pub use game::{Command, Dojo, FightSetup};
pub use state::{Event, State};
