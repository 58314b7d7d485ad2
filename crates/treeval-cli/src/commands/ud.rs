//! `treeval ud`: the CoNLL 2018 metrics and udeval's ELAS/EULAS over the word alignment.

use std::io::Write;

use treeval_formats::{Format as InFormat, ReaderBuilder, Reference};
use treeval_metrics::deps::filter::Where;
use treeval_metrics::deps::Input;
use treeval_metrics::ud::measures::f1_of;
use treeval_metrics::ud::UdMetric;
use treeval_metrics::ud::{evaluate, EmptyNodes, Enhancements, UdError, UdOptions};
use treeval_metrics::LabelMode;
use treeval_report::model::Warning;
use treeval_report::records::Record;
use treeval_report::ud::{
    build, compat_text, resync_lines, UdCompat as Compat, UdFileOut, UdShown, UdSystemIn,
};
use treeval_report::Signature;

use crate::args::{UdArgs, UdCompat};
use crate::output::{check_outputs, check_report, outputs, Capabilities, InputRef, PerSentence};
use crate::Failure;

/// A CoNLL-U input; with a `reference`, lines are read and checked only as that reference
/// scorer reads and checks them.
pub(crate) fn input(path: &str, reference: Option<Reference>) -> Input {
    let mut builder = ReaderBuilder::new();
    builder
        .format(Some(InFormat::Conllu))
        .validate_deps(false)
        .reference(reference);
    Input::path(path, builder)
}

/// Print reader warnings on stderr, each once (a gold file's come once per system).
pub(crate) fn print_warnings(
    warnings: &[treeval_formats::Diagnostic],
    quiet: bool,
) -> Vec<Warning> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for d in warnings {
        let w = Warning::from(d);
        if seen.insert((w.position.clone(), w.message.clone())) {
            out.push(w);
        }
    }
    let out = treeval_report::model::group_warnings(out);
    if !quiet {
        let mut err = std::io::stderr().lock();
        for w in &out {
            let _ = writeln!(err, "{}", super::significance::warning_line(w));
        }
    }
    out
}

/// Turn a failed evaluation into the message the user sees.
pub(crate) fn explain(e: UdError, gold: &str, sys: &str) -> String {
    // at most a screenful
    let lines = |d: &[treeval_formats::Diagnostic]| treeval_formats::error::render_capped(d, 0);
    match e {
        UdError::Fatal(e) => e.to_string(),
        UdError::Invalid(d) => lines(&d),
        UdError::Unsynced(m, d) => {
            let mut s = format!(
                "{sys}:{}: --align resync found no {} equal bytes within {} bytes after {gold}:{} (gold '{}', system '{}')\n  hint: are these files of the same text?",
                m.system_line,
                treeval_metrics::ud::ANCHOR,
                treeval_metrics::ud::MAX_LOOKAHEAD,
                m.gold_line,
                m.gold_text,
                m.system_text
            );
            if !d.is_empty() {
                s.push('\n');
                s.push_str(&lines(&d));
            }
            s
        }
        UdError::Mismatch(m, d) => {
            let show = |t: &str| {
                if t.is_empty() {
                    "the end of the file".to_owned()
                } else {
                    format!("'{t}'")
                }
            };
            let hint = if m.system_text.is_empty() || m.gold_text.is_empty() {
                "one file ends before the other: a truncated file or missing sentences? --align resync scores what the files share"
            } else {
                "ud compares the concatenated token FORMs; check for changed characters, NFC vs NFD, or a different file; --align resync scores what the files share"
            };
            // the first differing characters by code point (NFC and NFD look the same)
            let code = |t: &str| {
                t.chars()
                    .next()
                    .map_or(String::new(), |c| format!("U+{:04X}", c as u32))
            };
            let codes = match (code(&m.gold_text), code(&m.system_text)) {
                (a, b) if !a.is_empty() && !b.is_empty() => format!(" ({a} vs {b})"),
                _ => String::new(),
            };
            let mut s = format!(
                "{sys}:{}: expected the same text as {gold}:{} (FORMs without spaces), found a difference at character {}: gold {}, system {}{codes}\n  hint: {hint}",
                m.system_line,
                m.gold_line,
                m.index,
                show(&m.gold_text),
                show(&m.system_text)
            );
            if !d.is_empty() {
                s.push('\n');
                s.push_str(&lines(&d));
            }
            s
        }
    }
}

