//! n-best evaluation (van Noord et al. 2002; Alpino's `evaluate.pl`): every candidate
//! parse of a sentence is scored against gold, then per sentence four candidates are
//! picked — **first** (rank 1), **best** (the oracle: the highest score, ties → the
//! earliest), **worst** (the lowest, ties → the earliest) and **chosen** (the highest
//! weight, `# parser_score` or a model's score, ties → the earliest) — each metric on its
//! own (the best LAS candidate need not be the best UAS one).
//!
//! Per candidate ([`CandidateScore`]): LAS, UAS and LA counted by the `deps` machinery
//! ([`crate::deps::Observer`], with its punctuation policy and label mode), and the
//! (head, deprel, dependent) triples of concept accuracy (the `relations` family's
//! [`RelationSetCounts`]: CA = 1 − (max(|Dt|, |Ds|) − |Dt ∩ Ds|) / max(|Dt|, |Ds|)); with
//! gold tokenization the triples are the scored words, so CA's overlap is the LAS count.
//!
//! Per sentence the picks become sufficient statistics on the shared measure model:
//! [`PickCounts`] (one pick of one sentence, every metric: micro = summed counts, macro =
//! summed sentence scores) and [`GapCounts`] (first, best and chosen together: exact and
//! phi = (chosen − first) / (best − first)).

pub mod measures;
mod score;

pub use measures::{gap_measures, pick_measures, Metric};
pub use score::{CandidateScore, Scorer, Triples};

use std::sync::OnceLock;

use crate::measure::Statistics;
use crate::relations::RelationSetCounts;

/// The four picks of a sentence, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// Rank 1.
    First,
    /// The highest score (ties → the earliest).
    Best,
    /// The lowest score (ties → the earliest).
    Worst,
    /// The highest weight (ties → the earliest).
    Chosen,
}

impl Pick {
    /// Every pick, in report order.
    pub const ALL: [Pick; 4] = [Pick::First, Pick::Best, Pick::Worst, Pick::Chosen];

    /// `first`, `best`, `worst`, `chosen`.
    pub fn name(self) -> &'static str {
        match self {
            Pick::First => "first",
            Pick::Best => "best",
            Pick::Worst => "worst",
            Pick::Chosen => "chosen",
        }
    }
}

/// Columns per metric of [`PickCounts`] (`{m}`: the metric in lower case).
const PICK_COLUMNS: [&str; 6] = [
    "{m}_correct",
    "{m}_gold",
    "{m}_system",
    "{m}_max",
    "sentence_{m}_sum",
    "{m}_scored_sentences",
];

/// One picked candidate's counts of one metric.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct MetricCounts {
    /// Items right (words for LAS/UAS/LA, triples in both for CA).
    pub overlap: u64,
    /// Gold items.
    pub gold: u64,
    /// System items.
    pub system: u64,
    /// The denominator max(gold, system).
    pub n: u64,
    /// The sentence score (summed: the sum of sentence scores).
    pub sum_score: f64,
    /// Sentences with a score (the macro average's denominator).
    pub scored: u64,
}

impl MetricCounts {
    /// The counts of one sentence's candidate `t` under metric `m`.
    pub fn of(m: Metric, t: Triples) -> Self {
        let score = m.sentence_score(t);
        MetricCounts {
            overlap: t.overlap,
            gold: t.gold,
            system: t.system,
            n: t.gold.max(t.system),
            sum_score: score.unwrap_or(0.0),
            scored: u64::from(score.is_some()),
        }
    }

    fn add(&mut self, o: &Self) {
        self.overlap += o.overlap;
        self.gold += o.gold;
        self.system += o.system;
        self.n += o.n;
        self.sum_score += o.sum_score;
        self.scored += o.scored;
    }

    fn push_row(&self, out: &mut Vec<f64>) {
        out.extend([
            self.overlap as f64,
            self.gold as f64,
            self.system as f64,
            self.n as f64,
            self.sum_score,
            self.scored as f64,
        ]);
    }
}

/// One pick (first, best, worst or chosen) of one sentence, every metric (or their sums).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct PickCounts {
    /// Per metric, in the order of [`Metric::ALL`].
    pub metrics: [MetricCounts; 4],
    /// Sentences.
    pub sentences: u64,
}

