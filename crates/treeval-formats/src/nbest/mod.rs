//! n-best lists in CoNLL-U: each gold sentence's candidate parses, one complete sentence
//! block each, rank 1 first, with `# rank = K` and `# parser_score = X` comments.
//!
//! ```text
//! # sent_id = s1          (the gold sent_id, repeated by every candidate)
//! # rank = 1              (1-based, consecutive within a sentence)
//! # parser_score = -1.13  (the candidate's weight; higher = better)
//! 1<TAB>Hi<TAB>hi<TAB>INTJ<TAB>…
//! ```
//!
//! [`NbestReader`] groups consecutive blocks into one sentence's candidates: a new
//! sentence starts where the `sent_id` changes or at `# rank = 1`. [`NbestPairing`] pairs
//! each group with the next gold sentence (same words, in gold order). Every problem is
//! an error at `path:line:column`: ranks that do not run 1, 2, 3, …; a missing or
//! unreadable `# rank` or `# parser_score`; a candidate whose words are not gold's; a
//! sentence out of gold's order; more or fewer sentences than gold.

pub mod alpino;

use std::io::BufRead;
use std::sync::Arc;

use crate::conll::Reader;
use crate::error::{Diagnostic, Diagnostics, Error, ErrorKind, Position};
use crate::sentence::Sentence;

/// One candidate parse of a sentence.
#[derive(Debug, Clone, Default)]
pub struct Candidate {
    /// Its `# rank` (1-based).
    pub rank: u32,
    /// Its `# parser_score`.
    pub parser_score: f64,
    /// The parse.
    pub sentence: Sentence,
}

/// A `# key = value` comment of `s`: the value, its line and column (1-based, in
/// characters, of the value's first character).
fn comment_value<'a>(s: &'a Sentence, key: &str) -> Option<(&'a str, u64, u32)> {
    s.comments().enumerate().find_map(|(i, c)| {
        let (k, v) = c.split_once('=')?;
        if k.trim() != key {
            return None;
        }
        let value = v.trim();
        let start = c.len() - v.trim_start().len();
        let column = 2 + c[..start].chars().count() as u32;
        Some((value, s.first_line() + i as u64, column))
    })
}

/// An error at `line:column` of `path`, in sentence `s`.
fn error_at(path: &Arc<str>, s: &Sentence, line: u64, column: u32, msg: String) -> Diagnostic {
    Diagnostic::error(
        Position::new(path.clone(), line, column).in_sentence(s.index(), s.sent_id()),
        ErrorKind::Other(msg),
    )
}

/// The rank and parser score of a candidate block.
fn metadata(path: &Arc<str>, s: &Sentence) -> Result<(u32, f64), Error> {
    let missing = |what: &str, example: &str| {
        Error::single(
            error_at(path, s, s.first_line(), 1, format!(
                "expected a '# {what} = …' comment in every candidate block, found none"
            ))
            .with_hint(format!(
                "an n-best file gives each candidate '# rank = K' (1, 2, … within a sentence) and '# parser_score = X' (the parser's score, higher = better), e.g. '# {what} = {example}'"
            )),
        )
    };
    let (r, line, col) = comment_value(s, "rank").ok_or_else(|| missing("rank", "1"))?;
    let rank = match r.parse::<u32>() {
        Ok(k) if k >= 1 => k,
        _ => {
            return Err(Error::single(error_at(
                path,
                s,
                line,
                col,
                format!(
                    "expected '# rank' to be a whole number of at least 1, found '{}'",
                    crate::excerpt(r)
                ),
            )))
        }
    };
    let (x, line, col) =
        comment_value(s, "parser_score").ok_or_else(|| missing("parser_score", "-1.25"))?;
    match x.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok((rank, v)),
        _ => Err(Error::single(error_at(
            path,
            s,
            line,
            col,
            format!(
                "expected '# parser_score' to be a finite number, found '{}'",
                crate::excerpt(x)
            ),
        ))),
    }
}

/// Groups the candidate blocks of a CoNLL-U reader into sentences (streaming: one
/// sentence's candidates in memory at a time).
#[derive(Debug)]
pub struct NbestReader<R> {
    rdr: Reader<R>,
    /// A block read but not yet given out (the first of the next sentence).
    next: Option<Sentence>,
    groups: u64,
}

impl<R: BufRead> NbestReader<R> {
    /// Group the blocks of `rdr`.
    pub fn new(rdr: Reader<R>) -> Self {
        NbestReader {
            rdr,
            next: None,
            groups: 0,
        }
    }

    /// The path shown in positions.
    pub fn path(&self) -> &Arc<str> {
        self.rdr.path()
    }

