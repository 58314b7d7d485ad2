//! Bracketed trees (Penn Treebank style): `(S (NP (DT the) (NN dog)) (VP (VBZ barks)))`.
//!
//! A *pre-terminal* is `(LABEL word)`; any other bracket is a *node* over the words it
//! covers. Labels and words end at white space or a parenthesis, as EVALB reads them.
//!
//! Two layouts are read:
//! - **one tree per line** (EVALB's reading): a line is a sentence, whatever it holds
//!   (several top-level brackets, or none: a blank line is a sentence without words);
//! - **multi-line** (`.mrg` files): a tree runs from a `(` at depth 0 to its matching
//!   `)`, across lines; blank lines separate nothing.
//!
//! [`Layout::Auto`] decides from what the file shows, not from its first tree: a line
//! whose trees all close on it reads the same either way, so the first tree still open at
//! the end of its line decides. If the next non-blank line goes on with it (starts with
//! white space or `)`, as the indented lines of `.mrg` files do), the file is multi-line;
//! else it is one tree per line, that line's bracket left open. A file without such a
//! tree is one tree per line. The lines read ahead to decide are kept (a one-tree-per-line
//! file whose trees all close is held whole until its end). A tree with
//! a problem (an extra `)`, a bracket left open, text outside any bracket) is still
//! returned, with its problems, so that the caller can count the sentence as an error
//! and carry on; [`BracketTree::extra_close`] and [`BracketTree::unclosed`] count its
//! unbalanced parentheses.
//!
//! Trees without POS tags, as language models and raw-text parsers write them (and as
//! the Penn Treebank's `.prd` files are): a word directly under a phrase, beside other
//! words or brackets (`(S (NP the cat) (VP sat))`), makes the whole tree *untagged*
//! ([`BracketTree::untagged`]): every `(X …)` in it is a phrase, `(VP sat)` a phrase over
//! one word, and every word is a [`Leaf`] without a tag ([`Leaf::tagged`] false, its
//! label empty). A tree without such a word reads as EVALB reads it: `(X word)` is a
//! pre-terminal, X the word's tag.
//!
//! A UTF-8 byte-order mark at the start and CR LF line ends are accepted (the trees read
//! the same as without them); [`BracketReader::warnings`] gives one warning for each.
//! [`BracketReader::sniff`] refuses a file that is not bracketed trees at all (binary
//! data, CoNLL columns, word alignments) with one message that says what it looks like.

use std::io::BufRead;
use std::sync::Arc;

use crate::error::{Diagnostic, Error, ErrorKind, Position};

/// How trees are laid out in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// One tree per line unless a tree goes on on the next line (decided from the first
    /// tree left open at a line end, wherever it is in the file).
    #[default]
    Auto,
    /// One sentence per line (EVALB).
    Line,
    /// Trees across lines (`.mrg`).
    MultiLine,
}

/// A byte range in [`BracketTree::text`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    /// Start byte.
    pub start: u32,
    /// End byte (exclusive).
    pub end: u32,
}

/// A pre-terminal (tag and word), or a word without a tag in an untagged tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leaf {
    /// The tag (the pre-terminal's label; empty, at the word, without a tag).
    pub label: Span,
    /// The word.
    pub word: Span,
    /// Byte offset of its `(` (of the word, without a tag).
    pub at: u32,
    /// Whether the word has a tag: false in an untagged tree ([`BracketTree::untagged`]).
    pub tagged: bool,
}

/// A bracket over words: `leaves[start..end]`, in the order the brackets open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    /// The label as written.
    pub label: Span,
    /// First leaf.
    pub start: u32,
    /// One past the last leaf.
    pub end: u32,
    /// Byte offset of its `(`.
    pub at: u32,
    /// Byte offset of its `)` (the end of the text when it is left open).
    pub close: u32,
    /// The enclosing node, if any.
    pub parent: Option<u32>,
}

/// One sentence's tree (or forest, on a line with several top-level brackets).
#[derive(Debug, Clone, Default)]
pub struct BracketTree {
    /// The text the tree was read from (its lines joined by `\n`).
    pub text: String,
    /// First line, 1-based.
    pub line: u64,
    /// Byte offsets in `text` where each line after the first starts.
    line_starts: Vec<u32>,
    /// Pre-terminals, left to right.
    pub leaves: Vec<Leaf>,
    /// Nodes, in the order they open.
    pub nodes: Vec<Node>,
    /// Why the tree cannot be trusted (empty when it is well formed).
    pub problems: Vec<Diagnostic>,
    /// The tree has words without a POS tag: every `(X …)` in it is a phrase.
    pub untagged: bool,
    /// `)` without an open `(`.
    pub extra_close: u32,
    /// `(` still open at the end of the tree.
    pub unclosed: u32,
}

impl BracketTree {
    /// The text of a span.
    #[inline]
    pub fn s(&self, span: Span) -> &str {
        &self.text[span.start as usize..span.end as usize]
    }

    /// Line and column (1-based, in characters) of a byte offset.
    pub fn line_col(&self, at: u32) -> (u64, u32) {
        line_col(&self.text, self.line, &self.line_starts, at)
    }

    fn clear(&mut self) {
        self.text.clear();
        self.line_starts.clear();
        self.leaves.clear();
        self.nodes.clear();
        self.problems.clear();
        self.untagged = false;
        self.extra_close = 0;
        self.unclosed = 0;
    }

    /// Whether the parentheses do not balance (an extra `)` or a `(` left open).
    pub fn unbalanced(&self) -> bool {
        self.extra_close + self.unclosed > 0
    }
}

