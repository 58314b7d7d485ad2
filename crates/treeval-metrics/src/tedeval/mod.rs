//! TedEval (Tsarfaty, Nivre & Andersson 2011): functional trees (section 3.1), the formal
//! operations on them — T-subsumption, T-unification and T-generalization (section 3.2) —
//! and the evaluation of a parse against a generalized gold standard by tree edit
//! distance (section 3.3).
//!
//! A labelled dependency tree becomes a functional tree: every word heads a node labelled
//! with its incoming relation; a node over more than one word gets a daughter `*` for its
//! lexical head; a one-word node holds its word. The artificial root is a node `ROOT`
//! over the whole sentence. A node's *yield* is the set of words it covers; its span is
//! the interval from its first to its last word, and a discontinuous yield (a
//! non-projective tree) is kept as its word list ([`FNode::gapped`]), so nodes are
//! identified by their true yields and non-projective trees need no special case.
//!
//! Nodes are identified across trees by their [`Key`]: the yield, and the level among
//! nodes of one tree with the same yield (unary chains of constituency trees; 0 nearest
//! the words).

use std::collections::HashMap;

use serde::Serialize;

use crate::ted::{self, Edit, Relabel};

pub mod edits;
pub mod measures;
pub mod run;

/// The wildcard label: compatible with every label.
pub const WILDCARD: &str = "*";

/// The label of the artificial root.
pub const ROOT_LABEL: &str = "ROOT";

/// The functions claimed for a node of a generalized tree (see [`generalize`]).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Claims {
    /// Functions given by inputs where the node's mother is the generalized mother.
    pub direct: Vec<String>,
    /// Functions given by inputs where the node's mother is a node the generalization
    /// does not keep (so they relate the node to something else).
    pub weak: Vec<String>,
}

/// A node of a functional tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FNode {
    /// The function (incoming relation), `*` for a lexical head, `ROOT` at the top; in a
    /// generalized tree, the alternatives joined by `|` (see [`generalize`]).
    pub label: String,
    /// Words `start..end` (0-based, end exclusive) from the first to the last word.
    pub span: (u32, u32),
    /// The words of a discontinuous yield (`None`: the yield is the whole span).
    pub gapped: Option<Box<[u32]>>,
    /// The word this node holds, for one-word nodes and `*` daughters.
    pub word: Option<u32>,
    /// Daughters, by first word.
    pub children: Vec<FNode>,
    /// In generalized and unified trees, the functions the inputs claim.
    pub claims: Option<Box<Claims>>,
}

/// Identity of a node across trees of one sentence.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// First word, last word + 1.
    pub span: (u32, u32),
    /// The yield's words when it has gaps.
    pub gapped: Option<Box<[u32]>>,
    /// Level among nodes with this yield (0 nearest the words).
    pub level: u32,
}

/// Number of words of the yield `span` (with `gapped`, its words when it has gaps).
fn yield_count(span: (u32, u32), gapped: &Option<Box<[u32]>>) -> u32 {
    gapped.as_ref().map_or(span.1 - span.0, |g| g.len() as u32)
}

/// The words of that yield, ascending.
fn yield_iter(span: (u32, u32), gapped: &Option<Box<[u32]>>) -> Box<dyn Iterator<Item = u32> + '_> {
    match gapped {
        Some(g) => Box::new(g.iter().copied()),
        None => Box::new(span.0..span.1),
    }
}

impl Key {
    /// Number of words in the yield.
    pub fn len(&self) -> u32 {
        yield_count(self.span, &self.gapped)
    }

    /// Whether the yield is empty (never, for keys of functional trees).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The yield's words, ascending.
    pub fn words(&self) -> Box<dyn Iterator<Item = u32> + '_> {
        yield_iter(self.span, &self.gapped)
    }
}

fn leaf(label: &str, w: u32) -> FNode {
    FNode {
        label: label.to_owned(),
        span: (w, w + 1),
        gapped: None,
        word: Some(w),
        children: Vec::new(),
        claims: None,
    }
}

/// The node over `children` (sorted here), with its yield.
fn inner(label: String, mut children: Vec<FNode>, claims: Option<Box<Claims>>) -> FNode {
    children.sort_by_key(|c| c.span.0);
    let start = children.iter().map(|c| c.span.0).min().unwrap_or(0);
    let end = children.iter().map(|c| c.span.1).max().unwrap_or(0);
    let count: u32 = children.iter().map(|c| c.yield_len()).sum();
    let gapped = (count != end - start).then(|| {
        let mut w: Vec<u32> = children.iter().flat_map(|c| c.yield_words()).collect();
        w.sort_unstable();
        w.into_boxed_slice()
    });
    FNode {
        label,
        span: (start, end),
        gapped,
        word: None,
        children,
        claims,
    }
}

/// What [`functional_tree`] had to repair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Repairs {
    /// Words whose head was missing or out of range: attached to the root.
    pub bad_heads: u32,
    /// Cycles broken by attaching one of their words to the root.
    pub cycles: u32,
}

/// The functional tree of a dependency tree: `heads[i]` is word i+1's head (0 = root),
/// `labels[i]` its relation. A head out of range (use `u32::MAX` for a missing one)
/// attaches the word to the root; a cycle is broken by attaching its first word to the
/// root. Both are counted in the returned [`Repairs`] (valid trees need none).
pub fn functional_tree(heads: &[u32], labels: &[&str]) -> (FNode, Repairs) {
    let n = heads.len();
    let mut repairs = Repairs::default();
    let mut head: Vec<usize> = heads
        .iter()
        .map(|&h| {
            if h as usize > n {
                repairs.bad_heads += 1;
                0
            } else {
                h as usize
            }
        })
        .collect();
    // words whose head chain does not reach the root sit on cycles (or below one)
    let mut state = vec![0u8; n + 1]; // 0 unknown, 1 on the current path, 2 reaches root
    state[0] = 2;
    for start in 1..=n {
        let mut path = Vec::new();
        let mut w = start;
        while state[w] == 0 {
            state[w] = 1;
            path.push(w);
            w = head[w - 1];
        }
        if state[w] == 1 {
            // a cycle through w: cut it at its first word in reading order
            let at = path.iter().position(|&x| x == w).unwrap_or(0);
            let first = path[at..].iter().copied().min().unwrap_or(w);
            head[first - 1] = 0;
            repairs.cycles += 1;
        }
        for x in path {
            state[x] = 2;
        }
    }
    let mut deps: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
    for (i, &h) in head.iter().enumerate() {
        deps[h].push(i as u32 + 1);
    }
    fn build(w: u32, deps: &[Vec<u32>], labels: &[&str]) -> FNode {
        let label = labels[w as usize - 1];
        let me = w - 1;
        if deps[w as usize].is_empty() {
            return leaf(label, me);
        }
        let mut children: Vec<FNode> = deps[w as usize]
            .iter()
            .map(|&d| build(d, deps, labels))
            .collect();
        children.push(leaf(WILDCARD, me));
        inner(label.to_owned(), children, None)
    }
    let children: Vec<FNode> = deps[0].iter().map(|&d| build(d, &deps, labels)).collect();
    (root(children, n as u32), repairs)
}

