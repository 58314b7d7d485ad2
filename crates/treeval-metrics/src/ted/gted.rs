//! The edit distance by path decomposition (Pawlik & Augsten's RTED/APTED framework,
//! restricted to left and right paths), and the edit script by a backtrack.
//!
//! **Decomposition (GTED).** For a pair of subtrees (F_v, G_w) a *strategy* names a
//! root-to-leaf path: the left path (first children) or the right path (last children)
//! of F_v or of G_w. Say it is the left path of F_v: the subtrees hanging off that path
//! are paired with G_w first (recursively, each with its own path), then one
//! Zhang–Shasha forest table per left key root w' of G_w (w itself and every node with a
//! left sibling) pairs the prefix forests of F_v with those of G_w'; together they give
//! the distance of every subtree of F_v on the path to every subtree of G_w. A right
//! path does the same on the mirrored trees; a path in G_w swaps the roles. Every pair
//! of subtrees gets its distance in one table `td` of |A|·|B| entries.
//!
//! **Strategy.** The work of a choice is counted exactly in table cells:
//! |F_v|·K(G_w) for the path's own tables (K: the sum of the key roots' subtree sizes,
//! Zhang–Shasha's count of relevant subforests, left or right) plus the work of the
//! hanging pairs. The cheapest choice for every pair of subtrees, bottom-up, in
//! O(|A|·|B|) time, is RTED's optimal strategy over left and right paths; its cost at the
//! roots, [`Cost::cells`], is known before any distance is computed, which is what the
//! cost guard compares. Left paths everywhere is Zhang–Shasha's algorithm, right paths
//! everywhere its mirror image, so neither is ever beaten: a chain of words each headed
//! by the previous one (a right comb) takes O(|A|·|B|) instead of Zhang–Shasha's
//! O(|A|·|B|·depth²). Heavy paths (APTED's third kind, which bound the worst case at
//! O(n³)) are not implemented: trees that zig-zag at every level remain expensive in
//! both directions, and the guard refuses them when they exceed the limit.
//!
//! **Script.** Zhang–Shasha's backtrack over the forest table of the two roots, recursing
//! into each pair of subtrees it maps that is off the tables' leftmost paths. It is run
//! first with left decompositions everywhere, which gives exactly the script of the old
//! implementation (so TedEval's δ_new, which intersects scripts, keeps its figures);
//! when that backtrack would take more cells than the distance itself did, the script
//! is recomputed with each pair of subtrees backtracked in the direction (left or right)
//! of its strategy, which right combs need. Both are deterministic functions of the two
//! trees and the costs.
//!
//! Memory: `td` (4 bytes a pair), the strategy (1 byte a pair), one forest table (at
//! most (|A|+1)·(|B|+1) × 4 bytes); the strategy's computation holds two rows of |B|
//! 8-byte costs per open node of A with two or more children.

use super::{Edit, Plan, Relabel, Tree};

/// Left (first children) or right (last children) decomposition.
const LEFT: usize = 0;
const RIGHT: usize = 1;

/// The four choices of a strategy: the left or right path of the first tree's subtree,
/// or of the second's. Bit 0 is the direction, bit 1 the tree.
const LEFT_A: u8 = 0;
const RIGHT_A: u8 = 1;
const LEFT_B: u8 = 2;
const RIGHT_B: u8 = 3;

/// One tree's structure in both decompositions. Nodes are named by their postorder
/// index (canonical ids, as in [`Tree`]); `ord[o]`/`pos[o]` translate between canonical
/// ids and the postorder of decomposition `o` (the mirror image's postorder for
/// `RIGHT`).
pub(super) struct Shape {
    n: usize,
    size: Vec<u32>,
    parent: Vec<u32>,
    /// Children of node v: `kids[first[v]..first[v + 1]]`, left to right.
    first: Vec<u32>,
    kids: Vec<u32>,
    ord: [Vec<u32>; 2],
    pos: [Vec<u32>; 2],
    /// Leftmost leaf (in the decomposition's order) of each node, by its index there.
    lml: [Vec<u32>; 2],
    /// Sum of the subtree sizes of T_v's key roots in decomposition `o` (v included).
    keysum: [Vec<u64>; 2],
}

