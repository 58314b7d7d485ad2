//! What Alpino's `Disambiguation/evaluate.pl -x` prints for n-best candidates, byte for
//! byte: its sums in its order of arithmetic, `%6.2f` where it uses printf and Perl's
//! default number format (`%.15g`) where it prints a sum with `%s`.
//!
//! Where evaluate.pl dies dividing by zero (no sentence; no system, gold or shared
//! triples in a pick; no word for the lemma/pos score) its output stops there: the lines
//! printed before are returned with the reason.

use std::fmt::Write as _;

use treeval_formats::nbest::alpino::AlpinoLine;

/// A number as Perl prints it by default (`%.15g`; integers as integers).
pub fn perl_number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf" } else { "-Inf" }.into();
    }
    if x == x.trunc() && x.abs() < 1e15 {
        return format!("{}", x as i64);
    }
    let sci = format!("{x:.14e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-4..15).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), exp.abs())
    } else {
        let decimals = (14 - exp).max(0) as usize;
        trim(&format!("{x:.decimals$}"))
    }
}

/// evaluate.pl's score of a penalty and a denominator.
fn score(pen: f64, n: f64) -> f64 {
    if n != 0.0 {
        100.0 * (1.0 - pen / n)
    } else {
        100.0
    }
}

/// One candidate as evaluate.pl keeps it.
#[derive(Debug, Clone, Copy, Default)]
struct Kept {
    pen: f64,
    n: f64,
    score: f64,
    overlap: f64,
    correct: f64,
    system: f64,
    cgn: f64,
    cgn_total: f64,
    weight: f64,
}

impl Kept {
    fn of(l: &AlpinoLine) -> Self {
        let n = if l.correct > l.system {
            l.correct
        } else {
            l.system
        };
        let pen = n - l.overlap;
        Kept {
            pen,
            n,
            score: score(pen, n),
            overlap: l.overlap,
            correct: l.correct,
            system: l.system,
            cgn: l.cgn,
            cgn_total: l.cgn_total,
            weight: l.weight,
        }
    }
}

/// The sums of one pick (first, best or test).
#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    pen: f64,
    n: f64,
    av: f64,
    overlap: f64,
    correct: f64,
    system: f64,
}

impl Sums {
    fn add(&mut self, k: &Kept) {
        self.pen += k.pen;
        self.n += k.n;
        self.av += score(k.pen, k.n);
        self.overlap += k.overlap;
        self.correct += k.correct;
        self.system += k.system;
    }
}

/// Everything evaluate.pl sums.
#[derive(Debug, Default)]
struct Totals {
    first: Sums,
    best: Sums,
    test: Sums,
    exact: f64,
    cgn: f64,
    cgn_total: f64,
    sentences: f64,
}

fn totals(sentences: &[Vec<AlpinoLine>]) -> Totals {
    let mut t = Totals::default();
    for s in sentences {
        let Some(first) = s.first().map(Kept::of) else {
            continue;
        };
        let (mut test, mut best) = (first, first);
        for l in &s[1..] {
            let k = Kept::of(l);
            if k.weight > test.weight {
                test = k;
            }
            if k.score > best.score {
                best = k;
            }
        }
        t.first.add(&first);
        t.best.add(&best);
        t.test.add(&test);
        t.cgn += test.cgn;
        t.cgn_total += test.cgn_total;
        if score(test.pen, test.n) >= score(best.pen, best.n) {
            t.exact += 1.0;
        }
        t.sentences += 1.0;
    }
    t
}

/// `100·(c − f)/(b − f)`, or 0 where evaluate.pl's "undefined" is printed with `%6.2f`.
fn phi(f: f64, b: f64, c: f64) -> f64 {
    if b != f {
        100.0 * (c - f) / (b - f)
    } else {
        0.0
    }
}

