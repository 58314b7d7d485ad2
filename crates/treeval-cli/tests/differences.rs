//! Every comparison of every command says how big the difference is and how sure we are:
//! the difference of the measure B − A and its paired bootstrap interval, in the JSON
//! under the comparison with its level, and shown beside the p-value in every format.
//! The commands are the format matrix's cases with two systems, and `merge`.

mod common;

use common::cases::cases;
use common::{argv, root, stdout, treeval, treeval_in};
use serde_json::Value;

const FORMATS: [&str; 6] = ["text", "csv", "tsv", "markdown", "latex", "html"];

/// The JSON report of `line`, which must succeed.
fn json_of(dir: &std::path::Path, line: &str) -> Value {
    let mut a = argv(line);
    a.extend(["--format", "json"]);
    let o = treeval_in(dir, &a);
    assert_eq!(o.status.code(), Some(0), "{line}: {}", common::stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// A measure's kind (`fraction`, `count`, `mean`) as the report documents it.
fn kind<'a>(v: &'a Value, measure: &str) -> &'a str {
    let ms = v["measures"].as_array().expect("measures");
    let m = ms.iter().find(|m| m["name"] == measure);
    m.and_then(|m| m["kind"].as_str()).unwrap_or("fraction")
}

/// A difference as the human formats show it: signed, in points for a fraction.
fn shown(kind: &str, d: f64) -> String {
    match kind {
        "fraction" => format!("{:+.2}", d * 100.0),
        "count" => format!("{d:+}"),
        _ => format!("{d:+.2}"),
    }
}

/// System `s`'s score of `measure` in a section without keys, if one shows it.
fn score(v: &Value, s: u64, measure: &str) -> Option<f64> {
    let sections = v["sections"].as_array()?;
    sections
        .iter()
        .filter(|sec| sec["key"].is_null())
        .flat_map(|sec| sec["rows"].as_array().into_iter().flatten())
        .filter(|r| r["system"] == s)
        .flat_map(|r| r["cells"].as_array().into_iter().flatten())
        .find(|c| c["measure"] == measure)
        .and_then(|c| c["value"].as_f64())
}

/// Every comparison of `v` has its difference, interval and level (`level`); the
/// difference is B − A of the scores the report shows; returns the comparisons.
fn check_json(what: &str, v: &Value, level: f64) -> Vec<Value> {
    let cmp = v["comparisons"].as_array().expect("comparisons").clone();
    assert!(!cmp.is_empty(), "{what}: no comparison");
    for c in &cmp {
        for key in ["difference", "difference_ci", "ci_level"] {
            assert!(c.get(key).is_some(), "{what}: comparison lacks {key}: {c}");
        }
        assert_eq!(c["ci_level"].as_f64(), Some(level), "{what}: {c}");
        let metric = c["metric"].as_str().unwrap();
        let (a, b) = (c["a"].as_u64().unwrap(), c["b"].as_u64().unwrap());
        match c["difference"].as_f64() {
            Some(d) => {
                let ci = c["difference_ci"].as_array().expect("an interval");
                let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
                assert!(lo <= hi, "{what}: {c}");
                if let (Some(sa), Some(sb)) = (score(v, a, metric), score(v, b, metric)) {
                    assert!((d - (sb - sa)).abs() < 1e-12, "{what}: {c}: {sb} − {sa}");
                }
            }
            None => assert!(c["difference_ci"].is_null(), "{what}: {c}"),
        }
    }
    cmp
}

