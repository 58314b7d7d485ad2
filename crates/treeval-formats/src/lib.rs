//! Model types and streaming readers for treebank formats.
//!
//! Start with [`ReaderBuilder`]: it opens a file (plain, gzip or zstd, or `-` for standard
//! input), detects CoNLL-U, CoNLL-X or CoNLL-2009 from the content, and gives a [`Reader`]
//! whose [`Reader::read_sentence`] fills a reusable [`Sentence`].
//!
//! ```
//! use treeval_formats::{ReaderBuilder, Sentence};
//! let text = "1\tHi\thi\tINTJ\tUH\t_\t0\troot\t0:root\t_\n\n";
//! let mut rdr = ReaderBuilder::new().from_reader("mem.conllu", text.as_bytes());
//! let mut s = Sentence::new();
//! while rdr.read_sentence(&mut s)? {
//!     assert_eq!(s.form(&s.words()[0]), "Hi");
//! }
//! assert_eq!(rdr.diagnostics().error_count(), 0);
//! # Ok::<(), treeval_formats::Error>(())
//! ```

#![warn(missing_docs)]

pub mod align;
pub mod bracket;
pub mod conll;
pub mod encoding;
pub mod equiv;
pub mod error;
pub mod excerpt;
pub mod input;
pub mod nbest;
pub mod output;
pub mod sentence;
pub mod subwords;

pub use conll::{Conll09Columns, Format, Reader, ReaderBuilder, Reference};
pub use error::{Diagnostic, Diagnostics, Error, ErrorKind, Position, Severity, WarningKind};
pub use excerpt::{excerpt, path_excerpt};
pub use sentence::{
    python_int, EmptyNode, EnhancedEdge, Head, MultiwordToken, NodeId, Sentence, Word,
};
