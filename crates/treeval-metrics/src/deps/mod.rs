//! Classic dependency scoring (CoNLL-X / CoNLL 2007): LAS, UAS, LA, exact match, root
//! accuracy, macro averages, per-relation precision/recall, breakdowns and confusions.
//!
//! Everything is counted per sentence into [`AttachmentCounts`] (and per-relation and
//! per-group counts), summed with `+=`, and only then turned into scores.

mod clas;
pub mod filter;
mod measures;
mod observe;
mod run;
pub mod word;

use std::ops::AddAssign;

use serde::{Deserialize, Serialize};
use treeval_formats::{Sentence, Word};

pub use measures::{
    group_measures, macro_relation_measures, measures, relation_measures, word_measures,
    RelationMacro,
};
pub use observe::{GoldSentence, Observer, DECISION_HEAD, DECISION_LABEL, DECISION_SCORED};
pub use run::{
    evaluate, evaluate_counts, pair_index, DepsResult, FileSummary, Input, PairCounts, SystemResult,
};

/// Which tokens are scored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PunctPolicy {
    /// Score every word (eval07.pl default, MaltEval default).
    Include,
    /// Skip words whose gold FORM is all Unicode punctuation (eval.pl default, eval07.pl `-p`).
    Form,
    /// Skip words whose gold DEPREL is one of these (after label normalisation), as
    /// MaltEval's `--ExcludeDeprels` (`deprel=punct,dep`).
    Deprel(Vec<String>),
    /// Skip words whose gold UPOS is one of these (`upos=PUNCT,SYM`).
    Upos(Vec<String>),
    /// Skip words whose gold XPOS is one of these (`xpos=\,,.`: a comma in an item is
    /// written `\,`, see [`crate::list`]).
    Xpos(Vec<String>),
    /// The English PTB convention (Chen & Manning 2014 and most papers since): skip words
    /// whose gold XPOS is one of [`PTB_PUNCT_TAGS`].
    Ptb,
}

/// The gold XPOS tags that `--punct ptb` leaves out: the PTB punctuation tags of the
/// Stanford dependency parser's evaluation (Chen & Manning 2014), `` `` '' . , : ``
/// (not `-LRB-`, `-RRB-`, `#` or `$`).
pub const PTB_PUNCT_TAGS: [&str; 5] = ["``", "''", ".", ",", ":"];

impl PunctPolicy {
    /// The name used in the signature and the report (`include`, `form`, `ptb`,
    /// `deprel=punct`, `deprel=punct,dep`, `upos=PUNCT,SYM`, `xpos=\,,.`, …): a list as
    /// [`crate::list::join`] writes it, which [`PunctPolicy::parse`] reads back.
    pub fn name(&self) -> String {
        match self {
            PunctPolicy::Include => "include".into(),
            PunctPolicy::Form => "form".into(),
            PunctPolicy::Ptb => "ptb".into(),
            PunctPolicy::Deprel(d) => format!("deprel={}", crate::list::join(d)),
            PunctPolicy::Upos(u) => format!("upos={}", crate::list::join(u)),
            PunctPolicy::Xpos(x) => format!("xpos={}", crate::list::join(x)),
        }
    }

    /// Parse a policy name: `include`, `form`, `ptb`, `deprel=L1,L2,…`, `upos=T1,T2,…` or
    /// `xpos=T1,T2,…` (no empty item; `\,` is a comma inside an item, as in every
    /// comma-separated list: [`crate::list::split`]).
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "include" => Some(PunctPolicy::Include),
            "form" => Some(PunctPolicy::Form),
            "ptb" => Some(PunctPolicy::Ptb),
            _ => {
                let (k, v) = s.split_once('=')?;
                let items = crate::list::split(v);
                if items.iter().any(String::is_empty) {
                    return None;
                }
                match k {
                    "deprel" => Some(PunctPolicy::Deprel(items)),
                    "upos" => Some(PunctPolicy::Upos(items)),
                    "xpos" => Some(PunctPolicy::Xpos(items)),
                    _ => None,
                }
            }
        }
    }
}

/// A policy is written as its name (`include`, `deprel=punct`, …), as the command line
/// and the signature write it.
impl serde::Serialize for PunctPolicy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> serde::Deserialize<'de> for PunctPolicy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        PunctPolicy::parse(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "expected include, form, ptb, deprel=LABEL[,LABEL…], upos=TAG[,TAG…] or xpos=TAG[,TAG…], found '{s}'"
            ))
        })
    }
}

