//! The options every family shares, with the same meaning everywhere: significance tests
//! and intervals, sentence selection, `where` conditions, error listings, the HTML page's
//! additions, and the state of a part of a corpus. Their names are the command line's
//! long options (`test`, `ci`, `sent_id`, …) and the Python keyword arguments.

use std::io::Write;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use treeval_stats::compare::{CompareConfig, TestKind};
use treeval_stats::Alternative;

/// The level of the intervals of the differences tests compare, without `--ci`.
pub const DEFAULT_CI_LEVEL: f64 = 0.95;

/// A pairwise significance test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Test {
    /// McNemar's test on paired binary decisions (exact binomial below 25 discordant pairs).
    Mcnemar,
    /// Approximate randomization (stratified shuffling).
    Ar,
    /// Paired bootstrap resampling.
    Bootstrap,
}

impl Test {
    /// The statistics crate's test.
    pub fn kind(self) -> TestKind {
        match self {
            Test::Mcnemar => TestKind::Mcnemar,
            Test::Ar => TestKind::Ar,
            Test::Bootstrap => TestKind::Bootstrap,
        }
    }
}

/// Where per-sentence records go (JSON lines): any writer, with the name messages give
/// it, shared so that [`Common`] stays cloneable.
#[derive(Clone)]
pub struct Sink {
    /// The name of what is written (a path), for messages.
    pub name: String,
    /// The writer.
    pub writer: Arc<Mutex<dyn Write + Send>>,
}

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sink")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Sink {
    /// A sink named `name` writing to `w`.
    pub fn new(name: impl Into<String>, w: impl Write + Send + 'static) -> Self {
        Sink {
            name: name.into(),
            writer: Arc::new(Mutex::new(w)),
        }
    }
}

/// A progress callback: `(step label, done, total)`, called from the thread that runs
/// the tests (a command line draws a bar; the library itself prints nothing).
#[derive(Clone)]
pub struct Progress(pub Arc<ProgressFn>);

/// What [`Progress`] calls: `(step label, done, total)`.
pub type ProgressFn = dyn Fn(&str, u64, u64) + Send + Sync;

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress(..)")
    }
}

/// The shared options. `Default` is the command line's defaults.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Common {
    /// Pairwise tests between systems (`--test`, repeatable).
    pub test: Vec<Test>,
    /// Shuffles of `ar` (default 10000) and samples of `bootstrap` (default 1000).
    pub samples: Option<usize>,
    /// Seed of every resampling.
    pub seed: u64,
    /// Significance level applied to the Holm–Bonferroni adjusted p-values.
    pub alpha: f64,
    /// Bikel's one-sided variant of `ar`: is the first system of each pair better?
    pub one_sided: bool,
    /// A percentile bootstrap confidence interval at this level (0.95; 95 is read as
    /// 0.95) on each tested headline measure.
    #[serde(deserialize_with = "level_option")]
    pub ci: Option<f64>,
    /// Bootstrap samples of `ci` and of the intervals of the tested differences.
    pub ci_samples: usize,
    /// Score only the gold sentences with these ids (a file of ids, or a regular
    /// expression matching the whole id).
    pub sent_id: Option<String>,
    /// Score only gold sentences of at least this many words.
    pub min_len: Option<u64>,
    /// Score only gold sentences of at most this many words.
    pub max_len: Option<u64>,
    /// Score only the words that meet every condition (`--where`).
    #[serde(rename = "where")]
    pub where_: Vec<String>,
    /// List every error behind the scores (`--errors`).
    pub errors: bool,
    /// The report is for an HTML page: its charts' sections are added and its sentence
    /// browser holds at most this many sentences (`None`: no page).
    pub page_sentences: Option<usize>,
    /// Keep every sentence's counts in the state (for tests and intervals after merging).
    pub keep_sentences: bool,
    /// Return the evaluation's state: the run evaluates one part of a corpus, which
    /// `merge` sums with the others (a part that scores nothing is not an error).
    pub state: bool,
    /// Per-sentence records (JSON lines) go here.
    #[serde(skip)]
    pub per_sentence: Option<Sink>,
    /// Progress of long tests.
    #[serde(skip)]
    pub progress: Option<Progress>,
    /// The systems' names (`--name`, one per system in the order given); without them a
    /// system is named by the shortest end of its path that tells it apart
    /// ([`treeval_report::names::short`]).
    #[serde(rename = "name")]
    pub names: Vec<String>,
}

impl Default for Common {
    fn default() -> Self {
        Common {
            test: Vec::new(),
            samples: None,
            seed: treeval_stats::DEFAULT_SEED,
            alpha: 0.05,
            one_sided: false,
            ci: None,
            ci_samples: 1000,
            sent_id: None,
            min_len: None,
            max_len: None,
            where_: Vec::new(),
            errors: false,
            page_sentences: None,
            keep_sentences: false,
            state: false,
            per_sentence: None,
            progress: None,
            names: Vec::new(),
        }
    }
}

