//! Sentence selection (`--sent-id`, `--min-len`, `--max-len`): which gold sentences an
//! evaluation scores, decided in one place for every family.
//!
//! A sentence is known by its id (`# sent_id`, or its 1-based number in the gold file when
//! it has none) and its length in syntactic words (each family says which words: CoNLL-U
//! multiword-token ranges and empty nodes are not words; in brackets the words EVALB
//! counts for its length cut-off). Excluded sentences are still read, checked and paired;
//! they are only not scored, and every one is counted ([`SelectionCounts`]).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

/// Which sentences `--sent-id` keeps.
#[derive(Debug, Clone)]
pub enum IdFilter {
    /// The ids listed in a file (one per line; blank lines and `#` comments skipped).
    File {
        /// The file as given.
        path: String,
        /// The ids, in file order, without repeats.
        ids: Vec<String>,
        /// Id → its index in `ids`.
        index: HashMap<String, usize>,
    },
    /// Ids the regular expression matches as a whole.
    Regex(regex::Regex),
}

/// The selection of gold sentences to score.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// By id, if asked.
    pub ids: Option<IdFilter>,
    /// Shortest length kept.
    pub min_len: Option<u64>,
    /// Longest length kept.
    pub max_len: Option<u64>,
}

impl PartialEq for Selection {
    fn eq(&self, o: &Self) -> bool {
        let ids = match (&self.ids, &o.ids) {
            (None, None) => true,
            (Some(IdFilter::File { ids: a, .. }), Some(IdFilter::File { ids: b, .. })) => a == b,
            (Some(IdFilter::Regex(a)), Some(IdFilter::Regex(b))) => a.as_str() == b.as_str(),
            _ => false,
        };
        ids && self.min_len == o.min_len && self.max_len == o.max_len
    }
}

impl Eq for Selection {}

/// What the selection makes of one sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Scored.
    Keep,
    /// Not scored: its id is not selected.
    ExcludedById,
    /// Not scored: its length is outside `--min-len`..`--max-len` (its id is selected).
    ExcludedByLength,
}

impl Verdict {
    /// Whether the sentence is scored.
    pub fn kept(self) -> bool {
        self == Verdict::Keep
    }
}

/// Sentences and words kept and excluded, and the listed ids seen. Serialized in the
/// states of `--emit-state` (`seen`: per id of an `--sent-id` file, in file order).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectionCounts {
    /// Sentences kept (scored).
    pub kept: u64,
    /// Their words.
    pub kept_words: u64,
    /// Sentences excluded by id.
    pub by_id: u64,
    /// Their words.
    pub by_id_words: u64,
    /// Sentences excluded by length.
    pub by_length: u64,
    /// Their words.
    pub by_length_words: u64,
    /// Per id of an `--sent-id` file: whether the gold has it.
    #[serde(default)]
    seen: Vec<bool>,
    /// Sentences `--sent-id` judged by their number in the file, having no `# sent_id`
    /// ([`Selection::by_number`]): a number that differs between a shard and the corpus.
    #[serde(default)]
    pub numbered: u64,
}

impl SelectionCounts {
    /// Count a sentence of `words` words judged `v`; `listed`: its id's index in the
    /// `--sent-id` file (see [`Selection::judge`]).
    pub fn add(&mut self, v: Verdict, words: u64, listed: Option<usize>) {
        if let Some(seen) = listed.and_then(|k| self.seen.get_mut(k)) {
            *seen = true;
        }
        let (n, w) = match v {
            Verdict::Keep => (&mut self.kept, &mut self.kept_words),
            Verdict::ExcludedById => (&mut self.by_id, &mut self.by_id_words),
            Verdict::ExcludedByLength => (&mut self.by_length, &mut self.by_length_words),
        };
        *n += 1;
        *w += words;
    }

    /// All sentences seen.
    pub fn sentences(&self) -> u64 {
        self.kept + self.by_id + self.by_length
    }

