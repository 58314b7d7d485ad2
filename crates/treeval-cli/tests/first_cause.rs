//! Messages report the first cause first (issue 38): a malformed line before the text
//! difference it leads to, a HEAD as it is written rather than as it was read, a line cut
//! by the end of the file as truncation; and `ud` refusing a cyclic tree says which
//! sentence and that `deps` scores it. Inputs: examples/ with one line changed.

mod common;

use common::{root, treeval};

/// examples/`file` with line `n` (1-based) changed by `f`, written to a scratch file.
fn changed(file: &str, n: usize, f: impl Fn(&str) -> String, name: &str) -> String {
    let text = std::fs::read_to_string(root().join("examples").join(file)).unwrap();
    let out: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == n { f(l) } else { l.to_owned() })
        .collect();
    let path = std::env::temp_dir().join(format!("treeval-cause-{}-{name}", std::process::id()));
    std::fs::write(&path, out.join("\n") + "\n").unwrap();
    path.to_string_lossy().into_owned()
}

fn stderr_of(args: &[&str]) -> String {
    let o = treeval(args);
    assert_eq!(o.status.code(), Some(1), "{args:?}");
    String::from_utf8(o.stderr).unwrap()
}

#[test]
fn ud_reports_a_nine_column_line_before_the_difference_it_causes() {
    // line 10 of sys.conllu is word 1 of sentence 2: drop its MISC column
    let sys = changed(
        "sys.conllu",
        10,
        |l| l.rsplit_once('\t').unwrap().0.to_owned(),
        "nine",
    );
    let err = stderr_of(&["ud", "examples/gold.conllu", &sys]);
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].starts_with(&format!(
            "error: {sys}:10:1: expected 10 tab-separated columns, found 9"
        )),
        "{err}"
    );
    // the empty FORM of the line read as nothing is not a second cause
    assert!(!err.contains("FORM is empty"), "{err}");
    let diff = lines
        .iter()
        .position(|l| l.contains("found a difference"))
        .unwrap();
    assert!(
        lines[diff + 1].contains("follows from the problem(s) above"),
        "{err}"
    );
}

#[test]
fn deps_reports_a_gold_head_x_as_written() {
    // line 11 of gold.conllu: word 2 of sentence 2, HEAD 3 written X
    let gold = changed(
        "gold.conllu",
        11,
        |l| {
            let mut f: Vec<&str> = l.split('\t').collect();
            f[6] = "X";
            f.join("\t")
        },
        "headx",
    );
    let err = stderr_of(&["deps", &gold, "examples/sys.conllu"]);
    assert!(
        err.starts_with(&format!(
            "error: {gold}:11:29: expected HEAD to be a non-negative integer or '_', found 'X'"
        )),
        "{err}"
    );
    assert!(!err.contains("found '_'"), "{err}");
}

#[test]
fn a_conllu_file_cut_in_a_line_is_called_truncated() {
    let text = std::fs::read(root().join("examples/sys.conllu")).unwrap();
    // cut in the middle of the last word line of the file (in its FEATS column)
    let cut = text.len() - 70;
    assert!(text[..cut].ends_with(b"PronTyp"));
    let path = std::env::temp_dir().join(format!("treeval-cause-{}-cut", std::process::id()));
    std::fs::write(&path, &text[..cut]).unwrap();
    let p = path.to_string_lossy();
    for cmd in ["ud", "deps"] {
        let err = stderr_of(&[cmd, "examples/gold.conllu", &p]);
        assert!(
            err.contains(&format!(
                "{p}:29:1: expected 10 tab-separated columns, found 6"
            )),
            "{err}"
        );
        assert!(
            err.contains("the file ends in the middle of this line"),
            "{err}"
        );
        assert!(!err.contains("a column is missing"), "{err}");
    }
}

#[test]
fn ud_refuses_a_cyclic_tree_naming_the_sentence_and_deps() {
    let args = [
        "ud",
        "testdata/ted/lexical-gold.conllu",
        "testdata/ted/cycle-parse.conllu",
    ];
    let err = stderr_of(&args);
    assert!(
        err.contains("expected a tree, found a cycle through words 5 [sentence 1]"),
        "{err}"
    );
    assert!(err.contains("conll18_ud_eval.py refuses"), "{err}");
    assert!(
        err.contains("`treeval deps` scores trees with cycles"),
        "{err}"
    );
    // and deps does
    let o = treeval(&[
        "deps",
        "testdata/ted/lexical-gold.conllu",
        "testdata/ted/cycle-parse.conllu",
    ]);
    assert_eq!(o.status.code(), Some(0));
}