pub(crate) fn root(mut children: Vec<FNode>, n: u32) -> FNode {
    children.sort_by_key(|c| c.span.0);
    FNode {
        label: ROOT_LABEL.into(),
        span: (0, n),
        gapped: None,
        word: None,
        children,
        claims: None,
    }
}

/// How constituency trees become functional trees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BracketConversion {
    /// Pre-terminals with these tags are not words (`-NONE-`: traces and empty elements);
    /// brackets left without words go too.
    pub drop_tags: Vec<String>,
    /// Cut labels at the first `-` or `=` (`NP-SBJ-1` → `NP`), as EVALB does; labels
    /// that start with `-` (`-NONE-`, `-LRB-`) stay whole.
    pub cut_labels: bool,
}

impl Default for BracketConversion {
    fn default() -> Self {
        BracketConversion {
            drop_tags: vec!["-NONE-".into()],
            cut_labels: true,
        }
    }
}

fn cut(label: &str) -> &str {
    if label.starts_with('-') {
        return label;
    }
    label.split(['-', '=']).next().unwrap_or(label)
}

/// The functional tree of a constituency tree, keeping labels whole and every
/// pre-terminal (see [`from_brackets_with`]).
pub fn from_brackets(t: &treeval_formats::bracket::BracketTree) -> FNode {
    from_brackets_with(
        t,
        &BracketConversion {
            drop_tags: Vec::new(),
            cut_labels: false,
        },
    )
}

/// The functional tree of a constituency tree: node labels are the functions, a
/// pre-terminal is a one-word node labelled with its tag and holding its word, and a
/// `ROOT` node covers the sentence. Pre-terminals with a tag of `c.drop_tags` are left
/// out, and so are brackets without words and an unlabelled top bracket (the `( … )`
/// wrapper of `.mrg` files).
pub fn from_brackets_with(
    t: &treeval_formats::bracket::BracketTree,
    c: &BracketConversion,
) -> FNode {
    let keep: Vec<bool> = t
        .leaves
        .iter()
        .map(|l| !c.drop_tags.iter().any(|d| d == t.s(l.label)))
        .collect();
    // kept leaves before each leaf index
    let mut before = Vec::with_capacity(t.leaves.len() + 1);
    before.push(0u32);
    for &k in &keep {
        before.push(before.last().copied().unwrap_or(0) + u32::from(k));
    }
    let n = before.last().copied().unwrap_or(0);
    let label = |s: &str| -> String {
        if c.cut_labels {
            cut(s).to_owned()
        } else {
            s.to_owned()
        }
    };
    // children of each node (and of the top) in reading order: nodes and pre-terminals
    let mut kids: Vec<Vec<FNode>> = vec![Vec::new(); t.nodes.len() + 1];
    // pre-terminals go to the innermost node containing them: the last opened node whose
    // span holds the leaf and that opened before it
    for (k, lf) in t.leaves.iter().enumerate() {
        if !keep[k] {
            continue;
        }
        let owner = t
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, x)| x.start <= k as u32 && (k as u32) < x.end && x.at < lf.at)
            .map(|(i, _)| i + 1)
            .next_back()
            .unwrap_or(0);
        kids[owner].push(leaf(&label(t.s(lf.label)), before[k]));
    }
    // nodes, innermost first (they open after their parents)
    for i in (0..t.nodes.len()).rev() {
        let x = &t.nodes[i];
        let children = std::mem::take(&mut kids[i + 1]);
        if children.is_empty() {
            continue;
        }
        let parent = x.parent.map_or(0, |p| p as usize + 1);
        if x.parent.is_none() && t.s(x.label).is_empty() {
            // the unlabelled wrapper: its children go to the top
            kids[parent].extend(children);
            continue;
        }
        let node = inner(label(t.s(x.label)), children, None);
        kids[parent].push(node);
    }
    root(std::mem::take(&mut kids[0]), n)
}

/// The words of a constituency tree that [`from_brackets_with`] keeps.
pub fn bracket_words<'t>(
    t: &'t treeval_formats::bracket::BracketTree,
    c: &BracketConversion,
) -> Vec<&'t str> {
    t.leaves
        .iter()
        .filter(|l| !c.drop_tags.iter().any(|d| d == t.s(l.label)))
        .map(|l| t.s(l.word))
        .collect()
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

    /// Nodes excluding the root (TedEval's |π| in the normaliser; terminals are not
    /// nodes of an `FNode`).
    pub fn size(&self) -> usize {
        let mut n = 0;
        let mut stack: Vec<&FNode> = self.children.iter().collect();
        while let Some(x) = stack.pop() {
            n += 1;
            stack.extend(x.children.iter());
        }
        n
    }

    /// Number of words in the yield.
    pub fn yield_len(&self) -> u32 {
        yield_count(self.span, &self.gapped)
    }

    /// The yield's words, ascending.
    pub fn yield_words(&self) -> Box<dyn Iterator<Item = u32> + '_> {
        yield_iter(self.span, &self.gapped)
    }

    fn same_yield(&self, o: &FNode) -> bool {
        self.span == o.span && self.gapped == o.gapped
    }

    /// The functions this node claims: (direct, weak). A read tree's node claims its
    /// label, or nothing for `*`.
    pub fn functions(&self) -> (Vec<&str>, Vec<&str>) {
        match &self.claims {
            Some(c) => (
                c.direct.iter().map(String::as_str).collect(),
                c.weak.iter().map(String::as_str).collect(),
            ),
            None if self.label == WILDCARD => (Vec::new(), Vec::new()),
            None => (vec![self.label.as_str()], Vec::new()),
        }
    }

    /// The labels this node is compatible with: `None` for the wildcard (no direct
    /// claim), else its direct and weak functions.
    fn alternatives(&self) -> Option<Vec<&str>> {
        let (d, w) = self.functions();
        if d.is_empty() {
            return None;
        }
        let mut all = d;
        all.extend(w);
        all.sort_unstable();
        all.dedup();
        Some(all)
    }

    /// The tree without claims, as printed (labels and spans only): equal renderings
    /// give equal edit distances.
    pub fn same_rendering(&self, o: &FNode) -> bool {
        self.label == o.label
            && self.span == o.span
            && self.gapped == o.gapped
            && self.word == o.word
            && self.children.len() == o.children.len()
            && self
                .children
                .iter()
                .zip(&o.children)
                .all(|(a, b)| a.same_rendering(b))
    }

    /// The tree in bracket notation, `(label word …)`, for messages and tests.
    pub fn render(&self, words: &[&str]) -> String {
        let mut s = format!("({}", self.label);
        for c in &self.children {
            s.push(' ');
            s.push_str(&c.render(words));
        }
        if let Some(w) = self.word {
            s.push(' ');
            s.push_str(words.get(w as usize).copied().unwrap_or("?"));
        }
        s.push(')');
        s
    }
}

