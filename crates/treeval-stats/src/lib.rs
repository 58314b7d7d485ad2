//! Significance tests and confidence intervals for any metric that is a function of
//! summed per-sentence counts.
//!
//! A system's per-sentence counts are the rows of a [`Samples`] table; a metric is any
//! function from the column sums to a score ([`Statistic`]). So every test here works for
//! every metric of every command without metric-specific code:
//!
//! - [`approximate_randomization`]: the stratified shuffling test (Noreen 1989; Yeh 2000;
//!   Bikel's comparator; TedEval), and [`exact_permutation`] for small inputs;
//! - [`paired_bootstrap`] (Koehn 2004), with the shifted-null two-sided p-value;
//! - [`bootstrap_ci`]: percentile confidence intervals for one system's score, and
//!   [`difference_interval`] for the difference of two systems' scores;
//! - [`mcnemar`] for paired per-token decisions (exact binomial, χ² with continuity
//!   correction, and MaltEval's z);
//! - [`holm`] adjustment and [`ranks`] for many systems.
//!
//! Randomness: replicate `r` of a test draws from a ChaCha8 stream keyed by the seed with
//! stream number `r`, so results are identical whatever the number of threads.

#![warn(missing_docs)]

pub mod compare;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::Serialize;

/// The default seed (as sacrebleu's).
pub const DEFAULT_SEED: u64 = 12345;

/// Per-sentence counts of one system: `len()` rows of `dims()` numbers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Samples {
    dims: usize,
    data: Vec<f64>,
}

impl Samples {
    /// An empty table with `dims` columns.
    pub fn new(dims: usize) -> Self {
        Samples {
            dims,
            data: Vec::new(),
        }
    }

    /// Add a row (its length must be `dims`; extra values are ignored, missing ones are 0).
    pub fn push(&mut self, row: &[f64]) {
        for k in 0..self.dims {
            self.data.push(row.get(k).copied().unwrap_or(0.0));
        }
    }

    /// Number of rows (sentences).
    pub fn len(&self) -> usize {
        self.data.len().checked_div(self.dims).unwrap_or(0)
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of columns.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// Row `i`.
    pub fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.dims..(i + 1) * self.dims]
    }

    /// Column sums.
    pub fn totals(&self) -> Vec<f64> {
        let mut t = vec![0.0; self.dims];
        for row in self.data.chunks_exact(self.dims.max(1)) {
            for (s, v) in t.iter_mut().zip(row) {
                *s += v;
            }
        }
        t
    }
}

/// A metric: a score from column sums (`None` where undefined, e.g. a zero denominator).
pub trait Statistic: Sync {
    /// The score of `sums`.
    fn value(&self, sums: &[f64]) -> Option<f64>;
}

impl<F: Fn(&[f64]) -> Option<f64> + Sync> Statistic for F {
    fn value(&self, sums: &[f64]) -> Option<f64> {
        self(sums)
    }
}

/// Which differences count as at least as extreme as the observed one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Alternative {
    /// |shuffled difference| ≥ |observed difference| (the default).
    TwoSided,
    /// shuffled difference ≥ observed difference, with the sign of A − B (Bikel's
    /// one-sided variant: is A better than B?).
    Greater,
}

/// Settings shared by the resampling tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resampling {
    /// Number of shuffles or bootstrap samples.
    pub samples: usize,
    /// The seed.
    pub seed: u64,
}

/// The outcome of a two-system test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TestResult {
    /// The observed difference of the metric, A − B.
    pub statistic: f64,
    /// The p-value, in (0, 1].
    pub p_value: f64,
    /// Replicates drawn (shuffles or bootstrap samples; 2^n for an exact test).
    pub samples: u64,
    /// Replicates at least as extreme as the observed difference.
    pub extreme: u64,
    /// The seed (0 for an exact test).
    pub seed: u64,
}

impl TestResult {
    /// The test of a difference that is undefined (a system's metric has nothing to
    /// measure on the data: n/a): nothing can be shown, p = 1, every replicate counted
    /// as extreme. (Counting none made p as small as it gets: "significant".)
    pub fn undefined(samples: u64, seed: u64) -> Self {
        TestResult {
            statistic: 0.0,
            p_value: 1.0,
            samples,
            extreme: samples,
            seed,
        }
    }
}

/// A random stream for replicate `r`: the same numbers whatever thread draws them.
pub fn replicate_rng(seed: u64, r: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(r);
    rng
}

fn tolerance(x: f64) -> f64 {
    1e-12 * (1.0 + x.abs())
}

fn is_extreme(d: f64, observed: f64, alt: Alternative) -> bool {
    match alt {
        Alternative::TwoSided => d.abs() >= observed.abs() - tolerance(observed),
        Alternative::Greater => d >= observed - tolerance(observed),
    }
}

fn difference(stat: &dyn Statistic, a: &[f64], b: &[f64]) -> Option<f64> {
    Some(stat.value(a)? - stat.value(b)?)
}

/// The rows where the systems differ, as `A − B` (only those change under swapping).
fn differing_rows(a: &Samples, b: &Samples) -> (Vec<f64>, usize) {
    let dims = a.dims();
    let mut d = Vec::new();
    let mut n = 0;
    for i in 0..a.len().min(b.len()) {
        let (ra, rb) = (a.row(i), b.row(i));
        if ra != rb {
            d.extend(ra.iter().zip(rb).map(|(x, y)| x - y));
            n += 1;
        }
    }
    debug_assert_eq!(d.len(), n * dims);
    (d, n)
}

