//! `treeval._native`: the Rust side of the `treeval` Python package.
//!
//! - [`run_cli`] and [`run_capture`] run a `treeval` command line through the very code of
//!   the `treeval` binary ([`treeval_cli::parse`] and [`treeval_cli::execute`]);
//! - [`cli_options`] lists a command's options (for the keyword arguments of the Python
//!   functions);
//! - [`conll18_check`] and [`conll18_counts`] are `treeval.conll18`'s loading and
//!   evaluation: the checks conll18_ud_eval.py makes when it loads a file, and the
//!   integer counts of its 13 metrics, from which Python computes the scores exactly as
//!   the reference does.

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use treeval_formats::{Diagnostic, Format as InFormat, ReaderBuilder};
use treeval_metrics::deps::Input;
use treeval_metrics::ud::layout::{layout_problem, Raised};
use treeval_metrics::ud::{
    check_source, evaluate_texts, ReaderSource, UdError, UdOptions, CONLL18_METRICS,
};

/// Run a `treeval` command line (`argv[0]` is the program name) as the binary does:
/// the report on stdout, warnings and errors on stderr. Returns the exit code.
#[pyfunction]
fn run_cli(py: Python<'_>, argv: Vec<OsString>) -> u8 {
    py.detach(|| {
        let stdout = io::stdout();
        let mut out = BufWriter::with_capacity(64 * 1024, stdout.lock());
        let code = treeval_cli::run(argv, &mut out);
        let _ = out.flush();
        code
    })
}

/// Run a `treeval` command line and return its output. A usage error (the command line,
/// or a check made before reading) raises `ValueError`; an evaluation error raises
/// `RuntimeError` whose text starts, where the failure has one, with `path:line:column`.
#[pyfunction]
fn run_capture<'py>(py: Python<'py>, argv: Vec<OsString>) -> PyResult<Bound<'py, PyBytes>> {
    let r = py.detach(|| {
        let cli = treeval_cli::parse(argv).map_err(|e| Err(e.render().to_string()))?;
        let mut out = Vec::new();
        treeval_cli::execute(&cli, &mut out).map_err(Ok)?;
        Ok(out)
    });
    match r {
        Ok(out) => Ok(PyBytes::new(py, &out)),
        Err(Err(usage)) => Err(PyValueError::new_err(usage.trim_end().to_owned())),
        Err(Ok(treeval_cli::Failure::Usage(m))) => Err(PyValueError::new_err(m)),
        Err(Ok(treeval_cli::Failure::Eval(m))) => Err(pyo3::exceptions::PyRuntimeError::new_err(m)),
        Err(Ok(treeval_cli::Failure::Io(e))) => Err(PyOSError::new_err(e.to_string())),
    }
}

/// The options of `treeval COMMAND`: `(long name, takes a value, may repeat)` for every
/// option, and `("", true, may repeat)` for each positional argument, in order.
#[pyfunction]
fn cli_options(command: &str) -> PyResult<Vec<(String, bool, bool)>> {
    use clap::CommandFactory;
    let cli = treeval_cli::args::Cli::command();
    let sub = cli
        .find_subcommand(command)
        .ok_or_else(|| PyValueError::new_err(format!("no treeval command {command:?}")))?;
    Ok(sub
        .get_arguments()
        .filter(|a| a.get_long().is_some() || a.is_positional())
        .filter(|a| !matches!(a.get_long(), Some("help" | "version")))
        .map(|a| {
            let takes = a.get_action().takes_values();
            let many = matches!(a.get_action(), clap::ArgAction::Append)
                || a.get_num_args().is_some_and(|n| n.max_values() > 1);
            (a.get_long().unwrap_or_default().to_owned(), takes, many)
        })
        .collect())
}

/// What conll18_ud_eval.py reads: CoNLL-U lines checked only as it checks them, DEPS
/// neither read nor checked.
fn conll18_builder() -> ReaderBuilder {
    let mut b = ReaderBuilder::new();
    b.format(Some(InFormat::Conllu))
        .validate_deps(false)
        .reference_checks(true);
    b
}

/// The scorer's settings of `treeval ud --compat conll18`.
fn conll18_options() -> UdOptions {
    UdOptions {
        skip_enhanced: true,
        ..UdOptions::default()
    }
}

/// A problem for Python: the message, and the path, line and column of the first one.
type Problem = (String, String, u64, u32);

