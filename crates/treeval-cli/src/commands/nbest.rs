//! `treeval nbest`: n-best evaluation (van Noord et al. 2002). Every candidate of every
//! sentence is scored against gold with the `deps` machinery; per sentence the first,
//! best, worst and chosen candidates are picked; the report shows each pick's scores,
//! exact and phi, and tests chosen against first. `--compat alpino` prints what Alpino's
//! `evaluate.pl -x` prints; `--alpino LINES` reads evaluate.pl's own input.

use std::io::Write;

use serde_json::json;
use treeval_formats::nbest::alpino::{read_alpino, AlpinoLine};
use treeval_formats::nbest::{NbestPairing, NbestReader};
use treeval_formats::{Diagnostic, ReaderBuilder};
use treeval_metrics::nbest::{
    sentence, CandidateScore, Metric, Pick, Scorer, SentenceResult, Triples,
};
use treeval_metrics::select::{Selection, SelectionCounts};
use treeval_metrics::{DepsOptions, LabelMode, PunctPolicy};
use treeval_report::driver::Tested;
use treeval_report::model::Warning;
use treeval_report::nbest::{system_index, NbestFile, NbestIn};
use treeval_report::records::Record;
use treeval_stats::compare::{Comparison, Ranking};

use super::ud::print_warnings;
use crate::args::{NbestArgs, NbestCompat, NbestMetric, Profile, TestArg};
use crate::output::{
    check_outputs, check_report, create, outputs, Capabilities, InputRef, Output, OutputKind,
    PerSentence, TRAINING_SCHEMA,
};
use crate::Failure;

/// Everything the evaluation gives.
#[derive(Default)]
struct Evaluated {
    files: Vec<NbestFile>,
    /// Per file, the candidates as evaluate.pl lines (kept for `--compat alpino`).
    alpino: Vec<Vec<Vec<AlpinoLine>>>,
    /// Per file and metric: scored words right in first only, in chosen only (McNemar);
    /// `None` for evaluate.pl's lines, which have no words.
    discordant: Option<Vec<[(u64, u64); 4]>>,
    warnings: Vec<Diagnostic>,
    /// The sentence selection and what it kept of the gold (the same for every file).
    selected: Option<(Selection, SelectionCounts)>,
}

/// Run the command.
pub fn run(a: &NbestArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let compat = a.compat == Some(NbestCompat::Alpino);
    let opts = validate(a, compat)?;
    let ins = inputs(a);
    check_outputs(&all_outputs(a), &ins, a.report.out.force)?;
    let mut sink = Sink::open(a, &ins)?;
    let e = match &a.alpino {
        Some(lines) => from_lines(lines, &mut sink, compat)?,
        None => from_conllu(a, &opts, &mut sink, compat)?,
    };
    sink.finish()?;
    if compat {
        let (text, died) = treeval_report::compat::alpino::evaluate_x(&e.alpino[0]);
        out.write_all(text.as_bytes()).map_err(Failure::Io)?;
        out.flush().map_err(Failure::Io)?;
        return match died {
            Some(why) => Err(Failure::Eval(why)),
            None => Ok(()),
        };
    }
    check_scored(a, &e)?;
    report(a, &opts, &e, out)
}

/// The rule of [`crate::select::nothing_scored`]: an n-best input without a sentence
/// (evaluate.pl's empty input) scores nothing (`--compat alpino` prints what
/// evaluate.pl prints).
fn check_scored(a: &NbestArgs, e: &Evaluated) -> Result<(), Failure> {
    let each = e.files.iter().map(|f| {
        let why = move || crate::select::Nothing {
            why: format!("{} holds no sentence with candidates", f.path),
            lift: "give evaluate.pl's lines of a run (--alpino), or the n-best lists of the gold file's sentences".into(),
        };
        (f.gaps.len() as u64, Box::new(why) as Box<dyn FnOnce() -> _>)
    });
    let (sel, counts) = e.selected.clone().unwrap_or_default();
    crate::select::nothing_scored(each, (&sel, &counts), &a.report.out)
}

/// The gold and n-best inputs with their roles.
fn inputs(a: &NbestArgs) -> Vec<InputRef<'_>> {
    if let Some(l) = &a.alpino {
        return vec![("--alpino", l.as_str())];
    }
    a.files
        .iter()
        .enumerate()
        .map(|(i, f)| (if i == 0 { "GOLD" } else { "NBEST" }, f.as_str()))
        .collect()
}

