//! Renderers: one function per output format. They format the [`Report`]; they never
//! compute scores (the one exception, documented below, is the compat lines, which must
//! reproduce the reference scripts' own float arithmetic on the counts).

use std::fmt::Write as _;

use crate::model::*;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Aligned tables for people.
    Text,
    /// The versioned JSON contract.
    Json,
    /// Long-format CSV: one row per (system, section, key, metric).
    Csv,
    /// The same as tab-separated values.
    Tsv,
    /// Markdown tables.
    Markdown,
    /// A LaTeX `tabular` (booktabs).
    Latex,
}

/// What optional sections the text-like renderers show.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sections {
    /// Per-relation precision/recall/F1 tables.
    pub per_relation: bool,
}

pub(crate) use crate::emit::{pct, table};

fn metric_cells(m: &Headline) -> [(&'static str, &Metric); 6] {
    [
        ("LAS", &m.LAS),
        ("UAS", &m.UAS),
        ("LA", &m.LA),
        ("LEM", &m.LEM),
        ("UEM", &m.UEM),
        ("ROOT", &m.ROOT),
    ]
}

/// Render `r` in `format`.
pub fn render(r: &Report, format: OutputFormat, sections: Sections) -> String {
    match format {
        OutputFormat::Text => text(r, sections),
        OutputFormat::Json => json(r),
        OutputFormat::Csv => delimited(r, ','),
        OutputFormat::Tsv => delimited(r, '\t'),
        OutputFormat::Markdown => markdown(r, sections),
        OutputFormat::Latex => latex(r),
    }
}

/// The JSON contract, pretty-printed, with a final newline.
pub fn json(r: &Report) -> String {
    let mut s =
        serde_json::to_string_pretty(r).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

fn text(r: &Report, sections: Sections) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}", r.signature.0);
    let _ = writeln!(
        o,
        "gold: {} ({}, {} sentences, {} words)",
        r.gold.path,
        r.gold.format.as_deref().unwrap_or("?"),
        r.gold.sentences,
        r.gold.words
    );
    let _ = writeln!(
        o,
        "conventions: profile {}, punctuation {}, labels {}, average {}",
        r.conventions.profile, r.conventions.punct, r.conventions.labels, r.conventions.avg
    );
    o.push('\n');
    let mut rows = vec![vec!["system".to_string()]];
    for name in ["LAS", "UAS", "LA", "LEM", "UEM", "ROOT"] {
        rows[0].push(name.to_string());
        rows[0].push("correct/total".to_string());
    }
    for s in &r.systems {
        let mut row = vec![s.path.clone()];
        for (_, m) in metric_cells(&s.metrics) {
            row.push(pct(m.score));
            row.push(format!("{}/{}", m.correct, m.total));
        }
        rows.push(row);
    }
    o.push_str(&table(&rows, 1));
    o.push('\n');
    let mut rows = vec![vec![
        "macro average".to_string(),
        "over".into(),
        "LAS".into(),
        "UAS".into(),
        "LA".into(),
    ]];
    for s in &r.systems {
        let m = &s.macro_;
        rows.push(vec![
            format!("{} (sentences)", s.path),
            m.sentences.count.to_string(),
            pct(m.sentences.LAS),
            pct(m.sentences.UAS),
            pct(m.sentences.LA),
        ]);
        rows.push(vec![
            format!("{} (relations)", s.path),
            m.relations.count.to_string(),
            pct(m.relations.LAS),
            pct(m.relations.UAS),
            pct(m.relations.LA),
        ]);
    }
    o.push_str(&table(&rows, 1));
    for s in &r.systems {
        if s.excluded_words > 0 {
            let _ = writeln!(
                o,
                "\n{}: {} word(s) not scored (punctuation policy {})",
                s.path, s.excluded_words, r.conventions.punct
            );
        }
        let v = &s.validity;
        if v.sentences_with_problems > 0 {
            let _ = writeln!(
                o,
                "\n{}: {} sentence(s) with malformed trees: {} HEAD '_', {} HEAD out of range, {} self-loop(s), {} cycle(s), {} without root, {} with several roots (scored word by word)",
                s.path, v.sentences_with_problems, v.missing_heads, v.heads_out_of_range, v.self_loops, v.cycles, v.no_root, v.multiple_roots
            );
        }
        if s.form_mismatches > 0 {
            let _ = writeln!(
                o,
                "\n{}: {} word(s) with a FORM different from gold",
                s.path, s.form_mismatches
            );
        }
    }
    if r.gold_validity.sentences_with_problems > 0 {
        let _ = writeln!(
            o,
            "\ngold: {} sentence(s) with malformed trees",
            r.gold_validity.sentences_with_problems
        );
    }
    for s in &r.systems {
        if sections.per_relation {
            let _ = writeln!(o, "\nper relation: {}", s.path);
            let mut rows = vec![vec![
                "deprel".to_string(),
                "gold".into(),
                "system".into(),
                "LAS-P".into(),
                "LAS-R".into(),
                "LAS-F1".into(),
                "UAS-P".into(),
                "UAS-R".into(),
                "LA-P".into(),
                "LA-R".into(),
            ]];
            for x in &s.per_relation {
                rows.push(vec![
                    x.label.clone(),
                    x.gold.to_string(),
                    x.system.to_string(),
                    pct(x.labeled.precision),
                    pct(x.labeled.recall),
                    pct(x.labeled.f1),
                    pct(x.unlabeled.precision),
                    pct(x.unlabeled.recall),
                    pct(x.label_only.precision),
                    pct(x.label_only.recall),
                ]);
            }
            o.push_str(&table(&rows, 1));
        }
        by_tables_with(&mut o, &s.path, &s.by, pct);
        if let Some(c) = &s.confusion {
            let _ = writeln!(
                o,
                "\nlabel confusions (rows gold, columns system): {}",
                s.path
            );
            let mut rows = vec![std::iter::once("gold \\ system".to_string())
                .chain(c.labels.iter().cloned())
                .collect::<Vec<_>>()];
            for (i, l) in c.labels.iter().enumerate() {
                rows.push(
                    std::iter::once(l.clone())
                        .chain(c.matrix[i].iter().map(u64::to_string))
                        .collect(),
                );
            }
            o.push_str(&table(&rows, 1));
        }
    }
    significance_text(r, &mut o);
    if r.warnings_total > 0 {
        let _ = writeln!(
            o,
            "\n{} warning(s); see stderr or the JSON report",
            r.warnings_total
        );
    }
    o
}

