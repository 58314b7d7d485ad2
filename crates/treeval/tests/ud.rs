//! `ud` and `relations` as a Rust user calls them: counts hand-checked on the repo's
//! fixtures, in-memory inputs equal files, typed options, usage errors, the reference
//! scorers' text, records and state; nothing is printed.

use treeval::{relations, ud, Common, Input, Inputs};

mod common;
use common::{testdata, Shared};

fn ud(case: &str, file: &str) -> String {
    testdata(&format!("ud/{case}/{file}"))
}

fn tokenization() -> Inputs {
    Inputs::new(
        ud("different-tokenization", "gold.conllu"),
        [ud("different-tokenization", "sys.conllu")],
    )
}

/// The counts of `measure`'s cell in the row of `metric` (ud's rows are keyed by metric)
/// or, without a key, of the headline row.
fn counts(
    ev: &treeval::Evaluation,
    metric: Option<&str>,
    measure: &str,
    system: usize,
) -> Vec<f64> {
    let row = ev
        .report
        .sections
        .iter()
        .flat_map(|s| &s.rows)
        .find(|r| r.system == system && r.key.as_deref() == metric)
        .expect("a row");
    let cell = row.cells.iter().find(|c| c.measure == measure);
    cell.expect(measure).counts.clone()
}

#[test]
fn ud_counts_hand_checked() {
    // gold: The cat sleeps . | Dogs bark loudly . (8 words); the system writes
    // `sleeps.` and `loud` `ly`: 5 words align (The cat Dogs bark .), of which The
    // (det → cat) and the last . (punct → bark) keep head and label
    let ev = ud::evaluate(&ud::Options::default(), &tokenization(), &Common::default()).unwrap();
    assert_eq!(counts(&ev, Some("Words"), "F1", 0), vec![5.0, 8.0, 8.0]);
    assert_eq!(counts(&ev, Some("LAS"), "F1", 0), vec![2.0, 8.0, 8.0]);
    assert_eq!(
        counts(&ev, Some("LAS"), "aligned-accuracy", 0),
        vec![2.0, 5.0]
    );
    assert_eq!(counts(&ev, Some("Sentences"), "F1", 0), vec![0.0, 2.0, 1.0]);
    assert!(ev.state.is_none() && ev.text.is_none());
    // the gold leaves XPOS and FEATS empty: a warning in the report (nothing printed)
    assert_eq!(ev.warnings().len(), 1, "{:?}", ev.warnings());
    assert!(ev.warnings()[0].message.contains("XPOS and FEATS"));
}

#[test]
fn ud_in_memory_inputs_equal_files() {
    let read = |f: &str| std::fs::read(ud("different-tokenization", f)).unwrap();
    let memory = Inputs {
        gold: Input::memory("<input 1>", read("gold.conllu")),
        systems: vec![
            Input::memory("<input 2>", read("sys.conllu")),
            Input::memory("<input 3>", read("gold.conllu")),
        ],
    };
    let files = Inputs::new(
        ud("different-tokenization", "gold.conllu"),
        [
            ud("different-tokenization", "sys.conllu"),
            ud("different-tokenization", "gold.conllu"),
        ],
    );
    let common = Common {
        test: vec![treeval::Test::Ar],
        samples: Some(200),
        ..Common::default()
    };
    let options = ud::Options {
        per_relation: true,
        ..ud::Options::default()
    };
    let a = ud::evaluate(&options, &files, &common).unwrap();
    let b = ud::evaluate(&options, &memory, &common).unwrap();
    assert_eq!(a.report.sections, b.report.sections);
    assert_eq!(a.report.comparisons, b.report.comparisons);
    assert_eq!(b.report.inputs[1].path, "<input 2>");
    // the gold against itself: every gold word right
    assert_eq!(counts(&b, Some("LAS"), "F1", 1), vec![8.0, 8.0, 8.0]);
}

