//! One warnings path: every command's JSON warnings carry a known `kind`, stderr prints
//! one entry per JSON entry, a kind that spans files names each file, `ud`'s resync
//! windows are warnings in the JSON, and a reference tool that stops prints its warnings
//! as warnings (not inside the error).

mod common;

use std::path::{Path, PathBuf};

use common::{root, stderr, stdout, treeval_in};
use treeval_formats::WarningKind;

/// A fresh scratch folder.
fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "treeval-warning-kinds-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `from` (relative to the repository root) written to `dir/to` with CR LF line ends.
fn crlf(from: &str, dir: &Path, to: &str) {
    let text = std::fs::read_to_string(root().join(from)).unwrap();
    std::fs::write(dir.join(to), text.replace('\n', "\r\n")).unwrap();
}

/// The JSON report of `treeval args… --format json` run in `dir` (which must succeed)
/// and the stderr of the same run as text (not quiet).
fn json_and_stderr(dir: &Path, args: &[&str]) -> (serde_json::Value, String) {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let o = treeval_in(dir, &a);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    let v = serde_json::from_str(&stdout(&o)).unwrap();
    (v, stderr(&o))
}

/// The kinds of a report's warnings, each checked to be a known name other than `other`.
fn kinds(v: &serde_json::Value, what: &str) -> Vec<String> {
    let known: Vec<&str> = WarningKind::ALL.iter().map(|k| k.name()).collect();
    let warnings = v["warnings"].as_array().unwrap();
    warnings
        .iter()
        .map(|w| {
            let k = w["kind"].as_str().unwrap_or_default();
            assert!(
                known.contains(&k) && k != "other",
                "{what}: kind {k:?} of {w}"
            );
            k.to_owned()
        })
        .collect()
}

