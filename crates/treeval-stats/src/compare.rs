//! Comparing several systems on several metrics: every pair, every requested test,
//! Holm–Bonferroni within each (metric, test) family, and ranks.

use serde::Serialize;

use crate::{
    approximate_randomization, bootstrap_ci, difference_interval, exact_permutation, mcnemar,
    paired_deltas, ranks, Alternative, BootstrapResult, Resampling, Samples, Statistic, TestResult,
};

/// A test between two systems.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TestKind {
    /// McNemar's test on paired binary decisions.
    Mcnemar,
    /// Approximate randomization (stratified shuffling).
    Ar,
    /// Paired bootstrap resampling.
    Bootstrap,
}

impl TestKind {
    /// `mcnemar`, `ar` or `bootstrap`.
    pub fn name(self) -> &'static str {
        match self {
            TestKind::Mcnemar => "mcnemar",
            TestKind::Ar => "ar",
            TestKind::Bootstrap => "bootstrap",
        }
    }
}

/// A ratio metric: `sums[0] / sums[1]` (`None` when the denominator is 0).
pub fn ratio(sums: &[f64]) -> Option<f64> {
    (sums[1] > 0.0).then(|| sums[0] / sums[1])
}

/// One metric to compare: a per-sentence table per system, and (for McNemar) the paired
/// decision counts `(b, c)` of systems `a < b`.
pub struct MetricTables<'a> {
    /// Metric name.
    pub name: String,
    /// One table per system (same sentences, same columns).
    pub tables: Vec<Samples>,
    /// The statistic computed from column sums.
    pub statistic: &'a dyn Statistic,
    /// Paired binary decisions, when the metric has them.
    pub decisions: Option<&'a dyn Fn(usize, usize) -> (u64, u64)>,
    /// Whether a lower score is better (AER): ranks then count the significantly lower.
    pub lower_is_better: bool,
}

impl std::fmt::Debug for MetricTables<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MetricTables")
            .field("name", &self.name)
            .field("systems", &self.tables.len())
            .finish()
    }
}

/// Settings of a comparison.
#[derive(Debug, Clone)]
pub struct CompareConfig {
    /// Tests to run.
    pub tests: Vec<TestKind>,
    /// Shuffles of approximate randomization.
    pub ar_samples: usize,
    /// Samples of the paired bootstrap.
    pub bootstrap_samples: usize,
    /// Seed of both, and of the intervals of the differences.
    pub seed: u64,
    /// Significance level (after Holm–Bonferroni).
    pub alpha: f64,
    /// Two-sided, or Bikel's one-sided variant (A better than B).
    pub alternative: Alternative,
    /// Level of each comparison's interval of the difference B − A (`--ci`, else 0.95).
    pub ci_level: f64,
    /// Bootstrap samples of those intervals (`--ci-samples`).
    pub ci_samples: usize,
}

/// The result of one test between systems `a` and `b` on one metric.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// Index of the first system.
    pub a: usize,
    /// Index of the second system.
    pub b: usize,
    /// Metric name.
    pub metric: String,
    /// Test name.
    pub test: TestKind,
    /// The difference of the metric, B − A (the second system's score minus the first's),
    /// each score from its summed counts; `None` (JSON `null`) where either is undefined.
    pub difference: Option<f64>,
    /// The percentile interval of `difference` at `ci_level`, from a paired bootstrap of
    /// the units the tests resample (`None` where the difference is undefined).
    pub difference_ci: Option<[f64; 2]>,
    /// The level of `difference_ci`.
    pub ci_level: f64,
    /// The test statistic: the metric difference A − B for ar and bootstrap; for McNemar
    /// min(b, c) (exact) or the continuity-corrected χ².
    pub statistic: f64,
    /// The p-value.
    pub p_value: f64,
    /// Holm–Bonferroni adjusted p-value within the (metric, test) family.
    pub p_adjusted: f64,
    /// `p_adjusted < alpha`.
    pub significant: bool,
    /// Replicates drawn (0 for McNemar).
    pub samples: u64,
    /// Seed (0 for McNemar).
    pub seed: u64,
    /// McNemar: decisions right in A only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b_count: Option<u64>,
    /// McNemar: decisions right in B only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c_count: Option<u64>,
    /// McNemar: MaltEval's z.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z: Option<f64>,
    /// McNemar: whether the exact binomial test was used; ar: whether the p-value is the
    /// exact permutation p-value (at most [`EXACT_MAX`] differing sentences).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<bool>,
    /// Bootstrap: fraction of samples where A beats B.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a_wins: Option<f64>,
}

