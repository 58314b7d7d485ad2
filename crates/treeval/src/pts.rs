//! `pts`: the parallel treebank score of systems that parse both sides of a parallel
//! corpus and align their words: UAS of side a, UAS of side b, AER of the alignment, and
//! PTS, their weighted mean.
//!
//! ```no_run
//! use treeval::pts::{evaluate, Options, PtsInputs};
//!
//! let inputs = PtsInputs::new(
//!     ("gold.en.conllu", "gold.de.conllu", "gold.en-de.naacl"),
//!     [("parser.en.conllu", "parser.de.conllu", "aligner.en-de.pharaoh")],
//! );
//! let ev = evaluate(&Options::default(), &inputs, &treeval::Common::default())?;
//! println!("PTS {:?}", ev.report.cell("PTS", 0).map(|c| c.value));
//! # Ok::<(), treeval::Error>(())
//! ```

mod align;

use serde::{Deserialize, Serialize};
use treeval_formats::ReaderBuilder;
use treeval_metrics::align::AlignCounts;
use treeval_metrics::deps::{evaluate_counts, DepsResult};
use treeval_metrics::pts::{row, PtsCounts, Weights};
use treeval_metrics::select::{Selection, SelectionCounts};
use treeval_metrics::{DepsOptions, LabelMode, PunctPolicy};
use treeval_report::errors::DepsErrors;
use treeval_report::model::{Warning, WarningKind};
use treeval_report::names::role;
use treeval_report::pts::{PtsFiles, PtsIn, PtsSide};
use treeval_report::records::{Counts, Record};
use treeval_report::state::{weights_text, PtsIndex};
use treeval_report::Report;
use treeval_stats::compare::TestKind;

use crate::align::NullLinks;
use crate::records::Records;
use crate::{Common, Error, Evaluation, Input, Result, Test};

/// The inputs of `pts`: the gold parses of both sides and their gold alignment, and per
/// system its parses of both sides and its alignment (system k is the k-th of each list).
#[derive(Debug, Clone)]
pub struct PtsInputs {
    /// Gold parse of side a.
    pub gold_a: Input,
    /// Gold parse of side b.
    pub gold_b: Input,
    /// Gold alignment between a and b.
    pub gold_align: Input,
    /// System parses of side a.
    pub sys_a: Vec<Input>,
    /// System parses of side b (as many as `sys_a`).
    pub sys_b: Vec<Input>,
    /// System alignments (as many as `sys_a`).
    pub sys_align: Vec<Input>,
}

impl PtsInputs {
    /// The warnings about system files that are their gold ([`crate::input::gold_copies`]):
    /// a side's parse, or the alignment.
    fn gold_copies(&self) -> Vec<treeval_report::model::Warning> {
        let a = self.sys_a.iter().map(|s| (&self.gold_a, s));
        let b = self.sys_b.iter().map(|s| (&self.gold_b, s));
        let l = self.sys_align.iter().map(|s| (&self.gold_align, s));
        crate::input::gold_copies(a.chain(b).chain(l))
    }

    /// The inputs' identities, as a state names them: the gold sides and alignment, and
    /// each system's sides and alignment.
    pub fn identity(&self) -> treeval_report::state::ShardInputs {
        let gold = [&self.gold_a, &self.gold_b, &self.gold_align];
        let systems = (self.sys_a.iter().zip(&self.sys_b).zip(&self.sys_align))
            .map(|((a, b), l)| vec![a.file_id(), b.file_id(), l.file_id()])
            .collect();
        treeval_report::state::ShardInputs {
            gold: gold.iter().map(|i| i.file_id()).collect(),
            systems,
        }
    }

    /// The gold `(side a, side b, alignment)` and each system's.
    pub fn new<I: Into<Input>>(
        (gold_a, gold_b, gold_align): (I, I, I),
        systems: impl IntoIterator<Item = (I, I, I)>,
    ) -> Self {
        let mut p = PtsInputs {
            gold_a: gold_a.into(),
            gold_b: gold_b.into(),
            gold_align: gold_align.into(),
            sys_a: Vec::new(),
            sys_b: Vec::new(),
            sys_align: Vec::new(),
        };
        for (a, b, al) in systems {
            p.sys_a.push(a.into());
            p.sys_b.push(b.into());
            p.sys_align.push(al.into());
        }
        p
    }

