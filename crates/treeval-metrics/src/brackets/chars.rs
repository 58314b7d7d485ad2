//! `--align chars`: brackets measured in characters, for systems that tokenize (or split
//! sentences) differently from the gold trees.
//!
//! Every convention of the default mode stays: the parameter file's `DELETE_LABEL` words
//! and brackets, `EQ_LABEL`, labels cut at `-` and `=`, the length for `CUTOFF_LEN`
//! counted in gold words, crossing brackets. What changes:
//! - each side's kept words (after `DELETE_LABEL` pre-terminals are removed), of every
//!   tree in file order, are concatenated without whitespace into one text, after the
//!   PTB escapes are written as the characters they stand for ([`NORMALIZATION`]);
//! - a bracket's span is the character offsets from the first character of its first
//!   kept word to the last character of its last kept word, in that document text; a
//!   system bracket is compared at the gold offsets of its end characters;
//! - the two texts are diffed ([`diff`]); characters outside a mismatch window are
//!   shared. A bracket with an end character in a window cannot match (it is counted in
//!   gold or system brackets and listed with the window) and a system bracket with such
//!   an end is not checked for crossing;
//! - the unit is the gold tree: a system bracket belongs to the gold sentence where its
//!   first character is (inside a window, where the window stands in gold). System trees
//!   are not paired with gold trees by number: a gold sentence parsed as two system trees
//!   loses the whole-sentence bracket, a system bracket over two gold sentences matches
//!   nothing;
//! - tagging accuracy is over the gold words that a system word has with the same
//!   character span (the other gold words are counted in [`CharsResult::untagged_words`]);
//! - a gold sentence without a shared character is skipped (the system has none of its
//!   text; with the same words: the system tree has no words, as in the default mode);
//!   a malformed gold tree, or a malformed system tree over it, makes it an error
//!   sentence. With [`Params::errors_missed`] a skipped or error sentence whose gold
//!   tree is well formed with words kept is scored as an empty parse, as in the default
//!   mode ([`SentenceRow::missed`]): a dropped sentence lowers recall.
//!
//! With the same words in both files (and the same tags deleted) the counts are the
//! default mode's: the offsets grow with the word offsets, so equal spans, crossing and
//! containment are the same. EVALB's `EQ_WORD` and `QUOTE_LABEL` (a misquote put back
//! when the word numbers differ) do not apply: words are compared as characters.

pub mod diff;

use treeval_formats::bracket::BracketTree;

use super::{BracketResult, Params, Run, SentenceRow, Status, B};

/// The normalisation of words, as the signature names it: PTB escapes as characters
/// (`-LRB-` `(`, `-RRB-` `)`, `-LCB-` `{`, `-RCB-` `}`, `-LSB-` `[`, `-RSB-` `]`), the
/// quote forms ``` `` ``` and `''` as `"`, the backslash of `\/` and `\*` dropped
/// (`1\/2` is `1/2`), whitespace removed.
pub const NORMALIZATION: &str = "ptb-escapes";

/// Append the characters of word `w`, normalised ([`NORMALIZATION`]), to `out`.
pub fn push_word(w: &str, out: &mut Vec<char>) {
    let s = match w {
        "-LRB-" => "(",
        "-RRB-" => ")",
        "-LCB-" => "{",
        "-RCB-" => "}",
        "-LSB-" => "[",
        "-RSB-" => "]",
        "``" | "''" => "\"",
        _ => w,
    };
    let mut chars = s.chars().filter(|c| !c.is_whitespace()).peekable();
    while let Some(c) = chars.next() {
        // PTB's escaped slash and star
        if c == '\\' && matches!(chars.peek(), Some('/' | '*')) {
            continue;
        }
        out.push(c);
    }
}

/// A mismatch window, as the report lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CharWindow {
    /// The gold sentence (1-based) where it stands.
    pub sentence: u64,
    /// The line of the gold tree, and of the system tree where it stands.
    pub lines: (u64, u64),
    /// The gold characters in it (possibly none).
    pub gold: String,
    /// The system characters in it (possibly none).
    pub system: String,
    /// Gold brackets with an end character in it.
    pub gold_brackets: u64,
    /// System brackets with an end character in it.
    pub system_brackets: u64,
}