/// Up to this many differing sentences, `ar` enumerates all 2^m swap patterns (the exact
/// permutation test) instead of sampling them.
pub const EXACT_MAX: usize = 16;

fn exact_ok(a: &Samples, b: &Samples) -> bool {
    (0..a.len().min(b.len()))
        .filter(|&i| a.row(i) != b.row(i))
        .count()
        <= EXACT_MAX
}

/// Ranks of the systems on one metric under one test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ranking {
    /// Metric name.
    pub metric: String,
    /// Test name.
    pub test: TestKind,
    /// Per system: 1 + the number of systems significantly better; `None` for a system
    /// the tests left out (n-best's oracle picks best and worst), which has no rank (JSON
    /// `null`).
    pub ranks: Vec<Option<usize>>,
}

/// Run every test of `cfg` on every pair of systems for every metric. `progress(test,
/// done, total)` is called during long resampling runs.
pub fn compare(
    metrics: &[MetricTables<'_>],
    cfg: &CompareConfig,
    progress: &(dyn Fn(&str, u64, u64) + Sync),
) -> (Vec<Comparison>, Vec<Ranking>) {
    let prepared = prepare(metrics, cfg, progress);
    compare_prepared(metrics, cfg, &prepared, progress)
}

/// What the paired bootstrap gives every pair of systems on every metric before the
/// tests run: `x[m][k]` for metric `m` and the `k`-th pair of [`pairs`] (`None` where the
/// two tables differ in length).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prepared {
    /// The paired bootstrap test (empty unless `cfg.tests` has it).
    pub tests: Vec<Vec<Option<BootstrapResult>>>,
    /// The percentile interval of the difference B − A at `cfg.ci_level`.
    pub intervals: Vec<Vec<Option<[f64; 2]>>>,
}

/// The paired bootstrap's test (when asked) and the interval of every difference, from
/// one resampling run per number of units and setting: `ci_samples` replicates for the
/// intervals, `bootstrap_samples` for the test (one run when they are equal), each drawn
/// from its own replicate streams of the seed, so the intervals change no p-value.
pub fn prepare(
    metrics: &[MetricTables<'_>],
    cfg: &CompareConfig,
    progress: &(dyn Fn(&str, u64, u64) + Sync),
) -> Prepared {
    let for_ci = Resampling {
        samples: cfg.ci_samples,
        seed: cfg.seed,
    };
    let for_test = Resampling {
        samples: cfg.bootstrap_samples,
        seed: cfg.seed,
    };
    let ci_deltas = paired_runs(metrics, for_ci, "intervals", progress);
    let intervals = ci_deltas
        .iter()
        .map(|m| {
            m.iter()
                .map(|d| {
                    let (lo, hi) = difference_interval(d.as_deref()?, cfg.ci_level)?;
                    Some([lo, hi])
                })
                .collect()
        })
        .collect();
    if !cfg.tests.contains(&TestKind::Bootstrap) {
        return Prepared {
            tests: Vec::new(),
            intervals,
        };
    }
    let test_deltas = if for_test == for_ci {
        ci_deltas
    } else {
        paired_runs(metrics, for_test, "bootstrap", progress)
    };
    let tests = metrics
        .iter()
        .zip(&test_deltas)
        .map(|(m, deltas)| {
            let totals: Vec<Vec<f64>> = m.tables.iter().map(Samples::totals).collect();
            pairs(m.tables.len())
                .zip(deltas)
                .map(|((a, b), d)| {
                    let observed =
                        || Some(m.statistic.value(&totals[a])? - m.statistic.value(&totals[b])?);
                    Some(BootstrapResult::of_observed(
                        observed(),
                        d.as_deref()?,
                        for_test,
                    ))
                })
                .collect()
        })
        .collect();
    Prepared { tests, intervals }
}

/// [`compare`] with the paired bootstrap's results given ([`prepare`]), computed elsewhere
/// from the same replicates (say, with the intervals' resampling run).
pub fn compare_prepared(
    metrics: &[MetricTables<'_>],
    cfg: &CompareConfig,
    prepared: &Prepared,
    progress: &(dyn Fn(&str, u64, u64) + Sync),
) -> (Vec<Comparison>, Vec<Ranking>) {
    let mut out = Vec::new();
    let mut rankings = Vec::new();
    for (i, m) in metrics.iter().enumerate() {
        let scores: Vec<Option<f64>> = m
            .tables
            .iter()
            .map(|t| m.statistic.value(&t.totals()))
            .collect();
        for &test in &cfg.tests {
            if test == TestKind::Mcnemar && m.decisions.is_none() {
                continue;
            }
            let boot = prepared.tests.get(i).map_or(&[][..], Vec::as_slice);
            let intervals = prepared.intervals.get(i).map_or(&[][..], Vec::as_slice);
            let mut family = test_family(m, test, cfg, (boot, intervals, &scores), progress);
            adjust(&mut family, cfg.alpha);
            rankings.push(Ranking {
                metric: m.name.clone(),
                test,
                ranks: family_ranks(m, &scores, &family),
            });
            out.extend(family);
        }
    }
    (out, rankings)
}

/// The pairs `a < b` of `n` systems, in the order of the test families (and of
/// [`compare_prepared`]'s bootstrap results).
pub fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |a| (a + 1..n).map(move |b| (a, b)))
}

