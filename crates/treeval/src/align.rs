//! `align`: word-alignment scores (precision, recall, AER, F) of hypothesis alignments
//! against a gold alignment with sure and possible links, and the reference scripts'
//! outputs (wa_eval_align.pl, aer.py).
//!
//! ```no_run
//! let ev = treeval::align::evaluate(
//!     &treeval::align::Options::default(),
//!     &treeval::Inputs::new("gold.naacl", ["hyp.pharaoh"]),
//!     &treeval::Common::default(),
//! )?;
//! if let Some(aer) = ev.report.cell("AER", 0) {
//!     println!("AER {:?}", aer.value);
//! }
//! # Ok::<(), treeval::Error>(())
//! ```

mod read;
mod warn;

use serde::{Deserialize, Serialize};
use treeval_formats::align::{AlignFormat, AlignOptions, AlignmentFile};
use treeval_formats::subwords::PieceFile;
use treeval_metrics::align::{
    as_wa_eval_sees_it, count_files, measures, sentence_numbers, sum, AlignCounts,
};
use treeval_metrics::select::{Selection, SelectionCounts};
use treeval_report::align::AlignIn;
use treeval_report::browse::align as browse;
use treeval_report::compat::{aer_py::aer_py, wa_eval::wa_eval_align};
use treeval_report::model::{Warning, WarningKind};
use treeval_report::names::role;
use treeval_report::records::Record;
use treeval_report::state::{
    AlignFileState, AlignState, AlignStateOptions, AlignSubwords, NullLinks as StateNull, State,
};
use treeval_report::Report;

use crate::records::Records;
use crate::{Common, Error, Evaluation, Input, Inputs, Result, Test};

pub use warn::{hyp_warnings, null_warning, Reading};
pub(crate) use warn::{past_end_message, BaseCheck};

/// Alignment formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// `sentence position position [S|P] [confidence]`, 1-based, 0 = NULL (WPT/NAACL).
    Naacl,
    /// `i-j` links per line, one line per sentence, 0-based; `i?j`/`ipj` possible.
    Pharaoh,
}

impl Format {
    /// The reader's format.
    pub fn format(self) -> AlignFormat {
        match self {
            Format::Naacl => AlignFormat::Naacl,
            Format::Pharaoh => AlignFormat::Pharaoh,
        }
    }
}

/// Reference-script output to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Compat {
    /// The blocks printed by the WPT scorer wa_eval_align.pl.
    #[cfg_attr(feature = "clap", value(name = "wa_eval_align"))]
    #[serde(rename = "wa_eval_align")]
    WaEvalAlign,
    /// The line `path: AER% (P%/R%/#links)` of aer.py (lilt/alignment-scripts).
    #[cfg_attr(feature = "clap", value(name = "aer.py"))]
    #[serde(rename = "aer.py")]
    AerPy,
}

/// What to do with links that have a NULL side (position 0 in NAACL files).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum NullLinks {
    /// Leave them out of A, S and P (they are counted and reported).
    Exclude,
    /// Score them like other links (as the WPT scorer does with a NULL-aligned gold).
    Include,
}

/// The measures `align` tests by default.
pub const DEFAULT_TEST_METRICS: [&str; 1] = ["AER"];

