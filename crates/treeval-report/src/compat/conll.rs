//! The CoNLL shared tasks' scorers: the summary lines of `eval.pl -q` (CoNLL-X) and
//! `eval07.pl -q` (CoNLL 2007), and the output of `eval09.pl -q` (CoNLL 2009).

use std::fmt::Write as _;

use treeval_metrics::AttachmentCounts;

/// Which reference script's summary lines to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compat {
    /// `eval07.pl -q` (CoNLL 2007).
    Eval07,
    /// `eval.pl -q` (CoNLL-X).
    EvalPl,
}

/// The three summary lines of `eval07.pl -q` / `eval.pl -q` (the two print the same
/// lines), byte for byte. The percentage is computed as the scripts compute it,
/// `100 - errors * 100.0 / total` in double precision, then printed with `%.2f`
/// (Rust's `{:.2}` rounds the exact binary value half-to-even, as glibc's printf).
/// `Err` when there is no scored word (where the scripts die dividing by zero).
pub fn compat_lines(t: &AttachmentCounts) -> Result<String, String> {
    let total = t.words;
    if total == 0 {
        return Err("no scored word: the reference scripts would die dividing by zero".into());
    }
    let mut o = String::new();
    for (label, correct) in [
        ("Labeled   attachment score:", t.las),
        ("Unlabeled attachment score:", t.uas),
        ("Label accuracy score:      ", t.la),
    ] {
        let err = total - correct;
        let score = 100.0 - err as f64 * 100.0 / total as f64;
        let _ = writeln!(o, "  {label} {correct} / {total} * 100 = {score:.2} %");
    }
    Ok(o)
}

/// What `eval09.pl -q` (the CoNLL-2009 scorer) prints for one system, from counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Eval09Counts {
    /// Scored words (eval09.pl's `tot`).
    pub words: u64,
    /// Words with the right HEAD and DEPREL.
    pub las: u64,
    /// Words with the right HEAD.
    pub uas: u64,
    /// Words with the right DEPREL.
    pub la: u64,
    /// Exactly matched sentences as eval09.pl counts them (a sentence with no scored word
    /// counts as matched).
    pub exact: u64,
    /// Sentences (with or without scored words).
    pub sentences: u64,
    /// The sentence count of eval09.pl's semantic scores: one per sentence break it
    /// reads (blank line or end of file), less one when that exceeds `sentences`.
    pub semantic_sentences: u64,
    /// Whether either file has a predicate (a PRED value): then only the SYNTACTIC
    /// SCORES block is printed, as treeval does not score semantic roles.
    pub has_predicates: bool,
}

/// The output of `eval09.pl -q` byte for byte when neither file has a predicate (the
/// semantic counts are then all 0 and every overall score follows from the syntactic
/// ones), else its SYNTACTIC SCORES block. Every number is computed as the script
/// computes it (`100 - errors * 100.0 / total`, `correct * 100 / total`, F1 as
/// `2 * p * r / (p + r)`), printed with `%.2f`.
///
/// `Err((printed, reason))` where the script dies dividing by zero: `printed` is what
/// it has written to standard output by then (no scored word: after the first line;
/// LAS 0: before the macro F1).
pub fn compat_eval09(c: &Eval09Counts) -> Result<String, (String, String)> {
    let mut o = String::from("  SYNTACTIC SCORES:\n");
    if c.words == 0 {
        return Err((
            o,
            "no scored word: eval09.pl dies dividing by zero after its first line".into(),
        ));
    }
    let (lab, unlab, exact) = eval09_syntactic(&mut o, c);
    if c.has_predicates {
        return Ok(o);
    }
    eval09_semantic(&mut o, c.semantic_sentences);
    if let Err(reason) = eval09_macro(&mut o, lab, unlab) {
        return Err((o, reason));
    }
    let _ = writeln!(
        o,
        "  Exact overall match:        {} / {} * 100 = {exact:.2} %",
        c.exact, c.sentences
    );
    eval09_micro(&mut o, c);
    Ok(o)
}

/// `correct * 100 / total` as eval09.pl computes it (integer product, then a division).
fn eval09_ratio(a: u64, b: u64) -> f64 {
    (a * 100) as f64 / b as f64
}