/// Line and column (1-based, in characters) of byte `at` of `text`, whose first line is
/// `line` and whose other lines start at `line_starts`.
fn line_col(text: &str, line: u64, line_starts: &[u32], at: u32) -> (u64, u32) {
    let k = line_starts.partition_point(|&s| s <= at);
    let start = if k == 0 { 0 } else { line_starts[k - 1] };
    let col = text[start as usize..at as usize].chars().count() as u32 + 1;
    (line + k as u64, col)
}

/// Reads [`BracketTree`]s one by one.
pub struct BracketReader<R> {
    rdr: R,
    path: Arc<str>,
    layout: Layout,
    line: u64,
    buf: String,
    stack: Vec<u32>,
    /// Lines of the current tree that were not UTF-8.
    bad_utf8: Vec<u64>,
    /// The file started with a byte-order mark.
    bom: bool,
    /// Lines that ended in CR LF, and the first of them.
    crlf_lines: u64,
    first_crlf: u64,
    /// Lines read ahead to decide the layout (`Auto`), each with whether it was not UTF-8.
    peeked: std::collections::VecDeque<(String, bool)>,
    /// Read as EVALB: no tree without tags (a word directly under a phrase is a problem).
    tags_only: bool,
    /// The first line of a tree read across lines that the end of the file left open
    /// (it took every line after it).
    open_at_end: Option<u64>,
    /// Read bytes as EVALB: any encoding (see [`BracketReader::raw_bytes`]).
    raw_bytes: bool,
    /// The last line, when the file ends in the middle of it (no line end).
    unterminated: Option<(u64, String)>,
}

impl<R> std::fmt::Debug for BracketReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BracketReader")
            .field("path", &self.path)
            .field("line", &self.line)
            .finish_non_exhaustive()
    }
}

fn is_space(b: u8) -> bool {
    // C's isspace in the "C" locale, as EVALB
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

fn is_terminator(b: u8) -> bool {
    is_space(b) || b == b'(' || b == b')'
}

/// What a file that is not bracketed trees looks like, and what to do with it.
fn looks_like(head: &[u8]) -> (Option<&'static str>, &'static str) {
    let text = String::from_utf8_lossy(head);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .collect();
    let data: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.starts_with('#'))
        .collect();
    let numeric_id = |f: &str| {
        !f.is_empty()
            && f.bytes().next().is_some_and(|b| b.is_ascii_digit())
            && f.bytes()
                .all(|b| b.is_ascii_digit() || b == b'-' || b == b'.')
    };
    if let Some(l) = data.first() {
        let fields: Vec<&str> = l.split('\t').collect();
        if fields.len() >= 6 && numeric_id(fields[0]) {
            let what = match fields.len() {
                10 => "CoNLL-U or CoNLL-X (10 tab-separated columns)",
                n if n >= 13 => "CoNLL-2009 (tab-separated columns)",
                _ => "CoNLL-style tab-separated columns",
            };
            return (
                Some(what),
                "dependency files are scored with `treeval deps` or `treeval ud`; `treeval brackets` reads constituency trees such as `(S (NP (DT the) (NN dog)) (VP (VBZ barks)))`",
            );
        }
        let toks: Vec<&str> = l.split_ascii_whitespace().collect();
        let pharaoh = !toks.is_empty()
            && toks.iter().all(|t| {
                let t = t.trim_end_matches(['?', '!']);
                t.split_once('-')
                    .is_some_and(|(a, b)| numeric_id(a) && numeric_id(b))
            });
        let naacl = (3..=5).contains(&toks.len())
            && toks[..3]
                .iter()
                .all(|t| t.bytes().all(|b| b.is_ascii_digit()));
        if pharaoh || naacl {
            return (
                Some("a word alignment (Pharaoh or NAACL lines)"),
                "word alignments are scored with `treeval align`",
            );
        }
        if l.trim_start().starts_with('{') {
            return (
                Some("trees in APTED's notation ({a{b}{c}})"),
                "tree pairs in APTED's notation are measured with `treeval ted --distance`",
            );
        }
    }
    if lines.first().is_some_and(|l| l.starts_with('#')) {
        return (
            Some("CoNLL-U (comment lines starting with '#')"),
            "dependency files are scored with `treeval deps` or `treeval ud`; `treeval brackets` reads constituency trees such as `(S (NP (DT the) (NN dog)) (VP (VBZ barks)))`",
        );
    }
    (
        None,
        "write one tree per line, e.g. `(S (NP (DT the) (NN dog)) (VP (VBZ barks)))`, or .mrg trees across lines",
    )
}

/// Depth change of a line (opening minus closing brackets).
fn balance(line: &str) -> i64 {
    line.bytes().fold(0i64, |d, b| match b {
        b'(' => d + 1,
        b')' => d - 1,
        _ => d,
    })
}

impl<R: BufRead> BracketReader<R> {
    /// Read from `rdr`, naming it `path` in messages.
    pub fn new(rdr: R, path: &str, layout: Layout) -> Self {
        BracketReader {
            rdr,
            path: Arc::from(path),
            layout,
            line: 0,
            buf: String::new(),
            stack: Vec::new(),
            bad_utf8: Vec::new(),
            bom: false,
            crlf_lines: 0,
            first_crlf: 0,
            peeked: std::collections::VecDeque::new(),
            tags_only: false,
            open_at_end: None,
            raw_bytes: false,
            unterminated: None,
        }
    }

    /// Read every word as EVALB does, in `(TAG word)` only: a word directly under a
    /// phrase is a problem of the tree (`--compat evalb`), not a tree without tags.
    pub fn tags_only(mut self, on: bool) -> Self {
        self.tags_only = on;
        self
    }

