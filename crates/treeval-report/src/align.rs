//! The `align` report: model, builder and renderers, and the two compat outputs
//! (`wa_eval_align.pl` blocks and `aer.py`'s one line).

use std::fmt::Write as _;

use serde::Serialize;
use treeval_metrics::align::{AlignCounts, AlignScores};

use crate::model::{Signature, Warning};
use crate::render::{table, OutputFormat};

/// A percentage with two decimals, or `n/a` where there is nothing to measure.
pub(crate) fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".into(), |v| format!("{:.2}", v * 100.0))
}

/// Version of the `align` JSON contract.
pub const ALIGN_SCHEMA: &str = "treeval.report/1";

/// Counts as the JSON contract names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[allow(non_snake_case)]
pub struct AlignCountsOut {
    /// |A|.
    pub A: u64,
    /// |S|.
    pub S: u64,
    /// |P|.
    pub P: u64,
    /// |A ∩ S|.
    pub A_and_S: u64,
    /// |A ∩ P|.
    pub A_and_P: u64,
}

/// One hypothesis file's results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlignSystem {
    /// Path as given.
    pub path: String,
    /// Format read.
    pub format: String,
    /// precision, recall, aer, f, sure, possible.
    pub metrics: AlignScores,
    /// The counts behind them.
    pub counts: AlignCountsOut,
    /// Everything counted (NULL and duplicate links, tags).
    pub details: AlignCounts,
    /// Bootstrap confidence intervals `[low, high]` by metric, when asked (`--ci`).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub ci: std::collections::BTreeMap<String, [f64; 2]>,
}

/// Conventions that change the numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlignConventions {
    /// α of the F-measure.
    pub f_alpha: f64,
    /// Whether links with a NULL side are scored.
    pub null_links: String,
}

/// The whole `align` report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlignReport {
    /// [`ALIGN_SCHEMA`].
    pub schema: &'static str,
    /// `align`.
    pub command: String,
    /// Reproducibility signature.
    pub signature: Signature,
    /// Conventions in force.
    pub conventions: AlignConventions,
    /// Gold file, format, sentences and link counts.
    pub gold: AlignGold,
    /// One per hypothesis file.
    pub systems: Vec<AlignSystem>,
    /// Pairwise tests.
    pub comparisons: Vec<treeval_stats::compare::Comparison>,
    /// Ranks per metric and test.
    pub rankings: Vec<treeval_stats::compare::Ranking>,
    /// Warnings.
    pub warnings: Vec<Warning>,
}

/// The gold file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlignGold {
    /// Path as given.
    pub path: String,
    /// Format read.
    pub format: String,
    /// Sentences evaluated.
    pub sentences: u64,
    /// Sure links.
    pub sure: u64,
    /// Possible links (sure included).
    pub possible: u64,
}

impl AlignSystem {
    /// Build from summed counts.
    pub fn new(path: &str, format: &str, c: &AlignCounts, alpha: f64) -> Self {
        AlignSystem {
            path: path.to_owned(),
            format: format.to_owned(),
            metrics: c.scores(alpha),
            counts: AlignCountsOut {
                A: c.a,
                S: c.s,
                P: c.p,
                A_and_S: c.a_and_s,
                A_and_P: c.a_and_p,
            },
            details: *c,
            ci: std::collections::BTreeMap::new(),
        }
    }
}

/// Render the report.
pub fn render(r: &AlignReport, format: OutputFormat) -> String {
    match format {
        OutputFormat::Json => {
            let mut s = serde_json::to_string_pretty(r)
                .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
            s.push('\n');
            s
        }
        OutputFormat::Csv | OutputFormat::Tsv => {
            let d = if format == OutputFormat::Csv {
                ","
            } else {
                "\t"
            };
            let mut o = ["signature", "system", "metric", "value"].join(d) + "\n";
            for s in &r.systems {
                let m = &s.metrics;
                let rows = [
                    ("precision", m.precision),
                    ("recall", m.recall),
                    ("aer", m.aer),
                    ("f", m.f),
                    ("sure-precision", m.sure.precision),
                    ("sure-recall", m.sure.recall),
                    ("possible-precision", m.possible.precision),
                    ("possible-recall", m.possible.recall),
                ];
                for (k, v) in rows {
                    let _ = writeln!(
                        o,
                        "{}{d}{}{d}{k}{d}{}",
                        r.signature.0,
                        s.path,
                        v.map(|x| x.to_string()).unwrap_or_default()
                    );
                }
                for (k, v) in [
                    ("A", s.counts.A),
                    ("S", s.counts.S),
                    ("P", s.counts.P),
                    ("A_and_S", s.counts.A_and_S),
                    ("A_and_P", s.counts.A_and_P),
                ] {
                    let _ = writeln!(o, "{}{d}{}{d}{k}{d}{v}", r.signature.0, s.path);
                }
            }
            for c in &r.comparisons {
                let _ = writeln!(
                    o,
                    "{}{d}{}-vs-{}{d}{}-{}-p{d}{}",
                    r.signature.0,
                    c.a + 1,
                    c.b + 1,
                    c.metric,
                    c.test.name(),
                    c.p_value
                );
            }
            o
        }
        OutputFormat::Markdown => {
            let mut o = format!(
                "`{}`\n\n| system | links | P | R | AER | F |\n|---|---:|---:|---:|---:|---:|\n",
                r.signature.0
            );
            for s in &r.systems {
                let m = &s.metrics;
                let _ = writeln!(
                    o,
                    "| {} | {} | {} | {} | {} | {} |",
                    s.path.replace('|', "\\|"),
                    s.counts.A,
                    pct(m.precision),
                    pct(m.recall),
                    pct(m.aer),
                    pct(m.f)
                );
            }
            o
        }
        OutputFormat::Latex => {
            let mut o = format!("% {}\n\\begin{{tabular}}{{lrrrrr}}\n\\toprule\nSystem & Links & P & R & AER & F \\\\\n\\midrule\n", r.signature.0);
            for s in &r.systems {
                let m = &s.metrics;
                let name: String = s
                    .path
                    .chars()
                    .flat_map(|c| {
                        if "&%$#_{}".contains(c) {
                            vec!['\\', c]
                        } else {
                            vec![c]
                        }
                    })
                    .collect();
                let _ = writeln!(
                    o,
                    "{} & {} & {} & {} & {} & {} \\\\",
                    name,
                    s.counts.A,
                    pct(m.precision),
                    pct(m.recall),
                    pct(m.aer),
                    pct(m.f)
                );
            }
            o.push_str("\\bottomrule\n\\end{tabular}\n");
            o
        }
        OutputFormat::Text => text(r),
    }
}

