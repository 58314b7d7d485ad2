//! Every command's default text output fits in 100 columns (issue 30, point 2): with two
//! systems, with and without `--ci`, on the format matrix's inputs and on a table, a merge
//! and a reranker's training; `--wide` still shows everything (the counts beside each
//! fraction, ud's full table, the intervals' own table).

mod common;

use std::path::{Path, PathBuf};

use common::cases::{cases, TWO};
use common::{argv, root, stdout, treeval_in};

/// The columns default text fits in.
const WIDTH: usize = 100;

/// A fresh scratch folder of this test process.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("treeval-widths-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Run `treeval line` in `dir`; it must succeed.
#[track_caller]
fn run(dir: &Path, line: &str) -> String {
    let o = treeval_in(dir, &argv(line));
    assert!(
        o.status.success(),
        "treeval {line}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    stdout(&o)
}

/// Whether `line` may be wider than [`WIDTH`]: the signature (the first line), or one
/// input path alone after its label (`gold:`, `system NAME:`, `[1]`, or nothing).
fn exempt(i: usize, line: &str) -> bool {
    if i == 0 && line.starts_with("treeval ") {
        return true;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let path = match words.as_slice() {
        [p] => p,
        [label, p] | [_, label, p] | [_, _, label, p]
            if label.ends_with(':') || label.starts_with('[') =>
        {
            p
        }
        _ => return false,
    };
    path.contains('/')
}

/// The lines of `out` wider than [`WIDTH`] (counting characters) that are not exempt.
fn too_wide(out: &str) -> Vec<String> {
    out.lines()
        .enumerate()
        .filter(|(i, l)| l.chars().count() > WIDTH && !exempt(*i, l))
        .map(|(_, l)| format!("{} columns: {l}", l.chars().count()))
        .collect()
}

/// Every command with two systems, as `(name, folder to run in, command line)`: the
/// format matrix's two-system cases (with their test, `--test ar`), then table, merge and
/// rerank train.
fn two_systems() -> Vec<(String, PathBuf, String)> {
    let mut out: Vec<(String, PathBuf, String)> = cases()
        .into_iter()
        .filter(|(name, _)| name.ends_with("-two"))
        .map(|(name, line)| {
            let line = line.replace(TWO, "--test ar").replace("  ", " ");
            (name.to_owned(), root(), line)
        })
        .collect();
    out.push((
        "table-two".into(),
        root(),
        "table testdata/table/manifest.tsv --baseline sysA".into(),
    ));
    // a merge of the two halves of testdata/sanity, two systems each
    let dir = scratch("merge");
    let sanity = root().join("testdata/sanity");
    for (file, short) in [
        ("ewt-gold.conllu", "gold"),
        ("ewt-sys.conllu", "sys"),
        ("ewt-sys-dobj.conllu", "sys-dobj"),
    ] {
        let text = std::fs::read_to_string(sanity.join(file)).unwrap();
        let sentences: Vec<&str> = text.trim_end().split("\n\n").collect();
        let h = sentences.len() / 2;
        for (i, part) in [&sentences[..h], &sentences[h..]].iter().enumerate() {
            let path = dir.join(format!("shard-{i}/{short}.conllu"));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, part.join("\n\n") + "\n\n").unwrap();
        }
    }
    for i in 0..2 {
        run(
            &dir,
            &format!(
                "deps -q --keep-sentences --emit-state state-{i}.json shard-{i}/gold.conllu \
                 shard-{i}/sys.conllu shard-{i}/sys-dobj.conllu"
            ),
        );
    }
    out.push((
        "merge-two".into(),
        dir,
        "merge state-0.json state-1.json".into(),
    ));
    let r = "testdata/rerank";
    let model = scratch("rerank").join("model.json");
    out.push((
        "rerank-train-two".into(),
        root(),
        format!(
            "rerank train -o {} {r}/gold.conllu {r}/nbest.conllu {r}/gold.conllu {r}/nbest.conllu",
            model.display()
        ),
    ));
    out
}

#[test]
fn every_command_fits_in_100_columns() {
    let mut failures = Vec::new();
    for (name, dir, line) in two_systems() {
        // table (for now) and rerank train refuse --ci
        let ci = if name.starts_with("rerank") || name.starts_with("table") {
            ""
        } else {
            " --ci 95"
        };
        for line in [line.clone(), format!("{line}{ci}")] {
            let out = run(&dir, &line);
            assert!(out.lines().count() > 3, "{name}: {out}");
            for l in too_wide(&out) {
                failures.push(format!("{name}: treeval {line}\n  {l}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn wide_shows_the_counts_and_the_full_tables() {
    let (g, s, s2) = (
        "examples/gold.conllu",
        "examples/sys.conllu",
        "examples/sys2.conllu",
    );
    for command in ["deps", "ud", "relations"] {
        let line = format!("{command} {g} {s} {s2}");
        let narrow = run(&root(), &line);
        let wide = run(&root(), &format!("{line} --wide"));
        // LAS 16/21 of sys.conllu: beside the fraction with --wide only
        assert!(wide.contains("16/21"), "{command} --wide:\n{wide}");
        assert!(!narrow.contains("16/21"), "{command}:\n{narrow}");
    }
    // ud: the full table (precision, recall, aligned accuracy) with --wide, F1 alone without
    let line = format!("ud {g} {s} {s2}");
    let narrow = run(&root(), &line);
    let wide = run(&root(), &format!("{line} --wide"));
    for head in ["precision", "recall", "aligned-accuracy"] {
        assert!(wide.contains(head), "{wide}");
        assert!(!narrow.contains(head), "{narrow}");
    }
    assert!(narrow.contains("metric (F1)"), "{narrow}");
    // --ci: inline by default, a table of its own with --wide
    let narrow = run(&root(), &format!("{line} --ci 95"));
    let wide = run(&root(), &format!("{line} --ci 95 --wide"));
    assert!(narrow.contains("76.19 [66.67, 100.00]"), "{narrow}");
    assert!(!narrow.contains("measure            score"), "{narrow}");
    assert!(
        wide.contains("95% bootstrap confidence intervals (1000 samples"),
        "{wide}"
    );
    assert!(
        wide.lines()
            .filter(|l| l.contains("[66.67, 100.00]"))
            .count()
            > 10
    );
}

#[test]
fn wide_is_refused_where_it_would_be_ignored() {
    let (g, s) = ("examples/gold.conllu", "examples/sys.conllu");
    for line in [
        format!("deps --wide --format json {g} {s}"),
        format!("deps --wide --compat eval07 {g} {s}"),
        format!(
            "rerank train --wide --format csv -o {} testdata/rerank/gold.conllu testdata/rerank/nbest.conllu",
            scratch("refused").join("m.json").display()
        ),
    ] {
        let o = treeval_in(&root(), &argv(&line));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{line}: {err}");
        assert!(err.contains("--wide"), "{line}: {err}");
    }
}