    /// Warnings of the underlying reader (errors are returned as they are found).
    pub fn diagnostics(&self) -> &Diagnostics {
        self.rdr.diagnostics()
    }

    /// Sentences (groups of candidates) read so far.
    pub fn sentences_read(&self) -> u64 {
        self.groups
    }

    /// The next block, or `None` at the end; the reader's errors end the reading.
    fn block(&mut self) -> Result<Option<Sentence>, Error> {
        if let Some(s) = self.next.take() {
            return Ok(Some(s));
        }
        let mut s = Sentence::new();
        let more = self.rdr.read_sentence(&mut s)?;
        if self.rdr.diagnostics().error_count() > 0 {
            let d = self.rdr.take_diagnostics();
            d.into_result()?;
        }
        Ok(more.then_some(s))
    }

    /// Read the next sentence's candidates into `out` (cleared first). `Ok(false)` at the
    /// end of the input.
    pub fn read_group(&mut self, out: &mut Vec<Candidate>) -> Result<bool, Error> {
        out.clear();
        while let Some(s) = self.block()? {
            let (rank, parser_score) = metadata(self.rdr.path(), &s)?;
            if let Some(last) = out.last() {
                if rank == 1 || s.sent_id() != last.sentence.sent_id() {
                    self.next = Some(s);
                    break;
                }
                if rank != last.rank + 1 {
                    return Err(self.rank_error(&s, last.rank + 1, rank));
                }
            } else if rank != 1 {
                return Err(self.rank_error(&s, 1, rank));
            }
            out.push(Candidate {
                rank,
                parser_score,
                sentence: s,
            });
        }
        self.groups += u64::from(!out.is_empty());
        Ok(!out.is_empty())
    }

    fn rank_error(&self, s: &Sentence, expected: u32, found: u32) -> Error {
        let (_, line, col) = comment_value(s, "rank").unwrap_or(("", s.first_line(), 1));
        let what = if expected == 1 {
            "the first candidate of a sentence (a new sent_id)".to_string()
        } else {
            format!("the candidate after rank {}", expected - 1)
        };
        Error::single(
            error_at(
                self.rdr.path(),
                s,
                line,
                col,
                format!("expected '# rank = {expected}' ({what}), found '# rank = {found}'"),
            )
            .with_hint(
                "the candidates of a sentence follow each other with ranks 1, 2, 3, …; a sentence starts where the sent_id changes or at rank 1",
            ),
        )
    }
}

/// Pairs each sentence of an n-best file with the next gold sentence.
#[derive(Debug)]
pub struct NbestPairing<G, S> {
    gold: Reader<G>,
    nbest: NbestReader<S>,
    /// The current gold sentence.
    pub gold_sentence: Sentence,
    /// Its candidates, rank 1 first.
    pub candidates: Vec<Candidate>,
}

impl<G: BufRead, S: BufRead> NbestPairing<G, S> {
    /// Pair `gold` with the candidate groups of `nbest`.
    pub fn new(gold: Reader<G>, nbest: NbestReader<S>) -> Self {
        NbestPairing {
            gold,
            nbest,
            gold_sentence: Sentence::new(),
            candidates: Vec::new(),
        }
    }

    /// The gold path.
    pub fn gold_path(&self) -> &Arc<str> {
        self.gold.path()
    }

    /// The n-best path.
    pub fn nbest_path(&self) -> &Arc<str> {
        self.nbest.path()
    }

