//! `deps`: attachment scores (LAS, UAS, LA, exact match, per relation, breakdowns) of
//! systems against a gold standard with the same words, and the reference scripts'
//! outputs (eval07.pl, eval.pl, eval09.pl).
//!
//! ```no_run
//! let ev = treeval::deps::evaluate(
//!     &treeval::deps::Options::default(),
//!     &treeval::Inputs::new("gold.conllu", ["system.conllu"]),
//!     &treeval::Common::default(),
//! )?;
//! if let Some(las) = ev.report.cell("LAS", 0) {
//!     println!("LAS {:?} = {:?}", las.counts, las.value);
//! }
//! # Ok::<(), treeval::Error>(())
//! ```

use serde::{Deserialize, Serialize};
use treeval_formats::{Conll09Columns, Format, ReaderBuilder};
use treeval_metrics::deps::filter::Where;
use treeval_metrics::deps::{evaluate_counts, DepsResult, Input as ReadInput};
use treeval_metrics::{ByKey, DepsOptions, LabelMode, PunctPolicy};
use treeval_report::model::{Warning, WarningKind};
use treeval_report::Report;

use crate::records::Records;
use crate::{Common, Error, Evaluation, Inputs, Result, Test};

/// Conventions bundles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// Score every word, full labels: eval07.pl default and MaltEval default.
    Conll07,
    /// Skip words whose gold FORM is all Unicode punctuation, full labels: eval.pl
    /// default and eval07.pl -p.
    Conllx,
}

/// Label comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Labels {
    /// Compare the full DEPREL string (eval07.pl, eval.pl, MaltEval).
    Full,
    /// Compare the part before the first ':' (obl:arg = obl), as conll18_ud_eval.py.
    Universal,
}

/// Reference-script output to reproduce byte for byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Compat {
    /// The three summary lines of `eval07.pl -q` (implies --profile conll07 unless given).
    Eval07,
    /// The three summary lines of `eval.pl -q` (implies --profile conllx unless given).
    Evalpl,
    /// The output of `eval09.pl -q` (CoNLL-2009 files only; implies --profile conll07
    /// unless given; --profile conllx = `eval09.pl -q -p`). Files with predicates (a PRED
    /// value): only the SYNTACTIC SCORES block, as treeval does not score semantic roles.
    Eval09,
}

/// Input formats (normally detected from the content).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum InputFormat {
    /// CoNLL-U (Universal Dependencies v2).
    Conllu,
    /// CoNLL-X / CoNLL 2007 (10 columns).
    Conllx,
    /// CoNLL-2009 (14 or more columns).
    Conll09,
    /// MaltTab (`.dp`: FORM POS HEAD [DEPREL], no IDs).
    Malttab,
}

/// CoNLL-2009 column sets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Conll09Cols {
    /// HEAD, DEPREL, POS, LEMMA, FEAT: where eval09.pl reads both files' trees.
    #[default]
    Gold,
    /// PHEAD, PDEPREL, PPOS, PLEMMA, PFEAT: the columns the CoNLL-2009 format sets aside
    /// for predictions.
    Predicted,
}

/// The conventions of the attachment scores (which words, how labels compare), shared
/// by every family that scores with them (deps, nbest, rerank).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Conventions {
    /// Conventions bundle (`conll07` unless the family says otherwise); `punct` and
    /// `labels` override its parts.
    pub profile: Option<Profile>,
    /// Which words to score.
    pub punct: Option<PunctPolicy>,
    /// How DEPREL is compared.
    pub labels: Option<Labels>,
}

impl Conventions {
    /// The punctuation policy, the label mode and the profile's name (`custom` when
    /// `punct` or `labels` override it), `default` when no profile is given.
    pub fn resolve(&self, default: Profile) -> (PunctPolicy, LabelMode, String) {
        let profile = self.profile.unwrap_or(default);
        let (mut policy, mut mode, mut name) = match profile {
            Profile::Conll07 => (PunctPolicy::Include, LabelMode::Full, "conll07"),
            Profile::Conllx => (PunctPolicy::Form, LabelMode::Full, "conllx"),
        };
        if let Some(p) = &self.punct {
            if *p != policy {
                name = "custom";
            }
            policy = p.clone();
        }
        if let Some(l) = self.labels {
            let l = match l {
                Labels::Full => LabelMode::Full,
                Labels::Universal => LabelMode::Universal,
            };
            if l != mode {
                name = "custom";
            }
            mode = l;
        }
        (policy, mode, name.to_owned())
    }
}

