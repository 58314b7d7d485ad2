//! `relations`: set-of-relations accuracy (van Noord et al., Alpino treebank, 2002) of
//! one or more systems, words identified through the `ud` word alignment: precision,
//! recall, F1 and concept accuracy CA of (head, label, dependent) triples, micro and
//! macro over sentences.
//!
//! ```no_run
//! let ev = treeval::relations::evaluate(
//!     &treeval::relations::Options::default(),
//!     &treeval::Inputs::new("gold.conllu", ["system.conllu"]),
//!     &treeval::Common::default(),
//! )?;
//! if let Some(ca) = ev.report.cell("CA", 0) {
//!     println!("CA {:?} = {:?}", ca.counts, ca.value);
//! }
//! # Ok::<(), treeval::Error>(())
//! ```

use serde::{Deserialize, Serialize};
use treeval_metrics::relations::{measures, RelationSetCounts};
use treeval_metrics::select::SelectionCounts;
use treeval_metrics::ud::triples::{RelationGraph, Triple};
use treeval_metrics::ud::{UdOptions, UdResult};
use treeval_report::model::Warning;
use treeval_report::records::Record;
use treeval_report::relations::RelationsIn;
use treeval_report::Report;

use crate::records::Records;
use crate::ud::{dependency_input, explain, gold_sent_ids, reader_warnings, Align, EmptyNodes};
use crate::{Common, Error, Evaluation, Inputs, Result};

/// Which relations form a sentence's set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Graph {
    /// One (HEAD, full DEPREL, word) per word.
    #[default]
    Basic,
    /// The distinct DEPS items (head, label) of every word (empty nodes as --empty-nodes).
    Enhanced,
}

/// The options of `relations`. `Default` is the command line's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The basic tree or the enhanced graph.
    pub graph: Graph,
    /// How empty nodes enter the enhanced graph.
    pub empty_nodes: EmptyNodes,
    /// Accept sentences with several roots.
    pub multiple_roots_okay: bool,
    /// When the texts differ: stop (`strict`) or resynchronise (`resync`), as in `ud`.
    pub align: Align,
    /// Measures the tests compare (and `ci` puts intervals on).
    pub test_metrics: Vec<String>,
}

/// The measures `relations` tests by default.
pub const DEFAULT_TEST_METRICS: [&str; 2] = ["CA", "CA-macro"];

impl Default for Options {
    fn default() -> Self {
        Options {
            graph: Graph::Basic,
            empty_nodes: EmptyNodes::Collapse,
            multiple_roots_okay: false,
            align: Align::Strict,
            test_metrics: DEFAULT_TEST_METRICS.map(String::from).to_vec(),
        }
    }
}

impl Options {
    /// The evaluation's options: the ud alignment, relation sets counted, and with
    /// `errors` the unmatched relations of the graph compared.
    fn metrics_options(&self, common: &Common) -> UdOptions {
        UdOptions {
            multiple_roots_okay: self.multiple_roots_okay,
            empty_nodes: self.empty_nodes.into(),
            keep_sentences: true,
            relation_sets: true,
            align: self.align.into(),
            relation_triples: common.errors.then_some(match self.graph {
                Graph::Enhanced => RelationGraph::Enhanced,
                Graph::Basic => RelationGraph::Basic,
            }),
            ..UdOptions::default()
        }
    }
}

/// Why `relations` refuses McNemar's test.
const NO_MCNEMAR: &str =
    "needs paired binary decisions; relation sets are compared with --test ar or --test bootstrap";

/// Usage errors of the tests: McNemar (no paired decisions), fewer than two systems.
pub fn check_tests(common: &Common, systems: usize) -> Result<()> {
    crate::significance::resampling_config(common, systems, "system files", NO_MCNEMAR)?;
    Ok(())
}

/// Evaluate `inputs.systems` against `inputs.gold`: the report holds the scores,
/// intervals, tests and notes; with `common.state` the evaluation carries its state.
pub fn evaluate(options: &Options, inputs: &Inputs, common: &Common) -> Result<Evaluation> {
    common.refuse_where("relations")?;
    common.validate()?;
    let tested =
        crate::measures::test_metrics(treeval_metrics::relations::measures, &options.test_metrics)?;
    crate::ud::check_state(options.align, common)?;
    if inputs.systems.is_empty() {
        return Err(Error::Usage("give at least one system file".into()));
    }
    check_tests(common, inputs.systems.len())?;
    let names = inputs.display_names(common)?;
    let opts = UdOptions {
        selection: crate::select::selection(common)?,
        ..options.metrics_options(common)
    };
    let s = score(options, inputs, &opts, common)?;
    let needs_ids = common.per_sentence.is_some() || common.errors;
    let ids = needs_ids.then(|| gold_sent_ids(&inputs.gold));
    let ids = ids.unwrap_or_default();
    write_records(common, inputs, (&s.units, &s.numbers), &ids)?;
    let systems = inputs.system_names();
    let format = crate::ud::detected_format(&inputs.gold);
    let e = RelationsIn {
        gold: inputs.gold.name(),
        format: &format,
        systems: &systems,
        enhanced: options.graph == Graph::Enhanced,
        opts: &opts,
        units: &s.units,
    };
    let state = common.state.then(|| {
        crate::State::of_relations(&e, s.warnings.clone())
            .with_selection(&opts.selection, &s.selected)
            .with_names(names.clone(), !common.names.is_empty())
            .with_inputs(inputs.identity())
    });
    let p = Present {
        common,
        test_metrics: &tested,
    };
    let mut report = present(&p, &e, s.warnings, &s.selected)?;
    report.name_systems(&names);
    if common.errors {
        report.listings = (s.triples.iter().enumerate())
            .map(|(k, t)| treeval_report::errors::relations_errors(k, t, &ids))
            .collect();
    }
    report.warnings.extend(inputs.gold_copies());
    Ok(Evaluation::new(report, state, None))
}

