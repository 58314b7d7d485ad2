//! PARSEVAL bracket scores as EVALB computes them (Sekine & Collins 1997, the NYU
//! 2008-07-01 release), without its limits.
//!
//! Per sentence, as EVALB:
//! - pre-terminals whose tag is a `DELETE_LABEL` are removed with their word; the
//!   sentence *length* (for `CUTOFF_LEN`) counts every word whose tag is not a
//!   `DELETE_LABEL_FOR_LENGTH`, removed or not;
//! - a test tree without words is *skipped*; a different number of words, a different
//!   word (`EQ_WORD` pairs are equal), or a malformed tree is an *error*; neither is scored
//!   (treeval's default, [`Params::errors_missed`], scores such a sentence as an empty
//!   parse when its gold tree is well formed with words kept);
//! - a bracket's label is cut at its first `-` or `=` (`NP-SBJ-1` → `NP`); brackets over
//!   no word and brackets with a `DELETE_LABEL` label (`EQ_LABEL` pairs are equal) are not
//!   counted;
//! - each gold bracket, in the order the brackets open, takes the first unmatched test
//!   bracket with the same span (and an equal label when `LABELED 1`): brackets are
//!   matched as multisets;
//! - crossing counts the test brackets that cross at least one gold bracket;
//! - tagging accuracy compares the remaining words' tags.
//!
//! Generated trees (treeval's default mode; `--compat evalb` reads as EVALB): a test
//! word without a POS tag (in an untagged tree, see [`treeval_formats::bracket`]) takes
//! the deletion decision of the equal gold word it stands on (`EQ_WORD` pairs are equal),
//! found by a word diff over all the words read ([`place`]: the gold's `-NONE-` traces,
//! which a parser does not write, do not shift it), else it is kept; it is never
//! a correct tag, and tagging accuracy is not applicable when no scored test word has a
//! tag. A top-level bracket without a label, or labelled `ROOT` or `TOP`, is the outer
//! wrapper and is not counted. [`Reading`] counts these decisions.
//!
//! The sums are kept for all sentences and for those of length ≤ `CUTOFF_LEN`.

use std::sync::Arc;

use serde::Serialize;

pub mod by;
pub mod chars;
pub mod filter;
pub mod measures;
pub mod place;
pub mod trace;
pub mod unsup;
use treeval_formats::bracket::{BracketTree, Span};
use treeval_formats::{Diagnostic, ErrorKind, Position};

/// EVALB's parameter file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Params {
    /// `DEBUG` (read and kept; treeval's `--per-sentence` output replaces it).
    pub debug: i64,
    /// `MAX_ERROR`: EVALB stops at the error after this many (read and kept; applied only
    /// with [`Params::stop_at_max_error`]).
    pub max_error: i64,
    /// `CUTOFF_LEN`: the second summary covers sentences up to this length.
    pub cutoff_len: i64,
    /// `LABELED`: compare labels (1) or spans only (0).
    pub labeled: bool,
    /// `DELETE_LABEL`: labels not counted (pre-terminals go with their word).
    pub delete_label: Vec<String>,
    /// `DELETE_LABEL_FOR_LENGTH`: tags whose words do not count for the length.
    pub delete_label_for_length: Vec<String>,
    /// `EQ_LABEL`: label pairs taken as equal.
    pub eq_label: Vec<(String, String)>,
    /// `EQ_WORD`: word pairs taken as equal.
    pub eq_word: Vec<(String, String)>,
    /// `QUOTE_LABEL`: tags of possible misquotes (a `'`, `"` or `/` word). When the two
    /// trees of a sentence differ in length, such a word that one side deletes (its tag
    /// is a `DELETE_LABEL`) and the other keeps under another tag is put back on the
    /// deleting side (EVALB's fix_quote), so that `(`` ')` against `(POS ')` still pairs.
    pub quote_label: Vec<String>,
    /// Count a top-level bracket without a label, the `( … )` wrapper of `.mrg` files, as
    /// EVALB does (`--compat evalb`). treeval's default leaves it out: otherwise a gold
    /// file with wrappers against parser output without them loses recall.
    pub count_wrapper: bool,
    /// Stop at the error after `MAX_ERROR`, as EVALB exits there (`--compat evalb`).
    /// MAX_ERROR is EVALB's process control, not a scoring convention: without it every
    /// sentence is scored and the error sentences are counted.
    #[serde(skip)]
    pub stop_at_max_error: bool,
    /// Read trees as EVALB does (`--compat evalb`): a tree with words without a POS tag
    /// is an error sentence, and only a top-level bracket without a label is the wrapper.
    #[serde(skip)]
    pub evalb_reading: bool,
    /// Record EVALB's debug output of every sentence ([`trace::Trace`]), for
    /// `--compat evalb` with `DEBUG` 1 or more.
    #[serde(skip)]
    pub trace: bool,
    /// Count gold, test and matched brackets per label ([`BracketResult::by_label`]), for
    /// `--by label`.
    #[serde(skip)]
    pub by_label: bool,
    /// Keep every scored sentence's brackets ([`BracketResult::sentences`]), for the HTML
    /// page's sentence browser.
    #[serde(skip)]
    pub keep_brackets: bool,
    /// Which sentences are scored (`--sent-id`, `--min-len`, `--max-len`; the length
    /// as `CUTOFF_LEN` reads it, the id the tree's number); the others are read,
    /// checked (their errors are still reported) and paired, and counted in
    /// [`BracketResult::selection`], not in the sums or rows.
    #[serde(skip)]
    pub selection: crate::select::Selection,
    /// `--where`: the brackets counted ([`filter`]); the others are counted in
    /// [`BracketResult::where_counts`], not in the sums, rows or breakdowns.
    #[serde(skip)]
    pub filter: filter::BracketWhere,
    /// Score a sentence the system failed to produce (an error sentence whose gold tree is
    /// well formed, or a skipped one whose gold tree has words kept) as an empty parse:
    /// its gold brackets missed, its words in tagging accuracy without a correct tag, in
    /// complete match as not complete ([`SentenceRow::missed`]); treeval's default mode.
    /// Without it (`--compat evalb`, `--error-sentences excluded`), such a sentence is
    /// left out of the scores, as EVALB does.
    #[serde(skip)]
    pub errors_missed: bool,
}

/// The text of EVALB's COLLINS.prm, treeval's default parameters.
pub const COLLINS_PRM: &str = "DEBUG 0\nMAX_ERROR 10\nCUTOFF_LEN 40\nLABELED 1\n\
DELETE_LABEL TOP\nDELETE_LABEL -NONE-\nDELETE_LABEL ,\nDELETE_LABEL :\nDELETE_LABEL ``\n\
DELETE_LABEL ''\nDELETE_LABEL .\nDELETE_LABEL_FOR_LENGTH -NONE-\nEQ_LABEL ADVP PRT\n";

/// The parameters of EVALB's new.prm (COLLINS.prm with S1, `?`, `!` deleted and
/// QUOTE_LABEL); nk.prm (benepar's) is the same with MAX_ERROR 10000.
pub const NEW_PRM: &str = "DEBUG 0\nMAX_ERROR 10\nCUTOFF_LEN 40\nLABELED 1\n\
DELETE_LABEL TOP\nDELETE_LABEL S1\nDELETE_LABEL -NONE-\nDELETE_LABEL ,\nDELETE_LABEL :\n\
DELETE_LABEL ``\nDELETE_LABEL ''\nDELETE_LABEL .\nDELETE_LABEL ?\nDELETE_LABEL !\n\
DELETE_LABEL_FOR_LENGTH -NONE-\nQUOTE_LABEL ``\nQUOTE_LABEL ''\nQUOTE_LABEL POS\n\
QUOTE_LABEL NN\nQUOTE_LABEL CD\nQUOTE_LABEL VBZ\nQUOTE_LABEL :\nEQ_LABEL ADVP PRT\n";

/// The parameter files built in, by the names EVALB's distributions give them.
pub const BUILT_IN: [&str; 3] = ["COLLINS.prm", "new.prm", "nk.prm"];

impl Default for Params {
    /// EVALB's values without a parameter file.
    fn default() -> Self {
        Params {
            debug: 0,
            max_error: 10,
            cutoff_len: 40,
            labeled: true,
            delete_label: Vec::new(),
            delete_label_for_length: Vec::new(),
            eq_label: Vec::new(),
            eq_word: Vec::new(),
            quote_label: Vec::new(),
            count_wrapper: false,
            stop_at_max_error: false,
            evalb_reading: false,
            trace: false,
            by_label: false,
            keep_brackets: false,
            selection: crate::select::Selection::default(),
            filter: filter::BracketWhere::default(),
            errors_missed: false,
        }
    }
}

/// C's `atoi`: optional space and sign, then digits; 0 when none.
fn atoi(s: &str) -> i64 {
    let t = s.trim_start();
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let v = t.bytes().take_while(u8::is_ascii_digit).fold(0i64, |v, d| {
        v.saturating_mul(10).saturating_add(i64::from(d - b'0'))
    });
    if neg {
        -v
    } else {
        v
    }
}

