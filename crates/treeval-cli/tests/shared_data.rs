//! Parity with the reference scorers on real data from ../shared/data (beside the repo
//! root, or where TREEVAL_SHARED_DATA points). A user's clone has no such folder: then
//! every test here says so loudly and passes, unless TREEVAL_REQUIRE_SHARED_DATA=1
//! (as CI sets it), which makes the absence a failure.
//!
//! The expected figures are the reference tools' own outputs, stored in
//! shared/data/reference/*/expected; this file reads and compares them, it does not
//! restate them (except the counts the data README gives in prose).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn data_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("TREEVAL_SHARED_DATA") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
    };
    if dir.join("reference").is_dir() {
        return Some(dir);
    }
    let msg = format!(
        "\n\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\
         !! shared data NOT FOUND at {}\n\
         !! the reference-parity tests did NOT run (set TREEVAL_SHARED_DATA)\n\
         !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n",
        dir.display()
    );
    if std::env::var("TREEVAL_REQUIRE_SHARED_DATA").as_deref() == Ok("1") {
        panic!("{msg}");
    }
    // straight to the process's stderr, past the test harness's output capture
    use std::io::Write;
    let _ = std::io::stderr().write_all(msg.as_bytes());
    None
}

fn treeval(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(args)
        .output()
        .expect("run treeval");
    assert!(
        o.status.success(),
        "treeval {args:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// A reference output without the `rc=0` trailer the recording script appended.
fn expected(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with("rc="))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The first `n` lines.
fn head(text: &str, n: usize) -> String {
    text.lines().take(n).map(|l| format!("{l}\n")).collect()
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["deps", "-q", "--format", "json"];
    a.extend_from_slice(args);
    serde_json::from_str(&treeval(&a)).unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn tiny_compat_lines_equal_eval07_and_eval_pl() {
    let Some(d) = data_dir() else { return };
    let t = d.join("reference/tiny");
    let e = t.join("expected");
    for (g, sys) in [("gold.conll", "sys.conll"), ("gold.conllu", "sys.conllu")] {
        let (g, sys) = (t.join(g), t.join(sys));
        // eval07.pl -q (all tokens) and eval07.pl -q -p (FORM punctuation excluded)
        assert_eq!(
            treeval(&["deps", "--compat", "eval07", s(&g), s(&sys)]),
            expected(&e.join("eval07_q.txt"))
        );
        assert_eq!(
            treeval(&[
                "deps",
                "--compat",
                "eval07",
                "--profile",
                "conllx",
                s(&g),
                s(&sys)
            ]),
            expected(&e.join("eval07_qp.txt"))
        );
        // eval.pl -q (punctuation excluded) and eval.pl -q -p (all tokens)
        assert_eq!(
            treeval(&["deps", "--compat", "evalpl", s(&g), s(&sys)]),
            expected(&e.join("evalpl_q.txt"))
        );
        assert_eq!(
            treeval(&[
                "deps",
                "--compat",
                "evalpl",
                "--profile",
                "conll07",
                s(&g),
                s(&sys)
            ]),
            expected(&e.join("evalpl_qp.txt"))
        );
        // the non-quiet outputs start with the same three lines
        assert_eq!(
            treeval(&["deps", "--compat", "eval07", s(&g), s(&sys)]),
            head(&expected(&e.join("eval07.txt")), 3)
        );
        assert_eq!(
            treeval(&["deps", "--compat", "evalpl", s(&g), s(&sys)]),
            head(&expected(&e.join("evalpl.txt")), 3)
        );
    }
}

/// Rows `label | gold | correct | system | ...` of the eval07.pl table after `title`.
fn eval07_table(text: &str, title: &str) -> Vec<(String, u64, u64, u64)> {
    let mut lines = text.lines().skip_while(|l| l.trim() != title).skip(1);
    let mut rows = Vec::new();
    let mut seen_header = false;
    for l in &mut lines {
        let l = l.trim();
        if l.is_empty() {
            if seen_header && !rows.is_empty() {
                break;
            }
            continue;
        }
        if l.starts_with('-') {
            continue;
        }
        let cells: Vec<&str> = l.split('|').map(str::trim).collect();
        if cells[0] == "deprel" {
            seen_header = true;
            continue;
        }
        rows.push((
            cells[0].to_string(),
            cells[1].parse().unwrap(),
            cells[2].parse().unwrap(),
            cells[3].parse().unwrap(),
        ));
    }
    rows
}

#[test]
fn tiny_per_relation_counts_equal_eval07_tables() {
    let Some(d) = data_dir() else { return };
    let t = d.join("reference/tiny");
    for (file, profile) in [("eval07.txt", "conll07"), ("evalpl.txt", "conllx")] {
        let text = std::fs::read_to_string(t.join("expected").join(file)).unwrap();
        let v = json(&[
            "--per-relation",
            "--profile",
            profile,
            s(&t.join("gold.conll")),
            s(&t.join("sys.conll")),
        ]);
        let rel = common::keys(&v, "per-relation", 0);
        let count = |label: &str, m: &str, k: usize| {
            common::keyed_cell(&v, "per-relation", 0, label, m)["counts"][k].clone()
        };
        let dep = eval07_table(&text, "Precision and recall of DEPREL");
        let att = eval07_table(&text, "Precision and recall of DEPREL + ATTACHMENT");
        assert!(dep.len() >= 14, "{file}: parsed {} rows", dep.len());
        assert_eq!(dep.len(), rel.len(), "{file}: same label set");
        for (label, gold, correct, system) in dep {
            // LA-P reads [label_correct, system], LA-R [label_correct, gold]
            assert_eq!(count(&label, "LA-R", 1), gold, "{file} {label} gold");
            assert_eq!(count(&label, "LA-P", 1), system, "{file} {label} system");
            assert_eq!(
                count(&label, "LA-P", 0),
                correct,
                "{file} {label} label correct"
            );
        }
        for (label, _, correct, _) in att {
            assert_eq!(
                count(&label, "LAS-P", 0),
                correct,
                "{file} {label} head+label"
            );
        }
    }
}

/// MaltEval prints at most three decimals with trailing zeros removed.
fn malt(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

#[test]
fn tiny_malteval_figures() {
    let Some(d) = data_dir() else { return };
    let t = d.join("reference/tiny");
    let (g, sys) = (t.join("gold.conll"), t.join("sys.conll"));
    let v = json(&["--per-relation", s(&g), s(&sys)]);
    // GroupBy Sentence: accuracy (mean of sentence LAS) 0.684, exactmatch 0.2
    let groupby = std::fs::read_to_string(t.join("expected/malteval_groupby.txt")).unwrap();
    let row = groupby
        .lines()
        .skip_while(|l| !l.starts_with("== --GroupBy Sentence"))
        .find(|l| l.ends_with("Row mean"))
        .unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        malt(common::value(&v, "macro-sentences", 0, "macro-LAS").unwrap()),
        cells[0]
    );
    assert_eq!(
        malt(common::value(&v, "scores", 0, "LEM").unwrap()),
        cells[1]
    );
    // GroupBy Deprel: parser accuracy = labeled precision, treebank accuracy = labeled recall
    let mut n = 0;
    for l in groupby
        .lines()
        .skip_while(|l| !l.starts_with("== --GroupBy Deprel --Metric LAS"))
        .skip_while(|l| !l.starts_with("----"))
        .skip(1)
        .take_while(|l| !l.is_empty())
    {
        let c: Vec<&str> = l.split_whitespace().collect();
        let get = |m: &str| common::keyed_cell(&v, "per-relation", 0, c[2], m)["value"].clone();
        let show = |x: &serde_json::Value| x.as_f64().map(malt).unwrap_or_else(|| "-".into());
        assert_eq!(show(&get("LAS-P")), c[0], "{l}");
        assert_eq!(show(&get("LAS-R")), c[1], "{l}");
        n += 1;
    }
    assert_eq!(n, 18);
    // Token accuracies, with and without --ExcludeUnicodePunc
    let m = std::fs::read_to_string(t.join("expected/malteval.txt")).unwrap();
    let means: Vec<Vec<&str>> = m
        .lines()
        .filter(|l| l.ends_with("Row mean"))
        .map(|l| l.split_whitespace().collect())
        .collect();
    let check = |row: &Vec<&str>, v: &serde_json::Value| {
        let mm = |m: &str| common::value(v, "scores", 0, m).unwrap();
        assert_eq!(malt(mm("LA")), row[0]);
        assert_eq!(malt(mm("UAS")), row[1]);
        assert_eq!(malt(mm("LAS")), row[2]);
    };
    check(&means[1], &v);
    check(&means[2], &json(&["--profile", "conllx", s(&g), s(&sys)]));
}

#[test]
fn tiny_universal_labels_equal_conll18_las() {
    let Some(d) = data_dir() else { return };
    let t = d.join("reference/tiny");
    let v = json(&[
        "--labels",
        "universal",
        s(&t.join("gold.conllu")),
        s(&t.join("sys.conllu")),
    ]);
    let las = common::cell(&v, "scores", 0, "LAS");
    // conll18_ud_eval.py -v: LAS 67.65 over 34 aligned words
    let c18 = std::fs::read_to_string(t.join("expected/conll18.txt")).unwrap();
    let row = c18
        .lines()
        .find(|l| l.starts_with("LAS ") && l.contains('|'))
        .unwrap();
    let f1: f64 = row.split('|').nth(3).unwrap().trim().parse().unwrap();
    assert_eq!(las["counts"][1], 34);
    assert_eq!(
        format!("{:.2}", las["value"].as_f64().unwrap() * 100.0),
        format!("{f1:.2}")
    );
    // CLAS, the word measure registered in deps::word: conll18's CLAS F1 68.29 and its
    // counts (correct 14, gold 20, system 21: the -c table)
    let clas = common::cell(&v, "scores", 0, "CLAS");
    let row = |prefix: &str| -> Vec<String> {
        c18.lines()
            .filter(|l| l.starts_with(prefix) && l.contains('|'))
            .map(|l| {
                l.split('|')
                    .map(|x| x.trim().to_owned())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    let f1_clas = row("CLAS ")[0].split(' ').nth(3).unwrap().to_owned();
    assert_eq!(
        format!("{:.2}", clas["value"].as_f64().unwrap() * 100.0),
        f1_clas
    );
    assert_eq!(clas["counts"], serde_json::json!([14, 20, 21]));
}

/// gold1m.conllu, built once per test process (the tests run on several threads).
fn big_gold(d: &Path) -> PathBuf {
    static GOLD: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    GOLD.get_or_init(|| build_big_gold(d)).clone()
}

fn build_big_gold(d: &Path) -> PathBuf {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gold1m.conllu");
    if out.metadata().map(|m| m.len()).unwrap_or(0) == 72_201_200 {
        return out;
    }
    // as big1m/README.md: EWT dev + test, 20 times
    let u = d.join("ud/UD_English-EWT");
    let dev = std::fs::read(u.join("en_ewt-ud-dev.conllu")).unwrap();
    let test = std::fs::read(u.join("en_ewt-ud-test.conllu")).unwrap();
    let mut all = Vec::with_capacity(20 * (dev.len() + test.len()));
    for _ in 0..20 {
        all.extend_from_slice(&dev);
        all.extend_from_slice(&test);
    }
    let tmp = out.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, all).unwrap();
    std::fs::rename(&tmp, &out).unwrap();
    out
}

#[test]
#[ignore = "1M words: run with --include-ignored (CI does, in release mode)"]
fn big1m_parity() {
    let Some(d) = data_dir() else { return };
    let b = d.join("reference/big1m");
    let gold = big_gold(&d);
    let sys = b.join("sys1m.conllu.gz"); // read through gzip transparently
    let e = b.join("expected");
    assert_eq!(
        treeval(&["deps", "--compat", "eval07", s(&gold), s(&sys)]),
        expected(&e.join("eval07-q.txt"))
    );
    assert_eq!(
        treeval(&["deps", "--compat", "evalpl", s(&gold), s(&sys)]),
        expected(&e.join("evalpl-q.txt"))
    );
    let v = json(&["--labels", "universal", s(&gold), s(&sys)]);
    let m = |name: &str| common::cell(&v, "scores", 0, name)["counts"].clone();
    // counts stated in big1m/README.md
    assert_eq!(m("LAS")[0], 871_956);
    assert_eq!(m("UAS")[0], 913_418);
    assert_eq!(m("LAS")[1], 1_004_820);
    // MaltEval token accuracies (three decimals)
    for (file, profile) in [("malteval.txt", "conll07"), ("malteval-punc.txt", "conllx")] {
        let text = std::fs::read_to_string(e.join(file)).unwrap();
        let row: Vec<&str> = text
            .lines()
            .find(|l| l.ends_with("Row mean"))
            .unwrap()
            .split_whitespace()
            .collect();
        let count: Vec<&str> = text
            .lines()
            .find(|l| l.ends_with("Row count"))
            .unwrap()
            .split_whitespace()
            .collect();
        let v = json(&["--profile", profile, s(&gold), s(&sys)]);
        let m = |name: &str| common::value(&v, "scores", 0, name).unwrap();
        assert_eq!(malt(m("LA")), row[0], "{file}");
        assert_eq!(malt(m("UAS")), row[1], "{file}");
        assert_eq!(malt(m("LAS")), row[2], "{file}");
        let total = &common::cell(&v, "scores", 0, "LAS")["counts"][1];
        assert_eq!(total.to_string(), count[0], "{file}");
    }
}

#[test]
#[ignore = "1M words: run with --include-ignored (CI does, in release mode)"]
fn big1m_bootstrap_interval_covers_the_score() {
    let Some(d) = data_dir() else { return };
    let gold = big_gold(&d);
    let sys = d.join("reference/big1m/sys1m.conllu.gz");
    let v = json(&["--ci", "95", "--test-metrics", "LAS,UAS", s(&gold), s(&sys)]);
    for m in ["LAS", "UAS"] {
        let x = common::cell(&v, "scores", 0, m);
        let score = x["value"].as_f64().unwrap();
        let (lo, hi) = (x["ci"][0].as_f64().unwrap(), x["ci"][1].as_f64().unwrap());
        assert!(lo < score && score < hi, "{m}: {lo} < {score} < {hi}");
        assert!(
            hi - lo < 0.01,
            "{m}: a 1M-word interval is narrow: [{lo}, {hi}]"
        );
    }
}

#[test]
fn tiny_mcnemar_equals_malteval() {
    let Some(d) = data_dir() else { return };
    let t = d.join("reference/tiny");
    let v = json(&[
        "--test",
        "mcnemar",
        s(&t.join("gold.conll")),
        s(&t.join("sys.conll")),
        s(&t.join("sys_b.conll")),
    ]);
    // malteval_stat.txt: the z-values printed by MaltEval --stat 1
    let stat = std::fs::read_to_string(t.join("expected/malteval_stat.txt")).unwrap();
    let lines: Vec<&str> = stat.lines().collect();
    let mut z = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains("McNemar: z-value"))
        .map(|(i, _)| lines[i + 2].split_whitespace().nth(1).unwrap().to_string());
    let (uas, las) = (z.next().unwrap(), z.next().unwrap());
    let find = |m: &str| {
        v["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["metric"] == m)
            .unwrap()["z"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(malt(find("UAS")), uas);
    assert_eq!(malt(find("LAS")), las);
}

#[test]
fn wpt03_enfr_alignment_parity() {
    let Some(d) = data_dir() else { return };
    let w = d.join("align/wpt03-enfr");
    let gold = w.join("test.wa.nonullalign");
    let systems = w.join("published-systems");
    // exact counts (align/README.md): 6,069 links, P 5548/6069, R 3751/4038, AER 0.079945
    let out = Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args([
            "align",
            "-q",
            "--format",
            "json",
            s(&gold),
            "test.enfr.talp",
            "test.enfr.grow-diagonal-final.talp",
        ])
        .current_dir(&systems)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let a = &v["inputs"][1]["counts"];
    for (k, n) in [
        ("a", 6069),
        ("s", 4038),
        ("p", 17438),
        ("a_and_s", 3751),
        ("a_and_p", 5548),
    ] {
        assert_eq!(a[k], n, "{k}");
    }
    let m = |system: u64, name: &str| {
        format!("{:.6}", common::value(&v, "scores", system, name).unwrap())
    };
    assert_eq!(m(0, "precision"), "0.914154");
    assert_eq!(m(0, "recall"), "0.928925");
    assert_eq!(m(0, "AER"), "0.079945");
    assert_eq!(v["inputs"][2]["counts"]["a"], 5489);
    assert_eq!(m(1, "AER"), "0.061614");
    assert_eq!(v["inputs"][0]["counts"]["sentences"], 447);
    // the aer.py lines, run where lilt ran them, equal the published ones
    let published = std::fs::read_to_string(systems.join("enfr-results.txt")).unwrap();
    for hyp in ["test.enfr.talp", "test.enfr.grow-diagonal-final.talp"] {
        let out = Command::new(env!("CARGO_BIN_EXE_treeval"))
            .args(["align", "-q", "--compat", "aer.py", s(&gold), hyp])
            .current_dir(&systems)
            .output()
            .unwrap();
        let line = String::from_utf8(out.stdout).unwrap();
        assert!(
            published.lines().any(|l| format!("{l}\n") == line),
            "{line} is not in enfr-results.txt"
        );
    }
}

#[test]
fn conll18_tests_byte_identical() {
    let Some(d) = data_dir() else { return };
    let c = d.join("reference/conll18-tests");
    for (gold, sys, expected, compat) in [
        (
            "gold.conllu",
            "sys1.conllu",
            "sys1-expected.results",
            "conll18",
        ),
        (
            "gold.conllu",
            "sys2.conllu",
            "sys2-expected.results",
            "conll18",
        ),
        (
            "gold.conllu",
            "sys-space.conllu",
            "sys-space-expected.results",
            "conll18",
        ),
        (
            "case-gold.conllu",
            "case-sys.conllu",
            "case-expected.results",
            "conll18",
        ),
        (
            "func-gold.conllu",
            "func-sys.conllu",
            "func-expected.counts",
            "conll18-counts",
        ),
    ] {
        // the expected files are `-v` tables (-c for counts)
        assert_eq!(
            treeval(&[
                "ud",
                "--compat",
                compat,
                "-v",
                s(&c.join(gold)),
                s(&c.join(sys))
            ]),
            std::fs::read_to_string(c.join(expected)).unwrap(),
            "{sys}"
        );
    }
}

#[test]
fn tiny_conll18_counts() {
    let Some(d) = data_dir() else { return };
    let t = d.join("reference/tiny");
    let out = treeval(&[
        "ud",
        "--compat",
        "conll18-counts",
        s(&t.join("gold.conllu")),
        s(&t.join("sys.conllu")),
    ]);
    // the `-c` table recorded in expected/conll18.txt
    let exp = std::fs::read_to_string(t.join("expected/conll18.txt")).unwrap();
    let table: String = exp
        .lines()
        .skip_while(|l| !l.starts_with("== conll18_ud_eval.py -c"))
        .skip(1)
        .take_while(|l| !l.starts_with("=="))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(out, table);
    for row in [
        "UAS        |        29 |        34 |",
        "LAS        |        23 |        34 |",
        "CLAS       |        14 |        20 |        21 |",
        "MLAS       |        12 |        20 |        21 |",
        "BLEX       |        14 |        20 |        21 |",
    ] {
        assert!(out.contains(row), "{row}");
    }
}

#[test]
#[ignore = "1M words: run with --include-ignored (CI does, in release mode)"]
fn big1m_conll18_counts() {
    let Some(d) = data_dir() else { return };
    let gold = big_gold(&d);
    let sys = d.join("reference/big1m/sys1m.conllu.gz");
    assert_eq!(
        treeval(&["ud", "--compat", "conll18-counts", s(&gold), s(&sys)]),
        expected(&d.join("reference/big1m/expected/conll18-counts.txt"))
    );
}

/// A table of a file in ../shared/data/reference/tiny/expected, by its heading.
fn udeval_section(t: &Path, file: &str, heading: &str) -> String {
    let exp = std::fs::read_to_string(t.join("expected").join(file)).unwrap();
    exp.lines()
        .skip_while(|l| !l.starts_with(heading))
        .skip(1)
        .take_while(|l| !l.starts_with("=="))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn tiny_enhanced_collapse_and_drop() {
    let Some(d) = data_dir() else { return };
    let t = d.join("reference/tiny");
    let (g, sy) = (t.join("gold.conllu"), t.join("sys.conllu"));
    // collapse on raw files = udeval on the collapser's output
    let collapsed = treeval(&[
        "ud",
        "--compat",
        "udeval-counts",
        "--empty-nodes",
        "collapse",
        s(&g),
        s(&sy),
    ]);
    assert_eq!(
        collapsed,
        udeval_section(
            &t,
            "iwpt20.txt",
            "== udeval -c (udtools 0.2.9; collapsed input)"
        )
    );
    assert!(collapsed.contains("ELAS       |        22 |        34 |        34 |"));
    assert!(collapsed.contains("EULAS      |        23 |        34 |        34 |"));
    // the collapser's files themselves give the same
    let pre = treeval(&[
        "ud",
        "--compat",
        "udeval-counts",
        "--empty-nodes",
        "collapse",
        s(&t.join("gold.collapsed.conllu")),
        s(&t.join("sys.collapsed.conllu")),
    ]);
    assert_eq!(pre, collapsed);
    // drop = udeval on the raw files (udeval's own handling: the compat default)
    let dropped = treeval(&["ud", "--compat", "udeval-counts", s(&g), s(&sy)]);
    assert_eq!(
        dropped,
        udeval_section(&t, "udeval.txt", "== udeval (udtools 0.2.9) -c")
    );
    assert!(dropped.contains("ELAS       |        20 |        31 |        31 |"));
}

#[test]
#[ignore = "1M words: run with --include-ignored (CI does, in release mode)"]
fn big1m_enhanced_collapse_and_drop() {
    let Some(d) = data_dir() else { return };
    let gold = big_gold(&d);
    let sys = d.join("reference/big1m/sys1m.conllu.gz");
    let e = d.join("reference/big1m/expected");
    assert_eq!(
        treeval(&[
            "ud",
            "--compat",
            "udeval-counts",
            "--empty-nodes",
            "collapse",
            s(&gold),
            s(&sys)
        ]),
        expected(&e.join("udeval-collapsed-counts.txt"))
    );
    assert_eq!(
        treeval(&["ud", "--compat", "udeval-counts", s(&gold), s(&sys)]),
        expected(&e.join("udeval-counts.txt"))
    );
}

#[test]
fn tiny_relations_equal_las_and_maltevals_sentence_macro() {
    let Some(d) = data_dir() else { return };
    let t = d.join("reference/tiny");
    let v: serde_json::Value = serde_json::from_str(&treeval(&[
        "relations",
        "--format",
        "json",
        s(&t.join("gold.conllu")),
        s(&t.join("sys.conllu")),
    ]))
    .unwrap();
    let m = |name: &str| common::cell(&v, "scores", 0, name).clone();
    // one relation per word with its full label: eval07.pl's LAS 22/34
    assert_eq!(m("both")["value"], 22.0);
    assert_eq!(m("Dt")["value"], 34.0);
    // same sizes in every sentence, so the macro CA is MaltEval's sentence-macro LAS
    assert_eq!(
        format!("{:.3}", m("CA-macro")["value"].as_f64().unwrap()),
        "0.684"
    );
    // CA reads [ΣDf, Σmax]
    assert_eq!(m("CA")["counts"][0], 12);
}

/// `ud --align resync` on real French text (accents), against what the perturbations
/// imply: sentences dropped from the system cost exactly their gold words and leave every
/// other count as the strict evaluation of the files without them; NFD sentences cost the
/// tokens with changed characters; a cut file costs the rest.
#[test]
fn resync_on_real_text() {
    use unicode_normalization::UnicodeNormalization;
    let Some(d) = data_dir() else { return };
    let gold_text =
        std::fs::read_to_string(d.join("ud/UD_French-Sequoia/fr_sequoia-ud-test.conllu")).unwrap();
    let gold: Vec<&str> = gold_text
        .split("\n\n")
        .filter(|x| !x.trim().is_empty())
        .collect();
    // the system: every fifth word's relation changed, so that LAS is not trivial
    let sys: Vec<String> = gold
        .iter()
        .map(|sent| {
            sent.lines()
                .map(|l| {
                    let mut c: Vec<&str> = l.split('\t').collect();
                    if c.len() == 10
                        && c[0].parse::<u32>().is_ok_and(|n| n % 5 == 0)
                        && c[7] != "root"
                    {
                        c[7] = "dep";
                    }
                    c.join("\t")
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("resync");
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, sents: &[&str]| -> PathBuf {
        let p = dir.join(name);
        let mut t = sents.join("\n\n");
        t.push_str("\n\n");
        std::fs::write(&p, t).unwrap();
        p
    };
    let ud = |args: &[&str]| -> serde_json::Value {
        let mut a = vec!["ud", "-q", "--format", "json"];
        a.extend_from_slice(args);
        serde_json::from_str(&treeval(&a)).unwrap()
    };
    let sys_refs: Vec<&str> = sys.iter().map(|x| x.as_str()).collect();
    let g = write("gold.conllu", &gold);

    // dropped sentences
    let keep = |k: &usize| k % 25 != 3;
    let kept: Vec<usize> = (0..gold.len()).filter(keep).collect();
    let s_drop = write(
        "drop.conllu",
        &kept.iter().map(|&k| sys_refs[k]).collect::<Vec<_>>(),
    );
    let g_drop = write(
        "gold-drop.conllu",
        &kept.iter().map(|&k| gold[k]).collect::<Vec<_>>(),
    );
    let a = ud(&["--align", "resync", s(&g), s(&s_drop)]);
    let b = ud(&[s(&g_drop), s(&s_drop)]);
    let full = ud(&[s(&g), s(&g)]);
    // F1 reads [correct, gold, system] of each metric's row
    let count = |v: &serde_json::Value, m: &str, k: usize| {
        common::keyed_cell(v, "scores", 0, m, "F1")["counts"][k].clone()
    };
    // the metrics of the UD scorers but XPOS, UFeats, AllTags and EULAS
    let skipped = ["XPOS", "UFeats", "AllTags", "EULAS"];
    for m in treeval_metrics::ud::UdMetric::ALL
        .map(treeval_metrics::ud::UdMetric::name)
        .into_iter()
        .filter(|m| !skipped.contains(m))
    {
        assert_eq!(count(&a, m, 0), count(&b, m, 0), "{m}");
        assert_eq!(count(&a, m, 2), count(&b, m, 2), "{m}");
        assert_eq!(count(&a, m, 1), count(&full, m, 1), "{m}");
    }
    let windows = a["inputs"][1]["counts"]["resync"].as_array().unwrap();
    assert_eq!(windows.len(), gold.len() - kept.len());
    assert!(windows
        .iter()
        .all(|w| w["cause"] == "missing_sentences" && w["gold"]["sentences"] == 1));

    // NFD sentences (words outside multiword tokens only: inside one, the scorer compares
    // word forms, and NFD ones would not align even with the same token text)
    let nfd: Vec<String> = sys
        .iter()
        .enumerate()
        .map(|(k, x)| {
            if k % 10 != 1 {
                return x.clone();
            }
            let mut in_mwt = 0u32;
            x.lines()
                .map(|l| {
                    let id = l.split('\t').next().unwrap_or("");
                    if let Some((_, b)) = id.split_once('-') {
                        in_mwt = b.parse().unwrap_or(0);
                        return l.to_owned();
                    }
                    match id.parse::<u32>() {
                        Ok(n) if n > in_mwt => l.nfd().collect(),
                        _ => l.to_owned(),
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    let s_nfd = write(
        "nfd.conllu",
        &nfd.iter().map(|x| x.as_str()).collect::<Vec<_>>(),
    );
    let a = ud(&["--align", "resync", s(&g), s(&s_nfd)]);
    let windows = a["inputs"][1]["counts"]["resync"].as_array().unwrap();
    assert!(windows.len() > 20, "{} windows", windows.len());
    assert!(windows.iter().all(|w| w["cause"] == "normalization"));
    let sum = |side: &str| -> u64 {
        windows
            .iter()
            .map(|w| w[side]["words"].as_u64().unwrap())
            .sum()
    };
    let words = |k: usize| count(&a, "Words", k).as_u64().unwrap();
    assert_eq!(words(0) + sum("gold"), words(1));
    assert_eq!(words(0) + sum("system"), words(2));

    // a cut file
    let s_cut = write("cut.conllu", &sys_refs[..100]);
    let a = ud(&["--align", "resync", s(&g), s(&s_cut)]);
    let windows = a["inputs"][1]["counts"]["resync"].as_array().unwrap();
    assert_eq!(windows.len(), 1);
    assert_eq!(windows[0]["cause"], "truncated_system");
    assert_eq!(windows[0]["gold"]["sentences"], (gold.len() - 100) as u64);
    assert_eq!(
        count(&a, "Words", 0).as_u64().unwrap() + windows[0]["gold"]["words"].as_u64().unwrap(),
        count(&a, "Words", 1).as_u64().unwrap()
    );
}

/// On a gold-tokenized pair, the `ud --by` breakdowns over the alignment are the `deps`
/// breakdowns with universal labels (every key; the system side where deps has one).
#[test]
fn tiny_ud_breakdowns_equal_deps() {
    let Some(d) = data_dir() else { return };
    let t = d.join("reference/tiny");
    let (g, sy) = (t.join("gold.conllu"), t.join("sys.conllu"));
    let keys = "deprel,upos,xpos,length,distance,direction,depth,projectivity";
    let deps = json(&["--labels", "universal", "--by", keys, s(&g), s(&sy)]);
    let ud: serde_json::Value = serde_json::from_str(&treeval(&[
        "ud",
        "-q",
        "--format",
        "json",
        "--by",
        keys,
        s(&g),
        s(&sy),
    ]))
    .unwrap();
    for key in keys.split(',') {
        let section = format!("by:{key}");
        let groups = common::keys(&deps, &section, 0);
        assert_eq!(groups, common::keys(&ud, &section, 0), "{key}");
        let system_side = deps["sections"].as_array().unwrap().iter().any(|s| {
            s["id"] == section.as_str()
                && s["columns"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|c| c == "system-LAS")
        });
        for group in &groups {
            let c = |v: &serde_json::Value, m: &str| {
                common::keyed_cell(v, &section, 0, group, m)["counts"].clone()
            };
            let mut ms = vec!["LAS", "UAS", "LA"];
            if system_side {
                ms.push("system-LAS");
            }
            for m in ms {
                assert_eq!(c(&deps, m), c(&ud, m), "{key} {group} {m}");
            }
        }
    }
}

/// EWT dev with one HEAD made `foo`: `ud` (and `--compat conll18`, `deps`, `relations`)
/// report the one problem on one line, not also "expected a HEAD, found '_'".
#[test]
fn ewt_dev_bad_head_is_one_problem_on_one_line() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu");
    let text = std::fs::read_to_string(&gold).unwrap();
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let k = (lines.iter())
        .position(|l| {
            l.starts_with(|c: char| c.is_ascii_digit()) && l.split('\t').nth(6) != Some("0")
        })
        .unwrap();
    let mut cols: Vec<&str> = lines[k].split('\t').collect();
    cols[6] = "foo";
    lines[k] = cols.join("\t");
    let dir = scratch("bad-head");
    let sys = dir.join("sys.conllu");
    std::fs::write(&sys, lines.join("\n")).unwrap();
    for cmd in [
        &["ud"][..],
        &["ud", "--compat", "conll18"],
        &["deps"],
        &["relations"],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
            .args(cmd)
            .args([s(&gold), s(&sys)])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{cmd:?}: {err}");
        let head = format!("error: {}:{}:", s(&sys), k + 1);
        assert!(err.starts_with(&head), "{cmd:?}: {err}");
        assert!(
            err.contains("expected HEAD to be a non-negative integer or '_', found 'foo'"),
            "{cmd:?}: {err}"
        );
        assert!(!err.contains("found '_'"), "{cmd:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{cmd:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `treeval brackets --compat evalb` prints what EVALB printed on its own sample, on
/// stdout and stderr, byte for byte.
#[test]
fn evalb_sample_byte_identical() {
    let Some(d) = data_dir() else { return };
    let e = d.join("reference/evalb-sample");
    let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args([
            "brackets",
            "--compat",
            "evalb",
            "--prm",
            s(&e.join("COLLINS.prm")),
            s(&e.join("sample.gld")),
            s(&e.join("sample.tst")),
        ])
        .output()
        .expect("run treeval");
    assert!(o.status.success());
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        std::fs::read_to_string(e.join("sample.COLLINS.expected.out")).unwrap()
    );
    assert_eq!(
        String::from_utf8(o.stderr).unwrap(),
        std::fs::read_to_string(e.join("sample.COLLINS.expected.err")).unwrap()
    );
}

/// `brackets --by label,length` on EVALB's sample, with its own parameter file and with
/// COLLINS.prm: the brackets of each breakdown's groups sum to the `all` section's
/// (EVALB's totals: the same figures `--compat evalb` prints), and the `all` section is
/// the one without `--by`.
#[test]
fn evalb_sample_breakdowns_sum_to_evalbs_totals() {
    let Some(d) = data_dir() else { return };
    let e = d.join("reference/evalb-sample");
    for prm in ["sample.prm", "COLLINS.prm"] {
        let (p, g, t) = (e.join(prm), e.join("sample.gld"), e.join("sample.tst"));
        let args = [
            "brackets",
            "-q",
            "--format",
            "json",
            "--prm",
            s(&p),
            s(&g),
            s(&t),
        ];
        let v: serde_json::Value =
            serde_json::from_str(&treeval(&[&args[..], &["--by", "label,length"]].concat()))
                .unwrap();
        common::assert_bracket_breakdowns_sum(&v);
        let plain: serde_json::Value = serde_json::from_str(&treeval(&args)).unwrap();
        let all = |v: &serde_json::Value| {
            v["sections"]
                .as_array()
                .and_then(|a| a.iter().find(|x| x["id"] == "all").cloned())
        };
        assert_eq!(all(&v), all(&plain), "{prm}");
        assert!(!common::keys(&v, "by:label", 0).is_empty(), "{prm}");
    }
}

/// The PTB sample in both its forms: the constituency trees (.mrg, traces dropped) and the
/// dependency trees (.dp) of the same 3,914 sentences meet in TedEval. Each gold as its
/// own parse scores exactly 1 against their generalization; the words agree sentence by
/// sentence (else the run fails).
#[test]
#[ignore = "3,914 sentences x 4 edit scripts: slow in debug builds; run with --include-ignored (CI does, in release mode)"]
fn tedeval_ptb_constituency_meets_dependency() {
    let Some(d) = data_dir() else { return };
    let ptb = d.join("ptb-sample");
    let dir = std::env::temp_dir().join(format!("treeval-ptb-ted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut mrg, mut conllx) = (String::new(), String::new());
    for k in 1..=199 {
        let name = format!("wsj_{k:04}");
        mrg.push_str(
            &std::fs::read_to_string(ptb.join("treebank/combined").join(format!("{name}.mrg")))
                .unwrap(),
        );
        mrg.push('\n');
        let dp =
            std::fs::read_to_string(ptb.join("dependency_treebank").join(format!("{name}.dp")))
                .unwrap();
        for sentence in dp.split("\n\n").filter(|x| !x.trim().is_empty()) {
            for (i, line) in sentence.lines().filter(|l| !l.is_empty()).enumerate() {
                let c: Vec<&str> = line.split('\t').collect();
                conllx.push_str(&format!(
                    "{}\t{}\t_\t{}\t{}\t_\t{}\tdep\t_\t_\n",
                    i + 1,
                    c[0],
                    c[1],
                    c[1],
                    c[2]
                ));
            }
            conllx.push('\n');
        }
    }
    let (m, c) = (dir.join("ptb.mrg"), dir.join("ptb.conllx"));
    std::fs::write(&m, mrg).unwrap();
    std::fs::write(&c, conllx).unwrap();
    let (m, c) = (s(&m), s(&c));
    let j: serde_json::Value = serde_json::from_str(&treeval(&[
        "ted",
        "-q",
        "--format",
        "json",
        "--no-test",
        "--exp",
        &format!("constituency:{m}:{m}"),
        "--exp",
        &format!("dependency:{c}:{c}"),
    ]))
    .unwrap();
    assert_eq!(
        j["inputs"][1]["counts"]["sentences"]["scored"], 3914,
        "{}",
        j["inputs"][1]
    );
    for k in 0..2 {
        assert_eq!(common::value(&j, "scores", k, "TedEval"), Some(1.0), "{k}");
    }
    // LAS against the own gold: the dependency experiment only
    let own: Vec<u64> = j["sections"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["id"] == "own-gold")
        .flat_map(|s| {
            s["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["system"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(own, [1]);
    assert_eq!(common::value(&j, "own-gold", 1, "LAS"), Some(1.0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// EVALB's bug/ fixture with the parameter files most neural parsers publish numbers
/// with (nk.prm, new.prm: QUOTE_LABEL) and with COLLINS.prm: `--compat evalb` prints
/// what EVALB printed (testdata/peer-expected/evalb, made by EVALB itself), stdout and
/// stderr byte for byte; the built-in new.prm and nk.prm are these files.
#[test]
fn evalb_quote_label_bug_fixture_byte_identical() {
    let Some(d) = data_dir() else { return };
    let p = d.join("peer/evalb");
    let (gold, test) = (p.join("bug.gld"), p.join("bug.tst"));
    let golden =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/peer-expected/evalb");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_treeval"))
            .args(args)
            .output()
            .expect("run treeval")
    };
    for (prm, name) in [
        (s(&p.join("nk.prm")).to_owned(), "bug.nk"),
        (s(&p.join("new.prm")).to_owned(), "bug.new"),
        ("nk.prm".to_owned(), "bug.nk"),
        ("new.prm".to_owned(), "bug.new"),
        ("COLLINS.prm".to_owned(), "bug.COLLINS"),
    ] {
        let o = run(&[
            "brackets",
            "--compat",
            "evalb",
            "--prm",
            &prm,
            s(&gold),
            s(&test),
        ]);
        assert!(o.status.success(), "{prm}");
        let want =
            |ext: &str| std::fs::read_to_string(golden.join(format!("{name}.{ext}"))).unwrap();
        assert_eq!(
            String::from_utf8(o.stdout).unwrap(),
            want("out"),
            "{prm}: stdout"
        );
        assert_eq!(
            String::from_utf8(o.stderr).unwrap(),
            want("err"),
            "{prm}: stderr"
        );
    }
    // the built-in parameter sets are the files' (same keys and values)
    for name in ["nk.prm", "new.prm"] {
        let params = |prm: &str| -> serde_json::Value {
            let o = run(&[
                "brackets",
                "-q",
                "--format",
                "json",
                "--prm",
                prm,
                s(&gold),
                s(&test),
            ]);
            assert!(o.status.success(), "{prm}");
            serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()["params"].clone()
        };
        assert_eq!(params(name), params(s(&p.join(name))), "{name}");
    }
}

/// A scratch folder of this process for files derived from the shared data.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("treeval-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The WPT 2003 test set with a hypothesis one sentence short: treeval once scored it
/// (AER 8.03 where the full file gives 7.99); now it names both counts and prints nothing.
/// The same files with a BOM and CR LF line ends give the numbers of the LF files.
#[test]
fn wpt03_short_hypothesis_is_an_error_and_crlf_scores_as_lf() {
    let Some(d) = data_dir() else { return };
    let w = d.join("align/wpt03-enfr");
    let gold = w.join("test.wa.nonullalign");
    let talp = std::fs::read_to_string(w.join("published-systems/test.enfr.talp")).unwrap();
    let dir = scratch("wpt03");
    let short = dir.join("short.talp");
    let lines: Vec<&str> = talp.lines().collect();
    assert_eq!(lines.len(), 447);
    std::fs::write(&short, lines[..446].join("\n") + "\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(["align", s(&gold), s(&short)])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("has 446 sentence(s) (lines), but the gold")
            && e.contains("has 447 sentence(s) (its highest sentence number)"),
        "{e}"
    );

    let crlf_gold = dir.join("gold-bom-crlf.wa");
    let crlf_hyp = dir.join("hyp-crlf.talp");
    let g = std::fs::read_to_string(&gold).unwrap();
    std::fs::write(&crlf_gold, format!("\u{feff}{}", g.replace('\n', "\r\n"))).unwrap();
    std::fs::write(&crlf_hyp, talp.replace('\n', "\r\n")).unwrap();
    let run = |g: &Path, h: &Path| -> serde_json::Value {
        serde_json::from_str(&treeval(&["align", "-q", "--format", "json", s(g), s(h)])).unwrap()
    };
    let lf = run(&gold, &w.join("published-systems/test.enfr.talp"));
    let cr = run(&crlf_gold, &crlf_hyp);
    assert_eq!(cr["inputs"][1]["counts"], lf["inputs"][1]["counts"]);
    assert_eq!(cr["sections"], lf["sections"]);
    assert_eq!(
        cr["warnings"].as_array().unwrap().len(),
        2,
        "{}",
        cr["warnings"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--compat wa_eval_align` and `--compat aer.py --f-alpha 0.5` print, byte for byte, what
/// the two scripts print on the WPT 2003 test set (their outputs are stored in
/// testdata/align-compat, with the commands in its README).
#[test]
fn wpt03_compat_outputs_equal_the_scripts() {
    let Some(d) = data_dir() else { return };
    let w = d.join("align/wpt03-enfr");
    let gold = w.join("test.wa.nonullalign");
    let golden = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/align-compat");
    for hyp in ["test.enfr.talp", "test.enfr.grow-diagonal-final.talp"] {
        for (args, expected) in [
            (&["--compat", "wa_eval_align"][..], "wa_eval"),
            (&["--compat", "aer.py", "--f-alpha", "0.5"][..], "aer-f0.5"),
        ] {
            let mut a = vec!["align", "-q"];
            a.extend_from_slice(args);
            a.extend_from_slice(&[s(&gold), hyp]);
            let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
                .args(&a)
                .current_dir(w.join("published-systems"))
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let want =
                std::fs::read_to_string(golden.join(format!("wpt03-{hyp}.{expected}.expected")))
                    .unwrap();
            assert_eq!(String::from_utf8(o.stdout).unwrap(), want, "{hyp} {args:?}");
        }
    }
}

/// The first `n` sentences of CoNLL-U `files` (read in order, `.gz` too) as CoNLL-2009
/// lines, the tree in both HEAD/DEPREL and PHEAD/PDEPREL: ID FORM LEMMA PLEMMA=LEMMA
/// POS=UPOS PPOS=XPOS FEAT PFEAT=FEAT HEAD PHEAD DEPREL PDEPREL FILLPRED=_ PRED=_.
/// Multiword-token ranges and empty nodes are dropped (they are not words).
fn conllu_to_conll09(files: &[PathBuf], n: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    'files: for f in files {
        let mut rdr = treeval_formats::ReaderBuilder::new()
            .from_path(s(f))
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for sent in rdr.sentences() {
            if count == n {
                break 'files;
            }
            let sent = sent.unwrap();
            for w in sent.words() {
                let (lemma, feats) = (sent.lemma(w), sent.feats(w));
                let cols = [
                    &w.id.to_string(),
                    sent.form(w),
                    lemma,
                    lemma,
                    sent.upos(w),
                    sent.xpos(w),
                    feats,
                    feats,
                    sent.head_text(w),
                    sent.head_text(w),
                    sent.deprel(w),
                    sent.deprel(w),
                    "_",
                    "_",
                ];
                // eval09.pl splits lines on any whitespace
                assert!(cols.iter().all(|c| !c.contains(char::is_whitespace)));
                out.push_str(&cols.join("\t"));
                out.push('\n');
            }
            out.push('\n');
            count += 1;
        }
    }
    assert_eq!(count, n, "fewer than {n} sentences in {files:?}");
    out
}

#[test]
#[ignore = "50,241 words converted and scored twice: 15 s in a debug build; run with --include-ignored (CI does, in release mode)"]
fn ewt_as_conll09_compat_eval09_byte_identical() {
    let Some(d) = data_dir() else { return };
    // gold: EWT dev + test; system: the first copy of them in big1m's system file
    let ewt = d.join("ud/UD_English-EWT");
    let gold = conllu_to_conll09(
        &[
            ewt.join("en_ewt-ud-dev.conllu"),
            ewt.join("en_ewt-ud-test.conllu"),
        ],
        4078,
    );
    let sys = conllu_to_conll09(&[d.join("reference/big1m/sys1m.conllu.gz")], 4078);
    let dir = std::env::temp_dir().join(format!("treeval-ewt09-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (g, sy) = (dir.join("gold.conll09"), dir.join("sys.conll09"));
    std::fs::write(&g, gold).unwrap();
    std::fs::write(&sy, sys).unwrap();
    // eval09.pl -q and -q -p on these files (testdata/conll09/expected/README.md)
    let e = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/conll09/expected");
    let read = |name: &str| std::fs::read_to_string(e.join(name)).unwrap();
    assert_eq!(
        treeval(&["deps", "-q", "--compat", "eval09", s(&g), s(&sy)]),
        read("ewt_q.txt")
    );
    assert_eq!(
        treeval(&[
            "deps",
            "-q",
            "--compat",
            "eval09",
            "--profile",
            "conllx",
            s(&g),
            s(&sy)
        ]),
        read("ewt_qp.txt")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The files of ../shared/data/peer, or `None` (with the loud message) without them.
fn peer_dir() -> Option<PathBuf> {
    let d = data_dir()?.join("peer");
    assert!(d.is_dir(), "{} is missing", d.display());
    Some(d)
}

/// A golden output of a reference scorer under testdata/peer-expected.
fn peer_expected(rel: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/peer-expected")
        .join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn conll18_shared_task_submissions_byte_identical() {
    let Some(d) = peer_dir() else { return };
    let mut pairs: Vec<PathBuf> = std::fs::read_dir(d.join("conll18/sys"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    pairs.sort();
    assert_eq!(pairs.len(), 22, "the README's pairs");
    for sys in pairs {
        let name = sys.file_name().unwrap().to_str().unwrap();
        let stem = name.trim_end_matches(".conllu.gz");
        let tb = stem.split_once('.').unwrap().1;
        let gold = d.join(format!("conll18/gold/{tb}.conllu.gz"));
        // the script's default three lines, and its -v table
        assert_eq!(
            treeval(&["ud", "--compat", "conll18", s(&gold), s(&sys)]),
            peer_expected(&format!("conll18/{stem}.txt")),
            "{stem}"
        );
        assert_eq!(
            treeval(&["ud", "--compat", "conll18", "-v", s(&gold), s(&sys)]),
            peer_expected(&format!("conll18/{stem}.v.txt")),
            "{stem} -v"
        );
    }
}

#[test]
fn udeval_empty_node_files_and_cs_pud_byte_identical() {
    let Some(d) = peer_dir() else { return };
    let u = d.join("udeval");
    let tmp = std::env::temp_dir().join(format!("treeval-udeval-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for name in [
        "valid__empty-nodes",
        "valid__maximal-empty-node",
        "valid__minimal-empty-node",
    ] {
        let gold = u.join(format!("{name}.conllu"));
        // the perturbed copy: DEPS items `N.M:rel` of word lines read `N:rel`
        let text = std::fs::read_to_string(&gold).unwrap();
        let mut perturbed = String::new();
        for line in text.lines() {
            let mut c: Vec<String> = line.split('\t').map(str::to_owned).collect();
            if c.len() == 10 && !c[0].contains('.') && c[8] != "_" && !c[8].is_empty() {
                c[8] = c[8]
                    .split('|')
                    .map(|it| match it.split_once(':') {
                        Some((h, rel)) if h.contains('.') => {
                            format!("{}:{rel}", h.split('.').next().unwrap())
                        }
                        _ => it.to_owned(),
                    })
                    .collect::<Vec<_>>()
                    .join("|");
            }
            perturbed.push_str(&c.join("\t"));
            perturbed.push('\n');
        }
        assert_ne!(perturbed, text, "{name}: nothing perturbed");
        let sys = tmp.join(format!("{name}.perturbed.conllu"));
        std::fs::write(&sys, perturbed).unwrap();
        for (sys, stem) in [
            (&gold, name.to_owned()),
            (&sys, format!("{name}.perturbed")),
        ] {
            // udeval's own handling of empty nodes, without --empty-nodes
            assert_eq!(
                treeval(&["ud", "--compat", "udeval", s(&gold), s(sys)]),
                peer_expected(&format!("udeval/{stem}.txt")),
                "{stem}"
            );
            assert_eq!(
                treeval(&["ud", "--compat", "udeval", "-v", s(&gold), s(sys)]),
                peer_expected(&format!("udeval/{stem}.v.txt")),
                "{stem} -v"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    let (gold, sys) = (
        u.join("cs_pud-gold.conllu.gz"),
        u.join("cs_pud-udpipe-pdtc-ud-2.17-251125.conllu.gz"),
    );
    let v = treeval(&["ud", "--compat", "udeval", "-v", s(&gold), s(&sys)]);
    assert_eq!(v, peer_expected("udeval/cs_pud.v.txt"));
    assert_eq!(
        v,
        std::fs::read_to_string(u.join("cs_pud.eval.txt")).unwrap()
    );
    assert_eq!(
        treeval(&["ud", "--compat", "udeval", s(&gold), s(&sys)]),
        peer_expected("udeval/cs_pud.txt")
    );
}

/// The HTML page of `deps` on the 2,077-sentence EWT test set with two systems (the gold
/// file twice: the data holds no parser output of EWT test, and the page's size depends on
/// the words, not on the errors; the browser check in CI also measures it with two
/// perturbed systems): at most 5 MB, every sentence held, a chart for every section and a
/// heatmap for every matrix.
#[test]
fn ewt_test_deps_page_is_under_5_mb_with_every_sentence() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-test.conllu");
    let g = s(&gold);
    let page = treeval(&["deps", "-q", "--format", "html", "--ci", "95", g, g, g]);
    assert!(page.len() <= 5_000_000, "{} bytes", page.len());
    let open = "<script type=\"application/json\" id=\"treeval-data\">";
    let a = page.find(open).unwrap() + open.len();
    let b = a + page[a..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&page[a..b]).unwrap();
    assert_eq!(data["total"], 2077);
    assert_eq!(data["sentences"].as_array().unwrap().len(), 2077);
    assert_eq!(data["sampled"], false);
    let tables = page.matches("<table class=\"report\"").count();
    let charts = page
        .matches("<figure class=\"chart\" data-section=")
        .count();
    let matrices = page.matches("<table class=\"matrix\"").count();
    let heatmaps = page.matches("<figure class=\"chart heatmap\"").count();
    // every section has a chart, plus the per-sentence distribution
    assert_eq!(charts, tables + 1, "{tables} tables");
    assert_eq!((matrices, heatmaps), (2, 2));
}

/// The HTML page of `deps --confusion=15` on EWT dev against spaCy's greedy parse (real
/// output): every header cell has text, and the confusion matrix is a heatmap table whose
/// cells print the counts of the JSON report's matrix, each row shaded as the caption says
/// (the diagonal by its share of the row, a confusion by its share of the row's confusions).
#[test]
fn ewt_dev_confusion_heatmap_prints_the_reports_counts() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu");
    let sys = d.join("nbest/en_ewt-dev.en_sm.greedy.conllu");
    let args = [
        "deps",
        "-q",
        "--confusion=15",
        s(&gold),
        s(&sys),
        "--format",
    ];
    let page = treeval(&[&args[..], &["html"]].concat());
    let json: serde_json::Value =
        serde_json::from_str(&treeval(&[&args[..], &["json"]].concat())).unwrap();
    assert!(!page.contains("<th></th>"), "an empty header cell");
    let m = &json["matrices"][0];
    let labels = |k: &str| -> Vec<String> {
        (m[k].as_array().unwrap().iter())
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    let (rows, columns) = (labels("rows"), labels("columns"));
    assert_eq!(rows.len(), 16, "15 labels and (other)");
    let a = page.find("<table class=\"matrix\"").unwrap();
    let table = &page[a..a + page[a..].find("</table>").unwrap()];
    for (r, label) in rows.iter().enumerate() {
        let counts: Vec<u64> = (m["counts"][r].as_array().unwrap().iter())
            .map(|n| n.as_u64().unwrap())
            .collect();
        let open = format!("<th scope=\"row\">{label}</th>");
        let b = table.find(&open).unwrap() + open.len();
        let row = &table[b..b + table[b..].find("</tr>").unwrap()];
        let cells: Vec<&str> = row.split("</td>").filter(|c| !c.is_empty()).collect();
        assert_eq!(cells.len(), counts.len(), "{label}");
        let total: u64 = counts.iter().sum();
        let right: u64 = (0..counts.len())
            .filter(|&k| columns[k] == *label)
            .map(|k| counts[k])
            .sum();
        for (k, (cell, &n)) in cells.iter().zip(&counts).enumerate() {
            let diagonal = columns[k] == *label;
            assert!(
                cell.ends_with(&format!(">{n}")),
                "{label}/{}: {cell}",
                columns[k]
            );
            assert_eq!(cell.contains("count diagonal"), diagonal, "{cell}");
            let of = if diagonal { total } else { total - right };
            let shade = (n > 0).then(|| format!("--shade:{:.3}\"", n as f64 / of as f64));
            match shade {
                Some(x) => assert!(cell.contains(&x), "{label}/{}: {cell} ({x})", columns[k]),
                None => assert!(!cell.contains("--shade"), "{cell}"),
            }
        }
    }
}

/// `--errors` on real parser output: deps and ud on EWT dev against spaCy's greedy parse,
/// align on WPT 2003 against a published alignment, brackets on EVALB's sample; each listing's rows are the errors
/// the scores count.
#[test]
fn errors_listings_add_up_on_real_outputs() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu");
    let sys = d.join("nbest/en_ewt-dev.en_sm.greedy.conllu");
    let run = |args: &[&str]| -> serde_json::Value {
        let mut a = args.to_vec();
        a.extend(["-q", "--errors", "--format", "json"]);
        serde_json::from_str(&treeval(&a)).unwrap()
    };
    let rows = |r: &serde_json::Value| r["listings"][0]["rows"].as_array().unwrap().len() as u64;
    let cell = |r: &serde_json::Value, key: Option<&str>, m: &str| -> Vec<u64> {
        let row = r["sections"][0]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| key.map_or(true, |k| x["key"] == k))
            .unwrap()
            .clone();
        let c = row["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["measure"] == m)
            .unwrap()
            .clone();
        c["counts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    };
    let r = run(&["deps", s(&gold), s(&sys)]);
    let las = cell(&r, None, "LAS");
    assert_eq!(rows(&r), las[1] - las[0], "deps");
    let r = run(&["ud", s(&gold), s(&sys)]);
    let las = cell(&r, Some("LAS"), "recall");
    assert_eq!(rows(&r), las[1] - las[0], "ud");
    let wpt = d.join("align/wpt03-enfr");
    let r = run(&[
        "align",
        s(&wpt.join("test.wa.nonullalign")),
        s(&wpt.join("published-systems/test.enfr.talp")),
    ]);
    let (rc, pc) = (cell(&r, None, "recall"), cell(&r, None, "precision"));
    assert_eq!(rows(&r), (rc[1] - rc[0]) + (pc[1] - pc[0]), "align");
    let e = d.join("reference/evalb-sample");
    let r = run(&[
        "brackets",
        "--prm",
        s(&e.join("sample.prm")),
        s(&e.join("sample.gld")),
        s(&e.join("sample.tst")),
    ]);
    let (rc, pc) = (cell(&r, None, "recall"), cell(&r, None, "precision"));
    assert_eq!(rows(&r), (rc[1] - rc[0]) + (pc[1] - pc[0]), "brackets");
}

/// `--errors` in relations and ted on real parser output: the relations listing's missing
/// and extra triples are |Dt| − |Dt ∩ Ds| and |Ds| − |Dt ∩ Ds| (EWT dev against spaCy's
/// greedy parse; a CoNLL 2018 submission over its own tokenization), and ted's operations
/// are Σδ_new (EWT dev and spaCy's parse as two schemes, each the other's parse, so their
/// generalization differs from both golds and operations are forgiven).
#[test]
fn errors_listings_add_up_in_relations_and_ted() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu");
    let sys = d.join("nbest/en_ewt-dev.en_sm.greedy.conllu");
    let run = |args: &[&str]| -> serde_json::Value {
        let mut a = args.to_vec();
        a.extend(["-q", "--errors", "--format", "json"]);
        serde_json::from_str(&treeval(&a)).unwrap()
    };
    let kinds = |r: &serde_json::Value, k: usize| -> Vec<(String, u64)> {
        r["listings"][k]["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                (
                    x["kind"].as_str().unwrap().to_owned(),
                    x["count"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let count =
        |r: &serde_json::Value, k: u64, m: &str| common::counts(common::cell(r, "scores", k, m))[0];
    let conll18 = d.join("peer/conll18");
    for (g, p) in [
        (gold.clone(), sys.clone()),
        (
            conll18.join("gold/en_gum.conllu.gz"),
            conll18.join("sys/UDPipe-Future.en_gum.conllu.gz"),
        ),
    ] {
        let r = run(&["relations", s(&g), s(&p)]);
        let (dt, ds, both) = (count(&r, 0, "Dt"), count(&r, 0, "Ds"), count(&r, 0, "both"));
        assert!(both < dt.min(ds), "{dt} {ds} {both}");
        let want = vec![
            ("missing".to_owned(), dt - both),
            ("extra".to_owned(), ds - both),
        ];
        assert_eq!(kinds(&r, 0), want, "{}", s(&p));
    }
    let r = run(&[
        "ted",
        "--no-test",
        "--exp",
        &format!("ewt:{}:{}", s(&gold), s(&sys)),
        "--exp",
        &format!("spacy:{}:{}", s(&sys), s(&gold)),
    ]);
    for k in 0..2 {
        let rows = r["listings"][k]["rows"].as_array().unwrap().len() as u64;
        let (delta_new, delta) = (
            count(&r, k as u64, "delta_new"),
            count(&r, k as u64, "delta"),
        );
        assert!(
            delta_new < delta,
            "something is forgiven: {delta_new} {delta}"
        );
        assert_eq!(rows, delta_new, "experiment {k}");
        let listed: u64 = kinds(&r, k).iter().map(|x| x.1).sum();
        assert_eq!(listed, delta_new);
    }
}

/// `deps --where` on real parser output (EWT dev against spaCy's greedy parse): a
/// confusion cell's words are its `--where` words and its `--errors` rows, a `--by
/// distance` cell is its `--where`, and kept plus not kept words are the scored words.
#[test]
fn where_keeps_the_words_of_a_cell_on_real_output() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu");
    let sys = d.join("nbest/en_ewt-dev.en_sm.greedy.conllu");
    let run = |extra: &[&str]| -> serde_json::Value {
        let mut a = vec!["deps", s(&gold), s(&sys), "-q", "--format", "json"];
        a.extend(extra);
        serde_json::from_str(&treeval(&a)).unwrap()
    };
    let las = |r: &serde_json::Value| common::counts(common::cell(r, "scores", 0, "LAS"));
    let all = run(&["--confusion=100", "--by", "distance"]);
    let m = &all["matrices"][0];
    let at =
        |v: &serde_json::Value, l: &str| v.as_array().unwrap().iter().position(|x| x == l).unwrap();
    let n = m["counts"][at(&m["rows"], "nsubj")][at(&m["columns"], "obj")]
        .as_u64()
        .unwrap();
    assert!(n > 0);
    let w = run(&["--where", "gold.deprel=nsubj,sys.deprel=obj", "--errors"]);
    assert_eq!(las(&w), [0, n]);
    assert_eq!(w["listings"][0]["rows"].as_array().unwrap().len() as u64, n);
    let scored = las(&all)[1];
    assert_eq!(
        w["inputs"][1]["counts"]["unmatched_words"].as_u64(),
        Some(scored - n)
    );
    for bin in ["root", "1", "3-6", "7+"] {
        let cell = common::counts(common::keyed_cell(&all, "by:distance", 0, bin, "LAS"));
        assert_eq!(
            las(&run(&["--where", &format!("distance={bin}")])),
            cell,
            "{bin}"
        );
    }
    // ud over the tokenization alignment: the LAS recall of the kept gold words is the
    // --by cell's, and precision reads the system words aligned to them
    let ud = |extra: &[&str]| -> serde_json::Value {
        let mut a = vec!["ud", s(&gold), s(&sys), "-q", "--format", "json"];
        a.extend(extra);
        serde_json::from_str(&treeval(&a)).unwrap()
    };
    let by = ud(&["--by", "deprel,distance"]);
    for (key, group) in [("deprel", "nsubj"), ("deprel", "obl"), ("distance", "7+")] {
        let w = ud(&["--where", &format!("{key}={group}")]);
        let cell = common::counts(common::keyed_cell(
            &by,
            &format!("by:{key}"),
            0,
            group,
            "LAS",
        ));
        let las = |m: &str| common::counts(common::keyed_cell(&w, "scores", 0, "LAS", m));
        assert_eq!(las("recall"), cell, "ud {key}={group}");
        assert_eq!(
            las("precision"),
            las("aligned-accuracy"),
            "ud {key}={group}"
        );
    }
}

/// The PTB sample's 199 .mrg files as one gold file, and a test file that relabels some
/// NP and VP brackets (so that scores are not all 100), in scratch directory `name`.
fn ptb_sample_pair(d: &Path, name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let (gold, test) = ptb_sample_text(d, 1..=199);
    let (g, t) = (dir.join("gold.mrg"), dir.join("test.mrg"));
    std::fs::write(&g, gold).unwrap();
    std::fs::write(&t, test).unwrap();
    (g, t)
}

/// The gold and test text of [`ptb_sample_pair`] for the .mrg files numbered `files`.
fn ptb_sample_text(d: &Path, files: std::ops::RangeInclusive<usize>) -> (String, String) {
    let (mut gold, mut test) = (String::new(), String::new());
    for k in files {
        let path = d.join(format!("ptb-sample/treebank/combined/wsj_{k:04}.mrg"));
        let text = std::fs::read_to_string(path).unwrap();
        let changed = if k % 2 == 1 {
            text.replace("(NP ", "(XP ")
        } else {
            text.replace("(VP (VBD", "(S (VBD")
        };
        gold.push_str(&text);
        gold.push('\n');
        test.push_str(&changed);
        test.push('\n');
    }
    (gold, test)
}

/// `treeval brackets -q --format json GOLD TEST EXTRA…`, read.
fn brackets_json(g: &Path, t: &Path, extra: &[&str]) -> serde_json::Value {
    let args = [
        &["brackets", "-q", "--format", "json", s(g), s(t)][..],
        extra,
    ]
    .concat();
    serde_json::from_str(&treeval(&args)).unwrap()
}

/// The rows of section `id` of a JSON report.
fn section_rows(v: &serde_json::Value, id: &str) -> serde_json::Value {
    v["sections"]
        .as_array()
        .and_then(|a| a.iter().find(|x| x["id"] == id))
        .map(|x| x["rows"].clone())
        .unwrap()
}

/// `brackets --max-len 40` on the PTB sample (its 199 .mrg files; the test file relabels
/// some NP and VP brackets, so that scores are not all 100) restricts the whole
/// evaluation to what the plain run's `len<=40` section (EVALB's CUTOFF_LEN 40) covers:
/// its `all` section equals the plain run's `cutoff` section cell for cell, and the
/// selection counts the trees over 40 words.
#[test]
fn ptb_sample_brackets_max_len_40_equals_the_len_40_section() {
    let Some(d) = data_dir() else { return };
    let (g, t) = ptb_sample_pair(&d, "ptb-max-len");
    let run = |extra: &[&str]| brackets_json(&g, &t, extra);
    let plain = run(&[]);
    let cut = run(&["--max-len", "40"]);
    assert_eq!(section_rows(&cut, "all"), section_rows(&plain, "cutoff"));
    assert_eq!(section_rows(&cut, "cutoff"), section_rows(&plain, "cutoff"));
    assert_ne!(section_rows(&plain, "all"), section_rows(&plain, "cutoff"));
    let sel = &cut["selection"];
    let kept = sel["kept"]["sentences"].as_u64().unwrap();
    let over = sel["excluded_by_length"]["sentences"].as_u64().unwrap();
    let sentences = |id: &str| common::counts(common::cell(&plain, id, 0, "sentences"))[0];
    assert_eq!(
        kept + over,
        sentences("all"),
        "every tree is kept or excluded"
    );
    assert_eq!(kept, sentences("cutoff"));
    assert!(over > 0);
    assert!(cut["signature"].as_str().unwrap().ends_with("|sel:len≤40"));
}

/// EVALB's MAX_ERROR (10 in COLLINS.prm) is its process control, not a scoring
/// convention: on the PTB sample pair of [`ptb_sample_pair`] with a comma retagged `NN`
/// in every tenth file (a word the gold deletes and the test keeps: 19 error sentences),
/// `brackets` scores all 3,914 sentences (it once printed the summary of the sentences
/// before the 12th error), counts the error sentences, warns once with the first of
/// them and lists every one with `--errors`; `--compat evalb` still stops where EVALB
/// does (no summary, exit 1).
#[test]
fn ptb_sample_brackets_scores_every_sentence_past_max_error() {
    let Some(d) = data_dir() else { return };
    let dir = scratch("ptb-max-error");
    let (mut gold, mut test) = (String::new(), String::new());
    for k in 1..=199 {
        let (g, t) = ptb_sample_text(&d, k..=k);
        gold.push_str(&g);
        let t = if k % 10 == 0 {
            t.replacen("(, ,)", "(NN ,)", 1)
        } else {
            t
        };
        test.push_str(&t);
    }
    let (g, t) = (dir.join("gold.mrg"), dir.join("test.mrg"));
    std::fs::write(&g, &gold).unwrap();
    std::fs::write(&t, &test).unwrap();
    let v = brackets_json(&g, &t, &["--errors"]);
    let value = |m: &str| common::value(&v, "all", 0, m).unwrap();
    assert_eq!(value("sentences"), 3914.0, "every sentence is read");
    assert_eq!(value("error"), 19.0);
    assert_eq!(value("scored"), 3914.0 - 19.0);
    assert_eq!(value("missed"), 19.0);
    let f = value("F");
    assert!(f > 0.5 && f < 1.0, "{f}");
    let listing = (v["listings"].as_array().unwrap().iter())
        .find(|l| l["id"] == "error-sentences")
        .unwrap();
    assert_eq!(listing["rows"].as_array().unwrap().len(), 19);
    assert!(listing["rows"][0][2]
        .as_str()
        .unwrap()
        .starts_with("Length unmatch"));
    // one warning on stderr, naming the number and the first error sentences
    let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(["brackets", s(&g), s(&t)])
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.matches("warning: ").count(), 1, "{err}");
    assert!(
        err.contains("19 of 3914 sentences are scored as empty parses: 19 error sentence(s)"),
        "{err}"
    );
    // --compat evalb: EVALB's stop, byte for byte up to it, then exit 1
    let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(["brackets", "--compat", "evalb", s(&g), s(&t)])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("=== Summary ==="));
    assert!(String::from_utf8_lossy(&o.stderr).contains("more than MAX_ERROR 10 errors"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The n-best dev lists of shared/data/nbest: first, oracle (best) and worst counts and
/// macro averages of LAS (full and universal labels) and UAS, the candidates per
/// sentence, all equal to the independent scorer's summaries in nbest/expected.
#[test]
fn nbest_dev_lists_equal_the_expected_summaries() {
    let Some(d) = data_dir() else { return };
    let n = d.join("nbest");
    let gold = |f: &str| {
        if f.starts_with("fr_") {
            d.join("ud/UD_French-Sequoia/fr_sequoia-ud-dev.conllu")
        } else {
            d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu")
        }
    };
    let mut checked = 0;
    for model in [
        "fr_sequoia-dev.fr_sm",
        "fr_sequoia-dev.fr_md",
        "en_ewt-dev.en_sm",
    ] {
        for beam in ["localprob", "spacybeam"] {
            let name = format!("{model}.nbest-{beam}");
            let file = n.join(format!("{name}.conllu.gz"));
            let summary: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(n.join(format!("expected/{name}.summary.json"))).unwrap(),
            )
            .unwrap();
            for (labels, key, measure) in [
                ("full", "las", "LAS"),
                ("universal", "las_univ", "LAS"),
                ("full", "uas", "UAS"),
            ] {
                let v: serde_json::Value = serde_json::from_str(&treeval(&[
                    "nbest",
                    "-q",
                    "--format",
                    "json",
                    "--labels",
                    labels,
                    s(&gold(&name)),
                    s(&file),
                ]))
                .unwrap();
                let e = &summary[key];
                let words = summary["words"].as_u64().unwrap();
                // systems 0..4 = first, best, worst, chosen
                for (system, pick) in [(0, "first"), (1, "oracle"), (2, "worst")] {
                    let c = common::cell(&v, "scores", system, measure);
                    assert_eq!(
                        common::counts(c),
                        [e[pick].as_u64().unwrap(), words],
                        "{name} {key} {pick}"
                    );
                }
                for (system, pick) in [(0, "macro_first"), (1, "macro_oracle")] {
                    let got =
                        common::value(&v, "macro", system, &format!("macro-{measure}")).unwrap();
                    let want = e[pick].as_f64().unwrap();
                    assert!(
                        (100.0 * got - want).abs() < 5e-5,
                        "{name} {key} {pick}: {got} vs {want}"
                    );
                }
                checked += 1;
            }
            // candidates per sentence: keyed rows of the list itself (system 4, after
            // its four picks), named "n-best list"
            let v: serde_json::Value = serde_json::from_str(&treeval(&[
                "nbest",
                "-q",
                "--format",
                "json",
                s(&gold(&name)),
                s(&file),
            ]))
            .unwrap();
            let hist = summary["histogram"].as_object().unwrap();
            for (k, want) in hist {
                let c = common::keyed_cell(&v, "candidates", 4, k, "sentences");
                assert_eq!(v["systems"][4]["name"], "n-best list");
                assert_eq!(c["value"].as_f64(), want.as_f64(), "{name} {k} candidates");
            }
            let sentences = summary["sentences"].as_u64().unwrap();
            let total: u64 = hist.values().map(|x| x.as_u64().unwrap()).sum();
            assert_eq!(total, sentences, "{name}");
        }
    }
    assert_eq!(checked, 18);
}

/// `nbest --compat alpino` on the six dev lists prints what evaluate.pl prints for lines
/// made from the independent scorer's per-candidate counts (testdata/nbest/alpino-dev,
/// README there).
#[test]
fn nbest_compat_alpino_on_the_dev_lists_equals_evaluate_pl() {
    let Some(d) = data_dir() else { return };
    let dir = common::root().join("testdata/nbest/alpino-dev");
    let mut checked = 0;
    for model in [
        "fr_sequoia-dev.fr_sm",
        "fr_sequoia-dev.fr_md",
        "en_ewt-dev.en_sm",
    ] {
        let gold = if model.starts_with("fr_") {
            d.join("ud/UD_French-Sequoia/fr_sequoia-ud-dev.conllu")
        } else {
            d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu")
        };
        for beam in ["localprob", "spacybeam"] {
            let name = format!("{model}.nbest-{beam}");
            let file = d.join(format!("nbest/{name}.conllu.gz"));
            let want = std::fs::read_to_string(dir.join(format!("{name}.evaluate.out"))).unwrap();
            let got = treeval(&["nbest", "--compat", "alpino", s(&gold), s(&file)]);
            assert_eq!(got, want, "{name}");
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}

/// `rerank`: a model trained on the French fr_sm dev list (best-only target, σ² = 1)
/// and applied to the fr_md list of the same sentences: `treeval deps` on `rerank
/// apply`'s output gives exactly `nbest --model`'s chosen counts, first stays the
/// expected 8041, and the model's choice beats rank 1 (both lists parse the same gold,
/// so this is not a held-out figure: docs/rerank.md has those).
#[test]
fn rerank_apply_equals_nbest_model_on_real_lists() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_French-Sequoia/fr_sequoia-ud-dev.conllu");
    let sm = d.join("nbest/fr_sequoia-dev.fr_sm.nbest-localprob.conllu.gz");
    let md = d.join("nbest/fr_sequoia-dev.fr_md.nbest-localprob.conllu.gz");
    let tmp = std::env::temp_dir().join(format!("treeval-rerank-shared-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let model = tmp.join("fr_sm.json");
    let s = |p: &Path| p.to_str().unwrap().to_owned();
    let (gold, sm, md, model) = (s(&gold), s(&sm), s(&md), s(&model));
    treeval(&[
        "rerank", "train", "--target", "best", "--sigma2", "1", "-q", &gold, &sm, "-o", &model,
    ]);
    let chosen = tmp.join("chosen.conllu");
    std::fs::write(&chosen, treeval(&["rerank", "apply", &model, &md])).unwrap();
    let deps: serde_json::Value =
        serde_json::from_str(&treeval(&["deps", &gold, &s(&chosen), "--format", "json"])).unwrap();
    let nb: serde_json::Value = serde_json::from_str(&treeval(&[
        "nbest", &gold, &md, "--model", &model, "--format", "json",
    ]))
    .unwrap();
    let las = |v: &serde_json::Value, system: u64| -> Vec<u64> {
        common::counts(common::cell(v, "scores", system, "LAS"))[..2].to_vec()
    };
    let chosen_deps = las(&deps, 0);
    assert_eq!(las(&nb, 3), chosen_deps);
    assert_eq!(las(&nb, 0), vec![8041, 9999]);
    assert!(chosen_deps[0] > 8041, "{chosen_deps:?}");
    // with a test, the ranks order the tested rows (first, chosen) by the measure, and the
    // oracle picks best and worst, not tested, have no rank (JSON null)
    let tested: serde_json::Value = serde_json::from_str(&treeval(&[
        "nbest",
        &gold,
        &md,
        "--model",
        &model,
        "--test",
        "ar",
        "--samples",
        "500",
        "-q",
        "--format",
        "json",
    ]))
    .unwrap();
    let rankings = tested["rankings"].as_array().unwrap();
    assert_eq!(rankings.len(), 4, "LAS, UAS, LA, CA");
    for rk in rankings {
        let ranks = rk["ranks"].as_array().unwrap();
        assert!(ranks[1].is_null() && ranks[2].is_null(), "{rk}");
        let (first, chosen) = (ranks[0].as_u64().unwrap(), ranks[3].as_u64().unwrap());
        let m = rk["metric"].as_str().unwrap();
        let score = |i| common::counts(common::cell(&tested, "scores", i, m))[0];
        if first < chosen {
            assert!(score(0) > score(3), "{rk}");
        } else if chosen < first {
            assert!(score(3) > score(0), "{rk}");
        }
    }
    assert_eq!(rankings[0]["ranks"], serde_json::json!([2, null, null, 1]));
}

/// `brackets --where` on the PTB sample (as above): for every label and every length
/// group, `--where KEY=GROUP` has the recall, precision and F of the `--by label,length`
/// cell, under the default and with `--max-len 40`; and a length condition equals the
/// same range as a sentence selection.
#[test]
fn ptb_sample_brackets_where_equals_every_by_cell() {
    let Some(d) = data_dir() else { return };
    let (g, t) = ptb_sample_pair(&d, "ptb-where");
    let run = |extra: &[&str]| brackets_json(&g, &t, extra);
    for sel in [&[][..], &["--max-len", "40"][..]] {
        let by = run(&[&["--by", "label,length"][..], sel].concat());
        let checked =
            common::assert_bracket_where_is_by(&by, |c| run(&[&["--where", c][..], sel].concat()));
        assert!(checked > 20, "{checked} groups");
    }
    let w = run(&["--where", "length=11-20"]);
    let m = run(&["--min-len", "11", "--max-len", "20"]);
    assert_eq!(section_rows(&w, "all"), section_rows(&m, "all"));
}

/// Sharded evaluation on real data: EWT dev against spaCy's greedy parse, split into 4
/// shards at sentence boundaries, each evaluated with `--emit-state --keep-sentences`,
/// then merged: every table, matrix, note, interval and warning message equals those of
/// one run on the whole files.
#[test]
fn ewt_dev_four_shards_merge_into_the_whole_run() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu");
    let sys = d.join("nbest/en_ewt-dev.en_sm.greedy.conllu");
    let dir = std::env::temp_dir().join(format!("treeval-ewt-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let opts = [
        "--by",
        "deprel,distance",
        "--confusion",
        "--ci",
        "95",
        "--seed",
        "3",
    ];
    let split = |path: &Path, name: &str| -> Vec<PathBuf> {
        let text = std::fs::read_to_string(path).unwrap();
        let sentences: Vec<&str> = text.trim_end().split("\n\n").collect();
        let n = sentences.len().div_ceil(4);
        sentences
            .chunks(n)
            .enumerate()
            .map(|(i, c)| {
                let p = dir.join(format!("{name}.{i}.conllu"));
                std::fs::write(&p, c.join("\n\n") + "\n\n").unwrap();
                p
            })
            .collect()
    };
    let (gs, ss) = (split(&gold, "gold"), split(&sys, "sys"));
    assert_eq!(gs.len(), 4);
    let mut states = Vec::new();
    for (i, (gp, sp)) in gs.iter().zip(&ss).enumerate() {
        let state = dir.join(format!("state.{i}.json"));
        let args = [
            &[
                "deps",
                "-q",
                s(gp),
                s(sp),
                "--keep-sentences",
                "--emit-state",
                s(&state),
            ][..],
            &opts[..],
        ]
        .concat();
        treeval(&args);
        states.push(state);
    }
    let whole = json(&[&[s(&gold), s(&sys)][..], &opts[..]].concat());
    let mut args = vec![
        "merge",
        "--format",
        "json",
        "--confusion",
        "--ci",
        "95",
        "--seed",
        "3",
    ];
    args.extend(states.iter().map(|p| s(p)));
    let merged: serde_json::Value = serde_json::from_str(&treeval(&args)).unwrap();
    for key in [
        "sections",
        "matrices",
        "notes",
        "significance",
        "schema",
        "command",
    ] {
        assert_eq!(merged[key], whole[key], "`{key}` differs");
    }
    let messages = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["message"].clone())
            .collect()
    };
    assert_eq!(messages(&merged), messages(&whole));
    assert_eq!(merged["inputs"][0]["counts"], whole["inputs"][0]["counts"]);
    assert_eq!(merged["inputs"][1]["counts"], whole["inputs"][1]["counts"]);
    // the whole files' LAS as `deps` counts it: 19073 of 25147 words
    assert_eq!(
        common::counts(common::cell(&merged, "scores", 0, "LAS")),
        vec![19073, 25147]
    );
    assert!(merged["signature"].as_str().unwrap().ends_with("|merged:4"));
    // a shard given again under another name would be counted twice: refused, exit 2
    let copy = dir.join("copy-of-state.2.json");
    std::fs::copy(&states[2], &copy).unwrap();
    let mut again = vec!["merge", "--format", "json"];
    again.extend(states.iter().map(|p| s(p)));
    again.push(s(&copy));
    let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(&again)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(o.stdout.is_empty());
    let both = format!(
        "{}: expected the state of another shard, found the same state as {}",
        s(&copy),
        s(&states[2])
    );
    assert!(err.contains(&both), "{err}");
    // ud on the same shards: every table and interval equal too
    let ud_opts = ["--by", "upos", "--per-relation", "--ci", "95"];
    let mut ud_states = Vec::new();
    for (i, (gp, sp)) in gs.iter().zip(&ss).enumerate() {
        let state = dir.join(format!("ud.{i}.json"));
        let args = [
            &[
                "ud",
                "-q",
                s(gp),
                s(sp),
                "--keep-sentences",
                "--emit-state",
                s(&state),
            ][..],
            &ud_opts[..],
        ]
        .concat();
        treeval(&args);
        ud_states.push(state);
    }
    let args = [
        &["ud", "-q", "--format", "json", s(&gold), s(&sys)][..],
        &ud_opts[..],
    ]
    .concat();
    let whole: serde_json::Value = serde_json::from_str(&treeval(&args)).unwrap();
    let mut args = vec!["merge", "--format", "json", "--per-relation", "--ci", "95"];
    args.extend(ud_states.iter().map(|p| s(p)));
    let merged: serde_json::Value = serde_json::from_str(&treeval(&args)).unwrap();
    for key in ["sections", "notes", "schema", "command"] {
        assert_eq!(merged[key], whole[key], "ud: `{key}` differs");
    }
    // the same warnings, at the merged system's name: spaCy writes no enhanced graph
    assert_eq!(messages(&merged), messages(&whole));
    assert!(messages(&whole).iter().any(|m| m
        .as_str()
        .unwrap()
        .starts_with("the system DEPS column is '_' on every word")));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sharded TedEval on real data: EWT dev against spaCy's greedy parse, split into 4
/// shards at sentence boundaries, each evaluated with `ted --emit-state`, then merged:
/// the tables, notes, intervals and warnings equal those of one run on the whole files.
#[test]
fn ewt_dev_four_ted_shards_merge_into_the_whole_run() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu");
    let sys = d.join("nbest/en_ewt-dev.en_sm.greedy.conllu");
    let dir = std::env::temp_dir().join(format!("treeval-ewt-ted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let split = |path: &Path, name: &str| -> Vec<PathBuf> {
        let text = std::fs::read_to_string(path).unwrap();
        let sentences: Vec<&str> = text.trim_end().split("\n\n").collect();
        let n = sentences.len().div_ceil(4);
        sentences
            .chunks(n)
            .enumerate()
            .map(|(i, c)| {
                let p = dir.join(format!("{name}.{i}.conllu"));
                std::fs::write(&p, c.join("\n\n") + "\n\n").unwrap();
                p
            })
            .collect()
    };
    let (gs, ss) = (split(&gold, "gold"), split(&sys, "sys"));
    assert_eq!(gs.len(), 4);
    let opts = ["--ci", "95", "--ci-samples", "300", "--seed", "3"];
    let mut args = vec!["merge", "-q", "--format", "json"];
    let states: Vec<PathBuf> = (0..4).map(|i| dir.join(format!("ted.{i}.json"))).collect();
    for ((gp, sp), state) in gs.iter().zip(&ss).zip(&states) {
        let line = ["ted", "-q", "--gold", s(gp), "--parse", s(sp)];
        treeval(&[&line[..], &["--emit-state", s(state)]].concat());
        args.push(s(state));
    }
    args.extend(opts);
    let merged: serde_json::Value = serde_json::from_str(&treeval(&args)).unwrap();
    let line = [
        "ted",
        "-q",
        "--format",
        "json",
        "--gold",
        s(&gold),
        "--parse",
        s(&sys),
    ];
    let whole: serde_json::Value =
        serde_json::from_str(&treeval(&[&line[..], &opts[..]].concat())).unwrap();
    for key in ["sections", "significance", "schema", "command"] {
        assert_eq!(merged[key], whole[key], "`{key}` differs");
    }
    let messages = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        let all = v["warnings"].as_array().unwrap();
        all.iter().map(|w| w["message"].clone()).collect()
    };
    assert_eq!(messages(&merged), messages(&whole));
    // the notes name the files: the shards' joined by ` + ` stand for the whole files
    let (g, y) = (s(&gold), s(&sys));
    let joined = |p: &[PathBuf]| p.iter().map(|x| s(x)).collect::<Vec<_>>().join(" + ");
    let notes = serde_json::to_string(&merged["notes"]).unwrap();
    let notes = notes.replace(&joined(&gs), g).replace(&joined(&ss), y);
    assert_eq!(notes, serde_json::to_string(&whole["notes"]).unwrap());
    // Σδ_new 8238 of Σι 68044 and LAS 19073 of 25147 words, as one `treeval ted` run on
    // the whole files counts them
    let cell = |section, m| common::counts(common::cell(&merged, section, 0, m));
    assert_eq!(cell("scores", "TedEval"), vec![8238, 68044]);
    assert_eq!(cell("own-gold", "LAS"), vec![19073, 25147]);
    assert!(merged["signature"].as_str().unwrap().ends_with("|merged:4"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `treeval merge --format json` of the states of `shards` (each: its files) written by
/// `command` with `opts`, and one run on the `whole` files; compared whole (each input
/// named by its role), but for the merge's own signature part and convention.
fn shards_equal_whole(
    dir: &Path,
    command: &str,
    (whole, shards): (&[PathBuf], &[Vec<PathBuf>]),
    (opts, show): (&[&str], &[&str]),
) -> serde_json::Value {
    let roles = ["GOLD", "SYS-A", "SYS-B"];
    // the systems named alike in the shards and the whole run (their files' names differ)
    let names: Vec<&str> = roles[1..whole.len()]
        .iter()
        .flat_map(|r| ["--name", r])
        .collect();
    let mut states = Vec::new();
    for (i, files) in shards.iter().enumerate() {
        let state = dir.join(format!("{command}.{i}.json"));
        let mut args = vec![command, "-q", "--keep-sentences", "--emit-state", s(&state)];
        args.extend(files.iter().map(|p| s(p)));
        args.extend_from_slice(opts);
        args.extend_from_slice(&names);
        treeval(&args);
        states.push(state);
    }
    let mut args = vec![command, "-q", "--format", "json"];
    args.extend(whole.iter().map(|p| s(p)));
    args.extend_from_slice(opts);
    args.extend_from_slice(&names);
    let single = treeval(&args);
    let mut args = vec!["merge", "--format", "json"];
    args.extend(states.iter().map(|p| s(p)));
    args.extend_from_slice(show);
    let merged = treeval(&args);
    let joined = |k: usize| -> String {
        let parts: Vec<&str> = shards.iter().map(|f| s(&f[k])).collect();
        parts.join(" + ")
    };
    let merged_names: Vec<(String, &str)> =
        (0..whole.len()).map(|k| (joined(k), roles[k])).collect();
    let whole_names: Vec<(String, &str)> = (0..whole.len())
        .map(|k| (s(&whole[k]).to_owned(), roles[k]))
        .collect();
    let (m, w) = (
        common::corpus::normalised(&merged, &merged_names),
        common::corpus::normalised(&single, &whole_names),
    );
    for (key, value) in w.as_object().unwrap() {
        assert_eq!(&m[key], value, "{command}: `{key}` differs");
    }
    assert_eq!(m.as_object().unwrap().len(), w.as_object().unwrap().len());
    serde_json::from_str(&merged).unwrap()
}

/// Sharded `brackets` on real data: the PTB sample pair of [`ptb_sample_pair`] cut into 4
/// shards (its .mrg files 1-50, 51-100, 101-150, 151-199), with EVALB's new.prm
/// (peer/evalb), two test files, `--by label,length`, `--test ar` and `--ci 95`: the merge of
/// the shards' states equals one run on the whole files, every section, p-value and
/// interval.
#[test]
fn ptb_sample_four_brackets_shards_merge_into_the_whole_run() {
    let Some(d) = data_dir() else { return };
    let dir = scratch("ptb-shards");
    let prm = d.join("peer/evalb/new.prm");
    let (g, t) = ptb_sample_pair(&d, "ptb-shards");
    let t2 = dir.join("test2.mrg");
    std::fs::write(&t2, ptb_sample_text(&d, 1..=199).0.replace("(PP ", "(XP ")).unwrap();
    let mut shards = Vec::new();
    for (i, files) in [1..=50, 51..=100, 101..=150, 151..=199]
        .into_iter()
        .enumerate()
    {
        let (gold, test) = ptb_sample_text(&d, files.clone());
        let paths: Vec<PathBuf> = ["g", "t", "u"]
            .iter()
            .map(|n| dir.join(format!("{n}.{i}.mrg")))
            .collect();
        std::fs::write(&paths[0], gold.as_str()).unwrap();
        std::fs::write(&paths[1], test).unwrap();
        std::fs::write(&paths[2], gold.replace("(PP ", "(XP ")).unwrap();
        shards.push(paths);
    }
    let tests = [
        "--test",
        "ar",
        "--ci",
        "95",
        "--samples",
        "300",
        "--seed",
        "11",
    ];
    let opts = [&["--prm", s(&prm), "--by", "label,length"][..], &tests[..]].concat();
    let m = shards_equal_whole(&dir, "brackets", (&[g, t, t2], &shards), (&opts, &tests));
    // the whole sample: its 3,914 trees
    assert_eq!(m["inputs"][0]["counts"]["trees"], 3914);
    assert!(m["signature"].as_str().unwrap().ends_with("|merged:4"));
    assert!(!m["comparisons"].as_array().unwrap().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sharded `align` on real data: WPT 2003 en-fr's test gold (NAACL) and its two published
/// alignments (Pharaoh) cut into 4 shards (sentences 1-100, 101-230, 231-300, 301-447; each
/// shard's gold numbered from 1, as its Pharaoh lines are), with `--test bootstrap` and
/// `--ci 95`: the merge equals one run on the whole files, and keeps its counts (6,069
/// links, 3,751 of 4,038 sure links found: align/README.md).
#[test]
fn wpt03_four_align_shards_merge_into_the_whole_run() {
    let Some(d) = data_dir() else { return };
    let dir = scratch("wpt-shards");
    let w = d.join("align/wpt03-enfr");
    let p = w.join("published-systems");
    let whole = [
        w.join("test.wa.nonullalign"),
        p.join("test.enfr.talp"),
        p.join("test.enfr.grow-diagonal-final.talp"),
    ];
    let text: Vec<String> = whole
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let cuts = [0, 100, 230, 300, 447];
    let mut shards = Vec::new();
    for (i, b) in cuts.windows(2).enumerate() {
        let gold: String = (text[0].lines())
            .filter_map(|l| {
                let (n, rest) = l.split_once(' ')?;
                let n: usize = n.parse().ok()?;
                (b[0] < n && n <= b[1]).then(|| format!("{:04} {rest}\n", n - b[0]))
            })
            .collect();
        let paths: Vec<PathBuf> = ["g", "a", "b"]
            .iter()
            .map(|n| dir.join(format!("{n}.{i}.wa")))
            .collect();
        std::fs::write(&paths[0], gold).unwrap();
        for k in 1..3 {
            let lines: Vec<&str> = text[k].lines().skip(b[0]).take(b[1] - b[0]).collect();
            std::fs::write(&paths[k], lines.join("\n") + "\n").unwrap();
        }
        shards.push(paths);
    }
    let tests = [
        "--test",
        "bootstrap",
        "--ci",
        "95",
        "--samples",
        "300",
        "--seed",
        "4",
    ];
    let m = shards_equal_whole(&dir, "align", (&whole, &shards), (&tests, &tests));
    let a = &m["inputs"][1]["counts"];
    assert_eq!(
        (a["a"].as_u64(), a["a_and_s"].as_u64(), a["s"].as_u64()),
        (Some(6069), Some(3751), Some(4038))
    );
    assert_eq!(m["inputs"][0]["counts"]["sentences"], 447);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Warnings grouped by kind on real data: spaCy's parse of EWT dev with a doubled blank
/// line after each of its first 149 sentences. Every kind is kept (the doubled blank
/// lines once, with their count 149 and first positions; the label-subtype warning,
/// which came after 100 others, too) on stderr and in the JSON, consistently with the
/// signature's `warn:` part.
#[test]
fn ewt_dev_repeated_warnings_are_grouped_and_none_is_lost() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu");
    let text = std::fs::read_to_string(d.join("nbest/en_ewt-dev.en_sm.greedy.conllu")).unwrap();
    let parts: Vec<&str> = text.split("\n\n").collect();
    let doubled: Vec<String> = (parts.iter().enumerate())
        .map(|(i, p)| {
            if i < 149 {
                format!("{p}\n")
            } else {
                (*p).to_owned()
            }
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("treeval-grouped-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sys = dir.join("doubled.conllu");
    std::fs::write(&sys, doubled.join("\n\n")).unwrap();
    let (g, s) = (gold.to_str().unwrap(), sys.to_str().unwrap());
    let o = common::treeval(&["deps", g, s, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let err = common::stderr(&o);
    assert_eq!(err.matches("found another blank line").count(), 1, "{err}");
    assert!(err.contains("149 warnings of this kind (at "), "{err}");
    assert!(err.contains("label subtypes in one file only"), "{err}");
    assert!(!err.contains("not shown"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let ws = v["warnings"].as_array().unwrap();
    let blank = ws
        .iter()
        .find(|w| {
            w["message"]
                .as_str()
                .unwrap()
                .contains("another blank line")
        })
        .unwrap();
    assert_eq!(blank["count"], 149);
    assert_eq!(blank["positions"].as_array().unwrap().len(), 5);
    assert!(ws.iter().any(|w| w["message"]
        .as_str()
        .unwrap()
        .starts_with("label subtypes in one file only")));
    let sig = v["signature"].as_str().unwrap();
    let warn = sig
        .split('|')
        .find(|p| p.starts_with("warn:"))
        .unwrap_or_default();
    assert!(warn.contains("subtypes"), "{sig}");
    assert_eq!(
        ws.iter().map(|w| w["count"].as_u64().unwrap()).sum::<u64>(),
        150
    );
    // the text report counts every warning
    let t = common::treeval(&["deps", "-q", g, s]);
    assert!(
        common::stdout(&t).contains("\n150 warning(s); see stderr"),
        "{}",
        common::stdout(&t)
    );
}

/// `path` with every position of every Pharaoh link one higher (a 0-based file written
/// 1-based).
fn pharaoh_plus_one(text: &str) -> String {
    let shift = |t: &str| {
        let (a, b) = t.split_once('-').unwrap();
        format!(
            "{}-{}",
            a.parse::<u32>().unwrap() + 1,
            b.parse::<u32>().unwrap() + 1
        )
    };
    text.lines()
        .map(|l| {
            l.split_whitespace()
                .map(shift)
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect()
}

/// `treeval args…`: exit code, stdout, stderr.
fn run_all(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

/// `align` without `--tokens` on the WPT 2003 test set: the published 0-based systems get
/// no index-base warning; the TALP system written 1-based (AER 45.77 instead of 7.99)
/// and written as NAACL from 0 (read 1-based: every position one lower) are warned about
/// with the AER the other base gives; with that base they score as the published file;
/// `--compat aer.py` prints the script's line unchanged (the warning is on stderr).
#[test]
fn wpt03_align_without_tokens_warns_of_a_base_one_off() {
    let Some(d) = data_dir() else { return };
    let w = d.join("align/wpt03-enfr");
    let gold = w.join("test.wa.nonullalign");
    let talp_path = w.join("published-systems/test.enfr.talp");
    let gdf = w.join("published-systems/test.enfr.grow-diagonal-final.talp");
    let talp = std::fs::read_to_string(&talp_path).unwrap();
    let dir = scratch("wpt03-base");
    let one = dir.join("talp.1based");
    std::fs::write(&one, pharaoh_plus_one(&talp)).unwrap();
    let naacl0 = dir.join("talp.naacl0");
    let mut text = String::new();
    for (k, line) in talp.lines().enumerate() {
        for t in line.split_whitespace() {
            let (a, b) = t.split_once('-').unwrap();
            text.push_str(&format!("{:04} {a} {b}\n", k + 1));
        }
    }
    std::fs::write(&naacl0, text).unwrap();
    let json = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["align", "-q", "--format", "json", s(&gold)];
        args.extend_from_slice(extra);
        serde_json::from_str(&treeval(&args)).unwrap()
    };
    let base_warnings = |v: &serde_json::Value| -> Vec<String> {
        (v["warnings"].as_array().unwrap().iter())
            .map(|w| format!("{} | {}", w["message"], w["hint"]))
            .filter(|m| m.contains("INDEX BASE"))
            .collect()
    };
    let published = json(&[s(&talp_path), s(&gdf)]);
    assert_eq!(base_warnings(&published), Vec::<String>::new());
    let aer = |v: &serde_json::Value, k: u64| common::value(v, "scores", k, "AER").unwrap();
    let shifted = json(&[s(&talp_path), s(&one), s(&naacl0)]);
    let warned = base_warnings(&shifted);
    assert_eq!(warned.len(), 2, "{warned:?}");
    assert_eq!(format!("{:.4}", aer(&shifted, 1)), "0.4577");
    assert!(
        warned[0].contains("look one higher")
            && warned[0].contains("its AER is 0.4577, with --hyp-base 1 it would be 0.0799"),
        "{}",
        warned[0]
    );
    assert!(
        warned[1].contains("look one lower")
            && warned[1].contains("--hyp-base 0 it would be 0.0799"),
        "{}",
        warned[1]
    );
    // with the base the warning names, the published scores and no warning
    for (file, base) in [(&one, "1"), (&naacl0, "0")] {
        let v = json(&["--hyp-base", base, s(file)]);
        assert_eq!(format!("{:.6}", aer(&v, 0)), "0.079945");
        assert_eq!(base_warnings(&v), Vec::<String>::new());
    }
    let (code, out, err) = run_all(&["align", "--compat", "aer.py", s(&gold), s(&one)]);
    assert_eq!(code, 0);
    assert_eq!(out, format!("{}: 45.8% (58.3%/48.1%/6069)\n", s(&one)));
    assert!(err.contains("WRONG INDEX BASE?"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pts` on the WPT 2003 test set as a parallel treebank (each side's words from test.e
/// and test.f, parsed as a chain, the same parse as gold and system): the TALP alignment
/// scores AER 0.079945 as `align` does; written 1-based, every link past the last word of
/// its sentence is an error (exit 1, nothing on stdout) naming the base that fits and the
/// AER it gives, the first ten in full with `path:line:column` and the rest counted;
/// with `--hyp-base 1` it scores as the 0-based file.
#[test]
fn wpt03_pts_links_past_the_end_are_errors() {
    let Some(d) = data_dir() else { return };
    let w = d.join("align/wpt03-enfr");
    let dir = scratch("wpt03-pts");
    let mut words: Vec<Vec<usize>> = Vec::new();
    for (side, name) in [("e", "en"), ("f", "fr")] {
        let text = std::fs::read_to_string(w.join(format!("test.{side}"))).unwrap();
        let mut conllu = String::new();
        let mut counts = Vec::new();
        for line in text.lines() {
            let forms: Vec<&str> = line.split_whitespace().collect();
            for (i, f) in forms.iter().enumerate() {
                let (head, rel) = if i == 0 { (0, "root") } else { (i, "dep") };
                conllu.push_str(&format!(
                    "{}\t{f}\t_\tX\t_\t_\t{head}\t{rel}\t_\t_\n",
                    i + 1
                ));
            }
            conllu.push('\n');
            counts.push(forms.len());
        }
        std::fs::write(dir.join(format!("{name}.conllu")), conllu).unwrap();
        words.push(counts);
    }
    let talp_path = w.join("published-systems/test.enfr.talp");
    let talp = std::fs::read_to_string(&talp_path).unwrap();
    let one = dir.join("talp.1based");
    std::fs::write(&one, pharaoh_plus_one(&talp)).unwrap();
    // the links the 1-based file has past a sentence's last word, counted here
    let past: Vec<(usize, usize)> = (talp.lines().enumerate())
        .flat_map(|(k, l)| l.split_whitespace().map(move |t| (k, t)))
        .filter_map(|(k, t)| {
            let (a, b) = t.split_once('-').unwrap();
            let (a, b) = (a.parse::<usize>().unwrap(), b.parse::<usize>().unwrap());
            (a + 1 >= words[0][k] || b + 1 >= words[1][k]).then_some((k, a))
        })
        .collect();
    assert!(past.len() > 10);
    let en = dir.join("en.conllu");
    let fr = dir.join("fr.conllu");
    let gold = w.join("test.wa.nonullalign");
    let args = |sys: &Path| {
        [
            "pts",
            "-q",
            "--format",
            "json",
            "--gold-a",
            s(&en),
            "--gold-b",
            s(&fr),
            "--gold-align",
            s(&gold),
            "--sys-a",
            s(&en),
            "--sys-b",
            s(&fr),
        ]
        .into_iter()
        .map(str::to_owned)
        .chain(["--sys-align".to_owned(), s(sys).to_owned()])
        .collect::<Vec<String>>()
    };
    let aer = |args: &[String]| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let v: serde_json::Value = serde_json::from_str(&treeval(&a)).unwrap();
        format!("{:.6}", common::value(&v, "scores", 0, "AER").unwrap())
    };
    assert_eq!(aer(&args(&talp_path)), "0.079945");
    let mut with_base = args(&one);
    with_base.extend(["--hyp-base".to_owned(), "1".to_owned()]);
    assert_eq!(aer(&with_base), "0.079945");
    let a = args(&one);
    let (code, out, err) = run_all(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    let sentences = past
        .iter()
        .map(|p| p.0)
        .collect::<std::collections::BTreeSet<_>>();
    let summary = format!(
        "WRONG INDEX BASE? {} link(s) point past the last word of their sentence when read 0-based, none when read 1-based: the file is likely 1-based; they are in {} of the 447 sentence pairs",
        past.len(),
        sentences.len()
    );
    assert!(err.contains(&summary), "{err}");
    assert!(
        err.contains("hint: with --hyp-base 1 the AER would be 0.0799"),
        "{err}"
    );
    let listed: Vec<&str> = (err.lines())
        .filter(|l| l.contains("expected positions below"))
        .collect();
    assert_eq!(listed.len(), 10, "{err}");
    let first = past[0].0;
    assert!(
        listed[0].starts_with(&format!("error: {}:{}:", s(&one), first + 1)),
        "{}",
        listed[0]
    );
    assert!(
        err.contains(&format!(
            "… and {} more link(s) of {}",
            past.len() - 10,
            s(&one)
        )),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// treeval's stdout and stderr, asserting it succeeded.
fn treeval_with_stderr(args: &[&str]) -> (String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(args)
        .output()
        .expect("run treeval");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "treeval {args:?} failed:\n{err}");
    (String::from_utf8(o.stdout).unwrap(), err)
}

/// A CoNLL-U text as spaCy writes it: DEPS `_` on every word, no empty nodes.
fn blank_deps(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() == 10 && !line.starts_with('#') {
            if cols[0].contains('.') {
                continue;
            }
            if !cols[0].contains('-') {
                let mut c = cols.clone();
                c[8] = "_";
                out.push_str(&c.join("\t"));
                out.push('\n');
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// EWT dev against itself with the DEPS column blanked (a parser without enhanced graph,
/// as spaCy): ELAS and EULAS n/a (JSON null, counts kept) with a warning that names DEPS
/// and the file, never 0.00; the gold itself as a second system keeps its 100.00 (the
/// rule is per system); --compat udeval still prints the script's 0.00; relations on the
/// enhanced graph likewise n/a. Aligned accuracy with a zero denominator (Tokens) is `n/a`
/// alone in the text.
#[test]
fn ewt_system_without_enhanced_graph_is_not_applicable() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu");
    let dir = scratch("nodeps");
    let sys = dir.join("spacy-like.conllu");
    std::fs::write(&sys, blank_deps(&std::fs::read_to_string(&gold).unwrap())).unwrap();
    let (g, y) = (s(&gold), s(&sys));
    let (out, err) = treeval_with_stderr(&["ud", "--format", "json", g, y, g]);
    let want = format!("warning: {y}: the system DEPS column is '_' on every word (no enhanced graph): ELAS, EULAS not applicable (n/a)");
    assert!(err.contains(&want), "{err}");
    assert_eq!(err.matches("DEPS column").count(), 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["sections"][0]["rows"].as_array().unwrap();
    let row = |system: u64, key: &str| {
        rows.iter()
            .find(|r| r["system"] == system && r["key"] == key)
            .unwrap()
            .clone()
    };
    for key in ["ELAS", "EULAS"] {
        let r = row(0, key);
        let cells = r["cells"].as_array().unwrap();
        assert!(cells.iter().all(|c| c["value"].is_null()), "{r}");
        // the counts say why: nothing from the system, every gold item missed
        let recall = &cells[1]["counts"];
        assert_eq!(recall[0], 0, "{r}");
        assert!(recall[1].as_u64().unwrap() > 25_000, "{r}");
        // the gold as a system keeps its score
        assert_eq!(row(1, key)["cells"][2]["value"], 1.0);
    }
    assert_eq!(row(0, "LAS")["cells"][2]["value"], 1.0);
    assert!(v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["position"] == y && w["message"].as_str().unwrap().contains("DEPS")));
    // text: n/a, and aligned accuracy with a zero denominator alone (JSON keeps 24787/0);
    // --wide: every measure of every metric
    let (text, _) = treeval_with_stderr(&["ud", "-q", "--wide", g, y]);
    for key in ["ELAS", "EULAS"] {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(key))
            .unwrap();
        let cells: Vec<&str> = line.split_whitespace().skip(2).collect();
        assert_eq!(cells, ["n/a"; 4], "{line}");
    }
    let tokens = text
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("Tokens"))
        .unwrap();
    assert!(tokens.ends_with(" n/a"), "{tokens}");
    assert_eq!(
        row(0, "Tokens")["cells"][3]["counts"],
        serde_json::json!([24787, 0])
    );
    // the reference scorer's own output is unchanged
    let compat = treeval(&["ud", "-q", "--compat", "udeval", g, y]);
    assert!(
        compat.ends_with("ELAS F1 Score: 0.00\nEULAS F1 Score: 0.00\n"),
        "{compat}"
    );
    // relations on the enhanced graph: n/a with the counts, and the warning
    let (rel, err) =
        treeval_with_stderr(&["relations", "--graph", "enhanced", "--format", "json", g, y]);
    assert!(
        err.contains(&format!(
            "warning: {y}: the system DEPS column is '_' on every word"
        )),
        "{err}"
    );
    let r: serde_json::Value = serde_json::from_str(&rel).unwrap();
    for c in r["sections"][0]["rows"][0]["cells"].as_array().unwrap() {
        match c["measure"].as_str().unwrap() {
            "Ds" | "both" => assert_eq!(c["value"].as_f64(), Some(0.0), "{c}"),
            "Dt" => assert!(c["value"].as_f64().unwrap() > 25_000.0, "{c}"),
            _ => assert!(c["value"].is_null(), "{c}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--punct ptb` on EWT dev (PTB tags in XPOS) against a system whose every tenth word
/// and every word tagged `,` has the label `dep`: the words scored and the LAS counts
/// equal a count made here from the gold file (words whose gold XPOS is none of
/// `` '' . , :), and the same set written as `--punct xpos=LIST` (the comma as `\,`)
/// scores the same words.
#[test]
fn ewt_ptb_punctuation_policy_counts_the_words_a_paper_would() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu");
    let text = std::fs::read_to_string(&gold).unwrap();
    let ptb = ["``", "''", ".", ",", ":"];
    let (mut sys, mut words, mut scored, mut wrong) = (String::new(), 0u64, 0u64, 0u64);
    for line in text.lines() {
        let mut c: Vec<&str> = line.split('\t').collect();
        let word = c.len() == 10 && c[0].bytes().all(|b| b.is_ascii_digit());
        if word {
            words += 1;
            let perturbed = words % 10 == 0 || c[4] == ",";
            let punct = ptb.contains(&c[4]);
            scored += u64::from(!punct);
            if perturbed {
                wrong += u64::from(!punct && c[7] != "dep");
                c[7] = "dep";
            }
        }
        sys.push_str(&c.join("\t"));
        sys.push('\n');
    }
    assert_eq!(words, 25147);
    let dir = scratch("ptb");
    let s_path = dir.join("sys.conllu");
    std::fs::write(&s_path, sys).unwrap();
    let counts = |policy: &str| {
        let v = json(&["--punct", policy, s(&gold), s(&s_path)]);
        let cell = |m: &str| {
            v["sections"][0]["rows"][0]["cells"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["measure"] == m)
                .unwrap()["counts"]
                .clone()
        };
        (
            cell("LAS"),
            cell("UAS"),
            v["signature"].as_str().unwrap().to_owned(),
        )
    };
    let (las, uas, sig) = counts("ptb");
    assert_eq!(las, serde_json::json!([scored - wrong, scored]), "{sig}");
    assert_eq!(uas, serde_json::json!([scored, scored]));
    assert!(sig.contains("|punct:ptb|"), "{sig}");
    // about 2,900 words are PTB punctuation in EWT dev
    assert!((25147 - 3500..25147 - 2000).contains(&scored), "{scored}");
    let (las2, uas2, sig2) = counts(r"xpos=``,'',.,\,,:");
    assert_eq!((las2, uas2), (las, uas));
    assert!(sig2.contains(r"|punct:xpos=``,'',.,\,,:|"), "{sig2}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// EWT dev with other `# sent_id`s: every hundredth renamed (20 of 2001), or every one
/// renumbered (`s1`, `s2`, …, none agrees). Every command that pairs sentences without
/// reading their ids warns once, with the count and the first pair: deps, pts (through
/// deps' pairing), ted on CoNLL-U (its first 100 sentences: every tenth renamed) by
/// position, ud and relations by the character a sentence starts at; the scores are
/// those of the unchanged file. The gold against itself gives no such warning.
#[test]
fn ewt_sent_id_disagreement_is_warned_once_with_the_first_pair() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu");
    let text = std::fs::read_to_string(&gold).unwrap();
    let dir = scratch("sent-ids");
    let rewrite = |name: &str, keep: usize, every: usize, new: &dyn Fn(usize) -> String| {
        let (mut out, mut n) = (String::new(), 0);
        for block in text.trim_end().split("\n\n").take(keep) {
            for line in block.lines() {
                if line.starts_with("# sent_id = ") {
                    n += 1;
                    if n % every == 0 {
                        out.push_str(&format!("# sent_id = {}\n", new(n)));
                        continue;
                    }
                }
                out.push_str(line);
                out.push('\n');
            }
            out.push('\n');
        }
        let p = dir.join(name);
        std::fs::write(&p, out).unwrap();
        p
    };
    let renamed = rewrite("renamed.conllu", usize::MAX, 100, &|n| format!("other-{n}"));
    let renumbered = rewrite("renumbered.conllu", usize::MAX, 1, &|n| format!("s{n}"));
    let (g, r, n) = (s(&gold), s(&renamed), s(&renumbered));
    let count = |err: &str| err.matches("`# sent_id`").count();
    let first = "gold 'weblog-blogspot.com_thelameduck_20041119192207_ENG_20041119_192207-0018'";
    let las = |args: &[&str]| {
        let (out, err) = treeval_with_stderr(args);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        (v, err)
    };
    // deps: by position
    let (v, err) = las(&["deps", "--format", "json", g, r]);
    assert_eq!(count(&err), 1, "{err}");
    let want = format!("warning: {r}:2652:1: 20 of 2001 paired sentences with ids have a `# sent_id` other than their gold sentence's; the first: {first} ({g}:2652) and system 'other-100' ({r}:2652) (sentences are paired by position, not by sent_id)");
    assert!(err.contains(&want), "{err}");
    assert_eq!(v["sections"][0]["rows"][0]["cells"][0]["value"], 1.0);
    assert!(v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["position"] == format!("{r}:2652:1")));
    let (_, err) = treeval_with_stderr(&["deps", g, n]);
    assert_eq!(count(&err), 1, "{err}");
    assert!(err.contains("no system sentence has the `# sent_id` of the gold sentence it is paired with (2001 pairs with ids; the first: gold 'weblog-blogspot.com_nominations_20041117172713_ENG_20041117_172713-0001'"), "{err}");
    assert!(err.contains("and system 's1'"), "{err}");
    assert!(
        err.contains("sentences are paired by position, not by sent_id"),
        "{err}"
    );
    let (_, err) = treeval_with_stderr(&["deps", g, g]);
    assert_eq!(count(&err), 0, "{err}");
    // ud and relations: by where sentences start in the text
    for cmd in ["ud", "relations"] {
        let (_, err) = treeval_with_stderr(&[cmd, g, r]);
        assert_eq!(count(&err), 1, "{cmd}: {err}");
        assert!(err.contains(&format!("warning: {r}:2654:1: 20 of 2001 paired sentences with ids have a `# sent_id` other than their gold sentence's; the first: {first}")), "{cmd}: {err}");
        assert!(
            err.contains(
                "(sentences are paired by the character they start at in the text, not by sent_id)"
            ),
            "{cmd}: {err}"
        );
        let (_, err) = treeval_with_stderr(&[cmd, g, n]);
        assert!(err.contains("no system sentence has the `# sent_id` of the gold sentence it is paired with (2001 pairs with ids"), "{cmd}: {err}");
        let (_, err) = treeval_with_stderr(&[cmd, g, g]);
        assert_eq!(count(&err), 0, "{cmd}: {err}");
    }
    // ted on CoNLL-U: the first 100 sentences, every tenth renamed
    let small = rewrite("small.conllu", 100, usize::MAX, &|n| n.to_string());
    let small_renamed = rewrite("small-renamed.conllu", 100, 10, &|n| format!("other-{n}"));
    let (_, err) = treeval_with_stderr(&["ted", "--gold", s(&small), "--parse", s(&small_renamed)]);
    assert_eq!(count(&err), 1, "{err}");
    assert!(err.contains("10 of 100 paired sentences with ids have a `# sent_id` other than their gold sentence's"), "{err}");
    assert!(err.contains("and system 'other-10'"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--per-sentence` on real parser output (EWT dev against spaCy's greedy parse and
/// against itself; EVALB's sample with its error sentences; WPT 2003 against a published
/// alignment): every line satisfies the JSON Schema of docs/json-schema.md, the records
/// cover every gold unit of every system, their `counts` are the family's columns, and
/// they sum to the report's counts.
#[test]
fn per_sentence_records_on_real_outputs() {
    use common::schema::{check_per_sentence_file, sums_equal_the_report, Expect};
    use treeval_metrics::align::AlignCounts;
    use treeval_metrics::brackets::BracketCounts;
    use treeval_metrics::measure::Statistics;
    use treeval_metrics::relations::RelationSetCounts;
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu");
    let sys = d.join("nbest/en_ewt-dev.en_sm.greedy.conllu");
    let (g, sy) = (s(&gold), s(&sys));
    let evalb = d.join("reference/evalb-sample");
    let wpt = d.join("align/wpt03-enfr");
    let (wg, wh) = (
        wpt.join("test.wa.nonullalign"),
        wpt.join("published-systems/test.enfr.talp"),
    );
    let (prm, eg, et) = (
        evalb.join("sample.prm"),
        evalb.join("sample.gld"),
        evalb.join("sample.tst"),
    );
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    let trees = read(&eg).lines().filter(|l| !l.trim().is_empty()).count() as u64;
    let pairs = read(&wg)
        .lines()
        .filter_map(|l| l.split_whitespace().next()?.parse::<u64>().ok())
        .max()
        .unwrap();
    let expect = |command, units, systems, columns| Expect {
        command,
        units,
        systems,
        columns,
    };
    let (prm, eg, et, wg, wh) = (s(&prm), s(&eg), s(&et), s(&wg), s(&wh));
    let cases = [
        (
            vec![g, sy, g],
            expect(
                "deps",
                2001,
                2,
                treeval_metrics::AttachmentCounts::columns(),
            ),
        ),
        (
            vec![g, sy],
            expect("ud", 2001, 1, treeval_metrics::ud::UdCounts::columns()),
        ),
        (
            vec![g, sy],
            expect("relations", 2001, 1, RelationSetCounts::columns()),
        ),
        (
            vec!["--prm", prm, eg, et],
            expect("brackets", trees, 1, BracketCounts::columns()),
        ),
        (
            vec![wg, wh],
            expect("align", pairs, 1, AlignCounts::columns()),
        ),
    ];
    let dir = scratch("per-sentence-records");
    let file = dir.join("records.jsonl");
    for (inputs, e) in cases {
        let command = e.command;
        let mut args = vec![
            command,
            "-q",
            "--format",
            "json",
            "--per-sentence",
            s(&file),
        ];
        args.extend(&inputs);
        let report: serde_json::Value = serde_json::from_str(&treeval(&args)).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        let records = check_per_sentence_file(&text, &e);
        assert_eq!(
            records.len() as u64,
            e.units * e.systems,
            "{command}: a record per unit and system"
        );
        assert!(
            sums_equal_the_report(&report, &records, command) > 0,
            "{command}"
        );
        if command == "brackets" {
            let errors = records.iter().filter(|r| r["status"] == "error").count();
            assert!(errors > 0, "EVALB's sample has error sentences");
            assert!(records
                .iter()
                .all(|r| (r["status"] == "ok") == r["message"].is_null()));
        }
        if command != "brackets" && command != "align" {
            assert!(
                records.iter().all(|r| r["sent_id"].is_string()),
                "{command}: EWT's ids"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The library (`treeval::brackets`) on the PTB sample's trees (.mrg, 200 files) held in
/// memory gives the command's report on the same files, section for section; the gold
/// against itself matches every bracket and tag, and relabelling `(NP ` as `(XP ` keeps
/// the test brackets' number and loses matches only.
#[test]
fn ptb_sample_brackets_in_memory_equal_the_command() {
    let Some(d) = data_dir() else { return };
    let dir = d.join("ptb-sample/treebank/combined");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mrg"))
        .collect();
    files.sort();
    let gold: String = files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let test = gold.replace("(NP ", "(XP ");
    let out = scratch("ptb-brackets-lib");
    let (g, t) = (out.join("gold.mrg"), out.join("test.mrg"));
    std::fs::write(&g, &gold).unwrap();
    std::fs::write(&t, &test).unwrap();
    let cli: serde_json::Value = serde_json::from_str(&treeval(&[
        "brackets",
        "-q",
        "--format",
        "json",
        s(&g),
        s(&t),
    ]))
    .unwrap();
    let memory = treeval::Inputs {
        gold: treeval::Input::memory("<input 1>", gold.clone().into_bytes()),
        systems: vec![
            treeval::Input::memory("<input 2>", test.into_bytes()),
            treeval::Input::memory("<input 3>", gold.into_bytes()),
        ],
    };
    let options = treeval::brackets::Options::default();
    let ev = treeval::brackets::evaluate(&options, &memory, &treeval::Common::default()).unwrap();
    let _ = std::fs::remove_dir_all(&out);
    let lib = serde_json::to_value(&ev.report).unwrap();
    let rows = |v: &serde_json::Value, system: u64| -> Vec<serde_json::Value> {
        (v["sections"].as_array().unwrap().iter())
            .flat_map(|s| s["rows"].as_array().unwrap().clone())
            .filter(|r| r["system"] == system)
            .collect()
    };
    assert_eq!(
        rows(&lib, 0),
        rows(&cli, 0),
        "library in memory = command on files"
    );
    let cell = |m: &str, system| ev.report.cell(m, system).unwrap().counts.clone();
    let (same, relabelled) = (cell("recall", 1), cell("recall", 0));
    assert_eq!(same[0], same[1], "the gold matches itself: {same:?}");
    assert!(same[1] > 3_000.0, "the sample's gold brackets: {same:?}");
    assert_eq!(cell("precision", 1), same);
    assert_eq!(cell("tagging", 1)[0], cell("tagging", 1)[1]);
    assert_eq!(relabelled[1], same[1]);
    assert_eq!(cell("precision", 0)[1], same[1], "as many test brackets");
    assert!(relabelled[0] < same[0], "the NP brackets no longer match");
    // the one warning: the gold given as a system (the same text) scores 100 against itself
    let kinds: Vec<_> = ev
        .warnings()
        .iter()
        .map(|w| (w.kind, w.position.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [(treeval::WarningKind::SystemIsGold, "<input 3>")],
        "{:?}",
        ev.warnings()
    );
}

/// One warnings path on EWT dev: the file in CR LF given as gold and as system is one
/// `crlf_line_endings` warning (it printed "2 warnings of this kind (at 1:1, 1:1)"); a
/// system with every 200th sentence removed, under `--align resync`, is one
/// `tokenization_resync` warning counting its windows, at their system lines, in the JSON
/// and on stderr (with `--compat conll18` too: the script's three lines stay alone on
/// stdout).
#[test]
fn ewt_dev_warnings_have_kinds_and_resync_windows_are_warnings() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_English-EWT/en_ewt-ud-dev.conllu");
    let text = std::fs::read_to_string(&gold).unwrap();
    let dir = scratch("ewt-warnkind");
    let crlf = dir.join("dev-crlf.conllu");
    std::fs::write(&crlf, text.replace('\n', "\r\n")).unwrap();
    let short = dir.join("dev-short.conllu");
    let kept: Vec<&str> = (text.split("\n\n").enumerate())
        .filter(|(k, _)| k % 200 != 199)
        .map(|(_, s)| s)
        .collect();
    std::fs::write(&short, kept.join("\n\n")).unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_owned();
    let (c, g, sh) = (s(&crlf), s(&gold), s(&short));
    for cmd in ["deps", "ud", "relations"] {
        let (code, out, err) = run_all(&[cmd, "--format", "json", &c, &c]);
        assert_eq!(code, 0, "{cmd}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let w: Vec<&serde_json::Value> = (v["warnings"].as_array().unwrap().iter())
            .filter(|w| w["kind"] == "crlf_line_endings")
            .collect();
        assert_eq!(w.len(), 1, "{cmd}: {v}");
        assert_eq!(w[0]["count"], 1, "{cmd}: {}", w[0]);
        assert_eq!(err.matches("found CR LF").count(), 1, "{cmd}: {err}");
        assert!(!err.contains("1:1, 1:1"), "{cmd}: {err}");
    }
    let (code, out, err) = run_all(&["ud", "--align", "resync", "--format", "json", &g, &sh]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let windows = v["inputs"][1]["counts"]["resync"].as_array().unwrap();
    assert_eq!(windows.len(), 10, "2001 sentences, every 200th removed");
    let w: Vec<&serde_json::Value> = (v["warnings"].as_array().unwrap().iter())
        .filter(|w| w["kind"] == "tokenization_resync")
        .collect();
    assert_eq!(w.len(), 1, "{v}");
    assert_eq!(w[0]["count"], 10);
    let first = windows[0]["system"]["first_line"].as_u64().unwrap();
    assert_eq!(w[0]["position"], format!("{sh}:{first}"));
    assert_eq!(w[0]["positions"].as_array().unwrap().len(), 5);
    assert!(
        err.contains("the texts of gold and system differ in 10 mismatch windows"),
        "{err}"
    );
    let (code, out, err) = run_all(&["ud", "--align", "resync", "--compat", "conll18", &g, &sh]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(err.contains("  10 warnings of this kind (at "), "{err}");
    assert!(!err.contains("[1]"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Default text fits in 100 columns on real runs (issue 30): two spaCy parsers of Sequoia
/// dev (deps with a breakdown and intervals, ud, relations) and EVALB's sample given twice
/// (brackets). A longer line is the signature, or one input path alone (after its label,
/// `gold:` or `system NAME:`).
#[test]
fn real_reports_fit_in_100_columns() {
    let Some(d) = data_dir() else { return };
    let gold = d.join("ud/UD_French-Sequoia/fr_sequoia-ud-dev.conllu");
    let md = d.join("nbest/fr_sequoia-dev.fr_md.greedy.conllu");
    let sm = d.join("nbest/fr_sequoia-dev.fr_sm.greedy.conllu");
    let e = d.join("reference/evalb-sample");
    let (eg, et) = (e.join("sample.gld"), e.join("sample.tst"));
    let (g, a, b) = (s(&gold), s(&md), s(&sm));
    let ci = ["--ci", "95", "--ci-samples", "200"];
    let runs: Vec<Vec<&str>> = vec![
        [&["deps", "-q", "--by", "deprel", g, a, b][..], &ci].concat(),
        [&["ud", "-q", g, a, b][..], &ci].concat(),
        vec!["relations", "-q", g, a, b],
        vec!["brackets", "-q", s(&eg), s(&et), s(&et)],
    ];
    for args in runs {
        let text = treeval(&args);
        let wide = treeval(&[&args[..], &["--wide"]].concat());
        assert!(text.lines().count() > 10, "{text}");
        for (i, line) in text.lines().enumerate() {
            let words: Vec<&str> = line.split_whitespace().collect();
            // `gold: PATH`, `system NAME: PATH`: an input's path after its label
            let one_path = match words.as_slice() {
                [p] | [_, p] | [_, _, p] | [_, _, _, p] => p.starts_with('/'),
                _ => false,
            };
            assert!(
                line.chars().count() <= 100 || i == 0 || one_path,
                "{args:?}: {} columns:\n{line}",
                line.chars().count()
            );
        }
        // --wide: every column, as before (wider than 100 with its counts)
        assert!(
            wide.lines().skip(1).any(|l| l.chars().count() > 100),
            "{wide}"
        );
    }
}

/// Three CoNLL 2018 submissions on fr_sequoia (raw text, so `ud` aligns the tokens):
/// every comparison carries the difference B − A of the F1s the report shows, with an
/// ordered 95% paired bootstrap interval, and with names of 24 characters the text
/// report's test block fits in 100 columns (each pair on a line of its own above its
/// rows, when a row per measure and pair would not).
#[test]
fn conll18_sequoia_differences_and_their_intervals() {
    let Some(d) = data_dir() else { return };
    let dir = scratch("differences");
    let names = [
        ("NLP-Cube", "nlp-cube-18.fr.conllu.gz"),
        ("TurkuNLP-18", "turkunlp-18.fr.conllu.gz"),
        ("Uppsala-18", "uppsala-18.fr.conllu.gz"),
    ];
    let mut args = vec![s(&d.join("peer/conll18/gold/fr_sequoia.conllu.gz")).to_string()];
    for (team, short) in names {
        let from = d.join(format!("peer/conll18/sys/{team}.fr_sequoia.conllu.gz"));
        std::fs::copy(&from, dir.join(short)).unwrap();
        args.push(short.to_string());
    }
    // names of 24 characters (without them the systems are turkunlp-18.fr, …)
    for (_, short) in names {
        args.extend(["--name".to_string(), short.to_string()]);
    }
    let run = |format: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
            .args([
                "ud",
                "-q",
                "--test",
                "ar",
                "--samples",
                "500",
                "--format",
                format,
            ])
            .args(&args)
            .current_dir(&dir)
            .output()
            .expect("run treeval");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let v: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    let f1 = |system: u64, metric: &str| {
        v["sections"][0]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["system"] == system && r["key"] == metric)
            .and_then(|r| r["cells"].as_array()?.iter().find(|c| c["measure"] == "F1"))
            .and_then(|c| c["value"].as_f64())
            .unwrap()
    };
    let cmp = v["comparisons"].as_array().unwrap();
    assert_eq!(cmp.len(), 9, "LAS, MLAS, BLEX × 3 pairs");
    for c in cmp {
        let (a, b) = (c["a"].as_u64().unwrap(), c["b"].as_u64().unwrap());
        let m = c["metric"].as_str().unwrap();
        let diff = c["difference"].as_f64().unwrap();
        assert!((diff - (f1(b, m) - f1(a, m))).abs() < 1e-12, "{c}");
        let ci = c["difference_ci"].as_array().unwrap();
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!(lo <= hi, "{c}");
        // some 400 sentences: an interval of a few points, not a point, and not the
        // whole range
        assert!(hi - lo > 0.001 && hi - lo < 0.2, "{c}");
        assert_eq!(c["ci_level"], 0.95);
    }
    let text = run("text");
    let block = &text[text.find("\nTest: ").expect("a test block")..];
    for line in block.lines().take_while(|l| !l.starts_with("rank")) {
        assert!(
            line.chars().count() <= 100,
            "{} columns: {line}",
            line.chars().count()
        );
    }
    assert!(
        block.contains("turkunlp-18.fr.conllu.gz − nlp-cube-18.fr.conllu.gz"),
        "{block}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A system output made from a gold CoNLL-U text: every `every`-th word (counted over the
/// file) gets the word before it as head (the root for a sentence's first word) and the
/// label `dep`.
fn perturbed(text: &str, every: usize) -> String {
    let mut out = String::new();
    let mut k = 0;
    for line in text.lines() {
        let mut f: Vec<String> = line.split('\t').map(str::to_string).collect();
        if let (10, Ok(id)) = (f.len(), f[0].parse::<usize>()) {
            k += 1;
            if k % every == 0 {
                f[6] = (id - 1).to_string();
                f[7] = "dep".into();
            }
        }
        out.push_str(&f.join("\t"));
        out.push('\n');
    }
    out
}

/// `treeval table` of saved reports on real treebanks whose gold files are named
/// `*.gold.conllu` (issue 30): nothing is named after a file. Given alone, the reports are
/// refused with the manifest to write (they gave a 9×3 table of one-cell "systems" and a
/// `--baseline` that failed); named by a manifest they give 3 systems × 3 treebanks equal
/// to the table that evaluates the same files, and --baseline, --rank-by, --ci and the
/// LaTeX legend work on them.
#[test]
fn table_of_saved_reports_names_treebanks_and_systems_explicitly() {
    let Some(d) = data_dir() else { return };
    let dir = std::env::temp_dir().join(format!("treeval-table-named-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let treebanks = [
        ("en_ewt", "UD_English-EWT/en_ewt-ud-dev.conllu"),
        ("fr_sequoia", "UD_French-Sequoia/fr_sequoia-ud-dev.conllu"),
        ("de_gsd", "UD_German-GSD/de_gsd-ud-dev.conllu"),
    ];
    // the gold itself, every 11th word wrong, every 7th word wrong: ranked in that order
    let systems = [("copy", 0), ("p7", 7), ("p11", 11)];
    let mut evaluate = String::from("treebank\tgold\tsystem\tfile\n");
    let mut named = String::from("treebank\treport\tsystem\tfile\n");
    let mut reports = Vec::new();
    for (tb, gold) in treebanks {
        let text = std::fs::read_to_string(d.join("ud").join(gold)).unwrap();
        let g = dir.join(format!("{tb}.gold.conllu"));
        std::fs::write(&g, &text).unwrap();
        let mut args = vec!["deps".to_string(), s(&g).to_string()];
        for (name, every) in systems {
            let f = dir.join(format!("{tb}.{name}.conllu"));
            let out = if every == 0 {
                text.clone()
            } else {
                perturbed(&text, every)
            };
            std::fs::write(&f, out).unwrap();
            args.push(s(&f).to_string());
            evaluate.push_str(&format!("{tb}\t{}\t{name}\t{}\n", s(&g), s(&f)));
            named.push_str(&format!("{tb}\t{tb}.json\t{name}\t{tb}.{name}.conllu\n"));
        }
        let extra = "--format json -q --test ar --test-metrics LAS --samples 500 --ci 95";
        args.extend(extra.split(' ').map(str::to_string));
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let report = dir.join(format!("{tb}.json"));
        std::fs::write(&report, treeval(&a)).unwrap();
        reports.push(s(&report).to_string());
    }
    // given alone: refused, with the manifest to write (no 9×3 table of guessed names)
    let mut args = vec!["table", "--baseline", "copy"];
    args.extend(reports.iter().map(String::as_str));
    let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(&args)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("does not guess it from file names"), "{err}");
    let line = format!(
        "    TREEBANK\t{}\tSYSTEM\t{}",
        reports[1],
        s(&dir.join("fr_sequoia.p7.conllu"))
    );
    assert!(err.contains(&line), "{line:?} in\n{err}");
    // named by a manifest: 3 × 3, the baseline tested against the two others
    let manifest = dir.join("reports.tsv");
    std::fs::write(&manifest, &named).unwrap();
    let m = s(&manifest);
    let t: serde_json::Value = serde_json::from_str(&treeval(&[
        "table",
        m,
        "--baseline",
        "copy",
        "--format",
        "json",
    ]))
    .unwrap();
    let section = &t["sections"][0];
    assert_eq!(
        section["columns"],
        serde_json::json!(["en_ewt", "fr_sequoia", "de_gsd", "macro-avg"])
    );
    let names: Vec<&str> = t["systems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["copy", "p7", "p11"]);
    let rows = section["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r["cells"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["value"].is_number())));
    assert_eq!(rows[0]["cells"][3]["value"], 1.0, "the gold itself");
    // every perturbed cell is significantly worse than the gold's copy
    let cmp = t["comparisons"].as_array().unwrap();
    assert_eq!(cmp.len(), 6);
    assert!(cmp
        .iter()
        .all(|c| c["significant"] == true && c["statistic"].as_f64().unwrap() > 0.0));
    // the same cells as the manifest that evaluates the same files
    let e = dir.join("evaluate.tsv");
    std::fs::write(&e, &evaluate).unwrap();
    let fresh: serde_json::Value = serde_json::from_str(&treeval(&[
        "table",
        s(&e),
        "--baseline",
        "copy",
        "--samples",
        "500",
        "--ci",
        "95",
        "--format",
        "json",
        "-q",
    ]))
    .unwrap();
    let with_ci: serde_json::Value = serde_json::from_str(&treeval(&[
        "table",
        m,
        "--baseline",
        "copy",
        "--ci",
        "95",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(fresh["sections"][0]["rows"], with_ci["sections"][0]["rows"]);
    assert_eq!(fresh["sections"][0]["columns"], section["columns"]);
    // --ci: every treebank's cell has the report's interval, around its value
    for row in with_ci["sections"][0]["rows"].as_array().unwrap() {
        for c in &row["cells"].as_array().unwrap()[..3] {
            let (v, ci) = (c["value"].as_f64().unwrap(), c["ci"].as_array().unwrap());
            assert!(
                ci[0].as_f64().unwrap() <= v && v <= ci[1].as_f64().unwrap(),
                "{c}"
            );
        }
    }
    // --rank-by: the copy, then every 11th word wrong, then every 7th
    let ranked: serde_json::Value = serde_json::from_str(&treeval(&[
        "table",
        m,
        "--rank-by",
        "UAS",
        "--format",
        "json",
    ]))
    .unwrap();
    let order: Vec<u64> = ranked["sections"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["system"].as_u64().unwrap())
        .collect();
    assert_eq!(order, [0, 2, 1]);
    assert!(ranked["notes"]
        .to_string()
        .contains("Ranked by mean UAS over the 3 treebanks"));
    // LaTeX: the legend line under the table renders
    let tex = treeval(&["table", m, "--baseline", "copy", "--format", "latex"]);
    let legend = tex
        .lines()
        .find(|l| l.starts_with("\\par\\smallskip{\\footnotesize "))
        .unwrap_or_else(|| panic!("{tex}"));
    assert!(
        legend.contains("$^\\dagger$ significantly different from the baseline copy (approximate randomization, 500 shuffles, seed 12345, as the saved reports ran it), $\\alpha$ = 0.05 on p-values Holm–Bonferroni adjusted over each system's treebanks."),
        "{legend}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// MaltTab (`.dp`): the PTB sample's 199 dependency files read as they are. `wsj_0001.dp`
/// against itself is 100; against a copy with two heads changed by hand ("Pierre" 2 → 8
/// in sentence 1, "the" 12 → 11 in sentence 2) UAS and LAS (no labels: LAS = UAS) are
/// 29/31 and both sentences lose their exact match; the whole sample (3,914 sentences,
/// 94,084 words, the README's counts) gives the same counts as its conversion to
/// CoNLL-X; `relations` and `ted` read it too, and `ud` refuses it with a hint.
#[test]
fn malttab_ptb_sample_reads_as_its_conllx_conversion() {
    let Some(d) = data_dir() else { return };
    let dp_dir = d.join("ptb-sample/dependency_treebank");
    let dir = std::env::temp_dir().join(format!("treeval-malttab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let one = dp_dir.join("wsj_0001.dp");
    let text = std::fs::read_to_string(&one).unwrap();
    let perturbed = text
        .replacen("Pierre\tNNP\t2\n", "Pierre\tNNP\t8\n", 1)
        .replacen("the\tDT\t12\n", "the\tDT\t11\n", 1);
    assert_ne!(perturbed, text);
    let p = dir.join("wsj_0001.perturbed.dp");
    std::fs::write(&p, &perturbed).unwrap();
    let counts = |v: &serde_json::Value, m: &str| common::counts(common::cell(v, "scores", 0, m));
    let same = json(&[s(&one), s(&one)]);
    assert_eq!(same["inputs"][0]["format"], "malttab");
    for m in ["LAS", "UAS", "LA"] {
        assert_eq!(counts(&same, m), [31, 31], "{m}");
    }
    let v = json(&[s(&one), s(&p)]);
    assert_eq!(counts(&v, "UAS"), [29, 31]);
    assert_eq!(counts(&v, "LAS"), [29, 31]);
    assert_eq!(counts(&v, "LA"), [31, 31]);
    assert_eq!(counts(&v, "UEM"), [0, 2]);
    assert_eq!(counts(&v, "ROOT"), [2, 2]);
    // the whole sample, and its conversion to CoNLL-X (ID, FORM, _, POS, POS, _, HEAD, _)
    let (mut all, mut conllx) = (String::new(), String::new());
    for k in 1..=199 {
        let dp = std::fs::read_to_string(dp_dir.join(format!("wsj_{k:04}.dp"))).unwrap();
        for sentence in dp.split("\n\n").filter(|x| !x.trim().is_empty()) {
            for (i, line) in sentence.lines().filter(|l| !l.is_empty()).enumerate() {
                let c: Vec<&str> = line.split('\t').collect();
                all.push_str(&format!("{line}\n"));
                conllx.push_str(&format!(
                    "{}\t{}\t_\t{}\t{}\t_\t{}\t_\t_\t_\n",
                    i + 1,
                    c[0],
                    c[1],
                    c[1],
                    c[2]
                ));
            }
            all.push('\n');
            conllx.push('\n');
        }
    }
    let (a, c) = (dir.join("ptb.dp"), dir.join("ptb.conll"));
    std::fs::write(&a, all).unwrap();
    std::fs::write(&c, conllx).unwrap();
    let va = json(&[s(&a), s(&a)]);
    let vc = json(&[s(&c), s(&c)]);
    assert_eq!(vc["inputs"][0]["format"], "conllx");
    assert_eq!(counts(&va, "UAS"), [94_084, 94_084]);
    assert_eq!(counts(&va, "UEM"), [3_914, 3_914]);
    let scores = |v: &serde_json::Value| {
        v["sections"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["id"] == "scores")
            .map(|x| x["rows"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(scores(&va), scores(&vc));
    let rel: serde_json::Value = serde_json::from_str(&treeval(&[
        "relations",
        "-q",
        "--format",
        "json",
        s(&one),
        s(&p),
    ]))
    .unwrap();
    assert_eq!(rel["inputs"][0]["format"], "malttab");
    assert_eq!(
        common::counts(common::cell(&rel, "scores", 0, "both")),
        [29]
    );
    let ted: serde_json::Value = serde_json::from_str(&treeval(&[
        "ted",
        "-q",
        "--format",
        "json",
        "--gold",
        s(&one),
        "--parse",
        s(&one),
    ]))
    .unwrap();
    assert_eq!(common::value(&ted, "scores", 0, "TedEval"), Some(1.0));
    let ud = Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(["ud", s(&one), s(&one)])
        .output()
        .unwrap();
    assert_eq!(ud.status.code(), Some(1));
    let err = String::from_utf8_lossy(&ud.stderr);
    assert!(
        err.contains("wsj_0001.dp:1:1: expected 10 tab-separated columns, found 3"),
        "{err}"
    );
    assert!(err.contains("`treeval deps` reads MaltTab"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `brackets --per-sentence` records of `GOLD TEST EXTRA…`: per gold sentence, its
/// counts, length and status.
fn brackets_records(g: &Path, t: &Path, extra: &[&str], out: &Path) -> Vec<serde_json::Value> {
    let args = [
        &["brackets", "-q", s(g), s(t), "--per-sentence", s(out)][..],
        extra,
    ]
    .concat();
    treeval(&args);
    let text = std::fs::read_to_string(out).unwrap();
    (text.lines().skip(1))
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("message");
            v
        })
        .collect()
}

/// `brackets --align chars` on the whole PTB sample (3,914 trees) against itself and
/// against the relabelled test file of [`ptb_sample_pair`]: the same words, so every
/// count of every section (with the breakdowns by label and length) and every sentence's
/// record are the default mode's; no window.
#[test]
fn ptb_sample_chars_gives_the_default_counts_on_the_same_words() {
    let Some(d) = data_dir() else { return };
    let (g, t) = ptb_sample_pair(&d, "ptb-chars-same");
    let dir = g.parent().unwrap().to_owned();
    for test in [&g, &t] {
        let by = ["--by", "label,length"];
        let words = brackets_json(&g, test, &by);
        let chars = brackets_json(&g, test, &[&by[..], &["--align", "chars"]].concat());
        assert_eq!(words["sections"], chars["sections"], "{}", test.display());
        assert!(chars["listings"].as_array().is_none_or(Vec::is_empty));
        let sig = chars["signature"].as_str().unwrap();
        assert!(sig.contains("|align:chars+ptb-escapes"), "{sig}");
        let (a, b) = (dir.join("words.jsonl"), dir.join("chars.jsonl"));
        let w = brackets_records(&g, test, &[], &a);
        let c = brackets_records(&g, test, &["--align", "chars"], &b);
        assert_eq!(w.len(), 3914);
        assert_eq!(w, c, "{}", test.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// scripts/retokenize-ptb.py re-tokenizes the relabelled PTB sample as a raw-text parser
/// would (`do n't` → `don't`, hyphenated words split, `-LCB-` as `{`, a word dropped in
/// every 50th tree, trees split and joined): `--align chars` scores it with one window per
/// dropped word (its gold characters, no system characters), counts the split sentences
/// and joined trees, and every sentence the script left alone scores as the default
/// mode scores the file before re-tokenization.
#[test]
fn ptb_sample_retokenized_by_the_script_scores_with_its_windows() {
    let Some(d) = data_dir() else { return };
    let (g, t) = ptb_sample_pair(&d, "ptb-chars-retok");
    let dir = g.parent().unwrap().to_owned();
    let (sys, manifest) = (dir.join("retok.txt"), dir.join("manifest.json"));
    let script = common::root().join("scripts/retokenize-ptb.py");
    let o = Command::new("python3")
        .args([
            s(&script),
            "--seed",
            "7",
            "--out",
            s(&sys),
            "--manifest",
            s(&manifest),
            s(&t),
        ])
        .output()
        .expect("run python3");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let n = |k: &str| m[k].as_array().unwrap().len();
    assert!(
        n("dropped") > 50 && n("split") > 50 && n("joined") > 50,
        "{m}"
    );
    assert!(m["nt_joined"].as_u64() > Some(100) && m["hyphens_split"].as_u64() > Some(100));
    assert_ne!(m["trees_out"], m["trees_in"]);
    let v = brackets_json(&g, &sys, &["--align", "chars"]);
    let windows = v["listings"][0]["rows"].as_array().unwrap();
    assert_eq!(windows.len(), n("dropped"), "one window per dropped word");
    for (w, drop) in windows.iter().zip(m["dropped"].as_array().unwrap()) {
        assert_eq!(w[0].as_str().unwrap(), drop["sentence"].to_string());
        let word = drop["word"].as_str().unwrap();
        // the listing shows the first 10 characters of a window's text, then `…`
        let shown = w[3].as_str().unwrap();
        match word.chars().count() {
            k if k <= 10 => assert_eq!(shown.chars().count(), k, "{shown}"),
            _ => assert!(
                shown.ends_with('…') && shown.chars().count() == 11,
                "{shown}"
            ),
        }
        assert_eq!(w[4], "∅");
    }
    let note = v["notes"][0].as_str().unwrap();
    let split = format!("{} gold sentence(s) over several system trees", n("split"));
    let joined = format!("{} system tree(s) over several gold sentences", n("joined"));
    assert!(note.contains(&split) && note.contains(&joined), "{note}");
    // the sentences left alone score as before re-tokenization
    let touched: std::collections::HashSet<u64> = (m["touched"].as_array().unwrap().iter())
        .map(|x| x.as_u64().unwrap())
        .collect();
    let before = brackets_records(&g, &t, &[], &dir.join("before.jsonl"));
    let after = brackets_records(&g, &sys, &["--align", "chars"], &dir.join("after.jsonl"));
    assert_eq!(before.len(), after.len());
    let mut same = 0;
    for (b, a) in before.iter().zip(&after) {
        if !touched.contains(&b["sentence"].as_u64().unwrap()) {
            assert_eq!(b, a);
            same += 1;
        }
    }
    assert!(same > 3000, "{same} sentences left alone");
    // the touched ones lose brackets, never gain matches from nowhere
    let total = |r: &[serde_json::Value], k: &str| -> u64 {
        r.iter().map(|x| x["counts"][k].as_u64().unwrap()).sum()
    };
    assert!(total(&after, "brackets_correct") < total(&before, "brackets_correct"));
    assert_eq!(
        total(&after, "gold_brackets"),
        total(&before, "gold_brackets")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every sentence's (status, matched, gold, system brackets, words, untagged words) of a
/// `brackets --per-sentence` records file.
fn bracket_records(path: &Path) -> Vec<(String, [u64; 5])> {
    let text = std::fs::read_to_string(path).unwrap();
    (text.lines())
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|r| r["sentence"].is_u64())
        .map(|r| {
            let c = &r["counts"];
            let n = |k: &str| c[k].as_u64().unwrap_or_else(|| panic!("no {k} in {r}"));
            let status = r["status"].as_str().unwrap().to_owned();
            let counts = [
                "brackets_correct",
                "gold_brackets",
                "system_brackets",
                "words",
                "system_untagged_words",
            ]
            .map(n);
            (status, counts)
        })
        .collect()
}

/// Generated trees on real data: the PTB sample's .prd files are its .mrg trees without
/// POS tags, one file for one (199 each, 3,914 trees), traces kept as words (`(NP *)`,
/// `(S *T*-1)`, `0`) and every one-word phrase written `(NP it)`. Scored against the .mrg
/// gold, each word without a tag takes the gold word's deletion decision (punctuation and
/// traces go), so every sentence whose words are the gold's scores exactly as the .mrg
/// against itself. What is true of the two files besides: 99 sentences hold a different
/// word (errors, counted, not repaired): `\/` written `/` (45), a fraction cut at its
/// slash (`3\/4` written `3`, 37), an abbreviation that ends the sentence without its
/// period (`U.S.` written `U.S`, 16), `-LCB-` written `*LCB*` (1); and one tree, `( (X
/// @))`, has no word beside another, so it reads as EVALB reads it (X the tag of `@`):
/// one gold bracket missed, one tagged word.
#[test]
fn ptb_sample_prd_without_tags_scores_as_the_mrg_gold() {
    let Some(d) = data_dir() else { return };
    let tb = d.join("ptb-sample/treebank");
    let (mut gold, mut prd) = (String::new(), String::new());
    for k in 1..=199 {
        let read = |p: PathBuf| {
            std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        };
        gold.push_str(&read(tb.join(format!("combined/wsj_{k:04}.mrg"))));
        prd.push_str(&read(tb.join(format!("parsed/wsj_{k:04}.prd"))));
    }
    let dir = scratch("prd");
    let (g, p) = (dir.join("gold.mrg"), dir.join("parsed.prd"));
    std::fs::write(&g, gold).unwrap();
    std::fs::write(&p, prd).unwrap();
    let (rp, rg) = (dir.join("prd.jsonl"), dir.join("mrg.jsonl"));
    // EVALB's convention here (the error sentences out of the scores), the default below
    let excluded = ["--error-sentences", "excluded"];
    let v = brackets_json(
        &g,
        &p,
        &[&["--per-sentence", s(&rp)][..], &excluded].concat(),
    );
    brackets_json(&g, &g, &["--per-sentence", s(&rg)]);
    let count = |m: &str| common::counts(common::cell(&v, "all", 0, m));
    assert_eq!(count("sentences"), [3_914]);
    assert_eq!(count("error"), [99]);
    assert_eq!(count("skipped"), [0]);
    let reading = &v["inputs"][1]["counts"]["reading"];
    let r = |k: &str| reading[k].as_u64().unwrap();
    assert_eq!(r("untagged_trees"), 3_913);
    assert_eq!(r("untagged_words"), 100_675);
    assert_eq!(r("untagged_deleted"), 17_321);
    assert_eq!(r("untagged_unpaired"), 175);
    assert_eq!(
        r("unbalanced_sentences") + r("wrapper_missing") + r("wrapper_extra"),
        0
    );
    // the 99 error sentences, by what differs
    let mut kinds = std::collections::BTreeMap::new();
    for e in v["inputs"][1]["counts"]["errors"].as_array().unwrap() {
        let m = e["message"].as_str().unwrap();
        let pair = m
            .strip_prefix("Words unmatch (")
            .and_then(|x| x.strip_suffix(')'));
        let (gw, sw) = pair
            .and_then(|x| x.split_once('|'))
            .unwrap_or_else(|| panic!("{m}"));
        let kind = if gw.replace("\\/", "/") == sw {
            "slash written /"
        } else if gw.split_once("\\/").is_some_and(|(a, _)| a == sw) {
            "fraction cut at its slash"
        } else if gw.strip_suffix('.') == Some(sw) {
            "final period"
        } else {
            assert_eq!((gw, sw), ("-LCB-", "*LCB*"));
            "brace"
        };
        *kinds.entry(kind).or_insert(0) += 1;
    }
    let want = [
        ("brace", 1),
        ("final period", 16),
        ("fraction cut at its slash", 37),
        ("slash written /", 45),
    ];
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), want);
    // every scored sentence counts what the .mrg against itself counts, bar one
    let (a, b) = (bracket_records(&rp), bracket_records(&rg));
    assert_eq!((a.len(), b.len()), (3_914, 3_914));
    let mut differ = Vec::new();
    for (k, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(y.0, "ok");
        if x.0 != "ok" {
            continue;
        }
        let [m, gb, sb, w, u] = x.1;
        assert_eq!(u, if k == 1047 { 0 } else { w }, "sentence {}", k + 1);
        if [m, gb, sb, w] != y.1[..4] {
            differ.push((k + 1, x.1, y.1));
        }
    }
    assert_eq!(differ, [(1048, [0, 1, 0, 1, 0], [1, 1, 1, 1, 0])]);
    // recall misses that one bracket; precision is whole; tagging scores the one tag
    let [m, gb] = count("recall")[..] else {
        panic!()
    };
    assert_eq!(gb, m + 1);
    assert_eq!(common::value(&v, "all", 0, "precision"), Some(1.0));
    assert_eq!(count("tagging"), [0, 81_124, 81_123]);
    // by default the 99 error sentences are empty parses: their gold brackets (as the
    // .mrg against itself counts them) are missed, and their words have no tag
    let missed: Vec<&[u64; 5]> = (a.iter().zip(&b))
        .filter(|(x, _)| x.0 != "ok")
        .map(|(_, y)| &y.1)
        .collect();
    let (missed_gold, missed_words): (u64, u64) = (
        missed.iter().map(|c| c[1]).sum(),
        missed.iter().map(|c| c[3]).sum(),
    );
    let d = brackets_json(&g, &p, &[]);
    let dc = |m: &str| common::counts(common::cell(&d, "all", 0, m));
    assert_eq!(dc("recall"), [m, gb + missed_gold]);
    assert_eq!(dc("missed"), [99]);
    assert_eq!(
        dc("tagging"),
        [0, 81_124 + missed_words, 81_123 + missed_words]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The PTB sample's trees (its 199 .mrg files, in order), as read.
fn ptb_sample_trees(d: &Path) -> Vec<treeval_formats::bracket::BracketTree> {
    use treeval_formats::bracket::{BracketReader, BracketTree, Layout};
    let mut trees = Vec::new();
    for k in 1..=199 {
        let path = d.join(format!("ptb-sample/treebank/combined/wsj_{k:04}.mrg"));
        let text = std::fs::read_to_string(&path).unwrap();
        let mut r = BracketReader::new(text.as_bytes(), s(&path), Layout::MultiLine);
        let mut t = BracketTree::default();
        while r.read_tree(&mut t).unwrap() {
            assert!(
                t.problems.is_empty(),
                "{}: {:?}",
                path.display(),
                t.problems
            );
            trees.push(t.clone());
        }
    }
    trees
}

/// The kept words of `t` (PRPN's tag filter) as a right- (or left-) branching tree on one
/// line, each word under its tag.
fn branching_line(t: &treeval_formats::bracket::BracketTree, right: bool) -> String {
    use treeval_metrics::brackets::unsup::profile::WORD_TAGS;
    let words: Vec<String> = t
        .leaves
        .iter()
        .filter(|l| WORD_TAGS.contains(&t.s(l.label)))
        .map(|l| format!("({} {})", t.s(l.label), t.s(l.word)))
        .collect();
    let mut line = if right {
        words.last().cloned().unwrap()
    } else {
        words[0].clone()
    };
    let n = words.len();
    for k in 1..n {
        line = if right {
            format!("(S {} {line})", words[n - 1 - k])
        } else {
            format!("(S {line} {})", words[k])
        };
    }
    if n == 1 {
        line = format!("(S {line})");
    }
    line
}

/// Unsupervised parsing on the PTB sample, made one tree per line the way the
/// unsupervised papers make their files (PRPN's word-tag filter, constituents left
/// empty dropped, as compound-pcfg's process_ptb.py writes them): `--compat
/// compare-trees` prints for right- and left-branching trees over those words what
/// compare_trees.py printed on the files process_ptb.py made from the same 199 .mrg files
/// (its copy in /tmp, torch imports removed; restated here), and the profile's counts
/// (`UnsupCounts`) agree with the script's sums where the conventions agree. The gold file
/// made here is byte for byte the file process_ptb.py (nltk 3.10.4) wrote.
#[test]
fn ptb_sample_unsupervised_baselines_equal_compare_trees() {
    use treeval_metrics::brackets::unsup::profile::{UnsupCounts, UnsupTree};
    use treeval_metrics::brackets::unsup::script;
    let Some(d) = data_dir() else { return };
    let dir = scratch("ptb-unsup");
    let trees = ptb_sample_trees(&d);
    assert_eq!(trees.len(), 3914);
    let gold: String = trees
        .iter()
        .map(|t| UnsupTree::one_line(t, true) + "\n")
        .collect();
    let g = dir.join("ptb-test.txt");
    std::fs::write(&g, &gold).unwrap();
    for (right, expected) in [
        (true, "Corpus F1: 35.82, Sentence F1: 39.62\n"),
        (false, "Corpus F1: 6.37, Sentence F1: 8.27\n"),
    ] {
        let lines: String = trees
            .iter()
            .map(|t| branching_line(t, right) + "\n")
            .collect();
        let p = dir.join(if right { "right.txt" } else { "left.txt" });
        std::fs::write(&p, lines).unwrap();
        let out = treeval(&["brackets", "--compat", "compare-trees", s(&g), s(&p)]);
        assert_eq!(out, expected);
        // the profile over the raw treebank, the baseline made from the same words
        let mut c = UnsupCounts::default();
        let mut whole = 0;
        for t in &trees {
            let gold = UnsupTree::of(t, true);
            let system = if right {
                UnsupTree::right_branching(gold.words)
            } else {
                UnsupTree::left_branching(gold.words)
            };
            c += UnsupCounts::sentence(&gold, &system);
            // the script keeps the sentence span where a unary chain repeats it at the top
            let read = script::read(&UnsupTree::one_line(t, true)).unwrap();
            let n = read.words;
            if (2..=150).contains(&n) && read.tree().unwrap().span_set().contains(&(0, n - 1)) {
                whole += 1;
            }
        }
        let sums = script::compare(&gold, &std::fs::read_to_string(&p).unwrap(), 150).unwrap();
        // the same sentences (13 of one word and 1 over 150 skipped), the same system spans
        // and matches; the script's gold has the sentence spans of unary chains besides
        assert_eq!(
            (c.sentences, c.short_sentences, c.long_sentences),
            (3900, 13, 1)
        );
        assert_eq!(c.sentences as usize, sums.sentence_f1.len());
        assert_eq!(c.spans_correct as f64, sums.tp);
        assert_eq!(c.system_spans as f64, sums.tp + sums.fp);
        assert_eq!((c.gold_spans + whole) as f64, sums.tp + sums.fn_);
        assert_eq!(whole, 18);
        // the command on the raw treebank: the baseline file and --baselines' row give
        // these counts
        let mrg = dir.join("ptb.mrg");
        std::fs::write(&mrg, ptb_sample_text(&d, 1..=199).0).unwrap();
        let v: serde_json::Value = serde_json::from_str(&treeval(&[
            "brackets",
            "--profile",
            "unsupervised",
            "--baselines",
            "--format",
            "json",
            s(&mrg),
            s(&p),
        ]))
        .unwrap();
        let baseline = if right { 2 } else { 1 };
        for system in [0, baseline] {
            let f = common::cell(&v, "scores", system, "F");
            assert_eq!(
                common::counts(f),
                [c.spans_correct, c.gold_spans, c.system_spans]
            );
            let mean = common::value(&v, "scores", system, "sentence-F1").unwrap();
            assert!((mean - c.sentence_f1_sum / c.sentences as f64).abs() < 1e-12);
            let skipped = common::cell(&v, "scores", system, "short");
            assert_eq!(common::counts(skipped), [13]);
        }
    }
}

/// A tree of the PTB sample as the test derives bare-leaf systems from it: a label and
/// children, or a word.
enum Sexp {
    Word(String),
    Node(String, Vec<Sexp>),
}

/// Every tree of `text` (the `.mrg` parentheses), read independently of treeval.
fn sexps(text: &str) -> Vec<Sexp> {
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    let mut tokens = spaced.split_whitespace().peekable();
    fn node(t: &mut std::iter::Peekable<std::str::SplitWhitespace<'_>>) -> Sexp {
        // after '(': a label unless a '(' follows at once (the `( … )` wrapper)
        let label = match t.peek() {
            Some(&"(") => String::new(),
            _ => t.next().unwrap().to_owned(),
        };
        let mut children = Vec::new();
        loop {
            match t.next().unwrap() {
                ")" => return Sexp::Node(label, children),
                "(" => children.push(node(t)),
                w => children.push(Sexp::Word(w.to_owned())),
            }
        }
    }
    let mut out = Vec::new();
    while let Some(tok) = tokens.next() {
        assert_eq!(tok, "(");
        out.push(node(&mut tokens));
    }
    out
}

/// The bare-leaf tree a parser without tags writes for `t`, on one line: no `-NONE-`
/// word (nor a phrase left without words), every `(TAG word)` written as `word`; `None`
/// when nothing is left.
fn bare_leaf(t: &Sexp) -> Option<String> {
    match t {
        Sexp::Word(w) => Some(w.clone()),
        Sexp::Node(label, kids) => match kids.as_slice() {
            [Sexp::Word(_)] if label == "-NONE-" => None,
            [Sexp::Word(w)] => Some(w.clone()),
            _ => {
                let inner: Vec<String> = kids.iter().filter_map(bare_leaf).collect();
                (!inner.is_empty()).then(|| format!("({label} {})", inner.join(" ")))
            }
        },
    }
}

/// The PTB sample's gold `.mrg` trees (with their `-NONE-` traces) against the bare-leaf
/// trees a parser without tags writes for them (no trace, no tag): every word stands on
/// its gold word past the traces, so every sentence is scored and every bracket matches
/// but one (placed by position, most sentences were length errors). A second system replaces the
/// first word of every tenth tree: those sentences are word errors, scored as empty parses.
#[test]
fn ptb_sample_bare_leaf_systems_score_against_the_mrg_gold_with_traces() {
    let Some(d) = data_dir() else { return };
    let dir = scratch("ptb-bare-leaf");
    let (gold, _) = ptb_sample_text(&d, 1..=199);
    let trees = sexps(&gold);
    let bare: Vec<String> = trees.iter().map(|t| bare_leaf(t).unwrap()).collect();
    assert!(gold.contains("(-NONE- "));
    let g = dir.join("gold.mrg");
    std::fs::write(&g, &gold).unwrap();
    let t = dir.join("bare.txt");
    std::fs::write(&t, bare.join("\n") + "\n").unwrap();
    let v = brackets_json(&g, &t, &[]);
    let c = |m: &str| common::counts(common::cell(&v, "all", 0, m));
    let n = trees.len() as u64;
    assert_eq!(
        [c("sentences"), c("error"), c("skipped")].concat(),
        [n, 0, 0]
    );
    let (r, p) = (c("recall"), c("precision"));
    // every bracket matches, but one: the one-word tree `( (X @))` has no word beside
    // another, so its gold reads X as a tag, and its bare-leaf `( @)` has no bracket at
    // all (as ptb_sample_prd_without_tags_scores_as_the_mrg_gold says of the .prd file)
    assert!(r[1] > 10_000 && p[0] == p[1] && r[0] == p[0], "{r:?} {p:?}");
    assert_eq!(r[1], r[0] + 1, "{r:?}");
    assert_eq!(v["inputs"][1]["counts"]["reading"]["untagged_unpaired"], 0);
    // the first word of every tenth tree replaced: 1 in 10 a word error, missed
    let dropped: Vec<String> = (bare.iter().enumerate())
        .map(|(k, b)| match k % 10 {
            0 => other_first_word(b),
            _ => b.clone(),
        })
        .collect();
    let t2 = dir.join("dropped.txt");
    std::fs::write(&t2, dropped.join("\n") + "\n").unwrap();
    let v2 = brackets_json(&g, &t2, &[]);
    let c2 = |m: &str| common::counts(common::cell(&v2, "all", 0, m));
    let errors = n.div_ceil(10);
    assert_eq!(c2("error"), [errors]);
    // the gold brackets stay those of every sentence; the matched ones lose theirs
    assert_eq!(c2("recall")[1], r[1]);
    assert!(c2("recall")[0] < r[0]);
    let x = brackets_json(&g, &t2, &["--error-sentences", "excluded"]);
    let cx = common::counts(common::cell(&x, "all", 0, "recall"));
    assert!(cx[1] < r[1] && cx[1] - cx[0] == r[1] - r[0], "{cx:?}");
    assert_eq!(cx[0], c2("recall")[0]);
}

/// Bare-leaf tree `s` with its first word replaced by one no gold tree has.
fn other_first_word(s: &str) -> String {
    let mut done = false;
    let toks: Vec<String> = (s.split(' '))
        .map(|tok| {
            let word = tok.trim_end_matches(')');
            if done || word.is_empty() || word.starts_with('(') {
                return tok.to_owned();
            }
            done = true;
            format!("xyzzy{}", &tok[word.len()..])
        })
        .collect();
    toks.join(" ")
}

/// Issue 38: the layout was decided by a file's first tree, so a PTB `.mrg` file whose
/// first tree sits on one line was read one tree per line ("expected 31 trees … found
/// 5"). Each of the sample's first 40 files with its first tree, then also its second,
/// joined onto one line (as a user's script writes a short tree) reads as the file does:
/// as many trees (counted independently: the lines that open a tree at depth 0), every
/// bracket matched against the original, given as gold or as system.
#[test]
fn ptb_sample_trees_joined_onto_one_line_read_as_the_file() {
    let Some(d) = data_dir() else { return };
    let dir = d.join("ptb-sample/treebank/combined");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mrg"))
        .collect();
    files.sort();
    let out = scratch("ptb-joined");
    for path in files.iter().take(40) {
        let text = std::fs::read_to_string(path).unwrap();
        // the trees by an independent count: a tree starts where depth 0 meets a '('
        let mut trees: Vec<String> = Vec::new();
        let mut depth = 0i64;
        for line in text.lines() {
            if depth == 0 && line.trim_start().starts_with('(') {
                trees.push(String::new());
            }
            if let Some(t) = trees.last_mut() {
                t.push_str(line);
                t.push('\n');
            }
            depth += line.matches('(').count() as i64 - line.matches(')').count() as i64;
        }
        for joined in 1..=2.min(trees.len()) {
            let mut edited = trees.clone();
            for t in edited.iter_mut().take(joined) {
                *t = t.split_whitespace().collect::<Vec<_>>().join(" ") + "\n";
            }
            let e = out.join("edited.mrg");
            std::fs::write(&e, edited.concat()).unwrap();
            for (g, t) in [(path.as_path(), e.as_path()), (e.as_path(), path.as_path())] {
                let v: serde_json::Value = serde_json::from_str(&treeval(&[
                    "brackets",
                    "-q",
                    "--format",
                    "json",
                    s(g),
                    s(t),
                ]))
                .unwrap();
                let what = format!("{} with {joined} tree(s) on one line", path.display());
                assert_eq!(common::value(&v, "all", 0, "F"), Some(1.0), "{what}: {v}");
                let sentences = common::cell(&v, "all", 0, "sentences")["value"].as_f64();
                assert_eq!(sentences, Some(trees.len() as f64), "{what}");
            }
        }
    }
}
