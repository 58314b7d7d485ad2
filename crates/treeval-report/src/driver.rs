//! From per-unit sufficient statistics to report sections, intervals and tests, the same
//! way for every family: a measure's score is computed from summed columns; its interval
//! and its tests resample the units' rows of the columns it reads.

use treeval_metrics::measure::{Better, Measure, Statistics};
use treeval_stats::compare::{
    compare, compare_prepared, pairs, CompareConfig, Comparison, MetricTables, Prepared, Ranking,
    TestKind,
};
use treeval_stats::{BootstrapResult, Resampling, Samples};

use crate::value::{Cell, Row, Section};

/// Confidence intervals to add (`--ci LEVEL`, `--ci-samples N`, `--seed S`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Intervals {
    /// The level (0.95).
    pub level: f64,
    /// Bootstrap samples.
    pub samples: usize,
    /// The seed.
    pub seed: u64,
}

/// Progress callback of long resampling runs: (step, done, total).
pub type Progress<'a> = &'a (dyn Fn(&str, u64, u64) + Sync);

/// The units' rows of the columns `m` reads.
pub fn table<S: Statistics>(m: &Measure, units: &[S]) -> Samples {
    let mut t = Samples::new(m.reads.len());
    let (mut row, mut picked) = (Vec::new(), Vec::new());
    for u in units {
        u.row(&mut row);
        m.pick(&row, &mut picked);
        t.push(&picked);
    }
    t
}

/// The sum of each column over the units.
pub fn sums<S: Statistics>(units: &[S]) -> Vec<f64> {
    treeval_metrics::measure::totals(units)
}

/// One cell: the measure of the summed units, the columns it read, and its interval.
pub fn cell<S: Statistics>(m: &Measure, units: &[S], ci: Option<Intervals>) -> Cell {
    cells(std::slice::from_ref(m), units, ci)
        .pop()
        .unwrap_or_else(|| Cell {
            measure: m.name.into(),
            value: None,
            counts: Vec::new(),
            ci: None,
            mark: None,
        })
}

/// The cells of several measures over the same units; their intervals come from one
/// bootstrap of the units' full rows (each the interval [`cell`] gives alone).
pub fn cells<S: Statistics>(measures: &[Measure], units: &[S], ci: Option<Intervals>) -> Vec<Cell> {
    let mut out = point_cells(measures, units);
    if let Some(c) = ci {
        let wanted = wanted(measures, &out);
        let asked: Vec<(usize, &Measure)> = wanted.iter().map(|&k| (0, &measures[k])).collect();
        for (&k, ci) in wanted.iter().zip(intervals(&[units], &asked, c)) {
            out[k].ci = ci;
        }
    }
    out
}

/// [`cells`] of several groups of units (say one per system and metric), with every
/// interval from one resampling run per number of units (each as [`cells`] alone gives).
pub fn cells_of_groups<S: Statistics>(
    measures: &[Measure],
    groups: &[&[S]],
    ci: Option<Intervals>,
) -> Vec<Vec<Cell>> {
    let mut out: Vec<Vec<Cell>> = groups.iter().map(|g| point_cells(measures, g)).collect();
    let Some(c) = ci else { return out };
    let mut places = Vec::new();
    let mut asked = Vec::new();
    for (g, cells) in out.iter().enumerate() {
        for k in wanted(measures, cells) {
            places.push((g, k));
            asked.push((g, &measures[k]));
        }
    }
    for ((g, k), ci) in places.into_iter().zip(intervals(groups, &asked, c)) {
        out[g][k].ci = ci;
    }
    out
}

/// The cells of `measures` over the summed units, without intervals.
fn point_cells<S: Statistics>(measures: &[Measure], units: &[S]) -> Vec<Cell> {
    let totals = sums(units);
    measures
        .iter()
        .map(|m| {
            let mut counts = Vec::new();
            m.pick(&totals, &mut counts);
            Cell {
                measure: m.name.into(),
                value: m.of(&totals),
                counts,
                ci: None,
                mark: None,
            }
        })
        .collect()
}

