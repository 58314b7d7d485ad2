//! Properties of the tests, on generated per-sentence counts.

use proptest::prelude::*;
use treeval_stats::compare::{compare, CompareConfig, MetricTables, TestKind};
use treeval_stats::*;

fn las(s: &[f64]) -> Option<f64> {
    (s[1] > 0.0).then(|| s[0] / s[1])
}

/// Paired tables: per sentence (correct A, correct B, words).
fn tables() -> impl Strategy<Value = (Samples, Samples)> {
    proptest::collection::vec((0u32..6, 0u32..6, 1u32..6), 1..40).prop_map(|rows| {
        let (mut a, mut b) = (Samples::new(2), Samples::new(2));
        for (x, y, n) in rows {
            let n = n.max(x).max(y);
            a.push(&[x as f64, n as f64]);
            b.push(&[y as f64, n as f64]);
        }
        (a, b)
    })
}

const CFG: Resampling = Resampling {
    samples: 300,
    seed: DEFAULT_SEED,
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn p_values_are_in_0_1((a, b) in tables()) {
        for alt in [Alternative::TwoSided, Alternative::Greater] {
            let r = approximate_randomization(&a, &b, &las, alt, CFG, None);
            prop_assert!(r.p_value > 0.0 && r.p_value <= 1.0);
        }
        let r = paired_bootstrap(&a, &b, &las, CFG, None);
        prop_assert!(r.test.p_value > 0.0 && r.test.p_value <= 1.0);
        if let Some(r) = exact_permutation(&a, &b, &las, Alternative::TwoSided, 12) {
            prop_assert!(r.p_value > 0.0 && r.p_value <= 1.0);
        }
    }

    #[test]
    fn a_system_against_itself_gives_p_1((a, _) in tables()) {
        prop_assert_eq!(approximate_randomization(&a, &a, &las, Alternative::TwoSided, CFG, None).p_value, 1.0);
        prop_assert_eq!(paired_bootstrap(&a, &a, &las, CFG, None).test.p_value, 1.0);
        prop_assert_eq!(exact_permutation(&a, &a, &las, Alternative::TwoSided, 12).unwrap().p_value, 1.0);
    }

    #[test]
    fn swapping_the_systems_keeps_the_two_sided_p((a, b) in tables()) {
        let ab = approximate_randomization(&a, &b, &las, Alternative::TwoSided, CFG, None);
        let ba = approximate_randomization(&b, &a, &las, Alternative::TwoSided, CFG, None);
        prop_assert_eq!(ab.p_value, ba.p_value);
        prop_assert_eq!(ab.statistic, -ba.statistic);
        let ab = paired_bootstrap(&a, &b, &las, CFG, None);
        let ba = paired_bootstrap(&b, &a, &las, CFG, None);
        prop_assert_eq!(ab.test.p_value, ba.test.p_value);
        if let (Some(x), Some(y)) = (
            exact_permutation(&a, &b, &las, Alternative::TwoSided, 12),
            exact_permutation(&b, &a, &las, Alternative::TwoSided, 12),
        ) {
            prop_assert_eq!(x.p_value, y.p_value);
        }
    }

    /// Every comparison's difference is score(B) − score(A) of the summed counts, to the
    /// bit; its interval is ordered; a system against itself differs by 0 in [0, 0].
    #[test]
    fn differences_are_b_minus_a_with_ordered_intervals((a, b) in tables()) {
        let cfg = compare_config(vec![TestKind::Ar, TestKind::Bootstrap]);
        for (x, y) in [(&a, &b), (&a, &a)] {
            let m = MetricTables {
                name: "LAS".into(),
                tables: vec![x.clone(), y.clone()],
                statistic: &las,
                decisions: None,
                lower_is_better: false,
            };
            let (cmp, _) = compare(&[m], &cfg, &|_, _, _| {});
            prop_assert_eq!(cmp.len(), 2);
            let expected = las(&y.totals()).zip(las(&x.totals())).map(|(sb, sa)| sb - sa);
            for c in &cmp {
                prop_assert_eq!(c.difference, expected);
                prop_assert_eq!(c.ci_level, 0.9);
                prop_assert_eq!(c.difference_ci.is_some(), expected.is_some());
                if let Some([lo, hi]) = c.difference_ci {
                    prop_assert!(lo <= hi, "{lo} > {hi}");
                }
                if std::ptr::eq(x, y) {
                    prop_assert_eq!(c.difference, Some(0.0));
                    prop_assert_eq!(c.difference_ci, Some([0.0, 0.0]));
                }
            }
        }
    }

    #[test]
    fn mcnemar_is_symmetric_and_bounded(b in 0u64..200, c in 0u64..200) {
        let x = mcnemar(b, c);
        let y = mcnemar(c, b);
        prop_assert_eq!(x.p_value, y.p_value);
        prop_assert!(x.p_value > 0.0 && x.p_value <= 1.0);
    }
}

fn compare_config(tests: Vec<TestKind>) -> CompareConfig {
    CompareConfig {
        tests,
        ar_samples: 200,
        bootstrap_samples: 200,
        seed: DEFAULT_SEED,
        alpha: 0.05,
        alternative: Alternative::TwoSided,
        ci_level: 0.9,
        ci_samples: 200,
    }
}

#[test]
fn same_results_with_one_and_two_threads() {
    let (mut a, mut b) = (Samples::new(2), Samples::new(2));
    for i in 0..500u32 {
        a.push(&[(i % 7) as f64, 8.0]);
        b.push(&[((i * 3) % 8) as f64, 8.0]);
    }
    let cfg = Resampling {
        samples: 2000,
        seed: 99,
    };
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            (
                approximate_randomization(&a, &b, &las, Alternative::TwoSided, cfg, None),
                paired_bootstrap(&a, &b, &las, cfg, None),
                bootstrap_ci(&a, &las, 0.95, cfg, None),
            )
        })
    };
    assert_eq!(run(1), run(2));
    // a different seed gives a different (but valid) draw
    let other = approximate_randomization(
        &a,
        &b,
        &las,
        Alternative::TwoSided,
        Resampling { seed: 100, ..cfg },
        None,
    );
    assert!(other.p_value > 0.0 && other.p_value <= 1.0);
}
