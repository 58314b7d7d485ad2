//! Checking that an input is UTF-8 text as it is read, and naming the encoding of one
//! that is not: Latin-1, Windows-1252, UTF-16 (from its byte-order mark or the pattern of
//! its NUL bytes), binary data, or a character cut at the end of the file.
//!
//! Every reader opens its input through [`crate::input::open`] or [`crate::input::wrap`],
//! which put [`Utf8Check`] under the reader: the first bytes that are not UTF-8 stop the
//! reading with an I/O error carrying a [`NotUtf8`], which [`crate::Error::io`] turns into
//! one diagnostic at their line and column with the command that converts the file. So no
//! reader scores a file whose bytes it could only guess.

use std::fmt;
use std::io::{self, Read};
use std::sync::Arc;

use crate::error::{Diagnostic, ErrorKind, Position};

/// Where an input stops being UTF-8 text, what is there, and what it suggests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotUtf8 {
    /// 1-based line of the first such byte.
    pub line: u64,
    /// 1-based column, in characters (a byte-order mark at the start is not one).
    pub column: u32,
    /// What was found, e.g. `the byte 0xE9, which is not UTF-8`.
    pub found: String,
    /// The encoding the bytes suggest, as `iconv -f` names it (`ISO-8859-1`,
    /// `WINDOWS-1252`, `UTF-16`, `UTF-16LE`, `UTF-16BE`), if any.
    pub encoding: Option<&'static str>,
}

impl NotUtf8 {
    /// The error at the input `path`'s position, with the command that converts the file.
    pub fn diagnostic(&self, path: &Arc<str>) -> Diagnostic {
        let pos = Position::new(path.clone(), self.line, self.column);
        let hint = match self.encoding {
            Some(enc) => format!(
                "convert the file to UTF-8 first: `iconv -f {enc} -t UTF-8 {} > {}.utf8` (nothing is scored from bytes treeval could only guess)",
                shown_path(path),
                shown_path(path)
            ),
            None => "give a UTF-8 text file (gzip and zstd files are read as they are); nothing is scored from bytes treeval could only guess".to_owned(),
        };
        Diagnostic::error(pos, ErrorKind::NotUtf8(self.found.clone())).with_hint(hint)
    }
}

/// A path as a shell command shows it (`FILE` for standard input).
fn shown_path(path: &str) -> String {
    if path == "-" || path.starts_with('<') {
        "FILE".to_owned()
    } else if path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/._-+,:=".contains(&b))
    {
        path.to_owned()
    } else {
        format!("'{}'", path.replace('\'', r"'\''"))
    }
}

impl fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: expected UTF-8 text, found {}",
            self.line, self.column, self.found
        )
    }
}

impl std::error::Error for NotUtf8 {}

/// A reader that passes UTF-8 text through and stops with an [`io::ErrorKind::InvalidData`]
/// error carrying a [`NotUtf8`] at the first bytes that are not.
pub(crate) struct Utf8Check<R> {
    inner: R,
    /// The start of a character the last read ended in.
    carry: Vec<u8>,
    /// Bytes checked so far.
    offset: u64,
    /// Line (1-based) and characters so far on it, at `offset`.
    line: u64,
    chars: u32,
    /// The error already returned, returned again on every later read.
    failed: Option<NotUtf8>,
}

impl<R: Read> Utf8Check<R> {
    /// Check `inner`.
    pub(crate) fn new(inner: R) -> Self {
        Utf8Check {
            inner,
            carry: Vec::new(),
            offset: 0,
            line: 1,
            chars: 0,
            failed: None,
        }
    }

    /// Move the position over `b`, which is text.
    fn advance(&mut self, b: &[u8]) {
        let mut b = b;
        if self.offset == 0 && b.starts_with(b"\xEF\xBB\xBF") {
            b = &b[3..];
            self.offset = 3;
        }
        self.offset += b.len() as u64;
        let chars = |b: &[u8]| b.iter().filter(|&&x| (x & 0xC0) != 0x80).count() as u32;
        match memchr::memrchr(b'\n', b) {
            Some(last) => {
                self.line += memchr::memchr_iter(b'\n', b).count() as u64;
                self.chars = chars(&b[last + 1..]);
            }
            None => self.chars += chars(b),
        }
    }

