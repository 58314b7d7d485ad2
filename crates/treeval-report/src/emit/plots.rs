//! Charts of the HTML page, as inline SVG drawn by `plotters` (its SVG backend, writing
//! into a `String`; it escapes every text it writes). Deterministic (no ids, no random
//! numbers), self-contained (no `href`, `url(`, `src=`), no XML declaration; a failure of
//! the drawing gives no chart, never a panic.
//!
//! Which numbers a section's chart shows is decided from the section's columns, the same
//! way for every command:
//!
//! - Only percentage columns are plotted: those whose measure (in [`Report::measures`]) is
//!   of kind [`Kind::Fraction`], on a 0–100 axis. Counts and means are never plotted.
//! - A keyed section (a breakdown, per-relation scores, `ud`'s metrics) gets one horizontal
//!   grouped bar chart of ONE column: the first percentage column named `F`, `F1` or
//!   ending in `-F1` (per-relation `LAS-F1`, brackets' `F`, `ud`'s `F1`), else the first
//!   percentage column (`LAS` of a breakdown). One group of bars per key, in the order the
//!   rows first show it, one bar (and colour) per system. When there are more than
//!   [`MAX_GROUPS`] keys, the most frequent ones are kept (by the largest value of the
//!   first count column over the systems, e.g. `gold`, `words`), else the first ones; the
//!   chart's caption says so. Keys where every system's value is n/a are left out.
//! - A section without key gets one bar chart of all its percentage columns, one group
//!   per measure, one bar per system.
//! - n/a values draw no bar; a section with no value at all gets no chart. Where the cells
//!   have intervals (`--ci`), each bar has a whisker from the low to the high bound.
//!
//! A matrix gets a heatmap (rows × columns, colour by the logarithm of the count, the
//! non-zero counts printed in the cells when it is at most 20 × 20). [`histogram`] draws
//! per-sentence values of several systems side by side.

use std::error::Error;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use treeval_metrics::measure::Kind;

use crate::value::{Cell, Matrix, Report, Section};

/// The most bar groups (keys) one chart shows.
const MAX_GROUPS: usize = 50;
/// The width of every chart, in pixels.
const WIDTH: u32 = 800;
/// The largest matrix whose counts are printed in its heatmap's cells.
const MAX_PRINTED: usize = 20;
/// Labels longer than this (in characters) are cut, with `…`.
const MAX_LABEL: usize = 28;
/// Captions and legend entries longer than this (in characters) are cut, with `…`.
const MAX_LINE: usize = 110;
/// One colour per system (by its index in the report), repeating after ten.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];
/// The colour of text, axes and whiskers.
const INK: RGBColor = RGBColor(34, 34, 34);

/// What drawing returns.
type Drawn = Result<(), Box<dyn Error>>;

/// A chart: the SVG (its legend inside) and its caption (the page's `<figcaption>`).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Chart {
    /// The inline `<svg>` element.
    pub svg: String,
    /// What it shows, as text.
    pub caption: String,
}

/// One bar: a percentage and its interval, in percent.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bar {
    value: f64,
    ci: Option<[f64; 2]>,
}

/// One system's bars, one per group (`None`: n/a).
#[derive(Debug, Clone, PartialEq)]
struct Series {
    name: String,
    colour: RGBColor,
    bars: Vec<Option<Bar>>,
}

/// A grouped bar chart: the groups (keys or measures), a series per system.
#[derive(Debug, Clone, PartialEq)]
struct Bars {
    caption: String,
    axis: String,
    groups: Vec<String>,
    series: Vec<Series>,
}

/// The chart of section `s`, when it has one (see the module documentation).
pub(super) fn section_chart(r: &Report, s: &Section) -> Option<Chart> {
    let cols = chart_columns(r, s);
    let mut bars = if s.key.is_some() {
        keyed_bars(r, s, *cols.first()?)
    } else {
        measure_bars(r, s, &cols)
    }?;
    let bars_of = || bars.series.iter().flat_map(|x| x.bars.iter().flatten());
    // no value at all: no chart
    bars_of().next()?;
    if bars_of().any(|b| b.ci.is_some()) {
        bars.caption.push_str(&ci_words(r));
    }
    Some(Chart {
        svg: bar_chart(&bars)?,
        caption: bars.caption,
    })
}

/// Whether the measure named `name` is a percentage.
fn is_percent(r: &Report, name: &str) -> bool {
    r.measure(name).is_some_and(|m| m.kind == Kind::Fraction)
}

