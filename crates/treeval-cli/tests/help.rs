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
fn companions(cmd: &str, flag: &str) -> Vec<&'static str> {
    match flag {
        // an output file for it to replace: merge writes no per-sentence records
        "--force" if cmd == "merge" => vec!["--emit-state", "/tmp/treeval-help-force.json"],
        "--force" => vec!["--per-sentence", "/tmp/treeval-help-force.jsonl"],
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
            args.extend(companions(cmd, flag));
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

/// The long options `--name` in `text`, each with the text before it on its line and
/// the line before (a `--fAlpha` of another tool, with capitals, is not one of ours).
fn named_options(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(k) = text[i..].find("--") {
        let at = i + k;
        let mut end = at + 2;
        while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'-') {
            end += 1;
        }
        let name = text[at..end].trim_end_matches('-');
        let ours = name.len() > 2
            && b[at + 2].is_ascii_lowercase()
            && !name.bytes().any(|c| c.is_ascii_uppercase())
            && (at == 0 || !b[at - 1].is_ascii_alphanumeric());
        if ours {
            let from = text[..at].rfind('\n').map_or(0, |n| n + 1);
            let from = text[..from.saturating_sub(1)]
                .rfind('\n')
                .map_or(0, |n| n + 1);
            out.push((name.to_string(), text[from..at].replace('\n', " ")));
        }
        i = end.max(at + 2);
    }
    out
}

/// The long options (with aliases) that the command `path` accepts: those of its
/// definition that its help shows (a hidden one is refused when typed).
fn accepted(path: &str) -> Vec<String> {
    let mut cmd = treeval_cli::help::command();
    for part in path.split(' ') {
        cmd = cmd.find_subcommand(part).expect("a command").clone();
    }
    let mut out = vec!["--help".to_string()];
    for a in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
        out.extend(a.get_long().map(|l| format!("--{l}")));
        let aliases = a.get_visible_aliases().unwrap_or_default();
        out.extend(aliases.into_iter().map(|l| format!("--{l}")));
    }
    out
}

/// Names of other commands and reference tools: an option named right after one is
/// that command's or tool's (`ted: each --system`, `udeval --no-empty-nodes`).
const OTHERS: [&str; 13] = [
    "deps",
    "ud",
    "relations",
    "brackets",
    "align",
    "pts",
    "ted",
    "nbest",
    "merge",
    "rerank",
    "udeval",
    "aer.py",
    "compare_trees.py",
];

