//! Word-alignment files: NAACL/WPT (`sent pos1 pos2 [S|P] [confidence]`, 1-based, 0 =
//! NULL) and Pharaoh/Moses (`i-j` per link, one line per sentence, 0-based; `i?j` or
//! `ipj` for possible links), recognised from the content.
//!
//! Positions are stored 0-based with `None` for NULL. Sentences are numbered from 1:
//! NAACL sentence numbers are read as numbers (`0001` = `1`); Pharaoh line k is
//! sentence k.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::sync::Arc;

use crate::error::{Diagnostic, Diagnostics, Error, ErrorKind, Position};

/// An alignment format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AlignFormat {
    /// `sent pos1 pos2 [S|P] [confidence]`, 1-based, 0 = NULL.
    Naacl,
    /// `i-j i?j …` per line, 0-based.
    Pharaoh,
}

impl AlignFormat {
    /// `naacl` or `pharaoh`.
    pub fn name(self) -> &'static str {
        match self {
            AlignFormat::Naacl => "naacl",
            AlignFormat::Pharaoh => "pharaoh",
        }
    }

    /// The usual index base of the format (1 for NAACL, 0 for Pharaoh).
    pub fn default_base(self) -> u32 {
        match self {
            AlignFormat::Naacl => 1,
            AlignFormat::Pharaoh => 0,
        }
    }
}

/// Whether a link is sure or only possible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LinkKind {
    /// `S`, untagged, or a confidence value (as the WPT scorer reads them).
    Sure,
    /// `P` (NAACL) or `?`/`p` (Pharaoh).
    Possible,
}

/// One link: 0-based positions on each side (`None` = NULL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    /// Position on the first side.
    pub a: Option<u32>,
    /// Position on the second side.
    pub b: Option<u32>,
    /// Sure or possible.
    pub kind: LinkKind,
    /// Line in the file.
    pub line: u64,
}

/// An alignment file read whole.
#[derive(Debug, Clone)]
pub struct AlignmentFile {
    /// The path as given.
    pub path: Arc<str>,
    /// The format (detected or forced).
    pub format: AlignFormat,
    /// Whether the format had to be guessed (no line decided it).
    pub guessed: bool,
    /// Links per sentence number (from 1).
    pub sentences: BTreeMap<u64, Vec<Link>>,
    /// Lines in the file.
    pub lines: u64,
    /// Warnings found while reading.
    pub warnings: Diagnostics,
}

/// How to read an alignment file.
#[derive(Debug, Clone, Copy, Default)]
pub struct AlignOptions {
    /// Force a format instead of detecting it.
    pub format: Option<AlignFormat>,
    /// Index base of positions (default: 1 for NAACL, 0 for Pharaoh).
    pub base: Option<u32>,
    /// Swap the two sides of every link.
    pub reverse: bool,
}

fn is_pharaoh_token(t: &str) -> bool {
    let Some(k) = t.find(['-', '?', 'p']) else {
        return false;
    };
    let (a, b) = (&t[..k], &t[k + 1..]);
    !a.is_empty()
        && !b.is_empty()
        && a.bytes().all(|c| c.is_ascii_digit())
        && b.bytes().all(|c| c.is_ascii_digit())
}

fn looks_naacl(fields: &[&str]) -> bool {
    fields.len() >= 3
        && fields[..3]
            .iter()
            .all(|f| f.bytes().all(|c| c.is_ascii_digit()) && !f.is_empty())
}

/// Decide the format from the first non-empty line, if it decides.
fn detect(text: &str) -> Option<AlignFormat> {
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        if fields.iter().all(|t| is_pharaoh_token(t)) {
            return Some(AlignFormat::Pharaoh);
        }
        if looks_naacl(&fields) {
            return Some(AlignFormat::Naacl);
        }
        return None;
    }
    None
}

