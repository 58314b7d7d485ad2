//! `treeval deps`.

use std::fs::File;
use std::io::{BufWriter, Write};

use treeval_formats::{Conll09Columns, Format, ReaderBuilder};
use treeval_metrics::deps::{evaluate, Input};
use treeval_metrics::{DepsOptions, LabelMode, PunctPolicy};
use treeval_report::render::{render, OutputFormat, Sections};

use crate::args::{CompatMode, Conll09Cols, DepsArgs, InputFormat, Labels, Profile};
use crate::Failure;

/// Resolve profile, policy and labels into options and a profile name.
pub fn options(a: &DepsArgs) -> (DepsOptions, String) {
    let profile = a.profile.unwrap_or(match a.compat {
        Some(CompatMode::Evalpl) => Profile::Conllx,
        _ => Profile::Conll07,
    });
    let (mut punct, mut labels) = match profile {
        Profile::Conll07 => (PunctPolicy::Include, LabelMode::Full),
        Profile::Conllx => (PunctPolicy::Form, LabelMode::Full),
    };
    let mut name = match profile {
        Profile::Conll07 => "conll07",
        Profile::Conllx => "conllx",
    }
    .to_string();
    if let Some(p) = &a.punct {
        if *p != punct {
            name = "custom".into();
        }
        punct = p.clone();
    }
    if let Some(l) = a.labels {
        let l = match l {
            Labels::Full => LabelMode::Full,
            Labels::Universal => LabelMode::Universal,
        };
        if l != labels {
            name = "custom".into();
        }
        labels = l;
    }
    let opts = DepsOptions {
        punct,
        labels,
        by: a.by.clone(),
        confusion: a.confusion.is_some(),
        strict: a.strict,
        examples: 5,
    };
    (opts, name)
}

/// Run the command, writing the report to `out`.
pub fn run(a: &DepsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (opts, profile) = options(a);
    let forced = a.input_format.map(|f| match f {
        InputFormat::Conllu => Format::Conllu,
        InputFormat::Conllx => Format::Conllx,
        InputFormat::Conll09 => Format::Conll09,
    });
    let mut gold_builder = ReaderBuilder::new();
    // `deps` scores the basic tree only: a DEPS typo must not stop it (the enhanced-graph
    // commands validate DEPS)
    gold_builder
        .format(forced)
        .validate_deps(false)
        .conll09_columns(Conll09Columns::Gold);
    let mut sys_builder = ReaderBuilder::new();
    sys_builder
        .format(forced)
        .validate_deps(false)
        .conll09_columns(match a.conll09_columns {
            Conll09Cols::Gold => Conll09Columns::Gold,
            Conll09Cols::Predicted => Conll09Columns::Predicted,
        });
    if a.systems.iter().filter(|s| s.as_str() == "-").count() + usize::from(a.gold == "-") > 1 {
        return Err(Failure::Usage(
            "standard input ('-') can be given only once".into(),
        ));
    }
    let gold = Input {
        path: a.gold.clone(),
        builder: gold_builder,
    };
    let systems: Vec<Input> = a
        .systems
        .iter()
        .map(|p| Input {
            path: p.clone(),
            builder: sys_builder.clone(),
        })
        .collect();

    let mut per_sentence = match &a.per_sentence {
        Some(p) => Some(BufWriter::new(File::create(p).map_err(|e| {
            Failure::Eval(format!("{p}: cannot create the per-sentence file: {e}"))
        })?)),
        None => None,
    };
    let mut ps_error: Option<std::io::Error> = None;
    let result = evaluate(&gold, &systems, &opts, |k, g, s, c| {
        if let (Some(w), None) = (per_sentence.as_mut(), ps_error.as_ref()) {
            let line = serde_json::json!({
                "system": k,
                "sentence": g.index(),
                "sent_id": g.sent_id(),
                "gold_lines": [g.first_line(), g.last_line()],
                "system_lines": [s.first_line(), s.last_line()],
                "counts": c,
            });
            if let Err(e) = writeln!(w, "{line}") {
                ps_error = Some(e);
            }
        }
    })
    .map_err(|e| Failure::Eval(e.to_string()))?;
    if let Some(mut w) = per_sentence {
        if let Some(e) = ps_error.or_else(|| w.flush().err()) {
            return Err(Failure::Eval(format!(
                "cannot write the per-sentence file: {e}"
            )));
        }
    }
    if !a.quiet {
        let mut err = std::io::stderr().lock();
        for d in result.warnings.warnings() {
            let _ = writeln!(err, "warning: {d}");
        }
        let more = result.warnings.omitted_warnings();
        if more > 0 {
            let _ = writeln!(err, "warning: … and {more} more warning(s) not shown");
        }
    }
    let report = treeval_report::deps::build(&result, &opts, &profile, a.confusion.unwrap_or(12));
    let text = match a.compat {
        Some(_) => {
            let mut s = String::new();
            for sys in &report.systems {
                s.push_str(
                    &treeval_report::compat_lines(&sys.metrics)
                        .map_err(|e| Failure::Eval(format!("{}: {e}", sys.path)))?,
                );
            }
            s
        }
        None => {
            let f = match a.format {
                crate::args::Format::Text => OutputFormat::Text,
                crate::args::Format::Json => OutputFormat::Json,
                crate::args::Format::Csv => OutputFormat::Csv,
                crate::args::Format::Tsv => OutputFormat::Tsv,
                crate::args::Format::Markdown => OutputFormat::Markdown,
                crate::args::Format::Latex => OutputFormat::Latex,
            };
            render(
                &report,
                f,
                Sections {
                    per_relation: a.per_relation,
                },
            )
        }
    };
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)?;
    Ok(())
}
