//! `treeval brackets`: EVALB's bracket scores.

use std::io::Write;
use std::sync::Arc;

use treeval_formats::bracket::{BracketReader, Layout};
use treeval_metrics::brackets::{evaluate, Params};
use treeval_metrics::careful::{judge, read_judgments, CarefulOptions, Judged, PairCounts};
use treeval_report::brackets::{
    evalb_text, render_text, BracketSystem, BracketsReport, CarefulOut, CarefulPair, GoldFile,
};
use treeval_report::model::Warning;
use treeval_report::Signature;

use crate::args::{BracketsArgs, Format, LayoutArg};
use crate::output::{
    check_format, check_outputs, outputs, InputRef, Output, OutputKind, PerSentence, JUDGING_HEADER,
};
use crate::Failure;

/// The files the command reads, with their roles.
fn inputs(a: &BracketsArgs) -> Vec<InputRef<'_>> {
    let mut v = vec![("GOLD", a.gold.as_str())];
    v.extend(a.test_files.iter().map(|s| ("TEST", s.as_str())));
    v.extend(a.prm.iter().map(|s| ("--prm", s.as_str())));
    v.extend(a.judgments.iter().map(|s| ("--judgments", s.as_str())));
    v
}

fn reader(
    path: &str,
    layout: Layout,
) -> Result<BracketReader<treeval_formats::input::Input>, Failure> {
    let (input, _) =
        treeval_formats::input::open(path).map_err(|e| Failure::Eval(e.to_string()))?;
    Ok(BracketReader::new(input, path, layout))
}

