//! The measures as one registry: every command's `--test-metrics` takes exactly the
//! names of its family's measures (and `--help` lists them), `treeval merge` checks
//! states against the same names, and `treeval measures` prints every family's measures
//! (docs/measures.md is its Markdown output).

mod common;

use clap::CommandFactory;
use common::{root, stderr, stdout_ok, treeval};
use treeval_metrics::measure::Measure;

/// The names a family's `--test-metrics` must take: its measures that are not counts.
fn testable(ms: Vec<Measure>) -> Vec<&'static str> {
    ms.into_iter()
        .filter(|m| !m.is_count())
        .map(|m| m.name)
        .collect()
}

/// Every command with `--test-metrics`, and its family's measures (taken here from the
/// metrics crate itself, not from the CLI's registry).
fn commands() -> Vec<(&'static str, Vec<Measure>)> {
    use treeval_metrics::{align, brackets, deps, nbest, relations, ud};
    vec![
        ("deps", deps::measures()),
        ("ud", ud::measures::metric_measures()),
        ("relations", relations::measures()),
        // EVALB's, and the unsupervised profile's sentence-F1
        ("brackets", brackets::unsup::profile::brackets_measures()),
        ("align", align::measures(0.5)),
        ("nbest", nbest::pick_measures()),
    ]
}

#[test]
fn every_test_metrics_takes_its_familys_measures() {
    let cli = treeval_cli::args::Cli::command();
    let with_option: Vec<&str> = cli
        .get_subcommands()
        .filter(|c| c.get_arguments().any(|a| a.get_id() == "test_metrics"))
        .map(|c| c.get_name())
        .collect();
    let mut expected: Vec<&str> = commands().iter().map(|c| c.0).collect();
    expected.push("merge");
    let mut got = with_option.clone();
    got.sort_unstable();
    expected.sort_unstable();
    assert_eq!(got, expected, "the commands with --test-metrics");
    for (name, measures) in commands() {
        let sub = cli.find_subcommand(name).unwrap();
        let arg = sub
            .get_arguments()
            .find(|a| a.get_id() == "test_metrics")
            .unwrap();
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_owned())
            .collect();
        let want = testable(measures.clone());
        assert_eq!(values, want, "{name} --test-metrics");
        // its help lists every one with its title
        let help = stdout_ok(&[name, "--help"]);
        for m in measures.iter().filter(|m| !m.is_count()) {
            let line = format!("- {}:", m.name);
            assert!(help.contains(&line), "{name} --help lacks '{line}'");
            assert!(help.contains(m.title), "{name} --help lacks '{}'", m.title);
        }
        // the registry merge checks states against is the same
        let (_, f) = treeval_cli::args::TEST_METRIC_FAMILIES
            .iter()
            .find(|(f, _)| *f == name)
            .unwrap();
        assert_eq!(treeval_cli::args::test_metric_names(*f), want, "{name}");
    }
}