/// The measures (indices) of `cells` that get an interval: scores that are defined (a
/// count is not resampled).
fn wanted(measures: &[Measure], cells: &[Cell]) -> Vec<usize> {
    (0..measures.len())
        .filter(|&k| !measures[k].is_count() && cells[k].value.is_some())
        .collect()
}

/// Percentile intervals of measure `m` over system `s`'s units for each `(s, m)` of
/// `asked`, from one resampling run per number of units: systems over the same units
/// share their draws, so each interval equals the one of that system and measure alone.
fn intervals<S: Statistics>(
    systems: &[&[S]],
    asked: &[(usize, &Measure)],
    c: Intervals,
) -> Vec<Option<[f64; 2]>> {
    let cfg = Resampling {
        samples: c.samples,
        seed: c.seed,
    };
    let mut out = vec![None; asked.len()];
    let mut lengths: Vec<usize> = asked.iter().map(|&(s, _)| systems[s].len()).collect();
    lengths.sort_unstable();
    lengths.dedup();
    for n in lengths {
        let group: Vec<usize> = (0..systems.len())
            .filter(|&s| systems[s].len() == n)
            .collect();
        let units: Vec<&[S]> = group.iter().map(|&s| systems[s]).collect();
        // the group's systems have n units each: the run exists
        let Some(reps) = Replicates::new(&units, cfg) else {
            continue;
        };
        for (i, &(s, m)) in asked.iter().enumerate() {
            if let Some(t) = group.iter().position(|&g| g == s) {
                out[i] = reps.interval(t, m, c.level);
            }
        }
    }
    out
}

/// Every system's full-row sums in each bootstrap replicate of one resampling run over
/// the same units, so that the intervals and the paired bootstrap test share the run: an
/// interval or a test read from it equals the one of its own run (replicate `r` draws the
/// same units whatever reads them, and the sums are the same).
#[derive(Debug)]
pub struct Replicates {
    cfg: Resampling,
    units: usize,
    /// `sums[r][s]`: replicate `r`'s sums of system `s`'s columns.
    sums: Vec<Vec<Vec<f64>>>,
}

impl Replicates {
    /// One run over `systems` (`None` unless they have the same number of units).
    pub fn new<S: Statistics, U: AsRef<[S]>>(systems: &[U], cfg: Resampling) -> Option<Self> {
        let units = systems.first()?.as_ref().len();
        if systems.iter().any(|s| s.as_ref().len() != units) {
            return None;
        }
        let tables: Vec<Samples> = systems.iter().map(|u| full_table(u.as_ref())).collect();
        let refs: Vec<&Samples> = tables.iter().collect();
        let sums = treeval_stats::bootstrap_replicates(&refs, cfg, None, |s| s.to_vec());
        Some(Replicates { cfg, units, sums })
    }

    /// Whether the run is the one `cfg` asks for over these systems' units.
    fn serves(&self, units: &[usize], cfg: Resampling) -> bool {
        let systems = self.sums.first().map_or(0, Vec::len);
        self.cfg == cfg && systems == units.len() && units.iter().all(|&n| n == self.units)
    }

    /// Measure `m`'s percentile interval for system `s`.
    fn interval(&self, s: usize, m: &Measure, level: f64) -> Option<[f64; 2]> {
        let values = self.sums.iter().filter_map(|r| m.of(&r[s])).collect();
        treeval_stats::percentile_interval(values, level).map(|(lo, hi)| [lo, hi])
    }

    /// The paired bootstrap's replicates of `m` between systems `a` and `b`: A* − B*.
    fn deltas(&self, m: &Measure, a: usize, b: usize) -> Vec<Option<f64>> {
        let diff = |x: &[f64], y: &[f64]| Some(m.of(x)? - m.of(y)?);
        self.sums.iter().map(|r| diff(&r[a], &r[b])).collect()
    }

