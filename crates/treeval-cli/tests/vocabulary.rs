//! One vocabulary in every command (issue 30, point 3): every input's role is gold or
//! system (pts: `gold a`, …, `system alignment`), in the report and in the per-sentence
//! header; and every count a measure reads, and every per-sentence count, is named by the
//! one convention of `treeval_metrics::measure::column_name_problem`
//! (docs/json-schema.md, "Count columns"). The commands are those of
//! tests/common/commands.rs, with the options that add families of counts.

mod common;

use common::commands::two_systems;
use common::{stderr, stdout, treeval};
use treeval_metrics::measure::column_name_problem;

/// The roles an input may have: gold or system, alone or with what the file is.
fn role_ok(role: &str) -> bool {
    let first = role.split(' ').next().unwrap_or("");
    matches!(first, "gold" | "system")
        || [
            "tokens",
            "parameters",
            "judgments",
            "label equivalences",
            "tree pairs",
        ]
        .contains(&role)
}

/// The command lines: every command with two systems, and the options that bring more
/// counts (breakdowns, the careful evaluation, macro averages over relations).
fn lines() -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = two_systems().into_iter().map(|c| c.args).collect();
    let extra = |c: &str, opts: &[&str]| {
        let mut a = two_systems()
            .into_iter()
            .find(|x| x.command == c)
            .unwrap()
            .args;
        a.extend(opts.iter().map(|o| o.to_string()));
        a
    };
    out.push(extra("deps", &["--by", "deprel,length", "--per-relation"]));
    out.push(extra("ud", &["--by", "deprel", "--per-relation"]));
    out.push(extra("brackets", &["--careful", "--by", "label,length"]));
    out
}

#[test]
fn every_role_and_count_follows_the_one_vocabulary() {
    let dir = std::env::temp_dir().join(format!("treeval-vocabulary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut problems = Vec::new();
    for (k, line) in lines().into_iter().enumerate() {
        let records = dir.join(format!("{k}.jsonl"));
        let mut a: Vec<&str> = line.iter().map(String::as_str).collect();
        let careful = a.contains(&"--careful");
        a.extend(["--format", "json"]);
        if !careful {
            // the careful evaluation writes no per-sentence records
            a.extend(["--per-sentence", records.to_str().unwrap()]);
        }
        let o = treeval(&a);
        assert!(o.status.success(), "{a:?}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let what = line.join(" ");
        let mut checked = 0;
        for m in v["measures"].as_array().unwrap() {
            for r in m["reads"].as_array().unwrap() {
                checked += 1;
                if let Some(p) = column_name_problem(r.as_str().unwrap()) {
                    problems.push(format!("{what}: measure {}: {p}", m["name"]));
                }
            }
        }
        assert!(checked > 0, "{what}: no count read");
        for i in v["inputs"].as_array().unwrap() {
            let role = i["role"].as_str().unwrap();
            if !role_ok(role) {
                problems.push(format!("{what}: input role `{role}`"));
            }
        }
        if careful {
            continue;
        }
        let text = std::fs::read_to_string(&records).unwrap();
        let mut lines = text.lines();
        let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        for i in header["inputs"].as_array().unwrap() {
            let role = i["role"].as_str().unwrap();
            if !role_ok(role) {
                problems.push(format!("{what}: per-sentence header role `{role}`"));
            }
        }
        let mut keys = std::collections::BTreeSet::new();
        for l in lines {
            let r: serde_json::Value = serde_json::from_str(l).unwrap();
            keys.extend(r["counts"].as_object().unwrap().keys().cloned());
        }
        assert!(!keys.is_empty(), "{what}: no per-sentence count");
        for key in keys {
            if let Some(p) = column_name_problem(&key) {
                problems.push(format!("{what}: per-sentence count: {p}"));
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
