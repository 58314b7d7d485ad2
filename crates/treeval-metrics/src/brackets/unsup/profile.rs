//! The counts of `--profile unsupervised`: unlabeled spans of at least two words over the
//! words PRPN's tag list keeps, the whole-sentence span left out, as sets; corpus
//! precision, recall and F1 from the summed counts, and sentence F1 averaged over
//! sentences (a sentence with no gold span has recall 1, and precision 1 if it predicts
//! none). Sentences of one word or of more than [`CUTOFF`] words are skipped, and counted.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use treeval_formats::bracket::BracketTree;

use crate::measure::{ratio, Measure, Statistics};

/// Gold sentences of more words than this (after the tag filter) are skipped.
pub const CUTOFF: usize = 150;

/// PRPN's word tags (Shen et al. 2018, data_ptb.py; process_ptb.py of compound-pcfg):
/// a gold word whose tag is not one of these (punctuation, `-NONE-`, `$`, `#`, `-LRB-`,
/// …) is removed, and a constituent left without words is dropped.
pub const WORD_TAGS: [&str; 36] = [
    "CC", "CD", "DT", "EX", "FW", "IN", "JJ", "JJR", "JJS", "LS", "MD", "NN", "NNS", "NNP", "NNPS",
    "PDT", "POS", "PRP", "PRP$", "RB", "RBR", "RBS", "RP", "SYM", "TO", "UH", "VB", "VBD", "VBG",
    "VBN", "VBP", "VBZ", "WDT", "WP", "WP$", "WRB",
];

/// A sentence's words and spans as the profile compares them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnsupTree {
    /// The words kept.
    pub words: usize,
    /// Spans `[start, end)` over the kept words, two words or more, not the whole
    /// sentence, each once.
    pub spans: BTreeSet<(u32, u32)>,
}

/// Which leaves of `tree` are kept: with `filter`, those tagged with a [`WORD_TAGS`] tag.
fn kept(tree: &BracketTree, filter: bool) -> Vec<bool> {
    tree.leaves
        .iter()
        .map(|l| !filter || WORD_TAGS.contains(&tree.s(l.label)))
        .collect()
}

impl UnsupTree {
    /// The spans of `tree` (with `filter`, over the words PRPN's tag list keeps).
    pub fn of(tree: &BracketTree, filter: bool) -> Self {
        Self::of_kept(tree, &kept(tree, filter))
    }

    /// Which words of `tree` PRPN's tag list keeps.
    pub fn kept_words(tree: &BracketTree) -> Vec<bool> {
        kept(tree, true)
    }

    /// The spans of `tree` over the words `keep` marks (one flag per word; a system over
    /// all the gold's words takes the gold's flags).
    pub fn of_kept(tree: &BracketTree, keep: &[bool]) -> Self {
        // the index among kept words of each leaf position
        let mut before = Vec::with_capacity(keep.len() + 1);
        let mut n = 0u32;
        for &k in keep {
            before.push(n);
            n += u32::from(k);
        }
        before.push(n);
        let spans = tree
            .nodes
            .iter()
            .map(|node| (before[node.start as usize], before[node.end as usize]))
            .filter(|&(s, e)| e >= s + 2 && (s, e) != (0, n))
            .collect();
        UnsupTree {
            words: n as usize,
            spans,
        }
    }

    /// The right-branching tree over `words` words: `[i, words)` for every `i ≥ 1`.
    pub fn right_branching(words: usize) -> Self {
        let n = words as u32;
        UnsupTree {
            words,
            spans: (1..n.saturating_sub(1)).map(|i| (i, n)).collect(),
        }
    }

    /// The left-branching tree over `words` words: `[0, j)` for every `j < words`.
    pub fn left_branching(words: usize) -> Self {
        let n = words as u32;
        UnsupTree {
            words,
            spans: (2..n).map(|j| (0, j)).collect(),
        }
    }

    /// The tree as process_ptb.py writes it on one line: the kept words as `(TAG word)`,
    /// each kept constituent `(LABEL children)`, a wrapper without a label left out.
    pub fn one_line(tree: &BracketTree, filter: bool) -> String {
        let keep = kept(tree, filter);
        let mut out = String::new();
        let tops: Vec<usize> = (0..tree.nodes.len())
            .filter(|&k| tree.nodes[k].parent.is_none())
            .collect();
        for k in tops {
            write_node(tree, &keep, k, &mut out);
        }
        out
    }
}

