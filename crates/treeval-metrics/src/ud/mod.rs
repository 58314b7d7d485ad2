//! The CoNLL 2018 shared-task metrics (conll18_ud_eval.py v1.2, udeval): tokens,
//! sentences and words by character spans, tags, lemmas and attachment over the word
//! alignment, with multiword tokens aligned by LCS of lower-cased forms.
//!
//! Definitions, as the reference scorer's:
//! - the text of a file is the concatenation of its token FORMs (multiword tokens count
//!   once) with every Unicode Zs character removed; gold and system texts must be equal;
//! - tokens and sentences are character spans; a span is correct when both ends match;
//! - words outside multiword tokens align when their spans are equal; inside a
//!   "multiword span" (the smallest span that contains whole multiword tokens of both
//!   files) they align by the longest common subsequence of lower-cased FORMs;
//! - UFeats keeps only the universal features, DEPREL only its universal part;
//! - CLAS, MLAS and BLEX count content relations only; MLAS also compares UPOS, UFeats
//!   and the functional children; BLEX the lemma; a gold lemma `_` matches any lemma;
//! - ELAS and EULAS (udeval) count DEPS items `head:label` of aligned words whose heads
//!   align, on the whole label (ELAS) or on the universal part of each step (EULAS).
//!
//! The files are read on two threads and aligned as they stream: the scorer's alignment
//! runs over a window of sentences, and whenever both files start a sentence at the same
//! character the window is counted and emptied. The result is the reference's global
//! alignment, with memory bounded by the longest stretch without such a point.

mod enhanced;
pub mod layout;
pub mod measures;
mod metric;
mod resync;
pub mod trace;
pub mod triples;
mod window;

use serde::{Deserialize, Serialize};
use treeval_formats::{Diagnostic, Diagnostics, Error, ErrorKind, Position, Reader, Sentence};

pub use enhanced::Enhancements;
pub use metric::{UdMetric, UD_METRICS};
pub use resync::{ResyncCause, ResyncFailure, ResyncWindow, WindowSide, ANCHOR, MAX_LOOKAHEAD};
pub use window::SideStats;

use crate::deps::{ByKey, GroupCounts, Input};
use crate::feed::fill_batch;
use crate::labels::LabelTable;
use resync::{Resync, Step};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use window::{
    Chunk, Converter, Edep, SentInfo, Side, Tok, F_CONTENT, F_KEPT, F_MULTIWORD, NONE, ROOT, W,
};

/// Relations counted by CLAS, MLAS and BLEX.
pub const CONTENT_DEPRELS: [&str; 29] = [
    "nsubj",
    "obj",
    "iobj",
    "csubj",
    "ccomp",
    "xcomp",
    "obl",
    "vocative",
    "expl",
    "dislocated",
    "advcl",
    "advmod",
    "discourse",
    "nmod",
    "appos",
    "nummod",
    "acl",
    "amod",
    "conj",
    "fixed",
    "flat",
    "compound",
    "list",
    "parataxis",
    "orphan",
    "goeswith",
    "reparandum",
    "root",
    "dep",
];

/// Relations whose dependents are the functional children of MLAS.
pub const FUNCTIONAL_DEPRELS: [&str; 7] = ["aux", "cop", "mark", "det", "clf", "case", "cc"];

/// The universal features kept by UFeats.
pub const UNIVERSAL_FEATURES: [&str; 21] = [
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender", "Animacy", "Number",
    "Case", "Definite", "Degree", "VerbForm", "Mood", "Tense", "Aspect", "Voice", "Evident",
    "Polarity", "Person", "Polite",
];

/// How empty nodes (`5.1`) enter ELAS and EULAS.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EmptyNodes {
    /// Paths through empty nodes become items labelled `conj>nsubj`, as the UD collapser
    /// followed by iwpt20_xud_eval.py or udeval.
    #[default]
    Collapse,
    /// Items whose head is an empty node are left out (and counted), as udeval on files
    /// that were not collapsed.
    Drop,
    /// Empty nodes are an error, as udeval `--no-empty-nodes`.
    Error,
}

impl EmptyNodes {
    /// The name used on the command line and in signatures.
    pub fn name(self) -> &'static str {
        match self {
            EmptyNodes::Collapse => "collapse",
            EmptyNodes::Drop => "drop",
            EmptyNodes::Error => "error",
        }
    }
}

/// What to do when the two texts differ.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AlignMode {
    /// Stop with an error at the first difference, as the reference scorers.
    #[default]
    Strict,
    /// Find where the texts agree again and score the words in between as unaligned.
    Resync,
}

impl AlignMode {
    /// The name used on the command line and in signatures.
    pub fn name(self) -> &'static str {
        match self {
            AlignMode::Strict => "strict",
            AlignMode::Resync => "resync",
        }
    }
}

/// Settings of a `ud` evaluation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UdOptions {
    /// Accept sentences with several roots (udeval's option).
    pub multiple_roots_okay: bool,
    /// Empty nodes in the enhanced graph.
    pub empty_nodes: EmptyNodes,
    /// Enhancement types not to evaluate.
    pub enhancements: Enhancements,
    /// Keep every gold sentence's counts in [`UdResult::sentences`].
    pub keep_sentences: bool,
    /// Differing texts: an error, or resynchronised.
    pub align: AlignMode,
    /// Breakdowns (`--by`): gold words by their gold value, system words by theirs.
    pub by: Vec<ByKey>,
    /// Count [`UdCounts::relation_sets`] (`treeval relations`); they stay 0 otherwise.
    pub relation_sets: bool,
    /// Do not read DEPS at all (ELAS and EULAS stay 0 items), as conll18_ud_eval.py,
    /// which neither scores nor checks them.
    pub skip_enhanced: bool,
    /// Keep what the alignment made of every gold word ([`UdResult::trace`]) of an evenly
    /// spaced sample of about this many gold sentences (`Some(0)`: of every sentence).
    pub trace: Option<usize>,
    /// List the relations of this graph that the other side does not have
    /// ([`UdResult::relation_triples`], `treeval relations --errors`).
    pub relation_triples: Option<triples::RelationGraph>,
    /// `--where`: conditions on gold words (universal relations; no system side). Only
    /// the gold words that meet them, and the system words aligned to those, are
    /// counted; tokens and sentences are not counted at all (they are not words).
    pub filter: crate::deps::filter::Where,
    /// Which gold sentences are scored (by id and syntactic words); a system item counts
    /// where it always does (the gold sentence its first character lies in; an aligned
    /// pair, its gold word's), so the counts of the others are left out whole. All are
    /// read, checked and aligned, and counted in [`UdResult::selection`].
    pub selection: crate::select::Selection,
}

/// The integers one metric is computed from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    /// Correct items.
    pub correct: u64,
    /// Gold items.
    pub gold: u64,
    /// System items.
    pub system: u64,
    /// Aligned gold items considered (tags, lemmas and attachment only).
    pub aligned: u64,
}

/// Sufficient statistics of every [`UdMetric`] for a sentence or a corpus.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UdCounts {
    /// One count per metric, indexed by [`UdMetric`] (in [`UdMetric::ALL`] order).
    pub metrics: [Count; UD_METRICS],
    /// Sets of relations (van Noord et al.'s concept accuracy, `treeval relations`):
    /// `[basic, enhanced]`, each with `gold` = |Dt|, `system` = |Ds|, `correct` = |Dt ∩ Ds|.
    /// Basic: one (head, full DEPREL, word) per word; enhanced: the distinct DEPS items.
    pub relation_sets: [Count; 2],
}

impl std::ops::AddAssign<&UdCounts> for UdCounts {
    fn add_assign(&mut self, o: &UdCounts) {
        let pairs = self.metrics.iter_mut().zip(&o.metrics);
        let sets = self.relation_sets.iter_mut().zip(&o.relation_sets);
        for (a, b) in pairs.chain(sets) {
            a.correct += b.correct;
            a.gold += b.gold;
            a.system += b.system;
            a.aligned += b.aligned;
        }
    }
}

impl UdCounts {
    /// The scores of `metrics`, each with its name.
    pub fn scores(&self, metrics: &[UdMetric]) -> Vec<(&'static str, UdScore)> {
        metrics
            .iter()
            .map(|&m| {
                let c = self.metrics[m];
                let aligned = m.on_aligned_words().then_some(c.aligned);
                (m.name(), UdScore::new(c.gold, c.system, c.correct, aligned))
            })
            .collect()
    }
}

/// Per universal relation, over the alignment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelationCounts {
    /// Gold words with this relation.
    pub gold: u64,
    /// System words with this relation.
    pub system: u64,
    /// Aligned gold words with this relation whose aligned system word has the right head.
    pub head: u64,
    /// … and the same relation (LAS-correct).
    pub correct: u64,
}