/// The indexes of the columns the chart of `s` shows: for a keyed section the F-score
/// column (else the first percentage), for the others every percentage column.
fn chart_columns(r: &Report, s: &Section) -> Vec<usize> {
    let percent: Vec<usize> = (0..s.columns.len())
        .filter(|&i| is_percent(r, &s.columns[i]))
        .collect();
    if s.key.is_none() {
        return percent;
    }
    let f = |n: &str| n == "F" || n == "F1" || n.ends_with("-F1");
    let first_f = percent.iter().copied().find(|&i| f(&s.columns[i]));
    first_f.or(percent.first().copied()).into_iter().collect()
}

/// A cell's value (and interval) in percent, when it has one.
fn bar(c: Option<&Cell>) -> Option<Bar> {
    let c = c?;
    let value = c.value.filter(|v| v.is_finite())? * 100.0;
    let ci =
        c.ci.filter(|[lo, hi]| lo.is_finite() && hi.is_finite())
            .map(|[lo, hi]| [lo * 100.0, hi * 100.0]);
    Some(Bar { value, ci })
}

/// The systems of the rows of `s`, in the report's order.
fn systems_of(s: &Section) -> Vec<usize> {
    let mut v: Vec<usize> = s.rows.iter().map(|row| row.system).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// One series per system of `s`, with `value(system, group)` for every group.
fn series(
    r: &Report,
    s: &Section,
    groups: usize,
    value: impl Fn(usize, usize) -> Option<Bar>,
) -> Vec<Series> {
    systems_of(s)
        .into_iter()
        .map(|sys| Series {
            name: r.system_name(sys).to_string(),
            colour: PALETTE[sys % PALETTE.len()],
            bars: (0..groups).map(|g| value(sys, g)).collect(),
        })
        .collect()
}

/// `; whiskers: 95% bootstrap confidence intervals`, for a chart with intervals.
fn ci_words(r: &Report) -> String {
    match r.significance.as_ref().and_then(|s| s.ci_level) {
        Some(level) => format!(
            "; whiskers: {}% bootstrap confidence intervals",
            crate::model::level_percent(level)
        ),
        None => "; whiskers: bootstrap confidence intervals".into(),
    }
}

/// The bars of an unkeyed section: one group per percentage column `cols`.
fn measure_bars(r: &Report, s: &Section, cols: &[usize]) -> Option<Bars> {
    if cols.is_empty() {
        return None;
    }
    let groups: Vec<String> = cols.iter().map(|&i| s.columns[i].clone()).collect();
    let series = series(r, s, cols.len(), |sys, g| {
        let row = s.rows.iter().find(|row| row.system == sys)?;
        bar(row.cells.get(cols[g]))
    });
    let what = if s.title.is_empty() { &s.id } else { &s.title };
    Some(Bars {
        caption: format!("{what} (%)"),
        axis: "%".into(),
        groups,
        series,
    })
}

/// The bars of a keyed section: column `col`, one group per key (at most
/// [`MAX_GROUPS`]), keys where every value is n/a left out.
fn keyed_bars(r: &Report, s: &Section, col: usize) -> Option<Bars> {
    let key_name = s.key.as_deref().unwrap_or("key");
    let measure = &s.columns[col];
    let value = |sys: usize, key: &str| {
        let row = s
            .rows
            .iter()
            .find(|row| row.system == sys && row.key.as_deref() == Some(key))?;
        bar(row.cells.get(col))
    };
    let systems = systems_of(s);
    let mut keys: Vec<&str> = Vec::new();
    for row in &s.rows {
        let k = row.key.as_deref().unwrap_or("");
        if !keys.contains(&k) && systems.iter().any(|&sys| value(sys, k).is_some()) {
            keys.push(k);
        }
    }
    let total = keys.len();
    let (keys, by) = most_frequent(r, s, keys);
    let mut caption = format!("{measure} (%) by {key_name}");
    if keys.len() < total {
        caption.push_str(&match by {
            Some(c) => format!(
                "; the {} most frequent of {total} values (by {c})",
                keys.len()
            ),
            None => format!("; the first {} of {total} values", keys.len()),
        });
    }
    let series = series(r, s, keys.len(), |sys, g| value(sys, keys[g]));
    Some(Bars {
        caption,
        axis: format!("{measure} (%)"),
        groups: keys.iter().map(|k| k.to_string()).collect(),
        series,
    })
}

/// At most [`MAX_GROUPS`] of `keys`, in their order: the most frequent by the first count
/// column of `s` (its name returned), else the first ones.
fn most_frequent<'a>(
    r: &Report,
    s: &Section,
    keys: Vec<&'a str>,
) -> (Vec<&'a str>, Option<String>) {
    if keys.len() <= MAX_GROUPS {
        return (keys, None);
    }
    let count = s
        .columns
        .iter()
        .position(|c| r.measure(c).is_some_and(|m| m.kind == Kind::Count));
    let Some(col) = count else {
        return (keys[..MAX_GROUPS].to_vec(), None);
    };
    let freq = |k: &str| {
        s.rows
            .iter()
            .filter(|row| row.key.as_deref() == Some(k))
            .filter_map(|row| row.cells.get(col)?.value)
            .fold(0.0f64, f64::max)
    };
    let mut order: Vec<(f64, usize)> = keys.iter().enumerate().map(|(i, k)| (freq(k), i)).collect();
    // most frequent first; equal ones in row order
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut kept: Vec<usize> = order.iter().take(MAX_GROUPS).map(|&(_, i)| i).collect();
    kept.sort_unstable();
    let kept = kept.into_iter().map(|i| keys[i]).collect();
    (kept, Some(s.columns[col].clone()))
}

