//! The state of a `brackets` evaluation: EVALB's sums per test file (all sentences and
//! those up to CUTOFF_LEN), its error sentences, the `--by` groups, what `--where` kept,
//! and, when kept, every sentence's counts; [`BracketsState::systems`] turns the sum back
//! into what the `brackets` report takes.

use serde::{Deserialize, Serialize};

use treeval_metrics::brackets::by::BracketGroup;
use treeval_metrics::brackets::filter::WhereCounts;
use treeval_metrics::brackets::{BracketCounts, Params, Reading};

use super::{BracketsStateOptions, Family, State};
use crate::brackets::BracketsSystem;
use crate::model::Warning;

/// The state of a `brackets` evaluation.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BracketsState {
    /// The gold file (merged: the shards' paths joined by ` + `).
    pub gold: String,
    /// Gold trees read.
    pub gold_trees: u64,
    /// The parameters as read (the same in every shard: the options compare them).
    pub params: Params,
    /// The parameter file's name, as the report names it.
    pub prm_name: String,
    /// The `--where` conditions as given.
    pub where_specs: Vec<String>,
    /// The warnings about the parameter file (the same in every shard: kept once).
    pub warnings: Vec<Warning>,
    /// One per test file, in the order given.
    pub systems: Vec<BracketsSystemState>,
    /// Per test file, every sentence's counts (with `--keep-sentences`, `--test` or
    /// `--ci`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sentences: Option<Vec<BracketsRows>>,
}

/// One test file's sums in a `brackets` state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BracketsSystemState {
    /// The test file (merged: the shards' paths joined by ` + `).
    pub path: String,
    /// Trees read.
    pub trees: u64,
    /// Sums over every sentence.
    pub all: BracketCounts,
    /// Sums over the sentences up to CUTOFF_LEN.
    pub cutoff: BracketCounts,
    /// EVALB's error sentences: the sentence's number in the (concatenated) corpus and the
    /// message.
    pub errors: Vec<(u64, String)>,
    /// Set when MAX_ERROR stopped the shard's run (earlier builds; such states do not
    /// merge). `brackets --emit-state` scores every sentence and leaves it unset.
    pub stopped: Option<String>,
    /// `--by label`: brackets per label, by name.
    pub by_label: Vec<(String, BracketGroup)>,
    /// Sentences and brackets per length bin, in bin order.
    pub by_length: Vec<(String, BracketGroup)>,
    /// What `--where` kept.
    pub where_counts: WhereCounts,
    /// The warnings found while reading this file (and, for the first, the gold file), in
    /// the order found; not those made from the sums, which are made again when merged.
    pub warnings: Vec<Warning>,
    /// How the trees were read (generated trees).
    #[serde(default, skip_serializing_if = "Reading::is_empty")]
    pub reading: Reading,
}

/// Every sentence's counts of one test file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BracketsRows {
    /// Every sentence, in corpus order.
    pub all: Vec<BracketCounts>,
    /// The sentences up to CUTOFF_LEN, in corpus order.
    pub cutoff: Vec<BracketCounts>,
}

impl BracketsSystemState {
    /// The state of test file `s`, its sums `all` and `cutoff` and its reading's
    /// `warnings`.
    pub fn of(
        s: &BracketsSystem,
        sums: (BracketCounts, BracketCounts),
        warnings: Vec<Warning>,
    ) -> Self {
        BracketsSystemState {
            path: s.path.clone(),
            trees: s.trees,
            all: sums.0,
            cutoff: sums.1,
            errors: s.errors.clone(),
            stopped: s.stopped.clone(),
            by_label: s.by_label.clone(),
            by_length: s.by_length.clone(),
            where_counts: s.where_counts,
            warnings,
            reading: s.reading,
        }
    }

