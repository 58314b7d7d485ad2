//! The malformed-input corpus through the command line: testdata/malformed-cases.tsv lists,
//! for every case file of every reader, the command that reads it, the exit code it must
//! give and the first line of its message on stderr. Every case must also stay within a
//! screenful (at most 40 lines on stderr) and print nothing on stdout when it fails.
//!
//! `TREEVAL_BLESS=1 cargo test -p treeval-cli --test malformed_corpus` rewrites the last
//! two columns from what the commands do now; review the diff before committing it.

use std::process::Command;

mod common;
use common::root;

const MANIFEST: &str = "testdata/malformed-cases.tsv";

struct Case {
    file: String,
    command: String,
    exit: String,
    first: String,
}

fn parse(text: &str) -> (Vec<String>, Vec<Case>) {
    let mut header = Vec::new();
    let mut cases = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            header.push(line.to_owned());
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert!(
            f.len() >= 2,
            "{MANIFEST}: expected file, command, exit, first line: {line}"
        );
        cases.push(Case {
            file: f[0].to_owned(),
            command: f[1].to_owned(),
            exit: f.get(2).unwrap_or(&"").to_string(),
            first: f.get(3).unwrap_or(&"").to_string(),
        });
    }
    (header, cases)
}

/// Split a command on spaces; `{}` is the case file (under testdata/).
fn argv(c: &Case) -> Vec<String> {
    let file = format!("testdata/{}", c.file);
    c.command
        .split(' ')
        .filter(|a| !a.is_empty())
        .map(|a| a.replace("{}", &file))
        .collect()
}

#[test]
fn malformed_inputs_give_their_exit_code_and_message() {
    let path = root().join(MANIFEST);
    let text = std::fs::read_to_string(&path).unwrap();
    let (header, mut cases) = parse(&text);
    assert!(
        cases.len() >= 60,
        "the corpus has {} cases; at least 60 wanted",
        cases.len()
    );
    // every file of a corpus folder is a case
    for dir in [
        "malformed",
        "malformed-align",
        "malformed-brackets",
        "malformed-other",
    ] {
        for e in std::fs::read_dir(root().join("testdata").join(dir)).unwrap() {
            let name = format!("{dir}/{}", e.unwrap().file_name().to_string_lossy());
            assert!(
                cases.iter().any(|c| c.file == name),
                "{MANIFEST} has no case for testdata/{name}"
            );
        }
    }
    let bless = std::env::var("TREEVAL_BLESS").as_deref() == Ok("1");
    let mut failures = Vec::new();
    for c in &mut cases {
        assert!(
            root().join("testdata").join(&c.file).exists(),
            "{MANIFEST}: no file testdata/{}",
            c.file
        );
        let o = Command::new(env!("CARGO_BIN_EXE_treeval"))
            .args(argv(c))
            .current_dir(root())
            .output()
            .unwrap();
        let code = o.status.code().map_or("signal".into(), |c| c.to_string());
        let stderr = String::from_utf8_lossy(&o.stderr);
        let first = stderr.lines().next().unwrap_or("").replace('\t', "\\t");
        if stderr.contains("panicked") {
            failures.push(format!("{}: `{}` panicked: {stderr}", c.file, c.command));
        }
        if code != "0" && !o.stdout.is_empty() {
            failures.push(format!("{}: failed but printed a result on stdout", c.file));
        }
        if stderr.lines().count() > 40 {
            failures.push(format!(
                "{}: {} lines on stderr, more than a screenful",
                c.file,
                stderr.lines().count()
            ));
        }
        if bless {
            c.exit = code;
            c.first = first;
        } else if code != c.exit || first != c.first {
            failures.push(format!(
                "{}: `{}`\n  expected exit {}: {}\n  found    exit {code}: {first}",
                c.file, c.command, c.exit, c.first
            ));
        }
    }
    if bless {
        let mut out = header.join("\n");
        out.push('\n');
        for c in &cases {
            out.push_str(&format!(
                "{}\t{}\t{}\t{}\n",
                c.file, c.command, c.exit, c.first
            ));
        }
        std::fs::write(&path, out).unwrap();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
