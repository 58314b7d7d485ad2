//! The index base of alignment files. With the words of every sentence (`align
//! --tokens`, `pts`' parses): the links past the last word of their sentence, and whether
//! the other base puts every link within its sentence. Without them (`align` alone): what
//! the files themselves show of a hypothesis read one off from the gold (it never uses
//! position 0 where the gold does, or it goes past the gold's last position of a sentence).

use treeval_formats::align::{AlignOptions, AlignmentFile, Link};

use crate::align::{aer_of, count_files, sentence_numbers, sum};

/// The number of words of every sentence on both sides: `words[side][k - 1]` for
/// sentence k (a sentence past the end of a list has no known length).
pub type SentenceWords = [Vec<usize>; 2];

/// A link past the last word of its sentence on one side or both.
#[derive(Debug, Clone, Copy)]
pub struct PastEnd {
    /// The sentence number.
    pub sentence: u64,
    /// The link.
    pub link: Link,
    /// Whether its position on side a, on side b, is past the last word.
    pub past: [bool; 2],
    /// The sentence's words on side a and side b.
    pub words: [usize; 2],
}

/// Every link of `f` past the last word of its sentence's side, in the file's order of
/// sentences.
pub fn past_end(f: &AlignmentFile, words: &SentenceWords) -> Vec<PastEnd> {
    let mut out = Vec::new();
    for (&n, links) in &f.sentences {
        let len = |k: usize| {
            usize::try_from(n)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| words[k].get(i).copied())
        };
        let (la, lb) = (len(0), len(1));
        let past = |p: Option<u32>, m: Option<usize>| matches!((p, m), (Some(p), Some(m)) if p as usize >= m);
        for l in links {
            let p = [past(l.a, la), past(l.b, lb)];
            if p[0] || p[1] {
                out.push(PastEnd {
                    sentence: n,
                    link: *l,
                    past: p,
                    words: [la.unwrap_or(0), lb.unwrap_or(0)],
                });
            }
        }
    }
    out
}

/// The base `f` was read with under `base` (`None`: the format's default).
pub fn base_read(f: &AlignmentFile, base: Option<u32>) -> u32 {
    base.unwrap_or(f.format.default_base())
}

/// Whether reading `f` with the other base (than `read`, the base it was read with)
/// puts every link within its sentence: that base and the file so read. `reread` reads
/// the file again with the options it is given (its format and direction kept, the base
/// changed). `None` when the other reading fails, has no link, or still has links past
/// the end.
pub fn base_that_fits(
    f: &AlignmentFile,
    read: AlignOptions,
    words: &SentenceWords,
    reread: &dyn Fn(AlignOptions) -> Option<AlignmentFile>,
) -> Option<(u32, AlignmentFile)> {
    let base = 1 - base_read(f, read.base);
    let alt = reread(AlignOptions {
        format: Some(f.format),
        base: Some(base),
        ..read
    })?;
    (alt.link_count() > 0 && past_end(&alt, words).is_empty()).then_some((base, alt))
}

/// The AER of `hyp` against `gold` over all their sentences (`None` when undefined).
pub fn aer_between(gold: &AlignmentFile, hyp: &AlignmentFile, keep_null: bool) -> Option<f64> {
    let numbers = sentence_numbers([gold, hyp]);
    aer_of(&sum(&count_files(gold, hyp, keep_null, &numbers)).aer_row())
}

/// Sentences with positions on a side below which [`SideEvidence::shift`] says nothing: a
/// few sentences are no evidence of a base (one sentence whose last link stops early
/// is not a file read one off).
pub const MIN_EVIDENCE: u64 = 10;

/// What one side of a hypothesis and its gold show of their index bases, over the
/// sentences where both have a word position (not NULL) on that side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SideEvidence {
    /// Sentences where both files have a position on this side.
    pub sentences: u64,
    /// Of those, where the gold uses position 0 (the first word).
    pub gold_zero: u64,
    /// Where the hypothesis uses position 0.
    pub hyp_zero: u64,
    /// Where the hypothesis' largest position is past the gold's.
    pub over: u64,
    /// Where it is below the gold's.
    pub under: u64,
}

impl SideEvidence {
    /// +1 when this side's positions look one higher in the hypothesis than in the gold
    /// (it never uses position 0 where the gold mostly does, or its largest position is
    /// past the gold's in most sentences and rarely below), −1 when they look one lower
    /// (its largest position is below the gold's in most sentences and rarely past it).
    pub fn shift(&self) -> Option<i8> {
        let n = self.sentences;
        if n < MIN_EVIDENCE {
            return None;
        }
        let never_zero = self.hyp_zero == 0 && self.gold_zero > 0 && 2 * self.gold_zero >= n;
        if never_zero || (2 * self.over > n && 4 * self.under < self.over) {
            Some(1)
        } else if 2 * self.under > n && 4 * self.over < self.under {
            Some(-1)
        } else {
            None
        }
    }
}