/// What the character alignment found, besides the counts.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct CharsResult {
    /// The mismatch windows, in order.
    pub windows: Vec<CharWindow>,
    /// Gold brackets with an end in a window (they cannot match).
    pub unaligned_gold_brackets: u64,
    /// System brackets with an end in a window (they cannot match).
    pub unaligned_system_brackets: u64,
    /// Gold sentences whose shared characters lie in more than one system tree.
    pub split_sentences: u64,
    /// System trees whose shared characters lie in more than one gold sentence.
    pub joined_trees: u64,
    /// Gold words of the scored sentences without a system word over the same
    /// characters (not in tagging accuracy).
    pub untagged_words: u64,
}

/// A kept word: its tag and character offsets in the document text.
#[derive(Debug, Clone, Copy)]
struct Word {
    tag: u32,
    start: u32,
    end: u32,
}

/// One tree over the document text.
#[derive(Debug, Clone, Default)]
struct Tree {
    start: u32,
    end: u32,
    length: u64,
    words: Vec<Word>,
    brackets: Vec<B>,
    malformed: Option<String>,
}

/// One file's trees over its document text.
#[derive(Debug, Default)]
struct Side {
    text: Vec<char>,
    /// Per offset `0..=len`: what stands there (word and tree boundaries).
    breaks: Vec<diff::Break>,
    trees: Vec<Tree>,
}

impl Side {
    /// This side as the diff reads it.
    fn diffed(&self) -> diff::Text<'_> {
        diff::Text {
            chars: &self.text,
            breaks: &self.breaks,
        }
    }
}

/// Mark offset `text.len()` of a text as `b` in `breaks` (the offsets before it, not
/// marked yet, are inside words).
fn mark(breaks: &mut Vec<diff::Break>, text: &[char], b: diff::Break) {
    breaks.resize(text.len() + 1, diff::IN_WORD);
    // invariant: resized to text.len() + 1 >= 1 offsets just above
    let last = breaks.last_mut().expect("one offset at least");
    *last = (*last).max(b);
}

/// Every tree of `r`, read.
pub fn read_all<R: std::io::BufRead>(
    r: &mut treeval_formats::bracket::BracketReader<R>,
) -> Result<Vec<BracketTree>, treeval_formats::Error> {
    let mut out = Vec::new();
    let mut t = BracketTree::default();
    while r.read_tree(&mut t)? {
        out.push(std::mem::take(&mut t));
    }
    Ok(out)
}

/// Score every tree of `test` against the trees of `gold` over characters. Only a file
/// that cannot be read is an `Err`.
pub fn evaluate<G: std::io::BufRead, T: std::io::BufRead>(
    gold: &mut treeval_formats::bracket::BracketReader<G>,
    test: &mut treeval_formats::bracket::BracketReader<T>,
    params: &Params,
) -> Result<(BracketResult, CharsResult), treeval_formats::Error> {
    let g = read_all(gold)?;
    let t = read_all(test)?;
    Ok(score(&g, &t, params))
}

/// Score the system trees `test` against the gold trees `gold` over characters.
pub fn score(
    gold: &[BracketTree],
    test: &[BracketTree],
    params: &Params,
) -> (BracketResult, CharsResult) {
    let mut run = Run::new(params, None);
    let placed = placed_untagged(&mut run, gold, test);
    let g = side(&mut run, gold, true, &[]);
    let t = side(&mut run, test, false, &placed);
    for tree in test {
        // trees are not paired with gold trees here: no wrapper counts
        run.count_tree_reading(tree);
    }
    for (trees, is_gold) in [(gold, true), (test, false)] {
        for tree in trees {
            run.res.count_tree(tree, is_gold);
        }
    }
    // each malformed system tree's problems once, whatever gold text it covers (a gold
    // tree's come with its error sentence)
    (run.res.problems).extend(test.iter().flat_map(|t| t.problems.iter().cloned()));
    let d = diff::diff(g.diffed(), t.diffed());
    let al = Aligned::new(&g, &t, &d);
    let mut chars = al.report(gold, test);
    let mut fake = BracketTree::default();
    for (k, tree) in gold.iter().enumerate() {
        let line = al.first_tree[k].map_or(tree.line, |j| test[j].line);
        let mut row = al.sentence(&mut run, k, &mut chars.untagged_words);
        run.scorer.leaves(tree, true);
        to_words(&mut run, &g.trees[k]);
        row.id = k as u64 + 1;
        // the line EVALB's error list gives: the first system tree over the sentence
        fake.line = line;
        if !run.add(k as u64 + 1, row, None, tree, &fake) {
            break;
        }
    }
    (run.finish(), chars)
}

