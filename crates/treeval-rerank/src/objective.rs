//! The training objective and its minimisation.
//!
//! A conditional log-linear model over each sentence's candidates, p(t | s) = exp(w·f(t))
//! / Σ_t' exp(w·f(t')), fitted by minimising the cross-entropy against a target
//! distribution q over the candidates plus a Gaussian prior:
//!
//! L(w) = Σ_s Σ_t −q(t) log p(t | s) + ‖w‖² / (2σ²),
//! ∇L(w) = Σ_s Σ_t (p(t | s) − q(t)) f(t) + w / σ².
//!
//! With q ∝ the evaluation score this is van Noord et al. (2002)'s "stochastic training
//! set" (Osborne 2000's weighted maximum entropy). The minimiser is L-BFGS from the
//! `argmin` crate (More–Thuente line search), never a hand-written one.

use std::sync::Mutex;

use argmin::core::{CostFunction, Executor, Gradient, State};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;

use crate::data::TrainingSet;

/// The target distribution over a sentence's candidates, from their scores y (percent).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// q ∝ y (the paper's stochastic training set).
    Proportional,
    /// q ∝ exp(β·y).
    Sharp(f64),
    /// All mass on the best candidates (ties share it).
    Best,
}

impl Target {
    /// `proportional`, `sharp`, `best`.
    pub fn name(self) -> &'static str {
        match self {
            Target::Proportional => "proportional",
            Target::Sharp(_) => "sharp",
            Target::Best => "best",
        }
    }

    /// β of a sharp target.
    pub fn beta(self) -> Option<f64> {
        match self {
            Target::Sharp(b) => Some(b),
            _ => None,
        }
    }

    /// The distribution over scores `y` into `q` (a candidate without a score counts 0).
    pub fn distribution(self, y: &[f64], q: &mut Vec<f64>) {
        q.clear();
        let max = y.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        match self {
            Target::Proportional => q.extend(y.iter().map(|&v| v.max(0.0))),
            Target::Sharp(b) => q.extend(y.iter().map(|&v| (b * (v - max)).exp())),
            Target::Best => q.extend(y.iter().map(|&v| f64::from(u8::from(v == max)))),
        }
        let z: f64 = q.iter().sum();
        if z > 0.0 {
            q.iter_mut().for_each(|v| *v /= z);
        } else {
            let u = 1.0 / y.len() as f64;
            q.iter_mut().for_each(|v| *v = u);
        }
    }
}

/// The objective over a training set with fixed targets.
#[derive(Debug)]
pub struct Objective<'a> {
    data: &'a TrainingSet,
    /// Per candidate, its target probability.
    q: Vec<f64>,
    sigma2: f64,
    /// The last point evaluated, its cost and gradient (the line search asks for cost
    /// and gradient at the same point).
    cache: Mutex<Option<Evaluated>>,
}

/// A point, its cost and its gradient.
type Evaluated = (Vec<f64>, f64, Vec<f64>);

/// Scores w·f of the candidates `cands` of `data` into `z`.
pub fn scores(data: &TrainingSet, w: &[f64], cands: std::ops::Range<usize>, z: &mut Vec<f64>) {
    z.clear();
    for c in cands {
        let (idx, val) = data.features(c);
        z.push(
            idx.iter()
                .zip(val)
                .map(|(&i, &v)| w[i as usize] * f64::from(v))
                .sum(),
        );
    }
}

/// log Σ exp(z), and z turned into the softmax in place.
fn softmax(z: &mut [f64]) -> f64 {
    let m = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let s: f64 = z.iter().map(|&v| (v - m).exp()).sum();
    let lse = m + s.ln();
    z.iter_mut().for_each(|v| *v = (*v - lse).exp());
    lse
}

impl<'a> Objective<'a> {
    /// The objective of `data` with target `t` and prior variance `sigma2`.
    pub fn new(data: &'a TrainingSet, t: Target, sigma2: f64) -> Self {
        let mut q = Vec::with_capacity(data.candidates());
        let (mut y, mut qs) = (Vec::new(), Vec::new());
        for s in 0..data.sentences() {
            y.clear();
            y.extend(data.sentence(s).map(|c| data.score(c).unwrap_or(0.0)));
            t.distribution(&y, &mut qs);
            q.extend_from_slice(&qs);
        }
        Objective {
            data,
            q,
            sigma2,
            cache: Mutex::new(None),
        }
    }

