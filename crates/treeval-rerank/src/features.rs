//! Features of a candidate tree, hashed into a fixed space.
//!
//! Every feature is a string `group:part|part|…` (UTF-8) with a value (a count, or the
//! parser score). Its index is the 64-bit FNV-1a hash of the string's bytes modulo
//! 2^bits ([`hash_index`]); a tree's features with the same index are summed. The
//! string is hashed as it is produced ([`Fnv`]), so extraction allocates nothing per
//! word (one reusable buffer per [`Extractor`]).
//!
//! Groups ([`Group`]), for every word `d` with head `h` (the root pseudo-word `ROOT`):
//!
//! | group | string | value |
//! |---|---|---|
//! | `score` | `score:` | the candidate's `# parser_score` |
//! | `rel` | `rel:DEPREL` | count |
//! | `rel-pos` | `rel-pos:DEPREL\|UPOS(h)\|UPOS(d)` | count |
//! | `rel-dir-dist` | `rel-dir-dist:DEPREL\|DIRECTION\|DISTANCE` (the `deps` bins) | count |
//! | `lemma-rel` | `lemma-rel:LEMMA(h)\|DEPREL` | count |
//! | `sibling` | `sibling:DEPREL(a)\|DEPREL(b)`, a and b consecutive dependents of one head | count |
//! | `grandparent` | `grandparent:DEPREL(h)\|DEPREL(d)` (h not the root) | count |
//! | `valency` | `valency:UPOS(h)\|DEPREL,DEPREL,…` (its dependents' sorted labels; empty for a leaf) | count |
//! | `nonproj` | `nonproj:` | non-projective arcs |
//! | `roots` | `roots:` | words attached to the root |
//!
//! Words without a HEAD (`_`) or with one out of range give no arc features; they are
//! counted by `nohead:` (always on).

use treeval_formats::Sentence;
use treeval_metrics::deps::{direction_bin, distance_bin};
use treeval_metrics::tree::Tree;

/// A feature group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    /// The parser score.
    Score,
    /// The label of each arc.
    Rel,
    /// Label, head UPOS, dependent UPOS.
    RelPos,
    /// Label, direction, distance bin.
    RelDirDist,
    /// Head lemma, label.
    LemmaRel,
    /// Labels of consecutive dependents of one head.
    Sibling,
    /// Label of the head's arc, label of the dependent's arc.
    Grandparent,
    /// Head UPOS and the sorted labels of its dependents.
    Valency,
    /// Number of non-projective arcs.
    Nonproj,
    /// Number of root words.
    Roots,
}

impl Group {
    /// Every group, in documentation order.
    pub const ALL: [Group; 10] = [
        Group::Score,
        Group::Rel,
        Group::RelPos,
        Group::RelDirDist,
        Group::LemmaRel,
        Group::Sibling,
        Group::Grandparent,
        Group::Valency,
        Group::Nonproj,
        Group::Roots,
    ];

    /// Its name (the prefix of its feature strings).
    pub fn name(self) -> &'static str {
        match self {
            Group::Score => "score",
            Group::Rel => "rel",
            Group::RelPos => "rel-pos",
            Group::RelDirDist => "rel-dir-dist",
            Group::LemmaRel => "lemma-rel",
            Group::Sibling => "sibling",
            Group::Grandparent => "grandparent",
            Group::Valency => "valency",
            Group::Nonproj => "nonproj",
            Group::Roots => "roots",
        }
    }

    /// Parse a name.
    pub fn parse(s: &str) -> Option<Self> {
        Group::ALL.into_iter().find(|g| g.name() == s)
    }
}

/// 64-bit FNV-1a, fed piece by piece.
#[derive(Debug, Clone, Copy)]
pub struct Fnv(u64);

impl Fnv {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// The empty string's state.
    pub fn new() -> Self {
        Fnv(Self::OFFSET)
    }

    /// Feed bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    /// The hash.
    pub fn finish(self) -> u64 {
        self.0
    }
}

impl Default for Fnv {
    fn default() -> Self {
        Fnv::new()
    }
}

/// The index of feature string `s` in a space of 2^`bits`.
pub fn hash_index(s: &str, bits: u32) -> u32 {
    let mut h = Fnv::new();
    h.write(s.as_bytes());
    reduce(h.finish(), bits)
}

