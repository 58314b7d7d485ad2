//! `treeval deps` and trust: CoNLL-2009 files read as eval09.pl reads them, `--compat
//! eval09` byte for byte against eval09.pl's own outputs (testdata/conll09/expected, see
//! the README there), and measures with nothing to measure shown as not applicable.

mod common;
use common::{cell, keyed_cell, keys, root, stdout_ok, treeval};

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
        let c = &cell(v, "scores", 0, "LAS")["counts"];
        (c[0].as_u64().unwrap(), c[1].as_u64().unwrap())
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

/// Every word of allpunct.* is punctuation: with --profile conllx nothing is scored. One
/// run is then an error (exit 1, tested below); the report of a part of a corpus
/// (`--emit-state`) shows what a score over nothing is.
fn nothing_scored(format: &str) -> String {
    let state = std::env::temp_dir().join(format!(
        "treeval-allpunct-{format}-{}.json",
        std::process::id()
    ));
    let report = stdout_ok(&[
        "deps",
        "-q",
        "--profile",
        "conllx",
        "--format",
        format,
        "--per-relation",
        "--emit-state",
        state.to_str().unwrap(),
        &path("allpunct.gold.conll09"),
        &path("allpunct.sys.conll09"),
    ]);
    let _ = std::fs::remove_file(&state);
    report
}

#[test]
fn nothing_scored_in_one_run_is_an_error() {
    let o = treeval(&[
        "deps",
        "--profile",
        "conllx",
        &path("allpunct.gold.conll09"),
        &path("allpunct.sys.conll09"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "error: nothing is scored: the punctuation policy 'form' excluded all 2 words of"
        ) && err.contains("hint: choose another --punct policy"),
        "{err}"
    );
}

#[test]
fn nothing_to_measure_is_null_in_json() {
    let v: serde_json::Value = serde_json::from_str(&nothing_scored("json")).unwrap();
    for m in ["LAS", "UAS", "LA", "LEM", "UEM", "ROOT", "CLAS"] {
        let c = cell(&v, "scores", 0, m);
        assert_eq!(c["counts"][1], 0, "{m}");
        assert!(c["value"].is_null(), "{m}: {c}");
    }
    for (section, count, ms) in [
        (
            "macro-sentences",
            "sentences",
            ["macro-LAS", "macro-UAS", "macro-LA", "macro-LA"],
        ),
        (
            "macro-relations",
            "relations",
            [
                "macro-rel-LAS",
                "macro-rel-UAS",
                "macro-rel-LA",
                "macro-rel-LAS-F1",
            ],
        ),
    ] {
        assert_eq!(cell(&v, section, 0, count)["value"], 0.0, "{section}");
        for m in ms {
            assert!(cell(&v, section, 0, m)["value"].is_null(), "{section} {m}");
        }
    }
    // no relation has a scored word: no row at all
    assert!(keys(&v, "per-relation", 0).is_empty());
    let system = v["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["role"] == "system")
        .unwrap();
    assert_eq!(system["counts"]["excluded_words"], 2);
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
    // every score of the CSV is missing (an empty field, as CSV says it), never 0 or 100;
    // only the counts of what was averaged are numbers (0)
    let mut scores = 0;
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f[1] == "inputs" {
            continue;
        }
        let (measure, value) = (f[4], f[5]);
        if matches!(measure, "sentences" | "relations") {
            assert_eq!(value, "0", "{line}");
        } else {
            assert_eq!(value, "", "{line}");
            scores += 1;
        }
    }
    assert_eq!(
        scores,
        7 + 3 + 4,
        "headline, sentence and relation macro averages"
    );
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
    let root = cell(&v, "scores", 0, "ROOT");
    assert_eq!(root["counts"][1], 0);
    assert!(root["value"].is_null());
    assert!(cell(&v, "scores", 0, "LAS")["value"].is_number());
    let text = stdout_ok(&[
        "deps",
        "-q",
        "--wide",
        "--punct",
        "deprel=root",
        "examples/gold.conllu",
        "examples/sys.conllu",
    ]);
    let row = text.lines().find(|l| l.starts_with("sys ")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    // ROOT n/a alone (its counts 0/0 in the JSON), before the word measures (CLAS and
    // its counts)
    assert_eq!(cells[cells.len() - 3], "n/a", "{row}");
    assert!(cells[cells.len() - 1].contains('/'), "{row}");
}

#[test]
fn relation_f1_is_zero_when_one_side_is_empty_and_precision_or_recall_not_applicable() {
    // examples/: gold `nummod` never predicted, system `obl:npmod` never in gold
    let v = json(&[
        "--per-relation",
        "examples/gold.conllu",
        "examples/sys.conllu",
    ]);
    let get = |l: &str, m: &str| keyed_cell(&v, "per-relation", 0, l, m)["value"].clone();
    assert_eq!(
        (get("nummod", "gold"), get("nummod", "system")),
        (1.0.into(), 0.0.into())
    );
    assert!(get("nummod", "LAS-P").is_null());
    assert_eq!(get("nummod", "LAS-R"), 0.0);
    // F1 = 2·correct / (gold + system) = 0: defined, as there is a gold item
    assert_eq!(get("nummod", "LAS-F1"), 0.0);
    assert!(get("obl:npmod", "LAS-R").is_null());
    assert_eq!(get("obl:npmod", "LAS-P"), 0.0);
    assert_eq!(get("obl:npmod", "LAS-F1"), 0.0);
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
