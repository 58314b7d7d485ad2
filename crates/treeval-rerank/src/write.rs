//! A chosen candidate written back as a plain CoNLL-U sentence.
//!
//! Comments are kept except `# rank` and `# parser_score`, which belong to the n-best
//! list; `# rerank_rank = K` (the chosen candidate's rank in the list) and
//! `# rerank_score = X` (its model score) are added after the other comments. Word lines
//! are written exactly as read; multiword-token lines as `FIRST-LAST FORM _ … _ MISC`;
//! empty nodes as `N.K FORM _ _ _ _ _ _ DEPS MISC` (the reader keeps only these columns
//! of them).

use std::io::{self, Write};

use treeval_formats::nbest::Candidate;

/// Write candidate `c`, chosen with model score `score`, as one CoNLL-U sentence.
pub fn write_chosen(out: &mut dyn Write, c: &Candidate, score: f64) -> io::Result<()> {
    let s = &c.sentence;
    for com in s.comments() {
        let key = com.split_once('=').map(|(k, _)| k.trim());
        if matches!(key, Some("rank" | "parser_score")) {
            continue;
        }
        writeln!(out, "#{com}")?;
    }
    writeln!(out, "# rerank_rank = {}", c.rank)?;
    writeln!(out, "# rerank_score = {score}")?;
    let mut mwts = s.multiword_tokens().iter().peekable();
    let mut empty = s.empty_nodes().iter().peekable();
    for w in s.words() {
        while let Some(t) = mwts.next_if(|t| t.first == w.id) {
            writeln!(
                out,
                "{}-{}\t{}\t_\t_\t_\t_\t_\t_\t_\t{}",
                t.first,
                t.last,
                s.mwt_form(t),
                s.mwt_misc(t)
            )?;
        }
        writeln!(out, "{}", s.line(w))?;
        while let Some(e) = empty.next_if(|e| e.after == w.id) {
            writeln!(
                out,
                "{}.{}\t{}\t_\t_\t_\t_\t_\t_\t{}\t{}",
                e.after,
                e.sub,
                s.empty_form(e),
                s.empty_deps(e),
                s.empty_misc(e)
            )?;
        }
    }
    writeln!(out)
}
