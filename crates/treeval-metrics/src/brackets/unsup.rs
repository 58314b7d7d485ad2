//! Unlabeled span scores of unsupervised constituency parsing, as Kim, Dyer & Rush (2019,
//! compound PCFG) and the PRPN / ON-LSTM line of work (Shen et al. 2018, 2019) report them.
//!
//! [`script`] restates how harvardnlp/compound-pcfg's `compare_trees.py` reads a line and
//! which spans it takes from it, and [`CompareTrees`] sums its two figures exactly as it
//! does (its `1e-8` terms, numpy's pairwise sum in the mean), for `--compat compare-trees`.

pub mod profile;
pub mod script;

use script::ScriptTree;

/// The sums `compare_trees.py` keeps: the corpus counts and each sentence's F1.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CompareTrees {
    /// System spans that are gold spans, summed over sentences.
    pub tp: f64,
    /// System spans that are not gold spans.
    pub fp: f64,
    /// Gold spans that are not system spans.
    pub fn_: f64,
    /// Each scored sentence's F1, with the script's `1e-8` terms.
    pub sentence_f1: Vec<f64>,
}

/// Why `compare_trees.py` would print nothing: it divides zero by zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZeroDivision {
    /// No system span in any scored sentence (corpus precision is 0/0).
    NoSystemSpan,
    /// No gold span in any scored sentence (corpus recall is 0/0).
    NoGoldSpan,
}

impl CompareTrees {
    /// Add one sentence: the gold tree and the system tree as the script reads them.
    pub fn add(&mut self, gold: &ScriptTree, system: &ScriptTree) {
        let g = gold.span_set();
        let s = system.span_set();
        let overlap = s.intersection(&g).count();
        self.tp += overlap as f64;
        self.fp += (s.len() - overlap) as f64;
        self.fn_ += (g.len() - overlap) as f64;
        let (o, ns, ng) = (overlap as f64, s.len() as f64, g.len() as f64);
        let mut prec = o / (ns + 1e-8);
        let mut reca = o / (ng + 1e-8);
        if g.is_empty() {
            reca = 1.0;
            if s.is_empty() {
                prec = 1.0;
            }
        }
        self.sentence_f1
            .push(2.0 * prec * reca / (prec + reca + 1e-8));
    }

    /// Corpus F1 and the mean sentence F1, as fractions (the script prints them × 100).
    pub fn scores(&self) -> Result<(f64, f64), ZeroDivision> {
        if self.tp + self.fp == 0.0 {
            return Err(ZeroDivision::NoSystemSpan);
        }
        if self.tp + self.fn_ == 0.0 {
            return Err(ZeroDivision::NoGoldSpan);
        }
        let prec = self.tp / (self.tp + self.fp);
        let recall = self.tp / (self.tp + self.fn_);
        let corpus = if prec + recall > 0.0 {
            2.0 * prec * recall / (prec + recall)
        } else {
            0.0
        };
        Ok((corpus, numpy_mean(&self.sentence_f1)))
    }

    /// The line the script prints.
    pub fn line(&self) -> Result<String, ZeroDivision> {
        let (corpus, sentence) = self.scores()?;
        // Python's '%.2f' and Rust's `{:.2}` both round the exact binary value half to even
        Ok(format!(
            "Corpus F1: {:.2}, Sentence F1: {:.2}",
            corpus * 100.0,
            sentence * 100.0
        ))
    }
}

/// `numpy.mean` of a float64 array: its pairwise sum (added to the reduction's initial
/// 0.0) divided by the count; NaN when empty, as numpy.
pub fn numpy_mean(a: &[f64]) -> f64 {
    (0.0 + pairwise_sum(a)) / a.len() as f64
}

/// numpy's pairwise summation of float64: sequential below 8 values, 8 interleaved
/// accumulators up to 128, else the two halves (cut at a multiple of 8) summed apart.
fn pairwise_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        return a.iter().fold(-0.0, |r, x| r + x);
    }
    if n <= 128 {
        let mut r = [0.0; 8];
        r.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        for block in a[8..whole].chunks_exact(8) {
            for (acc, x) in r.iter_mut().zip(block) {
                *acc += x;
            }
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for x in &a[whole..] {
            res += x;
        }
        return res;
    }
    let mut half = n / 2;
    half -= half % 8;
    pairwise_sum(&a[..half]) + pairwise_sum(&a[half..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_mean_matches_numpy_on_values_where_the_order_of_addition_shows() {
        // numpy 2.4.6: np.mean(np.array([0.1] * 10 + [1e16, 1.0, -1e16] + [0.3] * 200))
        // printed 0.25680751173708916; a left-to-right sum gives 0.28169014084506944
        let mut a = vec![0.1; 10];
        a.extend([1e16, 1.0, -1e16]);
        a.extend(vec![0.3; 200]);
        assert_eq!(numpy_mean(&a), 0.25680751173708916);
        assert!(numpy_mean(&[]).is_nan());
        assert_eq!(numpy_mean(&[0.5, 0.25]), 0.375);
    }
}
