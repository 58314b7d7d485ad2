//! Files a command writes besides stdout (`--per-sentence FILE`, `--export-for-judging
//! FILE`), and the guard that keeps them from ever replacing an input.
//!
//! Every path a command will write is checked before any file is opened, for reading or
//! writing:
//! - it may not resolve to one of the command's inputs (symbolic links, `./` and `..`
//!   resolved; hard links compared by device and inode);
//! - an existing file is replaced only when it is empty or looks like treeval's own output
//!   of that kind (its first line), unless `--force` is given: `--per-sentence` takes a
//!   value, so `--per-sentence gold.conllu sys.conllu` reads `gold.conllu` as the output
//!   and must not destroy it;
//! - standard output (`-`) carries the report and cannot take a second stream.

use std::io::Write;

use crate::Failure;

pub use treeval::files::{InputRef, Output, OutputKind};

/// Check every output against every input and against existing files
/// ([`treeval::files::check_outputs`], its hints quoting the command line).
pub fn check_outputs(
    outputs: &[Output<'_>],
    inputs: &[InputRef<'_>],
    force: bool,
) -> Result<(), Failure> {
    if force && outputs.is_empty() {
        // never accepted and ignored
        return Err(Failure::Usage(
            "--force does not apply: it lets an output file replace an existing one, and this run writes no file (its report goes to standard output); drop it".into(),
        ));
    }
    Ok(treeval::files::check_outputs(
        outputs,
        inputs,
        force,
        &crate::typed_args(),
    )?)
}

/// Create an output that [`check_outputs`] accepted (compressed as its name says).
pub fn create(o: &Output<'_>) -> Result<treeval_formats::output::Output, Failure> {
    Ok(treeval::files::create(o)?)
}

/// The library's per-sentence sink for `--per-sentence FILE` (already checked), if given.
pub fn per_sentence_sink(path: Option<&str>) -> Result<Option<treeval::Sink>, Failure> {
    let Some(p) = path else {
        return Ok(None);
    };
    let w = create(&Output {
        flag: "--per-sentence",
        path: p,
        kind: OutputKind::PerSentence,
    })?;
    Ok(Some(treeval::Sink::new(p, w)))
}

/// What every evaluating command does: the library's evaluation `eval` run with the
/// shared options of `r` (its `--per-sentence` sink and a progress bar on stderr), then
/// [`conclude`]d.
pub fn evaluate(
    r: &crate::args::ReportArgs,
    out: &mut dyn Write,
    eval: impl FnOnce(&treeval::Common) -> treeval::Result<treeval::Evaluation>,
) -> Result<(), Failure> {
    let mut common = r.common();
    common.per_sentence = per_sentence_sink(r.out.per_sentence.as_deref())?;
    let bar = crate::commands::significance::Progress::new(r.quiet);
    common.progress = Some(bar.callback());
    let result = eval(&common);
    bar.finish();
    conclude(r, result, out)
}

/// What every command does with the library's answer: an evaluation is finished
/// ([`finish`]); a reference tool that stops partway ([`treeval::Error::Partial`]) prints
/// its stderr, the warnings until then and its output until then, then fails as the tool
/// does; any other error is returned.
pub fn conclude(
    r: &crate::args::ReportArgs,
    result: treeval::Result<treeval::Evaluation>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    match result {
        Ok(ev) => finish(r, ev, out),
        Err(treeval::Error::Partial {
            printed,
            message,
            stderr,
            warnings,
        }) => {
            print_tool_stderr(&stderr);
            crate::commands::significance::print_warnings(&warnings, r.quiet);
            out.write_all(printed.as_bytes()).map_err(Failure::Io)?;
            out.flush().map_err(Failure::Io)?;
            Err(Failure::Eval(message))
        }
        Err(e) => Err(e.into()),
    }
}

/// A reference tool's messages on stderr, byte for byte: words read as bytes under
/// `--compat evalb` are written as the bytes they were read from.
fn print_tool_stderr(text: &str) {
    let _ = std::io::stderr().write_all(&treeval_formats::encoding::text_as_bytes(text));
}

/// What every command does with an evaluation: a reference tool's messages and its
/// warnings on stderr (the warnings grouped by kind, unless `--quiet`), its state to `--emit-state`, and the report (or the reference
/// tool's text) to `out`.
pub fn finish(
    r: &crate::args::ReportArgs,
    ev: treeval::Evaluation,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    // a reference tool's own messages (compat), printed even when quiet, as it does
    print_tool_stderr(&ev.stderr);
    crate::commands::significance::print_warnings(ev.warnings(), r.quiet);
    if let (Some(path), Some(state)) = (r.out.emit_state.as_deref(), ev.state.as_ref()) {
        write_state(path, state)?;
    }
    let text = match ev.text {
        Some(t) => t,
        None => treeval_report::emit::to_string(&ev.report, r.format, r.style.style()),
    };
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}

/// The outputs named by the shared output options.
pub fn outputs(o: &crate::args::OutputArgs) -> Vec<Output<'_>> {
    let per_sentence = o.per_sentence.as_deref().map(|path| Output {
        flag: "--per-sentence",
        path,
        kind: OutputKind::PerSentence,
    });
    let state = o.emit_state.as_deref().map(|path| Output {
        flag: "--emit-state",
        path,
        kind: OutputKind::State,
    });
    per_sentence.into_iter().chain(state).collect()
}

/// A usage error for `--emit-state` or `--keep-sentences` in a command that writes no
/// state (naming the commands that do).
fn refuse_state(command: &str, o: &crate::args::OutputArgs) -> Result<(), Failure> {
    if o.emit_state.is_none() && !o.keep_sentences {
        return Ok(());
    }
    Err(Failure::Usage(format!(
        "--emit-state: `{command}` does not write a mergeable state yet; the commands that do: {}",
        treeval_report::state::FAMILIES.join(", ")
    )))
}

/// Write `state` to `path` (checked by [`check_outputs`] before any input was read).
pub fn write_state(path: &str, state: &treeval_report::state::State) -> Result<(), Failure> {
    Ok(treeval::files::write_state(path, state)?)
}

/// Refuse a `--format` the command does not implement (instead of printing text), and any
/// `--format` but text beside a `--compat` mode (which prints the reference tool's output).
fn check_format(
    command: &str,
    format: crate::args::Format,
    supported: &[crate::args::Format],
    compat: bool,
) -> Result<(), Failure> {
    let name = |f: crate::args::Format| f.name();
    if compat && format != crate::args::Format::Text {
        return Err(Failure::Usage(format!(
            "--format {} does not apply with --compat, which prints exactly what the reference tool prints; drop one of the two",
            name(format)
        )));
    }
    if !supported.contains(&format) {
        let list: Vec<&str> = supported.iter().map(|f| name(*f)).collect();
        return Err(Failure::Usage(format!(
            "--format {} is not available for `treeval {command}` yet; it writes {}",
            name(format),
            list.join(" and ")
        )));
    }
    Ok(())
}

/// Refuse `--html-sentences` without `--format html`, or on a page without a sentence
/// browser: it sizes the HTML page's sentence browser and would otherwise be silently
/// ignored.
fn check_html_sentences(c: &Capabilities<'_>, r: &crate::args::ReportArgs) -> Result<(), Failure> {
    if r.html_sentences.is_none() {
        return Ok(());
    }
    if !c.browser {
        return Err(Failure::Usage(format!(
            "--html-sentences sizes the HTML page's sentence browser, and the page of `treeval {}` has none (deps, ud, brackets and align have one); drop it",
            c.command
        )));
    }
    if r.format != crate::args::Format::Html {
        return Err(Failure::Usage(format!(
            "--html-sentences only applies with --format html (it sizes the HTML page's sentence browser), not with --format {}; drop it or add --format html",
            r.format.name()
        )));
    }
    Ok(())
}

/// The significance options by clap id, as typed, and what each needs to be honoured.
const SIGNIFICANCE_OPTIONS: [(&str, &str, Needs); 8] = [
    ("tests", "--test", Needs::Nothing),
    ("ci", "--ci", Needs::Nothing),
    ("samples", "--samples", Needs::Resampling),
    ("seed", "--seed", Needs::Randomness),
    ("alpha", "--alpha", Needs::Test),
    ("one_sided", "--one-sided", Needs::Ar),
    ("ci_samples", "--ci-samples", Needs::Ci),
    ("test_metrics", "--test-metrics", Needs::TestOrCi),
];

/// What a significance option acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Needs {
    Nothing,
    /// `--test ar` or `--test bootstrap` (their shuffles or samples).
    Resampling,
    /// any `--test` (its difference intervals resample) or `--ci`.
    Randomness,
    /// any `--test`.
    Test,
    /// `--test ar` (Bikel's one-sided variant).
    Ar,
    /// `--ci` or a `--test` (whose differences get intervals).
    Ci,
    /// a `--test` or `--ci` (the measures they are run on).
    TestOrCi,
}

