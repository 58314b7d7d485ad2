//! `treeval ted` must not hang (issue 14): chain trees in both directions are scored in
//! bounded time, and a sentence whose edit distance would exceed the cost limit is
//! refused at once, counted, and reported with the option that lifts the limit.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn treeval(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(args)
        .output()
        .expect("run treeval")
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("treeval-trust-ted-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A chain of `n` words (CoNLL-X): `forward`, word i headed by word i−1; else word i
/// headed by word i+1. `perturbed`: every 50th word relabelled, every 100th attached one
/// word further away (as scripts/bench-ted-chains.sh).
fn chain(n: usize, forward: bool, perturbed: bool) -> String {
    let mut s = String::new();
    for i in 1..=n {
        let head = if forward {
            if perturbed && i % 100 == 0 && i >= 3 {
                i - 2
            } else {
                i - 1
            }
        } else if i == n {
            0
        } else if perturbed && i % 100 == 0 && i + 2 <= n {
            i + 2
        } else {
            i + 1
        };
        let rel = if perturbed && i % 50 == 0 { "x" } else { "dep" };
        s.push_str(&format!("{i}\tw{i}\t_\tX\tX\t_\t{head}\t{rel}\t_\t_\n"));
    }
    s.push('\n');
    s
}

fn json(o: &Output) -> serde_json::Value {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

/// A 600-word chain of words each headed by the previous one took more than five minutes
/// with Zhang–Shasha's left decomposition (a 250-word one 30 s); both directions now
/// take well under a second in a release build (the limit here leaves room for debug
/// builds on a loaded machine). The figures were checked against the old implementation
/// at 125 and 250 words (same distances and scores, scripts/bench-ted-chains.sh).
#[test]
fn chains_in_both_directions_are_scored_in_bounded_time() {
    let d = dir("chains");
    for forward in [true, false] {
        let (g, p) = (d.join("gold.conllx"), d.join("parse.conllx"));
        std::fs::write(&g, chain(600, forward, false)).unwrap();
        std::fs::write(&p, chain(600, forward, true)).unwrap();
        let t = Instant::now();
        let o = treeval(&[
            "ted",
            "--format",
            "json",
            "--gold",
            g.to_str().unwrap(),
            "--parse",
            p.to_str().unwrap(),
        ]);
        assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
        let j = json(&o);
        assert_eq!(j["inputs"][1]["counts"]["sentences"]["scored"], 1, "{j}");
        // 12 relabelled words (every 50th) and 6 moved ones (every 100th): a moved word's
        // node leaves its parent's node (2 operations: delete, insert), one of them is
        // also relabelled
        let dist = common::value(&j, "scores", 0, "delta_new").unwrap() as u64;
        assert!(dist > 0 && dist <= 12 + 2 * 6 + 6, "{j}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Over `--max-cost` a sentence is refused before any table is built: counted with the
/// too-large sentences, warned about with the option value that would score it, and the
/// other sentences are scored; the value in the warning does score it.
#[test]
fn a_sentence_over_the_cost_limit_is_counted_and_named() {
    let d = dir("cost");
    let g = d.join("gold.conllx");
    let mut text = chain(40, true, false);
    text.push_str("1\ta\t_\tX\tX\t_\t0\troot\t_\t_\n\n");
    std::fs::write(&g, text).unwrap();
    let gs = g.to_str().unwrap();
    let o = treeval(&[
        "ted",
        "--format",
        "json",
        "--max-cost",
        "1000",
        "--gold",
        gs,
        "--parse",
        gs,
    ]);
    let j = json(&o);
    assert_eq!(j["inputs"][1]["counts"]["sentences"]["too_large"], 1, "{j}");
    assert_eq!(j["inputs"][1]["counts"]["sentences"]["scored"], 1, "{j}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("expected an edit distance of at most 1000 table cells (--max-cost), found trees of 120 and 120 nodes whose edit distance needs "),
        "{err}"
    );
    assert!(err.contains("the sentence is not scored"), "{err}");
    // the hint names a value that scores it (an upper bound: the exact count is not
    // computed for a refusal decided from the trees' sizes)
    let hint = err
        .split("hint: --max-cost ")
        .nth(1)
        .and_then(|x| x.split_whitespace().next())
        .and_then(|x| x.parse::<u64>().ok())
        .expect("a hint with a value");
    let o = treeval(&[
        "ted",
        "--format",
        "json",
        "--max-cost",
        &hint.to_string(),
        "--gold",
        gs,
        "--parse",
        gs,
    ]);
    assert!(!String::from_utf8_lossy(&o.stderr).contains("--max-cost"));
    assert_eq!(json(&o)["inputs"][1]["counts"]["sentences"]["scored"], 2);
    // --max-cost 0 is a usage error; the option is documented
    assert_eq!(
        treeval(&["ted", "--max-cost", "0", "--gold", gs, "--parse", gs])
            .status
            .code(),
        Some(2)
    );
    let help = String::from_utf8_lossy(&treeval(&["ted", "--help"]).stdout).into_owned();
    assert!(help.contains("--max-cost <N>"), "{help}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `ted --distance` applies the limit too: a pair over it is an error naming the line
/// and the option.
#[test]
fn distance_pairs_over_the_cost_limit_are_errors() {
    let d = dir("pairs");
    let p = d.join("pairs.txt");
    std::fs::write(&p, "{a{b}{c}}\t{a{b}}\n{a{b{c{d{e}}}}}\t{a{b{c{d{e}}}}}\n").unwrap();
    let ps = p.to_str().unwrap();
    let o = treeval(&["ted", "--distance", ps, "--max-cost", "10"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("{ps}:2:1: expected an edit distance of at most 10 table cells (--max-cost), found trees of 5 and 5 nodes whose edit distance needs 25 to 25 table cells")),
        "{err}"
    );
    assert!(err.contains("hint: --max-cost 25 computes it"), "{err}");
    let o = treeval(&["ted", "--distance", ps]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "1\n0\n");
    let _ = std::fs::remove_dir_all(&d);
}
