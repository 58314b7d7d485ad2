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
    /// Columns (1-based, in characters) of the positions of sides a and b on their line
    /// (a Pharaoh link's two are its own column), swapped with the sides when reversed.
    pub columns: [u32; 2],
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
    /// NAACL: how many characters the sentence number of each sentence's first link is
    /// written with (`0001` = 4), as the WPT scorer compares them as text.
    pub id_widths: BTreeMap<u64, u8>,
    /// NAACL: whether some sentence number is written in two ways (`1` and `0001`).
    pub mixed_ids: bool,
    /// Warnings found while reading.
    pub warnings: Diagnostics,
}

/// How many sentences an alignment file states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SentenceCount {
    /// Pharaoh: one line per sentence, so exactly this many.
    Lines(u64),
    /// NAACL: sentences exist only through their links, so the highest sentence number
    /// is a lower bound (sentences without links after it cannot be written).
    Highest(u64),
}

impl SentenceCount {
    /// The number.
    pub fn value(self) -> u64 {
        match self {
            SentenceCount::Lines(n) | SentenceCount::Highest(n) => n,
        }
    }
}

impl std::fmt::Display for SentenceCount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SentenceCount::Lines(n) => write!(f, "{n} sentence(s) (lines)"),
            SentenceCount::Highest(n) => {
                write!(f, "{n} sentence(s) (its highest sentence number)")
            }
        }
    }
}

impl AlignmentFile {
    /// The number of sentences the file states (see [`SentenceCount`]).
    pub fn sentence_count(&self) -> SentenceCount {
        match self.format {
            AlignFormat::Pharaoh => SentenceCount::Lines(self.lines),
            AlignFormat::Naacl => {
                SentenceCount::Highest(self.sentences.keys().next_back().copied().unwrap_or(0))
            }
        }
    }

    /// How many of the last sentences have no link (for hints: trailing empty lines).
    pub fn trailing_empty(&self) -> u64 {
        self.sentences
            .values()
            .rev()
            .take_while(|v| v.is_empty())
            .count() as u64
    }

    /// All links, NULL ones included.
    pub fn link_count(&self) -> u64 {
        self.sentences.values().map(|v| v.len() as u64).sum()
    }
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
    /// The command's option that forces this file's format (`--gold-format`), named by the
    /// hints when the format cannot be told; `None` where the command has none (`pts`).
    pub force: Option<&'static str>,
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

/// Decide the format from the first non-empty line, if it decides (`None` for a line
/// that is neither, or no line).
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
        // a Pharaoh line with a typo in some link: its errors name them
        if fields.iter().any(|t| is_pharaoh_token(t)) {
            return Some(AlignFormat::Pharaoh);
        }
        return None;
    }
    None
}

/// The whitespace-separated tokens of a line with their 1-based columns (in characters).
fn tokens(line: &str) -> impl Iterator<Item = (u32, &str)> {
    let mut col = 0u32;
    let mut start: Option<(u32, usize)> = None;
    let mut out = Vec::new();
    for (i, c) in line.char_indices() {
        col += 1;
        if c.is_whitespace() {
            if let Some((c0, s0)) = start.take() {
                out.push((c0, &line[s0..i]));
            }
        } else if start.is_none() {
            start = Some((col, i));
        }
    }
    if let Some((c0, s0)) = start {
        out.push((c0, &line[s0..]));
    }
    out.into_iter()
}

/// How many errors a file reports in full (about a screenful with their hints); the
/// rest are counted.
pub const ERROR_LIMIT: usize = 10;

