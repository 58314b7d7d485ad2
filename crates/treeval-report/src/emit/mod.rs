//! One emitter per output format over the one [`Report`] value: text, JSON, CSV/TSV,
//! Markdown, LaTeX and HTML. Each writes to any `io::Write`; none computes a score.

use std::io::{self, Write};

use treeval_metrics::measure::Kind;

use crate::render::OutputFormat;
use crate::value::{Cell, Report};
use treeval_stats::compare::{Comparison, Ranking, TestKind};

mod browser;
mod delimited;
mod html;
mod latex;
mod layout;
mod markdown;
mod plots;
mod text;

/// How a report is shown, besides its format: the output switches (`--wide`). JSON, CSV,
/// TSV, Markdown, LaTeX and HTML hold everything whatever they say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    /// Text: every column however wide (each fraction's counts beside it, ud's full
    /// table, the intervals in a table of their own), as before text fitted 100 columns.
    /// Default (`false`): one value per cell, intervals inline, every table laid out to
    /// fit 100 columns (the rule of `emit::layout`), prose wrapped.
    pub wide: bool,
}

/// Write `r` in `format` and `style` to `w`, its warnings one entry per kind
/// ([`crate::model::group_warnings`]: every format lists the same entries).
pub fn emit(r: &Report, format: OutputFormat, style: Style, w: &mut dyn Write) -> io::Result<()> {
    let grouped = crate::model::group_warnings(r.warnings.clone());
    if grouped.len() < r.warnings.len() {
        let mut g = r.clone();
        g.warnings = grouped;
        return emit_as_is(&g, format, style, w);
    }
    emit_as_is(r, format, style, w)
}

/// Write `r` in `format` to `w`, as it is.
fn emit_as_is(r: &Report, format: OutputFormat, style: Style, w: &mut dyn Write) -> io::Result<()> {
    match format {
        OutputFormat::Text => text::emit(r, style, w),
        OutputFormat::Json => json(r, w),
        OutputFormat::Csv => delimited::emit(r, ',', w),
        OutputFormat::Tsv => delimited::emit(r, '\t', w),
        OutputFormat::Markdown => markdown::emit(r, w),
        OutputFormat::Latex => latex::emit(r, w),
        OutputFormat::Html => html::emit(r, w),
    }
}

/// `r` in `format` and `style`, as a string.
pub fn to_string(r: &Report, format: OutputFormat, style: Style) -> String {
    let mut v = Vec::new();
    // writing to a Vec cannot fail
    let _ = emit(r, format, style, &mut v);
    String::from_utf8_lossy(&v).into_owned()
}

/// The conventions as one line (`profile conll07, punctuation include, …`), if any.
pub(crate) fn conventions(r: &Report) -> Option<String> {
    let c: Vec<String> = r
        .conventions
        .iter()
        .map(|c| format!("{} {}", c.name, c.value))
        .collect();
    (!c.is_empty()).then(|| c.join(", "))
}

/// One input as every format lists it: who it is (its role; a system's input with the
/// system's name: `system sys2`, `system a parser-b`), its path as given, and what it
/// holds (`conllu, 3 sentences, 21 words`). The names in the tables are short; this is
/// where each is tied to its file.
pub(crate) struct InputShown<'a> {
    /// `gold`, `system NAME`, `gold a`, …
    pub who: String,
    /// The path as given; a merged input's, what its shards' paths share
    /// (`gold.*.conllu`, [`crate::state::shared_name`]).
    pub path: std::borrow::Cow<'a, str>,
    /// Its format and description, comma-separated (may be empty).
    pub what: String,
}

