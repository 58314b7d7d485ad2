//! The `align` sentences for the browser: gold sure and possible links and each
//! hypothesis's links, with the sentence's precision, recall and AER from the same counts
//! the report sums.

use treeval_formats::align::{AlignmentFile, Link, LinkKind};
use treeval_metrics::align::AlignCounts;

use super::{kept, Analyses, Browser, Kind, Sentence, Words, DATA_VERSION};

/// What the browser shows of an alignment evaluation.
#[derive(Debug, Clone, Copy)]
pub struct AlignSources<'a> {
    /// The gold file.
    pub gold: &'a AlignmentFile,
    /// The hypotheses, in system order.
    pub hyps: &'a [AlignmentFile],
    /// The sentence numbers the counts are rows of.
    pub numbers: &'a [u64],
    /// Per hypothesis, per sentence, its counts.
    pub per_hyp: &'a [Vec<AlignCounts>],
    /// The words of both sides, one line per sentence (from 1), when given.
    pub tokens: Option<&'a [Vec<Vec<String>>; 2]>,
}

/// `(source, target)` of the links of sentence `n` accepted by `keep` (`None`: NULL),
/// sorted and without duplicates.
pub(crate) fn links(
    f: &AlignmentFile,
    n: u64,
    keep: impl Fn(&Link) -> bool,
) -> Vec<(Option<u32>, Option<u32>)> {
    let mut v: Vec<(Option<u32>, Option<u32>)> = f
        .sentences
        .get(&n)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter(|l| keep(l))
        .map(|l| (l.a, l.b))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The links of sentence `n` accepted by `keep` that are not NULL (a grid has no NULL
/// row or column), sorted and without duplicates.
fn pairs(f: &AlignmentFile, n: u64, keep: impl Fn(&Link) -> bool) -> Vec<(u32, u32)> {
    links(f, n, keep)
        .into_iter()
        .filter_map(|(a, b)| Some((a?, b?)))
        .collect()
}

/// One sentence: sure links, possible links that are not sure, every hypothesis's links.
fn sentence(src: &AlignSources<'_>, row: usize) -> Sentence {
    let n = src.numbers[row];
    let sure = pairs(src.gold, n, |l| l.kind == LinkKind::Sure);
    let possible: Vec<(u32, u32)> = pairs(src.gold, n, |l| l.kind == LinkKind::Possible)
        .into_iter()
        .filter(|x| sure.binary_search(x).is_err())
        .collect();
    let sys: Vec<Vec<(u32, u32)>> = src.hyps.iter().map(|h| pairs(h, n, |_| true)).collect();
    let all = sure.iter().chain(&possible).chain(sys.iter().flatten());
    let (s, t) = all.fold((0, 0), |(s, t), &(a, b)| (s.max(a + 1), t.max(b + 1)));
    let side = |k: usize, used: u32| {
        let line = src
            .tokens
            .and_then(|t| t[k].get((n as usize).wrapping_sub(1)));
        match line {
            Some(words) if words.len() as u32 >= used => Words::Words(words.clone()),
            _ => Words::Count(used),
        }
    };
    let scores = src
        .per_hyp
        .iter()
        .map(|rows| {
            let c = rows.get(row).copied().unwrap_or_default().scores(0.5);
            [c.precision, c.recall, c.aer]
                .iter()
                .map(|x| x.map(|v| 100.0 * v))
                .collect()
        })
        .collect();
    Sentence {
        i: n,
        id: None,
        scores,
        analyses: Analyses::Align {
            src: side(0, s),
            tgt: side(1, t),
            sure,
            possible,
            sys,
        },
    }
}

/// The data block of an alignment evaluation, with at most `limit` sentences.
pub fn browser(src: &AlignSources<'_>, limit: usize) -> Browser {
    let n = src.numbers.len();
    let keep = kept(n, limit);
    let mut b = Browser {
        version: DATA_VERSION,
        kind: Kind::Align,
        systems: src.hyps.iter().map(|h| h.path.to_string()).collect(),
        columns: vec!["precision".into(), "recall".into(), "AER".into()],
        labels: Vec::new(),
        total: n as u64,
        sampled: keep.len() < n,
        note: String::new(),
        sentences: keep.iter().map(|&row| sentence(src, row)).collect(),
    };
    if b.sampled {
        b.note = super::SAMPLED_NOTE.to_owned();
    }
    b
}
