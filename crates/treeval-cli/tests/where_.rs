//! `--where`: a condition keeps exactly the words of the `--by` cell (or per-relation row,
//! or confusion cell) it names, and the report says so.

mod common;

use common::{assert_stderr_has, cell, counts, keyed_cell, keys, stdout_ok, treeval};
use serde_json::Value;

const GOLD: &str = "examples/gold.conllu";
const SYS: [&str; 2] = ["examples/sys.conllu", "examples/sys2.conllu"];

fn report(extra: &[&str]) -> Value {
    let mut a = vec!["deps", GOLD, SYS[0], SYS[1], "-q", "--format", "json"];
    a.extend(extra);
    serde_json::from_str(&stdout_ok(&a)).unwrap()
}

/// The counts of LAS, UAS and LA in the headline section.
fn headline(r: &Value, k: u64) -> Vec<Vec<u64>> {
    ["LAS", "UAS", "LA"]
        .iter()
        .map(|m| counts(cell(r, "scores", k, m)))
        .collect()
}

/// For every `--by` key and every gold group of it, `--where KEY=GROUP` scores exactly the
/// group's words: its LAS, UAS and LA counts are the breakdown cell's.
#[test]
fn every_by_cell_is_its_where() {
    let all = "deprel,upos,xpos,length,distance,direction,depth,projectivity";
    for punct in ["include", "form"] {
        let by = report(&["--by", all, "--punct", punct]);
        let mut checked = 0;
        for key in all.split(',') {
            let section = format!("by:{key}");
            for group in keys(&by, &section, 0) {
                if counts(keyed_cell(&by, &section, 0, &group, "words"))[0] == 0 {
                    continue; // a group of system words only
                }
                let cond = format!("{key}={group}");
                let w = report(&["--where", &cond, "--punct", punct]);
                for k in 0..2 {
                    let want: Vec<Vec<u64>> = ["LAS", "UAS", "LA"]
                        .iter()
                        .map(|m| counts(keyed_cell(&by, &section, k, &group, m)))
                        .collect();
                    assert_eq!(headline(&w, k), want, "{punct} {cond} system {k}");
                }
                checked += 1;
            }
        }
        assert!(checked > 30, "{checked} cells");
    }
}

/// `--where deprel=X` is the per-relation row of X on the gold side (recall): its words,
/// LAS-R, UAS-R and LA-R.
#[test]
fn a_gold_label_is_its_per_relation_recall() {
    let rel = report(&["--per-relation"]);
    for label in ["nsubj", "obj", "punct", "nmod", "root"] {
        let w = report(&["--where", &format!("deprel={label}")]);
        for k in 0..2 {
            let h = headline(&w, k);
            for (i, m) in ["LAS-R", "UAS-R", "LA-R"].iter().enumerate() {
                let c = counts(keyed_cell(&rel, "per-relation", k, label, m));
                assert_eq!(h[i], c, "{label} {m} system {k}");
            }
        }
    }
}

/// A system condition is the system side of the breakdown: `sys.deprel=X` keeps the
/// words the system labels X (`system-words`, `system-LAS` of `--by deprel`), and
/// `sys.distance=B` the words of the system's distance bin B.
#[test]
fn a_system_condition_is_the_system_side_of_its_breakdown() {
    let by = report(&["--by", "deprel,distance"]);
    for (key, group) in [
        ("deprel", "obj"),
        ("deprel", "punct"),
        ("distance", "1"),
        ("distance", "2"),
    ] {
        let w = report(&["--where", &format!("sys.{key}={group}")]);
        for k in 0..2 {
            let section = format!("by:{key}");
            let sys_las = counts(keyed_cell(&by, &section, k, group, "system-LAS"));
            assert_eq!(
                counts(cell(&w, "scores", k, "LAS")),
                sys_las,
                "sys.{key}={group} {k}"
            );
        }
    }
}

