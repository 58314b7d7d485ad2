//! `--where` in `brackets`: which brackets an evaluation counts. A condition names a
//! `--by` key ([`BracketsKey`]) and the values it accepts (the values of
//! [`crate::filter`]); a bracket is counted when every condition holds:
//! - `label=NP|VP`: the bracket's label as EVALB compares it and `--by label` groups it
//!   (cut at `-`/`=`, an `EQ_LABEL` class under its first label; with `LABELED 0` a
//!   matched test bracket under its gold bracket's label), so that `--where label=NP`
//!   counts exactly the brackets of the `--by label` cell `NP`;
//! - `length=11-20` (a `--by length` group, a number, `N-M` or `N+`): the sentence's
//!   length as `CUTOFF_LEN` counts it: a condition on whole sentences, so that
//!   `--where length=11-20` scores exactly the sentences of the `--by length` cell.
//!
//! Under a label condition only the bracket counts (recall, precision, F) are
//! restricted: complete match, crossing and tagging accuracy are properties of whole
//! sentences (all their brackets, all their words) and are not applicable.

use super::by::BracketsKey;
use super::{Params, Scorer, SentenceRow};
use crate::bins::{length_bin, LENGTH_BINS};
use crate::filter::{accepts_any, join, parse_value, Value};

/// One condition: `key=value|value…`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Cond {
    key: BracketsKey,
    values: Vec<Value>,
}

/// Conditions on brackets, all of which must hold (none: every bracket).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BracketWhere {
    conds: Vec<Cond>,
}

/// How many sentences and gold and test brackets `--where` kept, of how many the
/// sentence selection kept (brackets: of the scored sentences).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WhereCounts {
    /// Scored sentences kept (a length condition), of all scored sentences.
    pub sentences: (u64, u64),
    /// Gold brackets kept, of all.
    pub gold: (u64, u64),
    /// Test brackets kept, of all.
    pub test: (u64, u64),
}

/// One condition `KEY=VALUE[|VALUE…]`.
fn parse_cond(c: &str) -> Result<Cond, String> {
    let keys: Vec<&str> = BracketsKey::ALL.iter().map(|k| k.name()).collect();
    let Some((k, vs)) = c.split_once('=') else {
        return Err(format!(
            "expected KEY=VALUE[|VALUE…], found '{c}'; KEY is one of {}",
            keys.join(", ")
        ));
    };
    let key = BracketsKey::parse(k)
        .ok_or_else(|| format!("expected one of {}; found '{k}'", keys.join(", ")))?;
    let (bins, numeric): (&[&str], bool) = match key {
        BracketsKey::Label => (&[], false),
        BracketsKey::Length => (&LENGTH_BINS, true),
    };
    let values = vs
        .split('|')
        .map(|v| parse_value(key.name(), bins, numeric, v))
        .collect::<Result<_, _>>()?;
    Ok(Cond { key, values })
}

impl BracketWhere {
    /// Every condition of several `--where` arguments, each `COND[,COND…]` (all must hold).
    pub fn all(specs: &[String]) -> Result<BracketWhere, String> {
        let mut conds = Vec::new();
        for s in specs {
            for c in crate::list::split(s) {
                conds.push(parse_cond(c.trim())?);
            }
        }
        Ok(BracketWhere { conds })
    }

    /// Whether there is no condition (every bracket is counted).
    pub fn is_empty(&self) -> bool {
        self.conds.is_empty()
    }

    /// Whether a condition reads the brackets' labels (then only recall, precision and F
    /// are defined).
    pub fn has_label(&self) -> bool {
        self.conds.iter().any(|c| c.key == BracketsKey::Label)
    }

    /// Whether a condition reads the sentence length.
    pub fn has_length(&self) -> bool {
        self.conds.iter().any(|c| c.key == BracketsKey::Length)
    }

    /// The conditions for the signature, alternatives joined by `/` (`|` separates the
    /// signature's parts): `label=NP/VP,length=1-10`.
    pub fn name(&self) -> String {
        crate::filter::signature_name(&self.conds)
    }

    /// The conditions as written on the command line: `label=NP|VP and length=1-10`.
    pub fn describe(&self) -> String {
        crate::filter::described(&self.conds)
    }

