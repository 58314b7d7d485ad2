//! Subword pieces (`align --hyp-subwords`): one sentence per line, pieces separated by
//! spaces, in the SentencePiece convention (a piece starting with `▁` U+2581 starts a
//! word; the first piece of a line always does) or the WordPiece convention (a piece
//! starting with `##` continues the previous word), and the projection of an
//! alignment over pieces onto words.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::align::{AlignmentFile, Link, LinkKind};
use crate::error::{Diagnostic, Diagnostics, Error, ErrorKind, Position};

/// How a pieces file marks words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PieceConvention {
    /// `▁` starts a word.
    SentencePiece,
    /// `##` continues a word.
    WordPiece,
    /// Neither marker: every piece is a word.
    Words,
}

impl PieceConvention {
    /// `sentencepiece`, `wordpiece` or `words`.
    pub fn name(self) -> &'static str {
        match self {
            PieceConvention::SentencePiece => "sentencepiece",
            PieceConvention::WordPiece => "wordpiece",
            PieceConvention::Words => "words",
        }
    }

    /// The convention of a file's text: any `▁` → SentencePiece; else any piece
    /// starting with `##` → WordPiece; else every piece is a word.
    pub fn detect(text: &str) -> PieceConvention {
        if text.contains('\u{2581}') {
            PieceConvention::SentencePiece
        } else if text.split_whitespace().any(|p| p.starts_with("##")) {
            PieceConvention::WordPiece
        } else {
            PieceConvention::Words
        }
    }
}

/// The words of one line of pieces: for each piece the index of its word, and each
/// word's text (its pieces concatenated without markers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PieceWords {
    /// `word_of[i]`: the 0-based word of piece `i`.
    pub word_of: Vec<u32>,
    /// The words' texts.
    pub words: Vec<String>,
}

/// The words the pieces of one line make under `conv` (see the module's conventions).
pub fn pieces_to_words(pieces: &[&str], conv: PieceConvention) -> PieceWords {
    let mut out = PieceWords::default();
    for (i, p) in pieces.iter().enumerate() {
        let (starts, text) = match conv {
            PieceConvention::SentencePiece => match p.strip_prefix('\u{2581}') {
                Some(rest) => (true, rest),
                None => (false, *p),
            },
            PieceConvention::WordPiece => match p.strip_prefix("##") {
                Some(rest) => (false, rest),
                None => (true, *p),
            },
            PieceConvention::Words => (true, *p),
        };
        if starts || i == 0 {
            out.words.push(String::new());
        }
        let k = out.words.len() - 1;
        out.words[k].push_str(text);
        out.word_of.push(u32::try_from(k).unwrap_or(u32::MAX));
    }
    out
}

/// A pieces file read whole.
#[derive(Debug, Clone)]
pub struct PieceFile {
    /// The path as given.
    pub path: Arc<str>,
    /// The convention detected from the data.
    pub convention: PieceConvention,
    /// Per line (line k = sentence k), its words.
    pub lines: Vec<PieceWords>,
}

/// Read a pieces file from its text (see [`PieceConvention::detect`]). Never fails:
/// every line is some pieces (an empty line has none).
pub fn read_pieces(name: &str, text: &str) -> PieceFile {
    let convention = PieceConvention::detect(text);
    let lines = text
        .lines()
        .map(|l| pieces_to_words(&l.split_whitespace().collect::<Vec<_>>(), convention))
        .collect();
    PieceFile {
        path: Arc::from(name),
        convention,
        lines,
    }
}

/// One side's word of piece `p` of sentence `n` (`Ok(None)` for NULL); an error
/// message when the sentence has no line or the piece is past its pieces.
fn word(side: &PieceFile, n: u64, p: Option<u32>, what: &str) -> Result<Option<u32>, String> {
    let Some(p) = p else { return Ok(None) };
    let Some(line) = usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|k| side.lines.get(k))
    else {
        return Err(format!(
            "sentence {n} has no line in the {what} pieces file {} ({} lines)",
            side.path,
            side.lines.len()
        ));
    };
    match line.word_of.get(p as usize) {
        Some(&w) => Ok(Some(w)),
        None => Err(format!(
            "the {what} piece index {} (0-based {p}) is past the {} piece(s) of sentence {n} in {}",
            u64::from(p) + 1,
            line.word_of.len(),
            side.path
        )),
    }
}