/// A breakdown key is written as its name (`deprel`, `distance`, …).
impl serde::Serialize for ByKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for ByKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ByKey::parse(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "expected one of deprel, upos, xpos, length, distance, direction, depth, projectivity; found '{s}'"
            ))
        })
    }
}

/// How DEPREL strings are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LabelMode {
    /// The full string, subtypes included (eval07.pl, eval.pl, MaltEval).
    Full,
    /// The part before the first `:` (`obl:arg` → `obl`), as conll18_ud_eval.py.
    Universal,
}

impl LabelMode {
    /// `full` or `universal`.
    pub fn name(self) -> &'static str {
        match self {
            LabelMode::Full => "full",
            LabelMode::Universal => "universal",
        }
    }

    /// Normalise a label.
    #[inline]
    pub fn apply(self, label: &str) -> &str {
        match self {
            LabelMode::Full => label,
            LabelMode::Universal => label.split(':').next().unwrap_or(label),
        }
    }
}

/// A breakdown dimension (`--by`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ByKey {
    /// DEPREL (gold for recall, system for precision).
    Deprel,
    /// Gold UPOS.
    Upos,
    /// Gold XPOS.
    Xpos,
    /// Sentence length in words, binned by 10.
    Length,
    /// Arc length |head − dependent|, binned as eval07.pl: root, 1, 2, 3-6, 7+.
    Distance,
    /// Arc direction: left (head precedes), right (head follows), root.
    Direction,
    /// Depth of the dependent below the root: 1 … 6, 7+.
    Depth,
    /// Whether the arc is projective.
    Projectivity,
}

impl ByKey {
    /// Every key, in report order.
    pub const ALL: [ByKey; 8] = [
        ByKey::Deprel,
        ByKey::Upos,
        ByKey::Xpos,
        ByKey::Length,
        ByKey::Distance,
        ByKey::Direction,
        ByKey::Depth,
        ByKey::Projectivity,
    ];

    /// The name used on the command line and in the report.
    pub fn name(self) -> &'static str {
        match self {
            ByKey::Deprel => "deprel",
            ByKey::Upos => "upos",
            ByKey::Xpos => "xpos",
            ByKey::Length => "length",
            ByKey::Distance => "distance",
            ByKey::Direction => "direction",
            ByKey::Depth => "depth",
            ByKey::Projectivity => "projectivity",
        }
    }

    /// Parse a name.
    pub fn parse(s: &str) -> Option<Self> {
        ByKey::ALL.into_iter().find(|k| k.name() == s)
    }

    /// The groups of a binned key in their natural order, as the `--by` table names and
    /// orders them (`invalid`: a system head beyond the sentence or missing); empty for
    /// the keys whose groups are the values themselves (deprel, upos, xpos).
    pub fn bins(self) -> &'static [&'static str] {
        match self {
            ByKey::Length => &crate::bins::LENGTH_BINS,
            ByKey::Distance => &["root", "1", "2", "3-6", "7+", "invalid"],
            ByKey::Direction => &["root", "left", "right", "self", "invalid"],
            ByKey::Depth => &["1", "2", "3", "4", "5", "6", "7+", "unreachable", "invalid"],
            ByKey::Projectivity => &["projective", "non-projective", "invalid"],
            ByKey::Deprel | ByKey::Upos | ByKey::Xpos => &[],
        }
    }

    /// Whether the group of a word also depends on the system tree, so that the
    /// breakdown has a system side (precision) as well as a gold side (recall).
    pub fn has_system_side(self) -> bool {
        matches!(
            self,
            ByKey::Deprel | ByKey::Distance | ByKey::Direction | ByKey::Depth | ByKey::Projectivity
        )
    }
}

/// Options of a `deps` evaluation.
#[derive(Debug, Clone)]
pub struct DepsOptions {
    /// Which words are scored.
    pub punct: PunctPolicy,
    /// How labels are compared.
    pub labels: LabelMode,
    /// Breakdowns to compute.
    pub by: Vec<ByKey>,
    /// Whether to build the gold × system label confusion matrix.
    pub confusion: bool,
    /// Make FORM mismatches and invalid system trees errors.
    pub strict: bool,
    /// How many examples of each warning to keep.
    pub examples: usize,
    /// Keep every sentence's counts (for significance tests and confidence intervals).
    pub keep_sentences: bool,
    /// Count paired per-word decisions between every two systems (for McNemar).
    pub pair_decisions: bool,
    /// Count the CoNLL-2009 predicates (words with a PRED value, as eval09.pl reads
    /// them) of every file, for `--compat eval09`.
    pub count_predicates: bool,
    /// Which of the words the punctuation policy scores are kept (`--where`; empty:
    /// all). The others are counted in [`Observer::unmatched`].
    pub filter: filter::Where,
    /// Which gold sentences are scored (by id and length in words); the others are read,
    /// checked and paired, and counted in [`run::DepsResult::selection`].
    pub selection: crate::select::Selection,
}