/// One node of a flattened tree (the root left out).
struct Flat<'a> {
    key: Key,
    parent: Option<usize>,
    node: &'a FNode,
}

/// The nodes of `t` below the root, preorder, with keys and parents.
fn flatten(t: &FNode) -> Vec<Flat<'_>> {
    fn visit<'a>(n: &'a FNode, parent: Option<usize>, out: &mut Vec<Flat<'a>>) -> u32 {
        let me = out.len();
        out.push(Flat {
            key: Key {
                span: n.span,
                gapped: n.gapped.clone(),
                level: 0,
            },
            parent,
            node: n,
        });
        let mut level = 0;
        for c in &n.children {
            let l = visit(c, Some(me), out);
            if c.same_yield(n) {
                level = l + 1;
            }
        }
        out[me].key.level = level;
        level
    }
    let mut out = Vec::new();
    for c in &t.children {
        visit(c, None, &mut out);
    }
    out
}

/// Trees that cannot be combined: they cover different numbers of words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LengthMismatch {
    /// Words of each tree.
    pub lengths: Vec<u32>,
}

impl std::fmt::Display for LengthMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the trees cover different numbers of words: {:?}",
            self.lengths
        )
    }
}

fn check_lengths(trees: &[&FNode]) -> Result<u32, LengthMismatch> {
    let lengths: Vec<u32> = trees.iter().map(|t| t.span.1).collect();
    match lengths.first() {
        Some(&n) if lengths.iter().all(|&m| m == n) => Ok(n),
        _ => Err(LengthMismatch { lengths }),
    }
}

fn render_label(direct: &[String], weak: &[String]) -> String {
    if direct.is_empty() {
        return WILDCARD.to_owned();
    }
    let mut all: Vec<&str> = direct.iter().chain(weak).map(String::as_str).collect();
    all.sort_unstable();
    all.dedup();
    all.join("|")
}

fn sorted_set(mut v: Vec<String>) -> Vec<String> {
    v.sort_unstable();
    v.dedup();
    v
}

/// T-generalization of one or more functional trees of the same sentence: the nodes
/// whose keys all the trees share, each under its nearest shared ancestor.
///
/// Labels are functions of a node *in its mother*. For each kept node, an input whose
/// node has the kept mother as its own mother gives a *direct* claim (its function);
/// an input where the mother is a node the generalization drops gives a *weak* claim,
/// since that function relates the node to something else. `*` claims nothing. The
/// node's label is `*` when there is no direct claim, else all claims joined by `|`
/// (sorted), so that it stays compatible with every input. Claims are sets united over
/// the inputs, so the operation is commutative, associative and idempotent; a
/// generalized tree remembers its claims ([`FNode::claims`]) for later generalizations.
/// Runs in time linear in the trees' sizes (times the yield length of gapped nodes).
pub fn generalize(trees: &[&FNode]) -> Result<FNode, LengthMismatch> {
    let n = check_lengths(trees)?;
    let flats: Vec<Vec<Flat>> = trees.iter().map(|t| flatten(t)).collect();
    let maps: Vec<HashMap<&Key, usize>> = flats
        .iter()
        .map(|f| f.iter().enumerate().map(|(i, x)| (&x.key, i)).collect())
        .collect();
    let base = &flats[0];
    let common: Vec<bool> = base
        .iter()
        .map(|x| maps[1..].iter().all(|m| m.contains_key(&x.key)))
        .collect();
    // nearest kept ancestor, preorder (parents come first)
    let mut kept_parent: Vec<Option<usize>> = vec![None; base.len()];
    for i in 0..base.len() {
        kept_parent[i] = base[i]
            .parent
            .and_then(|p| if common[p] { Some(p) } else { kept_parent[p] });
    }
    let mut kids: Vec<Vec<FNode>> = vec![Vec::new(); base.len()];
    let mut top: Vec<FNode> = Vec::new();
    for i in (0..base.len()).rev() {
        if !common[i] {
            continue;
        }
        let key = &base[i].key;
        let mother = kept_parent[i].map(|p| &base[p].key);
        let (mut direct, mut weak) = (Vec::new(), Vec::new());
        for (f, m) in flats.iter().zip(&maps) {
            let x = &f[m[key]];
            let own = x.parent.map(|p| &f[p].key);
            let (d, w) = x.node.functions();
            if own == mother {
                direct.extend(d.into_iter().map(str::to_owned));
                weak.extend(w.into_iter().map(str::to_owned));
            } else {
                weak.extend(d.into_iter().chain(w).map(str::to_owned));
            }
        }
        let (direct, weak) = (sorted_set(direct), sorted_set(weak));
        let label = render_label(&direct, &weak);
        let children = std::mem::take(&mut kids[i]);
        let claims = Some(Box::new(Claims { direct, weak }));
        let node = keyed_node(label, key, base[i].node.word, children, claims);
        match kept_parent[i] {
            Some(p) => kids[p].push(node),
            None => top.push(node),
        }
    }
    Ok(root(top, n))
}

/// A node of a generalized or unified tree: a leaf over `key`'s words, or the node over
/// its children.
fn keyed_node(
    label: String,
    key: &Key,
    word: Option<u32>,
    children: Vec<FNode>,
    claims: Option<Box<Claims>>,
) -> FNode {
    if children.is_empty() {
        FNode {
            label,
            span: key.span,
            gapped: key.gapped.clone(),
            word,
            children,
            claims,
        }
    } else {
        let mut x = inner(label, children, claims);
        x.word = word;
        x
    }
}

