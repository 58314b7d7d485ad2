//! A TedEval evaluation of one or more experiments (a gold file and a parse file of one
//! annotation scheme each, over the same sentences): every file is read and paired as
//! `deps` does (so LAS against its own gold comes from the same counts), the gold trees
//! are generalized sentence by sentence into one gold, and every parse is scored
//! against it ([`super::score_sentence`]), sentences in parallel.

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;
use treeval_formats::{Diagnostic, Diagnostics, Error, ErrorKind, Position, Sentence};

use super::edits::{try_score_sentence_with_edits, EditOp};
use super::{
    functional_tree, generalize, ted_tree, try_score_sentence, FNode, LabelIds, Repairs,
    TedEvalCounts,
};
use crate::deps::{evaluate_counts as evaluate_counts_deps, DepsResult, FileSummary, Input};
use crate::ted::{TooCostly, DEFAULT_MAX_COST};
use crate::{AttachmentCounts, DepsOptions};

/// Stack size of the scoring threads.
const STACK: usize = 256 << 20;

/// Sentences longer than this are not converted or scored (counted and reported): the
/// edit distance's table of two trees of n words takes about (3n)² × 4 bytes, 900 MB at
/// this length.
pub const MAX_WORDS: u32 = 5_000;

/// One experiment: a scheme's gold file and a parse in that scheme.
#[derive(Debug, Clone)]
pub struct Experiment {
    /// Name shown in reports.
    pub name: String,
    /// The gold file of the scheme.
    pub gold: Input,
    /// The parse file.
    pub parse: Input,
}

/// Settings of a TedEval run.
#[derive(Debug, Clone, Default)]
pub struct TedEvalOptions {
    /// Relabelling costs nothing.
    pub unlabeled: bool,
    /// Which sentences are scored (by the first experiment's gold: its ids and word
    /// counts); the others are counted in [`TedEvalResult::selection`].
    pub selection: crate::select::Selection,
    /// Score only sentences whose edit distances take at most this many table cells
    /// (the others are counted and warned about); `None`: [`DEFAULT_MAX_COST`].
    pub max_cost: Option<u64>,
    /// Label → the label of its equivalence class (applied to every tree as it is read).
    pub equivalences: HashMap<String, String>,
    /// Keep every sentence's counts.
    pub keep_sentences: bool,
    /// How bracketed (constituency) files become functional trees.
    pub brackets: super::BracketConversion,
    /// Keep the edit operations behind every sentence's δ_new
    /// ([`ExperimentResult::edits`]).
    pub keep_edits: bool,
}

/// One sentence's edit operations behind δ_new (see [`super::edits`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentenceEdits {
    /// The sentence's 1-based number.
    pub sentence: u64,
    /// Its words (the gold's forms), which the operations' word numbers index.
    pub words: Vec<String>,
    /// The operations, in the order of the parse's script.
    pub ops: Vec<EditOp>,
}

/// The results of one experiment.
#[derive(Debug, Clone)]
pub struct ExperimentResult {
    /// Name.
    pub name: String,
    /// The gold file as read.
    pub gold: FileSummary,
    /// The parse file as read.
    pub parse: FileSummary,
    /// Attachment counts of the parse against its own gold, over the scored sentences
    /// (`None` when a side is bracketed).
    pub attachment: Option<AttachmentCounts>,
    /// TedEval counts against the generalized gold.
    pub counts: TedEvalCounts,
    /// Nodes of this experiment's own gold trees over the scored sentences (ROOT and
    /// terminals excluded, as [`RunSummary::generalized_nodes`]): what generalization
    /// reduces to the generalized gold's nodes.
    pub gold_nodes: u64,
    /// Repairs of the gold trees (cycles, bad heads) before conversion.
    pub gold_repairs: Repairs,
    /// Repairs of the parse trees.
    pub parse_repairs: Repairs,
    /// Every scored sentence's counts (`keep_sentences`; a sentence too large to score
    /// has zeros; sentences the selection excludes are not there).
    pub sentences: Vec<TedEvalCounts>,
    /// With `keep_edits`: the operations behind δ_new of every scored sentence that has
    /// some (their number is [`TedEvalCounts::delta_new`] summed).
    pub edits: Vec<SentenceEdits>,
    /// A dependency experiment's `deps` counts over every sentence, before their corpus
    /// checks ([`TedEvalResult::corpus_checks`]), without warnings (they are in
    /// [`TedEvalResult::warnings`]).
    pub deps: Option<DepsResult>,
}

