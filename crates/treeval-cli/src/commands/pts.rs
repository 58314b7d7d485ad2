//! `treeval pts`.

use std::io::Write;

use std::collections::BTreeSet;

use treeval_formats::align::{
    read_alignment_path, AlignFormat, AlignOptions, AlignmentFile, LinkKind,
};
use treeval_formats::ReaderBuilder;
use treeval_metrics::align::{count_files, pair_sentences, sum, AlignCounts};
use treeval_metrics::align_index::{base_read, past_end, PastEnd, SentenceWords};
use treeval_metrics::deps::{evaluate_counts, DepsResult, Input as Parses};
use treeval_metrics::pts::{row, PtsCounts, Weights};
use treeval_metrics::{DepsOptions, LabelMode};
use treeval_report::errors::DepsErrors;
use treeval_report::model::Warning;
use treeval_report::pts::{PtsFiles, PtsIn, PtsSide};
use treeval_report::records::{Counts, Record};
use treeval_report::state::{weights_text, PtsIndex};
use treeval_report::value::Report;
use treeval_stats::compare::TestKind;

use crate::args::{NullLinks, PtsArgs, ReportArgs, TestArg};
use crate::output::{check_outputs, outputs, InputRef, PerSentence};
use crate::Failure;

/// One side's parses evaluated (before their corpus checks), with its `--errors` listing
/// when `errors`; `keep` sees
/// every (system, gold sentence) pair (system 0 first) and says whether the listing
/// takes it (the sentence selection's).
fn parses(
    gold: &str,
    systems: &[String],
    opts: &DepsOptions,
    errors: bool,
    keep: &mut dyn FnMut(usize, &treeval_formats::Sentence) -> bool,
) -> Result<(DepsResult, Option<DepsErrors>), Failure> {
    let mut listing = errors.then(|| DepsErrors::new(opts, systems.len()));
    let mut b = ReaderBuilder::new();
    b.validate_deps(false);
    let input = |p: &str| Parses::path(p, b.clone());
    let sys: Vec<Parses> = systems.iter().map(|p| input(p)).collect();
    let r = evaluate_counts(&input(gold), &sys, opts, |k, g, s, _| {
        if keep(k, g) {
            if let Some(l) = listing.as_mut() {
                l.observe(k, g, s);
            }
        }
    })
    .map_err(|e| Failure::Eval(e.to_string()))?;
    Ok((r, listing))
}

/// The sentence pairs the selection keeps (decided on side a's gold: its ids and
/// syntactic words), as 1-based numbers, and its counts.
type Kept = (Vec<u64>, treeval_metrics::select::SelectionCounts);

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
    check_args(a, &ins)?;
    let w = Weights {
        a: a.weights[0],
        b: a.weights[1],
        ab: a.weights[2],
    };
    let opts = DepsOptions {
        punct: a.punct.clone(),
        labels: LabelMode::Full,
        keep_sentences: true,
        pair_decisions: a.report.sig.tests.contains(&TestArg::Mcnemar),
        ..DepsOptions::default()
    };
    let selection = crate::select::selection(&a.report.select)?;
    let ((mut side_a, errors_a), (mut side_b, errors_b), (kept, selected), words) =
        sides(a, &opts, &selection)?;
    crate::select::check_kept_unless_part(&selection, &selected, &a.report.out)?;
    let mut align_warnings = Vec::new();
    let pairs = side_a.gold.sentences;
    let (mut aligned, files) = alignments(a, (pairs, &words), &mut align_warnings)?;
    keep_rows(&kept, &mut side_a, &mut side_b, &mut aligned);
    if a.report.out.per_sentence.is_some() {
        per_sentence(a, &ins, &side_a, &side_b, &aligned, &kept)?;
    }
    let units = units(&side_a, &side_b, &aligned);
    if let Some(path) = a.report.out.emit_state.as_deref() {
        let run = treeval_report::state::PtsRun {
            e: &input(a, w, [&side_a, &side_b], &aligned, &units),
            sides: [&side_a, &side_b],
            punct: &a.punct.name(),
            reverse: a.reverse,
            index: index_options(a),
            opts: &opts,
            keep_sentences: a.report.out.keep_sentences
                || !a.report.sig.tests.is_empty()
                || a.report.sig.ci.is_some(),
        };
        let state = treeval_report::state::State::of_pts(&run, align_warnings.clone())
            .with_selection(&selection, &selected);
        crate::output::write_state(path, &state)?;
    }
    // after the state, which holds the counts the checks are made again from
    side_a.corpus_checks(&opts);
    side_b.corpus_checks(&opts);
    let warnings = (side_a.warnings.iter().chain(side_b.warnings.iter()))
        .map(Warning::from)
        .chain(align_warnings)
        .collect();
    let e = input(a, w, [&side_a, &side_b], &aligned, &units);
    let mut report = present(&a.report, &a.punct.name(), &index_options(a), &e, warnings);
    if let (Some(x), Some(y)) = (errors_a, errors_b) {
        let (gold, hyps) = &files;
        let align = hyps
            .iter()
            .enumerate()
            .map(|(k, h)| treeval_report::errors::align_errors(k, (gold, h), &kept, keep_null(a)));
        report.listings = treeval_report::errors::pts_errors(x, y, align.collect());
    }
    let part = crate::select::is_part(&a.report.out);
    let unit = (LENGTH_UNIT, true);
    crate::select::record_part(&mut report, &selection, &selected, unit, true, part)?;
    super::significance::print_warnings(&report.warnings, a.report.quiet);
    let text = treeval_report::emit::to_string(&report, a.report.format);
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}

