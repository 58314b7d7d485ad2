//! `treeval align`: the command line's options made into [`treeval::align::Options`],
//! the evaluation run by the library, its warnings printed and its report written.

use std::io::Write;

use crate::args::AlignArgs;
use crate::output::{check_outputs, check_report, outputs, Capabilities, InputRef};
use crate::Failure;

/// The files the command reads, with their roles.
fn inputs(a: &AlignArgs) -> Vec<InputRef<'_>> {
    std::iter::once(("GOLD", a.gold.as_str()))
        .chain(a.hyps.iter().map(|s| ("HYP", s.as_str())))
        .chain(a.tokens.iter().map(|s| ("TOKENS", s.as_str())))
        .chain(a.hyp_subwords.iter().map(|s| ("PIECES", s.as_str())))
        .collect()
}

/// The library's options of `align`.
pub fn options(a: &AlignArgs) -> treeval::align::Options {
    treeval::align::Options {
        gold_format: a.gold_format,
        hyp_format: a.hyp_format,
        gold_base: a.index.gold_base,
        hyp_base: a.index.hyp_base,
        null: a.index.null,
        reverse: a.reverse,
        reverse_gold: a.reverse_gold,
        f_alpha: a.f_alpha,
        sentences: a.sentences,
        compat: a.compat,
        tokens: a.tokens.iter().map(|p| p.as_str().into()).collect(),
        hyp_subwords: (a.hyp_subwords.iter()).map(|p| p.as_str().into()).collect(),
        test_metrics: a.test_metrics.clone(),
    }
}

/// Run the command, writing the report to `out`.
pub fn run(a: &AlignArgs, out: &mut dyn Write) -> Result<(), Failure> {
    validate(a)?;
    let inputs = treeval::Inputs::new(&a.gold, &a.hyps);
    crate::output::evaluate(&a.report, out, |c| {
        treeval::align::evaluate(&options(a), &inputs, c)
    })
}

/// Usage errors of the command line: options the run would ignore, output paths.
fn validate(a: &AlignArgs) -> Result<(), Failure> {
    let can = Capabilities {
        no_selection: a.compat.map(|_| "--sent-id, --min-len and --max-len are not options of the reference scripts: --compat prints what they print"),
        state: true,
        browser: true,
        ..Capabilities::of("align")
    };
    check_report(&can, &a.report, a.compat.is_some())?;
    check_outputs(&outputs(&a.report.out), &inputs(a), a.report.out.force)
}
