//! `treeval merge`: the states of shards (`--emit-state`) summed into the report of the
//! concatenated corpus, built by the command's own code (`deps::present`,
//! `ud::present`, `relations::present`, `ted::present` and `pts::present` of the library).

use std::io::Write;

use treeval_metrics::deps::filter::Where;
use treeval_metrics::{ByKey, DepsOptions, LabelMode, PunctPolicy};
use treeval_report::state::{self, DepsState, State};

use crate::args::{Format, MergeArgs, TestArg};
use crate::output::{check_outputs, check_report, outputs, Capabilities, InputRef};
use crate::Failure;

/// Warnings a run keeps (the limit of [`treeval_formats::Diagnostics`]' default).
const WARNINGS_KEPT: usize = 100;

/// Run the command, writing the report to `out`.
pub fn run(a: &MergeArgs, out: &mut dyn Write) -> Result<(), Failure> {
    validate(a)?;
    let states = read(a)?;
    refuse_duplicates(a, &states)?;
    state::check(&states, &a.states).map_err(Failure::Eval)?;
    needs_sentences(a, &states)?;
    check_tests(a, &states)?;
    let merged = state::merge(states)
        .ok_or_else(|| Failure::Usage("give the state files of one or more shards".into()))?;
    if let Some(path) = a.report.out.emit_state.as_deref() {
        crate::output::write_state(path, &merged)?;
    }
    let shards = merged.shards;
    let rows = state::has_sentences(&merged);
    let mut report = match merged.family.as_str() {
        "ud" => ud_report(a, merged)?,
        "relations" => relations_report(a, merged)?,
        "ted" => ted_report(a, merged)?,
        "pts" => pts_report(a, merged)?,
        "brackets" => brackets_report(a, merged)?,
        "align" => align_report(a, merged)?,
        _ => deps_report(a, merged)?,
    };
    record_merge(&mut report, shards, rows);
    if a.report.format == Format::Html {
        report.notes.push(
            "no sentence browser on this page: the states of the shards hold counts, not sentences (the page of each shard's own run has its sentences)".into(),
        );
    }
    let text = treeval_report::emit::to_string(&report, a.report.format);
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)?;
    Ok(())
}

/// The report of merged `deps` states, made by `deps`' own code.
fn deps_report(a: &MergeArgs, merged: State) -> Result<treeval_report::Report, Failure> {
    let (selection, selected) = crate::select::from_state(&merged)?;
    let Some(deps) = merged.deps else {
        return Err(Failure::Eval("the states hold no deps counts".into()));
    };
    let (mut opts, profile) = deps_options(&merged.options, &deps)?;
    opts.selection = selection;
    check_mcnemar(a, opts.pair_decisions)?;
    if a.confusion.is_some() && !opts.confusion {
        return Err(Failure::Usage(
            "--confusion needs the label confusions, which a state keeps only when written with --confusion".into(),
        ));
    }
    let test_metrics = test_metrics(a, "deps")?;
    let mut result = deps.into_result(&opts, WARNINGS_KEPT);
    result.selection = selected;
    let mut common = a.report.common();
    treeval::deps::check_scored(&result, &opts, common.is_part())?;
    result.corpus_checks(&opts);
    let bar = super::significance::Progress::new(a.report.quiet);
    common.progress = Some(bar.callback());
    let shown = treeval::deps::Present {
        common: &common,
        per_relation: a.per_relation,
        confusion: a.confusion,
        test_metrics: &test_metrics,
    };
    let report = treeval::deps::present(&shown, &result, &opts, &profile);
    bar.finish();
    let report = report?;
    super::significance::print_warnings(&report.warnings, a.report.quiet);
    Ok(report)
}

