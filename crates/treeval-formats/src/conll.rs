//! A streaming reader for the CoNLL family: CoNLL-U (v2), CoNLL-X / CoNLL-2007,
//! CoNLL-2009 and MaltTab (`.dp`, see [`malttab`]), recognised from the content.
//!
//! The shape follows BurntSushi's csv: a [`ReaderBuilder`], then a [`Reader`] whose
//! [`Reader::read_sentence`] fills a reusable [`Sentence`] and returns `Ok(false)` at the
//! end. Problems in the text never stop the reader at the first one: each is recorded as
//! a positioned [`Diagnostic`] (kept in [`Reader::diagnostics`]) and reading goes on, so
//! that a user sees every problem of a file in one run. Only I/O failures and an
//! unrecognisable format end reading early.

use std::io::BufRead;
use std::sync::Arc;

use crate::error::{Diagnostic, Diagnostics, Error, ErrorKind, Position};
use crate::input;
use crate::sentence::{
    parse_index, parse_positive, python_int, EmptyNode, MultiwordToken, Sentence, Span, Word,
};

pub mod malttab;

/// A member of the CoNLL family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// CoNLL-U (Universal Dependencies v2): 10 columns, comments, `3-4` and `5.1` lines.
    Conllu,
    /// CoNLL-X / CoNLL-2007: 10 columns, no comments.
    Conllx,
    /// CoNLL-2009: 14 or more columns (gold and predicted columns side by side).
    Conll09,
    /// MaltTab (`.dp`): 3 or 4 columns, FORM POS HEAD [DEPREL], no IDs, no comments.
    Malttab,
}

impl Format {
    /// The name shown in reports.
    pub fn name(self) -> &'static str {
        match self {
            Format::Conllu => "conllu",
            Format::Conllx => "conllx",
            Format::Conll09 => "conll09",
            Format::Malttab => "malttab",
        }
    }
}

/// Which CoNLL-2009 columns hold the tree: `HEAD`/`DEPREL`/`POS`/`LEMMA`/`FEAT` (gold; where
/// eval09.pl, the CoNLL-2009 scorer, reads the trees of both files) or
/// `PHEAD`/`PDEPREL`/`PPOS`/`PLEMMA`/`PFEAT` (the columns the format sets aside for predictions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conll09Columns {
    /// The gold columns.
    Gold,
    /// The predicted (`P…`) columns.
    Predicted,
}

/// Builder setters: `name(arg: Type) => field;` stores `arg` in `self.field` and returns
/// the builder (each with the doc comments written before it).
macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident($arg:ident: $ty:ty) => $field:ident;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(&mut self, $arg: $ty) -> &mut Self {
                self.$field = $arg;
                self
            }
        )*
    };
}

/// A reference scorer whose reading of CoNLL-U files a [`Reader`] follows
/// ([`ReaderBuilder::reference`]). Both read IDs, ranges and HEADs with Python's `int()`
/// (`01`, `+1` and ` 2 ` are numbers) and take the lines after a multiword-token range
/// `N-M` as the token's words whatever their IDs (numbered by their place); they differ in
/// what such a line may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reference {
    /// conll18_ud_eval.py (the CoNLL 2018 shared task): the `M - N + 1` lines after `N-M`
    /// are the token's words, an empty node's line (`3.1`) too.
    Conll18,
    /// udtools' udeval: the next `M - N + 1` lines that are not empty nodes are the
    /// token's words; an empty node's line among them is skipped, as everywhere.
    Udeval,
}

impl Reference {
    /// The scorer's name, as its users call it.
    pub fn name(self) -> &'static str {
        match self {
            Reference::Conll18 => "conll18_ud_eval.py",
            Reference::Udeval => "udeval",
        }
    }
}

/// Configures a [`Reader`].
#[derive(Debug, Clone)]
pub struct ReaderBuilder {
    format: Option<Format>,
    conll09: Conll09Columns,
    validate_deps: bool,
    reference: Option<Reference>,
    limit: usize,
}

impl Default for ReaderBuilder {
    fn default() -> Self {
        ReaderBuilder {
            format: None,
            conll09: Conll09Columns::Gold,
            validate_deps: true,
            reference: None,
            limit: 100,
        }
    }
}

impl ReaderBuilder {
    /// Defaults: format detected from the content, gold CoNLL-2009 columns, DEPS validated.
    pub fn new() -> Self {
        Self::default()
    }

    setters! {
        /// Force a format instead of detecting it.
        format(f: Option<Format>) => format;

        /// Which CoNLL-2009 columns to read.
        conll09_columns(c: Conll09Columns) => conll09;

        /// Check the syntax of DEPS (CoNLL-U) while reading.
        validate_deps(yes: bool) => validate_deps;

        /// Read and check lines only as the reference scorer `r` does (`None`, the default:
        /// as the CoNLL-U format says). With a reference, IDs, ranges and HEADs are read as
        /// Python's `int()` reads them, a multiword token's lines are its words whatever
        /// their IDs (see [`Reference`]), and DEPREL may be empty (by default an empty
        /// DEPREL is an error). In every mode an empty LEMMA, UPOS, XPOS, FEATS, DEPS or
        /// MISC is read as an empty value with one warning per column and file (the
        /// reference scorers read it so); an empty ID, FORM or HEAD is an error.
        reference(r: Option<Reference>) => reference;

        /// Keep at most this many diagnostics of each severity (the rest are counted).
        diagnostic_limit(n: usize) => limit;
    }

    /// A reader over `rdr`; `name` is the path shown in positions.
    pub fn from_reader<R: BufRead>(&self, name: &str, rdr: R) -> Reader<R> {
        Reader {
            rdr,
            path: Arc::from(name),
            format: self.format,
            conll09: self.conll09,
            validate_deps: self.validate_deps,
            reference: self.reference,
            conllu_name: name.ends_with(".conllu")
                || name.ends_with(".conllu.gz")
                || name.ends_with(".conllu.zst"),
            malttab_name: malttab::is_malttab_name(name),
            malttab_cols: 0,
            line_no: 0,
            index: 0,
            diags: Diagnostics::with_limit(self.limit),
            line_starts: Vec::new(),
            tabs: [0; MAX_COLS],
            ntabs: 0,
            crlf_lines: 0,
            first_crlf: 0,
            eof: false,
            seen_comment: false,
            sniffed: false,
            seen_data: false,
            bom: false,
            unterminated: false,
            last_line_start: 0,
            empty_fields: Vec::new(),
            single_word_ranges: None,
            reversed_ranges: None,
            members_left: 0,
            member: false,
        }
    }

    /// Open `path` (`-` = standard input; gzip and zstd decompressed).
    pub fn from_path(&self, path: &str) -> Result<Reader<input::Input>, Error> {
        let (rdr, _) = input::open(path)?;
        Ok(self.from_reader(path, rdr))
    }
}

