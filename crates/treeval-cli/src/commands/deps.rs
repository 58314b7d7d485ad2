//! `treeval deps`.

use std::io::Write;

use treeval_formats::{Conll09Columns, Format, ReaderBuilder};
use treeval_metrics::deps::filter::Where;
use treeval_metrics::deps::{evaluate_counts, Input};
use treeval_metrics::{DepsOptions, LabelMode, PunctPolicy};

use crate::args::{
    CompatMode, Conll09Cols, ConventionArgs, DepsArgs, InputFormat, Labels, Profile, TestArg,
};
use crate::output::{check_outputs, check_report, outputs, Capabilities, InputRef, PerSentence};
use crate::Failure;

/// The files the command reads, with their roles.
fn inputs(a: &DepsArgs) -> Vec<InputRef<'_>> {
    std::iter::once(("GOLD", a.gold.as_str()))
        .chain(a.systems.iter().map(|s| ("SYS", s.as_str())))
        .collect()
}

/// Resolve `--profile` (`default` when not given) and the `--punct` / `--labels` that
/// override its parts into the punctuation policy, the label mode and the profile's name
/// (`custom` when overridden). Shared by every command that scores with the `deps`
/// conventions.
pub fn conventions(c: &ConventionArgs, default: Profile) -> (PunctPolicy, LabelMode, String) {
    let (profile, punct, labels) = (c.profile.unwrap_or(default), c.punct.as_ref(), c.labels);
    let (mut policy, mut mode) = match profile {
        Profile::Conll07 => (PunctPolicy::Include, LabelMode::Full),
        Profile::Conllx => (PunctPolicy::Form, LabelMode::Full),
    };
    let mut name = match profile {
        Profile::Conll07 => "conll07",
        Profile::Conllx => "conllx",
    }
    .to_string();
    if let Some(p) = punct {
        if *p != policy {
            name = "custom".into();
        }
        policy = p.clone();
    }
    if let Some(l) = labels {
        let l = match l {
            Labels::Full => LabelMode::Full,
            Labels::Universal => LabelMode::Universal,
        };
        if l != mode {
            name = "custom".into();
        }
        mode = l;
    }
    (policy, mode, name)
}

/// Resolve profile, policy and labels into options and a profile name.
pub fn options(a: &DepsArgs) -> (DepsOptions, String) {
    let default = match a.compat {
        Some(CompatMode::Evalpl) => Profile::Conllx,
        _ => Profile::Conll07,
    };
    let (punct, labels, name) = conventions(&a.conventions, default);
    let opts = DepsOptions {
        punct,
        labels,
        by: a.by.clone(),
        confusion: a.confusion.is_some(),
        strict: a.strict,
        examples: 5,
        keep_sentences: !a.report.sig.tests.is_empty()
            || a.report.sig.ci.is_some()
            || a.report.out.keep_sentences,
        pair_decisions: a.report.sig.tests.contains(&TestArg::Mcnemar),
        count_predicates: a.compat == Some(CompatMode::Eval09),
        filter: Where::default(),
        selection: Default::default(),
    };
    (opts, name)
}

