//! The enhanced graph of a sentence as ELAS and EULAS score it (udeval, udtools 0.2.9).
//!
//! Every word keeps a list of DEPS items `(head, label)`; heads are sentence-local here
//! (0 = the root, `h` = word `h`, [`NO_PARENT`] = "no head", which never matches). The
//! label of an item may be a path `conj>nsubj` when it was collapsed through empty nodes.
//!
//! - [`collapse`]: the UD collapser's reading (tools/enhanced_collapse_empty_nodes.pl):
//!   an edge into an empty node is replaced by one edge for every path that reaches a
//!   word through one or more empty nodes, labelled with the labels along the path joined
//!   by `>`; the empty nodes disappear; identical items of a word are kept once.
//! - [`apply_enhancements`]: udeval's `--enhancements` filters, applied after that.

use treeval_formats::{NodeId, Sentence};

/// A head that matches nothing: udeval's `None` parent of a root word, which its
/// enhancement rewrites 1 and 5 introduce.
pub(super) const NO_PARENT: u32 = u32::MAX;

/// One DEPS item with a sentence-local head.
pub(super) type Item = (u32, String);

/// Why a sentence's DEPS cannot be collapsed: the line, the offending item and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct DepsProblem {
    pub line: u64,
    pub column: u32,
    pub item: String,
    pub message: &'static str,
}

/// Collapse paths through empty nodes: `out[k]` receives the items of word `k + 1`, sorted
/// by head and label, each once. Items that cannot be read are reported, not kept.
pub(super) fn collapse(s: &Sentence, out: &mut Vec<Vec<Item>>, problems: &mut Vec<DepsProblem>) {
    let empties = s.empty_nodes();
    let index_of = |a: u32, b: u32| empties.iter().position(|e| e.after == a && e.sub == b);
    let n = s.len() as u32;
    // incoming edges of every empty node, as (head node, label)
    let mut incoming: Vec<Vec<(Node, &str)>> = vec![Vec::new(); empties.len()];
    for (k, e) in empties.iter().enumerate() {
        for item in treeval_formats::sentence::parse_deps(s.empty_deps(e)) {
            match item.map(|x| (resolve(x.head, n, &index_of), x.deprel)) {
                Ok((Some(h), l)) => {
                    if !incoming[k].contains(&(h, l)) {
                        incoming[k].push((h, l));
                    }
                }
                Ok((None, _)) | Err(_) => problems.push(DepsProblem {
                    line: e.line,
                    column: s.empty_deps_column(e),
                    item: s.empty_deps(e).to_owned(),
                    message: "a head that is a word of the sentence, 0, or an empty node the sentence has",
                }),
            }
        }
    }
    out.clear();
    for w in s.words() {
        let mut items: Vec<Item> = Vec::new();
        for item in treeval_formats::sentence::parse_deps(s.deps(w)) {
            match item.map(|x| (resolve(x.head, n, &index_of), x.deprel)) {
                Ok((Some(Node::Word(h)), l)) => push_unique(&mut items, (h, l.to_owned())),
                Ok((Some(Node::Empty(e)), l)) => {
                    let mut visited = vec![e];
                    let mut suffix = vec![l];
                    paths_into(e, &incoming, &mut visited, &mut suffix, &mut items);
                }
                Ok((None, _)) | Err(_) => problems.push(DepsProblem {
                    line: w.line,
                    column: s.deps_column(w),
                    item: s.deps(w).to_owned(),
                    message: "a head that is a word of the sentence, 0, or an empty node the sentence has",
                }),
            }
        }
        items.sort();
        out.push(items);
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    Word(u32),
    Empty(usize),
}

fn resolve(h: NodeId, n: u32, index_of: &dyn Fn(u32, u32) -> Option<usize>) -> Option<Node> {
    match h {
        NodeId::Word(h) if h <= n => Some(Node::Word(h)),
        NodeId::Word(_) => None,
        NodeId::Empty(a, b) => index_of(a, b).map(Node::Empty),
    }
}

fn push_unique(items: &mut Vec<Item>, it: Item) {
    if !items.contains(&it) {
        items.push(it);
    }
}

/// Every path that ends in empty node `e` and starts at a word (or the root), through
/// empty nodes not yet on the path, followed by the labels in `suffix`.
fn paths_into<'a>(
    e: usize,
    incoming: &[Vec<(Node, &'a str)>],
    visited: &mut Vec<usize>,
    suffix: &mut Vec<&'a str>,
    out: &mut Vec<Item>,
) {
    for &(h, l) in &incoming[e] {
        match h {
            Node::Word(a) => {
                let mut label = String::from(l);
                for step in suffix.iter().rev() {
                    label.push('>');
                    label.push_str(step);
                }
                push_unique(out, (a, label));
            }
            Node::Empty(e2) if !visited.contains(&e2) => {
                visited.push(e2);
                suffix.push(l);
                paths_into(e2, incoming, visited, suffix, out);
                suffix.pop();
                visited.pop();
            }
            Node::Empty(_) => {}
        }
    }
}

/// udeval's `--enhancements` digits: the enhancement types *not* to evaluate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Enhancements(u8);

impl Enhancements {
    /// Parse a string of digits as udeval does: `0` (or empty) evaluates everything; each
    /// of `1`–`6` switches one type off (1 gapping, 2 shared parents in coordination,
    /// 3 shared dependents in coordination, 4 control, 5 external arguments of relative
    /// clauses, 6 case information).
    pub fn parse(s: &str) -> Result<Self, String> {
        let mut bits = 0u8;
        for c in s.chars() {
            match c {
                '0' => {}
                '1'..='6' => bits |= 1 << (c as u8 - b'1'),
                _ => {
                    return Err(format!(
                        "expected digits 0-6 (0 = evaluate all enhancement types), found '{c}'"
                    ))
                }
            }
        }
        Ok(Enhancements(bits))
    }

    /// Whether type `k` (1–6) is switched off.
    pub fn off(self, k: u8) -> bool {
        (1..=6).contains(&k) && self.0 & (1 << (k - 1)) != 0
    }

    /// Whether any type is switched off.
    pub fn any(self) -> bool {
        self.0 != 0
    }

    /// The digits, as given to udeval (`0` when none).
    pub fn digits(self) -> String {
        let d: String = (1..=6u8)
            .filter(|&k| self.off(k))
            .map(|k| char::from(b'0' + k))
            .collect();
        if d.is_empty() {
            "0".into()
        } else {
            d
        }
    }
}

/// What the filters need to know about a word and its sentence.
pub(super) struct WordContext<'a> {
    /// The word's ID.
    pub id: u32,
    /// Basic HEAD of every word of the sentence (index `k` = word `k + 1`; 0 = root).
    pub heads: &'a [u32],
    /// Universal part of every word's basic DEPREL.
    pub deprels: &'a [&'a str],
}

