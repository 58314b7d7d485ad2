//! `treeval nbest`: the command line's options made into [`treeval::nbest::Options`], the
//! n-best evaluation run by the library, its warnings printed and its report (or
//! evaluate.pl's output with `--compat alpino`) written.

use std::io::Write;

use treeval::nbest::{Compat, Inputs};

use crate::args::NbestArgs;
use crate::output::OutputKind;
use crate::output::{check_outputs, check_report, outputs, Capabilities, InputRef, Output};
use crate::Failure;

/// The library's options of `nbest`.
pub fn options(a: &NbestArgs) -> treeval::nbest::Options {
    treeval::nbest::Options {
        profile: a.conventions.profile,
        punct: a.conventions.punct.clone(),
        labels: a.conventions.labels,
        compat: a.compat,
        metric: a.metric,
        export_training: a.export_training.clone(),
        model: a.model.clone(),
        test_metrics: a.test_metrics.clone(),
    }
}

/// The library's inputs: evaluate.pl's lines, or the gold and the n-best files.
fn inputs(a: &NbestArgs) -> Inputs {
    match &a.alpino {
        Some(l) => Inputs::Alpino(l.into()),
        None => Inputs::Conllu(treeval::Inputs::new(
            a.files.first().map_or("", String::as_str),
            a.files.iter().skip(1),
        )),
    }
}

/// Run the command.
pub fn run(a: &NbestArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let options = options(a);
    let inputs = inputs(a);
    validate(a, &options, &inputs)?;
    crate::output::evaluate(&a.report, out, |c| {
        treeval::nbest::evaluate(&options, &inputs, c)
    })
}

/// Usage errors of the command line (files given, options the run would ignore, output
/// paths), then the library's ([`treeval::nbest::check`]) before any file is written.
fn validate(
    a: &NbestArgs,
    options: &treeval::nbest::Options,
    inputs: &Inputs,
) -> Result<(), Failure> {
    let compat = a.compat == Some(Compat::Alpino);
    let usage = |m: &str| Err(Failure::Usage(m.into()));
    match (&a.alpino, a.files.len()) {
        (Some(_), n) if n > 0 => {
            return usage("--alpino LINES reads evaluate.pl's lines, which carry their own counts: give no GOLD or NBEST file with it")
        }
        (None, n) if n < 2 => return usage("give the GOLD file and at least one NBEST file"),
        (None, n) if compat && n > 2 => {
            return usage("--compat alpino prints evaluate.pl's output for one n-best file: give GOLD and one NBEST")
        }
        _ => {}
    }
    let can = Capabilities {
        errors: false,
        no_selection: (compat || a.alpino.is_some()).then_some("--sent-id, --min-len and --max-len select gold sentences of CoNLL-U n-best lists: evaluate.pl's lines have no words, and --compat alpino prints what evaluate.pl prints for every sentence"),
        ..Capabilities::of("nbest")
    };
    check_report(&can, &a.report, compat)?;
    treeval::nbest::check(options, inputs, &a.report.common())?;
    let mut o = outputs(&a.report.out);
    if let Some(path) = &a.export_training {
        o.push(Output {
            flag: "--export-training",
            path,
            kind: OutputKind::Training,
        });
    }
    let ins: Vec<InputRef<'_>> = inputs.roles();
    check_outputs(&o, &ins, a.report.out.force)
}