impl Shape {
    pub(super) fn new(t: &Tree) -> Shape {
        let n = t.len();
        let mut count = vec![0u32; n + 1];
        for p in t.parent.iter().flatten() {
            count[*p as usize] += 1;
        }
        let mut first = vec![0u32; n + 1];
        for v in 0..n {
            first[v + 1] = first[v] + count[v];
        }
        let mut fill = first.clone();
        let mut kids = vec![0u32; n.saturating_sub(1)];
        let mut parent = vec![u32::MAX; n];
        // postorder: children in increasing order, left to right
        for (v, p) in t.parent.iter().enumerate() {
            if let Some(p) = *p {
                kids[fill[p as usize] as usize] = v as u32;
                fill[p as usize] += 1;
                parent[v] = p;
            }
        }
        let mut size = vec![1u32; n];
        for v in 0..n {
            if parent[v] != u32::MAX {
                size[parent[v] as usize] += size[v];
            }
        }
        // preorder of the tree is the reverse of the mirror image's postorder
        let mut pre = Vec::with_capacity(n);
        let mut stack = Vec::new();
        if n > 0 {
            stack.push(n as u32 - 1);
        }
        while let Some(v) = stack.pop() {
            pre.push(v);
            let k = &kids[first[v as usize] as usize..first[v as usize + 1] as usize];
            stack.extend(k.iter().rev());
        }
        let right_ord: Vec<u32> = pre.iter().rev().copied().collect();
        let mut right_pos = vec![0u32; n];
        for (k, &c) in right_ord.iter().enumerate() {
            right_pos[c as usize] = k as u32;
        }
        // rightmost leaf of each node, canonical
        let mut rml = vec![0u32; n];
        for v in 0..n {
            let k = &kids[first[v] as usize..first[v + 1] as usize];
            rml[v] = k.last().map_or(v as u32, |&c| rml[c as usize]);
        }
        let mut right_lml = vec![0u32; n];
        for v in 0..n {
            right_lml[right_pos[v] as usize] = right_pos[rml[v] as usize];
        }
        let mut keysum = [vec![0u64; n], vec![0u64; n]];
        for v in 0..n {
            let k = &kids[first[v] as usize..first[v + 1] as usize];
            for (o, ks) in keysum.iter_mut().enumerate() {
                let mut s = u64::from(size[v]);
                for &c in k {
                    s += ks[c as usize];
                }
                let fc = if o == LEFT { k.first() } else { k.last() };
                if let Some(&fc) = fc {
                    s -= u64::from(size[fc as usize]);
                }
                ks[v] = s;
            }
        }
        Shape {
            n,
            size,
            parent,
            first,
            kids,
            ord: [(0..n as u32).collect(), right_ord],
            pos: [(0..n as u32).collect(), right_pos],
            lml: [t.lml.clone(), right_lml],
            keysum,
        }
    }

    fn kids(&self, v: usize) -> &[u32] {
        &self.kids[self.first[v] as usize..self.first[v + 1] as usize]
    }

    /// The subtrees hanging off the path of decomposition `o` from `v`, pushed to `out`.
    fn hanging(&self, v: usize, o: usize, out: &mut Vec<u32>) {
        let mut p = v;
        loop {
            let k = self.kids(p);
            let Some(&f) = (if o == LEFT { k.first() } else { k.last() }) else {
                return;
            };
            for &c in k {
                if c != f {
                    out.push(c);
                }
            }
            p = f as usize;
        }
    }
}

/// Bounds of the strategy's cost from the two trees' sizes alone, in O(1): every choice
/// at the roots costs at least its own tables (lower bound), and Zhang–Shasha's left or
/// right decomposition everywhere (its cost: the product of the key-root sums) is one of
/// the strategies (upper bound).
pub(super) fn bounds(a: &Shape, b: &Shape) -> (u64, u64) {
    let (ra, rb) = (a.n - 1, b.n - 1);
    let (sa, sb) = (u64::from(a.size[ra]), u64::from(b.size[rb]));
    let [la, rka] = [a.keysum[LEFT][ra], a.keysum[RIGHT][ra]];
    let [lb, rkb] = [b.keysum[LEFT][rb], b.keysum[RIGHT][rb]];
    let low = sa
        .saturating_mul(lb.min(rkb))
        .min(sb.saturating_mul(la.min(rka)));
    let high = la.saturating_mul(lb).min(rka.saturating_mul(rkb));
    (low, high)
}

