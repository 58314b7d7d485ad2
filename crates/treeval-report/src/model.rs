//! The signature, warning and significance-settings types every report uses.

use serde::Serialize;
use treeval_formats::Diagnostic;

/// A reproducibility signature in the spirit of sacrebleu:
/// `treeval 0.1.0|deps|punct:form|labels:full|avg:micro`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Signature(pub String);

impl std::fmt::Display for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

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

/// A warning as shown in the report: one entry per kind (file, what happened, hint),
/// with how many times it happened and where the first few were.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Warning {
    /// `path:line:column`, or the path alone: the first occurrence.
    pub position: String,
    /// The message (of the first occurrence).
    pub message: String,
    /// How to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// How many warnings of this kind there were (1 for most).
    #[serde(default = "one")]
    pub count: u64,
    /// Where the first few were (at most [`GROUP_POSITIONS`], the first included), when
    /// there were more than one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<String>,
}

fn one() -> u64 {
    1
}

/// The positions a warning entry lists at most.
pub use treeval_formats::error::GROUP_POSITIONS;

impl Warning {
    /// A warning that happened once.
    pub fn new(
        position: impl Into<String>,
        message: impl Into<String>,
        hint: Option<String>,
    ) -> Self {
        Warning {
            position: position.into(),
            message: message.into(),
            hint,
            count: 1,
            positions: Vec::new(),
        }
    }

    /// What makes two warnings one kind: the file, the message without its digits and its
    /// `[sentence …]` tag, and the hint without its digits.
    fn kind(&self) -> (&str, String, Option<String>) {
        let path = path_of(&self.position);
        let message = match self.message.rfind(" [sentence ") {
            Some(i) if self.message.ends_with(']') => &self.message[..i],
            _ => &self.message,
        };
        let message = treeval_formats::error::without_digits(message);
        (
            path,
            message,
            self.hint
                .as_deref()
                .map(treeval_formats::error::without_digits),
        )
    }

    /// Count `other` (of this kind) in this entry.
    fn absorb(&mut self, other: Warning) {
        if self.positions.is_empty() {
            self.positions.push(self.position.clone());
        }
        let theirs = if other.positions.is_empty() {
            vec![other.position]
        } else {
            other.positions
        };
        for p in theirs {
            if self.positions.len() < GROUP_POSITIONS {
                self.positions.push(p);
            }
        }
        self.count += other.count;
    }
}

/// The path of a position `path:line:column` (or of a bare path).
fn path_of(position: &str) -> &str {
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut parts = position.rsplitn(3, ':');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(c), Some(l), Some(path)) if numeric(c) && numeric(l) => path,
        _ => position,
    }
}

/// `warnings` with the entries of one kind merged into the first of them (counts
/// summed, the first few positions kept), in the order each kind first appears.
pub fn group_warnings(warnings: Vec<Warning>) -> Vec<Warning> {
    let mut out: Vec<Warning> = Vec::with_capacity(warnings.len());
    let mut keys = Vec::with_capacity(warnings.len());
    for w in warnings {
        let (path, message, hint) = w.kind();
        let key = (path.to_owned(), message, hint);
        match keys.iter().position(|k| *k == key) {
            Some(i) => out[i].absorb(w),
            None => {
                out.push(w);
                keys.push(key);
            }
        }
    }
    out
}

/// The warnings of `d`, one entry per kind with its full count.
pub fn warnings_of(d: &treeval_formats::error::Diagnostics) -> Vec<Warning> {
    d.warning_groups().iter().map(Warning::from).collect()
}

/// The warnings `d` counted that no entry of [`warnings_of`] holds: those merged shards
/// counted without keeping them (states written before warnings had counts).
pub fn unlisted_warnings(d: &treeval_formats::error::Diagnostics) -> u64 {
    let listed: u64 = d.warning_groups().iter().map(|g| g.count).sum();
    d.warning_count().saturating_sub(listed)
}

/// `path:line:column: message`, the hint on its own line, and for a kind seen more than
/// once a line with the count and the first positions (those in the first's file by
/// `line:column`).
impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.position.is_empty() {
            write!(f, "{}", self.message)?;
        } else {
            write!(f, "{}: {}", self.position, self.message)?;
        }
        if let Some(h) = &self.hint {
            write!(f, "\n  hint: {h}")?;
        }
        if self.count > 1 {
            write!(f, "\n  {} warnings of this kind", self.count)?;
            if self.positions.len() > 1 {
                let path = path_of(&self.position);
                let short: Vec<&str> = self
                    .positions
                    .iter()
                    .map(|p| {
                        p.strip_prefix(path)
                            .and_then(|r| r.strip_prefix(':'))
                            .unwrap_or(p)
                    })
                    .collect();
                let more = if (self.positions.len() as u64) < self.count {
                    ", …"
                } else {
                    ""
                };
                write!(f, " (at {}{more})", short.join(", "))?;
            }
        }
        Ok(())
    }
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
        let mut w = Warning::new(d.position.to_string(), message, d.hint.clone());
        w.count += d.more;
        w
    }
}

impl From<&treeval_formats::error::WarningGroup<'_>> for Warning {
    fn from(g: &treeval_formats::error::WarningGroup<'_>) -> Self {
        let mut w = Warning::from(g.first);
        w.count = g.count;
        if g.count > 1 {
            w.positions = g.positions.iter().map(|p| p.to_string()).collect();
        }
        w
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
