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
//! typed options by [`crate::keywords`].

mod manifest;

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use treeval_report::model::Warning;
use treeval_report::table::{build, treebank_of, TableSpec, Treebank};

use crate::{Common, Error, Evaluation, Input, Inputs, Result, Test};
use manifest::Group;

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
}

impl Default for Options {
    fn default() -> Self {
        Options {
            measure: "LAS".into(),
            command: Command::Deps,
            baseline: None,
        }
    }
}

/// The names of [`Common`] a table takes (the others are refused by [`check`]).
pub const COMMON: [&str; 7] = [
    "test", "samples", "seed", "alpha", "sent_id", "min_len", "max_len",
];

/// The shared options a table cannot honour, refused: more than one test, McNemar (a
/// table compares treebank scores from per-sentence counts), intervals, Bikel's
/// one-sided test, per-sentence records and error listings; and `where`.
pub fn check(common: &Common) -> Result<()> {
    let refused = [
        (common.test.len() > 1, "give one --test (ar or bootstrap)"),
        (
            common.test.contains(&Test::Mcnemar),
            "--test mcnemar does not apply: a table tests with ar or bootstrap",
        ),
        (common.ci.is_some(), "--ci does not apply to `treeval table`"),
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
    ];
    if let Some((_, why)) = refused.iter().find(|(bad, _)| *bad) {
        return Err(Error::Usage((*why).into()));
    }
    common.validate()
}

