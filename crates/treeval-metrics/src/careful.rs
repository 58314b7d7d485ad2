//! The careful bracket evaluation of Hogenhout & Matsumoto (1996), "Towards a More
//! Careful Evaluation of Broad Coverage Parsing Systems".
//!
//! Every parse bracket is one of: an *exact match* (EM: a treebank bracket has its span,
//! and label with `labeled`), a *crossing error* (CE: it crosses a treebank bracket) or
//! *spurious* (SP: neither). A crossing bracket is *inherited* (PINH) when its direct
//! parent in the parse is crossing too, else not (PNINH). A reproduced treebank bracket
//! is inherited (TINH) when its direct parent in the treebank is reproduced too, else not
//! (TNINH). The bracket spanning the whole sentence is never counted as a parent: with
//! that reading the paper's two-sentence example gives EM 5, CE 2, SP 2, TTB 7, TPB 9,
//! PINH 1, PNINH 1, TINH 1, TNINH 4 (a unit test).
//!
//! Before counting, as the paper's procedure: words whose tag is in `remove_tags` (say,
//! punctuation and `-NONE-`) are removed; brackets left without words are removed, so
//! empty brackets go recursively; optionally, a bracket with the same span as its parent
//! is dropped (double brackets collapse) and brackets over one word are dropped (trivial).

use serde::Serialize;
use treeval_formats::bracket::BracketTree;

/// How brackets are prepared and compared.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CarefulOptions {
    /// Compare labels too (cut at `-`/`=`, as EVALB).
    pub labeled: bool,
    /// Tags whose words are removed first.
    pub remove_tags: Vec<String>,
    /// Also remove words that are punctuation by their form (as `deps --punct form`).
    pub remove_punct_forms: bool,
    /// Drop a bracket over the same span as its parent.
    pub collapse_double: bool,
    /// Drop brackets over a single word.
    pub remove_trivial: bool,
    /// Keep every parse bracket's class (for judgments).
    #[serde(skip)]
    pub keep_brackets: bool,
    /// Write the crossing and spurious brackets to judge (with context).
    #[serde(skip)]
    pub export: bool,
}

/// The paper's counts, for a sentence or summed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[allow(non_snake_case)]
pub struct CarefulCounts {
    /// Treebank brackets.
    pub TTB: u64,
    /// Parse brackets.
    pub TPB: u64,
    /// Parse brackets matching a treebank bracket.
    pub EM: u64,
    /// Parse brackets crossing a treebank bracket.
    pub CE: u64,
    /// Parse brackets neither matching nor crossing.
    pub SP: u64,
    /// Crossing brackets whose parse parent also crosses.
    pub PINH: u64,
    /// Crossing brackets whose parse parent does not (or is the sentence bracket).
    pub PNINH: u64,
    /// Reproduced treebank brackets whose treebank parent is reproduced too.
    pub TINH: u64,
    /// Reproduced treebank brackets whose treebank parent is not (or is the sentence).
    pub TNINH: u64,
}

crate::measure::sum_fields!(CarefulCounts {
    TTB,
    TPB,
    EM,
    CE,
    SP,
    PINH,
    PNINH,
    TINH,
    TNINH
});

/// Human judgments of crossing and spurious brackets (accepted or rejected).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[allow(non_snake_case)]
pub struct Judged {
    /// Exact matches accepted / rejected (accepted unless judged).
    pub EMA: u64,
    /// Exact matches rejected.
    pub EMR: u64,
    /// Crossing brackets accepted (the treebank was wrong, or both are right).
    pub CEA: u64,
    /// Crossing brackets rejected.
    pub CER: u64,
    /// Spurious brackets accepted.
    pub SPA: u64,
    /// Spurious brackets rejected.
    pub SPR: u64,
}

crate::measure::sum_fields!(Judged {
    EMA,
    EMR,
    CEA,
    CER,
    SPA,
    SPR
});

/// Judgments: (sentence, start, end) → accepted.
pub type Judgments = std::collections::HashMap<(u64, u32, u32), bool>;

/// A judged bracket: sentence, start, end.
pub type JudgmentKey = (u64, u32, u32);

/// A judgments file read: the judgments, each one's line, the problems by line.
pub type ReadJudgments = (Judgments, Vec<(u64, JudgmentKey)>, Vec<(u64, String)>);

