//! Positions, diagnostics and the typed error of every reader.
//!
//! One [`Position`] type is shared by all readers. A [`Diagnostic`] is a positioned
//! problem (an error or a warning) with an optional hint; its `Display` reads
//! `gold.conllu:1204:7: expected a HEAD between 0 and 17 (the sentence has 17 words), found '42'`
//! followed by an indented `hint:` line where a fix is likely.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;

/// Where something is in an input file. Lines and columns are 1-based; the column
/// counts Unicode scalar values, so it matches what an editor shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Position {
    /// The path as the user gave it (`-` for standard input).
    pub path: Arc<str>,
    /// 1-based line number.
    pub line: u64,
    /// 1-based column (in characters).
    pub column: u32,
    /// 1-based index of the sentence in its file, when the problem is inside one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sentence: Option<u64>,
    /// The sentence's `# sent_id`, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent_id: Option<String>,
}

impl Position {
    /// A position at `line:column` in `path`, outside any sentence.
    pub fn new(path: Arc<str>, line: u64, column: u32) -> Self {
        Position {
            path,
            line,
            column,
            sentence: None,
            sent_id: None,
        }
    }

    /// The same position, tagged with a sentence index and id.
    pub fn in_sentence(mut self, index: u64, sent_id: Option<&str>) -> Self {
        self.sentence = Some(index);
        self.sent_id = sent_id.map(str::to_owned);
        self
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", crate::path_excerpt(&self.path))
        } else {
            let path = crate::path_excerpt(&self.path);
            write!(f, "{path}:{}:{}", self.line, self.column)
        }
    }
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Scoring goes on; the report counts and shows it.
    Warning,
    /// No score may be printed as if it were complete.
    Error,
}

/// What went wrong. Every message says what was expected and what was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be opened or read.
    #[error("cannot read the file: {0}")]
    Io(String),
    /// The bytes are not UTF-8.
    #[error("expected UTF-8 text, found an invalid byte sequence")]
    InvalidUtf8,
    /// The file is not UTF-8 text: what its first such bytes are, and the encoding they
    /// suggest (see [`crate::input::NotUtf8`]).
    #[error("expected UTF-8 text, found {0}")]
    NotUtf8(String),
    /// A word line has the wrong number of columns.
    #[error("expected {expected} tab-separated columns, found {found}")]
    ColumnCount {
        /// How many the format needs (the minimum, for CoNLL-2009).
        expected: usize,
        /// How many the line has.
        found: usize,
    },
    /// The format could not be recognised from the first word line.
    #[error("expected a CoNLL-U/CoNLL-X line (10 tab-separated columns), a CoNLL-2009 line (14 or more) or a MaltTab line (3 or 4: FORM POS HEAD [DEPREL]), found {found} column(s)")]
    UnknownFormat {
        /// Column count of the first word line.
        found: usize,
    },
    /// The ID column is malformed or out of sequence.
    #[error("expected ID {expected}, found '{}'", crate::excerpt(.found))]
    BadId {
        /// What the ID should have been.
        expected: String,
        /// What the file has.
        found: String,
    },
    /// A column that must not be empty is empty.
    #[error("expected a value in column {column}, found an empty field")]
    EmptyField {
        /// Column name (FORM, DEPREL, …).
        column: &'static str,
    },
    /// HEAD is not a non-negative integer (or `_`).
    #[error("expected HEAD to be a non-negative integer or '_', found '{}'", crate::excerpt(.found))]
    BadHead {
        /// The text found.
        found: String,
    },
    /// A DEPS item is malformed.
    #[error("expected DEPS to be '_' or items HEAD:DEPREL joined by '|', found '{}'", crate::excerpt(.found))]
    BadDeps {
        /// The text found.
        found: String,
    },
    /// The HEAD of a word points outside the sentence.
    #[error(
        "expected a HEAD between 0 and {words} (the sentence has {words} words), found '{head}'"
    )]
    HeadOutOfRange {
        /// The HEAD value.
        head: u64,
        /// Number of words in the sentence.
        words: usize,
    },
    /// HEAD is `_` where a head is needed.
    #[error("expected a HEAD, found '_'")]
    MissingHead,
    /// A word is its own head.
    #[error("expected a HEAD other than the word itself, found '{head}' on word {head}")]
    SelfLoop {
        /// The word (and head) index.
        head: u64,
    },
    /// The tree has a cycle.
    #[error("expected a tree, found a cycle through words {words}")]
    Cycle {
        /// The words of the cycle, e.g. `2 -> 5 -> 2`.
        words: String,
    },
    /// The tree has no or several roots.
    #[error("expected exactly one word with HEAD 0, found {found}")]
    RootCount {
        /// How many roots.
        found: usize,
    },
    /// The gold and system files have different numbers of sentences.
    #[error("expected {expected} sentences (as in {gold}), found {found}")]
    SentenceCount {
        /// Gold path.
        gold: String,
        /// Sentences in gold.
        expected: u64,
        /// Sentences in this file.
        found: u64,
    },
    /// A sentence has a different number of words in gold and system.
    #[error("expected {expected} words (as gold {gold}), found {found}")]
    WordCount {
        /// Gold position of the sentence.
        gold: String,
        /// Words in gold.
        expected: usize,
        /// Words here.
        found: usize,
    },
    /// A word's FORM differs between gold and system.
    #[error("expected FORM '{}' (as gold {gold}), found '{}'", crate::excerpt(.expected), crate::excerpt(.found))]
    FormMismatch {
        /// Gold position of the word.
        gold: String,
        /// Gold FORM.
        expected: String,
        /// System FORM.
        found: String,
    },
    /// A line contains only spaces or tabs.
    #[error("expected an empty line between sentences, found a line of only whitespace")]
    WhitespaceLine,
    /// Two blank lines in a row.
    #[error("expected a word line or a comment after a blank line, found another blank line")]
    DoubleBlankLine,
    /// The file does not end with a blank line.
    #[error("expected a blank line after the last sentence, found the end of the file")]
    MissingFinalBlankLine,
    /// The file starts with a byte-order mark.
    #[error("expected text to start right away, found a UTF-8 byte-order mark (ignored)")]
    ByteOrderMark,
    /// Lines end in CR LF.
    #[error("expected lines to end in LF, found CR LF on {lines} line(s) (CRs ignored)")]
    CarriageReturn {
        /// How many lines.
        lines: u64,
    },
    /// A UTF-8 byte-order mark and CR LF line ends (one warning for both).
    #[error("expected UTF-8 text with LF line ends, found a byte-order mark and CR LF on {lines} line(s) (both ignored)")]
    ByteOrderMarkAndCarriageReturn {
        /// How many lines end in CR LF.
        lines: u64,
    },
    /// Empty fields that are read as empty values (a warning, once per column and file).
    #[error("expected '_' for an empty value in column {column}, found an empty field on {lines} line(s) (read as an empty value)")]
    EmptyFieldRead {
        /// Column name.
        column: &'static str,
        /// How many lines.
        lines: u64,
    },
    /// Multiword-token ranges of one word, such as `6-6` (a warning, once per file).
    #[error("expected a multiword token range N-M with M > N, found '{}' ({lines} such range(s) in the file)", crate::excerpt(.found))]
    SingleWordRange {
        /// The first such range.
        found: String,
        /// How many.
        lines: u64,
    },
    /// Reversed multiword-token ranges such as `2-1`, read with a reference scorer as it
    /// reads them: a token without words (a warning, once per file).
    #[error("expected a multiword token range N-M with M >= N, found '{}' ({lines} such range(s) in the file)", crate::excerpt(.found))]
    ReversedRange {
        /// The first such range.
        found: String,
        /// How many.
        lines: u64,
    },
    /// A NUL byte: a binary file.
    #[error("this is not a text file: expected text, found a NUL byte at offset {offset}")]
    NotText {
        /// Byte offset of the first NUL (after decompression).
        offset: u64,
    },
    /// The first line looks like a bracketed tree.
    #[error("this looks like bracketed constituency trees: expected tab-separated CoNLL columns, found a line starting with '('")]
    LooksLikeBrackets,
    /// Comment lines in the middle of a sentence.
    #[error(
        "expected comment lines only before the first word of a sentence, found one after a word"
    )]
    CommentInsideSentence,
    /// Comment lines with no words after them.
    #[error("expected words after the comment lines, found a blank line or the end of the file")]
    EmptySentence,
    /// Anything else.
    #[error("{0}")]
    Other(String),
}