/// The report of merged `ud` states, made by `ud`'s own code (`treeval::ud::present`).
fn ud_report(a: &MergeArgs, merged: State) -> Result<treeval_report::Report, Failure> {
    use treeval_report::model::Warning;
    let (selection, selected) = crate::select::from_state(&merged)?;
    let Some(ud) = merged.ud else {
        return Err(Failure::Eval("the states hold no ud counts".into()));
    };
    if a.confusion.is_some() {
        return Err(Failure::Usage(
            "--confusion: ud has no confusion matrix (deps has)".into(),
        ));
    }
    let opts = ud_options(&merged.options, &ud, selection)?;
    let test_metrics = test_metrics(a, "ud")?;
    let mut common = a.report.common();
    treeval::ud::check_tests(&common, ud.systems.len())?;
    let systems = ud.systems_in();
    let gold = ud.gold.out();
    treeval::ud::check_scored(&opts, &systems, (&gold, &selected), common.is_part())?;
    let mut warnings = ud.warnings;
    let columns = treeval_metrics::ud::gold_columns_warning(&gold.stats, &gold.path);
    warnings.extend(columns.map(|d| Warning::from(&d)));
    for s in &systems {
        let d =
            treeval_metrics::ud::system_columns_warning(&s.file.stats, &gold.stats, &s.file.path);
        warnings.extend(d.map(|d| Warning::from(&d)));
    }
    let signature = treeval::ud::conventions(&opts, opts.empty_nodes.name().to_owned());
    let bar = super::significance::Progress::new(a.report.quiet);
    common.progress = Some(bar.callback());
    let p = treeval::ud::Present {
        common: &common,
        per_relation: a.per_relation,
        test_metrics: &test_metrics,
    };
    let read = warnings.len();
    let report = treeval::ud::present(&p, &opts, signature, (&gold, &systems, &selected), warnings);
    bar.finish();
    let report = report?;
    // the selection's warnings, as `ud` prints them
    super::significance::print_warnings(
        report.warnings.get(read..).unwrap_or_default(),
        a.report.quiet,
    );
    Ok(report)
}

/// The report of merged `relations` states, made by `relations`' own code
/// (`treeval::relations::present`).
fn relations_report(a: &MergeArgs, merged: State) -> Result<treeval_report::Report, Failure> {
    use treeval_metrics::ud::UdOptions;
    let (selection, selected) = crate::select::from_state(&merged)?;
    let Some(rel) = merged.relations else {
        return Err(Failure::Eval("the states hold no relations counts".into()));
    };
    if a.confusion.is_some() || a.per_relation {
        return Err(Failure::Usage(
            "--confusion and --per-relation: relations has neither table (deps and ud have)".into(),
        ));
    }
    let o = &merged.options;
    let text = |k: &str| o.get(k).and_then(|v| v.as_str()).unwrap_or_default();
    let opts = UdOptions {
        keep_sentences: true,
        relation_sets: true,
        selection,
        ..alignment_options(o)?
    };
    let test_metrics = test_metrics(a, "relations")?;
    let mut common = a.report.common();
    treeval::relations::check_tests(&common, rel.systems.len())?;
    let e = treeval_report::relations::RelationsIn {
        gold: &rel.gold,
        systems: &rel.systems,
        enhanced: text("graph") == "enhanced",
        opts: &opts,
        units: &rel.units,
    };
    let bar = super::significance::Progress::new(a.report.quiet);
    common.progress = Some(bar.callback());
    let p = treeval::relations::Present {
        common: &common,
        test_metrics: &test_metrics,
    };
    let read = rel.warnings.len();
    let report = treeval::relations::present(&p, &e, rel.warnings.clone(), &selected);
    bar.finish();
    let report = report?;
    // the selection's warnings, as `relations` prints them
    super::significance::print_warnings(
        report.warnings.get(read..).unwrap_or_default(),
        a.report.quiet,
    );
    Ok(report)
}

/// `--test mcnemar` needs the paired decisions, which the states `kept` or not.
fn check_mcnemar(a: &MergeArgs, kept: bool) -> Result<(), Failure> {
    if a.report.sig.tests.contains(&TestArg::Mcnemar) && !kept {
        return Err(Failure::Usage(
            "--test mcnemar needs the paired word decisions, which a state keeps only when written with --test mcnemar\n  hint: use --test ar or --test bootstrap (per-sentence rows), or write the states with --test mcnemar".into(),
        ));
    }
    Ok(())
}

/// The tables and metric choices of deps and ud that `family` does not have, refused.
fn refuse_deps_tables(a: &MergeArgs, family: &str, tested: &str) -> Result<(), Failure> {
    no_tables(a, family)?;
    if !a.test_metrics.is_empty() {
        return Err(Failure::Usage(format!(
            "--test-metrics: {family} tests {tested}; the option is for deps, ud and relations states"
        )));
    }
    Ok(())
}

