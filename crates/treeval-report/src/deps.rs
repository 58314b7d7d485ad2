//! The `deps` report on the shared model: headline scores, macro averages over
//! sentences and over relations, per-relation precision/recall/F1, breakdowns and label
//! confusions, all from counts through the measures of `treeval_metrics::deps`.

use treeval_metrics::deps::filter::Where;
use treeval_metrics::deps::{
    group_measures, macro_relation_measures, relation_measures, word_measures, DepsMetric,
    DepsResult, GroupCounts, RelationMacro, SystemResult,
};
use treeval_metrics::measure::{Measure, Statistics};
use treeval_metrics::{AttachmentCounts, ByKey, DepsOptions, LabelTable};

use crate::driver::{keyed_rows, section, sections, Intervals, Replicates};
use crate::model::Signature;
use crate::value::{Input, Matrix, Report, Section, System};

/// What the report shows besides the headline scores and macro averages.
#[derive(Debug, Clone, Copy, Default)]
pub struct Shown<'a> {
    /// Per-relation precision, recall and F1 (`--per-relation`).
    pub per_relation: bool,
    /// Label confusion matrices, with this many labels before the rest are folded into
    /// `(other)` (`--confusion`).
    pub confusion: Option<usize>,
    /// Confidence intervals on the headline scores and sentence macro averages (`--ci`).
    pub ci: Option<Intervals>,
    /// A resampling run the intervals may read (shared with the paired bootstrap test).
    pub replicates: Option<&'a Replicates>,
}

/// The headline measures (LAS, UAS, LA, LEM, UEM, ROOT, then the word measures: CLAS).
fn headline() -> Vec<Measure> {
    let mut v: Vec<Measure> = DepsMetric::ALL[..6].iter().map(|m| m.measure()).collect();
    v.extend(word_measures());
    v
}

/// The sentence macro averages, with the number of sentences averaged.
fn macro_sentences() -> Vec<Measure> {
    let mut v = vec![Measure::count(
        "sentences",
        "sentences with a scored word",
        AttachmentCounts::columns()
            .iter()
            .position(|c| *c == "scored_sentences")
            .unwrap_or(0),
    )];
    v.extend(DepsMetric::ALL[6..].iter().map(|m| m.measure()));
    v
}

/// The report's signature and conventions: punctuation, labels, average, the sanity
/// warnings raised and the `--where` conditions.
fn signed(result: &DepsResult, opts: &DepsOptions, profile: &str) -> Report {
    let mut signature = Signature::new(
        "deps",
        &[
            ("punct", opts.punct.name()),
            ("labels", opts.labels.name().to_owned()),
            ("avg", "micro".to_owned()),
        ],
    );
    if !result.sanity.is_empty() {
        // the sanity warnings raised (label-case, unseen-labels, subtypes, empty-xpos)
        signature.push("warn", result.sanity.join(","));
    }
    if !opts.filter.is_empty() {
        signature.push("where", opts.filter.name());
    }
    let mut r = Report::new("deps", signature);
    r.convention("profile", profile);
    r.convention("punctuation", opts.punct.name());
    if !opts.filter.is_empty() {
        r.convention("where", opts.filter.describe());
    }
    r.convention("labels", opts.labels.name());
    r.convention("average", "micro");
    r
}

/// Build the report of `result`.
pub fn build(result: &DepsResult, opts: &DepsOptions, profile: &str, shown: Shown<'_>) -> Report {
    let mut r = signed(result, opts, profile);
    inputs(&mut r, result);
    // the units: the sentences when they were kept (tests, intervals), else their sums
    let units: Vec<&[AttachmentCounts]> = result
        .systems
        .iter()
        .enumerate()
        .map(|(k, s)| match result.sentences.get(k) {
            Some(v) if !v.is_empty() => v.as_slice(),
            _ => std::slice::from_ref(&s.observer.totals),
        })
        .collect();
    let (head, macro_s) = (headline(), macro_sentences());
    // one resampling run gives the intervals of both sections
    let mut both = sections(
        &[
            ("scores", "", &head[..]),
            (
                "macro-sentences",
                "macro average over sentences",
                &macro_s[..],
            ),
        ],
        &units,
        shown.ci,
        shown.replicates,
    );
    both[0].show_counts = true;
    r.sections.append(&mut both);
    let macro_r = macro_relation_measures();
    let rel_units: Vec<Vec<RelationMacro>> = result
        .systems
        .iter()
        .map(|s| s.observer.relations.iter().map(RelationMacro::of).collect())
        .collect();
    r.sections.push(section(
        "macro-relations",
        "macro average over relations",
        &macro_r,
        &rel_units,
        None,
    ));
    r.add_measures::<AttachmentCounts>(head.iter().chain(&macro_s));
    r.add_measures::<RelationMacro>(&macro_r);
    if shown.per_relation {
        let ms = relation_measures();
        r.add_measures::<treeval_metrics::deps::RelationCounts>(&ms);
        r.sections.push(per_relation(result, &ms));
    }
    breakdowns(&mut r, result);
    if let Some(top) = shown.confusion {
        for (k, s) in result.systems.iter().enumerate() {
            r.matrices
                .push(confusion(k, &s.observer, &result.labels, top));
        }
    }
    notes(&mut r, result, opts);
    r
}