/// Append node `k` (if it keeps a word) to `out`, as [`UnsupTree::one_line`] writes it.
fn write_node(tree: &BracketTree, keep: &[bool], k: usize, out: &mut String) {
    let node = &tree.nodes[k];
    let (start, end) = (node.start as usize, node.end as usize);
    if !keep[start..end].iter().any(|&x| x) {
        return;
    }
    let label = tree.s(node.label);
    let children: Vec<usize> = (k + 1..tree.nodes.len())
        .filter(|&c| tree.nodes[c].parent == Some(k as u32))
        .collect();
    let wrapper = label.is_empty() && children.len() == 1 && {
        let c = &tree.nodes[children[0]];
        (c.start, c.end) == (node.start, node.end)
    };
    if !wrapper {
        if !out.is_empty() && !out.ends_with('(') {
            out.push(' ');
        }
        out.push('(');
        out.push_str(label);
    }
    let mut pos = start;
    let leaf = |p: usize, out: &mut String| {
        if keep[p] {
            let l = &tree.leaves[p];
            out.push_str(&format!(" ({} {})", tree.s(l.label), tree.s(l.word)));
        }
    };
    for &c in &children {
        let cn = &tree.nodes[c];
        for p in pos..cn.start as usize {
            leaf(p, out);
        }
        write_node(tree, keep, c, out);
        pos = cn.end as usize;
    }
    for p in pos..end {
        leaf(p, out);
    }
    if !wrapper {
        out.push(')');
    }
}

/// The per-sentence counts of `--profile unsupervised` (summed over sentences).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct UnsupCounts {
    /// Sentences scored.
    pub sentences: u64,
    /// Sentences skipped: more than [`CUTOFF`] gold words.
    pub long_sentences: u64,
    /// Sentences skipped: one gold word (or none).
    pub short_sentences: u64,
    /// Sentences not scored: the system tree is malformed or has another number of words
    /// than the filtered gold.
    pub error_sentences: u64,
    /// Gold spans.
    pub gold_spans: u64,
    /// System spans.
    pub system_spans: u64,
    /// System spans that are gold spans.
    pub spans_correct: u64,
    /// The sum of the sentences' F1.
    pub sentence_f1_sum: f64,
    /// Error sentences scored as an empty parse (`--error-sentences missed`): their gold
    /// spans count in `gold_spans`, all missed, and each in sentence F1 with F1 0.
    #[serde(default)]
    pub missed_sentences: u64,
}

impl UnsupCounts {
    /// A sentence whose system tree cannot be scored.
    pub fn error() -> Self {
        UnsupCounts {
            error_sentences: 1,
            ..Self::default()
        }
    }

    /// A sentence whose system tree cannot be scored, scored as an empty parse over gold
    /// tree `gold`: its gold spans missed, its sentence F1 0 (not the 1 an empty parse
    /// gets where the gold has no span: the system gave no parse at all).
    pub fn missed(gold: &UnsupTree) -> Self {
        UnsupCounts {
            error_sentences: 1,
            missed_sentences: 1,
            gold_spans: gold.spans.len() as u64,
            ..Self::default()
        }
    }

    /// One sentence: `gold` against `system` (skipped when the gold has fewer than two
    /// words or more than [`CUTOFF`]).
    pub fn sentence(gold: &UnsupTree, system: &UnsupTree) -> Self {
        if gold.words > CUTOFF {
            return UnsupCounts {
                long_sentences: 1,
                ..Self::default()
            };
        }
        if gold.words < 2 {
            return UnsupCounts {
                short_sentences: 1,
                ..Self::default()
            };
        }
        let correct = system.spans.intersection(&gold.spans).count() as u64;
        let (g, s) = (gold.spans.len() as u64, system.spans.len() as u64);
        UnsupCounts {
            sentences: 1,
            gold_spans: g,
            system_spans: s,
            spans_correct: correct,
            sentence_f1_sum: sentence_f1(correct, g, s),
            ..Self::default()
        }
    }
}

