//! `table`: one table of systems × treebanks for one measure, from a manifest (each
//! treebank evaluated by [`crate::deps::evaluate`] or [`crate::ud::evaluate`], the
//! treebanks in parallel) or from saved JSON reports of `deps` or `ud`, with each
//! system's macro average and tests against a baseline (Holm–Bonferroni across
//! treebanks).
//!
//! ```no_run
//! use treeval::table::{evaluate, Options};
//!
//! let options = Options { baseline: Some("sysA".into()), ..Options::default() };
//! let ev = evaluate(&options, &["manifest.tsv".into()], &treeval::Common::default())?;
//! println!("{}", treeval_report::emit::to_string(&ev.report, treeval_report::render::OutputFormat::Text, Default::default()));
//! # Ok::<(), treeval::Error>(())
//! ```
//!
//! A manifest is a tab-separated text: a header `treebank<TAB>gold<TAB>system<TAB>file[<TAB>options]`,
//! then one line per system file (paths relative to the manifest's folder; an in-memory
//! manifest's to the current folder). Its options column holds options of the family
//! as on the command line (`--labels universal --by deprel`), made into the family's
//! typed options by [`crate::keywords`]. A manifest of saved reports has the header
//! `treebank<TAB>report<TAB>system[<TAB>file]`: each line names one system of a saved
//! JSON report (which one: its file as the report lists it). Treebanks and systems are
//! always named by a manifest, never after their files: saved reports given alone are
//! refused with the manifest to write.

mod manifest;
mod reports;

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use treeval_report::model::{SignificanceSettings, Warning};
use treeval_report::table::{build, treebank_of, TableSpec, Treebank};

use crate::error::capped;
use crate::{Common, Error, Evaluation, Input, Inputs, Result, Test};
use manifest::Group;
use treeval_stats::compare::TestKind;

/// The family a manifest's treebanks are evaluated with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Command {
    /// `treeval deps`: words paired one to one.
    #[default]
    Deps,
    /// `treeval ud`: words aligned by characters (CoNLL 2018).
    Ud,
}

impl Command {
    /// The family's name.
    pub fn name(self) -> &'static str {
        match self {
            Command::Deps => "deps",
            Command::Ud => "ud",
        }
    }
}

/// The options of `table`. `Default` is the command line's defaults. The test against
/// the baseline is [`Common::test`] (`ar` when none is given; one test), with
/// [`Common::samples`], [`Common::seed`] and [`Common::alpha`]; the sentence selection
/// of [`Common`] is passed on to every treebank of a manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The measure in the cells (any case): a `deps` measure, or with `ud` a metric
    /// whose F1 is shown.
    pub measure: String,
    /// The family a manifest's treebanks are evaluated with (saved reports say it).
    pub command: Command,
    /// Test every other system against this one on every treebank they share.
    pub baseline: Option<String>,
    /// Order the systems by their mean of this measure over the treebanks (as the
    /// macro average: each treebank weighs the same), best first; ties keep their order.
    pub rank_by: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            measure: "LAS".into(),
            command: Command::Deps,
            baseline: None,
            rank_by: None,
        }
    }
}

/// The names of [`Common`] a table takes (the others are refused by [`check`]).
pub const COMMON: [&str; 9] = [
    "test",
    "samples",
    "seed",
    "alpha",
    "ci",
    "ci_samples",
    "sent_id",
    "min_len",
    "max_len",
];

