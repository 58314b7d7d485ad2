//! Where the words of a test tree stand on its gold tree's words, for the words without a
//! POS tag (an untagged tree): by a word diff over every word read, the gold's deleted
//! words too. The gold tree of a treebank has words the parser never writes (`-NONE-`
//! traces), so a test word's position among all words is not its gold word's.

use treeval_formats::bracket::BracketTree;

/// Per test leaf of `test`: the gold leaf of `gold` it stands on, or `None`.
///
/// The pairs are a longest common subsequence of equal words (`eq`); among those, the
/// one that pairs the most words with gold words that are kept (`deleted` says which are
/// not), so that a system `0` stands on the gold's `(CD 0)` rather than on a `(-NONE- 0)`
/// before it; among those, the first in gold order.
pub fn place(
    gold: &BracketTree,
    test: &BracketTree,
    deleted: &[bool],
    eq: &dyn Fn(&str, &str) -> bool,
) -> Vec<Option<usize>> {
    let (n, m) = (gold.leaves.len(), test.leaves.len());
    // score[i][j]: the best over gold words from i and test words from j, each pair
    // worth (n + 1) and one more when its gold word is kept
    let w = m + 1;
    let mut score = vec![0u64; (n + 1) * w];
    let pair_value = |i: usize| n as u64 + 1 + u64::from(!deleted.get(i).copied().unwrap_or(false));
    let same = |i: usize, j: usize| eq(gold.s(gold.leaves[i].word), test.s(test.leaves[j].word));
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let skip = score[(i + 1) * w + j].max(score[i * w + j + 1]);
            let pair = if same(i, j) {
                score[(i + 1) * w + j + 1] + pair_value(i)
            } else {
                0
            };
            score[i * w + j] = skip.max(pair);
        }
    }
    let mut out = vec![None; m];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        let here = score[i * w + j];
        if same(i, j) && here == score[(i + 1) * w + j + 1] + pair_value(i) {
            out[j] = Some(i);
            i += 1;
            j += 1;
        } else if here == score[(i + 1) * w + j] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brackets::tests::tree;

    /// The pairs by brute force: every increasing matching of equal words, the best by
    /// (pairs, pairs on kept gold words), the first found of those (gold order).
    fn oracle(g: &[&str], t: &[&str], deleted: &[bool]) -> (usize, usize) {
        fn go(
            g: &[&str],
            t: &[&str],
            del: &[bool],
            i: usize,
            j: usize,
            best: &mut (usize, usize),
            cur: (usize, usize),
        ) {
            if cur > *best {
                *best = cur;
            }
            for a in i..g.len() {
                for b in j..t.len() {
                    if g[a] == t[b] {
                        let next = (cur.0 + 1, cur.1 + usize::from(!del[a]));
                        go(g, t, del, a + 1, b + 1, best, next);
                    }
                }
            }
        }
        let mut best = (0, 0);
        go(g, t, deleted, 0, 0, &mut best, (0, 0));
        best
    }

    fn words(t: &BracketTree) -> Vec<&str> {
        t.leaves.iter().map(|l| t.s(l.word)).collect()
    }

    #[test]
    fn traces_before_a_word_do_not_shift_it() {
        let g = tree("( (S (NP-SBJ (-NONE- *-1)) (NP (DT the) (NN cat)) (VP (VBD sat) (NP (-NONE- *T*-2))) (. .)))");
        let t = tree("(S (NP the cat) (VP sat) .)");
        let del = [true, false, false, false, true, true];
        let p = place(&g, &t, &del, &|a, b| a == b);
        assert_eq!(p, [Some(1), Some(2), Some(3), Some(5)]);
        // a number that a trace before it also writes stands on the kept word
        let g = tree("(S (NP (-NONE- 0)) (VP (VBD cost) (NP (CD 0))))");
        let t = tree("(S (VP cost (NP 0)))");
        let p = place(&g, &t, &[true, false, false], &|a, b| a == b);
        assert_eq!(p, [Some(1), Some(2)]);
        // a word that differs stands on nothing
        let t = tree("(S (VP costs (NP 0)))");
        let p = place(&g, &t, &[true, false, false], &|a, b| a == b);
        assert_eq!(p, [None, Some(2)]);
    }

    proptest::proptest! {
        /// On small random sentences, the pairs are as many as the brute force finds,
        /// with as many on kept gold words, each pair of equal words, in order.
        #[test]
        fn the_pairs_are_the_best_by_brute_force(
            g in proptest::collection::vec((0..4usize, proptest::bool::ANY), 1..7),
            t in proptest::collection::vec(0..4usize, 1..7),
        ) {
            let vocab = ["a", "b", "0", ","];
            let gw: Vec<&str> = g.iter().map(|&(k, _)| vocab[k]).collect();
            let del: Vec<bool> = g.iter().map(|&(_, d)| d).collect();
            let tw: Vec<&str> = t.iter().map(|&k| vocab[k]).collect();
            let leaf = |w: &str, d: bool| format!("({} {w})", if d { "-NONE-" } else { "X" });
            let gt = tree(&format!("(S {})", (gw.iter().zip(&del)).map(|(w, &d)| leaf(w, d)).collect::<Vec<_>>().join(" ")));
            let tt = tree(&format!("(S (S {}))", tw.join(" ")));
            proptest::prop_assert_eq!(words(&gt), gw.clone());
            proptest::prop_assert_eq!(words(&tt), tw.clone());
            let p = place(&gt, &tt, &del, &|a, b| a == b);
            let pairs: Vec<(usize, usize)> = (p.iter().enumerate()).filter_map(|(j, i)| i.map(|i| (i, j))).collect();
            for w in pairs.windows(2) {
                proptest::prop_assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1);
            }
            for &(i, j) in &pairs {
                proptest::prop_assert_eq!(gw[i], tw[j]);
            }
            let kept = pairs.iter().filter(|&&(i, _)| !del[i]).count();
            proptest::prop_assert_eq!((pairs.len(), kept), oracle(&gw, &tw, &del));
        }
    }
}
