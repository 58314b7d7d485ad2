//! Sentence selection in `table` (not yet running through the library): the library's
//! rules ([`treeval::select`]) called with the command line's options.

use treeval_metrics::select::Selection;

use crate::args::SelectArgs;
use crate::Failure;

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
