//! Word-alignment quality (Och & Ney 2003): precision, recall and AER over sure (S) and
//! possible (P ⊇ S) gold links, counted per sentence and summed.

use std::ops::AddAssign;

use serde::Serialize;
use treeval_formats::align::{AlignFormat, AlignmentFile, Link, LinkKind, SentenceCount};

/// Per-sentence (or summed) counts of one hypothesis against the gold links.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct AlignCounts {
    /// Sentences.
    pub sentences: u64,
    /// |A|: distinct hypothesis links.
    pub a: u64,
    /// |S|: distinct sure gold links.
    pub s: u64,
    /// |P|: distinct possible gold links (sure ones included).
    pub p: u64,
    /// |A ∩ S|.
    pub a_and_s: u64,
    /// |A ∩ P|.
    pub a_and_p: u64,
    /// Distinct hypothesis links tagged sure (or untagged).
    pub hyp_sure: u64,
    /// … of which are sure gold links (the WPT scorer's "SURE" match).
    pub hyp_sure_and_s: u64,
    /// Distinct hypothesis links tagged possible.
    pub hyp_possible: u64,
    /// Hypothesis links tagged both sure and possible.
    pub hyp_both: u64,
    /// Distinct gold links tagged possible (and not sure).
    pub gold_possible_only: u64,
    /// Distinct gold links tagged both sure and possible.
    pub gold_both: u64,
    /// Hypothesis links tagged both sure and possible that are gold links.
    pub hyp_both_and_p: u64,
    /// … of which are sure gold links.
    pub hyp_both_and_s: u64,
    /// Repeated links in the hypothesis (counted once in A).
    pub hyp_duplicates: u64,
    /// Repeated links in the gold.
    pub gold_duplicates: u64,
    /// Hypothesis links with a NULL side (not in A unless NULL links are kept).
    pub hyp_null: u64,
    /// Gold links with a NULL side (not in S/P unless NULL links are kept).
    pub gold_null: u64,
}

impl AddAssign for AlignCounts {
    fn add_assign(&mut self, o: Self) {
        self.sentences += o.sentences;
        self.a += o.a;
        self.s += o.s;
        self.p += o.p;
        self.a_and_s += o.a_and_s;
        self.a_and_p += o.a_and_p;
        self.hyp_sure += o.hyp_sure;
        self.hyp_sure_and_s += o.hyp_sure_and_s;
        self.hyp_possible += o.hyp_possible;
        self.hyp_both += o.hyp_both;
        self.gold_possible_only += o.gold_possible_only;
        self.gold_both += o.gold_both;
        self.hyp_both_and_p += o.hyp_both_and_p;
        self.hyp_both_and_s += o.hyp_both_and_s;
        self.hyp_duplicates += o.hyp_duplicates;
        self.gold_duplicates += o.gold_duplicates;
        self.hyp_null += o.hyp_null;
        self.gold_null += o.gold_null;
    }
}

type Key = (u32, u32);

fn key(l: &Link) -> Key {
    (l.a.unwrap_or(u32::MAX), l.b.unwrap_or(u32::MAX))
}

/// Distinct links with their tags: (key, tagged sure, tagged possible); also the number of
/// repeated and NULL links.
fn distinct(links: &[Link], keep_null: bool) -> (Vec<(Key, bool, bool)>, u64, u64) {
    let mut v: Vec<(Key, LinkKind)> = Vec::with_capacity(links.len());
    let mut nulls = 0;
    for l in links {
        if l.a.is_none() || l.b.is_none() {
            nulls += 1;
            if !keep_null {
                continue;
            }
        }
        v.push((key(l), l.kind));
    }
    v.sort_unstable();
    let mut out: Vec<(Key, bool, bool)> = Vec::with_capacity(v.len());
    let mut dups = 0;
    for (k, kind) in v {
        match out.last_mut() {
            Some(last) if last.0 == k => {
                let tagged_before = if kind == LinkKind::Sure {
                    last.1
                } else {
                    last.2
                };
                if tagged_before {
                    dups += 1;
                }
                match kind {
                    LinkKind::Sure => last.1 = true,
                    LinkKind::Possible => last.2 = true,
                }
            }
            _ => out.push((k, kind == LinkKind::Sure, kind == LinkKind::Possible)),
        }
    }
    (out, dups, nulls)
}

