//! Sentence selection in the commands not yet running through the library: the
//! library's rules ([`treeval::select`]) called with the command line's options, the
//! warnings they add printed on stderr unless quiet.

use treeval_metrics::select::{Selection, SelectionCounts};

use treeval_report::state::State;

use crate::args::{OutputArgs, SelectArgs};
use crate::Failure;

pub use treeval::select::SystemScored;

/// The library's shared options holding only the selection `a`.
fn common(a: &SelectArgs) -> treeval::Common {
    treeval::Common {
        sent_id: a.sent_id.clone(),
        min_len: a.min_len,
        max_len: a.max_len,
        ..treeval::Common::default()
    }
}

/// The selection the options ask for (see [`treeval::select::selection`]).
pub fn selection(a: &SelectArgs) -> Result<Selection, Failure> {
    Ok(treeval::select::selection(&common(a))?)
}

/// A usage error when `command` cannot honour the selection options.
pub fn refuse(a: &SelectArgs, why: &str) -> Result<(), Failure> {
    Ok(treeval::select::refuse(&common(a), why)?)
}

/// See [`treeval::select::nothing_scored`].
pub fn nothing_scored<'a>(
    scored: impl IntoIterator<Item = SystemScored<'a>>,
    sel: (&Selection, &SelectionCounts),
    out: &OutputArgs,
) -> Result<(), Failure> {
    Ok(treeval::select::nothing_scored(scored, sel, is_part(out))?)
}

/// Whether the run evaluates one part of a corpus: it writes a state (`--emit-state`)
/// that `treeval merge` sums with the states of the other parts.
pub fn is_part(o: &OutputArgs) -> bool {
    o.emit_state.is_some()
}

/// The selection and its counts recorded in a state (every sentence kept when it records
/// none), for the report of a merge.
pub fn from_state(s: &State) -> Result<(Selection, SelectionCounts), Failure> {
    s.selection().map_err(Failure::Eval)
}

/// [`treeval::select::record`], the warnings it adds printed on stderr unless `quiet`.
pub fn record_part(
    report: &mut treeval_report::Report,
    sel: &Selection,
    c: &SelectionCounts,
    unit: (&str, bool),
    quiet: bool,
    part: bool,
) -> Result<(), Failure> {
    let before = report.warnings.len();
    treeval::select::record(report, sel, c, unit, part)?;
    crate::commands::significance::print_warnings(&report.warnings[before..], quiet);
    Ok(())
}