/// A node of [`unify`]: the labels all its inputs are compatible with (`None`: the
/// wildcard), and its word.
type Merged = (Option<Vec<String>>, Option<u32>);

/// T-unification of functional trees of the same sentence: every node of every tree,
/// nodes with the same key merged. Fails (`None`) when two trees give one node
/// incompatible labels, or when their yields cross (no tree holds them all). A merged
/// node keeps the labels all its inputs are compatible with (`*` if none claims one).
pub fn unify(trees: &[&FNode]) -> Option<FNode> {
    let n = check_lengths(trees).ok()?;
    let mut keys: Vec<(Key, Merged)> = merge_keys(trees)?.into_iter().collect();
    // mothers before daughters: larger yields first, higher levels first
    keys.sort_by(|a, b| {
        (b.0.len(), b.0.level, a.0.span.0).cmp(&(a.0.len(), a.0.level, b.0.span.0))
    });
    let parent = unified_parents(&keys, n)?;
    let mut kids: Vec<Vec<FNode>> = vec![Vec::new(); keys.len()];
    let mut top = Vec::new();
    for k in (0..keys.len()).rev() {
        let (key, (alt, word)) = &keys[k];
        let children = std::mem::take(&mut kids[k]);
        let direct = alt.clone().unwrap_or_default();
        let label = render_label(&direct, &[]);
        let claims = Some(Box::new(Claims {
            direct,
            weak: Vec::new(),
        }));
        let node = keyed_node(label, key, *word, children, claims);
        match parent[k] {
            usize::MAX => top.push(node),
            p => kids[p].push(node),
        }
    }
    Some(root(top, n))
}

/// Every node of every tree by key, with the labels all its inputs are compatible with;
/// `None` when two trees give one node no common label.
fn merge_keys(trees: &[&FNode]) -> Option<HashMap<Key, Merged>> {
    let mut all: HashMap<Key, Merged> = HashMap::new();
    for t in trees {
        for x in flatten(t) {
            let alt = x
                .node
                .alternatives()
                .map(|v| v.into_iter().map(str::to_owned).collect::<Vec<_>>());
            let word = x.node.word;
            match all.get_mut(&x.key) {
                None => {
                    all.insert(x.key, (alt, word));
                }
                Some(e) => {
                    if let Some(a) = alt {
                        e.0 = match e.0.take() {
                            None => Some(a),
                            Some(b) => {
                                let both: Vec<String> =
                                    b.into_iter().filter(|l| a.contains(l)).collect();
                                if both.is_empty() {
                                    return None;
                                }
                                Some(both)
                            }
                        };
                    }
                    e.1 = e.1.or(word);
                }
            }
        }
    }
    Some(all)
}

/// The mother of each of `keys` (sorted mothers first) in a sentence of `n` words: the
/// last earlier key over its first word (`usize::MAX`: none); `None` when yields cross.
fn unified_parents(keys: &[(Key, Merged)], n: u32) -> Option<Vec<usize>> {
    let mut owner = vec![usize::MAX; n as usize];
    let mut parent = vec![usize::MAX; keys.len()];
    for (k, (key, _)) in keys.iter().enumerate() {
        let mut words = key.words();
        let first = words.next()?;
        let p = owner[first as usize];
        if !key.words().all(|w| owner[w as usize] == p) {
            return None;
        }
        for w in key.words() {
            owner[w as usize] = k;
        }
        parent[k] = p;
    }
    Some(parent)
}

fn nodes_compatible(a: &FNode, b: &FNode) -> bool {
    match (a.alternatives(), b.alternatives()) {
        (Some(x), Some(y)) => x.iter().any(|l| y.contains(l)),
        _ => true,
    }
}

/// T-subsumption `a ⊑ b`: every node of `a` has a node of `b` with the same key (yield
/// and level) and a compatible label (one is `*`, or they share an alternative).
pub fn subsumes_into(a: &FNode, b: &FNode) -> bool {
    if a.span.1 != b.span.1 {
        return false;
    }
    let fb = flatten(b);
    let map: HashMap<&Key, &FNode> = fb.iter().map(|x| (&x.key, x.node)).collect();
    flatten(a)
        .iter()
        .all(|x| map.get(&x.key).is_some_and(|y| nodes_compatible(x.node, y)))
}

/// Label ids for the edit distance, and which of them must map to themselves (the
/// root and the terminals): [`TedEvalCost`] makes deleting, inserting or relabelling
/// those dearer than any script that keeps them.
#[derive(Debug, Clone, Default)]
pub struct LabelIds {
    ids: HashMap<String, u32>,
    /// Each id's function label (empty for the root and the terminals).
    names: Vec<String>,
    pinned: Vec<bool>,
    terminals: Vec<u32>,
    root: Option<u32>,
}

impl LabelIds {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of a function label.
    pub fn label(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.ids.get(s) {
            return i;
        }
        let i = self.pinned.len() as u32;
        self.ids.insert(s.to_owned(), i);
        self.names.push(s.to_owned());
        self.pinned.push(false);
        i
    }

    fn fresh_pinned(&mut self) -> u32 {
        let i = self.pinned.len() as u32;
        self.names.push(String::new());
        self.pinned.push(true);
        i
    }

    /// The id of word `w`'s terminal.
    pub fn terminal(&mut self, w: u32) -> u32 {
        while self.terminals.len() <= w as usize {
            let i = self.fresh_pinned();
            self.terminals.push(i);
        }
        self.terminals[w as usize]
    }

    /// The id of the root.
    pub fn root(&mut self) -> u32 {
        match self.root {
            Some(i) => i,
            None => {
                let i = self.fresh_pinned();
                self.root = Some(i);
                i
            }
        }
    }

    /// The function label of `id` (empty for the root and the terminals).
    pub fn name(&self, id: u32) -> &str {
        self.names.get(id as usize).map_or("", String::as_str)
    }

    /// The word (0-based) whose terminal `id` is.
    pub fn terminal_word(&self, id: u32) -> Option<u32> {
        self.terminals
            .iter()
            .position(|&t| t == id)
            .map(|w| w as u32)
    }

