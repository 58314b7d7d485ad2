//! `align`'s warnings about the files and the scores: the pieces against the tokens,
//! links past the last word of their sentence, positions that look one off, NULL links,
//! and an AER close to 1 with the reading that would fix it.

use treeval_formats::align::{AlignOptions, AlignmentFile};
use treeval_formats::subwords::PieceFile;
use treeval_metrics::align::{aer_of, count_files, sentence_numbers, sum, AlignCounts};
use treeval_metrics::align_index::{
    aer_between, base_read, base_shift, base_that_fits, past_end, SentenceWords,
};
use treeval_report::model::{Warning, WarningKind};

use super::read::Scoring;
use super::{Options, Tokens};
use crate::{Error, Result};

fn warn(
    w: &mut Vec<Warning>,
    kind: WarningKind,
    position: &str,
    message: String,
    hint: Option<&str>,
) {
    w.push(Warning::of(
        kind,
        position.to_owned(),
        message,
        hint.map(str::to_owned),
    ));
}

/// Another reading of a hypothesis: the options that give it, and its summed counts
/// (`None` where the file cannot be read so).
pub type Reading = (String, Option<AlignCounts>);

/// The warnings about the files as read: the pieces against the tokens, links past the
/// last word of their sentence (without the tokens: hypotheses whose positions look one
/// off from the gold's), links with NULL on both sides.
pub(super) fn file_warnings(
    options: &Options,
    scoring: &Scoring<'_>,
    hyps: &[AlignmentFile],
    tokens: Option<&Tokens>,
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    if let Some(t) = tokens {
        if let Some(p) = scoring.pieces {
            check_pieces_against_tokens(options, p, t, warnings)?;
        }
        token_warnings(options, t, scoring, hyps, warnings);
    } else {
        shift_warnings(scoring, hyps, warnings);
    }
    null_null_warnings(std::iter::once(scoring.gold).chain(hyps), warnings);
    Ok(())
}

/// The words of every sentence on both sides, counted from the `tokens` files.
fn word_counts(tokens: &Tokens) -> SentenceWords {
    tokens
        .each_ref()
        .map(|side| side.iter().map(Vec::len).collect())
}

