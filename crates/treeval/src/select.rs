//! Sentence selection (`sent_id`, `min_len`, `max_len`) in every family: the options made
//! into a [`Selection`], and the counts put into the report (a note, JSON `selection`, a
//! warning for listed ids the gold lacks, and `sel:` in the signature); and the rule that
//! a run scoring nothing is an error.

use treeval_metrics::select::{Selection, SelectionCounts};
use treeval_report::model::{Warning, WarningKind};

use crate::{Common, Error};

/// The selection the options ask for (a usage error for a bad regular expression or
/// `min_len` over `max_len`).
pub fn selection(c: &Common) -> Result<Selection, Error> {
    Selection::parse(c.sent_id.as_deref(), c.min_len, c.max_len).map_err(Error::Usage)
}

/// Whether any selection option is given.
pub fn is_given(c: &Common) -> bool {
    c.sent_id.is_some() || c.min_len.is_some() || c.max_len.is_some()
}

/// A usage error when a family cannot honour the selection options.
pub fn refuse(c: &Common, why: &str) -> Result<(), Error> {
    if is_given(c) {
        return Err(Error::Usage(why.to_owned()));
    }
    Ok(())
}

/// `sent_id` in a part of a corpus of a family that knows a sentence only by its number
/// in the file (`what`: `a tree`, `a sentence pair`): the number restarts in every shard,
/// so each shard would select other sentences than one run on the concatenated files (a
/// usage error; `min_len` and `max_len` do not depend on the split).
pub fn refuse_numbered_ids(c: &Common, what: &str) -> Result<(), Error> {
    if c.sent_id.is_none() {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "--sent-id with --emit-state: {what} has no id but its number in the file, which restarts in every shard, so a shard would select other sentences than one run on the whole corpus\n  hint: --min-len and --max-len do not depend on the split; evaluate --sent-id on the whole corpus"
    )))
}

/// Whether the selection kept any sentence (else the error of [`nothing_scored`]).
pub fn check_kept(sel: &Selection, c: &SelectionCounts) -> Result<(), Error> {
    if sel.is_all() || c.kept > 0 {
        return Ok(());
    }
    Err(nothing(Nothing {
        why: format!(
            "the sentence selection ({}) kept none of the {} gold sentences",
            sel.describe("words"),
            c.sentences()
        ),
        lift: "check --sent-id, --min-len and --max-len against the gold file".into(),
    }))
}

/// Why a run scored no unit, and the option that would let it score some: the input of
/// [`nothing_scored`].
#[derive(Debug)]
pub struct Nothing {
    /// Why none was scored, with the counts (`all 3 sentences kept are over --max-cost 1`).
    pub why: String,
    /// What lifts it (`raise --max-cost, or --max-cost 0 for no limit`).
    pub lift: String,
}

/// One system's units scored, and why it scored none (made only when needed).
pub type SystemScored<'a> = (u64, Box<dyn FnOnce() -> Nothing + 'a>);

/// The rule of every family: a run that scores nothing is an error naming the reason and
/// the option that lifts it, whatever left every unit out (a limit, `where`, error
/// sentences, a punctuation policy): a figure over nothing would be printed as n/a as if
/// the run were complete. `scored` gives, per system, the units scored and why it scored
/// none; the run scores nothing when no system scores anything (one system's n/a beside
/// another's scores is a warning of its family). A part of a corpus (`part`) keeps its
/// state and reports n/a with its family's warnings, since the other parts may hold units
/// to score; `merge` applies the rule to the sum. A sentence selection `sel` that keeps
/// nothing has its own message ([`check_kept`]), not this one.
pub fn nothing_scored<'a>(
    scored: impl IntoIterator<Item = SystemScored<'a>>,
    (sel, counts): (&Selection, &SelectionCounts),
    part: bool,
) -> Result<(), Error> {
    let selection_kept_none = !sel.is_all() && counts.kept == 0;
    if part || selection_kept_none {
        return Ok(());
    }
    let mut first = None;
    let mut systems = 0;
    for (n, why) in scored {
        if n > 0 {
            return Ok(());
        }
        systems += 1;
        first.get_or_insert(why);
    }
    let Some(why) = first else {
        return Ok(());
    };
    let mut n = why();
    if systems > 1 {
        n.why.push_str(&format!(
            "; none of the other {} system files scores anything either",
            systems - 1
        ));
    }
    Err(nothing(n))
}

