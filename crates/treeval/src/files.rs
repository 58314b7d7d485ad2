//! Files written besides the report (per-sentence records, states, judging files,
//! models), and the guard that keeps them from ever replacing an input.
//!
//! Every path a front end will write is checked before any file is opened, for reading or
//! writing:
//! - it may not resolve to one of the inputs (symbolic links, `./` and `..` resolved; hard
//!   links compared by device and inode);
//! - an existing file is replaced only when it is empty or looks like treeval's own output
//!   of that kind (its first line), unless forced: `--per-sentence` takes a value, so
//!   `--per-sentence gold.conllu sys.conllu` reads `gold.conllu` as the output and must
//!   not destroy it;
//! - standard output (`-`) carries the report and cannot take a second stream.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::Error;

/// What kind of file an output is, to recognise a file treeval wrote earlier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// JSON lines, first line `{"schema":"treeval.per-sentence/3",…}` (or `/1`).
    PerSentence,
    /// The judging TSV of `brackets --careful --export-for-judging`.
    Judging,
    /// A `rerank train` model: one JSON line starting `{"schema":"treeval.rerank-model/`.
    RerankModel,
    /// The JSON lines of `nbest --export-training`, first line
    /// `{"schema":"treeval.nbest-training/1",…}`.
    Training,
    /// A state of `--emit-state`: one line of JSON starting `{"schema":"treeval.state/`.
    State,
}

/// First-line schema of `nbest --export-training` files.
pub const TRAINING_SCHEMA: &str = "treeval.nbest-training/1";

impl OutputKind {
    fn extension(self) -> &'static str {
        match self {
            OutputKind::PerSentence => "jsonl",
            OutputKind::Judging => "tsv",
            OutputKind::RerankModel => "json",
            OutputKind::Training => "jsonl",
            OutputKind::State => "json",
        }
    }

    fn is_own_first_line(self, line: &str) -> bool {
        match self {
            // files written before the header line existed start with a counts object
            OutputKind::PerSentence => serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v.as_object().cloned())
                .is_some_and(|o| {
                    (o.get("schema").and_then(|s| s.as_str()))
                        .is_some_and(|s| s.starts_with("treeval.per-sentence/"))
                        || (o.contains_key("system") && o.contains_key("sentence"))
                }),
            OutputKind::Judging => line.starts_with(JUDGING_HEADER),
            OutputKind::RerankModel => line.starts_with("{\"schema\":\"treeval.rerank-model/"),
            OutputKind::Training => serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .is_some_and(|v| v.get("schema").and_then(|s| s.as_str()) == Some(TRAINING_SCHEMA)),
            OutputKind::State => line.starts_with("{\"schema\":\"treeval.state/"),
        }
    }
}

/// First line of the judging file.
pub const JUDGING_HEADER: &str =
    "# sentence\tstart\tend\tclass\tcontext\tcrosses\tjudgment (accept|reject)";

/// One output the command will write: the option that names it and its path.
#[derive(Debug, Clone, Copy)]
pub struct Output<'a> {
    /// The option, e.g. `--per-sentence`.
    pub flag: &'a str,
    /// The path as given.
    pub path: &'a str,
    /// What the file holds.
    pub kind: OutputKind,
}

/// One input: its role (`GOLD`, `SYS`, `--gold-a`, …) and its path.
pub type InputRef<'a> = (&'a str, &'a str);

/// The command line as typed (for the "did you mean" line).
fn typed_command(args: &[String]) -> String {
    let mut out = String::from("treeval");
    for a in args.iter().skip(1) {
        out.push(' ');
        out.push_str(&shell_quote(a));
    }
    out
}

fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/' | b':' | b'=' | b',')
        })
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The command line with `flag VALUE` rewritten to `flag FILE VALUE`: what a user who
/// forgot the option's value probably meant.
fn probably_meant(args: &[String], flag: &str, value: &str) -> Option<String> {
    let i = args.iter().position(|a| a == flag)?;
    if args.get(i + 1).map(String::as_str) != Some(value) {
        return None;
    }
    let mut out = String::from("treeval");
    for (j, a) in args.iter().enumerate().skip(1) {
        out.push(' ');
        if j == i + 1 {
            out.push_str("FILE ");
        }
        out.push_str(&shell_quote(a));
    }
    Some(out)
}

/// `path` made absolute with symbolic links resolved; a path that does not exist yet is
/// resolved through its parent directory.
fn resolve(path: &str) -> Option<PathBuf> {
    let p = Path::new(path);
    if let Ok(c) = p.canonicalize() {
        return Some(c);
    }
    let name = p.file_name()?;
    let parent = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    parent.canonicalize().ok().map(|d| d.join(name))
}

