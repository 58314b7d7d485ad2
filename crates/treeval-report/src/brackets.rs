//! The `brackets` report on the shared model: EVALB's summary for all sentences and up
//! to the cut-off length per test file, with intervals; the careful evaluation of
//! Hogenhout & Matsumoto (1996) and its pairwise counts.

use treeval_metrics::brackets::by::{by_length, group_measures, BracketGroup, BracketsKey};
use treeval_metrics::brackets::filter::WhereCounts;
use treeval_metrics::brackets::measures::{
    careful_measures, measures, measures_where_label, CarefulUnit,
};
use treeval_metrics::brackets::{BracketCounts, BracketResult, Params, Reading};
use treeval_metrics::careful::PairCounts;
use treeval_metrics::measure::Measure;

use crate::driver::{keyed_rows, Intervals};
use crate::model::Signature;
use crate::value::{Input as ReportInput, Matrix, Report, Row, Section, System};

/// One `brackets` evaluation, as the report needs it.
#[derive(Debug, Clone, Copy)]
pub struct BracketsIn<'a> {
    /// The gold file, as given.
    pub gold: &'a str,
    /// The parameters (EVALB's .prm).
    pub params: &'a Params,
    /// The parameter file's name.
    pub prm_name: &'a str,
    /// Gold trees read.
    pub gold_trees: u64,
    /// Every test file's results.
    pub systems: &'a [BracketsSystem],
    /// Per pair of careful systems: the treebank brackets each reproduced.
    pub careful_pairs: &'a [(usize, usize, PairCounts)],
    /// The breakdowns asked for (`--by`), in the order given.
    pub by: &'a [BracketsKey],
}

/// One test file's results, as the report needs them.
#[derive(Debug, Clone)]
pub struct BracketsSystem {
    /// The file, as given.
    pub path: String,
    /// Trees read.
    pub trees: u64,
    /// Every sentence's counts, and those of the sentences up to the cut-off length.
    pub all: Vec<BracketCounts>,
    /// Those of the sentences up to the cut-off length.
    pub cutoff: Vec<BracketCounts>,
    /// Error sentences (sentence, message).
    pub errors: Vec<(u64, String)>,
    /// Why EVALB would stop here (too many errors).
    pub stopped: Option<String>,
    /// The careful evaluation's counts.
    pub careful: Option<CarefulUnit>,
    /// Brackets without a human judgment.
    pub unjudged: Option<u64>,
    /// Scored sentences the careful evaluation left out.
    pub left_out: usize,
    /// Brackets per label (`--by label`; empty unless counted).
    pub by_label: Vec<(String, BracketGroup)>,
    /// Scored sentences and their brackets per length bin (`--by length`).
    pub by_length: Vec<(String, BracketGroup)>,
    /// Sentences EVALB does not score (error or skipped).
    pub unscored: u64,
    /// What `--where` kept.
    pub where_counts: WhereCounts,
    /// How the trees were read (generated trees: words without tags, unbalanced
    /// parentheses, the outer wrapper).
    pub reading: Reading,
}

impl BracketsSystem {
    /// With `units`, every sentence's counts (for intervals and tests); else their sums.
    pub fn new(path: &str, r: &BracketResult, cutoff_len: i64, units: bool) -> Self {
        let (all, cutoff) = if units {
            (
                r.rows.iter().map(BracketCounts::of_row).collect(),
                r.rows
                    .iter()
                    .filter(|x| x.length as i64 <= cutoff_len)
                    .map(BracketCounts::of_row)
                    .collect(),
            )
        } else {
            (vec![r.all], vec![r.cutoff])
        };
        BracketsSystem {
            path: path.to_owned(),
            trees: r.test_trees,
            all,
            cutoff,
            errors: r.errors.clone(),
            stopped: r.stopped.clone(),
            careful: None,
            unjudged: None,
            left_out: 0,
            by_label: r.by_label.clone(),
            by_length: by_length(&r.rows),
            unscored: r.all.error_sentences + r.all.skip_sentences,
            where_counts: r.where_counts,
            reading: r.reading,
        }
    }
}

