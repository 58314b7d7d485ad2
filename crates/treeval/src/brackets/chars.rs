//! `brackets --align chars`: what the command refuses with it, and how the character
//! alignment's findings (mismatch windows, brackets that cannot match, sentence
//! boundaries that differ) reach the report.

use treeval_metrics::brackets::chars::{CharWindow, CharsResult, NORMALIZATION};
use treeval_report::model::{Warning, WarningKind};
use treeval_report::value::Listing;

use super::{Align, Options};
use crate::{Common, Error, Result};

/// The signature's value for `align`: the mode and the normalisation of words.
pub(super) fn signature_value() -> String {
    format!("chars+{NORMALIZATION}")
}

/// Usage errors of `--align chars`: what cannot work over characters.
pub(super) fn check(options: &Options, _common: &Common) -> Result<()> {
    if options.align != Align::Chars {
        return Ok(());
    }
    if options.compat.is_some() {
        return Err(Error::Usage(
            "--compat evalb prints EVALB's output, which pairs trees line by line and compares their words; --align chars pairs them by characters: drop one of the two".into(),
        ));
    }
    if options.careful {
        return Err(Error::Usage(
            "--careful prepares, classifies and judges brackets over word positions shared by both trees, which --align chars does not have (the tokens may differ): drop one of the two".into(),
        ));
    }
    Ok(())
}

/// Characters of a window's text shown.
const SHOWN: usize = 10;

/// At most [`SHOWN`] characters of `s`, then `…`; `∅` when empty.
fn shown(s: &str) -> String {
    if s.is_empty() {
        return "∅".into();
    }
    let mut out: String = s.chars().take(SHOWN).collect();
    if s.chars().count() > SHOWN {
        out.push('…');
    }
    out
}

/// Every mismatch window of test file `k`, one row each.
pub(super) fn listing(k: usize, c: &CharsResult) -> Option<Listing> {
    if c.windows.is_empty() {
        return None;
    }
    let columns = [
        "sentence",
        "gold line",
        "system line",
        "gold chars",
        "system chars",
        "gold brackets",
        "system brackets",
        "kind",
    ];
    let mut l = Listing::new("mismatch-windows", k, &columns);
    for w in &c.windows {
        l.push(vec![
            w.sentence.to_string(),
            w.lines.0.to_string(),
            w.lines.1.to_string(),
            shown(&w.gold),
            shown(&w.system),
            w.gold_brackets.to_string(),
            w.system_brackets.to_string(),
            window_kind(w).into(),
        ]);
    }
    Some(l)
}

/// What a window is: gold text the system lacks (`dropped`), system text the gold lacks
/// (`added`), or other text (`changed`).
fn window_kind(w: &CharWindow) -> &'static str {
    match (w.gold.is_empty(), w.system.is_empty()) {
        (false, true) => "dropped",
        (true, false) => "added",
        _ => "changed",
    }
}

/// One window as the warning shows it.
fn window(w: &CharWindow) -> String {
    format!(
        "sentence {} (gold line {}): gold '{}', system '{}'",
        w.sentence,
        w.lines.0,
        shown(&w.gold),
        shown(&w.system)
    )
}

/// The warning when test file `path`'s text differs from the gold's.
pub(super) fn warning(path: &str, c: &CharsResult) -> Option<Warning> {
    let first = c.windows.first()?;
    let n = c.windows.len();
    let at = |w: &CharWindow| format!("{path}:{}", w.lines.1);
    let mut warning = Warning::of(
        WarningKind::TokenizationResync,
        at(first),
        format!(
            "the kept characters of gold and system differ in {n} mismatch window{} ({} gold and {} system brackets end in one and cannot match); the first: {}",
            if n == 1 { "" } else { "s" },
            c.unaligned_gold_brackets,
            c.unaligned_system_brackets,
            window(first)
        ),
        Some("the mismatch-windows table lists every window; the text around them is scored".into()),
    );
    warning.count = n as u64;
    if n > 1 {
        let positions = c.windows.iter().map(at);
        warning.positions = positions
            .take(treeval_report::model::GROUP_POSITIONS)
            .collect();
    }
    Some(warning)
}

/// The note on test file `path`'s alignment: sentence boundaries and words it could
/// not compare.
pub(super) fn note(path: &str, c: &CharsResult) -> String {
    format!(
        "{path}: --align chars: {} window(s), {} gold sentence(s) over several system trees, {} system tree(s) over several gold sentences; {} gold word(s) without a system word over the same characters are not in tagging accuracy",
        c.windows.len(),
        c.split_sentences,
        c.joined_trees,
        c.untagged_words
    )
}