/// The options of `deps`. `Default` is the command line's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Conventions bundle (`conll07`; `conllx` with `compat: evalpl`); `punct` and
    /// `labels` override its parts.
    pub profile: Option<Profile>,
    /// Which words to score.
    pub punct: Option<PunctPolicy>,
    /// How DEPREL is compared.
    pub labels: Option<Labels>,
    /// Breakdowns (`deprel`, `distance`, …).
    pub by: Vec<ByKey>,
    /// A gold × system label confusion matrix of this many labels.
    pub confusion: Option<usize>,
    /// Per-relation precision, recall and F1 tables.
    pub per_relation: bool,
    /// Print a reference script's output instead of the report.
    pub compat: Option<Compat>,
    /// FORM mismatches and malformed system trees are errors, not counted warnings.
    pub strict: bool,
    /// The input format, instead of detecting it.
    pub input_format: Option<InputFormat>,
    /// Which CoNLL-2009 columns hold the system's tree.
    pub conll09_columns: Conll09Cols,
    /// Measures the tests compare (and `ci` puts intervals on).
    pub test_metrics: Vec<String>,
}

/// Labels of `confusion` when it is asked without a number (`--confusion`).
pub const DEFAULT_CONFUSION: usize = 12;

/// A usage error for a confusion matrix of no label (`--confusion=0` showed one
/// "(other)" row and column, every word in it): at least 1 (`deps` and `merge`).
pub fn check_confusion(labels: Option<usize>) -> Result<()> {
    match labels {
        Some(0) => Err(Error::Usage(format!(
            "--confusion: expected at least 1 label, found 0 (a matrix of no label folds every \
             word into \"(other)\")\n  hint: --confusion alone shows the {DEFAULT_CONFUSION} most \
             frequent labels; leave it out for no matrix"
        ))),
        _ => Ok(()),
    }
}

/// The measures `deps` tests by default.
pub const DEFAULT_TEST_METRICS: [&str; 3] = ["LAS", "UAS", "LA"];

impl Default for Options {
    fn default() -> Self {
        Options {
            profile: None,
            punct: None,
            labels: None,
            by: Vec::new(),
            confusion: None,
            per_relation: false,
            compat: None,
            strict: false,
            input_format: None,
            conll09_columns: Conll09Cols::Gold,
            test_metrics: DEFAULT_TEST_METRICS.map(String::from).to_vec(),
        }
    }
}

impl Options {
    /// Which words are scored and how labels compare.
    pub fn conventions(&self) -> Conventions {
        Conventions {
            profile: self.profile,
            punct: self.punct.clone(),
            labels: self.labels,
        }
    }

    /// The metrics crate's options and the profile's name (selection and `where` still
    /// to be filled in).
    pub fn metrics_options(&self, common: &Common) -> (DepsOptions, String) {
        let default = match self.compat {
            Some(Compat::Evalpl) => Profile::Conllx,
            _ => Profile::Conll07,
        };
        let (punct, labels, name) = self.conventions().resolve(default);
        let opts = DepsOptions {
            punct,
            labels,
            by: self.by.clone(),
            confusion: self.confusion.is_some(),
            strict: self.strict,
            examples: 5,
            keep_sentences: common.keeps_sentences(),
            pair_decisions: common.test.contains(&Test::Mcnemar),
            count_predicates: self.compat == Some(Compat::Eval09),
            filter: Where::default(),
            selection: Default::default(),
        };
        (opts, name)
    }
}

