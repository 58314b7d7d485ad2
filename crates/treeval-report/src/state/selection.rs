//! The sentence selection of a state (`--sent-id`, `--min-len`, `--max-len`), the same for
//! every family: the selection as given, which states must share to merge, and its counts
//! (sentences and words kept and excluded, ids of an id file seen), summed over shards, so
//! that a merged report says what a run on the concatenated corpus says.

use serde::{Deserialize, Serialize};
use treeval_metrics::select::{IdSpec, Selection, SelectionCounts, SelectionSpec};

use super::{MergeError, State};

/// The selection a state was evaluated under, with its counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectionState {
    /// The selection as given: states merge only when it is equal.
    pub spec: SelectionSpec,
    /// Sentences and words kept and excluded (by id, by length), summed over the shards.
    pub counts: SelectionCounts,
}

impl SelectionState {
    /// The state of `sel` and its counts `c`; `None` when every sentence is kept.
    pub fn of(sel: &Selection, c: &SelectionCounts) -> Option<Self> {
        (!sel.is_all()).then(|| SelectionState {
            spec: sel.spec(),
            counts: c.clone(),
        })
    }

    /// Add a later shard's counts.
    pub(super) fn add(&mut self, o: &SelectionState) {
        self.counts.add_shard(&o.counts);
    }
}

impl State {
    /// The state with the sentence selection it was evaluated under and its counts
    /// (nothing is recorded when every sentence is kept). Every family's command calls
    /// this on the state it writes.
    pub fn with_selection(mut self, sel: &Selection, c: &SelectionCounts) -> Self {
        self.selection = SelectionState::of(sel, c);
        self
    }

    /// The selection and its counts, as the command's report takes them (every sentence
    /// kept, and no counts, when the state records none).
    pub fn selection(&self) -> Result<(Selection, SelectionCounts), MergeError> {
        match &self.selection {
            None => Ok((Selection::default(), SelectionCounts::default())),
            Some(s) => Selection::from_spec(&s.spec)
                .map(|sel| (sel, s.counts.clone()))
                .map_err(|e| format!("the states' sentence selection cannot be read: {e}")),
        }
    }
}

/// The selection in words, for the messages: `none`, or the options as given.
fn shown(s: Option<&SelectionState>) -> String {
    let Some(s) = s else {
        return "none (every sentence scored)".into();
    };
    let mut parts = Vec::new();
    match &s.spec.sent_id {
        Some(IdSpec::File { path, ids }) => {
            parts.push(format!("--sent-id {path} ({} ids)", ids.len()))
        }
        Some(IdSpec::Regex { pattern }) => parts.push(format!("--sent-id '{pattern}'")),
        None => {}
    }
    if let Some(n) = s.spec.min_len {
        parts.push(format!("--min-len {n}"));
    }
    if let Some(n) = s.spec.max_len {
        parts.push(format!("--max-len {n}"));
    }
    parts.join(" ")
}

/// Check that `b` (the state in file `name`) was evaluated under the selection of `a`
/// (the state in file `first`).
pub(super) fn check(a: &State, b: &State, first: &str, name: &str) -> Result<(), MergeError> {
    let (x, y) = (a.selection.as_ref(), b.selection.as_ref());
    if x.map(|s| &s.spec) == y.map(|s| &s.spec) {
        return Ok(());
    }
    let same_words = shown(x) == shown(y);
    Err(format!(
        "{name}: sentence selection {}, and in {first} it is {}{}: shards merge only when evaluated with the same --sent-id, --min-len and --max-len\n  hint: evaluate every shard with the same command line",
        shown(y),
        shown(x),
        if same_words {
            " (the same file name with other ids)"
        } else {
            ""
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(sel: &Selection, c: &SelectionCounts) -> State {
        use crate::state::{Family, Graph, RelationsState, RelationsStateOptions};
        use treeval_metrics::ud::{AlignMode, EmptyNodes};
        let family = Family::Relations {
            options: RelationsStateOptions {
                graph: Graph::Basic,
                align: AlignMode::Strict,
                empty_nodes: EmptyNodes::Collapse,
                multiple_roots_okay: false,
            },
            counts: RelationsState {
                gold: "g".into(),
                format: "conllu".into(),
                systems: vec!["s".into()],
                units: vec![Vec::new()],
                warnings: Vec::new(),
            },
        };
        State::new(family).with_selection(sel, c)
    }

    #[test]
    fn a_selection_goes_into_the_state_and_comes_back_with_summed_counts() {
        let sel = Selection::parse(Some("a.*"), Some(2), None).unwrap();
        let mut c = sel.counts();
        sel.tally(&mut c, Some("a1"), 1, 3, 3);
        sel.tally(&mut c, Some("b1"), 2, 3, 3);
        sel.tally(&mut c, Some("a2"), 3, 1, 1);
        let a = state(&sel, &c);
        // written and read again as JSON
        let back: State = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!(back.selection, a.selection);
        let merged = super::super::merge(vec![a.clone(), back]).unwrap();
        let (s, n) = merged.selection().unwrap();
        assert_eq!(s, sel);
        // twice (3 kept words, 3 by id, 1 by length)
        assert_eq!(
            (n.kept, n.kept_words, n.by_id, n.by_id_words, n.by_length),
            (2, 6, 2, 6, 2)
        );
        assert_eq!(n.by_length_words, 2);
        // every sentence kept: nothing recorded
        let all = state(&Selection::default(), &SelectionCounts::default());
        assert!(all.selection.is_none());
        assert!(all.selection().unwrap().0.is_all());
    }

    #[test]
    fn shards_of_other_selections_do_not_merge() {
        let c = SelectionCounts::default();
        let a = state(&Selection::parse(None, None, Some(40)).unwrap(), &c);
        let b = state(&Selection::parse(None, Some(5), Some(40)).unwrap(), &c);
        let none = state(&Selection::default(), &c);
        let e = check(&a, &b, "s0.json", "s1.json").unwrap_err();
        assert!(
            e.starts_with("s1.json: sentence selection --min-len 5 --max-len 40, and in s0.json it is --max-len 40: shards merge only"),
            "{e}"
        );
        let e = check(&a, &none, "s0.json", "s1.json").unwrap_err();
        assert!(
            e.contains("sentence selection none (every sentence scored), and in s0.json it is --max-len 40"),
            "{e}"
        );
        assert!(check(&a, &a.clone(), "s0.json", "s1.json").is_ok());
    }
}
