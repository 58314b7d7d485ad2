//! `pts`' alignments: read, paired with the parses' sentence pairs, checked against the
//! words of every sentence, and counted against the gold alignment.

use std::collections::BTreeSet;

use treeval_formats::align::{AlignFormat, AlignOptions, AlignmentFile, LinkKind};
use treeval_metrics::align::{count_files, pair_sentences, sum, AlignCounts};
use treeval_metrics::align_index::{base_read, past_end, PastEnd, SentenceWords};
use treeval_report::model::Warning;

use super::{Options, PtsInputs};
use crate::{Error, Result};

/// The gold alignment and every system's.
pub(super) type AlignFiles = (AlignmentFile, Vec<AlignmentFile>);

/// Every system's alignment counted against the gold alignment, one row per sentence
/// pair (of the `pairs` the parses fix, whose gold sentences have the `words`), with the
/// gold and system alignment files; the files' and the pairing's warnings go to
/// `warnings`. A link past the last word of its sentence is an error.
pub(super) fn alignments(
    options: &Options,
    inputs: &PtsInputs,
    (pairs, words): (u64, &SentenceWords),
    warnings: &mut Vec<Warning>,
) -> Result<(Vec<Vec<AlignCounts>>, AlignFiles)> {
    let (gold_opts, sys_opts) = align_options(options);
    let gold_align = (inputs.gold_align)
        .read_alignments(gold_opts)
        .map_err(|e| Error::Eval(e.to_string()))?;
    let mut sys_aligns = Vec::new();
    let mut errors = Vec::new();
    for p in &inputs.sys_align {
        match p.read_alignments(sys_opts) {
            Ok(h) => sys_aligns.push(h),
            Err(e) => errors.push(e.to_string()),
        }
    }
    if !errors.is_empty() {
        return Err(Error::Eval(errors.join("\n")));
    }
    // the parses fix the number of sentence pairs; every alignment must pair with them
    let source = format!(
        "the parses {} and {}",
        inputs.gold_a.name(),
        inputs.gold_b.name()
    );
    let pairing = pair_sentences(
        &gold_align,
        &sys_aligns.iter().collect::<Vec<_>>(),
        Some((pairs, &source)),
    );
    if !pairing.errors.is_empty() {
        let all: Vec<String> = pairing.errors.iter().map(|p| p.to_string()).collect();
        return Err(Error::Eval(all.join("\n")));
    }
    past_end_errors(options, inputs, (&gold_align, &sys_aligns), words)?;
    for f in std::iter::once(&gold_align).chain(&sys_aligns) {
        warnings.extend(f.warnings.iter().map(Warning::from));
    }
    for p in &pairing.warnings {
        warnings.push(Warning::of(
            p.kind,
            p.path.clone(),
            p.message.clone(),
            p.hint.clone(),
        ));
    }
    // rows for the sentence pairs, and for any further sentence number (none: the pairing
    // checked that every alignment stays within the pairs)
    let numbers: Vec<u64> = (1..=pairs).collect();
    let keep_null = options.keep_null();
    let counts: Vec<Vec<AlignCounts>> = sys_aligns
        .iter()
        .map(|h| count_files(&gold_align, h, keep_null, &numbers))
        .collect();
    for (h, rows) in sys_aligns.iter().zip(&counts) {
        crate::align::null_warning(&h.path, keep_null, &sum(rows), warnings);
    }
    Ok((counts, (gold_align, sys_aligns)))
}

/// The options the gold alignment and the system alignments are read with.
fn align_options(options: &Options) -> (AlignOptions, AlignOptions) {
    let gold = AlignOptions {
        base: options.gold_base,
        ..AlignOptions::default()
    };
    let sys = AlignOptions {
        base: options.hyp_base,
        reverse: options.reverse,
        ..AlignOptions::default()
    };
    (gold, sys)
}

/// Links past the last word of their sentence (side a's words: `words[0]`, from
/// `gold_a`; side b's from `gold_b`) in any alignment file are errors: every file's
/// together, each with its count, the index base that would put all its links within
/// their sentences (with the AER it gives) where there is one and its base was not
/// given, and its first links in full (`path:line:column`).
fn past_end_errors(
    options: &Options,
    inputs: &PtsInputs,
    (gold, sys): (&AlignmentFile, &[AlignmentFile]),
    words: &SentenceWords,
) -> Result<()> {
    let (gold_opts, sys_opts) = align_options(options);
    let reread = |p: &str, o: AlignOptions| {
        let input = inputs.sys_align.iter().find(|i| i.name() == p)?;
        input.read_alignments(o).ok()
    };
    let reread_gold = |o: AlignOptions| inputs.gold_align.read_alignments(o).ok();
    let check = crate::align::BaseCheck {
        gold,
        hyps: sys,
        keep_null: options.keep_null(),
        read: [gold_opts, sys_opts],
        reread_gold: &reread_gold,
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
        let (message, hint) = crate::align::past_end_message(
            past.len(),
            other,
            "check the index base (--gold-base, --hyp-base), the sides (--reverse) and the order of --gold-a and --gold-b",
        );
        errors.push(format!(
            "{}: {message}; they are in {} of the {} sentence pairs, whose words are the syntactic words of {} (side a) and {} (side b)\n  hint: {hint}",
            f.path,
            sentences.len(),
            words[0].len(),
            inputs.gold_a.name(),
            inputs.gold_b.name()
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
        Err(Error::Eval(errors.join("\n")))
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
