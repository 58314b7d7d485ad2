//! Per-sentence counting: a gold sentence is prepared once ([`GoldSentence`]), then each
//! system's [`Observer`] counts its pair into sums.

use std::sync::Arc;

use rustc_hash::FxHashMap;
use treeval_formats::{Diagnostic, ErrorKind, Position, Sentence, Word};

use super::word::WORD_COUNTS;
use super::{
    depth_bin, direction_bin, distance_bin, length_bin, projectivity_bin, AttachmentCounts, ByKey,
    DepsOptions, GroupCounts, RelationCounts, Validity,
};
use crate::labels::LabelTable;
use crate::tree::{Tree, TreeProblems};

/// A gold sentence prepared for scoring against any number of systems.
#[derive(Debug, Clone, Default)]
pub struct GoldSentence {
    scored: Vec<bool>,
    /// Words the punctuation policy scores that do not meet the gold `--where`
    /// conditions.
    unmatched: Vec<bool>,
    labels: Vec<u32>,
    heads: Vec<u32>,
    tree: Tree,
    problems: TreeProblems,
    /// Words with a CoNLL-2009 predicate (counted with `opts.count_predicates`).
    pub predicates: u64,
}

impl GoldSentence {
    /// Empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Prepare `s`: which words are scored, label ids, the gold tree. Problems go to
    /// `diags` (a missing gold HEAD is an error; a malformed gold tree is a warning)
    /// and to `validity`.
    pub fn prepare(
        &mut self,
        s: &Sentence,
        path: &Arc<str>,
        opts: &DepsOptions,
        labels: &mut LabelTable,
        validity: &mut Validity,
        diags: &mut Vec<Diagnostic>,
    ) {
        self.scored.clear();
        self.unmatched.clear();
        self.labels.clear();
        self.heads.clear();
        self.predicates = if opts.count_predicates {
            count_predicates(s)
        } else {
            0
        };
        for w in s.words() {
            self.scored.push(opts.scores_word(s, w));
            self.labels
                .push(labels.intern(opts.labels.apply(s.deprel(w))));
            match w.head().index() {
                Some(h) => self.heads.push(h),
                // a HEAD that is not `_` the reader reported as it is ('X'): the cause
                None if s.head_text(w) != "_" && s.has_errors() => self.heads.push(u32::MAX),
                None => {
                    self.heads.push(u32::MAX);
                    diags.push(
                        Diagnostic::error(
                            word_pos(path, s, w, s.head_column(w)),
                            ErrorKind::MissingHead,
                        )
                        .with_hint(
                            "every gold word needs a HEAD; is this the system file given as gold?",
                        ),
                    );
                }
            }
        }
        self.problems = self
            .tree
            .analyze(s.words().iter().map(|w| w.head().index()));
        if record_validity(&self.problems, validity) {
            if let Some(d) = tree_diagnostic(path, s, &self.problems, Severity::Warning) {
                diags.push(d.with_hint(
                    "the gold tree is malformed; its words are still scored one by one",
                ));
            }
        }
        self.unmatched.resize(self.scored.len(), false);
        if !opts.filter.is_empty() {
            for (i, scored) in self.scored.iter_mut().enumerate() {
                if *scored && !opts.filter.gold_matches(s, i, &self.tree, opts.labels) {
                    *scored = false;
                    self.unmatched[i] = true;
                }
            }
        }
    }

    /// Number of words scored under the policy.
    pub fn scored_words(&self) -> usize {
        self.scored.iter().filter(|&&b| b).count()
    }
}