/// Approximate randomization (stratified shuffling): in each of `cfg.samples` replicates,
/// swap the two systems' counts of each sentence with probability ½, recompute the metric
/// difference from the sums, and count the replicates at least as extreme as the observed
/// difference; p = (r + 1)/(R + 1). Replicates whose metric is undefined count as not
/// extreme. `progress` is called with the number of replicates done so far (roughly every
/// 1% of the work).
///
/// Both tables must have the same shape (same sentences, same columns).
pub fn approximate_randomization(
    a: &Samples,
    b: &Samples,
    stat: &dyn Statistic,
    alt: Alternative,
    cfg: Resampling,
    progress: Option<&(dyn Fn(u64) + Sync)>,
) -> TestResult {
    let (ta, tb) = (a.totals(), b.totals());
    let Some(observed) = difference(stat, &ta, &tb) else {
        return TestResult::undefined(cfg.samples as u64, cfg.seed);
    };
    let dims = a.dims();
    let (diffs, n) = differing_rows(a, b);
    // Only columns that differ somewhere change under swapping; a replicate needs just
    // S = Σ over swapped sentences of (A − B) on those columns: A' = A − S, B' = B + S.
    let active: Vec<usize> = (0..dims)
        .filter(|&k| (0..n).any(|i| diffs[i * dims + k] != 0.0))
        .collect();
    let columns: Vec<Vec<f64>> = active
        .iter()
        .map(|&k| (0..n).map(|i| diffs[i * dims + k]).collect())
        .collect();
    let chunk = (cfg.samples / 100).max(64);
    let tick = Ticker::new(cfg.samples, progress);
    let extreme: u64 = (0..cfg.samples)
        .into_par_iter()
        .with_min_len(chunk)
        .map_init(
            || (ta.clone(), tb.clone(), vec![0u64; n.div_ceil(64)]),
            |(sa, sb, words), r| {
                let mut rng = replicate_rng(cfg.seed, r as u64);
                for w in words.iter_mut() {
                    *w = rng.next_u64();
                }
                sa.copy_from_slice(&ta);
                sb.copy_from_slice(&tb);
                for (&k, col) in active.iter().zip(&columns) {
                    let mut sum = 0.0;
                    for (w, block) in words.iter().zip(col.chunks(64)) {
                        for (j, d) in block.iter().enumerate() {
                            sum += d * ((w >> j) & 1) as f64;
                        }
                    }
                    sa[k] -= sum;
                    sb[k] += sum;
                }
                tick.tick();
                match difference(stat, sa, sb) {
                    Some(d) => u64::from(is_extreme(d, observed, alt)),
                    None => 0,
                }
            },
        )
        .sum();
    TestResult {
        statistic: observed,
        p_value: (extreme + 1) as f64 / (cfg.samples + 1) as f64,
        samples: cfg.samples as u64,
        extreme,
        seed: cfg.seed,
    }
}

/// The exact permutation test: every one of the 2^m ways to swap the m sentences where
/// the systems differ; p = (number at least as extreme) / 2^m. `None` when m > `max_rows`
/// (at most 24).
pub fn exact_permutation(
    a: &Samples,
    b: &Samples,
    stat: &dyn Statistic,
    alt: Alternative,
    max_rows: usize,
) -> Option<TestResult> {
    let (ta, tb) = (a.totals(), b.totals());
    let dims = a.dims();
    let (diffs, n) = differing_rows(a, b);
    if n > max_rows.min(24) {
        return None;
    }
    let total = 1u64 << n;
    let Some(observed) = difference(stat, &ta, &tb) else {
        return Some(TestResult::undefined(total, 0));
    };
    let extreme: u64 = (0..total)
        .into_par_iter()
        .map(|mask| {
            let (mut sa, mut sb) = (ta.clone(), tb.clone());
            for i in 0..n {
                if mask >> i & 1 == 1 {
                    for k in 0..dims {
                        sa[k] -= diffs[i * dims + k];
                        sb[k] += diffs[i * dims + k];
                    }
                }
            }
            match difference(stat, &sa, &sb) {
                Some(d) => u64::from(is_extreme(d, observed, alt)),
                None => 0,
            }
        })
        .sum();
    Some(TestResult {
        statistic: observed,
        p_value: extreme as f64 / total as f64,
        samples: total,
        extreme,
        seed: 0,
    })
}

/// Calls a progress callback with the number of replicates done, about every 1%.
struct Ticker<'a> {
    done: std::sync::atomic::AtomicU64,
    every: u64,
    progress: Option<&'a (dyn Fn(u64) + Sync)>,
}

impl<'a> Ticker<'a> {
    fn new(total: usize, progress: Option<&'a (dyn Fn(u64) + Sync)>) -> Self {
        Ticker {
            done: std::sync::atomic::AtomicU64::new(0),
            every: (total as u64 / 100).max(1),
            progress,
        }
    }

    #[inline]
    fn tick(&self) {
        if let Some(p) = self.progress {
            let k = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if k % self.every == 0 {
                p(k);
            }
        }
    }
}

/// A uniform index below `n` (Lemire's multiply-shift).
#[inline]
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// The rows of several tables over the same units, packed for resampling: row `i` of
/// every table side by side, the columns whose values are all whole numbers (counts,
/// nearly always) as `u8`, `u16` or `u32`, the others as `f64`, or as `u16` codes into a
/// table of their distinct values when there are at most 65,536 (per-sentence ratios
/// take few values). A resample reads one short row per draw instead of one long row per
/// table, so a large corpus stays in the cache.
///
/// The sums are the ones of the `f64` rows: whole-number columns are summed as integers,
/// which is exact, and so is the `f64` sum they stand for (every partial sum is a whole
/// number below 2^53, checked here); the other columns are summed as `f64`, of the same
/// values, in the order the rows are drawn, as before packing.
struct Packed {
    rows: usize,
    ints: Ints,
    /// Whether every integer column's total stays below 2^32 (then `u32` accumulators).
    narrow_sums: bool,
    floats: Floats,
    /// Integer columns, then the others: how many of each are packed.
    int_width: usize,
    float_width: usize,
    /// Where each table column's sum comes from.
    outs: Vec<((usize, usize), Out)>,
}

