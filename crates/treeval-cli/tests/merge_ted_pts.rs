//! Sharded evaluation of `ted` and `pts`: `--emit-state` on every shard, then `treeval
//! merge`, must give the report of one run on the concatenated files (a property over
//! random corpora and random splits: tables, notes, warnings, p-values and intervals),
//! and the states that cannot merge must be refused.

mod common;

use std::path::Path;

use common::corpus::{
    conllu, fails, normalised, run, run_json, scratch, selection, sentence, words, Select, Triple,
};
use proptest::prelude::*;

/// `ted` cases: how the experiments are given (`parse`: --gold g --parse a --parse b;
/// `exp`: two schemes, gold g with parse a and gold b with parse a), the options of the
/// evaluation and those of the merge.
const TED: &[(&str, &str, &str)] = &[
    ("parse", "", ""),
    (
        "parse",
        "--test ar --test bootstrap --ci 95 --samples 200 --seed 5 --micro",
        "--test ar --test bootstrap --ci 95 --samples 200 --seed 5",
    ),
    ("parse", "--unlabeled --no-test", ""),
    (
        "exp",
        "--ci 95 --samples 100 --seed 2",
        "--ci 95 --samples 100 --seed 2",
    ),
];

/// The `ted` input options of case `mode` over the files with `suffix` (`g.0.conllu`).
fn ted_inputs(mode: &str, suffix: &str) -> Vec<String> {
    let f = |n: &str| format!("{n}{suffix}.conllu");
    match mode {
        // the systems named alike in the shards and the whole run (their files differ)
        "parse" => words(&format!(
            "--gold {} --parse {} --parse {} --name a --name b",
            f("g"),
            f("a"),
            f("b")
        )),
        _ => words(&format!(
            "--exp one:{}:{} --exp two:{}:{}",
            f("g"),
            f("a"),
            f("b"),
            f("a")
        )),
    }
}

fn write(dir: &Path, name: &str, text: String) -> String {
    std::fs::write(dir.join(name), text).unwrap();
    name.to_owned()
}

/// The single run's and the merge's outputs: both reports, or (nothing scored in the whole
/// corpus: a selection that keeps nothing, every sentence over --max-cost) both failures
/// with the same reason; `None` then.
fn both(
    single: Result<String, String>,
    merged: Result<String, String>,
    what: &str,
) -> Option<(String, String)> {
    match single {
        Ok(single) => Some((merged.unwrap_or_else(|e| panic!("{what}: {e}")), single)),
        Err(e) => {
            let m = merged.expect_err("the merge of shards that keep nothing is an error");
            let reason = common::corpus::nothing_reason;
            assert_eq!(reason(&m), reason(&e), "{what}");
            None
        }
    }
}

/// The merged and the single run's reports, normalised (`roles`: each file's base name;
/// the merged names are the shards' `base.i.ext` joined by ` + `), compared key by key.
fn compare(merged: &str, single: &str, roles: &[(&str, &str)], shards: usize, what: &str) {
    let joined = |base: &str, ext: &str| {
        (0..shards)
            .map(|i| format!("{base}.{i}.{ext}"))
            .collect::<Vec<_>>()
            .join(" + ")
    };
    let merged_names: Vec<(String, &str)> = roles
        .iter()
        .map(|(f, role)| {
            let (base, ext) = f.split_once('.').unwrap();
            (joined(base, ext), *role)
        })
        .collect();
    let single_names: Vec<(String, &str)> = roles
        .iter()
        .map(|(f, role)| ((*f).to_owned(), *role))
        .collect();
    let (m, s) = (
        normalised(merged, &merged_names),
        normalised(single, &single_names),
    );
    for (key, value) in s.as_object().unwrap() {
        assert_eq!(&m[key], value, "{what}: `{key}` differs");
    }
    assert_eq!(m.as_object().unwrap().len(), s.as_object().unwrap().len());
}

/// The shard bounds of `n` units cut at `cuts`.
fn bounds(n: usize, cuts: &[usize]) -> Vec<usize> {
    let mut b = vec![0];
    b.extend_from_slice(cuts);
    b.push(n);
    b
}

