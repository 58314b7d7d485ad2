//! Parsing metrics as per-sentence sufficient statistics.
//!
//! Each metric counts, per sentence, the integers its score is computed from; counts are
//! summed with `+=` and scores are computed from the sums ([`score`]). Breakdowns,
//! parallel and distributed evaluation, and significance tests all reuse those counts.

#![warn(missing_docs)]

pub mod align;
pub mod align_index;
pub mod bins;
pub mod brackets;
pub mod careful;
pub mod deps;
mod feed;
pub mod filter;
pub mod labels;
pub mod list;
pub mod measure;
pub mod nbest;
pub mod pts;
pub mod punct;
pub mod relations;
pub mod sample;
pub mod score;
pub mod select;
pub mod sent_ids;
pub mod ted;
pub mod tedeval;
pub mod tree;
pub mod ud;

pub use deps::{AttachmentCounts, ByKey, DepsOptions, LabelMode, PunctPolicy};
pub use labels::LabelTable;
pub use score::Ratio;
