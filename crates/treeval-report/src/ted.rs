//! The `ted` report on the shared model: TedEval of every experiment (Tsarfaty, Nivre &
//! Andersson 2011), with LAS and UAS against each parse's own gold, and the tests on it.

use treeval_metrics::deps::DepsMetric;
use treeval_metrics::measure::Measure;
use treeval_metrics::tedeval::measures::measures;
use treeval_metrics::tedeval::run::{ExperimentResult, TedEvalResult};
use treeval_metrics::tedeval::TedEvalCounts;
use treeval_metrics::AttachmentCounts;
use treeval_stats::compare::{CompareConfig, Comparison, Ranking};

use crate::driver::{Intervals, Progress};
use crate::model::{Signature, Warning};
use crate::value::{Input, Report, Row, Section, System};

/// How the evaluation ran and what the report shows.
#[derive(Debug, Clone, Copy, Default)]
pub struct TedShown {
    /// Unlabeled TedEval (`--unlabeled`).
    pub unlabeled: bool,
    /// The mean of the sentence scores besides the global score (`--micro`).
    pub micro: bool,
    /// Whether the sentences were kept (tests or intervals): the scores are then
    /// computed from them, else from their sums.
    pub resample: bool,
    /// Intervals on every score (`--ci`).
    pub ci: Option<Intervals>,
}

/// Build the report: TedEval of every experiment, with LAS and UAS against its own gold.
pub fn build(
    signature: Signature,
    r: &TedEvalResult,
    shown: TedShown,
    warnings: Vec<Warning>,
) -> Report {
    let mut report = Report::new("ted", signature);
    report.convention(
        "labels",
        if shown.unlabeled {
            "unlabeled"
        } else {
            "labeled"
        },
    );
    report.convention("costs", "unit");
    report.convention(
        "average",
        if shown.micro {
            "micro (mean)"
        } else {
            "global"
        },
    );
    inputs(&mut report, r);
    let ms = measures();
    report.add_measures::<TedEvalCounts>(&ms);
    report.sections.push(scores(r, &ms, shown));
    let own: Vec<Measure> = [DepsMetric::Las, DepsMetric::Uas]
        .iter()
        .map(|m| m.measure())
        .collect();
    if let Some(section) = own_gold(r, &own) {
        report.add_measures::<AttachmentCounts>(&own);
        report.sections.push(section);
    }
    notes(&mut report, r);
    report.warnings = warnings;
    report
}

/// Every experiment's gold and parse, with their repairs and the sentence counts, and
/// the systems.
fn inputs(report: &mut Report, r: &TedEvalResult) {
    for (k, x) in r.experiments.iter().enumerate() {
        let first = report.inputs.len();
        use crate::names::role::{GOLD, SYSTEM};
        for (role, path) in [(GOLD, &x.gold.path), (SYSTEM, &x.parse.path)] {
            report.inputs.push(Input {
                role: role.into(),
                path: path.clone(),
                format: String::new(),
                description: String::new(),
                counts: serde_json::json!({
                    "repairs": if role == GOLD { x.gold_repairs } else { x.parse_repairs },
                    "sentences": {
                        "read": r.sentences,
                        "scored": r.scored,
                        "over_max_len": r.skipped_long.0,
                        "over_max_len_words": r.skipped_long.1,
                        "too_large": r.too_large.0,
                    },
                }),
                system: Some(k),
            });
        }
        // the gold's size against the generalized gold's
        if let Some(m) = report.inputs[first].counts.as_object_mut() {
            m.insert("nodes".into(), sizes(r, x));
        }
        report.systems.push(System {
            name: x.name.clone(),
            inputs: vec![first, first + 1],
        });
    }
}

/// The sizes behind a gold input's scores: nodes of its own gold, of the generalized
/// gold, and the generalized gold's share of them, over the scored sentences.
fn sizes(r: &TedEvalResult, x: &ExperimentResult) -> serde_json::Value {
    serde_json::json!({
        "gold": x.gold_nodes,
        "generalized": r.summary.generalized_nodes,
        "kept": share(r.summary.generalized_nodes, x.gold_nodes),
    })
}

