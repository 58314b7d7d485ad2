//! Truncated inputs (issue 38): a system file of each format cut at every line end (with
//! and without its line break) and in the middle of every line — CoNLL-U (`deps`, `ud`),
//! bracketed trees, Pharaoh links, an n-best list and TedEval's parses — is never scored
//! in silence with fewer units: either the command fails (exit 1) with its first error
//! naming the cut file, or it scores what the whole file scores, or it warns, naming the
//! cut file, that the file looks truncated.

mod common;

use common::{root, treeval};

/// The numbers of a report's text (the percentages: what a silent loss would change).
fn numbers(out: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(out)
        .split_whitespace()
        .filter(|w| w.contains('.') && w.parse::<f64>().is_ok())
        .map(str::to_owned)
        .collect()
}

/// Every cut of `bytes`: at each line end before and after its line break, and in the
/// middle of each line (whole file excluded).
fn cuts(bytes: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            out.extend([start + (i - start) / 2, i, i + 1]);
            start = i + 1;
        }
    }
    out.retain(|&c| c > 0 && c < bytes.len());
    out.sort_unstable();
    out.dedup();
    out
}

#[test]
fn a_system_file_cut_anywhere_is_never_scored_in_silence() {
    // (the command line with {} for the system file, the system file)
    let cases = [
        ("deps examples/gold.conllu {}", "examples/sys.conllu"),
        ("ud examples/gold.conllu {}", "examples/sys.conllu"),
        (
            "brackets testdata/brackets/careful-paper/gold.txt {}",
            "testdata/brackets/careful-paper/test.txt",
        ),
        (
            "align testdata/align/gold.naacl {}",
            "testdata/align/hyp.pharaoh",
        ),
        (
            "nbest testdata/nbest/alpino-example/example.gold.conllu {}",
            "testdata/nbest/alpino-example/example.nbest.conllu",
        ),
        (
            "ted --gold testdata/ted/lexical-gold.conllu --system {}",
            "testdata/ted/lexical-parse.conllu",
        ),
    ];
    let dir = std::env::temp_dir().join(format!("treeval-cut-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for (line, file) in cases {
        let run = |sys: &str| {
            let args: Vec<String> = line
                .split_whitespace()
                .map(|a| {
                    if a == "{}" {
                        sys.to_owned()
                    } else {
                        a.to_owned()
                    }
                })
                .collect();
            treeval(&args.iter().map(String::as_str).collect::<Vec<_>>())
        };
        let whole = run(file);
        assert_eq!(whole.status.code(), Some(0), "{line} {file}");
        let bytes = std::fs::read(root().join(file)).unwrap();
        for cut in cuts(&bytes) {
            let path = dir.join(format!("cut-{cut}-{}", file.rsplit('/').next().unwrap()));
            std::fs::write(&path, &bytes[..cut]).unwrap();
            let p = path.to_string_lossy().into_owned();
            let o = run(&p);
            let err = String::from_utf8_lossy(&o.stderr);
            let what = format!("{line} with {file} cut at byte {cut}:\n{err}");
            match o.status.code() {
                // an n-best list cut after the blank line that ends a candidate of its
                // last sentence is a well-formed list of fewer candidates: nothing in it
                // can tell (every sentence has its candidates); not a case of this test
                Some(0) if line.starts_with("nbest") && bytes[..cut].ends_with(b"\n\n") => {}
                Some(0) => {
                    let same = numbers(&o.stdout) == numbers(&whole.stdout);
                    let warned = err
                        .lines()
                        .any(|l| l.contains(&p) && l.contains("the end of the file"))
                        && err.contains("truncated");
                    assert!(same || warned, "fewer units in silence: {what}");
                }
                Some(1) => {
                    let first = err.lines().find(|l| l.starts_with("error: ")).unwrap_or("");
                    assert!(
                        first.starts_with(&format!("error: {p}")),
                        "the cut file is not blamed first: {what}"
                    );
                }
                c => panic!("exit {c:?}: {what}"),
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
    let _ = std::fs::remove_dir_all(&dir);
}
