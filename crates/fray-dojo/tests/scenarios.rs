//! Runs every scenario under `scenarios/dojo/`: each must pass. Each file is its own test
//! case, named by its path under `scenarios/dojo/`
//! (`cargo test -p fray-dojo --test scenarios -- damage`), spread over the cores.
//! The harness is fray-core's `scenario_tests`, shared by every system.

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/dojo");
    fray_core::scenario_tests::main(fray_dojo::game::system(), &dir)
}
