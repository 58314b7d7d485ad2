//! MaltTab, MaltParser's tab format (`.dp`; the PTB sample's dependency files): one word a
//! line, `FORM<TAB>POS<TAB>HEAD[<TAB>DEPREL]`, a blank line after each sentence, no ID
//! column (a word's number is its place in the sentence) and no comment lines (a line
//! that starts with `#` is a word: `#` is a Penn Treebank token).
//!
//! The CoNLL [`Reader`] reads it, so every command that reads dependency trees does: it
//! is recognised from the first word line's 3 or 4 columns (or from a `.dp` name, which
//! also makes a first line starting with `#` a word), or forced with
//! [`Format::Malttab`]. POS fills UPOS and XPOS; LEMMA, FEATS, DEPS and MISC are empty;
//! without the DEPREL column every label is empty, so LAS equals UAS. Every line of a file
//! has the first word line's number of columns.

use std::io::BufRead;

use super::{Fields, Format, Reader};
use crate::error::ErrorKind;
use crate::sentence::{Sentence, Word};

/// The hint of a MaltTab line with the wrong number of columns.
const COLUMNS_HINT: &str = "MaltTab lines are FORM, POS, HEAD and an optional DEPREL, separated by tabs; every line of a file has as many columns as its first word line";

/// Whether a file name says MaltTab (`.dp`, `.malttab`, plain or compressed).
pub(super) fn is_malttab_name(name: &str) -> bool {
    let base = name
        .strip_suffix(".gz")
        .or_else(|| name.strip_suffix(".zst"))
        .unwrap_or(name);
    base.ends_with(".dp") || base.ends_with(".malttab")
}

/// Whether a line that starts with `#` is a MaltTab word (`#<TAB>#<TAB>34`) rather than a
/// comment: 3 or 4 tab-separated fields, the third a number.
pub(super) fn looks_like_word(line: &[u8]) -> bool {
    let fields: Vec<&[u8]> = line.split(|&c| c == b'\t').collect();
    matches!(fields.len(), 3 | 4)
        && !fields[2].is_empty()
        && fields[2].iter().all(u8::is_ascii_digit)
}

impl<R: BufRead> Reader<R> {
    /// A MaltTab word line at `line_start..line_start + len` of `bytes`: the word
    /// numbered `expect_id`.
    pub(super) fn malttab_line(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        line_start: usize,
        len: usize,
        expect_id: &mut u32,
    ) {
        let cols = self.ntabs + 1;
        if self.malttab_cols == 0 && matches!(cols, 3 | 4) {
            self.malttab_cols = cols;
        }
        let f = Fields::new(line_start, len, &self.tabs, self.ntabs);
        let id = *expect_id;
        *expect_id += 1;
        let expected = if self.malttab_cols == 0 {
            4
        } else {
            self.malttab_cols
        };
        if cols != expected {
            let text = String::from_utf8_lossy(&bytes[line_start..line_start + len]);
            let hint = super::spaces_hint(&text, Some(expected))
                .unwrap_or_else(|| COLUMNS_HINT.to_string());
            let kind = ErrorKind::ColumnCount {
                expected,
                found: cols,
            };
            self.error_at(s, bytes, 1, kind, Some(&hint));
            // keep the numbering: the line stands for word `id`, with nothing in it
            s.words
                .push(Word::placeholder(id, self.line_no, line_start));
            return;
        }
        let mut w = Word {
            id,
            line: self.line_no,
            line_start: line_start as u32,
            form: f.span(0),
            lemma: f.empty(),
            upos: f.span(1),
            xpos: f.span(1),
            feats: f.empty(),
            head: f.span(2),
            deprel: if cols == 4 { f.span(3) } else { f.empty() },
            deps: f.empty(),
            misc: f.empty(),
            head_value: None,
        };
        for (i, name) in [(0, "FORM"), (1, "POS"), (2, "HEAD"), (3, "DEPREL")] {
            let r = f.get(i.min(cols - 1));
            if i < cols && r.is_empty() {
                self.empty_field(s, bytes, line_start, r.start, name);
            }
        }
        w.head_value = self.head_value(s, bytes, line_start, w.head, Format::Malttab);
        s.words.push(w);
    }
}

#[cfg(test)]
mod tests {
    use crate::{Format, ReaderBuilder, Sentence};

    fn read(name: &str, text: &str) -> (Vec<Sentence>, Option<Format>, Vec<String>) {
        let mut r = ReaderBuilder::new().from_reader(name, text.as_bytes());
        let mut out = Vec::new();
        let mut s = Sentence::new();
        while r.read_sentence(&mut s).unwrap() {
            out.push(s.clone());
        }
        let d = r.diagnostics().iter().map(ToString::to_string).collect();
        (out, r.format(), d)
    }

    #[test]
    fn words_are_numbered_by_place_and_pos_fills_both_tags() {
        let text = "Pierre\tNNP\t2\nVinken\tNNP\t0\n\n#\t#\t2\n200\tCD\t0\n\n";
        let (s, f, d) = read("wsj.dp", text);
        assert_eq!(f, Some(Format::Malttab));
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(s.len(), 2);
        let w = &s[0].words()[0];
        assert_eq!((w.id, s[0].form(w), w.head_value), (1, "Pierre", Some(2)));
        assert_eq!(
            (s[0].upos(w), s[0].xpos(w), s[0].deprel(w)),
            ("NNP", "NNP", "")
        );
        // `#` is a word (the PTB's pound sign), not a comment
        assert_eq!(s[1].form(&s[1].words()[0]), "#");
        assert_eq!(s[1].words().len(), 2);
    }

    #[test]
    fn four_columns_carry_deprel_and_are_detected_without_a_name() {
        let (s, f, d) = read("x.txt", "Dogs\tNNS\t2\tSBJ\nbark\tVBP\t0\tROOT\n\n");
        assert_eq!(f, Some(Format::Malttab));
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(s[0].deprel(&s[0].words()[0]), "SBJ");
    }

    #[test]
    fn a_line_with_other_columns_is_an_error_at_its_position() {
        let (s, _, d) = read("x.dp", "Dogs\tNNS\t2\nbark\tVBP\t0\tROOT\n\n");
        assert_eq!(s[0].words().len(), 2, "the line keeps its number");
        assert!(s[0].has_errors);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].starts_with("x.dp:2:1: expected 3 tab-separated columns, found 4"),
            "{d:?}"
        );
        assert!(
            d[0].contains("hint: MaltTab lines are FORM, POS, HEAD"),
            "{d:?}"
        );
    }

    #[test]
    fn a_head_that_is_no_number_names_the_column() {
        let (_, _, d) = read("x.dp", "Dogs\t2\tNNS\nbark\tVBP\t0\n\n");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].starts_with("x.dp:1:8: "), "{d:?}");
        assert!(d[0].contains("'NNS'"), "{d:?}");
        assert!(d[0].contains("HEAD is the third column"), "{d:?}");
    }

    #[test]
    fn an_empty_form_is_an_error() {
        let (_, _, d) = read("x.dp", "\tNNS\t2\nbark\tVBP\t0\n\n");
        assert!(d.iter().any(|x| x.starts_with("x.dp:1:1: ")), "{d:?}");
    }
}
