//! The CoNLL 2018 shared-task metrics (conll18_ud_eval.py v1.2, udeval): tokens,
//! sentences and words by character spans, tags, lemmas and attachment over the word
//! alignment, with multiword tokens aligned by LCS of lower-cased forms.
//!
//! Definitions, as the reference scorer's:
//! - the text of a file is the concatenation of its token FORMs (multiword tokens count
//!   once) with every Unicode Zs character removed; gold and system texts must be equal;
//! - tokens and sentences are character spans; a span is correct when both ends match;
//! - words outside multiword tokens align when their spans are equal; inside a
//!   "multiword span" (the smallest span that contains whole multiword tokens of both
//!   files) they align by the longest common subsequence of lower-cased FORMs;
//! - UFeats keeps only the universal features, DEPREL only its universal part;
//! - CLAS, MLAS and BLEX count content relations only; MLAS also compares UPOS, UFeats
//!   and the functional children; BLEX the lemma; a gold lemma `_` matches any lemma.

use serde::Serialize;
use treeval_formats::{Diagnostic, ErrorKind, Position, Reader, Sentence};
use unicode_general_category::{get_general_category, GeneralCategory};

/// Relations counted by CLAS, MLAS and BLEX.
pub const CONTENT_DEPRELS: [&str; 29] = [
    "nsubj",
    "obj",
    "iobj",
    "csubj",
    "ccomp",
    "xcomp",
    "obl",
    "vocative",
    "expl",
    "dislocated",
    "advcl",
    "advmod",
    "discourse",
    "nmod",
    "appos",
    "nummod",
    "acl",
    "amod",
    "conj",
    "fixed",
    "flat",
    "compound",
    "list",
    "parataxis",
    "orphan",
    "goeswith",
    "reparandum",
    "root",
    "dep",
];

/// Relations whose dependents are the functional children of MLAS.
pub const FUNCTIONAL_DEPRELS: [&str; 7] = ["aux", "cop", "mark", "det", "clf", "case", "cc"];

/// The universal features kept by UFeats.
pub const UNIVERSAL_FEATURES: [&str; 21] = [
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender", "Animacy", "Number",
    "Case", "Definite", "Degree", "VerbForm", "Mood", "Tense", "Aspect", "Voice", "Evident",
    "Polarity", "Person", "Polite",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    start: u32,
    end: u32,
}

#[derive(Debug, Clone)]
struct UdWord {
    span: Span,
    multiword: bool,
    form_lower: String,
    lemma: String,
    upos: String,
    xpos: String,
    ufeats: String,
    deprel: String,
    parent: Option<u32>,
    content: bool,
    functional: bool,
    children: Vec<u32>,
}

/// One file as the scorer sees it.
#[derive(Debug, Clone, Default)]
pub struct UdFile {
    /// Path as given.
    pub path: String,
    text: Vec<char>,
    tokens: Vec<Span>,
    token_lines: Vec<u64>,
    sentences: Vec<Span>,
    words: Vec<UdWord>,
}

fn universal_feats(feats: &str) -> String {
    let mut v: Vec<&str> = feats
        .split('|')
        .filter(|f| UNIVERSAL_FEATURES.contains(&f.split('=').next().unwrap_or("")))
        .collect();
    v.sort_unstable();
    v.join("|")
}

fn strip_zs(form: &str) -> impl Iterator<Item = char> + '_ {
    form.chars()
        .filter(|&c| get_general_category(c) != GeneralCategory::SpaceSeparator)
}

