//! The state of a `pts` evaluation (the joint parallel-treebank score): both sides'
//! `deps` counts (files, reading warnings, McNemar's paired decisions with `--test
//! mcnemar`, and what the corpus checks of their label inventories read), every system's
//! alignment file and counts and summed PTS row, the alignments' warnings, and every
//! sentence pair's row when kept. The rows are integer counts, so their sums do not
//! depend on the order they are added in.

use serde::{Deserialize, Serialize};
use treeval_metrics::align::AlignCounts;
use treeval_metrics::deps::DepsResult;
use treeval_metrics::pts::{PtsCounts, Weights, COLUMNS};
use treeval_metrics::DepsOptions;

use super::{concat_rows, DepsState, Family, NullLinks, PtsStateOptions, State};
use crate::model::Warning;
use crate::pts::{PtsFiles, PtsIn, PtsSide};

/// One sentence pair's (or summed) PTS columns as integers: `[uas_a, words_a, uas_b,
/// words_b, a, s, a_and_s, a_and_p]`.
pub type PtsRow = [u64; COLUMNS];

/// The state of a `pts` evaluation.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PtsState {
    /// Side a's parses evaluated, as `deps` states them (without per-sentence rows;
    /// its warnings are those found while reading).
    pub side_a: DepsState,
    /// Side b's.
    pub side_b: DepsState,
    /// The gold alignment (merged: the shards' paths joined by ` + `).
    pub gold_align: String,
    /// One per system, in the order given.
    pub systems: Vec<PtsSystemState>,
    /// The warnings of reading the alignments and pairing them, in the order found.
    pub warnings: Vec<Warning>,
    /// Every sentence pair's row, per system (with `--keep-sentences`, `--test` or
    /// `--ci`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sentences: Option<Vec<Vec<PtsRow>>>,
}

/// One system of a `pts` state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PtsSystemState {
    /// Its alignment file (merged: the shards' joined by ` + `).
    pub align_file: String,
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
    /// Both sides' parses evaluated, before their corpus checks.
    pub sides: [&'a DepsResult; 2],
    /// `--punct` (its name).
    pub punct: &'a str,
    /// `--reverse`.
    pub reverse: bool,
    /// How the alignments' positions were read (`--gold-base`, `--hyp-base`, `--null`).
    pub index: PtsIndex,
    /// The options both sides were evaluated with (`pair_decisions`: McNemar's paired
    /// decisions were counted).
    pub opts: &'a DepsOptions,
    /// Whether the rows are kept.
    pub keep_sentences: bool,
}

/// How `pts` read the alignments' positions: the index bases given (`None`: the
/// format's) and whether links with a NULL side are scored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PtsIndex {
    /// `--gold-base`.
    pub gold_base: Option<u32>,
    /// `--hyp-base`.
    pub hyp_base: Option<u32>,
    /// `--null include`.
    pub null_included: bool,
}

impl PtsIndex {
    /// The index options of a state, as [`State::of_pts`] records them.
    pub fn of_options(o: &PtsStateOptions) -> Self {
        PtsIndex {
            gold_base: o.gold_base,
            hyp_base: o.hyp_base,
            null_included: o.null.included(),
        }
    }

