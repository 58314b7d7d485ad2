//! `nbest`: n-best evaluation (van Noord et al. 2002). Every candidate of every sentence
//! is scored against gold with the `deps` machinery; per sentence the first, best, worst
//! and chosen candidates are picked; the report shows each pick's scores, exact and phi,
//! and tests chosen against first. `compat: alpino` gives what Alpino's `evaluate.pl -x`
//! prints; [`Inputs::Alpino`] reads evaluate.pl's own input.
//!
//! ```no_run
//! use treeval::nbest::{evaluate, Inputs, Options};
//!
//! let inputs = Inputs::Conllu(treeval::Inputs::new("gold.conllu", ["nbest.conllu.gz"]));
//! let ev = evaluate(&Options::default(), &inputs, &treeval::Common::default())?;
//! println!("{}", treeval_report::emit::to_string(&ev.report, treeval_report::render::OutputFormat::Text, Default::default()));
//! # Ok::<(), treeval::Error>(())
//! ```

use serde::{Deserialize, Serialize};
use treeval_formats::nbest::alpino::{read_alpino, AlpinoLine};
use treeval_formats::nbest::{NbestPairing, NbestReader};
use treeval_formats::{Diagnostic, ReaderBuilder};
use treeval_metrics::nbest::{sentence, CandidateScore, Metric, Scorer, Triples};
use treeval_metrics::select::{Selection, SelectionCounts};
use treeval_metrics::{DepsOptions, LabelMode, PunctPolicy};
use treeval_report::model::Warning;
use treeval_report::names::role;
use treeval_report::nbest::{NbestFile, NbestIn};
use treeval_rerank::Model;

use crate::deps::{Conventions, Profile};
use crate::{Common, Error, Evaluation, Input, Result, Test};

mod compare;
mod sink;

use sink::Sink;

/// Reference-script output of `nbest`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Compat {
    /// Alpino's `Disambiguation/evaluate.pl -x`.
    Alpino,
}

/// A metric candidates are scored with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum NbestMetric {
    /// Concept accuracy over (head, deprel, dependent) triples.
    #[default]
    Ca,
    /// Labelled attachment score.
    Las,
    /// Unlabelled attachment score.
    Uas,
    /// Label accuracy.
    La,
}

impl NbestMetric {
    /// The metrics crate's metric.
    pub fn metric(self) -> Metric {
        match self {
            NbestMetric::Ca => Metric::Ca,
            NbestMetric::Las => Metric::Las,
            NbestMetric::Uas => Metric::Uas,
            NbestMetric::La => Metric::La,
        }
    }
}

/// The measures `nbest` tests by default.
pub const DEFAULT_TEST_METRICS: [&str; 4] = ["LAS", "UAS", "LA", "CA"];

/// The options of `nbest`. `Default` is the command line's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Conventions bundle of the candidates' scores (`conll07`); `punct` and `labels`
    /// override its parts.
    pub profile: Option<Profile>,
    /// Which words to score.
    pub punct: Option<PunctPolicy>,
    /// How DEPREL is compared.
    pub labels: Option<crate::deps::Labels>,
    /// Give a reference script's output instead of the report (one n-best file).
    pub compat: Option<Compat>,
    /// The evaluation score of each candidate in `export_training`.
    pub metric: NbestMetric,
    /// Write the stochastic training set to this file (JSON lines).
    pub export_training: Option<String>,
    /// Choose with a reranker model (`treeval rerank train`) instead of the parser score.
    pub model: Option<String>,
    /// Measures the tests compare between chosen and first.
    pub test_metrics: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            profile: None,
            punct: None,
            labels: None,
            compat: None,
            metric: NbestMetric::Ca,
            export_training: None,
            model: None,
            test_metrics: DEFAULT_TEST_METRICS.map(String::from).to_vec(),
        }
    }
}

/// The inputs of `nbest`.
#[derive(Debug, Clone)]
pub enum Inputs {
    /// The gold (CoNLL-U) and the n-best lists (the systems), one set of rows each.
    Conllu(crate::Inputs),
    /// Alpino's evaluate.pl input lines, which carry their own counts (CA only).
    Alpino(Input),
}

