//! `treeval align`.

use std::io::Write;
use treeval_report::browse::align as browse;

use treeval_formats::align::{read_alignment_path, AlignFormat, AlignOptions, AlignmentFile};
use treeval_formats::subwords::{project, read_pieces, PieceFile};
use treeval_metrics::align::{
    aer_of, as_wa_eval_sees_it, count_files, measures, pair_sentences, sentence_numbers, sum,
    AlignCounts,
};
use treeval_metrics::align_index::{
    aer_between, base_read, base_shift, base_that_fits, past_end, SentenceWords,
};
use treeval_report::align::AlignIn;
use treeval_report::compat::{aer_py::aer_py, wa_eval::wa_eval_align};
use treeval_report::model::Warning;
use treeval_report::records::Record;
use treeval_report::state::{align_options, AlignFileState, AlignState, AlignSubwords};
use treeval_report::value::Report;

use crate::args::{AlignArgs, AlignCompat, AlignFormatArg, NullLinks};
use crate::output::{check_outputs, outputs, InputRef, PerSentence};
use crate::Failure;

/// Why `--test mcnemar` is refused.
pub(crate) const NO_MCNEMAR: &str =
    "needs paired binary decisions; for alignments use --test ar or --test bootstrap";

/// The files the command reads, with their roles.
fn inputs(a: &AlignArgs) -> Vec<InputRef<'_>> {
    std::iter::once(("GOLD", a.gold.as_str()))
        .chain(a.hyps.iter().map(|s| ("HYP", s.as_str())))
        .chain(a.tokens.iter().map(|s| ("TOKENS", s.as_str())))
        .chain(a.hyp_subwords.iter().map(|s| ("PIECES", s.as_str())))
        .collect()
}

fn fmt(f: Option<AlignFormatArg>) -> Option<AlignFormat> {
    f.map(|f| match f {
        AlignFormatArg::Naacl => AlignFormat::Naacl,
        AlignFormatArg::Pharaoh => AlignFormat::Pharaoh,
    })
}

fn warn(w: &mut Vec<Warning>, position: &str, message: String, hint: Option<&str>) {
    w.push(Warning::new(
        position.to_owned(),
        message,
        hint.map(str::to_owned),
    ));
}

/// Run the command, writing the report to `out`.
pub fn run(a: &AlignArgs, out: &mut dyn Write) -> Result<(), Failure> {
    validate(a)?;
    // the WPT scorer scores NULL links like any other: its compat mode does too
    let wa_eval = a.compat == Some(AlignCompat::WaEvalAlign);
    let keep_null = a.index.null.map_or(wa_eval, |n| n == NullLinks::Include);
    let hyp_opts = AlignOptions {
        format: fmt(a.hyp_format),
        base: a.index.hyp_base,
        reverse: a.reverse,
    };
    let selection = crate::select::selection(&a.report.select)?;
    let (gold, hyps, pieces, mut warnings) = read_inputs(a, hyp_opts)?;
    let sentences = pair(a, &gold, &hyps, wa_eval, &mut warnings)?;
    let tokens = read_tokens(a)?;
    let scoring = Scoring {
        gold: &gold,
        hyp_opts,
        keep_null,
        pieces: pieces.as_ref(),
    };
    file_warnings(a, &scoring, &hyps, tokens.as_ref(), &mut warnings)?;
    // one sentence list for every hypothesis, so that their rows pair up
    let numbers = sentence_numbers(std::iter::once(&gold).chain(&hyps));
    let (numbers, selected) = select(&selection, numbers, sentences, tokens.as_ref());
    crate::select::check_kept_unless_part(&selection, &selected, &a.report.out)?;
    let sentences = if selection.is_all() {
        sentences
    } else {
        selected.kept
    };
    let per_hyp: Vec<Vec<AlignCounts>> = hyps
        .iter()
        .map(|h| count_files(&gold, h, keep_null, &numbers))
        .collect();
    let read = warnings.clone();
    let readings: Vec<Vec<Reading>> = match a.report.out.emit_state {
        Some(_) => hyps.iter().map(|h| other_readings(&scoring, h)).collect(),
        None => Vec::new(),
    };
    let totals = totals(
        &scoring,
        (&hyps, &per_hyp),
        sentences,
        &readings,
        &mut warnings,
    );
    let (sel, files) = ((&selection, &selected), (&gold, &hyps[..], &totals[..]));
    check_scored(files, keep_null, sel, (a.compat, &a.report.out))?;
    write_per_sentence(a, &per_hyp, &numbers)?;
    let mut gold_counts = sum(&per_hyp.first().cloned().unwrap_or_default());
    gold_counts.sentences = sentences;
    let e = AlignIn {
        gold: &gold,
        hyps: &hyps,
        per_hyp: &per_hyp,
        totals: &totals,
        gold_counts: &gold_counts,
        f_alpha: a.f_alpha.unwrap_or(0.5),
        keep_null,
    };
    let subwords = pieces.as_ref().map(|p| subwords_of(p, &hyps));
    if let Some(path) = a.report.out.emit_state.as_deref() {
        let st = (readings, subwords.clone(), read);
        let state = state(a, &e, sentences, st).with_selection(&selection, &selected);
        crate::output::write_state(path, &state)?;
    }
    let mut report = present(&Present::of(a), &e, warnings);
    let unit = (LENGTH_UNIT, tokens.is_some());
    let part = crate::select::is_part(&a.report.out);
    crate::select::record_part(&mut report, &selection, &selected, unit, true, part)?;
    if let Some(sw) = &subwords {
        subword_notes(&mut report, sw, &hyps);
    }
    extras(a, &mut report, &e, &numbers, tokens.as_ref());
    let text = text(a, &report, &e)?;
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}