/// The report: EVALB's summary for all sentences and up to the cut-off, per test file;
/// the careful evaluation and its pairwise counts when asked.
pub fn build(signature: Signature, e: &BracketsIn<'_>, ci: Option<Intervals>) -> Report {
    let (params, gold_trees, systems) = (e.params, e.gold_trees, e.systems);
    let mut r = Report::new("brackets", signature);
    r.convention("parameters", e.prm_name);
    r.convention("labeled", u8::from(params.labeled));
    r.convention("cutoff", params.cutoff_len);
    let missed = treeval_metrics::brackets::error_sentences_name(params.errors_missed);
    r.convention("error sentences", missed);
    r.inputs.push(ReportInput {
        role: "gold".into(),
        path: e.gold.to_owned(),
        format: "brackets".into(),
        description: format!("{gold_trees} trees"),
        counts: serde_json::json!({ "trees": gold_trees, "params": params }),
        system: None,
    });
    for (k, s) in systems.iter().enumerate() {
        r.inputs.push(ReportInput {
            role: crate::names::role::SYSTEM.into(),
            path: s.path.clone(),
            format: "brackets".into(),
            description: format!("{} trees", s.trees),
            counts: serde_json::json!({
                "trees": s.trees,
                "errors": s.errors.iter().map(|(id, m)| serde_json::json!({"sentence": id, "message": m})).collect::<Vec<_>>(),
                "stopped": s.stopped,
                "unjudged": s.unjudged,
                "careful_left_out": s.left_out,
            }),
            system: Some(k),
        });
        r.systems.push(System {
            name: s.path.clone(),
            inputs: vec![k + 1],
        });
        if let Some(m) = &s.stopped {
            r.notes.push(format!("{}: {m}", s.path));
        }
        add_reading(&mut r, k, s);
        if s.left_out > 0 {
            r.notes.push(format!(
                "{}: careful evaluation: {} scored sentence(s) left out (gold and test keep different numbers of words after the preparation)",
                s.path, s.left_out
            ));
        }
    }
    let ms = if params.filter.has_label() {
        measures_where_label()
    } else {
        measures()
    };
    r.add_measures::<BracketCounts>(&ms);
    add_where(&mut r, params, systems);
    let all: Vec<&[BracketCounts]> = systems.iter().map(|s| s.all.as_slice()).collect();
    let cut: Vec<&[BracketCounts]> = systems.iter().map(|s| s.cutoff.as_slice()).collect();
    let [all_title, cut_title] = titles(params);
    r.sections
        .push(crate::driver::section("all", &all_title, &ms, &all, ci));
    r.sections
        .push(crate::driver::section("cutoff", &cut_title, &ms, &cut, ci));
    for &key in e.by {
        breakdown(&mut r, key, systems);
        if key == BracketsKey::Label && !params.labeled {
            r.notes.push(UNLABELED_BY_LABEL.into());
        }
    }
    careful_sections(&mut r, systems, e.careful_pairs);
    r
}

/// How test file `k` was read, when something was decided (generated trees): its
/// input's `reading` counts in JSON, one note per decision.
fn add_reading(r: &mut Report, k: usize, s: &BracketsSystem) {
    if s.reading.is_empty() {
        return;
    }
    let input = r.inputs.get_mut(k + 1).filter(|i| i.system == Some(k));
    if let Some(o) = input.and_then(|i| i.counts.as_object_mut()) {
        o.insert("reading".into(), serde_json::json!(s.reading));
    }
    for line in s.reading.lines() {
        r.notes.push(format!("{}: {line}", s.path));
    }
}

/// The titles of the two summary sections: `all sentences`, or with a sentence
/// selection the sentences kept (`kept sentences of at most 40 words`), and `sentences of
/// length <= CUTOFF_LEN`; with `--where`, each followed by its conditions.
pub fn titles(params: &Params) -> [String; 2] {
    let sel = &params.selection;
    let all = if sel.is_all() {
        "all sentences".to_owned()
    } else {
        format!("kept {}", sel.describe("words"))
    };
    let cut = format!("sentences of length <= {}", params.cutoff_len);
    let w = &params.filter;
    let conds = if w.is_empty() {
        String::new()
    } else {
        format!(" (where {})", w.describe())
    };
    [all + &conds, cut + &conds]
}

/// `--where` in the report: the convention, per test file how many sentences and
/// brackets were kept, and what the figures then mean.
fn add_where(r: &mut Report, params: &Params, systems: &[BracketsSystem]) {
    let w = &params.filter;
    if w.is_empty() {
        return;
    }
    r.convention("where", w.describe());
    for (k, s) in systems.iter().enumerate() {
        let c = &s.where_counts;
        // the test file's input counts (inputs[0] is the gold file's)
        let input = r.inputs.get_mut(k + 1).filter(|i| i.system == Some(k));
        if let Some(o) = input.and_then(|i| i.counts.as_object_mut()) {
            let kept = |(k, of): (u64, u64)| serde_json::json!({"kept": k, "of": of});
            o.insert(
                "where".into(),
                serde_json::json!({"sentences": kept(c.sentences), "gold": kept(c.gold), "system": kept(c.test)}),
            );
        }
        let mut kept = vec![(c.gold, "gold brackets"), (c.test, "system brackets")];
        if c.sentences.0 < c.sentences.1 {
            kept.insert(0, (c.sentences, "sentences"));
        }
        r.notes.push(crate::deps::where_counts_note(
            &s.path,
            &w.describe(),
            &kept,
            "no bracket",
        ));
    }
    let mut what = vec![
        "where: recall, precision and F count only the gold and system brackets that meet the conditions, exactly as the --by cells of the same groups".to_owned(),
    ];
    if w.has_label() {
        what.push(format!(
            "label is the bracket's label as compared (cut at '-' or '=', an EQ_LABEL class under its first label{}); complete match, crossing and tagging accuracy are n/a: they are properties of whole sentences (all their brackets, all their words), which a condition on labels does not restrict",
            if params.labeled { "" } else { "; with LABELED 0 a matched system bracket under its gold bracket's label" }
        ));
    }
    if w.has_length() {
        what.push("length is the sentence's (as CUTOFF_LEN counts words): a condition on whole sentences, so every figure covers the sentences of those lengths".into());
    }
    r.notes.push(what.join("; "));
}

