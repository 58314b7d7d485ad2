//! A `table` manifest of saved reports: a header `treebank<TAB>report<TAB>system[<TAB>file]`,
//! then one line per system: the treebank's name, a JSON report of `deps` or `ud` saved
//! with `--format json` (relative to the manifest's folder), the system's name, and which
//! system of the report it is (its file as the report lists it, or the end of that path;
//! not needed when the report has one system). Nothing is named after a file: a treebank
//! and a system are what the manifest calls them.

use std::path::Path;

use serde_json::Value;
use treeval_report::model::level_percent;
use treeval_report::table::{treebank_of, Score, Test, Treebank};

use super::Command;

/// The header of a manifest of saved reports.
pub(super) const HEADER: &str = "treebank<TAB>report<TAB>system[<TAB>file]";

/// Whether `text` is a manifest of saved reports (its header's second column is `report`).
pub(super) fn is_reports_manifest(text: &str) -> bool {
    let first = text
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'));
    first.is_some_and(|l| l.split('\t').nth(1).map(str::trim) == Some("report"))
}

/// One line: a system of a saved report, named.
#[derive(Debug, Clone)]
struct Line {
    at: usize,
    treebank: String,
    /// The report's path as written, and resolved.
    report: (String, String),
    system: String,
    file: Option<String>,
}

/// A saved report, read.
struct Saved {
    /// Its path as resolved.
    path: String,
    json: Value,
    /// The file of each of its systems, in order.
    files: Vec<String>,
}

/// What the table asks of the reports.
pub(super) struct Ask<'a> {
    /// The cell's measure and the ranking's, as given (any case).
    pub measure: &'a str,
    pub rank_by: Option<&'a str>,
    /// The interval level asked for (`--ci`).
    pub ci: Option<f64>,
}

/// The treebanks the manifest names, in order of appearance.
pub(super) struct Read {
    pub treebanks: Vec<Treebank>,
    /// Systems left out, intervals missing and why.
    pub notes: Vec<String>,
    /// The family of the reports.
    pub command: Command,
    /// The cell's measure and the ranking's, as the family names them.
    pub measure: String,
    pub rank_by: Option<String>,
    /// The intervals' bootstrap samples and seed (those of the first report that has
    /// intervals at the level asked for).
    pub ci_settings: Option<(usize, u64)>,
}

/// Every treebank of the manifest of saved reports `text`, or every problem found.
pub(super) fn read(path: &str, text: &str, dir: &Path, ask: &Ask<'_>) -> Result<Read, String> {
    let lines = parse(path, text, dir)?;
    let (saved, command) = load(path, &lines)?;
    let measure =
        super::canonical(command, ask.measure, "--measure").map_err(|e| e.message().to_owned())?;
    let rank_by = match ask.rank_by {
        Some(m) => {
            Some(super::canonical(command, m, "--rank-by").map_err(|e| e.message().to_owned())?)
        }
        None => None,
    };
    let mut out = Read {
        treebanks: Vec::new(),
        notes: Vec::new(),
        command,
        measure,
        rank_by,
        ci_settings: None,
    };
    let mut problems = Vec::new();
    let mut used: Vec<(usize, usize, usize)> = Vec::new(); // (report, system, line)
    for l in &lines {
        let k = saved.iter().position(|s| s.path == l.report.1).unwrap_or(0);
        match which(&saved[k], l) {
            Ok(sys) => match used.iter().find(|u| u.0 == k && u.1 == sys) {
                Some(u) => problems.push(format!(
                    "{path}:{}: system {} of {} is named on line {} already\n  hint: one line per system of a report",
                    l.at, saved[k].files[sys], l.report.0, lines[u.2].at
                )),
                None => used.push((k, sys, lines.iter().position(|x| x.at == l.at).unwrap_or(0))),
            },
            Err(m) => problems.push(format!("{path}:{}: {m}", l.at)),
        }
    }
    if !problems.is_empty() {
        return Err(super::capped(problems));
    }
    for (k, s) in saved.iter().enumerate() {
        let left: Vec<&str> = (0..s.files.len())
            .filter(|sys| !used.iter().any(|u| u.0 == k && u.1 == *sys))
            .map(|sys| s.files[sys].as_str())
            .collect();
        if !left.is_empty() {
            out.notes.push(format!(
                "left out of the table (no line of the manifest names them): {} of {}",
                left.join(", "),
                s.path
            ));
        }
    }
    group(path, &lines, &saved, &used, ask, &mut out)?;
    Ok(out)
}