/// The options of `align`. `Default` is the command line's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The gold's format, instead of detecting it.
    pub gold_format: Option<Format>,
    /// The hypotheses' format, instead of detecting it.
    pub hyp_format: Option<Format>,
    /// Index base (0 or 1) of the gold's positions (default: 1 for NAACL, 0 for Pharaoh).
    pub gold_base: Option<u32>,
    /// Index base (0 or 1) of the hypotheses' positions.
    pub hyp_base: Option<u32>,
    /// Links with a NULL side (default: exclude; include with `compat: wa_eval_align`).
    pub null: Option<NullLinks>,
    /// Swap the two sides of every hypothesis link.
    pub reverse: bool,
    /// Swap the two sides of every gold link.
    pub reverse_gold: bool,
    /// α of the F-measure (default 0.5, F1).
    pub f_alpha: Option<f64>,
    /// The number of gold sentences, where a NAACL gold cannot state it.
    pub sentences: Option<u64>,
    /// Print a reference script's output instead of the report.
    pub compat: Option<Compat>,
    /// The words of the two sides (two inputs, one sentence per line; in serde, paths).
    pub tokens: Vec<Input>,
    /// The hypotheses align subword pieces: the pieces of both sides (two inputs; in
    /// serde, paths).
    pub hyp_subwords: Vec<Input>,
    /// Measures the tests compare (and `ci` puts intervals on).
    pub test_metrics: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            gold_format: None,
            hyp_format: None,
            gold_base: None,
            hyp_base: None,
            null: None,
            reverse: false,
            reverse_gold: false,
            f_alpha: None,
            sentences: None,
            compat: None,
            tokens: Vec::new(),
            hyp_subwords: Vec::new(),
            test_metrics: DEFAULT_TEST_METRICS.map(String::from).to_vec(),
        }
    }
}

impl Options {
    /// Whether links with a NULL side are scored (the WPT scorer scores them like any
    /// other: its compat mode does too).
    pub fn keep_null(&self) -> bool {
        let wa_eval = self.compat == Some(Compat::WaEvalAlign);
        self.null.map_or(wa_eval, |n| n == NullLinks::Include)
    }

    /// The options the gold is read with.
    pub fn gold_options(&self) -> AlignOptions {
        AlignOptions {
            format: self.gold_format.map(Format::format),
            base: self.gold_base,
            reverse: self.reverse_gold,
            force: Some("--gold-format"),
        }
    }

    /// The options the hypotheses are read with.
    pub fn hyp_options(&self) -> AlignOptions {
        AlignOptions {
            format: self.hyp_format.map(Format::format),
            base: self.hyp_base,
            reverse: self.reverse,
            force: Some("--hyp-format"),
        }
    }
}

/// Why `test: mcnemar` is refused.
pub const NO_MCNEMAR: &str =
    "needs paired binary decisions; for alignments use --test ar or --test bootstrap";

/// What a length of the sentence selection counts in align.
pub const LENGTH_UNIT: &str = "source words (the first --tokens file)";

/// The words of both sides (`tokens`): per file, per line, its words.
type Tokens = [Vec<Vec<String>>; 2];

/// The files as read: the gold, the hypotheses (projected onto words with
/// `hyp_subwords`), the pieces and the tokens.
struct Read {
    gold: AlignmentFile,
    hyps: Vec<AlignmentFile>,
    pieces: Option<[PieceFile; 2]>,
    tokens: Option<Tokens>,
}

