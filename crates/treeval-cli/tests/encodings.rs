//! The encodings matrix: every input of every evaluating command (and the other files
//! commands read: a manifest, a parameter file, tree pairs, CoNLL-X, CoNLL-2009 and
//! MaltTab), written in Latin-1, Windows-1252 and UTF-16 (little- and big-endian, with and
//! without a byte-order mark) instead of UTF-8, is refused: exit 1, one error at the
//! first byte that is not UTF-8 (its line and column, found here independently from the
//! text), naming the encoding and the `iconv` command that converts the file, and no
//! score on standard output. A UTF-8 byte-order mark is accepted.

mod common;

use std::path::Path;

use common::commands::two_systems;
use common::{argv, root, treeval};

/// The encodings a file is written in, as the message names them.
#[derive(Debug, Clone, Copy)]
enum Enc {
    Latin1,
    Windows1252,
    Utf16 { le: bool, bom: bool },
}

const ENCODINGS: [Enc; 6] = [
    Enc::Latin1,
    Enc::Windows1252,
    Enc::Utf16 {
        le: true,
        bom: true,
    },
    Enc::Utf16 {
        le: false,
        bom: true,
    },
    Enc::Utf16 {
        le: true,
        bom: false,
    },
    Enc::Utf16 {
        le: false,
        bom: false,
    },
];

impl Enc {
    /// What the message says of the encoding, and the `iconv -f` name it gives.
    fn named(self) -> (&'static str, &'static str) {
        match self {
            Enc::Latin1 => ("Latin-1", "ISO-8859-1"),
            Enc::Windows1252 => ("Windows-1252", "WINDOWS-1252"),
            Enc::Utf16 { le: true, bom } => {
                ("little-endian", if bom { "UTF-16" } else { "UTF-16LE" })
            }
            Enc::Utf16 { le: false, bom } => {
                ("big-endian", if bom { "UTF-16" } else { "UTF-16BE" })
            }
        }
    }
}

/// `text` (UTF-8, ASCII but for the characters put in) written in `enc`.
fn encode(text: &str, enc: Enc) -> Vec<u8> {
    match enc {
        Enc::Latin1 | Enc::Windows1252 => text
            .chars()
            .map(|c| match c {
                '€' => 0x80,
                '’' => 0x92,
                c => u8::try_from(u32::from(c)).unwrap_or(b'?'),
            })
            .collect(),
        Enc::Utf16 { le, bom } => {
            let units = (bom.then_some('\u{feff}').into_iter())
                .chain(text.chars())
                .collect::<String>();
            units
                .encode_utf16()
                .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
                .collect()
        }
    }
}

/// The fixture `text` with a non-ASCII character put in the place of the first ASCII
/// letter of its middle line (or of the next line with one), and where that is (line,
/// column, 1-based) of the first character that is not ASCII (the first byte that is
/// not UTF-8 once written in Latin-1; characters Latin-1 has not are written `?`).
fn put_in(text: &str, c: char) -> (String, u64, u32) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut k = lines.len() / 2;
    while !lines[k].bytes().any(|b| b.is_ascii_alphanumeric()) {
        k = (k + 1) % lines.len();
    }
    let col = lines[k]
        .bytes()
        .position(|b| b.is_ascii_lowercase())
        .or_else(|| lines[k].bytes().position(|b| b.is_ascii_alphanumeric()))
        .unwrap();
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        if i == k {
            out.push_str(&l[..col]);
            out.push(c);
            out.push_str(&l[col + 1..]);
        } else {
            out.push_str(l);
        }
    }
    // the first character that is not ASCII in Latin-1 (the fixture's own, perhaps)
    let written = |c: char| u32::from(c) < 0x100 || "€’".contains(c);
    let mut at = (1, 0);
    for c in out.chars() {
        match c {
            '\n' => at = (at.0 + 1, 0),
            c if !c.is_ascii() && written(c) => break,
            _ => at.1 += 1,
        }
    }
    (out, at.0, at.1 + 1)
}

/// The file `path` (relative to the repository root) written in `enc` under `dir`, and the
/// position of its first byte that is not UTF-8.
fn variant(path: &str, enc: Enc, dir: &Path) -> (String, u64, u32) {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    let (bytes, line, col) = match enc {
        Enc::Latin1 => {
            let (t, l, c) = put_in(&text, 'é');
            (encode(&t, enc), l, c)
        }
        Enc::Windows1252 => {
            // a curly apostrophe (0x92, a control character in Latin-1), as Word writes it
            let (t, l, c) = put_in(&text, '’');
            (encode(&t, enc), l, c)
        }
        // the first ASCII character's zero byte: second in little-endian, first in big
        Enc::Utf16 { le, bom } => {
            assert!(text.starts_with(|c: char| c.is_ascii()), "{path}");
            (encode(&text, enc), 1, if bom || !le { 1 } else { 2 })
        }
    };
    let name = path.replace('/', "_");
    let out = dir.join(format!("{name}.{enc:?}").replace([' ', '{', '}', ':', ','], ""));
    std::fs::write(&out, bytes).unwrap();
    (out.to_string_lossy().into_owned(), line, col)
}

