//! `merge`: the states of shards (a part's [`Evaluation::state`], `--emit-state`) summed
//! into the report of the concatenated corpus, built by each family's own `present`, so a
//! merged report is made by the same code as a direct one.
//!
//! ```no_run
//! # fn main() -> treeval::Result<()> {
//! use treeval::{merge, Common, Input};
//! let names = ["part-1.json".to_owned(), "part-2.json".to_owned()];
//! let inputs: Vec<Input> = names.iter().map(|n| n.as_str().into()).collect();
//! let states = merge::read(&inputs)?;
//! let ev = merge::merge(&merge::Options::default(), states, &names, &Common::default())?;
//! println!("{:?}", ev.report.cell("LAS", 0));
//! # Ok(())
//! # }
//! ```

use serde::{Deserialize, Serialize};
use treeval_metrics::select::{Selection, SelectionCounts};
use treeval_report::state::{self, Family, State};
use treeval_report::Report;

use crate::measures::{self, Measures};
use crate::{Common, Error, Evaluation, Input, Result};

/// Warnings a run keeps (the limit of [`treeval_formats::Diagnostics`]' default).
const WARNINGS_KEPT: usize = 100;

/// The options of a merge: the tables and tested measures of the report (the options
/// that change the counts are the states').
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Per-relation table (`deps` and `ud` states).
    pub per_relation: bool,
    /// The label confusions, this many rows (`deps` states written with `confusion`).
    pub confusion: Option<usize>,
    /// The measures tests and intervals are run on (empty: the family's default).
    pub test_metrics: Vec<String>,
}

/// Every state of `inputs` (files or in-memory JSON), read and checked against the
/// schema ([`state::SCHEMA`]): another version's state is refused naming both.
pub fn read(inputs: &[Input]) -> Result<Vec<State>> {
    inputs
        .iter()
        .map(|i| {
            // a path as a message names it (an excerpt of text given as a path)
            let name = treeval_formats::path_excerpt(i.name());
            let text = crate::input::read_text(i, "a state (JSON)")
                .map_err(|e| Error::Eval(format!("{name}: cannot read the state: {e}")))?;
            state::parse(&text, &name).map_err(Error::Eval)
        })
        .collect()
}

/// The report of the concatenated corpus from `states` (`names`: how messages name them,
/// their files), with the merged state when `common.state`. The states are summed in one
/// order whatever the order given ([`state::order`]: by their gold files' names, numbers
/// by value), so any order of the same states gives the same report, byte for byte.
///
/// Refused: no state, the same state twice (it would be counted twice), states of other
/// families, options, selections or numbers of systems, systems that do not line up
/// (another system, or the systems in another order, at a position), and tests or
/// intervals when a state kept no per-sentence rows.
pub fn merge(
    options: &Options,
    states: Vec<State>,
    names: &[String],
    common: &Common,
) -> Result<Evaluation> {
    common.validate()?;
    crate::deps::check_confusion(options.confusion)?;
    // checked in the order given (messages compare with the first given), summed in one
    refuse_duplicates(&states, names)?;
    state::check(&states, names).map_err(Error::Eval)?;
    needs_sentences(&states, names, common)?;
    let order = state::order(&states);
    let mut states: Vec<Option<State>> = states.into_iter().map(Some).collect();
    let states: Vec<State> = order.iter().filter_map(|&k| states[k].take()).collect();
    let given = common.names.clone();
    let (systems, named) = if given.is_empty() {
        (state::merged_names(&states), states.iter().any(|s| s.named))
    } else {
        (given, true)
    };
    let merged = state::merge(states)
        .ok_or_else(|| Error::Usage("give the state files of one or more shards".into()))?
        .with_names(systems.clone(), named);
    common.check_names(merged.family.systems(), "system")?;
    let kept = common.state.then(|| merged.clone());
    let (shards, rows) = (merged.shards, merged.family.has_sentences());
    let copies = gold_copies(&merged.inputs);
    let (selection, selected) = merged.selection().map_err(Error::Eval)?;
    let sel = (&selection, &selected);
    let mut report = match merged.family {
        Family::Deps { options: o, counts } => deps(options, (o, counts), sel, common)?,
        Family::Ud { options: o, counts } => ud(options, (o, counts), sel, common)?,
        Family::Relations { options: o, counts } => relations(options, (o, counts), sel, common)?,
        Family::Ted { options: o, counts } => ted(options, (o, counts), sel, common)?,
        Family::Pts { options: o, counts } => pts(options, (o, counts), sel, common)?,
        Family::Brackets { options: o, counts } => brackets(options, (o, counts), sel, common)?,
        Family::Align { options: o, counts } => align(options, (o, counts), sel, common)?,
    };
    report.name_systems(&systems);
    report.warnings.extend(copies);
    record_merge(&mut report, shards, rows);
    if common.page_sentences.is_some() {
        report.notes.push(
            "no sentence browser on this page: the states of the shards hold counts, not sentences (the page of each shard's own run has its sentences)".into(),
        );
    }
    Ok(Evaluation::new(report, kept, None))
}