    /// Every input with its role (`gold a`, …), as the per-sentence header names them.
    pub fn roles(&self) -> Vec<(&'static str, &Input)> {
        [
            (role::GOLD_A, &self.gold_a),
            (role::GOLD_B, &self.gold_b),
            (role::GOLD_ALIGNMENT, &self.gold_align),
        ]
        .into_iter()
        .chain(self.sys_a.iter().map(|p| (role::SYSTEM_A, p)))
        .chain(self.sys_b.iter().map(|p| (role::SYSTEM_B, p)))
        .chain(self.sys_align.iter().map(|p| (role::SYSTEM_ALIGNMENT, p)))
        .collect()
    }
}

/// The options of `pts`. `Default` is the command line's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Weights of UAS_a, UAS_b and 1 − AER (three non-negative numbers, not all 0).
    pub weights: Vec<f64>,
    /// Which words the UAS scores (`form` by default).
    pub punct: PunctPolicy,
    /// Swap the sides of every system alignment link.
    pub reverse: bool,
    /// Index base (0 or 1) of the gold alignment's positions.
    pub gold_base: Option<u32>,
    /// Index base (0 or 1) of the system alignments' positions.
    pub hyp_base: Option<u32>,
    /// Links with a NULL side (default: exclude).
    pub null: Option<NullLinks>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            weights: vec![1.0, 1.0, 1.0],
            punct: PunctPolicy::Form,
            reverse: false,
            gold_base: None,
            hyp_base: None,
            null: None,
        }
    }
}

impl Options {
    /// `null: include`.
    fn keep_null(&self) -> bool {
        self.null == Some(NullLinks::Include)
    }

    /// How the alignments' positions were read, as the state and the signature record it.
    pub fn index(&self) -> PtsIndex {
        PtsIndex {
            gold_base: self.gold_base,
            hyp_base: self.hyp_base,
            null_included: self.keep_null(),
        }
    }
}

/// What a length of the sentence selection counts in pts.
pub const LENGTH_UNIT: &str = "syntactic words of side a's gold";

/// One side's parses evaluated, with its `errors` listing when asked.
type Side = (DepsResult, Option<DepsErrors>);

/// The sentence pairs the selection keeps (decided on side a's gold: its ids and
/// syntactic words), as 1-based numbers, and its counts.
type Kept = (Vec<u64>, SelectionCounts);

/// Evaluate the systems of `inputs`.
///
/// The report holds UAS of both sides, AER and PTS of every system, with intervals and
/// tests; with `common.state` the evaluation carries its state.
pub fn evaluate(options: &Options, inputs: &PtsInputs, common: &Common) -> Result<Evaluation> {
    common.refuse_where("pts")?;
    common.validate()?;
    check(options, inputs, common)?;
    let w = Weights {
        a: options.weights[0],
        b: options.weights[1],
        ab: options.weights[2],
    };
    let opts = DepsOptions {
        punct: options.punct.clone(),
        labels: LabelMode::Full,
        keep_sentences: true,
        pair_decisions: common.test.contains(&Test::Mcnemar),
        ..DepsOptions::default()
    };
    let selection = crate::select::selection(common)?;
    let ((mut side_a, errors_a), (mut side_b, errors_b), (kept, selected), words) =
        sides(inputs, common.errors, &opts, &selection)?;
    crate::select::check_kept_unless_part(&selection, &selected, common.is_part())?;
    let mut align_warnings = Vec::new();
    let pairs = side_a.gold.sentences;
    let (mut aligned, files) =
        align::alignments(options, inputs, (pairs, &words), &mut align_warnings)?;
    keep_rows(&kept, &mut side_a, &mut side_b, &mut aligned);
    write_records(inputs, common, [&side_a, &side_b], &aligned, &kept)?;
    let units = units(&side_a, &side_b, &aligned);
    let names = Names::of(inputs);
    let shown = names.shown(common);
    let state = common.state.then(|| {
        let run = treeval_report::state::PtsRun {
            e: &input(&names, w, [&side_a, &side_b], &aligned, &units),
            sides: [&side_a, &side_b],
            punct: &options.punct.name(),
            reverse: options.reverse,
            index: options.index(),
            opts: &opts,
            keep_sentences: common.keeps_sentences(),
        };
        treeval_report::state::State::of_pts(&run, align_warnings.clone())
            .with_selection(&selection, &selected)
            .with_names(shown.clone(), !common.names.is_empty())
            .with_inputs(inputs.identity())
    });
    // after the state, which holds the counts the checks are made again from
    side_a.corpus_checks(&opts);
    side_b.corpus_checks(&opts);
    let warnings = (side_a.warnings.iter().chain(side_b.warnings.iter()))
        .map(Warning::from)
        .chain(align_warnings)
        .collect();
    let e = input(&names, w, [&side_a, &side_b], &aligned, &units);
    let p = Present {
        common,
        punct: &options.punct.name(),
        index: &options.index(),
    };
    let mut report = present(&p, &e, warnings);
    if let (Some(x), Some(y)) = (errors_a, errors_b) {
        let (gold, hyps) = &files;
        let keep_null = options.keep_null();
        let align = hyps
            .iter()
            .enumerate()
            .map(|(k, h)| treeval_report::errors::align_errors(k, (gold, h), &kept, keep_null));
        report.listings = treeval_report::errors::pts_errors(x, y, align.collect());
    }
    record(&mut report, (&selection, &selected), common.is_part())?;
    report.name_systems(&shown);
    report.warnings.extend(inputs.gold_copies());
    Ok(Evaluation::new(report, state, None))
}

