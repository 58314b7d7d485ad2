//! `treeval relations`: the command line's options made into
//! [`treeval::relations::Options`], the evaluation run by the library, its warnings
//! printed and its report written.

use std::io::Write;

use crate::args::RelationsArgs;
use crate::output::{check_outputs, check_report, outputs, Capabilities, InputRef};
use crate::Failure;

/// The library's options of `relations`.
pub fn options(a: &RelationsArgs) -> treeval::relations::Options {
    treeval::relations::Options {
        graph: a.graph,
        empty_nodes: a.empty_nodes,
        multiple_roots_okay: a.multiple_roots_okay,
        align: a.align,
        test_metrics: a.test_metrics.clone(),
    }
}

/// Run the command, writing the report to `out`.
pub fn run(a: &RelationsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    validate(a)?;
    let inputs = treeval::Inputs::new(&a.gold, &a.systems);
    crate::output::evaluate(&a.report, out, |c| {
        treeval::relations::evaluate(&options(a), &inputs, c)
    })
}

/// Usage errors of the command line: options the run would ignore, output paths.
fn validate(a: &RelationsArgs) -> Result<(), Failure> {
    let can = Capabilities {
        state: true,
        ..Capabilities::of("relations")
    };
    check_report(&can, &a.report, false)?;
    let ins: Vec<InputRef<'_>> = std::iter::once(("GOLD", a.gold.as_str()))
        .chain(a.systems.iter().map(|s| ("SYS", s.as_str())))
        .collect();
    check_outputs(&outputs(&a.report.out), &ins, a.report.out.force)
}
