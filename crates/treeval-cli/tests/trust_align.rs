//! `treeval align` and `treeval pts` must never print a number for files that do not pair
//! up, must print exactly what the reference scripts print in their compat modes, read
//! BOM/CR LF files as the LF files, refuse binary input in one clear line, and say `n/a`
//! where there is nothing to measure (issue 14).

use std::process::Output;

mod common;
use common::{argv, assert_stderr_has, root, stderr, stdout, treeval};

fn ok(args: &[&str]) -> Output {
    let o = treeval(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    o
}

fn fails(args: &[&str], code: i32) -> String {
    let o = treeval(args);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {}", stdout(&o));
    assert!(stdout(&o).is_empty(), "no number on stdout: {}", stdout(&o));
    stderr(&o)
}

fn golden(name: &str) -> String {
    std::fs::read_to_string(root().join("testdata/align-compat").join(name)).unwrap()
}

const GOLD: &str = "testdata/align/gold.naacl";
const C: &str = "testdata/align-compat";
const T: &str = "testdata/align-trust";

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["align", "--format", "json"];
    a.extend_from_slice(args);
    serde_json::from_str(&stdout(&ok(&a))).unwrap()
}

// ---- 1. counts that do not pair up

#[test]
fn a_short_pharaoh_hypothesis_is_an_error_naming_both_counts() {
    let gold = format!("{C}/gold.talp");
    let hyp = format!("{C}/hyp-short.talp");
    let e = fails(&["align", &gold, &hyp], 1);
    assert!(
        e.starts_with(&format!(
            "error: {hyp}: has 2 sentence(s) (lines), but the gold {gold} has 3 sentence(s) (lines): the files must pair sentence by sentence\n"
        )),
        "{e}"
    );
    // aer.py stops with an AssertionError on the same files
    let e = fails(&["align", "--compat", "aer.py", &gold, &hyp], 1);
    assert!(
        e.contains("(aer.py stops with an AssertionError here)"),
        "{e}"
    );
    // a hypothesis with one line too many, the last one empty, gets a hint saying so
    let e = fails(&["align", &format!("{T}/gold-two-linked.naacl"), &gold], 1);
    assert!(e.contains("has 3 sentence(s) (lines), but the gold"), "{e}");
}

#[test]
fn a_pharaoh_hypothesis_against_an_empty_gold_is_an_error() {
    let e = fails(&["align", &format!("{C}/hyp-empty.naacl"), GOLD], 1);
    assert!(
        e.contains("the gold has no sentence: there is nothing to score against"),
        "{e}"
    );
    let e = fails(
        &[
            "align",
            &format!("{T}/gold-no-links.pharaoh"),
            &format!("{C}/hyp.talp"),
        ],
        1,
    );
    assert!(
        e.contains(
            "the gold has 3 sentence(s) (lines) but no link: there is nothing to score against"
        ),
        "{e}"
    );
}

#[test]
fn a_naacl_hypothesis_beyond_the_gold_is_an_error_and_a_short_one_a_warning() {
    let hyp = format!("{T}/hyp-beyond.naacl");
    let e = fails(&["align", GOLD, &hyp], 1);
    assert!(
        e.contains(&format!(
            "error: {hyp}: has links in sentence 4, but the gold {GOLD} has 3 sentence(s) (its highest sentence number)"
        )),
        "{e}"
    );
    // NAACL cannot write a sentence without links: legal, but warned about and reported
    let hyp = format!("{T}/hyp-two-sentences.naacl");
    let v = json(&[GOLD, &hyp]);
    let w = v["warnings"].as_array().unwrap();
    assert!(
        w.iter().any(|w| w["position"] == hyp.as_str()
            && w["message"]
                .as_str()
                .unwrap()
                .starts_with("has no link in the last 1 sentence(s) of the gold")),
        "{w:?}"
    );
    assert_eq!(v["inputs"][0]["counts"]["sentences"], 3);
    assert_eq!(v["inputs"][1]["counts"]["sentences"], 3);
}