/// Evaluate the hypothesis alignments `inputs.systems` against `inputs.gold`.
///
/// The report holds the scores, intervals, tests and notes; with `common.state` the
/// evaluation carries its state; with `options.compat` it carries the reference
/// script's text instead of a report to print.
pub fn evaluate(options: &Options, inputs: &Inputs, common: &Common) -> Result<Evaluation> {
    common.refuse_where("align")?;
    common.validate()?;
    let tested =
        crate::measures::test_metrics(crate::measures::align_measures, &options.test_metrics)?;
    let options = &Options {
        test_metrics: tested,
        ..options.clone()
    };
    check(options, inputs, common)?;
    let selection = crate::select::selection(common)?;
    let (mut files, mut warnings) = read::inputs(options, inputs)?;
    let wa_eval = options.compat == Some(Compat::WaEvalAlign);
    let sentences = read::pair(options, (&files.gold, &files.hyps), wa_eval, &mut warnings)?;
    files.tokens = read::tokens(options)?;
    let scoring = read::Scoring {
        gold: &files.gold,
        inputs,
        gold_opts: options.gold_options(),
        hyp_opts: options.hyp_options(),
        keep_null: options.keep_null(),
        pieces: files.pieces.as_ref(),
    };
    warn::file_warnings(
        options,
        &scoring,
        &files.hyps,
        files.tokens.as_ref(),
        &mut warnings,
    )?;
    // one sentence list for every hypothesis, so that their rows pair up
    let numbers = sentence_numbers(std::iter::once(&files.gold).chain(&files.hyps));
    let (numbers, selected) = select(&selection, numbers, sentences, files.tokens.as_ref());
    crate::select::check_kept_unless_part(&selection, &selected, common.is_part())?;
    let sentences = if selection.is_all() {
        sentences
    } else {
        selected.kept
    };
    let scored = Scored::of(&scoring, &files.hyps, sentences, &numbers, common, warnings);
    let sel = (&selection, &selected);
    let all = (&files.gold, &files.hyps[..], &scored.totals[..]);
    check_scored(
        all,
        scoring.keep_null,
        sel,
        options.compat,
        common.is_part(),
    )?;
    write_records(options, inputs, common, &scored.per_hyp, &numbers)?;
    let mut ev = finish(options, common, &files, &scored, (&numbers, sel))?;
    ev.state = ev.state.map(|st| st.with_inputs(inputs.identity()));
    ev.report.warnings.extend(inputs.gold_copies());
    Ok(ev)
}

/// Every hypothesis' rows and sums, the other readings a state records, the warnings
/// found while reading (which the state keeps) and all the warnings.
struct Scored {
    per_hyp: Vec<Vec<AlignCounts>>,
    totals: Vec<AlignCounts>,
    sentences: u64,
    readings: Vec<Vec<Reading>>,
    read: Vec<Warning>,
    warnings: Vec<Warning>,
}

impl Scored {
    fn of(
        scoring: &read::Scoring<'_>,
        hyps: &[AlignmentFile],
        sentences: u64,
        numbers: &[u64],
        common: &Common,
        mut warnings: Vec<Warning>,
    ) -> Self {
        let per_hyp: Vec<Vec<AlignCounts>> = hyps
            .iter()
            .map(|h| count_files(scoring.gold, h, scoring.keep_null, numbers))
            .collect();
        let read = warnings.clone();
        let readings: Vec<Vec<Reading>> = if common.state {
            hyps.iter()
                .map(|h| warn::other_readings(scoring, h))
                .collect()
        } else {
            Vec::new()
        };
        let totals = totals(
            scoring,
            (hyps, &per_hyp),
            sentences,
            &readings,
            &mut warnings,
        );
        Scored {
            per_hyp,
            totals,
            sentences,
            readings,
            read,
            warnings,
        }
    }
}

/// The state, the report and the compat text of a scored run.
fn finish(
    options: &Options,
    common: &Common,
    files: &Read,
    s: &Scored,
    (numbers, (selection, selected)): (&[u64], (&Selection, &SelectionCounts)),
) -> Result<Evaluation> {
    let mut gold_counts = sum(&s.per_hyp.first().cloned().unwrap_or_default());
    gold_counts.sentences = s.sentences;
    let e = AlignIn {
        gold: &files.gold,
        hyps: &files.hyps,
        per_hyp: &s.per_hyp,
        totals: &s.totals,
        gold_counts: &gold_counts,
        f_alpha: options.f_alpha.unwrap_or(0.5),
        keep_null: options.keep_null(),
    };
    let subwords = files.pieces.as_ref().map(|p| subwords_of(p, &files.hyps));
    let paths: Vec<&str> = files.hyps.iter().map(|h| &*h.path).collect();
    common.check_names(paths.len(), "system")?;
    let names = common.system_names(&paths);
    let state = common.state.then(|| {
        let st = (s.readings.clone(), subwords.clone(), s.read.clone());
        state(options, common, &e, s.sentences, st)
            .with_selection(selection, selected)
            .with_names(names.clone(), !common.names.is_empty())
    });
    let p = Present {
        common,
        test_metrics: &options.test_metrics,
        sentences: options.sentences,
    };
    let mut report = present(&p, &e, s.warnings.clone());
    let unit = (LENGTH_UNIT, files.tokens.is_some());
    crate::select::record(&mut report, selection, selected, unit, common.is_part())?;
    if let Some(sw) = &subwords {
        subword_notes(&mut report, sw, &files.hyps);
    }
    extras(common, &mut report, &e, numbers, files.tokens.as_ref());
    let text = match options.compat {
        Some(Compat::AerPy) => Some(aer_py_text(options, &e, &report)?),
        Some(Compat::WaEvalAlign) => Some(wa_eval_text(&e, &mut report)),
        None => None,
    };
    report.name_systems(&names);
    Ok(Evaluation::new(report, state, text))
}

