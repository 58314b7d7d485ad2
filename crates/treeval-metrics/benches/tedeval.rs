//! Criterion benchmarks of TedEval's sentence work, in memory: converting dependency trees
//! to functional trees, generalizing two schemes' golds, and scoring a parse (two edit
//! scripts). Input: deterministic pseudo-random projective trees of 25 and 60 words (the
//! PTB sample's mean is 24), and 300-word chains in both directions (one script). The end-to-end CLI timing on the PTB sample is
//! `scripts/bench-tedeval.sh` (figures in BENCHMARKS.md).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use treeval_metrics::tedeval::{
    functional_tree, generalize, score_sentence, ted_tree, FNode, LabelIds,
};

/// The pseudo-random numbers 0..2^31 of Knuth's MMIX linear congruential generator from
/// `seed`.
fn lcg(seed: u64) -> impl FnMut() -> usize {
    let mut x = seed;
    move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as usize
    }
}

/// A projective tree over `n` words: each word attaches to a word inside the span that
/// keeps arcs nested (a random bracketing), from a small LCG.
fn tree(n: usize, seed: u64) -> (Vec<u32>, Vec<&'static str>) {
    const L: [&str; 6] = ["nsubj", "obj", "det", "amod", "case", "obl"];
    let mut next = lcg(seed);
    let mut heads = vec![0u32; n];
    // split [lo, hi) around a head, recursively
    let mut stack = vec![(0usize, n, 0u32)];
    while let Some((lo, hi, h)) = stack.pop() {
        if lo >= hi {
            continue;
        }
        let m = lo + next() % (hi - lo);
        heads[m] = h;
        stack.push((lo, m, m as u32 + 1));
        stack.push((m + 1, hi, m as u32 + 1));
    }
    let labels = (0..n).map(|_| L[next() % L.len()]).collect();
    (heads, labels)
}

fn ft(n: usize, seed: u64) -> FNode {
    let (h, l) = tree(n, seed);
    functional_tree(&h, &l).0
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("tedeval");
    for n in [25usize, 60] {
        let (h, l) = tree(n, 1);
        g.bench_with_input(BenchmarkId::new("functional_tree", n), &n, |b, _| {
            b.iter(|| functional_tree(&h, &l))
        });
        let (a, other) = (ft(n, 1), ft(n, 2));
        g.bench_with_input(BenchmarkId::new("generalize", n), &n, |b, _| {
            b.iter(|| generalize(&[&a, &other]))
        });
        let gen = generalize(&[&a, &other]).unwrap_or_else(|_| a.clone());
        let parse = ft(n, 3);
        g.bench_with_input(BenchmarkId::new("score_sentence", n), &n, |b, _| {
            b.iter(|| {
                let mut ids = LabelIds::new();
                let (p, o, x) = (
                    ted_tree(&parse, &mut ids),
                    ted_tree(&a, &mut ids),
                    ted_tree(&gen, &mut ids),
                );
                score_sentence(&p, &o, &x, &ids, false)
            })
        });
    }
    // chains of words each headed by the previous one (forward: a right comb, cubic for
    // Zhang–Shasha's left decomposition) or by the next one, against a perturbed copy
    // (every 50th word relabelled, every 100th attached one word further away)
    for forward in [true, false] {
        let n = 300usize;
        let chain = |perturbed: bool| {
            let heads: Vec<u32> = (1..=n as u32)
                .map(|i| match (forward, perturbed && i % 100 == 0) {
                    (true, false) => i - 1,
                    (true, true) => i - 2,
                    (false, _) if i == n as u32 => 0,
                    (false, false) => i + 1,
                    (false, true) => (i + 2).min(n as u32),
                })
                .collect();
            let labels: Vec<&str> = (1..=n)
                .map(|i| if perturbed && i % 50 == 0 { "x" } else { "dep" })
                .collect();
            functional_tree(&heads, &labels).0
        };
        let (gold, parse) = (chain(false), chain(true));
        let name = if forward {
            "chain_forward"
        } else {
            "chain_backward"
        };
        g.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
            b.iter(|| {
                let mut ids = LabelIds::new();
                let (p, o) = (ted_tree(&parse, &mut ids), ted_tree(&gold, &mut ids));
                score_sentence(&p, &o, &o, &ids, false)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
