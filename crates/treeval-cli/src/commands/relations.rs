//! `treeval relations`: set-of-relations accuracy (van Noord et al., Alpino treebank,
//! 2002) over the `ud` word alignment, for one or more systems.

use std::io::Write;

use treeval_metrics::relations::{measures, RelationSetCounts};
use treeval_metrics::ud::triples::RelationGraph;
use treeval_metrics::ud::{evaluate, UdOptions};
use treeval_report::records::Record;
use treeval_report::relations::RelationsIn;

use super::ud::{explain, input, print_warnings};
use crate::args::{GraphArg, RelationsArgs};
use crate::output::{check_outputs, check_report, outputs, Capabilities, InputRef, PerSentence};
use crate::Failure;

/// Run the command.
pub fn run(a: &RelationsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let opts = UdOptions {
        selection: crate::select::selection(&a.report.select)?,
        ..options(a)
    };
    let ins: Vec<InputRef<'_>> = std::iter::once(("GOLD", a.gold.as_str()))
        .chain(a.systems.iter().map(|s| ("SYS", s.as_str())))
        .collect();
    let can = Capabilities {
        state: true,
        ..Capabilities::of("relations")
    };
    check_report(&can, &a.report, false)?;
    check_state(a)?;
    check_outputs(&outputs(&a.report.out), &ins, a.report.out.force)?;
    let (cfg, _) = super::significance::resampling_config(
        &a.report.sig,
        a.systems.len(),
        "system files",
        "needs paired binary decisions; relation sets are compared with --test ar or --test bootstrap",
    )?;
    let (units, triples, warnings, (selected, numbers)) = score(a, &opts)?;
    if a.report.out.per_sentence.is_some() {
        write_per_sentence(a, &ins, &units, &numbers)?;
    }
    let e = RelationsIn {
        gold: &a.gold,
        systems: &a.systems,
        enhanced: a.graph == GraphArg::Enhanced,
        opts: &opts,
        units: &units,
    };
    if let Some(path) = a.report.out.emit_state.as_deref() {
        let state = treeval_report::state::State::of_relations(&e, warnings.clone())
            .with_selection(&opts.selection, &selected);
        crate::output::write_state(path, &state)?;
    }
    let p = Present {
        report: &a.report,
        test_metrics: &a.test_metrics,
    };
    let mut report = present(&p, &e, warnings, &selected, &cfg)?;
    if a.report.errors {
        let ids = super::ud::gold_sent_ids(&a.gold);
        report.listings = triples
            .iter()
            .enumerate()
            .map(|(k, t)| treeval_report::errors::relations_errors(k, t, &ids))
            .collect();
    }
    let text = treeval_report::emit::to_string(&report, a.report.format);
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}

/// How a `relations` result is shown (from `relations`' arguments, or `merge`'s).
pub struct Present<'a> {
    /// Format, significance, selection and output options.
    pub report: &'a crate::args::ReportArgs,
    /// Measures the tests compare.
    pub test_metrics: &'a [String],
}

/// The report of `e`: scores with their intervals, the selection, the tests (the part
/// shared by `relations` and `merge`).
pub fn present(
    p: &Present,
    e: &RelationsIn<'_>,
    warnings: Vec<treeval_report::model::Warning>,
    selected: &treeval_metrics::select::SelectionCounts,
    cfg: &treeval_stats::compare::CompareConfig,
) -> Result<treeval_report::Report, Failure> {
    let ms = measures();
    let ci = super::significance::intervals(&p.report.sig);
    let mut report = treeval_report::relations::build(e, &ms, ci, warnings);
    let (sel, q) = (&e.opts.selection, p.report.quiet);
    let part = crate::select::is_part(&p.report.out);
    crate::select::record_part(
        &mut report,
        sel,
        selected,
        ("syntactic words", true),
        q,
        part,
    )?;
    if !cfg.tests.is_empty() {
        let tested: Vec<treeval_report::driver::Tested> = ms
            .iter()
            .filter(|m| p.test_metrics.iter().any(|t| t == m.name))
            .map(|m| (m, None))
            .collect();
        let bar = super::significance::Progress::new(p.report.quiet);
        (report.comparisons, report.rankings) =
            treeval_report::driver::tests(&tested, e.units, cfg, &|l, d, t| bar.update(l, d, t));
        bar.finish();
    }
    if !cfg.tests.is_empty() || p.report.sig.ci.is_some() {
        super::significance::sign(&p.report.sig, cfg, &mut report.signature);
    }
    report.significance = super::significance::settings(&p.report.sig, cfg, p.test_metrics);
    Ok(report)
}

