//! Breakdowns of the bracket scores (`brackets --by label,length`) and the brackets of
//! every scored sentence (for the HTML page's sentence browser).
//!
//! Both count exactly the brackets EVALB counts: those of the scored sentences, after the
//! parameter file's deletions, labels cut at `-`/`=` and `EQ_LABEL` pairs taken as one
//! label. Summed over labels (or length bins), gold, test and matched brackets are the
//! totals of the `all` summary.

use serde::Serialize;

use crate::measure::{Measure, Statistics};

use super::{Scorer, SentenceRow};

/// A breakdown of `brackets` (`--by`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum BracketsKey {
    /// The bracket's label as EVALB compares it (cut at `-`/`=`, `EQ_LABEL` pairs as one).
    Label,
    /// The sentence length in words (as for `CUTOFF_LEN`), in the bins of
    /// [`crate::bins::LENGTH_BINS`].
    Length,
}

impl BracketsKey {
    /// Every key, in report order.
    pub const ALL: [BracketsKey; 2] = [BracketsKey::Label, BracketsKey::Length];

    /// The name on the command line and in the report.
    pub fn name(self) -> &'static str {
        match self {
            BracketsKey::Label => "label",
            BracketsKey::Length => "length",
        }
    }

    /// Parse a name.
    pub fn parse(s: &str) -> Option<Self> {
        BracketsKey::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// Counts of one group of a breakdown: scored sentences (length bins only), gold, test and
/// matched brackets, the columns of [`super::BracketCounts`] its measures read.
///
/// By label, a matched pair counts under its gold bracket's label: with `LABELED 1` the
/// test bracket has the same label (as compared); with `LABELED 0`, where spans alone
/// match, a matched test bracket counts under its gold bracket's label, so that in every
/// group matched ≤ gold and matched ≤ test.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct BracketGroup {
    /// Scored sentences (in a length bin; 0 in a label group).
    pub sentences: u64,
    /// Gold brackets.
    pub gold: u64,
    /// Test brackets.
    pub test: u64,
    /// Matched brackets.
    pub matched: u64,
}

crate::measure::sum_fields!(BracketGroup {
    sentences,
    gold,
    test,
    matched,
});

impl std::ops::AddAssign for BracketGroup {
    fn add_assign(&mut self, o: BracketGroup) {
        *self += &o;
    }
}

impl Statistics for BracketGroup {
    fn columns() -> &'static [&'static str] {
        &[
            "sentences",
            "gold_brackets",
            "system_brackets",
            "brackets_correct",
        ]
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend(self.fields().map(|x| x as f64));
    }
}

impl BracketGroup {
    /// A scored sentence's counts, or the gold brackets of one scored as missed (nothing
    /// for a sentence left out of the scores).
    pub fn of_row(r: &SentenceRow) -> Self {
        if !r.counted() {
            return BracketGroup::default();
        }
        BracketGroup {
            sentences: u64::from(!r.missed),
            gold: r.gold,
            test: r.test,
            matched: r.matched,
        }
    }
}

/// The measures of a breakdown group: with `sentences` the scored sentences (length bins),
/// then gold, system and matched brackets, and the summary's recall, precision and F
/// reading the same columns.
pub fn group_measures(sentences: bool) -> Vec<Measure> {
    let mut v = Vec::with_capacity(7);
    if sentences {
        v.push(Measure::count("scored", "sentences scored", 0));
    }
    v.extend([
        Measure::count("gold", "gold brackets", 1),
        Measure::count("system", "system brackets", 2),
        Measure::count("matched", "matched brackets", 3),
    ]);
    let (matched, gold, test) = (3, 1, 2);
    for mut m in super::measures::measures() {
        m.reads = match m.name {
            "recall" => vec![matched, gold],
            "precision" => vec![matched, test],
            "F" => vec![matched, gold, test],
            _ => continue,
        };
        v.push(m);
    }
    v
}