/// Read an alignment file. Every malformed line is reported (not just the first);
/// `Err` carries all of them.
pub fn read_alignments(
    name: &str,
    mut rdr: impl BufRead,
    opts: AlignOptions,
) -> Result<AlignmentFile, Error> {
    let path: Arc<str> = Arc::from(name);
    let mut text = String::new();
    if let Err(e) = rdr.read_to_string(&mut text) {
        return Err(Error::io(&path, &e));
    }
    let mut warnings = Diagnostics::with_limit(20);
    let mut errors = Diagnostics::with_limit(100);
    if let Some(rest) = text.strip_prefix('\u{feff}') {
        text = rest.to_string();
        warnings.push(Diagnostic::warning(
            Position::new(path.clone(), 1, 1),
            ErrorKind::ByteOrderMark,
        ));
    }
    let detected = detect(&text);
    let guessed = opts.format.is_none() && detected.is_none();
    let format = opts.format.or(detected).unwrap_or(AlignFormat::Pharaoh);
    if guessed {
        warnings.push(
            Diagnostic::warning(
                Position::new(path.clone(), 0, 0),
                ErrorKind::Other(format!(
                    "could not tell the alignment format from the content (no link found); read as {}",
                    format.name()
                )),
            )
            .with_hint("give --gold-format/--hyp-format if this is wrong"),
        );
    }
    let base = opts.base.unwrap_or(format.default_base());
    let mut sentences: BTreeMap<u64, Vec<Link>> = BTreeMap::new();
    let mut lines = 0u64;
    let pos =
        |p: u64, line: u64, col: u32, err: &mut Diagnostics, what: &str| -> Option<Option<u32>> {
            if p > u64::from(u32::MAX) {
                err.push(Diagnostic::error(
                    Position::new(path.clone(), line, col),
                    ErrorKind::Other(format!(
                        "expected a word position, found {what} (too large)"
                    )),
                ));
                return None;
            }
            let p = p as u32;
            if base == 1 {
                Some(p.checked_sub(1)) // 0 = NULL
            } else {
                Some(Some(p))
            }
        };
    for (i, raw) in text.lines().enumerate() {
        let line_no = i as u64 + 1;
        lines = line_no;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        match format {
            AlignFormat::Pharaoh => {
                let sent = line_no;
                let links = sentences.entry(sent).or_default();
                let fields: Vec<&str> = line.split_whitespace().collect();
                if looks_naacl(&fields) && !fields.iter().all(|t| is_pharaoh_token(t)) {
                    errors.push(
                        Diagnostic::error(
                            Position::new(path.clone(), line_no, 1),
                            ErrorKind::Other(format!("expected Pharaoh links like 3-4, found a NAACL line '{line}'")),
                        )
                        .with_hint("the formats of one file cannot be mixed (this file was read as Pharaoh)"),
                    );
                    continue;
                }
                let mut col = 1u32;
                for tok in line.split(' ') {
                    if tok.is_empty() {
                        col += 1;
                        continue;
                    }
                    let here = col;
                    col += tok.chars().count() as u32 + 1;
                    let split = tok.find(['-', '?', 'p']);
                    let parsed = split.and_then(|k| {
                        let (a, b) = (&tok[..k], &tok[k + 1..]);
                        Some((
                            a.parse::<u64>().ok()?,
                            b.parse::<u64>().ok()?,
                            &tok[k..k + 1],
                        ))
                    });
                    let Some((a, b, sep)) = parsed else {
                        errors.push(Diagnostic::error(
                            Position::new(path.clone(), line_no, here),
                            ErrorKind::Other(format!(
                                "expected a link like 3-4, 3?4 or 3p4, found '{tok}'"
                            )),
                        ));
                        continue;
                    };
                    let kind = if sep == "-" {
                        LinkKind::Sure
                    } else {
                        LinkKind::Possible
                    };
                    let (Some(pa), Some(pb)) = (
                        pos(a, line_no, here, &mut errors, tok),
                        pos(b, line_no, here, &mut errors, tok),
                    ) else {
                        continue;
                    };
                    let (pa, pb) = if opts.reverse { (pb, pa) } else { (pa, pb) };
                    links.push(Link {
                        a: pa,
                        b: pb,
                        kind,
                        line: line_no,
                    });
                }
            }
            AlignFormat::Naacl => {
                let fields: Vec<&str> = line.split_whitespace().collect();
                if fields.is_empty() {
                    continue;
                }
                if fields.iter().any(|t| is_pharaoh_token(t)) {
                    errors.push(
                        Diagnostic::error(
                            Position::new(path.clone(), line_no, 1),
                            ErrorKind::Other(format!(
                                "expected 'sentence position position [S|P]', found Pharaoh links '{line}'"
                            )),
                        )
                        .with_hint("the formats of one file cannot be mixed (this file was read as NAACL)"),
                    );
                    continue;
                }
                if fields.len() < 3 || fields.len() > 5 {
                    let mut d = Diagnostic::error(
                        Position::new(path.clone(), line_no, 1),
                        ErrorKind::Other(format!(
                            "expected 'sentence position position [S|P] [confidence]' (3 to 5 fields), found {} field(s)",
                            fields.len()
                        )),
                    );
                    if fields.iter().any(|t| is_pharaoh_token(t)) {
                        d = d.with_hint("this looks like a Pharaoh line (i-j …): the formats of one file cannot be mixed");
                    }
                    errors.push(d);
                    continue;
                }
                let mut nums = [0u64; 3];
                let mut ok = true;
                let mut col = 1u32;
                let mut cols = Vec::new();
                for f in &fields {
                    let at = line[col as usize - 1..]
                        .find(f)
                        .map_or(col, |k| col + k as u32);
                    cols.push(at);
                    col = at + f.len() as u32;
                }
                for k in 0..3 {
                    match fields[k].parse::<u64>() {
                        Ok(v) => nums[k] = v,
                        Err(_) => {
                            ok = false;
                            errors.push(Diagnostic::error(
                                Position::new(path.clone(), line_no, cols[k]),
                                ErrorKind::Other(format!(
                                    "expected a {} (a non-negative integer), found '{}'",
                                    ["sentence number", "position", "position"][k],
                                    fields[k]
                                )),
                            ));
                        }
                    }
                }
                // the WPT scorer: S, P, or a confidence value (read as sure)
                let mut kind = LinkKind::Sure;
                for (k, f) in fields.iter().enumerate().skip(3) {
                    match *f {
                        "S" => {}
                        "P" => kind = LinkKind::Possible,
                        x if k == 3 && x.parse::<f64>().is_ok() => {}
                        x if k == 4 && x.parse::<f64>().is_ok() => {}
                        x => {
                            ok = false;
                            errors.push(
                                Diagnostic::error(
                                    Position::new(path.clone(), line_no, cols[k]),
                                    ErrorKind::Other(format!(
                                        "expected S, P or a confidence value, found '{x}'"
                                    )),
                                )
                                .with_hint("sure links are tagged S, possible links P"),
                            );
                        }
                    }
                }
                if !ok {
                    continue;
                }
                if nums[0] == 0 {
                    errors.push(Diagnostic::error(
                        Position::new(path.clone(), line_no, 1),
                        ErrorKind::Other("expected a sentence number from 1, found 0".into()),
                    ));
                    continue;
                }
                let (Some(pa), Some(pb)) = (
                    pos(nums[1], line_no, cols[1], &mut errors, fields[1]),
                    pos(nums[2], line_no, cols[2], &mut errors, fields[2]),
                ) else {
                    continue;
                };
                let (pa, pb) = if opts.reverse { (pb, pa) } else { (pa, pb) };
                sentences.entry(nums[0]).or_default().push(Link {
                    a: pa,
                    b: pb,
                    kind,
                    line: line_no,
                });
            }
        }
    }
    errors.into_result()?;
    Ok(AlignmentFile {
        path,
        format,
        guessed,
        sentences,
        lines,
        warnings,
    })
}