/// Replicates of the paired bootstrap per metric and pair (see [`paired_runs`]).
type Deltas = Vec<Vec<Option<Vec<Option<f64>>>>>;

/// The paired bootstrap's replicates δ* = A* − B* of every pair of systems on every
/// metric (per metric, per pair in [`pairs`] order; `None` where the two tables differ in
/// length), from one resampling run per number of units: metrics and systems over the
/// same units share the replicates' draws, so each equals what [`paired_deltas`] gives
/// for that metric and pair alone. `label` names the run in `progress`.
fn paired_runs(
    metrics: &[MetricTables<'_>],
    resampling: Resampling,
    label: &str,
    progress: &(dyn Fn(&str, u64, u64) + Sync),
) -> Deltas {
    let mut out: Deltas = metrics
        .iter()
        .map(|m| vec![None; pairs(m.tables.len()).count()])
        .collect();
    let mut lengths: Vec<usize> = metrics
        .iter()
        .flat_map(|m| m.tables.iter().map(Samples::len))
        .collect();
    lengths.sort_unstable();
    lengths.dedup();
    let total = resampling.samples as u64;
    let cb = |k: u64| progress(label, k, total);
    for n in lengths {
        // the tables of this length, and every comparison between two of them
        let mut tables: Vec<&Samples> = Vec::new();
        let mut asked: Vec<(usize, usize, &dyn Statistic)> = Vec::new();
        let mut places = Vec::new();
        for (i, m) in metrics.iter().enumerate() {
            // where system s's table of this metric sits in the run
            let at: Vec<Option<usize>> = m
                .tables
                .iter()
                .map(|t| {
                    (t.len() == n).then(|| {
                        tables.push(t);
                        tables.len() - 1
                    })
                })
                .collect();
            for (k, (a, b)) in pairs(m.tables.len()).enumerate() {
                if let (Some(x), Some(y)) = (at[a], at[b]) {
                    asked.push((x, y, m.statistic));
                    places.push((i, k));
                }
            }
        }
        let found = paired_deltas(&tables, &asked, resampling, Some(&cb));
        for ((i, k), r) in places.into_iter().zip(found) {
            out[i][k] = Some(r);
        }
    }
    out
}

/// What was computed of one metric before its tests: its bootstrap results, the
/// intervals of its differences (both per pair) and each system's score.
type Before<'a> = (
    &'a [Option<BootstrapResult>],
    &'a [Option<[f64; 2]>],
    &'a [Option<f64>],
);

