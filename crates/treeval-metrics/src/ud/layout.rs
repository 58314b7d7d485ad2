//! conll18_ud_eval.py's line layout.
//!
//! The line layout conll18_ud_eval.py's `load_conllu` insists on and treeval's reader (made
//! to be lenient about layout) does not check: a sentence that starts with a blank line
//! (a second blank line, or one at the top of the file) has no root; a line of spaces is
//! not a CoNLL-U line; the file must end with a blank line; a byte-order mark is part of
//! the first line; and the HEAD of a word inside a multiword token is read as an integer
//! only when its sentence ends, where text that is not one raises Python's `ValueError`.

/// What the reference raises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Raised {
    /// Its `UDError`.
    UdError,
    /// Python's `ValueError` (from `int()`).
    ValueError,
}

/// A layout problem: what is raised, at which line (1-based), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The exception.
    pub raised: Raised,
    /// The line of the problem (for a `ValueError`: of the first word inside a multiword
    /// token whose HEAD is not an integer).
    pub line: u64,
    /// What is wrong.
    pub message: String,
    /// For a `ValueError`: the line that ends the sentence, where the reference raises it
    /// (for a `UDError`: `line`).
    pub end: u64,
    /// For a `ValueError`: the lines of all the sentence's words inside multiword tokens
    /// whose HEAD is not an integer (the reference reads those HEADs only at `end`).
    pub member_heads: Vec<u64>,
}

impl Layout {
    /// Whether the reference raises a problem the reader found at `line` before this one;
    /// `at_end` says the reference finds that problem when its sentence ends (a HEAD out
    /// of range, a cycle, the number of roots), not when it reads the line. A line's own
    /// problem comes first when its line does; before a `ValueError` raised at the end of
    /// the sentence, so does every problem found while reading the sentence's other lines.
    pub fn raised_after(&self, line: u64, at_end: bool) -> bool {
        match self.raised {
            Raised::UdError => line < self.line,
            Raised::ValueError => {
                line < self.line
                    || (line < self.end && !at_end && !self.member_heads.contains(&line))
            }
        }
    }
}

fn columns(line: &[u8]) -> Vec<&[u8]> {
    line.split(|&b| b == b'\t').collect()
}

/// Whether Python's `int()` reads `s`.
fn python_int(s: &[u8]) -> bool {
    treeval_formats::python_int(s).is_some()
}

/// The multiword token range `a-b` of an ID, as the reference reads it (Python's `int()`
/// of each side of the one '-').
fn range(id: &[u8]) -> Option<(i64, i64)> {
    let mut parts = id.split(|&b| b == b'-');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(a), Some(b), None) => {
            treeval_formats::python_int(a).zip(treeval_formats::python_int(b))
        }
        _ => None,
    }
}

/// The first layout problem of `data` (UTF-8, `\n`-separated lines), if any.
pub fn layout_problem(data: &[u8]) -> Option<Layout> {
    let ud = |line: u64, message: String| {
        Some(Layout {
            raised: Raised::UdError,
            line,
            message,
            end: line,
            member_heads: Vec::new(),
        })
    };
    let body = data.strip_suffix(b"\n").unwrap_or(data);
    let mut lines = body.split(|&b| b == b'\n').enumerate().peekable();
    if data.is_empty() {
        return None;
    }
    let mut in_sentence = false;
    // the lines of the non-integer HEADs inside multiword tokens of the current sentence
    let mut bad_member_heads: Vec<u64> = Vec::new();
    while let Some((i, raw)) = lines.next() {
        let n = i as u64 + 1;
        let line = raw.without_line_end();
        if n == 1 && line.starts_with("\u{feff}".as_bytes()) {
            let c = columns(line);
            if !(c.len() == 10 && c[0].contains(&b'.')) {
                return ud(n, "the file starts with a byte-order mark (U+FEFF), which conll18_ud_eval.py reads as part of the first line".into());
            }
        }
        if !in_sentence {
            if line.starts_with(b"#") {
                continue;
            }
            in_sentence = true;
            bad_member_heads.clear();
            if line.is_empty() {
                return ud(n, "a blank line where a sentence starts: conll18_ud_eval.py reads an empty sentence, which has 0 roots".into());
            }
        } else if line.is_empty() {
            if let Some(&at) = bad_member_heads.first() {
                return Some(Layout {
                    raised: Raised::ValueError,
                    line: at,
                    message: format!("the HEAD of the word at line {at}, inside a multiword token, is not an integer (conll18_ud_eval.py raises ValueError when the sentence ends at line {n})"),
                    end: n,
                    member_heads: bad_member_heads,
                });
            }
            in_sentence = false;
            continue;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            return ud(n, "a line of spaces is not a CoNLL-U line (10 tab-separated columns) for conll18_ud_eval.py".into());
        }
        let c = columns(line);
        if c.len() != 10 || c[0].contains(&b'.') {
            continue; // the reader reports a wrong number of columns
        }
        if let Some((a, b)) = range(c[0]) {
            // the reference takes the next b - a + 1 lines as the token's words, whatever they hold
            for _ in a..=b {
                let Some((j, member)) = lines.next() else {
                    return None; // the reader reports the missing words
                };
                let m = columns(member.without_line_end());
                if m.len() == 10 && !python_int(m[6]) {
                    bad_member_heads.push(j as u64 + 1);
                }
            }
        }
    }
    if in_sentence {
        return ud(
            body.split(|&b| b == b'\n').count() as u64,
            "the file does not end with a blank line after its last sentence, as conll18_ud_eval.py requires".into(),
        );
    }
    None
}