/// Project an alignment over pieces onto words: a piece link (i, j) becomes the word
/// link (word of source piece i, word of target piece j); word pairs linked by several
/// piece links are one link (sure if any of them is). A piece index past its line (or a
/// sentence without a line) is an error at the link's `path:line`.
pub fn project(
    hyp: &AlignmentFile,
    src: &PieceFile,
    tgt: &PieceFile,
) -> Result<AlignmentFile, Error> {
    let mut errors = Diagnostics::with_limit(crate::align::ERROR_LIMIT);
    let mut sentences = BTreeMap::new();
    for (&n, links) in &hyp.sentences {
        let mut merged: BTreeMap<(Option<u32>, Option<u32>), Link> = BTreeMap::new();
        for l in links {
            let ends =
                word(src, n, l.a, "source").and_then(|a| Ok((a, word(tgt, n, l.b, "target")?)));
            match ends {
                Ok((a, b)) => {
                    let e = merged.entry((a, b)).or_insert(Link { a, b, ..*l });
                    if l.kind == LinkKind::Sure {
                        e.kind = LinkKind::Sure;
                    }
                }
                Err(msg) => errors.push(
                    Diagnostic::error(
                        Position::new(hyp.path.clone(), l.line, 1),
                        ErrorKind::Other(msg),
                    )
                    .with_hint("--hyp-subwords SRC TGT: line k of each pieces file is sentence k; check the order of the two files, --reverse and --hyp-base"),
                ),
            }
        }
        let mut v: Vec<Link> = merged.into_values().collect();
        v.sort_by_key(|l| l.line);
        sentences.insert(n, v);
    }
    errors.into_result()?;
    Ok(AlignmentFile {
        sentences,
        ..hyp.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::align::{read_alignments, AlignOptions};

    fn sp(line: &str) -> PieceWords {
        let p: Vec<&str> = line.split_whitespace().collect();
        pieces_to_words(&p, PieceConvention::detect(line))
    }

    #[test]
    fn sentencepiece_words() {
        let w = sp("▁the ▁house s ▁is ▁ red");
        assert_eq!(w.word_of, vec![0, 1, 1, 2, 3, 3]);
        assert_eq!(w.words, vec!["the", "houses", "is", "red"]);
        // the first piece starts a word without the marker
        let w = sp("un believ ▁able");
        assert_eq!(w.word_of, vec![0, 0, 1]);
    }

    #[test]
    fn wordpiece_words() {
        let w = sp("the house ##s is re ##d");
        assert_eq!(w.word_of, vec![0, 1, 1, 2, 3, 3]);
        assert_eq!(w.words, vec!["the", "houses", "is", "red"]);
        // a leading ## still starts the first word
        assert_eq!(sp("##x y").word_of, vec![0, 1]);
    }

    #[test]
    fn detection() {
        assert_eq!(
            PieceConvention::detect("a ▁b"),
            PieceConvention::SentencePiece
        );
        assert_eq!(PieceConvention::detect("a ##b"), PieceConvention::WordPiece);
        assert_eq!(PieceConvention::detect("a#b c"), PieceConvention::Words);
        assert_eq!(sp("").word_of, Vec::<u32>::new());
    }

    #[test]
    fn projection_merges_and_errors() {
        let src = read_pieces("s", "▁the ▁house s\n");
        let tgt = read_pieces("t", "▁la ▁mai son\n");
        let hyp = read_alignments(
            "h",
            "0-0 1-1 2-2 1p2 2-1\n".as_bytes(),
            AlignOptions::default(),
        )
        .unwrap();
        let w = project(&hyp, &src, &tgt).unwrap();
        let links: Vec<_> = w.sentences[&1].iter().map(|l| (l.a, l.b, l.kind)).collect();
        assert_eq!(
            links,
            vec![
                (Some(0), Some(0), LinkKind::Sure),
                (Some(1), Some(1), LinkKind::Sure)
            ]
        );
        let bad = read_alignments("h", "0-3\n".as_bytes(), AlignOptions::default()).unwrap();
        let e = project(&bad, &src, &tgt).unwrap_err().to_string();
        assert!(
            e.contains("h:1:1") && e.contains("past the 3 piece(s)"),
            "{e}"
        );
        let far = read_alignments("h", "0-0\n0-0\n".as_bytes(), AlignOptions::default()).unwrap();
        let e = project(&far, &src, &tgt).unwrap_err().to_string();
        assert!(e.contains("h:2:1") && e.contains("no line"), "{e}");
    }
}
