//! The files `nbest` writes besides the report, sentence by sentence: the per-sentence
//! records of [`crate::Common`] and the training set of `export_training`.

use std::io::Write;

use serde_json::json;
use treeval_metrics::nbest::{sentence, CandidateScore, Metric, Pick, SentenceResult};
use treeval_report::nbest::system_index;
use treeval_report::records::Record;

use super::{Inputs, Options};
use crate::files::{Output, OutputKind, TRAINING_SCHEMA};
use crate::records::Records;
use crate::{Common, Error, Result};

/// The training file: its writer, the metric of its scores, its path.
type Training = (treeval_formats::output::Output, Metric, String);

/// The files written besides the report.
pub(super) struct Sink {
    per_sentence: Records,
    /// Reading evaluate.pl's lines: CA only.
    alpino: bool,
    training: Option<Training>,
    error: Option<std::io::Error>,
}

impl Sink {
    /// The per-sentence records of `common` and the training file of `options` (its path
    /// checked by the front end), each with its header.
    pub(super) fn open(options: &Options, inputs: &Inputs, common: &Common) -> Result<Self> {
        let roles = inputs.roles();
        let per_sentence = Records::open(common.per_sentence.as_ref(), "nbest", &roles);
        let mut error = None;
        let training = match &options.export_training {
            None => None,
            Some(path) => {
                let mut w = crate::files::create(&Output {
                    flag: "--export-training",
                    path,
                    kind: OutputKind::Training,
                })?;
                let metric = options.metric.metric();
                let header = json!({
                    "schema": TRAINING_SCHEMA,
                    "command": "nbest",
                    "metric": metric.name(),
                    "target": "score / Σ score of the sentence's candidates (equal where all are 0)",
                    "inputs": roles.iter().map(|(role, path)| json!({"role": role, "path": path})).collect::<Vec<_>>(),
                });
                if let Err(e) = writeln!(w, "{header}") {
                    error = Some(e);
                }
                Some((w, metric, path.clone()))
            }
        };
        Ok(Sink {
            per_sentence,
            alpino: matches!(inputs, Inputs::Alpino(_)),
            training,
            error,
        })
    }

    /// One sentence's per-sentence records, one per pick (system): the pick's counts, the
    /// rank of the candidate it picked per metric, and every candidate's counts.
    fn per_sentence_records(
        &mut self,
        file: usize,
        index: usize,
        sent_id: &str,
        cands: &[CandidateScore],
        r: &SentenceResult,
    ) {
        let alpino = self.alpino;
        let scores: Vec<_> = cands
            .iter()
            .map(|c| {
                if alpino {
                    json!({"rank": c.rank, "weight": c.weight, "triples": c.triples})
                } else {
                    json!({"rank": c.rank, "weight": c.weight, "LAS": c.las, "UAS": c.uas, "LA": c.la, "words": c.words, "triples": c.triples})
                }
            })
            .collect();
        for (j, p) in Pick::ALL.into_iter().enumerate() {
            let ranks: serde_json::Map<_, _> = (Metric::ALL.into_iter().enumerate())
                .filter(|(_, m)| !alpino || *m == Metric::Ca)
                .map(|(k, m)| (m.name().to_string(), json!(r.index[k][j] + 1)))
                .collect();
            let record = Record::of(index as u64 + 1, system_index(file, p), &r.picks[j])
                .sent_id(Some(sent_id))
                .extra("pick", p.name())
                .extra("ranks", ranks)
                .extra("candidates", &scores);
            self.per_sentence.write(&record);
        }
    }

    /// One sentence: its per-sentence records and its candidates' training rows.
    pub(super) fn sentence(
        &mut self,
        file: usize,
        index: usize,
        sent_id: &str,
        cands: &[CandidateScore],
    ) {
        let r = sentence(cands);
        if self.per_sentence.is_on() {
            self.per_sentence_records(file, index, sent_id, cands, &r);
        }
        let Some((w, metric, _)) = self.training.as_mut() else {
            return;
        };
        let scores: Vec<Option<f64>> = cands
            .iter()
            .map(|c| metric.sentence_score(metric.triples(c)))
            .collect();
        let targets = treeval_metrics::nbest::targets(&scores);
        for ((c, s), q) in cands.iter().zip(&scores).zip(targets) {
            let row = json!({"file": file, "sentence": index + 1, "sent_id": sent_id, "rank": c.rank, "features": features(c), "score": s, "target": q});
            if self.error.is_none() {
                if let Err(e) = writeln!(w, "{row}") {
                    self.error = Some(e);
                }
            }
        }
    }

    /// Flush both files; the first write error is an error.
    pub(super) fn finish(self) -> Result<()> {
        self.per_sentence.finish()?;
        let Some((w, _, path)) = self.training else {
            return Ok(());
        };
        match self.error.or_else(|| w.finish().err()) {
            None => Ok(()),
            Some(e) => Err(Error::Eval(format!(
                "{path}: cannot write the --export-training file: {e}"
            ))),
        }
    }
}

/// A candidate's features in the training set: the parser score. (The reranker's tree
/// features are added here.)
fn features(c: &CandidateScore) -> serde_json::Value {
    json!({"parser_score": c.weight})
}