impl DepsOptions {
    /// Whether word `w` of the gold sentence `s` is scored under the punctuation policy.
    pub fn scores_word(&self, s: &Sentence, w: &Word) -> bool {
        match &self.punct {
            PunctPolicy::Include => true,
            PunctPolicy::Form => !crate::punct::is_punct_form(s.form(w)),
            PunctPolicy::Deprel(d) => {
                let l = self.labels.apply(s.deprel(w));
                !d.iter().any(|x| x == l)
            }
            PunctPolicy::Upos(u) => {
                let t = s.upos(w);
                !u.iter().any(|x| x == t)
            }
            PunctPolicy::Xpos(x) => {
                let t = s.xpos(w);
                !x.iter().any(|y| y == t)
            }
            PunctPolicy::Ptb => !PTB_PUNCT_TAGS.contains(&s.xpos(w)),
        }
    }
}

impl DepsOptions {
    /// Which words of gold sentence `g` are scored against system sentence `s` (paired
    /// word by word): the punctuation policy scores them and they meet the `--where`
    /// conditions. For the listings and the page, which judge words outside the counting.
    pub fn scored_words(&self, g: &Sentence, s: &Sentence) -> Vec<bool> {
        let mut tree = crate::tree::Tree::new();
        if self.filter.needs_gold_tree() {
            tree.analyze(g.words().iter().map(|w| w.head().index()));
        }
        (0..g.len())
            .map(|i| {
                self.scores_word(g, &g.words()[i])
                    && self.filter.gold_matches(g, i, &tree, self.labels)
                    && (i >= s.len() || self.filter.sys_matches(s, i, self.labels))
            })
            .collect()
    }
}

impl Default for DepsOptions {
    fn default() -> Self {
        DepsOptions {
            punct: PunctPolicy::Include,
            labels: LabelMode::Full,
            by: Vec::new(),
            confusion: false,
            strict: false,
            examples: 5,
            keep_sentences: false,
            pair_decisions: false,
            count_predicates: false,
            filter: filter::Where::default(),
            selection: crate::select::Selection::default(),
        }
    }
}

/// The sufficient statistics of the headline metrics, for one sentence or summed over many.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct AttachmentCounts {
    /// Scored words.
    pub words: u64,
    /// Words with the correct head.
    pub uas: u64,
    /// Words with the correct head and label.
    pub las: u64,
    /// Words with the correct label.
    pub la: u64,
    /// Scored words attached to the root in gold.
    pub root_gold: u64,
    /// … of which the system also attaches to the root.
    pub root_correct: u64,
    /// Sentences paired.
    pub sentences: u64,
    /// Sentences with at least one scored word (the denominator of exact match and of
    /// the macro average over sentences).
    pub scored_sentences: u64,
    /// Sentences whose scored words all have the right head and label.
    pub lem: u64,
    /// Sentences whose scored words all have the right head.
    pub uem: u64,
    /// Words not scored because of the punctuation policy.
    pub excluded: u64,
    /// Sum over scored sentences of the sentence LAS (for the macro average).
    pub sum_sentence_las: f64,
    /// Sum of the sentence UAS.
    pub sum_sentence_uas: f64,
    /// Sum of the sentence LA.
    pub sum_sentence_la: f64,
    /// The columns of the [`word::WORD_COUNTS`] (three each: right, gold, system).
    pub extra: [u64; word::EXTRA],
}

impl AttachmentCounts {
    /// Exact syntactic match as eval09.pl (the CoNLL-2009 scorer) counts it:
    /// `(matched, sentences)`, where every sentence counts, and a sentence with no scored
    /// word (every word punctuation under `-p`) counts as matched. treeval's own LEM
    /// leaves such sentences out: it has nothing to measure in them.
    pub fn eval09_exact_match(&self) -> (u64, u64) {
        (
            self.lem + (self.sentences - self.scored_sentences),
            self.sentences,
        )
    }
}

impl AddAssign for AttachmentCounts {
    fn add_assign(&mut self, o: Self) {
        self.words += o.words;
        self.uas += o.uas;
        self.las += o.las;
        self.la += o.la;
        self.root_gold += o.root_gold;
        self.root_correct += o.root_correct;
        self.sentences += o.sentences;
        self.scored_sentences += o.scored_sentences;
        self.lem += o.lem;
        self.uem += o.uem;
        self.excluded += o.excluded;
        self.sum_sentence_las += o.sum_sentence_las;
        self.sum_sentence_uas += o.sum_sentence_uas;
        self.sum_sentence_la += o.sum_sentence_la;
        for (a, b) in self.extra.iter_mut().zip(o.extra) {
            *a += b;
        }
    }
}

