//! The measures of `deps`, as data over the per-sentence [`AttachmentCounts`]: the
//! headline accuracies, exact match, root accuracy, and the macro averages over sentences.
//! Tests and intervals resample the sentences' rows of the columns a measure reads.

use crate::measure::{ratio, Measure, Statistics};
use crate::score::f1;

use super::word::WORD_COUNTS;
use super::{AttachmentCounts, DepsMetric, GroupCounts, RelationCounts};

/// The columns of [`AttachmentCounts`], in [`Statistics::row`] order: its own, then
/// those of the [`WORD_COUNTS`].
const COLUMNS: [&str; 14] = [
    "words",
    "uas_correct",
    "las_correct",
    "la_correct",
    "root_gold",
    "root_correct",
    "sentences",
    "scored_sentences",
    "lem_correct",
    "uem_correct",
    "excluded_words",
    "sentence_las_sum",
    "sentence_uas_sum",
    "sentence_la_sum",
];

/// A column's index.
fn col(name: &str) -> usize {
    debug_assert!(COLUMNS.contains(&name), "no column {name}");
    COLUMNS.iter().position(|c| *c == name).unwrap_or(0)
}

impl Statistics for AttachmentCounts {
    fn columns() -> &'static [&'static str] {
        static ALL: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
        ALL.get_or_init(|| {
            let mut v = COLUMNS.to_vec();
            v.extend(WORD_COUNTS.iter().flat_map(|w| w.columns()));
            v
        })
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
        out.extend(self.extra.iter().map(|&x| x as f64));
    }
}

/// The measures of the [`WORD_COUNTS`], over their columns of [`AttachmentCounts`].
pub fn word_measures() -> Vec<Measure> {
    WORD_COUNTS
        .iter()
        .enumerate()
        .map(|(k, w)| {
            let at = COLUMNS.len() + 3 * k;
            w.measure(at, at + 1, at + 2)
        })
        .collect()
}

const CONLL: &str = "CoNLL-X / CoNLL 2007 shared tasks (eval.pl, eval07.pl)";
const MACRO: &str = "the mean of the sentences' scores (MaltEval's sentence macro average)";

impl DepsMetric {
    /// The metric as a [`Measure`] over [`AttachmentCounts`].
    pub fn measure(self) -> Measure {
        let r = |title, formula, source, num: &str, den: &str| {
            Measure::ratio(self.name(), title, formula, source, col(num), col(den))
                .with_reference(self.reference())
        };
        match self {
            DepsMetric::Las => r(
                "labeled attachment score",
                "words with the right head and label / scored words",
                CONLL,
                "las_correct",
                "words",
            ),
            DepsMetric::Uas => r(
                "unlabeled attachment score",
                "words with the right head / scored words",
                CONLL,
                "uas_correct",
                "words",
            ),
            DepsMetric::La => r(
                "label accuracy",
                "words with the right label / scored words",
                CONLL,
                "la_correct",
                "words",
            ),
            DepsMetric::Lem => r(
                "labeled exact match",
                "sentences whose scored words all have the right head and label / sentences with a scored word",
                "eval07.pl, MaltEval",
                "lem_correct",
                "scored_sentences",
            ),
            DepsMetric::Uem => r(
                "unlabeled exact match",
                "sentences whose scored words all have the right head / sentences with a scored word",
                "eval07.pl, MaltEval",
                "uem_correct",
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
                "sentence_las_sum",
                "scored_sentences",
            ),
            DepsMetric::MacroUas => r(
                "UAS, macro-averaged over sentences",
                "Σ sentence UAS / sentences with a scored word",
                MACRO,
                "sentence_uas_sum",
                "scored_sentences",
            ),
            DepsMetric::MacroLa => r(
                "LA, macro-averaged over sentences",
                "Σ sentence LA / sentences with a scored word",
                MACRO,
                "sentence_la_sum",
                "scored_sentences",
            ),
        }
    }
}

impl DepsMetric {
    /// The reference tool whose number the metric equals (empty when none).
    fn reference(self) -> &'static str {
        match self {
            DepsMetric::Las | DepsMetric::Uas | DepsMetric::La => "eval07.pl, eval.pl, MaltEval",
            DepsMetric::Lem | DepsMetric::Uem => "MaltEval (exactmatch)",
            DepsMetric::Root => "",
            DepsMetric::MacroLas | DepsMetric::MacroUas | DepsMetric::MacroLa => {
                "MaltEval --GroupBy Sentence (the mean of its rows)"
            }
        }
    }
}