    /// Add the counts of a later part of the corpus (a shard): the sums, and an id of the
    /// `--sent-id` file is seen if either part has it.
    pub fn add_shard(&mut self, o: &SelectionCounts) {
        self.kept += o.kept;
        self.kept_words += o.kept_words;
        self.by_id += o.by_id;
        self.by_id_words += o.by_id_words;
        self.by_length += o.by_length;
        self.by_length_words += o.by_length_words;
        self.numbered += o.numbered;
        if self.seen.len() < o.seen.len() {
            self.seen.resize(o.seen.len(), false);
        }
        for (a, b) in self.seen.iter_mut().zip(&o.seen) {
            *a |= *b;
        }
    }
}

/// Why a selection cannot be made.
pub type SelectionError = String;

/// A selection as given, in a form that can be written and read back (the states of
/// `--emit-state` record it, and merge only states of equal selections).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectionSpec {
    /// `--sent-id`, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent_id: Option<IdSpec>,
    /// `--min-len`, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_len: Option<u64>,
    /// `--max-len`, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_len: Option<u64>,
}

/// `--sent-id` as given: a file of ids (its path and ids, in file order, without repeats)
/// or a regular expression (the pattern as given).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum IdSpec {
    /// A file of ids.
    File {
        /// The path as given.
        path: String,
        /// The ids read from it.
        ids: Vec<String>,
    },
    /// A regular expression matching whole ids.
    Regex {
        /// The pattern as given.
        pattern: String,
    },
}

impl Selection {
    /// The selection of `--sent-id ARG` (a file of ids if `ARG` names an existing file,
    /// else a regular expression that must match the whole id), `--min-len` and
    /// `--max-len`.
    pub fn parse(
        sent_id: Option<&str>,
        min_len: Option<u64>,
        max_len: Option<u64>,
    ) -> Result<Self, SelectionError> {
        if let (Some(a), Some(b)) = (min_len, max_len) {
            if a > b {
                return Err(format!(
                    "--min-len {a} is greater than --max-len {b}: no sentence could be kept"
                ));
            }
        }
        let ids = match sent_id {
            None => None,
            Some(arg) if std::path::Path::new(arg).is_file() => Some(read_id_file(arg)?),
            Some(arg) => Some(compile(arg)?),
        };
        Ok(Selection {
            ids,
            min_len,
            max_len,
        })
    }

    /// The selection as given ([`SelectionSpec`]).
    pub fn spec(&self) -> SelectionSpec {
        SelectionSpec {
            sent_id: self.ids.as_ref().map(|f| match f {
                IdFilter::File { path, ids, .. } => IdSpec::File {
                    path: path.clone(),
                    ids: ids.clone(),
                },
                IdFilter::Regex(re) => IdSpec::Regex {
                    pattern: pattern(re).to_owned(),
                },
            }),
            min_len: self.min_len,
            max_len: self.max_len,
        }
    }

    /// The selection of a [`SelectionSpec`] (a file's ids as recorded: the file is not
    /// read again).
    pub fn from_spec(spec: &SelectionSpec) -> Result<Self, SelectionError> {
        let ids = match &spec.sent_id {
            None => None,
            Some(IdSpec::Regex { pattern }) => Some(compile(pattern)?),
            Some(IdSpec::File { path, ids }) => Some(IdFilter::File {
                path: path.clone(),
                ids: ids.clone(),
                index: ids
                    .iter()
                    .enumerate()
                    .map(|(i, id)| (id.clone(), i))
                    .collect(),
            }),
        };
        Ok(Selection {
            ids,
            min_len: spec.min_len,
            max_len: spec.max_len,
        })
    }

    /// Whether every sentence is kept (no option given).
    pub fn is_all(&self) -> bool {
        self.ids.is_none() && self.min_len.is_none() && self.max_len.is_none()
    }