/// `s` cut to [`MAX_LABEL`] characters (the last one `…`).
fn short(s: &str) -> String {
    cut(s, MAX_LABEL)
}

/// `s` cut to `max` characters (the last one `…`).
fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The width in pixels of the widest of `labels` (shortened) at `size` pixels, a guess.
fn label_width(labels: &[String], size: u32) -> u32 {
    let chars = labels
        .iter()
        .map(|l| short(l).chars().count())
        .max()
        .unwrap_or(1);
    (chars as u32 * size * 62 / 100).clamp(20, 260) + 24
}

/// A font of `px` pixels as the SVG writes it (plotters writes a size of `size / 1.24`).
fn font(px: f64) -> TextStyle<'static> {
    ("sans-serif", px * 1.24).into_font().color(&INK)
}

/// Draw with `draw` on a white `width` × `height` SVG; its text, or `None` when plotters
/// fails (or panics).
fn render(
    width: u32,
    height: u32,
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Drawn,
) -> Option<String> {
    let mut svg = String::new();
    let drawn = catch_unwind(AssertUnwindSafe(|| -> Drawn {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        draw(&root)?;
        root.present()?;
        Ok(())
    }));
    if !matches!(drawn, Ok(Ok(()))) {
        return None;
    }
    // no XML declaration in an inline SVG; scale down on narrow screens
    let start = svg.find("<svg")?;
    let svg = svg[start..].replacen(
        "<svg ",
        "<svg role=\"img\" style=\"max-width:100%;height:auto\" ",
        1,
    );
    Some(svg)
}

/// The head of a chart: one line per legend entry (a swatch and a name). Its height is
/// [`head_height`].
fn head(area: &DrawingArea<SVGBackend, Shift>, legend: &[(String, RGBColor)]) -> Drawn {
    let left = Pos::new(HPos::Left, VPos::Center);
    for (i, (name, colour)) in legend.iter().enumerate() {
        let y = 14 + 18 * i as i32;
        area.draw(&Rectangle::new([(12, y - 6), (24, y + 6)], colour.filled()))?;
        area.draw(&Text::new(
            cut(name, MAX_LINE),
            (30, y),
            font(12.0).pos(left),
        ))?;
    }
    Ok(())
}

/// The height of a chart's head with `entries` legend lines.
fn head_height(entries: usize) -> u32 {
    8 + 18 * entries as u32
}

/// Categories on an axis: category `i` of `n` covers `[i, i + 1)`; a key point (a label)
/// at the middle of each (every k-th when there are too many for the axis).
#[derive(Debug, Clone, Copy)]
struct Bands(usize);

impl Ranged for Bands {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = f64::from(limit.1 - limit.0);
        limit.0 + (span * value / self.0.max(1) as f64).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.max_num_points() == 0 {
            return Vec::new();
        }
        let step = self.0.div_ceil(hint.max_num_points()).max(1);
        (0..self.0).step_by(step).map(|i| i as f64 + 0.5).collect()
    }

    fn range(&self) -> Range<f64> {
        0.0..self.0 as f64
    }
}

/// The category a key point of [`Bands`] stands for, counted from the top of a y axis of
/// `n` bands.
fn band_from_top(v: f64, n: usize) -> Option<usize> {
    let i = v.floor();
    (i >= 0.0 && (i as usize) < n).then(|| n - 1 - i as usize)
}

