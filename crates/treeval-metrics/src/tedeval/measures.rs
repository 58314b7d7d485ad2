//! TedEval's measures over the per-sentence [`TedEvalCounts`]: the corpus score by global
//! averaging (1 − Σδ_new / Σι), the mean of the sentence scores, and the sums behind
//! them. Tests and intervals resample the sentences' rows.

use crate::measure::{Measure, Statistics};

use super::TedEvalCounts;

impl Statistics for TedEvalCounts {
    fn columns() -> &'static [&'static str] {
        &[
            "sentences",
            "edits",
            "unforgiven_edits",
            "nodes",
            "terminal_edits",
            "sentence_tedeval_sum",
        ]
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend([
            self.sentences as f64,
            self.delta as f64,
            self.delta_new as f64,
            self.normalizer as f64,
            self.terminal_edits as f64,
            self.sum_sentence_score,
        ]);
    }
}

const PAPER: &str = "Tsarfaty, Nivre & Andersson 2011, section 3.3";

/// TedEval's measures: `TedEval` (global averaging: 1 − Σδ_new / Σι; n/a when no
/// sentence was scored), `TedEval-mean` (the mean of the sentence scores, `--micro`),
/// and the sums Σδ_new, Σι, Σδ and the terminal edits.
pub fn measures() -> Vec<Measure> {
    let (n, delta, delta_new, iota, edits, sum) = (0, 1, 2, 3, 4, 5);
    let count = Measure::count;
    vec![
        // Σι is at least 2 for every scored sentence: 0 means none was scored
        Measure::fraction(
            "TedEval",
            "TedEval score, global averaging",
            "1 − Σδ_new / Σι (ι = |parse| + |generalized gold|)",
            PAPER,
            vec![delta_new, iota],
            |s| (s[1] > 0.0).then(|| 1.0 - s[0] / s[1]),
        ),
        Measure::ratio(
            "TedEval-mean",
            "TedEval score, the mean of the sentence scores",
            "Σ (1 − δ_new/ι) / sentences",
            PAPER,
            sum,
            n,
        ),
        count("delta_new", "Σδ_new: edit cost not forgiven", delta_new),
        count("iota", "Σι: the normalizer", iota),
        count("delta", "Σδ: edit cost against the generalized gold", delta),
        count("terminal_edits", "terminals deleted or inserted", edits),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::totals;

    #[test]
    fn global_and_mean_from_the_sums() {
        let units = [
            TedEvalCounts {
                sentences: 1,
                delta: 4,
                delta_new: 2,
                normalizer: 10,
                terminal_edits: 0,
                sum_sentence_score: 0.8,
            },
            TedEvalCounts {
                sentences: 1,
                delta: 0,
                delta_new: 0,
                normalizer: 4,
                terminal_edits: 0,
                sum_sentence_score: 1.0,
            },
        ];
        let sums = totals(&units);
        let m = measures();
        let mut t = TedEvalCounts::default();
        for u in units {
            t += u;
        }
        assert_eq!(m[0].of(&sums), Some(t.score()));
        assert_eq!(m[0].of(&sums), Some(1.0 - 2.0 / 14.0));
        assert_eq!(m[1].of(&sums), t.micro_score());
        // nothing scored: not applicable, never 100
        assert_eq!(m[0].of(&totals::<TedEvalCounts>(&[])), None);
        assert_eq!(m[1].of(&totals::<TedEvalCounts>(&[])), None);
    }
}