/// Usage errors: option values, tests without two hypotheses, McNemar, lengths without
/// the tokens, a state with compat or with `sent_id`, standard input twice.
fn check(options: &Options, inputs: &Inputs, common: &Common) -> Result<()> {
    let f_alpha = options.f_alpha.unwrap_or(0.5);
    if options.sentences == Some(0) {
        return Err(Error::Usage(
            "--sentences must be at least 1 (the gold must have a sentence)".into(),
        ));
    }
    if !(0.0..=1.0).contains(&f_alpha) {
        return Err(Error::Usage(format!(
            "--f-alpha must be between 0 and 1, found {f_alpha}"
        )));
    }
    check_bases(options.gold_base, options.hyp_base)?;
    inputs.display_names(common)?;
    if options.tokens.len() % 2 == 1 || options.tokens.len() > 2 {
        return Err(Error::Usage("--tokens: give two files, SRC and TGT".into()));
    }
    if options.hyp_subwords.len() % 2 == 1 || options.hyp_subwords.len() > 2 {
        return Err(Error::Usage(
            "--hyp-subwords: give two files, SRC_PIECES and TGT_PIECES".into(),
        ));
    }
    if !common.test.is_empty() && inputs.systems.len() < 2 {
        return Err(Error::Usage(
            "--test compares systems: give at least two hypothesis files".into(),
        ));
    }
    if common.test.contains(&Test::Mcnemar) {
        return Err(Error::Usage(format!("--test mcnemar {NO_MCNEMAR}")));
    }
    if (common.min_len.is_some() || common.max_len.is_some()) && options.tokens.is_empty() {
        return Err(Error::Usage(
            "--min-len and --max-len count the words of a sentence pair's source side, which an alignment file does not hold\n  hint: give the words with --tokens SRC TGT (one sentence per line)".into(),
        ));
    }
    if common.state {
        if options.compat.is_some() {
            return Err(Error::Usage(
                "--emit-state records the counts of treeval's report; --compat prints a reference script's lines: drop one of the two".into(),
            ));
        }
        crate::select::refuse_numbered_ids(common, "a sentence pair")?;
    }
    inputs.check_stdin()
}

/// A usage error for an index base other than 0 or 1.
pub(crate) fn check_bases(gold: Option<u32>, hyp: Option<u32>) -> Result<()> {
    for (flag, base) in [("--gold-base", gold), ("--hyp-base", hyp)] {
        if let Some(b) = base.filter(|&b| b > 1) {
            return Err(Error::Usage(format!(
                "{flag}: expected an index base of 0 or 1, found {b}"
            )));
        }
    }
    Ok(())
}

