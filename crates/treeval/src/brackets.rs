//! `brackets`: EVALB's bracket scores (recall, precision, F, complete match, crossing
//! brackets, tagging accuracy) of test files against gold trees, breakdowns by label and
//! length, Hogenhout & Matsumoto's careful evaluation, and EVALB's own output (`compat`).
//!
//! ```no_run
//! let ev = treeval::brackets::evaluate(
//!     &treeval::brackets::Options::default(),
//!     &treeval::Inputs::new("gold.mrg", ["parser.mrg"]),
//!     &treeval::Common::default(),
//! )?;
//! if let Some(f) = ev.report.cell("F", 0) {
//!     println!("F {:?} = {:?}", f.counts, f.value);
//! }
//! # Ok::<(), treeval::Error>(())
//! ```

mod chars;
mod file;
mod unsup;

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use treeval_formats::bracket::Layout as ReadLayout;
use treeval_formats::Diagnostic;
use treeval_metrics::brackets::by::BracketsKey;
use treeval_metrics::brackets::filter::{BracketWhere, WhereCounts};
use treeval_metrics::brackets::measures::{measures, measures_where_label};
use treeval_metrics::brackets::{BracketCounts, Params, BUILT_IN};
use treeval_metrics::careful::CarefulOptions;
use treeval_report::brackets::{BracketsIn, BracketsSystem};
use treeval_report::model::Warning;
use treeval_report::{Report, Signature};
use treeval_stats::compare::CompareConfig;

use crate::{Common, Error, Evaluation, Inputs, Result};

pub use file::unscored_warning;

/// Reference-program output for `brackets`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Compat {
    /// EVALB (NYU, 2008-07-01 release).
    Evalb,
    /// harvardnlp/compound-pcfg's `compare_trees.py` (unsupervised parsing).
    #[serde(rename = "compare-trees")]
    CompareTrees,
}

/// A set of scoring conventions other than EVALB's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// Unsupervised constituency parsing (Kim, Dyer & Rush 2019; PRPN's word tags).
    Unsupervised,
}

/// How bracketed trees are laid out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// One tree per line, unless a tree goes on on an indented next line (then `.mrg`
    /// style): decided by the file's first tree left open at a line end.
    #[default]
    Auto,
    /// One sentence per line, as EVALB reads (a blank line is a sentence without words).
    Line,
    /// Trees across lines (`.mrg`); blank lines separate nothing.
    #[cfg_attr(feature = "clap", value(name = "multi-line"))]
    MultiLine,
}

/// How gold and system trees are put side by side (the option word `ud` uses for its
/// tokenization alignment).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Align {
    /// Tree k of each file, word by word, as EVALB pairs them.
    #[default]
    Words,
    /// Over characters: spans measured in characters of the kept words, system trees
    /// placed on the gold sentences by their text, mismatch windows listed (for systems
    /// that tokenize or split sentences differently).
    Chars,
}

impl Align {
    /// The name of the mode, as a state records it.
    pub fn name(self) -> &'static str {
        match self {
            Align::Words => "words",
            Align::Chars => "chars",
        }
    }

    /// The mode named `name` ([`Align::name`]).
    pub fn named(name: &str) -> Option<Align> {
        [Align::Words, Align::Chars]
            .into_iter()
            .find(|a| a.name() == name)
    }
}

/// What becomes of a sentence the system failed to produce: an error sentence (its tree
/// malformed, other words, a different number of words) or a skipped one (a test tree
/// without words), when the gold tree is well formed and has words kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum ErrorSentences {
    /// Scored as an empty parse: its gold brackets missed (recall falls), its words
    /// without a correct tag, in complete match as not complete; not in the crossing
    /// figures (treeval's default).
    Missed,
    /// Left out of the scores, as EVALB does (`--compat evalb`).
    Excluded,
}

