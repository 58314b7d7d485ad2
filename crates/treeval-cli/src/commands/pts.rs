//! `treeval pts`.

use std::io::Write;

use treeval_formats::align::{read_alignment_path, AlignOptions};
use treeval_formats::ReaderBuilder;
use treeval_metrics::align::{aer_of, count_files, pair_sentences, sum, AlignCounts};
use treeval_metrics::deps::{evaluate, DepsResult, Input};
use treeval_metrics::pts::{pts, pts_of_sums, row, Weights, COLUMNS};
use treeval_metrics::{AttachmentCounts, DepsOptions, LabelMode};
use treeval_report::align::AlignCountsOut;
use treeval_report::model::{Metric, Warning};
use treeval_report::pts::{render, PtsAlignment, PtsConventions, PtsGold, PtsReport, PtsSystem};
use treeval_report::render::OutputFormat;
use treeval_stats::compare::{compare, ratio, MetricTables, TestKind};
use treeval_stats::Samples;

use crate::args::{Format, PtsArgs, TestArg};
use crate::output::{check_format, check_outputs, outputs, InputRef, PerSentence};
use crate::Failure;

fn parses(gold: &str, systems: &[String], opts: &DepsOptions) -> Result<DepsResult, Failure> {
    let mut b = ReaderBuilder::new();
    b.validate_deps(false);
    let input = |p: &str| Input {
        path: p.to_owned(),
        builder: b.clone(),
    };
    let sys: Vec<Input> = systems.iter().map(|p| input(p)).collect();
    evaluate(&input(gold), &sys, opts, |_, _, _, _| {}).map_err(|e| Failure::Eval(e.to_string()))
}

