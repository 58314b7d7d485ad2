//! Aligned tables for people. By default every table fits [`WIDTH`] columns (one value
//! per cell, intervals inline, laid out by the rule of [`super::layout`]) and prose is
//! wrapped; with [`Style::wide`] every column is shown, however wide, as before that rule.

use std::io::{self, Write};

use treeval_metrics::measure::Kind;

use super::layout::{lay_out, wrap, Grid, GridRow, Value, WIDTH};
use super::{counts, listing_heading, matrix_heading, matrix_rows, shown, table, Style};
use crate::value::{Cell, MeasureInfo, Report, Section};

/// A system name longer than this leaves too little room for values: the tables then call
/// every system `[1]`, `[2]`, … (as the test tables do) and a legend names them.
const LONG_NAME: usize = 40;

pub(super) fn emit(r: &Report, style: Style, w: &mut dyn Write) -> io::Result<()> {
    let width = (!style.wide).then_some(WIDTH);
    let names = Names::new(r, width);
    writeln!(w, "{}", r.signature.0)?;
    header(r, width, w)?;
    if width.is_some() {
        names.legend(w)?;
        interval_heading(r, w)?;
    }
    for s in &r.sections {
        writeln!(w)?;
        if !s.title.is_empty() {
            writeln!(w, "{}", s.title)?;
        }
        w.write_all(lay_out(&grid(r, s, &names, style.wide), width).as_bytes())?;
    }
    for m in &r.matrices {
        writeln!(w, "\n{}", matrix_heading(r, m))?;
        w.write_all(table(&matrix_rows(m), 1).as_bytes())?;
    }
    if style.wide {
        intervals(r, w)?;
    }
    for l in &r.listings {
        writeln!(w, "\n{}", listing_heading(r, l))?;
        if !l.rows.is_empty() {
            w.write_all(table(&crate::errors::text_rows(l), usize::MAX).as_bytes())?;
        }
    }
    if !r.notes.is_empty() {
        writeln!(w)?;
        for n in &r.notes {
            for line in wrap(n, width) {
                writeln!(w, "{line}")?;
            }
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

/// Every input (`gold: PATH (format, what it holds)`, a system's `system NAME: PATH (…)`;
/// when that is wider than `width`, the description on a line of its own under the path)
/// and the conventions (wrapped).
fn header(r: &Report, width: Option<usize>, w: &mut dyn Write) -> io::Result<()> {
    // every input, a system's under its name: where the tables' short names come from
    for i in super::inputs_shown(r) {
        let what = if i.what.is_empty() {
            String::new()
        } else {
            format!(" ({})", i.what)
        };
        let line = format!("{}: {}{what}", i.who, i.path);
        if what.is_empty() || width.map_or(true, |wd| line.chars().count() <= wd) {
            writeln!(w, "{line}")?;
            continue;
        }
        writeln!(w, "{}: {}", i.who, i.path)?;
        for l in wrap(&format!(" {what}"), width) {
            writeln!(w, "{l}")?;
        }
    }
    if let Some(c) = super::conventions(r) {
        for l in wrap(&format!("conventions: {c}"), width) {
            writeln!(w, "{l}")?;
        }
    }
    Ok(())
}

/// The heading of the intervals shown in the cells (once, above the tables).
fn interval_heading(r: &Report, w: &mut dyn Write) -> io::Result<()> {
    let Some(sig) = &r.significance else {
        return Ok(());
    };
    let Some(level) = sig.ci_level else {
        return Ok(());
    };
    writeln!(
        w,
        "[low, high]: {}% bootstrap confidence intervals ({} samples, seed {}, percentile)",
        crate::model::level_percent(level),
        sig.ci_samples,
        sig.seed
    )?;
    let any = r.sections.iter().any(|s| {
        s.rows
            .iter()
            .any(|row| row.cells.iter().any(|c| c.ci.is_some()))
    });
    if !any {
        writeln!(
            w,
            "(no score with an interval: nothing varies or nothing is defined)"
        )?;
    }
    Ok(())
}

/// How the tables call the systems: by name, or by number (`[1]`) when a name is longer
/// than [`LONG_NAME`] in default text.
struct Names<'a> {
    r: &'a Report,
    numbered: bool,
}

impl<'a> Names<'a> {
    fn new(r: &'a Report, width: Option<usize>) -> Self {
        let long = r.systems.iter().any(|s| s.name.chars().count() > LONG_NAME);
        Names {
            r,
            numbered: width.is_some() && long,
        }
    }

    /// System `i` as the tables call it.
    fn label(&self, i: usize) -> String {
        if self.numbered {
            format!("[{}]", i + 1)
        } else {
            self.r.system_name(i).to_owned()
        }
    }

    /// `systems:` and a line `[i] name` per system, when the tables number them.
    fn legend(&self, w: &mut dyn Write) -> io::Result<()> {
        if !self.numbered {
            return Ok(());
        }
        writeln!(w, "systems:")?;
        for i in 0..self.r.systems.len() {
            let entry = format!("  [{}] {}", i + 1, self.r.system_name(i));
            for l in wrap(&entry, Some(WIDTH)) {
                writeln!(w, "{l}")?;
            }
        }
        Ok(())
    }
}

/// A section as a grid: in default text its compact measure with the systems across
/// ([`Section::compact`]) or every measure, one value per cell with its interval; with
/// `wide`, every measure with its counts beside each fraction.
fn grid(r: &Report, s: &Section, names: &Names<'_>, wide: bool) -> Grid {
    if let (false, Some(m), Some(key)) = (wide, &s.compact, &s.key) {
        if let Some(k) = s.columns.iter().position(|c| c == m) {
            return compact(r, s, key, k, names);
        }
    }
    let infos: Vec<Option<&MeasureInfo>> = s.columns.iter().map(|c| r.measure(c)).collect();
    let kinds: Vec<Kind> = infos
        .iter()
        .map(|m| m.map_or(Kind::Fraction, |m| m.kind))
        .collect();
    // a fraction's counts (`16/21`) beside it, when they are few enough to read and
    // counts of items (a `…_sum` column sums per-unit scores: not shown)
    let with_counts = |k: usize| {
        wide && s.show_counts
            && kinds[k] == Kind::Fraction
            && infos[k].is_some_and(|m| {
                m.reads.len() <= 4
                    && !m
                        .reads
                        .iter()
                        .any(|c| treeval_metrics::measure::is_sum_column(c))
            })
    };
    let mut labels = vec!["system".to_string()];
    labels.extend(s.key.clone());
    let mut columns = Vec::new();
    for (k, c) in s.columns.iter().enumerate() {
        columns.push(c.clone());
        if with_counts(k) {
            columns.push(infos[k].map_or(String::new(), |m| m.reads.join("/")));
        }
    }
    let rows = s
        .rows
        .iter()
        .map(|row| {
            let mut l = vec![names.label(row.system)];
            if s.key.is_some() {
                l.push(row.key.clone().unwrap_or_default());
            }
            let mut values = Vec::new();
            for (k, c) in row.cells.iter().enumerate() {
                values.push(value(kinds[k], c, !wide));
                if with_counts(k) {
                    // n/a alone: its counts (a zero denominator, or a column left empty)
                    // are in the JSON
                    values.push(Value::plain(if c.value.is_some() {
                        counts(c)
                    } else {
                        String::new()
                    }));
                }
            }
            GridRow { labels: l, values }
        })
        .collect();
    Grid {
        labels,
        columns_are: "measure".into(),
        columns,
        rows,
    }
}

/// A cell as shown: its value and mark, and its interval when `interval` and it has one.
fn value(kind: Kind, c: &Cell, interval: bool) -> Value {
    let mark = c.mark.as_deref().unwrap_or("");
    Value {
        shown: format!("{}{mark}", shown(kind, c.value)),
        interval: c
            .ci
            .filter(|_| interval)
            .map(|[lo, hi]| format!("[{}, {}]", shown(kind, Some(lo)), shown(kind, Some(hi)))),
    }
}

/// A breakdown's measure `k` alone: a row per key (in order of first appearance), a column
/// per system.
fn compact(r: &Report, s: &Section, key: &str, k: usize, names: &Names<'_>) -> Grid {
    let kind = r.measure(&s.columns[k]).map_or(Kind::Fraction, |m| m.kind);
    let mut systems: Vec<usize> = Vec::new();
    let mut keys: Vec<&str> = Vec::new();
    for row in &s.rows {
        if !systems.contains(&row.system) {
            systems.push(row.system);
        }
        let key = row.key.as_deref().unwrap_or("");
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    let rows = keys
        .iter()
        .map(|&key| GridRow {
            labels: vec![key.to_owned()],
            values: systems
                .iter()
                .map(|&i| {
                    s.rows
                        .iter()
                        .find(|row| row.system == i && row.key.as_deref().unwrap_or("") == key)
                        .and_then(|row| row.cells.get(k))
                        .map_or_else(Value::default, |c| value(kind, c, true))
                })
                .collect(),
        })
        .collect();
    Grid {
        labels: vec![format!("{key} ({})", s.columns[k])],
        columns_are: "system".into(),
        columns: systems.iter().map(|&i| names.label(i)).collect(),
        rows,
    }
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
        "\n{}% bootstrap confidence intervals ({} samples, seed {}, percentile)",
        crate::model::level_percent(level),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Signature;
    use crate::value::{Row, System};
    use treeval_metrics::measure::Better;

    /// A report of `systems` systems named `name-i` with one section of `measures`
    /// fractions (`m0`, `m1`, …), each 16/21 with the interval [0.5, 1].
    fn report(systems: usize, measures: usize, name: &str) -> Report {
        let mut r = Report::new("deps", Signature::new("deps", &[]));
        for k in 0..measures {
            r.measures.push(MeasureInfo {
                name: format!("measure-{k}"),
                title: String::new(),
                formula: String::new(),
                source: String::new(),
                kind: Kind::Fraction,
                better: Better::Higher,
                reads: vec!["correct".into(), "total".into()],
            });
        }
        let cell = |k: usize| Cell {
            measure: format!("measure-{k}"),
            value: Some(16.0 / 21.0),
            counts: vec![16.0, 21.0],
            ci: Some([0.5, 1.0]),
            mark: None,
        };
        r.sections.push(Section {
            id: "scores".into(),
            title: String::new(),
            key: None,
            columns: (0..measures).map(|k| format!("measure-{k}")).collect(),
            show_counts: true,
            compact: None,
            rows: (0..systems)
                .map(|i| Row {
                    system: i,
                    key: None,
                    cells: (0..measures).map(cell).collect(),
                })
                .collect(),
        });
        for i in 0..systems {
            r.systems.push(System {
                name: format!("{name}-{i}"),
                inputs: Vec::new(),
            });
        }
        r
    }

    fn text(r: &Report, wide: bool) -> String {
        super::super::to_string(r, crate::render::OutputFormat::Text, Style { wide })
    }

    #[test]
    fn a_section_of_many_measures_and_long_names_fits_and_wide_keeps_everything() {
        for (systems, name) in [
            (2, "sys"),
            (5, "runs/parser-a/epoch-20/pred"),
            (
                3,
                "runs/a-very-long-folder-name/of-some-experiment/epoch-20/pred.conllu",
            ),
        ] {
            let r = report(systems, 14, name);
            let out = text(&r, false);
            for line in out.lines().skip(1) {
                assert!(line.chars().count() <= WIDTH, "{line}\n{out}");
            }
            // every value once, with its interval, and no counts
            assert_eq!(
                out.matches("76.19 [50.00, 100.00]").count(),
                systems * 14,
                "{out}"
            );
            assert!(!out.contains("16/21"), "{out}");
            // --wide: every value with its counts, one line per system
            let wide = text(&r, true);
            assert_eq!(wide.matches("16/21").count(), systems * 14, "{wide}");
            assert_eq!(
                wide.lines()
                    .filter(|l| l.starts_with(&format!("{name}-")))
                    .count(),
                systems,
                "{wide}"
            );
        }
        // names longer than 40 characters: numbered, with a legend
        let r = report(3, 14, &"x/".repeat(30));
        let out = text(&r, false);
        assert!(out.contains("systems:\n  [1] x/x/"), "{out}");
    }

    #[test]
    fn a_compact_section_shows_its_measure_with_the_systems_across() {
        let mut r = report(2, 4, "sys");
        let s = &mut r.sections[0];
        s.key = Some("metric".into());
        s.compact = Some("measure-2".into());
        let rows = std::mem::take(&mut s.rows);
        for key in ["UAS", "LAS"] {
            for row in &rows {
                s.rows.push(Row {
                    key: Some(key.into()),
                    ..row.clone()
                });
            }
        }
        let out = text(&r, false);
        assert!(out.contains("metric (measure-2)"), "{out}");
        let las = out.lines().find(|l| l.starts_with("LAS")).unwrap_or("");
        assert_eq!(las.matches("76.19 [50.00, 100.00]").count(), 2, "{out}");
        assert!(!out.contains("measure-1"), "{out}");
        // --wide: every measure, a row per system and metric
        let wide = text(&r, true);
        assert!(
            wide.contains("measure-1") && wide.contains("16/21"),
            "{wide}"
        );
    }
}