#[cfg(unix)]
fn same_inode(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_inode(_: &Path, _: &Path) -> bool {
    false
}

/// Check every output against every input and against existing files (see the module
/// documentation). Nothing is opened for writing here; call this before reading any input.
/// `argv` is the command line as typed (`treeval` first), for the hints that quote it
/// back; empty when there is none (a library call).
pub fn check_outputs(
    outputs: &[Output<'_>],
    inputs: &[InputRef<'_>],
    force: bool,
    argv: &[String],
) -> Result<(), Error> {
    for (i, o) in outputs.iter().enumerate() {
        for other in &outputs[..i] {
            if resolve(other.path).is_some_and(|p| Some(p) == resolve(o.path)) {
                return Err(Error::Usage(format!(
                    "{} and {} name the same file {}",
                    other.flag, o.flag, o.path
                )));
            }
        }
    }
    for o in outputs {
        if o.path == "-" {
            return Err(Error::Usage(format!(
                "{} -: standard output carries the report; give {} a file name",
                o.flag, o.flag
            )));
        }
        if o.path.is_empty() {
            return Err(Error::Usage(format!("{} needs a file name", o.flag)));
        }
        let Some(out) = resolve(o.path) else {
            // the directory does not exist: creating the file will fail with its own message
            continue;
        };
        for (role, input) in inputs {
            if *input == "-" {
                continue;
            }
            let same =
                resolve(input).is_some_and(|p| p == out) || same_inode(Path::new(input), &out);
            if same {
                let mut msg = format!(
                    "{} {} would overwrite the input {} ({}); treeval never writes to its inputs",
                    o.flag, o.path, input, role
                );
                msg.push_str(&format!(
                    "\n  hint: give {} a file that is not an input, e.g. `{} {}.{}`",
                    o.flag,
                    o.flag,
                    Path::new(o.path)
                        .file_stem()
                        .map_or("out".into(), |s| s.to_string_lossy()),
                    o.kind.extension(),
                ));
                if !argv.is_empty() {
                    msg.push_str(&format!(" (the command was `{}`)", typed_command(argv)));
                }
                return Err(Error::Usage(msg));
            }
        }
        if !force {
            refuse_foreign_file(o, argv)?;
        }
    }
    Ok(())
}

/// An existing, non-empty file that does not start like treeval's output of this kind is
/// not replaced without `--force`.
fn refuse_foreign_file(o: &Output<'_>, argv: &[String]) -> Result<(), Error> {
    let p = Path::new(o.path);
    let Ok(meta) = std::fs::metadata(p) else {
        return Ok(());
    };
    if !meta.is_file() {
        return if meta.is_dir() {
            Err(Error::Usage(format!(
                "{} {}: this is a directory; give a file name",
                o.flag, o.path
            )))
        } else {
            Ok(()) // a FIFO or a device such as /dev/null
        };
    }
    if meta.len() == 0 {
        return Ok(());
    }
    // its first line as an input is read (a compressed output's, decompressed)
    let mut first = Vec::new();
    match treeval_formats::input::open(o.path) {
        Ok((i, _)) => {
            let _ = BufReader::new(i.take(4096)).read_until(b'\n', &mut first);
        }
        Err(_) => {
            if let Ok(f) = File::open(p) {
                let _ = BufReader::new(f.take(4096)).read_until(b'\n', &mut first);
            }
        }
    }
    let first = String::from_utf8_lossy(&first);
    if o.kind
        .is_own_first_line(first.trim_start_matches('\u{feff}'))
    {
        return Ok(());
    }
    let mut msg = format!(
        "{} {}: the file exists and is not treeval's output (its first line is {}); treeval does not replace it",
        o.flag,
        o.path,
        describe_line(&first)
    );
    match probably_meant(argv, o.flag, o.path) {
        Some(m) => msg.push_str(&format!(
            "\n  hint: {} takes a FILE, so {} was read as the output: did you mean `{m}`? (--force replaces the file)",
            o.flag, o.path
        )),
        None => msg.push_str("\n  hint: choose another name, or add --force to replace it"),
    }
    Err(Error::Usage(msg))
}

fn describe_line(line: &str) -> String {
    let line = line.trim_end_matches(['\n', '\r']);
    if line.chars().any(|c| c.is_control() && c != '\t') {
        return "not text".into();
    }
    let mut s: String = line.chars().take(50).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    format!("'{}'", s.replace('\t', "\\t"))
}

/// Create an output that [`check_outputs`] accepted, compressed as its name says
/// (`.gz`, `.zst`: [`treeval_formats::output`], the rule of every output file).
pub fn create(o: &Output<'_>) -> Result<treeval_formats::output::Output, Error> {
    treeval_formats::output::create(o.path).map_err(|e| {
        Error::Eval(format!(
            "{}: cannot create the {} file: {e}",
            o.path, o.flag
        ))
    })
}

/// Write `text` whole to the output `o` (compressed as its name says) and end it.
pub fn write_all(o: &Output<'_>, text: &str) -> Result<(), Error> {
    use std::io::Write;
    let mut w = create(o)?;
    (w.write_all(text.as_bytes()).and_then(|()| w.finish()))
        .map_err(|e| Error::Eval(format!("{}: cannot write the {} file: {e}", o.path, o.flag)))
}

/// Write `state` to `path` (checked by [`check_outputs`] before any input was read): one
/// line of JSON, compressed as the name says (`st.json.gz`).
pub fn write_state(path: &str, state: &crate::State) -> Result<(), Error> {
    let text = state_text(state).map_err(|e| Error::Eval(format!("{path}: {e}")))?;
    let o = Output {
        flag: "--emit-state",
        path,
        kind: OutputKind::State,
    };
    write_all(&o, &text)
}

/// A state as its file holds it: one line of JSON.
pub fn state_text(state: &crate::State) -> Result<String, Error> {
    serde_json::to_string(state)
        .map(|t| t + "\n")
        .map_err(|e| Error::Eval(format!("cannot encode the state: {e}")))
}
