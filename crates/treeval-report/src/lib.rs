//! The report model of treeval and its renderers.
//!
//! A [`Report`] is plain data (serde); its JSON form is a versioned contract
//! ([`model::SCHEMA`]). [`deps::build`] turns the counts of a `deps` evaluation into a
//! report; [`render::render`] formats it as text, JSON, CSV, TSV, Markdown or LaTeX.

#![warn(missing_docs)]

pub mod brackets;
pub mod compat;
pub mod deps;
pub mod driver;
pub mod emit;
pub mod model;
pub mod render;
pub mod ted;
pub mod ud;
pub mod value;

pub use model::{Report, Signature, SCHEMA};
pub use render::{
    compat_eval09, compat_lines, render, Compat, Eval09Counts, OutputFormat, Sections,
};
