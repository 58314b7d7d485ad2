//! How the text format fits a table into [`WIDTH`] columns: the one layout rule of every
//! command's tables (and the prose wrapping of its header and notes).
//!
//! A table is a [`Grid`]: label columns (`system`, a breakdown's key) and value columns
//! (one measure each). [`lay_out`] shows it
//! 1. as it is, one row per system (and key), when every line fits;
//! 2. else transposed, one row per value column and one column per row (measures down,
//!    systems across), when that fits;
//! 3. else in blocks of consecutive value columns, each as wide as fits, the label columns
//!    repeated in every block, blocks separated by a blank line.
//!
//! Without a width (`--wide`) a grid is shown as it is, however wide.

use super::table;

/// The columns default text output fits in.
pub(crate) const WIDTH: usize = 100;

/// A value cell: what is shown (the value and its mark) and its interval `[low, high]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Value {
    /// The value as shown, with its mark (`76.19`, `85.71†`).
    pub shown: String,
    /// Its interval as shown (`[66.67, 100.00]`), when it has one.
    pub interval: Option<String>,
}

impl Value {
    /// A value without an interval.
    pub fn plain(shown: impl Into<String>) -> Self {
        Value {
            shown: shown.into(),
            interval: None,
        }
    }
}

/// One row of a [`Grid`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GridRow {
    /// Its label cells, one per [`Grid::labels`].
    pub labels: Vec<String>,
    /// Its values, one per [`Grid::columns`].
    pub values: Vec<Value>,
}

/// A table before layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Grid {
    /// The headers of the label columns (`system`, `metric`).
    pub labels: Vec<String>,
    /// What the value columns are, the header of their column once transposed (`measure`).
    pub columns_are: String,
    /// The headers of the value columns (the measures).
    pub columns: Vec<String>,
    /// The rows.
    pub rows: Vec<GridRow>,
}

/// `g` as text: as it is when `width` is `None` or it fits, else transposed when that
/// fits, else in blocks of value columns (the module's rule).
pub(crate) fn lay_out(g: &Grid, width: Option<usize>) -> String {
    let all = as_rows(g, 0..g.columns.len());
    let Some(width) = width else {
        return all;
    };
    if fits(&all, width) || g.columns.is_empty() {
        return all;
    }
    let t = transposed(g);
    if fits(&t, width) {
        return t;
    }
    blocks(g, width)
}

/// Whether every line of `text` is at most `width` characters.
fn fits(text: &str, width: usize) -> bool {
    text.lines().all(|l| l.chars().count() <= width)
}

/// The cells of one value column, each as wide as the widest: values right-aligned, then
/// the intervals left-aligned (their `[` in one column).
fn column_cells(values: &[&Value]) -> Vec<String> {
    let vw = values.iter().map(|v| v.shown.chars().count()).max();
    let iw = values
        .iter()
        .filter_map(|v| v.interval.as_ref().map(|i| i.chars().count()))
        .max();
    values
        .iter()
        .map(|v| {
            let mut s = format!("{:>w$}", v.shown, w = vw.unwrap_or(0));
            if let Some(iw) = iw {
                s.push_str(&format!(" {:<iw$}", v.interval.as_deref().unwrap_or("")));
            }
            s
        })
        .collect()
}

/// The grid with the value columns `range`, one line per row (and the header).
fn as_rows(g: &Grid, range: std::ops::Range<usize>) -> String {
    let mut head = g.labels.clone();
    head.extend(g.columns[range.clone()].iter().cloned());
    let mut rows = vec![head];
    rows.extend(g.rows.iter().map(|r| r.labels.clone()));
    let none = Value::default();
    for k in range {
        // a row without a value in this column (none should lack one) shows nothing
        let values: Vec<&Value> = g
            .rows
            .iter()
            .map(|r| r.values.get(k).unwrap_or(&none))
            .collect();
        for (row, cell) in rows.iter_mut().skip(1).zip(column_cells(&values)) {
            row.push(cell);
        }
    }
    table(&rows, g.labels.len())
}

/// The grid transposed: a row per value column, a column per row (headed by its labels).
fn transposed(g: &Grid) -> String {
    let mut head = vec![g.columns_are.clone()];
    head.extend(g.rows.iter().map(|r| r.labels.join(" ")));
    let mut rows = vec![head];
    rows.extend(g.columns.iter().map(|c| vec![c.clone()]));
    for r in &g.rows {
        let values: Vec<&Value> = r.values.iter().collect();
        for (row, cell) in rows.iter_mut().skip(1).zip(column_cells(&values)) {
            row.push(cell);
        }
    }
    table(&rows, 1)
}

/// The grid in blocks of consecutive value columns, the label columns repeated: as few
/// blocks as fit in `width` (each at least one column), their columns spread as evenly as
/// fits (4 columns are 2 + 2, not 3 + 1).
fn blocks(g: &Grid, width: usize) -> String {
    let n = g.columns.len();
    // the fewest blocks, filled greedily
    let mut greedy = Vec::new();
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        while end < n && fits(&as_rows(g, start..end + 1), width) {
            end += 1;
        }
        greedy.push(start..end);
        start = end;
    }
    // the same number of blocks, as even as they fit
    let k = greedy.len();
    let even: Vec<std::ops::Range<usize>> = (0..k).map(|i| i * n / k..(i + 1) * n / k).collect();
    let shown: Vec<String> = even.iter().map(|r| as_rows(g, r.clone())).collect();
    let shown = if shown.iter().all(|b| fits(b, width)) {
        shown
    } else {
        greedy.into_iter().map(|r| as_rows(g, r)).collect()
    };
    shown.join("\n")
}