/// Read a judgments file: tab-separated `sentence start end … accept|reject` (the first
/// three columns and the last; `#` lines and lines whose last column is empty are
/// skipped). Also each judgment's line (to check it against the files), and the
/// problems with their line numbers (a bracket judged twice both ways is one).
pub fn read_judgments(text: &str) -> ReadJudgments {
    let mut j = Judgments::new();
    let mut lines = Vec::new();
    let mut first: std::collections::HashMap<JudgmentKey, u64> = Default::default();
    let mut problems = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let last = f.last().map_or("", |x| x.trim());
        if last.is_empty() && f.len() > 3 {
            continue;
        }
        let num = |i: usize| f.get(i).and_then(|x| x.trim().parse::<u64>().ok());
        match (num(0), num(1), num(2), last) {
            (Some(s), Some(a), Some(b), "accept" | "reject")
                if f.len() >= 4 && a <= u64::from(u32::MAX) && b <= u64::from(u32::MAX) =>
            {
                let key = (s, a as u32, b as u32);
                let line = k as u64 + 1;
                let verdict = last == "accept";
                match j.insert(key, verdict) {
                    Some(v) if v != verdict => problems.push((
                        line,
                        format!(
                            "expected one judgment per bracket, found '{last}' here and '{}' on line {} for sentence {s} [{a} {b})",
                            if v { "accept" } else { "reject" },
                            first[&key]
                        ),
                    )),
                    Some(_) => {}
                    None => {
                        first.insert(key, line);
                        lines.push((line, key));
                    }
                }
            }
            _ => problems.push((
                k as u64 + 1,
                format!(
                    "expected 'sentence<TAB>start<TAB>end<TAB>…<TAB>accept|reject', found '{line}'"
                ),
            )),
        }
    }
    (j, lines, problems)
}

/// Apply judgments to the classes of one sentence's parse brackets.
pub fn judge(
    j: &Judgments,
    sentence: u64,
    parse: &[CBracket],
    classes: &[u8],
    out: &mut Judged,
    unjudged: &mut u64,
) {
    for (b, &c) in parse.iter().zip(classes) {
        let verdict = j.get(&(sentence, b.start, b.end)).copied();
        match (c, verdict) {
            (b'E', Some(false)) => out.EMR += 1,
            (b'E', _) => out.EMA += 1,
            (b'C', Some(true)) => out.CEA += 1,
            (b'C', Some(false)) => out.CER += 1,
            (b'S', Some(true)) => out.SPA += 1,
            (b'S', Some(false)) => out.SPR += 1,
            _ => *unjudged += 1,
        }
    }
}

/// The lines to judge for one sentence: its crossing and spurious brackets, with the
/// sentence around each bracket and, for a crossing one, the treebank brackets it crosses.
pub fn export_lines(sentence: u64, s: &CarefulSentence, words: &[&str]) -> Vec<String> {
    let span = |a: u32, b: u32| words[a as usize..b as usize].join(" ");
    let mut out = Vec::new();
    for (b, &c) in s.parse.iter().zip(&s.classes) {
        if c == b'E' {
            continue;
        }
        let context = format!(
            "{} [ {} ] {}",
            span(0, b.start),
            span(b.start, b.end),
            span(b.end, words.len() as u32)
        );
        let crossed: Vec<String> = s
            .treebank
            .iter()
            .filter(|a| crosses(a, b))
            .map(|a| format!("[{} {}) {}", a.start, a.end, span(a.start, a.end)))
            .collect();
        out.push(format!(
            "{sentence}\t{}\t{}\t{}\t{}\t{}\t",
            b.start,
            b.end,
            if c == b'C' { "CE" } else { "SP" },
            context.trim(),
            crossed.join(" ; ")
        ));
    }
    out
}

/// A prepared bracket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CBracket {
    /// First word (after removal).
    pub start: u32,
    /// One past the last word.
    pub end: u32,
    /// Index of the cut label in the tree's text (empty when unlabeled).
    label: (u32, u32),
    /// The nearest kept enclosing bracket.
    pub parent: Option<u32>,
}

