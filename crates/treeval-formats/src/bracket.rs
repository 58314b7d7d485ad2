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
//! [`Layout::Auto`] takes one tree per line unless the first tree is still open at the
//! end of its line. A tree with a problem (an extra `)`, a bracket left open, a
//! pre-terminal with two words, text outside any bracket) is still returned, with its
//! problems, so that the caller can count the sentence as an error and carry on.

use std::io::BufRead;
use std::sync::Arc;

use crate::error::{Diagnostic, Error, ErrorKind, Position};

/// How trees are laid out in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// One tree per line unless the first tree spans lines.
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

/// A pre-terminal: tag and word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leaf {
    /// The tag (the pre-terminal's label).
    pub label: Span,
    /// The word.
    pub word: Span,
    /// Byte offset of its `(`.
    pub at: u32,
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
}

impl BracketTree {
    /// The text of a span.
    #[inline]
    pub fn s(&self, span: Span) -> &str {
        &self.text[span.start as usize..span.end as usize]
    }

    /// Line and column (1-based, in characters) of a byte offset.
    pub fn line_col(&self, at: u32) -> (u64, u32) {
        let k = self.line_starts.partition_point(|&s| s <= at);
        let start = if k == 0 { 0 } else { self.line_starts[k - 1] };
        let col = self.text[start as usize..at as usize].chars().count() as u32 + 1;
        (self.line + k as u64, col)
    }

    fn clear(&mut self) {
        self.text.clear();
        self.line_starts.clear();
        self.leaves.clear();
        self.nodes.clear();
        self.problems.clear();
    }
}

