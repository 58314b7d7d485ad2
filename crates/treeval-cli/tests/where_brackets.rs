//! `brackets --where`: a condition counts exactly the brackets of the `--by` cell it
//! names (label: the bracket's label as compared; length: whole sentences), the figures a
//! label condition does not restrict are n/a, the report says what was kept; and the
//! small rules around it: `--html-sentences` only with `--format html`, the first
//! section titled by the sentence selection.

mod common;

use common::{assert_bracket_where_is_by, assert_stderr_has, cell, counts, stdout_ok, treeval};
use serde_json::Value;

const DEBUG: [&str; 2] = [
    "testdata/brackets/debug/gold.txt",
    "testdata/brackets/debug/test.txt",
];
const LONG: [&str; 2] = [
    "testdata/brackets/brackets-300/gold.txt",
    "testdata/brackets/brackets-300/test.txt",
];
const PAPER: [&str; 3] = [
    "testdata/brackets/careful-paper/gold.txt",
    "testdata/brackets/careful-paper/test.txt",
    "testdata/brackets/careful-paper/test2.txt",
];

fn report(files: &[&str], extra: &[&str]) -> Value {
    let mut a = vec!["brackets", "-q", "--format", "json"];
    a.extend(files);
    a.extend(extra);
    serde_json::from_str(&stdout_ok(&a)).unwrap()
}

/// The rows of section `id`.
fn rows(v: &Value, id: &str) -> Value {
    v["sections"]
        .as_array()
        .and_then(|a| a.iter().find(|s| s["id"] == id))
        .map(|s| s["rows"].clone())
        .unwrap_or_else(|| panic!("no section {id}"))
}

