//! Tree edit distance on ordered labelled trees, with the edit script: the cheapest
//! sequence of node deletions, insertions and relabellings that turns one tree into the
//! other.
//!
//! Costs: deleting or inserting a node costs 1; relabelling costs 0 when the labels are
//! equal (or declared equivalent, or when relabelling is free: unlabeled mode) and 1
//! otherwise; [`Relabel`] makes them node-dependent (TedEval pins the root and the
//! terminals).
//!
//! Algorithm (details in `gted.rs`): path decomposition in Pawlik & Augsten's RTED/APTED
//! framework with the optimal strategy over left and right paths, computed in
//! O(|A|·|B|) before any distance; each path is worked with Zhang & Shasha's forest
//! tables. Never slower than Zhang–Shasha (1989, left paths, kept as [`zs`] for tests)
//! or its mirror image, so chains of either direction take O(|A|·|B|) time; memory is
//! O(|A|·|B|), about 9 bytes a pair of nodes. Heavy paths are not implemented: trees
//! that zig-zag at every level stay costly, and the `try_` functions refuse a pair whose
//! strategy needs more than a limit of table cells ([`Cost`], [`TooCostly`]), deciding
//! from O(|A| + |B|) bounds when they suffice and stopping the strategy as soon as one
//! pair of subtrees is over the limit.

use serde::Serialize;

mod gted;
pub mod zs;

/// An ordered tree with labels as small integers, stored in postorder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tree {
    /// Label of each node, in postorder.
    pub labels: Vec<u32>,
    /// Leftmost leaf descendant of each node (postorder index).
    pub lml: Vec<u32>,
    /// Parent of each node (`None` for the root).
    pub parent: Vec<Option<u32>>,
}

/// A node while building: label and children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Label.
    pub label: u32,
    /// Children, left to right.
    pub children: Vec<Node>,
}

impl Tree {
    /// From a nested node.
    pub fn from_node(root: &Node) -> Self {
        let mut t = Tree::default();
        // iterative postorder
        fn walk(n: &Node, t: &mut Tree) -> u32 {
            let mut first: Option<u32> = None;
            let mut kids = Vec::with_capacity(n.children.len());
            for c in &n.children {
                let k = walk(c, t);
                first.get_or_insert(t.lml[k as usize]);
                kids.push(k);
            }
            let me = t.labels.len() as u32;
            t.labels.push(n.label);
            t.lml.push(first.unwrap_or(me));
            t.parent.push(None);
            for k in kids {
                t.parent[k as usize] = Some(me);
            }
            me
        }
        walk(root, &mut t);
        t
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether the tree has no node.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }
}

/// One edit operation (postorder indices into the two trees).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum Edit {
    /// Delete node `a` of the first tree.
    Delete {
        /// Node of the first tree.
        a: u32,
    },
    /// Insert node `b` of the second tree.
    Insert {
        /// Node of the second tree.
        b: u32,
    },
    /// Map `a` to `b`, relabelling if their labels differ (cost 0 or 1).
    Map {
        /// Node of the first tree.
        a: u32,
        /// Node of the second tree.
        b: u32,
        /// What relabelling costs here.
        cost: u32,
    },
}

/// Edit costs: relabelling, and (by default 1) deleting or inserting a node.
pub trait Relabel {
    /// Cost of turning label `a` into label `b`.
    fn cost(&self, a: u32, b: u32) -> u32;
    /// Cost of deleting or inserting a node labelled `label`.
    fn indel(&self, _label: u32) -> u32 {
        1
    }
}

/// Unit costs: 0 for equal labels, 1 otherwise.
#[derive(Debug, Clone, Copy, Default)]
pub struct UnitCost;

impl Relabel for UnitCost {
    fn cost(&self, a: u32, b: u32) -> u32 {
        u32::from(a != b)
    }
}

/// Relabelling is free (unlabeled mode).
#[derive(Debug, Clone, Copy, Default)]
pub struct FreeRelabel;

impl Relabel for FreeRelabel {
    fn cost(&self, _: u32, _: u32) -> u32 {
        0
    }
}