/// Evaluate `inputs.systems` against `inputs.gold`.
///
/// The report holds the scores, intervals, tests and notes; with `common.state` the
/// evaluation carries its state; with `options.compat` it carries the reference
/// script's text instead of a report to print (the report is still made).
pub fn evaluate(options: &Options, inputs: &Inputs, common: &Common) -> Result<Evaluation> {
    common.validate()?;
    check_confusion(options.confusion)?;
    let tested =
        crate::measures::test_metrics(treeval_metrics::deps::measures, &options.test_metrics)?;
    let options = &Options {
        test_metrics: tested,
        ..options.clone()
    };
    let (mut opts, profile) = options.metrics_options(common);
    check(options, inputs, common)?;
    let names = inputs.display_names(common)?;
    opts.filter = where_filter(common, opts.labels)?;
    opts.selection = crate::select::selection(common)?;
    let page = page_additions(options, common, &mut opts);
    let (gold, systems) = readers(options, inputs);
    let roles = inputs.roles();
    let mut records = Records::open(common.per_sentence.as_ref(), "deps", &roles);
    let mut extras = Extras::new(&names, inputs, common, &opts);
    let mut result = evaluate_counts(&gold, &systems, &opts, |k, g, s, c| {
        extras.observe(k, g, s, c);
        if records.is_on() {
            records.write(
                &treeval_report::records::Record::of(g.index(), k, c)
                    .sent_id(g.sent_id())
                    .extra("gold_lines", [g.first_line(), g.last_line()])
                    .extra("system_lines", [s.first_line(), s.last_line()]),
            );
        }
    })
    .map_err(|e| Error::Eval(e.to_string()))?;
    records.finish()?;
    crate::select::check_kept_unless_part(&opts.selection, &result.selection, common.is_part())?;
    if options.compat.is_none() {
        check_scored(&result, &opts, common.is_part())?;
    }
    // the state holds the counts, the selection's and the reading's warnings; the corpus
    // checks are made again on merged counts
    let state = common.state.then(|| {
        treeval_report::state::State::of_deps(&result, &opts, &profile, &common.where_)
            .with_selection(&opts.selection, &result.selection)
            .with_names(names.clone(), !common.names.is_empty())
            .with_inputs(inputs.identity())
    });
    result.corpus_checks(&opts);
    let shown = Present {
        common,
        per_relation: options.per_relation || page.per_relation,
        confusion: options.confusion.or(page.confusion),
        test_metrics: &options.test_metrics,
    };
    let mut report = present(&shown, &result, &opts, &profile)?;
    report.name_systems(&names);
    report.notes.extend(page.note);
    extras.finish(&mut report);
    let text = compat_text(options.compat, &result, &mut report)?;
    report.warnings.extend(inputs.gold_copies());
    Ok(Evaluation::new(report, state, text))
}

/// A reference script's output, when `compat` asks for one (its warnings added to the
/// report).
fn compat_text(
    compat: Option<Compat>,
    result: &DepsResult,
    report: &mut Report,
) -> Result<Option<String>> {
    match compat {
        None => Ok(None),
        Some(Compat::Eval09) => compat_eval09(result, report).map(Some),
        Some(_) => {
            let mut s = String::new();
            for sys in &result.systems {
                s.push_str(
                    &treeval_report::compat_lines(&sys.observer.totals)
                        .map_err(|e| Error::Eval(format!("{}: {e}", sys.file.path)))?,
                );
            }
            Ok(Some(s))
        }
    }
}

/// How a `deps` result is shown: the shared options, per-relation tables, confusions and
/// the metrics tested (from `deps`'s options, or `merge`'s).
#[derive(Debug)]
pub struct Present<'a> {
    /// Significance, selection and output options.
    pub common: &'a Common,
    /// Per-relation tables.
    pub per_relation: bool,
    /// Confusion matrices of this many labels.
    pub confusion: Option<usize>,
    /// Metrics the tests compare.
    pub test_metrics: &'a [String],
}

