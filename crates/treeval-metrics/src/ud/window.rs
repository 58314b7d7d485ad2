//! One file's side of a `ud` evaluation: the sentences read but not yet counted, as flat
//! words with their character spans, the fields the metrics compare (copied into one
//! arena), and the enhanced graph. Sentences leave the window once counted, so memory
//! does not grow with the file.

use std::sync::Arc;

use treeval_formats::{Diagnostic, ErrorKind, NodeId, Position, Sentence};
use unicode_general_category::{get_general_category, GeneralCategory};

use super::enhanced::{self, Item, WordContext, NO_PARENT};
use super::{EmptyNodes, UdOptions, CONTENT_DEPRELS, FUNCTIONAL_DEPRELS};
use crate::labels::LabelTable;
use crate::tree::Tree;

/// The artificial root as a head.
pub(super) const ROOT: u32 = u32::MAX;
/// No word (no child, no sibling, no alignment).
pub(super) const NONE: u32 = u32::MAX - 2;

/// A head in the window that never matches (udeval's `None` parent).
pub(super) const NEVER: u32 = u32::MAX - 1;

pub(super) const F_MULTIWORD: u8 = 1;
pub(super) const F_CONTENT: u8 = 2;
pub(super) const F_FUNCTIONAL: u8 = 4;

/// One syntactic word.
#[derive(Debug, Clone, Copy)]
pub(super) struct W {
    /// Span of its token (the whole multiword token for its words) in the text.
    pub start: u64,
    pub end: u64,
    /// Arena offsets: form, lemma, upos, xpos, ufeats, end.
    pub f: [u32; 6],
    /// Range of its enhanced items in `Side::edeps`.
    pub edeps: (u32, u32),
    /// Window index of the basic head, or [`ROOT`].
    pub parent: u32,
    /// Window index of its sentence.
    pub sent: u32,
    /// Universal DEPREL id.
    pub label: u32,
    /// First functional child and next functional sibling (window indices or [`NONE`]).
    pub first_child: u32,
    pub next_sibling: u32,
    pub flags: u8,
}

/// One enhanced item: head (window index, [`ROOT`] or [`NEVER`]) and label (arena range).
#[derive(Debug, Clone, Copy)]
pub(super) struct Edep {
    pub head: u32,
    pub label: (u32, u32),
}

/// A token: its span and line.
#[derive(Debug, Clone, Copy)]
pub(super) struct Tok {
    pub start: u64,
    pub end: u64,
    pub line: u64,
}

/// A sentence in the window.
#[derive(Debug, Clone, Copy)]
pub(super) struct SentInfo {
    pub first_word: u32,
    pub first_token: u32,
    pub start: u64,
    pub end: u64,
}

/// What was read from a file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Sentences.
    pub sentences: u64,
    /// Tokens (a multiword token once).
    pub tokens: u64,
    /// Syntactic words.
    pub words: u64,
    /// Empty nodes (`5.1`).
    pub empty_nodes: u64,
    /// DEPS items into empty nodes that `--empty-nodes drop` left out.
    pub dropped_edges: u64,
    /// Enhanced items scored (after collapsing or dropping and the enhancement filters).
    pub enhanced_items: u64,
}

/// One file's window.
pub(super) struct Side {
    pub path: Arc<str>,
    pub words: Vec<W>,
    pub arena: Vec<u8>,
    pub edeps: Vec<Edep>,
    pub sents: Vec<SentInfo>,
    pub tokens: Vec<Tok>,
    /// The text (FORMs without Zs characters) from global byte offset `text_base` on.
    pub text: Vec<u8>,
    pub text_base: u64,
    /// Global length of the text read so far.
    pub pos: u64,
    pub eof: bool,
    pub last_line: u64,
    pub stats: SideStats,
    pub errors: Vec<Diagnostic>,
    tree: Tree,
    heads: Vec<u32>,
    collapsed: Vec<Vec<Item>>,
    problems: Vec<enhanced::DepsProblem>,
    feats: Vec<(u32, u32)>,
}

