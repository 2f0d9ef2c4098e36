//! Every integration test of fray in one test binary, each file a module: the crates it
//! uses are linked and their generic code optimised once, not once per file, which is most
//! of the test build. One file's tests: `cargo test -p fray --test all FILE::`.

mod arenas;
mod browser;
mod cli;
mod collision;
mod common;
mod content_dir;
mod hostile;
mod rules_do_no_io;
mod serve;
mod sim;
mod table;
