//! The state of an `align` evaluation: per hypothesis the summed link counts (and those
//! of its other readings, for the warning about a wrong index base or direction), the
//! number of sentence pairs and, when kept, every sentence's counts.

use serde::{Deserialize, Serialize};

use treeval_metrics::align::AlignCounts;

use super::{AlignStateOptions, Family, MergeError, State};
use crate::model::Warning;

/// The state of an `align` evaluation.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AlignState {
    /// The gold file.
    pub gold: AlignFileState,
    /// The hypothesis files, in the order given.
    pub hyps: Vec<AlignFileState>,
    /// Sentence pairs scored (the gold's: its lines, or its highest sentence number, or
    /// `--sentences`).
    pub pairs: u64,
    /// The first and last sentence numbers of the gold's links (none without links;
    /// merged: the first shard's first and the last shard's last).
    pub numbers: Option<(u64, u64)>,
    /// Per hypothesis, the sum of its sentences' counts (`sentences`: those with a link in
    /// some file).
    pub units: Vec<AlignCounts>,
    /// Per hypothesis, its other readings (the other index base, the other direction,
    /// both): the options that give each and its summed counts (`None` where the file
    /// cannot be read so).
    pub readings: Vec<Vec<(String, Option<AlignCounts>)>>,
    /// `--hyp-subwords`: the pieces files and the word links of each hypothesis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subwords: Option<AlignSubwords>,
    /// The warnings found while reading and pairing the files, once each; not those made
    /// from the sums, which are made again when merged.
    pub warnings: Vec<Warning>,
    /// Per hypothesis, every sentence's counts (with `--keep-sentences`, `--test` or
    /// `--ci`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sentences: Option<Vec<Vec<AlignCounts>>>,
}

/// An alignment file of a state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AlignFileState {
    /// The path as given (merged: the shards' paths joined by ` + `).
    pub path: String,
    /// Its format as read (`naacl`, `pharaoh`).
    pub format: String,
}

/// The subword pieces the hypotheses were projected through.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AlignSubwords {
    /// The source and target pieces files (merged: joined by ` + `).
    pub paths: [String; 2],
    /// Their conventions (also in the options).
    pub conventions: [String; 2],
    /// Per hypothesis, its word links after the projection.
    pub links: Vec<u64>,
}

impl State {
    /// The state of an `align` evaluation with its `options`.
    pub fn of_align(options: AlignStateOptions, a: AlignState) -> Self {
        State::new(Family::Align { options, counts: a })
    }
}

/// Whether shard `o` numbers its NAACL sentences on from those of the shards before
/// (`a`): its first sentence number is past their last. Otherwise it numbers them from 1
/// again (as Pharaoh numbers lines), and the sentences of the shards add up.
fn numbered_on(a: &AlignState, o: &AlignState) -> bool {
    matches!((a.numbers, o.numbers), (Some((_, last)), Some((first, _))) if first > last)
}

/// The shards of a NAACL gold either keep the corpus' sentence numbers (each shard's first
/// number past the last of the shard before: the corpus has the last shard's count) or
/// number each shard from 1 (the shards' counts add up): a mix is refused, as the count
/// of the corpus would be a guess. Under a sentence selection the shards must number
/// from 1: a shard numbered on counts the pairs of the shards before as its own (its
/// sentence pairs run from 1 to its last number), so the selection's counts would not add up.
pub(super) fn check(states: &[State], names: &[String]) -> Result<(), MergeError> {
    let naacl: Vec<(&AlignState, &String)> = states
        .iter()
        .zip(names)
        .filter_map(|(s, n)| match &s.family {
            Family::Align { counts, .. } => Some((counts, n)),
            _ => None,
        })
        .filter(|(a, _)| a.gold.format == "naacl" && a.numbers.is_some())
        .collect();
    let selected = states.first().is_some_and(|s| s.selection.is_some());
    let mut on: Option<(bool, &String)> = None;
    for w in naacl.windows(2) {
        let here = numbered_on(w[0].0, w[1].0);
        if here && selected {
            return Err(format!(
                "{}: its NAACL gold keeps the corpus' sentence numbers, and the states were evaluated under a sentence selection (--min-len, --max-len), whose counts add up only over shards numbered from 1\n  hint: number every shard's NAACL files (and --tokens lines) from 1",
                w[1].1
            ));
        }
        match on {
            Some((before, name)) if before != here => {
                let how = |on: bool| {
                    if on {
                        "keeps the corpus' sentence numbers"
                    } else {
                        "numbers its sentences from 1"
                    }
                };
                return Err(format!(
                    "{}: its NAACL gold {}, and {name} {}: the number of sentences of the corpus would be a guess\n  hint: cut the NAACL files the same way for every shard: keeping the sentence numbers, or numbering every shard from 1",
                    w[1].1,
                    how(here),
                    how(before)
                ));
            }
            _ => on = Some((here, w[1].1)),
        }
    }
    Ok(())
}