/// Everything a `ud` evaluation counted.
#[derive(Debug, Clone)]
pub struct UdResult {
    /// Corpus totals.
    pub counts: UdCounts,
    /// Per universal relation, sorted by name.
    pub relations: Vec<(String, RelationCounts)>,
    /// What was read from the gold file.
    pub gold: SideStats,
    /// What was read from the system file.
    pub system: SideStats,
    /// Every gold sentence's counts (with `keep_sentences`); system items are attributed
    /// to the gold sentence in which their first character lies.
    pub sentences: Vec<UdCounts>,
    /// Reader warnings of both files.
    pub warnings: Vec<Diagnostic>,
    /// With [`AlignMode::Resync`]: every stretch where the texts differ.
    pub resync: Option<Vec<ResyncWindow>>,
    /// Per breakdown key: every group's counts over the alignment. `gold` counts gold
    /// words by their gold value and `gold_las` those aligned to a system word with the
    /// right head and relation (recall-like); `system` and `system_las` the same for
    /// system words by their system value (precision-like).
    pub by: Vec<(ByKey, Vec<(String, GroupCounts)>)>,
    /// With [`UdOptions::trace`]: the sampled gold sentences' words as aligned.
    pub trace: Vec<trace::TracedSentence>,
    /// The universal relations the trace's labels index.
    pub trace_labels: Vec<String>,
    /// With [`UdOptions::relation_triples`]: every unmatched gold and system relation.
    pub relation_triples: Vec<triples::Triple>,
    /// A warning when gold columns (XPOS, FEATS, LEMMA) are `_` on every word, naming
    /// the measures that read them (n/a in the `ud` report); not in `warnings`, as the
    /// commands that do not show these measures have no use for it.
    pub gold_columns_warning: Option<Diagnostic>,
    /// The `# sent_id`s of the gold and system sentences that start at the same
    /// character (its warning is in `warnings`).
    pub sent_ids: crate::sent_ids::SentIdCheck,
    /// A warning when system columns (XPOS, FEATS, LEMMA, DEPS) the gold fills are `_`
    /// on every word of the system file, naming the measures that are then n/a for it
    /// ([`SideStats::system_empty_columns`]); not in `warnings`, as
    /// `gold_columns_warning`.
    pub system_columns_warning: Option<Diagnostic>,
    /// Gold sentences kept and excluded by [`UdOptions::selection`].
    pub selection: crate::select::SelectionCounts,
    /// The 1-based gold sentence numbers of the rows of `sentences`.
    pub numbers: Vec<u64>,
}

/// Where the two texts first differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextMismatch {
    /// Character index.
    pub index: usize,
    /// Gold line of the token containing it (or the last token).
    pub gold_line: u64,
    /// System line likewise.
    pub system_line: u64,
    /// Up to 20 characters of gold from there.
    pub gold_text: String,
    /// Up to 20 characters of the system from there.
    pub system_text: String,
}

/// Why a `ud` evaluation produced no result.
#[derive(Debug)]
pub enum UdError {
    /// Invalid input: every problem found in both files.
    Invalid(Vec<Diagnostic>),
    /// The texts differ (and any problems found while reading both files to the end).
    Mismatch(TextMismatch, Vec<Diagnostic>),
    /// `--align resync` found no common text within [`MAX_LOOKAHEAD`] bytes.
    Unsynced(ResyncFailure, Vec<Diagnostic>),
    /// A file could not be read.
    Fatal(Error),
}

/// Something that hands out sentences one by one.
pub trait Source {
    /// The next sentence, or `None` at the end.
    fn next_sentence(&mut self) -> Result<Option<&Sentence>, Error>;
    /// The reader's diagnostics, once at the end.
    fn finish(&mut self) -> Result<Diagnostics, Error>;
}

/// A [`Reader`] as a [`Source`] (for text in memory).
pub struct ReaderSource<R> {
    reader: Reader<R>,
    sentence: Sentence,
}

impl<R> std::fmt::Debug for ReaderSource<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReaderSource").finish_non_exhaustive()
    }
}

impl<R> ReaderSource<R> {
    /// Wrap a reader.
    pub fn new(reader: Reader<R>) -> Self {
        ReaderSource {
            reader,
            sentence: Sentence::new(),
        }
    }
}

impl<R: std::io::BufRead> Source for ReaderSource<R> {
    fn next_sentence(&mut self) -> Result<Option<&Sentence>, Error> {
        Ok(self
            .reader
            .read_sentence(&mut self.sentence)?
            .then_some(&self.sentence))
    }
    fn finish(&mut self) -> Result<Diagnostics, Error> {
        Ok(self.reader.take_diagnostics())
    }
}

/// Score `sys` against `gold`, each file read and prepared on its own thread.
pub fn evaluate(gold: &Input, sys: &Input, opts: &UdOptions) -> Result<UdResult, UdError> {
    evaluate_threaded(gold, None, sys, None, opts)
}

/// [`evaluate`] on texts in memory (`gold_text` read as `gold.path` names it, with its
/// builder; the same for `sys`), each read and prepared on its own thread.
pub fn evaluate_texts(
    gold: &Input,
    gold_text: &[u8],
    sys: &Input,
    sys_text: &[u8],
    opts: &UdOptions,
) -> Result<UdResult, UdError> {
    evaluate_threaded(gold, Some(gold_text), sys, Some(sys_text), opts)
}

/// Each input read from its text when given, otherwise from its path or its bytes in
/// memory ([`Input::open`]).
fn evaluate_threaded(
    gold: &Input,
    gold_text: Option<&[u8]>,
    sys: &Input,
    sys_text: Option<&[u8]>,
    opts: &UdOptions,
) -> Result<UdResult, UdError> {
    std::thread::scope(|scope| {
        let mut g = Threaded::spawn(scope, gold, gold_text, opts);
        let mut s = Threaded::spawn(scope, sys, sys_text, opts);
        run_chunks(&mut g, &mut s, opts)
    })
    .map(|r| with_empty_columns(r, &gold.path, &sys.path))
}

/// `r` with [`UdResult::gold_columns_warning`] and [`UdResult::system_columns_warning`]
/// (see [`gold_columns_warning`] and [`system_columns_warning`]).
fn with_empty_columns(mut r: UdResult, gold_path: &str, sys_path: &str) -> UdResult {
    r.gold_columns_warning = gold_columns_warning(&r.gold, gold_path);
    r.system_columns_warning = system_columns_warning(&r.system, &r.gold, sys_path);
    let paired = "by the character they start at in the text";
    r.warnings
        .extend(r.sent_ids.warning(gold_path, sys_path, paired));
    r
}

/// A warning when columns of a system file (`sys_path`, read into `system`) that the
/// `gold` fills are `_` on every word: which, and the measures they make not applicable
/// to that system in treeval's report (`--compat` keeps the reference scorers' numbers).
pub fn system_columns_warning(
    system: &SideStats,
    gold: &SideStats,
    sys_path: &str,
) -> Option<Diagnostic> {
    let empty = system.system_empty_columns(gold);
    if empty.is_empty() {
        return None;
    }
    let (columns, measures) = listed(&empty);
    let deps = match (empty.iter().any(|c| c.0 == "DEPS"), empty.len()) {
        (true, 1) => " (no enhanced graph)",
        (true, _) => " (DEPS: no enhanced graph)",
        _ => "",
    };
    let msg = format!(
        "the system {columns} column{} '_' on every word{deps}: {measures} not applicable (n/a) for this system in the report",
        if empty.len() > 1 { "s are" } else { " is" },
    );
    Some(
        Diagnostic::warning(Position::new(std::sync::Arc::from(sys_path), 0, 0), ErrorKind::Other(msg))
            .with_hint("the system predicted nothing to compare in these columns (a parser without lemmas or enhanced graph, as spaCy's output); --compat conll18 or udeval prints the reference scorers' numbers (0 for such a system)")
            .of_kind(treeval_formats::WarningKind::SystemColumnEmpty),
    )
}

/// The columns of `empty` as a phrase (`XPOS, FEATS and LEMMA`) and the measures they
/// read, each once, comma-separated.
fn listed(empty: &[(&str, &[&str])]) -> (String, String) {
    let columns: Vec<&str> = empty.iter().map(|c| c.0).collect();
    let columns = match columns.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => columns.join(""),
    };
    let mut measures: Vec<&str> = Vec::new();
    for m in empty.iter().flat_map(|c| c.1.iter()) {
        if !measures.contains(m) {
            measures.push(m);
        }
    }
    (columns, measures.join(", "))
}

/// A warning when columns of the gold file (`gold_path`, read into `gold`) are `_` on
/// every word: which, and the measures they make not applicable in treeval's report (the
/// reference scorers' outputs, `--compat`, keep their numbers).
pub fn gold_columns_warning(gold: &SideStats, gold_path: &str) -> Option<Diagnostic> {
    let empty = gold.empty_columns();
    if empty.is_empty() {
        return None;
    }
    let (columns, measures) = listed(&empty);
    let msg = format!(
        "the gold {} column{} '_' on every word: {} not applicable (n/a) in the report",
        columns,
        if empty.len() > 1 { "s are" } else { " is" },
        measures,
    );
    Some(
        Diagnostic::warning(Position::new(std::sync::Arc::from(gold_path), 0, 0), ErrorKind::Other(msg))
            .with_hint("a system cannot be scored on a column the gold file leaves empty; --compat conll18 or udeval prints the reference scorers' numbers")
            .of_kind(treeval_formats::WarningKind::GoldColumnEmpty),
    )
}

