//! The `ud` report: the CoNLL 2018 metrics and udeval's ELAS/EULAS, each with its counts,
//! per-relation scores over the word alignment, and what was read.

use std::fmt::Write as _;

use serde::Serialize;
use treeval_metrics::ud::{
    conll18_table, RelationCounts, ResyncWindow, SideStats, UdCounts, UdScore, METRICS,
};

use crate::model::{GroupRow, Signature, Warning};
use crate::render::{table, OutputFormat};
use treeval_metrics::deps::{ByKey, GroupCounts};

/// What was read from a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UdFileOut {
    /// Path as given.
    pub path: String,
    /// Sentences.
    pub sentences: u64,
    /// Tokens (a multiword token once).
    pub tokens: u64,
    /// Syntactic words.
    pub words: u64,
    /// Empty nodes.
    pub empty_nodes: u64,
    /// DEPS items into empty nodes left out by `--empty-nodes drop`.
    pub dropped_enhanced_items: u64,
    /// Enhanced items scored.
    pub enhanced_items: u64,
}

impl UdFileOut {
    /// From the reader's statistics.
    pub fn new(path: &str, s: &SideStats) -> Self {
        UdFileOut {
            path: path.to_owned(),
            sentences: s.sentences,
            tokens: s.tokens,
            words: s.words,
            empty_nodes: s.empty_nodes,
            dropped_enhanced_items: s.dropped_edges,
            enhanced_items: s.enhanced_items,
        }
    }
}

/// One relation's scores over the alignment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UdRelation {
    /// Universal relation.
    pub relation: String,
    /// Counts.
    #[serde(flatten)]
    pub counts: RelationCounts,
    /// LAS-correct / system words with the relation (`null` without system words).
    pub precision: Option<f64>,
    /// LAS-correct / gold words with the relation (`null` without gold words).
    pub recall: Option<f64>,
    /// Harmonic mean (`null` without gold and system words).
    pub f1: Option<f64>,
}

/// `n / d`, or `None` (not applicable) when `d` is 0.
pub fn ratio(n: u64, d: u64) -> Option<f64> {
    (d > 0).then(|| n as f64 / d as f64)
}

/// A percentage with two decimals, `n/a` when not applicable.
pub fn pct_or_na(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_owned(), |v| format!("{:.2}", 100.0 * v))
}

/// One system.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UdSystem {
    /// What was read.
    pub file: UdFileOut,
    /// Metric name → counts and scores, in [`METRICS`] order.
    pub metrics: serde_json::Map<String, serde_json::Value>,
    /// Per universal relation.
    pub per_relation: Vec<UdRelation>,
    /// Breakdowns over the alignment (`--by`): per group, gold words by their gold value
    /// with LAS/UAS/LA as recall, and system words by their system value with LAS as
    /// precision.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub by: std::collections::BTreeMap<String, Vec<GroupRow>>,
    /// Every mismatch window (`--align resync` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resync: Option<Vec<ResyncWindow>>,
    /// Bootstrap intervals of tested metrics' F1 (`--ci`).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub ci: std::collections::BTreeMap<String, [f64; 2]>,
    #[serde(skip)]
    counts: UdCounts,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UdReport {
    /// Schema version.
    pub schema: &'static str,
    /// `ud`.
    pub command: String,
    /// Reproducibility signature.
    pub signature: Signature,
    /// The gold file.
    pub gold: UdFileOut,
    /// One per system.
    pub systems: Vec<UdSystem>,
    /// Pairwise tests on the F1 of the tested metrics.
    pub comparisons: Vec<treeval_stats::compare::Comparison>,
    /// Ranks per metric and test.
    pub rankings: Vec<treeval_stats::compare::Ranking>,
    /// Warnings.
    pub warnings: Vec<Warning>,
}

impl UdSystem {
    /// Build from a system's counts.
    pub fn new(file: UdFileOut, counts: &UdCounts, relations: &[(String, RelationCounts)]) -> Self {
        let metrics = counts
            .scores(METRICS.len())
            .into_iter()
            .map(|(k, v)| (k.to_owned(), score_json(&v)))
            .collect();
        let per_relation = relations
            .iter()
            .map(|(name, c)| UdRelation {
                relation: name.clone(),
                counts: *c,
                precision: ratio(c.correct, c.system),
                recall: ratio(c.correct, c.gold),
                f1: ratio(2 * c.correct, c.gold + c.system),
            })
            .collect();
        UdSystem {
            file,
            metrics,
            per_relation,
            by: Default::default(),
            resync: None,
            ci: Default::default(),
            counts: *counts,
        }
    }