/// Per metric and test: a cross-table of p-values (row system vs column system), † where
/// significant after Holm–Bonferroni, and the ranks; and the confidence intervals.
fn significance_text(r: &Report, o: &mut String) {
    use treeval_stats::compare::TestKind;
    let Some(sig) = &r.significance else { return };
    if let Some(level) = sig.ci_level {
        let _ = writeln!(
            o,
            "\n{:.0}% bootstrap confidence intervals ({} samples, seed {}, percentile)",
            level * 100.0,
            sig.ci_samples,
            sig.seed
        );
        let mut rows = vec![vec![
            "system".to_string(),
            "metric".into(),
            "score".into(),
            "interval".into(),
        ]];
        for s in &r.systems {
            for (name, m) in metric_cells(&s.metrics) {
                if let Some([lo, hi]) = m.ci {
                    rows.push(vec![
                        s.path.clone(),
                        name.into(),
                        pct(m.score),
                        format!("[{}, {}]", pct(Some(lo)), pct(Some(hi))),
                    ]);
                }
            }
        }
        o.push_str(&table(&rows, 2));
    }
    for rk in &r.rankings {
        let n = rk.ranks.len();
        let cmp: Vec<_> = r
            .comparisons
            .iter()
            .filter(|c| c.metric == rk.metric && c.test == rk.test)
            .collect();
        let how = match rk.test {
            TestKind::Mcnemar => "McNemar".to_string(),
            TestKind::Ar if cmp.iter().all(|c| c.exact == Some(true)) => {
                "exact permutation test: at most 16 sentences differ, all 2^m swaps enumerated"
                    .to_string()
            }
            TestKind::Ar => format!(
                "approximate randomization, {} shuffles, seed {}{}",
                sig.ar_samples,
                sig.seed,
                if cmp.iter().any(|c| c.exact == Some(true)) {
                    "; exact where at most 16 sentences differ"
                } else {
                    ""
                }
            ),
            TestKind::Bootstrap => format!(
                "paired bootstrap, {} samples, seed {}",
                sig.bootstrap_samples, sig.seed
            ),
        };
        let side = match sig.alternative {
            treeval_stats::Alternative::TwoSided => "two-sided",
            treeval_stats::Alternative::Greater => "one-sided: row better than column",
        };
        let _ = writeln!(
            o,
            "\n{}: {} ({}); p-values, † = significant at {} after Holm–Bonferroni",
            rk.metric, how, side, sig.alpha
        );
        let mut head = vec![String::new()];
        head.extend((1..n).map(|j| format!("[{}]", j + 1)));
        head.push("rank".into());
        let mut rows = vec![head];
        for i in 0..n {
            let mut row = vec![format!(
                "[{}] {}",
                i + 1,
                r.systems.get(i).map_or("", |s| s.path.as_str())
            )];
            for j in 1..n {
                let cell = cmp
                    .iter()
                    .find(|c| c.a == i && c.b == j)
                    .map(|c| format!("{:.4}{}", c.p_value, if c.significant { " †" } else { "" }))
                    .unwrap_or_default();
                row.push(cell);
            }
            row.push(rk.ranks[i].to_string());
            rows.push(row);
        }
        o.push_str(&table(&rows, 1));
    }
}

