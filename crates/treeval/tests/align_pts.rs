//! `align` and `pts` as a Rust user calls them: hand-checked counts on the repository's
//! fixtures, in-memory inputs equal to files, typed options, usage errors, nothing
//! printed (the warnings are in the report).

use treeval::pts::PtsInputs;
use treeval::{align, pts, Common, Error, Input, Inputs, Test};

mod common;
use common::{counts, example, testdata};

fn align_file(name: &str) -> String {
    testdata(&format!("align/{name}"))
}

fn pts_file(name: &str) -> String {
    example(&format!("pts/{name}"))
}

#[test]
fn align_counts_hand_checked() {
    // gold: sure 1-1 2-2 | 1-2 2-1 (3-0 has a NULL side) | 1-1 = 5; possible-only 3-3 3-4
    // | 2-3 = 3. The 0-based hypothesis read 1-based: 1-1 2-2 3-3 4-4 | 1-2 2-1 2-2 |
    // 1-1 2-3 (2-3 twice, counted once) = 9 links, 5 of them sure, 7 sure or possible.
    let inputs = Inputs::new(align_file("gold.naacl"), [align_file("hyp.pharaoh")]);
    let ev = align::evaluate(&align::Options::default(), &inputs, &Common::default()).unwrap();
    assert_eq!(counts(&ev, "AER", 0), vec![9.0, 5.0, 5.0, 7.0]);
    assert_eq!(counts(&ev, "precision", 0), vec![7.0, 9.0]);
    let aer = ev.report.cell("AER", 0).unwrap().value.unwrap();
    assert!((aer - (1.0 - 12.0 / 14.0)).abs() < 1e-12, "{aer}");
    assert!(ev.state.is_none() && ev.text.is_none());
}

#[test]
fn align_in_memory_inputs_equal_files() {
    let read = |n: &str| std::fs::read(align_file(n)).unwrap();
    let files = Inputs::new(
        align_file("gold.naacl"),
        [align_file("hyp.pharaoh"), align_file("hyp2.pharaoh")],
    );
    let memory = Inputs {
        gold: Input::memory("<input 1>", read("gold.naacl")),
        systems: vec![
            Input::memory("<input 2>", read("hyp.pharaoh")),
            Input::memory("<input 3>", read("hyp2.pharaoh")),
        ],
    };
    let common = Common {
        test: vec![Test::Ar],
        samples: Some(200),
        ci: Some(0.95),
        ci_samples: 200,
        ..Common::default()
    };
    let a = align::evaluate(&align::Options::default(), &files, &common).unwrap();
    let b = align::evaluate(&align::Options::default(), &memory, &common).unwrap();
    assert_eq!(a.report.sections, b.report.sections);
    assert_eq!(a.report.comparisons, b.report.comparisons);
    assert!(!b.report.comparisons.is_empty());
    assert_eq!(b.report.inputs[1].path, "<input 2>");
    // hyp2 differs from hyp: the rows are its own
    assert_ne!(counts(&a, "AER", 0), counts(&a, "AER", 1));
}