/// A horizontal grouped bar chart of `b` on a 0–100 axis.
fn bar_chart(b: &Bars) -> Option<String> {
    let n = b.groups.len();
    let k = b.series.len().max(1);
    let bar_px: u32 = match k {
        0..=2 => 12,
        3..=6 => 8,
        _ => 4,
    };
    let band = (k as u32 * bar_px + 8).max(18);
    let top = head_height(b.series.len());
    let height = top + n as u32 * band + 50;
    let legend: Vec<(String, RGBColor)> = b
        .series
        .iter()
        .map(|s| (s.name.clone(), s.colour))
        .collect();
    render(WIDTH, height, |root| {
        let (upper, lower) = root.split_vertically(top);
        head(&upper, &legend)?;
        let mut cb = ChartBuilder::on(&lower);
        cb.margin_right(24)
            .margin_top(4)
            .x_label_area_size(40)
            .y_label_area_size(label_width(&b.groups, 12));
        let mut chart = cb.build_cartesian_2d(0.0..100.0, Bands(n))?;
        let name = |v: &f64| band_from_top(*v, n).map_or(String::new(), |g| short(&b.groups[g]));
        chart
            .configure_mesh()
            .disable_y_mesh()
            .x_labels(11)
            .y_labels(n)
            .x_max_light_lines(0)
            .x_desc(b.axis.as_str())
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&name)
            .label_style(font(12.0))
            .axis_desc_style(font(12.0))
            .bold_line_style(RGBColor(230, 230, 230))
            .axis_style(INK)
            .draw()?;
        draw_bars(&mut chart, b)
    })
}

/// The chart a [`bar_chart`] draws on.
type BarChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, Bands>>;

/// The bars (and whiskers) of `b` on `chart`.
fn draw_bars(chart: &mut BarChart, b: &Bars) -> Drawn {
    let n = b.groups.len();
    let k = b.series.len().max(1) as f64;
    let pad = 0.15;
    let h = (1.0 - 2.0 * pad) / k;
    for (j, s) in b.series.iter().enumerate() {
        let colour = s.colour;
        let place = |g: usize| (n - 1 - g) as f64 + 1.0 - pad - h * (j as f64 + 1.0);
        let bars = s
            .bars
            .iter()
            .enumerate()
            .filter_map(|(g, x)| x.map(|x| (place(g), x)));
        chart.draw_series(bars.clone().map(|(y, x)| {
            // a zero shows as a sliver (n/a as nothing)
            let end = x.value.clamp(0.4, 100.0);
            Rectangle::new([(0.0, y), (end, y + h)], colour.filled())
        }))?;
        let whiskers = bars.filter_map(|(y, x)| Some((y, x.value, x.ci?)));
        chart.draw_series(whiskers.map(|(y, v, [lo, hi])| {
            let c = |x: f64| x.clamp(0.0, 100.0);
            ErrorBar::new_horizontal(y + h / 2.0, c(lo), c(v), c(hi), INK.stroke_width(1), 6)
        }))?;
    }
    Ok(())
}

/// The heatmap of matrix `m` (see the module documentation).
pub(super) fn matrix_chart(r: &Report, m: &Matrix) -> Option<Chart> {
    let (rows, cols) = (m.rows.len(), m.columns.len());
    let max = m.counts.iter().flatten().copied().max().unwrap_or(0);
    if rows == 0 || cols == 0 || max == 0 {
        return None;
    }
    let left = label_width(&m.rows, 12) + 24;
    let bottom = label_width(&m.columns, 10) + 24;
    let cell = ((WIDTH - left - 30) / cols as u32).clamp(8, 36);
    let top = head_height(0);
    let height = top + rows as u32 * cell.min(28) + bottom + 10;
    let caption = format!("{}; colour: log of the count", super::matrix_heading(r, m));
    let svg = render(WIDTH, height, |root| {
        let (upper, lower) = root.split_vertically(top);
        head(&upper, &[])?;
        let (plot, _) = lower.split_horizontally(left + cols as u32 * cell + 10);
        let mut cb = ChartBuilder::on(&plot);
        cb.margin_right(10)
            .margin_top(4)
            .x_label_area_size(bottom)
            .y_label_area_size(left);
        let mut chart = cb.build_cartesian_2d(Bands(cols), Bands(rows))?;
        let name = |v: &f64| band_from_top(*v, rows).map_or(String::new(), |g| short(&m.rows[g]));
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(0)
            .y_labels(rows)
            .y_label_formatter(&name)
            .label_style(font(12.0))
            .axis_desc_style(font(12.0))
            .x_desc(m.columns_are.as_str())
            .y_desc(m.rows_are.as_str())
            .axis_style(INK)
            .draw()?;
        heat_cells(&mut chart, m, max)?;
        column_labels(root, &chart, &m.columns)
    })?;
    Some(Chart { svg, caption })
}

/// The chart a [`matrix_chart`] draws on.
type HeatChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<Bands, Bands>>;