fn esc_delim(s: &str, d: char) -> String {
    if s.contains(d) || s.contains('"') || s.contains('\n') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

fn delimited(r: &Report, d: char) -> String {
    let mut o = String::new();
    let head = [
        "signature",
        "system",
        "section",
        "key",
        "metric",
        "correct",
        "total",
        "score",
    ];
    o.push_str(&head.join(&d.to_string()));
    o.push('\n');
    let mut row = |sys: &str,
                   section: &str,
                   key: &str,
                   metric: &str,
                   c: String,
                   t: String,
                   score: Option<f64>| {
        let cells = [
            esc_delim(&r.signature.0, d),
            esc_delim(sys, d),
            esc_delim(section, d),
            esc_delim(key, d),
            esc_delim(metric, d),
            c,
            t,
            score.map_or_else(|| "n/a".to_owned(), |v| v.to_string()),
        ];
        o.push_str(&cells.join(&d.to_string()));
        o.push('\n');
    };
    for s in &r.systems {
        for (name, m) in metric_cells(&s.metrics) {
            row(
                &s.path,
                "overall",
                "",
                name,
                m.correct.to_string(),
                m.total.to_string(),
                m.score,
            );
        }
        for (name, v) in [
            ("LAS", s.macro_.sentences.LAS),
            ("UAS", s.macro_.sentences.UAS),
            ("LA", s.macro_.sentences.LA),
        ] {
            row(
                &s.path,
                "macro-sentences",
                "",
                name,
                String::new(),
                s.macro_.sentences.count.to_string(),
                v,
            );
        }
        for (name, v) in [
            ("LAS", s.macro_.relations.LAS),
            ("UAS", s.macro_.relations.UAS),
            ("LA", s.macro_.relations.LA),
        ] {
            row(
                &s.path,
                "macro-relations",
                "",
                name,
                String::new(),
                s.macro_.relations.count.to_string(),
                v,
            );
        }
        for x in &s.per_relation {
            let c = &x.counts;
            row(
                &s.path,
                "relation",
                &x.label,
                "LAS-precision",
                c.labeled_correct.to_string(),
                c.system.to_string(),
                x.labeled.precision,
            );
            row(
                &s.path,
                "relation",
                &x.label,
                "LAS-recall",
                c.labeled_correct.to_string(),
                c.gold.to_string(),
                x.labeled.recall,
            );
            row(
                &s.path,
                "relation",
                &x.label,
                "UAS-precision",
                c.system_head_correct.to_string(),
                c.system.to_string(),
                x.unlabeled.precision,
            );
            row(
                &s.path,
                "relation",
                &x.label,
                "UAS-recall",
                c.gold_head_correct.to_string(),
                c.gold.to_string(),
                x.unlabeled.recall,
            );
            row(
                &s.path,
                "relation",
                &x.label,
                "LA-precision",
                c.label_correct.to_string(),
                c.system.to_string(),
                x.label_only.precision,
            );
            row(
                &s.path,
                "relation",
                &x.label,
                "LA-recall",
                c.label_correct.to_string(),
                c.gold.to_string(),
                x.label_only.recall,
            );
        }
        for (key, groups) in &s.by {
            let section = format!("by-{key}");
            for g in groups {
                let c = &g.counts;
                row(
                    &s.path,
                    &section,
                    &g.group,
                    "LAS",
                    c.gold_las.to_string(),
                    c.gold.to_string(),
                    g.LAS,
                );
                row(
                    &s.path,
                    &section,
                    &g.group,
                    "UAS",
                    c.gold_uas.to_string(),
                    c.gold.to_string(),
                    g.UAS,
                );
                row(
                    &s.path,
                    &section,
                    &g.group,
                    "LA",
                    c.gold_la.to_string(),
                    c.gold.to_string(),
                    g.LA,
                );
                if g.system_words.is_some() {
                    row(
                        &s.path,
                        &section,
                        &g.group,
                        "system-LAS",
                        c.system_las.to_string(),
                        c.system.to_string(),
                        g.system_LAS,
                    );
                }
            }
        }
    }
    for c in &r.comparisons {
        let (sa, sb) = (
            r.systems.get(c.a).map_or("", |s| s.path.as_str()),
            r.systems.get(c.b).map_or("", |s| s.path.as_str()),
        );
        let section = format!("test-{}", c.test.name());
        row(
            sa,
            &section,
            sb,
            &format!("{}-p", c.metric),
            String::new(),
            c.samples.to_string(),
            Some(c.p_value),
        );
        row(
            sa,
            &section,
            sb,
            &format!("{}-p-holm", c.metric),
            String::new(),
            c.samples.to_string(),
            Some(c.p_adjusted),
        );
        row(
            sa,
            &section,
            sb,
            &format!("{}-statistic", c.metric),
            String::new(),
            String::new(),
            Some(c.statistic),
        );
    }
    for s in &r.systems {
        for (name, m) in metric_cells(&s.metrics) {
            if let Some([lo, hi]) = m.ci {
                let level = r
                    .significance
                    .as_ref()
                    .and_then(|x| x.ci_level)
                    .unwrap_or(0.0)
                    .to_string();
                row(
                    &s.path,
                    "ci",
                    &level,
                    &format!("{name}-low"),
                    String::new(),
                    String::new(),
                    Some(lo),
                );
                row(
                    &s.path,
                    "ci",
                    &level,
                    &format!("{name}-high"),
                    String::new(),
                    String::new(),
                    Some(hi),
                );
            }
        }
    }
    o
}

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|")
}

