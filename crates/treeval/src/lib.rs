//! # treeval
//!
//! Evaluate syntactic parses and alignments against gold standards, with the numbers of
//! the reference scorers (eval07.pl, eval.pl, eval09.pl, conll18_ud_eval.py, EVALB, …)
//! and significance tests and confidence intervals for every measure.
//!
//! This crate is the library the `treeval` command and the Python package are front
//! ends of. Each family of measures is a module with typed, serde [`Options`](deps::Options)
//! and an `evaluate` function:
//!
//! ```no_run
//! use treeval::{deps, Common, Inputs};
//!
//! let inputs = Inputs::new("gold.conllu", ["parser-a.conllu", "parser-b.conllu"]);
//! let common = Common { ci: Some(0.95), ..Common::default() };
//! let ev = deps::evaluate(&deps::Options::default(), &inputs, &common)?;
//! for system in 0..2 {
//!     if let Some(las) = ev.report.cell("LAS", system) {
//!         println!("{}: LAS {:?} {:?}", ev.report.system_name(system), las.value, las.ci);
//!     }
//! }
//! # Ok::<(), treeval::Error>(())
//! ```
//!
//! An [`Evaluation`] holds the [`Report`] (plain data: render it with
//! [`treeval_report::emit`] in text, JSON, CSV, Markdown, LaTeX or HTML), the state of
//! a part of a corpus when [`Common::state`] asks for it, and the warnings.
//!
//! Layers: `treeval-formats` (readers) → `treeval-metrics` (counts and measures) →
//! `treeval-stats` (tests, resampling) → `treeval-report` (the report and its formats) →
//! this crate → the front ends (the `treeval` binary, the Python module).

#![warn(missing_docs)]

pub mod align;
pub mod brackets;
pub mod common;
pub mod deps;
mod error;
pub mod files;
mod input;
pub mod keywords;
pub mod measures;
pub mod merge;
pub mod nbest;
pub mod pts;
pub mod records;
pub mod relations;
pub mod rerank;
pub mod select;
pub mod significance;
pub mod table;
pub mod ted;
pub mod ud;

pub use common::{Common, Progress, Sink, Test};
pub use error::{Error, Result};
pub use input::{Input, Inputs};
pub use treeval_report::model::Warning;
pub use treeval_report::model::WarningKind;
/// How systems are named (`--name`, or the shortest distinguishing ends of their paths)
/// and the roles of inputs.
pub use treeval_report::names;
pub use treeval_report::state::{self, State};
pub use treeval_report::Report;

/// The options of one family whose inputs are a gold and systems ([`Inputs`]; `ted`,
/// `pts` and `nbest` have inputs of their own), for a front end that chooses the family at run time (a
/// table of treebanks, a Python call by name); tagged by the family's name in serde.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "family", rename_all = "lowercase")]
pub enum Options {
    /// `deps`.
    Deps(deps::Options),
    /// `brackets`.
    Brackets(brackets::Options),
    /// `align`.
    Align(align::Options),
    /// `ud`.
    Ud(ud::Options),
    /// `relations`.
    Relations(relations::Options),
}

/// Evaluate `inputs` with the family and options of `options` (see each family's
/// `evaluate`).
pub fn evaluate(options: &Options, inputs: &Inputs, common: &Common) -> Result<Evaluation> {
    match options {
        Options::Deps(o) => deps::evaluate(o, inputs, common),
        Options::Brackets(o) => brackets::evaluate(o, inputs, common),
        Options::Align(o) => align::evaluate(o, inputs, common),
        Options::Ud(o) => ud::evaluate(o, inputs, common),
        Options::Relations(o) => relations::evaluate(o, inputs, common),
    }
}

/// What an evaluation returns.
#[derive(Debug, Clone)]
pub struct Evaluation {
    /// The report: scores, intervals, tests, notes and every warning.
    pub report: Report,
    /// The state of a part of a corpus (with [`Common::state`]), which `merge` sums.
    pub state: Option<State>,
    /// A reference tool's output, when the family's `compat` option asks for it: what
    /// the front end prints instead of the report.
    pub text: Option<String>,
    /// A reference tool's messages on standard error, when `compat` reproduces them
    /// (EVALB's error lines): what the front end prints on stderr, before the warnings
    /// and even when quiet. Empty for most.
    pub stderr: String,
}

impl Evaluation {
    /// An evaluation of `report`.
    pub fn new(report: Report, state: Option<State>, text: Option<String>) -> Self {
        Evaluation {
            report,
            state,
            text,
            stderr: String::new(),
        }
    }

    /// The evaluation with the reference tool's messages on standard error.
    pub fn with_stderr(mut self, stderr: String) -> Self {
        self.stderr = stderr;
        self
    }

    /// Every warning, each with its [`WarningKind`] (also in the report; a front end
    /// prints them grouped by kind with [`treeval_report::model::group_warnings`]).
    pub fn warnings(&self) -> &[Warning] {
        &self.report.warnings
    }
}