    /// The paired bootstrap of `m` between systems `a` and `b` (observed on `totals`).
    fn paired(&self, m: &Measure, a: usize, b: usize, totals: [&[f64]; 2]) -> BootstrapResult {
        let observed = m.of(totals[0]).zip(m.of(totals[1])).map(|(x, y)| x - y);
        BootstrapResult::of_observed(observed, &self.deltas(m, a, b), self.cfg)
    }

    /// The percentile interval at `level` of `m`'s difference B − A between systems `a`
    /// and `b`.
    fn difference(&self, m: &Measure, a: usize, b: usize, level: f64) -> Option<[f64; 2]> {
        let (lo, hi) = treeval_stats::difference_interval(&self.deltas(m, a, b), level)?;
        Some([lo, hi])
    }
}

/// The units' full rows.
fn full_table<S: Statistics>(units: &[S]) -> Samples {
    let mut full = Samples::new(S::columns().len());
    let mut row = Vec::new();
    for u in units {
        u.row(&mut row);
        full.push(&row);
    }
    full
}

/// A section with one row per system (its units in `systems`), one cell per measure.
pub fn section<S: Statistics, U: AsRef<[S]>>(
    id: &str,
    title: &str,
    measures: &[Measure],
    systems: &[U],
    ci: Option<Intervals>,
) -> Section {
    let empty = || Section {
        id: id.into(),
        title: title.into(),
        key: None,
        columns: Vec::new(),
        show_counts: false,
        compact: None,
        rows: Vec::new(),
    };
    let all = sections(&[(id, title, measures)], systems, ci, None);
    all.into_iter().next().unwrap_or_else(empty)
}

/// Sections over the same units, one per `(id, title, measures)`, each with one row per
/// system; all their intervals come from one resampling run (each as [`section`] alone
/// gives it).
///
/// With `reps` (a run of the same samples and seed over these systems' units), the
/// intervals are read from it instead of a run of their own.
pub fn sections<S: Statistics, U: AsRef<[S]>>(
    specs: &[(&str, &str, &[Measure])],
    systems: &[U],
    ci: Option<Intervals>,
    reps: Option<&Replicates>,
) -> Vec<Section> {
    let mut out: Vec<Section> = specs
        .iter()
        .map(|&(id, title, measures)| Section {
            id: id.into(),
            title: title.into(),
            key: None,
            columns: measures.iter().map(|m| m.name.to_string()).collect(),
            show_counts: false,
            compact: None,
            rows: systems
                .iter()
                .enumerate()
                .map(|(k, units)| Row {
                    system: k,
                    key: None,
                    cells: point_cells(measures, units.as_ref()),
                })
                .collect(),
        })
        .collect();
    let Some(c) = ci else { return out };
    // where each wanted interval goes: (section, system, measure)
    let mut places = Vec::new();
    let mut asked = Vec::new();
    for (i, &(_, _, measures)) in specs.iter().enumerate() {
        for (s, row) in out[i].rows.iter().enumerate() {
            for k in wanted(measures, &row.cells) {
                places.push((i, s, k));
                asked.push((s, &measures[k]));
            }
        }
    }
    let units: Vec<&[S]> = systems.iter().map(|u| u.as_ref()).collect();
    let lengths: Vec<usize> = units.iter().map(|u| u.len()).collect();
    let resampling = Resampling {
        samples: c.samples,
        seed: c.seed,
    };
    let found = match reps {
        Some(r) if r.serves(&lengths, resampling) => asked
            .iter()
            .map(|&(s, m)| r.interval(s, m, c.level))
            .collect(),
        _ => intervals(&units, &asked, c),
    };
    for ((i, s, k), ci) in places.into_iter().zip(found) {
        out[i].rows[s].cells[k].ci = ci;
    }
    out
}

