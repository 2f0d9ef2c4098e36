//! Runs every scenario under `scenarios/collision/`: each must pass. Each file is its own test
//! case, named by its path under `scenarios/collision/`
//! (`cargo test -p fray-collision --test scenarios -- damage`), spread over the cores.
//! The harness is fray-core's `scenario_tests`, shared by every system.

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/collision");
    fray_core::scenario_tests::main(fray_collision::system::system(), &dir)
}