impl AlignState {
    /// Add a later shard ([`check`]ed): where its NAACL sentences are numbered on, the
    /// corpus has its count; else (Pharaoh lines, NAACL shards numbered from 1) the counts
    /// add up.
    pub(super) fn add(&mut self, o: AlignState) {
        let join = |a: &mut String, b: &str| *a = format!("{a} + {b}");
        join(&mut self.gold.path, &o.gold.path);
        for (a, b) in self.hyps.iter_mut().zip(&o.hyps) {
            join(&mut a.path, &b.path);
        }
        self.pairs = if self.gold.format == "naacl" && numbered_on(self, &o) {
            self.pairs.max(o.pairs)
        } else {
            self.pairs + o.pairs
        };
        self.numbers = match (self.numbers, o.numbers) {
            (Some((a, _)), Some((_, b))) => Some((a, b)),
            (a, b) => a.or(b),
        };
        for (a, b) in self.units.iter_mut().zip(&o.units) {
            *a += *b;
        }
        for (a, b) in self.readings.iter_mut().zip(&o.readings) {
            for (x, y) in a.iter_mut().zip(b) {
                x.1 = match (x.1, y.1) {
                    (Some(mut p), Some(q)) if x.0 == y.0 => {
                        p += q;
                        Some(p)
                    }
                    _ => None,
                };
            }
        }
        if let (Some(a), Some(b)) = (self.subwords.as_mut(), &o.subwords) {
            join(&mut a.paths[0], &b.paths[0]);
            join(&mut a.paths[1], &b.paths[1]);
            for (x, y) in a.links.iter_mut().zip(&b.links) {
                *x += y;
            }
        }
        for w in o.warnings {
            Warning::add_shard(&mut self.warnings, w, true);
        }
        self.sentences = match (self.sentences.take(), o.sentences) {
            (Some(mut a), Some(b)) => {
                for (x, y) in a.iter_mut().zip(b) {
                    x.extend(y);
                }
                Some(a)
            }
            _ => None,
        };
    }

    /// Per hypothesis, the units the report and the tests take: every sentence's counts
    /// when kept, else the sum as one unit.
    pub fn per_hyp(&self) -> Vec<Vec<AlignCounts>> {
        match &self.sentences {
            Some(r) => r.clone(),
            None => self.units.iter().map(|u| vec![*u]).collect(),
        }
    }

    /// Per hypothesis, its summed counts over the corpus' sentence pairs.
    pub fn totals(&self) -> Vec<AlignCounts> {
        let total = |u: &AlignCounts| AlignCounts {
            sentences: self.pairs,
            ..*u
        };
        self.units.iter().map(total).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(format: &str, pairs: u64, numbers: Option<(u64, u64)>, a: u64) -> AlignState {
        let c = AlignCounts {
            sentences: 2,
            a,
            s: 3,
            p: 4,
            ..AlignCounts::default()
        };
        AlignState {
            gold: AlignFileState {
                path: "g".into(),
                format: format.into(),
            },
            hyps: vec![AlignFileState {
                path: "h".into(),
                format: format.into(),
            }],
            pairs,
            numbers,
            units: vec![c],
            readings: vec![vec![
                ("--reverse".into(), Some(c)),
                ("--hyp-base 1".into(), None),
            ]],
            subwords: None,
            warnings: Vec::new(),
            sentences: Some(vec![vec![c]]),
        }
    }

    fn state(a: AlignState) -> State {
        let options = AlignStateOptions {
            gold_base: None,
            hyp_base: None,
            reverse: false,
            reverse_gold: false,
            sentences_given: false,
            null: super::super::NullLinks::Exclude,
            f_alpha: 0.5,
            gold_format: a.gold.format.clone(),
            hyp_formats: a.hyps.iter().map(|h| h.format.clone()).collect(),
            subwords: None,
        };
        State::of_align(options, a)
    }

    #[test]
    fn naacl_sentences_are_numbered_on_and_pharaoh_lines_add_up() {
        let mut n = shard("naacl", 5, Some((1, 5)), 1);
        n.add(shard("naacl", 9, Some((6, 9)), 2));
        assert_eq!((n.pairs, n.numbers), (9, Some((1, 9))));
        assert_eq!(n.totals()[0].sentences, 9);
        assert_eq!((n.units[0].a, n.units[0].sentences), (3, 4));
        assert_eq!(n.readings[0][0].1.map(|c| c.a), Some(3));
        assert_eq!(n.readings[0][1].1, None);
        assert_eq!(n.per_hyp()[0].len(), 2);
        assert_eq!(n.gold.path, "g + g");
        let mut p = shard("pharaoh", 5, Some((1, 5)), 1);
        p.add(shard("pharaoh", 4, Some((1, 4)), 1));
        assert_eq!(p.pairs, 9);
    }

    #[test]
    fn naacl_shards_numbered_from_1_add_up_and_a_mix_is_refused() {
        let mut n = shard("naacl", 5, Some((1, 5)), 1);
        n.add(shard("naacl", 4, Some((1, 4)), 1));
        assert_eq!(n.pairs, 9);
        let names: Vec<String> = (0..3).map(|i| format!("s{i}.json")).collect();
        let on = [
            state(shard("naacl", 5, Some((1, 5)), 1)),
            state(shard("naacl", 9, Some((6, 9)), 1)),
            state(shard("naacl", 12, Some((10, 12)), 1)),
        ];
        assert!(check(&on, &names).is_ok());
        let anew = [
            state(shard("naacl", 5, Some((1, 5)), 1)),
            state(shard("naacl", 4, Some((1, 4)), 1)),
            state(shard("naacl", 4, Some((2, 4)), 1)),
        ];
        assert!(check(&anew, &names).is_ok());
        let mix = [
            state(shard("naacl", 5, Some((1, 5)), 1)),
            state(shard("naacl", 9, Some((6, 9)), 1)),
            state(shard("naacl", 4, Some((1, 4)), 1)),
        ];
        let e = check(&mix, &names).unwrap_err();
        assert!(
            e.starts_with("s2.json: its NAACL gold numbers its sentences from 1, and s1.json keeps the corpus' sentence numbers"),
            "{e}"
        );
    }
}