/// What a warning (or an error) is about: a stable, machine-readable name, written in
/// snake case in JSON (`kind` of a report's `warnings`; docs/json-schema.md lists them).
/// Warnings of one kind are grouped into one entry. A name never changes meaning; new
/// kinds may be added, and a name this version does not know reads as
/// [`WarningKind::Other`].
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum WarningKind {
    /// `unreadable_file`: The file could not be opened or read.
    UnreadableFile,
    /// `invalid_utf8`: The bytes are not UTF-8.
    InvalidUtf8,
    /// `column_count`: A line has the wrong number of columns.
    ColumnCount,
    /// `unknown_format`: The format could not be recognised.
    UnknownFormat,
    /// `bad_id`: An ID is malformed or out of sequence.
    BadId,
    /// `empty_field`: A column that must not be empty is empty.
    EmptyField,
    /// `bad_head`: HEAD is not a non-negative integer or `_`.
    BadHead,
    /// `bad_deps`: A DEPS item is malformed.
    BadDeps,
    /// `head_out_of_range`: A HEAD points outside its sentence.
    HeadOutOfRange,
    /// `missing_head`: HEAD is `_` where a head is needed.
    MissingHead,
    /// `self_loop`: A word is its own head.
    SelfLoop,
    /// `cycle`: The tree has a cycle.
    Cycle,
    /// `root_count`: The tree has no or several roots.
    RootCount,
    /// `sentence_count`: The files have different numbers of sentences (or lines).
    SentenceCount,
    /// `word_count`: A sentence has a different number of words in gold and system.
    WordCount,
    /// `form_mismatch`: A word's FORM differs between gold and system.
    FormMismatch,
    /// `whitespace_line`: A line holds only spaces or tabs.
    WhitespaceLine,
    /// `double_blank_line`: Two blank lines in a row.
    DoubleBlankLine,
    /// `missing_final_blank_line`: The file does not end with a blank line.
    MissingFinalBlankLine,
    /// `truncated_file`: The file ends in the middle of a line: it looks truncated.
    TruncatedFile,
    /// `byte_order_mark`: The file starts with a UTF-8 byte-order mark (ignored).
    ByteOrderMark,
    /// `crlf_line_endings`: Lines end in CR LF (the CRs ignored).
    CrlfLineEndings,
    /// `byte_order_mark_and_crlf`: A byte-order mark and CR LF line ends (both ignored).
    ByteOrderMarkAndCrlf,
    /// `empty_field_read`: Empty fields read as empty values.
    EmptyFieldRead,
    /// `single_word_range`: Multiword-token ranges of one word (`6-6`).
    SingleWordRange,
    /// `reversed_range`: Reversed multiword-token ranges (`2-1`).
    ReversedRange,
    /// `not_text`: A NUL byte: not a text file.
    NotText,
    /// `looks_like_brackets`: Bracketed trees where CoNLL columns were expected.
    LooksLikeBrackets,
    /// `comment_inside_sentence`: Comment lines after a word of a sentence.
    CommentInsideSentence,
    /// `empty_sentence`: Comment lines with no words after them.
    EmptySentence,
    /// `format_guessed`: The alignment format could not be told from the content.
    FormatGuessed,
    /// `gold_column_empty`: A gold column is `_` on every word: the measures reading it are not applicable.
    GoldColumnEmpty,
    /// `system_column_empty`: A system column is `_` on every word: the measures reading it are not applicable.
    SystemColumnEmpty,
    /// `sent_id_mismatch`: Paired sentences have different `# sent_id`s.
    SentIdMismatch,
    /// `unknown_sent_ids`: Sentence ids listed for the selection are not in the gold file.
    UnknownSentIds,
    /// `selection_empty`: The sentence selection kept no sentence of this part.
    SelectionEmpty,
    /// `punct_excluded_nothing`: The punctuation policy left out no word.
    PunctExcludedNothing,
    /// `punct_excluded_everything`: The punctuation policy left out every word of a system.
    PunctExcludedEverything,
    /// `where_matched_nothing`: `--where` matched no scored word.
    WhereMatchedNothing,
    /// `label_case`: System labels differ from gold labels only by case.
    LabelCase,
    /// `unseen_labels`: System labels never occur in gold.
    UnseenLabels,
    /// `label_subtypes`: Label subtypes occur in one file only.
    LabelSubtypes,
    /// `malformed_tree`: A bracketed tree that is malformed (an extra or missing bracket, text outside a pre-terminal).
    MalformedTree,
    /// `unscored_sentences`: Sentences left out of the scores (EVALB's error and skipped sentences).
    UnscoredSentences,
    /// `careful_left_out`: Sentences left out of the careful evaluation.
    CarefulLeftOut,
    /// `unused_judgments`: Judgments that name no parse bracket.
    UnusedJudgments,
    /// `parameter_missing_value`: A parameter-file keyword without its value.
    ParameterMissingValue,
    /// `parameter_bad_value`: A parameter-file value of the wrong shape.
    ParameterBadValue,
    /// `unknown_parameter`: A parameter-file keyword treeval does not know (ignored).
    UnknownParameter,
    /// `parameter_debug`: The parameter file asks for EVALB's debug dump.
    ParameterDebug,
    /// `over_max_cost`: A sentence over the edit distance's cost limit (not scored).
    OverMaxCost,
    /// `sentence_too_long`: A sentence over the edit distance's word limit (not scored).
    SentenceTooLong,
    /// `nothing_scored`: No sentence was scored: the measures are not applicable.
    NothingScored,
    /// `malformed_candidate`: Candidate parses that are not trees.
    MalformedCandidate,
    /// `malformed_gold_tree`: Gold trees that are not trees (more than those shown).
    MalformedGoldTree,
    /// `empty_gold`: An alignment gold without sentences or links.
    EmptyGold,
    /// `no_links_at_end`: A NAACL hypothesis without links in the gold's last sentences.
    NoLinksAtEnd,
    /// `token_lines`: A tokens or pieces file with another number of lines than needed.
    TokenLines,
    /// `links_past_last_word`: Alignment links past the last word of their sentence.
    LinksPastLastWord,
    /// `wrong_index_base`: Alignment positions that look one off the gold's.
    WrongIndexBase,
    /// `null_both_sides`: Alignment links with NULL on both sides.
    NullBothSides,
    /// `pieces_differ_from_tokens`: Subword pieces that join to other characters than the tokens.
    PiecesDifferFromTokens,
    /// `no_links`: A hypothesis without links.
    NoLinks,
    /// `links_sure_and_possible`: Links tagged both S and P (counted once).
    LinksSureAndPossible,
    /// `null_links_left_out`: Links with a NULL side left out.
    NullLinksLeftOut,
    /// `aer_close_to_one`: An AER close to 1: the index base or direction may be wrong.
    AerCloseToOne,
    /// `tokenization_resync`: Gold and system texts differ: words aligned around the mismatch windows (`--align resync`).
    TokenizationResync,
    /// `compat_note`: A reference tool's output (`--compat`) differs from what the options ask.
    CompatNote,
    /// `semantic_roles_not_scored`: Files with predicates under `--compat eval09`, which scores syntax only.
    SemanticRolesNotScored,
    /// `sentence_numbers_as_text`: Sentence numbers written differently from the gold's (wa_eval_align.pl compares text).
    SentenceNumbersAsText,
    /// `mixed_sentence_numbers`: A file writes one sentence number in two ways.
    MixedSentenceNumbers,
    /// `mcnemar_uas_only`: McNemar's test applies to UAS only (`pts`).
    McnemarUasOnly,
    /// `mcnemar_independence`: McNemar's test treats words as independent.
    McnemarIndependence,
    /// `system_is_gold`: A system file is the gold file, or holds the same text: it scores 100 against itself.
    SystemIsGold,
    /// `other`: Anything else, and the entries of states and reports written before warnings had kinds.
    #[default]
    #[serde(other)]
    Other,
}