    /// Whether `id` is the root or a terminal.
    pub fn is_pinned(&self, id: u32) -> bool {
        self.pinned.get(id as usize).copied().unwrap_or(false)
    }

    /// Whether `id` is a terminal.
    pub fn is_terminal(&self, id: u32) -> bool {
        self.is_pinned(id) && self.root != Some(id)
    }
}

/// A functional tree prepared for the edit distance: the ordered tree (every node, and
/// under each node that holds a word a terminal leaf for it), and each postorder node's
/// key (`None` for the root and the terminals).
#[derive(Debug, Clone)]
pub struct TedTree {
    /// The ordered tree.
    pub tree: ted::Tree,
    /// Keys, postorder.
    pub keys: Vec<Option<Key>>,
    /// Function nodes (not the root, not terminals).
    pub size: u32,
    /// Whether the terminals come in word order (always for projective trees): an
    /// ordered edit script can then keep every terminal.
    pub in_order: bool,
}

/// Prepare `t` for the edit distance.
pub fn ted_tree(t: &FNode, ids: &mut LabelIds) -> TedTree {
    fn walk(
        n: &FNode,
        is_root: bool,
        ids: &mut LabelIds,
        keys: &mut Vec<Option<Key>>,
    ) -> (ted::Node, u32) {
        let mut children = Vec::with_capacity(n.children.len() + 1);
        let mut level = 0;
        for c in &n.children {
            let (node, l) = walk(c, false, ids, keys);
            if c.same_yield(n) {
                level = l + 1;
            }
            children.push(node);
        }
        if let Some(w) = n.word {
            children.push(ted::Node {
                label: ids.terminal(w),
                children: Vec::new(),
            });
            keys.push(None);
        }
        let label = if is_root {
            keys.push(None);
            ids.root()
        } else {
            keys.push(Some(Key {
                span: n.span,
                gapped: n.gapped.clone(),
                level,
            }));
            ids.label(&n.label)
        };
        (ted::Node { label, children }, level)
    }
    let mut keys = Vec::new();
    let (node, _) = walk(t, true, ids, &mut keys);
    let tree = ted::Tree::from_node(&node);
    debug_assert_eq!(tree.len(), keys.len());
    let size = t.size() as u32;
    let mut next = 0;
    let mut in_order = true;
    for &l in &tree.labels {
        if ids.is_terminal(l) {
            in_order &= ids.terminals.get(next as usize) == Some(&l);
            next += 1;
        }
    }
    TedTree {
        tree,
        keys,
        size,
        in_order,
    }
}

/// TedEval's costs: unit deletions, insertions and relabellings of function nodes
/// (relabelling free with `unlabeled`). Touching the root, or relabelling a terminal,
/// costs `heavy`, more than any script that maps them to themselves, so optimal scripts
/// never do. Deleting or inserting a terminal costs `heavy` too, unless
/// `light_terminals` (then 1): that is for trees whose words do not come in the same
/// order (non-projective ones), where an ordered script cannot keep every terminal.
#[derive(Debug, Clone, Copy)]
pub struct TedEvalCost<'a> {
    /// The label table (which ids are pinned).
    pub ids: &'a LabelIds,
    /// Relabelling function nodes is free.
    pub unlabeled: bool,
    /// The cost of touching a pinned node: more than both trees' function nodes.
    pub heavy: u32,
    /// Terminals cost 1 to delete or insert.
    pub light_terminals: bool,
}

impl Relabel for TedEvalCost<'_> {
    fn cost(&self, a: u32, b: u32) -> u32 {
        if a == b {
            0
        } else if self.ids.is_pinned(a) || self.ids.is_pinned(b) {
            self.heavy
        } else {
            u32::from(!self.unlabeled)
        }
    }

    fn indel(&self, label: u32) -> u32 {
        if self.light_terminals && self.ids.is_terminal(label) {
            1
        } else if self.ids.is_pinned(label) {
            self.heavy
        } else {
            1
        }
    }
}

/// An edit operation identified as TedEval does: its type, the node's key and label
/// (both sides for a relabelling).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Op {
    Delete(Option<Key>, u32),
    Insert(Option<Key>, u32),
    Relabel(Option<Key>, u32, Option<Key>, u32),
}

fn ops(script: &[Edit], a: &TedTree, b: &TedTree) -> Vec<Op> {
    script
        .iter()
        .filter_map(|e| match *e {
            Edit::Delete { a: x } => Some(Op::Delete(
                a.keys[x as usize].clone(),
                a.tree.labels[x as usize],
            )),
            Edit::Insert { b: y } => Some(Op::Insert(
                b.keys[y as usize].clone(),
                b.tree.labels[y as usize],
            )),
            Edit::Map { a: x, b: y, cost } if cost > 0 => Some(Op::Relabel(
                a.keys[x as usize].clone(),
                a.tree.labels[x as usize],
                b.keys[y as usize].clone(),
                b.tree.labels[y as usize],
            )),
            Edit::Map { .. } => None,
        })
        .collect()
}

/// One sentence's TedEval counts (summed over sentences with `+=`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct TedEvalCounts {
    /// Sentences scored.
    pub sentences: u64,
    /// Σ δ(parse, gen): the cost of the optimal scripts.
    pub delta: u64,
    /// Σ δ_new: δ less the operations the parse's own gold needs too.
    pub delta_new: u64,
    /// Σ ι = |parse| + |gen| (function nodes: no root, no terminals), plus the terminals
    /// the script deletes and inserts (only ever in trees whose words are out of order).
    pub normalizer: u64,
    /// Σ terminals deleted or inserted (0 unless a tree is non-projective).
    pub terminal_edits: u64,
    /// Σ of the sentence scores 1 − δ_new/ι (1 when ι = 0), for the mean (`--micro`).
    pub sum_sentence_score: f64,
}

impl std::ops::AddAssign for TedEvalCounts {
    fn add_assign(&mut self, o: Self) {
        self.sentences += o.sentences;
        self.delta += o.delta;
        self.delta_new += o.delta_new;
        self.normalizer += o.normalizer;
        self.terminal_edits += o.terminal_edits;
        self.sum_sentence_score += o.sum_sentence_score;
    }
}

impl TedEvalCounts {
    /// One scored sentence's counts from its integers; its score 1 − δ_new/ι (1 when
    /// ι = 0) is computed here, so counts rebuilt from the integers (a merged state's
    /// rows) are bit-identical to the scored sentence's.
    pub fn sentence(delta: u64, delta_new: u64, normalizer: u64, terminal_edits: u64) -> Self {
        let score = if normalizer == 0 {
            1.0
        } else {
            1.0 - delta_new as f64 / normalizer as f64
        };
        TedEvalCounts {
            sentences: 1,
            delta,
            delta_new,
            normalizer,
            terminal_edits,
            sum_sentence_score: score,
        }
    }

