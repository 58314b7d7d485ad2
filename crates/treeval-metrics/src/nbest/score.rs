//! Per-candidate scoring with the `deps` machinery: the gold sentence is prepared once
//! ([`GoldSentence`]) and every candidate is counted by one [`Observer`], so LAS, UAS and
//! LA follow `deps`' punctuation policy and label mode exactly.

use std::sync::Arc;

use treeval_formats::nbest::Candidate;
use treeval_formats::{Diagnostic, Error, Sentence};

use crate::deps::{
    DepsOptions, GoldSentence, Observer, Validity, DECISION_HEAD, DECISION_LABEL, DECISION_SCORED,
};
use crate::labels::LabelTable;

/// A candidate's (head, deprel, dependent) triples: in both, in gold, in the candidate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Triples {
    /// Triples in gold and in the candidate (|Dt ∩ Ds|, evaluate.pl's overlap).
    pub overlap: u64,
    /// Gold triples (|Dt|, evaluate.pl's correct).
    pub gold: u64,
    /// Candidate triples (|Ds|, evaluate.pl's system).
    pub system: u64,
}

/// One candidate's counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct CandidateScore {
    /// Its rank (1-based).
    pub rank: u32,
    /// Its weight (`# parser_score`, or a model's score): the chosen candidate has the
    /// highest.
    pub weight: f64,
    /// Scored words (under the punctuation policy).
    pub words: u64,
    /// Scored words with gold's head and label.
    pub las: u64,
    /// Scored words with gold's head.
    pub uas: u64,
    /// Scored words with gold's label.
    pub la: u64,
    /// The concept-accuracy triples (with gold tokenization: one per scored word, right
    /// when the word is right for LAS).
    pub triples: Triples,
    /// Words (all of them) whose UPOS and LEMMA both equal gold's (evaluate.pl's cgn).
    pub cgn: u64,
    /// Words (all of them; evaluate.pl's cgn_total).
    pub cgn_total: u64,
}

/// Scores the candidates of one sentence after another.
#[derive(Debug)]
pub struct Scorer {
    opts: DepsOptions,
    gold: GoldSentence,
    observer: Observer,
    labels: LabelTable,
    gold_validity: Validity,
    /// Gold-tree warnings (at most `opts.examples`), gold-tree problems counted.
    warnings: Vec<Diagnostic>,
    gold_warnings: u64,
    /// Per candidate of the last sentence: per word, the `DECISION_*` bits.
    decisions: Vec<Vec<u8>>,
}

impl Scorer {
    /// A scorer with the `deps` conventions of `opts` (its breakdowns are not used).
    pub fn new(opts: &DepsOptions) -> Self {
        let opts = DepsOptions {
            by: Vec::new(),
            confusion: false,
            keep_sentences: false,
            pair_decisions: true,
            count_predicates: false,
            ..opts.clone()
        };
        Scorer {
            observer: Observer::new(&opts),
            opts,
            gold: GoldSentence::new(),
            labels: LabelTable::new(),
            gold_validity: Validity::default(),
            warnings: Vec::new(),
            gold_warnings: 0,
            decisions: Vec::new(),
        }
    }

    /// Score `cands` (each with gold's words) against `gold` into `out` (cleared first).
    /// A gold word without a HEAD is an error.
    pub fn score(
        &mut self,
        gold: &Sentence,
        gold_path: &Arc<str>,
        cands: &[Candidate],
        path: &Arc<str>,
        out: &mut Vec<CandidateScore>,
    ) -> Result<(), Error> {
        out.clear();
        let mut diags = Vec::new();
        self.gold.prepare(
            gold,
            gold_path,
            &self.opts,
            &mut self.labels,
            &mut self.gold_validity,
            &mut diags,
        );
        if diags.iter().any(Diagnostic::is_error) {
            return Err(Error {
                diagnostics: diags.into_iter().filter(Diagnostic::is_error).collect(),
                omitted: 0,
            });
        }
        for d in diags {
            self.gold_warnings += 1;
            if self.warnings.len() < self.opts.examples {
                self.warnings.push(d);
            }
        }
        self.decisions.resize(cands.len(), Vec::new());
        for (k, c) in cands.iter().enumerate() {
            let s = &c.sentence;
            let a = self.observer.observe(
                gold,
                &self.gold,
                gold_path,
                s,
                path,
                &mut self.labels,
                &self.opts,
            );
            self.decisions[k].clone_from(&self.observer.decisions);
            let cgn = gold
                .words()
                .iter()
                .zip(s.words())
                .filter(|(g, w)| gold.upos(g) == s.upos(w) && gold.lemma(g) == s.lemma(w))
                .count() as u64;
            out.push(CandidateScore {
                rank: c.rank,
                weight: c.parser_score,
                words: a.words,
                las: a.las,
                uas: a.uas,
                la: a.la,
                triples: Triples {
                    overlap: a.las,
                    gold: a.words,
                    system: a.words,
                },
                cgn,
                cgn_total: gold.len() as u64,
            });
        }
        Ok(())
    }

    /// Scored words of the last sentence right in candidate `a` only and in candidate `b`
    /// only, for LAS (`head` and `label`), UAS (`head`) or LA (`label`): McNemar's
    /// discordant pairs.
    pub fn discordant(&self, a: usize, b: usize, head: bool, label: bool) -> (u64, u64) {
        let need = DECISION_SCORED
            | if head { DECISION_HEAD } else { 0 }
            | if label { DECISION_LABEL } else { 0 };
        let right = |d: u8| d & need == need;
        let (mut only_a, mut only_b) = (0, 0);
        for (&x, &y) in self.decisions[a].iter().zip(&self.decisions[b]) {
            only_a += u64::from(right(x) && !right(y));
            only_b += u64::from(right(y) && !right(x));
        }
        (only_a, only_b)
    }

    /// The system-tree problems and their examples (malformed candidate trees are scored
    /// word by word, as `deps` does).
    pub fn observer(&self) -> &Observer {
        &self.observer
    }

    /// Gold-tree warnings kept, and how many there were.
    pub fn gold_warnings(&self) -> (&[Diagnostic], u64) {
        (&self.warnings, self.gold_warnings)
    }

    /// The options in force.
    pub fn options(&self) -> &DepsOptions {
        &self.opts
    }
}
