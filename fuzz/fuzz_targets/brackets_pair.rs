//! Any bytes, split at the first NUL into gold and test, read as bracketed trees in every
//! layout and scored with COLLINS.prm, unlabeled, and new.prm (QUOTE_LABEL) recording
//! EVALB's debug dump (`--compat evalb` with DEBUG 2): nothing may panic, and the counts
//! stay consistent (matched never above gold or test, correct tags never above words).
#![no_main]

use libfuzzer_sys::fuzz_target;
use treeval_formats::bracket::{BracketReader, Layout};
use treeval_metrics::brackets::{evaluate_inline, Params};

fuzz_target!(|data: &[u8]| {
    let cut = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (g, t) = (&data[..cut], data.get(cut + 1..).unwrap_or(&[]));
    let unlabeled = Params {
        labeled: false,
        max_error: 1000,
        ..Params::collins()
    };
    let traced = Params {
        trace: true,
        count_wrapper: true,
        debug: 2,
        max_error: 1000,
        ..Params::built_in("new.prm").expect("built in")
    };
    for layout in [Layout::Auto, Layout::Line, Layout::MultiLine] {
        for params in [Params::collins(), unlabeled.clone(), traced.clone()] {
            let mut gr = BracketReader::new(g, "g", layout);
            let mut tr = BracketReader::new(t, "t", layout);
            let careful = treeval_metrics::careful::CarefulOptions {
                remove_tags: params.delete_label.clone(),
                collapse_double: true,
                export: true,
                ..Default::default()
            };
            let r = evaluate_inline(&mut gr, &mut tr, &params, Some(&careful)).expect("in-memory input");
            if let Some(c) = &r.careful {
                let k = &c.counts;
                assert_eq!(k.EM + k.CE + k.SP, k.TPB);
                assert_eq!(k.PINH + k.PNINH, k.CE);
                assert_eq!(k.TINH + k.TNINH, k.EM);
                assert!(k.EM <= k.TTB);
            }
            for c in [&r.all, &r.cutoff] {
                assert!(c.matched <= c.gold.min(c.test));
                assert!(c.correct_tags <= c.words);
                assert!(c.error_sentences + c.skip_sentences <= c.sentences);
                assert!(c.complete <= c.valid());
            }
            for row in &r.rows {
                assert!(row.matched <= row.gold.min(row.test));
            }
            if params.trace {
                assert_eq!(r.traces.len(), r.rows.len());
                for (row, tr) in r.rows.iter().zip(&r.traces) {
                    let matched = tr.brackets[0].iter().filter(|b| b.result == 1).count();
                    if row.status == treeval_metrics::brackets::Status::Ok {
                        assert_eq!(matched as u64, row.matched);
                    }
                }
            }
        }
    }
});
