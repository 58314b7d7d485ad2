//! One self-contained HTML page (`docs/html-page.md`): the signature, the inputs and
//! conventions, every section with its intervals and chart, the matrices with their
//! heatmaps, the tests' cross-tables, notes and warnings, then the sentence browser when
//! sentences were collected. Inline CSS, SVG and script only: nothing is fetched when the
//! page is viewed. Every string from the report (paths, labels, messages) is escaped.

use std::io::{self, Write};

use super::{browser, plots};
use super::{ci_note, matrix_heading, shown_with_ci};
use crate::value::Report;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\
code{font-size:90%;overflow-wrap:anywhere}table{border-collapse:collapse;margin:.5em 0 1.5em}\
th,td{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}\
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
.ci{display:block;font-size:80%;color:#666}\
h2{font-size:1.1em;margin-top:1.5em;overflow-wrap:anywhere}.warn{color:#a40}\
p,li{overflow-wrap:anywhere}\
.scroll-x{overflow-x:auto;max-width:100%}.scroll-x>table{margin-bottom:.5em}\
.scroll-x{margin-bottom:1em}td.path{overflow-wrap:anywhere;min-width:12em;max-width:40em}\
figure.chart{margin:1em 0;overflow-x:auto;max-width:100%}\
table.matrix caption{caption-side:bottom;min-width:24em;text-align:left;font-size:85%;color:#555;padding-top:.3em}\
table.matrix td.count{text-align:right;font-variant-numeric:tabular-nums;\
background:rgb(230 159 0/calc(var(--shade,0)*.85))}\
table.matrix td.count.diagonal{background:rgb(0 114 178/calc(var(--shade,0)*.7));\
outline:1px solid #0072b2;outline-offset:-1px;font-weight:600}";

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
    write!(w, "<div class=\"scroll-x\"><table{attrs}><thead><tr>")?;
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
    writeln!(w, "</tbody></table></div>")
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
        let mut rows = b.rows;
        // the measure's column, unnamed in the other formats' test tables
        if let Some(h) = rows.first_mut().and_then(|h| h.first_mut()) {
            if h.is_empty() {
                *h = "measure".into();
            }
        }
        table(w, " class=\"tests\"", &rows, 2)?;
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

/// The inputs table (each input's system by name, role, path, format and what it holds)
/// and the conventions. A path wraps anywhere, so a long one does not widen the page.
fn inputs(r: &Report, w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "<div class=\"scroll-x\"><table id=\"inputs\"><thead><tr><th>system</th><th>role</th>\
         <th>file</th><th>format</th><th>description</th></tr></thead><tbody>"
    )?;
    for i in &r.inputs {
        // an input of no system (the gold) is named by its role
        let name = i.system.map_or("—", |k| r.system_name(k));
        writeln!(
            w,
            "<tr><td>{}</td><td>{}</td><td class=\"path\">{}</td><td>{}</td><td>{}</td></tr>",
            esc(name),
            esc(&i.role),
            esc(&i.path),
            esc(&i.format),
            esc(&i.description)
        )?;
    }
    writeln!(w, "</tbody></table></div>")?;
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
        matrix(w, m)?;
        if let Some(c) = plots::matrix_chart(r, m) {
            figure(w, "chart heatmap", &m.id, &c)?;
        }
    }
    Ok(())
}

/// A confusion matrix as a heatmap table: every count printed in its cell, the cell shaded
/// (`--shade` from 0 to 1) by its share of its row: a diagonal cell (row and column the same
/// label; another colour, outlined) of the row's total, any other cell of the row's
/// confusions (the total without the diagonal); a caption says so. The colour is
/// decoration: the count is the cell's text.
fn matrix(w: &mut dyn Write, m: &crate::value::Matrix) -> io::Result<()> {
    write!(
        w,
        "<div class=\"scroll-x\"><table class=\"matrix\" data-matrix=\"{}\"><caption>shade: on the diagonal (the same label in row and \
         column; blue, outlined) the count's share of its row, elsewhere (orange) its share of the \
         row's confusions (the row's total without the diagonal); each cell prints its \
         count</caption><thead><tr><th>{}</th>",
        esc(&m.id),
        esc(&format!("{} \\ {}", m.rows_are, m.columns_are)),
    )?;
    for c in &m.columns {
        write!(w, "<th>{}</th>", esc(c))?;
    }
    writeln!(w, "</tr></thead><tbody>")?;
    for (label, counts) in m.rows.iter().zip(&m.counts) {
        write!(w, "<tr><th scope=\"row\">{}</th>", esc(label))?;
        let total: u64 = counts.iter().sum();
        let same = |k: usize| m.columns.get(k) == Some(label);
        let right: u64 = (counts.iter().enumerate().filter(|&(k, _)| same(k)))
            .map(|(_, n)| n)
            .sum();
        for (k, &n) in counts.iter().enumerate() {
            let class = if same(k) { "count diagonal" } else { "count" };
            if n == 0 {
                write!(w, "<td class=\"{class}\">0</td>")?;
            } else {
                // the diagonal: its share of the row; a confusion: its share of the row's
                // confusions (next to a large diagonal they would all be near 0)
                let of = if same(k) { total } else { total - right };
                let shade = n as f64 / of as f64;
                write!(
                    w,
                    "<td class=\"{class}\" style=\"--shade:{shade:.3}\">{n}</td>"
                )?;
            }
        }
        writeln!(w, "</tr>")?;
    }
    writeln!(w, "</tbody></table></div>")
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

    #[test]
    fn a_confusion_matrix_is_a_heatmap_table_with_its_counts() {
        let m = crate::value::Matrix {
            id: "confusion".into(),
            title: "label confusions".into(),
            system: 0,
            rows_are: "gold".into(),
            columns_are: "system".into(),
            rows: vec!["nsubj".into(), "obj".into()],
            columns: vec!["nsubj".into(), "obj".into(), "(other)".into()],
            counts: vec![vec![6, 3, 1], vec![0, 0, 4]],
        };
        let mut out = Vec::new();
        matrix(&mut out, &m).unwrap();
        let page = String::from_utf8(out).unwrap();
        // the corner is labelled, every label is a header cell
        assert!(page.contains("<th>gold \\ system</th><th>nsubj</th><th>obj</th><th>(other)</th>"));
        assert!(!page.contains("<th></th>"), "{page}");
        // the diagonal by its share of the row (6 of 10), a confusion by its share of the
        // row's confusions (3 of 4), a 0 unshaded; every count is the cell's text
        let row = |label: &str| {
            let a = page
                .find(&format!("<th scope=\"row\">{label}</th>"))
                .unwrap();
            page[a..a + page[a..].find("</tr>").unwrap()].to_string()
        };
        assert_eq!(
            row("nsubj"),
            "<th scope=\"row\">nsubj</th><td class=\"count diagonal\" style=\"--shade:0.600\">6</td>\
             <td class=\"count\" style=\"--shade:0.750\">3</td>\
             <td class=\"count\" style=\"--shade:0.250\">1</td>"
        );
        assert_eq!(
            row("obj"),
            "<th scope=\"row\">obj</th><td class=\"count\">0</td>\
             <td class=\"count diagonal\">0</td>\
             <td class=\"count\" style=\"--shade:1.000\">4</td>"
        );
        assert!(page.contains("<caption>shade: on the diagonal"));
    }
}