    /// Whether a length bound is given.
    pub fn has_length(&self) -> bool {
        self.min_len.is_some() || self.max_len.is_some()
    }

    /// Counts to fill, sized for this selection.
    pub fn counts(&self) -> SelectionCounts {
        let n = match &self.ids {
            Some(IdFilter::File { ids, .. }) => ids.len(),
            _ => 0,
        };
        SelectionCounts {
            seen: vec![false; n],
            ..SelectionCounts::default()
        }
    }

    /// The verdict on a sentence: its id (`None`: it has none, and `number`, its 1-based
    /// number in the gold file, stands for it) and its length.
    pub fn verdict(&self, id: Option<&str>, number: u64, len: u64) -> Verdict {
        if let Some(f) = &self.ids {
            let owned;
            let id = match id {
                Some(id) => id,
                None => {
                    owned = number.to_string();
                    &owned
                }
            };
            let hit = match f {
                IdFilter::File { index, .. } => index.contains_key(id),
                IdFilter::Regex(re) => re.is_match(id),
            };
            if !hit {
                return Verdict::ExcludedById;
            }
        }
        if self.min_len.is_some_and(|m| len < m) || self.max_len.is_some_and(|m| len > m) {
            return Verdict::ExcludedByLength;
        }
        Verdict::Keep
    }

    /// Whether `--sent-id` judges a sentence with id `id` by its number in the file (it has
    /// no id of its own).
    pub fn by_number(&self, id: Option<&str>) -> bool {
        self.ids.is_some() && id.is_none()
    }

    /// [`Selection::verdict`] and, with a file of ids, the index of the sentence's id in
    /// it (to count it as seen with [`SelectionCounts::add`]).
    pub fn judge(&self, id: Option<&str>, number: u64, len: u64) -> (Verdict, Option<usize>) {
        let listed = match &self.ids {
            Some(IdFilter::File { index, .. }) => {
                let owned = number.to_string();
                index.get(id.unwrap_or(&owned)).copied()
            }
            _ => None,
        };
        (self.verdict(id, number, len), listed)
    }

    /// [`Selection::verdict`], counted in `c` (`words`: the sentence's words, which may
    /// differ from `len` where the length counts other words, as in brackets).
    pub fn tally(
        &self,
        c: &mut SelectionCounts,
        id: Option<&str>,
        number: u64,
        len: u64,
        words: u64,
    ) -> bool {
        let (v, listed) = self.judge(id, number, len);
        c.add(v, words, listed);
        c.numbered += u64::from(self.by_number(id));
        v.kept()
    }

