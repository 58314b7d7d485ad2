//! `treeval::brackets` as a Rust user calls it: hand-checked EVALB counts, in-memory
//! inputs equal to files, EVALB's output and messages as values (nothing printed), the
//! state and per-sentence records, usage errors as usage errors.

use treeval::brackets::{self, Compat, Layout, Options};
use treeval::{Common, Error, Input, Inputs};

mod common;
use common::{counts, testdata, Shared};

fn paper(name: &str) -> String {
    testdata(&format!("brackets/careful-paper/{name}"))
}

/// careful-paper: sentence 1, gold S(0,5) VP(1,5) NP(3,5), test adds PP(2,5): 3 of 3
/// gold, 3 of 4 test; sentence 2, gold S(0,6) NP(0,2) VP(2,6) NP(3,6), test S(0,6)
/// X(1,6) Y(1,3) NP(3,6) Z(4,6): S and NP(3,6) match, X and Y cross NP(0,2) (Y also
/// VP(2,6)). So recall 5/7, precision 5/9, 2 crossing brackets in 2 sentences, 1 with
/// none, every one of the 11 tags right.
#[test]
fn brackets_counts_hand_checked() {
    let inputs = Inputs::new(paper("gold.txt"), [paper("test.txt")]);
    let ev = brackets::evaluate(&Options::default(), &inputs, &Common::default()).unwrap();
    assert_eq!(counts(&ev, "recall", 0), vec![5.0, 7.0]);
    assert_eq!(counts(&ev, "precision", 0), vec![5.0, 9.0]);
    assert_eq!(counts(&ev, "F", 0), vec![5.0, 7.0, 9.0]);
    assert_eq!(counts(&ev, "crossing", 0), vec![2.0, 2.0, 0.0, 0.0]);
    assert_eq!(counts(&ev, "no-crossing", 0), vec![1.0, 2.0, 0.0, 0.0]);
    // correct tags, words, words without a tag
    assert_eq!(counts(&ev, "tagging", 0), vec![11.0, 11.0, 0.0]);
    assert!(ev.state.is_none() && ev.text.is_none() && ev.stderr.is_empty());
    assert!(ev.warnings().is_empty(), "{:?}", ev.warnings());
    let sig = &ev.report.signature.0;
    assert!(
        sig.contains("brackets") && sig.contains("prm:COLLINS.prm (built in)"),
        "{sig}"
    );
}

#[test]
fn in_memory_inputs_equal_files() {
    let read = |n: &str| std::fs::read(paper(n)).unwrap();
    let files = Inputs::new(paper("gold.txt"), [paper("test.txt"), paper("test2.txt")]);
    let memory = Inputs {
        gold: Input::memory("<input 1>", read("gold.txt")),
        systems: vec![
            Input::memory("<input 2>", read("test.txt")),
            Input::memory("<input 3>", read("test2.txt")),
        ],
    };
    let common = Common {
        test: vec![treeval::Test::Ar],
        samples: Some(200),
        ci: Some(0.95),
        ..Common::default()
    };
    let options = Options {
        by: vec![treeval_metrics::brackets::by::BracketsKey::Label],
        ..Options::default()
    };
    let a = brackets::evaluate(&options, &files, &common).unwrap();
    let b = brackets::evaluate(&options, &memory, &common).unwrap();
    assert_eq!(a.report.sections, b.report.sections);
    assert_eq!(a.report.comparisons, b.report.comparisons);
    assert_eq!(b.report.comparisons.len(), 1);
    assert_eq!(b.report.inputs[1].path, "<input 2>");
    // test2 keeps sentence 1's gold brackets and gets sentence 2's NP(0,2) and VP(2,6)
    // besides S and NP(3,6): 3 + 4 of 7 gold, 3 + 5 test (its Z is spurious)
    assert_eq!(counts(&b, "recall", 1), vec![7.0, 7.0]);
    assert_eq!(counts(&b, "precision", 1), vec![7.0, 8.0]);
}

