//! The `nbest` report on the shared model: per n-best file four systems — its first,
//! best (oracle), worst and chosen candidates — each scored micro and macro; the share of
//! the first–best gap the choice closes (phi) and exact; the distributions of the
//! sentences by their number of candidates (on a fifth system per file, the list itself,
//! after every file's picks) and of the best candidate's rank.

use std::collections::BTreeMap;

use treeval_metrics::measure::{Measure, Statistics};
use treeval_metrics::nbest::{gap_measures, pick_measures, GapCounts, Metric, Pick, PickCounts};

use crate::driver::{keyed_rows, section, sections, Intervals};
use crate::model::{Signature, Warning};
use crate::value::{Input, Report, System};

/// One n-best file's per-sentence results.
#[derive(Debug, Clone, Default)]
pub struct NbestFile {
    /// The path as given.
    pub path: String,
    /// Per pick (in the order of [`Pick::ALL`]), one unit per sentence.
    pub picks: [Vec<PickCounts>; 4],
    /// First, best and chosen together, one unit per sentence.
    pub gaps: Vec<GapCounts>,
    /// Candidates per sentence → sentences.
    pub candidates: BTreeMap<usize, u64>,
    /// Per metric (in the order of [`Metric::ALL`]): the rank of the best candidate →
    /// sentences.
    pub best_rank: [BTreeMap<usize, u64>; 4],
}

impl NbestFile {
    /// An empty file's results.
    pub fn new(path: &str) -> Self {
        NbestFile {
            path: path.into(),
            ..NbestFile::default()
        }
    }

    /// Add one sentence.
    pub fn push(&mut self, r: &treeval_metrics::nbest::SentenceResult) {
        for (units, p) in self.picks.iter_mut().zip(r.picks) {
            units.push(p);
        }
        self.gaps.push(r.gap);
        *self.candidates.entry(r.candidates).or_insert(0) += 1;
        for (k, ranks) in self.best_rank.iter_mut().enumerate() {
            *ranks.entry(r.index[k][1] + 1).or_insert(0) += 1;
        }
    }

    /// Candidates in all.
    pub fn total_candidates(&self) -> u64 {
        self.candidates.iter().map(|(&k, &n)| k as u64 * n).sum()
    }
}

/// One `nbest` evaluation, as the report needs it.
#[derive(Debug, Clone, Copy)]
pub struct NbestIn<'a> {
    /// The gold file (`None` for Alpino's lines, which carry their counts).
    pub gold: Option<&'a str>,
    /// The n-best files' results.
    pub files: &'a [NbestFile],
    /// The metrics the candidates were scored with.
    pub metrics: &'a [Metric],
    /// The `deps` conventions `(punctuation, labels)` of LAS/UAS/LA and the triples.
    pub conventions: Option<(&'a str, &'a str)>,
    /// What the weight of the choice is (`parser_score`, `alpino-weight`).
    pub weight: &'a str,
    /// The input format (`conllu`, `alpino`).
    pub format: &'a str,
}

/// The report's system index of pick `p` of file `k`.
pub fn system_index(k: usize, p: Pick) -> usize {
    4 * k + Pick::ALL.iter().position(|&x| x == p).unwrap_or(0)
}

/// The report's system index of n-best file `k` itself, of `files` (after every file's
/// four picks): the row label of its candidates-per-sentence table, which describes the
/// list, not one of its picks.
pub fn list_index(k: usize, files: usize) -> usize {
    4 * files + k
}

/// The signature of the conventions of `e`.
pub fn signature(e: &NbestIn<'_>) -> Signature {
    let mut s = Signature::new("nbest", &[("input", e.format.into())]);
    if let Some((punct, labels)) = e.conventions {
        s.push("punct", punct.into());
        s.push("labels", labels.into());
    }
    s.push("weight", e.weight.into());
    s.push("ties", "earliest".into());
    s
}

/// The measures of `all` named for the metrics of `e` (and those of no metric).
fn shown(e: &NbestIn<'_>, all: Vec<Measure>) -> Vec<Measure> {
    all.into_iter()
        .filter(|m| {
            let of = Metric::ALL.into_iter().find(|x| {
                let n = x.name();
                m.name == n || m.name.ends_with(&format!("-{n}"))
            });
            of.map_or(e.metrics.contains(&Metric::Ca), |x| e.metrics.contains(&x))
        })
        .collect()
}

