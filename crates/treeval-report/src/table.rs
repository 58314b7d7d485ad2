//! `treeval table`: one table of systems × treebanks for one measure, read from the JSON
//! reports of `deps` or `ud` (saved ones, or made in process from a manifest), with the
//! macro average over treebanks per system (the CoNLL shared-task ranking: the mean of
//! the per-treebank scores) and tests against a baseline system, Holm–Bonferroni adjusted
//! across treebanks.
//!
//! The table is a [`Report`]: section `table` has one row per system and one column per
//! treebank, then `macro-avg`; each test is a [`Comparison`] (baseline = `a`, metric =
//! `MEASURE TREEBANK`, `p_adjusted` over that system's treebanks), and the notes say
//! which differences are significant in every format.

use serde_json::Value;
use treeval_metrics::measure::{Better, Kind};
use treeval_stats::compare::{Comparison, TestKind};

use crate::model::{Signature, SignificanceSettings};
use crate::value::{Cell, Input, MeasureInfo, Report, Row, Section, System};

/// The name of the column of macro averages.
pub const MACRO: &str = "macro-avg";

/// One system's score on one treebank.
#[derive(Debug, Clone, PartialEq)]
pub struct Score {
    /// The system's name.
    pub system: String,
    /// Its file.
    pub path: String,
    /// The measure's value (a fraction; `None` where undefined).
    pub value: Option<f64>,
    /// The counts it was computed from.
    pub counts: Vec<f64>,
    /// Its confidence interval, when the evaluation made one.
    pub ci: Option<[f64; 2]>,
    /// Its score under the measure systems are ranked by (`--rank-by`; the value when
    /// that is the cell's measure).
    pub rank: Option<f64>,
}

/// A test between two systems of one treebank (p-value not adjusted).
#[derive(Debug, Clone, PartialEq)]
pub struct Test {
    /// The first system's name.
    pub a: String,
    /// The second system's name.
    pub b: String,
    /// The test.
    pub test: TestKind,
    /// Score of `a` − score of `b`.
    pub statistic: f64,
    /// The raw p-value.
    pub p_value: f64,
    /// Replicates drawn.
    pub samples: u64,
    /// The seed.
    pub seed: u64,
    /// Whether the p-value is an exact permutation p-value.
    pub exact: Option<bool>,
    /// Score of `b` − score of `a`, its interval and the interval's level, as the report
    /// gives them (`None`: a report written before comparisons had them).
    pub difference: Option<(Option<f64>, Option<[f64; 2]>, f64)>,
}

/// One treebank's column: its gold file and every system's score and tests.
#[derive(Debug, Clone, PartialEq)]
pub struct Treebank {
    /// Its name (the column header).
    pub name: String,
    /// The gold file.
    pub gold: String,
    /// The scores, one per system.
    pub scores: Vec<Score>,
    /// The tests between its systems.
    pub tests: Vec<Test>,
    /// The measure as the report documents it (its title).
    pub title: String,
    /// The command that scored it (`deps`, `ud`).
    pub command: String,
}

/// What a `deps` or `ud` JSON report holds for `measure`, as treebank `name` (its systems
/// keep the report's names; the caller names them: nothing is named after a file).
/// `deps`: the cell `measure` of section `scores`; `ud`: the `F1` cell of the row keyed
/// `measure`.
pub fn treebank_of(report: &Value, measure: &str, name: &str) -> Result<Treebank, String> {
    let command = report["command"].as_str().unwrap_or("");
    if !matches!(command, "deps" | "ud") {
        return Err(format!(
            "expected a report of `treeval deps` or `treeval ud` (saved with --format json), found command '{command}'"
        ));
    }
    let inputs = report["inputs"].as_array().cloned().unwrap_or_default();
    let gold = inputs
        .iter()
        .find(|i| i["role"] == "gold")
        .and_then(|i| i["path"].as_str())
        .unwrap_or("")
        .to_string();
    let systems: Vec<(String, String)> = report["systems"]
        .as_array()
        .map(|s| {
            s.iter()
                .map(|s| {
                    let name = s["name"].as_str().unwrap_or("").to_string();
                    let path = s["inputs"][0]
                        .as_u64()
                        .and_then(|k| inputs.get(k as usize))
                        .and_then(|i| i["path"].as_str())
                        .unwrap_or(&name)
                        .to_string();
                    (name, path)
                })
                .collect()
        })
        .unwrap_or_default();
    let scores = scores_of(report, command, measure, &systems)?;
    let title = report["measures"]
        .as_array()
        .and_then(|ms| ms.iter().find(|m| m["name"] == measure))
        .and_then(|m| m["title"].as_str())
        .map_or_else(|| format!("{measure} F1"), str::to_string);
    Ok(Treebank {
        name: name.to_string(),
        gold,
        scores,
        tests: tests_of(report, measure, &systems),
        title,
        command: command.into(),
    })
}

