//! `treeval table`: the command line's options made into [`treeval::table::Options`],
//! the table made by the library (each treebank of a manifest evaluated by `deps` or
//! `ud` in process, in parallel), its warnings printed and its report written.

use std::io::Write;

use crate::args::TableArgs;
use crate::output::{check_report, Capabilities};
use crate::Failure;

/// The library's options of `table`.
pub fn options(a: &TableArgs) -> treeval::table::Options {
    treeval::table::Options {
        measure: a.measure.clone(),
        command: a.command,
        baseline: a.baseline.clone(),
        rank_by: a.rank_by.clone(),
    }
}

/// Run the command.
pub fn run(a: &TableArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let mut common = a.report.common();
    // --per-sentence is refused before its file is made: a sink that writes nowhere
    common.per_sentence =
        (a.report.out.per_sentence.as_deref()).map(|p| treeval::Sink::new(p, std::io::sink()));
    // the table's own refusals first (with its words), then every command's
    treeval::table::check(&common)?;
    let can = Capabilities {
        errors: false,
        always_tests: true,
        ..Capabilities::of("table")
    };
    check_report(&can, &a.report, false)?;
    crate::output::check_outputs(&[], &[], a.report.out.force)?;
    let inputs: Vec<treeval::Input> = a.inputs.iter().map(treeval::Input::from).collect();
    let result = treeval::table::evaluate(&options(a), &inputs, &common);
    crate::output::conclude(&a.report, result, out)
}
