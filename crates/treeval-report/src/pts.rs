//! The `pts` report on the shared model: both sides' UAS, the alignment's AER and the
//! parallel treebank score of every system, with intervals; and the tests on them.

use crate::names::role;
use treeval_metrics::align::{sum, AlignCounts};
use treeval_metrics::deps::{pair_index, DepsResult, FileSummary, PairCounts};
use treeval_metrics::pts::{measures, PtsCounts, Weights};
use treeval_stats::compare::{CompareConfig, Comparison, Ranking};

use crate::driver::{Decisions, Intervals, Progress, Tested};
use crate::model::{Signature, Warning};
use crate::value::{Input, Report, System};

/// The files of a `pts` evaluation, as given (a system is `sys_a[k]`, `sys_b[k]` and
/// `sys_align[k]`).
#[derive(Debug, Clone, Copy)]
pub struct PtsFiles<'a> {
    /// The first side's gold parses.
    pub gold_a: &'a str,
    /// The second side's gold parses.
    pub gold_b: &'a str,
    /// The gold word alignment.
    pub gold_align: &'a str,
    /// Every system's first-side parses.
    pub sys_a: &'a [String],
    /// Every system's second-side parses.
    pub sys_b: &'a [String],
    /// Every system's word alignment.
    pub sys_align: &'a [String],
}

/// What the report takes of one side's parses evaluated.
#[derive(Debug, Clone, Copy)]
pub struct PtsSide<'a> {
    /// The side's gold file as read.
    pub gold: &'a FileSummary,
    /// Paired word decisions of every two systems (kept for `--test mcnemar`).
    pub pairs: &'a [PairCounts],
}

impl<'a> PtsSide<'a> {
    /// The side of a `deps` evaluation.
    pub fn of(d: &'a DepsResult) -> Self {
        PtsSide {
            gold: &d.gold,
            pairs: &d.pairs,
        }
    }
}

/// One `pts` evaluation, as the report needs it.
#[derive(Debug, Clone, Copy)]
pub struct PtsIn<'a> {
    /// The files.
    pub files: PtsFiles<'a>,
    /// The weights α_a, α_b, α_ab.
    pub weights: Weights,
    /// The first side's parses evaluated.
    pub side_a: PtsSide<'a>,
    /// The second side's parses evaluated.
    pub side_b: PtsSide<'a>,
    /// Every system's alignment counts, one per sentence pair.
    pub aligned: &'a [Vec<AlignCounts>],
    /// Every system's PTS counts, one per sentence pair.
    pub units: &'a [Vec<PtsCounts>],
}

/// Build the report: the inputs, the PTS formula and the scores section (with the
/// intervals `ci`); `punct` names the punctuation policy.
pub fn build(
    signature: Signature,
    punct: &str,
    e: &PtsIn<'_>,
    ci: Option<Intervals>,
    warnings: Vec<Warning>,
) -> Report {
    let w = e.weights;
    let mut r = Report::new("pts", signature);
    r.convention("punctuation", punct);
    r.convention("weights", format!("{},{},{}", w.a, w.b, w.ab));
    inputs(&mut r, e);
    r.notes.push(format!(
        "PTS = ({}·UAS_a + {}·UAS_b + {}·(1 − AER)) / {}",
        w.a,
        w.b,
        w.ab,
        w.a + w.b + w.ab
    ));
    let ms = measures(w);
    r.add_measures::<PtsCounts>(&ms);
    let mut section = crate::driver::section("scores", "", &ms, e.units, ci);
    section.show_counts = true;
    r.sections.push(section);
    r.warnings = warnings;
    r
}

/// A file as a report input, without counts.
fn file(role: &str, path: &str, description: String, system: Option<usize>) -> Input {
    Input {
        role: role.into(),
        path: path.into(),
        format: String::new(),
        description,
        counts: serde_json::Value::Null,
        system,
    }
}

/// The gold files and every system's three files (its alignment with its counts), and
/// the systems.
fn inputs(r: &mut Report, e: &PtsIn<'_>) {
    let f = e.files;
    let parse = |d: PtsSide<'_>| format!("{} sentences, {} words", d.gold.sentences, d.gold.words);
    let pairs = e.side_a.gold.sentences;
    r.inputs
        .push(file(role::GOLD_A, f.gold_a, parse(e.side_a), None));
    r.inputs
        .push(file(role::GOLD_B, f.gold_b, parse(e.side_b), None));
    r.inputs.push(file(
        role::GOLD_ALIGNMENT,
        f.gold_align,
        format!("{pairs} sentence pairs"),
        None,
    ));
    for (k, al) in e.aligned.iter().enumerate() {
        let first = r.inputs.len();
        let t = sum(al);
        r.inputs
            .push(file(role::SYSTEM_A, &f.sys_a[k], String::new(), Some(k)));
        r.inputs
            .push(file(role::SYSTEM_B, &f.sys_b[k], String::new(), Some(k)));
        let mut i = file(
            role::SYSTEM_ALIGNMENT,
            &f.sys_align[k],
            format!("{} links", t.a),
            Some(k),
        );
        i.counts = serde_json::to_value(t).unwrap_or_default();
        r.inputs.push(i);
        r.systems.push(System {
            name: format!("{} + {} + {}", f.sys_a[k], f.sys_b[k], f.sys_align[k]),
            inputs: vec![first, first + 1, first + 2],
        });
    }
}

/// The names of the measures tested (every measure of the scores section).
pub fn tested_names(w: Weights) -> Vec<String> {
    measures(w).iter().map(|m| m.name.to_string()).collect()
}

/// Every test of `cfg` on the four measures: the UAS of each side with its paired
/// decisions when they were kept (McNemar), AER and PTS by the resampling tests only.
pub fn tests(
    e: &PtsIn<'_>,
    cfg: &CompareConfig,
    progress: Progress<'_>,
) -> (Vec<Comparison>, Vec<Ranking>) {
    let ms = measures(e.weights);
    let n = e.units.len();
    let pair = |d: PtsSide<'_>, x: usize, y: usize| {
        d.pairs.get(pair_index(n, x, y)).map_or((0, 0), |p| p.uas)
    };
    let dec_a = |x: usize, y: usize| pair(e.side_a, x, y);
    let dec_b = |x: usize, y: usize| pair(e.side_b, x, y);
    let with_decisions = !e.side_a.pairs.is_empty();
    let tested: Vec<Tested> = vec![
        (&ms[0], with_decisions.then_some(&dec_a as Decisions)),
        (&ms[1], with_decisions.then_some(&dec_b as Decisions)),
        (&ms[2], None),
        (&ms[3], None),
    ];
    crate::driver::tests(&tested, e.units, cfg, progress)
}