fn check_ted(corpus: &[Triple], cuts: &[usize], case: usize, select: Option<&Select>) {
    let dir = scratch(&format!("ted{case}-{}", cuts.len()));
    let (mode, eval, show) = TED[case];
    let eval = format!("{eval}{}", select.map_or(String::new(), |s| s.args(&dir)));
    let eval = eval.as_str();
    for (k, n) in ["g", "a", "b"].iter().enumerate() {
        write(&dir, &format!("{n}.conllu"), conllu(corpus, k, 0));
    }
    let mut args = words("ted -q --format json");
    args.extend(ted_inputs(mode, ""));
    args.extend(words(eval));
    let single = run(&dir, &args);
    let b = bounds(corpus.len(), cuts);
    let mut merge = words("merge -q --format json");
    for (i, w) in b.windows(2).enumerate() {
        for (k, n) in ["g", "a", "b"].iter().enumerate() {
            write(
                &dir,
                &format!("{n}.{i}.conllu"),
                conllu(&corpus[w[0]..w[1]], k, w[0]),
            );
        }
        let mut args = words(&format!("ted -q --emit-state state.{i}.json"));
        args.extend(ted_inputs(mode, &format!(".{i}")));
        args.extend(words(eval));
        run_json(&dir, &args);
        merge.push(format!("state.{i}.json"));
    }
    merge.extend(words(show));
    let what = format!("ted case {case}, cuts {cuts:?}, selection {select:?}");
    let Some((merged, single)) = both(single, run(&dir, &merge), &what) else {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    };
    let roles = [
        ("g.conllu", "GOLD"),
        ("a.conllu", "SYS-A"),
        ("b.conllu", "SYS-B"),
    ];
    compare(&merged, &single, &roles, b.len() - 1, &what);
    let _ = std::fs::remove_dir_all(&dir);
}

/// One sentence pair of a parallel treebank: side a's and side b's (gold, system 1,
/// system 2), the gold links (a word, b word, sure) and each system's links.
#[derive(Debug, Clone)]
struct Pair {
    a: Triple,
    b: Triple,
    gold: Vec<(usize, usize, bool)>,
    systems: [Vec<(usize, usize)>; 2],
}

fn words_of(t: &Triple) -> usize {
    t.0[0].lines().count()
}

fn pair() -> impl Strategy<Value = Pair> {
    (sentence(), sentence()).prop_flat_map(|(a, b)| {
        let (na, nb) = (words_of(&a), words_of(&b));
        let link = (0..na, 0..nb);
        let gold = proptest::collection::vec((0..na, 0..nb, proptest::bool::ANY), 1..5);
        // a link in every sentence: a shard's file without any could not be told from
        // another format (a warning of that shard's file, which one run does not give)
        let sys = [
            proptest::collection::vec(link.clone(), 1..5),
            proptest::collection::vec(link, 1..5),
        ];
        (Just(a), Just(b), gold, sys).prop_map(|(a, b, gold, systems)| Pair {
            a,
            b,
            gold,
            systems,
        })
    })
}

/// The files of a parallel corpus (`suffix`: `.0` for a shard): both sides' gold and
/// system parses, the gold alignment (NAACL, sentences numbered from 1) and the systems'
/// (Pharaoh); `first`: the corpus-wide number of the first pair (for the ids, `sN`).
fn write_pts(dir: &Path, pairs: &[Pair], suffix: &str, first: usize) {
    let sides = [("en", 0usize), ("de", 1)];
    for (lang, side) in sides {
        let triples: Vec<Triple> = pairs
            .iter()
            .map(|p| if side == 0 { p.a.clone() } else { p.b.clone() })
            .collect();
        for (k, n) in ["gold", "p1", "p2"].iter().enumerate() {
            write(
                dir,
                &format!("{n}{suffix}.{lang}"),
                conllu(&triples, k, first),
            );
        }
    }
    let mut naacl = String::new();
    for (s, p) in pairs.iter().enumerate() {
        for &(i, j, sure) in &p.gold {
            let tag = if sure { "S" } else { "P" };
            naacl.push_str(&format!("{} {} {} {tag}\n", s + 1, i + 1, j + 1));
        }
    }
    write(dir, &format!("gold{suffix}.naacl"), naacl);
    for k in 0..2 {
        let lines: String = pairs
            .iter()
            .map(|p| {
                let links: Vec<String> = p.systems[k]
                    .iter()
                    .map(|(i, j)| format!("{i}-{j}"))
                    .collect();
                links.join(" ") + "\n"
            })
            .collect();
        write(dir, &format!("p{}{suffix}.pharaoh", k + 1), lines);
    }
}

fn pts_inputs(suffix: &str) -> Vec<String> {
    let mut line = format!(
        "--gold-a gold{suffix}.en --gold-b gold{suffix}.de --gold-align gold{suffix}.naacl"
    );
    for k in 1..=2 {
        line.push_str(&format!(
            " --sys-a p{k}{suffix}.en --sys-b p{k}{suffix}.de --sys-align p{k}{suffix}.pharaoh"
        ));
    }
    words(&line)
}

