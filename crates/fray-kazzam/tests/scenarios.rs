//! Runs every scenario under `scenarios/kazzam/` (SCENARIOS.md): each must pass. Each file is
//! its own test case, named by its path under `scenarios/kazzam/` (`cargo test -p fray-kazzam
//! --test scenarios -- classes/tamer/beast-charm.toml`); the harness spreads them over the cores.
//! The harness is fray-core's `scenario_tests`, shared by every system.

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/kazzam");
    fray_core::scenario_tests::main(fray_kazzam::engine::game::system(), &dir)
}
