//! One file's side of a `ud` evaluation: the sentences read but not yet counted, as flat
//! words with their character spans, the fields the metrics compare (copied into one
//! arena), and the enhanced graph. Sentences leave the window once counted, so memory
//! does not grow with the file.

use std::sync::Arc;

use treeval_formats::{Diagnostic, EnhancedEdge, ErrorKind, NodeId, Position, Sentence, Word};
use unicode_general_category::{get_general_category, GeneralCategory};

use super::enhanced::{self, Item, WordContext, NO_PARENT};
use super::{EmptyNodes, UdOptions, CONTENT_DEPRELS, FUNCTIONAL_DEPRELS};
use crate::deps::{depth_bin, direction_bin, distance_bin, length_bin, projectivity_bin, ByKey};
use crate::labels::LabelTable;
use crate::select::Verdict;
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
/// The word meets the `--where` conditions (set on every word when there are some; the
/// evaluation reads it on gold words only).
pub(super) const F_KEPT: u8 = 8;

/// One syntactic word.
#[derive(Debug, Clone, Copy)]
pub(super) struct W {
    /// Span of its token (the whole multiword token for its words) in the text.
    pub start: u64,
    pub end: u64,
    /// Arena offsets: form, lemma, upos, xpos, ufeats, full deprel, end; each field is
    /// followed by a tab.
    pub f: [u32; 7],
    /// Universal DEPREL: an id of the converter's table in a chunk, of the evaluation's
    /// table in the window.
    pub label: u32,
    /// Range of its enhanced items in `Side::edeps`.
    pub edeps: (u32, u32),
    /// Window index of the basic head, or [`ROOT`].
    pub parent: u32,
    /// Window index of its sentence.
    pub sent: u32,
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
    /// What [`UdOptions::selection`] makes of it (read for gold sentences only).
    pub verdict: Verdict,
    /// Its id's index in the `--sent-id` file, or [`NONE`].
    pub listed: u32,
    /// `--sent-id` judged it by its number in the file (it has no `# sent_id`).
    pub numbered: bool,
    /// Its syntactic words.
    pub words: u32,
    /// Its `# sent_id`, a range of the arena (after its words' fields), if it has one.
    pub id: Option<(u32, u32)>,
}

/// What was read from a file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// Words whose LEMMA is not `_`.
    pub lemma_filled: u64,
    /// Words whose XPOS is not `_`.
    pub xpos_filled: u64,
    /// Words whose FEATS is not `_`.
    pub feats_filled: u64,
    /// Words whose DEPS is not `_` (0 in states written before it was counted).
    #[serde(default)]
    pub deps_filled: u64,
}

impl std::ops::AddAssign for SideStats {
    fn add_assign(&mut self, o: Self) {
        self.sentences += o.sentences;
        self.tokens += o.tokens;
        self.words += o.words;
        self.empty_nodes += o.empty_nodes;
        self.dropped_edges += o.dropped_edges;
        self.enhanced_items += o.enhanced_items;
        self.lemma_filled += o.lemma_filled;
        self.xpos_filled += o.xpos_filled;
        self.feats_filled += o.feats_filled;
        self.deps_filled += o.deps_filled;
    }
}

