//! Output formats, and the text pieces the reports not yet on the shared model (`ud`,
//! `brackets`, `ted`) still share. They format; they never compute scores.

use std::fmt::Write as _;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Aligned tables for people.
    Text,
    /// The versioned JSON contract.
    Json,
    /// Long-format CSV: one row per (system, section, key, metric).
    Csv,
    /// The same as tab-separated values.
    Tsv,
    /// Markdown tables.
    Markdown,
    /// A LaTeX `tabular` (booktabs).
    Latex,
}

pub(crate) use crate::emit::{pct, table};

/// The `--by` tables of one system: gold-side words, LAS, UAS, LA per group, and the
/// system side where there is one.
pub(crate) fn by_tables(
    o: &mut String,
    path: &str,
    by: &std::collections::BTreeMap<String, Vec<crate::model::GroupRow>>,
) {
    by_tables_with(o, path, by, pct);
}

/// [`by_tables`] with `cell` formatting each score (`deps` shows `n/a` where a group
/// has no words on one side).
fn by_tables_with(
    o: &mut String,
    path: &str,
    by: &std::collections::BTreeMap<String, Vec<crate::model::GroupRow>>,
    cell: fn(Option<f64>) -> String,
) {
    for (key, groups) in by {
        let _ = writeln!(o, "\nby {key}: {path}");
        let sys_side = groups.iter().any(|g| g.system_words.is_some());
        let mut head = vec![
            key.clone(),
            "words".into(),
            "LAS".into(),
            "UAS".into(),
            "LA".into(),
        ];
        if sys_side {
            head.push("sys words".into());
            head.push("sys LAS".into());
        }
        let mut rows = vec![head];
        for g in groups {
            let mut row = vec![
                g.group.clone(),
                g.words.to_string(),
                cell(g.LAS),
                cell(g.UAS),
                cell(g.LA),
            ];
            if sys_side {
                row.push(g.system_words.unwrap_or(0).to_string());
                row.push(cell(g.system_LAS));
            }
            rows.push(row);
        }
        o.push_str(&table(&rows, 1));
    }
}

/// Each system's bootstrap intervals, then every pairwise test, one line each; `what`
/// names the tested statistic after the metric (" F1" for `ud`, empty for `brackets`).
pub(crate) fn significance_lines<'a>(
    o: &mut String,
    intervals: impl Iterator<Item = &'a std::collections::BTreeMap<String, [f64; 2]>>,
    comparisons: &[treeval_stats::compare::Comparison],
    what: &str,
) {
    for (k, ci) in intervals.enumerate() {
        for (m, [lo, hi]) in ci {
            let _ = writeln!(
                o,
                "[{}] {m}{what} interval: {:.2} – {:.2}",
                k + 1,
                100.0 * lo,
                100.0 * hi
            );
        }
    }
    for c in comparisons {
        let _ = writeln!(
            o,
            "{}{what} [{}] vs [{}], {}: statistic {:.4}, p = {:.4}{}",
            c.metric,
            c.a + 1,
            c.b + 1,
            c.test.name(),
            c.statistic,
            c.p_value,
            if c.significant { " †" } else { "" }
        );
    }
}
