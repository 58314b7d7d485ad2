//! The measures of `deps`, as data over the per-sentence [`AttachmentCounts`]: the
//! headline accuracies, exact match, root accuracy, and the macro averages over sentences.
//! Tests and intervals resample the sentences' rows of the columns a measure reads.

use crate::measure::{Measure, Statistics};

use super::{AttachmentCounts, DepsMetric};

/// The columns of [`AttachmentCounts`], in [`Statistics::row`] order.
const COLUMNS: [&str; 14] = [
    "words",
    "uas",
    "las",
    "la",
    "root_gold",
    "root_correct",
    "sentences",
    "scored_sentences",
    "lem",
    "uem",
    "excluded",
    "sum_sentence_las",
    "sum_sentence_uas",
    "sum_sentence_la",
];

/// A column's index.
fn col(name: &str) -> usize {
    COLUMNS.iter().position(|c| *c == name).unwrap_or(0)
}

impl Statistics for AttachmentCounts {
    fn columns() -> &'static [&'static str] {
        &COLUMNS
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend([
            self.words as f64,
            self.uas as f64,
            self.las as f64,
            self.la as f64,
            self.root_gold as f64,
            self.root_correct as f64,
            self.sentences as f64,
            self.scored_sentences as f64,
            self.lem as f64,
            self.uem as f64,
            self.excluded as f64,
            self.sum_sentence_las,
            self.sum_sentence_uas,
            self.sum_sentence_la,
        ]);
    }
}

const CONLL: &str = "CoNLL-X / CoNLL 2007 shared tasks (eval.pl, eval07.pl)";
const MACRO: &str = "the mean of the sentences' scores (MaltEval's sentence macro average)";

impl DepsMetric {
    /// The metric as a [`Measure`] over [`AttachmentCounts`].
    pub fn measure(self) -> Measure {
        let r = |title, formula, source, num: &str, den: &str| {
            Measure::ratio(self.name(), title, formula, source, col(num), col(den))
        };
        match self {
            DepsMetric::Las => r(
                "labeled attachment score",
                "words with the right head and label / scored words",
                CONLL,
                "las",
                "words",
            ),
            DepsMetric::Uas => r(
                "unlabeled attachment score",
                "words with the right head / scored words",
                CONLL,
                "uas",
                "words",
            ),
            DepsMetric::La => r(
                "label accuracy",
                "words with the right label / scored words",
                CONLL,
                "la",
                "words",
            ),
            DepsMetric::Lem => r(
                "labeled exact match",
                "sentences whose scored words all have the right head and label / sentences with a scored word",
                "eval07.pl, MaltEval",
                "lem",
                "scored_sentences",
            ),
            DepsMetric::Uem => r(
                "unlabeled exact match",
                "sentences whose scored words all have the right head / sentences with a scored word",
                "eval07.pl, MaltEval",
                "uem",
                "scored_sentences",
            ),
            DepsMetric::Root => r(
                "root accuracy",
                "gold root words the system also attaches to the root / gold root words",
                "MaltEval",
                "root_correct",
                "root_gold",
            ),
            DepsMetric::MacroLas => r(
                "LAS, macro-averaged over sentences",
                "Σ sentence LAS / sentences with a scored word",
                MACRO,
                "sum_sentence_las",
                "scored_sentences",
            ),
            DepsMetric::MacroUas => r(
                "UAS, macro-averaged over sentences",
                "Σ sentence UAS / sentences with a scored word",
                MACRO,
                "sum_sentence_uas",
                "scored_sentences",
            ),
            DepsMetric::MacroLa => r(
                "LA, macro-averaged over sentences",
                "Σ sentence LA / sentences with a scored word",
                MACRO,
                "sum_sentence_la",
                "scored_sentences",
            ),
        }
    }
}

/// Every `deps` measure, in report order.
pub fn measures() -> Vec<Measure> {
    DepsMetric::ALL.iter().map(|m| m.measure()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::totals;

    #[test]
    fn every_metric_reads_what_its_ratio_says() {
        let units = [
            AttachmentCounts {
                words: 10,
                uas: 8,
                las: 7,
                la: 9,
                root_gold: 1,
                root_correct: 1,
                sentences: 1,
                scored_sentences: 1,
                lem: 0,
                uem: 0,
                excluded: 2,
                sum_sentence_las: 0.7,
                sum_sentence_uas: 0.8,
                sum_sentence_la: 0.9,
            },
            AttachmentCounts {
                words: 3,
                uas: 3,
                las: 3,
                la: 3,
                root_gold: 1,
                root_correct: 0,
                sentences: 1,
                scored_sentences: 1,
                lem: 1,
                uem: 1,
                excluded: 0,
                sum_sentence_las: 1.0,
                sum_sentence_uas: 1.0,
                sum_sentence_la: 1.0,
            },
        ];
        let sums = totals(&units);
        let sum = units[0] + units[1];
        for m in DepsMetric::ALL {
            let (n, d) = m.ratio(&sum);
            assert_eq!(m.measure().of(&sums), Some(n / d), "{}", m.name());
        }
        assert_eq!(DepsMetric::Las.measure().of(&sums), Some(10.0 / 13.0));
        assert_eq!(DepsMetric::MacroLas.measure().of(&sums), Some(1.7 / 2.0));
        assert_eq!(measures().len(), DepsMetric::ALL.len());
        let empty = totals::<AttachmentCounts>(&[]);
        assert_eq!(DepsMetric::Root.measure().of(&empty), None);
    }
}
