//! The `treeval` binary: the command line of [`treeval_cli::run`] on stdout.
//!
//! Results go to stdout; warnings and errors to stderr. Exit codes: 0 success,
//! 1 evaluation error, 2 usage error. A closed pipe on stdout ends the program quietly.

use std::io;
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    ExitCode::from(treeval_cli::run(std::env::args_os(), &mut out))
}
