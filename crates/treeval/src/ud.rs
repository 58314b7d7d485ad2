//! `ud`: the CoNLL 2018 UD metrics (conll18_ud_eval.py v1.2, udeval's ELAS and EULAS)
//! of systems whose tokenization and sentence splitting may differ from the gold
//! standard's, over the word alignment by characters; and the reference scorers'
//! outputs (`compat`).
//!
//! ```no_run
//! let ev = treeval::ud::evaluate(
//!     &treeval::ud::Options::default(),
//!     &treeval::Inputs::new("gold.conllu", ["system.conllu"]),
//!     &treeval::Common::default(),
//! )?;
//! if let Some(las) = ev.report.cell("LAS", 0) {
//!     println!("LAS {:?} = {:?}", las.counts, las.value);
//! }
//! # Ok::<(), treeval::Error>(())
//! ```

mod read;

use serde::{Deserialize, Serialize};
use treeval_formats::Reference;
use treeval_metrics::deps::filter::Where;
use treeval_metrics::select::SelectionCounts;
use treeval_metrics::ud::{self as metrics, Enhancements, UdMetric, UdOptions};
use treeval_metrics::{ByKey, LabelMode};
use treeval_report::model::{Warning, WarningKind};
use treeval_report::records::Record;
use treeval_report::ud::{UdCompat, UdFileOut, UdShown, UdSystemIn};
use treeval_report::{Report, Signature};

use crate::records::Records;
use crate::{Common, Error, Evaluation, Inputs, Result};

pub use read::reader_warnings;
pub(crate) use read::{dependency_input, detected_format, explain, gold_sent_ids, input};

/// Reference-script output to reproduce byte for byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Compat {
    /// `conll18_ud_eval.py`: its three lines LAS, MLAS and BLEX F1 (with -v: its `-v`
    /// table); files are checked only as the script checks them, DEPS not at all.
    Conll18,
    /// The table of `conll18_ud_eval.py -c` (raw counts).
    #[cfg_attr(feature = "clap", value(name = "conll18-counts"))]
    Conll18Counts,
    /// `udeval`: its five lines LAS, MLAS, BLEX, ELAS and EULAS F1 (with -v: its `-v`
    /// table); empty nodes as udeval's own (--empty-nodes drop) unless --empty-nodes is given.
    Udeval,
    /// The table of `udeval -c`.
    #[cfg_attr(feature = "clap", value(name = "udeval-counts"))]
    UdevalCounts,
}

impl Compat {
    /// Whether the tool is udeval (else conll18_ud_eval.py).
    fn is_udeval(self) -> bool {
        matches!(self, Compat::Udeval | Compat::UdevalCounts)
    }
}

/// How empty nodes enter ELAS and EULAS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum EmptyNodes {
    /// Paths through empty nodes become items labelled `conj>nsubj` (identical to the UD
    /// collapser followed by iwpt20_xud_eval.py or udeval).
    Collapse,
    /// Items whose head is an empty node are left out and counted (identical to udeval on
    /// files that were not collapsed).
    Drop,
    /// An empty node is an error (udeval --no-empty-nodes).
    Error,
}

impl From<EmptyNodes> for metrics::EmptyNodes {
    fn from(a: EmptyNodes) -> Self {
        match a {
            EmptyNodes::Collapse => Self::Collapse,
            EmptyNodes::Drop => Self::Drop,
            EmptyNodes::Error => Self::Error,
        }
    }
}

/// What `ud` and `relations` do when the two texts differ.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Align {
    /// Stop with an error that names both lines and shows the first differing characters
    /// (the reference scorers' behaviour).
    #[default]
    Strict,
    /// Find where the texts agree again (a diff over characters), score the words of every
    /// differing stretch as unaligned, and list each mismatch window with its lines,
    /// characters and likely cause.
    Resync,
}

impl From<Align> for metrics::AlignMode {
    fn from(a: Align) -> Self {
        match a {
            Align::Strict => Self::Strict,
            Align::Resync => Self::Resync,
        }
    }
}