/// Every format's output of `line` shows every comparison's difference: as text prints
/// it in the human formats, as a `difference` line with its value in CSV and TSV.
fn check_formats(dir: &std::path::Path, what: &str, line: &str, v: &Value, cmp: &[Value]) {
    for format in FORMATS {
        let mut a = argv(line);
        a.extend(["--format", format]);
        let o = treeval_in(dir, &a);
        assert_eq!(o.status.code(), Some(0), "{what} {format}");
        let out = stdout(&o);
        let delimited = matches!(format, "csv" | "tsv");
        assert!(
            delimited || out.contains("B − A"),
            "{what} {format}: no difference heading"
        );
        for c in cmp {
            let metric = c["metric"].as_str().unwrap();
            let Some(d) = c["difference"].as_f64() else {
                continue;
            };
            let expected = match delimited {
                true => format!("{} difference", c["test"].as_str().unwrap()),
                false => shown(kind(v, metric), d),
            };
            assert!(
                out.contains(&expected),
                "{what} {format}: {expected} of {metric} not shown:\n{out}"
            );
            if delimited {
                assert!(out.contains(&d.to_string()), "{what} {format}: {d}");
            }
        }
    }
}

#[test]
fn every_command_gives_each_comparison_its_difference_and_interval() {
    let two: Vec<(String, String)> = cases()
        .into_iter()
        .filter(|(name, _)| name.ends_with("-two"))
        .collect();
    assert_eq!(
        two.len(),
        8,
        "deps ud relations brackets ted align nbest pts"
    );
    for (name, line) in two {
        let v = json_of(&root(), &line);
        let name = name.as_str();
        let cmp = check_json(name, &v, 0.95);
        check_formats(&root(), name, &line, &v, &cmp);
        // the level is --ci's; without --ci, 0.95 (and the differences are the same)
        let other = json_of(&root(), &line.replace("--ci 95", "--ci 90"));
        check_json(name, &other, 0.9);
        let bare = json_of(&root(), &line.replace("--ci 95", ""));
        let again = check_json(name, &bare, 0.95);
        assert_eq!(cmp, again, "{name}: the same comparisons without --ci");
    }
}

/// `merge` of two shards gives every comparison its difference and interval too, and the
/// difference is the one of a single run over the whole files.
#[test]
fn merge_gives_each_comparison_its_difference_and_interval() {
    let dir = std::env::temp_dir().join(format!("treeval-differences-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files = ["gold", "sys", "sys2"];
    for f in files {
        let text = std::fs::read_to_string(root().join(format!("examples/{f}.conllu"))).unwrap();
        let sentences: Vec<&str> = text
            .split("\n\n")
            .filter(|s| !s.trim().is_empty())
            .collect();
        assert_eq!(sentences.len(), 3, "{f}");
        for (i, part) in [&sentences[..2], &sentences[2..]].iter().enumerate() {
            std::fs::write(
                dir.join(format!("{f}.{i}.conllu")),
                part.join("\n\n") + "\n\n",
            )
            .unwrap();
        }
    }
    for i in 0..2 {
        let line = format!(
            "deps -q --keep-sentences --emit-state s{i}.json gold.{i}.conllu sys.{i}.conllu sys2.{i}.conllu"
        );
        let o = treeval_in(&dir, &argv(&line));
        assert_eq!(o.status.code(), Some(0), "{line}: {}", common::stderr(&o));
    }
    let line = "merge s0.json s1.json --test ar --test bootstrap";
    let v = json_of(&dir, line);
    let cmp = check_json("merge", &v, 0.95);
    assert_eq!(cmp.len(), 6, "3 measures × 2 tests × 1 pair");
    check_formats(&dir, "merge", line, &v, &cmp);
    let single = json_of(
        &root(),
        "deps --test ar --test bootstrap examples/gold.conllu examples/sys.conllu examples/sys2.conllu",
    );
    let whole = check_json("deps", &single, 0.95);
    for (m, s) in cmp.iter().zip(&whole) {
        assert_eq!(m["difference"], s["difference"], "{m}");
        assert_eq!(m["difference_ci"], s["difference_ci"], "{m}");
        assert_eq!(m["p_value"], s["p_value"], "{m}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    // a run that shows none says nothing of differences
    let o = treeval(&argv("deps examples/gold.conllu examples/sys.conllu"));
    assert!(!stdout(&o).contains("B − A"));
}