/// Words of `s` with a predicate as eval09.pl reads CoNLL-2009 lines: the 14th
/// whitespace-separated field (PRED) is neither `_` nor `-`.
fn count_predicates(s: &Sentence) -> u64 {
    s.words()
        .iter()
        .filter(|w| matches!(s.line(w).split_whitespace().nth(13), Some(p) if p != "_" && p != "-"))
        .count() as u64
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Severity {
    Warning,
    Error,
}

fn word_pos(path: &Arc<str>, s: &Sentence, w: &Word, col: u32) -> Position {
    Position::new(path.clone(), w.line, col).in_sentence(s.index(), s.sent_id())
}

/// Add a tree's problems to `v`; true if there were any.
fn record_validity(p: &TreeProblems, v: &mut Validity) -> bool {
    let bad = !p.is_valid_single_root();
    if bad {
        v.sentences_with_problems += 1;
        v.missing_heads += u64::from(p.missing);
        v.heads_out_of_range += u64::from(p.out_of_range);
        v.self_loops += u64::from(p.self_loops);
        v.cycles += u64::from(p.cycles);
        v.no_root += u64::from(p.roots == 0);
        v.multiple_roots += u64::from(p.roots > 1);
    }
    bad
}

/// One diagnostic describing the first problem of a malformed tree.
fn tree_diagnostic(
    path: &Arc<str>,
    s: &Sentence,
    p: &TreeProblems,
    sev: Severity,
) -> Option<Diagnostic> {
    let n = s.len();
    let mk = |pos, kind| match sev {
        Severity::Warning => Diagnostic::warning(pos, kind),
        Severity::Error => Diagnostic::error(pos, kind),
    };
    for (i, w) in s.words().iter().enumerate() {
        match w.head().index() {
            None if p.missing > 0 => {
                return Some(mk(
                    word_pos(path, s, w, s.head_column(w)),
                    ErrorKind::MissingHead,
                ));
            }
            Some(h) if h as usize > n => {
                return Some(mk(
                    word_pos(path, s, w, s.head_column(w)),
                    ErrorKind::HeadOutOfRange {
                        head: u64::from(h),
                        words: n,
                    },
                ));
            }
            Some(h) if h as usize == i + 1 => {
                return Some(mk(
                    word_pos(path, s, w, s.head_column(w)),
                    ErrorKind::SelfLoop { head: u64::from(h) },
                ));
            }
            _ => {}
        }
    }
    if p.cycles > 0 {
        let first = p.first_cycle_word;
        let mut words = vec![first];
        let mut v = first;
        while let Some(h) = s.words().get(v as usize - 1).and_then(|w| w.head().index()) {
            words.push(h);
            if h == first || words.len() > n + 1 {
                break;
            }
            v = h;
        }
        let w = &s.words()[first as usize - 1];
        let text = words
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" -> ");
        return Some(mk(
            word_pos(path, s, w, s.head_column(w)),
            ErrorKind::Cycle { words: text },
        ));
    }
    if p.roots != 1 {
        let pos = Position::new(
            path.clone(),
            s.words().first().map_or(s.first_line(), |w| w.line),
            1,
        )
        .in_sentence(s.index(), s.sent_id());
        return Some(mk(
            pos,
            ErrorKind::RootCount {
                found: p.roots as usize,
            },
        ));
    }
    None
}

/// Bit of [`Observer::decisions`]: the word is scored.
pub const DECISION_SCORED: u8 = 1;
/// Bit of [`Observer::decisions`]: the word's head is right.
pub const DECISION_HEAD: u8 = 2;
/// Bit of [`Observer::decisions`]: the word's label is right.
pub const DECISION_LABEL: u8 = 4;

/// The running sums of one system file.
#[derive(Debug, Clone, Default)]
pub struct Observer {
    /// Headline counts.
    pub totals: AttachmentCounts,
    /// Per relation, indexed by label id of the shared [`LabelTable`].
    pub relations: Vec<RelationCounts>,
    /// Breakdowns: key, group names, counts per group id.
    pub by: Vec<(ByKey, LabelTable, Vec<GroupCounts>)>,
    /// Gold label id × system label id → words.
    pub confusion: FxHashMap<(u32, u32), u64>,
    /// Structural problems of the system trees.
    pub validity: Validity,
    /// Words whose FORM differs from gold.
    pub form_mismatches: u64,
    /// System words with a CoNLL-2009 predicate (counted with `opts.count_predicates`).
    pub predicates: u64,
    /// Words the punctuation policy scores that do not meet the `--where` conditions
    /// (`opts.filter`): not scored, not in [`AttachmentCounts::excluded`].
    pub unmatched: u64,
    /// Examples (FORM mismatches, malformed trees), at most `opts.examples` of each.
    pub examples: Vec<Diagnostic>,
    /// The per-word decisions of the last sentence observed (bits `DECISION_*`), kept
    /// when `opts.pair_decisions` is set.
    pub decisions: Vec<u8>,
    /// Scored words whose head is right and whose label equals gold's ignoring case
    /// (Unicode lower-casing, so ASCII too): the LAS numerator labels compared
    /// case-insensitively would give (`ROOT` vs `root`).
    pub las_caseless: u64,
    /// Per label id: the id of its lower-cased form in `folded_names` (`u32::MAX`: not
    /// yet asked).
    folded: Vec<u32>,
    folded_names: LabelTable,
    form_examples: usize,
    tree_examples: usize,
    tree: Tree,
    /// Per label id and word count: 0 not yet asked, 1 not counted, 2 counted.
    word_labels: Vec<u8>,
}