    /// Add a later shard, whose sentence numbers follow `offset` gold trees.
    fn add(&mut self, o: BracketsSystemState, offset: u64) {
        self.path = format!("{} + {}", self.path, o.path);
        self.trees += o.trees;
        self.all += &o.all;
        self.cutoff += &o.cutoff;
        self.errors
            .extend(o.errors.into_iter().map(|(id, m)| (id + offset, m)));
        self.stopped = self.stopped.take().or(o.stopped);
        super::add_named(&mut self.by_label, &o.by_label);
        super::add_named(&mut self.by_length, &o.by_length);
        let bin = |n: &str| {
            treeval_metrics::bins::LENGTH_BINS
                .iter()
                .position(|b| *b == n)
        };
        self.by_length.sort_by_key(|(n, _)| bin(n));
        let w = &mut self.where_counts;
        for (a, b) in [
            (&mut w.sentences, o.where_counts.sentences),
            (&mut w.gold, o.where_counts.gold),
            (&mut w.test, o.where_counts.test),
        ] {
            a.0 += b.0;
            a.1 += b.1;
        }
        for w in o.warnings {
            Warning::add_shard(&mut self.warnings, w, false);
        }
        self.reading += &o.reading;
    }

    /// The test file as the `brackets` report takes it: every sentence's counts when kept
    /// (`rows`), else the sums as one unit.
    pub fn system(&self, rows: Option<&BracketsRows>) -> BracketsSystem {
        let (all, cutoff) = match rows {
            Some(r) => (r.all.clone(), r.cutoff.clone()),
            None => (vec![self.all], vec![self.cutoff]),
        };
        BracketsSystem {
            path: self.path.clone(),
            trees: self.trees,
            all,
            cutoff,
            errors: self.errors.clone(),
            stopped: self.stopped.clone(),
            careful: None,
            unjudged: None,
            left_out: 0,
            by_label: self.by_label.clone(),
            by_length: self.by_length.clone(),
            unscored: self.all.error_sentences + self.all.skip_sentences,
            where_counts: self.where_counts,
            reading: self.reading,
        }
    }
}

impl State {
    /// The state of a `brackets` evaluation with its `options`.
    pub fn of_brackets(options: BracketsStateOptions, b: BracketsState) -> Self {
        State::new(Family::Brackets { options, counts: b })
    }
}

impl BracketsState {
    /// Add a later shard: its sentences follow this state's gold trees.
    pub(super) fn add(&mut self, o: BracketsState) {
        let offset = self.gold_trees;
        self.gold = format!("{} + {}", self.gold, o.gold);
        self.gold_trees += o.gold_trees;
        for (a, b) in self.systems.iter_mut().zip(o.systems) {
            a.add(b, offset);
        }
        self.sentences = match (self.sentences.take(), o.sentences) {
            (Some(mut a), Some(b)) => {
                for (x, y) in a.iter_mut().zip(b) {
                    x.all.extend(y.all);
                    x.cutoff.extend(y.cutoff);
                }
                Some(a)
            }
            _ => None,
        };
    }

    /// Whether the state kept every sentence's counts.
    pub fn has_sentences(&self) -> bool {
        self.sentences.is_some()
    }

    /// Why the merged counts are not those of one run on the concatenated files: a shard
    /// whose run stopped (at MAX_ERROR, as earlier builds did outside `--compat evalb`)
    /// did not count the sentences after it. MAX_ERROR itself does not stop a
    /// state's run, so the error sentences of any number of shards merge.
    pub fn stops(&self) -> Option<String> {
        self.systems.iter().find_map(|s| {
            s.stopped.as_ref().map(|m| {
                format!(
                    "{}: the run that wrote this state stopped ({m}), so its counts leave out the sentences after it\n  hint: evaluate the shard again with this version, which scores every sentence",
                    s.path
                )
            })
        })
    }