/// Read an alignment file. Every malformed line is reported (the first
/// [`ERROR_LIMIT`] in full, the rest counted); `Err` carries all of them.
///
/// A UTF-8 byte-order mark and CR LF line ends are accepted and give the numbers of the
/// plain LF file, with one warning for the file. A file that is not text (a NUL byte or
/// invalid UTF-8) is one error saying so.
pub fn read_alignments(
    name: &str,
    rdr: impl BufRead,
    opts: AlignOptions,
) -> Result<AlignmentFile, Error> {
    let path: Arc<str> = Arc::from(name);
    let (text, bom) = read_text(&path, rdr)?;
    let mut warnings = Diagnostics::with_limit(20);
    line_end_warning(&path, &text, bom, &mut warnings);
    if !text.is_empty() && !text.ends_with('\n') {
        let (n, last) = text.lines().enumerate().last().unwrap_or_default();
        warnings.push(crate::input::ends_mid_line(&path, n as u64 + 1, last));
    }
    let detected = detect(&text);
    let guessed = opts.format.is_none() && detected.is_none();
    let format = opts.format.or(detected).unwrap_or(AlignFormat::Pharaoh);
    if guessed {
        check_guess(&path, &text, (format, opts.force), &mut warnings)?;
    }
    let mut r = LinkReader {
        cx: Context {
            path,
            base: opts.base.unwrap_or(format.default_base()),
            reverse: opts.reverse,
            errors: Diagnostics::with_limit(ERROR_LIMIT),
        },
        sentences: BTreeMap::new(),
        lines: 0,
        id_widths: BTreeMap::new(),
        mixed_ids: false,
    };
    for (i, raw) in text.lines().enumerate() {
        let line_no = i as u64 + 1;
        r.lines = line_no;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        match format {
            AlignFormat::Pharaoh => r.pharaoh_line(line_no, line),
            AlignFormat::Naacl => r.naacl_line(line_no, line),
        }
    }
    r.cx.errors.into_result()?;
    Ok(AlignmentFile {
        path: r.cx.path,
        format,
        guessed,
        sentences: r.sentences,
        lines: r.lines,
        id_widths: r.id_widths,
        mixed_ids: r.mixed_ids,
        warnings,
    })
}

/// The whole input as text, without a UTF-8 byte-order mark (and whether it had one);
/// one error for input that is not text.
fn read_text(path: &Arc<str>, mut rdr: impl BufRead) -> Result<(String, bool), Error> {
    let mut bytes = Vec::new();
    if let Err(e) = rdr.read_to_end(&mut bytes) {
        return Err(Error::io(path, &e));
    }
    let bom = bytes.starts_with(b"\xef\xbb\xbf");
    if bom {
        bytes.drain(..3);
    }
    if let Some(crate::input::NotText {
        line,
        column: col,
        what,
    }) = crate::input::not_text(&bytes)
    {
        return Err(Error::single(
            Diagnostic::error(
                Position::new(path.clone(), line, col),
                ErrorKind::Other(format!(
                    "not a text file: expected an alignment file (NAACL or Pharaoh lines in UTF-8), found {what}"
                )),
            )
            .with_hint("give the alignment file itself (gzip and zstd files are read as they are)"),
        ));
    }
    Ok((String::from_utf8(bytes).unwrap_or_default(), bom))
}

/// The one warning for a byte-order mark and CR LF line ends, if the file has either.
fn line_end_warning(path: &Arc<str>, text: &str, bom: bool, warnings: &mut Diagnostics) {
    let crlf = text.matches("\r\n").count() as u64;
    match (bom, crlf) {
        (false, 0) => {}
        (true, 0) => warnings.push(Diagnostic::warning(
            Position::new(path.clone(), 1, 1),
            ErrorKind::ByteOrderMark,
        )),
        (false, lines) => warnings.push(Diagnostic::warning(
            Position::new(path.clone(), 0, 0),
            ErrorKind::CarriageReturn { lines },
        )),
        (true, lines) => warnings.push(Diagnostic::warning(
            Position::new(path.clone(), 0, 0),
            ErrorKind::Other(format!(
                "expected plain text with LF line ends, found a UTF-8 byte-order mark and CR LF on {lines} line(s) (both ignored)"
            )),
        ).of_kind(crate::WarningKind::ByteOrderMarkAndCrlf)),
    }
}

