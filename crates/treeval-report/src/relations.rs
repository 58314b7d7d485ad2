//! The `relations` report on the shared model: relation precision, recall, F1 and
//! concept accuracy (van Noord et al. 2002) of every system, with intervals.

use treeval_metrics::measure::Measure;
use treeval_metrics::relations::RelationSetCounts;
use treeval_metrics::ud::UdOptions;

use crate::driver::Intervals;
use crate::model::{Signature, Warning};
use crate::value::{Input, Report, System};

/// One `relations` evaluation, as the report needs it.
#[derive(Debug, Clone, Copy)]
pub struct RelationsIn<'a> {
    /// The gold file, as given.
    pub gold: &'a str,
    /// The format the gold file was read as (`conllu`, `conllx`, `conll09`, `malttab`).
    pub format: &'a str,
    /// The system files, as given.
    pub systems: &'a [String],
    /// Whether the enhanced graph (DEPS) was compared, else the basic tree.
    pub enhanced: bool,
    /// The word alignment and empty-node options the counts were made with.
    pub opts: &'a UdOptions,
    /// Every system's counts, one per gold sentence.
    pub units: &'a [Vec<RelationSetCounts>],
}

/// The signature of the conventions of `e`.
pub fn signature(e: &RelationsIn<'_>) -> Signature {
    let mut signature = Signature::new(
        "relations",
        &[
            ("graph", graph(e).into()),
            ("align", e.opts.align.name().into()),
        ],
    );
    if e.enhanced {
        signature.push("empty-nodes", e.opts.empty_nodes.name().into());
    }
    signature
}

/// "enhanced" or "basic".
fn graph(e: &RelationsIn<'_>) -> &'static str {
    if e.enhanced {
        "enhanced"
    } else {
        "basic"
    }
}

/// Build the report: the inputs and the scores section of `ms` (with the intervals `ci`).
pub fn build(
    e: &RelationsIn<'_>,
    ms: &[Measure],
    ci: Option<Intervals>,
    warnings: Vec<Warning>,
) -> Report {
    let graph = graph(e);
    let mut r = Report::new("relations", signature(e));
    r.convention("graph", graph);
    r.convention("alignment", e.opts.align.name());
    if e.enhanced {
        r.convention("empty nodes", e.opts.empty_nodes.name());
    }
    inputs(&mut r, e);
    r.add_measures::<RelationSetCounts>(ms);
    let title = format!("relations ({graph})");
    let mut section = crate::driver::section("scores", &title, ms, e.units, ci);
    section.show_counts = true;
    if e.enhanced {
        without_graph(&mut section, e.units, ms);
    }
    r.sections.push(section);
    r.notes.push("Df = max(|Dt|, |Ds|) − |Dt ∩ Ds| per sentence; CA = 1 − ΣDf / Σmax; CA-macro = the mean of the sentences' CA (1 for a sentence without relations)".into());
    r.warnings = warnings;
    r
}

/// The rows of a system without enhanced graph (no system relation at all against a
/// gold graph that has some: its DEPS column is `_` on every word, as spaCy's output):
/// its scores n/a (the counts kept), as `ud`'s ELAS and EULAS for such a system.
fn without_graph(
    section: &mut crate::value::Section,
    units: &[Vec<RelationSetCounts>],
    ms: &[Measure],
) {
    use treeval_metrics::measure::Kind;
    let count = |name: &str| ms.iter().any(|m| m.name == name && m.kind == Kind::Count);
    for row in &mut section.rows {
        let Some(rows) = units.get(row.system) else {
            continue;
        };
        let (gold, system) = rows
            .iter()
            .fold((0, 0), |(g, s), u| (g + u.gold, s + u.system));
        if system == 0 && gold > 0 {
            // the counts (Dt, Ds, both) stay: they say why
            for c in row.cells.iter_mut().filter(|c| !count(&c.measure)) {
                c.value = None;
                c.ci = None;
            }
        }
    }
}

/// The gold and system files, each system with its summed counts.
fn inputs(r: &mut Report, e: &RelationsIn<'_>) {
    let file = |role: &str, path: &str, description: String, counts, system| Input {
        role: role.into(),
        path: path.into(),
        format: e.format.into(),
        description,
        counts,
        system,
    };
    r.inputs.push(file(
        "gold",
        e.gold,
        String::new(),
        serde_json::Value::Null,
        None,
    ));
    for (k, (path, rows)) in e.systems.iter().zip(e.units).enumerate() {
        let mut t = RelationSetCounts::default();
        for u in rows {
            t += *u;
        }
        let description = format!("{} sentences", t.sentences);
        let counts = serde_json::to_value(t).unwrap_or_default();
        r.inputs
            .push(file("system", path, description, counts, Some(k)));
        r.systems.push(System {
            name: path.clone(),
            inputs: vec![r.inputs.len() - 1],
        });
    }
}