/// How a `relations` result is shown (from `relations`' options, or `merge`'s).
#[derive(Debug)]
pub struct Present<'a> {
    /// Significance, selection and output options.
    pub common: &'a Common,
    /// Measures the tests compare.
    pub test_metrics: &'a [String],
}

/// The report of `e`: scores with their intervals, the selection, the tests (the part
/// shared by `relations` and `merge`).
pub fn present(
    p: &Present,
    e: &RelationsIn<'_>,
    warnings: Vec<Warning>,
    selected: &SelectionCounts,
) -> Result<Report> {
    let ms = measures();
    let ci = crate::significance::intervals(p.common);
    let mut report = treeval_report::relations::build(e, &ms, ci, warnings);
    let unit = ("syntactic words", true);
    crate::select::record(
        &mut report,
        &e.opts.selection,
        selected,
        unit,
        p.common.is_part(),
    )?;
    let cfg = p.common.compare_config();
    if !cfg.tests.is_empty() {
        let tested: Vec<treeval_report::driver::Tested> = ms
            .iter()
            .filter(|m| p.test_metrics.iter().any(|t| t == m.name))
            .map(|m| (m, None))
            .collect();
        (report.comparisons, report.rankings) =
            treeval_report::driver::tests(&tested, e.units, &cfg, &|l, d, t| {
                p.common.progress(l, d, t)
            });
    }
    if !cfg.tests.is_empty() || p.common.ci.is_some() {
        crate::significance::sign(p.common, &cfg, &mut report.signature);
    }
    report.significance = crate::significance::settings(p.common, &cfg, p.test_metrics);
    Ok(report)
}

/// What the systems scored: per system its sentences' relation counts and its unmatched
/// relations (with `errors`), the warnings, and the selection's counts with the numbers
/// of the kept gold sentences.
struct Scored {
    units: Vec<Vec<RelationSetCounts>>,
    triples: Vec<Vec<Triple>>,
    warnings: Vec<Warning>,
    selected: SelectionCounts,
    numbers: Vec<u64>,
}

/// Every system scored against the gold (over the ud alignment, relation sets counted).
fn score(options: &Options, inputs: &Inputs, opts: &UdOptions, common: &Common) -> Result<Scored> {
    let k = usize::from(options.graph == Graph::Enhanced);
    let gold = inputs.gold.name();
    let mut s = Scored {
        units: Vec::new(),
        triples: Vec::new(),
        warnings: Vec::new(),
        selected: SelectionCounts::default(),
        numbers: Vec::new(),
    };
    for sys in &inputs.systems {
        let (g, x) = (dependency_input(&inputs.gold), dependency_input(sys));
        let r = treeval_metrics::ud::evaluate(&g, &x, opts)
            .map_err(|e| Error::Eval(explain(e, gold, sys.name())))?;
        crate::select::check_kept_unless_part(&opts.selection, &r.selection, common.is_part())?;
        let graph = (k == 1).then(|| no_graph_warning(sys.name(), &r)).flatten();
        for w in reader_warnings(&[&r.warnings[..], graph.as_slice()].concat()) {
            if !s.warnings.contains(&w) {
                s.warnings.push(w);
            }
        }
        if s.units.is_empty() {
            s.selected = r.selection.clone();
            s.numbers = r.numbers.clone();
        }
        s.triples.push(r.relation_triples);
        s.units.push(
            r.sentences
                .iter()
                .map(|c| RelationSetCounts::sentence(&c.relation_sets[k]))
                .collect(),
        );
    }
    Ok(s)
}

/// With the enhanced graph, a system whose DEPS column is `_` on every word (no enhanced
/// graph, as spaCy's output) against a gold graph: a warning that names DEPS and the file
/// (its scores are n/a, as `ud`'s ELAS and EULAS for it).
fn no_graph_warning(sys: &str, r: &UdResult) -> Option<treeval_formats::Diagnostic> {
    use treeval_formats::{Diagnostic, ErrorKind, Position};
    let none = r.system.words > 0 && r.system.deps_filled == 0 && r.system.enhanced_items == 0;
    (none && r.gold.enhanced_items > 0).then(|| {
        Diagnostic::warning(
            Position::new(std::sync::Arc::from(sys), 0, 0),
            ErrorKind::Other("the system DEPS column is '_' on every word (no enhanced graph): precision, recall, F1, CA and CA-macro not applicable (n/a) for this system in the report".into()),
        )
        .with_hint("the system predicted no enhanced graph to compare (as spaCy's output); --graph basic compares its tree")
        .of_kind(treeval_formats::WarningKind::SystemColumnEmpty)
    })
}

/// One record per gold sentence and system: the relation counts and CA.
fn write_records(
    common: &Common,
    inputs: &Inputs,
    (units, numbers): (&[Vec<RelationSetCounts>], &[u64]),
    ids: &[Option<String>],
) -> Result<()> {
    let roles = inputs.roles();
    let mut records = Records::open(common.per_sentence.as_ref(), "relations", &roles);
    if records.is_on() {
        for (system, rows) in units.iter().enumerate() {
            for (&i, c) in numbers.iter().zip(rows) {
                let id = (ids.get((i as usize).wrapping_sub(1))).and_then(Option::as_deref);
                records.write(&Record::of(i, system, c).sent_id(id));
            }
        }
    }
    records.finish()
}