    /// Warnings of both readers.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.gold
            .diagnostics()
            .warnings()
            .chain(self.nbest.diagnostics().warnings())
    }

    /// The next gold sentence and its candidates; `Ok(false)` when both files end
    /// together. Every candidate has gold's words (FORMs), checked here.
    pub fn next_sentence(&mut self) -> Result<bool, Error> {
        let more_gold = self.gold.read_sentence(&mut self.gold_sentence)?;
        if self.gold.diagnostics().error_count() > 0 {
            self.gold.take_diagnostics().into_result()?;
        }
        let more_nbest = self.nbest.read_group(&mut self.candidates)?;
        match (more_gold, more_nbest) {
            (false, false) => Ok(false),
            (true, true) => {
                self.check_order()?;
                for k in 0..self.candidates.len() {
                    self.check_words(k)?;
                }
                Ok(true)
            }
            (g, _) => Err(self.count_error(g)),
        }
    }

    /// The files do not end together: the n-best file ends first (`more_gold`: the gold's
    /// other sentences are counted, so that the message gives both counts and blames the
    /// n-best file), or it goes on after the gold's last sentence.
    fn count_error(&mut self, more_gold: bool) -> Error {
        let nbest = self.nbest.sentences_read();
        if more_gold {
            while let Ok(true) = self.gold.read_sentence(&mut self.gold_sentence) {}
            let gold = self.gold.sentences_read();
            return Error::single(
                Diagnostic::error(
                    Position::new(self.nbest.path().clone(), 0, 1),
                    ErrorKind::Other(format!(
                        "expected the candidates of {gold} sentence(s), one group per sentence of {} in order, found {nbest}: the n-best file ends before the gold",
                        self.gold.path(),
                    )),
                )
                .with_hint("the n-best file looks truncated or made for part of the gold: give the whole list (or the gold file of just its sentences)"),
            );
        }
        let gold = self.gold.sentences_read();
        let line = self.candidates[0].sentence.first_line();
        Error::single(
            Diagnostic::error(
                Position::new(self.nbest.path().clone(), line, 1),
                ErrorKind::Other(format!(
                    "expected the candidates of {gold} sentence(s), one group per sentence of {} in order; found a sentence after the last gold one (group {nbest})",
                    self.gold.path(),
                )),
            )
            .with_hint("the gold file ends first: give the gold file the n-best lists were made from, whole"),
        )
    }

    /// The group's sent_id is gold's (when both have one).
    fn check_order(&self) -> Result<(), Error> {
        let s = &self.candidates[0].sentence;
        match (self.gold_sentence.sent_id(), s.sent_id()) {
            (Some(g), Some(n)) if g != n => {
                let (_, line, col) = comment_value(s, "sent_id").unwrap_or(("", s.first_line(), 1));
                Err(Error::single(
                    error_at(
                        self.nbest.path(),
                        s,
                        line,
                        col,
                        format!(
                            "expected sent_id '{}' (the next gold sentence, {}:{}), found '{}'",
                            crate::excerpt(g),
                            crate::path_excerpt(self.gold.path()),
                            self.gold_sentence.first_line(),
                            crate::excerpt(n)
                        ),
                    )
                    .with_hint(
                        "the n-best file lists each gold sentence's candidates in gold's order, every sentence once",
                    ),
                ))
            }
            _ => Ok(()),
        }
    }

    /// Candidate `k` has gold's words.
    fn check_words(&self, k: usize) -> Result<(), Error> {
        let (g, c) = (&self.gold_sentence, &self.candidates[k].sentence);
        let gold_at = format!("{}:{}", self.gold.path(), g.first_line());
        if g.len() != c.len() {
            let line = c.words().first().map_or(c.first_line(), |w| w.line);
            return Err(Error::single(
                Diagnostic::error(
                    Position::new(self.nbest.path().clone(), line, 1)
                        .in_sentence(c.index(), c.sent_id()),
                    ErrorKind::WordCount {
                        gold: gold_at,
                        expected: g.len(),
                        found: c.len(),
                    },
                )
                .with_hint(format!(
                    "every candidate (here rank {}) must have the gold sentence's words",
                    self.candidates[k].rank
                )),
            ));
        }
        for (gw, cw) in g.words().iter().zip(c.words()) {
            if g.form(gw) != c.form(cw) {
                return Err(Error::single(
                    Diagnostic::error(
                        Position::new(self.nbest.path().clone(), cw.line, c.form_column(cw))
                            .in_sentence(c.index(), c.sent_id()),
                        ErrorKind::FormMismatch {
                            gold: format!("{}:{}", self.gold.path(), gw.line),
                            expected: g.form(gw).to_owned(),
                            found: c.form(cw).to_owned(),
                        },
                    )
                    .with_hint(format!(
                        "every candidate (here rank {}) must have the gold sentence's words",
                        self.candidates[k].rank
                    )),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ReaderBuilder;

    fn block(id: &str, rank: &str, score: &str, words: &[(&str, u32)]) -> String {
        let mut s = format!("# sent_id = {id}\n# rank = {rank}\n# parser_score = {score}\n");
        for (i, (f, h)) in words.iter().enumerate() {
            s.push_str(&format!("{}\t{f}\t_\tX\t_\t_\t{h}\tdep\t_\t_\n", i + 1));
        }
        s.push('\n');
        s
    }

    fn groups(text: &str) -> Result<Vec<Vec<(u32, f64)>>, Error> {
        let mut r = NbestReader::new(ReaderBuilder::new().from_reader("n.conllu", text.as_bytes()));
        let mut out = Vec::new();
        let mut all = Vec::new();
        while r.read_group(&mut out)? {
            all.push(out.iter().map(|c| (c.rank, c.parser_score)).collect());
        }
        Ok(all)
    }

    const W: &[(&str, u32)] = &[("a", 0), ("b", 1)];

    #[test]
    fn groups_by_sent_id_and_rank_one() {
        let text = [
            block("s1", "1", "-0.5", W),
            block("s1", "2", "-1", W),
            block("s2", "1", "0", W),
            // the same sent_id again, rank 1: a new sentence
            block("s2", "1", "-2", W),
        ]
        .concat();
        assert_eq!(
            groups(&text).unwrap(),
            vec![vec![(1, -0.5), (2, -1.0)], vec![(1, 0.0)], vec![(1, -2.0)]]
        );
        assert!(groups("").unwrap().is_empty());
    }

    #[test]
    fn bad_ranks_and_scores_are_positioned_errors() {
        let cases = [
            // a rank is skipped: line 8 is '# rank = 3' of the second block, value at column 10
            (
                [block("s1", "1", "0", W), block("s1", "3", "0", W)].concat(),
                "n.conllu:8:10: expected '# rank = 2' (the candidate after rank 1), found '# rank = 3'",
            ),
            // a new sentence starts at rank 2
            (
                [block("s1", "1", "0", W), block("s2", "2", "0", W)].concat(),
                "n.conllu:8:10: expected '# rank = 1'",
            ),
            (
                block("s1", "x", "0", W),
                "n.conllu:2:10: expected '# rank' to be a whole number of at least 1, found 'x'",
            ),
            (
                block("s1", "0", "0", W),
                "n.conllu:2:10: expected '# rank' to be a whole number of at least 1, found '0'",
            ),
            (
                block("s1", "1", "abc", W),
                "n.conllu:3:18: expected '# parser_score' to be a finite number, found 'abc'",
            ),
            (
                block("s1", "1", "NaN", W),
                "n.conllu:3:18: expected '# parser_score' to be a finite number, found 'NaN'",
            ),
            (
                "# sent_id = s1\n# rank = 1\n1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n\n".to_string(),
                "n.conllu:1:1: expected a '# parser_score = …' comment in every candidate block, found none",
            ),
        ];
        for (text, want) in cases {
            let e = groups(&text).unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}\n--- wanted ---\n{want}");
        }
        // the CoNLL reader's own errors end the reading
        let e = groups("# rank = 1\n# parser_score = 0\n1\ta\t_\tX\t_\t_\tz\troot\t_\t_\n\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("HEAD"), "{e}");
    }

    fn pair(gold: &str, nbest: &str) -> Result<Vec<(usize, usize)>, Error> {
        let g = ReaderBuilder::new().from_reader("g.conllu", gold.as_bytes());
        let n = NbestReader::new(ReaderBuilder::new().from_reader("n.conllu", nbest.as_bytes()));
        let mut p = NbestPairing::new(g, n);
        let mut out = Vec::new();
        while p.next_sentence()? {
            out.push((p.gold_sentence.len(), p.candidates.len()));
        }
        Ok(out)
    }

    fn gold(id: &str, words: &[(&str, u32)]) -> String {
        let b = block(id, "1", "0", words);
        b.lines()
            .filter(|l| !l.starts_with("# rank") && !l.starts_with("# parser"))
            .map(|l| format!("{l}\n"))
            .collect()
    }

    #[test]
    fn pairs_with_gold_and_checks_words_and_order() {
        let g = [gold("s1", W), gold("s2", &[("c", 0)])].concat();
        let n = [
            block("s1", "1", "0", W),
            block("s1", "2", "-1", W),
            block("s2", "1", "0", &[("c", 0)]),
        ]
        .concat();
        assert_eq!(pair(&g, &n).unwrap(), vec![(2, 2), (1, 1)]);
        let cases = [
            // a candidate with another word
            (
                [block("s1", "1", "0", W), block("s1", "2", "0", &[("a", 0), ("x", 1)])].concat(),
                "n.conllu:11:3: expected FORM 'b' (as gold g.conllu:3), found 'x'",
            ),
            (
                [block("s1", "1", "0", &[("a", 0)])].concat(),
                "n.conllu:4:1: expected 2 words (as gold g.conllu:1), found 1",
            ),
            // s2 before s1
            (
                [block("s2", "1", "0", &[("c", 0)]), block("s1", "1", "0", W)].concat(),
                "n.conllu:1:13: expected sent_id 's1' (the next gold sentence, g.conllu:1), found 's2'",
            ),
            // the n-best file ends early
            (
                block("s1", "1", "0", W),
                "n.conllu: expected the candidates of 2 sentence(s)",
            ),
        ];
        for (nbest, want) in cases {
            let e = pair(&g, &nbest).unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}\n--- wanted ---\n{want}");
        }
        let extra = [n.clone(), block("s3", "1", "0", W)].concat();
        let e = pair(&g, &extra).unwrap_err().to_string();
        assert!(e.contains("after the last gold one"), "{e}");
    }
}
