//! `treeval ud`: the command line's options made into [`treeval::ud::Options`], the
//! evaluation run by the library, its warnings printed and its report (or the reference
//! scorer's text) written.

use std::io::Write;

use crate::args::UdArgs;
use crate::output::{check_outputs, check_report, outputs, Capabilities, InputRef};
use crate::Failure;

/// The library's options of `ud`.
pub fn options(a: &UdArgs) -> treeval::ud::Options {
    treeval::ud::Options {
        multiple_roots_okay: a.multiple_roots_okay,
        align: a.align,
        empty_nodes: a.empty_nodes,
        enhancements: a.enhancements.clone(),
        compat: a.compat,
        verbose: a.verbose,
        per_relation: a.per_relation,
        by: a.by.clone(),
        test_metrics: a.test_metrics.clone(),
    }
}

/// Run the command, writing the report to `out`.
pub fn run(a: &UdArgs, out: &mut dyn Write) -> Result<(), Failure> {
    validate(a)?;
    let options = options(a);
    let inputs = treeval::Inputs::new(&a.gold, &a.systems);
    // the `--compat udeval` note and the mismatch windows of `--align resync` are
    // warnings of the evaluation, printed with the others
    crate::output::evaluate(&a.report, out, |c| {
        treeval::ud::evaluate(&options, &inputs, c)
    })
}

/// Usage errors of the command line: options the run would ignore, output paths.
fn validate(a: &UdArgs) -> Result<(), Failure> {
    let can = Capabilities {
        where_: true,
        state: true,
        no_selection: a.compat.map(|_| "--sent-id, --min-len and --max-len are not options of conll18_ud_eval.py or udeval: --compat prints what they print"),
        browser: true,
        ..Capabilities::of("ud")
    };
    check_report(&can, &a.report, a.compat.is_some())?;
    let ins: Vec<InputRef<'_>> = std::iter::once(("GOLD", a.gold.as_str()))
        .chain(a.systems.iter().map(|s| ("SYS", s.as_str())))
        .collect();
    check_outputs(&outputs(&a.report.out), &ins, a.report.out.force)
}