fn markdown(r: &Report, sections: Sections) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "`{}`\n", r.signature.0);
    let _ = writeln!(o, "| system | LAS | UAS | LA | LEM | UEM | ROOT |");
    let _ = writeln!(o, "|---|---:|---:|---:|---:|---:|---:|");
    for s in &r.systems {
        let cells: Vec<String> = metric_cells(&s.metrics)
            .iter()
            .map(|(_, m)| pct(m.score))
            .collect();
        let _ = writeln!(o, "| {} | {} |", md_escape(&s.path), cells.join(" | "));
    }
    let _ = writeln!(o, "\n| system | macro over | items | LAS | UAS | LA |");
    let _ = writeln!(o, "|---|---|---:|---:|---:|---:|");
    for s in &r.systems {
        let m = &s.macro_;
        let _ = writeln!(
            o,
            "| {} | sentences | {} | {} | {} | {} |",
            md_escape(&s.path),
            m.sentences.count,
            pct(m.sentences.LAS),
            pct(m.sentences.UAS),
            pct(m.sentences.LA)
        );
        let _ = writeln!(
            o,
            "| {} | relations | {} | {} | {} | {} |",
            md_escape(&s.path),
            m.relations.count,
            pct(m.relations.LAS),
            pct(m.relations.UAS),
            pct(m.relations.LA)
        );
    }
    if sections.per_relation {
        for s in &r.systems {
            let _ = writeln!(o, "\n**{}**: per relation\n", md_escape(&s.path));
            let _ = writeln!(o, "| deprel | gold | system | LAS P | LAS R | LAS F1 |");
            let _ = writeln!(o, "|---|---:|---:|---:|---:|---:|");
            for x in &s.per_relation {
                let _ = writeln!(
                    o,
                    "| {} | {} | {} | {} | {} | {} |",
                    md_escape(&x.label),
                    x.gold,
                    x.system,
                    pct(x.labeled.precision),
                    pct(x.labeled.recall),
                    pct(x.labeled.f1)
                );
            }
        }
    }
    for s in &r.systems {
        for (key, groups) in &s.by {
            let _ = writeln!(o, "\n**{}**: by {}\n", md_escape(&s.path), key);
            let _ = writeln!(o, "| {key} | words | LAS | UAS | LA |");
            let _ = writeln!(o, "|---|---:|---:|---:|---:|");
            for g in groups {
                let _ = writeln!(
                    o,
                    "| {} | {} | {} | {} | {} |",
                    md_escape(&g.group),
                    g.words,
                    pct(g.LAS),
                    pct(g.UAS),
                    pct(g.LA)
                );
            }
        }
    }
    o
}