/// Build the report (intervals `ci` on every score of every pick, and on exact and phi).
pub fn build(e: &NbestIn<'_>, ci: Option<Intervals>, warnings: Vec<Warning>) -> Report {
    let mut r = Report::new("nbest", signature(e));
    if let Some((punct, labels)) = e.conventions {
        r.convention("punctuation", punct);
        r.convention("labels", labels);
    }
    r.convention("weight", e.weight);
    r.convention("ties", "earliest candidate");
    inputs(&mut r, e);
    let (pm, gm) = (shown(e, pick_measures()), shown(e, gap_measures()));
    let (triples, rest): (Vec<Measure>, Vec<Measure>) = pm
        .into_iter()
        .partition(|m| matches!(m.name, "P" | "R" | "F"));
    let (macros, scores): (Vec<Measure>, Vec<Measure>) =
        rest.into_iter().partition(|m| m.name.starts_with("macro-"));
    let units: Vec<&[PickCounts]> = e
        .files
        .iter()
        .flat_map(|f| f.picks.iter().map(Vec::as_slice))
        .collect();
    let mut both = sections(
        &[
            ("scores", "scores of each pick", &scores[..]),
            ("macro", "macro average over sentences", &macros[..]),
            (
                "triples",
                "precision, recall and F of the triples",
                &triples[..],
            ),
        ],
        &units,
        ci,
        None,
    );
    both[0].show_counts = true;
    r.sections.append(&mut both);
    let gaps: Vec<&[GapCounts]> = e.files.iter().map(|f| f.gaps.as_slice()).collect();
    let mut choice = section(
        "choice",
        "the choice against first and best",
        &gm,
        &gaps,
        ci,
    );
    for row in &mut choice.rows {
        row.system = system_index(row.system, Pick::Chosen);
    }
    r.sections.push(choice);
    r.add_measures::<PickCounts>(scores.iter().chain(&macros).chain(&triples));
    r.add_measures::<GapCounts>(&gm);
    distributions(&mut r, e);
    notes(&mut r, e);
    r.warnings = warnings;
    r
}

/// Sentences (one column): the cells of the distributions.
#[derive(Debug, Clone, Copy, Default)]
struct Tally([u64; 4]);

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, o: Self) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a += b;
        }
    }
}

impl Statistics for Tally {
    fn columns() -> &'static [&'static str] {
        &[
            "las_sentences",
            "uas_sentences",
            "la_sentences",
            "ca_sentences",
        ]
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend(self.0.map(|x| x as f64));
    }
}

/// Sentences by their number of candidates (on each n-best list's own row) and the
/// rank of the best candidate per metric (on its best row).
fn distributions(r: &mut Report, e: &NbestIn<'_>) {
    let count = Measure::count("sentences", "sentences with this many candidates", 0);
    let mut cands = section_shell(
        "candidates",
        "sentences by number of candidates",
        "candidates",
        &[count.name],
    );
    for (k, f) in e.files.iter().enumerate() {
        let items: Vec<(String, Tally)> = f
            .candidates
            .iter()
            .map(|(&n, &s)| (n.to_string(), Tally([s, 0, 0, 0])))
            .collect();
        let rows = keyed_rows(
            std::slice::from_ref(&count),
            list_index(k, e.files.len()),
            items.iter().map(|(key, t)| (key.clone(), t)),
        );
        cands.rows.extend(rows);
    }
    r.add_measures::<Tally>([&count]);
    r.sections.push(cands);
    let rank_ms: Vec<Measure> = e
        .metrics
        .iter()
        .map(|m| {
            let name = match m {
                Metric::Las => "best-rank-LAS",
                Metric::Uas => "best-rank-UAS",
                Metric::La => "best-rank-LA",
                Metric::Ca => "best-rank-CA",
            };
            Measure::count(
                name,
                "sentences whose best candidate has this rank",
                m.index(),
            )
        })
        .collect();
    let names: Vec<&str> = rank_ms.iter().map(|m| m.name).collect();
    let mut ranks = section_shell(
        "best-rank",
        "rank of the best candidate (sentences)",
        "rank",
        &names,
    );
    for (k, f) in e.files.iter().enumerate() {
        let all: std::collections::BTreeSet<usize> =
            f.best_rank.iter().flat_map(|m| m.keys().copied()).collect();
        let items: Vec<(String, Tally)> = all
            .into_iter()
            .map(|rank| {
                let t = Tally(std::array::from_fn(|m| {
                    f.best_rank[m].get(&rank).copied().unwrap_or(0)
                }));
                (rank.to_string(), t)
            })
            .collect();
        let rows = keyed_rows(
            &rank_ms,
            system_index(k, Pick::Best),
            items.iter().map(|(key, t)| (key.clone(), t)),
        );
        ranks.rows.extend(rows);
    }
    r.add_measures::<Tally>(&rank_ms);
    r.sections.push(ranks);
}

