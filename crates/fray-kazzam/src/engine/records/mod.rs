//! The data layer: the records the match state holds, as plain data. Architecture invariant
//! (tests/all/layers.rs): these files, [`crate::engine::state`] and the content files import no rule,
//! class, role or implement module, nor the resolution stack or trigger points; the rules that
//! read and change these records live in those modules and re-export them at their old paths.

pub mod advanced;
pub mod brewer;
pub mod charmer;
pub mod control;
pub mod creeps;
pub mod curses;
pub mod empathy;
pub mod features;
pub mod implement;
pub mod modifiers;
pub mod porter;
pub mod removal;
pub mod roles;
pub mod statuses;
pub mod summons;
pub mod tamer;
pub mod triggers;
pub mod zones;
