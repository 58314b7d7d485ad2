//! Markdown tables, with intervals in the cells and the tests' cross-tables.

use std::io::{self, Write};

use super::{ci_note, matrix_heading, matrix_rows, shown_with_ci};
use crate::value::Report;

pub(crate) fn esc(s: &str) -> String {
    s.replace('|', "\\|")
}

fn line(w: &mut dyn Write, cells: &[String]) -> io::Result<()> {
    writeln!(w, "| {} |", cells.join(" | "))
}

fn rule(w: &mut dyn Write, left: usize, right: usize) -> io::Result<()> {
    let mut c = vec!["---"; left];
    c.extend(vec!["---:"; right]);
    writeln!(w, "|{}|", c.join("|"))
}

/// A table: its header row, a rule (`left` columns left-aligned), its rows; escaped.
fn md_table(w: &mut dyn Write, rows: &[Vec<String>], left: usize) -> io::Result<()> {
    let n = rows.first().map_or(0, Vec::len);
    for (i, row) in rows.iter().enumerate() {
        line(w, &row.iter().map(|c| esc(c)).collect::<Vec<_>>())?;
        if i == 0 {
            rule(w, left, n.saturating_sub(left))?;
        }
    }
    Ok(())
}

pub(super) fn emit(r: &Report, w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "`{}`", r.signature.0)?;
    let inputs = super::inputs_shown(r);
    if !inputs.is_empty() {
        writeln!(w)?;
    }
    for i in inputs {
        let what = if i.what.is_empty() {
            String::new()
        } else {
            format!(" ({})", esc(&i.what))
        };
        writeln!(w, "- {}: `{}`{what}", esc(&i.who), i.path.replace('`', "'"))?;
    }
    for s in &r.sections {
        writeln!(w)?;
        if !s.title.is_empty() {
            writeln!(w, "**{}**\n", esc(&s.title))?;
        }
        let mut head = vec!["system".to_string()];
        head.extend(s.key.as_deref().map(esc));
        head.extend(s.columns.iter().map(|c| esc(c)));
        line(w, &head)?;
        let left = 1 + usize::from(s.key.is_some());
        rule(w, left, s.columns.len())?;
        for row in &s.rows {
            let mut cells = vec![esc(r.system_name(row.system))];
            if s.key.is_some() {
                cells.push(esc(row.key.as_deref().unwrap_or("")));
            }
            cells.extend(row.cells.iter().map(|c| shown_with_ci(r, c)));
            line(w, &cells)?;
        }
    }
    for m in &r.matrices {
        writeln!(w, "\n**{}**\n", esc(&matrix_heading(r, m)))?;
        let rows = matrix_rows(m);
        line(w, &rows[0].iter().map(|c| esc(c)).collect::<Vec<_>>())?;
        rule(w, 1, rows[0].len() - 1)?;
        for row in &rows[1..] {
            line(w, &row.iter().map(|c| esc(c)).collect::<Vec<_>>())?;
        }
    }
    if let Some(note) = ci_note(r) {
        writeln!(w, "\n{note}.")?;
    }
    for l in &r.listings {
        writeln!(w, "\n**{}**\n", esc(&super::listing_heading(r, l)))?;
        if l.rows.is_empty() {
            continue;
        }
        let rows = super::listing_rows(l);
        line(w, &rows[0].iter().map(|c| esc(c)).collect::<Vec<_>>())?;
        rule(w, rows[0].len(), 0)?;
        for row in &rows[1..] {
            line(w, &row.iter().map(|c| esc(c)).collect::<Vec<_>>())?;
        }
    }
    for b in super::test_blocks(r) {
        let heading: Vec<String> = b.heading.iter().map(|h| esc(h)).collect();
        writeln!(w, "\n{}\n", heading.join("  \n"))?;
        md_table(w, &b.rows, 2)?;
        if let Some((what, ranks)) = b.ranks {
            writeln!(w, "\n{}\n", esc(&what))?;
            md_table(w, &ranks, 1)?;
        }
    }
    if !r.notes.is_empty() {
        writeln!(w)?;
        for n in &r.notes {
            writeln!(w, "- {}", esc(n))?;
        }
    }
    Ok(())
}
