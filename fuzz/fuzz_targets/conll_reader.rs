//! Any bytes through the CoNLL reader (CoNLL-U, CoNLL-X and CoNLL-2009 detection,
//! every accessor and the DEPS parser): nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use treeval_formats::{Conll09Columns, ReaderBuilder, Sentence};

fuzz_target!(|data: &[u8]| {
    for cols in [Conll09Columns::Gold, Conll09Columns::Predicted] {
        let mut r = ReaderBuilder::new().conll09_columns(cols).from_reader("fuzz", data);
        let mut s = Sentence::new();
        while let Ok(true) = r.read_sentence(&mut s) {
            for w in s.words() {
                let _ = (s.form(w), s.lemma(w), s.upos(w), s.xpos(w), s.feats(w), s.deprel(w), s.misc(w));
                let _ = (s.head_column(w), s.form_column(w), s.deprel_column(w), w.head());
                let _ = s.enhanced_edges(w).count();
            }
            for e in s.empty_nodes() {
                let _ = (s.empty_form(e), s.empty_enhanced_edges(e).count());
            }
            for t in s.multiword_tokens() {
                let _ = s.mwt_form(t);
            }
        }
        for d in r.diagnostics().iter() {
            let _ = d.to_string();
        }
    }
});