/// Refuse every significance option the run would ignore: all of them beside a `--compat`
/// mode (which prints exactly what the reference tool prints), and each one whose test or
/// interval is not asked for (`--samples` without a resampling test, `--ci-samples`
/// without `--ci`, …). The options are judged as typed, so `--seed 12345` without a test
/// is refused too.
pub fn check_significance(
    c: &Capabilities<'_>,
    r: &crate::args::ReportArgs,
    compat: bool,
) -> Result<(), Failure> {
    use crate::args::TestArg;
    let typed: Vec<(&str, Needs)> = SIGNIFICANCE_OPTIONS
        .iter()
        .filter(|(id, _, _)| r.given.has(id))
        .map(|&(_, flag, needs)| (flag, needs))
        .collect();
    if compat && !typed.is_empty() {
        let flags: Vec<&str> = typed.iter().map(|(f, _)| *f).collect();
        return Err(Failure::Usage(format!(
            "{} {} not apply with --compat, which prints exactly what the reference tool prints (no tests or intervals); drop {}",
            flags.join(" and "),
            if flags.len() == 1 { "does" } else { "do" },
            if flags.len() == 1 { "it or --compat" } else { "them or --compat" }
        )));
    }
    let sig = &r.sig;
    let default_test = c.always_tests && sig.tests.is_empty();
    let ar = default_test || sig.tests.contains(&TestArg::Ar);
    let resampling = ar || sig.tests.contains(&TestArg::Bootstrap);
    let test = default_test || !sig.tests.is_empty();
    for (flag, needs) in typed {
        let why = match needs {
            Needs::Resampling if !resampling => "sets the shuffles of --test ar and the samples of --test bootstrap; add one of them",
            Needs::Randomness if !test && sig.ci.is_none() => "seeds the resampling of the tests, of their differences' intervals and of --ci; add one of them",
            Needs::Test if !test => "is the significance level of --test's adjusted p-values; add a --test",
            Needs::Ar if !ar => "is Bikel's one-sided variant of --test ar; add --test ar",
            Needs::Ci if !test && sig.ci.is_none() => "sets the bootstrap samples of --ci and of the tests' difference intervals; add one of them",
            Needs::TestOrCi if !test && sig.ci.is_none() => "names the measures --test and --ci are run on; add one of them",
            _ => continue,
        };
        return Err(Failure::Usage(format!("{flag} {why}, or drop it")));
    }
    Ok(())
}