/// Where a column's sum comes from: a packed column (integer columns first, then the
/// others), or a constant whole number (the column's value times the number of rows,
/// whatever is drawn). Identical columns (say the gold's word count in every system's
/// table) are packed once.
#[derive(Debug, Clone, Copy)]
enum Out {
    Packed(usize),
    Constant(f64),
}

/// Each column of `columns` is either packed (its index among the packed ones) or a
/// copy of an earlier one.
fn dedup(
    columns: &[(usize, usize)],
    same: impl Fn((usize, usize), (usize, usize)) -> bool,
) -> (Vec<(usize, usize)>, Vec<usize>) {
    let mut packed: Vec<(usize, usize)> = Vec::new();
    let at = columns
        .iter()
        .map(|&c| match packed.iter().position(|&p| same(p, c)) {
            Some(j) => j,
            None => {
                packed.push(c);
                packed.len() - 1
            }
        })
        .collect();
    (packed, at)
}

/// The integer columns, per row, in the narrowest type that holds them.
enum Ints {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
}

/// The other columns, per row.
enum Floats {
    /// The values.
    Plain(Vec<f64>),
    /// Codes into `values`.
    Coded { codes: Vec<u16>, values: Vec<f64> },
}

impl Floats {
    /// Column `k` of row `i` (of width `w`).
    #[inline]
    fn get(&self, i: usize, w: usize, k: usize) -> f64 {
        match self {
            Floats::Plain(v) => v[i * w + k],
            Floats::Coded { codes, values } => values[usize::from(codes[i * w + k])],
        }
    }

    /// Values of `rows` × `columns`, coded when they take few distinct values.
    fn new(
        rows: usize,
        columns: &[(usize, usize)],
        value: impl Fn((usize, usize), usize) -> f64,
    ) -> Self {
        let mut seen: std::collections::HashMap<u64, u16> = std::collections::HashMap::new();
        let mut values = Vec::new();
        let mut codes = Vec::with_capacity(rows * columns.len());
        for i in 0..rows {
            for &c in columns {
                let v = value(c, i);
                let code = match seen.get(&v.to_bits()) {
                    Some(&code) => code,
                    None => {
                        let Ok(code) = u16::try_from(values.len()) else {
                            let plain = (0..rows)
                                .flat_map(|i| columns.iter().map(move |&c| (c, i)))
                                .map(|(c, i)| value(c, i))
                                .collect();
                            return Floats::Plain(plain);
                        };
                        seen.insert(v.to_bits(), code);
                        values.push(v);
                        code
                    }
                };
                codes.push(code);
            }
        }
        Floats::Coded { codes, values }
    }
}

/// An integer accumulator of a column sum.
trait Acc: Copy + Default + std::ops::AddAssign {
    /// The sum as the `f64` it equals (exact: totals stay below 2^53).
    fn to_f64(self) -> f64;
}

impl Acc for u32 {
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

impl Acc for u64 {
    fn to_f64(self) -> f64 {
        // exact: Packed::new keeps a column whose total could reach 2^53 as f64
        self as f64
    }
}

/// Per-thread buffers of a resampling run.
#[derive(Default)]
struct Scratch {
    narrow: Vec<u32>,
    wide: Vec<u64>,
}

impl Packed {
    fn new(tables: &[&Samples]) -> Self {
        let rows = tables.first().map_or(0, |t| t.len());
        // the largest value of a column if all are whole numbers in 0..=u32::MAX
        let whole_max = |t: &Samples, k: usize| {
            let mut max = 0.0f64;
            for i in 0..t.len() {
                let v = t.row(i)[k];
                if !(0.0..=f64::from(u32::MAX)).contains(&v) || v.fract() != 0.0 {
                    return None;
                }
                max = max.max(v);
            }
            Some(max)
        };
        let total_max = |max: f64| max * rows as f64;
        let (mut int, mut float) = (Vec::new(), Vec::new());
        let (mut narrow_sums, mut int_max) = (true, 0.0f64);
        for (ti, t) in tables.iter().enumerate() {
            for k in 0..t.dims() {
                match whole_max(t, k) {
                    Some(max) if total_max(max) < 9_007_199_254_740_992.0 => {
                        narrow_sums &= total_max(max) < f64::from(u32::MAX);
                        int_max = int_max.max(max);
                        int.push((ti, k));
                    }
                    _ => float.push((ti, k)),
                }
            }
        }
        let value = |(t, k): (usize, usize), i: usize| tables[t].row(i)[k];
        let same =
            |a: (usize, usize), b: (usize, usize)| (0..rows).all(|i| value(a, i) == value(b, i));
        let mut outs = Vec::new();
        // whole-number columns of one value need no resampling
        int.retain(|&c| {
            let first = if rows > 0 { value(c, 0) } else { 0.0 };
            let constant = (0..rows).all(|i| value(c, i) == first);
            if constant {
                outs.push((c, Out::Constant(first * rows as f64)));
            }
            !constant
        });
        let (packed_int, int_at) = dedup(&int, same);
        let (packed_float, float_at) = dedup(&float, same);
        let width = packed_int.len();
        outs.extend(int.iter().zip(&int_at).map(|(&c, &j)| (c, Out::Packed(j))));
        outs.extend(
            float
                .iter()
                .zip(&float_at)
                .map(|(&c, &j)| (c, Out::Packed(width + j))),
        );
        let (int, float) = (packed_int, packed_float);
        let cells = || (0..rows).flat_map(|i| int.iter().map(move |&c| value(c, i)));
        // the casts are exact: every value was checked to be a whole number in range
        let ints = if int_max <= f64::from(u8::MAX) {
            Ints::U8(cells().map(|v| v as u8).collect())
        } else if int_max <= f64::from(u16::MAX) {
            Ints::U16(cells().map(|v| v as u16).collect())
        } else {
            Ints::U32(cells().map(|v| v as u32).collect())
        };
        let floats = Floats::new(rows, &float, value);
        Packed {
            rows,
            ints,
            narrow_sums,
            floats,
            int_width: int.len(),
            float_width: float.len(),
            outs,
        }
    }