/// The warnings on stderr (unless `--quiet`); the output: the report in `--format`, or
/// with `--compat` the reference script's.
fn text(a: &AlignArgs, report: &Report, e: &AlignIn<'_>) -> Result<String, Failure> {
    super::significance::print_warnings(&report.warnings, a.report.quiet);
    Ok(match a.compat {
        Some(AlignCompat::AerPy) => aer_py_text(a, e.hyps, e.totals)?,
        Some(AlignCompat::WaEvalAlign) => wa_eval_text(a, e.gold, e.hyps, e.keep_null),
        None => treeval_report::emit::to_string(report, a.report.format),
    })
}

/// Every hypothesis' sums over the `sentences` sentence pairs (from its rows), and the
/// warnings about them (an AER close to 1 with the best of its `readings`, made here when
/// not given).
fn totals(
    scoring: &Scoring<'_>,
    (hyps, per_hyp): (&[AlignmentFile], &[Vec<AlignCounts>]),
    sentences: u64,
    readings: &[Vec<Reading>],
    warnings: &mut Vec<Warning>,
) -> Vec<AlignCounts> {
    let mut totals = Vec::new();
    for (k, (h, rows)) in hyps.iter().zip(per_hyp).enumerate() {
        let mut t = sum(rows);
        t.sentences = sentences;
        let other = || match readings.get(k) {
            Some(r) => r.clone(),
            None => other_readings(scoring, h),
        };
        hyp_warnings(&h.path, scoring.keep_null, &t, &other, warnings);
        totals.push(t);
    }
    totals
}

/// Another reading of a hypothesis: the options that give it, and its summed counts
/// (`None` where the file cannot be read so).
type Reading = (String, Option<AlignCounts>);

/// The warnings about the files as read: the pieces against the tokens, links past the
/// last word of their sentence (without the tokens: hypotheses whose positions look one
/// off from the gold's), links with NULL on both sides.
fn file_warnings(
    a: &AlignArgs,
    scoring: &Scoring<'_>,
    hyps: &[AlignmentFile],
    tokens: Option<&[Vec<Vec<String>>; 2]>,
    warnings: &mut Vec<Warning>,
) -> Result<(), Failure> {
    if let Some(t) = tokens {
        if let Some(p) = scoring.pieces {
            check_pieces_against_tokens(a, p, t, warnings)?;
        }
        token_warnings(a, t, scoring, hyps, warnings);
    } else {
        shift_warnings(a, scoring, hyps, warnings);
    }
    null_null_warnings(std::iter::once(scoring.gold).chain(hyps), warnings);
    Ok(())
}

/// The state of the evaluation `e` (`--emit-state`) over `sentences` sentence pairs;
/// `st`: the hypotheses' other readings, the subword projection, and the warnings found
/// while reading.
fn state(
    a: &AlignArgs,
    e: &AlignIn<'_>,
    sentences: u64,
    st: (Vec<Vec<Reading>>, Option<AlignSubwords>, Vec<Warning>),
) -> treeval_report::state::State {
    use serde_json::json;
    let (readings, subwords, warnings) = st;
    let file = |f: &AlignmentFile| AlignFileState {
        path: f.path.to_string(),
        format: f.format.name().to_owned(),
    };
    let keep =
        a.report.out.keep_sentences || !a.report.sig.tests.is_empty() || a.report.sig.ci.is_some();
    let s = AlignState {
        gold: file(e.gold),
        hyps: e.hyps.iter().map(file).collect(),
        pairs: sentences,
        numbers: (e.gold.sentences.keys().next().copied())
            .zip(e.gold.sentences.keys().next_back().copied()),
        units: e.per_hyp.iter().map(|r| sum(r)).collect(),
        readings,
        subwords,
        warnings,
        sentences: keep.then(|| e.per_hyp.to_vec()),
    };
    let given = [
        ("gold_base", json!(a.index.gold_base)),
        ("hyp_base", json!(a.index.hyp_base)),
        ("reverse", json!(a.reverse)),
        ("reverse_gold", json!(a.reverse_gold)),
        ("sentences_given", json!(a.sentences.is_some())),
    ];
    let null = if e.keep_null { "include" } else { "exclude" };
    let options = align_options(&s, null, e.f_alpha, given);
    treeval_report::state::State::of_align(options, s)
}

/// What the report holds when asked: the `--errors` listings and the HTML page's sentences.
fn extras(
    a: &AlignArgs,
    report: &mut Report,
    e: &AlignIn<'_>,
    numbers: &[u64],
    tokens: Option<&[Vec<Vec<String>>; 2]>,
) {
    if a.report.errors {
        report.listings = listings(e.gold, e.hyps, numbers, e.keep_null);
    }
    if a.report.format == crate::args::Format::Html {
        let src = treeval_report::browse::align::AlignSources {
            gold: e.gold,
            hyps: e.hyps,
            numbers,
            per_hyp: e.per_hyp,
            tokens,
        };
        report.browser = Some(browse::browser(&src, a.report.html_sentences()));
    }
}