/// Count one sentence. Gold links tagged sure form S; all gold links form P. Every
/// hypothesis link is in A whatever its tag. NULL links are left out (and counted) unless
/// `keep_null`.
pub fn observe(gold: &[Link], hyp: &[Link], keep_null: bool) -> AlignCounts {
    let (g, gold_duplicates, gold_null) = distinct(gold, keep_null);
    let (h, hyp_duplicates, hyp_null) = distinct(hyp, keep_null);
    let mut c = AlignCounts {
        sentences: 1,
        gold_duplicates,
        gold_null,
        hyp_duplicates,
        hyp_null,
        ..AlignCounts::default()
    };
    for &(_, sure, possible) in &g {
        c.p += 1;
        if sure {
            c.s += 1;
            c.gold_both += u64::from(possible);
        } else {
            c.gold_possible_only += 1;
        }
    }
    for &(k, hs, hp) in &h {
        c.a += 1;
        c.hyp_sure += u64::from(hs);
        c.hyp_possible += u64::from(hp);
        c.hyp_both += u64::from(hs && hp);
        if let Ok(i) = g.binary_search_by(|x| x.0.cmp(&k)) {
            let gold_sure = g[i].1;
            c.a_and_p += 1;
            c.hyp_both_and_p += u64::from(hs && hp);
            if gold_sure {
                c.a_and_s += 1;
                c.hyp_sure_and_s += u64::from(hs);
                c.hyp_both_and_s += u64::from(hs && hp);
            }
        }
    }
    c
}

/// A problem found while pairing the sentences of a gold file and its hypotheses: the
/// file it concerns, what is wrong (naming both counts), and a hint. Displayed as
/// `path: message` and an indented `hint:` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingProblem {
    /// What does not pair up, as a warning's kind (where a reference scorer goes on).
    pub kind: treeval_formats::WarningKind,
    /// The file at fault (as given).
    pub path: String,
    /// What does not pair up.
    pub message: String,
    /// How to fix it, where a fix is likely.
    pub hint: Option<String>,
}

impl std::fmt::Display for PairingProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)?;
        if let Some(h) = &self.hint {
            write!(f, "\n  hint: {h}")?;
        }
        Ok(())
    }
}

/// How the sentences of a gold file and its hypotheses pair up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    /// The number of sentences scored (the gold's).
    pub sentences: u64,
    /// Counts that do not pair up: errors (the caller may turn them into warnings where a
    /// reference scorer goes on).
    pub errors: Vec<PairingProblem>,
    /// Legal but suspicious: NAACL hypotheses without links in the gold's last sentences.
    pub warnings: Vec<PairingProblem>,
}

/// Pair the sentences of `gold` and `hyps`. The number of sentences is `declared` if
/// given (with where it comes from: `--sentences`, or the parses that `pts` pairs the
/// alignments with), else the gold's: its lines (Pharaoh) or its highest sentence
/// number (NAACL, whose sentences exist only through their links).
///
/// - A Pharaoh file must have exactly that many lines.
/// - A NAACL file must have no sentence number beyond it. Sentences it does not mention
///   are empty: NAACL cannot write a sentence without links. A NAACL hypothesis without
///   links in the gold's last sentences is a warning (a truncated file looks the same).
/// - A gold file with no sentence, or with no link at all, is an error: there is
///   nothing to score against.
/// - A NAACL gold with fewer sentences than a Pharaoh hypothesis has lines is an error
///   unless `declared` settles the count (the gold's last sentences may lack links).
pub fn pair_sentences(
    gold: &AlignmentFile,
    hyps: &[&AlignmentFile],
    declared: Option<(u64, &str)>,
) -> Pairing {
    let mut p = Pairer::new(gold, declared);
    if p.check_gold() {
        for h in hyps {
            p.hypothesis(h);
        }
    }
    Pairing {
        sentences: p.n,
        errors: p.errors,
        warnings: p.warnings,
    }
}

/// A problem of the file at `path`.
fn problem(
    kind: treeval_formats::WarningKind,
    path: &str,
    message: String,
    hint: Option<String>,
) -> PairingProblem {
    PairingProblem {
        kind,
        path: path.to_owned(),
        message,
        hint,
    }
}

