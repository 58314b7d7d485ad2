//! The inputs of an evaluation: files by path, or bytes held in memory.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use treeval_formats::ReaderBuilder;

/// One input: a file (`-` is standard input; gzip and zstd are read transparently) or
/// bytes in memory with a name for messages (`<input 2>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A file by its path.
    Path(String),
    /// Bytes in memory, and the name positions show.
    Memory {
        /// The name messages and the report give the input.
        name: String,
        /// Its bytes (text, or gzip or zstd compressed text).
        data: Arc<[u8]>,
    },
}

/// In options (serde), an input is its path: a string reads as [`Input::Path`], and an
/// in-memory input writes its name.
impl serde::Serialize for Input {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Input {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Input::Path)
    }
}

impl Input {
    /// Bytes in memory named `name`.
    pub fn memory(name: impl Into<String>, data: impl Into<Arc<[u8]>>) -> Self {
        Input::Memory {
            name: name.into(),
            data: data.into(),
        }
    }

    /// The sentence blocks `sentences` as one in-memory input named `name`: each block
    /// with its line breaks at both ends trimmed, followed by a blank line (as Python's
    /// functions take a list of sentences).
    pub fn sentences<S: AsRef<str>>(
        name: impl Into<String>,
        sentences: impl IntoIterator<Item = S>,
    ) -> Self {
        let mut text = String::new();
        for s in sentences {
            text.push_str(s.as_ref().trim_matches('\n'));
            text.push_str("\n\n");
        }
        Input::memory(name, text.into_bytes())
    }

    /// Everything `reader` holds, read now into memory, as an input named `name` (for
    /// data that is neither a file nor in memory yet: a socket, a decoder, a pipe).
    pub fn read_from(
        name: impl Into<String>,
        mut reader: impl std::io::Read,
    ) -> std::io::Result<Self> {
        let mut data = Vec::new();
        reader.read_to_end(&mut data)?;
        Ok(Input::memory(name, data))
    }

    /// The path, or the in-memory input's name.
    pub fn name(&self) -> &str {
        match self {
            Input::Path(p) => p,
            Input::Memory { name, .. } => name,
        }
    }

    /// Its identity in a state: its name and the digest of its text
    /// ([`treeval_formats::input::digest`]; none for standard input, which cannot be read
    /// twice, or an input that cannot be read).
    pub fn file_id(&self) -> treeval_report::state::FileId {
        let digest = match self.is_stdin() {
            true => None,
            false => (self.open().ok()).and_then(|i| treeval_formats::input::digest(i).ok()),
        };
        treeval_report::state::FileId {
            path: self.name().to_owned(),
            digest,
        }
    }

    /// Whether this is standard input (`-`).
    pub fn is_stdin(&self) -> bool {
        matches!(self, Input::Path(p) if p == "-")
    }

    /// Open the input (decompressed, checked as UTF-8 text), for the readers that take a
    /// reader.
    pub(crate) fn open(&self) -> Result<treeval_formats::input::Input, treeval_formats::Error> {
        self.open_as(treeval_formats::input::Bytes::Utf8)
    }

    /// [`Input::open`], taking the bytes as `bytes` says.
    pub(crate) fn open_as(
        &self,
        bytes: treeval_formats::input::Bytes,
    ) -> Result<treeval_formats::input::Input, treeval_formats::Error> {
        match self {
            Input::Path(p) => treeval_formats::input::open_as(p, bytes).map(|(i, _)| i),
            Input::Memory { name, data } => {
                let raw = std::io::Cursor::new(Arc::clone(data));
                treeval_formats::input::wrap_as(Box::new(raw), bytes)
                    .map(|(i, _)| i)
                    .map_err(|e| treeval_formats::Error::io(&Arc::from(name.as_str()), &e))
            }
        }
    }

    /// The whole text of a small input (`expected` says what it should hold, for the
    /// error of an input that is not text).
    pub(crate) fn read_text(&self, expected: &str) -> Result<String, treeval_formats::Error> {
        treeval_formats::input::read_text_from(self.name(), self.open()?, expected)
    }

    /// The alignment file this input holds, read with `opts`.
    pub(crate) fn read_alignments(
        &self,
        opts: treeval_formats::align::AlignOptions,
    ) -> Result<treeval_formats::align::AlignmentFile, treeval_formats::Error> {
        treeval_formats::align::read_alignments(self.name(), self.open()?, opts)
    }

    /// The reader's input with `builder`'s settings.
    pub(crate) fn with(&self, builder: ReaderBuilder) -> treeval_metrics::deps::Input {
        match self {
            Input::Path(p) => treeval_metrics::deps::Input::path(p.clone(), builder),
            Input::Memory { name, data } => {
                treeval_metrics::deps::Input::memory(name.clone(), Arc::clone(data), builder)
            }
        }
    }
}

/// Whether `system` is the gold input `gold`: the same file (its path resolved) or the
/// same text (equal lengths, then equal digests); both are said alike (one message, so
/// that merged shards, whose copies are other files, warn as one run does). Standard
/// input is not compared (it can be read once).
fn same_as_gold(gold: &Input, system: &Input) -> bool {
    if gold.is_stdin() || system.is_stdin() {
        return false;
    }
    match (gold, system) {
        (Input::Path(a), Input::Path(b)) => {
            let (Ok(ra), Ok(rb)) = (Path::new(a).canonicalize(), Path::new(b).canonicalize())
            else {
                return false;
            };
            if ra == rb {
                return true;
            }
            let (Ok(ma), Ok(mb)) = (std::fs::metadata(&ra), std::fs::metadata(&rb)) else {
                return false;
            };
            if ma.len() != mb.len() || !ma.is_file() || !mb.is_file() {
                return false;
            }
        }
        (Input::Memory { data: a, .. }, Input::Memory { data: b, .. }) if a.len() != b.len() => {
            return false
        }
        _ => {}
    }
    let (g, s) = (gold.file_id().digest, system.file_id().digest);
    g.is_some() && g == s
}

