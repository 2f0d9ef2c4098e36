//! The browser tests of `fray serve` (issue 16), run by `cargo test` like every other test:
//! `.ci/browser` installs what they need when it is missing (Debian's chromium and
//! chromium-driver, the npm packages of web/package-lock.json), checks that the committed
//! browser app is the build of web/src, and drives Chromium with playwright-core against this
//! build's `fray serve` (web/tests/browser.mjs). Screenshots land in web/test-artifacts/.

use std::path::Path;
use std::process::Command;

#[test]
fn the_browser_table_plays_in_chromium() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new("bash")
        .arg(root.join(".ci/browser"))
        .env("FRAY_BIN", env!("CARGO_BIN_EXE_fray"))
        .current_dir(&root)
        .output()
        .expect("run .ci/browser");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the browser tests failed:\n{text}");
    assert!(text.contains(" passed, 0 failed"), "the browser tests did not report:\n{text}");
}