#[test]
fn sentences_settles_the_count_of_a_naacl_gold() {
    let gold = format!("{T}/gold-two-linked.naacl");
    let hyp = format!("{T}/hyp-three-lines.pharaoh");
    let e = fails(&["align", &gold, &hyp], 1);
    assert!(
        e.contains("has 3 sentence(s) (lines), but the gold")
            && e.contains("has 2 sentence(s) (its highest sentence number)")
            && e.contains("hint: NAACL cannot write sentences without links: if the gold's last 1 sentence(s) have none, give --sentences 3"),
        "{e}"
    );
    let v = json(&["--sentences", "3", &gold, &hyp]);
    assert_eq!(v["inputs"][0]["counts"]["sentences"], 3);
    assert_eq!(v["inputs"][1]["counts"]["a_and_s"], 2);
    assert!(v["signature"].as_str().unwrap().ends_with("|sentences:3"));
    // a count that contradicts the gold is an error too, and 0 a usage error
    let e = fails(&["align", "--sentences", "1", &gold, &hyp], 1);
    assert!(
        e.contains("has links in sentence 2, but there are 1 sentence(s) (--sentences)"),
        "{e}"
    );
    fails(&["align", "--sentences", "0", &gold, &hyp], 2);
}

#[test]
fn the_wa_eval_compat_scores_what_the_script_scores_and_warns() {
    // the WPT scorer has no notion of sentences: a short hypothesis is scored, as by the
    // script (byte for byte), with the pairing problem on stderr
    let hyp = format!("{C}/hyp-sentence1.naacl");
    let o = ok(&["align", "--compat", "wa_eval_align", GOLD, &hyp]);
    assert_eq!(stdout(&o), golden("hyp-sentence1.wa_eval.expected"));
    assert_stderr_has(&o, "has no link in the last 2 sentence(s) of the gold");
    let o = ok(&argv(&format!(
        "align --compat wa_eval_align {GOLD} {C}/hyp-empty.naacl"
    )));
    assert_eq!(stdout(&o), golden("hyp-empty.wa_eval.expected"));
    assert_stderr_has(&o, "(wa_eval_align.pl scores the links anyway)");
}

// ---- 2. compat defaults reproduce the named tool without extra flags

#[test]
fn wa_eval_compat_is_byte_identical_to_the_script() {
    for (gold, hyp, expected) in [
        (
            GOLD,
            "testdata/align/hyp-tagged.naacl",
            "hyp-tagged.wa_eval.expected",
        ),
        (
            "testdata/align-compat/gold-null.naacl",
            "testdata/align-compat/hyp-null.naacl",
            "hyp-null.wa_eval.expected",
        ),
    ] {
        // no --null include needed: the compat mode scores NULL links as the script does
        let o = ok(&["align", "-q", "--compat", "wa_eval_align", gold, hyp]);
        assert_eq!(stdout(&o), golden(expected), "{hyp}");
    }
    // an explicit --null exclude still wins (and gives other numbers)
    let o = ok(&argv(&format!(
        "align -q --compat wa_eval_align --null exclude {C}/gold-null.naacl {C}/hyp-null.naacl"
    )));
    assert_ne!(stdout(&o), golden("hyp-null.wa_eval.expected"));
}