impl ErrorSentences {
    /// The name of the convention, as the signature, the conventions line and a state
    /// give it.
    pub fn name(self) -> &'static str {
        treeval_metrics::brackets::error_sentences_name(self == ErrorSentences::Missed)
    }

    /// The convention named `name` ([`ErrorSentences::name`]).
    pub fn named(name: &str) -> Option<Self> {
        [ErrorSentences::Missed, ErrorSentences::Excluded]
            .into_iter()
            .find(|e| e.name() == name)
    }

    /// The convention of parameters `p`.
    pub fn of(p: &Params) -> Self {
        if p.errors_missed {
            ErrorSentences::Missed
        } else {
            ErrorSentences::Excluded
        }
    }
}

/// The options of `brackets`. `Default` is the command line's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// EVALB parameter file (default: COLLINS.prm); COLLINS.prm, new.prm and nk.prm are
    /// built in (the file of that name wins when it exists).
    pub prm: Option<String>,
    /// Print EVALB's output instead of the report.
    pub compat: Option<Compat>,
    /// How the trees are laid out in the files.
    pub layout: Layout,
    /// How gold and system trees are put side by side: by words (EVALB) or characters.
    pub align: Align,
    /// What becomes of a sentence the system failed to produce (default: `missed`;
    /// `excluded` under `compat`, which refuses `missed`).
    pub error_sentences: Option<ErrorSentences>,
    /// Breakdowns (`label`, `length`).
    pub by: Vec<BracketsKey>,
    /// Also the careful evaluation of Hogenhout & Matsumoto (1996).
    pub careful: bool,
    /// Careful evaluation on labelled brackets (default: spans only).
    pub labeled: bool,
    /// Careful evaluation: also remove words that are punctuation by their form.
    pub remove_punct_forms: bool,
    /// Careful evaluation: drop a bracket with the same span as its parent.
    pub collapse_double: bool,
    /// Careful evaluation: drop brackets over a single word.
    pub remove_trivial: bool,
    /// Careful evaluation: a file of human judgments (as `export_for_judging` writes it,
    /// its last column filled in).
    pub judgments: Option<String>,
    /// Careful evaluation: write the first test file's crossing and spurious brackets to
    /// judge to this file (the front end checks it is no input).
    pub export_for_judging: Option<String>,
    /// Measures the tests compare (and `ci` puts intervals on).
    pub test_metrics: Vec<String>,
    /// Score with another set of conventions (`unsupervised`).
    pub profile: Option<Profile>,
    /// With `profile`: add left- and right-branching trees as systems.
    pub baselines: bool,
}

/// The measures `brackets` tests by default.
pub const DEFAULT_TEST_METRICS: [&str; 1] = ["F"];

impl Default for Options {
    fn default() -> Self {
        Options {
            prm: None,
            compat: None,
            layout: Layout::Auto,
            align: Align::Words,
            error_sentences: None,
            by: Vec::new(),
            careful: false,
            labeled: false,
            remove_punct_forms: false,
            collapse_double: false,
            remove_trivial: false,
            judgments: None,
            export_for_judging: None,
            test_metrics: DEFAULT_TEST_METRICS.map(String::from).to_vec(),
            profile: None,
            baselines: false,
        }
    }
}

/// Why `test: mcnemar` is refused.
pub const NO_MCNEMAR: &str = "needs paired binary decisions; for brackets use --test ar or --test bootstrap (and --careful for McNemar on reproduced treebank brackets)";

/// What a length of the sentence selection counts in brackets.
pub const LENGTH_UNIT: &str = "words (as CUTOFF_LEN counts them)";

/// The parameter file: the parameters, the name the signature gives them, EVALB's own
/// messages about them, treeval's warnings.
struct Prm {
    params: Params,
    name: String,
    evalb_messages: Vec<String>,
    warnings: Vec<Diagnostic>,
}

