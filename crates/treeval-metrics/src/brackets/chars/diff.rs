//! A character diff of two texts for `--align chars`: the characters both texts share,
//! in order, and the mismatch windows between them.
//!
//! The diff is a minimal edit script (the fewest characters deleted from the gold text
//! and inserted from the system text), found as follows:
//! - the common prefix and suffix are shared;
//! - in a stretch of more than [`EXACT`] characters (both texts together), runs of
//!   [`ANCHOR`] characters that occur once in each text's stretch are anchors: the
//!   longest chain of anchors in the same order in both texts is shared (patience
//!   diff's anchors, on character runs), and the stretches between them are diffed the
//!   same way (their anchors: runs unique within them);
//! - what is left is diffed exactly with Myers' O(ND) algorithm (linear space, middle
//!   snake). Past [`BUDGET`] steps of it over the whole diff (texts that differ almost
//!   everywhere), each stretch left is one window.
//!
//! Several minimal scripts can differ in where a deletion or insertion stands (`thethe`
//! against `the`: either `the`), or spread it over several windows with letters of the
//! text around it shared in between. Each window with characters of one text only is
//! slid over equal characters as far as they allow, and joined with each window of the
//! same text's characters it reaches; then it is placed, among the positions it can
//! slide to, where it best follows the texts' breaks: tree boundaries, then word
//! boundaries ([`Break`]); ties: the leftmost. The script stays minimal. So a dropped or
//! added sentence is one window over that sentence, whatever text is around it. Windows
//! that touch are one window. On equal texts there is no window and every character is
//! shared.
//!
//! `ud --align resync` does a nearest-anchor resynchronisation over CoNLL-U token
//! streams instead (it reads files as streams, with widening to token boundaries).

use std::ops::Range;

/// The length of the character runs used as anchors.
pub const ANCHOR: usize = 16;
/// Stretches up to this many characters (both texts together) are diffed exactly,
/// without anchors.
pub const EXACT: usize = 4096;
/// The most steps of Myers' algorithm (diagonals tried and characters compared) over
/// one diff.
pub const BUDGET: u64 = 1 << 26;

/// No counterpart.
pub const NONE: u32 = u32::MAX;

/// What stands at a text offset, for placing windows: how good a place it is for a
/// window to begin or end.
pub type Break = u8;
/// Inside a word.
pub const IN_WORD: Break = 0;
/// Between two words of a tree.
pub const WORD: Break = 1;
/// Between two trees (or at a text's start or end).
pub const TREE: Break = 2;

/// A stretch where the texts differ: gold characters and system characters (either may
/// be empty, not both).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// Gold character offsets.
    pub gold: Range<u32>,
    /// System character offsets.
    pub system: Range<u32>,
}

/// The diff of a gold text and a system text.
#[derive(Debug, Clone, Default)]
pub struct CharDiff {
    /// Per system character: the gold character it is (`NONE` inside a window).
    pub to_gold: Vec<u32>,
    /// Per system offset `0..=len`: the gold offset it stands at (a shared character's
    /// gold offset; inside a window, the window's gold start; at the end, the gold
    /// text's length).
    pub at_gold: Vec<u32>,
    /// Per gold offset `0..=len`: how many gold characters before it are shared.
    pub shared_before: Vec<u32>,
    /// The mismatch windows, in order.
    pub windows: Vec<Window>,
}

impl CharDiff {
    /// Whether gold characters `range` hold a shared character.
    pub fn any_shared(&self, range: Range<u32>) -> bool {
        self.shared_before[range.end as usize] > self.shared_before[range.start as usize]
    }

    /// Whether gold character `x` is shared.
    pub fn gold_shared(&self, x: u32) -> bool {
        self.any_shared(x..x + 1)
    }
}

/// One text to diff: its characters and, per offset `0..=len`, its [`Break`] (an empty
/// slice: no breaks known).
#[derive(Debug, Clone, Copy)]
pub struct Text<'a> {
    /// The characters.
    pub chars: &'a [char],
    /// Per offset `0..=len`, what stands there (or empty).
    pub breaks: &'a [Break],
}

impl Text<'_> {
    fn at(&self, x: usize) -> Break {
        self.breaks.get(x).copied().unwrap_or(IN_WORD)
    }
}