/// Every input of `r`, as [`InputShown`]. A merged report's input of several shards
/// (its path the shards' joined by ` + `, as JSON keeps it) is shown by what their paths
/// share, with the number of shard files (`gold.*.conllu (8 shard files, conllu, …)`),
/// so that a line does not grow with the shards.
pub(crate) fn inputs_shown(r: &Report) -> Vec<InputShown<'_>> {
    let merged = r.conventions.iter().any(|c| c.name == "merged");
    r.inputs
        .iter()
        .map(|i| {
            let who = match i.system {
                Some(k) => format!("{} {}", i.role, r.system_name(k)),
                None => i.role.clone(),
            };
            let parts: Vec<&str> = i.path.split(" + ").collect();
            let shared = (merged && parts.len() > 1)
                .then(|| crate::state::shared_name(&parts))
                .filter(|p| p.contains('*'));
            let files = shared
                .as_ref()
                .map(|_| format!("{} shard files", parts.len()));
            let what: Vec<&str> = [files.as_deref().unwrap_or(""), i.format.as_str()]
                .into_iter()
                .chain([i.description.as_str()])
                .filter(|s| !s.is_empty())
                .collect();
            InputShown {
                who,
                path: shared.map_or(std::borrow::Cow::Borrowed(i.path.as_str()), Into::into),
                what: what.join(", "),
            }
        })
        .collect()
}

/// The JSON contract, pretty-printed, with a final newline.
fn json(r: &Report, w: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, r)?;
    writeln!(w)
}

/// A fraction as a percentage with two decimals; `n/a` where there is nothing to
/// measure (a zero denominator), in every command's tables.
pub(crate) fn pct(x: Option<f64>) -> String {
    match x {
        Some(v) => format!("{:.2}", v * 100.0),
        None => "n/a".into(),
    }
}

/// A value as its measure's kind shows it.
pub(crate) fn shown(kind: Kind, x: Option<f64>) -> String {
    match (kind, x) {
        (_, None) => "n/a".into(),
        (Kind::Fraction, v) => pct(v),
        (Kind::Count, Some(v)) => format!("{v}"),
        (Kind::Mean, Some(v)) => format!("{v:.2}"),
    }
}

/// A cell's value as shown, with `[low, high]` when it has an interval.
pub(crate) fn shown_with_ci(r: &Report, c: &Cell) -> String {
    let kind = r.measure(&c.measure).map_or(Kind::Fraction, |m| m.kind);
    let mut v = shown(kind, c.value);
    v.push_str(c.mark.as_deref().unwrap_or(""));
    match c.ci {
        Some([lo, hi]) => format!("{v} [{}, {}]", shown(kind, Some(lo)), shown(kind, Some(hi))),
        None => v,
    }
}

/// The note that explains the intervals in the cells, `[low, high]: 95% percentile
/// bootstrap confidence intervals`, when the report has intervals.
pub(crate) fn ci_note(r: &Report) -> Option<String> {
    let level = r.significance.as_ref().and_then(|s| s.ci_level)?;
    Some(format!(
        "[low, high]: {}% percentile bootstrap confidence intervals",
        crate::model::level_percent(level)
    ))
}

/// The counts a fraction was computed from, `16/21`.
pub(crate) fn counts(c: &Cell) -> String {
    c.counts
        .iter()
        .map(|x| format!("{x}"))
        .collect::<Vec<_>>()
        .join("/")
}