/// The name of the convention for sentences the system failed to produce (`--error-sentences`),
/// as the signature, the conventions line and a state give it: `missed` with
/// [`Params::errors_missed`], else `excluded`.
pub fn error_sentences_name(missed: bool) -> &'static str {
    if missed {
        "missed"
    } else {
        "excluded"
    }
}

impl Params {
    /// COLLINS.prm.
    pub fn collins() -> Self {
        Params::parse(COLLINS_PRM, &Arc::from("COLLINS.prm")).0
    }

    /// A built-in parameter file by name ([`BUILT_IN`]).
    pub fn built_in(name: &str) -> Option<Self> {
        let path = Arc::from(name);
        match name {
            "COLLINS.prm" => Some(Params::parse(COLLINS_PRM, &path).0),
            "new.prm" => Some(Params::parse(NEW_PRM, &path).0),
            "nk.prm" => {
                let mut p = Params::parse(NEW_PRM, &path).0;
                p.max_error = 10000;
                Some(p)
            }
            _ => None,
        }
    }

    /// What EVALB itself prints on stderr while reading this parameter file (its
    /// wording: `Unknown keyword (FOO 1) in parameter file`), for `--compat evalb`.
    pub fn evalb_messages(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (k, raw) in text.lines().enumerate() {
            let line = raw.trim_end();
            if line.starts_with('#') || line.len() < 3 {
                continue;
            }
            let (key, value) = match line.split_once(|c: char| c.is_ascii_whitespace()) {
                Some((key, v)) => (key, v.trim_start()),
                None => (line, ""),
            };
            if value.is_empty() {
                out.push(format!("Empty value in parameter file ({})", k + 1));
            }
            match key {
                "DEBUG"
                | "MAX_ERROR"
                | "CUTOFF_LEN"
                | "LABELED"
                | "DELETE_LABEL"
                | "DELETE_LABEL_FOR_LENGTH"
                | "QUOTE_LABEL" => {}
                "EQ_LABEL" | "EQ_WORD" => {
                    if value.split_ascii_whitespace().count() != 2 {
                        out.push(format!("{key} requires two values"));
                    }
                }
                _ => out.push(format!("Unknown keyword ({line}) in parameter file")),
            }
        }
        out
    }

    /// Read a parameter file as EVALB does: `KEYWORD value` lines; `#` lines and lines
    /// shorter than 3 characters are skipped. Unknown keywords and missing values are
    /// warnings (EVALB prints them and goes on).
    pub fn parse(text: &str, path: &Arc<str>) -> (Self, Vec<Diagnostic>) {
        let mut p = Params::default();
        let mut warnings = Vec::new();
        for (k, raw) in text.lines().enumerate() {
            let line = raw.trim_end();
            if line.starts_with('#') || line.len() < 3 {
                continue;
            }
            let at = || Position::new(path.clone(), k as u64 + 1, 1);
            let (key, value) = match line.split_once(|c: char| c.is_ascii_whitespace()) {
                Some((key, v)) => (key, v.trim_start()),
                None => (line, ""),
            };
            if value.is_empty() {
                warnings.push(
                    Diagnostic::warning(
                        at(),
                        ErrorKind::Other(format!("expected a value after {key}, found none")),
                    )
                    .of_kind(treeval_formats::WarningKind::ParameterMissingValue),
                );
            }
            let pair = |v: &str| -> Option<(String, String)> {
                let mut it = v.split_ascii_whitespace();
                match (it.next(), it.next(), it.next()) {
                    (Some(a), Some(b), None) => Some((a.to_owned(), b.to_owned())),
                    _ => None,
                }
            };
            match key {
                "DEBUG" => p.debug = atoi(value),
                "MAX_ERROR" => p.max_error = atoi(value),
                "CUTOFF_LEN" => p.cutoff_len = atoi(value),
                "LABELED" => p.labeled = atoi(value) != 0,
                "DELETE_LABEL" => p.delete_label.push(value.to_owned()),
                "DELETE_LABEL_FOR_LENGTH" => p.delete_label_for_length.push(value.to_owned()),
                "QUOTE_LABEL" => p.quote_label.push(value.to_owned()),
                "EQ_LABEL" | "EQ_WORD" => match pair(value) {
                    Some(x) if key == "EQ_LABEL" => p.eq_label.push(x),
                    Some(x) => p.eq_word.push(x),
                    None => warnings.push(
                        Diagnostic::warning(
                            at(),
                            ErrorKind::Other(format!("expected two values after {key}, found '{value}'")),
                        )
                        .of_kind(treeval_formats::WarningKind::ParameterBadValue),
                    ),
                },
                _ => warnings.push(
                    Diagnostic::warning(
                        at(),
                        ErrorKind::Other(format!("expected a parameter keyword, found '{key}' (ignored)")),
                    )
                    .with_hint("known: DEBUG, MAX_ERROR, CUTOFF_LEN, LABELED, DELETE_LABEL, DELETE_LABEL_FOR_LENGTH, QUOTE_LABEL, EQ_LABEL, EQ_WORD")
                    .of_kind(treeval_formats::WarningKind::UnknownParameter),
                ),
            }
        }
        (p, warnings)
    }

    fn pair_eq(pairs: &[(String, String)], a: &str, b: &str) -> bool {
        a == b
            || pairs
                .iter()
                .any(|(x, y)| (a == x && b == y) || (a == y && b == x))
    }

    /// Labels equal or an `EQ_LABEL` pair.
    pub fn label_eq(&self, a: &str, b: &str) -> bool {
        Self::pair_eq(&self.eq_label, a, b)
    }

    /// Words equal or an `EQ_WORD` pair.
    pub fn word_eq(&self, a: &str, b: &str) -> bool {
        Self::pair_eq(&self.eq_word, a, b)
    }
}

/// What became of a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Scored (EVALB status 0).
    Ok,
    /// Not scored: words differ or a tree is malformed (EVALB status 1).
    Error,
    /// Not scored: the test tree has no words (EVALB status 2).
    Skip,
}

impl Status {
    /// EVALB's status number.
    pub fn code(self) -> u8 {
        match self {
            Status::Ok => 0,
            Status::Error => 1,
            Status::Skip => 2,
        }
    }
}

/// One sentence's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SentenceRow {
    /// 1-based sentence number (EVALB's ID: the line, one tree per line).
    pub id: u64,
    /// Length for the cut-off (words not tagged `DELETE_LABEL_FOR_LENGTH`).
    pub length: u64,
    /// Scored, error or skipped.
    pub status: Status,
    /// Matched brackets.
    pub matched: u64,
    /// Gold brackets counted.
    pub gold: u64,
    /// Test brackets counted.
    pub test: u64,
    /// Test brackets crossing a gold bracket.
    pub crossing: u64,
    /// Words scored.
    pub words: u64,
    /// Words with the right tag.
    pub correct_tags: u64,
    /// Words scored whose test word has no POS tag (an untagged tree).
    pub untagged_words: u64,
    /// Why the sentence was not scored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// An error or skipped sentence scored as an empty parse ([`Params::errors_missed`]):
    /// `gold` and `words` are the gold tree's, nothing else is counted.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub missed: bool,
}

impl SentenceRow {
    /// Sentence `id` (1-based) of `length` words, scored, nothing counted yet.
    pub fn scored(id: u64, length: u64) -> Self {
        SentenceRow {
            id,
            length,
            status: Status::Ok,
            matched: 0,
            gold: 0,
            test: 0,
            crossing: 0,
            words: 0,
            correct_tags: 0,
            untagged_words: 0,
            message: None,
            missed: false,
        }
    }

    /// Whether the sentence is in the sums: scored, or scored as an empty parse.
    pub fn counted(&self) -> bool {
        self.status == Status::Ok || self.missed
    }
}

/// Sums over sentences: everything the summary is computed from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct BracketCounts {
    /// Sentences read.
    pub sentences: u64,
    /// Error sentences.
    pub error_sentences: u64,
    /// Skipped sentences.
    pub skip_sentences: u64,
    /// Matched brackets.
    pub matched: u64,
    /// Gold brackets.
    pub gold: u64,
    /// Test brackets.
    pub test: u64,
    /// Scored sentences whose brackets all match.
    #[serde(rename = "complete_sentences")]
    pub complete: u64,
    /// Words scored.
    pub words: u64,
    /// Crossing brackets.
    #[serde(rename = "crossing_brackets")]
    pub crossing: u64,
    /// Scored sentences without crossing.
    #[serde(rename = "no_crossing_sentences")]
    pub no_crossing: u64,
    /// Scored sentences with at most two crossing brackets.
    #[serde(rename = "two_or_less_crossing_sentences")]
    pub two_or_less_crossing: u64,
    /// Correct tags.
    pub correct_tags: u64,
    /// Words scored whose test word has no POS tag (the words of the sentences scored
    /// as missed too: the system gave them none).
    #[serde(default)]
    pub untagged_words: u64,
    /// Error and skipped sentences scored as an empty parse ([`Params::errors_missed`]):
    /// their gold brackets and words are in the sums, and they count in complete match.
    #[serde(default)]
    pub missed_sentences: u64,
}

crate::measure::sum_fields!(BracketCounts {
    sentences,
    error_sentences,
    skip_sentences,
    matched,
    gold,
    test,
    complete,
    words,
    crossing,
    no_crossing,
    two_or_less_crossing,
    correct_tags,
    untagged_words,
    missed_sentences,
});

