//! The HTML page's sentence data agrees with the report it belongs to: every error the
//! browser marks is one the scores count, and nothing in the data can close its script
//! element. (The page's look and script are checked in headless Chromium by
//! tests/browser; see docs/html-page.md.)

mod common;

use common::{cell, counts, stdout_ok};
use serde_json::Value;

/// The `#treeval-data` block of a page.
fn data_block(page: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"treeval-data\">";
    let start = page.find(open).expect("the page has a data block") + open.len();
    let end = start + page[start..].find("</script>").expect("closed");
    serde_json::from_str(&page[start..end]).expect("the data block is JSON")
}

/// A report's JSON for the same command line with `--format json`.
fn json_report(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    serde_json::from_str(&stdout_ok(&a)).unwrap()
}

#[test]
fn deps_marks_exactly_the_errors_the_scores_count() {
    let args = [
        "deps",
        "examples/gold.conllu",
        "examples/sys.conllu",
        "examples/sys2.conllu",
        "--punct",
        "form",
    ];
    let mut html = args.to_vec();
    html.extend(["--format", "html"]);
    let data = data_block(&stdout_ok(&html));
    let report = json_report(&args);
    assert_eq!(data["kind"], "deps");
    assert_eq!(data["total"], 3);
    for k in 0..2 {
        let (mut words, mut las, mut uas) = (0, 0, 0);
        for s in data["sentences"].as_array().unwrap() {
            for w in s["sys"][k].as_array().unwrap() {
                let f = w[2].as_u64().unwrap();
                if f & 4 == 0 {
                    words += 1;
                    las += u64::from(f & 3 == 0);
                    uas += u64::from(f & 1 == 0);
                }
            }
        }
        assert_eq!(
            counts(cell(&report, "scores", k as u64, "LAS")),
            [las, words],
            "LAS"
        );
        assert_eq!(
            counts(cell(&report, "scores", k as u64, "UAS")),
            [uas, words],
            "UAS"
        );
    }
}