/// The table of `inputs`: one manifest (a text not starting with `{`), or saved JSON
/// reports of `deps` or `ud` (`--format json`), one per treebank.
pub fn evaluate(options: &Options, inputs: &[Input], common: &Common) -> Result<Evaluation> {
    check(common)?;
    if common.state || common.keep_sentences {
        return Err(Error::Usage(
            "`table` does not write a mergeable state (state, keep_sentences)".into(),
        ));
    }
    let selection = crate::select::selection(common)?;
    let Some(first) = inputs.first() else {
        return Err(Error::Usage(
            "give a manifest or one or more JSON reports".into(),
        ));
    };
    let manifest = match inputs {
        [one] => Some(read(one)?).filter(|t| !t.trim_start().starts_with('{')),
        _ => None,
    };
    let (treebanks, warnings, source, measure) = match manifest {
        Some(text) => {
            let m = measure(options)?;
            let (t, w) = from_manifest(options, common, &m, first, &text)?;
            (t, w, "manifest", m)
        }
        None => {
            crate::select::refuse(
                common,
                "--sent-id, --min-len and --max-len do not apply to saved reports (they keep no sentences): select when making them, or give a manifest",
            )?;
            let t = from_reports(&options.measure, inputs)?;
            (t, Vec::new(), "reports", options.measure.clone())
        }
    };
    check_baseline(options, &treebanks)?;
    let spec = spec(options, common, &treebanks, source, measure);
    let mut report = build(&spec, &treebanks);
    if let Some(sel) = selection.signature() {
        // every treebank's evaluation was given the same selection (its report says more)
        report.signature.push("sel", sel);
    }
    report.warnings = warnings;
    Ok(Evaluation::new(report, None, None))
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

/// The measure of a manifest's family, by its canonical name (any case given).
fn measure(options: &Options) -> Result<String> {
    let names: Vec<String> = match options.command {
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
        .find(|n| n.eq_ignore_ascii_case(&options.measure))
        .cloned()
        .ok_or_else(|| {
            Error::Usage(format!(
                "--measure {}: with --command {} expected one of {}",
                options.measure,
                options.command.name(),
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

/// How the table is made.
fn spec(
    options: &Options,
    common: &Common,
    treebanks: &[Treebank],
    source: &str,
    measure: String,
) -> TableSpec {
    let command = match source {
        "reports" => treebanks.first().map_or("deps", |t| t.command.as_str()),
        _ => options.command.name(),
    };
    let (how, signature) = if source == "reports" {
        (
            "the tests each saved report ran (raw p-values)".to_string(),
            vec![("test".to_string(), "from-reports".to_string())],
        )
    } else {
        let (test, name, what, n) = test_settings(common);
        let seed = common.seed;
        let how = match test {
            Test::Bootstrap => format!("paired bootstrap, {n} {what}, seed {seed}"),
            _ => format!(
                "approximate randomization, {n} {what} (exact where at most 16 sentences differ), seed {seed}"
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
    TableSpec {
        measure,
        command: command.into(),
        baseline: options.baseline.clone(),
        alpha: common.alpha,
        how,
        signature,
        source: source.into(),
    }
}

/// Every saved report's column, in order; all problems at once.
fn from_reports(measure: &str, inputs: &[Input]) -> Result<Vec<Treebank>> {
    let mut problems = Vec::new();
    let mut out: Vec<Treebank> = Vec::new();
    let mut paths = Vec::new();
    for input in inputs {
        let path = input.name();
        let text = match read(input) {
            Ok(t) => t,
            Err(e) => {
                problems.push(e.message().to_owned());
                continue;
            }
        };
        let parsed = serde_json::from_str::<Value>(&text)
            .map_err(|e| format!("{path}:{}: not a JSON report: {e}\n  hint: save reports with `treeval deps … --format json > FILE.json`", e.line()))
            .and_then(|v| treebank_of(&v, measure, None).map_err(|e| format!("{path}: {e}")));
        match parsed {
            Ok(t) if out.first().is_some_and(|o| o.command != t.command) => problems.push(format!(
                "{path}: a report of treeval {}, the first one is of treeval {}\n  hint: one table holds the scores of one command",
                t.command, out[0].command
            )),
            Ok(t) => {
                out.push(t);
                paths.push(path);
            }
            Err(m) => problems.push(m),
        }
    }
    name_by_folder(&mut out);
    for (k, t) in out.iter().enumerate() {
        if out[..k].iter().any(|o| o.name == t.name) {
            problems.push(format!(
                "{}: a second report of treebank {} (the gold file's folder and name)\n  hint: give one report per treebank",
                paths[k], t.name
            ));
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(Error::Eval(problems.join("\n")))
    }
}

/// Gold files of the same name: named with their folder (`examples/gold`).
fn name_by_folder(out: &mut [Treebank]) {
    let names: Vec<String> = out.iter().map(|t| t.name.clone()).collect();
    for t in out {
        if names.iter().filter(|n| **n == t.name).count() > 1 {
            let folder = Path::new(&t.gold).parent().and_then(Path::file_name);
            if let Some(f) = folder {
                t.name = format!("{}/{}", f.to_string_lossy(), t.name);
            }
        }
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
    input: &Input,
    text: &str,
) -> Result<(Vec<Treebank>, Vec<Warning>)> {
    let path = input.name();
    let dir = match input {
        Input::Path(p) => Path::new(p).parent().unwrap_or(Path::new("")).to_path_buf(),
        Input::Memory { .. } => Path::new("").to_path_buf(),
    };
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
                .map(|j| s.spawn(|| treebank(options, common, measure, path, j)))
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
        c.seed = common.seed;
    }
    c
}

/// Evaluate one treebank and read its column; the systems get their manifest names.
fn treebank(
    options: &Options,
    common: &Common,
    measure: &str,
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
    if testing {
        match &mut family {
            crate::Options::Deps(o) => o.test_metrics = vec![measure.into()],
            crate::Options::Ud(o) => o.test_metrics = vec![measure.into()],
            _ => {}
        }
    }
    let ev = crate::evaluate(&family, &inputs, &c).map_err(|e| fail(e.message()))?;
    // the report as its JSON has it (the same reader as a saved report's)
    let v = serde_json::to_value(&ev.report).map_err(|e| fail(&format!("no report: {e}")))?;
    let mut t = treebank_of(&v, measure, Some(&g.name)).map_err(|e| fail(&e))?;
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