impl SideStats {
    /// The columns (`LEMMA`, `XPOS`, `FEATS`) that are `_` on every word of a file with
    /// words, each with the measures that read it in gold and are then not applicable.
    pub fn empty_columns(&self) -> Vec<(&'static str, &'static [&'static str])> {
        if self.words == 0 {
            return Vec::new();
        }
        [
            ("XPOS", self.xpos_filled, &["XPOS", "AllTags"][..]),
            (
                "FEATS",
                self.feats_filled,
                &["UFeats", "AllTags", "MLAS"][..],
            ),
            ("LEMMA", self.lemma_filled, &["Lemmas", "BLEX"][..]),
        ]
        .into_iter()
        .filter(|c| c.1 == 0)
        .map(|(c, _, m)| (c, m))
        .collect()
    }

    /// The columns (`XPOS`, `FEATS`, `LEMMA`, `DEPS`) that a system file with words
    /// leaves `_` on every word while the `gold` file fills them, each with the measures
    /// that are then not applicable to this system (it predicted nothing to compare: a
    /// parser without enhanced graph, as spaCy's output, has no ELAS or EULAS). A
    /// column the gold leaves empty is [`SideStats::empty_columns`]'s.
    pub fn system_empty_columns(
        &self,
        gold: &SideStats,
    ) -> Vec<(&'static str, &'static [&'static str])> {
        if self.words == 0 || gold.words == 0 {
            return Vec::new();
        }
        // DEPS: no item read (an older state has no `deps_filled`: its items decide)
        let no_deps = self.deps_filled == 0 && self.enhanced_items == 0;
        [
            (
                "XPOS",
                self.xpos_filled == 0 && gold.xpos_filled > 0,
                &["XPOS", "AllTags"][..],
            ),
            (
                "FEATS",
                self.feats_filled == 0 && gold.feats_filled > 0,
                &["UFeats", "AllTags", "MLAS"][..],
            ),
            (
                "LEMMA",
                self.lemma_filled == 0 && gold.lemma_filled > 0,
                &["Lemmas", "BLEX"][..],
            ),
            (
                "DEPS",
                no_deps && gold.enhanced_items > 0,
                &["ELAS", "EULAS"][..],
            ),
        ]
        .into_iter()
        .filter(|c| c.1)
        .map(|(c, _, m)| (c, m))
        .collect()
    }
}

/// Sentences as flat arrays: words, the fields they compare (one arena, see
/// [`Side::field`]), enhanced items, sentences, tokens and the text (FORMs without Zs
/// characters).
#[derive(Debug, Default, Clone)]
pub(super) struct Flat {
    pub words: Vec<W>,
    pub arena: Vec<u8>,
    pub edeps: Vec<Edep>,
    pub sents: Vec<SentInfo>,
    pub tokens: Vec<Tok>,
    pub text: Vec<u8>,
}

impl Flat {
    fn clear(&mut self) {
        self.words.clear();
        self.arena.clear();
        self.edeps.clear();
        self.sents.clear();
        self.tokens.clear();
        self.text.clear();
    }

    /// Append a chunk's arrays, turning its local indices into these and its text offsets
    /// into offsets from `pos`, its converter label ids into `xlate`'s.
    fn append(&mut self, c: &Flat, pos: u64, xlate: &[u32]) {
        let (nw, ns, nt) = (
            self.words.len() as u32,
            self.sents.len() as u32,
            self.tokens.len() as u32,
        );
        let (na, ne) = (self.arena.len() as u32, self.edeps.len() as u32);
        let up = |x: u32| if x >= NONE { x } else { x + nw };
        self.words.extend(c.words.iter().map(|w| {
            let mut w = *w;
            w.start += pos;
            w.end += pos;
            for f in &mut w.f {
                *f += na;
            }
            w.edeps = (w.edeps.0 + ne, w.edeps.1 + ne);
            w.parent = up(w.parent);
            w.first_child = up(w.first_child);
            w.next_sibling = up(w.next_sibling);
            w.sent += ns;
            w.label = xlate[w.label as usize];
            w
        }));
        self.edeps.extend(c.edeps.iter().map(|e| Edep {
            head: up(e.head),
            label: (e.label.0 + na, e.label.1 + na),
        }));
        self.sents.extend(c.sents.iter().map(|x| SentInfo {
            first_word: x.first_word + nw,
            first_token: x.first_token + nt,
            start: x.start + pos,
            end: x.end + pos,
            id: x.id.map(|(a, b)| (a + na, b + na)),
            ..*x
        }));
        self.tokens.extend(c.tokens.iter().map(|t| Tok {
            start: t.start + pos,
            end: t.end + pos,
            line: t.line,
        }));
        self.arena.extend_from_slice(&c.arena);
        self.text.extend_from_slice(&c.text);
    }

    /// Drop the first `nw` words with their sentences, tokens, arena and items (not the
    /// text), shifting the indices of the rest; `nw` must be a sentence start or the
    /// length. Returns how many sentences and tokens were dropped.
    fn drain_front(&mut self, nw: usize) -> (usize, usize) {
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
            s.id = s.id.map(|(a, b)| (a - arena, b - arena));
        }
        (ns, nt)
    }
}

/// Sentences read and prepared on a reader thread; every index and offset in it is local
/// (words, sentences, tokens, arena, items, and text from 0).
#[derive(Debug, Default, Clone)]
pub(super) struct Chunk {
    pub flat: Flat,
    pub last_line: u64,
    pub stats: SideStats,
    pub errors: Vec<Diagnostic>,
    /// Relations the converter met for the first time in this chunk, in id order.
    pub new_labels: Vec<String>,
    /// Breakdown groups (`--by`): one converter group id per key and word.
    pub by: Vec<u32>,
    /// Group names the converter met for the first time in this chunk, in id order.
    pub new_groups: Vec<String>,
}

impl Chunk {
    pub fn clear(&mut self) {
        self.flat.clear();
        self.stats = SideStats::default();
        self.errors.clear();
        self.new_labels.clear();
        self.by.clear();
        self.new_groups.clear();
    }
}

/// Turns sentences into chunk entries (with its reusable buffers).
pub(super) struct Converter {
    path: Arc<str>,
    opts: UdOptions,
    tree: Tree,
    heads: Vec<u32>,
    collapsed: Vec<Vec<Item>>,
    problems: Vec<enhanced::DepsProblem>,
    feats: Vec<(u32, u32)>,
    labels: LabelTable,
    classes: Vec<u8>,
    groups: LabelTable,
}

/// One file's window: the chunks read and not yet counted, with global indices and text
/// offsets; the text only from global byte offset `text_base` on.
pub(super) struct Side {
    pub flat: Flat,
    pub text_base: u64,
    /// Global length of the text read so far.
    pub pos: u64,
    pub eof: bool,
    pub last_line: u64,
    pub stats: SideStats,
    pub errors: Vec<Diagnostic>,
    /// Words before this one are counted.
    pub front: usize,
    /// With `--align resync`: words, tokens and sentences before these have virtual
    /// offsets (the others still their file's own offsets).
    pub settled_words: usize,
    pub settled_tokens: usize,
    pub settled_sents: usize,
    /// Converter label id → evaluation label id.
    xlate: Vec<u32>,
    /// Breakdown keys, and the words' group ids (evaluation ids, `nk` per word).
    pub nk: usize,
    pub by: Vec<u32>,
    /// Converter group id → evaluation group id.
    xlate_groups: Vec<u32>,
}

fn is_zs(c: char) -> bool {
    get_general_category(c) == GeneralCategory::SpaceSeparator
}

impl Side {
    pub fn new(nk: usize) -> Self {
        Side {
            flat: Flat::default(),
            text_base: 0,
            pos: 0,
            eof: false,
            last_line: 0,
            stats: SideStats::default(),
            errors: Vec::new(),
            front: 0,
            settled_words: 0,
            settled_tokens: 0,
            settled_sents: 0,
            xlate: Vec::new(),
            nk,
            by: Vec::new(),
            xlate_groups: Vec::new(),
        }
    }