fn tex_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => o.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                o.push('\\');
                o.push(c);
            }
            '~' => o.push_str("\\textasciitilde{}"),
            '^' => o.push_str("\\textasciicircum{}"),
            _ => o.push(c),
        }
    }
    o
}

fn latex(r: &Report) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "% {}", r.signature.0);
    let _ = writeln!(o, "\\begin{{tabular}}{{lrrrrrr}}");
    let _ = writeln!(o, "\\toprule");
    let _ = writeln!(o, "System & LAS & UAS & LA & LEM & UEM & ROOT \\\\");
    let _ = writeln!(o, "\\midrule");
    for s in &r.systems {
        let cells: Vec<String> = metric_cells(&s.metrics)
            .iter()
            .map(|(_, m)| pct(m.score))
            .collect();
        let _ = writeln!(o, "{} & {} \\\\", tex_escape(&s.path), cells.join(" & "));
    }
    let _ = writeln!(o, "\\bottomrule");
    let _ = writeln!(o, "\\end{{tabular}}");
    o
}

/// Which reference script's summary lines to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compat {
    /// `eval07.pl -q` (CoNLL 2007).
    Eval07,
    /// `eval.pl -q` (CoNLL-X).
    EvalPl,
}

/// The three summary lines of `eval07.pl -q` / `eval.pl -q` (the two print the same
/// lines), byte for byte. The percentage is computed as the scripts compute it,
/// `100 - errors * 100.0 / total` in double precision, then printed with `%.2f`
/// (Rust's `{:.2}` rounds the exact binary value half-to-even, as glibc's printf).
/// `Err` when there is no scored word (where the scripts die dividing by zero).
pub fn compat_lines(m: &Headline) -> Result<String, String> {
    let total = m.LAS.total;
    if total == 0 {
        return Err("no scored word: the reference scripts would die dividing by zero".into());
    }
    let mut o = String::new();
    for (label, metric) in [
        ("Labeled   attachment score:", &m.LAS),
        ("Unlabeled attachment score:", &m.UAS),
        ("Label accuracy score:      ", &m.LA),
    ] {
        let err = metric.total - metric.correct;
        let score = 100.0 - err as f64 * 100.0 / metric.total as f64;
        let _ = writeln!(
            o,
            "  {label} {} / {} * 100 = {score:.2} %",
            metric.correct, metric.total
        );
    }
    Ok(o)
}