#[test]
fn ud_errors_listing_and_records_read_sent_ids_from_memory() {
    let read = |f: &str| std::fs::read(ud("different-tokenization", f)).unwrap();
    let memory = Inputs {
        gold: Input::memory("<input 1>", read("gold.conllu")),
        systems: vec![Input::memory("<input 2>", read("sys.conllu"))],
    };
    let buf = Shared::default();
    let common = Common {
        errors: true,
        per_sentence: Some(treeval::Sink::new("records", buf.clone())),
        ..Common::default()
    };
    let ev = ud::evaluate(&ud::Options::default(), &memory, &common).unwrap();
    let text = buf.text();
    // a header, then one record per gold sentence (2), with the gold's sent_ids
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[1].contains(r#""sent_id":"a1""#), "{text}");
    assert!(lines[2].contains(r#""sent_id":"a2""#), "{text}");
    // every gold word that is not right (8 - 2 LAS) is listed, with its sentence's id
    let listing = &ev.report.listings[0];
    assert_eq!(listing.rows.len(), 6, "{listing:?}");
    let json = serde_json::to_string(listing).unwrap();
    assert!(json.contains("a1") && json.contains("a2"), "{json}");
}

#[test]
fn ud_compat_is_the_reference_text_and_a_state_is_returned() {
    let options = ud::Options {
        compat: Some(ud::Compat::Conll18),
        ..ud::Options::default()
    };
    let ev = ud::evaluate(&options, &tokenization(), &Common::default()).unwrap();
    assert_eq!(
        ev.text.as_deref(),
        Some("LAS F1 Score: 25.00\nMLAS Score: 0.00\nBLEX Score: 0.00\n")
    );
    // udeval with collapsed empty nodes is a warning of kind compat_note (the command
    // line prints it on stderr with the others), and signed
    let options = ud::Options {
        compat: Some(ud::Compat::Udeval),
        empty_nodes: Some(ud::EmptyNodes::Collapse),
        ..ud::Options::default()
    };
    let ev = ud::evaluate(&options, &tokenization(), &Common::default()).unwrap();
    assert!(ev
        .warnings()
        .iter()
        .any(|w| w.kind == treeval::WarningKind::CompatNote
            && w.message
                .contains("--empty-nodes collapse differs from udeval's")));
    assert!(ev
        .report
        .signature
        .0
        .contains("empty-nodes:collapse(given)"));
    let common = Common {
        state: true,
        ..Common::default()
    };
    let ev = ud::evaluate(&ud::Options::default(), &tokenization(), &common).unwrap();
    assert_eq!(ev.state.expect("a state").family.name(), "ud");
}

#[test]
fn ud_usage_errors_come_back_as_usage() {
    let usage = |options: &ud::Options, inputs: &Inputs, common: &Common| {
        let e = ud::evaluate(options, inputs, common).unwrap_err();
        assert!(matches!(e, treeval::Error::Usage(_)), "{e:?}");
        e.to_string()
    };
    let one = tokenization();
    let test = Common {
        test: vec![treeval::Test::Ar],
        ..Common::default()
    };
    assert!(usage(&ud::Options::default(), &one, &test).contains("at least two"));
    let mcnemar = Common {
        test: vec![treeval::Test::Mcnemar],
        ..Common::default()
    };
    assert!(usage(&ud::Options::default(), &one, &mcnemar).contains("--test mcnemar"));
    let digits = ud::Options {
        enhancements: "9".into(),
        ..ud::Options::default()
    };
    assert!(usage(&digits, &one, &Common::default()).starts_with("--enhancements"));
    let sys_where = Common {
        where_: vec!["sys.deprel=det".into()],
        ..Common::default()
    };
    assert!(usage(&ud::Options::default(), &one, &sys_where).contains("gold words only"));
    let resync = ud::Options {
        align: ud::Align::Resync,
        ..ud::Options::default()
    };
    let state = Common {
        state: true,
        ..Common::default()
    };
    assert!(usage(&resync, &one, &state).contains("--align resync"));
    let none = Inputs::new(
        ud("different-tokenization", "gold.conllu"),
        Vec::<String>::new(),
    );
    usage(&ud::Options::default(), &none, &Common::default());
}

#[test]
fn ud_text_mismatch_names_both_inputs() {
    let inputs = Inputs {
        gold: Input::memory(
            "<input 1>",
            b"1\tab\t_\t_\t_\t_\t0\troot\t_\t_\n\n".to_vec(),
        ),
        systems: vec![Input::memory(
            "<input 2>",
            b"1\tax\t_\t_\t_\t_\t0\troot\t_\t_\n\n".to_vec(),
        )],
    };
    let e = ud::evaluate(&ud::Options::default(), &inputs, &Common::default()).unwrap_err();
    assert!(matches!(e, treeval::Error::Eval(_)), "{e:?}");
    let m = e.to_string();
    assert!(
        m.starts_with("<input 2>:1: expected the same text as <input 1>:1"),
        "{m}"
    );
}

#[test]
fn ud_options_are_typed_and_refuse_unknown_names() {
    let o: ud::Options = serde_json::from_str(
        r#"{"compat": "udeval-counts", "align": "resync", "by": ["deprel"], "empty_nodes": "drop"}"#,
    )
    .unwrap();
    assert_eq!(o.compat, Some(ud::Compat::UdevalCounts));
    assert_eq!(o.align, ud::Align::Resync);
    assert_eq!(o.test_metrics, ["LAS", "MLAS", "BLEX"]);
    assert_eq!(o.enhancements, "0");
    let e = serde_json::from_str::<ud::Options>(r#"{"per_relations": true}"#).unwrap_err();
    assert!(e.to_string().contains("`per_relation`"), "{e}");
    let r: relations::Options = serde_json::from_str(r#"{"graph": "enhanced"}"#).unwrap();
    assert_eq!(r.graph, relations::Graph::Enhanced);
    assert_eq!(r.test_metrics, ["CA", "CA-macro"]);
    assert!(serde_json::from_str::<relations::Options>(r#"{"compat": "conll18"}"#).is_err());
}

#[test]
fn relations_counts_hand_checked_and_in_memory_equal_files() {
    // Dt ∩ Ds: 1 of 4 gold / 3 system relations, then 1 of 4 / 5: CA 0.25 and 0.2,
    // micro 1 - ΣDf/Σmax = 1 - 7/9
    let ev = relations::evaluate(
        &relations::Options::default(),
        &tokenization(),
        &Common::default(),
    )
    .unwrap();
    assert_eq!(counts(&ev, None, "CA", 0), vec![7.0, 9.0]);
    assert_eq!(counts(&ev, None, "CA-macro", 0), vec![0.45, 2.0, 9.0]);
    let read = |f: &str| std::fs::read(ud("different-tokenization", f)).unwrap();
    let memory = Inputs {
        gold: Input::memory("<input 1>", read("gold.conllu")),
        systems: vec![Input::memory("<input 2>", read("sys.conllu"))],
    };
    let common = Common {
        errors: true,
        ci: Some(0.95),
        ci_samples: 100,
        ..Common::default()
    };
    let a = relations::evaluate(&relations::Options::default(), &tokenization(), &common).unwrap();
    let b = relations::evaluate(&relations::Options::default(), &memory, &common).unwrap();
    assert_eq!(a.report.sections, b.report.sections);
    assert_eq!(b.report.inputs[0].path, "<input 1>");
    // the errors, as the scores count them: 8 - 2 gold relations missing, 8 - 2 system
    // relations extra
    let rows = |ev: &treeval::Evaluation| ev.report.listings[0].rows.len();
    assert_eq!(rows(&b), (8 - 2) + (8 - 2));
    assert_eq!(rows(&a), rows(&b));
}

#[test]
fn relations_enhanced_graph_and_state() {
    let options = relations::Options {
        graph: relations::Graph::Enhanced,
        ..relations::Options::default()
    };
    let inputs = Inputs::new(
        ud("empty-nodes", "gold.conllu"),
        [ud("empty-nodes", "sys.conllu")],
    );
    let common = Common {
        state: true,
        keep_sentences: true,
        ..Common::default()
    };
    let ev = relations::evaluate(&options, &inputs, &common).unwrap();
    assert!(ev.report.signature.0.contains("graph:enhanced"));
    let state = ev.state.expect("a state");
    assert_eq!(state.family.name(), "relations");
    let mcnemar = Common {
        test: vec![treeval::Test::Mcnemar],
        ..Common::default()
    };
    let e = relations::evaluate(&options, &inputs, &mcnemar).unwrap_err();
    assert!(matches!(e, treeval::Error::Usage(_)), "{e:?}");
}
