//! `treeval brackets` can be trusted: EVALB's own output where `--compat evalb` promises
//! it (golden files in testdata/peer-expected/evalb, made by EVALB itself), and no
//! silently wrong number otherwise: tree counts that do not pair up, files that are not
//! trees, BOM and CR LF, sentences that are not scored, figures with nothing to measure,
//! judgments about sentences that do not exist.

use std::path::Path;
use std::process::Output;

mod common;
use common::{outcome, root, treeval, treeval_in};

fn golden(name: &str) -> (String, String) {
    let d = root().join("testdata/peer-expected/evalb");
    let read = |ext: &str| {
        std::fs::read_to_string(d.join(format!("{name}.{ext}")))
            .unwrap_or_else(|e| panic!("{name}.{ext}: {e}"))
    };
    (read("out"), read("err"))
}

fn case(name: &str) -> (String, String) {
    (
        format!("testdata/brackets/{name}/gold.txt"),
        format!("testdata/brackets/{name}/test.txt"),
    )
}

/// `--compat evalb -q` prints what EVALB printed on the same files, stdout and stderr,
/// byte for byte: QUOTE_LABEL (new.prm / nk.prm, given by their built-in names), test
/// files with fewer or more lines, an empty or blank test file, a skipped sentence, no
/// brackets at all (EVALB's `-nan`), EVALB's parameter-file messages, CR LF.
#[test]
fn compat_evalb_equals_evalbs_own_output() {
    let mut cases: Vec<(&str, Vec<String>)> = Vec::new();
    let (g, t) = case("quote-label");
    cases.push((
        "quote-label.nk",
        vec!["--prm".into(), "nk.prm".into(), g.clone(), t.clone()],
    ));
    cases.push(("quote-label.COLLINS", vec![g, t]));
    for name in [
        "fewer-test-lines",
        "more-test-lines",
        "empty-test",
        "blank-test",
        "skipped-blank",
        "no-brackets",
        "all-zero",
    ] {
        let (g, t) = case(name);
        cases.push((
            match name {
                "fewer-test-lines" => "fewer-test-lines.COLLINS",
                "more-test-lines" => "more-test-lines.COLLINS",
                "empty-test" => "empty-test.COLLINS",
                "blank-test" => "blank-test.COLLINS",
                "skipped-blank" => "skipped-blank.COLLINS",
                "no-brackets" => "no-brackets.COLLINS",
                _ => "all-zero.COLLINS",
            },
            vec!["--prm".into(), "COLLINS.prm".into(), g, t],
        ));
    }
    let (g, _) = case("bom-crlf");
    for t in ["test-crlf.txt", "test.txt"] {
        // EVALB read the CR LF file; the same file with a BOM gives the same output
        cases.push((
            "bom-crlf.COLLINS",
            vec![g.clone(), format!("testdata/brackets/bom-crlf/{t}")],
        ));
    }
    let (g, t) = case("prm-messages");
    cases.push((
        "prm-messages.odd",
        vec![
            "--prm".into(),
            "testdata/brackets/prm-messages/odd.prm".into(),
            g,
            t,
        ],
    ));
    for (name, args) in cases {
        let mut a = vec!["brackets", "--compat", "evalb", "-q"];
        a.extend(args.iter().map(String::as_str));
        let o = treeval(&a);
        let (out, err) = golden(name);
        assert_eq!(String::from_utf8_lossy(&o.stdout), out, "{name}: stdout");
        assert_eq!(String::from_utf8_lossy(&o.stderr), err, "{name}: stderr");
        assert_eq!(o.status.code(), Some(0), "{name}");
    }
    // MAX_ERROR: EVALB stops without its summary, exit status 1; treeval adds one line
    let (g, t) = case("max-error");
    let o = treeval(&["brackets", "--compat", "evalb", "-q", &g, &t]);
    let (out, err) = golden("max-error.COLLINS");
    assert_eq!(String::from_utf8_lossy(&o.stdout), out);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.starts_with(&err), "{stderr}");
    assert!(stderr[err.len()..].starts_with("error: testdata/brackets/max-error/test.txt: stopped at sentence 14: more than MAX_ERROR 10 errors"), "{stderr}");
    assert_eq!(o.status.code(), Some(1));
}

