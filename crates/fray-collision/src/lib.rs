//! Collision (New World Gaming Co.'s Character Creation Guide) on the Fray engine: the character
//! card builder. The option tables and glossary are data ([`content`]); [`builder`] checks a
//! character or battle-group file against every creation rule (C-CREATE-*) and computes the
//! cards; [`card`] writes them as text and SVG; [`reference`] is the rules look-up.
//!
//! The battle game, reconstructed from the guide (rules/collision.md §5.3, rulings in
//! docs/rulings/collision.md): [`battle`] (table options, fighters, what is pending), [`rules`]
//! (the turn, movement, attacks, reactions, recovery, victory), [`play`] (the `Game`, the view,
//! scenario files); [`abilities`] (ability attacks, special weapon attacks,
//! support abilities and passive effects, grouped by mechanism); [`reactions`] (reactions by the
//! attacking side, to abilities, to moves and to activations); [`study`] (the points study of
//! `fray sim collision --points-study`); [`system`] offers both to the `fray` program.
#![deny(missing_docs)]

pub mod abilities;
pub mod battle;
pub mod builder;
pub mod card;
pub mod content;
pub mod objectives;
pub mod play;
pub mod reactions;
pub mod reference;
pub mod rules;
pub mod study;
pub mod system;
pub mod tactics;
pub mod terrain;

pub use builder::{Card, CardWeapon, Checked, check_file};
pub use content::Content;
pub use play::{BattleSetup, Collision, Command};
pub use system::system;