/// The error of a run that scores nothing: why, and the option that lifts it.
fn nothing(n: Nothing) -> Error {
    Error::Eval(format!("nothing is scored: {}\n  hint: {}", n.why, n.lift))
}

/// [`check_kept`], except in a part of a corpus: the other parts may hold the selected
/// sentences, so a part that keeps none is scored as nothing (n/a, with a warning from
/// [`record`]) and its state counts its exclusions.
pub fn check_kept_unless_part(
    sel: &Selection,
    c: &SelectionCounts,
    part: bool,
) -> Result<(), Error> {
    if part {
        return check_ids_of_part(c);
    }
    check_kept(sel, c)
}

/// In a part of a corpus, `sent_id` must not read a sentence's number in the file (a
/// sentence without `# sent_id`): the part's numbers restart at 1, so it would select
/// other sentences than one run on the whole corpus (an error, not a silent difference).
fn check_ids_of_part(c: &SelectionCounts) -> Result<(), Error> {
    if c.numbered == 0 {
        return Ok(());
    }
    Err(Error::Eval(format!(
        "--sent-id with --emit-state: {} gold sentence(s) of this part have no `# sent_id`, so --sent-id would read their number in this file, which restarts in every part and is not their number in the corpus\n  hint: give the gold sentences ids (`# sent_id = …`), or evaluate --sent-id on the whole corpus",
        c.numbered
    )))
}

/// Put the selection and its counts into the report: `unit` names what a length counts,
/// `words_known` whether the counts hold words. Nothing when every sentence is kept; an
/// error when none is, except in a part of a corpus (`part`), where it is a warning
/// (nothing is scored in this part's report). Warnings go into the report only.
pub fn record(
    report: &mut treeval_report::Report,
    sel: &Selection,
    c: &SelectionCounts,
    (unit, words_known): (&str, bool),
    part: bool,
) -> Result<(), Error> {
    if part && !sel.is_all() && c.kept == 0 {
        report.warnings.push(Warning::of(
            WarningKind::SelectionEmpty,
            String::new(),
            format!(
                "the sentence selection ({}) kept none of the {} gold sentences of this part: nothing is scored in its report",
                sel.describe(unit),
                c.sentences()
            ),
            Some("its state (--emit-state) counts the excluded sentences, and `treeval merge` adds them to the other parts'".into()),
        ));
    } else {
        check_kept(sel, c)?;
    }
    let Some(sig) = sel.signature() else {
        return Ok(());
    };
    report.signature.push("sel", sig);
    let summary = sel.summary(c, unit, words_known);
    report.notes.push(summary.note(&sel.describe(unit)));
    if let Some(w) = missing_ids(sel, c) {
        report.warnings.push(w);
    }
    report.selection = Some(summary);
    Ok(())
}

/// The warning for listed ids the gold lacks, if any.
fn missing_ids(sel: &Selection, c: &SelectionCounts) -> Option<Warning> {
    let missing = sel.missing(c);
    if missing.is_empty() {
        return None;
    }
    let first: Vec<&str> = missing.iter().take(5).copied().collect();
    Some(Warning::of(
        WarningKind::UnknownSentIds,
        sel.ids.as_ref().map_or(String::new(), |f| match f {
            treeval_metrics::select::IdFilter::File { path, .. } => path.clone(),
            treeval_metrics::select::IdFilter::Regex(_) => String::new(),
        }),
        format!(
            "{} of the listed sentence ids are not in the gold file: {}{}",
            missing.len(),
            first.join(", "),
            if missing.len() > first.len() {
                ", …"
            } else {
                ""
            }
        ),
        Some("is the id file for another treebank or split?".into()),
    ))
}