/// The selection and its counts in the report (the run's and a merge's).
pub fn record(
    report: &mut Report,
    (selection, selected): (&Selection, &SelectionCounts),
    part: bool,
) -> Result<()> {
    crate::select::record(report, selection, selected, (LENGTH_UNIT, true), part)
}

/// The names of the inputs, as the report shows them.
struct Names {
    gold: [String; 3],
    sys_a: Vec<String>,
    sys_b: Vec<String>,
    sys_align: Vec<String>,
}

impl Names {
    fn of(i: &PtsInputs) -> Self {
        let names = |v: &[Input]| v.iter().map(|x| x.name().to_owned()).collect();
        Names {
            gold: [&i.gold_a, &i.gold_b, &i.gold_align].map(|x| x.name().to_owned()),
            sys_a: names(&i.sys_a),
            sys_b: names(&i.sys_b),
            sys_align: names(&i.sys_align),
        }
    }

    /// The systems' display names: given (`--name`, one per system triple), or the short
    /// names of the files that differ between systems.
    fn shown(&self, common: &Common) -> Vec<String> {
        fn col(v: &[String]) -> Vec<&str> {
            v.iter().map(String::as_str).collect()
        }
        let columns = [col(&self.sys_a), col(&self.sys_b), col(&self.sys_align)];
        treeval_report::names::of_columns(&columns, &common.names)
    }
}

/// The evaluation as the report takes it.
fn input<'a>(
    n: &'a Names,
    weights: Weights,
    sides: [&'a DepsResult; 2],
    aligned: &'a [Vec<AlignCounts>],
    units: &'a [Vec<PtsCounts>],
) -> PtsIn<'a> {
    PtsIn {
        files: PtsFiles {
            gold_a: &n.gold[0],
            gold_b: &n.gold[1],
            gold_align: &n.gold[2],
            sys_a: &n.sys_a,
            sys_b: &n.sys_b,
            sys_align: &n.sys_align,
        },
        weights,
        side_a: PtsSide::of(sides[0]),
        side_b: PtsSide::of(sides[1]),
        aligned,
        units,
    }
}

