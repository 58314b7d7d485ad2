//! The `brackets` report: EVALB's summary for all sentences and up to the cut-off length,
//! per-sentence rows, and EVALB's own output byte for byte (`--compat evalb`).

use std::fmt::Write as _;

use serde::Serialize;
use treeval_metrics::brackets::trace::{Event, Span, Trace};
use treeval_metrics::brackets::{BracketCounts, BracketResult, BracketScores, Params, SentenceRow};
use treeval_metrics::careful::{CarefulCounts, Derived, Judged, PairCounts, RealTestSize};

use crate::model::{Signature, Warning};
use crate::render::table;

/// The summary of a set of sentences: scores and the counts they come from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BracketSummary {
    /// Scores (fractions, except the crossing average).
    #[serde(flatten)]
    pub scores: BracketScores,
    /// Counts.
    #[serde(flatten)]
    pub counts: BracketCounts,
}

impl BracketSummary {
    /// From sums.
    pub fn new(c: &BracketCounts) -> Self {
        BracketSummary {
            scores: c.scores(),
            counts: *c,
        }
    }
}

/// One test file's results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BracketSystem {
    /// Path as given.
    pub path: String,
    /// Trees read.
    pub trees: u64,
    /// All sentences, with the same figures for those up to the cut-off under `cutoff`.
    pub metrics: BracketMetrics,
    /// EVALB's error lines: sentence and message.
    pub errors: Vec<ErrorLine>,
    /// Set when MAX_ERROR stopped the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// Every sentence (`--per-sentence`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sentences: Vec<SentenceRow>,
    /// The careful evaluation (`--careful`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub careful: Option<CarefulOut>,
    /// Bootstrap intervals of the tested metrics (`--ci`).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub ci: std::collections::BTreeMap<String, [f64; 2]>,
}

/// A system's careful evaluation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CarefulOut {
    /// TTB, TPB, EM, CE, SP, PINH, PNINH, TINH, TNINH.
    pub counts: CarefulCounts,
    /// With `--judgments`: EMA, EMR, CEA, CER, SPA, SPR, and the brackets left unjudged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged: Option<Judged>,
    /// Crossing and spurious brackets without a judgment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unjudged: Option<u64>,
    /// The derived measures, each with its formula.
    pub derived: Vec<Derived>,
    /// Scored sentences left out because gold and test keep different numbers of words
    /// after the careful preparation: sentence, gold words, test words.
    pub left_out: Vec<(u64, u32, u32)>,
}

/// Two systems compared on the treebank brackets (careful evaluation).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CarefulPair {
    /// First system (0-based).
    pub a: usize,
    /// Second system.
    pub b: usize,
    /// YY, YN, NY, NN.
    pub counts: PairCounts,
    /// The real test size: extreme feasible (M1, M2) with the z-score of the recall-hard
    /// difference, and McNemar's statistic.
    pub real_test_size: RealTestSize,
}

/// The metrics object of a system.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BracketMetrics {
    /// All sentences.
    #[serde(flatten)]
    pub all: BracketSummary,
    /// Sentences of length ≤ CUTOFF_LEN.
    pub cutoff: BracketSummary,
}

/// An error line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorLine {
    /// Sentence.
    pub sentence: u64,
    /// EVALB's message.
    pub message: String,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BracketsReport {
    /// Schema version.
    pub schema: &'static str,
    /// `brackets`.
    pub command: String,
    /// Reproducibility signature.
    pub signature: Signature,
    /// Gold path and trees.
    pub gold: GoldFile,
    /// The parameters in force.
    pub params: Params,
    /// One per test file.
    pub systems: Vec<BracketSystem>,
    /// Pairwise careful comparisons (`--careful` with several test files).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub careful_pairs: Vec<CarefulPair>,
    /// Pairwise tests on the tested metrics (`--test`).
    pub comparisons: Vec<treeval_stats::compare::Comparison>,
    /// Ranks per metric and test.
    pub rankings: Vec<treeval_stats::compare::Ranking>,
    /// Warnings (parameter file, malformed trees).
    pub warnings: Vec<Warning>,
}

/// The gold file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GoldFile {
    /// Path as given.
    pub path: String,
    /// Trees read.
    pub trees: u64,
}

impl BracketSystem {
    /// From an evaluation.
    pub fn new(path: &str, r: &BracketResult, per_sentence: bool) -> Self {
        BracketSystem {
            path: path.to_owned(),
            trees: r.test_trees,
            metrics: BracketMetrics {
                all: BracketSummary::new(&r.all),
                cutoff: BracketSummary::new(&r.cutoff),
            },
            errors: r
                .errors
                .iter()
                .map(|(s, m)| ErrorLine {
                    sentence: *s,
                    message: m.clone(),
                })
                .collect(),
            stopped: r.stopped.clone(),
            sentences: if per_sentence {
                r.rows.clone()
            } else {
                Vec::new()
            },
            careful: None,
            ci: Default::default(),
        }
    }
}