#[test]
fn compat_gives_evalbs_output_and_messages_as_values() {
    let case = |n: &str| testdata(&format!("brackets/prm-messages/{n}"));
    let expected = |ext: &str| {
        std::fs::read_to_string(testdata(&format!(
            "peer-expected/evalb/prm-messages.odd.{ext}"
        )))
        .unwrap()
    };
    let options = Options {
        prm: Some(case("odd.prm")),
        compat: Some(Compat::Evalb),
        ..Options::default()
    };
    let inputs = Inputs::new(case("gold.txt"), [case("test.txt")]);
    let ev = brackets::evaluate(&options, &inputs, &Common::default()).unwrap();
    assert_eq!(ev.text.as_deref(), Some(expected("out").as_str()));
    assert_eq!(ev.stderr, expected("err"));
    // MAX_ERROR: EVALB stops without its summary; what it printed comes back
    let case = |n: &str| testdata(&format!("brackets/max-error/{n}"));
    let inputs = Inputs::new(case("gold.txt"), [case("test.txt")]);
    let options = Options {
        compat: Some(Compat::Evalb),
        ..Options::default()
    };
    match brackets::evaluate(&options, &inputs, &Common::default()) {
        Err(Error::Partial {
            printed,
            message,
            stderr,
            ..
        }) => {
            let golden = |ext: &str| {
                std::fs::read_to_string(testdata(&format!(
                    "peer-expected/evalb/max-error.COLLINS.{ext}"
                )))
                .unwrap()
            };
            assert_eq!(printed, golden("out"));
            assert_eq!(stderr, golden("err"));
            assert!(message.contains("stopped at sentence 14"), "{message}");
        }
        other => panic!("expected a partial output, got {other:?}"),
    }
}

#[test]
fn warnings_go_into_the_report() {
    let case = |n: &str| testdata(&format!("brackets/skipped-blank/{n}"));
    let inputs = Inputs::new(case("gold.txt"), [case("test.txt")]);
    let ev = brackets::evaluate(&Options::default(), &inputs, &Common::default()).unwrap();
    assert_eq!(ev.warnings().len(), 1, "{:?}", ev.warnings());
    let w = &ev.warnings()[0];
    assert!(
        w.message
            .starts_with("1 of 3 sentences are scored as empty parses"),
        "{w}"
    );
    assert_eq!(counts(&ev, "skipped", 0), vec![1.0]);
    // a DEBUG parameter file: the dump is compat's, said in a warning
    let case = |n: &str| testdata(&format!("brackets/debug/{n}"));
    let options = Options {
        prm: Some(case("collins-debug2.prm")),
        ..Options::default()
    };
    let inputs = Inputs::new(case("gold.txt"), [case("test.txt")]);
    let ev = brackets::evaluate(&options, &inputs, &Common::default()).unwrap();
    assert!(
        ev.warnings().iter().any(|w| w
            .message
            .starts_with("DEBUG 2 asks for EVALB's per-sentence debug dump")),
        "{:?}",
        ev.warnings()
    );
}

#[test]
fn per_sentence_records_go_to_the_sink_and_state_is_returned() {
    let buf = Shared::default();
    let common = Common {
        state: true,
        keep_sentences: true,
        per_sentence: Some(treeval::Sink::new("mem", buf.clone())),
        ..Common::default()
    };
    let inputs = Inputs::new(paper("gold.txt"), [paper("test.txt")]);
    let ev = brackets::evaluate(&Options::default(), &inputs, &common).unwrap();
    let text = buf.text();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "a header and one record per tree: {text}");
    assert_eq!(lines[0]["command"], "brackets");
    assert_eq!(lines[2]["status"], "ok");
    let state = ev.state.expect("a state");
    assert_eq!(state.family.name(), "brackets");
    match &state.family {
        treeval::state::Family::Brackets { counts, .. } => assert_eq!(counts.gold_trees, 2),
        other => panic!("a brackets state, found {}", other.name()),
    }
}