/// A sentence's F1: recall 1 without gold spans, precision 1 when it also predicts none.
pub fn sentence_f1(correct: u64, gold: u64, system: u64) -> f64 {
    let (c, g, s) = (correct as f64, gold as f64, system as f64);
    let recall = if gold == 0 { 1.0 } else { c / g };
    let precision = match (gold, system) {
        (0, 0) => 1.0,
        (_, 0) => 0.0,
        _ => c / s,
    };
    if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    }
}

impl std::ops::AddAssign for UnsupCounts {
    fn add_assign(&mut self, o: UnsupCounts) {
        self.sentences += o.sentences;
        self.long_sentences += o.long_sentences;
        self.short_sentences += o.short_sentences;
        self.error_sentences += o.error_sentences;
        self.gold_spans += o.gold_spans;
        self.system_spans += o.system_spans;
        self.spans_correct += o.spans_correct;
        self.sentence_f1_sum += o.sentence_f1_sum;
        self.missed_sentences += o.missed_sentences;
    }
}

impl Statistics for UnsupCounts {
    fn columns() -> &'static [&'static str] {
        &[
            "sentences",
            "long_sentences",
            "short_sentences",
            "error_sentences",
            "gold_spans",
            "system_spans",
            "spans_correct",
            "sentence_f1_sum",
            "missed_sentences",
        ]
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend([
            self.sentences as f64,
            self.long_sentences as f64,
            self.short_sentences as f64,
            self.error_sentences as f64,
            self.gold_spans as f64,
            self.system_spans as f64,
            self.spans_correct as f64,
            self.sentence_f1_sum,
            self.missed_sentences as f64,
        ]);
    }
}

const KIM: &str = "Kim, Dyer & Rush (2019), compound PCFG: unlabeled spans";
const SENTENCES: usize = 0;
const GOLD: usize = 4;
const SYSTEM: usize = 5;
const CORRECT: usize = 6;
const F1_SUM: usize = 7;
const MISSED: usize = 8;

/// The measures `brackets --test-metrics` takes: EVALB's ([`super::super::measures::measures`])
/// and those of the profile that EVALB has not (`sentence-F1`).
pub fn brackets_measures() -> Vec<Measure> {
    let mut v = super::super::measures::measures();
    for m in measures() {
        if !v.iter().any(|x| x.name == m.name) {
            v.push(m);
        }
    }
    v
}