impl std::ops::AddAssign for PickCounts {
    fn add_assign(&mut self, o: Self) {
        for (a, b) in self.metrics.iter_mut().zip(&o.metrics) {
            a.add(b);
        }
        self.sentences += o.sentences;
    }
}

/// The column names of every metric (`{m}` replaced by the metric's name in lower case:
/// `las_correct`), then `tail`; built once.
fn names(per_metric: &[&str], tail: &[&'static str]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for m in Metric::ALL {
        let m = m.name().to_lowercase();
        for c in per_metric {
            out.push(Box::leak(c.replace("{m}", &m).into_boxed_str()));
        }
    }
    out.extend_from_slice(tail);
    out
}

impl Statistics for PickCounts {
    fn columns() -> &'static [&'static str] {
        static C: OnceLock<Vec<&'static str>> = OnceLock::new();
        C.get_or_init(|| names(&PICK_COLUMNS, &["sentences"]))
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        for m in &self.metrics {
            m.push_row(out);
        }
        out.push(self.sentences as f64);
    }
}

/// Columns per metric of [`GapCounts`].
const GAP_COLUMNS: [&str; 9] = [
    "first_{m}_correct",
    "first_{m}_max",
    "best_{m}_correct",
    "best_{m}_max",
    "chosen_{m}_correct",
    "chosen_{m}_max",
    "first_sentence_{m}_sum",
    "best_sentence_{m}_sum",
    "chosen_sentence_{m}_sum",
];
/// The columns of one metric's block in [`GapCounts`] after [`GAP_COLUMNS`].
const GAP_TAIL: [&str; 2] = ["{m}_exact_sentences", "sentences"];

/// First, best and chosen of one metric of a sentence together (or their sums): what
/// exact and phi read.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct GapMetric {
    /// first, best, chosen: (overlap, n, sentence score).
    pub picks: [(u64, u64, f64); 3],
    /// Sentences whose chosen candidate scores as high as the best one.
    pub exact: u64,
}

/// Exact and phi's statistics of one sentence, every metric (or their sums).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct GapCounts {
    /// Per metric, in the order of [`Metric::ALL`].
    pub metrics: [GapMetric; 4],
    /// Sentences.
    pub sentences: u64,
}

impl std::ops::AddAssign for GapCounts {
    fn add_assign(&mut self, o: Self) {
        for (a, b) in self.metrics.iter_mut().zip(&o.metrics) {
            for (x, y) in a.picks.iter_mut().zip(&b.picks) {
                x.0 += y.0;
                x.1 += y.1;
                x.2 += y.2;
            }
            a.exact += b.exact;
        }
        self.sentences += o.sentences;
    }
}

impl Statistics for GapCounts {
    fn columns() -> &'static [&'static str] {
        static C: OnceLock<Vec<&'static str>> = OnceLock::new();
        C.get_or_init(|| {
            let mut per: Vec<&str> = GAP_COLUMNS.to_vec();
            per.push(GAP_TAIL[0]);
            names(&per, &[GAP_TAIL[1]])
        })
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        for m in &self.metrics {
            let [f, b, c] = m.picks;
            out.extend([
                f.0 as f64, f.1 as f64, b.0 as f64, b.1 as f64, c.0 as f64, c.1 as f64, f.2, b.2,
                c.2,
            ]);
            out.push(m.exact as f64);
        }
        out.push(self.sentences as f64);
    }
}

/// What one sentence's candidates give: the picks' counts, exact and phi's counts, the
/// rank of each metric's best candidate and the number of candidates.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SentenceResult {
    /// Per pick (in the order of [`Pick::ALL`]).
    pub picks: [PickCounts; 4],
    /// First, best and chosen together.
    pub gap: GapCounts,
    /// Per metric: the index of each pick's candidate (in the order of [`Pick::ALL`]).
    pub index: [[usize; 4]; 4],
    /// Candidates.
    pub candidates: usize,
}

/// The index of the first candidate whose key is strictly better than every earlier one
/// (`better(a, b)`: a beats b), i.e. the best with ties going to the earliest.
fn earliest_best<T: Copy>(items: impl Iterator<Item = T>, better: impl Fn(T, T) -> bool) -> usize {
    let mut best: Option<(usize, T)> = None;
    for (i, x) in items.enumerate() {
        match best {
            Some((_, b)) if !better(x, b) => {}
            _ => best = Some((i, x)),
        }
    }
    best.map_or(0, |(i, _)| i)
}