/// For every label and length group of every test file, `--where KEY=GROUP` has the
/// `--by` cell's recall, precision and F, with COLLINS.prm and with LABELED 0 (where a
/// matched test bracket counts under its gold bracket's label).
#[test]
fn every_by_cell_is_its_where() {
    let dir = std::env::temp_dir().join(format!("treeval-bwhere-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prm = dir.join("unlabeled.prm");
    std::fs::write(&prm, "LABELED 0\nDELETE_LABEL TOP\nDELETE_LABEL -NONE-\nDELETE_LABEL ,\nDELETE_LABEL :\nDELETE_LABEL ``\nDELETE_LABEL ''\nDELETE_LABEL .\nEQ_LABEL ADVP PRT\n").unwrap();
    let unlabeled = ["--prm", prm.to_str().unwrap()];
    let mut checked = 0;
    for files in [&DEBUG[..], &LONG[..], &PAPER[..]] {
        for prm in [&[][..], &unlabeled[..]] {
            let by = report(files, &[&["--by", "label,length"][..], prm].concat());
            checked += assert_bracket_where_is_by(&by, |cond| {
                report(files, &[&["--where", cond][..], prm].concat())
            });
        }
    }
    assert!(checked >= 20, "{checked} groups");
    std::fs::remove_dir_all(&dir).ok();
}

/// A label condition: figures by hand from the debug sample's `--by label` table (NP 8
/// gold, 8 test, 6 matched; VP 8, 9, 7; all 24, 25, 21), with the skipped sentence 6
/// scored as missed (`cats sleep`: S, NP, VP, 3 more gold brackets, NP and VP among
/// them); complete match, crossing and tagging n/a; the signature, convention and notes
/// say what was kept.
#[test]
fn a_label_condition_counts_its_brackets_and_says_so() {
    let w = report(&DEBUG, &["--where", "label=NP|VP"]);
    assert_eq!(counts(cell(&w, "all", 0, "recall")), [13, 18]);
    assert_eq!(counts(cell(&w, "all", 0, "precision")), [13, 17]);
    for m in [
        "complete",
        "crossing",
        "no-crossing",
        "le2-crossing",
        "tagging",
    ] {
        assert!(cell(&w, "all", 0, m)["value"].is_null(), "{m}");
        assert!(cell(&w, "cutoff", 0, m)["value"].is_null(), "{m}");
    }
    assert!(w["signature"]
        .as_str()
        .unwrap()
        .ends_with("|where:label=NP/VP"));
    assert!(w["conventions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["name"] == "where" && c["value"] == "label=NP|VP"));
    let notes: Vec<&str> = w["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        notes.contains(&"testdata/brackets/debug/test.txt: where label=NP|VP: 18 of 27 gold brackets, 17 of 25 system brackets"),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("complete match, crossing and tagging accuracy are n/a")),
        "{notes:?}"
    );
    let kept = &w["inputs"][1]["counts"]["where"];
    assert_eq!(kept["gold"], serde_json::json!({"kept": 18, "of": 27}));
    assert_eq!(kept["system"], serde_json::json!({"kept": 17, "of": 25}));
    assert_eq!(kept["sentences"], serde_json::json!({"kept": 7, "of": 7}));
    let title = w["sections"][0]["title"].as_str().unwrap();
    assert_eq!(title, "all sentences (where label=NP|VP)");
    // a label no bracket has: nothing is scored, an error naming --where; in a part of a
    // corpus (--emit-state), n/a and said so
    let o = treeval(&[&["brackets", "-q"][..], &DEBUG, &["--where", "label=WHNP"]].concat());
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_has(
        &o,
        "nothing is scored: --where label=WHNP keeps no bracket of",
    );
    let state = std::env::temp_dir().join(format!("treeval-whnp-{}.json", std::process::id()));
    let part = [
        "--where",
        "label=WHNP",
        "--emit-state",
        state.to_str().unwrap(),
    ];
    let w = report(&DEBUG, &part);
    let _ = std::fs::remove_file(&state);
    assert!(cell(&w, "all", 0, "recall")["value"].is_null());
    let notes = w["notes"].to_string();
    assert!(
        notes.contains("where label=WHNP: 0 of 27 gold brackets, 0 of 25 system brackets (no bracket: every score is n/a)"),
        "{notes}"
    );
}

/// A length condition keeps whole sentences: every figure is defined, and equals the
/// same range given as the sentence selection (`--min-len`/`--max-len`), error and
/// skipped sentences included.
#[test]
fn a_length_condition_is_a_sentence_condition() {
    for (files, cond, sel) in [
        (&DEBUG[..], "length=1-10", &["--max-len", "10"][..]),
        (&LONG[..], "length=51+", &["--min-len", "51"][..]),
        // sentences 2, 3, 4 and 6 (skipped: its test tree has no words)
        (
            &DEBUG[..],
            "length=2-6",
            &["--min-len", "2", "--max-len", "6"][..],
        ),
        (
            &DEBUG[..],
            "length=4",
            &["--min-len", "4", "--max-len", "4"][..],
        ),
    ] {
        let w = report(files, &["--where", cond]);
        let s = report(files, sel);
        assert_eq!(rows(&w, "all"), rows(&s, "all"), "{cond}");
        assert_eq!(rows(&w, "cutoff"), rows(&s, "cutoff"), "{cond}");
        assert!(cell(&w, "all", 0, "tagging")["value"].is_number(), "{cond}");
    }
    // the note counts the sentences kept of those scored
    let w = report(&LONG, &["--where", "length=51+"]);
    let notes = w["notes"].to_string();
    // by hand: the 300-word sentence's 300 brackets, of 303 (the other sentence has 3)
    assert!(
        notes.contains("where length=51+: 1 of 2 sentences, 300 of 303 gold brackets, 300 of 303 system brackets"),
        "{notes}"
    );
    assert!(notes.contains("a condition on whole sentences"), "{notes}");
}

/// `--errors` lists only the unmatched brackets the conditions keep: with `label=NP`
/// exactly the NP rows of the full listing, (9 − 6) missed (one of the skipped sentence 6,
/// scored as missed) + (8 − 6) extra.
#[test]
fn errors_list_the_kept_brackets_only() {
    let listing = |extra: &[&str]| -> Vec<Value> {
        let v = report(&DEBUG, &[&["--errors"][..], extra].concat());
        v["listings"][0]["rows"].as_array().unwrap().clone()
    };
    let all = listing(&[]);
    let np = listing(&["--where", "label=NP"]);
    let want: Vec<Value> = all.iter().filter(|r| r[1] == "NP").cloned().collect();
    assert_eq!(np, want);
    assert_eq!(np.len(), 5);
    assert!(all.len() > np.len());
}

#[test]
fn conditions_that_cannot_hold_or_apply_are_usage_errors() {
    for (extra, says) in [
        (&["--where", "label=NP-SBJ"][..], "write 'NP'"),
        (
            &["--where", "label=PRT"][..],
            "EQ_LABEL counts 'PRT' brackets as 'ADVP'",
        ),
        (&["--where", "label=TOP"][..], "DELETE_LABEL"),
        (
            &["--where", "tag=NN"][..],
            "expected one of label, length; found 'tag'",
        ),
        (
            &["--where", "length=long"][..],
            "a number, a range N-M or N+",
        ),
        (
            &["--where", "label=NP", "--compat", "evalb"][..],
            "--where does not apply with --compat",
        ),
        (
            &["--where", "label=NP", "--careful"][..],
            "does not apply to --careful",
        ),
    ] {
        let o = treeval(&[&["brackets", DEBUG[0], DEBUG[1]][..], extra].concat());
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert_stderr_has(&o, says);
    }
}

/// `--html-sentences` sizes the HTML page's browser: without `--format html` it is a usage
/// error in every command whose page has one (it used to be silently ignored; the others
/// refuse it with any format: trust_cli.rs).
#[test]
fn html_sentences_only_with_format_html() {
    let commands: [&[&str]; 4] = [
        &["brackets", DEBUG[0], DEBUG[1]],
        &["deps", "examples/gold.conllu", "examples/sys.conllu"],
        &["ud", "examples/gold.conllu", "examples/sys.conllu"],
        &[
            "align",
            "testdata/align/gold.naacl",
            "testdata/align/hyp.pharaoh",
        ],
    ];
    for args in commands {
        for format in ["text", "json"] {
            let o = treeval(&[args, &["--html-sentences", "10", "--format", format]].concat());
            assert_eq!(o.status.code(), Some(2), "{args:?} {format}");
            assert_stderr_has(
                &o,
                &format!("--html-sentences only applies with --format html (it sizes the HTML page's sentence browser), not with --format {format}"),
            );
        }
        let page =
            stdout_ok(&[args, &["-q", "--html-sentences", "10", "--format", "html"]].concat());
        assert!(page.contains("<html"), "{args:?}");
    }
}

/// The browser's note counts the sentences the selection keeps (M of "N of M"): brackets'
/// debug sample with `--max-len 4` keeps sentences 3 to 7 (lengths 4, 4, 0, 2, 3), of
/// which 3 are scored; ud with `--max-len 5` keeps 1 of the 3 example sentences.
#[test]
fn the_browser_counts_the_kept_sentences() {
    let note = |args: &[&str]| -> String {
        let page = stdout_ok(&[args, &["-q", "--format", "html"]].concat());
        let at = page
            .find("<p id=\"browser-note\">")
            .expect("a browser note");
        let rest = &page[at + "<p id=\"browser-note\">".len()..];
        rest[..rest.find("</p>").unwrap()].to_owned()
    };
    let excluded = ["--error-sentences", "excluded"];
    assert_eq!(
        note(&["brackets", DEBUG[0], DEBUG[1], "--max-len", "4", excluded[0], excluded[1]]),
        "3 of 5 sentences, 1 system. 2 of the 5 sentences are not on the page: they are not in the scores (error or skipped sentences left out: a malformed gold tree, a gold tree without words, or --error-sentences excluded)"
    );
    // by default the skipped sentence 6 is scored as missed and on the page; the error
    // sentence 5 (a blank gold line: no gold word) is not
    assert!(note(&["brackets", DEBUG[0], DEBUG[1], "--max-len", "4"])
        .starts_with("4 of 5 sentences, 1 system. 1 of the 5 sentences are not on the page"));
    // a --where length condition keeps sentences too (3, 4, 6 and 7)
    assert!(
        note(&["brackets", DEBUG[0], DEBUG[1], "--where", "length=1-4"])
            .starts_with("4 of 4 sentences, 1 system.")
    );
    assert!(note(&["brackets", DEBUG[0], DEBUG[1]]).starts_with("6 of 7 sentences, 1 system."));
    let ud = ["ud", "examples/gold.conllu", "examples/sys.conllu"];
    assert_eq!(
        note(&[&ud[..], &["--max-len", "5"]].concat()),
        "1 of 1 sentences, 1 system."
    );
    assert_eq!(note(&ud), "3 of 3 sentences, 1 system.");
    let deps = ["deps", "examples/gold.conllu", "examples/sys.conllu"];
    assert_eq!(
        note(&[&deps[..], &["--max-len", "5"]].concat()),
        "1 of 1 sentences, 1 system."
    );
}

/// Under a sentence selection the first section is titled by the sentences it covers, in
/// every format that prints titles (csv and tsv name sections by id).
#[test]
fn the_first_section_says_which_sentences_it_covers() {
    let title = "kept sentences of at most 40 words";
    for format in ["text", "markdown", "latex", "html", "json"] {
        let out = stdout_ok(&[
            "brackets",
            "-q",
            "--format",
            format,
            LONG[0],
            LONG[1],
            "--max-len",
            "40",
        ]);
        assert!(out.contains(title), "{format}: {out}");
        assert!(!out.contains("all sentences"), "{format}");
    }
    let v = report(&LONG, &["--min-len", "3", "--where", "label=NP"]);
    assert_eq!(
        v["sections"][0]["title"],
        "kept sentences of at least 3 words (where label=NP)"
    );
    let v = report(&LONG, &[]);
    assert_eq!(v["sections"][0]["title"], "all sentences");
}

/// The whole text and Markdown reports of a selection with a label condition: the title,
/// the n/a figures, the notes and the restricted listing, as a reader sees them.
#[test]
fn snapshots_of_a_restricted_report() {
    let args = [
        "brackets",
        DEBUG[0],
        DEBUG[1],
        "-q",
        "--max-len",
        "4",
        "--where",
        "label=NP|VP",
        "--by",
        "label,length",
        "--errors",
    ];
    insta::assert_snapshot!("brackets-where-text", stdout_ok(&args));
    let md = stdout_ok(&[&args[..], &["--format", "markdown"]].concat());
    insta::assert_snapshot!("brackets-where-markdown", md);
}

/// The page's per-sentence scores of the kept sentences are those of the same sentences
/// without a selection (they were n/a: the rows were looked up by position), and under
/// `--where label=…` they count the kept brackets: sentence 4 of the debug sample has NP
/// gold 1 (`a big dog`), test 1 (`a big`), matched 0 (by hand), so 0, 0, 0 where all its
/// brackets give 33.33 (1 of 3 matched, S).
#[test]
fn the_browser_scores_the_kept_sentences() {
    let data = |extra: &[&str]| -> Vec<(u64, Value)> {
        let page = stdout_ok(
            &[
                &["brackets", DEBUG[0], DEBUG[1], "-q", "--format", "html"][..],
                extra,
            ]
            .concat(),
        );
        let open = "<script type=\"application/json\" id=\"treeval-data\">";
        let start = page.find(open).unwrap() + open.len();
        let end = start + page[start..].find("</script>").unwrap();
        let v: Value = serde_json::from_str(&page[start..end]).unwrap();
        let sentences = v["sentences"].as_array().unwrap();
        sentences
            .iter()
            .map(|s| (s["i"].as_u64().unwrap(), s["scores"].clone()))
            .collect()
    };
    // scored as missed, the skipped sentence 6 is on the page: recall 0, precision n/a, F 0
    let missed = data(&["--max-len", "4"]);
    assert_eq!(missed.iter().map(|s| s.0).collect::<Vec<_>>(), [3, 4, 6, 7]);
    let s6 = &missed.iter().find(|s| s.0 == 6).unwrap().1[0];
    assert_eq!(s6, &serde_json::json!([0.0, null, 0.0]));
    let (all, kept) = (
        data(&["--error-sentences", "excluded"]),
        data(&["--error-sentences", "excluded", "--max-len", "4"]),
    );
    assert_eq!(kept.iter().map(|s| s.0).collect::<Vec<_>>(), [3, 4, 7]);
    for (i, scores) in &kept {
        assert!(
            scores[0].as_array().unwrap().iter().all(Value::is_number),
            "{i}"
        );
        assert_eq!(
            Some(scores),
            all.iter().find(|s| s.0 == *i).map(|s| &s.1),
            "{i}"
        );
    }
    let np = data(&["--where", "label=NP"]);
    let s4 = &np.iter().find(|s| s.0 == 4).unwrap().1[0];
    assert_eq!(s4, &serde_json::json!([0.0, 0.0, 0.0]));
    // and the page draws the brackets it counts: sentence 4's NP brackets only (the S
    // brackets of both sides are left out), `[label, start, end, matched]`
    let page = stdout_ok(&[
        "brackets", DEBUG[0], DEBUG[1], "-q", "--format", "html", "--where", "label=NP",
    ]);
    let open = "<script type=\"application/json\" id=\"treeval-data\">";
    let start = page.find(open).unwrap() + open.len();
    let end = start + page[start..].find("</script>").unwrap();
    let v: Value = serde_json::from_str(&page[start..end]).unwrap();
    let np_index = v["labels"]
        .as_array()
        .unwrap()
        .iter()
        .position(|l| l == "NP")
        .unwrap();
    let s4 = v["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["i"] == 4)
        .unwrap();
    assert_eq!(s4["gold"], serde_json::json!([[np_index, 0, 3, 0]]));
    assert_eq!(s4["sys"], serde_json::json!([[[np_index, 0, 2, 0]]]));
    for s in v["sentences"].as_array().unwrap() {
        let sides = std::iter::once(&s["gold"]).chain(s["sys"].as_array().unwrap());
        for b in sides.flat_map(|x| x.as_array().unwrap()) {
            assert_eq!(b[0], np_index, "sentence {}: {b}", s["i"]);
        }
    }
    let s4 = &all.iter().find(|s| s.0 == 4).unwrap().1[0];
    for x in s4.as_array().unwrap() {
        assert!((x.as_f64().unwrap() - 100.0 / 3.0).abs() < 1e-9, "{x}");
    }
}