    /// Read bytes as EVALB (a C program) does, whatever the encoding: a word is its bytes,
    /// and two words are the same when their bytes are (`--compat evalb`). Bytes that are
    /// not UTF-8 are kept as the characters U+10FF80–U+10FFFF (one per byte) instead of
    /// making the tree a problem. Open the input with [`crate::input::Bytes::Raw`].
    pub fn raw_bytes(mut self, on: bool) -> Self {
        self.raw_bytes = on;
        self
    }

    /// Lines read so far (all of them once [`BracketReader::read_tree`] returned false).
    pub fn lines(&self) -> u64 {
        self.line
    }

    /// What was accepted but deserves a word: a byte-order mark, CR LF line ends, a last
    /// line cut by the end of the file (one warning each, naming the file). Complete once the file is read to its end.
    pub fn warnings(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        if self.bom {
            out.push(
                Diagnostic::warning(Position::new(self.path.clone(), 1, 1), ErrorKind::ByteOrderMark)
                    .with_hint("save the file as UTF-8 without BOM (the BOM is skipped here, but EVALB and other tools choke on it)"),
            );
        }
        if let Some((line, last)) = &self.unterminated {
            out.push(crate::input::ends_mid_line(&self.path, *line, last));
        }
        if self.crlf_lines > 0 {
            out.push(
                Diagnostic::warning(
                    Position::new(self.path.clone(), self.first_crlf, 1),
                    ErrorKind::CarriageReturn {
                        lines: self.crlf_lines,
                    },
                )
                .with_hint("convert the line endings with `dos2unix` (treeval ignores the CRs; the scores are those of the LF file)"),
            );
        }
        out
    }

    /// Refuse a file that is not bracketed trees: binary data, or a first line that is
    /// not a tree (CoNLL columns, a word alignment, plain text). Looks at the start of the
    /// input only, before any tree is read; an empty or blank file passes.
    pub fn sniff(&mut self) -> Result<(), Error> {
        const WINDOW: usize = 64 * 1024;
        let head = self.rdr.fill_buf().map_err(|e| Error::io(&self.path, &e))?;
        let head = &head[..head.len().min(WINDOW)];
        let head = head
            .strip_prefix(b"\xEF\xBB\xBF".as_slice())
            .unwrap_or(head);
        let fail = |line: u64, msg: String, hint: &str| {
            Err(Error::single(
                Diagnostic::error(
                    Position::new(self.path.clone(), line, 1),
                    ErrorKind::Other(msg),
                )
                .with_hint(hint),
            ))
        };
        let controls = head
            .iter()
            .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
            .count();
        if let Some(at) = head.iter().position(|&b| b == 0) {
            let line = 1 + head[..at].iter().filter(|&&b| b == b'\n').count() as u64;
            return fail(
                line,
                format!("expected bracketed trees (text), found binary data (a NUL byte at byte {at}): this is not a text file"),
                "give a file of trees such as `(S (NP (DT the) (NN dog)) (VP (VBZ barks)))`; gzip and zstd files are read as they are",
            );
        }
        if controls * 20 > head.len() {
            return fail(
                1,
                format!("expected bracketed trees (text), found binary data ({controls} control bytes in the first {} bytes): this is not a text file", head.len()),
                "give a file of trees such as `(S (NP (DT the) (NN dog)) (VP (VBZ barks)))`; gzip and zstd files are read as they are",
            );
        }
        // the first line with something on it
        let mut first = None;
        for (k, raw) in head.split(|&b| b == b'\n').enumerate() {
            let line = String::from_utf8_lossy(raw);
            let t = line.trim();
            if !t.is_empty() {
                first = Some((k as u64 + 1, t.to_owned()));
                break;
            }
        }
        let Some((line, text)) = first else {
            return Ok(());
        };
        if text.starts_with('(') {
            return Ok(());
        }
        let shown: String = text.chars().take(40).collect();
        let (what, hint) = looks_like(head);
        match what {
            Some(what) => fail(
                line,
                format!("expected bracketed trees, found a file that looks like {what}"),
                hint,
            ),
            None => fail(
                line,
                format!("expected a bracketed tree starting with '(', found '{shown}'"),
                hint,
            ),
        }
    }

    /// The path as given.
    pub fn path(&self) -> &Arc<str> {
        &self.path
    }

    /// The layout in use (under [`Layout::Auto`], decided by the first tree read).
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The first line of a tree read across lines that was still open at the end of the
    /// file, having taken every line after it (a `)` missing): complete once the file is
    /// read to its end.
    pub fn open_at_end(&self) -> Option<u64> {
        self.open_at_end
    }

    fn next_line(&mut self) -> Result<bool, Error> {
        if let Some((line, bad)) = self.peeked.pop_front() {
            self.buf = line;
            self.line += 1;
            if bad {
                self.bad_utf8.push(self.line);
            }
            return Ok(true);
        }
        self.read_line()
    }