/// The report of `result`: scores with their intervals, the sentence selection, tests
/// (the part shared by `deps` and `merge`, so a merged report is made by the same code).
pub fn present(
    p: &Present,
    result: &DepsResult,
    opts: &DepsOptions,
    profile: &str,
) -> Result<Report> {
    let ci = crate::significance::intervals(p.common);
    // one resampling run for the intervals and (same samples and seed) the bootstrap test
    let replicates = ci.and_then(|c| {
        let cfg = treeval_stats::Resampling {
            samples: c.samples,
            seed: c.seed,
        };
        treeval_report::driver::Replicates::new(&result.sentences, cfg)
    });
    let shown = treeval_report::deps::Shown {
        per_relation: p.per_relation,
        confusion: p.confusion,
        ci,
        replicates: replicates.as_ref(),
    };
    let mut report = treeval_report::deps::build(result, opts, profile, shown);
    crate::select::record(
        &mut report,
        &opts.selection,
        &result.selection,
        ("syntactic words", true),
        p.common.is_part(),
    )?;
    if !p.common.test.is_empty() || p.common.ci.is_some() {
        significance(p, result, &mut report, replicates.as_ref());
    }
    Ok(report)
}

/// What the per-sentence callback feeds besides the counts: the HTML page's sentences
/// and the `errors` listing, each when asked.
struct Extras {
    page: Option<treeval_report::browse::DepsCollector>,
    errors: Option<treeval_report::errors::DepsErrors>,
}

impl Extras {
    fn new(names: &[String], inputs: &Inputs, common: &Common, opts: &DepsOptions) -> Self {
        Extras {
            page: common.page_sentences.map(|limit| {
                treeval_report::browse::DepsCollector::new(opts, names.to_vec(), limit)
            }),
            errors: (common.errors)
                .then(|| treeval_report::errors::DepsErrors::new(opts, inputs.systems.len())),
        }
    }

    fn observe(
        &mut self,
        k: usize,
        g: &treeval_formats::Sentence,
        s: &treeval_formats::Sentence,
        c: &treeval_metrics::AttachmentCounts,
    ) {
        if let Some(b) = self.page.as_mut() {
            b.observe(k, g, s, c);
        }
        if let Some(e) = self.errors.as_mut() {
            e.observe(k, g, s);
        }
    }

    fn finish(self, report: &mut Report) {
        report.browser = self.page.map(|b| b.finish());
        report.listings = self.errors.map(|e| e.finish()).unwrap_or_default();
    }
}

/// What the HTML page adds to the report when it was not asked for: the sections its
/// charts draw.
#[derive(Debug, Default)]
struct PageAdditions {
    per_relation: bool,
    confusion: Option<usize>,
    /// A note saying what was added.
    note: Option<String>,
}

/// Labels of the confusion matrix the page adds.
const PAGE_CONFUSION: usize = 15;

/// For an HTML page: per-relation scores, a confusion matrix and the breakdowns by arc
/// length, sentence length and depth, each unless given (`by` is added to `opts`).
fn page_additions(options: &Options, common: &Common, opts: &mut DepsOptions) -> PageAdditions {
    if common.page_sentences.is_none() || options.compat.is_some() {
        return PageAdditions::default();
    }
    let mut added = Vec::new();
    let mut page = PageAdditions::default();
    if !options.per_relation {
        page.per_relation = true;
        added.push("per-relation scores (--per-relation)".to_owned());
    }
    if options.confusion.is_none() {
        page.confusion = Some(PAGE_CONFUSION);
        opts.confusion = true;
        added.push(format!(
            "the label confusion matrix (--confusion {PAGE_CONFUSION})"
        ));
    }
    if options.by.is_empty() {
        opts.by = vec![ByKey::Distance, ByKey::Length, ByKey::Depth];
        added.push("breakdowns by distance, length and depth (--by)".to_owned());
    }
    page.note = crate::common::page_note(&added);
    page
}

/// Usage errors: tests without two systems, standard input twice, a state with compat.
fn check(options: &Options, inputs: &Inputs, common: &Common) -> Result<()> {
    if common.state && options.compat.is_some() {
        return Err(Error::Usage(
            "--emit-state records the counts of treeval's report; --compat prints a reference script's lines: drop one of the two".into(),
        ));
    }
    if !common.test.is_empty() && inputs.systems.len() < 2 {
        return Err(Error::Usage(
            "--test compares systems: give at least two system files".into(),
        ));
    }
    inputs.check_stdin()
}