/// Sentence rows' counts summed per length bin (the scored sentences only), bins in
/// their natural order, empty bins left out.
pub fn by_length(rows: &[SentenceRow]) -> Vec<(String, BracketGroup)> {
    let bins = crate::bins::LENGTH_BINS;
    let mut sums = [BracketGroup::default(); 6];
    for r in rows.iter().filter(|r| r.counted()) {
        let bin = crate::bins::length_bin(r.length as usize);
        if let Some(k) = bins.iter().position(|b| *b == bin) {
            sums[k] += BracketGroup::of_row(r);
        }
    }
    bins.iter()
        .zip(sums)
        .filter(|(_, g)| g.sentences > 0 || g.gold > 0)
        .map(|(b, g)| ((*b).to_owned(), g))
        .collect()
}

/// One counted bracket of a scored sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counted {
    /// Its label as compared: an index into [`super::BracketResult::label_names`].
    pub label: u32,
    /// First word (0-based, over the scored words).
    pub start: u32,
    /// One past the last word.
    pub end: u32,
    /// Matched under EVALB's matching.
    pub matched: bool,
}

/// The brackets of one scored sentence, as EVALB counts them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScoredBrackets {
    /// 1-based sentence number.
    pub id: u64,
    /// The scored words (the gold tree's, after `DELETE_LABEL` pre-terminals are removed).
    pub words: Vec<String>,
    /// Each scored word's gold tag: an index into [`super::BracketResult::label_names`].
    pub tags: Vec<u32>,
    /// The gold brackets, in the order they open.
    pub gold: Vec<Counted>,
    /// The test brackets, in the order they open.
    pub test: Vec<Counted>,
}

impl Scorer {
    /// The label a bracket is compared and counted under: `EQ_LABEL` pairs go to the
    /// first label of their class.
    #[inline]
    pub(super) fn canonical(&self, id: u32) -> u32 {
        self.canon.get(id as usize).copied().unwrap_or(id)
    }

    /// Join the classes of `EQ_LABEL` pairs (in file order; a class is named by the first
    /// label of its first pair).
    pub(super) fn join_equal_labels(&mut self, pairs: &[(u32, u32)]) {
        for &(a, b) in pairs {
            let (ra, rb) = (self.canonical(a), self.canonical(b));
            if ra != rb {
                for c in self.canon.iter_mut().filter(|c| **c == rb) {
                    *c = ra;
                }
            }
        }
    }

    /// Add the brackets of the sentence just scored to `groups` (indexed by label).
    pub(super) fn count_labels(&self, groups: &mut Vec<BracketGroup>) {
        let mut add = |label: u32, f: &dyn Fn(&mut BracketGroup)| {
            let k = self.canonical(label) as usize;
            if groups.len() <= k {
                groups.resize(k + 1, BracketGroup::default());
            }
            f(&mut groups[k]);
        };
        for g in &self.gb {
            add(g.label, &|x| {
                x.gold += 1;
                x.matched += u64::from(g.matched);
            });
        }
        for t in &self.tb {
            add(t.counted_as, &|x| x.test += 1);
        }
    }

    /// The brackets of sentence `id` just scored, over the gold tree's scored words; under
    /// a `--where` label condition only the brackets it keeps (gold brackets by their label,
    /// test brackets by the label they count under, as [`Self::filter_row`] counts them).
    pub(super) fn scored_brackets(
        &self,
        id: u64,
        gold: &treeval_formats::bracket::BracketTree,
        w: &super::filter::BracketWhere,
    ) -> ScoredBrackets {
        let kept = |label: u32| {
            !w.has_label() || w.label_matches(&self.names[self.canonical(label) as usize])
        };
        let counted = |bs: &[super::B], test: bool| -> Vec<Counted> {
            bs.iter()
                .filter(|b| kept(if test { b.counted_as } else { b.label }))
                .map(|b| Counted {
                    label: self.canonical(b.label),
                    start: b.start,
                    end: b.end,
                    matched: b.matched,
                })
                .collect()
        };
        ScoredBrackets {
            id,
            words: self
                .gtags
                .iter()
                .map(|&(_, w)| gold.s(w).to_owned())
                .collect(),
            tags: self.gtags.iter().map(|&(t, _)| t).collect(),
            gold: counted(&self.gb, false),
            test: counted(&self.tb, true),
        }
    }

