//! The state of a `ted` (TedEval) evaluation: every experiment's files, repairs and
//! attachment counts, the run's sentence counts and generalized-gold sizes, and every
//! sentence's integers per experiment (always kept: the mean of the sentence scores,
//! `TedEval-mean`, is a sum of floats that only the rows give bit-identically).

use serde::{Deserialize, Serialize};
use treeval_metrics::tedeval::run::{ExperimentResult, RunSummary, TedEvalResult};
use treeval_metrics::tedeval::{Repairs, TedEvalCounts};
use treeval_metrics::{AttachmentCounts, DepsOptions};

use super::{concat_rows, diagnostics, DepsState, Family, FileState, State, TedStateOptions};
use crate::model::Warning;

/// One sentence of one experiment: `[sentences, delta, delta_new, normalizer,
/// terminal_edits]` (sentences 0: not scored, over a size or cost limit).
pub type TedRow = [u64; 5];

/// The state of a `ted` evaluation.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TedState {
    /// One per experiment (`--exp`, or `--parse` against `--gold`), in the order given.
    pub experiments: Vec<TedExperimentState>,
    /// Sentences read (every file has this many).
    pub read: u64,
    /// Sentences scored.
    pub scored: u64,
    /// Sentences over the edit distance's limits (5000 words, `--max-cost`), and their
    /// words.
    pub too_large: (u64, u64),
    /// Sizes of the generalized gold.
    pub summary: RunSummary,
    /// The warnings found while reading and scoring, in the order found (the report's
    /// form; not the corpus checks of the dependency experiments nor the warning made
    /// when no sentence was scored, which are made again from the merged counts).
    pub warnings: Vec<Warning>,
    /// Warnings seen but not kept.
    pub omitted_warnings: u64,
    /// Per experiment, every sentence's [`TedRow`], in corpus order.
    pub sentences: Vec<Vec<TedRow>>,
}

/// One experiment's sums in a `ted` state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TedExperimentState {
    /// The experiment's name (with `--parse`: the parse's path; merged: the shards'
    /// names joined by ` + ` when they differ).
    pub name: String,
    /// The gold file.
    pub gold: FileState,
    /// The parse file.
    pub parse: FileState,
    /// LAS and UAS counts against its own gold (dependency experiments only).
    pub attachment: Option<AttachmentCounts>,
    /// Nodes of its gold trees over the scored sentences (0 in states written before
    /// it was kept).
    #[serde(default)]
    pub gold_nodes: u64,
    /// Repairs of the gold trees before conversion.
    pub gold_repairs: Repairs,
    /// Repairs of the parse trees.
    pub parse_repairs: Repairs,
    /// A dependency experiment's `deps` counts over every sentence (for the corpus
    /// checks of its label inventories; without warnings or per-sentence rows).
    pub deps: Option<DepsState>,
}

fn row(c: &TedEvalCounts) -> TedRow {
    [
        c.sentences,
        c.delta,
        c.delta_new,
        c.normalizer,
        c.terminal_edits,
    ]
}

fn counts(r: &TedRow) -> TedEvalCounts {
    if r[0] == 0 {
        TedEvalCounts::default()
    } else {
        TedEvalCounts::sentence(r[1], r[2], r[3], r[4])
    }
}

fn add_repairs(a: &mut Repairs, b: &Repairs) {
    a.bad_heads += b.bad_heads;
    a.cycles += b.cycles;
}

impl State {
    /// The state of a TedEval run `r` (which kept its sentences) under `options`.
    pub fn of_ted(r: &TedEvalResult, options: TedStateOptions) -> Self {
        let ted = TedState {
            experiments: r
                .experiments
                .iter()
                .map(|x| TedExperimentState {
                    name: x.name.clone(),
                    gold: FileState::of(&x.gold),
                    parse: FileState::of(&x.parse),
                    attachment: x.attachment,
                    gold_nodes: x.gold_nodes,
                    gold_repairs: x.gold_repairs,
                    parse_repairs: x.parse_repairs,
                    deps: x
                        .deps
                        .as_ref()
                        .map(|d| DepsState::of(d, &[], !d.sentences.is_empty())),
                })
                .collect(),
            read: r.sentences,
            scored: r.scored,
            too_large: r.too_large,
            summary: r.summary,
            warnings: crate::model::warnings_of(&r.warnings),
            omitted_warnings: crate::model::unlisted_warnings(&r.warnings),
            sentences: (r.experiments.iter())
                .map(|x| x.sentences.iter().map(row).collect())
                .collect(),
        };
        State::new(Family::Ted {
            options,
            counts: ted,
        })
    }
}

