//! The metrics of an n-best evaluation and their measures over [`super::PickCounts`]
//! (each pick's scores) and [`super::GapCounts`] (exact and phi).

use crate::measure::{ratio, Measure};

use super::{CandidateScore, Triples};

/// A metric candidates are scored and picked by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Labelled attachment: head and label right.
    Las,
    /// Unlabelled attachment: head right.
    Uas,
    /// Label accuracy.
    La,
    /// Concept accuracy over (head, deprel, dependent) triples.
    Ca,
}

const DEPS: &str = "CoNLL-X / CoNLL 2007 attachment scores (deps conventions)";
const ALPINO: &str = "van Noord et al. 2002; Alpino's Disambiguation/evaluate.pl";

impl Metric {
    /// Every metric, in report order.
    pub const ALL: [Metric; 4] = [Metric::Las, Metric::Uas, Metric::La, Metric::Ca];

    /// `LAS`, `UAS`, `LA`, `CA`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Las => "LAS",
            Metric::Uas => "UAS",
            Metric::La => "LA",
            Metric::Ca => "CA",
        }
    }

    /// Parse a name (any case).
    pub fn parse(s: &str) -> Option<Self> {
        Metric::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s))
    }

    /// The index in [`Metric::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The items of candidate `c` this metric counts: words for LAS/UAS/LA (gold =
    /// system = scored words), triples for CA.
    pub fn triples(self, c: &CandidateScore) -> Triples {
        let words = |right| Triples {
            overlap: right,
            gold: c.words,
            system: c.words,
        };
        match self {
            Metric::Las => words(c.las),
            Metric::Uas => words(c.uas),
            Metric::La => words(c.la),
            Metric::Ca => c.triples,
        }
    }

    /// A sentence's score: overlap / max(gold, system). With nothing to score, LAS, UAS
    /// and LA have none (the sentence is left out of their macro averages, as in `deps`)
    /// and CA is 1 (as in `relations` and evaluate.pl, whose score is 100).
    pub fn sentence_score(self, t: Triples) -> Option<f64> {
        match self {
            Metric::Ca => Some(super::relation_set(t).ca),
            _ => {
                let n = t.gold.max(t.system);
                (n > 0).then(|| t.overlap as f64 / n as f64)
            }
        }
    }
}

/// The first column of metric `m`'s block in [`super::PickCounts`] (6 columns each).
fn pick_col(m: Metric) -> usize {
    m.index() * 6
}

/// The measures of one pick: per metric the micro average (summed overlap / summed
/// max(gold, system)) and the macro average (the mean of the sentence scores), then the
/// precision, recall and F of the CA triples.
pub fn pick_measures() -> Vec<Measure> {
    let mut out = Vec::new();
    for m in Metric::ALL {
        let b = pick_col(m);
        let (micro, macro_name, formula, macro_formula, title, macro_title, source) = match m {
            Metric::Las => ("LAS", "macro-LAS", "Σ words with head and label right / Σ scored words", "Σ sentence LAS / sentences with a scored word", "labelled attachment score of the pick", "LAS of the pick, the mean over sentences", DEPS),
            Metric::Uas => ("UAS", "macro-UAS", "Σ words with head right / Σ scored words", "Σ sentence UAS / sentences with a scored word", "unlabelled attachment score of the pick", "UAS of the pick, the mean over sentences", DEPS),
            Metric::La => ("LA", "macro-LA", "Σ words with label right / Σ scored words", "Σ sentence LA / sentences with a scored word", "label accuracy of the pick", "LA of the pick, the mean over sentences", DEPS),
            Metric::Ca => ("CA", "macro-CA", "1 − Σpen / Σn, pen = max(|Dt|, |Ds|) − |Dt ∩ Ds|, n = max(|Dt|, |Ds|) over (head, deprel, dependent) triples", "Σ sentence CA / sentences (CA = 1 for a sentence without triples)", "concept accuracy of the pick", "concept accuracy of the pick, the mean over sentences", ALPINO),
        };
        // evaluate.pl scores CA only
        let (r_micro, r_macro) = match m {
            Metric::Ca => (EVALUATE_SCORE_1, EVALUATE_SCORE_2),
            _ => ("", ""),
        };
        out.push(Measure::ratio(micro, title, formula, source, b, b + 3).with_reference(r_micro));
        out.push(
            Measure::fraction(
                macro_name,
                macro_title,
                macro_formula,
                source,
                vec![b + 4, b + 5],
                |x| ratio(x[0], x[1]),
            )
            .with_reference(r_macro),
        );
    }
    let b = pick_col(Metric::Ca);
    out.push(
        Measure::ratio(
            "P",
            "precision of the triples",
            "Σ|Dt ∩ Ds| / Σ|Ds|",
            ALPINO,
            b,
            b + 2,
        )
        .with_reference("Alpino evaluate.pl -x (precision)"),
    );
    out.push(
        Measure::ratio(
            "R",
            "recall of the triples",
            "Σ|Dt ∩ Ds| / Σ|Dt|",
            ALPINO,
            b,
            b + 1,
        )
        .with_reference("Alpino evaluate.pl -x (recall)"),
    );
    out.push(
        Measure::fraction(
            "F",
            "F1 of the triples",
            "2·P·R / (P + R) = 2·Σ|Dt ∩ Ds| / (Σ|Dt| + Σ|Ds|)",
            ALPINO,
            vec![b, b + 1, b + 2],
            |x| ratio(2.0 * x[0], x[1] + x[2]),
        )
        .with_reference("Alpino evaluate.pl -x (fscore)"),
    );
    out
}