#[test]
fn align_compat_is_text_and_its_warnings_are_in_the_report() {
    let options: align::Options = serde_json::from_str(r#"{"compat": "aer.py"}"#).unwrap();
    let inputs = Inputs::new(align_file("gold.naacl"), [align_file("hyp.pharaoh")]);
    let ev = align::evaluate(&options, &inputs, &Common::default()).unwrap();
    let text = ev.text.expect("aer.py's line");
    // AER 1 − 12/14, precision 7/9, recall 5/5, 9 links
    let line = format!("{}: 14.3% (77.8%/100.0%/9)\n", align_file("hyp.pharaoh"));
    assert_eq!(text, line);
    // wa_eval_align.pl compares sentence numbers as text: `3` in the hypothesis is not
    // the gold's `0003`, which the library says in the report (it prints nothing)
    let options: align::Options = serde_json::from_str(r#"{"compat": "wa_eval_align"}"#).unwrap();
    let inputs = Inputs::new(align_file("gold.naacl"), [align_file("hyp-tagged.naacl")]);
    let ev = align::evaluate(&options, &inputs, &Common::default()).unwrap();
    let text = ev.text.as_deref().expect("the script's block");
    assert!(text.contains("AER       = "), "{text}");
    let moved = ev
        .warnings()
        .iter()
        .find(|w| w.message.contains("written differently"));
    assert!(moved.is_some(), "{:?}", ev.warnings());
}

#[test]
fn align_state_and_usage_errors() {
    let inputs = Inputs::new(align_file("gold.naacl"), [align_file("hyp.pharaoh")]);
    let part = Common {
        state: true,
        ..Common::default()
    };
    let ev = align::evaluate(&align::Options::default(), &inputs, &part).unwrap();
    assert_eq!(ev.state.expect("a state").family.name(), "align");
    let one = Common {
        test: vec![Test::Ar],
        ..Common::default()
    };
    let e = align::evaluate(&align::Options::default(), &inputs, &one).unwrap_err();
    assert!(
        matches!(&e, Error::Usage(m) if m.contains("two hypothesis files")),
        "{e:?}"
    );
    let mcnemar = Common {
        test: vec![Test::Mcnemar],
        ..Common::default()
    };
    let two = Inputs::new(
        align_file("gold.naacl"),
        [align_file("hyp.pharaoh"), align_file("hyp2.pharaoh")],
    );
    let e = align::evaluate(&align::Options::default(), &two, &mcnemar).unwrap_err();
    assert!(
        matches!(&e, Error::Usage(m) if m.contains("mcnemar")),
        "{e:?}"
    );
    let e = serde_json::from_str::<align::Options>(r#"{"null_links": "include"}"#).unwrap_err();
    assert!(e.to_string().contains("unknown field `null_links`"), "{e}");
    let bad_base = align::Options {
        hyp_base: Some(2),
        ..align::Options::default()
    };
    let e = align::evaluate(&bad_base, &inputs, &Common::default()).unwrap_err();
    assert!(
        matches!(&e, Error::Usage(m) if m.contains("--hyp-base")),
        "{e:?}"
    );
}

fn pts_inputs() -> PtsInputs {
    PtsInputs::new(
        (
            pts_file("gold.en.conllu"),
            pts_file("gold.de.conllu"),
            pts_file("gold.en-de.naacl"),
        ),
        [(
            pts_file("parser.en.conllu"),
            pts_file("parser.de.conllu"),
            pts_file("aligner.en-de.pharaoh"),
        )],
    )
}

#[test]
fn pts_alignment_counts_hand_checked() {
    // gold: 4 + 6 + 5 sure links and 2-2 possible in sentence 3 (S = 15, P = 16); the
    // aligner: 4 right | 6 right and 4-5 wrong | 1-1 2-2 4-2 3-4 5-3 6-5, all in the gold
    // (2-2 possible): A = 17, A∩S = 15, A∩P = 16, AER = 1 − 31/32
    let ev = pts::evaluate(&pts::Options::default(), &pts_inputs(), &Common::default()).unwrap();
    let aer = ev.report.cell("AER", 0).expect("AER").value.unwrap();
    assert!((aer - 1.0 / 32.0).abs() < 1e-12, "{aer}");
    assert!(ev.report.cell("PTS", 0).is_some());
    assert!(ev.state.is_none() && ev.text.is_none());
}

#[test]
fn pts_in_memory_inputs_equal_files_and_usage_errors() {
    let read = |n: &str| std::fs::read(pts_file(n)).unwrap();
    let mem = |i: usize, n: &str| Input::memory(format!("<input {i}>"), read(n));
    let memory = PtsInputs::new(
        (
            mem(1, "gold.en.conllu"),
            mem(2, "gold.de.conllu"),
            mem(3, "gold.en-de.naacl"),
        ),
        [(
            mem(4, "parser.en.conllu"),
            mem(5, "parser.de.conllu"),
            mem(6, "aligner.en-de.pharaoh"),
        )],
    );
    let common = Common {
        ci: Some(0.95),
        ci_samples: 200,
        ..Common::default()
    };
    let a = pts::evaluate(&pts::Options::default(), &pts_inputs(), &common).unwrap();
    let b = pts::evaluate(&pts::Options::default(), &memory, &common).unwrap();
    assert_eq!(a.report.sections, b.report.sections);
    assert!(b.report.inputs.iter().any(|i| i.path == "<input 6>"));
    let mut uneven = pts_inputs();
    uneven.sys_b.clear();
    let e = pts::evaluate(&pts::Options::default(), &uneven, &Common::default()).unwrap_err();
    assert!(
        matches!(&e, Error::Usage(m) if m.contains("as many --sys-b")),
        "{e:?}"
    );
    let o: pts::Options = serde_json::from_str(r#"{"weights": [1, 0, 0]}"#).unwrap();
    let e = pts::evaluate(&o, &pts_inputs(), &Common::default());
    assert!(e.is_ok(), "{e:?}");
    let zero: pts::Options = serde_json::from_str(r#"{"weights": [0, 0, 0]}"#).unwrap();
    let e = pts::evaluate(&zero, &pts_inputs(), &Common::default()).unwrap_err();
    assert!(matches!(e, Error::Usage(_)), "{e:?}");
}
