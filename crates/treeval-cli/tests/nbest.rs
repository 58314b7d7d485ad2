//! `treeval nbest`: `--compat alpino` byte for byte against Alpino's evaluate.pl (its
//! outputs recorded in testdata/nbest, see the README there), the report's figures on
//! the alpino-example checked by hand (its README), errors, and the training export.

mod common;

use common::{cell, counts, keyed_cell, root, stdout_ok, treeval, value};

const EX: &str = "testdata/nbest/alpino-example";

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["nbest", "-q", "--format", "json"];
    a.extend_from_slice(args);
    serde_json::from_str(&stdout_ok(&a)).unwrap()
}

#[test]
fn compat_alpino_equals_evaluate_pl_on_the_recorded_cases() {
    let dir = root().join("testdata/nbest/alpino");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 9, "{cases:?}");
    for input in cases {
        let stem = input.file_stem().unwrap().to_str().unwrap().to_owned();
        let want = std::fs::read(dir.join(format!("{stem}.evaluate.out"))).unwrap();
        let err = std::fs::read_to_string(dir.join(format!("{stem}.evaluate.err"))).unwrap();
        let o = treeval(&[
            "nbest",
            "--alpino",
            input.to_str().unwrap(),
            "--compat",
            "alpino",
        ]);
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&want),
            "{stem}"
        );
        // where evaluate.pl dies dividing by zero, treeval fails after the same output
        let died = err.contains("Illegal division by zero");
        assert_eq!(o.status.code(), Some(if died { 1 } else { 0 }), "{stem}");
        if died {
            assert!(
                String::from_utf8_lossy(&o.stderr).contains("dies dividing by zero"),
                "{stem}"
            );
        }
    }
}

#[test]
fn compat_alpino_equals_evaluate_pl_on_the_alpino_example() {
    let read = |f: &str| std::fs::read_to_string(root().join(EX).join(f)).unwrap();
    let gold = format!("{EX}/example.gold.conllu");
    let nbest = format!("{EX}/example.nbest.conllu");
    // from CoNLL-U: overlap = LAS count, cgn = UPOS and LEMMA right, weight = parser score
    assert_eq!(
        stdout_ok(&["nbest", &gold, &nbest, "--compat", "alpino"]),
        read("example.parser.evaluate.txt")
    );
    for w in ["parser", "seed7"] {
        let lines = format!("{EX}/example.{w}.alpino.txt");
        assert_eq!(
            stdout_ok(&["nbest", "--alpino", &lines, "--compat", "alpino"]),
            read(&format!("example.{w}.evaluate.txt")),
            "{w}"
        );
    }
}

#[test]
fn report_figures_of_the_alpino_example_by_hand() {
    let v = json(&[
        &format!("{EX}/example.gold.conllu"),
        &format!("{EX}/example.nbest.conllu"),
    ]);
    // systems: 0 first, 1 best, 2 worst, 3 chosen (README: 17 words; first 16, best 17)
    assert_eq!(counts(cell(&v, "scores", 0, "LAS")), [16, 17]);
    assert_eq!(counts(cell(&v, "scores", 1, "LAS")), [17, 17]);
    assert_eq!(counts(cell(&v, "scores", 3, "CA")), [16, 17]);
    // worst: ranks 3 (1 of 5), 2 (3 of 4), 2 (7 of 8)
    assert_eq!(counts(cell(&v, "scores", 2, "LAS")), [11, 17]);
    let macro_first = value(&v, "macro", 0, "macro-CA").unwrap();
    assert!((macro_first - (0.8 + 1.0 + 1.0) / 3.0).abs() < 1e-12);
    assert_eq!(value(&v, "choice", 3, "phi-CA"), Some(0.0));
    assert_eq!(counts(cell(&v, "choice", 3, "exact-CA"))[0], 2);
    // LA: first is already the best (17 of 17 labels right): phi is n/a
    assert_eq!(value(&v, "choice", 3, "phi-LA"), None);
    assert_eq!(counts(cell(&v, "triples", 0, "P")), [16, 17]);
    // candidates per sentence 3, 4, 4; the LAS-best candidate at rank 1, 2, 1… (README)
    let n = |k: &str| keyed_cell(&v, "candidates", 4, k, "sentences")["value"].as_f64();
    assert_eq!((n("3"), n("4")), (Some(1.0), Some(2.0)));
    // its rows are the list's own (system 4, after the four picks), not a pick's
    assert_eq!(v["systems"][4]["name"], "n-best list");
    assert_eq!(
        v["sections"][4]["title"],
        "sentences by number of candidates"
    );
    let r = |k: &str| keyed_cell(&v, "best-rank", 1, k, "best-rank-LAS")["value"].as_f64();
    assert_eq!((r("1"), r("2")), (Some(2.0), Some(1.0)));
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .contains("punct:include|labels:full|weight:parser_score|ties:earliest"));
}

