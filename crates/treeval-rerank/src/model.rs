//! The model file: versioned JSON with the feature spec, the sparse weights and the
//! training signature.

use serde::{Deserialize, Serialize};
use treeval_formats::nbest::Candidate;

use crate::features::{Extractor, Group, Hashed};

/// The schema name of model files.
pub const SCHEMA: &str = "treeval.rerank-model/1";

/// How features are made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FeatureSpec {
    /// How feature strings become indexes.
    pub hash: String,
    /// log2 of the index space.
    pub bits: u32,
    /// The groups, by name (docs/metrics.md, "rerank").
    pub groups: Vec<String>,
}

/// The hash named in [`FeatureSpec::hash`].
pub const HASH: &str = "fnv1a-64(group:part|part|…) mod 2^bits";

impl FeatureSpec {
    /// The spec of `groups` in 2^`bits` indexes.
    pub fn new(groups: &[Group], bits: u32) -> Self {
        FeatureSpec {
            hash: HASH.into(),
            bits,
            groups: groups.iter().map(|g| g.name().to_owned()).collect(),
        }
    }

    /// The groups, checked.
    pub fn parse_groups(&self) -> Result<Vec<Group>, String> {
        self.groups
            .iter()
            .map(|g| {
                Group::parse(g).ok_or_else(|| {
                    format!(
                        "unknown feature group '{g}' (known: {})",
                        Group::ALL.map(Group::name).join(", ")
                    )
                })
            })
            .collect()
    }
}

/// One configuration's cross-validated figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CvFigure {
    /// `proportional`, `sharp` or `best`.
    pub target: String,
    /// β of a sharp target.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub beta: Option<f64>,
    /// The prior variance.
    pub sigma2: f64,
    /// Held-out micro score of the chosen candidates (percent) over the informative
    /// sentences.
    pub chosen: f64,
    /// Held-out micro score of the first candidates (percent), same sentences.
    pub first: f64,
    /// Held-out micro score of the best candidates (percent), same sentences.
    pub best: f64,
    /// phi = 100·(chosen − first)/(best − first), when best ≠ first.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub phi: Option<f64>,
}

/// How the model was trained.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Training {
    /// The file pairs read.
    pub files: Vec<crate::data::FileSummary>,
    /// The evaluation metric (`LAS`, `UAS`, `CA`).
    pub metric: String,
    /// The deps conventions of the scores (`punct`, `labels`).
    pub punct: String,
    /// How labels were compared.
    pub labels: String,
    /// The objective, in words.
    pub objective: String,
    /// The target asked for (`proportional`, `sharp`, `best`, `cv`).
    pub target_option: String,
    /// The σ² asked for (a number or `cv`).
    pub sigma2_option: String,
    /// The target used.
    pub target: String,
    /// Its β, when sharp.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub beta: Option<f64>,
    /// The σ² used.
    pub sigma2: f64,
    /// Cross-validation folds (0 = none).
    pub folds: usize,
    /// The cross-validated configurations, best first.
    pub cv: Vec<CvFigure>,
    /// The optimiser and its stopping rule.
    pub optimizer: String,
    /// Its iterations.
    pub iterations: u64,
    /// Why it stopped.
    pub termination: String,
    /// The final objective.
    pub cost: f64,
    /// Training sentences (informative) and candidates.
    pub sentences: u64,
    /// Training candidates.
    pub candidates: u64,
    /// Features seen in training.
    pub features_seen: u64,
}

/// A trained reranker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// [`SCHEMA`].
    pub schema: String,
    /// The treeval version that wrote it.
    pub treeval_version: String,
    /// The features.
    pub features: FeatureSpec,
    /// Non-zero weights as `[index, weight]`, by index.
    pub weights: Vec<(u32, f64)>,
    /// The training signature.
    pub training: Training,
}

impl Model {
    /// Read a model from its JSON text (`path` for messages): the schema must be
    /// [`SCHEMA`].
    pub fn from_json(path: &str, text: &str) -> Result<Model, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            format!(
                "{path}:{}:{}: expected a JSON rerank model, found invalid JSON: {e}",
                e.line(),
                e.column()
            )
        })?;
        match v.get("schema").and_then(|s| s.as_str()) {
            Some(SCHEMA) => {}
            Some(other) => {
                return Err(format!(
                    "{path}: expected a model of schema '{SCHEMA}', found schema '{other}'\n  hint: the model was written by another version of treeval; train it again with this one (`treeval rerank train`)"
                ))
            }
            None => {
                return Err(format!(
                    "{path}: expected a rerank model (a JSON object with \"schema\": \"{SCHEMA}\"), found no schema\n  hint: models are written by `treeval rerank train … -o MODEL`"
                ))
            }
        }
        let m: Model = serde_json::from_value(v)
            .map_err(|e| format!("{path}: expected a rerank model of schema '{SCHEMA}': {e}"))?;
        if !(1..=30).contains(&m.features.bits) {
            return Err(format!(
                "{path}: expected features.bits between 1 and 30, found {}",
                m.features.bits
            ));
        }
        m.features
            .parse_groups()
            .map_err(|e| format!("{path}: {e}"))?;
        if let Some((i, _)) = m.weights.iter().find(|(i, _)| *i >> m.features.bits != 0) {
            return Err(format!(
                "{path}: expected weight indexes below 2^{}, found {i}",
                m.features.bits
            ));
        }
        Ok(m)
    }

    /// The JSON text: one line, `{"schema":"treeval.rerank-model/1",…}` first.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// A scorer of candidates with this model.
    pub fn scorer(&self) -> ModelScorer {
        let mut dense = vec![0.0; 1usize << self.features.bits];
        for &(i, w) in &self.weights {
            dense[i as usize] = w;
        }
        ModelScorer {
            extractor: Extractor::new(&self.features.parse_groups().unwrap_or_default()),
            bits: self.features.bits,
            weights: dense,
            buf: Vec::new(),
        }
    }
}

/// Scores candidates with a model's weights.
#[derive(Debug)]
pub struct ModelScorer {
    extractor: Extractor,
    bits: u32,
    weights: Vec<f64>,
    buf: Vec<(u32, f64)>,
}

impl ModelScorer {
    /// w·f of one candidate.
    pub fn score(&mut self, c: &Candidate) -> f64 {
        self.buf.clear();
        let mut sink = Hashed {
            bits: self.bits,
            out: &mut self.buf,
        };
        self.extractor
            .extract(&c.sentence, c.parser_score, &mut sink);
        self.buf
            .iter()
            .map(|&(i, v)| self.weights[i as usize] * v)
            .sum()
    }

    /// The scores of `cands` into `out`.
    pub fn score_all(&mut self, cands: &[Candidate], out: &mut Vec<f64>) {
        out.clear();
        for c in cands {
            let s = self.score(c);
            out.push(s);
        }
    }
}

/// The index of the highest score, ties → the earliest.
pub fn choose(scores: &[f64]) -> usize {
    let mut best = 0;
    for (i, &s) in scores.iter().enumerate() {
        if s > scores[best] {
            best = i;
        }
    }
    best
}