/// Everything a TedEval run counted.
#[derive(Debug, Clone)]
pub struct TedEvalResult {
    /// One per experiment, in the order given.
    pub experiments: Vec<ExperimentResult>,
    /// Sentences read (every file has this many).
    pub sentences: u64,
    /// Sentences scored.
    pub scored: u64,
    /// Sentences the selection excludes by length (`--min-len`, `--max-len`), not
    /// scored, and their words.
    pub skipped_long: (u64, u64),
    /// Sentences kept and excluded by [`TedEvalOptions::selection`].
    pub selection: crate::select::SelectionCounts,
    /// The 1-based sentence numbers of the rows of every experiment's `sentences`.
    pub numbers: Vec<u64>,
    /// Sentences over [`MAX_WORDS`] or over the cost limit of the edit distance
    /// ([`TedEvalOptions::max_cost`]), not scored, and their words.
    pub too_large: (u64, u64),
    /// Warnings from reading the files.
    pub warnings: Diagnostics,
    /// Sizes of the generalized gold.
    pub summary: RunSummary,
}

/// Node counts of the generalized gold against the first experiment's gold.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct RunSummary {
    /// Nodes of all generalized gold trees (ROOT and terminals excluded).
    pub generalized_nodes: u64,
    /// Nodes of the first experiment's gold trees.
    pub first_gold_nodes: u64,
}

/// A sentence's counts per experiment and the size of its generalized gold, or why it
/// is not scored (`None`: over a word limit).
type Scored = Result<(Vec<(TedEvalCounts, Vec<EditOp>)>, u64), Option<TooCostly>>;

/// One sentence of one experiment, as read.
struct Pair {
    gold: FNode,
    parse: FNode,
    counts: AttachmentCounts,
    forms: Box<str>,
    at: (u64, u64),
    /// The gold sentence's `# sent_id`.
    id: Option<Box<str>>,
}

/// A CoNLL sentence's functional tree, its repairs counted in `repairs` (a tree without
/// nodes when the sentence is over [`MAX_WORDS`]: it will not be scored).
fn sentence_tree(s: &Sentence, eq: &HashMap<String, String>, repairs: &mut Repairs) -> FNode {
    if s.len() as u32 > MAX_WORDS {
        return super::root(Vec::new(), s.len() as u32);
    }
    let (tree, x) = tree_of(s, eq);
    repairs.bad_heads += x.bad_heads;
    repairs.cycles += x.cycles;
    tree
}

/// A sentence's words, joined by tabs (tabs cannot occur in a field: equal joins mean
/// equal word sequences).
fn forms_of(s: &Sentence) -> Box<str> {
    let forms: Vec<&str> = s.words().iter().map(|w| s.form(w)).collect();
    forms.join("\t").into_boxed_str()
}

fn tree_of(s: &Sentence, eq: &HashMap<String, String>) -> (FNode, Repairs) {
    let n = s.len() as u32;
    let heads: Vec<u32> = s
        .words()
        .iter()
        .map(|w| w.head().index().filter(|&h| h <= n).unwrap_or(u32::MAX))
        .collect();
    let labels: Vec<&str> = s
        .words()
        .iter()
        .map(|w| {
            let l = s.deprel(w);
            eq.get(l).map_or(l, String::as_str)
        })
        .collect();
    functional_tree(&heads, &labels)
}

