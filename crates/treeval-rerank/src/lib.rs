//! Evaluation-weighted parse reranking (van Noord et al. 2002, "stochastic training
//! set"): a conditional log-linear model over the candidates of each sentence of an
//! n-best list, trained against a target distribution made from each candidate's
//! evaluation score (LAS, UAS or CA by the `nbest` scorer), with a Gaussian prior and
//! L-BFGS (`argmin`).
//!
//! [`features`] turns a candidate tree into hashed features; [`data`] reads training
//! pairs (gold, n-best) into sparse vectors; [`objective`] is the cross-entropy and its
//! minimisation; [`train`] chooses target shape and σ² by cross-validation; [`model`] is
//! the versioned model file and scores candidates; [`write`] prints a chosen candidate
//! as CoNLL-U.

pub mod data;
pub mod features;
pub mod model;
pub mod objective;
pub mod train;
pub mod write;

pub use features::{Extractor, Group};
pub use model::{choose, Model, ModelScorer, SCHEMA};
pub use train::{train, TargetOption, TrainOptions};

#[cfg(test)]
mod tests;
