//! Trust in `ud`, `relations` and the CoNLL readers: files the reference scorers accept
//! are scored as they score them, compat modes reproduce the tools without extra flags,
//! nothing to measure is `n/a`, BOM and CR LF give the LF numbers with one warning per
//! file, and a binary or bracketed file is named for what it is in a screenful.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{argv, pts_inputs, root, stderr, treeval, treeval_in};

fn stdout_ok(o: &Output, what: &str) -> String {
    assert!(
        o.status.success(),
        "{what} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

const T: &str = "testdata/ud/trust";

fn expected(name: &str) -> String {
    std::fs::read_to_string(root().join(T).join("expected").join(name)).unwrap()
}

fn ud(extra: &[&str], sys: &str) -> Output {
    let g = format!("{T}/gold.conllu");
    let s = format!("{T}/{sys}.conllu");
    let mut a = vec!["ud"];
    a.extend_from_slice(extra);
    a.extend_from_slice(&[&g, &s]);
    treeval(&a)
}

#[test]
fn ids_and_heads_are_read_as_python_ints_and_multiword_token_lines_as_its_words_with_compat_conll18(
) {
    // 01, ' 2', +2, 00, -0, 0_1, fullwidth and Arabic-Indic digits, a range 03-004 whose
    // words have the IDs x and 3.1: conll18_ud_eval.py reads them all (expected outputs
    // are its own, byte for byte)
    let sys = "sys-python-ints";
    for (flags, name) in [
        (&["--compat", "conll18"][..], "conll18.txt"),
        (&["--compat", "conll18", "-v"][..], "conll18.v.txt"),
        (&["--compat", "conll18-counts"][..], "conll18.c.txt"),
    ] {
        let o = ud(flags, sys);
        assert_eq!(
            stdout_ok(&o, sys),
            expected(&format!("{sys}.{name}")),
            "{flags:?}"
        );
    }
    // without --compat the CoNLL-U rules hold: an ID with a leading zero is an error,
    // with a hint
    let o = ud(&[], sys);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("expected ID 1, found '01'") && err.contains("no leading zeros"),
        "{err}"
    );
}

#[test]
fn compat_udeval_reads_as_udeval_skipping_empty_nodes_among_a_tokens_words() {
    // zero-padded IDs and HEADs, and empty nodes among (and before) the words of
    // multiword tokens: udeval skips them and scores the file (expected outputs are its
    // own, byte for byte); conll18_ud_eval.py takes the node's line as the token's second
    // word, so the next line ('x', a word of its own there) is no ID
    let sys = "sys-udeval-ids";
    for (flags, name) in [
        (&["--compat", "udeval"][..], "udeval.txt"),
        (&["--compat", "udeval", "-v"][..], "udeval.v.txt"),
        (&["--compat", "udeval-counts"][..], "udeval.c.txt"),
    ] {
        let o = ud(flags, sys);
        assert_eq!(
            stdout_ok(&o, sys),
            expected(&format!("{sys}.{name}")),
            "{flags:?}"
        );
    }
    let o = ud(&["--compat", "conll18"], sys);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("sys-udeval-ids.conllu:8:1: expected ID 5, found 'x'"),
        "{err}"
    );
}