/// One sentence of one file, converted.
struct SideTree {
    tree: FNode,
    forms: Box<str>,
    line: u64,
}

/// Whether a file holds bracketed trees (its first non-blank byte is `(`).
fn is_bracketed(file: &Input) -> Result<bool, Error> {
    use std::io::BufRead;
    let mut input = file.text()?;
    let head = input
        .fill_buf()
        .map_err(|e| Error::io(&Arc::from(file.path.as_str()), &e))?;
    let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    Ok(text
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'('))
}

/// Read one file of either kind into functional trees (for experiments with a
/// bracketed side, which `deps` cannot pair).
fn read_side(
    input: &Input,
    bracketed: bool,
    opts: &TedEvalOptions,
    errors: &mut Diagnostics,
    warnings: &mut Diagnostics,
) -> Result<(Vec<SideTree>, FileSummary, Repairs), Error> {
    let path = input.path.as_str();
    let mut out = Vec::new();
    let mut repairs = Repairs::default();
    let mut summary = FileSummary {
        path: path.to_owned(),
        format: None,
        sentences: 0,
        words: 0,
        lines: 0,
    };
    if bracketed {
        let rdr = input.text()?;
        let mut r = treeval_formats::bracket::BracketReader::new(
            rdr,
            path,
            treeval_formats::bracket::Layout::Auto,
        );
        let mut t = treeval_formats::bracket::BracketTree::default();
        while r.read_tree(&mut t)? {
            for d in &t.problems {
                errors.push(d.clone());
            }
            let words = super::bracket_words(&t, &opts.brackets);
            summary.sentences += 1;
            summary.words += words.len() as u64;
            let tree = if words.len() as u32 > MAX_WORDS {
                super::root(Vec::new(), words.len() as u32)
            } else {
                let mut tree = super::from_brackets_with(&t, &opts.brackets);
                relabel(&mut tree, &opts.equivalences);
                tree
            };
            out.push(SideTree {
                tree,
                forms: words.join("\t").into_boxed_str(),
                line: t.line,
            });
            summary.lines = t.line;
        }
    } else {
        let mut r = input.open()?;
        summary.format = r.format();
        let mut s = Sentence::new();
        while r.read_sentence(&mut s)? {
            summary.sentences += 1;
            summary.words += s.len() as u64;
            out.push(SideTree {
                tree: sentence_tree(&s, &opts.equivalences, &mut repairs),
                forms: forms_of(&s),
                line: s.first_line(),
            });
        }
        summary.lines = r.line();
        for d in r.take_diagnostics().into_vec() {
            if d.is_error() {
                errors.push(d);
            } else {
                warnings.push(d);
            }
        }
    }
    Ok((out, summary, repairs))
}

/// Replace labels by their equivalence class.
fn relabel(t: &mut FNode, eq: &HashMap<String, String>) {
    if eq.is_empty() {
        return;
    }
    let mut stack = vec![t];
    while let Some(x) = stack.pop() {
        if let Some(l) = eq.get(&x.label) {
            x.label = l.clone();
        }
        stack.extend(x.children.iter_mut());
    }
}

