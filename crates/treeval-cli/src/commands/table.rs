//! `treeval table`: systems × treebanks for one measure, from a manifest (each treebank
//! evaluated in process by `deps` or `ud`, in parallel) or from saved JSON reports.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Parser;
use serde_json::Value;
use treeval_report::model::Warning;
use treeval_report::table::{build, treebank_of, TableSpec, Treebank};

use crate::args::{Cli, Command, TableArgs, TableCommand, TestArg};
use crate::Failure;

/// One line of a manifest.
#[derive(Debug, Clone)]
struct Line {
    /// Its line number.
    at: usize,
    treebank: String,
    gold: String,
    system: String,
    file: String,
    options: Vec<String>,
}

/// One treebank of a manifest: its gold file, options and systems (in order).
#[derive(Debug)]
struct Group {
    name: String,
    /// The line that named it first.
    at: usize,
    gold: String,
    options: Vec<String>,
    /// (system name, file).
    systems: Vec<(String, String)>,
}

/// Run the command.
pub fn run(a: &TableArgs, out: &mut dyn Write) -> Result<(), Failure> {
    check_shared(a)?;
    let selection = crate::select::selection(&a.report.select)?;
    let (treebanks, warnings, source, measure) = if is_manifest(a)? {
        let m = measure(a)?;
        let (t, w) = from_manifest(a, &m)?;
        (t, w, "manifest", m)
    } else {
        crate::select::refuse(
            &a.report.select,
            "--sent-id, --min-len and --max-len do not apply to saved reports (they keep no sentences): select when making them, or give a manifest",
        )?;
        (from_reports(a)?, Vec::new(), "reports", a.measure.clone())
    };
    if let Some(base) = &a.baseline {
        let mut names: Vec<&str> = Vec::new();
        for s in treebanks.iter().flat_map(|t| &t.scores) {
            if !names.contains(&s.system.as_str()) {
                names.push(&s.system);
            }
        }
        if !names.contains(&base.as_str()) {
            return Err(Failure::Usage(format!(
                "--baseline {base}: no such system; the systems are {}",
                names.join(", ")
            )));
        }
    }
    let spec = spec(a, &treebanks, source, measure);
    let mut report = build(&spec, &treebanks);
    if let Some(sel) = selection.signature() {
        // every treebank's evaluation was given the same selection (its report says more)
        report.signature.push("sel", sel);
    }
    super::significance::print_warnings(&warnings, a.report.quiet);
    report.warnings = warnings;
    let text = treeval_report::emit::to_string(&report, a.report.format);
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}

/// The measure of a manifest's command, by its canonical name (any case given).
fn measure(a: &TableArgs) -> Result<String, Failure> {
    let names: Vec<String> = match a.command {
        TableCommand::Deps => treeval_metrics::deps::measures()
            .iter()
            .map(|m| m.name.to_string())
            .collect(),
        TableCommand::Ud => treeval_metrics::ud::UdMetric::ALL
            .iter()
            .map(|m| m.name().to_string())
            .collect(),
    };
    names
        .iter()
        .find(|n| n.eq_ignore_ascii_case(&a.measure))
        .cloned()
        .ok_or_else(|| {
            Failure::Usage(format!(
                "--measure {}: with --command {} expected one of {}",
                a.measure,
                argv_command(a),
                names.join(", ")
            ))
        })
}

/// `deps` or `ud`.
fn argv_command(a: &TableArgs) -> &'static str {
    match a.command {
        TableCommand::Deps => "deps",
        TableCommand::Ud => "ud",
    }
}

/// Whether the one input is a manifest (several inputs, or one starting with '{', are
/// reports).
fn is_manifest(a: &TableArgs) -> Result<bool, Failure> {
    if a.inputs.len() > 1 {
        return Ok(false);
    }
    let text = read(&a.inputs[0])?;
    Ok(!text.trim_start().starts_with('{'))
}

/// The text of `path`, or an error naming it.
fn read(path: &str) -> Result<String, Failure> {
    // a byte-order mark is dropped; bytes that are not text are an error at their position
    treeval_formats::input::read_text(path, "a manifest (.tsv) or a JSON report").map_err(|e| {
        Failure::Eval(format!(
            "{e}\n  hint: give a manifest (.tsv) or JSON reports saved with --format json"
        ))
    })
}

