//! Why an evaluation stops: options that cannot be honoured, or input that cannot be
//! evaluated.

use std::fmt;

/// Why [`crate::evaluate`] (or a family's `evaluate`) returns no evaluation.
#[derive(Debug)]
pub enum Error {
    /// The options cannot be honoured together, or ask for something the family does
    /// not do (the command line's exit code 2).
    Usage(String),
    /// The input cannot be evaluated (exit code 1): unreadable or malformed files, files
    /// that do not pair up, nothing to score. The message starts with `path:line:column`
    /// where the failure has one, and may hold several lines (`hint:` lines among them).
    Eval(String),
    /// An evaluation that stops partway: a reference tool's output (`compat`) that stops
    /// as the tool does, what it prints until then, and why it stops; or an evaluation
    /// error found after the inputs were read, with the warnings that explain it (nothing
    /// printed).
    Partial {
        /// The output until the failure.
        printed: String,
        /// Why the tool stops.
        message: String,
        /// The tool's messages on standard error until then ([`crate::Evaluation::stderr`]).
        stderr: String,
        /// The warnings until then.
        warnings: Vec<crate::Warning>,
    },
}

impl Error {
    /// The message, without the printed part of [`Error::Partial`].
    pub fn message(&self) -> &str {
        match self {
            Error::Usage(m) | Error::Eval(m) => m,
            Error::Partial { message, .. } => message,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

/// The result of the library's functions.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// At most a screenful of problems ([`treeval_formats::error::SHOWN_LINES`]), then how
/// many more there are: the message of an error that lists several.
pub(crate) fn capped(mut lines: Vec<String>) -> String {
    let shown = treeval_formats::error::SHOWN_LINES;
    if lines.len() > shown {
        let more = lines.len() - shown;
        lines.truncate(shown);
        lines.push(format!("… and {more} more problem(s)"));
    }
    lines.join("\n")
}