/// What `eval09.pl -q` (the CoNLL-2009 scorer) prints for one system, from counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Eval09Counts {
    /// Scored words (eval09.pl's `tot`).
    pub words: u64,
    /// Words with the right HEAD and DEPREL.
    pub las: u64,
    /// Words with the right HEAD.
    pub uas: u64,
    /// Words with the right DEPREL.
    pub la: u64,
    /// Exactly matched sentences as eval09.pl counts them (a sentence with no scored word
    /// counts as matched).
    pub exact: u64,
    /// Sentences (with or without scored words).
    pub sentences: u64,
    /// The sentence count of eval09.pl's semantic scores: one per sentence break it
    /// reads (blank line or end of file), less one when that exceeds `sentences`.
    pub semantic_sentences: u64,
    /// Whether either file has a predicate (a PRED value): then only the SYNTACTIC
    /// SCORES block is printed, as treeval does not score semantic roles.
    pub has_predicates: bool,
}

/// The output of `eval09.pl -q` byte for byte when neither file has a predicate (the
/// semantic counts are then all 0 and every overall score follows from the syntactic
/// ones), else its SYNTACTIC SCORES block. Every number is computed as the script
/// computes it (`100 - errors * 100.0 / total`, `correct * 100 / total`, F1 as
/// `2 * p * r / (p + r)`), printed with `%.2f`.
///
/// `Err((printed, reason))` where the script dies dividing by zero: `printed` is what
/// it has written to standard output by then (no scored word: after the first line;
/// LAS 0: before the macro F1).
pub fn compat_eval09(c: &Eval09Counts) -> Result<String, (String, String)> {
    let mut o = String::from("  SYNTACTIC SCORES:\n");
    if c.words == 0 {
        return Err((
            o,
            "no scored word: eval09.pl dies dividing by zero after its first line".into(),
        ));
    }
    let attach = |correct: u64| 100.0 - (c.words - correct) as f64 * 100.0 / c.words as f64;
    let ratio = |a: u64, b: u64| (a * 100) as f64 / b as f64;
    let f1 = |p: f64, r: f64| 2.0 * p * r / (p + r);
    let (lab, unlab, acc) = (attach(c.las), attach(c.uas), attach(c.la));
    let _ = writeln!(
        o,
        "  Labeled   attachment score: {} / {} * 100 = {lab:.2} %",
        c.las, c.words
    );
    let _ = writeln!(
        o,
        "  Unlabeled attachment score: {} / {} * 100 = {unlab:.2} %",
        c.uas, c.words
    );
    let _ = writeln!(
        o,
        "  Label accuracy score:       {} / {} * 100 = {acc:.2} %",
        c.la, c.words
    );
    let exact = ratio(c.exact, c.sentences);
    let _ = writeln!(
        o,
        "  Exact syntactic match:      {} / {} * 100 = {exact:.2} %",
        c.exact, c.sentences
    );
    if c.has_predicates {
        return Ok(o);
    }
    o.push_str("\n  SEMANTIC SCORES: \n");
    for (what, f1_name) in [("Labeled", "Labeled F1:"), ("Unlabeled", "Unlabeled F1:")] {
        let _ = writeln!(
            o,
            "  {:<28}(0 + 0) / (0 + 0) * 100 = 0.00 %",
            format!("{what} precision:")
        );
        let _ = writeln!(
            o,
            "  {:<28}(0 + 0) / (0 + 0) * 100 = 0.00 %",
            format!("{what} recall:")
        );
        let _ = writeln!(o, "  {f1_name:<28}0.00 ");
    }
    o.push_str("  Proposition precision:      0 / 0 * 100 = 0.00 %\n");
    o.push_str("  Proposition recall:         0 / 0 * 100 = 0.00 %\n");
    o.push_str("  Proposition F1:             0.00 \n");
    let n = c.semantic_sentences;
    let _ = writeln!(
        o,
        "  Exact semantic match:       {n} / {n} * 100 = {:.2} %",
        ratio(n, n)
    );
    o.push_str("\n  OVERALL MACRO SCORES (Wsem = 0.50):\n");
    // Wsem * 0 (no semantic score) + (1 - Wsem) * syntactic, as precision and recall
    for (what, syn) in [("Labeled", lab), ("Unlabeled", unlab)] {
        let p = 0.5 * 0.0 + (1.0 - 0.5) * syn;
        if p + p == 0.0 {
            return Err((
                o,
                format!(
                    "{} attachment score 0: eval09.pl dies dividing by zero computing the {} macro F1",
                    what.to_lowercase(),
                    what.to_lowercase()
                ),
            ));
        }
        let _ = writeln!(o, "  {:<28}{p:.2} %", format!("{what} macro precision:"));
        let _ = writeln!(o, "  {:<28}{p:.2} %", format!("{what} macro recall:"));
        let _ = writeln!(o, "  {:<28}{:.2} %", format!("{what} macro F1:"), f1(p, p));
    }
    let _ = writeln!(
        o,
        "  Exact overall match:        {} / {} * 100 = {exact:.2} %",
        c.exact, c.sentences
    );
    o.push_str("\n  OVERALL MICRO SCORES:\n");
    // LAS > 0 here (else the macro F1 died above), so neither micro F1 divides by zero
    for (what, correct) in [("Labeled", c.las), ("Unlabeled", c.uas)] {
        let p = ratio(correct, c.words);
        for side in ["precision", "recall"] {
            let _ = writeln!(
                o,
                "  {:<28}({correct} + 0 + 0) / ({} + 0 + 0) * 100 = {p:.2} %",
                format!("{what} micro {side}:"),
                c.words
            );
        }
        let _ = writeln!(o, "  {:<28}{:.2} ", format!("{what} micro F1:"), f1(p, p));
    }
    Ok(o)
}

