//! Reading, pairing and counting a gold file against several system files.
//!
//! Each file is read on its own thread into batches of sentences (recycled, so memory
//! stays flat whatever the corpus size); the calling thread pairs the batches sentence by
//! sentence and counts. The gold file is read once for all systems.

use std::sync::Arc;

use treeval_formats::{
    Diagnostic, Diagnostics, Error, ErrorKind, Format, Position, ReaderBuilder, Sentence,
    WarningKind,
};

use super::{DepsOptions, GoldSentence, Observer, PunctPolicy, Validity};
use crate::feed::{spawn_reader, Feed};
use crate::labels::LabelTable;
use crate::AttachmentCounts;

/// One input file and how to read it.
#[derive(Debug, Clone)]
pub struct Input {
    /// Path as given (`-` = standard input).
    pub path: String,
    /// Reader settings.
    pub builder: ReaderBuilder,
    /// The input's bytes when it is held in memory (`path` is then only its name, as
    /// positions show it); `None` reads the file at `path`.
    pub data: Option<Arc<[u8]>>,
}

impl Input {
    /// The file at `path` (`-` = standard input), read with `builder`.
    pub fn path(path: impl Into<String>, builder: ReaderBuilder) -> Self {
        Input {
            path: path.into(),
            builder,
            data: None,
        }
    }

    /// In-memory bytes named `name` (gzip and zstd decompressed, as from a file).
    pub fn memory(name: impl Into<String>, data: Arc<[u8]>, builder: ReaderBuilder) -> Self {
        Input {
            path: name.into(),
            builder,
            data: Some(data),
        }
    }

    /// A reader of the input's sentences.
    pub fn open(&self) -> Result<treeval_formats::Reader<treeval_formats::input::Input>, Error> {
        match &self.data {
            None => self.builder.from_path(&self.path),
            Some(_) => Ok(self.builder.from_reader(&self.path, self.text()?)),
        }
    }

    /// The input's text (decompressed), for readers of other formats (bracketed trees,
    /// n-best lists).
    pub fn text(&self) -> Result<treeval_formats::input::Input, Error> {
        let raw: Box<dyn std::io::Read + Send> = match &self.data {
            None => return treeval_formats::input::open(&self.path).map(|(r, _)| r),
            Some(d) => Box::new(std::io::Cursor::new(Arc::clone(d))),
        };
        let (rdr, _) = treeval_formats::input::wrap(raw)
            .map_err(|e| Error::io(&Arc::from(self.path.as_str()), &e))?;
        Ok(rdr)
    }
}

/// What was read from a file.
#[derive(Debug, Clone)]
pub struct FileSummary {
    /// Path as given.
    pub path: String,
    /// Detected format.
    pub format: Option<Format>,
    /// Sentences read.
    pub sentences: u64,
    /// Syntactic words read.
    pub words: u64,
    /// Lines read.
    pub lines: u64,
}

/// The counts of one system file.
#[derive(Debug, Clone)]
pub struct SystemResult {
    /// What was read.
    pub file: FileSummary,
    /// The sums.
    pub observer: Observer,
}

/// Paired decisions of two systems: `(b, c)` = (right in A and wrong in B, wrong in A
/// and right in B), for McNemar's test.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PairCounts {
    /// Words: head.
    pub uas: (u64, u64),
    /// Words: head and label.
    pub las: (u64, u64),
    /// Words: label.
    pub la: (u64, u64),
    /// Sentences: labeled exact match.
    pub lem: (u64, u64),
    /// Sentences: unlabeled exact match.
    pub uem: (u64, u64),
}

