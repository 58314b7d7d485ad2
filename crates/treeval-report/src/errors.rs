//! `--errors`: the items behind the error counts, one [`Listing`] per system, each row
//! judged by the same decision the scores count (so a listing's rows add up to the
//! report's errors; tested in crates/treeval-cli/tests/errors.rs).

use treeval_formats::align::{AlignmentFile, LinkKind};
use treeval_formats::Sentence as Parsed;
use treeval_metrics::ud::trace::TracedSentence;
use treeval_metrics::DepsOptions;

use crate::browse::{deps::judge, flags};
use crate::value::Listing;

/// The columns of a dependency error listing.
const DEP_COLUMNS: [&str; 9] = [
    "sentence",
    "sent_id",
    "word",
    "form",
    "gold head",
    "gold label",
    "system head",
    "system label",
    "error",
];

/// Characters of a word form that a text listing shows: a longer form (a URL, an e-mail
/// address) is cut, ending in `…`, so that one long word does not widen the whole table.
/// JSON, CSV, TSV, Markdown, LaTeX and HTML keep every form whole.
pub const TEXT_FORM_WIDTH: usize = 24;

/// The rows of listing `l` as a text table shows them, header first: the cells of its
/// form columns (`form`, `head form`, `dependent form`) cut at [`TEXT_FORM_WIDTH`]
/// characters.
pub fn text_rows(l: &Listing) -> Vec<Vec<String>> {
    let is_form = |c: &String| c == "form" || c.ends_with(" form");
    let forms: Vec<bool> = l.columns.iter().map(is_form).collect();
    let mut rows = crate::emit::listing_rows(l);
    for row in rows.iter_mut().skip(1) {
        for (cell, _) in row.iter_mut().zip(&forms).filter(|(_, f)| **f) {
            if cell.chars().count() > TEXT_FORM_WIDTH {
                *cell = cell.chars().take(TEXT_FORM_WIDTH - 1).collect::<String>() + "…";
            }
        }
    }
    rows
}

/// What is wrong with a word, from its [`flags`].
fn dep_error(f: u8) -> Option<&'static str> {
    if f & flags::UNSCORED != 0 {
        return None;
    }
    if f & flags::UNALIGNED != 0 {
        return Some("not aligned");
    }
    match (f & flags::HEAD != 0, f & flags::LABEL != 0) {
        (true, true) => Some("head+label"),
        (true, false) => Some("head"),
        (false, true) => Some("label"),
        (false, false) => None,
    }
}

/// A head as written (`-` for none).
fn head(h: Option<u32>) -> String {
    h.map_or_else(|| "-".to_owned(), |h| h.to_string())
}

/// Every wrong scored word of each system of a `deps` evaluation.
#[derive(Debug)]
pub struct DepsErrors {
    opts: DepsOptions,
    listings: Vec<Listing>,
}

impl DepsErrors {
    /// Listings for `systems` systems under `opts`.
    pub fn new(opts: &DepsOptions, systems: usize) -> Self {
        DepsErrors {
            opts: opts.clone(),
            listings: (0..systems)
                .map(|k| Listing::new("errors", k, &DEP_COLUMNS))
                .collect(),
        }
    }

    /// System `k`'s parse `s` of the gold sentence `g`.
    pub fn observe(&mut self, k: usize, g: &Parsed, s: &Parsed) {
        let Some(l) = self.listings.get_mut(k) else {
            return;
        };
        let scored = self.opts.scored_words(g, s);
        for (p, (gw, sc)) in g.words().iter().zip(scored).enumerate() {
            let judged = judge(&self.opts, (g, gw, sc), s, s.words().get(p));
            let (sh, sl, f) = judged.unwrap_or((None, "", flags::UNALIGNED));
            let Some(what) = dep_error(f) else {
                continue;
            };
            l.push(vec![
                g.index().to_string(),
                g.sent_id().unwrap_or("").to_owned(),
                (p + 1).to_string(),
                g.form(gw).to_owned(),
                head(gw.head().index()),
                self.opts.labels.apply(g.deprel(gw)).to_owned(),
                head(sh),
                sl.to_owned(),
                what.to_owned(),
            ]);
        }
    }

    /// The listings: per system its wrong words, then its most frequent wrong arcs.
    pub fn finish(self) -> Vec<Listing> {
        with_wrong_arcs(self.listings)
    }
}

impl DepsErrors {
    /// Per system, its words with a wrong head (`head` and `head+label` rows: what UAS
    /// counts wrong), without the wrong arcs; listing `id`.
    pub fn wrong_heads(self, id: &str) -> Vec<Listing> {
        self.listings
            .into_iter()
            .map(|l| {
                let columns: Vec<&str> = l.columns.iter().map(String::as_str).collect();
                let mut out = Listing::new(id, l.system, &columns);
                for row in l.rows {
                    if matches!(row.last().map(String::as_str), Some("head" | "head+label")) {
                        out.push(row);
                    }
                }
                out
            })
            .collect()
    }
}