impl WarningKind {
    /// Every kind, in the order of the documentation.
    pub const ALL: [WarningKind; 75] = [
        WarningKind::UnreadableFile,
        WarningKind::InvalidUtf8,
        WarningKind::ColumnCount,
        WarningKind::UnknownFormat,
        WarningKind::BadId,
        WarningKind::EmptyField,
        WarningKind::BadHead,
        WarningKind::BadDeps,
        WarningKind::HeadOutOfRange,
        WarningKind::MissingHead,
        WarningKind::SelfLoop,
        WarningKind::Cycle,
        WarningKind::RootCount,
        WarningKind::SentenceCount,
        WarningKind::WordCount,
        WarningKind::FormMismatch,
        WarningKind::WhitespaceLine,
        WarningKind::DoubleBlankLine,
        WarningKind::MissingFinalBlankLine,
        WarningKind::TruncatedFile,
        WarningKind::ByteOrderMark,
        WarningKind::CrlfLineEndings,
        WarningKind::ByteOrderMarkAndCrlf,
        WarningKind::EmptyFieldRead,
        WarningKind::SingleWordRange,
        WarningKind::ReversedRange,
        WarningKind::NotText,
        WarningKind::LooksLikeBrackets,
        WarningKind::CommentInsideSentence,
        WarningKind::EmptySentence,
        WarningKind::FormatGuessed,
        WarningKind::GoldColumnEmpty,
        WarningKind::SystemColumnEmpty,
        WarningKind::SentIdMismatch,
        WarningKind::UnknownSentIds,
        WarningKind::SelectionEmpty,
        WarningKind::PunctExcludedNothing,
        WarningKind::PunctExcludedEverything,
        WarningKind::WhereMatchedNothing,
        WarningKind::LabelCase,
        WarningKind::UnseenLabels,
        WarningKind::LabelSubtypes,
        WarningKind::MalformedTree,
        WarningKind::UnscoredSentences,
        WarningKind::CarefulLeftOut,
        WarningKind::UnusedJudgments,
        WarningKind::ParameterMissingValue,
        WarningKind::ParameterBadValue,
        WarningKind::UnknownParameter,
        WarningKind::ParameterDebug,
        WarningKind::OverMaxCost,
        WarningKind::SentenceTooLong,
        WarningKind::NothingScored,
        WarningKind::MalformedCandidate,
        WarningKind::MalformedGoldTree,
        WarningKind::EmptyGold,
        WarningKind::NoLinksAtEnd,
        WarningKind::TokenLines,
        WarningKind::LinksPastLastWord,
        WarningKind::WrongIndexBase,
        WarningKind::NullBothSides,
        WarningKind::PiecesDifferFromTokens,
        WarningKind::NoLinks,
        WarningKind::LinksSureAndPossible,
        WarningKind::NullLinksLeftOut,
        WarningKind::AerCloseToOne,
        WarningKind::TokenizationResync,
        WarningKind::CompatNote,
        WarningKind::SemanticRolesNotScored,
        WarningKind::SentenceNumbersAsText,
        WarningKind::MixedSentenceNumbers,
        WarningKind::McnemarUasOnly,
        WarningKind::McnemarIndependence,
        WarningKind::SystemIsGold,
        WarningKind::Other,
    ];