fn pct(a: u64, b: u64) -> f64 {
    if b > 0 {
        100.0 * a as f64 / b as f64
    } else {
        0.0
    }
}

/// EVALB's per-sentence row.
pub fn evalb_row(r: &SentenceRow) -> String {
    format!(
        "{:4}  {:3}    {}  {:6.2} {:6.2}   {:3}    {:3}  {:3}    {:3}   {:4}  {:4}   {:6.2}\n",
        r.id,
        r.length,
        r.status.code(),
        pct(r.matched, r.gold),
        pct(r.matched, r.test),
        r.matched,
        r.gold,
        r.test,
        r.crossing,
        r.words,
        r.correct_tags,
        pct(r.correct_tags, r.words)
    )
}

fn evalb_summary(o: &mut String, c: &BracketCounts) {
    let n = c.valid();
    let (r, p) = (pct(c.matched, c.gold), pct(c.matched, c.test));
    // EVALB divides 0 by 0 here: glibc prints `-nan` (the golden files were made on
    // x86-64 Linux)
    let f = if p + r > 0.0 {
        format!("{:6.2}", 2.0 * p * r / (p + r))
    } else {
        "  -nan".to_owned()
    };
    let _ = writeln!(o, "Number of sentence        = {:6}", c.sentences);
    let _ = writeln!(o, "Number of Error sentence  = {:6}", c.error_sentences);
    let _ = writeln!(o, "Number of Skip  sentence  = {:6}", c.skip_sentences);
    let _ = writeln!(o, "Number of Valid sentence  = {:6}", n);
    let _ = writeln!(o, "Bracketing Recall         = {r:6.2}");
    let _ = writeln!(o, "Bracketing Precision      = {p:6.2}");
    let _ = writeln!(o, "Bracketing FMeasure       = {f}");
    let _ = writeln!(o, "Complete match            = {:6.2}", pct(c.complete, n));
    let avg = if n > 0 {
        c.crossing as f64 / n as f64
    } else {
        0.0
    };
    let _ = writeln!(o, "Average crossing          = {avg:6.2}");
    let _ = writeln!(
        o,
        "No crossing               = {:6.2}",
        pct(c.no_crossing, n)
    );
    let _ = writeln!(
        o,
        "2 or less crossing        = {:6.2}",
        pct(c.two_or_less_crossing, n)
    );
    let _ = writeln!(
        o,
        "Tagging accuracy          = {:6.2}",
        pct(c.correct_tags, c.words)
    );
}

/// What EVALB prints on standard output, byte for byte. When MAX_ERROR stopped the run,
/// EVALB exits before its summary: so does this text.
pub fn evalb_text(r: &BracketResult, cutoff_len: i64, debug: i64) -> String {
    let mut o = String::new();
    o.push_str("  Sent.                        Matched  Bracket   Cross        Correct Tag\n");
    o.push_str(" ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy\n");
    o.push_str("============================================================================\n");
    for (k, row) in r.rows.iter().enumerate() {
        let trace = r.traces.get(k).filter(|_| debug >= 1);
        if let Some(t) = trace.filter(|_| debug > 1) {
            evalb_steps(&mut o, t);
        }
        o.push_str(&evalb_row(row));
        if let Some(t) = trace {
            evalb_dump(&mut o, t);
        }
    }
    if let Some(t) = r.partial.as_ref().filter(|_| debug > 1) {
        evalb_steps(&mut o, t);
    }
    if r.stopped.is_some() {
        return o;
    }
    o.push_str("============================================================================\n");
    let a = &r.all;
    if a.gold > 0 && a.test > 0 {
        let _ = write!(
            o,
            "                {:6.2} {:6.2} {:6} {:5} {:5}  {:5}",
            pct(a.matched, a.gold),
            pct(a.matched, a.test),
            a.matched,
            a.gold,
            a.test,
            a.crossing
        );
    }
    let _ = writeln!(
        o,
        "  {:5} {:5}   {:6.2}",
        a.words,
        a.correct_tags,
        pct(a.correct_tags, a.words)
    );
    o.push_str("=== Summary ===\n\n-- All --\n");
    evalb_summary(&mut o, &r.all);
    let _ = writeln!(o, "\n-- len<={cutoff_len} --");
    evalb_summary(&mut o, &r.cutoff);
    o
}

/// C's `%-Ns`: the text, padded with spaces to `width` bytes.
fn left(o: &mut String, s: &str, width: usize) {
    o.push_str(s);
    let _ = write!(o, "{:1$}", "", width.saturating_sub(s.len()));
}

