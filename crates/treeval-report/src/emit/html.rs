//! One self-contained HTML page (`docs/html-page.md`): the signature, the inputs and
//! conventions, every section with its intervals and chart, the matrices with their
//! heatmaps, the tests' cross-tables, notes and warnings, then the sentence browser when
//! sentences were collected. Inline CSS, SVG and script only: nothing is fetched when the
//! page is viewed. Every string from the report (paths, labels, messages) is escaped.

use std::io::{self, Write};

use super::{browser, plots};
use super::{ci_note, matrix_heading, matrix_rows, shown_with_ci};
use crate::value::Report;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\
code{font-size:90%}table{border-collapse:collapse;margin:.5em 0 1.5em}\
th,td{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}\
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
.ci{display:block;font-size:80%;color:#666}\
h2{font-size:1.1em;margin-top:1.5em}.warn{color:#a40}";

/// `s` with the characters HTML gives a meaning escaped.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A table: a header row, then rows whose first `left` cells are labels (the rest numbers).
/// `attrs` go into the `<table>` tag as written (they are not from the input).
fn table(w: &mut dyn Write, attrs: &str, rows: &[Vec<String>], left: usize) -> io::Result<()> {
    let Some((head, body)) = rows.split_first() else {
        return Ok(());
    };
    write!(w, "<table{attrs}><thead><tr>")?;
    for h in head {
        write!(w, "<th>{}</th>", esc(h))?;
    }
    writeln!(w, "</tr></thead><tbody>")?;
    for row in body {
        write!(w, "<tr>")?;
        for (k, c) in row.iter().enumerate() {
            match c.split_once(" [") {
                // a number with its interval: the interval on a line of its own
                Some((x, ci)) if k >= left => write!(
                    w,
                    "<td class=\"n\">{}<span class=\"ci\"> [{}</span></td>",
                    esc(x),
                    esc(ci)
                )?,
                _ if k >= left => write!(w, "<td class=\"n\">{}</td>", esc(c))?,
                _ => write!(w, "<td>{}</td>", esc(c))?,
            }
        }
        writeln!(w, "</tr>")?;
    }
    writeln!(w, "</tbody></table>")
}

pub(super) fn emit(r: &Report, w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"
    )?;
    writeln!(w, "<title>treeval {}</title>", esc(&r.command))?;
    writeln!(
        w,
        "<style>{STYLE}{}</style>\n</head>\n<body>",
        browser::STYLE
    )?;
    writeln!(w, "<header><h1>treeval {}</h1>", esc(&r.command))?;
    writeln!(
        w,
        "<p id=\"signature\"><code>{}</code></p></header>",
        esc(&r.signature.0)
    )?;
    writeln!(w, "<section id=\"summary\">")?;
    inputs(r, w)?;
    sections(r, w)?;
    if let Some(note) = ci_note(r) {
        writeln!(w, "<p>{}.</p>", esc(&note))?;
    }
    for b in super::test_blocks(r) {
        let (title, rest) = b
            .heading
            .split_first()
            .map_or(("", &[][..]), |(t, r)| (t.as_str(), r));
        writeln!(w, "<h2>{}</h2>", esc(title))?;
        for h in rest {
            writeln!(w, "<p class=\"test-note\">{}</p>", esc(h))?;
        }
        table(w, " class=\"tests\"", &b.rows, 2)?;
        if let Some((what, ranks)) = b.ranks {
            writeln!(w, "<p class=\"test-note\">{}</p>", esc(&what))?;
            table(w, " class=\"tests ranks\"", &ranks, 1)?;
        }
    }
    for l in &r.listings {
        writeln!(w, "<h2>{}</h2>", esc(&super::listing_heading(r, l)))?;
        let attrs = format!(" class=\"listing\" data-listing=\"{}\"", esc(&l.id));
        table(w, &attrs, &super::listing_rows(l), usize::MAX)?;
    }
    list(w, " class=\"notes\"", r.notes.iter().cloned())?;
    list(w, " class=\"warn\"", r.warnings.iter().map(warning))?;
    writeln!(w, "</section>")?;
    if let Some(b) = &r.browser {
        browser::emit(b, w)?;
    }
    writeln!(w, "</body>\n</html>")
}

/// The inputs table and the conventions.
fn inputs(r: &Report, w: &mut dyn Write) -> io::Result<()> {
    let mut rows = vec![vec![
        "role".into(),
        "file".into(),
        "format".into(),
        "".into(),
    ]];
    rows.extend(r.inputs.iter().map(|i| {
        vec![
            i.role.clone(),
            i.path.clone(),
            i.format.clone(),
            i.description.clone(),
        ]
    }));
    table(w, " id=\"inputs\"", &rows, 4)?;
    if let Some(c) = super::conventions(r) {
        writeln!(w, "<p id=\"conventions\">conventions: {}</p>", esc(&c))?;
    }
    Ok(())
}

/// Every section's table (with its chart), then every matrix (with its heatmap).
fn sections(r: &Report, w: &mut dyn Write) -> io::Result<()> {
    for s in &r.sections {
        if !s.title.is_empty() {
            writeln!(w, "<h2>{}</h2>", esc(&s.title))?;
        }
        let mut head = vec!["system".to_string()];
        head.extend(s.key.clone());
        head.extend(s.columns.iter().cloned());
        let mut rows = vec![head];
        for row in &s.rows {
            let mut cells = vec![r.system_name(row.system).to_string()];
            if s.key.is_some() {
                cells.push(row.key.clone().unwrap_or_default());
            }
            cells.extend(row.cells.iter().map(|c| shown_with_ci(r, c)));
            rows.push(cells);
        }
        let attrs = format!(" class=\"report\" data-section=\"{}\"", esc(&s.id));
        table(w, &attrs, &rows, 1 + usize::from(s.key.is_some()))?;
        if let Some(c) = plots::section_chart(r, s) {
            figure(w, "chart", &s.id, &c)?;
        }
    }
    for m in &r.matrices {
        writeln!(w, "<h2>{}</h2>", esc(&matrix_heading(r, m)))?;
        table(w, " class=\"matrix\"", &matrix_rows(m), 1)?;
        if let Some(c) = plots::matrix_chart(r, m) {
            figure(w, "chart heatmap", &m.id, &c)?;
        }
    }
    Ok(())
}

/// A chart (made by [`plots`], its strings escaped there) with its caption.
pub(super) fn figure(
    w: &mut dyn Write,
    class: &str,
    id: &str,
    chart: &plots::Chart,
) -> io::Result<()> {
    writeln!(
        w,
        "<figure class=\"{class}\" data-section=\"{}\">{}<figcaption>{}</figcaption></figure>",
        esc(id),
        chart.svg,
        esc(&chart.caption)
    )
}

/// A warning as one line.
fn warning(x: &crate::model::Warning) -> String {
    let at = if x.position.is_empty() {
        String::new()
    } else {
        format!("{}: ", x.position)
    };
    let hint = x
        .hint
        .as_deref()
        .map(|h| format!(" (hint: {h})"))
        .unwrap_or_default();
    let count = if x.count > 1 {
        format!(" ({} warnings of this kind)", x.count)
    } else {
        String::new()
    };
    format!("warning: {at}{}{hint}{count}", x.message)
}

/// A bulleted list of `items` (nothing when there is none).
fn list(w: &mut dyn Write, class: &str, items: impl Iterator<Item = String>) -> io::Result<()> {
    let items: Vec<String> = items.collect();
    if items.is_empty() {
        return Ok(());
    }
    writeln!(w, "<ul{class}>")?;
    for i in items {
        writeln!(w, "<li>{}</li>", esc(&i))?;
    }
    writeln!(w, "</ul>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Signature, Warning};
    use crate::value::{Input, System};

    #[test]
    fn every_report_string_is_escaped_and_the_page_is_self_contained() {
        let mut r = Report::new("deps", Signature::new("deps", &[("labels", "full".into())]));
        let evil = "<script>alert(1)</script>";
        r.inputs.push(Input {
            role: "system".into(),
            path: format!("{evil}.conllu"),
            format: "conllu".into(),
            description: "a & b".into(),
            counts: serde_json::Value::Null,
            system: Some(0),
        });
        r.systems.push(System {
            name: evil.into(),
            inputs: vec![0],
        });
        r.notes.push(format!("FORM {evil}"));
        r.warnings.push(Warning::new(
            "x.conllu:1:1",
            "\"quoted\" 'single'",
            Some(evil.into()),
        ));
        let mut out = Vec::new();
        emit(&r, &mut out).unwrap();
        let page = String::from_utf8(out).unwrap();
        assert!(!page.contains("<script"), "{page}");
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;.conllu"));
        assert!(page.contains("a &amp; b"));
        assert!(page.contains("&quot;quoted&quot; &#39;single&#39;"));
        // one page, nothing fetched: no script, no external reference
        assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
        for fetch in ["src=", "href=", "@import", "url("] {
            assert!(!page.contains(fetch), "{fetch} in the page");
        }
    }
}
