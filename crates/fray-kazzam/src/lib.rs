//! Kazzam: A Magical Sport, on the Fray engine.
//!
//! Code map, by the names players give the rules: [`engine`] (the match state, the journal of
//! events that alone changes it, the resolution stack, trigger points, the `Game` impl, setups,
//! scenarios and views), [`rules`] (the core rules by area: actions, movement, attacks, damage,
//! statuses, orbs, cover, zones, turns, Creeps), [`classes`] (one file per class, and class
//! features in play), [`roles`] (Role Boosts and Role Actions), [`implements`] (advanced
//! implements), [`content`] (the content files as a value, the character builder, the built-in
//! match and the rules look-up).
#![deny(missing_docs)]

pub mod classes;
pub mod content;
pub mod engine;
pub mod implements;
pub mod roles;
pub mod rules;

pub use content::Content;
pub use engine::events::Event;
pub use engine::game::{Kazzam, MatchSetup};
pub use engine::state::State;
pub use rules::actions::Command;