/// The manifest's lines (reports resolved against `dir` and checked), or every problem.
fn parse(path: &str, text: &str, dir: &Path) -> Result<Vec<Line>, String> {
    let mut problems = Vec::new();
    let mut lines = Vec::new();
    let mut header = false;
    for (at, raw, fields) in super::manifest::rows(text) {
        if !header {
            header = true;
            let want = ["treebank", "report", "system", "file"];
            if !(3..=4).contains(&fields.len()) || fields[..] != want[..fields.len()] {
                return Err(format!(
                    "{path}:{at}: expected the header `{HEADER}`, found '{raw}'\n  hint: the first line names the tab-separated columns"
                ));
            }
            continue;
        }
        if !(3..=4).contains(&fields.len()) || fields[..3].iter().any(|f| f.is_empty()) {
            problems.push(format!(
                "{path}:{at}: expected 3 or 4 tab-separated fields (treebank, report, system[, file]), none of the first three empty; found {} field(s)\n  hint: separate the columns with tabs, not spaces",
                fields.len()
            ));
            continue;
        }
        let p = Path::new(fields[1]);
        let resolved = if p.is_absolute() {
            p.to_path_buf()
        } else {
            dir.join(p)
        };
        if !resolved.is_file() {
            problems.push(format!(
                "{path}:{at}: report '{}' not found (looked for {})\n  hint: paths are relative to the manifest's folder",
                fields[1],
                resolved.display()
            ));
            continue;
        }
        lines.push(Line {
            at,
            treebank: fields[0].into(),
            report: (fields[1].into(), resolved.to_string_lossy().into_owned()),
            system: fields[2].into(),
            file: fields
                .get(3)
                .filter(|f| !f.is_empty())
                .map(|f| f.to_string()),
        });
    }
    if !header {
        problems.push(format!(
            "{path}: no header and no line\n  hint: a manifest of saved reports is `{HEADER}`, then one line per system"
        ));
    } else if lines.is_empty() && problems.is_empty() {
        problems.push(format!(
            "{path}: no report listed\n  hint: add lines `treebank<TAB>report<TAB>system<TAB>file`"
        ));
    }
    if problems.is_empty() {
        Ok(lines)
    } else {
        Err(super::capped(problems))
    }
}

/// Every report the lines name, read once, all of one family.
fn load(path: &str, lines: &[Line]) -> Result<(Vec<Saved>, Command), String> {
    let mut saved: Vec<Saved> = Vec::new();
    let mut problems = Vec::new();
    let mut command: Option<(String, String)> = None;
    for l in lines {
        if saved.iter().any(|s| s.path == l.report.1) {
            continue;
        }
        let at = format!("{path}:{}: {}", l.at, l.report.0);
        let json = match std::fs::read_to_string(&l.report.1)
            .map_err(|e| format!("{at}: cannot read the file: {e}"))
            .and_then(|t| {
                serde_json::from_str::<Value>(t.trim_start_matches('\u{feff}')).map_err(|e| {
                    format!("{at}: not a JSON report (line {}: {e})\n  hint: save reports with `treeval deps … --format json > FILE.json`", e.line())
                })
            }) {
            Ok(v) => v,
            Err(m) => {
                problems.push(m);
                continue;
            }
        };
        let c = json["command"].as_str().unwrap_or("").to_string();
        if !matches!(c.as_str(), "deps" | "ud") {
            problems.push(format!(
                "{at}: expected a report of `treeval deps` or `treeval ud` (saved with --format json), found command '{c}'"
            ));
            continue;
        }
        match &command {
            Some((first, where_)) if *first != c => problems.push(format!(
                "{at}: a report of treeval {c}, {where_} is of treeval {first}\n  hint: one table holds the scores of one command"
            )),
            Some(_) => {}
            None => command = Some((c.clone(), at.clone())),
        }
        let files = system_files(&json);
        saved.push(Saved {
            path: l.report.1.clone(),
            json,
            files,
        });
    }
    if !problems.is_empty() {
        return Err(super::capped(problems));
    }
    let command = match command.map(|c| c.0).as_deref() {
        Some("ud") => Command::Ud,
        _ => Command::Deps,
    };
    Ok((saved, command))
}