#[test]
fn alpino_lines_report_the_readmes_seed7_figures() {
    let v = json(&["--alpino", &format!("{EX}/example.seed7.alpino.txt")]);
    // README: chosen overlap 12 of 17, phi −400 % micro and −425 % macro, exact 1/3
    assert_eq!(counts(cell(&v, "scores", 3, "CA")), [12, 17]);
    let phi = value(&v, "choice", 3, "phi-CA").unwrap();
    assert!((phi + 4.0).abs() < 1e-9, "{phi}");
    let phi_macro = value(&v, "choice", 3, "phi-macro-CA").unwrap();
    assert!((phi_macro + 4.25).abs() < 1e-9, "{phi_macro}");
    assert_eq!(counts(cell(&v, "choice", 3, "exact-CA")), [1, 3]);
    // only CA is measured from evaluate.pl's lines
    let ids: Vec<&str> = v["measures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert!(!ids.contains(&"LAS") && ids.contains(&"CA"), "{ids:?}");
}

#[test]
fn text_report_of_the_alpino_example() {
    insta::assert_snapshot!(stdout_ok(&[
        "nbest",
        &format!("{EX}/example.gold.conllu"),
        &format!("{EX}/example.nbest.conllu"),
    ]));
}

#[test]
fn chosen_is_tested_against_first_on_the_same_sentences() {
    let seed7 = format!("{EX}/example.seed7.alpino.txt");
    let v = json(&["--test", "ar", "--samples", "200", "--alpino", &seed7]);
    let cmp = v["comparisons"].as_array().unwrap();
    assert!(cmp.iter().any(|c| c["metric"] == "CA"), "{cmp:?}");
    for c in cmp {
        // first (system 0) against chosen (system 3)
        assert_eq!((c["a"].as_u64(), c["b"].as_u64()), (Some(0), Some(3)));
    }
    // McNemar on CoNLL-U: chosen = first there (the parser score falls with rank), so no
    // word is right in one only
    let v = json(&[
        "--test",
        "mcnemar",
        &format!("{EX}/example.gold.conllu"),
        &format!("{EX}/example.nbest.conllu"),
    ]);
    let las = v["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["metric"] == "LAS")
        .unwrap();
    assert_eq!(
        (las["b_count"].as_u64(), las["c_count"].as_u64()),
        (Some(0), Some(0))
    );
    // evaluate.pl's lines have no words: McNemar is refused
    let o = treeval(&["nbest", "--test", "mcnemar", "--alpino", &seed7]);
    assert_eq!(o.status.code(), Some(2));
}

fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("treeval-nbest-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn bad_input_is_a_positioned_error() {
    let nbest = std::fs::read_to_string(root().join(EX).join("example.nbest.conllu")).unwrap();
    // the second candidate of the first sentence claims rank 3
    let bad = nbest.replacen("# rank = 2", "# rank = 3", 1);
    let line = bad.lines().position(|l| l == "# rank = 3").unwrap() + 1;
    let p = scratch("rank.conllu");
    std::fs::write(&p, &bad).unwrap();
    let o = treeval(&[
        "nbest",
        &format!("{EX}/example.gold.conllu"),
        p.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("rank.conllu:{line}:10: expected '# rank = 2'")),
        "{err}"
    );
    // usage errors
    for args in [
        vec!["nbest", "examples/gold.conllu"],
        vec!["nbest", "--alpino", "x.txt", "examples/gold.conllu"],
        vec![
            "nbest",
            "--compat",
            "alpino",
            "--punct",
            "form",
            "examples/gold.conllu",
            "examples/gold.conllu",
        ],
        vec![
            "nbest", "--compat", "alpino", "--alpino", "x.txt", "--test", "ar",
        ],
    ] {
        assert_eq!(treeval(&args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn training_export_weights_candidates_by_their_score() {
    let out = scratch("train.jsonl");
    let _ = std::fs::remove_file(&out);
    let gold = format!("{EX}/example.gold.conllu");
    let nbest = format!("{EX}/example.nbest.conllu");
    stdout_ok(&[
        "nbest",
        "--export-training",
        out.to_str().unwrap(),
        &gold,
        &nbest,
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["schema"], "treeval.nbest-training/1");
    assert_eq!(rows.len(), 1 + 3 + 4 + 4);
    // first sentence: CA 80, 100, 20 → targets 0.4, 0.5, 0.1
    let t: Vec<f64> = rows[1..4]
        .iter()
        .map(|r| r["target"].as_f64().unwrap())
        .collect();
    for (got, want) in t.iter().zip([0.4, 0.5, 0.1]) {
        assert!((got - want).abs() < 1e-12, "{t:?}");
    }
    assert_eq!(rows[1]["sent_id"], "Europar.550_00365");
    assert_eq!(rows[1]["features"]["parser_score"], -0.536497);
    // a second run replaces treeval's own file; an input is never replaced
    stdout_ok(&[
        "nbest",
        "--export-training",
        out.to_str().unwrap(),
        &gold,
        &nbest,
    ]);
    let o = treeval(&["nbest", "--export-training", &nbest, &gold, &nbest]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn malformed_candidate_trees_are_scored_and_counted() {
    let gold =
        "# sent_id = s1\n1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n2\tb\t_\tX\t_\t_\t1\tdep\t_\t_\n\n";
    // rank 2 is a cycle (1 → 2 → 1): scored word by word (word 2 right), and counted
    let nbest = "# sent_id = s1\n# rank = 1\n# parser_score = -1\n1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n2\tb\t_\tX\t_\t_\t1\tdep\t_\t_\n\n\
                 # sent_id = s1\n# rank = 2\n# parser_score = -2\n1\ta\t_\tX\t_\t_\t2\troot\t_\t_\n2\tb\t_\tX\t_\t_\t1\tdep\t_\t_\n\n";
    let (g, n) = (scratch("cycle-gold.conllu"), scratch("cycle-nbest.conllu"));
    std::fs::write(&g, gold).unwrap();
    std::fs::write(&n, nbest).unwrap();
    let o = treeval(&[
        "nbest",
        "--format",
        "json",
        g.to_str().unwrap(),
        n.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        counts(cell(&v, "scores", 2, "LAS")),
        [1, 2],
        "worst = the cycle"
    );
    let warnings = v["warnings"].to_string();
    assert!(
        warnings.contains("found 1 malformed candidate tree(s)"),
        "{warnings}"
    );
}

/// An empty gold file is an error in `nbest`, as in `deps`: no report over nothing.
#[test]
fn nbest_refuses_an_empty_gold_file() {
    let d = std::env::temp_dir().join(format!("treeval-nbest-empty-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let empty = d.join("empty.conllu");
    std::fs::write(&empty, "").unwrap();
    let e = empty.to_str().unwrap();
    for cmd in ["deps", "nbest"] {
        let o = treeval(&[cmd, e, e]);
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        assert!(
            String::from_utf8_lossy(&o.stderr)
                .contains("expected at least one word in the gold file, found none"),
            "{cmd}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(o.stdout.is_empty(), "{cmd}");
    }
}