/// Run the command.
pub fn run(a: &UdArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let ins: Vec<InputRef<'_>> = std::iter::once(("GOLD", a.gold.as_str()))
        .chain(a.systems.iter().map(|s| ("SYS", s.as_str())))
        .collect();
    let enhancements = check_usage(a, &ins)?;
    let (cfg, resample) = super::significance::resampling_config(
        &a.report.sig,
        a.systems.len(),
        "system files",
        "needs paired per-word decisions, which ud does not have when tokenizations differ; use --test ar or --test bootstrap",
    )?;
    let mut opts = options(a, enhancements, resample);
    opts.filter = where_filter(a)?;
    opts.selection = crate::select::selection(&a.report.select)?;
    let (systems, diagnostics, gold_out, (selected, numbers)) = score(a, &opts)?;
    crate::select::check_kept_unless_part(&opts.selection, &selected, &a.report.out)?;
    if let Some(gold) = gold_out.as_ref() {
        check_scored(&opts, &systems, (gold, &selected), &a.report.out)?;
    }
    if a.report.out.per_sentence.is_some() {
        write_per_sentence(a, &ins, &systems, &numbers)?;
    }
    let warnings = print_warnings(&diagnostics, a.report.quiet);
    if let Some(path) = a.report.out.emit_state.as_deref() {
        let scored = (gold_out.as_ref(), &systems[..], &selected);
        write_state(path, a, &opts, scored, &warnings)?;
    }
    let signature = signature(a, &opts);
    let text = if let Some(c) = compat(a) {
        if !a.report.quiet {
            // the compat table must stay the reference's; the windows go to stderr
            for (k, s) in systems.iter().enumerate() {
                for line in resync_lines(s.resync.as_deref()) {
                    eprintln!("[{}] {line}", k + 1);
                }
            }
        }
        compat_text(&systems, c)
    } else {
        let gold_file = gold_out.unwrap_or_else(|| UdFileOut::new(&a.gold, &Default::default()));
        let p = Present {
            report: &a.report,
            per_relation: a.per_relation || html_page(a),
            test_metrics: &a.test_metrics,
        };
        let scored = (&gold_file, &systems[..], &selected);
        let mut report = present(&p, &opts, signature, scored, warnings, (&cfg, resample))?;
        if opts.trace.is_some() {
            let ids = gold_sent_ids(&a.gold);
            if html_page(a) {
                report.notes.extend(page_note(a));
                // the page is about the sentences the selection kept
                let total = if opts.selection.is_all() {
                    gold_file.sentences
                } else {
                    selected.kept
                };
                report.browser = Some(browser(a, &systems, &ids, total));
            }
            if a.report.errors {
                let words = systems.iter().enumerate().map(|(k, s)| {
                    treeval_report::errors::ud_errors(k, &s.trace, &s.trace_labels, &ids)
                });
                report.listings = treeval_report::errors::with_wrong_arcs(words.collect());
            }
        }
        if !cfg.tests.is_empty() {
            significance(&p, &cfg, &systems, &mut report);
        }
        report.significance = super::significance::settings(&a.report.sig, &cfg, &a.test_metrics);
        treeval_report::emit::to_string(&report, a.report.format)
    };
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}

/// How a `ud` result is shown (from `ud`'s arguments, or `merge`'s).
pub struct Present<'a> {
    /// Format, significance, selection and output options.
    pub report: &'a crate::args::ReportArgs,
    /// Per-relation tables.
    pub per_relation: bool,
    /// Metrics the tests compare.
    pub test_metrics: &'a [String],
}

