//! Every command's help (issue 30, point 4): `-h` at most 40 lines of at most 100
//! columns, ending with examples that run from the repository's root; `--help` lists
//! every option the command accepts, and no shared option it refuses (a refused option
//! stays refused with its message when typed).

use std::path::{Path, PathBuf};
use std::process::Command;

const COMMANDS: [&str; 13] = [
    "deps",
    "ud",
    "relations",
    "brackets",
    "align",
    "pts",
    "ted",
    "table",
    "nbest",
    "rerank train",
    "rerank apply",
    "merge",
    "measures",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn treeval(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_treeval"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run treeval")
}

fn help(cmd: &str, flag: &str) -> String {
    let mut args: Vec<&str> = cmd.split(' ').collect();
    args.push(flag);
    let o = treeval(&args);
    assert!(o.status.success(), "treeval {cmd} {flag} failed");
    String::from_utf8(o.stdout).unwrap()
}

/// The examples of a help text: the lines under `Examples:`, a line ending in `\` joined
/// with the next.
fn examples(h: &str) -> Vec<String> {
    let block = h.split("Examples:\n").nth(1).expect("an Examples: block");
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in block.lines().take_while(|l| !l.trim().is_empty()) {
        cur.push_str(line.trim().trim_end_matches('\\').trim_end());
        cur.push(' ');
        if !line.trim_end().ends_with('\\') {
            out.push(cur.trim().to_string());
            cur.clear();
        }
    }
    out
}

#[test]
fn short_help_fits_40_lines_of_100_columns_and_points_to_long_help() {
    for cmd in COMMANDS {
        let h = help(cmd, "-h");
        let lines: Vec<&str> = h.lines().collect();
        assert!(
            lines.len() <= 40,
            "treeval {cmd} -h has {} lines:\n{h}",
            lines.len()
        );
        for l in &lines {
            assert!(
                l.chars().count() <= 100,
                "treeval {cmd} -h: a line over 100 columns: {l}"
            );
        }
        let last = lines.last().unwrap();
        assert!(
            last.contains(&format!("treeval {cmd} --help")),
            "{cmd}: {last}"
        );
        let n = examples(&h).len();
        assert!((2..=3).contains(&n), "treeval {cmd} -h: {n} examples");
        let long = help(cmd, "--help");
        assert_eq!(examples(&long), examples(&h), "{cmd}: the same examples");
        assert!(
            long.contains("Exit codes:"),
            "treeval {cmd} --help names the exit codes"
        );
    }
}

#[test]
fn every_example_of_every_short_help_runs() {
    for cmd in COMMANDS {
        for e in examples(&help(cmd, "-h")) {
            let words: Vec<&str> = e.split_whitespace().collect();
            assert_eq!(words[0], "treeval", "{e}");
            let o = treeval(&words[1..]);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{e}\n{}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(!o.stdout.is_empty(), "{e} printed nothing");
        }
    }
}

/// A valid value of each shared option (by its flag), or none for a switch.
const SHARED: &[(&str, Option<&str>)] = &[
    ("--html-sentences", Some("10")),
    ("--where", Some("upos=NOUN")),
    ("--errors", None),
    ("--name", Some("A")),
    ("--one-sided", None),
    ("--per-sentence", Some("/tmp/treeval-help-test.jsonl")),
    ("--emit-state", Some("/tmp/treeval-help-test-state.json")),
    ("--keep-sentences", None),
    ("--sent-id", Some(".*")),
    ("--min-len", Some("1")),
    ("--max-len", Some("100")),
];

/// The state `merge` is tried on (two systems).
const MERGE_STATE: &str = "/tmp/treeval-help-test-merge-input.json";

/// A command line of each command that runs, and what each shared option needs beside it.
fn base(cmd: &str) -> Vec<&'static str> {
    match cmd {
        "deps" | "ud" | "relations" => vec![
            cmd_static(cmd),
            "examples/gold.conllu",
            "examples/sys.conllu",
        ],
        "align" => vec![
            "align",
            "testdata/align/gold.naacl",
            "testdata/align/hyp.pharaoh",
        ],
        "table" => vec!["table", "testdata/table/manifest.tsv"],
        "nbest" => vec![
            "nbest",
            "testdata/nbest/alpino-example/example.gold.conllu",
            "testdata/nbest/alpino-example/example.nbest.conllu",
        ],
        "ted" => vec![
            "ted",
            "--gold",
            "testdata/ted/lexical-gold.conllu",
            "--system",
            "testdata/ted/lexical-parse.conllu",
        ],
        "pts" => vec![
            "pts",
            "--gold-a",
            "examples/pts/gold.en.conllu",
            "--gold-b",
            "examples/pts/gold.de.conllu",
            "--gold-align",
            "examples/pts/gold.en-de.naacl",
            "--sys-a",
            "examples/pts/parser.en.conllu",
            "--sys-b",
            "examples/pts/parser.de.conllu",
            "--sys-align",
            "examples/pts/aligner.en-de.pharaoh",
        ],
        "brackets" => vec![
            "brackets",
            "testdata/brackets/words-300/gold.txt",
            "testdata/brackets/words-300/test.txt",
        ],
        "merge" => vec!["merge", MERGE_STATE],
        _ => unreachable!(),
    }
}

fn cmd_static(cmd: &str) -> &'static str {
    ["deps", "ud", "relations"]
        .into_iter()
        .find(|c| *c == cmd)
        .unwrap()
}

/// What each option needs with it to be honoured (else refused for another reason).
fn companions(flag: &str) -> Vec<&'static str> {
    match flag {
        "--html-sentences" => vec!["--format", "html"],
        "--one-sided" => vec!["--test", "ar"],
        "--keep-sentences" => vec![
            "--emit-state",
            "/tmp/treeval-help-test-state.json",
            "--force",
        ],
        "--per-sentence" | "--emit-state" => vec!["--force"],
        _ => vec![],
    }
}

#[test]
fn every_command_lists_the_shared_options_it_accepts_and_hides_those_it_refuses() {
    let refusals = [
        "does not apply",
        "not available",
        "does not take",
        "does not write",
        "has none",
    ];
    let state = treeval(&[
        "deps",
        "examples/gold.conllu",
        "examples/sys.conllu",
        "examples/sys2.conllu",
        "--emit-state",
        MERGE_STATE,
        "--keep-sentences",
        "--force",
    ]);
    assert!(
        state.status.success(),
        "{}",
        String::from_utf8_lossy(&state.stderr)
    );
    for cmd in [
        "brackets",
        "merge",
        "deps",
        "ud",
        "relations",
        "align",
        "pts",
        "ted",
        "table",
        "nbest",
    ] {
        let long = help(cmd, "--help");
        for (flag, value) in SHARED {
            let listed = long
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{flag} ")) || l.trim() == *flag);
            let mut args = base(cmd);
            args.push(flag);
            args.extend(value.iter());
            args.extend(companions(flag));
            let o = treeval(&args);
            let err = String::from_utf8_lossy(&o.stderr);
            let refused = o.status.code() == Some(2) && refusals.iter().any(|r| err.contains(r));
            assert_eq!(
                listed, !refused,
                "treeval {cmd} {flag}: listed {listed}, refused {refused}: {err}"
            );
        }
    }
}