/// `pts` cases: the options of the evaluation and those of the merge.
const PTS: &[(&str, &str)] = &[
    ("", ""),
    (
        "--test ar --test mcnemar --ci 95 --samples 200 --seed 3 --weights 1 2 0.5",
        "--test ar --test mcnemar --ci 95 --samples 200 --seed 3",
    ),
    ("--punct include --weights 0 0 1", ""),
];

fn check_pts(corpus: &[Pair], cuts: &[usize], case: usize, select: Option<&Select>) {
    let dir = scratch(&format!("pts{case}-{}", cuts.len()));
    let (eval, show) = PTS[case];
    let eval = format!("{eval}{}", select.map_or(String::new(), |s| s.args(&dir)));
    let eval = eval.as_str();
    write_pts(&dir, corpus, "", 0);
    // the systems named alike in the shards and the whole run (their files' names differ)
    let names = "--name p1 --name p2";
    let mut args = words("pts -q --format json");
    args.extend(pts_inputs(""));
    args.extend(words(eval));
    args.extend(words(names));
    let single = run(&dir, &args);
    let b = bounds(corpus.len(), cuts);
    let mut merge = words("merge -q --format json");
    for (i, w) in b.windows(2).enumerate() {
        let suffix = format!(".{i}");
        write_pts(&dir, &corpus[w[0]..w[1]], &suffix, w[0]);
        let mut args = words(&format!("pts -q --emit-state state.{i}.json"));
        args.extend(pts_inputs(&suffix));
        args.extend(words(eval));
        args.extend(words(names));
        run_json(&dir, &args);
        merge.push(format!("state.{i}.json"));
    }
    merge.extend(words(show));
    let what = format!("pts case {case}, cuts {cuts:?}, selection {select:?}");
    let Some((merged, single)) = both(single, run(&dir, &merge), &what) else {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    };
    let roles: Vec<(String, String)> = ["gold", "p1", "p2"]
        .iter()
        .flat_map(|n| ["en", "de"].map(|l| (format!("{n}.{l}"), format!("{n}-{l}").to_uppercase())))
        .chain([("gold.naacl".to_owned(), "GOLD-ALIGN".to_owned())])
        .chain((1..=2).map(|k| (format!("p{k}.pharaoh"), format!("P{k}-ALIGN"))))
        .collect();
    let roles: Vec<(&str, &str)> = roles
        .iter()
        .map(|(f, r)| (f.as_str(), r.as_str()))
        .collect();
    compare(&merged, &single, &roles, b.len() - 1, &what);
    let _ = std::fs::remove_dir_all(&dir);
}

/// 0–4 cut points inside `n` units (1–5 shards, none empty).
fn cuts(n: usize) -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::btree_set(1..n.max(2), 0..5.min(n))
        .prop_map(move |c| c.into_iter().filter(|&x| x < n).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn merged_ted_shards_equal_one_run(
        (corpus, cuts) in proptest::collection::vec(sentence(), 1..12)
            .prop_flat_map(|c| { let n = c.len(); (Just(c), cuts(n)) }),
        case in 0..TED.len(),
    ) {
        check_ted(&corpus, &cuts, case, None);
    }

    #[test]
    fn merged_ted_shards_of_a_sentence_selection_equal_one_run(
        (corpus, cuts) in proptest::collection::vec(sentence(), 1..12)
            .prop_flat_map(|c| { let n = c.len(); (Just(c), cuts(n)) }),
        case in 0..TED.len(),
        select in selection(),
    ) {
        check_ted(&corpus, &cuts, case, Some(&select));
    }

    #[test]
    fn merged_pts_shards_equal_one_run(
        (corpus, cuts) in proptest::collection::vec(pair(), 1..10)
            .prop_flat_map(|c| { let n = c.len(); (Just(c), cuts(n)) }),
        case in 0..PTS.len(),
    ) {
        check_pts(&corpus, &cuts, case, None);
    }

    #[test]
    fn merged_pts_shards_of_a_sentence_selection_equal_one_run(
        (corpus, cuts) in proptest::collection::vec(pair(), 1..10)
            .prop_flat_map(|c| { let n = c.len(); (Just(c), cuts(n)) }),
        // not case 1: pts refuses --test mcnemar under a selection
        case in proptest::sample::select(vec![0usize, 2]),
        select in selection(),
    ) {
        check_pts(&corpus, &cuts, case, Some(&select));
    }
}

