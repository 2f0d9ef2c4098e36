//! The five roles' rules: Role Boosts, Role Actions played in Rust, Strikers, Specialists, Defenders and Controllers.

pub mod boosts;
pub mod defender_controller;
pub mod role_actions;
pub mod specialists;
pub mod striker;