/// The file of each system of a report, in order (its name when no file is listed).
pub(super) fn system_files(json: &Value) -> Vec<String> {
    let inputs = json["inputs"].as_array().cloned().unwrap_or_default();
    (json["systems"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default())
    .iter()
    .map(|s| {
        let name = s["name"].as_str().unwrap_or("");
        (s["inputs"][0].as_u64())
            .and_then(|k| inputs.get(usize::try_from(k).ok()?))
            .and_then(|i| i["path"].as_str())
            .unwrap_or(name)
            .to_string()
    })
    .collect()
}

/// Which system of the report line `l` names: the one whose file is the file column
/// (or ends with it after a `/`), or the report's only system.
fn which(s: &Saved, l: &Line) -> Result<usize, String> {
    let listed = || {
        let files: Vec<String> = s.files.iter().map(|f| format!("'{f}'")).collect();
        format!("its systems' files are {}", files.join(", "))
    };
    if s.files.is_empty() {
        return Err(format!(
            "expected a report with a system, found none in {}",
            l.report.0
        ));
    }
    let Some(file) = &l.file else {
        return match s.files.len() {
            1 => Ok(0),
            n => Err(format!(
                "expected a file column naming which of the {n} systems of {} is {}, found none\n  hint: {}",
                l.report.0,
                l.system,
                listed()
            )),
        };
    };
    let norm = |p: &str| p.replace('\\', "/");
    let want = norm(file);
    let fits = |f: &String| {
        let f = norm(f);
        f == want || f.ends_with(&format!("/{want}")) || want.ends_with(&format!("/{f}"))
    };
    let found: Vec<usize> = (0..s.files.len()).filter(|&k| fits(&s.files[k])).collect();
    match found.as_slice() {
        [k] => Ok(*k),
        [] => Err(format!(
            "expected a system file of {}, found '{file}'\n  hint: {} (the end of a path is enough)",
            l.report.0,
            listed()
        )),
        _ => Err(format!(
            "'{file}' is the end of {} system files of {}\n  hint: write more of the path; {}",
            found.len(),
            l.report.0,
            listed()
        )),
    }
}

/// The lines grouped by treebank (in order of appearance): the named systems' scores,
/// the tests between them, and their intervals.
fn group(
    path: &str,
    lines: &[Line],
    saved: &[Saved],
    used: &[(usize, usize, usize)],
    ask: &Ask<'_>,
    out: &mut Read,
) -> Result<(), String> {
    let mut problems = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for l in lines {
        if !names.contains(&l.treebank.as_str()) {
            names.push(&l.treebank);
        }
    }
    for name in names {
        let mine: Vec<&(usize, usize, usize)> = used
            .iter()
            .filter(|u| lines[u.2].treebank == name)
            .collect();
        match treebank(path, name, lines, saved, &mine, ask, out) {
            Ok(t) => out.treebanks.push(t),
            Err(p) => problems.extend(p),
        }
    }
    // a report is one treebank's
    for (k, s) in saved.iter().enumerate() {
        let tbs: Vec<&str> = used
            .iter()
            .filter(|u| u.0 == k)
            .map(|u| lines[u.2].treebank.as_str())
            .collect();
        if let Some(other) = tbs.iter().find(|t| **t != tbs[0]) {
            problems.push(format!(
                "{path}: {} is named for treebank {} and for treebank {other}\n  hint: a report scores one gold file: one treebank",
                s.path, tbs[0]
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(super::capped(problems))
    }
}

/// One treebank of the manifest: the scores of the systems its lines name (`mine`:
/// report, system of the report, line).
fn treebank(
    path: &str,
    name: &str,
    lines: &[Line],
    saved: &[Saved],
    mine: &[&(usize, usize, usize)],
    ask: &Ask<'_>,
    out: &mut Read,
) -> Result<Treebank, Vec<String>> {
    let mut problems = Vec::new();
    let mut t: Option<Treebank> = None;
    let mut gold_of: Option<(usize, Value)> = None;
    let mut reports: Vec<usize> = Vec::new();
    for u in mine {
        if !reports.contains(&u.0) {
            reports.push(u.0);
        }
    }
    for &k in &reports {
        let s = &saved[k];
        let at = |line: usize| format!("{path}:{}: treebank {name}", lines[line].at);
        let first_line = mine.iter().find(|u| u.0 == k).map_or(0, |u| u.2);
        let gold = gold_counts(&s.json);
        match &gold_of {
            Some((line, g)) if g[1] != gold[1] || g[2] != gold[2] => problems.push(format!(
                "{}: {} was scored against another gold than {} on line {} ({} against {})\n  hint: one gold file per treebank (name the other one differently)",
                at(first_line), s.path, lines[*line].report.0, lines[*line].at, summary(&gold), summary(g)
            )),
            Some(_) => {}
            None => gold_of = Some((first_line, gold)),
        }
        let one = match scored(s, name, &out.measure, out.rank_by.as_deref()) {
            Ok(x) => x,
            Err(m) => {
                problems.push(format!("{}: {}: {m}", at(first_line), s.path));
                continue;
            }
        };
        let named: Vec<(usize, String)> = (mine.iter().filter(|u| u.0 == k))
            .map(|u| (u.1, lines[u.2].system.clone()))
            .collect();
        let merged = t.get_or_insert_with(|| Treebank {
            scores: Vec::new(),
            tests: Vec::new(),
            ..one.clone()
        });
        for (sys, system) in &named {
            if merged.scores.iter().any(|x| &x.system == system) {
                problems.push(format!(
                    "{}: system {system} appears twice\n  hint: one line per treebank and system",
                    at(first_line)
                ));
                continue;
            }
            let mut score: Score = one.scores[*sys].clone();
            score.system = system.clone();
            ci(ask.ci, s, name, &mut score, out);
            merged.scores.push(score);
        }
        merged.tests.extend(tests(&one.tests, &one.scores, &named));
    }
    match t {
        Some(t) if problems.is_empty() => Ok(t),
        _ => Err(problems),
    }
}

/// A report's treebank for `measure`, the ranking measure's values in its scores.
fn scored(s: &Saved, name: &str, measure: &str, rank_by: Option<&str>) -> Result<Treebank, String> {
    let mut one = treebank_of(&s.json, measure, name)?;
    if let Some(by) = rank_by.filter(|by| *by != measure) {
        let r = treebank_of(&s.json, by, name)?;
        for (x, y) in one.scores.iter_mut().zip(r.scores) {
            x.rank = y.value;
        }
    }
    Ok(one)
}

/// The tests of a report between two systems the manifest names, with their names.
fn tests(tests: &[Test], scores: &[Score], named: &[(usize, String)]) -> Vec<Test> {
    let rename = |report_name: &str| {
        let k = scores.iter().position(|s| s.system == report_name)?;
        named
            .iter()
            .find(|(sys, _)| *sys == k)
            .map(|(_, n)| n.clone())
    };
    tests
        .iter()
        .filter_map(|x| {
            Some(Test {
                a: rename(&x.a)?,
                b: rename(&x.b)?,
                ..x.clone()
            })
        })
        .collect()
}

/// The cell's interval as asked: the report's at the level asked for, or none and a note
/// that says why (none is ever made up); no interval without `--ci`.
fn ci(level: Option<f64>, s: &Saved, treebank: &str, score: &mut Score, out: &mut Read) {
    let Some(level) = level else {
        score.ci = None;
        return;
    };
    let sig = &s.json["significance"];
    let theirs = sig["ci_level"].as_f64();
    let why = match theirs {
        None => format!("its report {} was made without --ci", s.path),
        Some(l) if (l - level).abs() > 1e-9 => format!(
            "its report {} has {}% intervals, not {}%",
            s.path,
            level_percent(l),
            level_percent(level)
        ),
        Some(_) if score.ci.is_none() => format!(
            "its report {} has no interval of {} (make it with --ci {} --test-metrics {})",
            s.path,
            out.measure,
            level_percent(level),
            out.measure
        ),
        Some(_) => {
            let here = (
                sig["ci_samples"].as_u64().unwrap_or(0) as usize,
                sig["seed"].as_u64().unwrap_or(0),
            );
            match out.ci_settings {
                None => out.ci_settings = Some(here),
                Some(first) if first != here => out.notes.push(format!(
                    "the interval of {} on {treebank} was made with {} samples, seed {} (its report {})",
                    score.system, here.0, here.1, s.path
                )),
                Some(_) => {}
            }
            return;
        }
    };
    score.ci = None;
    if score.value.is_some() {
        out.notes.push(format!(
            "{} on {treebank} has no interval: {why}",
            score.system
        ));
    }
}

/// The gold input's counts (sentences, words) of a report.
fn gold_counts(json: &Value) -> Value {
    (json["inputs"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default())
    .iter()
    .find(|i| i["role"] == "gold")
    .map_or(Value::Null, |g| {
        serde_json::json!([g["path"], g["counts"]["sentences"], g["counts"]["words"]])
    })
}

/// `gold.conllu: 2001 sentences, 25147 words`.
fn summary(gold: &Value) -> String {
    format!(
        "{}: {} sentences, {} words",
        gold[0].as_str().unwrap_or("?"),
        gold[1],
        gold[2]
    )
}
