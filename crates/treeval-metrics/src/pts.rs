//! The parallel treebank score (PTS) of seed 000: one number for two parses and the word
//! alignment between them,
//! PTS = (α_a·UAS_a + α_b·UAS_b + α_ab·(1 − AER)) / (α_a + α_b + α_ab).
//!
//! Like every metric here it is a function of summed per-sentence counts, laid out in
//! the 8 columns of [`row`]: `[uas_a, words_a, uas_b, words_b, A, S, A∩S, A∩P]`.

use crate::align::{aer_of, AlignCounts};
use crate::deps::AttachmentCounts;

/// The weights α_a, α_b, α_ab.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Weight of the first side's UAS.
    pub a: f64,
    /// Weight of the second side's UAS.
    pub b: f64,
    /// Weight of the alignment's 1 − AER.
    pub ab: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            a: 1.0 / 3.0,
            b: 1.0 / 3.0,
            ab: 1.0 / 3.0,
        }
    }
}

/// PTS from its three components; `None` if a component with a non-zero weight is
/// undefined, or all weights are 0.
pub fn pts(uas_a: Option<f64>, uas_b: Option<f64>, aer: Option<f64>, w: Weights) -> Option<f64> {
    let total = w.a + w.b + w.ab;
    if total <= 0.0 {
        return None;
    }
    let part = |weight: f64, v: Option<f64>| {
        if weight == 0.0 {
            Some(0.0)
        } else {
            v.map(|x| weight * x)
        }
    };
    Some((part(w.a, uas_a)? + part(w.b, uas_b)? + part(w.ab, aer.map(|x| 1.0 - x))?) / total)
}

/// Number of columns of a PTS row.
pub const COLUMNS: usize = 8;

/// One sentence pair's columns.
pub fn row(a: &AttachmentCounts, b: &AttachmentCounts, al: &AlignCounts) -> [f64; COLUMNS] {
    [
        a.uas as f64,
        a.words as f64,
        b.uas as f64,
        b.words as f64,
        al.a as f64,
        al.s as f64,
        al.a_and_s as f64,
        al.a_and_p as f64,
    ]
}

/// PTS of summed rows.
pub fn pts_of_sums(sums: &[f64], w: Weights) -> Option<f64> {
    let ratio = |n: f64, d: f64| (d > 0.0).then(|| n / d);
    pts(
        ratio(sums[0], sums[1]),
        ratio(sums[2], sums[3]),
        aer_of(&sums[4..8]),
        w,
    )
}

/// One sentence pair's (or summed) counts: the columns of [`row`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PtsCounts(pub [f64; COLUMNS]);

impl std::ops::AddAssign for PtsCounts {
    fn add_assign(&mut self, o: Self) {
        for (x, y) in self.0.iter_mut().zip(o.0) {
            *x += y;
        }
    }
}

impl crate::measure::Statistics for PtsCounts {
    fn columns() -> &'static [&'static str] {
        &[
            "a_uas_correct",
            "a_words",
            "b_uas_correct",
            "b_words",
            "system_links",
            "sure_links",
            "system_sure_links",
            "system_possible_links",
        ]
    }
    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend(self.0);
    }
}

/// The measures of `pts`: both UAS, AER and the composite at weights `w`.
pub fn measures(w: Weights) -> Vec<crate::measure::Measure> {
    use crate::measure::{Better, Kind, Measure};
    use std::sync::Arc;
    let mut aer = Measure::ratio(
        "AER",
        "alignment error rate",
        "1 - (|A∩S| + |A∩P|) / (|A| + |S|)",
        "Och & Ney 2003",
        4,
        5,
    );
    aer.reads = vec![4, 5, 6, 7];
    aer.score = Arc::new(aer_of);
    aer.better = Better::Lower;
    aer.reference = "aer.py, wa_eval_align.pl (WPT scorer)";
    // the deps UAS of a side, punctuation by FORM (the default): eval.pl's
    const UAS_REFERENCE: &str = "eval.pl (with --punct form, the default)";
    vec![
        Measure::ratio(
            "UAS_a",
            "unlabeled attachment score of side a",
            "words with the right head / scored words",
            "seed 000",
            0,
            1,
        )
        .with_reference(UAS_REFERENCE),
        Measure::ratio(
            "UAS_b",
            "unlabeled attachment score of side b",
            "words with the right head / scored words",
            "seed 000",
            2,
            3,
        )
        .with_reference(UAS_REFERENCE),
        aer,
        Measure {
            name: "PTS",
            title: "parallel treebank score",
            formula: "(α_a·UAS_a + α_b·UAS_b + α_ab·(1 − AER)) / (α_a + α_b + α_ab)",
            source: "seed 000",
            reference: "",
            kind: Kind::Fraction,
            better: Better::Higher,
            reads: (0..COLUMNS).collect(),
            score: Arc::new(move |s: &[f64]| pts_of_sums(s, w)),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed() {
        // UAS_a = 0.9, UAS_b = 0.6, AER = 0.3: equal weights -> (0.9 + 0.6 + 0.7) / 3
        let w = Weights::default();
        let v = pts(Some(0.9), Some(0.6), Some(0.3), w).unwrap();
        assert!((v - 2.2 / 3.0).abs() < 1e-15);
        // weights 2, 1, 1: (1.8 + 0.6 + 0.7) / 4 = 0.775
        let v = pts(
            Some(0.9),
            Some(0.6),
            Some(0.3),
            Weights {
                a: 2.0,
                b: 1.0,
                ab: 1.0,
            },
        )
        .unwrap();
        assert!((v - 0.775).abs() < 1e-15);
        // a zero weight ignores an undefined component
        assert_eq!(
            pts(
                None,
                Some(0.5),
                Some(0.5),
                Weights {
                    a: 0.0,
                    b: 1.0,
                    ab: 1.0
                }
            ),
            Some(0.5)
        );
        assert_eq!(pts(None, Some(0.5), Some(0.5), w), None);
        assert_eq!(
            pts(
                Some(1.0),
                Some(1.0),
                Some(0.0),
                Weights {
                    a: 0.0,
                    b: 0.0,
                    ab: 0.0
                }
            ),
            None
        );
    }

    #[test]
    fn nothing_to_measure_is_none() {
        // no word on either side and no link in gold or hypothesis
        assert_eq!(pts_of_sums(&[0.0; COLUMNS], Weights::default()), None);
        // no alignment to measure, but a weight of 0 on it: the parses alone
        let sums = [9.0, 10.0, 6.0, 10.0, 0.0, 0.0, 0.0, 0.0];
        let w = Weights {
            a: 1.0,
            b: 1.0,
            ab: 0.0,
        };
        assert!((pts_of_sums(&sums, w).unwrap() - 0.75).abs() < 1e-15);
        assert_eq!(pts_of_sums(&sums, Weights::default()), None);
    }

    #[test]
    fn from_summed_rows() {
        // side a 9/10, side b 6/10, alignment A=5, S=4, A∩S=3, A∩P=4: AER = 1 - 7/9
        let sums = [9.0, 10.0, 6.0, 10.0, 5.0, 4.0, 3.0, 4.0];
        let v = pts_of_sums(&sums, Weights::default()).unwrap();
        assert!((v - (0.9 + 0.6 + 7.0 / 9.0) / 3.0).abs() < 1e-15);
    }
}
