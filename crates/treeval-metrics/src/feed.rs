//! Reading a file on its own thread into recycled batches of sentences, so memory stays
//! flat whatever the corpus size.

use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use treeval_formats::{Diagnostics, Error, Sentence};

use crate::deps::{FileSummary, Input};

const BATCH: usize = 64;

enum Msg {
    Batch(Vec<Sentence>),
    End(Box<(Diagnostics, FileSummary)>),
    Fatal(Error),
}

pub(crate) struct Feed {
    rx: Receiver<Msg>,
    recycle: SyncSender<Vec<Sentence>>,
    batch: Vec<Sentence>,
    pos: usize,
    end: Option<Box<(Diagnostics, FileSummary)>>,
}

impl Feed {
    /// The next sentence, or None at the end of the file.
    pub(crate) fn next(&mut self) -> Result<Option<&Sentence>, Error> {
        if self.pos >= self.batch.len() {
            if self.end.is_some() {
                return Ok(None);
            }
            let old = std::mem::take(&mut self.batch);
            if old.capacity() > 0 {
                let _ = self.recycle.try_send(old);
            }
            match self.rx.recv() {
                Ok(Msg::Batch(b)) => {
                    self.batch = b;
                    self.pos = 0;
                }
                Ok(Msg::End(e)) => {
                    self.end = Some(e);
                    return Ok(None);
                }
                Ok(Msg::Fatal(e)) => return Err(e),
                Err(_) => return Ok(None),
            }
        }
        self.pos += 1;
        Ok(Some(&self.batch[self.pos - 1]))
    }

    /// Drain to the end and return the reader's diagnostics and summary.
    pub(crate) fn finish(&mut self) -> Result<(Diagnostics, FileSummary), Error> {
        while self.next()?.is_some() {}
        Ok(*self.end.take().unwrap_or_else(|| {
            Box::new((
                Diagnostics::default(),
                FileSummary {
                    path: String::new(),
                    format: None,
                    sentences: 0,
                    words: 0,
                    lines: 0,
                },
            ))
        }))
    }
}

/// Read up to `max` sentences, the `n`th of the batch by `read(n)` (`Ok(false)` at the end
/// of the file): how many were read, and whether the file ended.
pub(crate) fn fill_batch(
    max: usize,
    mut read: impl FnMut(usize) -> Result<bool, Error>,
) -> Result<(usize, bool), Error> {
    for n in 0..max {
        if !read(n)? {
            return Ok((n, true));
        }
    }
    Ok((max, false))
}

/// In-memory inputs up to this size are read on the calling thread, before pairing: a
/// thread costs more than reading them (a 10-sentence call is dominated by the spawns).
const INLINE_BYTES: usize = 1 << 20;

pub(crate) fn spawn_reader<'s>(scope: &'s std::thread::Scope<'s, '_>, input: &'s Input) -> Feed {
    if input.data.as_ref().is_some_and(|d| d.len() <= INLINE_BYTES) {
        return read_inline(input);
    }
    let (tx, rx) = sync_channel::<Msg>(2);
    let (recycle, recycled) = sync_channel::<Vec<Sentence>>(4);
    scope.spawn(move || {
        if let Err(e) = produce(input, |m| tx.send(m).is_ok(), Some(&recycled)) {
            let _ = tx.send(Msg::Fatal(e));
        }
    });
    Feed {
        rx,
        recycle,
        batch: Vec::new(),
        pos: 0,
        end: None,
    }
}

/// A feed of a small in-memory input, read whole on the calling thread.
fn read_inline(input: &Input) -> Feed {
    let (tx, rx) = std::sync::mpsc::channel::<Msg>();
    // nothing is recycled: every batch stays in the channel until paired
    let (recycle, _) = sync_channel::<Vec<Sentence>>(0);
    if let Err(e) = produce(input, |m| tx.send(m).is_ok(), None) {
        let _ = tx.send(Msg::Fatal(e));
    }
    Feed {
        rx,
        recycle,
        batch: Vec::new(),
        pos: 0,
        end: None,
    }
}

/// The reader: batches to `send` until the end of the file (then the diagnostics and the
/// summary) or until the receiving side hangs up (`send` returns false); batches are
/// reused from `recycled` when given.
fn produce(
    input: &Input,
    send: impl Fn(Msg) -> bool,
    recycled: Option<&Receiver<Vec<Sentence>>>,
) -> Result<(), Error> {
    let mut rdr = input.open()?;
    let mut words = 0u64;
    loop {
        let mut batch: Vec<Sentence> = recycled.and_then(|r| r.try_recv().ok()).unwrap_or_default();
        let (n, done) = fill_batch(BATCH, |n| {
            if batch.len() <= n {
                batch.push(Sentence::new());
            }
            let read = rdr.read_sentence(&mut batch[n])?;
            if read {
                words += batch[n].len() as u64;
            }
            Ok(read)
        })?;
        batch.truncate(n);
        if n > 0 && !send(Msg::Batch(batch)) {
            return Ok(());
        }
        if done {
            let summary = FileSummary {
                path: input.path.clone(),
                format: rdr.format(),
                sentences: rdr.sentences_read(),
                words,
                lines: rdr.line(),
            };
            send(Msg::End(Box::new((rdr.take_diagnostics(), summary))));
            return Ok(());
        }
    }
}