/// Run the command, writing the report to `out`.
pub fn run(a: &DepsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (mut opts, profile) = options(a);
    validate(a)?;
    opts.filter = where_filter(a, opts.labels)?;
    opts.selection = crate::select::selection(&a.report.select)?;
    let page = page_additions(a, &mut opts);
    let (gold, systems) = readers(a);
    let ins = inputs(a);
    let mut per_sentence = PerSentence::open(a.report.out.per_sentence.as_deref(), "deps", &ins)?;
    let mut extras = Extras::new(a, &opts);
    let mut result = evaluate_counts(&gold, &systems, &opts, |k, g, s, c| {
        extras.observe(k, g, s, c);
        if per_sentence.is_on() {
            per_sentence.write(
                &treeval_report::records::Record::of(g.index(), k, c)
                    .sent_id(g.sent_id())
                    .extra("gold_lines", [g.first_line(), g.last_line()])
                    .extra("system_lines", [s.first_line(), s.last_line()]),
            );
        }
    })
    .map_err(|e| Failure::Eval(e.to_string()))?;
    per_sentence.finish()?;
    crate::select::check_kept_unless_part(&opts.selection, &result.selection, &a.report.out)?;
    if a.compat.is_none() {
        check_scored(&result, &opts, &a.report.out)?;
    }
    // the state holds the counts, the selection's and the reading's warnings; the corpus
    // checks are made again on merged counts
    if let Some(path) = a.report.out.emit_state.as_deref() {
        let state =
            treeval_report::state::State::of_deps(&result, &opts, &profile, &a.report.where_)
                .with_selection(&opts.selection, &result.selection);
        crate::output::write_state(path, &state)?;
    }
    result.corpus_checks(&opts);
    if !a.report.quiet {
        print_warnings(&result.warnings);
    }
    let shown = Present {
        report: &a.report,
        per_relation: a.per_relation || page.per_relation,
        confusion: a.confusion.or(page.confusion),
        test_metrics: &a.test_metrics,
    };
    let mut report = present(&shown, &result, &opts, &profile)?;
    report.notes.extend(page.note);
    extras.finish(&mut report);
    let text = match a.compat {
        Some(CompatMode::Eval09) => compat_eval09(&result, a.report.quiet, out)?,
        Some(_) => {
            let mut s = String::new();
            for sys in &result.systems {
                s.push_str(
                    &treeval_report::compat_lines(&sys.observer.totals)
                        .map_err(|e| Failure::Eval(format!("{}: {e}", sys.file.path)))?,
                );
            }
            s
        }
        None => treeval_report::emit::to_string(&report, a.report.format),
    };
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)?;
    Ok(())
}

/// How a `deps` result is shown: the report options, per-relation tables, confusions and
/// the metrics tested (from `deps`'s arguments, or `merge`'s).
pub struct Present<'a> {
    /// Format, significance, selection and output options.
    pub report: &'a crate::args::ReportArgs,
    /// Per-relation tables (`--per-relation`).
    pub per_relation: bool,
    /// Confusion matrices of this many labels (`--confusion`).
    pub confusion: Option<usize>,
    /// Metrics the tests compare (`--test-metrics`).
    pub test_metrics: &'a [String],
}

/// The report of `result`: scores with their intervals, the sentence selection, tests
/// (the part shared by `deps` and `merge`, so a merged report is made by the same code).
pub fn present(
    p: &Present,
    result: &treeval_metrics::deps::DepsResult,
    opts: &DepsOptions,
    profile: &str,
) -> Result<treeval_report::Report, Failure> {
    let ci = super::significance::intervals(&p.report.sig);
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
    crate::select::record_part(
        &mut report,
        &opts.selection,
        &result.selection,
        ("syntactic words", true),
        p.report.quiet,
        crate::select::is_part(&p.report.out),
    )?;
    if !p.report.sig.tests.is_empty() || p.report.sig.ci.is_some() {
        significance(p, result, &mut report, replicates.as_ref());
    }
    Ok(report)
}

/// What the per-sentence callback feeds besides the counts: the HTML page's sentences
/// and the `--errors` listing, each when asked.
struct Extras {
    page: Option<treeval_report::browse::DepsCollector>,
    errors: Option<treeval_report::errors::DepsErrors>,
}