/// A streaming reader of CoNLL sentences.
#[derive(Debug)]
pub struct Reader<R> {
    rdr: R,
    path: Arc<str>,
    format: Option<Format>,
    conll09: Conll09Columns,
    validate_deps: bool,
    reference: Option<Reference>,
    conllu_name: bool,
    /// The name says MaltTab (`.dp`): a first line starting with `#` is a word.
    malttab_name: bool,
    /// MaltTab: the first word line's columns (3 or 4; 0 before it).
    malttab_cols: usize,
    line_no: u64,
    index: u64,
    diags: Diagnostics,
    line_starts: Vec<(u32, u64)>,
    tabs: [usize; MAX_COLS],
    ntabs: usize,
    crlf_lines: u64,
    first_crlf: u64,
    eof: bool,
    seen_comment: bool,
    /// The first bytes were checked for NUL (a binary file).
    sniffed: bool,
    /// A word line was seen (the first one is checked for bracketed trees).
    seen_data: bool,
    /// The file starts with a UTF-8 byte-order mark.
    bom: bool,
    /// The last line read had no line end: the file ends in the middle of it.
    unterminated: bool,
    /// Where the last line read starts in the sentence's bytes.
    last_line_start: usize,
    /// Empty fields read as empty values: column, first line and column, count.
    empty_fields: Vec<(&'static str, u64, u32, u64)>,
    /// Multiword-token ranges of one word (`6-6`): the first one, its line, and how many.
    single_word_ranges: Option<(String, u64, u64)>,
    /// With a reference: reversed ranges (`2-1`), read as tokens without words; the first
    /// one, its line, and how many.
    reversed_ranges: Option<(String, u64, u64)>,
    /// With a reference: the lines still to be read as words of the last multiword token,
    /// whatever their IDs (the reference scorers take the `M - N + 1` lines after `N-M` as
    /// its words without looking at their IDs; udeval skips empty nodes among them).
    members_left: i64,
    /// The line being read is one of them.
    member: bool,
}

const MAX_COLS: usize = 16;

/// A bad ID in a data line: what was expected instead, and a hint.
type BadId = (String, Option<&'static str>);

enum LineKind {
    Blank,
    Comment,
    Data,
}

impl<R: BufRead> Reader<R> {
    /// The path shown in positions.
    pub fn path(&self) -> &Arc<str> {
        &self.path
    }

    /// The format, once known (after the first word line).
    pub fn format(&self) -> Option<Format> {
        self.format
    }

    /// Everything found so far: errors and warnings.
    pub fn diagnostics(&self) -> &Diagnostics {
        &self.diags
    }

    /// Take the diagnostics out of the reader.
    pub fn take_diagnostics(&mut self) -> Diagnostics {
        std::mem::take(&mut self.diags)
    }

    /// Lines read so far.
    pub fn line(&self) -> u64 {
        self.line_no
    }

    /// Sentences read so far.
    pub fn sentences_read(&self) -> u64 {
        self.index
    }

    /// Read the next sentence into `s`. `Ok(false)` at the end of the input.
    ///
    /// Problems in the text are recorded in [`Reader::diagnostics`] (and the sentence is
    /// marked with [`Sentence::has_errors`]); `Err` is only for I/O failures and for input
    /// whose format cannot be recognised.
    pub fn read_sentence(&mut self, s: &mut Sentence) -> Result<bool, Error> {
        s.clear();
        if self.eof {
            return Ok(false);
        }
        // Lines are appended as bytes straight into the sentence's buffer, parsed as
        // bytes, and the whole sentence is validated as UTF-8 once at the end.
        let mut bytes = std::mem::take(&mut s.buf).into_bytes();
        self.line_starts.clear();
        let r = self.read_lines(s, &mut bytes);
        self.set_text(s, bytes);
        if r.is_err() {
            s.clear();
        }
        r
    }

    /// Read lines into `s` until a blank line ends a sentence (true) or the input ends.
    fn read_lines(&mut self, s: &mut Sentence, bytes: &mut Vec<u8>) -> Result<bool, Error> {
        if !self.sniffed {
            self.sniffed = true;
            self.sniff_binary()?;
        }
        let mut expect_id: u32 = 1;
        self.members_left = 0;
        loop {
            let line_start = bytes.len();
            let Some(end) = self.next_line(bytes, line_start)? else {
                self.eof = true;
                self.check_last_token(s, bytes);
                return Ok(self.finish_at_eof(s, bytes));
            };
            match self.classify(&bytes[line_start..end]) {
                LineKind::Blank => {
                    if self.blank_line(s, bytes, line_start, end) {
                        self.check_last_token(s, bytes);
                        return Ok(true);
                    }
                }
                LineKind::Comment => self.comment_line(s, bytes, line_start, end),
                LineKind::Data => {
                    self.line_starts.push((line_start as u32, self.line_no));
                    if s.first_line == 0 {
                        s.first_line = self.line_no;
                    }
                    s.last_line = self.line_no;
                    self.data_line(s, bytes, line_start, end, &mut expect_id)?;
                }
            }
        }
    }

    /// Append the next line to `bytes` (it starts at `line_start`), count it, note a CR LF
    /// end and drop a byte-order mark. Returns where its content ends (before the line
    /// end), or `None` at the end of the input.
    #[inline]
    fn next_line(
        &mut self,
        bytes: &mut Vec<u8>,
        line_start: usize,
    ) -> Result<Option<usize>, Error> {
        let n = read_line(&mut self.rdr, bytes, &mut self.tabs, &mut self.ntabs)
            .map_err(|e| Error::io(&self.path, &e))?;
        if n == 0 {
            return Ok(None);
        }
        self.line_no += 1;
        // The newline stays in the buffer (outside the line's content), so that no
        // character can straddle two lines once the sentence is validated as UTF-8.
        let mut end = bytes.len();
        self.last_line_start = line_start;
        self.unterminated = true;
        if end > line_start && bytes[end - 1] == b'\n' {
            end -= 1;
            self.unterminated = false;
        }
        if end > line_start && bytes[end - 1] == b'\r' {
            end -= 1;
            self.crlf_lines += 1;
            if self.first_crlf == 0 {
                self.first_crlf = self.line_no;
            }
        }
        if self.line_no == 1 && bytes[line_start..end].starts_with(b"\xEF\xBB\xBF") {
            bytes.drain(line_start..line_start + 3);
            end -= 3;
            self.ntabs = tab_positions(&bytes[line_start..end], &mut self.tabs);
            // one warning per file, with the CR LF count, at the end
            self.bom = true;
        }
        Ok(Some(end))
    }

    /// A blank (or whitespace-only) line at `line_start..end`, dropped from `bytes`: true
    /// when it ends a sentence; comments without words are dropped with a warning, and a
    /// blank line after another is a warning.
    fn blank_line(
        &mut self,
        s: &mut Sentence,
        bytes: &mut Vec<u8>,
        line_start: usize,
        end: usize,
    ) -> bool {
        let whitespace_only = end > line_start;
        bytes.truncate(line_start);
        if whitespace_only {
            let pos = self.pos(1, s, bytes);
            self.diags.push(
                Diagnostic::warning(pos, ErrorKind::WhitespaceLine).with_hint(
                    "remove the spaces or tabs from this line; it is read as a sentence break",
                ),
            );
        }
        if !s.words.is_empty() || !s.empty.is_empty() || !s.mwts.is_empty() {
            self.index += 1;
            s.index = self.index;
            return true;
        }
        if !s.comments.is_empty() {
            let pos = self.pos(1, s, bytes);
            self.diags.push(
                Diagnostic::warning(pos, ErrorKind::EmptySentence).with_hint(
                    "these comment lines are ignored; a sentence needs at least one word line",
                ),
            );
            s.clear();
            bytes.clear();
            self.line_starts.clear();
            return false;
        }
        let pos = self.pos(1, s, bytes);
        let first = self.line_no == 1;
        self.diags.push(Diagnostic::warning(pos, ErrorKind::DoubleBlankLine).with_hint(if first {
            "the file starts with a blank line; remove it (blank lines only end sentences)"
        } else {
            "CoNLL files have exactly one blank line after each sentence; remove the extra one (it is ignored)"
        }));
        false
    }

    /// A comment line at `line_start..end`: kept with the sentence (an error inside one),
    /// and its value taken as the sentence's id when it is `# sent_id = …`.
    fn comment_line(&mut self, s: &mut Sentence, bytes: &[u8], line_start: usize, end: usize) {
        self.line_starts.push((line_start as u32, self.line_no));
        self.seen_comment = true;
        if !s.words.is_empty() || !s.mwts.is_empty() || !s.empty.is_empty() {
            let pos = self.pos(1, s, bytes);
            self.diags.push(
                Diagnostic::error(pos, ErrorKind::CommentInsideSentence)
                    .with_hint("a blank line is probably missing before this comment"),
            );
            s.has_errors = true;
        }
        if s.first_line == 0 {
            s.first_line = self.line_no;
        }
        let body = line_start + 1..end;
        s.comments.push(Span::new(body.clone()));
        if let Some(v) = sent_id_value(&bytes[body.clone()]) {
            let start = body.start + v.start;
            s.sent_id = Some(Span::new(start..body.start + v.end));
        }
    }

    /// Validate the sentence's bytes as UTF-8 and store them as its text. Invalid
    /// sequences are reported (one error per line) and replaced by '?' byte for byte, so
    /// that every span stays on a character boundary.
    fn set_text(&mut self, s: &mut Sentence, bytes: Vec<u8>) {
        let mut b = match String::from_utf8(bytes) {
            Ok(t) => {
                s.buf = t;
                return;
            }
            Err(e) => e.into_bytes(),
        };
        let mut from = 0;
        let mut last_line = 0;
        while let Err(e) = std::str::from_utf8(&b[from..]) {
            let bad = from + e.valid_up_to();
            let len = e.error_len().unwrap_or(b.len() - bad);
            let k = self
                .line_starts
                .partition_point(|&(off, _)| off as usize <= bad)
                .saturating_sub(1);
            let (off, line) = self
                .line_starts
                .get(k)
                .copied()
                .unwrap_or((0, self.line_no));
            if line != last_line {
                last_line = line;
                let col = String::from_utf8_lossy(&b[(off as usize).min(bad)..bad])
                    .chars()
                    .count() as u32
                    + 1;
                let index = if s.index > 0 { s.index } else { self.index + 1 };
                let pos = Position::new(self.path.clone(), line, col).in_sentence(index, None);
                self.diags.push(
                    Diagnostic::error(pos, ErrorKind::InvalidUtf8)
                        .with_hint("convert the file to UTF-8, e.g. `iconv -f LATIN1 -t UTF-8`"),
                );
            }
            for x in &mut b[bad..bad + len] {
                *x = b'?';
            }
            from = bad + len;
            s.has_errors = true;
        }
        match String::from_utf8(b) {
            Ok(t) => s.buf = t,
            // invariant: every invalid sequence was replaced above; stay safe regardless
            Err(_) => s.clear(),
        }
    }

    /// A position in the current sentence (its text is still bytes while reading).
    fn pos(&self, col: u32, s: &Sentence, bytes: &[u8]) -> Position {
        let id = s
            .sent_id
            .and_then(|sp| bytes.get(sp.start as usize..sp.end as usize))
            .map(|b| String::from_utf8_lossy(b).into_owned());
        Position::new(self.path.clone(), self.line_no, col)
            .in_sentence(self.index + 1, id.as_deref())
    }

    /// At the end of a sentence: an error when its last multiword token covers words past
    /// its last word (`1-5` in a sentence of 2 words; conll18_ud_eval.py then reads the
    /// blank line as a word and fails).
    fn check_last_token(&mut self, s: &mut Sentence, bytes: &[u8]) {
        let words = s.words.len() as u32;
        let Some(t) = s.mwts.last().filter(|t| t.last > words) else {
            return;
        };
        let found = String::from_utf8_lossy(&bytes[t.form.start as usize..t.form.end as usize])
            .into_owned();
        let kind = ErrorKind::Other(format!(
            "expected the multiword token '{found}' (words {} to {}) to end at or before the sentence's last word, {words}",
            t.first, t.last
        ));
        let pos = Position::new(self.path.clone(), t.line, 1);
        self.diags.push(Diagnostic::error(pos, kind).with_hint(
            "a multiword token's range N-M must name words of its sentence; a word line may be missing",
        ));
        s.has_errors = true;
    }

    /// The warning of a file cut in its last line, which it shows.
    fn ends_mid_line(&mut self, bytes: &[u8]) {
        let last = String::from_utf8_lossy(&bytes[self.last_line_start.min(bytes.len())..]);
        let d = crate::input::ends_mid_line(&self.path, self.line_no, &last);
        self.diags.push(d);
    }

    fn finish_at_eof(&mut self, s: &mut Sentence, bytes: &[u8]) -> bool {
        self.file_warnings();
        let has_nodes = !s.words.is_empty() || !s.empty.is_empty() || !s.mwts.is_empty();
        if has_nodes {
            // MaltTab files end without one as often as not (the PTB sample's do)
            if self.unterminated {
                self.ends_mid_line(bytes);
            } else if self.format != Some(Format::Malttab) {
                let pos = self.pos(1, s, bytes);
                self.diags.push(
                    Diagnostic::warning(pos, ErrorKind::MissingFinalBlankLine).with_hint(
                        "add an empty line at the end of the file (the last sentence is read anyway); if the file may be truncated (cut at this line), what followed it is not read",
                    ),
                );
            }
            self.index += 1;
            s.index = self.index;
            return true;
        }
        if !s.comments.is_empty() && self.unterminated {
            self.ends_mid_line(bytes);
            s.comments.clear();
            s.sent_id = None;
        } else if !s.comments.is_empty() {
            let pos = Position::new(self.path.clone(), self.line_no, 1);
            self.diags.push(
                Diagnostic::warning(pos, ErrorKind::EmptySentence)
                    .with_hint("comment lines at the end of the file are ignored; a file that ends with the comments of a sentence looks truncated (its words were cut off)"),
            );
            s.comments.clear();
            s.sent_id = None;
        }
        false
    }

    /// A NUL byte in the first buffer means a binary file (or UTF-16): stop at once,
    /// rather than report every line as malformed.
    fn sniff_binary(&mut self) -> Result<(), Error> {
        let head = loop {
            match self.rdr.fill_buf() {
                Ok(b) => break b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::io(&self.path, &e)),
            }
        };
        let Some(offset) = memchr::memchr(0, head) else {
            return Ok(());
        };
        let hint = if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
            "the file starts like UTF-16 text: convert it with `iconv -f UTF-16 -t UTF-8`"
        } else {
            "give the CoNLL text file (gzip and zstd files are read as they are)"
        };
        Err(Error::single(
            Diagnostic::error(
                Position::new(self.path.clone(), 0, 0),
                ErrorKind::NotText {
                    offset: offset as u64,
                },
            )
            .with_hint(hint),
        ))
    }

