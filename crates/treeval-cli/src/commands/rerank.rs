//! `treeval rerank train` and `treeval rerank apply`.

use std::io::Write;

use treeval_formats::nbest::{Candidate, NbestReader};
use treeval_formats::ReaderBuilder;
use treeval_metrics::nbest::{Metric, SentenceResult};
use treeval_metrics::DepsOptions;
use treeval_report::rerank::{build_train, CvConfig, RerankTrainIn, TrainFile};
use treeval_rerank::data::TrainingSet;
use treeval_rerank::model::FeatureSpec;
use treeval_rerank::train::CvRun;
use treeval_rerank::{Extractor, Group, Model, TargetOption, TrainOptions};

use crate::args::{
    NbestMetric, Profile, RerankApplyArgs, RerankCommand, RerankTarget, RerankTrainArgs, Sigma2,
};
use crate::output::{check_outputs, InputRef, Output, OutputKind};
use crate::Failure;

/// Run a `rerank` subcommand.
pub fn run(c: &RerankCommand, out: &mut dyn Write) -> Result<(), Failure> {
    match c {
        RerankCommand::Train(a) => train(a, out),
        RerankCommand::Apply(a) => apply(a, out),
    }
}

fn eval<E: std::fmt::Display>(e: E) -> Failure {
    Failure::Eval(e.to_string())
}

/// The feature groups asked for (all by default).
fn groups(a: &RerankTrainArgs) -> Result<Vec<Group>, Failure> {
    if a.features.is_empty() {
        return Ok(Group::ALL.to_vec());
    }
    let mut v = Vec::new();
    for name in &a.features {
        let g = Group::parse(name.trim()).ok_or_else(|| {
            Failure::Usage(format!(
                "--features: expected a feature group ({}), found '{name}'",
                Group::ALL.map(Group::name).join(", ")
            ))
        })?;
        if !v.contains(&g) {
            v.push(g);
        }
    }
    Ok(v)
}

/// The options of a training run, from the arguments.
fn options(a: &RerankTrainArgs) -> Result<(TrainOptions, DepsOptions), Failure> {
    if a.beta.is_some() && a.target != RerankTarget::Sharp {
        return Err(Failure::Usage(
            "--beta is the β of --target sharp; give --target sharp with it".into(),
        ));
    }
    let metric = match a.metric {
        NbestMetric::Las => Metric::Las,
        NbestMetric::Uas => Metric::Uas,
        NbestMetric::La => Metric::La,
        NbestMetric::Ca => Metric::Ca,
    };
    let target = match a.target {
        RerankTarget::Proportional => TargetOption::Proportional,
        RerankTarget::Sharp => TargetOption::Sharp(a.beta),
        RerankTarget::Best => TargetOption::Best,
        RerankTarget::Cv => TargetOption::Cv,
    };
    let (punct, labels, _) = super::deps::conventions(&a.conventions, Profile::Conll07);
    let deps = DepsOptions {
        punct,
        labels,
        ..DepsOptions::default()
    };
    let o = TrainOptions {
        metric,
        target,
        sigma2: match a.sigma2 {
            Sigma2::Value(v) => Some(v),
            Sigma2::Cv => None,
        },
        folds: usize::from(a.folds),
        conventions: (deps.punct.name(), deps.labels.name().into()),
    };
    Ok((o, deps))
}

/// One configuration's held-out results for the report.
fn cv_config(r: &CvRun) -> CvConfig {
    let name = match r.target.beta() {
        Some(b) => format!("sharp beta={b} sigma2={}", r.sigma2),
        None => format!("{} sigma2={}", r.target.name(), r.sigma2),
    };
    let pick = |p: usize| {
        r.results
            .iter()
            .map(|x: &SentenceResult| x.picks[p])
            .collect()
    };
    CvConfig {
        name,
        first: pick(0),
        chosen: pick(3),
        gaps: r.results.iter().map(|x| x.gap).collect(),
    }
}