fn is_zs(c: char) -> bool {
    get_general_category(c) == GeneralCategory::SpaceSeparator
}

impl Side {
    pub fn new(path: &str) -> Self {
        Side {
            path: Arc::from(path),
            words: Vec::new(),
            arena: Vec::new(),
            edeps: Vec::new(),
            sents: Vec::new(),
            tokens: Vec::new(),
            text: Vec::new(),
            text_base: 0,
            pos: 0,
            eof: false,
            last_line: 0,
            stats: SideStats::default(),
            errors: Vec::new(),
            tree: Tree::new(),
            heads: Vec::new(),
            collapsed: Vec::new(),
            problems: Vec::new(),
            feats: Vec::new(),
        }
    }

    #[inline]
    pub fn field(&self, w: &W, k: usize) -> &[u8] {
        &self.arena[w.f[k] as usize..w.f[k + 1] as usize]
    }

    #[inline]
    pub fn label_text(&self, e: &Edep) -> &[u8] {
        &self.arena[e.label.0 as usize..e.label.1 as usize]
    }

    #[inline]
    pub fn is_sentence_start(&self, i: usize) -> bool {
        self.sents[self.words[i].sent as usize].first_word as usize == i
    }

    /// Append the form without its Zs characters to the text; the FORM's span.
    fn push_text(&mut self, form: &str) -> (u64, u64) {
        let start = self.pos;
        if form.bytes().all(|b| b.is_ascii() && b != b' ') {
            self.text.extend_from_slice(form.as_bytes());
        } else {
            for c in form.chars().filter(|&c| !is_zs(c)) {
                let mut b = [0u8; 4];
                self.text
                    .extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            }
        }
        self.pos = self.text_base + self.text.len() as u64;
        (start, self.pos)
    }

    /// Universal features, sorted, joined by `|`, into the arena.
    fn push_ufeats(&mut self, feats: &str) {
        self.feats.clear();
        let mut offset = 0u32;
        let mut sorted = true;
        for f in feats.split('|') {
            let name = f.split('=').next().unwrap_or("");
            if super::UNIVERSAL_FEATURES.contains(&name) {
                if let Some(&(a, b)) = self.feats.last() {
                    sorted &= feats[a as usize..b as usize] <= *f;
                }
                self.feats.push((offset, offset + f.len() as u32));
            }
            offset += f.len() as u32 + 1;
        }
        if !sorted {
            self.feats.sort_unstable_by(|x, y| {
                feats[x.0 as usize..x.1 as usize].cmp(&feats[y.0 as usize..y.1 as usize])
            });
        }
        for (k, &(a, b)) in self.feats.iter().enumerate() {
            if k > 0 {
                self.arena.push(b'|');
            }
            self.arena
                .extend_from_slice(&feats.as_bytes()[a as usize..b as usize]);
        }
    }