/// `--errors`: each hypothesis's missed sure links and wrong links.
fn listings(
    gold: &AlignmentFile,
    hyps: &[AlignmentFile],
    numbers: &[u64],
    keep_null: bool,
) -> Vec<treeval_report::value::Listing> {
    let list = |(k, h)| treeval_report::errors::align_errors(k, (gold, h), numbers, keep_null);
    hyps.iter().enumerate().map(list).collect()
}

/// The gold, the hypotheses (projected onto words with `--hyp-subwords`), the pieces
/// and the files' reading warnings.
#[allow(clippy::type_complexity)]
fn read_inputs(
    a: &AlignArgs,
    hyp_opts: AlignOptions,
) -> Result<
    (
        AlignmentFile,
        Vec<AlignmentFile>,
        Option<[PieceFile; 2]>,
        Vec<Warning>,
    ),
    Failure,
> {
    let (gold, hyps) = read(a, hyp_opts)?;
    let pieces = read_subwords(a)?;
    let hyps = match &pieces {
        Some(p) => project_all(&hyps, p)?,
        None => hyps,
    };
    let warnings = std::iter::once(&gold)
        .chain(&hyps)
        .flat_map(|f| f.warnings.iter().map(Warning::from))
        .collect();
    Ok((gold, hyps, pieces, warnings))
}

/// `--per-sentence`: one object per sentence and hypothesis.
fn write_per_sentence(
    a: &AlignArgs,
    per_hyp: &[Vec<AlignCounts>],
    numbers: &[u64],
) -> Result<(), Failure> {
    if a.report.out.per_sentence.is_none() {
        return Ok(());
    }
    let mut sink = PerSentence::open(a.report.out.per_sentence.as_deref(), "align", &inputs(a))?;
    for (k, rows) in per_hyp.iter().enumerate() {
        for (i, c) in rows.iter().enumerate() {
            sink.write(&Record::of(numbers[i], k, c).extra_beyond_counts("link_counts", c));
        }
    }
    sink.finish()
}

/// The words of both sides (`--tokens`): per file, per line, its words.
fn read_tokens(a: &AlignArgs) -> Result<Option<[Vec<Vec<String>>; 2]>, Failure> {
    let [src, tgt] = a.tokens.as_slice() else {
        return Ok(None);
    };
    let read = |path: &str| -> Result<Vec<Vec<String>>, Failure> {
        let text = treeval_formats::input::read_text(path, "one sentence of words per line")
            .map_err(|e| Failure::Eval(e.to_string()))?;
        Ok(text
            .lines()
            .map(|l| l.split_whitespace().map(str::to_owned).collect())
            .collect())
    };
    Ok(Some([read(src)?, read(tgt)?]))
}

/// The sentence numbers the selection keeps, and its counts over the gold's `sentences`
/// sentence pairs (ids: their numbers; lengths: their source words, from `tokens`).
fn select(
    sel: &treeval_metrics::select::Selection,
    numbers: Vec<u64>,
    sentences: u64,
    tokens: Option<&[Vec<Vec<String>>; 2]>,
) -> (Vec<u64>, treeval_metrics::select::SelectionCounts) {
    let len = |n: u64| -> u64 {
        let line = usize::try_from(n).ok().and_then(|n| n.checked_sub(1));
        let words = tokens.and_then(|t| line.and_then(|i| t[0].get(i)));
        words.map_or(0, |w| w.len() as u64)
    };
    let mut counts = sel.counts();
    for n in 1..=sentences {
        sel.tally(&mut counts, None, n, len(n), len(n));
    }
    let kept = numbers
        .into_iter()
        .filter(|&n| sel.verdict(None, n, len(n)).kept())
        .collect();
    (kept, counts)
}

/// The words of every sentence on both sides, counted from the `--tokens` files.
fn word_counts(tokens: &[Vec<Vec<String>>; 2]) -> SentenceWords {
    tokens
        .each_ref()
        .map(|side| side.iter().map(Vec::len).collect())
}

/// Warnings about the token files: fewer lines than sentences, and links (of any file)
/// past the last word of their sentence's side; where the other index base puts every
/// link of that file within its sentence (and the base was not given), the warning names
/// that base and the AER it gives.
fn token_warnings(
    a: &AlignArgs,
    tokens: &[Vec<Vec<String>>; 2],
    s: &Scoring<'_>,
    hyps: &[AlignmentFile],
    w: &mut Vec<Warning>,
) {
    let files: Vec<&AlignmentFile> = std::iter::once(s.gold).chain(hyps).collect();
    let last = sentence_numbers(files.iter().copied())
        .last()
        .copied()
        .unwrap_or(0);
    for (k, side) in tokens.iter().enumerate() {
        if (side.len() as u64) < last {
            warn(
                w,
                &a.tokens[k],
                format!("{} lines, but the links reach sentence {last}", side.len()),
                Some("line k of a token file is sentence k"),
            );
        }
    }
    let words = word_counts(tokens);
    let reread = |p: &str, o: AlignOptions| s.reread(p, o);
    let check = BaseCheck {
        gold: s.gold,
        hyps,
        keep_null: s.keep_null,
        read: [gold_options(a), s.hyp_opts],
        reread_hyp: &reread,
    };
    for (k, f) in files.iter().enumerate() {
        let past = past_end(f, &words);
        let Some(first) = past.first() else {
            continue;
        };
        let (outside, position) = (past.len(), format!("{}:{}", f.path, first.link.line));
        let (message, hint) = past_end_message(
            outside,
            check.other_base(f, k == 0, &words),
            "check the index base (--gold-base, --hyp-base), the sides (--reverse) and the order of the --tokens files",
        );
        warn(w, &position, message, Some(&hint));
    }
}