/// The diff of gold text `a` and system text `b`.
pub fn diff(a: Text<'_>, b: Text<'_>) -> CharDiff {
    let mut d = Differ {
        a: a.chars,
        b: b.chars,
        out: Vec::new(),
        budget: BUDGET,
        vf: Vec::new(),
        vb: Vec::new(),
    };
    d.align(0..a.chars.len(), 0..b.chars.len());
    let windows = place(a, b, merge(d.out));
    build(a.chars.len(), b.chars.len(), windows)
}

/// The diff of `a` and `b` without breaks (tests and callers without words).
pub fn diff_chars(a: &[char], b: &[char]) -> CharDiff {
    let text = |chars| Text { chars, breaks: &[] };
    diff(text(a), text(b))
}

/// The shared characters and lookups of `windows` (in order, not touching).
fn build(n: usize, m: usize, windows: Vec<Window>) -> CharDiff {
    let mut to_gold = vec![NONE; m];
    let mut at_gold = vec![0u32; m + 1];
    let mut shared = vec![true; n];
    let (mut i, mut j) = (0usize, 0usize);
    let ends = (windows.iter().map(|w| (w.gold.clone(), w.system.clone())))
        .chain(std::iter::once((n as u32..n as u32, m as u32..m as u32)));
    for (g, s) in ends {
        while j < s.start as usize {
            to_gold[j] = i as u32;
            at_gold[j] = i as u32;
            i += 1;
            j += 1;
        }
        for x in &mut shared[g.start as usize..g.end as usize] {
            *x = false;
        }
        for x in &mut at_gold[s.start as usize..s.end as usize] {
            *x = g.start;
        }
        (i, j) = (g.end as usize, s.end as usize);
    }
    at_gold[m] = n as u32;
    let mut shared_before = Vec::with_capacity(n + 1);
    let mut k = 0u32;
    shared_before.push(0);
    for s in shared {
        k += u32::from(s);
        shared_before.push(k);
    }
    CharDiff {
        to_gold,
        at_gold,
        shared_before,
        windows,
    }
}

/// Windows in order, those that touch joined.
fn merge(mut ws: Vec<Window>) -> Vec<Window> {
    ws.sort_by_key(|w| (w.gold.start, w.system.start));
    let mut out: Vec<Window> = Vec::with_capacity(ws.len());
    for w in ws {
        match out.last_mut() {
            Some(p) if p.gold.end == w.gold.start && p.system.end == w.system.start => {
                p.gold.end = w.gold.end;
                p.system.end = w.system.end;
            }
            _ => out.push(w),
        }
    }
    out
}

/// Each window of one text's characters only, slid to where it best follows the breaks
/// (the minimal script stays minimal: it slides over equal characters), after joining
/// the windows of the same text's characters it can slide onto.
fn place(a: Text<'_>, b: Text<'_>, mut ws: Vec<Window>) -> Vec<Window> {
    let mut k = 0;
    while k < ws.len() {
        let gold = ws[k].system.is_empty();
        if gold || ws[k].gold.is_empty() {
            let (x, y) = if gold { (a, b) } else { (b, a) };
            k = compact(x.chars, &mut ws, k, gold);
            let lo = k.checked_sub(1).map_or(0, |p| side(&ws[p], gold).0.end);
            let hi = (ws.get(k + 1)).map_or(x.chars.len() as u32, |w| side(w, gold).0.start);
            let (r, at) = side(&ws[k], gold);
            let (r, at) = slide(x, y, r, at, lo, hi);
            set(&mut ws[k], gold, r, at);
        }
        k += 1;
    }
    merge(ws)
}

/// A window's characters in one text (`gold`: the gold's) and where it stands in the
/// other.
fn side(w: &Window, gold: bool) -> (Range<u32>, u32) {
    match gold {
        true => (w.gold.clone(), w.system.start),
        false => (w.system.clone(), w.gold.start),
    }
}

/// Set what [`side`] reads.
fn set(w: &mut Window, gold: bool, r: Range<u32>, at: u32) {
    match gold {
        true => (w.gold, w.system) = (r, at..at),
        false => (w.system, w.gold) = (r, at..at),
    }
}