/// An empty keyed section.
fn section_shell(id: &str, title: &str, key: &str, columns: &[&str]) -> crate::value::Section {
    crate::value::Section {
        id: id.into(),
        title: title.into(),
        key: Some(key.into()),
        columns: columns.iter().map(|c| (*c).to_string()).collect(),
        show_counts: false,
        compact: None,
        rows: Vec::new(),
    }
}

/// The gold file and the n-best files; four systems per n-best file.
fn inputs(r: &mut Report, e: &NbestIn<'_>) {
    if let Some(g) = e.gold {
        r.inputs.push(Input {
            role: "gold".into(),
            path: g.into(),
            format: e.format.into(),
            description: String::new(),
            counts: serde_json::Value::Null,
            system: None,
        });
    }
    for (k, f) in e.files.iter().enumerate() {
        let sentences = f.gaps.len();
        let total: PickCounts = f.picks[0].iter().fold(PickCounts::default(), |mut a, b| {
            a += *b;
            a
        });
        r.inputs.push(Input {
            role: crate::names::role::SYSTEM.into(),
            path: f.path.clone(),
            format: e.format.into(),
            description: format!("{sentences} sentences, {} candidates", f.total_candidates()),
            counts: serde_json::json!({
                "sentences": sentences,
                "candidates": f.total_candidates(),
                "first": total,
            }),
            system: Some(list_index(k, e.files.len())),
        });
        let input = r.inputs.len() - 1;
        for p in Pick::ALL {
            r.systems.push(System {
                name: p.name().to_string(),
                inputs: vec![input],
            });
        }
    }
    // each list itself, after the picks (see [`list_index`])
    let first_input = r.inputs.len() - e.files.len();
    for k in 0..e.files.len() {
        r.systems.push(System {
            name: String::new(),
            inputs: vec![first_input + k],
        });
    }
    let paths: Vec<&str> = e.files.iter().map(|f| f.path.as_str()).collect();
    r.name_systems(&system_names(&crate::names::short(&paths), false));
}

/// The systems of n-best lists named `lists` (`named`: by `--name`), in the order of
/// [`system_index`] and [`list_index`]: each pick (`first`, `best`, `worst`, `chosen`) of
/// each list, then each list itself (`n-best list`), after the list's name when there are
/// several lists or they were named.
pub fn system_names(lists: &[String], named: bool) -> Vec<String> {
    let alone = lists.len() == 1 && !named;
    let mut out = Vec::with_capacity(5 * lists.len());
    for l in lists {
        for p in Pick::ALL {
            out.push(if alone {
                p.name().to_string()
            } else {
                format!("{l} {}", p.name())
            });
        }
    }
    for l in lists {
        out.push(if alone {
            "n-best list".to_string()
        } else {
            l.clone()
        });
    }
    out
}

fn notes(r: &mut Report, e: &NbestIn<'_>) {
    r.notes.push(format!(
        "first = rank 1; best = the highest score, worst = the lowest, each metric on its own; chosen = the highest weight ({}); ties go to the earliest candidate",
        e.weight
    ));
    r.notes.push("micro = summed counts (1 − Σpen/Σn for CA); macro = the mean of sentence scores; exact = sentences whose chosen candidate scores as high as the best; phi = (chosen − first)/(best − first), n/a where best = first (van Noord et al. 2002)".into());
    if e.metrics.contains(&Metric::Ca) && e.conventions.is_some() {
        r.notes.push("CA triples are (head, deprel, dependent) of the scored words: with gold's words CA equals LAS".into());
    }
}