    /// The name, as written in JSON (`crlf_line_endings`).
    pub fn name(self) -> &'static str {
        match self {
            WarningKind::UnreadableFile => "unreadable_file",
            WarningKind::InvalidUtf8 => "invalid_utf8",
            WarningKind::ColumnCount => "column_count",
            WarningKind::UnknownFormat => "unknown_format",
            WarningKind::BadId => "bad_id",
            WarningKind::EmptyField => "empty_field",
            WarningKind::BadHead => "bad_head",
            WarningKind::BadDeps => "bad_deps",
            WarningKind::HeadOutOfRange => "head_out_of_range",
            WarningKind::MissingHead => "missing_head",
            WarningKind::SelfLoop => "self_loop",
            WarningKind::Cycle => "cycle",
            WarningKind::RootCount => "root_count",
            WarningKind::SentenceCount => "sentence_count",
            WarningKind::WordCount => "word_count",
            WarningKind::FormMismatch => "form_mismatch",
            WarningKind::WhitespaceLine => "whitespace_line",
            WarningKind::DoubleBlankLine => "double_blank_line",
            WarningKind::MissingFinalBlankLine => "missing_final_blank_line",
            WarningKind::TruncatedFile => "truncated_file",
            WarningKind::ByteOrderMark => "byte_order_mark",
            WarningKind::CrlfLineEndings => "crlf_line_endings",
            WarningKind::ByteOrderMarkAndCrlf => "byte_order_mark_and_crlf",
            WarningKind::EmptyFieldRead => "empty_field_read",
            WarningKind::SingleWordRange => "single_word_range",
            WarningKind::ReversedRange => "reversed_range",
            WarningKind::NotText => "not_text",
            WarningKind::LooksLikeBrackets => "looks_like_brackets",
            WarningKind::CommentInsideSentence => "comment_inside_sentence",
            WarningKind::EmptySentence => "empty_sentence",
            WarningKind::FormatGuessed => "format_guessed",
            WarningKind::GoldColumnEmpty => "gold_column_empty",
            WarningKind::SystemColumnEmpty => "system_column_empty",
            WarningKind::SentIdMismatch => "sent_id_mismatch",
            WarningKind::UnknownSentIds => "unknown_sent_ids",
            WarningKind::SelectionEmpty => "selection_empty",
            WarningKind::PunctExcludedNothing => "punct_excluded_nothing",
            WarningKind::PunctExcludedEverything => "punct_excluded_everything",
            WarningKind::WhereMatchedNothing => "where_matched_nothing",
            WarningKind::LabelCase => "label_case",
            WarningKind::UnseenLabels => "unseen_labels",
            WarningKind::LabelSubtypes => "label_subtypes",
            WarningKind::MalformedTree => "malformed_tree",
            WarningKind::UnscoredSentences => "unscored_sentences",
            WarningKind::CarefulLeftOut => "careful_left_out",
            WarningKind::UnusedJudgments => "unused_judgments",
            WarningKind::ParameterMissingValue => "parameter_missing_value",
            WarningKind::ParameterBadValue => "parameter_bad_value",
            WarningKind::UnknownParameter => "unknown_parameter",
            WarningKind::ParameterDebug => "parameter_debug",
            WarningKind::OverMaxCost => "over_max_cost",
            WarningKind::SentenceTooLong => "sentence_too_long",
            WarningKind::NothingScored => "nothing_scored",
            WarningKind::MalformedCandidate => "malformed_candidate",
            WarningKind::MalformedGoldTree => "malformed_gold_tree",
            WarningKind::EmptyGold => "empty_gold",
            WarningKind::NoLinksAtEnd => "no_links_at_end",
            WarningKind::TokenLines => "token_lines",
            WarningKind::LinksPastLastWord => "links_past_last_word",
            WarningKind::WrongIndexBase => "wrong_index_base",
            WarningKind::NullBothSides => "null_both_sides",
            WarningKind::PiecesDifferFromTokens => "pieces_differ_from_tokens",
            WarningKind::NoLinks => "no_links",
            WarningKind::LinksSureAndPossible => "links_sure_and_possible",
            WarningKind::NullLinksLeftOut => "null_links_left_out",
            WarningKind::AerCloseToOne => "aer_close_to_one",
            WarningKind::TokenizationResync => "tokenization_resync",
            WarningKind::CompatNote => "compat_note",
            WarningKind::SemanticRolesNotScored => "semantic_roles_not_scored",
            WarningKind::SentenceNumbersAsText => "sentence_numbers_as_text",
            WarningKind::MixedSentenceNumbers => "mixed_sentence_numbers",
            WarningKind::McnemarUasOnly => "mcnemar_uas_only",
            WarningKind::McnemarIndependence => "mcnemar_independence",
            WarningKind::SystemIsGold => "system_is_gold",
            WarningKind::Other => "other",
        }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl ErrorKind {
    /// The kind of a diagnostic of this variant ([`WarningKind::Other`] for
    /// [`ErrorKind::Other`], whose diagnostics name theirs: [`Diagnostic::of_kind`]).
    pub fn warning_kind(&self) -> WarningKind {
        match self {
            ErrorKind::Io(_) => WarningKind::UnreadableFile,
            ErrorKind::InvalidUtf8 | ErrorKind::NotUtf8(_) => WarningKind::InvalidUtf8,
            ErrorKind::ColumnCount { .. } => WarningKind::ColumnCount,
            ErrorKind::UnknownFormat { .. } => WarningKind::UnknownFormat,
            ErrorKind::BadId { .. } => WarningKind::BadId,
            ErrorKind::EmptyField { .. } => WarningKind::EmptyField,
            ErrorKind::BadHead { .. } => WarningKind::BadHead,
            ErrorKind::BadDeps { .. } => WarningKind::BadDeps,
            ErrorKind::HeadOutOfRange { .. } => WarningKind::HeadOutOfRange,
            ErrorKind::MissingHead => WarningKind::MissingHead,
            ErrorKind::SelfLoop { .. } => WarningKind::SelfLoop,
            ErrorKind::Cycle { .. } => WarningKind::Cycle,
            ErrorKind::RootCount { .. } => WarningKind::RootCount,
            ErrorKind::SentenceCount { .. } => WarningKind::SentenceCount,
            ErrorKind::WordCount { .. } => WarningKind::WordCount,
            ErrorKind::FormMismatch { .. } => WarningKind::FormMismatch,
            ErrorKind::WhitespaceLine => WarningKind::WhitespaceLine,
            ErrorKind::DoubleBlankLine => WarningKind::DoubleBlankLine,
            ErrorKind::MissingFinalBlankLine => WarningKind::MissingFinalBlankLine,
            ErrorKind::ByteOrderMark => WarningKind::ByteOrderMark,
            ErrorKind::CarriageReturn { .. } => WarningKind::CrlfLineEndings,
            ErrorKind::ByteOrderMarkAndCarriageReturn { .. } => WarningKind::ByteOrderMarkAndCrlf,
            ErrorKind::EmptyFieldRead { .. } => WarningKind::EmptyFieldRead,
            ErrorKind::SingleWordRange { .. } => WarningKind::SingleWordRange,
            ErrorKind::ReversedRange { .. } => WarningKind::ReversedRange,
            ErrorKind::NotText { .. } => WarningKind::NotText,
            ErrorKind::LooksLikeBrackets => WarningKind::LooksLikeBrackets,
            ErrorKind::CommentInsideSentence => WarningKind::CommentInsideSentence,
            ErrorKind::EmptySentence => WarningKind::EmptySentence,
            ErrorKind::Other(_) => WarningKind::Other,
        }
    }
}

/// A positioned problem: an error or a warning, with a hint where a fix is likely.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Where.
    pub position: Position,
    /// What.
    pub kind: ErrorKind,
    /// How to fix it, where a fix is likely.
    pub hint: Option<String>,
    /// How many more of its kind (same file, same [`ErrorKind`] variant) this one stands
    /// for, not kept ([`Diagnostics::into_vec`]); 0 for most.
    pub more: u64,
    /// What it is about, when [`ErrorKind`] does not say it ([`ErrorKind::Other`]):
    /// [`Diagnostic::of_kind`]; read it with [`Diagnostic::warning_kind`].
    pub named: Option<WarningKind>,
}