/// Where each word without a POS tag of the system trees stands on the gold, found by
/// characters over every word (the gold's deleted ones too): per system tree and leaf,
/// `Some(deleted)` when its characters are exactly one gold word's (it is deleted as that
/// word is), `None` when they are not; nothing for a tagged tree. This is the default
/// mode's rule (a word without a tag takes the deletion decision of the equal gold word
/// at its position) with the position found by characters.
fn placed_untagged(
    run: &mut Run<'_>,
    gold: &[BracketTree],
    test: &[BracketTree],
) -> Vec<Vec<Option<bool>>> {
    if !test.iter().any(|t| t.untagged) {
        return Vec::new();
    }
    let (mut gtext, mut gbreaks) = (Vec::new(), Vec::new());
    // gold word by its first character: (its end, whether it is deleted)
    let mut by_start = std::collections::HashMap::new();
    for t in gold {
        mark(&mut gbreaks, &gtext, diff::TREE);
        for l in &t.leaves {
            let from = gtext.len() as u32;
            push_word(t.s(l.word), &mut gtext);
            mark(&mut gbreaks, &gtext, diff::WORD);
            let deleted = run.scorer.deletes(t, l);
            by_start.insert(from, (gtext.len() as u32, deleted));
        }
        mark(&mut gbreaks, &gtext, diff::TREE);
    }
    let (mut ttext, mut tbreaks) = (Vec::new(), Vec::new());
    let spans: Vec<Vec<(u32, u32)>> = (test.iter())
        .map(|t| {
            mark(&mut tbreaks, &ttext, diff::TREE);
            let v = (t.leaves.iter())
                .map(|l| {
                    let from = ttext.len() as u32;
                    push_word(t.s(l.word), &mut ttext);
                    mark(&mut tbreaks, &ttext, diff::WORD);
                    (from, ttext.len() as u32)
                })
                .collect();
            mark(&mut tbreaks, &ttext, diff::TREE);
            v
        })
        .collect();
    let text = |chars, breaks| diff::Text { chars, breaks };
    let d = diff::diff(text(&gtext, &gbreaks), text(&ttext, &tbreaks));
    let on_gold = |(a, b): (u32, u32)| -> Option<bool> {
        let g0 = *d.to_gold.get(a as usize)?;
        let same = a < b && g0 != diff::NONE;
        let shared = same && (a..b).all(|x| d.to_gold[x as usize] == g0 + (x - a));
        let &(end, deleted) = by_start.get(&g0)?;
        (shared && end == g0 + (b - a)).then_some(deleted)
    };
    (test.iter().zip(spans))
        .map(|(t, v)| match t.untagged {
            true => v.into_iter().map(on_gold).collect(),
            false => Vec::new(),
        })
        .collect()
}

/// The trees of one file over its document text (the system's words without a tag
/// deleted or kept as `placed` says).
fn side(
    run: &mut Run<'_>,
    trees: &[BracketTree],
    gold: bool,
    placed: &[Vec<Option<bool>>],
) -> Side {
    let mut s = Side::default();
    let sc = &mut run.scorer;
    for (j, t) in trees.iter().enumerate() {
        let length = if gold {
            sc.leaves(t, true)
        } else {
            sc.leaves_placed(t, placed.get(j).map_or(&[], Vec::as_slice))
        };
        sc.positions(t, gold);
        sc.brackets(t, gold);
        let (tags, bs) = if gold {
            (&sc.gtags, &sc.gb)
        } else {
            (&sc.ttags, &sc.tb)
        };
        let start = s.text.len() as u32;
        mark(&mut s.breaks, &s.text, diff::TREE);
        let mut bound = vec![start];
        let mut words = Vec::with_capacity(tags.len());
        for &(tag, w) in tags {
            let from = s.text.len() as u32;
            push_word(t.s(w), &mut s.text);
            mark(&mut s.breaks, &s.text, diff::WORD);
            let end = s.text.len() as u32;
            words.push(Word {
                tag,
                start: from,
                end,
            });
            bound.push(end);
        }
        let brackets = (bs.iter())
            .map(|b| B {
                start: bound[b.start as usize],
                end: bound[b.end as usize],
                ..*b
            })
            .filter(|b| b.start < b.end)
            .collect();
        mark(&mut s.breaks, &s.text, diff::TREE);
        let malformed = t
            .problems
            .first()
            .map(|d| (d.position.to_string(), d.kind.to_string()));
        s.trees.push(Tree {
            start,
            end: s.text.len() as u32,
            length,
            words,
            brackets,
            malformed: malformed.map(|(p, k)| format!("{p}: {k}")),
        });
    }
    s
}