    /// The error at byte `at` of `b` (the bytes before it are text), `found` there.
    fn fail(
        &mut self,
        b: &[u8],
        at: usize,
        found: String,
        encoding: Option<&'static str>,
    ) -> io::Error {
        self.advance(&b[..at]);
        let e = NotUtf8 {
            line: self.line,
            column: self.chars + 1,
            found,
            encoding,
        };
        self.failed = Some(e.clone());
        io::Error::new(io::ErrorKind::InvalidData, e)
    }

    /// Up to 64 KiB of the bytes after the last read (to name the encoding of bytes that
    /// are not UTF-8 from more than the last read's end).
    fn lookahead(&mut self) -> Vec<u8> {
        let mut next = Vec::new();
        let _ = (&mut self.inner).take(64 * 1024).read_to_end(&mut next);
        next
    }

    /// Check the bytes `b` read (the carried start of a character first).
    fn check(&mut self, b: &[u8]) -> io::Result<()> {
        if self.offset == 0 {
            let mut head = self.carry.clone();
            head.extend_from_slice(&b[..b.len().min(2)]);
            if let Some((what, enc)) = utf16_bom(&head) {
                return Err(self.fail(b, 0, what, Some(enc)));
            }
            if head.len() < 2 && matches!(head.first(), Some(0xFE | 0xFF)) {
                self.carry = head; // the first byte of a byte-order mark, perhaps
                return Ok(());
            }
        }
        let mut b = b;
        if !self.carry.is_empty() {
            // complete the character the last read ended in
            let need = utf8_len(self.carry[0]).saturating_sub(self.carry.len());
            let take = need.min(b.len());
            let mut ch = std::mem::take(&mut self.carry);
            ch.extend_from_slice(&b[..take]);
            b = &b[take..];
            match std::str::from_utf8(&ch) {
                Ok(_) => self.advance(&ch),
                Err(e) if e.error_len().is_none() => {
                    self.carry = ch;
                    return Ok(());
                }
                Err(_) => {
                    let mut next = b.to_vec();
                    next.extend(self.lookahead());
                    let found = not_utf8(&ch, 0, &next);
                    return Err(self.fail(&ch, 0, found.0, found.1));
                }
            }
        }
        let nul = memchr::memchr(0, b);
        let end = nul.unwrap_or(b.len());
        match std::str::from_utf8(&b[..end]) {
            Ok(_) => {}
            Err(e) if e.error_len().is_none() && nul.is_none() => {
                let at = e.valid_up_to();
                self.advance(&b[..at]);
                self.carry = b[at..].to_vec();
                return Ok(());
            }
            Err(e) => {
                let at = e.valid_up_to();
                let (found, enc) = not_utf8(b, at, &self.lookahead());
                return Err(self.fail(b, at, found, enc));
            }
        }
        if let Some(at) = nul {
            let (found, enc) = nul_byte(b, self.offset);
            return Err(self.fail(b, at, found, enc));
        }
        self.advance(b);
        Ok(())
    }
}

impl<R: Read> Read for Utf8Check<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(e) = &self.failed {
            return Err(io::Error::new(io::ErrorKind::InvalidData, e.clone()));
        }
        let n = self.inner.read(buf)?;
        if n == 0 && !self.carry.is_empty() {
            let ch = std::mem::take(&mut self.carry);
            let found = format!(
                "a character cut at the end of the file (the bytes {}): the file looks truncated",
                hex(&ch)
            );
            return Err(self.fail(&ch, 0, found, None));
        }
        self.check(&buf[..n])?;
        Ok(n)
    }
}

