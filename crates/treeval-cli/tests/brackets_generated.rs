//! Generated trees (issue 31, point 3): systems without POS tags, with unbalanced
//! parentheses, without the outer wrapper, and all of these mixed, against one gold file
//! (testdata/brackets/generated, whose README gives the hand-checked counts). Every
//! reading decision is counted in the report: the system input's `reading` counts in
//! JSON, one note each in text.

mod common;
use common::{cell, counts, treeval, value};

const DIR: &str = "testdata/brackets/generated";

fn path(name: &str) -> String {
    format!("{DIR}/{name}.txt")
}

/// The JSON report of `brackets` on gold and `system`, and its stderr.
fn report(system: &str) -> (serde_json::Value, String) {
    let (g, s) = (path("gold"), path(system));
    let o = treeval(&["brackets", "--format", "json", &g, &s]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v = serde_json::from_slice(&o.stdout).unwrap();
    (v, String::from_utf8(o.stderr).unwrap())
}

/// Sentences, error, scored; matched, gold, system brackets; correct tags, words,
/// untagged words.
fn summary(v: &serde_json::Value) -> [Vec<u64>; 4] {
    let c = |m: &str| counts(cell(v, "all", 0, m));
    [
        [c("sentences"), c("error"), c("skipped")].concat(),
        c("recall"),
        c("precision"),
        c("tagging"),
    ]
}

/// The system input's reading counts, in a fixed order: untagged trees, untagged
/// words, deleted, unequal, unbalanced sentences, extra `)`, `(` left open, trees
/// without the gold's wrapper, with one the gold lacks.
fn reading(v: &serde_json::Value) -> [u64; 9] {
    let r = &v["inputs"][1]["counts"]["reading"];
    [
        "untagged_trees",
        "untagged_words",
        "untagged_deleted",
        "untagged_unpaired",
        "unbalanced_sentences",
        "extra_close_sentences",
        "unclosed_sentences",
        "wrapper_missing",
        "wrapper_extra",
    ]
    .map(|k| r[k].as_u64().unwrap_or_else(|| panic!("no {k} in {r}")))
}

fn notes(v: &serde_json::Value) -> Vec<String> {
    (v["notes"].as_array().unwrap().iter())
        .map(|n| n.as_str().unwrap().to_owned())
        .collect()
}

fn pct(v: &serde_json::Value, m: &str) -> Option<f64> {
    value(v, "all", 0, m).map(|x| (x * 10_000.0).round() / 100.0)
}

#[test]
fn words_without_tags_take_the_gold_words_deletion_decision() {
    let (v, _) = report("untagged");
    // the word error (sentence 5: 4 gold brackets, 3 words kept) is an empty parse
    let want = [vec![5, 1, 0], vec![18, 23], vec![18, 19], vec![0, 20, 20]];
    assert_eq!(summary(&v), want);
    assert_eq!(
        (pct(&v, "recall"), pct(&v, "F")),
        (Some(78.26), Some(85.71))
    );
    assert_eq!(value(&v, "all", 0, "tagging"), None, "no system tag: n/a");
    assert_eq!(reading(&v), [5, 27, 7, 1, 0, 0, 0, 5, 0]);
    let p = path("untagged");
    assert_eq!(
        notes(&v),
        [
            format!("{p}: system words without a POS tag: 27 (deleted as the equal gold word: 7; unequal: 1)"),
            format!("{p}: system trees without the gold's outer wrapper: 5 (with one the gold lacks: 0)"),
        ]
    );
    // a different word stays a word error
    let errors = &v["inputs"][1]["counts"]["errors"];
    assert_eq!(errors[0]["message"], "Words unmatch (left|leave)");
    assert_eq!(errors[0]["sentence"], 5);
}

/// A parser writes no `-NONE-` trace: its words stand on the gold words they equal
/// (a word diff), not on the gold word at the same position, which after the trace of
/// sentence 3 was `*-1` for `to`, `to` for `run`, ... (every word a length error). The
/// counts are those of `untagged.txt`, which writes the trace, less its deletion.
#[test]
fn words_without_tags_stand_on_their_gold_words_past_traces() {
    let (v, _) = report("notrace");
    let (w, _) = report("untagged");
    assert_eq!(summary(&v), summary(&w));
    assert_eq!(counts(cell(&v, "all", 0, "error")), [1]);
    // 26 untagged words, 6 deleted (`.` x5, `,`), 1 unequal (`leave`)
    assert_eq!(reading(&v), [5, 26, 6, 1, 0, 0, 0, 5, 0]);
}

#[test]
fn unbalanced_parentheses_are_error_sentences_listed_with_what_was_expected() {
    let (v, stderr) = report("unbalanced");
    // sentences 1, 2 and 4 are empty parses: 5 + 4 + 4 gold brackets, 6 + 3 + 3 words
    let want = [vec![5, 3, 0], vec![10, 23], vec![10, 10], vec![8, 20, 12]];
    assert_eq!(summary(&v), want);
    assert_eq!(reading(&v), [0, 0, 0, 0, 3, 2, 1, 5, 0]);
    let p = path("unbalanced");
    assert!(notes(&v).contains(&format!(
        "{p}: error sentences: unbalanced parentheses: 3 (extra ')': 2; '(' left open: 1)"
    )));
    // each one, with its position: none lost, grouped by what they say
    let w: Vec<&serde_json::Value> = (v["warnings"].as_array().unwrap().iter())
        .filter(|w| w["kind"] == "malformed_tree")
        .collect();
    assert_eq!(w.len(), 2, "{w:?}");
    assert_eq!(w[0]["position"], format!("{p}:1:83"));
    assert_eq!(
        w[0]["message"],
        "expected a ')' to close the '(' at column 1 (S …), found the end of the tree"
    );
    assert_eq!(w[1]["count"], 2);
    assert_eq!(
        w[1]["positions"],
        serde_json::json!([format!("{p}:2:57"), format!("{p}:4:68")])
    );
    assert_eq!(
        w[1]["message"],
        "expected '(' or the end of the tree, found an extra ')' (no '(' is open)"
    );
    assert!(stderr.contains(&format!(
        "warning: {p}:1:83: expected a ')' to close the '(' at column 1"
    )));
    let errors: Vec<u64> = (v["inputs"][1]["counts"]["errors"]
        .as_array()
        .unwrap()
        .iter())
    .map(|e| e["sentence"].as_u64().unwrap())
    .collect();
    assert_eq!(errors, [1, 2, 4]);
}

#[test]
fn a_missing_outer_wrapper_is_fine() {
    let (v, _) = report("nowrap");
    let want = [vec![5, 0, 0], vec![23, 23], vec![23, 23], vec![20, 20, 0]];
    assert_eq!(summary(&v), want);
    assert_eq!(reading(&v), [0, 0, 0, 0, 0, 0, 0, 4, 0]);
    // the gold against itself counts the same brackets
    let g = path("gold");
    let o = treeval(&["brackets", "--format", "json", &g, &g]);
    let same: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(summary(&same), want);
    assert!(same["inputs"][1]["counts"].get("reading").is_none());
    assert!(notes(&same).is_empty());
}

#[test]
fn mixed_output_counts_each_decision() {
    let (v, _) = report("mixed");
    // sentence 4 (unbalanced) is an empty parse: 4 gold brackets, 3 words
    let want = [vec![5, 1, 0], vec![18, 23], vec![18, 18], vec![5, 20, 14]];
    assert_eq!(summary(&v), want);
    let f = (pct(&v, "recall"), pct(&v, "precision"), pct(&v, "F"));
    assert_eq!(f, (Some(78.26), Some(100.0), Some(87.8)));
    // untagged words are in the words, never correct
    assert_eq!(pct(&v, "tagging"), Some(25.0));
    // EVALB's convention: the error sentence out of the scores (18 of 19, 5 of 17 tags)
    let (g, m) = (path("gold"), path("mixed"));
    let o = treeval(&[
        "brackets",
        "--format",
        "json",
        "--error-sentences",
        "excluded",
        &g,
        &m,
    ]);
    let x: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let want = [vec![5, 1, 0], vec![18, 19], vec![18, 18], vec![5, 17, 11]];
    assert_eq!(summary(&x), want);
    assert_eq!(pct(&x, "tagging"), Some(29.41));
    assert_eq!(reading(&v), [3, 19, 5, 0, 1, 1, 0, 3, 0]);
    assert_eq!(notes(&v).len(), 3);
    // the text report: one note per decision
    let o = treeval(&["brackets", "-q", &path("gold"), &path("mixed")]);
    let text = String::from_utf8(o.stdout).unwrap();
    for want in [
        "system words without a POS tag: 19",
        "error sentences: unbalanced parentheses: 1",
        "system trees without the gold's outer wrapper: 3",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
}

/// `--compat evalb` reads as EVALB: a word outside `(TAG word)` makes the tree an error
/// sentence, and no reading counts are made.
#[test]
fn compat_evalb_reads_words_in_tags_only() {
    let (g, s) = (path("gold"), path("untagged"));
    let o = treeval(&["brackets", "--compat", "evalb", &g, &s]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("Number of Error sentence  =      5"), "{out}");
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.starts_with(&format!(
            "1 : Malformed test tree ({s}:1:12: expected ')' after the word 'The' of (NP …)"
        )),
        "{err}"
    );
    // ROOT is a bracket to EVALB: the gold's wrapper is counted, (ROOT …) too
    let o = treeval(&["brackets", "--compat", "evalb", &g, &path("nowrap")]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("Number of Valid sentence  =      5"), "{out}");
    assert!(out.contains("Bracketing Recall         =  82.14"), "{out}");
}

/// Under `--align chars` a word without a tag takes the deletion decision of the gold word
/// it stands on, found by characters (both files' words diffed, the gold's deleted words
/// included): the untagged system scores as in the default mode, and the sentence whose
/// words differ (an error sentence there) is scored around its mismatch window.
#[test]
fn untagged_words_over_characters_take_the_gold_words_deletion() {
    let (g, s) = (path("gold"), path("untagged"));
    let o = treeval(&["brackets", "--align", "chars", "--format", "json", &g, &s]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let c: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let (w, _) = report("untagged");
    let reading = |v: &serde_json::Value, k: &str| v["inputs"][1]["counts"]["reading"][k].clone();
    for k in ["untagged_words", "untagged_deleted", "untagged_unpaired"] {
        assert_eq!(reading(&c, k), reading(&w, k), "{k}");
    }
    assert_eq!(reading(&c, "untagged_deleted"), 7);
    assert_eq!(counts(cell(&w, "all", 0, "error")), [1]);
    assert_eq!(counts(cell(&c, "all", 0, "error")), [0]);
    // the default mode's 18 of 19 (and the word error's 4 missed), and the sentence with
    // the other word: 4 of 4 more
    assert_eq!(counts(cell(&w, "all", 0, "recall")), [18, 23]);
    assert_eq!(counts(cell(&c, "all", 0, "recall")), [22, 23]);
    assert_eq!(counts(cell(&c, "all", 0, "precision")), [22, 23]);
    // no system word has a tag: tagging is n/a, as in the default mode
    assert_eq!(value(&c, "all", 0, "tagging"), None);
}
