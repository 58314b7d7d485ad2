//! Tree edit distance on ordered labelled trees (Zhang & Shasha 1989), with the edit
//! script: the cheapest sequence of node deletions, insertions and relabellings that
//! turns one tree into the other.
//!
//! Costs: deleting or inserting a node costs 1; relabelling costs 0 when the labels are
//! equal (or declared equivalent, or when relabelling is free: unlabeled mode) and 1
//! otherwise. The algorithm runs in O(|A|·|B|·min(depth, leaves)²) time and O(|A|·|B|)
//! memory.

use serde::Serialize;

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

    /// Key roots: the root and every node with a left sibling, ascending.
    fn keyroots(&self) -> Vec<u32> {
        let n = self.len();
        let mut seen = vec![false; n];
        let mut out = Vec::new();
        for i in (0..n).rev() {
            let l = self.lml[i] as usize;
            if !seen[l] {
                seen[l] = true;
                out.push(i as u32);
            }
        }
        out.sort_unstable();
        out
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

/// Zhang–Shasha's tables for a pair of trees.
struct Zs<'a, R: Relabel> {
    a: &'a Tree,
    b: &'a Tree,
    r: &'a R,
    /// Tree distances of every pair of subtrees, `td[i * m + j]`.
    td: Vec<u32>,
    fd: Vec<u32>,
    /// Deletion cost of each node of A, insertion cost of each node of B.
    del: Vec<u32>,
    ins: Vec<u32>,
}

impl<'a, R: Relabel> Zs<'a, R> {
    fn new(a: &'a Tree, b: &'a Tree, r: &'a R) -> Self {
        Zs {
            a,
            b,
            r,
            td: vec![0; a.len() * b.len()],
            fd: Vec::new(),
            del: a.labels.iter().map(|&l| r.indel(l)).collect(),
            ins: b.labels.iter().map(|&l| r.indel(l)).collect(),
        }
    }

    /// Fill the forest-distance table of subtrees `i` and `j` (postorder indices) into
    /// `self.fd`, recording subtree distances in `td`. Row x, column y hold the distance
    /// between the forests `lml(i)..x` and `lml(j)..y` (x, y exclusive ends shifted by one).
    fn forest(&mut self, i: u32, j: u32) {
        let (a, b) = (self.a, self.b);
        let (li, lj) = (a.lml[i as usize], b.lml[j as usize]);
        let (rows, cols) = ((i - li + 2) as usize, (j - lj + 2) as usize);
        let m = b.len();
        self.fd.clear();
        self.fd.resize(rows * cols, 0);
        let fd = &mut self.fd;
        let (dels, inss) = (&self.del, &self.ins);
        for x in 1..rows {
            fd[x * cols] = fd[(x - 1) * cols] + dels[(li as usize) + x - 1];
        }
        for y in 1..cols {
            fd[y] = fd[y - 1] + inss[(lj as usize) + y - 1];
        }
        for x in 1..rows {
            let xi = li + x as u32 - 1; // node of A
            let lx = a.lml[xi as usize];
            let dx = dels[xi as usize];
            for y in 1..cols {
                let yj = lj + y as u32 - 1; // node of B
                let ly = b.lml[yj as usize];
                let del = fd[(x - 1) * cols + y] + dx;
                let ins = fd[x * cols + y - 1] + inss[yj as usize];
                let v = if lx == li && ly == lj {
                    let ren = fd[(x - 1) * cols + y - 1]
                        + self.r.cost(a.labels[xi as usize], b.labels[yj as usize]);
                    let v = del.min(ins).min(ren);
                    self.td[xi as usize * m + yj as usize] = v;
                    v
                } else {
                    let (px, py) = ((lx - li) as usize, (ly - lj) as usize);
                    let sub = fd[px * cols + py] + self.td[xi as usize * m + yj as usize];
                    del.min(ins).min(sub)
                };
                fd[x * cols + y] = v;
            }
        }
    }

    fn run(&mut self) {
        let (ka, kb) = (self.a.keyroots(), self.b.keyroots());
        for &i in &ka {
            for &j in &kb {
                self.forest(i, j);
            }
        }
    }

    /// The edit script between subtrees `i` and `j`, appended to `out`.
    fn script(&mut self, i: u32, j: u32, out: &mut Vec<Edit>) {
        let (a, b) = (self.a, self.b);
        self.forest(i, j);
        let (li, lj) = (a.lml[i as usize], b.lml[j as usize]);
        let cols = (j - lj + 2) as usize;
        let fd = self.fd.clone();
        let (mut x, mut y) = ((i - li + 1) as usize, (j - lj + 1) as usize);
        let mut pending: Vec<(u32, u32)> = Vec::new();
        while x > 0 || y > 0 {
            if x > 0 && fd[x * cols + y] == fd[(x - 1) * cols + y] + self.del[li as usize + x - 1] {
                out.push(Edit::Delete {
                    a: li + x as u32 - 1,
                });
                x -= 1;
                continue;
            }
            if y > 0 && fd[x * cols + y] == fd[x * cols + y - 1] + self.ins[lj as usize + y - 1] {
                out.push(Edit::Insert {
                    b: lj + y as u32 - 1,
                });
                y -= 1;
                continue;
            }
            let (xi, yj) = (li + x as u32 - 1, lj + y as u32 - 1);
            let (lx, ly) = (a.lml[xi as usize], b.lml[yj as usize]);
            if lx == li && ly == lj {
                let cost = self.r.cost(a.labels[xi as usize], b.labels[yj as usize]);
                out.push(Edit::Map { a: xi, b: yj, cost });
                x -= 1;
                y -= 1;
            } else {
                // the pair of subtrees xi, yj, then the forests left of them
                pending.push((xi, yj));
                x = (lx - li) as usize;
                y = (ly - lj) as usize;
            }
        }
        for (xi, yj) in pending {
            self.script(xi, yj, out);
        }
    }
}

/// The edit distance between `a` and `b`.
pub fn distance<R: Relabel>(a: &Tree, b: &Tree, r: &R) -> u32 {
    match (a.len(), b.len()) {
        (0, _) => b.labels.iter().map(|&l| r.indel(l)).sum(),
        (_, 0) => a.labels.iter().map(|&l| r.indel(l)).sum(),
        _ => {
            let mut z = Zs::new(a, b, r);
            z.run();
            z.td[(a.len() - 1) * b.len() + b.len() - 1]
        }
    }
}

/// The edit distance and an optimal edit script (each node of `a` deleted or mapped,
/// each node of `b` inserted or mapped; the script's cost is the distance).
pub fn distance_with_script<R: Relabel>(a: &Tree, b: &Tree, r: &R) -> (u32, Vec<Edit>) {
    match (a.len(), b.len()) {
        (0, n) => (
            distance(a, b, r),
            (0..n as u32).map(|b| Edit::Insert { b }).collect(),
        ),
        (n, 0) => (
            distance(a, b, r),
            (0..n as u32).map(|a| Edit::Delete { a }).collect(),
        ),
        _ => {
            let mut z = Zs::new(a, b, r);
            z.run();
            let d = z.td[(a.len() - 1) * b.len() + b.len() - 1];
            let mut s = Vec::new();
            z.script(a.len() as u32 - 1, b.len() as u32 - 1, &mut s);
            (d, s)
        }
    }
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
}
