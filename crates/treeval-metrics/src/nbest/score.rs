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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deps::PunctPolicy;
    use treeval_formats::nbest::NbestReader;
    use treeval_formats::ReaderBuilder;

    const GOLD: &str = "1\tA\ta\tDET\t_\t_\t2\tdet\t_\t_\n2\tdog\tdog\tNOUN\t_\t_\t0\troot\t_\t_\n3\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_\n\n";

    fn candidate(rank: u32, rows: [(&str, &str, u32, &str); 3]) -> String {
        let mut s = format!("# rank = {rank}\n# parser_score = -{rank}\n");
        for (i, (form, upos, head, rel)) in rows.iter().enumerate() {
            let lemma = form.to_lowercase();
            s.push_str(&format!(
                "{}\t{form}\t{lemma}\t{upos}\t_\t_\t{head}\t{rel}\t_\t_\n",
                i + 1
            ));
        }
        s.push('\n');
        s
    }

    fn scores(punct: PunctPolicy) -> Vec<CandidateScore> {
        let nbest = [
            // right but for the punctuation's head
            candidate(
                1,
                [
                    ("A", "DET", 2, "det"),
                    ("dog", "NOUN", 0, "root"),
                    (".", "PUNCT", 1, "punct"),
                ],
            ),
            // the determiner's label wrong (det:poss), its UPOS too
            candidate(
                2,
                [
                    ("A", "PRON", 2, "det:poss"),
                    ("dog", "NOUN", 0, "root"),
                    (".", "PUNCT", 2, "punct"),
                ],
            ),
        ]
        .concat();
        let mut g = ReaderBuilder::new().from_reader("g.conllu", GOLD.as_bytes());
        let mut gold = Sentence::new();
        assert!(g.read_sentence(&mut gold).unwrap());
        let mut r =
            NbestReader::new(ReaderBuilder::new().from_reader("n.conllu", nbest.as_bytes()));
        let mut cands = Vec::new();
        assert!(r.read_group(&mut cands).unwrap());
        let opts = DepsOptions {
            punct,
            ..DepsOptions::default()
        };
        let mut s = Scorer::new(&opts);
        let mut out = Vec::new();
        let path: Arc<str> = Arc::from("x");
        s.score(&gold, &path, &cands, &path, &mut out).unwrap();
        // rank 1 right where rank 2 is wrong: the determiner's label (LAS, LA); rank 2
        // right where rank 1 is wrong: the punctuation's head, when it is scored
        let punct_scored = opts.punct == PunctPolicy::Include;
        assert_eq!(s.discordant(0, 1, true, true), (1, u64::from(punct_scored)));
        assert_eq!(
            s.discordant(0, 1, true, false),
            (0, u64::from(punct_scored))
        );
        out
    }

    #[test]
    fn candidates_are_scored_with_the_deps_conventions() {
        let all = scores(PunctPolicy::Include);
        // (words, las, uas, la, cgn) by hand
        let got: Vec<_> = all
            .iter()
            .map(|c| (c.words, c.las, c.uas, c.la, c.cgn))
            .collect();
        assert_eq!(got, [(3, 2, 2, 3, 3), (3, 2, 3, 2, 2)]);
        assert_eq!(
            all[0].triples,
            Triples {
                overlap: 2,
                gold: 3,
                system: 3
            }
        );
        assert_eq!((all[1].rank, all[1].weight, all[1].cgn_total), (2, -2.0, 3));
        // eval.pl's rule: the '.' is not scored (cgn still counts every word)
        let no_punct = scores(PunctPolicy::Form);
        let got: Vec<_> = no_punct
            .iter()
            .map(|c| (c.words, c.las, c.uas, c.la, c.cgn))
            .collect();
        assert_eq!(got, [(2, 2, 2, 2, 3), (2, 1, 2, 1, 2)]);
    }
}