/// Every command on inputs that make it warn: every JSON warning has a known kind (not
/// `other`), the kinds expected are there, and stderr holds one `warning:` entry per JSON
/// entry (the JSON holds all of them, grouped as printed).
#[test]
fn every_commands_warnings_have_a_known_kind() {
    let dir = tempdir("all");
    let r = root();
    crlf("examples/gold.conllu", &dir, "gold.conllu");
    crlf("examples/sys.conllu", &dir, "sys.conllu");
    let nb = "testdata/nbest/alpino-example";
    crlf(&format!("{nb}/example.gold.conllu"), &dir, "nb-gold.conllu");
    crlf(&format!("{nb}/example.nbest.conllu"), &dir, "nb.conllu");
    let pts = common::pts_inputs("examples/pts/")
        + " --sys-a examples/pts/gold.en.conllu --sys-b examples/pts/parser.de.conllu"
        + " --sys-align examples/pts/gold.en-de.naacl";
    let at = |p: &str| r.join(p).to_str().unwrap().to_owned();
    let cases: Vec<(Vec<String>, &[&str])> = vec![
        (
            vec![
                "deps".into(),
                at("examples/gold.conllu"),
                at("examples/sys.conllu"),
            ],
            &["label_subtypes"],
        ),
        (
            ["ud", "--align", "resync", "--by", "upos"]
                .map(String::from)
                .into_iter()
                .chain(
                    ["gold", "sys"]
                        .map(|f| at(&format!("testdata/ud/resync-missing-sentence/{f}.conllu"))),
                )
                .collect(),
            &["gold_column_empty", "tokenization_resync"],
        ),
        (
            vec![
                "relations".into(),
                "gold.conllu".into(),
                "sys.conllu".into(),
            ],
            &["crlf_line_endings"],
        ),
        (
            vec![
                "brackets".into(),
                at("testdata/brackets/extra-paren/gold.txt"),
                at("testdata/brackets/extra-paren/test.txt"),
            ],
            &["malformed_tree", "unscored_sentences"],
        ),
        (
            vec![
                "align".into(),
                at("testdata/align-compat/gold.talp"),
                at("testdata/align-compat/hyp-no-links.talp"),
            ],
            &["format_guessed", "no_links"],
        ),
        (
            vec![
                "ted".into(),
                "--gold".into(),
                at("testdata/ted/lexical-gold.conllu"),
                "--parse".into(),
                at("testdata/ted/lexical-parse.conllu"),
            ],
            &["unseen_labels"],
        ),
        (
            std::iter::once("pts".to_owned())
                .chain(["--test", "mcnemar"].map(String::from))
                .chain(pts.split_whitespace().map(|a| match a.starts_with("--") {
                    true => a.to_owned(),
                    false => at(a),
                }))
                .collect(),
            &["mcnemar_uas_only"],
        ),
        (
            vec!["nbest".into(), "nb-gold.conllu".into(), "nb.conllu".into()],
            &["crlf_line_endings"],
        ),
    ];
    let mut seen = Vec::new();
    for (args, expected) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (v, err) = json_and_stderr(&dir, &args);
        let k = kinds(&v, args[0]);
        for e in *expected {
            assert!(k.iter().any(|x| x == e), "{}: {e} not in {k:?}", args[0]);
        }
        let entries = err.lines().filter(|l| l.starts_with("warning: ")).count();
        assert_eq!(entries, k.len(), "{}: {err}", args[0]);
        seen.push(args[0]);
    }
    assert_eq!(
        seen,
        [
            "deps",
            "ud",
            "relations",
            "brackets",
            "align",
            "ted",
            "pts",
            "nbest"
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// One CR LF file given as gold and as system: one warning (it was "2 warnings of this
/// kind (at 1:1, 1:1)"); two CR LF files saying the same: one entry whose positions name
/// each file.
#[test]
fn a_crlf_file_as_gold_and_system_is_one_entry_whose_positions_name_their_files() {
    let dir = tempdir("crlf");
    crlf("examples/gold.conllu", &dir, "g.conllu");
    crlf("examples/gold.conllu", &dir, "s.conllu");
    for cmd in ["deps", "relations"] {
        let (v, err) = json_and_stderr(&dir, &[cmd, "g.conllu", "g.conllu"]);
        let w = &v["warnings"][0];
        assert_eq!(w["kind"], "crlf_line_endings", "{cmd}: {v}");
        assert_eq!(w["count"], 1, "{cmd}: {w}");
        assert_eq!(err.matches("found CR LF").count(), 1, "{cmd}: {err}");
        assert!(!err.contains("warnings of this kind"), "{cmd}: {err}");

        let (v, err) = json_and_stderr(&dir, &[cmd, "g.conllu", "s.conllu"]);
        let crlf: Vec<&serde_json::Value> = (v["warnings"].as_array().unwrap().iter())
            .filter(|w| w["kind"] == "crlf_line_endings")
            .collect();
        assert_eq!(crlf.len(), 1, "{cmd}: {v}");
        assert_eq!(crlf[0]["count"], 2);
        assert!(
            err.contains("2 warnings of this kind (at s.conllu:1:1, g.conllu:1:1)")
                || err.contains("2 warnings of this kind (at g.conllu:1:1, s.conllu:1:1)"),
            "{cmd}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A merge keeps the kinds of the warnings its states hold (deps, ud, relations, brackets'
/// parameter warnings aside, whose states hold the same entries).
#[test]
fn a_merged_report_keeps_its_warnings_kinds() {
    let dir = tempdir("merged");
    crlf("examples/gold.conllu", &dir, "g.conllu");
    crlf("examples/sys.conllu", &dir, "s.conllu");
    for cmd in ["deps", "ud", "relations"] {
        let state = format!("{cmd}.state.json");
        let (direct, _) =
            json_and_stderr(&dir, &[cmd, "g.conllu", "s.conllu", "--emit-state", &state]);
        let (merged, err) = json_and_stderr(&dir, &["merge", &state]);
        let want = kinds(&direct, cmd);
        assert!(
            want.contains(&"crlf_line_endings".to_owned()),
            "{cmd}: {want:?}"
        );
        assert_eq!(
            kinds(&merged, &format!("merge of {cmd}")),
            want,
            "{cmd}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ud --align resync`: a system's mismatch windows are a `tokenization_resync` warning
/// in the JSON (at the system line the first starts on, counting the windows) as on
/// stderr; with `--compat conll18` stdout is
/// the reference's lines alone and the window is a warning on stderr, not a line of
/// its own.
#[test]
fn ud_resync_windows_are_warnings_in_the_json_and_on_stderr() {
    let r = root();
    for (case, line) in [
        ("resync-missing-sentence", 10),
        ("resync-nfd", 13),
        ("text-mismatch", 12),
    ] {
        let g = format!("testdata/ud/{case}/gold.conllu");
        let s = format!("testdata/ud/{case}/sys.conllu");
        let (v, err) = json_and_stderr(&r, &["ud", "--align", "resync", &g, &s]);
        let windows = v["inputs"][1]["counts"]["resync"].as_array().unwrap().len();
        let resync: Vec<&serde_json::Value> = (v["warnings"].as_array().unwrap().iter())
            .filter(|w| w["kind"] == "tokenization_resync")
            .collect();
        assert_eq!(resync.len(), 1, "{case}: {v}");
        assert_eq!(resync[0]["count"], windows, "{case}: {v}");
        assert_eq!(resync[0]["position"], format!("{s}:{line}"), "{case}");
        assert!(
            err.contains(&format!(
                "warning: {s}:{line}: the texts of gold and system differ"
            )),
            "{case}: {err}"
        );
    }
    let g = "testdata/ud/text-mismatch/gold.conllu";
    let s = "testdata/ud/text-mismatch/sys.conllu";
    let o = treeval_in(
        &r,
        &["ud", "--align", "resync", "--compat", "conll18", g, s],
    );
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().count(), 3, "{}", stdout(&o));
    let err = stderr(&o);
    assert!(!err.contains("[1]"), "{err}");
    assert!(
        err.contains(&format!("warning: {s}:12: the texts of gold and system differ in 1 mismatch window (1 gold and 1 system words in them are unaligned; --align resync aligned the words around them); the first: gold line 12, system line 12: different characters")),
        "{err}"
    );
}

/// `align --compat aer.py` where aer.py stops: the warnings that explain it print as
/// warnings, then the error alone (it was `error: warning: …`).
#[test]
fn a_reference_tool_that_stops_prints_its_warnings_as_warnings() {
    let o = treeval_in(
        &root(),
        &[
            "align",
            "--compat",
            "aer.py",
            "testdata/align-compat/gold.talp",
            "testdata/align-compat/hyp-no-links.talp",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(!err.contains("error: warning:"), "{err}");
    assert!(
        err.contains(
            "warning: testdata/align-compat/hyp-no-links.talp: the hypothesis has no link"
        ),
        "{err}"
    );
    let last = err.lines().last().unwrap();
    assert!(
        last.starts_with("error: ") && last.contains("aer.py stops with ZeroDivisionError"),
        "{err}"
    );
    assert_eq!(err.matches("error: ").count(), 1, "{err}");
}

/// docs/json-schema.md names every kind, and the report's JSON Schema lists exactly
/// them.
#[test]
fn the_documented_kinds_are_the_kinds() {
    let doc = std::fs::read_to_string(root().join("docs/json-schema.md")).unwrap();
    for k in WarningKind::ALL {
        assert!(
            doc.contains(&format!("`{}`", k.name())),
            "{} undocumented",
            k.name()
        );
    }
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("docs/treeval.report-3.schema.json")).unwrap(),
    )
    .unwrap();
    let listed = &schema["properties"]["warnings"]["items"]["properties"]["kind"]["enum"];
    let names: Vec<&str> = WarningKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(listed, &serde_json::json!(names));
}
