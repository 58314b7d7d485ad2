//! `treeval rerank train` and `treeval rerank apply`: the command line's options made
//! into [`treeval::rerank::TrainOptions`], training and choosing done by the library.

use std::io::Write;

use treeval::rerank::{model_output, Reranker, TrainOptions};

use crate::args::{RerankApplyArgs, RerankCommand, RerankTrainArgs};
use crate::output::{check_outputs, InputRef};
use crate::Failure;

/// Run a `rerank` subcommand.
pub fn run(c: &RerankCommand, out: &mut dyn Write) -> Result<(), Failure> {
    match c {
        RerankCommand::Train(a) => train(a, out),
        RerankCommand::Apply(a) => apply(a, out),
    }
}

/// The library's options of `rerank train`.
pub fn options(a: &RerankTrainArgs) -> TrainOptions {
    TrainOptions {
        output: a.output.clone(),
        metric: a.metric,
        target: a.target,
        beta: a.beta,
        sigma2: a.sigma2,
        folds: a.folds,
        features: a.features.clone(),
        hash_bits: a.hash_bits,
        top_features: a.top_features,
        profile: a.conventions.profile,
        punct: a.conventions.punct.clone(),
        labels: a.conventions.labels,
    }
}

fn train(a: &RerankTrainArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let files: Vec<treeval::Input> = a.files.iter().map(treeval::Input::from).collect();
    treeval::rerank::check_pairs(&files)?;
    a.style.check(a.format, false).map_err(Failure::Usage)?;
    let o = options(a);
    o.check()?;
    let ins: Vec<InputRef<'_>> = a
        .files
        .chunks(2)
        .flat_map(|p| [("GOLD", p[0].as_str()), ("NBEST", p[1].as_str())])
        .collect();
    check_outputs(&[model_output(&o)], &ins, a.force)?;
    // progress on stderr (reading, cross-validation, the final fit), as every command
    let bar = super::significance::Progress::new(a.quiet);
    let ev = treeval::rerank::train_with(&o, &files, Some(&bar.callback()));
    bar.finish();
    let ev = ev?;
    super::significance::print_warnings(ev.warnings(), a.quiet);
    let text = treeval_report::emit::to_string(&ev.report, a.format, a.style.style());
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}

fn apply(a: &RerankApplyArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let mut r = Reranker::open(&a.model.as_str().into(), &a.nbest.as_str().into())?;
    while let Some((c, score)) = r.next_choice()? {
        Reranker::write(out, c, score).map_err(Failure::Io)?;
    }
    super::significance::print_warnings(&r.warnings(), a.quiet);
    out.flush().map_err(Failure::Io)
}