/// `--per-sentence` and `--export-training`.
fn all_outputs(a: &NbestArgs) -> Vec<Output<'_>> {
    let mut o = outputs(&a.report.out);
    if let Some(path) = &a.export_training {
        o.push(Output {
            flag: "--export-training",
            path,
            kind: OutputKind::Training,
        });
    }
    o
}

/// Usage checks; the `deps` options of the candidates' scores.
fn validate(a: &NbestArgs, compat: bool) -> Result<DepsOptions, Failure> {
    let usage = |m: &str| Err(Failure::Usage(m.into()));
    match (&a.alpino, a.files.len()) {
        (Some(_), n) if n > 0 => {
            return usage("--alpino LINES reads evaluate.pl's lines, which carry their own counts: give no GOLD or NBEST file with it")
        }
        (None, n) if n < 2 => return usage("give the GOLD file and at least one NBEST file"),
        (None, n) if compat && n > 2 => {
            return usage("--compat alpino prints evaluate.pl's output for one n-best file: give GOLD and one NBEST")
        }
        _ => {}
    }
    let can = Capabilities {
        errors: false,
        no_selection: (compat || a.alpino.is_some()).then_some("--sent-id, --min-len and --max-len select gold sentences of CoNLL-U n-best lists: evaluate.pl's lines have no words, and --compat alpino prints what evaluate.pl prints for every sentence"),
        ..Capabilities::of("nbest")
    };
    check_report(&can, &a.report, compat)?;
    let sig = &a.report.sig;
    if a.alpino.is_some() && a.export_training.is_some() && a.metric != NbestMetric::Ca {
        return usage(
            "evaluate.pl's lines give CA only: --export-training with --alpino takes --metric ca",
        );
    }
    if a.alpino.is_some() && sig.tests.contains(&TestArg::Mcnemar) {
        return usage("--test mcnemar needs per-word decisions, which evaluate.pl's lines do not have; use --test ar or --test bootstrap");
    }
    let (punct, labels, _) = super::deps::conventions(&a.conventions, Profile::Conll07);
    if compat && (punct != PunctPolicy::Include || labels != LabelMode::Full) {
        return usage("--compat alpino counts evaluate.pl's overlap as the LAS count of every word with the full DEPREL: drop --profile conllx, --punct and --labels");
    }
    Ok(DepsOptions {
        punct,
        labels,
        ..DepsOptions::default()
    })
}

/// The files written besides the report, sentence by sentence.
struct Sink {
    per_sentence: PerSentence,
    /// Reading evaluate.pl's lines: CA only.
    alpino: bool,
    training: Option<(std::io::BufWriter<std::fs::File>, Metric, String)>,
    error: Option<std::io::Error>,
}