#[test]
fn a_reversed_range_is_a_token_without_words_with_compat_as_the_scripts_read_it() {
    // gold-reversed-ranges.conllu has two reversed ranges (3-1 'at' before a word, 4-3 '.'
    // after a sentence's last word), sys-reversed-ranges.conllu the same text, its 4-3 one
    // line earlier, and three wrong labels: both scripts score the pair (expected outputs
    // are their own, byte for byte)
    let (g, s) = (
        format!("{T}/gold-reversed-ranges.conllu"),
        format!("{T}/sys-reversed-ranges.conllu"),
    );
    let run = |flags: &[&str], gold: &str, sys: &str| {
        let mut a = vec!["ud"];
        a.extend_from_slice(flags);
        a.extend_from_slice(&[gold, sys]);
        treeval(&a)
    };
    for (flags, name) in [
        (&["--compat", "conll18"][..], "conll18.txt"),
        (&["--compat", "conll18", "-v"][..], "conll18.v.txt"),
        (&["--compat", "conll18-counts"][..], "conll18.c.txt"),
        (&["--compat", "udeval", "-v"][..], "udeval.v.txt"),
    ] {
        let o = run(flags, &g, &s);
        assert_eq!(
            stdout_ok(&o, "reversed ranges"),
            expected(&format!("sys-reversed-ranges.{name}")),
            "{flags:?}"
        );
        // the reading is named: one warning per file (its first range, and how many),
        // the two files' saying the same word for word: one entry naming both
        let err = stderr(&o);
        assert!(
            err.contains(&format!("warning: {g}:5:1: expected a multiword token range N-M with M >= N, found '3-1' (2 such range(s) in the file)"))
                && err.contains("a token without words")
                && err.contains(&format!("2 warnings of this kind (at {g}:5:1, {s}:5:1)")),
            "{err}"
        );
        assert_eq!(err.matches("M >= N, found").count(), 1, "{err}");
    }
    // in one file only: the texts differ, the scripts fail when they evaluate
    // ("First 20 differing characters in gold file: 'cats.Itrains.' and system file:
    // 'atcats.Itrains..'"), and so does treeval, naming the place
    let gold = format!("{T}/gold.conllu");
    for (a, b, want) in [
        (&gold, &s, "sys-reversed-ranges.conllu:6: expected the same text as testdata/ud/trust/gold.conllu:6 (FORMs without spaces), found a difference at character 12: gold 'cats.Itrains.', system 'atcats.Itrains..'"),
        (&g, &gold, "gold.conllu:6: expected the same text as testdata/ud/trust/gold-reversed-ranges.conllu:6 (FORMs without spaces), found a difference at character 12: gold 'atcats.Itrains..', system 'cats.Itrains.'"),
    ] {
        for compat in ["conll18", "udeval"] {
            let o = run(&["--compat", compat], a, b);
            assert_eq!(o.status.code(), Some(1), "{compat} {b}");
            assert!(o.stdout.is_empty());
            assert!(stderr(&o).contains(want), "{compat}: {}", stderr(&o));
        }
    }
    // without --compat the CoNLL-U rules hold: a reversed range is an error, with a hint
    for cmd in ["ud", "deps"] {
        let o = treeval(&[cmd, &g, &s]);
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        let err = stderr(&o);
        assert!(
            err.contains("gold-reversed-ranges.conllu:5:1: expected ID 3-N with N >= 3 (a multiword token starting at the next word), found '3-1'")
                && err.contains("the range is reversed (M < N)"),
            "{cmd}: {err}"
        );
    }
}

#[test]
fn a_hash_line_among_a_tokens_words_is_a_word_for_both_scripts() {
    // sys-mwt-hash-word.conllu: a token 2-3 whose second word's line starts with '#' (10
    // columns); both scripts read it as the word (expected outputs are their own)
    let sys = "sys-mwt-hash-word";
    for (compat, name) in [
        ("conll18-counts", "conll18.c.txt"),
        ("udeval-counts", "udeval.c.txt"),
    ] {
        let o = ud(&["--compat", compat], sys);
        assert_eq!(
            stdout_ok(&o, compat),
            expected(&format!("{sys}.{name}")),
            "{compat}"
        );
    }
    // a '#' line of one column there, or a blank line, is a line of the wrong size for
    // both (conll18_ud_eval.py: "does not contain 10 tab-separated columns: '# c'";
    // udeval: the same at line 14, and "ends in an unfinished MWT" for the blank line)
    let dir = tempdir("hash");
    let text = std::fs::read_to_string(root().join(T).join(format!("{sys}.conllu"))).unwrap();
    std::fs::copy(root().join(T).join("gold.conllu"), dir.join("gold.conllu")).unwrap();
    for (line, want) in [
        (
            "# c\n",
            "sys.conllu:14:1: expected 10 tab-separated columns, found 1",
        ),
        (
            "\n",
            "sys.conllu:14:1: expected 10 tab-separated columns, found 1",
        ),
    ] {
        let at = text.find("#\t.").unwrap();
        let bad = format!("{}{line}{}", &text[..at], &text[at..]);
        std::fs::write(dir.join("sys.conllu"), bad).unwrap();
        for compat in ["conll18-counts", "udeval-counts"] {
            let o = treeval_in(
                &dir,
                &["ud", "--compat", compat, "gold.conllu", "sys.conllu"],
            );
            assert_eq!(o.status.code(), Some(1), "{compat} {line:?}");
            assert!(
                stderr(&o).contains(want),
                "{compat} {line:?}: {}",
                stderr(&o)
            );
        }
    }
}