    /// Append a chunk, turning its local indices and offsets into the window's.
    pub fn append(
        &mut self,
        c: &Chunk,
        errors: &mut Vec<Diagnostic>,
        labels: &mut LabelTable,
        groups: &mut LabelTable,
    ) {
        for name in &c.new_labels {
            self.xlate.push(labels.intern(name));
        }
        for name in &c.new_groups {
            self.xlate_groups.push(groups.intern(name));
        }
        let xg = &self.xlate_groups;
        self.by.extend(c.by.iter().map(|&g| xg[g as usize]));
        self.flat.append(&c.flat, self.pos, &self.xlate);
        self.pos += c.flat.text.len() as u64;
        if !c.flat.tokens.is_empty() {
            self.last_line = c.last_line;
        }
        let (a, b) = (&mut self.stats, &c.stats);
        a.sentences += b.sentences;
        a.tokens += b.tokens;
        a.words += b.words;
        a.empty_nodes += b.empty_nodes;
        a.dropped_edges += b.dropped_edges;
        a.enhanced_items += b.enhanced_items;
        a.lemma_filled += b.lemma_filled;
        a.xpos_filled += b.xpos_filled;
        a.feats_filled += b.feats_filled;
        a.deps_filled += b.deps_filled;
        self.errors.append(errors);
    }

    /// Sentence `k`'s `# sent_id` and the line of its first token.
    pub fn sent_id(&self, k: usize) -> (Option<&str>, u64) {
        let info = &self.flat.sents[k];
        let id = info
            .id
            .and_then(|(a, b)| std::str::from_utf8(&self.flat.arena[a as usize..b as usize]).ok());
        let line = self
            .flat
            .tokens
            .get(info.first_token as usize)
            .map_or(0, |t| t.line);
        (id, line)
    }

    #[inline]
    pub fn field(&self, w: &W, k: usize) -> &[u8] {
        // each field is followed by a tab
        &self.flat.arena[w.f[k] as usize..w.f[k + 1] as usize - 1]
    }

    #[inline]
    pub fn label_text(&self, e: &Edep) -> &[u8] {
        &self.flat.arena[e.label.0 as usize..e.label.1 as usize]
    }

    #[inline]
    pub fn is_sentence_start(&self, i: usize) -> bool {
        self.flat.sents[self.flat.words[i].sent as usize].first_word as usize == i
    }

