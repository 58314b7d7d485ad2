//! Scores computed from summed counts. Nothing here averages rounded numbers.

use serde::Serialize;

/// A ratio `correct / total` with its counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Ratio {
    /// Numerator.
    pub correct: u64,
    /// Denominator.
    pub total: u64,
}

impl Ratio {
    /// A ratio from counts.
    pub fn new(correct: u64, total: u64) -> Self {
        Ratio { correct, total }
    }

    /// The fraction in [0, 1]; `None` when `total` is 0.
    pub fn value(self) -> Option<f64> {
        (self.total > 0).then(|| self.correct as f64 / self.total as f64)
    }
}

/// Harmonic mean of precision and recall; `None` unless both are defined,
/// 0 when both are 0.
pub fn f1(precision: Option<f64>, recall: Option<f64>) -> Option<f64> {
    let (p, r) = (precision?, recall?);
    Some(if p + r == 0.0 {
        0.0
    } else {
        2.0 * p * r / (p + r)
    })
}

/// Mean of the defined values; `None` when there are none.
pub fn mean(values: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0u64);
    for v in values.into_iter().flatten() {
        sum += v;
        n += 1;
    }
    (n > 0).then(|| sum / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_example_word_vs_sentence_based() {
        // Kübler, McDonald & Nivre (2009) §6.1: 9/10 and 15/45 correct.
        let micro = Ratio::new(9 + 15, 10 + 45).value().unwrap();
        let macro_ = mean([Ratio::new(9, 10).value(), Ratio::new(15, 45).value()]).unwrap();
        assert_eq!(format!("{micro:.3}"), "0.436");
        assert_eq!(format!("{macro_:.3}"), "0.617");
    }

    #[test]
    fn f1_edges() {
        assert_eq!(f1(Some(0.0), Some(0.0)), Some(0.0));
        assert_eq!(f1(None, Some(1.0)), None);
        assert_eq!(f1(Some(1.0), Some(0.5)), Some(2.0 / 3.0));
        assert_eq!(Ratio::new(0, 0).value(), None);
    }
}
