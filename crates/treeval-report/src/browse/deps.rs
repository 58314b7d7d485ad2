//! The `deps` sentences for the browser, collected from the evaluation's per-sentence
//! callback: the gold words and arcs, each system's arcs with every error marked under the
//! same conventions the scores use (punctuation policy, label mode), and the sentence's
//! LAS, UAS and LA.

use treeval_formats::{Sentence as Parsed, Word};
use treeval_metrics::deps::{AttachmentCounts, DepsMetric};
use treeval_metrics::sample::EvenSample;
use treeval_metrics::{DepsOptions, LabelTable};

use super::{flags, Analyses, Browser, Kind, Sentence, DATA_VERSION};

/// The per-sentence scores shown in the list.
const COLUMNS: [DepsMetric; 3] = [DepsMetric::Las, DepsMetric::Uas, DepsMetric::La];

/// A percentage, or `None` when the denominator is 0.
pub(crate) fn percent((num, den): (f64, f64)) -> Option<f64> {
    (den > 0.0).then(|| 100.0 * num / den)
}

/// System word `sw` of `s` (the word at the same position; `None` when there is none)
/// judged against gold word `gw` of `g` as the scores count it: its head, its label as
/// compared (label mode applied) and its [`flags`] (wrong head, wrong label, not scored:
/// `scored` is the word's entry in [`DepsOptions::scored_words`]).
pub(crate) fn judge<'s>(
    opts: &DepsOptions,
    gw: (&Parsed, &Word, bool),
    s: &'s Parsed,
    sw: Option<&Word>,
) -> Option<(Option<u32>, &'s str, u8)> {
    let (g, gw, scored) = gw;
    let sw = sw?;
    let (gl, sl) = (
        opts.labels.apply(g.deprel(gw)),
        opts.labels.apply(s.deprel(sw)),
    );
    let head = sw.head().index();
    let mut f = 0;
    if head.is_none() || head != gw.head().index() {
        f |= flags::HEAD;
    }
    if gl != sl {
        f |= flags::LABEL;
    }
    if !scored {
        f |= flags::UNSCORED;
    }
    Some((head, sl, f))
}

/// Collects the sentences of a `deps` evaluation (an evenly spaced sample of them when
/// there are more than the page holds, so that memory stays bounded).
#[derive(Debug)]
pub struct DepsCollector {
    opts: DepsOptions,
    systems: Vec<String>,
    labels: LabelTable,
    sample: EvenSample<Sentence>,
    limit: usize,
    /// The gold sentence of the last call, and whether it is kept.
    current: Option<(u64, bool)>,
}

impl DepsCollector {
    /// A collector for `systems` (their names) under `opts`, for a page of at most
    /// `limit` sentences (0 = all).
    pub fn new(opts: &DepsOptions, systems: Vec<String>, limit: usize) -> Self {
        DepsCollector {
            opts: opts.clone(),
            systems,
            labels: LabelTable::new(),
            sample: EvenSample::new(limit),
            limit,
            current: None,
        }
    }

    /// System `k`'s parse `s` of the gold sentence `g`, with its counts `c`.
    pub fn observe(&mut self, k: usize, g: &Parsed, s: &Parsed, c: &AttachmentCounts) {
        let i = g.index();
        if self.current.map(|x| x.0) != Some(i) {
            let sentence = self.gold(g);
            let kept = self.sample.offer(|| sentence);
            self.current = Some((i, kept));
        }
        if self.current != Some((i, true)) {
            return;
        }
        let arcs = self.arcs(g, s);
        let scores = COLUMNS.iter().map(|m| percent(m.ratio(c))).collect();
        let Some(last) = self.sample.current_mut() else {
            return;
        };
        if let Analyses::Deps { sys, .. } = &mut last.analyses {
            // a system the callback skipped keeps its place with no arcs
            while sys.len() < k {
                sys.push(Vec::new());
                last.scores.push(vec![None; COLUMNS.len()]);
            }
            sys.push(arcs);
            last.scores.push(scores);
        }
    }

    /// The gold words and arcs of `g`.
    fn gold(&mut self, g: &Parsed) -> Sentence {
        let words = g.words().iter().map(|w| g.form(w).to_owned()).collect();
        let gold = g
            .words()
            .iter()
            .map(|w| {
                let label = self.labels.intern(self.opts.labels.apply(g.deprel(w)));
                (w.head().index().map_or(-1, i64::from), label)
            })
            .collect();
        Sentence {
            i: g.index(),
            id: g.sent_id().map(str::to_owned),
            scores: Vec::new(),
            analyses: Analyses::Deps {
                words,
                gold,
                sys: Vec::new(),
            },
        }
    }

    /// The system's arcs over the gold words, each error flagged as the scores count it.
    fn arcs(&mut self, g: &Parsed, s: &Parsed) -> Vec<(i64, u32, u8)> {
        let scored = self.opts.scored_words(g, s);
        g.words()
            .iter()
            .zip(scored)
            .enumerate()
            .map(
                |(p, (gw, sc))| match judge(&self.opts, (g, gw, sc), s, s.words().get(p)) {
                    None => (-1, 0, flags::UNALIGNED),
                    Some((head, label, f)) => {
                        (head.map_or(-1, i64::from), self.labels.intern(label), f)
                    }
                },
            )
            .collect()
    }

    /// The data block, with at most `limit` sentences (evenly spaced beyond).
    pub fn finish(self) -> Browser {
        let (kept, total) = self.sample.into_parts();
        let mut b = Browser {
            version: DATA_VERSION,
            kind: Kind::Deps,
            systems: self.systems,
            columns: COLUMNS.iter().map(|m| m.name().to_owned()).collect(),
            labels: self.labels.to_names(),
            total,
            sampled: false,
            note: String::new(),
            sentences: kept.into_iter().map(|(_, s)| s).collect(),
        };
        b.thin(self.limit);
        b
    }
}