/// A system bracket in gold offsets, and whether both its ends are shared.
#[derive(Debug, Clone, Copy)]
struct Mapped {
    b: B,
    aligned: bool,
}

/// The two sides aligned: the system brackets and words in gold offsets, by gold
/// sentence.
struct Aligned<'a> {
    g: &'a Side,
    t: &'a Side,
    d: &'a diff::CharDiff,
    /// Per gold sentence: the system brackets that start in it.
    brackets: Vec<Vec<Mapped>>,
    /// Per gold sentence: why a malformed system tree over it makes it an error.
    malformed: Vec<Option<String>>,
    /// Per gold sentence: the first system tree with a shared character in it.
    first_tree: Vec<Option<usize>>,
    /// System words over shared ends: gold start → (gold end, tag).
    words: rustc_hash::FxHashMap<u32, (u32, u32)>,
}

impl<'a> Aligned<'a> {
    fn new(g: &'a Side, t: &'a Side, d: &'a diff::CharDiff) -> Self {
        let n = g.trees.len();
        let mut al = Aligned {
            g,
            t,
            d,
            brackets: vec![Vec::new(); n],
            malformed: vec![None; n],
            first_tree: vec![None; n],
            words: rustc_hash::FxHashMap::default(),
        };
        for (j, tree) in t.trees.iter().enumerate() {
            al.place_tree(j, tree);
        }
        al
    }

    /// The gold sentence holding gold offset `x` (the last non-empty one at the end).
    fn sentence_of(&self, x: u32) -> usize {
        let trees = &self.g.trees;
        let k = trees.partition_point(|t| t.end <= x);
        if k < trees.len() {
            return k;
        }
        let last = trees.iter().rposition(|t| t.start < t.end);
        last.unwrap_or(trees.len().saturating_sub(1))
    }

    /// The gold sentences over system tree `j`'s shared characters.
    fn sentences_of(&self, tree: &Tree) -> std::ops::Range<usize> {
        let d = self.d;
        let shared = (tree.start..tree.end).filter(|&c| d.to_gold[c as usize] != diff::NONE);
        let (mut lo, mut hi) = (None, None);
        for c in shared {
            let x = d.to_gold[c as usize];
            lo.get_or_insert(x);
            hi = Some(x);
        }
        match (lo, hi) {
            (Some(a), Some(b)) => self.sentence_of(a)..self.sentence_of(b) + 1,
            _ => 0..0,
        }
    }

    /// Place system tree `j`: its brackets and words in gold offsets.
    fn place_tree(&mut self, j: usize, tree: &Tree) {
        if self.g.trees.is_empty() {
            return;
        }
        let covered = self.sentences_of(tree);
        for k in covered.clone() {
            self.first_tree[k].get_or_insert(j);
        }
        if let Some(m) = &tree.malformed {
            for k in covered {
                self.malformed[k].get_or_insert_with(|| format!("Malformed test tree ({m})"));
            }
            return;
        }
        let d = self.d;
        for b in &tree.brackets {
            let (s, e) = (d.to_gold[b.start as usize], d.to_gold[b.end as usize - 1]);
            let aligned = s != diff::NONE && e != diff::NONE;
            let start = d.at_gold[b.start as usize];
            let end = if aligned {
                e + 1
            } else {
                d.at_gold[b.end as usize]
            };
            let k = self.sentence_of(start);
            self.brackets[k].push(Mapped {
                b: B {
                    start,
                    end: end.max(start + 1),
                    ..*b
                },
                aligned,
            });
        }
        for w in &tree.words {
            let (s, e) = (d.to_gold[w.start as usize], d.to_gold[w.end as usize - 1]);
            if s != diff::NONE && e != diff::NONE {
                self.words.insert(s, (e + 1, w.tag));
            }
        }
    }

