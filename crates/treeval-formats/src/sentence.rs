//! The model: a sentence of syntactic words, read into one reusable buffer.
//!
//! A [`Sentence`] owns the bytes of its lines; words refer to them by [`Span`], so
//! reading a sentence allocates nothing once the buffers have grown to size.

use std::ops::Range;

/// A byte range into a sentence's buffer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Span {
    /// Start byte.
    pub start: u32,
    /// End byte (exclusive).
    pub end: u32,
}

impl Span {
    pub(crate) fn new(r: Range<usize>) -> Self {
        Span {
            start: r.start as u32,
            end: r.end as u32,
        }
    }

    fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// The HEAD column of a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Head {
    /// A word index (0 = the artificial root).
    Index(u32),
    /// `_`: no head given.
    Missing,
}

impl Head {
    /// The index, if any.
    pub fn index(self) -> Option<u32> {
        match self {
            Head::Index(i) => Some(i),
            Head::Missing => None,
        }
    }
}

/// One syntactic word (a numbered line).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Word {
    /// The ID (1-based, consecutive).
    pub id: u32,
    /// 1-based line number in the file.
    pub line: u64,
    /// Start of the line in the buffer.
    pub(crate) line_start: u32,
    pub(crate) form: Span,
    pub(crate) lemma: Span,
    pub(crate) upos: Span,
    pub(crate) xpos: Span,
    pub(crate) feats: Span,
    pub(crate) head: Span,
    pub(crate) deprel: Span,
    pub(crate) deps: Span,
    pub(crate) misc: Span,
    pub(crate) head_value: Option<u32>,
}

/// A multiword-token range line (`3-4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MultiwordToken {
    /// First word.
    pub first: u32,
    /// Last word (inclusive).
    pub last: u32,
    /// Line number.
    pub line: u64,
    pub(crate) form: Span,
    pub(crate) misc: Span,
}

/// An empty node (`5.1`), part of the enhanced graph only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmptyNode {
    /// The word it follows (`5` in `5.1`).
    pub after: u32,
    /// Its sub-index (`1` in `5.1`).
    pub sub: u32,
    /// Line number.
    pub line: u64,
    pub(crate) line_start: u32,
    pub(crate) form: Span,
    pub(crate) deps: Span,
    pub(crate) misc: Span,
}

/// A node of the enhanced graph: a word or an empty node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NodeId {
    /// Word `n` (0 = root).
    Word(u32),
    /// Empty node `n.k`.
    Empty(u32, u32),
}

/// One edge of the enhanced graph (a DEPS item).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnhancedEdge<'a> {
    /// The head node.
    pub head: NodeId,
    /// The relation (full string, subtypes included).
    pub deprel: &'a str,
}

/// A sentence: its comments, words, multiword tokens and empty nodes.
#[derive(Debug, Clone, Default)]
pub struct Sentence {
    pub(crate) buf: String,
    pub(crate) words: Vec<Word>,
    pub(crate) mwts: Vec<MultiwordToken>,
    pub(crate) empty: Vec<EmptyNode>,
    pub(crate) comments: Vec<Span>,
    pub(crate) sent_id: Option<Span>,
    pub(crate) first_line: u64,
    pub(crate) last_line: u64,
    pub(crate) index: u64,
    pub(crate) has_errors: bool,
}

impl Sentence {
    /// An empty sentence, ready to be filled by a reader.
    pub fn new() -> Self {
        Sentence::default()
    }

    pub(crate) fn clear(&mut self) {
        self.buf.clear();
        self.words.clear();
        self.mwts.clear();
        self.empty.clear();
        self.comments.clear();
        self.sent_id = None;
        self.first_line = 0;
        self.last_line = 0;
        self.has_errors = false;
    }

    #[inline]
    fn s(&self, span: Span) -> &str {
        &self.buf[span.range()]
    }

    /// The syntactic words.
    pub fn words(&self) -> &[Word] {
        &self.words
    }

    /// Number of syntactic words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether there are no words.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// 1-based index of the sentence in its file.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// First line (comments included).
    pub fn first_line(&self) -> u64 {
        self.first_line
    }