impl Inputs {
    /// The inputs with their roles (`GOLD`, `NBEST`, `--alpino`), as the headers of the
    /// per-sentence and training files name them.
    pub fn roles(&self) -> Vec<(&str, &str)> {
        match self {
            Inputs::Alpino(l) => vec![(role::SYSTEM, l.name())],
            Inputs::Conllu(i) => std::iter::once((role::GOLD, i.gold.name()))
                .chain(i.systems.iter().map(|s| (role::SYSTEM, s.name())))
                .collect(),
        }
    }

    fn is_alpino(&self) -> bool {
        matches!(self, Inputs::Alpino(_))
    }
}

/// Everything the evaluation gives.
#[derive(Default)]
struct Evaluated {
    files: Vec<NbestFile>,
    /// Per file, the candidates as evaluate.pl lines (kept for `compat: alpino`).
    alpino: Vec<Vec<Vec<AlpinoLine>>>,
    /// Per file and metric: scored words right in first only, in chosen only (McNemar);
    /// `None` for evaluate.pl's lines, which have no words.
    discordant: Option<Vec<[(u64, u64); 4]>>,
    warnings: Vec<Diagnostic>,
    /// The sentence selection and what it kept of the gold (the same for every file).
    selected: Option<(Selection, SelectionCounts)>,
}

/// Usage errors of `options` with `inputs` and `common` (the checks `evaluate` makes
/// first); the `deps` options of the candidates' scores.
pub fn check(options: &Options, inputs: &Inputs, common: &Common) -> Result<DepsOptions> {
    let usage = |m: &str| Err(Error::Usage(m.into()));
    let compat = options.compat == Some(Compat::Alpino);
    if let Inputs::Conllu(i) = inputs {
        if i.systems.is_empty() {
            return usage("give the GOLD file and at least one NBEST file");
        }
        if compat && i.systems.len() > 1 {
            return usage("--compat alpino prints evaluate.pl's output for one n-best file: give GOLD and one NBEST");
        }
    }
    refuse_common(common)?;
    let lists = match inputs {
        Inputs::Conllu(i) => i.systems.len(),
        Inputs::Alpino(_) => 1,
    };
    common.check_names(lists, "n-best list")?;
    let alpino = inputs.is_alpino();
    if alpino && options.export_training.is_some() && options.metric != NbestMetric::Ca {
        return usage(
            "evaluate.pl's lines give CA only: --export-training with --alpino takes --metric ca",
        );
    }
    if alpino && common.test.contains(&Test::Mcnemar) {
        return usage("--test mcnemar needs per-word decisions, which evaluate.pl's lines do not have; use --test ar or --test bootstrap");
    }
    let conventions = Conventions {
        profile: options.profile,
        punct: options.punct.clone(),
        labels: options.labels,
    };
    let (punct, labels, _) = conventions.resolve(Profile::Conll07);
    if compat && (punct != PunctPolicy::Include || labels != LabelMode::Full) {
        return usage("--compat alpino counts evaluate.pl's overlap as the LAS count of every word with the full DEPREL: drop --profile conllx, --punct and --labels");
    }
    Ok(DepsOptions {
        punct,
        labels,
        ..DepsOptions::default()
    })
}

/// The shared options `nbest` does not honour: `where`, `errors`, a state.
fn refuse_common(common: &Common) -> Result<()> {
    common.refuse_where("nbest")?;
    if common.errors {
        return Err(Error::Usage("--errors is not available for `treeval nbest` yet (it is for deps, ud, brackets, align, relations, ted and pts)".into()));
    }
    if common.state || common.keep_sentences {
        return Err(Error::Usage(format!(
            "--emit-state: `nbest` does not write a mergeable state yet; the commands that do: {}",
            treeval_report::state::FAMILIES.join(", ")
        )));
    }
    Ok(())
}

