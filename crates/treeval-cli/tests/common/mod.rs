//! Helpers shared by the command-line test files: the repository root and running the
//! `treeval` binary.
#![allow(dead_code)] // each test file uses its own subset

pub mod cases;
pub mod commands;
pub mod corpus;
pub mod schema;

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

/// The name a report shows for the only system, read from `path`: its file name without
/// the extension (the shortest end of one path; `treeval_report::names::short`).
pub fn only_name(path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.rsplit_once('.')
        .map_or(file, |(stem, _)| stem)
        .to_owned()
}

/// Run `treeval args…` from the repository root.
pub fn treeval(args: &[&str]) -> Output {
    treeval_in(&root(), args)
}

/// The words of a command line as arguments: `argv("deps -q g.conllu s.conllu")` is
/// `["deps", "-q", "g.conllu", "s.conllu"]` (no argument of these tests has a space).
pub fn argv(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Standard output of `treeval args…` from the repository root, which must succeed.
#[track_caller]
pub fn stdout_ok(args: &[&str]) -> String {
    let o = treeval(args);
    assert!(
        o.status.success(),
        "treeval {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The six input options of `treeval pts` for the files of examples/pts/, found under
/// `dir` (`examples/pts/`, or nothing for copies under the same names), as one line.
pub fn pts_inputs(dir: &str) -> String {
    [
        ("--gold-a", "gold.en.conllu"),
        ("--gold-b", "gold.de.conllu"),
        ("--gold-align", "gold.en-de.naacl"),
        ("--sys-a", "parser.en.conllu"),
        ("--sys-b", "parser.de.conllu"),
        ("--sys-align", "aligner.en-de.pharaoh"),
    ]
    .map(|(option, file)| format!("{option} {dir}{file}"))
    .join(" ")
}

/// The sum, over the rows of a per-sentence file (its lines after the header), of the
/// count at the JSON pointer `count` (`/counts/las_correct`).
pub fn per_sentence_sum(text: &str, count: &str) -> u64 {
    text.lines()
        .skip(1)
        .map(|l| {
            let row: serde_json::Value = serde_json::from_str(l).unwrap();
            row.pointer(count)
                .and_then(serde_json::Value::as_u64)
                .unwrap()
        })
        .sum()
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts that the standard error of `o` contains `needle` (and shows it if not).
#[track_caller]
pub fn assert_stderr_has(o: &Output, needle: &str) {
    assert!(stderr(o).contains(needle), "{}", stderr(o));
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

/// Section `section` of a `treeval.report/3` JSON report, if it has one.
fn find_section<'a>(v: &'a serde_json::Value, section: &str) -> Option<&'a serde_json::Value> {
    v["sections"]
        .as_array()
        .and_then(|a| a.iter().find(|s| s["id"] == section))
}

/// The cell of `measure` in the first row of section `section` that `row_is` picks;
/// `which` names that row in the failure message.
fn row_cell<'a>(
    v: &'a serde_json::Value,
    section: &str,
    measure: &str,
    which: &str,
    row_is: impl Fn(&serde_json::Value) -> bool,
) -> &'a serde_json::Value {
    let sec = find_section(v, section).unwrap_or_else(|| panic!("no section {section}"));
    let row = sec["rows"]
        .as_array()
        .and_then(|a| a.iter().find(|r| row_is(r)))
        .unwrap_or_else(|| panic!("no row {which}"));
    row["cells"]
        .as_array()
        .and_then(|a| a.iter().find(|c| c["measure"] == measure))
        .unwrap_or_else(|| panic!("no cell {measure}"))
}

/// The counts of a cell as whole numbers.
pub fn counts(c: &serde_json::Value) -> Vec<u64> {
    c["counts"]
        .as_array()
        .unwrap_or_else(|| panic!("no counts in {c}"))
        .iter()
        .map(|x| x.as_u64().unwrap_or_else(|| panic!("not a count: {x}")))
        .collect()
}

/// The cell of `measure` for system `system` in section `section` of a
/// `treeval.report/3` JSON report.
pub fn cell<'a>(
    v: &'a serde_json::Value,
    section: &str,
    system: u64,
    measure: &str,
) -> &'a serde_json::Value {
    let which = format!("for system {system}");
    row_cell(v, section, measure, &which, |r| r["system"] == system)
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
    let which = format!("{key} for system {system}");
    row_cell(v, section, measure, &which, |r| {
        r["system"] == system && r["key"] == key
    })
}