impl Diagnostic {
    /// An error at `position`.
    pub fn error(position: Position, kind: ErrorKind) -> Self {
        Diagnostic {
            severity: Severity::Error,
            position,
            kind,
            hint: None,
            more: 0,
            named: None,
        }
    }

    /// A warning at `position`.
    pub fn warning(position: Position, kind: ErrorKind) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            position,
            kind,
            hint: None,
            more: 0,
            named: None,
        }
    }

    /// The same diagnostic with a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The same diagnostic, naming what it is about (for [`ErrorKind::Other`]).
    pub fn of_kind(mut self, kind: WarningKind) -> Self {
        self.named = Some(kind);
        self
    }

    /// What it is about: the kind it was named, else its [`ErrorKind`]'s.
    pub fn warning_kind(&self) -> WarningKind {
        self.named.unwrap_or_else(|| self.kind.warning_kind())
    }

    /// Is this an error (as opposed to a warning)?
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.position, self.kind)?;
        match (&self.position.sentence, &self.position.sent_id) {
            (Some(n), Some(id)) => write!(f, " [sentence {n}, sent_id {id}]")?,
            (Some(n), None) => write!(f, " [sentence {n}]")?,
            _ => {}
        }
        if let Some(h) = &self.hint {
            write!(f, "\n  hint: {h}")?;
        }
        Ok(())
    }
}

