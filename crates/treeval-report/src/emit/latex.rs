//! LaTeX `tabular`s (booktabs), with intervals in the cells and the tests' cross-tables.

use std::io::{self, Write};

use super::{ci_note, matrix_heading, matrix_rows, shown};
use crate::value::Report;

/// `s` with LaTeX's special characters escaped.
pub(crate) fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => o.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                o.push('\\');
                o.push(c);
            }
            '~' => o.push_str("\\textasciitilde{}"),
            '^' => o.push_str("\\textasciicircum{}"),
            '†' => o.push_str("$^\\dagger$"),
            '−' => o.push_str("$-$"),
            'α' => o.push_str("$\\alpha$"),
            _ => o.push(c),
        }
    }
    o
}

fn tabular(w: &mut dyn Write, left: usize, rows: &[Vec<String>]) -> io::Result<()> {
    let n = rows.first().map_or(0, Vec::len);
    writeln!(
        w,
        "\\begin{{tabular}}{{{}{}}}\n\\toprule",
        "l".repeat(left),
        "r".repeat(n.saturating_sub(left))
    )?;
    for (i, r) in rows.iter().enumerate() {
        writeln!(w, "{} \\\\", r.join(" & "))?;
        if i == 0 {
            writeln!(w, "\\midrule")?;
        }
    }
    writeln!(w, "\\bottomrule\n\\end{{tabular}}")
}

/// The signature and every input (a system's under its name), as `%` comments.
fn header(r: &Report, w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "% {}", r.signature.0)?;
    for i in super::inputs_shown(r) {
        // a comment: a line break in a path would end it
        let path = i.path.replace(['\n', '\r'], " ");
        writeln!(w, "% {}: {path}", i.who)?;
    }
    Ok(())
}

pub(super) fn emit(r: &Report, w: &mut dyn Write) -> io::Result<()> {
    header(r, w)?;
    for s in &r.sections {
        writeln!(w)?;
        if !s.title.is_empty() {
            writeln!(w, "% {}", s.title)?;
        }
        let mut head = vec!["System".to_string()];
        head.extend(s.key.as_deref().map(esc));
        head.extend(s.columns.iter().map(|c| esc(c)));
        let mut rows = vec![head];
        for row in &s.rows {
            let mut cells = vec![esc(r.system_name(row.system))];
            if s.key.is_some() {
                cells.push(esc(row.key.as_deref().unwrap_or("")));
            }
            for c in &row.cells {
                let kind = r.measure(&c.measure).map(|m| m.kind);
                let kind = kind.unwrap_or(treeval_metrics::measure::Kind::Fraction);
                let mut v = shown(kind, c.value);
                if let Some(m) = &c.mark {
                    v.push_str(&esc(m));
                }
                if let Some([lo, hi]) = c.ci {
                    v.push_str(&format!(
                        " {{\\scriptsize [{}, {}]}}",
                        shown(kind, Some(lo)),
                        shown(kind, Some(hi))
                    ));
                }
                cells.push(v);
            }
            rows.push(cells);
        }
        tabular(w, 1 + usize::from(s.key.is_some()), &rows)?;
    }
    legend(r, w)?;
    for m in &r.matrices {
        writeln!(w, "\n% {}", matrix_heading(r, m))?;
        let rows: Vec<Vec<String>> = matrix_rows(m)
            .iter()
            .map(|row| row.iter().map(|c| esc(c)).collect())
            .collect();
        tabular(w, 1, &rows)?;
    }
    if let Some(note) = ci_note(r) {
        writeln!(w, "% {note}")?;
    }
    for l in &r.listings {
        writeln!(w, "\n% {}", super::listing_heading(r, l))?;
        if l.rows.is_empty() {
            continue;
        }
        let rows: Vec<Vec<String>> = super::listing_rows(l)
            .iter()
            .map(|row| row.iter().map(|c| esc(c)).collect())
            .collect();
        tabular(w, rows[0].len(), &rows)?;
    }
    let escaped = |rows: &[Vec<String>]| -> Vec<Vec<String>> {
        rows.iter()
            .map(|row| row.iter().map(|c| esc(c)).collect())
            .collect()
    };
    for b in super::test_blocks(r) {
        writeln!(w)?;
        for h in &b.heading {
            writeln!(w, "% {h}")?;
        }
        tabular(w, 2, &escaped(&b.rows))?;
        if let Some((what, ranks)) = b.ranks {
            writeln!(w, "% {what}")?;
            tabular(w, 1, &escaped(&ranks))?;
        }
    }
    for n in r.notes.iter().filter(|n| !in_legend(r, n)) {
        writeln!(w, "% {n}")?;
    }
    Ok(())
}

/// Whether note `n` is a legend line (set under the tables; `:` ends it as a note).
fn in_legend(r: &Report, n: &str) -> bool {
    r.legend
        .iter()
        .any(|l| n == l || n.strip_suffix(':') == Some(l))
}

/// The legend under the tables, a paragraph that renders: `\par\smallskip{\footnotesize
/// † significantly different from …\par}`.
fn legend(r: &Report, w: &mut dyn Write) -> io::Result<()> {
    if r.legend.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = r.legend.iter().map(|l| format!("{}.", esc(l))).collect();
    writeln!(
        w,
        "\\par\\smallskip{{\\footnotesize {}\\par}}",
        lines.join("\\par ")
    )
}