/// Numbers and ranges read the underlying value: `distance=3+` keeps bins 3-6 and 7+,
/// `distance=2-2` the bin 2, and alternatives add up.
#[test]
fn numbers_ranges_and_alternatives_read_the_values() {
    let same = |a: &str, b: &str| {
        let (x, y) = (report(&["--where", a]), report(&["--where", b]));
        for k in 0..2 {
            assert_eq!(headline(&x, k), headline(&y, k), "{a} vs {b}");
        }
    };
    same("distance=3+", "distance=3-6|7+");
    same("distance=2-2", "distance=2");
    same("distance=3|4|5|6", "distance=3-6");
    same("length=1-10|11-20|21-30|31-40|41-50|51+", "length=0+");
    // alternatives: the words of nsubj and of obj together
    let (a, b, ab) = (
        report(&["--where", "deprel=nsubj"]),
        report(&["--where", "deprel=obj"]),
        report(&["--where", "deprel=nsubj|obj"]),
    );
    let sum: Vec<u64> = counts(cell(&a, "scores", 0, "LAS"))
        .iter()
        .zip(counts(cell(&b, "scores", 0, "LAS")))
        .map(|(x, y)| x + y)
        .collect();
    assert_eq!(counts(cell(&ab, "scores", 0, "LAS")), sum);
    // repeating the option ANDs it like a comma
    let (x, y) = (
        report(&["--where", "deprel=nsubj,distance=1"]),
        report(&["--where", "deprel=nsubj", "--where", "distance=1"]),
    );
    assert_eq!(headline(&x, 1), headline(&y, 1));
}