    /// The warnings kept for the end of the file: one per file for a byte-order mark and
    /// CR LF line ends, one per column for empty fields, one for ranges of one word.
    fn file_warnings(&mut self) {
        let crlf = std::mem::take(&mut self.crlf_lines);
        let bom = std::mem::take(&mut self.bom);
        if bom || crlf > 0 {
            let line = if bom { 1 } else { self.first_crlf };
            let kind = match (bom, crlf) {
                (true, 0) => ErrorKind::ByteOrderMark,
                (false, lines) => ErrorKind::CarriageReturn { lines },
                (true, lines) => ErrorKind::ByteOrderMarkAndCarriageReturn { lines },
            };
            let hint = if crlf > 0 {
                "convert the file with `dos2unix` (the numbers are those of the LF file)"
            } else {
                "save the file as UTF-8 without BOM (the BOM is skipped here, but other tools choke on it)"
            };
            self.diags.push(
                Diagnostic::warning(Position::new(self.path.clone(), line, 1), kind)
                    .with_hint(hint),
            );
        }
        for (column, line, col, lines) in std::mem::take(&mut self.empty_fields) {
            self.diags.push(
                Diagnostic::warning(
                    Position::new(self.path.clone(), line, col),
                    ErrorKind::EmptyFieldRead { column, lines },
                )
                .with_hint(
                    "write '_' for an empty value; the field is read as an empty value (not '_'), as conll18_ud_eval.py reads it",
                ),
            );
        }
        if let Some((found, line, lines)) = self.single_word_ranges.take() {
            self.diags.push(
                Diagnostic::warning(
                    Position::new(self.path.clone(), line, 1),
                    ErrorKind::SingleWordRange { found, lines },
                )
                .with_hint(
                    "read as conll18_ud_eval.py reads it: a multiword token of one word (its FORM is the token's text); drop the range line if the word is a token of its own",
                ),
            );
        }
        if let Some((found, line, lines)) = self.reversed_ranges.take() {
            let scorer = self
                .reference
                .map_or("the reference scorer", Reference::name);
            self.diags.push(
                Diagnostic::warning(
                    Position::new(self.path.clone(), line, 1),
                    ErrorKind::ReversedRange { found, lines },
                )
                .with_hint(format!(
                    "read as {scorer} reads it: a token without words (its FORM is part of the text, the lines after it are words of their own); the CoNLL-U format refuses it"
                )),
            );
        }
    }

    fn note_empty_field(&mut self, column: &'static str, col: u32) {
        match self.empty_fields.iter_mut().find(|x| x.0 == column) {
            Some(x) => x.3 += 1,
            None => self.empty_fields.push((column, self.line_no, col, 1)),
        }
    }

    fn detect(
        &mut self,
        cols: usize,
        line: &[u8],
        s: &Sentence,
        bytes: &[u8],
    ) -> Result<Format, Error> {
        let f = match cols {
            10 => {
                if self.seen_comment || self.conllu_name {
                    Format::Conllu
                } else {
                    Format::Conllx
                }
            }
            n if n >= 14 => Format::Conll09,
            3 | 4 => Format::Malttab,
            n => {
                let pos = self.pos(1, s, bytes);
                let mut d = Diagnostic::error(pos, ErrorKind::UnknownFormat { found: n });
                if let Some(h) = spaces_hint(&String::from_utf8_lossy(line), None) {
                    d = d.with_hint(h);
                }
                self.diags.push(d);
                let mut diags = std::mem::take(&mut self.diags);
                diags.push(Diagnostic::error(
                    Position::new(self.path.clone(), self.line_no, 1),
                    ErrorKind::Other(
                        "reading stopped: the format of this file could not be recognised".into(),
                    ),
                ));
                return Err(diags.into_result().err().unwrap_or(Error {
                    diagnostics: Vec::new(),
                    omitted: 0,
                }));
            }
        };
        self.format = Some(f);
        Ok(f)
    }

    fn error_at(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        col: u32,
        kind: ErrorKind,
        hint: Option<&str>,
    ) {
        let mut d = Diagnostic::error(self.pos(col, s, bytes), kind);
        if let Some(h) = hint {
            d = d.with_hint(h);
        }
        self.diags.push(d);
        s.has_errors = true;
    }

    /// What a line is. With a reference, the lines still due as a multiword token's words
    /// are data lines whatever they hold (the reference scorers read them as words, a
    /// blank line or a comment too, and check only their number of columns).
    #[inline]
    fn classify(&self, line: &[u8]) -> LineKind {
        if self.members_left > 0 && self.reference.is_some() {
            return LineKind::Data;
        }
        let kind = classify(line);
        // MaltTab has no comments: `#` is a word there (`#<TAB>#<TAB>34`)
        let malttab = match self.format {
            Some(f) => f == Format::Malttab,
            None => self.malttab_name || malttab::looks_like_word(line),
        };
        match kind {
            LineKind::Comment if malttab => LineKind::Data,
            k => k,
        }
    }

    /// A word, multiword-token or empty-node line at `line_start..line_end` of `bytes`.
    fn data_line(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        line_start: usize,
        line_end: usize,
        expect_id: &mut u32,
    ) -> Result<(), Error> {
        let line = &bytes[line_start..line_end];
        if !self.seen_data {
            self.seen_data = true;
            self.refuse_brackets(line)?;
        }
        let cols = self.ntabs + 1;
        let format = match self.format {
            Some(f) => f,
            None => self.detect(cols, line, s, bytes)?,
        };
        let (expected, exact) = match format {
            Format::Conllu | Format::Conllx => (10, true),
            Format::Conll09 => (14, false),
            Format::Malttab => {
                self.malttab_line(s, bytes, line_start, line.len(), expect_id);
                return Ok(());
            }
        };
        // tab positions were found while the line was read
        let f = Fields::new(line_start, line.len(), &self.tabs, self.ntabs);
        let id_text = &bytes[f.get(0)];
        self.member = self.members_left > 0 && self.is_member(id_text);
        self.members_left -= i64::from(self.member);
        if (exact && cols != expected) || (!exact && cols < expected) {
            self.column_count(s, bytes, line, expected, cols);
            // keep word numbering in step so that one bad line gives one error
            keep_numbering(s, id_text, line_start, self.line_no, expect_id);
            return Ok(());
        }
        let Some(k) = self.id_separator(id_text) else {
            self.word_line(s, bytes, &f, id_text, format, expect_id);
            return Ok(());
        };
        self.conllu_line(format);
        let (first, second) = (&id_text[..k], parse_positive(&id_text[k + 1..]));
        let read = if self.reference.is_some() {
            self.reference_id_line(s, bytes, &f, id_text, *expect_id)
        } else if id_text[k] == b'-' {
            let range = (parse_positive(first), second);
            self.token_line(s, &f, id_text, range, *expect_id)
        } else {
            let node = (parse_index(first), second);
            self.empty_node_line(s, bytes, &f, node, *expect_id)
        };
        if let Err((expected, hint)) = read {
            let found = String::from_utf8_lossy(id_text).into_owned();
            self.error_at(s, bytes, 1, ErrorKind::BadId { expected, found }, hint);
        }
        Ok(())
    }

    /// Whether a line with the ID `id_text`, read while words of a multiword token are
    /// expected, is one of them: with conll18_ud_eval.py every line is; udeval skips an
    /// empty node (a '.' in the ID) there as it does everywhere.
    #[inline]
    fn is_member(&self, id_text: &[u8]) -> bool {
        match self.reference {
            Some(Reference::Conll18) => true,
            Some(Reference::Udeval) => !id_text.contains(&b'.'),
            None => false,
        }
    }

    /// Where the ID of a multiword token (`-`) or an empty node (`.`) has its separator;
    /// `None` for a word's ID, and for every line of a multiword token's words with a
    /// reference.
    #[inline]
    fn id_separator(&self, id_text: &[u8]) -> Option<usize> {
        if self.member {
            None
        } else if self.reference.is_some() {
            // conll18_ud_eval.py and udeval: a '.' anywhere makes an empty node, then a '-' a token
            let dot = id_text.iter().position(|&c| c == b'.');
            dot.or_else(|| id_text.iter().position(|&c| c == b'-'))
        } else {
            id_text.iter().position(|&c| c == b'-' || c == b'.')
        }
    }

    /// With a reference, a multiword-token or empty-node line read as the reference scorer
    /// reads it: an empty node (a '.' in the ID) is skipped unread (kept when its ID is in
    /// sequence), and `N-M` (N and M as Python's `int()` reads them) makes the next
    /// `M - N + 1` lines (udeval: that are not empty nodes) the token's words, numbered
    /// from the next word's ID whatever their own IDs.
    fn reference_id_line(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        f: &Fields,
        id_text: &[u8],
        expect_id: u32,
    ) -> Result<(), BadId> {
        if id_text.contains(&b'.') {
            let (a, b) = id_text.split_at(id_text.iter().position(|&c| c == b'.').unwrap_or(0));
            let node = (parse_index(a), parse_positive(&b[1..]));
            // the references skip every empty node; one out of sequence is dropped here
            let _ = self.empty_node_line(s, bytes, f, node, expect_id);
            return Ok(());
        }
        let mut parts = id_text.split(|&c| c == b'-');
        let range = match (parts.next(), parts.next(), parts.next()) {
            (Some(a), Some(b), None) => python_int(a).zip(python_int(b)),
            _ => None,
        };
        let Some((a, b)) = range else {
            return Err(("N-M with M >= N (a multiword token)".into(), None));
        };
        // a reversed range (M < N) is a token without words, as the references read it:
        // their loop over range(N, M + 1) reads no line
        let words = b.saturating_sub(a).saturating_add(1).max(0);
        let last = i64::from(expect_id)
            .saturating_add(words - 1)
            .clamp(0, i64::from(u32::MAX)) as u32;
        if words == 1 {
            self.note_single_word_range(id_text);
        } else if words == 0 {
            note_range(&mut self.reversed_ranges, id_text, self.line_no);
        }
        self.members_left = words;
        s.mwts.push(MultiwordToken {
            first: expect_id,
            last,
            line: self.line_no,
            form: f.span(1),
            misc: f.span(9.min(f.cols - 1)),
        });
        Ok(())
    }