/// The report of merged `ted` states, made by `ted`'s own code
/// ([`treeval::ted::present`]) from the experiments' rows.
fn ted_report(a: &MergeArgs, merged: State) -> Result<treeval_report::Report, Failure> {
    use treeval::ted::{BracketLabels, Options, Present};
    let (selection, selected) = crate::select::from_state(&merged)?;
    let Some(ted) = merged.ted else {
        return Err(Failure::Eval("the states hold no ted counts".into()));
    };
    let o = &merged.options;
    let flag = |k: &str| o.get(k).and_then(|v| v.as_bool()).unwrap_or(false);
    let bracket_labels = match o.get("bracket_labels").and_then(|v| v.as_str()) {
        Some("category") => BracketLabels::Category,
        Some("full") => BracketLabels::Full,
        _ => return Err(bad("bracket_labels")),
    };
    let options = Options {
        unlabeled: flag("unlabeled"),
        micro: flag("micro"),
        no_test: flag("no_test"),
        max_cost: o.get("max_cost").and_then(|v| v.as_u64()),
        bracket_labels,
        script: false,
    };
    let label_equiv = o.get("label_equiv").and_then(|v| v.as_str());
    let tested = treeval_report::ted::tested_name(options.micro);
    refuse_deps_tables(
        a,
        "ted",
        &format!("{tested} (as the states were written: --micro)"),
    )?;
    let mut common = a.report.common();
    let cfg = treeval::ted::test_config(&common, options.no_test, ted.experiments.len())?;
    let mut r = ted.into_result(WARNINGS_KEPT);
    if !selection.is_all() {
        // the input counts of one run: the sentences the selection excludes by length
        r.skipped_long = (selected.by_length, selected.by_length_words);
        r.selection = selected;
    }
    treeval::ted::check_scored(&r, (&selection, options.max_cost), common.is_part())?;
    r.corpus_checks();
    let bar = super::significance::Progress::new(a.report.quiet);
    common.progress = Some(bar.callback());
    let shown = Present {
        common: &common,
        options: &options,
        label_equiv,
    };
    let report = treeval::ted::present(&shown, &r, &cfg, &selection);
    bar.finish();
    let report = report?;
    super::significance::print_warnings(&report.warnings, a.report.quiet);
    Ok(report)
}

/// The report of merged `pts` states, made by `pts`' own code (`pts::present`).
fn pts_report(a: &MergeArgs, merged: State) -> Result<treeval_report::Report, Failure> {
    let (selection, selected) = crate::select::from_state(&merged)?;
    let Some(pts) = merged.pts else {
        return Err(Failure::Eval("the states hold no pts counts".into()));
    };
    refuse_deps_tables(a, "pts", "UAS_a, UAS_b, AER and PTS")?;
    let o = &merged.options;
    let text = |k: &str| o.get(k).and_then(|v| v.as_str()).unwrap_or_default();
    let weights = state::parse_weights(text("weights")).ok_or_else(|| bad("weights"))?;
    let decisions = o.get("pair_decisions").and_then(|v| v.as_bool()) == Some(true);
    check_mcnemar(a, decisions)?;
    let opts = DepsOptions {
        punct: PunctPolicy::parse(text("punct")).ok_or_else(|| bad("punct"))?,
        labels: LabelMode::Full,
        pair_decisions: decisions,
        ..DepsOptions::default()
    };
    let m = pts.into_merged(&opts, WARNINGS_KEPT);
    let mut common = a.report.common();
    let bar = super::significance::Progress::new(a.report.quiet);
    common.progress = Some(bar.callback());
    let p = treeval::pts::Present {
        common: &common,
        punct: text("punct"),
        index: &state::PtsIndex::of_options(o),
    };
    let mut report = treeval::pts::present(&p, &m.input(weights), m.warnings.clone());
    bar.finish();
    // its warnings are printed with the report's, as `pts` prints them
    treeval::pts::record(&mut report, (&selection, &selected), common.is_part())?;
    super::significance::print_warnings(&report.warnings, a.report.quiet);
    Ok(report)
}