    /// Drop the first `nw` words (and their sentences, tokens, arena and items) from the
    /// window; `nw` must be a sentence start or the window's length.
    pub fn drain(&mut self, nw: usize) {
        if nw == 0 {
            return;
        }
        self.front -= nw;
        let (ns, nt) = self.flat.drain_front(nw);
        self.by.drain(..nw * self.nk);
        self.settled_words = self.settled_words.saturating_sub(nw);
        self.settled_sents = self.settled_sents.saturating_sub(ns);
        self.settled_tokens = self.settled_tokens.saturating_sub(nt);
    }
}

impl Converter {
    pub fn new(path: &str, opts: &UdOptions) -> Self {
        Converter {
            path: Arc::from(path),
            opts: opts.clone(),
            tree: Tree::new(),
            heads: Vec::new(),
            collapsed: Vec::new(),
            problems: Vec::new(),
            feats: Vec::new(),
            labels: LabelTable::new(),
            classes: Vec::new(),
            groups: LabelTable::new(),
        }
    }

    /// Append the form without its Zs characters to the text; the FORM's span.
    fn push_text(text: &mut Vec<u8>, form: &str) -> (u64, u64) {
        let start = text.len() as u64;
        if form.bytes().all(|b| b.is_ascii() && b != b' ') {
            text.extend_from_slice(form.as_bytes());
        } else {
            for c in form.chars().filter(|&c| !is_zs(c)) {
                let mut b = [0u8; 4];
                text.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            }
        }
        (start, text.len() as u64)
    }

    /// Universal features, sorted, joined by `|`, into the arena.
    fn push_ufeats(&mut self, arena: &mut Vec<u8>, feats: &str) {
        if feats == "_" {
            return;
        }
        self.feats.clear();
        let bytes = feats.as_bytes();
        let mut start = 0usize;
        let mut sorted = true;
        let mut all = true;
        while start <= bytes.len() {
            let end = find_byte(b'|', &bytes[start..]).map_or(bytes.len(), |k| start + k);
            let f = &bytes[start..end];
            let name_end = find_byte(b'=', f).unwrap_or(f.len());
            if is_universal_feature(&f[..name_end]) {
                if let Some(&(a, b)) = self.feats.last() {
                    sorted &= bytes[a as usize..b as usize] <= *f;
                }
                self.feats.push((start as u32, end as u32));
            } else {
                all = false;
            }
            start = end + 1;
        }
        if all && sorted {
            // the common case: the field as it is
            arena.extend_from_slice(bytes);
            return;
        }
        if !sorted {
            self.feats.sort_unstable_by(|x, y| {
                bytes[x.0 as usize..x.1 as usize].cmp(&bytes[y.0 as usize..y.1 as usize])
            });
        }
        for (k, &(a, b)) in self.feats.iter().enumerate() {
            if k > 0 {
                arena.push(b'|');
            }
            arena.extend_from_slice(&bytes[a as usize..b as usize]);
        }
    }

    /// Read one sentence into the window. Problems go to `c.errors`.
    pub fn push(&mut self, c: &mut Chunk, s: &Sentence) {
        let base = c.flat.words.len() as u32;
        let first_token = c.flat.tokens.len() as u32;
        let start = c.flat.text.len() as u64;
        self.push_tokens(c, s);
        c.stats.sentences += 1;
        c.stats.tokens += u64::from(c.flat.tokens.len() as u32 - first_token);
        c.stats.words += s.words().len() as u64;
        for w in s.words() {
            c.stats.lemma_filled += u64::from(s.lemma(w) != "_");
            c.stats.xpos_filled += u64::from(s.xpos(w) != "_");
            c.stats.feats_filled += u64::from(s.feats(w) != "_");
            c.stats.deps_filled += u64::from(s.deps(w) != "_");
        }
        let words = s.len() as u64;
        let (verdict, listed) = (self.opts.selection).judge(s.sent_id(), s.index(), words);
        c.flat.sents.push(SentInfo {
            first_word: base,
            first_token,
            start,
            end: c.flat.text.len() as u64,
            verdict,
            listed: listed.map_or(NONE, |k| k as u32),
            numbered: (self.opts.selection).by_number(s.sent_id()),
            words: words as u32,
            id: None,
        });
        let bad = self.push_heads(c, s, base);
        self.push_groups(c, s, base, bad);
        self.mark_kept(c, s, base);
        link_functional(c, base);
        self.push_enhanced(c, s, base);
        // the id after everything else of the sentence in the arena (draining the window
        // up to a word of this sentence keeps it)
        if let (Some(id), Some(info)) = (s.sent_id(), c.flat.sents.last_mut()) {
            let a = c.flat.arena.len() as u32;
            c.flat.arena.extend_from_slice(id.as_bytes());
            info.id = Some((a, c.flat.arena.len() as u32));
        }
    }