fn text(r: &AlignReport) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}", r.signature.0);
    let _ = writeln!(
        o,
        "gold: {} ({}, {} sentences, {} sure + {} possible-only links)",
        r.gold.path,
        r.gold.format,
        r.gold.sentences,
        r.gold.sure,
        r.gold.possible - r.gold.sure
    );
    let _ = writeln!(
        o,
        "conventions: F alpha {}, NULL links {}\n",
        r.conventions.f_alpha, r.conventions.null_links
    );
    let head = [
        "system", "links", "P", "R", "AER", "F", "sure P", "sure R", "poss. P", "poss. R", "A∩S",
        "A∩P",
    ];
    let mut rows: Vec<Vec<String>> = vec![head.iter().map(|s| s.to_string()).collect()];
    for s in &r.systems {
        let m = &s.metrics;
        rows.push(vec![
            s.path.clone(),
            s.counts.A.to_string(),
            pct(m.precision),
            pct(m.recall),
            pct(m.aer),
            pct(m.f),
            pct(m.sure.precision),
            pct(m.sure.recall),
            pct(m.possible.precision),
            pct(m.possible.recall),
            s.counts.A_and_S.to_string(),
            s.counts.A_and_P.to_string(),
        ]);
    }
    o.push_str(&table(&rows, 1));
    for s in &r.systems {
        let d = &s.details;
        if d.hyp_null + d.hyp_duplicates + d.hyp_both > 0 {
            let _ = writeln!(
                o,
                "\n{}: {} link(s) with a NULL side ({}), {} repeated link(s), {} link(s) tagged both S and P",
                s.path,
                d.hyp_null,
                r.conventions.null_links,
                d.hyp_duplicates,
                d.hyp_both
            );
        }
    }
    for c in &r.comparisons {
        let _ = writeln!(
            o,
            "\n{} [{}] vs [{}], {}: difference {:+.4}, p = {:.4}{}",
            c.metric,
            c.a + 1,
            c.b + 1,
            c.test.name(),
            c.statistic,
            c.p_value,
            if c.significant { " †" } else { "" }
        );
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(
            o,
            "\n{} warning(s); see stderr or the JSON report",
            r.warnings.len()
        );
    }
    o
}