impl UdFile {
    /// Read a whole file. Problems that the reference scorer stops on (HEAD outside the
    /// sentence, cycles, no root, several roots unless `multiple_roots_okay`, empty
    /// FORMs) are all collected and returned together.
    pub fn read<R: std::io::BufRead>(
        rdr: &mut Reader<R>,
        multiple_roots_okay: bool,
    ) -> Result<UdFile, Vec<Diagnostic>> {
        let mut f = UdFile {
            path: rdr.path().to_string(),
            ..UdFile::default()
        };
        let mut errors = Vec::new();
        let mut s = Sentence::new();
        loop {
            match rdr.read_sentence(&mut s) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    errors.extend(e.diagnostics);
                    return Err(errors);
                }
            }
            f.add_sentence(&s, multiple_roots_okay, &mut errors);
        }
        let d = rdr.take_diagnostics();
        errors.extend(d.iter().filter(|x| x.is_error()).cloned());
        if errors.is_empty() {
            Ok(f)
        } else {
            Err(errors)
        }
    }

    fn add_sentence(
        &mut self,
        s: &Sentence,
        multiple_roots_okay: bool,
        errors: &mut Vec<Diagnostic>,
    ) {
        let path: std::sync::Arc<str> = std::sync::Arc::from(self.path.as_str());
        let pos =
            |line: u64| Position::new(path.clone(), line, 1).in_sentence(s.index(), s.sent_id());
        let sent_start = self.text.len() as u32;
        let first_word = self.words.len() as u32;
        let words = s.words();
        let mut i = 0usize;
        let mut mwts = s.multiword_tokens().iter().peekable();
        while i < words.len() {
            let id = i as u32 + 1;
            let mwt = mwts.peek().filter(|t| t.first == id).copied();
            let (form, line, count, multi) = match mwt {
                Some(t) => {
                    mwts.next();
                    (s.mwt_form(t), t.line, (t.last - t.first + 1) as usize, true)
                }
                None => (s.form(&words[i]), words[i].line, 1, false),
            };
            let start = self.text.len() as u32;
            self.text.extend(strip_zs(form));
            let end = self.text.len() as u32;
            if start == end {
                errors.push(Diagnostic::error(pos(line), ErrorKind::EmptyField { column: "FORM" }).with_hint(
                    "after removing space characters (Unicode Zs) the FORM is empty, which the CoNLL 2018 scorer rejects",
                ));
            }
            let span = Span { start, end };
            self.tokens.push(span);
            self.token_lines.push(line);
            for w in &words[i..(i + count).min(words.len())] {
                let deprel = s.deprel(w).split(':').next().unwrap_or("").to_owned();
                self.words.push(UdWord {
                    span,
                    multiword: multi,
                    form_lower: s.form(w).to_lowercase(),
                    lemma: s.lemma(w).to_owned(),
                    upos: s.upos(w).to_owned(),
                    xpos: s.xpos(w).to_owned(),
                    ufeats: universal_feats(s.feats(w)),
                    content: CONTENT_DEPRELS.contains(&deprel.as_str()),
                    functional: FUNCTIONAL_DEPRELS.contains(&deprel.as_str()),
                    deprel,
                    parent: None,
                    children: Vec::new(),
                });
            }
            i += count;
        }
        self.sentences.push(Span {
            start: sent_start,
            end: self.text.len() as u32,
        });
        // heads, roots, cycles
        let n = words.len();
        let mut roots = 0;
        let mut bad = false;
        for (k, w) in words.iter().enumerate() {
            match w.head().index() {
                None => {
                    errors.push(Diagnostic::error(
                        Position::new(path.clone(), w.line, s.head_column(w))
                            .in_sentence(s.index(), s.sent_id()),
                        ErrorKind::MissingHead,
                    ));
                    bad = true;
                }
                Some(0) => roots += 1,
                Some(h) if h as usize > n => {
                    errors.push(Diagnostic::error(
                        Position::new(path.clone(), w.line, s.head_column(w))
                            .in_sentence(s.index(), s.sent_id()),
                        ErrorKind::HeadOutOfRange {
                            head: u64::from(h),
                            words: n,
                        },
                    ));
                    bad = true;
                }
                Some(h) => self.words[first_word as usize + k].parent = Some(first_word + h - 1),
            }
        }
        if !bad {
            let mut tree = crate::tree::Tree::new();
            let p = tree.analyze(words.iter().map(|w| w.head().index()));
            if p.cycles > 0 || p.self_loops > 0 {
                let w = &words[(p.first_cycle_word.max(1) - 1) as usize];
                errors.push(Diagnostic::error(
                    pos(w.line),
                    ErrorKind::Cycle {
                        words: format!("{}", w.id),
                    },
                ));
            }
        }
        if roots == 0 && !bad {
            errors.push(Diagnostic::error(
                pos(s.first_line()),
                ErrorKind::RootCount { found: 0 },
            ));
        }
        if roots > 1 && !multiple_roots_okay {
            errors.push(
                Diagnostic::error(pos(s.first_line()), ErrorKind::RootCount { found: roots })
                    .with_hint("--multiple-roots-okay accepts several roots, as udeval's option"),
            );
        }
        for k in first_word..self.words.len() as u32 {
            let w = &self.words[k as usize];
            if let (Some(p), true) = (w.parent, w.functional) {
                self.words[p as usize].children.push(k);
            }
        }
    }
}

