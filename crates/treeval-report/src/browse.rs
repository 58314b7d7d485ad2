//! The sentences behind a report, for the HTML page's sentence browser
//! (`docs/html-page.md`, data block version 1): per sentence the words, the gold and system
//! analyses with each error marked, and the per-sentence scores. Collected only when the page
//! is asked for; never part of the JSON report.

use serde::Serialize;

pub mod align;
pub mod deps;
pub mod ud;

pub use deps::DepsCollector;

/// Version of the data block the page's script reads.
pub const DATA_VERSION: u32 = 1;

/// A word's flags in a system's analysis (`docs/html-page.md`).
pub mod flags {
    /// The head is wrong.
    pub const HEAD: u8 = 1;
    /// The label is wrong.
    pub const LABEL: u8 = 2;
    /// The word is not scored (punctuation policy, or not kept by `--where`).
    pub const UNSCORED: u8 = 4;
    /// The word has no aligned system word (ud).
    pub const UNALIGNED: u8 = 8;
}

/// Which view the browser shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Dependency arcs (deps, ud, relations, ted).
    Deps,
    /// Constituency trees (brackets).
    Brackets,
    /// An alignment grid (align).
    Align,
}

/// One side of an aligned sentence: its words when known, else how many positions the
/// links use.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Words {
    /// Positions `0..n`.
    Count(u32),
    /// The words.
    Words(Vec<String>),
}

/// One sentence's analyses, by kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Analyses {
    /// Dependency trees over the gold words.
    Deps {
        /// Gold forms.
        words: Vec<String>,
        /// `[head, label]` per gold word (head 0 = root).
        gold: Vec<(i64, u32)>,
        /// Per system, `[head, label, flags]` per gold word (head -1 = none).
        sys: Vec<Vec<(i64, u32, u8)>>,
    },
    /// Bracketings over the same leaves.
    Brackets {
        /// The leaves.
        words: Vec<String>,
        /// Gold preterminal label per word.
        tags: Vec<u32>,
        /// `[label, start, end, matched]` (end exclusive).
        gold: Vec<(u32, u32, u32, u8)>,
        /// Per system, its brackets.
        sys: Vec<Vec<(u32, u32, u32, u8)>>,
    },
    /// Word alignments.
    Align {
        /// The source words (or their number).
        src: Words,
        /// The target words (or their number).
        tgt: Words,
        /// Sure links (0-based).
        sure: Vec<(u32, u32)>,
        /// Possible links that are not sure.
        possible: Vec<(u32, u32)>,
        /// Per system, its links.
        sys: Vec<Vec<(u32, u32)>>,
    },
}

/// One sentence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sentence {
    /// 1-based number in the corpus.
    pub i: u64,
    /// Its sent_id, when it has one.
    pub id: Option<String>,
    /// Per system, the per-sentence scores in the order of [`Browser::columns`] (percent).
    pub scores: Vec<Vec<Option<f64>>>,
    /// The analyses.
    #[serde(flatten)]
    pub analyses: Analyses,
}

/// The data block of the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Browser {
    /// [`DATA_VERSION`].
    pub version: u32,
    /// The view.
    pub kind: Kind,
    /// System names.
    pub systems: Vec<String>,
    /// Names of the per-sentence scores.
    pub columns: Vec<String>,
    /// Label strings the analyses refer to by index.
    pub labels: Vec<String>,
    /// Sentences in the corpus.
    pub total: u64,
    /// True when `sentences` holds fewer than `total`.
    pub sampled: bool,
    /// What was left out and why.
    pub note: String,
    /// The sentences.
    pub sentences: Vec<Sentence>,
}

/// Default number of sentences a page holds (the rest are sampled out).
pub const DEFAULT_LIMIT: usize = 5000;

/// The positions of the sentences a page of at most `limit` of `n` sentences keeps: all of
/// them, or `limit` evenly spaced ones (0 = no limit).
pub fn kept(n: usize, limit: usize) -> Vec<usize> {
    if n <= limit || limit == 0 {
        return (0..n).collect();
    }
    (0..limit).map(|k| k * n / limit).collect()
}

/// What a page that holds a sample of the sentences says about it.
pub(crate) const SAMPLED_NOTE: &str =
    "They are evenly spaced over the corpus; the scores above count every sentence.";

impl Browser {
    /// Keep at most `limit` sentences, evenly spaced over the corpus, and say so in `note`
    /// (`total` says how many the corpus has; fewer may have been collected already).
    pub fn thin(&mut self, limit: usize) {
        let n = self.sentences.len();
        let keep = kept(n, limit);
        if keep.len() < n {
            let mut all: Vec<Option<Sentence>> = std::mem::take(&mut self.sentences)
                .into_iter()
                .map(Some)
                .collect();
            self.sentences = keep.into_iter().filter_map(|k| all[k].take()).collect();
        }
        if (self.sentences.len() as u64) < self.total {
            self.sampled = true;
            self.note = SAMPLED_NOTE.to_owned();
        }
    }

    /// The data block as JSON safe inside a `<script>` element: `<`, `>` and `&` are
    /// written as `\u003c`, `\u003e`, `\u0026`.
    pub fn to_script_json(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_else(|_| "null".into());
        let mut out = String::with_capacity(json.len());
        for c in json.chars() {
            match c {
                '<' => out.push_str("\\u003c"),
                '>' => out.push_str("\\u003e"),
                '&' => out.push_str("\\u0026"),
                c => out.push(c),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn browser(n: u64) -> Browser {
        Browser {
            version: DATA_VERSION,
            kind: Kind::Deps,
            systems: vec!["s".into()],
            columns: vec!["LAS".into()],
            labels: vec!["<script>alert(1)</script>".into()],
            total: n,
            sampled: false,
            note: String::new(),
            sentences: (1..=n)
                .map(|i| Sentence {
                    i,
                    id: Some(format!("</script><b>{i}")),
                    scores: vec![vec![Some(100.0)]],
                    analyses: Analyses::Deps {
                        words: vec!["a&b".into()],
                        gold: vec![(0, 0)],
                        sys: vec![vec![(0, 0, 0)]],
                    },
                })
                .collect(),
        }
    }

    #[test]
    fn the_data_block_cannot_close_its_script_element() {
        let j = browser(2).to_script_json();
        assert!(
            !j.contains('<') && !j.contains('>') && !j.contains('&'),
            "{j}"
        );
        let back: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(back["labels"][0], "<script>alert(1)</script>");
        assert_eq!(back["sentences"][1]["id"], "</script><b>2");
        assert_eq!(back["sentences"][0]["words"][0], "a&b");
        assert_eq!(back["sentences"][0]["gold"][0], serde_json::json!([0, 0]));
        assert_eq!(back["kind"], "deps");
    }

    #[test]
    fn thinning_keeps_evenly_spaced_sentences_and_says_so() {
        let mut b = browser(10);
        b.thin(20);
        assert!(!b.sampled && b.sentences.len() == 10 && b.note.is_empty());
        b.thin(4);
        let kept: Vec<u64> = b.sentences.iter().map(|s| s.i).collect();
        assert_eq!(kept, [1, 3, 6, 8]);
        assert!(b.sampled && b.note == SAMPLED_NOTE);
    }
}