/// Pair an experiment whose gold or parse is bracketed: same sentences, same words.
fn pair_sides(
    e: &Experiment,
    bracketed: (bool, bool),
    opts: &TedEvalOptions,
    errors: &mut Diagnostics,
    warnings: &mut Diagnostics,
) -> Result<ReadExperiment, Error> {
    let (gold, gs, gr) = read_side(&e.gold, bracketed.0, opts, errors, warnings)?;
    let (parse, ps, pr) = read_side(&e.parse, bracketed.1, opts, errors, warnings)?;
    if gold.len() != parse.len() {
        errors.push(
            Diagnostic::error(
                Position::new(Arc::from(e.parse.path.as_str()), ps.lines.max(1), 1),
                ErrorKind::SentenceCount {
                    gold: e.gold.path.clone(),
                    expected: gold.len() as u64,
                    found: parse.len() as u64,
                },
            )
            .with_hint("the parse must hold the gold's sentences, in the same order"),
        );
    }
    let mut pairs = Vec::with_capacity(gold.len());
    for (k, (g, p)) in gold.into_iter().zip(parse).enumerate() {
        if g.forms != p.forms {
            errors.push(
                Diagnostic::error(
                    Position::new(Arc::from(e.parse.path.as_str()), p.line.max(1), 1)
                        .in_sentence(k as u64 + 1, None),
                    ErrorKind::Other(format!(
                        "expected the words of {}:{}, found other words: '{}' vs '{}'",
                        e.gold.path,
                        g.line,
                        shorten(&g.forms.replace('\t', " ")),
                        shorten(&p.forms.replace('\t', " "))
                    )),
                )
                .with_hint("TedEval pairs trees over the same words (traces, -NONE-, are dropped from bracketed trees)"),
            );
            continue;
        }
        pairs.push(Pair {
            gold: g.tree,
            parse: p.tree,
            counts: AttachmentCounts::default(),
            forms: g.forms,
            at: (g.line, k as u64 + 1),
            id: None,
        });
    }
    Ok((pairs, gs, ps, gr, pr, None))
}

/// An experiment as read: its pairs of trees, the gold and parse files' summaries, the
/// repairs of the gold and of the parse trees, and a dependency experiment's `deps`
/// counts (before their corpus checks, without warnings).
type ReadExperiment = (
    Vec<Pair>,
    FileSummary,
    FileSummary,
    Repairs,
    Repairs,
    Option<DepsResult>,
);

/// Evaluate the experiments. Errors (unreadable or malformed files, files that do not
/// pair up, golds of different experiments over different words) are collected and
/// returned together.
pub fn evaluate(exps: &[Experiment], opts: &TedEvalOptions) -> Result<TedEvalResult, Error> {
    let mut r = evaluate_counts(exps, opts)?;
    r.corpus_checks();
    Ok(r)
}

impl TedEvalResult {
    /// The warnings about the dependency experiments' whole files, from their summed
    /// `deps` counts (after reading every sentence, or after merging shards), after the
    /// others: label inventories, punctuation, empty XPOS (as `deps` checks them).
    pub fn corpus_checks(&mut self) {
        for x in &self.experiments {
            if let Some(d) = &x.deps {
                let mut d = d.clone();
                d.corpus_checks(&DepsOptions::default());
                for w in d.warnings.into_vec() {
                    self.warnings.push(w);
                }
            }
        }
    }
}

/// [`evaluate`] without [`TedEvalResult::corpus_checks`]: the counts and the warnings
/// found while reading and scoring (what a mergeable state keeps).
pub fn evaluate_counts(exps: &[Experiment], opts: &TedEvalOptions) -> Result<TedEvalResult, Error> {
    if exps.is_empty() {
        return Err(Error::single(Diagnostic::error(
            Position::new(Arc::from("-"), 0, 0),
            ErrorKind::Other("expected at least one experiment, found none".into()),
        )));
    }
    let mut warnings = Diagnostics::with_limit(100);
    let (read, dependency) = read_experiments(exps, opts, &mut warnings)?;
    check_golds(exps, &read)?;
    let scored = score_sentences(&read, opts);
    let mut tally = Tally::new(&read, exps, &dependency, warnings, opts);
    for (i, s) in scored.into_iter().enumerate() {
        tally.add(&read, i, s);
    }
    Ok(tally.finish(read[0].0.len()))
}