/// Refuse `--errors` where it is not built yet, and beside a `--compat` mode (which
/// prints exactly what the reference tool prints).
fn check_errors(command: &str, errors: bool, compat: bool, supported: bool) -> Result<(), Failure> {
    if !errors {
        return Ok(());
    }
    if compat {
        return Err(Failure::Usage(
            "--errors does not apply with --compat, which prints exactly what the reference tool prints; drop one of the two".into(),
        ));
    }
    if !supported {
        return Err(Failure::Usage(format!(
            "--errors is not available for `treeval {command}` yet (it is for deps, ud, brackets, align, relations, ted and pts)"
        )));
    }
    Ok(())
}

/// Refuse `--where` where it is not built (`supported`: deps, ud and brackets), and beside
/// a `--compat` mode (which prints exactly what the reference tool prints).
fn check_where(
    command: &str,
    conds: &[String],
    compat: bool,
    supported: bool,
) -> Result<(), Failure> {
    if conds.is_empty() {
        return Ok(());
    }
    if !supported {
        return Err(Failure::Usage(treeval::Common::no_where(command)));
    }
    if compat {
        return Err(Failure::Usage(
            "--where does not apply with --compat, which prints exactly what the reference tool prints over all its words; drop one of the two".into(),
        ));
    }
    Ok(())
}

/// What a command does with the shared report options ([`crate::args::ReportArgs`]):
/// [`check_report`] refuses, in one call, every one it cannot honour, so that a command
/// cannot forget one.
#[derive(Debug, Clone, Copy)]
pub struct Capabilities<'a> {
    /// The command, as `treeval COMMAND` names it.
    pub command: &'a str,
    /// The `--format`s it writes.
    pub formats: &'a [crate::args::Format],
    /// Whether it lists the errors behind its scores (`--errors`).
    pub errors: bool,
    /// Whether it scores the words that meet conditions (`--where`).
    pub where_: bool,
    /// Whether it writes a mergeable state (`--emit-state`, `--keep-sentences`).
    pub state: bool,
    /// Why it cannot select sentences (`--sent-id`, `--min-len`, `--max-len`) in this run,
    /// e.g. in a `--compat` mode; `None`: it can.
    pub no_selection: Option<&'a str>,
    /// Whether its HTML page has a sentence browser (which `--html-sentences` sizes).
    pub browser: bool,
    /// Whether it tests without `--test` (`treeval table`: ar by default).
    pub always_tests: bool,
}

impl<'a> Capabilities<'a> {
    /// A command that writes every format and lists errors, without `--where`, a state or
    /// a sentence browser, and selects sentences (change the fields that differ).
    pub const fn of(command: &'a str) -> Self {
        Capabilities {
            command,
            formats: &crate::args::Format::ALL,
            errors: true,
            where_: false,
            state: false,
            no_selection: None,
            browser: false,
            always_tests: false,
        }
    }
}

/// The one check of the shared report options: `--format` (and none but text beside
/// `compat`, a mode that prints another tool's output), `--wide`, `--html-sentences`, the
/// significance options, `--errors`, `--where`, the sentence selection and
/// `--emit-state`, each refused with a usage error where `c` says the command (or the
/// run) cannot honour it.
pub fn check_report(
    c: &Capabilities<'_>,
    r: &crate::args::ReportArgs,
    compat: bool,
) -> Result<(), Failure> {
    check_format(c.command, r.format, c.formats, compat)?;
    r.style.check(r.format, compat).map_err(Failure::Usage)?;
    check_html_sentences(c, r)?;
    check_significance(c, r, compat)?;
    check_errors(c.command, r.errors, compat, c.errors)?;
    check_where(c.command, &r.where_, compat, c.where_)?;
    if let Some(why) = c.no_selection {
        treeval::select::refuse(&r.common(), why)?;
    }
    if !c.state {
        refuse_state(c.command, &r.out)?;
    }
    Ok(())
}