/// `aer.py`'s output: the line `{path}: {AER}% ({precision}%/{recall}%/{links})`, one
/// decimal, and with `--fAlpha` (`f_alpha` given) the line `F-Measure: {F:.3}`.
///
/// `Err` where aer.py stops with a ZeroDivisionError and prints nothing: no hypothesis
/// link, no sure gold link, or (with `--fAlpha`) a precision or recall of 0.
pub fn compat_aer_py(s: &AlignSystem, f_alpha: Option<f64>) -> Result<String, String> {
    let c = &s.counts;
    let crash = |why: &str| {
        Err(format!(
            "{}: aer.py stops with ZeroDivisionError here ({why}) and prints no score",
            s.path
        ))
    };
    let (Some(p), Some(r), Some(aer)) = (s.metrics.precision, s.metrics.recall, s.metrics.aer)
    else {
        return crash(if c.A == 0 {
            "the hypothesis has no link"
        } else {
            "the gold has no sure link"
        });
    };
    let mut o = format!(
        "{}: {:.1}% ({:.1}%/{:.1}%/{})\n",
        s.path,
        aer * 100.0,
        p * 100.0,
        r * 100.0,
        c.A
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

/// The output of the WPT scorer `wa_eval_align.pl`, as it computes it: its "SURE" block
/// scores the hypothesis links tagged S (or untagged); its "PROBABLE" block iterates over
/// the P-tagged and then the S-tagged hypothesis links, so a link tagged both counts
/// twice, and divides recall by |S| + |gold links tagged P| (a gold link tagged both
/// counts twice there too); an empty hypothesis gets AER 0 and an undefined ratio 0.
/// The caller warns where these differ from the report's numbers.
pub fn compat_wa_eval(d: &AlignCounts) -> String {
    let div = |n: u64, m: u64| if m == 0 { 0.0 } else { n as f64 / m as f64 };
    let f = |p: f64, r: f64| {
        if p != 0.0 && r != 0.0 {
            2.0 * r * p / (r + p)
        } else {
            0.0
        }
    };
    // |S-tagged| + |P-tagged| submitted links, and the two matches of its loops
    let submitted = d.a + d.hyp_both;
    let probable_match = d.a_and_p + d.hyp_both_and_p;
    let probable_match_sure = d.a_and_s + d.hyp_both_and_s;
    let sp = div(d.hyp_sure_and_s, d.hyp_sure);
    let sr = div(d.hyp_sure_and_s, d.s);
    let pp = div(probable_match, submitted);
    let pr = div(probable_match, d.s + d.gold_possible_only + d.gold_both);
    let aer = if submitted == 0 {
        0.0
    } else {
        1.0 - (probable_match_sure + probable_match) as f64 / (submitted + d.s) as f64
    };
    let mut o = String::new();
    o.push_str("\nThe following results assume correct file formats.\n");
    o.push_str("Make sure you have previously checked the file format\n");
    o.push_str("using wa_check_submission.pl\n\n");
    o.push_str("\n    Word Alignment Evaluation   \n");
    o.push_str("----------------------------------\n");
    o.push_str("   Evaluation of SURE alignments \n");
    let _ = writeln!(o, "   Precision = {sp:5.4}  ");
    let _ = writeln!(o, "   Recall    = {sr:5.4}");
    let _ = writeln!(o, "   F-measure = {:5.4}", f(sp, sr));
    o.push_str("-----------------------------------\n");
    o.push_str("   Evaluation of PROBABLE alignments\n");
    let _ = writeln!(o, "   Precision = {pp:5.4}");
    let _ = writeln!(o, "   Recall    = {pr:5.4}");
    let _ = writeln!(o, "   F-measure = {:5.4}", f(pp, pr));
    o.push_str("-----------------------------------\n");
    let _ = writeln!(o, "   AER       = {aer:5.4}");
    o
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
        let s = AlignSystem::new("test.enfr.talp", "pharaoh", &c, 0.5);
        assert_eq!(
            compat_aer_py(&s, None).unwrap(),
            "test.enfr.talp: 8.0% (91.4%/92.9%/6069)\n"
        );
        // aer.py's --fAlpha line: 1 / (0.5/P + 0.5/R), three decimals
        assert_eq!(
            compat_aer_py(&s, Some(0.5)).unwrap(),
            "test.enfr.talp: 8.0% (91.4%/92.9%/6069)\nF-Measure: 0.921\n"
        );
        let none = AlignSystem::new(
            "h",
            "pharaoh",
            &AlignCounts {
                s: 3,
                ..AlignCounts::default()
            },
            0.5,
        );
        assert!(compat_aer_py(&none, None)
            .unwrap_err()
            .contains("ZeroDivisionError"));
        let w = compat_wa_eval(&c);
        assert!(w.contains("   AER       = 0.0799\n"), "{w}");
        assert!(w.contains("   Precision = 0.6181  \n"), "{w}");
    }

    #[test]
    fn wa_eval_counts_as_the_script_does() {
        // the script prints AER 0 for an empty hypothesis
        let c = AlignCounts {
            s: 3,
            p: 3,
            ..AlignCounts::default()
        };
        assert!(compat_wa_eval(&c).ends_with("   AER       = 0.0000\n"));
        // one hypothesis link tagged S and P against one sure gold link: the script's
        // PROBABLE loop counts it twice (wa_eval_align.pl on gold `1 1 1 S` and hypothesis
        // `1 1 1 S` + `1 1 1 P` prints recall 2.0000 and AER -0.3333)
        let c = AlignCounts {
            a: 1,
            s: 1,
            p: 1,
            a_and_s: 1,
            a_and_p: 1,
            hyp_sure: 1,
            hyp_sure_and_s: 1,
            hyp_possible: 1,
            hyp_both: 1,
            hyp_both_and_p: 1,
            hyp_both_and_s: 1,
            ..AlignCounts::default()
        };
        let w = compat_wa_eval(&c);
        assert!(w.contains("   Recall    = 2.0000\n"), "{w}");
        assert!(w.ends_with("   AER       = -0.3333\n"), "{w}");
    }

    #[test]
    fn undefined_is_n_a_in_text() {
        assert_eq!(pct(None), "n/a");
        assert_eq!(pct(Some(0.5)), "50.00");
    }
}
