//! TedEval's functional trees (Tsarfaty, Nivre & Andersson 2011, section 3) and
//! T-subsumption between them.
//!
//! A labelled dependency tree becomes a functional tree: every word heads a node
//! labelled with its incoming relation; a node over more than one word gets a daughter
//! `*` for its lexical head; a one-word node holds its word. The artificial root is a
//! node `ROOT` over the whole sentence. A node's span is the interval from the first to
//! the last word of its yield; children are ordered by their first word. Non-projective
//! trees do not fail: their yields are discontinuous, and the interval covering a yield
//! is taken as its span (so sibling spans may overlap there).

/// The wildcard label: compatible with every label.
pub const WILDCARD: &str = "*";

/// A node of a functional tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FNode {
    /// The function (incoming relation), `*` for a lexical head, `ROOT` at the top.
    pub label: String,
    /// Words `start..end` (0-based, end exclusive) covered.
    pub span: (u32, u32),
    /// The word this node holds, for one-word nodes and `*` daughters.
    pub word: Option<u32>,
    /// Daughters, by first word.
    pub children: Vec<FNode>,
}

/// The functional tree of a dependency tree: `heads[i]` is word i+1's head (0 = root),
/// `labels[i]` its relation. Heads out of range or cycles leave words out of the tree
/// (the caller validates trees first).
pub fn functional_tree(heads: &[u32], labels: &[&str]) -> FNode {
    let n = heads.len();
    let mut deps: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
    for (i, &h) in heads.iter().enumerate() {
        if (h as usize) <= n {
            deps[h as usize].push(i as u32 + 1);
        }
    }
    fn build(w: u32, deps: &[Vec<u32>], labels: &[&str], depth: usize) -> FNode {
        let label = labels[w as usize - 1].to_owned();
        let me = w - 1;
        if deps[w as usize].is_empty() || depth > deps.len() {
            return FNode {
                label,
                span: (me, me + 1),
                word: Some(me),
                children: Vec::new(),
            };
        }
        let mut children: Vec<FNode> = deps[w as usize]
            .iter()
            .map(|&d| build(d, deps, labels, depth + 1))
            .collect();
        children.push(FNode {
            label: WILDCARD.to_owned(),
            span: (me, me + 1),
            word: Some(me),
            children: Vec::new(),
        });
        children.sort_by_key(|c| c.span.0);
        let start = children.iter().map(|c| c.span.0).min().unwrap_or(me);
        let end = children.iter().map(|c| c.span.1).max().unwrap_or(me + 1);
        FNode {
            label,
            span: (start, end),
            word: None,
            children,
        }
    }
    let mut children: Vec<FNode> = deps[0]
        .iter()
        .map(|&d| build(d, &deps, labels, 0))
        .collect();
    children.sort_by_key(|c| c.span.0);
    FNode {
        label: "ROOT".into(),
        span: (0, n as u32),
        word: None,
        children,
    }
}

/// The functional tree of a constituency tree: node labels are the functions (cut at
/// `-`/`=` only if the caller did), a pre-terminal is a one-word node labelled with its
/// tag and holding its word, and a `ROOT` node covers the sentence. Brackets without
/// words are left out.
pub fn from_brackets(t: &treeval_formats::bracket::BracketTree) -> FNode {
    let n = t.leaves.len() as u32;
    // children of each node (and of the top) in reading order: nodes and pre-terminals
    let mut kids: Vec<Vec<FNode>> = vec![Vec::new(); t.nodes.len() + 1];
    // pre-terminals go to the innermost node containing them: the last opened node whose
    // span holds the leaf and that opened before it
    for (k, leaf) in t.leaves.iter().enumerate() {
        let k = k as u32;
        let owner = t
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, x)| x.start <= k && k < x.end && x.at < leaf.at)
            .map(|(i, _)| i + 1)
            .next_back()
            .unwrap_or(0);
        kids[owner].push(FNode {
            label: t.s(leaf.label).to_owned(),
            span: (k, k + 1),
            word: Some(k),
            children: Vec::new(),
        });
    }
    // nodes, innermost first (they open after their parents)
    for i in (0..t.nodes.len()).rev() {
        let x = &t.nodes[i];
        let mut children = std::mem::take(&mut kids[i + 1]);
        if x.start == x.end {
            continue;
        }
        children.sort_by_key(|c| c.span.0);
        let node = FNode {
            label: t.s(x.label).to_owned(),
            span: (x.start, x.end),
            word: None,
            children,
        };
        let parent = x.parent.map_or(0, |p| p as usize + 1);
        kids[parent].push(node);
    }
    let mut children = std::mem::take(&mut kids[0]);
    children.sort_by_key(|c| c.span.0);
    FNode {
        label: "ROOT".into(),
        span: (0, n),
        word: None,
        children,
    }
}

