//! A character diff of two texts for `--align chars`: the characters both texts share,
//! in order, and the mismatch windows between them.
//!
//! The texts are walked together while their characters are equal. At the first
//! difference the nearest *anchor* is searched for: offsets `(i + a, j + b)` after which
//! [`ANCHOR`] characters are equal (or both texts end equal), nearest meaning the fewest
//! skipped characters `a + b` (ties: fewer gold characters skipped first). The skipped
//! characters form a mismatch window; the walk goes on from the anchor. Past
//! [`MAX_SKIP`] skipped characters the search gives up and the rest of both texts is one
//! window. On equal texts there is no window and every character is shared.
//!
//! `ud --align resync` does the same over CoNLL-U token streams (with widening to token
//! boundaries, which brackets do not need: a bracket is measured by its end characters).

use std::ops::Range;

/// Equal characters that mark the texts as synchronised again.
pub const ANCHOR: usize = 12;
/// The most characters (both texts together) one window may skip before the search
/// gives up and the rest of both texts is one window.
pub const MAX_SKIP: usize = 1 << 13;

/// No counterpart.
pub const NONE: u32 = u32::MAX;

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

/// Whether an anchor stands at `(i, j)`.
fn anchor(a: &[char], b: &[char], i: usize, j: usize) -> bool {
    let k = ANCHOR.min(a.len() - i).min(b.len() - j);
    a[i..i + k] == b[j..j + k] && (k == ANCHOR || (i + k == a.len() && j + k == b.len()))
}

/// The nearest anchor after a difference at `(i, j)`: the characters skipped in each
/// text, or `None` within [`MAX_SKIP`].
fn nearest_anchor(a: &[char], b: &[char], i: usize, j: usize) -> Option<(usize, usize)> {
    let (n, m) = (a.len() - i, b.len() - j);
    for d in 1..=MAX_SKIP.min(n + m) {
        // fewer gold characters skipped first
        for da in 0..=d.min(n) {
            let db = d - da;
            if db <= m && anchor(a, b, i + da, j + db) {
                return Some((da, db));
            }
        }
    }
    None
}

/// The diff of gold text `a` and system text `b`.
pub fn diff(a: &[char], b: &[char]) -> CharDiff {
    let mut to_gold = vec![NONE; b.len()];
    let mut at_gold = vec![0u32; b.len() + 1];
    let mut shared = vec![false; a.len()];
    let mut windows = Vec::new();
    let (mut i, mut j) = (0, 0);
    loop {
        while i < a.len() && j < b.len() && a[i] == b[j] {
            to_gold[j] = i as u32;
            at_gold[j] = i as u32;
            shared[i] = true;
            i += 1;
            j += 1;
        }
        if i == a.len() && j == b.len() {
            break;
        }
        let (da, db) = nearest_anchor(a, b, i, j).unwrap_or((a.len() - i, b.len() - j));
        for x in &mut at_gold[j..j + db] {
            *x = i as u32;
        }
        windows.push(Window {
            gold: i as u32..(i + da) as u32,
            system: j as u32..(j + db) as u32,
        });
        i += da;
        j += db;
    }
    at_gold[b.len()] = a.len() as u32;
    let mut shared_before = Vec::with_capacity(a.len() + 1);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn run(a: &str, b: &str) -> (Vec<(String, String)>, CharDiff) {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let d = diff(&a, &b);
        let shown = (d.windows.iter())
            .map(|w| {
                let g = &a[w.gold.start as usize..w.gold.end as usize];
                let s = &b[w.system.start as usize..w.system.end as usize];
                (g.iter().collect(), s.iter().collect())
            })
            .collect();
        (shown, d)
    }

    #[test]
    fn equal_texts_share_every_character() {
        let (w, d) = run("thecatsat", "thecatsat");
        assert!(w.is_empty());
        assert_eq!(d.to_gold, (0..9).collect::<Vec<u32>>());
        assert!(d.any_shared(0..9));
    }

    #[test]
    fn a_dropped_word_a_changed_word_and_an_extra_tail_are_windows() {
        let g = "Pierrevinken,61yearsold,willjoinstheboardasanonexecutivedirector.";
        let s = "Pierrevinken,61yearsold,willjoinboardasanonexecutivedirectorNov.29";
        let (w, d) = run(g, s);
        assert_eq!(
            w,
            [
                ("sthe".to_owned(), String::new()),
                (".".to_owned(), "Nov.29".to_owned())
            ]
        );
        // the system's `b` of `board` is the gold's
        let b = s.find("board").unwrap();
        assert_eq!(d.to_gold[b], g.find("board").unwrap() as u32);
        assert!(!d.gold_shared(g.find("sthe").unwrap() as u32));
        assert_eq!(d.at_gold[s.len()], g.len() as u32);
    }

    #[test]
    fn texts_with_nothing_in_common_are_one_window() {
        let (w, _) = run("abc", "xyz");
        assert_eq!(w, [("abc".to_owned(), "xyz".to_owned())]);
        let (w, d) = run("", "xyz");
        assert_eq!(w, [(String::new(), "xyz".to_owned())]);
        assert_eq!(d.at_gold, [0, 0, 0, 0]);
    }
}
