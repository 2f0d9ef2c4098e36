//! Every integration test of fray-kazzam in one test binary, each file a module: the crates it
//! uses are linked and their generic code optimised once, not once per file, which is most
//! of the test build. One file's tests: `cargo test -p fray-kazzam --test all FILE::`.
//! The scenario folder runs apart, from `tests/scenarios.rs` (its own harness).

mod builder;
mod common;
mod content;
mod hostile;
mod journal_fingerprint;
mod layers;
mod malformed;
mod maps;
mod random_play;
