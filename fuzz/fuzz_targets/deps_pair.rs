//! Any bytes read as both gold and system and scored with every breakdown: nothing may
//! panic, and the counts stay consistent.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use treeval_formats::{ReaderBuilder, Sentence};
use treeval_metrics::deps::{GoldSentence, Observer, Validity};
use treeval_metrics::{ByKey, DepsOptions, LabelTable, PunctPolicy};

fuzz_target!(|data: &[u8]| {
    let opts = DepsOptions { by: ByKey::ALL.to_vec(), confusion: true, punct: PunctPolicy::Form, ..DepsOptions::default() };
    let mut r = ReaderBuilder::new().from_reader("fuzz", data);
    let (mut labels, mut obs, mut prep) = (LabelTable::new(), Observer::new(&opts), GoldSentence::new());
    let (mut v, mut diags, p) = (Validity::default(), Vec::new(), Arc::<str>::from("fuzz"));
    let mut s = Sentence::new();
    while let Ok(true) = r.read_sentence(&mut s) {
        prep.prepare(&s, &p, &opts, &mut labels, &mut v, &mut diags);
        let c = obs.observe(&s, &prep, &p, &s, &p, &mut labels, &opts);
        assert!(c.las <= c.uas && c.las <= c.la);
    }
});
