//! The `rerank train` report on the shared model: one system per cross-validated
//! configuration (target shape, β, σ²), its held-out chosen score (micro and macro) and
//! the share of the first–best gap it closes (phi, exact), with the training files as
//! inputs and the chosen configuration in the conventions and signature.

use treeval_metrics::measure::Measure;
use treeval_metrics::nbest::{gap_measures, pick_measures, GapCounts, Metric, PickCounts};

use crate::driver::section;
use crate::model::Signature;
use crate::value::{Input, Report, System};

/// One configuration's held-out results, one unit per held-out sentence.
#[derive(Debug, Clone)]
pub struct CvConfig {
    /// Its name (`sharp beta=0.3 sigma2=10`).
    pub name: String,
    /// The held-out first candidates' counts.
    pub first: Vec<PickCounts>,
    /// The held-out chosen candidates' counts.
    pub chosen: Vec<PickCounts>,
    /// First, best and chosen together.
    pub gaps: Vec<GapCounts>,
}

/// One training file pair.
#[derive(Debug, Clone)]
pub struct TrainFile {
    /// The gold file.
    pub gold: String,
    /// The n-best file.
    pub nbest: String,
    /// What it held, in words.
    pub description: String,
    /// Its counts.
    pub counts: serde_json::Value,
}

/// A `rerank train` run, as the report needs it.
#[derive(Debug, Clone)]
pub struct RerankTrainIn<'a> {
    /// The training files.
    pub files: &'a [TrainFile],
    /// The cross-validated configurations (empty when none was needed).
    pub configs: &'a [CvConfig],
    /// The metric the candidates are judged by.
    pub metric: Metric,
    /// `key:value` parts of the signature (the choices that fix the model).
    pub choices: &'a [(&'a str, String)],
    /// Remarks (the chosen configuration, the training run).
    pub notes: Vec<String>,
    /// The trained model's name (`model (best sigma2=10)`), the system of its features.
    pub model: String,
    /// The model's strongest features, by name, with their weights (`--top-features`).
    pub top_features: &'a [(String, f64)],
}

/// The measures of metric `m` among `all`: `M`, `macro-M`, `phi-M`, `phi-macro-M`,
/// `exact-M`.
fn of_metric(all: Vec<Measure>, m: Metric) -> Vec<Measure> {
    let n = m.name();
    all.into_iter()
        .filter(|x| {
            x.name == n
                || x.name.strip_prefix("macro-") == Some(n)
                || x.name.strip_prefix("phi-") == Some(n)
                || x.name.strip_prefix("phi-macro-") == Some(n)
                || x.name.strip_prefix("exact-") == Some(n)
        })
        .collect()
}

/// Build the report.
pub fn build_train(e: &RerankTrainIn<'_>) -> Report {
    let mut r = Report::new("rerank-train", Signature::new("rerank-train", e.choices));
    for (k, v) in e.choices {
        r.convention(k, v);
    }
    for f in e.files {
        use crate::names::role::{GOLD, SYSTEM};
        for (role, path) in [(GOLD, &f.gold), (SYSTEM, &f.nbest)] {
            r.inputs.push(Input {
                role: role.into(),
                path: path.clone(),
                format: "conllu".into(),
                description: if role == SYSTEM {
                    f.description.clone()
                } else {
                    String::new()
                },
                counts: if role == SYSTEM {
                    f.counts.clone()
                } else {
                    serde_json::Value::Null
                },
                system: None,
            });
        }
    }
    let pm = of_metric(pick_measures(), e.metric);
    let gm = of_metric(gap_measures(), e.metric);
    if !e.configs.is_empty() {
        let mut systems = vec![System {
            name: "first (rank 1)".into(),
            inputs: Vec::new(),
        }];
        systems.extend(e.configs.iter().map(|c| System {
            name: c.name.clone(),
            inputs: Vec::new(),
        }));
        r.systems = systems;
        let mut units: Vec<&[PickCounts]> = vec![&e.configs[0].first];
        units.extend(e.configs.iter().map(|c| c.chosen.as_slice()));
        let mut scores = section(
            "cv-scores",
            "held-out score of the chosen candidates (first: rank 1)",
            &pm,
            &units,
            None,
        );
        scores.show_counts = true;
        r.sections.push(scores);
        let gaps: Vec<&[GapCounts]> = e.configs.iter().map(|c| c.gaps.as_slice()).collect();
        let mut choice = section(
            "cv-choice",
            "held-out choice against first and best",
            &gm,
            &gaps,
            None,
        );
        for row in &mut choice.rows {
            row.system += 1;
        }
        r.sections.push(choice);
        r.add_measures::<PickCounts>(&pm);
        r.add_measures::<GapCounts>(&gm);
    }
    r.notes.clone_from(&e.notes);
    top_features(&mut r, e);
    r
}

/// The listing `top-features` of the model (a system of its own, after the
/// configurations): rank, feature, weight.
fn top_features(r: &mut Report, e: &RerankTrainIn<'_>) {
    if e.top_features.is_empty() {
        return;
    }
    r.systems.push(System {
        name: e.model.clone(),
        inputs: Vec::new(),
    });
    r.listings.push(crate::value::Listing {
        id: "top-features".into(),
        system: r.systems.len() - 1,
        columns: vec!["rank".into(), "feature".into(), "weight".into()],
        rows: (e.top_features.iter().enumerate())
            .map(|(k, (name, w))| vec![(k + 1).to_string(), name.clone(), format!("{w:.6}")])
            .collect(),
        kinds: Vec::new(),
    });
}