/// What `outside` links past the last word of their sentence say, and the hint: the
/// index base that puts every link within its sentence (with its hint, from
/// [`BaseCheck::other_base`]) where there is one, else `otherwise`.
pub(crate) fn past_end_message(
    outside: usize,
    other: Option<(u32, String)>,
    otherwise: &str,
) -> (String, String) {
    match other {
        Some((base, hint)) => (
            format!(
                "WRONG INDEX BASE? {outside} link(s) point past the last word of their sentence when read {}-based, none when read {base}-based: the file is likely {base}-based",
                1 - base
            ),
            hint,
        ),
        None => (
            format!("{outside} link(s) point past the last word of their sentence"),
            otherwise.to_owned(),
        ),
    }
}

/// What the index-base check of a file needs (`align --tokens` and `pts`, which have
/// the words of every sentence): the gold and the hypotheses, how NULL links are
/// scored, the options the gold and the hypotheses were read with (a base given by the
/// user is not second-guessed), and how a hypothesis is read again.
pub(crate) struct BaseCheck<'a> {
    pub gold: &'a AlignmentFile,
    pub hyps: &'a [AlignmentFile],
    pub keep_null: bool,
    /// The gold's reading options and the hypotheses'.
    pub read: [AlignOptions; 2],
    pub reread_hyp: &'a dyn Fn(&str, AlignOptions) -> Option<AlignmentFile>,
}

impl BaseCheck<'_> {
    /// When `f`'s base was not given and reading it with the other base puts every link
    /// within its sentence: that base, and a hint with the option and the AER it gives.
    pub(crate) fn other_base(
        &self,
        f: &AlignmentFile,
        is_gold: bool,
        words: &SentenceWords,
    ) -> Option<(u32, String)> {
        let (read, option) = if is_gold {
            (self.read[0], "--gold-base")
        } else {
            (self.read[1], "--hyp-base")
        };
        if read.base.is_some() {
            return None;
        }
        let reread = |o: AlignOptions| {
            if is_gold {
                read_alignment_path(&f.path, o).ok()
            } else {
                (self.reread_hyp)(&f.path, o)
            }
        };
        let (base, alt) = base_that_fits(f, read, words, &reread)?;
        let aers: Vec<String> = if is_gold {
            (self.hyps.iter())
                .map(|h| {
                    format!(
                        "{} for {}",
                        show_aer(aer_between(&alt, h, self.keep_null)),
                        h.path
                    )
                })
                .collect()
        } else {
            vec![show_aer(aer_between(self.gold, &alt, self.keep_null))]
        };
        Some((
            base,
            format!(
                "with {option} {base} the AER would be {} (the default base of {} is {})",
                aers.join(", "),
                f.format.name(),
                f.format.default_base()
            ),
        ))
    }
}

/// An AER with four decimals, or `undefined`.
fn show_aer(x: Option<f64>) -> String {
    x.map_or("undefined".to_string(), |x| format!("{x:.4}"))
}

/// Without `--tokens`: a hypothesis whose positions look one off from the gold's on both
/// sides (it never uses position 0 where the gold does, or goes past the gold's last
/// position of a sentence; or the reverse) is warned about, with the AER the other base
/// gives, where that base was not given and gives a lower AER. A hypothesis with an AER
/// close to 1 is left to [`hyp_warnings`].
fn shift_warnings(a: &AlignArgs, s: &Scoring<'_>, hyps: &[AlignmentFile], w: &mut Vec<Warning>) {
    for h in hyps {
        let Some((shift, e)) = base_shift(s.gold, h) else {
            continue;
        };
        let Some(now) = aer_between(s.gold, h, s.keep_null).filter(|&x| x <= 0.8) else {
            continue;
        };
        let Some((option, base, alt)) = shifted_reading(a, s, h, shift) else {
            continue;
        };
        if !alt.is_some_and(|x| x < now) {
            continue;
        }
        let side = |k: usize| {
            let (x, e) = (["a", "b"][k], &e[k]);
            if shift > 0 {
                format!(
                    "side {x}: position 0 in {} of {} sentences (the gold: {}), past the gold's last position in {}",
                    e.hyp_zero, e.sentences, e.gold_zero, e.over
                )
            } else {
                format!(
                    "side {x}: last position below the gold's in {} of {} sentences",
                    e.under, e.sentences
                )
            }
        };
        let way = if shift > 0 { "higher" } else { "lower" };
        warn(
            w,
            &h.path,
            format!(
                "WRONG INDEX BASE? its positions look one {way} than the gold's ({}; {}): its AER is {now:.4}, with {option} {base} it would be {}",
                side(0),
                side(1),
                show_aer(alt)
            ),
            Some(&format!("give {option} {base} if so, or the base the files are in to keep this reading; --tokens SRC TGT checks every link against its sentence's words")),
        );
    }
}

