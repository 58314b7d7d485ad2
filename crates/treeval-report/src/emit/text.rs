//! Aligned tables for people.

use std::io::{self, Write};

use treeval_metrics::measure::Kind;

use super::{counts, listing_heading, matrix_heading, matrix_rows, shown, table};
use crate::value::{MeasureInfo, Report, Section};

pub(super) fn emit(r: &Report, w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "{}", r.signature.0)?;
    for i in r.inputs.iter().filter(|i| i.system.is_none()) {
        let mut what = i.format.clone();
        if !i.description.is_empty() {
            if !what.is_empty() {
                what.push_str(", ");
            }
            what.push_str(&i.description);
        }
        writeln!(w, "{}: {} ({what})", i.role, i.path)?;
    }
    if let Some(c) = super::conventions(r) {
        writeln!(w, "conventions: {c}")?;
    }
    for s in &r.sections {
        writeln!(w)?;
        if !s.title.is_empty() {
            writeln!(w, "{}", s.title)?;
        }
        w.write_all(section(r, s).as_bytes())?;
    }
    for m in &r.matrices {
        writeln!(w, "\n{}", matrix_heading(r, m))?;
        w.write_all(table(&matrix_rows(m), 1).as_bytes())?;
    }
    intervals(r, w)?;
    for l in &r.listings {
        writeln!(w, "\n{}", listing_heading(r, l))?;
        if !l.rows.is_empty() {
            w.write_all(table(&crate::errors::text_rows(l), usize::MAX).as_bytes())?;
        }
    }
    if !r.notes.is_empty() {
        writeln!(w)?;
        for n in &r.notes {
            writeln!(w, "{n}")?;
        }
    }
    for mut b in super::test_blocks(r) {
        writeln!(w, "\n{}", b.heading.join("\n"))?;
        super::align_marks(&mut b.rows, 5);
        w.write_all(super::test_text(&b.rows).as_bytes())?;
        if let Some((what, ranks)) = b.ranks {
            writeln!(w, "{what}")?;
            w.write_all(table(&ranks, 1).as_bytes())?;
        }
    }
    if !r.warnings.is_empty() {
        writeln!(
            w,
            "\n{} warning(s); see stderr or the JSON report",
            r.warnings.iter().map(|x| x.count).sum::<u64>()
        )?;
    }
    Ok(())
}

/// One section as an aligned table: system, key, then each measure (and its counts).
fn section(r: &Report, s: &Section) -> String {
    let infos: Vec<Option<&MeasureInfo>> = s.columns.iter().map(|c| r.measure(c)).collect();
    let kinds: Vec<Kind> = infos
        .iter()
        .map(|m| m.map_or(Kind::Fraction, |m| m.kind))
        .collect();
    // a fraction's counts (`16/21`) beside it, when they are few enough to read and
    // counts of items (a `sum_…` column sums per-unit scores: not shown)
    let with_counts = |k: usize| {
        s.show_counts
            && kinds[k] == Kind::Fraction
            && infos[k].is_some_and(|m| {
                m.reads.len() <= 4 && !m.reads.iter().any(|c| c.starts_with("sum_"))
            })
    };
    let mut head = vec!["system".to_string()];
    head.extend(s.key.clone());
    for (k, c) in s.columns.iter().enumerate() {
        head.push(c.clone());
        if with_counts(k) {
            head.push(infos[k].map_or(String::new(), |m| m.reads.join("/")));
        }
    }
    let mut rows = vec![head];
    for row in &s.rows {
        let mut line = vec![r.system_name(row.system).to_string()];
        if s.key.is_some() {
            line.push(row.key.clone().unwrap_or_default());
        }
        for (k, c) in row.cells.iter().enumerate() {
            let mark = c.mark.as_deref().unwrap_or("");
            line.push(format!("{}{mark}", shown(kinds[k], c.value)));
            if with_counts(k) {
                // n/a alone: its counts (a zero denominator, or a column left empty) are
                // in the JSON
                line.push(if c.value.is_some() {
                    counts(c)
                } else {
                    String::new()
                });
            }
        }
        rows.push(line);
    }
    table(&rows, 1 + usize::from(s.key.is_some()))
}

/// The confidence intervals of every cell that has one.
fn intervals(r: &Report, w: &mut dyn Write) -> io::Result<()> {
    let Some(level) = r.significance.as_ref().and_then(|s| s.ci_level) else {
        return Ok(());
    };
    let Some(sig) = &r.significance else {
        return Ok(());
    };
    // where a cell is: its section and key, when there is more than one place
    let places = r.sections.len() > 1 || r.sections.iter().any(|s| s.key.is_some());
    let mut head = vec!["system".to_string()];
    if places {
        head.push("section".into());
    }
    head.extend(["measure".into(), "score".into(), "interval".into()]);
    let mut rows = vec![head];
    for s in &r.sections {
        for row in &s.rows {
            for c in &row.cells {
                if let Some([lo, hi]) = c.ci {
                    let mut line = vec![r.system_name(row.system).to_string()];
                    if places {
                        let mut where_ = s.id.clone();
                        if let Some(k) = &row.key {
                            where_.push_str(&format!(" {k}"));
                        }
                        line.push(where_);
                    }
                    let kind = r.measure(&c.measure).map_or(Kind::Fraction, |m| m.kind);
                    line.extend([
                        c.measure.clone(),
                        shown(kind, c.value),
                        format!("[{}, {}]", shown(kind, Some(lo)), shown(kind, Some(hi))),
                    ]);
                    rows.push(line);
                }
            }
        }
    }
    writeln!(
        w,
        "\n{:.0}% bootstrap confidence intervals ({} samples, seed {}, percentile)",
        level * 100.0,
        sig.ci_samples,
        sig.seed
    )?;
    if rows.len() == 1 {
        return writeln!(
            w,
            "(no score with an interval: nothing varies or nothing is defined)"
        );
    }
    w.write_all(table(&rows, rows[0].len() - 2).as_bytes())
}
