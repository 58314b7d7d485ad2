//! Any bytes through the n-best reader (candidate grouping, `# rank` / `# parser_score`
//! parsing) and through the pairing with a gold file made of the same bytes: nothing
//! may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use treeval_formats::nbest::{NbestPairing, NbestReader};
use treeval_formats::ReaderBuilder;

fuzz_target!(|data: &[u8]| {
    let mut r = NbestReader::new(ReaderBuilder::new().from_reader("fuzz", data));
    let mut out = Vec::new();
    while let Ok(true) = r.read_group(&mut out) {
        for c in &out {
            let _ = (c.rank, c.parser_score, c.sentence.len());
        }
    }
    let gold = ReaderBuilder::new().from_reader("gold", data);
    let nbest = NbestReader::new(ReaderBuilder::new().from_reader("fuzz", data));
    let mut p = NbestPairing::new(gold, nbest);
    loop {
        match p.next_sentence() {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let _ = e.to_string();
                break;
            }
        }
    }
    let _ = p.warnings().count();
});