/// Everything a `deps` evaluation counted.
#[derive(Debug, Clone)]
pub struct DepsResult {
    /// The gold file.
    pub gold: FileSummary,
    /// Structural problems of the gold trees.
    pub gold_validity: Validity,
    /// Gold words with a CoNLL-2009 predicate (counted with `opts.count_predicates`).
    pub gold_predicates: u64,
    /// One per system file, in the order given.
    pub systems: Vec<SystemResult>,
    /// Names of the label ids used in relation counts and confusions.
    pub labels: LabelTable,
    /// Warnings about the inputs and the evaluation.
    pub warnings: Diagnostics,
    /// Every sentence's counts, per system (when `opts.keep_sentences`).
    pub sentences: Vec<Vec<AttachmentCounts>>,
    /// Paired decisions for every two systems `a < b`, at index [`DepsResult::pair_index`]
    /// (when `opts.pair_decisions`).
    pub pairs: Vec<PairCounts>,
    /// Kinds of sanity warnings raised, in order (`label-case`, `unseen-labels`,
    /// `subtypes`, `empty-xpos`), for the signature; empty when none.
    pub sanity: Vec<&'static str>,
    /// Gold sentences kept and excluded by `opts.selection`.
    pub selection: crate::select::SelectionCounts,
}

impl DepsResult {
    /// Index in [`DepsResult::pairs`] of systems `a < b`.
    pub fn pair_index(&self, a: usize, b: usize) -> usize {
        pair_index(self.systems.len(), a, b)
    }
}

/// The index of systems `a < b` among the pairs of `n` systems, in the order (0,1),
/// (0,2), …, (1,2), … of [`DepsResult::pairs`].
pub fn pair_index(n: usize, a: usize, b: usize) -> usize {
    a * n - a * (a + 1) / 2 + (b - a - 1)
}

impl DepsResult {
    /// The warnings about the whole corpus, from its summed counts (after reading every
    /// sentence, or after merging shards): punctuation policy, label inventories, empty
    /// XPOS; their kinds go to [`DepsResult::sanity`].
    pub fn corpus_checks(&mut self, opts: &DepsOptions) {
        self.punct_warnings(opts);
        self.label_warnings(opts);
        self.empty_xpos_warning();
    }

    /// Warnings about the punctuation policy: it excluded no word, or every word of a
    /// system.
    fn punct_warnings(&mut self, opts: &DepsOptions) {
        if opts.punct != PunctPolicy::Include {
            if let Some(o) = self.systems.first().map(|s| &s.observer) {
                if o.totals.excluded == 0 {
                    self.warnings.push(
                        Diagnostic::warning(
                            Position::new(Arc::from(self.gold.path.as_str()), 0, 0),
                            ErrorKind::Other(format!(
                                "the punctuation policy '{}' excluded no word: is it the right one for this treebank?",
                                opts.punct.name()
                            )),
                        )
                        .of_kind(WarningKind::PunctExcludedNothing),
                    );
                }
            }
        }
        // (a sentence selection that kept no sentence has its own warning: no word was
        // there for the punctuation policy or --where to leave out)
        for (k, o) in self.systems.iter().map(|s| &s.observer).enumerate() {
            if o.totals.words == 0 && !opts.filter.is_empty() && o.unmatched > 0 {
                self.warnings.push(Diagnostic::warning(
                    Position::new(Arc::from(self.systems[k].file.path.as_str()), 0, 0),
                    ErrorKind::Other(format!(
                        "no word scored: --where {} matched none of the {} words the punctuation policy '{}' scores, so every score is not applicable (n/a)",
                        opts.filter.describe(),
                        o.unmatched,
                        opts.punct.name()
                    )),
                ).of_kind(WarningKind::WhereMatchedNothing));
            } else if o.totals.words == 0 && o.totals.excluded > 0 {
                self.warnings.push(
                    Diagnostic::warning(
                        Position::new(Arc::from(self.systems[k].file.path.as_str()), 0, 0),
                        ErrorKind::Other(format!(
                            "no word scored: the punctuation policy '{}' excluded all {} words, so every score is not applicable (n/a)",
                            opts.punct.name(),
                            o.totals.excluded
                        )),
                    )
                    .with_hint("choose another --punct policy (or --profile conll07) to score these words")
                    .of_kind(WarningKind::PunctExcludedEverything),
                );
            }
        }
    }

