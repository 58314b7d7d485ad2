//! Per-sentence records (`treeval.per-sentence/3`, [`treeval_report::records`]): a header
//! line, then one record per unit (sentence, tree or sentence pair) and system, written
//! to the [`Sink`] of [`crate::Common`]. Write errors are kept and returned once, by
//! [`Records::finish`].

use crate::{Error, Sink};

/// The schema of the per-sentence header line.
pub use treeval_report::records::SCHEMA as PER_SENTENCE_SCHEMA;
use treeval_report::records::{json_line, Header, Record};

/// A per-sentence writer (on or off).
#[derive(Debug)]
pub struct Records {
    sink: Option<Sink>,
    error: Option<std::io::Error>,
}

impl Records {
    /// Records of `command` to `sink` (none: nothing is written), the header naming the
    /// `inputs` as `(role, name)`.
    pub fn open(sink: Option<&Sink>, command: &str, inputs: &[(&str, &str)]) -> Self {
        let mut r = Records {
            sink: sink.cloned(),
            error: None,
        };
        if r.is_on() {
            r.line(&Header::new(command, inputs));
        }
        r
    }

    /// Whether records are written.
    pub fn is_on(&self) -> bool {
        self.sink.is_some()
    }

    /// Write one record as a line.
    pub fn write(&mut self, r: &Record) {
        self.line(r);
    }

    fn line(&mut self, v: &impl serde::Serialize) {
        if self.error.is_some() {
            return;
        }
        let Some(sink) = &self.sink else {
            return;
        };
        let r = match sink.writer.lock() {
            Ok(mut w) => json_line(&mut *w, v),
            Err(_) => Err(std::io::Error::other("the writer was poisoned")),
        };
        self.error = r.err();
    }

    /// Flush; the first write error, if any, is an error.
    pub fn finish(self) -> Result<(), Error> {
        let Some(sink) = self.sink else {
            return Ok(());
        };
        let flushed = match sink.writer.lock() {
            Ok(mut w) => w.flush(),
            Err(_) => Err(std::io::Error::other("the writer was poisoned")),
        };
        match self.error.or_else(|| flushed.err()) {
            None => Ok(()),
            Some(e) => Err(Error::Eval(format!(
                "{}: cannot write the per-sentence file: {e}",
                sink.name
            ))),
        }
    }
}