    /// The cost and gradient at `w`.
    pub fn eval(&self, w: &[f64]) -> (f64, Vec<f64>) {
        if let Ok(c) = self.cache.lock() {
            if let Some((p, cost, g)) = c.as_ref() {
                if p.as_slice() == w {
                    return (*cost, g.clone());
                }
            }
        }
        let mut grad: Vec<f64> = w.iter().map(|&x| x / self.sigma2).collect();
        let mut cost: f64 = w.iter().map(|&x| x * x).sum::<f64>() / (2.0 * self.sigma2);
        let mut z = Vec::new();
        for s in 0..self.data.sentences() {
            let r = self.data.sentence(s);
            scores(self.data, w, r.clone(), &mut z);
            let q = &self.q[r.clone()];
            let qz: f64 = q.iter().zip(&z).map(|(a, b)| a * b).sum();
            cost += softmax(&mut z) - qz;
            for (k, c) in r.enumerate() {
                let d = z[k] - q[k];
                let (idx, val) = self.data.features(c);
                for (&i, &v) in idx.iter().zip(val) {
                    grad[i as usize] += d * f64::from(v);
                }
            }
        }
        if let Ok(mut c) = self.cache.lock() {
            *c = Some((w.to_vec(), cost, grad.clone()));
        }
        (cost, grad)
    }
}

impl CostFunction for Objective<'_> {
    type Param = Vec<f64>;
    type Output = f64;

    fn cost(&self, w: &Self::Param) -> Result<f64, argmin::core::Error> {
        Ok(self.eval(w).0)
    }
}

impl Gradient for Objective<'_> {
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;

    fn gradient(&self, w: &Self::Param) -> Result<Vec<f64>, argmin::core::Error> {
        Ok(self.eval(w).1)
    }
}

/// The result of a fit.
#[derive(Debug, Clone)]
pub struct Fit {
    /// The weights (dense numbering of the training set).
    pub weights: Vec<f64>,
    /// The final objective.
    pub cost: f64,
    /// L-BFGS iterations.
    pub iterations: u64,
    /// Why it stopped.
    pub termination: String,
}

/// L-BFGS settings.
pub const MAX_ITERS: u64 = 200;
/// History kept by L-BFGS.
pub const MEMORY: usize = 7;
/// Stop when the gradient's norm falls below this.
pub const TOL_GRAD: f64 = 1e-4;
/// Stop when the cost changes by less than this times the number of training sentences
/// between iterations (the cost is a sum over sentences).
pub const TOL_COST: f64 = 1e-6;

/// Minimise the objective of `data` with target `t` and prior `sigma2` from w = 0.
pub fn fit(data: &TrainingSet, t: Target, sigma2: f64) -> Result<Fit, String> {
    let obj = Objective::new(data, t, sigma2);
    let w0 = vec![0.0; data.dimension()];
    if w0.is_empty() {
        return Ok(Fit {
            weights: w0,
            cost: 0.0,
            iterations: 0,
            termination: "no features".into(),
        });
    }
    let err = |e: argmin::core::Error| format!("L-BFGS failed: {e}");
    let ls = MoreThuenteLineSearch::new();
    let solver = LBFGS::new(ls, MEMORY)
        .with_tolerance_grad(TOL_GRAD)
        .map_err(err)?
        .with_tolerance_cost(TOL_COST * data.sentences().max(1) as f64)
        .map_err(err)?;
    let res = Executor::new(obj, solver)
        .configure(|s| s.param(w0).max_iters(MAX_ITERS))
        .run()
        .map_err(err)?;
    let st = res.state();
    let weights = st
        .get_best_param()
        .cloned()
        .ok_or_else(|| "L-BFGS returned no parameters".to_string())?;
    Ok(Fit {
        cost: st.get_best_cost(),
        iterations: st.get_iter(),
        termination: st
            .get_termination_reason()
            .map_or_else(|| "unknown".into(), |r| r.to_string()),
        weights,
    })
}
