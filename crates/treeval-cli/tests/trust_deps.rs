//! `treeval deps` and trust: CoNLL-2009 files read as eval09.pl reads them, `--compat
//! eval09` byte for byte against eval09.pl's own outputs (testdata/conll09/expected, see
//! the README there), and measures with nothing to measure shown as not applicable.

mod common;
use common::{root, treeval};

fn stdout_ok(args: &[&str]) -> String {
    let o = treeval(args);
    assert!(
        o.status.success(),
        "treeval {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["deps", "-q", "--format", "json"];
    a.extend_from_slice(args);
    serde_json::from_str(&stdout_ok(&a)).unwrap()
}

const D: &str = "testdata/conll09";

fn path(name: &str) -> String {
    format!("{D}/{name}")
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(root().join(D).join("expected").join(format!("{name}.txt")))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn compat_eval09_equals_eval09_pl_byte_for_byte() {
    // (expected output, gold, system, eval09.pl -p?, eval09.pl dies dividing by zero?)
    let cases = [
        ("q", "gold", "sys", false, false),
        ("qp", "gold", "sys", true, false),
        ("sys_in_head_q", "gold", "sys_in_head", false, false),
        ("sys_in_head_qp", "gold", "sys_in_head", true, false),
        ("punct_q", "punct.gold", "punct.sys", false, false),
        ("punct_qp", "punct.gold", "punct.sys", true, false),
        ("allpunct_q", "allpunct.gold", "allpunct.sys", false, false),
        ("allpunct_qp", "allpunct.gold", "allpunct.sys", true, true),
        ("las0_q", "las0.gold", "las0.sys", false, true),
        ("layout_q", "layout.gold", "layout.sys", false, false),
        ("layout_qp", "layout.gold", "layout.sys", true, false),
    ];
    for (name, g, s, p, dies) in cases {
        let (g, s) = (path(&format!("{g}.conll09")), path(&format!("{s}.conll09")));
        let mut args = vec!["deps", "-q", "--compat", "eval09"];
        if p {
            // eval09.pl -p: words whose FORM is all punctuation are not scored
            args.extend(["--profile", "conllx"]);
        }
        args.extend([g.as_str(), s.as_str()]);
        let o = treeval(&args);
        assert_eq!(
            String::from_utf8(o.stdout).unwrap(),
            expected(name),
            "{name}: stdout differs from eval09.pl's"
        );
        let err = String::from_utf8_lossy(&o.stderr);
        if dies {
            // the script prints the lines before its division by zero, then dies
            assert_eq!(o.status.code(), Some(1), "{name}: {err}");
            assert!(
                err.contains("eval09.pl dies dividing by zero"),
                "{name}: {err}"
            );
        } else {
            assert!(o.status.success(), "{name}: {err}");
        }
    }
}

#[test]
fn compat_eval09_with_predicates_prints_the_syntactic_block_only() {
    let o = treeval(&[
        "deps",
        "--compat",
        "eval09",
        &path("pred.gold.conll09"),
        &path("pred.sys.conll09"),
    ]);
    assert!(o.status.success());
    // eval09.pl's first five lines (the syntactic scores), not its semantic ones
    let five: String = expected("pred_q")
        .lines()
        .take(5)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(String::from_utf8(o.stdout).unwrap(), five);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("SYNTACTIC SCORES only") && err.contains("pred.sys.conll09"),
        "{err}"
    );
}

#[test]
fn compat_eval09_refuses_files_that_are_not_conll09() {
    let o = treeval(&[
        "deps",
        "--compat",
        "eval09",
        "examples/gold.conllu",
        "examples/sys.conllu",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("examples/gold.conllu")
            && err.contains("CoNLL-2009")
            && err.contains("conllu"),
        "{err}"
    );
    assert!(err.contains("--compat eval07"), "{err}");
}

#[test]
fn conll09_system_trees_are_read_from_head_deprel_as_eval09_pl_reads_them() {
    let (g, s, h) = (
        path("gold.conll09"),
        path("sys.conll09"),
        path("sys_in_head.conll09"),
    );
    // sys.conll09 keeps a copy of gold in HEAD/DEPREL and its parse in PHEAD/PDEPREL
    let las = |v: &serde_json::Value| {
        let m = &v["systems"][0]["metrics"]["LAS"];
        (m["correct"].as_u64().unwrap(), m["total"].as_u64().unwrap())
    };
    assert_eq!(las(&json(&[&g, &s])), (21, 21));
    assert_eq!(las(&json(&["--input-format", "conll09", &g, &s])), (21, 21));
    assert_eq!(las(&json(&["--conll09-columns", "gold", &g, &s])), (21, 21));
    // the other column set on request: the parse in PHEAD/PDEPREL
    assert_eq!(
        las(&json(&["--conll09-columns", "predicted", &g, &s])),
        (16, 21)
    );
    assert_eq!(las(&json(&[&g, &h])), (16, 21));
    // and eval09.pl's output on a file with that parse in HEAD/DEPREL
    assert_eq!(
        stdout_ok(&[
            "deps",
            "--compat",
            "eval09",
            "--conll09-columns",
            "predicted",
            &g,
            &s
        ]),
        expected("sys_in_head_q")
    );
}

#[test]
fn help_names_the_conll09_columns_and_eval09() {
    let h = stdout_ok(&["deps", "--help"]);
    let one_line = h.split_whitespace().collect::<Vec<_>>().join(" ");
    for s in [
        "gold = HEAD/DEPREL (as eval09.pl",
        "predicted = PHEAD/PDEPREL",
        "[default: gold]",
        "eval09",
    ] {
        assert!(one_line.contains(s), "deps --help lacks {s:?}:\n{h}");
    }
}

/// Every word of allpunct.* is punctuation: with --profile conllx nothing is scored.
fn nothing_scored(format: &str) -> String {
    stdout_ok(&[
        "deps",
        "-q",
        "--profile",
        "conllx",
        "--format",
        format,
        "--per-relation",
        &path("allpunct.gold.conll09"),
        &path("allpunct.sys.conll09"),
    ])
}

#[test]
fn nothing_to_measure_is_null_in_json() {
    let v: serde_json::Value = serde_json::from_str(&nothing_scored("json")).unwrap();
    let s = &v["systems"][0];
    for m in ["LAS", "UAS", "LA", "LEM", "UEM", "ROOT"] {
        assert_eq!(s["metrics"][m]["total"], 0, "{m}");
        assert!(
            s["metrics"][m]["score"].is_null(),
            "{m}: {}",
            s["metrics"][m]
        );
    }
    for part in ["sentences", "relations"] {
        assert_eq!(s["macro"][part]["count"], 0, "{part}");
        for m in ["LAS", "UAS", "LA"] {
            assert!(s["macro"][part][m].is_null(), "macro {part} {m}");
        }
    }
    assert!(s["macro"]["relations_labeled_f1"].is_null());
    // no relation has a scored word: no row at all
    assert_eq!(s["per_relation"], serde_json::json!([]));
    assert_eq!(s["excluded_words"], 2);
    // and the report says why
    let warned = v["warnings"].as_array().unwrap().iter().any(|w| {
        let m = w["message"].as_str().unwrap();
        m.contains("no word scored") && m.contains("not applicable")
    });
    assert!(warned, "{}", v["warnings"]);
}

#[test]
fn nothing_to_measure_is_n_a_in_every_table_format() {
    insta::assert_snapshot!("nothing_scored_text", nothing_scored("text"));
    insta::assert_snapshot!("nothing_scored_markdown", nothing_scored("markdown"));
    insta::assert_snapshot!("nothing_scored_latex", nothing_scored("latex"));
    let csv = nothing_scored("csv");
    insta::assert_snapshot!("nothing_scored_csv", csv);
    // every score cell of the CSV says so, none is empty, 0 or 100
    for line in csv.lines().skip(1) {
        let score = line.rsplit(',').next().unwrap();
        assert_eq!(score, "n/a", "{line}");
    }
}

#[test]
fn root_accuracy_without_root_words_is_not_applicable() {
    // excluding the words attached with `root` leaves no gold root word to score
    let v = json(&[
        "--punct",
        "deprel=root",
        "examples/gold.conllu",
        "examples/sys.conllu",
    ]);
    let root = &v["systems"][0]["metrics"]["ROOT"];
    assert_eq!(root["total"], 0);
    assert!(root["score"].is_null());
    assert!(v["systems"][0]["metrics"]["LAS"]["score"].is_number());
    let text = stdout_ok(&[
        "deps",
        "-q",
        "--punct",
        "deprel=root",
        "examples/gold.conllu",
        "examples/sys.conllu",
    ]);
    let row = text
        .lines()
        .find(|l| l.starts_with("examples/sys.conllu "))
        .unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[cells.len() - 2..], ["n/a", "0/0"], "{row}");
}

#[test]
fn relation_f1_is_zero_when_one_side_is_empty_and_precision_or_recall_not_applicable() {
    // examples/: gold `nummod` never predicted, system `obl:npmod` never in gold
    let v = json(&["examples/gold.conllu", "examples/sys.conllu"]);
    let rows = v["systems"][0]["per_relation"].as_array().unwrap();
    let row = |l: &str| rows.iter().find(|r| r["label"] == l).unwrap().clone();
    let nummod = row("nummod");
    assert_eq!(
        (nummod["gold"].as_u64(), nummod["system"].as_u64()),
        (Some(1), Some(0))
    );
    assert!(nummod["labeled"]["precision"].is_null());
    assert_eq!(nummod["labeled"]["recall"], 0.0);
    // F1 = 2·correct / (gold + system) = 0: defined, as there is a gold item
    assert_eq!(nummod["labeled"]["f1"], 0.0);
    let npmod = row("obl:npmod");
    assert!(npmod["labeled"]["recall"].is_null());
    assert_eq!(npmod["labeled"]["precision"], 0.0);
    assert_eq!(npmod["labeled"]["f1"], 0.0);
}

#[test]
fn compat_eval07_and_evalpl_print_nothing_where_the_scripts_die() {
    // eval07.pl -q -p and eval.pl -q on a file whose every word is punctuation print
    // nothing and die ("Illegal division by zero"); treeval fails the same way, saying why
    for compat in ["eval07", "evalpl"] {
        let o = treeval(&[
            "deps",
            "--compat",
            compat,
            "--profile",
            "conllx",
            &path("allpunct.gold.conll09"),
            &path("allpunct.sys.conll09"),
        ]);
        assert_eq!(o.status.code(), Some(1), "{compat}");
        assert!(o.stdout.is_empty(), "{compat}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("dividing by zero"),
            "{compat}"
        );
    }
}