/// The keys of system `system`'s rows in a breakdown section, in order.
pub fn keys(v: &serde_json::Value, section: &str, system: u64) -> Vec<String> {
    find_section(v, section)
        .and_then(|s| s["rows"].as_array())
        .map(|rows| {
            rows.iter()
                .filter(|r| r["system"] == system)
                .filter_map(|r| r["key"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// In a `brackets` JSON report with `--by label,length`: for every system, the gold, test
/// and matched brackets summed over the groups of `by:label` and of `by:length` are the
/// `all` section's (recall reads [matched, gold], precision [matched, test]), and the
/// scored sentences summed over the length bins are the `all` section's.
pub fn assert_bracket_breakdowns_sum(v: &serde_json::Value) {
    let systems = v["systems"].as_array().map_or(0, Vec::len) as u64;
    assert!(systems > 0, "no system in the report");
    for k in 0..systems {
        let recall = cell(v, "all", k, "recall")["counts"].clone();
        let precision = cell(v, "all", k, "precision")["counts"].clone();
        let total = |j: usize, c: &serde_json::Value| c[j].as_f64().unwrap_or(-1.0);
        let want = [total(1, &recall), total(1, &precision), total(0, &recall)];
        for section in ["by:label", "by:length"] {
            let mut got = [0.0; 3];
            for key in keys(v, section, k) {
                for (g, m) in got.iter_mut().zip(["gold", "system", "matched"]) {
                    *g += keyed_cell(v, section, k, &key, m)["value"]
                        .as_f64()
                        .unwrap_or(f64::NAN);
                }
            }
            assert_eq!(got, want, "{section}, system {k}: gold, system, matched");
        }
        let scored: f64 = keys(v, "by:length", k)
            .iter()
            .map(|key| {
                keyed_cell(v, "by:length", k, key, "scored")["value"]
                    .as_f64()
                    .unwrap_or(f64::NAN)
            })
            .sum();
        assert_eq!(
            Some(scored),
            value(v, "all", k, "scored"),
            "system {k}: scored"
        );
    }
}

/// In `brackets` JSON reports: for every group of `by:label` and `by:length` of `by` (a
/// run with `--by label,length`), `run("KEY=GROUP")` (the same run with `--where
/// KEY=GROUP`) has, for every system, the group's recall, precision and F (values and
/// counts) in its `all` section, and for a length group its scored sentences; a system
/// without the group has no bracket there. Returns how many groups were checked.
pub fn assert_bracket_where_is_by(
    by: &serde_json::Value,
    run: impl Fn(&str) -> serde_json::Value,
) -> usize {
    let systems = by["systems"].as_array().map_or(0, Vec::len) as u64;
    let mut checked = 0;
    for key in ["label", "length"] {
        let section = format!("by:{key}");
        let mut groups: Vec<String> = (0..systems).flat_map(|k| keys(by, &section, k)).collect();
        groups.sort();
        groups.dedup();
        // a label such as the PTB's `ADVP|PRT` cannot be named: `|` separates alternatives
        // and `,` conditions
        groups.retain(|g| !g.contains(['|', ',']));
        for group in groups {
            let cond = format!("{key}={group}");
            let w = run(&cond);
            for k in 0..systems {
                let has = keys(by, &section, k).contains(&group);
                for m in ["recall", "precision", "F"] {
                    let got = cell(&w, "all", k, m);
                    if has {
                        let want = keyed_cell(by, &section, k, &group, m);
                        assert_eq!(got["counts"], want["counts"], "{cond} system {k} {m}");
                        assert_eq!(got["value"], want["value"], "{cond} system {k} {m}");
                    } else {
                        assert!(counts(got).iter().all(|&c| c == 0), "{cond} system {k} {m}");
                    }
                }
                if key == "length" && has {
                    let want = counts(keyed_cell(by, &section, k, &group, "scored"))[0];
                    assert_eq!(value(&w, "all", k, "scored"), Some(want as f64), "{cond}");
                }
            }
            checked += 1;
        }
    }
    checked
}
