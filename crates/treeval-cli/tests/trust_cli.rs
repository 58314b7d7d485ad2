//! Trust, across all seven commands: no command writes to one of its inputs or replaces a
//! file it did not write, `--per-sentence FILE` means the same everywhere, resampling
//! counts of 0 and output formats a command does not implement are refused, and a score
//! with nothing to score is not printed as a number.

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::{argv, assert_stderr_has, root, stderr, treeval_in};

/// A scratch directory holding copies of the example files under short names.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("treeval-trust-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let r = root();
        for (from, to) in [
            ("examples/gold.conllu", "gold.conllu"),
            ("examples/sys.conllu", "sysA.conllu"),
            ("examples/sys.conllu", "sysB.conllu"),
            ("testdata/align/gold.naacl", "g.wa"),
            ("testdata/align/hyp.pharaoh", "h1"),
            ("testdata/align/hyp.pharaoh", "h2"),
            ("testdata/brackets/careful-paper/gold.txt", "gold"),
            ("testdata/brackets/careful-paper/test.txt", "test"),
            ("examples/pts/gold.en.conllu", "ga.conllu"),
            ("examples/pts/gold.de.conllu", "gb.conllu"),
            ("examples/pts/gold.en-de.naacl", "gab.naacl"),
            ("examples/pts/parser.en.conllu", "sa.conllu"),
            ("examples/pts/parser.de.conllu", "sb.conllu"),
            ("examples/pts/aligner.en-de.pharaoh", "sab.pharaoh"),
        ] {
            std::fs::copy(r.join(from), dir.join(to)).unwrap();
        }
        Scratch(dir)
    }

    fn run(&self, args: &[&str]) -> Output {
        treeval_in(&self.0, args)
    }

    fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.0.join(name)).unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The inputs of `treeval pts`, under the scratch directory's names.
const PTS: &str = "--gold-a ga.conllu --gold-b gb.conllu --gold-align gab.naacl \
                   --sys-a sa.conllu --sys-b sb.conllu --sys-align sab.pharaoh";

/// `--per-sentence` takes a FILE, so `cmd --per-sentence GOLD SYS…` reads GOLD as the
/// output. Every command refuses (exit 2) with the command that was probably meant, and
/// the gold file is left as it was.
#[test]
fn per_sentence_never_swallows_and_destroys_the_gold_file() {
    let s = Scratch::new("swallow");
    let three = "gold.conllu sysA.conllu sysB.conllu";
    let cases = [
        ("gold.conllu", format!("deps --per-sentence {three}")),
        ("gold.conllu", format!("ud --per-sentence {three}")),
        ("gold.conllu", format!("relations --per-sentence {three}")),
        ("g.wa", "align --per-sentence g.wa h1 h2".into()),
        ("gold", "brackets --per-sentence gold test test".into()),
        (
            "gold.conllu",
            "ted --gold sysA.conllu --parse sysB.conllu --per-sentence gold.conllu".into(),
        ),
    ];
    for (victim, line) in &cases {
        let args = argv(line);
        let before = s.read(victim);
        let o = s.run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(s.read(victim), before, "{args:?} changed {victim}");
        let e = stderr(&o);
        assert!(e.contains("is not treeval's output"), "{args:?}: {e}");
        assert!(e.contains("--force"), "{args:?}: {e}");
        if args[1] == "--per-sentence" {
            let meant = format!(
                "treeval {} --per-sentence FILE {}",
                args[0],
                args[2..].join(" ")
            );
            assert!(e.contains(&meant), "{args:?} should suggest `{meant}`: {e}");
        }
    }
    // pts: a gold file as the per-sentence file
    let before = s.read("ga.conllu");
    let o = s.run(&argv(&format!("pts --per-sentence ga.conllu {PTS}")));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(s.read("ga.conllu"), before);
}

