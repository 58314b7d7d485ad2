//! Opening inputs: files, `-` for standard input, gzip and zstd read transparently
//! (recognised by their magic bytes, whatever the file is called).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

use crate::encoding::Utf8Check;
use crate::error::Error;

/// Size of the read buffer: large enough that a read is rarely split.
pub const BUFFER_SIZE: usize = 256 * 1024;

/// A boxed buffered reader that can move to another thread.
pub type Input = Box<dyn BufRead + Send>;

/// Compression detected from the first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Plain text.
    None,
    /// gzip (`1f 8b`).
    Gzip,
    /// Zstandard (`28 b5 2f fd`).
    Zstd,
}

/// How the bytes of an input are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Bytes {
    /// UTF-8 text, checked as it is read: the first bytes that are not (an invalid
    /// sequence, a NUL byte, a character cut at the end of the file) stop the reading with
    /// one error at their line and column that names the encoding they suggest
    /// ([`NotUtf8`]). A UTF-8 byte-order mark at the start passes (the readers skip it).
    #[default]
    Utf8,
    /// Bytes as they are, unchecked, as EVALB (a C program) reads them (`--compat evalb`).
    Raw,
}

/// Open `path` (`-` = standard input) for reading, decompressing gzip and zstd; UTF-8
/// text is checked as it is read ([`Bytes::Utf8`]).
pub fn open(path: &str) -> Result<(Input, Compression), Error> {
    open_as(path, Bytes::Utf8)
}

/// [`open`], taking the bytes as `bytes` says.
pub fn open_as(path: &str, bytes: Bytes) -> Result<(Input, Compression), Error> {
    let name: Arc<str> = Arc::from(path);
    let raw: Box<dyn Read + Send> = if path == "-" {
        Box::new(io::stdin())
    } else {
        let f = File::open(Path::new(path)).map_err(|e| Error::io(&name, &e))?;
        Box::new(f)
    };
    wrap_as(raw, bytes).map_err(|e| Error::io(&name, &e))
}

/// Wrap any reader, decompressing it if its first bytes say so; UTF-8 text is checked as
/// it is read ([`Bytes::Utf8`]).
pub fn wrap(raw: Box<dyn Read + Send>) -> io::Result<(Input, Compression)> {
    wrap_as(raw, Bytes::Utf8)
}

/// [`wrap`], taking the bytes as `bytes` says.
pub fn wrap_as(raw: Box<dyn Read + Send>, bytes: Bytes) -> io::Result<(Input, Compression)> {
    let mut br = BufReader::with_capacity(BUFFER_SIZE, raw);
    let head = br.fill_buf()?;
    let kind = if head.starts_with(&[0x1f, 0x8b]) {
        Compression::Gzip
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Compression::Zstd
    } else {
        Compression::None
    };
    let text: Box<dyn Read + Send> = match kind {
        Compression::None => Box::new(br),
        Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(br)),
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(br)?),
    };
    let text: Box<dyn Read + Send> = match bytes {
        Bytes::Utf8 => Box::new(Utf8Check::new(text)),
        Bytes::Raw => text,
    };
    Ok((Box::new(BufReader::with_capacity(BUFFER_SIZE, text)), kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn read_all(mut i: Input) -> String {
        let mut s = String::new();
        i.read_to_string(&mut s).unwrap();
        s
    }

    #[test]
    fn plain_gzip_zstd() {
        let text = "1\ta\n\n";
        let (i, c) = wrap(Box::new(io::Cursor::new(text.as_bytes().to_vec()))).unwrap();
        assert_eq!(c, Compression::None);
        assert_eq!(read_all(i), text);

        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text.as_bytes()).unwrap();
        let (i, c) = wrap(Box::new(io::Cursor::new(gz.finish().unwrap()))).unwrap();
        assert_eq!(c, Compression::Gzip);
        assert_eq!(read_all(i), text);

        let z = zstd::stream::encode_all(text.as_bytes(), 1).unwrap();
        let (i, c) = wrap(Box::new(io::Cursor::new(z))).unwrap();
        assert_eq!(c, Compression::Zstd);
        assert_eq!(read_all(i), text);
    }
}

/// Where and why some bytes are not text: the first NUL byte or invalid UTF-8 sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotText {
    /// 1-based line.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u32,
    /// `a NUL byte` or `an invalid UTF-8 byte sequence`.
    pub what: &'static str,
}

