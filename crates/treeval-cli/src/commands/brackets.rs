//! `treeval brackets`: the command line's options made into
//! [`treeval::brackets::Options`], the evaluation run by the library, its warnings (and
//! under `--compat evalb` EVALB's messages) printed and its report written.

use std::io::Write;

use crate::args::BracketsArgs;
use crate::output::{
    check_outputs, check_report, outputs, Capabilities, InputRef, Output, OutputKind,
};
use crate::Failure;

/// The files the command reads, with their roles.
fn inputs(a: &BracketsArgs) -> Vec<InputRef<'_>> {
    let mut v = vec![("GOLD", a.gold.as_str())];
    v.extend(a.test_files.iter().map(|s| ("TEST", s.as_str())));
    v.extend(a.prm.iter().map(|s| ("--prm", s.as_str())));
    v.extend(a.judgments.iter().map(|s| ("--judgments", s.as_str())));
    v
}

/// The library's options of `brackets`.
pub fn options(a: &BracketsArgs) -> treeval::brackets::Options {
    treeval::brackets::Options {
        prm: a.prm.clone(),
        compat: a.compat,
        layout: a.layout,
        align: a.align,
        error_sentences: a.error_sentences,
        by: a.by.clone(),
        careful: a.careful,
        labeled: a.labeled,
        remove_punct_forms: a.remove_punct_forms,
        collapse_double: a.collapse_double,
        remove_trivial: a.remove_trivial,
        judgments: a.judgments.clone(),
        export_for_judging: a.export_for_judging.clone(),
        test_metrics: a.test_metrics.clone(),
        profile: a.profile,
        baselines: a.baselines,
    }
}

/// Run the command, writing the report (or EVALB's output) to `out`.
pub fn run(a: &BracketsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    validate(a)?;
    let inputs = treeval::Inputs::new(&a.gold, &a.test_files);
    crate::output::evaluate(&a.report, out, |c| {
        treeval::brackets::evaluate(&options(a), &inputs, c)
    })
}

/// Usage errors of the command line: options the run would ignore, output paths (none
/// may be an input).
fn validate(a: &BracketsArgs) -> Result<(), Failure> {
    let can = Capabilities {
        where_: true,
        no_selection: a.compat.map(|c| match c {
            treeval::brackets::Compat::Evalb => "--sent-id, --min-len and --max-len are not EVALB options, so --compat evalb cannot print EVALB's output with them (EVALB's own cut-off is CUTOFF_LEN of the parameter file: its len<=40 summary)",
            treeval::brackets::Compat::CompareTrees => "--sent-id, --min-len and --max-len are not options of compare_trees.py, so --compat compare-trees cannot print its output with them (its own cut-off: gold lines of more than 150 words are skipped)",
        }),
        state: true,
        browser: true,
        ..Capabilities::of("brackets")
    };
    check_report(&can, &a.report, a.compat.is_some())?;
    let mut outs = outputs(&a.report.out);
    if let Some(path) = &a.export_for_judging {
        outs.push(Output {
            flag: "--export-for-judging",
            path,
            kind: OutputKind::Judging,
        });
    }
    check_outputs(&outs, &inputs(a), a.report.out.force)
}