/// Open and read an alignment file (`-` = stdin; gzip/zstd decompressed).
pub fn read_alignment_path(path: &str, opts: AlignOptions) -> Result<AlignmentFile, Error> {
    let (rdr, _) = crate::input::open(path)?;
    read_alignments(path, rdr, opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, opts: AlignOptions) -> AlignmentFile {
        read_alignments("t", text.as_bytes(), opts).unwrap()
    }

    #[test]
    fn naacl_one_based_with_null_and_tags() {
        let f = read(
            "0001 1 1 S\n0001 2 0 P\n1 3 2\n0002 1 1 0.7\n",
            AlignOptions::default(),
        );
        assert_eq!(f.format, AlignFormat::Naacl);
        assert!(!f.guessed);
        let s1 = &f.sentences[&1];
        assert_eq!(s1.len(), 3, "0001 and 1 are the same sentence");
        assert_eq!(
            (s1[0].a, s1[0].b, s1[0].kind),
            (Some(0), Some(0), LinkKind::Sure)
        );
        assert_eq!(
            (s1[1].a, s1[1].b, s1[1].kind),
            (Some(1), None, LinkKind::Possible)
        );
        assert_eq!(f.sentences[&2][0].kind, LinkKind::Sure);
    }

    #[test]
    fn pharaoh_zero_based_lines_are_sentences() {
        let f = read("1-1 0-0 2?3 4p5\n\n0-1\n", AlignOptions::default());
        assert_eq!(f.format, AlignFormat::Pharaoh);
        assert_eq!(f.sentences[&1].len(), 4);
        assert_eq!(f.sentences[&1][2].kind, LinkKind::Possible);
        assert_eq!(f.sentences[&1][3].kind, LinkKind::Possible);
        assert!(f.sentences[&2].is_empty());
        assert_eq!(f.sentences[&3][0].b, Some(1));
        let r = read(
            "0-1\n",
            AlignOptions {
                reverse: true,
                base: Some(1),
                ..Default::default()
            },
        );
        assert_eq!(
            (r.sentences[&1][0].a, r.sentences[&1][0].b),
            (Some(0), None)
        );
    }

    #[test]
    fn guessing_is_reported() {
        let f = read("\n\n", AlignOptions::default());
        assert!(f.guessed);
        assert_eq!(f.warnings.warning_count(), 1);
    }

    #[test]
    fn all_errors_are_collected() {
        let e = read_alignments(
            "t",
            "1 1 1 S\n1 x 2 S\n1 2 3 Q\n1 2\n".as_bytes(),
            AlignOptions::default(),
        )
        .unwrap_err();
        assert_eq!(e.diagnostics.len(), 3, "{e}");
        assert!(e.to_string().contains("t:2:3: expected a position"), "{e}");
        assert!(
            e.to_string()
                .contains("t:3:7: expected S, P or a confidence value, found 'Q'"),
            "{e}"
        );
    }
}