    /// Read the input's next line into `buf` (false at its end).
    fn read_line(&mut self) -> Result<bool, Error> {
        self.buf.clear();
        let mut bytes = Vec::new();
        let n = self
            .rdr
            .read_until(b'\n', &mut bytes)
            .map_err(|e| Error::io(&self.path, &e))?;
        if n == 0 {
            return Ok(false);
        }
        self.line += 1;
        if bytes.last() != Some(&b'\n') {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            self.unterminated = Some((self.line, text));
        }
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
            if bytes.last() == Some(&b'\r') {
                self.crlf_lines += 1;
                if self.first_crlf == 0 {
                    self.first_crlf = self.line;
                }
            }
        }
        while bytes.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
            bytes.pop();
        }
        if self.line == 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
            bytes.drain(..3);
            self.bom = true;
        }
        match String::from_utf8(bytes) {
            Ok(s) => self.buf = s,
            Err(e) if self.raw_bytes => self.buf = crate::encoding::bytes_as_text(e.as_bytes()),
            Err(e) => {
                // keep going on the readable part; the tree reports the problem
                self.buf = String::from_utf8_lossy(e.as_bytes()).into_owned();
                self.bad_utf8.push(self.line);
            }
        }
        Ok(true)
    }

    /// The layout of an `Auto` file, from what it shows (see the module's notes): lines
    /// are read ahead, and kept, up to the first tree left open at a line end and the next
    /// non-blank line, which goes on with it (white space or `)` first: multi-line) or
    /// not (one tree per line); a file without such a tree is one tree per line.
    fn decide(&mut self) -> Result<Layout, Error> {
        let (line, bad) = (self.line, self.bad_utf8.len());
        let mut open = false;
        let mut layout = Layout::Line;
        while self.read_line()? {
            let text = std::mem::take(&mut self.buf);
            let blank = text.bytes().all(is_space);
            let goes_on = text
                .bytes()
                .next()
                .is_some_and(|b| is_space(b) || b == b')');
            let decided = open && !blank;
            if !blank {
                open = balance(&text) > 0;
            }
            self.peeked.push_back((text, self.bad_utf8.len() > bad));
            self.bad_utf8.truncate(bad);
            if decided {
                if goes_on {
                    layout = Layout::MultiLine;
                }
                break;
            }
        }
        self.line = line;
        Ok(layout)
    }

    /// The next tree into `t`; false at the end of the input.
    pub fn read_tree(&mut self, t: &mut BracketTree) -> Result<bool, Error> {
        t.clear();
        self.bad_utf8.clear();
        if self.layout == Layout::Auto {
            self.layout = self.decide()?;
        }
        // the first line of the tree (skipping blank lines between multi-line trees; one
        // tree per line, a blank line is a sentence without words)
        loop {
            if !self.next_line()? {
                return Ok(false);
            }
            let blank = self.buf.bytes().all(is_space);
            if !(blank && self.layout == Layout::MultiLine) {
                break;
            }
        }
        t.line = self.line;
        t.text.push_str(&self.buf);
        if self.layout == Layout::MultiLine {
            let mut depth = balance(&self.buf);
            while depth > 0 && self.next_line()? {
                t.line_starts.push(t.text.len() as u32 + 1);
                t.text.push('\n');
                t.text.push_str(&self.buf);
                depth += balance(&self.buf);
            }
            if depth > 0 {
                self.open_at_end = Some(t.line);
            }
        }
        self.parse(t);
        Ok(true)
    }

    /// Parse `t.text` into leaves and nodes, recording problems; again without tags when
    /// a word stands directly under a phrase.
    fn parse(&mut self, t: &mut BracketTree) {
        let mut untagged = false;
        let (problems, extra_close, unclosed) = loop {
            self.stack.clear();
            t.leaves.clear();
            t.nodes.clear();
            let mut parse = Parse {
                b: t.text.as_bytes(),
                text: &t.text,
                line: t.line,
                line_starts: &t.line_starts,
                leaves: &mut t.leaves,
                nodes: &mut t.nodes,
                stack: &mut self.stack,
                path: &self.path,
                problems: Vec::new(),
                untagged,
                tags_only: self.tags_only,
                bare: false,
                extra_close: 0,
            };
            parse.brackets();
            if parse.bare && !untagged && !self.tags_only {
                untagged = true;
                continue;
            }
            let unclosed = parse.stack.len() as u32;
            if unclosed > 0 {
                parse.close_all(self.layout);
            }
            break (parse.problems, parse.extra_close, unclosed);
        };
        t.untagged = untagged;
        t.extra_close = extra_close;
        t.unclosed = unclosed;
        let mut problems = problems;
        for line in self.bad_utf8.drain(..) {
            problems.push(Diagnostic::error(
                Position::new(self.path.clone(), line, 1),
                ErrorKind::InvalidUtf8,
            ));
        }
        t.problems = problems;
    }
}

/// The state of parsing one tree's text: the leaves and nodes read, the brackets still
/// open, and the problems found.
struct Parse<'a> {
    /// The text, as bytes.
    b: &'a [u8],
    text: &'a str,
    /// The first line of the text, and where its other lines start (for positions).
    line: u64,
    line_starts: &'a [u32],
    leaves: &'a mut Vec<Leaf>,
    nodes: &'a mut Vec<Node>,
    /// The nodes still open, innermost last.
    stack: &'a mut Vec<u32>,
    path: &'a Arc<str>,
    problems: Vec<Diagnostic>,
    /// Reading without tags: every `(X …)` is a phrase, every word a leaf without a tag.
    untagged: bool,
    /// Reading as EVALB ([`BracketReader::tags_only`]).
    tags_only: bool,
    /// A word was found directly under a phrase (reading with tags).
    bare: bool,
    /// `)` without an open `(`.
    extra_close: u32,
}