    /// Read one sentence into the window. Problems go to `self.errors`.
    pub fn push(
        &mut self,
        s: &Sentence,
        opts: &UdOptions,
        labels: &mut LabelTable,
        classes: &mut Vec<u8>,
    ) {
        let path = self.path.clone();
        let pos = |line: u64, col: u32| {
            Position::new(path.clone(), line, col).in_sentence(s.index(), s.sent_id())
        };
        let base = self.words.len() as u32;
        let sent = self.sents.len() as u32;
        let first_token = self.tokens.len() as u32;
        let start = self.pos;
        let words = s.words();
        let n = words.len();
        let mut mwts = s.multiword_tokens().iter().peekable();
        let mut i = 0usize;
        while i < n {
            let id = i as u32 + 1;
            let (form, line, count, multi) = match mwts.peek().filter(|t| t.first == id).copied() {
                Some(t) => {
                    mwts.next();
                    (s.mwt_form(t), t.line, (t.last - t.first + 1) as usize, true)
                }
                None => (s.form(&words[i]), words[i].line, 1, false),
            };
            let (ts, te) = self.push_text(form);
            if ts == te {
                self.errors.push(
                    Diagnostic::error(pos(line, 2), ErrorKind::EmptyField { column: "FORM" })
                        .with_hint("after removing space characters (Unicode Zs) the FORM is empty, which the CoNLL 2018 scorer rejects"),
                );
            }
            self.tokens.push(Tok {
                start: ts,
                end: te,
                line,
            });
            self.last_line = line;
            for w in &words[i..(i + count).min(n)] {
                let f0 = self.arena.len() as u32;
                self.arena.extend_from_slice(s.form(w).as_bytes());
                let f1 = self.arena.len() as u32;
                self.arena.extend_from_slice(s.lemma(w).as_bytes());
                let f2 = self.arena.len() as u32;
                self.arena.extend_from_slice(s.upos(w).as_bytes());
                let f3 = self.arena.len() as u32;
                self.arena.extend_from_slice(s.xpos(w).as_bytes());
                let f4 = self.arena.len() as u32;
                self.push_ufeats(s.feats(w));
                let f5 = self.arena.len() as u32;
                let deprel = s.deprel(w);
                let label = labels.intern(deprel.split(':').next().unwrap_or(""));
                while classes.len() < labels.len() {
                    let name = labels.name(classes.len() as u32);
                    classes.push(if CONTENT_DEPRELS.contains(&name) {
                        F_CONTENT
                    } else if FUNCTIONAL_DEPRELS.contains(&name) {
                        F_FUNCTIONAL
                    } else {
                        0
                    });
                }
                self.words.push(W {
                    start: ts,
                    end: te,
                    f: [f0, f1, f2, f3, f4, f5],
                    edeps: (0, 0),
                    parent: ROOT,
                    sent,
                    label,
                    first_child: NONE,
                    next_sibling: NONE,
                    flags: classes[label as usize] | if multi { F_MULTIWORD } else { 0 },
                });
            }
            i += count;
        }
        self.stats.sentences += 1;
        self.stats.tokens += u64::from(self.tokens.len() as u32 - first_token);
        self.stats.words += n as u64;
        self.sents.push(SentInfo {
            first_word: base,
            first_token,
            start,
            end: self.pos,
        });

        // basic tree: heads, roots, cycles
        let mut roots = 0;
        let mut bad = false;
        self.heads.clear();
        for (k, w) in words.iter().enumerate() {
            let h = match w.head().index() {
                None => {
                    self.errors.push(Diagnostic::error(
                        pos(w.line, s.head_column(w)),
                        ErrorKind::MissingHead,
                    ));
                    bad = true;
                    0
                }
                Some(h) if h as usize > n => {
                    self.errors.push(Diagnostic::error(
                        pos(w.line, s.head_column(w)),
                        ErrorKind::HeadOutOfRange {
                            head: u64::from(h),
                            words: n,
                        },
                    ));
                    bad = true;
                    0
                }
                Some(h) => h,
            };
            roots += usize::from(h == 0);
            self.heads.push(h);
            if h > 0 {
                self.words[base as usize + k].parent = base + h - 1;
            }
        }
        if !bad {
            let p = self.tree.analyze(self.heads.iter().map(|&h| Some(h)));
            if p.cycles > 0 || p.self_loops > 0 {
                let w = &words[(p.first_cycle_word.max(1) - 1) as usize];
                self.errors.push(Diagnostic::error(
                    pos(w.line, s.head_column(w)),
                    ErrorKind::Cycle {
                        words: format!("{}", w.id),
                    },
                ));
            }
        }
        if roots == 0 && !bad {
            self.errors.push(Diagnostic::error(
                pos(s.first_line(), 1),
                ErrorKind::RootCount { found: 0 },
            ));
        }
        if roots > 1 && !opts.multiple_roots_okay {
            self.errors.push(
                Diagnostic::error(
                    pos(s.first_line(), 1),
                    ErrorKind::RootCount { found: roots },
                )
                .with_hint("--multiple-roots-okay accepts several roots, as udeval's option"),
            );
        }
        // functional children, in word order
        for k in (base..self.words.len() as u32).rev() {
            let w = self.words[k as usize];
            if w.flags & F_FUNCTIONAL != 0 && w.parent != ROOT {
                let p = w.parent as usize;
                self.words[k as usize].next_sibling = self.words[p].first_child;
                self.words[p].first_child = k;
            }
        }
        self.push_enhanced(s, base, opts, labels);
    }