/// One metric's counts and scores, as the reference reports them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct UdScore {
    /// Correct items.
    pub correct: u64,
    /// Gold items.
    pub gold: u64,
    /// System items.
    pub system: u64,
    /// Aligned words considered (metrics on aligned words only).
    pub aligned: Option<u64>,
    /// correct / system (0 when system is 0, as the reference).
    pub precision: f64,
    /// correct / gold (0 when gold is 0).
    pub recall: f64,
    /// 2·correct / (gold + system).
    pub f1: f64,
    /// correct / aligned.
    pub aligned_accuracy: Option<f64>,
}

impl UdScore {
    fn new(gold: u64, system: u64, correct: u64, aligned: Option<u64>) -> Self {
        let div = |n: u64, d: u64| if d > 0 { n as f64 / d as f64 } else { 0.0 };
        UdScore {
            correct,
            gold,
            system,
            aligned,
            precision: div(correct, system),
            recall: div(correct, gold),
            f1: div(2 * correct, gold + system),
            aligned_accuracy: match aligned {
                Some(a) if a > 0 => Some(correct as f64 / a as f64),
                Some(_) => Some(0.0),
                None => None,
            },
        }
    }
}

/// The 13 metrics of conll18_ud_eval.py, in its order.
pub const METRICS: [&str; 13] = [
    "Tokens",
    "Sentences",
    "Words",
    "UPOS",
    "XPOS",
    "UFeats",
    "AllTags",
    "Lemmas",
    "UAS",
    "LAS",
    "CLAS",
    "MLAS",
    "BLEX",
];

/// Where the two texts first differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextMismatch {
    /// Character index.
    pub index: usize,
    /// Gold line of the token containing it (or the last token).
    pub gold_line: u64,
    /// System line likewise.
    pub system_line: u64,
    /// Up to 20 characters of gold from there.
    pub gold_text: String,
    /// Up to 20 characters of the system from there.
    pub system_text: String,
}

fn line_at(f: &UdFile, index: usize) -> u64 {
    let k = f.tokens.partition_point(|t| (t.end as usize) <= index);
    f.token_lines
        .get(k.min(f.token_lines.len().saturating_sub(1)))
        .copied()
        .unwrap_or(0)
}

/// A comparison of an aligned gold and system word.
type WordEq<'a> = dyn Fn(&UdWord, &UdWord) -> bool + 'a;

const NOT_ALIGNED: u32 = u32::MAX - 1;
const ROOT: u32 = u32::MAX;