fn reduce(h: u64, bits: u32) -> u32 {
    (h & ((1u64 << bits) - 1)) as u32
}

/// Where features go: hashed ([`Hashed`]) or as strings (for tests and listings).
pub trait Sink {
    /// One feature `group:parts[0]|parts[1]|…` with `value`.
    fn add(&mut self, group: &str, parts: &[&str], value: f64);
}

/// Features hashed into 2^`bits` indexes, pushed to `out` (unsorted, with repeats).
#[derive(Debug)]
pub struct Hashed<'a> {
    /// log2 of the space.
    pub bits: u32,
    /// (index, value) pairs.
    pub out: &'a mut Vec<(u32, f64)>,
}

impl Sink for Hashed<'_> {
    fn add(&mut self, group: &str, parts: &[&str], value: f64) {
        let mut h = Fnv::new();
        h.write(group.as_bytes());
        h.write(b":");
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                h.write(b"|");
            }
            h.write(p.as_bytes());
        }
        self.out.push((reduce(h.finish(), self.bits), value));
    }
}

/// Features hashed as [`Hashed`] hashes them, each index's feature string kept in
/// `names` (the first string seen for it; a later, different one hashed to the same
/// index is noted as ` (+ collisions)`), to name a model's weights.
#[derive(Debug)]
pub struct Named<'a> {
    /// The hashed features.
    pub hashed: Hashed<'a>,
    /// Index → feature string.
    pub names: &'a mut std::collections::HashMap<u32, String>,
}

impl Sink for Named<'_> {
    fn add(&mut self, group: &str, parts: &[&str], value: f64) {
        self.hashed.add(group, parts, value);
        let Some(&(index, _)) = self.hashed.out.last() else {
            return;
        };
        let name = format!("{group}:{}", parts.join("|"));
        match self.names.get_mut(&index) {
            None => {
                self.names.insert(index, name);
            }
            Some(kept) if *kept != name && !kept.ends_with(COLLIDED) => kept.push_str(COLLIDED),
            Some(_) => {}
        }
    }
}

/// What a named index whose features collide ends with.
pub const COLLIDED: &str = " (+ collisions)";

/// Features as `(string, value)` pairs.
impl Sink for Vec<(String, f64)> {
    fn add(&mut self, group: &str, parts: &[&str], value: f64) {
        self.push((format!("{group}:{}", parts.join("|")), value));
    }
}

/// Sort `(index, value)` pairs and sum repeats (a sparse vector).
pub fn merge(v: &mut Vec<(u32, f64)>) {
    v.sort_unstable_by_key(|p| p.0);
    let mut w = 0;
    for r in 0..v.len() {
        if w > 0 && v[w - 1].0 == v[r].0 {
            v[w - 1].1 += v[r].1;
        } else {
            v[w] = v[r];
            w += 1;
        }
    }
    v.truncate(w);
}

/// Extracts the features of candidate trees; keeps its buffers between trees.
#[derive(Debug, Default)]
pub struct Extractor {
    groups: Vec<Group>,
    /// Per word (1-based; 0 = root): its head, or `u32::MAX` without a usable one.
    heads: Vec<u32>,
    /// Dependents of each word, grouped by head (children of 0 first), in word order.
    kids: Vec<u32>,
    /// Start of each word's dependents in `kids` (n + 2 entries).
    start: Vec<usize>,
    tree: Tree,
    /// The valency frame being built.
    frame: String,
}

const NONE: u32 = u32::MAX;

impl Extractor {
    /// An extractor of `groups`.
    pub fn new(groups: &[Group]) -> Self {
        Extractor {
            groups: groups.to_vec(),
            ..Extractor::default()
        }
    }

