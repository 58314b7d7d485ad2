//! The measures of `brackets` over the per-sentence [`BracketCounts`] (EVALB's summary),
//! and of the careful evaluation over [`CarefulUnit`] (Hogenhout & Matsumoto's counts and
//! the measures derived from them). Tests and intervals resample the sentences.

use std::sync::Arc;

use crate::careful::{CarefulCounts, Judged};
use crate::measure::{ratio, Better, Kind, Measure, Statistics};

use super::{BracketCounts, SentenceRow};

impl BracketCounts {
    /// One sentence's counts.
    pub fn of_row(r: &SentenceRow) -> Self {
        let mut c = BracketCounts::default();
        c.add_row(r);
        c
    }
}

impl std::ops::AddAssign for BracketCounts {
    fn add_assign(&mut self, o: BracketCounts) {
        *self += &o;
    }
}

impl Statistics for BracketCounts {
    fn columns() -> &'static [&'static str] {
        &[
            "sentences",
            "error_sentences",
            "skipped_sentences",
            "brackets_correct",
            "gold_brackets",
            "system_brackets",
            "complete_sentences",
            "words",
            "crossing_brackets",
            "no_crossing_sentences",
            "two_or_less_crossing_sentences",
            "tags_correct",
            "system_untagged_words",
            "missed_sentences",
        ]
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend(self.fields().map(|x| x as f64));
    }
}

const EVALB: &str = "EVALB (Sekine & Collins 1997): PARSEVAL";

// the columns of a `BracketCounts` row
const N: usize = 0;
const ERR: usize = 1;
const SKIP: usize = 2;
const MATCHED: usize = 3;
const GOLD: usize = 4;
const TEST: usize = 5;
const COMPLETE: usize = 6;
const WORDS: usize = 7;
const CROSS: usize = 8;
const NO_CROSS: usize = 9;
const TWO: usize = 10;
const TAGS: usize = 11;
const UNTAGGED: usize = 12;
const MISSED: usize = 13;

/// EVALB's summary as measures: sentence counts, bracket recall, precision and F, complete
/// match, crossing, and tagging accuracy. The sentence figures are over the scored
/// sentences (neither error nor skipped); a figure with nothing to measure is `None`.
pub fn measures() -> Vec<Measure> {
    let mut v = Vec::with_capacity(12);
    v.extend(sentence_measures());
    v.extend(bracket_measures());
    v.extend(per_scored_measures());
    v.push(tagging());
    // every figure of EVALB's summary (EVALB has no missed sentence: it leaves them out)
    v.into_iter()
        .map(|m| match m.name {
            "missed" => m,
            _ => m.with_reference("EVALB"),
        })
        .collect()
}

/// Tagging accuracy: a test word without a POS tag is never correct, and with no
/// tagged test word at all the figure is not applicable.
fn tagging() -> Measure {
    let m = Measure::ratio(
        "tagging",
        "tagging accuracy",
        "words with the gold tag / words (n/a when no system word has a tag)",
        EVALB,
        TAGS,
        WORDS,
    );
    let ratio = m.score.clone();
    Measure {
        score: Arc::new(move |x: &[f64]| {
            // x: correct tags, words, untagged words (the columns read)
            if x[2] > 0.0 && x[2] >= x[1] {
                return None;
            }
            ratio(&x[..2])
        }),
        reads: vec![TAGS, WORDS, UNTAGGED],
        ..m
    }
}

/// [`measures`] under a `--where` condition on bracket labels: complete match, crossing
/// and tagging accuracy are properties of whole sentences (all their brackets, all their
/// words), which such a condition does not restrict, so they are not applicable (`None`,
/// n/a) rather than read over brackets they do not describe.
pub fn measures_where_label() -> Vec<Measure> {
    let mut ms = measures();
    for m in &mut ms {
        if matches!(
            m.name,
            "complete" | "crossing" | "no-crossing" | "le2-crossing" | "tagging"
        ) {
            m.formula = "n/a under --where label=…: a property of whole sentences";
            m.score = Arc::new(|_: &[f64]| None);
        }
    }
    ms
}