/// The shared options a table cannot honour, refused: more than one test, McNemar (a
/// table compares treebank scores from per-sentence counts), Bikel's one-sided test,
/// per-sentence records and error listings; and `where`.
pub fn check(common: &Common) -> Result<()> {
    let refused = [
        (common.test.len() > 1, "give one --test (ar or bootstrap)"),
        (
            common.test.contains(&Test::Mcnemar),
            "--test mcnemar does not apply: a table tests with ar or bootstrap",
        ),
        (
            common.one_sided,
            "--one-sided does not apply to `treeval table`",
        ),
        (
            common.per_sentence.is_some(),
            "--per-sentence does not apply to `treeval table`: run the command of a treebank",
        ),
        (
            common.errors,
            "--errors does not apply to `treeval table`: run the command of a treebank",
        ),
        (
            !common.where_.is_empty(),
            "--where is not available for `treeval table` (it is for deps, ud and brackets): run the command of a treebank",
        ),
        (
            !common.names.is_empty(),
            "--name does not apply to `treeval table`: its manifest's system column names the systems",
        ),
    ];
    if let Some((_, why)) = refused.iter().find(|(bad, _)| *bad) {
        return Err(Error::Usage((*why).into()));
    }
    common.validate()
}

/// The table of `inputs`: one manifest, of files to evaluate or of saved JSON reports of
/// `deps` or `ud` (`--format json`). Saved reports given alone are refused: nothing names
/// their treebank and systems (the error shows the manifest to write).
pub fn evaluate(options: &Options, inputs: &[Input], common: &Common) -> Result<Evaluation> {
    check(common)?;
    if common.state || common.keep_sentences {
        return Err(Error::Usage(
            "`table` does not write a mergeable state (state, keep_sentences)".into(),
        ));
    }
    let selection = crate::select::selection(common)?;
    let (first, text) = match inputs {
        [] => {
            return Err(Error::Usage(
                "give a manifest (of files to evaluate, or of saved JSON reports)".into(),
            ))
        }
        [one] => (one, read(one)?),
        _ => return Err(unnamed(inputs)),
    };
    if text.trim_start().starts_with('{') {
        return Err(unnamed(inputs));
    }
    let (treebanks, warnings, spec) = if reports::is_reports_manifest(&text) {
        crate::select::refuse(
            common,
            "--sent-id, --min-len and --max-len do not apply to saved reports (they keep no sentences): select when making them, or give a manifest of files",
        )?;
        let read = from_reports(options, common, first, &text)?;
        let spec = spec(options, common, "reports", &read);
        (read.treebanks, Vec::new(), spec)
    } else {
        let m = canonical(options.command, &options.measure, "--measure")?;
        let rank_by = (options.rank_by.as_deref())
            .map(|r| canonical(options.command, r, "--rank-by"))
            .transpose()?;
        let (t, w) = from_manifest(options, common, &m, rank_by.as_deref(), first, &text)?;
        let read = reports::Read {
            treebanks: Vec::new(),
            notes: Vec::new(),
            command: options.command,
            measure: m,
            rank_by,
            ci_settings: Some((common.ci_samples, common.seed)),
        };
        let spec = spec(options, common, "manifest", &read);
        (t, w, spec)
    };
    check_baseline(options, &treebanks)?;
    let mut report = build(&spec, &treebanks);
    if let Some(sel) = selection.signature() {
        // every treebank's evaluation was given the same selection (its report says more)
        report.signature.push("sel", sel);
    }
    report.warnings = warnings;
    Ok(Evaluation::new(report, None, None))
}

