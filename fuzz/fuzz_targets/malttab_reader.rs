//! Any bytes through the CoNLL reader as MaltTab (`.dp`: FORM POS HEAD [DEPREL], no IDs,
//! `#` a word): forced, and recognised from a `.dp` name; every accessor: nothing may
//! panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use treeval_formats::{Format, ReaderBuilder, Sentence};

fuzz_target!(|data: &[u8]| {
    for (name, format) in [("fuzz", Some(Format::Malttab)), ("fuzz.dp", None)] {
        let mut r = ReaderBuilder::new().format(format).from_reader(name, data);
        let mut s = Sentence::new();
        while let Ok(true) = r.read_sentence(&mut s) {
            for w in s.words() {
                let _ = (s.form(w), s.lemma(w), s.upos(w), s.xpos(w), s.feats(w), s.deprel(w), s.misc(w));
                let _ = (s.head_column(w), s.form_column(w), s.deprel_column(w), w.head());
                let _ = s.enhanced_edges(w).count();
            }
        }
        for d in r.diagnostics().iter() {
            let _ = d.to_string();
        }
    }
});
