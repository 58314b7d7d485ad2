//! `rerank`: train an evaluation-weighted reranker (van Noord et al. 2002) on (gold,
//! n-best) pairs and write it as a model file ([`train`]); choose one candidate per
//! sentence of an n-best list with a model ([`Reranker`], [`apply`]).
//!
//! ```no_run
//! use treeval::rerank::{apply, train, Target, TrainOptions};
//!
//! let options = TrainOptions {
//!     output: "model.json".into(),
//!     target: Target::Best,
//!     ..TrainOptions::default()
//! };
//! let ev = train(&options, &["gold.conllu".into(), "nbest.conllu.gz".into()])?;
//! println!("{}", ev.report.notes[0]);
//! let (conllu, _warnings) = apply(&"model.json".into(), &"nbest.conllu.gz".into())?;
//! print!("{conllu}");
//! # Ok::<(), treeval::Error>(())
//! ```

use std::io::Write;

use serde::{Deserialize, Serialize};
use treeval_formats::nbest::{Candidate, NbestReader};
use treeval_formats::ReaderBuilder;
use treeval_metrics::nbest::{Metric, SentenceResult};
use treeval_metrics::{DepsOptions, PunctPolicy};
use treeval_report::model::Warning;
use treeval_report::rerank::{build_train, CvConfig, RerankTrainIn, TrainFile};
use treeval_rerank::data::TrainingSet;
use treeval_rerank::model::FeatureSpec;
use treeval_rerank::train::CvRun;
use treeval_rerank::{Extractor, Group, Model, ModelScorer, TargetOption};

use crate::deps::{Conventions, Labels, Profile};
use crate::files::{Output, OutputKind};
use crate::nbest::NbestMetric;
use crate::{Error, Evaluation, Input, Result};

/// How the target distribution over a sentence's candidates is made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// q ∝ the candidate's score (the paper's stochastic training set).
    Proportional,
    /// q ∝ exp(β·score), β from --beta or chosen by cross-validation.
    Sharp,
    /// All mass on the best candidate(s); ties share it.
    Best,
    /// Each of the above, chosen by cross-validation.
    #[default]
    Cv,
}

/// σ² of the prior: given, or chosen by cross-validation (`"cv"`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub enum Sigma2 {
    /// Given.
    Value(f64),
    /// Chosen by cross-validation among 0.1, 1 and 10.
    #[default]
    Cv,
}

impl std::str::FromStr for Sigma2 {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        if s == "cv" {
            return Ok(Sigma2::Cv);
        }
        positive(s.parse::<f64>().unwrap_or(f64::NAN), s).map(Sigma2::Value)
    }
}

/// A positive finite number, or the error naming `given`.
pub fn positive(v: f64, given: &str) -> std::result::Result<f64, String> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(format!("expected a positive number, found '{given}'"))
    }
}

impl Serialize for Sigma2 {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Sigma2::Value(v) => s.serialize_f64(*v),
            Sigma2::Cv => s.serialize_str("cv"),
        }
    }
}

impl<'de> Deserialize<'de> for Sigma2 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::Number(n) => {
                let v = n.as_f64().unwrap_or(f64::NAN);
                positive(v, &n.to_string())
                    .map(Sigma2::Value)
                    .map_err(serde::de::Error::custom)
            }
            serde_json::Value::String(s) => s.parse().map_err(serde::de::Error::custom),
            v => Err(serde::de::Error::custom(format!(
                "expected a positive number or \"cv\", found {v}"
            ))),
        }
    }
}