/// The brackets of a tree after the paper's preparation, with their parents; and the
/// number of words left.
pub fn prepare(t: &BracketTree, o: &CarefulOptions) -> (Vec<CBracket>, u32) {
    let mut kept = Vec::with_capacity(t.leaves.len() + 1);
    let mut n = 0u32;
    for l in &t.leaves {
        kept.push(n);
        let removed = o.remove_tags.iter().any(|x| x == t.s(l.label))
            || (o.remove_punct_forms && crate::punct::is_punct_form(t.s(l.word)));
        if !removed {
            n += 1;
        }
    }
    kept.push(n);
    // node index → kept bracket index
    let mut map: Vec<Option<u32>> = vec![None; t.nodes.len()];
    let mut out: Vec<CBracket> = Vec::new();
    for (k, node) in t.nodes.iter().enumerate() {
        let (start, end) = (kept[node.start as usize], kept[node.end as usize]);
        // the nearest enclosing node that was kept
        let mut p = node.parent;
        let parent = loop {
            match p {
                None => break None,
                Some(q) => match map[q as usize] {
                    Some(b) => break Some(b),
                    None => p = t.nodes[q as usize].parent,
                },
            }
        };
        let drop = start == end
            || (o.remove_trivial && end - start == 1)
            || (o.collapse_double
                && parent
                    .is_some_and(|b| out[b as usize].start == start && out[b as usize].end == end));
        if drop {
            continue;
        }
        let label = if o.labeled {
            let s = t.s(node.label);
            let cut = s
                .bytes()
                .position(|c| c == b'-' || c == b'=')
                .unwrap_or(s.len());
            (node.label.start, node.label.start + cut as u32)
        } else {
            (0, 0)
        };
        map[k] = Some(out.len() as u32);
        out.push(CBracket {
            start,
            end,
            label,
            parent,
        });
    }
    (out, n)
}

/// The words left after the preparation.
pub fn kept_words<'t>(t: &'t BracketTree, o: &CarefulOptions) -> Vec<&'t str> {
    t.leaves
        .iter()
        .filter(|l| {
            !(o.remove_tags.iter().any(|x| x == t.s(l.label))
                || (o.remove_punct_forms && crate::punct::is_punct_form(t.s(l.word))))
        })
        .map(|l| t.s(l.word))
        .collect()
}

fn crosses(a: &CBracket, b: &CBracket) -> bool {
    (a.start < b.start && b.start < a.end && a.end < b.end)
        || (b.start < a.start && a.start < b.end && b.end < a.end)
}

/// Per-sentence decisions, for judging and for comparing two systems.
#[derive(Debug, Clone, Default)]
pub struct CarefulSentence {
    /// The counts.
    pub counts: CarefulCounts,
    /// For each treebank bracket: reproduced by the parse.
    pub reproduced: Vec<bool>,
    /// For each parse bracket: `E` matched, `C` crossing, `S` spurious.
    pub classes: Vec<u8>,
    /// The treebank brackets.
    pub treebank: Vec<CBracket>,
    /// The parse brackets.
    pub parse: Vec<CBracket>,
}

/// A sentence the parser failed to produce (scored as missed), as an empty parse of
/// treebank tree `gold`: its treebank brackets counted, none reproduced.
pub fn missed(gold: &BracketTree, o: &CarefulOptions) -> CarefulSentence {
    let (tb, _) = prepare(gold, o);
    CarefulSentence {
        counts: CarefulCounts {
            TTB: tb.len() as u64,
            ..CarefulCounts::default()
        },
        reproduced: vec![false; tb.len()],
        classes: Vec::new(),
        treebank: tb,
        parse: Vec::new(),
    }
}

/// Count one sentence: `gold` the treebank tree, `parse` the parser's. When the two
/// trees keep different numbers of words after the preparation (EVALB paired them, but
/// `remove_punct_forms` or a misquote put back by `QUOTE_LABEL` removed a word on one side
/// only), their brackets cannot be compared: `Err((gold words, parse words))`.
pub fn count(
    gold: &BracketTree,
    parse: &BracketTree,
    o: &CarefulOptions,
) -> Result<CarefulSentence, (u32, u32)> {
    let (tb, n) = prepare(gold, o);
    let (pb, m) = prepare(parse, o);
    if n != m {
        return Err((n, m));
    }
    let label_eq = |a: &CBracket, b: &CBracket| {
        !o.labeled
            || gold.text[a.label.0 as usize..a.label.1 as usize]
                == parse.text[b.label.0 as usize..b.label.1 as usize]
    };
    // multiset matching: each parse bracket takes the first free treebank bracket
    let mut reproduced = vec![false; tb.len()];
    let mut classes = vec![b'S'; pb.len()];
    for (j, b) in pb.iter().enumerate() {
        if let Some(i) = (0..tb.len()).find(|&i| {
            !reproduced[i] && tb[i].start == b.start && tb[i].end == b.end && label_eq(&tb[i], b)
        }) {
            reproduced[i] = true;
            classes[j] = b'E';
        } else if tb.iter().any(|a| crosses(a, b)) {
            classes[j] = b'C';
        }
    }
    let whole = |b: &CBracket| b.start == 0 && b.end == n;
    // a parent counts only if it is not the sentence bracket
    let parent = |v: &[CBracket], b: &CBracket| b.parent.filter(|&p| !whole(&v[p as usize]));
    let mut c = CarefulCounts {
        TTB: tb.len() as u64,
        TPB: pb.len() as u64,
        ..CarefulCounts::default()
    };
    for (j, b) in pb.iter().enumerate() {
        match classes[j] {
            b'E' => c.EM += 1,
            b'C' => {
                c.CE += 1;
                match parent(&pb, b) {
                    Some(p) if classes[p as usize] == b'C' => c.PINH += 1,
                    _ => c.PNINH += 1,
                }
            }
            _ => c.SP += 1,
        }
    }
    for (i, a) in tb.iter().enumerate() {
        if reproduced[i] {
            match parent(&tb, a) {
                Some(p) if reproduced[p as usize] => c.TINH += 1,
                _ => c.TNINH += 1,
            }
        }
    }
    Ok(CarefulSentence {
        counts: c,
        reproduced,
        classes,
        treebank: tb,
        parse: pb,
    })
}

