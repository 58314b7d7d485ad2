//! Any text as an EVALB parameter file: nothing may panic, and every warning renders.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use treeval_metrics::brackets::Params;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (p, warnings) = Params::parse(&text, &Arc::from("fuzz.prm"));
    for w in &warnings {
        let _ = w.to_string();
    }
    let _ = format!("{p:?}");
});
