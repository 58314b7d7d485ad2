//! `treeval measures`: every family's measures, from their [`Measure`] values (name,
//! formula, source, the reference tool whose number each equals), as text (fits 100
//! columns), Markdown (docs/measures.md is this output) or JSON.

use serde::Serialize;
use treeval_metrics::measure::{Better, Kind, Measure};

/// The command that writes docs/measures.md.
pub const MARKDOWN_COMMAND: &str = "treeval measures --format markdown";

/// How the list is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeasuresFormat {
    /// Plain text, at most [`TEXT_WIDTH`] columns.
    Text,
    /// Markdown tables, one per family.
    Markdown,
    /// JSON (`treeval.measures/1`).
    Json,
}

/// The width of the text format.
pub const TEXT_WIDTH: usize = 100;

/// One family and the measures its reports show, in report order.
#[derive(Debug, Clone)]
pub struct Family {
    /// The command (`deps`).
    pub name: &'static str,
    /// What its measures are computed over, in a few words.
    pub about: &'static str,
    /// Its measures.
    pub measures: Vec<Measure>,
}

/// Every family, in the order of the commands in `treeval --help`.
pub fn families() -> Vec<Family> {
    use treeval_metrics::{align, brackets, deps, nbest, pts, relations, tedeval, ud};
    let f = |name, about, measures| Family {
        name,
        about,
        measures,
    };
    let mut ud_all = ud::measures::metric_measures();
    ud_all.extend(ud::measures::measures());
    let mut picks = nbest::pick_measures();
    picks.extend(nbest::gap_measures());
    vec![
        f(
            "deps",
            "the scored words and sentences of a gold and a system file",
            deps::measures(),
        ),
        f(
            "align",
            "the links of a hypothesis against sure and possible gold links",
            align::measures(0.5),
        ),
        f(
            "pts",
            "both sides' parses and their alignment, at --weights (default 1,1,1)",
            pts::measures(pts::Weights::default()),
        ),
        f(
            "ud",
            "every metric: its F1 (the tests' measure), then the columns of its row",
            ud_all,
        ),
        f(
            "relations",
            "sets of (head, label, dependent) relations per sentence",
            relations::measures(),
        ),
        f(
            "brackets",
            "labelled brackets, as EVALB's summary",
            brackets::measures::measures(),
        ),
        f(
            "brackets --profile unsupervised",
            "unlabeled spans over the words PRPN's tags keep",
            brackets::unsup::profile::measures(),
        ),
        f(
            "ted",
            "tree edit distance against the generalized gold",
            tedeval::measures::measures(),
        ),
        f(
            "nbest",
            "the picks of n-best lists (first, best, worst, chosen) and the choice's gap",
            picks,
        ),
    ]
}

/// The list in `format`.
pub fn render(format: MeasuresFormat) -> String {
    let all = families();
    match format {
        MeasuresFormat::Text => text(&all),
        MeasuresFormat::Markdown => markdown(&all),
        MeasuresFormat::Json => json(&all),
    }
}

/// A measure's formula; a count's is its title, summed (its formula only says "the sum
/// over units").
fn formula(m: &Measure) -> std::borrow::Cow<'_, str> {
    if m.is_count() && m.reads.len() == 1 {
        format!("{}, summed over the units", m.title).into()
    } else {
        m.formula.into()
    }
}

/// `s`, or `—` when empty.
fn or_dash(s: &str) -> &str {
    if s.is_empty() {
        "—"
    } else {
        s
    }
}

/// `text` in lines of at most `width` characters (a longer word stays whole).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let n = line.chars().count();
        if n > 0 && n + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// Per family a heading, then per measure its name and formula, its source and the tool
/// whose number it equals, wrapped to [`TEXT_WIDTH`] columns.
fn text(all: &[Family]) -> String {
    let names = all.iter().flat_map(|f| &f.measures).map(|m| m.name.len());
    let indent = 2 + names.max().unwrap_or(0) + 2;
    let width = TEXT_WIDTH - indent;
    let pad = " ".repeat(indent);
    let mut o = String::from(
        "Every measure of every family: its formula, the source it follows, and the reference\ntool whose number it equals (— where none).\n",
    );
    for f in all {
        o.push_str(&format!("\n{}: {}\n", f.name, f.about));
        for m in &f.measures {
            let mut lines = wrap(&formula(m), width);
            lines.extend(wrap(&format!("source: {}", or_dash(m.source)), width));
            lines.extend(wrap(&format!("equals: {}", or_dash(m.reference)), width));
            for (k, line) in lines.iter().enumerate() {
                if k == 0 {
                    o.push_str(&format!("  {:w$}  {line}\n", m.name, w = indent - 4));
                } else {
                    o.push_str(&format!("{pad}{line}\n"));
                }
            }
        }
    }
    o
}