/// One section per `--by` key.
fn breakdowns(r: &mut Report, result: &DepsResult) {
    for (i, (key, _, _)) in result
        .systems
        .first()
        .map_or(&[][..], |s| s.observer.by.as_slice())
        .iter()
        .enumerate()
    {
        let ms = group_measures(key.has_system_side());
        r.add_measures::<GroupCounts>(&ms);
        r.sections.push(breakdown(result, i, *key, &ms));
    }
}

/// Gold and system files, with their counts.
fn inputs(r: &mut Report, result: &DepsResult) {
    let g = &result.gold;
    let mut gold = Input {
        role: "gold".into(),
        path: g.path.clone(),
        format: g.format.map(|f| f.name().to_owned()).unwrap_or_default(),
        description: format!("{} sentences, {} words", g.sentences, g.words),
        counts: serde_json::json!({
            "sentences": g.sentences, "words": g.words, "validity": result.gold_validity,
        }),
        system: None,
    };
    if g.format.is_none() {
        gold.format.clear();
    }
    r.inputs.push(gold);
    for (k, s) in result.systems.iter().enumerate() {
        r.inputs.push(system_input(k, s));
        r.systems.push(System {
            name: s.file.path.clone(),
            inputs: vec![r.inputs.len() - 1],
        });
    }
}

fn system_input(k: usize, s: &SystemResult) -> Input {
    let f = &s.file;
    let o = &s.observer;
    Input {
        role: "system".into(),
        path: f.path.clone(),
        format: f.format.map(|f| f.name().to_owned()).unwrap_or_default(),
        description: format!("{} sentences, {} words", f.sentences, f.words),
        counts: serde_json::json!({
            "sentences": f.sentences,
            "words": f.words,
            "totals": o.totals,
            "excluded_words": o.totals.excluded,
            "unmatched_words": o.unmatched,
            "form_mismatches": o.form_mismatches,
            "validity": o.validity,
        }),
        system: Some(k),
    }
}

/// Per-relation precision, recall and F1 of every system, relations in name order.
fn per_relation(result: &DepsResult, ms: &[Measure]) -> Section {
    let mut rows = Vec::new();
    for (k, s) in result.systems.iter().enumerate() {
        let mut rels: Vec<(String, &treeval_metrics::deps::RelationCounts)> = s
            .observer
            .relations
            .iter()
            .enumerate()
            .filter(|(_, c)| c.gold + c.system > 0)
            .map(|(id, c)| (result.labels.name(id as u32).to_owned(), c))
            .collect();
        rels.sort_by(|a, b| a.0.cmp(&b.0));
        rows.extend(keyed_rows(ms, k, rels));
    }
    Section {
        id: "per-relation".into(),
        title: "per relation".into(),
        key: Some("deprel".into()),
        columns: ms.iter().map(|m| m.name.to_string()).collect(),
        show_counts: false,
        compact: None,
        rows,
    }
}

/// The `i`th breakdown (`--by`) of every system, groups in their natural order.
fn breakdown(result: &DepsResult, i: usize, key: ByKey, ms: &[Measure]) -> Section {
    let systems = result.systems.iter().enumerate().filter_map(|(k, s)| {
        let (_, names, groups) = s.observer.by.get(i)?;
        let gs = groups
            .iter()
            .enumerate()
            .map(|(id, g)| (names.name(id as u32).to_owned(), g))
            .collect();
        Some((k, gs))
    });
    by_section(key, ms, systems)
}