impl Observer {
    /// A fresh observer for the breakdowns in `opts`.
    pub fn new(opts: &DepsOptions) -> Self {
        Observer {
            by: opts
                .by
                .iter()
                .map(|&k| (k, LabelTable::new(), Vec::new()))
                .collect(),
            ..Observer::default()
        }
    }

    /// The [`WORD_COUNTS`] of one scored word (gold label `gl`, system label `sl`).
    fn count_words(
        &mut self,
        c: &mut AttachmentCounts,
        labels: &LabelTable,
        gl: u32,
        sl: u32,
        head_ok: bool,
        label_ok: bool,
    ) {
        const K: usize = WORD_COUNTS.len();
        // one flag per label id and word count: 0 not yet asked, 1 not counted, 2 counted
        let need = (gl.max(sl) as usize + 1) * K;
        if self.word_labels.len() < need {
            self.word_labels.resize(need, 0);
        }
        for (k, wc) in WORD_COUNTS.iter().enumerate() {
            let mut counted = |id: u32| {
                let f = &mut self.word_labels[id as usize * K + k];
                if *f == 0 {
                    *f = 1 + u8::from(wc.counts_label(labels.name(id)));
                }
                *f == 2
            };
            let (g, s) = (counted(gl), counted(sl));
            c.extra[3 * k] += u64::from(g && wc.right().of(head_ok, label_ok));
            c.extra[3 * k + 1] += u64::from(g);
            c.extra[3 * k + 2] += u64::from(s);
        }
    }

    /// Count one sentence pair (same number of words) and return its counts, which have
    /// already been added to the totals.
    #[allow(clippy::too_many_arguments)]
    pub fn observe(
        &mut self,
        gold: &Sentence,
        g: &GoldSentence,
        gold_path: &Arc<str>,
        sys: &Sentence,
        sys_path: &Arc<str>,
        labels: &mut LabelTable,
        opts: &DepsOptions,
    ) -> AttachmentCounts {
        debug_assert_eq!(gold.len(), sys.len());
        self.check_tree(sys, sys_path, opts);
        if opts.count_predicates {
            self.predicates += count_predicates(sys);
        }
        let mut c = AttachmentCounts {
            sentences: 1,
            ..AttachmentCounts::default()
        };
        self.decisions.clear();
        for (i, (gw, sw)) in gold.words().iter().zip(sys.words()).enumerate() {
            if gold.form(gw) != sys.form(sw) {
                self.form_mismatch(gold, gw, gold_path, sys, sw, sys_path, opts);
            }
            if !g.scored[i] || !self.sys_matches(sys, i, opts) {
                if g.unmatched[i] || g.scored[i] {
                    self.unmatched += 1;
                } else {
                    c.excluded += 1;
                }
                if opts.pair_decisions {
                    self.decisions.push(0);
                }
                continue;
            }
            let j = judge(g, i, sys, sw, labels, opts);
            self.count_word(&mut c, labels, opts, &j);
            if !self.by.is_empty() {
                self.count_groups(gold, gw, g, labels, &j);
            }
        }
        if c.words > 0 {
            c.scored_sentences = 1;
            c.lem = u64::from(c.las == c.words);
            c.uem = u64::from(c.uas == c.words);
            let w = c.words as f64;
            c.sum_sentence_las = c.las as f64 / w;
            c.sum_sentence_uas = c.uas as f64 / w;
            c.sum_sentence_la = c.la as f64 / w;
        }
        self.totals += c;
        c
    }

    /// Whether system word `i` meets the system `--where` conditions (true when there
    /// are none).
    #[inline]
    fn sys_matches(&self, sys: &Sentence, i: usize, opts: &DepsOptions) -> bool {
        !opts.filter.has_system_side() || opts.filter.sys_matches(sys, i, opts.labels)
    }