/// `pts`: per system, side a's words with a wrong head and side b's (as `deps` lists
/// them, UAS's errors: `errors-a`, `errors-b`), then its alignment's missed sure links
/// and wrong links (as `align` lists them: `errors-align`).
pub fn pts_errors(a: DepsErrors, b: DepsErrors, align: Vec<Listing>) -> Vec<Listing> {
    let (a, b) = (a.wrong_heads("errors-a"), b.wrong_heads("errors-b"));
    let mut out = Vec::new();
    for ((x, y), mut z) in a.into_iter().zip(b).zip(align) {
        z.id = "errors-align".into();
        out.extend([x, y, z]);
    }
    out
}

/// Each word listing followed by its [`wrong_arcs`].
pub fn with_wrong_arcs(listings: Vec<Listing>) -> Vec<Listing> {
    listings
        .into_iter()
        .flat_map(|l| {
            let arcs = wrong_arcs(&l);
            [l, arcs]
        })
        .collect()
}

/// Every gold word of a `ud` evaluation the system gets wrong (over the alignment: a wrong
/// head or relation, or no aligned system word), from the system's full trace;
/// `sent_ids` are the gold sentences' ids when known.
pub fn ud_errors(
    k: usize,
    trace: &[TracedSentence],
    labels: &[String],
    sent_ids: &[Option<String>],
) -> Listing {
    let mut l = Listing::new("errors", k, &DEP_COLUMNS);
    let name = |i: u32| labels.get(i as usize).map_or("?", String::as_str);
    for s in trace {
        let id = sent_ids
            .get(s.index as usize - 1)
            .cloned()
            .flatten()
            .unwrap_or_default();
        for (p, w) in s.words.iter().enumerate().filter(|(_, w)| w.scored) {
            let (sh, sl, f) = match w.system {
                None => (None, "", flags::UNALIGNED),
                Some(x) => {
                    let f = if x.head_ok { 0 } else { flags::HEAD }
                        | if x.label_ok { 0 } else { flags::LABEL };
                    (x.head, name(x.label), f)
                }
            };
            let Some(what) = dep_error(f) else {
                continue;
            };
            l.push(vec![
                s.index.to_string(),
                id.clone(),
                (p + 1).to_string(),
                w.form.clone(),
                head(w.head),
                name(w.label).to_owned(),
                head(sh),
                sl.to_owned(),
                what.to_owned(),
            ]);
        }
    }
    l
}

/// Every missed sure link and every hypothesis link outside the possible ones, per
/// sentence of `numbers`; links with a NULL side only with `keep_null`, as the scores.
pub fn align_errors(
    k: usize,
    (gold, hyp): (&AlignmentFile, &AlignmentFile),
    numbers: &[u64],
    keep_null: bool,
) -> Listing {
    type Pos = (Option<u32>, Option<u32>);
    let columns = ["sentence", "source (from 0)", "target (from 0)", "error"];
    let mut l = Listing::new("errors", k, &columns);
    let pairs = |f: &AlignmentFile, n: u64, sure_only: bool| {
        crate::browse::align::links(f, n, |x| {
            (!sure_only || x.kind == LinkKind::Sure)
                && (keep_null || (x.a.is_some() && x.b.is_some()))
        })
    };
    let side = |p: Option<u32>| p.map_or_else(|| "NULL".to_owned(), |p| p.to_string());
    for &n in numbers {
        let (sure, all, h) = (
            pairs(gold, n, true),
            pairs(gold, n, false),
            pairs(hyp, n, false),
        );
        let row = |(a, b): Pos, what: &str| vec![n.to_string(), side(a), side(b), what.to_owned()];
        for &x in &sure {
            if h.binary_search(&x).is_err() {
                l.push(row(x, "missed sure link"));
            }
        }
        for &x in &h {
            if all.binary_search(&x).is_err() {
                l.push(row(x, "wrong link"));
            }
        }
    }
    l
}