/// A warning for every pair `(gold, system)` whose system is its gold ([`same_as_gold`]):
/// it scores 100 against itself, which says nothing of a parser. Every command that scores
/// systems against a gold warns with it (kind `system_is_gold`), and so does `merge` when
/// a system is its gold in every shard.
pub(crate) fn gold_copies<'a>(
    pairs: impl IntoIterator<Item = (&'a Input, &'a Input)>,
) -> Vec<treeval_report::model::Warning> {
    (pairs.into_iter())
        .filter(|(g, s)| same_as_gold(g, s))
        .map(|(g, s)| gold_copy(g.name(), s.name()))
        .collect()
}

/// The warning about the system file `system` that holds the text of the gold file `gold`.
pub(crate) fn gold_copy(gold: &str, system: &str) -> treeval_report::model::Warning {
    use treeval_report::model::{Warning, WarningKind};
    let message = format!(
        "expected a system's output, found the same text as the gold file ({gold}): it scores 100 against itself"
    );
    let hint = "give the system's own output: a copy of the gold measures nothing";
    Warning::of(
        WarningKind::SystemIsGold,
        system,
        message,
        Some(hint.into()),
    )
}

/// A small text input read whole (see [`treeval_formats::input::read_text`]): label
/// equivalences, tree pairs, evaluate.pl's lines, a model.
pub(crate) fn read_text(input: &Input, expected: &str) -> crate::Result<String> {
    let eval = |e: treeval_formats::Error| crate::Error::Eval(e.to_string());
    let i = input.with(ReaderBuilder::new());
    treeval_formats::input::read_text_from(input.name(), i.text().map_err(eval)?, expected)
        .map_err(eval)
}

impl From<&str> for Input {
    fn from(p: &str) -> Self {
        Input::Path(p.to_owned())
    }
}

impl From<String> for Input {
    fn from(p: String) -> Self {
        Input::Path(p)
    }
}

impl From<&String> for Input {
    fn from(p: &String) -> Self {
        Input::Path(p.clone())
    }
}

impl From<&Path> for Input {
    fn from(p: &Path) -> Self {
        Input::Path(p.to_string_lossy().into_owned())
    }
}

impl From<PathBuf> for Input {
    fn from(p: PathBuf) -> Self {
        Input::from(p.as_path())
    }
}

/// A gold input and the systems scored against it (in the order given: system 0, 1, …).
#[derive(Debug, Clone)]
pub struct Inputs {
    /// The gold standard.
    pub gold: Input,
    /// The systems.
    pub systems: Vec<Input>,
}

impl Inputs {
    /// `gold` and `systems`.
    pub fn new<G: Into<Input>, S: Into<Input>>(
        gold: G,
        systems: impl IntoIterator<Item = S>,
    ) -> Self {
        Inputs {
            gold: gold.into(),
            systems: systems.into_iter().map(Into::into).collect(),
        }
    }

    /// The systems' names (paths, or in-memory names).
    pub fn system_names(&self) -> Vec<String> {
        self.systems.iter().map(|s| s.name().to_owned()).collect()
    }

    /// The inputs' identities, as a state names them.
    pub fn identity(&self) -> treeval_report::state::ShardInputs {
        treeval_report::state::ShardInputs {
            gold: vec![self.gold.file_id()],
            systems: self.systems.iter().map(|s| vec![s.file_id()]).collect(),
        }
    }

    /// The warnings about systems that are the gold ([`gold_copies`]).
    pub(crate) fn gold_copies(&self) -> Vec<treeval_report::model::Warning> {
        gold_copies(self.systems.iter().map(|s| (&self.gold, s)))
    }

    /// The gold and each system with their roles (`gold`, `system`), as a per-sentence
    /// file's header names them.
    pub fn roles(&self) -> Vec<(&'static str, &str)> {
        use treeval_report::names::role::{GOLD, SYSTEM};
        std::iter::once((GOLD, self.gold.name()))
            .chain(self.systems.iter().map(|s| (SYSTEM, s.name())))
            .collect()
    }

    /// The systems' display names: the names given (`--name`; a usage error unless one
    /// per system), or the shortest ends of their paths that tell them apart.
    pub fn display_names(&self, common: &crate::Common) -> crate::Result<Vec<String>> {
        common.check_names(self.systems.len(), "system")?;
        let paths: Vec<&str> = self.systems.iter().map(|s| s.name()).collect();
        Ok(common.system_names(&paths))
    }

    /// A usage error when standard input is given more than once.
    pub(crate) fn check_stdin(&self) -> crate::Result<()> {
        let n = self.systems.iter().filter(|s| s.is_stdin()).count()
            + usize::from(self.gold.is_stdin());
        if n > 1 {
            return Err(crate::Error::Usage(
                "standard input ('-') can be given only once".into(),
            ));
        }
        Ok(())
    }
}
