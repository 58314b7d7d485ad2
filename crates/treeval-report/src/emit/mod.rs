//! One emitter per output format over the one [`Report`] value: text, JSON, CSV/TSV,
//! Markdown, LaTeX and HTML. Each writes to any `io::Write`; none computes a score.

use std::io::{self, Write};

use treeval_metrics::measure::Kind;

use crate::render::OutputFormat;
use crate::value::{Cell, Report};

mod browser;
mod delimited;
mod html;
mod latex;
mod layout;
mod markdown;
mod plots;
mod text;

/// How a report is shown, besides its format: the output switches (`--wide`). JSON, CSV,
/// TSV, Markdown, LaTeX and HTML hold everything whatever they say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    /// Text: every column however wide (each fraction's counts beside it, ud's full
    /// table, the intervals in a table of their own), as before text fitted 100 columns.
    /// Default (`false`): one value per cell, intervals inline, every table laid out to
    /// fit 100 columns (the rule of `emit::layout`), prose wrapped.
    pub wide: bool,
}

/// Write `r` in `format` and `style` to `w`, its warnings one entry per kind
/// ([`crate::model::group_warnings`]: every format lists the same entries).
pub fn emit(r: &Report, format: OutputFormat, style: Style, w: &mut dyn Write) -> io::Result<()> {
    let grouped = crate::model::group_warnings(r.warnings.clone());
    if grouped.len() < r.warnings.len() {
        let mut g = r.clone();
        g.warnings = grouped;
        return emit_as_is(&g, format, style, w);
    }
    emit_as_is(r, format, style, w)
}

/// Write `r` in `format` to `w`, as it is.
fn emit_as_is(r: &Report, format: OutputFormat, style: Style, w: &mut dyn Write) -> io::Result<()> {
    match format {
        OutputFormat::Text => text::emit(r, style, w),
        OutputFormat::Json => json(r, w),
        OutputFormat::Csv => delimited::emit(r, ',', w),
        OutputFormat::Tsv => delimited::emit(r, '\t', w),
        OutputFormat::Markdown => markdown::emit(r, w),
        OutputFormat::Latex => latex::emit(r, w),
        OutputFormat::Html => html::emit(r, w),
    }
}

/// `r` in `format` and `style`, as a string.
pub fn to_string(r: &Report, format: OutputFormat, style: Style) -> String {
    let mut v = Vec::new();
    // writing to a Vec cannot fail
    let _ = emit(r, format, style, &mut v);
    String::from_utf8_lossy(&v).into_owned()
}

/// The conventions as one line (`profile conll07, punctuation include, …`), if any.
pub(crate) fn conventions(r: &Report) -> Option<String> {
    let c: Vec<String> = r
        .conventions
        .iter()
        .map(|c| format!("{} {}", c.name, c.value))
        .collect();
    (!c.is_empty()).then(|| c.join(", "))
}

/// One input as every format lists it: who it is (its role; a system's input with the
/// system's name: `system sys2`, `system a parser-b`), its path as given, and what it
/// holds (`conllu, 3 sentences, 21 words`). The names in the tables are short; this is
/// where each is tied to its file.
pub(crate) struct InputShown<'a> {
    /// `gold`, `system NAME`, `gold a`, …
    pub who: String,
    /// The path as given.
    pub path: &'a str,
    /// Its format and description, comma-separated (may be empty).
    pub what: String,
}

/// Every input of `r`, as [`InputShown`].
pub(crate) fn inputs_shown(r: &Report) -> Vec<InputShown<'_>> {
    r.inputs
        .iter()
        .map(|i| {
            let who = match i.system {
                Some(k) => format!("{} {}", i.role, r.system_name(k)),
                None => i.role.clone(),
            };
            let what: Vec<&str> = [i.format.as_str(), i.description.as_str()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect();
            InputShown {
                who,
                path: &i.path,
                what: what.join(", "),
            }
        })
        .collect()
}

/// The JSON contract, pretty-printed, with a final newline.
fn json(r: &Report, w: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, r)?;
    writeln!(w)
}

