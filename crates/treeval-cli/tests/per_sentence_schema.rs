//! `--per-sentence FILE` in every command writes `treeval.per-sentence/3`: each line is
//! checked against the JSON Schema of docs/json-schema.md (read from the document), every
//! `sentence` is a gold unit's position, every `system` one of the report's systems, the
//! `counts` are the family's columns by name, and summing them gives the report's counts.

mod common;

use serde_json::Value;
use treeval_metrics::align::AlignCounts;
use treeval_metrics::brackets::BracketCounts;
use treeval_metrics::measure::Statistics;
use treeval_metrics::nbest::PickCounts;
use treeval_metrics::pts::PtsCounts;
use treeval_metrics::relations::RelationSetCounts;
use treeval_metrics::tedeval::TedEvalCounts;
use treeval_metrics::ud::UdCounts;
use treeval_metrics::AttachmentCounts;

use common::schema::{check_per_sentence_file, sums_equal_the_report, Expect};
use common::{argv, pts_inputs, root, stderr, treeval};

/// Sentences of a CoNLL-U file (blocks of non-blank lines).
fn conllu_sentences(path: &str) -> u64 {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    let mut n = 0;
    let mut inside = false;
    for line in text.lines() {
        let blank = line.trim().is_empty();
        n += u64::from(!blank && !inside);
        inside = !blank;
    }
    n
}

/// Non-blank lines (one tree or tree pair a line).
fn lines(path: &str) -> u64 {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    text.lines().filter(|l| !l.trim().is_empty()).count() as u64
}

/// The highest sentence number of a NAACL file.
fn naacl_sentences(path: &str) -> u64 {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    text.lines()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .max()
        .unwrap()
}

/// One command line and what its per-sentence file holds.
struct Case {
    line: String,
    command: &'static str,
    units: u64,
    systems: u64,
    columns: &'static [&'static str],
}

fn cases() -> Vec<Case> {
    let (g, s, s2) = (
        "examples/gold.conllu",
        "examples/sys.conllu",
        "examples/sys2.conllu",
    );
    let b = "testdata/brackets/careful-paper";
    let t = "testdata/ted";
    let a = "testdata/align";
    let p = "examples/pts/";
    let n = "testdata/nbest/alpino-example";
    let case = |line: String, command, units, systems, columns| Case {
        line,
        command,
        units,
        systems,
        columns,
    };
    let deps_like = |cmd: &'static str, columns| {
        case(
            format!("{cmd} {g} {s} {s2}"),
            cmd,
            conllu_sentences(g),
            2,
            columns,
        )
    };
    vec![
        deps_like("deps", AttachmentCounts::columns()),
        deps_like("ud", UdCounts::columns()),
        deps_like("relations", RelationSetCounts::columns()),
        case(
            format!("brackets {b}/gold.txt {b}/test.txt {b}/test2.txt"),
            "brackets",
            lines(&format!("{b}/gold.txt")),
            2,
            BracketCounts::columns(),
        ),
        case(
            "brackets testdata/brackets/skipped-blank/gold.txt testdata/brackets/skipped-blank/test.txt".into(),
            "brackets",
            lines("testdata/brackets/skipped-blank/gold.txt"),
            1,
            BracketCounts::columns(),
        ),
        case(
            format!(
                "ted --exp a:{t}/lexical-gold.conllu:{t}/lexical-parse.conllu \
                 --exp b:{t}/lexical-gold.conllu:{t}/functional-parse.conllu"
            ),
            "ted",
            conllu_sentences(&format!("{t}/lexical-gold.conllu")),
            2,
            TedEvalCounts::columns(),
        ),
        case(
            format!("ted --distance {t}/pairs.txt --script"),
            "ted",
            lines(&format!("{t}/pairs.txt")),
            1,
            &["distance"],
        ),
        case(
            format!("align {a}/gold.naacl {a}/hyp.pharaoh {a}/hyp2.pharaoh"),
            "align",
            naacl_sentences(&format!("{a}/gold.naacl")),
            2,
            AlignCounts::columns(),
        ),
        case(
            format!(
                "pts {} --sys-a {p}gold.en.conllu --sys-b {p}parser.de.conllu \
                 --sys-align {p}gold.en-de.naacl",
                pts_inputs(p)
            ),
            "pts",
            conllu_sentences(&format!("{p}gold.en.conllu")),
            2,
            PtsCounts::columns(),
        ),
        case(
            format!("nbest {n}/example.gold.conllu {n}/example.nbest.conllu {n}/example.nbest.conllu"),
            "nbest",
            conllu_sentences(&format!("{n}/example.gold.conllu")),
            8,
            PickCounts::columns(),
        ),
        case(
            format!("nbest --alpino {n}/example.seed7.alpino.txt"),
            "nbest",
            // the sentences of the evaluate.pl lines: those of the gold file
            conllu_sentences(&format!("{n}/example.gold.conllu")),
            4,
            PickCounts::columns(),
        ),
    ]
}