/// `--where gold.deprel=A,sys.deprel=B` (A ≠ B): the words of confusion cell (A, B), all
/// of them wrong, so `--errors` lists every one.
#[test]
fn a_confusion_cell_is_its_where_and_its_listing() {
    let conf = report(&["--confusion=50"]);
    let mut checked = 0;
    for m in conf["matrices"].as_array().unwrap() {
        let k = m["system"].as_u64().unwrap();
        let names: Vec<&str> = m["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        for (i, g) in names.iter().enumerate() {
            for (j, s) in names.iter().enumerate() {
                let n = m["counts"][i][j].as_u64().unwrap();
                if i == j || n == 0 {
                    continue;
                }
                let cond = format!("gold.deprel={g},sys.deprel={s}");
                let w = report(&["--where", &cond, "--errors"]);
                assert_eq!(counts(cell(&w, "scores", k, "LA")), [0, n], "{cond}");
                let listing = w["listings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|l| l["id"] == "errors" && l["system"] == k)
                    .unwrap();
                assert_eq!(
                    listing["rows"].as_array().unwrap().len() as u64,
                    n,
                    "{cond}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 3, "{checked} cells");
}

/// The signature records the conditions (alternatives with `/`, as `|` separates its
/// parts), the conventions and a note say them and how many words were kept, in every
/// format.
#[test]
fn the_report_says_what_was_kept() {
    let r = report(&["--where", "deprel=nsubj|obj"]);
    let sig = r["signature"].as_str().unwrap();
    assert!(sig.ends_with("|where:gold.deprel=nsubj/obj"), "{sig}");
    let conv = r["conventions"].as_array().unwrap();
    assert!(conv
        .iter()
        .any(|c| c["name"] == "where" && c["value"] == "gold.deprel=nsubj|obj"));
    let words = counts(cell(&r, "scores", 0, "LAS"))[1];
    let note =
        format!("examples/sys.conllu: where gold.deprel=nsubj|obj: {words} of 21 scored words");
    assert!(
        r["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n == note.as_str()),
        "{}",
        r["notes"]
    );
    let input = &r["inputs"][1]["counts"];
    assert_eq!(input["unmatched_words"].as_u64(), Some(21 - words));
    for format in ["text", "markdown", "latex", "html", "csv", "tsv"] {
        let out = stdout_ok(&[
            "deps",
            GOLD,
            SYS[0],
            "-q",
            "--where",
            "deprel=nsubj|obj",
            "--format",
            format,
        ]);
        assert!(out.contains("where:gold.deprel=nsubj/obj"), "{format}");
    }
}

/// A condition no word meets: 0 words, every score n/a (never 0 or 100), and it is said.
#[test]
fn nothing_kept_is_not_applicable() {
    let run = [
        "deps",
        GOLD,
        SYS[0],
        "--where",
        "deprel=nope",
        "--format",
        "json",
    ];
    // one run: nothing scored is an error naming --where
    let o = treeval(&run);
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_has(
        &o,
        "nothing is scored: --where gold.deprel=nope matched none of the 21 words",
    );
    // a part of a corpus (--emit-state) reports n/a, with the note and the warning
    let state = std::env::temp_dir().join(format!("treeval-nope-{}.json", std::process::id()));
    let o = treeval(&[&run[..], &["--emit-state", state.to_str().unwrap()]].concat());
    let _ = std::fs::remove_file(&state);
    assert!(o.status.success());
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    for m in ["LAS", "UAS", "LA", "LEM", "UEM"] {
        assert_eq!(cell(&r, "scores", 0, m)["value"], Value::Null, "{m}");
    }
    let note = "examples/sys.conllu: where gold.deprel=nope: 0 of 21 scored words (no word: every score is n/a)";
    assert!(
        r["notes"].as_array().unwrap().iter().any(|n| n == note),
        "{}",
        r["notes"]
    );
    assert_stderr_has(&o, "--where gold.deprel=nope matched none of the 21 words");
}

/// Exact match reads the kept words: a sentence without one is not measured, and the
/// per-sentence lines add up to the kept words.
#[test]
fn exact_match_and_per_sentence_lines_count_the_kept_words() {
    let dir = std::env::temp_dir().join(format!("treeval-where-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lines = dir.join("per-sentence.jsonl");
    let path = lines.to_str().unwrap();
    let r = report(&["--where", "deprel=obj", "--per-sentence", path]);
    let text = std::fs::read_to_string(&lines).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    // examples/gold.conllu: obj in sentences 1 and 3 (not 2)
    assert_eq!(counts(cell(&r, "scores", 0, "LEM"))[1], 2);
    for k in 0..2u64 {
        let words: u64 = text
            .lines()
            .skip(1)
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|row| row["system"] == k)
            .map(|row| row["counts"]["words"].as_u64().unwrap())
            .sum();
        assert_eq!(words, counts(cell(&r, "scores", k, "LAS"))[1], "system {k}");
    }
}

#[test]
fn mcnemar_needs_the_same_words_for_every_system() {
    let args = ["deps", GOLD, SYS[0], SYS[1], "--test", "mcnemar", "--where"];
    let mut a = args.to_vec();
    a.push("sys.deprel=obj");
    let o = treeval(&a);
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_has(
        &o,
        "--test mcnemar needs every system scored on the same words",
    );
    assert_stderr_has(&o, "hint: use --test ar or --test bootstrap");
    // gold conditions keep the same words for every system: McNemar runs
    let mut a = args.to_vec();
    a.extend(["deprel=obj", "-q"]);
    assert!(treeval(&a).status.success());
    // and ar runs with system conditions
    let o = treeval(&[
        "deps",
        GOLD,
        SYS[0],
        SYS[1],
        "--test",
        "ar",
        "--samples",
        "50",
        "-q",
        "--where",
        "sys.deprel=obj",
    ]);
    assert!(o.status.success());
}

#[test]
fn bad_conditions_and_other_commands_are_usage_errors() {
    for (cond, says) in [
        ("lemma=go", "--where: expected one of deprel, upos, xpos, length, distance, direction, depth, projectivity (of the gold word; also written gold.KEY) or sys.deprel, sys.upos, sys.distance, sys.direction (the system's analysis of the same word); found 'lemma'"),
        ("distance=far", "--where: distance: expected one of root, 1, 2, 3-6, 7+, invalid, a number, a range N-M or N+; found 'far'"),
        ("deprel", "--where: expected KEY=VALUE[|VALUE…], found 'deprel'"),
        ("sys.xpos=NN", "found 'sys.xpos'"),
    ] {
        let o = treeval(&["deps", GOLD, SYS[0], "--where", cond]);
        assert_eq!(o.status.code(), Some(2), "{cond}");
        assert_stderr_has(&o, says);
    }
    let o = treeval(&[
        "deps",
        GOLD,
        SYS[0],
        "--labels",
        "universal",
        "--where",
        "deprel=obl:npmod",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_has(&o, "write 'obl' or use --labels full");
    let o = treeval(&[
        "deps",
        GOLD,
        SYS[0],
        "--compat",
        "eval07",
        "--where",
        "deprel=obj",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_has(&o, "--where does not apply with --compat");
    let o = treeval(&["relations", GOLD, SYS[0], "--where", "deprel=obj"]);
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_has(
        &o,
        "--where is not available for `treeval relations` (it is for deps, ud and brackets)",
    );
    let o = treeval(&["ud", GOLD, SYS[0], "--where", "sys.deprel=obj"]);
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_has(&o, "ud takes conditions on gold words only");
    let o = treeval(&["ud", GOLD, SYS[0], "--where", "deprel=obl:npmod"]);
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_has(&o, "write 'obl'");
}

const UD_TOK: [&str; 2] = [
    "testdata/ud/different-tokenization/gold.conllu",
    "testdata/ud/different-tokenization/sys.conllu",
];

fn ud_report(files: [&str; 2], extra: &[&str]) -> Value {
    let mut a = vec!["ud", files[0], files[1], "-q", "--format", "json"];
    a.extend(extra);
    serde_json::from_str(&stdout_ok(&a)).unwrap()
}

/// The counts of `measure` in the `ud` scores row of `metric`.
fn ud_counts(r: &Value, metric: &str, measure: &str) -> Vec<u64> {
    counts(keyed_cell(r, "scores", 0, metric, measure))
}

/// In `ud`, `--where KEY=GROUP` keeps the gold words of the `--by` cell: the LAS and UAS
/// recall are the cell's, every system word counted is aligned to a kept gold word
/// (precision reads the aligned ones), tokens and sentences are not counted, and
/// `--errors` lists the kept gold words LAS counts wrong.
#[test]
fn ud_every_by_cell_is_its_where_over_the_alignment() {
    let all = "deprel,upos,length,distance,direction,depth,projectivity";
    for files in [UD_TOK, [GOLD, SYS[0]]] {
        let by = ud_report(files, &["--by", all]);
        let mut checked = 0;
        for key in all.split(',') {
            let section = format!("by:{key}");
            for group in keys(&by, &section, 0) {
                if counts(keyed_cell(&by, &section, 0, &group, "words"))[0] == 0 {
                    continue;
                }
                let cond = format!("{key}={group}");
                let w = ud_report(files, &["--where", &cond, "--errors"]);
                for m in ["LAS", "UAS"] {
                    let cell = counts(keyed_cell(&by, &section, 0, &group, m));
                    assert_eq!(ud_counts(&w, m, "recall"), cell, "{cond} {m}");
                }
                let (precision, aligned) = (
                    ud_counts(&w, "LAS", "precision"),
                    ud_counts(&w, "LAS", "aligned-accuracy"),
                );
                assert_eq!(
                    precision, aligned,
                    "{cond}: precision reads the aligned words"
                );
                assert_eq!(ud_counts(&w, "Tokens", "F1"), [0, 0, 0], "{cond}");
                let las = ud_counts(&w, "LAS", "recall");
                let rows = w["listings"][0]["rows"].as_array().unwrap().len() as u64;
                assert_eq!(rows, las[1] - las[0], "{cond}: --errors");
                checked += 1;
            }
        }
        assert!(checked > 15, "{checked} cells");
    }
}

#[test]
fn ud_report_says_what_was_kept() {
    let r = ud_report(UD_TOK, &["--where", "deprel=nsubj|punct"]);
    let sig = r["signature"].as_str().unwrap();
    assert!(sig.contains("|where:gold.deprel=nsubj/punct"), "{sig}");
    let notes = r["notes"].as_array().unwrap();
    let kept = format!(
        "{}: where gold.deprel=nsubj|punct: 4 of 8 gold words",
        UD_TOK[1]
    );
    assert!(notes.iter().any(|n| n == kept.as_str()), "{notes:?}");
    let reads = "precision = right / system words aligned to kept gold words";
    assert!(notes.iter().any(|n| n.as_str().unwrap().contains(reads)));
}
