//! `--align resync`: when the two texts differ, find where they agree again instead of
//! failing, and score the words of the differing stretches as unaligned.
//!
//! The texts are compared as they stream. At the first differing character the search
//! looks ahead for the nearest *anchor*: a pair of offsets, one in each file, after which
//! [`ANCHOR`] bytes are equal (or both files end), nearest meaning the fewest skipped
//! bytes in the two files together. The differing stretch is then widened to token
//! boundaries that both files share, so that every token touching a changed character is
//! inside it: that is a *mismatch window*. A stretch missing from one file only is first
//! slid (over equal characters) to where it covers whole tokens, so that a missing
//! sentence is exactly that sentence.
//!
//! The scorer's alignment then runs unchanged on *virtual* offsets: a point of the diff
//! path where gold is at byte `g` and the system at byte `s` has the virtual offset
//! `g + s`. Equal characters get the same virtual span in both files; inside a window the
//! gold part is placed first and the system part after it, so their spans are disjoint
//! and their words never align: they cost precision and recall as a tokenization error
//! does. Outside windows the order of all spans is kept, so on equal texts the result is
//! the strict alignment's.

use rustc_hash::FxHasher;
use serde::{Deserialize, Serialize};
use std::hash::Hasher;
use unicode_normalization::UnicodeNormalization;

use super::window::{SentInfo, Side, Tok, W};

/// Equal bytes that mark the files as synchronised again.
pub const ANCHOR: u64 = 32;
/// First look-ahead per file (bytes) in the search for an anchor; it grows fourfold.
const FIRST_BUDGET: u64 = 512;
/// The look-ahead (bytes per file) beyond which resynchronisation gives up.
pub const MAX_LOOKAHEAD: u64 = 1 << 20;
/// Bytes by which commits lag behind the scan (how far a missing stretch may slide back).
const LAG: u64 = 1024;
/// Largest stretch (gold × system characters) refined by a longest common subsequence.
const REFINE_CELLS: usize = 1 << 19;
/// Characters of a window's text kept for the report.
const SHOWN: usize = 60;

/// What probably caused a mismatch window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResyncCause {
    /// The system file ends early: gold text after the end has no counterpart.
    TruncatedSystem,
    /// The gold file ends early.
    TruncatedGold,
    /// Whole gold sentences are missing from the system file.
    MissingSentences,
    /// The system file has whole sentences gold does not have.
    ExtraSentences,
    /// Gold text missing from the system file (not whole sentences).
    MissingText,
    /// System text gold does not have (not whole sentences).
    ExtraText,
    /// The texts are equal once `_` and non-Zs space characters (which the scorer does not
    /// remove) are deleted: a token with a space written differently.
    WhitespaceInToken,
    /// The texts are equal after Unicode NFC normalisation (NFC vs NFD).
    Normalization,
    /// None of the above.
    OtherCharacters,
}

impl ResyncCause {
    /// A short explanation for the report.
    pub fn describe(self) -> &'static str {
        match self {
            ResyncCause::TruncatedSystem => "the system file ends early (truncated?)",
            ResyncCause::TruncatedGold => "the gold file ends early (truncated?)",
            ResyncCause::MissingSentences => "sentence(s) missing from the system file",
            ResyncCause::ExtraSentences => "extra sentence(s) in the system file",
            ResyncCause::MissingText => "text missing from the system file",
            ResyncCause::ExtraText => "extra text in the system file",
            ResyncCause::WhitespaceInToken => {
                "whitespace inside a token (written as '_' or a non-Zs space on one side)"
            }
            ResyncCause::Normalization => {
                "the same text in different Unicode normalisation (NFC vs NFD)"
            }
            ResyncCause::OtherCharacters => "different characters",
        }
    }
}

/// One file's part of a mismatch window.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowSide {
    /// Line of the first token in the window (or of the token after it when the part is empty).
    pub first_line: u64,
    /// Line of the last token in the window (`first_line` when the part is empty).
    pub last_line: u64,
    /// Characters of text in the window.
    pub chars: u64,
    /// Tokens, words and sentences starting in the window (its words are unaligned).
    pub tokens: u64,
    /// Words.
    pub words: u64,
    /// Sentences.
    pub sentences: u64,
    /// The window's text (FORMs without Zs), at most 60 characters and `…`.
    pub text: String,
    /// The characters that differ, before widening to tokens, separate stretches
    /// separated by a space (at most 60 characters and `…`).
    pub differing: String,
}

/// A stretch where the files' texts differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResyncWindow {
    /// The likely cause.
    pub cause: ResyncCause,
    /// Gold's part.
    pub gold: WindowSide,
    /// The system's part.
    pub system: WindowSide,
}

/// Resynchronisation gave up: no anchor within [`MAX_LOOKAHEAD`] bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResyncFailure {
    /// Gold line where the texts started to differ.
    pub gold_line: u64,
    /// System line likewise.
    pub system_line: u64,
    /// Gold text from there (20 characters).
    pub gold_text: String,
    /// System text from there.
    pub system_text: String,
}

/// A linear piece of the map from a file's byte offsets to virtual offsets:
/// `v0 + slope · (x − x0)` from `x0` up to the next piece.
#[derive(Debug, Clone, Copy)]
pub(super) struct Piece {
    x0: u64,
    v0: u64,
    slope: u64,
}

/// The virtual offset of `x` as the start (`start`) or the end of a span: where a window
/// inserts the other file's part at `x`, starts map after it and ends before it.
fn map(pieces: &[Piece], x: u64, start: bool) -> u64 {
    let k = if start {
        pieces.partition_point(|p| p.x0 <= x)
    } else {
        pieces.partition_point(|p| p.x0 < x)
    };
    let p = &pieces[k.saturating_sub(1).min(pieces.len() - 1)];
    debug_assert!(x >= p.x0, "offset {x} before the first kept piece {}", p.x0);
    p.v0 + p.slope * x.saturating_sub(p.x0)
}