/// The summary's figures, as fractions (the crossing average as a number). A figure
/// with nothing to measure is `None` (not applicable: JSON null, `n/a` in text), where
/// EVALB prints 0.00 (or nan).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BracketScores {
    /// matched / gold (`None` without gold brackets).
    pub recall: Option<f64>,
    /// matched / test (`None` without test brackets).
    pub precision: Option<f64>,
    /// 2·matched / (gold + test) = 2PR / (P + R) (0 when nothing matched; `None` without
    /// any bracket).
    pub fmeasure: Option<f64>,
    /// Complete sentences / scored sentences and those scored as missed (`None` without
    /// either).
    pub complete_match: Option<f64>,
    /// Crossing brackets per scored sentence (not those scored as missed: an empty parse
    /// crosses nothing).
    pub avg_crossing: Option<f64>,
    /// Sentences without crossing / scored sentences.
    pub no_crossing: Option<f64>,
    /// Sentences with ≤ 2 crossing / scored sentences.
    pub two_or_less_crossing: Option<f64>,
    /// Correct tags / words (`None` without a scored word, or when no scored test word
    /// has a tag).
    pub tagging_accuracy: Option<f64>,
}

impl BracketCounts {
    /// Sentences scored.
    pub fn valid(&self) -> u64 {
        self.sentences - self.error_sentences - self.skip_sentences
    }

    /// Add one sentence. A sentence scored as missed adds its gold brackets and words
    /// (and to complete match's sentences, never complete); not to the crossing figures.
    pub fn add_row(&mut self, r: &SentenceRow) {
        self.sentences += 1;
        match r.status {
            Status::Error => self.error_sentences += 1,
            Status::Skip => self.skip_sentences += 1,
            Status::Ok => {
                self.complete += u64::from(r.gold == r.test && r.test == r.matched);
                self.crossing += r.crossing;
                self.no_crossing += u64::from(r.crossing == 0);
                self.two_or_less_crossing += u64::from(r.crossing <= 2);
            }
        }
        if r.counted() {
            self.missed_sentences += u64::from(r.missed);
            self.matched += r.matched;
            self.gold += r.gold;
            self.test += r.test;
            self.words += r.words;
            self.correct_tags += r.correct_tags;
            self.untagged_words += r.untagged_words;
        }
    }

    /// The summary figures.
    pub fn scores(&self) -> BracketScores {
        let div = |a: u64, b: u64| (b > 0).then(|| a as f64 / b as f64);
        let (r, p) = (div(self.matched, self.gold), div(self.matched, self.test));
        let n = self.valid();
        BracketScores {
            recall: r,
            precision: p,
            fmeasure: match (p, r) {
                (Some(p), Some(r)) if p + r > 0.0 => Some(2.0 * p * r / (p + r)),
                _ => div(2 * self.matched, self.gold + self.test),
            },
            complete_match: div(self.complete, n + self.missed_sentences),
            avg_crossing: div(self.crossing, n),
            no_crossing: div(self.no_crossing, n),
            two_or_less_crossing: div(self.two_or_less_crossing, n),
            tagging_accuracy: div(self.correct_tags, self.words)
                .filter(|_| self.untagged_words < self.words),
        }
    }
}

/// A bracket ready for matching: span over the remaining words and cut label's id.
#[derive(Debug, Clone, Copy)]
struct B {
    start: u32,
    end: u32,
    label: u32,
    matched: bool,
    /// The label it counts under in `--by label`: its own, or for a test bracket matched
    /// regardless of labels (`LABELED 0`), its gold bracket's.
    counted_as: u32,
}

/// What the parameters say about one label string (looked up once per string).
#[derive(Debug, Clone, Copy)]
struct LabelInfo {
    /// A `DELETE_LABEL` as a pre-terminal tag (exact).
    delete_leaf: bool,
    /// A `DELETE_LABEL` as a bracket label (`EQ_LABEL` pairs count).
    delete_node: bool,
    /// A `DELETE_LABEL_FOR_LENGTH` tag.
    not_for_length: bool,
    /// A `QUOTE_LABEL` tag.
    quote: bool,
}

/// A possible misquote (EVALB's quotterm): a pre-terminal with a `QUOTE_LABEL` tag over
/// `'`, `"` or `/`, where it stands among the remaining words and brackets.
#[derive(Debug, Clone)]
struct Quote {
    /// Its leaf in the tree.
    leaf: usize,
    label: u32,
    word: Span,
    /// Remaining words before it (shifted as words are put back before it).
    index: usize,
    /// Brackets opened before it.
    bracket: usize,
    /// The brackets open around it.
    ends: Vec<usize>,
}

/// Scores sentence pairs, with label strings interned and reusable buffers.
#[derive(Debug, Default)]
pub struct Scorer {
    params: Params,
    ids: rustc_hash::FxHashMap<Box<str>, u32>,
    /// Every label string, by id.
    names: Vec<Box<str>>,
    /// The id each label is counted under in the breakdowns (`EQ_LABEL` classes).
    canon: Vec<u32>,
    info: Vec<LabelInfo>,
    /// `EQ_LABEL` pairs as ids (both orders).
    eq: rustc_hash::FxHashSet<(u32, u32)>,
    gtags: Vec<(u32, Span)>,
    ttags: Vec<(u32, Span)>,
    gkept: Vec<u32>,
    tkept: Vec<u32>,
    gb: Vec<B>,
    tb: Vec<B>,
    /// Every node's span over the remaining words, in node order (EVALB's bracket array).
    gpos: Vec<(u32, u32)>,
    tpos: Vec<(u32, u32)>,
    /// EVALB's debug events of the sentence being scored, when recording.
    log: Option<Vec<trace::Event>>,
    /// The reading decisions so far.
    pub(crate) reading: Reading,
}

/// The label cut at its first `-` or `=` (EVALB's modify_label; `-NONE-` becomes empty).
fn cut(t: &BracketTree, label: Span) -> Span {
    let s = t.s(label);
    let n = s
        .bytes()
        .position(|c| c == b'-' || c == b'=')
        .unwrap_or(s.len());
    Span {
        start: label.start,
        end: label.start + n as u32,
    }
}

impl Scorer {
    /// A scorer with these parameters.
    pub fn new(params: Params) -> Self {
        let mut s = Scorer {
            params,
            ..Scorer::default()
        };
        let pairs = s.params.eq_label.clone();
        let mut ids = Vec::with_capacity(pairs.len());
        for (a, b) in &pairs {
            let (x, y) = (s.id(a), s.id(b));
            s.eq.insert((x, y));
            s.eq.insert((y, x));
            ids.push((x, y));
        }
        s.join_equal_labels(&ids);
        s
    }

    /// The parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The id of a label string (interned on first sight).
    fn id(&mut self, label: &str) -> u32 {
        if let Some(&k) = self.ids.get(label) {
            return k;
        }
        let p = &self.params;
        let info = LabelInfo {
            delete_leaf: p.delete_label.iter().any(|d| d == label),
            delete_node: p.delete_label.iter().any(|d| p.label_eq(label, d)),
            not_for_length: p.delete_label_for_length.iter().any(|d| d == label),
            quote: p.quote_label.iter().any(|d| d == label),
        };
        let k = self.info.len() as u32;
        self.info.push(info);
        self.names.push(label.into());
        self.canon.push(k);
        self.ids.insert(label.into(), k);
        k
    }

    #[inline]
    fn label_eq(&self, a: u32, b: u32) -> bool {
        a == b || (!self.eq.is_empty() && self.eq.contains(&(a, b)))
    }

    /// The tags of the remaining words, and `kept[i]` = remaining words before leaf `i`
    /// (and the total at the end); the sentence length for the cut-off.
    fn leaves(&mut self, t: &BracketTree, gold: bool) -> u64 {
        self.leaves_with(t, gold, None)
    }

    /// [`Scorer::leaves`] of test tree `t` whose words without a tag were placed on the
    /// gold by characters (`--align chars`): per leaf, `Some(deleted)` when it stands on an
    /// equal gold word (deleted as that word is), `None` when it stands on none.
    pub(crate) fn leaves_placed(&mut self, t: &BracketTree, placed: &[Option<bool>]) -> u64 {
        if !t.untagged || self.params.evalb_reading {
            return self.leaves(t, false);
        }
        let mut tags = std::mem::take(&mut self.ttags);
        let mut kept = std::mem::take(&mut self.tkept);
        tags.clear();
        kept.clear();
        for (i, l) in t.leaves.iter().enumerate() {
            kept.push(tags.len() as u32);
            self.reading.untagged_words += 1;
            match placed.get(i).copied().flatten() {
                Some(true) => self.reading.untagged_deleted += 1,
                Some(false) => tags.push((UNTAGGED, l.word)),
                None => {
                    self.reading.untagged_unpaired += 1;
                    tags.push((UNTAGGED, l.word));
                }
            }
        }
        kept.push(tags.len() as u32);
        (self.ttags, self.tkept) = (tags, kept);
        0
    }