/// Every hypothesis' sums over the `sentences` sentence pairs (from its rows), and the
/// warnings about them (an AER close to 1 with the best of its `readings`, made here when
/// not given).
fn totals(
    scoring: &read::Scoring<'_>,
    (hyps, per_hyp): (&[AlignmentFile], &[Vec<AlignCounts>]),
    sentences: u64,
    readings: &[Vec<Reading>],
    warnings: &mut Vec<Warning>,
) -> Vec<AlignCounts> {
    let mut totals = Vec::new();
    for (k, (h, rows)) in hyps.iter().zip(per_hyp).enumerate() {
        let mut t = sum(rows);
        t.sentences = sentences;
        let other = || match readings.get(k) {
            Some(r) => r.clone(),
            None => warn::other_readings(scoring, h),
        };
        hyp_warnings(&h.path, scoring.keep_null, &t, &other, warnings);
        totals.push(t);
    }
    totals
}

/// The state of the evaluation `e` over `sentences` sentence pairs; `st`: the
/// hypotheses' other readings, the subword projection, and the warnings found while
/// reading.
fn state(
    options: &Options,
    common: &Common,
    e: &AlignIn<'_>,
    sentences: u64,
    st: (Vec<Vec<Reading>>, Option<AlignSubwords>, Vec<Warning>),
) -> State {
    let (readings, subwords, warnings) = st;
    let file = |f: &AlignmentFile| AlignFileState {
        path: f.path.to_string(),
        format: f.format.name().to_owned(),
    };
    let s = AlignState {
        gold: file(e.gold),
        hyps: e.hyps.iter().map(file).collect(),
        pairs: sentences,
        numbers: (e.gold.sentences.keys().next().copied())
            .zip(e.gold.sentences.keys().next_back().copied()),
        units: e.per_hyp.iter().map(|r| sum(r)).collect(),
        readings,
        subwords,
        warnings,
        sentences: common.keeps_sentences().then(|| e.per_hyp.to_vec()),
    };
    let options = AlignStateOptions {
        gold_base: options.gold_base,
        hyp_base: options.hyp_base,
        reverse: options.reverse,
        reverse_gold: options.reverse_gold,
        sentences_given: options.sentences.is_some(),
        null: StateNull::of(e.keep_null),
        f_alpha: e.f_alpha,
        gold_format: s.gold.format.clone(),
        hyp_formats: s.hyps.iter().map(|h| h.format.clone()).collect(),
        subwords: s.subwords.as_ref().map(|w| w.conventions.clone()),
    };
    State::of_align(options, s)
}

/// What the report holds when asked: the `errors` listings and the HTML page's sentences.
fn extras(
    common: &Common,
    report: &mut Report,
    e: &AlignIn<'_>,
    numbers: &[u64],
    tokens: Option<&Tokens>,
) {
    if common.errors {
        let list =
            |(k, h)| treeval_report::errors::align_errors(k, (e.gold, h), numbers, e.keep_null);
        report.listings = e.hyps.iter().enumerate().map(list).collect();
    }
    if let Some(limit) = common.page_sentences {
        let src = browse::AlignSources {
            gold: e.gold,
            hyps: e.hyps,
            numbers,
            per_hyp: e.per_hyp,
            tokens,
        };
        report.browser = Some(browse::browser(&src, limit));
    }
}

/// The per-sentence records: one per sentence and hypothesis.
fn write_records(
    options: &Options,
    inputs: &Inputs,
    common: &Common,
    per_hyp: &[Vec<AlignCounts>],
    numbers: &[u64],
) -> Result<()> {
    if common.per_sentence.is_none() {
        return Ok(());
    }
    let roles: Vec<(&str, &str)> = (inputs.roles().into_iter())
        .chain(options.tokens.iter().map(|s| (role::TOKENS, s.name())))
        .chain(
            options
                .hyp_subwords
                .iter()
                .map(|s| (role::SYSTEM_SUBWORDS, s.name())),
        )
        .collect();
    let mut records = Records::open(common.per_sentence.as_ref(), "align", &roles);
    for (k, rows) in per_hyp.iter().enumerate() {
        for (i, c) in rows.iter().enumerate() {
            records.write(&Record::of(numbers[i], k, c).extra_beyond_counts("link_counts", c));
        }
    }
    records.finish()
}

