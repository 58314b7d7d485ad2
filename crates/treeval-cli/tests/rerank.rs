//! `treeval rerank train` / `apply`: train → apply → `treeval deps` on the hand-made
//! data of testdata/rerank (README there), the model file's guard and schema check, and
//! the help text.

mod common;

use common::{root, stdout_ok, treeval};

const G: &str = "testdata/rerank/gold.conllu";
const N: &str = "testdata/rerank/nbest.conllu";

fn tmp(name: &str) -> String {
    let d = std::env::temp_dir().join(format!("treeval-rerank-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name).to_string_lossy().into_owned()
}

#[test]
fn train_apply_then_deps_scores_the_choice() {
    let model = tmp("m.json");
    let report = stdout_ok(&[
        "rerank", "train", G, N, "-o", &model, "--target", "best", "--sigma2", "10", "--format",
        "json",
    ]);
    let r: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(r["command"], "rerank-train");
    assert!(r["signature"].as_str().unwrap().contains("|target:best|"));
    let text = std::fs::read_to_string(&model).unwrap();
    assert!(text.starts_with("{\"schema\":\"treeval.rerank-model/1\""));
    let chosen = stdout_ok(&["rerank", "apply", &model, N]);
    // s1 and s2 take rank 2, s3 rank 1 (README): every object is `obj` again
    let ranks: Vec<&str> = chosen
        .lines()
        .filter_map(|l| l.strip_prefix("# rerank_rank = "))
        .collect();
    assert_eq!(ranks, ["2", "2", "1"]);
    assert!(!chosen.contains("# rank =") && !chosen.contains("# parser_score"));
    let out = tmp("chosen.conllu");
    std::fs::write(&out, &chosen).unwrap();
    let deps = stdout_ok(&["deps", G, &out, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&deps).unwrap();
    let las = common::cell(&v, "scores", 0, "LAS");
    assert_eq!(common::counts(las), vec![9, 9]);
    // acceptance 3: `nbest --model` reports the same choice (system 3 = chosen)
    let nb = stdout_ok(&["nbest", G, N, "--model", &model, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&nb).unwrap();
    assert_eq!(v["systems"][3]["name"], "chosen");
    let chosen = common::cell(&v, "scores", 3, "LAS");
    assert_eq!(&common::counts(chosen)[..2], &[9, 9]);
    let first = common::cell(&v, "scores", 0, "LAS");
    assert_eq!(&common::counts(first)[..2], &[7, 9]);
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .contains("|weight:rerank-model|"));
    // and without the model, chosen = the highest parser score = rank 1
    let nb = stdout_ok(&["nbest", G, N, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&nb).unwrap();
    assert_eq!(
        &common::counts(common::cell(&v, "scores", 3, "LAS"))[..2],
        &[7, 9]
    );
}

#[test]
fn model_guard_and_schema() {
    // the model may not overwrite an input
    let o = treeval(&[
        "rerank", "train", G, N, "-o", G, "--target", "best", "--sigma2", "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("would overwrite the input"));
    // pairs only
    let o = treeval(&["rerank", "train", G, N, G, "-o", &tmp("x.json")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("expected GOLD NBEST pairs, found 3 files"));
    // an unknown schema is a clear error
    let bad = tmp("bad.json");
    std::fs::write(
        &bad,
        "{\"schema\":\"treeval.rerank-model/9\",\"weights\":[]}\n",
    )
    .unwrap();
    let o = treeval(&["rerank", "apply", &bad, N]);
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        e.contains("expected a model of schema 'treeval.rerank-model/1', found schema 'treeval.rerank-model/9'"),
        "{e}"
    );
    assert!(root().join(G).exists());
}

#[test]
fn train_help() {
    insta::assert_snapshot!(stdout_ok(&["rerank", "train", "--help"]));
}

#[test]
fn train_takes_the_deps_profile_and_apply_is_quiet_with_q() {
    // --profile conllx is --punct form, as in deps and nbest: the model records it
    let model = tmp("profile.json");
    let report = stdout_ok(&[
        "rerank",
        "train",
        G,
        N,
        "-o",
        &model,
        "--target",
        "best",
        "--sigma2",
        "10",
        "--profile",
        "conllx",
        "--format",
        "json",
    ]);
    let r: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert!(
        r["signature"].as_str().unwrap().contains("|punct:form|"),
        "{}",
        r["signature"]
    );
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    assert_eq!(m["training"]["punct"], "form");
    // a doubled blank line is a reader warning: on stderr, not with -q
    let text = std::fs::read_to_string(root().join(N)).unwrap();
    let doubled = tmp("doubled.conllu");
    std::fs::write(&doubled, text.replacen("\n\n", "\n\n\n", 1)).unwrap();
    let loud = treeval(&["rerank", "apply", &model, &doubled]);
    assert!(loud.status.success());
    assert!(
        common::stderr(&loud).contains("warning:"),
        "{}",
        common::stderr(&loud)
    );
    let quiet = treeval(&["rerank", "apply", "-q", &model, &doubled]);
    assert!(quiet.status.success());
    assert_eq!(common::stderr(&quiet), "");
    assert_eq!(quiet.stdout, loud.stdout);
}

/// `--top-features N` lists the model's N strongest weights by name in every format;
/// the model keeps only weights that are not zero (round-off ones, below 1e-10 of the
/// largest, were counted as features and written); the progress bar stays off stderr
/// when it is not a terminal.
#[test]
fn top_features_name_the_strongest_weights_and_zero_weights_are_dropped() {
    let model = tmp("top.json");
    let args = |format: &'static str| {
        vec![
            "rerank",
            "train",
            G,
            N,
            "-o",
            &*model,
            "--force",
            "--target",
            "best",
            "--sigma2",
            "10",
            "--top-features",
            "3",
            "--format",
            format,
        ]
    };
    let o = treeval(&args("json"));
    assert!(o.status.success());
    // not a terminal: no progress bar, and nothing else on stderr
    assert_eq!(common::stderr(&o), "");
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let l = &r["listings"][0];
    assert_eq!(l["id"], "top-features");
    assert_eq!(
        r["systems"][l["system"].as_u64().unwrap() as usize]["name"],
        "model (best sigma2=10)"
    );
    assert_eq!(
        l["columns"],
        serde_json::json!(["rank", "feature", "weight"])
    );
    let rows = l["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let weights: Vec<f64> = rows
        .iter()
        .map(|x| x[2].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(
        weights.windows(2).all(|p| p[0].abs() >= p[1].abs()),
        "{weights:?}"
    );
    // the wrong candidates label the object `dep`, the right ones `obj` (README): the
    // strongest features are about the one or the other
    for x in rows {
        let f = x[1].as_str().unwrap();
        assert!(f.contains("obj") || f.contains("dep"), "{f}");
    }
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    let w: Vec<f64> = m["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[1].as_f64().unwrap())
        .collect();
    let largest = w.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    assert!(w.iter().all(|x| x.abs() > 1e-10 * largest), "{w:?}");
    let note = r["notes"][0].as_str().unwrap();
    assert!(
        note.contains(&format!(
            ": {} features with a weight that is not zero",
            w.len()
        )),
        "{note}"
    );
    // every format lists them
    for format in ["text", "csv", "markdown", "latex", "html"] {
        let out = stdout_ok(&args(format));
        assert!(out.contains("top-features"), "{format}");
        // the name up to its first `|` (markdown escapes the bar)
        let name = rows[0][1].as_str().unwrap().split('|').next().unwrap();
        assert!(out.contains(name), "{format}: {name}");
    }
}