/// The parameters for `prm` NAME: the file NAME when it exists, else the built-in
/// parameter file of that name (COLLINS.prm, new.prm, nk.prm).
fn parameters(prm: Option<&str>) -> Result<Prm> {
    let built_in = |params, name: String| Prm {
        params,
        name,
        evalb_messages: Vec::new(),
        warnings: Vec::new(),
    };
    let Some(path) = prm else {
        return Ok(built_in(Params::collins(), "COLLINS.prm (built in)".into()));
    };
    if !std::path::Path::new(path).exists() {
        if let Some(p) = Params::built_in(path) {
            return Ok(built_in(p, format!("{path} (built in)")));
        }
    }
    let text = treeval_formats::input::read_text(path, "an EVALB parameter file").map_err(|e| {
        Error::Eval(format!(
            "{e}\n  hint: built in (used when no such file exists): {}",
            BUILT_IN.join(", ")
        ))
    })?;
    let (params, warnings) = Params::parse(&text, &Arc::from(path));
    Ok(Prm {
        params,
        name: path.to_owned(),
        evalb_messages: Params::evalb_messages(&text),
        warnings,
    })
}

/// Evaluate `inputs.systems` (the test files) against `inputs.gold`.
///
/// The report holds the scores, breakdowns, intervals, tests and notes; with
/// `common.state` the evaluation carries its state; with `options.compat` it carries
/// EVALB's output (and [`Evaluation::stderr`] EVALB's messages) instead of a report to
/// print. Where EVALB stops (more than MAX_ERROR errors), [`Error::Partial`] holds what
/// it printed until then; so does an evaluation error after the files were read (files
/// that do not pair up, nothing scored), with the warnings that explain it.
pub fn evaluate(options: &Options, inputs: &Inputs, common: &Common) -> Result<Evaluation> {
    common.validate()?;
    if options.compat == Some(Compat::CompareTrees) && options.profile.is_none() {
        return unsup::compare_trees(options, inputs, common);
    }
    if options.profile.is_some() {
        return unsup::profile(options, inputs, common);
    }
    if options.baselines {
        return Err(Error::Usage(
            "--baselines belongs to --profile unsupervised".into(),
        ));
    }
    let tested = crate::measures::test_metrics(measures, &options.test_metrics)?;
    let options = &Options {
        test_metrics: tested,
        ..options.clone()
    };
    check(options, inputs, common)?;
    chars::check(options, common)?;
    let compat = options.compat.is_some();
    let mut prm = parameters(options.prm.as_deref())?;
    check_inputs(options, inputs)?;
    let (by, by_note) = breakdowns(options, common);
    let params = &mut prm.params;
    params.count_wrapper = compat;
    // EVALB reads (TAG word) only and no ROOT wrapper: its reading under compat
    params.evalb_reading = compat;
    // MAX_ERROR is EVALB's process control, not a scoring convention: only compat stops
    // there; EVALB's debug dump is part of its output: reproduced with compat
    params.stop_at_max_error = compat;
    params.errors_missed = error_sentences(options)? == ErrorSentences::Missed;
    params.trace = compat && params.debug > 0;
    let page = common.page_sentences.filter(|_| !compat);
    params.by_label = !compat && by.contains(&BracketsKey::Label);
    params.keep_brackets = !compat && (page.is_some() || common.errors);
    params.selection = crate::select::selection(common)?;
    params.filter = where_filter(options, common, params)?;
    let judgments = file::judgments_file(options.judgments.as_deref())?;
    let careful = careful_options(options, params, judgments.is_some());
    let tests = crate::significance::resampling_config(
        common,
        inputs.systems.len(),
        "system files",
        NO_MCNEMAR,
    )?;
    if compat && options.layout == Layout::MultiLine {
        // honoured or refused, never ignored: the reference tools read one tree per line
        return Err(Error::Usage(
            "--layout multi-line does not apply with --compat, which reads one tree per line as the reference tool does; drop one of the two".into(),
        ));
    }
    let layout = if compat { Layout::Line } else { options.layout };
    let setting = file::Setting {
        options,
        common,
        inputs,
        params: &prm.params,
        layout,
        careful: careful.as_ref(),
        judgments: judgments.as_ref(),
    };
    let mut scored = file::Scored::new(&prm, &setting, page.is_some());
    if let Err(e) = scored.files(&setting) {
        return Err(scored.stopped(e));
    }
    let p = Present {
        common,
        test_metrics: &options.test_metrics,
        layout,
        align: options.align,
        careful: careful.as_ref(),
        tests: (&tests.0, tests.1),
    };
    scored.finish(&setting, &p, (&prm.name, &by, by_note))
}