/// Sentences scored, from the three columns from `k` on: sentences, error, skipped.
#[inline]
fn scored(x: &[f64], k: usize) -> f64 {
    x[k] - x[k + 1] - x[k + 2]
}

/// The sentence counts: read, error, skipped, scored, and scored as missed.
fn sentence_measures() -> [Measure; 5] {
    [
        Measure::count("sentences", "sentences read", N),
        Measure::count("error", "error sentences (EVALB status 1)", ERR),
        Measure::count("skipped", "skipped sentences (EVALB status 2)", SKIP),
        Measure {
            formula: "sentences − error − skipped",
            score: Arc::new(move |x: &[f64]| Some(scored(x, 0))),
            reads: vec![N, ERR, SKIP],
            ..Measure::count("scored", "sentences scored", N)
        },
        Measure::count(
            "missed",
            "error and skipped sentences scored as empty parses (--error-sentences missed)",
            MISSED,
        ),
    ]
}

/// Bracket recall, precision and F-measure.
fn bracket_measures() -> [Measure; 3] {
    [
        Measure::ratio(
            "recall",
            "bracket recall",
            "matched / gold brackets",
            EVALB,
            MATCHED,
            GOLD,
        ),
        Measure::ratio(
            "precision",
            "bracket precision",
            "matched / system brackets",
            EVALB,
            MATCHED,
            TEST,
        ),
        Measure::fraction(
            "F",
            "bracket F-measure",
            "2·P·R / (P + R); 0 when nothing matched",
            EVALB,
            vec![MATCHED, GOLD, TEST],
            |x| match (ratio(x[0], x[2]), ratio(x[0], x[1])) {
                (Some(p), Some(r)) if p + r > 0.0 => Some(2.0 * p * r / (p + r)),
                _ => ratio(2.0 * x[0], x[1] + x[2]),
            },
        ),
    ]
}

/// Column `c` over the scored sentences, a fraction.
fn per_scored(name: &'static str, title: &'static str, formula: &'static str, c: usize) -> Measure {
    Measure::fraction(
        name,
        title,
        formula,
        EVALB,
        vec![c, N, ERR, SKIP],
        move |x| ratio(x[0], scored(x, 1)),
    )
}

/// The figures over scored sentences: complete match (whose sentences include those
/// scored as missed, never complete) and crossing (an empty parse crosses nothing: over
/// the sentences with a parse only).
fn per_scored_measures() -> [Measure; 4] {
    [
        Measure::fraction(
            "complete",
            "complete match",
            "scored sentences whose brackets all match / (scored + missed sentences)",
            EVALB,
            vec![COMPLETE, N, ERR, SKIP, MISSED],
            |x| ratio(x[0], scored(x, 1) + x[4]),
        ),
        Measure {
            name: "crossing",
            title: "average crossing brackets",
            formula: "system brackets crossing a gold bracket / scored sentences",
            source: EVALB,
            reference: "EVALB",
            kind: Kind::Mean,
            better: Better::Lower,
            reads: vec![CROSS, N, ERR, SKIP],
            score: Arc::new(move |x: &[f64]| ratio(x[0], scored(x, 1))),
        },
        per_scored(
            "no-crossing",
            "sentences without crossing",
            "scored sentences without a crossing bracket / scored sentences",
            NO_CROSS,
        ),
        per_scored(
            "le2-crossing",
            "sentences with at most 2 crossing",
            "scored sentences with ≤ 2 crossing brackets / scored sentences",
            TWO,
        ),
    ]
}

/// A system's careful-evaluation counts with its judgments (`judged` = 1 when there
/// were judgments).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CarefulUnit {
    /// The paper's counts.
    pub counts: CarefulCounts,
    /// The judgments.
    pub judged: Judged,
    /// 1 with judgments.
    pub with_judgments: u64,
}

impl std::ops::AddAssign for CarefulUnit {
    fn add_assign(&mut self, o: CarefulUnit) {
        self.counts += &o.counts;
        self.judged += &o.judged;
        self.with_judgments += o.with_judgments;
    }
}