    /// Gold sentence `k` scored: its row, the scorer holding its brackets.
    fn sentence(&self, run: &mut Run<'_>, k: usize, untagged: &mut u64) -> SentenceRow {
        let tree = &self.g.trees[k];
        let mut row = SentenceRow::scored(k as u64 + 1, tree.length);
        let sc = &mut run.scorer;
        sc.gb.clear();
        sc.tb.clear();
        let error = tree
            .malformed
            .as_ref()
            .map(|m| format!("Malformed gold tree ({m})"));
        if let Some(m) = error.or_else(|| self.malformed[k].clone()) {
            row.status = Status::Error;
            row.message = Some(m);
        } else if !self.d.any_shared(tree.start..tree.end) {
            row.status = Status::Skip;
            row.message = Some(if tree.start == tree.end {
                "the gold tree has no words kept".into()
            } else {
                "no system word has a character of this sentence".into()
            });
        }
        if row.status != Status::Ok {
            // a sentence the system failed on (its tree malformed, or none over its text)
            // with a well-formed gold tree: an empty parse, as in the default mode
            if sc.params.errors_missed && tree.malformed.is_none() && !tree.words.is_empty() {
                sc.gb.extend(tree.brackets.iter().copied());
                row.missed = true;
                row.gold = sc.gb.len() as u64;
                row.words = tree.words.len() as u64;
                row.untagged_words = row.words;
            }
            return row;
        }
        sc.gb.extend(tree.brackets.iter().copied());
        sc.tb.extend(self.brackets[k].iter().map(|m| m.b));
        let aligned: Vec<bool> = self.brackets[k].iter().map(|m| m.aligned).collect();
        sc.match_aligned(&mut row, &aligned);
        for w in &tree.words {
            match self.words.get(&w.start) {
                Some(&(end, tag)) if end == w.end => {
                    row.words += 1;
                    row.correct_tags += u64::from(sc.label_eq(w.tag, tag));
                    row.untagged_words += u64::from(tag == super::UNTAGGED);
                }
                _ => *untagged += 1,
            }
        }
        row
    }

    /// The windows, the unaligned brackets and the sentence boundaries that differ.
    fn report(&self, gold: &[BracketTree], test: &[BracketTree]) -> CharsResult {
        let mut c = CharsResult::default();
        let d = self.d;
        for w in &d.windows {
            let k = self.sentence_of(w.gold.start);
            let j = self.t.trees.partition_point(|t| t.end <= w.system.start);
            let j = j.min(self.t.trees.len().saturating_sub(1));
            let inside = |x: u32, r: &std::ops::Range<u32>| r.contains(&x);
            let count = |side: &Side, r: &std::ops::Range<u32>| -> u64 {
                let bs = side.trees.iter().flat_map(|t| &t.brackets);
                bs.filter(|b| inside(b.start, r) || inside(b.end - 1, r))
                    .count() as u64
            };
            let text = |side: &Side, r: &std::ops::Range<u32>| -> String {
                side.text[r.start as usize..r.end as usize].iter().collect()
            };
            c.windows.push(CharWindow {
                sentence: k as u64 + 1,
                lines: (
                    gold.get(k).map_or(0, |t| t.line),
                    test.get(j).map_or(0, |t| t.line),
                ),
                gold: text(self.g, &w.gold),
                system: text(self.t, &w.system),
                gold_brackets: count(self.g, &w.gold),
                system_brackets: count(self.t, &w.system),
            });
        }
        c.unaligned_gold_brackets = (self.g.trees.iter().flat_map(|t| &t.brackets))
            .filter(|b| !d.gold_shared(b.start) || !d.gold_shared(b.end - 1))
            .count() as u64;
        c.unaligned_system_brackets = (self.t.trees.iter().flat_map(|t| &t.brackets))
            .filter(|b| {
                let (s, e) = (b.start as usize, b.end as usize - 1);
                d.to_gold[s] == diff::NONE || d.to_gold[e] == diff::NONE
            })
            .count() as u64;
        let mut trees_per_sentence = vec![0u32; self.g.trees.len()];
        for tree in &self.t.trees {
            let over = self.sentences_of(tree);
            c.joined_trees += u64::from(over.len() > 1);
            for k in over {
                trees_per_sentence[k] += 1;
            }
        }
        c.split_sentences = trees_per_sentence.iter().filter(|&&n| n > 1).count() as u64;
        c
    }
}

/// After scoring: the scorer's brackets of gold sentence `tree` over its word indices
/// (what `--by`, `--errors` and the HTML page show), rounded out to whole gold words.
fn to_words(run: &mut Run<'_>, tree: &Tree) {
    let words = &tree.words;
    let index = |x: u32| words.partition_point(|w| w.end <= x) as u32;
    let n = words.len() as u32;
    for b in run.scorer.gb.iter_mut().chain(run.scorer.tb.iter_mut()) {
        let start = index(b.start.max(tree.start)).min(n);
        let end = (index(b.end.saturating_sub(1).min(tree.end.saturating_sub(1))) + 1).min(n);
        (b.start, b.end) = (start, end.max(start));
    }
}

#[cfg(test)]
mod tests;
