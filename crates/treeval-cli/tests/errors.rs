//! `--errors`: the rows add up to the report's error counts, in every command that has it,
//! and every format shows them.

mod common;

use common::{cell, counts, stdout_ok, treeval};
use serde_json::Value;

fn report(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.extend(["--errors", "--format", "json"]);
    serde_json::from_str(&stdout_ok(&a)).unwrap()
}

/// Rows of system `k`'s listing, and the kinds it counts.
fn listing(r: &Value, k: usize) -> (usize, Vec<(String, u64)>) {
    let l = r["listings"].as_array().unwrap();
    let l = l.iter().find(|l| l["system"] == k).unwrap();
    let kinds = l["kinds"].as_array().unwrap().iter();
    let kinds = kinds
        .map(|x| {
            (
                x["kind"].as_str().unwrap().to_owned(),
                x["count"].as_u64().unwrap(),
            )
        })
        .collect();
    (l["rows"].as_array().unwrap().len(), kinds)
}

fn kind(kinds: &[(String, u64)], k: &str) -> u64 {
    kinds.iter().find(|x| x.0 == k).map_or(0, |x| x.1)
}

#[test]
fn deps_rows_are_the_words_las_and_uas_count_wrong() {
    for punct in ["include", "form"] {
        let r = report(&[
            "deps",
            "examples/gold.conllu",
            "examples/sys.conllu",
            "examples/sys2.conllu",
            "--punct",
            punct,
        ]);
        for k in 0..2 {
            let (rows, kinds) = listing(&r, k);
            let las = counts(cell(&r, "scores", k as u64, "LAS"));
            let uas = counts(cell(&r, "scores", k as u64, "UAS"));
            assert_eq!(rows as u64, las[1] - las[0], "{punct}: LAS errors");
            let head = kind(&kinds, "head") + kind(&kinds, "head+label");
            assert_eq!(head, uas[1] - uas[0], "{punct}: UAS errors");
        }
    }
}

#[test]
fn ud_rows_are_the_gold_words_las_counts_wrong() {
    let r = report(&[
        "ud",
        "testdata/ud/different-tokenization/gold.conllu",
        "testdata/ud/different-tokenization/sys.conllu",
    ]);
    let rows = r["sections"][0]["rows"].as_array().unwrap();
    // recall reads correct, gold
    let recall = |key: &str| {
        let row = rows.iter().find(|x| x["key"] == key).unwrap();
        let c = row["cells"].as_array().unwrap();
        let c = c.iter().find(|c| c["measure"] == "recall").unwrap();
        (
            c["counts"][0].as_u64().unwrap(),
            c["counts"][1].as_u64().unwrap(),
        )
    };
    let (correct, gold) = recall("LAS");
    let (rows_n, kinds) = listing(&r, 0);
    assert_eq!(rows_n as u64, gold - correct);
    let (uas_correct, _) = recall("UAS");
    let head_or_unaligned =
        kind(&kinds, "head") + kind(&kinds, "head+label") + kind(&kinds, "not aligned");
    assert_eq!(head_or_unaligned, gold - uas_correct);
}

#[test]
fn align_rows_are_the_missed_sure_links_and_the_wrong_links() {
    for null in ["exclude", "include"] {
        let r = report(&[
            "align",
            "testdata/align/gold.naacl",
            "testdata/align/hyp.pharaoh",
            "testdata/align/hyp2.pharaoh",
            "--null",
            null,
        ]);
        for k in 0..2 {
            let (_, kinds) = listing(&r, k);
            // recall reads |A ∩ S|, |S|; precision |A ∩ P|, |A|
            let rc = counts(cell(&r, "scores", k as u64, "recall"));
            let pc = counts(cell(&r, "scores", k as u64, "precision"));
            assert_eq!(kind(&kinds, "missed sure link"), rc[1] - rc[0], "{null}");
            assert_eq!(kind(&kinds, "wrong link"), pc[1] - pc[0], "{null}");
        }
    }
}