/// One test between every pair of systems `a < b` on one metric (p-values not yet
/// adjusted), with each pair's difference and its interval.
fn test_family(
    m: &MetricTables<'_>,
    test: TestKind,
    cfg: &CompareConfig,
    (boot, intervals, scores): Before<'_>,
    progress: &(dyn Fn(&str, u64, u64) + Sync),
) -> Vec<Comparison> {
    pairs(m.tables.len())
        .enumerate()
        .map(|(k, (a, b))| {
            let difference = scores[b].zip(scores[a]).map(|(sb, sa)| sb - sa);
            let pair = Pair {
                m,
                test,
                a,
                b,
                cfg,
                boot: boot.get(k).and_then(Option::as_ref),
                difference: (
                    difference,
                    difference.and(intervals.get(k).copied().flatten()),
                ),
                progress,
            };
            pair.run()
        })
        .collect()
}

/// Holm–Bonferroni within one (metric, test) family, and significance at `alpha`.
fn adjust(family: &mut [Comparison], alpha: f64) {
    let adjusted = crate::holm(&family.iter().map(|c| c.p_value).collect::<Vec<_>>());
    for (c, p) in family.iter_mut().zip(adjusted) {
        c.p_adjusted = p;
        c.significant = p < alpha;
    }
}

/// Ranks from one adjusted family: `i` beats `j` when their test is significant and `i`
/// scores higher (lower when lower is better).
fn family_ranks(
    m: &MetricTables<'_>,
    scores: &[Option<f64>],
    family: &[Comparison],
) -> Vec<Option<usize>> {
    let better = |i: usize, j: usize| {
        let (x, y) = (i.min(j), i.max(j));
        let sig = family.iter().any(|c| c.a == x && c.b == y && c.significant);
        let (sj, si) = if m.lower_is_better {
            (
                -scores[j].unwrap_or(f64::INFINITY),
                -scores[i].unwrap_or(f64::INFINITY),
            )
        } else {
            (
                scores[j].unwrap_or(f64::NEG_INFINITY),
                scores[i].unwrap_or(f64::NEG_INFINITY),
            )
        };
        sig && sj > si
    };
    ranks(m.tables.len(), better)
        .into_iter()
        .map(Some)
        .collect()
}

/// One test between systems `a` and `b` on one metric.
struct Pair<'p, 'm> {
    m: &'p MetricTables<'m>,
    test: TestKind,
    a: usize,
    b: usize,
    cfg: &'p CompareConfig,
    /// The paired bootstrap's result for this pair (run for all pairs at once).
    boot: Option<&'p BootstrapResult>,
    /// The difference B − A and its interval.
    difference: (Option<f64>, Option<[f64; 2]>),
    progress: &'p (dyn Fn(&str, u64, u64) + Sync),
}

impl Pair<'_, '_> {
    /// Run the test.
    fn run(&self) -> Comparison {
        let mut c = self.untested();
        match self.test {
            TestKind::Mcnemar => self.mcnemar(&mut c),
            TestKind::Ar if exact_ok(self.ta(), self.tb()) => self.exact_ar(&mut c),
            TestKind::Ar => self.ar(&mut c),
            TestKind::Bootstrap => self.bootstrap(&mut c),
        }
        c
    }

    /// The first system's table.
    fn ta(&self) -> &Samples {
        &self.m.tables[self.a]
    }

    /// The second system's table.
    fn tb(&self) -> &Samples {
        &self.m.tables[self.b]
    }

    /// The comparison before the test fills it in (p = 1, nothing significant).
    fn untested(&self) -> Comparison {
        Comparison {
            a: self.a,
            b: self.b,
            metric: self.m.name.clone(),
            test: self.test,
            difference: self.difference.0,
            difference_ci: self.difference.1,
            ci_level: self.cfg.ci_level,
            statistic: 0.0,
            p_value: 1.0,
            p_adjusted: 1.0,
            significant: false,
            samples: 0,
            seed: 0,
            b_count: None,
            c_count: None,
            z: None,
            exact: None,
            a_wins: None,
        }
    }

    /// McNemar's test on the paired decisions.
    fn mcnemar(&self, c: &mut Comparison) {
        let (bb, cc) = self.m.decisions.map_or((0, 0), |f| f(self.a, self.b));
        let r = mcnemar(bb, cc);
        c.statistic = r.statistic;
        c.p_value = r.p_value;
        c.b_count = Some(bb);
        c.c_count = Some(cc);
        c.z = Some(r.z);
        c.exact = Some(r.exact);
    }

