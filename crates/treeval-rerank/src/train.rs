//! Training with hyperparameters chosen by cross-validation.
//!
//! The informative sentences of all training files are pooled in reading order;
//! sentence k goes to fold k mod F. Each configuration (target shape, β, σ²) is trained
//! F times on the other folds and judged by the micro score of its chosen candidates on
//! the held-out fold, summed over folds; the best configuration (ties → the earlier in
//! grid order) is then trained on everything.

use rayon::prelude::*;
use treeval_metrics::nbest::{sentence, CandidateScore, Metric, SentenceResult};

use crate::data::TrainingSet;
use crate::model::{CvFigure, FeatureSpec, Model, Training, SCHEMA};
use crate::objective::{fit, Target, MAX_ITERS, MEMORY, TOL_COST, TOL_GRAD};

/// β values tried for a sharp target (scores in percent).
pub const BETAS: [f64; 3] = [0.1, 0.3, 1.0];
/// σ² values tried.
pub const SIGMAS: [f64; 3] = [0.1, 1.0, 10.0];

/// Which target shape(s) to train with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TargetOption {
    /// Proportional.
    Proportional,
    /// Sharp with β given, or chosen among [`BETAS`].
    Sharp(Option<f64>),
    /// Best only.
    Best,
    /// Every shape, chosen by cross-validation.
    Cv,
}

impl TargetOption {
    /// The targets to try.
    pub fn grid(self) -> Vec<Target> {
        let sharp = |b: Option<f64>| match b {
            Some(b) => vec![Target::Sharp(b)],
            None => BETAS.iter().map(|&b| Target::Sharp(b)).collect(),
        };
        match self {
            TargetOption::Proportional => vec![Target::Proportional],
            TargetOption::Best => vec![Target::Best],
            TargetOption::Sharp(b) => sharp(b),
            TargetOption::Cv => {
                let mut v = vec![Target::Proportional, Target::Best];
                v.extend(sharp(None));
                v
            }
        }
    }

    /// As written on the command line.
    pub fn name(self) -> String {
        match self {
            TargetOption::Proportional => "proportional".into(),
            TargetOption::Best => "best".into(),
            TargetOption::Sharp(Some(b)) => format!("sharp (beta {b})"),
            TargetOption::Sharp(None) => "sharp (beta by cv)".into(),
            TargetOption::Cv => "cv".into(),
        }
    }
}

/// How to train.
#[derive(Debug, Clone)]
pub struct TrainOptions {
    /// The evaluation metric.
    pub metric: Metric,
    /// The target shape(s).
    pub target: TargetOption,
    /// σ², or `None` to choose among [`SIGMAS`].
    pub sigma2: Option<f64>,
    /// Cross-validation folds.
    pub folds: usize,
    /// The deps conventions' names (punctuation, labels), for the signature.
    pub conventions: (String, String),
}

/// One configuration's held-out results.
#[derive(Debug, Clone)]
pub struct CvRun {
    /// Its target.
    pub target: Target,
    /// Its σ².
    pub sigma2: f64,
    /// Per held-out sentence (in fold order), first/best/worst/chosen.
    pub results: Vec<SentenceResult>,
}

impl CvRun {
    /// The figures of the metric `m` (micro, percent).
    pub fn figure(&self, m: Metric) -> CvFigure {
        let k = m.index();
        let mut sums = [(0u64, 0u64); 3];
        for r in &self.results {
            for (slot, p) in sums.iter_mut().zip([0, 1, 3]) {
                let c = r.picks[p].metrics[k];
                slot.0 += c.overlap;
                slot.1 += c.n;
            }
        }
        let pct = |(o, n): (u64, u64)| {
            if n == 0 {
                0.0
            } else {
                100.0 * o as f64 / n as f64
            }
        };
        let (first, best, chosen) = (pct(sums[0]), pct(sums[1]), pct(sums[2]));
        CvFigure {
            target: self.target.name().into(),
            beta: self.target.beta(),
            sigma2: self.sigma2,
            chosen,
            first,
            best,
            phi: (best != first).then(|| 100.0 * (chosen - first) / (best - first)),
        }
    }
}

/// The held-out candidates of `test` scored with `w`, picked.
fn held_out(test: &TrainingSet, w: &[f64]) -> Vec<SentenceResult> {
    let mut z = Vec::new();
    (0..test.sentences())
        .map(|s| {
            let r = test.sentence(s);
            crate::objective::scores(test, w, r.clone(), &mut z);
            let cands: Vec<CandidateScore> = r
                .zip(&z)
                .map(|(c, &weight)| CandidateScore {
                    weight,
                    ..test.scores[c]
                })
                .collect();
            sentence(&cands)
        })
        .collect()
}

/// A progress listener: `(step, done, total)`, called from any thread.
pub type Progress<'a> = &'a (dyn Fn(&str, u64, u64) + Sync);

/// A weight this small against the largest one (in magnitude) is zero: what is left
/// of a feature whose value is the same on every candidate of every training sentence,
/// whose exact optimum is 0 (its gradient is w/σ² alone) and which the solver leaves
/// at round-off (about 10⁻¹⁷ where the largest weight is 10⁻²); such a weight cannot
/// change any choice. Far above round-off and far below any weight the solver's
/// tolerances determine ([`TOL_GRAD`]).
pub const ZERO_WEIGHT: f64 = 1e-10;