/// Usage errors of the options together: a state of a run it cannot record, careful
/// options without `careful`, `where` or the sentence selection beside `compat`.
fn check(options: &Options, inputs: &Inputs, common: &Common) -> Result<()> {
    if common.state {
        if options.compat.is_some() {
            return Err(Error::Usage(
                "--emit-state records the counts of treeval's report; --compat prints a reference script's lines: drop one of the two".into(),
            ));
        }
        if options.careful {
            return Err(Error::Usage(
                "--emit-state does not record the careful evaluation (its judgments and brackets to judge name sentences by their number in each file): evaluate --careful on the whole corpus".into(),
            ));
        }
        // a tree has no id but its number in the file, which restarts in every shard
        crate::select::refuse_numbered_ids(common, "a tree")?;
    }
    if options.compat.is_some() {
        crate::select::refuse(common, "--sent-id, --min-len and --max-len are not EVALB options, so --compat evalb cannot print EVALB's output with them (EVALB's own cut-off is CUTOFF_LEN of the parameter file: its len<=40 summary)")?;
        if !common.where_.is_empty() {
            return Err(Error::Usage(
                "--where does not apply with --compat, which prints exactly what the reference tool prints over all its words; drop one of the two".into(),
            ));
        }
    }
    if inputs.systems.is_empty() {
        return Err(Error::Usage("give at least one system file".into()));
    }
    inputs.display_names(common)?;
    Ok(())
}

/// The convention for sentences the system failed to produce: as asked, else `missed`,
/// or under `compat` EVALB's (which refuses `missed`: EVALB's output leaves them out).
fn error_sentences(options: &Options) -> Result<ErrorSentences> {
    match (options.compat, options.error_sentences) {
        (Some(Compat::Evalb), Some(ErrorSentences::Missed)) => Err(Error::Usage(
            "--compat evalb prints EVALB's output, which leaves error and skipped sentences out of the scores; --error-sentences missed scores them as empty parses: drop one of the two".into(),
        )),
        (Some(_), e) => Ok(e.unwrap_or(ErrorSentences::Excluded)),
        (None, e) => Ok(e.unwrap_or(ErrorSentences::Missed)),
    }
}

/// Usage errors of the inputs and of the careful options.
fn check_inputs(options: &Options, inputs: &Inputs) -> Result<()> {
    if inputs.gold.is_stdin() && inputs.systems.len() > 1 {
        return Err(Error::Usage(
            "a gold file on standard input can be scored against one system file only".into(),
        ));
    }
    inputs.check_stdin()?;
    let careful_flags = options.labeled
        || options.remove_punct_forms
        || options.collapse_double
        || options.remove_trivial
        || options.judgments.is_some()
        || options.export_for_judging.is_some();
    if careful_flags && !options.careful {
        return Err(Error::Usage(
            "--labeled, --remove-punct-forms, --collapse-double, --remove-trivial, --judgments and --export-for-judging belong to --careful".into(),
        ));
    }
    Ok(())
}