/// The first problem that makes `bytes` no text at all (a NUL byte or invalid UTF-8),
/// with its line and column; `None` for UTF-8 text. Every reader uses it to say "this is
/// not a text file" before anything else. For the head of a longer file, pass the bytes
/// up to its last line end (a character may be cut at the end of the head).
pub fn not_text(bytes: &[u8]) -> Option<NotText> {
    let (at, what) = match (memchr::memchr(0, bytes), std::str::from_utf8(bytes).err()) {
        (Some(nul), Some(e)) if e.valid_up_to() < nul => {
            (e.valid_up_to(), "an invalid UTF-8 byte sequence")
        }
        (Some(nul), _) => (nul, "a NUL byte"),
        (None, Some(e)) => (e.valid_up_to(), "an invalid UTF-8 byte sequence"),
        (None, None) => return None,
    };
    let before = &bytes[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |k| k + 1);
    let column = String::from_utf8_lossy(&before[start..]).chars().count() as u32 + 1;
    Some(NotText { line, column, what })
}

#[cfg(test)]
mod not_text_tests {
    use super::{not_text, NotText};

    #[test]
    fn nul_and_invalid_utf8_with_their_position() {
        assert_eq!(not_text("a\tb\nc".as_bytes()), None);
        assert_eq!(
            not_text(b"ab\ncd\0"),
            Some(NotText {
                line: 2,
                column: 3,
                what: "a NUL byte"
            })
        );
        assert_eq!(
            not_text(b"\xffx\0"),
            Some(NotText {
                line: 1,
                column: 1,
                what: "an invalid UTF-8 byte sequence"
            })
        );
    }
}

/// Read a small text file whole (`-`, gzip and zstd as [`open`]): a byte-order mark is
/// dropped, and bytes that are not text are one error at their position saying so,
/// "expected `expected`".
pub fn read_text(path: &str, expected: &str) -> Result<String, Error> {
    let (input, _) = open(path)?;
    read_text_from(path, input, expected)
}

/// [`read_text`] of an open input named `name` (already decompressed: see [`wrap`]).
pub fn read_text_from(name: &str, mut input: impl Read, expected: &str) -> Result<String, Error> {
    let name: Arc<str> = Arc::from(name);
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(&name, &e))?;
    let body = bytes
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(&bytes);
    if let Some(NotText { line, column, what }) = not_text(body) {
        return Err(Error::single(crate::error::Diagnostic::error(
            crate::error::Position::new(name, line, column),
            crate::error::ErrorKind::Other(format!(
                "not a text file: expected {expected}, found {what}"
            )),
        )));
    }
    Ok(String::from_utf8_lossy(body).into_owned())
}

/// The warning of a file `path` that ends in the middle of its line `line` (no line end
/// after it), showing that line (`last`): it looks truncated, cut while it was written or
/// copied. Every reader of lines gives it, so that a cut file is never read in silence.
pub fn ends_mid_line(path: &Arc<str>, line: u64, last: &str) -> crate::error::Diagnostic {
    use crate::error::{Diagnostic, ErrorKind, Position, WarningKind};
    let last = last.strip_suffix('\r').unwrap_or(last);
    Diagnostic::warning(
        Position::new(path.clone(), line, 1),
        ErrorKind::Other(format!(
            "expected a line end after the last line, found the end of the file in the middle of line {line}: '{}'",
            crate::excerpt(last)
        )),
    )
    .of_kind(WarningKind::TruncatedFile)
    .with_hint("the file looks truncated (cut while it was written or copied): its last line is read as it is and may have lost words, links or candidates; if the file is whole, end it with a line end")
}

/// The digest of everything `input` holds (decompressed, as the readers see it):
/// `crc32:XXXXXXXX:BYTES`, its CRC-32 as gzip and zlib compute it (`zlib.crc32` in
/// Python) and its length in bytes. It names a file's contents in a state (`merge` tells
/// shards and systems by it) and tells whether two inputs hold the same text.
pub fn digest(mut input: impl Read) -> io::Result<String> {
    let mut hasher = crc32fast::Hasher::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut bytes = 0u64;
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        bytes += n as u64;
    }
    Ok(format!("crc32:{:08x}:{bytes}", hasher.finalize()))
}

#[cfg(test)]
mod digest_tests {
    #[test]
    fn digest_is_zlibs_crc32_and_the_length() {
        // zlib.crc32(b"123456789") == 0xcbf43926, the CRC-32 check value
        assert_eq!(
            super::digest(&b"123456789"[..]).unwrap(),
            "crc32:cbf43926:9"
        );
        assert_eq!(super::digest(&b""[..]).unwrap(), "crc32:00000000:0");
    }
}