    /// The first word line: no CoNLL line starts with '(' (the ID is a number), so a line
    /// that does is a constituency tree, and reading stops.
    fn refuse_brackets(&self, line: &[u8]) -> Result<(), Error> {
        if self.ntabs == 0 && line.first() == Some(&b'(') {
            return Err(Error::single(
                Diagnostic::error(
                    Position::new(self.path.clone(), self.line_no, 1),
                    ErrorKind::LooksLikeBrackets,
                )
                .with_hint("score constituency trees with `treeval brackets` (or `treeval ted`)"),
            ));
        }
        Ok(())
    }

    /// The error for a line of `cols` columns where the format has `expected`.
    fn column_count(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        line: &[u8],
        expected: usize,
        cols: usize,
    ) {
        let text = String::from_utf8_lossy(line);
        let hint = match spaces_hint(&text, Some(expected)) {
            Some(h) => h,
            None if self.malttab_name && matches!(cols, 3 | 4) => {
                "the file is MaltTab (FORM, POS, HEAD [, DEPREL]), which this command does not read: `treeval ud` reads CoNLL-U only (tokens, features); `treeval deps` reads MaltTab".into()
            }
            None if cols < expected && self.unterminated => {
                "the file ends in the middle of this line, without a line end: it looks truncated (cut while it was written or copied); the sentences before it are read".into()
            }
            None if cols < expected => {
                "a column is missing; empty values must be written '_'".into()
            }
            None => "there is an extra column, or a value contains a tab".into(),
        };
        let kind = ErrorKind::ColumnCount {
            expected,
            found: cols,
        };
        self.error_at(s, bytes, 1, kind, Some(&hint));
    }

    /// A line read as CoNLL-U only, `N-M` or `N.M` (a CoNLL-X file is CoNLL-U from here
    /// on).
    #[inline]
    fn conllu_line(&mut self, format: Format) {
        if format == Format::Conllx {
            self.format = Some(Format::Conllu);
        }
    }

    /// A multiword-token line `N-M` (`range` read from `id_text`); a bad range is `Err`.
    fn token_line(
        &mut self,
        s: &mut Sentence,
        f: &Fields,
        id_text: &[u8],
        range: (Option<u32>, Option<u32>),
        expect_id: u32,
    ) -> Result<(), BadId> {
        match range {
            (Some(a), Some(b)) if a == expect_id && b >= a => {
                if b == a {
                    self.note_single_word_range(id_text);
                }
                s.mwts.push(MultiwordToken {
                    first: a,
                    last: b,
                    line: self.line_no,
                    form: f.span(1),
                    misc: f.span(9.min(f.cols - 1)),
                });
                Ok(())
            }
            (Some(a), Some(b)) if b < a => Err((
                format!(
                    "{}-N with N >= {} (a multiword token starting at the next word)",
                    expect_id, expect_id
                ),
                Some("the range is reversed (M < N), which the CoNLL-U format refuses; `treeval ud --compat conll18` (or udeval) reads it as those scorers do, as a token without words"),
            )),
            _ => Err((
                format!(
                    "{}-N with N >= {} (a multiword token starting at the next word)",
                    expect_id, expect_id
                ),
                Some("a multiword token range must start at the next word's ID"),
            )),
        }
    }

    /// A range of one word (`6-6`): counted for one warning at the end of the file.
    fn note_single_word_range(&mut self, id_text: &[u8]) {
        note_range(&mut self.single_word_ranges, id_text, self.line_no);
    }

    /// An empty-node line `N.M` (`node` read from its ID); an ID out of sequence is `Err`.
    fn empty_node_line(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        f: &Fields,
        node: (Option<u32>, Option<u32>),
        expect_id: u32,
    ) -> Result<(), BadId> {
        let after = expect_id - 1;
        let next_sub = match s.empty.last() {
            Some(e) if e.after == after => e.sub + 1,
            _ => 1,
        };
        match node {
            (Some(a), Some(b)) if a == after && b == next_sub => {
                s.empty.push(EmptyNode {
                    after: a,
                    sub: b,
                    line: self.line_no,
                    line_start: f.line_start as u32,
                    form: f.span(1),
                    deps: f.span(8),
                    misc: f.span(9),
                });
                if self.validate_deps {
                    self.check_deps(s, bytes, f.get(8), f.line_start);
                }
                Ok(())
            }
            _ => Err((format!("{after}.{next_sub} (the next empty node)"), None)),
        }
    }

    /// An ordinary word line (its ID `id_text`).
    fn word_line(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        f: &Fields,
        id_text: &[u8],
        format: Format,
        expect_id: &mut u32,
    ) {
        let Some(id) = self.word_id(s, bytes, id_text, *expect_id) else {
            // take the line as the expected word, so one bad ID gives one error
            *expect_id += 1;
            return;
        };
        *expect_id = id + 1;
        let c = self.word_columns(format);
        let mut w = Word {
            id,
            line: self.line_no,
            line_start: f.line_start as u32,
            form: f.span(1),
            lemma: f.span(c.lemma),
            upos: f.span(c.upos),
            xpos: f.span(c.xpos),
            feats: f.span(c.feats),
            head: f.span(c.head),
            deprel: f.span(c.deprel),
            deps: c.deps.map(|i| f.span(i)).unwrap_or(f.empty()),
            misc: c.misc.map(|i| f.span(i)).unwrap_or(f.empty()),
            head_value: None,
        };
        self.check_empty_fields(s, bytes, f, format, &c);
        w.head_value = self.head_value(s, bytes, f.line_start, w.head, format);
        if self.validate_deps && c.deps.is_some() && self.format == Some(Format::Conllu) {
            self.check_deps(s, bytes, f.get(8), f.line_start);
        }
        s.words.push(w);
    }

    /// A word's ID, with an error when it is not the next one (`None` when it is no
    /// positive integer).
    #[inline]
    fn word_id(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        id_text: &[u8],
        expect_id: u32,
    ) -> Option<u32> {
        if self.reference.is_some() {
            return self.reference_word_id(s, bytes, id_text, expect_id);
        }
        let Some(id) = parse_positive(id_text) else {
            let padded =
                id_text.len() > 1 && id_text[0] == b'0' && id_text.iter().all(u8::is_ascii_digit);
            let hint = if id_text.is_empty() {
                Some("the line starts with a tab: the ID column is empty")
            } else if padded {
                Some("CoNLL-U IDs have no leading zeros; `treeval ud --compat conll18` (or udeval) reads them as the reference scorer does, as integers (01 = 1)")
            } else {
                None
            };
            let kind = ErrorKind::BadId {
                expected: expect_id.to_string(),
                found: String::from_utf8_lossy(id_text).into_owned(),
            };
            self.error_at(s, bytes, 1, kind, hint);
            return None;
        };
        if id != expect_id {
            let hint = if id == 1 {
                "a new sentence starts here: the blank line before it is probably missing"
            } else {
                "word IDs must be 1, 2, 3, … in each sentence"
            };
            let kind = ErrorKind::BadId {
                expected: expect_id.to_string(),
                found: id.to_string(),
            };
            self.error_at(s, bytes, 1, kind, Some(hint));
        }
        Some(id)
    }

    /// A word's ID as the reference scorers check it: Python's `int()` of it must be the next
    /// word's number (any ID inside a multiword token is). The word is numbered by its
    /// place in the sentence.
    fn reference_word_id(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        id_text: &[u8],
        expect_id: u32,
    ) -> Option<u32> {
        if self.member || python_int(id_text) == Some(i64::from(expect_id)) {
            return Some(expect_id);
        }
        let kind = ErrorKind::BadId {
            expected: expect_id.to_string(),
            found: String::from_utf8_lossy(id_text).into_owned(),
        };
        let hint = match self.reference {
            Some(Reference::Udeval) => "udeval reads an ID as Python's int() does: it must be the word's place in the sentence",
            _ => "conll18_ud_eval.py reads an ID as Python's int() does: it must be the word's place in the sentence",
        };
        self.error_at(s, bytes, 1, kind, Some(hint));
        None
    }

    /// Where a word's columns are in `format`.
    #[inline]
    fn word_columns(&self, format: Format) -> Columns {
        match format {
            Format::Conllu | Format::Conllx | Format::Malttab => Columns::CONLLU,
            Format::Conll09 => match self.conll09 {
                Conll09Columns::Gold => Columns::CONLL09_GOLD,
                Conll09Columns::Predicted => Columns::CONLL09_PREDICTED,
            },
        }
    }

    /// The empty fields of a word line: values read as empty, or errors.
    #[inline]
    fn check_empty_fields(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        f: &Fields,
        format: Format,
        c: &Columns,
    ) {
        let checks: &[(usize, &'static str)] = match format {
            Format::Conll09 => &[(1, "FORM"), (c.head, "HEAD"), (c.deprel, "DEPREL")],
            _ => &[
                (1, "FORM"),
                (2, "LEMMA"),
                (3, "UPOS"),
                (4, "XPOS"),
                (5, "FEATS"),
                (6, "HEAD"),
                (7, "DEPREL"),
                (8, "DEPS"),
                (9, "MISC"),
            ],
        };
        for &(i, name) in checks {
            let r = f.get(i);
            if r.is_empty() {
                self.empty_field(s, bytes, f.line_start, r.start, name);
            }
        }
    }

    /// The empty field `name` at byte `at`: what the reference scorers read as an empty
    /// value (they reject an empty ID, FORM or HEAD, but not the FORM of a multiword
    /// token's word; DEPREL only in their mode) is
    /// noted for one warning, anything else is an error.
    fn empty_field(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        line_start: usize,
        at: usize,
        name: &'static str,
    ) {
        let col = column(bytes, line_start, at);
        let readable = match name {
            // the scorers check the FORM of a token, not of a multiword token's words
            "FORM" => self.reference.is_some() && self.member,
            "HEAD" => false,
            "DEPREL" => self.reference.is_some(),
            _ => true,
        };
        if readable {
            self.note_empty_field(name, col);
            return;
        }
        self.error_at(
            s,
            bytes,
            col,
            ErrorKind::EmptyField { column: name },
            Some("write '_' for an empty value (two tabs in a row leave a field empty)"),
        );
    }

    /// The value of the HEAD at `head`: `None` for `_`, and for an empty or malformed
    /// HEAD (with an error for a malformed one).
    #[inline]
    fn head_value(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        line_start: usize,
        head: Span,
        format: Format,
    ) -> Option<u32> {
        let head_text = &bytes[head.start as usize..head.end as usize];
        if head_text == b"_" {
            return None;
        }
        if let Some(v) = parse_index(head_text) {
            return Some(v);
        }
        if self.reference.is_some() {
            // conll18_ud_eval.py and udeval: Python's int() of the HEAD, not negative
            if let Some(v) = python_int(head_text).filter(|&v| v >= 0) {
                return Some(v.min(i64::from(u32::MAX)) as u32);
            }
        }
        if !head_text.is_empty() {
            let col = column(bytes, line_start, head.start as usize);
            self.bad_head(s, bytes, head_text, col, format);
        }
        None
    }

    /// The error for a HEAD `head_text` (at column `col`) that is neither `_` nor a
    /// non-negative integer.
    fn bad_head(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        head_text: &[u8],
        col: u32,
        format: Format,
    ) {
        let found = String::from_utf8_lossy(head_text).into_owned();
        let hint = if found.len() > 1
            && found.starts_with('0')
            && found.bytes().all(|b| b.is_ascii_digit())
        {
            Some("write HEAD without leading zeros")
        } else if format == Format::Conll09 {
            Some("check --conll09-columns: the HEAD/PHEAD columns may be swapped")
        } else if format == Format::Malttab {
            Some("MaltTab lines are FORM, POS, HEAD and an optional DEPREL: HEAD is the third column")
        } else {
            None
        };
        self.error_at(s, bytes, col, ErrorKind::BadHead { found }, hint);
    }

    fn check_deps(
        &mut self,
        s: &mut Sentence,
        bytes: &[u8],
        r: std::ops::Range<usize>,
        line_start: usize,
    ) {
        let text = &bytes[r.clone()];
        if let Some(bad) = bad_deps_item(text) {
            let found = String::from_utf8_lossy(bad).into_owned();
            let col = column(bytes, line_start, r.start);
            self.error_at(
                s,
                bytes,
                col,
                ErrorKind::BadDeps { found },
                Some("each DEPS item is HEAD:DEPREL, e.g. '3:nsubj|5.1:obj'"),
            );
        }
    }

    /// An iterator over owned sentences (convenient; [`Reader::read_sentence`] is faster).
    pub fn sentences(&mut self) -> Sentences<'_, R> {
        Sentences { rdr: self }
    }
}