    /// The groups extracted.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    fn on(&self, g: Group) -> bool {
        self.groups.contains(&g)
    }

    /// Heads and dependents of `s`.
    fn index(&mut self, s: &Sentence) {
        let n = s.len() as u32;
        self.heads.clear();
        self.heads.push(NONE);
        for w in s.words() {
            let h = w.head().index().filter(|&h| h <= n && h != w.id);
            self.heads.push(h.unwrap_or(NONE));
        }
        self.start.clear();
        self.start.resize(n as usize + 2, 0);
        for &h in &self.heads[1..] {
            if h != NONE {
                self.start[h as usize + 1] += 1;
            }
        }
        for i in 1..self.start.len() {
            self.start[i] += self.start[i - 1];
        }
        self.kids.clear();
        self.kids.resize(self.start[n as usize + 1], 0);
        let mut fill = self.start.clone();
        for d in 1..=n {
            let h = self.heads[d as usize];
            if h != NONE {
                self.kids[fill[h as usize]] = d;
                fill[h as usize] += 1;
            }
        }
    }

    fn dependents(&self, h: u32) -> &[u32] {
        &self.kids[self.start[h as usize]..self.start[h as usize + 1]]
    }

    /// The features of tree `s` with parser score `score`, into `sink`.
    pub fn extract(&mut self, s: &Sentence, score: f64, sink: &mut impl Sink) {
        self.index(s);
        let words = s.words();
        let label = |d: u32| s.deprel(&words[d as usize - 1]);
        let upos = |h: u32| {
            if h == 0 {
                "ROOT"
            } else {
                s.upos(&words[h as usize - 1])
            }
        };
        if self.on(Group::Score) {
            sink.add("score", &[], score);
        }
        let mut nohead = 0;
        for w in words {
            let (d, h) = (w.id, self.heads[w.id as usize]);
            if h == NONE {
                nohead += 1;
                continue;
            }
            self.arc(s, d, h, sink);
        }
        if nohead > 0 {
            sink.add("nohead", &[], f64::from(nohead));
        }
        if self.on(Group::Sibling) {
            for h in 0..=words.len() as u32 {
                for p in self.dependents(h).windows(2) {
                    sink.add("sibling", &[label(p[0]), label(p[1])], 1.0);
                }
            }
        }
        if self.on(Group::Valency) {
            let mut frame: Vec<&str> = Vec::new();
            let mut joined = std::mem::take(&mut self.frame);
            for h in 1..=words.len() as u32 {
                frame.clear();
                frame.extend(self.dependents(h).iter().map(|&d| label(d)));
                frame.sort_unstable();
                joined.clear();
                for (i, l) in frame.iter().enumerate() {
                    if i > 0 {
                        joined.push(',');
                    }
                    joined.push_str(l);
                }
                sink.add("valency", &[upos(h), &joined], 1.0);
            }
            self.frame = joined;
        }
        self.tree_counts(s, sink);
    }

    /// The features of the arc `h → d`.
    fn arc(&self, s: &Sentence, d: u32, h: u32, sink: &mut impl Sink) {
        let words = s.words();
        let dw = &words[d as usize - 1];
        let rel = s.deprel(dw);
        let (hu, hl) = if h == 0 {
            ("ROOT", "ROOT")
        } else {
            let hw = &words[h as usize - 1];
            (s.upos(hw), s.lemma(hw))
        };
        if self.on(Group::Rel) {
            sink.add("rel", &[rel], 1.0);
        }
        if self.on(Group::RelPos) {
            sink.add("rel-pos", &[rel, hu, s.upos(dw)], 1.0);
        }
        if self.on(Group::RelDirDist) {
            sink.add(
                "rel-dir-dist",
                &[rel, direction_bin(h, d), distance_bin(h, d)],
                1.0,
            );
        }
        if self.on(Group::LemmaRel) {
            sink.add("lemma-rel", &[hl, rel], 1.0);
        }
        if self.on(Group::Grandparent) && h != 0 && self.heads[h as usize] != NONE {
            sink.add("grandparent", &[s.deprel(&words[h as usize - 1]), rel], 1.0);
        }
    }

    /// Non-projective arcs and root words.
    fn tree_counts(&mut self, s: &Sentence, sink: &mut impl Sink) {
        if self.on(Group::Roots) {
            let roots = self.heads[1..].iter().filter(|&&h| h == 0).count();
            sink.add("roots", &[], roots as f64);
        }
        if self.on(Group::Nonproj) {
            self.tree
                .analyze(s.words().iter().map(|w| w.head().index()));
            let n = (1..=s.len() as u32)
                .filter(|&d| self.tree.is_projective(d) == Some(false))
                .count();
            sink.add("nonproj", &[], n as f64);
        }
    }
}