/// A pairing under way ([`pair_sentences`]): the gold, the number of sentences and
/// where it comes from, and the problems found so far.
struct Pairer<'a> {
    gold: &'a AlignmentFile,
    gold_path: String,
    /// What the gold file states.
    stated: SentenceCount,
    /// Whether the number of sentences was given.
    declared: bool,
    /// The number of sentences.
    n: u64,
    /// The number of sentences, with where it comes from.
    counted: String,
    errors: Vec<PairingProblem>,
    warnings: Vec<PairingProblem>,
}

impl<'a> Pairer<'a> {
    /// The number of sentences: `declared` (an error where the gold states another),
    /// else the gold's.
    fn new(gold: &'a AlignmentFile, declared: Option<(u64, &str)>) -> Self {
        let gold_path = gold.path.to_string();
        let mut errors = Vec::new();
        let stated = gold.sentence_count();
        let (n, counted) = match (declared, stated) {
            (Some((d, source)), SentenceCount::Lines(l)) if l != d => {
                errors.push(problem(
                    treeval_formats::WarningKind::SentenceCount,
                    &gold_path,
                    format!("has {stated}, but there are {d} ({source})"),
                    None,
                ));
                (d, format!("{d} sentence(s) ({source})"))
            }
            (Some((d, source)), SentenceCount::Highest(h)) if h > d => {
                errors.push(problem(
                    treeval_formats::WarningKind::SentenceCount,
                    &gold_path,
                    format!("has links in sentence {h}, but there are {d} sentence(s) ({source})"),
                    None,
                ));
                (d, format!("{d} sentence(s) ({source})"))
            }
            (Some((d, source)), _) => (d, format!("{d} sentence(s) ({source})")),
            (None, c) => (c.value(), stated.to_string()),
        };
        Pairer {
            gold,
            gold_path,
            stated,
            declared: declared.is_some(),
            n,
            counted,
            errors,
            warnings: Vec::new(),
        }
    }

    /// The errors of a gold without sentences (`false`: nothing to pair) or without links.
    fn check_gold(&mut self) -> bool {
        if self.n == 0 {
            self.errors.push(problem(
                treeval_formats::WarningKind::EmptyGold,
                &self.gold_path,
                "the gold has no sentence: there is nothing to score against".to_string(),
                Some("is this the right gold file? (an empty file, or one without links)".into()),
            ));
            return false;
        }
        if self.gold.link_count() == 0 {
            self.errors.push(problem(
                treeval_formats::WarningKind::EmptyGold,
                &self.gold_path,
                format!(
                    "the gold has {} but no link: there is nothing to score against",
                    self.counted
                ),
                None,
            ));
        }
        true
    }

    /// The problems of hypothesis `h`: sentences that do not pair with the gold's.
    fn hypothesis(&mut self, h: &AlignmentFile) {
        let path = h.path.to_string();
        let (n, gold_path, counted) = (self.n, &self.gold_path, &self.counted);
        match h.sentence_count() {
            SentenceCount::Lines(l) if l != n => self.errors.push(problem(
                    treeval_formats::WarningKind::SentenceCount,
                &path,
                format!(
                    "has {}, but the gold {gold_path} has {}: the files must pair sentence by sentence",
                    h.sentence_count(),
                    counted
                ),
                Some(self.lines_hint(h, l)),
            )),
            SentenceCount::Highest(k) if k > n => self.errors.push(problem(
                    treeval_formats::WarningKind::SentenceCount,
                &path,
                format!(
                    "has links in sentence {k}, but the gold {gold_path} has {}",
                    counted
                ),
                Some("are the files for the same sentences, in the same order?".into()),
            )),
            SentenceCount::Highest(k) if k < n => self.warnings.push(problem(
                    treeval_formats::WarningKind::NoLinksAtEnd,
                &path,
                format!(
                    "has no link in the last {} sentence(s) of the gold {gold_path} ({}–{n}): scored as sentences without links (NAACL cannot tell them from a truncated file)",
                    n - k,
                    k + 1
                ),
                Some("is the file complete?".into()),
            )),
            _ => {}
        }
    }