/// The reading that undoes a `shift` of `h` against the gold (+1: its positions look one
/// higher): the option, its base and the AER it gives, changing the hypothesis' base if
/// it was not given and can move that way, else the gold's.
fn shifted_reading(
    a: &AlignArgs,
    s: &Scoring<'_>,
    h: &AlignmentFile,
    shift: i8,
) -> Option<(&'static str, u32, Option<f64>)> {
    // a base one higher reads every position one lower
    let up = u32::from(shift > 0);
    let hyp_base = base_read(h, s.hyp_opts.base);
    if s.hyp_opts.base.is_none() && hyp_base != up {
        let alt = s.reread(
            &h.path,
            AlignOptions {
                format: Some(h.format),
                base: Some(up),
                ..s.hyp_opts
            },
        )?;
        return Some(("--hyp-base", up, aer_between(s.gold, &alt, s.keep_null)));
    }
    let g = gold_options(a);
    let gold_base = base_read(s.gold, g.base);
    if g.base.is_none() && gold_base == up {
        let o = AlignOptions {
            format: Some(s.gold.format),
            base: Some(1 - up),
            ..g
        };
        let alt = read_alignment_path(&s.gold.path, o).ok()?;
        return Some(("--gold-base", 1 - up, aer_between(&alt, h, s.keep_null)));
    }
    None
}

/// The options the gold is read with.
fn gold_options(a: &AlignArgs) -> AlignOptions {
    AlignOptions {
        format: fmt(a.gold_format),
        base: a.index.gold_base,
        reverse: a.reverse_gold,
    }
}

/// Links with NULL on both sides (NAACL `5 0 0`): they link nothing; one warning per
/// file with the count and the first line.
fn null_null_warnings<'a>(files: impl Iterator<Item = &'a AlignmentFile>, w: &mut Vec<Warning>) {
    for f in files {
        let both: Vec<u64> = f
            .sentences
            .values()
            .flatten()
            .filter(|l| l.a.is_none() && l.b.is_none())
            .map(|l| l.line)
            .collect();
        if let Some(line) = both.first() {
            warn(
                w,
                &format!("{}:{line}", f.path),
                format!(
                    "{} link(s) have NULL on both sides (e.g. NAACL `5 0 0`): they link no word",
                    both.len()
                ),
                Some("a NULL side is position 0 in NAACL files; check the index base"),
            );
        }
    }
}

/// `--hyp-subwords`: the two pieces files.
fn read_subwords(a: &AlignArgs) -> Result<Option<[PieceFile; 2]>, Failure> {
    let [src, tgt] = a.hyp_subwords.as_slice() else {
        return Ok(None);
    };
    let read = |path: &str| -> Result<PieceFile, Failure> {
        let text =
            treeval_formats::input::read_text(path, "one sentence of subword pieces per line")
                .map_err(|e| Failure::Eval(e.to_string()))?;
        Ok(read_pieces(path, &text))
    };
    Ok(Some([read(src)?, read(tgt)?]))
}

/// Every hypothesis projected from pieces onto words; all errors together.
fn project_all(hyps: &[AlignmentFile], p: &[PieceFile; 2]) -> Result<Vec<AlignmentFile>, Failure> {
    let (ok, errors): (Vec<_>, Vec<_>) = hyps
        .iter()
        .map(|h| project(h, &p[0], &p[1]))
        .partition(Result::is_ok);
    if !errors.is_empty() {
        let all: Vec<String> = errors
            .into_iter()
            .filter_map(|e| e.err().map(|e| e.to_string()))
            .collect();
        return Err(Failure::Eval(all.join("\n")));
    }
    Ok(ok.into_iter().filter_map(Result::ok).collect())
}

/// `--hyp-subwords` with `--tokens`: each line's pieces must make as many words as its
/// tokens line (else an error at the pieces file's `path:line`); words whose text differs
/// from the tokens' are warned about (naming the first such sentence).
fn check_pieces_against_tokens(
    a: &AlignArgs,
    pieces: &[PieceFile; 2],
    tokens: &[Vec<Vec<String>>; 2],
    w: &mut Vec<Warning>,
) -> Result<(), Failure> {
    let mut errors = Vec::new();
    for (k, (p, t)) in pieces.iter().zip(tokens).enumerate() {
        let mut differ = Vec::new();
        for (i, (pw, tw)) in p.lines.iter().zip(t).enumerate() {
            if pw.words.len() != tw.len() {
                if errors.len() < treeval_formats::align::ERROR_LIMIT {
                    errors.push(format!(
                        "{}:{}: the pieces make {} word(s) ({}), but line {} of {} has {} word(s)\n  hint: the pieces must be the tokens' words split further (line k of both is sentence k); check the order of the --hyp-subwords and --tokens files",
                        p.path, i + 1, pw.words.len(), p.convention.name(), i + 1, a.tokens[k], tw.len()
                    ));
                }
            } else if pw.words.concat() != tw.concat() {
                differ.push(i + 1);
            }
        }
        if p.lines.len() != t.len() {
            warn(
                w,
                &p.path,
                format!(
                    "{} lines, but {} has {}",
                    p.lines.len(),
                    a.tokens[k],
                    t.len()
                ),
                Some("line k of each file is sentence k"),
            );
        }
        if let Some(first) = differ.first() {
            warn(
                w,
                &format!("{}:{first}", p.path),
                format!(
                    "{} sentence(s) (e.g. sentence {first}) have as many words as {} but other characters once the pieces are joined",
                    differ.len(),
                    a.tokens[k]
                ),
                Some("a normalising tokenizer (e.g. NFKC) changes characters; the word counts agree, so the links are projected anyway"),
            );
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Failure::Eval(errors.join("\n")))
    }
}

