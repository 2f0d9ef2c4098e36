//! Builds the rule-id index behind `fray rules SYSTEM --code ID` and `--coverage`: every place in
//! the rule crates' sources that cites a rule id (`K-OPP-3`, `DS-COND-SLOW`, `D-INIT-1`,
//! `C-CREATE-7`), every scenario file that names one in its `rules` list, and every Rust test
//! file that cites one.

use std::fmt::Write;
use std::path::{Path, PathBuf};

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// The rule ids cited in a line: a system prefix, a capitalised area, then one or more parts.
fn ids(line: &str) -> Vec<String> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let boundary = start == 0 || !(b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'-');
        let prefix = ["DS-", "K-", "D-", "C-"].iter().find(|p| b[start..].starts_with(p.as_bytes()));
        if let (true, Some(p)) = (boundary, prefix) {
            let mut j = start + p.len();
            let area = j;
            while j < b.len() && b[j].is_ascii_uppercase() {
                j += 1;
            }
            if j > area && j < b.len() && b[j] == b'-' {
                let mut k = j + 1;
                while k < b.len()
                    && (b[k].is_ascii_alphanumeric()
                        || (b[k] == b'-' && k + 1 < b.len() && b[k + 1].is_ascii_alphanumeric()))
                {
                    k += 1;
                }
                if k > j + 1 {
                    out.push(line[start..k].to_string());
                    i = k;
                    continue;
                }
            }
        }
        i += 1;
    }
    out
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let crates = root.join("crates");
    let scenarios = root.join("scenarios");
    println!("cargo:rerun-if-changed={}", crates.display());
    println!("cargo:rerun-if-changed={}", scenarios.display());
    let mut code = String::from(
        "/// (rule id, file, line) for every citation in the rule crates' sources.\npub static CODE: &[(&str, &str, u32)] = &[\n",
    );
    let mut sources = Vec::new();
    for krate in ["fray-kazzam", "fray-drawsteel", "fray-dojo", "fray-collision"] {
        files(&crates.join(krate).join("src"), "rs", &mut sources);
    }
    for f in &sources {
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        for (n, line) in text.lines().enumerate() {
            for id in ids(line) {
                let _ = writeln!(code, "    ({id:?}, {rel:?}, {}),", n + 1);
            }
        }
    }
    code.push_str("];\n/// (rule id, scenario file) for every id a scenario's `rules` list names.\npub static SCENARIOS: &[(&str, &str)] = &[\n");
    let mut tomls = Vec::new();
    files(&scenarios, "toml", &mut tomls);
    for f in &tomls {
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        let lines: Vec<&str> = text.lines().collect();
        let Some(first) = lines.iter().position(|l| l.trim_start().starts_with("rules")) else { continue };
        let last = (first..lines.len()).find(|&i| lines[i].contains(']')).unwrap_or(first);
        for id in lines[first..=last].iter().flat_map(|l| ids(l)) {
            let _ = writeln!(code, "    ({id:?}, {rel:?}),");
        }
    }
    // Rust tests that assert a rule (the builder's, the maps'): an id cited in a test file.
    code.push_str(
        "];\n/// (rule id, test file) for every id a Rust test file cites.\npub static TESTS: &[(&str, &str)] = &[\n",
    );
    let mut tests = Vec::new();
    for krate in ["fray-kazzam", "fray-drawsteel", "fray-dojo", "fray-collision", "fray"] {
        files(&crates.join(krate).join("tests"), "rs", &mut tests);
    }
    for f in &tests {
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        let mut seen = Vec::new();
        for id in text.lines().flat_map(ids) {
            if !seen.contains(&id) {
                let _ = writeln!(code, "    ({id:?}, {rel:?}),");
                seen.push(id);
            }
        }
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("rule_index.rs");
    std::fs::write(out, code).expect("write the rule index");
}
