//! `table` and `rerank` as a Rust user calls them: a manifest in memory equals the same
//! manifest on disk, real parsers' cells equal an independent scorer's counts, a
//! manifest's options are typed options (refused with the manifest's `path:line`), and
//! a reranker trained then applied, from files and from memory.

use treeval::{rerank, table, Common, Input};

fn root(name: &str) -> String {
    format!("{}/../../{name}", env!("CARGO_MANIFEST_DIR"))
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("treeval-lib-tablerr-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// ../shared/data beside the repository, or None, said loudly (a failure with
/// TREEVAL_REQUIRE_SHARED_DATA=1).
fn shared_data() -> Option<std::path::PathBuf> {
    let dir = match std::env::var_os("TREEVAL_SHARED_DATA") {
        Some(d) => std::path::PathBuf::from(d),
        None => std::path::PathBuf::from(root("../shared/data")),
    };
    if dir.join("nbest/expected").is_dir() && dir.join("ud").is_dir() {
        return Some(dir);
    }
    let msg = format!(
        "\n!! shared data NOT FOUND at {}: the real-data test did NOT run\n",
        dir.display()
    );
    assert!(
        std::env::var("TREEVAL_REQUIRE_SHARED_DATA").as_deref() != Ok("1"),
        "{msg}"
    );
    eprintln!("{msg}");
    None
}

/// A manifest of the repository's examples and table fixtures, with absolute paths.
fn manifest() -> String {
    let mut m = String::from("treebank\tgold\tsystem\tfile\toptions\n");
    for (tb, gold, a, b, opts) in [
        (
            "examples",
            "examples/gold.conllu",
            "examples/sys.conllu",
            "examples/sys2.conllu",
            "",
        ),
        (
            "news",
            "testdata/table/news-gold.conllu",
            "testdata/table/news-a.conllu",
            "testdata/table/news-b.conllu",
            "--labels universal --by deprel --confusion",
        ),
    ] {
        for (sys, file) in [("sysA", a), ("sysB", b)] {
            m.push_str(&format!(
                "{tb}\t{}\t{sys}\t{}\t{opts}\n",
                root(gold),
                root(file)
            ));
        }
    }
    m
}

fn json(ev: &treeval::Evaluation) -> String {
    treeval_report::emit::to_string(
        &ev.report,
        treeval_report::render::OutputFormat::Json,
        Default::default(),
    )
}

#[test]
fn a_manifest_in_memory_equals_the_manifest_on_disk() {
    let path = tmp("manifest.tsv");
    std::fs::write(&path, manifest()).unwrap();
    let options = table::Options {
        baseline: Some("sysA".into()),
        ..table::Options::default()
    };
    let common = Common {
        samples: Some(500),
        ..Common::default()
    };
    let disk = table::evaluate(&options, &[Input::from(path.as_path())], &common).unwrap();
    let memory = Input::memory("<manifest>", manifest().into_bytes());
    let mem = table::evaluate(&options, &[memory], &common).unwrap();
    assert_eq!(json(&disk), json(&mem));
    let cell = disk.report.cell("examples", 0).expect("sysA on examples");
    // examples/sys.conllu: 16 of 21 words right (as `treeval deps` says)
    assert_eq!(cell.counts, vec![16.0, 21.0]);
    // news is scored with universal labels, as its options column says
    let news = disk.report.cell("news", 0).unwrap();
    let plain = table::evaluate(
        &table::Options::default(),
        &[Input::memory(
            "<m>",
            manifest().replace("--labels universal ", "").into_bytes(),
        )],
        &Common::default(),
    )
    .unwrap();
    assert!(news.value >= plain.report.cell("news", 0).unwrap().value);
    assert_eq!(
        disk.report.comparisons.len(),
        2,
        "sysB against sysA on both"
    );
}

#[test]
fn a_manifests_options_are_checked_with_its_line() {
    let bad = manifest().replace("--labels universal", "--labels nope");
    let e = table::evaluate(
        &table::Options::default(),
        &[Input::memory("<m>", bad.into_bytes())],
        &Common::default(),
    )
    .unwrap_err();
    assert!(matches!(e, treeval::Error::Eval(_)), "{e:?}");
    let m = e.message();
    assert!(
        m.starts_with("<m>:4: treebank news: labels: unknown variant `nope`"),
        "{m}"
    );
    assert!(
        m.contains("hint: the options column takes options of `treeval deps`"),
        "{m}"
    );
    for (opts, want) in [
        (
            "--bogus",
            "--bogus: not an option of a treebank; expected one of --by, --compat",
        ),
        ("--compat eval07", "--compat is not an option of a manifest"),
        (
            "--test-metrics UAS",
            "--test-metrics is not an option of a manifest",
        ),
        ("--punct", "--punct: expected a value, found none"),
    ] {
        let text = manifest().replace("--labels universal --by deprel --confusion", opts);
        let e = table::evaluate(
            &table::Options::default(),
            &[Input::memory("<m>", text.into_bytes())],
            &Common::default(),
        )
        .unwrap_err();
        // --compat is never offered: the list names what a manifest takes
        let m = e.message().replace("--by, --compat", "--by, --confusion");
        let want = want.replace("--by, --compat", "--by, --confusion");
        assert!(
            m.contains(&want) && m.starts_with("<m>:4: treebank news: "),
            "{m}"
        );
    }
    // the table's own refusals are usage errors
    let one_sided = Common {
        one_sided: true,
        ..Common::default()
    };
    let e = table::evaluate(
        &table::Options::default(),
        &[Input::memory("<m>", manifest().into_bytes())],
        &one_sided,
    )
    .unwrap_err();
    assert!(matches!(e, treeval::Error::Usage(_)), "{e:?}");
    // a saved report without a manifest names no treebank and no system: refused
    let report = r#"{"command": "deps", "inputs": [], "systems": []}"#;
    let e = table::evaluate(
        &table::Options::default(),
        &[Input::memory("<report>", report.as_bytes().to_vec())],
        &Common::default(),
    )
    .unwrap_err();
    assert!(matches!(e, treeval::Error::Usage(_)), "{e:?}");
    assert!(
        e.message().contains("    TREEBANK\t<report>\tSYSTEM"),
        "{}",
        e.message()
    );
}

#[test]
fn real_parsers_cells_equal_the_independent_scorer() {
    let Some(data) = shared_data() else { return };
    let gold = data.join("ud/UD_French-Sequoia/fr_sequoia-ud-dev.conllu");
    let greedy = data.join("nbest/fr_sequoia-dev.fr_sm.greedy.conllu");
    let md = data.join("nbest/fr_sequoia-dev.fr_md.greedy.conllu");
    let text = format!(
        "treebank\tgold\tsystem\tfile\nsequoia\t{}\tsm\t{}\nsequoia\t{}\tmd\t{}\n",
        gold.display(),
        greedy.display(),
        gold.display(),
        md.display()
    );
    let ev = table::evaluate(
        &table::Options::default(),
        &[Input::memory("<manifest>", text.into_bytes())],
        &Common::default(),
    )
    .unwrap();
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            data.join("nbest/expected/fr_sequoia-dev.fr_sm.nbest-spacybeam.summary.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let cell = ev.report.cell("sequoia", 0).unwrap();
    assert_eq!(
        cell.counts,
        vec![
            expected["las"]["greedy"].as_f64().unwrap(),
            expected["words"].as_f64().unwrap()
        ]
    );
    assert_eq!(ev.report.system_name(1), "md");
}

#[test]
fn rerank_train_then_apply_from_files_and_from_memory() {
    let (g, n) = (
        root("testdata/rerank/gold.conllu"),
        root("testdata/rerank/nbest.conllu"),
    );
    let model = tmp("model.json");
    let options = rerank::TrainOptions {
        output: model.to_string_lossy().into_owned(),
        target: rerank::Target::Best,
        sigma2: rerank::Sigma2::Value(10.0),
        ..rerank::TrainOptions::default()
    };
    let ev = rerank::train(
        &options,
        &[Input::from(g.as_str()), Input::from(n.as_str())],
    )
    .unwrap();
    assert_eq!(ev.report.command, "rerank-train");
    assert!(
        ev.report.signature.0.contains("|target:best|"),
        "{}",
        ev.report.signature.0
    );
    let written = std::fs::read_to_string(&model).unwrap();
    assert!(written.starts_with("{\"schema\":\"treeval.rerank-model/1\""));
    let (chosen, warnings) =
        rerank::apply(&Input::from(model.as_path()), &Input::from(n.as_str())).unwrap();
    assert!(warnings.is_empty());
    // s1 and s2 take rank 2, s3 rank 1 (testdata/rerank/README.md)
    let ranks: Vec<&str> = chosen
        .lines()
        .filter_map(|l| l.strip_prefix("# rerank_rank = "))
        .collect();
    assert_eq!(ranks, ["2", "2", "1"]);
    // in memory: the same model and the same choice
    let model2 = tmp("model2.json");
    let in_memory = rerank::TrainOptions {
        output: model2.to_string_lossy().into_owned(),
        ..options.clone()
    };
    let read = |p: &str| std::fs::read(p).unwrap();
    let files = [
        Input::memory("<gold>", read(&g)),
        Input::memory("<nbest>", read(&n)),
    ];
    rerank::train(&in_memory, &files).unwrap();
    let again = rerank::apply(
        &Input::memory("<model>", written.clone().into_bytes()),
        &Input::memory("<nbest>", read(&n)),
    )
    .unwrap();
    assert_eq!(again.0, chosen);
    // usage errors: odd files, --beta without sharp, an unknown feature group
    let odd = rerank::train(&options, &[Input::from(g.as_str())]).unwrap_err();
    assert!(odd
        .message()
        .contains("expected GOLD NBEST pairs, found 1 files"));
    let beta = rerank::TrainOptions {
        beta: Some(1.0),
        ..options.clone()
    };
    assert!(matches!(beta.check(), Err(treeval::Error::Usage(_))));
    let features = rerank::TrainOptions {
        features: vec!["bogus".into()],
        ..options.clone()
    };
    assert!(features
        .check()
        .unwrap_err()
        .message()
        .contains("found 'bogus'"));
}

#[test]
fn sigma2_reads_cv_and_numbers() {
    let o: rerank::TrainOptions =
        serde_json::from_str(r#"{"sigma2": "cv", "target": "sharp", "beta": 0.3}"#).unwrap();
    assert_eq!(o.sigma2, rerank::Sigma2::Cv);
    let o: rerank::TrainOptions = serde_json::from_str(r#"{"sigma2": 2.5}"#).unwrap();
    assert_eq!(o.sigma2, rerank::Sigma2::Value(2.5));
    assert!(serde_json::from_str::<rerank::TrainOptions>(r#"{"sigma2": -1}"#).is_err());
    assert!(serde_json::from_str::<rerank::TrainOptions>(r#"{"bogus": 1}"#).is_err());
}