    /// The corpus score by global averaging, 1 − Σδ_new / Σι (1 without nodes).
    pub fn score(&self) -> f64 {
        if self.normalizer == 0 {
            1.0
        } else {
            1.0 - self.delta_new as f64 / self.normalizer as f64
        }
    }

    /// The mean of the sentence scores (`None` without sentences).
    pub fn micro_score(&self) -> Option<f64> {
        (self.sentences > 0).then(|| self.sum_sentence_score / self.sentences as f64)
    }
}

/// Score a parse against the generalized gold `gen`, forgiving the operations that the
/// parse's own gold needs as well: δ_new(parse, gold, gen) = δ(parse, gen) −
/// cost(ES*(parse, gen) ∩ ES*(gold, gen)), operations identified by (type, key, label);
/// ι = |parse| + |gen| (+ terminal edits, see [`TedEvalCost`]). Both scripts are computed with the same deterministic algorithm,
/// so a parse equal to its gold gets δ_new = 0, and when the gold is the generalized
/// gold δ_new = δ.
pub fn score_sentence(
    parse: &TedTree,
    gold: &TedTree,
    gen: &TedTree,
    ids: &LabelIds,
    unlabeled: bool,
) -> TedEvalCounts {
    // invariant: no cost exceeds u64::MAX, the limit here
    try_score_sentence(parse, gold, gen, ids, unlabeled, u64::MAX).expect("no limit")
}

/// [`score_sentence`], unless one of its edit distances would take more than
/// `max_cost` table cells (see [`ted::try_distance_with_script`]).
pub fn try_score_sentence(
    parse: &TedTree,
    gold: &TedTree,
    gen: &TedTree,
    ids: &LabelIds,
    unlabeled: bool,
    max_cost: u64,
) -> Result<TedEvalCounts, ted::TooCostly> {
    let trees = Trio { parse, gold, gen };
    score_ops(&trees, ids, unlabeled, max_cost, false).map(|x| x.0)
}

/// The three trees of one sentence TedEval compares.
struct Trio<'t> {
    parse: &'t TedTree,
    gold: &'t TedTree,
    gen: &'t TedTree,
}

