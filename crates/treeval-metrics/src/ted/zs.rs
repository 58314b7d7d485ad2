//! The old implementation, kept as the reference the new one is tested against (unit
//! and property tests compare distances and edit scripts): Zhang & Shasha's algorithm
//! (1989) with left decompositions only, O(|A|·|B|·min(depth, leaves)²) time, which
//! made right-branching trees (a chain of words each headed by the previous one) take
//! minutes. Not used by treeval's commands.

use super::{Edit, Relabel, Tree};

impl Tree {
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