/// A functional tree as an ordered tree for the edit distance: every node with its label
/// (interned by `intern`) and, under each node that holds a word, a terminal leaf for the
/// word (labelled `#i`, so that terminals always map to themselves).
pub fn to_ted(t: &FNode, intern: &mut dyn FnMut(&str) -> u32) -> crate::ted::Node {
    let mut children: Vec<crate::ted::Node> =
        t.children.iter().map(|c| to_ted(c, intern)).collect();
    if let Some(w) = t.word {
        children.push(crate::ted::Node {
            label: intern(&format!("#{w}")),
            children: Vec::new(),
        });
    }
    crate::ted::Node {
        label: intern(&t.label),
        children,
    }
}

impl FNode {
    /// Every node, preorder.
    pub fn nodes(&self) -> Vec<&FNode> {
        let mut out = vec![self];
        let mut k = 0;
        while k < out.len() {
            let n = out[k];
            out.extend(n.children.iter());
            k += 1;
        }
        out
    }

    /// Nodes excluding the root (TedEval's |π| in the normaliser).
    pub fn size(&self) -> usize {
        self.nodes().len() - 1
    }
}

/// Labels compatible: equal, or one is the wildcard.
pub fn compatible(a: &str, b: &str) -> bool {
    a == b || a == WILDCARD || b == WILDCARD
}

/// T-subsumption `a ⊑ b`: every node of `a` has a node of `b` with the same span and a
/// compatible label.
pub fn subsumes_into(a: &FNode, b: &FNode) -> bool {
    let bn = b.nodes();
    a.nodes().iter().all(|x| {
        bn.iter()
            .any(|y| y.span == x.span && compatible(&x.label, &y.label))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_sunday_lexical_and_functional_heads() {
        // functional head: "on" heads "Sunday"; lexical head: "Sunday" heads "on"
        let functional = functional_tree(&[0, 1], &["prep", "pobj"]);
        let lexical = functional_tree(&[2, 0], &["case", "prep"]);
        assert!(subsumes_into(&functional, &lexical));
        assert!(subsumes_into(&lexical, &functional));
        let spans = |t: &FNode| t.nodes().iter().map(|n| n.span).collect::<Vec<_>>();
        assert_eq!(spans(&functional), spans(&lexical));
        assert_eq!(spans(&functional), [(0, 2), (0, 2), (0, 1), (1, 2)]);
        // identical modulo wildcards, not identical
        assert_ne!(functional, lexical);
        assert_eq!(functional.size(), 3);
    }

    #[test]
    fn single_word_nodes_hold_their_word_and_heads_get_a_star() {
        let t = functional_tree(&[2, 0, 2], &["nsubj", "root", "obj"]);
        let root = &t.children[0];
        assert_eq!(root.label, "root");
        let labels: Vec<&str> = root.children.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, ["nsubj", "*", "obj"]);
        assert_eq!(root.children[1].word, Some(1));
    }

    fn ted(a: &FNode, b: &FNode) -> u32 {
        let mut names: std::collections::HashMap<String, u32> = Default::default();
        let mut intern = |x: &str| {
            let n = names.len() as u32;
            *names.entry(x.to_owned()).or_insert(n)
        };
        let (x, y) = (to_ted(a, &mut intern), to_ted(b, &mut intern));
        crate::ted::distance(
            &crate::ted::Tree::from_node(&x),
            &crate::ted::Tree::from_node(&y),
            &crate::ted::UnitCost,
        )
    }

    #[test]
    fn distances_between_functional_trees() {
        let gold = functional_tree(&[2, 0, 2], &["nsubj", "root", "obj"]);
        assert_eq!(ted(&gold, &gold), 0);
        // one relation wrong: one relabelling
        let parse = functional_tree(&[2, 0, 2], &["nsubj", "root", "iobj"]);
        assert_eq!(ted(&gold, &parse), 1);
        // the lexical and functional PP analyses differ only in where the labels sit
        let functional = functional_tree(&[0, 1], &["prep", "pobj"]);
        let lexical = functional_tree(&[2, 0], &["case", "prep"]);
        assert_eq!(ted(&functional, &lexical), 2);
    }

    #[test]
    fn constituency_functional_trees() {
        let mut r = treeval_formats::bracket::BracketReader::new(
            "(S (NP (DT the) (NN dog)) (VP (VBZ barks)))".as_bytes(),
            "t",
            treeval_formats::bracket::Layout::Line,
        );
        let mut t = treeval_formats::bracket::BracketTree::default();
        r.read_tree(&mut t).unwrap();
        let f = from_brackets(&t);
        let s = &f.children[0];
        assert_eq!((s.label.as_str(), s.span), ("S", (0, 3)));
        let labels: Vec<(&str, (u32, u32))> = s
            .children
            .iter()
            .map(|c| (c.label.as_str(), c.span))
            .collect();
        assert_eq!(labels, [("NP", (0, 2)), ("VP", (2, 3))]);
        assert_eq!(s.children[0].children[1].word, Some(1));
        assert_eq!(f.size(), 6);
        assert!(subsumes_into(&f, &f));
    }

    #[test]
    fn non_projective_trees_do_not_fail() {
        // 1 → 3, 2 → 4 cross
        let t = functional_tree(&[0, 4, 1, 1], &["root", "a", "b", "c"]);
        assert_eq!(t.size(), 6);
        assert!(subsumes_into(&t, &t));
    }
}