/// DEBUG 1 and 2 in the parameter file: EVALB's per-sentence dump (terminal and bracket
/// arrays) and, with 2, every label read, misquote put back, bracket pair compared and
/// unmatched or crossing bracket, byte for byte (UTF-8 words padded by bytes as C does),
/// including the partial record of the sentence EVALB stops in and of a gold line
/// without a test line.
#[test]
fn compat_evalb_reproduces_the_debug_dump() {
    let (g, t) = case("debug");
    let (qg, qt) = case("quote-label");
    let (fg, ft) = case("fewer-test-lines");
    let (mg, mt) = case("max-error");
    let prm = |name: &str| format!("testdata/brackets/debug/{name}.prm");
    let cases = [
        ("debug.collins-debug1", prm("collins-debug1"), &g, &t, 0),
        ("debug.collins-debug2", prm("collins-debug2"), &g, &t, 0),
        ("quote-label.new-debug2", prm("new-debug2"), &qg, &qt, 0),
        (
            "fewer-test-lines.collins-debug2",
            prm("collins-debug2"),
            &fg,
            &ft,
            0,
        ),
        (
            "max-error.collins-debug2",
            prm("collins-debug2"),
            &mg,
            &mt,
            1,
        ),
    ];
    for (name, prm, g, t, code) in cases {
        let o = treeval(&["brackets", "--compat", "evalb", "-q", "--prm", &prm, g, t]);
        let (out, err) = golden(name);
        assert_eq!(String::from_utf8_lossy(&o.stdout), out, "{name}: stdout");
        assert!(
            String::from_utf8_lossy(&o.stderr).starts_with(&err),
            "{name}: stderr {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(o.status.code(), Some(code), "{name}");
    }
    // without --compat the dump is not printed, and a warning says where it is
    let o = treeval(&["brackets", "--prm", &prm("collins-debug2"), &g, &t]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "DEBUG 2 asks for EVALB's per-sentence debug dump, printed with --compat evalb only"
        ),
        "{err}"
    );
    assert!(!String::from_utf8_lossy(&o.stdout).contains("-<1>---"));
}