/// Usage errors: one of each file per system, the weights, the index bases, McNemar
/// with a selection, two systems for a test, standard input twice.
fn check(options: &Options, inputs: &PtsInputs, common: &Common) -> Result<()> {
    let n = inputs.sys_a.len();
    if inputs.sys_b.len() != n || inputs.sys_align.len() != n {
        return Err(Error::Usage(format!(
            "give as many --sys-b and --sys-align as --sys-a (found {}, {} and {})",
            n,
            inputs.sys_b.len(),
            inputs.sys_align.len()
        )));
    }
    common.check_names(n, "system triple (--sys-a, --sys-b, --sys-align)")?;
    let w = &options.weights;
    if w.len() != 3 {
        let found: Vec<String> = w.iter().map(f64::to_string).collect();
        return Err(Error::Usage(format!(
            "--weights: expected three values A,B,AB (the weights of UAS_a, UAS_b and 1 − AER), found {}: {}\n  hint: --weights 1,1,1 (commas) or --weights 1 1 1 (spaces)",
            w.len(),
            found.join(",")
        )));
    }
    let bad = |w: &f64| !w.is_finite() || *w < 0.0;
    if w.iter().any(bad) || w.iter().sum::<f64>() <= 0.0 {
        return Err(Error::Usage(
            "--weights must be finite, non-negative and not all 0".into(),
        ));
    }
    crate::align::check_bases(options.gold_base, options.hyp_base)?;
    if crate::select::is_given(common) && common.test.contains(&Test::Mcnemar) {
        return Err(Error::Usage(
            "--test mcnemar in pts counts paired word decisions over every sentence pair, not over a selection; use --test ar or --test bootstrap with --sent-id, --min-len or --max-len".into(),
        ));
    }
    if !common.test.is_empty() && n < 2 {
        return Err(Error::Usage(
            "--test compares systems: give at least two systems".into(),
        ));
    }
    let stdin = inputs.roles().iter().filter(|(_, i)| i.is_stdin()).count();
    if stdin > 1 {
        return Err(Error::Usage(
            "standard input ('-') can be given only once".into(),
        ));
    }
    Ok(())
}

/// One side's parses evaluated (before their corpus checks), with its `errors` listing
/// when `errors`; `keep` sees every (system, gold sentence) pair (system 0 first) and
/// says whether the listing takes it (the sentence selection's).
fn parses(
    gold: &Input,
    systems: &[Input],
    opts: &DepsOptions,
    errors: bool,
    keep: &mut dyn FnMut(usize, &treeval_formats::Sentence) -> bool,
) -> Result<Side> {
    let mut listing = errors.then(|| DepsErrors::new(opts, systems.len()));
    let mut b = ReaderBuilder::new();
    b.validate_deps(false);
    let sys: Vec<_> = systems.iter().map(|p| p.with(b.clone())).collect();
    let r = evaluate_counts(&gold.with(b.clone()), &sys, opts, |k, g, s, _| {
        if keep(k, g) {
            if let Some(l) = listing.as_mut() {
                l.observe(k, g, s);
            }
        }
    })
    .map_err(|e| Error::Eval(e.to_string()))?;
    Ok((r, listing))
}

/// Both sides' parses evaluated; their gold files must pair sentence by sentence.
/// The selection decides on side a's gold sentences (ids and syntactic words); the
/// `errors` listings of both sides take the kept sentence pairs only. With them, the
/// syntactic words of every gold sentence of both sides.
fn sides(
    inputs: &PtsInputs,
    errors: bool,
    opts: &DepsOptions,
    sel: &Selection,
) -> Result<(
    Side,
    Side,
    Kept,
    treeval_metrics::align_index::SentenceWords,
)> {
    let (mut kept, mut counts) = (Vec::new(), sel.counts());
    let mut words: treeval_metrics::align_index::SentenceWords = [Vec::new(), Vec::new()];
    let side_a = parses(&inputs.gold_a, &inputs.sys_a, opts, errors, &mut |k, g| {
        if k == 0 {
            let n = g.len() as u64;
            words[0].push(g.len());
            if sel.tally(&mut counts, g.sent_id(), g.index(), n, n) {
                kept.push(g.index());
            }
        }
        kept.last() == Some(&g.index())
    })?;
    let side_b = parses(&inputs.gold_b, &inputs.sys_b, opts, errors, &mut |k, g| {
        if k == 0 {
            words[1].push(g.len());
        }
        kept.binary_search(&g.index()).is_ok()
    })?;
    let pairs = side_a.0.gold.sentences;
    if side_b.0.gold.sentences != pairs {
        return Err(Error::Eval(format!(
            "{} has {} sentences but {} has {}: the two sides must pair sentence by sentence",
            inputs.gold_a.name(),
            pairs,
            inputs.gold_b.name(),
            side_b.0.gold.sentences
        )));
    }
    Ok((side_a, side_b, (kept, counts), words))
}