/// The output of `evaluate.pl -x` over `sentences` (each a sentence's candidates, first
/// parse first), and why evaluate.pl dies where it does.
pub fn evaluate_x(sentences: &[Vec<AlpinoLine>]) -> (String, Option<String>) {
    let t = totals(sentences);
    let mut o = String::new();
    if t.sentences == 0.0 {
        return (
            o,
            Some("no sentence: evaluate.pl dies dividing by zero (its output is empty)".into()),
        );
    }
    let (f, b, c) = (t.first, t.best, t.test);
    let micro = [score(f.pen, f.n), score(b.pen, b.n), score(c.pen, c.n)];
    let avg = [f.av / t.sentences, b.av / t.sentences, c.av / t.sentences];
    o.push('\n');
    let _ = writeln!(o, "exact {:6.2}", t.exact / t.sentences);
    let _ = writeln!(o, "first-score {:6.2} {:6.2}", micro[0], avg[0]);
    let _ = writeln!(o, "best-score  {:6.2} {:6.2}", micro[1], avg[1]);
    let _ = writeln!(o, "test-score  {:6.2} {:6.2}", micro[2], avg[2]);
    let (k, ka) = (
        phi(micro[0], micro[1], micro[2]),
        phi(avg[0], avg[1], avg[2]),
    );
    let _ = writeln!(o, "phi-score   {k:6.2} {ka:6.2}");
    let p = perl_number;
    let _ = writeln!(o, "first-p/m:  {}     {}", p(f.pen), p(f.n));
    let _ = writeln!(o, "best-p/m:   {}     {}", p(b.pen), p(b.n));
    let _ = writeln!(o, "test-p/m:   {}     {}", p(c.pen), p(c.n));
    let n = p(t.sentences);
    let _ = writeln!(o, "first-av:   {}     {n}", p(f.av));
    let _ = writeln!(o, "best-av:    {}     {n}", p(b.av));
    let _ = writeln!(o, "test-av:    {}     {n}", p(c.av));
    for (name, s) in [("first", f), ("best", b), ("test", c)] {
        let _ = writeln!(o, "{name}-overlap     {}", p(s.overlap));
        let _ = writeln!(o, "{name}-correct     {}", p(s.correct));
        let _ = writeln!(o, "{name}-system      {}", p(s.system));
    }
    for (name, s) in [("first", f), ("best", b), ("test", c)] {
        match prf(&s) {
            Ok([pr, re, fs]) => {
                let pad = if name == "first" { "" } else { " " };
                let _ = writeln!(o, "{name}-precision  {pad}{pr:6.2}");
                let _ = writeln!(o, "{name}-recall     {pad}{re:6.2}");
                let _ = writeln!(o, "{name}-fscore     {pad}{fs:6.2}");
            }
            Err(why) => {
                return (
                    o,
                    Some(format!(
                        "{why} in the {name} parses: evaluate.pl dies dividing by zero here"
                    )),
                )
            }
        }
    }
    if t.cgn_total == 0.0 {
        return (
            o,
            Some("no word for the lemma/pos score: evaluate.pl dies dividing by zero here".into()),
        );
    }
    let _ = writeln!(o, "lemma/pos-score  {:6.2}", 100.0 * t.cgn / t.cgn_total);
    (o, None)
}

/// Precision, recall and F as evaluate.pl computes them, or why it cannot.
fn prf(s: &Sums) -> Result<[f64; 3], &'static str> {
    if s.system == 0.0 {
        return Err("no system triple");
    }
    let precision = 100.0 * s.overlap / s.system;
    if s.correct == 0.0 {
        return Err("no gold triple");
    }
    let recall = 100.0 * s.overlap / s.correct;
    if precision + recall == 0.0 {
        return Err("no shared triple");
    }
    Ok([
        precision,
        recall,
        (2.0 * precision * recall) / (precision + recall),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perl_prints_numbers_with_15_significant_digits() {
        // checked with perl 5.36: print 0.1+0.2, 1/3*100, 1e-5/3, 1e16, 280.0
        for (x, want) in [
            (0.1 + 0.2, "0.3"),
            (1.0 / 3.0 * 100.0, "33.3333333333333"),
            (1e-5 / 3.0, "3.33333333333333e-06"),
            (1e16, "1e+16"),
            (280.0, "280"),
            (-4.0, "-4"),
            (213.095238095238, "213.095238095238"),
            (0.0001, "0.0001"),
        ] {
            assert_eq!(perl_number(x), want, "{x}");
        }
    }
}