/// What the engine needs next.
pub(super) enum Step {
    /// Something was decided; ask again.
    Progress,
    /// More text of gold (`true`) or the system (`false`) is needed.
    Load(bool),
    /// Both files are synchronised to their ends.
    Done,
}

/// A window not yet closed.
#[derive(Debug, Clone)]
struct Open {
    start: (u64, u64),
    gold_diff: String,
    system_diff: String,
}

/// A window running to the end of one file: the side that ended, and what was counted of
/// the other side before the window.
#[derive(Debug, Clone)]
struct Tail {
    gold_ended: bool,
    /// The streaming side's tokens, words and sentences before the window, and its
    /// characters in the window so far.
    before: (u64, u64, u64),
    chars: u64,
    /// The streaming side's text already counted in `chars` (byte offset).
    counted_to: u64,
    streaming: WindowSide,
    ended: WindowSide,
}

/// Where the last recorded window ended, and its gold and system texts (at most 4 KB).
type LastWindow = ((u64, u64), Vec<u8>, Vec<u8>);

/// The resynchronising diff of the two texts.
pub(super) struct Resync {
    /// The diff path is known up to this point (gold byte, system byte).
    scan: (u64, u64),
    /// Items ending at or before this point are mapped to virtual offsets.
    commit: (u64, u64),
    /// The last token boundary both files share, at or after `commit`.
    last_common: (u64, u64),
    open: Option<Open>,
    tail: Option<Tail>,
    budget: u64,
    gold_pieces: Vec<Piece>,
    sys_pieces: Vec<Piece>,
    common: Vec<u64>,
    /// The end of the last window recorded, with its texts (for merging a window that
    /// starts there).
    last: Option<LastWindow>,
    /// Shared boundaries after `commit` on the current equal run, not yet committed.
    pending: std::collections::VecDeque<(u64, u64)>,
    pub windows: Vec<ResyncWindow>,
    pub done: bool,
}

fn is_cont(b: u8) -> bool {
    b & 0xC0 == 0x80
}

fn char_count(b: &[u8]) -> u64 {
    b.iter().filter(|&&c| !is_cont(c)).count() as u64
}

fn text(side: &Side, a: u64, b: u64) -> &[u8] {
    let base = side.text_base;
    let len = side.flat.text.len() as u64;
    let lo = (a.saturating_sub(base)).min(len) as usize;
    let hi = (b.saturating_sub(base)).min(len) as usize;
    &side.flat.text[lo..hi.max(lo)]
}

/// At most [`SHOWN`] characters, with `…` when cut.
fn shown(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b);
    let mut out: String = s.chars().take(SHOWN).collect();
    if s.chars().nth(SHOWN).is_some() {
        out.push('…');
    }
    out
}

/// Length of the common prefix of two byte strings, backed up to a character boundary.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut k = 0;
    while k + 64 <= n && a[k..k + 64] == b[k..k + 64] {
        k += 64;
    }
    while k < n && a[k] == b[k] {
        k += 1;
    }
    if k < n {
        while k > 0 && is_cont(a[k]) {
            k -= 1;
        }
    }
    k
}

fn hash(b: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(b);
    h.finish()
}

/// The anchor `(i, j)` nearest to the start (least `i + j`, then least `i`) with
/// `i, j ≤ budget`: `a[i..i+ANCHOR] == b[j..j+ANCHOR]`, both at character starts.
fn find_anchor(a: &[u8], b: &[u8], budget: u64) -> Option<(u64, u64)> {
    let l = ANCHOR as usize;
    if a.len() < l || b.len() < l {
        return None;
    }
    let jmax = (b.len() - l).min(budget as usize);
    let mut first: rustc_hash::FxHashMap<u64, u32> = Default::default();
    for j in 0..=jmax {
        if !is_cont(b[j]) {
            first.entry(hash(&b[j..j + l])).or_insert(j as u32);
        }
    }
    let imax = (a.len() - l).min(budget as usize);
    let mut best: Option<(u64, u64)> = None;
    for i in 0..=imax {
        if best.is_some_and(|(x, y)| (i as u64) > x + y) {
            break;
        }
        if is_cont(a[i]) {
            continue;
        }
        let key = &a[i..i + l];
        if let Some(&j) = first.get(&hash(key)) {
            let j = j as usize;
            if &b[j..j + l] != key {
                // a hash collision: look for a true match by scanning (rare)
                let Some(j) = (0..=jmax).find(|&j| !is_cont(b[j]) && &b[j..j + l] == key) else {
                    continue;
                };
                let c = (i + j) as u64;
                if best.map_or(true, |(x, y)| c < x + y) {
                    best = Some((i as u64, j as u64));
                }
                continue;
            }
            let c = (i + j) as u64;
            if best.map_or(true, |(x, y)| c < x + y) {
                best = Some((i as u64, j as u64));
            }
        }
    }
    best
}

/// For a file ending in `x` (shorter than [`ANCHOR`]): the nearest `i ≤ budget` where `y`
/// goes on with all of `x` (a part of `x` would be too weak an anchor).
fn find_short_anchor(x: &[u8], y: &[u8], budget: u64) -> Option<u64> {
    let limit = (budget as usize).min(y.len().saturating_sub(x.len()));
    (0..=limit)
        .find(|&i| !is_cont(y[i]) && y[i..].starts_with(x))
        .map(|i| i as u64)
}

/// Two parts of one file that follow each other, as one.
fn join(a: WindowSide, b: WindowSide) -> WindowSide {
    // texts follow each other; differing parts are separated by a space (the text never
    // has one: the scorer removes them)
    let cat = |x: &str, y: &str, sep: &str| -> String {
        let x = x.trim_end_matches('…');
        let sep = if x.is_empty() || y.is_empty() {
            ""
        } else {
            sep
        };
        shown(format!("{x}{sep}{y}").as_bytes())
    };
    WindowSide {
        first_line: if a.chars > 0 {
            a.first_line
        } else {
            b.first_line
        },
        last_line: if b.chars > 0 {
            b.last_line
        } else {
            a.last_line
        },
        chars: a.chars + b.chars,
        tokens: a.tokens + b.tokens,
        words: a.words + b.words,
        sentences: a.sentences + b.sentences,
        text: cat(&a.text, &b.text, ""),
        differing: cat(&a.differing, &b.differing, " "),
    }
}