/// The options of `rerank train`. `Default` is the command line's defaults (but
/// `output`, which must be given).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrainOptions {
    /// Where the model is written (JSON, schema `treeval.rerank-model/1`); a front end
    /// checks it with [`crate::files::check_outputs`] before anything is read.
    pub output: String,
    /// The evaluation score of each candidate that makes the target distribution (and
    /// judges the cross-validation).
    pub metric: NbestMetric,
    /// The target distribution over each sentence's candidates.
    pub target: Target,
    /// β of `target: sharp` (chosen by cross-validation when not given).
    pub beta: Option<f64>,
    /// Variance of the Gaussian prior on the weights, or cross-validation.
    pub sigma2: Sigma2,
    /// Cross-validation folds (at least 2).
    pub folds: u16,
    /// Feature groups (all when empty): score, rel, rel-pos, rel-dir-dist, lemma-rel,
    /// sibling, grandparent, valency, nonproj, roots.
    pub features: Vec<String>,
    /// log2 of the hashed feature space (8 to 28).
    pub hash_bits: u32,
    /// How many of the model's strongest features (largest |weight|) the report lists by
    /// name (0: none).
    pub top_features: usize,
    /// Conventions bundle (`conll07`); `punct` and `labels` override its parts.
    pub profile: Option<Profile>,
    /// Which words are scored.
    pub punct: Option<PunctPolicy>,
    /// How DEPREL is compared.
    pub labels: Option<Labels>,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            output: String::new(),
            metric: NbestMetric::Las,
            target: Target::Cv,
            beta: None,
            sigma2: Sigma2::Cv,
            folds: 5,
            features: Vec::new(),
            hash_bits: 20,
            top_features: 0,
            profile: None,
            punct: None,
            labels: None,
        }
    }
}