/// The gold file, the systems and the sentence selection's counts.
pub type ScoredRef<'a> = (
    &'a UdFileOut,
    &'a [UdSystemIn],
    &'a treeval_metrics::select::SelectionCounts,
);

/// The report of scored systems: signed, built, with `--where` and the selection (the
/// part shared by `ud` and `merge`; the tests are run by the caller after its additions,
/// as [`significance`]).
pub fn present(
    p: &Present,
    opts: &UdOptions,
    mut signature: Signature,
    (gold_file, systems, selected): ScoredRef<'_>,
    warnings: Vec<Warning>,
    (cfg, resample): (&treeval_stats::compare::CompareConfig, bool),
) -> Result<treeval_report::Report, Failure> {
    if resample {
        super::significance::sign(&p.report.sig, cfg, &mut signature);
        signature.push("test-metrics", p.test_metrics.join(","));
    }
    let shown = UdShown {
        per_relation: p.per_relation,
        ci: super::significance::intervals(&p.report.sig),
    };
    let mut report = build(signature, gold_file, systems, shown, warnings);
    treeval_report::ud::add_where(&mut report, &opts.filter, gold_file, systems);
    let (sel, q) = (&opts.selection, p.report.quiet);
    let part = crate::select::is_part(&p.report.out);
    crate::select::record_part(
        &mut report,
        sel,
        selected,
        ("syntactic words", true),
        q,
        part,
    )?;
    Ok(report)
}

/// Write the state (`--emit-state`): the reading's warnings without the gold- and
/// system-columns warnings, which a merge makes again from the summed counts.
fn write_state(
    path: &str,
    a: &UdArgs,
    opts: &UdOptions,
    (gold, systems, selected): (
        Option<&UdFileOut>,
        &[UdSystemIn],
        &treeval_metrics::select::SelectionCounts,
    ),
    warnings: &[Warning],
) -> Result<(), Failure> {
    let Some(gold) = gold else {
        return Ok(());
    };
    let columns: Vec<Warning> = treeval_metrics::ud::gold_columns_warning(&gold.stats, &gold.path)
        .into_iter()
        .chain(systems.iter().filter_map(|s| {
            treeval_metrics::ud::system_columns_warning(&s.file.stats, &gold.stats, &s.file.path)
        }))
        .map(|d| Warning::from(&d))
        .collect();
    let read: Vec<Warning> = warnings
        .iter()
        .filter(|w| !columns.contains(w))
        .cloned()
        .collect();
    let state = treeval_report::state::State::of_ud(opts, &a.report.where_, gold, systems, read)
        .with_selection(&opts.selection, selected);
    crate::output::write_state(path, &state)
}