/// Delete `_` and space characters the scorer keeps (not Unicode Zs).
fn without_spaces(b: &[u8]) -> String {
    String::from_utf8_lossy(b)
        .chars()
        .filter(|&c| {
            !(c == '_'
                || c.is_whitespace()
                || matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}'))
        })
        .collect()
}

/// The first unsettled item of `v` starting at or after `x` (orig offsets).
fn first_from<T>(v: &[T], settled: usize, x: u64, start: impl Fn(&T) -> u64) -> usize {
    settled + v[settled..].partition_point(|t| start(t) < x)
}

/// Both files end: where their common ending starts in each (from the scan point); an
/// ending too short to trust is left to the common subsequence to place.
fn common_ending(a: &[u8], b: &[u8]) -> (u64, u64) {
    let mut t = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    while t > 0 && is_cont(a[a.len() - t]) {
        t -= 1;
    }
    if t < ANCHOR as usize && t < a.len().min(b.len()) {
        // too short to trust: let the common subsequence place it
        t = 0;
    }
    ((a.len() - t) as u64, (b.len() - t) as u64)
}

/// A character with its byte length and its place in its token (bytes from the token's
/// start and to its end; `u64::MAX` twice outside tokens).
type Placed = (char, u64, (u64, u64));

/// The characters of `len` bytes of one file's text from `from`, placed in their tokens.
fn placed_chars(side: &Side, from: u64, len: u64) -> Vec<Placed> {
    let mut out = Vec::new();
    let mut at = from;
    let mut k = first_from(&side.flat.tokens, side.settled_tokens, from + 1, |t| {
        t.start
    })
    .saturating_sub(1)
    .max(side.settled_tokens);
    for c in String::from_utf8_lossy(text(side, from, from + len)).chars() {
        while side.flat.tokens.get(k + 1).is_some_and(|t| t.start <= at) {
            k += 1;
        }
        let place = side
            .flat
            .tokens
            .get(k)
            .filter(|t| t.start <= at && at < t.end)
            .map_or((u64::MAX, u64::MAX), |t| (at - t.start, t.end - at));
        out.push((c, c.len_utf8() as u64, place));
        at += c.len_utf8() as u64;
    }
    out
}

/// What keeping `a[x]` and `b[y]` together is worth: nothing for different characters,
/// `big` for equal ones, one more at the same place in their tokens.
#[inline]
fn gain(a: &[Placed], b: &[Placed], big: u64, x: usize, y: usize) -> u64 {
    if a[x].0 != b[y].0 {
        0
    } else if a[x].2 == b[y].2 && a[x].2 .0 != u64::MAX {
        big + 1
    } else {
        big
    }
}

/// Two stretches of characters as runs of equal characters and of differences, as
/// (equal, gold bytes, system bytes), by the best alignment: most characters kept (the
/// longest common subsequence), then most kept at the same place in their tokens, so
/// that whole tokens stay together where the text allows.
fn diff_runs(a: &[Placed], b: &[Placed]) -> Vec<(bool, u64, u64)> {
    let (n, m) = (a.len(), b.len());
    // t[x][y] = the best alignment of a[x..] and b[y..]
    let big = (n + m + 1) as u64;
    let w = m + 1;
    let mut t = vec![0u64; (n + 1) * w];
    for x in (0..n).rev() {
        for y in (0..m).rev() {
            let skip = t[(x + 1) * w + y].max(t[x * w + y + 1]);
            let d = gain(a, b, big, x, y);
            t[x * w + y] = if d > 0 {
                skip.max(d + t[(x + 1) * w + y + 1])
            } else {
                skip
            };
        }
    }
    // walk it
    let mut ops: Vec<(bool, u64, u64)> = Vec::new();
    let add = |ops: &mut Vec<(bool, u64, u64)>, eq: bool, di: u64, dj: u64| match ops.last_mut() {
        Some(last) if last.0 == eq => {
            last.1 += di;
            last.2 += dj;
        }
        _ => ops.push((eq, di, dj)),
    };
    let (mut x, mut y) = (0, 0);
    while x < n || y < m {
        let d = if x < n && y < m {
            gain(a, b, big, x, y)
        } else {
            0
        };
        if d > 0 && t[x * w + y] == d + t[(x + 1) * w + y + 1] {
            add(&mut ops, true, a[x].1, a[x].1);
            x += 1;
            y += 1;
        } else if x < n && (y == m || t[(x + 1) * w + y] >= t[x * w + y + 1]) {
            add(&mut ops, false, a[x].1, 0);
            x += 1;
        } else {
            add(&mut ops, false, 0, b[y].1);
            y += 1;
        }
    }
    ops
}

impl Resync {
    pub fn new() -> Self {
        Resync {
            scan: (0, 0),
            commit: (0, 0),
            last_common: (0, 0),
            open: None,
            tail: None,
            budget: FIRST_BUDGET,
            gold_pieces: vec![Piece {
                x0: 0,
                v0: 0,
                slope: 2,
            }],
            sys_pieces: vec![Piece {
                x0: 0,
                v0: 0,
                slope: 2,
            }],
            common: Vec::new(),
            pending: Default::default(),
            last: None,
            windows: Vec::new(),
            done: false,
        }
    }

    /// Whether one file has no more words to align: the rest of the other is one window.
    pub fn ended(&self, gold: bool) -> bool {
        self.tail.as_ref().is_some_and(|t| t.gold_ended == gold)
    }

