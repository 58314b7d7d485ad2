//! The `ted` report: per experiment, LAS against its own gold beside TedEval against the
//! generalized gold, and pairwise significance.

use std::fmt::Write as _;

use serde::Serialize;
use treeval_metrics::tedeval::run::{RunSummary, TedEvalResult};
use treeval_metrics::tedeval::{Repairs, TedEvalCounts};

use crate::model::{Metric, Signature, Warning};
use crate::render::{pct, significance_lines, table};

/// TedEval's figures for a system.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TedEvalMetric {
    /// The corpus score: 1 − distance / normalizer (global averaging), or with
    /// `--micro` the mean of the sentence scores; `null` when no sentence was scored.
    pub score: Option<f64>,
    /// Σ δ_new.
    pub distance: u64,
    /// Σ ι.
    pub normalizer: u64,
    /// Σ δ (before forgiving the operations the scheme's own gold needs).
    pub delta: u64,
    /// 1 − Σδ_new/Σι (the default score); `null` when no sentence was scored.
    pub global: Option<f64>,
    /// The mean of the sentence scores (the `--micro` score).
    pub micro: Option<f64>,
    /// Terminals deleted or inserted (only with non-projective trees).
    pub terminal_edits: u64,
}

/// The metrics object of a system.
#[allow(non_snake_case)]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TedMetrics {
    /// TedEval against the generalized gold.
    pub TedEval: TedEvalMetric,
    /// Labeled attachment score against the experiment's own gold (same sentences;
    /// absent when the gold or the parse is a constituency tree).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub LAS: Option<Metric>,
    /// Unlabeled attachment score against the experiment's own gold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub UAS: Option<Metric>,
}

/// One sentence of one system (`--per-sentence`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TedSentence {
    /// Sentence number (1-based).
    pub sentence: u64,
    /// Scored (false: over --max-len).
    pub scored: bool,
    /// δ(parse, gen).
    pub delta: u64,
    /// δ_new.
    pub delta_new: u64,
    /// ι.
    pub normalizer: u64,
    /// 1 − δ_new/ι.
    pub score: Option<f64>,
}

/// One experiment's results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TedSystem {
    /// Experiment name.
    pub name: String,
    /// Its gold file.
    pub gold: String,
    /// Its parse file.
    pub parse: String,
    /// The figures.
    pub metrics: TedMetrics,
    /// Trees that had to be repaired before conversion (cycles, missing heads).
    pub repairs: RepairsOut,
    /// Every sentence (`--per-sentence`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sentences: Vec<TedSentence>,
    /// Bootstrap intervals (`--ci`).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub ci: std::collections::BTreeMap<String, [f64; 2]>,
}

/// Repairs of the gold and parse trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RepairsOut {
    /// Of the gold trees.
    pub gold: Repairs,
    /// Of the parse trees.
    pub parse: Repairs,
}

/// Sentences read and scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TedSentences {
    /// Read.
    pub read: u64,
    /// Scored.
    pub scored: u64,
    /// Over --max-len (not scored).
    pub over_max_len: u64,
    /// Their words.
    pub over_max_len_words: u64,
    /// Over the limits of the edit distance (5,000 words, `--max-cost`; not scored).
    pub too_large: u64,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TedReport {
    /// Schema version.
    pub schema: &'static str,
    /// `ted`.
    pub command: String,
    /// Reproducibility signature.
    pub signature: Signature,
    /// Sentences.
    pub sentences: TedSentences,
    /// Sizes of the generalized gold.
    pub generalized: RunSummary,
    /// One per experiment.
    pub systems: Vec<TedSystem>,
    /// Pairwise tests.
    pub comparisons: Vec<treeval_stats::compare::Comparison>,
    /// Ranks.
    pub rankings: Vec<treeval_stats::compare::Ranking>,
    /// Warnings about the inputs.
    pub warnings: Vec<Warning>,
}

fn metric(c: &TedEvalCounts, micro: bool) -> TedEvalMetric {
    // Σι is at least 2 for every scored sentence (the roots), so 0 means none was scored
    let global = (c.normalizer > 0).then(|| c.score());
    let m = c.micro_score();
    TedEvalMetric {
        score: if micro { m } else { global },
        distance: c.delta_new,
        normalizer: c.normalizer,
        delta: c.delta,
        global,
        micro: m,
        terminal_edits: c.terminal_edits,
    }
}

/// Build the report from a run.
pub fn build(
    r: &TedEvalResult,
    signature: Signature,
    micro: bool,
    per_sentence: bool,
    warnings: Vec<Warning>,
) -> TedReport {
    let systems = r
        .experiments
        .iter()
        .map(|x| TedSystem {
            name: x.name.clone(),
            gold: x.gold.path.clone(),
            parse: x.parse.path.clone(),
            metrics: TedMetrics {
                TedEval: metric(&x.counts, micro),
                LAS: x.attachment.map(|a| Metric::new(a.las, a.words)),
                UAS: x.attachment.map(|a| Metric::new(a.uas, a.words)),
            },
            repairs: RepairsOut {
                gold: x.gold_repairs,
                parse: x.parse_repairs,
            },
            sentences: if per_sentence {
                x.sentences
                    .iter()
                    .enumerate()
                    .map(|(i, c)| TedSentence {
                        sentence: i as u64 + 1,
                        scored: c.sentences == 1,
                        delta: c.delta,
                        delta_new: c.delta_new,
                        normalizer: c.normalizer,
                        score: (c.sentences == 1).then_some(c.sum_sentence_score),
                    })
                    .collect()
            } else {
                Vec::new()
            },
            ci: Default::default(),
        })
        .collect();
    TedReport {
        schema: crate::SCHEMA,
        command: "ted".into(),
        signature,
        sentences: TedSentences {
            read: r.sentences,
            scored: r.scored,
            over_max_len: r.skipped_long.0,
            over_max_len_words: r.skipped_long.1,
            too_large: r.too_large.0,
        },
        generalized: r.summary,
        systems,
        comparisons: Vec::new(),
        rankings: Vec::new(),
        warnings,
    }
}

