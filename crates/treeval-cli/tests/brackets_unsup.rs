//! Unsupervised constituency parsing: `brackets --compat compare-trees` prints what
//! harvardnlp/compound-pcfg's compare_trees.py prints, and stops (exit 1, naming the
//! line) where the script stops.
//!
//! Every expected line below was printed by compare_trees.py itself (a copy in /tmp with
//! its unused torch imports removed, numpy 2.4.6) on the same files, and is restated here.

use std::path::PathBuf;

mod common;
use common::{stderr, stdout, treeval};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("treeval-unsup-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Write `gold` and `system` to a scratch folder and run `--compat compare-trees`.
fn compare(name: &str, gold: &str, system: &str) -> std::process::Output {
    let d = scratch(name);
    let (g, s) = (d.join("gold.txt"), d.join("system.txt"));
    std::fs::write(&g, gold).unwrap();
    std::fs::write(&s, system).unwrap();
    treeval(&[
        "brackets",
        "--compat",
        "compare-trees",
        g.to_str().unwrap(),
        s.to_str().unwrap(),
    ])
}

/// One-word, two-word and 151-word gold lines (skipped, sentence span only, skipped with
/// its malformed system line never read), unary chains over one word, two words and at
/// the top, a flat tree, spaces around a line: the script printed this line.
#[test]
fn compare_trees_edges_equal_the_scripts_line() {
    let o = treeval(&[
        "brackets",
        "--compat",
        "compare-trees",
        "testdata/brackets/unsup/edges-gold.txt",
        "testdata/brackets/unsup/edges-system.txt",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "Corpus F1: 53.33, Sentence F1: 65.31\n");
    assert_eq!(stderr(&o), "");
}

/// A PTB-style outer wrapper `( (S …))` is a unary chain at the top: the script drops only
/// the last span listed, so the sentence span stays in the gold set (66.67, not 100).
#[test]
fn compare_trees_keeps_the_sentence_span_under_a_wrapper_as_the_script_does() {
    let o = compare(
        "wrapper",
        "( (S (NP (DT a) (NN b)) (VB c)))\n",
        "(S (NP (DT a) (NN b)) (VB c))\n",
    );
    assert_eq!(stdout(&o), "Corpus F1: 66.67, Sentence F1: 66.67\n");
}

/// A gold file longer than the system file: the script scores up to the shorter file
/// (100.00 here); so does compat, with a warning naming both counts.
#[test]
fn compare_trees_scores_up_to_the_shorter_file_with_a_warning() {
    let o = compare(
        "shorter",
        "(S (NP (NN a) (NN b)) (NN c))\n(S (NN a) (NN b))\n",
        "(S (NP (NN a) (NN b)) (NN c))\n",
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "Corpus F1: 100.00, Sentence F1: 100.00\n");
    assert!(
        stderr(&o).contains("has 2 lines and") && stderr(&o).contains("has 1"),
        "{}",
        stderr(&o)
    );
}

/// Where the script stops (AssertionError, IndexError, ZeroDivisionError: each case was
/// run through it), compat prints nothing on stdout and exits 1 naming the file and line.
#[test]
fn compare_trees_stops_where_the_script_stops() {
    let three = "(S (NP (NN a) (NN b)) (NN c))\n";
    let cases = [
        // a blank gold line: AssertionError in get_actions
        (
            "(S (NN a) (NN b) (NN c))\n\n(S (NN a) (NN b) (NN c))\n",
            "(S (NP (NN a) (NN b)) (NN c))\n(S (NN a))\n(S (NN a) (NN b) (NN c))\n",
            "gold.txt:2: expected a tree, found an empty line",
        ),
        // leaves without a POS tag: AssertionError in get_tags_tokens_lowercase
        (
            three,
            "(S (NP a b) c)\n",
            "system.txt:1:4: expected a word under its tag, `(TAG word)`, found `(NP a b)`",
        ),
        // a parenthesis too many: IndexError in get_nonbinary_spans
        (
            three,
            "(S (NP (NN a) (NN b)) (NN c)))\n",
            "system.txt:1: expected a bracket to close",
        ),
        // two trees on a line: AssertionError (len(stack) == 1)
        (
            three,
            "(S (NN a)) (S (NN b) (NN c))\n",
            "system.txt:1: expected one tree on the line, found 2",
        ),
        // a parenthesis missing: AssertionError (len(stack) == 1)
        (
            three,
            "(S (NP (NN a) (NN b) (NN c))\n",
            "system.txt:1: expected ')' closing 1 open bracket(s)",
        ),
        // a parenthesis missing after the last word: IndexError in get_actions
        (
            three,
            "(S (NP (NN a) (NN b)) (NN c)\n",
            "system.txt:1:29: expected '(' or ')' after the word, found the end of the line",
        ),
        // no system span at all: ZeroDivisionError (corpus precision)
        (
            three,
            "(S (NN a) (NN b) (NN c))\n",
            "system.txt: no system span in any scored sentence",
        ),
        // no gold span at all: ZeroDivisionError (corpus recall)
        (
            "(S (NN a) (NN b) (NN c))\n",
            three,
            "system.txt: no gold span in any scored sentence",
        ),
    ];
    for (k, (gold, system, message)) in cases.into_iter().enumerate() {
        let o = compare(&format!("stop{k}"), gold, system);
        assert_eq!(o.status.code(), Some(1), "case {k}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "case {k}");
        assert!(stderr(&o).contains(message), "case {k}: {}", stderr(&o));
    }
}

/// The script compares one system file and has no options but its cut-off.
#[test]
fn compare_trees_refuses_what_the_script_cannot_do() {
    let (g, s) = (
        "testdata/brackets/unsup/edges-gold.txt",
        "testdata/brackets/unsup/edges-system.txt",
    );
    for args in [
        vec!["brackets", "--compat", "compare-trees", g, s, s],
        vec![
            "brackets",
            "--compat",
            "compare-trees",
            "--by",
            "label",
            g,
            s,
        ],
        vec![
            "brackets",
            "--compat",
            "compare-trees",
            "--max-len",
            "40",
            g,
            s,
        ],
    ] {
        let o = treeval(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "");
    }
}

const RAW_GOLD: &str = "testdata/brackets/unsup/raw-gold.mrg";
const SYSTEM: &str = "testdata/brackets/unsup/system.txt";

fn profile_json(extra: &[&str]) -> serde_json::Value {
    let args = [
        &["brackets", "--profile", "unsupervised", "--format", "json"][..],
        extra,
    ]
    .concat();
    let o = treeval(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// The profile on a raw treebank (traces, punctuation, `$`, a unary chain, a sentence of
/// one word after the filter) against a system over the filtered words, the gold itself
/// (its words filtered as the gold's), and the two baselines. Counted by hand:
/// sentence 1 keeps `sat the cat on 5` (gold spans [1,3) [3,5); the system adds [1,5)),
/// sentence 2 all 5 spans right, sentence 3 (`Yes .`) is one word and skipped, sentence 4
/// `a b c d e` (gold [0,2) once, [2,5), [3,5); the system [1,3), [3,5)).
#[test]
fn profile_counts_spans_over_the_filtered_words() {
    let v = profile_json(&["--baselines", RAW_GOLD, SYSTEM, RAW_GOLD]);
    let f = |system| common::counts(common::cell(&v, "scores", system, "F"));
    let value = |system, m| common::value(&v, "scores", system, m).unwrap();
    // [spans_correct, gold_spans, system_spans]
    assert_eq!(f(0), [8, 10, 10]);
    assert_eq!(f(1), [10, 10, 10]);
    assert_eq!(f(3), [7, 10, 11]);
    assert!((value(0, "sentence-F1") - (0.8 + 1.0 + 0.4) / 3.0).abs() < 1e-12);
    assert_eq!(value(1, "sentence-F1"), 1.0);
    assert!((value(3, "sentence-F1") - (0.4 + 0.8 + 2.0 / 3.0) / 3.0).abs() < 1e-12);
    for system in 0..4 {
        assert_eq!(
            common::counts(common::cell(&v, "scores", system, "short")),
            [1]
        );
        assert_eq!(
            common::counts(common::cell(&v, "scores", system, "sentences")),
            [3]
        );
    }
    let names: Vec<&str> = v["systems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names[2..], ["left-branching", "right-branching"]);
    // the skipped sentence is said in the notes
    let notes = v["notes"].to_string();
    assert!(
        notes.contains("1 gold sentences skipped: 1 of one word"),
        "{notes}"
    );
}

/// A system written without POS tags, as language models and unsupervised parsers write
/// trees (`(S sat (S (S the cat) (S on 5)))`: system-untagged.txt is system.txt with
/// every `(TAG word)` written `word`), gives the same spans and scores.
#[test]
fn profile_reads_systems_without_pos_tags() {
    let untagged = "testdata/brackets/unsup/system-untagged.txt";
    let v = profile_json(&[RAW_GOLD, SYSTEM, untagged]);
    for m in ["F", "sentence-F1", "precision", "recall", "errors"] {
        let (a, b) = (
            common::cell(&v, "scores", 0, m),
            common::cell(&v, "scores", 1, m),
        );
        assert_eq!(
            (&a["value"], &a["counts"]),
            (&b["value"], &b["counts"]),
            "{m}"
        );
    }
    assert_eq!(
        common::counts(common::cell(&v, "scores", 1, "F")),
        [8, 10, 10]
    );
}

/// A system tree with another number of words than the filtered gold is not scored: it
/// is counted, and a warning names the first; the other sentences are scored. By default
/// it is an empty parse (its 2 gold spans missed: 6 of 10; F1 0 in the mean); with
/// `--error-sentences excluded` it is left out (6 of 8).
#[test]
fn profile_counts_sentences_it_cannot_score() {
    let d = scratch("profile-errors");
    let sys = d.join("system.txt");
    let text = std::fs::read_to_string(common::root().join(SYSTEM)).unwrap();
    let text = text.replacen("(S (VBD sat) ", "(S (VBD sat) (NN extra) ", 1);
    std::fs::write(&sys, text).unwrap();
    let o = treeval(&[
        "brackets",
        "--profile",
        "unsupervised",
        "--format",
        "json",
        RAW_GOLD,
        sys.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 sentences not scored")
            && stderr(&o).contains("6 words, the filtered gold 5"),
        "{}",
        stderr(&o)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(common::counts(common::cell(&v, "scores", 0, "errors")), [1]);
    assert_eq!(
        common::counts(common::cell(&v, "scores", 0, "F")),
        [6, 10, 7]
    );
    assert!(
        stderr(&o).contains("scored as empty parses"),
        "{}",
        stderr(&o)
    );
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .contains("|error-sentences:missed"));
    let o = treeval(&[
        "brackets",
        "--profile",
        "unsupervised",
        "--error-sentences",
        "excluded",
        "--format",
        "json",
        RAW_GOLD,
        sys.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        common::counts(common::cell(&v, "scores", 0, "F")),
        [6, 8, 7]
    );
    // sentence F1 over the scored sentences, and the missed one with F1 0
    let f1 = |v: &serde_json::Value| -> Vec<f64> {
        let c = &common::cell(v, "scores", 0, "sentence-F1")["counts"];
        c.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let (excluded, missed) = (f1(&v), {
        let o = treeval(&[
            "brackets",
            "--profile",
            "unsupervised",
            "--format",
            "json",
            RAW_GOLD,
            sys.to_str().unwrap(),
        ]);
        f1(&serde_json::from_str(&stdout(&o)).unwrap())
    });
    // the columns: sentence F1 sum, sentences scored, sentences scored as missed
    assert_eq!(excluded[2], 0.0);
    assert_eq!(missed, [excluded[0], excluded[1], 1.0]);
}

/// Tests and intervals work as for every measure, on F and sentence-F1 (sentences are
/// the units).
#[test]
fn profile_tests_and_intervals() {
    let v = profile_json(&[
        "--baselines",
        "--test",
        "bootstrap",
        "--ci",
        "95",
        "--test-metrics",
        "F,sentence-F1",
        RAW_GOLD,
        SYSTEM,
    ]);
    let comparisons = v["comparisons"].as_array().unwrap();
    // 3 systems: 3 pairs per measure
    assert_eq!(comparisons.len(), 6, "{comparisons:?}");
    let cell = common::cell(&v, "scores", 0, "sentence-F1");
    let (lo, hi) = (
        cell["ci"][0].as_f64().unwrap(),
        cell["ci"][1].as_f64().unwrap(),
    );
    let x = cell["value"].as_f64().unwrap();
    assert!(lo <= x && x <= hi && lo < hi, "{cell}");
}

/// What the profile does not take is a usage error, and so is --baselines alone; trees
/// that do not pair up are an evaluation error.
#[test]
fn profile_refuses_what_it_does_not_do() {
    for args in [
        vec!["brackets", "--baselines", RAW_GOLD, SYSTEM],
        vec![
            "brackets",
            "--profile",
            "unsupervised",
            "--by",
            "label",
            RAW_GOLD,
            SYSTEM,
        ],
        vec![
            "brackets",
            "--profile",
            "unsupervised",
            "--careful",
            RAW_GOLD,
            SYSTEM,
        ],
        vec![
            "brackets",
            "--profile",
            "unsupervised",
            "--where",
            "length=3+",
            RAW_GOLD,
            SYSTEM,
        ],
        vec![
            "brackets",
            "--profile",
            "unsupervised",
            "--compat",
            "evalb",
            RAW_GOLD,
            SYSTEM,
        ],
    ] {
        let o = treeval(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
    let o = treeval(&[
        "brackets",
        "--profile",
        "unsupervised",
        RAW_GOLD,
        "testdata/brackets/unsup/edges-system.txt",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("9 trees, and the gold"),
        "{}",
        stderr(&o)
    );
}

/// --errors lists the missed and extra spans behind the counts (missed = gold − correct,
/// extra = system − correct), --by length sums to the scores, --per-sentence writes one
/// record per tree and system with the profile's counts.
#[test]
fn profile_errors_by_length_and_per_sentence_add_up() {
    let d = scratch("profile-features");
    let ps = d.join("sentences.jsonl");
    let v = profile_json(&[
        "--baselines",
        "--errors",
        "--by",
        "length",
        "--per-sentence",
        ps.to_str().unwrap(),
        RAW_GOLD,
        SYSTEM,
    ]);
    let listings = v["listings"].as_array().unwrap();
    assert_eq!(listings.len(), 3);
    for (k, l) in listings.iter().enumerate() {
        let [correct, gold, system] = common::counts(common::cell(&v, "scores", k as u64, "F"))[..]
        else {
            panic!()
        };
        let kind = |name: &str| {
            l["kinds"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["kind"] == name)
                .map_or(0, |x| x["count"].as_u64().unwrap())
        };
        assert_eq!(kind("missed gold span"), gold - correct, "{l}");
        assert_eq!(kind("extra system span"), system - correct, "{l}");
    }
    // system 0: sentence 1's [2, 5] `the cat on 5` is its one extra span there
    assert_eq!(
        listings[0]["rows"][0],
        serde_json::json!(["1", "2-5", "the cat on 5", "extra system span"])
    );
    // by length: every sentence is in 1-10
    let f = common::keyed_cell(&v, "by:length", 0, "1-10", "F");
    assert_eq!(common::counts(f), [8, 10, 10]);
    let text = std::fs::read_to_string(&ps).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 4 * 3);
    assert_eq!(
        common::per_sentence_sum(&text, "/counts/spans_correct"),
        8 + 2 + 7
    );
}