impl Statistics for CarefulUnit {
    fn columns() -> &'static [&'static str] {
        &[
            "gold_brackets",
            "system_brackets",
            "matching_brackets",
            "crossing_brackets",
            "spurious_brackets",
            "parent_crossing_brackets",
            "parent_not_crossing_brackets",
            "parent_reproduced_brackets",
            "parent_not_reproduced_brackets",
            "accepted_matching_brackets",
            "rejected_matching_brackets",
            "accepted_crossing_brackets",
            "rejected_crossing_brackets",
            "accepted_spurious_brackets",
            "rejected_spurious_brackets",
            "judged_sentences",
        ]
    }

    fn row(&self, out: &mut Vec<f64>) {
        let (c, j) = (self.counts.fields(), self.judged.fields());
        out.clear();
        out.extend(
            c.into_iter()
                .chain(j)
                .chain([self.with_judgments])
                .map(|x| x as f64),
        );
    }
}

const HM: &str = "Hogenhout & Matsumoto 1996 (readings of the text, each with its formula)";

/// The careful evaluation's counts as measures: the paper's name and what it counts, in
/// the order of [`CarefulUnit`]'s columns.
const CAREFUL_COUNTS: [(&str, &str); 15] = [
    ("TTB", "treebank brackets"),
    ("TPB", "parse brackets"),
    ("EM", "parse brackets matching a treebank bracket"),
    ("CE", "parse brackets crossing a treebank bracket"),
    (
        "SP",
        "parse brackets neither matching nor crossing (spurious)",
    ),
    ("PINH", "crossing brackets whose parse parent also crosses"),
    ("PNINH", "crossing brackets whose parse parent does not"),
    (
        "TINH",
        "reproduced treebank brackets whose treebank parent is reproduced too",
    ),
    (
        "TNINH",
        "reproduced treebank brackets whose treebank parent is not",
    ),
    ("EMA", "exact matches accepted by the judgments"),
    ("EMR", "exact matches rejected by the judgments"),
    ("CEA", "crossing brackets accepted by the judgments"),
    ("CER", "crossing brackets rejected by the judgments"),
    ("SPA", "spurious brackets accepted by the judgments"),
    ("SPR", "spurious brackets rejected by the judgments"),
];