/// The text report.
pub fn render_text(r: &TedReport, micro: bool) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}", r.signature.0);
    let mut golds: Vec<&str> = r.systems.iter().map(|x| x.gold.as_str()).collect();
    golds.sort_unstable();
    golds.dedup();
    if golds.len() == 1 {
        let _ = writeln!(
            o,
            "TedEval (Tsarfaty, Nivre & Andersson 2011): each parse against the gold standard {}",
            golds[0]
        );
    } else {
        let _ = writeln!(
            o,
            "TedEval (Tsarfaty, Nivre & Andersson 2011): each parse against the generalization of the {} gold standards",
            golds.len()
        );
    }
    let s = &r.sentences;
    let _ = write!(o, "sentences: {} read, {} scored", s.read, s.scored);
    if s.over_max_len > 0 {
        let _ = write!(
            o,
            ", {} over --max-len ({} words) not scored",
            s.over_max_len, s.over_max_len_words
        );
    }
    if s.too_large > 0 {
        let _ = write!(
            o,
            ", {} over the edit distance's limits (5000 words, --max-cost) not scored",
            s.too_large
        );
    }
    o.push('\n');
    if golds.len() > 1 {
        let _ = writeln!(
            o,
            "generalized gold: {} nodes ({} in the gold of {})",
            r.generalized.generalized_nodes, r.generalized.first_gold_nodes, r.systems[0].name
        );
    }
    o.push('\n');
    let mut rows = vec![vec![
        "".to_string(),
        "experiment".into(),
        "LAS (own gold)".into(),
        "UAS (own gold)".into(),
        if micro {
            "TedEval (mean)".into()
        } else {
            "TedEval".into()
        },
        "Σδ_new".into(),
        "Σι".into(),
        "Σδ".into(),
    ]];
    for (k, x) in r.systems.iter().enumerate() {
        let m = &x.metrics;
        rows.push(vec![
            format!("[{}]", k + 1),
            x.name.clone(),
            m.LAS.map_or("-".into(), |x| pct(x.score)),
            m.UAS.map_or("-".into(), |x| pct(x.score)),
            m.TedEval
                .score
                .map_or("n/a".into(), |v| format!("{:.2}", 100.0 * v)),
            m.TedEval.distance.to_string(),
            m.TedEval.normalizer.to_string(),
            m.TedEval.delta.to_string(),
        ]);
    }
    o.push_str(&table(&rows, 2));
    for (k, x) in r.systems.iter().enumerate() {
        let _ = writeln!(
            o,
            "[{}] {}: gold {}, parse {}",
            k + 1,
            x.name,
            x.gold,
            x.parse
        );
        let (g, p) = (x.repairs.gold, x.repairs.parse);
        if g.cycles + g.bad_heads + p.cycles + p.bad_heads > 0 {
            let _ = writeln!(
                o,
                "    repaired before conversion: gold {} cycles, {} bad heads; parse {} cycles, {} bad heads",
                g.cycles, g.bad_heads, p.cycles, p.bad_heads
            );
        }
        if x.metrics.TedEval.terminal_edits > 0 {
            let _ = writeln!(
                o,
                "    {} terminals deleted or inserted (words out of order in non-projective trees; counted in Σι)",
                x.metrics.TedEval.terminal_edits
            );
        }
    }
    if !r.systems.iter().all(|x| x.sentences.is_empty()) {
        o.push('\n');
        let mut rows = vec![vec![
            "sentence".to_string(),
            "experiment".into(),
            "δ".into(),
            "δ_new".into(),
            "ι".into(),
            "score".into(),
        ]];
        let n = r.systems[0].sentences.len();
        for i in 0..n {
            for x in &r.systems {
                let s = &x.sentences[i];
                rows.push(vec![
                    s.sentence.to_string(),
                    x.name.clone(),
                    s.delta.to_string(),
                    s.delta_new.to_string(),
                    s.normalizer.to_string(),
                    s.score.map_or("-".into(), |v| format!("{:.4}", v)),
                ]);
            }
        }
        o.push_str(&table(&rows, 2));
    }
    if !r.comparisons.is_empty() || r.systems.iter().any(|x| !x.ci.is_empty()) {
        o.push('\n');
        significance_lines(&mut o, r.systems.iter().map(|x| &x.ci), &r.comparisons, "");
    }
    // the warnings themselves go to stderr (with their positions) and into the JSON
    if !r.warnings.is_empty() {
        let _ = writeln!(
            o,
            "\n{} warning(s); see stderr or the JSON report",
            r.warnings.len()
        );
    }
    o
}