/// The options of `ud`. `Default` is the command line's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Accept sentences with several roots (as udeval's option).
    pub multiple_roots_okay: bool,
    /// When the texts differ: stop (`strict`) or resynchronise (`resync`).
    pub align: Align,
    /// How empty nodes enter ELAS and EULAS (`collapse`; `drop` with udeval's `compat`).
    pub empty_nodes: Option<EmptyNodes>,
    /// Enhancement types not evaluated, as udeval's `--enhancements` (`0`: all).
    pub enhancements: String,
    /// Make a reference scorer's output (the evaluation's `text`).
    pub compat: Option<Compat>,
    /// With `compat` conll18 or udeval: the script's `-v` table.
    pub verbose: bool,
    /// Per-relation precision, recall and F1 in the text formats.
    pub per_relation: bool,
    /// Breakdowns over the word alignment (`deprel`, `upos`, …).
    pub by: Vec<ByKey>,
    /// Metrics (F1 of their counts) the tests compare and `ci` puts intervals on.
    pub test_metrics: Vec<String>,
}

/// The measures `ud` tests by default.
pub const DEFAULT_TEST_METRICS: [&str; 3] = ["LAS", "MLAS", "BLEX"];

impl Default for Options {
    fn default() -> Self {
        Options {
            multiple_roots_okay: false,
            align: Align::Strict,
            empty_nodes: None,
            enhancements: "0".into(),
            compat: None,
            verbose: false,
            per_relation: false,
            by: Vec::new(),
            test_metrics: DEFAULT_TEST_METRICS.map(String::from).to_vec(),
        }
    }
}

impl Options {
    /// How empty nodes are handled: as given, else udeval's own (drop) when reproducing
    /// udeval, else collapse.
    pub fn empty_nodes(&self) -> metrics::EmptyNodes {
        match self.empty_nodes {
            Some(e) => e.into(),
            None if self.compat.is_some_and(Compat::is_udeval) => metrics::EmptyNodes::Drop,
            None => metrics::EmptyNodes::Collapse,
        }
    }

    /// The note of a run that reproduces udeval with another handling of empty nodes
    /// than udeval's own (also in the report's notes).
    pub fn note(&self) -> Option<String> {
        let e = self.empty_nodes();
        (self.compat.is_some_and(Compat::is_udeval) && e != metrics::EmptyNodes::Drop).then(|| {
            format!(
                "--empty-nodes {} differs from udeval's own handling of these files (drop)",
                e.name()
            )
        })
    }

    /// The report's tool output asked for, if any.
    fn compat_mode(&self) -> Option<UdCompat> {
        self.compat.map(|c| match (c, self.verbose) {
            (Compat::Conll18, false) => UdCompat::Conll18,
            (Compat::Conll18, true) => UdCompat::Conll18Verbose,
            (Compat::Conll18Counts, _) => UdCompat::Conll18Counts,
            (Compat::Udeval, false) => UdCompat::Udeval,
            (Compat::Udeval, true) => UdCompat::UdevalVerbose,
            (Compat::UdevalCounts, _) => UdCompat::UdevalCounts,
        })
    }

    /// Whether the report is an HTML page (with its charts and sentence browser).
    fn page(&self, common: &Common) -> bool {
        common.page_sentences.is_some() && self.compat.is_none()
    }

    /// The scorer's options (`where` and the selection still to be filled in). Compat
    /// modes reproduce the tool without extra options: udeval leaves out the DEPS items
    /// into empty nodes (drop).
    fn metrics_options(&self, common: &Common, enhancements: Enhancements) -> UdOptions {
        let page = self.page(common);
        UdOptions {
            multiple_roots_okay: self.multiple_roots_okay,
            empty_nodes: self.empty_nodes(),
            enhancements,
            keep_sentences: common.keeps_sentences() || common.per_sentence.is_some(),
            align: self.align.into(),
            by: if self.by.is_empty() && page {
                PAGE_BY.to_vec()
            } else {
                self.by.clone()
            },
            relation_sets: false,
            skip_enhanced: matches!(self.compat, Some(Compat::Conll18 | Compat::Conll18Counts)),
            // `errors` lists every sentence's words; the page samples them
            trace: match (
                common.errors && self.compat.is_none(),
                common.page_sentences,
            ) {
                (true, _) => Some(0),
                (false, limit) => limit.filter(|_| page),
            },
            relation_triples: None,
            filter: Default::default(),
            selection: Default::default(),
        }
    }
}