#[test]
fn every_format_shows_the_listing_and_other_commands_refuse() {
    let base = [
        "deps",
        "examples/gold.conllu",
        "examples/sys.conllu",
        "--errors",
    ];
    for (format, needle) in [
        ("text", "errors of sys: 5 (4 head+label, 1 head)"),
        ("csv", "errors,sys,1,form,storm"),
        ("markdown", "| 2 | ex2 | 7 | storm |"),
        ("latex", "storm"),
        ("html", "<table class=\"listing\" data-listing=\"errors\">"),
    ] {
        let mut a = base.to_vec();
        a.extend(["--format", format]);
        let out = stdout_ok(&a);
        assert!(out.contains(needle), "{format}: {out}");
    }
    for args in [
        &["ted", "--errors", "--distance", "testdata/ted/pairs.txt"][..],
        &[
            "deps",
            "--errors",
            "--compat",
            "evalpl",
            "examples/gold.conllu",
            "examples/sys.conllu",
        ][..],
    ] {
        let o = treeval(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn brackets_rows_are_the_unmatched_gold_and_system_brackets() {
    for case in ["brackets-300", "careful-paper", "debug"] {
        let g = format!("testdata/brackets/{case}/gold.txt");
        let t = format!("testdata/brackets/{case}/test.txt");
        let r = report(&["brackets", &g, &t, &t]);
        for k in 0..2 {
            let (_, kinds) = listing(&r, k);
            // recall reads matched, gold; precision matched, system
            let rc = counts(cell(&r, "all", k as u64, "recall"));
            let pc = counts(cell(&r, "all", k as u64, "precision"));
            assert_eq!(kind(&kinds, "missed gold bracket"), rc[1] - rc[0], "{case}");
            assert_eq!(
                kind(&kinds, "extra system bracket"),
                pc[1] - pc[0],
                "{case}"
            );
        }
    }
}

#[test]
fn wrong_arcs_group_the_listed_words() {
    let r = report(&["deps", "examples/gold.conllu", "examples/sys.conllu"]);
    let ls = r["listings"].as_array().unwrap();
    assert_eq!(ls.len(), 2, "the words, then the wrong arcs");
    assert_eq!(
        (ls[0]["id"].as_str(), ls[1]["id"].as_str()),
        (Some("errors"), Some("wrong-arcs"))
    );
    let words = ls[0]["rows"].as_array().unwrap().len() as u64;
    let grouped: u64 = ls[1]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row[4].as_str().unwrap().parse::<u64>().unwrap())
        .sum();
    // fewer than 20 groups here: every wrong word is in one
    assert_eq!(grouped, words);
    // most words first
    let counts: Vec<u64> = ls[1]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row[4].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    // the gold → system label of a listed word appears among the groups
    assert!(ls[1]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .any(|row| row[0] == "obl" && row[1] == "nmod"));
}

#[test]
fn a_text_listing_cuts_a_long_form_and_json_keeps_it() {
    // one sentence of 3 words; the system attaches the URL (word 3) to word 1, not 2
    let url = "http://www.example.com/a/very/long/path/to/a/page.html";
    let gold = format!(
        "# sent_id = url-1\n1\tSee\tsee\tVERB\t_\t_\t0\troot\t_\t_\n2\tpage\tpage\tNOUN\t_\t_\t1\tobj\t_\t_\n3\t{url}\t{url}\tX\t_\t_\t2\tnmod\t_\t_\n\n"
    );
    let sys = gold.replace("\t2\tnmod", "\t1\tnmod");
    let dir = std::env::temp_dir().join(format!("treeval-errors-url-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("gold.conllu"), gold).unwrap();
    std::fs::write(dir.join("sys.conllu"), sys).unwrap();
    let o = common::treeval_in(
        &dir,
        &["deps", "-q", "gold.conllu", "sys.conllu", "--errors"],
    );
    assert!(o.status.success(), "{}", common::stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    let listing = &text[text.find("errors of sys:").unwrap()..];
    insta::assert_snapshot!(listing);
    // 23 characters of the form and the ellipsis
    assert!(listing.contains("http://www.example.com/…  2"), "{listing}");
    let o = common::treeval_in(
        &dir,
        &[
            "deps",
            "gold.conllu",
            "sys.conllu",
            "--errors",
            "--format",
            "json",
        ],
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["listings"][0]["rows"][0][3], url);
    let _ = std::fs::remove_dir_all(&dir);
}
