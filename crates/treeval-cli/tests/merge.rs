//! Sharded evaluation: `deps --emit-state` on every shard, then `treeval merge`, must give
//! the report of one run on the concatenated files (a property over random corpora and
//! random splits), and the states that cannot merge must be refused.

mod common;

use std::path::{Path, PathBuf};

use common::{stderr, treeval_in};
use proptest::prelude::*;
use serde_json::Value;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("treeval-merge-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// One random sentence: (gold, system A, system B) CoNLL-U blocks of the same words.
#[derive(Debug, Clone)]
struct Triple([String; 3]);

const LABELS: &[&str] = &[
    "nsubj",
    "obj",
    "det",
    "amod",
    "case",
    "punct",
    "nmod:poss",
    "obl",
];
const UPOS: &[&str] = &["NOUN", "VERB", "DET", "ADJ", "PUNCT"];

/// A valid tree over `n` words: `order` gives the order words are attached in (the first
/// is the root), `picks[i]` picks the head among the words attached before.
fn tree(order: &[usize], picks: &[usize]) -> Vec<usize> {
    let mut heads = vec![0; order.len()];
    for (i, &w) in order.iter().enumerate().skip(1) {
        heads[w] = order[picks[i] % i] + 1;
    }
    heads
}

fn block(forms: &[(usize, usize)], heads: &[usize], labels: &[String]) -> String {
    let mut s = String::new();
    for (i, &(f, u)) in forms.iter().enumerate() {
        s.push_str(&format!(
            "{}\tw{f}\tw{f}\t{}\t_\t_\t{}\t{}\t_\t_\n",
            i + 1,
            UPOS[u],
            heads[i],
            labels[i]
        ));
    }
    s
}

/// A system's analysis of the gold sentence: its tree (gold's, or another one) and its
/// labels (each gold's, or another, sometimes one gold never uses).
fn system(
    gold: &[usize],
    gold_labels: &[String],
    other: Option<Vec<usize>>,
    relabel: &[(bool, usize)],
) -> (Vec<usize>, Vec<String>) {
    let heads = other.unwrap_or_else(|| gold.to_vec());
    let labels = heads
        .iter()
        .zip(gold_labels)
        .zip(relabel)
        .map(|((&h, g), &(change, l))| match (h, change) {
            (0, _) => "root".to_owned(),
            (_, true) if l == LABELS.len() => "xcomp".to_owned(),
            (_, true) => LABELS[l % LABELS.len()].to_owned(),
            _ => g.clone(),
        })
        .collect();
    (heads, labels)
}

fn sentence() -> impl Strategy<Value = Triple> {
    (1usize..8)
        .prop_flat_map(|n| {
            let perm = Just((0..n).collect::<Vec<_>>()).prop_shuffle();
            let picks = proptest::collection::vec(0usize..8, n);
            let words = proptest::collection::vec((0usize..30, 0usize..UPOS.len()), n);
            let labels = proptest::collection::vec(0usize..LABELS.len(), n);
            let sys = proptest::collection::vec(
                (
                    proptest::option::of((
                        Just((0..n).collect::<Vec<_>>()).prop_shuffle(),
                        proptest::collection::vec(0usize..8, n),
                    )),
                    proptest::collection::vec(
                        (proptest::bool::weighted(0.3), 0usize..=LABELS.len()),
                        n,
                    ),
                ),
                2,
            );
            (perm, picks, words, labels, sys)
        })
        .prop_map(|(perm, picks, words, labels, sys)| {
            let heads = tree(&perm, &picks);
            let gl: Vec<String> = heads
                .iter()
                .zip(&labels)
                .map(|(&h, &l)| {
                    if h == 0 {
                        "root".into()
                    } else {
                        LABELS[l].into()
                    }
                })
                .collect();
            let mut out = [block(&words, &heads, &gl), String::new(), String::new()];
            for (k, (other, relabel)) in sys.into_iter().enumerate() {
                let other = other.map(|(o, p)| tree(&o, &p));
                let (h, l) = system(&heads, &gl, other, &relabel);
                out[k + 1] = block(&words, &h, &l);
            }
            Triple(out)
        })
}

/// The options of a case: those of the evaluation (shards and the single run) and those
/// of the merge (how to show the merged sums).
const CASES: &[(&str, &str)] = &[
    (
        "--by deprel,distance,length --per-relation --confusion=5",
        "--per-relation --confusion=5",
    ),
    (
        "--punct deprel=punct --by upos,direction,depth --where gold.upos=NOUN|VERB",
        "",
    ),
    (
        "--test ar --ci 95 --samples 300 --seed 7 --by deprel",
        "--test ar --ci 95 --samples 300 --seed 7",
    ),
    (
        "--test mcnemar --test bootstrap --samples 200 --labels universal",
        "--test mcnemar --test bootstrap --samples 200",
    ),
];

fn write(dir: &Path, name: &str, sentences: &[Triple], k: usize) -> String {
    let text: String = sentences.iter().map(|t| format!("{}\n", t.0[k])).collect();
    std::fs::write(dir.join(name), text).unwrap();
    name.to_owned()
}

fn run_json(dir: &Path, args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = treeval_in(dir, &args);
    assert!(o.status.success(), "treeval {args:?}: {}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

/// The report with each file's name replaced by its role, and without the merge's own
/// signature part and convention.
fn normalised(json: &str, names: &[(String, &str)]) -> Value {
    let mut text = json.to_owned();
    for (name, role) in names {
        text = text.replace(name.as_str(), role);
    }
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let sig = v["signature"].as_str().unwrap().to_owned();
    let sig = match sig.find("|merged:") {
        Some(at) => sig[..at].to_owned(),
        None => sig,
    };
    v["signature"] = Value::String(sig);
    if let Some(c) = v["conventions"].as_array_mut() {
        c.retain(|x| x["name"] != "merged");
    }
    v
}

/// Evaluate `corpus` whole and split at `cuts` (sorted, inside), and compare.
fn check_split(corpus: &[Triple], cuts: &[usize], case: usize) {
    let dir = scratch(&format!("p{case}-{}", cuts.len()));
    let (eval, show) = CASES[case];
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(corpus.len());
    let whole: Vec<String> = ["g", "a", "b"]
        .iter()
        .enumerate()
        .map(|(k, n)| write(&dir, &format!("{n}.conllu"), corpus, k))
        .collect();
    let mut args = words("deps -q --format json");
    args.extend(whole.iter().cloned());
    args.extend(words(eval));
    let single = run_json(&dir, &args);
    let mut states = Vec::new();
    let mut parts: [Vec<String>; 3] = Default::default();
    for (i, w) in bounds.windows(2).enumerate() {
        let files: Vec<String> = ["g", "a", "b"]
            .iter()
            .enumerate()
            .map(|(k, n)| write(&dir, &format!("{n}.{i}.conllu"), &corpus[w[0]..w[1]], k))
            .collect();
        for k in 0..3 {
            parts[k].push(files[k].clone());
        }
        let state = format!("state.{i}.json");
        let mut args = words("deps -q --keep-sentences --emit-state");
        args.push(state.clone());
        args.extend(files);
        args.extend(words(eval));
        run_json(&dir, &args);
        states.push(state);
    }
    let mut args = words("merge --format json");
    args.extend(states);
    args.extend(words(show));
    let merged = run_json(&dir, &args);
    let roles = ["GOLD", "SYS-A", "SYS-B"];
    let merged_names: Vec<(String, &str)> =
        (0..3).map(|k| (parts[k].join(" + "), roles[k])).collect();
    let single_names: Vec<(String, &str)> = (0..3).map(|k| (whole[k].clone(), roles[k])).collect();
    let (m, s) = (
        normalised(&merged, &merged_names),
        normalised(&single, &single_names),
    );
    for (key, value) in s.as_object().unwrap() {
        assert_eq!(
            &m[key], value,
            "case {case}, cuts {cuts:?}: `{key}` differs"
        );
    }
    assert_eq!(m.as_object().unwrap().len(), s.as_object().unwrap().len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A corpus and 0–4 cut points inside it (1–5 shards, none empty).
fn corpus_and_cuts() -> impl Strategy<Value = (Vec<Triple>, Vec<usize>)> {
    proptest::collection::vec(sentence(), 1..14).prop_flat_map(|c| {
        let n = c.len();
        let cuts = proptest::collection::btree_set(1..n.max(2), 0..5.min(n));
        (Just(c), cuts).prop_map(|(c, cuts)| {
            let n = c.len();
            (c, cuts.into_iter().filter(|&x| x < n).collect())
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn merged_shards_equal_one_run((corpus, cuts) in corpus_and_cuts(), case in 0..CASES.len()) {
        check_split(&corpus, &cuts, case);
    }
}