/// The sentence numbers the selection keeps, and its counts over the gold's `sentences`
/// sentence pairs (ids: their numbers; lengths: their source words, from `tokens`).
fn select(
    sel: &Selection,
    numbers: Vec<u64>,
    sentences: u64,
    tokens: Option<&Tokens>,
) -> (Vec<u64>, SelectionCounts) {
    let len = |n: u64| -> u64 {
        let line = usize::try_from(n).ok().and_then(|n| n.checked_sub(1));
        let words = tokens.and_then(|t| line.and_then(|i| t[0].get(i)));
        words.map_or(0, |w| w.len() as u64)
    };
    let mut counts = sel.counts();
    for n in 1..=sentences {
        sel.tally(&mut counts, None, n, len(n), len(n));
    }
    let kept = numbers
        .into_iter()
        .filter(|&n| sel.verdict(None, n, len(n)).kept())
        .collect();
    (kept, counts)
}

/// The pieces files of `hyp_subwords`, their conventions and the word links of every
/// hypothesis after the projection.
fn subwords_of(p: &[PieceFile; 2], hyps: &[AlignmentFile]) -> AlignSubwords {
    AlignSubwords {
        paths: [p[0].path.to_string(), p[1].path.to_string()],
        conventions: [
            p[0].convention.name().to_owned(),
            p[1].convention.name().to_owned(),
        ],
        links: hyps.iter().map(|h| h.link_count()).collect(),
    }
}

/// The report's convention, signature part and note for `hyp_subwords` (the run's, and a
/// merge's).
pub fn subword_notes(r: &mut Report, p: &AlignSubwords, hyps: &[AlignmentFile]) {
    let [c0, c1] = &p.conventions;
    let conv = if c0 == c1 {
        c0.clone()
    } else {
        format!("{c0}/{c1}")
    };
    r.signature.push("subwords", conv.clone());
    r.convention("subwords", &conv);
    let links: Vec<String> = hyps
        .iter()
        .zip(&p.links)
        .map(|(h, n)| format!("{}: {n} word link(s)", h.path))
        .collect();
    r.notes.push(format!(
        "hypotheses aligned over subword pieces ({} {c0}, {} {c1}), projected onto words (a word pair is linked if any of its pieces are): {}",
        p.paths[0],
        p.paths[1],
        links.join("; ")
    ));
}

/// aer.py's line for each hypothesis (`compat: aer.py`). Where aer.py stops, an
/// [`Error::Partial`] says why and holds the report's warnings (which explain it), nothing
/// printed.
fn aer_py_text(options: &Options, e: &AlignIn<'_>, report: &Report) -> Result<String> {
    let lines: Vec<std::result::Result<String, String>> = e
        .hyps
        .iter()
        .zip(e.totals)
        .map(|(h, t)| aer_py(&h.path, t, options.f_alpha))
        .collect();
    let failed: Vec<String> = lines.iter().filter_map(|l| l.clone().err()).collect();
    if !failed.is_empty() {
        return Err(Error::Partial {
            printed: String::new(),
            message: failed.join("\n"),
            stderr: String::new(),
            warnings: report.warnings.clone(),
        });
    }
    Ok(lines.into_iter().filter_map(|l| l.ok()).collect())
}