/// Iterator returned by [`Reader::sentences`].
#[derive(Debug)]
pub struct Sentences<'r, R> {
    rdr: &'r mut Reader<R>,
}

impl<R: BufRead> Iterator for Sentences<'_, R> {
    type Item = Result<Sentence, Error>;
    fn next(&mut self) -> Option<Self::Item> {
        let mut s = Sentence::new();
        match self.rdr.read_sentence(&mut s) {
            Ok(true) => Some(Ok(s)),
            Ok(false) => None,
            Err(e) => Some(Err(e)),
        }
    }
}

/// The fields of a data line: field `i` spans `bounds[i]..bounds[i + 1] - 1` in the
/// sentence's bytes.
#[derive(Debug)]
struct Fields {
    /// Where the line starts in the sentence's bytes.
    line_start: usize,
    /// How many columns the line has.
    cols: usize,
    bounds: [usize; MAX_COLS + 1],
}

impl Fields {
    /// The fields of the line of `len` bytes at `line_start`, from its tab positions.
    #[inline]
    fn new(line_start: usize, len: usize, tabs: &[usize; MAX_COLS], ntabs: usize) -> Self {
        let mut bounds = [line_start + len + 1; MAX_COLS + 1];
        bounds[0] = line_start;
        for (b, &t) in bounds[1..].iter_mut().zip(&tabs[..ntabs.min(MAX_COLS)]) {
            *b = line_start + t + 1;
        }
        Fields {
            line_start,
            cols: ntabs + 1,
            bounds,
        }
    }

    /// Field `i`'s byte range (only fields below the column count are taken: the column
    /// count is checked first).
    #[inline]
    fn get(&self, i: usize) -> std::ops::Range<usize> {
        self.bounds[i]..self.bounds[i + 1] - 1
    }

    /// Field `i` as a span.
    #[inline]
    fn span(&self, i: usize) -> Span {
        Span::new(self.get(i))
    }

    /// An empty span at the start of the line (for a column the format does not have).
    #[inline]
    fn empty(&self) -> Span {
        Span::new(self.line_start..self.line_start)
    }
}

/// Where a word's columns are (field indices); DEPS and MISC only in CoNLL-U and CoNLL-X.
#[derive(Debug, Clone, Copy)]
struct Columns {
    lemma: usize,
    upos: usize,
    xpos: usize,
    feats: usize,
    head: usize,
    deprel: usize,
    deps: Option<usize>,
    misc: Option<usize>,
}

impl Columns {
    /// CoNLL-U and CoNLL-X.
    const CONLLU: Columns = Columns::new([2, 3, 4, 5, 6, 7], Some(8), Some(9));
    /// CoNLL-2009, gold columns.
    const CONLL09_GOLD: Columns = Columns::new([2, 4, 4, 6, 8, 10], None, None);
    /// CoNLL-2009, predicted columns.
    const CONLL09_PREDICTED: Columns = Columns::new([3, 5, 5, 7, 9, 11], None, None);

    /// LEMMA, UPOS, XPOS, FEATS, HEAD and DEPREL, then DEPS and MISC.
    const fn new(c: [usize; 6], deps: Option<usize>, misc: Option<usize>) -> Self {
        Columns {
            lemma: c[0],
            upos: c[1],
            xpos: c[2],
            feats: c[3],
            head: c[4],
            deprel: c[5],
            deps,
            misc,
        }
    }
}

/// After a line with the wrong number of columns: a line whose ID (up to the first space
/// or tab) is the next word's still counts as that word, with empty fields, so that word
/// numbering stays in step.
fn keep_numbering(
    s: &mut Sentence,
    id_text: &[u8],
    line_start: usize,
    line_no: u64,
    expect_id: &mut u32,
) {
    let first = id_text
        .split(|&b| b == b' ' || b == b'\t')
        .next()
        .unwrap_or(b"");
    if let Some(v) = parse_positive(first) {
        if v == *expect_id {
            s.words.push(Word::placeholder(v, line_no, line_start));
            *expect_id += 1;
        }
    }
}

/// The 1-based column (in characters) of byte `at` of the line at `line_start`.
#[inline]
fn column(bytes: &[u8], line_start: usize, at: usize) -> u32 {
    String::from_utf8_lossy(&bytes[line_start..at])
        .chars()
        .count() as u32
        + 1
}

/// Append one line (with its `\n`, if any) to `out` and note the positions of its tabs
/// (relative to the line start) in `tabs`/`ntabs`; returns the bytes read (0 at the end).
/// One SWAR pass over the read buffer finds both the newline and the tabs.
fn read_line<R: BufRead>(
    rdr: &mut R,
    out: &mut Vec<u8>,
    tabs: &mut [usize; MAX_COLS],
    ntabs: &mut usize,
) -> std::io::Result<usize> {
    *ntabs = 0;
    let mut total = 0;
    loop {
        let buf = match rdr.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(total);
        }
        match scan_line(buf, total, tabs, ntabs) {
            Some(i) => {
                out.extend_from_slice(&buf[..=i]);
                rdr.consume(i + 1);
                return Ok(total + i + 1);
            }
            None => {
                let n = buf.len();
                out.extend_from_slice(buf);
                rdr.consume(n);
                total += n;
            }
        }
    }
}

const LO7: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// Bit 7 set in exactly the bytes of `w` equal to the byte repeated in `pattern`.
#[inline(always)]
fn byte_eq_mask(w: u64, pattern: u64) -> u64 {
    let x = w ^ pattern;
    !(((x & LO7).wrapping_add(LO7)) | x | LO7)
}

#[inline(always)]
fn push_tab(tabs: &mut [usize; MAX_COLS], ntabs: &mut usize, p: usize) {
    if *ntabs < MAX_COLS {
        tabs[*ntabs] = p;
    }
    *ntabs += 1;
}

/// Record the tabs marked (bit 7 of their byte) in `t`, a word of 8 bytes from `at`.
#[inline(always)]
fn push_tabs(tabs: &mut [usize; MAX_COLS], ntabs: &mut usize, mut t: u64, at: usize) {
    while t != 0 {
        push_tab(tabs, ntabs, at + (t.trailing_zeros() / 8) as usize);
        t &= t - 1;
    }
}

/// Scan `buf` up to its first `\n`, recording tabs at `base + offset`. Returns the
/// offset of the newline, if `buf` has one.
#[inline]
fn scan_line(
    buf: &[u8],
    base: usize,
    tabs: &mut [usize; MAX_COLS],
    ntabs: &mut usize,
) -> Option<usize> {
    const TAB: u64 = 0x0909_0909_0909_0909;
    const NL: u64 = 0x0a0a_0a0a_0a0a_0a0a;
    let chunks = buf.chunks_exact(8);
    let tail = buf.len() - chunks.remainder().len();
    for (k, c) in chunks.enumerate() {
        let Ok(b) = <[u8; 8]>::try_from(c) else {
            continue;
        };
        let w = u64::from_le_bytes(b);
        let nl = byte_eq_mask(w, NL);
        let mut t = byte_eq_mask(w, TAB);
        // The loop recording tabs is inlined in both branches on purpose: merging the two
        // branches measurably slowed the reader (callgrind: +8% to +30% instructions overall).
        if nl != 0 {
            // keep only the tabs before the newline
            let at = (nl.trailing_zeros() / 8) as usize;
            t &= (1u64 << (at * 8)).wrapping_sub(1);
            push_tabs(tabs, ntabs, t, base + k * 8);
            return Some(k * 8 + at);
        }
        push_tabs(tabs, ntabs, t, base + k * 8);
    }
    for (i, &b) in buf[tail..].iter().enumerate() {
        match b {
            b'\n' => return Some(tail + i),
            b'\t' => push_tab(tabs, ntabs, base + tail + i),
            _ => {}
        }
    }
    None
}

/// The value of a `sent_id = …` comment body (as a range into it), if this is one.
fn sent_id_value(comment: &[u8]) -> Option<std::ops::Range<usize>> {
    let ws = |b: &u8| *b == b' ' || *b == b'\t';
    let mut i = comment.iter().position(|b| !ws(b))?;
    if !comment[i..].starts_with(b"sent_id") {
        return None;
    }
    i += 7;
    while i < comment.len() && ws(&comment[i]) {
        i += 1;
    }
    if comment.get(i) != Some(&b'=') {
        return None;
    }
    i += 1;
    let start = i + comment[i..].iter().position(|b| !ws(b))?;
    let end = comment.len() - comment.iter().rev().position(|b| !ws(b)).unwrap_or(0);
    (start < end).then_some(start..end)
}

/// The first malformed item of a DEPS field, if any (`_` is an empty list). Each item is
/// `N:rel` or `N.M:rel` (N without leading zeros, M positive), joined by `|`.
fn bad_deps_item(field: &[u8]) -> Option<&[u8]> {
    if field == b"_" || field.is_empty() {
        return None;
    }
    let mut start = 0;
    while start <= field.len() {
        let end = memchr::memchr(b'|', &field[start..]).map_or(field.len(), |k| start + k);
        let item = &field[start..end];
        if !deps_item_ok(item) {
            return Some(item);
        }
        start = end + 1;
    }
    None
}