fn train(a: &RerankTrainArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if a.files.len() % 2 != 0 {
        return Err(Failure::Usage(format!(
            "expected GOLD NBEST pairs, found {} files (an odd number); the last, '{}', has no partner",
            a.files.len(),
            a.files.last().map_or("", String::as_str)
        )));
    }
    let (o, deps) = options(a)?;
    let groups = groups(a)?;
    let ins: Vec<InputRef<'_>> = a
        .files
        .chunks(2)
        .flat_map(|p| [("GOLD", p[0].as_str()), ("NBEST", p[1].as_str())])
        .collect();
    let model_out = Output {
        flag: "--output",
        path: &a.output,
        kind: OutputKind::RerankModel,
    };
    check_outputs(&[model_out], &ins, a.force)?;
    let mut data = TrainingSet::new(o.metric);
    let mut ex = Extractor::new(&groups);
    for p in a.files.chunks(2) {
        data.read_pair(&p[0], &p[1], &deps, &mut ex, a.hash_bits)
            .map_err(eval)?;
    }
    if data.sentences() == 0 {
        return Err(Failure::Eval(
            "no training sentence: every sentence has one candidate or candidates that all score the same".into(),
        ));
    }
    let (model, runs) =
        treeval_rerank::train(&data, &o, FeatureSpec::new(&groups, a.hash_bits)).map_err(eval)?;
    let mut f = crate::output::create(&model_out)?;
    f.write_all(model.to_json().as_bytes())
        .and_then(|()| f.flush())
        .map_err(|e| Failure::Eval(format!("{}: cannot write the model: {e}", a.output)))?;
    let mut report = train_report(&model, &runs, &groups, a);
    report.warnings = super::ud::print_warnings(&data.warnings, a.quiet);
    let text = treeval_report::emit::to_string(&report, a.format);
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}

/// The report of a training run.
fn train_report(
    m: &Model,
    runs: &[CvRun],
    groups: &[Group],
    a: &RerankTrainArgs,
) -> treeval_report::Report {
    let t = &m.training;
    let files: Vec<TrainFile> = t
        .files
        .iter()
        .map(|f| TrainFile {
            gold: f.gold.clone(),
            nbest: f.nbest.clone(),
            description: format!(
                "{} sentences, {} candidates; trained on {} (left out: {} with one candidate, {} with all candidates scoring the same)",
                f.sentences, f.candidates, f.informative, f.single, f.tied
            ),
            counts: serde_json::to_value(f).unwrap_or_default(),
        })
        .collect();
    let configs: Vec<CvConfig> = runs.iter().map(cv_config).collect();
    let choices: Vec<(&str, String)> = vec![
        ("metric", t.metric.clone()),
        ("punct", t.punct.clone()),
        ("labels", t.labels.clone()),
        ("target", t.target.clone()),
        (
            "beta",
            t.beta.map_or_else(|| "none".into(), |b| b.to_string()),
        ),
        ("sigma2", t.sigma2.to_string()),
        ("folds", t.folds.to_string()),
        (
            "features",
            groups
                .iter()
                .map(|g| g.name())
                .collect::<Vec<_>>()
                .join(","),
        ),
        ("hash-bits", a.hash_bits.to_string()),
    ];
    let notes = vec![
        format!(
            "model written to {}: {} non-zero weights of {} features seen; target {}{}, σ² {} ({}: --target {}, --sigma2 {})",
            a.output,
            m.weights.len(),
            t.features_seen,
            t.target,
            t.beta.map_or_else(String::new, |b| format!(" β={b}")),
            t.sigma2,
            if runs.is_empty() { "as given" } else { "chosen by cross-validation" },
            t.target_option,
            t.sigma2_option
        ),
        format!(
            "trained on {} sentences, {} candidates; {} ({} iterations, {}; objective {:.4})",
            t.sentences, t.candidates, t.optimizer, t.iterations, t.termination, t.cost
        ),
        "cross-validation: sentence k of the pooled training sentences is held out in fold k mod folds; scores are over the held-out informative sentences (those left out of training score the same whatever is chosen)".into(),
    ];
    build_train(&RerankTrainIn {
        files: &files,
        configs: &configs,
        metric: Metric::parse(&t.metric).unwrap_or(Metric::Las),
        choices: &choices,
        notes,
    })
}

/// Read and check a model file.
pub fn load_model(path: &str) -> Result<Model, Failure> {
    let text = treeval_formats::input::read_text(path, "a rerank model (JSON)").map_err(eval)?;
    Model::from_json(path, &text).map_err(Failure::Eval)
}

fn apply(a: &RerankApplyArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let model = load_model(&a.model)?;
    let mut scorer = model.scorer();
    let rdr = ReaderBuilder::new().from_path(&a.nbest).map_err(eval)?;
    let mut nb = NbestReader::new(rdr);
    let mut cands: Vec<Candidate> = Vec::new();
    let mut scores = Vec::new();
    while nb.read_group(&mut cands).map_err(eval)? {
        scorer.score_all(&cands, &mut scores);
        let k = treeval_rerank::choose(&scores);
        treeval_rerank::write::write_chosen(out, &cands[k], scores[k]).map_err(Failure::Io)?;
    }
    if !a.quiet {
        for w in nb.diagnostics().warnings() {
            eprintln!("warning: {w}");
        }
    }
    out.flush().map_err(Failure::Io)
}
