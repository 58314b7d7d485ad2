//! Opening inputs: files, `-` for standard input, gzip and zstd read transparently
//! (recognised by their magic bytes, whatever the file is called).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

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

/// Open `path` (`-` = standard input) for reading, decompressing gzip and zstd.
pub fn open(path: &str) -> Result<(Input, Compression), Error> {
    let name: Arc<str> = Arc::from(path);
    let raw: Box<dyn Read + Send> = if path == "-" {
        Box::new(io::stdin())
    } else {
        let f = File::open(Path::new(path)).map_err(|e| Error::io(&name, &e))?;
        Box::new(f)
    };
    wrap(raw).map_err(|e| Error::io(&name, &e))
}

/// Wrap any reader, decompressing it if its first bytes say so.
pub fn wrap(raw: Box<dyn Read + Send>) -> io::Result<(Input, Compression)> {
    let mut br = BufReader::with_capacity(BUFFER_SIZE, raw);
    let head = br.fill_buf()?;
    let kind = if head.starts_with(&[0x1f, 0x8b]) {
        Compression::Gzip
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Compression::Zstd
    } else {
        Compression::None
    };
    let input: Input = match kind {
        Compression::None => Box::new(br),
        Compression::Gzip => Box::new(BufReader::with_capacity(
            BUFFER_SIZE,
            flate2::bufread::MultiGzDecoder::new(br),
        )),
        Compression::Zstd => Box::new(BufReader::with_capacity(
            BUFFER_SIZE,
            zstd::stream::read::Decoder::with_buffer(br)?,
        )),
    };
    Ok((input, kind))
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