/// Score the sentences of `sys` against those of `gold` (on the calling thread).
pub fn evaluate_sources(
    gold: &mut dyn Source,
    sys: &mut dyn Source,
    gold_path: &str,
    sys_path: &str,
    opts: &UdOptions,
) -> Result<UdResult, UdError> {
    let mut g = Inline {
        src: gold,
        conv: Converter::new(gold_path, opts),
        spare: Vec::new(),
    };
    let mut s = Inline {
        src: sys,
        conv: Converter::new(sys_path, opts),
        spare: Vec::new(),
    };
    run_chunks(&mut g, &mut s, opts).map(|r| with_empty_columns(r, gold_path, sys_path))
}

/// Read one file as [`evaluate`] reads each side, without scoring: the problems the
/// reader and the converter find in it (sorted by position) and its warnings. A file
/// without problems here fails [`evaluate`] only when its text differs from the other's
/// (`treeval.conll18.load_conllu` rejects at loading what the reference rejects there).
pub fn check_source(
    src: &mut dyn Source,
    path: &str,
    opts: &UdOptions,
) -> Result<(Vec<Diagnostic>, Vec<Diagnostic>), Error> {
    Ok(Prepared::read(src, path, opts)?.diagnostics())
}

/// Sentences per chunk.
const CHUNK: usize = 64;

/// Prepared chunks of a file.
trait Chunks {
    /// Hand the next chunk to `f`, with the errors to take from it; false at the end of
    /// the file.
    fn apply(&mut self, f: &mut ChunkFn<'_>) -> Result<bool, Error>;
    fn finish(&mut self) -> Result<Diagnostics, Error>;
}

/// What takes a chunk: the chunk, and its errors (to be taken).
type ChunkFn<'a> = dyn FnMut(&Chunk, &mut Vec<Diagnostic>) + 'a;

/// Hand `c` (a chunk of one's own) to `f`; the chunk back to be reused.
fn apply_owned(c: Option<Chunk>, f: &mut ChunkFn<'_>) -> Option<Chunk> {
    let mut c = c?;
    let mut errors = std::mem::take(&mut c.errors);
    f(&c, &mut errors);
    c.errors = errors;
    Some(c)
}

/// A file read and prepared once, to be scored any number of times without reading it
/// again ([`evaluate_prepared`]): `treeval.conll18` prepares a file when it loads it.
#[derive(Debug, Clone)]
pub struct Prepared {
    path: String,
    chunks: Vec<Chunk>,
    /// The reader's diagnostics and the converter's errors.
    diagnostics: Diagnostics,
    errors: Vec<Diagnostic>,
}

impl Prepared {
    /// Read all of `src` (the file `path`) and prepare it as [`evaluate`] prepares a file
    /// with `opts`.
    pub fn read(src: &mut dyn Source, path: &str, opts: &UdOptions) -> Result<Self, Error> {
        let mut inline = Inline {
            src,
            conv: Converter::new(path, opts),
            spare: Vec::new(),
        };
        let mut chunks = Vec::new();
        let mut errors = Vec::new();
        while let Some(mut c) = inline.next()? {
            errors.append(&mut c.errors);
            chunks.push(c);
        }
        Ok(Prepared {
            path: path.to_owned(),
            chunks,
            diagnostics: inline.finish()?,
            errors,
        })
    }

    /// The problems the reader and the converter found (sorted by position) and the
    /// reader's warnings. A file without problems fails [`evaluate_prepared`] only when
    /// its text differs from the other's.
    pub fn diagnostics(&self) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
        let (read, warnings): (Vec<Diagnostic>, Vec<Diagnostic>) = self
            .diagnostics
            .iter()
            .cloned()
            .partition(Diagnostic::is_error);
        let mut problems = self.errors.clone();
        problems.extend(read);
        problems.sort_by(|a, b| {
            (a.position.line, a.position.column).cmp(&(b.position.line, b.position.column))
        });
        (problems, warnings)
    }
}

/// Score `sys` against `gold`, both prepared with `opts` ([`Prepared::read`]); as
/// [`evaluate`] on the same files, without reading them again.
pub fn evaluate_prepared(
    gold: &Prepared,
    sys: &Prepared,
    opts: &UdOptions,
) -> Result<UdResult, UdError> {
    let (mut g, mut s) = (Replay::new(gold), Replay::new(sys));
    run_chunks(&mut g, &mut s, opts).map(|r| with_empty_columns(r, &gold.path, &sys.path))
}

/// The chunks of a [`Prepared`] file, handed out again.
struct Replay<'a> {
    file: &'a Prepared,
    next: usize,
    /// The converter's errors, handed out with the first chunk.
    errors: Vec<Diagnostic>,
}

impl<'a> Replay<'a> {
    fn new(file: &'a Prepared) -> Self {
        Replay {
            file,
            next: 0,
            errors: file.errors.clone(),
        }
    }
}

impl Chunks for Replay<'_> {
    /// The chunk itself, not a copy (the converter's errors come with the first).
    fn apply(&mut self, f: &mut ChunkFn<'_>) -> Result<bool, Error> {
        let Some(c) = self.file.chunks.get(self.next) else {
            return Ok(false);
        };
        self.next += 1;
        f(c, &mut self.errors);
        Ok(true)
    }
    fn finish(&mut self) -> Result<Diagnostics, Error> {
        Ok(self.file.diagnostics.clone())
    }
}

struct Inline<'a> {
    src: &'a mut dyn Source,
    conv: Converter,
    spare: Vec<Chunk>,
}

impl Inline<'_> {
    fn next(&mut self) -> Result<Option<Chunk>, Error> {
        let mut c = self.spare.pop().unwrap_or_default();
        c.clear();
        let (src, conv) = (&mut *self.src, &mut self.conv);
        let (n, _) = fill_batch(CHUNK, |_| {
            Ok(match src.next_sentence()? {
                Some(sent) => {
                    conv.push(&mut c, sent);
                    true
                }
                None => false,
            })
        })?;
        Ok((n > 0).then_some(c))
    }
    fn finish(&mut self) -> Result<Diagnostics, Error> {
        self.src.finish()
    }
}

impl Chunks for Inline<'_> {
    fn apply(&mut self, f: &mut ChunkFn<'_>) -> Result<bool, Error> {
        let c = apply_owned(self.next()?, f);
        let read = c.is_some();
        self.spare.extend(c);
        Ok(read)
    }
    fn finish(&mut self) -> Result<Diagnostics, Error> {
        Inline::finish(self)
    }
}

enum Msg {
    Chunk(Box<Chunk>),
    End(Diagnostics),
    Fatal(Error),
}

/// A file read and prepared on its own thread, chunks recycled so memory stays flat.
struct Threaded {
    rx: Receiver<Msg>,
    back: SyncSender<Chunk>,
    end: Option<Diagnostics>,
}

impl Threaded {
    fn spawn<'s>(
        scope: &'s std::thread::Scope<'s, '_>,
        input: &'s Input,
        text: Option<&'s [u8]>,
        opts: &UdOptions,
    ) -> Self {
        let (tx, rx) = sync_channel::<Msg>(2);
        let (back, recycled) = sync_channel::<Chunk>(4);
        let opts = opts.clone();
        scope.spawn(move || {
            let read = match text {
                Some(t) => produce(
                    input.builder.from_reader(&input.path, t),
                    input,
                    &opts,
                    &tx,
                    &recycled,
                ),
                // from the path, or from the bytes an in-memory input holds
                None => input
                    .open()
                    .and_then(|r| produce(r, input, &opts, &tx, &recycled)),
            };
            if let Err(e) = read {
                let _ = tx.send(Msg::Fatal(e));
            }
        });
        Threaded {
            rx,
            back,
            end: None,
        }
    }
}

/// The reader thread: prepared chunks to `tx` until the end of the file (then its
/// diagnostics) or until the receiving side hangs up.
fn produce<R: std::io::BufRead>(
    mut rdr: Reader<R>,
    input: &Input,
    opts: &UdOptions,
    tx: &SyncSender<Msg>,
    recycled: &Receiver<Chunk>,
) -> Result<(), Error> {
    let mut conv = Converter::new(&input.path, opts);
    let mut sent = Sentence::new();
    loop {
        let mut c = recycled.try_recv().unwrap_or_default();
        c.clear();
        let (n, done) = fill_batch(CHUNK, |_| {
            let read = rdr.read_sentence(&mut sent)?;
            if read {
                conv.push(&mut c, &sent);
            }
            Ok(read)
        })?;
        if n > 0 && tx.send(Msg::Chunk(Box::new(c))).is_err() {
            return Ok(());
        }
        if done {
            let _ = tx.send(Msg::End(rdr.take_diagnostics()));
            return Ok(());
        }
    }
}

