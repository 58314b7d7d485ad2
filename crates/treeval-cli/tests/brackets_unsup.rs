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