/// Evaluate the n-best lists of `inputs`.
///
/// With `options.compat` the evaluation carries evaluate.pl's text (where evaluate.pl
/// dies dividing by zero, [`Error::Partial`] holds what it prints by then).
pub fn evaluate(options: &Options, inputs: &Inputs, common: &Common) -> Result<Evaluation> {
    common.validate()?;
    let tested = crate::measures::test_metrics(
        treeval_metrics::nbest::pick_measures,
        &options.test_metrics,
    )?;
    let options = &Options {
        test_metrics: tested,
        ..options.clone()
    };
    let opts = check(options, inputs, common)?;
    let compat = options.compat == Some(Compat::Alpino);
    let model = options.model.as_deref().map(load_model).transpose()?;
    let mut sink = Sink::open(options, inputs, common)?;
    let e = match inputs {
        Inputs::Alpino(lines) => from_lines(lines, &mut sink, compat)?,
        Inputs::Conllu(i) => {
            let sel = crate::select::selection(common)?;
            from_conllu(i, (&opts, &sel), model.as_ref(), &mut sink, compat)?
        }
    };
    sink.finish()?;
    if compat {
        let (text, died) = treeval_report::compat::alpino::evaluate_x(&e.alpino[0]);
        return match died {
            Some(message) => Err(Error::Partial {
                printed: text,
                message,
                stderr: String::new(),
                warnings: Vec::new(),
            }),
            None => {
                // evaluate.pl prints no warnings, and neither does its output here
                let mut report = report(options, inputs, common, &opts, &e)?;
                report.warnings.clear();
                Ok(Evaluation::new(report, None, Some(text)))
            }
        };
    }
    check_scored(common, &e)?;
    let mut report = report(options, inputs, common, &opts, &e)?;
    if !common.names.is_empty() {
        let names = treeval_report::nbest::system_names(&common.names, true);
        report.name_systems(&names);
    }
    if let (Some(path), Some(m)) = (&options.model, &model) {
        report.notes.push(model_note(path, m));
    }
    compare::run(options, inputs, common, &e, &mut report);
    if let Inputs::Conllu(i) = inputs {
        report.warnings.extend(i.gold_copies());
    }
    Ok(Evaluation::new(report, None, None))
}

/// Read and check a rerank model.
fn load_model(path: &str) -> Result<Model> {
    let text = treeval_formats::input::read_text(path, "a rerank model (JSON)")
        .map_err(|e| Error::Eval(e.to_string()))?;
    Model::from_json(path, &text).map_err(Error::Eval)
}

/// The report's note on a reranker's choice.
fn model_note(path: &str, m: &Model) -> String {
    let t = &m.training;
    format!(
        "chosen by the reranker {path} (w·f, ties → the earliest; trained on {} sentences with --metric {}, target {}{}, σ² {})",
        t.sentences,
        t.metric,
        t.target,
        t.beta.map_or_else(String::new, |b| format!(" β={b}")),
        t.sigma2
    )
}

/// The rule of [`crate::select::nothing_scored`]: an n-best input without a sentence
/// (evaluate.pl's empty input) scores nothing (`compat: alpino` prints what evaluate.pl
/// prints).
fn check_scored(common: &Common, e: &Evaluated) -> Result<()> {
    let each = e.files.iter().map(|f| {
        let why = move || crate::select::Nothing {
            why: format!("{} holds no sentence with candidates", f.path),
            lift: "give evaluate.pl's lines of a run (--alpino), or the n-best lists of the gold file's sentences".into(),
        };
        (f.gaps.len() as u64, Box::new(why) as Box<dyn FnOnce() -> _>)
    });
    let (sel, counts) = e.selected.clone().unwrap_or_default();
    crate::select::nothing_scored(each, (&sel, &counts), common.is_part())
}