/// The breakdowns the HTML page adds when `by` is not given.
const PAGE_BY: [ByKey; 3] = [ByKey::Distance, ByKey::Length, ByKey::Depth];

/// Why `ud` refuses McNemar's test.
const NO_MCNEMAR: &str = "needs paired per-word decisions, which ud does not have when tokenizations differ; use --test ar or --test bootstrap";

/// Usage errors of the tests: McNemar (no paired words), fewer than two systems.
pub fn check_tests(common: &Common, systems: usize) -> Result<()> {
    crate::significance::resampling_config(common, systems, "system files", NO_MCNEMAR)?;
    Ok(())
}

/// Evaluate `inputs.systems` against `inputs.gold`.
///
/// The report holds the scores, intervals, tests and notes; with `common.state` the
/// evaluation carries its state; with `options.compat` it carries the reference
/// scorer's text, to print instead of the report (the report is still made).
pub fn evaluate(options: &Options, inputs: &Inputs, common: &Common) -> Result<Evaluation> {
    common.validate()?;
    let tested = crate::measures::test_metrics(
        treeval_metrics::ud::measures::metric_measures,
        &options.test_metrics,
    )?;
    let options = &Options {
        test_metrics: tested,
        ..options.clone()
    };
    let enhancements = check(options, inputs, common)?;
    let names = inputs.display_names(common)?;
    let mut opts = options.metrics_options(common, enhancements);
    opts.filter = where_filter(common)?;
    opts.selection = crate::select::selection(common)?;
    let s = score(options, inputs, &opts)?;
    crate::select::check_kept_unless_part(&opts.selection, &s.selected, common.is_part())?;
    let scored = (&s.gold, &s.systems[..], &s.selected);
    check_scored(&opts, &s.systems, (&s.gold, &s.selected), common.is_part())?;
    let ids = needs_ids(&opts, common).then(|| gold_sent_ids(&inputs.gold));
    let ids = ids.unwrap_or_default();
    write_records(common, inputs, &s, &ids)?;
    let warnings = reader_warnings(&s.diagnostics);
    let state = common.state.then(|| {
        state(&opts, common, scored, &warnings)
            .with_names(names.clone(), !common.names.is_empty())
            .with_inputs(inputs.identity())
    });
    let p = Present {
        common,
        per_relation: options.per_relation || options.page(common),
        test_metrics: &options.test_metrics,
    };
    let mut report = present(&p, &opts, signature(options, &opts), scored, warnings)?;
    report.warnings.extend(options.note().map(|n| {
        let hint = "without --empty-nodes, --compat udeval prints udeval's own numbers";
        Warning::of(WarningKind::CompatNote, "", n, Some(hint.into()))
    }));
    for sys in &s.systems {
        let windows = sys.resync.as_deref();
        (report.warnings).extend(treeval_report::ud::resync_warning(&sys.file.path, windows));
    }
    additions(options, common, (&opts, &s, &ids), &mut report);
    report.name_systems(&names);
    report.warnings.extend(inputs.gold_copies());
    let text = options
        .compat_mode()
        .map(|c| treeval_report::ud::compat_text(&s.systems, c));
    Ok(Evaluation::new(report, state, text))
}

/// Whether the gold sentences' ids are read again: for per-sentence records, the HTML
/// page and the `errors` listing.
fn needs_ids(opts: &UdOptions, common: &Common) -> bool {
    common.per_sentence.is_some() || opts.trace.is_some()
}