/// The error a reader or a pairing step returns: one or more diagnostics, all collected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Every error found (warnings are kept by the reader, not here).
    pub diagnostics: Vec<Diagnostic>,
    /// Errors found beyond those kept in `diagnostics`.
    pub omitted: u64,
}

impl Error {
    /// An error made of one diagnostic.
    pub fn single(d: Diagnostic) -> Self {
        Error {
            diagnostics: vec![d],
            omitted: 0,
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: &Arc<str>, e: &std::io::Error) -> Self {
        if let Some(n) = e
            .get_ref()
            .and_then(|r| r.downcast_ref::<crate::encoding::NotUtf8>())
        {
            return Error::single(n.diagnostic(path));
        }
        Error::single(Diagnostic::error(
            Position::new(path.clone(), 0, 0),
            ErrorKind::Io(e.to_string()),
        ))
    }

    /// The first diagnostic's kind.
    pub fn kind(&self) -> Option<&ErrorKind> {
        self.diagnostics.first().map(|d| &d.kind)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&render_capped(&self.diagnostics, self.omitted))
    }
}

/// How many lines of diagnostics an error message shows at most (a screenful).
pub const SHOWN_LINES: usize = 20;

/// `diagnostics` one after the other (each with its hint line), cut after
/// [`SHOWN_LINES`] lines with `… and N more problem(s)`, where N also counts `omitted`
/// (problems found but not kept). The first diagnostic is always shown whole. No
/// trailing newline.
pub fn render_capped(diagnostics: &[Diagnostic], omitted: u64) -> String {
    let mut out = String::new();
    let mut lines = 0;
    let mut shown = 0;
    for d in diagnostics {
        let text = d.to_string();
        let n = text.lines().count().max(1);
        if shown > 0 && lines + n > SHOWN_LINES {
            break;
        }
        if shown > 0 {
            out.push('\n');
        }
        out.push_str(&text);
        lines += n;
        shown += 1;
    }
    let more = (diagnostics.len() - shown) as u64 + omitted;
    if more > 0 {
        out.push_str(&format!("\n… and {more} more problem(s)"));
    }
    out
}

impl std::error::Error for Error {}

/// What makes two diagnostics "of one kind" (grouped in one warning entry, bounded
/// together): the severity, the file, the [`ErrorKind`] variant and the kind it was
/// named ([`Diagnostic::of_kind`]); for [`ErrorKind::Other`], its message and its hint with the digits left out (so that
/// "found 12" and "found 40" are one kind).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct KindKey {
    error: bool,
    path: Arc<str>,
    variant: std::mem::Discriminant<ErrorKind>,
    named: Option<WarningKind>,
    other: Option<(String, Option<String>)>,
}

impl KindKey {
    fn of(d: &Diagnostic) -> Self {
        KindKey {
            error: d.is_error(),
            path: d.position.path.clone(),
            variant: std::mem::discriminant(&d.kind),
            named: d.named,
            other: match &d.kind {
                ErrorKind::Other(m) => {
                    Some((without_digits(m), d.hint.as_deref().map(without_digits)))
                }
                _ => None,
            },
        }
    }
}

/// `s` without its ASCII digits: what tells two messages of one kind apart is in them.
pub fn without_digits(s: &str) -> String {
    s.chars().filter(|c| !c.is_ascii_digit()).collect()
}

/// How many positions of a kind a warning entry lists ([`Diagnostics::warning_groups`]).
pub const GROUP_POSITIONS: usize = 5;