/// The careful evaluation's measures: the counts, the judged counts (with judgments),
/// and the derived measures (those over judgments are `None` without them).
pub fn careful_measures(judged: bool) -> Vec<Measure> {
    // the counts are measures named as the paper names them (TTB, …), over the columns
    // named by the convention of every family (gold_brackets, …)
    let count = |k: usize| Measure::count(CAREFUL_COUNTS[k].0, CAREFUL_COUNTS[k].1, k);
    let mut v: Vec<Measure> = (0..9).map(count).collect();
    if judged {
        v.extend((9..15).map(count));
    }
    let (ttb, tpb, em, ce, sp, pinh, tinh, cea, spr, j) = (0, 1, 2, 3, 4, 5, 7, 11, 14, 15);
    let r = |name, formula, num, den| Measure::ratio(name, name, formula, HM, num, den);
    let sum = |name, formula, a: usize, b: usize, den: usize| {
        Measure::fraction(name, name, formula, HM, vec![a, b, den], |x| {
            ratio(x[0] + x[1], x[2])
        })
    };
    v.extend([
        r("generation rate", "TPB / TTB", tpb, ttb),
        r("recall-hard", "EM / TTB", em, ttb),
        sum("recall-soft", "(EM + SP) / TTB", em, sp, ttb),
        r("precision-hard", "EM / TPB", em, tpb),
        sum("precision-soft", "(EM + SP) / TPB", em, sp, tpb),
        r("spuriousness", "SP / TPB", sp, tpb),
        sum("problem rate", "(CE + SP) / TPB", ce, sp, tpb),
        r("P-inheritance", "PINH / CE", pinh, ce),
        r("T-inheritance", "TINH / EM", tinh, em),
        Measure::fraction(
            "false error",
            "false error",
            "CEA / CE",
            HM,
            vec![cea, ce, j],
            |x| (x[2] > 0.0).then(|| ratio(x[0], x[1])).flatten(),
        ),
        Measure::fraction(
            "test noise",
            "test noise",
            "(CEA + SPR) / TPB",
            HM,
            vec![cea, spr, tpb, j],
            |x| (x[3] > 0.0).then(|| ratio(x[0] + x[1], x[2])).flatten(),
        ),
    ]);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brackets::Status;
    use crate::measure::totals;

    fn row(status: Status, matched: u64, gold: u64, test: u64, crossing: u64) -> SentenceRow {
        SentenceRow {
            id: 1,
            length: 3,
            status,
            matched,
            gold,
            test,
            crossing,
            words: 3,
            correct_tags: 2,
            untagged_words: 0,
            message: None,
            missed: false,
        }
    }

    #[test]
    fn every_measure_equals_evalbs_summary_figure() {
        let rows = [
            row(Status::Ok, 5, 7, 9, 2),
            row(Status::Ok, 3, 3, 3, 0),
            row(Status::Error, 0, 0, 0, 0),
            row(Status::Skip, 0, 0, 0, 0),
            // scored as an empty parse: gold brackets and words, no correct tag
            SentenceRow {
                missed: true,
                correct_tags: 0,
                untagged_words: 3,
                ..row(Status::Error, 0, 4, 0, 0)
            },
        ];
        let units: Vec<BracketCounts> = rows.iter().map(BracketCounts::of_row).collect();
        let mut sum = BracketCounts::default();
        for r in &rows {
            sum.add_row(r);
        }
        let s = sum.scores();
        let t = totals(&units);
        let get = |name: &str| {
            measures()
                .into_iter()
                .find(|m| m.name == name)
                .and_then(|m| m.of(&t))
        };
        assert_eq!(get("recall"), s.recall);
        assert_eq!(get("precision"), s.precision);
        assert_eq!(get("F"), s.fmeasure);
        assert_eq!(get("complete"), s.complete_match);
        assert_eq!(get("crossing"), s.avg_crossing);
        assert_eq!(get("no-crossing"), s.no_crossing);
        assert_eq!(get("le2-crossing"), s.two_or_less_crossing);
        assert_eq!(get("tagging"), s.tagging_accuracy);
        assert_eq!(get("scored"), Some(2.0));
        // by hand: complete 1 of 2 scored + 1 missed; recall 8 of 14; crossing over 2
        assert_eq!(get("complete"), Some(1.0 / 3.0));
        assert_eq!(get("recall"), Some(8.0 / 14.0));
        assert_eq!(get("crossing"), Some(1.0));
        // nothing scored: not applicable
        let none = totals(&[BracketCounts::of_row(&row(Status::Skip, 0, 0, 0, 0))]);
        assert!(measures()[5..].iter().all(|m| m.of(&none).is_none()));
        assert_eq!(get("missed"), Some(1.0));
    }

    #[test]
    fn careful_measures_read_the_papers_counts() {
        let u = CarefulUnit {
            counts: CarefulCounts {
                TTB: 7,
                TPB: 9,
                EM: 5,
                CE: 2,
                SP: 2,
                PINH: 1,
                PNINH: 1,
                TINH: 3,
                TNINH: 2,
            },
            ..CarefulUnit::default()
        };
        let t = totals(&[u]);
        let ms = careful_measures(false);
        let get = |name: &str| ms.iter().find(|m| m.name == name).unwrap().of(&t);
        assert_eq!(get("recall-hard"), Some(5.0 / 7.0));
        assert_eq!(get("precision-soft"), Some(7.0 / 9.0));
        assert_eq!(get("problem rate"), Some(4.0 / 9.0));
        // without judgments, the judged measures are not applicable
        assert_eq!(get("false error"), None);
        assert_eq!(ms.len(), 9 + 11);
        assert_eq!(careful_measures(true).len(), 15 + 11);
    }
}