/// `--prm COLLINS.prm` (the README's example) works without the file: COLLINS.prm,
/// new.prm and nk.prm are built in; a file of that name, when there is one, wins.
#[test]
fn prm_names_fall_back_to_the_built_in_files() {
    let (g, t) = case("debug");
    let sig = |o: &Output| {
        assert!(o.status.success(), "{}", outcome(o));
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .next()
            .unwrap()
            .to_owned()
    };
    let o = treeval(&["brackets", "--prm", "COLLINS.prm", &g, &t]);
    assert!(sig(&o).contains("|prm:COLLINS.prm (built in)|labeled:1|"));
    let built_in = String::from_utf8(o.stdout).unwrap();
    let default = String::from_utf8(treeval(&["brackets", &g, &t]).stdout).unwrap();
    assert_eq!(built_in, default);
    let dir = std::env::temp_dir().join(format!("treeval-prm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("COLLINS.prm"), "LABELED 0\n").unwrap();
    let (ga, ta) = (root().join(&g), root().join(&t));
    let o = treeval_in(
        &dir,
        &[
            "brackets",
            "--prm",
            "COLLINS.prm",
            ga.to_str().unwrap(),
            ta.to_str().unwrap(),
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        sig(&o).contains("|prm:COLLINS.prm|labeled:0|"),
        "{}",
        sig(&o)
    );
    let o = treeval(&["brackets", "--prm", "no-such.prm", &g, &t]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("hint: built in (used when no such file exists): COLLINS.prm, new.prm, nk.prm"));
    let h = String::from_utf8(treeval(&["brackets", "--help"]).stdout).unwrap();
    assert!(h.contains("COLLINS.prm, new.prm and nk.prm are built in"));
    assert!(h.contains("QUOTE_LABEL"));
}

/// Tree counts that do not pair up are errors naming both counts and both paths (exit
/// 1), as in `deps`; so are an empty gold file and a test file without a word.
#[test]
fn tree_counts_must_pair_up() {
    for name in [
        "fewer-test-lines",
        "more-test-lines",
        "empty-test",
        "blank-test",
    ] {
        let (g, t) = case(name);
        let o = treeval(&["brackets", &g, &t]);
        insta::assert_snapshot!(format!("pairing-{name}"), outcome(&o));
        assert_eq!(o.status.code(), Some(1), "{name}");
        assert!(o.stdout.is_empty(), "{name}: no report");
    }
    // the gold file is empty
    let (g, t) = case("empty-test");
    let o = treeval(&["brackets", &t, &g]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("error: testdata/brackets/empty-test/test.txt:1:1: expected bracketed trees with words in the gold file, found none"),
        "{err}"
    );
    // several test files: each one that does not pair up is named
    let (g, t) = case("fewer-test-lines");
    let (_, t2) = case("empty-test");
    let o = treeval(&["brackets", &g, &t, &g, &t2]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("fewer-test-lines/test.txt:2:1: expected 3 trees (as in testdata/brackets/fewer-test-lines/gold.txt), found 2"), "{err}");
    assert!(err.contains("empty-test/test.txt:1:1: expected 3 trees (as in testdata/brackets/fewer-test-lines/gold.txt), found 0"), "{err}");
    assert_eq!(o.status.code(), Some(1));
}

/// A skipped sentence (a blank test line) is counted, shown, and warned about on stderr
/// and in the JSON warnings: by default it is an empty parse, its gold brackets missed
/// (by hand: sentence 2 has S NP VP PP NP = 5 brackets; 1 and 3 match 3 + 3, so recall
/// 6 of 11); `--error-sentences excluded` leaves them out of the scores (6 of 6).
#[test]
fn skipped_sentences_are_counted_and_warned_about() {
    let (g, t) = case("skipped-blank");
    let o = treeval(&["brackets", &g, &t]);
    insta::assert_snapshot!("skipped-blank", outcome(&o));
    assert_eq!(o.status.code(), Some(0));
    let o = treeval(&["brackets", "-q", "--format", "json", &g, &t]);
    assert!(o.stderr.is_empty(), "-q keeps stderr quiet");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(common::value(&v, "all", 0, "skipped"), Some(1.0));
    assert_eq!(common::value(&v, "all", 0, "sentences"), Some(3.0));
    let w = v["warnings"].as_array().unwrap();
    assert!(
        w.iter().any(|w| w["message"]
            .as_str()
            .unwrap()
            .starts_with("1 of 3 sentences are scored as empty parses: 1 skipped")),
        "{w:?}"
    );
    assert_eq!(
        common::counts(common::cell(&v, "all", 0, "recall")),
        [6, 11]
    );
    assert_eq!(common::value(&v, "all", 0, "missed"), Some(1.0));
    let o = treeval(&[
        "brackets",
        "-q",
        "--format",
        "json",
        "--error-sentences",
        "excluded",
        &g,
        &t,
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(common::counts(common::cell(&v, "all", 0, "recall")), [6, 6]);
    assert_eq!(common::value(&v, "all", 0, "missed"), Some(0.0));
}

/// A figure with nothing to measure is n/a in text and null in JSON, never 0 or 100.
#[test]
fn nothing_to_measure_is_not_applicable() {
    let (g, t) = case("no-brackets");
    let o = treeval(&["brackets", "--wide", &g, &t]);
    let text = String::from_utf8_lossy(&o.stdout);
    // the rows of both sections: recall, precision and F (after the five sentence counts)
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.starts_with(&format!("{} ", common::only_name(&t))))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in rows {
        assert_eq!(row[6..9], ["n/a", "n/a", "n/a"], "{row:?}");
    }
    let o = treeval(&["brackets", "--format", "json", &g, &t]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for k in ["recall", "precision", "F"] {
        assert!(common::value(&v, "all", 0, k).is_none(), "{k}");
        assert!(common::value(&v, "cutoff", 0, k).is_none(), "cutoff {k}");
    }
    // tags are still measured
    assert_eq!(common::value(&v, "all", 0, "tagging"), Some(1.0));
    // nothing scored at all: every figure is n/a
    let (g, t) = case("all-zero");
    let v: serde_json::Value =
        serde_json::from_slice(&treeval(&["brackets", "--format", "json", &g, &t]).stdout).unwrap();
    assert_eq!(
        common::value(&v, "all", 0, "F"),
        Some(0.0),
        "nothing matched: F is 0, not n/a"
    );
}

/// A BOM and CR LF line ends: the same numbers as the LF file, one warning each naming
/// the file (stderr and JSON).
#[test]
fn bom_and_crlf_give_the_numbers_of_the_lf_file() {
    let d = "testdata/brackets/bom-crlf";
    let json = |t: &str| -> serde_json::Value {
        let o = treeval(&[
            "brackets",
            "--format",
            "json",
            &format!("{d}/gold.txt"),
            &format!("{d}/{t}"),
        ]);
        assert!(o.status.success(), "{}", outcome(&o));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let (lf, bom) = (json("test-lf.txt"), json("test.txt"));
    // every section (all sentences, up to the cut-off), every cell
    assert!(
        lf["sections"].as_array().is_some_and(|s| s.len() == 2),
        "{lf}"
    );
    assert_eq!(lf["sections"], bom["sections"]);
    assert!(lf["warnings"].as_array().unwrap().is_empty());
    let w: Vec<String> = bom["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            format!(
                "{}: {}",
                w["position"].as_str().unwrap(),
                w["message"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        w,
        [
            "testdata/brackets/bom-crlf/test.txt:1:1: expected text to start right away, found a UTF-8 byte-order mark (ignored)",
            "testdata/brackets/bom-crlf/test.txt:1:1: expected lines to end in LF, found CR LF on 3 line(s) (CRs ignored)"
        ]
    );
    let o = treeval(&[
        "brackets",
        &format!("{d}/gold.txt"),
        &format!("{d}/test.txt"),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.matches("byte-order mark").count(), 1, "{err}");
    assert_eq!(err.matches("CR LF").count(), 1, "{err}");
    // the gold file's warnings are given once, however many test files
    let o = treeval(&[
        "brackets",
        &format!("{d}/test.txt"),
        &format!("{d}/test-lf.txt"),
        &format!("{d}/test-lf.txt"),
    ]);
    assert_eq!(
        String::from_utf8_lossy(&o.stderr)
            .matches("byte-order mark")
            .count(),
        1
    );
}

/// A file that is not bracketed trees: the first line says what it looks like.
#[test]
fn files_that_are_not_trees_say_what_they_look_like() {
    let (g, _) = case("skipped-blank");
    let first = |o: &Output| {
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let o = treeval(&["brackets", &g, "examples/gold.conllu"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        first(&o).starts_with("error: examples/gold.conllu:1:1: expected bracketed trees, found a file that looks like CoNLL-U"),
        "{}",
        first(&o)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("`treeval deps` or `treeval ud`"));
    let bin = std::env::temp_dir().join(format!("treeval-bin-{}", std::process::id()));
    let mut bytes = vec![0x7f, b'E', b'L', b'F', 2, 1, 1, 0];
    bytes.extend((0..4000u32).map(|i| (i * 7 % 256) as u8));
    std::fs::write(&bin, &bytes).unwrap();
    let o = treeval(&["brackets", bin.to_str().unwrap(), &g]);
    let _ = std::fs::remove_file(&bin);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        first(&o)
            .contains(":1:8: expected UTF-8 text, found a NUL byte: binary data, not a text file"),
        "{}",
        first(&o)
    );
    assert!(
        String::from_utf8_lossy(&o.stderr).lines().count() <= 3,
        "one error, not a screenful"
    );
}

/// Many error sentences (more than EVALB's MAX_ERROR): every sentence is scored, one
/// warning gives their number and the first of them, `--errors` lists every one with its
/// line; --compat evalb prints every error line, as EVALB. A file whose every sentence is
/// an error sentence scores nothing: exit 1, with the reason.
#[test]
fn error_sentences_are_counted_in_one_warning_and_listed_by_errors() {
    let dir = std::env::temp_dir().join(format!("treeval-many-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gold: String = (0..100)
        .map(|_| "(S (NP (NN dog)) (VP (VBZ barks)))\n(S (NP (NN it)) (VP (VBZ is)))\n")
        .collect();
    let test: String = (0..100)
        .map(|_| "(S (NP (NN cat)) (VP (VBZ barks)))\n(S (NP (NN it)) (VP (VBZ is)))\n")
        .collect();
    std::fs::write(dir.join("g"), &gold).unwrap();
    std::fs::write(dir.join("t"), &test).unwrap();
    let o = treeval_in(&dir, &["brackets", "g", "t"]);
    assert!(o.status.success(), "{}", outcome(&o));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(err.lines().count(), 2, "one warning and its hint: {err}");
    assert!(err.starts_with("warning: t: 100 of 200 sentences are scored as empty parses: 100 error sentence(s) (EVALB status 1: a different number of words, a different word, or a malformed tree; sentences 1, 3, 5, 7, 9, …)\n"), "{err}");
    let o = treeval_in(
        &dir,
        &["brackets", "-q", "--errors", "--format", "json", "g", "t"],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let listing = v["listings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "error-sentences")
        .unwrap();
    let rows = listing["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 100);
    assert_eq!(
        rows[99],
        serde_json::json!([
            "199",
            "199",
            "Words unmatch (dog|cat)",
            "error sentence, scored as missed"
        ])
    );
    let value = |m: &str| common::value(&v, "all", 0, m);
    let counts = (value("sentences"), value("error"), value("scored"));
    assert_eq!(counts, (Some(200.0), Some(100.0), Some(100.0)));
    let o = treeval_in(
        &dir,
        &["brackets", "--compat", "evalb", "--prm", "nk.prm", "g", "t"],
    );
    let compat_err = String::from_utf8_lossy(&o.stderr).into_owned();
    // --compat evalb prints every error line, as EVALB
    assert_eq!(compat_err.lines().count(), 100);
    // and stops after MAX_ERROR (COLLINS.prm: 10), as EVALB: no summary, exit 1
    let o = treeval_in(&dir, &["brackets", "--compat", "evalb", "g", "t"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("=== Summary ==="));
    // every sentence an error sentence: nothing is scored
    let only = |text: &str| {
        text.lines()
            .step_by(2)
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    };
    std::fs::write(dir.join("g1"), only(&gold)).unwrap();
    std::fs::write(dir.join("t1"), only(&test)).unwrap();
    let o = treeval_in(&dir, &["brackets", "-q", "g1", "t1"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(o.status.code(), Some(1), "{}", outcome(&o));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with(
            "error: nothing is scored: every sentence of t1 is an error sentence (100: "
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "(100 gold trees read)\n  hint: is it the parser's output for this gold file?"
        ),
        "{err}"
    );
}

/// `--judgments`: a judgment about a sentence the gold file does not have is an error
/// with its path and line; one that fits no bracket is a warning.
#[test]
fn judgments_must_name_existing_sentences() {
    let d = "testdata/brackets/careful-paper";
    let j = std::env::temp_dir().join(format!("treeval-judg-{}.tsv", std::process::id()));
    std::fs::write(
        &j,
        "# sentence\tstart\tend\tjudgment\n1\t0\t2\tx\taccept\n9\t0\t2\tx\treject\n",
    )
    .unwrap();
    let run = |j: &Path| {
        treeval(&[
            "brackets",
            "--careful",
            "--judgments",
            j.to_str().unwrap(),
            &format!("{d}/gold.txt"),
            &format!("{d}/test.txt"),
        ])
    };
    let o = run(&j);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with(&format!(
            "error: {}:3:1: expected a sentence number from 1 to 2 (the trees of {d}/gold.txt), found 9",
            j.display()
        )),
        "{err}"
    );
    std::fs::write(&j, "1\t0\t1\tx\taccept\n1\t0\t1\tx\treject\n").unwrap();
    let o = run(&j);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            ":2:1: expected one judgment per bracket, found 'reject' here and 'accept' on line 1"
        ),
        "{err}"
    );
    std::fs::write(&j, "2\t5\t6\tx\treject\n").unwrap();
    let o = run(&j);
    let _ = std::fs::remove_file(&j);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("1 judgment(s) fit no bracket of the parses (lines 1): they were not used"),
        "{err}"
    );
}

/// `--careful` with words that differ after its preparation (nk.prm puts a misquote back
/// that the careful preparation removes on one side only): the sentence is left out and
/// reported, instead of comparing brackets over different words.
#[test]
fn careful_leaves_out_sentences_whose_words_differ() {
    let (g, t) = case("quote-label");
    let out = std::env::temp_dir().join(format!("treeval-export-{}.tsv", std::process::id()));
    let o = treeval(&[
        "brackets",
        "--prm",
        "nk.prm",
        "--careful",
        "--export-for-judging",
        out.to_str().unwrap(),
        &g,
        &t,
    ]);
    let _ = std::fs::remove_file(&out);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("5 scored sentence(s) left out of the careful evaluation: gold and test keep different numbers of words after its preparation (first: sentence 1, 2|3)"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&o.stdout)
        .contains("careful evaluation: 5 scored sentence(s) left out"));
}
