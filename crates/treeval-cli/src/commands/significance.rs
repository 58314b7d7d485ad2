//! What every command shares to run significance tests: the configuration from the
//! command line, a progress bar on stderr after one second, and the signature parts.

use treeval_stats::compare::{CompareConfig, TestKind};
use treeval_stats::Alternative;

use crate::args::{SignificanceArgs, TestArg};

/// The tests asked for.
pub fn tests(sig: &SignificanceArgs) -> Vec<TestKind> {
    sig.tests
        .iter()
        .map(|t| match t {
            TestArg::Mcnemar => TestKind::Mcnemar,
            TestArg::Ar => TestKind::Ar,
            TestArg::Bootstrap => TestKind::Bootstrap,
        })
        .collect()
}

/// The comparison settings.
pub fn config(sig: &SignificanceArgs) -> CompareConfig {
    CompareConfig {
        tests: tests(sig),
        ar_samples: sig.samples.unwrap_or(10_000),
        bootstrap_samples: sig.samples.unwrap_or(1_000),
        seed: sig.seed,
        alpha: sig.alpha,
        alternative: if sig.one_sided {
            Alternative::Greater
        } else {
            Alternative::TwoSided
        },
    }
}

/// The comparison settings of a command whose units cannot pair per-word decisions:
/// McNemar is refused with `no_mcnemar` as the reason, and a test needs two systems
/// (`what` names them). Also whether resampling is wanted (a test or `--ci`).
pub(crate) fn resampling_config(
    sig: &SignificanceArgs,
    systems: usize,
    what: &str,
    no_mcnemar: &str,
) -> Result<(CompareConfig, bool), crate::Failure> {
    let cfg = config(sig);
    if cfg.tests.contains(&TestKind::Mcnemar) {
        return Err(crate::Failure::Usage(format!(
            "--test mcnemar {no_mcnemar}"
        )));
    }
    if !cfg.tests.is_empty() && systems < 2 {
        return Err(crate::Failure::Usage(format!(
            "--test compares systems: give at least two {what}"
        )));
    }
    let resample = !cfg.tests.is_empty() || sig.ci.is_some();
    Ok((cfg, resample))
}

/// A progress bar that stays hidden for the first second (and always with `quiet`).
#[derive(Debug)]
pub struct Progress {
    bar: indicatif::ProgressBar,
    started: std::time::Instant,
    quiet: bool,
}

impl Progress {
    /// A hidden bar.
    pub fn new(quiet: bool) -> Self {
        let bar = indicatif::ProgressBar::hidden();
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{msg:24} [{bar:40}] {pos}/{len} ({eta} left)")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress {
            bar,
            started: std::time::Instant::now(),
            quiet,
        }
    }

    /// Report `done` of `total` for the step named `label`.
    pub fn update(&self, label: &str, done: u64, total: u64) {
        if self.bar.is_hidden() && !self.quiet && self.started.elapsed().as_secs_f64() > 1.0 {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        self.bar.set_length(total);
        self.bar.set_position(done);
        self.bar.set_message(label.to_string());
    }

    /// Remove the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Append the settings of the tests and intervals to a signature.
pub fn sign(
    sig: &SignificanceArgs,
    cfg: &CompareConfig,
    signature: &mut treeval_report::Signature,
) {
    if !cfg.tests.is_empty() {
        let names: Vec<&str> = cfg.tests.iter().map(|t| t.name()).collect();
        signature.push("test", names.join("+"));
        if cfg.tests.contains(&TestKind::Ar) {
            signature.push("ar-samples", cfg.ar_samples.to_string());
        }
        if cfg.tests.contains(&TestKind::Bootstrap) {
            signature.push("bs-samples", cfg.bootstrap_samples.to_string());
        }
        if sig.one_sided {
            signature.push("side", "one".into());
        }
    }
    if let Some(level) = sig.ci {
        signature.push("ci", format!("{}", level * 100.0));
        signature.push("ci-samples", sig.ci_samples.to_string());
    }
    signature.push("seed", sig.seed.to_string());
}

/// A report warning as printed on stderr: `warning: position: message`, a hint line, and
/// for a kind seen more than once its count and first positions.
pub fn warning_line(w: &treeval_report::model::Warning) -> String {
    format!("warning: {w}")
}

/// A report's warnings on stderr, one entry per kind (as every format lists them),
/// unless `quiet`.
pub fn print_warnings(warnings: &[treeval_report::model::Warning], quiet: bool) {
    if quiet {
        return;
    }
    for w in treeval_report::model::group_warnings(warnings.to_vec()) {
        eprintln!("{}", warning_line(&w));
    }
}

/// The intervals asked for (`--ci`), for the report driver.
pub fn intervals(sig: &SignificanceArgs) -> Option<treeval_report::driver::Intervals> {
    sig.ci.map(|level| treeval_report::driver::Intervals {
        level,
        samples: sig.ci_samples,
        seed: sig.seed,
    })
}

/// How tests and intervals run, as the report records it (`None` when neither was asked).
pub fn settings(
    sig: &SignificanceArgs,
    cfg: &CompareConfig,
    metrics: &[String],
) -> Option<treeval_report::model::SignificanceSettings> {
    (!cfg.tests.is_empty() || sig.ci.is_some()).then(|| {
        treeval_report::model::SignificanceSettings {
            tests: cfg.tests.clone(),
            metrics: metrics.to_vec(),
            alternative: cfg.alternative,
            ar_samples: cfg.ar_samples,
            bootstrap_samples: cfg.bootstrap_samples,
            alpha: sig.alpha,
            ci_level: sig.ci,
            ci_samples: sig.ci_samples,
            seed: sig.seed,
        }
    })
}