/// An output that resolves to an input (through `./`, a symbolic link or a hard link) is
/// refused before anything is opened, even with --force.
#[test]
fn no_command_writes_to_one_of_its_inputs() {
    let s = Scratch::new("inputs");
    std::os::unix::fs::symlink("gold.conllu", s.0.join("link.conllu")).unwrap();
    std::fs::hard_link(s.0.join("gold.conllu"), s.0.join("hard.conllu")).unwrap();
    let two = "gold.conllu sysA.conllu";
    let judging = "--careful --export-for-judging ./gold gold test";
    let cases = [
        (
            "sysA.conllu",
            format!("deps --per-sentence ./sysA.conllu {two}"),
        ),
        (
            "sysA.conllu",
            format!("deps --force --per-sentence ./sysA.conllu {two}"),
        ),
        (
            "gold.conllu",
            format!("deps --per-sentence link.conllu {two}"),
        ),
        (
            "gold.conllu",
            format!("deps --per-sentence hard.conllu {two}"),
        ),
        ("h1", "align --per-sentence ./h1 g.wa h1".into()),
        (
            "sysA.conllu",
            format!("ud --per-sentence sub/../sysA.conllu {two}"),
        ),
        (
            "sysA.conllu",
            format!("relations --force --per-sentence ./sysA.conllu {two}"),
        ),
        ("gold", format!("brackets {judging}")),
        ("gold", format!("brackets --force {judging}")),
        ("test", "brackets --per-sentence ./test gold test".into()),
        (
            "sysB.conllu",
            "ted --gold sysA.conllu --parse sysB.conllu --per-sentence ./sysB.conllu".into(),
        ),
        (
            "sab.pharaoh",
            format!("pts --force --per-sentence ./sab.pharaoh {PTS}"),
        ),
    ];
    // `sub/..` resolves through an existing directory
    std::fs::create_dir_all(s.0.join("sub")).unwrap();
    for (victim, line) in &cases {
        let args = argv(line);
        let before = s.read(victim);
        let o = s.run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("treeval never writes to its inputs"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(s.read(victim), before, "{args:?} changed {victim}");
    }
}

/// A file that treeval wrote may be replaced; a foreign file only with --force; two
/// outputs may not name one file; standard output is the report's.
#[test]
fn replacing_outputs() {
    let s = Scratch::new("replace");
    let ok = |line: &str| {
        let args = argv(line);
        let o = s.run(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    };
    ok("deps --per-sentence ps.jsonl gold.conllu sysA.conllu");
    ok("deps --per-sentence ps.jsonl gold.conllu sysA.conllu");
    // a file of the schema before (treeval.per-sentence/1) is treeval's too
    let v1 = "{\"command\":\"deps\",\"inputs\":[],\"schema\":\"treeval.per-sentence/1\"}\n";
    std::fs::write(s.0.join("old.jsonl"), v1).unwrap();
    ok("deps --per-sentence old.jsonl gold.conllu sysA.conllu");
    assert!(String::from_utf8_lossy(&s.read("old.jsonl"))
        .starts_with("{\"schema\":\"treeval.per-sentence/3\""));
    std::fs::write(s.0.join("notes.txt"), "my notes\n").unwrap();
    let o = s.run(&argv(
        "deps --per-sentence notes.txt gold.conllu sysA.conllu",
    ));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(s.read("notes.txt"), b"my notes\n");
    ok("deps --force --per-sentence notes.txt gold.conllu sysA.conllu");
    assert!(String::from_utf8_lossy(&s.read("notes.txt")).contains("treeval.per-sentence/3"));
    ok("brackets --careful --export-for-judging j.tsv gold test");
    ok("brackets --careful --export-for-judging j.tsv gold test");
    let o = s.run(&argv(
        "brackets --careful --export-for-judging j.tsv --per-sentence j.tsv gold test",
    ));
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_has(&o, "name the same file");
    let o = s.run(&["deps", "--per-sentence", "-", "gold.conllu", "sysA.conllu"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("standard output carries the report"));
}

/// `--per-sentence FILE` writes the same kind of file in every command: a header line
/// with the schema, then one object per unit and system whose counts add up to the
/// report's.
#[test]
fn per_sentence_file_in_every_command() {
    let s = Scratch::new("every");
    let out = "--per-sentence out.jsonl";
    let cases = [
        format!("deps {out} gold.conllu sysA.conllu"),
        format!("ud {out} gold.conllu sysA.conllu"),
        format!("relations {out} gold.conllu sysA.conllu"),
        format!("align {out} g.wa h1"),
        format!("brackets {out} gold test"),
        format!("ted --gold gold.conllu --parse sysA.conllu {out}"),
        format!("pts {out} {PTS}"),
    ];
    for line in &cases {
        let args = argv(line);
        let _ = std::fs::remove_file(s.0.join("out.jsonl"));
        let o = s.run(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let text = String::from_utf8(s.read("out.jsonl")).unwrap();
        let mut lines = text.lines();
        let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert_eq!(header["schema"], "treeval.per-sentence/3", "{args:?}");
        assert_eq!(header["command"], args[0], "{args:?}");
        let rows: Vec<serde_json::Value> =
            lines.map(|l| serde_json::from_str(l).unwrap()).collect();
        assert!(!rows.is_empty(), "{args:?}");
        for r in &rows {
            assert_eq!(r["system"], 0, "{args:?}: {r}");
        }
    }
    // deps and ud: the sentence counts add up to the report's
    let json = |cmd: &str| {
        s.run(&argv(&format!(
            "{cmd} --format json {out} gold.conllu sysA.conllu"
        )))
    };
    let o = json("deps");
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let text = String::from_utf8(s.read("out.jsonl")).unwrap();
    let las = common::per_sentence_sum(&text, "/counts/las_correct");
    assert_eq!(
        serde_json::json!(las),
        common::cell(&report, "scores", 0, "LAS")["counts"][0]
    );
    let o = json("ud");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8(s.read("out.jsonl")).unwrap();
    assert_eq!(common::per_sentence_sum(&text, "/counts/las_correct"), 16);
}

/// `--samples 0` and `--ci-samples 0` are usage errors in every command.
#[test]
fn zero_samples_are_refused() {
    let s = Scratch::new("samples");
    let commands = [
        "deps gold.conllu sysA.conllu sysB.conllu".to_string(),
        "ud gold.conllu sysA.conllu sysB.conllu".into(),
        "align g.wa h1 h2".into(),
        "brackets gold test test".into(),
        "ted --gold gold.conllu --parse sysA.conllu --parse sysB.conllu".into(),
        format!("pts {PTS}"),
    ];
    for base in &commands {
        for flag in [
            ["--test", "ar", "--samples", "0"],
            ["--ci", "95", "--ci-samples", "0"],
        ] {
            let mut args = argv(base);
            args.extend(flag);
            let o = s.run(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("at least 1"),
                "{args:?}: {}",
                stderr(&o)
            );
        }
    }
}

/// A format a command does not write is an error, not text; so is --format beside
/// --compat.
#[test]
fn unsupported_formats_are_errors() {
    let s = Scratch::new("formats");
    // every command is on the shared report model: every format
    let pts = format!("pts {PTS}");
    let relations = "relations gold.conllu sysA.conllu";
    let ted = "ted --gold gold.conllu --parse sysA.conllu";
    let brackets = "brackets gold test";
    let ud = "ud gold.conllu sysA.conllu";
    for f in ["text", "json", "csv", "tsv", "markdown", "latex"] {
        for base in [pts.as_str(), relations, ted, brackets, ud] {
            let mut args = argv(base);
            args.extend(["--format", f]);
            let o = s.run(&args);
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
            assert!(!o.stdout.is_empty(), "{args:?}");
        }
    }
    for line in [
        "deps --compat eval07 --format json gold.conllu sysA.conllu",
        "ud --compat conll18 --format json gold.conllu sysA.conllu",
        "align --compat aer.py --format csv g.wa h1",
        "brackets --compat evalb --format json gold test",
        "ted --distance ../nothing.txt --format json",
    ] {
        let args = argv(line);
        let o = s.run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

/// No sentence scored (every one over the --max-cost limit): TedEval is not applicable
/// (null in JSON, n/a in text), with a warning on stderr that is also in the report. (A
/// --max-len that keeps no sentence is an error: see select.rs.)
#[test]
fn tedeval_without_a_scored_sentence_has_no_score() {
    let s = Scratch::new("tednull");
    let ted = "ted --gold gold.conllu --parse sysA.conllu --max-cost 1";
    // one run: nothing scored is an error, with the option that lifts it
    let o = s.run(&argv(ted));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).contains("nothing is scored: all ") && stderr(&o).contains("raise --max-cost"),
        "{}",
        stderr(&o)
    );
    // a part of a corpus (--emit-state): no score, n/a, and the warning
    let ted = format!("{ted} --emit-state part.json");
    let o = s.run(&argv(&format!("{ted} --format json")));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(common::value(&j, "scores", 0, "TedEval").is_none(), "{j}");
    assert!(
        common::value(&j, "scores", 0, "TedEval-mean").is_none(),
        "{j}"
    );
    assert!(
        j["warnings"].to_string().contains("no sentence was scored"),
        "{j}"
    );
    assert!(stderr(&o).contains("no sentence was scored"));
    let o = s.run(&argv(&format!("{ted} --micro --force")));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("n/a"), "{text}");
    assert!(!text.contains("100.00"), "{text}");
}

/// `--confusion` before the gold path does not swallow it; `--confusion=N` sets N.
#[test]
fn confusion_does_not_swallow_the_gold_path() {
    let s = Scratch::new("confusion");
    let o = s.run(&["deps", "--confusion", "gold.conllu", "sysA.conllu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("label confusions"));
    let o = s.run(&["deps", "--confusion=2", "gold.conllu", "sysA.conllu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("(other)"));
}

/// `--quiet` exists in every command and keeps reader warnings (here: CR LF line ends)
/// off stderr.
#[test]
fn quiet_in_every_command() {
    let s = Scratch::new("quiet");
    let crlf = String::from_utf8(s.read("gold.conllu"))
        .unwrap()
        .replace('\n', "\r\n");
    std::fs::write(s.0.join("crlf.conllu"), crlf).unwrap();
    let mut pts: Vec<&str> = vec!["pts", "-q", "--gold-a", "crlf.conllu"];
    pts.extend(&argv(PTS)[2..]);
    for line in [
        "deps -q crlf.conllu sysA.conllu",
        "ud -q crlf.conllu sysA.conllu",
        "relations -q crlf.conllu sysA.conllu",
        "ted -q --gold crlf.conllu --parse sysA.conllu",
        "brackets -q gold test",
        "align -q g.wa h1",
    ] {
        let args = argv(line);
        let o = s.run(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args:?}");
    }
    // pts: the side-a gold differs from the example's, so only the option is checked
    let o = s.run(&pts);
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// An option the chosen mode does not honour is a usage error (exit 2) that says why, in
/// every command: the significance options beside `--compat` (which prints the
/// reference tool's bytes), each significance option without the test or interval it
/// acts on, and `--html-sentences` on a page without a sentence browser.
#[test]
fn options_the_mode_ignores_are_usage_errors() {
    let s = Scratch::new("ignored");
    let compat = [
        "deps --compat evalpl gold.conllu sysA.conllu sysB.conllu",
        "deps --compat eval07 gold.conllu sysA.conllu",
        "ud --compat conll18 gold.conllu sysA.conllu",
        "align --compat aer.py g.wa h1",
        "brackets --compat evalb gold test",
    ];
    for line in compat {
        for extra in [
            "--test ar --ci 95",
            "--ci 95",
            "--seed 12345",
            "--alpha 0.05",
        ] {
            let args = argv(&format!("{line} {extra}"))
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = s.run(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert_stderr_has(
                &o,
                "not apply with --compat, which prints exactly what the reference tool prints",
            );
            assert!(o.stdout.is_empty(), "{args:?}");
        }
    }
    let alone = [
        ("--samples 200", "--samples sets the shuffles of --test ar"),
        (
            "--test bootstrap --one-sided",
            "--one-sided is Bikel's one-sided variant of --test ar",
        ),
        (
            "--ci-samples 50",
            "--ci-samples sets the bootstrap samples of --ci",
        ),
        (
            "--alpha 0.01",
            "--alpha is the significance level of --test",
        ),
        ("--seed 7", "--seed seeds the resampling"),
        (
            "--test-metrics UAS",
            "--test-metrics names the measures --test and --ci are run on",
        ),
    ];
    for (extra, why) in alone {
        let line = format!("deps gold.conllu sysA.conllu sysB.conllu {extra}");
        let o = s.run(&argv(&line));
        assert_eq!(o.status.code(), Some(2), "{line}: {}", stderr(&o));
        assert_stderr_has(&o, why);
    }
    // honoured: the same options with what they act on
    for extra in [
        "--test ar --samples 200 --seed 7 --alpha 0.01 --one-sided",
        "--ci 95 --ci-samples 50 --seed 7",
        "--test mcnemar --test-metrics UAS",
        // McNemar's differences get bootstrap intervals: their samples and seed
        "--test mcnemar --seed 7 --ci-samples 50",
    ] {
        let line = format!("deps -q gold.conllu sysA.conllu sysB.conllu {extra}");
        let o = s.run(&argv(&line));
        assert_eq!(o.status.code(), Some(0), "{line}: {}", stderr(&o));
    }
    // ted tests two parses by default (ar): --samples is honoured there, not with --no-test
    let ted = "ted -q --gold gold.conllu --parse sysA.conllu --parse sysB.conllu --samples 50";
    assert_eq!(s.run(&argv(ted)).status.code(), Some(0));
    let o = s.run(&argv(&format!("{ted} --no-test")));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // --html-sentences sizes a sentence browser: refused where the page has none
    let mut pts: Vec<&str> = vec!["pts", "--format", "html", "--html-sentences", "10"];
    pts.extend(argv(PTS));
    for args in [
        argv("ted --format html --html-sentences 10 --gold gold.conllu --parse sysA.conllu"),
        argv("relations --format html --html-sentences 10 gold.conllu sysA.conllu"),
        pts,
    ] {
        let o = s.run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_stderr_has(
            &o,
            "--html-sentences sizes the HTML page's sentence browser",
        );
    }
    let o = s.run(&argv(
        "deps -q --format html --html-sentences 10 gold.conllu sysA.conllu",
    ));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
