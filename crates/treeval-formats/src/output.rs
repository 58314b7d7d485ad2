//! Writing output files: compressed by their name's extension (`.gz`: gzip, `.zst` or
//! `.zstd`: Zstandard), as every input is read compressed or not (by its first bytes,
//! [`crate::input::open`]), so that `--per-sentence ps.jsonl.gz` is a gzip file that
//! pandas, `zcat` and treeval itself read.

use std::fs::File;
use std::io::{self, BufWriter, Write};

use crate::input::Compression;

/// The compression an output named `path` is written with: by its extension
/// (case-insensitive), none for any other name.
pub fn compression_of(path: &str) -> Compression {
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".gz") {
        Compression::Gzip
    } else if lower.ends_with(".zst") || lower.ends_with(".zstd") {
        Compression::Zstd
    } else {
        Compression::None
    }
}

/// A writer that compresses into `w` as `kind` says. Call [`Output::finish`] to end the
/// stream and see its errors; dropped, it ends the stream too (errors unseen, as a
/// dropped `BufWriter`'s).
pub fn compressing<W: Write + Send + 'static>(kind: Compression, w: W) -> io::Result<Output> {
    Ok(match kind {
        Compression::None => Output::Plain(Box::new(w)),
        Compression::Gzip => Output::Gzip(flate2::write::GzEncoder::new(
            Box::new(w),
            flate2::Compression::default(),
        )),
        Compression::Zstd => Output::Zstd(Some(zstd::stream::write::Encoder::new(
            Box::new(w) as Box<dyn Write + Send>,
            0,
        )?)),
    })
}

/// Create the file `path`, compressed as its name says ([`compression_of`]).
pub fn create(path: &str) -> io::Result<Output> {
    let f = BufWriter::new(File::create(path)?);
    compressing(compression_of(path), f)
}

/// An output file, compressed or not.
pub enum Output {
    /// Written as given.
    Plain(Box<dyn Write + Send>),
    /// gzip.
    Gzip(flate2::write::GzEncoder<Box<dyn Write + Send>>),
    /// Zstandard (`None` once finished).
    Zstd(Option<zstd::stream::write::Encoder<'static, Box<dyn Write + Send>>>),
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Output::Plain(_) => "Output::Plain",
            Output::Gzip(_) => "Output::Gzip",
            Output::Zstd(_) => "Output::Zstd",
        })
    }
}

impl Output {
    /// End the compressed stream and flush everything to the file.
    pub fn finish(mut self) -> io::Result<()> {
        self.end()
    }

    fn end(&mut self) -> io::Result<()> {
        match self {
            Output::Plain(w) => w.flush(),
            Output::Gzip(g) => {
                g.try_finish()?;
                g.get_mut().flush()
            }
            Output::Zstd(z) => match z.take() {
                Some(e) => e.finish()?.flush(),
                None => Ok(()),
            },
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Plain(w) => w.write(buf),
            Output::Gzip(g) => g.write(buf),
            Output::Zstd(Some(z)) => z.write(buf),
            Output::Zstd(None) => Err(io::Error::other("the output was finished")),
        }
    }

    /// Everything written so far out to the file (a compressed stream is flushed, not
    /// ended: [`Output::finish`] or dropping it ends it).
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Plain(w) => w.flush(),
            Output::Gzip(g) => g.flush(),
            Output::Zstd(Some(z)) => z.flush(),
            Output::Zstd(None) => Ok(()),
        }
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        let _ = self.end();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn outputs_are_compressed_by_extension_and_read_back_by_the_inputs_rule() {
        let dir = std::env::temp_dir().join(format!("treeval-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, kind) in [
            ("a.jsonl", Compression::None),
            ("a.jsonl.gz", Compression::Gzip),
            ("a.json.GZ", Compression::Gzip),
            ("a.json.zst", Compression::Zstd),
            ("a.zstd", Compression::Zstd),
        ] {
            assert_eq!(compression_of(name), kind, "{name}");
            let path = dir.join(name);
            let path = path.to_str().unwrap();
            let mut w = create(path).unwrap();
            w.write_all(b"{\"x\":1}\n").unwrap();
            w.write_all(b"{\"x\":2}\n").unwrap();
            w.flush().unwrap();
            drop(w);
            let raw = std::fs::read(path).unwrap();
            let (mut input, found) = crate::input::open(path).unwrap();
            assert_eq!(found, kind, "{name}: {raw:?}");
            let mut text = String::new();
            input.read_to_string(&mut text).unwrap();
            assert_eq!(text, "{\"x\":1}\n{\"x\":2}\n", "{name}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