/// Every system's cell of `measure` in section `scores`.
fn scores_of(
    report: &Value,
    command: &str,
    measure: &str,
    systems: &[(String, String)],
) -> Result<Vec<Score>, String> {
    let section = report["sections"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["id"] == "scores"))
        .ok_or("the report has no section `scores`")?;
    let rows = section["rows"].as_array().cloned().unwrap_or_default();
    let (row_key, cell_measure) = match command {
        "ud" => (Some(measure), "F1"),
        _ => (None, measure),
    };
    let mut out = Vec::new();
    for (k, (name, path)) in systems.iter().enumerate() {
        let cell = rows
            .iter()
            .filter(|r| r["system"].as_u64() == Some(k as u64))
            .filter(|r| row_key.map_or(true, |key| r["key"] == key))
            .flat_map(|r| r["cells"].as_array().cloned().unwrap_or_default())
            .find(|c| c["measure"] == cell_measure);
        let Some(cell) = cell else {
            return Err(format!(
                "no {measure} in the report's section `scores` (system {name}){}",
                available(section, command)
            ));
        };
        out.push(Score {
            system: name.clone(),
            path: path.clone(),
            value: cell["value"].as_f64(),
            counts: cell["counts"]
                .as_array()
                .map(|c| c.iter().filter_map(Value::as_f64).collect())
                .unwrap_or_default(),
            ci: interval(&cell["ci"]),
            rank: cell["value"].as_f64(),
        });
    }
    Ok(out)
}

/// A cell's `ci`, `[low, high]` (`None` when it has none or it is not two numbers).
fn interval(ci: &Value) -> Option<[f64; 2]> {
    match ci.as_array()?.as_slice() {
        [lo, hi] => Some([lo.as_f64()?, hi.as_f64()?]),
        _ => None,
    }
}