/// What EVALB prints with `DEBUG 2` before a sentence's row: the labels read, then the
/// scoring steps.
fn evalb_steps(o: &mut String, t: &Trace) {
    for side in &t.reads {
        for r in side {
            let _ = writeln!(o, "label={}, word={}, wid={}", r.label, r.word, r.wid);
        }
    }
    if !t.scored {
        return;
    }
    o.push('\n');
    for e in &t.events {
        match e {
            Event::Quote { index, label, word } => {
                let _ = writeln!(o, "{index}: {label} - {word}");
            }
            Event::Reinsert {
                bracket,
                index,
                spans,
                ends,
            } => {
                let _ = writeln!(o, "bra={bracket}, ind={index}");
                for (k, (a, b)) in spans.iter().enumerate() {
                    let _ = writeln!(o, "bracket[{k}]={{{a},{b}}}");
                }
                let _ = writeln!(o, "endslen={ends}");
            }
            Event::Pair([r1, r2, s1, s2, e1, e2]) => {
                let _ = writeln!(
                    o,
                    "1.res={r1}, 2.res={r2}, 1.start={s1}, 2.start={s2}, 1.end={e1}, 2.end={e2}"
                );
            }
            Event::Label(s) => debug_span(o, "LABEL", s),
            Event::Bracket(s) => debug_span(o, "BRACKET", s),
            Event::Extra(s) => debug_span(o, "EXTRA", s),
            Event::Crossing(s) => debug_span(o, "CROSSING", s),
        }
    }
}

fn debug_span(o: &mut String, what: &str, s: &Span) {
    let _ = writeln!(o, "  {what}[{}-{}]: {}", s.first, s.last, s.text);
}

/// What EVALB prints with `DEBUG 1` after a sentence's row: its terminal and bracket
/// arrays side by side.
fn evalb_dump(o: &mut String, t: &Trace) {
    let _ = writeln!(
        o,
        "-<1>---(wn1={:3}, bn1={:3})-           -<2>---(wn2={:3}, bn2={:3})-",
        t.words[0], t.brackets_read[0], t.words[1], t.brackets_read[1]
    );
    let [g, s] = &t.terminals;
    for i in 0..g.len().max(s.len()) {
        match g.get(i).filter(|w| !w.word.is_empty()) {
            Some(w) => {
                let _ = write!(o, "{i:3} : {} : ", w.result);
                left(o, &w.label, 6);
                o.push_str("  ");
                left(o, &w.word, 16);
                o.push_str("      ");
            }
            None => o.push_str(&" ".repeat(40)),
        }
        if let Some(w) = s.get(i).filter(|w| !w.word.is_empty()) {
            let _ = write!(o, "{i:3} : {} : ", w.result);
            left(o, &w.label, 6);
            o.push_str("  ");
            left(o, &w.word, 16);
        }
        o.push('\n');
    }
    o.push('\n');
    let [g, s] = &t.brackets;
    for i in 0..g.len().max(s.len()) {
        match g.get(i) {
            Some(b) => {
                let _ = write!(o, "{i:3} : {} : {:3}  {:3}  ", b.result, b.start, b.end);
                left(o, &b.label, 6);
                o.push_str("      ");
            }
            None => o.push_str(&" ".repeat(32)),
        }
        if let Some(b) = s.get(i) {
            let _ = write!(o, "{i:3} : {} : {:3}  {:3}  ", b.result, b.start, b.end);
            left(o, &b.label, 6);
        }
        o.push('\n');
    }
    o.push_str("\n========\n");
}

