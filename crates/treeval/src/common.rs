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

/// A confidence level as given (`--ci`, Python's `ci=`, a JSON options object), as the
/// fraction the library keeps (95 → 0.95). One rule everywhere: a level is a percentage
/// above 1 and below 100 (`95`, `99.5`). A number of at most 1 reads as a fraction and is
/// refused with the percentage it would be (`0.95`: did you mean 95?); 1 itself could be
/// 1 % or 100 %.
pub fn level(v: f64) -> Result<f64, String> {
    if v > 1.0 && v < 100.0 {
        return Ok(v / 100.0);
    }
    let mut e =
        format!("expected a confidence level in percent, above 1 and below 100, found '{v}'");
    if v > 0.0 && v < 1.0 {
        e.push_str(&format!(
            "\n  hint: a level is a percentage (95, 99.5): did you mean {}?",
            treeval_report::model::level_percent(v)
        ));
    }
    Err(e)
}

/// The most samples of a bootstrap (`--ci-samples`, `--samples` of `--test bootstrap`):
/// every replicate's values are kept to read the interval's ends (16 bytes for each
/// interval), and each replicate resamples every sentence.
pub const MAX_SAMPLES: usize = 1_000_000;

/// The fewest samples of a test that can be significant at `alpha`: the smallest p-value
/// `n` samples give is 1/(n + 1), and a test is significant when p < `alpha`.
pub fn min_test_samples(alpha: f64) -> usize {
    let mut n = ((1.0 / alpha).floor() as usize).saturating_sub(2).max(1);
    while 1.0 / (n + 1) as f64 >= alpha {
        n += 1;
    }
    n
}

/// The fewest samples of a percentile interval at `level` (a fraction): each tail beyond
/// the interval, (1 − level)/2 of the samples, must hold at least one sample (with fewer,
/// the interval's ends are the extreme samples, or one sample: an interval that may
/// exclude the score).
pub fn min_interval_samples(level: f64) -> usize {
    let tail = (1.0 - level) / 2.0;
    let mut n = ((1.0 / tail).floor() as usize).saturating_sub(2).max(1);
    while (n as f64) * tail < 1.0 - 1e-9 {
        n += 1;
    }
    n
}