impl Threaded {
    fn next(&mut self) -> Result<Option<Chunk>, Error> {
        if self.end.is_some() {
            return Ok(None);
        }
        match self.rx.recv() {
            Ok(Msg::Chunk(c)) => Ok(Some(*c)),
            Ok(Msg::End(d)) => {
                self.end = Some(d);
                Ok(None)
            }
            Ok(Msg::Fatal(e)) => Err(e),
            Err(_) => Ok(None),
        }
    }
}

impl Chunks for Threaded {
    fn apply(&mut self, f: &mut ChunkFn<'_>) -> Result<bool, Error> {
        let c = apply_owned(self.next()?, f);
        let read = c.is_some();
        if let Some(c) = c {
            let _ = self.back.try_send(c);
        }
        Ok(read)
    }
    fn finish(&mut self) -> Result<Diagnostics, Error> {
        while self.next()?.is_some() {}
        Ok(self.end.take().unwrap_or_default())
    }
}

fn run_chunks(
    gold: &mut dyn Chunks,
    sys: &mut dyn Chunks,
    opts: &UdOptions,
) -> Result<UdResult, UdError> {
    let mut e = Eval::new(gold, sys, opts);
    let mismatch = match e.run() {
        Ok(()) => None,
        Err(Stop::Fatal(err)) => return Err(UdError::Fatal(err)),
        Err(stop) => {
            e.read_to_end()?;
            Some(stop)
        }
    };
    let (problems, warnings) = e.diagnostics()?;
    match mismatch {
        Some(Stop::Mismatch(m)) => return Err(UdError::Mismatch(m, problems)),
        Some(Stop::Unsynced(m)) => return Err(UdError::Unsynced(m, problems)),
        _ => {}
    }
    if !problems.is_empty() {
        return Err(UdError::Invalid(problems));
    }
    Ok(e.into_result(warnings))
}

enum Stop {
    Mismatch(TextMismatch),
    Unsynced(ResyncFailure),
    Fatal(Error),
}

struct Eval<'a> {
    g: Side,
    s: Side,
    gsrc: &'a mut dyn Chunks,
    ssrc: &'a mut dyn Chunks,
    opts: &'a UdOptions,
    labels: LabelTable,
    /// Breakdown group names, and per key the counts of every group.
    group_names: LabelTable,
    groups: Vec<Vec<GroupCounts>>,
    /// System window word → gold window word, or [`NONE`].
    smap: Vec<u32>,
    pairs: Vec<(u32, u32)>,
    /// The texts are equal up to this byte (and this many characters).
    cmp: u64,
    cmp_chars: u64,
    totals: UdCounts,
    rel: Vec<RelationCounts>,
    sentences: Vec<UdCounts>,
    window: Vec<UdCounts>,
    /// The diff of the texts, with `--align resync`.
    resync: Option<Box<Resync>>,
    /// With `opts.trace`: a sample of the gold sentences counted so far, as aligned.
    trace: crate::sample::EvenSample<trace::TracedSentence>,
    /// With `opts.relation_triples`: the unmatched relations listed so far.
    triples: Option<triples::TripleList>,
    /// The selection's counts, and the gold sentences counted so far.
    selected: crate::select::SelectionCounts,
    numbers: Vec<u64>,
    gold_flushed: u64,
    /// Per row of `window`: whether the selection keeps its gold sentence.
    keep: Vec<bool>,
    /// The sent_ids of the gold and system sentences that start together.
    sent_ids: crate::sent_ids::SentIdCheck,
}

fn char_count(b: &[u8]) -> u64 {
    b.iter().filter(|&&c| (c as i8) >= -0x40).count() as u64
}

impl<'a> Eval<'a> {
    /// An evaluation of the chunks of `gold` and `sys`, nothing read yet.
    fn new(gsrc: &'a mut dyn Chunks, ssrc: &'a mut dyn Chunks, opts: &'a UdOptions) -> Self {
        let nk = opts.by.len();
        Eval {
            g: Side::new(nk),
            s: Side::new(nk),
            gsrc,
            ssrc,
            opts,
            labels: LabelTable::new(),
            group_names: LabelTable::new(),
            groups: vec![Vec::new(); nk],
            smap: Vec::new(),
            pairs: Vec::new(),
            cmp: 0,
            cmp_chars: 0,
            totals: UdCounts::default(),
            rel: Vec::new(),
            sentences: Vec::new(),
            window: Vec::new(),
            resync: (opts.align == AlignMode::Resync).then(|| Box::new(Resync::new())),
            trace: crate::sample::EvenSample::new(opts.trace.unwrap_or(0)),
            triples: opts.relation_triples.map(triples::TripleList::new),
            selected: opts.selection.counts(),
            numbers: Vec::new(),
            gold_flushed: 0,
            keep: Vec::new(),
            sent_ids: Default::default(),
        }
    }

    /// After a stop: read both files to the end for their problems, without scoring.
    fn read_to_end(&mut self) -> Result<(), UdError> {
        for gold in [true, false] {
            while !self.side(gold).eof {
                if let Err(Stop::Fatal(err)) = self.load(gold, false) {
                    return Err(UdError::Fatal(err));
                }
                let side = self.side_mut(gold);
                let n = side.flat.words.len();
                side.front = n;
                side.drain(n);
            }
        }
        Ok(())
    }

    /// The readers' and the converters' diagnostics of both files: the problems (sorted
    /// by position) and the warnings.
    fn diagnostics(&mut self) -> Result<(Vec<Diagnostic>, Vec<Diagnostic>), UdError> {
        let mut problems: Vec<Diagnostic> = Vec::new();
        let mut warnings = Vec::new();
        for d in [self.gsrc.finish(), self.ssrc.finish()] {
            let d = d.map_err(UdError::Fatal)?;
            for x in d.into_vec() {
                if x.is_error() {
                    problems.push(x);
                } else {
                    warnings.push(x);
                }
            }
        }
        problems.extend(std::mem::take(&mut self.g.errors));
        problems.extend(std::mem::take(&mut self.s.errors));
        problems.sort_by(|a, b| {
            (&*a.position.path, a.position.line, a.position.column).cmp(&(
                &*b.position.path,
                b.position.line,
                b.position.column,
            ))
        });
        Ok((problems, warnings))
    }