/// The refusal of saved reports given without a manifest, with the manifest to write.
fn unnamed(inputs: &[Input]) -> Error {
    let mut lines = vec!["treebank\treport\tsystem\tfile".to_string()];
    for input in inputs {
        let files = read(input)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .map(|v| reports::system_files(&v))
            .unwrap_or_default();
        if files.is_empty() {
            lines.push(format!("TREEBANK\t{}\tSYSTEM", input.name()));
        }
        for f in files {
            lines.push(format!("TREEBANK\t{}\tSYSTEM\t{f}", input.name()));
        }
    }
    Error::Usage(format!(
        "saved reports do not say which treebank they score or what their systems are called, and `treeval table` does not guess it from file names\n  hint: name them in a manifest of saved reports (tab-separated, paths relative to its folder; a line per system: its treebank, its report, its name, and its file as the report lists it) and give the manifest instead:\n{}",
        capped(lines)
            .lines()
            .map(|l| format!("    {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    ))
}

/// The treebanks of a manifest of saved reports.
fn from_reports(
    options: &Options,
    common: &Common,
    input: &Input,
    text: &str,
) -> Result<reports::Read> {
    let ask = reports::Ask {
        measure: &options.measure,
        rank_by: options.rank_by.as_deref(),
        ci: common.ci,
    };
    reports::read(input.name(), text, &folder(input), &ask).map_err(Error::Eval)
}

/// The folder an input's relative paths start from (the current one for memory).
fn folder(input: &Input) -> std::path::PathBuf {
    match input {
        Input::Path(p) => Path::new(p).parent().unwrap_or(Path::new("")).to_path_buf(),
        Input::Memory { .. } => Path::new("").to_path_buf(),
    }
}

/// A usage error when the baseline is none of the systems.
fn check_baseline(options: &Options, treebanks: &[Treebank]) -> Result<()> {
    let Some(base) = &options.baseline else {
        return Ok(());
    };
    let mut names: Vec<&str> = Vec::new();
    for s in treebanks.iter().flat_map(|t| &t.scores) {
        if !names.contains(&s.system.as_str()) {
            names.push(&s.system);
        }
    }
    if names.contains(&base.as_str()) {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "--baseline {base}: no such system; the systems are {}",
        names.join(", ")
    )))
}

/// A measure of `command`'s family by its canonical name (any case given), or a usage
/// error of `flag` naming them.
fn canonical(command: Command, name: &str, flag: &str) -> Result<String> {
    let names: Vec<String> = match command {
        Command::Deps => treeval_metrics::deps::measures()
            .iter()
            .map(|m| m.name.to_string())
            .collect(),
        Command::Ud => treeval_metrics::ud::UdMetric::ALL
            .iter()
            .map(|m| m.name().to_string())
            .collect(),
    };
    names
        .iter()
        .find(|n| n.eq_ignore_ascii_case(name))
        .cloned()
        .ok_or_else(|| {
            Error::Usage(format!(
                "{flag} {name}: treeval {} has no such measure; expected one of {}",
                command.name(),
                names.join(", ")
            ))
        })
}

/// The text of an input, or an error naming it.
fn read(input: &Input) -> Result<String> {
    // a byte-order mark is dropped; bytes that are not text are an error at their position
    input
        .read_text("a manifest (.tsv) or a JSON report")
        .map_err(|e| {
            Error::Eval(format!(
                "{e}\n  hint: give a manifest (.tsv) or JSON reports saved with --format json"
            ))
        })
}

/// The test against the baseline: its name, what its samples are, and how many.
fn test_settings(common: &Common) -> (Test, &'static str, &'static str, usize) {
    match common.test.first() {
        Some(Test::Bootstrap) => (
            Test::Bootstrap,
            "bootstrap",
            "samples",
            common.samples.unwrap_or(1_000),
        ),
        _ => (Test::Ar, "ar", "shuffles", common.samples.unwrap_or(10_000)),
    }
}

/// The tests saved reports ran, in words: `approximate randomization, 1000 shuffles,
/// seed 12345, as the saved reports ran it` when they all ran the same.
fn saved_tests(treebanks: &[Treebank]) -> String {
    let tests: Vec<&treeval_report::table::Test> =
        treebanks.iter().flat_map(|t| &t.tests).collect();
    // an exact permutation test enumerates its swaps: it has no shuffles to compare
    let exact = |x: &treeval_report::table::Test| x.exact == Some(true);
    let mut runs: Vec<(TestKind, u64, u64)> = Vec::new();
    for x in tests.iter().filter(|x| !exact(x)) {
        if !runs.contains(&(x.test, x.samples, x.seed)) {
            runs.push((x.test, x.samples, x.seed));
        }
    }
    let (n_exact, same) = match runs.as_slice() {
        [(test, _, seed)] => (
            tests.iter().filter(|x| exact(x)).count(),
            tests
                .iter()
                .filter(|x| exact(x))
                .all(|x| (x.test, x.seed) == (*test, *seed)),
        ),
        _ => (0, false),
    };
    let exact = if n_exact > 0 {
        ", exact where at most 16 sentences differ"
    } else {
        ""
    };
    match runs.as_slice() {
        [(TestKind::Ar, n, seed)] if same => format!(
            "approximate randomization, {n} shuffles{exact}, seed {seed}, as the saved reports ran it"
        ),
        [(TestKind::Bootstrap, n, seed)] if same => {
            format!("paired bootstrap, {n} samples, seed {seed}, as the saved reports ran it")
        }
        [] if !tests.is_empty() => {
            "exact permutation tests (at most 16 sentences differ: all their swaps), as the saved reports ran them".to_string()
        }
        _ => "the tests each saved report ran, raw p-values".to_string(),
    }
}

/// How the table is made: `read` holds the measures as the family names them and, for
/// saved reports, their notes and the intervals' settings.
fn spec(options: &Options, common: &Common, source: &str, read: &reports::Read) -> TableSpec {
    let command = read.command.name();
    let (test, name, what, n) = test_settings(common);
    let (how, mut signature) = if source == "reports" {
        (
            saved_tests(&read.treebanks),
            vec![("test".to_string(), "from-reports".to_string())],
        )
    } else {
        let seed = common.seed;
        let how = match test {
            Test::Bootstrap => format!("paired bootstrap, {n} {what}, seed {seed}, two-sided"),
            _ => format!(
                "approximate randomization, {n} {what}, exact where at most 16 sentences differ, seed {seed}, two-sided"
            ),
        };
        let sig = vec![
            ("test".to_string(), name.to_string()),
            (format!("{name}-samples"), n.to_string()),
            ("seed".to_string(), seed.to_string()),
        ];
        (
            how,
            if options.baseline.is_some() {
                sig
            } else {
                Vec::new()
            },
        )
    };
    let intervals = common.ci.map(|level| {
        let (samples, seed) = read.ci_settings.unwrap_or((common.ci_samples, common.seed));
        SignificanceSettings {
            tests: (options.baseline.is_some() && source == "manifest")
                .then_some(test.kind())
                .into_iter()
                .collect(),
            metrics: vec![read.measure.clone()],
            alternative: treeval_stats::Alternative::TwoSided,
            ar_samples: common.samples.unwrap_or(10_000),
            bootstrap_samples: common.samples.unwrap_or(1_000),
            alpha: common.alpha,
            ci_level: Some(level),
            ci_samples: samples,
            seed,
        }
    });
    if let Some(level) = common.ci {
        signature.push((
            "ci".to_string(),
            treeval_report::model::level_percent(level),
        ));
        signature.push(match source {
            "reports" => ("ci-from".to_string(), "reports".to_string()),
            _ => ("ci-samples".to_string(), common.ci_samples.to_string()),
        });
    }
    if let Some(by) = &read.rank_by {
        signature.push(("rank-by".to_string(), by.clone()));
    }
    TableSpec {
        measure: read.measure.clone(),
        command: command.into(),
        baseline: options.baseline.clone(),
        alpha: common.alpha,
        how,
        signature,
        source: source.into(),
        rank_by: read.rank_by.clone(),
        intervals,
        notes: read.notes.clone(),
    }
}

/// One treebank to evaluate: its group and its typed options.
struct Job<'a> {
    group: &'a Group,
    options: crate::Options,
    where_: Vec<String>,
}

/// Every treebank of the manifest, evaluated in parallel, with the evaluations' warnings.
fn from_manifest(
    options: &Options,
    common: &Common,
    measure: &str,
    rank_by: Option<&str>,
    input: &Input,
    text: &str,
) -> Result<(Vec<Treebank>, Vec<Warning>)> {
    let path = input.name();
    let dir = folder(input);
    let groups = manifest::read(path, text, &dir).map_err(|p| Error::Eval(p.join("\n")))?;
    let mut problems = Vec::new();
    let mut jobs = Vec::new();
    for g in &groups {
        match manifest::options(options.command, &g.options) {
            Ok((o, where_)) => jobs.push(Job {
                group: g,
                options: o,
                where_,
            }),
            Err(m) => problems.push(format!(
                "{path}:{}: treebank {}: {m}\n  hint: the options column takes options of `treeval {}` (see its --help)",
                g.at,
                g.name,
                options.command.name()
            )),
        }
    }
    if !problems.is_empty() {
        return Err(Error::Eval(problems.join("\n")));
    }
    let results: Vec<std::result::Result<(Treebank, Vec<Warning>), String>> =
        std::thread::scope(|s| {
            let handles: Vec<_> = jobs
                .iter()
                .map(|j| s.spawn(|| treebank(options, common, (measure, rank_by), path, j)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(format!("{path}: an evaluation stopped unexpectedly"))
                    })
                })
                .collect()
        });
    let mut treebanks = Vec::new();
    let mut warnings = Vec::new();
    for r in results {
        match r {
            Ok((t, w)) => {
                treebanks.push(t);
                warnings.extend(w);
            }
            Err(m) => problems.push(m),
        }
    }
    if problems.is_empty() {
        Ok((treebanks, warnings))
    } else {
        Err(Error::Eval(problems.join("\n")))
    }
}

