//! `treeval relations`: set-of-relations accuracy (van Noord et al., Alpino treebank,
//! 2002) over the `ud` word alignment.

use std::fmt::Write as _;
use std::io::Write;

use serde_json::json;
use treeval_metrics::ud::{evaluate, Count, UdOptions};
use treeval_report::render::OutputFormat;
use treeval_report::Signature;

use super::ud::{explain, input};
use crate::args::{GraphArg, RelationsArgs};
use crate::output::{check_format, check_outputs, outputs, PerSentence};
use crate::Failure;

/// Concept accuracy of one count: |Dt ∩ Ds| / max(|Dt|, |Ds|), 1 when both are empty.
fn ca(c: &Count) -> f64 {
    let m = c.gold.max(c.system);
    if m == 0 {
        1.0
    } else {
        c.correct as f64 / m as f64
    }
}

fn div(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
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
    let r = evaluate(&input(&a.gold), &input(&a.system), &opts)
        .map_err(|e| Failure::Eval(explain(e, &a.gold, &a.system)))?;
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
    let micro = if max == 0 {
        1.0
    } else {
        1.0 - df as f64 / max as f64
    };
    let macro_ = if sentences.is_empty() {
        1.0
    } else {
        sentences.iter().map(ca).sum::<f64>() / sentences.len() as f64
    };
    if a.out.per_sentence.is_some() {
        let mut sink = PerSentence::open(a.out.per_sentence.as_deref(), "relations", &ins)?;
        for (i, c) in sentences.iter().enumerate() {
            sink.write(&json!({"system": 0, "sentence": i + 1, "Dt": c.gold, "Ds": c.system, "both": c.correct, "CA": ca(c)}));
        }
        sink.finish()?;
    }
    let (p, rc, f) = (
        div(t.correct, t.system),
        div(t.correct, t.gold),
        div(2 * t.correct, t.gold + t.system),
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
        });
        format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())
    } else {
        let mut o = String::new();
        let _ = writeln!(o, "{}", signature.0);
        let _ = writeln!(o, "gold: {}\nsystem: {}", a.gold, a.system);
        let _ = writeln!(
            o,
            "relations ({graph}): |Dt| {} |Ds| {} |Dt ∩ Ds| {}\nprecision {:.2}  recall {:.2}  F1 {:.2}",
            t.gold,
            t.system,
            t.correct,
            100.0 * p,
            100.0 * rc,
            100.0 * f
        );
        let _ = writeln!(
            o,
            "CA micro {:.2} (1 - {df}/{max})  CA macro {:.2} (mean of {} sentences)",
            100.0 * micro,
            100.0 * macro_,
            sentences.len()
        );
        o
    };
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}
