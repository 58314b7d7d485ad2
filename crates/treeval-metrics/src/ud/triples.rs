//! The relation triples behind `treeval relations`' counts (asked with
//! [`UdOptions::relation_triples`](super::UdOptions::relation_triples)): every gold triple
//! that no system triple matches (missing) and every system triple that no gold triple
//! matches (extra), judged over the alignment exactly as
//! [`UdCounts::relation_sets`](super::UdCounts::relation_sets) counts them, so per graph
//! the missing ones are |Dt| − |Dt ∩ Ds| and the extra ones |Ds| − |Dt ∩ Ds|.

use super::window::{Edep, SentInfo, Side, NONE, ROOT, W};
use super::{first_of_kind, head_ok};

/// Which graph's relations are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelationGraph {
    /// The basic tree: one relation per word (HEAD, full DEPREL).
    Basic,
    /// The enhanced graph: the word's distinct DEPS items.
    Enhanced,
}

/// A word of a triple: its number in its own sentence (0 for the root) and its FORM
/// (`ROOT` for the root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TripleWord {
    /// 1-based ID in its sentence, 0 for the root; `None` for a head that is no word.
    pub id: Option<u32>,
    /// Its FORM.
    pub form: String,
}

/// One relation that the other side does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Triple {
    /// The 1-based number of the gold sentence it is counted in (system relations: the
    /// gold sentence in which their word's first character lies, as the counts).
    pub sentence: u64,
    /// A gold relation (missing from the system), else a system relation (extra).
    pub missing: bool,
    /// The head, numbered in the triple's own sentence (gold or system).
    pub head: TripleWord,
    /// The relation.
    pub label: String,
    /// The dependent.
    pub dependent: TripleWord,
}

/// The listing as it grows flush by flush.
#[derive(Debug, Clone)]
pub(super) struct TripleList {
    pub graph: RelationGraph,
    /// Gold sentences flushed so far.
    pub seen: u64,
    pub triples: Vec<Triple>,
}

/// One flush's words, as [`super::Tally`] counts them.
pub(super) struct FlushView<'a> {
    pub g: &'a Side,
    pub s: &'a Side,
    pub smap: &'a [u32],
    pub pairs: &'a [(u32, u32)],
    /// The gold sentences counted; the first is window sentence `gs0`.
    pub gsents: &'a [SentInfo],
    pub gs0: usize,
    /// Gold words `g.front..gn` and system words `s.front..sn` are counted.
    pub gn: usize,
    pub sn: usize,
    /// Per gold sentence of `gsents`: whether the sentence selection keeps it (the
    /// relations of the others are not listed, as they are not counted).
    pub keep: &'a [bool],
}

/// A word of `side` (window index `k`, or a head mark) as numbered in sentence `of`.
fn word(side: &Side, head: u32, of: &W) -> TripleWord {
    if head == ROOT {
        return TripleWord {
            id: Some(0),
            form: "ROOT".into(),
        };
    }
    match side.flat.words.get(head as usize).filter(|_| head < NONE) {
        Some(w) => {
            let first = side.flat.sents[of.sent as usize].first_word;
            TripleWord {
                id: Some(head + 1 - first),
                form: String::from_utf8_lossy(side.field(w, 0)).into_owned(),
            }
        }
        None => TripleWord {
            id: None,
            form: "-".into(),
        },
    }
}

impl TripleList {
    pub fn new(graph: RelationGraph) -> Self {
        TripleList {
            graph,
            seen: 0,
            triples: Vec::new(),
        }
    }

    /// Add the unmatched relations of a flush: per gold sentence, its missing relations,
    /// then its extra ones.
    pub fn add(&mut self, f: &FlushView<'_>) {
        let mut galign = vec![NONE; f.gn.saturating_sub(f.g.front)];
        for &(gk, sk) in f.pairs {
            if let Some(x) = galign.get_mut((gk as usize).wrapping_sub(f.g.front)) {
                *x = sk;
            }
        }
        let mut rows: Vec<Vec<Triple>> = vec![Vec::new(); f.gsents.len().max(1)];
        let last = rows.len() - 1;
        for gk in f.g.front..f.gn {
            let row = f.g.flat.words[gk].sent as usize - f.gs0;
            let sk = galign[gk - f.g.front];
            let found = self.unmatched(f, (f.g, f.s), gk, sk, true);
            rows[row.min(last)].extend(found);
        }
        for sk in f.s.front..f.sn {
            let sw = &f.s.flat.words[sk];
            let row = f
                .gsents
                .partition_point(|x| x.start <= sw.start)
                .saturating_sub(1);
            let gk = f.smap[sk];
            let found = self.unmatched(f, (f.s, f.g), sk, gk, false);
            rows[row.min(last)].extend(found);
        }
        for (k, row) in rows.into_iter().enumerate().take(f.gsents.len()) {
            if !f.keep.get(k).copied().unwrap_or(true) {
                continue;
            }
            let sentence = self.seen + k as u64 + 1;
            self.triples
                .extend(row.into_iter().map(|t| Triple { sentence, ..t }));
        }
        self.seen += f.gsents.len() as u64;
    }

    /// The relations of word `k` of side `me` that word `other_k` of the other side
    /// (aligned to it, or [`NONE`]) does not have; `gold` when `me` is the gold side.
    /// Sentence numbers are set by the caller.
    fn unmatched(
        &self,
        f: &FlushView<'_>,
        (me, other): (&Side, &Side),
        k: usize,
        other_k: u32,
        gold: bool,
    ) -> Vec<Triple> {
        let w = &me.flat.words[k];
        let ow = (other_k < NONE).then(|| &other.flat.words[other_k as usize]);
        // head_ok reads (gold head, system head)
        let same_head = |mine: u32, theirs: u32| {
            if gold {
                head_ok(f.smap, mine, theirs)
            } else {
                head_ok(f.smap, theirs, mine)
            }
        };
        let triple = |head: u32, label: &[u8]| Triple {
            sentence: 0,
            missing: gold,
            head: word(me, head, w),
            label: String::from_utf8_lossy(label).into_owned(),
            dependent: word(me, k as u32, w),
        };
        match self.graph {
            RelationGraph::Basic => {
                let label = me.field(w, 5);
                let matched =
                    ow.is_some_and(|o| same_head(w.parent, o.parent) && other.field(o, 5) == label);
                if matched {
                    Vec::new()
                } else {
                    vec![triple(w.parent, label)]
                }
            }
            RelationGraph::Enhanced => {
                let es: &[Edep] = &me.flat.edeps[w.edeps.0 as usize..w.edeps.1 as usize];
                let theirs: &[Edep] = match ow {
                    Some(o) => &other.flat.edeps[o.edeps.0 as usize..o.edeps.1 as usize],
                    None => &[],
                };
                (0..es.len())
                    .filter(|&i| first_of_kind(me, es, i))
                    .filter(|&i| {
                        let a = &es[i];
                        !theirs.iter().any(|b| {
                            same_head(a.head, b.head) && me.label_text(a) == other.label_text(b)
                        })
                    })
                    .map(|i| triple(es[i].head, me.label_text(&es[i])))
                    .collect()
            }
        }
    }
}