/// The counts of [`try_score_sentence`] and, with `keep`, the operations of the parse's
/// script that are not forgiven (those that make up δ_new), in script order.
fn score_ops(
    t: &Trio<'_>,
    ids: &LabelIds,
    unlabeled: bool,
    max_cost: u64,
    keep: bool,
) -> Result<(TedEvalCounts, Vec<Op>), ted::TooCostly> {
    let (parse, gold, gen) = (t.parse, t.gold, t.gen);
    let cost = |a: &TedTree, b: &TedTree| TedEvalCost {
        ids,
        unlabeled,
        heavy: a.size + b.size + a.keys.len() as u32 + b.keys.len() as u32 + 1,
        light_terminals: !(a.in_order && b.in_order),
    };
    let c = cost(parse, gen);
    let (delta, script) = ted::try_distance_with_script(&parse.tree, &gen.tree, &c, max_cost)?;
    let mut forgiven = 0;
    let mut kept = Vec::new();
    // a gold equal to the generalization needs no operation: nothing to forgive
    let mut theirs: HashMap<Op, u32> = HashMap::new();
    if gold.tree != gen.tree {
        let (_, gs) =
            ted::try_distance_with_script(&gold.tree, &gen.tree, &cost(gold, gen), max_cost)?;
        for op in ops(&gs, gold, gen) {
            *theirs.entry(op).or_insert(0) += 1;
        }
    }
    if keep || !theirs.is_empty() {
        for op in ops(&script, parse, gen) {
            match theirs.get_mut(&op) {
                Some(k) if *k > 0 => {
                    *k -= 1;
                    forgiven += 1;
                }
                _ if keep => kept.push(op),
                _ => {}
            }
        }
    }
    let delta_new = delta.saturating_sub(forgiven);
    let terminal_edits = script
        .iter()
        .filter(|e| match **e {
            Edit::Delete { a } => ids.is_terminal(parse.tree.labels[a as usize]),
            Edit::Insert { b } => ids.is_terminal(gen.tree.labels[b as usize]),
            Edit::Map { .. } => false,
        })
        .count() as u32;
    let normalizer = parse.size + gen.size + terminal_edits;
    let counts = TedEvalCounts::sentence(
        u64::from(delta),
        u64::from(delta_new),
        u64::from(normalizer),
        u64::from(terminal_edits),
    );
    Ok((counts, kept))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ft(heads: &[u32], labels: &[&str]) -> FNode {
        let (t, r) = functional_tree(heads, labels);
        assert_eq!(r, Repairs::default());
        t
    }

    fn keys(t: &FNode) -> Vec<Key> {
        flatten(t).into_iter().map(|x| x.key).collect()
    }

    /// The sentence-level TedEval counts of `parse` (of the scheme of `gold`) against
    /// the generalization of `golds`.
    fn tedeval(parse: &FNode, gold: &FNode, golds: &[&FNode]) -> TedEvalCounts {
        let gen = generalize(golds).unwrap();
        let mut ids = LabelIds::new();
        let (p, g, x) = (
            ted_tree(parse, &mut ids),
            ted_tree(gold, &mut ids),
            ted_tree(&gen, &mut ids),
        );
        score_sentence(&p, &g, &x, &ids, false)
    }

    fn ted(a: &FNode, b: &FNode) -> u32 {
        let mut ids = LabelIds::new();
        let (x, y) = (ted_tree(a, &mut ids), ted_tree(b, &mut ids));
        let c = TedEvalCost {
            ids: &ids,
            unlabeled: false,
            heavy: 1000,
            light_terminals: !(x.in_order && y.in_order),
        };
        ted::distance(&x.tree, &y.tree, &c)
    }

    #[test]
    fn on_sunday_lexical_and_functional_heads() {
        // functional head: "on" heads "Sunday"; lexical head: "Sunday" heads "on"
        let functional = ft(&[0, 1], &["prep", "pobj"]);
        let lexical = ft(&[2, 0], &["case", "prep"]);
        assert!(subsumes_into(&functional, &lexical));
        assert!(subsumes_into(&lexical, &functional));
        assert_eq!(keys(&functional), keys(&lexical));
        let spans: Vec<(u32, u32)> = functional.nodes().iter().map(|n| n.span).collect();
        assert_eq!(spans, [(0, 2), (0, 2), (0, 1), (1, 2)]);
        // identical modulo wildcards, not identical
        assert_ne!(functional, lexical);
        assert_eq!(functional.size(), 3);
        // the generalization keeps every node; each word gets the function the other
        // analysis gives it, and the head marks disappear
        let gen = generalize(&[&functional, &lexical]).unwrap();
        assert_eq!(
            gen.render(&["on", "Sunday"]),
            "(ROOT (prep (case on) (pobj Sunday)))"
        );
        // both analyses are one relabelling away from it, and that is forgiven
        assert_eq!(ted(&functional, &gen), 1);
        let c = tedeval(&functional, &functional, &[&functional, &lexical]);
        assert_eq!((c.delta, c.delta_new, c.normalizer), (1, 0, 6));
        assert_eq!(c.score(), 1.0);
    }

    #[test]
    fn would_have_worked_generalizes_to_a_flat_tree() {
        // auxiliary head: would -> have -> worked
        let aux = ft(&[0, 1, 2], &["root", "vg", "vg"]);
        // main-verb head: worked heads would and have
        let main = ft(&[3, 3, 0], &["vg", "vg", "root"]);
        let words = ["would", "have", "worked"];
        assert_eq!(
            aux.render(&words),
            "(ROOT (root (* would) (vg (* have) (vg worked))))"
        );
        assert_eq!(
            main.render(&words),
            "(ROOT (root (vg would) (vg have) (* worked)))"
        );
        let gen = generalize(&[&aux, &main]).unwrap();
        assert_eq!(
            gen.render(&words),
            "(ROOT (root (vg would) (vg have) (* worked)))"
        );
        assert_eq!(gen, generalize(&[&main, &aux]).unwrap());
        assert!(subsumes_into(&gen, &aux) && subsumes_into(&gen, &main));
        // "worked" is a vg in the auxiliary analysis, but of the dropped node "have
        // worked": a weak claim, so it stays a wildcard
        let worked = &gen.children[0].children[2];
        assert_eq!(worked.claims.as_ref().unwrap().weak, ["vg"]);
        // their yields do not cross and their labels agree modulo wildcards, so they
        // unify: the auxiliary analysis's nodes, with the main-verb analysis's functions
        // in place of its wildcards
        let u = unify(&[&aux, &main]).unwrap();
        assert_eq!(
            u.render(&words),
            "(ROOT (root (vg would) (vg (vg have) (vg worked))))"
        );
        assert!(subsumes_into(&aux, &u) && subsumes_into(&main, &u));
    }

    #[test]
    fn a_parse_equal_to_its_gold_scores_one() {
        let aux = ft(&[0, 1, 2, 1], &["root", "vg", "vg", "p"]);
        let main = ft(&[3, 3, 0, 3], &["vg", "vg", "root", "p"]);
        for (gold, other) in [(&aux, &main), (&main, &aux)] {
            let c = tedeval(gold, gold, &[gold, other]);
            assert_eq!(c.delta_new, 0, "{c:?}");
            assert_eq!(c.score(), 1.0);
        }
        // the auxiliary analysis is far from the generalization (which looks like the
        // main-verb analysis here), and all of that is forgiven
        assert!(tedeval(&aux, &aux, &[&aux, &main]).delta > 0);
        // a wrong parse of the auxiliary scheme loses points
        let wrong = ft(&[0, 1, 1, 1], &["root", "vg", "obj", "p"]);
        let c = tedeval(&wrong, &aux, &[&aux, &main]);
        assert!(c.delta_new > 0 && c.score() < 1.0, "{c:?}");
    }

    #[test]
    fn when_the_gold_is_the_generalization_delta_new_is_delta() {
        let gold = ft(&[2, 0, 2], &["nsubj", "root", "obj"]);
        let flat = ft(&[2, 0, 2], &["nsubj", "root", "obj"]);
        let gen = generalize(&[&gold, &flat]).unwrap();
        assert!(gold.same_rendering(&gen));
        let parse = ft(&[0, 1, 2], &["root", "obj", "obj"]);
        let mut ids = LabelIds::new();
        let (p, g, x) = (
            ted_tree(&parse, &mut ids),
            ted_tree(&gold, &mut ids),
            ted_tree(&gen, &mut ids),
        );
        // the shortcut (equal trees forgive nothing) agrees with the long way: the gold's
        // script against the generalization has no operation to share
        assert_eq!(g.tree, x.tree);
        let c = TedEvalCost {
            ids: &ids,
            unlabeled: false,
            heavy: 1000,
            light_terminals: false,
        };
        let (d, script) = ted::distance_with_script(&g.tree, &x.tree, &c);
        assert_eq!(d, 0);
        assert!(ops(&script, &g, &x).is_empty());
        let t = score_sentence(&p, &g, &x, &ids, false);
        assert_eq!(t.delta_new, t.delta);
        assert!(t.delta > 0);
    }

    #[test]
    fn single_word_nodes_hold_their_word_and_heads_get_a_star() {
        let t = ft(&[2, 0, 2], &["nsubj", "root", "obj"]);
        let root = &t.children[0];
        assert_eq!(root.label, "root");
        let labels: Vec<&str> = root.children.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, ["nsubj", "*", "obj"]);
        assert_eq!(root.children[1].word, Some(1));
    }

    #[test]
    fn distances_between_functional_trees() {
        let gold = ft(&[2, 0, 2], &["nsubj", "root", "obj"]);
        assert_eq!(ted(&gold, &gold), 0);
        // one relation wrong: one relabelling
        let parse = ft(&[2, 0, 2], &["nsubj", "root", "iobj"]);
        assert_eq!(ted(&gold, &parse), 1);
        // the lexical and functional PP analyses differ only in where the labels sit
        let functional = ft(&[0, 1], &["prep", "pobj"]);
        let lexical = ft(&[2, 0], &["case", "prep"]);
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
        // the unary VP over VBZ: one yield, two levels
        let k = keys(&f);
        assert!(k.contains(&Key {
            span: (2, 3),
            gapped: None,
            level: 1
        }));
        assert!(k.contains(&Key {
            span: (2, 3),
            gapped: None,
            level: 0
        }));
        // a dependency analysis of the same words meets it on the shared yields
        let d = ft(&[2, 3, 0], &["det", "nsubj", "root"]);
        let g = generalize(&[&f, &d]).unwrap();
        // "dog" is the NN of NP and the head of nsubj; "barks" is the VBZ of a VP the
        // dependency tree lacks (a weak claim) and the head of root
        assert_eq!(
            g.render(&["the", "dog", "barks"]),
            "(ROOT (S|root (NP|nsubj (DT|det the) (NN dog)) (* barks)))"
        );
    }

    #[test]
    fn non_projective_trees_keep_their_true_yields() {
        // 1 → 3, 2 → 4 cross: word 2's node covers {2, 4}
        let t = ft(&[0, 4, 1, 1], &["root", "a", "b", "c"]);
        assert_eq!(t.size(), 6);
        assert!(subsumes_into(&t, &t));
        let k = keys(&t);
        let gapped = k.iter().find(|k| k.gapped.is_some()).unwrap();
        assert_eq!(gapped.span, (1, 4));
        assert_eq!(gapped.gapped.as_deref(), Some(&[1, 3][..]));
        // the projective tree with word 2 over {2, 3, 4} does not share that node
        let p = ft(&[0, 1, 2, 2], &["root", "a", "b", "c"]);
        let g = generalize(&[&t, &p]).unwrap();
        assert!(flatten(&g).iter().all(|x| x.key.gapped.is_none()));
        assert!(subsumes_into(&g, &t) && subsumes_into(&g, &p));
        // and the generalization of the tree with itself is itself
        let gg = generalize(&[&t, &t]).unwrap();
        assert!(gg.same_rendering(&t));
        assert_eq!(ted(&t, &t), 0);
    }

    #[test]
    fn broken_trees_are_repaired_and_counted() {
        // 1 ↔ 2 cycle, word 3 on the root, word 4 with a head out of range
        let (t, r) = functional_tree(&[2, 1, 0, 9], &["a", "b", "root", "c"]);
        assert_eq!(
            r,
            Repairs {
                bad_heads: 1,
                cycles: 1
            }
        );
        // every word is in the tree exactly once
        let mut words: Vec<u32> = t.nodes().iter().filter_map(|n| n.word).collect();
        words.sort_unstable();
        assert_eq!(words, [0, 1, 2, 3]);
    }

    #[test]
    fn unification_fails_on_label_conflict_and_crossing_yields() {
        let a = ft(&[2, 0, 2], &["nsubj", "root", "obj"]);
        let b = ft(&[2, 0, 2], &["nsubj", "root", "iobj"]);
        assert!(unify(&[&a, &b]).is_none());
        // {1,2} and {2,3} cross
        let left = ft(&[2, 0, 0], &["a", "root", "root"]);
        let right = ft(&[0, 3, 0], &["root", "a", "root"]);
        assert!(unify(&[&left, &right]).is_none());
        // a tree unifies with itself into itself
        assert!(unify(&[&a, &a]).unwrap().same_rendering(&a));
    }

    /// Random dependency trees over `n` words (any shape, non-projective ones too).
    fn tree_strategy(n: usize) -> impl Strategy<Value = FNode> {
        const L: [&str; 4] = ["a", "b", "c", "d"];
        (
            Just((1..=n).collect::<Vec<usize>>()).prop_shuffle(),
            proptest::collection::vec(0usize..1000, n),
            proptest::collection::vec(0usize..4, n),
        )
            .prop_map(move |(order, picks, labs)| {
                // each word in `order` takes a head among the words before it (or root)
                let mut heads = vec![0u32; n];
                for (k, &w) in order.iter().enumerate() {
                    let p = picks[k] % (k + 1);
                    heads[w - 1] = if p == 0 { 0 } else { order[p - 1] as u32 };
                }
                let labels: Vec<&str> = labs.iter().map(|&i| L[i]).collect();
                ft(&heads, &labels)
            })
    }

    fn three(n: usize) -> impl Strategy<Value = (FNode, FNode, FNode)> {
        (tree_strategy(n), tree_strategy(n), tree_strategy(n))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn generalization_laws((a, b, c) in (1usize..9).prop_flat_map(three)) {
            let g = |x: &[&FNode]| generalize(x).unwrap();
            // commutative
            prop_assert_eq!(g(&[&a, &b]), g(&[&b, &a]));
            // associative, and equal to the n-ary generalization
            let left = g(&[&g(&[&a, &b]), &c]);
            let right = g(&[&a, &g(&[&b, &c])]);
            prop_assert_eq!(&left, &right);
            prop_assert_eq!(&left, &g(&[&a, &b, &c]));
            // idempotent
            let ab = g(&[&a, &b]);
            prop_assert_eq!(g(&[&ab, &ab]), ab.clone());
            prop_assert!(g(&[&a, &a]).same_rendering(&a));
            // the result subsumes into every input
            prop_assert!(subsumes_into(&ab, &a) && subsumes_into(&ab, &b));
            prop_assert!(subsumes_into(&left, &a) && subsumes_into(&left, &c));
            // and is one tree over all the words
            let mut words: Vec<u32> = left.nodes().iter().filter_map(|n| n.word).collect();
            words.sort_unstable();
            prop_assert_eq!(words, (0..a.span.1).collect::<Vec<_>>());
        }

        #[test]
        fn unification_is_subsumed_by_both((a, b, _c) in (1usize..9).prop_flat_map(three)) {
            // a and its generalization with b are compatible
            let gen = generalize(&[&a, &b]).unwrap();
            let u = unify(&[&a, &gen]).expect("compatible trees unify");
            prop_assert!(subsumes_into(&a, &u) && subsumes_into(&gen, &u));
            if let Some(u) = unify(&[&a, &b]) {
                prop_assert!(subsumes_into(&a, &u) && subsumes_into(&b, &u));
            }
        }

        #[test]
        fn own_gold_scores_one((a, b, c) in (1usize..9).prop_flat_map(three)) {
            for gold in [&a, &b, &c] {
                let t = tedeval(gold, gold, &[&a, &b, &c]);
                prop_assert_eq!(t.delta_new, 0);
                prop_assert!(t.delta <= t.normalizer);
            }
            // any parse scores within [0, 1]
            let t = tedeval(&b, &a, &[&a, &c]);
            prop_assert!(t.delta_new <= t.delta && t.delta <= t.normalizer);
        }
    }
}