/// The work of an edit distance, in forest-table cells (the unit of the cost guard).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cost {
    /// Cells the distance's tables take under the optimal strategy (a lower bound when
    /// `exact` is false: the pair was refused before the strategy was complete).
    pub cells: u64,
    /// Whether `cells` is the strategy's exact count.
    pub exact: bool,
    /// An upper bound (Zhang–Shasha's count, left or right, the cheaper): a limit of
    /// this many cells always suffices.
    pub upper: u64,
    /// Nodes of the two trees.
    pub nodes: (u32, u32),
}

/// A pair of trees whose edit distance would take more than the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TooCostly {
    /// The estimate.
    pub cost: Cost,
    /// The limit it exceeds.
    pub limit: u64,
}

impl TooCostly {
    /// A limit that lets the pair through: the exact cost when known, else the upper
    /// bound.
    pub fn enough(&self) -> u64 {
        if self.cost.exact {
            self.cost.cells
        } else {
            self.cost.upper
        }
    }
}

impl std::fmt::Display for TooCostly {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "trees of {} and {} nodes whose edit distance needs ",
            self.cost.nodes.0, self.cost.nodes.1,
        )?;
        if self.cost.exact {
            write!(f, "{} table cells", self.cost.cells)
        } else {
            write!(f, "{} to {} table cells", self.cost.cells, self.cost.upper)
        }
    }
}

/// Default limit of the work of one edit distance, in table cells: memory stays under
/// about 9 bytes a cell (1.35 GB), time under a second or two.
pub const DEFAULT_MAX_COST: u64 = 150_000_000;

/// Everything a distance needs before its tables: both shapes and the strategy.
struct Plan {
    sa: gted::Shape,
    sb: gted::Shape,
    strat: Vec<u8>,
    cells: u64,
}

fn plan(a: &Tree, b: &Tree, limit: u64) -> Result<Plan, TooCostly> {
    let nodes = (a.len() as u32, b.len() as u32);
    // O(|A| + |B|): the bounds decide most refusals before any table
    let (sa, sb) = (gted::Shape::new(a), gted::Shape::new(b));
    let (low, upper) = gted::bounds(&sa, &sb);
    let refuse = |cells, exact| TooCostly {
        cost: Cost {
            cells,
            exact,
            upper,
            nodes,
        },
        limit,
    };
    if low > limit {
        return Err(refuse(low, false));
    }
    let mut strat = Vec::new();
    match gted::strategy(&sa, &sb, &mut strat, limit) {
        Ok(cells) if cells <= limit => Ok(Plan {
            sa,
            sb,
            strat,
            cells,
        }),
        Ok(cells) => Err(refuse(cells, true)),
        Err(over) => Err(refuse(over.max(low), false)),
    }
}

/// The cost of the edit distance of `a` and `b` (its strategy is computed: O(|A|·|B|)
/// time and memory).
pub fn cost(a: &Tree, b: &Tree) -> Cost {
    let nodes = (a.len() as u32, b.len() as u32);
    if a.is_empty() || b.is_empty() {
        return Cost {
            cells: 0,
            exact: true,
            upper: 0,
            nodes,
        };
    }
    let (sa, sb) = (gted::Shape::new(a), gted::Shape::new(b));
    let mut strat = Vec::new();
    Cost {
        // invariant: costs are compared with `> limit`, never true for u64::MAX
        cells: gted::strategy(&sa, &sb, &mut strat, u64::MAX).expect("no limit"),
        exact: true,
        upper: gted::bounds(&sa, &sb).1,
        nodes,
    }
}

fn indels<R: Relabel>(t: &Tree, r: &R) -> u32 {
    t.labels.iter().map(|&l| r.indel(l)).sum()
}

/// The edit distance between `a` and `b`, unless it would take more than `limit` table
/// cells.
pub fn try_distance<R: Relabel>(a: &Tree, b: &Tree, r: &R, limit: u64) -> Result<u32, TooCostly> {
    match (a.len(), b.len()) {
        (0, _) => Ok(indels(b, r)),
        (_, 0) => Ok(indels(a, r)),
        _ => {
            let p = plan(a, b, limit)?;
            let mut g = gted::Gted::new(a, b, r, &p);
            g.run();
            Ok(g.root_distance())
        }
    }
}