/// Run the command, writing the report to `out`.
pub fn run(a: &PtsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let ins: Vec<InputRef<'_>> = [
        ("--gold-a", a.gold_a.as_str()),
        ("--gold-b", a.gold_b.as_str()),
        ("--gold-align", a.gold_align.as_str()),
    ]
    .into_iter()
    .chain(a.sys_a.iter().map(|p| ("--sys-a", p.as_str())))
    .chain(a.sys_b.iter().map(|p| ("--sys-b", p.as_str())))
    .chain(a.sys_align.iter().map(|p| ("--sys-align", p.as_str())))
    .collect();
    check_format(
        "pts",
        a.format,
        &[crate::args::Format::Text, crate::args::Format::Json],
        false,
    )?;
    check_outputs(&outputs(&a.out), &ins, a.out.force)?;
    let n = a.sys_a.len();
    if a.sys_b.len() != n || a.sys_align.len() != n {
        return Err(Failure::Usage(format!(
            "give as many --sys-b and --sys-align as --sys-a (found {}, {} and {})",
            n,
            a.sys_b.len(),
            a.sys_align.len()
        )));
    }
    if a.weights.iter().any(|w| *w < 0.0) || a.weights.iter().sum::<f64>() <= 0.0 {
        return Err(Failure::Usage(
            "--weights must be non-negative and not all 0".into(),
        ));
    }
    if !a.sig.tests.is_empty() && n < 2 {
        return Err(Failure::Usage(
            "--test compares systems: give at least two systems".into(),
        ));
    }
    let w = Weights {
        a: a.weights[0],
        b: a.weights[1],
        ab: a.weights[2],
    };
    let opts = DepsOptions {
        punct: a.punct.clone(),
        labels: LabelMode::Full,
        keep_sentences: true,
        pair_decisions: a.sig.tests.contains(&TestArg::Mcnemar),
        ..DepsOptions::default()
    };
    let side_a = parses(&a.gold_a, &a.sys_a, &opts)?;
    let side_b = parses(&a.gold_b, &a.sys_b, &opts)?;
    let pairs = side_a.gold.sentences;
    if side_b.gold.sentences != pairs {
        return Err(Failure::Eval(format!(
            "{} has {} sentences but {} has {}: the two sides must pair sentence by sentence",
            a.gold_a, pairs, a.gold_b, side_b.gold.sentences
        )));
    }
    let gold_align = read_alignment_path(&a.gold_align, AlignOptions::default())
        .map_err(|e| Failure::Eval(e.to_string()))?;
    let mut warnings: Vec<Warning> = side_a
        .warnings
        .iter()
        .chain(side_b.warnings.iter())
        .map(Warning::from)
        .collect();
    let mut sys_aligns = Vec::new();
    let mut errors = Vec::new();
    for p in &a.sys_align {
        match read_alignment_path(
            p,
            AlignOptions {
                reverse: a.reverse,
                ..AlignOptions::default()
            },
        ) {
            Ok(h) => sys_aligns.push(h),
            Err(e) => errors.push(e.to_string()),
        }
    }
    if !errors.is_empty() {
        return Err(Failure::Eval(errors.join("\n")));
    }
    // the parses fix the number of sentence pairs; every alignment must pair with them
    let source = format!("the parses {} and {}", a.gold_a, a.gold_b);
    let pairing = pair_sentences(
        &gold_align,
        &sys_aligns.iter().collect::<Vec<_>>(),
        Some((pairs, &source)),
    );
    if !pairing.errors.is_empty() {
        let all: Vec<String> = pairing.errors.iter().map(|p| p.to_string()).collect();
        return Err(Failure::Eval(all.join("\n")));
    }
    for f in std::iter::once(&gold_align).chain(&sys_aligns) {
        warnings.extend(f.warnings.iter().map(Warning::from));
    }
    for p in &pairing.warnings {
        warnings.push(Warning {
            position: p.path.clone(),
            message: p.message.clone(),
            hint: p.hint.clone(),
        });
    }
    // rows for the sentence pairs, and for any further sentence number (none: the pairing
    // checked that every alignment stays within the pairs)
    let numbers: Vec<u64> = (1..=pairs).collect();
    let aligned: Vec<Vec<AlignCounts>> = sys_aligns
        .iter()
        .map(|h| count_files(&gold_align, h, false, &numbers))
        .collect();

    if a.out.per_sentence.is_some() {
        let mut sink = PerSentence::open(a.out.per_sentence.as_deref(), "pts", &ins)?;
        for (k, al_rows) in aligned.iter().enumerate() {
            let rows = side_a.sentences[k]
                .iter()
                .zip(&side_b.sentences[k])
                .zip(al_rows);
            for (i, ((ca, cb), cal)) in rows.enumerate() {
                sink.write(&serde_json::json!({
                    "system": k, "sentence": i + 1, "a": ca, "b": cb, "alignment": cal,
                }));
            }
        }
        sink.finish()?;
    }
    let mut systems = Vec::new();
    let mut tables: Vec<Samples> = Vec::new();
    for (k, al_rows) in aligned.iter().enumerate() {
        let (ta, tb) = (
            &side_a.systems[k].observer.totals,
            &side_b.systems[k].observer.totals,
        );
        let al = sum(al_rows);
        let aer = aer_of(&al.aer_row());
        let uas = |t: &AttachmentCounts| Metric::new(t.uas, t.words);
        let (ua, ub) = (uas(ta), uas(tb));
        systems.push(PtsSystem {
            parse_a: a.sys_a[k].clone(),
            parse_b: a.sys_b[k].clone(),
            alignment_file: a.sys_align[k].clone(),
            UAS_a: ua,
            UAS_b: ub,
            alignment: PtsAlignment {
                aer,
                counts: AlignCountsOut {
                    A: al.a,
                    S: al.s,
                    P: al.p,
                    A_and_S: al.a_and_s,
                    A_and_P: al.a_and_p,
                },
            },
            PTS: pts(ua.score, ub.score, aer, w),
        });
        let mut t = Samples::new(COLUMNS);
        for ((ca, cb), cal) in side_a.sentences[k]
            .iter()
            .zip(&side_b.sentences[k])
            .zip(al_rows)
        {
            t.push(&row(ca, cb, cal));
        }
        tables.push(t);
    }

    let cfg = super::significance::config(&a.sig);
    let mut signature = treeval_report::Signature::new(
        "pts",
        &[
            ("punct", a.punct.name()),
            ("weights", format!("{},{},{}", w.a, w.b, w.ab)),
        ],
    );
    let (mut comparisons, mut rankings) = (Vec::new(), Vec::new());
    if !cfg.tests.is_empty() {
        let cols = |c: &[usize]| -> Vec<Samples> {
            tables
                .iter()
                .map(|t| {
                    let mut s = Samples::new(c.len());
                    for i in 0..t.len() {
                        let r = t.row(i);
                        s.push(&c.iter().map(|&j| r[j]).collect::<Vec<_>>());
                    }
                    s
                })
                .collect()
        };
        let pair = |d: &DepsResult, x: usize, y: usize| {
            d.pairs.get(d.pair_index(x, y)).map_or((0, 0), |p| p.uas)
        };
        let dec_a = |x: usize, y: usize| pair(&side_a, x, y);
        let dec_b = |x: usize, y: usize| pair(&side_b, x, y);
        let pts_stat = move |s: &[f64]| pts_of_sums(s, w);
        let with_decisions = !side_a.pairs.is_empty();
        let metrics = vec![
            MetricTables {
                name: "UAS-a".into(),
                tables: cols(&[0, 1]),
                statistic: &ratio,
                decisions: with_decisions.then_some(&dec_a as &dyn Fn(usize, usize) -> (u64, u64)),
                lower_is_better: false,
            },
            MetricTables {
                name: "UAS-b".into(),
                tables: cols(&[2, 3]),
                statistic: &ratio,
                decisions: with_decisions.then_some(&dec_b as &dyn Fn(usize, usize) -> (u64, u64)),
                lower_is_better: false,
            },
            MetricTables {
                name: "AER".into(),
                tables: cols(&[4, 5, 6, 7]),
                statistic: &aer_of,
                decisions: None,
                lower_is_better: false,
            },
            MetricTables {
                name: "PTS".into(),
                tables: tables.clone(),
                statistic: &pts_stat,
                decisions: None,
                lower_is_better: false,
            },
        ];
        let bar = super::significance::Progress::new(a.quiet);
        (comparisons, rankings) = compare(&metrics, &cfg, &|l, d, t| bar.update(l, d, t));
        bar.finish();
        super::significance::sign(&a.sig, &cfg, &mut signature);
        if cfg.tests.contains(&TestKind::Mcnemar) {
            warnings.push(Warning {
                position: String::new(),
                message: "McNemar's test applies to the UAS components only; AER and PTS use the resampling tests".into(),
                hint: None,
            });
        }
    }
    if !a.quiet {
        for w in &warnings {
            eprintln!("{}", super::significance::warning_line(w));
        }
    }
    let report = PtsReport {
        schema: treeval_report::SCHEMA,
        command: "pts".into(),
        signature,
        conventions: PtsConventions {
            punct: a.punct.name(),
            labels: "full".into(),
            weights: [w.a, w.b, w.ab],
        },
        gold: PtsGold {
            parse_a: a.gold_a.clone(),
            parse_b: a.gold_b.clone(),
            alignment: a.gold_align.clone(),
            sentences: pairs,
        },
        systems,
        comparisons,
        rankings,
        warnings,
    };
    let text = render(
        &report,
        if a.format == Format::Json {
            OutputFormat::Json
        } else {
            OutputFormat::Text
        },
    );
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}