/// The pieces files of `--hyp-subwords`, their conventions and the word links of every
/// hypothesis after the projection.
fn subwords_of(p: &[PieceFile; 2], hyps: &[AlignmentFile]) -> AlignSubwords {
    AlignSubwords {
        paths: [p[0].path.to_string(), p[1].path.to_string()],
        conventions: [
            p[0].convention.name().to_owned(),
            p[1].convention.name().to_owned(),
        ],
        links: hyps.iter().map(|h| h.link_count()).collect(),
    }
}

/// The report's convention, signature part and note for `--hyp-subwords`.
pub(crate) fn subword_notes(r: &mut Report, p: &AlignSubwords, hyps: &[AlignmentFile]) {
    let [c0, c1] = &p.conventions;
    let conv = if c0 == c1 {
        c0.clone()
    } else {
        format!("{c0}/{c1}")
    };
    r.signature.push("subwords", conv.clone());
    r.convention("subwords", &conv);
    let links: Vec<String> = hyps
        .iter()
        .zip(&p.links)
        .map(|(h, n)| format!("{}: {n} word link(s)", h.path))
        .collect();
    r.notes.push(format!(
        "hypotheses aligned over subword pieces ({} {c0}, {} {c1}), projected onto words (a word pair is linked if any of its pieces are): {}",
        p.paths[0],
        p.paths[1],
        links.join("; ")
    ));
}

/// Usage errors: option values, tests without two hypotheses, format and output paths.
fn validate(a: &AlignArgs) -> Result<(), Failure> {
    let f_alpha = a.f_alpha.unwrap_or(0.5);
    if a.sentences == Some(0) {
        return Err(Failure::Usage(
            "--sentences must be at least 1 (the gold must have a sentence)".into(),
        ));
    }
    if !(0.0..=1.0).contains(&f_alpha) {
        return Err(Failure::Usage(format!(
            "--f-alpha must be between 0 and 1, found {f_alpha}"
        )));
    }
    let can = crate::output::Capabilities {
        no_selection: a.compat.map(|_| "--sent-id, --min-len and --max-len are not options of the reference scripts: --compat prints what they print"),
        state: true,
        browser: true,
        ..crate::output::Capabilities::of("align")
    };
    crate::output::check_report(&can, &a.report, a.compat.is_some())?;
    if !a.report.sig.tests.is_empty() && a.hyps.len() < 2 {
        return Err(Failure::Usage(
            "--test compares systems: give at least two hypothesis files".into(),
        ));
    }
    if a.report.sig.tests.contains(&crate::args::TestArg::Mcnemar) {
        return Err(Failure::Usage(format!("--test mcnemar {NO_MCNEMAR}")));
    }
    if (a.report.select.min_len.is_some() || a.report.select.max_len.is_some())
        && a.tokens.is_empty()
    {
        return Err(Failure::Usage(
            "--min-len and --max-len count the words of a sentence pair's source side, which an alignment file does not hold\n  hint: give the words with --tokens SRC TGT (one sentence per line)".into(),
        ));
    }
    check_state(a)?;
    check_outputs(&outputs(&a.report.out), &inputs(a), a.report.out.force)
}

/// What a length of the sentence selection counts in align.
pub(crate) const LENGTH_UNIT: &str = "source words (the first --tokens file)";

/// `--emit-state` records the counts of treeval's report: not with `--compat` (another
/// tool's lines) nor with `--sent-id` (a sentence pair has no id but its number, which
/// restarts in every shard of Pharaoh files).
fn check_state(a: &AlignArgs) -> Result<(), Failure> {
    if a.report.out.emit_state.is_none() {
        return Ok(());
    }
    if a.compat.is_some() {
        return Err(Failure::Usage(
            "--emit-state records the counts of treeval's report; --compat prints a reference script's lines: drop one of the two".into(),
        ));
    }
    crate::select::refuse_numbered_ids(&a.report.select, "a sentence pair")
}

/// The gold and every hypothesis file; all read errors together.
fn read(
    a: &AlignArgs,
    hyp_opts: AlignOptions,
) -> Result<(AlignmentFile, Vec<AlignmentFile>), Failure> {
    let gold =
        read_alignment_path(&a.gold, gold_options(a)).map_err(|e| Failure::Eval(e.to_string()))?;
    let mut errors = Vec::new();
    let mut hyps = Vec::new();
    for p in &a.hyps {
        match read_alignment_path(p, hyp_opts) {
            Ok(h) => hyps.push(h),
            Err(e) => errors.push(e.to_string()),
        }
    }
    if !errors.is_empty() {
        return Err(Failure::Eval(errors.join("\n")));
    }
    Ok((gold, hyps))
}