/// The text report.
pub fn render_text(r: &BracketsReport) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}", r.signature.0);
    let _ = writeln!(o, "gold: {} ({} trees)", r.gold.path, r.gold.trees);
    for (k, s) in r.systems.iter().enumerate() {
        let _ = writeln!(o, "\n[{}] {} ({} trees)", k + 1, s.path, s.trees);
        let mut rows = vec![vec![
            "".to_string(),
            "all".into(),
            format!("length <= {}", r.params.cutoff_len),
        ]];
        let (a, c) = (&s.metrics.all, &s.metrics.cutoff);
        let f = |x: Option<f64>| x.map_or("n/a".into(), |x| format!("{:.2}", 100.0 * x));
        let n = |x: u64| x.to_string();
        let lines: [(&str, String, String); 14] = [
            ("sentences", n(a.counts.sentences), n(c.counts.sentences)),
            (
                "error sentences",
                n(a.counts.error_sentences),
                n(c.counts.error_sentences),
            ),
            (
                "skipped sentences",
                n(a.counts.skip_sentences),
                n(c.counts.skip_sentences),
            ),
            ("scored sentences", n(a.counts.valid()), n(c.counts.valid())),
            ("recall", f(a.scores.recall), f(c.scores.recall)),
            ("precision", f(a.scores.precision), f(c.scores.precision)),
            ("F-measure", f(a.scores.fmeasure), f(c.scores.fmeasure)),
            (
                "complete match",
                f(a.scores.complete_match),
                f(c.scores.complete_match),
            ),
            (
                "average crossing",
                a.scores
                    .avg_crossing
                    .map_or("n/a".into(), |x| format!("{x:.2}")),
                c.scores
                    .avg_crossing
                    .map_or("n/a".into(), |x| format!("{x:.2}")),
            ),
            (
                "no crossing",
                f(a.scores.no_crossing),
                f(c.scores.no_crossing),
            ),
            (
                "<= 2 crossing",
                f(a.scores.two_or_less_crossing),
                f(c.scores.two_or_less_crossing),
            ),
            (
                "tagging accuracy",
                f(a.scores.tagging_accuracy),
                f(c.scores.tagging_accuracy),
            ),
            (
                "brackets matched/gold/test",
                format!("{}/{}/{}", a.counts.matched, a.counts.gold, a.counts.test),
                format!("{}/{}/{}", c.counts.matched, c.counts.gold, c.counts.test),
            ),
            (
                "tags correct/words",
                format!("{}/{}", a.counts.correct_tags, a.counts.words),
                format!("{}/{}", c.counts.correct_tags, c.counts.words),
            ),
        ];
        for (name, x, y) in lines {
            rows.push(vec![name.to_string(), x, y]);
        }
        o.push_str(&table(&rows, 1));
        if !s.sentences.is_empty() {
            o.push_str(
                "\n  ID  Len.  Stat. Recal  Prec.  Matched gold test Cross Words  Tags Accracy\n",
            );
            for row in &s.sentences {
                o.push_str(&evalb_row(row));
            }
        }
        if let Some(m) = &s.stopped {
            let _ = writeln!(o, "note: {m}");
        }
        if let Some(c) = &s.careful {
            careful_text(&mut o, c);
        }
    }
    crate::render::significance_lines(&mut o, r.systems.iter().map(|s| &s.ci), &r.comparisons, "");
    for p in &r.careful_pairs {
        let c = &p.counts;
        let _ = writeln!(
            o,
            "\ncareful [{}] vs [{}] over treebank brackets: YY {} YN {} NY {} NN {}",
            p.a + 1,
            p.b + 1,
            c.YY,
            c.YN,
            c.NY,
            c.NN
        );
        for &(m1, m2, z) in &p.real_test_size.points {
            let z = z.map_or("-".into(), |z| format!("{z:.3}"));
            let _ = writeln!(
                o,
                "  real test size: M1 = {m1:.1}, M2 = {m2:.1}: z = {z} (recall-hard A - B)"
            );
        }
        if let Some(m) = p.real_test_size.mcnemar {
            let _ = writeln!(o, "  McNemar (YN - NY)^2 / (YN + NY) = {m:.3} (about z^2)");
        }
    }
    o
}

fn careful_text(o: &mut String, c: &CarefulOut) {
    let k = &c.counts;
    if !c.left_out.is_empty() {
        let _ = writeln!(
            o,
            "\ncareful evaluation: {} scored sentence(s) left out (gold and test keep different numbers of words after the preparation): {}",
            c.left_out.len(),
            c.left_out
                .iter()
                .take(10)
                .map(|(id, g, t)| format!("{id} ({g}|{t})"))
                .collect::<Vec<_>>()
                .join(", ")
                + if c.left_out.len() > 10 { ", …" } else { "" }
        );
    }
    let _ = writeln!(
        o,
        "\ncareful evaluation (Hogenhout & Matsumoto 1996): TTB {} TPB {} EM {} CE {} SP {} PINH {} PNINH {} TINH {} TNINH {}",
        k.TTB, k.TPB, k.EM, k.CE, k.SP, k.PINH, k.PNINH, k.TINH, k.TNINH
    );
    if let Some(j) = &c.judged {
        let _ = writeln!(
            o,
            "judged: EMA {} EMR {} CEA {} CER {} SPA {} SPR {} (unjudged CE/SP: {})",
            j.EMA,
            j.EMR,
            j.CEA,
            j.CER,
            j.SPA,
            j.SPR,
            c.unjudged.unwrap_or(0)
        );
    }
    let mut rows = vec![vec![
        "measure".to_string(),
        "formula".into(),
        "value".into(),
    ]];
    for d in &c.derived {
        rows.push(vec![
            d.name.to_string(),
            d.formula.to_string(),
            d.value.map_or("-".into(), |v| format!("{:.2}", 100.0 * v)),
        ]);
    }
    o.push_str(&table(&rows, 1));
}