/// wa_eval_align.pl's block for each hypothesis, scored as the script sees the files
/// (`compat: wa_eval_align`), with warnings (into the report) where that differs from
/// the report.
fn wa_eval_text(e: &AlignIn<'_>, report: &mut Report) -> String {
    let (gold, keep_null) = (e.gold, e.keep_null);
    let mut o = String::new();
    for h in e.hyps {
        let (seen, moved) = as_wa_eval_sees_it(gold, h);
        if let Some(k) = moved.first() {
            report.warnings.push(Warning::of(
                WarningKind::SentenceNumbersAsText,
                h.path.to_string(),
                format!(
                    "{} sentence number(s) are written differently from the gold {} (e.g. sentence {k}): wa_eval_align.pl compares them as text and matches no link there, and so does this output (the report matches them by number)",
                    moved.len(),
                    gold.path
                ),
                None,
            ));
        }
        if gold.mixed_ids || h.mixed_ids {
            report.warnings.push(Warning::of(
                WarningKind::MixedSentenceNumbers,
                String::new(),
                format!(
                    "{} or {} writes one sentence number in two ways: wa_eval_align.pl may match fewer links than this output",
                    gold.path, h.path
                ),
                None,
            ));
        }
        let rows = count_files(gold, &seen, keep_null, &sentence_numbers([gold, &seen]));
        o.push_str(&wa_eval_align(&sum(&rows)));
    }
    o
}

/// What an `align` report shows besides the counts (the family's options, or those of
/// `merge`).
#[derive(Debug)]
pub struct Present<'a> {
    /// Significance, selection and output options.
    pub common: &'a Common,
    /// Measures the tests compare.
    pub test_metrics: &'a [String],
    /// `sentences`, as the signature records it.
    pub sentences: Option<u64>,
}

/// The report: the scores of every hypothesis with their intervals, the tests, the notes;
/// made by `evaluate` and, from summed states, by `merge`.
pub fn present(p: &Present<'_>, e: &AlignIn<'_>, warnings: Vec<Warning>) -> Report {
    let mut signature = treeval_report::align::signature(e, p.sentences);
    let cfg = p.common.compare_config();
    if !cfg.tests.is_empty() || p.common.ci.is_some() {
        crate::significance::sign(p.common, &cfg, &mut signature);
    }
    let ci = crate::significance::intervals(p.common);
    let mut r = treeval_report::align::build(signature, e, ci, warnings);
    if !cfg.tests.is_empty() {
        let ms = measures(e.f_alpha);
        let tested: Vec<treeval_report::driver::Tested> = p
            .test_metrics
            .iter()
            .filter_map(|n| ms.iter().find(|m| m.name == n.as_str()))
            .map(|m| (m, None))
            .collect();
        let progress = |l: &str, d, n| p.common.progress(l, d, n);
        (r.comparisons, r.rankings) =
            treeval_report::driver::tests(&tested, e.per_hyp, &cfg, &progress);
    }
    r.significance = crate::significance::settings(p.common, &cfg, p.test_metrics);
    r
}

/// The rule of [`crate::select::nothing_scored`] for every hypothesis (the family's and
/// a merge's, from its `totals`): no link on either side (every link with a NULL side
/// left out, or none at all) leaves nothing to score. `compat` prints what the reference
/// script prints.
pub fn check_scored(
    (gold, hyps, totals): (&AlignmentFile, &[AlignmentFile], &[AlignCounts]),
    keep_null: bool,
    (sel, selected): (&Selection, &SelectionCounts),
    compat: Option<Compat>,
    part: bool,
) -> Result<()> {
    if compat.is_some() {
        return Ok(());
    }
    let gold = &gold.path;
    let each = hyps.iter().zip(totals).map(|(h, t)| {
        let h = &h.path;
        let why = move || {
            let null = t.hyp_null + t.gold_null;
            let (why, lift) = if null > 0 && !keep_null {
                (
                    format!("every link of {gold} and {h} has a NULL side ({null}), and NULL links are left out"),
                    "--null include scores them",
                )
            } else {
                (
                    format!("neither {gold} nor {h} has a link"),
                    "are these the alignment files (is the gold for another corpus)?",
                )
            };
            crate::select::Nothing {
                why: format!("{why} ({} sentence pairs read)", t.sentences),
                lift: lift.to_owned(),
            }
        };
        (t.a + t.p, Box::new(why) as Box<dyn FnOnce() -> _>)
    });
    crate::select::nothing_scored(each, (sel, selected), part)
}