/// eval09.pl's F1, `2 * p * r / (p + r)`.
fn eval09_f1(p: f64, r: f64) -> f64 {
    2.0 * p * r / (p + r)
}

/// Writes the attachment and exact-match lines of the SYNTACTIC SCORES block (`c.words`
/// is not 0); returns the labeled and unlabeled attachment scores and the exact match.
fn eval09_syntactic(o: &mut String, c: &Eval09Counts) -> (f64, f64, f64) {
    let attach = |correct: u64| 100.0 - (c.words - correct) as f64 * 100.0 / c.words as f64;
    let (lab, unlab, acc) = (attach(c.las), attach(c.uas), attach(c.la));
    let _ = writeln!(
        o,
        "  Labeled   attachment score: {} / {} * 100 = {lab:.2} %",
        c.las, c.words
    );
    let _ = writeln!(
        o,
        "  Unlabeled attachment score: {} / {} * 100 = {unlab:.2} %",
        c.uas, c.words
    );
    let _ = writeln!(
        o,
        "  Label accuracy score:       {} / {} * 100 = {acc:.2} %",
        c.la, c.words
    );
    let exact = eval09_ratio(c.exact, c.sentences);
    let _ = writeln!(
        o,
        "  Exact syntactic match:      {} / {} * 100 = {exact:.2} %",
        c.exact, c.sentences
    );
    (lab, unlab, exact)
}

/// Writes the SEMANTIC SCORES block (all zero: treeval scores no semantic role) over
/// `n` semantic sentences.
fn eval09_semantic(o: &mut String, n: u64) {
    o.push_str("\n  SEMANTIC SCORES: \n");
    for (what, f1_name) in [("Labeled", "Labeled F1:"), ("Unlabeled", "Unlabeled F1:")] {
        let _ = writeln!(
            o,
            "  {:<28}(0 + 0) / (0 + 0) * 100 = 0.00 %",
            format!("{what} precision:")
        );
        let _ = writeln!(
            o,
            "  {:<28}(0 + 0) / (0 + 0) * 100 = 0.00 %",
            format!("{what} recall:")
        );
        let _ = writeln!(o, "  {f1_name:<28}0.00 ");
    }
    o.push_str("  Proposition precision:      0 / 0 * 100 = 0.00 %\n");
    o.push_str("  Proposition recall:         0 / 0 * 100 = 0.00 %\n");
    o.push_str("  Proposition F1:             0.00 \n");
    let _ = writeln!(
        o,
        "  Exact semantic match:       {n} / {n} * 100 = {:.2} %",
        eval09_ratio(n, n)
    );
}

/// Writes the OVERALL MACRO SCORES block from the labeled and unlabeled attachment
/// scores; `Err(reason)` where eval09.pl dies dividing by zero (`o` then holds what it
/// printed before).
fn eval09_macro(o: &mut String, lab: f64, unlab: f64) -> Result<(), String> {
    o.push_str("\n  OVERALL MACRO SCORES (Wsem = 0.50):\n");
    // Wsem * 0 (no semantic score) + (1 - Wsem) * syntactic, as precision and recall
    for (what, syn) in [("Labeled", lab), ("Unlabeled", unlab)] {
        let p = 0.5 * 0.0 + (1.0 - 0.5) * syn;
        if p + p == 0.0 {
            return Err(format!(
                "{} attachment score 0: eval09.pl dies dividing by zero computing the {} macro F1",
                what.to_lowercase(),
                what.to_lowercase()
            ));
        }
        let _ = writeln!(o, "  {:<28}{p:.2} %", format!("{what} macro precision:"));
        let _ = writeln!(o, "  {:<28}{p:.2} %", format!("{what} macro recall:"));
        let _ = writeln!(
            o,
            "  {:<28}{:.2} %",
            format!("{what} macro F1:"),
            eval09_f1(p, p)
        );
    }
    Ok(())
}