/// Slide window `k` of text `x`'s characters only (`gold`: the gold's) left, then right,
/// as far as equal characters allow, joining each window of `x`'s characters only it
/// reaches; the index of the window it ends in.
fn compact(x: &[char], ws: &mut Vec<Window>, mut k: usize, gold: bool) -> usize {
    let pure = |w: &Window| side(w, !gold).0.is_empty();
    loop {
        let (r, at) = side(&ws[k], gold);
        let lo = k.checked_sub(1).map_or(0, |p| side(&ws[p], gold).0.end);
        let mut t = 0;
        while r.start - t > lo && x[(r.start - t - 1) as usize] == x[(r.end - t - 1) as usize] {
            t += 1;
        }
        set(&mut ws[k], gold, r.start - t..r.end - t, at - t);
        if t > 0 && r.start - t == lo && k > 0 && pure(&ws[k - 1]) {
            let (p, pat) = side(&ws[k - 1], gold);
            set(&mut ws[k - 1], gold, p.start..r.end - t, pat);
            ws.remove(k);
            k -= 1;
            continue;
        }
        let (r, at) = side(&ws[k], gold);
        let hi = (ws.get(k + 1)).map_or(x.len() as u32, |w| side(w, gold).0.start);
        let mut t = 0;
        while r.end + t < hi && x[(r.start + t) as usize] == x[(r.end + t) as usize] {
            t += 1;
        }
        set(&mut ws[k], gold, r.start + t..r.end + t, at + t);
        if t > 0 && r.end + t == hi && k + 1 < ws.len() && pure(&ws[k + 1]) {
            let (n, _) = side(&ws[k + 1], gold);
            set(&mut ws[k], gold, r.start + t..n.end, at + t);
            ws.remove(k + 1);
            continue;
        }
        return k;
    }
}

/// Window `r` of text `x` only, standing at `at` in text `y`, between equal stretches
/// from `lo` to `hi` (offsets in `x`, `y`): its best place, and where it stands in `y`.
fn slide(x: Text<'_>, y: Text<'_>, r: Range<u32>, at: u32, lo: u32, hi: u32) -> (Range<u32>, u32) {
    let c = x.chars;
    let (s, e) = (r.start as usize, r.end as usize);
    let mut left = 0;
    while s > left + lo as usize && c[s - left - 1] == c[e - left - 1] {
        left += 1;
    }
    let mut right = 0;
    while e + right < hi as usize && c[s + right] == c[e + right] {
        right += 1;
    }
    let score = |t: isize| {
        let (s, e) = ((s as isize + t) as usize, (e as isize + t) as usize);
        u32::from(x.at(s)) + u32::from(x.at(e)) + u32::from(y.at((at as isize + t) as usize))
    };
    let mut best = -(left as isize);
    for t in -(left as isize)..=right as isize {
        if score(t) > score(best) {
            best = t;
        }
    }
    let shift = |v: u32| (v as isize + best) as u32;
    (shift(r.start)..shift(r.end), shift(at))
}

/// The diff's state: the texts, the windows found, the steps left.
struct Differ<'a> {
    a: &'a [char],
    b: &'a [char],
    out: Vec<Window>,
    budget: u64,
    vf: Vec<usize>,
    vb: Vec<usize>,
}