/// `text` broken at spaces into lines of at most `width` characters (a word longer than
/// that alone on its line; runs of spaces within a line kept); continuation lines are
/// indented as the first line plus two spaces. `None`: one line, as it is.
pub(crate) fn wrap(text: &str, width: Option<usize>) -> Vec<String> {
    let Some(width) = width else {
        return vec![text.to_owned()];
    };
    if text.chars().count() <= width {
        return vec![text.to_owned()];
    }
    let rest = text.trim_start_matches(' ');
    let indent = " ".repeat(text.len() - rest.len());
    let more = format!("{indent}  ");
    let mut lines = Vec::new();
    let mut line = indent.clone();
    let mut empty = true;
    // spaces before the next word beyond the one that separates it
    let mut extra = 0;
    for word in rest.split(' ') {
        if word.is_empty() {
            extra += 1;
            continue;
        }
        let mut gap = if empty { 0 } else { 1 + extra };
        if !empty && line.chars().count() + gap + word.chars().count() > width {
            lines.push(std::mem::replace(&mut line, more.clone()));
            gap = 0;
        }
        line.push_str(&" ".repeat(gap));
        line.push_str(word);
        empty = false;
        extra = 0;
    }
    lines.push(line);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid of `systems` rows named `name-i`, `measures` columns named `measure-k`, each
    /// value `12.34 [5.67, 100.00]`.
    fn grid(systems: usize, measures: usize, name: &str) -> Grid {
        Grid {
            labels: vec!["system".into()],
            columns_are: "measure".into(),
            columns: (0..measures).map(|k| format!("measure-{k}")).collect(),
            rows: (0..systems)
                .map(|i| GridRow {
                    labels: vec![format!("{name}-{i}")],
                    values: (0..measures)
                        .map(|_| Value {
                            shown: "12.34".into(),
                            interval: Some("[5.67, 100.00]".into()),
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    fn widest(text: &str) -> usize {
        text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
    }

    #[test]
    fn a_table_that_fits_is_shown_as_it_is() {
        let g = grid(2, 2, "sys");
        let t = lay_out(&g, Some(WIDTH));
        assert_eq!(t, lay_out(&g, None));
        assert_eq!(t.lines().count(), 3);
        assert_eq!(
            t.lines().nth(1),
            Some("sys-0   12.34 [5.67, 100.00]  12.34 [5.67, 100.00]")
        );
    }

    #[test]
    fn many_measures_few_systems_are_transposed() {
        let g = grid(2, 12, "examples/sys.conllu");
        assert!(widest(&lay_out(&g, None)) > WIDTH);
        let t = lay_out(&g, Some(WIDTH));
        assert!(widest(&t) <= WIDTH, "{t}");
        // a row per measure, the systems across
        assert_eq!(t.lines().count(), 13);
        assert!(t.lines().next().is_some_and(|l| l.starts_with("measure")
            && l.contains("examples/sys.conllu-0")
            && l.contains("examples/sys.conllu-1")));
        let last = t.lines().last().unwrap_or("");
        assert!(last.starts_with("measure-11 "), "{t}");
        assert!(
            last.ends_with("12.34 [5.67, 100.00]   12.34 [5.67, 100.00]"),
            "{t}"
        );
    }

    #[test]
    fn many_measures_many_long_names_are_split_into_blocks() {
        let name = "runs/parser-a/epoch-20/pred";
        let g = grid(6, 12, name);
        let t = lay_out(&g, Some(WIDTH));
        assert!(widest(&t) <= WIDTH, "{t}");
        // every block repeats the header and every system, and every measure is shown once
        let blocks: Vec<&str> = t.split("\n\n").collect();
        assert!(blocks.len() > 1);
        for b in &blocks {
            assert!(b.starts_with("system"));
            assert_eq!(b.lines().filter(|l| l.starts_with(name)).count(), 6);
        }
        for k in 0..12 {
            let head = format!("measure-{k}");
            let n =
                t.matches(&format!("{head} ")).count() + t.matches(&format!("{head}\n")).count();
            assert_eq!(n, 1, "{head} in\n{t}");
        }
    }

    #[test]
    fn values_and_intervals_align_in_their_column() {
        let values = [
            Value {
                shown: "100.00".into(),
                interval: Some("[100.00, 100.00]".into()),
            },
            Value {
                shown: "7.50".into(),
                interval: Some("[0.00, 9.00]".into()),
            },
            Value::plain("n/a"),
        ];
        let refs: Vec<&Value> = values.iter().collect();
        assert_eq!(
            column_cells(&refs),
            [
                "100.00 [100.00, 100.00]",
                "  7.50 [0.00, 9.00]    ",
                "   n/a                 "
            ]
        );
    }

    #[test]
    fn prose_wraps_at_spaces() {
        let text = format!("  {}", ["word"; 40].join(" "));
        let lines = wrap(&text, Some(30));
        assert!(lines.iter().all(|l| l.chars().count() <= 30), "{lines:?}");
        assert!(lines[0].starts_with("  word"));
        assert!(lines[1..].iter().all(|l| l.starts_with("    word")));
        assert_eq!(lines.join(" ").split_whitespace().count(), 40);
        // a word longer than the width stays whole; without a width nothing is wrapped
        let long = format!("gold: {}", "x".repeat(120));
        assert_eq!(
            wrap(&long, Some(100)),
            ["gold:", &format!("  {}", "x".repeat(120))]
        );
        assert_eq!(wrap(&text, None), vec![text.clone()]);
        // runs of spaces within a line stay
        let note = format!("sys.conllu:   gold line 13: {}", ["x"; 60].join(" "));
        assert!(wrap(&note, Some(100))[0].starts_with("sys.conllu:   gold line 13: x x"));
    }
}