/// Every `deps` measure, in report order: the [`DepsMetric`]s, then the
/// [`word_measures`].
pub fn measures() -> Vec<Measure> {
    let mut v: Vec<Measure> = DepsMetric::ALL.iter().map(|m| m.measure()).collect();
    v.extend(word_measures());
    v
}

impl Statistics for RelationCounts {
    fn columns() -> &'static [&'static str] {
        &[
            "gold_words",
            "system_words",
            "la_correct",
            "las_correct",
            "uas_correct",
            "system_uas_correct",
        ]
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend([
            self.gold as f64,
            self.system as f64,
            self.label_correct as f64,
            self.labeled_correct as f64,
            self.gold_head_correct as f64,
            self.system_head_correct as f64,
        ]);
    }
}

/// F1 of `correct` items among `system` and `gold` ones, from precision and recall as
/// the per-relation tables print them; 0 when one side is empty and the other is not
/// (nothing is correct), undefined when both are.
fn f1_or_zero(s: &[f64]) -> Option<f64> {
    let (correct, system, gold) = (s[0], s[1], s[2]);
    f1(ratio(correct, system), ratio(correct, gold)).or((gold + system > 0.0).then_some(0.0))
}

const MALT: &str = "MaltEval (per-relation precision and recall)";

/// The per-relation measures over [`RelationCounts`] (a unit is a relation): gold and
/// system words, and precision, recall and F1 labeled (head and label right), unlabeled
/// (head right) and of the label alone.
pub fn relation_measures() -> Vec<Measure> {
    let (g, s, lc, lbc, gh, sh) = (0, 1, 2, 3, 4, 5);
    vec![
        Measure::count("gold", "scored words with this gold label", g),
        Measure::count("system", "scored words with this system label", s),
        Measure::ratio(
            "LAS-P",
            "labeled precision",
            "words with this system label, right head and label / words with this system label",
            MALT,
            lbc,
            s,
        ),
        Measure::ratio(
            "LAS-R",
            "labeled recall",
            "words with this gold label, right head and label / words with this gold label",
            MALT,
            lbc,
            g,
        ),
        Measure::fraction(
            "LAS-F1",
            "labeled F1",
            "2·P·R / (P + R); 0 when only one side has the label",
            MALT,
            vec![lbc, s, g],
            f1_or_zero,
        ),
        Measure::ratio(
            "UAS-P",
            "unlabeled precision",
            "words with this system label and the right head / words with this system label",
            MALT,
            sh,
            s,
        ),
        Measure::ratio(
            "UAS-R",
            "unlabeled recall",
            "words with this gold label and the right head / words with this gold label",
            MALT,
            gh,
            g,
        ),
        Measure::fraction(
            "UAS-F1",
            "unlabeled F1",
            "2·P·R / (P + R)",
            MALT,
            vec![sh, s, gh, g],
            |x| f1(ratio(x[0], x[1]), ratio(x[2], x[3])),
        ),
        Measure::ratio(
            "LA-P",
            "label precision",
            "words with this label in both / words with this system label",
            MALT,
            lc,
            s,
        ),
        Measure::ratio(
            "LA-R",
            "label recall",
            "words with this label in both / words with this gold label",
            MALT,
            lc,
            g,
        ),
        Measure::fraction(
            "LA-F1",
            "label F1",
            "2·P·R / (P + R); 0 when only one side has the label",
            MALT,
            vec![lc, s, g],
            f1_or_zero,
        ),
    ]
}

/// One relation's scores as a unit of the macro average over relations: whether it has
/// gold words (or words on either side), and its recall-type scores and labeled F1.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RelationMacro {
    /// 1 when the relation has gold words.
    pub with_gold: f64,
    /// 1 when it has words in gold or system.
    pub with_any: f64,
    /// Its LAS over its gold words (0 without).
    pub las: f64,
    /// Its UAS over its gold words.
    pub uas: f64,
    /// Its label accuracy over its gold words.
    pub la: f64,
    /// Its labeled F1 (0 without words on either side).
    pub las_f1: f64,
}