impl Sink {
    fn open(a: &NbestArgs, ins: &[InputRef<'_>]) -> Result<Self, Failure> {
        let per_sentence = PerSentence::open(a.report.out.per_sentence.as_deref(), "nbest", ins)?;
        let mut error = None;
        let training = match &a.export_training {
            None => None,
            Some(path) => {
                let mut w = create(&Output {
                    flag: "--export-training",
                    path,
                    kind: OutputKind::Training,
                })?;
                let metric = match a.metric {
                    NbestMetric::Ca => Metric::Ca,
                    NbestMetric::Las => Metric::Las,
                    NbestMetric::Uas => Metric::Uas,
                    NbestMetric::La => Metric::La,
                };
                let header = json!({
                    "schema": TRAINING_SCHEMA,
                    "command": "nbest",
                    "metric": metric.name(),
                    "target": "score / Σ score of the sentence's candidates (equal where all are 0)",
                    "inputs": ins.iter().map(|(role, path)| json!({"role": role, "path": path})).collect::<Vec<_>>(),
                });
                if let Err(e) = writeln!(w, "{header}") {
                    error = Some(e);
                }
                Some((w, metric, path.clone()))
            }
        };
        Ok(Sink {
            per_sentence,
            alpino: a.alpino.is_some(),
            training,
            error,
        })
    }

    /// One sentence's per-sentence records, one per pick (system): the pick's counts, the
    /// rank of the candidate it picked per metric, and every candidate's counts.
    fn per_sentence_records(
        &mut self,
        file: usize,
        index: usize,
        sent_id: &str,
        cands: &[CandidateScore],
        r: &SentenceResult,
    ) {
        let alpino = self.alpino;
        let scores: Vec<_> = cands
            .iter()
            .map(|c| {
                if alpino {
                    json!({"rank": c.rank, "weight": c.weight, "triples": c.triples})
                } else {
                    json!({"rank": c.rank, "weight": c.weight, "LAS": c.las, "UAS": c.uas, "LA": c.la, "words": c.words, "triples": c.triples})
                }
            })
            .collect();
        for (j, p) in Pick::ALL.into_iter().enumerate() {
            let ranks: serde_json::Map<_, _> = (Metric::ALL.into_iter().enumerate())
                .filter(|(_, m)| !alpino || *m == Metric::Ca)
                .map(|(k, m)| (m.name().to_string(), json!(r.index[k][j] + 1)))
                .collect();
            let record = Record::of(index as u64 + 1, system_index(file, p), &r.picks[j])
                .sent_id(Some(sent_id))
                .extra("pick", p.name())
                .extra("ranks", ranks)
                .extra("candidates", &scores);
            self.per_sentence.write(&record);
        }
    }

    /// One sentence: its per-sentence records and its candidates' training rows.
    fn sentence(&mut self, file: usize, index: usize, sent_id: &str, cands: &[CandidateScore]) {
        let r = sentence(cands);
        if self.per_sentence.is_on() {
            self.per_sentence_records(file, index, sent_id, cands, &r);
        }
        let Some((w, metric, _)) = self.training.as_mut() else {
            return;
        };
        let scores: Vec<Option<f64>> = cands
            .iter()
            .map(|c| metric.sentence_score(metric.triples(c)))
            .collect();
        let targets = treeval_metrics::nbest::targets(&scores);
        for ((c, s), q) in cands.iter().zip(&scores).zip(targets) {
            let row = json!({"file": file, "sentence": index + 1, "sent_id": sent_id, "rank": c.rank, "features": features(c), "score": s, "target": q});
            if self.error.is_none() {
                if let Err(e) = writeln!(w, "{row}") {
                    self.error = Some(e);
                }
            }
        }
    }

    fn finish(self) -> Result<(), Failure> {
        self.per_sentence.finish()?;
        let Some((mut w, _, path)) = self.training else {
            return Ok(());
        };
        match self.error.or_else(|| w.flush().err()) {
            None => Ok(()),
            Some(e) => Err(Failure::Eval(format!(
                "{path}: cannot write the --export-training file: {e}"
            ))),
        }
    }
}

/// A candidate's features in the training set: the parser score. (The reranker's tree
/// features are added here.)
fn features(c: &CandidateScore) -> serde_json::Value {
    json!({"parser_score": c.weight})
}

/// Score every n-best file against gold.
fn from_conllu(
    a: &NbestArgs,
    opts: &DepsOptions,
    sink: &mut Sink,
    compat: bool,
) -> Result<Evaluated, Failure> {
    let mut e = Evaluated {
        discordant: Some(Vec::new()),
        ..Evaluated::default()
    };
    let gold = &a.files[0];
    let sel = crate::select::selection(&a.report.select)?;
    for (k, path) in a.files[1..].iter().enumerate() {
        let mut selected = sel.counts();
        let open = |p: &str| {
            ReaderBuilder::new()
                .from_path(p)
                .map_err(|e| Failure::Eval(e.to_string()))
        };
        let mut model = super::rerank::model_scorer(a.model.as_deref())?;
        let mut pairs = NbestPairing::new(open(gold)?, NbestReader::new(open(path)?));
        let mut scorer = Scorer::new(opts);
        let mut file = NbestFile::new(path);
        let mut lines = Vec::new();
        let mut disc = [(0, 0); 4];
        let mut cands = Vec::new();
        let mut index = 0;
        while pairs
            .next_sentence()
            .map_err(|e| Failure::Eval(e.to_string()))?
        {
            let (g, gp, np) = (
                &pairs.gold_sentence,
                pairs.gold_path().clone(),
                pairs.nbest_path().clone(),
            );
            scorer
                .score(g, &gp, &pairs.candidates, &np, &mut cands)
                .map_err(|e| Failure::Eval(e.to_string()))?;
            let n = g.len() as u64;
            if !sel.tally(&mut selected, g.sent_id(), g.index(), n, n) {
                index += 1;
                continue;
            }
            super::rerank::reweight(model.as_mut(), &pairs.candidates, &mut cands);
            let r = sentence(&cands);
            file.push(&r);
            add_discordant(&mut disc, &scorer, r.index[0][3]);
            let key = g
                .sent_id()
                .map_or_else(|| (index + 1).to_string(), str::to_owned);
            if compat {
                lines.push(cands.iter().map(|c| alpino_line(&key, c)).collect());
            }
            sink.sentence(k, index, &key, &cands);
            index += 1;
        }
        if index == 0 {
            // as `deps`: no score over nothing
            return Err(Failure::Eval(format!(
                "{gold}:1:1: expected at least one word in the gold file, found none"
            )));
        }
        e.warnings.extend(pairs.warnings().cloned());
        e.warnings.extend(scorer.gold_warnings().0.iter().cloned());
        e.warnings
            .extend(scorer.observer().examples.iter().cloned());
        e.warnings.extend(tree_summary(&scorer, pairs.nbest_path()));
        e.files.push(file);
        e.alpino.push(lines);
        if let Some(d) = e.discordant.as_mut() {
            d.push(disc);
        }
        e.selected.get_or_insert_with(|| (sel.clone(), selected));
    }
    Ok(e)
}

/// Add the sentence's words right in first only and in `chosen` only, per metric (LAS,
/// UAS, LA, CA), for McNemar.
fn add_discordant(disc: &mut [(u64, u64); 4], scorer: &Scorer, chosen: usize) {
    let kinds = [(true, true), (true, false), (false, true), (true, true)];
    for (d, (head, label)) in disc.iter_mut().zip(kinds) {
        let (x, y) = scorer.discordant(0, chosen, head, label);
        d.0 += x;
        d.1 += y;
    }
}

/// How many candidate trees were malformed (and gold trees, beyond the examples shown):
/// they are scored word by word, as `deps` scores them, and counted here.
fn tree_summary(scorer: &Scorer, path: &std::sync::Arc<str>) -> Vec<Diagnostic> {
    use treeval_formats::{ErrorKind, Position};
    let mut out = Vec::new();
    let bad = scorer.observer().validity.sentences_with_problems;
    if bad > 0 {
        out.push(Diagnostic::warning(
            Position::new(path.clone(), 0, 0),
            ErrorKind::Other(format!("expected every candidate to be a tree, found {bad} malformed candidate tree(s) (HEAD out of range or '_', cycles, no or several roots); each is scored word by word")),
        ));
    }
    let (shown, gold) = scorer.gold_warnings();
    if gold > shown.len() as u64 {
        out.push(Diagnostic::warning(
            Position::new(path.clone(), 0, 0),
            ErrorKind::Other(format!("{gold} malformed gold tree(s) in all ({} shown); their words are scored one by one", shown.len())),
        ));
    }
    out
}

/// A candidate as an evaluate.pl line (overlap, gold and candidate triples, cgn).
fn alpino_line(key: &str, c: &CandidateScore) -> AlpinoLine {
    AlpinoLine {
        key: key.to_owned(),
        overlap: c.triples.overlap as f64,
        correct: c.triples.gold as f64,
        system: c.triples.system as f64,
        cgn: c.cgn as f64,
        cgn_total: c.cgn_total as f64,
        weight: c.weight,
        line: 0,
    }
}

/// A whole number of evaluate.pl's counts, or an error at its line.
fn whole(path: &str, l: &AlpinoLine, x: f64, what: &str) -> Result<u64, Failure> {
    if x >= 0.0 && x.fract() == 0.0 && x < 9.0e15 {
        Ok(x as u64)
    } else {
        Err(Failure::Eval(format!(
            "{path}:{}:1: expected {what} to be a whole number of triples, found {x}\n  hint: the report counts triples; --compat alpino reads any number as evaluate.pl does",
            l.line
        )))
    }
}

/// Read evaluate.pl's lines.
fn from_lines(path: &str, sink: &mut Sink, compat: bool) -> Result<Evaluated, Failure> {
    let (rdr, _) = treeval_formats::input::open(path).map_err(|e| Failure::Eval(e.to_string()))?;
    let sentences = read_alpino(path, rdr).map_err(|e| Failure::Eval(e.to_string()))?;
    let mut file = NbestFile::new(path);
    if !compat {
        for (i, s) in sentences.iter().enumerate() {
            let mut cands = Vec::with_capacity(s.len());
            for (k, l) in s.iter().enumerate() {
                cands.push(CandidateScore {
                    rank: k as u32 + 1,
                    weight: l.weight,
                    triples: Triples {
                        overlap: whole(path, l, l.overlap, "OVERLAP")?,
                        gold: whole(path, l, l.correct, "CORRECT")?,
                        system: whole(path, l, l.system, "SYSTEM")?,
                    },
                    ..CandidateScore::default()
                });
            }
            file.push(&sentence(&cands));
            sink.sentence(0, i, &s[0].key, &cands);
        }
    }
    Ok(Evaluated {
        files: vec![file],
        alpino: vec![sentences],
        discordant: None,
        warnings: Vec::new(),
        selected: None,
    })
}

/// The report: sections, tests of chosen against first, signature; written in `--format`.
fn report(
    a: &NbestArgs,
    opts: &DepsOptions,
    e: &Evaluated,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let warnings: Vec<Warning> = print_warnings(&e.warnings, a.report.quiet);
    let metrics: Vec<Metric> = if a.alpino.is_some() {
        vec![Metric::Ca]
    } else {
        Metric::ALL.to_vec()
    };
    let punct = opts.punct.name();
    let input = NbestIn {
        gold: a.alpino.is_none().then(|| a.files[0].as_str()),
        files: &e.files,
        metrics: &metrics,
        conventions: a
            .alpino
            .is_none()
            .then_some((punct.as_str(), opts.labels.name())),
        weight: if a.alpino.is_some() {
            "alpino-weight"
        } else if a.model.is_some() {
            "rerank-model"
        } else {
            "parser_score"
        },
        format: if a.alpino.is_some() {
            "alpino"
        } else {
            "conllu"
        },
    };
    let ci = super::significance::intervals(&a.report.sig);
    let mut report = treeval_report::nbest::build(&input, ci, warnings);
    if let Some((sel, c)) = &e.selected {
        let q = a.report.quiet;
        crate::select::record(&mut report, sel, c, "syntactic words", true, q)?;
    }
    if let Some(m) = &a.model {
        report.notes.push(super::rerank::model_note(m)?);
    }
    let cfg = super::significance::config(&a.report.sig);
    if !cfg.tests.is_empty() {
        (report.comparisons, report.rankings) = tests(a, e, &cfg);
        report.notes.push("the tests compare chosen with first of each n-best file, on the same sentences; best and worst are not tested and have no rank (–); with several files, ranks order first and chosen within each file".into());
    }
    if !cfg.tests.is_empty() || a.report.sig.ci.is_some() {
        super::significance::sign(&a.report.sig, &cfg, &mut report.signature);
    }
    report.significance = super::significance::settings(&a.report.sig, &cfg, &a.test_metrics);
    let text = treeval_report::emit::to_string(&report, a.report.format);
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}

/// Chosen against first of every file, on the same sentences, with the shared tests; the
/// ranks of first and chosen within each file (best and worst, not tested, have none).
fn tests(
    a: &NbestArgs,
    e: &Evaluated,
    cfg: &treeval_stats::compare::CompareConfig,
) -> (Vec<Comparison>, Vec<Ranking>) {
    let ms = treeval_metrics::nbest::pick_measures();
    let bar = super::significance::Progress::new(a.report.quiet);
    let mut out = Vec::new();
    let mut ranks: Vec<Ranking> = Vec::new();
    for (k, f) in e.files.iter().enumerate() {
        let disc = e.discordant.as_ref().map(|d| d[k]);
        // McNemar's discordant words of each metric (the pair is always first, chosen)
        let decisions: Vec<_> = Metric::ALL
            .iter()
            .map(|m| {
                let d = disc.map(|d| d[m.index()]).unwrap_or_default();
                move |_: usize, _: usize| d
            })
            .collect();
        let tested: Vec<Tested<'_>> = ms
            .iter()
            .filter(|m| a.test_metrics.iter().any(|t| t == m.name))
            // --alpino gives the CA triples only: CA, macro-CA and their P, R, F
            .filter(|m| {
                a.alpino.is_none() || m.name.ends_with("CA") || matches!(m.name, "P" | "R" | "F")
            })
            .map(|m| {
                let metric = Metric::ALL.into_iter().find(|x| x.name() == m.name);
                let d = match (metric, disc) {
                    (Some(x), Some(_)) => {
                        Some(&decisions[x.index()] as treeval_report::driver::Decisions<'_>)
                    }
                    _ => None,
                };
                (m, d)
            })
            .collect();
        let systems = vec![f.picks[0].clone(), f.picks[3].clone()];
        let (mut cmp, rks) =
            treeval_report::driver::tests(&tested, &systems, cfg, &|l, d, t| bar.update(l, d, t));
        for c in &mut cmp {
            c.a = system_index(k, Pick::First);
            c.b = system_index(k, Pick::Chosen);
        }
        out.extend(cmp);
        for rk in rks {
            let i = match ranks
                .iter()
                .position(|r| r.metric == rk.metric && r.test == rk.test)
            {
                Some(i) => i,
                None => {
                    ranks.push(Ranking {
                        ranks: vec![None; 4 * e.files.len()],
                        ..rk.clone()
                    });
                    ranks.len() - 1
                }
            };
            ranks[i].ranks[system_index(k, Pick::First)] = rk.ranks[0];
            ranks[i].ranks[system_index(k, Pick::Chosen)] = rk.ranks[1];
        }
    }
    bar.finish();
    (out, ranks)
}