/// The warnings of one kind: the first in full, how many there were, and the positions
/// of the first few ([`GROUP_POSITIONS`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarningGroup<'a> {
    /// The first warning of the kind.
    pub first: &'a Diagnostic,
    /// Every warning of the kind seen, kept or not.
    pub count: u64,
    /// The positions of the first few, the first's included.
    pub positions: Vec<&'a Position>,
}

/// A bounded list of diagnostics: keeps the first `limit` of each kind (severity, file,
/// [`ErrorKind`] variant), counts the rest, so that a kind never hides another.
#[derive(Debug, Clone)]
pub struct Diagnostics {
    kept: Vec<Diagnostic>,
    limit: usize,
    errors: u64,
    warnings: u64,
    omitted_errors: u64,
    omitted_warnings: u64,
    /// Every kind seen, in the order first seen, with its count (kept or not).
    kinds: Vec<(KindKey, u64)>,
}

impl Default for Diagnostics {
    fn default() -> Self {
        Diagnostics::with_limit(100)
    }
}

impl Diagnostics {
    /// Keep at most `limit` diagnostics of each kind.
    pub fn with_limit(limit: usize) -> Self {
        Diagnostics {
            kept: Vec::new(),
            limit,
            errors: 0,
            warnings: 0,
            omitted_errors: 0,
            omitted_warnings: 0,
            kinds: Vec::new(),
        }
    }

    /// Count one more of `key`'s kind (`n` of them); the kind's count so far.
    fn count_kind(&mut self, key: KindKey, n: u64) -> u64 {
        match self.kinds.iter_mut().find(|(k, _)| *k == key) {
            Some((_, c)) => {
                *c += n;
                *c
            }
            None => {
                self.kinds.push((key, n));
                n
            }
        }
    }

    /// Record a diagnostic (and the [`Diagnostic::more`] of its kind it stands for). A
    /// warning at a line of a file that is kept already, word for word (the same file
    /// read as gold and as system), is not recorded twice.
    pub fn push(&mut self, d: Diagnostic) {
        if !d.is_error() && d.more == 0 && d.position.line > 0 && self.kept.contains(&d) {
            return;
        }
        self.record(d);
    }

    /// Record a diagnostic, counted whatever it repeats (the lists [`Diagnostics::extend`]
    /// adds up are counted each).
    fn record(&mut self, mut d: Diagnostic) {
        let more = std::mem::take(&mut d.more);
        let seen = self.count_kind(KindKey::of(&d), 1 + more);
        let (count, omitted) = if d.is_error() {
            (&mut self.errors, &mut self.omitted_errors)
        } else {
            (&mut self.warnings, &mut self.omitted_warnings)
        };
        *count += 1 + more;
        *omitted += more;
        if (seen - more) as usize > self.limit {
            *omitted += 1;
        } else {
            self.kept.push(d);
        }
    }