/// The cells of `m` (largest count `max`), coloured, with their counts when small enough.
fn heat_cells(chart: &mut HeatChart, m: &Matrix, max: u64) -> Drawn {
    let rows = m.rows.len();
    let printed = rows <= MAX_PRINTED && m.columns.len() <= MAX_PRINTED;
    let scale = (max as f64).ln_1p();
    // only the counts that have labels (a ragged matrix draws what it can)
    let cols = m.columns.len();
    let cells = m.counts.iter().take(rows).enumerate().flat_map(|(i, row)| {
        row.iter()
            .take(cols)
            .enumerate()
            .map(move |(j, &c)| (j as f64, (rows - 1 - i) as f64, c))
    });
    let cells: Vec<(f64, f64, u64)> = cells.collect();
    // zeros stay white (the background)
    chart.draw_series(cells.iter().filter(|c| c.2 > 0).map(|&(x, y, c)| {
        let colour = heat_colour((c as f64).ln_1p() / scale);
        Rectangle::new([(x, y), (x + 1.0, y + 1.0)], colour.filled())
    }))?;
    grid(chart, m.rows.len(), m.columns.len())?;
    if printed {
        let centre = Pos::new(HPos::Center, VPos::Center);
        chart.draw_series(cells.iter().filter(|c| c.2 > 0).map(|&(x, y, c)| {
            let t = (c as f64).ln_1p() / scale;
            let ink: &'static RGBColor = if t > 0.6 { &WHITE } else { &INK };
            Text::new(
                c.to_string(),
                (x + 0.5, y + 0.5),
                font(11.0).color(ink).pos(centre),
            )
        }))?;
    }
    Ok(())
}

/// The lines between the cells of a `rows` × `cols` heatmap.
fn grid(chart: &mut HeatChart, rows: usize, cols: usize) -> Drawn {
    let style = RGBColor(220, 220, 220).stroke_width(1);
    let (w, h) = (cols as f64, rows as f64);
    let across = (0..=rows).map(|i| vec![(0.0, i as f64), (w, i as f64)]);
    let down = (0..=cols).map(|j| vec![(j as f64, 0.0), (j as f64, h)]);
    chart.draw_series(across.chain(down).map(|p| PathElement::new(p, style)))?;
    Ok(())
}

/// The column labels of a heatmap, turned a quarter, under its columns.
fn column_labels(
    root: &DrawingArea<SVGBackend, Shift>,
    chart: &HeatChart,
    labels: &[String],
) -> Drawn {
    let style = font(12.0)
        .transform(FontTransform::Rotate90)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (j, label) in labels.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(j as f64 + 0.5, 0.0));
        root.draw(&Text::new(short(label), (x, y + 6), style.clone()))?;
    }
    Ok(())
}