/// Whether `option`, named after `before`, is another command's or tool's: the last
/// command or tool named in `before` (and a command accepts it).
fn names_another(before: &str, option: &str) -> bool {
    let words: Vec<&str> = before
        .split(|c: char| c.is_whitespace() || "`:;,(".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    let Some(other) = words.iter().rev().find(|w| OTHERS.contains(w)) else {
        return false;
    };
    match *other {
        "udeval" | "aer.py" | "compare_trees.py" => true,
        "rerank" => ["rerank train", "rerank apply"]
            .iter()
            .any(|c| accepted(c).iter().any(|a| a == option)),
        c => accepted(c).iter().any(|a| a == option),
    }
}

/// Options a command's texts name on purpose although the command does not take them,
/// and why: a table's manifest lines hold deps and ud options; merge's states are
/// written by other commands.
const ELSEWHERE: [(&str, &str); 6] = [
    ("table", "--labels"),
    ("table", "--by"),
    ("table", "--compat"),
    ("table", "--test-metrics"),
    ("merge", "--keep-sentences"),
    ("merge", "--emit-state"),
];

/// Issue 38: help and hints name options that do not exist or do not apply (`table
/// --help` offered `--force` and `--test mcnemar`; the pts hint recommended
/// `--gold-format/--hyp-format`, which pts does not take). Every option a command's
/// `--help` names, and every `--test` value it offers, is one the command accepts (its
/// definition, as tailored), or is named as another command's or tool's; an example
/// line is checked against its own command.
#[test]
fn every_option_a_help_names_is_accepted() {
    for cmd in COMMANDS {
        let long = help(cmd, "--help");
        let mine = accepted(cmd);
        let (text, examples) = long.split_once("Examples:\n").unwrap_or((&long, ""));
        for (option, before) in named_options(text) {
            let ok = mine.contains(&option)
                || names_another(&before, &option)
                || ELSEWHERE.contains(&(cmd, option.as_str()));
            assert!(ok, "treeval {cmd} --help names {option}: …{before}{option}");
        }
        for example in self::examples(&format!("Examples:\n{examples}")) {
            let path = COMMANDS
                .iter()
                .filter(|c| {
                    example == format!("treeval {c}")
                        || example.starts_with(&format!("treeval {c} "))
                })
                .max_by_key(|c| c.len())
                .expect("an example of a command");
            let theirs = accepted(path);
            for (option, _) in named_options(&example) {
                assert!(
                    theirs.contains(&option),
                    "{cmd}: example `{example}`: {option}"
                );
            }
        }
    }
}

/// The `--test` values a command's help offers are accepted by it: with two systems,
/// none is refused as not applying (ud, relations, align, ted and table offered mcnemar).
#[test]
fn every_test_a_help_offers_is_accepted() {
    let two = [
        (
            "deps",
            "examples/gold.conllu examples/sys.conllu examples/sys2.conllu",
        ),
        (
            "ud",
            "examples/gold.conllu examples/sys.conllu examples/sys2.conllu",
        ),
        (
            "relations",
            "examples/gold.conllu examples/sys.conllu examples/sys2.conllu",
        ),
        (
            "align",
            "testdata/align/gold.naacl testdata/align/hyp.pharaoh testdata/align/hyp2.pharaoh",
        ),
        (
            "ted",
            "--gold testdata/ted/lexical-gold.conllu --system testdata/ted/lexical-parse.conllu \
             --system testdata/ted/functional-parse.conllu",
        ),
        ("table", "testdata/table/manifest.tsv"),
    ];
    for (cmd, inputs) in two {
        let long = help(cmd, "--help");
        let block = long
            .split("      --test <TEST>")
            .nth(1)
            .and_then(|b| b.split("Possible values:").nth(1))
            .expect("the values of --test");
        let offered: Vec<&str> = block
            .lines()
            .map(str::trim)
            .skip_while(|l| l.is_empty())
            .take_while(|l| !l.is_empty())
            .filter(|l| l.starts_with("- "))
            .filter_map(|l| l[2..].split(':').next())
            .collect();
        assert!(offered.contains(&"ar"), "{cmd}: {offered:?}");
        for test in offered {
            let mut args = vec![cmd, "-q", "--test", test];
            args.extend(inputs.split_whitespace());
            let o = treeval(&args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(
                o.status.code(),
                Some(0),
                "treeval {cmd} --test {test}: {err}"
            );
        }
        // mcnemar is refused where it is not offered, with the command's reason
        if cmd != "deps" {
            let mut args = vec![cmd, "-q", "--test", "mcnemar"];
            args.extend(inputs.split_whitespace());
            let o = treeval(&args);
            assert_eq!(o.status.code(), Some(2), "{cmd}");
        }
    }
}

/// The hints of each command's code (the library's and the command line's, and the
/// alignment reader's, which align and pts share) name only options the command
/// accepts, or another command's. A refusal may name the option it refuses; what a hint
/// recommends must exist.
#[test]
fn every_option_a_hint_names_is_accepted() {
    let src = root().join("crates");
    let mut files: Vec<(PathBuf, Vec<&str>)> = vec![(
        src.join("treeval-formats/src/align.rs"),
        vec!["align", "pts"],
    )];
    for cmd in COMMANDS {
        let name = cmd.split(' ').next().unwrap_or(cmd);
        let paths = [
            src.join(format!("treeval/src/{name}.rs")),
            src.join(format!("treeval-cli/src/commands/{name}.rs")),
        ];
        let dir = src.join(format!("treeval/src/{name}"));
        let nested = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path());
        for p in paths.into_iter().chain(nested) {
            if p.extension().is_some_and(|e| e == "rs") && p.exists() {
                files.push((p, vec![cmd]));
            }
        }
    }
    let mut hints = 0;
    for (path, cmds) in &files {
        let text = std::fs::read_to_string(path).unwrap();
        // the code, not its tests
        let code = text.split("#[cfg(test)]").next().unwrap_or(&text);
        for hint in hint_texts(code) {
            hints += 1;
            for (option, before) in named_options(&hint) {
                for cmd in cmds {
                    let ok = accepted(cmd).contains(&option)
                        || names_another(&before, &option)
                        || ELSEWHERE.contains(&(*cmd, option.as_str()));
                    assert!(
                        ok,
                        "{}: a hint of {cmd} names {option}: {hint}",
                        path.display()
                    );
                }
            }
        }
    }
    assert!(hints > 20, "hints found: {hints}");
}

/// The texts of hints in `code`: what follows `hint:` in a string literal, and the
/// literals given to `with_hint(`.
fn hint_texts(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (k, piece) in code.split("with_hint(").enumerate() {
        let lits = literals(piece);
        if k > 0 {
            // the call's arguments: up to its closing parenthesis, roughly its literals
            // before the next statement
            let call = piece.split(";\n").next().unwrap_or(piece);
            out.extend(literals(call));
        }
        for l in lits {
            if let Some((_, after)) = l.split_once("hint:") {
                out.push(after.to_string());
            }
        }
    }
    out
}

/// The string literals of `code` (their text between the quotes).
fn literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    let mut chars = code.chars();
    while let Some(c) = chars.next() {
        match (&mut cur, c) {
            (None, '"') => cur = Some(String::new()),
            (None, '\'') => {
                // a char literal such as '"': skip it
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with("\"'") || rest.starts_with("\\\"") {
                    chars.nth(rest.find('\'').unwrap_or(0));
                }
            }
            (Some(s), '\\') => {
                if let Some(n) = chars.next() {
                    s.push(if n == 'n' { '\n' } else { n });
                }
            }
            (Some(_), '"') => out.extend(cur.take()),
            (Some(s), c) => s.push(c),
            _ => {}
        }
    }
    out
}