    /// Whether gold leaf `l` of `t` is removed (its tag a `DELETE_LABEL`).
    pub(crate) fn deletes(&mut self, t: &BracketTree, l: &treeval_formats::bracket::Leaf) -> bool {
        l.tagged && {
            let id = self.id(t.s(l.label));
            self.info[id as usize].delete_leaf
        }
    }

    /// [`Scorer::leaves`] of tree `t`; with `paired`, the gold tree of test tree `t`: a
    /// test word without a tag takes the deletion decision of the equal gold word it
    /// stands on ([`place::place`]: by a word diff, so that the gold's traces do not shift
    /// it), else it is kept; its tag is [`UNTAGGED`].
    fn leaves_with(&mut self, t: &BracketTree, gold: bool, paired: Option<&BracketTree>) -> u64 {
        let placed = match paired {
            Some(g) if t.untagged && !self.params.evalb_reading => self.place(g, t),
            _ => Vec::new(),
        };
        let (mut tags, mut kept) = if gold {
            (
                std::mem::take(&mut self.gtags),
                std::mem::take(&mut self.gkept),
            )
        } else {
            (
                std::mem::take(&mut self.ttags),
                std::mem::take(&mut self.tkept),
            )
        };
        tags.clear();
        kept.clear();
        let mut length = 0;
        for (i, l) in t.leaves.iter().enumerate() {
            kept.push(tags.len() as u32);
            if let Some(g) = paired.filter(|_| !l.tagged && !self.params.evalb_reading) {
                let on = placed.get(i).copied().flatten();
                tags.extend(self.untagged_leaf(g, t, i, on));
                continue;
            }
            let id = self.id(t.s(l.label));
            let info = self.info[id as usize];
            length += u64::from(!info.not_for_length);
            if !info.delete_leaf {
                tags.push((id, l.word));
            }
        }
        kept.push(tags.len() as u32);
        if gold {
            (self.gtags, self.gkept) = (tags, kept);
        } else {
            (self.ttags, self.tkept) = (tags, kept);
        }
        length
    }

    /// Where the words of test tree `t` stand on gold tree `g` ([`place::place`]).
    fn place(&mut self, g: &BracketTree, t: &BracketTree) -> Vec<Option<usize>> {
        let deleted: Vec<bool> = g.leaves.iter().map(|l| self.deletes(g, l)).collect();
        let p = &self.params;
        place::place(g, t, &deleted, &|a, b| p.word_eq(a, b))
    }

    /// Test leaf `i` of `t`, without a tag, standing on gold leaf `on` of `g` (if any), as
    /// [`Scorer::leaves`] keeps it (or not), counted in [`Scorer::reading`].
    fn untagged_leaf(
        &mut self,
        g: &BracketTree,
        t: &BracketTree,
        i: usize,
        on: Option<usize>,
    ) -> Option<(u32, Span)> {
        let word = t.leaves[i].word;
        self.reading.untagged_words += 1;
        let Some(gl) = on.and_then(|j| g.leaves.get(j)) else {
            self.reading.untagged_unpaired += 1;
            return Some((UNTAGGED, word));
        };
        let deleted = gl.tagged && {
            let id = self.id(g.s(gl.label));
            self.info[id as usize].delete_leaf
        };
        self.reading.untagged_deleted += u64::from(deleted);
        (!deleted).then_some((UNTAGGED, word))
    }

    /// Whether node `n` of `t` is the outer wrapper, not counted: a top-level bracket
    /// without a label, or (treeval's reading) labelled `ROOT` or `TOP`.
    fn wrapper(&self, t: &BracketTree, n: &treeval_formats::bracket::Node) -> bool {
        n.parent.is_none()
            && match t.s(n.label) {
                "" => true,
                "ROOT" | "TOP" => !self.params.evalb_reading,
                _ => false,
            }
    }

    /// The counted brackets of a tree.
    fn brackets(&mut self, t: &BracketTree, gold: bool) {
        let mut out = std::mem::take(if gold { &mut self.gb } else { &mut self.tb });
        out.clear();
        let pos = std::mem::take(if gold { &mut self.gpos } else { &mut self.tpos });
        for (node, &(start, end)) in t.nodes.iter().zip(&pos) {
            if start == end || (!self.params.count_wrapper && self.wrapper(t, node)) {
                continue;
            }
            let label = self.id(t.s(cut(t, node.label)));
            if self.info[label as usize].delete_node {
                continue;
            }
            out.push(B {
                start,
                end,
                label,
                matched: false,
                counted_as: label,
            });
        }
        if gold {
            (self.gb, self.gpos) = (out, pos);
        } else {
            (self.tb, self.tpos) = (out, pos);
        }
    }

    /// Every node's span over the remaining words.
    fn positions(&mut self, t: &BracketTree, gold: bool) {
        let (pos, kept) = if gold {
            (&mut self.gpos, &self.gkept)
        } else {
            (&mut self.tpos, &self.tkept)
        };
        pos.clear();
        pos.extend(
            t.nodes
                .iter()
                .map(|n| (kept[n.start as usize], kept[n.end as usize])),
        );
    }

    /// The possible misquotes of a tree, in order.
    fn quotes(&mut self, t: &BracketTree, gold: bool) -> Vec<Quote> {
        let mut out = Vec::new();
        for (i, l) in t.leaves.iter().enumerate() {
            let label = self.id(t.s(l.label));
            if !self.info[label as usize].quote || !matches!(t.s(l.word), "'" | "\"" | "/") {
                continue;
            }
            let kept = if gold { &self.gkept } else { &self.tkept };
            let bracket = t.nodes.partition_point(|n| n.at < l.at);
            out.push(Quote {
                leaf: i,
                label,
                word: l.word,
                index: kept[i] as usize,
                bracket,
                ends: (0..bracket)
                    .filter(|&k| t.nodes[k].end as usize > i)
                    .collect(),
            });
        }
        out
    }

    /// EVALB's fix_quote, step by step: for each misquote of the test tree, in order, a
    /// misquote of the gold tree at the same index with another tag is put back on the
    /// side that deleted it (when only one side did), and the later misquotes of that side
    /// move one word on.
    fn fix_quote(&mut self, gold: &BracketTree, test: &BracketTree) {
        let mut gq = self.quotes(gold, true);
        let mut tq = self.quotes(test, false);
        if self.log.is_some() {
            let mut listed = Vec::new();
            for k in 0..gq.len().max(tq.len()) {
                for (q, t) in [(gq.get(k), gold), (tq.get(k), test)] {
                    if let Some(q) = q {
                        listed.push(trace::Event::Quote {
                            index: q.index,
                            label: t.s(t.leaves[q.leaf].label).to_owned(),
                            word: t.s(q.word).to_owned(),
                        });
                    }
                }
            }
            self.log.get_or_insert_with(Vec::new).extend(listed);
        }
        for i in 0..tq.len() {
            let ind = tq[i].index;
            for j in 0..gq.len() {
                if gq[j].index != ind || gq[j].label == tq[i].label {
                    continue;
                }
                let gdel = self.info[gq[j].label as usize].delete_leaf;
                let tdel = self.info[tq[i].label as usize].delete_leaf;
                if gdel && !tdel {
                    self.log_reinsert(&gq[j], true);
                    reinsert(&gq[j], &mut self.gtags, &mut self.gpos);
                    for q in &mut gq[j..] {
                        q.index += 1;
                    }
                } else if tdel && !gdel {
                    self.log_reinsert(&tq[i], false);
                    reinsert(&tq[i], &mut self.ttags, &mut self.tpos);
                    for q in &mut tq[i..] {
                        q.index += 1;
                    }
                }
            }
        }
    }

    /// Record a misquote put back (debug).
    fn log_reinsert(&mut self, q: &Quote, gold: bool) {
        if let Some(log) = self.log.as_mut() {
            log.push(trace::Event::Reinsert {
                bracket: q.bracket,
                index: q.index,
                spans: if gold { &self.gpos } else { &self.tpos }.clone(),
                ends: q.ends.len(),
            });
        }
    }

    /// Score sentence `id` (1-based).
    pub fn score(&mut self, id: u64, gold: &BracketTree, test: &BracketTree) -> SentenceRow {
        let length = self.leaves(gold, true);
        self.leaves_with(test, false, Some(gold));
        let mut row = SentenceRow::scored(id, length);
        self.positions(gold, true);
        self.positions(test, false);
        if let Err((status, msg)) = self.check_pair(gold, test) {
            row.status = status;
            row.message = Some(msg);
            self.missed(gold, &mut row);
            return row;
        }
        self.brackets(gold, true);
        self.brackets(test, false);
        self.match_brackets(&mut row);
        row.words = self.gtags.len() as u64;
        row.correct_tags = self.correct_tags();
        row.untagged_words = self.ttags.iter().filter(|x| x.0 == UNTAGGED).count() as u64;
        row
    }

