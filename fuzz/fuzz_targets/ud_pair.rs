//! Any bytes, split at the first NUL into gold and system, scored by `ud` in every
//! empty-node mode and with every enhancement filter: nothing may panic, and counts stay
//! consistent (correct never above gold or system, aligned words never above either).
#![no_main]

use libfuzzer_sys::fuzz_target;
use treeval_formats::ReaderBuilder;
use treeval_metrics::ud::{evaluate_sources, AlignMode, EmptyNodes, Enhancements, ReaderSource, UdOptions};

fuzz_target!(|data: &[u8]| {
    let cut = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (g, s) = (&data[..cut], data.get(cut + 1..).unwrap_or(&[]));
    for (mode, enh, align) in [
        (EmptyNodes::Collapse, "0", AlignMode::Strict),
        (EmptyNodes::Drop, "123456", AlignMode::Resync),
        (EmptyNodes::Error, "15", AlignMode::Strict),
        (EmptyNodes::Collapse, "0", AlignMode::Resync),
    ] {
        let opts = UdOptions {
            empty_nodes: mode,
            align,
            enhancements: Enhancements::parse(enh).unwrap(),
            keep_sentences: true,
            relation_sets: true,
            ..UdOptions::default()
        };
        let b = ReaderBuilder::new();
        let mut gs = ReaderSource::new(b.from_reader("g", g));
        let mut ss = ReaderSource::new(b.from_reader("s", s));
        if let Ok(r) = evaluate_sources(&mut gs, &mut ss, "g", "s", &opts) {
            let m = &r.counts.metrics;
            assert!(m[2].correct <= m[2].gold.min(m[2].system));
            for c in &m[..13] {
                assert!(c.correct <= c.gold && c.correct <= c.system);
            }
            assert!(r.counts.relation_sets[0].correct <= r.counts.relation_sets[0].gold);
        }
    }
});