    /// The system tree's problems into the validity counts, and the first problem as an
    /// example (an error with `opts.strict`).
    fn check_tree(&mut self, sys: &Sentence, sys_path: &Arc<str>, opts: &DepsOptions) {
        let problems = self
            .tree
            .analyze(sys.words().iter().map(|w| w.head().index()));
        if record_validity(&problems, &mut self.validity) && self.tree_examples < opts.examples {
            self.tree_examples += 1;
            let sev = if opts.strict {
                Severity::Error
            } else {
                Severity::Warning
            };
            if let Some(d) = tree_diagnostic(sys_path, sys, &problems, sev) {
                self.examples.push(d.with_hint(if opts.strict {
                    "--strict makes malformed system trees errors"
                } else {
                    "scored word by word as eval07.pl does: a word is right only if its HEAD equals gold's"
                }));
            }
        }
    }

    /// A system word whose FORM is not gold's: counted, and an example (an error with
    /// `opts.strict`).
    #[allow(clippy::too_many_arguments)]
    fn form_mismatch(
        &mut self,
        gold: &Sentence,
        gw: &Word,
        gold_path: &Arc<str>,
        sys: &Sentence,
        sw: &Word,
        sys_path: &Arc<str>,
        opts: &DepsOptions,
    ) {
        self.form_mismatches += 1;
        if self.form_examples < opts.examples {
            self.form_examples += 1;
            let pos = word_pos(sys_path, sys, sw, sys.form_column(sw));
            let kind = ErrorKind::FormMismatch {
                gold: format!("{}:{}", gold_path, gw.line),
                expected: gold.form(gw).to_owned(),
                found: sys.form(sw).to_owned(),
            };
            let d = if opts.strict {
                Diagnostic::error(pos, kind)
            } else {
                Diagnostic::warning(pos, kind)
            };
            self.examples.push(d.with_hint(
                "the words are paired by position; different FORMs suggest the files are not aligned",
            ));
        }
    }

    /// One scored word into the sentence's counts, the relations and the confusions.
    #[inline]
    fn count_word(
        &mut self,
        c: &mut AttachmentCounts,
        labels: &LabelTable,
        opts: &DepsOptions,
        j: &Judged,
    ) {
        let (gl, sl, head_ok, label_ok) = (j.gl, j.sl, j.head_ok, j.label_ok);
        if opts.pair_decisions {
            self.decisions.push(
                DECISION_SCORED
                    | if head_ok { DECISION_HEAD } else { 0 }
                    | if label_ok { DECISION_LABEL } else { 0 },
            );
        }
        c.words += 1;
        c.uas += u64::from(head_ok);
        c.la += u64::from(label_ok);
        c.las += u64::from(head_ok && label_ok);
        if head_ok && (label_ok || self.same_ignoring_case(labels, gl, sl)) {
            self.las_caseless += 1;
        }
        self.count_words(c, labels, gl, sl, head_ok, label_ok);
        if j.gh == 0 {
            c.root_gold += 1;
            c.root_correct += u64::from(head_ok);
        }
        let need = gl.max(sl) as usize + 1;
        if self.relations.len() < need {
            self.relations.resize(need, RelationCounts::default());
        }
        {
            let r = &mut self.relations[gl as usize];
            r.gold += 1;
            r.gold_head_correct += u64::from(head_ok);
            r.label_correct += u64::from(label_ok);
            r.labeled_correct += u64::from(label_ok && head_ok);
        }
        {
            let r = &mut self.relations[sl as usize];
            r.system += 1;
            r.system_head_correct += u64::from(head_ok);
        }
        if opts.confusion {
            *self.confusion.entry((gl, sl)).or_insert(0) += 1;
        }
    }

    /// Whether labels `a` and `b` are equal once lower-cased (each label folded once).
    fn same_ignoring_case(&mut self, labels: &LabelTable, a: u32, b: u32) -> bool {
        self.fold(labels, a) == self.fold(labels, b)
    }

    /// The id of label `id`'s lower-cased form.
    fn fold(&mut self, labels: &LabelTable, id: u32) -> u32 {
        let i = id as usize;
        if self.folded.len() <= i {
            self.folded.resize(i + 1, u32::MAX);
        }
        if self.folded[i] == u32::MAX {
            self.folded[i] = self.folded_names.intern(&labels.name(id).to_lowercase());
        }
        self.folded[i]
    }