impl RelationMacro {
    /// The unit of one relation's counts.
    pub fn of(r: &RelationCounts) -> Self {
        let mut row = Vec::new();
        r.row(&mut row);
        let part = |n: u64| ratio(n as f64, r.gold as f64).unwrap_or(0.0);
        RelationMacro {
            with_gold: f64::from(u8::from(r.gold > 0)),
            with_any: f64::from(u8::from(r.gold + r.system > 0)),
            las: part(r.labeled_correct),
            uas: part(r.gold_head_correct),
            la: part(r.label_correct),
            las_f1: f1_or_zero(&[row[3], row[1], row[0]]).unwrap_or(0.0),
        }
    }
}

impl std::ops::AddAssign for RelationMacro {
    fn add_assign(&mut self, o: Self) {
        self.with_gold += o.with_gold;
        self.with_any += o.with_any;
        self.las += o.las;
        self.uas += o.uas;
        self.la += o.la;
        self.las_f1 += o.las_f1;
    }
}

impl Statistics for RelationMacro {
    fn columns() -> &'static [&'static str] {
        &[
            "gold_relations",
            "relations",
            "las_sum",
            "uas_sum",
            "la_sum",
            "las_f1_sum",
        ]
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend([
            self.with_gold,
            self.with_any,
            self.las,
            self.uas,
            self.la,
            self.las_f1,
        ]);
    }
}

const MACRO_REL: &str = "MaltEval's macro average over relations";

/// The macro averages over relations, over [`RelationMacro`] units: the mean over the
/// relations with gold words of their LAS, UAS and LA, and the mean labeled F1 over the
/// relations with words on either side.
pub fn macro_relation_measures() -> Vec<Measure> {
    vec![
        Measure::count("relations", "relations with gold words", 0),
        Measure::ratio(
            "macro-rel-LAS",
            "LAS, macro-averaged over relations",
            "Σ relation LAS / relations with gold words",
            MACRO_REL,
            2,
            0,
        ),
        Measure::ratio(
            "macro-rel-UAS",
            "UAS, macro-averaged over relations",
            "Σ relation UAS / relations with gold words",
            MACRO_REL,
            3,
            0,
        ),
        Measure::ratio(
            "macro-rel-LA",
            "LA, macro-averaged over relations",
            "Σ relation LA / relations with gold words",
            MACRO_REL,
            4,
            0,
        ),
        Measure::ratio(
            "macro-rel-LAS-F1",
            "labeled F1, macro-averaged over relations",
            "Σ relation labeled F1 / relations with words in gold or system",
            MACRO_REL,
            5,
            1,
        ),
    ]
}

impl Statistics for GroupCounts {
    fn columns() -> &'static [&'static str] {
        &[
            "words",
            "uas_correct",
            "las_correct",
            "la_correct",
            "system_words",
            "system_uas_correct",
            "system_las_correct",
            "system_la_correct",
        ]
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend([
            self.gold as f64,
            self.gold_uas as f64,
            self.gold_las as f64,
            self.gold_la as f64,
            self.system as f64,
            self.system_uas as f64,
            self.system_las as f64,
            self.system_la as f64,
        ]);
    }
}

/// The measures of a breakdown group ([`GroupCounts`]): words and LAS, UAS, LA by the
/// gold value of the key, and with `system_side` the words and LAS by the system's value.
pub fn group_measures(system_side: bool) -> Vec<Measure> {
    let mut v = vec![
        Measure::count("words", "scored words (by the gold value)", 0),
        DepsMetric::Las.measure(),
        DepsMetric::Uas.measure(),
        DepsMetric::La.measure(),
    ];
    // the headline measures read the same column names of GroupCounts
    v[1].reads = vec![2, 0];
    v[2].reads = vec![1, 0];
    v[3].reads = vec![3, 0];
    if system_side {
        v.push(Measure::count(
            "system-words",
            "scored words by the system's value",
            4,
        ));
        v.push(Measure::ratio(
            "system-LAS",
            "LAS by the system's value",
            "words with the right head and label / words, grouped by the system's value",
            "MaltEval (system-side breakdowns)",
            6,
            4,
        ));
    }
    v
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
                extra: [0; super::super::word::EXTRA],
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
                extra: [0; super::super::word::EXTRA],
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
        assert_eq!(measures().len(), DepsMetric::ALL.len() + WORD_COUNTS.len());
        let empty = totals::<AttachmentCounts>(&[]);
        assert_eq!(DepsMetric::Root.measure().of(&empty), None);
    }
}