/// Score one sentence's candidates (rank 1 first): the four picks of every metric.
/// `cands` must not be empty.
pub fn sentence(cands: &[CandidateScore]) -> SentenceResult {
    let chosen = earliest_best(cands.iter().map(|c| c.weight), |a, b| a > b);
    let mut r = SentenceResult {
        candidates: cands.len(),
        ..SentenceResult::default()
    };
    for p in &mut r.picks {
        p.sentences = 1;
    }
    r.gap.sentences = 1;
    for (k, m) in Metric::ALL.into_iter().enumerate() {
        let score = |i: usize| m.sentence_score(m.triples(&cands[i])).unwrap_or(f64::NAN);
        let cmp_key = |i: usize| {
            let s = score(i);
            if s.is_nan() {
                f64::NEG_INFINITY
            } else {
                s
            }
        };
        let best = earliest_best(0..cands.len(), |a, b| cmp_key(a) > cmp_key(b));
        let worst = earliest_best(0..cands.len(), |a, b| cmp_key(a) < cmp_key(b));
        let index = [0, best, worst, chosen];
        r.index[k] = index;
        let counts = index.map(|i| MetricCounts::of(m, m.triples(&cands[i])));
        for (p, c) in r.picks.iter_mut().zip(counts) {
            p.metrics[k] = c;
        }
        let g = &mut r.gap.metrics[k];
        for (slot, c) in g.picks.iter_mut().zip([counts[0], counts[1], counts[3]]) {
            *slot = (c.overlap, c.n, c.sum_score);
        }
        g.exact = u64::from(cmp_key(chosen) >= cmp_key(best));
    }
    r
}

/// The target weights of a sentence's candidates in the stochastic training set (van
/// Noord et al. 2002): each candidate's score over the sum of the sentence's scores (a
/// candidate without a score counts 0); equal weights where every score is 0.
pub fn targets(scores: &[Option<f64>]) -> Vec<f64> {
    let sum: f64 = scores.iter().map(|s| s.unwrap_or(0.0)).sum();
    if sum > 0.0 {
        scores.iter().map(|s| s.unwrap_or(0.0) / sum).collect()
    } else {
        vec![1.0 / scores.len().max(1) as f64; scores.len()]
    }
}

