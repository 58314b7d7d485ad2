//! The sentence browser's data for `brackets` (`--format html`; `docs/html-page.md`, kind
//! `brackets`): per scored sentence the scored words, the gold tags, the gold brackets and
//! each test file's brackets as EVALB counts them, each flagged matched or not, and the
//! sentence's recall, precision and F.

use std::collections::BTreeMap;

use treeval_metrics::brackets::by::{Counted, ScoredBrackets};
use treeval_metrics::brackets::{BracketCounts, BracketResult, SentenceRow};

use crate::browse::{Analyses, Browser, Kind, Sentence, DATA_VERSION};
use treeval_metrics::LabelTable;

/// A bracket as the data block writes it: `[label, start, end, matched]`.
type Bracket = (u32, u32, u32, u8);

/// One sentence as far as the test files read so far have scored it.
#[derive(Debug)]
struct Entry {
    words: Vec<String>,
    tags: Vec<u32>,
    gold: Vec<Bracket>,
    sys: Vec<Vec<Bracket>>,
    scores: Vec<Vec<Option<f64>>>,
}

/// Collects the browser's sentences test file by test file ([`BracketsBrowser::add`]),
/// then gives the data block ([`BracketsBrowser::finish`]). A sentence is on the page when
/// every test file's pair was scored (EVALB status 0) over the same gold words.
#[derive(Debug, Default)]
pub struct BracketsBrowser {
    labels: LabelTable,
    systems: Vec<String>,
    sentences: BTreeMap<u64, Entry>,
}

impl BracketsBrowser {
    /// An empty collector.
    pub fn new() -> Self {
        Self::default()
    }

    /// The page's index of a label string.
    fn label(&mut self, name: &str) -> u32 {
        self.labels.intern(name)
    }

    /// The brackets of a sentence with the page's label indices.
    fn brackets(&mut self, names: &[String], bs: &[Counted]) -> Vec<Bracket> {
        bs.iter()
            .map(|b| {
                let name = names.get(b.label as usize).map_or("", String::as_str);
                (self.label(name), b.start, b.end, u8::from(b.matched))
            })
            .collect()
    }

    /// Add test file `path`'s scored sentences (`r.sentences`, kept with
    /// `Params::keep_brackets`), which it gives up.
    pub fn add(&mut self, path: &str, r: &mut BracketResult) {
        let k = self.systems.len();
        self.systems.push(path.to_owned());
        let names = std::mem::take(&mut r.label_names);
        for s in std::mem::take(&mut r.sentences) {
            let scores = row_of(&r.rows, s.id).map_or(vec![None; 3], scores);
            self.sentence(k, &names, s, scores);
        }
    }

    /// Add scored sentence `s` of test file `k`.
    fn sentence(
        &mut self,
        k: usize,
        names: &[String],
        s: ScoredBrackets,
        scores: Vec<Option<f64>>,
    ) {
        let test = self.brackets(names, &s.test);
        if k == 0 {
            let gold = self.brackets(names, &s.gold);
            let tags = s
                .tags
                .iter()
                .map(|&t| self.label(names.get(t as usize).map_or("", String::as_str)))
                .collect();
            self.sentences.insert(
                s.id,
                Entry {
                    words: s.words,
                    tags,
                    gold,
                    sys: vec![test],
                    scores: vec![scores],
                },
            );
            return;
        }
        let gold = self.brackets(names, &s.gold);
        let Some(e) = self.sentences.get_mut(&s.id) else {
            return;
        };
        let same = |a: &Bracket, b: &Bracket| (a.0, a.1, a.2) == (b.0, b.1, b.2);
        if e.sys.len() != k
            || e.words != s.words
            || e.gold.len() != gold.len()
            || !e.gold.iter().zip(&gold).all(|(a, b)| same(a, b))
        {
            return;
        }
        // a gold bracket is matched on the page when every test file matched it
        for (a, b) in e.gold.iter_mut().zip(&gold) {
            a.3 &= b.3;
        }
        e.sys.push(test);
        e.scores.push(scores);
    }