impl std::ops::Add for AttachmentCounts {
    type Output = Self;
    fn add(mut self, o: Self) -> Self {
        self += o;
        self
    }
}

/// Counts for one relation label.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelationCounts {
    /// Scored words with this gold label.
    pub gold: u64,
    /// Scored words with this system label.
    pub system: u64,
    /// Words with this label in both (label correct, head ignored).
    pub label_correct: u64,
    /// … and the right head.
    pub labeled_correct: u64,
    /// Words with this gold label and the right head (any label).
    pub gold_head_correct: u64,
    /// Words with this system label and the right head (any label).
    pub system_head_correct: u64,
}

impl AddAssign for RelationCounts {
    fn add_assign(&mut self, o: Self) {
        self.gold += o.gold;
        self.system += o.system;
        self.label_correct += o.label_correct;
        self.labeled_correct += o.labeled_correct;
        self.gold_head_correct += o.gold_head_correct;
        self.system_head_correct += o.system_head_correct;
    }
}

/// Counts for one group of a breakdown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupCounts {
    /// Scored words in the group by their gold value.
    pub gold: u64,
    /// … with the right head.
    pub gold_uas: u64,
    /// … with the right head and label.
    pub gold_las: u64,
    /// … with the right label.
    pub gold_la: u64,
    /// Scored words in the group by their system value.
    pub system: u64,
    /// … with the right head.
    pub system_uas: u64,
    /// … with the right head and label.
    pub system_las: u64,
    /// … with the right label.
    pub system_la: u64,
}

impl AddAssign for GroupCounts {
    fn add_assign(&mut self, o: Self) {
        self.gold += o.gold;
        self.gold_uas += o.gold_uas;
        self.gold_las += o.gold_las;
        self.gold_la += o.gold_la;
        self.system += o.system;
        self.system_uas += o.system_uas;
        self.system_las += o.system_las;
        self.system_la += o.system_la;
    }
}

/// Structural problems of the trees of one file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Validity {
    /// Sentences with at least one problem.
    pub sentences_with_problems: u64,
    /// Words with HEAD `_`.
    pub missing_heads: u64,
    /// Words whose HEAD is beyond the sentence.
    pub heads_out_of_range: u64,
    /// Words that are their own head.
    pub self_loops: u64,
    /// Cycles (of two or more words).
    pub cycles: u64,
    /// Sentences with no word attached to the root.
    pub no_root: u64,
    /// Sentences with several words attached to the root.
    pub multiple_roots: u64,
}

impl Validity {
    /// Whether nothing was found.
    pub fn is_clean(&self) -> bool {
        self.sentences_with_problems == 0
    }
}

impl AddAssign for Validity {
    fn add_assign(&mut self, o: Self) {
        self.sentences_with_problems += o.sentences_with_problems;
        self.missing_heads += o.missing_heads;
        self.heads_out_of_range += o.heads_out_of_range;
        self.self_loops += o.self_loops;
        self.cycles += o.cycles;
        self.no_root += o.no_root;
        self.multiple_roots += o.multiple_roots;
    }
}

pub use crate::bins::length_bin;

/// Bin of an arc length (eval07.pl's bins).
pub fn distance_bin(head: u32, dep: u32) -> &'static str {
    if head == 0 {
        return "root";
    }
    match head.abs_diff(dep) {
        0 | 1 => "1",
        2 => "2",
        3..=6 => "3-6",
        _ => "7+",
    }
}

/// Direction of an arc: where the head is relative to the dependent.
pub fn direction_bin(head: u32, dep: u32) -> &'static str {
    if head == 0 {
        "root"
    } else if head < dep {
        "left"
    } else if head > dep {
        "right"
    } else {
        "self"
    }
}

/// Name of an arc's projectivity (`invalid` when the head is not in the tree).
pub fn projectivity_bin(p: Option<bool>) -> &'static str {
    match p {
        Some(true) => "projective",
        Some(false) => "non-projective",
        None => "invalid",
    }
}

/// Bin of a depth below the root.
pub fn depth_bin(d: u32) -> &'static str {
    match d {
        1 => "1",
        2 => "2",
        3 => "3",
        4 => "4",
        5 => "5",
        6 => "6",
        crate::tree::NO_DEPTH => "unreachable",
        _ => "7+",
    }
}

