//! The library as a Rust user calls it: paths and in-memory inputs give the same
//! report, options are typed and refuse unknown names, nothing is printed.

use treeval::{deps, Common, Input, Inputs};

mod common;
use common::{counts, example, Shared};

#[test]
fn deps_counts_by_name_hand_checked() {
    // examples/sys.conllu differs from gold in 5 of 21 heads (1 more label right)
    let inputs = Inputs::new(example("gold.conllu"), [example("sys.conllu")]);
    let ev = deps::evaluate(&deps::Options::default(), &inputs, &Common::default()).unwrap();
    assert_eq!(counts(&ev, "LAS", 0), vec![16.0, 21.0]);
    assert_eq!(counts(&ev, "UAS", 0), vec![16.0, 21.0]);
    assert_eq!(counts(&ev, "LA", 0), vec![17.0, 21.0]);
    assert!(ev.state.is_none() && ev.text.is_none());
}

#[test]
fn in_memory_inputs_equal_files() {
    let read = |n: &str| std::fs::read(example(n)).unwrap();
    let files = Inputs::new(
        example("gold.conllu"),
        [example("sys.conllu"), example("sys2.conllu")],
    );
    let memory = Inputs {
        gold: Input::memory("<input 1>", read("gold.conllu")),
        systems: vec![
            Input::memory("<input 2>", read("sys.conllu")),
            Input::memory("<input 3>", read("sys2.conllu")),
        ],
    };
    let common = Common {
        test: vec![treeval::Test::Ar],
        samples: Some(200),
        ..Common::default()
    };
    let a = deps::evaluate(&deps::Options::default(), &files, &common).unwrap();
    let b = deps::evaluate(&deps::Options::default(), &memory, &common).unwrap();
    assert_eq!(a.report.sections, b.report.sections);
    assert_eq!(a.report.comparisons, b.report.comparisons);
    assert_eq!(b.report.inputs[1].path, "<input 2>");
    assert_eq!(a.report.cell("LAS", 1).unwrap().counts, vec![18.0, 21.0]);
}

#[test]
fn a_reading_error_names_the_in_memory_input() {
    let inputs = Inputs {
        gold: Input::memory("<input 1>", b"1\tA\n".to_vec()),
        systems: vec![Input::memory("<input 2>", b"1\tA\n".to_vec())],
    };
    let e = deps::evaluate(&deps::Options::default(), &inputs, &Common::default()).unwrap_err();
    assert!(matches!(e, treeval::Error::Eval(_)), "{e:?}");
    assert!(e.to_string().starts_with("<input 1>:1:"), "{e}");
}