/// Score `sys` against `gold`: the 13 metrics in [`METRICS`] order.
pub fn evaluate(gold: &UdFile, sys: &UdFile) -> Result<Vec<(&'static str, UdScore)>, TextMismatch> {
    if gold.text != sys.text {
        let index = gold
            .text
            .iter()
            .zip(&sys.text)
            .take_while(|(a, b)| a == b)
            .count();
        let take = |f: &UdFile| {
            f.text[index.min(f.text.len())..(index + 20).min(f.text.len())]
                .iter()
                .collect()
        };
        return Err(TextMismatch {
            index,
            gold_line: line_at(gold, index),
            system_line: line_at(sys, index),
            gold_text: take(gold),
            system_text: take(sys),
        });
    }
    let matched = align_words(&gold.words, &sys.words);
    // system word -> gold word
    let mut map = vec![NOT_ALIGNED; sys.words.len()];
    for &(g, s) in &matched {
        map[s as usize] = g;
    }
    let ga_sys = |p: Option<u32>| p.map_or(ROOT, |p| map[p as usize]);
    let ga_gold = |p: Option<u32>| p.unwrap_or(ROOT);

    let spans = |g: &[Span], s: &[Span]| {
        let (mut correct, mut gi, mut si) = (0u64, 0, 0);
        while gi < g.len() && si < s.len() {
            if s[si].start < g[gi].start {
                si += 1;
            } else if g[gi].start < s[si].start {
                gi += 1;
            } else {
                correct += u64::from(g[gi].end == s[si].end);
                gi += 1;
                si += 1;
            }
        }
        UdScore::new(g.len() as u64, s.len() as u64, correct, None)
    };
    let gw = &gold.words;
    let sw = &sys.words;
    let count = |filter: &dyn Fn(&UdWord) -> bool, eq: Option<&WordEq>| {
        let gold_n = gw.iter().filter(|w| filter(w)).count() as u64;
        let sys_n = sw.iter().filter(|w| filter(w)).count() as u64;
        let aligned = matched
            .iter()
            .filter(|(g, _)| filter(&gw[*g as usize]))
            .count() as u64;
        match eq {
            None => UdScore::new(gold_n, sys_n, aligned, None),
            Some(eq) => {
                let correct = matched
                    .iter()
                    .filter(|(g, s)| {
                        let (g, s) = (&gw[*g as usize], &sw[*s as usize]);
                        filter(g) && eq(g, s)
                    })
                    .count() as u64;
                UdScore::new(gold_n, sys_n, correct, Some(aligned))
            }
        }
    };
    let all = |_: &UdWord| true;
    let content = |w: &UdWord| w.content;
    let head = |g: &UdWord, s: &UdWord| ga_gold(g.parent) == ga_sys(s.parent);
    let lemma = |g: &UdWord, s: &UdWord| g.lemma == "_" || g.lemma == s.lemma;
    let las = |g: &UdWord, s: &UdWord| head(g, s) && g.deprel == s.deprel;
    let children = |g: &UdWord, s: &UdWord| {
        g.children.len() == s.children.len()
            && g.children.iter().zip(&s.children).all(|(&gc, &sc)| {
                let (a, b) = (&gw[gc as usize], &sw[sc as usize]);
                gc == map[sc as usize]
                    && a.deprel == b.deprel
                    && a.upos == b.upos
                    && a.ufeats == b.ufeats
            })
    };
    Ok(vec![
        ("Tokens", spans(&gold.tokens, &sys.tokens)),
        ("Sentences", spans(&gold.sentences, &sys.sentences)),
        ("Words", count(&all, None)),
        (
            "UPOS",
            count(&all, Some(&|g: &UdWord, s: &UdWord| g.upos == s.upos)),
        ),
        (
            "XPOS",
            count(&all, Some(&|g: &UdWord, s: &UdWord| g.xpos == s.xpos)),
        ),
        (
            "UFeats",
            count(&all, Some(&|g: &UdWord, s: &UdWord| g.ufeats == s.ufeats)),
        ),
        (
            "AllTags",
            count(
                &all,
                Some(&|g: &UdWord, s: &UdWord| {
                    g.upos == s.upos && g.xpos == s.xpos && g.ufeats == s.ufeats
                }),
            ),
        ),
        ("Lemmas", count(&all, Some(&lemma))),
        ("UAS", count(&all, Some(&head))),
        ("LAS", count(&all, Some(&las))),
        ("CLAS", count(&content, Some(&las))),
        (
            "MLAS",
            count(
                &content,
                Some(&|g: &UdWord, s: &UdWord| {
                    las(g, s) && g.upos == s.upos && g.ufeats == s.ufeats && children(g, s)
                }),
            ),
        ),
        (
            "BLEX",
            count(
                &content,
                Some(&|g: &UdWord, s: &UdWord| las(g, s) && lemma(g, s)),
            ),
        ),
    ])
}

