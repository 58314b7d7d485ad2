//! The edit operations behind δ_new (`--errors`): the operations of the parse's optimal
//! script against the generalized gold that the script of the parse's own gold does not
//! have too. [`super::try_score_sentence`] forgives an operation of the parse's script
//! when the gold's script holds the same one (same type, node key and labels, each of the
//! gold's operations forgiving one); the others are listed here, so (every operation of
//! an optimal script costing 1) their number is the sentence's δ_new.

use serde::Serialize;

use super::{score_ops, Key, LabelIds, Op, TedEvalCounts, TedTree, Trio};
use crate::ted::TooCostly;

/// What an operation does to a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EditKind {
    /// A node of the parse that the generalized gold does not have.
    Deletion,
    /// A node of the generalized gold that the parse does not have.
    Insertion,
    /// A parse node mapped to a generalized-gold node with another label.
    Relabelling,
}

impl EditKind {
    /// The name used in listings.
    pub fn name(self) -> &'static str {
        match self {
            EditKind::Deletion => "deletion",
            EditKind::Insertion => "insertion",
            EditKind::Relabelling => "relabelling",
        }
    }
}

/// One node on one side of an operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditNode {
    /// Its function label (alternatives joined by `|` in the generalized gold, `*` for a
    /// lexical head); empty for a word's terminal.
    pub label: String,
    /// The words of its yield (0-based, ascending).
    pub words: Vec<u32>,
    /// Whether it is a word's terminal (only ever edited where the words of a tree are
    /// out of order, in non-projective trees).
    pub terminal: bool,
}

/// One operation of δ_new.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditOp {
    /// Its type.
    pub kind: EditKind,
    /// The parse's node (deletions and relabellings).
    pub parse: Option<EditNode>,
    /// The generalized gold's node (insertions and relabellings).
    pub gold: Option<EditNode>,
}

/// A node of a script: its key (`None` for terminals) and label id.
fn node(key: &Option<Key>, label: u32, ids: &LabelIds) -> EditNode {
    match key {
        Some(k) => EditNode {
            label: ids.name(label).to_owned(),
            words: k.words().collect(),
            terminal: false,
        },
        None => EditNode {
            label: String::new(),
            words: ids.terminal_word(label).into_iter().collect(),
            terminal: true,
        },
    }
}

fn edit(op: &Op, ids: &LabelIds) -> EditOp {
    match op {
        Op::Delete(k, l) => EditOp {
            kind: EditKind::Deletion,
            parse: Some(node(k, *l, ids)),
            gold: None,
        },
        Op::Insert(k, l) => EditOp {
            kind: EditKind::Insertion,
            parse: None,
            gold: Some(node(k, *l, ids)),
        },
        Op::Relabel(a, la, b, lb) => EditOp {
            kind: EditKind::Relabelling,
            parse: Some(node(a, *la, ids)),
            gold: Some(node(b, *lb, ids)),
        },
    }
}

/// [`super::try_score_sentence`] with the operations that make up δ_new, in the order
/// of the parse's script.
pub fn try_score_sentence_with_edits(
    parse: &TedTree,
    gold: &TedTree,
    gen: &TedTree,
    ids: &LabelIds,
    unlabeled: bool,
    max_cost: u64,
) -> Result<(TedEvalCounts, Vec<EditOp>), TooCostly> {
    let trees = Trio { parse, gold, gen };
    let (counts, kept) = score_ops(&trees, ids, unlabeled, max_cost, true)?;
    Ok((counts, kept.iter().map(|op| edit(op, ids)).collect()))
}

#[cfg(test)]
mod tests {
    use super::super::{functional_tree, generalize, ted_tree, FNode};
    use super::*;
    use proptest::prelude::*;

    fn ft(heads: &[u32], labels: &[&str]) -> FNode {
        functional_tree(heads, labels).0
    }

    fn edits(parse: &FNode, gold: &FNode, golds: &[&FNode]) -> (TedEvalCounts, Vec<EditOp>) {
        let gen = generalize(golds).unwrap();
        let mut ids = LabelIds::new();
        let (p, g, x) = (
            ted_tree(parse, &mut ids),
            ted_tree(gold, &mut ids),
            ted_tree(&gen, &mut ids),
        );
        try_score_sentence_with_edits(&p, &g, &x, &ids, false, u64::MAX).unwrap()
    }