fn problem(message: String, first: Option<&Diagnostic>) -> Problem {
    match first {
        Some(d) => (
            message,
            d.position.path.to_string(),
            d.position.line,
            d.position.column,
        ),
        None => (message, String::new(), 0, 0),
    }
}

fn render(d: &[Diagnostic]) -> Problem {
    problem(treeval_formats::error::render_capped(d, 0), d.first())
}

/// Check a CoNLL-U text as conll18_ud_eval.py's `load_conllu` does: `None` when it loads,
/// otherwise `(kind, message, path, line, column)` with kind `utf8` (not UTF-8: Python
/// raises its own decoding error), `value` (the reference raises `ValueError`) or
/// `invalid` (`UDError`).
#[pyfunction]
fn conll18_check(
    py: Python<'_>,
    data: &[u8],
    name: &str,
) -> PyResult<Option<(&'static str, Problem)>> {
    if std::str::from_utf8(data).is_err() {
        return Ok(Some(("utf8", problem(String::new(), None))));
    }
    let (layout, r) = py.detach(|| {
        let mut src = ReaderSource::new(conll18_builder().from_reader(name, data));
        (
            layout_problem(data),
            check_source(&mut src, name, &conll18_options()),
        )
    });
    let (problems, _) = match r {
        Ok(x) => x,
        Err(e) => return Ok(Some(("invalid", problem(e.to_string(), None)))),
    };
    // the reference raises the first problem of the file (a ValueError only if no UDError
    // comes before it)
    let first_line = problems.first().map_or(u64::MAX, |d| d.position.line);
    match layout {
        Some(l) if l.line <= first_line => {
            let kind = match l.raised {
                Raised::UdError => "invalid",
                Raised::ValueError => "value",
            };
            Ok(Some((
                kind,
                (
                    format!("{name}:{}: {}", l.line, l.message),
                    name.to_owned(),
                    l.line,
                    1,
                ),
            )))
        }
        _ if problems.is_empty() => Ok(None),
        _ => Ok(Some(("invalid", render(&problems)))),
    }
}

/// One metric's integers: correct, gold, system, aligned (`None` for Tokens, Sentences
/// and Words, which the reference scores without an aligned total).
type Counts = (u64, u64, u64, Option<u64>);

/// The counts, or why there are none.
type Outcome = (Option<Vec<Counts>>, Option<(&'static str, Problem)>);

/// The counts of conll18_ud_eval.py's 13 metrics, in its order, of `sys` against `gold`;
/// or `(kind, message, path, line, column)`: `mismatch` when the texts differ, `invalid`
/// when a file has problems.
#[pyfunction]
fn conll18_counts(
    py: Python<'_>,
    gold: &[u8],
    gold_name: &str,
    sys: &[u8],
    sys_name: &str,
) -> PyResult<Outcome> {
    let input = |path: &str| Input {
        path: path.to_owned(),
        builder: conll18_builder(),
    };
    let (g, s) = (input(gold_name), input(sys_name));
    // each text read on its own thread, as `treeval ud` reads files
    let r = py.detach(|| evaluate_texts(&g, gold, &s, sys, &conll18_options()));
    let failed = |kind, p| (None, Some((kind, p)));
    Ok(match r {
        Ok(r) => (
            Some(
                r.counts.metrics[..CONLL18_METRICS]
            .iter()
            .enumerate()
            // UPOS … BLEX are scored on aligned words
            .map(|(k, c)| (c.correct, c.gold, c.system, (k >= 3).then_some(c.aligned)))
            .collect(),
            ),
            None,
        ),
        Err(UdError::Mismatch(m, _)) => failed(
            "mismatch",
            (
                format!(
                    "{sys_name}:{}: the concatenation of tokens differs from {gold_name}:{} at character {}: the next 20 characters are '{}' in gold and '{}' in the system",
                    m.system_line, m.gold_line, m.index, m.gold_text, m.system_text
                ),
                sys_name.to_owned(),
                m.system_line,
                0,
            ),
        ),
        Err(UdError::Invalid(d)) => failed("invalid", render(&d)),
        Err(UdError::Unsynced(_, d)) => failed("invalid", render(&d)),
        Err(UdError::Fatal(e)) => failed("invalid", problem(e.to_string(), None)),
    })
}

/// The `treeval._native` module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(run_capture, m)?)?;
    m.add_function(wrap_pyfunction!(cli_options, m)?)?;
    m.add_function(wrap_pyfunction!(conll18_check, m)?)?;
    m.add_function(wrap_pyfunction!(conll18_counts, m)?)?;
    Ok(())
}
