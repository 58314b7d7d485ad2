//! `treeval pts`: the command line's options made into [`treeval::pts::Options`] and
//! [`treeval::pts::PtsInputs`], the evaluation run by the library, its warnings printed
//! and its report written.

use std::io::Write;

use crate::args::PtsArgs;
use crate::output::{check_outputs, check_report, outputs, Capabilities, InputRef};
use crate::Failure;

/// The library's options of `pts`.
pub fn options(a: &PtsArgs) -> treeval::pts::Options {
    treeval::pts::Options {
        weights: a.weights.clone(),
        punct: a.punct.clone(),
        reverse: a.reverse,
        gold_base: a.index.gold_base,
        hyp_base: a.index.hyp_base,
        null: a.index.null,
    }
}

/// The library's inputs of `pts`.
fn pts_inputs(a: &PtsArgs) -> treeval::pts::PtsInputs {
    let all = |v: &[String]| v.iter().map(treeval::Input::from).collect();
    treeval::pts::PtsInputs {
        gold_a: (&a.gold_a).into(),
        gold_b: (&a.gold_b).into(),
        gold_align: (&a.gold_align).into(),
        sys_a: all(&a.sys_a),
        sys_b: all(&a.sys_b),
        sys_align: all(&a.sys_align),
    }
}

/// Run the command, writing the report to `out`.
pub fn run(a: &PtsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let inputs = pts_inputs(a);
    let ins: Vec<InputRef<'_>> = (inputs.roles().into_iter())
        .map(|(role, i)| (role, i.name()))
        .collect();
    let can = Capabilities {
        state: true,
        ..Capabilities::of("pts")
    };
    check_report(&can, &a.report, false)?;
    check_outputs(&outputs(&a.report.out), &ins, a.report.out.force)?;
    crate::output::evaluate(&a.report, out, |c| {
        treeval::pts::evaluate(&options(a), &inputs, c)
    })
}