/// Writes the OVERALL MICRO SCORES block (LAS > 0 here, so neither F1 divides by zero).
fn eval09_micro(o: &mut String, c: &Eval09Counts) {
    o.push_str("\n  OVERALL MICRO SCORES:\n");
    // LAS > 0 here (else the macro F1 died above), so neither micro F1 divides by zero
    for (what, correct) in [("Labeled", c.las), ("Unlabeled", c.uas)] {
        let p = eval09_ratio(correct, c.words);
        for side in ["precision", "recall"] {
            let _ = writeln!(
                o,
                "  {:<28}({correct} + 0 + 0) / ({} + 0 + 0) * 100 = {p:.2} %",
                format!("{what} micro {side}:"),
                c.words
            );
        }
        let _ = writeln!(
            o,
            "  {:<28}{:.2} ",
            format!("{what} micro F1:"),
            eval09_f1(p, p)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headline(las: (u64, u64), uas: (u64, u64), la: (u64, u64)) -> AttachmentCounts {
        assert!(las.1 == uas.1 && uas.1 == la.1);
        AttachmentCounts {
            words: las.1,
            las: las.0,
            uas: uas.0,
            la: la.0,
            ..AttachmentCounts::default()
        }
    }

    #[test]
    fn compat_lines_hand_checked() {
        // tiny/ reference figures (eval07.pl -q)
        assert_eq!(
            compat_lines(&headline((22, 34), (29, 34), (27, 34))).unwrap(),
            "  Labeled   attachment score: 22 / 34 * 100 = 64.71 %\n\
             \x20 Unlabeled attachment score: 29 / 34 * 100 = 85.29 %\n\
             \x20 Label accuracy score:       27 / 34 * 100 = 79.41 %\n"
        );
        // exact binary ties round half to even, as glibc printf: 703/800 = 87.875 -> 87.88,
        // 701/800 = 87.625 -> 87.62
        let l = compat_lines(&headline((703, 800), (701, 800), (800, 800))).unwrap();
        assert!(l.contains("= 87.88 %"), "{l}");
        assert!(l.contains("= 87.62 %"), "{l}");
        assert!(l.contains("= 100.00 %"), "{l}");
        assert!(compat_lines(&headline((0, 0), (0, 0), (0, 0))).is_err());
    }

    fn eval09(words: u64, las: u64, uas: u64, la: u64, exact: u64, sentences: u64) -> Eval09Counts {
        Eval09Counts {
            words,
            las,
            uas,
            la,
            exact,
            sentences,
            semantic_sentences: sentences,
            has_predicates: false,
        }
    }

    #[test]
    fn compat_eval09_hand_checked() {
        // macro P = R = 0.5 · LAS% (no semantic score), F1 = 2PR/(P+R); micro = syntactic
        let o = compat_eval09(&eval09(7, 5, 6, 6, 1, 3)).unwrap();
        for line in [
            "  Labeled   attachment score: 5 / 7 * 100 = 71.43 %\n",
            "  Exact syntactic match:      1 / 3 * 100 = 33.33 %\n",
            "  Exact semantic match:       3 / 3 * 100 = 100.00 %\n",
            "  Labeled macro precision:    35.71 %\n",
            "  Unlabeled macro F1:         42.86 %\n",
            "  Exact overall match:        1 / 3 * 100 = 33.33 %\n",
            "  Labeled micro precision:    (5 + 0 + 0) / (7 + 0 + 0) * 100 = 71.43 %\n",
            "  Unlabeled micro F1:         85.71 \n",
        ] {
            assert!(o.contains(line), "{line:?} not in\n{o}");
        }
        assert_eq!(o.lines().count(), 34);
        // with predicates: the syntactic block only
        let c = Eval09Counts {
            has_predicates: true,
            ..eval09(7, 5, 6, 6, 1, 3)
        };
        assert_eq!(compat_eval09(&c).unwrap().lines().count(), 5);
    }

    #[test]
    fn compat_eval09_stops_where_the_script_dies() {
        // no scored word: the header, then a division by zero
        let (printed, why) = compat_eval09(&eval09(0, 0, 0, 0, 1, 1)).unwrap_err();
        assert_eq!(printed, "  SYNTACTIC SCORES:\n");
        assert!(why.contains("no scored word"), "{why}");
        // LAS 0: everything up to the macro F1
        let (printed, why) = compat_eval09(&eval09(2, 0, 1, 0, 0, 1)).unwrap_err();
        assert!(
            printed.ends_with("\n  OVERALL MACRO SCORES (Wsem = 0.50):\n"),
            "{printed}"
        );
        assert!(!printed.contains("macro precision"), "{printed}");
        assert!(why.contains("labeled attachment score 0"), "{why}");
    }
}