/// What the HTML page and `errors` add to the report: the page's note and sentence
/// browser, the listing of every wrong word.
fn additions(
    options: &Options,
    common: &Common,
    (opts, s, ids): (&UdOptions, &Scored, &[Option<String>]),
    report: &mut Report,
) {
    if opts.trace.is_none() {
        return;
    }
    if let (true, Some(limit)) = (options.page(common), common.page_sentences) {
        report.notes.extend(page_note(options));
        // the page is about the sentences the selection kept
        let total = if opts.selection.is_all() {
            s.gold.sentences
        } else {
            s.selected.kept
        };
        report.browser = Some(browser(&s.systems, ids, total, limit));
    }
    if common.errors {
        let words = s
            .systems
            .iter()
            .enumerate()
            .map(|(k, s)| treeval_report::errors::ud_errors(k, &s.trace, &s.trace_labels, ids));
        report.listings = treeval_report::errors::with_wrong_arcs(words.collect());
    }
}

/// Usage errors: a state with `compat` or `align: resync`, bad `enhancements`, no
/// system, a gold file on standard input with several systems, the tests. The
/// enhancement types not evaluated.
fn check(options: &Options, inputs: &Inputs, common: &Common) -> Result<Enhancements> {
    if common.state && options.compat.is_some() {
        return Err(Error::Usage(
            "--emit-state records the counts of treeval's report; --compat prints a reference scorer's lines: drop one of the two".into(),
        ));
    }
    check_state(options.align, common)?;
    let enhancements = Enhancements::parse(&options.enhancements)
        .map_err(|e| Error::Usage(format!("--enhancements: {e}")))?;
    if inputs.systems.is_empty() {
        return Err(Error::Usage("give at least one system file".into()));
    }
    if inputs.gold.is_stdin() && inputs.systems.len() > 1 {
        return Err(Error::Usage(
            "a gold file on standard input can be scored against one system only (ud reads the gold file once per system)".into(),
        ));
    }
    check_tests(common, inputs.systems.len())?;
    Ok(enhancements)
}

/// A state records the counts of a report: not with `align: resync` (its windows are
/// found in each shard's text).
pub(crate) fn check_state(align: Align, common: &Common) -> Result<()> {
    if common.state && align == Align::Resync {
        return Err(Error::Usage(
            "--emit-state with --align resync: the mismatch windows are found in each shard's text and would not add up to the whole corpus's; merge shards evaluated with --align strict".into(),
        ));
    }
    Ok(())
}

/// The `where` conditions: on gold words only, relations compared by their universal
/// part (as every `ud` score).
fn where_filter(common: &Common) -> Result<Where> {
    let w = Where::all(&common.where_, LabelMode::Universal)
        .map_err(|e| Error::Usage(format!("--where: {e}")))?;
    if w.has_system_side() {
        return Err(Error::Usage(format!(
            "--where {}: ud takes conditions on gold words only (KEY or gold.KEY); the system words counted are those aligned to the gold words kept\n  hint: for conditions on the system's analysis, `treeval deps` scores files with gold's words by position",
            w.describe()
        )));
    }
    Ok(w)
}

/// Every system scored against the gold: the systems, their readers' warnings, the gold
/// file's description, and the sentence selection's counts with the numbers of the gold
/// sentences kept (the same for every system: the gold decides).
struct Scored {
    systems: Vec<UdSystemIn>,
    diagnostics: Vec<treeval_formats::Diagnostic>,
    gold: UdFileOut,
    selected: SelectionCounts,
    numbers: Vec<u64>,
}

/// Score every system against the gold; all failures together.
fn score(options: &Options, inputs: &Inputs, opts: &UdOptions) -> Result<Scored> {
    // `compat` reads the files as the scorer whose output it prints reads them
    let reference = options.compat.map(|c| {
        if c.is_udeval() {
            Reference::Udeval
        } else {
            Reference::Conll18
        }
    });
    let gold_name = inputs.gold.name();
    let gold = input(&inputs.gold, reference);
    let mut s = Scored {
        systems: Vec::new(),
        diagnostics: Vec::new(),
        gold: UdFileOut::new(gold_name, &Default::default()),
        selected: SelectionCounts::default(),
        numbers: Vec::new(),
    };
    let mut failures = Vec::new();
    for sys in &inputs.systems {
        match metrics::evaluate(&gold, &input(sys, reference), opts) {
            Ok(r) => {
                if s.systems.is_empty() {
                    s.gold = UdFileOut::new(gold_name, &r.gold);
                    s.selected = r.selection.clone();
                    s.numbers = r.numbers.clone();
                }
                let columns = r
                    .gold_columns_warning
                    .iter()
                    .chain(&r.system_columns_warning);
                s.diagnostics
                    .extend(r.warnings.iter().chain(columns).cloned());
                s.systems.push(UdSystemIn {
                    file: UdFileOut::new(sys.name(), &r.system),
                    counts: r.counts,
                    relations: r.relations,
                    by: r.by,
                    resync: r.resync,
                    sentences: r.sentences,
                    trace: r.trace,
                    trace_labels: r.trace_labels,
                });
            }
            Err(e) => failures.push(explain(e, gold_name, sys.name())),
        }
    }
    if !failures.is_empty() {
        return Err(Error::Eval(failures.join("\n")));
    }
    Ok(s)
}