impl Parse<'_> {
    /// Every bracket, pre-terminal and stray text of the tree, left to right.
    fn brackets(&mut self) {
        let b = self.b;
        let mut p = 0usize;
        while p < b.len() {
            let c = b[p];
            if is_space(c) {
                p += 1;
            } else if c == b'(' {
                p = self.open(p);
            } else if c == b')' {
                self.close(p);
                p += 1;
            } else {
                p = self.stray_text(p);
            }
        }
    }

    /// Record an error at byte `at` of the tree, with a hint unless `hint` is empty.
    fn problem(&mut self, at: usize, msg: String, hint: &str) {
        let (line, col) = line_col(self.text, self.line, self.line_starts, at as u32);
        let mut d = Diagnostic::error(
            Position::new(self.path.clone(), line, col),
            ErrorKind::Other(msg),
        )
        .of_kind(crate::WarningKind::MalformedTree);
        if !hint.is_empty() {
            d = d.with_hint(hint);
        }
        self.problems.push(d);
    }

    /// The `(` at `open`: a pre-terminal `(LABEL word)` or a node. Returns where parsing
    /// goes on.
    #[inline]
    fn open(&mut self, open: usize) -> usize {
        let (b, n) = (self.b, self.b.len());
        let ls = open + 1;
        let mut p = token_end(b, ls);
        let label = Span {
            start: ls as u32,
            end: p as u32,
        };
        // `(LABEL word)` is a pre-terminal (a phrase over one word, without tags)
        if !self.untagged && p < n && is_space(b[p]) {
            let ws = space_end(b, p);
            let q = token_end(b, ws);
            if q < n && b[q] == b')' {
                self.leaf(open, label, ws, q);
                return q + 1;
            }
            if q > ws {
                return self.second_element(label, ws, q);
            }
            p = q;
        }
        self.node(open, label);
        p
    }

    /// The pre-terminal `(LABEL word)` opened at `open`, its word at `ws..q`.
    #[inline]
    fn leaf(&mut self, open: usize, label: Span, ws: usize, q: usize) {
        if q == ws {
            let msg = format!("expected a word in ({} …), found ')'", self.s(label));
            self.problem(q, msg, "EVALB reads this as a word with no characters");
        }
        self.leaves.push(Leaf {
            label,
            word: Span {
                start: ws as u32,
                end: q as u32,
            },
            at: open as u32,
            tagged: true,
        });
    }

    /// A node opened at `open`, inside the innermost open one.
    #[inline]
    fn node(&mut self, open: usize, label: Span) {
        let parent = self.stack.last().copied();
        self.stack.push(self.nodes.len() as u32);
        self.nodes.push(Node {
            label,
            start: self.leaves.len() as u32,
            end: self.leaves.len() as u32,
            at: open as u32,
            close: open as u32,
            parent,
        });
    }

    /// The text of a span.
    fn s(&self, span: Span) -> &str {
        &self.text[span.start as usize..span.end as usize]
    }

    /// A second element after the word `ws..q` of a pre-terminal: the word stands
    /// directly under a phrase (the tree is read again without tags); reported, and
    /// skipped to the end of its bracket (returned).
    fn second_element(&mut self, label: Span, ws: usize, q: usize) -> usize {
        self.bare = true;
        let r = space_end(self.b, q);
        let found: String = self.text[r..].chars().take(20).collect();
        let msg = format!(
            "expected ')' after the word '{}' of ({} …), found '{}'",
            &self.text[ws..q],
            self.s(label),
            found
        );
        self.problem(
            r,
            msg,
            "a pre-terminal holds one word; EVALB loops on this line until MAX_ERROR stops it",
        );
        bracket_end(self.b, q)
    }

    /// The `)` at `p`: closes the innermost open node, or is reported as extra.
    #[inline]
    fn close(&mut self, p: usize) {
        match self.stack.pop() {
            Some(k) => {
                let node = &mut self.nodes[k as usize];
                node.end = self.leaves.len() as u32;
                node.close = p as u32;
            }
            None => {
                self.extra_close += 1;
                self.problem(
                    p,
                    "expected '(' or the end of the tree, found an extra ')' (no '(' is open)"
                        .into(),
                    "the parentheses do not balance: the sentence is an error, not repaired (EVALB accepts this silently and mis-reads the rest of the line)",
                )
            }
        }
    }

    /// Text at `s` that is not a tag or a label: a word directly under a phrase (the
    /// tree has no tags), or text outside any bracket (reported). Returns its end.
    fn stray_text(&mut self, s: usize) -> usize {
        let p = token_end(self.b, s);
        if self.tags_only {
            let msg = format!(
                "expected '(' or ')', found the text '{}' outside a pre-terminal",
                &self.text[s..p]
            );
            self.problem(s, msg, "words must be written as (TAG word)");
            return p;
        }
        if !self.stack.is_empty() {
            self.bare = true;
            if self.untagged {
                self.leaves.push(Leaf {
                    label: Span {
                        start: s as u32,
                        end: s as u32,
                    },
                    word: Span {
                        start: s as u32,
                        end: p as u32,
                    },
                    at: s as u32,
                    tagged: false,
                });
            }
            return p;
        }
        let msg = format!(
            "expected '(' or the end of the tree, found the text '{}' outside any bracket",
            &self.text[s..p]
        );
        self.problem(
            s,
            msg,
            "a word belongs inside the tree's brackets, as (TAG word) or directly under a phrase",
        );
        p
    }

    /// The end of the tree with brackets still open: they close there, with one problem
    /// at the end of the tree that names the innermost and where each one opened.
    fn close_all(&mut self, layout: Layout) {
        let open = self.stack.len();
        let multi = !self.line_starts.is_empty();
        let at = |p: &Self, k: u32| {
            let n = &p.nodes[k as usize];
            let (line, col) = line_col(p.text, p.line, p.line_starts, n.at);
            let place = if multi {
                format!("line {line} column {col}")
            } else {
                format!("column {col}")
            };
            (place, p.s(n.label).to_owned())
        };
        let (place, label) = at(self, self.stack[open - 1]);
        let label = if label.is_empty() {
            String::new()
        } else {
            format!(" ({label} …)")
        };
        let mut msg =
            format!("expected a ')' to close the '(' at {place}{label}, found the end of the tree");
        if open > 1 {
            let all: Vec<String> = (self.stack.iter()).map(|&k| at(self, k).0).collect();
            msg.push_str(&format!(
                " ({open} brackets still open, at {})",
                all.join(", ")
            ));
        }
        for k in self.stack.drain(..) {
            let node = &mut self.nodes[k as usize];
            node.end = self.leaves.len() as u32;
            node.close = self.text.len() as u32;
        }
        let hint = if layout == Layout::Line {
            "the parentheses do not balance: the sentence is an error, not repaired (one tree per line is read here; multi-line trees are read when a tree of the file goes on on an indented line)"
        } else {
            "the parentheses do not balance: the file ends inside a tree"
        };
        // a '(' inside a word (an unescaped parenthesis token) is the likely cause: point
        // at it, as EVALB's reading (--compat evalb) does
        match self.paren_in_word() {
            Some((at, word)) => self.problem(
                at,
                format!("expected a word without '(' (PTB writes it -LRB-), found '{word}' (its '(' opens a bracket; then {msg})"),
                hint,
            ),
            None => self.problem(self.text.len(), msg, hint),
        }
    }

    /// The first '(' that stands inside a word (right after a character of it), with the
    /// word up to the next space or parenthesis after it: `no(te`.
    fn paren_in_word(&self) -> Option<(usize, &str)> {
        let at = (1..self.b.len()).find(|&i| self.b[i] == b'(' && !is_terminator(self.b[i - 1]))?;
        let start = (0..at)
            .rev()
            .find(|&i| is_terminator(self.b[i]))
            .map_or(0, |i| i + 1);
        let end = (at + 1..self.b.len())
            .find(|&i| is_terminator(self.b[i]))
            .unwrap_or(self.b.len());
        Some((at, &self.text[start..end]))
    }
}