fn beyond_end(words: &[UdWord], i: usize, end: u32) -> bool {
    match words.get(i) {
        None => true,
        Some(w) if w.multiword => w.span.start >= end,
        Some(w) => w.span.end > end,
    }
}

fn extend_end(w: &UdWord, end: u32) -> u32 {
    if w.multiword && w.span.end > end {
        w.span.end
    } else {
        end
    }
}

/// The word alignment: pairs (gold index, system index), in order.
fn align_words(g: &[UdWord], s: &[UdWord]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let (mut gi, mut si) = (0usize, 0usize);
    while gi < g.len() && si < s.len() {
        if g[gi].multiword || s[si].multiword {
            // the multiword span: its start …
            let mut end;
            if g[gi].multiword {
                end = g[gi].span.end;
                if !s[si].multiword && s[si].span.start < g[gi].span.start {
                    si += 1;
                }
            } else {
                end = s[si].span.end;
                if !g[gi].multiword && g[gi].span.start < s[si].span.start {
                    gi += 1;
                }
            }
            let (gs, ss) = (gi, si);
            // … and its end
            while !beyond_end(g, gi, end) || !beyond_end(s, si, end) {
                if gi < g.len() && (si >= s.len() || g[gi].span.start <= s[si].span.start) {
                    end = extend_end(&g[gi], end);
                    gi += 1;
                } else {
                    end = extend_end(&s[si], end);
                    si += 1;
                }
            }
            if gi > gs && si > ss {
                // LCS of lower-cased forms, filled from the end
                let (n, m) = (gi - gs, si - ss);
                let mut lcs = vec![0u32; (n + 1) * (m + 1)];
                let at = |a: usize, b: usize| a * (m + 1) + b;
                for a in (0..n).rev() {
                    for b in (0..m).rev() {
                        let mut v = if g[gs + a].form_lower == s[ss + b].form_lower {
                            1 + lcs[at(a + 1, b + 1)]
                        } else {
                            0
                        };
                        v = v.max(lcs[at(a + 1, b)]).max(lcs[at(a, b + 1)]);
                        lcs[at(a, b)] = v;
                    }
                }
                let (mut a, mut b) = (0, 0);
                while a < n && b < m {
                    if g[gs + a].form_lower == s[ss + b].form_lower {
                        out.push(((gs + a) as u32, (ss + b) as u32));
                        a += 1;
                        b += 1;
                    } else if lcs[at(a, b)] == lcs[at(a + 1, b)] {
                        a += 1;
                    } else {
                        b += 1;
                    }
                }
            }
        } else if g[gi].span == s[si].span {
            out.push((gi as u32, si as u32));
            gi += 1;
            si += 1;
        } else if g[gi].span.start <= s[si].span.start {
            gi += 1;
        } else {
            si += 1;
        }
    }
    out
}