/// `--emit-state` records the counts of a report: not with `--align resync` (its windows
/// are found in each shard's text).
fn check_state(a: &RelationsArgs) -> Result<(), Failure> {
    if a.report.out.emit_state.is_none() {
        return Ok(());
    }
    if a.align == crate::args::AlignArg::Resync {
        return Err(Failure::Usage(
            "--emit-state with --align resync: the mismatch windows are found in each shard's text and would not add up to the whole corpus's; merge shards evaluated with --align strict".into(),
        ));
    }
    Ok(())
}

/// The evaluation's options: the ud alignment, relation sets counted, and with `--errors`
/// the unmatched relations of the graph compared.
fn options(a: &RelationsArgs) -> UdOptions {
    UdOptions {
        multiple_roots_okay: a.multiple_roots_okay,
        empty_nodes: a.empty_nodes.into(),
        keep_sentences: true,
        relation_sets: true,
        align: a.align.into(),
        relation_triples: a.report.errors.then_some(if a.graph == GraphArg::Enhanced {
            RelationGraph::Enhanced
        } else {
            RelationGraph::Basic
        }),
        ..UdOptions::default()
    }
}

/// What the systems scored: per system its sentences' relation counts and its unmatched
/// relations (with `--errors`), the warnings,
/// and the selection's counts with the numbers of the kept gold sentences.
type Scored = (
    Vec<Vec<RelationSetCounts>>,
    Vec<Vec<treeval_metrics::ud::triples::Triple>>,
    Vec<treeval_report::model::Warning>,
    (treeval_metrics::select::SelectionCounts, Vec<u64>),
);

/// Every system scored against the gold (over the ud alignment, relation sets counted).
fn score(a: &RelationsArgs, opts: &UdOptions) -> Result<Scored, Failure> {
    let k = usize::from(a.graph == GraphArg::Enhanced);
    let mut units: Vec<Vec<RelationSetCounts>> = Vec::new();
    let mut triples = Vec::new();
    let mut warnings = Vec::new();
    let mut selected = None;
    for sys in &a.systems {
        let r = evaluate(&input(&a.gold, None), &input(sys, None), opts)
            .map_err(|e| Failure::Eval(explain(e, &a.gold, sys)))?;
        crate::select::check_kept_unless_part(&opts.selection, &r.selection, &a.report.out)?;
        let graph = (k == 1).then(|| no_graph_warning(sys, &r)).flatten();
        for w in print_warnings(
            &[&r.warnings[..], graph.as_slice()].concat(),
            a.report.quiet,
        ) {
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
        let (c, numbers) = (&r.selection, &r.numbers);
        selected.get_or_insert_with(|| (c.clone(), numbers.clone()));
        triples.push(r.relation_triples);
        units.push(
            r.sentences
                .iter()
                .map(|s| RelationSetCounts::sentence(&s.relation_sets[k]))
                .collect(),
        );
    }
    Ok((units, triples, warnings, selected.unwrap_or_default()))
}

/// With `--graph enhanced`, a system whose DEPS column is `_` on every word (no enhanced
/// graph, as spaCy's output) against a gold graph: a warning that names DEPS and the file
/// (its scores are n/a, as `ud`'s ELAS and EULAS for it).
fn no_graph_warning(
    sys: &str,
    r: &treeval_metrics::ud::UdResult,
) -> Option<treeval_formats::Diagnostic> {
    use treeval_formats::{Diagnostic, ErrorKind, Position};
    let none = r.system.words > 0 && r.system.deps_filled == 0 && r.system.enhanced_items == 0;
    (none && r.gold.enhanced_items > 0).then(|| {
        Diagnostic::warning(
            Position::new(std::sync::Arc::from(sys), 0, 0),
            ErrorKind::Other("the system DEPS column is '_' on every word (no enhanced graph): precision, recall, F1, CA and CA-macro not applicable (n/a) for this system in the report".into()),
        )
        .with_hint("the system predicted no enhanced graph to compare (as spaCy's output); --graph basic compares its tree")
    })
}

/// One object per gold sentence and system: the relation counts and CA.
fn write_per_sentence(
    a: &RelationsArgs,
    ins: &[InputRef<'_>],
    units: &[Vec<RelationSetCounts>],
    numbers: &[u64],
) -> Result<(), Failure> {
    let mut sink = PerSentence::open(a.report.out.per_sentence.as_deref(), "relations", ins)?;
    let ids = super::ud::gold_sent_ids(&a.gold);
    for (system, rows) in units.iter().enumerate() {
        for (&i, c) in numbers.iter().zip(rows) {
            let id = (ids.get((i as usize).wrapping_sub(1))).and_then(Option::as_deref);
            sink.write(&Record::of(i, system, c).sent_id(id));
        }
    }
    sink.finish()
}
