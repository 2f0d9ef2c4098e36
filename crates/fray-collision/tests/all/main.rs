//! Every integration test of fray-collision in one test binary, each file a module: the crates it
//! uses are linked and their generic code optimised once, not once per file, which is most
//! of the test build. One file's tests: `cargo test -p fray-collision --test all FILE::`.
//! The scenario folder runs apart, from `tests/scenarios.rs` (its own harness).

mod battle_setup;
mod builder;
mod data;
mod malformed;
mod random_play;
mod reactions_journal;
mod rows;
