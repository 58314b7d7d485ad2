//! `aer.py` (lilt/alignment-scripts): its one line per hypothesis.

use std::fmt::Write as _;

use treeval_metrics::align::AlignCounts;

/// `aer.py`'s output: the line `{path}: {AER}% ({precision}%/{recall}%/{links})`, one
/// decimal, and with `--fAlpha` (`f_alpha` given) the line `F-Measure: {F:.3}`.
///
/// `Err` where aer.py stops with a ZeroDivisionError and prints nothing: no hypothesis
/// link, no sure gold link, or (with `--fAlpha`) a precision or recall of 0.
pub fn aer_py(path: &str, c: &AlignCounts, f_alpha: Option<f64>) -> Result<String, String> {
    let m = c.scores(0.5);
    let crash = |why: &str| {
        Err(format!(
            "{}: aer.py stops with ZeroDivisionError here ({why}) and prints no score",
            path
        ))
    };
    let (Some(p), Some(r), Some(aer)) = (m.precision, m.recall, m.aer) else {
        return crash(if c.a == 0 {
            "the hypothesis has no link"
        } else {
            "the gold has no sure link"
        });
    };
    let mut o = format!(
        "{}: {:.1}% ({:.1}%/{:.1}%/{})\n",
        path,
        aer * 100.0,
        p * 100.0,
        r * 100.0,
        c.a
    );
    if let Some(alpha) = f_alpha {
        if p == 0.0 || r == 0.0 {
            return crash(if p == 0.0 {
                "--fAlpha with a precision of 0"
            } else {
                "--fAlpha with a recall of 0"
            });
        }
        let f = 1.0 / (alpha / p + (1.0 - alpha) / r);
        let _ = writeln!(o, "F-Measure: {f:.3}");
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aer_py_line_and_rounding() {
        let c = AlignCounts {
            a: 6069,
            s: 4038,
            p: 17438,
            a_and_s: 3751,
            a_and_p: 5548,
            hyp_sure: 6069,
            hyp_sure_and_s: 3751,
            gold_possible_only: 13400,
            ..AlignCounts::default()
        };
        assert_eq!(
            aer_py("test.enfr.talp", &c, None).unwrap(),
            "test.enfr.talp: 8.0% (91.4%/92.9%/6069)\n"
        );
        // aer.py's --fAlpha line: 1 / (0.5/P + 0.5/R), three decimals
        assert_eq!(
            aer_py("test.enfr.talp", &c, Some(0.5)).unwrap(),
            "test.enfr.talp: 8.0% (91.4%/92.9%/6069)\nF-Measure: 0.921\n"
        );
        let none = AlignCounts {
            s: 3,
            ..AlignCounts::default()
        };
        assert!(aer_py("h", &none, None)
            .unwrap_err()
            .contains("ZeroDivisionError"));
        let w = crate::compat::wa_eval::wa_eval_align(&c);
        assert!(w.contains("   AER       = 0.0799\n"), "{w}");
        assert!(w.contains("   Precision = 0.6181  \n"), "{w}");
    }
}