/// `part / whole`, `None` (JSON null) for no whole.
fn share(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

/// The TedEval scores of every experiment, with their intervals.
fn scores(r: &TedEvalResult, ms: &[Measure], shown: TedShown) -> Section {
    // the units: the sentences when they were kept (tests, intervals), else their sums
    let totals: Vec<[TedEvalCounts; 1]> = r.experiments.iter().map(|x| [x.counts]).collect();
    let units: Vec<&[TedEvalCounts]> = r
        .experiments
        .iter()
        .zip(&totals)
        .map(|(x, t)| {
            if shown.resample {
                x.sentences.as_slice()
            } else {
                t.as_slice()
            }
        })
        .collect();
    let mut scores = crate::driver::section("scores", "", ms, &units, shown.ci);
    scores.show_counts = true;
    scores
}

/// LAS and UAS (`own`) of every dependency experiment against its own gold; `None`
/// when no experiment has them.
fn own_gold(r: &TedEvalResult, own: &[Measure]) -> Option<Section> {
    let rows: Vec<Row> = r
        .experiments
        .iter()
        .enumerate()
        .filter_map(|(k, x)| {
            x.attachment.map(|t| Row {
                system: k,
                key: None,
                cells: crate::driver::cells(own, std::slice::from_ref(&t), None),
            })
        })
        .collect();
    (!rows.is_empty()).then(|| Section {
        id: "own-gold".into(),
        title: "against each system's own gold (dependency experiments)".into(),
        key: None,
        columns: own.iter().map(|m| m.name.to_string()).collect(),
        show_counts: true,
        compact: None,
        rows,
    })
}

/// What a difference between experiments of different schemes means, and what not.
const CROSS_SCHEME: &str = "cross-scheme: a difference between experiments says which parse better recovers what all the gold standards share (the generalized gold), each parse forgiven the edits that its own scheme's gold needs too. It does not say which scheme is better or easier to parse, nor how a parse does against its own gold (LAS/UAS above), and it covers only the nodes that generalization keeps (the sizes above).";

/// The line of sizes: the generalized gold's nodes against each experiment's own gold.
fn gold_sizes(r: &TedEvalResult) -> String {
    let each: Vec<String> = (r.experiments.iter())
        .map(|x| {
            let pct = share(r.summary.generalized_nodes, x.gold_nodes)
                .map_or_else(|| "n/a".to_string(), |v| format!("{:.1}%", v * 100.0));
            format!("{}'s gold {} ({pct} kept)", x.name, x.gold_nodes)
        })
        .collect();
    format!(
        "generalized gold: {} nodes over the scored sentences; {}",
        r.summary.generalized_nodes,
        each.join(", ")
    )
}

/// What the text says under the tables: gold standards, sentences, repairs.
fn notes(report: &mut Report, r: &TedEvalResult) {
    let mut golds: Vec<&str> = r.experiments.iter().map(|x| x.gold.path.as_str()).collect();
    golds.sort_unstable();
    golds.dedup();
    report.notes.push(if golds.len() == 1 {
        format!(
            "TedEval (Tsarfaty, Nivre & Andersson 2011): each system against the gold standard {}",
            golds[0]
        )
    } else {
        format!(
            "TedEval (Tsarfaty, Nivre & Andersson 2011): each system against the generalization of the {} gold standards",
            golds.len(),
        )
    });
    if golds.len() > 1 {
        report.notes.push(gold_sizes(r));
        report.notes.push(CROSS_SCHEME.into());
    }
    // the sentences the selection (`--sent-id`, `--min-len`, `--max-len`) excludes are
    // in its own note and signature part, as in every command
    let mut line = format!("sentences: {} read, {} scored", r.sentences, r.scored);
    if r.too_large.0 > 0 {
        line.push_str(&format!(
            ", {} over the edit distance's limits (5000 words, --max-cost) not scored",
            r.too_large.0
        ));
    }
    report.notes.push(line);
    // each experiment's gold and system files are in the inputs (the text header lists
    // them under the systems' names)
    for x in &r.experiments {
        let (g, p) = (x.gold_repairs, x.parse_repairs);
        if g.cycles + g.bad_heads + p.cycles + p.bad_heads > 0 {
            report.notes.push(format!(
                "{}: repaired before conversion: gold {} cycles, {} bad heads; system {} cycles, {} bad heads",
                x.name, g.cycles, g.bad_heads, p.cycles, p.bad_heads
            ));
        }
        if x.counts.terminal_edits > 0 {
            report.notes.push(format!(
                "{}: {} terminals deleted or inserted (words out of order in non-projective trees; counted in Σι)",
                x.name, x.counts.terminal_edits
            ));
        }
    }
}

/// The measure the tests compare: the global score, or with `micro` the mean of the
/// sentence scores.
pub fn tested_name(micro: bool) -> &'static str {
    if micro {
        "TedEval-mean"
    } else {
        "TedEval"
    }
}

/// Every test of `cfg` between the experiments on [`tested_name`], over their kept
/// sentences.
pub fn tests(
    r: &TedEvalResult,
    micro: bool,
    cfg: &CompareConfig,
    progress: Progress<'_>,
) -> (Vec<Comparison>, Vec<Ranking>) {
    let ms = measures();
    // --micro: the tests compare the mean of the sentence scores
    let tested = &ms[usize::from(micro)];
    let units: Vec<Vec<TedEvalCounts>> =
        r.experiments.iter().map(|x| x.sentences.clone()).collect();
    crate::driver::tests(&[(tested, None)], &units, cfg, progress)
}
