//! Tree layout and the messages about it (issue 38): the layout is decided from the
//! whole file, not its first tree; a count that differs names `--layout` and the layout
//! each file was read with; a tree left open to the end of a file is blamed on the file
//! that has it (the gold too); `--compat evalb --layout multi-line` is refused, not
//! ignored; a '(' inside a word is pointed at in the default mode as in compat; `--by
//! label` with `LABELED 0` says what its cells mean.

mod common;
use common::{stderr, stdout, treeval_in};
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("treeval-layout-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Three `.mrg` trees across lines, each with its own words (hand-written).
const MRG: [&str; 3] = [
    "( (S\n    (NP-SBJ (DT The) (NN dog))\n    (VP (VBZ barks))\n    (. .)) )\n",
    "( (S\n    (NP-SBJ (PRP It))\n    (VP (VBD ran)\n      (ADVP (RB away)))\n    (. .)) )\n",
    "( (S\n    (NP-SBJ (NNS Cats))\n    (VP (VBP sleep))) )\n",
];

/// A tree's text on one line (its lines joined by single spaces).
fn one_line(tree: &str) -> String {
    tree.lines().map(str::trim).collect::<Vec<_>>().join(" ") + "\n"
}

fn run(dir: &std::path::Path, line: &str) -> std::process::Output {
    treeval_in(dir, &line.split_whitespace().collect::<Vec<_>>())
}

/// A `.mrg` file whose first tree (or any tree before the first that spans lines) sits
/// on one line is read across lines: the same trees as the file written all across lines
/// (it was read one tree per line: "expected 3 trees … found 8").
#[test]
fn the_first_tree_on_one_line_does_not_make_the_file_one_tree_per_line() {
    let dir = scratch("first");
    let gold: String = MRG.join("\n");
    std::fs::write(dir.join("gold.mrg"), &gold).unwrap();
    for k in 0..2 {
        let mut trees: Vec<String> = MRG.iter().map(|t| t.to_string()).collect();
        for t in trees.iter_mut().take(k + 1) {
            *t = one_line(t);
        }
        std::fs::write(dir.join("test.mrg"), trees.join("\n")).unwrap();
        let o = run(&dir, "brackets -q --format json gold.mrg test.mrg");
        assert_eq!(o.status.code(), Some(0), "{k}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        // the three trees, every bracket matched: by hand S NP VP, S NP VP ADVP, S NP VP
        // = 3 + 4 + 3 brackets (the wrapper and the pre-terminals not counted)
        let counts = common::cell(&v, "all", 0, "recall")["counts"].clone();
        assert_eq!(counts, serde_json::json!([10, 10]), "{k}: {v}");
        assert_eq!(common::value(&v, "all", 0, "F"), Some(1.0));
    }
}

/// A count that differs names --layout and how each file was read.
#[test]
fn a_count_that_differs_names_the_layout() {
    let dir = scratch("count");
    std::fs::write(dir.join("gold.mrg"), MRG.join("\n")).unwrap();
    std::fs::write(dir.join("test.mrg"), MRG[..2].join("\n")).unwrap();
    let o = run(&dir, "brackets gold.mrg test.mrg");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("expected 3 trees (as in gold.mrg), found 2"),
        "{e}"
    );
    assert!(
        e.contains(
            "both files were read as trees across lines; --layout line or --layout multi-line"
        ),
        "{e}"
    );
}

/// A tree of the gold left open swallows every tree after it; the error names the gold
/// file and the tree's line, whichever file is given first (it blamed the system: "the
/// system file has extra trees").
#[test]
fn a_damaged_gold_tree_is_blamed_on_the_gold() {
    let dir = scratch("damaged");
    let broken = MRG[1].replacen(")) )", ") )", 1);
    std::fs::write(dir.join("good.mrg"), MRG.join("\n")).unwrap();
    std::fs::write(dir.join("broken.mrg"), [MRG[0], &broken, MRG[2]].join("\n")).unwrap();
    // the broken tree starts on line 6 (5 lines of tree 1, a blank line)
    for line in [
        "brackets broken.mrg good.mrg",
        "brackets good.mrg broken.mrg",
    ] {
        let o = run(&dir, line);
        assert_eq!(o.status.code(), Some(1), "{line}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(
                "broken.mrg:6:1: expected a ')' closing this tree before the end of the file"
            ),
            "{line}: {e}"
        );
        assert!(
            !e.contains("extra trees") && !e.contains("ends early"),
            "{line}: {e}"
        );
    }
}

/// `--compat evalb` reads one tree per line: `--layout multi-line` beside it is refused
/// (it was ignored without a word).
#[test]
fn compat_refuses_a_multi_line_layout() {
    let dir = scratch("compat");
    std::fs::write(dir.join("g.txt"), one_line(MRG[0])).unwrap();
    let o = run(
        &dir,
        "brackets --compat evalb --layout multi-line g.txt g.txt",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--layout multi-line does not apply with --compat"));
    let o = run(&dir, "brackets --compat evalb --layout line g.txt g.txt");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A '(' inside a word (an unescaped parenthesis token) is pointed at, in the default
/// mode as in `--compat evalb` (it was reported at the tree's end, column 45).
#[test]
fn a_paren_inside_a_word_is_pointed_at() {
    let dir = scratch("paren");
    let gold = "(S (NP (DT the) (NN note)) (VP (VBD went)))\n";
    // column 23 is the '(' after `no`
    let test = "(S (NP (DT the) (NN no(te)) (VP (VBD went)))\n";
    std::fs::write(dir.join("g.txt"), gold).unwrap();
    std::fs::write(dir.join("t.txt"), test).unwrap();
    assert_eq!(&test[22..23], "(");
    for mode in ["", "--compat evalb"] {
        let o = run(&dir, &format!("brackets {mode} g.txt t.txt"));
        let e = stderr(&o);
        assert!(e.contains("t.txt:1:23: expected"), "{mode}: {e}");
        assert!(!e.contains("t.txt:1:45"), "{mode}: {e}");
    }
    let o = run(&dir, "brackets g.txt t.txt");
    assert!(stderr(&o).contains("found 'no(te'"), "{}", stderr(&o));
}

/// `--by label` with `LABELED 0`: the report says what a label's cells mean (a matched
/// system bracket under its gold bracket's label: precision 100 when every bracket
/// counted under it matched, however the system labelled it).
#[test]
fn by_label_without_labels_says_what_it_counts() {
    let dir = scratch("unlabeled");
    std::fs::write(dir.join("g.txt"), one_line(MRG[0])).unwrap();
    // every label wrong, every span right
    let test = one_line(MRG[0])
        .replace("(S", "(X")
        .replace("(NP-SBJ", "(Y")
        .replace("(VP", "(Z");
    std::fs::write(dir.join("t.txt"), test).unwrap();
    std::fs::write(
        dir.join("unlabeled.prm"),
        "LABELED 0\nDELETE_LABEL TOP\nDELETE_LABEL .\n",
    )
    .unwrap();
    let o = run(
        &dir,
        "brackets --prm unlabeled.prm --by label --format json g.txt t.txt",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let notes = v["notes"].to_string();
    assert!(
        notes.contains("by label with LABELED 0: spans alone match"),
        "{notes}"
    );
    assert_eq!(common::value(&v, "all", 0, "F"), Some(1.0));
    let o = run(&dir, "brackets --by label --format json g.txt t.txt");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(
        !v["notes"].to_string().contains("LABELED 0"),
        "only with LABELED 0"
    );
}