impl Differ<'_> {
    /// Diff `a[ra]` against `b[rb]`.
    fn align(&mut self, mut ra: Range<usize>, mut rb: Range<usize>) {
        let (a, b) = (self.a, self.b);
        while !ra.is_empty() && !rb.is_empty() && a[ra.start] == b[rb.start] {
            ra.start += 1;
            rb.start += 1;
        }
        while !ra.is_empty() && !rb.is_empty() && a[ra.end - 1] == b[rb.end - 1] {
            ra.end -= 1;
            rb.end -= 1;
        }
        if ra.is_empty() || rb.is_empty() {
            self.window(ra, rb);
            return;
        }
        if ra.len() + rb.len() > EXACT {
            let runs = anchors(&a[ra.clone()], &b[rb.clone()]);
            if !runs.is_empty() {
                let (mut i, mut j) = (ra.start, rb.start);
                for (x, y) in runs {
                    let (x, y) = (ra.start + x, rb.start + y);
                    self.align(i..x, j..y);
                    (i, j) = (x + ANCHOR, y + ANCHOR);
                }
                self.align(i..ra.end, j..rb.end);
                return;
            }
        }
        self.myers(ra, rb);
    }

    /// A window (nothing when both ranges are empty).
    fn window(&mut self, ra: Range<usize>, rb: Range<usize>) {
        if !ra.is_empty() || !rb.is_empty() {
            self.out.push(Window {
                gold: ra.start as u32..ra.end as u32,
                system: rb.start as u32..rb.end as u32,
            });
        }
    }

    /// Myers' divide and conquer over `a[ra]`, `b[rb]` (prefix and suffix differ).
    fn myers(&mut self, ra: Range<usize>, rb: Range<usize>) {
        match self.middle_snake(ra.clone(), rb.clone()) {
            // a snake inside the stretch that leaves two smaller parts
            Some((x, y, u, v))
                if ra.start <= x
                    && x <= u
                    && u <= ra.end
                    && rb.start <= y
                    && y <= v
                    && v <= rb.end
                    && (x, y) != (ra.end, rb.end)
                    && (u, v) != (ra.start, rb.start) =>
            {
                self.align(ra.start..x, rb.start..y);
                self.align(u..ra.end, v..rb.end);
            }
            found => {
                if found.is_none() {
                    self.budget = 0;
                }
                self.window(ra, rb);
            }
        }
    }

    /// The middle snake of an optimal path over `a[ra]`, `b[rb]`: from `(x, y)` to
    /// `(u, v)` in text offsets; `None` when the budget runs out.
    fn middle_snake(
        &mut self,
        ra: Range<usize>,
        rb: Range<usize>,
    ) -> Option<(usize, usize, usize, usize)> {
        let (a, b) = (&self.a[ra.clone()], &self.b[rb.clone()]);
        let (n, m) = (a.len() as isize, b.len() as isize);
        let delta = n - m;
        let odd = delta & 1 != 0;
        let max = ((n + m + 1) / 2 + 1) as usize;
        let off = max as isize + 1;
        self.vf.clear();
        self.vf.resize(2 * max + 3, 0);
        self.vb.clear();
        self.vb.resize(2 * max + 3, 0);
        let (vf, vb) = (&mut self.vf, &mut self.vb);
        let at = |k: isize| (k + off) as usize;
        for d in 0..max as isize {
            let cost = 2 * (d as u64 + 1);
            self.budget = self.budget.checked_sub(cost)?;
            for k in (-d..=d).step_by(2) {
                let (x0, x) = step(vf, at, k, d, |x, y| a[x] == b[y], n, m, &mut self.budget)?;
                let back = delta - k;
                if odd && back.abs() < d && x + vb[at(back)] as isize >= n {
                    let (s, e) = ((x0, x0 - k), (x, x - k));
                    return Some(snake(&ra, &rb, s, e));
                }
            }
            for k in (-d..=d).step_by(2) {
                let eq = |x: usize, y: usize| a[n as usize - x - 1] == b[m as usize - y - 1];
                let (x0, x) = step(vb, at, k, d, eq, n, m, &mut self.budget)?;
                let fwd = delta - k;
                if !odd && fwd.abs() <= d && x + vf[at(fwd)] as isize >= n {
                    let (s, e) = ((n - x, m - (x - k)), (n - x0, m - (x0 - k)));
                    return Some(snake(&ra, &rb, s, e));
                }
            }
        }
        // invariant: the forward and backward searches meet by d = ceil((n + m) / 2), since
        // no path needs more than n + m edits; running out of budget returns None above
        unreachable!("an optimal path has at most n + m edits")
    }
}