    /// Sanity warnings about each system's label inventory against gold's (scored
    /// words; none with `--where`, which keeps words by their labels): case-only twins (`ROOT` vs `root`, with the LAS labels compared
    /// case-insensitively would give), labels never in gold, subtypes in one file only.
    fn label_warnings(&mut self, opts: &DepsOptions) {
        if !opts.filter.is_empty() {
            // the kept words' inventories are not the files': with `--where deprel=nsubj`
            // every other system label is "never in gold"
            return;
        }
        for k in 0..self.systems.len() {
            let o = &self.systems[k].observer;
            let inv = Inventory::of(o, &self.labels);
            let path: Arc<str> = Arc::from(self.systems[k].file.path.as_str());
            let mut found = Vec::new();
            if !inv.case.is_empty() {
                let pairs: Vec<String> = inv
                    .case
                    .iter()
                    .map(|(s, n, g)| format!("'{s}' ({}) vs gold '{g}'", words(*n)))
                    .collect();
                let words = o.totals.words.max(1) as f64;
                let msg = format!(
                    "system labels never in gold differ from gold labels only by case: {}; LAS would be {:.2} with labels compared case-insensitively (it is {:.2})",
                    pairs.join(", "),
                    100.0 * o.las_caseless as f64 / words,
                    100.0 * o.totals.las as f64 / words,
                );
                found.push(("label-case", WarningKind::LabelCase, msg, "labels are compared case-sensitively (as eval07.pl): fix the case in the system file"));
            }
            if !inv.unseen.is_empty() {
                let msg = match inv.unseen.len() {
                    1 => format!("a system label never occurs in gold (its words all have a wrong label): {}", listing(&inv.unseen)),
                    n => format!("{n} system labels never occur in gold (their words all have a wrong label): {}", listing(&inv.unseen)),
                };
                found.push(("unseen-labels", WarningKind::UnseenLabels, msg, "is the system trained on another label set (another UD version, another treebank)? --labels universal compares the part before ':' only"));
            }
            if !inv.gold_subtypes.is_empty() || !inv.sys_subtypes.is_empty() {
                let side = |name: &str, v: &[(&str, u64)]| {
                    (!v.is_empty()).then(|| format!("{name} only {}", listing(v)))
                };
                let parts: Vec<String> = [
                    side("gold", &inv.gold_subtypes),
                    side("system", &inv.sys_subtypes),
                ]
                .into_iter()
                .flatten()
                .collect();
                let msg = format!("label subtypes in one file only: {}", parts.join("; "));
                found.push(("subtypes", WarningKind::LabelSubtypes, msg, "the files may follow different subtype conventions; --labels universal compares the part before ':' only"));
            }
            for (sanity, kind, msg, hint) in found {
                self.sanity_kind(sanity);
                self.warnings.push(
                    Diagnostic::warning(Position::new(path.clone(), 0, 0), ErrorKind::Other(msg))
                        .with_hint(hint)
                        .of_kind(kind),
                );
            }
        }
    }

    /// `--by xpos` with a gold XPOS column that is `_` on every scored word: a warning.
    fn empty_xpos_warning(&mut self) {
        let Some(o) = self.systems.first().map(|s| &s.observer) else {
            return;
        };
        let empty = o.by.iter().any(|(key, names, groups)| {
            *key == super::ByKey::Xpos
                && groups
                    .iter()
                    .enumerate()
                    .all(|(i, g)| g.gold == 0 || names.name(i as u32) == "_")
        });
        if empty && o.totals.words > 0 {
            self.sanity_kind("empty-xpos");
            self.warnings.push(
                Diagnostic::warning(
                    Position::new(Arc::from(self.gold.path.as_str()), 0, 0),
                    ErrorKind::Other(
                        "the gold XPOS column is '_' on every word: the breakdown by xpos has one group, '_'".into(),
                    ),
                )
                .with_hint("break down by upos instead (--by upos)")
                .of_kind(WarningKind::GoldColumnEmpty),
            );
        }
    }

    /// Record a kind of sanity warning (for the signature), once.
    fn sanity_kind(&mut self, kind: &'static str) {
        if !self.sanity.contains(&kind) {
            self.sanity.push(kind);
        }
    }
}

