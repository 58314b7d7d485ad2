//! Any text as a label-equivalence file (`ted --label-equiv`): nothing may panic; every
//! label maps to a label that maps to itself or is a class head.
#![no_main]

use libfuzzer_sys::fuzz_target;
use treeval_formats::equiv::parse_equivalences;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(map) = parse_equivalences(&text, "fuzz") {
        for (label, head) in &map {
            assert!(!label.is_empty() && !head.is_empty());
        }
    }
});