/// Issue 38: values that do nothing or mislead are refused with what is expected, not
/// taken: `--force` where no file is written (`table --force` was listed and ignored),
/// `--confusion=0` (a 1×1 matrix of "(other)"), and a negative `--seed` (clap's tip said
/// to write `-- -1`, which makes -1 a file).
#[test]
fn options_with_nothing_to_act_on_are_refused() {
    let deps = "deps examples/gold.conllu examples/sys.conllu examples/sys2.conllu";
    let cases = [
        (format!("{deps} --force"), "--force does not apply"),
        (
            "table testdata/table/manifest.tsv --force".into(),
            "--force does not apply",
        ),
        (
            format!("{deps} --confusion=0"),
            "expected at least 1 label, found 0",
        ),
        (
            format!("{deps} --test ar --seed -1"),
            "expected a whole number from 0 to 18446744073709551615, found '-1'",
        ),
        (format!("{deps} --test ar --alpha -0.5"), "found '-0.5'"),
    ];
    for (line, why) in &cases {
        let args: Vec<&str> = line.split_whitespace().collect();
        let o = treeval(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{line}: {err}");
        assert!(err.contains(why), "{line}: {err}");
        assert!(!err.contains("'-- "), "{line}: {err}");
    }
    let ps = std::env::temp_dir().join(format!("treeval-force-{}.jsonl", std::process::id()));
    let ps = ps.to_str().unwrap();
    for line in [
        format!("{deps} -q --force --per-sentence {ps}"),
        format!("{deps} -q --confusion=1"),
    ] {
        let args: Vec<&str> = line.split_whitespace().collect();
        let o = treeval(&args);
        assert!(
            o.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let _ = std::fs::remove_file(ps);
}
