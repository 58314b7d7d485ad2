//! The training set: every sentence's candidates as sparse feature vectors (over the
//! features seen in training, numbered densely) with their evaluation scores, read from
//! (gold, n-best) file pairs with the `nbest` reader and scorer.

use std::collections::HashMap;
use std::io::BufRead;

use treeval_formats::nbest::{NbestPairing, NbestReader};
use treeval_formats::{Error, Reader, ReaderBuilder};
use treeval_metrics::nbest::{CandidateScore, Metric, Scorer};
use treeval_metrics::DepsOptions;

use crate::features::{merge, Extractor, Hashed, Named};

/// What one training file pair held.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FileSummary {
    /// The gold file.
    pub gold: String,
    /// The n-best file.
    pub nbest: String,
    /// Sentences read.
    pub sentences: u64,
    /// Candidates read.
    pub candidates: u64,
    /// Sentences kept for training (at least two candidates with different scores).
    pub informative: u64,
    /// Sentences left out: one candidate only.
    pub single: u64,
    /// Sentences left out: every candidate scores the same (or none has a score).
    pub tied: u64,
}

/// Candidates as sparse vectors over dense feature numbers, grouped by sentence.
#[derive(Debug, Clone, Default)]
pub struct TrainingSet {
    /// Per candidate, the start of its features (one more entry than candidates).
    pub feat_start: Vec<usize>,
    /// Dense feature numbers.
    pub feat_idx: Vec<u32>,
    /// Feature values.
    pub feat_val: Vec<f32>,
    /// Per sentence, the start of its candidates (one more entry than sentences).
    pub sent_start: Vec<usize>,
    /// Per candidate, its counts against gold.
    pub scores: Vec<CandidateScore>,
    /// Dense number → hashed index.
    pub hashed: Vec<u32>,
    dense: HashMap<u32, u32>,
    /// Per file pair.
    pub files: Vec<FileSummary>,
    /// The metric the candidates are judged by.
    pub metric: Option<Metric>,
    /// The readers' and the scorer's warnings (malformed candidate trees, gold-tree
    /// problems: examples, as `treeval nbest` keeps them).
    pub warnings: Vec<treeval_formats::Diagnostic>,
    /// When `Some` before reading: every hashed index's feature string (see
    /// [`crate::features::Named`]), to name the strongest weights.
    pub names: Option<HashMap<u32, String>>,
}

impl TrainingSet {
    /// An empty set judged by `metric`.
    pub fn new(metric: Metric) -> Self {
        TrainingSet {
            feat_start: vec![0],
            sent_start: vec![0],
            metric: Some(metric),
            ..TrainingSet::default()
        }
    }

    /// Sentences.
    pub fn sentences(&self) -> usize {
        self.sent_start.len() - 1
    }

    /// Candidates.
    pub fn candidates(&self) -> usize {
        self.scores.len()
    }

    /// Dense features.
    pub fn dimension(&self) -> usize {
        self.hashed.len()
    }

    /// The candidates of sentence `s` (a range of candidate numbers).
    pub fn sentence(&self, s: usize) -> std::ops::Range<usize> {
        self.sent_start[s]..self.sent_start[s + 1]
    }

    /// The features of candidate `c`.
    pub fn features(&self, c: usize) -> (&[u32], &[f32]) {
        let r = self.feat_start[c]..self.feat_start[c + 1];
        (&self.feat_idx[r.clone()], &self.feat_val[r])
    }

    /// The evaluation score (percent) of candidate `c` under the set's metric, if any.
    pub fn score(&self, c: usize) -> Option<f64> {
        let m = self.metric.unwrap_or(Metric::Las);
        m.sentence_score(m.triples(&self.scores[c]))
            .map(|x| 100.0 * x)
    }

    pub(crate) fn push_sentence(&mut self, cands: &[(Vec<(u32, f64)>, CandidateScore)]) {
        for (feats, score) in cands {
            for &(h, v) in feats {
                let next = self.hashed.len() as u32;
                let d = *self.dense.entry(h).or_insert(next);
                if d == next {
                    self.hashed.push(h);
                }
                self.feat_idx.push(d);
                self.feat_val.push(v as f32);
            }
            self.feat_start.push(self.feat_idx.len());
            self.scores.push(*score);
        }
        self.sent_start.push(self.scores.len());
    }