    /// Last line (the last word or node line).
    pub fn last_line(&self) -> u64 {
        self.last_line
    }

    /// The `# sent_id = …` value.
    pub fn sent_id(&self) -> Option<&str> {
        self.sent_id.map(|s| self.s(s))
    }

    /// The comment lines, without the leading `#`.
    pub fn comments(&self) -> impl Iterator<Item = &str> {
        self.comments.iter().map(|&s| self.s(s))
    }

    /// Whether the reader found errors in this sentence.
    pub fn has_errors(&self) -> bool {
        self.has_errors
    }

    /// The multiword-token ranges.
    pub fn multiword_tokens(&self) -> &[MultiwordToken] {
        &self.mwts
    }

    /// The empty nodes.
    pub fn empty_nodes(&self) -> &[EmptyNode] {
        &self.empty
    }

    /// FORM of word `i` (0-based position).
    #[inline]
    pub fn form(&self, w: &Word) -> &str {
        self.s(w.form)
    }
    /// FORM, LEMMA, UPOS and XPOS as the line has them, with the tab after each
    /// (`form\tlemma\tupos\txpos\t`), for copying in one piece; `None` if the line does
    /// not hold them side by side in that order.
    #[inline]
    pub fn form_to_xpos(&self, w: &Word) -> Option<&str> {
        let adjacent = w.lemma.start == w.form.end + 1
            && w.upos.start == w.lemma.end + 1
            && w.xpos.start == w.upos.end + 1
            && self.buf.as_bytes().get(w.xpos.end as usize) == Some(&b'\t');
        adjacent.then(|| &self.buf[w.form.start as usize..w.xpos.end as usize + 1])
    }
    /// LEMMA.
    #[inline]
    pub fn lemma(&self, w: &Word) -> &str {
        self.s(w.lemma)
    }
    /// UPOS (CPOSTAG in CoNLL-X, POS in CoNLL-2009).
    #[inline]
    pub fn upos(&self, w: &Word) -> &str {
        self.s(w.upos)
    }
    /// XPOS (POSTAG in CoNLL-X, POS/PPOS in CoNLL-2009).
    #[inline]
    pub fn xpos(&self, w: &Word) -> &str {
        self.s(w.xpos)
    }
    /// FEATS.
    #[inline]
    pub fn feats(&self, w: &Word) -> &str {
        self.s(w.feats)
    }
    /// DEPREL as written.
    #[inline]
    pub fn deprel(&self, w: &Word) -> &str {
        self.s(w.deprel)
    }
    /// DEPS as written.
    #[inline]
    pub fn deps(&self, w: &Word) -> &str {
        self.s(w.deps)
    }
    /// MISC as written.
    #[inline]
    pub fn misc(&self, w: &Word) -> &str {
        self.s(w.misc)
    }
    /// HEAD as written.
    #[inline]
    pub fn head_text(&self, w: &Word) -> &str {
        self.s(w.head)
    }
    /// FORM of a multiword token.
    pub fn mwt_form(&self, t: &MultiwordToken) -> &str {
        self.s(t.form)
    }
    /// MISC of a multiword token.
    pub fn mwt_misc(&self, t: &MultiwordToken) -> &str {
        self.s(t.misc)
    }
    /// FORM of an empty node.
    pub fn empty_form(&self, e: &EmptyNode) -> &str {
        self.s(e.form)
    }
    /// DEPS of an empty node.
    pub fn empty_deps(&self, e: &EmptyNode) -> &str {
        self.s(e.deps)
    }
    /// MISC of an empty node.
    pub fn empty_misc(&self, e: &EmptyNode) -> &str {
        self.s(e.misc)
    }

    /// The whole line of word `w` as read, without its line break (for columns the
    /// reader does not keep, such as CoNLL-2009's PRED and APRED).
    pub fn line(&self, w: &Word) -> &str {
        let rest = &self.buf[w.line_start as usize..];
        let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
        line.strip_suffix('\r').unwrap_or(line)
    }