    /// Decide a little more of the diff.
    pub fn step(&mut self, g: &mut Side, s: &mut Side) -> Result<Step, ResyncFailure> {
        if self.done {
            return Ok(Step::Done);
        }
        if self.tail.is_some() {
            return Ok(self.tail_step(g, s));
        }
        let (gp, sp) = self.scan;
        let k = common_prefix(text(g, gp, g.pos), text(s, sp, s.pos)) as u64;
        if k > 0 {
            self.equal_run(g, s, k);
            return Ok(Step::Progress);
        }
        let (g_end, s_end) = (gp == g.pos, sp == s.pos);
        if g_end && !g.eof {
            return Ok(Step::Load(true));
        }
        if s_end && !s.eof {
            return Ok(Step::Load(false));
        }
        if g_end && s_end {
            self.finish(g, s);
            return Ok(Step::Done);
        }
        if g_end || s_end {
            self.start_tail(g, s, g_end);
            return Ok(Step::Progress);
        }
        self.differ_here(g, s)
    }

    /// The texts differ at the scan point: look ahead for the nearest anchor, in more
    /// text or a larger budget if need be.
    fn differ_here(&mut self, g: &mut Side, s: &mut Side) -> Result<Step, ResyncFailure> {
        let (gp, sp) = self.scan;
        let want = self.budget + ANCHOR;
        if g.pos - gp < want && !g.eof {
            return Ok(Step::Load(true));
        }
        if s.pos - sp < want && !s.eof {
            return Ok(Step::Load(false));
        }
        match self.nearest_anchor(g, s) {
            Some((i, j)) => {
                self.budget = FIRST_BUDGET;
                let (ag, asys) = (gp + i, sp + j);
                let ahead = common_prefix(
                    text(g, ag, g.pos.min(ag + FIRST_BUDGET)),
                    text(s, asys, s.pos.min(asys + FIRST_BUDGET)),
                ) as u64;
                self.refine(g, s, i, j, ahead);
                Ok(Step::Progress)
            }
            None if self.budget >= MAX_LOOKAHEAD => {
                if g.eof || s.eof {
                    // one file ends within reach: the rest of both is one window
                    self.start_tail(g, s, g.eof);
                    return Ok(Step::Progress);
                }
                Err(self.failure(g, s))
            }
            None => {
                self.budget = (self.budget * 4).min(MAX_LOOKAHEAD);
                Ok(Step::Progress)
            }
        }
    }

    /// The nearest anchor from the scan point within the budget (gold and system bytes
    /// on), counting a short rest of a file that ends and, when both end, their common
    /// ending.
    fn nearest_anchor(&self, g: &Side, s: &Side) -> Option<(u64, u64)> {
        let (gp, sp) = self.scan;
        let (a, b) = (text(g, gp, g.pos), text(s, sp, s.pos));
        let mut best = find_anchor(a, b, self.budget);
        // a file that ends in fewer than ANCHOR bytes: its rest, or a suffix of it, is
        // enough of an anchor
        for (gold_short, x, y, eof) in [(true, a, b, g.eof), (false, b, a, s.eof)] {
            if eof && (x.len() as u64) < ANCHOR {
                if let Some(iy) = find_short_anchor(x, y, self.budget) {
                    let c = if gold_short { (0, iy) } else { (iy, 0) };
                    if best.map_or(true, |(i, j)| c.0 + c.1 < i + j) {
                        best = Some(c);
                    }
                }
            }
        }
        best = best.filter(|(i, j)| i + j <= self.budget);
        if g.eof && s.eof {
            let end = common_ending(a, b);
            if best.map_or(true, |(i, j)| end.0 + end.1 < i + j) {
                best = Some(end);
            }
        }
        best
    }

    /// No anchor within [`MAX_LOOKAHEAD`]: the lines and the texts where the files
    /// started to differ.
    fn failure(&self, g: &Side, s: &Side) -> ResyncFailure {
        let (gp, sp) = self.scan;
        let line = |side: &Side, x: u64| {
            let k = first_from(&side.flat.tokens, side.settled_tokens, x + 1, |t| t.start);
            side.flat
                .tokens
                .get(k.saturating_sub(1))
                .map_or(side.last_line, |t| t.line)
        };
        let show = |t: &[u8]| {
            String::from_utf8_lossy(&t[..t.len().min(80)])
                .chars()
                .take(20)
                .collect()
        };
        ResyncFailure {
            gold_line: line(g, gp),
            system_line: line(s, sp),
            gold_text: show(text(g, gp, g.pos)),
            system_text: show(text(s, sp, s.pos)),
        }
    }

    /// `k` more equal bytes from the scan point: commit to the shared token boundaries in
    /// them (closing an open window at the first).
    fn equal_run(&mut self, g: &mut Side, s: &mut Side, k: u64) {
        let (gp, sp) = self.scan;
        self.common_boundaries(g, s, gp, sp, k);
        self.scan = (gp + k, sp + k);
        let to_sys = |c: u64| c - gp + sp;
        // a boundary with an equal character after it is final: it closes an open window
        let mut moved = false;
        if self.open.is_some() {
            if let Some(&c) = self.common.iter().find(|&&c| c < gp + k) {
                self.close((c, to_sys(c)), g, s);
                moved = true;
            }
        }
        if self.open.is_none() {
            for &c in &self.common {
                let after = self.pending.back().map_or(self.commit.0, |p| p.0);
                if c > after && c < gp + k {
                    self.pending.push_back((c, to_sys(c)));
                }
            }
        }
        // commits lag behind the scan, so that a stretch missing from one file can still
        // slide back to the sentence it belongs to
        let mut target = None;
        while let Some(&p) = self.pending.front() {
            if p.0 + LAG > self.scan.0 {
                break;
            }
            target = Some(p);
            self.pending.pop_front();
        }
        if let Some(t) = target {
            self.push_equal(self.commit);
            self.commit = t;
            moved = true;
        }
        if moved {
            self.settle(g, s);
        }
        if let Some(&c) = self.common.last() {
            self.last_common = (c, to_sys(c));
        }
    }