    /// Add the breakdowns of an evaluation.
    pub fn with_by(mut self, by: &[(ByKey, Vec<(String, GroupCounts)>)]) -> Self {
        for (key, groups) in by {
            let rows =
                crate::deps::group_rows(*key, groups.iter().map(|(n, g)| (n.as_str(), g)), true);
            self.by.insert(key.name().to_owned(), rows);
        }
        self
    }

    /// The counts the scores come from.
    pub fn counts(&self) -> &UdCounts {
        &self.counts
    }
}

/// Precision, recall, F1 and aligned accuracy, each `None` (not applicable) when its
/// denominator is 0: a metric with no gold and no system items measures nothing (the
/// reference scripts print 0.00 there; the compat tables still do).
pub fn applicable(s: &UdScore) -> [Option<f64>; 4] {
    [
        ratio(s.correct, s.system),
        ratio(s.correct, s.gold),
        ratio(2 * s.correct, s.gold + s.system),
        s.aligned.and_then(|a| ratio(s.correct, a)),
    ]
}

fn score_json(s: &UdScore) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("correct".into(), s.correct.into());
    m.insert("gold".into(), s.gold.into());
    m.insert("system".into(), s.system.into());
    if let Some(a) = s.aligned {
        m.insert("aligned".into(), a.into());
    }
    let [p, r, f, acc] = applicable(s);
    m.insert("precision".into(), p.into());
    m.insert("recall".into(), r.into());
    m.insert("f1".into(), f.into());
    if s.aligned.is_some() {
        m.insert("aligned_accuracy".into(), acc.into());
    }
    serde_json::Value::Object(m)
}

/// The mismatch windows of `--align resync`, one line each after a summary line.
pub fn resync_lines(s: &UdSystem) -> Vec<String> {
    let Some(windows) = &s.resync else {
        return Vec::new();
    };
    let (gw, sw): (u64, u64) = windows
        .iter()
        .fold((0, 0), |(a, b), w| (a + w.gold.words, b + w.system.words));
    let mut out = vec![format!(
        "resync: {} mismatch window{}; {gw} gold and {sw} system words in them are unaligned",
        windows.len(),
        if windows.len() == 1 { "" } else { "s" }
    )];
    let words = |n: u64| format!("{n} word{}", if n == 1 { "" } else { "s" });
    let lines = |a: u64, b: u64, chars: u64| {
        if chars == 0 {
            format!("at line {a}")
        } else if a == b {
            format!("line {a}")
        } else {
            format!("lines {a}-{b}")
        }
    };
    for w in windows {
        let (g, y) = (&w.gold, &w.system);
        let mut line = format!(
            "  gold {}, system {}: {}; gold '{}' ({}), system '{}' ({})",
            lines(g.first_line, g.last_line, g.chars),
            lines(y.first_line, y.last_line, y.chars),
            w.cause.describe(),
            g.text,
            words(g.words),
            y.text,
            words(y.words)
        );
        // the differing characters, by code point when they are few and not ASCII (NFC
        // and NFD look the same)
        let code = |t: &str| {
            let cps: Vec<String> = t
                .chars()
                .map(|c| match c {
                    ' ' => "/".to_owned(),
                    c => format!("U+{:04X}", c as u32),
                })
                .collect();
            if cps.len() <= 8 && !t.is_ascii() && !t.ends_with('…') {
                format!(" [{}]", cps.join(" "))
            } else {
                String::new()
            }
        };
        let (cg, cy) = (code(&g.differing), code(&y.differing));
        if g.differing != g.text || y.differing != y.text || !cg.is_empty() || !cy.is_empty() {
            line.push_str(&format!(
                "; differing '{}'{cg} vs '{}'{cy}",
                g.differing, y.differing
            ));
        }
        out.push(line);
    }
    out
}

/// Output that mirrors a reference script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UdCompat {
    /// `conll18_ud_eval.py` (its three lines LAS, MLAS, BLEX).
    Conll18,
    /// `conll18_ud_eval.py -v`.
    Conll18Verbose,
    /// `conll18_ud_eval.py -c`.
    Conll18Counts,
    /// `udeval` (its five lines LAS, MLAS, BLEX, ELAS, EULAS).
    Udeval,
    /// `udeval -v` (with ELAS and EULAS).
    UdevalVerbose,
    /// `udeval -c`.
    UdevalCounts,
}

/// The lines the reference scripts print without `-v` or `-c`: LAS, MLAS and BLEX F1,
/// and udeval's ELAS and EULAS F1 (`enhanced`).
pub fn official_lines(counts: &UdCounts, enhanced: bool) -> String {
    let scores = counts.scores(METRICS.len());
    let f1 = |name: &str| {
        scores
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0.0, |(_, s)| 100.0 * s.f1)
    };
    let mut o = format!(
        "LAS F1 Score: {:.2}\nMLAS Score: {:.2}\nBLEX Score: {:.2}\n",
        f1("LAS"),
        f1("MLAS"),
        f1("BLEX")
    );
    if enhanced {
        o.push_str(&format!(
            "ELAS F1 Score: {:.2}\nEULAS F1 Score: {:.2}\n",
            f1("ELAS"),
            f1("EULAS")
        ));
    }
    o
}

