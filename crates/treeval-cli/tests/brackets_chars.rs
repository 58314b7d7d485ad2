//! `treeval brackets --align chars`: the hand-checked fixture of testdata/brackets/chars
//! through the command line (counts, windows, signature), the default mode's counts on
//! the same words, trees that pair by characters, every feature (breakdowns, errors,
//! intervals and tests, HTML, states and merge) and what is refused.

mod common;
use common::corpus::scratch;
use common::{assert_bracket_breakdowns_sum, cell, counts, stderr, stdout_ok, treeval, treeval_in};

const GOLD: &str = "testdata/brackets/chars/gold.txt";
const SYSTEM: &str = "testdata/brackets/chars/system.txt";

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout_ok(args)).unwrap()
}

/// The counts of every cell of the `all` and `len<=` sections, by measure.
fn all_counts(v: &serde_json::Value) -> Vec<(String, Vec<u64>)> {
    let mut out = Vec::new();
    for s in v["sections"].as_array().unwrap() {
        if s["id"].as_str().is_some_and(|id| id.starts_with("by:")) {
            continue;
        }
        for r in s["rows"].as_array().unwrap() {
            for c in r["cells"].as_array().unwrap() {
                let name = format!("{} {} {}", s["id"], r["system"], c["measure"]);
                out.push((name, counts(c)));
            }
        }
    }
    out
}