    /// The kept diagnostics, each kind's occurrences not kept counted in the
    /// [`Diagnostic::more`] of its last kept one, so that moving them into another list
    /// ([`Diagnostics::push`], [`Diagnostics::warning_groups`]) keeps every count.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        let mut out = self.kept;
        let keys: Vec<KindKey> = out.iter().map(KindKey::of).collect();
        for (key, total) in &self.kinds {
            let mut kept = 0;
            let mut last = None;
            for (i, d) in out.iter().enumerate().filter(|(i, _)| keys[*i] == *key) {
                kept += 1 + d.more;
                last = Some(i);
            }
            if let Some(i) = last {
                out[i].more += total.saturating_sub(kept);
            }
        }
        out
    }

    /// The diagnostics of `severity` counted in no kind (merged shards' warnings counted
    /// without being kept, [`Diagnostics::add_omitted_warnings`]).
    fn unkinded(&self, error: bool) -> u64 {
        let kinded: u64 = (self.kinds.iter())
            .filter(|(k, _)| k.error == error)
            .map(|(_, n)| n)
            .sum();
        let all = if error { self.errors } else { self.warnings };
        all.saturating_sub(kinded)
    }

    /// Number of errors seen (kept or not).
    pub fn error_count(&self) -> u64 {
        self.errors
    }

    /// Number of warnings seen (kept or not).
    pub fn warning_count(&self) -> u64 {
        self.warnings
    }

    /// The kept diagnostics, in the order found.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.kept.iter()
    }

    /// The kept warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.kept.iter().filter(|d| !d.is_error())
    }

    /// The warnings grouped by kind, in the order each kind was first seen: every kind
    /// seen has its entry, with its full count.
    pub fn warning_groups(&self) -> Vec<WarningGroup<'_>> {
        let mut groups: Vec<(KindKey, WarningGroup<'_>)> = Vec::new();
        for d in self.warnings() {
            let key = KindKey::of(d);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, g)) => {
                    if g.positions.len() < GROUP_POSITIONS {
                        g.positions.push(&d.position);
                    }
                }
                None => {
                    let count = self
                        .kinds
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map_or(1, |(_, c)| *c);
                    let g = WarningGroup {
                        first: d,
                        count,
                        positions: vec![&d.position],
                    };
                    groups.push((key, g));
                }
            }
        }
        groups.into_iter().map(|(_, g)| g).collect()
    }

    /// Count `n` more warnings seen and not kept (those a merged shard did not keep).
    pub fn add_omitted_warnings(&mut self, n: u64) {
        self.warnings += n;
        self.omitted_warnings += n;
    }

    /// Move the diagnostics of `other` into `self`, keeping counts exact (each kind's
    /// count too).
    pub fn extend(&mut self, other: Diagnostics) {
        let (errors, warnings) = (other.unkinded(true), other.unkinded(false));
        for d in other.into_vec() {
            self.record(d);
        }
        self.errors += errors;
        self.omitted_errors += errors;
        self.add_omitted_warnings(warnings);
    }

    /// `Err` with every error if any was seen.
    pub fn into_result(self) -> Result<Diagnostics, Error> {
        if self.errors == 0 {
            return Ok(self);
        }
        let omitted = self.omitted_errors;
        Err(Error {
            diagnostics: self.kept.into_iter().filter(Diagnostic::is_error).collect(),
            omitted,
        })
    }

    /// Turn every kept warning into an error (for `--strict`).
    pub fn escalate_warnings(&mut self) {
        for d in &mut self.kept {
            if d.severity == Severity::Warning {
                d.severity = Severity::Error;
                self.errors += 1;
                self.warnings -= 1;
            }
        }
        self.omitted_errors += self.omitted_warnings;
        self.errors += self.omitted_warnings;
        self.warnings -= self.omitted_warnings;
        self.omitted_warnings = 0;
        let kinds = std::mem::take(&mut self.kinds);
        for (mut key, n) in kinds {
            key.error = true;
            self.count_kind(key, n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blank(line: u64) -> Diagnostic {
        Diagnostic::warning(
            Position::new(Arc::from("s.conllu"), line, 1),
            ErrorKind::DoubleBlankLine,
        )
    }

    fn other(msg: &str) -> Diagnostic {
        Diagnostic::warning(
            Position::new(Arc::from("s.conllu"), 0, 0),
            ErrorKind::Other(msg.into()),
        )
    }

    /// 149 repeated warnings of one kind then another kind (the label-subtype warning
    /// after 149 doubled blank lines): both kinds kept, each with its count.
    #[test]
    fn a_kind_never_hides_another() {
        let mut d = Diagnostics::with_limit(100);
        for i in 0..149 {
            d.push(blank(10 + i));
        }
        d.push(other(
            "label subtypes in one file only: system only 'obl:npmod' (1 word)",
        ));
        assert_eq!(d.warning_count(), 150);
        let g = d.warning_groups();
        assert_eq!(g.len(), 2);
        assert_eq!((g[0].count, g[1].count), (149, 1));
        assert_eq!(g[0].positions.len(), GROUP_POSITIONS);
        assert_eq!(g[0].positions[1].line, 11);
        assert!(matches!(g[1].first.kind, ErrorKind::Other(_)));
    }

    /// `Other` warnings are one kind when they differ in numbers only.
    #[test]
    fn other_messages_differing_in_numbers_are_one_kind() {
        let mut d = Diagnostics::with_limit(2);
        for n in [12, 40, 7] {
            d.push(
                other(&format!("expected at most 10 cells, found {n}"))
                    .with_hint(format!("--max-cost {n} scores it")),
            );
        }
        d.push(other("something else"));
        let g = d.warning_groups();
        assert_eq!(g.iter().map(|g| g.count).collect::<Vec<_>>(), vec![3, 1]);
    }

    /// Moving diagnostics through a `Vec` (`into_vec`, then `push`) or `extend` keeps
    /// every kind's count, the ones not kept included.
    #[test]
    fn counts_survive_into_vec_and_extend() {
        let mut d = Diagnostics::with_limit(3);
        for i in 0..10 {
            d.push(blank(i + 1));
        }
        d.push(other("x"));
        let v = d.clone().into_vec();
        assert_eq!(v.len(), 4);
        assert_eq!(v.iter().map(|x| 1 + x.more).sum::<u64>(), 11);
        let mut again = Diagnostics::with_limit(3);
        for x in v {
            again.push(x);
        }
        let counts = |d: &Diagnostics| {
            d.warning_groups()
                .iter()
                .map(|g| g.count)
                .collect::<Vec<_>>()
        };
        assert_eq!(counts(&again), vec![10, 1]);
        let mut sum = Diagnostics::with_limit(3);
        sum.extend(d.clone());
        sum.extend(d);
        assert_eq!(counts(&sum), vec![20, 2]);
        assert_eq!(sum.warning_count(), 22);
    }

    /// The same warning at the same line of the same file (one file read as gold and as
    /// system) is one warning; at another line, or without a line (merged shards' entries,
    /// each counting its own), it counts.
    #[test]
    fn a_warning_repeated_word_for_word_at_its_line_is_one() {
        let mut d = Diagnostics::with_limit(3);
        d.push(blank(4));
        d.push(blank(4));
        d.push(blank(5));
        d.push(other("x"));
        d.push(other("x"));
        assert_eq!(d.warning_count(), 4);
        let g = d.warning_groups();
        assert_eq!(g.iter().map(|g| g.count).collect::<Vec<_>>(), vec![2, 2]);
    }

    #[test]
    fn escalated_warnings_are_errors_of_their_kinds() {
        let mut d = Diagnostics::with_limit(2);
        for i in 0..5 {
            d.push(blank(i + 1));
        }
        d.escalate_warnings();
        assert_eq!((d.error_count(), d.warning_count()), (5, 0));
        assert!(d.warning_groups().is_empty());
        let e = d.into_result().unwrap_err();
        assert_eq!((e.diagnostics.len() as u64, e.omitted), (2, 3));
    }
}