/// A confidence level as given (`95` or `0.95`) as a fraction in (0, 1).
pub fn level(v: f64) -> Result<f64, String> {
    let l = if v > 1.0 { v / 100.0 } else { v };
    if l > 0.0 && l < 1.0 {
        Ok(l)
    } else {
        Err(format!(
            "expected a confidence level between 0 and 100, found '{v}'"
        ))
    }
}

/// A significance level in (0, 1).
pub fn alpha(v: f64) -> Result<f64, String> {
    if v > 0.0 && v < 1.0 {
        Ok(v)
    } else {
        Err(format!(
            "expected a significance level between 0 and 1, found '{v}'"
        ))
    }
}

/// A number of samples: at least 1.
pub fn samples(n: usize) -> Result<usize, String> {
    if n == 0 {
        return Err("expected a number of samples of at least 1, found 0 (no samples give no p-value or interval)".into());
    }
    Ok(n)
}

fn level_option<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Option::<f64>::deserialize(d)?
        .map(|v| level(v).map_err(serde::de::Error::custom))
        .transpose()
}

impl Common {
    /// Usage errors in the values (a level outside (0, 1), no samples), naming the option.
    pub fn validate(&self) -> Result<(), crate::Error> {
        let usage = |flag: &str, e: String| crate::Error::Usage(format!("--{flag}: {e}"));
        alpha(self.alpha).map_err(|e| usage("alpha", e))?;
        if let Some(l) = self.ci {
            level(l).map_err(|e| usage("ci", e))?;
        }
        if let Some(n) = self.samples {
            samples(n).map_err(|e| usage("samples", e))?;
        }
        samples(self.ci_samples).map_err(|e| usage("ci-samples", e))?;
        Ok(())
    }

    /// A usage error when `where` is given to `command`, which cannot select words (the
    /// library refuses it as the command line does: never silently ignored).
    pub fn refuse_where(&self, command: &str) -> Result<(), crate::Error> {
        if self.where_.is_empty() {
            return Ok(());
        }
        Err(crate::Error::Usage(Self::no_where(command)))
    }

    /// Why `command` refuses `where` (the library's and the command line's message).
    pub fn no_where(command: &str) -> String {
        format!(
            "--where is not available for `treeval {command}` (it is for deps, ud and brackets)"
        )
    }

    /// A usage error unless the names given (`--name`) are one per system (`what`s:
    /// "system", "system triple", "n-best list"), each non-empty and different.
    pub fn check_names(&self, systems: usize, what: &str) -> Result<(), crate::Error> {
        treeval_report::names::check_given(&self.names, systems, what).map_err(crate::Error::Usage)
    }

    /// The display names of systems read from `paths`: the names given, or else the
    /// shortest ends of the paths that tell them apart.
    pub fn system_names(&self, paths: &[&str]) -> Vec<String> {
        treeval_report::names::of(paths, &self.names)
    }

    /// The tests asked for.
    pub fn tests(&self) -> Vec<TestKind> {
        self.test.iter().map(|t| t.kind()).collect()
    }

    /// Whether the sentences' counts are kept: for tests, intervals, or a state that keeps
    /// them.
    pub fn keeps_sentences(&self) -> bool {
        !self.test.is_empty() || self.ci.is_some() || self.keep_sentences
    }

    /// Whether the run is one part of a corpus (it returns a state).
    pub fn is_part(&self) -> bool {
        self.state
    }

    /// The comparison settings.
    pub fn compare_config(&self) -> CompareConfig {
        CompareConfig {
            tests: self.tests(),
            ar_samples: self.samples.unwrap_or(10_000),
            bootstrap_samples: self.samples.unwrap_or(1_000),
            seed: self.seed,
            alpha: self.alpha,
            alternative: if self.one_sided {
                Alternative::Greater
            } else {
                Alternative::TwoSided
            },
            ci_level: self.ci.unwrap_or(DEFAULT_CI_LEVEL),
            ci_samples: self.ci_samples,
        }
    }

    /// Report progress, if anyone listens.
    pub fn progress(&self, label: &str, done: u64, total: u64) {
        if let Some(p) = &self.progress {
            (p.0)(label, done, total);
        }
    }
}

/// The report note saying what an HTML page added to the report because the page's
/// charts draw it (each item names the option that asks for it); none when nothing was.
pub fn page_note(added: &[String]) -> Option<String> {
    (!added.is_empty()).then(|| format!("the HTML page adds {}", added.join(", ")))
}
