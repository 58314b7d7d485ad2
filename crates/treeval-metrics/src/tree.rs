//! Structure of one dependency tree given as a HEAD vector: validity (missing and
//! out-of-range heads, self-loops, cycles, root count), depth of each word, and
//! projectivity of each arc. Linear time except projectivity (per arc, on demand).

/// Depth marker for words that do not reach the root (cycle, missing or bad head).
pub const NO_DEPTH: u32 = u32::MAX;

/// What is wrong with a tree (all zero for a well-formed single-rooted tree).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TreeProblems {
    /// Words whose HEAD is `_`.
    pub missing: u32,
    /// Words whose HEAD is larger than the sentence length.
    pub out_of_range: u32,
    /// Words that are their own head.
    pub self_loops: u32,
    /// Cycles of two or more words.
    pub cycles: u32,
    /// Words attached to the root (HEAD 0).
    pub roots: u32,
    /// First word (1-based) of the first cycle found, 0 if none.
    pub first_cycle_word: u32,
}

impl TreeProblems {
    /// Whether the tree is a well-formed tree with exactly one root.
    pub fn is_valid_single_root(&self) -> bool {
        self.missing == 0
            && self.out_of_range == 0
            && self.self_loops == 0
            && self.cycles == 0
            && self.roots == 1
    }
}

/// Reusable buffers for tree analysis.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    heads: Vec<u32>,
    depth: Vec<u32>,
    stamp: Vec<u32>,
    path: Vec<u32>,
}

/// Head value meaning "no usable head" inside [`Tree`].
const BAD: u32 = u32::MAX;

impl Tree {
    /// Empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Analyse the tree whose word `i` (1-based) has head `heads(i-1)`.
    /// After this, [`Tree::depth`] and [`Tree::is_projective`] answer for this tree.
    pub fn analyze(&mut self, heads: impl ExactSizeIterator<Item = Option<u32>>) -> TreeProblems {
        let n = heads.len();
        let mut p = TreeProblems::default();
        self.heads.clear();
        self.heads.push(BAD); // index 0 = artificial root
        for (i, h) in heads.enumerate() {
            let id = i as u32 + 1;
            let v = match h {
                None => {
                    p.missing += 1;
                    BAD
                }
                Some(h) if h as usize > n => {
                    p.out_of_range += 1;
                    BAD
                }
                Some(h) if h == id => {
                    p.self_loops += 1;
                    BAD
                }
                Some(0) => {
                    p.roots += 1;
                    0
                }
                Some(h) => h,
            };
            self.heads.push(v);
        }
        self.depth.clear();
        self.depth.resize(n + 1, 0);
        self.depth[0] = 0;
        // stamp: 0 = unvisited, k = on the walk started at word k, DONE = depth known;
        // every walk marks its whole path DONE before the next walk starts.
        const DONE: u32 = u32::MAX;
        self.stamp.clear();
        self.stamp.resize(n + 1, 0);
        self.stamp[0] = DONE;
        for start in 1..=n as u32 {
            if self.stamp[start as usize] != 0 {
                continue;
            }
            self.path.clear();
            let mut v = start;
            let base: u32 = loop {
                if v == BAD {
                    break NO_DEPTH;
                }
                let st = self.stamp[v as usize];
                if st == DONE {
                    break self.depth[v as usize];
                }
                if st == start {
                    // a cycle: v is on the current walk
                    p.cycles += 1;
                    if p.first_cycle_word == 0 {
                        p.first_cycle_word = v;
                    }
                    break NO_DEPTH;
                }
                self.stamp[v as usize] = start;
                self.path.push(v);
                v = self.heads[v as usize];
            };
            // assign depths back along the path
            let mut d = base;
            for &w in self.path.iter().rev() {
                d = if d == NO_DEPTH { NO_DEPTH } else { d + 1 };
                self.depth[w as usize] = d;
                self.stamp[w as usize] = DONE;
            }
        }
        p
    }

    /// Depth of word `id` (1-based; children of the root have depth 1), or [`NO_DEPTH`].
    pub fn depth(&self, id: u32) -> u32 {
        self.depth.get(id as usize).copied().unwrap_or(NO_DEPTH)
    }

    /// Number of words of the analysed tree.
    pub fn len(&self) -> usize {
        self.heads.len().saturating_sub(1)
    }

    /// Whether the analysed tree has no words.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the arc into word `d` is projective: every word strictly between `d` and
    /// its head is a descendant of the head. Arcs from the root are projective (the root
    /// is taken to precede the sentence, so every word lies under it once the tree is
    /// well formed). `None` when `d` has no usable head.
    pub fn is_projective(&self, d: u32) -> Option<bool> {
        let h = *self.heads.get(d as usize)?;
        if h == BAD || d == 0 {
            return None;
        }
        if h == 0 {
            return Some(true);
        }
        let (lo, hi) = if h < d { (h, d) } else { (d, h) };
        let n = self.len() as u32;
        for k in lo + 1..hi {
            // walk up from k, at most n steps, looking for h
            let mut v = k;
            let mut steps = 0;
            let mut found = false;
            while v != BAD && v != 0 && steps <= n {
                if v == h {
                    found = true;
                    break;
                }
                v = self.heads[v as usize];
                steps += 1;
            }
            if !found {
                return Some(false);
            }
        }
        Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn an(heads: &[Option<u32>]) -> (Tree, TreeProblems) {
        let mut t = Tree::new();
        let p = t.analyze(heads.iter().copied());
        (t, p)
    }

    #[test]
    fn valid_tree_depths() {
        // The cat sat: 1->2, 2->3, 3->0
        let (t, p) = an(&[Some(2), Some(3), Some(0)]);
        assert!(p.is_valid_single_root());
        assert_eq!((t.depth(1), t.depth(2), t.depth(3)), (3, 2, 1));
    }

    #[test]
    fn problems_are_counted() {
        let (_, p) = an(&[Some(2), Some(1), None, Some(9), Some(5), Some(0), Some(0)]);
        assert_eq!(p.cycles, 1);
        assert_eq!(p.first_cycle_word, 1);
        assert_eq!(p.missing, 1);
        assert_eq!(p.out_of_range, 1);
        assert_eq!(p.self_loops, 1);
        assert_eq!(p.roots, 2);
        assert!(!p.is_valid_single_root());
    }

    #[test]
    fn words_under_a_cycle_have_no_depth() {
        let (t, p) = an(&[Some(2), Some(1), Some(1), Some(0)]);
        assert_eq!(p.cycles, 1);
        assert_eq!(t.depth(3), NO_DEPTH);
        assert_eq!(t.depth(4), 1);
    }

    #[test]
    fn projectivity() {
        // words: 1->3, 2->4, 3->0, 4->3. The arc 4->2 spans word 3, which is not
        // under 4: non-projective. The arc 3->1 spans word 2, which is under 3 (via 4).
        let (t, _) = an(&[Some(3), Some(4), Some(0), Some(3)]);
        assert_eq!(t.is_projective(1), Some(true));
        assert_eq!(t.is_projective(2), Some(false));
        assert_eq!(t.is_projective(3), Some(true));
        assert_eq!(t.is_projective(4), Some(true));
        let (t, _) = an(&[Some(2), Some(0), Some(2)]);
        assert!((1..=3).all(|d| t.is_projective(d) == Some(true)));
        let (t, _) = an(&[None]);
        assert_eq!(t.is_projective(1), None);
    }
}