/// The `where` conditions, checked against the parameter file (a label it deletes, cuts
/// or counts under another name can match no bracket).
fn where_filter(options: &Options, common: &Common, params: &Params) -> Result<BracketWhere> {
    let w = BracketWhere::all(&common.where_)
        .and_then(|w| w.check_labels(params).map(|()| w))
        .map_err(|e| Error::Usage(format!("--where: {e}")))?;
    if !w.is_empty() && options.careful {
        return Err(Error::Usage(format!(
            "--where {} does not apply to --careful, whose preparation and classes are over every bracket of the sentence; drop one of the two",
            w.describe()
        )));
    }
    Ok(w)
}

/// The breakdowns (`by`, each key once, in the order given); for an HTML page and no
/// `by`, both, with a note saying so.
fn breakdowns(options: &Options, common: &Common) -> (Vec<BracketsKey>, Option<String>) {
    if options.by.is_empty() && common.page_sentences.is_some() && options.compat.is_none() {
        return (
            BracketsKey::ALL.to_vec(),
            Some(
                "the HTML page adds the breakdowns by label and by length (--by label,length)"
                    .into(),
            ),
        );
    }
    let mut by = Vec::new();
    for k in &options.by {
        if !by.contains(k) {
            by.push(*k);
        }
    }
    (by, None)
}

/// The careful evaluation's options (`careful`).
fn careful_options(options: &Options, params: &Params, judged: bool) -> Option<CarefulOptions> {
    options.careful.then(|| CarefulOptions {
        labeled: options.labeled,
        remove_tags: params.delete_label.clone(),
        remove_punct_forms: options.remove_punct_forms,
        collapse_double: options.collapse_double,
        remove_trivial: options.remove_trivial,
        keep_brackets: judged,
        export: options.export_for_judging.is_some(),
    })
}

impl Layout {
    /// The name of the layout, as the signature and a state give it.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Auto => "auto",
            Layout::Line => "line",
            Layout::MultiLine => "multiline",
        }
    }

    /// The layout named `name` ([`Layout::name`]).
    pub fn named(name: &str) -> Option<Layout> {
        [Layout::Line, Layout::Auto, Layout::MultiLine]
            .into_iter()
            .find(|l| l.name() == name)
    }

    /// The reader's layout.
    fn reader(self) -> ReadLayout {
        match self {
            Layout::Auto => ReadLayout::Auto,
            Layout::Line => ReadLayout::Line,
            Layout::MultiLine => ReadLayout::MultiLine,
        }
    }
}

/// The signature of the scoring conventions (with `where`, its conditions).
fn signature(
    params: &Params,
    prm_name: &str,
    layout: Layout,
    careful: Option<&CarefulOptions>,
) -> Signature {
    let mut signature = Signature::new(
        "brackets",
        &[
            ("prm", prm_name.to_owned()),
            ("labeled", u8::from(params.labeled).to_string()),
            ("cutoff", params.cutoff_len.to_string()),
            ("layout", layout.name().to_owned()),
            ("wrapper", "ignored".into()),
            ("error-sentences", ErrorSentences::of(params).name().into()),
        ],
    );
    if let Some(c) = careful {
        signature.push("careful", careful_name(c));
    }
    if !params.filter.is_empty() {
        signature.push("where", params.filter.name());
    }
    signature
}

/// What a `brackets` report shows besides the counts (the family's options, or those of
/// `merge`).
#[derive(Debug)]
pub struct Present<'a> {
    /// Significance, selection and output options.
    pub common: &'a Common,
    /// The measures the tests compare.
    pub test_metrics: &'a [String],
    /// The layout the trees were read with.
    pub layout: Layout,
    /// How the trees were put side by side.
    pub align: Align,
    /// The careful evaluation's options.
    pub careful: Option<&'a CarefulOptions>,
    /// The tests' settings, and whether there are tests or intervals
    /// ([`crate::significance::resampling_config`]).
    pub tests: (&'a CompareConfig, bool),
}