/// The concept-accuracy triples of a candidate as the `relations` family counts them.
pub fn relation_set(t: Triples) -> RelationSetCounts {
    RelationSetCounts::sentence(&crate::ud::Count {
        correct: t.overlap,
        gold: t.gold,
        system: t.system,
        aligned: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::{macro_average, totals, Measure};

    fn cand(las: u64, uas: u64, words: u64, weight: f64) -> CandidateScore {
        CandidateScore {
            rank: 0,
            weight,
            words,
            las,
            uas,
            la: las,
            triples: Triples {
                overlap: las,
                gold: words,
                system: words,
            },
            cgn: 0,
            cgn_total: 0,
        }
    }

    fn get(ms: &[Measure], name: &str, sums: &[f64]) -> Option<f64> {
        ms.iter().find(|m| m.name == name).unwrap().of(sums)
    }

    #[test]
    fn picks_ties_and_phi_by_hand() {
        // the alpino-example by hand (README there): 3 sentences of 5, 4, 8 words
        let s1 = [
            cand(4, 4, 5, -0.5),
            cand(5, 5, 5, -5.0),
            cand(1, 1, 5, -6.0),
        ];
        let s2 = [
            cand(4, 4, 4, 0.0),
            cand(3, 3, 4, -9.0),
            cand(3, 3, 4, -17.0),
            cand(3, 3, 4, -18.0),
        ];
        let s3 = [
            cand(8, 8, 8, 0.0),
            cand(7, 7, 8, -9.0),
            cand(7, 7, 8, -11.0),
            cand(7, 7, 8, -12.0),
        ];
        let rs = [sentence(&s1), sentence(&s2), sentence(&s3)];
        // LAS: best of s1 is rank 2, worst rank 3; ties of s2 (3, 3, 3) → the earliest, rank 2
        assert_eq!(rs[0].index[0], [0, 1, 2, 0]);
        assert_eq!(rs[1].index[0], [0, 0, 1, 0]);
        let picks = |p: usize| -> Vec<PickCounts> { rs.iter().map(|r| r.picks[p]).collect() };
        let pm = pick_measures();
        let first = totals(&picks(0));
        assert_eq!(get(&pm, "LAS", &first), Some(16.0 / 17.0));
        assert_eq!(get(&pm, "CA", &first), Some(16.0 / 17.0));
        let (n, macro_first) =
            macro_average(pm.iter().find(|m| m.name == "macro-CA").unwrap(), &picks(0));
        assert_eq!(n, 3);
        assert!((macro_first.unwrap() - (0.8 + 1.0 + 1.0) / 3.0).abs() < 1e-12);
        assert_eq!(get(&pm, "LAS", &totals(&picks(1))), Some(1.0));
        assert_eq!(
            get(&pm, "LAS", &totals(&picks(2))),
            Some((1 + 3 + 7) as f64 / 17.0)
        );
        assert_eq!(get(&pm, "P", &first), Some(16.0 / 17.0));
        let gm = gap_measures();
        let gaps: Vec<GapCounts> = rs.iter().map(|r| r.gap).collect();
        let g = totals(&gaps);
        // chosen = first (weights fall with rank): phi 0, exact 2 of 3
        assert_eq!(get(&gm, "phi-LAS", &g), Some(0.0));
        assert_eq!(get(&gm, "exact-LAS", &g), Some(2.0 / 3.0));
        // seed-7 weights of the README: chosen ranks 3, 2, 1
        let w = |s: &[CandidateScore], ws: &[f64]| -> Vec<CandidateScore> {
            s.iter()
                .zip(ws)
                .map(|(c, &w)| CandidateScore { weight: w, ..*c })
                .collect()
        };
        let rs7 = [
            sentence(&w(&s1, &[0.323833, 0.150849, 0.650934])),
            sentence(&w(&s2, &[0.072436, 0.535882, 0.365689, 0.057999])),
            sentence(&w(&s3, &[0.507436, 0.037496, 0.433646, 0.069855])),
        ];
        let g7 = totals(&rs7.iter().map(|r| r.gap).collect::<Vec<_>>());
        let phi = get(&gm, "phi-CA", &g7).unwrap();
        assert!((phi - -4.0).abs() < 1e-9, "{phi}");
        let phi_macro = get(&gm, "phi-macro-CA", &g7).unwrap();
        assert!((phi_macro - -4.25).abs() < 1e-9, "{phi_macro}");
        assert_eq!(get(&gm, "exact-CA", &g7), Some(1.0 / 3.0));
    }

    #[test]
    fn targets_are_proportional_to_scores() {
        assert_eq!(
            targets(&[Some(0.5), Some(1.0), None, Some(0.5)]),
            [0.25, 0.5, 0.0, 0.25]
        );
        assert_eq!(targets(&[Some(0.0), None]), [0.5, 0.5]);
        assert!(targets(&[]).is_empty());
    }

    #[test]
    fn phi_is_undefined_when_best_is_first() {
        let rs = [sentence(&[cand(3, 3, 4, 0.0), cand(2, 2, 4, 1.0)])];
        let g = totals(&rs.iter().map(|r| r.gap).collect::<Vec<_>>());
        let gm = gap_measures();
        assert_eq!(get(&gm, "phi-LAS", &g), None);
        assert_eq!(get(&gm, "phi-macro-LAS", &g), None);
        assert_eq!(get(&gm, "exact-LAS", &g), Some(0.0));
    }

    #[test]
    fn empty_sentences_follow_each_family() {
        // no scored word: no LAS (deps: left out of the macro average), CA 1 (evaluate.pl)
        let r = sentence(&[cand(0, 0, 0, 0.0)]);
        let pm = pick_measures();
        let sums = totals(&[r.picks[0]]);
        assert_eq!(get(&pm, "LAS", &sums), None);
        assert_eq!(get(&pm, "macro-LAS", &sums), None);
        assert_eq!(get(&pm, "macro-CA", &sums), Some(1.0));
        assert_eq!(r.gap.metrics[0].exact, 1);
    }
}