#[test]
fn empty_fields_and_one_word_ranges_are_scored_as_conll18_scores_them() {
    for sys in ["sys-empty-fields", "sys-single-word-ranges", "sys-bad-deps"] {
        // the script's three lines by default, its table with -v
        let o = ud(&["--compat", "conll18"], sys);
        assert_eq!(
            stdout_ok(&o, sys),
            expected(&format!("{sys}.conll18.txt")),
            "{sys}"
        );
        let o = ud(&["--compat", "conll18", "-v"], sys);
        assert_eq!(
            stdout_ok(&o, sys),
            expected(&format!("{sys}.conll18.v.txt")),
            "{sys} -v"
        );
        if sys != "sys-bad-deps" {
            let o = ud(&["--compat", "udeval", "--verbose"], sys);
            assert_eq!(
                stdout_ok(&o, sys),
                expected(&format!("{sys}.udeval.v.txt")),
                "{sys} udeval -v"
            );
        }
    }
}

#[test]
fn outside_compat_mode_empty_fields_are_a_warning_with_file_and_line() {
    let o = ud(&["--format", "json"], "sys-empty-fields");
    let out = stdout_ok(&o, "ud --format json");
    let err = stderr(&o);
    // one warning per column on stderr, naming the file, line and column
    for (col, at) in [
        ("LEMMA", "1:8"),
        ("XPOS", "1:14"),
        ("FEATS", "1:15"),
        ("MISC", "1:26"),
    ] {
        let want = format!(
            "warning: {T}/sys-empty-fields.conllu:{at}: expected '_' for an empty value in column {col}"
        );
        assert!(err.contains(&want), "{want}\n{err}");
    }
    // and one more: the system has no enhanced graph (DEPS '_' on every word)
    let deps = format!("warning: {T}/sys-empty-fields.conllu: the system DEPS column is '_' on every word (no enhanced graph): ELAS, EULAS not applicable (n/a)");
    assert!(err.contains(&deps), "{err}");
    assert_eq!(err.matches("warning:").count(), 5, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let w = v["warnings"].as_array().unwrap();
    assert_eq!(w.len(), 5, "{w:?}");
    assert!(w[..4].iter().all(|x| x["position"]
        .as_str()
        .unwrap()
        .starts_with(&format!("{T}/sys-empty-fields.conllu:1:"))));
    // the numbers are conll18_ud_eval.py's: LAS 75.00, Lemmas 62.50
    let counts = |m: &str| common::keyed_cell(&v, "scores", 0, m, "F1")["counts"].clone();
    // F1 reads [correct, gold, system]
    assert_eq!(counts("LAS")[0], 6);
    assert_eq!(counts("LAS")[1], 8);
    assert_eq!(counts("Lemmas")[0], 5);
    // one-word ranges likewise (one warning for the file)
    let o = ud(&[], "sys-single-word-ranges");
    stdout_ok(&o, "ud");
    let err = stderr(&o);
    assert!(
        err.contains(&format!("warning: {T}/sys-single-word-ranges.conllu:1:1: expected a multiword token range N-M with M > N, found '1-1' (2 such range(s) in the file)")),
        "{err}"
    );
    // an empty DEPREL is what the reference scorers read as an empty value, but not ud
    let dir = tempdir("deprel");
    let text = std::fs::read_to_string(root().join(T).join("gold.conllu"))
        .unwrap()
        .replacen("\tnsubj\t2:nsubj", "\t\t2:nsubj", 1);
    std::fs::write(dir.join("sys.conllu"), text).unwrap();
    std::fs::copy(root().join(T).join("gold.conllu"), dir.join("gold.conllu")).unwrap();
    let o = treeval_in(&dir, &["ud", "gold.conllu", "sys.conllu"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("sys.conllu:3:35: expected a value in column DEPREL"),
        "{err}"
    );
    let o = treeval_in(
        &dir,
        &[
            "ud",
            "--compat",
            "conll18-counts",
            "gold.conllu",
            "sys.conllu",
        ],
    );
    let out = stdout_ok(&o, "ud --compat conll18-counts");
    assert!(
        out.contains("LAS        |         7 |         8 |         8 |         8"),
        "{out}"
    );
}

#[test]
fn deps_reads_empty_fields_with_a_warning() {
    // deps scores HEAD and DEPREL; an empty LEMMA/XPOS/FEATS/MISC is read as an empty
    // value (an empty XPOS is no punctuation tag) with one warning per column
    let g = format!("{T}/gold.conllu");
    let s = format!("{T}/sys-empty-fields.conllu");
    let o = treeval(&["deps", "--format", "json", &g, &s]);
    let v: serde_json::Value = serde_json::from_str(&stdout_ok(&o, "deps")).unwrap();
    let err = stderr(&o);
    assert!(
        err.contains(
            "sys-empty-fields.conllu:1:8: expected '_' for an empty value in column LEMMA"
        ),
        "{err}"
    );
    assert_eq!(common::cell(&v, "scores", 0, "UAS")["counts"][0], 8);
    assert_eq!(common::cell(&v, "scores", 0, "LAS")["counts"][0], 6);
}

#[test]
fn compat_udeval_is_udeval_without_extra_flags() {
    let (g, s) = (
        "testdata/ud/empty-nodes/gold.conllu",
        "testdata/ud/empty-nodes/sys.conllu",
    );
    let plain = stdout_ok(
        &treeval(&["ud", "--compat", "udeval-counts", g, s]),
        "udeval",
    );
    let drop = stdout_ok(
        &treeval(&[
            "ud",
            "--compat",
            "udeval-counts",
            "--empty-nodes",
            "drop",
            g,
            s,
        ]),
        "drop",
    );
    assert_eq!(plain, drop);
    // an explicit other choice is said on stderr and signed
    let o = treeval(&[
        "ud",
        "--compat",
        "udeval-counts",
        "--empty-nodes",
        "collapse",
        g,
        s,
    ]);
    assert_ne!(stdout_ok(&o, "collapse"), plain);
    assert!(stderr(&o).contains(
        "warning: --empty-nodes collapse differs from udeval's own handling of these files (drop)\n  hint: without --empty-nodes, --compat udeval prints udeval's own numbers"
    ));
    let o = treeval(&["ud", "--format", "json", g, s]);
    let v: serde_json::Value = serde_json::from_str(&stdout_ok(&o, "json")).unwrap();
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .contains("empty-nodes:collapse"));
    // without -v udeval prints five lines, conll18 three
    let five = stdout_ok(&treeval(&["ud", "--compat", "udeval", g, s]), "udeval");
    assert_eq!(five.lines().count(), 5, "{five}");
    assert!(five.starts_with("LAS F1 Score: ") && five.contains("\nEULAS F1 Score: "));
    let three = stdout_ok(&treeval(&["ud", "--compat", "conll18", g, s]), "conll18");
    assert_eq!(
        three
            .lines()
            .map(|l| l.split(':').next().unwrap())
            .collect::<Vec<_>>(),
        ["LAS F1 Score", "MLAS Score", "BLEX Score"]
    );
    // -v needs --compat
    assert_eq!(treeval(&["ud", "-v", g, s]).status.code(), Some(2));
}

#[test]
fn a_measure_with_nothing_to_measure_is_not_applicable() {
    // DEPS all `_`: ELAS and EULAS measure nothing
    let g = format!("{T}/sys-single-word-ranges.conllu");
    let o = treeval(&["ud", "--format", "json", &g, &g]);
    let v: serde_json::Value = serde_json::from_str(&stdout_ok(&o, "ud")).unwrap();
    for m in ["ELAS", "EULAS"] {
        assert_eq!(common::keyed_cell(&v, "scores", 0, m, "F1")["counts"][1], 0);
        for k in ["precision", "recall", "F1"] {
            let x = common::keyed_cell(&v, "scores", 0, m, k);
            assert!(x["value"].is_null(), "{m} {k}: {x}");
        }
    }
    assert_eq!(
        common::keyed_cell(&v, "scores", 0, "LAS", "F1")["value"],
        1.0
    );
    // the reference prints 0.00 there, and so do the compat modes
    let o = treeval(&["ud", "--compat", "udeval", &g, &g]);
    assert!(stdout_ok(&o, "udeval").ends_with("ELAS F1 Score: 0.00\nEULAS F1 Score: 0.00\n"));
    // a relation only the system has: recall n/a, not 0
    let (dg, ds) = (
        "testdata/ud/different-tokenization/gold.conllu",
        "testdata/ud/different-tokenization/sys.conllu",
    );
    let o = treeval(&["ud", "--per-relation", "--wide", dg, ds]);
    let out = stdout_ok(&o, "ud --per-relation");
    let row = out
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("parataxis"))
        .unwrap();
    // system, relation, precision, recall
    assert!(row.split_whitespace().nth(3) == Some("n/a"), "{row}");
    // relations on the enhanced graph of files without DEPS: n/a, null
    let o = treeval(&["relations", "--graph", "enhanced", "--wide", &g, &g]);
    let out = stdout_ok(&o, "relations");
    let row: Vec<&str> = out
        .lines()
        .find(|l| l.starts_with(&format!("{} ", common::only_name(&g))))
        .unwrap()
        .split_whitespace()
        .collect();
    // Dt Ds both, then precision, recall, F1, CA, CA-macro: n/a alone (the JSON keeps
    // the counts 0/0)
    assert_eq!(
        row[1..],
        ["0", "0", "0", "n/a", "n/a", "n/a", "n/a", "n/a"],
        "{out}"
    );
    let o = treeval(&[
        "relations",
        "--graph",
        "enhanced",
        "--format",
        "json",
        &g,
        &g,
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout_ok(&o, "relations")).unwrap();
    for m in ["precision", "recall", "F1", "CA", "CA-macro"] {
        assert!(common::value(&v, "scores", 0, m).is_none(), "{m}");
    }
    // the basic graph has relations: numbers
    let o = treeval(&["relations", "--format", "json", &g, &g]);
    let v: serde_json::Value = serde_json::from_str(&stdout_ok(&o, "relations")).unwrap();
    assert_eq!(common::value(&v, "scores", 0, "CA"), Some(1.0));
}

fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("treeval-trust-ud-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `files` copied into four folders: as they are, with CR LF, with a BOM, with both.
fn variants(name: &str, files: &[&str]) -> Vec<(PathBuf, &'static str)> {
    let mut out = Vec::new();
    for kind in ["lf", "crlf", "bom", "bom+crlf"] {
        let d = tempdir(&format!("{name}-{kind}"));
        for f in files {
            let text = std::fs::read_to_string(root().join(f)).unwrap();
            let base = Path::new(f).file_name().unwrap();
            let mut bytes = Vec::new();
            if kind.starts_with("bom") {
                bytes.extend_from_slice(b"\xEF\xBB\xBF");
            }
            if kind.ends_with("crlf") {
                bytes.extend_from_slice(text.replace('\n', "\r\n").as_bytes());
            } else {
                bytes.extend_from_slice(text.as_bytes());
            }
            // alignment files are not CoNLL: they stay as they are
            if !f.ends_with(".conllu") {
                bytes = text.into_bytes();
            }
            std::fs::write(d.join(base), bytes).unwrap();
        }
        out.push((d, kind));
    }
    out
}

#[test]
fn bom_and_crlf_give_the_lf_numbers_with_one_warning_per_file() {
    let pts = format!("pts {}", pts_inputs(""));
    let cases: Vec<(&str, Vec<&str>, Vec<&str>)> = vec![
        (
            "deps",
            vec!["examples/gold.conllu", "examples/sys.conllu"],
            vec!["deps", "gold.conllu", "sys.conllu"],
        ),
        (
            "ud",
            vec!["examples/gold.conllu", "examples/sys.conllu"],
            vec!["ud", "gold.conllu", "sys.conllu"],
        ),
        (
            "relations",
            vec!["examples/gold.conllu", "examples/sys.conllu"],
            vec!["relations", "gold.conllu", "sys.conllu"],
        ),
        (
            "pts",
            vec![
                "examples/pts/gold.en.conllu",
                "examples/pts/gold.de.conllu",
                "examples/pts/gold.en-de.naacl",
                "examples/pts/parser.en.conllu",
                "examples/pts/parser.de.conllu",
                "examples/pts/aligner.en-de.pharaoh",
            ],
            argv(&pts),
        ),
        (
            "ted",
            vec![
                "testdata/ted/lexical-gold.conllu",
                "testdata/ted/lexical-parse.conllu",
            ],
            vec![
                "ted",
                "--exp",
                "lexical:lexical-gold.conllu:lexical-parse.conllu",
            ],
        ),
    ];
    for (name, files, args) in cases {
        let conll = files.iter().filter(|f| f.ends_with(".conllu")).count();
        let mut lf_out = None;
        for (dir, kind) in variants(name, &files) {
            let o = treeval_in(&dir, &args);
            // (deps counts the warnings in its text report; ted's text report repeats
            // them, without their file, after its numbers)
            let out: String = stdout_ok(&o, &format!("{name} {kind}"))
                .lines()
                .filter(|l| !l.ends_with("see stderr or the JSON report"))
                .filter(|l| name != "ted" || !l.starts_with("warning: "))
                .map(|l| format!("{l}\n"))
                .collect::<String>()
                .trim_end()
                .to_owned();
            let err = stderr(&o);
            match &lf_out {
                None => {
                    // no warning but the sanity warnings about the files' labels, which
                    // every variant has (sys.conllu's one `obl:npmod`, a subtype gold
                    // never has; lexical-parse.conllu's `obj`, a label gold never has)
                    let sanity = |l: &&str| {
                        l.contains("label subtypes in one file only")
                            || l.contains("never occurs in gold")
                    };
                    assert!(
                        !err.lines().any(|l| l.starts_with("warning") && !sanity(&l)),
                        "{name} lf: {err}"
                    );
                    lf_out = Some(out);
                }
                Some(lf) => {
                    assert_eq!(&out, lf, "{name} {kind}: the numbers of the LF files");
                    // one warning per file, naming it, on stderr
                    let what = match kind {
                        "crlf" => "found CR LF on",
                        "bom" => "found a UTF-8 byte-order mark",
                        _ => "found a byte-order mark and CR LF on",
                    };
                    // (files whose warnings say the same word for word are one entry,
                    // its positions naming each file)
                    let lines: Vec<&str> = err.lines().filter(|l| l.contains(what)).collect();
                    assert!((1..=conll).contains(&lines.len()), "{name} {kind}: {err}");
                    let groups: Vec<&str> = (err.lines())
                        .filter(|l| l.contains("warnings of this kind (at "))
                        .collect();
                    for f in files.iter().filter(|f| f.ends_with(".conllu")) {
                        let base = Path::new(f).file_name().unwrap().to_str().unwrap();
                        let at = format!("{base}:1:1");
                        assert!(
                            lines.iter().any(|l| l.contains(&format!("{at}: ")))
                                || groups.iter().any(|g| g.contains(&at)),
                            "{name} {kind} {base}: {err}"
                        );
                    }
                    assert!(!out.contains("CR LF") && !out.contains("byte-order"));
                }
            }
        }
    }
    // and in the JSON report's warnings
    for (dir, kind) in variants("ud-json", &["examples/gold.conllu", "examples/sys.conllu"]) {
        if kind == "lf" {
            continue;
        }
        for cmd in ["ud", "relations", "deps"] {
            let o = treeval_in(
                &dir,
                &[cmd, "--format", "json", "gold.conllu", "sys.conllu"],
            );
            let v: serde_json::Value = serde_json::from_str(&stdout_ok(&o, cmd)).unwrap();
            let w = v["warnings"].to_string();
            assert!(
                w.contains("gold.conllu:1:1") && w.contains("sys.conllu:1:1"),
                "{cmd} {kind}: {w}"
            );
        }
    }
}

#[test]
fn binary_and_bracketed_files_are_named_for_what_they_are_in_a_screenful() {
    let dir = tempdir("binary");
    let mut bin: Vec<u8> = b"\x7fELF\x02\x01\x01\x00".to_vec();
    for k in 0..20000u32 {
        bin.extend_from_slice(&k.to_le_bytes());
        bin.push(b'\n');
    }
    std::fs::write(dir.join("a.out"), &bin).unwrap();
    std::fs::write(
        dir.join("trees.mrg"),
        "(S (NP (NNS Dogs)) (VP (VBP bark)))\n(S (NP (NNS Cats)) (VP (VBP sleep)))\n",
    )
    .unwrap();
    let gold = root().join("examples/gold.conllu");
    let gold = gold.to_str().unwrap();
    for cmd in ["ud", "deps", "relations"] {
        let o = treeval_in(&dir, &[cmd, gold, "a.out"]);
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        let err = stderr(&o);
        assert!(
            err.lines().next().unwrap().contains(
                "a.out:1:8: expected UTF-8 text, found a NUL byte: binary data, not a text file"
            ),
            "{cmd}: {err}"
        );
        assert!(err.lines().count() <= 24, "{cmd}: {err}");
        let o = treeval_in(&dir, &[cmd, gold, "trees.mrg"]);
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        let err = stderr(&o);
        assert!(
            err.lines()
                .next()
                .unwrap()
                .contains("trees.mrg:1:1: this looks like bracketed constituency trees"),
            "{cmd}: {err}"
        );
        assert!(err.contains("treeval brackets"), "{cmd}: {err}");
        assert!(err.lines().count() <= 24, "{cmd}: {err}");
    }
    // text that is not CoNLL: at most a screenful of problems, then a count
    let mut text = String::new();
    for k in 0..500 {
        text.push_str(&format!("line {k} of some text\n"));
    }
    std::fs::write(dir.join("notes.conllu"), text).unwrap();
    let o = treeval_in(&dir, &["ud", gold, "notes.conllu"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.lines().count() <= 24, "{err}");
    assert!(err.contains("more problem(s)"), "{err}");
}