/// Every unmatched bracket of test file `k`'s scored sentences (`r.sentences`, kept with
/// `Params::keep_brackets`): gold brackets no test bracket matched, test brackets that
/// match no gold one, with their words (`start`..`end` over the scored words, from 0);
/// only those whose label (as compared) `keep` accepts (`--where label=…`).
pub fn brackets_errors(
    k: usize,
    r: &treeval_metrics::brackets::BracketResult,
    keep: &dyn Fn(&str) -> bool,
) -> Listing {
    let columns = ["sentence", "label", "start", "end", "words", "error"];
    let mut l = Listing::new("errors", k, &columns);
    let name = |i: u32| r.label_names.get(i as usize).map_or("?", String::as_str);
    for s in &r.sentences {
        let sides = [
            (&s.gold, "missed gold bracket"),
            (&s.test, "extra system bracket"),
        ];
        for (brackets, what) in sides {
            for b in brackets
                .iter()
                .filter(|b| !b.matched && keep(name(b.label)))
            {
                let words = s.words.get(b.start as usize..b.end as usize).unwrap_or(&[]);
                l.push(vec![
                    s.id.to_string(),
                    name(b.label).to_owned(),
                    b.start.to_string(),
                    b.end.to_string(),
                    words.join(" "),
                    what.to_owned(),
                ]);
            }
        }
    }
    l
}

/// `--errors` of `brackets`: the sentences of test file `k` that EVALB does not score
/// (`error-sentences`), in order: error sentences (EVALB status 1: their message) and
/// skipped sentences (status 2), with the line of the test tree where known, and whether
/// each was scored as missed (`--error-sentences missed`).
pub fn brackets_unscored(k: usize, r: &treeval_metrics::brackets::BracketResult) -> Listing {
    use treeval_metrics::brackets::Status;
    let columns = ["sentence", "line", "message", "status"];
    let mut l = Listing::new("error-sentences", k, &columns);
    let lines: std::collections::HashMap<u64, u64> = (r.errors.iter().zip(&r.error_lines))
        .filter_map(|((id, _), line)| line.map(|l| (*id, l)))
        .collect();
    for row in r.rows.iter().filter(|x| x.status != Status::Ok) {
        let kind = match (row.status, row.missed) {
            (Status::Skip, false) => "skipped sentence",
            (Status::Skip, true) => "skipped sentence, scored as missed",
            (_, false) => "error sentence",
            (_, true) => "error sentence, scored as missed",
        };
        l.push(vec![
            row.id.to_string(),
            lines.get(&row.id).map_or("-".into(), u64::to_string),
            row.message.clone().unwrap_or_default(),
            kind.to_owned(),
        ]);
    }
    l
}

/// How many of the most frequent wrong arcs [`wrong_arcs`] lists.
pub const WRONG_ARCS: usize = 20;

/// An arc as the wrong-arcs table groups it: direction and distance bin (the `--by
/// direction` and `--by distance` bins), `root`, or `-` without a head.
fn arc(head: &str, word: &str) -> String {
    use treeval_metrics::deps::{direction_bin, distance_bin};
    match (head.parse::<u32>(), word.parse::<u32>()) {
        (Ok(0), _) => "root".to_owned(),
        (Ok(h), Ok(d)) => format!("{} {}", direction_bin(h, d), distance_bin(h, d)),
        _ => "-".to_owned(),
    }
}

/// The most frequent wrong arcs of a word listing (deps, ud): its wrong words (aligned
/// ones in ud) grouped by gold label → system label and gold arc → system arc, the
/// [`WRONG_ARCS`] largest groups, most words first.
pub fn wrong_arcs(l: &Listing) -> Listing {
    let col = |name: &str| l.columns.iter().position(|c| c == name);
    let (Some(w), Some(gh), Some(gl), Some(sh), Some(sl), Some(e)) = (
        col("word"),
        col("gold head"),
        col("gold label"),
        col("system head"),
        col("system label"),
        col("error"),
    ) else {
        return Listing::new("wrong-arcs", l.system, &[]);
    };
    let mut groups: std::collections::BTreeMap<[String; 4], u64> = Default::default();
    for r in l.rows.iter().filter(|r| r[e] != "not aligned") {
        let key = [
            r[gl].clone(),
            r[sl].clone(),
            arc(&r[gh], &r[w]),
            arc(&r[sh], &r[w]),
        ];
        *groups.entry(key).or_default() += 1;
    }
    let mut groups: Vec<([String; 4], u64)> = groups.into_iter().collect();
    // most words first; ties in label order (the map's), so the order is stable
    groups.sort_by_key(|g| std::cmp::Reverse(g.1));
    let columns = [
        "gold label",
        "system label",
        "gold arc",
        "system arc",
        "words",
    ];
    let mut out = Listing::new("wrong-arcs", l.system, &columns);
    out.rows = groups
        .into_iter()
        .take(WRONG_ARCS)
        .map(|([a, b, c, d], n)| vec![a, b, c, d, n.to_string()])
        .collect();
    out
}

/// Words (0-based) as CoNLL word numbers: `2-4` for a run, `2,4` with gaps.
fn word_numbers(words: &[u32]) -> String {
    match (words.first(), words.last()) {
        (Some(&a), Some(&b)) if (b - a) as usize + 1 == words.len() && a != b => {
            format!("{}-{}", a + 1, b + 1)
        }
        _ => {
            let v: Vec<String> = words.iter().map(|w| (w + 1).to_string()).collect();
            v.join(",")
        }
    }
}