/// The weights of `hashed` (dense number → hashed index) that are not zero (see
/// [`ZERO_WEIGHT`]), by hashed index.
pub fn nonzero_weights(hashed: &[u32], weights: &[f64]) -> Vec<(u32, f64)> {
    let largest = weights.iter().fold(0.0f64, |m, w| m.max(w.abs()));
    let mut w: Vec<(u32, f64)> = hashed
        .iter()
        .zip(weights)
        .filter(|(_, &x)| x != 0.0 && x.abs() > ZERO_WEIGHT * largest)
        .map(|(&h, &x)| (h, x))
        .collect();
    w.sort_by_key(|p| p.0);
    w
}

/// Cross-validate every configuration of the grid.
pub fn cross_validate(
    data: &TrainingSet,
    targets: &[Target],
    sigmas: &[f64],
    folds: usize,
    progress: Progress<'_>,
) -> Result<Vec<CvRun>, String> {
    let splits: Vec<(TrainingSet, TrainingSet)> = (0..folds)
        .map(|f| {
            let (test, train): (Vec<usize>, Vec<usize>) =
                (0..data.sentences()).partition(|s| s % folds == f);
            (data.subset(&train), data.subset(&test))
        })
        .collect();
    let grid: Vec<(Target, f64)> = targets
        .iter()
        .flat_map(|&t| sigmas.iter().map(move |&s| (t, s)))
        .collect();
    let jobs: Vec<(usize, usize)> = (0..grid.len())
        .flat_map(|g| (0..folds).map(move |f| (g, f)))
        .collect();
    let finished = std::sync::atomic::AtomicU64::new(0);
    let total = jobs.len() as u64;
    progress("cross-validation", 0, total);
    let done: Vec<Result<Vec<SentenceResult>, String>> = jobs
        .par_iter()
        .map(|&(g, f)| {
            let (train, test) = &splits[f];
            let (t, s) = grid[g];
            let r = fit(train, t, s).map(|fit| held_out(test, &fit.weights));
            let n = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress("cross-validation", n, total);
            r
        })
        .collect();
    let mut runs: Vec<CvRun> = grid
        .iter()
        .map(|&(target, sigma2)| CvRun {
            target,
            sigma2,
            results: Vec::new(),
        })
        .collect();
    for (&(g, _), r) in jobs.iter().zip(done) {
        runs[g].results.extend(r?);
    }
    Ok(runs)
}

/// Train on `data` (already read) with `o`: cross-validate when more than one
/// configuration is asked for, then fit the chosen one on everything.
pub fn train(
    data: &TrainingSet,
    o: &TrainOptions,
    spec: FeatureSpec,
    progress: Progress<'_>,
) -> Result<(Model, Vec<CvRun>), String> {
    let targets = o.target.grid();
    let sigmas: Vec<f64> = o.sigma2.map_or_else(|| SIGMAS.to_vec(), |s| vec![s]);
    let mut runs = Vec::new();
    let (mut target, mut sigma2) = (targets[0], sigmas[0]);
    if targets.len() * sigmas.len() > 1 {
        if o.folds < 2 || data.sentences() < o.folds {
            return Err(format!(
                "cross-validation needs at least 2 folds and as many informative training sentences as folds, found {} folds and {} sentences",
                o.folds,
                data.sentences()
            ));
        }
        runs = cross_validate(data, &targets, &sigmas, o.folds, progress)?;
        let mut best: Option<(usize, f64)> = None;
        for (i, r) in runs.iter().enumerate() {
            let c = r.figure(o.metric).chosen;
            if best.map_or(true, |(_, b)| c > b) {
                best = Some((i, c));
            }
        }
        let i = best.map_or(0, |b| b.0);
        (target, sigma2) = (runs[i].target, runs[i].sigma2);
    }
    progress("training the model", 0, 1);
    let f = fit(data, target, sigma2)?;
    progress("training the model", 1, 1);
    let mut cv: Vec<CvFigure> = runs.iter().map(|r| r.figure(o.metric)).collect();
    cv.sort_by(|a, b| b.chosen.total_cmp(&a.chosen));
    let weights = nonzero_weights(&data.hashed, &f.weights);
    let training = Training {
        files: data.files.clone(),
        metric: o.metric.name().into(),
        punct: o.conventions.0.clone(),
        labels: o.conventions.1.clone(),
        objective: "cross-entropy against the target q over each sentence's candidates, \
                    p(t|s) ∝ exp(w·f(t)), Gaussian prior ‖w‖²/(2σ²)"
            .into(),
        target_option: o.target.name(),
        sigma2_option: o.sigma2.map_or_else(|| "cv".into(), |s| s.to_string()),
        target: target.name().into(),
        beta: target.beta(),
        sigma2,
        folds: if runs.is_empty() { 0 } else { o.folds },
        cv,
        optimizer: format!(
            "argmin L-BFGS (memory {MEMORY}, More-Thuente line search, at most {MAX_ITERS} iterations, gradient tolerance {TOL_GRAD}, cost-change tolerance {TOL_COST} per sentence), from w = 0"
        ),
        iterations: f.iterations,
        termination: f.termination,
        cost: f.cost,
        sentences: data.sentences() as u64,
        candidates: data.candidates() as u64,
        features_seen: data.dimension() as u64,
    };
    let model = Model {
        schema: SCHEMA.into(),
        treeval_version: env!("CARGO_PKG_VERSION").into(),
        features: spec,
        weights,
        training,
    };
    Ok((model, runs))
}