/// The number of sentences the files pair up on. Counts that do not pair up are errors,
/// except where the WPT scorer (which has no notion of sentences) scores the files
/// anyway: its compat mode warns instead.
fn pair(
    a: &AlignArgs,
    gold: &AlignmentFile,
    hyps: &[AlignmentFile],
    wa_eval: bool,
    warnings: &mut Vec<Warning>,
) -> Result<u64, Failure> {
    let pairing = pair_sentences(
        gold,
        &hyps.iter().collect::<Vec<_>>(),
        a.sentences.map(|n| (n, "--sentences")),
    );
    if !pairing.errors.is_empty() && !wa_eval {
        let aer_py = if a.compat == Some(AlignCompat::AerPy) {
            " (aer.py stops with an AssertionError here)"
        } else {
            ""
        };
        let all: Vec<String> = pairing
            .errors
            .iter()
            .map(|p| {
                let mut p = p.clone();
                p.message.push_str(aer_py);
                p.to_string()
            })
            .collect();
        return Err(Failure::Eval(all.join("\n")));
    }
    for p in pairing.errors.iter().chain(&pairing.warnings) {
        let message = if pairing.errors.contains(p) {
            format!("{} (wa_eval_align.pl scores the links anyway)", p.message)
        } else {
            p.message.clone()
        };
        warn(warnings, &p.path, message, p.hint.as_deref());
    }
    Ok(pairing.sentences)
}

/// What scoring a hypothesis again needs (to try another base or direction).
struct Scoring<'a> {
    gold: &'a AlignmentFile,
    hyp_opts: AlignOptions,
    keep_null: bool,
    /// `--hyp-subwords`: the pieces every hypothesis is projected through.
    pieces: Option<&'a [PieceFile; 2]>,
}

impl Scoring<'_> {
    /// Read hypothesis `path` again with `o` (projected through the pieces, if any).
    fn reread(&self, path: &str, o: AlignOptions) -> Option<AlignmentFile> {
        let h = read_alignment_path(path, o).ok()?;
        match self.pieces {
            Some([src, tgt]) => project(&h, src, tgt).ok(),
            None => Some(h),
        }
    }
}

/// Warnings about one hypothesis' totals: no link, links tagged S and P, NULL links left
/// out, and an AER close to 1 (with the base or direction that would fix it, among its
/// `other` readings).
pub(crate) fn hyp_warnings(
    path: &str,
    keep_null: bool,
    t: &AlignCounts,
    other: &dyn Fn() -> Vec<Reading>,
    warnings: &mut Vec<Warning>,
) {
    if t.a == 0 {
        let aer = if t.s > 0 {
            "AER is 1 (the WPT scorer prints AER 0 here)"
        } else {
            "with no sure gold link, AER is undefined too"
        };
        warn(
            warnings,
            path,
            format!("the hypothesis has no link: precision is undefined (n/a) and {aer}"),
            None,
        );
    }
    if t.hyp_both > 0 {
        warn(
            warnings,
            path,
            format!("{} link(s) are tagged both S and P: counted once (the WPT scorer counts them twice, as --compat wa_eval_align does)", t.hyp_both),
            None,
        );
    }
    null_warning(path, keep_null, t, warnings);
    // wrong base or direction? try the alternatives when AER is high
    let aer = aer_of(&t.aer_row()).unwrap_or(0.0);
    if t.a > 0 && aer > 0.8 {
        let hint =
            better_reading(&other(), aer).map(|(x, f)| format!("with {f} the AER would be {x:.4}"));
        warn(
            warnings,
            path,
            format!(
                "AER is {aer:.4}, close to 1: the index base or the link direction may be wrong"
            ),
            hint.as_deref()
                .or(Some("check --hyp-base, --gold-base and --reverse")),
        );
    }
}

/// The hypothesis' links with a NULL side, when left out (without `--null include`).
pub(crate) fn null_warning(
    path: &str,
    keep_null: bool,
    t: &AlignCounts,
    warnings: &mut Vec<Warning>,
) {
    if t.hyp_null > 0 && !keep_null {
        warn(
            warnings,
            path,
            format!(
                "{} link(s) with a NULL side left out (--null include scores them)",
                t.hyp_null
            ),
            None,
        );
    }
}

/// `h` read with the other index base, the other direction and both: the options that
/// give each reading and its summed counts against the gold.
fn other_readings(s: &Scoring<'_>, h: &AlignmentFile) -> Vec<Reading> {
    let path = h.path.to_string();
    let mut readings = Vec::new();
    for (base_shift, rev) in [(true, false), (false, true), (true, true)] {
        let mut o = s.hyp_opts;
        let mut flags = Vec::new();
        if base_shift {
            o.base = Some(1 - o.base.unwrap_or(h.format.default_base()));
            flags.push(format!("--hyp-base {}", o.base.unwrap_or(0)));
        }
        if rev {
            o.reverse = !o.reverse;
            flags.push(if o.reverse {
                "--reverse".to_string()
            } else {
                "without --reverse".to_string()
            });
        }
        let counts = s.reread(&path, o).map(|alt| {
            let numbers = sentence_numbers([s.gold, &alt]);
            sum(&count_files(s.gold, &alt, s.keep_null, &numbers))
        });
        readings.push((flags.join(" "), counts));
    }
    readings
}

/// The lowest AER (with the flags that give it) among the `readings`, when it is at
/// least 0.2 below `aer`.
fn better_reading(readings: &[Reading], aer: f64) -> Option<(f64, String)> {
    let mut best: Option<(f64, String)> = None;
    for (flags, counts) in readings {
        let Some(c) = counts else {
            continue;
        };
        let alt_aer = aer_of(&c.aer_row()).unwrap_or(1.0);
        if alt_aer < aer - 0.2 && best.as_ref().map_or(true, |b| alt_aer < b.0) {
            best = Some((alt_aer, flags.clone()));
        }
    }
    best
}