/// The `where` conditions, labels compared under `labels`; McNemar refused when they
/// read the system's analysis (each system then scores different words, so there are no
/// paired word decisions).
fn where_filter(common: &Common, labels: LabelMode) -> Result<Where> {
    let w =
        Where::all(&common.where_, labels).map_err(|e| Error::Usage(format!("--where: {e}")))?;
    if w.has_system_side() && common.test.contains(&Test::Mcnemar) {
        return Err(Error::Usage(format!(
            "--test mcnemar needs every system scored on the same words, and --where {} keeps different words for each system (a sys.* condition)\n  hint: use --test ar or --test bootstrap, which compare per-sentence counts",
            w.describe()
        )));
    }
    Ok(w)
}

/// The gold and system inputs with their readers' settings.
fn readers(options: &Options, inputs: &Inputs) -> (ReadInput, Vec<ReadInput>) {
    let forced = options.input_format.map(|f| match f {
        InputFormat::Conllu => Format::Conllu,
        InputFormat::Conllx => Format::Conllx,
        InputFormat::Conll09 => Format::Conll09,
        InputFormat::Malttab => Format::Malttab,
    });
    let mut gold_builder = ReaderBuilder::new();
    // `deps` scores the basic tree only: a DEPS typo must not stop it (the enhanced-graph
    // families validate DEPS)
    gold_builder
        .format(forced)
        .validate_deps(false)
        .conll09_columns(Conll09Columns::Gold);
    let mut sys_builder = ReaderBuilder::new();
    sys_builder
        .format(forced)
        .validate_deps(false)
        .conll09_columns(match options.conll09_columns {
            Conll09Cols::Gold => Conll09Columns::Gold,
            Conll09Cols::Predicted => Conll09Columns::Predicted,
        });
    let gold = inputs.gold.with(gold_builder);
    let systems = inputs
        .systems
        .iter()
        .map(|s| s.with(sys_builder.clone()))
        .collect();
    (gold, systems)
}

/// `eval09.pl -q`'s output for each system (see [`treeval_report::compat_eval09`]).
/// Where the script dies dividing by zero, what it prints by then comes back in
/// [`Error::Partial`].
fn compat_eval09(result: &DepsResult, report: &mut Report) -> Result<String> {
    let files = std::iter::once(&result.gold).chain(result.systems.iter().map(|s| &s.file));
    for f in files {
        if f.format != Some(Format::Conll09) {
            return Err(Error::Eval(format!(
                "{}: --compat eval09 reproduces eval09.pl, which reads CoNLL-2009 files (14 or more columns); this file is {}\nhint: use --compat eval07 (CoNLL 2007) or --compat evalpl (CoNLL-X)",
                f.path,
                f.format.map_or("not CoNLL", |x| x.name())
            )));
        }
    }
    // eval09.pl reads both files line by line; each blank line ends a sentence for its
    // semantic scores (an extra one gives an empty sentence), and so does the end of
    // the file. A CoNLL-2009 file has no comment lines: its blank lines are its lines
    // that are not words.
    let blank = |f: &treeval_metrics::deps::FileSummary| f.lines.saturating_sub(f.words);
    let mut text = String::new();
    for sys in &result.systems {
        let t = &sys.observer.totals;
        let (exact, sentences) = t.eval09_exact_match();
        let breaks = blank(&result.gold).min(blank(&sys.file)) + 1;
        let has_predicates = result.gold_predicates + sys.observer.predicates > 0;
        if has_predicates {
            report.warnings.push(Warning::of(
                WarningKind::SemanticRolesNotScored,
                sys.file.path.clone(),
                "the files have predicates (PRED column): --compat eval09 prints eval09.pl's SYNTACTIC SCORES only; treeval does not score semantic roles",
                None,
            ));
        }
        let c = treeval_report::Eval09Counts {
            words: t.words,
            las: t.las,
            uas: t.uas,
            la: t.la,
            exact,
            sentences,
            semantic_sentences: if breaks > sentences {
                breaks - 1
            } else {
                breaks
            },
            has_predicates,
        };
        match treeval_report::compat_eval09(&c) {
            Ok(s) => text.push_str(&s),
            Err((printed, reason)) => {
                text.push_str(&printed);
                return Err(Error::Partial {
                    printed: text,
                    message: format!("{}: {reason}", sys.file.path),
                    stderr: String::new(),
                    warnings: Vec::new(),
                });
            }
        }
    }
    Ok(text)
}

