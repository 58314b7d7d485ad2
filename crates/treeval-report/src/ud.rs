//! The `ud` report on the shared model: the CoNLL 2018 metrics and udeval's ELAS/EULAS
//! (a row per metric: precision, recall, F1, aligned accuracy, each with its counts),
//! per-relation scores over the word alignment, breakdowns, the resync windows; and the
//! reference scripts' own outputs (`--compat`).

use serde::Serialize;
use treeval_metrics::deps::filter::Where;
use treeval_metrics::deps::{group_measures, ByKey, GroupCounts};
use treeval_metrics::ud::measures::{measures, relation_measures};
use treeval_metrics::ud::{
    conll18_table, Count, RelationCounts, ResyncWindow, SideStats, UdCounts, UdMetric,
};

use crate::driver::{keyed_rows, Intervals};
use crate::model::{Signature, Warning, WarningKind};
use crate::value::{Input, Report, Row, Section, System};

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
    /// The columns that are `_` on every word, each with the measures it makes n/a when
    /// the file is gold (not in the JSON inputs: the warnings say it).
    #[serde(skip)]
    pub empty_columns: Vec<(&'static str, &'static [&'static str])>,
    /// Everything read (for a mergeable state; not in the JSON inputs).
    #[serde(skip)]
    pub stats: SideStats,
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
            empty_columns: s.empty_columns(),
            stats: *s,
        }
    }
}