/// The optimal strategy over left and right paths of every pair of subtrees, in
/// `strat[v * m + w]`, and its cost in table cells at the roots; `Err` with a lower
/// bound of that cost as soon as the cost of some pair of subtrees exceeds `limit` (a
/// pair never costs more than the pair of trees that holds it).
pub(super) fn strategy(a: &Shape, b: &Shape, strat: &mut Vec<u8>, limit: u64) -> Result<u64, u64> {
    let (n, m) = (a.n, b.n);
    strat.clear();
    strat.resize(n * m, 0);
    let mut rows = Rows::new(n, b);
    for v in 0..n {
        rows.enter(a, v);
        let over = rows.choose(a, b, v, &mut strat[v * m..(v + 1) * m]);
        if over > limit {
            return Err(over);
        }
        rows.leave(a, v);
    }
    Ok(if n == 0 || m == 0 {
        0
    } else {
        rows.prev_c[m - 1]
    })
}

/// The cheapest of the four choices of a pair of subtrees, whose costs are given in the
/// order `LEFT_A`, `RIGHT_A`, `LEFT_B`, `RIGHT_B` (the first of equals), and its cost.
#[inline]
fn cheapest(costs: [u64; 4]) -> (u8, u64) {
    let (mut best, mut c) = (LEFT_A, costs[0]);
    if costs[1] < c {
        (best, c) = (RIGHT_A, costs[1]);
    }
    if costs[2] < c {
        (best, c) = (LEFT_B, costs[2]);
    }
    if costs[3] < c {
        (best, c) = (RIGHT_B, costs[3]);
    }
    (best, c)
}

/// The working rows of [`strategy`], each over the nodes of B, reused from one node v of
/// A (in postorder) to the next.
struct Rows {
    /// B's first and last child of each node (`u32::MAX` for leaves).
    bfirst: Vec<u32>,
    blast: Vec<u32>,
    /// The cost of (v, w).
    crow: Vec<u64>,
    /// Per node w of B: Σ of its children's costs (filled as they are computed).
    csum: Vec<u64>,
    /// The cost hanging off the left and right paths of B_w, against T_v.
    hlb: Vec<u64>,
    hrb: Vec<u64>,
    /// The cost hanging off the left and right paths of T_v, against B_w.
    hla: Vec<u64>,
    hra: Vec<u64>,
    /// `crow`, `hla` and `hra` of the node before v (its last child, if it has any).
    prev_c: Vec<u64>,
    prev_hla: Vec<u64>,
    prev_hra: Vec<u64>,
    /// Per node of A with two or more children, once its first child is done: the cost
    /// hanging off its left path so far, and the sum of its finished children's costs
    /// (empty rows before and after).
    open: Vec<(Vec<u64>, Vec<u64>)>,
    /// Rows of `open` handed back, for reuse.
    pool: Vec<Vec<u64>>,
}

impl Rows {
    /// The rows for a tree A of `n` nodes against B.
    fn new(n: usize, b: &Shape) -> Rows {
        let m = b.n;
        // B's structure as flat arrays: first and last child (u32::MAX for leaves), parent
        let mut bfirst = vec![u32::MAX; m];
        let mut blast = vec![u32::MAX; m];
        for w in 0..m {
            let k = b.kids(w);
            if let (Some(&f), Some(&l)) = (k.first(), k.last()) {
                bfirst[w] = f;
                blast[w] = l;
            }
        }
        Rows {
            bfirst,
            blast,
            crow: vec![0; m],
            csum: vec![0; m],
            hlb: vec![0; m],
            hrb: vec![0; m],
            hla: vec![0; m],
            hra: vec![0; m],
            prev_c: vec![0; m],
            prev_hla: vec![0; m],
            prev_hra: vec![0; m],
            open: vec![(Vec::new(), Vec::new()); n],
            pool: Vec::new(),
        }
    }

    /// The cost hanging off v's left and right paths (`hla`, `hra`), from its children's.
    fn enter(&mut self, a: &Shape, v: usize) {
        match a.kids(v).len() {
            0 => {
                self.hla.fill(0);
                self.hra.fill(0);
            }
            1 => {
                self.hla.copy_from_slice(&self.prev_hla);
                self.hra.copy_from_slice(&self.prev_hra);
            }
            _ => {
                // the last child is v - 1, whose rows are prev_*
                // invariant: in postorder the first child of v (two or more children) came
                // before v and filled open[v] (its rows have B's length)
                let (accl, accs) = std::mem::take(&mut self.open[v]);
                let (hla, hra) = (&mut self.hla[..], &mut self.hra[..]);
                let (prev_c, prev_hra) = (&self.prev_c[..], &self.prev_hra[..]);
                for w in 0..hla.len() {
                    hla[w] = accl[w].saturating_add(prev_c[w]);
                    hra[w] = prev_hra[w].saturating_add(accs[w]);
                }
                self.pool.push(accl);
                self.pool.push(accs);
            }
        }
    }

