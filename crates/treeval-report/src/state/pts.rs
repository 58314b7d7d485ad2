//! The state of a `pts` evaluation (the joint parallel-treebank score): both sides' gold
//! files, every system's files, summed PTS row and alignment counts, McNemar's paired
//! UAS decisions of each side (with `--test mcnemar`), the warnings, and every sentence
//! pair's row when kept. The rows are integer counts, so their sums do not depend on
//! the order they are added in.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use treeval_metrics::align::AlignCounts;
use treeval_metrics::deps::{FileSummary, PairCounts};
use treeval_metrics::pts::{PtsCounts, Weights, COLUMNS};

use super::{add_pairs, concat_rows, FileState, State};
use crate::model::Warning;
use crate::pts::{PtsFiles, PtsIn, PtsSide};

/// One sentence pair's (or summed) PTS columns as integers: `[uas_a, words_a, uas_b,
/// words_b, a, s, a_and_s, a_and_p]`.
pub type PtsRow = [u64; COLUMNS];

/// The state of a `pts` evaluation.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PtsState {
    /// Side a's gold parses.
    pub gold_a: FileState,
    /// Side b's gold parses.
    pub gold_b: FileState,
    /// The gold alignment (merged: the shards' paths joined by ` + `).
    pub gold_align: String,
    /// One per system, in the order given.
    pub systems: Vec<PtsSystemState>,
    /// Side a's paired decisions of every two systems (with `--test mcnemar`).
    pub pairs_a: Vec<PairCounts>,
    /// Side b's.
    pub pairs_b: Vec<PairCounts>,
    /// The warnings of reading side a's parses, side b's, and the alignments (with their
    /// pairing), in the order found.
    pub warnings: [Vec<Warning>; 3],
    /// Every sentence pair's row, per system (with `--keep-sentences`, `--test` or
    /// `--ci`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sentences: Option<Vec<Vec<PtsRow>>>,
}

/// One system of a `pts` state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PtsSystemState {
    /// Its side-a parses, side-b parses and alignment (merged: joined by ` + `).
    pub files: [String; 3],
    /// Its alignment's counts against the gold alignment.
    pub alignment: AlignCounts,
    /// Its summed PTS row.
    pub totals: PtsRow,
}

/// A `pts` evaluation as the state records it.
#[derive(Debug, Clone, Copy)]
pub struct PtsRun<'a> {
    /// The evaluation.
    pub e: &'a PtsIn<'a>,
    /// `--punct` (its name).
    pub punct: &'a str,
    /// `--reverse`.
    pub reverse: bool,
    /// Whether the paired decisions were counted (`--test mcnemar`).
    pub pair_decisions: bool,
    /// Whether the rows are kept.
    pub keep_sentences: bool,
}

fn to_row(c: &PtsCounts) -> PtsRow {
    c.0.map(|x| x as u64)
}

fn of_row(r: &PtsRow) -> PtsCounts {
    PtsCounts(r.map(|x| x as f64))
}

/// The weights as the signature writes them, `a,b,ab` (Rust's shortest round-trip
/// decimals, read back exactly).
pub fn weights_text(w: Weights) -> String {
    format!("{},{},{}", w.a, w.b, w.ab)
}

/// The weights of [`weights_text`].
pub fn parse_weights(text: &str) -> Option<Weights> {
    let v: Vec<f64> = text
        .split(',')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    match v[..] {
        [a, b, ab] => Some(Weights { a, b, ab }),
        _ => None,
    }
}

impl State {
    /// The state of a `pts` evaluation; `warnings`: those of side a, side b and the
    /// alignments.
    pub fn of_pts(run: &PtsRun<'_>, warnings: [Vec<Warning>; 3]) -> Self {
        use serde_json::json;
        let e = run.e;
        let f = e.files;
        let mut options = BTreeMap::new();
        options.insert("punct".into(), json!(run.punct));
        options.insert("weights".into(), json!(weights_text(e.weights)));
        options.insert("reverse".into(), json!(run.reverse));
        options.insert("pair_decisions".into(), json!(run.pair_decisions));
        let systems = (e.units.iter().zip(e.aligned).enumerate())
            .map(|(k, (units, al))| {
                let mut t = PtsCounts::default();
                for u in units {
                    t += *u;
                }
                PtsSystemState {
                    files: [&f.sys_a[k], &f.sys_b[k], &f.sys_align[k]].map(String::clone),
                    alignment: treeval_metrics::align::sum(al),
                    totals: to_row(&t),
                }
            })
            .collect();
        let pts = PtsState {
            gold_a: FileState::of(e.side_a.gold),
            gold_b: FileState::of(e.side_b.gold),
            gold_align: f.gold_align.to_owned(),
            systems,
            pairs_a: e.side_a.pairs.to_vec(),
            pairs_b: e.side_b.pairs.to_vec(),
            warnings,
            sentences: run.keep_sentences.then(|| {
                e.units
                    .iter()
                    .map(|u| u.iter().map(to_row).collect())
                    .collect()
            }),
        };
        State {
            pts: Some(pts),
            ..State::empty("pts", options)
        }
    }
}