/// How the table is made, from the arguments.
fn spec(a: &TableArgs, treebanks: &[Treebank], source: &str, measure: String) -> TableSpec {
    let command = match (source, a.command) {
        ("reports", _) => treebanks.first().map_or("deps", |t| t.command.as_str()),
        (_, TableCommand::Deps) => "deps",
        (_, TableCommand::Ud) => "ud",
    };
    let (how, signature) = if source == "reports" {
        (
            "the tests each saved report ran (raw p-values)".to_string(),
            vec![("test".to_string(), "from-reports".to_string())],
        )
    } else {
        let (name, what, n) = test_settings(a);
        let seed = a.report.sig.seed;
        let how = match table_test(a) {
            TableTest::Ar => format!(
                "approximate randomization, {n} {what} (exact where at most 16 sentences differ), seed {}",
                seed
            ),
            TableTest::Bootstrap => format!("paired bootstrap, {n} {what}, seed {seed}"),
        };
        let sig = vec![
            ("test".to_string(), name.to_string()),
            (format!("{name}-samples"), n.to_string()),
            ("seed".to_string(), seed.to_string()),
        ];
        (
            how,
            if a.baseline.is_some() {
                sig
            } else {
                Vec::new()
            },
        )
    };
    TableSpec {
        measure,
        command: command.into(),
        baseline: a.baseline.clone(),
        alpha: a.report.sig.alpha,
        how,
        signature,
        source: source.into(),
    }
}

/// The test's name, what its samples are, and how many.
fn test_settings(a: &TableArgs) -> (&'static str, &'static str, usize) {
    let samples = a.report.sig.samples;
    match table_test(a) {
        TableTest::Ar => ("ar", "shuffles", samples.unwrap_or(10_000)),
        TableTest::Bootstrap => ("bootstrap", "samples", samples.unwrap_or(1_000)),
    }
}

/// The test against the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TableTest {
    /// Approximate randomization (stratified shuffling).
    Ar,
    /// Paired bootstrap resampling.
    Bootstrap,
}

/// The shared `--test` (checked by [`check_shared`]): ar when none is given.
fn table_test(a: &TableArgs) -> TableTest {
    match a.report.sig.tests.first() {
        Some(TestArg::Bootstrap) => TableTest::Bootstrap,
        _ => TableTest::Ar,
    }
}

/// The shared report options a table cannot honour, refused: more than one test,
/// McNemar (a table compares treebank scores from per-sentence counts), intervals,
/// Bikel's one-sided test, per-sentence output and error listings (with a table's own
/// words), then the rest as every command refuses them ([`crate::output::check_report`]).
fn check_shared(a: &TableArgs) -> Result<(), Failure> {
    let r = &a.report;
    let refused = [
        (r.sig.tests.len() > 1, "give one --test (ar or bootstrap)"),
        (
            r.sig.tests.contains(&TestArg::Mcnemar),
            "--test mcnemar does not apply: a table tests with ar or bootstrap",
        ),
        (r.sig.ci.is_some(), "--ci does not apply to `treeval table`"),
        (
            r.sig.one_sided,
            "--one-sided does not apply to `treeval table`",
        ),
        (
            r.out.per_sentence.is_some(),
            "--per-sentence does not apply to `treeval table`: run the command of a treebank",
        ),
        (
            r.errors,
            "--errors does not apply to `treeval table`: run the command of a treebank",
        ),
        (
            !r.where_.is_empty(),
            "--where is not available for `treeval table` (it is for deps, ud and brackets): run the command of a treebank",
        ),
    ];
    if let Some((_, why)) = refused.iter().find(|(bad, _)| *bad) {
        return Err(Failure::Usage((*why).into()));
    }
    let can = crate::output::Capabilities {
        errors: false,
        always_tests: true,
        ..crate::output::Capabilities::of("table")
    };
    crate::output::check_report(&can, r, false)
}

/// Every saved report's column, in order; all problems at once.
fn from_reports(a: &TableArgs) -> Result<Vec<Treebank>, Failure> {
    let mut problems = Vec::new();
    let mut out: Vec<Treebank> = Vec::new();
    let mut paths = Vec::new();
    for path in &a.inputs {
        let text = match read(path) {
            Ok(t) => t,
            Err(Failure::Eval(m)) => {
                problems.push(m);
                continue;
            }
            Err(e) => return Err(e),
        };
        let parsed = serde_json::from_str::<Value>(&text)
            .map_err(|e| format!("{path}:{}: not a JSON report: {e}\n  hint: save reports with `treeval deps … --format json > FILE.json`", e.line()))
            .and_then(|v| treebank_of(&v, &a.measure, None).map_err(|e| format!("{path}: {e}")));
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
    // gold files of the same name: named with their folder (`examples/gold`)
    let names: Vec<String> = out.iter().map(|t| t.name.clone()).collect();
    for t in &mut out {
        if names.iter().filter(|n| **n == t.name).count() > 1 {
            let folder = Path::new(&t.gold).parent().and_then(Path::file_name);
            if let Some(f) = folder {
                t.name = format!("{}/{}", f.to_string_lossy(), t.name);
            }
        }
    }
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
        Err(Failure::Eval(problems.join("\n")))
    }
}