    /// The sentence's tokens (a multiword token once: its form, its line) with their
    /// text, and the words of each. A multiword token read from a reversed range (with a
    /// reference scorer's reading: `last` is `first - 1`) is a token without words, also
    /// after the sentence's last word.
    fn push_tokens(&mut self, c: &mut Chunk, s: &Sentence) {
        let sent = c.flat.sents.len() as u32;
        let words = s.words();
        let n = words.len();
        let mut mwts = s.multiword_tokens().iter().peekable();
        let mut i = 0usize;
        loop {
            let id = i as u32 + 1;
            let mut reported = false; // a malformed line the reader reported
            let (form, line, count, multi) = match mwts.next_if(|t| t.first == id) {
                // in u64: a range up to u32::MAX (`1-4294967295`) must not overflow
                Some(t) => (
                    s.mwt_form(t),
                    t.line,
                    (u64::from(t.last) + 1).saturating_sub(u64::from(t.first)) as usize,
                    true,
                ),
                None if i < n => {
                    reported = words[i].is_placeholder();
                    (s.form(&words[i]), words[i].line, 1, false)
                }
                None => break,
            };
            let (ts, te) = Self::push_text(&mut c.flat.text, form);
            if ts == te && !reported {
                c.errors.push(
                    Diagnostic::error(at(&self.path, s, line, 2), ErrorKind::EmptyField { column: "FORM" })
                        .with_hint("after removing space characters (Unicode Zs) the FORM is empty, which the CoNLL 2018 scorer rejects"),
                );
            }
            c.flat.tokens.push(Tok {
                start: ts,
                end: te,
                line,
            });
            c.last_line = line;
            for w in &words[i..(i + count).min(n)] {
                self.push_word(c, s, w, (ts, te), sent, multi);
            }
            i += count;
        }
    }

    /// One word of a token with text span `span`: its fields into the arena, its
    /// relation and class.
    #[inline]
    fn push_word(
        &mut self,
        c: &mut Chunk,
        s: &Sentence,
        w: &Word,
        span: (u64, u64),
        sent: u32,
        multi: bool,
    ) {
        // every field followed by a tab (see `Side::field`)
        let f0 = c.flat.arena.len() as u32;
        let (form, lemma, upos) = (s.form(w), s.lemma(w), s.upos(w));
        let f1 = f0 + form.len() as u32 + 1;
        let f2 = f1 + lemma.len() as u32 + 1;
        let f3 = f2 + upos.len() as u32 + 1;
        match s.form_to_xpos(w) {
            Some(t) => c.flat.arena.extend_from_slice(t.as_bytes()),
            None => {
                for x in [form, lemma, upos, s.xpos(w)] {
                    c.flat.arena.extend_from_slice(x.as_bytes());
                    c.flat.arena.push(b'\t');
                }
            }
        }
        let f4 = c.flat.arena.len() as u32;
        self.push_ufeats(&mut c.flat.arena, s.feats(w));
        c.flat.arena.push(b'\t');
        let f5 = c.flat.arena.len() as u32;
        c.flat.arena.extend_from_slice(s.deprel(w).as_bytes());
        c.flat.arena.push(b'\t');
        let f6 = c.flat.arena.len() as u32;
        let label = self.intern_label(c, s.deprel(w));
        let class = self.classes[label as usize];
        c.flat.words.push(W {
            start: span.0,
            end: span.1,
            f: [f0, f1, f2, f3, f4, f5, f6],
            label,
            edeps: (0, 0),
            parent: ROOT,
            sent,
            first_child: NONE,
            next_sibling: NONE,
            flags: class | if multi { F_MULTIWORD } else { 0 },
        });
    }

    /// The converter's id of a relation's universal part; a relation met for the first
    /// time goes to `c.new_labels`, and its class (content, functional) is noted.
    #[inline]
    fn intern_label(&mut self, c: &mut Chunk, deprel: &str) -> u32 {
        let label = self.labels.intern(universal(deprel));
        while self.classes.len() < self.labels.len() {
            let name = self.labels.name(self.classes.len() as u32);
            c.new_labels.push(name.to_owned());
            self.classes.push(if CONTENT_DEPRELS.contains(&name) {
                F_CONTENT
            } else if FUNCTIONAL_DEPRELS.contains(&name) {
                F_FUNCTIONAL
            } else {
                0
            });
        }
        label
    }

