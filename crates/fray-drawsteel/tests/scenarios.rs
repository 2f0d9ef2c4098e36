//! Runs every scenario under `scenarios/drawsteel/`: each must pass. Each file is its own test
//! case, named by its path under `scenarios/drawsteel/`
//! (`cargo test -p fray-drawsteel --test scenarios -- area-burst`), spread over the cores.
//! The harness is fray-core's `scenario_tests`, shared by every system.

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/drawsteel");
    fray_core::scenario_tests::main(fray_drawsteel::game::system(), &dir)
}