/// `--test-metrics`, checked against the family's metrics (its default when not given).
fn test_metrics(a: &MergeArgs, family: &str) -> Result<Vec<String>, Failure> {
    let default: &[&str] = match family {
        "ud" => &["LAS", "MLAS", "BLEX"],
        "relations" => &["CA", "CA-macro"],
        "brackets" => &["F"],
        "align" => &["AER"],
        _ => &["LAS", "UAS", "LA"],
    };
    let known = crate::args::TEST_METRIC_FAMILIES
        .iter()
        .find(|(f, _)| *f == family)
        .map_or_else(Vec::new, |&(_, measures)| {
            crate::args::test_metric_names(measures)
        });
    if a.test_metrics.is_empty() {
        return Ok(default.iter().map(|m| (*m).to_owned()).collect());
    }
    a.test_metrics
        .iter()
        .map(|m| {
            known
                .iter()
                .find(|k| k.eq_ignore_ascii_case(m))
                .map(|k| (*k).to_owned())
                .ok_or_else(|| {
                    Failure::Usage(format!(
                        "--test-metrics: expected one of {} (the states are of `{family}`); found '{m}'",
                        known.join(", ")
                    ))
                })
        })
        .collect()
}

/// The report of merged `brackets` states, made by the library's `brackets` code.
fn brackets_report(a: &MergeArgs, merged: State) -> Result<treeval_report::Report, Failure> {
    use treeval::brackets as lib;
    use treeval_metrics::brackets::by::BracketsKey;
    use treeval_metrics::brackets::filter::BracketWhere;
    let (selection, selected) = crate::select::from_state(&merged)?;
    let Some(b) = merged.brackets else {
        return Err(Failure::Eval("the states hold no brackets counts".into()));
    };
    no_tables(a, "brackets")?;
    if let Some(m) = b.stops() {
        return Err(Failure::Eval(m));
    }
    let o = &merged.options;
    let text = |k: &str| o.get(k).and_then(|v| v.as_str()).unwrap_or_default();
    let layout = lib::Layout::named(text("layout")).ok_or_else(|| bad("layout"))?;
    let by = (o.get("by").and_then(|v| v.as_array()).into_iter().flatten())
        .map(|k| {
            k.as_str()
                .and_then(BracketsKey::parse)
                .ok_or_else(|| bad("by"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut params = b.params.clone();
    params.filter = BracketWhere::all(&b.where_specs).map_err(|_| bad("where"))?;
    params.by_label = by.contains(&BracketsKey::Label);
    params.selection = selection;
    let test_metrics = test_metrics(a, "brackets")?;
    let systems = b.systems();
    let mut common = a.report.common();
    let tests = treeval::significance::resampling_config(
        &common,
        systems.len(),
        "test files",
        lib::NO_MCNEMAR,
    )?;
    let each = b.systems.iter().map(|s| {
        let n = lib::scored(&s.all, &s.where_counts, &params);
        let why = || lib::nothing(&s.path, &s.all, b.gold_trees, &params);
        (n, Box::new(why) as Box<dyn FnOnce() -> _>)
    });
    crate::select::nothing_scored(each, (&params.selection, &selected), &a.report.out)?;
    let mut warnings = b.warnings.clone();
    for s in &b.systems {
        warnings.extend(s.warnings.iter().cloned());
        warnings.extend(lib::unscored_warning(&s.path, &s.all, &s.errors));
    }
    let e = treeval_report::brackets::BracketsIn {
        gold: &b.gold,
        params: &params,
        prm_name: &b.prm_name,
        gold_trees: b.gold_trees,
        systems: &systems,
        careful_pairs: &[],
        by: &by,
    };
    let bar = super::significance::Progress::new(a.report.quiet);
    common.progress = Some(bar.callback());
    let p = lib::Present {
        common: &common,
        test_metrics: &test_metrics,
        layout,
        careful: None,
        tests: (&tests.0, tests.1),
    };
    let mut report = lib::present(&p, &e, warnings);
    bar.finish();
    let unit = (lib::LENGTH_UNIT, true);
    record_selection(a, &mut report, (&params.selection, &selected), unit)?;
    Ok(report)
}

/// The merged sentence selection and its counts in the report, as the command records
/// them (a merge that keeps no sentence is the error of one run, unless it writes a state).
fn record_selection(
    a: &MergeArgs,
    report: &mut treeval_report::Report,
    (sel, counts): (
        &treeval_metrics::select::Selection,
        &treeval_metrics::select::SelectionCounts,
    ),
    unit: (&str, bool),
) -> Result<(), Failure> {
    let part = crate::select::is_part(&a.report.out);
    crate::select::record_part(report, sel, counts, unit, a.report.quiet, part)
}

/// The report of merged `align` states, made by `align`'s own code.
fn align_report(a: &MergeArgs, merged: State) -> Result<treeval_report::Report, Failure> {
    use treeval_report::align::AlignIn;
    let (selection, selected) = crate::select::from_state(&merged)?;
    let Some(st) = merged.align else {
        return Err(Failure::Eval("the states hold no align counts".into()));
    };
    no_tables(a, "align")?;
    let o = &merged.options;
    let f_alpha = o.get("f_alpha").and_then(|v| v.as_f64()).unwrap_or(0.5);
    let keep_null = o.get("null").and_then(|v| v.as_str()) == Some("include");
    let declared = o.get("sentences_given").and_then(|v| v.as_bool()) == Some(true);
    let test_metrics = test_metrics(a, "align")?;
    let mut common = a.report.common();
    treeval::significance::resampling_config(
        &common,
        st.hyps.len(),
        "hypothesis files",
        treeval::align::NO_MCNEMAR,
    )?;
    let file = |f: &state::AlignFileState| alignment_file(&f.path, &f.format);
    let gold = file(&st.gold)?;
    let hyps = st.hyps.iter().map(file).collect::<Result<Vec<_>, _>>()?;
    let (per_hyp, totals) = (st.per_hyp(), st.totals());
    let (sel, files) = ((&selection, &selected), (&gold, &hyps[..], &totals[..]));
    treeval::align::check_scored(files, keep_null, sel, None, common.is_part())?;
    let mut warnings = st.warnings.clone();
    for (k, (h, t)) in st.hyps.iter().zip(&totals).enumerate() {
        let other = || st.readings.get(k).cloned().unwrap_or_default();
        treeval::align::hyp_warnings(&h.path, keep_null, t, &other, &mut warnings);
    }
    let gold_counts = totals.first().copied().unwrap_or_default();
    let e = AlignIn {
        gold: &gold,
        hyps: &hyps,
        per_hyp: &per_hyp,
        totals: &totals,
        gold_counts: &gold_counts,
        f_alpha,
        keep_null,
    };
    // `--sentences` as given: under a selection, the pairs scored are those it kept,
    // and the selection counted every pair of the shards
    let given = if selection.is_all() {
        st.pairs
    } else {
        selected.sentences()
    };
    let bar = super::significance::Progress::new(a.report.quiet);
    common.progress = Some(bar.callback());
    let p = treeval::align::Present {
        common: &common,
        test_metrics: &test_metrics,
        sentences: declared.then_some(given),
    };
    let mut report = treeval::align::present(&p, &e, warnings);
    bar.finish();
    // a state's selection is by length (`--sent-id` is refused with `--emit-state`),
    // which needs `--tokens`: the counts hold words
    let unit = (treeval::align::LENGTH_UNIT, true);
    record_selection(a, &mut report, (&selection, &selected), unit)?;
    if let Some(sw) = &st.subwords {
        treeval::align::subword_notes(&mut report, sw, &hyps);
    }
    Ok(report)
}

/// An alignment file as the `align` report names it: its path and format, no links.
fn alignment_file(
    path: &str,
    format: &str,
) -> Result<treeval_formats::align::AlignmentFile, Failure> {
    use treeval_formats::align::AlignFormat;
    let format = [AlignFormat::Naacl, AlignFormat::Pharaoh]
        .into_iter()
        .find(|f| f.name() == format)
        .ok_or_else(|| {
            Failure::Eval(format!(
                "the states' format {format} is not one treeval knows"
            ))
        })?;
    Ok(treeval_formats::align::AlignmentFile {
        path: path.into(),
        format,
        guessed: false,
        sentences: Default::default(),
        lines: 0,
        id_widths: Default::default(),
        mixed_ids: false,
        warnings: Default::default(),
    })
}

/// `--confusion` and `--per-relation` are tables of `deps` and `ud` only.
fn no_tables(a: &MergeArgs, family: &str) -> Result<(), Failure> {
    if a.confusion.is_some() || a.per_relation {
        return Err(Failure::Usage(format!(
            "--confusion and --per-relation: {family} has neither table (deps and ud have)"
        )));
    }
    Ok(())
}

/// The merge in the signature (`merged:N`) and the conventions; without per-sentence rows,
/// a note on the macro averages over sentences.
fn record_merge(report: &mut treeval_report::Report, shards: u64, rows: bool) {
    report.signature.push("merged", shards.to_string());
    report.convention(
        "merged",
        format!("{shards} shard state(s), in the order given"),
    );
    if !rows && report.command == "deps" {
        report.notes.push(
            "merged without per-sentence rows: the macro averages over sentences add the shards' sums of per-sentence scores, which can differ from one run's in the last digits of floating point (write the states with --keep-sentences for bit-identical figures)".into(),
        );
    }
}

/// A state's option `k` with a value this version does not write (a state of another
/// treeval, or edited by hand).
fn bad(k: &str) -> Failure {
    Failure::Eval(format!("the states' option {k} is not one treeval knows"))
}

/// Usage errors: the formats and options a merge cannot honour, output paths.
fn validate(a: &MergeArgs) -> Result<(), Failure> {
    let r = &a.report;
    let refused = [
        (
            r.errors,
            "--errors (it lists words, which a state does not keep)",
        ),
        (
            !r.where_.is_empty(),
            "--where (give it when evaluating the shards)",
        ),
        (r.select.is_given(), "--sent-id, --min-len and --max-len"),
        (
            r.out.per_sentence.is_some(),
            "--per-sentence (write it when evaluating the shards)",
        ),
        (
            r.out.keep_sentences,
            "--keep-sentences (the merged state keeps the rows the shards kept)",
        ),
    ];
    if let Some((_, what)) = refused.iter().find(|x| x.0) {
        return Err(Failure::Usage(format!("merge does not take {what}")));
    }
    // ted states are tested by default (as `treeval ted`): the significance options are
    // checked again once the family is known ([`check_tests`])
    let can = Capabilities {
        errors: false,
        state: true,
        always_tests: true,
        ..Capabilities::of("merge")
    };
    check_report(&can, r, false)?;
    let ins: Vec<InputRef<'_>> = a.states.iter().map(|s| ("STATE", s.as_str())).collect();
    check_outputs(&outputs(&a.report.out), &ins, a.report.out.force)
}

/// The significance options refused as the command of the states' family refuses them:
/// only ted's states (of two or more experiments, without `no_test`) are tested without
/// `--test`.
fn check_tests(a: &MergeArgs, states: &[State]) -> Result<(), Failure> {
    let tested_by_default = states.first().is_some_and(|s| {
        let no_test = s.options.get("no_test").and_then(|v| v.as_bool());
        s.family == "ted"
            && !no_test.unwrap_or(false)
            && s.ted.as_ref().is_some_and(|t| t.experiments.len() >= 2)
    });
    let can = Capabilities {
        always_tests: tested_by_default,
        ..Capabilities::of("merge")
    };
    crate::output::check_significance(&can, &a.report, false)
}

/// Every state file, read and checked against the schema.
fn read(a: &MergeArgs) -> Result<Vec<State>, Failure> {
    a.states
        .iter()
        .map(|path| {
            // a path as a message names it (an excerpt of text given as a path)
            let name = treeval_formats::path_excerpt(path);
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::Eval(format!("{name}: cannot read the state: {e}")))?;
            state::parse(&text, &name).map_err(Failure::Eval)
        })
        .collect()
}

/// A shard given twice (two states with equal contents, whatever their names) would be
/// counted twice: a usage error naming both.
fn refuse_duplicates(a: &MergeArgs, states: &[State]) -> Result<(), Failure> {
    match state::duplicate(states) {
        Some((j, k)) => Err(Failure::Usage(format!(
            "{}: expected the state of another shard, found the same state as {} (equal contents): merged, that shard would be counted twice\n  hint: give each shard's state once",
            treeval_formats::path_excerpt(&a.states[k]),
            treeval_formats::path_excerpt(&a.states[j])
        ))),
        None => Ok(()),
    }
}

/// `--test` and `--ci` resample sentences: every state must have kept its rows.
fn needs_sentences(a: &MergeArgs, states: &[State]) -> Result<(), Failure> {
    if a.report.sig.tests.is_empty() && a.report.sig.ci.is_none() {
        return Ok(());
    }
    let missing = states
        .iter()
        .zip(&a.states)
        .find(|(s, _)| !state::has_sentences(s));
    if let Some((_, path)) = missing {
        return Err(Failure::Usage(format!(
            "{path}: no per-sentence rows, and --test and --ci resample sentences\n  hint: write every shard's state with --keep-sentences"
        )));
    }
    if !a.report.sig.tests.is_empty() && states.first().map_or(0, state::systems_count) < 2 {
        return Err(Failure::Usage(
            "--test compares systems: the states have one system".into(),
        ));
    }
    Ok(())
}

/// The `deps` options and profile name a state was written with.
fn deps_options(
    o: &std::collections::BTreeMap<String, serde_json::Value>,
    d: &DepsState,
) -> Result<(DepsOptions, String), Failure> {
    let text = |k: &str| o.get(k).and_then(|v| v.as_str()).unwrap_or_default();
    let flag = |k: &str| o.get(k).and_then(|v| v.as_bool()).unwrap_or(false);
    let punct = PunctPolicy::parse(text("punct")).ok_or_else(|| bad("punct"))?;
    let labels = [LabelMode::Full, LabelMode::Universal]
        .into_iter()
        .find(|l| l.name() == text("labels"))
        .ok_or_else(|| bad("labels"))?;
    let by = by_keys(o)?;
    let filter = Where::all(&d.where_specs, labels).map_err(|_| bad("where"))?;
    let opts = DepsOptions {
        punct,
        labels,
        by,
        confusion: flag("confusion"),
        strict: flag("strict"),
        examples: 5,
        keep_sentences: d.sentences.is_some(),
        pair_decisions: flag("pair_decisions"),
        count_predicates: flag("count_predicates"),
        filter,
        selection: Default::default(),
    };
    Ok((opts, text("profile").to_owned()))
}

/// The options of the tokenization alignment a `ud` or `relations` state was written
/// with (multiple roots, empty nodes; the strict alignment, the only one with states).
fn alignment_options(
    o: &std::collections::BTreeMap<String, serde_json::Value>,
) -> Result<treeval_metrics::ud::UdOptions, Failure> {
    use treeval_metrics::ud::{AlignMode, EmptyNodes, UdOptions};
    let text = |k: &str| o.get(k).and_then(|v| v.as_str()).unwrap_or_default();
    let empty_nodes = [EmptyNodes::Collapse, EmptyNodes::Drop, EmptyNodes::Error]
        .into_iter()
        .find(|e| e.name() == text("empty_nodes"))
        .ok_or_else(|| bad("empty_nodes"))?;
    if text("align") != AlignMode::Strict.name() {
        return Err(bad("align"));
    }
    Ok(UdOptions {
        multiple_roots_okay: o.get("multiple_roots_okay").and_then(|v| v.as_bool()) == Some(true),
        empty_nodes,
        ..UdOptions::default()
    })
}

/// The `ud` options a state was written with.
fn ud_options(
    o: &std::collections::BTreeMap<String, serde_json::Value>,
    u: &state::UdState,
    selection: treeval_metrics::select::Selection,
) -> Result<treeval_metrics::ud::UdOptions, Failure> {
    use treeval_metrics::ud::{AlignMode, Enhancements, UdOptions};
    let text = |k: &str| o.get(k).and_then(|v| v.as_str()).unwrap_or_default();
    Ok(UdOptions {
        enhancements: Enhancements::parse(text("enhancements")).map_err(|_| bad("enhancements"))?,
        keep_sentences: u.sentences.is_some(),
        align: AlignMode::Strict,
        by: by_keys(o)?,
        relation_sets: false,
        skip_enhanced: false,
        trace: None,
        relation_triples: None,
        filter: Where::all(&u.where_specs, LabelMode::Universal).map_err(|_| bad("where"))?,
        selection,
        ..alignment_options(o)?
    })
}

/// The `by` option of a state.
fn by_keys(
    o: &std::collections::BTreeMap<String, serde_json::Value>,
) -> Result<Vec<ByKey>, Failure> {
    o.get("by")
        .and_then(|v| v.as_array())
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|k| k.as_str().and_then(ByKey::parse).ok_or_else(|| bad("by")))
        .collect()
}