    /// The data block: the sentences every test file scored, at most `limit` of them
    /// (evenly spaced beyond); `total` is the number of sentences in the corpus.
    pub fn finish(self, total: u64, limit: usize) -> Browser {
        let n = self.systems.len();
        let sentences: Vec<Sentence> = self
            .sentences
            .into_iter()
            .filter(|(_, e)| e.sys.len() == n)
            .map(|(i, e)| Sentence {
                i,
                id: None,
                scores: e.scores,
                analyses: Analyses::Brackets {
                    words: e.words,
                    tags: e.tags,
                    gold: e.gold,
                    sys: e.sys,
                },
            })
            .collect();
        let left = total.saturating_sub(sentences.len() as u64);
        let mut b = Browser {
            version: DATA_VERSION,
            kind: Kind::Brackets,
            systems: self.systems,
            columns: vec!["recall".into(), "precision".into(), "F".into()],
            labels: self.labels.to_names(),
            total: sentences.len() as u64,
            sampled: false,
            note: String::new(),
            sentences,
        };
        // sampled (and said so) only when the scored sentences are more than the page holds
        b.thin(limit);
        b.total = total;
        b.sampled = (b.sentences.len() as u64) < total;
        if left > 0 {
            let own = format!(
                "{left} of the {total} sentences are not on the page: they are not in the scores{} (error or skipped sentences left out: a malformed gold tree, a gold tree without words, or --error-sentences excluded)",
                if n > 1 { " for every system file" } else { "" }
            );
            b.note = if b.note.is_empty() {
                own
            } else {
                format!("{own}; {}", b.note)
            };
        }
        b
    }
}

/// The row of sentence `id` (rows in order of id; a sentence selection or a `--where`
/// length condition leaves some out).
fn row_of(rows: &[SentenceRow], id: u64) -> Option<&SentenceRow> {
    let k = rows.binary_search_by_key(&id, |r| r.id).ok()?;
    rows.get(k)
}

/// A sentence's recall, precision and F in percent (`None` when not applicable).
fn scores(r: &SentenceRow) -> Vec<Option<f64>> {
    let s = BracketCounts::of_row(r).scores();
    [s.recall, s.precision, s.fmeasure]
        .into_iter()
        .map(|x| x.map(|v| 100.0 * v))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use treeval_formats::bracket::{BracketReader, Layout};
    use treeval_metrics::brackets::{evaluate_inline, Params};

    fn result(g: &str, t: &str) -> BracketResult {
        let mut p = Params::collins();
        p.keep_brackets = true;
        let mut gr = BracketReader::new(g.as_bytes(), "g", Layout::Line);
        let mut tr = BracketReader::new(t.as_bytes(), "t", Layout::Line);
        evaluate_inline(&mut gr, &mut tr, &p, None).unwrap()
    }

    #[test]
    fn scored_sentences_with_their_flags_and_a_note_for_the_others() {
        let g = "(S (NP (A a) (B b)) (VP (C c)))\n(S (A x))\n(S (NP (A a)) (VP (B b)))\n";
        let t1 = "(S (NP (A a) (B b)) (NP (C c)))\n\n(S (NP (A a)) (VP (B b)))\n";
        let t2 = "(S (NP (A a) (B b)) (VP (C c)))\n(S (A x))\n(S (VP (A a)) (VP (B b)))\n";
        let mut c = BracketsBrowser::new();
        let (mut r1, mut r2) = (result(g, t1), result(g, t2));
        c.add("t1", &mut r1);
        c.add("t2", &mut r2);
        let b = c.finish(3, crate::browse::DEFAULT_LIMIT);
        assert_eq!(b.kind, Kind::Brackets);
        let kept: Vec<u64> = b.sentences.iter().map(|s| s.i).collect();
        assert_eq!(kept, [1, 3], "sentence 2 is skipped by t1");
        assert!(b.note.starts_with("1 of the 3 sentences"), "{}", b.note);
        let Analyses::Brackets {
            words,
            gold,
            sys,
            tags,
        } = &b.sentences[0].analyses
        else {
            panic!("brackets expected");
        };
        assert_eq!(words, &["a", "b", "c"]);
        assert_eq!(b.labels[tags[2] as usize], "C");
        // gold VP over c is missed by t1: not matched by every test file
        let vp = gold
            .iter()
            .find(|x| b.labels[x.0 as usize] == "VP")
            .unwrap();
        assert_eq!((vp.1, vp.2, vp.3), (2, 3, 0));
        let matched: u64 = sys[0].iter().map(|x| u64::from(x.3)).sum();
        assert_eq!(matched, r1.rows[0].matched);
        assert_eq!(b.sentences[0].scores[1], vec![Some(100.0); 3]);
    }
}