    /// With [`Params::errors_missed`], sentence `row` that was not scored (gold tree
    /// `gold`) as an empty parse, when the system is the cause and the gold tree has words
    /// kept: its gold brackets missed, its words without a correct tag (and without a
    /// system tag); the scorer holds its gold brackets and no test bracket. A malformed
    /// gold tree stays out of the scores: it has no brackets to miss.
    pub(crate) fn missed(&mut self, gold: &BracketTree, row: &mut SentenceRow) {
        self.tb.clear();
        if !self.params.errors_missed || !gold.problems.is_empty() {
            self.gb.clear();
            return;
        }
        // again from the tree: a misquote put back belongs to the comparison only
        self.leaves(gold, true);
        self.positions(gold, true);
        self.brackets(gold, true);
        if self.gtags.is_empty() {
            self.gb.clear();
            return;
        }
        row.missed = true;
        row.gold = self.gb.len() as u64;
        row.words = self.gtags.len() as u64;
        row.untagged_words = row.words;
    }

    /// Why a pair of trees is not scored (EVALB's status and message): a malformed tree,
    /// a test tree without words, or remaining words that differ (in number, after
    /// putting misquotes back, or one by one).
    fn check_pair(
        &mut self,
        gold: &BracketTree,
        test: &BracketTree,
    ) -> Result<(), (Status, String)> {
        let (mut gw, mut tw) = (self.gtags.len(), self.ttags.len());
        let bad = [("gold", gold), ("test", test)]
            .into_iter()
            .find_map(|(which, t)| t.problems.first().map(|d| (which, d)));
        if let Some((which, d)) = bad {
            return Err((
                Status::Error,
                format!("Malformed {which} tree ({}: {})", d.position, d.kind),
            ));
        }
        if self.params.evalb_reading {
            if let Some((which, t)) = [("gold", gold), ("test", test)]
                .into_iter()
                .find(|(_, t)| t.untagged)
            {
                let l = t.leaves.iter().find(|l| !l.tagged).unwrap_or(&t.leaves[0]);
                let (line, col) = t.line_col(l.at);
                return Err((
                    Status::Error,
                    format!("Malformed {which} tree (line {line}, column {col}: the word '{}' has no POS tag; EVALB reads (TAG word) only)", t.s(l.word)),
                ));
            }
        }
        if tw == 0 {
            return Err((Status::Skip, "the test tree has no words".into()));
        }
        if gw != tw && !self.params.quote_label.is_empty() {
            self.fix_quote(gold, test);
            (gw, tw) = (self.gtags.len(), self.ttags.len());
        }
        if gw != tw {
            return Err((Status::Error, format!("Length unmatch ({gw}|{tw})")));
        }
        for (a, b) in self.gtags.iter().zip(&self.ttags) {
            let (x, y) = (gold.s(a.1), test.s(b.1));
            if !self.params.word_eq(x, y) {
                return Err((Status::Error, format!("Words unmatch ({x}|{y})")));
            }
        }
        Ok(())
    }

    /// Match the counted brackets (each gold bracket takes the first free test bracket
    /// over its span) and count them into `row`, with the test brackets crossing a gold
    /// bracket.
    fn match_brackets(&mut self, row: &mut SentenceRow) {
        self.match_aligned(row, &[]);
    }

    /// [`Self::match_brackets`] where test bracket `k` takes part (matches, crosses) only
    /// when `aligned[k]` (or `k` is past its end): under `--align chars`, a test bracket
    /// with an end in a mismatch window is counted but can neither match nor cross.
    fn match_aligned(&mut self, row: &mut SentenceRow, aligned: &[bool]) {
        let labeled = self.params.labeled;
        let mut tb = std::mem::take(&mut self.tb);
        let mut gb = std::mem::take(&mut self.gb);
        let usable = |k: usize| aligned.get(k).copied().unwrap_or(true);
        for g in &mut gb {
            let free = tb
                .iter_mut()
                .enumerate()
                .filter(|(k, b)| usable(*k) && !b.matched);
            for (_, t) in free {
                if g.start == t.start
                    && g.end == t.end
                    && (!labeled || self.label_eq(g.label, t.label))
                {
                    t.matched = true;
                    t.counted_as = g.label;
                    g.matched = true;
                    row.matched += 1;
                    break;
                }
            }
        }
        self.gb = gb;
        row.gold = self.gb.len() as u64;
        row.test = tb.len() as u64;
        row.crossing = (tb.iter().enumerate())
            .filter(|(k, _)| usable(*k))
            .filter(|(_, t)| {
                self.gb.iter().any(|g| {
                    (g.start < t.start && g.end > t.start && g.end < t.end)
                        || (g.start > t.start && g.start < t.end && g.end > t.end)
                })
            })
            .count() as u64;
        self.tb = tb;
    }

    /// Remaining words whose test tag is the gold's (never a word without a tag).
    fn correct_tags(&self) -> u64 {
        self.gtags
            .iter()
            .zip(&self.ttags)
            .filter(|(a, b)| self.label_eq(a.0, b.0))
            .count() as u64
    }
}

/// The tag of a test word without one: equal to no gold tag.
const UNTAGGED: u32 = u32::MAX;

/// The reading decisions of treeval's default mode on the test trees (generated trees),
/// counted over the paired sentences.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Reading {
    /// Test trees read without POS tags (a word directly under a phrase).
    pub untagged_trees: u64,
    /// Test words without a POS tag.
    pub untagged_words: u64,
    /// Of those, deleted because the equal gold word they stand on is deleted (its tag a
    /// `DELETE_LABEL`; [`place::place`]).
    pub untagged_deleted: u64,
    /// Of those, on no equal gold word (kept; a word error).
    pub untagged_unpaired: u64,
    /// Error sentences whose test tree's parentheses do not balance.
    pub unbalanced_sentences: u64,
    /// Of those: with a `)` without an open `(`, and with a `(` left open.
    pub extra_close_sentences: u64,
    /// See [`Reading::extra_close_sentences`].
    pub unclosed_sentences: u64,
    /// Test trees without the outer wrapper (`( … )`, `(ROOT …)`, `(TOP …)`) that their
    /// gold tree has.
    pub wrapper_missing: u64,
    /// Test trees with an outer wrapper their gold tree does not have.
    pub wrapper_extra: u64,
}

impl std::ops::AddAssign<&Reading> for Reading {
    fn add_assign(&mut self, o: &Reading) {
        self.untagged_trees += o.untagged_trees;
        self.untagged_words += o.untagged_words;
        self.untagged_deleted += o.untagged_deleted;
        self.untagged_unpaired += o.untagged_unpaired;
        self.unbalanced_sentences += o.unbalanced_sentences;
        self.extra_close_sentences += o.extra_close_sentences;
        self.unclosed_sentences += o.unclosed_sentences;
        self.wrapper_missing += o.wrapper_missing;
        self.wrapper_extra += o.wrapper_extra;
    }
}

impl Reading {
    /// One line per decision taken (none when nothing was counted), for the report.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.untagged_words > 0 {
            out.push(format!(
                "system words without a POS tag: {} (deleted as the equal gold word: {}; unequal: {})",
                self.untagged_words, self.untagged_deleted, self.untagged_unpaired
            ));
        }
        if self.unbalanced_sentences > 0 {
            out.push(format!(
                "error sentences: unbalanced parentheses: {} (extra ')': {}; '(' left open: {})",
                self.unbalanced_sentences, self.extra_close_sentences, self.unclosed_sentences
            ));
        }
        if self.wrapper_missing + self.wrapper_extra > 0 {
            out.push(format!(
                "system trees without the gold's outer wrapper: {} (with one the gold lacks: {})",
                self.wrapper_missing, self.wrapper_extra
            ));
        }
        out
    }

    /// Whether anything was counted.
    pub fn is_empty(&self) -> bool {
        *self == Reading::default()
    }
}

/// EVALB's reinsert_term: the word goes back at its index; the brackets opened after it
/// move one word on, and those open around it grow by one.
fn reinsert(q: &Quote, tags: &mut Vec<(u32, Span)>, pos: &mut [(u32, u32)]) {
    tags.insert(q.index.min(tags.len()), (q.label, q.word));
    for p in pos.iter_mut().skip(q.bracket) {
        p.0 += 1;
        p.1 += 1;
    }
    for &k in &q.ends {
        pos[k].1 += 1;
    }
}

