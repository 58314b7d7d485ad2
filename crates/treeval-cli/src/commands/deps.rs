//! `treeval deps`: the command line's options made into [`treeval::deps::Options`], the
//! evaluation run by the library, its warnings printed and its report written.

use std::io::Write;

use crate::args::DepsArgs;
use crate::output::{check_outputs, check_report, outputs, Capabilities, InputRef};
use crate::Failure;

/// The files the command reads, with their roles.
fn inputs(a: &DepsArgs) -> Vec<InputRef<'_>> {
    std::iter::once(("GOLD", a.gold.as_str()))
        .chain(a.systems.iter().map(|s| ("SYS", s.as_str())))
        .collect()
}

/// The library's options of `deps`.
pub fn options(a: &DepsArgs) -> treeval::deps::Options {
    treeval::deps::Options {
        profile: a.conventions.profile,
        punct: a.conventions.punct.clone(),
        labels: a.conventions.labels,
        by: a.by.clone(),
        confusion: a.confusion,
        per_relation: a.per_relation,
        compat: a.compat,
        strict: a.strict,
        input_format: a.input_format,
        conll09_columns: a.conll09_columns,
        test_metrics: a.test_metrics.clone(),
    }
}

/// Run the command, writing the report to `out`.
pub fn run(a: &DepsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    validate(a)?;
    let inputs = treeval::Inputs::new(&a.gold, &a.systems);
    crate::output::evaluate(&a.report, out, |c| {
        treeval::deps::evaluate(&options(a), &inputs, c)
    })
}

/// Usage errors of the command line: options the run would ignore, output paths.
fn validate(a: &DepsArgs) -> Result<(), Failure> {
    let can = Capabilities {
        where_: true,
        state: true,
        no_selection: a.compat.map(|_| "--sent-id, --min-len and --max-len are not options of eval07.pl, eval.pl or eval09.pl: --compat prints what they print"),
        browser: true,
        ..Capabilities::of("deps")
    };
    check_report(&can, &a.report, a.compat.is_some())?;
    check_outputs(&outputs(&a.report.out), &inputs(a), a.report.out.force)
}
