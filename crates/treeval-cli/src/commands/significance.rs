//! What every command shares to run significance tests: the configuration from the
//! command line, a progress bar on stderr after one second, and the signature parts.

use treeval_stats::compare::CompareConfig;

use crate::args::SignificanceArgs;

/// The comparison settings.
pub fn config(sig: &SignificanceArgs) -> CompareConfig {
    sig.common().compare_config()
}

/// See [`treeval::significance::resampling_config`].
pub(crate) fn resampling_config(
    sig: &SignificanceArgs,
    systems: usize,
    what: &str,
    no_mcnemar: &str,
) -> Result<(CompareConfig, bool), crate::Failure> {
    Ok(treeval::significance::resampling_config(
        &sig.common(),
        systems,
        what,
        no_mcnemar,
    )?)
}

/// A progress bar that stays hidden for the first second (and always with `quiet`).
#[derive(Debug, Clone)]
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

    /// The library's progress callback, drawing this bar.
    pub fn callback(&self) -> treeval::Progress {
        let bar = self.clone();
        treeval::Progress(std::sync::Arc::new(move |l: &str, d, t| {
            bar.update(l, d, t)
        }))
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
    treeval::significance::sign(&sig.common(), cfg, signature);
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
    treeval::significance::intervals(&sig.common())
}

/// How tests and intervals run, as the report records it (`None` when neither was asked).
pub fn settings(
    sig: &SignificanceArgs,
    cfg: &CompareConfig,
    metrics: &[String],
) -> Option<treeval_report::model::SignificanceSettings> {
    treeval::significance::settings(&sig.common(), cfg, metrics)
}