    /// Shared token boundaries in `[gp, gp + k]` (gold offsets) into `self.common`.
    fn common_boundaries(&mut self, g: &Side, s: &Side, gp: u64, sp: u64, k: u64) {
        self.common.clear();
        let bound = |side: &Side, i: usize| -> Option<u64> {
            match side.flat.tokens.get(i) {
                Some(t) => Some(t.start),
                None if i == side.flat.tokens.len() => Some(side.pos),
                None => None,
            }
        };
        let mut gi = first_from(&g.flat.tokens, g.settled_tokens, gp, |t| t.start);
        let mut si = first_from(&s.flat.tokens, s.settled_tokens, sp, |t| t.start);
        while let (Some(a), Some(b)) = (bound(g, gi), bound(s, si)) {
            let (a, b) = (a - gp, b - sp);
            if a > k || b > k {
                break;
            }
            match a.cmp(&b) {
                std::cmp::Ordering::Less => gi += 1,
                std::cmp::Ordering::Greater => si += 1,
                std::cmp::Ordering::Equal => {
                    if self.common.last() != Some(&(gp + a)) {
                        self.common.push(gp + a);
                    }
                    gi += 1;
                    si += 1;
                }
            }
        }
    }

    /// An equal run starts at `at` (unless the last pieces already continue one there).
    fn push_equal(&mut self, at: (u64, u64)) {
        let v0 = at.0 + at.1;
        for (pieces, x0) in [(&mut self.gold_pieces, at.0), (&mut self.sys_pieces, at.1)] {
            let last = pieces.last().copied();
            let continues =
                last.is_some_and(|p| p.slope == 2 && p.x0 <= x0 && p.v0 + 2 * (x0 - p.x0) == v0);
            if !continues {
                pieces.push(Piece { x0, v0, slope: 2 });
            }
        }
    }

    /// A window from `ws` to `we` with gold's part first; an equal run follows.
    fn push_window(&mut self, ws: (u64, u64), we: (u64, u64)) {
        if we.0 > ws.0 {
            self.gold_pieces.push(Piece {
                x0: ws.0,
                v0: ws.0 + ws.1,
                slope: 1,
            });
        }
        if we.1 > ws.1 {
            self.sys_pieces.push(Piece {
                x0: ws.1,
                v0: we.0 + ws.1,
                slope: 1,
            });
        }
        self.gold_pieces.push(Piece {
            x0: we.0,
            v0: we.0 + we.1,
            slope: 2,
        });
        self.sys_pieces.push(Piece {
            x0: we.1,
            v0: we.0 + we.1,
            slope: 2,
        });
    }

    /// Between the scan point and the anchor `i` gold and `j` system bytes on, the
    /// characters both files keep (their longest common subsequence) are equal runs and
    /// the rest are differences, so that two changes close together stay two windows
    /// when a shared token boundary separates them. Large stretches are one difference.
    fn refine(&mut self, g: &mut Side, s: &mut Side, i: u64, j: u64, ahead: u64) {
        let (gp, sp) = self.scan;
        let (a, b) = (placed_chars(g, gp, i), placed_chars(s, sp, j));
        let (n, m) = (a.len(), b.len());
        let bytes = |v: &[Placed]| v.iter().map(|x| x.1).sum::<u64>();
        if n == 0 || m == 0 || n * m > REFINE_CELLS || bytes(&a) != i || bytes(&b) != j {
            self.differ(g, s, i, j, ahead);
            return;
        }
        let ops = diff_runs(&a, &b);
        // a slid window may end inside the next equal run: runs go to absolute targets
        let (mut tg, mut ts) = (gp, sp);
        for (k, &(eq, di, dj)) in ops.iter().enumerate() {
            if eq {
                (tg, ts) = (tg + di, ts + dj);
                if self.scan.0 < tg {
                    self.equal_run(g, s, tg - self.scan.0);
                }
            } else {
                let ahead = match ops.get(k + 1) {
                    Some(&(_, e, _)) => e,
                    None => ahead,
                };
                debug_assert_eq!(self.scan, (tg, ts));
                self.differ(g, s, di, dj, ahead);
                (tg, ts) = (tg + di, ts + dj);
            }
        }
    }

    /// The texts differ at the scan point and agree again `i` gold and `j` system bytes on,
    /// for at least `ahead` bytes after that.
    fn differ(&mut self, g: &mut Side, s: &mut Side, i: u64, j: u64, ahead: u64) {
        let (gp, sp) = self.scan;
        // the commit point stays where it is; a window closes or slides from there
        self.pending.clear();
        let anchor = (gp + i, sp + j);
        if self.open.is_none() && (i == 0 || j == 0) {
            if let Some(k) = self.slide(g, s, i, j, ahead) {
                let ws = (gp.wrapping_add_signed(k), sp.wrapping_add_signed(k));
                let we = (ws.0 + i, ws.1 + j);
                let (gd, sd) = (shown(text(g, ws.0, we.0)), shown(text(s, ws.1, we.1)));
                self.push_equal(self.commit);
                self.push_window(ws, we);
                self.record(g, s, ws, we, gd, sd);
                self.commit = we;
                self.last_common = we;
                let d = k.max(0) as u64;
                self.scan = (anchor.0 + d, anchor.1 + d);
                self.settle(g, s);
                return;
            }
        }
        let gold_diff = shown(text(g, gp, anchor.0));
        let system_diff = shown(text(s, sp, anchor.1));
        match &mut self.open {
            Some(o) => {
                for (acc, add) in [
                    (&mut o.gold_diff, gold_diff),
                    (&mut o.system_diff, system_diff),
                ] {
                    if acc.chars().count() < SHOWN && !add.is_empty() {
                        if !acc.is_empty() {
                            acc.push(' ');
                        }
                        acc.push_str(&add);
                    }
                }
            }
            None => {
                self.open = Some(Open {
                    start: self.last_common,
                    gold_diff,
                    system_diff,
                })
            }
        }
        self.scan = anchor;
    }