/// Add the paired decisions of two observers' last sentence.
fn count_pair(
    p: &mut PairCounts,
    x: &Observer,
    y: &Observer,
    cx: &AttachmentCounts,
    cy: &AttachmentCounts,
) {
    fn bump(t: &mut (u64, u64), a: bool, b: bool) {
        t.0 += u64::from(a && !b);
        t.1 += u64::from(!a && b);
    }
    use super::{DECISION_HEAD as H, DECISION_LABEL as L, DECISION_SCORED as S};
    for (&dx, &dy) in x.decisions.iter().zip(&y.decisions) {
        if dx & S == 0 {
            continue;
        }
        bump(&mut p.uas, dx & H != 0, dy & H != 0);
        bump(&mut p.la, dx & L != 0, dy & L != 0);
        bump(&mut p.las, dx & (H | L) == H | L, dy & (H | L) == H | L);
    }
    if cx.scored_sentences == 1 {
        bump(&mut p.lem, cx.lem == 1, cy.lem == 1);
        bump(&mut p.uem, cx.uem == 1, cy.uem == 1);
    }
}

/// Evaluate `systems` against `gold`. `on_sentence(system index, gold, system, counts)` is
/// called for every sentence pair (for per-sentence output).
///
/// Errors (unreadable or malformed input, files that do not pair up, and with
/// `opts.strict` FORM mismatches and malformed system trees) are all collected and
/// returned together; no partial result is returned with them.
pub fn evaluate<F>(
    gold: &Input,
    systems: &[Input],
    opts: &DepsOptions,
    on_sentence: F,
) -> Result<DepsResult, Error>
where
    F: FnMut(usize, &Sentence, &Sentence, &AttachmentCounts),
{
    let mut result = evaluate_counts(gold, systems, opts, on_sentence)?;
    result.corpus_checks(opts);
    Ok(result)
}

/// [`evaluate`] without [`DepsResult::corpus_checks`]: the counts and the warnings found
/// while reading (what a mergeable state keeps; the checks are run on the merged sums).
pub fn evaluate_counts<F>(
    gold: &Input,
    systems: &[Input],
    opts: &DepsOptions,
    mut on_sentence: F,
) -> Result<DepsResult, Error>
where
    F: FnMut(usize, &Sentence, &Sentence, &AttachmentCounts),
{
    let mut run = Run::new(gold, systems, opts);
    let (gold_summary, sys_summaries) = std::thread::scope(|scope| -> Result<_, Error> {
        let mut gfeed = spawn_reader(scope, gold);
        let mut sfeeds: Vec<Feed> = systems.iter().map(|s| spawn_reader(scope, s)).collect();
        let gold_count = run.pair_all(&mut gfeed, &mut sfeeds, &mut on_sentence)?;
        run.finish_feeds(gfeed, sfeeds, gold_count)
    })?;
    run.check(&gold_summary)?;
    Ok(run.into_result(gold_summary, sys_summaries))
}

/// One `deps` evaluation under way: its inputs, what it counted and what it found.
struct Run<'a> {
    gold: &'a Input,
    systems: &'a [Input],
    opts: &'a DepsOptions,
    gold_path: Arc<str>,
    sys_paths: Vec<Arc<str>>,
    labels: LabelTable,
    errors: Diagnostics,
    warnings: Diagnostics,
    observers: Vec<Observer>,
    gold_validity: Validity,
    gold_predicates: u64,
    sentences: Vec<Vec<AttachmentCounts>>,
    pairs: Vec<PairCounts>,
    /// Each system's counts of the current sentence (none when not counted).
    current: Vec<Option<AttachmentCounts>>,
    /// Kinds of sanity warnings raised (`label-case`, `unseen-labels`, …).
    sanity: Vec<&'static str>,
    /// Gold sentences kept and excluded by `opts.selection`.
    selection: crate::select::SelectionCounts,
    /// Each system's sent_ids against gold's, sentence by sentence.
    sent_ids: Vec<crate::sent_ids::SentIdCheck>,
}

