//! `treeval._native`: the Rust side of the `treeval` Python package.
//!
//! - [`run_cli`] and [`run_capture`] run a `treeval` command line through the very code of
//!   the `treeval` binary ([`treeval_cli::parse`] and [`treeval_cli::execute`]);
//! - [`cli_options`] lists a command's options (for the keyword arguments of the Python
//!   functions);
//! - [`conll18_load`] and [`conll18_evaluate`] are `treeval.conll18`'s loading and
//!   evaluation: the checks conll18_ud_eval.py makes when it loads a file (which reads
//!   and prepares it once), and the integer counts of its 13 metrics, from which Python
//!   computes the scores exactly as the reference does.

mod library;

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use treeval_formats::{Diagnostic, ErrorKind, Format as InFormat, ReaderBuilder, Reference};
use treeval_metrics::ud::layout::{layout_problem, Layout, Raised};
use treeval_metrics::ud::{
    evaluate_prepared, Prepared, ReaderSource, UdError, UdMetric, UdOptions,
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

/// The options of `treeval COMMAND`: `(long name, takes a value, may repeat, accepted)`
/// for every option, and `("", true, may repeat, true)` for each positional argument, in
/// order. An option the command refuses (hidden from its help, refused with its message
/// when given: `align --where`) is not `accepted`.
#[pyfunction]
fn cli_options(command: &str) -> PyResult<Vec<(String, bool, bool, bool)>> {
    let cli = treeval_cli::help::command();
    // `rerank train`: a command and its subcommand
    let sub = command
        .split(' ')
        .try_fold(&cli, |c, name| c.find_subcommand(name))
        .ok_or_else(|| PyValueError::new_err(format!("no treeval command {command:?}")))?;
    Ok(sub
        .get_arguments()
        .filter(|a| a.get_long().is_some() || a.is_positional())
        .filter(|a| !matches!(a.get_long(), Some("help" | "version")))
        .map(|a| {
            let takes = a.get_action().takes_values();
            let many = matches!(a.get_action(), clap::ArgAction::Append)
                || a.get_num_args().is_some_and(|n| n.max_values() > 1);
            let long = a.get_long().unwrap_or_default().to_owned();
            (long, takes, many, !a.is_hide_set())
        })
        .collect())
}

/// What conll18_ud_eval.py reads: CoNLL-U lines checked only as it checks them, DEPS
/// neither read nor checked.
fn conll18_builder() -> ReaderBuilder {
    let mut b = ReaderBuilder::new();
    b.format(Some(InFormat::Conllu))
        .validate_deps(false)
        .reference(Some(Reference::Conll18));
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

/// A CoNLL-U file loaded by `treeval.conll18`: read and prepared once (as `treeval ud
/// --compat conll18` prepares a file), scored by [`conll18_evaluate`] without a second
/// reading.
#[pyclass(frozen, module = "treeval._native")]
#[derive(Debug)]
struct Conll18File {
    name: String,
    prepared: Prepared,
    /// Bytes of the text.
    #[pyo3(get)]
    size: usize,
}

/// What a failed load or evaluation raises: `(kind, (message, path, line, column))`.
type Failure = (&'static str, Problem);

/// The layout problem `l` of the file `name` as a failure.
fn layout_failure(l: Layout, name: &str) -> Failure {
    let kind = match l.raised {
        Raised::UdError => "invalid",
        Raised::ValueError => "value",
    };
    let message = format!("{name}:{}: {}", l.line, l.message);
    (kind, (message, name.to_owned(), l.line, 1))
}

/// Whether conll18_ud_eval.py finds a problem of this kind when its sentence ends (in its
/// tree of HEADs), not when it reads the problem's line.
fn found_at_sentence_end(kind: &ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::HeadOutOfRange { .. }
            | ErrorKind::SelfLoop { .. }
            | ErrorKind::Cycle { .. }
            | ErrorKind::RootCount { .. }
    )
}

/// Load a CoNLL-U text as conll18_ud_eval.py's `load_conllu` does: `(file, None)` when it
/// loads, otherwise `(None, (kind, (message, path, line, column)))` with kind `utf8` (not
/// UTF-8: Python raises its own decoding error), `value` (the reference raises
/// `ValueError`) or `invalid` (`UDError`). The text is read on one thread while its line
/// layout is checked on another.
#[pyfunction]
fn conll18_load(
    py: Python<'_>,
    data: &[u8],
    name: &str,
) -> PyResult<(Option<Conll18File>, Option<Failure>)> {
    if std::str::from_utf8(data).is_err() {
        return Ok((None, Some(("utf8", problem(String::new(), None)))));
    }
    let (layout, read) = py.detach(|| {
        std::thread::scope(|scope| {
            let layout = scope.spawn(|| layout_problem(data));
            let mut src = ReaderSource::new(conll18_builder().from_reader(name, data));
            let read = Prepared::read(&mut src, name, &conll18_options());
            (layout.join().ok().flatten(), read)
        })
    });
    let prepared = match read {
        Ok(p) => p,
        Err(e) => return Ok((None, Some(("invalid", problem(e.to_string(), None))))),
    };
    let (problems, _) = prepared.diagnostics();
    // the reference raises the first problem of the file (a ValueError only if no UDError
    // comes before it)
    let reader_first = |l: &Layout| {
        problems
            .iter()
            .any(|d| l.raised_after(d.position.line, found_at_sentence_end(&d.kind)))
    };
    Ok(match layout {
        Some(l) if !reader_first(&l) => (None, Some(layout_failure(l, name))),
        _ if problems.is_empty() => {
            let file = Conll18File {
                name: name.to_owned(),
                prepared,
                size: data.len(),
            };
            (Some(file), None)
        }
        _ => (None, Some(("invalid", render(&problems)))),
    })
}

/// One metric's integers: correct, gold, system, aligned (`None` for Tokens, Sentences
/// and Words, which the reference scores without an aligned total).
type Counts = (u64, u64, u64, Option<u64>);

/// The counts, or why there are none.
type Outcome = (Option<Vec<Counts>>, Option<Failure>);

/// The counts of conll18_ud_eval.py's 13 metrics, in its order, of `sys` against `gold`
/// (both loaded by [`conll18_load`]); or `(kind, (message, path, line, column))`:
/// `mismatch` when the texts differ, `invalid` when a file has problems.
#[pyfunction]
fn conll18_evaluate(py: Python<'_>, gold: &Conll18File, sys: &Conll18File) -> Outcome {
    let r = py.detach(|| evaluate_prepared(&gold.prepared, &sys.prepared, &conll18_options()));
    let failed = |kind, p| (None, Some((kind, p)));
    let (gold_name, sys_name) = (&gold.name, &sys.name);
    match r {
        Ok(r) => (
            Some(
                UdMetric::CONLL18
                    .iter()
                    .map(|&m| {
                        let c = r.counts.metrics[m];
                        (c.correct, c.gold, c.system, m.on_aligned_words().then_some(c.aligned))
                    })
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
    }
}

/// The `treeval._native` module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(library::evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(library::library_keywords, m)?)?;
    m.add_function(wrap_pyfunction!(library::state_info, m)?)?;
    m.add_function(wrap_pyfunction!(library::measures, m)?)?;
    m.add_function(wrap_pyfunction!(library::system_names, m)?)?;
    m.add_function(wrap_pyfunction!(library::table, m)?)?;
    m.add_function(wrap_pyfunction!(library::rerank_train, m)?)?;
    m.add_function(wrap_pyfunction!(library::rerank_apply, m)?)?;
    m.add_function(wrap_pyfunction!(run_capture, m)?)?;
    m.add_function(wrap_pyfunction!(cli_options, m)?)?;
    m.add_class::<Conll18File>()?;
    m.add_function(wrap_pyfunction!(conll18_load, m)?)?;
    m.add_function(wrap_pyfunction!(conll18_evaluate, m)?)?;
    Ok(())
}