    /// The hint for hypothesis `h` of `l` lines, where the gold has another number of
    /// sentences.
    fn lines_hint(&self, h: &AlignmentFile, l: u64) -> String {
        let n = self.n;
        if !self.declared && matches!(self.stated, SentenceCount::Highest(_)) && l > n {
            format!(
                "NAACL cannot write sentences without links: if the gold's last {} sentence(s) have none, give --sentences {l}",
                l - n
            )
        } else if l > n && h.trailing_empty() >= l - n {
            format!("its last {} line(s) are empty", l - n)
        } else if l < n
            && self.gold.format == AlignFormat::Pharaoh
            && self.gold.trailing_empty() >= n - l
        {
            format!("the gold's last {} line(s) are empty", n - l)
        } else {
            "are the files for the same sentences, in the same order?".into()
        }
    }
}

/// The WPT scorer compares links as text (`sentence pos pos`), so a NAACL sentence whose
/// number is written differently in the two files (`3` and `0003`) matches no link
/// there. This returns the hypothesis as the scorer sees it (the links of such sentences
/// moved to sentence numbers no gold sentence has) and the sentences concerned.
pub fn as_wa_eval_sees_it(gold: &AlignmentFile, hyp: &AlignmentFile) -> (AlignmentFile, Vec<u64>) {
    let mut seen = hyp.clone();
    let mut moved = Vec::new();
    if gold.format != AlignFormat::Naacl || hyp.format != AlignFormat::Naacl {
        return (seen, moved);
    }
    for (k, w) in &hyp.id_widths {
        if gold.id_widths.get(k).is_some_and(|g| g != w) {
            if let Some(links) = seen.sentences.remove(k) {
                seen.sentences.insert(k | 1 << 63, links);
            }
            moved.push(*k);
        }
    }
    (seen, moved)
}

/// The sentence numbers that occur in any of `files` (sorted, each once). Sentences are
/// taken from the files, never from a numeric range, so a stray huge sentence number
/// costs one row, not billions.
pub fn sentence_numbers<'a>(files: impl IntoIterator<Item = &'a AlignmentFile>) -> Vec<u64> {
    let mut v: Vec<u64> = files
        .into_iter()
        .flat_map(|f| f.sentences.keys().copied())
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Per-sentence counts of `hyp` against `gold` for the given sentence numbers (use the
/// same list for every hypothesis, so that their rows pair up for the tests).
pub fn count_files(
    gold: &AlignmentFile,
    hyp: &AlignmentFile,
    keep_null: bool,
    sentences: &[u64],
) -> Vec<AlignCounts> {
    sentences
        .iter()
        .map(|k| {
            let g = gold.sentences.get(k).map_or(&[][..], Vec::as_slice);
            let h = hyp.sentences.get(k).map_or(&[][..], Vec::as_slice);
            observe(g, h, keep_null)
        })
        .collect()
}

/// The sum of per-sentence counts.
pub fn sum(rows: &[AlignCounts]) -> AlignCounts {
    let mut t = AlignCounts::default();
    for r in rows {
        t += *r;
    }
    t
}

fn ratio(n: u64, d: u64) -> Option<f64> {
    (d > 0).then(|| n as f64 / d as f64)
}

/// Scores from summed counts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AlignScores {
    /// |A ∩ P| / |A|.
    pub precision: Option<f64>,
    /// |A ∩ S| / |S|.
    pub recall: Option<f64>,
    /// 1 − (|A ∩ S| + |A ∩ P|) / (|A| + |S|).
    pub aer: Option<f64>,
    /// 1 / (α/precision + (1 − α)/recall).
    pub f: Option<f64>,
    /// Precision and recall on the sure set: |A ∩ S|/|A|, |A ∩ S|/|S|.
    pub sure: PrecisionRecall,
    /// Precision and recall on the possible set: |A ∩ P|/|A|, |A ∩ P|/|P|.
    pub possible: PrecisionRecall,
}

/// A precision/recall pair.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PrecisionRecall {
    /// Precision.
    pub precision: Option<f64>,
    /// Recall.
    pub recall: Option<f64>,
}