    /// Whether a sentence of `length` words (as `CUTOFF_LEN` counts them) meets the
    /// length conditions.
    pub fn sentence_matches(&self, length: u64) -> bool {
        let n = u32::try_from(length).unwrap_or(u32::MAX);
        self.conds
            .iter()
            .filter(|c| c.key == BracketsKey::Length)
            .all(|c| accepts_any(&c.values, length_bin(length as usize), Some(n)))
    }

    /// Whether a bracket counted under `label` (as compared) meets the label conditions.
    pub fn label_matches(&self, label: &str) -> bool {
        self.conds
            .iter()
            .filter(|c| c.key == BracketsKey::Label)
            .all(|c| accepts_any(&c.values, label, None))
    }

    /// A label condition that can hold for no bracket under `params`: a label with `-`
    /// or `=` (labels are cut there), a `DELETE_LABEL` (never counted), or a label an
    /// `EQ_LABEL` pair counts under another name (`--by label` names the class by its
    /// first label).
    pub fn check_labels(&self, params: &Params) -> Result<(), String> {
        let mut s = Scorer::new(params.clone());
        for c in self.conds.iter().filter(|c| c.key == BracketsKey::Label) {
            for v in &c.values {
                let cut = v.text.split(['-', '=']).next().unwrap_or_default();
                if cut != v.text {
                    return Err(format!(
                        "label: brackets are compared by their label cut at its first '-' or '=', so '{}' can match no bracket; write '{cut}'",
                        v.text
                    ));
                }
                let id = s.id(&v.text);
                if s.info[id as usize].delete_node {
                    return Err(format!(
                        "label: '{}' is a DELETE_LABEL of the parameter file: such brackets are not counted, so it can match none",
                        v.text
                    ));
                }
                let class = s.canonical(id);
                if class != id {
                    return Err(format!(
                        "label: the parameter file's EQ_LABEL counts '{}' brackets as '{}' (as --by label names them); write '{}'",
                        v.text, s.names[class as usize], s.names[class as usize]
                    ));
                }
            }
        }
        Ok(())
    }
}

impl crate::filter::Named for Cond {
    /// `label=NP|VP`, alternatives joined by `or`.
    fn name(&self, or: &str) -> String {
        format!("{}={}", self.key.name(), join(&self.values, or))
    }
}