#[test]
fn options_are_typed_and_refuse_unknown_names() {
    let o: Options = serde_json::from_str(
        r#"{"layout": "multi-line", "by": ["label", "length"], "careful": true}"#,
    )
    .unwrap();
    assert_eq!(o.layout, Layout::MultiLine);
    assert_eq!(o.by.len(), 2);
    assert_eq!(o.test_metrics, ["F"]);
    let e = serde_json::from_str::<Options>(r#"{"carefull": true}"#).unwrap_err();
    assert!(e.to_string().contains("unknown field `carefull`"), "{e}");
}

#[test]
fn usage_errors_come_back_as_usage() {
    let inputs = Inputs::new(paper("gold.txt"), [paper("test.txt")]);
    let usage = |o: &Options, c: &Common| match brackets::evaluate(o, &inputs, c) {
        Err(Error::Usage(m)) => m,
        other => panic!("expected a usage error, got {other:?}"),
    };
    let compat = Options {
        compat: Some(Compat::Evalb),
        ..Options::default()
    };
    let state = Common {
        state: true,
        ..Common::default()
    };
    assert!(usage(&compat, &state).contains("--emit-state"));
    let labeled = Options {
        labeled: true,
        ..Options::default()
    };
    assert!(usage(&labeled, &Common::default()).contains("belong to --careful"));
    let ar = Common {
        test: vec![treeval::Test::Ar],
        ..Common::default()
    };
    assert!(usage(&Options::default(), &ar).contains("at least two system files"));
    let mcnemar = Common {
        test: vec![treeval::Test::Mcnemar],
        ..Common::default()
    };
    assert!(usage(&Options::default(), &mcnemar).starts_with("--test mcnemar needs"));
    let metric = Options {
        test_metrics: vec!["LAS".into()],
        ..Options::default()
    };
    assert!(usage(&metric, &Common::default()).starts_with("--test-metrics: expected one of"));
}

/// A system tree that does not balance is a sentence the system failed to produce: by
/// default an empty parse (by hand: gold 3 + 3 brackets, the first sentence's 3 matched,
/// system 3: recall 3/6, precision 3/3, F 2·3/9; complete 1 of 2; tags 3 right of 6
/// words), EVALB's exclusion when asked (F 1.0); `compat` refuses `missed`; a state
/// records the convention and merge refuses to mix the two.
#[test]
fn an_unbalanced_system_tree_is_missed_unless_excluded() {
    let gold =
        "(S (NP (DT the) (NN cat)) (VP (VBD sat)))\n(S (NP (DT a) (NN dog)) (VP (VBD ran)))\n";
    let sys = "(S (NP (DT the) (NN cat)) (VP (VBD sat)))\n(S (NP (DT a) (NN dog)) (VP (VBD ran))\n";
    let inputs = |k: usize| Inputs {
        gold: Input::memory(format!("gold.{k}"), gold.as_bytes().to_vec()),
        systems: vec![Input::memory(format!("sys.{k}"), sys.as_bytes().to_vec())],
    };
    let run = |errors: Option<brackets::ErrorSentences>, compat, state, k| {
        let options = Options {
            error_sentences: errors,
            compat,
            ..Options::default()
        };
        let common = Common {
            state,
            ..Common::default()
        };
        brackets::evaluate(&options, &inputs(k), &common)
    };
    let ev = run(None, None, false, 0).unwrap();
    assert_eq!(counts(&ev, "recall", 0), vec![3.0, 6.0]);
    assert_eq!(counts(&ev, "F", 0), vec![3.0, 6.0, 3.0]);
    assert_eq!(ev.report.cell("F", 0).unwrap().value, Some(2.0 / 3.0));
    assert_eq!(ev.report.cell("complete", 0).unwrap().value, Some(0.5));
    assert_eq!(ev.report.cell("tagging", 0).unwrap().value, Some(0.5));
    assert!(ev.report.signature.0.contains("|error-sentences:missed"));
    let conv = &ev.report.conventions;
    assert!(conv
        .iter()
        .any(|c| c.name == "error sentences" && c.value == "missed"));
    let excluded = Some(brackets::ErrorSentences::Excluded);
    let ev = run(excluded, None, false, 0).unwrap();
    assert_eq!(ev.report.cell("F", 0).unwrap().value, Some(1.0));
    assert!(ev.report.signature.0.contains("|error-sentences:excluded"));
    // EVALB's output: the exclusion; `missed` cannot be EVALB's output
    let ev = run(None, Some(Compat::Evalb), false, 0).unwrap();
    assert!(ev
        .text
        .unwrap()
        .contains("Bracketing FMeasure       = 100.00"));
    let missed = Some(brackets::ErrorSentences::Missed);
    let e = run(missed, Some(Compat::Evalb), false, 0).unwrap_err();
    assert!(matches!(e, Error::Usage(_)), "{e}");
    // states: the same convention merges, two conventions do not
    let state = |errors, k| {
        let ev = run(errors, None, true, k).unwrap();
        treeval::files::state_text(&ev.state.expect("a state")).unwrap()
    };
    let merge = |texts: [String; 2]| {
        let inputs: Vec<Input> = (texts.iter().enumerate())
            .map(|(k, t)| Input::memory(format!("part {k}"), t.as_bytes().to_vec()))
            .collect();
        let names = vec!["part 0".to_owned(), "part 1".to_owned()];
        let states = treeval::merge::read(&inputs).unwrap();
        let options = treeval::merge::Options::default();
        treeval::merge::merge(&options, states, &names, &Common::default())
    };
    let merged = merge([state(None, 0), state(None, 1)]).unwrap();
    assert_eq!(counts(&merged, "recall", 0), vec![6.0, 12.0]);
    assert!(merged
        .report
        .signature
        .0
        .contains("|error-sentences:missed"));
    let merged = merge([state(excluded, 0), state(excluded, 1)]).unwrap();
    assert_eq!(counts(&merged, "recall", 0), vec![6.0, 6.0]);
    let e = merge([state(None, 0), state(excluded, 1)]).unwrap_err();
    assert!(e.to_string().contains("error_sentences"), "{e}");
}