/// Rows of a breakdown for one system: one per key, each cell the measure of that key's
/// summed statistics (no interval: the units behind a key are not kept).
pub fn keyed_rows<'a, S: Statistics + 'a>(
    measures: &[Measure],
    system: usize,
    items: impl IntoIterator<Item = (String, &'a S)>,
) -> Vec<Row> {
    items
        .into_iter()
        .map(|(key, s)| Row {
            system,
            key: Some(key),
            cells: measures
                .iter()
                .map(|m| cell(m, std::slice::from_ref(s), None))
                .collect(),
        })
        .collect()
}

/// Paired binary decisions of systems `a < b` on a measure (McNemar's `b` and `c`: right
/// in A only, right in B only).
pub type Decisions<'a> = &'a dyn Fn(usize, usize) -> (u64, u64);

/// A measure to test, with its paired decisions when it has them (McNemar needs them;
/// a measure without is tested by the resampling tests only).
pub type Tested<'a> = (&'a Measure, Option<Decisions<'a>>);

/// Every test of `cfg` between every pair of systems on each of `measures`, with
/// Holm–Bonferroni within each (measure, test) family, and the ranks.
pub fn tests<S: Statistics + Sync>(
    measures: &[Tested<'_>],
    systems: &[Vec<S>],
    cfg: &CompareConfig,
    progress: Progress<'_>,
) -> (Vec<Comparison>, Vec<Ranking>) {
    let scores: Vec<_> = measures
        .iter()
        .map(|(m, _)| move |s: &[f64]| (m.score)(s))
        .collect();
    let named = named_tables(measures, systems, &scores);
    compare(&named, cfg, progress)
}

/// Each tested measure's tables (the columns it reads, per system) with its score.
fn named_tables<'a, S: Statistics, F: Fn(&[f64]) -> Option<f64> + Sync>(
    measures: &'a [Tested<'a>],
    systems: &[Vec<S>],
    scores: &'a [F],
) -> Vec<MetricTables<'a>> {
    measures
        .iter()
        .zip(scores)
        .map(|((m, decisions), score)| MetricTables {
            name: m.name.into(),
            tables: systems.iter().map(|units| table(m, units)).collect(),
            statistic: score,
            decisions: *decisions,
            lower_is_better: m.better == Better::Lower,
        })
        .collect()
}

