//! Any bytes as up to three head/label sequences over the same words (heads may be out of
//! range or form cycles): conversion, generalization, unification and scoring may not
//! panic, and the laws hold (the result subsumes into every input; a parse equal to its
//! gold scores exactly 1; scores stay in [0, 1]).
#![no_main]

use libfuzzer_sys::fuzz_target;
use treeval_metrics::tedeval::{
    functional_tree, generalize, score_sentence, subsumes_into, ted_tree, unify, LabelIds,
};

const LABELS: [&str; 4] = ["a", "b", "*", "c|d"];

fuzz_target!(|data: &[u8]| {
    if data.is_empty() {
        return;
    }
    let n = (data[0] % 24) as usize + 1;
    let body = &data[1..];
    let trees: Vec<_> = body
        .chunks(2 * n)
        .filter(|c| c.len() == 2 * n)
        .take(3)
        .map(|c| {
            // heads: 0..=n, and beyond n (out of range) now and then
            let heads: Vec<u32> = c[..n].iter().map(|&b| u32::from(b) % (n as u32 + 3)).collect();
            let labels: Vec<&str> = c[n..].iter().map(|&b| LABELS[b as usize % 4]).collect();
            functional_tree(&heads, &labels).0
        })
        .collect();
    if trees.is_empty() {
        return;
    }
    let refs: Vec<_> = trees.iter().collect();
    let gen = generalize(&refs).expect("same lengths");
    for t in &trees {
        assert!(subsumes_into(&gen, t));
    }
    if let Some(u) = unify(&refs) {
        for t in &trees {
            assert!(subsumes_into(t, &u));
        }
    }
    let mut ids = LabelIds::new();
    let g = ted_tree(&gen, &mut ids);
    let gold = ted_tree(&trees[0], &mut ids);
    let own = score_sentence(&gold, &gold, &g, &ids, false);
    assert_eq!(own.delta_new, 0);
    for t in &trees {
        let p = ted_tree(t, &mut ids);
        let c = score_sentence(&p, &gold, &g, &ids, false);
        assert!(c.delta_new <= c.delta && c.delta <= c.normalizer, "{c:?}");
    }
});
