//! The report: plain serialisable data. Its JSON form is a versioned contract
//! ([`SCHEMA`]); renderers only format it, they never compute.

use std::collections::BTreeMap;

use serde::Serialize;
use treeval_formats::Diagnostic;
use treeval_metrics::deps::{GroupCounts, RelationCounts, Validity};

/// Version of the JSON contract. Bump the number on any breaking change.
pub const SCHEMA: &str = "treeval.report/1";

/// A reproducibility signature in the spirit of sacrebleu:
/// `treeval 0.1.0|deps|punct:form|labels:full|avg:micro`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Signature(pub String);

impl Signature {
    /// Build from the command and its `key:value` conventions.
    pub fn new(command: &str, parts: &[(&str, String)]) -> Self {
        let mut s = format!("treeval {}|{}", env!("CARGO_PKG_VERSION"), command);
        for (k, v) in parts {
            s.push('|');
            s.push_str(k);
            s.push(':');
            s.push_str(v);
        }
        Signature(s)
    }

    /// Append a `key:value` convention.
    pub fn push(&mut self, key: &str, value: String) {
        self.0.push('|');
        self.0.push_str(key);
        self.0.push(':');
        self.0.push_str(&value);
    }
}

/// A metric with its counts: `score = correct / total` (a fraction in [0, 1], `null`
/// when `total` is 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Metric {
    /// Numerator.
    pub correct: u64,
    /// Denominator.
    pub total: u64,
    /// The fraction, full precision.
    pub score: Option<f64>,
    /// A bootstrap confidence interval `[low, high]` of `score`, when asked (`--ci`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci: Option<[f64; 2]>,
}

impl Metric {
    /// From counts.
    pub fn new(correct: u64, total: u64) -> Self {
        Metric {
            correct,
            total,
            score: treeval_metrics::Ratio::new(correct, total).value(),
            ci: None,
        }
    }
}

/// The headline metrics (micro-averaged over words; exact match over sentences).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[allow(non_snake_case)]
pub struct Headline {
    /// Labeled attachment score.
    pub LAS: Metric,
    /// Unlabeled attachment score.
    pub UAS: Metric,
    /// Label accuracy.
    pub LA: Metric,
    /// Labeled exact match (sentences).
    pub LEM: Metric,
    /// Unlabeled exact match (sentences).
    pub UEM: Metric,
    /// Root accuracy (gold root words attached to the root by the system).
    pub ROOT: Metric,
}

/// A macro average: the mean of per-item scores over `count` items.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[allow(non_snake_case)]
pub struct MacroScores {
    /// Items averaged over (sentences with a scored word, or gold relation types).
    pub count: u64,
    /// Mean LAS.
    pub LAS: Option<f64>,
    /// Mean UAS.
    pub UAS: Option<f64>,
    /// Mean LA.
    pub LA: Option<f64>,
}

/// Macro averages, side by side with the micro headline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Macro {
    /// Over sentences: the mean of sentence scores.
    pub sentences: MacroScores,
    /// Over gold relation types: the mean of per-relation recall (LAS, UAS, LA).
    pub relations: MacroScores,
    /// Over relation types: the mean of labeled F1 (relations in gold or system).
    pub relations_labeled_f1: Option<f64>,
}

/// Precision, recall and F1 with their counts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Prf {
    /// Correct items (numerator of both).
    pub correct: u64,
    /// correct / system.
    pub precision: Option<f64>,
    /// correct / gold.
    pub recall: Option<f64>,
    /// Harmonic mean.
    pub f1: Option<f64>,
}

/// One relation label.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RelationRow {
    /// The label.
    pub label: String,
    /// Scored words with this gold label.
    pub gold: u64,
    /// Scored words with this system label.
    pub system: u64,
    /// Right head and label.
    pub labeled: Prf,
    /// Right head (gold label for recall, system label for precision).
    pub unlabeled: Prf,
    /// Right label, head ignored.
    pub label_only: Prf,
    /// The raw counts.
    pub counts: RelationCounts,
}

/// One group of a breakdown.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[allow(non_snake_case)]
pub struct GroupRow {
    /// Group name.
    pub group: String,
    /// Scored words in the group (by gold value).
    pub words: u64,
    /// Accuracies over those words.
    pub LAS: Option<f64>,
    /// UAS over those words.
    pub UAS: Option<f64>,
    /// LA over those words.
    pub LA: Option<f64>,
    /// Words in the group by their system value (tree-dependent groups only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_words: Option<u64>,
    /// LAS over those (precision-like, MaltEval's "parser accuracy").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_LAS: Option<f64>,
    /// The raw counts.
    pub counts: GroupCounts,
}