/// A selection and its counts, as a merged state holds them.
type Selected<'a> = (&'a Selection, &'a SelectionCounts);

/// The report of merged `deps` states, made by `deps`' own code.
fn deps(
    m: &Options,
    (o, counts): (state::DepsStateOptions, state::DepsState),
    (selection, selected): Selected<'_>,
    common: &Common,
) -> Result<Report> {
    let mut opts =
        (o.metric_options(&counts.where_specs, counts.sentences.is_some())).map_err(Error::Eval)?;
    opts.selection = selection.clone();
    check_mcnemar(common, opts.pair_decisions)?;
    if m.confusion.is_some() && !opts.confusion {
        return Err(Error::Usage(
            "--confusion needs the label confusions, which a state keeps only when written with --confusion".into(),
        ));
    }
    let test_metrics = test_metrics(m, "deps", &crate::deps::DEFAULT_TEST_METRICS)?;
    let mut result = counts.into_result(&opts, WARNINGS_KEPT);
    result.selection = selected.clone();
    crate::deps::check_scored(&result, &opts, common.is_part())?;
    result.corpus_checks(&opts);
    let shown = crate::deps::Present {
        common,
        per_relation: m.per_relation,
        confusion: m.confusion,
        test_metrics: &test_metrics,
    };
    crate::deps::present(&shown, &result, &opts, &o.profile)
}

/// The report of merged `ud` states, made by `ud`'s own code.
fn ud(
    m: &Options,
    (o, u): (state::UdStateOptions, state::UdState),
    (selection, selected): Selected<'_>,
    common: &Common,
) -> Result<Report> {
    use treeval_metrics::ud as metrics;
    use treeval_report::model::Warning;
    if m.confusion.is_some() {
        return Err(Error::Usage(
            "--confusion: ud has no confusion matrix (deps has)".into(),
        ));
    }
    let mut opts =
        (o.metric_options(&u.where_specs, u.sentences.is_some())).map_err(Error::Eval)?;
    opts.selection = selection.clone();
    let test_metrics = test_metrics(m, "ud", &crate::ud::DEFAULT_TEST_METRICS)?;
    crate::ud::check_tests(common, u.systems.len())?;
    let systems = u.systems_in();
    let gold = u.gold.out();
    crate::ud::check_scored(&opts, &systems, (&gold, selected), common.is_part())?;
    let mut warnings = u.warnings;
    let columns = metrics::gold_columns_warning(&gold.stats, &gold.path);
    warnings.extend(columns.map(|d| Warning::from(&d)));
    for s in &systems {
        let d = metrics::system_columns_warning(&s.file.stats, &gold.stats, &s.file.path);
        warnings.extend(d.map(|d| Warning::from(&d)));
    }
    let signature = crate::ud::conventions(&opts, opts.empty_nodes.name().to_owned());
    let p = crate::ud::Present {
        common,
        per_relation: m.per_relation,
        test_metrics: &test_metrics,
    };
    crate::ud::present(&p, &opts, signature, (&gold, &systems, selected), warnings)
}

