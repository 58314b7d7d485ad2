//! `treeval table`: the macro average, CSV against JSON, LaTeX's booktabs structure,
//! saved reports against the manifest, and the manifest's errors.

mod common;

use common::{root, stdout_ok, treeval};
use serde_json::Value;

const MANIFEST: &str = "testdata/table/manifest.tsv";

/// The table section of a JSON report: (system, column, value) per cell.
fn cells(report: &Value) -> Vec<(String, String, Option<f64>)> {
    let systems: Vec<String> = report["systems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    let s = &report["sections"][0];
    assert_eq!(s["id"], "table");
    let mut out = Vec::new();
    for row in s["rows"].as_array().unwrap() {
        let sys = &systems[row["system"].as_u64().unwrap() as usize];
        for c in row["cells"].as_array().unwrap() {
            out.push((
                sys.clone(),
                c["measure"].as_str().unwrap().to_string(),
                c["value"].as_f64(),
            ));
        }
    }
    out
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_ok(args)).unwrap()
}

#[test]
fn the_macro_average_is_the_mean_of_the_cells() {
    let r = json(&["table", MANIFEST, "--format", "json", "--baseline", "sysA"]);
    let s = &r["sections"][0];
    assert_eq!(
        s["columns"],
        serde_json::json!(["examples", "tiny", "news", "macro-avg"])
    );
    let rows = s["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "one row per system");
    for row in rows {
        let v: Vec<f64> = row["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["value"].as_f64().unwrap())
            .collect();
        let mean = v[..3].iter().sum::<f64>() / 3.0;
        assert!((v[3] - mean).abs() < 1e-12, "{v:?}");
    }
    // examples/sys.conllu: 16 of 21 words right (as `treeval deps` says)
    assert_eq!(rows[0]["cells"][0]["counts"], serde_json::json!([16, 21]));
    // the baseline is tested against the other system on every treebank, adjusted
    let cmp = r["comparisons"].as_array().unwrap();
    assert_eq!(cmp.len(), 3);
    let raw: Vec<f64> = cmp.iter().map(|c| c["p_value"].as_f64().unwrap()).collect();
    for (c, adj) in cmp.iter().zip(treeval_stats_holm(&raw)) {
        assert!((c["p_adjusted"].as_f64().unwrap() - adj).abs() < 1e-12);
    }
}

/// Holm–Bonferroni, restated for the test.
fn treeval_stats_holm(p: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let mut adj = vec![0.0; p.len()];
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((p.len() - k) as f64 * p[i]).min(1.0));
        adj[i] = running;
    }
    adj
}

/// The fields of one CSV line (quoted fields with doubled quotes).
fn csv_fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// The table section's cells of a CSV report: (system, column, value), as [`cells`].
fn csv_cells(csv: &str) -> Vec<(String, String, Option<f64>)> {
    let mut lines = csv.lines();
    let head = csv_fields(lines.next().unwrap());
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    lines
        .map(csv_fields)
        .filter(|f| f[col("section")] == "table")
        .map(|f| {
            (
                f[col("system")].clone(),
                f[col("measure")].clone(),
                f[col("value")].parse().ok(),
            )
        })
        .collect()
}

#[test]
fn csv_round_trips_to_the_json_numbers() {
    let j = json(&["table", MANIFEST, "--format", "json"]);
    let csv = stdout_ok(&["table", MANIFEST, "--format", "csv"]);
    let from_csv = csv_cells(&csv);
    assert_eq!(from_csv, cells(&j));
    assert_eq!(from_csv.len(), 2 * 4);
}

#[test]
fn latex_is_a_booktabs_table_with_a_row_per_system() {
    let tex = stdout_ok(&["table", MANIFEST, "--format", "latex", "--baseline", "sysA"]);
    let body: Vec<&str> = tex.lines().filter(|l| !l.starts_with('%')).collect();
    let at = |s: &str| {
        body.iter()
            .position(|l| *l == s)
            .unwrap_or_else(|| panic!("{s}\n{tex}"))
    };
    let (top, mid, bottom) = (at("\\toprule"), at("\\midrule"), at("\\bottomrule"));
    assert!(
        body[top - 1].starts_with("\\begin{tabular}{lrrrr}"),
        "{tex}"
    );
    assert!(top < mid && mid < bottom && body[bottom + 1] == "\\end{tabular}");
    assert_eq!(mid - top, 2, "one header row");
    let rows = &body[mid + 1..bottom];
    assert_eq!(rows.len(), 2, "one row per system:\n{tex}");
    assert!(rows[0].starts_with("sysA &"), "the baseline first");
    for r in std::iter::once(&body[top + 1]).chain(rows) {
        assert_eq!(r.matches(" & ").count(), 4, "{r}");
        assert!(r.ends_with(" \\\\"), "{r}");
    }
}