/// One diagonal `k` of round `d` of Myers' search in `v` (forward or, with `eq` over
/// reversed texts, backward): the furthest `x` before and after its snake; `None` when
/// the budget runs out.
#[allow(clippy::too_many_arguments)]
fn step(
    v: &mut [usize],
    at: impl Fn(isize) -> usize,
    k: isize,
    d: isize,
    eq: impl Fn(usize, usize) -> bool,
    n: isize,
    m: isize,
    budget: &mut u64,
) -> Option<(isize, isize)> {
    let mut x = if k == -d || (k != d && v[at(k - 1)] < v[at(k + 1)]) {
        v[at(k + 1)] as isize
    } else {
        v[at(k - 1)] as isize + 1
    };
    let x0 = x;
    while x < n && x - k < m && x - k >= 0 && eq(x as usize, (x - k) as usize) {
        x += 1;
    }
    *budget = budget.checked_sub((x - x0) as u64)?;
    v[at(k)] = x as usize;
    Some((x0, x))
}

/// A snake from `s` to `e` (offsets in the stretches) in text offsets.
fn snake(
    ra: &Range<usize>,
    rb: &Range<usize>,
    s: (isize, isize),
    e: (isize, isize),
) -> (usize, usize, usize, usize) {
    let (x, y) = (ra.start + s.0 as usize, rb.start + s.1 as usize);
    (x, y, ra.start + e.0 as usize, rb.start + e.1 as usize)
}

/// Anchors of `a` and `b`: offsets `(x, y)` where [`ANCHOR`] equal characters start that
/// occur once in each, the longest chain in the same order in both, not overlapping.
fn anchors(a: &[char], b: &[char]) -> Vec<(usize, usize)> {
    if a.len() < ANCHOR || b.len() < ANCHOR {
        return Vec::new();
    }
    // per run hash: (count in a, offset in a, count in b, offset in b)
    let mut seen: rustc_hash::FxHashMap<u64, (u32, u32, u32, u32)> = Default::default();
    for (x, h) in hashes(a).enumerate() {
        let e = seen.entry(h).or_insert((0, x as u32, 0, 0));
        e.0 += 1;
    }
    for (y, h) in hashes(b).enumerate() {
        if let Some(e) = seen.get_mut(&h) {
            e.2 += 1;
            e.3 = y as u32;
        }
    }
    let pairs: Vec<(usize, usize)> = (hashes(a).enumerate())
        .filter_map(|(x, h)| {
            let &(ca, _, cb, y) = seen.get(&h)?;
            let y = y as usize;
            (ca == 1 && cb == 1 && a[x..x + ANCHOR] == b[y..y + ANCHOR]).then_some((x, y))
        })
        .collect();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (x, y) in longest_chain(&pairs) {
        let free = out
            .last()
            .map_or(true, |&(px, py)| x >= px + ANCHOR && y >= py + ANCHOR);
        if free {
            out.push((x, y));
        }
    }
    out
}

/// The hash of each run of [`ANCHOR`] characters of `s`, by its start.
fn hashes(s: &[char]) -> impl Iterator<Item = u64> + '_ {
    const P: u64 = 0x100_0000_01b3;
    let pow = (0..ANCHOR).fold(1u64, |p, _| p.wrapping_mul(P));
    let mut h = 0u64;
    (0..s.len()).filter_map(move |i| {
        h = h.wrapping_mul(P).wrapping_add(u64::from(s[i]) + 1);
        if i >= ANCHOR {
            h = h.wrapping_sub(pow.wrapping_mul(u64::from(s[i - ANCHOR]) + 1));
        }
        (i + 1 >= ANCHOR).then_some(h)
    })
}

/// The longest chain of `pairs` (in order of `x`) with `y` increasing (patience sorting;
/// ties: the earliest).
fn longest_chain(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // tails[l]: the pair ending the best chain of length l + 1 found so far
    let mut tails: Vec<usize> = Vec::new();
    let mut prev = vec![usize::MAX; pairs.len()];
    for (k, &(_, y)) in pairs.iter().enumerate() {
        let l = tails.partition_point(|&t| pairs[t].1 < y);
        if l > 0 {
            prev[k] = tails[l - 1];
        }
        if l == tails.len() {
            tails.push(k);
        } else {
            tails[l] = k;
        }
    }
    let mut chain = Vec::with_capacity(tails.len());
    let mut k = tails.last().copied().unwrap_or(usize::MAX);
    while k != usize::MAX {
        chain.push(pairs[k]);
        k = prev[k];
    }
    chain.reverse();
    chain
}

#[cfg(test)]
mod tests;