/// A headline metric as the ratio of two [`AttachmentCounts`] fields, so that tests and
/// intervals can resample it from per-sentence counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DepsMetric {
    /// las / words.
    Las,
    /// uas / words.
    Uas,
    /// la / words.
    La,
    /// lem / scored sentences.
    Lem,
    /// uem / scored sentences.
    Uem,
    /// root_correct / root_gold.
    Root,
    /// mean sentence LAS: Σ sentence LAS / scored sentences.
    MacroLas,
    /// mean sentence UAS.
    MacroUas,
    /// mean sentence LA.
    MacroLa,
}

impl DepsMetric {
    /// Every metric, in report order.
    pub const ALL: [DepsMetric; 9] = [
        DepsMetric::Las,
        DepsMetric::Uas,
        DepsMetric::La,
        DepsMetric::Lem,
        DepsMetric::Uem,
        DepsMetric::Root,
        DepsMetric::MacroLas,
        DepsMetric::MacroUas,
        DepsMetric::MacroLa,
    ];

    /// The name in reports (`LAS`, …, `macro-LAS`).
    pub fn name(self) -> &'static str {
        match self {
            DepsMetric::Las => "LAS",
            DepsMetric::Uas => "UAS",
            DepsMetric::La => "LA",
            DepsMetric::Lem => "LEM",
            DepsMetric::Uem => "UEM",
            DepsMetric::Root => "ROOT",
            DepsMetric::MacroLas => "macro-LAS",
            DepsMetric::MacroUas => "macro-UAS",
            DepsMetric::MacroLa => "macro-LA",
        }
    }

    /// Parse a name (case-insensitive).
    pub fn parse(s: &str) -> Option<Self> {
        DepsMetric::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s))
    }

    /// (numerator, denominator) of the metric in `c`.
    pub fn ratio(self, c: &AttachmentCounts) -> (f64, f64) {
        let n = c.scored_sentences as f64;
        match self {
            DepsMetric::Las => (c.las as f64, c.words as f64),
            DepsMetric::Uas => (c.uas as f64, c.words as f64),
            DepsMetric::La => (c.la as f64, c.words as f64),
            DepsMetric::Lem => (c.lem as f64, n),
            DepsMetric::Uem => (c.uem as f64, n),
            DepsMetric::Root => (c.root_correct as f64, c.root_gold as f64),
            DepsMetric::MacroLas => (c.sum_sentence_las, n),
            DepsMetric::MacroUas => (c.sum_sentence_uas, n),
            DepsMetric::MacroLa => (c.sum_sentence_la, n),
        }
    }

    /// Whether McNemar's test applies: the metric counts binary decisions on words
    /// (LAS, UAS, LA) or on sentences (LEM, UEM).
    pub fn has_binary_decisions(self) -> bool {
        matches!(
            self,
            DepsMetric::Las | DepsMetric::Uas | DepsMetric::La | DepsMetric::Lem | DepsMetric::Uem
        )
    }
}

#[cfg(test)]
mod tests {
    use super::PunctPolicy;

    #[test]
    fn punct_policies_parse_lists_and_keep_their_names() {
        for name in [
            "include",
            "form",
            "deprel=punct",
            "deprel=punct,dep",
            "upos=PUNCT",
            "upos=PUNCT,SYM",
            "ptb",
            "xpos=NN",
            r"xpos=``,'',.,\,,:",
            r"xpos=\,",
            r"deprel=a\\b",
        ] {
            assert_eq!(
                PunctPolicy::parse(name).map(|p| p.name()),
                Some(name.into())
            );
        }
        assert_eq!(
            PunctPolicy::parse("upos=PUNCT,SYM"),
            Some(PunctPolicy::Upos(vec!["PUNCT".into(), "SYM".into()]))
        );
        // a comma inside an item is `\,`: the PTB set written as a list
        assert_eq!(
            PunctPolicy::parse(r"xpos=``,'',.,\,,:"),
            Some(PunctPolicy::Xpos(
                super::PTB_PUNCT_TAGS
                    .iter()
                    .map(|t| t.to_string())
                    .collect()
            ))
        );
        assert_eq!(
            PunctPolicy::parse(r"xpos=\,"),
            Some(PunctPolicy::Xpos(vec![",".into()]))
        );
        for bad in [
            "deprel=",
            "deprel=punct,",
            "upos=,X",
            "upos=A,,B",
            "xpos=,",
            "xpos=",
            "ptb=x",
            "lemma=x",
            "x",
        ] {
            assert_eq!(PunctPolicy::parse(bad), None, "{bad}");
        }
    }
}