    /// Few differing sentences: enumerate every swap pattern.
    fn exact_ar(&self, c: &mut Comparison) {
        let alt = self.cfg.alternative;
        if let Some(r) = exact_permutation(self.ta(), self.tb(), self.m.statistic, alt, EXACT_MAX) {
            c.statistic = r.statistic;
            c.p_value = r.p_value;
            c.samples = r.samples;
            c.exact = Some(true);
        }
    }

    /// Approximate randomization with `ar_samples` shuffles.
    fn ar(&self, c: &mut Comparison) {
        let (alt, cfg) = (self.cfg.alternative, self.resampling(self.cfg.ar_samples));
        let r = self.with_progress(cfg.samples, |cb| {
            approximate_randomization(self.ta(), self.tb(), self.m.statistic, alt, cfg, Some(cb))
        });
        set_resampled(c, r);
    }

    /// The paired bootstrap's result (computed for every pair at once).
    fn bootstrap(&self, c: &mut Comparison) {
        if let Some(r) = self.boot {
            set_resampled(c, r.test);
            c.a_wins = Some(r.a_wins);
        }
    }

    /// `samples` replicates with the configured seed.
    fn resampling(&self, samples: usize) -> Resampling {
        Resampling {
            samples,
            seed: self.cfg.seed,
        }
    }

    /// Call `f` with a progress callback labelled `metric test a-b`, out of `samples`.
    fn with_progress<T>(&self, samples: usize, f: impl FnOnce(&(dyn Fn(u64) + Sync)) -> T) -> T {
        let total = samples as u64;
        let label = format!("{} {} {}-{}", self.m.name, self.test.name(), self.a, self.b);
        let progress = self.progress;
        let cb = |k: u64| progress(&label, k, total);
        f(&cb)
    }
}

/// Copy a resampling test's outcome into `c`.
fn set_resampled(c: &mut Comparison, r: TestResult) {
    c.statistic = r.statistic;
    c.p_value = r.p_value;
    c.samples = r.samples;
    c.seed = r.seed;
}