    /// The counts of a complete evaluation, with the readers' `warnings`.
    fn into_result(self, warnings: Vec<Diagnostic>) -> UdResult {
        let mut relations: Vec<(String, RelationCounts)> = self
            .rel
            .iter()
            .enumerate()
            .filter(|(_, r)| r.gold + r.system > 0)
            .map(|(k, r)| (self.labels.name(k as u32).to_owned(), *r))
            .collect();
        relations.sort_by(|a, b| a.0.cmp(&b.0));
        UdResult {
            counts: self.totals,
            relations,
            gold: self.g.stats,
            system: self.s.stats,
            sentences: self.sentences,
            warnings,
            resync: self.resync.map(|r| r.windows),
            trace: self.trace.into_parts().0.into_iter().map(|x| x.1).collect(),
            trace_labels: self.labels.to_names(),
            relation_triples: self.triples.map(|t| t.triples).unwrap_or_default(),
            gold_columns_warning: None,
            system_columns_warning: None,
            sent_ids: self.sent_ids,
            selection: self.selected,
            numbers: self.numbers,
            by: self
                .opts
                .by
                .iter()
                .zip(&self.groups)
                .map(|(&key, counts)| {
                    let rows = counts
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| c.gold + c.system > 0)
                        .map(|(id, c)| (self.group_names.name(id as u32).to_owned(), *c))
                        .collect();
                    (key, rows)
                })
                .collect(),
        }
    }

    fn side(&self, gold: bool) -> &Side {
        if gold {
            &self.g
        } else {
            &self.s
        }
    }

    fn side_mut(&mut self, gold: bool) -> &mut Side {
        if gold {
            &mut self.g
        } else {
            &mut self.s
        }
    }

    /// Read one more sentence of one file (and compare the texts when `compare`).
    fn load(&mut self, gold: bool, compare: bool) -> Result<(), Stop> {
        let (side, src) = if gold {
            (&mut self.g, &mut *self.gsrc)
        } else {
            (&mut self.s, &mut *self.ssrc)
        };
        let (labels, groups) = (&mut self.labels, &mut self.group_names);
        let read = src
            .apply(&mut |c, errors| side.append(c, errors, labels, groups))
            .map_err(Stop::Fatal)?;
        side.eof |= !read;
        if !gold {
            self.smap.resize(self.s.flat.words.len(), NONE);
        }
        if compare && self.resync.is_none() {
            self.compare()
        } else {
            Ok(())
        }
    }

    /// Make word `i` of one file available; false at the end of the file.
    #[inline]
    fn ensure(&mut self, gold: bool, i: usize) -> Result<bool, Stop> {
        loop {
            if let Some(r) = &self.resync {
                if self.side(gold).settled_words > i {
                    return Ok(true);
                }
                if r.done || r.ended(gold) {
                    return Ok(false);
                }
                self.advance()?;
                continue;
            }
            let side = self.side(gold);
            if side.flat.words.len() > i {
                return Ok(true);
            }
            if side.eof {
                return Ok(false);
            }
            self.load(gold, true)?;
        }
    }

    /// Let the resynchronising diff decide a little more.
    fn advance(&mut self) -> Result<(), Stop> {
        let Some(r) = &mut self.resync else {
            return Ok(());
        };
        match r.step(&mut self.g, &mut self.s).map_err(Stop::Unsynced)? {
            Step::Load(gold) => self.load(gold, false),
            Step::Progress | Step::Done => Ok(()),
        }
    }

    fn compare(&mut self) -> Result<(), Stop> {
        let common = self.g.pos.min(self.s.pos);
        if common > self.cmp {
            let a = &self.g.flat.text
                [(self.cmp - self.g.text_base) as usize..(common - self.g.text_base) as usize];
            let b = &self.s.flat.text
                [(self.cmp - self.s.text_base) as usize..(common - self.s.text_base) as usize];
            if a != b {
                let k = a.iter().zip(b).take_while(|(x, y)| x == y).count();
                return Err(Stop::Mismatch(self.mismatch(self.cmp + k as u64)));
            }
            self.cmp_chars += char_count(a);
            self.cmp = common;
            for side in [&mut self.g, &mut self.s] {
                let cut = (self.cmp - side.text_base) as usize;
                side.flat.text.drain(..cut);
                side.text_base = self.cmp;
            }
        }
        let longer = |x: &Side, y: &Side| x.eof && y.pos > x.pos;
        if longer(&self.g, &self.s) || longer(&self.s, &self.g) {
            return Err(Stop::Mismatch(self.mismatch(self.cmp)));
        }
        Ok(())
    }

    fn mismatch(&self, mut at: u64) -> TextMismatch {
        // back to a character boundary (the texts are equal before `at`)
        let g = &self.g;
        while at > self.cmp
            && g.flat
                .text
                .get((at - g.text_base) as usize)
                .is_some_and(|&c| (c as i8) < -0x40)
        {
            at -= 1;
        }
        let from = |side: &Side| -> (u64, String) {
            let t = &side.flat.text[((at - side.text_base) as usize).min(side.flat.text.len())..];
            let text: String = String::from_utf8_lossy(&t[..t.len().min(80)])
                .chars()
                .take(20)
                .collect();
            let line = side
                .flat
                .tokens
                .iter()
                .find(|t| t.start <= at && at < t.end)
                .map_or(side.last_line, |t| t.line);
            (line, text)
        };
        let (gold_line, gold_text) = from(&self.g);
        let (system_line, system_text) = from(&self.s);
        let index = self.cmp_chars
            + char_count(
                &g.flat.text[(self.cmp - g.text_base) as usize..(at - g.text_base) as usize],
            );
        TextMismatch {
            index: index as usize,
            gold_line,
            system_line,
            gold_text,
            system_text,
        }
    }

    fn beyond(&mut self, gold: bool, i: usize, end: u64) -> Result<bool, Stop> {
        if !self.ensure(gold, i)? {
            return Ok(true);
        }
        let w = &self.side(gold).flat.words[i];
        Ok(if w.flags & F_MULTIWORD != 0 {
            w.start >= end
        } else {
            w.end > end
        })
    }

    fn pair(&mut self, gi: usize, si: usize) {
        self.pairs.push((gi as u32, si as u32));
        self.smap[si] = gi as u32;
    }

    /// The scorer's alignment, run as the files stream.
    fn run(&mut self) -> Result<(), Stop> {
        let (mut gi, mut si) = (0usize, 0usize);
        loop {
            if !self.ensure(true, gi)? || !self.ensure(false, si)? {
                break;
            }
            if (gi > self.g.front || si > self.s.front)
                && self.g.is_sentence_start(gi)
                && self.s.is_sentence_start(si)
                && self.g.flat.words[gi].start == self.s.flat.words[si].start
            {
                self.flush(gi, si);
                let (dg, ds) = self.compact();
                gi -= dg;
                si -= ds;
                continue;
            }
            let (g, s) = (self.g.flat.words[gi], self.s.flat.words[si]);
            let (gm, sm) = (g.flags & F_MULTIWORD != 0, s.flags & F_MULTIWORD != 0);
            if gm || sm {
                // the multiword span: its start …
                let mut end;
                if gm {
                    end = g.end;
                    if !sm && s.start < g.start {
                        si += 1;
                    }
                } else {
                    end = s.end;
                    if g.start < s.start {
                        gi += 1;
                    }
                }
                let (gs, ss) = (gi, si);
                // … and its end
                while !(self.beyond(true, gi, end)? && self.beyond(false, si, end)?) {
                    let take_gold = self.ensure(true, gi)?
                        && (!self.ensure(false, si)?
                            || self.g.flat.words[gi].start <= self.s.flat.words[si].start);
                    let w = if take_gold {
                        gi += 1;
                        self.g.flat.words[gi - 1]
                    } else {
                        si += 1;
                        self.s.flat.words[si - 1]
                    };
                    if w.flags & F_MULTIWORD != 0 && w.end > end {
                        end = w.end;
                    }
                }
                if gi > gs && si > ss {
                    self.lcs(gs, gi, ss, si);
                }
            } else if g.start == s.start && g.end == s.end {
                self.pair(gi, si);
                gi += 1;
                si += 1;
            } else if g.start <= s.start {
                gi += 1;
            } else {
                si += 1;
            }
        }
        // with resync, one file may go on alone (a window to its end): count it as it
        // streams, a chunk at a time
        while self.resync.as_ref().is_some_and(|r| !r.done) {
            self.flush(self.g.settled_words, self.s.settled_words);
            self.compact();
            self.advance()?;
        }
        while !self.g.eof {
            self.load(true, true)?;
        }
        while !self.s.eof {
            self.load(false, true)?;
        }
        self.flush(self.g.flat.words.len(), self.s.flat.words.len());
        Ok(())
    }

    /// Align words `gs..ge` and `ss..se` by the longest common subsequence of their
    /// lower-cased forms, filled from the end as the reference.
    fn lcs(&mut self, gs: usize, ge: usize, ss: usize, se: usize) {
        let lower = |side: &Side, a: usize, b: usize| -> Vec<String> {
            side.flat.words[a..b]
                .iter()
                .map(|w| String::from_utf8_lossy(side.field(w, 0)).to_lowercase())
                .collect()
        };
        let (gf, sf) = (lower(&self.g, gs, ge), lower(&self.s, ss, se));
        let (n, m) = (gf.len(), sf.len());
        let mut t = vec![0u32; (n + 1) * (m + 1)];
        let at = |a: usize, b: usize| a * (m + 1) + b;
        for a in (0..n).rev() {
            for b in (0..m).rev() {
                let diag = if gf[a] == sf[b] {
                    1 + t[at(a + 1, b + 1)]
                } else {
                    0
                };
                t[at(a, b)] = diag.max(t[at(a + 1, b)]).max(t[at(a, b + 1)]);
            }
        }
        let (mut a, mut b) = (0, 0);
        while a < n && b < m {
            if gf[a] == sf[b] {
                self.pair(gs + a, ss + b);
                a += 1;
                b += 1;
            } else if t[at(a, b)] == t[at(a + 1, b)] {
                a += 1;
            } else {
                b += 1;
            }
        }
    }

    /// Count gold words `..gn` and system words `..sn` (with their sentences and tokens),
    /// then drop them from the window.
    fn flush(&mut self, gn: usize, sn: usize) {
        let (g, s) = (&self.g, &self.s);
        let (ngs, ngt) = upto(g, gn);
        let (nss, nst) = upto(s, sn);
        let (gs0, gt0) = upto(g, g.front);
        let (ss0, st0) = upto(s, s.front);
        self.window.clear();
        self.window.resize((ngs - gs0).max(1), UdCounts::default());
        let (sel, keep) = (&self.opts.selection, &mut self.keep);
        select_rows(g, sel, keep, &mut self.selected, (gs0, ngs));
        let mut t = Tally {
            g,
            s,
            smap: &self.smap,
            gsents: &g.flat.sents[gs0..ngs],
            gs0,
            sets_wanted: self.opts.relation_sets,
            filter: !self.opts.filter.is_empty(),
            nk: self.opts.by.len(),
            window: &mut self.window,
            keep: &self.keep,
            rel: &mut self.rel,
            groups: &mut self.groups,
        };
        // tokens and sentences: spans, merged by start (not words: none under --where)
        if !t.filter {
            let span = |t: &Tok| (t.start, t.end);
            t.spans(
                UdMetric::Tokens,
                g.flat.tokens[gt0..ngt].iter().map(span),
                s.flat.tokens[st0..nst].iter().map(span),
            );
            let span = |t: &SentInfo| (t.start, t.end);
            t.spans(
                UdMetric::Sentences,
                g.flat.sents[gs0..ngs].iter().map(span),
                s.flat.sents[ss0..nss].iter().map(span),
            );
        }
        pair_sent_ids(g, s, (gs0, ngs), (ss0, nss), &mut self.sent_ids);
        // words: totals
        t.side_totals(g, gn, true);
        t.side_totals(s, sn, false);
        // breakdown groups: gold words by their gold value, system words by theirs
        if t.nk > 0 {
            t.side_groups(g, gn, true);
            t.side_groups(s, sn, false);
        }
        // words: aligned pairs
        for &(gk, sk) in &self.pairs {
            t.pair(gk as usize, sk as usize);
        }
        self.keep_flushed(gs0, ngs, (gn, sn));
        self.gold_flushed += (ngs - gs0) as u64;
        self.pairs.clear();
        self.g.front = gn;
        self.s.front = sn;
    }

    /// What a flush keeps of its gold sentences `gs0..ngs` (words `..gn`, `..sn`): the
    /// selected rows' totals, per-sentence rows and numbers, the trace and the unmatched
    /// relations.
    fn keep_flushed(&mut self, gs0: usize, ngs: usize, (gn, sn): (usize, usize)) {
        for (c, _) in self.window.iter().zip(&self.keep).filter(|x| *x.1) {
            self.totals += c;
        }
        if self.opts.keep_sentences {
            let rows = self.window[..ngs - gs0].iter().zip(&self.keep);
            let numbers = (self.gold_flushed + 1..).zip(&self.keep);
            self.sentences.extend(rows.filter(|x| *x.1).map(|x| *x.0));
            self.numbers
                .extend(numbers.take(ngs - gs0).filter(|x| *x.1).map(|x| x.0));
        }
        if self.opts.trace.is_some() {
            let f = trace::Flushed {
                g: &self.g,
                s: &self.s,
                smap: &self.smap,
                pairs: &self.pairs,
                gs0,
                ngs,
                gn,
                window: &self.window,
                filter: !self.opts.filter.is_empty(),
                keep: &self.keep,
                first_index: self.gold_flushed,
            };
            f.offer_to(&mut self.trace);
        }
        if let Some(list) = &mut self.triples {
            list.add(&triples::FlushView {
                g: &self.g,
                s: &self.s,
                smap: &self.smap,
                pairs: &self.pairs,
                gsents: &self.g.flat.sents[gs0..ngs],
                gs0,
                gn,
                sn,
                keep: &self.keep,
            });
        }
    }

    /// Drop the counted words from the window once they are at least half of it (so
    /// the words after them are not moved at every sentence); returns the shifts.
    fn compact(&mut self) -> (usize, usize) {
        let (gn, sn) = (self.g.front, self.s.front);
        if gn < 4096.max(self.g.flat.words.len() / 2) && sn < 4096.max(self.s.flat.words.len() / 2)
        {
            return (0, 0);
        }
        self.smap.drain(..sn);
        for m in &mut self.smap {
            if *m < NONE {
                *m -= gn as u32;
            }
        }
        self.g.drain(gn);
        self.s.drain(sn);
        (gn, sn)
    }
}