/// A Markdown table cell: `|` escaped.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// docs/measures.md: a line saying it is generated, then a table per family.
fn markdown(all: &[Family]) -> String {
    let mut o = format!(
        "<!-- generated by `{MARKDOWN_COMMAND}`: do not edit; a test keeps this file equal to that output -->\n\n# Measures\n\nEvery measure of every family, as the code defines it (`Measure` values in\n`crates/treeval-metrics`): its formula, the paper or definition it follows, and the\nreference tool whose number it equals (— where none). Conventions (which words are\nscored, how labels compare, averaging) are in [metrics.md](metrics.md).\n"
    );
    for f in all {
        let about = cell(f.about);
        o.push_str(&format!("\n## `{}`\n\nMeasures of {about}.\n\n", f.name));
        o.push_str("| measure | formula | source | equals |\n|---|---|---|---|\n");
        for m in &f.measures {
            o.push_str(&format!(
                "| `{}` | {} | {} | {} |\n",
                m.name,
                cell(&formula(m)),
                cell(or_dash(m.source)),
                cell(or_dash(m.reference))
            ));
        }
    }
    o
}

/// One measure in JSON.
#[derive(Serialize)]
struct MeasureOut<'a> {
    name: &'a str,
    title: &'a str,
    formula: &'a str,
    source: &'a str,
    reference: &'a str,
    kind: Kind,
    better: Better,
}

/// One family in JSON.
#[derive(Serialize)]
struct FamilyOut<'a> {
    family: &'a str,
    about: &'a str,
    measures: Vec<MeasureOut<'a>>,
}

/// `{"schema": "treeval.measures/1", "families": [{family, about, measures: [...]}]}`.
fn json(all: &[Family]) -> String {
    let families: Vec<FamilyOut> = all
        .iter()
        .map(|f| FamilyOut {
            family: f.name,
            about: f.about,
            measures: f
                .measures
                .iter()
                .map(|m| MeasureOut {
                    name: m.name,
                    title: m.title,
                    formula: m.formula,
                    source: m.source,
                    reference: m.reference,
                    kind: m.kind,
                    better: m.better,
                })
                .collect(),
        })
        .collect();
    let v = serde_json::json!({"schema": "treeval.measures/1", "families": families});
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_fits_and_lists_every_measure() {
        let t = render(MeasuresFormat::Text);
        for line in t.lines() {
            assert!(line.chars().count() <= TEXT_WIDTH, "too wide: {line}");
        }
        for f in families() {
            assert!(!f.measures.is_empty(), "{}", f.name);
            for m in &f.measures {
                assert!(t.contains(&format!("  {} ", m.name)), "{}", m.name);
            }
        }
        assert!(t.contains("equals: eval07.pl, eval.pl, MaltEval"));
    }

    #[test]
    fn markdown_escapes_bars_and_json_parses() {
        let md = render(MeasuresFormat::Markdown);
        assert!(md.starts_with("<!-- generated by `treeval measures --format markdown`"));
        assert!(md.contains("\\|A∩P\\| / \\|A\\|"), "bars escaped in cells");
        for line in md.lines().filter(|l| l.starts_with("| `")) {
            // four cells: five unescaped bars
            let bars = line.replace("\\|", "").matches('|').count();
            assert_eq!(bars, 5, "{line}");
        }
        let v: serde_json::Value = serde_json::from_str(&render(MeasuresFormat::Json)).unwrap();
        assert_eq!(v["schema"], "treeval.measures/1");
        let deps = &v["families"][0];
        assert_eq!(deps["family"], "deps");
        assert_eq!(deps["measures"][0]["name"], "LAS");
        assert_eq!(deps["measures"][0]["kind"], "fraction");
    }

    #[test]
    fn wrap_keeps_words_whole() {
        assert_eq!(wrap("a bb ccc", 4), ["a bb", "ccc"]);
        assert_eq!(wrap("abcdef", 3), ["abcdef"]);
        assert_eq!(wrap("", 3), [""]);
    }
}