/// Every edit operation behind experiment `k`'s δ_new ([`treeval_metrics::tedeval::edits`]):
/// per sentence, the operations of the parse's optimal script against the generalized
/// gold that the script of its own gold does not have too, with the parse's node
/// (deletions, relabellings) and the generalized gold's (insertions, relabellings): label
/// (`(word)` for a word's terminal), word numbers and words. The rows are Σδ_new.
pub fn ted_errors(k: usize, edits: &[treeval_metrics::tedeval::run::SentenceEdits]) -> Listing {
    use treeval_metrics::tedeval::edits::EditNode;
    let columns = [
        "sentence",
        "system label",
        "gold label",
        "word numbers",
        "words",
        "edit",
    ];
    let mut l = Listing::new("errors", k, &columns);
    for s in edits {
        let label = |n: &Option<EditNode>| match n {
            Some(n) if n.terminal => "(word)".to_owned(),
            Some(n) => n.label.clone(),
            None => "-".to_owned(),
        };
        let forms = |n: &EditNode| {
            let v: Vec<&str> = n
                .words
                .iter()
                .map(|&w| s.words.get(w as usize).map_or("?", String::as_str))
                .collect();
            v.join(" ")
        };
        for op in &s.ops {
            // the parse's node, and the gold's when it has other words
            let (numbers, words) = match (&op.parse, &op.gold) {
                (Some(a), Some(b)) if a.words != b.words => (
                    format!("{} → {}", word_numbers(&a.words), word_numbers(&b.words)),
                    format!("{} → {}", forms(a), forms(b)),
                ),
                (Some(n), _) | (None, Some(n)) => (word_numbers(&n.words), forms(n)),
                (None, None) => (String::new(), String::new()),
            };
            l.push(vec![
                s.sentence.to_string(),
                label(&op.parse),
                label(&op.gold),
                numbers,
                words,
                op.kind.name().to_owned(),
            ]);
        }
    }
    l
}

/// Every relation of system `k` of a `relations` evaluation that the other side does not
/// have ([`treeval_metrics::ud::triples`]): gold relations the system misses and system
/// relations the gold does not have, per gold sentence (`sent_ids` when known), each as
/// head, relation and dependent numbered in its own sentence. The rows are |Dt| − |Dt ∩ Ds|
/// missing and |Ds| − |Dt ∩ Ds| extra relations.
pub fn relations_errors(
    k: usize,
    triples: &[treeval_metrics::ud::triples::Triple],
    sent_ids: &[Option<String>],
) -> Listing {
    let columns = [
        "sentence",
        "sent_id",
        "head",
        "head form",
        "relation",
        "dependent",
        "dependent form",
        "error",
    ];
    let mut l = Listing::new("errors", k, &columns);
    let id = |w: &treeval_metrics::ud::triples::TripleWord| head(w.id);
    for t in triples {
        let sent_id = sent_ids.get(t.sentence as usize - 1).cloned().flatten();
        l.push(vec![
            t.sentence.to_string(),
            sent_id.unwrap_or_default(),
            id(&t.head),
            t.head.form.clone(),
            t.label.clone(),
            id(&t.dependent),
            t.dependent.form.clone(),
            if t.missing { "missing" } else { "extra" }.to_owned(),
        ]);
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_listing_cuts_long_forms_only() {
        let mut l = Listing::new(
            "errors",
            0,
            &["sentence", "sent_id", "form", "head form", "error"],
        );
        let url = "http://www.example.com/a/very/long/path.html";
        let id = "weblog-blogspot.com_nominations_0001";
        l.push(vec![
            "1".into(),
            id.into(),
            url.into(),
            "Ĳsselmeer".into(),
            "head".into(),
        ]);
        l.push(vec![
            "2".into(),
            id.into(),
            "exactly-twenty-four-char".into(),
            url.into(),
            "label".into(),
        ]);
        let rows = text_rows(&l);
        assert_eq!(rows[0][2], "form");
        // 23 characters and the ellipsis
        assert_eq!(rows[1][2], "http://www.example.com/…");
        assert_eq!(rows[1][2].chars().count(), TEXT_FORM_WIDTH);
        assert_eq!(rows[1][3], "Ĳsselmeer");
        assert_eq!(rows[2][2], "exactly-twenty-four-char");
        assert_eq!(rows[2][3], "http://www.example.com/…");
        // not a form column: whole
        assert_eq!(rows[1][1], id);
        // the listing itself (JSON, CSV, …) keeps the form
        assert_eq!(l.rows[0][2], url);
    }
}