    /// Column sums of replicate `r`'s resample into `sums` (one per packed column).
    fn resample(&self, seed: u64, r: u64, scratch: &mut Scratch, sums: &mut [f64]) {
        let (ints, floats) = sums.split_at_mut(self.int_width);
        let (narrow, wide) = (&mut scratch.narrow, &mut scratch.wide);
        match (&self.ints, self.narrow_sums) {
            (Ints::U8(v), true) => self.resample_as(v, seed, r, narrow, ints, floats),
            (Ints::U8(v), false) => self.resample_as(v, seed, r, wide, ints, floats),
            (Ints::U16(v), true) => self.resample_as(v, seed, r, narrow, ints, floats),
            (Ints::U16(v), false) => self.resample_as(v, seed, r, wide, ints, floats),
            (Ints::U32(v), true) => self.resample_as(v, seed, r, narrow, ints, floats),
            (Ints::U32(v), false) => self.resample_as(v, seed, r, wide, ints, floats),
        }
    }

    /// [`Packed::resample`] with integer columns of type `T` summed in `A`. The draws
    /// come in blocks; each block's rows are first touched (independent loads the
    /// processor overlaps), then summed in the order drawn.
    fn resample_as<T: Copy, A: Acc + From<T>>(
        &self,
        ints: &[T],
        seed: u64,
        r: u64,
        acc: &mut Vec<A>,
        int_sums: &mut [f64],
        float_sums: &mut [f64],
    ) {
        const BLOCK: usize = 64;
        let (wi, wf) = (int_sums.len(), float_sums.len());
        acc.clear();
        acc.resize(wi, A::default());
        float_sums.iter_mut().for_each(|x| *x = 0.0);
        let n = self.rows;
        let mut rng = replicate_rng(seed, r);
        let mut drawn = [0usize; BLOCK];
        let mut left = n;
        while left > 0 {
            let block = &mut drawn[..left.min(BLOCK)];
            left -= block.len();
            for i in block.iter_mut() {
                *i = below(&mut rng, n);
            }
            // a row may straddle two cache lines: touch its first and last values
            let mut touched = A::default();
            let mut touched_f = 0.0;
            for &i in block.iter() {
                if wi > 0 {
                    touched += A::from(ints[i * wi]);
                    touched += A::from(ints[(i + 1) * wi - 1]);
                }
                if wf > 0 {
                    touched_f += self.floats.get(i, wf, 0) + self.floats.get(i, wf, wf - 1);
                }
            }
            std::hint::black_box((touched, touched_f));
            for &i in block.iter() {
                for (s, &v) in acc.iter_mut().zip(&ints[i * wi..(i + 1) * wi]) {
                    *s += A::from(v);
                }
                match &self.floats {
                    Floats::Plain(v) => {
                        for (s, x) in float_sums.iter_mut().zip(&v[i * wf..(i + 1) * wf]) {
                            *s += x;
                        }
                    }
                    Floats::Coded { codes, values } => {
                        for (s, &c) in float_sums.iter_mut().zip(&codes[i * wf..(i + 1) * wf]) {
                            *s += values[usize::from(c)];
                        }
                    }
                }
            }
        }
        for (s, a) in int_sums.iter_mut().zip(acc.iter()) {
            *s = a.to_f64();
        }
    }
}

/// One bootstrap run shared by every statistic that reads `tables`: for each replicate
/// `r` in `0..cfg.samples`, the column sums of each table over one resample of the units
/// (drawn with replacement from replicate `r`'s random stream, the same units for every
/// table), mapped by `f`. Replicate `r` draws the same units whatever the tables' widths
/// and number, so statistics computed together equal those computed one by one.
///
/// All tables must have the same number of rows (the same units, e.g. one table per
/// system over the same sentences).
pub fn bootstrap_replicates<T: Send>(
    tables: &[&Samples],
    cfg: Resampling,
    progress: Option<&(dyn Fn(u64) + Sync)>,
    f: impl Fn(&[Vec<f64>]) -> T + Sync,
) -> Vec<T> {
    debug_assert!(tables.windows(2).all(|w| w[0].len() == w[1].len()));
    let tick = Ticker::new(cfg.samples, progress);
    let packed = Packed::new(tables);
    (0..cfg.samples)
        .into_par_iter()
        .map_init(
            || {
                let sums = tables
                    .iter()
                    .map(|t| vec![0.0; t.dims()])
                    .collect::<Vec<_>>();
                let width = packed.int_width + packed.float_width;
                (vec![0.0; width], sums, Scratch::default())
            },
            |(flat, sums, scratch), r| {
                packed.resample(cfg.seed, r as u64, scratch, flat);
                for &((t, k), out) in &packed.outs {
                    sums[t][k] = match out {
                        Out::Packed(j) => flat[j],
                        Out::Constant(total) => total,
                    };
                }
                tick.tick();
                f(sums)
            },
        )
        .collect()
}

/// The outcome of a paired bootstrap test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BootstrapResult {
    /// The test itself: observed difference and the shifted-null two-sided p-value.
    #[serde(flatten)]
    pub test: TestResult,
    /// Fraction of samples in which A scores higher than B (Koehn 2004's figure).
    pub a_wins: f64,
}