/// The report of merged `relations` states, made by `relations`' own code.
fn relations(
    m: &Options,
    (o, rel): (state::RelationsStateOptions, state::RelationsState),
    (selection, selected): Selected<'_>,
    common: &Common,
) -> Result<Report> {
    if m.confusion.is_some() || m.per_relation {
        return Err(Error::Usage(
            "--confusion and --per-relation: relations has neither table (deps and ud have)".into(),
        ));
    }
    let mut opts = o.metric_options().map_err(Error::Eval)?;
    opts.selection = selection.clone();
    let test_metrics = test_metrics(m, "relations", &crate::relations::DEFAULT_TEST_METRICS)?;
    crate::relations::check_tests(common, rel.systems.len())?;
    let e = treeval_report::relations::RelationsIn {
        gold: &rel.gold,
        format: &rel.format,
        systems: &rel.systems,
        enhanced: o.graph == state::Graph::Enhanced,
        opts: &opts,
        units: &rel.units,
    };
    let p = crate::relations::Present {
        common,
        test_metrics: &test_metrics,
    };
    crate::relations::present(&p, &e, rel.warnings.clone(), selected)
}

/// The report of merged `ted` states, made by `ted`'s own code from the experiments' rows.
fn ted(
    m: &Options,
    (o, t): (state::TedStateOptions, state::TedState),
    (selection, selected): Selected<'_>,
    common: &Common,
) -> Result<Report> {
    use crate::ted::{BracketLabels, Options as TedOptions, Present};
    let bracket_labels = match o.bracket_labels.as_str() {
        "category" => BracketLabels::Category,
        "full" => BracketLabels::Full,
        _ => return Err(Error::Eval(state::options::bad("bracket_labels"))),
    };
    let options = TedOptions {
        unlabeled: o.unlabeled,
        micro: o.micro,
        no_test: o.no_test,
        max_cost: o.max_cost,
        bracket_labels,
        script: false,
    };
    let tested = treeval_report::ted::tested_name(options.micro);
    refuse_deps_tables(
        m,
        "ted",
        &format!("{tested} (as the states were written: --micro)"),
    )?;
    let cfg = crate::ted::test_config(common, options.no_test, t.experiments.len())?;
    let mut r = t.into_result(WARNINGS_KEPT);
    if !selection.is_all() {
        // the input counts of one run: the sentences the selection excludes by length
        r.skipped_long = (selected.by_length, selected.by_length_words);
        r.selection = selected.clone();
    }
    crate::ted::check_scored(&r, (selection, options.max_cost), common.is_part())?;
    r.corpus_checks();
    let shown = Present {
        common,
        options: &options,
        label_equiv: o.label_equiv.as_deref(),
    };
    crate::ted::present(&shown, &r, &cfg, selection)
}

/// The report of merged `pts` states, made by `pts`' own code.
fn pts(
    m: &Options,
    (o, p): (state::PtsStateOptions, state::PtsState),
    sel: Selected<'_>,
    common: &Common,
) -> Result<Report> {
    use treeval_metrics::{DepsOptions, LabelMode, PunctPolicy};
    refuse_deps_tables(m, "pts", "UAS_a, UAS_b, AER and PTS")?;
    let bad = |k: &str| Error::Eval(state::options::bad(k));
    let weights = state::parse_weights(&o.weights).ok_or_else(|| bad("weights"))?;
    check_mcnemar(common, o.pair_decisions)?;
    let opts = DepsOptions {
        punct: PunctPolicy::parse(&o.punct).ok_or_else(|| bad("punct"))?,
        labels: LabelMode::Full,
        pair_decisions: o.pair_decisions,
        ..DepsOptions::default()
    };
    let merged = p.into_merged(&opts, WARNINGS_KEPT);
    let shown = crate::pts::Present {
        common,
        punct: &o.punct,
        index: &state::PtsIndex::of_options(&o),
    };
    let mut report = crate::pts::present(&shown, &merged.input(weights), merged.warnings.clone());
    crate::pts::record(&mut report, sel, common.is_part())?;
    Ok(report)
}