    /// The cheapest choice for v against every node w of B, into `row` (and its cost
    /// into `crow`); the highest of those costs.
    fn choose(&mut self, a: &Shape, b: &Shape, v: usize, row: &mut [u8]) -> u64 {
        let (sv, lka, rka) = (u64::from(a.size[v]), a.keysum[LEFT][v], a.keysum[RIGHT][v]);
        let (bfirst, blast) = (&self.bfirst[..], &self.blast[..]);
        let (crow, csum) = (&mut self.crow[..], &mut self.csum[..]);
        let (hlb, hrb) = (&mut self.hlb[..], &mut self.hrb[..]);
        let (hla, hra) = (&self.hla[..], &self.hra[..]);
        csum.fill(0);
        let mut over = 0;
        for w in 0..b.n {
            let (f, la) = (bfirst[w], blast[w]);
            let (l, r) = if f == u32::MAX {
                (0, 0)
            } else {
                let sum = csum[w];
                (
                    hlb[f as usize].saturating_add(sum - crow[f as usize].min(sum)),
                    hrb[la as usize].saturating_add(sum - crow[la as usize].min(sum)),
                )
            };
            hlb[w] = l;
            hrb[w] = r;
            let sw = u64::from(b.size[w]);
            let (best, c) = cheapest([
                sv.saturating_mul(b.keysum[LEFT][w]).saturating_add(hla[w]),
                sv.saturating_mul(b.keysum[RIGHT][w]).saturating_add(hra[w]),
                sw.saturating_mul(lka).saturating_add(l),
                sw.saturating_mul(rka).saturating_add(r),
            ]);
            crow[w] = c;
            row[w] = best;
            over = over.max(c);
            let p = b.parent[w];
            if p != u32::MAX {
                csum[p as usize] = csum[p as usize].saturating_add(c);
            }
        }
        over
    }

    /// Hand v's rows on: to its parent in A when that has two or more children (the
    /// first child opens the parent's sums, a middle one adds to them), and to the next
    /// node as the previous rows.
    fn leave(&mut self, a: &Shape, v: usize) {
        let p = a.parent[v];
        if p != u32::MAX {
            let kp = a.kids(p as usize);
            if kp.len() >= 2 {
                if kp[0] as usize == v {
                    let m = self.crow.len();
                    let mut accl = self.pool.pop().unwrap_or_else(|| vec![0; m]);
                    let mut accs = self.pool.pop().unwrap_or_else(|| vec![0; m]);
                    accl.copy_from_slice(&self.hla);
                    accs.copy_from_slice(&self.crow);
                    self.open[p as usize] = (accl, accs);
                } else if kp.last().map(|&l| l as usize) != Some(v) {
                    // invariant: kp has two or more children (checked above), and its first
                    // child, earlier in postorder than v, filled open[p] (its rows have B's
                    // length)
                    let (accl, accs) = &mut self.open[p as usize];
                    let crow = &self.crow[..];
                    for w in 0..crow.len() {
                        accl[w] = accl[w].saturating_add(crow[w]);
                        accs[w] = accs[w].saturating_add(crow[w]);
                    }
                }
            }
        }
        std::mem::swap(&mut self.prev_c, &mut self.crow);
        std::mem::swap(&mut self.prev_hla, &mut self.hla);
        std::mem::swap(&mut self.prev_hra, &mut self.hra);
    }
}

/// The tables of one pair of trees.
pub(super) struct Gted<'a, R: Relabel> {
    a: &'a Tree,
    b: &'a Tree,
    r: &'a R,
    sa: &'a Shape,
    sb: &'a Shape,
    strat: &'a [u8],
    del: Vec<u32>,
    ins: Vec<u32>,
    /// Distance of every pair of subtrees, canonical ids, `td[v * m + w]`.
    td: Vec<u32>,
    fd: Vec<u32>,
    /// Forest-table cells computed so far.
    pub(super) cells: u64,
}