/// [`tests`], with the intervals of the differences and the paired bootstrap read from
/// `reps` when it is the run they ask for (their samples and seed, these systems' units):
/// the same p-values and intervals, one run fewer.
pub fn tests_sharing<S: Statistics + Sync>(
    measures: &[Tested<'_>],
    systems: &[Vec<S>],
    cfg: &CompareConfig,
    progress: Progress<'_>,
    reps: Option<&Replicates>,
) -> (Vec<Comparison>, Vec<Ranking>) {
    let lengths: Vec<usize> = systems.iter().map(Vec::len).collect();
    let serves = |samples: usize| {
        let resampling = Resampling {
            samples,
            seed: cfg.seed,
        };
        reps.is_some_and(|r| r.serves(&lengths, resampling))
    };
    let test = cfg.tests.contains(&TestKind::Bootstrap);
    let Some(r) =
        reps.filter(|_| serves(cfg.ci_samples) && (!test || serves(cfg.bootstrap_samples)))
    else {
        return tests(measures, systems, cfg, progress);
    };
    let totals: Vec<Vec<f64>> = systems.iter().map(|u| sums(u)).collect();
    let n = systems.len();
    let prepared = Prepared {
        tests: if test {
            per_pair(measures, n, |m, a, b| {
                Some(r.paired(m, a, b, [&totals[a], &totals[b]]))
            })
        } else {
            Vec::new()
        },
        intervals: per_pair(measures, n, |m, a, b| r.difference(m, a, b, cfg.ci_level)),
    };
    let scores: Vec<_> = measures
        .iter()
        .map(|(m, _)| move |s: &[f64]| (m.score)(s))
        .collect();
    let named = named_tables(measures, systems, &scores);
    compare_prepared(&named, cfg, &prepared, progress)
}

/// `f(measure, a, b)` for each tested measure and each pair `a < b` of `n` systems.
fn per_pair<T>(
    measures: &[Tested<'_>],
    n: usize,
    f: impl Fn(&Measure, usize, usize) -> T,
) -> Vec<Vec<T>> {
    measures
        .iter()
        .map(|(m, _)| pairs(n).map(|(a, b)| f(m, a, b)).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use treeval_stats::Alternative;

    #[derive(Default, Clone)]
    struct Err1 {
        wrong: u64,
        all: u64,
    }
    impl std::ops::AddAssign for Err1 {
        fn add_assign(&mut self, o: Self) {
            self.wrong += o.wrong;
            self.all += o.all;
        }
    }
    impl Statistics for Err1 {
        fn columns() -> &'static [&'static str] {
            &["wrong", "all"]
        }
        fn row(&self, out: &mut Vec<f64>) {
            out.clear();
            out.extend([self.wrong as f64, self.all as f64]);
        }
    }

    #[test]
    fn a_lower_error_rate_ranks_first() {
        let mut err = Measure::ratio("ERR", "error rate", "wrong / all", "", 0, 1);
        err.better = Better::Lower;
        let units = |w: u64| vec![Err1 { wrong: w, all: 10 }; 40];
        let systems = vec![units(1), units(9)];
        let cfg = CompareConfig {
            tests: vec![treeval_stats::compare::TestKind::Ar],
            ar_samples: 200,
            bootstrap_samples: 100,
            seed: 1,
            alpha: 0.05,
            alternative: Alternative::TwoSided,
            ci_level: 0.9,
            ci_samples: 120,
        };
        let (cmp, ranks) = tests(&[(&err, None)], &systems, &cfg, &|_, _, _| {});
        assert!(cmp[0].significant);
        assert_eq!(
            ranks[0].ranks,
            vec![Some(1), Some(2)],
            "the lower error rate is better"
        );
        let s = section(
            "scores",
            "",
            &[err],
            &systems,
            Some(Intervals {
                level: 0.95,
                samples: 50,
                seed: 1,
            }),
        );
        let c = &s.rows[0].cells[0];
        assert_eq!(c.value, Some(0.1));
        assert_eq!(c.counts, [40.0, 400.0]);
        // every unit is the same: the interval is the point
        assert_eq!(c.ci, Some([0.1, 0.1]));
    }

    #[test]
    fn a_shared_run_gives_the_same_intervals_and_tests() {
        let err = Measure::ratio("ERR", "error rate", "wrong / all", "", 0, 1);
        let all = Measure::count("all", "words", 1);
        let units = |k: u64| -> Vec<Err1> {
            (0..60)
                .map(|i| Err1 {
                    wrong: (i * k) % 7,
                    all: 5 + i % 4,
                })
                .collect()
        };
        let systems = vec![units(3), units(5), units(2)];
        let ci = Intervals {
            level: 0.9,
            samples: 120,
            seed: 9,
        };
        let cfg = CompareConfig {
            tests: vec![TestKind::Bootstrap, TestKind::Ar],
            ar_samples: 100,
            bootstrap_samples: 120,
            seed: 9,
            alpha: 0.05,
            alternative: Alternative::TwoSided,
            ci_level: 0.9,
            ci_samples: 120,
        };
        let reps = Replicates::new(
            &systems,
            Resampling {
                samples: 120,
                seed: 9,
            },
        );
        assert!(reps.is_some());
        let ms = [err.clone(), all];
        let spec = [("scores", "", &ms[..])];
        let own = sections(&spec, &systems, Some(ci), None);
        let shared = sections(&spec, &systems, Some(ci), reps.as_ref());
        assert_eq!(own, shared);
        assert!(own[0].rows[0].cells[0].ci.is_some());
        let tested = [(&err, None)];
        let quiet = |_: &str, _: u64, _: u64| {};
        let alone = tests(&tested, &systems, &cfg, &quiet);
        let sharing = tests_sharing(&tested, &systems, &cfg, &quiet, reps.as_ref());
        assert_eq!(alone, sharing);
        assert!(alone.0.iter().any(|c| c.a_wins.is_some()));
    }
}
