//! Criterion benchmarks of the two hot paths of `treeval deps`: reading CoNLL-U and
//! counting sentence pairs. Input: the quick-start files repeated to ~21k words, in
//! memory (no disk I/O). The end-to-end CLI timing on 1M real words is
//! `scripts/bench-cli.sh` (figures in BENCHMARKS.md).

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use treeval_formats::{ReaderBuilder, Sentence};
use treeval_metrics::deps::{GoldSentence, Observer, Validity};
use treeval_metrics::{DepsOptions, LabelTable};

const REPEAT: usize = 1000;

fn corpus(name: &str) -> String {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .expect("examples/ files")
        .repeat(REPEAT)
}

fn read_all(text: &str) -> Vec<Sentence> {
    let mut r = ReaderBuilder::new()
        .validate_deps(false)
        .from_reader("bench", text.as_bytes());
    let mut out = Vec::new();
    let mut s = Sentence::new();
    while r.read_sentence(&mut s).unwrap_or(false) {
        out.push(s.clone());
    }
    out
}

fn bench(c: &mut Criterion) {
    let gold = corpus("gold.conllu");
    let sys = corpus("sys.conllu");
    let words = read_all(&gold).iter().map(Sentence::len).sum::<usize>() as u64;

    let mut g = c.benchmark_group("deps");
    g.throughput(Throughput::Elements(words));
    g.bench_function("read_conllu", |b| {
        b.iter(|| {
            let mut r = ReaderBuilder::new()
                .validate_deps(false)
                .from_reader("bench", gold.as_bytes());
            let mut s = Sentence::new();
            let mut n = 0;
            while r.read_sentence(&mut s).unwrap_or(false) {
                n += s.len();
            }
            n
        })
    });
    let (gs, ss) = (read_all(&gold), read_all(&sys));
    let opts = DepsOptions::default();
    let p: Arc<str> = Arc::from("bench");
    g.bench_function("observe_pairs", |b| {
        b.iter(|| {
            let (mut labels, mut obs, mut prep) =
                (LabelTable::new(), Observer::new(&opts), GoldSentence::new());
            let (mut v, mut d) = (Validity::default(), Vec::new());
            for (g, s) in gs.iter().zip(&ss) {
                prep.prepare(g, &p, &opts, &mut labels, &mut v, &mut d);
                obs.observe(g, &prep, &p, s, &p, &mut labels, &opts);
            }
            obs.totals.las
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