impl Extras {
    fn new(a: &DepsArgs, opts: &DepsOptions) -> Self {
        let html = a.report.format == crate::args::Format::Html;
        Extras {
            page: html.then(|| {
                let names = a.systems.clone();
                treeval_report::browse::DepsCollector::new(opts, names, a.report.html_sentences())
            }),
            errors: (a.report.errors)
                .then(|| treeval_report::errors::DepsErrors::new(opts, a.systems.len())),
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

    fn finish(self, report: &mut treeval_report::Report) {
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

/// With `--format html`: per-relation scores, a confusion matrix and the breakdowns by
/// arc length, sentence length and depth, each unless given (`--by` is added to `opts`).
fn page_additions(a: &DepsArgs, opts: &mut DepsOptions) -> PageAdditions {
    use treeval_metrics::ByKey;
    if a.report.format != crate::args::Format::Html || a.compat.is_some() {
        return PageAdditions::default();
    }
    let mut added = Vec::new();
    let mut page = PageAdditions::default();
    if !a.per_relation {
        page.per_relation = true;
        added.push("per-relation scores (--per-relation)".to_owned());
    }
    if a.confusion.is_none() {
        page.confusion = Some(PAGE_CONFUSION);
        opts.confusion = true;
        added.push(format!(
            "the label confusion matrix (--confusion {PAGE_CONFUSION})"
        ));
    }
    if a.by.is_empty() {
        opts.by = vec![ByKey::Distance, ByKey::Length, ByKey::Depth];
        added.push("breakdowns by distance, length and depth (--by)".to_owned());
    }
    page.note = crate::output::page_note(&added);
    page
}

/// Usage errors: format, output paths, tests without two systems, stdin twice.
fn validate(a: &DepsArgs) -> Result<(), Failure> {
    let can = Capabilities {
        where_: true,
        state: true,
        no_selection: a.compat.map(|_| "--sent-id, --min-len and --max-len are not options of eval07.pl, eval.pl or eval09.pl: --compat prints what they print"),
        browser: true,
        ..Capabilities::of("deps")
    };
    check_report(&can, &a.report, a.compat.is_some())?;
    check_outputs(&outputs(&a.report.out), &inputs(a), a.report.out.force)?;
    check_state(a)?;
    if !a.report.sig.tests.is_empty() && a.systems.len() < 2 {
        return Err(Failure::Usage(
            "--test compares systems: give at least two system files".into(),
        ));
    }
    if a.systems.iter().filter(|s| s.as_str() == "-").count() + usize::from(a.gold == "-") > 1 {
        return Err(Failure::Usage(
            "standard input ('-') can be given only once".into(),
        ));
    }
    Ok(())
}

/// `--emit-state` records the counts of a report, so not with `--compat` (which prints
/// another tool's lines).
fn check_state(a: &DepsArgs) -> Result<(), Failure> {
    if a.report.out.emit_state.is_some() && a.compat.is_some() {
        return Err(Failure::Usage(
            "--emit-state records the counts of treeval's report; --compat prints a reference script's lines: drop one of the two".into(),
        ));
    }
    Ok(())
}

/// The `--where` conditions, labels compared under `labels`; McNemar refused when they
/// read the system's analysis (each system then scores different words, so there are no
/// paired word decisions).
fn where_filter(a: &DepsArgs, labels: LabelMode) -> Result<Where, Failure> {
    let w = Where::all(&a.report.where_, labels)
        .map_err(|e| Failure::Usage(format!("--where: {e}")))?;
    if w.has_system_side() && a.report.sig.tests.contains(&TestArg::Mcnemar) {
        return Err(Failure::Usage(format!(
            "--test mcnemar needs every system scored on the same words, and --where {} keeps different words for each system (a sys.* condition)\n  hint: use --test ar or --test bootstrap, which compare per-sentence counts",
            w.describe()
        )));
    }
    Ok(w)
}

/// The gold and system inputs with their readers' settings.
fn readers(a: &DepsArgs) -> (Input, Vec<Input>) {
    let forced = a.input_format.map(|f| match f {
        InputFormat::Conllu => Format::Conllu,
        InputFormat::Conllx => Format::Conllx,
        InputFormat::Conll09 => Format::Conll09,
    });
    let mut gold_builder = ReaderBuilder::new();
    // `deps` scores the basic tree only: a DEPS typo must not stop it (the enhanced-graph
    // commands validate DEPS)
    gold_builder
        .format(forced)
        .validate_deps(false)
        .conll09_columns(Conll09Columns::Gold);
    let mut sys_builder = ReaderBuilder::new();
    sys_builder
        .format(forced)
        .validate_deps(false)
        .conll09_columns(match a.conll09_columns {
            Conll09Cols::Gold => Conll09Columns::Gold,
            Conll09Cols::Predicted => Conll09Columns::Predicted,
        });
    let gold = Input {
        path: a.gold.clone(),
        builder: gold_builder,
    };
    let systems: Vec<Input> = a
        .systems
        .iter()
        .map(|p| Input {
            path: p.clone(),
            builder: sys_builder.clone(),
        })
        .collect();
    (gold, systems)
}

/// The evaluation's warnings on stderr, one entry per kind (with its count and first
/// positions), and the count of those merged shards did not keep.
fn print_warnings(w: &treeval_formats::error::Diagnostics) {
    let mut err = std::io::stderr().lock();
    for x in treeval_report::model::warnings_of(w) {
        let _ = writeln!(err, "{}", super::significance::warning_line(&x));
    }
    let more = treeval_report::model::unlisted_warnings(w);
    if more > 0 {
        let _ = writeln!(err, "warning: … and {more} more warning(s) not kept");
    }
}

/// `eval09.pl -q`'s output for each system (see [`treeval_report::compat_eval09`]).
/// Where the script dies dividing by zero, what it prints by then goes to `out` and the
/// command fails.
fn compat_eval09(
    result: &treeval_metrics::deps::DepsResult,
    quiet: bool,
    out: &mut dyn Write,
) -> Result<String, Failure> {
    let files = std::iter::once(&result.gold).chain(result.systems.iter().map(|s| &s.file));
    for f in files {
        if f.format != Some(Format::Conll09) {
            return Err(Failure::Eval(format!(
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
        if has_predicates && !quiet {
            eprintln!(
                "warning: {}: the files have predicates (PRED column): --compat eval09 prints eval09.pl's SYNTACTIC SCORES only; treeval does not score semantic roles",
                sys.file.path
            );
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
                out.write_all(text.as_bytes()).map_err(Failure::Io)?;
                out.flush().map_err(Failure::Io)?;
                return Err(Failure::Eval(format!("{}: {reason}", sys.file.path)));
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
    a: &Present,
    result: &treeval_metrics::deps::DepsResult,
    report: &mut treeval_report::value::Report,
    replicates: Option<&treeval_report::driver::Replicates>,
) {
    use treeval_metrics::deps::{DepsMetric, PairCounts};
    use treeval_report::driver;
    use treeval_stats::compare::TestKind;

    let cfg = super::significance::config(&a.report.sig);
    let all = treeval_metrics::deps::measures();
    let measures: Vec<_> = a
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
    let binary: Vec<Option<DepsMetric>> = measures
        .iter()
        .map(|m| DepsMetric::parse(m.name).filter(|d| d.has_binary_decisions()))
        .collect();
    let deciders: Vec<Option<Box<Decider>>> = binary
        .iter()
        .map(|d| {
            d.map(|m| {
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
        .map(|(m, d)| {
            let d = d.as_deref().filter(|_| !result.pairs.is_empty());
            (m, d)
        })
        .collect();
    if !cfg.tests.is_empty() {
        let bar = super::significance::Progress::new(a.report.quiet);
        (report.comparisons, report.rankings) = driver::tests_sharing(
            &tested,
            &result.sentences,
            &cfg,
            &|l, d, t| bar.update(l, d, t),
            replicates,
        );
        bar.finish();
    }
    if cfg.tests.contains(&TestKind::Mcnemar) {
        report.warnings.push(treeval_report::model::Warning::new(
            "",
            "McNemar's test treats every word as an independent decision; words of one sentence are not independent, so its p-values tend to be too small",
            Some("prefer --test ar (shuffles whole sentences) for claims of significance".into()),
        ));
        if !a.report.quiet {
            eprintln!("note: McNemar's test assumes independent decisions (words of one sentence are not); prefer --test ar");
        }
    }
    super::significance::sign(&a.report.sig, &cfg, &mut report.signature);
    report.significance = super::significance::settings(&a.report.sig, &cfg, a.test_metrics);
}

/// The rule of [`crate::select::nothing_scored`] for every system of `result` (the
/// command's and a merge's): no word left by the punctuation policy and `--where` is an
/// error naming which of the two left every word out. `--compat` prints the reference
/// script's output as it is.
pub(crate) fn check_scored(
    result: &treeval_metrics::deps::DepsResult,
    opts: &DepsOptions,
    out: &crate::args::OutputArgs,
) -> Result<(), Failure> {
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
    crate::select::nothing_scored(each, (&opts.selection, &result.selection), out)
}