#[test]
fn aer_py_compat_is_byte_identical_with_and_without_f_alpha() {
    let gold = format!("{C}/gold.talp");
    let hyp = format!("{C}/hyp.talp");
    let o = ok(&["align", "-q", "--compat", "aer.py", &gold, &hyp]);
    assert_eq!(stdout(&o), golden("hyp.aer.expected"));
    for (alpha, expected) in [
        ("0.5", "hyp.aer-f0.5.expected"),
        ("0.3", "hyp.aer-f0.3.expected"),
    ] {
        let o = ok(&argv(&format!(
            "align -q --compat aer.py --f-alpha {alpha} {gold} {hyp}"
        )));
        assert_eq!(stdout(&o), golden(expected), "--f-alpha {alpha}");
    }
    // where aer.py divides by zero it prints nothing: an error here
    let e = fails(
        &argv(&format!(
            "align --compat aer.py {gold} {C}/hyp-no-links.talp"
        )),
        1,
    );
    assert!(
        e.contains("aer.py stops with ZeroDivisionError here (the hypothesis has no link)"),
        "{e}"
    );
}

// ---- 3. input hygiene

#[test]
fn bom_and_crlf_give_the_numbers_of_the_lf_files_with_one_warning_per_file() {
    let lf = json(&[GOLD, "testdata/align/hyp.pharaoh"]);
    let gold = format!("{T}/gold-bom-crlf.naacl");
    let hyp = format!("{T}/hyp-crlf.pharaoh");
    let o = ok(&["align", "--format", "json", &gold, &hyp]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["inputs"][1]["counts"], lf["inputs"][1]["counts"]);
    assert_eq!(v["sections"], lf["sections"]);
    assert_eq!(v["inputs"][0]["counts"], lf["inputs"][0]["counts"]);
    let err = stderr(&o);
    for (path, what) in [(&gold, "byte-order mark and CR LF"), (&hyp, "CR LF")] {
        let lines: Vec<&str> = err
            .lines()
            .filter(|l| l.starts_with(&format!("warning: {path}")))
            .collect();
        assert_eq!(lines.len(), 1, "one warning for {path}:\n{err}");
        assert!(lines[0].contains(what), "{}", lines[0]);
        assert!(
            v["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|w| w["position"].as_str().unwrap().starts_with(path.as_str())),
            "{path} in the JSON warnings"
        );
    }
}

#[test]
fn binary_or_foreign_input_is_one_clear_error_and_at_most_a_screenful() {
    let e = fails(
        &["align", GOLD, "testdata/malformed-align/10-nul-bytes.naacl"],
        1,
    );
    let first = e.lines().next().unwrap();
    assert!(
        first
            .starts_with("error: testdata/malformed-align/10-nul-bytes.naacl:2:4: expected UTF-8 text, found a NUL byte: binary data, not a text file"),
        "{e}"
    );
    let e = fails(
        &[
            "align",
            "examples/gold.conllu",
            "testdata/align/hyp.pharaoh",
        ],
        1,
    );
    assert!(
        e.lines()
            .next()
            .unwrap()
            .starts_with("error: examples/gold.conllu:1:1: not an alignment file"),
        "{e}"
    );
    assert!(e.lines().count() <= 2, "{e}");
    let e = fails(
        &[
            "align",
            GOLD,
            "testdata/malformed-align/13-many-bad-lines.pharaoh",
        ],
        1,
    );
    assert!(e.lines().count() <= 24, "{e}");
    assert!(e.ends_with("… and 15 more problem(s)\n"), "{e}");
}

// ---- 4. nothing to measure: n/a, never 0 or 100

#[test]
fn no_sure_gold_link_and_no_hypothesis_link_is_not_applicable() {
    let gold = format!("{T}/gold-possible-only.naacl");
    let hyp = format!("{C}/hyp-no-links.talp");
    let v = json(&["-q", &gold, &hyp]);
    for k in ["precision", "recall", "AER", "F"] {
        assert!(
            common::cell(&v, "scores", 0, k)["value"].is_null(),
            "{k}: {v}"
        );
    }
    let text = stdout(&ok(&["align", "-q", "--wide", &gold, &hyp]));
    let name = format!("{} ", common::only_name(&hyp));
    let row = text.lines().find(|l| l.starts_with(&name)).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    // system, links, then P R AER F sure P/R possible P/R: only the possible recall
    // (0 of the 3 possible links found) has something to measure
    assert_eq!(cells[1], "0", "{row}");
    assert!(cells[2..9].iter().all(|c| *c == "n/a"), "{row}");
    assert_eq!(cells[9], "0.00", "{row}");
}

// ---- pts

const PTS: &str = "pts --gold-a examples/pts/gold.en.conllu --gold-b examples/pts/gold.de.conllu \
                   --sys-a examples/pts/parser.en.conllu --sys-b examples/pts/parser.de.conllu";

fn pts(gold_align: &str, sys_align: &str, extra: &[&str]) -> Output {
    let mut a = argv(PTS);
    a.extend_from_slice(&["--gold-align", gold_align, "--sys-align", sys_align]);
    a.extend_from_slice(extra);
    treeval(&a)
}

#[test]
fn pts_refuses_an_empty_or_short_system_alignment() {
    let gold = "examples/pts/gold.en-de.naacl";
    for (sys, found) in [
        (
            "testdata/align-compat/hyp-empty.naacl",
            "has 0 sentence(s) (lines)",
        ),
        (
            "testdata/align-compat/hyp-short.talp",
            "has 2 sentence(s) (lines)",
        ),
    ] {
        let o = pts(gold, sys, &[]);
        assert_eq!(o.status.code(), Some(1), "{sys}");
        assert!(stdout(&o).is_empty());
        let e = stderr(&o);
        assert!(
            e.starts_with(&format!("error: {sys}: {found}, but the gold {gold} has 3 sentence(s) (the parses examples/pts/gold.en.conllu and examples/pts/gold.de.conllu)")),
            "{e}"
        );
    }
    // a gold alignment that does not pair with the parses
    let o = pts(
        "testdata/align-compat/hyp-short.talp",
        "examples/pts/aligner.en-de.pharaoh",
        &[],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_has(&o, "has 2 sentence(s) (lines), but there are 3 (the parses");
    // system parses with fewer sentences than gold: the parse reader names both
    let p = "examples/pts";
    let o = treeval(&argv(&format!(
        "pts --gold-a {p}/gold.en.conllu --gold-b {p}/gold.de.conllu \
         --sys-a examples/gold.conllu --sys-b {p}/parser.de.conllu \
         --gold-align {gold} --sys-align {p}/aligner.en-de.pharaoh"
    )));
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).is_empty());
}