/// A diagnostic to `errors` or `warnings`, by its severity.
fn sort_into(errors: &mut Diagnostics, warnings: &mut Diagnostics, d: Diagnostic) {
    if d.is_error() {
        errors.push(d);
    } else {
        warnings.push(d);
    }
}

impl<'a> Run<'a> {
    fn new(gold: &'a Input, systems: &'a [Input], opts: &'a DepsOptions) -> Self {
        let nsys = systems.len();
        Run {
            gold,
            systems,
            opts,
            gold_path: Arc::from(gold.path.as_str()),
            sys_paths: systems.iter().map(|s| Arc::from(s.path.as_str())).collect(),
            labels: LabelTable::new(),
            errors: Diagnostics::with_limit(100),
            warnings: Diagnostics::with_limit(100),
            observers: systems.iter().map(|_| Observer::new(opts)).collect(),
            gold_validity: Validity::default(),
            gold_predicates: 0,
            sentences: vec![Vec::new(); if opts.keep_sentences { nsys } else { 0 }],
            pairs: vec![
                PairCounts::default();
                if opts.pair_decisions {
                    nsys * nsys.saturating_sub(1) / 2
                } else {
                    0
                }
            ],
            current: vec![None; nsys],
            sanity: Vec::new(),
            selection: opts.selection.counts(),
            sent_ids: vec![Default::default(); nsys],
        }
    }

    /// Pair every gold sentence with each system's next one and count; the number of
    /// gold sentences.
    fn pair_all<F>(
        &mut self,
        gfeed: &mut Feed,
        sfeeds: &mut [Feed],
        on_sentence: &mut F,
    ) -> Result<u64, Error>
    where
        F: FnMut(usize, &Sentence, &Sentence, &AttachmentCounts),
    {
        let mut prepared = GoldSentence::new();
        let mut gold_diags = Vec::new();
        let mut sys_done = vec![false; sfeeds.len()];
        let mut gold_count = 0u64;
        while let Some(g) = gfeed.next()? {
            gold_count += 1;
            gold_diags.clear();
            prepared.prepare(
                g,
                &self.gold_path,
                self.opts,
                &mut self.labels,
                &mut self.gold_validity,
                &mut gold_diags,
            );
            self.gold_predicates += prepared.predicates;
            for d in gold_diags.drain(..) {
                sort_into(&mut self.errors, &mut self.warnings, d);
            }
            let words = g.len() as u64;
            let kept = (self.opts.selection).tally(
                &mut self.selection,
                g.sent_id(),
                g.index(),
                words,
                words,
            );
            // an excluded sentence is still paired (word counts checked), not counted
            let gold_ok = !g.has_errors() && kept;
            self.current.iter_mut().for_each(|c| *c = None);
            for (k, feed) in sfeeds.iter_mut().enumerate() {
                if sys_done[k] {
                    continue;
                }
                let Some(s) = feed.next()? else {
                    sys_done[k] = true;
                    continue;
                };
                self.pair_sentence(k, g, &prepared, s, gold_ok, on_sentence);
            }
            if self.opts.pair_decisions {
                self.count_pairs();
            }
        }
        Ok(gold_count)
    }