/// A fraction as a percentage with two decimals; `n/a` where there is nothing to
/// measure (a zero denominator), in every command's tables.
pub(crate) fn pct(x: Option<f64>) -> String {
    match x {
        Some(v) => format!("{:.2}", v * 100.0),
        None => "n/a".into(),
    }
}

/// A value as its measure's kind shows it.
pub(crate) fn shown(kind: Kind, x: Option<f64>) -> String {
    match (kind, x) {
        (_, None) => "n/a".into(),
        (Kind::Fraction, v) => pct(v),
        (Kind::Count, Some(v)) => format!("{v}"),
        (Kind::Mean, Some(v)) => format!("{v:.2}"),
    }
}

/// A cell's value as shown, with `[low, high]` when it has an interval.
pub(crate) fn shown_with_ci(r: &Report, c: &Cell) -> String {
    let kind = r.measure(&c.measure).map_or(Kind::Fraction, |m| m.kind);
    let mut v = shown(kind, c.value);
    v.push_str(c.mark.as_deref().unwrap_or(""));
    match c.ci {
        Some([lo, hi]) => format!("{v} [{}, {}]", shown(kind, Some(lo)), shown(kind, Some(hi))),
        None => v,
    }
}

/// The note that explains the intervals in the cells, `[low, high]: 95% percentile
/// bootstrap confidence intervals`, when the report has intervals.
pub(crate) fn ci_note(r: &Report) -> Option<String> {
    let level = r.significance.as_ref().and_then(|s| s.ci_level)?;
    Some(format!(
        "[low, high]: {:.0}% percentile bootstrap confidence intervals",
        level * 100.0
    ))
}

/// The counts a fraction was computed from, `16/21`.
pub(crate) fn counts(c: &Cell) -> String {
    c.counts
        .iter()
        .map(|x| format!("{x}"))
        .collect::<Vec<_>>()
        .join("/")
}