/// aer.py's line for each hypothesis (`--compat aer.py`).
fn aer_py_text(
    a: &AlignArgs,
    hyps: &[AlignmentFile],
    totals: &[AlignCounts],
) -> Result<String, Failure> {
    let lines: Vec<Result<String, String>> = hyps
        .iter()
        .zip(totals)
        .map(|(h, t)| aer_py(&h.path, t, a.f_alpha))
        .collect();
    let failed: Vec<String> = lines.iter().filter_map(|l| l.clone().err()).collect();
    if !failed.is_empty() {
        return Err(Failure::Eval(failed.join("\n")));
    }
    Ok(lines.into_iter().filter_map(Result::ok).collect())
}

/// wa_eval_align.pl's block for each hypothesis, scored as the script sees the files
/// (`--compat wa_eval_align`), with warnings where that differs from the report.
fn wa_eval_text(
    a: &AlignArgs,
    gold: &AlignmentFile,
    hyps: &[AlignmentFile],
    keep_null: bool,
) -> String {
    let mut o = String::new();
    for h in hyps {
        let (seen, moved) = as_wa_eval_sees_it(gold, h);
        if let Some(k) = moved.first() {
            if !a.report.quiet {
                eprintln!(
                    "warning: {}: {} sentence number(s) are written differently from the gold {} (e.g. sentence {k}): wa_eval_align.pl compares them as text and matches no link there, and so does this output (the report matches them by number)",
                    h.path,
                    moved.len(),
                    gold.path
                );
            }
        }
        if (gold.mixed_ids || h.mixed_ids) && !a.report.quiet {
            eprintln!(
                "warning: {} or {} writes one sentence number in two ways: wa_eval_align.pl may match fewer links than this output",
                gold.path, h.path
            );
        }
        let rows = count_files(gold, &seen, keep_null, &sentence_numbers([gold, &seen]));
        o.push_str(&wa_eval_align(&sum(&rows)));
    }
    o
}

/// What an `align` report shows besides the counts (the command's options, or those of
/// `treeval merge`).
pub(crate) struct Present<'a> {
    /// The report's options.
    pub report: &'a crate::args::ReportArgs,
    /// `--test-metrics`.
    pub test_metrics: &'a [String],
    /// `--sentences`, as the signature records it.
    pub sentences: Option<u64>,
}

impl<'a> Present<'a> {
    fn of(a: &'a AlignArgs) -> Self {
        Present {
            report: &a.report,
            test_metrics: &a.test_metrics,
            sentences: a.sentences,
        }
    }
}

/// The report: the scores of every hypothesis with their intervals, the tests, the notes;
/// made by the command and, from summed states, by `treeval merge`.
pub(crate) fn present(p: &Present<'_>, e: &AlignIn<'_>, warnings: Vec<Warning>) -> Report {
    let mut signature = treeval_report::align::signature(e, p.sentences);
    let cfg = super::significance::config(&p.report.sig);
    if !cfg.tests.is_empty() || p.report.sig.ci.is_some() {
        super::significance::sign(&p.report.sig, &cfg, &mut signature);
    }
    let ci = super::significance::intervals(&p.report.sig);
    let mut r = treeval_report::align::build(signature, e, ci, warnings);
    if !cfg.tests.is_empty() {
        let ms = measures(e.f_alpha);
        let tested: Vec<treeval_report::driver::Tested> = p
            .test_metrics
            .iter()
            .filter_map(|n| ms.iter().find(|m| m.name == n.as_str()))
            .map(|m| (m, None))
            .collect();
        let bar = super::significance::Progress::new(p.report.quiet);
        (r.comparisons, r.rankings) =
            treeval_report::driver::tests(&tested, e.per_hyp, &cfg, &|l, d, n| bar.update(l, d, n));
        bar.finish();
    }
    r.significance = super::significance::settings(&p.report.sig, &cfg, p.test_metrics);
    r
}

/// The rule of [`crate::select::nothing_scored`] for every hypothesis (the command's and
/// a merge's, from its `totals`): no link on either side (every link with a NULL side
/// left out, or none at all) leaves nothing to score. `--compat` prints what the
/// reference script prints.
pub(crate) fn check_scored(
    (gold, hyps, totals): (&AlignmentFile, &[AlignmentFile], &[AlignCounts]),
    keep_null: bool,
    (sel, selected): (
        &treeval_metrics::select::Selection,
        &treeval_metrics::select::SelectionCounts,
    ),
    (compat, out): (Option<AlignCompat>, &crate::args::OutputArgs),
) -> Result<(), Failure> {
    if compat.is_some() {
        return Ok(());
    }
    let gold = &gold.path;
    let each = hyps.iter().zip(totals).map(|(h, t)| {
        let h = &h.path;
        let why = move || {
            let null = t.hyp_null + t.gold_null;
            let (why, lift) = if null > 0 && !keep_null {
                (
                    format!("every link of {gold} and {h} has a NULL side ({null}), and NULL links are left out"),
                    "--null include scores them",
                )
            } else {
                (
                    format!("neither {gold} nor {h} has a link"),
                    "are these the alignment files (is the gold for another corpus)?",
                )
            };
            crate::select::Nothing {
                why: format!("{why} ({} sentence pairs read)", t.sentences),
                lift: lift.to_owned(),
            }
        };
        (t.a + t.p, Box::new(why) as Box<dyn FnOnce() -> _>)
    });
    crate::select::nothing_scored(each, (sel, selected), out)
}
