//! A `table` manifest: its lines read, checked and grouped by treebank, each treebank's
//! options column made into the family's typed options (no command line).

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::Command;
use crate::keywords::{self, KeywordError};

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
pub(super) struct Group {
    pub name: String,
    /// The line that named it first.
    pub at: usize,
    pub gold: String,
    /// The options column as written (split at whitespace).
    pub options: Vec<String>,
    /// (system name, file).
    pub systems: Vec<(String, String)>,
}

/// The manifest's good lines (paths resolved against `dir`) grouped by treebank, or every
/// problem found.
pub(super) fn read(path: &str, text: &str, dir: &Path) -> Result<Vec<Group>, Vec<String>> {
    let (lines, mut problems) = parse(path, text, dir);
    let groups = group(path, &lines, &mut problems);
    if problems.is_empty() {
        Ok(groups)
    } else {
        Err(problems)
    }
}

/// A manifest's lines that hold something, as both kinds of manifest read them: the line
/// number, the line (without its CR), its tab-separated fields trimmed. Blank lines and
/// `#` comments are skipped.
pub(super) fn rows(text: &str) -> impl Iterator<Item = (usize, &str, Vec<&str>)> {
    text.lines().enumerate().filter_map(|(k, raw)| {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let empty = raw.trim().is_empty() || raw.starts_with('#');
        (!empty).then(|| (k + 1, raw, raw.split('\t').map(str::trim).collect()))
    })
}

/// The manifest's good lines and every problem found.
fn parse(path: &str, text: &str, dir: &Path) -> (Vec<Line>, Vec<String>) {
    let mut problems = Vec::new();
    let mut lines = Vec::new();
    let mut header = false;
    for (at, raw, fields) in rows(text) {
        if !header {
            header = true;
            let want = ["treebank", "gold", "system", "file"];
            if fields.len() < 4
                || fields[..4] != want
                || (fields.len() == 5 && fields[4] != "options")
                || fields.len() > 5
            {
                problems.push(format!(
                    "{path}:{at}: expected the header `treebank<TAB>gold<TAB>system<TAB>file[<TAB>options]` (or, naming saved reports, `{}`), found '{raw}'\n  hint: the first line names the tab-separated columns",
                    super::reports::HEADER
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

/// The options a manifest does not take though the family has them: the table decides
/// them (`test_metrics`: the measure tested against the baseline) or they make no report
/// (`compat`: a reference tool's text).
const NOT_IN_MANIFEST: [&str; 2] = ["compat", "test_metrics"];

/// A treebank's options column as the family's options (and `where`, the one shared
/// option a treebank may set), or why not.
pub(super) fn options(
    command: Command,
    args: &[String],
) -> Result<(crate::Options, Vec<String>), String> {
    Ok(match command {
        Command::Deps => {
            let (o, w) = typed::<crate::deps::Options>(args)?;
            (crate::Options::Deps(o), w)
        }
        Command::Ud => {
            let (o, w) = typed::<crate::ud::Options>(args)?;
            (crate::Options::Ud(o), w)
        }
    })
}

/// [`options`] of the family options `F`.
fn typed<F: Serialize + DeserializeOwned + Default>(
    args: &[String],
) -> Result<(F, Vec<String>), String> {
    let pairs = keywords::from_args::<F>(args)?;
    let valid = |name: &str| name == "where";
    let flag = |name: &str| format!("--{}", name.replace('_', "-"));
    if let Some((name, _)) = pairs
        .iter()
        .find(|(n, _)| NOT_IN_MANIFEST.contains(&n.as_str()))
    {
        return Err(format!(
            "{} is not an option of a manifest (the table tests its --measure; --compat prints no report)",
            flag(name)
        ));
    }
    let split = keywords::split::<F>(pairs, &[], &valid).map_err(|e| match e {
        KeywordError::Unknown { name, valid } => {
            let valid: Vec<String> = valid
                .iter()
                .filter(|v| !NOT_IN_MANIFEST.contains(&v.as_str()))
                .map(|v| flag(v))
                .collect();
            format!(
                "{}: not an option of a treebank; expected one of {}",
                flag(&name),
                valid.join(", ")
            )
        }
        KeywordError::Invalid(m) => m,
    })?;
    Ok((split.family, split.common.where_))
}