/// A bootstrap's number of samples (`flag`: `ci-samples` or `samples`) within
/// [`MAX_SAMPLES`], with what more would cost.
fn at_most_max(flag: &str, n: usize) -> Result<(), String> {
    if n <= MAX_SAMPLES {
        return Ok(());
    }
    let bytes = n as f64 * 16.0;
    let size = if bytes >= 1e9 {
        format!("{:.1} GB", bytes / 1e9)
    } else {
        format!("{:.0} MB", bytes / 1e6)
    };
    Err(format!(
        "--{flag}: expected at most {MAX_SAMPLES} samples, found {n}\n  hint: a bootstrap keeps \
         every sample's values to find the interval's ends (at least {size} for each measure\n  \
         and system) and resamples every sentence once per sample ({:.0} times the work of the \
         default 1000)",
        n as f64 / 1000.0
    ))
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

/// A number of samples as given: a whole number of at least 1 (how many a test or an
/// interval needs is [`Common::validate`]'s, which knows the level and `alpha`).
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
    /// Usage errors in the values (a level outside (0, 1), too few or too many samples),
    /// naming the option. Every command checks its options here, from the command line
    /// and from Python alike.
    pub fn validate(&self) -> Result<(), crate::Error> {
        let usage = |flag: &str, e: String| crate::Error::Usage(format!("--{flag}: {e}"));
        alpha(self.alpha).map_err(|e| usage("alpha", e))?;
        if let Some(l) = self.ci {
            if !(l > 0.0 && l < 1.0) {
                return Err(usage(
                    "ci",
                    format!("expected the level as a fraction between 0 and 1 (0.95), found {l}"),
                ));
            }
        }
        if let Some(n) = self.samples {
            samples(n).map_err(|e| usage("samples", e))?;
        }
        samples(self.ci_samples).map_err(|e| usage("ci-samples", e))?;
        self.enough_samples().map_err(crate::Error::Usage)
    }

    /// The samples of the tests and intervals asked for are enough to mean something
    /// ([`min_test_samples`], [`min_interval_samples`]) and no more than [`MAX_SAMPLES`]
    /// where a bootstrap keeps them.
    fn enough_samples(&self) -> Result<(), String> {
        let cfg = self.compare_config();
        for test in &self.test {
            let n = match test {
                Test::Mcnemar => continue,
                Test::Ar => cfg.ar_samples,
                Test::Bootstrap => cfg.bootstrap_samples,
            };
            let min = min_test_samples(self.alpha);
            if n < min {
                return Err(format!(
                    "--samples: expected at least {min} samples for --alpha {}, found {n}\n  hint: \
                     the smallest p-value {n} samples can give is 1/({n} + 1) = {:.4}, never below \
                     --alpha",
                    self.alpha,
                    1.0 / (n + 1) as f64,
                ));
            }
            if *test == Test::Bootstrap {
                at_most_max("samples", n)?;
            }
        }
        if self.ci.is_none() && self.test.is_empty() {
            return Ok(());
        }
        let level = self.ci.unwrap_or(DEFAULT_CI_LEVEL);
        let (n, min) = (self.ci_samples, min_interval_samples(level));
        if n < min {
            let shown = treeval_report::model::level_percent(level);
            return Err(format!(
                "--ci-samples: expected at least {min} samples for {shown}% intervals, found {n}\n  \
                 hint: each tail beyond a {shown}% interval is {}% of the samples and must hold at \
                 least one\n  (with fewer, the interval's ends are extreme samples and may exclude \
                 the score)",
                treeval_report::model::level_percent((1.0 - level) / 2.0)
            ));
        }
        at_most_max("ci-samples", n)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The minimums by hand: a test of n samples gives p ≥ 1/(n + 1), significant when
    /// p < α (α 0.05: 1/20 is not below it, 1/21 is); an interval at 95 % has tails of
    /// 2.5 % of the samples, one sample at 40.
    #[test]
    fn minimum_sample_counts() {
        assert_eq!(min_test_samples(0.05), 20);
        assert_eq!(min_test_samples(0.01), 100);
        assert_eq!(min_test_samples(0.5), 2);
        assert_eq!(min_test_samples(0.9), 1);
        assert_eq!(min_interval_samples(0.95), 40);
        assert_eq!(min_interval_samples(0.995), 400);
        assert_eq!(min_interval_samples(0.9), 20);
        assert_eq!(min_interval_samples(0.5), 4);
        assert_eq!(min_interval_samples(0.999), 2000);
    }

    /// A level is a percentage; a fraction is refused with the percentage it would be.
    #[test]
    fn levels_are_percentages() {
        assert_eq!(level(95.0), Ok(0.95));
        assert_eq!(level(99.5), Ok(0.995));
        assert_eq!(level(1.5), Ok(0.015));
        let e = level(0.995).unwrap_err();
        assert!(e.contains("did you mean 99.5?"), "{e}");
        for v in [1.0, 100.0, 0.0, -5.0, f64::NAN] {
            let e = level(v).unwrap_err();
            assert!(!e.contains("did you mean"), "{v}: {e}");
        }
    }

    /// The library checks what the command line checks (Python's options are a
    /// `Common`): the level of a `Common` built in Rust is the fraction.
    #[test]
    fn validate_refuses_what_means_nothing() {
        let refused = |c: Common, needle: &str| {
            let e = c.validate().unwrap_err().to_string();
            assert!(e.contains(needle), "{e}");
        };
        let ci = Common {
            ci: Some(0.95),
            ..Common::default()
        };
        assert!(ci.validate().is_ok());
        refused(
            Common {
                ci: Some(95.0),
                ..Common::default()
            },
            "as a fraction",
        );
        refused(
            Common {
                ci_samples: 39,
                ..ci.clone()
            },
            "at least 40 samples",
        );
        refused(
            Common {
                ci_samples: 2_000_000,
                ..ci.clone()
            },
            "at most 1000000",
        );
        let ar = Common {
            test: vec![Test::Ar],
            samples: Some(19),
            ..Common::default()
        };
        refused(ar.clone(), "at least 20 samples");
        // a test's difference intervals are at 95 % with --ci-samples
        refused(
            Common {
                samples: Some(20),
                ci_samples: 10,
                ..ar.clone()
            },
            "at least 40",
        );
        assert!(Common {
            samples: Some(20),
            ..ar
        }
        .validate()
        .is_ok());
        // McNemar has no samples; no test or interval: --ci-samples is not read
        let mc = Common {
            test: vec![Test::Mcnemar],
            samples: Some(1),
            ..Common::default()
        };
        assert!(mc.validate().is_ok());
    }
}
