//! Long-format CSV and TSV: one line per input (section `inputs`: its role, system name
//! and path), one per cell (signature, section, system, key, measure,
//! value, counts, interval), one per matrix cell (key = row label, measure = column
//! label), one per listing cell (key = row number, measure = column), then one per test
//! result and rank.

use std::io::{self, Write};

use super::counts;
use crate::value::Report;

/// `s` quoted where it holds the delimiter, a quote or a line break.
pub(crate) fn esc(s: &str, d: char) -> String {
    if s.contains(d) || s.contains('"') || s.contains('\n') || s.contains('\r') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

fn num(x: Option<f64>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

/// The writer of the data lines: each starts with the escaped signature.
struct Lines<'a> {
    w: &'a mut dyn Write,
    sig: String,
    d: char,
    sep: String,
}

impl Lines<'_> {
    /// One data line: the signature, then `fields` escaped and delimited.
    fn line(&mut self, fields: [String; 8]) -> io::Result<()> {
        let d = self.d;
        let f: Vec<String> = fields.iter().map(|f| esc(f, d)).collect();
        writeln!(self.w, "{}{d}{}", self.sig, f.join(&self.sep))
    }

    /// A data line with no counts and no interval (their three fields empty).
    fn bare(&mut self, [section, system, key, measure, value]: [String; 5]) -> io::Result<()> {
        let empty = String::new;
        self.line([
            section,
            system,
            key,
            measure,
            value,
            empty(),
            empty(),
            empty(),
        ])
    }
}

pub(super) fn emit(r: &Report, d: char, w: &mut dyn Write) -> io::Result<()> {
    let head = [
        "signature",
        "section",
        "system",
        "key",
        "measure",
        "value",
        "counts",
        "ci_low",
        "ci_high",
    ];
    let sep = d.to_string();
    writeln!(w, "{}", head.join(&sep))?;
    let mut out = Lines {
        w,
        sig: esc(&r.signature.0, d),
        d,
        sep,
    };
    input_lines(r, &mut out)?;
    section_lines(r, &mut out)?;
    matrix_lines(r, &mut out)?;
    listing_lines(r, &mut out)?;
    selection_lines(r, &mut out)?;
    test_lines(r, &mut out)?;
    rank_lines(r, &mut out)
}

/// A line per input: section `inputs`, system = the system's name (empty for a gold
/// file), key = its role, measure `path`, value = its path as given.
fn input_lines(r: &Report, out: &mut Lines) -> io::Result<()> {
    for i in &r.inputs {
        out.bare([
            "inputs".into(),
            i.system.map_or(String::new(), |k| r.system_name(k).into()),
            i.role.clone(),
            "path".into(),
            i.path.clone(),
        ])?;
    }
    Ok(())
}

/// A line per cell of every section.
fn section_lines(r: &Report, out: &mut Lines) -> io::Result<()> {
    for s in &r.sections {
        for row in &s.rows {
            for c in &row.cells {
                let (lo, hi) = c.ci.map_or((None, None), |[l, h]| (Some(l), Some(h)));
                out.line([
                    s.id.clone(),
                    r.system_name(row.system).into(),
                    row.key.clone().unwrap_or_default(),
                    c.measure.clone(),
                    num(c.value),
                    counts(c),
                    num(lo),
                    num(hi),
                ])?;
            }
        }
    }
    Ok(())
}

/// A line per matrix cell: key = row label, measure = column label, value = count.
fn matrix_lines(r: &Report, out: &mut Lines) -> io::Result<()> {
    for m in &r.matrices {
        for (label, counts) in m.rows.iter().zip(&m.counts) {
            for (col, n) in m.columns.iter().zip(counts) {
                out.bare([
                    m.id.clone(),
                    r.system_name(m.system).into(),
                    label.clone(),
                    col.clone(),
                    n.to_string(),
                ])?;
            }
        }
    }
    Ok(())
}

/// The sentence selection's counts (`--sent-id`, `--min-len`, `--max-len`), when one was
/// made: section `selection`, key kept / excluded_by_id / excluded_by_length, measure
/// sentences or words.
fn selection_lines(r: &Report, out: &mut Lines) -> io::Result<()> {
    let Some(s) = &r.selection else {
        return Ok(());
    };
    let tallies = [
        ("kept", &s.kept),
        ("excluded_by_id", &s.excluded_by_id),
        ("excluded_by_length", &s.excluded_by_length),
    ];
    for (key, t) in tallies {
        let values = [("sentences", Some(t.sentences)), ("words", t.words)];
        for (measure, n) in values {
            if let Some(n) = n {
                let (section, key) = ("selection".to_owned(), key.to_owned());
                out.bare([section, String::new(), key, measure.into(), n.to_string()])?;
            }
        }
    }
    Ok(())
}

/// One line per listing cell: key = the row's number (from 1), measure = the column.
fn listing_lines(r: &Report, out: &mut Lines) -> io::Result<()> {
    for l in &r.listings {
        for (i, row) in l.rows.iter().enumerate() {
            for (col, v) in l.columns.iter().zip(row) {
                out.bare([
                    l.id.clone(),
                    r.system_name(l.system).into(),
                    (i + 1).to_string(),
                    col.clone(),
                    v.clone(),
                ])?;
            }
        }
    }
    Ok(())
}

/// Four lines per test result: the difference B − A (the second system's score minus the
/// first's) with its interval (the level is the signature's `ci`), then the statistic,
/// p-value and adjusted p-value.
fn test_lines(r: &Report, out: &mut Lines) -> io::Result<()> {
    for c in &r.comparisons {
        let pair = format!("{} vs {}", r.system_name(c.a), r.system_name(c.b));
        let (lo, hi) = c
            .difference_ci
            .map_or((None, None), |[l, h]| (Some(l), Some(h)));
        out.line([
            "test".into(),
            pair.clone(),
            format!("{} difference", c.test.name()),
            c.metric.clone(),
            num(c.difference),
            String::new(),
            num(lo),
            num(hi),
        ])?;
        for (what, v) in [
            ("statistic", c.statistic),
            ("p", c.p_value),
            ("p-adjusted", c.p_adjusted),
        ] {
            out.bare([
                "test".into(),
                pair.clone(),
                format!("{} {what}", c.test.name()),
                c.metric.clone(),
                v.to_string(),
            ])?;
        }
    }
    Ok(())
}

/// A line per system and ranking: its rank.
fn rank_lines(r: &Report, out: &mut Lines) -> io::Result<()> {
    for rk in &r.rankings {
        for (i, rank) in rk.ranks.iter().enumerate() {
            out.bare([
                "rank".into(),
                r.system_name(i).into(),
                rk.test.name().into(),
                rk.metric.clone(),
                rank.map_or_else(String::new, |r| r.to_string()),
            ])?;
        }
    }
    Ok(())
}
