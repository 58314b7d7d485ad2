//! Random corpora for the property tests of sharded evaluation (tests/merge.rs,
//! tests/merge_ted_pts.rs), and the reports' comparison.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::Value;

use super::{stderr, treeval_in};

/// A fresh scratch folder for `name`, its own in this process (the property tests run in
/// parallel).
pub fn scratch(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("treeval-merge-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Standard output of `treeval args` in `dir`, which must succeed.
pub fn run_json(dir: &Path, args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = treeval_in(dir, &args);
    assert!(o.status.success(), "treeval {args:?}: {}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

/// Run the command line `line` (words split at spaces) in `dir`: its exit code and
/// standard error.
pub fn fails(dir: &Path, line: &str) -> (i32, String) {
    let w = words(line);
    let o = treeval_in(dir, &w.iter().map(String::as_str).collect::<Vec<_>>());
    (o.status.code().unwrap_or(-1), stderr(&o))
}

/// The report of `treeval args` in `dir`, or its stderr when it fails with exit code 1
/// (any other exit fails the test).
pub fn run(dir: &Path, args: &[String]) -> Result<String, String> {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = treeval_in(dir, &a);
    match o.status.code() {
        Some(0) => Ok(String::from_utf8(o.stdout).unwrap()),
        Some(1) => Err(stderr(&o)),
        c => panic!("treeval {args:?}: exit {c:?}: {}", stderr(&o)),
    }
}

/// Column `k` of `sentences` (the corpus's from `first` on), each with its corpus-wide
/// `# sent_id = sN` (a sentence's number restarts in each shard; its id does not).
pub fn conllu(sentences: &[Triple], k: usize, first: usize) -> String {
    (sentences.iter().enumerate())
        .map(|(i, t)| format!("# sent_id = s{}\n{}\n", first + i, t.0[k]))
        .collect()
}

/// The words of a line.
pub fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

/// One random sentence: (gold, system A, system B) CoNLL-U blocks of the same words.
#[derive(Debug, Clone)]
pub struct Triple(pub [String; 3]);

pub const LABELS: &[&str] = &[
    "nsubj",
    "obj",
    "det",
    "amod",
    "case",
    "punct",
    "nmod:poss",
    "obl",
];
pub const UPOS: &[&str] = &["NOUN", "VERB", "DET", "ADJ", "PUNCT"];

/// A valid tree over `n` words: `order` gives the order words are attached in (the first
/// is the root), `picks[i]` picks the head among the words attached before.
pub fn tree(order: &[usize], picks: &[usize]) -> Vec<usize> {
    let mut heads = vec![0; order.len()];
    for (i, &w) in order.iter().enumerate().skip(1) {
        heads[w] = order[picks[i] % i] + 1;
    }
    heads
}

pub fn block(forms: &[(usize, usize)], heads: &[usize], labels: &[String]) -> String {
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
pub fn system(
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

pub fn sentence() -> impl Strategy<Value = Triple> {
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

/// A random sentence selection: `--min-len`, `--max-len` and `--sent-id` (a regular
/// expression, or a file of ids: the listed sentence numbers and an id no sentence has),
/// over sentences whose ids are `s0`, `s1`, … in corpus order.
#[derive(Debug, Clone)]
pub struct Select {
    min: Option<u64>,
    max: Option<u64>,
    regex: Option<&'static str>,
    file: Option<Vec<usize>>,
}

pub fn selection() -> impl Strategy<Value = Select> {
    let ids = proptest::option::of(proptest::collection::vec(0usize..14, 0..8));
    let regex = proptest::option::of(proptest::sample::select(vec![
        "s[0-9]*[02468]",
        "s1.*",
        "s[2-6]",
    ]));
    (
        proptest::option::of(1u64..4),
        proptest::option::of(4u64..8),
        regex,
        ids,
    )
        .prop_map(|(min, max, regex, file)| Select {
            min,
            max,
            // one --sent-id: the file when both are drawn
            regex: regex.filter(|_| file.is_none()),
            file,
        })
}

impl Select {
    /// The options (the id file written into `dir`).
    pub fn args(&self, dir: &Path) -> String {
        let mut s = String::new();
        if let Some(n) = self.min {
            s.push_str(&format!(" --min-len {n}"));
        }
        if let Some(n) = self.max {
            s.push_str(&format!(" --max-len {n}"));
        }
        if let Some(r) = self.regex {
            s.push_str(&format!(" --sent-id {r}"));
        }
        if let Some(ids) = &self.file {
            let text: String = ids.iter().map(|i| format!("s{i}\n")).collect();
            std::fs::write(dir.join("ids.txt"), text + "nowhere\n").unwrap();
            s.push_str(" --sent-id ids.txt");
        }
        s
    }
}

/// The report with each file's name replaced by its role, and without the merge's own
/// signature part and convention.
pub fn normalised(json: &str, names: &[(String, &str)]) -> Value {
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

/// The reason in the error of a run that scores nothing (`nothing is scored: …`), up to
/// the first file it names (the merge names the shards' files joined by ` + `): a
/// selection's from `kept none of the` on, any other up to ` of ` (`--where … matched
/// none of the 5 words of a.conllu …`: up to the first ` of `).
pub fn nothing_reason(err: &str) -> String {
    assert!(err.contains("error: nothing is scored: "), "{err}");
    match err.split_once("kept none of the") {
        Some((_, tail)) => tail.to_owned(),
        None => {
            let at = err.find("nothing is scored: ").unwrap_or(0);
            err[at..].split(" of ").next().unwrap_or("").to_owned()
        }
    }
}
