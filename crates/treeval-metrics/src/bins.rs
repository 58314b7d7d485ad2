//! Bins shared by the breakdowns of several families (`--by length` in `deps`, `ud` and
//! `brackets`): one definition, so that the same key means the same groups everywhere.

/// The sentence-length bins, in their natural order (lengths in words).
pub const LENGTH_BINS: [&str; 6] = ["1-10", "11-20", "21-30", "31-40", "41-50", "51+"];

/// Bin of a sentence length in words (one of [`LENGTH_BINS`]; 0 goes with 1-10).
pub fn length_bin(n: usize) -> &'static str {
    LENGTH_BINS[match n {
        0..=10 => 0,
        11..=20 => 1,
        21..=30 => 2,
        31..=40 => 3,
        41..=50 => 4,
        _ => 5,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_by_ten_up_to_fifty() {
        let got: Vec<&str> = [0, 1, 10, 11, 20, 21, 40, 41, 50, 51, 500]
            .into_iter()
            .map(length_bin)
            .collect();
        assert_eq!(
            got,
            [
                "1-10", "1-10", "1-10", "11-20", "11-20", "21-30", "31-40", "41-50", "41-50",
                "51+", "51+"
            ]
        );
    }
}
