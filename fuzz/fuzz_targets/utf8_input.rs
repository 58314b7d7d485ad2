//! Any bytes through the input layer every reader stands on (`input::wrap`: the UTF-8
//! check, issue 38), read in chunks of every size so that a character cut between two
//! reads is met: nothing may panic; text without a NUL byte (gzip and zstd magic aside)
//! comes out byte for byte; anything else stops with one error, returned again on every
//! later read.
#![no_main]

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use treeval_formats::input::wrap;

fuzz_target!(|data: &[u8]| {
    let Some((&chunk, body)) = data.split_first() else { return };
    let chunk = usize::from(chunk % 17) + 1;
    let Ok((mut input, _)) = wrap(Box::new(std::io::Cursor::new(body.to_vec()))) else { return };
    let mut out = Vec::new();
    let mut buf = vec![0u8; chunk];
    let failed = loop {
        match input.read(&mut buf) {
            Ok(0) => break false,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => {
                let _ = e.to_string();
                // the same error again, never text after it
                assert!(input.read(&mut buf).is_err());
                break true;
            }
        }
    };
    let compressed = body.starts_with(&[0x1f, 0x8b]) || body.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]);
    if !compressed {
        let text = std::str::from_utf8(body).is_ok() && !body.contains(&0);
        assert_eq!(failed, !text, "{body:?}");
        if text {
            assert_eq!(out, body);
        }
    }
});