    /// The ids of the `--sent-id` file that no gold sentence has, in file order.
    pub fn missing<'s>(&'s self, c: &SelectionCounts) -> Vec<&'s str> {
        match &self.ids {
            Some(IdFilter::File { ids, .. }) => ids
                .iter()
                .zip(c.seen.iter().chain(std::iter::repeat(&false)))
                .filter(|(_, &seen)| !seen)
                .map(|(id, _)| id.as_str())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The selection in the signature: `len≥5,len≤40,id=re:PATTERN` or
    /// `id=file:NAME(N ids)`; `None` when every sentence is kept. A `|` of a pattern is
    /// written `\|` (the signature's separator).
    pub fn signature(&self) -> Option<String> {
        if self.is_all() {
            return None;
        }
        let mut parts = Vec::new();
        if let Some(m) = self.min_len {
            parts.push(format!("len≥{m}"));
        }
        if let Some(m) = self.max_len {
            parts.push(format!("len≤{m}"));
        }
        match &self.ids {
            Some(IdFilter::File { path, ids, .. }) => {
                let name = std::path::Path::new(path)
                    .file_name()
                    .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
                parts.push(format!("id=file:{name}({})", ids.len()));
            }
            Some(IdFilter::Regex(re)) => {
                parts.push(format!("id=re:{}", pattern(re).replace('|', "\\|")));
            }
            None => {}
        }
        Some(parts.join(","))
    }

    /// The selection in words, for notes: `sentences of at most 40 words, whose id matches
    /// the regular expression 'dev-.*'`.
    pub fn describe(&self, unit: &str) -> String {
        let mut parts = Vec::new();
        match (self.min_len, self.max_len) {
            (Some(a), Some(b)) => parts.push(format!("of {a} to {b} {unit}")),
            (Some(a), None) => parts.push(format!("of at least {a} {unit}")),
            (None, Some(b)) => parts.push(format!("of at most {b} {unit}")),
            (None, None) => {}
        }
        match &self.ids {
            Some(IdFilter::File { path, ids, .. }) => {
                parts.push(format!("whose id is one of the {} in {path}", ids.len()))
            }
            Some(IdFilter::Regex(re)) => parts.push(format!(
                "whose id matches the regular expression '{}' (as a whole)",
                pattern(re)
            )),
            None => {}
        }
        format!("sentences {}", parts.join(", "))
    }

    /// What the report records: the options and the counts.
    pub fn summary(&self, c: &SelectionCounts, unit: &str, words_known: bool) -> Summary {
        let missing = self.missing(c);
        let (kind, value) = match &self.ids {
            Some(IdFilter::File { path, .. }) => (Some("file"), Some(path.clone())),
            Some(IdFilter::Regex(re)) => (Some("regex"), Some(pattern(re).to_owned())),
            None => (None, None),
        };
        let words = |n: u64| words_known.then_some(n);
        Summary {
            sent_id: kind.zip(value).map(|(kind, value)| SentIdSummary {
                kind,
                value,
                missing: missing.len() as u64,
                missing_examples: missing.iter().take(5).map(|s| (*s).to_owned()).collect(),
            }),
            min_len: self.min_len,
            max_len: self.max_len,
            length_unit: unit.to_owned(),
            kept: Tally {
                sentences: c.kept,
                words: words(c.kept_words),
            },
            excluded_by_id: Tally {
                sentences: c.by_id,
                words: words(c.by_id_words),
            },
            excluded_by_length: Tally {
                sentences: c.by_length,
                words: words(c.by_length_words),
            },
        }
    }
}

/// Sentences and (where known) their words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Sentences.
    pub sentences: u64,
    /// Their words (absent where the command does not know them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub words: Option<u64>,
}

/// `--sent-id` as the report records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SentIdSummary {
    /// `file` or `regex`.
    pub kind: &'static str,
    /// The file's path or the pattern.
    pub value: String,
    /// Ids of the file that no gold sentence has.
    pub missing: u64,
    /// The first (at most 5) of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing_examples: Vec<String>,
}

/// The selection as the report records it (JSON `selection`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// `--sent-id`, if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent_id: Option<SentIdSummary>,
    /// `--min-len`, if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_len: Option<u64>,
    /// `--max-len`, if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_len: Option<u64>,
    /// What a length counts (`syntactic words`, …).
    pub length_unit: String,
    /// Sentences scored.
    pub kept: Tally,
    /// Sentences not scored because of their id.
    pub excluded_by_id: Tally,
    /// Sentences not scored because of their length.
    pub excluded_by_length: Tally,
}

impl Summary {
    /// One line for the report's notes: `selection (sentences of at most 40 words): 3 of
    /// 5 sentences kept (27 words); excluded: 2 by length (61 words)`.
    pub fn note(&self, described: &str) -> String {
        let w = |t: &Tally| t.words.map_or(String::new(), |w| format!(" ({w} words)"));
        let total =
            self.kept.sentences + self.excluded_by_id.sentences + self.excluded_by_length.sentences;
        let mut s = format!(
            "selection ({described}): {} of {total} sentences scored{}",
            self.kept.sentences,
            w(&self.kept)
        );
        let mut ex = Vec::new();
        if self.sent_id.is_some() {
            ex.push(format!(
                "{} by id{}",
                self.excluded_by_id.sentences,
                w(&self.excluded_by_id)
            ));
        }
        if self.min_len.is_some() || self.max_len.is_some() {
            ex.push(format!(
                "{} by length{}",
                self.excluded_by_length.sentences,
                w(&self.excluded_by_length)
            ));
        }
        s.push_str(&format!(
            "; excluded (read and checked, not scored): {}",
            ex.join(", ")
        ));
        s
    }
}