/// The edit distance and an optimal edit script (each node of `a` deleted or mapped,
/// each node of `b` inserted or mapped; the script's cost is the distance), unless the
/// distance would take more than `limit` table cells (or the script more than `limit`
/// on top).
pub fn try_distance_with_script<R: Relabel>(
    a: &Tree,
    b: &Tree,
    r: &R,
    limit: u64,
) -> Result<(u32, Vec<Edit>), TooCostly> {
    match (a.len(), b.len()) {
        (0, n) => Ok((
            indels(b, r),
            (0..n as u32).map(|b| Edit::Insert { b }).collect(),
        )),
        (n, 0) => Ok((
            indels(a, r),
            (0..n as u32).map(|a| Edit::Delete { a }).collect(),
        )),
        _ => {
            let p = plan(a, b, limit)?;
            let mut g = gted::Gted::new(a, b, r, &p);
            g.run();
            let d = g.root_distance();
            // Zhang–Shasha's own script when it costs no more than the distance did
            if let Some(s) = g.script(p.cells, false) {
                return Ok((d, s));
            }
            match g.script(limit, true) {
                Some(s) => Ok((d, s)),
                // (not seen in tests: the backtrack by strategy takes about the
                // distance's own cells)
                None => Err(TooCostly {
                    cost: Cost {
                        cells: g.cells,
                        exact: false,
                        upper: u64::MAX,
                        nodes: (a.len() as u32, b.len() as u32),
                    },
                    limit,
                }),
            }
        }
    }
}

/// The edit distance between `a` and `b` (no limit).
pub fn distance<R: Relabel>(a: &Tree, b: &Tree, r: &R) -> u32 {
    // invariant: no cost exceeds u64::MAX, the limit here
    try_distance(a, b, r, u64::MAX).expect("no limit")
}

/// The edit distance and an optimal edit script (no limit): see
/// [`try_distance_with_script`].
pub fn distance_with_script<R: Relabel>(a: &Tree, b: &Tree, r: &R) -> (u32, Vec<Edit>) {
    // invariant: no cost exceeds u64::MAX, the limit here
    try_distance_with_script(a, b, r, u64::MAX).expect("no limit")
}

/// The cost of a script under costs `r` (`a`, `b`: the trees it edits).
pub fn script_cost_with<R: Relabel>(s: &[Edit], a: &Tree, b: &Tree, r: &R) -> u32 {
    s.iter()
        .map(|e| match *e {
            Edit::Delete { a: x } => r.indel(a.labels[x as usize]),
            Edit::Insert { b: y } => r.indel(b.labels[y as usize]),
            Edit::Map { cost, .. } => cost,
        })
        .sum()
}

/// The cost of a script with unit deletions and insertions.
pub fn script_cost(s: &[Edit]) -> u32 {
    s.iter()
        .map(|e| match e {
            Edit::Delete { .. } | Edit::Insert { .. } => 1,
            Edit::Map { cost, .. } => *cost,
        })
        .sum()
}