impl BootstrapResult {
    /// [`BootstrapResult::of`] where the observed difference may be undefined (a
    /// system's metric n/a on the data): then [`TestResult::undefined`], no wins.
    pub fn of_observed(observed: Option<f64>, deltas: &[Option<f64>], cfg: Resampling) -> Self {
        match observed {
            Some(d) => BootstrapResult::of(d, deltas, cfg),
            None => BootstrapResult {
                test: TestResult::undefined(cfg.samples as u64, cfg.seed),
                a_wins: 0.0,
            },
        }
    }

    /// The test of an observed difference against its bootstrap replicates `deltas`
    /// (`None` where a replicate's metric is undefined), drawn with `cfg`.
    pub fn of(observed: f64, deltas: &[Option<f64>], cfg: Resampling) -> Self {
        let defined: Vec<f64> = deltas.iter().flatten().copied().collect();
        let mean = if defined.is_empty() {
            0.0
        } else {
            defined.iter().sum::<f64>() / defined.len() as f64
        };
        let extreme = defined
            .iter()
            .filter(|&&d| (d - mean).abs() >= observed.abs() - tolerance(observed))
            .count() as u64;
        let wins = defined.iter().filter(|&&d| d > 0.0).count();
        BootstrapResult {
            test: TestResult {
                statistic: observed,
                p_value: (extreme + 1) as f64 / (cfg.samples + 1) as f64,
                samples: cfg.samples as u64,
                extreme,
                seed: cfg.seed,
            },
            a_wins: wins as f64 / cfg.samples.max(1) as f64,
        }
    }
}

/// Paired bootstrap resampling (Koehn 2004): draw `cfg.samples` resamples of the
/// sentences (with replacement, the same sentences for both systems) and compute the
/// metric difference δ* on each. The p-value tests δ = 0 two-sided against the
/// bootstrap distribution shifted to mean 0 (as sacrebleu): p = (#{|δ* − mean δ*| ≥ |δ|}
/// + 1)/(R + 1). Also reports how often A beats B.
pub fn paired_bootstrap(
    a: &Samples,
    b: &Samples,
    stat: &dyn Statistic,
    cfg: Resampling,
    progress: Option<&(dyn Fn(u64) + Sync)>,
) -> BootstrapResult {
    paired_bootstraps(&[a, b], &[(0, 1, stat)], cfg, progress)
        .pop()
        .unwrap_or_else(|| BootstrapResult::of(0.0, &[], cfg))
}

/// [`paired_bootstrap`] of several comparisons over the same units in one resampling
/// run: `pairs[k] = (a, b, statistic)` compares `tables[a]` with `tables[b]`; each result
/// equals the one [`paired_bootstrap`] gives for that pair alone. Every table is summed
/// once per replicate however many comparisons read it.
pub fn paired_bootstraps(
    tables: &[&Samples],
    pairs: &[(usize, usize, &dyn Statistic)],
    cfg: Resampling,
    progress: Option<&(dyn Fn(u64) + Sync)>,
) -> Vec<BootstrapResult> {
    let deltas = paired_deltas(tables, pairs, cfg, progress);
    let totals: Vec<Vec<f64>> = tables.iter().map(|t| t.totals()).collect();
    pairs
        .iter()
        .zip(&deltas)
        .map(|(&(a, b, stat), mine)| {
            let observed = difference(stat, &totals[a], &totals[b]);
            BootstrapResult::of_observed(observed, mine, cfg)
        })
        .collect()
}

/// The replicates of the paired bootstrap of several comparisons over the same units,
/// from one resampling run: `out[k][r]` is δ* = statistic(A*) − statistic(B*) of
/// `pairs[k] = (a, b, statistic)` in replicate `r` (`None` where either is undefined).
/// The test ([`paired_bootstraps`]) and the interval of the difference
/// ([`difference_interval`]) are both read from them.
pub fn paired_deltas(
    tables: &[&Samples],
    pairs: &[(usize, usize, &dyn Statistic)],
    cfg: Resampling,
    progress: Option<&(dyn Fn(u64) + Sync)>,
) -> Vec<Vec<Option<f64>>> {
    let per_replicate = bootstrap_replicates(tables, cfg, progress, |sums| {
        pairs
            .iter()
            .map(|&(a, b, stat)| difference(stat, &sums[a], &sums[b]))
            .collect::<Vec<_>>()
    });
    (0..pairs.len())
        .map(|k| per_replicate.iter().map(|d| d[k]).collect())
        .collect()
}

/// The percentile interval at `level` of the difference B − A, from the paired
/// bootstrap's replicates δ* = A* − B* ([`paired_deltas`]; the undefined ones left out):
/// the (1−level)/2 and (1+level)/2 quantiles of −δ*. `None` when no replicate is defined.
/// (`0 − δ` is exactly B* − A*, and 0 rather than −0 where the two are equal.)
pub fn difference_interval(deltas: &[Option<f64>], level: f64) -> Option<(f64, f64)> {
    percentile_interval(deltas.iter().flatten().map(|&d| 0.0 - d).collect(), level)
}

/// A percentile bootstrap confidence interval for one system's score at `level`
/// (e.g. 0.95): the (1−level)/2 and (1+level)/2 quantiles (linear interpolation between
/// order statistics, numpy's default) of the metric over `cfg.samples` resamples.
/// `None` when no resample has a defined score.
pub fn bootstrap_ci(
    a: &Samples,
    stat: &dyn Statistic,
    level: f64,
    cfg: Resampling,
    progress: Option<&(dyn Fn(u64) + Sync)>,
) -> Option<(f64, f64)> {
    bootstrap_cis(a, &[stat], level, cfg, progress)
        .pop()
        .flatten()
}