/// The shared options of one treebank's evaluation: the table's selection, and the test
/// when the baseline and another system are there.
fn treebank_common(common: &Common, testing: bool, where_: &[String]) -> Common {
    let mut c = Common {
        sent_id: common.sent_id.clone(),
        min_len: common.min_len,
        max_len: common.max_len,
        where_: where_.to_vec(),
        ..Common::default()
    };
    if testing {
        let (test, _, _, n) = test_settings(common);
        c.test = vec![test];
        c.samples = Some(n);
    }
    c.seed = common.seed;
    c.ci = common.ci;
    c.ci_samples = common.ci_samples;
    c
}

/// Evaluate one treebank and read its column; the systems get their manifest names.
fn treebank(
    options: &Options,
    common: &Common,
    (measure, rank_by): (&str, Option<&str>),
    path: &str,
    job: &Job<'_>,
) -> std::result::Result<(Treebank, Vec<Warning>), String> {
    let g = job.group;
    let fail = |m: &str| format!("{path}:{}: treebank {}: {m}", g.at, g.name);
    let testing = g.systems.len() > 1
        && (options.baseline.as_ref()).is_some_and(|b| g.systems.iter().any(|(s, _)| s == b));
    let mut c = treebank_common(common, testing, &job.where_);
    // the systems are named as the manifest names them
    c.names = g.systems.iter().map(|(n, _)| n.clone()).collect();
    let inputs = Inputs::new(&g.gold, g.systems.iter().map(|(_, f)| f));
    let mut family = job.options.clone();
    if testing || common.ci.is_some() {
        match &mut family {
            crate::Options::Deps(o) => o.test_metrics = vec![measure.into()],
            crate::Options::Ud(o) => o.test_metrics = vec![measure.into()],
            _ => {}
        }
    }
    let ev = crate::evaluate(&family, &inputs, &c).map_err(|e| fail(e.message()))?;
    // the report as its JSON has it (the same reader as a saved report's)
    let v = serde_json::to_value(&ev.report).map_err(|e| fail(&format!("no report: {e}")))?;
    let mut t = treebank_of(&v, measure, &g.name).map_err(|e| fail(&e))?;
    if let Some(by) = rank_by.filter(|by| *by != measure) {
        let r = treebank_of(&v, by, &g.name).map_err(|e| fail(&e))?;
        for (x, y) in t.scores.iter_mut().zip(r.scores) {
            x.rank = y.value;
        }
    }
    t.gold = g.gold.clone();
    let name_of = |file: &str| {
        g.systems
            .iter()
            .find(|(_, f)| f == file)
            .map_or_else(|| file.to_string(), |(n, _)| n.clone())
    };
    for s in &mut t.scores {
        s.system = name_of(&s.path);
    }
    for x in &mut t.tests {
        x.a = name_of(&x.a);
        x.b = name_of(&x.b);
    }
    Ok((t, ev.report.warnings))
}