/// Keep only the rows of the sentence pairs `kept` (1-based, ascending) of both sides
/// and every alignment.
fn keep_rows(
    kept: &[u64],
    side_a: &mut DepsResult,
    side_b: &mut DepsResult,
    aligned: &mut [Vec<AlignCounts>],
) {
    fn filter<T: Copy>(rows: &mut Vec<T>, kept: &[u64]) {
        *rows = kept
            .iter()
            .filter_map(|&n| rows.get(n as usize - 1).copied())
            .collect();
    }
    for rows in side_a
        .sentences
        .iter_mut()
        .chain(side_b.sentences.iter_mut())
    {
        filter(rows, kept);
    }
    for rows in aligned {
        filter(rows, kept);
    }
}

/// The per-sentence records: one per sentence pair and system, with both sides' and the
/// alignment's counts.
fn write_records(
    inputs: &PtsInputs,
    common: &Common,
    [side_a, side_b]: [&DepsResult; 2],
    aligned: &[Vec<AlignCounts>],
    kept: &[u64],
) -> Result<()> {
    if common.per_sentence.is_none() {
        return Ok(());
    }
    let roles: Vec<(&str, &str)> = inputs
        .roles()
        .into_iter()
        .map(|(r, i)| (r, i.name()))
        .collect();
    let mut records = Records::open(common.per_sentence.as_ref(), "pts", &roles);
    for (k, al_rows) in aligned.iter().enumerate() {
        let rows = side_a.sentences[k]
            .iter()
            .zip(&side_b.sentences[k])
            .zip(al_rows);
        for (i, ((ca, cb), cal)) in kept.iter().zip(rows) {
            records.write(
                &Record::of(*i, k, &PtsCounts(row(ca, cb, cal)))
                    .extra_counts("a", Counts::of(ca))
                    .extra_counts("b", Counts::of(cb))
                    .extra("alignment", cal),
            );
        }
    }
    records.finish()
}

/// One row of counts per sentence pair and system.
fn units(
    side_a: &DepsResult,
    side_b: &DepsResult,
    aligned: &[Vec<AlignCounts>],
) -> Vec<Vec<PtsCounts>> {
    aligned
        .iter()
        .enumerate()
        .map(|(k, al_rows)| {
            side_a.sentences[k]
                .iter()
                .zip(&side_b.sentences[k])
                .zip(al_rows)
                .map(|((ca, cb), cal)| PtsCounts(row(ca, cb, cal)))
                .collect()
        })
        .collect()
}

/// How a `pts` report is shown (the family's options, or those of `merge`).
#[derive(Debug)]
pub struct Present<'a> {
    /// Significance, selection and output options.
    pub common: &'a Common,
    /// The punctuation policy's name.
    pub punct: &'a str,
    /// How the alignments were read.
    pub index: &'a PtsIndex,
}

/// The report: both UAS, AER and PTS of every system, with intervals and tests (made by
/// `evaluate` and, from summed states, by `merge`).
pub fn present(p: &Present<'_>, e: &PtsIn<'_>, warnings: Vec<Warning>) -> Report {
    let cfg = p.common.compare_config();
    let w = e.weights;
    let mut signature = treeval_report::Signature::new(
        "pts",
        &[("punct", p.punct.to_owned()), ("weights", weights_text(w))],
    );
    for (k, v) in p.index.signature_parts() {
        signature.push(k, v);
    }
    if !cfg.tests.is_empty() || p.common.ci.is_some() {
        crate::significance::sign(p.common, &cfg, &mut signature);
    }
    let ci = crate::significance::intervals(p.common);
    let mut r = treeval_report::pts::build(signature, p.punct, e, ci, warnings);
    if !cfg.tests.is_empty() {
        let progress = |l: &str, d, t| p.common.progress(l, d, t);
        (r.comparisons, r.rankings) = treeval_report::pts::tests(e, &cfg, &progress);
        if cfg.tests.contains(&TestKind::Mcnemar) {
            r.warnings.push(Warning::of(WarningKind::McnemarUasOnly, "", "McNemar's test applies to the UAS components only; AER and PTS use the resampling tests", None));
        }
    }
    r.significance =
        crate::significance::settings(p.common, &cfg, &treeval_report::pts::tested_names(w));
    r
}