/// `conll18_ud_eval.py -v` (`counts = false`) or `-c` (`counts = true`), byte for byte.
pub fn conll18_table(scores: &[(&str, UdScore)], counts: bool) -> String {
    let mut o = String::new();
    if counts {
        o.push_str("Metric     | Correct   |      Gold | Predicted | Aligned\n");
    } else {
        o.push_str("Metric     | Precision |    Recall |  F1 Score | AligndAcc\n");
    }
    o.push_str("-----------+-----------+-----------+-----------+-----------\n");
    for (name, s) in scores {
        if counts {
            // the reference prints `aligned or (correct if Words else "")`
            let aligned = match (s.aligned, *name) {
                (Some(a), _) if a > 0 => a.to_string(),
                (_, "Words") => s.correct.to_string(),
                _ => String::new(),
            };
            o.push_str(&format!(
                "{:11}|{:10} |{:10} |{:10} |{:>10}\n",
                name, s.correct, s.gold, s.system, aligned
            ));
        } else {
            let acc = s
                .aligned_accuracy
                .map(|a| format!("{:10.2}", 100.0 * a))
                .unwrap_or_default();
            o.push_str(&format!(
                "{:11}|{:10.2} |{:10.2} |{:10.2} |{}\n",
                name,
                100.0 * s.precision,
                100.0 * s.recall,
                100.0 * s.f1,
                acc
            ));
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use treeval_formats::ReaderBuilder;

    /// The reference's own alignment tests: words written as in its test suite, a
    /// multiword token as "form part part".
    fn file(words: &[&str]) -> UdFile {
        let mut lines = Vec::new();
        let mut n = 0;
        for w in words {
            let parts: Vec<&str> = w.split(' ').collect();
            if parts.len() == 1 {
                n += 1;
                lines.push(format!(
                    "{n}\t{}\t_\t_\t_\t_\t{}\t_\t_\t_",
                    parts[0],
                    u32::from(n > 1)
                ));
            } else {
                lines.push(format!(
                    "{}-{}\t{}\t_\t_\t_\t_\t_\t_\t_\t_",
                    n + 1,
                    n + parts.len() - 1,
                    parts[0]
                ));
                for p in &parts[1..] {
                    n += 1;
                    lines.push(format!(
                        "{n}\t{p}\t_\t_\t_\t_\t{}\t_\t_\t_",
                        u32::from(n > 1)
                    ));
                }
            }
        }
        let text = lines.join("\n") + "\n\n";
        let mut r = ReaderBuilder::new().from_reader("t.conllu", text.as_bytes());
        UdFile::read(&mut r, false).unwrap()
    }

    fn words_correct(g: &[&str], s: &[&str]) -> u64 {
        evaluate(&file(g), &file(s)).unwrap()[2].1.correct
    }

    #[test]
    fn reference_alignment_cases() {
        assert_eq!(words_correct(&["a"], &["a"]), 1);
        assert_eq!(words_correct(&["a", "b", "c"], &["a", "b", "c"]), 3);
        assert_eq!(words_correct(&["abc a b c"], &["a", "b", "c"]), 3);
        assert_eq!(
            words_correct(&["a", "bc b c", "d"], &["a", "b", "c", "d"]),
            4
        );
        assert_eq!(words_correct(&["abcd a b c d"], &["ab a b", "cd c d"]), 4);
        assert_eq!(
            words_correct(&["abc a b c", "de d e"], &["a", "bcd b c d", "e"]),
            5
        );
        assert_eq!(words_correct(&["abcd"], &["a", "b", "c", "d"]), 0);
        assert_eq!(words_correct(&["abc", "d"], &["a", "b", "c", "d"]), 1);
        assert_eq!(words_correct(&["a", "bc", "d"], &["a", "b", "c", "d"]), 2);
        assert_eq!(words_correct(&["a", "bc b c", "d"], &["a", "b", "cd"]), 2);
        assert_eq!(
            words_correct(
                &["abc a BX c", "def d EX f"],
                &["ab a b", "cd c d", "ef e f"]
            ),
            4
        );
        assert_eq!(words_correct(&["ab a b", "cd bc d"], &["a", "bc", "d"]), 2);
        assert_eq!(
            words_correct(&["a", "bc b c", "d"], &["ab AX BX", "cd CX a"]),
            1
        );
        assert!(evaluate(&file(&["a"]), &file(&["b"])).is_err());
    }

    #[test]
    fn universal_features_sorted() {
        assert_eq!(
            universal_feats("Tense=Past|Foo=Bar|Case=Nom"),
            "Case=Nom|Tense=Past"
        );
        assert_eq!(universal_feats("_"), "");
    }
}
