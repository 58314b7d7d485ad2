//! CLI snapshot tests: every output format on examples/, the compat lines, exit codes,
//! and the pairing errors of testdata/pairing.

use std::process::Command;

mod common;
use common::cell;
use common::{argv, outcome, root, stdout_ok, treeval};

/// Standard output of `treeval` with the words of `line` as arguments, which must succeed.
fn stdout_of(line: &str) -> String {
    stdout_ok(&argv(line))
}

const G: &str = "examples/gold.conllu";
const S: &str = "examples/sys.conllu";

#[test]
fn format_text() {
    insta::assert_snapshot!(stdout_ok(&["deps", G, S]));
}

#[test]
fn format_json() {
    insta::assert_snapshot!(stdout_ok(&["deps", "--format", "json", G, S]));
}

#[test]
fn format_csv() {
    insta::assert_snapshot!(stdout_ok(&["deps", "--format", "csv", G, S]));
}

#[test]
fn format_tsv() {
    insta::assert_snapshot!(stdout_ok(&["deps", "--format", "tsv", G, S]));
}

#[test]
fn format_markdown() {
    insta::assert_snapshot!(stdout_of(&format!(
        "deps --format markdown --per-relation {G} {S}"
    )));
}

#[test]
fn format_latex() {
    insta::assert_snapshot!(stdout_ok(&["deps", "--format", "latex", G, S, G]));
}