/// Parse APTED's bracket notation (`{a{b}{c}}`), interning labels with `intern`.
pub fn parse_apted(s: &str, intern: &mut dyn FnMut(&str) -> u32) -> Result<Node, String> {
    let b = s.trim().as_bytes();
    let mut stack: Vec<Node> = Vec::new();
    let mut root: Option<Node> = None;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && b[j] != b'{' && b[j] != b'}' {
                    j += 1;
                }
                let label = std::str::from_utf8(&b[start..j]).map_err(|e| e.to_string())?;
                stack.push(Node {
                    label: intern(label),
                    children: Vec::new(),
                });
                i = j;
            }
            b'}' => {
                let n = stack
                    .pop()
                    .ok_or_else(|| format!("expected '{{' before the '}}' at byte {}", i + 1))?;
                match stack.last_mut() {
                    Some(p) => p.children.push(n),
                    None if root.is_none() => root = Some(n),
                    None => {
                        return Err(format!(
                            "expected one tree, found a second at byte {}",
                            i + 1
                        ))
                    }
                }
                i += 1;
            }
            c if c.is_ascii_whitespace() && stack.is_empty() => i += 1,
            _ => {
                return Err(format!(
                    "expected '{{' or '}}', found '{}' at byte {}",
                    b[i] as char,
                    i + 1
                ))
            }
        }
    }
    if !stack.is_empty() {
        return Err(format!("expected {} more '}}'", stack.len()));
    }
    root.ok_or_else(|| "expected a tree, found nothing".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn tree(s: &str, labels: &mut HashMap<String, u32>) -> Tree {
        let n = labels.len();
        let mut next = n as u32;
        let mut intern = |x: &str| {
            *labels.entry(x.to_owned()).or_insert_with(|| {
                next += 1;
                next - 1
            })
        };
        Tree::from_node(&parse_apted(s, &mut intern).unwrap())
    }

    fn d(a: &str, b: &str) -> u32 {
        let mut l = HashMap::new();
        let (x, y) = (tree(a, &mut l), tree(b, &mut l));
        let (dist, script) = distance_with_script(&x, &y, &UnitCost);
        assert_eq!(dist, distance(&x, &y, &UnitCost));
        assert_eq!(
            (dist, script.clone()),
            zs::distance_with_script(&x, &y, &UnitCost)
        );
        assert_eq!(script_cost(&script), dist, "{a} {b}: {script:?}");
        // every node appears once
        let mut seen_a = vec![0; x.len()];
        let mut seen_b = vec![0; y.len()];
        for e in &script {
            match *e {
                Edit::Delete { a } => seen_a[a as usize] += 1,
                Edit::Insert { b } => seen_b[b as usize] += 1,
                Edit::Map { a, b, .. } => {
                    seen_a[a as usize] += 1;
                    seen_b[b as usize] += 1;
                }
            }
        }
        assert!(seen_a.iter().chain(&seen_b).all(|&k| k == 1), "{script:?}");
        dist
    }

    #[test]
    fn known_distances() {
        // Zhang & Shasha's example (as zss's test suite has it): f(d(a c(b)) e) vs
        // f(c(d(a b)) e) at distance 2
        assert_eq!(d("{f{d{a}{c{b}}}{e}}", "{f{c{d{a}{b}}}{e}}"), 2);
        assert_eq!(d("{a}", "{a}"), 0);
        assert_eq!(d("{a}", "{b}"), 1);
        assert_eq!(d("{a{b}{c}}", "{a{c}}"), 1);
        assert_eq!(d("{a{b{c{d}}}}", "{a}"), 3);
        assert_eq!(d("{a{b}{c}{d}}", "{x{b}{c}{d}}"), 1);
        assert_eq!(d("{a{b}{c}}", "{a{b{c}}}"), 2);
    }

    #[test]
    fn apted_notation_errors() {
        let mut i = |_: &str| 0;
        assert!(parse_apted("{a}{b}", &mut i).is_err());
        assert!(parse_apted("{a", &mut i).is_err());
        assert!(parse_apted("a}", &mut i).is_err());
    }

    /// TedEval-like costs: labels from 100 up are pinned (relabelling or deleting them
    /// costs `heavy`), the others cost 1 (relabelling 0 when `free`).
    #[derive(Debug, Clone, Copy)]
    struct Pinned {
        heavy: u32,
        free: bool,
    }

    impl Relabel for Pinned {
        fn cost(&self, a: u32, b: u32) -> u32 {
            if a == b {
                0
            } else if a >= 100 || b >= 100 {
                self.heavy
            } else {
                u32::from(!self.free)
            }
        }
        fn indel(&self, l: u32) -> u32 {
            if l >= 100 {
                self.heavy
            } else {
                1
            }
        }
    }

    /// A tree of `n` nodes of the given shape, labels from `seed`:
    /// 0 random, 1 right comb (each inner node: a leaf, then the rest), 2 left comb,
    /// 3 star, 4 unary chain, 5 zig-zag comb, 6 TedEval-like chain (node, `*` over a
    /// pinned terminal, rest).
    fn shaped(kind: u8, n: usize, labels: u32, seed: u64) -> Node {
        let mut x = seed;
        let mut next = move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize
        };
        let n = n.max(1);
        let lab = |next: &mut dyn FnMut() -> usize| (next() % labels as usize) as u32;
        // parents of nodes 1..n in preorder-ish construction: children lists
        let mut kids: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut label = vec![0u32; n];
        for l in label.iter_mut() {
            *l = lab(&mut next);
        }
        match kind {
            0 => {
                for k in 1..n {
                    let p = next() % k;
                    kids[p].push(k);
                }
            }
            1 | 2 | 5 => {
                // spine 0, 2, 4, ...; leaves 1, 3, 5, ...
                let mut s = 0;
                let mut k = 1;
                let mut turn = 0;
                while k < n {
                    let leaf = k;
                    let next_spine = k + 1;
                    let right = match kind {
                        1 => true,
                        2 => false,
                        _ => turn % 2 == 0,
                    };
                    turn += 1;
                    if next_spine < n {
                        if right {
                            kids[s].push(leaf);
                            kids[s].push(next_spine);
                        } else {
                            kids[s].push(next_spine);
                            kids[s].push(leaf);
                        }
                    } else {
                        kids[s].push(leaf);
                    }
                    s = next_spine;
                    k += 2;
                }
            }
            3 => {
                for k in 1..n {
                    kids[0].push(k);
                }
            }
            4 => {
                for k in 1..n {
                    kids[k - 1].push(k);
                }
            }
            _ => {
                // node k: children [star (pinned terminal below), next node]
                let mut s = 0;
                let mut k = 1;
                while k + 1 < n {
                    kids[s].push(k);
                    kids[k].push(k + 1);
                    label[k + 1] = 100 + (k as u32 + 1);
                    if k + 2 < n {
                        kids[s].push(k + 2);
                    }
                    s = k + 2;
                    k += 3;
                }
            }
        }
        fn build(v: usize, kids: &[Vec<usize>], label: &[u32]) -> Node {
            Node {
                label: label[v],
                children: kids[v].iter().map(|&c| build(c, kids, label)).collect(),
            }
        }
        build(0, &kids, &label)
    }

    /// Each node once; the mapping keeps ancestry and order; its cost is the distance.
    fn check_script<R: Relabel>(a: &Tree, b: &Tree, r: &R, d: u32, s: &[Edit]) {
        assert_eq!(script_cost_with(s, a, b, r), d, "{s:?}");
        let (mut sa, mut sb) = (vec![0; a.len()], vec![0; b.len()]);
        let mut maps = Vec::new();
        for e in s {
            match *e {
                Edit::Delete { a } => sa[a as usize] += 1,
                Edit::Insert { b } => sb[b as usize] += 1,
                Edit::Map { a: x, b: y, cost } => {
                    sa[x as usize] += 1;
                    sb[y as usize] += 1;
                    assert_eq!(cost, r.cost(a.labels[x as usize], b.labels[y as usize]));
                    maps.push((x, y));
                }
            }
        }
        assert!(sa.iter().chain(&sb).all(|&k| k == 1), "{s:?}");
        // x is an ancestor of y iff lml(x) <= y < x
        let anc = |t: &Tree, x: u32, y: u32| t.lml[x as usize] <= y && y < x;
        for &(a1, b1) in &maps {
            for &(a2, b2) in &maps {
                assert_eq!(anc(a, a1, a2), anc(b, b1, b2), "ancestry {s:?}");
                let left = |t: &Tree, x: u32, y: u32| x < y && !anc(t, y, x);
                assert_eq!(left(a, a1, a2), left(b, b1, b2), "order {s:?}");
            }
        }
    }

    fn compare<R: Relabel>(a: &Tree, b: &Tree, r: &R) {
        let (d, s) = distance_with_script(a, b, r);
        let (dz, sz) = zs::distance_with_script(a, b, r);
        assert_eq!(d, dz);
        assert_eq!(distance(a, b, r), dz);
        check_script(a, b, r, d, &s);
        // the backtrack by strategy directions gives a valid optimal script too
        let (sa, sb) = (gted::Shape::new(a), gted::Shape::new(b));
        let mut strat = Vec::new();
        let cells = gted::strategy(&sa, &sb, &mut strat, u64::MAX).unwrap();
        let (low, high) = gted::bounds(&sa, &sb);
        assert!(low <= cells && cells <= high, "{low} {cells} {high}");
        let p = Plan {
            sa,
            sb,
            strat,
            cells,
        };
        let mut g = gted::Gted::new(a, b, r, &p);
        g.run();
        assert_eq!(g.cells, cells, "the strategy counts the cells exactly");
        let s2 = g.script(u64::MAX, true).unwrap();
        check_script(a, b, r, d, &s2);
        // the left backtrack is the old script
        let s1 = g.script(u64::MAX, false).unwrap();
        assert_eq!(s1, sz);
        if s != sz {
            assert_eq!(s, s2, "either the old script or the strategy's");
        }
    }

    #[test]
    fn chains_both_ways_are_cheap() {
        // Zhang–Shasha's left decomposition is cubic on a right comb, the strategy
        // linear in the table size either way
        for kind in [1u8, 2, 6] {
            let a = Tree::from_node(&shaped(kind, 3000, 3, 1));
            let b = Tree::from_node(&shaped(kind, 3000, 3, 2));
            let c = cost(&a, &b);
            assert!(c.cells < 3 * 3000 * 3000, "{kind}: {c:?}");
            let a = Tree::from_node(&shaped(kind, 120, 3, 1));
            let b = Tree::from_node(&shaped(kind, 120, 3, 2));
            compare(&a, &b, &UnitCost);
        }
    }

    #[test]
    fn refused_over_the_limit_accepted_at_it() {
        let a = Tree::from_node(&shaped(1, 50, 3, 1));
        let c = cost(&a, &a);
        assert!(c.exact && c.cells >= 2500 && c.cells <= c.upper);
        // |A|·|B| alone is over: refused before any table, with both bounds
        let e = try_distance(&a, &a, &UnitCost, 2499).unwrap_err();
        assert!(!e.cost.exact && e.cost.cells >= 2500 && e.cost.cells <= c.cells);
        assert_eq!(
            (e.limit, e.cost.upper, e.enough()),
            (2499, c.upper, c.upper)
        );
        assert_eq!(
            e.to_string(),
            format!(
                "trees of 50 and 50 nodes whose edit distance needs {} to {} table cells",
                e.cost.cells, c.upper
            )
        );
        let e = try_distance_with_script(&a, &a, &UnitCost, c.cells - 1).unwrap_err();
        assert!(e.cost.cells <= c.cells && (!e.cost.exact || e.cost.cells == c.cells));
        assert!(e.enough() >= c.cells);
        for limit in [c.cells, e.enough()] {
            let (d, s) = try_distance_with_script(&a, &a, &UnitCost, limit).unwrap();
            assert_eq!(d, zs::distance(&a, &a, &UnitCost));
            check_script(&a, &a, &UnitCost, d, &s);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
        #[test]
        fn same_distance_as_zhang_shasha(
            ka in 0u8..7, kb in 0u8..7, na in 1usize..40, nb in 1usize..40,
            labels in 1u32..4, sa in 0u64..1000, sb in 0u64..1000, costs in 0u8..3,
        ) {
            let a = Tree::from_node(&shaped(ka, na, labels, sa));
            let b = Tree::from_node(&shaped(kb, nb, labels, sb));
            match costs {
                0 => compare(&a, &b, &UnitCost),
                1 => compare(&a, &b, &FreeRelabel),
                _ => compare(&a, &b, &Pinned { heavy: (na + nb + 1) as u32, free: sa % 2 == 0 }),
            }
        }
    }
}