/// Every treebank of the manifest, evaluated in parallel, with the evaluations' warnings.
fn from_manifest(a: &TableArgs, measure: &str) -> Result<(Vec<Treebank>, Vec<Warning>), Failure> {
    let path = &a.inputs[0];
    let text = read(path)?;
    let dir = Path::new(path)
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let (lines, mut problems) = parse(path, &text, &dir);
    let groups = group(path, &lines, &mut problems);
    if !problems.is_empty() {
        return Err(Failure::Eval(problems.join("\n")));
    }
    let results: Vec<Result<(Treebank, Vec<Warning>), String>> = std::thread::scope(|s| {
        let handles: Vec<_> = groups
            .iter()
            .map(|g| s.spawn(|| evaluate(a, measure, path, g)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(format!("{path}: an evaluation stopped unexpectedly")))
            })
            .collect()
    });
    let mut problems = Vec::new();
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
        Err(Failure::Eval(problems.join("\n")))
    }
}

/// The manifest's good lines (paths resolved against `dir`) and every problem found.
fn parse(path: &str, text: &str, dir: &Path) -> (Vec<Line>, Vec<String>) {
    let mut problems = Vec::new();
    let mut lines = Vec::new();
    let mut header = false;
    for (k, raw) in text.lines().enumerate() {
        let at = k + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = raw.split('\t').map(str::trim).collect();
        if !header {
            header = true;
            let want = ["treebank", "gold", "system", "file"];
            if fields.len() < 4
                || fields[..4] != want
                || (fields.len() == 5 && fields[4] != "options")
                || fields.len() > 5
            {
                problems.push(format!(
                    "{path}:{at}: expected the header `treebank<TAB>gold<TAB>system<TAB>file[<TAB>options]`, found '{raw}'\n  hint: the first line names the tab-separated columns"
                ));
                return (lines, problems);
            }
            continue;
        }
        match line(path, at, &fields, dir) {
            Ok(l) => lines.push(l),
            Err(p) => problems.extend(p),
        }
    }
    if !header {
        problems.push(format!(
            "{path}: no header and no line\n  hint: a manifest is `treebank<TAB>gold<TAB>system<TAB>file[<TAB>options]`, then one line per system file"
        ));
    }
    if lines.is_empty() && problems.is_empty() {
        problems.push(format!(
            "{path}: no system file listed\n  hint: add lines `treebank<TAB>gold<TAB>system<TAB>file`"
        ));
    }
    (lines, problems)
}

/// One data line, its files checked.
fn line(path: &str, at: usize, fields: &[&str], dir: &Path) -> Result<Line, Vec<String>> {
    if !(4..=5).contains(&fields.len()) || fields[..4].iter().any(|f| f.is_empty()) {
        return Err(vec![format!(
            "{path}:{at}: expected 4 or 5 tab-separated fields (treebank, gold, system, file[, options]), none of the first four empty; found {} field(s)\n  hint: separate the columns with tabs, not spaces",
            fields.len()
        )]);
    }
    let resolve = |f: &str| -> PathBuf {
        let p = Path::new(f);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            dir.join(p)
        }
    };
    let mut problems = Vec::new();
    let mut file = |role: &str, f: &str| -> String {
        let p = resolve(f);
        if !p.is_file() {
            problems.push(format!(
                "{path}:{at}: {role} file '{f}' not found (looked for {})\n  hint: paths are relative to the manifest's folder",
                p.display()
            ));
        }
        p.to_string_lossy().into_owned()
    };
    let gold = file("gold", fields[1]);
    let sys = file("system", fields[3]);
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Line {
        at,
        treebank: fields[0].into(),
        gold,
        system: fields[2].into(),
        file: sys,
        options: fields
            .get(4)
            .map(|o| o.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default(),
    })
}