/// Reads [`BracketTree`]s one by one.
pub struct BracketReader<R> {
    rdr: R,
    path: Arc<str>,
    layout: Layout,
    line: u64,
    buf: String,
    eof: bool,
    stack: Vec<u32>,
    /// Lines of the current tree that were not UTF-8.
    bad_utf8: Vec<u64>,
    /// Blank lines read before the layout was known (`Auto`), and how many of them are
    /// still to be returned as trees without words (one tree per line).
    leading_blanks: u64,
    pending_blanks: u64,
    /// `buf` holds a line read but not yet used.
    held: bool,
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
            eof: false,
            stack: Vec::new(),
            bad_utf8: Vec::new(),
            leading_blanks: 0,
            pending_blanks: 0,
            held: false,
        }
    }

    /// The path as given.
    pub fn path(&self) -> &Arc<str> {
        &self.path
    }

    /// The layout in use (decided by the first tree under [`Layout::Auto`]).
    pub fn layout(&self) -> Layout {
        self.layout
    }

    fn next_line(&mut self) -> Result<bool, Error> {
        self.buf.clear();
        let mut bytes = Vec::new();
        let n = self
            .rdr
            .read_until(b'\n', &mut bytes)
            .map_err(|e| Error::io(&self.path, &e))?;
        if n == 0 {
            self.eof = true;
            return Ok(false);
        }
        self.line += 1;
        while bytes.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
            bytes.pop();
        }
        match String::from_utf8(bytes) {
            Ok(s) => self.buf = s,
            Err(e) => {
                // keep going on the readable part; the tree reports the problem
                self.buf = String::from_utf8_lossy(e.as_bytes()).into_owned();
                self.bad_utf8.push(self.line);
            }
        }
        Ok(true)
    }

    /// The next tree into `t`; false at the end of the input.
    pub fn read_tree(&mut self, t: &mut BracketTree) -> Result<bool, Error> {
        t.clear();
        self.bad_utf8.clear();
        if self.pending_blanks > 0 {
            // a leading blank line of a one-tree-per-line file: a sentence without words
            t.line = self.leading_blanks - self.pending_blanks + 1;
            self.pending_blanks -= 1;
            self.parse(t);
            return Ok(true);
        }
        if self.eof && !self.held {
            return Ok(false);
        }
        // the first line of the tree (skipping blank lines between multi-line trees, and
        // blank lines before the layout is known: they are sentences only if the file
        // turns out to hold one tree per line)
        loop {
            if self.held {
                self.held = false;
            } else if !self.next_line()? {
                if self.layout == Layout::Auto && self.leading_blanks > 0 {
                    // nothing but blank lines: one tree per line
                    self.layout = Layout::Line;
                    self.pending_blanks = self.leading_blanks;
                    return self.read_tree(t);
                }
                return Ok(false);
            }
            let blank = self.buf.bytes().all(is_space);
            if self.layout == Layout::Auto {
                if blank {
                    self.leading_blanks += 1;
                    continue;
                }
                self.layout = if balance(&self.buf) > 0 {
                    Layout::MultiLine
                } else {
                    Layout::Line
                };
                if self.layout == Layout::Line && self.leading_blanks > 0 {
                    self.pending_blanks = self.leading_blanks;
                    self.held = true;
                    return self.read_tree(t);
                }
            }
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
        }
        self.parse(t);
        Ok(true)
    }

    /// Parse `t.text` into leaves and nodes, recording problems.
    fn parse(&mut self, t: &mut BracketTree) {
        let b = t.text.as_bytes();
        let n = b.len();
        let path = self.path.clone();
        let problem = |t: &BracketTree, at: usize, msg: String, hint: &str| {
            let (line, col) = t.line_col(at as u32);
            let mut d = Diagnostic::error(
                Position::new(path.clone(), line, col),
                ErrorKind::Other(msg),
            );
            if !hint.is_empty() {
                d = d.with_hint(hint);
            }
            d
        };
        let mut problems = Vec::new();
        self.stack.clear();
        let mut p = 0usize;
        while p < n {
            let c = b[p];
            if is_space(c) {
                p += 1;
            } else if c == b'(' {
                let open = p;
                p += 1;
                let ls = p;
                while p < n && !is_terminator(b[p]) {
                    p += 1;
                }
                let label = Span {
                    start: ls as u32,
                    end: p as u32,
                };
                // `(LABEL word)` is a pre-terminal
                if p < n && is_space(b[p]) {
                    let mut q = p;
                    while q < n && is_space(b[q]) {
                        q += 1;
                    }
                    let ws = q;
                    while q < n && !is_terminator(b[q]) {
                        q += 1;
                    }
                    if q < n && b[q] == b')' {
                        if q == ws {
                            problems.push(problem(
                                t,
                                q,
                                format!(
                                    "expected a word in ({} …), found ')'",
                                    &t.text[ls..label.end as usize]
                                ),
                                "EVALB reads this as a word with no characters",
                            ));
                        }
                        t.leaves.push(Leaf {
                            label,
                            word: Span {
                                start: ws as u32,
                                end: q as u32,
                            },
                            at: open as u32,
                        });
                        p = q + 1;
                        continue;
                    }
                    if q > ws {
                        // a second element after the word
                        let mut r = q;
                        while r < n && is_space(b[r]) {
                            r += 1;
                        }
                        let found: String = t.text[r..].chars().take(20).collect();
                        problems.push(problem(
                            t,
                            r,
                            format!(
                                "expected ')' after the word '{}' of ({} …), found '{}'",
                                &t.text[ws..q],
                                &t.text[ls..label.end as usize],
                                found
                            ),
                            "a pre-terminal holds one word; EVALB loops on this line until MAX_ERROR stops it",
                        ));
                        // skip to the end of this bracket
                        let mut depth = 1i64;
                        let mut r = q;
                        while r < n && depth > 0 {
                            match b[r] {
                                b'(' => depth += 1,
                                b')' => depth -= 1,
                                _ => {}
                            }
                            r += 1;
                        }
                        p = r;
                        continue;
                    }
                    p = q;
                }
                let parent = self.stack.last().copied();
                self.stack.push(t.nodes.len() as u32);
                t.nodes.push(Node {
                    label,
                    start: t.leaves.len() as u32,
                    end: t.leaves.len() as u32,
                    at: open as u32,
                    parent,
                });
            } else if c == b')' {
                match self.stack.pop() {
                    Some(k) => t.nodes[k as usize].end = t.leaves.len() as u32,
                    None => problems.push(problem(
                        t,
                        p,
                        "expected '(' or the end of the tree, found an extra ')'".into(),
                        "EVALB accepts this silently and mis-reads the rest of the line",
                    )),
                }
                p += 1;
            } else {
                let s = p;
                while p < n && !is_terminator(b[p]) {
                    p += 1;
                }
                problems.push(problem(
                    t,
                    s,
                    format!(
                        "expected '(' or ')', found the text '{}' outside a pre-terminal",
                        &t.text[s..p]
                    ),
                    "words must be written as (TAG word)",
                ));
            }
        }
        if !self.stack.is_empty() {
            let open = self.stack.len();
            let first = t.nodes[self.stack[0] as usize].at as usize;
            for k in self.stack.drain(..) {
                t.nodes[k as usize].end = t.leaves.len() as u32;
            }
            problems.push(problem(
                t,
                first,
                format!("expected every bracket to close, found {open} still open at the end of the tree"),
                if self.layout == Layout::Line {
                    "one tree per line is expected here; multi-line trees are read when the file's first tree spans lines"
                } else {
                    "the file ends inside a tree"
                },
            ));
        }
        for line in self.bad_utf8.drain(..) {
            problems.push(Diagnostic::error(
                Position::new(self.path.clone(), line, 1),
                ErrorKind::InvalidUtf8,
            ));
        }
        t.problems = problems;
    }
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
        assert!(
            msgs[0].starts_with("t:1:10: expected ')' after the word 'a' of (NN …), found 'b))'"),
            "{}",
            msgs[0]
        );
        assert!(
            msgs[1].starts_with("t:2:10: expected '(' or the end of the tree, found an extra ')'"),
            "{}",
            msgs[1]
        );
        assert!(
            msgs[2].starts_with("t:3:1: expected every bracket to close, found 1 still open"),
            "{}",
            msgs[2]
        );
        assert!(
            msgs[3].starts_with("t:4:10: expected '(' or ')', found the text 'y'"),
            "{}",
            msgs[3]
        );
    }
}