/// The measures of `--profile unsupervised`: corpus precision, recall and F1 (`F`, the
/// name EVALB's F has), sentence F1, and the sentence counts.
pub fn measures() -> Vec<Measure> {
    vec![
        Measure::count("sentences", "sentences scored", SENTENCES),
        Measure::count("long", "sentences skipped: over 150 words", 1),
        Measure::count("short", "sentences skipped: one word", 2),
        Measure::count(
            "errors",
            "sentences not scored: malformed, or other words",
            3,
        ),
        Measure::ratio(
            "precision",
            "corpus precision",
            "spans_correct / system_spans",
            KIM,
            CORRECT,
            SYSTEM,
        ),
        Measure::ratio(
            "recall",
            "corpus recall",
            "spans_correct / gold_spans",
            KIM,
            CORRECT,
            GOLD,
        ),
        Measure::fraction(
            "F",
            "corpus F1",
            "2 P R / (P + R) of the summed counts (0 when nothing matched)",
            KIM,
            vec![CORRECT, GOLD, SYSTEM],
            |s: &[f64]| {
                let (p, r) = (ratio(s[0], s[2])?, ratio(s[0], s[1])?);
                Some(if p + r > 0.0 {
                    2.0 * p * r / (p + r)
                } else {
                    0.0
                })
            },
        ),
        Measure::fraction(
            "sentence-F1",
            "sentence F1",
            "sentence_f1_sum / (sentences + missed_sentences)",
            "Shen et al. (2018), PRPN; Kim, Dyer & Rush (2019): the mean of sentence F1",
            vec![F1_SUM, SENTENCES, MISSED],
            |x| ratio(x[0], x[1] + x[2]),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brackets::tests::tree;
    use crate::measure::Statistics;

    #[test]
    fn the_tag_filter_drops_punctuation_traces_and_emptied_constituents() {
        let t = tree(
            "( (S (NP-SBJ (-NONE- *)) (VP (VBD sat) (NP (DT the) (NN cat)) (PP (IN on) (NP ($ $) (CD 5)))) (. .)))",
        );
        let u = UnsupTree::of(&t, true);
        assert_eq!(u.words, 5);
        // VP covers every kept word: the sentence span, left out; NP-SBJ has no word left,
        // and `(NP ($ $) (CD 5))` one word
        assert_eq!(
            u.spans,
            [(1, 3), (3, 5)].into_iter().collect::<BTreeSet<_>>()
        );
        assert_eq!(
            UnsupTree::one_line(&t, true),
            "(S (VP (VBD sat) (NP (DT the) (NN cat)) (PP (IN on) (NP (CD 5)))))"
        );
        // without the filter every word counts
        assert_eq!(UnsupTree::of(&t, false).words, 8);
    }

    #[test]
    fn unary_chains_count_once_and_baselines_branch() {
        let t = tree("(S (NP (NP (DT a) (NN b))) (VP (VB c) (NP (NN d) (NN e))))");
        let u = UnsupTree::of(&t, true);
        assert_eq!(u.spans.len(), 3);
        assert_eq!(
            UnsupTree::right_branching(4).spans,
            [(1, 4), (2, 4)].into_iter().collect()
        );
        assert_eq!(
            UnsupTree::left_branching(4).spans,
            [(0, 2), (0, 3)].into_iter().collect()
        );
        assert!(UnsupTree::right_branching(2).spans.is_empty());
    }

    #[test]
    fn sentence_f1_follows_the_definitions_without_noise() {
        // no gold span: recall 1; precision 1 only when nothing is predicted
        assert_eq!(sentence_f1(0, 0, 0), 1.0);
        assert_eq!(sentence_f1(0, 0, 2), 0.0);
        assert_eq!(sentence_f1(0, 3, 0), 0.0);
        assert_eq!(sentence_f1(1, 2, 2), 0.5);
        assert!((sentence_f1(2, 3, 4) - 4.0 / 7.0).abs() < 1e-15);
    }

    #[test]
    fn counts_skip_short_and_long_sentences_and_measures_read_them() {
        let g = |words| UnsupTree {
            words,
            spans: BTreeSet::new(),
        };
        let mut c = UnsupCounts::sentence(&g(1), &g(1));
        c += UnsupCounts::sentence(&g(151), &g(151));
        let gold = UnsupTree::of(&tree("(S (NP (DT a) (NN b)) (VB c))"), true);
        c += UnsupCounts::sentence(&gold, &UnsupTree::right_branching(3));
        c += UnsupCounts::sentence(&gold, &UnsupTree::left_branching(3));
        assert_eq!(
            (c.sentences, c.short_sentences, c.long_sentences),
            (2, 1, 1)
        );
        assert_eq!((c.gold_spans, c.system_spans, c.spans_correct), (2, 2, 1));
        let mut row = Vec::new();
        c.row(&mut row);
        assert_eq!(row.len(), UnsupCounts::columns().len());
        let ms = measures();
        let score = |name: &str| {
            let m = ms.iter().find(|m| m.name == name).unwrap();
            let cols: Vec<f64> = m.reads.iter().map(|&k| row[k]).collect();
            (m.score)(&cols)
        };
        assert_eq!(score("F"), Some(0.5));
        assert_eq!(score("sentence-F1"), Some(0.5));
        assert_eq!(score("precision"), Some(0.5));
        assert_eq!(score("sentences"), Some(2.0));
        // a system tree that cannot be scored, as an empty parse: its gold span missed
        // (recall 1 of 3), F1 0 in the mean (1 / 3)
        c += UnsupCounts::missed(&gold);
        let mut row = Vec::new();
        c.row(&mut row);
        let score = |name: &str| {
            let m = ms.iter().find(|m| m.name == name).unwrap();
            let cols: Vec<f64> = m.reads.iter().map(|&k| row[k]).collect();
            (m.score)(&cols)
        };
        assert_eq!(score("recall"), Some(1.0 / 3.0));
        assert_eq!(score("sentence-F1"), Some(1.0 / 3.0));
        assert_eq!((c.error_sentences, c.missed_sentences), (1, 1));
        // the script's 1 for an empty parse of a sentence without gold spans: not here
        let none = UnsupCounts::missed(&g(2));
        assert_eq!((none.gold_spans, none.sentence_f1_sum), (0, 0.0));
    }
}
