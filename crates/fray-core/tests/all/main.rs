//! Every integration test of fray-core in one test binary, each file a module: the crates it
//! uses are linked and their generic code optimised once, not once per file, which is most
//! of the test build. One file's tests: `cargo test -p fray-core --test all FILE::`.

mod kit;
mod toy_game;
