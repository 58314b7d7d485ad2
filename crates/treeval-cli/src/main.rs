//! The `treeval` binary.
//!
//! Results go to stdout; warnings and errors to stderr. Exit codes: 0 success,
//! 1 evaluation error, 2 usage error. A closed pipe on stdout ends the program quietly.

mod args;
mod commands;
mod output;
mod select;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

/// Why the program stops early.
#[derive(Debug)]
pub enum Failure {
    /// Input that cannot be evaluated (exit code 1).
    Eval(String),
    /// A usage error found after argument parsing (exit code 2).
    Usage(String),
    /// Writing the output failed.
    Io(io::Error),
}

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let r = match &cli.command {
        args::Command::Deps(a) => commands::deps::run(a, &mut out),
        args::Command::Align(a) => commands::align::run(a, &mut out),
        args::Command::Pts(a) => commands::pts::run(a, &mut out),
        args::Command::Ud(a) => commands::ud::run(a, &mut out),
        args::Command::Relations(a) => commands::relations::run(a, &mut out),
        args::Command::Brackets(a) => commands::brackets::run(a, &mut out),
        args::Command::Ted(a) => commands::ted::run(a, &mut out),
        args::Command::Table(a) => commands::table::run(a, &mut out),
        args::Command::Merge(a) => commands::merge::run(a, &mut out),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            let _ = writeln!(io::stderr(), "error: cannot write the output: {e}");
            ExitCode::from(1)
        }
        Err(Failure::Eval(msg)) => {
            let _ = writeln!(
                io::stderr(),
                "error: {}",
                msg.replace('\n', "\nerror: ")
                    .replace("error:   hint:", "  hint:")
            );
            ExitCode::from(1)
        }
        Err(Failure::Usage(msg)) => {
            let _ = writeln!(io::stderr(), "error: {msg}");
            ExitCode::from(2)
        }
    }
}
