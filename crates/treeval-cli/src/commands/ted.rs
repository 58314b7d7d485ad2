//! `treeval ted`: the command line's options made into [`treeval::ted::Options`] and
//! [`treeval::ted::Inputs`], TedEval (or the tree pairs' distances) run by the library,
//! its warnings printed and its report written.

use std::io::Write;

use treeval::ted::{Exp, Inputs};

use crate::args::{Format, TedArgs};
use crate::output::{check_outputs, outputs, InputRef};
use crate::Failure;

/// The files the command reads, with their roles.
fn input_refs(a: &TedArgs) -> Vec<InputRef<'_>> {
    let mut v = Vec::new();
    v.extend(a.gold.iter().map(|p| ("--gold", p.as_str())));
    v.extend(a.parse.iter().map(|p| ("--system", p.as_str())));
    for e in &a.exp {
        let mut parts = e.splitn(3, ':').skip(1);
        v.extend(parts.next().map(|p| ("--exp GOLD", p)));
        v.extend(parts.next().map(|p| ("--exp PARSE", p)));
    }
    v.extend(a.label_equiv.iter().map(|p| ("--label-equiv", p.as_str())));
    v.extend(a.distance.iter().map(|p| ("--distance", p.as_str())));
    v
}

/// The library's options of `ted`.
pub fn options(a: &TedArgs) -> treeval::ted::Options {
    treeval::ted::Options {
        unlabeled: a.unlabeled,
        micro: a.micro,
        no_test: a.no_test,
        max_cost: a.max_cost,
        bracket_labels: a.bracket_labels,
        script: a.script,
    }
}

/// The library's inputs of `ted` (a usage error for an `--exp` that is not
/// NAME:GOLD:PARSE).
fn inputs(a: &TedArgs) -> Result<Inputs, Failure> {
    Ok(Inputs {
        gold: a.gold.as_deref().map(Into::into),
        parse: a.parse.iter().map(Into::into).collect(),
        exp: a
            .exp
            .iter()
            .map(|e| Exp::parse(e))
            .collect::<Result<_, _>>()?,
        label_equiv: a.label_equiv.as_deref().map(Into::into),
        distance: a.distance.as_deref().map(Into::into),
    })
}

/// Run the command.
pub fn run(a: &TedArgs, out: &mut dyn Write) -> Result<(), Failure> {
    validate(a)?;
    let inputs = inputs(a)?;
    if a.distance.is_some() {
        let mut common = a.report.common();
        common.per_sentence =
            crate::output::per_sentence_sink(a.report.out.per_sentence.as_deref())?;
        let text = treeval::ted::distances(&options(a), &inputs, &common)?;
        out.write_all(text.as_bytes()).map_err(Failure::Io)?;
        return out.flush().map_err(Failure::Io);
    }
    crate::output::evaluate(&a.report, out, |c| {
        treeval::ted::evaluate(&options(a), &inputs, c)
    })
}

/// Usage errors of the command line: options the run would ignore, output paths.
fn validate(a: &TedArgs) -> Result<(), Failure> {
    if a.distance.is_some() && a.report.format != Format::Text {
        return Err(Failure::Usage(
            "--distance prints one distance per line (and --script its edit script as JSON); --format does not apply".into(),
        ));
    }
    if a.distance.is_some() && a.report.errors {
        return Err(Failure::Usage(
            "--errors lists the edit operations behind TedEval's δ_new; with --distance, --script prints each pair's edit script".into(),
        ));
    }
    let can = crate::output::Capabilities {
        no_selection: a.distance.as_ref().map(|_| "--sent-id, --min-len and --max-len select sentences of a TedEval run; --distance measures every tree pair it is given"),
        state: true,
        // two or more parses are tested by approximate randomization unless --no-test
        always_tests: a.distance.is_none() && !a.no_test && a.exp.len() + a.parse.len() >= 2,
        ..crate::output::Capabilities::of("ted")
    };
    crate::output::check_report(&can, &a.report, false)?;
    if a.report.out.emit_state.is_some() && a.distance.is_some() {
        return Err(Failure::Usage(
            "--emit-state records the counts of a TedEval run; --distance prints one distance per tree pair: drop one of the two".into(),
        ));
    }
    check_outputs(&outputs(&a.report.out), &input_refs(a), a.report.out.force)
}
