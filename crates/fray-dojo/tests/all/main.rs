//! Every integration test of fray-dojo in one test binary, each file a module: the crates it
//! uses are linked and their generic code optimised once, not once per file, which is most
//! of the test build. One file's tests: `cargo test -p fray-dojo --test all FILE::`.
//! The scenario folder runs apart, from `tests/scenarios.rs` (its own harness).

mod book_gaps;
mod bots;
mod creation;
mod enemies;
mod random_play;
mod setup;
mod stakes;