/// No line decided the format: an error naming the first non-empty line if there is
/// one (not an alignment file), else a warning that the file is read as `format`. The
/// hints name the option that forces a format, `force`, only where the command has one.
fn check_guess(
    path: &Arc<str>,
    text: &str,
    (format, force): (AlignFormat, Option<&str>),
    warnings: &mut Diagnostics,
) -> Result<(), Error> {
    if let Some((k, first)) = text.lines().enumerate().find(|(_, l)| !l.trim().is_empty()) {
        let shown: String = first.chars().take(60).collect();
        let more = if first.chars().count() > 60 {
            "…"
        } else {
            ""
        };
        return Err(Error::single(
            Diagnostic::error(
                Position::new(path.clone(), k as u64 + 1, 1),
                ErrorKind::Other(format!(
                    "not an alignment file: expected NAACL links 'sentence position position [S|P]' or Pharaoh links 'i-j …', found '{shown}{more}'"
                )),
            )
            .with_hint(match force {
                Some(option) => format!("is this the right file? ({option} forces a format)"),
                None => "is this the right file?".into(),
            }),
        ));
    }
    let warning = Diagnostic::warning(
        Position::new(path.clone(), 0, 0),
        ErrorKind::Other(format!(
            "could not tell the alignment format from the content (no link found); read as {}",
            format.name()
        )),
    );
    let warning = match force {
        Some(option) => warning.with_hint(format!("give {option} if this is wrong")),
        None => warning,
    };
    warnings.push(warning.of_kind(crate::WarningKind::FormatGuessed));
    Ok(())
}

/// How positions are read (the path, the index base, the side order) and the errors
/// found so far.
struct Context {
    path: Arc<str>,
    base: u32,
    reverse: bool,
    errors: Diagnostics,
}

impl Context {
    /// An error at `line:col` with `msg`.
    fn error(&self, line: u64, col: u32, msg: String) -> Diagnostic {
        Diagnostic::error(
            Position::new(self.path.clone(), line, col),
            ErrorKind::Other(msg),
        )
    }

    /// A word position written `p` (the text `what`) as 0-based, `None` for NULL; `None`
    /// (and an error) when it is too large.
    #[inline]
    fn pos(&mut self, p: u64, line: u64, col: u32, what: &str) -> Option<Option<u32>> {
        if p > u64::from(u32::MAX) {
            let msg = format!("expected a word position, found {what} (too large)");
            self.errors.push(self.error(line, col, msg));
            return None;
        }
        let p = p as u32;
        if self.base == 1 {
            Some(p.checked_sub(1)) // 0 = NULL
        } else {
            Some(Some(p))
        }
    }

    /// The link between positions `a` and `b` (each: value, column, text), sides swapped
    /// when reversed; `None` (with errors) when either position is too large.
    #[inline(always)]
    fn link(
        &mut self,
        line: u64,
        a: (u64, u32, &str),
        b: (u64, u32, &str),
        kind: LinkKind,
    ) -> Option<Link> {
        let (Some(pa), Some(pb)) = (self.pos(a.0, line, a.1, a.2), self.pos(b.0, line, b.1, b.2))
        else {
            return None;
        };
        let (pa, pb, columns) = if self.reverse {
            (pb, pa, [b.1, a.1])
        } else {
            (pa, pb, [a.1, b.1])
        };
        Some(Link {
            a: pa,
            b: pb,
            kind,
            line,
            columns,
        })
    }

