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