/// The fixture's counts as computed by hand (crates/treeval-metrics/src/brackets/chars/
/// tests.rs): 13 of 18 gold and 19 system brackets match, 15 of 15 compared tags, one
/// window (gold `the` dropped by the system, sentence 4, system line 3).
#[test]
fn the_fixture_scores_as_computed_by_hand() {
    let v = json(&[
        "brackets", "-q", GOLD, SYSTEM, "--align", "chars", "--format", "json",
    ]);
    assert_eq!(counts(cell(&v, "all", 0, "recall")), [13, 18]);
    assert_eq!(counts(cell(&v, "all", 0, "precision")), [13, 19]);
    // correct tags, words, words without a POS tag (none: --align chars leaves 0)
    assert_eq!(counts(cell(&v, "all", 0, "tagging")), [15, 15, 0]);
    assert_eq!(counts(cell(&v, "all", 0, "crossing"))[0], 1);
    let sig = v["signature"].as_str().unwrap();
    assert!(sig.contains("|align:chars+ptb-escapes"), "{sig}");
    let l = &v["listings"][0];
    assert_eq!(l["id"], "mismatch-windows");
    let row: Vec<&str> = (l["rows"][0].as_array().unwrap().iter())
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(row, ["4", "4", "3", "the", "∅", "1", "0", "dropped"]);
    let note = v["notes"][0].as_str().unwrap();
    assert!(
        note.contains("1 gold sentence(s) over several system trees"),
        "{note}"
    );
    assert!(
        note.contains("6 gold word(s) without a system word"),
        "{note}"
    );
    // the same files without --align chars: every sentence is an error
    let o = treeval(&["brackets", "-q", GOLD, SYSTEM]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

/// On the same words every count of `--align chars` is the default mode's, and the
/// signature alone tells them apart.
#[test]
fn same_words_give_the_default_counts() {
    for (g, t) in [
        (
            "testdata/brackets/words-300/gold.txt",
            "testdata/brackets/words-300/test.txt",
        ),
        (GOLD, GOLD),
    ] {
        let base = [
            "brackets",
            "-q",
            g,
            t,
            "--format",
            "json",
            "--by",
            "label,length",
        ];
        let words = json(&base);
        let chars = json(&[&base[..], &["--align", "chars"]].concat());
        assert_eq!(all_counts(&words), all_counts(&chars), "{g} {t}");
        assert_eq!(words["sections"], chars["sections"], "{g} {t}: breakdowns");
        assert!(chars["listings"].as_array().is_none_or(Vec::is_empty));
        assert_bracket_breakdowns_sum(&chars);
    }
}

/// A system with fewer trees than gold is a pairing error by words, scored by chars.
#[test]
fn trees_pair_by_characters_not_by_number() {
    let dir = scratch("chars-pairing");
    let sys = std::fs::read_to_string(common::root().join(SYSTEM)).unwrap();
    // the last system tree (and danced) left out: 4 system trees for 5 gold ones
    let short: Vec<&str> = sys.lines().take(4).collect();
    std::fs::write(dir.as_path().join("s.txt"), short.join("\n") + "\n").unwrap();
    std::fs::copy(common::root().join(GOLD), dir.as_path().join("g.txt")).unwrap();
    let o = treeval_in(dir.as_path(), &["brackets", "-q", "g.txt", "s.txt"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("expected 5 trees"), "{}", stderr(&o));
    let o = treeval_in(
        dir.as_path(),
        &[
            "brackets", "-q", "g.txt", "s.txt", "--align", "chars", "--format", "json",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // sentence 5 lost `and danced`: its S and VP end in the window, the system's S and
    // VP (She sang) stand; matched as before but for the second tree of sentence 5
    assert_eq!(counts(cell(&v, "all", 0, "recall")), [13, 18]);
    assert_eq!(counts(cell(&v, "all", 0, "precision")), [13, 17]);
    let windows = &v["listings"][0]["rows"];
    assert_eq!(windows.as_array().unwrap().len(), 2, "{windows}");
    assert_eq!(windows[1][3], "anddanced");
}

#[test]
fn compat_and_careful_are_refused_with_chars() {
    for extra in [&["--compat", "evalb"][..], &["--careful"][..]] {
        let args = [
            &["brackets", "-q", GOLD, SYSTEM, "--align", "chars"][..],
            extra,
        ]
        .concat();
        let o = treeval(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(stderr(&o).contains("--align chars"), "{}", stderr(&o));
    }
}

/// Errors, intervals and tests (the unit resampled is the gold sentence), and the HTML
/// page all work over characters.
#[test]
fn every_feature_works_over_characters() {
    let base = ["brackets", "-q", GOLD, SYSTEM, GOLD, "--align", "chars"];
    let text = stdout_ok(&[&base[..], &["--errors", "--ci", "95", "--test", "ar"]].concat());
    assert!(
        text.contains("errors of system: 11 (5 missed gold bracket, 6 extra system bracket)"),
        "{text}"
    );
    assert!(text.contains("mismatch-windows of system: 1"), "{text}");
    assert!(text.contains("95% bootstrap interval"), "{text}");
    let html = stdout_ok(&[&base[..], &["--format", "html"]].concat());
    assert!(html.contains("mismatch window"));
    assert!(html.contains("align:chars+ptb-escapes"));
    // one record per gold sentence and system file
    let dir = scratch("chars-records");
    let path = dir.join("records.jsonl");
    let records = ["--per-sentence", path.to_str().unwrap()];
    stdout_ok(&[&base[..], &records[..]].concat());
    let text = std::fs::read_to_string(&path).unwrap();
    let n = text.lines().filter(|l| l.contains("\"status\"")).count();
    assert_eq!(n, 10, "{text}");
}

/// A state records align chars; merged shards give the whole run's counts; a state of
/// the default mode does not merge with it.
#[test]
fn states_record_the_mode_and_merge_refuses_mixing() {
    let dir = scratch("chars-states");
    let root = common::root();
    let (g, s) = (
        std::fs::read_to_string(root.join(GOLD)).unwrap(),
        std::fs::read_to_string(root.join(SYSTEM)).unwrap(),
    );
    let (g, s): (Vec<&str>, Vec<&str>) = (g.lines().collect(), s.lines().collect());
    // shard 1: gold 1-2 and system 1-2; shard 2: gold 3-5 and system 3-5
    for (k, (gl, sl)) in [(&g[..2], &s[..2]), (&g[2..], &s[2..])]
        .into_iter()
        .enumerate()
    {
        std::fs::write(dir.as_path().join(format!("g{k}")), gl.join("\n") + "\n").unwrap();
        std::fs::write(dir.as_path().join(format!("s{k}")), sl.join("\n") + "\n").unwrap();
        let state = format!("st{k}.json");
        let args = [
            "brackets",
            "-q",
            &format!("g{k}"),
            &format!("s{k}"),
            "--align",
            "chars",
            "--emit-state",
            &state,
        ];
        let o = treeval_in(dir.as_path(), &args);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(dir.as_path().join(&state)).unwrap();
        assert!(text.contains("\"align\":\"chars\""), "{text}");
    }
    let o = treeval_in(
        dir.as_path(),
        &["merge", "st0.json", "st1.json", "--format", "json"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(counts(cell(&v, "all", 0, "recall")), [13, 18]);
    assert!(v["signature"].as_str().unwrap().contains("align:chars"));
    let o = treeval_in(
        dir.as_path(),
        &["brackets", "-q", "g0", "s0", "--emit-state", "w.json"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = treeval_in(dir.as_path(), &["merge", "st0.json", "w.json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("option align"), "{}", stderr(&o));
}