    /// A stretch of one file only (`i` gold or `j` system bytes at the scan point) may be
    /// slid over equal characters, back to the commit point or up to `ahead` bytes on:
    /// the shift (in bytes, negative = back) to where it covers whole tokens, whole
    /// sentences if possible, else the nearest.
    fn slide(&self, g: &Side, s: &Side, i: u64, j: u64, ahead: u64) -> Option<i64> {
        let (gp, sp) = self.scan;
        let (x_side, y_side, x, y, len, xc, yc) = if j == 0 {
            (g, s, gp, sp, i, self.commit.0, self.commit.1)
        } else {
            (s, g, sp, gp, j, self.commit.1, self.commit.0)
        };
        let is_bound = |side: &Side, at: u64| {
            at == side.pos || {
                let k = first_from(&side.flat.tokens, side.settled_tokens, at, |t| t.start);
                side.flat.tokens.get(k).is_some_and(|t| t.start == at)
            }
        };
        let is_sent = |side: &Side, at: u64| {
            (side.eof && at == side.pos) || {
                let k = first_from(&side.flat.sents, side.settled_sents, at, |t: &SentInfo| {
                    t.start
                });
                side.flat.sents.get(k).is_some_and(|t| t.start == at)
            }
        };
        let byte = |at: u64| text(x_side, at, at + 1).first().copied();
        let mut left = 0;
        while x - left > xc
            && y - left > yc
            && byte(x - left - 1).is_some()
            && byte(x - left - 1) == byte(x - left + len - 1)
        {
            left += 1;
        }
        let mut right = 0;
        while right < ahead && byte(x + right).is_some() && byte(x + right) == byte(x + len + right)
        {
            right += 1;
        }
        let mut best: Option<(bool, u64, i64)> = None;
        for k in -(left as i64)..=(right as i64) {
            let (a, c) = (x.wrapping_add_signed(k), y.wrapping_add_signed(k));
            if is_bound(x_side, a) && is_bound(x_side, a + len) && is_bound(y_side, c) {
                let whole = is_sent(x_side, a) && is_sent(x_side, a + len);
                let key = (!whole, k.unsigned_abs(), k);
                if best.map_or(true, |b| key < b) {
                    best = Some(key);
                }
            }
        }
        best.map(|b| b.2)
    }

    /// Close the open window at `we`.
    fn close(&mut self, we: (u64, u64), g: &mut Side, s: &mut Side) {
        let Some(o) = self.open.take() else { return };
        self.push_equal(self.commit);
        self.push_window(o.start, we);
        self.record(g, s, o.start, we, o.gold_diff, o.system_diff);
        self.commit = we;
        self.last_common = we;
    }

    /// Both files ended at the scan point.
    fn finish(&mut self, g: &mut Side, s: &mut Side) {
        let end = self.scan;
        self.pending.clear();
        if self.open.is_some() {
            self.close(end, g, s);
        } else {
            self.push_equal(self.commit);
        }
        self.commit = end;
        self.settle(g, s);
        self.done = true;
    }

    /// One file ended at the scan point and the other goes on: the rest of the other is
    /// one window, its part streamed as it is read.
    fn start_tail(&mut self, g: &mut Side, s: &mut Side, gold_ended: bool) {
        self.pending.clear();
        let (ws, gold_diff, system_diff) = match self.open.take() {
            Some(o) => (o.start, o.gold_diff, o.system_diff),
            None => (
                self.last_common,
                shown(text(g, self.scan.0, g.pos)),
                shown(text(s, self.scan.1, s.pos)),
            ),
        };
        self.push_equal(self.commit);
        let (g_len, s_len) = (g.pos, s.pos);
        // the ended file's part first, so the other's can start before its end is known
        let (ended_pieces, streaming_pieces, e0, s0, e_len) = if gold_ended {
            (
                &mut self.gold_pieces,
                &mut self.sys_pieces,
                ws.0,
                ws.1,
                g_len,
            )
        } else {
            (
                &mut self.sys_pieces,
                &mut self.gold_pieces,
                ws.1,
                ws.0,
                s_len,
            )
        };
        if e_len > e0 {
            ended_pieces.push(Piece {
                x0: e0,
                v0: ws.0 + ws.1,
                slope: 1,
            });
        }
        streaming_pieces.push(Piece {
            x0: s0,
            v0: e_len + s0,
            slope: 1,
        });
        let end = (g_len, s_len);
        let (mut streaming, mut ended) = (
            self.window_side(g, ws.0, end.0, gold_diff),
            self.window_side(s, ws.1, end.1, system_diff),
        );
        if gold_ended {
            std::mem::swap(&mut streaming, &mut ended);
        }
        // the streaming side, counted so far
        let other = if gold_ended { &*s } else { &*g };
        let from = if gold_ended { ws.1 } else { ws.0 };
        let before = (
            other.stats.tokens - streaming.tokens,
            other.stats.words - streaming.words,
            other.stats.sentences - streaming.sentences,
        );
        self.tail = Some(Tail {
            gold_ended,
            before,
            chars: 0,
            counted_to: from,
            streaming,
            ended,
        });
        self.commit = end;
        self.scan = end;
        self.open = None;
        self.tail_settle(g, s);
    }

    fn tail_settle(&mut self, g: &mut Side, s: &mut Side) {
        let Some(t) = &mut self.tail else { return };
        let other = if t.gold_ended { &*s } else { &*g };
        t.chars += char_count(text(other, t.counted_to, other.pos));
        t.counted_to = other.pos;
        if t.gold_ended {
            self.commit.1 = s.pos;
        } else {
            self.commit.0 = g.pos;
        }
        self.settle(g, s);
    }

    fn tail_step(&mut self, g: &mut Side, s: &mut Side) -> Step {
        self.tail_settle(g, s);
        let Some(mut t) = self.tail.take() else {
            return Step::Done;
        };
        let other = if t.gold_ended { &*s } else { &*g };
        if !other.eof {
            let streaming_is_gold = !t.gold_ended;
            self.tail = Some(t);
            return Step::Load(streaming_is_gold);
        }
        let mut side = std::mem::take(&mut t.streaming);
        side.tokens = other.stats.tokens - t.before.0;
        side.words = other.stats.words - t.before.1;
        side.sentences = other.stats.sentences - t.before.2;
        side.chars = t.chars;
        side.last_line = other.last_line.max(side.first_line);
        let (gold, system) = if t.gold_ended {
            (std::mem::take(&mut t.ended), side)
        } else {
            (side, std::mem::take(&mut t.ended))
        };
        self.windows.push(ResyncWindow {
            cause: if t.gold_ended {
                ResyncCause::TruncatedGold
            } else {
                ResyncCause::TruncatedSystem
            },
            gold,
            system,
        });
        self.done = true;
        Step::Done
    }