/// The pattern as given (without the anchors added around it).
fn pattern(re: &regex::Regex) -> &str {
    let s = re.as_str();
    s.strip_prefix("^(?:")
        .and_then(|s| s.strip_suffix(")$"))
        .unwrap_or(s)
}

/// A regular expression that must match a whole id.
fn compile(arg: &str) -> Result<IdFilter, SelectionError> {
    let bad = |e: regex::Error| {
        format!(
            "--sent-id '{arg}' is not an existing file, and not a valid regular expression: {}\n  hint: give a file of sentence ids (one per line), or a regular expression matching whole ids, e.g. 'dev-.*'",
            regex_message(&e)
        )
    };
    // checked alone first, so that an error shows the pattern as given
    regex::Regex::new(arg).map_err(bad)?;
    regex::Regex::new(&format!("^(?:{arg})$"))
        .map(IdFilter::Regex)
        .map_err(bad)
}

/// The regex crate's message without its picture of the pattern: its last line.
fn regex_message(e: &regex::Error) -> String {
    let s = e.to_string();
    let last = s.lines().map(str::trim).rfind(|l| !l.is_empty());
    last.unwrap_or("").trim_start_matches("error: ").to_owned()
}

/// A file of ids: one per line, blank lines and `#` comments skipped.
fn read_id_file(path: &str) -> Result<IdFilter, SelectionError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("--sent-id {path}: cannot read the file of sentence ids: {e}"))?;
    Ok(id_file(path, &text))
}