/// Whether the selection keeps each gold sentence `gs0..ngs` of a flush (one row each, at
/// least one: a row without a gold sentence is kept only when every sentence is), into
/// `keep`; the sentences counted in `selected`.
fn select_rows(
    g: &Side,
    sel: &crate::select::Selection,
    keep: &mut Vec<bool>,
    selected: &mut crate::select::SelectionCounts,
    (gs0, ngs): (usize, usize),
) {
    keep.clear();
    for k in gs0..gs0 + (ngs - gs0).max(1) {
        let kept = g
            .flat
            .sents
            .get(k)
            .map_or(sel.is_all(), |x| x.verdict.kept());
        keep.push(kept);
    }
    for x in &g.flat.sents[gs0..ngs] {
        let listed = (x.listed != NONE).then_some(x.listed as usize);
        selected.add(x.verdict, u64::from(x.words), listed);
        selected.numbered += u64::from(x.numbered);
    }
}

/// The `# sent_id`s of gold sentences `gs` and system sentences `ss` of a flush that
/// start at the same character, into `check`.
fn pair_sent_ids(
    g: &Side,
    s: &Side,
    (mut i, ngs): (usize, usize),
    (mut j, nss): (usize, usize),
    check: &mut crate::sent_ids::SentIdCheck,
) {
    while i < ngs && j < nss {
        match g.flat.sents[i].start.cmp(&s.flat.sents[j].start) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                check.observe(g.sent_id(i), s.sent_id(j));
                i += 1;
                j += 1;
            }
        }
    }
}

/// The sentence of word `n` of one file's window (or the window's end), and its first
/// token.
fn upto(side: &Side, n: usize) -> (usize, usize) {
    match side.flat.words.get(n) {
        Some(w) => {
            let k = w.sent as usize;
            (k, side.flat.sents[k].first_token as usize)
        }
        None => (side.flat.sents.len(), side.flat.tokens.len()),
    }
}

/// One flush's counting: what it reads (both windows and the alignment) and what it
/// adds to (per gold sentence of the stretch, per relation, per breakdown group).
struct Tally<'a> {
    g: &'a Side,
    s: &'a Side,
    /// System window word → gold window word, or [`NONE`].
    smap: &'a [u32],
    /// The gold sentences counted; the first is window sentence `gs0`.
    gsents: &'a [SentInfo],
    gs0: usize,
    sets_wanted: bool,
    /// Whether `--where` keeps some words only (gold words with [`F_KEPT`]).
    filter: bool,
    /// Breakdown keys.
    nk: usize,
    /// One entry per gold sentence of `gsents` (at least one).
    window: &'a mut [UdCounts],
    /// Per entry of `window`: whether the selection keeps it (the others' words are not
    /// counted in the relations and breakdowns; their rows are not summed).
    keep: &'a [bool],
    rel: &'a mut Vec<RelationCounts>,
    groups: &'a mut [Vec<GroupCounts>],
}

/// A gold or a system count of a pair of counts.
#[inline]
fn side_count<'c>(gold: bool, g: &'c mut u64, s: &'c mut u64) -> &'c mut u64 {
    if gold {
        g
    } else {
        s
    }
}

/// Whether enhanced item `k` of `es` is the first with its head and label.
#[inline]
fn first_of_kind(side: &Side, es: &[Edep], k: usize) -> bool {
    let e = &es[k];
    !es[..k]
        .iter()
        .any(|x| x.head == e.head && side.label_text(x) == side.label_text(e))
}

/// Whether a gold head and a system head (window indices, [`ROOT`] or another mark) are
/// the same word under the alignment.
#[inline]
fn head_ok(smap: &[u32], gh: u32, sh: u32) -> bool {
    if gh == ROOT {
        sh == ROOT
    } else {
        gh < NONE && sh < NONE && smap[sh as usize] == gh
    }
}

/// MLAS: the functional children of two aligned words match one by one (aligned, with
/// the same relation, UPOS and UFeats).
#[inline]
fn children_match(g: &Side, s: &Side, smap: &[u32], gw: &W, sw: &W) -> bool {
    let (mut a, mut b) = (gw.first_child, sw.first_child);
    loop {
        match (a == NONE, b == NONE) {
            (true, true) => return true,
            (false, false) => {
                let (x, y): (&W, &W) = (&g.flat.words[a as usize], &s.flat.words[b as usize]);
                if smap[b as usize] != a
                    || x.label != y.label
                    || g.field(x, 2) != s.field(y, 2)
                    || g.field(x, 4) != s.field(y, 4)
                {
                    return false;
                }
                a = x.next_sibling;
                b = y.next_sibling;
            }
            _ => return false,
        }
    }
}

/// ELAS and EULAS of two aligned words: every matching (gold item, system item) pair
/// counts, as udeval.
#[inline]
fn enhanced_matches(g: &Side, s: &Side, smap: &[u32], ge: &[Edep], se: &[Edep]) -> (u64, u64) {
    let (mut elas, mut eulas) = (0, 0);
    for a in ge {
        let la = g.label_text(a);
        for b in se {
            if !head_ok(smap, a.head, b.head) {
                continue;
            }
            let lb = s.label_text(b);
            if la == lb {
                elas += 1;
                eulas += 1;
            } else if enhanced::universal_path_eq(la, lb) {
                eulas += 1;
            }
        }
    }
    (elas, eulas)
}