/// The usage errors of `ud` (format, outputs, selection with --compat, stdin twice); the
/// enhancement types not evaluated.
fn check_usage(a: &UdArgs, ins: &[InputRef<'_>]) -> Result<Enhancements, Failure> {
    let can = Capabilities {
        where_: true,
        state: true,
        no_selection: a.compat.map(|_| "--sent-id, --min-len and --max-len are not options of conll18_ud_eval.py or udeval: --compat prints what they print"),
        browser: true,
        ..Capabilities::of("ud")
    };
    check_report(&can, &a.report, a.compat.is_some())?;
    check_state(a)?;
    check_outputs(&outputs(&a.report.out), ins, a.report.out.force)?;
    let enhancements = Enhancements::parse(&a.enhancements)
        .map_err(|e| Failure::Usage(format!("--enhancements: {e}")))?;
    if a.gold == "-" && a.systems.len() > 1 {
        return Err(Failure::Usage(
            "a gold file on standard input can be scored against one system only (ud reads the gold file once per system)".into(),
        ));
    }
    Ok(enhancements)
}

/// `--emit-state` records the counts of a report: not with `--compat` (another tool's
/// lines) or `--align resync` (its windows are found in each shard's text).
fn check_state(a: &UdArgs) -> Result<(), Failure> {
    if a.report.out.emit_state.is_none() {
        return Ok(());
    }
    if a.compat.is_some() {
        return Err(Failure::Usage(
            "--emit-state records the counts of treeval's report; --compat prints a reference scorer's lines: drop one of the two".into(),
        ));
    }
    if a.align == crate::args::AlignArg::Resync {
        return Err(Failure::Usage(
            "--emit-state with --align resync: the mismatch windows are found in each shard's text and would not add up to the whole corpus's; merge shards evaluated with --align strict".into(),
        ));
    }
    Ok(())
}

/// Whether the report is an HTML page (with its charts and sentence browser).
fn html_page(a: &UdArgs) -> bool {
    a.report.format == crate::args::Format::Html && a.compat.is_none()
}

/// The breakdowns the HTML page adds when `--by` is not given.
const PAGE_BY: [treeval_metrics::ByKey; 3] = [
    treeval_metrics::ByKey::Distance,
    treeval_metrics::ByKey::Length,
    treeval_metrics::ByKey::Depth,
];

/// What the HTML page added to the report, as a note.
fn page_note(a: &UdArgs) -> Option<String> {
    let mut added = Vec::new();
    if !a.per_relation {
        added.push("per-relation scores (--per-relation)".to_owned());
    }
    if a.by.is_empty() {
        added.push("breakdowns by distance, length and depth (--by)".to_owned());
    }
    crate::output::page_note(&added)
}

/// The sentence browser's data: every system's trace over the gold words, with the gold
/// sentences' sent_ids (read again from the gold file; none when it is standard input or
/// cannot be read, which the evaluation has reported already).
fn browser(
    a: &UdArgs,
    systems: &[UdSystemIn],
    ids: &[Option<String>],
    total: u64,
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
    browser(&traced, ids, total, a.report.html_sentences())
}

/// The sent_id of every sentence of a CoNLL-U file (empty when it cannot be read again).
pub fn gold_sent_ids(path: &str) -> Vec<Option<String>> {
    if path == "-" {
        return Vec::new();
    }
    let Ok(mut reader) = treeval_formats::ReaderBuilder::new()
        .validate_deps(false)
        .from_path(path)
    else {
        return Vec::new();
    };
    let mut ids = Vec::new();
    let mut s = treeval_formats::Sentence::new();
    while let Ok(true) = reader.read_sentence(&mut s) {
        ids.push(s.sent_id().map(str::to_owned));
    }
    ids
}

/// The scorer's options. Compat modes reproduce the tool without extra flags: udeval
/// leaves out the DEPS items into empty nodes (drop); an explicit --empty-nodes wins
/// (and is signed).
fn options(a: &UdArgs, enhancements: Enhancements, resample: bool) -> UdOptions {
    let udeval = matches!(a.compat, Some(UdCompat::Udeval | UdCompat::UdevalCounts));
    let conll18 = matches!(a.compat, Some(UdCompat::Conll18 | UdCompat::Conll18Counts));
    let empty_nodes = match a.empty_nodes {
        Some(e) => e.into(),
        None if udeval => EmptyNodes::Drop,
        None => EmptyNodes::Collapse,
    };
    if udeval && !a.report.quiet && empty_nodes != EmptyNodes::Drop {
        eprintln!(
            "note: --empty-nodes {} differs from udeval's own handling of these files (drop)",
            empty_nodes.name()
        );
    }
    UdOptions {
        multiple_roots_okay: a.multiple_roots_okay,
        empty_nodes,
        enhancements,
        keep_sentences: resample
            || a.report.out.per_sentence.is_some()
            || a.report.out.keep_sentences,
        align: a.align.into(),
        by: if a.by.is_empty() && html_page(a) {
            PAGE_BY.to_vec()
        } else {
            a.by.clone()
        },
        relation_sets: false,
        skip_enhanced: conll18,
        // --errors lists every sentence's words; the page samples them
        trace: if a.report.errors && a.compat.is_none() {
            Some(0)
        } else {
            html_page(a).then_some(a.report.html_sentences())
        },
        relation_triples: None,
        filter: Default::default(),
        selection: Default::default(),
    }
}

/// The `--where` conditions: on gold words only, relations compared by their universal
/// part (as every `ud` score).
fn where_filter(a: &UdArgs) -> Result<Where, Failure> {
    let w = Where::all(&a.report.where_, LabelMode::Universal)
        .map_err(|e| Failure::Usage(format!("--where: {e}")))?;
    if w.has_system_side() {
        return Err(Failure::Usage(format!(
            "--where {}: ud takes conditions on gold words only (KEY or gold.KEY); the system words counted are those aligned to the gold words kept\n  hint: for conditions on the system's analysis, `treeval deps` scores files with gold's words by position",
            w.describe()
        )));
    }
    Ok(w)
}

/// The systems, their readers' warnings, the gold file's description, and the sentence
/// selection's counts with the numbers of the gold sentences kept (the same for every
/// system: the gold decides).
type Scored = (
    Vec<UdSystemIn>,
    Vec<treeval_formats::Diagnostic>,
    Option<UdFileOut>,
    (treeval_metrics::select::SelectionCounts, Vec<u64>),
);

/// Every system scored against the gold: the systems, their readers' warnings and the
/// gold file's description; all failures together.
fn score(a: &UdArgs, opts: &UdOptions) -> Result<Scored, Failure> {
    // --compat reads the files as the scorer whose output it prints reads them
    let reference = a.compat.map(|c| match c {
        UdCompat::Conll18 | UdCompat::Conll18Counts => Reference::Conll18,
        UdCompat::Udeval | UdCompat::UdevalCounts => Reference::Udeval,
    });
    let gold = input(&a.gold, reference);
    let mut systems: Vec<UdSystemIn> = Vec::new();
    let mut diagnostics = Vec::new();
    let mut gold_out = None;
    let mut selected = None;
    let mut failures = Vec::new();
    for path in &a.systems {
        match evaluate(&gold, &input(path, reference), opts) {
            Ok(r) => {
                gold_out.get_or_insert_with(|| UdFileOut::new(&a.gold, &r.gold));
                selected.get_or_insert_with(|| (r.selection.clone(), r.numbers.clone()));
                let columns = r
                    .gold_columns_warning
                    .iter()
                    .chain(&r.system_columns_warning);
                diagnostics.extend(r.warnings.iter().chain(columns).cloned());
                systems.push(UdSystemIn {
                    file: UdFileOut::new(path, &r.system),
                    counts: r.counts,
                    relations: r.relations,
                    by: r.by,
                    resync: r.resync,
                    sentences: r.sentences,
                    trace: r.trace,
                    trace_labels: r.trace_labels,
                });
            }
            Err(e) => failures.push(explain(e, &a.gold, path)),
        }
    }
    if !failures.is_empty() {
        return Err(Failure::Eval(failures.join("\n")));
    }
    Ok((systems, diagnostics, gold_out, selected.unwrap_or_default()))
}

/// One object per gold sentence and system; system words count toward the gold sentence
/// their first character lies in.
fn write_per_sentence(
    a: &UdArgs,
    ins: &[InputRef<'_>],
    systems: &[UdSystemIn],
    numbers: &[u64],
) -> Result<(), Failure> {
    let mut sink = PerSentence::open(a.report.out.per_sentence.as_deref(), "ud", ins)?;
    let ids = gold_sent_ids(&a.gold);
    for (k, s) in systems.iter().enumerate() {
        for (&i, c) in numbers.iter().zip(&s.sentences) {
            let id = (ids.get((i as usize).wrapping_sub(1))).and_then(Option::as_deref);
            sink.write(&Record::of(i, k, c).sent_id(id));
        }
    }
    sink.finish()
}

/// The signature of the scoring conventions (and of the reference tool reproduced).
fn signature(a: &UdArgs, opts: &UdOptions) -> Signature {
    let empty_nodes_sig = match (a.compat, a.empty_nodes) {
        (Some(UdCompat::Udeval | UdCompat::UdevalCounts), Some(_)) => {
            format!("{}(given)", opts.empty_nodes.name())
        }
        _ => opts.empty_nodes.name().to_owned(),
    };
    let mut signature = conventions(opts, empty_nodes_sig);
    if let Some(c) = a.compat {
        signature.push(
            "compat",
            match c {
                UdCompat::Conll18 | UdCompat::Conll18Counts => "conll18",
                UdCompat::Udeval | UdCompat::UdevalCounts => "udeval",
            }
            .into(),
        );
    }
    signature
}

/// The signature of the scoring conventions (`empty_nodes_sig`: how the empty-node
/// handling is named).
pub fn conventions(opts: &UdOptions, empty_nodes_sig: String) -> Signature {
    let mut signature = Signature::new(
        "ud",
        &[
            ("labels", "universal".into()),
            ("align", opts.align.name().into()),
            ("empty-nodes", empty_nodes_sig),
            ("enhancements", opts.enhancements.digits()),
            (
                "roots",
                if opts.multiple_roots_okay {
                    "many"
                } else {
                    "one"
                }
                .into(),
            ),
        ],
    );
    if !opts.filter.is_empty() {
        signature.push("where", opts.filter.name());
    }
    signature
}

/// The reference output asked for, if any.
fn compat(a: &UdArgs) -> Option<Compat> {
    a.compat.map(|c| match (c, a.verbose) {
        (UdCompat::Conll18, false) => Compat::Conll18,
        (UdCompat::Conll18, true) => Compat::Conll18Verbose,
        (UdCompat::Conll18Counts, _) => Compat::Conll18Counts,
        (UdCompat::Udeval, false) => Compat::Udeval,
        (UdCompat::Udeval, true) => Compat::UdevalVerbose,
        (UdCompat::UdevalCounts, _) => Compat::UdevalCounts,
    })
}

/// The tests on the F1 of the `--test-metrics`, each over the sentences' counts of its
/// metric.
pub fn significance(
    a: &Present,
    cfg: &treeval_stats::compare::CompareConfig,
    systems: &[UdSystemIn],
    report: &mut treeval_report::value::Report,
) {
    let tested: Vec<treeval_metrics::measure::Measure> = a
        .test_metrics
        .iter()
        .filter_map(|m| UdMetric::parse(m).map(f1_of))
        .collect();
    let with: Vec<treeval_report::driver::Tested> = tested.iter().map(|m| (m, None)).collect();
    let units: Vec<Vec<treeval_metrics::ud::UdCounts>> =
        systems.iter().map(|s| s.sentences.clone()).collect();
    let bar = super::significance::Progress::new(a.report.quiet);
    (report.comparisons, report.rankings) =
        treeval_report::driver::tests(&with, &units, cfg, &|l, d, t| bar.update(l, d, t));
    bar.finish();
}

/// The rule of [`crate::select::nothing_scored`] for every system (the command's and a
/// merge's): `--where` that keeps no gold word leaves nothing to score. (`--compat`
/// refuses `--where`.)
pub(crate) fn check_scored(
    opts: &UdOptions,
    systems: &[UdSystemIn],
    (gold, selected): (&UdFileOut, &treeval_metrics::select::SelectionCounts),
    out: &crate::args::OutputArgs,
) -> Result<(), Failure> {
    if opts.filter.is_empty() {
        // every gold word is scored: a gold file without words is an error of its own
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
    crate::select::nothing_scored(each, (&opts.selection, selected), out)
}