/// Two systems over the same treebank brackets: YY both reproduce it, YN only A, NY only
/// B, NN neither.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[allow(non_snake_case)]
pub struct PairCounts {
    /// Both.
    pub YY: u64,
    /// A only.
    pub YN: u64,
    /// B only.
    pub NY: u64,
    /// Neither.
    pub NN: u64,
}

impl PairCounts {
    /// Add one sentence's reproduced flags of A and B (same treebank brackets).
    pub fn add(&mut self, a: &[bool], b: &[bool]) {
        for (&x, &y) in a.iter().zip(b) {
            match (x, y) {
                (true, true) => self.YY += 1,
                (true, false) => self.YN += 1,
                (false, true) => self.NY += 1,
                (false, false) => self.NN += 1,
            }
        }
    }

    /// The paper's "real test size": remove M1 brackets both reproduce and M2 neither
    /// does, with (YY − M1)(NN − M2) = YN·NY, and test the A−B difference in recall-hard
    /// with a z-score over what is left. Returns the extreme feasible (M1, M2) pairs
    /// with their z (the largest M1, then the largest M2), and McNemar's statistic
    /// (YN − NY)² / (YN + NY) beside them.
    pub fn real_test_size(&self) -> RealTestSize {
        let (yy, yn, ny, nn) = (
            self.YY as f64,
            self.YN as f64,
            self.NY as f64,
            self.NN as f64,
        );
        let z = |m1: f64, m2: f64| -> Option<f64> {
            let n = yy - m1 + yn + ny + nn - m2;
            if n <= 0.0 {
                return None;
            }
            // recall-hard of A and B over the remaining brackets, and the z of their
            // difference under independence
            let (pa, pb) = ((yy - m1 + yn) / n, (yy - m1 + ny) / n);
            let var = (pa * (1.0 - pa) + pb * (1.0 - pb)) / n;
            (var > 0.0).then(|| (pa - pb) / var.sqrt())
        };
        let prod = yn * ny;
        // M2 as a function of M1 keeps (YY − M1)(NN − M2) = YN·NY
        let m2_of = |m1: f64| {
            if yy - m1 > 0.0 {
                nn - prod / (yy - m1)
            } else {
                f64::NAN
            }
        };
        // extreme points: M1 = 0, or M2 = 0 (M1 = YY − prod / NN)
        let a = (0.0, m2_of(0.0));
        let b = (if nn > 0.0 { yy - prod / nn } else { f64::NAN }, 0.0);
        let feasible = |p: (f64, f64)| {
            p.0 >= 0.0 && p.1 >= 0.0 && p.0 <= yy && p.1 <= nn && p.0.is_finite() && p.1.is_finite()
        };
        let points: Vec<(f64, f64, Option<f64>)> = [a, b]
            .into_iter()
            .filter(|&p| feasible(p))
            .map(|(m1, m2)| (m1, m2, z(m1, m2)))
            .collect();
        let mcnemar = if yn + ny > 0.0 {
            Some((yn - ny).powi(2) / (yn + ny))
        } else {
            None
        };
        RealTestSize { points, mcnemar }
    }
}

