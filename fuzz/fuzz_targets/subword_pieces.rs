//! Any bytes through the subword pieces reader and the projection of an alignment over
//! pieces onto words (`align --hyp-subwords`): the bytes up to the first NUL are the
//! pieces of both sides, the rest an alignment. Nothing may panic, and every projected
//! link must be within its sentence's words.
#![no_main]

use libfuzzer_sys::fuzz_target;
use treeval_formats::align::{read_alignments, AlignOptions};
use treeval_formats::subwords::{project, read_pieces};

fuzz_target!(|data: &[u8]| {
    let cut = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (text, links) = data.split_at(cut);
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let pieces = read_pieces("fuzz", text);
    for line in &pieces.lines {
        assert!(line.word_of.iter().all(|&w| (w as usize) < line.words.len()));
    }
    let links = links.get(1..).unwrap_or_default();
    if let Ok(h) = read_alignments("fuzz", links, AlignOptions::default()) {
        if let Ok(w) = project(&h, &pieces, &pieces) {
            for (&n, ls) in &w.sentences {
                // a sentence with links has a pieces line (else projecting fails)
                let line = (n as usize).checked_sub(1).and_then(|k| pieces.lines.get(k));
                let words = line.map_or(0, |l| l.words.len() as u32);
                for l in ls {
                    assert!(l.a.map_or(true, |a| a < words) && l.b.map_or(true, |b| b < words));
                }
            }
        }
    }
});