/// Everything a `brackets` evaluation found.
#[derive(Debug, Clone, Default)]
pub struct BracketResult {
    /// Every sentence, in order.
    pub rows: Vec<SentenceRow>,
    /// Sums over all sentences.
    pub all: BracketCounts,
    /// Sums over sentences of length ≤ `CUTOFF_LEN`.
    pub cutoff: BracketCounts,
    /// EVALB's error lines: sentence id and message (`12 : Words unmatch (is|was)`).
    pub errors: Vec<(u64, String)>,
    /// Per error of [`BracketResult::errors`], in the same order: the line where its test
    /// tree starts (`None` when the test file has no tree there).
    pub error_lines: Vec<Option<u64>>,
    /// Set when `MAX_ERROR` stopped the run (EVALB exits there without a summary; only
    /// with [`Params::stop_at_max_error`]).
    pub stopped: Option<String>,
    /// EVALB's debug record of every row, when [`Params::trace`] is set.
    pub traces: Vec<trace::Trace>,
    /// The debug record of the sentence EVALB stopped in (what it printed before it
    /// stopped), when [`Params::trace`] is set.
    pub partial: Option<trace::Trace>,
    /// The positioned problems of malformed trees, in both files.
    pub problems: Vec<Diagnostic>,
    /// Trees read from each file.
    pub gold_trees: u64,
    /// Trees read from the test file.
    pub test_trees: u64,
    /// Words (pre-terminals) in the gold trees read.
    pub gold_words: u64,
    /// Words in the test trees read.
    pub test_words: u64,
    /// The careful evaluation (`--careful`), over the scored sentences.
    pub careful: Option<CarefulResult>,
    /// With [`Params::by_label`]: gold, test and matched brackets of the scored sentences
    /// per label as compared (cut, `EQ_LABEL` classes as their first label), by name.
    pub by_label: Vec<(String, by::BracketGroup)>,
    /// With [`Params::keep_brackets`]: every scored sentence's brackets.
    pub sentences: Vec<by::ScoredBrackets>,
    /// The label strings [`by::ScoredBrackets`] refer to, by index (with `keep_brackets`).
    pub label_names: Vec<String>,
    /// Sentences kept and excluded by [`Params::selection`] (of those paired).
    pub selection: crate::select::SelectionCounts,
    /// With [`Params::filter`]: the sentences and brackets it kept, of those scored.
    pub where_counts: filter::WhereCounts,
    /// The reading decisions on the test trees (treeval's default mode).
    pub reading: Reading,
}

/// The careful evaluation of one test file.
#[derive(Debug, Clone, Default)]
pub struct CarefulResult {
    /// Summed counts.
    pub counts: crate::careful::CarefulCounts,
    /// Per scored sentence: its id and which treebank brackets the parse reproduced.
    pub reproduced: Vec<(u64, Vec<bool>)>,
    /// With `keep_brackets`: every scored sentence's parse brackets and classes.
    pub brackets: Vec<(u64, Vec<crate::careful::CBracket>, Vec<u8>)>,
    /// With `export`: the lines to judge.
    pub export: Vec<String>,
    /// Scored sentences left out of the careful evaluation: their id, and the words gold
    /// and test keep after its preparation (they differ).
    pub left_out: Vec<(u64, u32, u32)>,
}

/// Score every tree of `test` against the tree of `gold` at the same position, as EVALB
/// pairs lines. Only a file that cannot be read is an `Err`; every other problem is in
/// the result.
pub fn evaluate<G: std::io::BufRead + Send, T: std::io::BufRead + Send>(
    gold: &mut treeval_formats::bracket::BracketReader<G>,
    test: &mut treeval_formats::bracket::BracketReader<T>,
    params: &Params,
    careful: Option<&crate::careful::CarefulOptions>,
) -> Result<BracketResult, treeval_formats::Error> {
    // each file is read and parsed on its own thread
    std::thread::scope(|scope| {
        let mut g = Prefetch::spawn(scope, gold);
        let mut t = Prefetch::spawn(scope, test);
        score_all(&mut g, &mut t, params, careful)
    })
}

/// Score on the calling thread (no reader threads), with the same results as
/// [`evaluate`].
pub fn evaluate_inline<G: std::io::BufRead, T: std::io::BufRead>(
    gold: &mut treeval_formats::bracket::BracketReader<G>,
    test: &mut treeval_formats::bracket::BracketReader<T>,
    params: &Params,
    careful: Option<&crate::careful::CarefulOptions>,
) -> Result<BracketResult, treeval_formats::Error> {
    let mut g = Inline {
        r: gold,
        tree: BracketTree::default(),
    };
    let mut t = Inline {
        r: test,
        tree: BracketTree::default(),
    };
    score_all(&mut g, &mut t, params, careful)
}

/// Trees one by one.
trait Trees {
    fn next(&mut self) -> Result<Option<&BracketTree>, treeval_formats::Error>;
}

struct Inline<'a, R> {
    r: &'a mut treeval_formats::bracket::BracketReader<R>,
    tree: BracketTree,
}

impl<R: std::io::BufRead> Trees for Inline<'_, R> {
    fn next(&mut self) -> Result<Option<&BracketTree>, treeval_formats::Error> {
        Ok(self.r.read_tree(&mut self.tree)?.then_some(&self.tree))
    }
}

impl Trees for Prefetch {
    fn next(&mut self) -> Result<Option<&BracketTree>, treeval_formats::Error> {
        Prefetch::next(self)
    }
}

/// Trees per batch handed from a reader thread.
const BATCH: usize = 256;

type Batch = Vec<BracketTree>;

/// A file's trees, read and parsed on another thread, in batches whose trees are reused.
struct Prefetch {
    rx: std::sync::mpsc::Receiver<Result<Batch, treeval_formats::Error>>,
    back: std::sync::mpsc::SyncSender<Batch>,
    batch: Batch,
    next: usize,
    done: bool,
}