/// Read and pair the files of every experiment: each experiment read, and whether it is
/// a dependency experiment (with attachment counts). Every error of every file at once.
fn read_experiments(
    exps: &[Experiment],
    opts: &TedEvalOptions,
    warnings: &mut Diagnostics,
) -> Result<(Vec<ReadExperiment>, Vec<bool>), Error> {
    let deps_opts = DepsOptions::default();
    let mut errors = Diagnostics::with_limit(100);
    let mut read: Vec<ReadExperiment> = Vec::new();
    let mut dependency = Vec::new();
    for e in exps {
        let bracketed = match (is_bracketed(&e.gold), is_bracketed(&e.parse)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(x), _) | (_, Err(x)) => {
                x.diagnostics.into_iter().for_each(|d| errors.push(d));
                continue;
            }
        };
        if bracketed.0 || bracketed.1 {
            match pair_sides(e, bracketed, opts, &mut errors, warnings) {
                Ok(r) => read.push(r),
                Err(x) => x.diagnostics.into_iter().for_each(|d| errors.push(d)),
            }
            dependency.push(false);
            continue;
        }
        dependency.push(true);
        match read_dependency(e, opts, &deps_opts, warnings) {
            Ok(r) => read.push(r),
            Err(e) => {
                for d in e.diagnostics {
                    errors.push(d);
                }
            }
        }
    }
    let errors = errors.into_result()?;
    debug_assert_eq!(errors.error_count(), 0);
    Ok((read, dependency))
}

/// Read and pair a dependency experiment as `deps` does (its attachment counts with it);
/// the files' warnings go to `warnings`.
fn read_dependency(
    e: &Experiment,
    opts: &TedEvalOptions,
    deps_opts: &DepsOptions,
    warnings: &mut Diagnostics,
) -> Result<ReadExperiment, Error> {
    let mut pairs = Vec::new();
    let (mut gr, mut pr) = (Repairs::default(), Repairs::default());
    let mut r = evaluate_counts_deps(
        &e.gold,
        std::slice::from_ref(&e.parse),
        deps_opts,
        |_, g, s, c| {
            pairs.push(Pair {
                gold: sentence_tree(g, &opts.equivalences, &mut gr),
                parse: sentence_tree(s, &opts.equivalences, &mut pr),
                counts: *c,
                forms: forms_of(g),
                at: (g.first_line(), g.index()),
                id: g.sent_id().map(Box::from),
            });
        },
    )?;
    let reading = std::mem::replace(&mut r.warnings, Diagnostics::with_limit(100));
    for d in reading.into_vec() {
        warnings.push(d);
    }
    let parse = r.systems.first().map(|s| s.file.clone());
    let parse = parse.unwrap_or_else(|| r.gold.clone());
    Ok((pairs, r.gold.clone(), parse, gr, pr, Some(r)))
}

/// Check that the golds of all experiments cover the same words, sentence by sentence
/// (every mismatch at once).
fn check_golds(exps: &[Experiment], read: &[ReadExperiment]) -> Result<(), Error> {
    let mut errors = Diagnostics::with_limit(100);
    let first = &read[0].0;
    for (k, (pairs, gold, ..)) in read.iter().enumerate().skip(1) {
        if pairs.len() != first.len() {
            errors.push(
                Diagnostic::error(
                    Position::new(Arc::from(gold.path.as_str()), gold.lines.max(1), 1),
                    ErrorKind::SentenceCount {
                        gold: read[0].1.path.clone(),
                        expected: first.len() as u64,
                        found: pairs.len() as u64,
                    },
                )
                .with_hint(
                    "every experiment's gold file must hold the same sentences, in the same order",
                ),
            );
            continue;
        }
        for (a, b) in first.iter().zip(pairs) {
            if a.forms != b.forms {
                errors.push(
                    Diagnostic::error(
                        Position::new(Arc::from(gold.path.as_str()), b.at.0.max(1), 1)
                            .in_sentence(b.at.1, None),
                        ErrorKind::Other(format!(
                            "expected the words of {}:{} (experiment {}), found other words: '{}' vs '{}'",
                            read[0].1.path,
                            a.at.0,
                            exps[0].name,
                            shorten(&a.forms.replace('\t', " ")),
                            shorten(&b.forms.replace('\t', " "))
                        )),
                    )
                    .with_hint(format!(
                        "experiment {} must be over the same tokens as experiment {}: TedEval generalizes the gold trees of one sentence",
                        exps[k].name, exps[0].name
                    )),
                );
            }
        }
    }
    let errors = errors.into_result()?;
    debug_assert_eq!(errors.error_count(), 0);
    Ok(())
}