#[test]
fn pts_with_nothing_to_measure_in_the_alignment_says_n_a() {
    let o = pts(
        "testdata/align-trust/gold-possible-only.naacl",
        "testdata/align-compat/hyp-no-links.talp",
        &["-q", "--format", "json"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(
        common::cell(&v, "scores", 0, "AER")["value"].is_null(),
        "{v}"
    );
    assert!(
        common::cell(&v, "scores", 0, "PTS")["value"].is_null(),
        "{v}"
    );
    assert!(common::cell(&v, "scores", 0, "UAS_a")["value"].is_number());
    let o = pts(
        "testdata/align-trust/gold-possible-only.naacl",
        "testdata/align-compat/hyp-no-links.talp",
        &["-q", "--wide"],
    );
    let text = stdout(&o);
    let row = text
        .lines()
        .find(|l| l.starts_with("parser.en + parser.de + hyp-no-links "))
        .unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    // n/a alone, without the counts of its zero denominator
    assert_eq!(cells[cells.len() - 1], "n/a", "{row}");
    assert_eq!(cells[cells.len() - 2], "n/a", "{row}");
}

#[test]
fn pts_warns_about_a_naacl_alignment_without_links_at_the_end() {
    let o = pts(
        "examples/pts/gold.en-de.naacl",
        "testdata/align-trust/hyp-two-sentences.naacl",
        &["--format", "json"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_stderr_has(&o, "has no link in the last 1 sentence(s) of the gold");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(!v["warnings"].as_array().unwrap().is_empty());
}