    /// Every label string, by id.
    pub(super) fn label_names(&self) -> Vec<String> {
        self.names.iter().map(|s| s.to_string()).collect()
    }
}

/// Per-label counts (indexed by label id) as named groups, by name, empty ones left out.
pub(super) fn named_groups(
    names: &[String],
    groups: &[BracketGroup],
) -> Vec<(String, BracketGroup)> {
    let mut v: Vec<(String, BracketGroup)> = groups
        .iter()
        .enumerate()
        .filter(|(_, g)| g.gold + g.test > 0)
        .map(|(k, g)| (names.get(k).cloned().unwrap_or_default(), *g))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use super::*;
    use treeval_formats::bracket::{BracketReader, Layout};

    fn run(g: &str, t: &str, p: &Params) -> BracketResult {
        let mut p = p.clone();
        p.by_label = true;
        p.keep_brackets = true;
        let mut gr = BracketReader::new(g.as_bytes(), "g", Layout::Line);
        let mut tr = BracketReader::new(t.as_bytes(), "t", Layout::Line);
        evaluate_inline(&mut gr, &mut tr, &p, None).unwrap()
    }

    #[test]
    fn labels_sum_to_the_totals_and_eq_labels_are_one() {
        let g = "(S (NP (DT the) (NN dog)) (VP (VBZ runs) (PRT (RP up))) (. .))\n(S (A (P this)) (B (Q is)))\n";
        let t = "(S (NP-SBJ (DT the) (NN dog)) (VP (VBZ runs) (ADVP (RP up))) (. .))\n\n";
        let r = run(g, t, &Params::collins());
        let names: Vec<&str> = r.by_label.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["ADVP", "NP", "S", "VP"]);
        let mut sum = BracketGroup::default();
        for (_, c) in &r.by_label {
            sum += *c;
        }
        assert_eq!(
            (sum.gold, sum.test, sum.matched),
            (r.all.gold, r.all.test, r.all.matched)
        );
        assert_eq!(r.by_label[0].1.matched, 1, "PRT matched ADVP");
        // the second sentence is skipped: not in the brackets kept
        assert_eq!(r.sentences.len(), 1);
        let s = &r.sentences[0];
        assert_eq!(s.words, ["the", "dog", "runs", "up"]);
        assert_eq!(r.label_names[s.tags[0] as usize], "DT");
        assert!(s.gold.iter().chain(&s.test).all(|b| b.matched));
        let lengths = by_length(&r.rows);
        assert_eq!(lengths.len(), 1);
        assert_eq!(lengths[0].1.sentences, 1);
    }

    #[test]
    fn unlabeled_matches_count_under_the_gold_label() {
        let mut p = Params::collins();
        p.labeled = false;
        let r = run(
            "(S (NP (A a) (B b)) (C c))\n",
            "(S (VP (A a) (B b)) (C c))\n",
            &p,
        );
        let names: Vec<&str> = r.by_label.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["NP", "S"],
            "the test VP counts as the NP it matched"
        );
        let np = r.by_label[0].1;
        assert_eq!((np.gold, np.test, np.matched), (1, 1, 1));
        let ms = group_measures(false);
        let t = crate::measure::totals(&[np]);
        for m in ms.iter().filter(|m| !m.is_count()) {
            assert_eq!(m.of(&t), Some(1.0), "{}", m.name);
        }
        // the browser keeps each bracket's own label
        assert_eq!(r.label_names[r.sentences[0].test[1].label as usize], "VP");
    }
}