    /// One file's part `[a, b)` of a window, from its unsettled items.
    fn window_side(&self, side: &Side, a: u64, b: u64, differing: String) -> WindowSide {
        let t0 = first_from(&side.flat.tokens, side.settled_tokens, a, |t| t.start);
        let t1 = first_from(&side.flat.tokens, side.settled_tokens, b, |t| t.start);
        let w0 = first_from(&side.flat.words, side.settled_words, a, |w| w.start);
        let w1 = first_from(&side.flat.words, side.settled_words, b, |w| w.start);
        let s0 = first_from(&side.flat.sents, side.settled_sents, a, |x| x.start);
        let s1 = first_from(&side.flat.sents, side.settled_sents, b, |x| x.start);
        let at = side.flat.tokens.get(t0).map_or(side.last_line, |t| t.line);
        let t = text(side, a, b);
        WindowSide {
            first_line: at,
            last_line: if t1 > t0 {
                side.flat.tokens[t1 - 1].line
            } else {
                at
            },
            chars: char_count(t),
            tokens: (t1 - t0) as u64,
            words: (w1 - w0) as u64,
            sentences: (s1 - s0) as u64,
            text: shown(t),
            differing,
        }
    }

    /// Describe and keep a closed window `ws..we`.
    fn record(
        &mut self,
        g: &Side,
        s: &Side,
        ws: (u64, u64),
        we: (u64, u64),
        gd: String,
        sd: String,
    ) {
        let mut gold = self.window_side(g, ws.0, we.0, gd);
        let mut system = self.window_side(s, ws.1, we.1, sd);
        let (mut gt, mut st) = (text(g, ws.0, we.0).to_vec(), text(s, ws.1, we.1).to_vec());
        let whole = |side: &Side, a: u64, b: u64| {
            let starts = |x: u64| {
                let k = first_from(&side.flat.sents, side.settled_sents, x, |t| t.start);
                side.flat.sents.get(k).is_some_and(|t| t.start == x)
            };
            starts(a) && (starts(b) || (side.eof && b == side.pos))
        };
        let mut sentences = (
            st.is_empty() && whole(g, ws.0, we.0),
            gt.is_empty() && whole(s, ws.1, we.1),
        );
        // a window that starts where the last one ended is the same stretch (as `à`
        // against `a` + U+0300, seen as a deletion and an insertion)
        // (`last` is set again below for every window)
        if let Some((_, mut pg, mut ps)) = self.last.take().filter(|l| l.0 == ws) {
            if let Some(prev) = self.windows.pop() {
                gold = join(prev.gold, gold);
                system = join(prev.system, system);
            }
            pg.extend_from_slice(&gt);
            ps.extend_from_slice(&st);
            (gt, st) = (pg, ps);
            sentences = (false, false);
        }
        let (gt, st) = (&gt[..], &st[..]);
        let cause = if sentences.0 {
            ResyncCause::MissingSentences
        } else if sentences.1 {
            ResyncCause::ExtraSentences
        } else if without_spaces(gt) == without_spaces(st) {
            ResyncCause::WhitespaceInToken
        } else if st.is_empty() {
            ResyncCause::MissingText
        } else if gt.is_empty() {
            ResyncCause::ExtraText
        } else if String::from_utf8_lossy(gt)
            .nfc()
            .eq(String::from_utf8_lossy(st).nfc())
        {
            ResyncCause::Normalization
        } else {
            ResyncCause::OtherCharacters
        };
        // the texts are kept for a possible merge only while short
        let keep = |t: &[u8]| {
            if t.len() <= 4096 {
                t.to_vec()
            } else {
                t[..4096].to_vec()
            }
        };
        self.last = Some((we, keep(gt), keep(st)));
        self.windows.push(ResyncWindow {
            cause,
            gold,
            system,
        });
    }

    /// Map every item ending at or before the commit point to virtual offsets, and let
    /// go of text and pieces no longer needed.
    fn settle(&mut self, g: &mut Side, s: &mut Side) {
        settle_side(g, &mut self.gold_pieces, self.commit.0);
        settle_side(s, &mut self.sys_pieces, self.commit.1);
        for (side, k) in [(g, self.commit.0), (s, self.commit.1)] {
            let cut = k.saturating_sub(side.text_base) as usize;
            if cut > 1 << 16 && cut * 2 > side.flat.text.len() {
                side.flat.text.drain(..cut);
                side.text_base += cut as u64;
            }
        }
    }
}

/// Something with a span of text offsets (tokens, words, sentences).
trait Spanned {
    fn span(&mut self) -> (&mut u64, &mut u64);
}

impl Spanned for Tok {
    fn span(&mut self) -> (&mut u64, &mut u64) {
        (&mut self.start, &mut self.end)
    }
}

impl Spanned for W {
    fn span(&mut self) -> (&mut u64, &mut u64) {
        (&mut self.start, &mut self.end)
    }
}

impl Spanned for SentInfo {
    fn span(&mut self) -> (&mut u64, &mut u64) {
        (&mut self.start, &mut self.end)
    }
}

/// Map `items[from..]` that end by `upto` to virtual offsets; the first one left.
fn settle_items<T: Spanned>(items: &mut [T], from: usize, pieces: &[Piece], upto: u64) -> usize {
    let mut k = from;
    while let Some(x) = items.get_mut(k) {
        let (start, end) = x.span();
        if *end > upto {
            break;
        }
        *start = map(pieces, *start, true);
        *end = map(pieces, *end, false);
        k += 1;
    }
    k
}

