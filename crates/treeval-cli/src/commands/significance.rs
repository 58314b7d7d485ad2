//! What every command shares to run significance tests: the configuration from the
//! command line, a progress bar on stderr after one second, and the signature parts.

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
        // a length: the bar's template below (a count without one has its own)
        bar.set_length(0);
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

    /// Report `done` of `total` for the step named `label`; a `total` of 0 is a count
    /// without a known end (`reading (sentences): 640`), shown without a bar.
    pub fn update(&self, label: &str, done: u64, total: u64) {
        if self.bar.is_hidden() && !self.quiet && self.started.elapsed().as_secs_f64() > 1.0 {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        let counting = total == 0;
        if counting != self.bar.length().is_none() {
            let template = if counting {
                "{msg}"
            } else {
                "{msg:24} [{bar:40}] {pos}/{len} ({eta} left)"
            };
            if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
                self.bar.set_style(style.progress_chars("=> "));
            }
        }
        if counting {
            self.bar.unset_length();
            self.bar.set_message(format!("{label}: {done}"));
            return;
        }
        // the label first: a step that follows a count is not drawn with its message
        self.bar.set_message(label.to_string());
        self.bar.set_length(total);
        self.bar.set_position(done);
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

/// A report warning as printed on stderr: `warning: position: message`, a hint line, and
/// for a kind seen more than once its count and first positions.
pub fn warning_line(w: &treeval_report::model::Warning) -> String {
    format!("warning: {w}")
}

/// The one printer of warnings: a report's (or an evaluation's) warnings on stderr,
/// grouped as every format lists them ([`treeval_report::model::group_warnings`]: one
/// entry per kind and what it says, positions naming their files when an entry spans
/// several), unless `quiet`. Reader diagnostics go through it as
/// [`treeval_report::model::warnings_of`] or `ud::print_warnings` makes them.
pub fn print_warnings(warnings: &[treeval_report::model::Warning], quiet: bool) {
    if quiet {
        return;
    }
    for w in treeval_report::model::group_warnings(warnings.to_vec()) {
        eprintln!("{}", warning_line(&w));
    }
}