/// The report of `e` with its signature, intervals, tests and `warnings`: made by
/// `evaluate` and, from summed states, by `merge`.
pub fn present(p: &Present<'_>, e: &BracketsIn<'_>, warnings: Vec<Warning>) -> Report {
    let (cfg, resample) = p.tests;
    let mut signature = signature(e.params, e.prm_name, p.layout, p.careful);
    if p.align == Align::Chars {
        signature.push("align", chars::signature_value());
    }
    if resample {
        crate::significance::sign(p.common, cfg, &mut signature);
        signature.push("test-metrics", p.test_metrics.join(","));
    }
    let ci = crate::significance::intervals(p.common);
    let mut report = treeval_report::brackets::build(signature, e, ci);
    tests(p, e.params, e.systems, &mut report);
    report.warnings = warnings;
    report
}

/// The tests between test files on the `test_metrics`, sentences paired by position (a
/// shorter run padded with unscored sentences).
fn tests(p: &Present<'_>, params: &Params, systems: &[BracketsSystem], report: &mut Report) {
    let cfg = p.tests.0;
    if !cfg.tests.is_empty() {
        let ms = if params.filter.has_label() {
            measures_where_label()
        } else {
            measures()
        };
        let tested: Vec<treeval_report::driver::Tested> = ms
            .iter()
            .filter(|m| p.test_metrics.iter().any(|t| t == m.name))
            .map(|m| (m, None))
            .collect();
        let n = systems.iter().map(|s| s.all.len()).max().unwrap_or(0);
        let units: Vec<Vec<BracketCounts>> = systems
            .iter()
            .map(|s| {
                let mut u = s.all.clone();
                u.resize(n, BracketCounts::default());
                u
            })
            .collect();
        (report.comparisons, report.rankings) =
            treeval_report::driver::tests(&tested, &units, cfg, &|l, d, t| {
                p.common.progress(l, d, t)
            });
    }
    report.significance = crate::significance::settings(p.common, cfg, p.test_metrics);
}

/// How the careful evaluation prepared the brackets, for the signature.
fn careful_name(c: &CarefulOptions) -> String {
    let mut prep = vec![if c.labeled { "labeled" } else { "unlabeled" }];
    if c.remove_punct_forms {
        prep.push("punct-forms");
    }
    if c.collapse_double {
        prep.push("collapse-double");
    }
    if c.remove_trivial {
        prep.push("remove-trivial");
    }
    prep.join("+")
}

/// The units a test file's report is about: its scored sentences, or with a label
/// condition of `where` the brackets it kept in them.
pub fn scored(all: &BracketCounts, kept: &WhereCounts, params: &Params) -> u64 {
    if params.filter.has_label() && all.valid() > 0 {
        return kept.gold.0 + kept.test.0;
    }
    all.valid()
}

/// Why test file `path` scored nothing ([`scored`]), and what would let it.
pub fn nothing(
    path: &str,
    c: &BracketCounts,
    gold_trees: u64,
    params: &Params,
) -> crate::select::Nothing {
    let w = &params.filter;
    let (why, lift) = if c.sentences > 0 && c.valid() == 0 {
        (
            format!(
                "every sentence of {path} is an error sentence ({}: a different number of words, a different word, or a malformed tree) or skipped ({}: the test tree has no words)",
                c.error_sentences, c.skip_sentences
            ),
            "is it the parser's output for this gold file? when every sentence fails, treeval stops rather than score them all as empty parses (recall 0); the warning above names the first error sentences; EQ_WORD in the parameter file (--prm) makes word pairs equal; --align chars pairs other tokenizations".to_owned(),
        )
    } else {
        (
            format!(
                "--where {} keeps no {} of {path}",
                w.describe(),
                if c.sentences == 0 {
                    "scored sentence"
                } else {
                    "bracket"
                }
            ),
            "widen or drop --where (--by label and --by length show what there is)".to_owned(),
        )
    };
    crate::select::Nothing {
        why: format!("{why} ({gold_trees} gold trees read)"),
        lift,
    }
}