    /// A Pharaoh link `i-j`, `i?j` or `ipj` at column `here`; `None` (with an error) for
    /// anything else.
    #[inline]
    fn pharaoh_link(&mut self, line_no: u64, here: u32, tok: &str) -> Option<Link> {
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
            let msg = format!("expected a link like 3-4, 3?4 or 3p4, found '{tok}'");
            self.errors.push(self.error(line_no, here, msg));
            return None;
        };
        let kind = if sep == "-" {
            LinkKind::Sure
        } else {
            LinkKind::Possible
        };
        self.link(line_no, (a, here, tok), (b, here, tok), kind)
    }

    /// The sentence number and the two positions of a NAACL line; `None` after an error
    /// for each that is not a non-negative integer.
    #[inline]
    fn naacl_numbers(&mut self, line_no: u64, fields: &[&str], cols: &[u32]) -> Option<[u64; 3]> {
        let mut nums = [0u64; 3];
        let mut ok = true;
        for k in 0..3 {
            match fields[k].parse::<u64>() {
                Ok(v) => nums[k] = v,
                Err(_) => {
                    ok = false;
                    let msg = format!(
                        "expected a {} (a non-negative integer), found '{}'",
                        ["sentence number", "position", "position"][k],
                        fields[k]
                    );
                    self.errors.push(self.error(line_no, cols[k], msg));
                }
            }
        }
        ok.then_some(nums)
    }

    /// The kind of a NAACL link from its optional fields, as the WPT scorer reads them:
    /// S, P, or a confidence value (read as sure); `None` after an error for any other.
    #[inline]
    fn naacl_kind(&mut self, line_no: u64, fields: &[&str], cols: &[u32]) -> Option<LinkKind> {
        let mut kind = LinkKind::Sure;
        let mut ok = true;
        for (k, f) in fields.iter().enumerate().skip(3) {
            match *f {
                "S" => {}
                "P" => kind = LinkKind::Possible,
                x if k == 3 && x.parse::<f64>().is_ok() => {}
                x if k == 4 && x.parse::<f64>().is_ok() => {}
                x => {
                    ok = false;
                    let msg = format!("expected S, P or a confidence value, found '{x}'");
                    self.errors.push(
                        self.error(line_no, cols[k], msg)
                            .with_hint("sure links are tagged S, possible links P"),
                    );
                }
            }
        }
        ok.then_some(kind)
    }
}

/// The state of reading an alignment file's links, line by line.
struct LinkReader {
    cx: Context,
    sentences: BTreeMap<u64, Vec<Link>>,
    lines: u64,
    id_widths: BTreeMap<u64, u8>,
    mixed_ids: bool,
}

impl LinkReader {
    /// A Pharaoh line: the links of sentence `line_no` (none for an empty line).
    fn pharaoh_line(&mut self, line_no: u64, line: &str) {
        let links = self.sentences.entry(line_no).or_default();
        let fields: Vec<&str> = line.split_whitespace().collect();
        if looks_naacl(&fields) && !fields.iter().all(|t| is_pharaoh_token(t)) {
            let msg = format!("expected Pharaoh links like 3-4, found a NAACL line '{line}'");
            self.cx
                .errors
                .push(self.cx.error(line_no, 1, msg).with_hint(
                    "the formats of one file cannot be mixed (this file was read as Pharaoh)",
                ));
            return;
        }
        for (here, tok) in tokens(line) {
            if let Some(link) = self.cx.pharaoh_link(line_no, here, tok) {
                links.push(link);
            }
        }
    }