/// Run the command.
pub fn run(a: &BracketsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let ins = inputs(a);
    let mut outs = outputs(&a.out);
    if let Some(path) = &a.export_for_judging {
        outs.push(Output {
            flag: "--export-for-judging",
            path,
            kind: OutputKind::Judging,
        });
    }
    check_format(
        "brackets",
        a.format,
        &[crate::args::Format::Text, crate::args::Format::Json],
        a.compat.is_some(),
    )?;
    check_outputs(&outs, &ins, a.out.force)?;
    let mut per_sentence = PerSentence::open(a.out.per_sentence.as_deref(), "brackets", &ins)?;
    let mut warnings: Vec<Warning> = Vec::new();
    let (params, prm_name) = match &a.prm {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                Failure::Eval(format!("{path}: cannot read the parameter file: {e}"))
            })?;
            let (p, w) = Params::parse(&text, &Arc::from(path.as_str()));
            if !a.quiet {
                for d in &w {
                    eprintln!("{d}");
                }
            }
            warnings.extend(w.iter().map(Warning::from));
            (p, path.clone())
        }
        None => (Params::collins(), "COLLINS.prm (built in)".to_owned()),
    };
    if a.gold == "-" && a.test_files.len() > 1 {
        return Err(Failure::Usage(
            "a gold file on standard input can be scored against one test file only".into(),
        ));
    }
    let mut params = params;
    params.count_wrapper = a.compat.is_some();
    if params.debug > 0 && !a.quiet {
        eprintln!(
            "warning: DEBUG {} is read but EVALB's per-sentence debug dump is not reproduced; --per-sentence (and JSON) give every sentence's counts",
            params.debug
        );
    }
    let layout = match (a.compat.is_some(), a.layout) {
        (true, _) | (false, LayoutArg::Line) => Layout::Line,
        (false, LayoutArg::Auto) => Layout::Auto,
        (false, LayoutArg::MultiLine) => Layout::MultiLine,
    };
    let careful_flags = a.labeled
        || a.remove_punct_forms
        || a.collapse_double
        || a.remove_trivial
        || a.judgments.is_some()
        || a.export_for_judging.is_some();
    if careful_flags && !a.careful {
        return Err(Failure::Usage(
            "--labeled, --remove-punct-forms, --collapse-double, --remove-trivial, --judgments and --export-for-judging belong to --careful".into(),
        ));
    }
    let judgments = match &a.judgments {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::Eval(format!("{path}: cannot read the judgments: {e}")))?;
            let (j, problems) = read_judgments(&text);
            if !problems.is_empty() {
                let lines: Vec<String> = problems
                    .iter()
                    .map(|(l, m)| format!("{path}:{l}:1: {m}"))
                    .collect();
                return Err(Failure::Eval(lines.join("\n")));
            }
            Some(j)
        }
        None => None,
    };
    let careful = a.careful.then(|| CarefulOptions {
        labeled: a.labeled,
        remove_tags: params.delete_label.clone(),
        remove_punct_forms: a.remove_punct_forms,
        collapse_double: a.collapse_double,
        remove_trivial: a.remove_trivial,
        keep_brackets: judgments.is_some(),
        export: a.export_for_judging.is_some(),
    });
    let (cfg, resample) = super::significance::resampling_config(
        &a.sig,
        a.test_files.len(),
        "test files",
        "needs paired binary decisions; for brackets use --test ar or --test bootstrap (and --careful for McNemar on reproduced treebank brackets)",
    )?;
    let mut rows_by_system: Vec<Vec<[f64; 3]>> = Vec::new();
    let mut systems = Vec::new();
    let mut reproduced = Vec::new();
    let mut gold_trees = 0;
    let mut text = String::new();
    for (k, path) in a.test_files.iter().enumerate() {
        let mut g = reader(&a.gold, layout)?;
        let mut t = reader(path, layout)?;
        let r = evaluate(&mut g, &mut t, &params, careful.as_ref())
            .map_err(|e| Failure::Eval(e.to_string()))?;
        gold_trees = r.gold_trees;
        if !a.quiet || a.compat.is_some() {
            // EVALB's error lines, then where each malformed tree went wrong
            for (id, m) in &r.errors {
                eprintln!("{id} : {m}");
            }
        }
        if !a.quiet {
            for d in &r.problems {
                eprintln!("{d}");
            }
            if let Some(m) = &r.stopped {
                eprintln!("{path}: {m}");
            }
        }
        if a.compat.is_some() {
            text.push_str(&evalb_text(&r, params.cutoff_len));
        }
        warnings.extend(r.problems.iter().map(Warning::from));
        if resample {
            rows_by_system.push(
                r.rows
                    .iter()
                    .map(|x| {
                        if x.status == treeval_metrics::brackets::Status::Ok {
                            [x.matched as f64, x.gold as f64, x.test as f64]
                        } else {
                            [0.0; 3]
                        }
                    })
                    .collect(),
            );
        }
        if per_sentence.is_on() {
            for row in &r.rows {
                per_sentence.write(&serde_json::json!({"system": k, "sentence": row}));
            }
        }
        let mut system = BracketSystem::new(path, &r, false);
        if let Some(c) = &r.careful {
            let mut judged = None;
            let mut unjudged = None;
            if let Some(j) = &judgments {
                let (mut x, mut u) = (Judged::default(), 0u64);
                for (id, brackets, classes) in &c.brackets {
                    judge(j, *id, brackets, classes, &mut x, &mut u);
                }
                judged = Some(x);
                unjudged = Some(u);
            }
            if k == 0 {
                if let Some(out) = &a.export_for_judging {
                    let mut body = format!("{JUDGING_HEADER}\n");
                    for line in &c.export {
                        body.push_str(line);
                        body.push('\n');
                    }
                    std::fs::write(out, body)
                        .map_err(|e| Failure::Eval(format!("{out}: cannot write: {e}")))?;
                }
            }
            system.careful = Some(CarefulOut {
                counts: c.counts,
                derived: c.counts.derived(judged.as_ref()),
                judged,
                unjudged,
            });
            reproduced.push(c.reproduced.clone());
        }
        systems.push(system);
    }
    // every pair of systems, over the sentences both scored
    let mut careful_pairs = Vec::new();
    for i in 0..reproduced.len() {
        for j in i + 1..reproduced.len() {
            let mut pc = PairCounts::default();
            let other: std::collections::HashMap<u64, &Vec<bool>> =
                reproduced[j].iter().map(|(id, v)| (*id, v)).collect();
            for (id, x) in &reproduced[i] {
                if let Some(y) = other.get(id) {
                    pc.add(x, y);
                }
            }
            careful_pairs.push(CarefulPair {
                a: i,
                b: j,
                real_test_size: pc.real_test_size(),
                counts: pc,
            });
        }
    }
    per_sentence.finish()?;
    let (mut comparisons, mut rankings) = (Vec::new(), Vec::new());
    if resample {
        // sentences pair up by position; a shorter run is padded with unscored sentences
        let n = rows_by_system.iter().map(Vec::len).max().unwrap_or(0);
        for rows in &mut rows_by_system {
            rows.resize(n, [0.0; 3]);
        }
        let f =
            |s: &[f64]| -> Option<f64> { (s[1] + s[2] > 0.0).then(|| 2.0 * s[0] / (s[1] + s[2])) };
        let recall = |s: &[f64]| -> Option<f64> { (s[1] > 0.0).then(|| s[0] / s[1]) };
        let precision = |s: &[f64]| -> Option<f64> { (s[2] > 0.0).then(|| s[0] / s[2]) };
        let tables = |_: &str| -> Vec<treeval_stats::Samples> {
            rows_by_system
                .iter()
                .map(|rows| {
                    let mut t = treeval_stats::Samples::new(3);
                    for r in rows {
                        t.push(r);
                    }
                    t
                })
                .collect()
        };
        let statistic = |m: &str| -> &dyn treeval_stats::Statistic {
            match m {
                "recall" => &recall,
                "precision" => &precision,
                _ => &f,
            }
        };
        let ci;
        (comparisons, rankings, ci) = super::significance::test_named_metrics(
            &a.sig,
            &cfg,
            a.quiet,
            &a.test_metrics,
            &tables,
            &statistic,
        );
        for (system, ci) in systems.iter_mut().zip(ci) {
            system.ci = ci;
        }
    }
    if a.compat.is_none() {
        let mut signature = Signature::new(
            "brackets",
            &[
                ("prm", prm_name),
                ("labeled", u8::from(params.labeled).to_string()),
                ("cutoff", params.cutoff_len.to_string()),
                ("layout", format!("{:?}", layout).to_lowercase()),
                ("wrapper", "ignored".into()),
            ],
        );
        if let Some(c) = &careful {
            let mut prep = vec![if c.labeled { "labeled" } else { "unlabeled" }];
            if c.remove_punct_forms {
                prep.push("punct-forms");
            }
            if c.collapse_double {
                prep.push("collapse-double");
            }
            if c.remove_trivial {
                prep.push("remove-trivial");
            }
            signature.push("careful", prep.join("+"));
        }
        if resample {
            super::significance::sign(&a.sig, &cfg, &mut signature);
            signature.push("test-metrics", a.test_metrics.join(","));
        }
        let report = BracketsReport {
            schema: treeval_report::SCHEMA,
            command: "brackets".into(),
            signature,
            gold: GoldFile {
                path: a.gold.clone(),
                trees: gold_trees,
            },
            params,
            systems,
            careful_pairs,
            comparisons,
            rankings,
            warnings,
        };
        text = match a.format {
            Format::Json => {
                let mut s = serde_json::to_string_pretty(&report)
                    .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
                s.push('\n');
                s
            }
            _ => render_text(&report),
        };
    }
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}