impl Tally<'_> {
    /// The gold sentence (window-relative) in which a text offset lies.
    #[inline]
    fn home(&self, off: u64) -> usize {
        self.gsents
            .partition_point(|x| x.start <= off)
            .saturating_sub(1)
    }

    /// Tokens or sentences (metric `m`): gold and system spans, merged by start; a span is
    /// correct when both ends match.
    fn spans(
        &mut self,
        m: UdMetric,
        gs: impl Iterator<Item = (u64, u64)>,
        ss: impl Iterator<Item = (u64, u64)>,
    ) {
        let mut gv = gs.peekable();
        let mut sv = ss.peekable();
        loop {
            match (gv.peek().copied(), sv.peek().copied()) {
                (Some(a), Some(b)) => {
                    if b.0 < a.0 {
                        let k = self.home(b.0);
                        self.window[k].metrics[m].system += 1;
                        sv.next();
                    } else if a.0 < b.0 {
                        let k = self.home(a.0);
                        self.window[k].metrics[m].gold += 1;
                        gv.next();
                    } else {
                        let k = self.home(a.0);
                        let c = &mut self.window[k].metrics[m];
                        c.gold += 1;
                        c.system += 1;
                        c.correct += u64::from(a.1 == b.1);
                        gv.next();
                        sv.next();
                    }
                }
                (Some(a), None) => {
                    let k = self.home(a.0);
                    self.window[k].metrics[m].gold += 1;
                    gv.next();
                }
                (None, Some(b)) => {
                    let k = self.home(b.0);
                    self.window[k].metrics[m].system += 1;
                    sv.next();
                }
                (None, None) => break,
            }
        }
    }

    /// Whether window word `j` of the gold (`gold`) or the system file is counted: every
    /// word without `--where`; else a gold word that meets it, a system word aligned to
    /// one.
    #[inline]
    fn kept(&self, gold: bool, j: usize) -> bool {
        if !self.filter {
            return true;
        }
        let gj = if gold { j } else { self.smap[j] as usize };
        self.g
            .flat
            .words
            .get(gj)
            .is_some_and(|w| w.flags & F_KEPT != 0)
    }

    /// Words `front..n` of one file: their gold (`gold`) or system totals of the word
    /// metrics, enhanced items, relation sets and relations.
    fn side_totals(&mut self, side: &Side, n: usize, gold: bool) {
        for (j, w) in side.flat.words[side.front..n].iter().enumerate() {
            if !self.kept(gold, side.front + j) {
                continue;
            }
            let k = self.row(w, gold);
            if self.keep[k] {
                self.word_totals(side, w, k, gold);
            }
        }
    }

    /// The row (gold sentence) a gold or system word counts in.
    #[inline]
    fn row(&self, w: &W, gold: bool) -> usize {
        if gold {
            w.sent as usize - self.gs0
        } else {
            self.home(w.start)
        }
    }

    /// One word of [`Tally::side_totals`], counted in gold sentence `k`.
    #[inline]
    fn word_totals(&mut self, side: &Side, w: &W, k: usize, gold: bool) {
        let c = &mut self.window[k].metrics;
        let items = u64::from(w.edeps.1 - w.edeps.0);
        for &m in UdMetric::of_word(w.flags & F_CONTENT != 0) {
            let x = &mut c[m];
            *side_count(gold, &mut x.gold, &mut x.system) += 1;
        }
        for m in UdMetric::ENHANCED {
            let x = &mut c[m];
            *side_count(gold, &mut x.gold, &mut x.system) += items;
        }
        if self.sets_wanted {
            let es = &side.flat.edeps[w.edeps.0 as usize..w.edeps.1 as usize];
            let distinct = (0..es.len())
                .filter(|&k| first_of_kind(side, es, k))
                .count() as u64;
            let r = &mut self.window[k].relation_sets;
            *side_count(gold, &mut r[0].gold, &mut r[0].system) += 1;
            *side_count(gold, &mut r[1].gold, &mut r[1].system) += distinct;
        }
        let l = w.label as usize;
        if self.rel.len() <= l {
            self.rel.resize(l + 1, RelationCounts::default());
        }
        let r = &mut self.rel[l];
        *side_count(gold, &mut r.gold, &mut r.system) += 1;
    }

    /// Breakdown groups: words `front..n` of one file by their own value (`nk > 0`).
    fn side_groups(&mut self, side: &Side, n: usize, gold: bool) {
        let nk = self.nk;
        let words = &side.flat.words[side.front..n];
        let rows = side.by[side.front * nk..n * nk].chunks(nk).zip(words);
        for (j, (ids, w)) in rows.enumerate() {
            if !self.kept(gold, side.front + j) || !self.keep[self.row(w, gold)] {
                continue;
            }
            for (k, &id) in ids.iter().enumerate() {
                let v = &mut self.groups[k];
                if v.len() <= id as usize {
                    v.resize(id as usize + 1, GroupCounts::default());
                }
                let x = &mut v[id as usize];
                *side_count(gold, &mut x.gold, &mut x.system) += 1;
            }
        }
    }

    /// One aligned pair (window words `gk` and `sk`): tags, lemmas, attachment, content
    /// metrics, relations, breakdowns, relation sets and enhanced items.
    #[inline]
    fn pair(&mut self, gk: usize, sk: usize) {
        if !self.kept(true, gk) {
            return;
        }
        let (g, s, smap) = (self.g, self.s, self.smap);
        let (gw, sw) = (&g.flat.words[gk], &s.flat.words[sk]);
        let row = gw.sent as usize - self.gs0;
        if !self.keep[row] {
            return;
        }
        let content = gw.flags & F_CONTENT != 0;
        let eq = |k: usize| g.field(gw, k) == s.field(sw, k);
        let (upos, xpos, feats) = (eq(2), eq(3), eq(4));
        let lemma = g.field(gw, 1) == b"_" || eq(1);
        let head = head_ok(smap, gw.parent, sw.parent);
        let las = head && gw.label == sw.label;
        let c = &mut self.window[row].metrics;
        c[UdMetric::Words].correct += 1;
        for &m in UdMetric::of_word(content) {
            if m.on_aligned_words() {
                c[m].aligned += 1;
            }
        }
        c[UdMetric::Upos].correct += u64::from(upos);
        c[UdMetric::Xpos].correct += u64::from(xpos);
        c[UdMetric::UFeats].correct += u64::from(feats);
        c[UdMetric::AllTags].correct += u64::from(upos && xpos && feats);
        c[UdMetric::Lemmas].correct += u64::from(lemma);
        c[UdMetric::Uas].correct += u64::from(head);
        c[UdMetric::Las].correct += u64::from(las);
        let r = &mut self.rel[gw.label as usize];
        r.head += u64::from(head);
        r.correct += u64::from(las);
        self.pair_groups(gk, sk, head, las, gw.label == sw.label);
        if content {
            let c = &mut self.window[row].metrics;
            c[UdMetric::Clas].correct += u64::from(las);
            c[UdMetric::Blex].correct += u64::from(las && lemma);
            c[UdMetric::Mlas].correct +=
                u64::from(las && upos && feats && children_match(g, s, smap, gw, sw));
        }
        let ge: &[Edep] = &g.flat.edeps[gw.edeps.0 as usize..gw.edeps.1 as usize];
        let se: &[Edep] = &s.flat.edeps[sw.edeps.0 as usize..sw.edeps.1 as usize];
        // relation sets: the basic relation with its full label; distinct enhanced gold
        // items that some system item matches
        if self.sets_wanted {
            let matched = (0..ge.len())
                .filter(|&k| {
                    let a = &ge[k];
                    first_of_kind(g, ge, k)
                        && se.iter().any(|b| {
                            head_ok(smap, a.head, b.head) && g.label_text(a) == s.label_text(b)
                        })
                })
                .count() as u64;
            let sets = &mut self.window[row].relation_sets;
            sets[0].correct += u64::from(head && eq(5));
            sets[1].correct += matched;
        }
        let (elas, eulas) = enhanced_matches(g, s, smap, ge, se);
        let c = &mut self.window[row].metrics;
        c[UdMetric::Elas].correct += elas;
        c[UdMetric::Eulas].correct += eulas;
    }

    /// An aligned pair in the breakdowns: the gold word's groups (recall-like) and the
    /// system word's (precision-like).
    #[inline]
    fn pair_groups(&mut self, gk: usize, sk: usize, head: bool, las: bool, label: bool) {
        let nk = self.nk;
        for k in 0..nk {
            let (gid, sid) = (
                self.g.by[gk * nk + k] as usize,
                self.s.by[sk * nk + k] as usize,
            );
            let x = &mut self.groups[k][gid];
            x.gold_uas += u64::from(head);
            x.gold_las += u64::from(las);
            x.gold_la += u64::from(label);
            let y = &mut self.groups[k][sid];
            y.system_uas += u64::from(head);
            y.system_las += u64::from(las);
            y.system_la += u64::from(label);
        }
    }
}

/// One metric's counts and scores, as the reference reports them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct UdScore {
    /// Correct items.
    pub correct: u64,
    /// Gold items.
    pub gold: u64,
    /// System items.
    pub system: u64,
    /// Aligned words considered (metrics on aligned words only).
    pub aligned: Option<u64>,
    /// correct / system (0 when system is 0, as the reference).
    pub precision: f64,
    /// correct / gold (0 when gold is 0).
    pub recall: f64,
    /// 2·correct / (gold + system).
    pub f1: f64,
    /// correct / aligned.
    pub aligned_accuracy: Option<f64>,
}

