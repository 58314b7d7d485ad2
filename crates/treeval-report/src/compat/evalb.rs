//! EVALB's own output (`--compat evalb`), byte for byte: the per-sentence table, both
//! summaries, and with `DEBUG` 1 or 2 its debug dump.

use std::fmt::Write as _;

use treeval_metrics::brackets::trace::{Event, Span, Trace};
use treeval_metrics::brackets::{BracketCounts, BracketResult, SentenceRow};

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