/// The `--by` tables of one system: gold-side words, LAS, UAS, LA per group, and the
/// system side where there is one.
pub(crate) fn by_tables(
    o: &mut String,
    path: &str,
    by: &std::collections::BTreeMap<String, Vec<crate::model::GroupRow>>,
) {
    by_tables_with(o, path, by, pct);
}

/// [`by_tables`] with `cell` formatting each score (`deps` shows `n/a` where a group
/// has no words on one side).
fn by_tables_with(
    o: &mut String,
    path: &str,
    by: &std::collections::BTreeMap<String, Vec<crate::model::GroupRow>>,
    cell: fn(Option<f64>) -> String,
) {
    for (key, groups) in by {
        let _ = writeln!(o, "\nby {key}: {path}");
        let sys_side = groups.iter().any(|g| g.system_words.is_some());
        let mut head = vec![
            key.clone(),
            "words".into(),
            "LAS".into(),
            "UAS".into(),
            "LA".into(),
        ];
        if sys_side {
            head.push("sys words".into());
            head.push("sys LAS".into());
        }
        let mut rows = vec![head];
        for g in groups {
            let mut row = vec![
                g.group.clone(),
                g.words.to_string(),
                cell(g.LAS),
                cell(g.UAS),
                cell(g.LA),
            ];
            if sys_side {
                row.push(g.system_words.unwrap_or(0).to_string());
                row.push(cell(g.system_LAS));
            }
            rows.push(row);
        }
        o.push_str(&table(&rows, 1));
    }
}