#[test]
fn every_command_writes_records_the_documented_schema_accepts() {
    let dir = std::env::temp_dir().join(format!("treeval-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("records.jsonl");
    let file = file.to_str().unwrap();
    let mut commands = std::collections::BTreeSet::new();
    for c in cases() {
        let distance = c.line.contains("--distance");
        let mut args = argv(&c.line);
        args.extend(["-q", "--per-sentence", file]);
        if !distance {
            args.extend(["--format", "json"]);
        }
        let o = treeval(&args);
        assert!(o.status.success(), "{}: {}", c.line, stderr(&o));
        let text = std::fs::read_to_string(file).unwrap();
        let e = Expect {
            command: c.command,
            units: c.units,
            systems: c.systems,
            columns: c.columns,
        };
        let records = check_per_sentence_file(&text, &e);
        commands.insert(c.command);
        if distance {
            // one distance a line on stdout, no report: the lines are the records
            let out = String::from_utf8(o.stdout).unwrap();
            let d: Vec<String> = out
                .lines()
                .map(|l| l.split('\t').next().unwrap().into())
                .collect();
            let r: Vec<String> = records
                .iter()
                .map(|r| r["counts"]["distance"].to_string())
                .collect();
            assert_eq!(d, r, "{}", c.line);
            continue;
        }
        let report: Value = serde_json::from_slice(&o.stdout).unwrap();
        // nbest: the report has a system per n-best list besides its four picks (the row
        // of its candidates table), which scores nothing and has no records
        let lists = if c.command == "nbest" {
            let inputs = report["inputs"].as_array().unwrap();
            inputs.iter().filter(|i| i["role"] == "system").count() as u64
        } else {
            0
        };
        assert_eq!(
            report["systems"].as_array().unwrap().len() as u64,
            c.systems + lists,
            "{}: the records' systems are the report's",
            c.line
        );
        let compared = sums_equal_the_report(&report, &records, &c.line);
        assert!(compared > 0, "{}: no cell compared", c.line);
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let all = [
        "align",
        "brackets",
        "deps",
        "nbest",
        "pts",
        "relations",
        "ted",
        "ud",
    ];
    assert_eq!(commands.into_iter().collect::<Vec<_>>(), all);
}

/// The checker refuses what the schema refuses (so that the test above can fail).
#[test]
fn the_checker_refuses_records_outside_the_schema() {
    let schema = common::schema::per_sentence_schema();
    let c = common::schema::Checker::new(&schema);
    let good = serde_json::json!({"sentence": 1, "system": 0, "sent_id": null,
        "counts": {"words": 3}, "gold_lines": [1, 4], "system_lines": [1, 4]});
    c.check(c.def("deps"), &good).unwrap();
    let bad = |edit: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        edit(&mut v);
        c.check(c.def("deps"), &v).unwrap_err()
    };
    assert!(bad(&|v| v["sentence"] = 0.into()).contains("at least 1"));
    assert!(bad(&|v| v["sentence"] = "1".into()).contains("expected type"));
    assert!(bad(&|v| v["sent_id"] = 7.into()).contains("expected type"));
    assert!(bad(&|v| v["counts"]["words"] = "3".into()).contains("expected type"));
    assert!(bad(&|v| v["gold_lines"] = serde_json::json!([1])).contains("minItems"));
    assert!(bad(&|v| v["extra"] = 1.into()).contains("extra is not in the schema"));
    assert!(bad(&|v| {
        v.as_object_mut().unwrap().remove("system");
    })
    .contains("system is required"));
    let header = serde_json::json!({"schema": "treeval.per-sentence/1", "command": "deps",
        "inputs": [{"role": "GOLD", "path": "g"}]});
    assert!(c.check(c.def("header"), &header).is_err());
}