impl UdScore {
    fn new(gold: u64, system: u64, correct: u64, aligned: Option<u64>) -> Self {
        let div = |n: u64, d: u64| if d > 0 { n as f64 / d as f64 } else { 0.0 };
        UdScore {
            correct,
            gold,
            system,
            aligned,
            precision: div(correct, system),
            recall: div(correct, gold),
            f1: div(2 * correct, gold + system),
            aligned_accuracy: match aligned {
                Some(a) if a > 0 => Some(correct as f64 / a as f64),
                Some(_) => Some(0.0),
                None => None,
            },
        }
    }
}

/// `conll18_ud_eval.py -v` (`counts = false`) or `-c` (`counts = true`), byte for byte.
pub fn conll18_table(scores: &[(&str, UdScore)], counts: bool) -> String {
    let mut o = String::new();
    if counts {
        o.push_str("Metric     | Correct   |      Gold | Predicted | Aligned\n");
    } else {
        o.push_str("Metric     | Precision |    Recall |  F1 Score | AligndAcc\n");
    }
    o.push_str("-----------+-----------+-----------+-----------+-----------\n");
    for (name, s) in scores {
        if counts {
            // the reference prints `aligned or (correct if Words else "")`
            let aligned = match (s.aligned, *name) {
                (Some(a), _) if a > 0 => a.to_string(),
                (_, "Words") => s.correct.to_string(),
                _ => String::new(),
            };
            o.push_str(&format!(
                "{:11}|{:10} |{:10} |{:10} |{:>10}\n",
                name, s.correct, s.gold, s.system, aligned
            ));
        } else {
            let acc = s
                .aligned_accuracy
                .map(|a| format!("{:10.2}", 100.0 * a))
                .unwrap_or_default();
            o.push_str(&format!(
                "{:11}|{:10.2} |{:10.2} |{:10.2} |{}\n",
                name,
                100.0 * s.precision,
                100.0 * s.recall,
                100.0 * s.f1,
                acc
            ));
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use treeval_formats::ReaderBuilder;

    /// The reference's own alignment tests: words written as in its test suite, a
    /// multiword token as "form part part".
    fn file(words: &[&str]) -> String {
        let mut lines = Vec::new();
        let mut n = 0;
        for w in words {
            let parts: Vec<&str> = w.split(' ').collect();
            if parts.len() == 1 {
                n += 1;
                lines.push(format!(
                    "{n}\t{}\t_\t_\t_\t_\t{}\t_\t_\t_",
                    parts[0],
                    u32::from(n > 1)
                ));
            } else {
                lines.push(format!(
                    "{}-{}\t{}\t_\t_\t_\t_\t_\t_\t_\t_",
                    n + 1,
                    n + parts.len() - 1,
                    parts[0]
                ));
                for p in &parts[1..] {
                    n += 1;
                    lines.push(format!(
                        "{n}\t{p}\t_\t_\t_\t_\t{}\t_\t_\t_",
                        u32::from(n > 1)
                    ));
                }
            }
        }
        lines.join("\n") + "\n\n"
    }

    pub(super) fn eval_text(g: &str, s: &str, opts: &UdOptions) -> Result<UdResult, UdError> {
        let b = ReaderBuilder::new();
        let mut gs = ReaderSource::new(b.from_reader("g.conllu", g.as_bytes()));
        let mut ss = ReaderSource::new(b.from_reader("s.conllu", s.as_bytes()));
        evaluate_sources(&mut gs, &mut ss, "g.conllu", "s.conllu", opts)
    }

    fn words_correct(g: &[&str], s: &[&str]) -> u64 {
        eval_text(&file(g), &file(s), &UdOptions::default())
            .unwrap()
            .counts
            .metrics[UdMetric::Words]
            .correct
    }

    #[test]
    fn reference_alignment_cases() {
        assert_eq!(words_correct(&["a"], &["a"]), 1);
        assert_eq!(words_correct(&["a", "b", "c"], &["a", "b", "c"]), 3);
        assert_eq!(words_correct(&["abc a b c"], &["a", "b", "c"]), 3);
        assert_eq!(
            words_correct(&["a", "bc b c", "d"], &["a", "b", "c", "d"]),
            4
        );
        assert_eq!(words_correct(&["abcd a b c d"], &["ab a b", "cd c d"]), 4);
        assert_eq!(
            words_correct(&["abc a b c", "de d e"], &["a", "bcd b c d", "e"]),
            5
        );
        assert_eq!(words_correct(&["abcd"], &["a", "b", "c", "d"]), 0);
        assert_eq!(words_correct(&["abc", "d"], &["a", "b", "c", "d"]), 1);
        assert_eq!(words_correct(&["a", "bc", "d"], &["a", "b", "c", "d"]), 2);
        assert_eq!(words_correct(&["a", "bc b c", "d"], &["a", "b", "cd"]), 2);
        assert_eq!(
            words_correct(
                &["abc a BX c", "def d EX f"],
                &["ab a b", "cd c d", "ef e f"]
            ),
            4
        );
        assert_eq!(words_correct(&["ab a b", "cd bc d"], &["a", "bc", "d"]), 2);
        assert_eq!(
            words_correct(&["a", "bc b c", "d"], &["ab AX BX", "cd CX a"]),
            1
        );
        assert!(matches!(
            eval_text(&file(&["a"]), &file(&["b"]), &UdOptions::default()),
            Err(UdError::Mismatch(..))
        ));
    }

    #[test]
    fn a_range_of_one_word_makes_a_multiword_token_as_conll18() {
        // conll18_ud_eval.py reads `1-1 Dogs` + `1 Dog` as a token "Dogs" of one
        // multiword word "Dog": the text is the token's, the word aligns by LCS of forms
        let g = "1\tDogs\t_\t_\t_\t_\t0\troot\t_\t_\n2\tbark\t_\t_\t_\t_\t1\tdep\t_\t_\n\n";
        let s = "1-1\tDogs\t_\t_\t_\t_\t_\t_\t_\t_\n1\tDog\t_\t_\t_\t_\t0\troot\t_\t_\n2\tbark\t_\t_\t_\t_\t1\tdep\t_\t_\n\n";
        let r = eval_text(g, s, &UdOptions::default()).unwrap();
        let m = &r.counts.metrics;
        assert_eq!(
            (m[UdMetric::Tokens].correct, m[UdMetric::Tokens].gold),
            (2, 2)
        );
        // "dogs" vs "dog": not aligned; "bark" aligned (its head is not)
        assert_eq!(m[UdMetric::Words].correct, 1);
        assert_eq!(m[UdMetric::Uas].correct, 0);
        let s = s.replace("\tDog\t", "\tdogs\t");
        let r = eval_text(g, &s, &UdOptions::default()).unwrap();
        assert_eq!(r.counts.metrics[UdMetric::Words].correct, 2);
        assert_eq!(r.counts.metrics[UdMetric::Las].correct, 2);
        assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    }

    #[test]
    fn skip_enhanced_reads_no_deps() {
        // conll18_ud_eval.py neither checks nor scores DEPS
        let g = "1\ta\t_\t_\t_\t_\t0\troot\t0:root\t_\n\n";
        let s = "1\ta\t_\t_\t_\t_\t0\troot\troot\t_\n\n";
        // as `ud` reads: DEPS checked by the evaluation, not the reader
        let eval = |opts: &UdOptions| {
            let mut b = ReaderBuilder::new();
            b.validate_deps(false);
            let mut gs = ReaderSource::new(b.from_reader("g.conllu", g.as_bytes()));
            let mut ss = ReaderSource::new(b.from_reader("s.conllu", s.as_bytes()));
            evaluate_sources(&mut gs, &mut ss, "g.conllu", "s.conllu", opts)
        };
        assert!(matches!(
            eval(&UdOptions::default()),
            Err(UdError::Invalid(_))
        ));
        let opts = UdOptions {
            skip_enhanced: true,
            ..UdOptions::default()
        };
        let r = eval(&opts).unwrap();
        assert_eq!(r.counts.metrics[UdMetric::Las].correct, 1);
        assert_eq!(r.counts.metrics[UdMetric::Elas], Count::default());
        assert_eq!(r.gold.enhanced_items, 0);
    }

    #[test]
    fn universal_features_sorted() {
        let g = "1\ta\ta\tX\t_\tTense=Past|Foo=Bar|Case=Nom\t0\troot\t_\t_\n\n";
        let s = "1\ta\ta\tX\t_\tCase=Nom|Tense=Past\t0\troot\t_\t_\n\n";
        let r = eval_text(g, s, &UdOptions::default()).unwrap();
        assert_eq!(r.counts.metrics[UdMetric::UFeats].correct, 1);
        let s = "1\ta\ta\tX\t_\tCase=Nom\t0\troot\t_\t_\n\n";
        let r = eval_text(g, s, &UdOptions::default()).unwrap();
        assert_eq!(r.counts.metrics[UdMetric::UFeats].correct, 0);
    }
}