impl TedState {
    /// Add a later shard (experiments by position).
    pub(super) fn add(&mut self, o: TedState) {
        for (a, b) in self.experiments.iter_mut().zip(&o.experiments) {
            if a.name != b.name {
                a.name = format!("{} + {}", a.name, b.name);
            }
            a.gold.add(&b.gold);
            a.parse.add(&b.parse);
            if let (Some(x), Some(y)) = (a.attachment.as_mut(), b.attachment) {
                *x += y;
            }
            a.gold_nodes += b.gold_nodes;
            add_repairs(&mut a.gold_repairs, &b.gold_repairs);
            add_repairs(&mut a.parse_repairs, &b.parse_repairs);
            if let (Some(x), Some(y)) = (a.deps.as_mut(), b.deps.clone()) {
                x.add(y);
            }
        }
        self.read += o.read;
        self.scored += o.scored;
        self.too_large.0 += o.too_large.0;
        self.too_large.1 += o.too_large.1;
        self.summary.generalized_nodes += o.summary.generalized_nodes;
        self.summary.first_gold_nodes += o.summary.first_gold_nodes;
        for w in o.warnings {
            Warning::add_shard(&mut self.warnings, w, false);
        }
        self.omitted_warnings += o.omitted_warnings;
        let rows = concat_rows(Some(std::mem::take(&mut self.sentences)), Some(o.sentences));
        self.sentences = rows.unwrap_or_default();
    }

    /// The result the `ted` report is built from: every experiment's totals summed from
    /// its rows in corpus order (as one run sums them), the warnings as one run keeps
    /// them (the first `warn_limit`, the others counted); no sentence selection, no
    /// `--errors` edits. The caller runs [`TedEvalResult::corpus_checks`] on it, as
    /// `evaluate` does.
    pub fn into_result(self, warn_limit: usize) -> TedEvalResult {
        let n = self.sentences.first().map_or(0, Vec::len) as u64;
        let experiments = (self.experiments.into_iter())
            .zip(self.sentences)
            .map(|(x, rows)| {
                let sentences: Vec<TedEvalCounts> = rows.iter().map(counts).collect();
                let mut total = TedEvalCounts::default();
                for c in &sentences {
                    total += *c;
                }
                ExperimentResult {
                    name: x.name,
                    gold: x.gold.summary(),
                    parse: x.parse.summary(),
                    attachment: x.attachment,
                    counts: total,
                    gold_nodes: x.gold_nodes,
                    gold_repairs: x.gold_repairs,
                    parse_repairs: x.parse_repairs,
                    sentences,
                    edits: Vec::new(),
                    deps: (x.deps).map(|d| d.into_result(&DepsOptions::default(), warn_limit)),
                }
            })
            .collect();
        let mut selection = treeval_metrics::select::SelectionCounts::default();
        selection.kept = self.read;
        TedEvalResult {
            experiments,
            sentences: self.read,
            scored: self.scored,
            skipped_long: (0, 0),
            selection,
            numbers: (1..=n).collect(),
            too_large: self.too_large,
            warnings: diagnostics(self.warnings, self.omitted_warnings, warn_limit),
            summary: self.summary,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_gives_back_the_sentence_counts_bit_for_bit() {
        // δ_new 1 of ι 3: 1 − 1/3, whose float is not a short decimal
        let c = TedEvalCounts::sentence(2, 1, 3, 0);
        assert_eq!(row(&c), [1, 2, 1, 3, 0]);
        assert_eq!(counts(&row(&c)), c);
        assert_eq!(counts(&row(&c)).sum_sentence_score, 1.0 - 1.0 / 3.0);
        // not scored: zeros, as the run keeps them
        let none = TedEvalCounts::default();
        assert_eq!(counts(&row(&none)), none);
        // no nodes: score 1
        assert_eq!(TedEvalCounts::sentence(0, 0, 0, 0).sum_sentence_score, 1.0);
    }
}