/// Map a side's items ending by `upto`; drop pieces before its first unmapped item.
fn settle_side(side: &mut Side, pieces: &mut Vec<Piece>, upto: u64) {
    side.settled_tokens = settle_items(&mut side.flat.tokens, side.settled_tokens, pieces, upto);
    side.settled_words = settle_items(&mut side.flat.words, side.settled_words, pieces, upto);
    side.settled_sents = settle_items(&mut side.flat.sents, side.settled_sents, pieces, upto);
    if pieces.len() > 64 {
        let low = [
            side.flat.tokens.get(side.settled_tokens).map(|t| t.start),
            side.flat.sents.get(side.settled_sents).map(|t| t.start),
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(upto)
        .min(upto);
        let keep_from = pieces.partition_point(|p| p.x0 <= low).saturating_sub(1);
        pieces.drain(..keep_from);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::eval_text;
    use super::super::{AlignMode, UdOptions, UdResult};
    use super::*;
    use crate::ud::UdMetric;

    /// Sentences of space-separated tokens; each word's head is the word before it.
    pub(super) fn conllu(sents: &[&str]) -> String {
        let mut o = String::new();
        for s in sents {
            for (k, w) in s.split(' ').enumerate() {
                let w = w.replace('~', " ");
                o.push_str(&format!(
                    "{}\t{w}\t{w}\tX\t_\t_\t{k}\t{}\t_\t_\n",
                    k + 1,
                    if k == 0 { "root" } else { "dep" }
                ));
            }
            o.push('\n');
        }
        o
    }

    fn resync(g: &[&str], s: &[&str]) -> UdResult {
        let opts = UdOptions {
            align: AlignMode::Resync,
            keep_sentences: true,
            ..UdOptions::default()
        };
        eval_text(&conllu(g), &conllu(s), &opts).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn strict(g: &[&str], s: &[&str]) -> UdResult {
        let opts = UdOptions {
            keep_sentences: true,
            ..UdOptions::default()
        };
        eval_text(&conllu(g), &conllu(s), &opts).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn equal_texts_give_the_strict_counts() {
        let g = ["The cat sleeps .", "Dogs bark loudly ."];
        let s = ["The cat sleeps", ". Dogs", "bark loud ly ."];
        let (a, b) = (strict(&g, &s), resync(&g, &s));
        assert_eq!(a.counts, b.counts);
        assert_eq!(a.sentences, b.sentences);
        assert_eq!(b.resync.as_deref(), Some(&[][..]));
    }

    #[test]
    fn missing_sentence_is_exactly_that_sentence() {
        let g = ["The cat sleeps .", "The dog sleeps .", "Birds sing ."];
        let s = ["The cat sleeps .", "Birds sing ."];
        let r = resync(&g, &s);
        let w = r.counts.metrics[UdMetric::Words];
        assert_eq!((w.correct, w.gold, w.system), (7, 11, 7));
        assert_eq!(r.counts.metrics[UdMetric::Las].correct, 7);
        let win = r.resync.unwrap();
        assert_eq!(win.len(), 1, "{win:?}");
        assert_eq!(win[0].cause, ResyncCause::MissingSentences);
        assert_eq!(
            (
                win[0].gold.words,
                win[0].gold.sentences,
                win[0].system.words
            ),
            (4, 1, 0)
        );
        assert_eq!(win[0].gold.text, "Thedogsleeps.");
        // and the other way round
        let r = resync(&s, &g);
        let win = r.resync.unwrap();
        assert_eq!(win[0].cause, ResyncCause::ExtraSentences);
        assert_eq!(r.counts.metrics[UdMetric::Words].correct, 7);
    }

    #[test]
    fn changed_characters_cost_their_tokens() {
        let g = ["Dogs bark loudly ."];
        let s = ["Dogs bark loudlx ."];
        let r = resync(&g, &s);
        let w = r.counts.metrics[UdMetric::Words];
        assert_eq!((w.correct, w.gold, w.system), (3, 4, 4));
        let win = &r.resync.unwrap()[0];
        assert_eq!(win.cause, ResyncCause::OtherCharacters);
        assert_eq!(
            (win.gold.text.as_str(), win.system.text.as_str()),
            ("loudly", "loudlx")
        );
        assert_eq!(
            (win.gold.differing.as_str(), win.system.differing.as_str()),
            ("y", "x")
        );
    }

    #[test]
    fn nfd_and_whitespace_are_recognised() {
        let r = resync(&["Un café noir ."], &["Un cafe\u{301} noir ."]);
        let win = r.resync.unwrap();
        assert_eq!(win.len(), 1);
        assert_eq!(win[0].cause, ResyncCause::Normalization);
        assert_eq!(r.counts.metrics[UdMetric::Words].correct, 3);
        let r = resync(&["in New~York now"], &["in New_York now"]);
        let win = r.resync.unwrap();
        assert_eq!(win[0].cause, ResyncCause::WhitespaceInToken);
        assert_eq!(r.counts.metrics[UdMetric::Words].correct, 2);
    }

    #[test]
    fn truncated_files() {
        let g = ["The cat sleeps .", "The dog sleeps .", "Birds sing ."];
        let r = resync(&g, &g[..1]);
        let w = r.counts.metrics[UdMetric::Words];
        assert_eq!((w.correct, w.gold, w.system), (4, 11, 4));
        let win = r.resync.unwrap();
        assert_eq!(win.len(), 1);
        assert_eq!(win[0].cause, ResyncCause::TruncatedSystem);
        assert_eq!(
            (win[0].gold.words, win[0].gold.sentences, win[0].gold.chars),
            (7, 2, 23)
        );
        let r = resync(&g[..2], &g);
        assert_eq!(r.resync.unwrap()[0].cause, ResyncCause::TruncatedGold);
        // cut inside a token
        let r = resync(&g, &["The cat sleeps .", "The do"]);
        let w = r.counts.metrics[UdMetric::Words];
        assert_eq!((w.correct, w.gold, w.system), (5, 11, 6));
    }

    #[test]
    fn empty_files() {
        let r = resync(&[], &["A b ."]);
        assert_eq!(r.counts.metrics[UdMetric::Words].system, 3);
        assert_eq!(r.resync.unwrap()[0].cause, ResyncCause::TruncatedGold);
    }
}