/// Percentile bootstrap intervals of each table's statistic.
pub fn intervals(
    tables: &[Samples],
    statistic: &dyn Statistic,
    level: f64,
    cfg: Resampling,
) -> Vec<Option<(f64, f64)>> {
    tables
        .iter()
        .map(|t| bootstrap_ci(t, statistic, level, cfg, None))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three sentences, (correct, words) per system: A (1, 2), (3, 4), (0, 3) = 4/9; B
    /// (2, 2), (3, 4), (2, 3) = 7/9. Of the 27 equally likely resamples, B − A is 0 in one
    /// (the second sentence thrice), 0.1 in 3, 0.18 in 3, 0.25 in 3, 1/3 in 6, 0.4 in 3,
    /// 0.5 in 1, 0.57 in 3, 0.625 in 3 and 2/3 in 1 (the third thrice), found by
    /// enumerating them in Python (`itertools.product(range(3), repeat=3)`, each
    /// resample's summed counts). The exact distribution's 2.5% and 97.5% quantiles are 0
    /// and 2/3 (the two extreme atoms hold 3.7% each), its 10% and 90% quantiles 0.1
    /// (cumulative 3.7%..14.8%) and 0.625 (85.2%..96.3%); 10,000 resamples land on the
    /// same atoms (each bound is tens of standard errors inside its atom).
    #[test]
    fn the_difference_and_its_interval_by_hand() {
        let table = |rows: [[f64; 2]; 3]| {
            let mut t = Samples::new(2);
            for r in rows {
                t.push(&r);
            }
            t
        };
        let a = table([[1.0, 2.0], [3.0, 4.0], [0.0, 3.0]]);
        let b = table([[2.0, 2.0], [3.0, 4.0], [2.0, 3.0]]);
        let run = |level: f64, tests: Vec<TestKind>| {
            let m = MetricTables {
                name: "LAS".into(),
                tables: vec![a.clone(), b.clone()],
                statistic: &ratio,
                decisions: None,
                lower_is_better: false,
            };
            let cfg = CompareConfig {
                tests,
                ar_samples: 100,
                bootstrap_samples: 10_000,
                seed: crate::DEFAULT_SEED,
                alpha: 0.05,
                alternative: Alternative::TwoSided,
                ci_level: level,
                ci_samples: 10_000,
            };
            compare(&[m], &cfg, &|_, _, _| {}).0
        };
        let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
        let c = &run(0.95, vec![TestKind::Ar])[0];
        assert_eq!(c.difference, Some(7.0 / 9.0 - 4.0 / 9.0));
        assert_eq!(c.ci_level, 0.95);
        let [lo, hi] = c.difference_ci.unwrap();
        assert!(close(lo, 0.0) && close(hi, 2.0 / 3.0), "[{lo}, {hi}]");
        let [lo, hi] = run(0.8, vec![TestKind::Ar])[0].difference_ci.unwrap();
        assert!(close(lo, 0.1) && close(hi, 0.625), "[{lo}, {hi}]");
        // with the paired bootstrap test of the same samples: one run, the same interval
        // and the test's own result (its replicates are the interval's, A − B)
        let both = run(0.8, vec![TestKind::Bootstrap]);
        assert_eq!(
            both[0].difference_ci,
            run(0.8, vec![TestKind::Ar])[0].difference_ci
        );
        let alone = crate::paired_bootstrap(
            &a,
            &b,
            &ratio,
            Resampling {
                samples: 10_000,
                seed: crate::DEFAULT_SEED,
            },
            None,
        );
        assert_eq!(both[0].p_value, alone.test.p_value);
        assert_eq!(both[0].statistic, -both[0].difference.unwrap());
    }

    /// Intervals come from replicate streams of their own: asking for them (at any
    /// number of samples) changes no p-value of the tests.
    #[test]
    fn intervals_change_no_p_value() {
        let mk = |k: u64| {
            let mut t = Samples::new(2);
            for i in 0..40u64 {
                t.push(&[((i * k) % 5) as f64, 5.0]);
            }
            t
        };
        let cfg = |ci_samples: usize| CompareConfig {
            tests: vec![TestKind::Ar, TestKind::Bootstrap],
            ar_samples: 300,
            bootstrap_samples: 300,
            seed: 3,
            alpha: 0.05,
            alternative: Alternative::TwoSided,
            ci_level: 0.95,
            ci_samples,
        };
        let p = |ci_samples: usize| -> Vec<f64> {
            let m = MetricTables {
                name: "LAS".into(),
                tables: vec![mk(2), mk(3), mk(4)],
                statistic: &ratio,
                decisions: None,
                lower_is_better: false,
            };
            let (cmp, _) = compare(&[m], &cfg(ci_samples), &|_, _, _| {});
            cmp.iter().map(|c| c.p_value).collect()
        };
        assert_eq!(p(300), p(57));
        assert_eq!(p(300), p(2000));
    }

    #[test]
    fn all_pairs_holm_and_ranks() {
        // three systems: 0 clearly best, 1 and 2 equal
        let mk = |c: f64| {
            let mut t = Samples::new(2);
            for _ in 0..50 {
                t.push(&[c, 10.0]);
            }
            t
        };
        let decisions = |a: usize, _b: usize| if a == 0 { (40, 0) } else { (0, 0) };
        let m = MetricTables {
            name: "LAS".into(),
            tables: vec![mk(9.0), mk(5.0), mk(5.0)],
            statistic: &ratio,
            decisions: Some(&decisions),
            lower_is_better: false,
        };
        let cfg = CompareConfig {
            tests: vec![TestKind::Mcnemar, TestKind::Ar],
            ar_samples: 500,
            bootstrap_samples: 100,
            seed: 1,
            alpha: 0.05,
            alternative: Alternative::TwoSided,
            ci_level: 0.95,
            ci_samples: 100,
        };
        let (cmp, ranks) = compare(&[m], &cfg, &|_, _, _| {});
        assert_eq!(cmp.len(), 6);
        let ar01 = cmp
            .iter()
            .find(|c| c.test == TestKind::Ar && c.a == 0 && c.b == 1)
            .unwrap();
        assert!(ar01.significant && (ar01.statistic - 0.4).abs() < 1e-12);
        let ar12 = cmp
            .iter()
            .find(|c| c.test == TestKind::Ar && c.a == 1 && c.b == 2)
            .unwrap();
        assert_eq!(ar12.p_value, 1.0);
        assert!(!ar12.significant);
        for r in &ranks {
            assert_eq!(r.ranks, vec![Some(1), Some(2), Some(2)], "{:?}", r.test);
        }
    }
}
