//! Alpino's n-best evaluation lines, as `Disambiguation/evaluate.pl -x` reads them: one
//! line per candidate parse, `KEY#…#OVERLAP|CORRECT|SYSTEM|CGN|CGN_TOTAL#WEIGHT`.
//!
//! As evaluate.pl: lines starting with `%` or `#` and lines without a `|` are skipped;
//! consecutive lines with the same KEY are one sentence's candidates (the first is the
//! "first" parse; a KEY seen again later starts a new sentence); the second field is not
//! read; WEIGHT is the candidate's score (`-x`). Unlike evaluate.pl, which reads any text
//! as a number (0 when it is not one), a field that is not a number, or a line without
//! exactly four `#`-separated fields and five `|`-separated counts, is an error here.

use std::io::BufRead;
use std::sync::Arc;

use crate::error::{Diagnostic, Error, ErrorKind, Position};

/// One candidate line.
#[derive(Debug, Clone, PartialEq)]
pub struct AlpinoLine {
    /// The sentence key (field 1).
    pub key: String,
    /// Triples in both (field 3, item 1).
    pub overlap: f64,
    /// Gold triples (item 2).
    pub correct: f64,
    /// Candidate triples (item 3).
    pub system: f64,
    /// Words with the right tag and lemma (item 4).
    pub cgn: f64,
    /// Words (item 5).
    pub cgn_total: f64,
    /// The weight (field 4).
    pub weight: f64,
    /// Its line number (1-based).
    pub line: u64,
}

fn bad(path: &Arc<str>, line: u64, column: usize, msg: String) -> Error {
    Error::single(
        Diagnostic::error(Position::new(path.clone(), line, column as u32), ErrorKind::Other(msg))
            .with_hint("evaluate.pl -x lines read KEY#IGNORED#OVERLAP|CORRECT|SYSTEM|CGN|CGN_TOTAL#WEIGHT, e.g. s1#1#4|5|5|4|5#-0.54"),
    )
}

/// A number as evaluate.pl's input holds it (surrounding blanks allowed).
fn number(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok()
}

/// Parse one line (`None`: a line evaluate.pl skips).
fn parse(path: &Arc<str>, text: &str, line: u64) -> Result<Option<AlpinoLine>, Error> {
    let text = text.trim_end_matches(['\n', '\r']);
    if text.starts_with(['%', '#']) || !text.contains('|') {
        return Ok(None);
    }
    let fields: Vec<&str> = text.split('#').collect();
    if fields.len() != 4 {
        return Err(bad(
            path,
            line,
            1,
            format!("expected 4 '#'-separated fields, found {}", fields.len()),
        ));
    }
    let col = |k: usize| {
        1 + fields[..k]
            .iter()
            .map(|f| f.chars().count() + 1)
            .sum::<usize>()
    };
    let items: Vec<&str> = fields[2].split('|').collect();
    if items.len() != 5 {
        return Err(bad(
            path,
            line,
            col(2),
            format!(
                "expected 5 '|'-separated counts OVERLAP|CORRECT|SYSTEM|CGN|CGN_TOTAL, found {} in '{}'",
                items.len(),
                fields[2]
            ),
        ));
    }
    let mut v = [0.0; 5];
    let mut at = col(2);
    for (slot, item) in v.iter_mut().zip(&items) {
        *slot = number(item).filter(|x| x.is_finite()).ok_or_else(|| {
            bad(
                path,
                line,
                at,
                format!("expected a number, found '{}'", crate::excerpt(item)),
            )
        })?;
        at += item.chars().count() + 1;
    }
    let weight = number(fields[3]).ok_or_else(|| {
        bad(
            path,
            line,
            col(3),
            format!(
                "expected a weight (a number), found '{}'",
                crate::excerpt(fields[3])
            ),
        )
    })?;
    Ok(Some(AlpinoLine {
        key: fields[0].to_owned(),
        overlap: v[0],
        correct: v[1],
        system: v[2],
        cgn: v[3],
        cgn_total: v[4],
        weight,
        line,
    }))
}

/// Read every line of `rdr` (`path` for positions), grouped into sentences.
pub fn read_alpino<R: BufRead>(path: &str, mut rdr: R) -> Result<Vec<Vec<AlpinoLine>>, Error> {
    let path: Arc<str> = Arc::from(path);
    let mut out: Vec<Vec<AlpinoLine>> = Vec::new();
    let mut buf = Vec::new();
    let mut line = 0;
    loop {
        buf.clear();
        if rdr
            .read_until(b'\n', &mut buf)
            .map_err(|e| Error::io(&path, &e))?
            == 0
        {
            break;
        }
        line += 1;
        let text = std::str::from_utf8(&buf).map_err(|_| {
            Error::single(Diagnostic::error(
                Position::new(path.clone(), line, 1),
                ErrorKind::InvalidUtf8,
            ))
        })?;
        let Some(l) = parse(&path, text, line)? else {
            continue;
        };
        match out.last_mut() {
            Some(s) if s[0].key == l.key => s.push(l),
            _ => out.push(vec![l]),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Vec<Vec<AlpinoLine>>, Error> {
        read_alpino("a.txt", text.as_bytes())
    }

    #[test]
    fn groups_consecutive_keys_and_skips_as_evaluate_pl() {
        let text = "% comment\n# also\nno bar here\n\na#1#4|5|5|4|5#-0.5\na#2#5|5|5|4|5#-5\nb#x#1|2|3|4|5#1e-3\na#1#0|0|0|0|0#0\n";
        let s = read(text).unwrap();
        assert_eq!(s.iter().map(Vec::len).collect::<Vec<_>>(), [2, 1, 1]);
        assert_eq!(s[0][1].overlap, 5.0);
        assert_eq!(s[0][1].line, 6);
        assert_eq!(s[1][0].weight, 0.001);
        assert_eq!(
            (
                s[1][0].correct,
                s[1][0].system,
                s[1][0].cgn,
                s[1][0].cgn_total
            ),
            (2.0, 3.0, 4.0, 5.0)
        );
    }

    #[test]
    fn malformed_lines_are_positioned_errors() {
        let cases = [
            (
                "a#1#4|5|5|4|5\n",
                "a.txt:1:1: expected 4 '#'-separated fields, found 3",
            ),
            (
                "a#1#4|5|5|4#0\n",
                "a.txt:1:5: expected 5 '|'-separated counts",
            ),
            (
                "ab#1#4|x|5|4|5#0\n",
                "a.txt:1:8: expected a number, found 'x'",
            ),
            (
                "a#1#4|5|5|4|5#high\n",
                "a.txt:1:15: expected a weight (a number), found 'high'",
            ),
        ];
        for (text, want) in cases {
            let e = read(text).unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}\n--- wanted ---\n{want}");
        }
    }
}