/// Render the report.
pub fn render(
    r: &UdReport,
    format: OutputFormat,
    compat: Option<UdCompat>,
    per_relation: bool,
) -> String {
    if let Some(c) = compat {
        let table =
            |n: usize, counts: bool| move |s: &UdSystem| conll18_table(&s.counts.scores(n), counts);
        let one: Box<dyn Fn(&UdSystem) -> String> = match c {
            UdCompat::Conll18 => Box::new(|s: &UdSystem| official_lines(&s.counts, false)),
            UdCompat::Udeval => Box::new(|s: &UdSystem| official_lines(&s.counts, true)),
            UdCompat::Conll18Verbose => Box::new(table(13, false)),
            UdCompat::Conll18Counts => Box::new(table(13, true)),
            UdCompat::UdevalVerbose => Box::new(table(15, false)),
            UdCompat::UdevalCounts => Box::new(table(15, true)),
        };
        return r.systems.iter().map(one).collect::<Vec<_>>().join("\n");
    }
    if format == OutputFormat::Json {
        let mut s =
            serde_json::to_string_pretty(r).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
        s.push('\n');
        return s;
    }
    let mut o = String::new();
    let _ = writeln!(o, "{}", r.signature.0);
    let g = &r.gold;
    let _ = writeln!(
        o,
        "gold: {} ({} sentences, {} tokens, {} words, {} empty nodes)",
        g.path, g.sentences, g.tokens, g.words, g.empty_nodes
    );
    for (k, s) in r.systems.iter().enumerate() {
        let f = &s.file;
        let _ = writeln!(
            o,
            "\n[{}] {} ({} sentences, {} tokens, {} words, {} empty nodes)",
            k + 1,
            f.path,
            f.sentences,
            f.tokens,
            f.words,
            f.empty_nodes
        );
        let enhanced = g.enhanced_items + f.enhanced_items > 0;
        let n = if enhanced { METRICS.len() } else { 13 };
        let mut rows = vec![vec![
            "metric".to_string(),
            "precision".into(),
            "recall".into(),
            "F1".into(),
            "aligned acc".into(),
            "correct".into(),
            "gold".into(),
            "system".into(),
            "aligned".into(),
        ]];
        for (name, sc) in s.counts.scores(n) {
            let [p, rc, f, acc] = applicable(&sc);
            rows.push(vec![
                name.to_string(),
                pct_or_na(p),
                pct_or_na(rc),
                pct_or_na(f),
                sc.aligned.map_or(String::new(), |_| pct_or_na(acc)),
                sc.correct.to_string(),
                sc.gold.to_string(),
                sc.system.to_string(),
                sc.aligned.map_or(String::new(), |a| a.to_string()),
            ]);
        }
        o.push_str(&table(&rows, 1));
        if !enhanced {
            let _ = writeln!(o, "(ELAS and EULAS omitted: neither file has DEPS items)");
        }
        for line in resync_lines(s) {
            let _ = writeln!(o, "{line}");
        }
        if g.dropped_enhanced_items + f.dropped_enhanced_items > 0 {
            let _ = writeln!(
                o,
                "note: {} gold and {} system DEPS items into empty nodes left out (--empty-nodes drop)",
                g.dropped_enhanced_items, f.dropped_enhanced_items
            );
        }
        if per_relation {
            let mut rows = vec![vec![
                "relation".to_string(),
                "precision".into(),
                "recall".into(),
                "F1".into(),
                "correct".into(),
                "gold".into(),
                "system".into(),
                "head ok".into(),
            ]];
            for x in &s.per_relation {
                rows.push(vec![
                    x.relation.clone(),
                    pct_or_na(x.precision),
                    pct_or_na(x.recall),
                    pct_or_na(x.f1),
                    x.counts.correct.to_string(),
                    x.counts.gold.to_string(),
                    x.counts.system.to_string(),
                    x.counts.head.to_string(),
                ]);
            }
            let _ = writeln!(
                o,
                "\nper relation (universal part; LAS over the alignment):"
            );
            o.push_str(&table(&rows, 1));
        }
        crate::render::by_tables(&mut o, &f.path, &s.by);
    }
    crate::render::significance_lines(
        &mut o,
        r.systems.iter().map(|s| &s.ci),
        &r.comparisons,
        " F1",
    );
    // warnings go to stderr (the command prints them with their file and line) and are
    // in the JSON report; the text report on stdout holds the results only
    o
}