impl PtsState {
    /// Add a later shard (systems by position).
    pub(super) fn add(&mut self, o: PtsState) {
        self.gold_a.add(&o.gold_a);
        self.gold_b.add(&o.gold_b);
        self.gold_align = format!("{} + {}", self.gold_align, o.gold_align);
        for (a, b) in self.systems.iter_mut().zip(&o.systems) {
            for (x, y) in a.files.iter_mut().zip(&b.files) {
                *x = format!("{x} + {y}");
            }
            a.alignment += b.alignment;
            for (x, y) in a.totals.iter_mut().zip(b.totals) {
                *x += y;
            }
        }
        add_pairs(&mut self.pairs_a, &o.pairs_a);
        add_pairs(&mut self.pairs_b, &o.pairs_b);
        for (a, b) in self.warnings.iter_mut().zip(o.warnings) {
            a.extend(b);
        }
        self.sentences = concat_rows(self.sentences.take(), o.sentences);
    }

    /// What the `pts` report is built from.
    pub fn into_merged(self) -> PtsMerged {
        let units = match &self.sentences {
            Some(rows) => rows
                .iter()
                .map(|r| r.iter().map(of_row).collect())
                .collect(),
            None => self
                .systems
                .iter()
                .map(|s| vec![of_row(&s.totals)])
                .collect(),
        };
        let file = |k: usize| self.systems.iter().map(|s| s.files[k].clone()).collect();
        PtsMerged {
            gold_a: self.gold_a.path.clone(),
            gold_b: self.gold_b.path.clone(),
            gold_align: self.gold_align.clone(),
            sys_a: file(0),
            sys_b: file(1),
            sys_align: file(2),
            side_a: self.gold_a.summary(),
            side_b: self.gold_b.summary(),
            aligned: self.systems.iter().map(|s| vec![s.alignment]).collect(),
            units,
            warnings: self.warnings.into_iter().flatten().collect(),
            pairs_a: self.pairs_a,
            pairs_b: self.pairs_b,
        }
    }
}

/// A merged `pts` state, owning what [`PtsIn`] borrows.
#[derive(Debug, Clone)]
pub struct PtsMerged {
    gold_a: String,
    gold_b: String,
    gold_align: String,
    sys_a: Vec<String>,
    sys_b: Vec<String>,
    sys_align: Vec<String>,
    side_a: FileSummary,
    side_b: FileSummary,
    pairs_a: Vec<PairCounts>,
    pairs_b: Vec<PairCounts>,
    aligned: Vec<Vec<AlignCounts>>,
    units: Vec<Vec<PtsCounts>>,
    /// The warnings of reading, as one run lists them (side a, side b, alignments).
    pub warnings: Vec<Warning>,
}

impl PtsMerged {
    /// The evaluation as the report takes it, at `weights`.
    pub fn input(&self, weights: Weights) -> PtsIn<'_> {
        PtsIn {
            files: PtsFiles {
                gold_a: &self.gold_a,
                gold_b: &self.gold_b,
                gold_align: &self.gold_align,
                sys_a: &self.sys_a,
                sys_b: &self.sys_b,
                sys_align: &self.sys_align,
            },
            weights,
            side_a: PtsSide {
                gold: &self.side_a,
                pairs: &self.pairs_a,
            },
            side_b: PtsSide {
                gold: &self.side_b,
                pairs: &self.pairs_b,
            },
            aligned: &self.aligned,
            units: &self.units,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_read_back_exactly() {
        for w in [
            Weights::default(),
            Weights {
                a: 1.0,
                b: 0.1,
                ab: 2.5e-7,
            },
        ] {
            let back = parse_weights(&weights_text(w)).unwrap();
            assert_eq!(
                (back.a.to_bits(), back.b.to_bits(), back.ab.to_bits()),
                (w.a.to_bits(), w.b.to_bits(), w.ab.to_bits())
            );
        }
        assert!(parse_weights("1,2").is_none());
        assert!(parse_weights("1,x,2").is_none());
    }

    #[test]
    fn rows_are_the_integer_columns() {
        let c = PtsCounts([3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 2.0, 3.0]);
        assert_eq!(to_row(&c), [3, 4, 5, 6, 7, 8, 2, 3]);
        assert_eq!(of_row(&to_row(&c)), c);
    }
}
