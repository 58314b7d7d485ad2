//! Reading for `ud` and `relations`: the CoNLL-U inputs of `ud` (as a reference scorer
//! reads them, under `compat`), those of `relations` (any dependency format), the reader's warnings (each once), the message of a failed
//! evaluation, and the gold sentences' ids.

use treeval_formats::{Diagnostic, Format, ReaderBuilder, Reference};
use treeval_metrics::deps::Input as ReadInput;
use treeval_metrics::ud::UdError;
use treeval_report::model::Warning;

use crate::Input;

/// A CoNLL-U input; with a `reference`, lines are read and checked only as that
/// reference scorer reads and checks them.
pub(crate) fn input(i: &Input, reference: Option<Reference>) -> ReadInput {
    let mut builder = ReaderBuilder::new();
    builder
        .format(Some(Format::Conllu))
        .validate_deps(false)
        .reference(reference);
    i.with(builder)
}

/// A dependency input of `relations`, whose relations are read off the basic tree (and
/// DEPS): CoNLL-U, CoNLL-X, CoNLL-2009 or MaltTab, recognised from the content as `deps`
/// recognises it.
pub(crate) fn dependency_input(i: &Input) -> ReadInput {
    let mut builder = ReaderBuilder::new();
    builder.validate_deps(false);
    i.with(builder)
}

/// The format `i` is read as by [`dependency_input`], from its first sentence read again
/// (`unknown` for standard input, which cannot be read twice).
pub(crate) fn detected_format(i: &Input) -> String {
    let mut builder = ReaderBuilder::new();
    builder.validate_deps(false);
    let found = (!i.is_stdin())
        .then(|| i.with(builder).open().ok())
        .flatten()
        .and_then(|mut r| {
            let mut s = treeval_formats::Sentence::new();
            r.read_sentence(&mut s).ok()?;
            r.format()
        });
    found.map_or_else(|| "unknown".into(), |f| f.name().into())
}

/// The reader's warnings as report warnings, each once (a gold file's come once per
/// system), grouped by kind.
pub fn reader_warnings(warnings: &[Diagnostic]) -> Vec<Warning> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for d in warnings {
        let w = Warning::from(d);
        if seen.insert((w.position.clone(), w.message.clone())) {
            out.push(w);
        }
    }
    treeval_report::model::group_warnings(out)
}

/// The sent_id of every sentence of a CoNLL-U input, read again (from its path or from
/// memory; none when it is standard input or cannot be read, which the evaluation has
/// reported already).
pub(crate) fn gold_sent_ids(gold: &Input) -> Vec<Option<String>> {
    if gold.is_stdin() {
        return Vec::new();
    }
    let mut builder = ReaderBuilder::new();
    builder.validate_deps(false);
    let Ok(mut reader) = gold.with(builder).open() else {
        return Vec::new();
    };
    let mut ids = Vec::new();
    let mut s = treeval_formats::Sentence::new();
    while let Ok(true) = reader.read_sentence(&mut s) {
        ids.push(s.sent_id().map(str::to_owned));
    }
    ids
}

/// A failed evaluation as the message the user sees.
pub(crate) fn explain(e: UdError, gold: &str, sys: &str) -> String {
    // at most a screenful
    let lines = |d: &[Diagnostic]| treeval_formats::error::render_capped(d, 0);
    match e {
        UdError::Fatal(e) => e.to_string(),
        UdError::Invalid(d) => lines(&d),
        UdError::Unsynced(m, d) => {
            let s = format!(
                "{sys}:{}: --align resync found no {} equal bytes within {} bytes after {gold}:{} (gold '{}', system '{}')\n  hint: are these files of the same text?",
                m.system_line,
                treeval_metrics::ud::ANCHOR,
                treeval_metrics::ud::MAX_LOOKAHEAD,
                m.gold_line,
                m.gold_text,
                m.system_text
            );
            cause_first(&lines(&d), s)
        }
        UdError::Mismatch(m, d) => cause_first(&lines(&d), mismatch(&m, gold, sys)),
    }
}

/// The reading problems (`read`: the cause, a malformed line) before the texts'
/// difference they lead to (`difference`), whose hint then says it follows from them.
fn cause_first(read: &str, difference: String) -> String {
    if read.is_empty() {
        return difference;
    }
    let first = difference.lines().next().unwrap_or_default();
    format!("{read}\n{first}\n  hint: this difference follows from the problem(s) above: fix those first")
}

/// The message of texts that differ: both lines, the first differing characters (by
/// code point too: NFC and NFD look the same) and the likely cause.
fn mismatch(m: &treeval_metrics::ud::TextMismatch, gold: &str, sys: &str) -> String {
    let show = |t: &str| {
        if t.is_empty() {
            "the end of the file".to_owned()
        } else {
            format!("'{t}'")
        }
    };
    let hint = if m.system_text.is_empty() || m.gold_text.is_empty() {
        "one file ends before the other: a truncated file or missing sentences? --align resync scores what the files share"
    } else {
        "ud compares the concatenated token FORMs; check for changed characters, NFC vs NFD, or a different file; --align resync scores what the files share"
    };
    let code = |t: &str| {
        t.chars()
            .next()
            .map_or(String::new(), |c| format!("U+{:04X}", c as u32))
    };
    let codes = match (code(&m.gold_text), code(&m.system_text)) {
        (a, b) if !a.is_empty() && !b.is_empty() => format!(" ({a} vs {b})"),
        _ => String::new(),
    };
    format!(
        "{sys}:{}: expected the same text as {gold}:{} (FORMs without spaces), found a difference at character {}: gold {}, system {}{codes}\n  hint: {hint}",
        m.system_line,
        m.gold_line,
        m.index,
        show(&m.gold_text),
        show(&m.system_text)
    )
}
