//! The report model of treeval and its renderers.
//!
//! A [`Report`] is plain data (serde); its JSON form is a versioned contract
//! ([`value::SCHEMA_V3`]). [`deps::build`] turns the counts of a `deps` evaluation into a
//! report; [`emit::emit`] formats any report as text, JSON, CSV, TSV, Markdown or LaTeX.

#![warn(missing_docs)]

pub mod align;
pub mod brackets;
pub mod browse;
pub mod browse_brackets;
pub mod compat;
pub mod deps;
pub mod driver;
pub mod emit;
pub mod errors;
pub mod measures;
pub mod model;
pub mod names;
pub mod nbest;
pub mod pts;
pub mod records;
pub mod relations;
pub mod render;
pub mod rerank;
pub mod state;
pub mod table;
pub mod ted;
pub mod ud;
pub mod value;

pub use compat::conll::{compat_eval09, compat_lines, Compat, Eval09Counts};
pub use model::Signature;
pub use render::OutputFormat;
pub use value::Report;
