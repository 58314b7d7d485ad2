//! Measures over counts of scored words that `deps` keeps per sentence beside its own:
//! the extension point for a new word-level metric. A [`WordCount`] says which words it
//! counts (by relation label) and which of them are right; the observer keeps three
//! columns for it (right, gold words counted, system words counted) in every sentence's
//! [`AttachmentCounts`](super::AttachmentCounts), and its measure then has every report
//! section, interval and test that the other `deps` measures have.
//!
//! A new metric is one file implementing [`WordCount`] and one line in [`WORD_COUNTS`].

use crate::measure::Measure;

/// A count of scored words for one measure.
pub trait WordCount: Sync {
    /// Its column names: right, gold words counted, system words counted.
    fn columns(&self) -> [&'static str; 3];
    /// Its measure over those columns (their indexes in the sentence row).
    fn measure(&self, right: usize, gold: usize, system: usize) -> Measure;
    /// Whether a word with this relation label (in the label mode in force) is counted.
    fn counts_label(&self, label: &str) -> bool;
    /// When a counted gold word is right.
    fn right(&self) -> Right;
}

/// When a counted gold word is right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Right {
    /// Its head is right.
    Head,
    /// Its label is right.
    Label,
    /// Its head and its label are right.
    HeadAndLabel,
}

impl Right {
    /// Whether a word with this head and label outcome is right.
    #[inline]
    pub fn of(self, head_ok: bool, label_ok: bool) -> bool {
        match self {
            Right::Head => head_ok,
            Right::Label => label_ok,
            Right::HeadAndLabel => head_ok && label_ok,
        }
    }
}

/// The word counts every `deps` evaluation keeps, in report order.
pub const WORD_COUNTS: &[&dyn WordCount] = &[&super::clas::Clas];

/// How many columns they take in [`AttachmentCounts::extra`](super::AttachmentCounts).
pub const EXTRA: usize = 3 * WORD_COUNTS.len();