#[test]
fn align_shows_every_link_the_scores_count() {
    let args = [
        "align",
        "testdata/align/gold.naacl",
        "testdata/align/hyp.pharaoh",
        "testdata/align/hyp2.pharaoh",
    ];
    let mut html = args.to_vec();
    html.extend(["--format", "html"]);
    let data = data_block(&stdout_ok(&html));
    let report = json_report(&args);
    assert_eq!(data["kind"], "align");
    let report_counts = &report["inputs"];
    let gold_links: usize = data["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["sure"].as_array().unwrap().len() + s["possible"].as_array().unwrap().len())
        .sum();
    assert!(gold_links > 0, "{report_counts}");
    for k in 0..2 {
        let links: usize = data["sentences"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["sys"][k].as_array().unwrap().len())
            .sum();
        let c = counts(cell(&report, "scores", k as u64, "precision"));
        // precision reads |A ∩ P| and |A|
        assert_eq!(c[1] as usize, links, "system {k}: |A|");
    }
}

#[test]
fn the_sentence_data_cannot_leave_its_script_element() {
    let dir = std::env::temp_dir().join(format!("treeval-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gold = "# sent_id = </script><script>alert(1)</script>\n\
                1\t<script>alert(1)</script>\t_\tX\t_\t_\t0\troot\t_\t_\n\
                2\ta&b\t_\tX\t_\t_\t1\t<b>dep</b>\t_\t_\n\n";
    let g = dir.join("gold.conllu");
    std::fs::write(&g, gold).unwrap();
    let g = g.to_str().unwrap();
    let page = stdout_ok(&["deps", g, g, "--format", "html"]);
    let data = data_block(&page);
    assert_eq!(
        data["sentences"][0]["words"][0],
        "<script>alert(1)</script>"
    );
    assert_eq!(
        data["sentences"][0]["id"],
        "</script><script>alert(1)</script>"
    );
    // the only script elements are the data block and the page's own script
    assert_eq!(page.matches("<script").count(), 2, "{page}");
    assert!(!page.contains("alert(1)</script>"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ud_marks_exactly_the_aligned_errors_the_scores_count() {
    let args = [
        "ud",
        "testdata/ud/different-tokenization/gold.conllu",
        "testdata/ud/different-tokenization/sys.conllu",
    ];
    let mut html = args.to_vec();
    html.extend(["--format", "html"]);
    let data = data_block(&stdout_ok(&html));
    let report = json_report(&args);
    let row = |key: &str| -> Vec<u64> {
        let rows = report["sections"][0]["rows"].as_array().unwrap();
        let r = rows.iter().find(|r| r["key"] == key).unwrap();
        let c = r["cells"].as_array().unwrap();
        let acc = c
            .iter()
            .find(|c| c["measure"] == "aligned-accuracy")
            .unwrap();
        acc["counts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    };
    let (mut aligned, mut las, mut uas, mut gold_words) = (0, 0, 0, 0);
    for s in data["sentences"].as_array().unwrap() {
        for w in s["sys"][0].as_array().unwrap() {
            let f = w[2].as_u64().unwrap();
            gold_words += 1;
            if f & 8 == 0 {
                aligned += 1;
                las += u64::from(f & 3 == 0);
                uas += u64::from(f & 1 == 0);
            }
        }
    }
    assert_eq!(gold_words, 8, "every gold word is shown");
    assert_eq!(row("LAS"), [las, aligned], "LAS");
    assert_eq!(row("UAS"), [uas, aligned], "UAS");
}

#[test]
fn align_tokens_name_the_grid_and_catch_links_past_the_words() {
    let base = [
        "align",
        "testdata/align/gold.naacl",
        "testdata/align/hyp.pharaoh",
        "--tokens",
        "testdata/align/tokens.src",
        "testdata/align/tokens.tgt",
    ];
    let mut html = base.to_vec();
    html.extend(["--format", "html"]);
    let data = data_block(&stdout_ok(&html));
    assert_eq!(
        data["sentences"][0]["src"],
        serde_json::json!(["the", "cat", "sleeps", "well"])
    );
    assert_eq!(data["sentences"][1]["src"][0], "<script>alert(1)</script>");
    assert_eq!(data["sentences"][0]["tgt"].as_array().unwrap().len(), 4);
    // the same files swapped: the gold's fourth target word is past the source's third
    let mut swapped = base.to_vec();
    swapped[4] = "testdata/align/tokens.tgt";
    swapped[5] = "testdata/align/tokens.src";
    swapped.extend(["--format", "json"]);
    let r: Value = serde_json::from_str(&stdout_ok(&swapped)).unwrap();
    let warnings = r["warnings"].to_string();
    assert!(warnings.contains("point past the last word"), "{warnings}");
    let mut fine = base.to_vec();
    fine.extend(["--format", "json"]);
    let r: Value = serde_json::from_str(&stdout_ok(&fine)).unwrap();
    assert!(!r["warnings"].to_string().contains("past the last word"));
}

#[test]
fn every_command_s_page_has_its_parts() {
    // (command line, has a sentence browser)
    let cases: [(&[&str], bool); 5] = [
        (
            &["deps", "examples/gold.conllu", "examples/sys.conllu"],
            true,
        ),
        (&["ud", "examples/gold.conllu", "examples/sys.conllu"], true),
        (
            &["relations", "examples/gold.conllu", "examples/sys.conllu"],
            false,
        ),
        (
            &[
                "brackets",
                "testdata/brackets/brackets-300/gold.txt",
                "testdata/brackets/brackets-300/test.txt",
            ],
            true,
        ),
        (
            &[
                "align",
                "testdata/align/gold.naacl",
                "testdata/align/hyp.pharaoh",
            ],
            true,
        ),
    ];
    for (args, browser) in cases {
        let mut a = args.to_vec();
        a.extend(["--format", "html"]);
        let page = stdout_ok(&a);
        for part in [
            "<header><h1>treeval ",
            "<p id=\"signature\">",
            "<section id=\"summary\">",
            "<table id=\"inputs\">",
            "<table class=\"report\" data-section=",
            "<figure class=\"chart\" data-section=",
            "<figcaption>",
        ] {
            assert!(page.contains(part), "{args:?}: no {part}");
        }
        assert_eq!(
            page.contains("<section id=\"browser\">"),
            browser,
            "{args:?}"
        );
        if browser {
            for part in [
                "<noscript>",
                "<div id=\"browser-app\"></div>",
                "id=\"treeval-data\"",
            ] {
                assert!(page.contains(part), "{args:?}: no {part}");
            }
        } else {
            assert!(
                !page.contains("<script"),
                "{args:?}: a script without a browser"
            );
        }
    }
}