    /// One scored word into the breakdowns: the group of its gold value and, for keys
    /// with a system side, the group of its system value.
    #[inline]
    fn count_groups(
        &mut self,
        gold: &Sentence,
        gw: &Word,
        g: &GoldSentence,
        labels: &LabelTable,
        j: &Judged,
    ) {
        let (dep, gh, n) = (j.dep, j.gh, gold.len());
        for (key, names, groups) in &mut self.by {
            let gname: &str = match key {
                ByKey::Deprel => labels.name(j.gl),
                ByKey::Upos => gold.upos(gw),
                ByKey::Xpos => gold.xpos(gw),
                ByKey::Length => length_bin(n),
                ByKey::Distance => distance_bin(gh, dep),
                ByKey::Direction => direction_bin(gh, dep),
                ByKey::Depth => depth_bin(g.tree.depth(dep)),
                ByKey::Projectivity => projectivity_bin(g.tree.is_projective(dep)),
            };
            count_in(group(names, groups, gname), true, j);
            if key.has_system_side() {
                let valid_sh = j.sh.filter(|&h| h as usize <= n);
                let sname: &str = match (key, valid_sh) {
                    (ByKey::Deprel, _) => labels.name(j.sl),
                    (_, None) => "invalid",
                    (ByKey::Distance, Some(h)) => distance_bin(h, dep),
                    (ByKey::Direction, Some(h)) => direction_bin(h, dep),
                    (ByKey::Depth, Some(_)) => depth_bin(self.tree.depth(dep)),
                    (ByKey::Projectivity, Some(_)) => {
                        projectivity_bin(self.tree.is_projective(dep))
                    }
                    _ => "invalid",
                };
                count_in(group(names, groups, sname), false, j);
            }
        }
    }
}

/// A scored word pair, judged: the word (1-based, words are paired and attached by
/// position), gold and system heads and labels, and whether they agree.
struct Judged {
    dep: u32,
    gh: u32,
    sh: Option<u32>,
    gl: u32,
    sl: u32,
    head_ok: bool,
    label_ok: bool,
}

/// Judge scored word `i` of the gold sentence against system word `sw`.
#[inline]
fn judge(
    g: &GoldSentence,
    i: usize,
    sys: &Sentence,
    sw: &Word,
    labels: &mut LabelTable,
    opts: &DepsOptions,
) -> Judged {
    let gh = g.heads[i];
    let sh = sw.head().index();
    let gl = g.labels[i];
    let sl = labels.intern(opts.labels.apply(sys.deprel(sw)));
    Judged {
        dep: i as u32 + 1,
        gh,
        sh,
        gl,
        sl,
        head_ok: sh == Some(gh),
        label_ok: gl == sl,
    }
}

/// The counts of group `name` of a breakdown (interned into `names`), grown as needed.
#[inline]
fn group<'g>(
    names: &mut LabelTable,
    groups: &'g mut Vec<GroupCounts>,
    name: &str,
) -> &'g mut GroupCounts {
    let i = names.intern(name) as usize;
    if groups.len() <= i {
        groups.resize(i + 1, GroupCounts::default());
    }
    &mut groups[i]
}