/// F_α = 1 / (α/P + (1 − α)/R): P at α = 1 and R at α = 0 (whatever the other is);
/// otherwise 0 when P or R is 0 (its limit), and undefined when either is.
pub fn f_alpha(precision: Option<f64>, recall: Option<f64>, alpha: f64) -> Option<f64> {
    match (precision, recall) {
        (Some(p), _) if alpha == 1.0 => Some(p),
        (_, Some(r)) if alpha == 0.0 => Some(r),
        (Some(p), Some(r)) if p > 0.0 && r > 0.0 => Some(1.0 / (alpha / p + (1.0 - alpha) / r)),
        (Some(_), Some(_)) => Some(0.0),
        _ => None,
    }
}

/// AER from its four counts (the statistic the significance tests resample):
/// `[a, s, a_and_s, a_and_p]`.
pub fn aer_of(sums: &[f64]) -> Option<f64> {
    let den = sums[0] + sums[1];
    (den > 0.0).then(|| 1.0 - (sums[2] + sums[3]) / den)
}

impl AlignCounts {
    /// The scores, with F weighted by `alpha` (0.5 = F1).
    pub fn scores(&self, alpha: f64) -> AlignScores {
        let precision = ratio(self.a_and_p, self.a);
        let recall = ratio(self.a_and_s, self.s);
        let f = f_alpha(precision, recall, alpha);
        AlignScores {
            precision,
            recall,
            aer: aer_of(&self.aer_row()),
            f,
            sure: PrecisionRecall {
                precision: ratio(self.a_and_s, self.a),
                recall: ratio(self.a_and_s, self.s),
            },
            possible: PrecisionRecall {
                precision: ratio(self.a_and_p, self.a),
                recall: ratio(self.a_and_p, self.p),
            },
        }
    }

    /// `[a, s, a_and_s, a_and_p]`, the columns [`aer_of`] reads.
    pub fn aer_row(&self) -> [f64; 4] {
        [
            self.a as f64,
            self.s as f64,
            self.a_and_s as f64,
            self.a_and_p as f64,
        ]
    }
}

/// The columns of [`AlignCounts`] its measures read.
const A: usize = 0;
const S: usize = 1;
const P: usize = 2;
const A_AND_S: usize = 3;
const A_AND_P: usize = 4;

impl crate::measure::Statistics for AlignCounts {
    fn columns() -> &'static [&'static str] {
        &[
            "system_links",
            "sure_links",
            "possible_links",
            "system_sure_links",
            "system_possible_links",
        ]
    }
    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend([self.a, self.s, self.p, self.a_and_s, self.a_and_p].map(|x| x as f64));
    }
}

