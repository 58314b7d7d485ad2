//! `treeval brackets`: EVALB's bracket scores.

use std::io::Write;
use std::sync::Arc;

use treeval_formats::bracket::{BracketReader, Layout};
use treeval_metrics::brackets::{evaluate, Params};
use treeval_report::brackets::{evalb_text, render_text, BracketSystem, BracketsReport, GoldFile};
use treeval_report::model::Warning;
use treeval_report::Signature;

use crate::args::{BracketsArgs, Format, LayoutArg};
use crate::Failure;

fn reader(
    path: &str,
    layout: Layout,
) -> Result<BracketReader<treeval_formats::input::Input>, Failure> {
    let (input, _) =
        treeval_formats::input::open(path).map_err(|e| Failure::Eval(e.to_string()))?;
    Ok(BracketReader::new(input, path, layout))
}

/// Run the command.
pub fn run(a: &BracketsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let mut warnings: Vec<Warning> = Vec::new();
    let (params, prm_name) = match &a.prm {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                Failure::Eval(format!("{path}: cannot read the parameter file: {e}"))
            })?;
            let (p, w) = Params::parse(&text, &Arc::from(path.as_str()));
            if !a.quiet {
                for d in &w {
                    eprintln!("{d}");
                }
            }
            warnings.extend(w.iter().map(Warning::from));
            (p, path.clone())
        }
        None => (Params::collins(), "COLLINS.prm (built in)".to_owned()),
    };
    if a.gold == "-" && a.tests.len() > 1 {
        return Err(Failure::Usage(
            "a gold file on standard input can be scored against one test file only".into(),
        ));
    }
    let layout = match (a.compat.is_some(), a.layout) {
        (true, _) | (false, LayoutArg::Line) => Layout::Line,
        (false, LayoutArg::Auto) => Layout::Auto,
        (false, LayoutArg::MultiLine) => Layout::MultiLine,
    };
    let mut systems = Vec::new();
    let mut gold_trees = 0;
    let mut text = String::new();
    for path in &a.tests {
        let mut g = reader(&a.gold, layout)?;
        let mut t = reader(path, layout)?;
        let r = evaluate(&mut g, &mut t, &params).map_err(|e| Failure::Eval(e.to_string()))?;
        gold_trees = r.gold_trees;
        if !a.quiet || a.compat.is_some() {
            // EVALB's error lines, then where each malformed tree went wrong
            for (id, m) in &r.errors {
                eprintln!("{id} : {m}");
            }
        }
        if !a.quiet {
            for d in &r.problems {
                eprintln!("{d}");
            }
            if let Some(m) = &r.stopped {
                eprintln!("{path}: {m}");
            }
        }
        if a.compat.is_some() {
            text.push_str(&evalb_text(&r, params.cutoff_len));
        }
        warnings.extend(r.problems.iter().map(Warning::from));
        systems.push(BracketSystem::new(path, &r, a.per_sentence));
    }
    if a.compat.is_none() {
        let signature = Signature::new(
            "brackets",
            &[
                ("prm", prm_name),
                ("labeled", u8::from(params.labeled).to_string()),
                ("cutoff", params.cutoff_len.to_string()),
                ("layout", format!("{:?}", layout).to_lowercase()),
            ],
        );
        let report = BracketsReport {
            schema: treeval_report::SCHEMA,
            command: "brackets".into(),
            signature,
            gold: GoldFile {
                path: a.gold.clone(),
                trees: gold_trees,
            },
            params,
            systems,
            warnings,
        };
        text = match a.format {
            Format::Json => {
                let mut s = serde_json::to_string_pretty(&report)
                    .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
                s.push('\n');
                s
            }
            _ => render_text(&report),
        };
    }
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}