/// Each system's bootstrap intervals, then every pairwise test, one line each; `what`
/// names the tested statistic after the metric (" F1" for `ud`, empty for `brackets`).
pub(crate) fn significance_lines<'a>(
    o: &mut String,
    intervals: impl Iterator<Item = &'a std::collections::BTreeMap<String, [f64; 2]>>,
    comparisons: &[treeval_stats::compare::Comparison],
    what: &str,
) {
    for (k, ci) in intervals.enumerate() {
        for (m, [lo, hi]) in ci {
            let _ = writeln!(
                o,
                "[{}] {m}{what} interval: {:.2} – {:.2}",
                k + 1,
                100.0 * lo,
                100.0 * hi
            );
        }
    }
    for c in comparisons {
        let _ = writeln!(
            o,
            "{}{what} [{}] vs [{}], {}: statistic {:.4}, p = {:.4}{}",
            c.metric,
            c.a + 1,
            c.b + 1,
            c.test.name(),
            c.statistic,
            c.p_value,
            if c.significant { " †" } else { "" }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headline(las: (u64, u64), uas: (u64, u64), la: (u64, u64)) -> Headline {
        Headline {
            LAS: Metric::new(las.0, las.1),
            UAS: Metric::new(uas.0, uas.1),
            LA: Metric::new(la.0, la.1),
            LEM: Metric::new(0, 1),
            UEM: Metric::new(0, 1),
            ROOT: Metric::new(0, 1),
        }
    }

    #[test]
    fn compat_lines_hand_checked() {
        // tiny/ reference figures (eval07.pl -q)
        assert_eq!(
            compat_lines(&headline((22, 34), (29, 34), (27, 34))).unwrap(),
            "  Labeled   attachment score: 22 / 34 * 100 = 64.71 %\n\
             \x20 Unlabeled attachment score: 29 / 34 * 100 = 85.29 %\n\
             \x20 Label accuracy score:       27 / 34 * 100 = 79.41 %\n"
        );
        // exact binary ties round half to even, as glibc printf: 703/800 = 87.875 -> 87.88,
        // 701/800 = 87.625 -> 87.62
        let l = compat_lines(&headline((703, 800), (701, 800), (800, 800))).unwrap();
        assert!(l.contains("= 87.88 %"), "{l}");
        assert!(l.contains("= 87.62 %"), "{l}");
        assert!(l.contains("= 100.00 %"), "{l}");
        assert!(compat_lines(&headline((0, 0), (0, 0), (0, 0))).is_err());
    }

    fn eval09(words: u64, las: u64, uas: u64, la: u64, exact: u64, sentences: u64) -> Eval09Counts {
        Eval09Counts {
            words,
            las,
            uas,
            la,
            exact,
            sentences,
            semantic_sentences: sentences,
            has_predicates: false,
        }
    }

    #[test]
    fn compat_eval09_hand_checked() {
        // macro P = R = 0.5 · LAS% (no semantic score), F1 = 2PR/(P+R); micro = syntactic
        let o = compat_eval09(&eval09(7, 5, 6, 6, 1, 3)).unwrap();
        for line in [
            "  Labeled   attachment score: 5 / 7 * 100 = 71.43 %\n",
            "  Exact syntactic match:      1 / 3 * 100 = 33.33 %\n",
            "  Exact semantic match:       3 / 3 * 100 = 100.00 %\n",
            "  Labeled macro precision:    35.71 %\n",
            "  Unlabeled macro F1:         42.86 %\n",
            "  Exact overall match:        1 / 3 * 100 = 33.33 %\n",
            "  Labeled micro precision:    (5 + 0 + 0) / (7 + 0 + 0) * 100 = 71.43 %\n",
            "  Unlabeled micro F1:         85.71 \n",
        ] {
            assert!(o.contains(line), "{line:?} not in\n{o}");
        }
        assert_eq!(o.lines().count(), 34);
        // with predicates: the syntactic block only
        let c = Eval09Counts {
            has_predicates: true,
            ..eval09(7, 5, 6, 6, 1, 3)
        };
        assert_eq!(compat_eval09(&c).unwrap().lines().count(), 5);
    }

    #[test]
    fn compat_eval09_stops_where_the_script_dies() {
        // no scored word: the header, then a division by zero
        let (printed, why) = compat_eval09(&eval09(0, 0, 0, 0, 1, 1)).unwrap_err();
        assert_eq!(printed, "  SYNTACTIC SCORES:\n");
        assert!(why.contains("no scored word"), "{why}");
        // LAS 0: everything up to the macro F1
        let (printed, why) = compat_eval09(&eval09(2, 0, 1, 0, 0, 1)).unwrap_err();
        assert!(
            printed.ends_with("\n  OVERALL MACRO SCORES (Wsem = 0.50):\n"),
            "{printed}"
        );
        assert!(!printed.contains("macro precision"), "{printed}");
        assert!(why.contains("labeled attachment score 0"), "{why}");
    }

    #[test]
    fn escaping() {
        assert_eq!(
            tex_escape("a_b%c&d#e$f{g}h~i^j\\"),
            "a\\_b\\%c\\&d\\#e\\$f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j\\textbackslash{}"
        );
        assert_eq!(esc_delim("a,b", ','), "\"a,b\"");
        assert_eq!(esc_delim("a\"b", '\t'), "\"a\"\"b\"");
        assert_eq!(esc_delim("plain", ','), "plain");
        assert_eq!(md_escape("a|b"), "a\\|b");
        assert_eq!(pct(Some(0.5)), "50.00");
        assert_eq!(pct(None), "n/a");
    }
}
