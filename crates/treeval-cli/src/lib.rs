//! The `treeval` command as a library: [`run`] parses a command line and runs the command,
//! writing results to the given writer. The `treeval` binary and the Python package's
//! `treeval` entry point and functions call this same code.
//!
//! Warnings and errors go to stderr. Exit codes: 0 success, 1 evaluation error, 2 usage
//! error. A closed pipe on the output ends the command quietly.

pub mod args;
mod commands;
pub mod help;
mod output;

use std::ffi::OsString;
use std::io::{self, Write};
use std::sync::Mutex;

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

impl From<treeval::Error> for Failure {
    fn from(e: treeval::Error) -> Self {
        match e {
            treeval::Error::Usage(m) => Failure::Usage(m),
            treeval::Error::Eval(m) | treeval::Error::Partial { message: m, .. } => {
                Failure::Eval(m)
            }
        }
    }
}

/// The command line of the command being run, for the hints that quote it back.
static ARGV: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// The command line as typed, `treeval` first (as the last [`parse`] received it).
pub(crate) fn typed_args() -> Vec<String> {
    ARGV.lock().map(|a| a.clone()).unwrap_or_default()
}

/// Run a command line (`argv[0]` is the program name and is ignored), writing the
/// report to `out` and warnings and errors to stderr. Returns the exit code: 0 success,
/// 1 evaluation error, 2 usage error (`--help` and `--version` print to stdout and give 0).
pub fn run<I, T>(argv: I, out: &mut dyn Write) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match parse(argv) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return u8::try_from(e.exit_code()).unwrap_or(2);
        }
    };
    exit_code(execute(&cli, out))
}

/// Parse a command line (`argv[0]` is the program name) as [`run`] does; `--help` and
/// `--version` come back as errors of their kinds, to print.
pub fn parse<I, T>(argv: I) -> Result<args::Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let argv: Vec<OsString> = argv.into_iter().map(Into::into).collect();
    if let Ok(mut a) = ARGV.lock() {
        *a = argv
            .iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect();
    }
    let mut cmd = help::command();
    let matches = cmd.try_get_matches_from_mut(argv)?;
    let mut cli = <args::Cli as clap::FromArgMatches>::from_arg_matches(&matches)
        .map_err(|e| e.format(&mut cmd))?;
    if let (Some(report), Some((_, sub))) = (cli.command.report_mut(), matches.subcommand()) {
        report.given = args::Given::from_matches(sub);
    }
    Ok(cli)
}

/// Run a parsed command, the report to `out`; a failure is returned, not printed.
pub fn execute(cli: &args::Cli, out: &mut dyn Write) -> Result<(), Failure> {
    match &cli.command {
        args::Command::Deps(a) => commands::deps::run(a, out),
        args::Command::Align(a) => commands::align::run(a, out),
        args::Command::Pts(a) => commands::pts::run(a, out),
        args::Command::Ud(a) => commands::ud::run(a, out),
        args::Command::Relations(a) => commands::relations::run(a, out),
        args::Command::Brackets(a) => commands::brackets::run(a, out),
        args::Command::Ted(a) => commands::ted::run(a, out),
        args::Command::Table(a) => commands::table::run(a, out),
        args::Command::Rerank(c) => commands::rerank::run(c, out),
        args::Command::Nbest(a) => commands::nbest::run(a, out),
        args::Command::Merge(a) => commands::merge::run(a, out),
        args::Command::Measures(a) => {
            let text = treeval_report::measures::render(a.format.into());
            out.write_all(text.as_bytes()).map_err(Failure::Io)
        }
    }
}

/// The exit code of a command's result, its error printed on stderr.
fn exit_code(r: Result<(), Failure>) -> u8 {
    match r {
        Ok(()) => 0,
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(Failure::Io(e)) => {
            let _ = writeln!(io::stderr(), "error: cannot write the output: {e}");
            1
        }
        Err(Failure::Eval(msg)) => {
            let _ = writeln!(
                io::stderr(),
                "error: {}",
                msg.replace('\n', "\nerror: ")
                    .replace("error:   hint:", "  hint:")
            );
            1
        }
        Err(Failure::Usage(msg)) => {
            let _ = writeln!(io::stderr(), "error: {msg}");
            2
        }
    }
}
