//! The `pts` report: every component with its counts, never only the composite.

use std::fmt::Write as _;

use serde::Serialize;

use crate::align::AlignCountsOut;
use crate::emit::pct;
use crate::model::{Metric, Signature, Warning};
use crate::render::{table, OutputFormat};

/// The alignment component.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PtsAlignment {
    /// Alignment error rate.
    pub aer: Option<f64>,
    /// Its counts.
    pub counts: AlignCountsOut,
}

/// One system: its two parses and its alignment.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[allow(non_snake_case)]
pub struct PtsSystem {
    /// Parse of side a.
    pub parse_a: String,
    /// Parse of side b.
    pub parse_b: String,
    /// Alignment.
    pub alignment_file: String,
    /// UAS of side a.
    pub UAS_a: Metric,
    /// UAS of side b.
    pub UAS_b: Metric,
    /// The alignment component.
    pub alignment: PtsAlignment,
    /// The composite.
    pub PTS: Option<f64>,
}

/// Conventions in force.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PtsConventions {
    /// Punctuation policy of both parses.
    pub punct: String,
    /// Label comparison (UAS ignores labels; kept for the record).
    pub labels: String,
    /// α_a, α_b, α_ab as given (PTS divides by their sum).
    pub weights: [f64; 3],
}

/// The gold files.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PtsGold {
    /// Gold parse of side a.
    pub parse_a: String,
    /// Gold parse of side b.
    pub parse_b: String,
    /// Gold alignment.
    pub alignment: String,
    /// Sentence pairs.
    pub sentences: u64,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PtsReport {
    /// Schema version.
    pub schema: &'static str,
    /// `pts`.
    pub command: String,
    /// Reproducibility signature.
    pub signature: Signature,
    /// Conventions.
    pub conventions: PtsConventions,
    /// Gold files.
    pub gold: PtsGold,
    /// One per system.
    pub systems: Vec<PtsSystem>,
    /// Pairwise tests: McNemar on each UAS, shuffling on AER and PTS.
    pub comparisons: Vec<treeval_stats::compare::Comparison>,
    /// Ranks per metric and test.
    pub rankings: Vec<treeval_stats::compare::Ranking>,
    /// Warnings.
    pub warnings: Vec<Warning>,
}

/// Render the report (text and JSON; the tabular formats get the text table).
pub fn render(r: &PtsReport, format: OutputFormat) -> String {
    if format == OutputFormat::Json {
        let mut s =
            serde_json::to_string_pretty(r).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
        s.push('\n');
        return s;
    }
    let mut o = String::new();
    let _ = writeln!(o, "{}", r.signature.0);
    let _ = writeln!(
        o,
        "gold: {} + {} + {} ({} sentence pairs)",
        r.gold.parse_a, r.gold.parse_b, r.gold.alignment, r.gold.sentences
    );
    let w = r.conventions.weights;
    let _ = writeln!(
        o,
        "PTS = ({}·UAS_a + {}·UAS_b + {}·(1 − AER)) / {}; punctuation {}\n",
        w[0],
        w[1],
        w[2],
        w[0] + w[1] + w[2],
        r.conventions.punct
    );
    let mut rows = vec![vec![
        "system".to_string(),
        "UAS_a".into(),
        "correct/total".into(),
        "UAS_b".into(),
        "correct/total".into(),
        "AER".into(),
        "A/S/A∩S/A∩P".into(),
        "PTS".into(),
    ]];
    for (k, s) in r.systems.iter().enumerate() {
        let c = &s.alignment.counts;
        rows.push(vec![
            format!(
                "[{}] {} + {} + {}",
                k + 1,
                s.parse_a,
                s.parse_b,
                s.alignment_file
            ),
            pct(s.UAS_a.score),
            format!("{}/{}", s.UAS_a.correct, s.UAS_a.total),
            pct(s.UAS_b.score),
            format!("{}/{}", s.UAS_b.correct, s.UAS_b.total),
            pct(s.alignment.aer),
            format!("{}/{}/{}/{}", c.A, c.S, c.A_and_S, c.A_and_P),
            pct(s.PTS),
        ]);
    }
    o.push_str(&table(&rows, 1));
    for c in &r.comparisons {
        let _ = writeln!(
            o,
            "\n{} [{}] vs [{}], {}: statistic {:.4}, p = {:.4}{}",
            c.metric,
            c.a + 1,
            c.b + 1,
            c.test.name(),
            c.statistic,
            c.p_value,
            if c.significant { " †" } else { "" }
        );
    }
    o
}
