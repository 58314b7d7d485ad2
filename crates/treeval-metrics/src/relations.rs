//! Set-of-relations accuracy (van Noord et al. 2002, the Alpino treebank's evaluation):
//! per sentence, the gold relations Dt, the system relations Ds and the relations in both;
//! Df = max(|Dt|, |Ds|) − |Dt ∩ Ds| and the concept accuracy CA = 1 − Df / max(|Dt|, |Ds|)
//! (1 when both are empty), as Alpino's `evaluate.pl` computes them. The micro average is
//! 1 − ΣDf / Σmax; the macro average is the mean of the sentences' CA.

use std::ops::AddAssign;

use serde::Serialize;

use crate::measure::{ratio, Measure, Statistics};
use crate::ud::Count;

/// One sentence's relation sets (or their sums).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct RelationSetCounts {
    /// |Dt|: gold relations.
    pub gold: u64,
    /// |Ds|: system relations.
    pub system: u64,
    /// |Dt ∩ Ds|.
    pub correct: u64,
    /// Df = max(|Dt|, |Ds|) − |Dt ∩ Ds|.
    pub df: u64,
    /// max(|Dt|, |Ds|).
    pub max: u64,
    /// The sentence's CA (summed: Σ CA).
    pub ca: f64,
    /// Sentences.
    pub sentences: u64,
}

impl RelationSetCounts {
    /// One sentence's counts.
    pub fn sentence(c: &Count) -> Self {
        let max = c.gold.max(c.system);
        RelationSetCounts {
            gold: c.gold,
            system: c.system,
            correct: c.correct,
            df: max - c.correct,
            max,
            ca: if max == 0 {
                1.0
            } else {
                c.correct as f64 / max as f64
            },
            sentences: 1,
        }
    }
}

impl AddAssign for RelationSetCounts {
    fn add_assign(&mut self, o: Self) {
        self.gold += o.gold;
        self.system += o.system;
        self.correct += o.correct;
        self.df += o.df;
        self.max += o.max;
        self.ca += o.ca;
        self.sentences += o.sentences;
    }
}

impl Statistics for RelationSetCounts {
    fn columns() -> &'static [&'static str] {
        &[
            "gold_relations",
            "system_relations",
            "relations_correct",
            "ca_errors",
            "ca_max",
            "sentence_ca_sum",
            "sentences",
        ]
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend([
            self.gold as f64,
            self.system as f64,
            self.correct as f64,
            self.df as f64,
            self.max as f64,
            self.ca,
            self.sentences as f64,
        ]);
    }
}

const ALPINO: &str = "van Noord et al. 2002; Alpino's evaluate.pl";

/// The measures: the three set sizes, precision, recall and F1 of the relations, and CA
/// micro and macro (both not applicable when no sentence has a relation on either side).
pub fn measures() -> Vec<Measure> {
    let (g, s, c, df, max, ca, n) = (0, 1, 2, 3, 4, 5, 6);
    vec![
        Measure::count("Dt", "gold relations", g),
        Measure::count("Ds", "system relations", s),
        Measure::count("both", "relations in gold and system", c),
        Measure::ratio(
            "precision",
            "relation precision",
            "|Dt ∩ Ds| / |Ds|",
            ALPINO,
            c,
            s,
        ),
        Measure::ratio(
            "recall",
            "relation recall",
            "|Dt ∩ Ds| / |Dt|",
            ALPINO,
            c,
            g,
        ),
        Measure::fraction(
            "F1",
            "relation F1",
            "2·|Dt ∩ Ds| / (|Dt| + |Ds|)",
            ALPINO,
            vec![c, g, s],
            |x| ratio(2.0 * x[0], x[1] + x[2]),
        ),
        Measure::fraction(
            "CA",
            "concept accuracy (micro)",
            "1 − ΣDf / Σmax(|Dt|, |Ds|)",
            ALPINO,
            vec![df, max],
            |x| ratio(x[0], x[1]).map(|e| 1.0 - e),
        )
        .with_reference("Alpino evaluate.pl (CA, its first number)"),
        Measure::fraction(
            "CA-macro",
            "concept accuracy, the mean over sentences",
            "Σ sentence CA / sentences (CA = 1 for a sentence without relations)",
            ALPINO,
            vec![ca, n, max],
            |x| (x[2] > 0.0).then(|| x[0] / x[1]),
        )
        .with_reference("Alpino evaluate.pl (CA, its second number)"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::totals;

    #[test]
    fn the_papers_definitions() {
        // a sentence with 4 gold and 5 system relations, 3 shared: Df = 2, CA = 3/5;
        // a sentence without relations: CA 1, no weight in the micro average
        let units = [
            RelationSetCounts::sentence(&Count {
                gold: 4,
                system: 5,
                correct: 3,
                aligned: 0,
            }),
            RelationSetCounts::sentence(&Count::default()),
        ];
        assert_eq!(units[0].df, 2);
        assert_eq!(units[0].ca, 0.6);
        let sums = totals(&units);
        let m = measures();
        let get = |name: &str| m.iter().find(|x| x.name == name).unwrap().of(&sums);
        assert_eq!(get("CA"), Some(1.0 - 2.0 / 5.0));
        assert_eq!(get("CA-macro"), Some((0.6 + 1.0) / 2.0));
        assert_eq!(get("precision"), Some(3.0 / 5.0));
        assert_eq!(get("recall"), Some(3.0 / 4.0));
        assert_eq!(get("F1"), Some(6.0 / 9.0));
        // nothing to measure anywhere: not applicable, never 100
        let empty = totals(&[RelationSetCounts::sentence(&Count::default())]);
        assert_eq!(m[6].of(&empty), None);
        assert_eq!(m[7].of(&empty), None);
    }
}