/// The section `by:KEY` of every test file (`--by`): its groups' gold, test and matched
/// brackets, recall, precision and F. Only the sentences EVALB scores count, so that the
/// groups sum to the `all` section's brackets.
/// What `--by label` means when brackets match by their spans alone (`LABELED 0`).
pub const UNLABELED_BY_LABEL: &str = "by label with LABELED 0: spans alone match, so a matched system bracket counts under its gold bracket's label, whatever its own; a label's recall is the share of its gold brackets whose span the system has, its precision the share of the system brackets counted under it that match (100 when every one matched, however the system labelled them); an unmatched system bracket stays under its own label";

fn breakdown(r: &mut Report, key: BracketsKey, systems: &[BracketsSystem]) {
    let ms: Vec<Measure> = group_measures(key == BracketsKey::Length);
    r.add_measures::<BracketGroup>(&ms);
    let mut rows = Vec::new();
    for (k, s) in systems.iter().enumerate() {
        let groups = match key {
            BracketsKey::Label => &s.by_label,
            BracketsKey::Length => &s.by_length,
        };
        rows.extend(keyed_rows(
            &ms,
            k,
            groups.iter().map(|(n, g)| (n.clone(), g)),
        ));
    }
    let title = match key {
        BracketsKey::Label => "by label (the brackets EVALB counts, labels as compared)",
        BracketsKey::Length => "by length (the sentences EVALB scores, length as for the cut-off)",
    };
    r.sections.push(Section {
        id: format!("by:{}", key.name()),
        title: title.into(),
        key: Some(key.name().into()),
        columns: ms.iter().map(|m| m.name.to_string()).collect(),
        show_counts: false,
        compact: None,
        rows,
    });
    let unscored: Vec<String> = systems
        .iter()
        .filter(|s| s.unscored > 0)
        .map(|s| format!("{}: {}", s.path, s.unscored))
        .collect();
    if !unscored.is_empty() && key == BracketsKey::Length {
        r.notes.push(format!(
            "by length: sentences EVALB does not score (error or skipped) are in no bin ({})",
            unscored.join(", ")
        ));
    }
}

/// The careful evaluation's counts and derived measures, and the pairwise reproduced
/// treebank brackets (YY, YN, NY, NN) with the real test size.
fn careful_sections(
    r: &mut Report,
    systems: &[BracketsSystem],
    careful_pairs: &[(usize, usize, PairCounts)],
) {
    let units: Vec<(usize, CarefulUnit)> = systems
        .iter()
        .enumerate()
        .filter_map(|(k, s)| s.careful.map(|c| (k, c)))
        .collect();
    if units.is_empty() {
        return;
    }
    let judged = units.iter().any(|(_, u)| u.with_judgments > 0);
    let ms = careful_measures(judged);
    r.add_measures::<CarefulUnit>(&ms);
    r.sections.push(Section {
        id: "careful".into(),
        title: "careful evaluation (Hogenhout & Matsumoto 1996)".into(),
        key: None,
        columns: ms.iter().map(|m| m.name.to_string()).collect(),
        show_counts: false,
        compact: None,
        rows: units
            .iter()
            .map(|(k, u)| Row {
                system: *k,
                key: None,
                cells: crate::driver::cells(&ms, std::slice::from_ref(u), None),
            })
            .collect(),
    });
    for (i, j, pc) in careful_pairs {
        r.matrices.push(Matrix {
            id: "careful-pair".into(),
            title: format!(
                "treebank brackets reproduced by [{}] (rows) and [{}] (columns)",
                i + 1,
                j + 1
            ),
            system: *i,
            rows_are: format!("[{}]", i + 1),
            columns_are: format!("[{}]", j + 1),
            rows: vec!["Y".into(), "N".into()],
            columns: vec!["Y".into(), "N".into()],
            counts: vec![vec![pc.YY, pc.YN], vec![pc.NY, pc.NN]],
        });
        let rts = pc.real_test_size();
        let points: Vec<String> = rts
            .points
            .iter()
            .map(|(m1, m2, z)| {
                format!(
                    "(M1 {m1}, M2 {m2}, z {})",
                    z.map_or("n/a".into(), |z| format!("{z:.2}"))
                )
            })
            .collect();
        r.notes.push(format!(
            "careful [{}] vs [{}]: YY {}, YN {}, NY {}, NN {}; real test size {}; McNemar {}",
            i + 1,
            j + 1,
            pc.YY,
            pc.YN,
            pc.NY,
            pc.NN,
            points.join(", "),
            rts.mcnemar.map_or("n/a".into(), |x| format!("{x:.3}"))
        ));
    }
}