impl<'a, R: Relabel> Gted<'a, R> {
    /// The tables of `a` and `b` under the costs `r`, for the shapes and strategy of
    /// `plan`.
    pub(super) fn new(a: &'a Tree, b: &'a Tree, r: &'a R, plan: &'a Plan) -> Self {
        Gted {
            a,
            b,
            r,
            sa: &plan.sa,
            sb: &plan.sb,
            strat: &plan.strat,
            del: a.labels.iter().map(|&l| r.indel(l)).collect(),
            ins: b.labels.iter().map(|&l| r.indel(l)).collect(),
            td: vec![u32::MAX; a.len() * b.len()],
            fd: Vec::new(),
            cells: 0,
        }
    }

    /// The distance of the two roots (after [`Gted::run`]).
    pub(super) fn root_distance(&self) -> u32 {
        self.td[self.td.len() - 1]
    }

    /// Zhang–Shasha's forest table in decomposition `o` of the subtrees `i` of A and `j`
    /// of B (indices in that decomposition's postorder) into `fd`; the distances of the
    /// pairs of subtrees on both leftmost paths go to `td`. Row x, column y: the prefix
    /// forests ending with the (x−1)-th node of T_i and the (y−1)-th of T_j.
    fn forest(&mut self, o: usize, i: usize, j: usize) {
        let m = self.b.len();
        let (la, lb) = (&self.sa.lml[o], &self.sb.lml[o]);
        let (oa, ob) = (&self.sa.ord[o], &self.sb.ord[o]);
        let (li, lj) = (la[i] as usize, lb[j] as usize);
        let (rows, cols) = (i - li + 2, j - lj + 2);
        self.cells += ((rows - 1) * (cols - 1)) as u64;
        let fd = &mut self.fd;
        fd.clear();
        // exactly: amortized growth could double the largest table
        fd.reserve_exact(rows * cols);
        fd.resize(rows * cols, 0);
        for x in 1..rows {
            fd[x * cols] = fd[(x - 1) * cols] + self.del[oa[li + x - 1] as usize];
        }
        for y in 1..cols {
            fd[y] = fd[y - 1] + self.ins[ob[lj + y - 1] as usize];
        }
        let (bl, bo) = (&lb[lj..=j], &ob[lj..=j]);
        let (ins, blabels) = (&self.ins, &self.b.labels);
        for x in 1..rows {
            let xi = li + x - 1;
            let lx = la[xi] as usize;
            let cx = oa[xi] as usize;
            let (dx, labx) = (self.del[cx], self.a.labels[cx]);
            let tdrow = &mut self.td[cx * m..(cx + 1) * m];
            let (before, cur) = fd.split_at_mut(x * cols);
            let cur = &mut cur[..cols];
            let up = &before[(x - 1) * cols..];
            // the row of the prefix forest left of T_xi (row 0 on the leftmost path)
            let jump = &before[(lx - li) * cols..(lx - li + 1) * cols];
            if lx == li {
                for y in 1..cols {
                    let (cy, ly) = (bo[y - 1] as usize, bl[y - 1] as usize);
                    let d = (up[y] + dx).min(cur[y - 1] + ins[cy]);
                    cur[y] = if ly == lj {
                        let v = d.min(up[y - 1] + self.r.cost(labx, blabels[cy]));
                        tdrow[cy] = v;
                        v
                    } else {
                        debug_assert_ne!(tdrow[cy], u32::MAX, "pair not computed yet");
                        d.min(jump[ly - lj] + tdrow[cy])
                    };
                }
            } else {
                for y in 1..cols {
                    let (cy, ly) = (bo[y - 1] as usize, bl[y - 1] as usize);
                    debug_assert_ne!(tdrow[cy], u32::MAX, "pair not computed yet");
                    let d = (up[y] + dx).min(cur[y - 1] + ins[cy]);
                    cur[y] = d.min(jump[ly - lj] + tdrow[cy]);
                }
            }
        }
    }

    /// Fill `td` for every pair of subtrees, following the strategy.
    pub(super) fn run(&mut self) {
        let (sa, sb) = (self.sa, self.sb);
        let m = sb.n;
        let mut stack: Vec<(u32, u32, bool)> = vec![(sa.n as u32 - 1, m as u32 - 1, false)];
        let mut hang = Vec::new();
        while let Some((v, w, ready)) = stack.pop() {
            let (v, w) = (v as usize, w as usize);
            let s = self.strat[v * m + w];
            let o = usize::from(s & 1);
            if !ready {
                stack.push((v as u32, w as u32, true));
                hang.clear();
                if s == LEFT_A || s == RIGHT_A {
                    sa.hanging(v, o, &mut hang);
                    stack.extend(hang.iter().map(|&h| (h, w as u32, false)));
                } else {
                    sb.hanging(w, o, &mut hang);
                    stack.extend(hang.iter().map(|&h| (v as u32, h, false)));
                }
                continue;
            }
            let (i, j) = (sa.pos[o][v] as usize, sb.pos[o][w] as usize);
            if s == LEFT_A || s == RIGHT_A {
                // the path's subtree of A against every key root of B_w
                for k in keyroots(sb, o, j) {
                    self.forest(o, i, k);
                }
            } else {
                for k in keyroots(sa, o, i) {
                    self.forest(o, k, j);
                }
            }
        }
    }