impl Prefetch {
    fn spawn<'s, R: std::io::BufRead + Send>(
        scope: &'s std::thread::Scope<'s, '_>,
        r: &'s mut treeval_formats::bracket::BracketReader<R>,
    ) -> Self {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Batch, treeval_formats::Error>>(4);
        let (back, recycled) = std::sync::mpsc::sync_channel::<Batch>(8);
        scope.spawn(move || loop {
            let mut batch = recycled.try_recv().unwrap_or_default();
            let mut n = 0;
            let mut end = false;
            while n < BATCH {
                if n == batch.len() {
                    batch.push(BracketTree::default());
                }
                match r.read_tree(&mut batch[n]) {
                    Ok(true) => n += 1,
                    Ok(false) => {
                        end = true;
                        break;
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
            batch.truncate(n);
            if (n > 0 && tx.send(Ok(batch)).is_err()) || end {
                return;
            }
        });
        Prefetch {
            rx,
            back,
            batch: Vec::new(),
            next: 0,
            done: false,
        }
    }

    /// The next tree, or `None` at the end.
    fn next(&mut self) -> Result<Option<&BracketTree>, treeval_formats::Error> {
        if self.next >= self.batch.len() {
            if self.done {
                return Ok(None);
            }
            let old = std::mem::take(&mut self.batch);
            let _ = self.back.try_send(old);
            self.next = 0;
            match self.rx.recv() {
                Ok(Ok(b)) => self.batch = b,
                Ok(Err(e)) => return Err(e),
                Err(_) => {
                    self.done = true;
                    return Ok(None);
                }
            }
        }
        self.next += 1;
        Ok(self.batch.get(self.next - 1))
    }
}

/// Add a sentence's row to the sums and the rows.
fn continue_row(
    res: &mut BracketResult,
    row: SentenceRow,
    trace: Option<trace::Trace>,
    params: &Params,
) {
    res.traces.extend(trace);
    res.all.add_row(&row);
    if row.length as i64 <= params.cutoff_len {
        res.cutoff.add_row(&row);
    }
    res.rows.push(row);
}

fn score_all(
    gold: &mut dyn Trees,
    test: &mut dyn Trees,
    params: &Params,
    careful: Option<&crate::careful::CarefulOptions>,
) -> Result<BracketResult, treeval_formats::Error> {
    let mut run = Run::new(params, careful);
    let mut id = 0u64;
    loop {
        let Some(g) = gold.next()? else {
            run.test_left(test, id)?;
            break;
        };
        id += 1;
        run.res.count_tree(g, true);
        let Some(t) = test.next()? else {
            run.gold_left(g, id);
            run.res.count_rest(gold, true)?;
            break;
        };
        run.res.count_tree(t, false);
        if !run.pair(id, g, t) {
            break;
        }
    }
    if run.res.stopped.is_some() {
        // count the trees left, for the report
        run.res.count_rest(gold, true)?;
        run.res.count_rest(test, false)?;
    }
    Ok(run.finish())
}

impl BracketResult {
    /// Count a tree read from the gold file (`gold`) or the test file.
    #[inline]
    fn count_tree(&mut self, t: &BracketTree, gold: bool) {
        if gold {
            self.gold_trees += 1;
            self.gold_words += t.leaves.len() as u64;
        } else {
            self.test_trees += 1;
            self.test_words += t.leaves.len() as u64;
        }
    }

    /// Count the trees left in the gold file (`gold`) or the test file.
    fn count_rest(
        &mut self,
        trees: &mut dyn Trees,
        gold: bool,
    ) -> Result<(), treeval_formats::Error> {
        while let Some(t) = trees.next()? {
            self.count_tree(t, gold);
        }
        Ok(())
    }
}

/// A run of [`score_all`]: its settings, the scorer and the result so far.
struct Run<'p> {
    params: &'p Params,
    careful: Option<&'p crate::careful::CarefulOptions>,
    scorer: Scorer,
    res: BracketResult,
    /// Per label id: the brackets counted under it (with [`Params::by_label`]).
    labels: Vec<by::BracketGroup>,
}

impl Run<'_> {
    /// A run with these settings, nothing scored yet.
    fn new<'p>(params: &'p Params, careful: Option<&'p crate::careful::CarefulOptions>) -> Run<'p> {
        Run {
            params,
            careful,
            scorer: Scorer::new(params.clone()),
            res: BracketResult {
                careful: careful.map(|_| CarefulResult::default()),
                selection: params.selection.counts(),
                ..BracketResult::default()
            },
            labels: Vec::new(),
        }
    }

    /// The result, with the breakdown by label and the label names.
    fn finish(mut self) -> BracketResult {
        let names = self.scorer.label_names();
        if self.params.by_label {
            self.res.by_label = by::named_groups(&names, &self.labels);
            let filter = &self.params.filter;
            self.res
                .by_label
                .retain(|(label, _)| filter.label_matches(label));
        }
        if self.params.keep_brackets {
            self.res.label_names = names;
        }
        self.res.reading = self.scorer.reading;
        self.res
    }

    /// Record EVALB's error line for sentence `id` (its test tree at `line`); `false`
    /// when the run stops there: with [`Params::stop_at_max_error`], when more than
    /// `MAX_ERROR` errors came before it.
    fn error(&mut self, id: u64, line: Option<u64>, msg: String) -> bool {
        let res = &mut self.res;
        let before = res.errors.len() as i64;
        res.errors.push((id, msg));
        res.error_lines.push(line);
        if self.params.stop_at_max_error && before > self.params.max_error {
            res.stopped = Some(format!(
                "stopped at sentence {id}, error {} (MAX_ERROR {}): EVALB exits here without a summary; the summary covers the sentences before it",
                before + 1,
                self.params.max_error
            ));
            return false;
        }
        true
    }

    /// The gold file ended after sentence `id`: a test tree left is an error, and the
    /// test trees left are counted.
    fn test_left(&mut self, test: &mut dyn Trees, id: u64) -> Result<(), treeval_formats::Error> {
        if let Some(t) = test.next()? {
            self.res.count_tree(t, false);
            let line = Some(t.line);
            self.error(
                id + 1,
                line,
                "Number of lines unmatch (too many lines in test file)".into(),
            );
            // EVALB stops here; the trees left are counted, so that the caller can
            // say how many there are
            self.res.count_rest(test, false)?;
        }
        Ok(())
    }

    /// The test file ended before gold tree `g` (sentence `id`): the error, and what
    /// EVALB printed of the sentence.
    fn gold_left(&mut self, g: &BracketTree, id: u64) {
        if self.params.trace {
            self.res.partial = Some(trace::Trace {
                reads: [trace::reads(g, self.params), Vec::new()],
                ..trace::Trace::default()
            });
        }
        self.error(
            id,
            None,
            "Number of lines unmatch (too many lines in gold file)".into(),
        );
    }

    /// Score sentence `id`, gold tree `g` and test tree `t`, and add it; `false` when
    /// EVALB exits at its error.
    fn pair(&mut self, id: u64, g: &BracketTree, t: &BracketTree) -> bool {
        self.count_reading(g, t);
        let (row, trace) = if self.params.trace {
            let (row, trace) = self.scorer.score_traced(id, g, t);
            (row, Some(trace))
        } else {
            (self.scorer.score(id, g, t), None)
        };
        self.add(id, row, trace, g, t)
    }

    /// Add sentence `id`, scored into `row` (the scorer holds its brackets), gold tree
    /// `g` and test tree `t` (under `--align chars`, the first test tree over it); `false`
    /// when EVALB exits at its error.
    fn add(
        &mut self,
        id: u64,
        mut row: SentenceRow,
        trace: Option<trace::Trace>,
        g: &BracketTree,
        t: &BracketTree,
    ) -> bool {
        let sel = &self.params.selection;
        let kept = sel.tally(&mut self.res.selection, None, id, row.length, row.length);
        if row.status == Status::Error {
            let msg = row.message.clone().unwrap_or_default();
            if !self.error(id, Some(t.line), msg) {
                self.res.partial = trace;
                return false;
            }
            self.res.problems.extend(g.problems.iter().cloned());
            self.res.problems.extend(t.problems.iter().cloned());
        }
        if !kept {
            return true;
        }
        let filter = &self.params.filter;
        if !filter.is_empty() {
            self.scorer
                .filter_row(filter, &mut row, &mut self.res.where_counts);
            if !filter.sentence_matches(row.length) {
                return true;
            }
        }
        if row.counted() {
            self.careful(id, g, t, row.missed);
        }
        if row.counted() {
            if self.params.by_label {
                self.scorer.count_labels(&mut self.labels);
            }
            if self.params.keep_brackets {
                self.res
                    .sentences
                    .push(self.scorer.scored_brackets(id, g, &self.params.filter));
            }
        }
        continue_row(&mut self.res, row, trace, self.params);
        true
    }

    /// Count how test tree `t` was read, on its own: without tags, unbalanced (treeval's
    /// default mode; `--align chars` counts these for every system tree).
    pub(crate) fn count_tree_reading(&mut self, t: &BracketTree) {
        if self.params.evalb_reading {
            return;
        }
        let r = &mut self.scorer.reading;
        r.untagged_trees += u64::from(t.untagged);
        if t.unbalanced() {
            r.unbalanced_sentences += 1;
            r.extra_close_sentences += u64::from(t.extra_close > 0);
            r.unclosed_sentences += u64::from(t.unclosed > 0);
        }
    }

    /// Count how test tree `t` was read, against gold tree `g` (treeval's default mode).
    fn count_reading(&mut self, g: &BracketTree, t: &BracketTree) {
        if self.params.evalb_reading {
            return;
        }
        self.count_tree_reading(t);
        let wrapped = |x: &BracketTree| x.nodes.iter().any(|n| self.scorer.wrapper(x, n));
        let (gw, tw) = (wrapped(g), wrapped(t));
        let r = &mut self.scorer.reading;
        r.wrapper_missing += u64::from(gw && !tw);
        r.wrapper_extra += u64::from(tw && !gw);
    }

    /// The careful evaluation of scored sentence `id` (with `--careful`); of one scored as
    /// `missed`, as an empty parse (its treebank brackets, none reproduced).
    fn careful(&mut self, id: u64, g: &BracketTree, t: &BracketTree, missed: bool) {
        let (Some(o), Some(c)) = (self.careful, self.res.careful.as_mut()) else {
            return;
        };
        let counted = match missed {
            true => Ok(crate::careful::missed(g, o)),
            false => crate::careful::count(g, t, o),
        };
        let cs = match counted {
            Ok(cs) => cs,
            Err((gw, tw)) => {
                c.left_out.push((id, gw, tw));
                return;
            }
        };
        c.counts += &cs.counts;
        if o.export {
            let words = crate::careful::kept_words(g, o);
            c.export
                .extend(crate::careful::export_lines(id, &cs, &words));
        }
        if o.keep_brackets {
            c.brackets.push((id, cs.parse, cs.classes));
        }
        c.reproduced.push((id, cs.reproduced));
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use treeval_formats::bracket::{BracketReader, Layout};

    /// The first tree of `s`, as read (with its problems).
    pub(crate) fn tree(s: &str) -> BracketTree {
        let mut r = BracketReader::new(s.as_bytes(), "t", Layout::Line);
        let mut t = BracketTree::default();
        r.read_tree(&mut t).unwrap();
        t
    }

    fn row(g: &str, t: &str) -> SentenceRow {
        Scorer::new(Params::collins()).score(1, &tree(g), &tree(t))
    }

    #[test]
    fn evalb_sample_rows() {
        let g = "(S (A (P this)) (B (Q is) (A (R a) (T test))))";
        let r = row(
            g,
            "(S (A (P this)) (B (Q is) (A (A (A (A (A (R a) (T test))))))))",
        );
        assert_eq!((r.matched, r.gold, r.test, r.crossing), (4, 4, 8, 0));
        let r = row(g, "(S (A (P this) (Q is)) (A (R a) (T test)))");
        assert_eq!((r.matched, r.gold, r.test, r.crossing), (2, 4, 3, 1));
        let r = row(g, "(S (A (P this)) (B (Q was) (A (A (R a) (T test)))))");
        assert_eq!(r.message.as_deref(), Some("Words unmatch (is|was)"));
        let r = row(g, "");
        assert_eq!(r.status, Status::Skip);
        let r = row(
            "(S (A (P this)) (B (Q is) (A (R a) (T test))) (: *))",
            "(S (A (P this)) (B (Q is) (A (R a) (T test))) (: *))",
        );
        assert_eq!((r.length, r.words, r.matched), (5, 4, 4));
    }

    #[test]
    fn quote_label_puts_a_deleted_misquote_back() {
        // gold deletes `('' ')` (a DELETE_LABEL), test keeps `(POS ')`: EVALB 2008 with
        // new.prm/nk.prm scores the pair (checked with EVALB: 3/3/3 brackets, 2 of 3 tags)
        // in both directions; without QUOTE_LABEL it is a length error
        let a = "(S (NP (NN dogs) ('' ')) (VP (VBZ run)))";
        let b = "(S (NP (NN dogs) (POS ')) (VP (VBZ run)))";
        let mut p = Params::collins();
        let r = Scorer::new(p.clone()).score(1, &tree(a), &tree(b));
        assert_eq!(r.message.as_deref(), Some("Length unmatch (2|3)"));
        p.quote_label = vec!["''".into(), "POS".into()];
        for (g, t) in [(a, b), (b, a)] {
            let r = Scorer::new(p.clone()).score(1, &tree(g), &tree(t));
            assert_eq!(r.status, Status::Ok, "{r:?}");
            assert_eq!(
                (r.length, r.matched, r.gold, r.test, r.words, r.correct_tags),
                (3, 3, 3, 3, 3, 2)
            );
        }
        // only `'`, `"` and `/` words are misquotes
        let r = Scorer::new(p).score(
            1,
            &tree(&a.replace(" ')", " x)")),
            &tree(&b.replace(" ')", " x)")),
        );
        assert_eq!(r.status, Status::Error);
    }

    #[test]
    fn untagged_words_take_the_gold_words_deletion_decision() {
        let g = "( (S (NP (DT the) (NN cat)) (VP (VBD sat) (NP (-NONE- *))) (. .)))";
        let tagged = "(S (NP (DT the) (NN cat)) (VP (VBD sat) (NP (-NONE- *))) (. .))";
        let untagged = "(S (NP the cat) (VP sat (NP *)) .)";
        let counts = |r: &SentenceRow| {
            let c = (r.matched, r.gold, r.test, r.length, r.words);
            (r.status, c, r.correct_tags, r.untagged_words)
        };
        let mut s = Scorer::new(Params::collins());
        let a = s.score(1, &tree(g), &tree(tagged));
        assert_eq!(counts(&a), (Status::Ok, (3, 3, 3, 4, 3), 3, 0));
        assert!(s.reading.is_empty());
        // the same brackets and words; no correct tag
        let b = s.score(2, &tree(g), &tree(untagged));
        assert_eq!(counts(&b), (Status::Ok, (3, 3, 3, 4, 3), 0, 3));
        let r = s.reading;
        let r = (r.untagged_words, r.untagged_deleted, r.untagged_unpaired);
        assert_eq!(r, (5, 2, 0));
        // without the trace, as a parser writes it: `.` still stands on the gold's `.`
        // (placed by position, it stood on `*`: a length error, 3|4)
        let no_trace = s.score(4, &tree(g), &tree("(S (NP the cat) (VP sat) .)"));
        assert_eq!(counts(&no_trace), (Status::Ok, (3, 3, 3, 4, 3), 0, 3));
        assert_eq!(s.reading.untagged_deleted, 3);
        // a different word: kept, a word error as with tags
        let c = s.score(3, &tree(g), &tree(&untagged.replace("sat", "sits")));
        assert_eq!(c.message.as_deref(), Some("Words unmatch (sat|sits)"));
        assert_eq!(s.reading.untagged_unpaired, 1);
        // EVALB's reading (--compat evalb): an error sentence
        let evalb = Params {
            evalb_reading: true,
            ..Params::collins()
        };
        let d = Scorer::new(evalb).score(1, &tree(g), &tree(untagged));
        assert_eq!(d.status, Status::Error);
        assert_eq!(d.message.as_deref(), Some("Malformed test tree (line 1, column 8: the word 'the' has no POS tag; EVALB reads (TAG word) only)"));
        // tagging accuracy: n/a when no scored test word has a tag
        let mut sum = BracketCounts::default();
        sum.add_row(&b);
        assert_eq!(sum.scores().tagging_accuracy, None);
        sum.add_row(&a);
        assert_eq!(sum.scores().tagging_accuracy, Some(0.5));
    }

    #[test]
    fn a_sentence_the_system_failed_on_is_an_empty_parse_unless_excluded() {
        // 3 gold brackets (S, NP, VP; the NP over a trace has no word) over 3 kept words
        let g = "(S (NP (DT the) (NN cat)) (VP (VBD sat) (NP (-NONE- *))) (. .))";
        let unbalanced = "(S (NP (DT the) (NN cat)) (VP (VBD sat)) (. .)";
        let missed = Params {
            errors_missed: true,
            ..Params::collins()
        };
        let mut s = Scorer::new(missed.clone());
        let ok = s.score(1, &tree(g), &tree(g));
        let err = s.score(2, &tree(g), &tree(unbalanced));
        let counts = |r: &SentenceRow| (r.missed, r.matched, r.gold, r.test, r.words);
        assert_eq!(err.status, Status::Error);
        assert_eq!(counts(&err), (true, 0, 3, 0, 3));
        assert_eq!(
            (err.correct_tags, err.untagged_words, err.crossing),
            (0, 3, 0)
        );
        // other words, and a test tree without words: missed too
        let other = s.score(3, &tree(g), &tree(&g.replace("sat", "sits")));
        assert_eq!(counts(&other), (true, 0, 3, 0, 3));
        let skip = s.score(4, &tree(g), &tree(""));
        assert_eq!(
            (skip.status, counts(&skip)),
            (Status::Skip, (true, 0, 3, 0, 3))
        );
        // a malformed gold tree has nothing to miss; nor a gold tree without words kept
        let bad_gold = s.score(5, &tree(unbalanced), &tree(g));
        assert_eq!(counts(&bad_gold), (false, 0, 0, 0, 0));
        let no_words = s.score(6, &tree("(S (. .))"), &tree(""));
        assert_eq!(counts(&no_words), (false, 0, 0, 0, 0));
        let mut sum = BracketCounts::default();
        for r in [&ok, &err, &bad_gold, &no_words] {
            sum.add_row(r);
        }
        // by hand: matched 3 of gold 3 + 3, test 3; complete 1 of 2 (scored + missed);
        // crossing over the 1 scored sentence; tags 3 correct of 6 words
        let sc = sum.scores();
        assert_eq!(
            (sum.valid(), sum.missed_sentences, sum.error_sentences),
            (1, 1, 2)
        );
        assert_eq!((sc.recall, sc.precision), (Some(0.5), Some(1.0)));
        assert_eq!(sc.fmeasure, Some(2.0 / 3.0));
        assert_eq!((sc.complete_match, sc.avg_crossing), (Some(0.5), Some(0.0)));
        assert_eq!(sc.no_crossing, Some(1.0));
        assert_eq!(sc.tagging_accuracy, Some(0.5));
        // EVALB's convention: the error sentence is left out, F 100
        let mut e = Scorer::new(Params::collins());
        let err = e.score(2, &tree(g), &tree(unbalanced));
        assert_eq!(counts(&err), (false, 0, 0, 0, 0));
        let mut sum = BracketCounts::default();
        sum.add_row(&ok);
        sum.add_row(&err);
        assert_eq!(sum.scores().fmeasure, Some(1.0));
    }

    #[test]
    fn the_careful_evaluation_counts_a_missed_sentences_treebank_brackets() {
        // sentence 2 does not balance: an empty parse, its 3 treebank brackets (S NP VP)
        // in TTB, none reproduced; sentence 1 reproduces its 3
        let g =
            "(S (NP (DT the) (NN cat)) (VP (VBD sat)))\n(S (NP (DT a) (NN dog)) (VP (VBD ran)))\n";
        let t = g.replace("(VBD ran)))", "(VBD ran))");
        let o = crate::careful::CarefulOptions::default();
        let run = |p: &Params| {
            let mut gr = BracketReader::new(g.as_bytes(), "g", Layout::Line);
            let mut tr = BracketReader::new(t.as_bytes(), "t", Layout::Line);
            evaluate_inline(&mut gr, &mut tr, p, Some(&o)).unwrap()
        };
        let missed = Params {
            errors_missed: true,
            ..Params::collins()
        };
        let c = run(&missed).careful.unwrap();
        assert_eq!((c.counts.TTB, c.counts.TPB, c.counts.EM), (6, 3, 3));
        assert_eq!(c.reproduced[1], (2, vec![false; 3]));
        let c = run(&Params::collins()).careful.unwrap();
        assert_eq!((c.counts.TTB, c.counts.TPB, c.counts.EM), (3, 3, 3));
    }

    #[test]
    fn root_and_top_wrappers_are_not_counted() {
        let t = "(S (NP (DT a)) (VP (VB b)))";
        for g in [
            "( (S (NP (DT a)) (VP (VB b))))",
            "(ROOT (S (NP (DT a)) (VP (VB b))))",
            "(TOP (S (NP (DT a)) (VP (VB b))))",
        ] {
            let r = Scorer::new(Params::default()).score(1, &tree(g), &tree(t));
            assert_eq!((r.matched, r.gold, r.test), (3, 3, 3), "{g}");
        }
        // EVALB counts ROOT as a bracket
        let evalb = Params {
            evalb_reading: true,
            ..Params::default()
        };
        let g = "(ROOT (S (NP (DT a)) (VP (VB b))))";
        let r = Scorer::new(evalb).score(1, &tree(g), &tree(t));
        assert_eq!((r.matched, r.gold, r.test), (3, 4, 3));
    }

    #[test]
    fn parameter_file() {
        let (p, w) = Params::parse(
            "# c\nLABELED 0   \nEQ_LABEL A\nFOO 1\nDELETE_LABEL_FOR_LENGTH -NONE-\nQUOTE_LABEL POS\n",
            &Arc::from("p"),
        );
        assert!(!p.labeled);
        assert_eq!(p.delete_label_for_length, ["-NONE-"]);
        assert!(p.delete_label.is_empty());
        assert_eq!(p.quote_label, ["POS"]);
        assert_eq!(w.len(), 2, "{w:?}");
        assert_eq!(atoi(" 12x"), 12);
        assert_eq!(atoi("x"), 0);
    }
}
