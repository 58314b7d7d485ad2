//! `ted` and `nbest` as a Rust user calls them: hand-checked counts on the repository's
//! fixtures, in-memory inputs equal to files, typed options, usage errors, nothing printed.

use treeval::{nbest, ted, Common, Input};

mod common;
use common::{counts, read, testdata, Shared};

#[test]
fn ted_counts_hand_checked() {
    // the parse attaches "on" (word 5) to "have" instead of "worked": the one move
    // deletes and inserts its node (δ_new = 2); ι = 10 nodes of the parse + 11 of the
    // gold (7 words, and a `*` node for each word that heads others: 4 in the gold,
    // "would", "have", "worked", "on"; 3 in the parse, where "worked" heads none)
    let inputs = ted::Inputs::gold_parses(
        testdata("ted/functional-gold.conllu"),
        [testdata("ted/functional-parse.conllu")],
    );
    let ev = ted::evaluate(&ted::Options::default(), &inputs, &Common::default()).unwrap();
    assert_eq!(counts(&ev, "TedEval", 0), vec![2.0, 21.0]);
    assert_eq!(counts(&ev, "LAS", 0), vec![6.0, 7.0]);
    assert!(ev.state.is_none() && ev.text.is_none() && ev.warnings().is_empty());
    assert_eq!(
        ev.report.signature.0,
        format!(
            "treeval {}|ted|experiments:1|labels:labeled|costs:unit|average:global|equiv:none",
            env!("CARGO_PKG_VERSION")
        )
    );
}

#[test]
fn ted_in_memory_equals_files_and_tests_two_parses_by_default() {
    let (g, p) = ("ted/functional-gold.conllu", "ted/functional-parse.conllu");
    let files = ted::Inputs::gold_parses(testdata(g), [testdata(p), testdata(g)]);
    let memory = ted::Inputs {
        exp: vec![
            ted::Exp {
                name: testdata(p),
                gold: Input::memory("<gold>", read(g)),
                parse: Input::memory("<parse 1>", read(p)),
            },
            ted::Exp {
                name: testdata(g),
                gold: Input::memory("<gold>", read(g)),
                parse: Input::memory("<parse 2>", read(g)),
            },
        ],
        ..ted::Inputs::default()
    };
    let common = Common {
        samples: Some(100),
        ..Common::default()
    };
    let a = ted::evaluate(&ted::Options::default(), &files, &common).unwrap();
    let b = ted::evaluate(&ted::Options::default(), &memory, &common).unwrap();
    assert_eq!(a.report.sections, b.report.sections);
    assert_eq!(a.report.comparisons, b.report.comparisons);
    // two parses are compared by approximate randomization without asking
    assert_eq!(a.report.comparisons.len(), 1);
    assert!(a.report.signature.0.contains("|test:ar|ar-samples:100|"));
    // the gold against itself: nothing to edit, ι = 11 + 11 nodes
    assert_eq!(counts(&a, "TedEval", 1), vec![0.0, 22.0]);
    assert_eq!(b.report.inputs[0].path, "<gold>");
}

#[test]
fn ted_state_records_and_no_test() {
    let lines = Shared::default();
    let common = Common {
        state: true,
        per_sentence: Some(treeval::Sink::new("mem", lines.clone())),
        ..Common::default()
    };
    let (g, p) = ("ted/functional-gold.conllu", "ted/functional-parse.conllu");
    let inputs = ted::Inputs::gold_parses(testdata(g), [testdata(p), testdata(p)]);
    let options = ted::Options {
        no_test: true,
        ..ted::Options::default()
    };
    let ev = ted::evaluate(&options, &inputs, &common).unwrap();
    assert!(ev.report.comparisons.is_empty());
    let state = ev.state.expect("a state");
    assert_eq!(state.family.name(), "ted");
    let text = lines.text();
    let records: Vec<&str> = text.lines().collect();
    // the header, then one sentence for each of the two parses
    assert_eq!(records.len(), 3, "{text}");
    assert!(records[0].contains("\"role\":\"gold\"") && records[1].contains("\"score\""));
}