/// What both sides of `hyp` and `gold` show of their index bases.
pub fn side_evidence(gold: &AlignmentFile, hyp: &AlignmentFile) -> [SideEvidence; 2] {
    let mut e = [SideEvidence::default(); 2];
    let empty = Vec::new();
    for (n, g) in &gold.sentences {
        let h = hyp.sentences.get(n).unwrap_or(&empty);
        for (side, ev) in e.iter_mut().enumerate() {
            let at = |l: &Link| if side == 0 { l.a } else { l.b };
            let (Some(gmax), Some(hmax)) =
                (g.iter().filter_map(at).max(), h.iter().filter_map(at).max())
            else {
                continue;
            };
            ev.sentences += 1;
            ev.gold_zero += u64::from(g.iter().any(|l| at(l) == Some(0)));
            ev.hyp_zero += u64::from(h.iter().any(|l| at(l) == Some(0)));
            ev.over += u64::from(hmax > gmax);
            ev.under += u64::from(hmax < gmax);
        }
    }
    e
}

/// The shift both sides of `hyp` show against `gold` (+1: its positions look one higher,
/// −1: one lower), with the evidence; `None` unless both sides agree.
pub fn base_shift(gold: &AlignmentFile, hyp: &AlignmentFile) -> Option<(i8, [SideEvidence; 2])> {
    let e = side_evidence(gold, hyp);
    match (e[0].shift(), e[1].shift()) {
        (Some(x), Some(y)) if x == y => Some((x, e)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use treeval_formats::align::read_alignments;

    fn file(text: &str, base: Option<u32>) -> AlignmentFile {
        let o = AlignOptions {
            base,
            ..AlignOptions::default()
        };
        read_alignments("f", text.as_bytes(), o).unwrap()
    }

    #[test]
    fn links_past_the_end_are_found_on_either_side() {
        let f = file("0-0 3-1 1-4\n0-0\n9-9\n", None);
        let words: SentenceWords = [vec![4, 1], vec![4, 1]];
        let past = past_end(&f, &words);
        let got: Vec<(u64, [bool; 2], [u32; 2])> = past
            .iter()
            .map(|p| (p.sentence, p.past, p.link.columns))
            .collect();
        // sentence 3 has no known length: not counted here (the callers check the count)
        assert_eq!(got, vec![(1, [false, true], [9, 9])]);
        assert_eq!(past[0].words, [4, 4]);
    }

    #[test]
    fn the_other_base_fits_a_one_based_file() {
        let text = "1-1 2-2 4-4\n1-1\n";
        let f = file(text, None);
        let words: SentenceWords = [vec![4, 1], vec![4, 1]];
        assert_eq!(past_end(&f, &words).len(), 2);
        let reread = |o: AlignOptions| read_alignments("f", text.as_bytes(), o).ok();
        let (base, alt) = base_that_fits(&f, AlignOptions::default(), &words, &reread).unwrap();
        assert_eq!(base, 1);
        assert!(past_end(&alt, &words).is_empty());
        // where neither base puts every link within its sentence, none is offered
        let words: SentenceWords = [vec![2, 1], vec![2, 1]];
        assert!(base_that_fits(&f, AlignOptions::default(), &words, &reread).is_none());
    }

    #[test]
    fn a_shifted_hypothesis_shows_in_both_sides() {
        // four times the three sentences: 12, enough evidence
        let four = |t: &str| t.repeat(4);
        let gold = file(&four("0-0 1-1 2-2\n0-1 1-0\n0-0 2-1\n"), None);
        let same = file(&four("0-0 1-1\n0-1 1-0\n0-0 2-1\n"), None);
        assert_eq!(base_shift(&gold, &same), None);
        let up = file(&four("1-1 2-2 3-3\n1-2 2-1\n1-1 3-2\n"), None);
        let (shift, e) = base_shift(&gold, &up).unwrap();
        assert_eq!(shift, 1);
        assert_eq!((e[0].sentences, e[0].gold_zero, e[0].hyp_zero), (12, 12, 0));
        // read with base 1, the same file is the gold again
        assert_eq!(
            base_shift(
                &gold,
                &file(&four("1-1 2-2 3-3\n1-2 2-1\n1-1 3-2\n"), Some(1))
            ),
            None
        );
        let down = file(&four("1-1 2-2 3-3\n1-2 2-1\n1-1 3-2\n"), Some(1));
        let gold_up = file(&four("1-1 2-2 3-3 4-4\n1-2 2-1\n1-1 3-2\n"), None);
        assert_eq!(base_shift(&gold_up, &down).map(|s| s.0), Some(-1));
        // the first three sentences alone are too few to tell
        let three = |t: &str| file(t, None);
        assert_eq!(
            base_shift(
                &three("0-0 1-1 2-2\n0-1 1-0\n0-0 2-1\n"),
                &three("1-1 2-2 3-3\n1-2 2-1\n1-1 3-2\n")
            ),
            None
        );
    }
}