const CASE_DEPRELS: [&str; 4] = ["obl", "nmod", "conj", "advcl"];
const UNIVERSAL_EXTENSIONS: [&str; 3] = ["pass", "relcl", "xsubj"];

/// Apply udeval's filters for the switched-off enhancement types, in its order (1, 2, 3,
/// 4, 5, 6), with its exact conditions; docs/metrics.md lists them.
pub(super) fn apply_enhancements(items: &mut Vec<Item>, off: Enhancements, w: &WordContext) {
    let k = (w.id - 1) as usize;
    let basic_head = w.heads[k];
    // udeval's `word.parent`: None for a root word
    let parent = if basic_head == 0 {
        NO_PARENT
    } else {
        basic_head
    };
    let own = || (parent, w.deprels[k].to_owned());
    let word_deprel = |h: u32| -> Option<&str> {
        (h != 0 && h != NO_PARENT).then(|| w.deprels[(h - 1) as usize])
    };
    if off.off(1) {
        // gapping: a path becomes the basic relation
        let mut out: Vec<Item> = Vec::with_capacity(items.len());
        for it in items.drain(..) {
            if it.1.contains('>') {
                out.push(own());
            } else if !out.contains(&it) {
                out.push(it);
            }
        }
        *items = out;
    }
    if off.off(2) {
        // shared parents in coordination: the last single `conj…` item alone
        if let Some(last) = items
            .iter()
            .rev()
            .find(|it| !it.1.contains('>') && it.1.starts_with("conj"))
            .cloned()
        {
            *items = vec![last];
        }
    }
    // 3 (shared dependents in coordination): udeval compares a head word with the HEAD
    // column's text, which are never equal, so the filter removes nothing; neither does
    // treeval's.
    if off.off(4) {
        items.retain(|(h, l)| {
            !(word_deprel(*h) == Some("xcomp") && l.split('>').any(|s| s.starts_with("nsubj")))
        });
    }
    if off.off(5) {
        let mut out: Vec<Item> = Vec::with_capacity(items.len());
        for (h, l) in items.drain(..) {
            if l.split('>').next() == Some("ref") {
                out.push(own());
            } else if word_deprel(h).is_some_and(|d| d.starts_with("acl"))
                // udeval compares the head's HEAD with the word's 0-based position
                && w.heads[(h - 1) as usize] == w.id - 1
            {
            } else {
                out.push((h, l));
            }
        }
        *items = out;
    }
    if off.off(6) {
        for (_, l) in items.iter_mut() {
            if l.split('>').any(|s| case_step(s).is_some()) {
                *l = l
                    .split('>')
                    .map(|s| case_step(s).unwrap_or(s))
                    .collect::<Vec<_>>()
                    .join(">");
            }
        }
    }
}

