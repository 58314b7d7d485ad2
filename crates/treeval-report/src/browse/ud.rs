//! The `ud` sentences for the browser: the gold words and arcs, and each system's arcs as
//! the alignment maps them onto the gold words (from `UdResult::trace`), with the
//! sentence's LAS, UAS and word-segmentation F1.

use treeval_metrics::ud::trace::TracedSentence;
use treeval_metrics::ud::{UdCounts, UdMetric};

use super::{flags, kept, Analyses, Browser, Kind, Sentence, DATA_VERSION};
use treeval_metrics::LabelTable;

/// The per-sentence scores shown in the list (F1 of these metrics).
const COLUMNS: [UdMetric; 3] = [UdMetric::Las, UdMetric::Uas, UdMetric::Words];

/// One system's trace with the relation names its labels index.
#[derive(Debug, Clone, Copy)]
pub struct Traced<'a> {
    /// The system's name.
    pub name: &'a str,
    /// Per gold sentence, as aligned.
    pub sentences: &'a [TracedSentence],
    /// The relation names.
    pub labels: &'a [String],
}

/// F1 of the columns in percent (`None` when the metric has no items in the sentence).
fn scores(c: &UdCounts) -> Vec<Option<f64>> {
    c.scores(&COLUMNS)
        .into_iter()
        .map(|(_, s)| (s.gold + s.system > 0).then_some(100.0 * s.f1))
        .collect()
}

/// The name of relation `k` of a system's trace.
fn name<'a>(t: &Traced<'a>, k: u32) -> &'a str {
    t.labels.get(k as usize).map_or("?", String::as_str)
}

/// Sentence `row` over the gold words, with every system's arcs.
fn sentence(
    systems: &[Traced<'_>],
    row: usize,
    id: Option<String>,
    labels: &mut LabelTable,
) -> Sentence {
    let first = &systems[0].sentences[row];
    let words = first.words.iter().map(|w| w.form.clone()).collect();
    let gold = first
        .words
        .iter()
        .map(|w| {
            let head = w.head.map_or(-1, i64::from);
            (head, labels.intern(name(&systems[0], w.label)))
        })
        .collect();
    let mut sys = Vec::new();
    let mut all_scores = Vec::new();
    for t in systems {
        let Some(s) = t.sentences.get(row) else {
            sys.push(Vec::new());
            all_scores.push(vec![None; COLUMNS.len()]);
            continue;
        };
        let arcs = s
            .words
            .iter()
            .map(|w| match w.system {
                None if !w.scored => (-1, 0, flags::UNALIGNED | flags::UNSCORED),
                None => (-1, 0, flags::UNALIGNED),
                Some(x) => {
                    let mut f = if w.scored { 0 } else { flags::UNSCORED };
                    if !x.head_ok {
                        f |= flags::HEAD;
                    }
                    if !x.label_ok {
                        f |= flags::LABEL;
                    }
                    (
                        x.head.map_or(-1, i64::from),
                        labels.intern(name(t, x.label)),
                        f,
                    )
                }
            })
            .collect();
        sys.push(arcs);
        all_scores.push(scores(&s.counts));
    }
    Sentence {
        i: first.index,
        id,
        scores: all_scores,
        analyses: Analyses::Deps { words, gold, sys },
    }
}

/// The data block of a `ud` evaluation of `total` gold sentences (the traces hold a
/// sample of them) with at most `limit` sentences; `ids` are the gold sentences' sent_ids
/// when known.
pub fn browser(
    systems: &[Traced<'_>],
    ids: &[Option<String>],
    total: u64,
    limit: usize,
) -> Browser {
    let n = systems.first().map_or(0, |t| t.sentences.len());
    let mut labels = LabelTable::new();
    let sentences = if systems.is_empty() {
        Vec::new()
    } else {
        kept(n, limit)
            .into_iter()
            .map(|row| {
                let index = systems[0].sentences[row].index;
                let id = ids.get(index as usize - 1).cloned().flatten();
                sentence(systems, row, id, &mut labels)
            })
            .collect()
    };
    let mut b = Browser {
        version: DATA_VERSION,
        kind: Kind::Deps,
        systems: systems.iter().map(|t| t.name.to_owned()).collect(),
        columns: COLUMNS.iter().map(|c| format!("{}-F1", c.name())).collect(),
        labels: labels.to_names(),
        total,
        sampled: false,
        note: String::new(),
        sentences,
    };
    b.thin(limit);
    b
}