/// The report of merged `brackets` states, made by the library's `brackets` code.
fn brackets(
    m: &Options,
    (o, b): (state::BracketsStateOptions, state::BracketsState),
    (selection, selected): Selected<'_>,
    common: &Common,
) -> Result<Report> {
    use crate::brackets as lib;
    use treeval_metrics::brackets::by::BracketsKey;
    use treeval_metrics::brackets::filter::BracketWhere;
    no_tables(m, "brackets")?;
    if let Some(stop) = b.stops() {
        return Err(Error::Eval(stop));
    }
    let bad = |k: &str| Error::Eval(state::options::bad(k));
    let layout = lib::Layout::named(&o.layout).ok_or_else(|| bad("layout"))?;
    let align = lib::Align::named(&o.align).ok_or_else(|| bad("align"))?;
    let errors = lib::ErrorSentences::named(&o.error_sentences);
    let errors = errors.ok_or_else(|| bad("error_sentences"))?;
    let by = (o.by.iter())
        .map(|k| BracketsKey::parse(k).ok_or_else(|| bad("by")))
        .collect::<Result<Vec<_>>>()?;
    let mut params = b.params.clone();
    params.errors_missed = errors == lib::ErrorSentences::Missed;
    params.filter = BracketWhere::all(&b.where_specs).map_err(|_| bad("where"))?;
    params.by_label = by.contains(&BracketsKey::Label);
    params.selection = selection.clone();
    let test_metrics = test_metrics(m, "brackets", &lib::DEFAULT_TEST_METRICS)?;
    let systems = b.systems();
    let tests = crate::significance::resampling_config(
        common,
        systems.len(),
        "test files",
        lib::NO_MCNEMAR,
    )?;
    let each = b.systems.iter().map(|s| {
        let n = lib::scored(&s.all, &s.where_counts, &params);
        let why = || lib::nothing(&s.path, &s.all, b.gold_trees, &params);
        (n, Box::new(why) as Box<dyn FnOnce() -> _>)
    });
    crate::select::nothing_scored(each, (&params.selection, selected), common.is_part())?;
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
    let p = lib::Present {
        common,
        test_metrics: &test_metrics,
        layout,
        align,
        careful: None,
        tests: (&tests.0, tests.1),
    };
    let mut report = lib::present(&p, &e, warnings);
    let unit = (lib::LENGTH_UNIT, true);
    crate::select::record(
        &mut report,
        &params.selection,
        selected,
        unit,
        common.is_part(),
    )?;
    Ok(report)
}

/// The report of merged `align` states, made by `align`'s own code.
fn align(
    m: &Options,
    (o, st): (state::AlignStateOptions, state::AlignState),
    (selection, selected): Selected<'_>,
    common: &Common,
) -> Result<Report> {
    use treeval_report::align::AlignIn;
    no_tables(m, "align")?;
    let keep_null = o.null.included();
    let test_metrics = test_metrics(m, "align", &crate::align::DEFAULT_TEST_METRICS)?;
    crate::significance::resampling_config(
        common,
        st.hyps.len(),
        "hypothesis files",
        crate::align::NO_MCNEMAR,
    )?;
    let file = |f: &state::AlignFileState| alignment_file(&f.path, &f.format);
    let gold = file(&st.gold)?;
    let hyps = st.hyps.iter().map(file).collect::<Result<Vec<_>>>()?;
    let (per_hyp, totals) = (st.per_hyp(), st.totals());
    let files = (&gold, &hyps[..], &totals[..]);
    crate::align::check_scored(
        files,
        keep_null,
        (selection, selected),
        None,
        common.is_part(),
    )?;
    let mut warnings = st.warnings.clone();
    for (k, (h, t)) in st.hyps.iter().zip(&totals).enumerate() {
        let other = || st.readings.get(k).cloned().unwrap_or_default();
        crate::align::hyp_warnings(&h.path, keep_null, t, &other, &mut warnings);
    }
    let gold_counts = totals.first().copied().unwrap_or_default();
    let e = AlignIn {
        gold: &gold,
        hyps: &hyps,
        per_hyp: &per_hyp,
        totals: &totals,
        gold_counts: &gold_counts,
        f_alpha: o.f_alpha,
        keep_null,
    };
    // `sentences` as given: under a selection, the pairs scored are those it kept, and
    // the selection counted every pair of the shards
    let given = if selection.is_all() {
        st.pairs
    } else {
        selected.sentences()
    };
    let p = crate::align::Present {
        common,
        test_metrics: &test_metrics,
        sentences: o.sentences_given.then_some(given),
    };
    let mut report = crate::align::present(&p, &e, warnings);
    // a state's selection is by length (`sent_id` is refused with a state), which needs
    // `tokens`: the counts hold words
    let unit = (crate::align::LENGTH_UNIT, true);
    crate::select::record(&mut report, selection, selected, unit, common.is_part())?;
    if let Some(sw) = &st.subwords {
        crate::align::subword_notes(&mut report, sw, &hyps);
    }
    Ok(report)
}

