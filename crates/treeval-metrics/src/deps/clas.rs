//! CLAS, the content-word labeled attachment score of the CoNLL 2018 shared task
//! (Nivre & Fang 2017): LAS restricted to content words, as precision, recall and F1.
//! A content word's universal relation (the part before `:`) is none of aux, case, cc,
//! clf, cop, det, mark, punct. Right = a gold content word with the right head and label;
//! precision = right / system content words, recall = right / gold content words.
//! conll18_ud_eval.py compares universal relations: with `--labels universal` and all
//! words scored (`--punct include`, the default profile) this is its CLAS F1 on files of
//! the same tokenization.

use crate::measure::{ratio, Measure};

use super::word::{Right, WordCount};

/// The content-word LAS.
pub struct Clas;

const FUNCTIONAL: [&str; 8] = ["aux", "case", "cc", "clf", "cop", "det", "mark", "punct"];

impl WordCount for Clas {
    fn columns(&self) -> [&'static str; 3] {
        ["clas_correct", "clas_gold", "clas_system"]
    }

    fn measure(&self, right: usize, gold: usize, system: usize) -> Measure {
        Measure::fraction(
            "CLAS",
            "content-word labeled attachment score (F1)",
            "2·right / (gold content words + system content words); content: universal relation not aux, case, cc, clf, cop, det, mark, punct",
            "CoNLL 2018 shared task (conll18_ud_eval.py CLAS); Nivre & Fang 2017",
            vec![right, gold, system],
            |s| ratio(2.0 * s[0], s[1] + s[2]),
        )
        .with_reference("conll18_ud_eval.py (CLAS, same tokenization, universal labels)")
    }

    fn counts_label(&self, label: &str) -> bool {
        let universal = label.split(':').next().unwrap_or(label);
        !FUNCTIONAL.contains(&universal)
    }

    fn right(&self) -> Right {
        Right::HeadAndLabel
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_words_by_their_universal_relation() {
        assert!(Clas.counts_label("nsubj"));
        assert!(Clas.counts_label("obl:tmod"));
        assert!(!Clas.counts_label("aux:pass"));
        assert!(!Clas.counts_label("punct"));
        assert!(!Clas.counts_label("det"));
        assert!(Clas.right().of(true, true) && !Clas.right().of(true, false));
        let m = Clas.measure(0, 1, 2);
        assert_eq!(m.of(&[3.0, 4.0, 5.0]), Some(6.0 / 9.0));
    }
}
