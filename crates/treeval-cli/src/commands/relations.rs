//! `treeval relations`: set-of-relations accuracy (van Noord et al., Alpino treebank,
//! 2002) over the `ud` word alignment.

use std::fmt::Write as _;
use std::io::Write;

use serde_json::json;
use treeval_metrics::ud::{evaluate, Count, UdOptions};
use treeval_report::render::OutputFormat;
use treeval_report::Signature;

use super::ud::{explain, input, print_warnings};
use crate::args::{GraphArg, RelationsArgs};
use crate::output::{check_format, check_outputs, outputs, PerSentence};
use crate::Failure;
use treeval_report::ud::ratio;

/// Concept accuracy of one count: |Dt ∩ Ds| / max(|Dt|, |Ds|), 1 when both are empty.
fn ca(c: &Count) -> f64 {
    let m = c.gold.max(c.system);
    if m == 0 {
        1.0
    } else {
        c.correct as f64 / m as f64
    }
}

/// A percentage, or `n/a` when there was nothing to measure.
fn pct(x: Option<f64>) -> String {
    treeval_report::ud::pct_or_na(x)
}

/// Run the command.
pub fn run(a: &RelationsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let opts = UdOptions {
        multiple_roots_okay: a.multiple_roots_okay,
        empty_nodes: a.empty_nodes.into(),
        keep_sentences: true,
        relation_sets: true,
        align: a.align.into(),
        ..UdOptions::default()
    };
    let ins = [("GOLD", a.gold.as_str()), ("SYS", a.system.as_str())];
    check_format(
        "relations",
        a.format,
        &[crate::args::Format::Text, crate::args::Format::Json],
        false,
    )?;
    check_outputs(&outputs(&a.out), &ins, a.out.force)?;
    let r = evaluate(&input(&a.gold, false), &input(&a.system, false), &opts)
        .map_err(|e| Failure::Eval(explain(e, &a.gold, &a.system)))?;
    let warnings = print_warnings(&r.warnings, a.quiet);
    let k = usize::from(a.graph == GraphArg::Enhanced);
    let graph = if k == 1 { "enhanced" } else { "basic" };
    let mut signature = Signature::new(
        "relations",
        &[("graph", graph.into()), ("align", opts.align.name().into())],
    );
    if k == 1 {
        signature.push("empty-nodes", opts.empty_nodes.name().into());
    }
    let t = r.counts.relation_sets[k];
    let sentences: Vec<Count> = r.sentences.iter().map(|s| s.relation_sets[k]).collect();
    let df: u64 = sentences
        .iter()
        .map(|c| c.gold.max(c.system) - c.correct)
        .sum();
    let max: u64 = sentences.iter().map(|c| c.gold.max(c.system)).sum();
    // nothing to measure (no gold and no system relation anywhere): not applicable
    let micro = (max > 0).then(|| 1.0 - df as f64 / max as f64);
    let macro_ = (max > 0).then(|| sentences.iter().map(ca).sum::<f64>() / sentences.len() as f64);
    if a.out.per_sentence.is_some() {
        let mut sink = PerSentence::open(a.out.per_sentence.as_deref(), "relations", &ins)?;
        for (i, c) in sentences.iter().enumerate() {
            sink.write(&json!({"system": 0, "sentence": i + 1, "Dt": c.gold, "Ds": c.system, "both": c.correct, "CA": ca(c)}));
        }
        sink.finish()?;
    }
    let (p, rc, f) = (
        ratio(t.correct, t.system),
        ratio(t.correct, t.gold),
        ratio(2 * t.correct, t.gold + t.system),
    );
    let text = if OutputFormat::from(a.format) == OutputFormat::Json {
        let v = json!({
            "schema": treeval_report::SCHEMA,
            "command": "relations",
            "signature": signature.0,
            "gold": a.gold,
            "systems": [{
                "path": a.system,
                "metrics": {
                    "relations": {
                        "gold": t.gold, "system": t.system, "correct": t.correct,
                        "precision": p, "recall": rc, "f1": f,
                    },
                    "CA": {"micro": micro, "macro": macro_, "Df": df, "max": max,
                           "sentences": sentences.len()},
                },
            }],
            "warnings": warnings,
        });
        format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())
    } else {
        let mut o = String::new();
        let _ = writeln!(o, "{}", signature.0);
        let _ = writeln!(o, "gold: {}\nsystem: {}", a.gold, a.system);
        let _ = writeln!(
            o,
            "relations ({graph}): |Dt| {} |Ds| {} |Dt ∩ Ds| {}\nprecision {}  recall {}  F1 {}",
            t.gold,
            t.system,
            t.correct,
            pct(p),
            pct(rc),
            pct(f)
        );
        let _ = writeln!(
            o,
            "CA micro {} (1 - {df}/{max})  CA macro {} (mean of {} sentences)",
            pct(micro),
            pct(macro_),
            sentences.len()
        );
        o
    };
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}