#[test]
fn ted_distances_hand_checked() {
    // APTED's example (2), a child moved under its sibling (delete + insert: 2), one
    // node inserted (1)
    let inputs = ted::Inputs {
        distance: Some(testdata("ted/pairs.txt").into()),
        ..ted::Inputs::default()
    };
    let text = ted::distances(&ted::Options::default(), &inputs, &Common::default()).unwrap();
    assert_eq!(text, "2\n2\n1\n");
    let memory = ted::Inputs {
        distance: Some(Input::memory("<pairs>", &b"{a{b}}\t{a{c}}\n{a}\n"[..])),
        ..ted::Inputs::default()
    };
    let unlabeled = ted::Options {
        unlabeled: true,
        ..ted::Options::default()
    };
    match ted::distances(&unlabeled, &memory, &Common::default()) {
        Err(treeval::Error::Eval(m)) => assert_eq!(
            m,
            "<pairs>:2:1: expected two trees separated by a tab, found one"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn ted_usage_errors() {
    let usage = |inputs: &ted::Inputs, common: &Common| match ted::evaluate(
        &ted::Options::default(),
        inputs,
        common,
    ) {
        Err(treeval::Error::Usage(m)) => m,
        other => panic!("{other:?}"),
    };
    assert!(usage(&ted::Inputs::default(), &Common::default()).starts_with("give --gold FILE"));
    let one = ted::Inputs::gold_parses(
        testdata("ted/functional-gold.conllu"),
        [testdata("ted/functional-parse.conllu")],
    );
    let test = Common {
        test: vec![treeval::Test::Ar],
        ..Common::default()
    };
    assert!(usage(&one, &test).starts_with("--test compares systems"));
    let mcnemar = Common {
        test: vec![treeval::Test::Mcnemar],
        ..Common::default()
    };
    assert!(usage(&one, &mcnemar).starts_with("--test mcnemar needs paired binary decisions"));
    let where_ = Common {
        where_: vec!["deprel=nsubj".into()],
        ..Common::default()
    };
    assert!(usage(&one, &where_).starts_with("--where is not available for `treeval ted`"));
    assert!(matches!(
        ted::Exp::parse("name:only-two"),
        Err(treeval::Error::Usage(m)) if m.starts_with("--exp expects NAME:GOLD:PARSE")
    ));
}

#[test]
fn ted_options_are_serde_with_the_long_options_names() {
    let o: ted::Options =
        serde_json::from_str(r#"{"unlabeled": true, "bracket_labels": "full", "max_cost": 9}"#)
            .unwrap();
    assert!(o.unlabeled && o.bracket_labels == ted::BracketLabels::Full && o.max_cost == Some(9));
    assert!(serde_json::from_str::<ted::Options>(r#"{"unlabelled": true}"#).is_err());
}

fn alpino(name: &str) -> String {
    testdata(&format!("nbest/alpino-example/{name}"))
}

#[test]
fn nbest_counts_hand_checked() {
    // 3 sentences, 17 words: the parser's first candidate misses one LAS triple, the best
    // candidates none, the worst six; the parser score chooses the first candidate
    let inputs = nbest::Inputs::Conllu(treeval::Inputs::new(
        alpino("example.gold.conllu"),
        [alpino("example.nbest.conllu")],
    ));
    let ev = nbest::evaluate(&nbest::Options::default(), &inputs, &Common::default()).unwrap();
    let (first, best, worst, chosen) = (0, 1, 2, 3);
    assert_eq!(counts(&ev, "LAS", first), vec![16.0, 17.0]);
    assert_eq!(counts(&ev, "LAS", best), vec![17.0, 17.0]);
    assert_eq!(counts(&ev, "LAS", worst), vec![11.0, 17.0]);
    assert_eq!(counts(&ev, "LAS", chosen), vec![16.0, 17.0]);
    assert_eq!(counts(&ev, "UAS", worst), vec![13.0, 17.0]);
    assert!(ev.text.is_none() && ev.state.is_none());
}

#[test]
fn nbest_in_memory_equals_files_with_tests() {
    let files = nbest::Inputs::Conllu(treeval::Inputs::new(
        alpino("example.gold.conllu"),
        [alpino("example.nbest.conllu")],
    ));
    let memory = nbest::Inputs::Conllu(treeval::Inputs {
        gold: Input::memory(
            "<input 1>",
            read("nbest/alpino-example/example.gold.conllu"),
        ),
        systems: vec![Input::memory(
            "<input 2>",
            read("nbest/alpino-example/example.nbest.conllu"),
        )],
    });
    let common = Common {
        test: vec![treeval::Test::Ar],
        samples: Some(200),
        ..Common::default()
    };
    let options = nbest::Options {
        test_metrics: vec!["las".into(), "ca".into()],
        ..nbest::Options::default()
    };
    let a = nbest::evaluate(&options, &files, &common).unwrap();
    let b = nbest::evaluate(&options, &memory, &common).unwrap();
    assert_eq!(a.report.sections, b.report.sections);
    assert_eq!(a.report.comparisons, b.report.comparisons);
    // chosen against first, on LAS and CA (the names as the measures write them)
    assert_eq!(a.report.comparisons.len(), 2);
    let tested = &a.report.significance.as_ref().unwrap().metrics;
    assert_eq!(tested, &vec!["LAS".to_owned(), "CA".to_owned()]);
}

#[test]
fn nbest_compat_alpino_is_evaluate_pl_byte_for_byte() {
    // evaluate.pl -x's own output on its input lines, from paths and from memory
    let expected =
        String::from_utf8(read("nbest/alpino-example/example.parser.evaluate.txt")).unwrap();
    let options = nbest::Options {
        compat: Some(nbest::Compat::Alpino),
        ..nbest::Options::default()
    };
    let lines = nbest::Inputs::Alpino(alpino("example.parser.alpino.txt").into());
    let ev = nbest::evaluate(&options, &lines, &Common::default()).unwrap();
    assert_eq!(ev.text.as_deref(), Some(expected.as_str()));
    let memory = nbest::Inputs::Alpino(Input::memory(
        "<alpino>",
        read("nbest/alpino-example/example.parser.alpino.txt"),
    ));
    let ev = nbest::evaluate(&options, &memory, &Common::default()).unwrap();
    assert_eq!(ev.text.as_deref(), Some(expected.as_str()));
}

#[test]
fn nbest_usage_errors() {
    let usage =
        |options: &nbest::Options, inputs: &nbest::Inputs, common: &Common| match nbest::evaluate(
            options, inputs, common,
        ) {
            Err(treeval::Error::Usage(m)) => m,
            other => panic!("{other:?}"),
        };
    let lines = nbest::Inputs::Alpino(alpino("example.parser.alpino.txt").into());
    let gold_only = nbest::Inputs::Conllu(treeval::Inputs::new(
        alpino("example.gold.conllu"),
        Vec::<String>::new(),
    ));
    let default = nbest::Options::default();
    let common = Common::default();
    assert!(usage(&default, &gold_only, &common).starts_with("give the GOLD file"));
    let mcnemar = Common {
        test: vec![treeval::Test::Mcnemar],
        ..Common::default()
    };
    assert!(usage(&default, &lines, &mcnemar).starts_with("--test mcnemar needs per-word"));
    let state = Common {
        state: true,
        ..Common::default()
    };
    assert!(usage(&default, &lines, &state).contains("does not write a mergeable state"));
    let bad = nbest::Options {
        test_metrics: vec!["nope".into()],
        ..nbest::Options::default()
    };
    assert!(usage(&bad, &lines, &common).starts_with("--test-metrics: expected one of"));
}