#[test]
fn options_are_typed_and_refuse_unknown_names() {
    let o: deps::Options = serde_json::from_str(
        r#"{"punct": "deprel=punct", "by": ["deprel"], "per_relation": true}"#,
    )
    .unwrap();
    assert_eq!(o.punct.unwrap().name(), "deprel=punct");
    assert_eq!(o.test_metrics, ["LAS", "UAS", "LA"]);
    let e = serde_json::from_str::<deps::Options>(r#"{"per_relations": true}"#).unwrap_err();
    assert!(
        e.to_string().contains("unknown field `per_relations`"),
        "{e}"
    );
    assert!(
        e.to_string().contains("`per_relation`"),
        "lists the names: {e}"
    );
    let e = serde_json::from_str::<Common>(r#"{"tests": ["ar"]}"#).unwrap_err();
    assert!(e.to_string().contains("unknown field `tests`"), "{e}");
    let c: Common =
        serde_json::from_str(r#"{"test": ["ar"], "ci": 95, "where": ["deprel=nsubj"]}"#).unwrap();
    assert_eq!(c.where_, ["deprel=nsubj"]);
    assert_eq!(c.ci, Some(0.95), "a level is a percentage");
    // Python's ci=0.5 is refused as --ci 0.5 is, with the percentage it would be
    let e = serde_json::from_str::<Common>(r#"{"ci": 0.5}"#).unwrap_err();
    assert!(e.to_string().contains("did you mean 50?"), "{e}");
}

#[test]
fn per_sentence_records_go_to_the_sink_and_state_is_returned() {
    let buf = Shared::default();
    let common = Common {
        per_sentence: Some(treeval::Sink::new("records", buf.clone())),
        state: true,
        ..Common::default()
    };
    let inputs = Inputs::new(example("gold.conllu"), [example("sys.conllu")]);
    let ev = deps::evaluate(&deps::Options::default(), &inputs, &common).unwrap();
    let text = buf.text();
    // a header, then one line per sentence (3) of the one system
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(text
        .lines()
        .next()
        .unwrap()
        .contains("treeval.per-sentence/"));
    let state = ev.state.expect("a state");
    assert_eq!(state.family.name(), "deps");
}

#[test]
fn usage_errors_come_back_as_usage() {
    let inputs = Inputs::new(example("gold.conllu"), [example("sys.conllu")]);
    let common = Common {
        test: vec![treeval::Test::Ar],
        ..Common::default()
    };
    let e = deps::evaluate(&deps::Options::default(), &inputs, &common).unwrap_err();
    assert!(matches!(e, treeval::Error::Usage(_)), "{e:?}");
}

#[test]
fn the_family_is_chosen_at_run_time_by_its_tagged_options() {
    let o: treeval::Options =
        serde_json::from_str(r#"{"family": "deps", "punct": "form"}"#).unwrap();
    let inputs = Inputs::new(example("gold.conllu"), [example("sys.conllu")]);
    let by_name = treeval::evaluate(&o, &inputs, &Common::default()).unwrap();
    let direct = deps::evaluate(
        &deps::Options {
            punct: Some(treeval_metrics::PunctPolicy::Form),
            ..deps::Options::default()
        },
        &inputs,
        &Common::default(),
    )
    .unwrap();
    assert_eq!(by_name.report.sections, direct.report.sections);
    assert!(serde_json::to_string(&by_name.report.signature)
        .unwrap()
        .contains("punct:form"));
    let e = serde_json::from_str::<treeval::Options>(r#"{"family": "nope"}"#).unwrap_err();
    assert!(e.to_string().contains("deps"), "{e}");
}

/// A corpus cut in two, each part's state written as text and read back from memory,
/// merged: the counts of one run over the whole (examples: 3 sentences, cut after 1).
#[test]
fn states_of_parts_read_from_memory_merge_into_the_whole() {
    let text = |n: &str| std::fs::read_to_string(example(n)).unwrap();
    let cut = |t: String| {
        let blocks: Vec<String> = t
            .trim_end()
            .split("\n\n")
            .map(|b| format!("{b}\n\n"))
            .collect();
        (blocks[..1].concat(), blocks[1..].concat())
    };
    let (g, s) = (cut(text("gold.conllu")), cut(text("sys.conllu")));
    let part = |gold: &str, sys: &str, k: usize| {
        let inputs = Inputs {
            gold: Input::memory(format!("gold.{k}"), gold.as_bytes().to_vec()),
            systems: vec![Input::memory(format!("sys.{k}"), sys.as_bytes().to_vec())],
        };
        let common = Common {
            state: true,
            ..Common::default()
        };
        let ev = deps::evaluate(&deps::Options::default(), &inputs, &common).unwrap();
        treeval::files::state_text(&ev.state.expect("a state")).unwrap()
    };
    let texts = [part(&g.0, &s.0, 0), part(&g.1, &s.1, 1)];
    assert!(texts[0].starts_with("{\"schema\":\"treeval.state/3\""));
    let inputs: Vec<Input> = (texts.iter().enumerate())
        .map(|(k, t)| Input::memory(format!("part {k}"), t.as_bytes().to_vec()))
        .collect();
    let states = treeval::merge::read(&inputs).unwrap();
    let names = vec!["part 0".to_owned(), "part 1".to_owned()];
    let options = treeval::merge::Options::default();
    let merged = treeval::merge::merge(&options, states, &names, &Common::default()).unwrap();
    assert_eq!(counts(&merged, "LAS", 0), vec![16.0, 21.0]);
    assert_eq!(counts(&merged, "LA", 0), vec![17.0, 21.0]);
    assert!(merged.report.signature.to_string().contains("merged:2"));
    // the same part twice is refused: it would be counted twice
    let twice = treeval::merge::read(&[inputs[0].clone(), inputs[0].clone()]).unwrap();
    let e = treeval::merge::merge(&options, twice, &names, &Common::default()).unwrap_err();
    assert!(matches!(e, treeval::Error::Usage(_)), "{e}");
}

/// Sentences given as blocks, and bytes read from a reader, give the file's counts.
#[test]
fn sentence_blocks_and_readers_are_inputs_too() {
    let text = std::fs::read_to_string(example("gold.conllu")).unwrap();
    let blocks: Vec<&str> = text
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .collect();
    let sys = std::fs::File::open(example("sys.conllu")).unwrap();
    let inputs = Inputs {
        gold: Input::sentences("<gold>", &blocks),
        systems: vec![Input::read_from("<sys>", sys).unwrap()],
    };
    let ev = deps::evaluate(&deps::Options::default(), &inputs, &Common::default()).unwrap();
    assert_eq!(counts(&ev, "LAS", 0), vec![16.0, 21.0]);
    assert_eq!(ev.report.inputs[0].path, "<gold>");
}
