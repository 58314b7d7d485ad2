//! Helpers shared by the command-line test files: the repository root and running the
//! `treeval` binary.
#![allow(dead_code)] // each test file uses its own subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root (where examples/ and testdata/ are).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Run `treeval args…` in `dir`.
pub fn treeval_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run treeval")
}

/// Run `treeval args…` from the repository root.
pub fn treeval(args: &[&str]) -> Output {
    treeval_in(&root(), args)
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit code, standard output and standard error in one text (for snapshots).
pub fn outcome(o: &Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The cell of `measure` for system `system` in section `section` of a
/// `treeval.report/2` JSON report.
pub fn cell<'a>(
    v: &'a serde_json::Value,
    section: &str,
    system: u64,
    measure: &str,
) -> &'a serde_json::Value {
    let sec = v["sections"]
        .as_array()
        .and_then(|a| a.iter().find(|s| s["id"] == section))
        .unwrap_or_else(|| panic!("no section {section}"));
    let row = sec["rows"]
        .as_array()
        .and_then(|a| a.iter().find(|r| r["system"] == system))
        .unwrap_or_else(|| panic!("no row for system {system}"));
    row["cells"]
        .as_array()
        .and_then(|a| a.iter().find(|c| c["measure"] == measure))
        .unwrap_or_else(|| panic!("no cell {measure}"))
}

/// The number in the cell of `measure` for system `system` in section `section`.
pub fn value(v: &serde_json::Value, section: &str, system: u64, measure: &str) -> Option<f64> {
    cell(v, section, system, measure)["value"].as_f64()
}

/// The cell of `measure` in the row of system `system` with key `key` of a breakdown
/// section (`per-relation`, `by:distance`).
pub fn keyed_cell<'a>(
    v: &'a serde_json::Value,
    section: &str,
    system: u64,
    key: &str,
    measure: &str,
) -> &'a serde_json::Value {
    let sec = v["sections"]
        .as_array()
        .and_then(|a| a.iter().find(|s| s["id"] == section))
        .unwrap_or_else(|| panic!("no section {section}"));
    let row = sec["rows"]
        .as_array()
        .and_then(|a| a.iter().find(|r| r["system"] == system && r["key"] == key))
        .unwrap_or_else(|| panic!("no row {key} for system {system}"));
    row["cells"]
        .as_array()
        .and_then(|a| a.iter().find(|c| c["measure"] == measure))
        .unwrap_or_else(|| panic!("no cell {measure}"))
}

/// The keys of system `system`'s rows in a breakdown section, in order.
pub fn keys(v: &serde_json::Value, section: &str, system: u64) -> Vec<String> {
    v["sections"]
        .as_array()
        .and_then(|a| a.iter().find(|s| s["id"] == section))
        .and_then(|s| s["rows"].as_array())
        .map(|rows| {
            rows.iter()
                .filter(|r| r["system"] == system)
                .filter_map(|r| r["key"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}