/// Score every sentence against its generalized gold, sentences in parallel: per
/// sentence, the counts of each experiment and the generalized gold's size, or why it
/// is not scored.
fn score_sentences(read: &[ReadExperiment], opts: &TedEvalOptions) -> Vec<Scored> {
    let n = read[0].0.len();
    let max_cost = opts.max_cost.unwrap_or(DEFAULT_MAX_COST);
    // sentence -> (per experiment counts, generalized size), or why it is not scored
    let score = |i: usize| -> Scored {
        let first = &read[0].0[i];
        let len = first.gold.span.1;
        let kept = (opts.selection).verdict(first.id.as_deref(), first.at.1, u64::from(len));
        if !kept.kept() || len > MAX_WORDS {
            return Err(None);
        }
        let golds: Vec<&FNode> = read.iter().map(|r| &r.0[i].gold).collect();
        // the word check above makes every gold of a sentence as long as the first
        let gen = generalize(&golds).map_err(|_| None)?;
        let mut ids = LabelIds::new();
        let g = ted_tree(&gen, &mut ids);
        let counts = read
            .iter()
            .map(|r| {
                let p = &r.0[i];
                let gold = ted_tree(&p.gold, &mut ids);
                let parse = ted_tree(&p.parse, &mut ids);
                if opts.keep_edits {
                    try_score_sentence_with_edits(&parse, &gold, &g, &ids, opts.unlabeled, max_cost)
                } else {
                    try_score_sentence(&parse, &gold, &g, &ids, opts.unlabeled, max_cost)
                        .map(|c| (c, Vec::new()))
                }
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(Some)?;
        Ok((counts, u64::from(g.size)))
    };
    // the tree code recurses once per tree level: worker threads get room for
    // sentences thousands of words deep
    match rayon::ThreadPoolBuilder::new().stack_size(STACK).build() {
        Ok(pool) => pool.install(|| (0..n).into_par_iter().map(score).collect()),
        Err(_) => (0..n).map(score).collect(),
    }
}

/// The sums of a run, sentence by sentence, and the warnings about sentences not scored.
struct Tally<'o> {
    summary: RunSummary,
    selection: &'o crate::select::Selection,
    counts: crate::select::SelectionCounts,
    numbers: Vec<u64>,
    too_large: (u64, u64),
    experiments: Vec<ExperimentResult>,
    warnings: Diagnostics,
    keep_sentences: bool,
}

impl<'o> Tally<'o> {
    /// Empty sums for the experiments read; `warnings` are those of reading the files.
    fn new(
        read: &[ReadExperiment],
        exps: &[Experiment],
        dependency: &[bool],
        warnings: Diagnostics,
        opts: &'o TedEvalOptions,
    ) -> Self {
        let experiments = read
            .iter()
            .zip(exps)
            .zip(dependency)
            .map(|((r, e), &dep)| ExperimentResult {
                name: e.name.clone(),
                gold: r.1.clone(),
                parse: r.2.clone(),
                attachment: dep.then(AttachmentCounts::default),
                counts: TedEvalCounts::default(),
                gold_nodes: 0,
                gold_repairs: r.3,
                parse_repairs: r.4,
                sentences: Vec::new(),
                edits: Vec::new(),
                deps: r.5.clone(),
            })
            .collect();
        Tally {
            summary: RunSummary::default(),
            selection: &opts.selection,
            counts: opts.selection.counts(),
            numbers: Vec::new(),
            too_large: (0, 0),
            experiments,
            warnings,
            keep_sentences: opts.keep_sentences,
        }
    }

    /// Add sentence `i`'s scores (or count it as not scored).
    fn add(&mut self, read: &[ReadExperiment], i: usize, s: Scored) {
        let first = &read[0].0[i];
        let len = u64::from(first.gold.span.1);
        let id = first.id.as_deref();
        if !(self.selection).tally(&mut self.counts, id, first.at.1, len, len) {
            return;
        }
        if self.keep_sentences {
            self.numbers.push(i as u64 + 1);
        }
        match s {
            Err(why) => {
                self.not_scored(&read[0], i, why.as_ref());
                if self.keep_sentences {
                    for x in &mut self.experiments {
                        x.sentences.push(TedEvalCounts::default());
                    }
                }
            }
            Ok((counts, gen_size)) => {
                self.summary.generalized_nodes += gen_size;
                self.summary.first_gold_nodes += read[0].0[i].gold.size() as u64;
                for ((x, (c, ops)), r) in self.experiments.iter_mut().zip(counts).zip(read) {
                    x.counts += c;
                    x.gold_nodes += r.0[i].gold.size() as u64;
                    if !ops.is_empty() {
                        x.edits.push(SentenceEdits {
                            sentence: r.0[i].at.1,
                            words: r.0[i].forms.split('\t').map(str::to_owned).collect(),
                            ops,
                        });
                    }
                    if let Some(a) = &mut x.attachment {
                        *a += r.0[i].counts;
                    }
                    if self.keep_sentences {
                        x.sentences.push(c);
                    }
                }
            }
        }
    }

    /// Count sentence `i` (kept by the selection) as not scored: over a cost limit
    /// (`why`, warned about) or over [`MAX_WORDS`] (warned about).
    fn not_scored(&mut self, first: &ReadExperiment, i: usize, why: Option<&TooCostly>) {
        let len = first.0[i].gold.span.1;
        if let Some(e) = why {
            let at = self.too_large_at(first, i, len);
            self.warnings.push(Diagnostic::warning(
                at,
                ErrorKind::Other(format!(
                    "expected an edit distance of at most {} table cells (--max-cost), found {e} ({len} words): the sentence is not scored",
                    e.limit,
                )),
            ).with_hint(format!(
                "--max-cost {} scores it (memory: about 9 bytes a cell, per thread)",
                e.enough()
            )).of_kind(treeval_formats::WarningKind::OverMaxCost));
        } else if len > MAX_WORDS {
            let at = self.too_large_at(first, i, len);
            self.warnings.push(Diagnostic::warning(
                at,
                ErrorKind::Other(format!(
                    "expected at most {MAX_WORDS} words in a sentence for the edit distance, found {len}: the sentence is not scored"
                )),
            ).with_hint("is a sentence break (blank line) missing?")
            .of_kind(treeval_formats::WarningKind::SentenceTooLong));
        }
    }

    /// Count sentence `i` (of `len` words) as too large to score; where it starts in the
    /// first experiment's gold.
    fn too_large_at(&mut self, first: &ReadExperiment, i: usize, len: u32) -> Position {
        self.too_large.0 += 1;
        self.too_large.1 += u64::from(len);
        let (line, index) = first.0[i].at;
        Position::new(Arc::from(first.1.path.as_str()), line.max(1), 1).in_sentence(index, None)
    }

    /// The result of a run over `n` sentences.
    fn finish(self, n: usize) -> TedEvalResult {
        TedEvalResult {
            experiments: self.experiments,
            sentences: n as u64,
            scored: self.counts.kept - self.too_large.0,
            skipped_long: (self.counts.by_length, self.counts.by_length_words),
            selection: self.counts,
            numbers: self.numbers,
            too_large: self.too_large,
            warnings: self.warnings,
            summary: self.summary,
        }
    }
}

fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}