    /// Gold sentence `g` (prepared) and system `k`'s sentence `s`: an error if their word
    /// counts differ, else counted (unless the result is already an error).
    fn pair_sentence<F>(
        &mut self,
        k: usize,
        g: &Sentence,
        prepared: &GoldSentence,
        s: &Sentence,
        gold_ok: bool,
        on_sentence: &mut F,
    ) where
        F: FnMut(usize, &Sentence, &Sentence, &AttachmentCounts),
    {
        self.sent_ids[k].observe((g.sent_id(), g.first_line()), (s.sent_id(), s.first_line()));
        if s.len() != g.len() {
            let pos = Position::new(self.sys_paths[k].clone(), s.first_line().max(1), 1)
                .in_sentence(s.index(), s.sent_id());
            self.errors.push(
                Diagnostic::error(
                    pos,
                    ErrorKind::WordCount {
                        gold: format!("{}:{}", self.gold.path, g.first_line()),
                        expected: g.len(),
                        found: s.len(),
                    },
                )
                .with_hint(
                    "deps pairs words one to one; for different tokenization use `treeval ud` (tokenization alignment)",
                ),
            );
            return;
        }
        if !gold_ok || s.has_errors() || self.errors.error_count() > 0 {
            // the result will be an error: keep pairing only to find more problems
            return;
        }
        let c = self.observers[k].observe(
            g,
            prepared,
            &self.gold_path,
            s,
            &self.sys_paths[k],
            &mut self.labels,
            self.opts,
        );
        on_sentence(k, g, s, &c);
        if self.opts.keep_sentences {
            self.sentences[k].push(c);
        }
        self.current[k] = Some(c);
    }

    /// The paired decisions of every two systems counted on the current sentence.
    fn count_pairs(&mut self) {
        let nsys = self.systems.len();
        let mut idx = 0;
        for a in 0..nsys {
            for b in a + 1..nsys {
                if let (Some(ca), Some(cb)) = (&self.current[a], &self.current[b]) {
                    count_pair(
                        &mut self.pairs[idx],
                        &self.observers[a],
                        &self.observers[b],
                        ca,
                        cb,
                    );
                }
                idx += 1;
            }
        }
    }

    /// Every reader's diagnostics and summary (the systems' first, each with an error
    /// when its sentence count is not gold's, then gold's).
    fn finish_feeds(
        &mut self,
        mut gfeed: Feed,
        sfeeds: Vec<Feed>,
        gold_count: u64,
    ) -> Result<(FileSummary, Vec<FileSummary>), Error> {
        let (gd, gsum) = gfeed.finish()?;
        let mut sums = Vec::with_capacity(sfeeds.len());
        for (k, mut feed) in sfeeds.into_iter().enumerate() {
            let (d, mut sum) = feed.finish()?;
            for x in d.into_vec() {
                sort_into(&mut self.errors, &mut self.warnings, x);
            }
            if sum.sentences != gold_count {
                let pos = Position::new(self.sys_paths[k].clone(), sum.lines.max(1), 1);
                self.errors.push(
                    Diagnostic::error(
                        pos,
                        ErrorKind::SentenceCount {
                            gold: self.gold.path.clone(),
                            expected: gold_count,
                            found: sum.sentences,
                        },
                    )
                    .with_hint(if sum.sentences < gold_count {
                        "the system file ends early: is it truncated, or were sentences merged?"
                    } else {
                        "the system file has extra sentences: were sentences split? `treeval ud` aligns different segmentations"
                    }),
                );
            }
            sum.path = self.systems[k].path.clone();
            sums.push(sum);
        }
        for x in gd.into_vec() {
            sort_into(&mut self.errors, &mut self.warnings, x);
        }
        Ok((gsum, sums))
    }

    /// After reading: an empty gold file is an error, the observers' examples are
    /// reported; all errors found, if any.
    fn check(&mut self, gold_summary: &FileSummary) -> Result<(), Error> {
        if gold_summary.words == 0 && self.errors.error_count() == 0 {
            self.errors.push(Diagnostic::error(
                Position::new(self.gold_path.clone(), gold_summary.lines.max(1), 1),
                ErrorKind::Other("expected at least one word in the gold file, found none".into()),
            ));
        }
        for o in &mut self.observers {
            for d in o.examples.drain(..) {
                sort_into(&mut self.errors, &mut self.warnings, d);
            }
        }
        let errors = std::mem::take(&mut self.errors).into_result()?;
        debug_assert_eq!(errors.error_count(), 0);
        Ok(())
    }