/// The measures of `align`, with F at `alpha`.
pub fn measures(alpha: f64) -> Vec<crate::measure::Measure> {
    use crate::measure::{Better, Kind, Measure};
    const OCH_NEY: &str = "Och & Ney 2003; wa_eval_align.pl, aer.py";
    const WPT_AER: &str = "aer.py, wa_eval_align.pl (WPT scorer)";
    let aer = Measure {
        name: "AER",
        title: "alignment error rate",
        formula: "1 - (|A∩S| + |A∩P|) / (|A| + |S|)",
        source: OCH_NEY,
        reference: WPT_AER,
        kind: Kind::Fraction,
        better: Better::Lower,
        reads: vec![A, S, A_AND_S, A_AND_P],
        score: std::sync::Arc::new(aer_of),
    };
    let f = Measure {
        name: "F",
        title: "F-measure (precision on P, recall on S)",
        formula: "1 / (α/precision + (1 - α)/recall)",
        source: "Fraser & Marcu 2007",
        reference: "aer.py --fAlpha",
        kind: Kind::Fraction,
        better: Better::Higher,
        reads: vec![A_AND_P, A, A_AND_S, S],
        score: std::sync::Arc::new(move |s: &[f64]| {
            let r = |n: f64, d: f64| (d > 0.0).then(|| n / d);
            f_alpha(r(s[0], s[1]), r(s[2], s[3]), alpha)
        }),
    };
    vec![
        Measure::count("links", "hypothesis links |A|", A),
        Measure::ratio("precision", "precision", "|A∩P| / |A|", OCH_NEY, A_AND_P, A)
            .with_reference(WPT_AER),
        Measure::ratio("recall", "recall", "|A∩S| / |S|", OCH_NEY, A_AND_S, S)
            .with_reference("aer.py"),
        aer,
        f,
        Measure::ratio(
            "sure-precision",
            "precision on the sure links",
            "|A∩S| / |A|",
            "",
            A_AND_S,
            A,
        ),
        Measure::ratio(
            "sure-recall",
            "recall on the sure links",
            "|A∩S| / |S|",
            "",
            A_AND_S,
            S,
        ),
        Measure::ratio(
            "possible-precision",
            "precision on the possible links",
            "|A∩P| / |A|",
            "",
            A_AND_P,
            A,
        ),
        Measure::ratio(
            "possible-recall",
            "recall on the possible links",
            "|A∩P| / |P|",
            "",
            A_AND_P,
            P,
        ),
        Measure::count("A_and_S", "|A∩S|", A_AND_S),
        Measure::count("A_and_P", "|A∩P|", A_AND_P),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(a: u32, b: u32, kind: LinkKind) -> Link {
        Link {
            a: Some(a),
            b: Some(b),
            kind,
            line: 0,
            columns: [1, 1],
        }
    }
    use LinkKind::{Possible as P, Sure as S};

    #[test]
    fn och_ney_formulas_by_hand() {
        // gold: S = {(0,0), (1,1)}, P = S ∪ {(2,2), (2,3)}
        let gold = [l(0, 0, S), l(1, 1, S), l(2, 2, P), l(2, 3, P)];
        // hypothesis: (0,0) sure hit, (2,2) possible hit, (3,3) wrong
        let hyp = [l(0, 0, S), l(2, 2, S), l(3, 3, S)];
        let c = observe(&gold, &hyp, false);
        assert_eq!((c.a, c.s, c.p, c.a_and_s, c.a_and_p), (3, 2, 4, 1, 2));
        let sc = c.scores(0.5);
        assert_eq!(sc.precision, Some(2.0 / 3.0));
        assert_eq!(sc.recall, Some(0.5));
        // AER = 1 - (1 + 2) / (3 + 2) = 0.4
        assert!((sc.aer.unwrap() - 0.4).abs() < 1e-15);
        assert!((sc.f.unwrap() - 4.0 / 7.0).abs() < 1e-15);
        assert_eq!(sc.sure.precision, Some(1.0 / 3.0));
        assert_eq!(sc.possible.recall, Some(0.5));
    }

    #[test]
    fn sentence_numbers_are_sparse() {
        // found by fuzzing: a huge NAACL sentence number must not allocate a dense range
        let text = "1 1 1 S\n2 3 5 S\n111111111113 1 1\n";
        let f = treeval_formats::align::read_alignments("t", text.as_bytes(), Default::default())
            .unwrap();
        let numbers = sentence_numbers([&f]);
        assert_eq!(numbers, vec![1, 2, 111_111_111_113]);
        let rows = count_files(&f, &f, false, &numbers);
        assert_eq!(rows.len(), 3);
        assert_eq!(sum(&rows).aer_row(), [3.0, 3.0, 3.0, 3.0]);
    }

    fn file(text: &str) -> AlignmentFile {
        treeval_formats::align::read_alignments("f", text.as_bytes(), Default::default()).unwrap()
    }

    #[test]
    fn sentence_counts_must_pair_up() {
        let naacl = file("1 1 1 S\n3 1 1 S\n");
        let pharaoh3 = file("0-0\n\n0-0\n");
        let pharaoh2 = file("0-0\n\n");
        // a Pharaoh hypothesis has exactly the gold's count of lines
        let p = pair_sentences(&naacl, &[&pharaoh3], None);
        assert_eq!((p.sentences, p.errors.len(), p.warnings.len()), (3, 0, 0));
        let p = pair_sentences(&naacl, &[&pharaoh2], None);
        assert_eq!(p.errors.len(), 1);
        assert_eq!(
            p.errors[0].to_string(),
            "f: has 2 sentence(s) (lines), but the gold f has 3 sentence(s) (its highest sentence number): the files must pair sentence by sentence\n  hint: are the files for the same sentences, in the same order?"
        );
        // a NAACL hypothesis: beyond the gold is an error, short of it a warning
        let p = pair_sentences(&pharaoh2, &[&naacl], None);
        assert_eq!(p.errors.len(), 1, "{:?}", p.errors);
        assert!(p.errors[0].message.starts_with("has links in sentence 3"));
        let p = pair_sentences(&pharaoh3, &[&file("1 1 1\n")], None);
        assert_eq!((p.errors.len(), p.warnings.len()), (0, 1));
        // a NAACL gold cannot state trailing sentences without links: --sentences can
        let p = pair_sentences(&naacl, &[&file("0-0\n\n0-0\n\n")], None);
        assert!(p.errors[0]
            .hint
            .as_deref()
            .unwrap()
            .ends_with("give --sentences 4"));
        let p = pair_sentences(&naacl, &[&file("0-0\n\n0-0\n\n")], Some((4, "--sentences")));
        assert_eq!((p.sentences, p.errors.len()), (4, 0));
        let p = pair_sentences(&naacl, &[], Some((2, "--sentences")));
        assert_eq!(p.errors.len(), 1);
        // an empty gold, or one without links, is nothing to score against
        let p = pair_sentences(&file(""), &[&pharaoh2], None);
        assert!(p.errors[0].message.contains("no sentence"));
        let p = pair_sentences(&file("\n\n"), &[&pharaoh2], None);
        assert!(
            p.errors[0].message.contains("but no link"),
            "{:?}",
            p.errors
        );
    }

    #[test]
    fn nothing_to_measure_is_none() {
        let sc = AlignCounts::default().scores(0.5);
        assert_eq!(
            (sc.precision, sc.recall, sc.aer, sc.f),
            (None, None, None, None)
        );
        assert_eq!(sc.sure.precision, None);
        assert_eq!(sc.possible.recall, None);
        // F at α = 1 is the precision, at α = 0 the recall, whatever the other is
        let c = AlignCounts {
            a: 4,
            a_and_p: 2,
            s: 0,
            ..AlignCounts::default()
        };
        assert_eq!(c.scores(1.0).f, Some(0.5));
        assert_eq!(c.scores(0.5).f, None);
        let c = AlignCounts {
            a: 4,
            s: 2,
            a_and_s: 1,
            ..AlignCounts::default()
        };
        assert_eq!(c.scores(0.0).f, Some(0.5));
        assert_eq!(c.scores(1.0).f, Some(0.0));
    }

    #[test]
    fn the_wpt_scorer_sees_differently_written_sentence_numbers_as_other_links() {
        let gold = file("0001 1 1 S\n0002 1 1 S\n");
        let hyp = file("0001 1 1\n2 1 1\n");
        let (seen, moved) = as_wa_eval_sees_it(&gold, &hyp);
        assert_eq!(moved, vec![2]);
        let c = sum(&count_files(
            &gold,
            &seen,
            false,
            &sentence_numbers([&gold, &seen]),
        ));
        assert_eq!((c.a, c.a_and_s), (2, 1));
    }

    #[test]
    fn with_s_equal_p_aer_is_one_minus_f1() {
        let gold = [l(0, 0, S), l(1, 1, S), l(2, 2, S)];
        let hyp = [l(0, 0, S), l(1, 2, S)];
        let sc = observe(&gold, &hyp, false).scores(0.5);
        assert!((sc.aer.unwrap() - (1.0 - sc.f.unwrap())).abs() < 1e-15);
    }

    #[test]
    fn empty_hypothesis_duplicates_and_nulls() {
        let gold = [l(0, 0, S), l(0, 0, S)];
        let c = observe(&gold, &[], false);
        assert_eq!(c.gold_duplicates, 1);
        let sc = c.scores(0.5);
        assert_eq!(sc.precision, None);
        assert_eq!(
            sc.aer,
            Some(1.0),
            "an empty hypothesis is all wrong (the WPT scorer says 0)"
        );
        let null = Link {
            a: None,
            b: Some(1),
            kind: S,
            line: 0,
            columns: [1, 1],
        };
        let hyp = [l(0, 0, S), l(0, 0, P), l(0, 0, S), null];
        let c = observe(&gold, &hyp, false);
        assert_eq!(
            (c.a, c.hyp_duplicates, c.hyp_null, c.hyp_both),
            (1, 1, 1, 1)
        );
        let c = observe(&gold, &hyp, true);
        assert_eq!(c.a, 2);
    }
}