/// One record per gold sentence and system; system words count toward the gold sentence
/// their first character lies in.
fn write_records(
    common: &Common,
    inputs: &Inputs,
    s: &Scored,
    ids: &[Option<String>],
) -> Result<()> {
    let roles = inputs.roles();
    let mut records = Records::open(common.per_sentence.as_ref(), "ud", &roles);
    if records.is_on() {
        for (k, sys) in s.systems.iter().enumerate() {
            for (&i, c) in s.numbers.iter().zip(&sys.sentences) {
                let id = (ids.get((i as usize).wrapping_sub(1))).and_then(Option::as_deref);
                records.write(&Record::of(i, k, c).sent_id(id));
            }
        }
    }
    records.finish()
}

/// The state: the reading's warnings without the gold- and system-columns warnings,
/// which a merge makes again from the summed counts.
fn state(
    opts: &UdOptions,
    common: &Common,
    (gold, systems, selected): ScoredRef<'_>,
    warnings: &[Warning],
) -> crate::State {
    let columns: Vec<Warning> = metrics::gold_columns_warning(&gold.stats, &gold.path)
        .into_iter()
        .chain(systems.iter().filter_map(|s| {
            metrics::system_columns_warning(&s.file.stats, &gold.stats, &s.file.path)
        }))
        .map(|d| Warning::from(&d))
        .collect();
    let read: Vec<Warning> = warnings
        .iter()
        .filter(|w| !columns.contains(w))
        .cloned()
        .collect();
    crate::State::of_ud(opts, &common.where_, gold, systems, read)
        .with_selection(&opts.selection, selected)
}

/// The signature of the scoring conventions (and of the reference tool reproduced).
fn signature(options: &Options, opts: &UdOptions) -> Signature {
    let empty_nodes_sig = match (options.compat, options.empty_nodes) {
        (Some(c), Some(_)) if c.is_udeval() => format!("{}(given)", opts.empty_nodes.name()),
        _ => opts.empty_nodes.name().to_owned(),
    };
    let mut signature = conventions(opts, empty_nodes_sig);
    if let Some(c) = options.compat {
        let tool = if c.is_udeval() { "udeval" } else { "conll18" };
        signature.push("compat", tool.into());
    }
    signature
}

/// The signature of the scoring conventions (`empty_nodes_sig`: how the empty-node
/// handling is named), shared by `ud` and `merge`.
pub fn conventions(opts: &UdOptions, empty_nodes_sig: String) -> Signature {
    let roots = if opts.multiple_roots_okay {
        "many"
    } else {
        "one"
    };
    let mut signature = Signature::new(
        "ud",
        &[
            ("labels", "universal".into()),
            ("align", opts.align.name().into()),
            ("empty-nodes", empty_nodes_sig),
            ("enhancements", opts.enhancements.digits()),
            ("roots", roots.into()),
        ],
    );
    if !opts.filter.is_empty() {
        signature.push("where", opts.filter.name());
    }
    signature
}

/// What the HTML page added to the report, as a note.
fn page_note(options: &Options) -> Option<String> {
    let mut added = Vec::new();
    if !options.per_relation {
        added.push("per-relation scores (--per-relation)".to_owned());
    }
    if options.by.is_empty() {
        added.push("breakdowns by distance, length and depth (--by)".to_owned());
    }
    crate::common::page_note(&added)
}