/// The evaluation as the report takes it.
fn input<'a>(
    a: &'a PtsArgs,
    weights: Weights,
    sides: [&'a DepsResult; 2],
    aligned: &'a [Vec<AlignCounts>],
    units: &'a [Vec<PtsCounts>],
) -> PtsIn<'a> {
    PtsIn {
        files: PtsFiles {
            gold_a: &a.gold_a,
            gold_b: &a.gold_b,
            gold_align: &a.gold_align,
            sys_a: &a.sys_a,
            sys_b: &a.sys_b,
            sys_align: &a.sys_align,
        },
        weights,
        side_a: PtsSide::of(sides[0]),
        side_b: PtsSide::of(sides[1]),
        aligned,
        units,
    }
}

/// The checks of the command line: format, outputs, one of each file per system, the
/// weights, two systems for a test.
fn check_args(a: &PtsArgs, ins: &[InputRef<'_>]) -> Result<(), Failure> {
    let can = crate::output::Capabilities {
        state: true,
        ..crate::output::Capabilities::of("pts")
    };
    crate::output::check_report(&can, &a.report, false)?;
    check_outputs(&outputs(&a.report.out), ins, a.report.out.force)?;
    let n = a.sys_a.len();
    if a.sys_b.len() != n || a.sys_align.len() != n {
        return Err(Failure::Usage(format!(
            "give as many --sys-b and --sys-align as --sys-a (found {}, {} and {})",
            n,
            a.sys_b.len(),
            a.sys_align.len()
        )));
    }
    if a.weights.len() != 3 {
        let found: Vec<String> = a.weights.iter().map(f64::to_string).collect();
        return Err(Failure::Usage(format!(
            "--weights: expected three values A,B,AB (the weights of UAS_a, UAS_b and 1 − AER), found {}: {}\n  hint: --weights 1,1,1 (commas) or --weights 1 1 1 (spaces)",
            a.weights.len(),
            found.join(",")
        )));
    }
    let bad = |w: &f64| !w.is_finite() || *w < 0.0;
    if a.weights.iter().any(bad) || a.weights.iter().sum::<f64>() <= 0.0 {
        return Err(Failure::Usage(
            "--weights must be finite, non-negative and not all 0".into(),
        ));
    }
    if a.report.select.is_given() && a.report.sig.tests.contains(&TestArg::Mcnemar) {
        return Err(Failure::Usage(
            "--test mcnemar in pts counts paired word decisions over every sentence pair, not over a selection; use --test ar or --test bootstrap with --sent-id, --min-len or --max-len".into(),
        ));
    }
    if !a.report.sig.tests.is_empty() && n < 2 {
        return Err(Failure::Usage(
            "--test compares systems: give at least two systems".into(),
        ));
    }
    Ok(())
}

/// What a length of the sentence selection counts in pts.
pub(crate) const LENGTH_UNIT: &str = "syntactic words of side a's gold";

/// One side's parses evaluated, with its `--errors` listing when asked.
type Side = (DepsResult, Option<DepsErrors>);

/// Both sides' parses evaluated; their gold files must pair sentence by sentence.
/// The selection decides on side a's gold sentences (ids and syntactic words); the
/// `--errors` listings of both sides take the kept sentence pairs only. With them, the
/// syntactic words of every gold sentence of both sides.
fn sides(
    a: &PtsArgs,
    opts: &DepsOptions,
    sel: &treeval_metrics::select::Selection,
) -> Result<(Side, Side, Kept, SentenceWords), Failure> {
    let (mut kept, mut counts) = (Vec::new(), sel.counts());
    let mut words: SentenceWords = [Vec::new(), Vec::new()];
    let errors = a.report.errors;
    let side_a = parses(&a.gold_a, &a.sys_a, opts, errors, &mut |k, g| {
        if k == 0 {
            let n = g.len() as u64;
            words[0].push(g.len());
            if sel.tally(&mut counts, g.sent_id(), g.index(), n, n) {
                kept.push(g.index());
            }
        }
        kept.last() == Some(&g.index())
    })?;
    let side_b = parses(&a.gold_b, &a.sys_b, opts, errors, &mut |k, g| {
        if k == 0 {
            words[1].push(g.len());
        }
        kept.binary_search(&g.index()).is_ok()
    })?;
    let pairs = side_a.0.gold.sentences;
    if side_b.0.gold.sentences != pairs {
        return Err(Failure::Eval(format!(
            "{} has {} sentences but {} has {}: the two sides must pair sentence by sentence",
            a.gold_a, pairs, a.gold_b, side_b.0.gold.sentences
        )));
    }
    Ok((side_a, side_b, (kept, counts), words))
}

/// Every system's alignment counted against the gold alignment, one row per sentence
/// pair (of the `pairs` the parses fix, whose gold sentences have the `words`), with the
/// gold and system alignment files; the files' and the pairing's warnings go to
/// `warnings`. A link past the last word of its sentence is an error.
fn alignments(
    a: &PtsArgs,
    (pairs, words): (u64, &SentenceWords),
    warnings: &mut Vec<Warning>,
) -> Result<(Vec<Vec<AlignCounts>>, AlignFiles), Failure> {
    let (gold_opts, sys_opts) = align_options(a);
    let gold_align =
        read_alignment_path(&a.gold_align, gold_opts).map_err(|e| Failure::Eval(e.to_string()))?;
    let mut sys_aligns = Vec::new();
    let mut errors = Vec::new();
    for p in &a.sys_align {
        match read_alignment_path(p, sys_opts) {
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
    past_end_errors(a, (&gold_align, &sys_aligns), words)?;
    for f in std::iter::once(&gold_align).chain(&sys_aligns) {
        warnings.extend(f.warnings.iter().map(Warning::from));
    }
    for p in &pairing.warnings {
        warnings.push(Warning::new(
            p.path.clone(),
            p.message.clone(),
            p.hint.clone(),
        ));
    }
    // rows for the sentence pairs, and for any further sentence number (none: the pairing
    // checked that every alignment stays within the pairs)
    let numbers: Vec<u64> = (1..=pairs).collect();
    let counts: Vec<Vec<AlignCounts>> = sys_aligns
        .iter()
        .map(|h| count_files(&gold_align, h, keep_null(a), &numbers))
        .collect();
    for (h, rows) in sys_aligns.iter().zip(&counts) {
        super::align::null_warning(&h.path, keep_null(a), &sum(rows), warnings);
    }
    Ok((counts, (gold_align, sys_aligns)))
}

/// The options the gold alignment and the system alignments are read with.
fn align_options(a: &PtsArgs) -> (AlignOptions, AlignOptions) {
    let gold = AlignOptions {
        base: a.index.gold_base,
        ..AlignOptions::default()
    };
    let sys = AlignOptions {
        base: a.index.hyp_base,
        reverse: a.reverse,
        ..AlignOptions::default()
    };
    (gold, sys)
}

/// `--null include`.
fn keep_null(a: &PtsArgs) -> bool {
    a.index.null == Some(NullLinks::Include)
}

/// How the alignments' positions were read, as the state and the signature record it.
fn index_options(a: &PtsArgs) -> PtsIndex {
    PtsIndex {
        gold_base: a.index.gold_base,
        hyp_base: a.index.hyp_base,
        null_included: keep_null(a),
    }
}

/// Links past the last word of their sentence (side a's words: `words[0]`, from
/// --gold-a; side b's from --gold-b) in any alignment file are errors: every file's
/// together, each with its count, the index base that would put all its links within
/// their sentences (with the AER it gives) where there is one and its base was not
/// given, and its first links in full (`path:line:column`).
fn past_end_errors(
    a: &PtsArgs,
    (gold, sys): (&AlignmentFile, &[AlignmentFile]),
    words: &SentenceWords,
) -> Result<(), Failure> {
    let (gold_opts, sys_opts) = align_options(a);
    let reread = |p: &str, o: AlignOptions| read_alignment_path(p, o).ok();
    let check = super::align::BaseCheck {
        gold,
        hyps: sys,
        keep_null: keep_null(a),
        read: [gold_opts, sys_opts],
        reread_hyp: &reread,
    };
    let mut errors = Vec::new();
    for (k, f) in std::iter::once(gold).chain(sys).enumerate() {
        let past = past_end(f, words);
        if past.is_empty() {
            continue;
        }
        let read = if k == 0 { gold_opts } else { sys_opts };
        let other = check.other_base(f, k == 0, words);
        let sentences = past.iter().map(|p| p.sentence).collect::<BTreeSet<u64>>();
        let (message, hint) = super::align::past_end_message(
            past.len(),
            other,
            "check the index base (--gold-base, --hyp-base), the sides (--reverse) and the order of --gold-a and --gold-b",
        );
        errors.push(format!(
            "{}: {message}; they are in {} of the {} sentence pairs, whose words are the syntactic words of {} (side a) and {} (side b)\n  hint: {hint}",
            f.path,
            sentences.len(),
            words[0].len(),
            a.gold_a,
            a.gold_b
        ));
        let base = base_read(f, read.base);
        for p in past.iter().take(treeval_formats::align::ERROR_LIMIT) {
            errors.push(past_end_line(f, p, base, read.reverse));
        }
        if let Some(more) = past
            .len()
            .checked_sub(treeval_formats::align::ERROR_LIMIT)
            .filter(|&n| n > 0)
        {
            errors.push(format!(
                "… and {more} more link(s) of {} past the last word of their sentence",
                f.path
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Failure::Eval(errors.join("\n")))
    }
}

/// The error of one link `p` of `f` past the last word of its sentence, at the column of
/// its first position past it, showing the link as written (`base`: the base it was
/// read with, `reversed`: its sides swapped).
fn past_end_line(f: &AlignmentFile, p: &PastEnd, base: u32, reversed: bool) -> String {
    let written = |x: Option<u32>| x.map_or(0, |x| u64::from(x) + u64::from(base));
    let (mut x, mut y) = (written(p.link.a), written(p.link.b));
    if reversed {
        (x, y) = (y, x);
    }
    let shown = match (f.format, p.link.kind) {
        (AlignFormat::Naacl, _) => format!("positions {x} {y}"),
        (AlignFormat::Pharaoh, LinkKind::Sure) => format!("the link {x}-{y}"),
        (AlignFormat::Pharaoh, LinkKind::Possible) => format!("the possible link {x}?{y}"),
    };
    let column = if p.past[0] {
        p.link.columns[0]
    } else {
        p.link.columns[1]
    };
    let [na, nb] = p.words;
    let b = base as usize;
    format!(
        "{}:{}:{column}: expected positions below {} on side a and below {} on side b (sentence {} has {na} and {nb} words, read {base}-based), found {shown}",
        f.path,
        p.link.line,
        na + b,
        nb + b,
        p.sentence
    )
}

/// The gold alignment and every system's.
type AlignFiles = (AlignmentFile, Vec<AlignmentFile>);

/// `--per-sentence`: one object per sentence pair and system, with both sides' and the
/// alignment's counts.
fn per_sentence(
    a: &PtsArgs,
    ins: &[InputRef<'_>],
    side_a: &DepsResult,
    side_b: &DepsResult,
    aligned: &[Vec<AlignCounts>],
    kept: &[u64],
) -> Result<(), Failure> {
    let mut sink = PerSentence::open(a.report.out.per_sentence.as_deref(), "pts", ins)?;
    for (k, al_rows) in aligned.iter().enumerate() {
        let rows = side_a.sentences[k]
            .iter()
            .zip(&side_b.sentences[k])
            .zip(al_rows);
        for (i, ((ca, cb), cal)) in kept.iter().zip(rows) {
            sink.write(
                &Record::of(*i, k, &PtsCounts(row(ca, cb, cal)))
                    .extra_counts("a", Counts::of(ca))
                    .extra_counts("b", Counts::of(cb))
                    .extra("alignment", cal),
            );
        }
    }
    sink.finish()
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

/// The report (as `ra` asks for it; `punct`: the policy's name; `index`: how the
/// alignments were read): both UAS, AER and PTS of every system, with intervals and
/// tests.
pub(crate) fn present(
    ra: &ReportArgs,
    punct: &str,
    index: &PtsIndex,
    e: &PtsIn<'_>,
    warnings: Vec<Warning>,
) -> Report {
    let cfg = super::significance::config(&ra.sig);
    let w = e.weights;
    let mut signature = treeval_report::Signature::new(
        "pts",
        &[("punct", punct.to_owned()), ("weights", weights_text(w))],
    );
    for (k, v) in index.signature_parts() {
        signature.push(k, v);
    }
    if !cfg.tests.is_empty() || ra.sig.ci.is_some() {
        super::significance::sign(&ra.sig, &cfg, &mut signature);
    }
    let ci = super::significance::intervals(&ra.sig);
    let mut r = treeval_report::pts::build(signature, punct, e, ci, warnings);
    if !cfg.tests.is_empty() {
        let bar = super::significance::Progress::new(ra.quiet);
        (r.comparisons, r.rankings) =
            treeval_report::pts::tests(e, &cfg, &|l, d, t| bar.update(l, d, t));
        bar.finish();
        if cfg.tests.contains(&TestKind::Mcnemar) {
            r.warnings.push(Warning::new("", "McNemar's test applies to the UAS components only; AER and PTS use the resampling tests", None));
        }
    }
    r.significance =
        super::significance::settings(&ra.sig, &cfg, &treeval_report::pts::tested_names(w));
    r
}
