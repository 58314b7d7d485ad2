//! Long-format CSV and TSV: one line per cell (signature, section, system, key, measure,
//! value, counts, interval), one per matrix cell (key = row label, measure = column
//! label), then one per test result and rank.

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
    let sig = esc(&r.signature.0, d);
    let mut line = |fields: [String; 8]| -> io::Result<()> {
        let f: Vec<String> = fields.iter().map(|f| esc(f, d)).collect();
        writeln!(w, "{sig}{d}{}", f.join(&sep))
    };
    for s in &r.sections {
        for row in &s.rows {
            for c in &row.cells {
                let (lo, hi) = c.ci.map_or((None, None), |[l, h]| (Some(l), Some(h)));
                line([
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
    // a matrix cell: key = row label, measure = column label, value = count
    for m in &r.matrices {
        for (label, counts) in m.rows.iter().zip(&m.counts) {
            for (col, n) in m.columns.iter().zip(counts) {
                line([
                    m.id.clone(),
                    r.system_name(m.system).into(),
                    label.clone(),
                    col.clone(),
                    n.to_string(),
                    String::new(),
                    String::new(),
                    String::new(),
                ])?;
            }
        }
    }
    for c in &r.comparisons {
        let pair = format!("{} vs {}", r.system_name(c.a), r.system_name(c.b));
        for (what, v) in [
            ("statistic", c.statistic),
            ("p", c.p_value),
            ("p-adjusted", c.p_adjusted),
        ] {
            line([
                "test".into(),
                pair.clone(),
                format!("{} {what}", c.test.name()),
                c.metric.clone(),
                v.to_string(),
                String::new(),
                String::new(),
                String::new(),
            ])?;
        }
    }
    for rk in &r.rankings {
        for (i, rank) in rk.ranks.iter().enumerate() {
            line([
                "rank".into(),
                r.system_name(i).into(),
                rk.test.name().into(),
                rk.metric.clone(),
                rank.to_string(),
                String::new(),
                String::new(),
                String::new(),
            ])?;
        }
    }
    Ok(())
}