/// Aligned columns: the first `right_from` left-aligned, the rest right-aligned.
pub(crate) fn table(rows: &[Vec<String>], right_from: usize) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut w = vec![0; cols];
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (i, c) in r.iter().enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let pad = w[i] - c.chars().count();
            if i >= right_from {
                line.push_str(&" ".repeat(pad));
                line.push_str(c);
            } else {
                line.push_str(c);
                line.push_str(&" ".repeat(pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A matrix as rows of strings: a header (`gold \ system`, column labels) and a row per
/// row label with its counts.
pub(crate) fn matrix_rows(m: &crate::value::Matrix) -> Vec<Vec<String>> {
    let mut head = vec![format!("{} \\ {}", m.rows_are, m.columns_are)];
    head.extend(m.columns.iter().cloned());
    let mut rows = vec![head];
    for (label, counts) in m.rows.iter().zip(&m.counts) {
        let mut row = vec![label.clone()];
        row.extend(counts.iter().map(u64::to_string));
        rows.push(row);
    }
    rows
}

/// A listing as rows of strings: its columns, then its rows.
pub(crate) fn listing_rows(l: &crate::value::Listing) -> Vec<Vec<String>> {
    std::iter::once(l.columns.clone())
        .chain(l.rows.iter().cloned())
        .collect()
}

/// A listing's heading: what it lists, for which system, how many of each kind.
pub(crate) fn listing_heading(r: &Report, l: &crate::value::Listing) -> String {
    let kinds: Vec<String> = l
        .kinds
        .iter()
        .map(|k| format!("{} {}", k.count, k.kind))
        .collect();
    let name = r.system_name(l.system);
    if kinds.is_empty() && !l.rows.is_empty() {
        // a table of groups (`wrong-arcs`): its rows are not items of a kind
        return format!("{} of {name}: {} rows", l.id, l.rows.len());
    }
    let what = if kinds.is_empty() {
        "none".to_owned()
    } else {
        kinds.join(", ")
    };
    format!("{} of {name}: {} ({what})", l.id, l.rows.len())
}

/// A matrix's heading: its title and system.
pub(crate) fn matrix_heading(r: &Report, m: &crate::value::Matrix) -> String {
    format!("{}: {}", m.title, r.system_name(m.system))
}

/// One test's results as every format shows them: lines that say how it ran (once),
/// a table of one row per measure and pair of systems (a header row first: the pair as
/// B − A, the difference, its interval, p and the adjusted p with † where significant;
/// McNemar adds its discordant counts and z), and the ranks when more than two systems
/// are ranked.
pub(crate) struct TestBlock {
    /// What was tested and how, the difference and its interval, the correction.
    pub heading: Vec<String>,
    /// The header row, then one row per measure and pair.
    pub rows: Vec<Vec<String>>,
    /// What a rank is, and a table of them (a header row of the measures, then one row
    /// per ranked system), when more than two systems are ranked.
    pub ranks: Option<(String, Vec<Vec<String>>)>,
}

/// The tests' results, one block per test (in the order of the rankings), each with the
/// comparisons of every measure it ran on.
pub(crate) fn test_blocks(r: &Report) -> Vec<TestBlock> {
    let mut tests: Vec<TestKind> = Vec::new();
    for rk in &r.rankings {
        if !tests.contains(&rk.test) {
            tests.push(rk.test);
        }
    }
    tests.into_iter().map(|t| test_block(r, t)).collect()
}

/// The block of test `t`.
fn test_block(r: &Report, t: TestKind) -> TestBlock {
    let rankings: Vec<&Ranking> = r.rankings.iter().filter(|rk| rk.test == t).collect();
    let cmp: Vec<&Comparison> = rankings
        .iter()
        .flat_map(|rk| (r.comparisons.iter()).filter(move |c| c.metric == rk.metric && c.test == t))
        .collect();
    let level = cmp.first().map_or(0.95, |c| c.ci_level);
    let mut head: Vec<String> = ["", "pair", "B − A"].map(String::from).to_vec();
    head.extend([
        format!("{}% interval", percent(level)),
        "p".into(),
        "p-adj".into(),
    ]);
    if t == TestKind::Mcnemar {
        head.extend(["b/c", "z"].map(String::from));
    }
    let mut rows = vec![head];
    rows.extend(cmp.iter().map(|c| comparison_row(r, c)));
    TestBlock {
        heading: test_heading(r, t, &cmp),
        rows,
        ranks: rank_table(r, &rankings),
    }
}

/// A comparison as a row: measure, the pair as `B − A` by name, the difference (in points for a
/// fraction, with its sign), its interval, p and the adjusted p († where significant);
/// McNemar's b/c and z.
fn comparison_row(r: &Report, c: &Comparison) -> Vec<String> {
    let kind = r.measure(&c.metric).map_or(Kind::Fraction, |m| m.kind);
    let mut row = vec![
        c.metric.clone(),
        format!("{} − {}", r.system_name(c.b), r.system_name(c.a)),
        signed(kind, c.difference),
        c.difference_ci.map_or_else(String::new, |[lo, hi]| {
            format!("[{}, {}]", shown(kind, Some(lo)), shown(kind, Some(hi)))
        }),
        format!("{:.4}", c.p_value),
        format!(
            "{:.4}{}",
            c.p_adjusted,
            if c.significant { " †" } else { "" }
        ),
    ];
    if let (Some(b), Some(cc)) = (c.b_count, c.c_count) {
        row.push(format!("{b}/{cc}"));
        row.push(c.z.map_or_else(String::new, |z| format!("{z:.2}")));
    }
    row
}

/// The widest line a test block's text table may take (a terminal's 100 columns).
const TEXT_WIDTH: usize = 100;

/// A test block's rows as a text table (measure and pair left-aligned): one row per
/// measure and pair, or, when a line would be wider than [`TEXT_WIDTH`] (long names),
/// the rows grouped by pair, each pair on a line of its own above its rows.
pub(crate) fn test_text(rows: &[Vec<String>]) -> String {
    let flat = table(rows, 2);
    if flat.lines().all(|l| l.chars().count() <= TEXT_WIDTH) || rows.len() < 2 {
        return flat;
    }
    let pair = |r: &Vec<String>| r.get(1).cloned().unwrap_or_default();
    let mut pairs: Vec<String> = Vec::new();
    for r in &rows[1..] {
        if !pairs.contains(&pair(r)) {
            pairs.push(pair(r));
        }
    }
    let mut grouped: Vec<&Vec<String>> = rows[1..].iter().collect();
    grouped.sort_by_key(|r| pairs.iter().position(|p| *p == pair(r)));
    let without_pair = |r: &Vec<String>| {
        let mut r = r.clone();
        r.remove(1);
        r
    };
    let stripped: Vec<Vec<String>> = std::iter::once(&rows[0])
        .chain(grouped.iter().copied())
        .map(without_pair)
        .collect();
    let lines = table(&stripped, 1);
    let mut lines = lines.lines();
    let mut out = format!("  {}\n", lines.next().unwrap_or_default());
    let mut last = None;
    for (r, line) in grouped.iter().zip(lines) {
        if last.as_ref() != Some(&pair(r)) {
            out.push_str(&format!("{}\n", pair(r)));
            last = Some(pair(r));
        }
        out.push_str(&format!("  {line}\n"));
    }
    out
}

/// The adjusted p-values of a block's rows (from column `at`) padded where they have no
/// † when another has one, so that their digits line up in a text table.
pub(crate) fn align_marks(rows: &mut [Vec<String>], at: usize) {
    let marked = |r: &Vec<String>| r.get(at).is_some_and(|p| p.ends_with(" †"));
    if rows.iter().any(marked) {
        for r in rows.iter_mut().skip(1) {
            if let Some(p) = r.get_mut(at).filter(|p| !p.ends_with(" †")) {
                p.push_str("  ");
            }
        }
    }
}

/// A difference as its measure's kind shows it, with its sign (`+9.52`: points for a
/// fraction); `n/a` where a score is undefined.
pub(crate) fn signed(kind: Kind, x: Option<f64>) -> String {
    match (kind, x) {
        (_, None) => "n/a".into(),
        (Kind::Fraction, Some(v)) => format!("{:+.2}", v * 100.0),
        (Kind::Count, Some(v)) => format!("{v:+}"),
        (Kind::Mean, Some(v)) => format!("{v:+.2}"),
    }
}

/// How test `t` ran, the difference and its interval, and the correction, in words (each
/// line under 100 columns).
fn test_heading(r: &Report, t: TestKind, cmp: &[&Comparison]) -> Vec<String> {
    let Some(sig) = &r.significance else {
        return Vec::new();
    };
    let exact: Vec<bool> = cmp.iter().map(|c| c.exact == Some(true)).collect();
    // only ar has Bikel's one-sided variant
    let side = match sig.alternative {
        treeval_stats::Alternative::Greater if t == TestKind::Ar => {
            "one-sided (is A better than B?)"
        }
        _ => "two-sided",
    };
    let mut lines = vec![match t {
        TestKind::Mcnemar => format!("Test: McNemar, {side}"),
        TestKind::Ar if !exact.is_empty() && exact.iter().all(|&e| e) => {
            format!("Test: exact permutation, {side}")
        }
        TestKind::Ar => format!(
            "Test: approximate randomization, {side}, {} shuffles, seed {}",
            sig.ar_samples, sig.seed
        ),
        TestKind::Bootstrap => format!(
            "Test: paired bootstrap, {side}, {} samples, seed {}",
            sig.bootstrap_samples, sig.seed
        ),
    }];
    if t == TestKind::Ar && exact.iter().any(|&e| e) {
        let which = if exact.iter().all(|&e| e) {
            ""
        } else {
            "exact where "
        };
        lines.push(format!(
            "  ({which}at most 16 sentences differ: all 2^m swaps enumerated)"
        ));
    }
    if t == TestKind::Mcnemar {
        lines.push("  b/c: decisions right in A only / in B only; z: MaltEval's".into());
    }
    let level = percent(cmp.first().map_or(0.95, |c| c.ci_level));
    lines.push(format!(
        "B − A: second system minus first, in points; {level}% bootstrap interval: {} samples, seed {}",
        sig.ci_samples, sig.seed
    ));
    lines.push(format!(
        "p-adj: Holm–Bonferroni over the pairs of each measure; † = significant at α {}",
        sig.alpha
    ));
    lines
}

/// A level as a percentage: `95`, `97.5`.
fn percent(level: f64) -> String {
    crate::model::level_percent(level)
}

/// The ranks of a test's measures, when more than two systems are ranked: what a rank
/// is, and a row per ranked system.
fn rank_table(r: &Report, rankings: &[&Ranking]) -> Option<(String, Vec<Vec<String>>)> {
    let ranked = |i: usize| {
        rankings
            .iter()
            .any(|rk| rk.ranks.get(i).is_some_and(Option::is_some))
    };
    let n = rankings.iter().map(|rk| rk.ranks.len()).max().unwrap_or(0);
    let systems: Vec<usize> = (0..n).filter(|&i| ranked(i)).collect();
    if systems.len() <= 2 {
        return None;
    }
    let mut head = vec!["system".to_string()];
    head.extend(rankings.iter().map(|rk| rk.metric.clone()));
    let mut rows = vec![head];
    for i in systems {
        let mut row = vec![r.system_name(i).to_string()];
        row.extend(
            rankings
                .iter()
                .map(|rk| rank_cell(rk.ranks.get(i).copied().flatten())),
        );
        rows.push(row);
    }
    let what = "rank: 1 + the number of systems significantly better on the measure";
    Some((what.to_string(), rows))
}

/// A rank as printed: the number, or `–` for a system the tests left out (no rank).
pub(crate) fn rank_cell(rank: Option<usize>) -> String {
    rank.map_or_else(|| "–".into(), |r| r.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(
            latex::esc("a_b%c&d#e$f{g}h~i^j\\"),
            "a\\_b\\%c\\&d\\#e\\$f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j\\textbackslash{}"
        );
        assert_eq!(delimited::esc("a,b", ','), "\"a,b\"");
        assert_eq!(delimited::esc("a\"b", '\t'), "\"a\"\"b\"");
        assert_eq!(delimited::esc("plain", ','), "plain");
        assert_eq!(markdown::esc("a|b"), "a\\|b");
        assert_eq!(pct(Some(0.5)), "50.00");
        assert_eq!(pct(None), "n/a");
    }

    /// Short names: one row per measure and pair; names too long for 100 columns: each
    /// pair once, above its rows, and every other line within 100 columns.
    #[test]
    fn test_rows_fit_100_columns() {
        let row = |m: &str, pair: &str, d: &str| -> Vec<String> {
            [m, pair, d, "[-4.76, 23.81]", "0.7500", "0.7500"]
                .map(String::from)
                .to_vec()
        };
        let head = row("", "pair", "B − A");
        let short = vec![
            head.clone(),
            row("LAS", "b − a", "+9.52"),
            row("UAS", "b − a", "+1.00"),
        ];
        assert_eq!(test_text(&short), table(&short, 2));
        let (x, y) = ("x".repeat(30), "y".repeat(30));
        let (xy, yx) = (format!("{x} − {y}"), format!("{y} − {x}"));
        let long = vec![
            head,
            row("LAS", &xy, "+9.52"),
            row("LAS", &yx, "-9.52"),
            row("UAS", &xy, "+1.00"),
        ];
        let text = test_text(&long);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], xy);
        assert!(
            lines[2].trim_start().starts_with("LAS") && lines[3].trim_start().starts_with("UAS")
        );
        assert_eq!(lines[4], yx);
        assert!(lines.iter().all(|l| l.chars().count() <= 100), "{text}");
    }
}
