//! Confidence levels and sample counts (issue 38): a level is printed as given, in the
//! legend and the signature; a level is a percentage (a number of at most 1 is refused
//! with the percentage it would be); sample counts too few to give a p-value below
//! --alpha or an interval with a sample beyond each end, and bootstraps too large to
//! keep, are refused, with the minimum (or maximum) and why. In every command that takes
//! the options: the check is the library's, one place.

mod common;
use common::commands::two_systems;
use common::{root, stderr, stdout, treeval_in};

/// Every command that takes the significance options, each with two systems, from the
/// repository root; and a merge of two deps states (built in `dir`) and a table.
fn lines(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<String>)> {
    let mut out: Vec<_> = two_systems()
        .into_iter()
        .map(|c| (root(), c.args))
        .collect();
    out.push((
        root(),
        vec!["table".into(), "testdata/table/manifest.tsv".into()],
    ));
    for f in ["gold", "sys", "sys2"] {
        let text = std::fs::read_to_string(root().join(format!("examples/{f}.conllu"))).unwrap();
        let sentences: Vec<&str> = text
            .split("\n\n")
            .filter(|s| !s.trim().is_empty())
            .collect();
        for (i, part) in [&sentences[..2], &sentences[2..]].iter().enumerate() {
            let path = dir.join(format!("{f}.{i}.conllu"));
            std::fs::write(path, part.join("\n\n") + "\n\n").unwrap();
        }
    }
    for i in 0..2 {
        let line = format!(
            "deps -q --keep-sentences --emit-state s{i}.json gold.{i}.conllu sys.{i}.conllu sys2.{i}.conllu"
        );
        let o = treeval_in(dir, &line.split_whitespace().collect::<Vec<_>>());
        assert_eq!(o.status.code(), Some(0), "{line}: {}", stderr(&o));
    }
    out.push((
        dir.to_path_buf(),
        ["merge", "s0.json", "s1.json"].map(String::from).to_vec(),
    ));
    out
}

fn run(dir: &std::path::Path, base: &[String], extra: &str) -> std::process::Output {
    let mut args: Vec<&str> = base.iter().map(String::as_str).collect();
    args.extend(extra.split_whitespace());
    args.push("-q");
    treeval_in(dir, &args)
}

fn scratch() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("treeval-levels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `--ci 99.5` is shown as 99.5 (it was rounded to "100%"), `--ci 95.55` as 95.55, in the
/// legend and in the signature, by every command.
#[test]
fn levels_are_printed_as_given() {
    let dir = scratch();
    for (at, base) in lines(&dir) {
        for (level, samples) in [("99.5", "400"), ("95.55", "1000")] {
            let o = run(&at, &base, &format!("--ci {level} --ci-samples {samples}"));
            assert_eq!(
                o.status.code(),
                Some(0),
                "{base:?} --ci {level}: {}",
                stderr(&o)
            );
            let text = stdout(&o);
            assert!(
                text.contains(&format!("{level}% ")),
                "{base:?} --ci {level}: the legend gives the level\n{text}"
            );
            assert!(!text.contains("100% "), "{base:?} --ci {level}:\n{text}");
            let sig = text
                .lines()
                .find(|l| l.starts_with("treeval "))
                .unwrap_or("");
            assert!(sig.contains(&format!("|ci:{level}|")), "{base:?}: {sig}");
        }
    }
}

/// One rule for levels: a percentage above 1 and below 100. `--ci 0.5` (it meant 50 %)
/// and `--ci 1` (it was refused while 0.5 was taken) are both refused, 0.5 with the
/// percentage it would be.
#[test]
fn a_level_is_a_percentage() {
    let dir = scratch();
    for (at, base) in lines(&dir) {
        for (level, hint) in [
            ("0.5", Some("did you mean 50?")),
            ("1", None),
            ("100", None),
        ] {
            let o = run(&at, &base, &format!("--ci {level}"));
            assert_eq!(
                o.status.code(),
                Some(2),
                "{base:?} --ci {level}: {}",
                stderr(&o)
            );
            let e = stderr(&o);
            assert!(
                e.contains("in percent, above 1 and below 100"),
                "{base:?}: {e}"
            );
            if let Some(h) = hint {
                assert!(e.contains(h), "{base:?} --ci {level}: {e}");
            }
        }
    }
}

/// Too few samples are refused with the minimum and why: `--ci-samples 1` gave an
/// interval that excluded the score (`78.07 [78.45, 78.45]`), `--test ar --samples 1`
/// p = 0.5. The minimum of an interval grows with its level (2/(1 − level)); of a test,
/// with 1/α. Too many bootstrap samples are refused with what they would cost (memory
/// grew 24 MB/s). The counts at the minimum are taken.
#[test]
fn sample_counts_must_mean_something() {
    let dir = scratch();
    for (at, base) in lines(&dir) {
        let refused = [
            (
                "--ci 95 --ci-samples 1",
                "expected at least 40 samples for 95% intervals",
            ),
            (
                "--ci 95 --ci-samples 39",
                "expected at least 40 samples for 95% intervals",
            ),
            (
                "--ci 99.9",
                "expected at least 2000 samples for 99.9% intervals, found 1000",
            ),
            (
                "--ci 99.5 --ci-samples 399",
                "at least 400 samples for 99.5% intervals",
            ),
            (
                "--test ar --samples 1",
                "expected at least 20 samples for --alpha 0.05",
            ),
            (
                "--test ar --samples 19",
                "1/(19 + 1) = 0.0500, never below --alpha",
            ),
            (
                "--test ar --alpha 0.01 --samples 99",
                "expected at least 100 samples",
            ),
            (
                "--ci 95 --ci-samples 1000000001",
                "expected at most 1000000 samples",
            ),
            ("--test bootstrap --samples 2000000", "at least 32 MB"),
            ("--ci 95 --ci-samples 1000000000", "at least 16.0 GB"),
        ];
        for (extra, why) in refused {
            let o = run(&at, &base, extra);
            assert_eq!(o.status.code(), Some(2), "{base:?} {extra}: {}", stderr(&o));
            assert!(stderr(&o).contains(why), "{base:?} {extra}: {}", stderr(&o));
        }
        for extra in ["--ci 95 --ci-samples 40", "--test ar --samples 20"] {
            let o = run(&at, &base, extra);
            assert_eq!(o.status.code(), Some(0), "{base:?} {extra}: {}", stderr(&o));
        }
    }
}