    /// The basic tree: every word's head (in `self.heads`, and as a window index) and
    /// the tree's problems. True when a head is missing or out of range.
    fn push_heads(&mut self, c: &mut Chunk, s: &Sentence, base: u32) -> bool {
        let words = s.words();
        let n = words.len();
        let mut roots = 0;
        let mut bad = false;
        self.heads.clear();
        for (k, w) in words.iter().enumerate() {
            let h = match w.head().index() {
                Some(0) => {
                    roots += 1;
                    0
                }
                None => {
                    // a HEAD other than `_` (`foo`) was rejected by the reader: one
                    // message for the one problem, not a second saying it found '_'
                    if s.head_text(w) == "_" || !s.has_errors() {
                        c.errors.push(Diagnostic::error(
                            at(&self.path, s, w.line, s.head_column(w)),
                            ErrorKind::MissingHead,
                        ));
                    }
                    bad = true;
                    0
                }
                Some(h) if h as usize > n => {
                    c.errors.push(Diagnostic::error(
                        at(&self.path, s, w.line, s.head_column(w)),
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
            self.heads.push(h);
            if h > 0 {
                c.flat.words[base as usize + k].parent = base + h - 1;
            }
        }
        self.check_tree(c, s, roots, bad);
        bad
    }

    /// Cycles (when every head is usable) and the number of roots (`roots`): a cycle is
    /// refused, as conll18_ud_eval.py refuses it, with [`CYCLE_HINT`].
    fn check_tree(&mut self, c: &mut Chunk, s: &Sentence, roots: usize, bad: bool) {
        if !bad {
            let p = self.tree.analyze(self.heads.iter().map(|&h| Some(h)));
            if p.cycles > 0 || p.self_loops > 0 {
                let w = &s.words()[(p.first_cycle_word.max(1) - 1) as usize];
                c.errors.push(
                    Diagnostic::error(
                        at(&self.path, s, w.line, s.head_column(w)),
                        ErrorKind::Cycle {
                            words: format!("{}", w.id),
                        },
                    )
                    .with_hint(CYCLE_HINT),
                );
            }
        }
        if roots == 0 && !bad {
            c.errors.push(Diagnostic::error(
                at(&self.path, s, s.first_line(), 1),
                ErrorKind::RootCount { found: 0 },
            ));
        }
        if roots > 1 && !self.opts.multiple_roots_okay {
            c.errors.push(
                Diagnostic::error(
                    at(&self.path, s, s.first_line(), 1),
                    ErrorKind::RootCount { found: roots },
                )
                .with_hint("--multiple-roots-okay accepts several roots, as udeval's option"),
            );
        }
    }

    /// [`F_KEPT`] on the words of the sentence just read that meet the `--where`
    /// conditions (relations compared by their universal part, as every `ud` score).
    fn mark_kept(&mut self, c: &mut Chunk, s: &Sentence, base: u32) {
        let filter = &self.opts.filter;
        if filter.is_empty() {
            return;
        }
        let words = &mut c.flat.words[base as usize..];
        for (k, w) in words.iter_mut().enumerate() {
            if filter.gold_matches(s, k, &self.tree, crate::LabelMode::Universal) {
                w.flags |= F_KEPT;
            }
        }
    }

    /// Every word's group for each breakdown key, by the word's own file.
    fn push_groups(&mut self, c: &mut Chunk, s: &Sentence, base: u32, bad: bool) {
        if self.opts.by.is_empty() {
            return;
        }
        let words = s.words();
        let n = words.len();
        for (k, w) in words.iter().enumerate() {
            let dep = k as u32 + 1;
            let h = self.heads[k];
            for key in &self.opts.by {
                let name: &str = match key {
                    ByKey::Deprel => self.labels.name(c.flat.words[base as usize + k].label),
                    ByKey::Upos => s.upos(w),
                    ByKey::Xpos => s.xpos(w),
                    ByKey::Length => length_bin(n),
                    _ if bad => "invalid",
                    ByKey::Distance => distance_bin(h, dep),
                    ByKey::Direction => direction_bin(h, dep),
                    ByKey::Depth => depth_bin(self.tree.depth(dep)),
                    ByKey::Projectivity => projectivity_bin(self.tree.is_projective(dep)),
                };
                let before = self.groups.len();
                let id = self.groups.intern(name);
                if self.groups.len() > before {
                    c.new_groups.push(name.to_owned());
                }
                c.by.push(id);
            }
        }
    }

    /// The enhanced items of every word of the sentence just read.
    fn push_enhanced(&mut self, c: &mut Chunk, s: &Sentence, base: u32) {
        let empties = s.empty_nodes();
        c.stats.empty_nodes += empties.len() as u64;
        if self.opts.skip_enhanced {
            let at = c.flat.edeps.len() as u32;
            for w in &mut c.flat.words[base as usize..] {
                w.edeps = (at, at);
            }
            return;
        }
        if !empties.is_empty() && self.opts.empty_nodes == EmptyNodes::Error {
            for e in empties {
                c.errors.push(
                    Diagnostic::error(
                        at(&self.path, s, e.line, 1),
                        ErrorKind::Other(format!(
                            "expected no empty nodes (--empty-nodes error), found {}.{}",
                            e.after, e.sub
                        )),
                    )
                    .with_hint("--empty-nodes collapse (the default) scores paths through empty nodes, drop leaves out the edges into them"),
                );
            }
        }
        let collapse = self.opts.empty_nodes == EmptyNodes::Collapse;
        if (collapse && !empties.is_empty()) || self.opts.enhancements.any() {
            self.push_owned_items(c, s, base, collapse);
        } else {
            self.push_items_as_written(c, s, base, collapse);
        }
    }

    /// The general path: owned items per word (collapsed, or read and dropping the edges
    /// into empty nodes), filtered by the enhancement types, then into the chunk.
    fn push_owned_items(&mut self, c: &mut Chunk, s: &Sentence, base: u32, collapse: bool) {
        if collapse {
            self.problems.clear();
            let mut collapsed = std::mem::take(&mut self.collapsed);
            enhanced::collapse(s, &mut collapsed, &mut self.problems);
            for p in self.problems.drain(..) {
                c.errors.push(
                    Diagnostic::error(
                        at(&self.path, s, p.line, p.column),
                        ErrorKind::BadDeps { found: p.item },
                    )
                    .with_hint(p.message),
                );
            }
            self.collapsed = collapsed;
        } else {
            self.read_owned_items(c, s);
        }
        let words = s.words();
        if self.opts.enhancements.any() {
            let deprels: Vec<&str> = words.iter().map(|w| universal(s.deprel(w))).collect();
            for (k, items) in self.collapsed.iter_mut().enumerate() {
                let ctx = WordContext {
                    id: k as u32 + 1,
                    heads: &self.heads,
                    deprels: &deprels,
                };
                enhanced::apply_enhancements(items, self.opts.enhancements, &ctx);
            }
        }
        for k in 0..self.collapsed.len() {
            let from = c.flat.edeps.len() as u32;
            for j in 0..self.collapsed[k].len() {
                let (h, ref l) = self.collapsed[k][j];
                let a = c.flat.arena.len() as u32;
                c.flat.arena.extend_from_slice(l.as_bytes());
                c.flat.edeps.push(Edep {
                    head: to_window(base, h),
                    label: (a, c.flat.arena.len() as u32),
                });
            }
            let to = c.flat.edeps.len() as u32;
            c.flat.words[base as usize + k].edeps = (from, to);
            c.stats.enhanced_items += u64::from(to - from);
        }
    }

    /// Every word's items as written, without those into empty nodes (counted).
    fn read_owned_items(&mut self, c: &mut Chunk, s: &Sentence) {
        self.collapsed.clear();
        for w in s.words() {
            let mut items = Vec::new();
            for it in treeval_formats::sentence::parse_deps(s.deps(w)) {
                match self.checked_item(c, s, w, it) {
                    Some((NodeId::Word(h), l)) => items.push((h, l.to_owned())),
                    Some((NodeId::Empty(..), _)) => c.stats.dropped_edges += 1,
                    None => {}
                }
            }
            self.collapsed.push(items);
        }
    }

    /// The fast path: every word's items as written, straight into the chunk (an edge
    /// written twice once when collapsing, as the collapser's graph holds it).
    fn push_items_as_written(&mut self, c: &mut Chunk, s: &Sentence, base: u32, collapse: bool) {
        for (k, w) in s.words().iter().enumerate() {
            let from = c.flat.edeps.len() as u32;
            for it in treeval_formats::sentence::parse_deps(s.deps(w)) {
                match self.checked_item(c, s, w, it) {
                    Some((NodeId::Word(h), l)) => {
                        let label = l.as_bytes();
                        let head = to_window(base, h);
                        if collapse
                            && c.flat.edeps[from as usize..].iter().any(|x| {
                                x.head == head
                                    && &c.flat.arena[x.label.0 as usize..x.label.1 as usize]
                                        == label
                            })
                        {
                            // the collapser's graph holds an edge once
                            continue;
                        }
                        let a = c.flat.arena.len() as u32;
                        c.flat.arena.extend_from_slice(label);
                        c.flat.edeps.push(Edep {
                            head,
                            label: (a, c.flat.arena.len() as u32),
                        });
                    }
                    Some((NodeId::Empty(a, b), _)) => match self.opts.empty_nodes {
                        EmptyNodes::Drop => c.stats.dropped_edges += 1,
                        // collapse without empty nodes in the sentence: a dangling reference;
                        // error mode: the empty node itself is reported above
                        EmptyNodes::Collapse => c.errors.push(
                            Diagnostic::error(
                                at(&self.path, s, w.line, s.deps_column(w)),
                                ErrorKind::BadDeps {
                                    found: s.deps(w).to_owned(),
                                },
                            )
                            .with_hint(format!("the sentence has no empty node {a}.{b}")),
                        ),
                        EmptyNodes::Error => {}
                    },
                    None => {}
                }
            }
            let to = c.flat.edeps.len() as u32;
            c.flat.words[base as usize + k].edeps = (from, to);
            c.stats.enhanced_items += u64::from(to - from);
        }
    }

    /// A DEPS item of word `w` as head and label, when it is well formed and its head is a
    /// word of the sentence (or the root) or an empty node; else an error in `c.errors`.
    #[inline]
    fn checked_item<'d>(
        &self,
        c: &mut Chunk,
        s: &Sentence,
        w: &Word,
        it: Result<EnhancedEdge<'d>, &str>,
    ) -> Option<(NodeId, &'d str)> {
        let n = s.words().len() as u32;
        match it {
            Ok(e) => match e.head {
                NodeId::Word(h) if h > n => {
                    c.errors.push(Diagnostic::error(
                        at(&self.path, s, w.line, s.deps_column(w)),
                        ErrorKind::HeadOutOfRange {
                            head: u64::from(h),
                            words: n as usize,
                        },
                    ));
                    None
                }
                head => Some((head, e.deprel)),
            },
            Err(bad) => {
                c.errors.push(Diagnostic::error(
                    at(&self.path, s, w.line, s.deps_column(w)),
                    ErrorKind::BadDeps {
                        found: bad.to_owned(),
                    },
                ));
                None
            }
        }
    }
}

/// The hint of a tree with a cycle under `ud`: the reference refuses it too, and `deps`
/// scores it.
const CYCLE_HINT: &str = "conll18_ud_eval.py refuses a file with such a tree as well (no score at all); `treeval deps` scores trees with cycles, word by word as eval07.pl does";

/// A position in sentence `s` of the file at `path`.
fn at(path: &Arc<str>, s: &Sentence, line: u64, col: u32) -> Position {
    Position::new(path.clone(), line, col).in_sentence(s.index(), s.sent_id())
}

/// An enhanced head (0 the root, [`NO_PARENT`], or a word of the sentence from window
/// word `base` on) as a window index.
#[inline]
fn to_window(base: u32, h: u32) -> u32 {
    match h {
        0 => ROOT,
        NO_PARENT => NEVER,
        h => base + h - 1,
    }
}

/// The functional children of the sentence from word `base` on, linked in word order.
fn link_functional(c: &mut Chunk, base: u32) {
    for k in (base..c.flat.words.len() as u32).rev() {
        let w = c.flat.words[k as usize];
        if w.flags & F_FUNCTIONAL != 0 && w.parent != ROOT {
            let p = w.parent as usize;
            c.flat.words[k as usize].next_sibling = c.flat.words[p].first_child;
            c.flat.words[p].first_child = k;
        }
    }
}

/// The universal part of a relation (before the first `:`).
#[inline]
fn universal(deprel: &str) -> &str {
    let b = deprel.as_bytes();
    &deprel[..b.iter().position(|&c| c == b':').unwrap_or(b.len())]
}

/// Position of `c` in a short field (a plain loop beats SIMD set-up on a few bytes).
#[inline]
fn find_byte(c: u8, b: &[u8]) -> Option<usize> {
    b.iter().position(|&x| x == c)
}

fn is_universal_feature(name: &[u8]) -> bool {
    matches!(
        name,
        b"PronType"
            | b"NumType"
            | b"Poss"
            | b"Reflex"
            | b"Foreign"
            | b"Abbr"
            | b"Gender"
            | b"Animacy"
            | b"Number"
            | b"Case"
            | b"Definite"
            | b"Degree"
            | b"VerbForm"
            | b"Mood"
            | b"Tense"
            | b"Aspect"
            | b"Voice"
            | b"Evident"
            | b"Polarity"
            | b"Person"
            | b"Polite"
    )
}