/// The end of the label or word starting at `from` (the next space or parenthesis).
#[inline]
fn token_end(b: &[u8], mut from: usize) -> usize {
    while from < b.len() && !is_terminator(b[from]) {
        from += 1;
    }
    from
}

/// The first byte at or after `from` that is not white space.
#[inline]
fn space_end(b: &[u8], mut from: usize) -> usize {
    while from < b.len() && is_space(b[from]) {
        from += 1;
    }
    from
}

/// Past the `)` that closes the bracket `from` is in (or the end of the text).
fn bracket_end(b: &[u8], from: usize) -> usize {
    let mut depth = 1i64;
    let mut r = from;
    while r < b.len() && depth > 0 {
        match b[r] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ => {}
        }
        r += 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &str, layout: Layout) -> Vec<BracketTree> {
        let mut r = BracketReader::new(text.as_bytes(), "t", layout);
        let mut out = Vec::new();
        loop {
            let mut t = BracketTree::default();
            if !r.read_tree(&mut t).unwrap() {
                return out;
            }
            out.push(t);
        }
    }

    #[test]
    fn leading_blank_lines_depend_on_the_layout() {
        // a multi-line file: blank lines before the first tree are not sentences
        let t = read_all(
            "\n\n( (S (NN a)\n  (VB b)) )\n\n( (S (NN c)) )\n",
            Layout::Auto,
        );
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].leaves.len(), 2);
        assert_eq!(t[0].line, 3);
        // one tree per line: each leading blank line is a sentence without words (EVALB)
        let t = read_all("\n\n(S (NN a))\n(S (NN b))\n", Layout::Auto);
        let words: Vec<usize> = t.iter().map(|x| x.leaves.len()).collect();
        assert_eq!(words, [0, 0, 1, 1]);
        let lines: Vec<u64> = t.iter().map(|x| x.line).collect();
        assert_eq!(lines, [1, 2, 3, 4]);
        // nothing but blank lines: as many sentences without words
        assert_eq!(read_all("\n\n", Layout::Auto).len(), 2);
    }

    fn warnings_of(text: &[u8], layout: Layout) -> (Vec<BracketTree>, Vec<String>) {
        let mut r = BracketReader::new(text, "t", layout);
        let mut out = Vec::new();
        loop {
            let mut t = BracketTree::default();
            if !r.read_tree(&mut t).unwrap() {
                break;
            }
            out.push(t);
        }
        (out, r.warnings().iter().map(|d| d.to_string()).collect())
    }

    fn shape(v: &[BracketTree]) -> Vec<(u64, Vec<String>, usize, usize)> {
        v.iter()
            .map(|t| {
                let words = t.leaves.iter().map(|l| t.s(l.word).to_owned()).collect();
                (t.line, words, t.nodes.len(), t.problems.len())
            })
            .collect()
    }

    #[test]
    fn bom_and_crlf_read_as_the_lf_file_with_one_warning_each() {
        for (lf, layout, lines) in [
            ("(S (NN a) (VB b))\n\n(S (NN c))\n", Layout::Auto, 3),
            (
                "( (S (NN a)\n  (VB b)) )\n\n( (S (NN c)) )\n",
                Layout::Auto,
                4,
            ),
        ] {
            let (want, w) = warnings_of(lf.as_bytes(), layout);
            assert!(w.is_empty());
            let crlf = lf.replace('\n', "\r\n");
            let mut bom = b"\xEF\xBB\xBF".to_vec();
            bom.extend_from_slice(crlf.as_bytes());
            let (got, w) = warnings_of(&bom, layout);
            assert_eq!(shape(&got), shape(&want), "{lf:?}");
            assert_eq!(w.len(), 2, "{w:?}");
            assert!(
                w[0].starts_with(
                    "t:1:1: expected text to start right away, found a UTF-8 byte-order mark"
                ),
                "{}",
                w[0]
            );
            let crlf =
                format!("t:1:1: expected lines to end in LF, found CR LF on {lines} line(s)");
            assert!(w[1].starts_with(&crlf), "{}", w[1]);
        }
    }

    fn sniffed(text: &[u8]) -> String {
        let mut r = BracketReader::new(text, "t", Layout::Auto);
        match r.sniff() {
            Ok(()) => "ok".into(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn sniff_says_what_a_file_that_is_not_trees_looks_like() {
        assert_eq!(sniffed(b""), "ok");
        assert_eq!(sniffed(b"\n\n"), "ok");
        assert_eq!(sniffed(b"\xEF\xBB\xBF(S (A b))\n"), "ok");
        assert_eq!(sniffed(b"\n  ( (S (A b)))\n"), "ok");
        let first = |s: String| s.lines().next().unwrap_or_default().to_owned();
        assert_eq!(
            first(sniffed(b"# sent_id = 1\n1\tDogs\tdog\tNOUN\t_\t_\t2\tnsubj\t_\t_\n")),
            "t:1:1: expected bracketed trees, found a file that looks like CoNLL-U or CoNLL-X (10 tab-separated columns)"
        );
        assert!(sniffed(b"1\tDogs\t_\t_\t_\t_\t0\troot\t_\t_\n")
            .contains("treeval deps` or `treeval ud`"));
        assert!(sniffed(b"0-0 1-2 2-1\n").contains("looks like a word alignment"));
        assert!(sniffed(b"1 2 3 S\n").contains("looks like a word alignment"));
        assert!(sniffed(b"\x89PNG\r\n\x1a\n\0\0\0").starts_with(
            "t:3:1: expected bracketed trees (text), found binary data (a NUL byte at byte 8)"
        ));
        assert_eq!(
            first(sniffed(b"\nthe dog barks\n")),
            "t:2:1: expected a bracketed tree starting with '(', found 'the dog barks'"
        );
    }

    #[test]
    fn one_tree_per_line() {
        let v = read_all("(S (A (P this)) (B (Q is)))\n\n(P a) (Q b)\n", Layout::Auto);
        assert_eq!(v.len(), 3);
        let t = &v[0];
        assert!(t.problems.is_empty());
        let words: Vec<&str> = t.leaves.iter().map(|l| t.s(l.word)).collect();
        assert_eq!(words, ["this", "is"]);
        let nodes: Vec<(&str, u32, u32)> = t
            .nodes
            .iter()
            .map(|x| (t.s(x.label), x.start, x.end))
            .collect();
        assert_eq!(nodes, [("S", 0, 2), ("A", 0, 1), ("B", 1, 2)]);
        assert_eq!(t.nodes[2].parent, Some(0));
        assert!(v[1].leaves.is_empty() && v[1].problems.is_empty());
        assert_eq!(v[2].leaves.len(), 2);
        assert!(v[2].nodes.is_empty());
    }

    #[test]
    fn multi_line_trees() {
        let v = read_all(
            "( (S\n  (NP (DT the))\n  (VP (VBZ barks)))\n)\n\n( (X (Y z)))\n",
            Layout::Auto,
        );
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].leaves.len(), 2);
        assert_eq!(v[0].line, 1);
        assert_eq!(v[1].line, 6);
        assert_eq!(v[0].line_col(v[0].leaves[1].at), (3, 7));
    }

    #[test]
    fn problems_are_positioned() {
        let v = read_all(
            "(S (NN a b))\n(S (A x)))\n(S (A x)\n(S (A x) y)\n",
            Layout::Line,
        );
        let msgs: Vec<String> = v
            .iter()
            .map(|t| {
                t.problems
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(" | ")
            })
            .collect();
        // two words in (NN …): a phrase of an untagged tree
        assert!(msgs[0].is_empty() && v[0].untagged, "{}", msgs[0]);
        assert!(
            msgs[1].starts_with(
                "t:2:10: expected '(' or the end of the tree, found an extra ')' (no '(' is open)"
            ),
            "{}",
            msgs[1]
        );
        assert!(
            msgs[2].starts_with(
                "t:3:9: expected a ')' to close the '(' at column 1 (S …), found the end of the tree\n"
            ),
            "{}",
            msgs[2]
        );
        // a word directly under a phrase: the tree is read without tags, no problem
        assert!(msgs[3].is_empty(), "{}", msgs[3]);
        assert_eq!(
            (
                v[1].extra_close,
                v[1].unclosed,
                v[2].extra_close,
                v[2].unclosed
            ),
            (1, 0, 0, 1)
        );
        assert!(v[1].unbalanced() && v[2].unbalanced() && !v[0].unbalanced());
    }

    fn nodes_of(t: &BracketTree) -> Vec<(String, u32, u32)> {
        (t.nodes.iter())
            .map(|x| (t.s(x.label).to_owned(), x.start, x.end))
            .collect()
    }

    #[test]
    fn words_without_tags_make_the_tree_untagged() {
        let v = read_all(
            "(S (NP the cat) (VP sat) .)\n(S (NP (DT the) (NN cat)) (VP (VBD sat)))\n(NN a (X b))\n(S (A x)) y\n",
            Layout::Line,
        );
        let t = &v[0];
        assert!(t.untagged && t.problems.is_empty(), "{:?}", t.problems);
        let words: Vec<(&str, bool)> = (t.leaves.iter()).map(|l| (t.s(l.word), l.tagged)).collect();
        assert_eq!(
            words,
            [("the", false), ("cat", false), ("sat", false), (".", false)]
        );
        // `(VP sat)` is a phrase over one word
        let want = [("S", 0, 4), ("NP", 0, 2), ("VP", 2, 3)].map(|(l, a, b)| (l.to_owned(), a, b));
        assert_eq!(nodes_of(t), want);
        assert!(t.leaves.iter().all(|l| t.s(l.label).is_empty()));
        assert_eq!(t.line_col(t.leaves[3].at), (1, 26));
        // every word in (TAG word): EVALB's reading
        assert!(!v[1].untagged && v[1].leaves.iter().all(|l| l.tagged));
        assert_eq!(v[1].nodes.len(), 3);
        // a word beside a bracket
        let t = &v[2];
        assert!(t.untagged && t.problems.is_empty());
        let want = [("NN", 0, 2), ("X", 1, 2)].map(|(l, a, b)| (l.to_owned(), a, b));
        assert_eq!(nodes_of(t), want);
        // a word outside every bracket is still a problem
        let t = &v[3];
        assert!(!t.untagged);
        assert_eq!(
            t.problems[0].to_string().lines().next(),
            Some("t:4:11: expected '(' or the end of the tree, found the text 'y' outside any bracket")
        );
    }

    #[test]
    fn tags_only_reads_as_evalb() {
        let text = "(S (NP the cat) (VP sat))\n(S (NN a b))\n";
        let mut r = BracketReader::new(text.as_bytes(), "t", Layout::Line).tags_only(true);
        let mut t = BracketTree::default();
        let mut msgs = Vec::new();
        while r.read_tree(&mut t).unwrap() {
            assert!(!t.untagged);
            msgs.push(t.problems[0].to_string());
        }
        assert!(msgs[0].starts_with("t:1:12: expected ')' after the word 'the' of (NP …)"));
        assert!(msgs[1].starts_with("t:2:10: expected ')' after the word 'a' of (NN …)"));
    }

    #[test]
    fn an_unclosed_first_line_does_not_make_the_file_multi_line() {
        // lines that each start a tree: one tree per line, the first one left open
        let v = read_all(
            "(S (NP (DT a) (NN b)) (VP (VB c))\n(S (NP (DT a)) (VP (VB c)))\n\n(S (X y))\n",
            Layout::Auto,
        );
        assert_eq!(v.len(), 4);
        assert_eq!((v[0].unclosed, v[0].leaves.len()), (1, 3));
        assert!(v[0].problems[0].to_string().starts_with(
            "t:1:34: expected a ')' to close the '(' at column 1 (S …), found the end of the tree"
        ));
        assert!(v[1].problems.is_empty() && v[2].leaves.is_empty());
        assert_eq!((v[3].line, v[3].leaves.len()), (4, 1));
        // an indented next line goes on with the tree (.mrg, .prd)
        let v = read_all("( (S (NP a b)\n   (VP c)))\n( (S d))\n", Layout::Auto);
        assert_eq!(v.len(), 2);
        assert!(v[0].untagged && v[0].problems.is_empty());
        assert_eq!(v[0].leaves.len(), 3);
        // a missing ')' in a multi-line file: positions name lines
        let v = read_all("( (S (NP a b)\n   (VP c))\n", Layout::Auto);
        assert!(v[0].problems[0].to_string().starts_with(
            "t:2:11: expected a ')' to close the '(' at line 1 column 1, found the end of the tree"
        ), "{}", v[0].problems[0]);
    }

    /// Issue 38: the layout was decided by the first tree, so a `.mrg` file whose first
    /// tree sits on one line was read one tree per line (31 trees read as 5 lines' worth
    /// of broken ones). The first tree left open at a line end decides, wherever it is;
    /// the trees before it read the same either way (checked against the multi-line
    /// reading, and blank lines among them are not sentences).
    #[test]
    fn the_layout_is_decided_by_the_first_tree_that_spans_lines() {
        let mrg = "( (S (NP (DT a)) (VP (VB b))) )\n\n( (S (NP (DT c))) )\n\n( (S\n    (NP (DT d))\n    (VP (VB e))) )\n\n( (X (Y f)) )\n";
        let auto = read_all(mrg, Layout::Auto);
        let multi = read_all(mrg, Layout::MultiLine);
        assert_eq!(auto.len(), 4, "four trees, the blank lines separate them");
        let shown = |v: &[BracketTree]| -> Vec<(u64, String, usize)> {
            v.iter()
                .map(|t| (t.line, t.text.clone(), t.problems.len()))
                .collect()
        };
        assert_eq!(shown(&auto), shown(&multi));
        assert_eq!(
            auto.iter().map(|t| t.line).collect::<Vec<_>>(),
            [1, 3, 5, 9]
        );
        assert!(auto.iter().all(|t| t.problems.is_empty()));
        // one tree per line: balanced lines, then one left open whose next line starts a
        // tree of its own; blank lines are sentences without words
        let lines = "(S (A a))\n\n(S (A b)\n(S (A c))\n";
        let v = read_all(lines, Layout::Auto);
        assert_eq!(v.len(), 4);
        assert!(v[1].leaves.is_empty() && v[2].unclosed == 1);
        assert_eq!(v[3].line, 4);
        // the reader's line numbers after the read-ahead are the file's
        let mut r = BracketReader::new(mrg.as_bytes(), "t", Layout::Auto);
        let mut t = BracketTree::default();
        let mut n = 0;
        while r.read_tree(&mut t).unwrap() {
            n += 1;
        }
        assert_eq!((n, r.lines(), r.layout()), (4, 9, Layout::MultiLine));
    }
}