/// The mismatch windows of `--align resync`, one line each after a summary line.
pub fn resync_lines(windows: Option<&[ResyncWindow]>) -> Vec<String> {
    let Some(windows) = windows else {
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

/// The warning of `--align resync` about the system at `path` (kind
/// `tokenization_resync`), if its text differs from the gold's: how many mismatch windows
/// and unaligned words, the first window as [`resync_lines`] shows it, one count per
/// window and the system lines of the first few.
pub fn resync_warning(path: &str, windows: Option<&[ResyncWindow]>) -> Option<Warning> {
    let lines = resync_lines(windows);
    let (first, w) = (lines.get(1)?, windows?);
    let (gw, sw): (u64, u64) = w
        .iter()
        .fold((0, 0), |(a, b), w| (a + w.gold.words, b + w.system.words));
    let at = |w: &ResyncWindow| format!("{path}:{}", w.system.first_line);
    let n = w.len();
    let mut warning = Warning::of(
        WarningKind::TokenizationResync,
        at(&w[0]),
        format!(
            "the texts of gold and system differ in {n} mismatch window{} ({gw} gold and {sw} system words in them are unaligned; --align resync aligned the words around them); the first: {}",
            if n == 1 { "" } else { "s" },
            first.trim_start()
        ),
        Some("the text report (without --compat) and the JSON (inputs[].counts.resync) list every window".into()),
    );
    warning.count = n as u64;
    if n > 1 {
        warning.positions = w
            .iter()
            .take(crate::model::GROUP_POSITIONS)
            .map(at)
            .collect();
    }
    Some(warning)
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
    let scores = counts.scores(&UdMetric::ALL);
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

/// One system's evaluation, as the report needs it.
#[derive(Debug, Clone)]
pub struct UdSystemIn {
    /// What was read.
    pub file: UdFileOut,
    /// Corpus totals.
    pub counts: UdCounts,
    /// Per universal relation.
    pub relations: Vec<(String, RelationCounts)>,
    /// Breakdowns over the alignment.
    pub by: Vec<(ByKey, Vec<(String, GroupCounts)>)>,
    /// The mismatch windows (`--align resync`).
    pub resync: Option<Vec<ResyncWindow>>,
    /// Per gold sentence (kept for tests and intervals; else empty).
    pub sentences: Vec<UdCounts>,
    /// Per gold sentence, its words as aligned (for the HTML page; else empty).
    pub trace: Vec<treeval_metrics::ud::trace::TracedSentence>,
    /// The relation names the trace's labels index.
    pub trace_labels: Vec<String>,
}

/// What the report shows besides the metrics.
#[derive(Debug, Clone, Copy, Default)]
pub struct UdShown {
    /// Per-relation scores (`--per-relation`).
    pub per_relation: bool,
    /// Intervals on every score (`--ci`).
    pub ci: Option<Intervals>,
}

/// Build the report.
pub fn build(
    signature: Signature,
    gold: &UdFileOut,
    systems: &[UdSystemIn],
    shown: UdShown,
    warnings: Vec<Warning>,
) -> Report {
    let mut signature = signature;
    if !gold.empty_columns.is_empty() {
        // the sanity warning raised: empty-xpos, empty-feats, empty-lemma
        let kinds: Vec<String> = gold
            .empty_columns
            .iter()
            .map(|c| format!("empty-{}", c.0.to_lowercase()))
            .collect();
        signature.push("warn", kinds.join(","));
    }
    let mut r = Report::new("ud", signature);
    r.convention("labels", "universal");
    inputs(&mut r, gold, systems);
    // ELAS and EULAS are there with the others: n/a (null) when no file has DEPS items
    let ms = measures();
    r.add_measures::<Count>(&ms);
    let mut scores = metric_section(systems, &UdMetric::ALL, &ms, shown.ci);
    not_applicable(&mut scores, gold, systems);
    r.sections.push(scores);
    if shown.per_relation {
        let rm = relation_measures();
        r.add_measures::<RelationCounts>(&rm);
        r.sections.push(relation_section(systems, &rm));
    }
    breakdowns(&mut r, systems);
    notes(&mut r, gold, systems);
    r.warnings = warnings;
    r
}

/// One file as a report input, its counts those read.
fn input(role: &str, f: &UdFileOut, system: Option<usize>) -> Input {
    Input {
        role: role.into(),
        path: f.path.clone(),
        format: "conllu".into(),
        description: format!(
            "{} sentences, {} tokens, {} words, {} empty nodes",
            f.sentences, f.tokens, f.words, f.empty_nodes
        ),
        counts: serde_json::to_value(f).unwrap_or_default(),
        system,
    }
}

/// The gold and system files as inputs (a system's with its resync windows), and the
/// systems.
fn inputs(r: &mut Report, gold: &UdFileOut, systems: &[UdSystemIn]) {
    r.inputs.push(input("gold", gold, None));
    for (k, s) in systems.iter().enumerate() {
        let mut i = input("system", &s.file, Some(k));
        if let (Some(w), Some(m)) = (&s.resync, i.counts.as_object_mut()) {
            m.insert("resync".into(), serde_json::to_value(w).unwrap_or_default());
        }
        r.inputs.push(i);
        r.systems.push(System {
            name: s.file.path.clone(),
            inputs: vec![k + 1],
        });
    }
}

/// Per universal relation scores of every system (`--per-relation`).
fn relation_section(systems: &[UdSystemIn], rm: &[treeval_metrics::measure::Measure]) -> Section {
    let mut rows = Vec::new();
    for (k, s) in systems.iter().enumerate() {
        rows.extend(keyed_rows(
            rm,
            k,
            s.relations.iter().map(|(n, c)| (n.clone(), c)),
        ));
    }
    Section {
        id: "per-relation".into(),
        title: "per relation (universal part; LAS over the alignment)".into(),
        key: Some("relation".into()),
        columns: rm.iter().map(|m| m.name.to_string()).collect(),
        show_counts: false,
        compact: None,
        rows,
    }
}

/// A section per breakdown key (those of the first system), every system's groups.
fn breakdowns(r: &mut Report, systems: &[UdSystemIn]) {
    let keys: Vec<ByKey> = systems
        .first()
        .map(|s| s.by.iter().map(|(k, _)| *k).collect())
        .unwrap_or_default();
    for (i, key) in keys.into_iter().enumerate() {
        let gm = group_measures(true);
        r.add_measures::<GroupCounts>(&gm);
        let per = systems.iter().enumerate().filter_map(|(k, s)| {
            let (_, groups) = s.by.get(i)?;
            Some((k, groups.iter().map(|(n, g)| (n.clone(), g)).collect()))
        });
        r.sections.push(crate::deps::by_section(key, &gm, per));
    }
}

/// `--where` in the report: the convention, how many gold words each system's scores
/// kept, and how precision then reads.
pub fn add_where(r: &mut Report, filter: &Where, gold: &UdFileOut, systems: &[UdSystemIn]) {
    if filter.is_empty() {
        return;
    }
    r.convention("where", filter.describe());
    for s in systems {
        let kept = (s.counts.metrics[UdMetric::Words].gold, gold.words);
        let note = crate::deps::where_note(&s.file.path, filter, kept, "gold words");
        r.notes.push(note);
    }
    r.notes.push(
        "where: only the gold words that meet the conditions and the system words aligned to them are counted, so recall = right / kept gold words and precision = right / system words aligned to kept gold words (the aligned accuracy; a system word aligned to no gold word meets no condition on gold words); Tokens and Sentences are not counted (n/a)".into(),
    );
}

/// The notes of every system: its resync windows, DEPS items left out.
fn notes(r: &mut Report, gold: &UdFileOut, systems: &[UdSystemIn]) {
    for s in systems {
        for line in resync_lines(s.resync.as_deref()) {
            r.notes.push(format!("{}: {line}", s.file.path));
        }
        if gold.dropped_enhanced_items + s.file.dropped_enhanced_items > 0 {
            r.notes.push(format!(
                "{}: {} gold and {} system DEPS items into empty nodes left out (--empty-nodes drop)",
                s.file.path, gold.dropped_enhanced_items, s.file.dropped_enhanced_items
            ));
        }
    }
}

/// The rows of the metrics that read a gold column that is `_` on every word, the
/// enhanced metrics when the gold has no DEPS item (nothing to recall), and a system's
/// rows of the metrics that read a column it leaves `_` on every word while the gold
/// fills it ([`SideStats::system_empty_columns`]): n/a (their counts kept, no interval).
fn not_applicable(scores: &mut Section, gold: &UdFileOut, systems: &[UdSystemIn]) {
    let reads = |empty: &[(&str, &[&str])], k: &str| empty.iter().any(|(_, m)| m.contains(&k));
    let no_gold_graph = gold.enhanced_items == 0;
    let per_system: Vec<_> = systems
        .iter()
        .map(|s| s.file.stats.system_empty_columns(&gold.stats))
        .collect();
    for row in &mut scores.rows {
        let na = row.key.as_deref().is_some_and(|k| {
            reads(&gold.empty_columns, k)
                || (no_gold_graph && matches!(k, "ELAS" | "EULAS"))
                || per_system.get(row.system).is_some_and(|e| reads(e, k))
        });
        if na {
            for c in &mut row.cells {
                c.value = None;
                c.ci = None;
            }
        }
    }
}

/// The metrics of every system, a row per metric: its totals, and with intervals its
/// sentences resampled.
fn metric_section(
    systems: &[UdSystemIn],
    metrics: &[UdMetric],
    ms: &[treeval_metrics::measure::Measure],
    ci: Option<Intervals>,
) -> Section {
    // every system's units of every metric; their intervals from one resampling run
    let mut keys = Vec::new();
    let mut groups: Vec<Vec<Count>> = Vec::new();
    for (k, s) in systems.iter().enumerate() {
        for &m in metrics {
            keys.push((k, m.name()));
            groups.push(if ci.is_some() && !s.sentences.is_empty() {
                s.sentences.iter().map(|c| c.metrics[m]).collect()
            } else {
                vec![s.counts.metrics[m]]
            });
        }
    }
    let refs: Vec<&[Count]> = groups.iter().map(Vec::as_slice).collect();
    let rows = keys
        .into_iter()
        .zip(crate::driver::cells_of_groups(ms, &refs, ci))
        .map(|((k, name), cells)| Row {
            system: k,
            key: Some(name.to_owned()),
            cells,
        })
        .collect();
    Section {
        id: "scores".into(),
        title: String::new(),
        key: Some("metric".into()),
        columns: ms.iter().map(|m| m.name.to_string()).collect(),
        show_counts: true,
        compact: Some("F1".into()),
        rows,
    }
}

/// The reference script's output for every system (`--compat`).
pub fn compat_text(systems: &[UdSystemIn], c: UdCompat) -> String {
    let one = |s: &UdSystemIn| match c {
        UdCompat::Conll18 => official_lines(&s.counts, false),
        UdCompat::Udeval => official_lines(&s.counts, true),
        UdCompat::Conll18Verbose => conll18_table(&s.counts.scores(&UdMetric::CONLL18), false),
        UdCompat::Conll18Counts => conll18_table(&s.counts.scores(&UdMetric::CONLL18), true),
        UdCompat::UdevalVerbose => conll18_table(&s.counts.scores(&UdMetric::ALL), false),
        UdCompat::UdevalCounts => conll18_table(&s.counts.scores(&UdMetric::ALL), true),
    };
    systems.iter().map(one).collect::<Vec<_>>().join("\n")
}