/// A breakdown section `by:KEY`: every system's groups with words on either side, in
/// their natural order (bins) or by name.
pub fn by_section<'a>(
    key: ByKey,
    ms: &[Measure],
    systems: impl IntoIterator<Item = (usize, Vec<(String, &'a GroupCounts)>)>,
) -> Section {
    let mut rows = Vec::new();
    for (k, mut gs) in systems {
        gs.retain(|(_, g)| g.gold + g.system > 0);
        gs.sort_by_key(|g| group_order(key, &g.0));
        rows.extend(keyed_rows(ms, k, gs));
    }
    Section {
        id: format!("by:{}", key.name()),
        title: format!("by {}", key.name()),
        key: Some(key.name().into()),
        columns: ms.iter().map(|m| m.name.to_string()).collect(),
        show_counts: false,
        compact: None,
        rows,
    }
}

/// Words not scored, malformed trees, forms that differ: remarks under the tables.
fn notes(r: &mut Report, result: &DepsResult, opts: &DepsOptions) {
    for s in &result.systems {
        let t = &s.observer.totals;
        if !opts.filter.is_empty() {
            let of = t.words + s.observer.unmatched;
            r.notes.push(where_note(
                &s.file.path,
                &opts.filter,
                (t.words, of),
                "scored words",
            ));
        }
        if t.excluded > 0 {
            r.notes.push(format!(
                "{}: {} word(s) not scored (punctuation policy {})",
                s.file.path,
                t.excluded,
                opts.punct.name()
            ));
        }
        let v = &s.observer.validity;
        if v.sentences_with_problems > 0 {
            r.notes.push(format!(
                "{}: {} sentence(s) with malformed trees: {} HEAD '_', {} HEAD out of range, {} self-loop(s), {} cycle(s), {} without root, {} with several roots (scored word by word)",
                s.file.path, v.sentences_with_problems, v.missing_heads, v.heads_out_of_range, v.self_loops, v.cycles, v.no_root, v.multiple_roots
            ));
        }
        if s.observer.form_mismatches > 0 {
            r.notes.push(format!(
                "{}: {} word(s) with a FORM different from gold",
                s.file.path, s.observer.form_mismatches
            ));
        }
    }
    if result.gold_validity.sentences_with_problems > 0 {
        r.notes.push(format!(
            "gold: {} sentence(s) with malformed trees",
            result.gold_validity.sentences_with_problems
        ));
    }
    r.warnings = crate::model::warnings_of(&result.warnings);
    let more = crate::model::unlisted_warnings(&result.warnings);
    if more > 0 {
        r.notes.push(format!(
            "{more} more warning(s) of the same kinds were not kept"
        ));
    }
}

/// `sys.conllu: where gold.deprel=nsubj and sys.deprel=obj: 123 of 25148 scored words`:
/// how many words `--where` kept (`kept.0`) of how many it could (`kept.1`, `what`).
pub fn where_note(path: &str, filter: &Where, kept: (u64, u64), what: &str) -> String {
    where_counts_note(path, &filter.describe(), &[(kept, what)], "no word")
}

/// `path: where CONDS: 12 of 40 gold brackets, 11 of 41 test brackets`: how many items
/// of each kind (`kept[i].1`) `--where` kept (`kept[i].0.0`) of how many it could
/// (`kept[i].0.1`), for every family's `--where`; `none` names what is missing when
/// nothing was kept.
pub fn where_counts_note(
    path: &str,
    described: &str,
    kept: &[((u64, u64), &str)],
    none: &str,
) -> String {
    let none = if kept.iter().all(|((k, _), _)| *k == 0) {
        format!(" ({none}: every score is n/a)")
    } else {
        String::new()
    };
    let parts: Vec<String> = kept
        .iter()
        .map(|((k, of), what)| format!("{k} of {of} {what}"))
        .collect();
    format!("{path}: where {described}: {}{none}", parts.join(", "))
}

/// Where a group goes: bins in their natural order; names (labels, tags) alphabetically.
fn group_order(key: ByKey, name: &str) -> (usize, String) {
    let order = key.bins();
    if order.is_empty() {
        (0, name.to_owned())
    } else {
        let at = order.iter().position(|o| *o == name).unwrap_or(order.len());
        (at, String::new())
    }
}

/// System `k`'s label confusions: the `top` most frequent labels, the rest as `(other)`.
fn confusion(
    k: usize,
    o: &treeval_metrics::deps::Observer,
    labels: &LabelTable,
    top: usize,
) -> Matrix {
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
    Matrix {
        id: "confusion".into(),
        title: "label confusions (rows gold, columns system)".into(),
        system: k,
        rows_are: "gold".into(),
        columns_are: "system".into(),
        rows: names.clone(),
        columns: names,
        counts: matrix,
    }
}