/// The sentence browser's data: every system's trace over the gold words, with the gold
/// sentences' sent_ids.
fn browser(
    systems: &[UdSystemIn],
    ids: &[Option<String>],
    total: u64,
    limit: usize,
) -> treeval_report::browse::Browser {
    use treeval_report::browse::ud::{browser, Traced};
    let traced: Vec<Traced<'_>> = systems
        .iter()
        .map(|s| Traced {
            name: &s.file.path,
            sentences: &s.trace,
            labels: &s.trace_labels,
        })
        .collect();
    browser(&traced, ids, total, limit)
}

/// How a `ud` result is shown (from `ud`'s options, or `merge`'s).
#[derive(Debug)]
pub struct Present<'a> {
    /// Significance, selection and output options.
    pub common: &'a Common,
    /// Per-relation tables.
    pub per_relation: bool,
    /// Metrics the tests compare.
    pub test_metrics: &'a [String],
}

/// The gold file, the systems and the sentence selection's counts.
pub type ScoredRef<'a> = (&'a UdFileOut, &'a [UdSystemIn], &'a SelectionCounts);

/// The report of scored systems: signed, built, with `where`, the selection and the
/// tests (the part shared by `ud` and `merge`, so a merged report is made by the same
/// code).
pub fn present(
    p: &Present,
    opts: &UdOptions,
    mut signature: Signature,
    (gold, systems, selected): ScoredRef<'_>,
    warnings: Vec<Warning>,
) -> Result<Report> {
    let cfg = p.common.compare_config();
    let resample = !cfg.tests.is_empty() || p.common.ci.is_some();
    if resample {
        crate::significance::sign(p.common, &cfg, &mut signature);
        signature.push("test-metrics", p.test_metrics.join(","));
    }
    let shown = UdShown {
        per_relation: p.per_relation,
        ci: crate::significance::intervals(p.common),
    };
    let mut report = treeval_report::ud::build(signature, gold, systems, shown, warnings);
    treeval_report::ud::add_where(&mut report, &opts.filter, gold, systems);
    let unit = ("syntactic words", true);
    crate::select::record(
        &mut report,
        &opts.selection,
        selected,
        unit,
        p.common.is_part(),
    )?;
    if !cfg.tests.is_empty() {
        let tested: Vec<treeval_metrics::measure::Measure> = p
            .test_metrics
            .iter()
            .filter_map(|m| UdMetric::parse(m).map(treeval_metrics::ud::measures::f1_of))
            .collect();
        let with: Vec<treeval_report::driver::Tested> = tested.iter().map(|m| (m, None)).collect();
        let units: Vec<Vec<metrics::UdCounts>> =
            systems.iter().map(|s| s.sentences.clone()).collect();
        (report.comparisons, report.rankings) =
            treeval_report::driver::tests(&with, &units, &cfg, &|l, d, t| {
                p.common.progress(l, d, t)
            });
    }
    report.significance = crate::significance::settings(p.common, &cfg, p.test_metrics);
    Ok(report)
}

/// The rule of [`crate::select::nothing_scored`] for every system (`ud`'s and a
/// merge's): `where` that keeps no gold word leaves nothing to score. (Without `where`
/// every gold word is scored: a gold file without words is an error of its own.)
pub fn check_scored(
    opts: &UdOptions,
    systems: &[UdSystemIn],
    (gold, selected): (&UdFileOut, &SelectionCounts),
    part: bool,
) -> Result<()> {
    if opts.filter.is_empty() {
        return Ok(());
    }
    let each = systems.iter().map(|s| {
        let why = move || crate::select::Nothing {
            why: format!(
                "--where {} keeps none of the {} gold words {} is scored on",
                opts.filter.describe(),
                gold.words,
                s.file.path
            ),
            lift: "widen or drop --where (--by and --per-relation show which groups there are)"
                .into(),
        };
        let kept = s.counts.metrics[UdMetric::Words].gold;
        (kept, Box::new(why) as Box<dyn FnOnce() -> _>)
    });
    crate::select::nothing_scored(each, (&opts.selection, selected), part)
}
