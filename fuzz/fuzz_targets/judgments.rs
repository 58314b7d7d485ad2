//! Any text as a judgments file of `brackets --careful --judgments`: nothing may panic, and
//! every problem names a line of the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use treeval_metrics::careful::read_judgments;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (_, _, problems) = read_judgments(&text);
    let lines = text.lines().count() as u64;
    for (line, _) in &problems {
        assert!(*line >= 1 && *line <= lines.max(1), "line {line} of {lines}");
    }
});
