//! Systems are named the same way in every command (issue 30, point 1): `--name`, one per
//! system, in every format, state and merge; without it, the shortest ends of the paths
//! that tell the systems apart, the inputs keeping their full paths.

mod common;

use common::commands::two_systems;
use common::{stderr, stdout, treeval, treeval_in};

const FORMATS: [&str; 7] = ["text", "json", "csv", "tsv", "markdown", "latex", "html"];

fn json(args: &[String]) -> serde_json::Value {
    let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
    a.extend(["--format", "json"]);
    let o = treeval(&a);
    assert!(o.status.success(), "{a:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn names(v: &serde_json::Value) -> Vec<String> {
    (v["systems"].as_array().unwrap().iter())
        .map(|s| s["name"].as_str().unwrap().to_owned())
        .collect()
}

/// The names a report shows for systems named `a` and `b`.
fn shown(command: &str, a: &str, b: &str) -> Vec<String> {
    if command == "nbest" {
        // each list's picks, then each list
        let picks = [a, b]
            .into_iter()
            .flat_map(|n| ["first", "best", "worst", "chosen"].map(|p| format!("{n} {p}")));
        picks.chain([a.into(), b.into()]).collect()
    } else {
        vec![a.into(), b.into()]
    }
}

#[test]
fn given_names_are_shown_in_every_command_and_format() {
    for c in two_systems() {
        let mut args = c.args.clone();
        args.extend(["--name", "Alpha", "--name", "Beta-2"].map(String::from));
        assert_eq!(
            names(&json(&args)),
            shown(c.command, "Alpha", "Beta-2"),
            "{}",
            c.command
        );
        for format in FORMATS {
            let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
            a.extend(["--format", format]);
            let o = treeval(&a);
            assert!(o.status.success(), "{} {format}: {}", c.command, stderr(&o));
            let out = stdout(&o);
            for n in ["Alpha", "Beta-2"] {
                assert!(
                    out.contains(n),
                    "{} --format {format} does not show {n}",
                    c.command
                );
            }
        }
    }
}

#[test]
fn a_name_per_system_or_a_usage_error() {
    for c in two_systems() {
        for extra in [
            &["--name", "A"][..],
            &["--name", "A", "--name", "B", "--name", "C"],
        ] {
            let mut a: Vec<&str> = c.args.iter().map(String::as_str).collect();
            a.extend(extra);
            let o = treeval(&a);
            assert_eq!(
                o.status.code(),
                Some(2),
                "{} {extra:?}: {}",
                c.command,
                stderr(&o)
            );
            let e = stderr(&o);
            assert!(
                e.contains(&format!("--name: expected one name per {}", c.unit)),
                "{}: {e}",
                c.command
            );
        }
        let mut a: Vec<&str> = c.args.iter().map(String::as_str).collect();
        a.extend(["--name", "A", "--name", "A"]);
        let o = treeval(&a);
        assert_eq!(o.status.code(), Some(2), "{}", c.command);
        assert!(
            stderr(&o).contains("'A' names"),
            "{}: {}",
            c.command,
            stderr(&o)
        );
    }
}

/// Without names: the shortest distinguishing ends of the paths, in folders as runs are
/// kept (`runs/parser-a/epoch-20/pred.conllu`); the inputs keep the paths as given.
#[test]
fn default_names_are_the_shortest_distinguishing_ends_of_the_paths() {
    let root = common::root();
    let dir = common::corpus::scratch("names");
    let cases = [
        (
            "deps",
            "examples/gold.conllu",
            ["examples/sys.conllu", "examples/sys2.conllu"],
            "conllu",
        ),
        (
            "ud",
            "examples/gold.conllu",
            ["examples/sys.conllu", "examples/sys2.conllu"],
            "conllu",
        ),
        (
            "brackets",
            "testdata/brackets/careful-paper/gold.txt",
            [
                "testdata/brackets/careful-paper/test.txt",
                "testdata/brackets/careful-paper/test2.txt",
            ],
            "mrg",
        ),
        (
            "align",
            "testdata/align/gold.naacl",
            ["testdata/align/hyp.pharaoh", "testdata/align/hyp2.pharaoh"],
            "pharaoh",
        ),
    ];
    for (command, gold, systems, ext) in cases {
        let mut paths = Vec::new();
        for (s, parser) in systems.iter().zip(["parser-a", "parser-b"]) {
            let rel = format!("runs of {command}/{parser}/epoch-20/pred.{ext}");
            let p = dir.as_path().join(&rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::copy(root.join(s), &p).unwrap();
            paths.push(rel);
        }
        let g = root.join(gold).to_string_lossy().into_owned();
        let o = treeval_in(
            dir.as_path(),
            &[command, &g, &paths[0], &paths[1], "--format", "json"],
        );
        assert!(o.status.success(), "{command}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(
            names(&v),
            ["parser-a/…/pred", "parser-b/…/pred"],
            "{command}"
        );
        let inputs: Vec<&str> = (v["inputs"].as_array().unwrap().iter())
            .filter(|i| i["system"].is_number())
            .map(|i| i["path"].as_str().unwrap())
            .collect();
        assert_eq!(inputs, paths, "{command}: the inputs keep their paths");
    }
}

/// States keep the names; a merge shows them; shards whose given names differ at a
/// position are refused (their systems would be summed with another's).
#[test]
fn states_keep_names_and_merges_check_them() {
    let dir = common::corpus::scratch("names");
    let state = |file: &str, shard: [&str; 3], names: [&str; 2]| {
        let p = dir.as_path().join(file).to_string_lossy().into_owned();
        let o = treeval(&[
            "deps",
            "-q",
            shard[0],
            shard[1],
            shard[2],
            "--name",
            names[0],
            "--name",
            names[1],
            "--emit-state",
            &p,
            "--keep-sentences",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        p
    };
    let one = [
        "examples/gold.conllu",
        "examples/sys.conllu",
        "examples/sys2.conllu",
    ];
    let two = [
        "testdata/table/news-gold.conllu",
        "testdata/table/news-a.conllu",
        "testdata/table/news-b.conllu",
    ];
    let s1 = state("s1.json", one, ["A", "B"]);
    let s2 = state("s2.json", two, ["A", "B"]);
    let s3 = state("s3.json", two, ["A", "C"]);
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&s1).unwrap()).unwrap();
    assert_eq!(saved["names"], serde_json::json!(["A", "B"]));
    assert_eq!(saved["named"], serde_json::json!(true));
    let v = json(&["merge".into(), s1.clone(), s2.clone()]);
    assert_eq!(names(&v), ["A", "B"]);
    let v = json(&[
        "merge".into(),
        s1.clone(),
        s2,
        "--name".into(),
        "X".into(),
        "--name".into(),
        "Y".into(),
    ]);
    assert_eq!(names(&v), ["X", "Y"]);
    let o = treeval(&["merge", &s1, &s3]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("system 2 is named 'C', and in") && stderr(&o).contains("it is 'B'"),
        "{}",
        stderr(&o)
    );
}

/// `table` names its systems by its manifest's system column: `--name` is refused there.
#[test]
fn table_names_systems_by_its_manifest() {
    let o = treeval(&["table", "testdata/table/manifest.tsv", "--name", "A"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("its manifest's system column names the systems"));
    let v = json(&["table".into(), "testdata/table/manifest.tsv".into()]);
    assert_eq!(names(&v), ["sysA", "sysB"]);
}