/// Score every n-best file against gold.
fn from_conllu(
    inputs: &crate::Inputs,
    (opts, sel): (&DepsOptions, &Selection),
    model: Option<&Model>,
    sink: &mut Sink,
    compat: bool,
) -> Result<Evaluated> {
    let mut e = Evaluated {
        discordant: Some(Vec::new()),
        ..Evaluated::default()
    };
    let eval = |e: treeval_formats::Error| Error::Eval(e.to_string());
    let open = |i: &Input| i.with(ReaderBuilder::new()).open().map_err(eval);
    for (k, input) in inputs.systems.iter().enumerate() {
        let mut selected = sel.counts();
        let mut model = model.map(Model::scorer);
        let mut pairs = NbestPairing::new(open(&inputs.gold)?, NbestReader::new(open(input)?));
        let mut scorer = Scorer::new(opts);
        let mut file = NbestFile::new(input.name());
        let mut lines = Vec::new();
        let mut disc = [(0, 0); 4];
        let mut cands = Vec::new();
        let mut index = 0;
        while pairs.next_sentence().map_err(eval)? {
            let (g, gp, np) = (
                &pairs.gold_sentence,
                pairs.gold_path().clone(),
                pairs.nbest_path().clone(),
            );
            scorer
                .score(g, &gp, &pairs.candidates, &np, &mut cands)
                .map_err(eval)?;
            let n = g.len() as u64;
            if !sel.tally(&mut selected, g.sent_id(), g.index(), n, n) {
                index += 1;
                continue;
            }
            if let Some(m) = model.as_mut() {
                for (c, p) in cands.iter_mut().zip(&pairs.candidates) {
                    c.weight = m.score(p);
                }
            }
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
            return Err(Error::Eval(format!(
                "{}:1:1: expected at least one word in the gold file, found none",
                inputs.gold.name()
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
        ).of_kind(treeval_formats::WarningKind::MalformedCandidate));
    }
    let (shown, gold) = scorer.gold_warnings();
    if gold > shown.len() as u64 {
        out.push(Diagnostic::warning(
            Position::new(path.clone(), 0, 0),
            ErrorKind::Other(format!("{gold} malformed gold tree(s) in all ({} shown); their words are scored one by one", shown.len())),
        ).of_kind(treeval_formats::WarningKind::MalformedGoldTree));
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
fn whole(path: &str, l: &AlpinoLine, x: f64, what: &str) -> Result<u64> {
    if x >= 0.0 && x.fract() == 0.0 && x < 9.0e15 {
        Ok(x as u64)
    } else {
        Err(Error::Eval(format!(
            "{path}:{}:1: expected {what} to be a whole number of triples, found {x}\n  hint: the report counts triples; --compat alpino reads any number as evaluate.pl does",
            l.line
        )))
    }
}

/// Read evaluate.pl's lines.
fn from_lines(input: &Input, sink: &mut Sink, compat: bool) -> Result<Evaluated> {
    let path = input.name();
    let eval = |e: treeval_formats::Error| Error::Eval(e.to_string());
    let rdr = input.with(ReaderBuilder::new()).text().map_err(eval)?;
    let sentences = read_alpino(path, rdr).map_err(eval)?;
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

/// The report before its tests: sections, signature, warnings, the sentence selection.
fn report(
    options: &Options,
    inputs: &Inputs,
    common: &Common,
    opts: &DepsOptions,
    e: &Evaluated,
) -> Result<treeval_report::Report> {
    let warnings = warnings(&e.warnings);
    let alpino = inputs.is_alpino();
    let metrics: Vec<Metric> = if alpino {
        vec![Metric::Ca]
    } else {
        Metric::ALL.to_vec()
    };
    let punct = opts.punct.name();
    let gold = match inputs {
        Inputs::Conllu(i) => Some(i.gold.name()),
        Inputs::Alpino(_) => None,
    };
    let input = NbestIn {
        gold,
        files: &e.files,
        metrics: &metrics,
        conventions: (!alpino).then_some((punct.as_str(), opts.labels.name())),
        weight: if alpino {
            "alpino-weight"
        } else if options.model.is_some() {
            "rerank-model"
        } else {
            "parser_score"
        },
        format: if alpino { "alpino" } else { "conllu" },
    };
    let ci = crate::significance::intervals(common);
    let mut report = treeval_report::nbest::build(&input, ci, warnings);
    if let Some((sel, c)) = &e.selected {
        let unit = ("syntactic words", true);
        crate::select::record(&mut report, sel, c, unit, common.is_part())?;
    }
    Ok(report)
}

/// The readers' and scorer's warnings, each once, grouped by kind.
fn warnings(diagnostics: &[Diagnostic]) -> Vec<Warning> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for d in diagnostics {
        let w = Warning::from(d);
        if seen.insert((w.position.clone(), w.message.clone())) {
            out.push(w);
        }
    }
    treeval_report::model::group_warnings(out)
}
