//! Panic at the Dojo combat on the Fray engine, from the rulebook
//! (`../shared/seeds/002_f9e4697d771d6801.txt`, CC-BY-SA) with the checklist
//! `../shared/rules/dojo.md` (ids D-*); rulings in docs/rulings/dojo.md.
//!
//! Code map, in layers (each uses only the layers above it, except the three rule modules
//! marked below, which call each other):
//!
//! - data: [`content`] (Forms with their action dice, Styles, Archetypes, Basic Actions, tokens,
//!   and in its submodules the enemy file, the Boss Archetypes and the Bonuses and Penalties, as
//!   TOML under `content/dojo/`, each checked as it is read), [`frames`] (what is pending);
//! - the facts: [`state`] (units, bars, Shields, tokens, pools, the meter; the journal's events
//!   and `apply`, the only code that changes a fact);
//! - plain effects: [`effects`] (distance, healing, gaining tokens); [`figures`] (the units that
//!   stand as several figures, the Twins and Stooges with `stooge-figures`, and their squares);
//!   [`big`] (the units filling several squares, the Giant and the Vehicle: their squares,
//!   distances, riders and Edges);
//! - leaves the rules call: [`copies`] (placing, moving and breaking Copies, acting from one;
//!   Crystal and Illusion), [`style_abilities`] (Style abilities at a turn's start and end, after
//!   hits, on sight, range and Armor), [`bosses`] (the Boss Archetypes' play), [`stakes`]
//!   (Bonuses and Penalties handed out as a fight starts, and the hooks of those that last a
//!   round), [`last_stand`] (the end of a fight), [`complications`] (guests and switched sides),
//!   [`heroic_spirit`] (who takes an out unit's numbers, and Heroic Power Up's Bonus);
//! - rules: [`rules`] (the round and the meter, the turn, actions and their effects, hits, forced
//!   and Free Movement, the end of a fight), with [`archetypes`] (the Archetype abilities played)
//!   and [`enemies`] (the enemy forces and the Stooges' rules), which deal damage through it,
//!   and [`endless_stooges`] (the optional rule D-OPT-4: Stooges lost on each hit, fresh ones
//!   as their turns start);
//! - the top: [`setup`] (table options, encounter files), [`creation`] (the hero creation rules
//!   `fray build` checks), [`game`] (the `Game` and `System`, the view, scenario files).
#![deny(missing_docs)]

pub mod archetypes;
pub mod big;
pub mod bosses;
pub mod complications;
pub mod content;
pub mod copies;
pub mod creation;
pub mod effects;
pub mod endless_stooges;
pub mod enemies;
pub mod figures;
pub mod frames;
pub mod game;
pub mod heroic_spirit;
pub mod last_stand;
pub mod rules;
pub mod setup;
pub mod stakes;
pub mod state;
pub mod style_abilities;

pub use game::{Command, Dojo, FightSetup};
pub use state::{Event, State};