/// The fixture manifest's three treebanks saved as `deps` reports (tests of LAS,
/// intervals), in a fresh folder: (folder, report of each treebank).
fn saved_reports(tag: &str, extra: &[&str]) -> (std::path::PathBuf, Vec<String>) {
    let dir = std::env::temp_dir().join(format!("treeval-table-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let runs = [
        (
            "examples/gold.conllu",
            "examples/sys.conllu",
            "examples/sys2.conllu",
            "",
        ),
        (
            "testdata/ud/different-tokenization/gold.conllu",
            "testdata/table/tiny-a.conllu",
            "testdata/table/tiny-b.conllu",
            "",
        ),
        (
            "testdata/table/news-gold.conllu",
            "testdata/table/news-a.conllu",
            "testdata/table/news-b.conllu",
            "--labels universal",
        ),
    ];
    let mut files = Vec::new();
    for (k, (g, a, b, opts)) in runs.iter().enumerate() {
        let mut args = vec![
            "deps",
            g,
            a,
            b,
            "--format",
            "json",
            "-q",
            "--test",
            "ar",
            "--test-metrics",
            "LAS",
        ];
        args.extend(opts.split_whitespace());
        args.extend(extra);
        let f = dir.join(format!("{k}.json"));
        std::fs::write(&f, stdout_ok(&args)).unwrap();
        files.push(f.to_string_lossy().into_owned());
    }
    (dir, files)
}

/// A manifest of the saved reports of [`saved_reports`], named as testdata/table/manifest.tsv
/// names the same files.
fn reports_manifest(dir: &std::path::Path) -> String {
    let mut m = String::from("treebank\treport\tsystem\tfile\n");
    for (k, tb, a, b) in [
        (0, "examples", "examples/sys.conllu", "examples/sys2.conllu"),
        (1, "tiny", "tiny-a.conllu", "tiny-b.conllu"),
        (2, "news", "news-a.conllu", "news-b.conllu"),
    ] {
        m.push_str(&format!(
            "{tb}\t{k}.json\tsysA\t{a}\n{tb}\t{k}.json\tsysB\t{b}\n"
        ));
    }
    let path = dir.join("reports.tsv");
    std::fs::write(&path, m).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn saved_reports_named_by_a_manifest_give_the_manifests_table() {
    let (dir, files) = saved_reports("saved", &[]);
    let named = reports_manifest(&dir);
    let saved = json(&["table", &named, "--format", "json", "--baseline", "sysA"]);
    let manifest = json(&["table", MANIFEST, "--format", "json", "--baseline", "sysA"]);
    // the same treebanks, systems and cells as the manifest that evaluates the same files
    assert_eq!(cells(&saved), cells(&manifest));
    assert_eq!(
        saved["sections"][0]["columns"],
        manifest["sections"][0]["columns"]
    );
    // the tests the reports ran are read too: the same raw p-values as the manifest's
    // (10000 shuffles, the same seed), adjusted across the treebanks
    let p = |r: &Value| -> Vec<(String, f64)> {
        let c = r["comparisons"].as_array().unwrap();
        c.iter()
            .map(|c| {
                (
                    c["metric"].as_str().unwrap().to_string(),
                    c["p_value"].as_f64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(p(&saved), p(&manifest));
    let notes = saved["notes"].to_string();
    assert!(
        notes.contains("(exact permutation tests (at most 16 sentences differ: all their swaps), as the saved reports ran them), α = 0.05"),
        "{notes}"
    );
    // given alone, the reports are refused: nothing names their treebank and systems,
    // and the error shows the manifest to write
    let mut args = vec!["table"];
    args.extend(files.iter().map(String::as_str));
    let o = treeval(&args);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    for want in [
        "saved reports do not say which treebank they score or what their systems are called",
        "does not guess it from file names",
        "hint: name them in a manifest of saved reports",
        "    treebank\treport\tsystem\tfile\n",
        &format!("    TREEBANK\t{}\tSYSTEM\texamples/sys2.conllu\n", files[0]),
    ] {
        assert!(err.contains(want), "{want:?} in\n{err}");
    }
    // one report alone too
    let o = treeval(&["table", &files[0]]);
    assert_eq!(o.status.code(), Some(2));
    // a line naming a file the report does not list, a report's system named twice
    let bad = dir.join("bad.tsv");
    std::fs::write(
        &bad,
        "treebank\treport\tsystem\tfile\nx\t0.json\ta\tnope.conllu\nx\t0.json\tb\tsys.conllu\nx\t0.json\tc\texamples/sys.conllu\ny\t0.json\td\n",
    )
    .unwrap();
    let o = treeval(&["table", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    for want in [
        "bad.tsv:2: expected a system file of 0.json, found 'nope.conllu'",
        "hint: its systems' files are 'examples/sys.conllu', 'examples/sys2.conllu'",
        "bad.tsv:4: system examples/sys.conllu of 0.json is named on line 3 already",
        "bad.tsv:5: expected a file column naming which of the 2 systems of 0.json is d",
    ] {
        assert!(err.contains(want), "{want:?} in\n{err}");
    }
    // a system of a report that no line names is left out, and a note says so
    std::fs::write(
        &bad,
        "treebank\treport\tsystem\tfile\nx\t0.json\ta\tsys2.conllu\n",
    )
    .unwrap();
    let one = json(&["table", bad.to_str().unwrap(), "--format", "json"]);
    assert_eq!(one["systems"].as_array().unwrap().len(), 1);
    assert!(
        one["notes"].to_string().contains(
            "left out of the table (no line of the manifest names them): examples/sys.conllu of"
        ),
        "{}",
        one["notes"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rank_by_orders_the_systems_and_says_so_in_every_format() {
    // without --rank-by the baseline first; ranked by UAS, sysB (92.66) before sysA
    let plain = json(&["table", MANIFEST, "--format", "json", "--baseline", "sysA"]);
    let ranked = json(&[
        "table",
        MANIFEST,
        "--format",
        "json",
        "--baseline",
        "sysA",
        "--rank-by",
        "uas",
    ]);
    let order = |r: &Value| -> Vec<u64> {
        let rows = r["sections"][0]["rows"].as_array().unwrap();
        rows.iter()
            .map(|row| row["system"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(order(&plain), [0, 1]);
    assert_eq!(order(&ranked), [1, 0]);
    // the same cells, in another order
    let mut a = cells(&plain);
    let mut b = cells(&ranked);
    a.sort_by(|x, y| x.partial_cmp(y).unwrap());
    b.sort_by(|x, y| x.partial_cmp(y).unwrap());
    assert_eq!(a, b);
    let title = ranked["sections"][0]["title"].as_str().unwrap();
    assert!(
        title.ends_with("; systems ranked by mean UAS over the treebanks, best first"),
        "{title}"
    );
    let line = "Ranked by mean UAS over the 3 treebanks (each weighing the same, as macro-avg), best first, ties in the table's order: 1. sysB 92.66, 2. sysA 87.90";
    assert!(
        ranked["notes"].to_string().contains(line),
        "{}",
        ranked["notes"]
    );
    for format in ["text", "markdown", "html", "latex", "csv"] {
        let out = stdout_ok(&[
            "table",
            MANIFEST,
            "--format",
            format,
            "--rank-by",
            "UAS",
            "-q",
        ]);
        // without the inputs (each on a line with its path, in the manifest's order)
        let body: Vec<&str> = out.lines().filter(|l| !l.contains("testdata/")).collect();
        let body = body.join("\n");
        let sysb = body.find("sysB").unwrap();
        let sysa = body.find("sysA").unwrap();
        assert!(sysb < sysa, "{format}: sysB ranked first\n{out}");
        if format != "csv" {
            assert!(
                out.contains("1. sysB 92.66, 2. sysA 87.90"),
                "{format}:\n{out}"
            );
        }
    }
    // ranked by the cell's own measure: its macro-avg order
    let las = json(&["table", MANIFEST, "--format", "json", "--rank-by", "LAS"]);
    assert_eq!(order(&las), [1, 0]);
    let o = treeval(&["table", MANIFEST, "--rank-by", "nothing"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("--rank-by nothing: treeval deps has no such measure"));
}

#[test]
fn ci_gives_every_treebank_cell_an_interval_in_json_and_text() {
    let r = json(&[
        "table",
        MANIFEST,
        "--format",
        "json",
        "--ci",
        "95",
        "--ci-samples",
        "500",
    ]);
    assert_eq!(r["significance"]["ci_level"], 0.95);
    assert_eq!(r["significance"]["ci_samples"], 500);
    assert!(r["signature"]
        .as_str()
        .unwrap()
        .contains("|ci:95|ci-samples:500"));
    for row in r["sections"][0]["rows"].as_array().unwrap() {
        let cells = row["cells"].as_array().unwrap();
        for c in &cells[..3] {
            let v = c["value"].as_f64().unwrap();
            let ci = c["ci"]
                .as_array()
                .unwrap_or_else(|| panic!("no interval: {c}"));
            let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
            assert!(lo <= v && v <= hi, "{c}");
        }
        // the macro average has none, and a note says why
        assert!(cells[3].get("ci").is_none(), "{}", cells[3]);
    }
    assert!(r["notes"].to_string().contains("macro-avg has no interval"));
    // a cell's interval is the one `treeval deps --ci` gives the same files
    let deps: Value = serde_json::from_str(&stdout_ok(&[
        "deps",
        "examples/gold.conllu",
        "examples/sys.conllu",
        "examples/sys2.conllu",
        "--ci",
        "95",
        "--ci-samples",
        "500",
        "--test-metrics",
        "LAS",
        "--format",
        "json",
        "-q",
    ]))
    .unwrap();
    assert_eq!(
        r["sections"][0]["rows"][0]["cells"][0]["ci"],
        deps["sections"][0]["rows"][0]["cells"][0]["ci"]
    );
    let text = stdout_ok(&["table", MANIFEST, "--ci", "95", "--ci-samples", "500", "-q"]);
    assert!(
        text.contains("95% bootstrap confidence intervals (500 samples, seed 12345, percentile)"),
        "{text}"
    );
    assert!(text.contains("[66.67, 100.00]"), "{text}");
    // from saved reports: the report's interval; none (n/a, and why) from a report without
    let (dir, _) = saved_reports("ci", &["--ci", "95", "--ci-samples", "500"]);
    let named = reports_manifest(&dir);
    let saved = json(&["table", &named, "--format", "json", "--ci", "95"]);
    assert_eq!(saved["sections"][0]["rows"], r["sections"][0]["rows"]);
    let other = json(&["table", &named, "--format", "json", "--ci", "90"]);
    let notes = other["notes"].to_string();
    assert!(
        notes.contains("sysA on examples has no interval: its report"),
        "{notes}"
    );
    assert!(notes.contains("has 95% intervals, not 90%"), "{notes}");
    assert!(other["sections"][0]["rows"][0]["cells"][0]
        .get("ci")
        .is_none());
    let (plain_dir, _) = saved_reports("noci", &[]);
    let named = reports_manifest(&plain_dir);
    let none = json(&["table", &named, "--format", "json", "--ci", "95"]);
    assert!(
        none["notes"].to_string().contains("was made without --ci"),
        "{}",
        none["notes"]
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&plain_dir);
}

#[test]
fn latex_ends_with_a_legend_that_renders() {
    let tex = stdout_ok(&[
        "table",
        MANIFEST,
        "--format",
        "latex",
        "--baseline",
        "sysA",
        "--rank-by",
        "UAS",
        "-q",
    ]);
    let end = tex.find("\\end{tabular}").unwrap();
    let legend = tex[end..].lines().nth(1).unwrap();
    assert_eq!(
        legend,
        "\\par\\smallskip{\\footnotesize Ranked by mean UAS over the 3 treebanks (each weighing the same, as macro-avg), best first, ties in the table's order: 1. sysB 92.66, 2. sysA 87.90.\\par $^\\dagger$ significantly different from the baseline sysA (approximate randomization, 10000 shuffles, exact where at most 16 sentences differ, seed 12345, two-sided), $\\alpha$ = 0.05 on p-values Holm–Bonferroni adjusted over each system's treebanks.\\par}"
    );
    // the legend is not repeated as a comment; the per-system lines stay comments
    assert!(!tex.contains("% † significantly"), "{tex}");
    assert!(tex.contains("% sysB: "), "{tex}");
    // every other format states the same legend as a note
    let legend_note = "† significantly different from the baseline sysA (approximate randomization, 10000 shuffles, exact where at most 16 sentences differ, seed 12345, two-sided), α = 0.05 on p-values Holm–Bonferroni adjusted over each system's treebanks";
    for format in ["text", "markdown", "html", "json"] {
        let out = stdout_ok(&[
            "table",
            MANIFEST,
            "--format",
            format,
            "--baseline",
            "sysA",
            "-q",
        ]);
        let mut out = out.replace("&#39;", "'");
        if format == "text" {
            // notes are wrapped at 100 columns, at spaces, and indented
            out = out.split_whitespace().collect::<Vec<_>>().join(" ");
        }
        assert!(out.contains(legend_note), "{format}:\n{out}");
    }
}

#[test]
fn manifest_problems_are_all_reported_with_their_lines() {
    let dir = std::env::temp_dir().join(format!("treeval-table-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gold = root().join("examples/gold.conllu");
    let sys = root().join("examples/sys.conllu");
    let (g, s) = (gold.display(), sys.display());
    let text = format!(
        "treebank\tgold\tsystem\tfile\n# a comment\nx\tmissing.conllu\ta\t{s}\nonly two\tfields\nz\t{g}\ta\t{s}\nz\t{g}\ta\t{s}\n"
    );
    let m = dir.join("bad.tsv");
    std::fs::write(&m, text).unwrap();
    let o = treeval(&["table", m.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    for want in [
        "bad.tsv:3: gold file 'missing.conllu' not found",
        "bad.tsv:4: expected 4 or 5 tab-separated fields",
        "bad.tsv:6: system a appears twice for treebank z",
        "hint:",
    ] {
        assert!(err.contains(want), "{want} in\n{err}");
    }
    std::fs::write(&m, "tb\tgold\n").unwrap();
    let o = treeval(&["table", m.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.tsv:1: expected the header"));
    let o = treeval(&["table", MANIFEST, "--baseline", "nobody"]);
    assert_eq!(o.status.code(), Some(2));
    let o = treeval(&["table", MANIFEST, "--measure", "nothing"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// ../shared/data (beside the repository), or None, said loudly (as tests/shared_data.rs).
fn data_dir() -> Option<std::path::PathBuf> {
    let dir = match std::env::var_os("TREEVAL_SHARED_DATA") {
        Some(d) => std::path::PathBuf::from(d),
        None => root().join("../shared/data"),
    };
    if dir.join("peer/conll18").is_dir() && dir.join("nbest").is_dir() {
        return Some(dir);
    }
    let msg = format!(
        "\n!! shared data NOT FOUND at {}: the real-data table test did NOT run\n",
        dir.display()
    );
    if std::env::var("TREEVAL_REQUIRE_SHARED_DATA").as_deref() == Ok("1") {
        panic!("{msg}");
    }
    use std::io::Write;
    let _ = std::io::stderr().write_all(msg.as_bytes());
    None
}

#[test]
fn the_shared_data_manifest_makes_a_table_of_real_parsers() {
    if data_dir().is_none() || std::env::var_os("TREEVAL_SHARED_DATA").is_some() {
        // the manifest's paths point to ../shared/data beside the repository
        return;
    }
    let r = json(&[
        "table",
        "testdata/table/shared-manifest.tsv",
        "--command",
        "ud",
        "--baseline",
        "Uppsala-18",
        "--samples",
        "500",
        "--format",
        "json",
        "-q",
    ]);
    let s = &r["sections"][0];
    assert_eq!(
        s["columns"],
        serde_json::json!([
            "fr_sequoia",
            "br_keb",
            "pt_bosque",
            "fr_sequoia-dev",
            "macro-avg"
        ])
    );
    assert_eq!(s["rows"].as_array().unwrap().len(), 8);
    let cell = |system: &str, column: &str| {
        cells(&r)
            .into_iter()
            .find(|(s, c, _)| s == system && c == column)
            .and_then(|(_, _, v)| v)
    };
    // spaCy fr_sm on Sequoia dev: 7,927 of 9,999 words (gold words: F1 = accuracy)
    let sm = cell("spacy-fr_sm", "fr_sequoia-dev").unwrap();
    assert!((sm - 7927.0 / 9999.0).abs() < 1e-12, "{sm}");
    // no system has every treebank: no macro average, and notes say why
    assert_eq!(cell("Uppsala-18", "macro-avg"), None);
    assert!(cell("Uppsala-18", "fr_sequoia").is_some());
    // tested where the baseline is: fr_sequoia (2 systems) and br_keb (2)
    assert_eq!(r["comparisons"].as_array().unwrap().len(), 4);
}

#[test]
fn latex_compiles_with_booktabs_when_pdflatex_is_there() {
    let found = std::process::Command::new("kpsewhich")
        .arg("booktabs.sty")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("!! pdflatex or booktabs.sty not found: the LaTeX table was not compiled");
        return;
    }
    let tex = stdout_ok(&["table", MANIFEST, "--format", "latex", "--baseline", "sysA"]);
    let dir = std::env::temp_dir().join(format!("treeval-table-tex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let doc = format!(
        "\\documentclass{{article}}\n\\usepackage{{booktabs}}\n\\begin{{document}}\n{tex}\\end{{document}}\n"
    );
    std::fs::write(dir.join("t.tex"), doc).unwrap();
    let o = std::process::Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error", "t.tex"])
        .current_dir(&dir)
        .output()
        .expect("run pdflatex");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    assert!(dir.join("t.pdf").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The rank-1 candidates of an n-best file (`# rank = 1` blocks), written to `out`: the
/// parser's own first choice, a system output like any other.
fn write_rank_one(nbest: &std::path::Path, out: &std::path::Path) {
    use std::io::Read;
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(nbest).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let mut kept = String::new();
    for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
        if block.lines().any(|l| l == "# rank = 1") {
            kept.push_str(block.trim_start_matches('\n'));
            kept.push_str("\n\n");
        }
    }
    std::fs::write(out, kept).unwrap();
}

/// LAS counts (greedy, rank 1) of an n-best summary in ../shared/data/nbest/expected,
/// computed there by an independent scorer.
fn expected_las(data: &std::path::Path, stem: &str, variant: &str) -> (u64, u64, u64) {
    let path = data.join(format!(
        "nbest/expected/{stem}.nbest-{variant}.summary.json"
    ));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let las = &v["las"];
    (
        las["greedy"].as_u64().unwrap(),
        las["first"].as_u64().unwrap(),
        v["words"].as_u64().unwrap(),
    )
}

/// Three treebanks × three real parser outputs, every cell filled: spaCy's greedy parse,
/// the first candidate of its own beam search and of a locally normalised beam (the
/// n-best lists of ../shared/data/nbest).
#[test]
fn three_treebanks_by_three_real_parsers_make_a_full_table() {
    let Some(data) = data_dir() else { return };
    let dir = std::env::temp_dir().join(format!("treeval-table-real-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let treebanks = [
        (
            "fr_sequoia-dev",
            "UD_French-Sequoia/fr_sequoia-ud-dev.conllu",
            "fr_sequoia-dev.fr_sm",
            "",
        ),
        (
            "en_ewt-dev",
            "UD_English-EWT/en_ewt-ud-dev.conllu",
            "en_ewt-dev.en_sm",
            "",
        ),
        (
            "en_ewt-train",
            "UD_English-EWT/en_ewt-ud-train.conllu",
            "en_ewt-train.en_sm",
            ".gz",
        ),
    ];
    let mut manifest = String::from("treebank\tgold\tsystem\tfile\n");
    for (name, gold, stem, gz) in treebanks {
        let gold = data.join("ud").join(gold);
        let greedy = data.join(format!("nbest/{stem}.greedy.conllu{gz}"));
        let line = |sys: &str, file: &std::path::Path| {
            format!("{name}\t{}\t{sys}\t{}\n", gold.display(), file.display())
        };
        manifest.push_str(&line("greedy", &greedy));
        for variant in ["spacybeam", "localprob"] {
            let top = dir.join(format!("{stem}.{variant}.top.conllu"));
            write_rank_one(
                &data.join(format!("nbest/{stem}.nbest-{variant}.conllu.gz")),
                &top,
            );
            manifest.push_str(&line(&format!("{variant}-top"), &top));
        }
    }
    let path = dir.join("manifest.tsv");
    std::fs::write(&path, manifest).unwrap();
    let m = path.to_str().unwrap();
    let common = [
        "--baseline",
        "greedy",
        "--test",
        "ar",
        "--samples",
        "1000",
        "-q",
    ];
    let j = json(&[&["table", m, "--format", "json"][..], &common].concat());
    let s = &j["sections"][0];
    assert_eq!(
        s["columns"],
        serde_json::json!(["fr_sequoia-dev", "en_ewt-dev", "en_ewt-train", "macro-avg"])
    );
    // every cell's counts are the independent scorer's (punctuation included, full labels)
    let sys_names = ["greedy", "spacybeam-top", "localprob-top"];
    let rows = s["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for row in rows {
        let sys = sys_names[row["system"].as_u64().unwrap() as usize];
        let cells = row["cells"].as_array().unwrap();
        for (k, (_, _, stem, _)) in treebanks.iter().enumerate() {
            let (greedy, spacybeam_first, words) = expected_las(&data, stem, "spacybeam");
            let (_, localprob_first, _) = expected_las(&data, stem, "localprob");
            let want = match sys {
                "greedy" => greedy,
                "spacybeam-top" => spacybeam_first,
                _ => localprob_first,
            };
            assert_eq!(
                cells[k]["counts"],
                serde_json::json!([want, words]),
                "{sys} {stem}"
            );
        }
        // macro-avg = the mean of the three cells
        let v: Vec<f64> = cells.iter().map(|c| c["value"].as_f64().unwrap()).collect();
        assert!(
            (v[3] - (v[0] + v[1] + v[2]) / 3.0).abs() < 1e-12,
            "{sys}: {v:?}"
        );
    }
    // two systems tested against the baseline on three treebanks, Holm across treebanks
    let cmp = j["comparisons"].as_array().unwrap();
    assert_eq!(cmp.len(), 6);
    for other in 1..3 {
        let mine: Vec<&Value> = cmp
            .iter()
            .filter(|c| c["b"] == other || c["a"] == other)
            .collect();
        assert_eq!(mine.len(), 3, "{cmp:?}");
        let raw: Vec<f64> = mine
            .iter()
            .map(|c| c["p_value"].as_f64().unwrap())
            .collect();
        for (c, adj) in mine.iter().zip(treeval_stats_holm(&raw)) {
            assert!((c["p_adjusted"].as_f64().unwrap() - adj).abs() < 1e-12);
        }
    }
    // CSV round-trips to the JSON numbers
    let csv = stdout_ok(&[&["table", m, "--format", "csv"][..], &common].concat());
    let from_csv = csv_cells(&csv);
    assert_eq!(from_csv, cells(&j));
    // LaTeX: booktabs, a row per system, the columns of the table
    let tex = stdout_ok(&[&["table", m, "--format", "latex"][..], &common].concat());
    assert!(tex.contains("\\begin{tabular}{lrrrr}"), "{tex}");
    for s in [
        "\\toprule",
        "\\midrule",
        "\\bottomrule",
        "greedy &",
        "spacybeam-top &",
    ] {
        assert!(tex.contains(s), "{s}\n{tex}");
    }
    compile_latex(&tex, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Compile a table in a minimal document with pdflatex, when pdflatex and booktabs are
/// installed (said on stderr when they are not).
fn compile_latex(tex: &str, dir: &std::path::Path) {
    let found = std::process::Command::new("kpsewhich")
        .arg("booktabs.sty")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("!! pdflatex or booktabs.sty not found: the LaTeX table was not compiled");
        return;
    }
    let doc = format!(
        "\\documentclass{{article}}\n\\usepackage{{booktabs}}\n\\begin{{document}}\n{tex}\\end{{document}}\n"
    );
    std::fs::write(dir.join("t.tex"), doc).unwrap();
    let o = std::process::Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error", "t.tex"])
        .current_dir(dir)
        .output()
        .expect("run pdflatex");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    assert!(dir.join("t.pdf").is_file());
}