    /// The result, with the files' summaries.
    fn into_result(mut self, gold: FileSummary, systems: Vec<FileSummary>) -> DepsResult {
        for (k, c) in self.sent_ids.iter().enumerate() {
            let path = &self.systems[k].path;
            if let Some(w) = c.warning(&self.gold.path, path, "by position") {
                self.warnings.push(w);
            }
        }
        DepsResult {
            gold,
            gold_validity: self.gold_validity,
            gold_predicates: self.gold_predicates,
            systems: systems
                .into_iter()
                .zip(self.observers)
                .map(|(file, observer)| SystemResult { file, observer })
                .collect(),
            labels: self.labels,
            warnings: self.warnings,
            sentences: self.sentences,
            pairs: self.pairs,
            sanity: self.sanity,
            selection: self.selection,
        }
    }
}

/// One system's label inventory against gold's, over the scored words.
#[derive(Default)]
struct Inventory<'l> {
    /// System labels never in gold with a case-only twin in gold: (label, words, twin).
    case: Vec<(&'l str, u64, &'l str)>,
    /// Other system labels never in gold, without a `:` subtype: (label, words).
    unseen: Vec<(&'l str, u64)>,
    /// Subtypes (`obl:tmod`) gold has and the system never predicts: (label, words).
    gold_subtypes: Vec<(&'l str, u64)>,
    /// Subtypes the system predicts and gold never has: (label, words).
    sys_subtypes: Vec<(&'l str, u64)>,
}

impl<'l> Inventory<'l> {
    /// The inventory of observer `o` (label names from `labels`), lists most words first.
    fn of(o: &crate::deps::Observer, labels: &'l LabelTable) -> Self {
        let mut inv = Inventory::default();
        let name = |i: usize| labels.name(i as u32);
        // each label lower-cased once
        let lower: Vec<String> = (0..o.relations.len())
            .map(|i| name(i).to_lowercase())
            .collect();
        let twin = |i: usize, gold_side: bool| {
            o.relations.iter().enumerate().find(|(j, r)| {
                *j != i && (if gold_side { r.gold } else { r.system }) > 0 && lower[*j] == lower[i]
            })
        };
        for (i, r) in o.relations.iter().enumerate() {
            if r.gold == 0 && r.system > 0 {
                if let Some((j, _)) = twin(i, true) {
                    inv.case.push((name(i), r.system, name(j)));
                } else if name(i).contains(':') {
                    inv.sys_subtypes.push((name(i), r.system));
                } else {
                    inv.unseen.push((name(i), r.system));
                }
            } else if r.system == 0
                && r.gold > 0
                && name(i).contains(':')
                && twin(i, false).is_none()
            {
                inv.gold_subtypes.push((name(i), r.gold));
            }
        }
        for v in [
            &mut inv.unseen,
            &mut inv.gold_subtypes,
            &mut inv.sys_subtypes,
        ] {
            v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        }
        inv
    }
}

/// `'a' (12 words), 'b' (3), …`: the first 10, then `and N more`.
fn listing(v: &[(&str, u64)]) -> String {
    let mut parts: Vec<String> = v
        .iter()
        .take(10)
        .enumerate()
        .map(|(i, (l, n))| {
            if i == 0 {
                format!("'{l}' ({})", words(*n))
            } else {
                format!("'{l}' ({n})")
            }
        })
        .collect();
    if v.len() > 10 {
        parts.push(format!("and {} more", v.len() - 10));
    }
    parts.join(", ")
}

/// `1 word`, `2 words`.
fn words(n: u64) -> String {
    if n == 1 {
        "1 word".into()
    } else {
        format!("{n} words")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_shows_the_first_ten_then_how_many_more() {
        let names: Vec<String> = (0..13).map(|i| format!("l{i}")).collect();
        let v: Vec<(&str, u64)> = names.iter().map(|n| (n.as_str(), 2)).collect();
        assert_eq!(
            listing(&v),
            "'l0' (2 words), 'l1' (2), 'l2' (2), 'l3' (2), 'l4' (2), 'l5' (2), 'l6' (2), \
             'l7' (2), 'l8' (2), 'l9' (2), and 3 more"
        );
        assert_eq!(listing(&v[..1]), "'l0' (2 words)");
        assert_eq!(listing(&[("x", 1)]), "'x' (1 word)");
    }
}