/// The lines grouped by treebank (in order of appearance); a treebank's lines must share
/// the gold file and options, and name each system once (else a problem).
fn group(path: &str, lines: &[Line], problems: &mut Vec<String>) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for l in lines {
        let Some(g) = groups.iter_mut().find(|g| g.name == l.treebank) else {
            groups.push(Group {
                name: l.treebank.clone(),
                at: l.at,
                gold: l.gold.clone(),
                options: l.options.clone(),
                systems: vec![(l.system.clone(), l.file.clone())],
            });
            continue;
        };
        let first = g.at;
        if g.gold != l.gold {
            problems.push(format!(
                "{path}:{}: treebank {} has another gold file than on line {first}\n  hint: one gold file per treebank (name the other one differently)",
                l.at, l.treebank
            ));
        } else if g.options != l.options {
            problems.push(format!(
                "{path}:{}: treebank {} has other options than on line {first}\n  hint: a treebank is evaluated once, all its systems with the same options",
                l.at, l.treebank
            ));
        } else if g.systems.iter().any(|(s, _)| *s == l.system) {
            problems.push(format!(
                "{path}:{}: system {} appears twice for treebank {}\n  hint: one line per treebank and system",
                l.at, l.system, l.treebank
            ));
        } else {
            g.systems.push((l.system.clone(), l.file.clone()));
        }
    }
    groups
}

/// The command line of one treebank's evaluation: its gold and systems, its options, a
/// JSON report, and the test when the baseline and another system are there.
fn argv(a: &TableArgs, measure: &str, g: &Group) -> Vec<String> {
    let mut v: Vec<String> = vec!["treeval".into(), argv_command(a).into(), g.gold.clone()];
    v.extend(g.systems.iter().map(|(_, f)| f.clone()));
    v.extend(g.options.iter().cloned());
    v.extend(["--format", "json", "--quiet"].map(String::from));
    // the sentence selection, passed on to every treebank's evaluation
    let sel = &a.report.select;
    let pass = [
        ("--sent-id", sel.sent_id.clone()),
        ("--min-len", sel.min_len.map(|n| n.to_string())),
        ("--max-len", sel.max_len.map(|n| n.to_string())),
    ];
    for (flag, value) in pass {
        v.extend(value.map(|x| [flag.to_owned(), x]).into_iter().flatten());
    }
    let has_base = a
        .baseline
        .as_ref()
        .is_some_and(|b| g.systems.iter().any(|(s, _)| s == b));
    if has_base && g.systems.len() > 1 {
        let (name, _, n) = test_settings(a);
        v.extend([
            "--test".into(),
            name.into(),
            "--samples".into(),
            n.to_string(),
            "--seed".into(),
            a.report.sig.seed.to_string(),
            "--test-metrics".into(),
            measure.into(),
        ]);
    }
    v
}

/// Evaluate one treebank in process (`deps` or `ud` with a JSON report) and read its
/// column; the systems get their manifest names.
fn evaluate(
    a: &TableArgs,
    measure: &str,
    path: &str,
    g: &Group,
) -> Result<(Treebank, Vec<Warning>), String> {
    let at = format!("{path}:{}", g.at);
    let cli = Cli::try_parse_from(argv(a, measure, g)).map_err(|e| {
        let msg = e.to_string();
        let first = msg.lines().next().unwrap_or("").trim_start_matches("error: ");
        format!("{at}: treebank {}: {first}\n  hint: the options column takes options of `treeval {}` (see its --help)", g.name, argv_command(a))
    })?;
    let mut buf = Vec::new();
    let ran = match &cli.command {
        Command::Deps(d) => super::deps::run(d, &mut buf),
        Command::Ud(u) => super::ud::run(u, &mut buf),
        _ => Err(Failure::Usage("only deps and ud".into())),
    };
    ran.map_err(|e| match e {
        Failure::Eval(m) | Failure::Usage(m) => format!("{at}: treebank {}: {m}", g.name),
        Failure::Io(e) => format!("{at}: treebank {}: {e}", g.name),
    })?;
    let v: Value = serde_json::from_slice(&buf)
        .map_err(|e| format!("{at}: treebank {}: no report: {e}", g.name))?;
    let mut t = treebank_of(&v, measure, Some(&g.name))
        .map_err(|e| format!("{at}: treebank {}: {e}", g.name))?;
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
    Ok((t, warnings(&v)))
}

/// The warnings of a JSON report.
fn warnings(v: &Value) -> Vec<Warning> {
    v["warnings"]
        .as_array()
        .map(|ws| {
            ws.iter()
                // a report's warning as written (an unexpected shape is kept whole as text)
                .map(|w| {
                    serde_json::from_value(w.clone())
                        .unwrap_or_else(|_| Warning::new("", w.to_string(), None))
                })
                .collect()
        })
        .unwrap_or_default()
}