/// [`bootstrap_ci`] for several statistics of the same table at once: each resample is
/// drawn and summed once and every statistic read from its sums. Replicate `r` draws
/// the same units whatever the table's width, so each interval is exactly the one
/// [`bootstrap_ci`] gives for that statistic alone (on the columns it reads).
pub fn bootstrap_cis(
    a: &Samples,
    stats: &[&dyn Statistic],
    level: f64,
    cfg: Resampling,
    progress: Option<&(dyn Fn(u64) + Sync)>,
) -> Vec<Option<(f64, f64)>> {
    let of: Vec<(usize, &dyn Statistic)> = stats.iter().map(|&s| (0, s)).collect();
    joint_cis(&[a], &of, level, cfg, progress)
}

/// Intervals of statistics of several tables over the same units (say every system's
/// rows) from one resampling run: `stats[k] = (table, statistic)`. Each interval equals
/// the one [`bootstrap_ci`] gives for that table and statistic alone.
pub fn joint_cis(
    tables: &[&Samples],
    stats: &[(usize, &dyn Statistic)],
    level: f64,
    cfg: Resampling,
    progress: Option<&(dyn Fn(u64) + Sync)>,
) -> Vec<Option<(f64, f64)>> {
    let rows = bootstrap_replicates(tables, cfg, progress, |sums| {
        stats
            .iter()
            .map(|&(t, s)| s.value(&sums[t]))
            .collect::<Vec<_>>()
    });
    (0..stats.len())
        .map(|k| percentile_interval(rows.iter().filter_map(|r| r[k]).collect(), level))
        .collect()
}

/// The percentile interval at `level` of bootstrap replicate values (the undefined ones
/// left out): the (1−level)/2 and (1+level)/2 quantiles; `None` when there is no value.
pub fn percentile_interval(mut values: Vec<f64>, level: f64) -> Option<(f64, f64)> {
    if values.is_empty() {
        return None;
    }
    let alpha = (1.0 - level) / 2.0;
    values.sort_by(f64::total_cmp);
    Some((quantile(&values, alpha), quantile(&values, 1.0 - alpha)))
}

/// Quantile `q` of sorted `v`, linear interpolation (numpy's default, Hyndman–Fan type 7).
pub fn quantile(v: &[f64], q: f64) -> f64 {
    let h = (v.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    v[lo] + (h - lo as f64) * (v[hi] - v[lo])
}

/// McNemar's test on paired binary decisions.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct McNemar {
    /// Decisions right in A and wrong in B.
    pub b: u64,
    /// Decisions wrong in A and right in B.
    pub c: u64,
    /// Whether the exact binomial test was used (b + c < 25).
    pub exact: bool,
    /// min(b, c) for the exact test; (|b − c| − 1)² / (b + c) otherwise.
    pub statistic: f64,
    /// Two-sided p-value.
    pub p_value: f64,
    /// MaltEval's z = (|b − c| − 1) / √(b + c) (0 when b + c = 0).
    pub z: f64,
}

/// McNemar's test: exact two-sided binomial (p = min(1, 2·P(X ≤ min(b, c))), X ~ Bin(b+c,
/// ½)) when b + c < 25, else χ² with continuity correction on 1 degree of freedom — the
/// choices of statsmodels' `mcnemar(exact=…, correction=True)`; plus MaltEval's z. With
/// b + c = 0 the p-value is 1.
pub fn mcnemar(b: u64, c: u64) -> McNemar {
    let n = b + c;
    let diff = b.abs_diff(c) as f64;
    let z = if n == 0 {
        0.0
    } else {
        (diff - 1.0).max(0.0) / (n as f64).sqrt()
    };
    if n == 0 {
        return McNemar {
            b,
            c,
            exact: true,
            statistic: 0.0,
            p_value: 1.0,
            z,
        };
    }
    if n < 25 {
        // exact: sum of binomial coefficients, in integers
        let k = b.min(c);
        // C(n, i) for i = 0..=k, each from the previous one (exact: n < 25)
        let mut coef: u64 = 1;
        let mut tail: u64 = 1;
        for i in 1..=k {
            coef = coef * (n - i + 1) / i;
            tail += coef;
        }
        let p = (2.0 * tail as f64 / (1u64 << n) as f64).min(1.0);
        return McNemar {
            b,
            c,
            exact: true,
            statistic: k as f64,
            p_value: p,
            z,
        };
    }
    use statrs::distribution::{ChiSquared, ContinuousCDF};
    let stat = (diff - 1.0).max(0.0).powi(2) / n as f64;
    let p = ChiSquared::new(1.0).map(|d| d.sf(stat)).unwrap_or(f64::NAN);
    McNemar {
        b,
        c,
        exact: false,
        statistic: stat,
        p_value: p,
        z,
    }
}

/// Holm–Bonferroni adjusted p-values, in the order given.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let mut adj = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        let v = ((m - k) as f64 * p[i]).min(1.0);
        running = running.max(v);
        adj[i] = running;
    }
    adj
}