#[test]
fn compat_eval07_and_evalpl() {
    insta::assert_snapshot!(stdout_ok(&["deps", "--compat", "eval07", G, S]), @r"
      Labeled   attachment score: 16 / 21 * 100 = 76.19 %
      Unlabeled attachment score: 16 / 21 * 100 = 76.19 %
      Label accuracy score:       17 / 21 * 100 = 80.95 %
    ");
    insta::assert_snapshot!(stdout_ok(&["deps", "--compat", "evalpl", G, S]), @r"
      Labeled   attachment score: 14 / 17 * 100 = 82.35 %
      Unlabeled attachment score: 14 / 17 * 100 = 82.35 %
      Label accuracy score:       14 / 17 * 100 = 82.35 %
    ");
}

#[test]
fn breakdowns_confusion_and_per_relation_text() {
    let by = "deprel,upos,xpos,length,distance,direction,depth,projectivity";
    insta::assert_snapshot!(stdout_of(&format!(
        "deps --by {by} --confusion=5 --per-relation {G} {S}"
    )));
}

#[test]
fn per_sentence_jsonl() {
    let dir = std::env::temp_dir().join(format!("treeval-ps-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ps.jsonl");
    stdout_ok(&["deps", "--per-sentence", file.to_str().unwrap(), G, S]);
    let text = std::fs::read_to_string(&file).unwrap();
    insta::assert_snapshot!(text);
    let header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(header["schema"], "treeval.per-sentence/3");
    let sum = common::per_sentence_sum(&text, "/counts/las_correct");
    assert_eq!(
        sum, 16,
        "per-sentence LAS counts add up to the corpus count"
    );
}

#[test]
fn gzip_and_stdin_inputs() {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("treeval-gz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gz = dir.join("sys.conllu.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::fast(),
    );
    enc.write_all(&std::fs::read(root().join(S)).unwrap())
        .unwrap();
    enc.finish().unwrap();
    let plain = stdout_ok(&["deps", "--compat", "eval07", G, S]);
    assert_eq!(
        stdout_ok(&["deps", "--compat", "eval07", G, gz.to_str().unwrap()]),
        plain
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(["deps", "--compat", "eval07", G, "-"])
        .current_dir(root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&std::fs::read(root().join(S)).unwrap())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8(o.stdout).unwrap(), plain);
}

/// Exit code, stdout and stderr of a run as one text.
/// The outcome of `treeval args…`, where an argument `--per-sentence=@` names a fresh
/// temporary file whose contents are appended to the outcome.
fn outcome_of(args: &[&str]) -> String {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = std::env::temp_dir().join(format!("treeval-ps-{}-{k}.jsonl", std::process::id()));
    let flag = format!("--per-sentence={}", file.display());
    let args: Vec<&str> = args
        .iter()
        .map(|a| {
            if *a == "--per-sentence=@" {
                flag.as_str()
            } else {
                a
            }
        })
        .collect();
    let mut out = outcome(&treeval(&args));
    if let Ok(text) = std::fs::read_to_string(&file) {
        out.push_str("--- per-sentence file\n");
        out.push_str(&text);
        let _ = std::fs::remove_file(&file);
    }
    out
}

/// A snapshot name from a case name and its extra arguments.
fn case_name(prefix: &str, extra: &[&str]) -> String {
    format!(
        "{prefix}{}",
        extra.join("").replace("--", "-").replace("=@", "")
    )
}

/// Run `cmd extra… GOLD SYS`; the outcome.
fn run_case(cmd: &str, gold: &str, sys: &str, extra: &[&str]) -> String {
    let mut args = vec![cmd];
    args.extend_from_slice(extra);
    args.push(gold);
    args.push(sys);
    outcome_of(&args)
}

/// Run `cmd extra… testdata/DIR/gold.conllu testdata/DIR/sys.conllu`; the outcome.
fn testdata_case(cmd: &str, dir: &str, extra: &[&str]) -> String {
    let g = format!("testdata/{dir}/gold.conllu");
    let s = format!("testdata/{dir}/sys.conllu");
    run_case(cmd, &g, &s, extra)
}

fn pairing_case(name: &str, extra: &[&str]) -> String {
    testdata_case("deps", &format!("pairing/{name}"), extra)
}

#[test]
fn pairing_errors_and_warnings() {
    for (name, extra) in [
        ("sentence-count", &[][..]),
        ("word-count", &[][..]),
        ("form-mismatch", &["--compat", "eval07"][..]),
        ("form-mismatch", &["--strict"][..]),
        ("root-case", &["--compat", "eval07"][..]),
        ("malformed-system-trees", &["--format", "json"][..]),
        ("malformed-system-trees", &["--strict"][..]),
        ("gold-missing-head", &[][..]),
        ("empty-gold", &[][..]),
    ] {
        let snap = format!("pairing-{name}{}", extra.join("").replace("--", "-"));
        insta::assert_snapshot!(snap, pairing_case(name, extra));
    }
}

fn ud_case(name: &str, extra: &[&str]) -> String {
    testdata_case("ud", &format!("ud/{name}"), extra)
}

#[test]
fn ud_cases() {
    for (name, extra) in [
        ("text-mismatch", &[][..]),
        ("truncated-system", &[][..]),
        ("invalid-trees", &[][..]),
        ("multiple-roots", &[][..]),
        (
            "multiple-roots",
            &["--multiple-roots-okay", "--compat", "udeval-counts"][..],
        ),
        ("form-only-spaces", &[][..]),
        ("empty-nodes", &["--per-relation"][..]),
        (
            "empty-nodes",
            &["--empty-nodes", "drop", "--compat", "udeval-counts"][..],
        ),
        ("empty-nodes", &["--empty-nodes", "error"][..]),
        (
            "empty-nodes",
            &["--enhancements", "1", "--compat", "udeval-counts"][..],
        ),
        ("different-tokenization", &["--per-relation"][..]),
        ("different-tokenization", &["--format", "json"][..]),
        ("different-tokenization", &["--compat", "conll18"][..]),
        (
            "different-tokenization",
            &["--by", "deprel,upos,distance", "--align", "resync"][..],
        ),
        ("resync-nfd", &[][..]),
        ("resync-nfd", &["--align", "resync"][..]),
        ("resync-whitespace", &["--align", "resync"][..]),
        ("resync-missing-sentence", &["--align", "resync"][..]),
        (
            "resync-missing-sentence",
            &["--align", "resync", "--format", "json"][..],
        ),
        ("truncated-system", &["--align", "resync"][..]),
        (
            "text-mismatch",
            &["--align", "resync", "--compat", "conll18"][..],
        ),
    ] {
        let snap = format!("ud-{name}{}", extra.join("").replace("--", "-"));
        insta::assert_snapshot!(snap, ud_case(name, extra));
    }
}

#[test]
fn ud_significance() {
    let (g, s) = (
        "testdata/ud/different-tokenization/gold.conllu",
        "testdata/ud/different-tokenization/sys.conllu",
    );
    // a system against itself: every difference is 0 and every p-value 1
    let o = treeval(&argv(&format!(
        "ud -q --format json --test ar --test bootstrap {g} {s} {s}"
    )));
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let cmp = v["comparisons"].as_array().unwrap();
    assert_eq!(cmp.len(), 6);
    for c in cmp {
        assert_eq!(c["p_value"], 1.0, "{c}");
    }
    // gold against the system, with intervals: a snapshot of the text report
    let o = treeval(&argv(&format!(
        "ud -q --test ar --samples 999 --ci 95 {g} {g} {s}"
    )));
    insta::assert_snapshot!("ud-significance", String::from_utf8_lossy(&o.stdout));
    // McNemar needs paired words
    let o = treeval(&["ud", "--test", "mcnemar", g, s, s]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn relations_cases() {
    // hand-checked: different-tokenization has |Dt ∩ Ds| 1 of 4/3 and 1 of 4/5 (CA 0.25,
    // 0.2; micro 2/9); the gapping sentence's collapsed graphs share 4 of 6 items
    for (name, extra) in [
        ("different-tokenization", &["--per-sentence=@"][..]),
        (
            "different-tokenization",
            &["--format", "json", "--per-sentence=@"][..],
        ),
        ("empty-nodes", &["--graph", "enhanced"][..]),
        (
            "empty-nodes",
            &["--graph", "enhanced", "--empty-nodes", "drop"][..],
        ),
    ] {
        let snap = case_name(&format!("relations-{name}"), extra);
        insta::assert_snapshot!(
            snap,
            testdata_case("relations", &format!("ud/{name}"), extra)
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    let o = treeval(&["deps", G]);
    assert_eq!(o.status.code(), Some(2));
    let o = treeval(&["deps", "--punct", "nonsense", G, S]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("expected include, form"));
    let o = treeval(&["deps", "-", "-"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn missing_file_exits_1() {
    let o = treeval(&["deps", G, "examples/does-not-exist.conllu"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("examples/does-not-exist.conllu"));
}

/// `treeval CMD --help` names each of the words of `opts`; a failure message starts
/// with `label`.
fn assert_help_names(cmd: &str, label: &str, opts: &str) {
    let h = String::from_utf8(treeval(&[cmd, "--help"]).stdout).unwrap();
    for opt in opts.split_whitespace() {
        assert!(h.contains(opt), "{label} lacks {opt}");
    }
}

#[test]
fn help_explains_every_option() {
    assert_help_names(
        "deps",
        "--help",
        "--profile --punct --labels --by --confusion --per-relation --format --compat \
         --per-sentence --strict --input-format --conll09-columns --quiet",
    );
}

#[test]
fn ud_and_relations_help_explain_every_option() {
    assert_help_names(
        "ud",
        "ud --help",
        "--multiple-roots-okay --empty-nodes --enhancements --compat --per-relation --format \
         --quiet --test --ci --test-metrics collapse udeval-counts",
    );
    assert_help_names(
        "relations",
        "relations --help",
        "--graph --empty-nodes --per-sentence --format concept CA --align",
    );
    assert_help_names("ud", "ud --help", "--align resync --by");
}

#[test]
fn brackets_help_explains_every_option() {
    assert_help_names(
        "brackets",
        "brackets --help",
        "--prm COLLINS.prm --compat evalb --layout multi-line --per-sentence --format --quiet \
         MAX_ERROR --by label length EQ_LABEL",
    );
}

#[test]
fn conll09_reads_head_deprel_of_system_files_unless_predicted_is_asked() {
    let (g, s) = (
        "testdata/conll09/gold.conll09",
        "testdata/conll09/sys.conll09",
    );
    // PHEAD/PDEPREL hold the same trees as examples/, so the same scores
    assert_eq!(
        stdout_of(&format!(
            "deps --compat eval07 --conll09-columns predicted {g} {s}"
        )),
        stdout_ok(&["deps", "--compat", "eval07", G, S])
    );
    // by default HEAD/DEPREL, as eval09.pl: here a copy of gold, so 100 %
    insta::assert_snapshot!(stdout_ok(&["deps", "--compat", "eval07", g, s]), @r"
      Labeled   attachment score: 21 / 21 * 100 = 100.00 %
      Unlabeled attachment score: 21 / 21 * 100 = 100.00 %
      Label accuracy score:       21 / 21 * 100 = 100.00 %
    ");
}

#[test]
fn broken_pipe_exits_quietly() {
    use std::io::Read;
    // enough output (CSV for 40 systems) to overflow the pipe buffer
    // (universal labels: sys.conllu's one `obl:npmod`, a subtype gold never has, would
    // warn on stderr)
    let mut args = vec!["deps", "--format", "csv", "--labels", "universal", G];
    args.extend(std::iter::repeat_n(S, 40));
    let mut child = Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(&args)
        .current_dir(root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
}

#[test]
fn significance_text_and_thread_independence() {
    // gold itself as a second "system": a perfect parser
    let line = format!(
        "deps --test mcnemar --test ar --test bootstrap --samples 2000 --ci 95 \
         --ci-samples 500 {G} {S} {G}"
    );
    let args = argv(&line);
    let run = |threads: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
            .args(&args)
            .env("RAYON_NUM_THREADS", threads)
            .current_dir(root())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let one = run("1");
    assert_eq!(one, run("2"), "results must not depend on the thread count");
    insta::assert_snapshot!(one);
}

#[test]
fn significance_json_contract() {
    let v: serde_json::Value = serde_json::from_str(&stdout_of(&format!(
        "deps -q --format json --test mcnemar --test ar --samples 999 --seed 7 {G} {S} {G}"
    )))
    .unwrap();
    let c = v["comparisons"].as_array().unwrap();
    assert_eq!(c.len(), 6, "3 metrics x 2 tests x 1 pair");
    for x in c {
        for key in
            argv("a b metric test difference difference_ci ci_level statistic p_value samples seed")
        {
            assert!(x.get(key).is_some(), "comparison lacks {key}: {x}");
        }
        let p = x["p_value"].as_f64().unwrap();
        assert!(p > 0.0 && p <= 1.0);
    }
    let ar = c
        .iter()
        .find(|x| x["metric"] == "LAS" && x["test"] == "ar")
        .unwrap();
    // sys has 16/21 LAS, gold 21/21
    assert!((ar["statistic"].as_f64().unwrap() - (16.0 / 21.0 - 1.0)).abs() < 1e-12);
    // the difference is B − A = gold − sys, the other way round, in every test
    for x in c.iter().filter(|x| x["metric"] == "LAS") {
        assert_eq!(x["difference"].as_f64(), Some(1.0 - 16.0 / 21.0), "{x}");
        assert_eq!(x["ci_level"], 0.95);
    }
    // only sentences 2 and 3 differ: the exact permutation test over 4 swap patterns,
    // with differences -5/21, -1/21, +1/21, +5/21: two of four as extreme, p = 0.5
    assert_eq!(ar["exact"], true);
    assert_eq!(ar["samples"], 4);
    assert_eq!(ar["p_value"], 0.5);
    let mc = c
        .iter()
        .find(|x| x["metric"] == "LAS" && x["test"] == "mcnemar")
        .unwrap();
    assert_eq!(
        (mc["b_count"].as_u64(), mc["c_count"].as_u64()),
        (Some(0), Some(5))
    );
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .ends_with("|test:mcnemar+ar|ar-samples:999|ci:95|ci-samples:1000|seed:7"));
    let o = treeval(&["deps", "--test", "ar", G, S]);
    assert_eq!(o.status.code(), Some(2), "a test needs two systems");
}

#[test]
fn significance_csv() {
    insta::assert_snapshot!(stdout_of(&format!(
        "deps --format csv --test ar --test mcnemar --ci 95 --ci-samples 200 --test-metrics LAS \
         {G} {S} {G}"
    )));
}

const AG: &str = "testdata/align/gold.naacl";

#[test]
fn align_text_json_and_compat() {
    insta::assert_snapshot!(stdout_ok(&[
        "align",
        AG,
        "testdata/align/hyp.pharaoh",
        "testdata/align/hyp-tagged.naacl"
    ]));
    let v: serde_json::Value = serde_json::from_str(&stdout_ok(&[
        "align",
        "-q",
        "--format",
        "json",
        AG,
        "testdata/align/hyp.pharaoh",
    ]))
    .unwrap();
    assert_eq!(v["schema"], "treeval.report/3");
    let s = &v["inputs"][1]["counts"];
    // hand-checked: S = 5, P = 8 (NULL link excluded), A = 9, A∩S = 5, A∩P = 7
    for (k, n) in [("a", 9), ("s", 5), ("p", 8), ("a_and_s", 5), ("a_and_p", 7)] {
        assert_eq!(s[k], n, "{k}");
    }
    let m = |name: &str| cell(&v, "scores", 0, name)["value"].as_f64().unwrap();
    assert_eq!(m("precision"), 7.0 / 9.0);
    assert_eq!(
        cell(&v, "scores", 0, "precision")["counts"],
        serde_json::json!([7, 9])
    );
    assert_eq!(m("recall"), 1.0);
    assert!((m("AER") - (1.0 - 12.0 / 14.0)).abs() < 1e-15);
    assert_eq!(m("sure-precision"), 5.0 / 9.0);
    assert_eq!(m("possible-recall"), 7.0 / 8.0);
    assert_eq!(m("links"), 9.0);
    assert_eq!(s["hyp_duplicates"], 1);
    assert_eq!(s["gold_null"], 1);
    insta::assert_snapshot!(stdout_ok(&["align", "--compat", "aer.py", AG, "testdata/align/hyp.pharaoh"]), @"testdata/align/hyp.pharaoh: 14.3% (77.8%/100.0%/9)");
    insta::assert_snapshot!(stdout_ok(&[
        "align",
        "--compat",
        "wa_eval_align",
        AG,
        "testdata/align/hyp-tagged.naacl"
    ]));
    for f in ["csv", "tsv", "markdown", "latex"] {
        let out = stdout_ok(&["align", "--format", f, AG, "testdata/align/hyp.pharaoh"]);
        assert!(out.contains("hyp.pharaoh"), "{f}: {out}");
    }
}

#[test]
fn align_warns_about_a_reversed_hypothesis() {
    let g = "testdata/align/gold-asym.naacl";
    let o = treeval(&[
        "align",
        "--compat",
        "aer.py",
        g,
        "testdata/align/hyp-reversed.pharaoh",
    ]);
    assert!(o.status.success());
    insta::assert_snapshot!(String::from_utf8_lossy(&o.stderr));
    let fixed = stdout_ok(&[
        "align",
        "-q",
        "--compat",
        "aer.py",
        "--reverse",
        g,
        "testdata/align/hyp-reversed.pharaoh",
    ]);
    assert_eq!(
        fixed,
        "testdata/align/hyp-reversed.pharaoh: 0.0% (100.0%/100.0%/6)\n"
    );
}

#[test]
fn align_significance_and_errors() {
    let v: serde_json::Value = serde_json::from_str(&stdout_ok(&[
        "align",
        "-q",
        "--format",
        "json",
        "--test",
        "ar",
        "--ci",
        "95",
        "--ci-samples",
        "200",
        AG,
        "testdata/align/hyp.pharaoh",
        "testdata/align/hyp-tagged.naacl",
    ]))
    .unwrap();
    let c = &v["comparisons"][0];
    assert_eq!(c["metric"], "AER");
    assert_eq!(c["exact"], true, "3 sentences: exact enumeration");
    assert!(cell(&v, "scores", 0, "AER")["ci"].is_array());
    assert!(cell(&v, "scores", 1, "precision")["ci"].is_array());
    assert!(
        cell(&v, "scores", 1, "links")["ci"].is_null(),
        "a count has no interval"
    );
    let o = treeval(&[
        "align",
        AG,
        "testdata/malformed-align/02-non-numeric-position.naacl",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("02-non-numeric-position.naacl:2:3: expected a position"));
    assert_eq!(
        treeval(&["align", "--test", "mcnemar", AG, AG, AG])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn pts_example_hand_checked() {
    let inputs = common::pts_inputs("examples/pts/");
    let text = stdout_of(&format!("pts {inputs}"));
    insta::assert_snapshot!(text);
    let v: serde_json::Value =
        serde_json::from_str(&stdout_of(&format!("pts {inputs} -q --format json"))).unwrap();
    // hand-checked: UAS 11/13 and 10/12 without punctuation; A=17, S=15, A∩S=15, A∩P=16
    assert_eq!(
        cell(&v, "scores", 0, "UAS_a")["counts"],
        serde_json::json!([11, 13])
    );
    assert_eq!(
        cell(&v, "scores", 0, "UAS_b")["counts"],
        serde_json::json!([10, 12])
    );
    assert_eq!(
        cell(&v, "scores", 0, "AER")["counts"],
        serde_json::json!([17, 15, 15, 16])
    );
    assert_eq!(cell(&v, "scores", 0, "AER")["value"], 1.0 - 31.0 / 32.0);
    let want = (11.0 / 13.0 + 10.0 / 12.0 + 31.0 / 32.0) / 3.0;
    let pts = cell(&v, "scores", 0, "PTS")["value"].as_f64().unwrap();
    assert!((pts - want).abs() < 1e-15);
    let o = treeval(&argv(
        "pts --gold-a x --gold-b y --gold-align z --sys-a a --sys-b b",
    ));
    assert_eq!(o.status.code(), Some(2), "--sys-align is required");
}

/// `pts --weights` takes its three values separated by commas (as its help writes them,
/// A,B,AB) or by spaces: the same report; another count is a usage error that says so.
#[test]
fn pts_weights_take_commas_or_spaces() {
    let inputs = common::pts_inputs("examples/pts/");
    let commas = stdout_of(&format!(
        "pts {inputs} -q --format json --weights 1,0.1,0.3"
    ));
    let spaces = stdout_of(&format!(
        "pts {inputs} -q --format json --weights 1 0.1 0.3"
    ));
    assert_eq!(commas, spaces);
    let v: serde_json::Value = serde_json::from_str(&commas).unwrap();
    // the hand-checked counts of pts_example_hand_checked, weighted 1, 0.1 and 0.3
    let want = (11.0 / 13.0 + 0.1 * 10.0 / 12.0 + 0.3 * 31.0 / 32.0) / 1.4;
    let pts = cell(&v, "scores", 0, "PTS")["value"].as_f64().unwrap();
    assert!((pts - want).abs() < 1e-15, "{pts} vs {want}");
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .contains("|weights:1,0.1,0.3"));
    for (weights, found) in [("1,0.1", "found 2: 1,0.1"), ("1,2,3,4", "found 4: 1,2,3,4")] {
        let o = treeval(&argv(&format!("pts {inputs} --weights {weights}")));
        assert_eq!(o.status.code(), Some(2), "--weights {weights}");
        let err = common::stderr(&o);
        assert!(
            err.contains(&format!("--weights: expected three values A,B,AB (the weights of UAS_a, UAS_b and 1 − AER), {found}")),
            "{err}"
        );
    }
    let o = treeval(&argv(&format!("pts {inputs} --weights 1,NaN,1")));
    assert_eq!(o.status.code(), Some(2));
    assert!(common::stderr(&o).contains("--weights must be finite, non-negative and not all 0"));
}

#[test]
fn align_warns_about_a_wrong_index_base() {
    // a 1-based Pharaoh file read as 0-based: every position is one too far
    let g = "testdata/align/gold-base.naacl";
    let h = "testdata/align/hyp-one-based.pharaoh";
    let o = treeval(&["align", "--compat", "aer.py", g, h]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("AER is 1.0000") && err.contains("with --hyp-base 1 the AER would be 0.0000"),
        "{err}"
    );
    assert_eq!(
        stdout_ok(&["align", "-q", "--compat", "aer.py", "--hyp-base", "1", g, h]),
        format!("{h}: 0.0% (100.0%/100.0%/4)\n")
    );
}

fn brackets_case(name: &str, extra: &[&str]) -> String {
    let g = format!("testdata/brackets/{name}/gold.txt");
    let t = format!("testdata/brackets/{name}/test.txt");
    run_case("brackets", &g, &t, extra)
}

/// `brackets --by label,length`: text and JSON (error and skipped sentences in the data,
/// an EQ_LABEL pair), two test files; the groups sum to the summary's brackets; `--compat
/// evalb` output stays EVALB's; a key of another command is a usage error.
#[test]
fn brackets_by_label_and_length() {
    let (g, t) = (
        "testdata/brackets/debug/gold.txt",
        "testdata/brackets/debug/test.txt",
    );
    let by = ["--by", "label,length"];
    let text = outcome(&treeval(&[&["brackets"][..], &by, &[g, t]].concat()));
    insta::assert_snapshot!("brackets-by-label-length-text", text);
    let json = stdout_ok(&[&["brackets", "-q", "--format", "json"][..], &by, &[g, t]].concat());
    insta::assert_snapshot!("brackets-by-label-length-json", json);
    let p = "testdata/brackets/careful-paper";
    let (pg, pt, pt2) = (
        format!("{p}/gold.txt"),
        format!("{p}/test.txt"),
        format!("{p}/test2.txt"),
    );
    let two = outcome(&treeval(
        &[&["brackets"][..], &by, &[&pg, &pt, &pt2]].concat(),
    ));
    insta::assert_snapshot!("brackets-by-label-length-two", two);
    let b = "testdata/brackets/brackets-300";
    let (bg, bt) = (format!("{b}/gold.txt"), format!("{b}/test.txt"));
    let cases: [&[&str]; 4] = [
        &[g, t],
        &[&bg, &bt],
        &[&pg, &pt, &pt2],
        &[
            "--prm",
            "nk.prm",
            "testdata/brackets/quote-label/gold.txt",
            "testdata/brackets/quote-label/test.txt",
        ],
    ];
    for files in cases {
        let args = [&["brackets", "-q", "--format", "json"][..], &by, files].concat();
        let v: serde_json::Value = serde_json::from_str(&stdout_ok(&args)).unwrap();
        common::assert_bracket_breakdowns_sum(&v);
    }
    for files in [[g, t], [&bg, &bt]] {
        let plain = outcome(&treeval(
            &[&["brackets", "--compat", "evalb"][..], &files].concat(),
        ));
        let with_by = outcome(&treeval(
            &[&["brackets", "--compat", "evalb"][..], &by, &files].concat(),
        ));
        assert_eq!(plain, with_by, "--by leaves --compat evalb output alone");
    }
    let o = treeval(&["brackets", "--by", "deprel", g, t]);
    assert_eq!(o.status.code(), Some(2));
    assert!(common::stderr(&o).contains("expected one of label, length"));
}

/// The data block of the HTML page: JSON inside `#treeval-data`, one entry per scored
/// sentence, its matched flags summing to the `all` section's matched brackets.
fn html_data(page: &str) -> serde_json::Value {
    let open = "<script type=\"application/json\" id=\"treeval-data\">";
    let start = page.find(open).expect("a treeval-data block") + open.len();
    let len = page[start..].find("</script>").expect("its end");
    serde_json::from_str(&page[start..start + len]).expect("JSON in the data block")
}

#[test]
fn brackets_html_page_holds_the_scored_sentences_and_their_matches() {
    // quote-label under its parameter file (under COLLINS.prm every sentence is an error
    // sentence: nothing is scored, exit 1)
    for (dir, prm) in [
        ("brackets-300", "COLLINS.prm"),
        ("debug", "COLLINS.prm"),
        ("quote-label", "new.prm"),
    ] {
        let (g, t) = (
            format!("testdata/brackets/{dir}/gold.txt"),
            format!("testdata/brackets/{dir}/test.txt"),
        );
        let page = stdout_ok(&["brackets", "-q", "--prm", prm, "--format", "html", &g, &t]);
        let data = html_data(&page);
        let json = stdout_ok(&["brackets", "-q", "--prm", prm, "--format", "json", &g, &t]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(data["kind"], "brackets");
        assert_eq!(
            data["columns"],
            serde_json::json!(["recall", "precision", "F"])
        );
        let sentences = data["sentences"].as_array().unwrap();
        let all = |m: &str| common::value(&v, "all", 0, m);
        // the scored sentences and those scored as missed (their gold brackets)
        let shown = all("scored").zip(all("missed")).map(|(a, b)| a + b);
        assert_eq!(Some(sentences.len() as f64), shown, "{dir}");
        assert_eq!(
            Some(data["total"].as_f64().unwrap()),
            all("sentences"),
            "{dir}"
        );
        let flags = |side: &dyn Fn(&serde_json::Value) -> Vec<serde_json::Value>| -> f64 {
            sentences
                .iter()
                .flat_map(side)
                .map(|b| b[3].as_f64().unwrap())
                .sum()
        };
        let matched = common::cell(&v, "all", 0, "recall")["counts"][0].as_f64();
        let gold = flags(&|s| s["gold"].as_array().unwrap().clone());
        let test = flags(&|s| s["sys"][0].as_array().unwrap().clone());
        assert_eq!((Some(gold), Some(test)), (matched, matched), "{dir}");
        let labels = data["labels"].as_array().unwrap().len() as u64;
        for s in sentences {
            let words = s["words"].as_array().unwrap().len() as u64;
            assert_eq!(s["tags"].as_array().unwrap().len() as u64, words);
            for b in s["gold"]
                .as_array()
                .unwrap()
                .iter()
                .chain(s["sys"][0].as_array().unwrap())
            {
                let (l, a, e) = (
                    b[0].as_u64().unwrap(),
                    b[1].as_u64().unwrap(),
                    b[2].as_u64().unwrap(),
                );
                assert!(l < labels && a < e && e <= words, "{dir}: {b}");
            }
        }
        let unscored = all("sentences").unwrap() - all("scored").unwrap() - all("missed").unwrap();
        let note = data["note"].as_str().unwrap();
        assert_eq!(
            unscored > 0.0,
            note.contains("not on the page"),
            "{dir}: {note}"
        );
        // the page adds the breakdowns, and says so
        assert!(
            page.contains("data-section=\"by:label\"")
                && page.contains("data-section=\"by:length\"")
        );
        assert!(page.contains("(--by label,length)"));
    }
}

/// The robustness corpus: what breaks or misleads EVALB gives a clear message or a
/// correct score here.
#[test]
fn brackets_cases() {
    for (name, extra) in [
        ("words-300", &["--compat", "evalb"][..]),
        ("brackets-300", &["--compat", "evalb"][..]),
        ("long-line", &[][..]),
        ("long-labels", &["--per-sentence=@"][..]),
        ("preterminal-two-words", &["--compat", "evalb"][..]),
        ("extra-paren", &["--format", "json"][..]),
        ("all-zero", &["--compat", "evalb"][..]),
        ("all-zero", &[][..]),
        ("more-test-lines", &["--compat", "evalb"][..]),
        ("max-error", &[][..]),
        ("mrg-wrapper", &["--per-sentence=@"][..]),
    ] {
        let snap = case_name(&format!("brackets-{name}"), extra);
        insta::assert_snapshot!(snap, brackets_case(name, extra));
    }
}

/// The careful evaluation on the paper's two sentences: the counts of the paper, two
/// systems compared, human judgments, and the file to judge.
#[test]
fn brackets_careful_paper_example() {
    let d = "testdata/brackets/careful-paper";
    let (g, t, t2, j) = (
        format!("{d}/gold.txt"),
        format!("{d}/test.txt"),
        format!("{d}/test2.txt"),
        format!("{d}/judgments.tsv"),
    );
    let out = std::env::temp_dir().join(format!("treeval-judge-{}.tsv", std::process::id()));
    let o = treeval(&[
        "brackets",
        "--careful",
        "--wide",
        "--judgments",
        &j,
        "--export-for-judging",
        out.to_str().unwrap(),
        &g,
        &t,
        &t2,
    ]);
    let text = format!(
        "{}--- export\n{}",
        outcome(&o),
        std::fs::read_to_string(&out).unwrap_or_default()
    );
    let _ = std::fs::remove_file(&out);
    // the paper's counts for the first parse: TTB 7 TPB 9 EM 5 CE 2 SP 2 PINH 1 PNINH 1
    // TINH 1 TNINH 4
    let row: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("test ") && l.split_whitespace().count() > 20)
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(
        row[1..10],
        ["7", "9", "5", "2", "2", "1", "1", "1", "4"],
        "{text}"
    );
    insta::assert_snapshot!("brackets-careful-paper", text);
    // careful options without --careful are a usage error
    let o = treeval(&["brackets", "--collapse-double", &g, &t]);
    assert_eq!(o.status.code(), Some(2));
    // the tests of the significance issue on per-sentence bracket counts: a system
    // against itself is never significantly different
    let v: serde_json::Value = serde_json::from_str(&stdout_ok(&[
        "brackets",
        "-q",
        "--format",
        "json",
        "--test",
        "ar",
        "--test",
        "bootstrap",
        "--test-metrics",
        "F,recall,precision",
        &g,
        &t,
        &t,
    ]))
    .unwrap();
    let comparisons = v["comparisons"].as_array().unwrap();
    assert_eq!(comparisons.len(), 6);
    for c in comparisons {
        assert_eq!(c["statistic"].as_f64(), Some(0.0), "{c}");
        assert_eq!(c["significant"], false, "{c}");
    }
}

/// Tree edit distance of tree pairs: Zhang & Shasha's example at 2, scripts, the unlabeled
/// distance, and a malformed pair.
#[test]
fn ted_distance_cases() {
    let run = |args: &[&str]| outcome(&treeval(args));
    let labeled = run(&["ted", "--distance", "testdata/ted/pairs.txt", "--script"]);
    assert!(labeled.contains("--- stdout\n2\t"));
    insta::assert_snapshot!("ted-distance-script", labeled);
    insta::assert_snapshot!(
        "ted-distance-unlabeled",
        run(&["ted", "--distance", "testdata/ted/pairs.txt", "--unlabeled"])
    );
    insta::assert_snapshot!(
        "ted-distance-bad",
        run(&["ted", "--distance", "testdata/ted/bad.txt"])
    );
    let h = String::from_utf8(treeval(&["ted", "--help"]).stdout).unwrap();
    for opt in ["--distance", "--unlabeled", "--script", "APTED"] {
        assert!(h.contains(opt), "ted --help lacks {opt}");
    }
}

/// TedEval across two schemes of "John would have worked on Sunday ." (auxiliary and
/// preposition heads vs main-verb and noun heads).
#[test]
fn tedeval_cases() {
    let run = |args: &[&str]| outcome(&treeval(args));
    let exp = |name: &str, gold: &str, parse: &str| {
        format!("{name}:testdata/ted/{gold}.conllu:testdata/ted/{parse}.conllu")
    };
    let (fg, lg) = (
        exp("functional", "functional-gold", "functional-gold"),
        exp("lexical", "lexical-gold", "lexical-gold"),
    );
    // perfect parsers of both schemes score exactly 1 against the generalized gold
    let o = treeval(&["ted", "--exp", &fg, "--exp", &lg, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for k in 0..2 {
        assert_eq!(common::value(&j, "scores", k, "TedEval"), Some(1.0), "{j}");
        assert_eq!(
            common::value(&j, "scores", k, "delta_new"),
            Some(0.0),
            "{j}"
        );
        assert_eq!(common::value(&j, "own-gold", k, "LAS"), Some(1.0), "{j}");
    }
    // the gold sizes (nodes of a functional tree: a node per word, and a `*` node
    // under each word with dependents): functional 7 + 4 (would, have, worked, on),
    // lexical 7 + 2 (worked, Sunday); the generalized gold keeps 9
    let nodes = |i: usize| j["inputs"][i]["counts"]["nodes"].clone();
    assert_eq!(j["inputs"][0]["role"], "gold");
    assert_eq!(nodes(0)["gold"], 11, "{j}");
    assert_eq!(nodes(0)["generalized"], 9);
    assert_eq!(nodes(2)["gold"], 9);
    assert_eq!(nodes(2)["kept"], 1.0);
    assert!(nodes(1).is_null(), "a parse input has no gold sizes");
    let text =
        String::from_utf8_lossy(&treeval(&["ted", "--exp", &fg, "--exp", &lg]).stdout).into_owned();
    // notes are wrapped at 100 columns, at spaces
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains("generalized gold: 9 nodes over the scored sentences; functional's gold 11 (81.8% kept), lexical's gold 9 (100.0% kept)"),
        "{text}"
    );
    assert!(text.contains("cross-scheme: a difference between experiments"));
    // one scheme: no generalization, no sizes line nor cross-scheme note
    let one = treeval(&["ted", "--exp", &fg]);
    let one = String::from_utf8_lossy(&one.stdout);
    assert!(
        !one.contains("generalized gold:") && !one.contains("cross-scheme"),
        "{one}"
    );
    // one scheme's gold against the other's: LAS is far from 100
    let cross = treeval(&[
        "deps",
        "testdata/ted/functional-gold.conllu",
        "testdata/ted/lexical-gold.conllu",
    ]);
    assert!(String::from_utf8_lossy(&cross.stdout).contains("LAS"));
    let (fp, lp) = (
        exp("functional", "functional-gold", "functional-parse"),
        exp("lexical", "lexical-gold", "lexical-parse"),
    );
    insta::assert_snapshot!(
        "tedeval-two-schemes",
        outcome_of(&["ted", "--exp", &fp, "--exp", &lp, "--per-sentence=@"])
    );
    // one scheme: the gold is its own generalization, so δ_new = δ
    let one = treeval(&[
        "ted",
        "--gold",
        "testdata/ted/functional-gold.conllu",
        "--parse",
        "testdata/ted/functional-parse.conllu",
        "--format",
        "json",
    ]);
    let j: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    let v = |m: &str| common::value(&j, "scores", 0, m).unwrap();
    assert_eq!(v("delta_new"), v("delta"), "{j}");
    assert!(v("TedEval") < 1.0);
    insta::assert_snapshot!(
        "tedeval-one-scheme-two-parses",
        run(&[
            "ted",
            "--gold",
            "testdata/ted/functional-gold.conllu",
            "--parse",
            "testdata/ted/functional-parse.conllu",
            "--parse",
            "testdata/ted/cycle-parse.conllu",
            "--unlabeled",
            "--micro",
            "--samples",
            "200",
        ])
    );
    // the lexical scheme with its own names for two relations: without equivalences
    // its golds conflict with the functional ones there (labels `SUBJ|sbj`); with
    // them, they agree
    let other = exp(
        "lexical",
        "lexical-gold-other-labels",
        "lexical-parse-other-labels",
    );
    insta::assert_snapshot!(
        "tedeval-label-conflicts",
        run(&["ted", "--exp", &fp, "--exp", &other, "--no-test"])
    );
    insta::assert_snapshot!(
        "tedeval-label-equivalences",
        run(&[
            "ted",
            "--exp",
            &fp,
            "--exp",
            &other,
            "--label-equiv",
            "testdata/ted/equiv.txt",
            "--no-test",
        ])
    );
    insta::assert_snapshot!(
        "tedeval-max-len",
        run(&[
            "ted",
            "--exp",
            &fp,
            "--exp",
            &lp,
            "--max-len",
            "5",
            "--no-test"
        ])
    );
    insta::assert_snapshot!(
        "tedeval-golds-over-other-words",
        run(&[
            "ted",
            "--exp",
            &fp,
            "--exp",
            &exp("lexical", "other-words", "other-words"),
        ])
    );
    // constituency trees meet dependency trees: traces are not words, function tags and
    // indices are cut (NP-SBJ-1 → NP), the .mrg wrapper is not a node
    let constituency = exp("constituency", "const-gold", "const-parse").replace(".conllu", ".mrg");
    insta::assert_snapshot!(
        "tedeval-constituency-and-dependency",
        outcome_of(&[
            "ted",
            "--exp",
            &constituency,
            "--exp",
            &lp,
            "--no-test",
            "--per-sentence=@"
        ])
    );
    let perfect = exp("constituency", "const-gold", "const-gold").replace(".conllu", ".mrg");
    let o = treeval(&["ted", "--exp", &perfect, "--exp", &lg, "--format", "json"]);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for k in 0..2 {
        assert_eq!(common::value(&j, "scores", k, "TedEval"), Some(1.0), "{j}");
    }
    // no LAS for the constituency experiment: the own-gold section has system 1 only
    let own = j["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "own-gold")
        .unwrap();
    assert_eq!(own["rows"].as_array().unwrap().len(), 1);
    assert_eq!(own["rows"][0]["system"], 1);
    insta::assert_snapshot!(
        "tedeval-constituency-other-words",
        run(&[
            "ted",
            "--exp",
            &exp("constituency", "const-gold", "const-other-words").replace(".conllu", ".mrg"),
            "--exp",
            &lp,
        ])
    );
    insta::assert_snapshot!(
        "tedeval-bad-exp",
        run(&["ted", "--exp", "lexical:only-two-parts"])
    );
    let h = String::from_utf8(treeval(&["ted", "--help"]).stdout).unwrap();
    for opt in [
        "--gold",
        "--parse",
        "--exp",
        "--max-len",
        "--label-equiv",
        "--micro",
        "--per-sentence",
        "--no-test",
    ] {
        assert!(h.contains(opt), "ted --help lacks {opt}");
    }
}

/// A sentence too large for the edit distance (a missing sentence break, say) is counted
/// and reported, not scored, and the rest of the file is.
#[test]
fn tedeval_too_large_sentence() {
    let dir = std::env::temp_dir().join(format!("treeval-ted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge.conllu");
    let mut text = String::new();
    for i in 1..=5001 {
        let head = if i == 5001 { 0 } else { i + 1 };
        text.push_str(&format!("{i}\tw{i}\t_\tX\tX\t_\t{head}\tdep\t_\t_\n"));
    }
    text.push_str("\n1\ta\t_\tX\tX\t_\t0\troot\t_\t_\n\n");
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let o = treeval(&["ted", "--gold", p, "--parse", p, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["inputs"][1]["counts"]["sentences"]["too_large"], 1, "{j}");
    assert_eq!(j["inputs"][1]["counts"]["sentences"]["scored"], 1, "{j}");
    assert_eq!(
        common::cell(&j, "own-gold", 0, "LAS")["counts"][1],
        1,
        "{j}"
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("found 5001: the sentence is not scored"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pts` on examples/pts/ with the system alignment written 1-based: every link past the
/// last word of its sentence is an error at its `path:line:column` with the sentence's
/// words, after the file's count and the base that fits (with the AER it gives); with
/// `--hyp-base 1` the report is the 0-based file's (AER 3.12, PTS 88.27, was 40.62 and
/// 75.77 scored silently), and the state records the base for `merge`. A base given is
/// not second-guessed (`--gold-base 0` on the 1-based gold: the plain hint). `--null
/// include` scores a gold link with a NULL side.
#[test]
fn pts_links_past_the_end_are_errors_and_bases_are_options() {
    let dir = std::env::temp_dir().join(format!("treeval-pts-base-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ex = root().join("examples/pts");
    for f in std::fs::read_dir(&ex).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    let zero = std::fs::read_to_string(ex.join("aligner.en-de.pharaoh")).unwrap();
    let one: String = (zero.lines())
        .map(|l| {
            let links: Vec<String> = (l.split_whitespace())
                .map(|t| {
                    let (a, b) = t.split_once('-').unwrap();
                    let n = |x: &str| x.parse::<u32>().unwrap() + 1;
                    format!("{}-{}", n(a), n(b))
                })
                .collect();
            links.join(" ") + "\n"
        })
        .collect();
    assert_eq!(one.lines().next(), Some("1-1 2-2 3-3 4-4"));
    std::fs::write(dir.join("aligner.en-de.pharaoh"), &one).unwrap();
    let inputs = common::pts_inputs("");
    let run = |extra: &str| common::treeval_in(&dir, &argv(&format!("pts -q {inputs} {extra}")));
    let o = run("");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(o.stdout.is_empty());
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines,
        [
            "error: aligner.en-de.pharaoh: WRONG INDEX BASE? 3 link(s) point past the last word of their sentence when read 0-based, none when read 1-based: the file is likely 1-based; they are in 3 of the 3 sentence pairs, whose words are the syntactic words of gold.en.conllu (side a) and gold.de.conllu (side b)",
            "  hint: with --hyp-base 1 the AER would be 0.0312 (the default base of pharaoh is 0)",
            "error: aligner.en-de.pharaoh:1:13: expected positions below 4 on side a and below 4 on side b (sentence 1 has 4 and 4 words, read 0-based), found the link 4-4",
            "error: aligner.en-de.pharaoh:2:21: expected positions below 6 on side a and below 6 on side b (sentence 2 has 6 and 6 words, read 0-based), found the link 6-6",
            "error: aligner.en-de.pharaoh:3:21: expected positions below 6 on side a and below 5 on side b (sentence 3 has 6 and 5 words, read 0-based), found the link 6-5",
        ]
    );
    let json = |extra: &str| -> serde_json::Value {
        let o = run(&format!("--format json {extra}"));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let fixed = json("--hyp-base 1");
    let original: serde_json::Value = serde_json::from_str(&stdout_ok(&argv(&format!(
        "pts -q {} --format json",
        common::pts_inputs("examples/pts/")
    ))))
    .unwrap();
    assert_eq!(fixed["sections"], original["sections"]);
    assert_eq!(
        common::value(&fixed, "scores", 0, "AER"),
        Some(1.0 - 31.0 / 32.0)
    );
    assert!(fixed["signature"]
        .as_str()
        .unwrap()
        .ends_with("|weights:1,1,1|hyp-base:1"));
    // the gold (NAACL, 1-based) read 0-based as given: its links past the end, no base offered
    let o = run("--hyp-base 1 --gold-base 0");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "error: gold.en-de.naacl: 3 link(s) point past the last word of their sentence;"
        ) && err.contains("  hint: check the index base (--gold-base, --hyp-base)")
            && err.contains("error: gold.en-de.naacl:4:3: expected positions below 4 on side a"),
        "{err}"
    );
    // a state with the base merges into the same report, the base in its signature
    let o = run("--hyp-base 1 --emit-state one.json");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = common::treeval_in(&dir, &argv("merge -q --format json one.json"));
    let merged: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(merged["sections"], fixed["sections"]);
    let signature = fixed["signature"].as_str().unwrap();
    assert_eq!(merged["signature"], format!("{signature}|merged:1"));
    std::fs::write(dir.join("aligner.en-de.pharaoh"), &zero).unwrap();
    assert!(run("--emit-state zero.json").status.success());
    let o = common::treeval_in(&dir, &argv("merge -q one.json zero.json"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("option hyp_base is null, and in one.json it is 1"),
        "{err}"
    );
    // a sure gold link with a NULL side: left out by default and warned about only for
    // systems; scored with --null include (S 15 → 16)
    let gold = std::fs::read_to_string(ex.join("gold.en-de.naacl")).unwrap();
    std::fs::write(dir.join("gold.en-de.naacl"), format!("{gold}1 0 2 S\n")).unwrap();
    let aer = |v: &serde_json::Value| common::cell(v, "scores", 0, "AER")["counts"].clone();
    assert_eq!(aer(&json("")), serde_json::json!([17, 15, 15, 16]));
    let included = json("--null include");
    assert_eq!(aer(&included), serde_json::json!([17, 16, 15, 16]));
    assert!(included["signature"]
        .as_str()
        .unwrap()
        .ends_with("|null:include"));
    let _ = std::fs::remove_dir_all(&dir);
}