    /// Read the pair `gold`, `nbest`, scoring with `opts` and extracting with `ex` into
    /// 2^`bits` indexes. Sentences with one candidate, or whose candidates all score the
    /// same, teach nothing about the choice and are counted, not kept.
    pub fn read_pair(
        &mut self,
        gold: &str,
        nbest: &str,
        opts: &DepsOptions,
        ex: &mut Extractor,
        bits: u32,
    ) -> Result<(), Error> {
        let b = ReaderBuilder::new();
        let readers = (b.from_path(gold)?, b.from_path(nbest)?);
        self.read_readers((gold, nbest), readers, opts, ex, bits, &mut |_| {})
    }

    /// [`TrainingSet::read_pair`] of two open readers (a gold file and its n-best list,
    /// from files or from memory), named `names` in the summary.
    pub fn read_readers<G: BufRead, N: BufRead>(
        &mut self,
        names: (&str, &str),
        readers: (Reader<G>, Reader<N>),
        opts: &DepsOptions,
        ex: &mut Extractor,
        bits: u32,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), Error> {
        let (gold, nbest) = names;
        let mut pairs = NbestPairing::new(readers.0, NbestReader::new(readers.1));
        let mut scorer = Scorer::new(opts);
        let mut scored = Vec::new();
        let mut sum = FileSummary {
            gold: gold.into(),
            nbest: nbest.into(),
            ..FileSummary::default()
        };
        let mut buf: Vec<(u32, f64)> = Vec::new();
        let mut group: Vec<(Vec<(u32, f64)>, CandidateScore)> = Vec::new();
        while pairs.next_sentence()? {
            let (gp, np) = (pairs.gold_path().clone(), pairs.nbest_path().clone());
            scorer.score(
                &pairs.gold_sentence,
                &gp,
                &pairs.candidates,
                &np,
                &mut scored,
            )?;
            sum.sentences += 1;
            sum.candidates += scored.len() as u64;
            if sum.sentences % 64 == 0 {
                progress(sum.sentences);
            }
            let m = self.metric.unwrap_or(Metric::Las);
            let ys: Vec<Option<f64>> = scored
                .iter()
                .map(|c| m.sentence_score(m.triples(c)))
                .collect();
            if scored.len() < 2 {
                sum.single += 1;
                continue;
            }
            if ys[0].is_none() || ys.iter().all(|y| *y == ys[0]) {
                sum.tied += 1;
                continue;
            }
            sum.informative += 1;
            group.clear();
            for (c, s) in pairs.candidates.iter().zip(&scored) {
                buf.clear();
                let mut hashed = Hashed {
                    bits,
                    out: &mut buf,
                };
                match self.names.as_mut() {
                    Some(names) => {
                        let mut named = Named { hashed, names };
                        ex.extract(&c.sentence, c.parser_score, &mut named);
                    }
                    None => ex.extract(&c.sentence, c.parser_score, &mut hashed),
                }
                merge(&mut buf);
                group.push((buf.clone(), *s));
            }
            self.push_sentence(&group);
        }
        self.warnings.extend(pairs.warnings().cloned());
        self.warnings
            .extend(scorer.gold_warnings().0.iter().cloned());
        self.warnings
            .extend(scorer.observer().examples.iter().cloned());
        self.files.push(sum);
        Ok(())
    }

    /// The sentences `keep` (in order) as a set of their own (same feature numbering).
    pub fn subset(&self, keep: &[usize]) -> TrainingSet {
        let mut t = TrainingSet {
            feat_start: vec![0],
            sent_start: vec![0],
            hashed: self.hashed.clone(),
            metric: self.metric,
            ..TrainingSet::default()
        };
        for &s in keep {
            for c in self.sentence(s) {
                let (i, v) = self.features(c);
                t.feat_idx.extend_from_slice(i);
                t.feat_val.extend_from_slice(v);
                t.feat_start.push(t.feat_idx.len());
                t.scores.push(self.scores[c]);
            }
            t.sent_start.push(t.scores.len());
        }
        t
    }
}