/// Warnings about the token files: fewer lines than sentences, and links (of any file)
/// past the last word of their sentence's side; where the other index base puts every
/// link of that file within its sentence (and the base was not given), the warning names
/// that base and the AER it gives.
fn token_warnings(
    options: &Options,
    tokens: &Tokens,
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
                WarningKind::TokenLines,
                options.tokens[k].name(),
                format!("{} lines, but the links reach sentence {last}", side.len()),
                Some("line k of a token file is sentence k"),
            );
        }
    }
    let words = word_counts(tokens);
    let reread = |p: &str, o: AlignOptions| s.reread(p, o);
    let reread_gold = |o: AlignOptions| s.reread_gold(o);
    let check = BaseCheck {
        gold: s.gold,
        hyps,
        keep_null: s.keep_null,
        read: [s.gold_opts, s.hyp_opts],
        reread_gold: &reread_gold,
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
        warn(
            w,
            WarningKind::LinksPastLastWord,
            &position,
            message,
            Some(&hint),
        );
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

/// What the index-base check of a file needs (`align` with tokens and `pts`, which have
/// the words of every sentence): the gold and the hypotheses, how NULL links are
/// scored, the options the gold and the hypotheses were read with (a base given by the
/// user is not second-guessed), and how the gold and a hypothesis are read again.
pub(crate) struct BaseCheck<'a> {
    /// The gold alignment.
    pub gold: &'a AlignmentFile,
    /// The hypotheses.
    pub hyps: &'a [AlignmentFile],
    /// Whether links with a NULL side are scored.
    pub keep_null: bool,
    /// The gold's reading options and the hypotheses'.
    pub read: [AlignOptions; 2],
    /// The gold read again with other options.
    pub reread_gold: &'a dyn Fn(AlignOptions) -> Option<AlignmentFile>,
    /// A hypothesis (by name) read again with other options.
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
                (self.reread_gold)(o)
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

/// Without tokens: a hypothesis whose positions look one off from the gold's on both
/// sides (it never uses position 0 where the gold does, or goes past the gold's last
/// position of a sentence; or the reverse) is warned about, with the AER the other base
/// gives, where that base was not given and gives a lower AER. A hypothesis with an AER
/// close to 1 is left to [`hyp_warnings`].
fn shift_warnings(s: &Scoring<'_>, hyps: &[AlignmentFile], w: &mut Vec<Warning>) {
    for h in hyps {
        let Some((shift, e)) = base_shift(s.gold, h) else {
            continue;
        };
        let Some(now) = aer_between(s.gold, h, s.keep_null).filter(|&x| x <= 0.8) else {
            continue;
        };
        let Some((option, base, alt)) = shifted_reading(s, h, shift) else {
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
            w, WarningKind::WrongIndexBase,
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
    let g = s.gold_opts;
    let gold_base = base_read(s.gold, g.base);
    if g.base.is_none() && gold_base == up {
        let o = AlignOptions {
            format: Some(s.gold.format),
            base: Some(1 - up),
            ..g
        };
        let alt = s.reread_gold(o)?;
        return Some(("--gold-base", 1 - up, aer_between(&alt, h, s.keep_null)));
    }
    None
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
                WarningKind::NullBothSides,
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

/// `hyp_subwords` with tokens: each line's pieces must make as many words as its tokens
/// line (else an error at the pieces file's `path:line`); words whose text differs from
/// the tokens' are warned about (naming the first such sentence).
fn check_pieces_against_tokens(
    options: &Options,
    pieces: &[PieceFile; 2],
    tokens: &Tokens,
    w: &mut Vec<Warning>,
) -> Result<()> {
    let mut errors = Vec::new();
    for (k, (p, t)) in pieces.iter().zip(tokens).enumerate() {
        let name = options.tokens[k].name();
        let mut differ = Vec::new();
        for (i, (pw, tw)) in p.lines.iter().zip(t).enumerate() {
            if pw.words.len() != tw.len() {
                if errors.len() < treeval_formats::align::ERROR_LIMIT {
                    errors.push(format!(
                        "{}:{}: the pieces make {} word(s) ({}), but line {} of {} has {} word(s)\n  hint: the pieces must be the tokens' words split further (line k of both is sentence k); check the order of the --hyp-subwords and --tokens files",
                        p.path, i + 1, pw.words.len(), p.convention.name(), i + 1, name, tw.len()
                    ));
                }
            } else if pw.words.concat() != tw.concat() {
                differ.push(i + 1);
            }
        }
        if p.lines.len() != t.len() {
            warn(
                w,
                WarningKind::TokenLines,
                &p.path,
                format!("{} lines, but {} has {}", p.lines.len(), name, t.len()),
                Some("line k of each file is sentence k"),
            );
        }
        if let Some(first) = differ.first() {
            warn(
                w, WarningKind::PiecesDifferFromTokens,
                &format!("{}:{first}", p.path),
                format!(
                    "{} sentence(s) (e.g. sentence {first}) have as many words as {} but other characters once the pieces are joined",
                    differ.len(),
                    name
                ),
                Some("a normalising tokenizer (e.g. NFKC) changes characters; the word counts agree, so the links are projected anyway"),
            );
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Error::Eval(errors.join("\n")))
    }
}

/// Warnings about one hypothesis' totals: no link, links tagged S and P, NULL links left
/// out, and an AER close to 1 (with the base or direction that would fix it, among its
/// `other` readings).
pub fn hyp_warnings(
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
            WarningKind::NoLinks,
            path,
            format!("the hypothesis has no link: precision is undefined (n/a) and {aer}"),
            None,
        );
    }
    if t.hyp_both > 0 {
        warn(
            warnings, WarningKind::LinksSureAndPossible,
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
            WarningKind::AerCloseToOne,
            path,
            format!(
                "AER is {aer:.4}, close to 1: the index base or the link direction may be wrong"
            ),
            hint.as_deref()
                .or(Some("check --hyp-base, --gold-base and --reverse")),
        );
    }
}

/// The hypothesis' links with a NULL side, when left out (without `null: include`).
pub fn null_warning(path: &str, keep_null: bool, t: &AlignCounts, warnings: &mut Vec<Warning>) {
    if t.hyp_null > 0 && !keep_null {
        warn(
            warnings,
            WarningKind::NullLinksLeftOut,
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
pub(super) fn other_readings(s: &Scoring<'_>, h: &AlignmentFile) -> Vec<Reading> {
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
