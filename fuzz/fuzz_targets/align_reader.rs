//! Any bytes through the alignment reader (NAACL and Pharaoh, detected or forced, any
//! base and direction) and the counting: nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use treeval_formats::align::{read_alignments, AlignFormat, AlignOptions};
use treeval_metrics::align::{count_files, sentence_numbers, sum};

fuzz_target!(|data: &[u8]| {
    let formats = [None, Some(AlignFormat::Naacl), Some(AlignFormat::Pharaoh)];
    for (i, format) in formats.into_iter().enumerate() {
        let opts = AlignOptions { format, base: Some((i % 2) as u32), reverse: i == 2, ..Default::default() };
        if let Ok(f) = read_alignments("fuzz", data, opts) {
            let rows = count_files(&f, &f, i == 1, &sentence_numbers([&f]));
            let t = sum(&rows);
            assert_eq!(t.a_and_s, t.s.min(t.a_and_s));
            let _ = t.scores(0.5);
        }
    }
});