    /// A NAACL line: `sentence position position [S|P] [confidence]` (nothing when empty).
    fn naacl_line(&mut self, line_no: u64, line: &str) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() || !self.naacl_fields_ok(line_no, line, &fields) {
            return;
        }
        let cols: Vec<u32> = tokens(line).map(|(c, _)| c).collect();
        let nums = self.cx.naacl_numbers(line_no, &fields, &cols);
        let kind = self.cx.naacl_kind(line_no, &fields, &cols);
        let (Some(nums), Some(kind)) = (nums, kind) else {
            return;
        };
        if nums[0] == 0 {
            let msg = "expected a sentence number from 1, found 0".into();
            self.cx.errors.push(self.cx.error(line_no, 1, msg));
            return;
        }
        let a = (nums[1], cols[1], fields[1]);
        let b = (nums[2], cols[2], fields[2]);
        let Some(link) = self.cx.link(line_no, a, b, kind) else {
            return;
        };
        let width = fields[0].len().min(255) as u8;
        self.mixed_ids |= *self.id_widths.entry(nums[0]).or_insert(width) != width;
        self.sentences.entry(nums[0]).or_default().push(link);
    }

    /// Whether a non-empty NAACL line has no Pharaoh link and 3 to 5 fields (an error
    /// otherwise).
    #[inline]
    fn naacl_fields_ok(&mut self, line_no: u64, line: &str, fields: &[&str]) -> bool {
        if fields.iter().any(|t| is_pharaoh_token(t)) {
            let msg = format!(
                "expected 'sentence position position [S|P]', found Pharaoh links '{line}'"
            );
            self.cx
                .errors
                .push(self.cx.error(line_no, 1, msg).with_hint(
                    "the formats of one file cannot be mixed (this file was read as NAACL)",
                ));
            return false;
        }
        if fields.len() < 3 || fields.len() > 5 {
            let mut d = self.cx.error(
                line_no,
                1,
                format!(
                    "expected 'sentence position position [S|P] [confidence]' (3 to 5 fields), found {} field(s)",
                    fields.len()
                ),
            );
            if fields.iter().any(|t| is_pharaoh_token(t)) {
                d = d.with_hint("this looks like a Pharaoh line (i-j …): the formats of one file cannot be mixed");
            }
            self.cx.errors.push(d);
            return false;
        }
        true
    }
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
    fn bom_and_crlf_read_as_the_lf_file_with_one_warning() {
        for (lf, crlf) in [
            (
                "1 1 1 S\n1 2 0 P\n0002 1 1\n",
                "\u{feff}1 1 1 S\r\n1 2 0 P\r\n0002 1 1\r\n",
            ),
            ("0-0 1-1\n\n2?2\n", "0-0 1-1\r\n\r\n2?2\r\n"),
        ] {
            let (a, b) = (
                read(lf, AlignOptions::default()),
                read(crlf, AlignOptions::default()),
            );
            assert_eq!(a.format, b.format);
            assert_eq!(a.sentences, b.sentences, "{crlf:?}");
            assert_eq!(a.sentence_count(), b.sentence_count());
            assert_eq!(a.warnings.warning_count(), 0);
            assert_eq!(b.warnings.warning_count(), 1, "{crlf:?}");
        }
    }

    #[test]
    fn binary_input_is_one_error_saying_so() {
        for bytes in [&b"1 1 1 S\n\x00\x01\x02"[..], &b"0-0 \xff\xfe\n"[..]] {
            let e = read_alignments("t", bytes, AlignOptions::default()).unwrap_err();
            assert_eq!(e.diagnostics.len(), 1, "{e}");
            assert!(
                e.to_string()
                    .contains(": not a text file: expected an alignment file"),
                "{e}"
            );
        }
        let e =
            read_alignments("t", "1\tThe\tthe\n".as_bytes(), AlignOptions::default()).unwrap_err();
        assert!(
            e.to_string().starts_with("t:1:1: not an alignment file"),
            "{e}"
        );
        // errors beyond the limit are counted, not shown
        let text: String = (0..30).map(|i| format!("0-0 x{i}\n")).collect();
        let e = read_alignments("t", text.as_bytes(), AlignOptions::default()).unwrap_err();
        assert_eq!((e.diagnostics.len(), e.omitted), (ERROR_LIMIT, 20));
    }

    #[test]
    fn sentence_counts_and_spellings() {
        let p = read("0-0\n\n", AlignOptions::default());
        assert_eq!(p.sentence_count(), SentenceCount::Lines(2));
        assert_eq!(p.trailing_empty(), 1);
        let n = read("0001 1 1\n3 1 1\n0003 2 2\n", AlignOptions::default());
        assert_eq!(n.sentence_count(), SentenceCount::Highest(3));
        assert_eq!(n.id_widths[&1], 4);
        assert_eq!(n.id_widths[&3], 1);
        assert!(n.mixed_ids);
        assert_eq!(n.link_count(), 3);
        // links separated by tabs, as aer.py's split() reads them
        let t = read("0-0\t1-1  2-2\n", AlignOptions::default());
        assert_eq!(t.sentences[&1].len(), 3);
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
