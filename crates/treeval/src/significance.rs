//! Tests and intervals as every family runs them: the settings from [`Common`], the
//! signature parts and the report's record of them.

use treeval_report::driver::Intervals;
use treeval_stats::compare::{CompareConfig, TestKind};

use crate::{Common, Error};

/// The intervals asked for (`ci`), for the report driver.
pub fn intervals(c: &Common) -> Option<Intervals> {
    c.ci.map(|level| Intervals {
        level,
        samples: c.ci_samples,
        seed: c.seed,
    })
}

/// The comparison settings of a family whose units cannot pair per-word decisions:
/// McNemar is refused with `no_mcnemar` as the reason, and a test needs two systems
/// (`what` names them). Also whether resampling is wanted (a test or `ci`).
pub fn resampling_config(
    c: &Common,
    systems: usize,
    what: &str,
    no_mcnemar: &str,
) -> Result<(CompareConfig, bool), Error> {
    let cfg = c.compare_config();
    if cfg.tests.contains(&TestKind::Mcnemar) {
        return Err(Error::Usage(format!("--test mcnemar {no_mcnemar}")));
    }
    if !cfg.tests.is_empty() && systems < 2 {
        return Err(Error::Usage(format!(
            "--test compares systems: give at least two {what}"
        )));
    }
    let resample = !cfg.tests.is_empty() || c.ci.is_some();
    Ok((cfg, resample))
}

/// Append the settings of the tests and intervals to a signature.
pub fn sign(c: &Common, cfg: &CompareConfig, signature: &mut treeval_report::Signature) {
    if !cfg.tests.is_empty() {
        let names: Vec<&str> = cfg.tests.iter().map(|t| t.name()).collect();
        signature.push("test", names.join("+"));
        if cfg.tests.contains(&TestKind::Ar) {
            signature.push("ar-samples", cfg.ar_samples.to_string());
        }
        if cfg.tests.contains(&TestKind::Bootstrap) {
            signature.push("bs-samples", cfg.bootstrap_samples.to_string());
        }
        if c.one_sided {
            signature.push("side", "one".into());
        }
    }
    // the intervals: of the scores (`--ci`), and of every tested difference
    if c.ci.is_some() || !cfg.tests.is_empty() {
        signature.push("ci", treeval_report::model::level_percent(cfg.ci_level));
        signature.push("ci-samples", c.ci_samples.to_string());
    }
    signature.push("seed", c.seed.to_string());
}

/// How tests and intervals run, as the report records it (`None` when neither was asked).
pub fn settings(
    c: &Common,
    cfg: &CompareConfig,
    metrics: &[String],
) -> Option<treeval_report::model::SignificanceSettings> {
    (!cfg.tests.is_empty() || c.ci.is_some()).then(|| treeval_report::model::SignificanceSettings {
        tests: cfg.tests.clone(),
        metrics: metrics.to_vec(),
        alternative: cfg.alternative,
        ar_samples: cfg.ar_samples,
        bootstrap_samples: cfg.bootstrap_samples,
        alpha: c.alpha,
        ci_level: c.ci,
        ci_samples: c.ci_samples,
        seed: c.seed,
    })
}