trait LineEnd {
    fn without_line_end(&self) -> &[u8];
}

impl LineEnd for [u8] {
    /// The line without its trailing `\r` and `\n` characters (Python's `rstrip("\r\n")`).
    fn without_line_end(&self) -> &[u8] {
        let mut s = self;
        while let Some(rest) = s.strip_suffix(b"\r").or_else(|| s.strip_suffix(b"\n")) {
            s = rest;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: &str = "1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n\n";

    fn raised(text: &str) -> Option<(Raised, u64)> {
        layout_problem(text.as_bytes()).map(|l| (l.raised, l.line))
    }

    #[test]
    fn layouts() {
        let mwt = "1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\t_\t_\t_\t_\tx\tdep\t_\t_\n2\tb\t_\t_\t_\t_\t0\troot\t_\t_\n\n";
        let cases: &[(&str, Option<(Raised, u64)>)] = &[
            (OK, None),
            ("", None),
            ("# only a comment\n", None),
            (&OK.replace('\n', "\r\n"), None),
            (&format!("\n{OK}"), Some((Raised::UdError, 1))),
            (&format!("{OK}\n{OK}"), Some((Raised::UdError, 3))),
            (&format!("{OK} \n"), Some((Raised::UdError, 3))),
            (OK.trim_end(), Some((Raised::UdError, 1))),
            (&format!("\u{feff}{OK}"), Some((Raised::UdError, 1))),
            (
                &format!("\u{feff}1.1\tx\t_\t_\t_\t_\t_\t_\t_\t_\n{OK}"),
                None,
            ),
            (mwt, Some((Raised::ValueError, 2))),
            (&mwt.replace("\tx\t", "\t 2 \t"), None),
        ];
        for (text, want) in cases {
            assert_eq!(raised(text), *want, "{text:?}");
        }
    }

    #[test]
    fn a_value_error_comes_after_the_problems_of_the_sentences_other_lines() {
        // words 1 and 2 of a token, HEAD 'x' and '_' at lines 2 and 3; the sentence ends at
        // line 6. Hand-checked against conll18_ud_eval.py: it raises the wrong ID at line 4
        // (a UDError) before the ValueError of the HEADs; with IDs 3 and 4 there and a HEAD
        // out of range at line 5, the ValueError comes first
        let text = "1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\t_\t_\t_\t_\tx\tdep\t_\t_\n1.1\tb\t_\t_\t_\t_\t_\t_\t_\t_\n2\tc\t_\t_\t_\t_\t0\troot\t_\t_\n3\td\t_\t_\t_\t_\t1\tdep\t_\t_\n\n";
        let l = layout_problem(text.as_bytes()).unwrap();
        assert_eq!((l.raised, l.line, l.end), (Raised::ValueError, 2, 6));
        assert_eq!(l.member_heads, [2, 3]);
        for (line, at_end, first) in [
            (1, false, true),  // a problem before the first bad HEAD
            (1, true, true),   // (one found at the end too: its word comes first)
            (2, false, false), // the bad HEADs' own lines: the ValueError
            (3, false, false),
            (4, false, true), // a wrong ID while reading the sentence
            (4, true, false), // a HEAD out of range, found at the end after line 2's
            (6, false, false),
        ] {
            assert_eq!(l.raised_after(line, at_end), first, "{line} {at_end}");
        }
    }

    #[test]
    fn python_ints() {
        for (s, ok) in [
            ("1", true),
            (" 2 ", true),
            ("+3", true),
            ("-1", true),
            ("1_0", true),
            ("1__0", false),
            ("_1", false),
            ("x", false),
            ("", false),
            ("_", false),
        ] {
            assert_eq!(python_int(s.as_bytes()), ok, "{s}");
        }
    }
}
