//! `treeval merge`: the states of shards (`--emit-state`) summed into the report of the
//! concatenated corpus by the library ([`treeval::merge`]), its warnings printed and its
//! report written.

use std::io::Write;

use treeval_report::state::{Family, State};

use crate::args::MergeArgs;
use crate::output::{check_outputs, check_report, outputs, Capabilities, InputRef};
use crate::Failure;

/// Run the command, writing the report to `out`.
pub fn run(a: &MergeArgs, out: &mut dyn Write) -> Result<(), Failure> {
    validate(a)?;
    let inputs: Vec<treeval::Input> = a.states.iter().map(|s| s.as_str().into()).collect();
    let states = treeval::merge::read(&inputs)?;
    check_tests(a, &states)?;
    let options = treeval::merge::Options {
        per_relation: a.per_relation,
        confusion: a.confusion,
        test_metrics: a.test_metrics.clone(),
    };
    // (`--per-sentence` is refused: a state keeps no sentences to write)
    crate::output::evaluate(&a.report, out, |c| {
        treeval::merge::merge(&options, states, &a.states, c)
    })
}

/// Usage errors: the formats and options a merge cannot honour, output paths.
fn validate(a: &MergeArgs) -> Result<(), Failure> {
    let r = &a.report;
    let refused = [
        (
            r.errors,
            "--errors (it lists words, which a state does not keep)",
        ),
        (
            !r.where_.is_empty(),
            "--where (give it when evaluating the shards)",
        ),
        (r.select.is_given(), "--sent-id, --min-len and --max-len"),
        (
            r.out.per_sentence.is_some(),
            "--per-sentence (write it when evaluating the shards)",
        ),
        (
            r.out.keep_sentences,
            "--keep-sentences (the merged state keeps the rows the shards kept)",
        ),
    ];
    if let Some((_, what)) = refused.iter().find(|x| x.0) {
        return Err(Failure::Usage(format!("merge does not take {what}")));
    }
    // ted states are tested by default (as `treeval ted`): the significance options are
    // checked again once the family is known ([`check_tests`])
    let can = Capabilities {
        errors: false,
        state: true,
        always_tests: true,
        ..Capabilities::of("merge")
    };
    check_report(&can, r, false)?;
    let ins: Vec<InputRef<'_>> = a.states.iter().map(|s| ("STATE", s.as_str())).collect();
    check_outputs(&outputs(&a.report.out), &ins, a.report.out.force)
}

/// The significance options refused as the command of the states' family refuses them:
/// only ted's states (of two or more experiments, without `no_test`) are tested without
/// `--test`.
fn check_tests(a: &MergeArgs, states: &[State]) -> Result<(), Failure> {
    let tested_by_default = states.first().is_some_and(|s| match &s.family {
        Family::Ted { options, counts } => !options.no_test && counts.experiments.len() >= 2,
        _ => false,
    });
    let can = Capabilities {
        always_tests: tested_by_default,
        ..Capabilities::of("merge")
    };
    crate::output::check_significance(&can, &a.report, false)
}