#[test]
fn test_metrics_names_in_any_case_and_refuses_others() {
    // real-shaped data: the 300-sentence EVALB pair; any case, given back canonical
    let g = "testdata/brackets/brackets-300/gold.txt";
    let t = "testdata/brackets/brackets-300/test.txt";
    let out = stdout_ok(&[
        "brackets",
        "-q",
        "--format",
        "json",
        "--test",
        "ar",
        "--samples",
        "100",
        "--test-metrics",
        "f,TAGGING,crossing",
        g,
        t,
        g,
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["significance"]["metrics"],
        serde_json::json!(["F", "tagging", "crossing"])
    );
    let tested: Vec<&str> = v["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["metric"].as_str().unwrap())
        .collect();
    assert_eq!(tested, ["F", "crossing", "tagging"]);
    // a count is not a test metric: refused with the list
    let o = treeval(&[
        "brackets",
        "--test",
        "ar",
        "--test-metrics",
        "sentences",
        g,
        t,
    ]);
    assert_eq!(o.status.code(), Some(2));
    let want = testable(treeval_metrics::brackets::unsup::profile::brackets_measures()).join(", ");
    assert!(
        stderr(&o).contains(&format!("expected one of {want}; found 'sentences'")),
        "{}",
        stderr(&o)
    );
}

#[test]
fn merge_checks_the_same_names() {
    let dir = std::env::temp_dir().join(format!("treeval-measures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("align.json");
    let state = state.to_str().unwrap();
    stdout_ok(&[
        "align",
        "-q",
        "--keep-sentences",
        "--emit-state",
        state,
        "testdata/align/gold.naacl",
        "testdata/align/hyp.pharaoh",
        "testdata/align/hyp2.pharaoh",
    ]);
    let o = treeval(&["merge", state, "--test", "ar", "--test-metrics", "links"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let want = testable(treeval_metrics::align::measures(0.5)).join(", ");
    assert!(
        stderr(&o).contains(&format!(
            "expected one of {want} (the states are of `align`)"
        )),
        "{}",
        stderr(&o)
    );
    // a name align takes now, beyond the three it took
    let o = treeval(&[
        "merge",
        state,
        "-q",
        "--test",
        "ar",
        "--test-metrics",
        "sure-recall",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn docs_measures_md_is_the_markdown_output() {
    let generated = stdout_ok(&["measures", "--format", "markdown"]);
    let path = root().join("docs/measures.md");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/measures.md differs from `treeval measures --format markdown`: regenerate it with\n  cargo run -q -p treeval-cli -- measures --format markdown > docs/measures.md"
    );
    assert!(generated.contains("| `LAS` |"));
}

#[test]
fn measures_text_fits_100_columns() {
    let text = stdout_ok(&["measures"]);
    for line in text.lines() {
        assert!(line.chars().count() <= 100, "wider than 100: {line}");
    }
    for (_, ms) in commands() {
        for m in ms {
            assert!(text.contains(&format!("  {} ", m.name)), "{}", m.name);
        }
    }
    let json: serde_json::Value =
        serde_json::from_str(&stdout_ok(&["measures", "--format", "json"])).unwrap();
    let families: Vec<&str> = json["families"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["family"].as_str().unwrap())
        .collect();
    assert_eq!(
        families,
        [
            "deps",
            "align",
            "pts",
            "ud",
            "relations",
            "brackets",
            "brackets --profile unsupervised",
            "ted",
            "nbest"
        ]
    );
    insta::assert_snapshot!(text);
}

/// The p-values of the comparisons of `metric` in a JSON report.
fn p_values(v: &serde_json::Value, metric: &str) -> Vec<(f64, bool)> {
    v["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["metric"] == metric)
        .map(|c| (c["p_value"].as_f64().unwrap(), c["significant"] == true))
        .collect()
}

#[test]
fn a_measure_that_is_na_is_never_significant() {
    // brackets under --where label=…: complete match is n/a (a property of whole
    // sentences); its tests gave p = 0, "significant", on the 300-sentence EVALB pair
    let g = "testdata/brackets/brackets-300/gold.txt";
    let t = "testdata/brackets/brackets-300/test.txt";
    let out = stdout_ok(&[
        "brackets",
        "-q",
        "--format",
        "json",
        "--where",
        "label=NP",
        "--test",
        "ar",
        "--test",
        "bootstrap",
        "--samples",
        "200",
        "--test-metrics",
        "F,complete",
        g,
        t,
        g,
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let complete = p_values(&v, "complete");
    assert_eq!(complete, [(1.0, false), (1.0, false)], "{out}");
    // ud: ELAS of files without DEPS is n/a for every system (the examples, DEPS `_`)
    let dir = std::env::temp_dir().join(format!("treeval-na-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let strip = |name: &str| {
        let text = std::fs::read_to_string(root().join("examples").join(name)).unwrap();
        let lines: Vec<String> = text
            .lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split('\t').collect();
                if f.len() == 10 {
                    f[8] = "_";
                }
                f.join("\t")
            })
            .collect();
        let path = dir.join(name);
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        path.to_string_lossy().into_owned()
    };
    let (g, a, b) = (
        strip("gold.conllu"),
        strip("sys.conllu"),
        strip("sys2.conllu"),
    );
    let out = stdout_ok(&[
        "ud",
        "-q",
        "--format",
        "json",
        "--test",
        "ar",
        "--test",
        "bootstrap",
        "--samples",
        "200",
        "--test-metrics",
        "ELAS,LAS",
        &g,
        &a,
        &b,
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(p_values(&v, "ELAS"), [(1.0, false), (1.0, false)], "{out}");
    assert_eq!(p_values(&v, "LAS").len(), 2);
    std::fs::remove_dir_all(&dir).ok();
}
