//! Building a [`Report`] from the counts of a `deps` evaluation. All arithmetic on
//! counts happens here (through `treeval_metrics::score`), before any renderer runs.

use std::collections::BTreeMap;

use treeval_metrics::deps::{DepsResult, GroupCounts, SystemResult};
use treeval_metrics::score::{f1, mean};
use treeval_metrics::{ByKey, DepsOptions, LabelTable, Ratio};

use crate::model::*;

/// Precision, recall and F1 of `correct` items among `system` and `gold` ones. F1 =
/// 2·correct / (gold + system) is defined whenever there is an item on either side: it
/// is 0 when one side is empty (precision or recall is then not applicable, and nothing
/// is correct); all three are `None` when both sides are empty.
fn prf(correct: u64, system: u64, gold: u64) -> Prf {
    let precision = Ratio::new(correct, system).value();
    let recall = Ratio::new(correct, gold).value();
    Prf {
        correct,
        precision,
        recall,
        f1: f1(precision, recall).or_else(|| (gold + system > 0).then_some(0.0)),
    }
}

/// Build the report of `result`; `confusion_top` labels are shown in a confusion matrix
/// before the rest are folded into `(other)`.
pub fn build(
    result: &DepsResult,
    opts: &DepsOptions,
    profile: &str,
    confusion_top: usize,
) -> Report {
    let conventions = Conventions {
        profile: profile.to_owned(),
        punct: opts.punct.name(),
        labels: opts.labels.name().to_owned(),
        avg: "micro".to_owned(),
    };
    let signature = Signature::new(
        "deps",
        &[
            ("punct", conventions.punct.clone()),
            ("labels", conventions.labels.clone()),
            ("avg", conventions.avg.clone()),
        ],
    );
    let gold = FileInfo {
        path: result.gold.path.clone(),
        format: result.gold.format.map(|f| f.name().to_owned()),
        sentences: result.gold.sentences,
        words: result.gold.words,
    };
    let systems = result
        .systems
        .iter()
        .map(|s| system(s, &result.labels, opts, confusion_top))
        .collect();
    Report {
        schema: SCHEMA,
        command: "deps".into(),
        signature,
        conventions,
        gold,
        gold_validity: result.gold_validity,
        systems,
        significance: None,
        comparisons: Vec::new(),
        rankings: Vec::new(),
        warnings: result.warnings.iter().map(Warning::from).collect(),
        warnings_total: result.warnings.warning_count(),
    }
}

fn system(
    s: &SystemResult,
    labels: &LabelTable,
    opts: &DepsOptions,
    confusion_top: usize,
) -> SystemReport {
    let o = &s.observer;
    let t = &o.totals;
    let metrics = Headline {
        LAS: Metric::new(t.las, t.words),
        UAS: Metric::new(t.uas, t.words),
        LA: Metric::new(t.la, t.words),
        LEM: Metric::new(t.lem, t.scored_sentences),
        UEM: Metric::new(t.uem, t.scored_sentences),
        ROOT: Metric::new(t.root_correct, t.root_gold),
    };
    let n = t.scored_sentences;
    let per_sentence = |sum: f64| (n > 0).then(|| sum / n as f64);
    let gold_rel: Vec<_> = o.relations.iter().filter(|r| r.gold > 0).collect();
    let macro_ = Macro {
        sentences: MacroScores {
            count: n,
            LAS: per_sentence(t.sum_sentence_las),
            UAS: per_sentence(t.sum_sentence_uas),
            LA: per_sentence(t.sum_sentence_la),
        },
        relations: MacroScores {
            count: gold_rel.len() as u64,
            LAS: mean(
                gold_rel
                    .iter()
                    .map(|r| Ratio::new(r.labeled_correct, r.gold).value()),
            ),
            UAS: mean(
                gold_rel
                    .iter()
                    .map(|r| Ratio::new(r.gold_head_correct, r.gold).value()),
            ),
            LA: mean(
                gold_rel
                    .iter()
                    .map(|r| Ratio::new(r.label_correct, r.gold).value()),
            ),
        },
        relations_labeled_f1: mean(
            o.relations
                .iter()
                .filter(|r| r.gold + r.system > 0)
                .map(|r| prf(r.labeled_correct, r.system, r.gold).f1.or(Some(0.0))),
        ),
    };
    let mut per_relation: Vec<RelationRow> = o
        .relations
        .iter()
        .enumerate()
        .filter(|(_, r)| r.gold + r.system > 0)
        .map(|(id, r)| RelationRow {
            label: labels.name(id as u32).to_owned(),
            gold: r.gold,
            system: r.system,
            labeled: prf(r.labeled_correct, r.system, r.gold),
            unlabeled: Prf {
                correct: r.gold_head_correct,
                precision: Ratio::new(r.system_head_correct, r.system).value(),
                recall: Ratio::new(r.gold_head_correct, r.gold).value(),
                f1: f1(
                    Ratio::new(r.system_head_correct, r.system).value(),
                    Ratio::new(r.gold_head_correct, r.gold).value(),
                ),
            },
            label_only: prf(r.label_correct, r.system, r.gold),
            counts: *r,
        })
        .collect();
    per_relation.sort_by(|a, b| a.label.cmp(&b.label));
    let mut by = BTreeMap::new();
    for (key, names, groups) in &o.by {
        let rows = group_rows(
            *key,
            groups
                .iter()
                .enumerate()
                .map(|(id, g)| (names.name(id as u32), g)),
            key.has_system_side(),
        );
        by.insert(key.name().to_owned(), rows);
    }
    let confusion = opts.confusion.then(|| confusion(o, labels, confusion_top));
    SystemReport {
        path: s.file.path.clone(),
        file: FileInfo {
            path: s.file.path.clone(),
            format: s.file.format.map(|f| f.name().to_owned()),
            sentences: s.file.sentences,
            words: s.file.words,
        },
        metrics,
        macro_,
        excluded_words: t.excluded,
        per_relation,
        by,
        confusion,
        validity: o.validity,
        form_mismatches: o.form_mismatches,
    }
}