/// The length of the UTF-8 character whose first byte is `b` (1 for a byte that starts none).
fn utf8_len(b: u8) -> usize {
    match b {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// Bytes as `0xE9 0x20`.
fn hex(b: &[u8]) -> String {
    let v: Vec<String> = b.iter().map(|x| format!("0x{x:02X}")).collect();
    v.join(" ")
}

/// A UTF-16 byte-order mark at the start of `b`.
fn utf16_bom(b: &[u8]) -> Option<(String, &'static str)> {
    let (name, enc) = if b.starts_with(&[0xFF, 0xFE]) {
        ("FF FE: UTF-16 little-endian", "UTF-16")
    } else if b.starts_with(&[0xFE, 0xFF]) {
        ("FE FF: UTF-16 big-endian", "UTF-16")
    } else {
        return None;
    };
    Some((
        format!("the byte-order mark {name} (the file is UTF-16 text)"),
        enc,
    ))
}

/// What the invalid bytes at `b[at..]` (followed by `next`) are: binary data when NUL
/// bytes follow; else the byte, and the encoding the file's other invalid bytes suggest (Windows-1252 when one of them is in
/// 0x80–0x9F, which Latin-1 leaves to control characters; Latin-1 otherwise).
fn not_utf8(b: &[u8], at: usize, next: &[u8]) -> (String, Option<&'static str>) {
    let byte = b[at];
    let mut rest = b[at..].to_vec();
    rest.extend_from_slice(&next[..next.len().min(64 * 1024)]);
    rest.truncate(64 * 1024);
    if rest.contains(&0) {
        return (
            format!("the byte 0x{byte:02X} and NUL bytes after it: binary data, not a text file"),
            None,
        );
    }
    let mut windows = false;
    let mut from = 0;
    while let Err(e) = std::str::from_utf8(&rest[from..]) {
        let bad = from + e.valid_up_to();
        let len = e.error_len().unwrap_or(rest.len() - bad);
        windows |= rest[bad..bad + len]
            .iter()
            .any(|x| (0x80..=0x9F).contains(x));
        from = bad + len;
    }
    let (name, enc) = if windows {
        ("Windows-1252", "WINDOWS-1252")
    } else {
        ("Latin-1", "ISO-8859-1")
    };
    let ch = if windows {
        windows_1252(byte)
    } else {
        Some(char::from(byte))
    };
    let shown = match ch {
        Some(c) if !c.is_control() => format!(" ('{c}' in {name})"),
        _ => String::new(),
    };
    (
        format!("the byte 0x{byte:02X}{shown}: the file looks like {name} ({enc}), not UTF-8"),
        Some(enc),
    )
}

/// The character of a Windows-1252 byte (the five it leaves undefined have none).
fn windows_1252(b: u8) -> Option<char> {
    const HIGH: [u16; 32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
        0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC,
        0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ];
    match b {
        0x80..=0x9F => {
            char::from_u32(u32::from(HIGH[usize::from(b - 0x80)])).filter(|&c| c != '\0')
        }
        _ => Some(char::from(b)),
    }
}

/// What a NUL byte in `b` says: UTF-16 without a byte-order mark when the NUL bytes
/// of the start of the file (`offset` = 0) fall on every other byte, binary data otherwise.
fn nul_byte(b: &[u8], offset: u64) -> (String, Option<&'static str>) {
    if offset == 0 {
        let head = &b[..b.len().min(512) & !1];
        let (mut even, mut odd) = (0usize, 0usize);
        for (k, &x) in head.iter().enumerate() {
            if x == 0 {
                if k % 2 == 0 {
                    even += 1;
                } else {
                    odd += 1;
                }
            }
        }
        let pairs = head.len() / 2;
        let utf16 =
            |many: usize, few: usize| pairs > 0 && many * 4 >= pairs * 3 && few * 10 <= many;
        if utf16(odd, even) {
            return (
                "NUL bytes at every other byte (the file is UTF-16 little-endian text without a byte-order mark)".to_owned(),
                Some("UTF-16LE"),
            );
        }
        if utf16(even, odd) {
            return (
                "NUL bytes at every other byte (the file is UTF-16 big-endian text without a byte-order mark)".to_owned(),
                Some("UTF-16BE"),
            );
        }
    }
    ("a NUL byte: binary data, not a text file".to_owned(), None)
}

/// The first of the 128 characters that stand for bytes that are not UTF-8 (U+10FF80 for
/// the byte 0x80, …, U+10FFFF for 0xFF: private-use characters no treebank writes).
const RAW_BYTE: u32 = 0x10_FF00;

/// `bytes` as text for a reader that takes bytes as they are (EVALB's reading under
/// `--compat evalb`): UTF-8 as it is, and each byte of a sequence that is not UTF-8 as
/// one character U+10FF00 + byte, so that two texts are equal exactly when their bytes
/// are. [`text_as_bytes`] gives the bytes back.
pub fn bytes_as_text(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for &b in chunk.invalid() {
            out.extend(char::from_u32(RAW_BYTE + u32::from(b)));
        }
    }
    out
}

/// The bytes a text of [`bytes_as_text`] was read from (to write a reference tool's
/// messages byte for byte).
pub fn text_as_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match u32::from(c).checked_sub(RAW_BYTE) {
            Some(b @ 0x80..=0xFF) => out.push(b as u8),
            _ => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error of reading `bytes` through the check in reads of `chunk` bytes.
    fn read(bytes: &[u8], chunk: usize) -> Option<NotUtf8> {
        struct Chunks<'a>(&'a [u8], usize);
        impl Read for Chunks<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(self.1).min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut c = Utf8Check::new(Chunks(bytes, chunk));
        let mut out = Vec::new();
        match c.read_to_end(&mut out) {
            Ok(_) => {
                assert_eq!(out, bytes);
                None
            }
            Err(e) => Some(
                e.into_inner()
                    .unwrap()
                    .downcast::<NotUtf8>()
                    .map(|b| *b)
                    .unwrap(),
            ),
        }
    }

    /// The same answer whatever the size of the reads (characters cut between reads).
    fn each_chunking(bytes: &[u8]) -> Option<NotUtf8> {
        let whole = read(bytes, usize::MAX);
        for chunk in 1..8 {
            assert_eq!(read(bytes, chunk), whole, "reads of {chunk} bytes");
        }
        whole
    }

    #[test]
    fn raw_bytes_round_trip_and_keep_bytes_apart() {
        for b in [
            &b"caf\xe9 \xa0x"[..],
            "café".as_bytes(),
            b"\xc3",
            b"\xff\xfe(\x00",
        ] {
            assert_eq!(text_as_bytes(&bytes_as_text(b)), b);
        }
        // the same word in Latin-1 and in UTF-8 is two words, as bytes are
        assert_ne!(bytes_as_text(b"caf\xe9"), bytes_as_text("café".as_bytes()));
        assert_eq!(bytes_as_text("café".as_bytes()), "café");
    }

    #[test]
    fn utf8_passes_with_a_bom() {
        assert_eq!(
            each_chunking("\u{feff}(S (NNP José) (NN café))\n€ 😀\n".as_bytes()),
            None
        );
        assert_eq!(each_chunking(b""), None);
    }

    #[test]
    fn latin1_at_its_line_and_column() {
        let e = each_chunking(b"(X a)\n(S (NP (NNP Jos\xe9)))\n").unwrap();
        assert_eq!((e.line, e.column, e.encoding), (2, 16, Some("ISO-8859-1")));
        assert!(e.found.contains("0xE9 ('é' in Latin-1)"), "{}", e.found);
        // after other characters on the line, and a BOM that is not a column
        let mut b = "\u{feff}é\u{20ac} ".as_bytes().to_vec();
        b.push(0xe7);
        let e = each_chunking(&b).unwrap();
        assert_eq!((e.line, e.column), (1, 4));
    }

    #[test]
    fn windows_1252_from_its_c1_bytes() {
        let e = each_chunking(b"caf\xe9 \x93quoted\x94\n").unwrap();
        assert_eq!((e.line, e.column, e.encoding), (1, 4, Some("WINDOWS-1252")));
        assert!(e.found.contains("Windows-1252"), "{}", e.found);
    }

    #[test]
    fn utf16_by_bom_and_by_nul_pattern() {
        let le: Vec<u8> = "(S (X a))\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let be: Vec<u8> = "(S (X a))\n"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        let with = |bom: [u8; 2], b: &[u8]| bom.iter().chain(b).copied().collect::<Vec<_>>();
        let e = each_chunking(&with([0xFF, 0xFE], &le)).unwrap();
        assert_eq!((e.line, e.column, e.encoding), (1, 1, Some("UTF-16")));
        assert!(e.found.contains("little-endian"));
        let e = each_chunking(&with([0xFE, 0xFF], &be)).unwrap();
        assert_eq!((e.line, e.column, e.encoding), (1, 1, Some("UTF-16")));
        assert!(e.found.contains("big-endian"));
        let e = read(&le, usize::MAX).unwrap();
        assert_eq!((e.line, e.column, e.encoding), (1, 2, Some("UTF-16LE")));
        let e = read(&be, usize::MAX).unwrap();
        assert_eq!((e.line, e.column, e.encoding), (1, 1, Some("UTF-16BE")));
        let e = read(b"(S a)\n\0\0\0x", usize::MAX).unwrap();
        assert_eq!((e.line, e.column, e.encoding), (2, 1, None));
    }

    #[test]
    fn a_character_cut_at_the_end() {
        let e = each_chunking("ab\ncaf\u{e9}".as_bytes().split_last().unwrap().1).unwrap();
        assert_eq!((e.line, e.column, e.encoding), (2, 4, None));
        assert!(e.found.contains("truncated"), "{}", e.found);
    }
}