impl Scorer {
    /// Restrict the row of the sentence just scored to the brackets `w` keeps (a label
    /// condition: gold brackets by their label, test brackets by the label `--by label`
    /// counts them under) and add what was kept to `counts`.
    pub(super) fn filter_row(
        &self,
        w: &BracketWhere,
        row: &mut SentenceRow,
        counts: &mut WhereCounts,
    ) {
        counts.sentences.1 += 1;
        if row.counted() {
            counts.gold.1 += row.gold;
            counts.test.1 += row.test;
        }
        if !w.sentence_matches(row.length) {
            return;
        }
        counts.sentences.0 += 1;
        if !row.counted() {
            return;
        }
        let name = |label: u32| self.names[self.canonical(label) as usize].as_ref();
        if w.has_label() {
            let gold = self.gb.iter().filter(|g| w.label_matches(name(g.label)));
            let (mut n, mut matched) = (0, 0);
            for g in gold {
                n += 1;
                matched += u64::from(g.matched);
            }
            row.gold = n;
            row.matched = matched;
            row.test = self
                .tb
                .iter()
                .filter(|t| w.label_matches(name(t.counted_as)))
                .count() as u64;
        }
        counts.gold.0 += row.gold;
        counts.test.0 += row.test;
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use super::*;
    use treeval_formats::bracket::{BracketReader, Layout};

    fn parse(s: &str) -> Result<String, String> {
        BracketWhere::all(&[s.to_owned()]).map(|w| w.describe())
    }

    #[test]
    fn conditions_parse_to_their_names_and_bad_ones_say_what_was_expected() {
        for (spec, name) in [
            ("label=NP", "label=NP"),
            ("label=NP|VP, length=1-10", "label=NP|VP and length=1-10"),
            ("length=51+", "length=51+"),
            ("length=15|41-50", "length=15|41-50"),
        ] {
            assert_eq!(parse(spec), Ok(name.to_owned()), "{spec}");
        }
        for (spec, says) in [
            ("label", "expected KEY=VALUE"),
            ("tag=NN", "expected one of label, length; found 'tag'"),
            ("label=", "expected a value"),
            ("label=NP|", "expected a value"),
            ("length=long", "length: expected one of 1-10, 11-20, 21-30, 31-40, 41-50, 51+, a number, a range N-M or N+; found 'long'"),
            ("length=9-3", "found '9-3'"),
        ] {
            let e = parse(spec).expect_err(spec);
            assert!(e.contains(says), "{spec}: {e}");
        }
        let w = BracketWhere::all(&["label=NP|VP".into(), "length=41+".into()]).unwrap();
        assert_eq!(w.name(), "label=NP/VP,length=41+");
        assert!(w.has_label() && w.has_length() && !BracketWhere::default().has_label());
        assert!(w.sentence_matches(41) && !w.sentence_matches(40));
        assert!(w.label_matches("VP") && !w.label_matches("S"));
    }

    #[test]
    fn labels_that_can_match_nothing_are_refused() {
        let p = Params::collins();
        let check = |s: &str| BracketWhere::all(&[s.to_owned()]).unwrap().check_labels(&p);
        assert_eq!(check("label=NP|VP"), Ok(()));
        assert!(check("label=NP-SBJ").unwrap_err().contains("write 'NP'"));
        assert!(check("label=TOP").unwrap_err().contains("DELETE_LABEL"));
        // COLLINS.prm: EQ_LABEL ADVP PRT
        assert!(check("label=PRT").unwrap_err().contains("write 'ADVP'"));
        assert_eq!(check("label=ADVP"), Ok(()));
    }

    fn run(g: &str, t: &str, spec: &[&str], labeled: bool) -> BracketResult {
        let mut p = Params::collins();
        p.labeled = labeled;
        p.by_label = true;
        p.filter =
            BracketWhere::all(&spec.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
        let mut gr = BracketReader::new(g.as_bytes(), "g", Layout::Line);
        let mut tr = BracketReader::new(t.as_bytes(), "t", Layout::Line);
        evaluate_inline(&mut gr, &mut tr, &p, None).unwrap()
    }

    #[test]
    fn brackets_are_kept_by_label_and_sentences_by_length() {
        // sentence 1 (4 words): gold S NP VP PRT, test S NP-SBJ VP ADVP (PRT = ADVP);
        // sentence 2 (2 words): gold S A B, test S A (its B is a C)
        let g = "(S (NP (DT the) (NN dog)) (VP (VBZ runs) (PRT (RP up))) (. .))\n(S (A (P this)) (B (Q is)))\n";
        let t = "(S (NP-SBJ (DT the) (NN dog)) (VP (VBZ runs) (ADVP (RP up))) (. .))\n(S (A (P this)) (C (Q is)))\n";
        let r = run(g, t, &["label=NP|ADVP|B|C"], true);
        // by hand: gold NP, ADVP(PRT), B = 3; test NP, ADVP, C = 3; matched NP, ADVP = 2
        assert_eq!((r.all.gold, r.all.test, r.all.matched), (3, 3, 2));
        assert_eq!(r.where_counts.gold, (3, 7));
        assert_eq!(r.where_counts.test, (3, 7));
        assert_eq!(r.where_counts.sentences, (2, 2));
        let names: Vec<&str> = r.by_label.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["ADVP", "B", "C", "NP"],
            "--by label keeps the kept labels"
        );
        // a length condition keeps whole sentences
        let r = run(g, t, &["length=1-3"], true);
        assert_eq!(
            (r.all.sentences, r.all.gold, r.all.test, r.all.matched),
            (1, 3, 3, 2)
        );
        assert_eq!(r.rows.len(), 1);
        assert_eq!(r.where_counts.sentences, (1, 2));
        assert_eq!(
            r.where_counts.gold,
            (3, 7),
            "of the brackets of every scored sentence"
        );
        // LABELED 0: the test C matched gold B, and counts under B, as in --by label
        let r = run(g, t, &["label=B"], false);
        assert_eq!((r.all.gold, r.all.test, r.all.matched), (1, 1, 1));
        let r = run(g, t, &["label=C"], false);
        assert_eq!((r.all.gold, r.all.test, r.all.matched), (0, 0, 0));
    }
}