/// Every command line of the matrix (arguments relative to the repository root).
fn command_lines() -> Vec<Vec<String>> {
    let mut lines: Vec<Vec<String>> = two_systems().into_iter().map(|c| c.one).collect();
    let own = |l: &str| argv(l).into_iter().map(str::to_owned).collect::<Vec<_>>();
    let c9 = "testdata/conll09";
    let b = "testdata/brackets/prm-messages";
    lines.extend([
        own(&format!("deps {c9}/gold.conll09 {c9}/sys.conll09")),
        own(&format!(
            "brackets --prm {b}/odd.prm {b}/gold.txt {b}/test.txt"
        )),
        own("table testdata/table/manifest.tsv"),
        own("ted --distance testdata/ted/pairs.txt"),
    ]);
    lines
}

/// Whether argument `a` of a command line is a file the command reads.
fn is_input(a: &str) -> bool {
    !a.starts_with('-') && root().join(a).is_file()
}

#[test]
fn every_input_of_every_command_in_every_encoding_is_refused_where_it_stops_being_utf8() {
    let dir = std::env::temp_dir().join(format!("treeval-enc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for line in command_lines() {
        for (i, arg) in line.iter().enumerate() {
            if !is_input(arg) {
                continue;
            }
            for enc in ENCODINGS {
                let (path, l, c) = variant(arg, enc, &dir);
                let mut args = line.clone();
                args[i].clone_from(&path);
                let a: Vec<&str> = args.iter().map(String::as_str).collect();
                let o = treeval(&a);
                let err = String::from_utf8_lossy(&o.stderr);
                let what = format!("treeval {} ({enc:?} {arg})\n{err}", a.join(" "));
                assert_eq!(o.status.code(), Some(1), "{what}");
                assert!(o.stdout.is_empty(), "a score on stdout: {what}");
                let at = format!("{path}:{l}:{c}: expected UTF-8 text, found ");
                assert!(err.contains(&at), "not at {l}:{c}: {what}");
                let (name, iconv) = enc.named();
                assert!(err.contains(name), "the encoding is not named: {what}");
                assert!(
                    err.contains(&format!("iconv -f {iconv} -t UTF-8")),
                    "no iconv command: {what}"
                );
                checked += 1;
            }
        }
    }
    // every file of the 8 commands, a CoNLL-2009 pair, a parameter file with its trees,
    // a manifest and tree pairs
    assert_eq!(checked, 6 * 27);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--compat evalb` reads bytes as EVALB (a C program) does, whatever the encoding: on a
/// Latin-1 pair its standard output and error are EVALB's, byte for byte (EVALB's own
/// outputs, testdata/brackets/latin1/README.md); without `--compat` the same pair is
/// refused at the first Latin-1 byte (line 1, column 16: `José`'s é).
#[test]
fn brackets_compat_evalb_reads_latin1_bytes_as_evalb() {
    let d = "testdata/brackets/latin1";
    let (g, t) = (format!("{d}/gold.txt"), format!("{d}/test.txt"));
    let o = treeval(&["brackets", "--compat", "evalb", &g, &t]);
    assert_eq!(o.status.code(), Some(0));
    let out = std::fs::read(root().join(d).join("evalb.expected.out")).unwrap();
    let err = std::fs::read(root().join(d).join("evalb.expected.err")).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&out)
    );
    assert_eq!(o.stdout, out);
    assert_eq!(o.stderr, err);
    // by hand: sentence 1 matches 3 of 4 gold brackets (VP flattened), 2 all 4, 3 is an
    // error (Zoë in other bytes), 4 matches 3 of 4 (ADJP flattened): 10/12 = 83.33
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("Bracketing Recall         =  83.33"),
        "{text}"
    );
    for args in [vec!["brackets", &g, &t], vec!["brackets", &t, &g]] {
        let o = treeval(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(o.stdout.is_empty());
        assert!(
            err.contains(&format!(
                "{}:1:16: expected UTF-8 text, found the byte 0xE9 ('é' in Latin-1)",
                args[1]
            )),
            "{err}"
        );
        assert!(
            err.contains(&format!("iconv -f ISO-8859-1 -t UTF-8 {}", args[1])),
            "{err}"
        );
    }
}

/// A UTF-8 byte-order mark at the start of any input is accepted: the same scores as
/// without it.
#[test]
fn a_utf8_byte_order_mark_is_accepted_by_every_command() {
    let dir = std::env::temp_dir().join(format!("treeval-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for line in command_lines() {
        let plain = treeval(&line.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(plain.status.code(), Some(0), "{line:?}");
        for (i, arg) in line.iter().enumerate() {
            if !is_input(arg) {
                continue;
            }
            let mut bytes = b"\xEF\xBB\xBF".to_vec();
            bytes.extend(std::fs::read(root().join(arg)).unwrap());
            // a manifest names its files relative to its folder: its copy goes beside it
            let name = if line[0] == "table" {
                root().join(format!("{arg}.bom-{}", std::process::id()))
            } else {
                dir.join(arg.replace('/', "_"))
            };
            std::fs::write(&name, bytes).unwrap();
            let mut args = line.clone();
            args[i] = name.to_string_lossy().into_owned();
            let a: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = treeval(&a);
            if line[0] == "table" {
                std::fs::remove_file(&name).unwrap();
            }
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(0), "treeval {}\n{err}", a.join(" "));
            let number = |s: &[u8]| {
                String::from_utf8_lossy(s)
                    .split_whitespace()
                    .filter(|w| w.contains('.') && w.parse::<f64>().is_ok())
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                number(&o.stdout),
                number(&plain.stdout),
                "treeval {}",
                a.join(" ")
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 27);
    let _ = std::fs::remove_dir_all(&dir);
}
