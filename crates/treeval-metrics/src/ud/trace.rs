//! What the alignment made of every gold word, sentence by sentence, for an evenly spaced
//! sample of the gold sentences (asked with [`UdOptions::trace`](super::UdOptions::trace)): its form and gold arc, and the aligned
//! system word's arc mapped onto the gold words, with the head and label decisions the
//! UAS and LAS counts are made of. For error listings and the HTML sentence browser.

use super::window::{Side, F_KEPT, NONE, ROOT, W};
use super::{head_ok, UdCounts};
use crate::sample::EvenSample;

/// A gold word's analysis by the aligned system word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TracedSystem {
    /// Its head as a gold word of the sentence (1-based, 0 = root), `None` when the
    /// head is not aligned to a word of this gold sentence.
    pub head: Option<u32>,
    /// Its universal relation (an index into [`super::UdResult::trace_labels`]).
    pub label: u32,
    /// The head is right (the UAS decision).
    pub head_ok: bool,
    /// The relation is right.
    pub label_ok: bool,
}

/// One gold word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TracedWord {
    /// Its FORM.
    pub form: String,
    /// Its gold head (1-based in the sentence, 0 = root), `None` when it has none.
    pub head: Option<u32>,
    /// Its universal relation (an index into [`super::UdResult::trace_labels`]).
    pub label: u32,
    /// The aligned system word's analysis; `None` when no system word is aligned to it.
    pub system: Option<TracedSystem>,
    /// Whether it is scored: it meets the `--where` conditions (always without them).
    pub scored: bool,
}

/// One gold sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct TracedSentence {
    /// Its 1-based number in the gold file.
    pub index: u64,
    /// Its words.
    pub words: Vec<TracedWord>,
    /// Its counts (the same as the sentence's row of [`super::UdResult::sentences`]).
    pub counts: UdCounts,
}

/// The gold sentences of a flush: window sentences `gs0..ngs`, whose words end at `gn`.
pub(super) struct Flushed<'a> {
    pub g: &'a Side,
    pub s: &'a Side,
    /// System window word → gold window word.
    pub smap: &'a [u32],
    /// The aligned pairs (gold window word, system window word).
    pub pairs: &'a [(u32, u32)],
    pub gs0: usize,
    pub ngs: usize,
    pub gn: usize,
    /// Their counts, one per sentence.
    pub window: &'a [UdCounts],
    /// Whether `--where` keeps some gold words only (those with [`F_KEPT`]).
    pub filter: bool,
    /// Per sentence: whether the selection keeps it (only those are offered).
    pub keep: &'a [bool],
    /// Gold sentences flushed before these.
    pub first_index: u64,
}

/// A head (window index, [`ROOT`] or a mark) as a word of the sentence starting at
/// `first` and ending before `end` (1-based, 0 = root).
fn in_sentence(head: u32, first: usize, end: usize) -> Option<u32> {
    if head == ROOT {
        return Some(0);
    }
    let h = head as usize;
    (head < NONE && (first..end).contains(&h)).then(|| (h - first + 1) as u32)
}

impl Flushed<'_> {
    /// Offer every sentence of the flush to `sample` (built only when kept).
    pub fn offer_to(&self, sample: &mut EvenSample<TracedSentence>) {
        let front = self.g.front;
        let mut aligned = vec![NONE; self.gn.saturating_sub(front)];
        for &(gk, sk) in self.pairs {
            if let Some(a) = aligned.get_mut((gk as usize).wrapping_sub(front)) {
                *a = sk;
            }
        }
        for si in self.gs0..self.ngs {
            if !self.keep.get(si - self.gs0).copied().unwrap_or(true) {
                continue;
            }
            let index = self.first_index + (si - self.gs0) as u64 + 1;
            sample.offer(|| self.sentence(si, index, &aligned));
        }
    }

    /// Window sentence `si`, the `index`-th of the file; `aligned` maps the flush's gold
    /// words (from the front) to system words.
    fn sentence(&self, si: usize, index: u64, aligned: &[u32]) -> TracedSentence {
        let (front, sents) = (self.g.front, &self.g.flat.sents);
        let first = sents[si].first_word as usize;
        let end = sents
            .get(si + 1)
            .map_or(self.gn, |x| x.first_word as usize)
            .min(self.gn);
        let words = (first.max(front)..end)
            .map(|k| self.word(&self.g.flat.words[k], aligned[k - front], first, end))
            .collect();
        TracedSentence {
            index,
            words,
            counts: self.window.get(si - self.gs0).copied().unwrap_or_default(),
        }
    }

    /// Gold word `gw` of the sentence `first..end`, aligned to system word `sk`.
    fn word(&self, gw: &W, sk: u32, first: usize, end: usize) -> TracedWord {
        let system = (sk < NONE).then(|| {
            let sw = &self.s.flat.words[sk as usize];
            let mapped = if sw.parent == ROOT {
                ROOT
            } else if sw.parent < NONE {
                self.smap[sw.parent as usize]
            } else {
                NONE
            };
            TracedSystem {
                head: in_sentence(mapped, first, end),
                label: sw.label,
                head_ok: head_ok(self.smap, gw.parent, sw.parent),
                label_ok: gw.label == sw.label,
            }
        });
        TracedWord {
            form: String::from_utf8_lossy(self.g.field(gw, 0)).into_owned(),
            head: in_sentence(gw.parent, first, end),
            label: gw.label,
            system,
            scored: !self.filter || gw.flags & F_KEPT != 0,
        }
    }
}