impl TrainOptions {
    /// The feature groups asked for (all by default).
    pub fn groups(&self) -> Result<Vec<Group>> {
        if self.features.is_empty() {
            return Ok(Group::ALL.to_vec());
        }
        let mut v = Vec::new();
        for name in &self.features {
            let g = Group::parse(name.trim()).ok_or_else(|| {
                Error::Usage(format!(
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

    /// Usage errors of the options (before any file is read or written).
    pub fn check(&self) -> Result<()> {
        self.resolve()?;
        self.groups().map(|_| ())
    }

    /// The training crate's options and the scorer's conventions; usage errors for values
    /// the command line would not take.
    fn resolve(&self) -> Result<(treeval_rerank::TrainOptions, DepsOptions)> {
        let usage = |m: String| Err(Error::Usage(m));
        if self.beta.is_some() && self.target != Target::Sharp {
            return usage("--beta is the β of --target sharp; give --target sharp with it".into());
        }
        if let Some(b) = self.beta {
            positive(b, &b.to_string()).map_err(|e| Error::Usage(format!("--beta: {e}")))?;
        }
        if self.folds < 2 {
            return usage(format!(
                "--folds: expected at least 2, found {}",
                self.folds
            ));
        }
        if !(8..=28).contains(&self.hash_bits) {
            return usage(format!(
                "--hash-bits: expected 8 to 28, found {}",
                self.hash_bits
            ));
        }
        let target = match self.target {
            Target::Proportional => TargetOption::Proportional,
            Target::Sharp => TargetOption::Sharp(self.beta),
            Target::Best => TargetOption::Best,
            Target::Cv => TargetOption::Cv,
        };
        let conventions = Conventions {
            profile: self.profile,
            punct: self.punct.clone(),
            labels: self.labels,
        };
        let (punct, labels, _) = conventions.resolve(Profile::Conll07);
        let deps = DepsOptions {
            punct,
            labels,
            ..DepsOptions::default()
        };
        let o = treeval_rerank::TrainOptions {
            metric: self.metric.metric(),
            target,
            sigma2: match self.sigma2 {
                Sigma2::Value(v) => Some(v),
                Sigma2::Cv => None,
            },
            folds: usize::from(self.folds),
            conventions: (deps.punct.name(), deps.labels.name().into()),
        };
        Ok((o, deps))
    }
}

/// The output guard's description of the model file `options.output`.
pub fn model_output(options: &TrainOptions) -> Output<'_> {
    Output {
        flag: "--output",
        path: &options.output,
        kind: OutputKind::RerankModel,
    }
}

/// Usage errors of a training run's inputs: `files` must be GOLD NBEST pairs.
pub fn check_pairs(files: &[Input]) -> Result<()> {
    if files.len() % 2 == 0 && !files.is_empty() {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "expected GOLD NBEST pairs, found {} files (an odd number); the last, '{}', has no partner",
        files.len(),
        files.last().map_or("", Input::name)
    )))
}

/// Train a reranker on `files` (GOLD NBEST pairs), write the model to
/// `options.output` (checked by the front end with [`crate::files::check_outputs`] and
/// [`model_output`]) and return the cross-validation report with the readers' warnings.
pub fn train(options: &TrainOptions, files: &[Input]) -> Result<Evaluation> {
    train_with(options, files, None)
}

/// [`train`], telling `progress` how far it is: `reading` (sentences read, no total),
/// `cross-validation` (fits done of all), `training the model` (0 or 1 of 1).
pub fn train_with(
    options: &TrainOptions,
    files: &[Input],
    progress: Option<&crate::Progress>,
) -> Result<Evaluation> {
    check_pairs(files)?;
    if options.output.is_empty() {
        return Err(Error::Usage(
            "--output: give the file the model is written to".into(),
        ));
    }
    let (o, deps) = options.resolve()?;
    let groups = options.groups()?;
    let eval = |e: treeval_formats::Error| Error::Eval(e.to_string());
    let tell = |label: &str, done: u64, total: u64| {
        if let Some(p) = progress {
            (p.0)(label, done, total);
        }
    };
    let mut data = TrainingSet::new(o.metric);
    if options.top_features > 0 {
        data.names = Some(std::collections::HashMap::new());
    }
    let mut ex = Extractor::new(&groups);
    let mut before = 0;
    for p in files.chunks(2) {
        let open = |i: &Input| i.with(ReaderBuilder::new()).open().map_err(eval);
        let names = (p[0].name(), p[1].name());
        data.read_readers(
            names,
            (open(&p[0])?, open(&p[1])?),
            &deps,
            &mut ex,
            options.hash_bits,
            &mut |n| tell("reading (sentences)", before + n, 0),
        )
        .map_err(eval)?;
        before = data.files.iter().map(|f| f.sentences).sum();
    }
    if data.sentences() == 0 {
        return Err(Error::Eval(
            "no training sentence: every sentence has one candidate or candidates that all score the same".into(),
        ));
    }
    let spec = FeatureSpec::new(&groups, options.hash_bits);
    let (model, runs) =
        treeval_rerank::train(&data, &o, spec, &tell).map_err(|e| Error::Eval(e.to_string()))?;
    let mut f = crate::files::create(&model_output(options))?;
    f.write_all(model.to_json().as_bytes())
        .and_then(|()| f.finish())
        .map_err(|e| Error::Eval(format!("{}: cannot write the model: {e}", options.output)))?;
    let top = strongest(&model, data.names.as_ref(), options.top_features);
    let mut report = train_report(&model, &runs, &groups, options, &top);
    report.warnings = crate::ud::reader_warnings(&data.warnings);
    Ok(Evaluation::new(report, None, None))
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

/// The report's settings and notes of a training run.
fn choices_and_notes(
    m: &Model,
    runs: &[CvRun],
    groups: &[Group],
    options: &TrainOptions,
) -> (Vec<(&'static str, String)>, Vec<String>) {
    let t = &m.training;
    let features: Vec<&str> = groups.iter().map(|g| g.name()).collect();
    let choices = vec![
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
        ("features", features.join(",")),
        ("hash-bits", options.hash_bits.to_string()),
    ];
    let notes = vec![
        format!(
            "model written to {}: {} features with a weight that is not zero (|w| above 1e-10 of the largest: smaller ones are round-off of features equal on every candidate, dropped) of {} features seen; target {}{}, σ² {} ({}: --target {}, --sigma2 {})",
            options.output,
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
    (choices, notes)
}

/// The report of a training run.
fn train_report(
    m: &Model,
    runs: &[CvRun],
    groups: &[Group],
    options: &TrainOptions,
    top: &[(String, f64)],
) -> treeval_report::Report {
    let files: Vec<TrainFile> = m
        .training
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
    let (choices, notes) = choices_and_notes(m, runs, groups, options);
    let choices: Vec<(&str, String)> = choices;
    build_train(&RerankTrainIn {
        files: &files,
        configs: &configs,
        metric: Metric::parse(&m.training.metric).unwrap_or(Metric::Las),
        choices: &choices,
        notes,
        model: format!(
            "model ({})",
            match m.training.beta {
                Some(b) => format!(
                    "{} beta={b} sigma2={}",
                    m.training.target, m.training.sigma2
                ),
                None => format!("{} sigma2={}", m.training.target, m.training.sigma2),
            }
        ),
        top_features: top,
    })
}

/// The `n` weights of `m` largest in magnitude (ties: the lower index first), each with
/// its feature's name from `names` (`#index` for an index without one).
fn strongest(
    m: &Model,
    names: Option<&std::collections::HashMap<u32, String>>,
    n: usize,
) -> Vec<(String, f64)> {
    let mut w = m.weights.clone();
    w.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
    w.into_iter()
        .take(n)
        .map(|(i, x)| {
            let name = names.and_then(|m| m.get(&i)).cloned();
            (name.unwrap_or_else(|| format!("#{i}")), x)
        })
        .collect()
}

/// Read and check a model file (`treeval rerank train`'s output).
pub fn load_model(model: &Input) -> Result<Model> {
    let text = crate::input::read_text(model, "a rerank model (JSON)")?;
    Model::from_json(model.name(), &text).map_err(Error::Eval)
}

/// The candidates a model chooses, one sentence at a time: the highest model score
/// w·f of each sentence's candidates (ties → the earliest rank).
pub struct Reranker {
    scorer: ModelScorer,
    reader: NbestReader<treeval_formats::input::Input>,
    candidates: Vec<Candidate>,
    scores: Vec<f64>,
}

impl std::fmt::Debug for Reranker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reranker").finish_non_exhaustive()
    }
}

impl Reranker {
    /// The reranker of `model` over the n-best list `nbest`.
    pub fn open(model: &Input, nbest: &Input) -> Result<Self> {
        let model = load_model(model)?;
        let reader = nbest
            .with(ReaderBuilder::new())
            .open()
            .map_err(|e| Error::Eval(e.to_string()))?;
        Ok(Reranker {
            scorer: model.scorer(),
            reader: NbestReader::new(reader),
            candidates: Vec::new(),
            scores: Vec::new(),
        })
    }

    /// The next sentence's chosen candidate and its model score (`None` at the end).
    pub fn next_choice(&mut self) -> Result<Option<(&Candidate, f64)>> {
        let more = (self.reader.read_group(&mut self.candidates))
            .map_err(|e| Error::Eval(e.to_string()))?;
        if !more {
            return Ok(None);
        }
        self.scorer.score_all(&self.candidates, &mut self.scores);
        let k = treeval_rerank::choose(&self.scores);
        Ok(Some((&self.candidates[k], self.scores[k])))
    }

    /// Write `c` (chosen with model score `score`) as plain CoNLL-U: its comments but
    /// `# rank` and `# parser_score`, then `# rerank_rank` and `# rerank_score`.
    pub fn write(out: &mut dyn Write, c: &Candidate, score: f64) -> std::io::Result<()> {
        treeval_rerank::write::write_chosen(out, c, score)
    }

    /// The reader's warnings so far, in the order found.
    pub fn warnings(&self) -> Vec<Warning> {
        (self.reader.diagnostics().warnings())
            .map(Warning::from)
            .collect()
    }
}

/// The chosen candidates of `nbest` by `model` as CoNLL-U text, and the reader's
/// warnings.
pub fn apply(model: &Input, nbest: &Input) -> Result<(String, Vec<Warning>)> {
    let mut r = Reranker::open(model, nbest)?;
    let mut out = Vec::new();
    while let Some((c, score)) = r.next_choice()? {
        Reranker::write(&mut out, c, score).map_err(|e| Error::Eval(e.to_string()))?;
    }
    let text = String::from_utf8(out).map_err(|e| Error::Eval(e.to_string()))?;
    Ok((text, r.warnings()))
}