/// The ids of a file's `text`.
fn id_file(path: &str, text: &str) -> IdFilter {
    let mut ids = Vec::new();
    let mut index = HashMap::new();
    for line in text.lines() {
        let id = line.trim();
        if id.is_empty() || id.starts_with('#') {
            continue;
        }
        if !index.contains_key(id) {
            index.insert(id.to_owned(), ids.len());
            ids.push(id.to_owned());
        }
    }
    IdFilter::File {
        path: path.to_owned(),
        ids,
        index,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(ids: Option<IdFilter>, min: Option<u64>, max: Option<u64>) -> Selection {
        Selection {
            ids,
            min_len: min,
            max_len: max,
        }
    }

    #[test]
    fn lengths_are_inclusive_bounds() {
        let s = sel(None, Some(3), Some(5));
        let cases = [(2, false), (3, true), (4, true), (5, true), (6, false)];
        for (len, kept) in cases {
            assert_eq!(s.verdict(None, 1, len).kept(), kept, "length {len}");
        }
        assert_eq!(s.verdict(None, 1, 9), Verdict::ExcludedByLength);
        assert!(Selection::default().verdict(None, 1, 0).kept());
    }

    #[test]
    fn a_regex_matches_the_whole_id_and_a_number_stands_for_a_missing_id() {
        let s = sel(Some(compile("dev-1.").unwrap()), None, None);
        let cases = [
            (Some("dev-10"), 1, true),
            (Some("dev-1"), 1, false),
            (Some("xdev-10"), 1, false),
            (Some("dev-100"), 1, false),
            (None, 7, false),
        ];
        for (id, n, kept) in cases {
            assert_eq!(s.verdict(id, n, 1).kept(), kept, "{id:?}");
        }
        let s = sel(Some(compile("1|3").unwrap()), None, None);
        assert!(s.verdict(None, 3, 1).kept());
        assert!(!s.verdict(None, 13, 1).kept());
        assert_eq!(s.signature().unwrap(), "id=re:1\\|3");
    }

    #[test]
    fn id_excludes_before_length() {
        let s = sel(Some(compile("a").unwrap()), None, Some(2));
        assert_eq!(s.verdict(Some("b"), 1, 9), Verdict::ExcludedById);
        assert_eq!(s.verdict(Some("a"), 1, 9), Verdict::ExcludedByLength);
    }

    #[test]
    fn a_file_of_ids_skips_blanks_and_comments_and_counts_the_missing() {
        let f = id_file("ids.txt", "# dev\n s1 \n\ns3\ns1\n2\nnowhere\n");
        let s = sel(Some(f), None, None);
        let mut c = s.counts();
        let sentences = [
            (Some("s1"), 1, 4),
            (None, 2, 5),
            (Some("s3"), 3, 6),
            (Some("s4"), 4, 7),
        ];
        let kept: Vec<bool> = sentences
            .iter()
            .map(|&(id, n, len)| s.tally(&mut c, id, n, len, len))
            .collect();
        assert_eq!(kept, [true, true, true, false]);
        assert_eq!(
            (c.kept, c.kept_words, c.by_id, c.by_id_words),
            (3, 15, 1, 7)
        );
        assert_eq!(s.missing(&c), ["nowhere"]);
        assert_eq!(s.signature().unwrap(), "id=file:ids.txt(4)");
        let sum = s.summary(&c, "words", true);
        assert_eq!(sum.sent_id.as_ref().unwrap().missing, 1);
        assert_eq!(
            sum.note(&s.describe("words")),
            "selection (sentences whose id is one of the 4 in ids.txt): 3 of 4 sentences scored (15 words); excluded (read and checked, not scored): 1 by id (7 words)"
        );
    }

    #[test]
    fn bad_input_is_a_clear_error() {
        let e = Selection::parse(Some("dev-("), None, None).unwrap_err();
        assert!(e.contains("not a valid regular expression"), "{e}");
        let e = Selection::parse(None, Some(5), Some(4)).unwrap_err();
        assert!(e.contains("--min-len 5 is greater than --max-len 4"), "{e}");
        assert!(Selection::parse(None, Some(4), Some(4)).is_ok());
    }

    #[test]
    fn a_spec_gives_back_the_same_selection_and_shards_add_their_counts() {
        let f = id_file("ids.txt", "s1\ns2\nnowhere\n");
        for s in [
            sel(Some(f), Some(2), None),
            sel(Some(compile("dev-.*|3").unwrap()), None, Some(9)),
            sel(None, Some(1), Some(1)),
        ] {
            let back = Selection::from_spec(&s.spec()).unwrap();
            assert_eq!(back, s);
            assert_eq!(back.signature(), s.signature());
            assert_eq!(back.describe("words"), s.describe("words"));
        }
        // two shards of a file of 3 ids: s1 in the first, s2 in the second
        let s = sel(Some(id_file("ids.txt", "s1\ns2\nnowhere\n")), None, None);
        let (mut a, mut b) = (s.counts(), s.counts());
        s.tally(&mut a, Some("s1"), 1, 4, 4);
        s.tally(&mut a, Some("x"), 2, 5, 5);
        s.tally(&mut b, Some("s2"), 1, 6, 6);
        a.add_shard(&b);
        assert_eq!(
            (a.kept, a.kept_words, a.by_id, a.by_id_words),
            (2, 10, 1, 5)
        );
        assert_eq!(s.missing(&a), ["nowhere"]);
    }

    #[test]
    fn signature_and_description() {
        let s = sel(None, Some(5), Some(40));
        assert_eq!(s.signature().unwrap(), "len≥5,len≤40");
        assert_eq!(s.describe("words"), "sentences of 5 to 40 words");
        assert_eq!(sel(None, None, Some(40)).signature().unwrap(), "len≤40");
        assert_eq!(Selection::default().signature(), None);
    }
}