/// The rows of one breakdown (groups with words on either side), in report order.
pub(crate) fn group_rows<'a>(
    key: ByKey,
    groups: impl Iterator<Item = (&'a str, &'a GroupCounts)>,
    system_side: bool,
) -> Vec<GroupRow> {
    let mut rows: Vec<GroupRow> = groups
        .filter(|(_, g)| g.gold + g.system > 0)
        .map(|(name, g)| GroupRow {
            group: name.to_owned(),
            words: g.gold,
            LAS: Ratio::new(g.gold_las, g.gold).value(),
            UAS: Ratio::new(g.gold_uas, g.gold).value(),
            LA: Ratio::new(g.gold_la, g.gold).value(),
            system_words: system_side.then_some(g.system),
            system_LAS: if system_side {
                Ratio::new(g.system_las, g.system).value()
            } else {
                None
            },
            counts: *g,
        })
        .collect();
    sort_groups(key, &mut rows);
    rows
}

/// Bins in their natural order; names (labels, tags) alphabetically.
fn sort_groups(key: ByKey, rows: &mut [GroupRow]) {
    let order: &[&str] = match key {
        ByKey::Length => &["1-10", "11-20", "21-30", "31-40", "41-50", "51+"],
        ByKey::Distance => &["root", "1", "2", "3-6", "7+", "invalid"],
        ByKey::Direction => &["root", "left", "right", "self", "invalid"],
        ByKey::Depth => &["1", "2", "3", "4", "5", "6", "7+", "unreachable", "invalid"],
        ByKey::Projectivity => &["projective", "non-projective", "invalid"],
        _ => &[],
    };
    if order.is_empty() {
        rows.sort_by(|a, b| a.group.cmp(&b.group));
    } else {
        rows.sort_by_key(|r| {
            order
                .iter()
                .position(|o| *o == r.group)
                .unwrap_or(order.len())
        });
    }
}

fn confusion(o: &treeval_metrics::deps::Observer, labels: &LabelTable, top: usize) -> Confusion {
    // rank labels by gold + system frequency
    let mut ranked: Vec<(u32, u64)> = o
        .relations
        .iter()
        .enumerate()
        .filter(|(_, r)| r.gold + r.system > 0)
        .map(|(id, r)| (id as u32, r.gold + r.system))
        .collect();
    ranked.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then_with(|| labels.name(a.0).cmp(labels.name(b.0)))
    });
    let fold = ranked.len() > top;
    let shown: Vec<u32> = ranked.iter().take(top).map(|x| x.0).collect();
    let mut names: Vec<String> = shown.iter().map(|&id| labels.name(id).to_owned()).collect();
    if fold {
        names.push("(other)".into());
    }
    let idx = |id: u32| shown.iter().position(|&x| x == id).unwrap_or(shown.len());
    let size = names.len();
    let mut matrix = vec![vec![0u64; size]; size];
    let mut cells: Vec<_> = o.confusion.iter().collect();
    cells.sort();
    for (&(g, s), &n) in cells {
        matrix[idx(g)][idx(s)] += n;
    }
    Confusion {
        labels: names,
        matrix,
    }
}