/// The real-test-size z-scores and McNemar's statistic.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RealTestSize {
    /// Feasible extreme (M1, M2) with the z-score of the recall-hard difference.
    pub points: Vec<(f64, f64, Option<f64>)>,
    /// McNemar's statistic (YN − NY)² / (YN + NY), without continuity correction.
    pub mcnemar: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(s: &str) -> BracketTree {
        let t = crate::brackets::tests::tree(s);
        assert!(t.problems.is_empty());
        t
    }

    /// The paper's bracketings, written as trees with X labels and W tags.
    fn brackets(s: &str) -> String {
        let mut o = String::new();
        for tok in s.replace('[', " [ ").replace(']', " ] ").split_whitespace() {
            match tok {
                "[" => o.push_str("(X "),
                "]" => o.push(')'),
                w => o.push_str(&format!("(W {w}) ")),
            }
        }
        o
    }

    fn example() -> CarefulCounts {
        let gold = [
            "[He [walks to [the house]]]",
            "[[The president] [gave [a long speech]]]",
        ];
        let parse = [
            "[He [walks [to [the house]]]]",
            "[The [[president gave] [a [long speech]]]]",
        ];
        let mut c = CarefulCounts::default();
        for (g, p) in gold.iter().zip(parse) {
            c += &count(
                &tree(&brackets(g)),
                &tree(&brackets(p)),
                &CarefulOptions::default(),
            )
            .unwrap()
            .counts;
        }
        c
    }

    #[test]
    fn the_papers_example() {
        let c = example();
        assert_eq!(
            (c.EM, c.CE, c.SP, c.TTB, c.TPB, c.PINH, c.PNINH, c.TINH, c.TNINH),
            (5, 2, 2, 7, 9, 1, 1, 1, 4)
        );
    }

    #[test]
    fn derived_measures() {
        let c = example();
        let judged = Judged {
            EMA: 5,
            EMR: 0,
            CEA: 1,
            CER: 1,
            SPA: 1,
            SPR: 1,
        };
        // the derived measures are measures over the counts (brackets::measures)
        use crate::brackets::measures::{careful_measures, CarefulUnit};
        use crate::measure::totals;
        let unit = |judged: Option<Judged>| CarefulUnit {
            counts: c,
            with_judgments: u64::from(judged.is_some()),
            judged: judged.unwrap_or_default(),
        };
        let sums = totals(&[unit(Some(judged))]);
        let ms = careful_measures(true);
        let v = |name: &str| {
            ms.iter()
                .find(|m| m.name == name)
                .and_then(|m| m.of(&sums))
                .unwrap()
        };
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(v("generation rate"), 9.0 / 7.0));
        assert!(close(v("recall-hard"), 5.0 / 7.0));
        assert!(close(v("recall-soft"), 7.0 / 7.0));
        assert!(close(v("precision-hard"), 5.0 / 9.0));
        assert!(close(v("precision-soft"), 7.0 / 9.0));
        assert!(close(v("spuriousness"), 2.0 / 9.0));
        assert!(close(v("problem rate"), 4.0 / 9.0));
        assert!(close(v("P-inheritance"), 1.0 / 2.0));
        assert!(close(v("T-inheritance"), 1.0 / 5.0));
        assert!(close(v("false error"), 1.0 / 2.0));
        assert!(close(v("test noise"), 2.0 / 9.0));
        // without judgments the judged measures are not applicable
        let sums = totals(&[unit(None)]);
        let undefined = careful_measures(false)
            .iter()
            .filter(|m| !m.is_count() && m.of(&sums).is_none())
            .count();
        assert_eq!(undefined, 2);
    }

    #[test]
    fn preparation() {
        let t = tree("(S (NP (NP (DT the) (NN dog))) (, ,) (VP (VB runs)) (X (-NONE- *)))");
        let o = CarefulOptions {
            remove_tags: vec![",".into(), "-NONE-".into()],
            collapse_double: true,
            remove_trivial: true,
            ..CarefulOptions::default()
        };
        let (b, n) = prepare(&t, &o);
        assert_eq!(n, 3);
        // S over 3 words, one NP over 2; the inner NP collapses, VP is trivial, X empty
        let spans: Vec<(u32, u32)> = b.iter().map(|x| (x.start, x.end)).collect();
        assert_eq!(spans, [(0, 3), (0, 2)]);
        assert_eq!(b[1].parent, Some(0));
    }

    #[test]
    fn real_test_size_and_mcnemar() {
        let p = PairCounts {
            YY: 80,
            YN: 6,
            NY: 2,
            NN: 12,
        };
        let r = p.real_test_size();
        assert_eq!(r.mcnemar, Some(16.0 / 8.0));
        assert_eq!(r.points.len(), 2);
        for &(m1, m2, z) in &r.points {
            assert!(((80.0 - m1) * (12.0 - m2) - 12.0).abs() < 1e-9);
            // the z-score squared nearly coincides with McNemar's statistic
            let z2 = z.unwrap().powi(2);
            assert!((z2 / 2.0 - 1.0).abs() < 0.15, "z² = {z2}");
        }
    }
}