/// A folder with two shards of examples/ (gold, sys, sys2), and `ted` and `pts` states.
fn shards(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let ex = common::root().join("examples");
    for f in ["gold", "sys", "sys2"] {
        let text = std::fs::read_to_string(ex.join(format!("{f}.conllu"))).unwrap();
        let s: Vec<&str> = text.trim_end().split("\n\n").collect();
        write(&dir, &format!("{f}.0.conllu"), s[..1].join("\n\n") + "\n\n");
        write(&dir, &format!("{f}.1.conllu"), s[1..].join("\n\n") + "\n\n");
    }
    for i in 0..2 {
        let line =
            format!("ted -q --gold gold.{i}.conllu --parse sys.{i}.conllu --parse sys2.{i}.conllu --emit-state ted.{i}.json");
        assert_eq!(fails(&dir, &line).0, 0, "{line}");
    }
    let pts = common::pts_inputs(&format!("{}/", ex.join("pts").display()));
    let line = format!("pts -q {pts} --emit-state pts.json");
    assert_eq!(fails(&dir, &line), (0, String::new()), "{line}");
    // two systems (the same files twice), with their rows
    let p = |f: &str| ex.join("pts").join(f).display().to_string();
    let sys = format!(
        "--sys-a {} --sys-b {} --sys-align {}",
        p("parser.en.conllu"),
        p("parser.de.conllu"),
        p("aligner.en-de.pharaoh")
    );
    let line = format!("pts -q {pts} {sys} --keep-sentences --emit-state pts2.json");
    assert_eq!(fails(&dir, &line), (0, String::new()), "{line}");
    dir
}

#[test]
fn states_of_other_options_or_commands_do_not_merge() {
    let dir = shards("ted-errors");
    let line = "ted -q --gold gold.1.conllu --parse sys.1.conllu --parse sys2.1.conllu --unlabeled --emit-state other.json";
    assert_eq!(fails(&dir, line).0, 0);
    let (code, err) = fails(&dir, "merge ted.0.json other.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("other.json: option unlabeled is true, and in ted.0.json it is false"),
        "{err}"
    );
    let (code, err) = fails(&dir, "merge ted.0.json pts.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("pts.json: a state of `pts`, and ted.0.json holds a state of `ted`"),
        "{err}"
    );
    // one experiment against two: by position, so not at all
    let line = "ted -q --gold gold.1.conllu --parse sys.1.conllu --emit-state one.json";
    assert_eq!(fails(&dir, line).0, 0);
    let (code, err) = fails(&dir, "merge ted.0.json one.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("one.json: 1 system(s), and ted.0.json has 2"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_a_state_cannot_give_is_refused() {
    let dir = shards("ted-usage");
    for (line, needle) in [
        (
            "merge ted.0.json ted.1.json --test-metrics LAS",
            "--test-metrics: ted tests TedEval",
        ),
        (
            "merge ted.0.json ted.1.json --per-relation",
            "ted has neither table",
        ),
        (
            "merge pts2.json --test mcnemar",
            "--test mcnemar needs the paired word decisions",
        ),
        (
            "merge pts.json --ci 95",
            "pts.json: no per-sentence rows, and --test and --ci resample sentences",
        ),
        (
            "ted --distance gold.0.conllu --emit-state x.json",
            "--emit-state records the counts of a TedEval run; --distance prints one distance per tree pair",
        ),
    ] {
        let (code, err) = fails(&dir, line);
        assert_eq!(code, 2, "{line}: {err}");
        assert!(err.contains(needle), "{line}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_merged_ted_report_counts_the_whole_files() {
    let dir = shards("ted-whole");
    let merged = run_json(&dir, &words("merge -q ted.0.json ted.1.json --format json"));
    let root = common::root().join("examples");
    let whole = common::stdout_ok(&[
        "ted",
        "-q",
        "--format",
        "json",
        "--gold",
        &root.join("gold.conllu").display().to_string(),
        "--parse",
        &root.join("sys.conllu").display().to_string(),
        "--parse",
        &root.join("sys2.conllu").display().to_string(),
    ]);
    let (m, w): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&merged).unwrap(),
        serde_json::from_str(&whole).unwrap(),
    );
    assert_eq!(m["sections"], w["sections"]);
    assert_eq!(m["comparisons"], w["comparisons"]);
    // examples/: sys has Σδ_new 13 of Σι 58 (TedEval 1 − 13/58), as `treeval ted` counts
    // the whole files
    assert_eq!(
        common::counts(common::cell(&m, "scores", 0, "TedEval")),
        vec![13, 58]
    );
    assert!(m["signature"].as_str().unwrap().ends_with("|merged:2"));
    let _ = std::fs::remove_dir_all(&dir);
}