/// `; measures: LAS, UAS, …` (the names section `scores` offers).
fn available(section: &Value, command: &str) -> String {
    let names: Vec<String> = if command == "ud" {
        let mut keys: Vec<String> = section["rows"]
            .as_array()
            .map(|r| {
                r.iter()
                    .filter_map(|r| r["key"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        keys.dedup();
        keys
    } else {
        section["columns"]
            .as_array()
            .map(|c| {
                c.iter()
                    .filter_map(|c| c.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    format!("\n  hint: --measure takes one of {}", names.join(", "))
}

/// The report's tests of `measure` (its comparisons, with their raw p-values).
fn tests_of(report: &Value, measure: &str, systems: &[(String, String)]) -> Vec<Test> {
    let name = |v: &Value| {
        v.as_u64()
            .and_then(|k| systems.get(k as usize))
            .map(|s| s.0.clone())
    };
    let test = |s: &str| match s {
        "ar" => Some(TestKind::Ar),
        "bootstrap" => Some(TestKind::Bootstrap),
        _ => None,
    };
    report["comparisons"]
        .as_array()
        .map(|cs| {
            cs.iter()
                .filter(|c| c["metric"] == measure)
                .filter_map(|c| {
                    Some(Test {
                        a: name(&c["a"])?,
                        b: name(&c["b"])?,
                        test: test(c["test"].as_str()?)?,
                        statistic: c["statistic"].as_f64()?,
                        p_value: c["p_value"].as_f64()?,
                        samples: c["samples"].as_u64().unwrap_or(0),
                        seed: c["seed"].as_u64().unwrap_or(0),
                        exact: c["exact"].as_bool(),
                        difference: difference_of(c),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// How the table is made.
#[derive(Debug, Clone)]
pub struct TableSpec {
    /// The measure (`LAS`).
    pub measure: String,
    /// The command the scores come from (`deps`, `ud`).
    pub command: String,
    /// The system the others are tested against.
    pub baseline: Option<String>,
    /// Significance level of the Holm-adjusted p-values.
    pub alpha: f64,
    /// The tests as run, in words (`ar, 10000 shuffles, seed 12345`), for the notes.
    pub how: String,
    /// Signature parts of the tests (`test:ar`, …).
    pub signature: Vec<(String, String)>,
    /// Where the scores come from (`manifest`, `reports`), for the signature.
    pub source: String,
    /// The measure the systems are ranked by (`--rank-by`: their mean over the treebanks,
    /// as `macro-avg`, best first); `None`: in order of appearance, the baseline first.
    pub rank_by: Option<String>,
    /// How the cells' intervals were made (`--ci`); `None` without intervals.
    pub intervals: Option<SignificanceSettings>,
    /// The caller's notes (where a cell has no interval, and why).
    pub notes: Vec<String>,
}

/// The table of `treebanks` (in order) as a report.
pub fn build(spec: &TableSpec, treebanks: &[Treebank]) -> Report {
    let mut signature = Signature::new(
        "table",
        &[
            ("command", spec.command.clone()),
            ("measure", spec.measure.clone()),
            ("avg", "macro-treebanks".into()),
            ("from", spec.source.clone()),
        ],
    );
    for (k, v) in &spec.signature {
        signature.push(k, v.clone());
    }
    let mut r = Report::new("table", signature);
    r.convention("measure", &spec.measure);
    r.convention("scores from", format!("treeval {}", spec.command));
    r.convention("macro average", "mean of the per-treebank scores");
    let systems = system_names(spec, treebanks);
    inputs(&mut r, &systems, treebanks);
    measures(&mut r, spec, treebanks);
    r.sections
        .push(section(spec, &systems, treebanks, &mut r.notes));
    if spec.intervals.is_some() {
        r.significance.clone_from(&spec.intervals);
        r.notes.push(format!(
            "{MACRO} has no interval: each treebank's sentences are resampled on their own, and a report keeps no resamples to combine"
        ));
    }
    r.notes.extend(spec.notes.iter().cloned());
    if let Some(by) = &spec.rank_by {
        rank(&mut r, by, treebanks);
    }
    if let Some(base) = &spec.baseline {
        significance(&mut r, spec, base, &systems, treebanks);
    }
    r
}

/// The rows in order of each system's mean `by` over the treebanks (as [`MACRO`]), best
/// first; ties and the systems without a mean keep their order (the baseline first, then
/// in order of appearance). The section title, a note and the legend say so.
fn rank(r: &mut Report, by: &str, treebanks: &[Treebank]) {
    let means: Vec<Option<f64>> = (r.systems.iter())
        .map(|s| {
            let v: Option<Vec<f64>> = (treebanks.iter())
                .map(|t| t.scores.iter().find(|x| x.system == s.name)?.rank)
                .collect();
            v.filter(|v| !v.is_empty())
                .map(|v| v.iter().sum::<f64>() / v.len() as f64)
        })
        .collect();
    let Some(section) = r.sections.first_mut() else {
        return;
    };
    let mean = |k: usize| means.get(k).copied().flatten();
    // a stable sort: ties stay in order
    section
        .rows
        .sort_by(|a, b| match (mean(a.system), mean(b.system)) {
            (Some(x), Some(y)) => y.total_cmp(&x),
            (x, y) => y.is_some().cmp(&x.is_some()),
        });
    let order: Vec<usize> = section.rows.iter().map(|row| row.system).collect();
    let n = treebanks.len();
    section.title.push_str(&format!(
        "; systems ranked by mean {by} over the treebanks, best first"
    ));
    let mut ranked = Vec::new();
    let mut unranked = Vec::new();
    let mut place = 0;
    for (i, &k) in order.iter().enumerate() {
        let name = &r.systems[k].name;
        match mean(k) {
            Some(m) => {
                if i == 0 || mean(order[i - 1]) != Some(m) {
                    place = i + 1;
                }
                ranked.push(format!("{place}. {name} {:.2}", m * 100.0));
            }
            None => unranked.push(name.clone()),
        }
    }
    let mut line = format!(
        "Ranked by mean {by} over the {n} treebanks (each weighing the same, as {MACRO}), best first, ties in the table's order: {}",
        ranked.join(", ")
    );
    if !unranked.is_empty() {
        line.push_str(&format!(
            "; not ranked (no {by} on every treebank): {}",
            unranked.join(", ")
        ));
    }
    r.notes.push(line.clone());
    r.legend.push(line);
}

/// One measure per column, named as it (the cells' `measure`): the measure on each
/// treebank, then the macro average.
fn measures(r: &mut Report, spec: &TableSpec, treebanks: &[Treebank]) {
    let m = &spec.measure;
    let info = |name: &str, title: String, formula: String| MeasureInfo {
        name: name.into(),
        title,
        formula,
        source: String::new(),
        kind: Kind::Fraction,
        better: Better::Higher,
        reads: Vec::new(),
    };
    for t in treebanks {
        let title = format!("{m} on treebank {} ({})", t.name, t.title);
        r.measures.push(info(
            &t.name,
            title,
            format!("{m} of treeval {}", t.command),
        ));
    }
    r.measures.push(MeasureInfo {
        source: "CoNLL 2018 shared task ranking (macro average over treebanks)".into(),
        ..info(
            MACRO,
            format!("mean {m} over the treebanks"),
            format!("Σ {m}(treebank) / {}", treebanks.len()),
        )
    });
}

/// The systems in order of appearance, the baseline first.
fn system_names(spec: &TableSpec, treebanks: &[Treebank]) -> Vec<String> {
    let mut names: Vec<String> = spec.baseline.iter().cloned().collect();
    for t in treebanks {
        for s in &t.scores {
            if !names.contains(&s.system) {
                names.push(s.system.clone());
            }
        }
    }
    names
}

/// The gold files and every system's files, as inputs.
fn inputs(r: &mut Report, systems: &[String], treebanks: &[Treebank]) {
    for t in treebanks {
        r.inputs.push(Input {
            role: "gold".into(),
            path: t.gold.clone(),
            format: String::new(),
            description: format!("treebank {}", t.name),
            counts: Value::Null,
            system: None,
        });
    }
    for (k, name) in systems.iter().enumerate() {
        let mut own = Vec::new();
        for t in treebanks {
            for s in t.scores.iter().filter(|s| &s.system == name) {
                own.push(r.inputs.len());
                r.inputs.push(Input {
                    role: "system".into(),
                    path: s.path.clone(),
                    format: String::new(),
                    description: format!("treebank {}", t.name),
                    counts: Value::Null,
                    system: Some(k),
                });
            }
        }
        r.systems.push(System {
            name: name.clone(),
            inputs: own,
        });
    }
}

/// The section: a row per system, a cell per treebank, then the macro average (`n/a`
/// where the system lacks a treebank or a score, said in a note).
fn section(
    spec: &TableSpec,
    systems: &[String],
    treebanks: &[Treebank],
    notes: &mut Vec<String>,
) -> Section {
    let mut columns: Vec<String> = treebanks.iter().map(|t| t.name.clone()).collect();
    columns.push(MACRO.into());
    let cell = |column: &str, value, counts, ci| Cell {
        measure: column.into(),
        value,
        counts,
        ci,
        mark: None,
    };
    let mut rows = Vec::new();
    for (k, name) in systems.iter().enumerate() {
        let mut cells = Vec::new();
        let mut missing = Vec::new();
        for t in treebanks {
            match t.scores.iter().find(|s| &s.system == name) {
                Some(s) => {
                    if s.value.is_none() {
                        missing.push(format!("{} (undefined)", t.name));
                    } else if s.ci.is_none() && spec.intervals.is_some() && spec.source != "reports"
                    {
                        // saved reports: the caller's notes say why
                        notes.push(format!(
                            "{name} on {} has no interval: its evaluation made none of {}",
                            t.name, spec.measure
                        ));
                    }
                    cells.push(cell(&t.name, s.value, s.counts.clone(), s.ci));
                }
                None => {
                    missing.push(t.name.clone());
                    cells.push(cell(&t.name, None, Vec::new(), None));
                }
            }
        }
        let values: Vec<f64> = cells.iter().filter_map(|c| c.value).collect();
        let avg = (missing.is_empty() && !values.is_empty())
            .then(|| values.iter().sum::<f64>() / values.len() as f64);
        if !missing.is_empty() {
            notes.push(format!(
                "{name} has no {} on {}: n/a there and no {MACRO}",
                spec.measure,
                missing.join(", ")
            ));
        }
        cells.push(cell(MACRO, avg, Vec::new(), None));
        rows.push(Row {
            system: k,
            key: None,
            cells,
        });
    }
    Section {
        id: "table".into(),
        title: format!(
            "{} by treebank; {MACRO} = mean over the {} treebanks (CoNLL shared-task ranking)",
            spec.measure,
            treebanks.len()
        ),
        key: None,
        columns,
        show_counts: false,
        compact: None,
        rows,
    }
}

/// The tests of every system against `base`, adjusted across treebanks per system, as
/// comparisons and notes.
fn significance(
    r: &mut Report,
    spec: &TableSpec,
    base: &str,
    systems: &[String],
    treebanks: &[Treebank],
) {
    let mut lines = Vec::new();
    for (k, name) in systems.iter().enumerate().skip(1) {
        let mut family: Vec<Comparison> = treebanks
            .iter()
            .filter_map(|t| against(t, base, name).map(|c| comparison(spec, t, k, c)))
            .collect();
        if family.is_empty() {
            continue;
        }
        let p: Vec<f64> = family.iter().map(|c| c.p_value).collect();
        for (c, adj) in family.iter_mut().zip(treeval_stats::holm(&p)) {
            c.p_adjusted = adj;
            c.significant = adj < spec.alpha;
        }
        lines.push(marks(name, &family, &spec.measure));
        mark_cells(r, &family, &spec.measure);
        r.comparisons.extend(family);
    }
    let untested: Vec<&str> = treebanks
        .iter()
        .filter(|t| {
            systems
                .iter()
                .skip(1)
                .all(|s| against(t, base, s).is_none())
        })
        .map(|t| t.name.as_str())
        .collect();
    if lines.is_empty() {
        r.notes.push(format!(
            "no significance marks: no test against the baseline {base} ({})",
            if spec.source == "reports" {
                "saved reports keep no per-sentence counts; tests are read from reports made with --test ar or bootstrap and two systems or more"
            } else {
                "it has no treebank in common with another system"
            }
        ));
        return;
    }
    let legend = format!(
        "† significantly different from the baseline {base} ({}), α = {} on p-values Holm–Bonferroni adjusted over each system's treebanks",
        spec.how, spec.alpha
    );
    r.notes.push(format!("{legend}:"));
    r.legend.push(legend);
    r.notes.extend(lines);
    if !untested.is_empty() {
        r.notes.push(format!(
            "not tested (no baseline or no other system there): {}",
            untested.join(", ")
        ));
    }
}

/// `†` after each cell whose difference from the baseline is significant (the notes say
/// which way and with which adjusted p-value).
fn mark_cells(r: &mut Report, family: &[Comparison], measure: &str) {
    let Some(section) = r.sections.first_mut() else {
        return;
    };
    for c in family.iter().filter(|c| c.significant) {
        let treebank = c.metric.strip_prefix(measure).unwrap_or(&c.metric).trim();
        let row = section.rows.iter_mut().find(|row| row.system == c.b);
        let cell = row.and_then(|row| row.cells.iter_mut().find(|x| x.measure == treebank));
        if let Some(cell) = cell {
            cell.mark = Some("†".into());
        }
    }
}

/// A saved comparison's difference, interval and level, when it has them.
fn difference_of(c: &Value) -> Option<(Option<f64>, Option<[f64; 2]>, f64)> {
    let level = c["ci_level"].as_f64()?;
    let ci = c["difference_ci"]
        .as_array()
        .and_then(|v| Some([v.first()?.as_f64()?, v.get(1)?.as_f64()?]));
    Some((c["difference"].as_f64(), ci, level))
}

/// The test between `base` and `name` on `t`, oriented base − name.
fn against(t: &Treebank, base: &str, name: &str) -> Option<Test> {
    t.tests.iter().find_map(|x| {
        if x.a == base && x.b == name {
            Some(x.clone())
        } else if x.a == name && x.b == base {
            let mut y = x.clone();
            std::mem::swap(&mut y.a, &mut y.b);
            y.statistic = -y.statistic;
            // B − A the other way round (0 − x: never −0)
            y.difference = y.difference.map(|(d, ci, level)| {
                (
                    d.map(|d| 0.0 - d),
                    ci.map(|[lo, hi]| [0.0 - hi, 0.0 - lo]),
                    level,
                )
            });
            Some(y)
        } else {
            None
        }
    })
}

/// A test as the report's comparison: `a` = the baseline (system 0), `b` = system `k`;
/// without a saved difference, the difference of the scores (B − A, `null` when either
/// is undefined) and no interval.
fn comparison(spec: &TableSpec, tb: &Treebank, k: usize, t: Test) -> Comparison {
    let score = |name: &str| tb.scores.iter().find(|s| s.system == name)?.value;
    let (difference, difference_ci, ci_level) = t.difference.unwrap_or_else(|| {
        let d = score(&t.b).zip(score(&t.a)).map(|(b, a)| b - a);
        (d, None, 0.95)
    });
    Comparison {
        a: 0,
        b: k,
        metric: format!("{} {}", spec.measure, tb.name),
        test: t.test,
        difference,
        difference_ci,
        ci_level,
        statistic: t.statistic,
        p_value: t.p_value,
        p_adjusted: t.p_value,
        significant: false,
        samples: t.samples,
        seed: t.seed,
        b_count: None,
        c_count: None,
        z: None,
        exact: t.exact,
        a_wins: None,
    }
}

/// One system's marks: `name: better on x (p 0.0012), worse on y (…); not on z`.
fn marks(name: &str, family: &[Comparison], measure: &str) -> String {
    let treebank = |c: &Comparison| {
        c.metric
            .strip_prefix(measure)
            .unwrap_or(&c.metric)
            .trim()
            .to_string()
    };
    let mut sig = Vec::new();
    let mut not = Vec::new();
    for c in family {
        if c.significant {
            // statistic = baseline − system
            let how = if c.statistic < 0.0 { "better" } else { "worse" };
            sig.push(format!(
                "{how} † on {} (adjusted p {:.4})",
                treebank(c),
                c.p_adjusted
            ));
        } else {
            not.push(format!("{} ({:.4})", treebank(c), c.p_adjusted));
        }
    }
    let mut s = format!("{name}: ");
    if sig.is_empty() {
        s.push_str(&format!(
            "no significant difference (adjusted p: {})",
            not.join(", ")
        ));
        return s;
    }
    s.push_str(&sig.join(", "));
    if !not.is_empty() {
        s.push_str(&format!("; not significant on {}", not.join(", ")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(system: &str, value: f64) -> Score {
        Score {
            system: system.into(),
            path: format!("{system}.conllu"),
            value: Some(value),
            counts: Vec::new(),
            ci: None,
            rank: Some(value),
        }
    }

    fn test(a: &str, b: &str, p: f64, statistic: f64) -> Test {
        Test {
            a: a.into(),
            b: b.into(),
            test: TestKind::Ar,
            statistic,
            p_value: p,
            samples: 100,
            seed: 1,
            exact: None,
            difference: None,
        }
    }

    fn treebank(name: &str, scores: Vec<Score>, tests: Vec<Test>) -> Treebank {
        Treebank {
            name: name.into(),
            gold: format!("{name}.conllu"),
            scores,
            tests,
            title: "labeled attachment score".into(),
            command: "deps".into(),
        }
    }

    fn spec(baseline: Option<&str>) -> TableSpec {
        TableSpec {
            measure: "LAS".into(),
            command: "deps".into(),
            baseline: baseline.map(str::to_string),
            alpha: 0.05,
            how: "ar".into(),
            signature: Vec::new(),
            source: "manifest".into(),
            rank_by: None,
            intervals: None,
            notes: Vec::new(),
        }
    }

    #[test]
    fn holm_across_treebanks_by_hand() {
        // p = 0.01, 0.04, 0.03 over three treebanks: sorted 0.01, 0.03, 0.04 →
        // 3·0.01 = 0.03; max(0.03, 2·0.03 = 0.06) = 0.06; max(0.06, 1·0.04) = 0.06
        let tbs = vec![
            treebank(
                "a",
                vec![score("base", 0.5), score("sys", 0.6)],
                vec![test("base", "sys", 0.01, -0.1)],
            ),
            treebank(
                "b",
                vec![score("base", 0.5), score("sys", 0.4)],
                // stored the other way round: sys − base
                vec![test("sys", "base", 0.04, -0.1)],
            ),
            treebank(
                "c",
                vec![score("base", 0.5), score("sys", 0.6)],
                vec![test("base", "sys", 0.03, -0.1)],
            ),
        ];
        let r = build(&spec(Some("base")), &tbs);
        let adj: Vec<(String, f64, bool)> = r
            .comparisons
            .iter()
            .map(|c| (c.metric.clone(), c.p_adjusted, c.significant))
            .collect();
        let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
        assert_eq!(adj.len(), 3);
        assert!(close(adj[0].1, 0.03) && adj[0].2, "{adj:?}");
        assert!(close(adj[1].1, 0.06) && !adj[1].2, "{adj:?}");
        assert!(close(adj[2].1, 0.06) && !adj[2].2, "{adj:?}");
        // oriented baseline − system
        assert!(close(r.comparisons[1].statistic, 0.1));
        // reports without differences: system − baseline of the scores, no interval
        let d = r.comparisons[1].difference.unwrap();
        assert!(close(d, -0.1) && r.comparisons[1].difference_ci.is_none());
        // a saved difference of the pair the other way round (a = sys: base − sys) is
        // turned round, its interval too
        let mut saved = test("sys", "base", 0.04, -0.1);
        saved.difference = Some((Some(0.1), Some([0.05, 0.2]), 0.9));
        let t = treebank(
            "b",
            vec![score("base", 0.5), score("sys", 0.4)],
            vec![saved],
        );
        let c = &build(&spec(Some("base")), &[t]).comparisons[0];
        assert_eq!((c.difference, c.ci_level), (Some(-0.1), 0.9));
        assert_eq!(c.difference_ci, Some([-0.2, -0.05]));
        assert!(r.notes.iter().any(|n| n.contains("better † on a")));
        // the significant cell (sys on a) and only it carries the mark
        let marks: Vec<(usize, String)> = r.sections[0]
            .rows
            .iter()
            .flat_map(|row| {
                let k = row.system;
                row.cells
                    .iter()
                    .filter_map(move |c| c.mark.as_ref().map(|_| (k, c.measure.clone())))
            })
            .collect();
        assert_eq!(marks, [(1, "a".to_owned())]);
    }

    #[test]
    fn the_macro_average_is_the_mean_and_a_missing_treebank_gives_none() {
        let tbs = vec![
            treebank("a", vec![score("x", 0.5), score("y", 0.7)], vec![]),
            treebank("b", vec![score("x", 0.8)], vec![]),
        ];
        let r = build(&spec(None), &tbs);
        let s = &r.sections[0];
        assert_eq!(s.columns, ["a", "b", MACRO]);
        let avg = s.rows[0].cells[2].value.unwrap();
        assert!((avg - 0.65).abs() < 1e-12);
        assert_eq!(s.rows[1].cells[1].value, None);
        assert_eq!(s.rows[1].cells[2].value, None);
        assert!(r.notes.iter().any(|n| n.contains("y has no LAS on b")));
    }

    #[test]
    fn rank_by_orders_rows_by_the_mean_and_keeps_ties_and_the_unranked_in_order() {
        let mut tbs = vec![
            treebank(
                "a",
                vec![
                    score("x", 0.5),
                    score("y", 0.7),
                    score("z", 0.6),
                    score("w", 0.7),
                ],
                vec![],
            ),
            treebank(
                "b",
                vec![
                    score("x", 0.5),
                    score("y", 0.5),
                    score("z", 0.6),
                    score("w", 0.5),
                ],
                vec![],
            ),
        ];
        // w has no ranking measure on b: unranked, last
        tbs[1].scores[3].rank = None;
        let spec = TableSpec {
            rank_by: Some("UAS".into()),
            ..spec(None)
        };
        let r = build(&spec, &tbs);
        let order: Vec<&str> = (r.sections[0].rows.iter())
            .map(|row| r.systems[row.system].name.as_str())
            .collect();
        // means: x 0.5, y 0.6, z 0.6 (a tie: y first, as it came first), w none
        assert_eq!(order, ["y", "z", "x", "w"]);
        let line = "Ranked by mean UAS over the 2 treebanks (each weighing the same, as macro-avg), best first, ties in the table's order: 1. y 60.00, 1. z 60.00, 3. x 50.00; not ranked (no UAS on every treebank): w";
        assert!(r.notes.iter().any(|n| n == line), "{:?}", r.notes);
        assert_eq!(r.legend, [line]);
    }
}