/// The colour of a heatmap cell at `t` in [0, 1]: white to dark blue.
fn heat_colour(t: f64) -> RGBColor {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    if t == 0.0 {
        return WHITE;
    }
    let stops = [
        (222.0, 235.0, 247.0),
        (107.0, 174.0, 214.0),
        (8.0, 48.0, 107.0),
    ];
    let (a, b, u) = if t < 0.5 {
        (stops[0], stops[1], t * 2.0)
    } else {
        (stops[1], stops[2], t * 2.0 - 1.0)
    };
    let mix = |p: f64, q: f64| (p + (q - p) * u).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// How many of `values` fall in each of `bins` equal bins of `[lo, hi]` (the last bin
/// closed; values outside counted in the first or last bin; NaN ignored).
#[allow(dead_code)] // used by `histogram` only
fn bin_counts(values: &[f64], lo: f64, hi: f64, bins: usize) -> Vec<u64> {
    let mut counts = vec![0u64; bins];
    if bins == 0 || lo.partial_cmp(&hi) != Some(std::cmp::Ordering::Less) {
        return counts;
    }
    for &v in values.iter().filter(|v| !v.is_nan()) {
        let b = ((v - lo) / (hi - lo) * bins as f64).floor();
        let b = if b < 0.0 {
            0
        } else {
            (b as usize).min(bins - 1)
        };
        counts[b] += 1;
    }
    counts
}

/// A histogram of per-sentence values (`series`: a system's name and its values) on
/// `[lo, hi]` in `bins` bins, the systems' bars side by side in each bin; `None` when
/// there is nothing to draw.
pub(super) fn histogram(
    title: &str,
    x_label: &str,
    series: &[(String, Vec<f64>)],
    lo: f64,
    hi: f64,
    bins: usize,
) -> Option<Chart> {
    if series.is_empty() || bins == 0 || bins > 1000 || !(hi - lo).is_finite() || hi <= lo {
        return None;
    }
    let counts: Vec<Vec<u64>> = series
        .iter()
        .map(|(_, v)| bin_counts(v, lo, hi, bins))
        .collect();
    let max = counts.iter().flatten().copied().max().unwrap_or(0);
    if max == 0 {
        return None;
    }
    let legend: Vec<(String, RGBColor)> = series
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (name.clone(), PALETTE[i % PALETTE.len()]))
        .collect();
    let top = head_height(legend.len());
    let svg = render(WIDTH, top + 320, |root| {
        let (upper, lower) = root.split_vertically(top);
        head(&upper, &legend)?;
        let mut cb = ChartBuilder::on(&lower);
        cb.margin_right(24)
            .margin_top(8)
            .x_label_area_size(40)
            .y_label_area_size(56);
        let mut chart = cb.build_cartesian_2d(lo..hi, 0.0..max as f64 * 1.08)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_max_light_lines(0)
            .x_desc(x_label)
            .y_desc("sentences")
            .x_label_formatter(&|v| format!("{v}"))
            // whole sentences only: with few sentences the ticks fall between counts
            .y_labels((max + 1).min(11) as usize)
            .y_label_formatter(&|v| {
                if (v - v.round()).abs() < 1e-6 {
                    format!("{v:.0}")
                } else {
                    String::new()
                }
            })
            .label_style(font(12.0))
            .axis_desc_style(font(12.0))
            .bold_line_style(RGBColor(230, 230, 230))
            .axis_style(INK)
            .draw()?;
        let width = (hi - lo) / bins as f64;
        let k = counts.len() as f64;
        for (j, (c, (_, colour))) in counts.iter().zip(&legend).enumerate() {
            chart.draw_series(c.iter().enumerate().filter(|(_, &n)| n > 0).map(|(b, &n)| {
                let x0 = lo + width * (b as f64 + 0.05 + 0.9 * j as f64 / k);
                let x1 = x0 + width * 0.9 / k;
                Rectangle::new([(x0, 0.0), (x1, n as f64)], colour.filled())
            }))?;
        }
        Ok(())
    })?;
    Some(Chart {
        svg,
        caption: title.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    /// A chart as the page writes it: the SVG, then the caption escaped.
    fn page(c: Chart) -> String {
        format!(
            "{}<figcaption>{}</figcaption>",
            c.svg.trim_end(),
            crate::emit::html::esc(&c.caption)
        )
    }

    use super::*;
    use crate::model::Signature;
    use crate::value::{MeasureInfo, Row, System};
    use treeval_metrics::measure::Better;

    fn measure(name: &str, kind: Kind) -> MeasureInfo {
        MeasureInfo {
            name: name.into(),
            title: name.into(),
            formula: String::new(),
            source: String::new(),
            kind,
            better: Better::Higher,
            reads: Vec::new(),
        }
    }

    fn cell(measure: &str, value: Option<f64>) -> Cell {
        Cell {
            measure: measure.into(),
            value,
            counts: Vec::new(),
            ci: value.map(|v| [v * 0.9, (v * 1.1).min(1.0)]),
            mark: None,
        }
    }

    /// A report of `systems` with a keyed section `per-relation` (gold, LAS-F1, LAS-P).
    fn report(systems: &[&str], keys: &[&str]) -> Report {
        let mut r = Report::new("deps", Signature::new("deps", &[]));
        r.measures = vec![
            measure("gold", Kind::Count),
            measure("LAS-P", Kind::Fraction),
            measure("LAS-F1", Kind::Fraction),
        ];
        for name in systems {
            r.systems.push(System {
                name: name.to_string(),
                inputs: Vec::new(),
            });
        }
        let mut rows = Vec::new();
        for sys in 0..systems.len() {
            for (i, k) in keys.iter().enumerate() {
                let v = 0.5 + 0.1 * i as f64 - 0.05 * sys as f64;
                rows.push(Row {
                    system: sys,
                    key: Some(k.to_string()),
                    cells: vec![
                        cell("gold", Some(10.0 + i as f64)),
                        cell("LAS-P", Some(v)),
                        cell("LAS-F1", Some(v)),
                    ],
                });
            }
        }
        r.sections.push(Section {
            id: "per-relation".into(),
            title: "Per relation".into(),
            key: Some("deprel".into()),
            columns: vec!["gold".into(), "LAS-P".into(), "LAS-F1".into()],
            show_counts: false,
            compact: None,
            rows,
        });
        r
    }

    /// The fill colours of the `<rect>`s of `svg`, each once.
    fn fills(svg: &str) -> Vec<String> {
        let mut v: Vec<String> = svg
            .lines()
            .filter(|l| l.starts_with("<rect") && l.contains("fill=\"#"))
            .filter_map(|l| {
                l.split("fill=\"")
                    .nth(1)?
                    .split('"')
                    .next()
                    .map(String::from)
            })
            .collect();
        v.sort();
        v.dedup();
        v
    }

    fn self_contained(svg: &str) {
        assert!(svg.starts_with("<svg "), "{svg}");
        assert!(svg.trim_end().ends_with("</figcaption>"), "{svg}");
        assert!(svg.contains("</svg><figcaption>"), "{svg}");
        for bad in ["<?xml", "href", "url(", "@import", "src=", "<script"] {
            assert!(!svg.contains(bad), "{bad} in {svg}");
        }
    }

    #[test]
    fn input_strings_are_escaped() {
        let evil = "<script>alert(1)</script>";
        let mut r = report(&[evil, "b & c"], &[evil, "nsubj"]);
        r.sections[0].key = Some(evil.into());
        let svg = section_chart(&r, &r.sections[0]).map(page).unwrap();
        self_contained(&svg);
        assert!(
            svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{svg}"
        );
        assert!(svg.contains("b &amp; c"));
    }

    #[test]
    fn two_systems_two_colours_and_legend_entries() {
        let r = report(&["sys1.conllu", "sys2.conllu"], &["nsubj", "obj", "root"]);
        let svg = section_chart(&r, &r.sections[0]).map(page).unwrap();
        self_contained(&svg);
        assert!(svg.contains("LAS-F1 (%) by deprel"), "{svg}");
        for name in ["sys1.conllu", "sys2.conllu", "nsubj", "obj", "root"] {
            assert_eq!(svg.matches(&format!(">\n{name}\n<")).count(), 1, "{name}");
        }
        // the white background and the two systems' colours (swatches and bars)
        assert_eq!(fills(&svg), ["#1F77B4", "#FF7F0E", "#FFFFFF"]);
        // 2 swatches + 2 × 3 bars, and 6 whiskers
        assert_eq!(svg.matches("fill=\"#1F77B4\"").count(), 4);
        assert_eq!(svg.matches("<circle").count(), 6);
        // deterministic
        assert_eq!(svg, section_chart(&r, &r.sections[0]).map(page).unwrap());
        // no intervals: no whiskers, and the caption does not speak of them
        let mut r = r;
        r.sections[0]
            .rows
            .iter_mut()
            .for_each(|row| row.cells[2].ci = None);
        let svg = section_chart(&r, &r.sections[0]).map(page).unwrap();
        assert!(!svg.contains("<circle") && !svg.contains("whiskers"));
    }

    #[test]
    fn na_cells_are_skipped() {
        let mut r = report(&["a", "b"], &["nsubj", "obj"]);
        for row in &mut r.sections[0].rows {
            if row.system == 1 || row.key.as_deref() == Some("obj") {
                row.cells[2] = cell("LAS-F1", None);
            }
        }
        let svg = section_chart(&r, &r.sections[0]).map(page).unwrap();
        // one bar (and swatch) of a, a swatch of b; obj (all n/a) left out
        assert_eq!(svg.matches("fill=\"#1F77B4\"").count(), 2);
        assert_eq!(svg.matches("fill=\"#FF7F0E\"").count(), 1);
        assert!(!svg.contains(">\nobj\n<"));
        for row in &mut r.sections[0].rows {
            row.cells[2] = cell("LAS-F1", None);
        }
        assert_eq!(section_chart(&r, &r.sections[0]), None);
    }

    #[test]
    fn the_columns_charted() {
        let mut r = report(&["a"], &["x"]);
        let s = &r.sections[0];
        assert_eq!(chart_columns(&r, s), [2]);
        r.sections[0].key = None;
        assert_eq!(chart_columns(&r, &r.sections[0]), [1, 2]);
        r.sections[0].columns = vec!["gold".into()];
        assert_eq!(section_chart(&r, &r.sections[0]), None);
    }

    #[test]
    fn at_most_fifty_groups_the_most_frequent() {
        let keys: Vec<String> = (0..60).map(|i| format!("k{i}")).collect();
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        let r = report(&["a"], &keys);
        let b = keyed_bars(&r, &r.sections[0], 2).unwrap();
        assert_eq!(b.groups.len(), MAX_GROUPS);
        // gold grows with the key's number: the last 50 are kept, in order
        assert_eq!(b.groups[0], "k10");
        assert!(b
            .caption
            .contains("the 50 most frequent of 60 values (by gold)"));
    }

    #[test]
    fn heatmap_of_a_3x3_matrix() {
        let r = report(&["s<1>"], &["x"]);
        let m = Matrix {
            id: "confusion".into(),
            title: "Label confusion".into(),
            system: 0,
            rows_are: "gold".into(),
            columns_are: "system".into(),
            rows: vec!["nsubj".into(), "obj".into(), "<b>".into()],
            columns: vec!["nsubj".into(), "obj".into(), "<b>".into()],
            counts: vec![vec![120, 3, 0], vec![7, 45, 1], vec![0, 2, 9]],
        };
        let svg = matrix_chart(&r, &m).map(page).unwrap();
        self_contained(&svg);
        for n in [120, 3, 7, 45, 1, 2, 9] {
            assert_eq!(svg.matches(&format!(">\n{n}\n<")).count(), 1, "{n}");
        }
        assert!(!svg.contains(">\n0\n<"));
        assert!(svg.contains("&lt;b&gt;") && !svg.contains("<b>"));
        assert_eq!(svg.matches(">\nnsubj\n<").count(), 2);
        let empty = Matrix {
            counts: vec![vec![0; 3]; 3],
            ..m
        };
        assert_eq!(matrix_chart(&r, &empty), None);
    }

    #[test]
    fn odd_inputs_draw_what_they_can_without_panicking() {
        let mut r = report(
            &["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"],
            &["x"],
        );
        r.sections[0].rows[0].cells[2].value = Some(f64::NAN);
        r.sections[0].rows[1].cells[2].ci = Some([f64::NEG_INFINITY, 2.0]);
        r.sections[0].rows[2].cells[2].value = Some(7.5);
        r.sections[0].rows.push(Row {
            system: 99,
            key: None,
            cells: Vec::new(),
        });
        r.systems[0].name = "x".repeat(300);
        let svg = section_chart(&r, &r.sections[0]).map(page).unwrap();
        self_contained(&svg);
        assert!(svg.contains(&format!("{}…", "x".repeat(MAX_LINE - 1))));
        let ragged = Matrix {
            id: "confusion".into(),
            title: String::new(),
            system: 7,
            rows_are: String::new(),
            columns_are: String::new(),
            rows: vec!["a".into(), "b".into()],
            columns: vec!["a".into()],
            counts: vec![vec![1, 2, 3], vec![], vec![4]],
        };
        self_contained(&matrix_chart(&r, &ragged).map(page).unwrap());
        let page = crate::emit::to_string(
            &r,
            crate::render::OutputFormat::Html,
            crate::emit::Style::default(),
        );
        assert!(page.contains("<figure class=\"chart\" data-section=\"per-relation\"><svg "));
        assert!(!page.contains("<?xml"));
    }

    #[test]
    fn histogram_bins() {
        let v = [
            0.0,
            10.0,
            19.9,
            20.0,
            55.0,
            100.0,
            100.0,
            250.0,
            -3.0,
            f64::NAN,
        ];
        assert_eq!(bin_counts(&v, 0.0, 100.0, 5), [4, 1, 1, 0, 3]);
        assert_eq!(bin_counts(&v, 0.0, 100.0, 5).iter().sum::<u64>(), 9);
        let series = vec![
            ("a".to_string(), v.to_vec()),
            ("b".to_string(), vec![50.0; 4]),
        ];
        let svg = histogram("LAS per sentence", "LAS (%)", &series, 0.0, 100.0, 5)
            .map(page)
            .unwrap();
        self_contained(&svg);
        // bars: a has 4 non-empty bins, b one (+ a swatch each)
        assert_eq!(svg.matches("fill=\"#1F77B4\"").count(), 5);
        assert_eq!(svg.matches("fill=\"#FF7F0E\"").count(), 2);
        // the bars' heights, in pixels, are the counts on one scale: 4, 1, 1, 3 and 4
        let heights: Vec<f64> = svg
            .lines()
            .filter(|l| l.starts_with("<rect") && !l.contains("x=\"12\"") && !l.contains("#FFFFFF"))
            .filter_map(|l| l.split("height=\"").nth(1)?.split('"').next()?.parse().ok())
            .collect();
        let unit = heights[0] / 4.0;
        let counts: Vec<f64> = heights.iter().map(|h| (h / unit).round()).collect();
        assert_eq!(counts, [4.0, 1.0, 1.0, 3.0, 4.0]);
        assert_eq!(counts[..4].iter().sum::<f64>(), 9.0);
        assert_eq!(histogram("t", "x", &series, 1.0, 1.0, 5), None);
        assert_eq!(histogram("t", "x", &[], 0.0, 1.0, 5), None);
    }
}
