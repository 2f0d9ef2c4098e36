//! The engine Kazzam runs on: the match state, the journal of events (the only code that changes state), the resolution stack, trigger points, the Game impl, setups, scenarios, views and table options.

pub mod appliers;
pub mod arena;
pub mod eval;
pub mod events;
pub mod flow;
pub mod frames;
pub mod game;
pub mod hooks;
pub mod ids;
pub mod kit;
pub mod memo;
pub mod notes;
pub mod options;
pub mod plugins;
pub mod records;
pub mod scenario;
pub mod setup;
pub mod state;
pub mod triggers;
pub mod view;