/// An alignment file as the `align` report names it: its path and format, no links.
fn alignment_file(path: &str, format: &str) -> Result<treeval_formats::align::AlignmentFile> {
    use treeval_formats::align::AlignFormat;
    let format = [AlignFormat::Naacl, AlignFormat::Pharaoh]
        .into_iter()
        .find(|f| f.name() == format)
        .ok_or_else(|| {
            Error::Eval(format!(
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

/// `test_metrics`, checked against the family's measures (`default` when not given).
fn test_metrics(m: &Options, family: &str, default: &[&str]) -> Result<Vec<String>> {
    if m.test_metrics.is_empty() {
        return Ok(default.iter().map(|m| (*m).to_owned()).collect());
    }
    let known: Option<Measures> = (measures::TEST_METRIC_FAMILIES.iter())
        .find(|(f, _)| *f == family)
        .map(|&(_, ms)| ms);
    let names = known.map_or_else(Vec::new, measures::test_metric_names);
    (m.test_metrics.iter())
        .map(|t| {
            names
                .iter()
                .find(|k| k.eq_ignore_ascii_case(t))
                .map(|k| (*k).to_owned())
                .ok_or_else(|| {
                    Error::Usage(format!(
                        "--test-metrics: expected one of {} (the states are of `{family}`); found '{t}'",
                        names.join(", ")
                    ))
                })
        })
        .collect()
}

/// `--test mcnemar` needs the paired decisions, which the states `kept` or not.
fn check_mcnemar(common: &Common, kept: bool) -> Result<()> {
    if common.test.contains(&crate::common::Test::Mcnemar) && !kept {
        return Err(Error::Usage(
            "--test mcnemar needs the paired word decisions, which a state keeps only when written with --test mcnemar\n  hint: use --test ar or --test bootstrap (per-sentence rows), or write the states with --test mcnemar".into(),
        ));
    }
    Ok(())
}

/// `--confusion` and `--per-relation` are tables of `deps` and `ud` only.
fn no_tables(m: &Options, family: &str) -> Result<()> {
    if m.confusion.is_some() || m.per_relation {
        return Err(Error::Usage(format!(
            "--confusion and --per-relation: {family} has neither table (deps and ud have)"
        )));
    }
    Ok(())
}

/// The tables and metric choices of deps and ud that `family` does not have, refused.
fn refuse_deps_tables(m: &Options, family: &str, tested: &str) -> Result<()> {
    no_tables(m, family)?;
    if !m.test_metrics.is_empty() {
        return Err(Error::Usage(format!(
            "--test-metrics: {family} tests {tested}; the option is for deps, ud and relations states"
        )));
    }
    Ok(())
}

/// The merge in the signature (`merged:N`) and the conventions; without per-sentence rows,
/// a note on the macro averages over sentences.
fn record_merge(report: &mut Report, shards: u64, rows: bool) {
    report.signature.push("merged", shards.to_string());
    report.convention(
        "merged",
        format!("{shards} shard state(s), in the order of their gold files' names"),
    );
    if !rows && report.command == "deps" {
        report.notes.push(
            "merged without per-sentence rows: the macro averages over sentences add the shards' sums of per-sentence scores, which can differ from one run's in the last digits of floating point (write the states with --keep-sentences for bit-identical figures)".into(),
        );
    }
}

/// The warnings of one run on the concatenated files about systems that are their gold
/// ([`crate::input::gold_copies`]): a system file whose text is its gold file's in every
/// shard (equal digests), named as the merged report names the files (the shards' paths
/// joined by ` + `).
fn gold_copies(inputs: &[state::ShardInputs]) -> Vec<treeval_report::model::Warning> {
    use state::FileId;
    let Some(first) = inputs.first() else {
        return Vec::new();
    };
    // system k's (gold, system) files in shard `i`: a ted experiment's own gold and parse
    // (its two files), else each file with the gold file of its place (pts: a, b,
    // alignment)
    let pairs = |i: &state::ShardInputs, k: usize| -> Vec<(Option<FileId>, Option<FileId>)> {
        let files = i.systems.get(k).cloned().unwrap_or_default();
        match files.as_slice() {
            [g, p] => vec![(Some(g.clone()), Some(p.clone()))],
            _ => (files.iter().enumerate())
                .map(|(j, f)| (i.gold.get(j).cloned(), Some(f.clone())))
                .collect(),
        }
    };
    // by place first, then by system, as one run lists them (pts: every side a, then
    // every side b, then every alignment)
    let all: Vec<Vec<_>> = (0..first.systems.len())
        .map(|k| inputs.iter().map(|i| pairs(i, k)).collect())
        .collect();
    let places = all.iter().map(|s| s[0].len()).max().unwrap_or(0);
    let mut out = Vec::new();
    for j in 0..places {
        for shards in &all {
            let at = |n: usize| shards.get(n).and_then(|p| p.get(j));
            let same = (0..shards.len()).all(|n| {
                matches!(at(n), Some((Some(g), Some(s))) if g.digest.is_some() && g.digest == s.digest)
            });
            if !same {
                continue;
            }
            let join = |side: usize| {
                let paths = (0..shards.len()).filter_map(|n| {
                    let (g, s) = at(n)?;
                    let f = if side == 0 { g } else { s };
                    f.as_ref().map(|f| f.path.as_str())
                });
                paths.collect::<Vec<_>>().join(" + ")
            };
            let (g, s) = (join(0), join(1));
            out.push(crate::input::gold_copy(&g, &s));
        }
    }
    out
}

/// A shard given twice (two states with equal contents, whatever their names) would be
/// counted twice: a usage error naming both.
fn refuse_duplicates(states: &[State], names: &[String]) -> Result<()> {
    match state::duplicate(states) {
        Some((j, k)) => Err(Error::Usage(format!(
            "{}: expected the state of another shard, found the same state as {} (equal contents): merged, that shard would be counted twice\n  hint: give each shard's state once",
            treeval_formats::path_excerpt(&names[k]),
            treeval_formats::path_excerpt(&names[j])
        ))),
        None => Ok(()),
    }
}

/// Tests and intervals resample sentences: every state must have kept its rows.
fn needs_sentences(states: &[State], names: &[String], common: &Common) -> Result<()> {
    if common.test.is_empty() && common.ci.is_none() {
        return Ok(());
    }
    let missing = (states.iter().zip(names)).find(|(s, _)| !s.family.has_sentences());
    if let Some((_, name)) = missing {
        return Err(Error::Usage(format!(
            "{name}: no per-sentence rows, and --test and --ci resample sentences\n  hint: write every shard's state with --keep-sentences"
        )));
    }
    if !common.test.is_empty() && states.first().map_or(0, |s| s.family.systems()) < 2 {
        return Err(Error::Usage(
            "--test compares systems: the states have one system".into(),
        ));
    }
    Ok(())
}