/// A label confusion matrix (gold rows × system columns), top labels with the rest folded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Confusion {
    /// Row and column labels; the last may be `(other)`.
    pub labels: Vec<String>,
    /// `matrix[gold][system]` = words.
    pub matrix: Vec<Vec<u64>>,
}

/// One input file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileInfo {
    /// Path as given.
    pub path: String,
    /// Detected format.
    pub format: Option<String>,
    /// Sentences.
    pub sentences: u64,
    /// Syntactic words.
    pub words: u64,
}

/// The results of one system file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SystemReport {
    /// Path as given.
    pub path: String,
    /// The file.
    pub file: FileInfo,
    /// Headline metrics.
    pub metrics: Headline,
    /// Macro averages.
    #[serde(rename = "macro")]
    pub macro_: Macro,
    /// Words not scored because of the punctuation policy.
    pub excluded_words: u64,
    /// Per relation label, sorted by label.
    pub per_relation: Vec<RelationRow>,
    /// Breakdowns requested with `--by`, by key.
    pub by: BTreeMap<String, Vec<GroupRow>>,
    /// The confusion matrix, when requested.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confusion: Option<Confusion>,
    /// Structural problems of the system trees.
    pub validity: Validity,
    /// Words whose FORM differs from gold.
    pub form_mismatches: u64,
}

/// A warning as shown in the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Warning {
    /// `path:line:column`, or the path alone.
    pub position: String,
    /// The message.
    pub message: String,
    /// How to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl From<&Diagnostic> for Warning {
    fn from(d: &Diagnostic) -> Self {
        let mut message = d.kind.to_string();
        if let Some(n) = d.position.sentence {
            match &d.position.sent_id {
                Some(id) => message.push_str(&format!(" [sentence {n}, sent_id {id}]")),
                None => message.push_str(&format!(" [sentence {n}]")),
            }
        }
        Warning {
            position: d.position.to_string(),
            message,
            hint: d.hint.clone(),
        }
    }
}

/// The options that fix the numbers, shown in the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Conventions {
    /// `conll07`, `conllx` or `custom`.
    pub profile: String,
    /// Punctuation policy name.
    pub punct: String,
    /// `full` or `universal`.
    pub labels: String,
    /// Headline averaging (`micro`).
    pub avg: String,
}

/// How tests and intervals were run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SignificanceSettings {
    /// Tests run.
    pub tests: Vec<treeval_stats::compare::TestKind>,
    /// Metrics tested.
    pub metrics: Vec<String>,
    /// `two-sided` or `greater` (Bikel's one-sided variant).
    pub alternative: treeval_stats::Alternative,
    /// Shuffles of approximate randomization.
    pub ar_samples: usize,
    /// Samples of the paired bootstrap.
    pub bootstrap_samples: usize,
    /// Significance level, applied to Holm–Bonferroni adjusted p-values.
    pub alpha: f64,
    /// Confidence level of the intervals, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci_level: Option<f64>,
    /// Bootstrap samples of the intervals.
    pub ci_samples: usize,
    /// The seed of every resampling.
    pub seed: u64,
}

/// A full `deps` report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// `deps`.
    pub command: String,
    /// Reproducibility signature.
    pub signature: Signature,
    /// The conventions in force.
    pub conventions: Conventions,
    /// The gold file.
    pub gold: FileInfo,
    /// Structural problems of the gold trees.
    pub gold_validity: Validity,
    /// One entry per system file, in the order given.
    pub systems: Vec<SystemReport>,
    /// Significance settings, when tests or intervals were asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub significance: Option<SignificanceSettings>,
    /// Pairwise tests (`--test`): one entry per metric, test and pair of systems.
    pub comparisons: Vec<treeval_stats::compare::Comparison>,
    /// Ranks per metric and test (1 + systems significantly better).
    pub rankings: Vec<treeval_stats::compare::Ranking>,
    /// Warnings (at most 100 kept; `warnings_total` counts all).
    pub warnings: Vec<Warning>,
    /// Number of warnings, kept or not.
    pub warnings_total: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_and_metric() {
        let s = Signature::new(
            "deps",
            &[("punct", "form".into()), ("labels", "full".into())],
        );
        assert_eq!(
            s.0,
            format!(
                "treeval {}|deps|punct:form|labels:full",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert_eq!(Metric::new(1, 4).score, Some(0.25));
        assert_eq!(Metric::new(0, 0).score, None);
        let json = serde_json::to_string(&Metric::new(0, 0)).unwrap();
        assert_eq!(json, r#"{"correct":0,"total":0,"score":null}"#);
    }
}
