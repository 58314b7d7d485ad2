//! The signature, warning and significance-settings types every report uses.

use serde::Serialize;
use treeval_formats::Diagnostic;

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

/// A warning as shown in the report.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
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