/// Paired decision counts `(b, c)` of systems `a < b` for one metric.
type Decider<'r> = dyn Fn(usize, usize) -> (u64, u64) + 'r;

/// Run the requested tests on the kept per-sentence counts (through the shared driver,
/// on the measures of `deps`; the intervals are in the report already) and record their
/// settings in the report and its signature.
fn significance(
    p: &Present,
    result: &DepsResult,
    report: &mut Report,
    replicates: Option<&treeval_report::driver::Replicates>,
) {
    use treeval_metrics::deps::{DepsMetric, PairCounts};
    use treeval_report::driver;
    use treeval_stats::compare::TestKind;

    let cfg = p.common.compare_config();
    let all = treeval_metrics::deps::measures();
    let measures: Vec<_> = p
        .test_metrics
        .iter()
        .filter_map(|name| all.iter().find(|m| m.name == name.as_str()).cloned())
        .collect();
    let field = |m: DepsMetric, p: &PairCounts| match m {
        DepsMetric::Uas => p.uas,
        DepsMetric::Las => p.las,
        DepsMetric::La => p.la,
        DepsMetric::Lem => p.lem,
        DepsMetric::Uem => p.uem,
        _ => (0, 0),
    };
    // McNemar needs paired binary decisions: the word and sentence metrics have them
    let deciders: Vec<Option<Box<Decider>>> = measures
        .iter()
        .map(|m| {
            DepsMetric::parse(m.name)
                .filter(|d| d.has_binary_decisions())
                .map(|m| {
                    let f = move |x: usize, y: usize| {
                        result
                            .pairs
                            .get(result.pair_index(x, y))
                            .map_or((0, 0), |p| field(m, p))
                    };
                    Box::new(f) as Box<Decider>
                })
        })
        .collect();
    let tested: Vec<driver::Tested> = measures
        .iter()
        .zip(&deciders)
        .map(|(m, d)| (m, d.as_deref().filter(|_| !result.pairs.is_empty())))
        .collect();
    if !cfg.tests.is_empty() {
        (report.comparisons, report.rankings) = driver::tests_sharing(
            &tested,
            &result.sentences,
            &cfg,
            &|l, d, t| p.common.progress(l, d, t),
            replicates,
        );
    }
    if cfg.tests.contains(&TestKind::Mcnemar) {
        report.warnings.push(Warning::of(
            WarningKind::McnemarIndependence,
            "",
            "McNemar's test treats every word as an independent decision; words of one sentence are not independent, so its p-values tend to be too small",
            Some("prefer --test ar (shuffles whole sentences) for claims of significance".into()),
        ));
    }
    crate::significance::sign(p.common, &cfg, &mut report.signature);
    report.significance = crate::significance::settings(p.common, &cfg, p.test_metrics);
}

/// The rule of [`crate::select::nothing_scored`] for every system of `result` (the
/// family's and a merge's): no word left by the punctuation policy and `where` is an
/// error naming which of the two left every word out. `compat` prints the reference
/// script's output as it is.
pub fn check_scored(result: &DepsResult, opts: &DepsOptions, part: bool) -> Result<()> {
    let each = result.systems.iter().map(|s| {
        let o = &s.observer;
        let why = move || {
            let t = &o.totals;
            let (why, lift) = if o.unmatched > 0 {
                (
                    format!(
                        "--where {} matched none of the {} words of {} the punctuation policy '{}' scores",
                        opts.filter.describe(),
                        o.unmatched,
                        s.file.path,
                        opts.punct.name()
                    ),
                    "widen or drop --where (--by and --per-relation show which groups there are)",
                )
            } else {
                (
                    format!(
                        "the punctuation policy '{}' excluded all {} words of {}",
                        opts.punct.name(),
                        t.excluded,
                        s.file.path
                    ),
                    "choose another --punct policy (--punct include scores every word)",
                )
            };
            crate::select::Nothing {
                why: format!("{why} ({} sentences read)", t.sentences),
                lift: lift.to_owned(),
            }
        };
        (o.totals.words, Box::new(why) as Box<dyn FnOnce() -> _>)
    });
    crate::select::nothing_scored(each, (&opts.selection, &result.selection), part)
}