    /// The enhanced items of every word of the sentence just read.
    fn push_enhanced(&mut self, s: &Sentence, base: u32, opts: &UdOptions, labels: &LabelTable) {
        let path = self.path.clone();
        let pos = |line: u64, col: u32| {
            Position::new(path.clone(), line, col).in_sentence(s.index(), s.sent_id())
        };
        let words = s.words();
        let n = words.len() as u32;
        let empties = s.empty_nodes();
        self.stats.empty_nodes += empties.len() as u64;
        if !empties.is_empty() && opts.empty_nodes == EmptyNodes::Error {
            for e in empties {
                self.errors.push(
                    Diagnostic::error(
                        pos(e.line, 1),
                        ErrorKind::Other(format!(
                            "expected no empty nodes (--empty-nodes error), found {}.{}",
                            e.after, e.sub
                        )),
                    )
                    .with_hint("--empty-nodes collapse (the default) scores paths through empty nodes, drop leaves out the edges into them"),
                );
            }
        }
        let to_window = |h: u32| match h {
            0 => ROOT,
            NO_PARENT => NEVER,
            h => base + h - 1,
        };
        let collapse = opts.empty_nodes == EmptyNodes::Collapse;
        if (collapse && !empties.is_empty()) || opts.enhancements.any() {
            // the general path: owned items per word
            if collapse {
                self.problems.clear();
                let mut collapsed = std::mem::take(&mut self.collapsed);
                enhanced::collapse(s, &mut collapsed, &mut self.problems);
                for p in self.problems.drain(..) {
                    self.errors.push(
                        Diagnostic::error(pos(p.line, 9), ErrorKind::BadDeps { found: p.item })
                            .with_hint(p.message),
                    );
                }
                self.collapsed = collapsed;
            } else {
                self.collapsed.clear();
                for w in words {
                    let mut items = Vec::new();
                    for it in treeval_formats::sentence::parse_deps(s.deps(w)) {
                        match it {
                            Ok(e) => match e.head {
                                NodeId::Word(h) if h <= n => items.push((h, e.deprel.to_owned())),
                                NodeId::Word(h) => self.errors.push(Diagnostic::error(
                                    pos(w.line, 9),
                                    ErrorKind::HeadOutOfRange {
                                        head: u64::from(h),
                                        words: n as usize,
                                    },
                                )),
                                NodeId::Empty(..) => self.stats.dropped_edges += 1,
                            },
                            Err(bad) => self.errors.push(Diagnostic::error(
                                pos(w.line, 9),
                                ErrorKind::BadDeps {
                                    found: bad.to_owned(),
                                },
                            )),
                        }
                    }
                    self.collapsed.push(items);
                }
            }
            if opts.enhancements.any() {
                let deprels: Vec<&str> = words
                    .iter()
                    .map(|w| labels.name(self.words[(base + w.id - 1) as usize].label))
                    .collect();
                for (k, items) in self.collapsed.iter_mut().enumerate() {
                    let ctx = WordContext {
                        id: k as u32 + 1,
                        heads: &self.heads,
                        deprels: &deprels,
                    };
                    enhanced::apply_enhancements(items, opts.enhancements, &ctx);
                }
            }
            for k in 0..self.collapsed.len() {
                let from = self.edeps.len() as u32;
                for j in 0..self.collapsed[k].len() {
                    let (h, ref l) = self.collapsed[k][j];
                    let a = self.arena.len() as u32;
                    self.arena.extend_from_slice(l.as_bytes());
                    self.edeps.push(Edep {
                        head: to_window(h),
                        label: (a, self.arena.len() as u32),
                    });
                }
                let to = self.edeps.len() as u32;
                self.words[base as usize + k].edeps = (from, to);
                self.stats.enhanced_items += u64::from(to - from);
            }
            return;
        }
        // the fast path: items as written
        for (k, w) in words.iter().enumerate() {
            let from = self.edeps.len() as u32;
            for it in treeval_formats::sentence::parse_deps(s.deps(w)) {
                match it {
                    Ok(e) => match e.head {
                        NodeId::Word(h) if h <= n => {
                            let a = self.arena.len() as u32;
                            let label = e.deprel.as_bytes();
                            let head = to_window(h);
                            if collapse
                                && self.edeps[from as usize..].iter().any(|x| {
                                    x.head == head
                                        && &self.arena[x.label.0 as usize..x.label.1 as usize]
                                            == label
                                })
                            {
                                // the collapser's graph holds an edge once
                                continue;
                            }
                            self.arena.extend_from_slice(label);
                            self.edeps.push(Edep {
                                head,
                                label: (a, self.arena.len() as u32),
                            });
                        }
                        NodeId::Word(h) => self.errors.push(Diagnostic::error(
                            pos(w.line, 9),
                            ErrorKind::HeadOutOfRange {
                                head: u64::from(h),
                                words: n as usize,
                            },
                        )),
                        NodeId::Empty(a, b) => match opts.empty_nodes {
                            EmptyNodes::Drop => self.stats.dropped_edges += 1,
                            // collapse without empty nodes in the sentence: a dangling reference;
                            // error mode: the empty node itself is reported above
                            EmptyNodes::Collapse => self.errors.push(
                                Diagnostic::error(
                                    pos(w.line, 9),
                                    ErrorKind::BadDeps {
                                        found: s.deps(w).to_owned(),
                                    },
                                )
                                .with_hint(format!("the sentence has no empty node {a}.{b}")),
                            ),
                            EmptyNodes::Error => {}
                        },
                    },
                    Err(bad) => self.errors.push(Diagnostic::error(
                        pos(w.line, 9),
                        ErrorKind::BadDeps {
                            found: bad.to_owned(),
                        },
                    )),
                }
            }
            let to = self.edeps.len() as u32;
            self.words[base as usize + k].edeps = (from, to);
            self.stats.enhanced_items += u64::from(to - from);
        }
    }