/// evaluate.pl's `*-score` line: its first number (micro CA) and its second (macro).
const EVALUATE_SCORE_1: &str = "Alpino evaluate.pl -x (score, first number)";
const EVALUATE_SCORE_2: &str = "Alpino evaluate.pl -x (score, second number)";

/// `(chosen − first) / (best − first)`, undefined when best = first.
fn phi(first: Option<f64>, best: Option<f64>, chosen: Option<f64>) -> Option<f64> {
    let (f, b, c) = (first?, best?, chosen?);
    (b != f).then(|| (c - f) / (b - f))
}

/// The measures of exact and phi, per metric: `exact-M` (sentences whose chosen candidate
/// scores as high as the best one / sentences), `phi-M` (micro: of the summed counts)
/// and `phi-macro-M` (of the mean sentence scores), both undefined when best = first.
pub fn gap_measures() -> Vec<Measure> {
    let mut out = Vec::new();
    for m in Metric::ALL {
        let b = m.index() * 10;
        let (exact, phi_micro, phi_macro) = match m {
            Metric::Las => ("exact-LAS", "phi-LAS", "phi-macro-LAS"),
            Metric::Uas => ("exact-UAS", "phi-UAS", "phi-macro-UAS"),
            Metric::La => ("exact-LA", "phi-LA", "phi-macro-LA"),
            Metric::Ca => ("exact-CA", "phi-CA", "phi-macro-CA"),
        };
        // evaluate.pl scores CA only; it prints an undefined phi as 0.00
        let tool = |t| if matches!(m, Metric::Ca) { t } else { "" };
        let (r_exact, r_phi, r_phi_macro) = (
            tool("Alpino evaluate.pl -x (exact)"),
            tool("Alpino evaluate.pl -x (phi-score, first number; n/a where it prints 0.00)"),
            tool("Alpino evaluate.pl -x (phi-score, second number; n/a where it prints 0.00)"),
        );
        out.push(
            Measure::ratio(
                exact,
                "sentences whose chosen candidate scores as high as the best one",
                "Σ [score(chosen) ≥ score(best)] / sentences",
                ALPINO,
                b + 9,
                40,
            )
            .with_reference(r_exact),
        );
        out.push(Measure::fraction(
            phi_micro,
            "phi: the share of the first–best gap the choice closes (micro)",
            "(chosen − first) / (best − first) of the micro scores; undefined when best = first",
            ALPINO,
            (b..b + 6).collect(),
            |x| phi(ratio(x[0], x[1]), ratio(x[2], x[3]), ratio(x[4], x[5])),
        ).with_reference(r_phi));
        out.push(Measure::fraction(
            phi_macro,
            "phi of the macro averages",
            "(Σ chosen − Σ first) / (Σ best − Σ first) of the sentence scores; undefined when best = first",
            ALPINO,
            vec![b + 6, b + 7, b + 8],
            |x| phi(Some(x[0]), Some(x[1]), Some(x[2])),
        ).with_reference(r_phi_macro));
    }
    out
}