/// Aligned columns: the first `right_from` left-aligned, the rest right-aligned.
pub(crate) fn table(rows: &[Vec<String>], right_from: usize) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut w = vec![0; cols];
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (i, c) in r.iter().enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let pad = w[i] - c.chars().count();
            if i >= right_from {
                line.push_str(&" ".repeat(pad));
                line.push_str(c);
            } else {
                line.push_str(c);
                line.push_str(&" ".repeat(pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A matrix as rows of strings: a header (`gold \ system`, column labels) and a row per
/// row label with its counts.
pub(crate) fn matrix_rows(m: &crate::value::Matrix) -> Vec<Vec<String>> {
    let mut head = vec![format!("{} \\ {}", m.rows_are, m.columns_are)];
    head.extend(m.columns.iter().cloned());
    let mut rows = vec![head];
    for (label, counts) in m.rows.iter().zip(&m.counts) {
        let mut row = vec![label.clone()];
        row.extend(counts.iter().map(u64::to_string));
        rows.push(row);
    }
    rows
}

/// A listing as rows of strings: its columns, then its rows.
pub(crate) fn listing_rows(l: &crate::value::Listing) -> Vec<Vec<String>> {
    std::iter::once(l.columns.clone())
        .chain(l.rows.iter().cloned())
        .collect()
}

/// A listing's heading: what it lists, for which system, how many of each kind.
pub(crate) fn listing_heading(r: &Report, l: &crate::value::Listing) -> String {
    let kinds: Vec<String> = l
        .kinds
        .iter()
        .map(|k| format!("{} {}", k.count, k.kind))
        .collect();
    let name = r.system_name(l.system);
    if kinds.is_empty() && !l.rows.is_empty() {
        // a table of groups (`wrong-arcs`): its rows are not items of a kind
        return format!("{} of {name}: {} rows", l.id, l.rows.len());
    }
    let what = if kinds.is_empty() {
        "none".to_owned()
    } else {
        kinds.join(", ")
    };
    format!("{} of {name}: {} ({what})", l.id, l.rows.len())
}

/// A matrix's heading: its title and system.
pub(crate) fn matrix_heading(r: &Report, m: &crate::value::Matrix) -> String {
    format!("{}: {}", m.title, r.system_name(m.system))
}

/// How a test ran, in words, for the heading of its table.
pub(crate) fn test_heading(r: &Report, rk: &treeval_stats::compare::Ranking) -> String {
    use treeval_stats::compare::TestKind;
    let Some(sig) = &r.significance else {
        return String::new();
    };
    let exact: Vec<bool> = r
        .comparisons
        .iter()
        .filter(|c| c.metric == rk.metric && c.test == rk.test)
        .map(|c| c.exact == Some(true))
        .collect();
    let how = match rk.test {
        TestKind::Mcnemar => "McNemar".to_string(),
        TestKind::Ar if !exact.is_empty() && exact.iter().all(|&e| e) => {
            "exact permutation test: at most 16 sentences differ, all 2^m swaps enumerated"
                .to_string()
        }
        TestKind::Ar => format!(
            "approximate randomization, {} shuffles, seed {}{}",
            sig.ar_samples,
            sig.seed,
            if exact.iter().any(|&e| e) {
                "; exact where at most 16 sentences differ"
            } else {
                ""
            }
        ),
        TestKind::Bootstrap => format!(
            "paired bootstrap, {} samples, seed {}",
            sig.bootstrap_samples, sig.seed
        ),
    };
    let side = match sig.alternative {
        treeval_stats::Alternative::TwoSided => "two-sided",
        treeval_stats::Alternative::Greater => "one-sided: row better than column",
    };
    format!(
        "{}: {} ({}); p-values, † = significant at {} after Holm–Bonferroni",
        rk.metric, how, side, sig.alpha
    )
}

/// The cross-table of one ranking: a header row (`""`, `[2]`, …, `rank`) and a row per
/// system (`[1] name`, p-values with † where significant, its rank).
pub(crate) fn test_rows(r: &Report, rk: &treeval_stats::compare::Ranking) -> Vec<Vec<String>> {
    let n = rk.ranks.len();
    let mut head = vec![String::new()];
    head.extend((1..n).map(|j| format!("[{}]", j + 1)));
    head.push("rank".into());
    let mut rows = vec![head];
    for i in 0..n {
        let mut row = vec![format!("[{}] {}", i + 1, r.system_name(i))];
        for j in 1..n {
            let cell = r
                .comparisons
                .iter()
                .find(|c| c.metric == rk.metric && c.test == rk.test && c.a == i && c.b == j)
                .map(|c| {
                    let mut p =
                        format!("{:.4}{}", c.p_value, if c.significant { " †" } else { "" });
                    // McNemar: the discordant counts and MaltEval's z beside p
                    if let (Some(b), Some(cc)) = (c.b_count, c.c_count) {
                        p.push_str(&format!(" (b {b}, c {cc}"));
                        if let Some(z) = c.z {
                            p.push_str(&format!(", z {z:.2}"));
                        }
                        p.push(')');
                    }
                    p
                })
                .unwrap_or_default();
            row.push(cell);
        }
        row.push(rank_cell(rk.ranks[i]));
        rows.push(row);
    }
    rows
}

/// A rank as printed: the number, or `–` for a system the tests left out (no rank).
pub(crate) fn rank_cell(rank: Option<usize>) -> String {
    rank.map_or_else(|| "–".into(), |r| r.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(
            latex::esc("a_b%c&d#e$f{g}h~i^j\\"),
            "a\\_b\\%c\\&d\\#e\\$f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j\\textbackslash{}"
        );
        assert_eq!(delimited::esc("a,b", ','), "\"a,b\"");
        assert_eq!(delimited::esc("a\"b", '\t'), "\"a\"\"b\"");
        assert_eq!(delimited::esc("plain", ','), "plain");
        assert_eq!(markdown::esc("a|b"), "a\\|b");
        assert_eq!(pct(Some(0.5)), "50.00");
        assert_eq!(pct(None), "n/a");
    }
}