    /// The signature's parts for what differs from the defaults: `gold-base`,
    /// `hyp-base` when given, `null:include`.
    pub fn signature_parts(&self) -> Vec<(&'static str, String)> {
        let mut parts = Vec::new();
        if let Some(b) = self.gold_base {
            parts.push(("gold-base", b.to_string()));
        }
        if let Some(b) = self.hyp_base {
            parts.push(("hyp-base", b.to_string()));
        }
        if self.null_included {
            parts.push(("null", "include".to_owned()));
        }
        parts
    }
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
    /// The state of a `pts` evaluation; `warnings`: those of the alignments.
    pub fn of_pts(run: &PtsRun<'_>, warnings: Vec<Warning>) -> Self {
        let e = run.e;
        let f = e.files;
        let options = PtsStateOptions {
            punct: run.punct.to_owned(),
            weights: weights_text(e.weights),
            reverse: run.reverse,
            gold_base: run.index.gold_base,
            hyp_base: run.index.hyp_base,
            null: NullLinks::of(run.index.null_included),
            pair_decisions: run.opts.pair_decisions,
        };
        let systems = (e.units.iter().zip(e.aligned).enumerate())
            .map(|(k, (units, al))| {
                let mut t = PtsCounts::default();
                for u in units {
                    t += *u;
                }
                PtsSystemState {
                    align_file: f.sys_align[k].clone(),
                    alignment: treeval_metrics::align::sum(al),
                    totals: to_row(&t),
                }
            })
            .collect();
        let side = |d: &DepsResult| DepsState {
            sentences: None,
            ..DepsState::of(d, &[], false)
        };
        let pts = PtsState {
            side_a: side(run.sides[0]),
            side_b: side(run.sides[1]),
            gold_align: f.gold_align.to_owned(),
            systems,
            warnings,
            sentences: run.keep_sentences.then(|| {
                e.units
                    .iter()
                    .map(|u| u.iter().map(to_row).collect())
                    .collect()
            }),
        };
        State::new(Family::Pts {
            options,
            counts: pts,
        })
    }
}

impl PtsState {
    /// Add a later shard (systems by position).
    pub(super) fn add(&mut self, o: PtsState) {
        self.side_a.add(o.side_a);
        self.side_b.add(o.side_b);
        self.gold_align = format!("{} + {}", self.gold_align, o.gold_align);
        for (a, b) in self.systems.iter_mut().zip(&o.systems) {
            a.align_file = format!("{} + {}", a.align_file, b.align_file);
            a.alignment += b.alignment;
            for (x, y) in a.totals.iter_mut().zip(b.totals) {
                *x += y;
            }
        }
        for w in o.warnings {
            Warning::add_shard(&mut self.warnings, w, false);
        }
        self.sentences = concat_rows(self.sentences.take(), o.sentences);
    }

    /// What the `pts` report is built from: both sides' results under `opts` with their
    /// corpus checks made on the merged sums, the warnings of reading kept as one run
    /// keeps them (the first `warn_limit` of each side, the others counted).
    pub fn into_merged(self, opts: &DepsOptions, warn_limit: usize) -> PtsMerged {
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
        let side = |d: DepsState| {
            let mut r = d.into_result(opts, warn_limit);
            r.corpus_checks(opts);
            r
        };
        let (side_a, side_b) = (side(self.side_a), side(self.side_b));
        let paths = |d: &DepsResult| d.systems.iter().map(|s| s.file.path.clone()).collect();
        let mut warnings: Vec<Warning> = (side_a.warnings.iter())
            .chain(side_b.warnings.iter())
            .map(Warning::from)
            .collect();
        warnings.extend(self.warnings);
        PtsMerged {
            sys_a: paths(&side_a),
            sys_b: paths(&side_b),
            sys_align: self.systems.iter().map(|s| s.align_file.clone()).collect(),
            gold_align: self.gold_align,
            aligned: self.systems.iter().map(|s| vec![s.alignment]).collect(),
            units,
            warnings,
            side_a,
            side_b,
        }
    }
}

/// A merged `pts` state, owning what [`PtsIn`] borrows.
#[derive(Debug, Clone)]
pub struct PtsMerged {
    gold_align: String,
    sys_a: Vec<String>,
    sys_b: Vec<String>,
    sys_align: Vec<String>,
    side_a: DepsResult,
    side_b: DepsResult,
    aligned: Vec<Vec<AlignCounts>>,
    units: Vec<Vec<PtsCounts>>,
    /// The warnings, as one run lists them (side a's, side b's, the alignments').
    pub warnings: Vec<Warning>,
}

impl PtsMerged {
    /// The evaluation as the report takes it, at `weights`.
    pub fn input(&self, weights: Weights) -> PtsIn<'_> {
        PtsIn {
            files: PtsFiles {
                gold_a: &self.side_a.gold.path,
                gold_b: &self.side_b.gold.path,
                gold_align: &self.gold_align,
                sys_a: &self.sys_a,
                sys_b: &self.sys_b,
                sys_align: &self.sys_align,
            },
            weights,
            side_a: PtsSide::of(&self.side_a),
            side_b: PtsSide::of(&self.side_b),
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