fn deps_item_ok(item: &[u8]) -> bool {
    // head: digits [ '.' digits ], then ':' and a non-empty relation
    let digits = |from: usize| {
        item[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let n = digits(0);
    if n == 0 || (n > 1 && item[0] == b'0') || n > 9 {
        return false;
    }
    let mut i = n;
    if item.get(i) == Some(&b'.') {
        let m = digits(i + 1);
        if parse_positive(&item[i + 1..i + 1 + m]).is_none() {
            return false;
        }
        i += 1 + m;
    }
    item.get(i) == Some(&b':') && item.len() > i + 1
}

/// Positions of the tabs in `line` (the first [`MAX_COLS`] kept in `out`); returns how
/// many there are. Eight bytes at a time: see [`byte_eq_mask`].
fn tab_positions(line: &[u8], out: &mut [usize; MAX_COLS]) -> usize {
    let mut n = 0;
    // a line has no newline: scan_line records every tab
    let _ = scan_line(line, 0, out, &mut n);
    n
}

/// A range of a kind counted for one warning at the end of the file: the first one (its
/// text and line) and how many.
fn note_range(slot: &mut Option<(String, u64, u64)>, id_text: &[u8], line: u64) {
    match slot {
        Some(x) => x.2 += 1,
        None => *slot = Some((String::from_utf8_lossy(id_text).into_owned(), line, 1)),
    }
}

fn classify(line: &[u8]) -> LineKind {
    if line.iter().all(|&c| c == b' ' || c == b'\t') {
        LineKind::Blank
    } else if line[0] == b'#' {
        LineKind::Comment
    } else {
        LineKind::Data
    }
}

/// A hint when a line looks space-separated instead of tab-separated.
fn spaces_hint(line: &str, expected: Option<usize>) -> Option<String> {
    let ws = line.split_whitespace().count();
    let tabs = line.matches('\t').count();
    let fits = match expected {
        Some(n) => ws == n || (n == 14 && ws >= 14),
        None => ws == 3 || ws == 4 || ws == 10 || ws >= 14,
    };
    if fits && line.contains(' ') {
        Some(if tabs == 0 {
            format!("the line has {ws} space-separated fields: columns must be separated by tabs, not spaces")
        } else {
            format!("some columns are separated by spaces: splitting on any whitespace gives {ws} fields; use tabs only")
        })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sentence::Head;

    fn read(text: &str) -> (Vec<Sentence>, Diagnostics, Option<Format>) {
        let mut r = ReaderBuilder::new().from_reader("t.conllu", text.as_bytes());
        let mut out = Vec::new();
        let mut s = Sentence::new();
        while r.read_sentence(&mut s).unwrap() {
            out.push(s.clone());
        }
        let f = r.format();
        (out, r.take_diagnostics(), f)
    }

    const TWO: &str = "# sent_id = a\n# text = x y\n1\tx\tx\tX\tX\t_\t0\troot\t0:root\t_\n2-3\tyz\t_\t_\t_\t_\t_\t_\t_\t_\n2\ty\ty\tY\tY\t_\t1\tdep\t1:dep\t_\n3\tz\tz\tZ\tZ\t_\t1\tdep\t1:dep\t_\n3.1\te\te\tE\tE\t_\t_\t_\t1:conj\t_\n\n1\tw\tw\tW\tW\t_\t0\troot\t0:root\t_\n\n";

    #[test]
    fn reads_words_tokens_and_empty_nodes() {
        let (s, d, f) = read(TWO);
        assert_eq!(d.error_count(), 0, "{:?}", d.iter().collect::<Vec<_>>());
        assert_eq!(d.warning_count(), 0);
        assert_eq!(f, Some(Format::Conllu));
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].len(), 3);
        assert_eq!(s[0].sent_id(), Some("a"));
        assert_eq!(s[0].multiword_tokens().len(), 1);
        assert_eq!(s[0].empty_nodes().len(), 1);
        let w = &s[0].words()[1];
        assert_eq!(s[0].form(w), "y");
        assert_eq!(s[0].deprel(w), "dep");
        assert_eq!(w.head().index(), Some(1));
        assert_eq!(s[0].first_line(), 1);
        assert_eq!(s[0].last_line(), 7);
        assert_eq!(s[1].index(), 2);
        assert_eq!(s[1].first_line(), 9);
    }

    /// The first sentence of `text` read as the file `name`, and the format found.
    fn first(name: &str, text: &str) -> (Sentence, Option<Format>) {
        let mut r = ReaderBuilder::new().from_reader(name, text.as_bytes());
        let mut s = Sentence::new();
        assert!(r.read_sentence(&mut s).unwrap());
        (s, r.format())
    }

    #[test]
    fn conllx_detected_without_comments() {
        let text = "1\ta\t_\tX\tX\t_\t0\tROOT\t_\t_\n\n";
        assert_eq!(first("t.conll", text).1, Some(Format::Conllx));
    }

    #[test]
    fn conll09_columns() {
        let line = "1\tdog\tdog\tdog\tNN\tNNS\t_\t_\t0\t2\tROOT\tSBJ\t_\t_\n\n";
        let (mut s, format) = first("t", line);
        assert_eq!(format, Some(Format::Conll09));
        let w = s.words()[0];
        assert_eq!(w.head().index(), Some(0));
        assert_eq!(s.deprel(&w), "ROOT");
        assert_eq!(s.upos(&w), "NN");
        let mut r = ReaderBuilder::new()
            .conll09_columns(Conll09Columns::Predicted)
            .from_reader("t", line.as_bytes());
        assert!(r.read_sentence(&mut s).unwrap());
        let w = s.words()[0];
        assert_eq!(w.head().index(), Some(2));
        assert_eq!(s.deprel(&w), "SBJ");
        assert_eq!(s.xpos(&w), "NNS");
    }

    #[test]
    fn bom_crlf_and_missing_final_blank_line_are_warnings() {
        let text = "\u{feff}1\ta\t_\tX\tX\t_\t0\troot\t_\t_\r\n";
        let (s, d, _) = read(text);
        assert_eq!(s.len(), 1);
        assert_eq!(d.error_count(), 0);
        let kinds: Vec<_> = d.iter().map(|d| d.kind.clone()).collect();
        // one warning for both, naming the file
        assert!(kinds.contains(&ErrorKind::ByteOrderMarkAndCarriageReturn { lines: 1 }));
        assert!(!kinds.contains(&ErrorKind::ByteOrderMark));
        assert!(kinds.contains(&ErrorKind::MissingFinalBlankLine));
        assert!(d.iter().all(|x| x.to_string().starts_with("t.conllu:")));
    }

    /// Every sentence's fields, for comparing two readings of the same text.
    fn fields(text: &[u8], name: &str) -> (Vec<Vec<String>>, Vec<ErrorKind>) {
        let mut r = ReaderBuilder::new().from_reader(name, text);
        let mut s = Sentence::new();
        let mut out = Vec::new();
        while r.read_sentence(&mut s).unwrap() {
            let mut v = Vec::new();
            for w in s.words() {
                v.push(format!(
                    "{}|{}|{}|{}|{}|{}|{:?}|{}|{}|{}",
                    w.id,
                    s.form(w),
                    s.lemma(w),
                    s.upos(w),
                    s.xpos(w),
                    s.feats(w),
                    w.head(),
                    s.deprel(w),
                    s.deps(w),
                    s.misc(w)
                ));
            }
            for t in s.multiword_tokens() {
                v.push(format!("{}-{} {}", t.first, t.last, s.mwt_form(t)));
            }
            out.push(v);
        }
        let kinds = r.diagnostics().iter().map(|d| d.kind.clone()).collect();
        (out, kinds)
    }

    #[test]
    fn bom_and_crlf_read_as_the_lf_file_with_one_warning() {
        let lf = TWO.as_bytes().to_vec();
        let crlf = TWO.replace('\n', "\r\n").into_bytes();
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(&lf);
        let mut both = b"\xEF\xBB\xBF".to_vec();
        both.extend_from_slice(&crlf);
        let (want, none) = fields(&lf, "lf.conllu");
        assert!(none.is_empty(), "{none:?}");
        for (text, kind) in [
            (crlf, ErrorKind::CarriageReturn { lines: 10 }),
            (bom, ErrorKind::ByteOrderMark),
            (
                both,
                ErrorKind::ByteOrderMarkAndCarriageReturn { lines: 10 },
            ),
        ] {
            let (got, kinds) = fields(&text, "x.conllu");
            assert_eq!(got, want);
            assert_eq!(kinds, vec![kind]);
        }
        // CoNLL-X and CoNLL-2009 likewise
        for text in [
            "1\ta\t_\tX\tX\t_\t0\tROOT\t_\t_\n2\tb\t_\tX\tX\t_\t1\tdep\t_\t_\n\n",
            "1\tdog\tdog\tdog\tNN\tNNS\t_\t_\t0\t2\tROOT\tSBJ\t_\t_\n\n",
        ] {
            let (want, none) = fields(text.as_bytes(), "t.conll");
            assert!(none.is_empty());
            let mut b = b"\xEF\xBB\xBF".to_vec();
            b.extend_from_slice(text.replace('\n', "\r\n").as_bytes());
            let (got, kinds) = fields(&b, "t.conll");
            assert_eq!(got, want);
            assert_eq!(kinds.len(), 1, "{kinds:?}");
        }
    }

    #[test]
    fn empty_fields_are_read_as_empty_values_with_one_warning_per_column() {
        let text = "1\ta\t\tX\t_\t\t0\troot\t\t\n2\tb\t\tX\t_\t\t1\tdep\t_\t_\n\n";
        let (s, d, _) = read(text);
        assert_eq!(d.error_count(), 0, "{:?}", d.iter().collect::<Vec<_>>());
        assert_eq!(s[0].lemma(&s[0].words()[0]), "");
        assert_eq!(s[0].feats(&s[0].words()[1]), "");
        let w: Vec<String> = d.iter().map(|x| x.to_string()).collect();
        assert_eq!(w.len(), 4, "{w:?}");
        assert!(w[0].starts_with("t.conllu:1:5: expected '_' for an empty value in column LEMMA, found an empty field on 2 line(s)"), "{}", w[0]);
        assert!(w
            .iter()
            .any(|x| x.contains("column FEATS") && x.contains("on 2 line(s)")));
        assert!(w
            .iter()
            .any(|x| x.contains("column DEPS") && x.contains("on 1 line(s)")));
        assert!(w.iter().any(|x| x.contains("column MISC")));
        // FORM, HEAD and (outside the reference scorers' checks) DEPREL stay errors
        for (text, column) in [
            ("1\t\ta\tX\t_\t_\t0\troot\t_\t_\n\n", "FORM"),
            ("1\ta\ta\tX\t_\t_\t\troot\t_\t_\n\n", "HEAD"),
            ("1\ta\ta\tX\t_\t_\t0\t\t_\t_\n\n", "DEPREL"),
        ] {
            let (_, d, _) = read(text);
            assert_eq!(d.error_count(), 1, "{column}");
            assert_eq!(
                d.iter().next().unwrap().kind,
                ErrorKind::EmptyField { column }
            );
        }
        let text = "1\ta\ta\tX\t_\t_\t0\t\t_\t_\n\n";
        let mut r = ReaderBuilder::new()
            .reference(Some(Reference::Conll18))
            .from_reader("t.conllu", text.as_bytes());
        let mut s = Sentence::new();
        assert!(r.read_sentence(&mut s).unwrap());
        assert_eq!(r.diagnostics().error_count(), 0);
        assert_eq!(s.deprel(&s.words()[0]), "");
    }

    #[test]
    fn a_range_of_one_word_is_a_multiword_token_of_one_word() {
        let text = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2-2\tbc\t_\t_\t_\t_\t_\t_\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n3-3\td\t_\t_\t_\t_\t_\t_\t_\t_\n3\td\td\tX\t_\t_\t1\tdep\t_\t_\n\n";
        let (s, d, _) = read(text);
        assert_eq!(d.error_count(), 0, "{:?}", d.iter().collect::<Vec<_>>());
        let t = s[0].multiword_tokens();
        assert_eq!(t.len(), 2);
        assert_eq!((t[0].first, t[0].last, s[0].mwt_form(&t[0])), (2, 2, "bc"));
        let w: Vec<String> = d.iter().map(|x| x.to_string()).collect();
        assert_eq!(w.len(), 1);
        assert!(w[0].starts_with("t.conllu:2:1: expected a multiword token range N-M with M > N, found '2-2' (2 such range(s)"), "{}", w[0]);
    }

    #[test]
    fn a_reversed_range_is_a_token_without_words_with_a_reference_and_an_error_without() {
        let text = "1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n3-2\tbc\t_\t_\t_\t_\t_\t_\t_\t_\n2\tb\t_\t_\t_\t_\t1\tdep\t_\t_\n\n";
        for r in [Reference::Conll18, Reference::Udeval] {
            let mut rd = ReaderBuilder::new()
                .reference(Some(r))
                .from_reader("t.conllu", text.as_bytes());
            let mut s = Sentence::new();
            assert!(rd.read_sentence(&mut s).unwrap());
            assert!(!rd.read_sentence(&mut Sentence::new()).unwrap());
            let d: Vec<String> = rd.diagnostics().iter().map(|x| x.to_string()).collect();
            assert_eq!(d.len(), 1, "{d:?}");
            let (message, hint) = d[0].split_once("\n  hint: ").unwrap();
            assert_eq!(message, "t.conllu:2:1: expected a multiword token range N-M with M >= N, found '3-2' (1 such range(s) in the file)");
            assert!(
                hint.starts_with(&format!(
                    "read as {} reads it: a token without words",
                    r.name()
                )),
                "{hint}"
            );
            let t = s.multiword_tokens();
            assert_eq!(
                (t.len(), t[0].first, t[0].last, s.mwt_form(&t[0])),
                (1, 2, 1, "bc")
            );
            assert_eq!(s.words.len(), 2);
        }
        let (_, d, _) = read(text);
        let e: Vec<String> = d
            .iter()
            .filter(|x| x.is_error())
            .map(|x| x.to_string())
            .collect();
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].starts_with("t.conllu:2:1: expected ID 2-N with N >= 2 (a multiword token starting at the next word), found '3-2'"), "{}", e[0]);
    }

    /// The scorers check the FORM of a token (an empty one is an error in every reading)
    /// but not the FORM of a multiword token's word: read as empty with a reference
    /// (hand-checked: conll18_ud_eval.py and udeval score the file), an error without.
    #[test]
    fn an_empty_form_of_a_multiword_tokens_word_is_read_with_a_reference() {
        let member = "1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\t\ta\t_\t_\t_\t0\troot\t_\t_\n2\tb\tb\t_\t_\t_\t1\tdep\t_\t_\n\n";
        let token = "1\ta\ta\t_\t_\t_\t0\troot\t_\t_\n2\t\tb\t_\t_\t_\t1\tdep\t_\t_\n\n";
        let form_error = |e: &[String]| {
            e.iter()
                .any(|x| x.contains("expected a value in column FORM"))
        };
        for r in [Reference::Conll18, Reference::Udeval] {
            let (words, _, errors) = ids(member, Some(r));
            assert!(errors.is_empty(), "{r:?}: {errors:?}");
            assert_eq!(words[0].len(), 2, "{r:?}");
            let (_, _, errors) = ids(token, Some(r));
            assert!(form_error(&errors), "{r:?}: {errors:?}");
        }
        for text in [member, token] {
            let (_, _, errors) = ids(text, None);
            assert!(form_error(&errors), "{errors:?}");
        }
    }

    /// Per sentence: (ID, HEAD) of the words, or the multiword tokens' (first, last).
    type PerSentence<T> = Vec<Vec<(u32, T)>>;

    /// What each reader makes of `text`: the words, the multiword tokens and the errors'
    /// texts.
    fn ids(
        text: &str,
        reference: Option<Reference>,
    ) -> (PerSentence<Head>, PerSentence<u32>, Vec<String>) {
        let mut r = ReaderBuilder::new()
            .format(Some(Format::Conllu))
            .reference(reference)
            .from_reader("t.conllu", text.as_bytes());
        let (mut words, mut mwts) = (Vec::new(), Vec::new());
        let mut s = Sentence::new();
        while r.read_sentence(&mut s).unwrap() {
            words.push(s.words.iter().map(|w| (w.id, w.head())).collect());
            mwts.push(s.mwts.iter().map(|t| (t.first, t.last)).collect());
        }
        let errors = r
            .take_diagnostics()
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.to_string())
            .collect();
        (words, mwts, errors)
    }

    #[test]
    fn references_read_ids_and_heads_as_python_ints_and_token_lines_as_its_words() {
        let row = |id: &str, form: &str, head: &str| {
            format!("{id}\t{form}\t_\t_\t_\t_\t{head}\tdep\t_\t_\n")
        };
        // hand-checked against conll18_ud_eval.py: it loads this file, words 1 to 4
        let text = [
            row("01", "a", " +2 "),
            row("03-004", "bc", "_"),
            row("x", "b", "-0"),
            row("1.1", "c", "2"),
            row("\u{ff14}", "d", "\u{662}"),
            row("4.1", "e", "_"),
            "\n".into(),
        ]
        .concat();
        let (words, mwts, errors) = ids(&text, Some(Reference::Conll18));
        assert!(errors.is_empty(), "{errors:?}");
        let h = Head::Index;
        assert_eq!(
            words,
            vec![vec![(1, h(2)), (2, h(0)), (3, h(2)), (4, h(2))]]
        );
        assert_eq!(mwts, vec![vec![(2, 3)]]);
        // outside reference checks the CoNLL-U rules hold: 01 is no ID, with a hint
        let (_, _, errors) = ids(&text, None);
        assert!(
            errors[0].contains("expected ID 1, found '01'"),
            "{errors:?}"
        );
        // a word's ID must still be its place (as in the script)
        for (bad, want) in [
            (row("2", "a", "0"), "expected ID 1, found '2'"),
            (row("1_", "a", "0"), "expected ID 1, found '1_'"),
            // the script reads the blank line as the token's second word, and fails on
            // its number of columns (udeval: "ends in an unfinished MWT")
            (
                row("1-2", "a", "_") + &row("1", "a", "0"),
                "t.conllu:3:1: expected 10 tab-separated columns, found 1",
            ),
        ] {
            for r in [Reference::Conll18, Reference::Udeval] {
                let (_, _, errors) = ids(&(bad.clone() + "\n"), Some(r));
                assert!(
                    errors.first().is_some_and(|e| e.contains(want)),
                    "{r:?} {want}: {errors:?}"
                );
            }
        }
    }

    #[test]
    fn conll18_takes_every_line_after_a_range_as_a_word_udeval_skips_empty_nodes() {
        let row = |id: &str, form: &str, head: &str| {
            format!("{id}\t{form}\t_\t_\t_\t_\t{head}\tdep\t_\t_\n")
        };
        let root = |id: &str, form: &str| row(id, form, "0").replace("dep", "root");
        // (file, what each reads: Ok(word IDs with their HEADs, tokens) or Err(part of
        // the first error)); hand-checked by running conll18_ud_eval.py and udtools 0.2.9's
        // udeval on each file (testdata/ud/trust/README.md)
        let h = Head::Index;
        type Read = Result<(Vec<(u32, Head)>, Vec<(u32, u32)>), &'static str>;
        let cases: Vec<(String, Read, Read)> = vec![
            // an empty node inside a token: conll18 reads it as the token's second word,
            // then '2 b' is a third word with the wrong ID; udeval skips it
            (
                [
                    row("1-2", "ab", "_"),
                    root("1", "a"),
                    row("1.1", "x", "_"),
                    row("2", "b", "1"),
                ]
                .concat(),
                Err("expected ID 3, found '2'"),
                Ok((vec![(1, h(0)), (2, h(1))], vec![(1, 2)])),
            ),
            // the same where conll18 loads it too: the node's line is its word 2 (HEAD 1);
            // udeval reads the blank line as the token's second word ("unfinished MWT")
            (
                [row("1-2", "ab", "_"), root("1", "a"), row("1.1", "x", "1")].concat(),
                Ok((vec![(1, h(0)), (2, h(1))], vec![(1, 2)])),
                Err("t.conllu:4:1: expected 10 tab-separated columns, found 1"),
            ),
            // a reversed range is a token without words (last = first - 1), before a word
            // or after the last one; both scorers load these
            (
                [row("2-1", "ab", "_"), root("1", "a"), row("2", "b", "1")].concat(),
                Ok((vec![(1, h(0)), (2, h(1))], vec![(1, 0)])),
                Ok((vec![(1, h(0)), (2, h(1))], vec![(1, 0)])),
            ),
            (
                [root("1", "a"), row("9-3", "xy", "_")].concat(),
                Ok((vec![(1, h(0))], vec![(2, 1)])),
                Ok((vec![(1, h(0))], vec![(2, 1)])),
            ),
            // a range wider than i64 (read saturated): no overflow; the blank line is its
            // second word, an error
            (
                [row("1-99999999999999999999", "x", "_"), root("1", "a")].concat(),
                Err("t.conllu:3:1: expected 10 tab-separated columns, found 1"),
                Err("t.conllu:3:1: expected 10 tab-separated columns, found 1"),
            ),
            // a '#' line of 10 columns among a token's words is its word (both scorers);
            // of one column, a line of the wrong size (conll18: "does not contain 10
            // tab-separated columns: '# c'"), as is a blank line there
            (
                [row("1-2", "ab", "_"), root("1", "a"), row("#", "b", "1")].concat(),
                Ok((vec![(1, h(0)), (2, h(1))], vec![(1, 2)])),
                Ok((vec![(1, h(0)), (2, h(1))], vec![(1, 2)])),
            ),
            (
                [
                    row("1-2", "ab", "_"),
                    root("1", "a"),
                    "# c\n".into(),
                    row("2", "b", "1"),
                ]
                .concat(),
                Err("t.conllu:3:1: expected 10 tab-separated columns, found 1"),
                Err("t.conllu:3:1: expected 10 tab-separated columns, found 1"),
            ),
            (
                [
                    row("1-2", "ab", "_"),
                    root("1", "a"),
                    "\n".into(),
                    row("2", "b", "1"),
                ]
                .concat(),
                Err("t.conllu:3:1: expected 10 tab-separated columns, found 1"),
                Err("t.conllu:3:1: expected 10 tab-separated columns, found 1"),
            ),
            // zero-padded IDs and a zero-padded range with inner IDs that are not numbers
            (
                [
                    row("01-02", "ab", "_"),
                    root("x", "a"),
                    row("01", "b", "01"),
                    row("003", "c", "+1"),
                ]
                .concat(),
                Ok((vec![(1, h(0)), (2, h(1)), (3, h(1))], vec![(1, 2)])),
                Ok((vec![(1, h(0)), (2, h(1)), (3, h(1))], vec![(1, 2)])),
            ),
            // two empty nodes and a word in a token of two words: udeval's words are a, b
            (
                [
                    row("1-2", "ab", "_"),
                    row("0.1", "y", "_"),
                    root("1", "a"),
                    row("1.1", "x", "_"),
                    row("2", "b", "1"),
                ]
                .concat(),
                Err("expected ID 3, found '2'"),
                Ok((vec![(1, h(0)), (2, h(1))], vec![(1, 2)])),
            ),
        ];
        for (text, conll18, udeval) in cases {
            for (r, want) in [(Reference::Conll18, conll18), (Reference::Udeval, udeval)] {
                let (words, mwts, errors) = ids(&(text.clone() + "\n"), Some(r));
                match want {
                    Ok((w, t)) => {
                        assert!(errors.is_empty(), "{r:?} {text}: {errors:?}");
                        assert_eq!((&words[0], &mwts[0]), (&w, &t), "{r:?} {text}");
                    }
                    Err(e) => assert!(
                        errors.first().is_some_and(|x| x.contains(e)),
                        "{r:?} {text}: {errors:?}"
                    ),
                }
            }
        }
    }

    #[test]
    fn binary_and_bracket_files_stop_at_once_with_what_they_are() {
        let mut bin = b"1\ta\t_\n\x00\x01\x02".to_vec();
        bin.extend(std::iter::repeat(b'x').take(1000));
        let mut r = ReaderBuilder::new().from_reader("a.bin", &bin[..]);
        let mut s = Sentence::new();
        let e = r.read_sentence(&mut s).unwrap_err();
        assert_eq!(e.kind(), Some(&ErrorKind::NotText { offset: 6 }));
        assert!(
            e.to_string().starts_with("a.bin: this is not a text file"),
            "{e}"
        );
        let utf16 = b"\xFF\xFE1\x00\t\x00";
        let e = ReaderBuilder::new()
            .from_reader("u.conllu", &utf16[..])
            .read_sentence(&mut s)
            .unwrap_err();
        assert!(e.to_string().contains("UTF-16"), "{e}");
        for forced in [None, Some(Format::Conllu)] {
            let text = "(S (NP (DT The) (NN dog)) (VP (VBZ barks)))\n(S (NP x))\n";
            let e = ReaderBuilder::new()
                .format(forced)
                .from_reader("t.mrg", text.as_bytes())
                .read_sentence(&mut s)
                .unwrap_err();
            assert_eq!(e.kind(), Some(&ErrorKind::LooksLikeBrackets));
            assert_eq!(e.diagnostics.len(), 1);
            assert!(e.to_string().contains("treeval brackets"), "{e}");
        }
    }

    #[test]
    fn an_error_message_is_at_most_a_screenful() {
        let mut text = String::new();
        for k in 1..=200 {
            text.push_str(&format!("{k} x y\n"));
        }
        text.push('\n');
        let mut r = ReaderBuilder::new()
            .format(Some(Format::Conllu))
            .from_reader("t.conllu", text.as_bytes());
        let mut s = Sentence::new();
        while r.read_sentence(&mut s).unwrap() {}
        let e = r.take_diagnostics().into_result().unwrap_err();
        let shown = e.to_string();
        assert!(
            shown.lines().count() <= crate::error::SHOWN_LINES + 1,
            "{shown}"
        );
        assert!(shown.ends_with("… and 190 more problem(s)"), "{shown}");
    }

    #[test]
    fn errors_are_collected_not_just_the_first() {
        let text = "1\ta\t_\tX\tX\t_\tx\troot\t_\t_\n2 b _ X X _ 1 dep _ _\n3\tc\t_\tX\tX\t_\t1\t\t_\t_\n\n";
        let (s, d, _) = read(text);
        assert_eq!(s.len(), 1);
        assert!(s[0].has_errors());
        assert_eq!(d.error_count(), 3, "{:?}", d.iter().collect::<Vec<_>>());
        let msgs: Vec<String> = d.iter().map(|d| d.to_string()).collect();
        assert!(
            msgs[0].starts_with("t.conllu:1:13: expected HEAD"),
            "{}",
            msgs[0]
        );
        assert!(msgs[1].contains("tabs, not spaces"), "{}", msgs[1]);
        assert!(
            msgs[2].starts_with("t.conllu:3:15: expected a value in column DEPREL"),
            "{}",
            msgs[2]
        );
    }

    #[test]
    fn missing_blank_line_between_sentences_is_explained() {
        let text = "1\ta\t_\tX\tX\t_\t0\troot\t_\t_\n1\tb\t_\tX\tX\t_\t0\troot\t_\t_\n\n";
        let (_, d, _) = read(text);
        let first = d.iter().next().unwrap();
        assert_eq!(
            first.kind,
            ErrorKind::BadId {
                expected: "2".into(),
                found: "1".into()
            }
        );
        assert!(first.hint.as_deref().unwrap().contains("blank line"));
    }

    #[test]
    fn no_character_straddles_two_lines() {
        // found by fuzzing: an incomplete sequence at the end of a line and a
        // continuation byte at the start of the next must not join into one character
        let text =
            b"1\ta\t_\tX\tX\t_\t0\troot\t_\t_\xef\xbb\n\xbf2\tb\t_\tX\tX\t_\t1\tdep\t_\t_\n\n";
        let mut r = ReaderBuilder::new().from_reader("t", &text[..]);
        let mut s = Sentence::new();
        assert!(r.read_sentence(&mut s).unwrap());
        for w in s.words() {
            let _ = (s.misc(w), s.form(w), s.deprel(w));
        }
        assert_eq!(s.misc(&s.words()[0]), "_??");
        assert!(r.diagnostics().error_count() >= 2);
    }

    #[test]
    fn deps_items() {
        for ok in [
            "_",
            "2:nsubj",
            "5.1:obj|0:root",
            "3:obl:on",
            "10:conj:and|12.3:x",
        ] {
            assert_eq!(bad_deps_item(ok.as_bytes()), None, "{ok}");
        }
        for (bad, item) in [
            ("2-nsubj", "2-nsubj"),
            ("2:", "2:"),
            (":x", ":x"),
            ("02:x", "02:x"),
            ("1.0:x", "1.0:x"),
            ("1.:x", "1.:x"),
            ("2:a||3:b", ""),
            ("2:a|", ""),
            ("x:obj", "x:obj"),
        ] {
            assert_eq!(
                bad_deps_item(bad.as_bytes()),
                Some(item.as_bytes()),
                "{bad}"
            );
        }
    }

    #[test]
    fn read_line_finds_tabs_across_buffer_refills() {
        let text = "1\tab\tc\td\te\tf\tg\th\ti\tj\n\n2\tx\n";
        for cap in [1, 2, 3, 7, 8, 9, 64] {
            let mut rdr = std::io::BufReader::with_capacity(cap, text.as_bytes());
            let (mut out, mut tabs, mut n) = (Vec::new(), [0; MAX_COLS], 0);
            assert_eq!(
                read_line(&mut rdr, &mut out, &mut tabs, &mut n).unwrap(),
                21
            );
            assert_eq!(&tabs[..n], &[1, 4, 6, 8, 10, 12, 14, 16, 18], "cap {cap}");
            out.clear();
            assert_eq!(read_line(&mut rdr, &mut out, &mut tabs, &mut n).unwrap(), 1);
            assert_eq!(n, 0);
            out.clear();
            assert_eq!(read_line(&mut rdr, &mut out, &mut tabs, &mut n).unwrap(), 4);
            assert_eq!(&tabs[..n], &[1]);
            assert_eq!(read_line(&mut rdr, &mut out, &mut tabs, &mut n).unwrap(), 0);
        }
    }

    #[test]
    fn tab_positions_agree_with_a_byte_scan() {
        let lines: [&[u8]; 6] = [
            b"",
            b"\t",
            b"1\tThe\tthe\tDET\tDT\t_\t2\tdet\t2:det\t_",
            b"\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t",
            "é\tü\u{80}\t\u{89}x\t".as_bytes(),
            b"\x89\x09\x88\x0b\x09\xff\x08\x89\x09",
        ];
        for line in lines {
            let mut out = [0usize; MAX_COLS];
            let n = tab_positions(line, &mut out);
            let want: Vec<usize> = line
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\t')
                .map(|(i, _)| i)
                .collect();
            assert_eq!(n, want.len(), "{line:?}");
            assert_eq!(
                &out[..n.min(MAX_COLS)],
                &want[..n.min(MAX_COLS)],
                "{line:?}"
            );
        }
    }

    #[test]
    fn unknown_format_stops_with_an_error() {
        let mut r = ReaderBuilder::new().from_reader("t", "a b c\n\n".as_bytes());
        let mut s = Sentence::new();
        let e = r.read_sentence(&mut s).unwrap_err();
        assert_eq!(e.kind(), Some(&ErrorKind::UnknownFormat { found: 1 }));
    }
}