/// Ranks of systems: 1 + the number of systems significantly better. `better(i, j)` says
/// whether system j is significantly better than system i. Systems that no test separates
/// share a rank.
pub fn ranks(n: usize, better: impl Fn(usize, usize) -> bool) -> Vec<usize> {
    (0..n)
        .map(|i| 1 + (0..n).filter(|&j| j != i && better(i, j)).count())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn las(s: &[f64]) -> Option<f64> {
        (s[1] > 0.0).then(|| s[0] / s[1])
    }

    /// Replicate r's sums, drawn the documented way (a reference for the joint runs).
    fn by_hand(t: &Samples, seed: u64, r: u64) -> Vec<f64> {
        let mut rng = replicate_rng(seed, r);
        let mut sums = vec![0.0; t.dims()];
        for _ in 0..t.len() {
            let i = ((u128::from(rng.next_u64()) * t.len() as u128) >> 64) as usize;
            for (s, v) in sums.iter_mut().zip(t.row(i)) {
                *s += v;
            }
        }
        sums
    }

    #[test]
    fn an_undefined_difference_is_never_significant() {
        // two systems with nothing to measure (0 items on both sides: n/a) that differ
        // in another column: every test gives p = 1, not the smallest p it can give
        let (mut a, mut b) = (Samples::new(3), Samples::new(3));
        for i in 0..40 {
            a.push(&[0.0, 0.0, f64::from(i % 2)]);
            b.push(&[0.0, 0.0, f64::from(i % 3)]);
        }
        let cfg = Resampling {
            samples: 99,
            seed: 3,
        };
        let two = Alternative::TwoSided;
        let ar = approximate_randomization(&a, &b, &las, two, cfg, None);
        assert_eq!((ar.p_value, ar.statistic, ar.extreme), (1.0, 0.0, 99));
        let mut few = (Samples::new(3), Samples::new(3));
        few.0.push(&[0.0, 0.0, 1.0]);
        few.1.push(&[0.0, 0.0, 2.0]);
        let exact = exact_permutation(&few.0, &few.1, &las, two, 16).unwrap();
        assert_eq!((exact.p_value, exact.samples), (1.0, 2));
        let boot = paired_bootstrap(&a, &b, &las, cfg, None);
        assert_eq!((boot.test.p_value, boot.a_wins), (1.0, 0.0));
        // a defined difference keeps its test
        a.push(&[1.0, 2.0, 0.0]);
        b.push(&[0.0, 2.0, 0.0]);
        let ar = approximate_randomization(&a, &b, &las, two, cfg, None);
        assert_eq!(ar.statistic, 0.5);
    }

    #[test]
    fn packed_sums_equal_the_f64_sums() {
        // small and large whole numbers, fractions, and whole numbers whose total could
        // pass 2^53 (kept as f64): every replicate's sums as by hand, to the bit
        let (mut a, mut b) = (Samples::new(4), Samples::new(6));
        for i in 0..300u32 {
            let x = f64::from(i);
            a.push(&[x % 7.0, 70_000.0 + x, x / 7.0, 1e15 + x]);
            // a constant column and a copy of a's first: summed once, or not at all
            b.push(&[f64::from(i % 3), 0.1 * x, 4e9 + x, 3.0, x % 7.0, x / 7.0]);
        }
        let cfg = Resampling {
            samples: 50,
            seed: 5,
        };
        let got = bootstrap_replicates(&[&a, &b], cfg, None, |sums| sums.to_vec());
        for (r, sums) in got.iter().enumerate() {
            assert_eq!(sums[0], by_hand(&a, 5, r as u64));
            assert_eq!(sums[1], by_hand(&b, 5, r as u64));
        }
        // more distinct fractions than codes: kept as plain f64
        let mut f = Samples::new(1);
        for i in 0..70_000u32 {
            f.push(&[f64::from(i) / 3.0]);
        }
        let few = Resampling {
            samples: 2,
            seed: 5,
        };
        let got = bootstrap_replicates(&[&f], few, None, |sums| sums[0][0]);
        for (r, s) in got.iter().enumerate() {
            assert_eq!(*s, by_hand(&f, 5, r as u64)[0]);
        }
        // each integer packing and accumulator: u8 in u32 (small totals), u32 in u32,
        // u16 in u64 (65,600 rows of values up to 65,535)
        for (rows, value) in [(100u32, 5u32), (100, 70_000), (65_600, 65_536)] {
            let mut c = Samples::new(1);
            for i in 0..rows {
                c.push(&[f64::from(if i % 2 == 0 { value - 1 } else { i % value })]);
            }
            let few = Resampling {
                samples: 3,
                seed: 5,
            };
            let got = bootstrap_replicates(&[&c], few, None, |sums| sums[0][0]);
            for (r, s) in got.iter().enumerate() {
                assert_eq!(*s, by_hand(&c, 5, r as u64)[0]);
            }
        }
    }

    #[test]
    fn joint_runs_equal_the_documented_draws() {
        let (mut a, mut b) = (Samples::new(2), Samples::new(2));
        for i in 0..90 {
            a.push(&[(i % 4) as f64, 4.0]);
            b.push(&[((i * 5) % 3) as f64, 4.0]);
        }
        let ratio = |s: &[f64]| (s[1] > 0.0).then(|| s[0] / s[1]);
        let first = |s: &[f64]| Some(s[0]);
        let cfg = Resampling {
            samples: 200,
            seed: 11,
        };
        // the paired tests of two statistics in one run, each as if alone and as by hand
        let both = paired_bootstraps(&[&a, &b], &[(0, 1, &ratio), (0, 1, &first)], cfg, None);
        assert_eq!(both[0], paired_bootstrap(&a, &b, &ratio, cfg, None));
        let deltas: Vec<Option<f64>> = (0..200)
            .map(|r| difference(&first, &by_hand(&a, 11, r), &by_hand(&b, 11, r)))
            .collect();
        let observed = difference(&first, &a.totals(), &b.totals()).unwrap_or(0.0);
        assert_eq!(both[1], BootstrapResult::of(observed, &deltas, cfg));
        // intervals of two tables over the same units in one run
        let joint = joint_cis(&[&a, &b], &[(0, &ratio), (1, &ratio)], 0.95, cfg, None);
        let mut values: Vec<f64> = (0..200)
            .filter_map(|r| ratio(&by_hand(&b, 11, r)))
            .collect();
        values.sort_by(f64::total_cmp);
        let b_alone = (quantile(&values, 0.025), quantile(&values, 0.975));
        assert_eq!(joint[1], Some(b_alone));
        assert_eq!(joint[0], bootstrap_ci(&a, &ratio, 0.95, cfg, None));
    }

    fn table(rows: &[(f64, f64)]) -> Samples {
        let mut t = Samples::new(2);
        for &(c, n) in rows {
            t.push(&[c, n]);
        }
        t
    }

    #[test]
    fn mcnemar_malteval_figures() {
        // tiny/: sys vs sys_b, MaltEval: UAS z = 1.5 (b=4, c=0), LAS z = 2.475 (b=8, c=0)
        assert_eq!(mcnemar(0, 4).z, 1.5);
        assert_eq!(format!("{:.3}", mcnemar(0, 8).z), "2.475");
        // exact p: 2 * 0.5^4 = 0.125 and 2 * 0.5^8 = 0.0078125
        assert_eq!(mcnemar(0, 4).p_value, 0.125);
        assert_eq!(mcnemar(8, 0).p_value, 0.0078125);
        assert!(mcnemar(8, 0).exact);
        assert_eq!(mcnemar(0, 0).p_value, 1.0);
        assert_eq!(mcnemar(3, 3).p_value, 1.0);
        // b + c = 25: chi2 with continuity correction: (|20-5|-1)^2/25 = 7.84
        let m = mcnemar(20, 5);
        assert!(!m.exact);
        assert!((m.statistic - 7.84).abs() < 1e-12);
        assert!((m.p_value - 0.005110261).abs() < 1e-8, "{}", m.p_value);
    }

    #[test]
    fn holm_adjustment() {
        let a = holm(&[0.01, 0.04, 0.03, 0.005]);
        assert_eq!(a, vec![0.03, 0.06, 0.06, 0.02]);
        assert_eq!(holm(&[0.5, 0.9]), vec![1.0, 1.0]);
    }

    #[test]
    fn ranks_share_when_not_separated() {
        // 0 best, 1 and 2 tied, 2 significantly worse than 0 only
        let r = ranks(3, |i, j| matches!((i, j), (2, 0)));
        assert_eq!(r, vec![1, 1, 2]);
    }

    #[test]
    fn exact_permutation_by_hand() {
        // two sentences differ: A gets (1,1) vs B (0,1), and A (1,1) vs B (0,1) again
        // observed LAS difference = 2/3 - 0/3 with a third identical sentence (0,1)
        let a = table(&[(1.0, 1.0), (1.0, 1.0), (0.0, 1.0)]);
        let b = table(&[(0.0, 1.0), (0.0, 1.0), (0.0, 1.0)]);
        let r = exact_permutation(&a, &b, &las, Alternative::TwoSided, 20).unwrap();
        // 4 swap patterns: diffs 2/3, 0, 0, -2/3 -> 2 of 4 as extreme (two-sided)
        assert_eq!(r.samples, 4);
        assert_eq!(r.extreme, 2);
        assert_eq!(r.p_value, 0.5);
        let r = exact_permutation(&a, &b, &las, Alternative::Greater, 20).unwrap();
        assert_eq!(r.p_value, 0.25);
    }

    #[test]
    fn randomization_approaches_the_exact_p_value() {
        let rows_a: Vec<(f64, f64)> = (0..12).map(|i| ((i % 3) as f64, 3.0)).collect();
        let rows_b: Vec<(f64, f64)> = (0..12)
            .map(|i| (((i + 1) % 4).min(3) as f64, 3.0))
            .collect();
        let (a, b) = (table(&rows_a), table(&rows_b));
        let exact = exact_permutation(&a, &b, &las, Alternative::TwoSided, 20).unwrap();
        let cfg = Resampling {
            samples: 20_000,
            seed: DEFAULT_SEED,
        };
        let ar = approximate_randomization(&a, &b, &las, Alternative::TwoSided, cfg, None);
        let se = (exact.p_value * (1.0 - exact.p_value) / cfg.samples as f64).sqrt();
        assert!(
            (ar.p_value - exact.p_value).abs() <= 3.0 * se + 1.0 / cfg.samples as f64,
            "AR {} vs exact {} (se {se})",
            ar.p_value,
            exact.p_value
        );
    }

    #[test]
    fn bootstrap_ci_covers_the_estimate() {
        let rows: Vec<(f64, f64)> = (0..200).map(|i| ((i % 7) as f64, 7.0)).collect();
        let a = table(&rows);
        let full = las(&a.totals()).unwrap();
        let cfg = Resampling {
            samples: 1000,
            seed: 7,
        };
        let (lo, hi) = bootstrap_ci(&a, &las, 0.95, cfg, None).unwrap();
        assert!(lo < full && full < hi, "{lo} {full} {hi}");
        // same seed, same interval
        assert_eq!(bootstrap_ci(&a, &las, 0.95, cfg, None).unwrap(), (lo, hi));
    }

    #[test]
    fn joint_intervals_equal_the_single_ones() {
        // three columns: right, total, a per-unit score; each statistic reads some
        let mut t = Samples::new(3);
        for i in 0..150 {
            t.push(&[(i % 5) as f64, 5.0, ((i * 7) % 11) as f64 / 11.0]);
        }
        let mut two = Samples::new(2);
        for i in 0..150 {
            two.push(&[(i % 5) as f64, 5.0]);
        }
        let ratio = |s: &[f64]| (s[1] > 0.0).then(|| s[0] / s[1]);
        let mean3 = |s: &[f64]| Some(s[2] / 150.0);
        let never = |_: &[f64]| None::<f64>;
        let cfg = Resampling {
            samples: 300,
            seed: 3,
        };
        let joint = bootstrap_cis(&t, &[&ratio, &mean3, &never], 0.9, cfg, None);
        // the ratio alone, on a table of only the columns it reads: the same interval
        assert_eq!(joint[0], bootstrap_ci(&two, &ratio, 0.9, cfg, None));
        assert_eq!(joint[1], bootstrap_ci(&t, &mean3, 0.9, cfg, None));
        assert_eq!(joint[2], None);
    }

    #[test]
    fn quantiles_like_numpy() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 1.0), 4.0);
        assert_eq!(quantile(&v, 0.5), 2.5);
        assert!((quantile(&v, 0.025) - 1.075).abs() < 1e-12);
    }
}