    /// 1-based column (in characters) where the HEAD field of `w` starts.
    pub fn head_column(&self, w: &Word) -> u32 {
        self.column_of(w.line_start, w.head.start)
    }

    /// 1-based column (in characters) where the FORM field of `w` starts.
    pub fn form_column(&self, w: &Word) -> u32 {
        self.column_of(w.line_start, w.form.start)
    }

    /// 1-based column (in characters) where the DEPREL field of `w` starts.
    pub fn deprel_column(&self, w: &Word) -> u32 {
        self.column_of(w.line_start, w.deprel.start)
    }

    /// 1-based column (in characters) where the DEPS field of `w` starts.
    pub fn deps_column(&self, w: &Word) -> u32 {
        self.column_of(w.line_start, w.deps.start)
    }

    /// 1-based column (in characters) where the DEPS field of empty node `e` starts.
    pub fn empty_deps_column(&self, e: &EmptyNode) -> u32 {
        self.column_of(e.line_start, e.deps.start)
    }

    fn column_of(&self, line_start: u32, at: u32) -> u32 {
        self.buf
            .get(line_start as usize..at as usize)
            .map_or(0, |prefix| prefix.chars().count() as u32)
            + 1
    }

    /// The enhanced graph edges of word `w` (its DEPS), parsed on demand.
    /// Items that do not parse are skipped; readers validate DEPS when asked.
    pub fn enhanced_edges<'a>(&'a self, w: &Word) -> impl Iterator<Item = EnhancedEdge<'a>> + 'a {
        parse_deps(self.s(w.deps)).filter_map(Result::ok)
    }

    /// The enhanced graph edges of an empty node.
    pub fn empty_enhanced_edges<'a>(
        &'a self,
        e: &EmptyNode,
    ) -> impl Iterator<Item = EnhancedEdge<'a>> + 'a {
        parse_deps(self.s(e.deps)).filter_map(Result::ok)
    }
}

/// Parse a DEPS field (`_` or `h:rel|h:rel`), yielding each item or the text of a bad one.
/// An item is a head (`N` or `N.M`), the first `:`, and a non-empty relation; items are
/// separated by `|` (an empty item is a bad one).
pub fn parse_deps(field: &str) -> DepsItems<'_> {
    DepsItems {
        rest: (field != "_" && !field.is_empty()).then_some(field),
    }
}

/// The items of a DEPS field (see [`parse_deps`]), each parsed in one pass.
#[derive(Debug, Clone)]
pub struct DepsItems<'a> {
    /// The text from the next item on; `None` after the last.
    rest: Option<&'a str>,
}

impl<'a> Iterator for DepsItems<'a> {
    type Item = Result<EnhancedEdge<'a>, &'a str>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.rest?;
        // DEPS fields are short: a plain loop beats SIMD set-up
        let item = match rest.as_bytes().iter().position(|&c| c == b'|') {
            Some(k) => {
                self.rest = Some(&rest[k + 1..]);
                &rest[..k]
            }
            None => {
                self.rest = None;
                rest
            }
        };
        Some(parse_item(item))
    }
}

/// `N:rel` or `N.M:rel`.
fn parse_item(item: &str) -> Result<EnhancedEdge<'_>, &str> {
    let b = item.as_bytes();
    let digits = |from: usize| from + b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let d1 = digits(0);
    let (head, colon) = match b.get(d1) {
        Some(b':') => (parse_index(&b[..d1]).map(NodeId::Word), d1),
        Some(b'.') => {
            let d2 = digits(d1 + 1);
            if b.get(d2) != Some(&b':') {
                return Err(item);
            }
            let head = parse_index(&b[..d1])
                .zip(parse_positive(&b[d1 + 1..d2]))
                .map(|(a, m)| NodeId::Empty(a, m));
            (head, d2)
        }
        _ => return Err(item),
    };
    match head {
        Some(head) if colon + 1 < b.len() => Ok(EnhancedEdge {
            head,
            deprel: &item[colon + 1..],
        }),
        _ => Err(item),
    }
}