/// `obl:in` → `obl` (a case relation with one subtype that is not a universal extension).
fn case_step(s: &str) -> Option<&str> {
    let (a, b) = s.split_once(':')?;
    (CASE_DEPRELS.contains(&a) && !b.contains(':') && !UNIVERSAL_EXTENSIONS.contains(&b))
        .then_some(a)
}

/// EULAS: the same number of steps, each with the same universal part.
pub(super) fn universal_path_eq(a: &[u8], b: &[u8]) -> bool {
    let mut x = a.split(|&c| c == b'>');
    let mut y = b.split(|&c| c == b'>');
    loop {
        match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(p), Some(q)) => {
                let u =
                    |s: &[u8]| -> usize { s.iter().position(|&c| c == b':').unwrap_or(s.len()) };
                if p[..u(p)] != q[..u(q)] {
                    return false;
                }
            }
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use treeval_formats::ReaderBuilder;

    fn sentence(text: &str) -> Sentence {
        let mut r = ReaderBuilder::new().from_reader("t.conllu", text.as_bytes());
        let mut s = Sentence::new();
        assert!(r.read_sentence(&mut s).unwrap());
        s
    }

    const GAPPING: &str = "1\tMary\tMary\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\t_\n\
2\tlikes\tlike\tVERB\t_\t_\t0\troot\t0:root\t_\n\
3\tcoffee\tcoffee\tNOUN\t_\t_\t2\tobj\t2:obj\t_\n\
4\tand\tand\tCCONJ\t_\t_\t5\tcc\t5.1:cc\t_\n\
5\tBill\tBill\tPROPN\t_\t_\t2\tconj\t5.1:nsubj\t_\n\
5.1\tlikes\tlike\tVERB\t_\t_\t_\t_\t2:conj:and\t_\n\
6\ttea\ttea\tNOUN\t_\t_\t5\torphan\t5.1:obj\t_\n\n";

    #[test]
    fn collapse_as_the_ud_collapser() {
        // the tiny reference pair's gapping sentence and its collapsed form
        let s = sentence(GAPPING);
        let (mut out, mut problems) = (Vec::new(), Vec::new());
        collapse(&s, &mut out, &mut problems);
        assert!(problems.is_empty());
        assert_eq!(out[3], vec![(2, "conj:and>cc".to_owned())]);
        assert_eq!(out[4], vec![(2, "conj:and>nsubj".to_owned())]);
        assert_eq!(out[5], vec![(2, "conj:and>obj".to_owned())]);
        assert_eq!(out[0], vec![(2, "nsubj".to_owned())]);
        assert_eq!(out[1], vec![(0, "root".to_owned())]);
    }

    #[test]
    fn collapse_chains_and_cycles_of_empty_nodes() {
        let s = sentence(
            "1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\n\
1.1\tb\tb\tX\t_\t_\t_\t_\t1:r1|1.2:r4\t_\n\
1.2\tc\tc\tX\t_\t_\t_\t_\t1.1:r2\t_\n\
2\td\td\tX\t_\t_\t1\tdep\t1.2:r3|1:dep|1:dep\t_\n\n",
        );
        let (mut out, mut problems) = (Vec::new(), Vec::new());
        collapse(&s, &mut out, &mut problems);
        assert!(problems.is_empty());
        // 1 -r1-> 1.1 -r2-> 1.2 -r3-> 2; the cycle 1.2 -r4-> 1.1 is not followed twice
        assert_eq!(
            out[1],
            vec![(1, "dep".to_owned()), (1, "r1>r2>r3".to_owned())]
        );
    }

    #[test]
    fn collapse_reports_unknown_empty_nodes() {
        let s = sentence("1\ta\ta\tX\t_\t_\t0\troot\t0:root|3.1:x\t_\n\n");
        let (mut out, mut problems) = (Vec::new(), Vec::new());
        collapse(&s, &mut out, &mut problems);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].line, 1);
        assert_eq!(out[0], vec![(0, "root".to_owned())]);
    }

    #[test]
    fn enhancement_digits() {
        let e = Enhancements::parse("16").unwrap();
        assert!(e.off(1) && e.off(6) && !e.off(2) && !e.off(0));
        assert_eq!(e.digits(), "16");
        assert_eq!(Enhancements::parse("0").unwrap().digits(), "0");
        assert!(Enhancements::parse("7").is_err());
    }

    fn ctx<'a>(id: u32, heads: &'a [u32], deprels: &'a [&'a str]) -> WordContext<'a> {
        WordContext { id, heads, deprels }
    }

    #[test]
    fn enhancement_filters() {
        let heads = [2, 0, 2, 3];
        let deprels = ["nsubj", "root", "xcomp", "acl"];
        let it = |h: u32, l: &str| (h, l.to_owned());
        // 1: a path becomes the basic relation; single items are kept once, but the
        // basic relation is added even when already there (as udeval)
        let mut v = vec![it(2, "conj>nsubj"), it(2, "nsubj"), it(2, "nsubj")];
        apply_enhancements(
            &mut v,
            Enhancements::parse("1").unwrap(),
            &ctx(1, &heads, &deprels),
        );
        assert_eq!(v, vec![it(2, "nsubj")]);
        let mut v = vec![it(2, "nsubj"), it(3, "conj>nsubj")];
        apply_enhancements(
            &mut v,
            Enhancements::parse("1").unwrap(),
            &ctx(1, &heads, &deprels),
        );
        assert_eq!(v, vec![it(2, "nsubj"), it(2, "nsubj")]);
        // 1 on a root word: udeval's None parent
        let mut v = vec![it(0, "a>b")];
        apply_enhancements(
            &mut v,
            Enhancements::parse("1").unwrap(),
            &ctx(2, &heads, &deprels),
        );
        assert_eq!(v, vec![(NO_PARENT, "root".to_owned())]);
        // 2: the last single conj item alone
        let mut v = vec![it(3, "conj:and"), it(1, "nsubj"), it(4, "conj")];
        apply_enhancements(
            &mut v,
            Enhancements::parse("2").unwrap(),
            &ctx(1, &heads, &deprels),
        );
        assert_eq!(v, vec![it(4, "conj")]);
        // 4: subjects of xcomp heads go
        let mut v = vec![it(3, "nsubj:xsubj"), it(2, "nsubj")];
        apply_enhancements(
            &mut v,
            Enhancements::parse("4").unwrap(),
            &ctx(1, &heads, &deprels),
        );
        assert_eq!(v, vec![it(2, "nsubj")]);
        // 5: ref becomes the basic relation; an acl head whose HEAD is the word's 0-based
        // position is dropped (word 4's head is 3, word 4 is at position 3)
        let mut v = vec![it(1, "ref"), it(4, "obj")];
        apply_enhancements(
            &mut v,
            Enhancements::parse("5").unwrap(),
            &ctx(4, &heads, &deprels),
        );
        assert_eq!(v, vec![it(3, "acl")]);
        let mut v = vec![it(4, "obj")];
        apply_enhancements(
            &mut v,
            Enhancements::parse("5").unwrap(),
            &ctx(3, &heads, &deprels),
        );
        assert_eq!(v, vec![it(4, "obj")]);
        // 6: case subtypes go, universal extensions and deeper subtypes stay
        let mut v = vec![
            it(2, "obl:in"),
            it(2, "nsubj:pass"),
            it(2, "nmod:relcl"),
            it(2, "conj:and>obl:x:y"),
        ];
        apply_enhancements(
            &mut v,
            Enhancements::parse("6").unwrap(),
            &ctx(1, &heads, &deprels),
        );
        assert_eq!(
            v,
            vec![
                it(2, "obl"),
                it(2, "nsubj:pass"),
                it(2, "nmod:relcl"),
                it(2, "conj>obl:x:y")
            ]
        );
        // 3 removes nothing
        let mut v = vec![it(2, "nsubj"), it(3, "nsubj")];
        apply_enhancements(
            &mut v,
            Enhancements::parse("3").unwrap(),
            &ctx(1, &heads, &deprels),
        );
        assert_eq!(v.len(), 2);
    }

    #[test]
    fn eulas_paths() {
        assert!(universal_path_eq(b"conj:and>nsubj:pass", b"conj:or>nsubj"));
        assert!(!universal_path_eq(b"conj>nsubj", b"conj"));
        assert!(!universal_path_eq(b"obj", b"obl"));
        assert!(universal_path_eq(b"obl:in", b"obl"));
    }
}
