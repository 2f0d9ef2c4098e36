//! Every integration test of fray-server in one test binary, each file a module: the crates it
//! uses are linked and their generic code optimised once, not once per file, which is most
//! of the test build. One file's tests: `cargo test -p fray-server --test all FILE::`.

mod api;
mod common;
mod load;