#[cfg(test)]
fn parse_node_id(s: &str) -> Option<NodeId> {
    match s.split_once('.') {
        None => parse_index(s.as_bytes()).map(NodeId::Word),
        Some((a, b)) => Some(NodeId::Empty(
            parse_index(a.as_bytes())?,
            parse_positive(b.as_bytes())?,
        )),
    }
}

/// The value Python's `int()` gives the text `s`, as conll18_ud_eval.py (and udeval, its
/// descendant) reads an ID, a multiword-token bound or a HEAD: surrounding whitespace, an
/// optional sign, leading zeros, single underscores between digits and any Unicode
/// decimal digit are allowed (`01`, ` 2`, `+3`, `1_0`, `١` are 1, 2, 3, 10 and 1). `None`
/// where `int()` raises `ValueError`. A value beyond `i64` saturates (it is compared,
/// never used as an index).
pub fn python_int(s: &[u8]) -> Option<i64> {
    // the whitespace int() strips is Unicode's White_Space, as Rust's (checked
    // character by character against Python 3.11)
    let t = std::str::from_utf8(s).ok()?.trim();
    let (negative, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let mut v: i64 = 0;
    let mut after_digit = false;
    for c in digits.chars() {
        if c == '_' && after_digit {
            after_digit = false;
            continue;
        }
        let d = decimal_digit(c)?;
        v = v.saturating_mul(10).saturating_add(i64::from(d));
        after_digit = true;
    }
    // not empty, and no underscore at the end
    after_digit.then_some(if negative { -v } else { v })
}

/// The first code point (digit zero) of each run of ten Unicode decimal digits (general
/// category Nd), as Python 3.11 (Unicode 14) has them: `unicodedata.decimal(c) == 0`.
const DIGIT_ZEROS: [u32; 66] = [
    0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66,
    0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90,
    0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10,
    0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650,
    0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50,
    0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];

/// The value of the decimal digit `c` (any script), as Python's `int()` reads it.
fn decimal_digit(c: char) -> Option<u32> {
    let c = u32::from(c);
    if let Some(d) = c.checked_sub(0x30).filter(|&d| d < 10) {
        return Some(d);
    }
    let i = DIGIT_ZEROS.partition_point(|&z| z <= c).checked_sub(1)?;
    Some(c - DIGIT_ZEROS[i]).filter(|&d| d < 10)
}

/// Parse a non-negative decimal integer without sign or leading zeros.
pub(crate) fn parse_index(b: &[u8]) -> Option<u32> {
    if b.is_empty() || b.len() > 9 || (b.len() > 1 && b[0] == b'0') {
        return None;
    }
    let mut v: u32 = 0;
    for &c in b {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u32::from(c - b'0');
    }
    Some(v)
}

pub(crate) fn parse_positive(s: &[u8]) -> Option<u32> {
    parse_index(s).filter(|&v| v > 0)
}

impl Word {
    /// A word with nothing in it (every field an empty span at the line's start),
    /// standing for a malformed line so that the words after it keep their positions.
    pub fn placeholder(id: u32, line: u64, line_start: usize) -> Word {
        let at = Span::new(line_start..line_start);
        Word {
            id,
            line,
            line_start: line_start as u32,
            form: at,
            lemma: at,
            upos: at,
            xpos: at,
            feats: at,
            head: at,
            deprel: at,
            deps: at,
            misc: at,
            head_value: None,
        }
    }

    /// Whether this word stands for a malformed line ([`Word::placeholder`]): the reader
    /// reported the line, and its empty fields are no further problem.
    #[inline]
    pub fn is_placeholder(&self) -> bool {
        self.form.start == self.line_start && self.form.end == self.line_start
    }

    /// The HEAD (`Missing` for `_`).
    #[inline]
    pub fn head(&self) -> Head {
        match self.head_value {
            Some(i) => Head::Index(i),
            None => Head::Missing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_ints() {
        // hand-checked against Python 3: int(s)
        for (s, want) in [
            ("1", Some(1)),
            ("01", Some(1)),
            ("001", Some(1)),
            (" 2 ", Some(2)),
            ("\u{a0}2", Some(2)),
            ("\u{1c}2", None),
            ("\u{661}", Some(1)),
            ("\u{ff11}\u{ff10}", Some(10)),
            ("\u{1fbf9}", Some(9)),
            ("\u{2460}", None),
            ("\u{b2}", None),
            ("+3", Some(3)),
            ("-1", Some(-1)),
            ("-0", Some(0)),
            ("1_0", Some(10)),
            ("1__0", None),
            ("_1", None),
            ("1_", None),
            ("1.0", None),
            ("x", None),
            ("", None),
            (" ", None),
            ("_", None),
            ("+", None),
            ("+-1", None),
            ("1 2", None),
            ("99999999999999999999999", Some(i64::MAX)),
        ] {
            assert_eq!(python_int(s.as_bytes()), want, "{s:?}");
        }
    }

    #[test]
    fn deps_items() {
        let v: Vec<_> = parse_deps("2:nsubj|5.1:obj").collect();
        assert_eq!(
            v,
            vec![
                Ok(EnhancedEdge {
                    head: NodeId::Word(2),
                    deprel: "nsubj"
                }),
                Ok(EnhancedEdge {
                    head: NodeId::Empty(5, 1),
                    deprel: "obj"
                })
            ]
        );
        assert_eq!(parse_deps("_").count(), 0);
        assert_eq!(
            parse_deps("3:obl:on").next(),
            Some(Ok(EnhancedEdge {
                head: NodeId::Word(3),
                deprel: "obl:on"
            }))
        );
        assert_eq!(parse_deps("x:obj").next(), Some(Err("x:obj")));
        assert_eq!(parse_deps("3").next(), Some(Err("3")));
        assert_eq!(parse_deps("3:").next(), Some(Err("3:")));
    }

    /// The definition, by splitting: `|` between items, the first `:` after the head.
    fn by_splitting(field: &str) -> Vec<Result<EnhancedEdge<'_>, &str>> {
        let items = (field != "_" && !field.is_empty()).then_some(field);
        items
            .into_iter()
            .flat_map(|f| f.split('|'))
            .map(|item| {
                let (h, rel) = item.split_once(':').ok_or(item)?;
                if rel.is_empty() {
                    return Err(item);
                }
                let head = parse_node_id(h).ok_or(item)?;
                Ok(EnhancedEdge { head, deprel: rel })
            })
            .collect()
    }

    #[test]
    fn deps_parser_equals_splitting() {
        for f in [
            "_",
            "",
            "|",
            "2:nsubj|",
            "|2:nsubj",
            "0:root",
            "5.1:obj|3:conj:and",
            "5.0:x",
            "05:x",
            "5.01:x",
            "5.:x",
            ".1:x",
            "5.1.2:x",
            "12345678901:x",
            "1::",
            "1:a|b",
            "3:obl:on|3:obl:on",
            "a",
            "1.1",
            "1:é|2:ü:x",
        ] {
            assert_eq!(parse_deps(f).collect::<Vec<_>>(), by_splitting(f), "{f:?}");
        }
        // and every string of up to 6 characters over the alphabet that matters
        let alphabet = ['0', '1', '2', '.', ':', '|', '_', 'a'];
        let mut f = String::new();
        for n in 0..=6u32 {
            for mut code in 0..alphabet.len().pow(n) {
                f.clear();
                for _ in 0..n {
                    f.push(alphabet[code % alphabet.len()]);
                    code /= alphabet.len();
                }
                assert_eq!(
                    parse_deps(&f).collect::<Vec<_>>(),
                    by_splitting(&f),
                    "{f:?}"
                );
            }
        }
    }

    #[test]
    fn indices() {
        assert_eq!(parse_index(b"0"), Some(0));
        assert_eq!(parse_index(b"17"), Some(17));
        assert_eq!(parse_index(b"07"), None);
        assert_eq!(parse_index(b"-1"), None);
        assert_eq!(parse_index(b""), None);
        assert_eq!(parse_index(b"1234567890"), None);
    }
}