    /// The edit script of the two roots, backtracking each pair of subtrees left to
    /// right, or with `by_strategy` in the direction of its strategy; `None` when that
    /// would take more than `budget` forest-table cells.
    pub(super) fn script(&mut self, budget: u64, by_strategy: bool) -> Option<Vec<Edit>> {
        let (sa, sb) = (self.sa, self.sb);
        let m = sb.n;
        let start = self.cells;
        let mut out = Vec::new();
        let mut todo: Vec<(u32, u32)> = vec![(sa.n as u32 - 1, m as u32 - 1)];
        let mut pending: Vec<(u32, u32)> = Vec::new();
        while let Some((cv, cw)) = todo.pop() {
            let o = if by_strategy {
                usize::from(self.strat[cv as usize * m + cw as usize] & 1)
            } else {
                LEFT
            };
            let (i, j) = (
                sa.pos[o][cv as usize] as usize,
                sb.pos[o][cw as usize] as usize,
            );
            let (li, lj) = (sa.lml[o][i] as usize, sb.lml[o][j] as usize);
            let cost = ((i - li + 1) * (j - lj + 1)) as u64;
            if self.cells - start + cost > budget {
                return None;
            }
            self.forest(o, i, j);
            let (la, lb) = (&sa.lml[o], &sb.lml[o]);
            let (oa, ob) = (&sa.ord[o], &sb.ord[o]);
            let cols = j - lj + 2;
            let fd = &self.fd;
            let (mut x, mut y) = (i - li + 1, j - lj + 1);
            pending.clear();
            while x > 0 || y > 0 {
                if x > 0
                    && fd[x * cols + y]
                        == fd[(x - 1) * cols + y] + self.del[oa[li + x - 1] as usize]
                {
                    out.push(Edit::Delete { a: oa[li + x - 1] });
                    x -= 1;
                    continue;
                }
                if y > 0
                    && fd[x * cols + y] == fd[x * cols + y - 1] + self.ins[ob[lj + y - 1] as usize]
                {
                    out.push(Edit::Insert { b: ob[lj + y - 1] });
                    y -= 1;
                    continue;
                }
                let (xi, yj) = (li + x - 1, lj + y - 1);
                let (lx, ly) = (la[xi] as usize, lb[yj] as usize);
                let (ca, cb) = (oa[xi], ob[yj]);
                if lx == li && ly == lj {
                    let cost = self
                        .r
                        .cost(self.a.labels[ca as usize], self.b.labels[cb as usize]);
                    out.push(Edit::Map { a: ca, b: cb, cost });
                    x -= 1;
                    y -= 1;
                } else {
                    // the pair of subtrees xi, yj, then the forests left of them
                    pending.push((ca, cb));
                    x = lx - li;
                    y = ly - lj;
                }
            }
            // depth first, in the order found
            todo.extend(pending.iter().rev());
        }
        Some(out)
    }
}

/// The key roots of the subtree `j` (index in decomposition `o`), `j` included, in that
/// decomposition's order.
#[inline]
fn keyroots(s: &Shape, o: usize, j: usize) -> impl Iterator<Item = usize> + '_ {
    let lj = s.lml[o][j] as usize;
    (lj..=j).filter(move |&k| k == j || is_keyroot(s, o, k))
}

/// Whether node `k` (index in decomposition `o`) is a key root there: it has a sibling
/// before it (in that decomposition's order).
fn is_keyroot(s: &Shape, o: usize, k: usize) -> bool {
    let c = s.ord[o][k] as usize;
    let p = s.parent[c];
    if p == u32::MAX {
        return false;
    }
    let kp = s.kids(p as usize);
    let f = if o == LEFT { kp[0] } else { kp[kp.len() - 1] };
    f as usize != c
}