/// A judged word into a group's gold counts (`gold`, by its gold value) or its system
/// counts.
#[inline]
fn count_in(e: &mut GroupCounts, gold: bool, j: &Judged) {
    let (n, uas, las, la) = if gold {
        (
            &mut e.gold,
            &mut e.gold_uas,
            &mut e.gold_las,
            &mut e.gold_la,
        )
    } else {
        (
            &mut e.system,
            &mut e.system_uas,
            &mut e.system_las,
            &mut e.system_la,
        )
    };
    *n += 1;
    *uas += u64::from(j.head_ok);
    *las += u64::from(j.head_ok && j.label_ok);
    *la += u64::from(j.label_ok);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deps::PunctPolicy;
    use treeval_formats::ReaderBuilder;

    /// A sentence of `n` words, all attached to word 1 (word 1 to the root), labels `dep`;
    /// the system version gets the first `wrong` non-root words attached to the root.
    fn pair(n: usize, wrong: usize) -> (String, String) {
        let (mut g, mut s) = (String::new(), String::new());
        for i in 1..=n {
            let h = if i == 1 { 0 } else { 1 };
            let sh = if i > 1 && i <= 1 + wrong { 0 } else { h };
            g.push_str(&format!("{i}\tw\t_\tX\tX\t_\t{h}\tdep\t_\t_\n"));
            s.push_str(&format!("{i}\tw\t_\tX\tX\t_\t{sh}\tdep\t_\t_\n"));
        }
        (g + "\n", s + "\n")
    }

    /// Every sentence of a text.
    fn read(t: &str) -> Vec<Sentence> {
        ReaderBuilder::new()
            .from_reader("t", t.as_bytes())
            .sentences()
            .map(|r| r.unwrap())
            .collect()
    }

    #[test]
    fn seed_example_word_based_vs_sentence_based_las() {
        // Kübler, McDonald & Nivre (2009) §6.1: 9/10 and 15/45 words correct give
        // word-based 0.436 and sentence-based 0.617
        let (g1, s1) = pair(10, 1);
        let (g2, s2) = pair(45, 30);
        let (gold, sys) = (g1 + &g2, s1 + &s2);
        let opts = DepsOptions::default();
        let (mut labels, mut obs, mut prep) =
            (LabelTable::new(), Observer::new(&opts), GoldSentence::new());
        let (mut v, mut d, p) = (Validity::default(), Vec::new(), Arc::<str>::from("t"));
        for (g, s) in read(&gold).iter().zip(&read(&sys)) {
            prep.prepare(g, &p, &opts, &mut labels, &mut v, &mut d);
            obs.observe(g, &prep, &p, s, &p, &mut labels, &opts);
        }
        let t = obs.totals;
        assert_eq!((t.las, t.words), (24, 55));
        assert_eq!(format!("{:.3}", t.las as f64 / t.words as f64), "0.436");
        assert_eq!(
            format!("{:.3}", t.sum_sentence_las / t.scored_sentences as f64),
            "0.617"
        );
        // the system trees have several roots: counted, not fatal
        assert_eq!(obs.validity.multiple_roots, 2);
    }

    /// CoNLL-2009 lines: ID FORM LEMMA PLEMMA POS PPOS FEAT PFEAT HEAD PHEAD DEPREL
    /// PDEPREL FILLPRED PRED.
    fn conll09(words: &[(&str, u32, &str, &str)]) -> String {
        let mut t = String::new();
        for (i, (form, head, rel, pred)) in words.iter().enumerate() {
            t.push_str(&format!(
                "{}\t{form}\t_\t_\tX\tX\t_\t_\t{head}\t{head}\t{rel}\t{rel}\t_\t{pred}\n",
                i + 1
            ));
        }
        t + "\n"
    }

    fn observe_all(gold: &str, sys: &str, opts: &DepsOptions) -> (Observer, u64) {
        let (mut labels, mut obs, mut prep) =
            (LabelTable::new(), Observer::new(opts), GoldSentence::new());
        let (mut v, mut d, p) = (Validity::default(), Vec::new(), Arc::<str>::from("t"));
        let mut gold_predicates = 0;
        for (g, s) in read(gold).iter().zip(&read(sys)) {
            prep.prepare(g, &p, opts, &mut labels, &mut v, &mut d);
            gold_predicates += prep.predicates;
            obs.observe(g, &prep, &p, s, &p, &mut labels, opts);
        }
        (obs, gold_predicates)
    }

    #[test]
    fn punctuation_only_sentence_is_an_eval09_exact_match_but_not_measured_by_lem() {
        // sentence 1: one wrong word and a period; sentence 2: only punctuation, wrong
        let gold = conll09(&[("Go", 0, "root", "_"), (".", 1, "punct", "_")])
            + &conll09(&[("...", 0, "root", "_"), ("!", 1, "punct", "_")]);
        let sys = conll09(&[("Go", 0, "ROOT", "_"), (".", 1, "punct", "_")])
            + &conll09(&[("...", 0, "root", "_"), ("!", 1, "dep", "_")]);
        let opts = DepsOptions {
            punct: PunctPolicy::Form,
            ..DepsOptions::default()
        };
        let t = observe_all(&gold, &sys, &opts).0.totals;
        assert_eq!((t.words, t.excluded), (1, 3));
        assert_eq!(
            (t.sentences, t.scored_sentences, t.lem, t.uem),
            (2, 1, 0, 1)
        );
        // eval09.pl -p: the punctuation-only sentence counts, as matched
        assert_eq!(t.eval09_exact_match(), (1, 2));
        // all words scored: nothing is excluded, nothing matched by default
        let t = observe_all(&gold, &sys, &DepsOptions::default()).0.totals;
        assert_eq!(t.eval09_exact_match(), (0, 2));
        assert_eq!((t.lem, t.scored_sentences), (0, 2));
    }

    #[test]
    fn where_keeps_words_counts_the_others_and_measures_only_sentences_with_kept_words() {
        // sentence 1: nsubj right, obj labelled nsubj by the system; sentence 2: no nsubj
        let gold = conll09(&[
            ("I", 2, "nsubj", "_"),
            ("saw", 0, "root", "_"),
            ("it", 2, "obj", "_"),
            (".", 2, "punct", "_"),
        ]) + &conll09(&[("Go", 0, "root", "_"), ("!", 1, "punct", "_")]);
        let sys = conll09(&[
            ("I", 2, "nsubj", "_"),
            ("saw", 0, "root", "_"),
            ("it", 2, "nsubj", "_"),
            (".", 2, "punct", "_"),
        ]) + &conll09(&[("Go", 0, "root", "_"), ("!", 1, "punct", "_")]);
        let run = |spec: &str| {
            let opts = DepsOptions {
                punct: PunctPolicy::Form,
                filter: super::super::filter::Where::parse(spec, crate::LabelMode::Full).unwrap(),
                ..DepsOptions::default()
            };
            let (obs, _) = observe_all(&gold, &sys, &opts);
            let t = obs.totals;
            (
                t.words,
                t.las,
                t.excluded,
                obs.unmatched,
                t.scored_sentences,
                t.lem,
            )
        };
        // 4 words scored by the policy, 2 punctuation marks excluded by it
        assert_eq!(run("deprel=nsubj"), (1, 1, 2, 3, 1, 1));
        assert_eq!(run("sys.deprel=nsubj"), (2, 1, 2, 2, 1, 0));
        assert_eq!(run("deprel=obj,sys.deprel=nsubj"), (1, 0, 2, 3, 1, 0));
        assert_eq!(run("deprel=root"), (2, 2, 2, 2, 2, 2));
        assert_eq!(run("deprel=nope"), (0, 0, 2, 4, 0, 0));
    }

    #[test]
    fn las_caseless_counts_right_heads_with_labels_equal_ignoring_case() {
        // ROOT/root and ÉPI/épi equal ignoring case (Unicode too); `Det` has a wrong head;
        // `amod` vs `nmod` differ whatever the case
        let gold = conll09(&[
            ("a", 0, "root", "_"),
            ("b", 1, "épi", "_"),
            ("c", 1, "det", "_"),
            ("d", 1, "amod", "_"),
            ("e", 1, "obj", "_"),
        ]);
        let sys = conll09(&[
            ("a", 0, "ROOT", "_"),
            ("b", 1, "ÉPI", "_"),
            ("c", 2, "Det", "_"),
            ("d", 1, "NMOD", "_"),
            ("e", 1, "obj", "_"),
        ]);
        let (obs, _) = observe_all(&gold, &sys, &DepsOptions::default());
        assert_eq!(
            (obs.totals.las, obs.las_caseless, obs.totals.words),
            (1, 3, 5)
        );
    }

    #[test]
    fn predicates_are_counted_as_eval09_pl_reads_them() {
        let gold = conll09(&[("Go", 0, "root", "go.01"), ("now", 1, "advmod", "_")]);
        // `-` is no predicate either (the Chinese data of 2009 writes it)
        let sys = conll09(&[("Go", 0, "root", "-"), ("now", 1, "advmod", "now.02")]);
        let opts = DepsOptions {
            count_predicates: true,
            ..DepsOptions::default()
        };
        let (obs, gold_predicates) = observe_all(&gold, &sys, &opts);
        assert_eq!((gold_predicates, obs.predicates), (1, 1));
        // not counted unless asked
        let (obs, gold_predicates) = observe_all(&gold, &sys, &DepsOptions::default());
        assert_eq!((gold_predicates, obs.predicates), (0, 0));
    }
}