    /// Every test file as the `brackets` report takes it.
    pub fn systems(&self) -> Vec<BracketsSystem> {
        let rows = |k: usize| self.sentences.as_ref().and_then(|r| r.get(k));
        (self.systems.iter().enumerate())
            .map(|(k, s)| s.system(rows(k)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(sentences: u64, matched: u64, gold: u64, test: u64) -> BracketCounts {
        BracketCounts {
            sentences,
            matched,
            gold,
            test,
            ..BracketCounts::default()
        }
    }

    fn rows(n: usize) -> BracketsRows {
        BracketsRows {
            all: vec![counts(1, 1, 2, 2); n],
            cutoff: vec![counts(1, 1, 2, 2); n],
        }
    }

    fn state(systems: Vec<BracketsSystemState>, rows: Option<Vec<BracketsRows>>) -> BracketsState {
        BracketsState {
            gold: "g".into(),
            gold_trees: 2,
            params: Params::default(),
            prm_name: "COLLINS.prm (built in)".into(),
            where_specs: Vec::new(),
            warnings: Vec::new(),
            systems,
            sentences: rows,
        }
    }

    fn system(path: &str, errors: &[u64]) -> BracketsSystemState {
        let c = counts(2, 3, 4, 5);
        BracketsSystemState {
            path: path.into(),
            trees: 2,
            all: c,
            cutoff: c,
            errors: errors
                .iter()
                .map(|&i| (i, "Length unmatch".into()))
                .collect(),
            stopped: None,
            by_label: vec![("NP".into(), BracketGroup::default())],
            by_length: vec![("11-20".into(), BracketGroup::default())],
            where_counts: WhereCounts {
                sentences: (2, 2),
                gold: (4, 4),
                test: (5, 5),
            },
            warnings: Vec::new(),
            reading: Reading {
                untagged_words: 3,
                wrapper_missing: 1,
                ..Reading::default()
            },
        }
    }

    #[test]
    fn a_later_shard_numbers_its_error_sentences_after_the_gold_trees_before() {
        let mut a = system("t.0", &[2]);
        let mut b = system("t.1", &[1, 2]);
        b.by_length = vec![("1-10".into(), BracketGroup::default())];
        a.add(b, 7);
        assert_eq!(
            a.errors.iter().map(|e| e.0).collect::<Vec<_>>(),
            vec![2, 8, 9]
        );
        assert_eq!(a.path, "t.0 + t.1");
        assert_eq!((a.all.matched, a.all.gold, a.all.test), (6, 8, 10));
        assert_eq!(a.where_counts.gold, (8, 8));
        assert_eq!(
            (a.reading.untagged_words, a.reading.wrapper_missing),
            (6, 2)
        );
        assert_eq!(a.system(None).reading, a.reading);
        // length bins in bin order, not the order met
        let bins: Vec<&str> = a.by_length.iter().map(|b| b.0.as_str()).collect();
        assert_eq!(bins, vec!["1-10", "11-20"]);
        assert_eq!(a.system(None).all, vec![a.all]);
    }

    #[test]
    fn rows_are_kept_only_when_every_shard_kept_them() {
        let mut a = state(vec![system("t.0", &[])], Some(vec![rows(2)]));
        a.add(state(vec![system("t.1", &[])], Some(vec![rows(3)])));
        assert!(a.has_sentences());
        assert_eq!(a.systems()[0].all.len(), 5);
        assert_eq!(a.gold_trees, 4);
        a.add(state(vec![system("t.2", &[])], None));
        assert!(!a.has_sentences());
        assert_eq!(a.systems()[0].all, vec![a.systems[0].all]);
    }

    #[test]
    fn any_number_of_error_sentences_merges_but_a_stopped_shard_does_not() {
        // MAX_ERROR 10: EVALB would stop at the 12th error; a state's run does not
        let mut s = state(vec![system("t", &[1; 40])], None);
        assert!(s.stops().is_none());
        s.systems[0].stopped = Some("stopped at sentence 14".into());
        let m = s.stops().unwrap();
        assert!(
            m.starts_with("t: the run that wrote this state stopped"),
            "{m}"
        );
    }
}