    /// Drop the first `nw` words (and their sentences, tokens, arena and items) from the
    /// window; `nw` must be a sentence start or the window's length.
    pub fn drain(&mut self, nw: usize) {
        if nw == 0 {
            return;
        }
        let (ns, nt, arena, edeps) = match self.words.get(nw) {
            Some(w) => {
                let si = w.sent as usize;
                (si, self.sents[si].first_token as usize, w.f[0], w.edeps.0)
            }
            None => (
                self.sents.len(),
                self.tokens.len(),
                self.arena.len() as u32,
                self.edeps.len() as u32,
            ),
        };
        let (nw32, ns32, nt32) = (nw as u32, ns as u32, nt as u32);
        self.words.drain(..nw);
        self.sents.drain(..ns);
        self.tokens.drain(..nt);
        self.arena.drain(..arena as usize);
        self.edeps.drain(..edeps as usize);
        let shift = |x: u32| if x >= NONE { x } else { x - nw32 };
        for w in &mut self.words {
            for f in &mut w.f {
                *f -= arena;
            }
            w.edeps = (w.edeps.0 - edeps, w.edeps.1 - edeps);
            w.parent = shift(w.parent);
            w.first_child = shift(w.first_child);
            w.next_sibling = shift(w.next_sibling);
            w.sent -= ns32;
        }
        for e in &mut self.edeps {
            e.head = shift(e.head);
            e.label = (e.label.0 - arena, e.label.1 - arena);
        }
        for s in &mut self.sents {
            s.first_word -= nw32;
            s.first_token -= nt32;
        }
    }
}