    fn n(label: &str, words: &[u32]) -> Option<EditNode> {
        Some(EditNode {
            label: label.into(),
            words: words.to_vec(),
            terminal: false,
        })
    }

    #[test]
    fn the_forgiven_relabelling_is_not_listed() {
        // "on Sunday": the functional scheme (prep, pobj) generalized with the lexical
        // one (case, prep) is (ROOT (prep (case on) (pobj Sunday))). The functional gold
        // needs * → case on "on"; a parse that also calls "Sunday" dobj needs that and
        // dobj → pobj: δ = 2, the first is forgiven, δ_new = 1 = the one listed.
        let functional = ft(&[0, 1], &["prep", "pobj"]);
        let lexical = ft(&[2, 0], &["case", "prep"]);
        let parse = ft(&[0, 1], &["prep", "dobj"]);
        let (c, e) = edits(&parse, &functional, &[&functional, &lexical]);
        assert_eq!((c.delta, c.delta_new), (2, 1));
        let want = EditOp {
            kind: EditKind::Relabelling,
            parse: n("dobj", &[1]),
            gold: n("pobj", &[1]),
        };
        assert_eq!(e, [want]);
        // the gold itself: one operation, forgiven
        let (c, e) = edits(&functional, &functional, &[&functional, &lexical]);
        assert_eq!((c.delta, c.delta_new, e.len()), (1, 0, 0));
    }

    #[test]
    fn a_moved_word_is_deleted_and_inserted_with_its_terminal() {
        // gold "a b c": b heads a (nsubj) and c (obj); the parse attaches c to a, so its
        // nsubj node covers a and c (a gap over b: the terminals are out of order and
        // cost 1). The cheapest script maps that node onto the gold's nsubj leaf (same
        // label, free), deletes its * daughter and obj node with c's terminal, and
        // inserts obj and c's terminal under the root node: δ = δ_new = 5 (the gold is
        // the generalization, nothing is forgiven).
        let gold = ft(&[2, 0, 2], &["nsubj", "root", "obj"]);
        let parse = ft(&[2, 0, 1], &["nsubj", "root", "obj"]);
        let (c, e) = edits(&parse, &gold, &[&gold]);
        assert_eq!((c.delta, c.delta_new, c.terminal_edits), (5, 5, 2));
        let word = |w: u32| {
            Some(EditNode {
                label: String::new(),
                words: vec![w],
                terminal: true,
            })
        };
        let (del, ins) = (EditKind::Deletion, EditKind::Insertion);
        let op = |kind, parse, gold| EditOp { kind, parse, gold };
        assert_eq!(
            e,
            [
                op(ins, None, n("obj", &[2])),
                op(ins, None, word(2)),
                op(del, n("obj", &[2]), None),
                op(del, word(2), None),
                op(del, n("*", &[0]), None),
            ]
        );
    }

    /// Random dependency trees over `n` words (any shape, non-projective ones too).
    fn tree_strategy(n: usize) -> impl Strategy<Value = FNode> {
        const L: [&str; 3] = ["a", "b", "c"];
        (
            Just((1..=n).collect::<Vec<usize>>()).prop_shuffle(),
            proptest::collection::vec(0usize..1000, n),
            proptest::collection::vec(0usize..3, n),
        )
            .prop_map(move |(order, picks, labs)| {
                let mut heads = vec![0u32; n];
                for (k, &w) in order.iter().enumerate() {
                    let p = picks[k] % (k + 1);
                    heads[w - 1] = if p == 0 { 0 } else { order[p - 1] as u32 };
                }
                let labels: Vec<&str> = labs.iter().map(|&i| L[i]).collect();
                ft(&heads, &labels)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn the_listed_operations_are_delta_new(
            (p, a, b) in (1usize..8).prop_flat_map(|n| (tree_strategy(n), tree_strategy(n), tree_strategy(n)))
        ) {
            let (c, e) = edits(&p, &a, &[&a, &b]);
            prop_assert_eq!(e.len() as u64, c.delta_new);
            let plain = {
                let gen = generalize(&[&a, &b]).unwrap();
                let mut ids = LabelIds::new();
                let (x, y, z) = (ted_tree(&p, &mut ids), ted_tree(&a, &mut ids), ted_tree(&gen, &mut ids));
                super::super::score_sentence(&x, &y, &z, &ids, false)
            };
            prop_assert_eq!(plain, c);
        }
    }
}
