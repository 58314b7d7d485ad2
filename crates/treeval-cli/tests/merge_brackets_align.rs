//! Sharded evaluation of `brackets` and `align`: `--emit-state` on every shard, then
//! `treeval merge`, gives the report of one run on the concatenated files (a property over
//! random corpora and random splits: every section, the error sentences, the warnings,
//! the tests and intervals for a fixed seed), and the states that cannot merge are refused.

mod common;

use std::path::{Path, PathBuf};

use common::corpus::{fails, normalised, run, scratch, words};
use common::{stderr, treeval_in};
use proptest::prelude::*;

fn run_json(dir: &Path, args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = treeval_in(dir, &args);
    assert!(o.status.success(), "treeval {args:?}: {}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

const LABELS: &[&str] = &["NP", "VP", "PP", "ADJP", "SBAR", "ADVP", "PRT"];
const TAGS: &[&str] = &["NN", "VB", "DT", "JJ", "IN", ",", "."];

/// A bracketing of words `lo..hi` (their `(TAG word)` leaves in `leaves`), its splits and
/// labels read from `seeds` in turn.
fn bracket(leaves: &[String], lo: usize, hi: usize, seeds: &[usize], at: &mut usize) -> String {
    if hi - lo == 1 {
        return leaves[lo].clone();
    }
    let seed = seeds[*at % seeds.len()];
    *at += 1;
    let mid = lo + 1 + seed % (hi - lo - 1);
    let label = LABELS[(seed / 7) % LABELS.len()];
    let (l, r) = (
        bracket(leaves, lo, mid, seeds, at),
        bracket(leaves, mid, hi, seeds, at),
    );
    format!("({label} {l} {r})")
}

/// One random sentence: the gold tree and two parses of it (the gold's structure with
/// some labels changed, or another), some with a tag changed, now and then one with a
/// word changed (an EVALB error sentence).
fn trees() -> impl Strategy<Value = [String; 3]> {
    (1usize..24)
        .prop_flat_map(|n| {
            let words = proptest::collection::vec((0usize..40, 0usize..TAGS.len()), n);
            let seeds = proptest::collection::vec(0usize..1000, 3);
            let sys = proptest::collection::vec(
                (
                    proptest::bool::ANY,
                    proptest::collection::vec(0usize..1000, 3),
                    proptest::option::weighted(0.2, 0usize..TAGS.len()),
                    proptest::bool::weighted(0.05),
                ),
                2,
            );
            (words, seeds, sys)
        })
        .prop_map(|(words, seeds, sys)| {
            let leaves = |tag_at: Option<usize>, word_changed: bool| -> Vec<String> {
                words
                    .iter()
                    .enumerate()
                    .map(|(i, &(w, t))| {
                        let t = if i == 0 { tag_at.unwrap_or(t) } else { t };
                        let w = if i == 0 && word_changed { 99 } else { w };
                        format!("({} w{w})", TAGS[t])
                    })
                    .collect()
            };
            let n = words.len();
            let gold = format!(
                "(S {})",
                bracket(&leaves(None, false), 0, n, &seeds, &mut 0)
            );
            let mut out = [gold, String::new(), String::new()];
            for (k, (same, other, tag, word)) in sys.into_iter().enumerate() {
                let seeds: Vec<usize> = if same {
                    seeds
                        .iter()
                        .zip(&other)
                        .map(|(s, o)| s + 7 * (o % 2))
                        .collect()
                } else {
                    other
                };
                let l = leaves(tag, word);
                out[k + 1] = format!("(S {})", bracket(&l, 0, n, &seeds, &mut 0));
            }
            out
        })
}

/// The random alignments of one sentence pair: gold, two hypotheses; links as
/// (source, target, possible).
type Links = Vec<(u32, u32, bool)>;

fn links(min: usize) -> impl Strategy<Value = Links> {
    proptest::collection::vec((0u32..6, 0u32..6, proptest::bool::weighted(0.3)), min..6)
}

fn pairs() -> impl Strategy<Value = [Links; 3]> {
    (links(1), links(0), links(0)).prop_map(|(g, a, b)| [g, a, b])
}

/// A Pharaoh line (0-based; `?` a possible link).
fn pharaoh(l: &Links) -> String {
    let v: Vec<String> = l
        .iter()
        .map(|&(i, j, p)| format!("{i}{}{j}", if p { '?' } else { '-' }))
        .collect();
    v.join(" ") + "\n"
}

/// The NAACL lines of sentence `n` (1-based words).
fn naacl(n: usize, l: &Links) -> String {
    l.iter()
        .map(|&(i, j, p)| format!("{n:04} {} {} {}\n", i + 1, j + 1, if p { 'P' } else { 'S' }))
        .collect()
}

/// How the gold alignment is written in a case: Pharaoh, or NAACL with each shard's
/// sentences numbered from 1 or numbered on (the corpus' numbers kept).
#[derive(Clone, Copy, PartialEq)]
enum Gold {
    Pharaoh,
    NaaclFrom1,
    NaaclKept,
}

/// The cases: the command, how the gold is written (align), the options of the
/// evaluation (shards and the single run) and those of the merge.
const BRACKETS: &[(&str, &str)] = &[
    ("--by label,length", ""),
    ("--prm p.prm --by length --where label=NP|VP", ""),
    (
        "--test ar --ci 95 --samples 200 --seed 7 --test-metrics F,recall --by label",
        "--test ar --ci 95 --samples 200 --seed 7 --test-metrics F,recall",
    ),
    (
        "--prm p.prm --test bootstrap --ci 90 --samples 200 --seed 3",
        "--test bootstrap --ci 90 --samples 200 --seed 3",
    ),
];

const ALIGN: &[(Gold, &str, &str)] = &[
    (Gold::Pharaoh, "--hyp-format pharaoh", ""),
    (
        Gold::Pharaoh,
        "--hyp-format pharaoh --test ar --ci 95 --samples 200 --seed 5",
        "--test ar --ci 95 --samples 200 --seed 5",
    ),
    (Gold::NaaclFrom1, "--hyp-format pharaoh --f-alpha 0.3", ""),
    (
        Gold::NaaclKept,
        "--hyp-format naacl --test bootstrap --ci 95 --samples 200 --seed 2 --test-metrics AER,recall",
        "--test bootstrap --ci 95 --samples 200 --seed 2 --test-metrics AER,recall",
    ),
];

/// A parameter file with a small cut-off (so that the len<=N section differs from all)
/// and room for every error sentence.
const PRM: &str = "MAX_ERROR 10000\nCUTOFF_LEN 6\nLABELED 1\nDELETE_LABEL TOP\nDELETE_LABEL ,\nDELETE_LABEL .\nEQ_LABEL ADVP PRT\n";

/// The files of every shard and of the whole, written by `text(k, from, to)` (file `k`,
/// sentences `from..to`); returns the whole's names, each file's shard names, and the
/// shard bounds.
fn files(
    dir: &Path,
    n: usize,
    cuts: &[usize],
    ext: &str,
    text: &dyn Fn(usize, usize, usize, usize) -> String,
) -> (Vec<String>, [Vec<String>; 3], Vec<usize>) {
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(n);
    let names = ["g", "a", "b"];
    let whole: Vec<String> = (0..3)
        .map(|k| {
            let name = format!("{}.{ext}", names[k]);
            std::fs::write(dir.join(&name), text(k, 0, n, 0)).unwrap();
            name
        })
        .collect();
    let mut parts: [Vec<String>; 3] = Default::default();
    for (i, w) in bounds.windows(2).enumerate() {
        for k in 0..3 {
            let name = format!("{}.{i}.{ext}", names[k]);
            std::fs::write(dir.join(&name), text(k, w[0], w[1], w[0])).unwrap();
            parts[k].push(name);
        }
    }
    (whole, parts, bounds)
}

/// A random length selection (`--min-len`, `--max-len`, each maybe), over lengths
/// `lo..hi`: its options.
fn lengths(lo: u64, hi: u64) -> impl Strategy<Value = String> {
    let bound = || proptest::option::of(lo..hi);
    (bound(), bound()).prop_map(|(a, b)| {
        let (min, max) = match (a, b) {
            (Some(a), Some(b)) => (Some(a.min(b)), Some(a.max(b))),
            other => other,
        };
        let mut s = String::new();
        if let Some(n) = min {
            s.push_str(&format!(" --min-len {n}"));
        }
        if let Some(n) = max {
            s.push_str(&format!(" --max-len {n}"));
        }
        s
    })
}

/// One run on the whole files, one per shard with `--emit-state`, the merge; compared
/// (`{}` in `eval`: nothing in the run on the whole files, `.I` in shard I's).
/// When the evaluation's sentence selection (or `--where`) keeps nothing of the whole
/// corpus, one run fails, every shard writes its state, and the merge fails the same way.
fn compare(
    dir: &Path,
    command: &str,
    (whole, parts): (&[String], &[Vec<String>; 3]),
    (eval, show): (&str, &str),
    what: &str,
) {
    // the systems named alike in the shards and the whole run (their files' names differ)
    let names = "--name a --name b";
    let mut args = words(&format!("{command} -q --format json"));
    args.extend(whole.iter().cloned());
    args.extend(words(&eval.replace("{}", "")));
    args.extend(words(names));
    let single = run(dir, &args);
    if let Err(e) = &single {
        let _ = common::corpus::nothing_reason(e);
    }
    let mut states = Vec::new();
    for (i, gold) in parts[0].iter().enumerate() {
        let state = format!("state.{i}.json");
        let mut args = words(&format!(
            "{command} -q --keep-sentences --emit-state {state}"
        ));
        args.push(gold.clone());
        args.extend(parts[1..].iter().map(|p| p[i].clone()));
        args.extend(words(&eval.replace("{}", &format!(".{i}"))));
        args.extend(words(names));
        run_json(dir, &args);
        states.push(state);
    }
    let mut args = words("merge --format json");
    args.extend(states);
    args.extend(words(show));
    let merged = run(dir, &args);
    let single = match single {
        Ok(single) => single,
        Err(e) => {
            let m = merged.expect_err("the merge of shards that keep nothing is an error");
            // the same reason, but for the files' names
            let reason = common::corpus::nothing_reason;
            assert_eq!(reason(&m), reason(&e), "{what}");
            return;
        }
    };
    let merged = merged.unwrap_or_else(|e| panic!("{what}: treeval {args:?}: {e}"));
    let roles = ["GOLD", "SYS-A", "SYS-B"];
    let merged_names: Vec<(String, &str)> =
        (0..3).map(|k| (parts[k].join(" + "), roles[k])).collect();
    let single_names: Vec<(String, &str)> = (0..3).map(|k| (whole[k].clone(), roles[k])).collect();
    let (m, s) = (
        normalised(&merged, &merged_names),
        normalised(&single, &single_names),
    );
    for (key, value) in s.as_object().unwrap() {
        assert_eq!(&m[key], value, "{what}: `{key}` differs");
    }
    assert_eq!(m.as_object().unwrap().len(), s.as_object().unwrap().len());
}

fn check_brackets(corpus: &[[String; 3]], cuts: &[usize], case: usize, select: Option<&str>) {
    // the properties with and without a selection run in parallel: their own folders
    let sel = if select.is_some() { "s" } else { "" };
    let select = select.unwrap_or_default();
    let dir = scratch(&format!("b{sel}{case}-{}", cuts.len()));
    std::fs::write(dir.join("p.prm"), PRM).unwrap();
    let text = |k: usize, from: usize, to: usize, _: usize| -> String {
        corpus[from..to]
            .iter()
            .map(|t| format!("{}\n", t[k]))
            .collect()
    };
    let (whole, parts, _) = files(&dir, corpus.len(), cuts, "mrg", &text);
    let what = format!("brackets case {case}, cuts {cuts:?}, selection{select}");
    let (eval, show) = BRACKETS[case];
    let eval = format!("{eval}{select}");
    compare(&dir, "brackets", (&whole, &parts), (&eval, show), &what);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `corpus` in shards cut at `cuts`, evaluated as `ALIGN[case]` says, with the selection
/// `select` when given (then with `--tokens`: `lens[i]` source words in sentence `i`,
/// 6 target words).
fn check_align(corpus: &[[Links; 3]], cuts: &[usize], case: usize, select: Option<(&str, &[u64])>) {
    let sel = if select.is_some() { "s" } else { "" };
    let dir = scratch(&format!("a{sel}{case}-{}", cuts.len()));
    let (gold, eval, show) = ALIGN[case];
    let text = |k: usize, from: usize, to: usize, start: usize| -> String {
        let naacl_file = (k == 0 && gold != Gold::Pharaoh) || gold == Gold::NaaclKept;
        let first = if gold == Gold::NaaclKept { 0 } else { start };
        corpus[from..to]
            .iter()
            .enumerate()
            .map(|(i, s)| match naacl_file {
                // a NAACL hypothesis without links in the gold's last sentences is
                // warned about (the shard's last are not the corpus'): never empty here
                true if s[k].is_empty() => naacl(from + i + 1 - first, &vec![(5, 5, true)]),
                true => naacl(from + i + 1 - first, &s[k]),
                false => pharaoh(&s[k]),
            })
            .collect()
    };
    let (whole, parts, bounds) = files(&dir, corpus.len(), cuts, "wa", &text);
    let mut eval = eval.to_owned();
    if let Some((select, lens)) = select {
        // the token files of the whole and of every shard, named after its gold
        let line = |n: u64| {
            (0..n)
                .map(|w| format!("t{w}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        for (i, w) in std::iter::once(&[0, corpus.len()][..])
            .chain(bounds.windows(2))
            .enumerate()
        {
            let src: String = lens[w[0]..w[1]].iter().map(|&n| line(n) + "\n").collect();
            let tgt = format!("{}\n", line(6)).repeat(w[1] - w[0]);
            let tag = if i == 0 {
                String::new()
            } else {
                format!(".{}", i - 1)
            };
            std::fs::write(dir.join(format!("src{tag}")), src).unwrap();
            std::fs::write(dir.join(format!("tgt{tag}")), tgt).unwrap();
        }
        eval.push_str(&format!(" --tokens src{{}} tgt{{}}{select}"));
    }
    let what = format!("align case {case}, cuts {cuts:?}, selection {select:?}");
    compare(&dir, "align", (&whole, &parts), (&eval, show), &what);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A corpus and 0–4 cut points inside it (1–5 shards, none empty).
fn corpus_and_cuts<T: std::fmt::Debug + Clone>(
    unit: impl Strategy<Value = T>,
) -> impl Strategy<Value = (Vec<T>, Vec<usize>)> {
    proptest::collection::vec(unit, 1..14).prop_flat_map(|c| {
        let n = c.len();
        let cuts = proptest::collection::btree_set(1..n.max(2), 0..5.min(n));
        (Just(c), cuts).prop_map(|(c, cuts)| {
            let n = c.len();
            (c, cuts.into_iter().filter(|&x| x < n).collect())
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn merged_brackets_shards_equal_one_run(
        (corpus, cuts) in corpus_and_cuts(trees()),
        case in 0..BRACKETS.len(),
    ) {
        check_brackets(&corpus, &cuts, case, None);
    }

    #[test]
    fn merged_brackets_shards_of_a_length_selection_equal_one_run(
        (corpus, cuts) in corpus_and_cuts(trees()),
        case in 0..BRACKETS.len(),
        select in lengths(1, 20),
    ) {
        check_brackets(&corpus, &cuts, case, Some(&select));
    }

    #[test]
    fn merged_align_shards_equal_one_run(
        (corpus, cuts) in corpus_and_cuts(pairs()),
        case in 0..ALIGN.len(),
    ) {
        check_align(&corpus, &cuts, case, None);
    }

    #[test]
    fn merged_align_shards_of_a_length_selection_equal_one_run(
        ((corpus, cuts), lens) in corpus_and_cuts(pairs())
            .prop_flat_map(|(c, cuts)| {
                let n = c.len();
                (Just((c, cuts)), proptest::collection::vec(6u64..10, n))
            }),
        // the shards of a NAACL gold numbered on do not merge under a selection
        // (align_states_of_other_options_or_mixed_numbering_do_not_merge)
        case in 0..ALIGN.len() - 1,
        select in lengths(6, 11),
    ) {
        check_align(&corpus, &cuts, case, Some((&select, &lens)));
    }
}

/// testdata/brackets/debug cut in two (its first 2 trees, the others), with a state of
/// each written with `opts` (`state.0.json`, `state.1.json`).
fn brackets_halves(name: &str, opts: &str) -> PathBuf {
    let dir = scratch(name);
    let root = common::root().join("testdata/brackets/debug");
    for (file, short) in [("gold.txt", "g"), ("test.txt", "t")] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, part) in [&lines[..2], &lines[2..]].iter().enumerate() {
            std::fs::write(dir.join(format!("{short}.{i}")), part.join("\n") + "\n").unwrap();
        }
    }
    for i in 0..2 {
        let line = format!("brackets -q g.{i} t.{i} --emit-state state.{i}.json {opts}");
        let (code, err) = fails(&dir, &line);
        assert_eq!(code, 0, "{line}: {err}");
    }
    dir
}

#[test]
fn brackets_states_of_other_parameters_or_another_command_do_not_merge() {
    let dir = brackets_halves("b-options", "");
    std::fs::write(dir.join("p.prm"), PRM).unwrap();
    let (code, err) = fails(
        &dir,
        "brackets -q g.1 t.1 --prm p.prm --emit-state other.json",
    );
    assert_eq!(code, 0, "{err}");
    let (code, err) = fails(&dir, "merge state.0.json other.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("other.json: option params is {"),
        "the parameters are compared: {err}"
    );
    let (code, err) = fails(&dir, "brackets -q g.1 t.1 --by label --emit-state by.json");
    assert_eq!(code, 0, "{err}");
    let (code, err) = fails(&dir, "merge state.0.json by.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("by.json: option by is [\"label\"], and in state.0.json it is []"),
        "{err}"
    );
    // a deps state with a brackets state
    let sanity = common::root().join("testdata/sanity");
    let g = sanity.join("ewt-gold.conllu");
    let s = sanity.join("ewt-sys.conllu");
    let line = format!(
        "deps -q {} {} --emit-state deps.json",
        g.display(),
        s.display()
    );
    let (code, err) = fails(&dir, &line);
    assert_eq!(code, 0, "{err}");
    let (code, err) = fails(&dir, "merge state.0.json deps.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("deps.json: a state of `deps`, and state.0.json holds a state of `brackets`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn brackets_refuses_emit_state_with_what_a_state_does_not_hold() {
    let dir = brackets_halves("b-refused", "");
    for (opts, says) in [
        ("--compat evalb", "--compat prints a reference script's lines"),
        ("--careful", "--emit-state does not record the careful evaluation"),
        (
            "--sent-id 1",
            "--sent-id with --emit-state: a tree has no id but its number in the file, which restarts in every shard",
        ),
    ] {
        let (code, err) = fails(&dir, &format!("brackets g.0 t.0 --emit-state x.json {opts}"));
        assert_eq!(code, 2, "{opts}: {err}");
        assert!(err.contains(says), "{opts}: {err}");
    }
    // what a merge cannot show
    let (code, err) = fails(&dir, "merge state.0.json state.1.json --per-relation");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("brackets has neither table"), "{err}");
    let (code, err) = fails(&dir, "merge state.0.json state.1.json --test ar");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("state.0.json: no per-sentence rows"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn brackets_shards_with_more_error_sentences_than_max_error_merge_into_one_run() {
    // 7 error sentences per shard: 14 in the corpus, past EVALB's MAX_ERROR 10, which stops
    // only --compat evalb: one run scores every sentence, and so does the merge
    let dir = scratch("b-stop");
    let (g, t) = (
        "(S (NN a) (VB b))\n(S (NN x) (VB y))\n".repeat(7),
        "(S (NN a) (VB c))\n(S (NN x) (VB y))\n".repeat(7),
    );
    for i in 0..2 {
        std::fs::write(dir.join(format!("g.{i}")), &g).unwrap();
        std::fs::write(dir.join(format!("t.{i}")), &t).unwrap();
        let line = format!("brackets -q g.{i} t.{i} --emit-state s.{i}.json");
        assert_eq!(fails(&dir, &line).0, 0);
    }
    std::fs::write(dir.join("g"), g.repeat(2)).unwrap();
    std::fs::write(dir.join("t"), t.repeat(2)).unwrap();
    let whole = run_json(&dir, &words("brackets -q --format json g t"));
    let merged = run_json(&dir, &words("merge -q --format json s.0.json s.1.json"));
    let names = [("g.0 + g.1".to_owned(), "g"), ("t.0 + t.1".to_owned(), "t")];
    let (w, m) = (normalised(&whole, &names), normalised(&merged, &names));
    assert_eq!(w["sections"], m["sections"]);
    assert_eq!(w["warnings"], m["warnings"]);
    let all = &w["sections"][0]["rows"][0]["cells"];
    let counts = |name: &str| {
        let c = all
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["measure"] == name);
        c.map(|c| c["counts"][0].clone())
    };
    assert_eq!(counts("sentences"), Some(28.into()), "{all}");
    assert_eq!(counts("error"), Some(14.into()), "{all}");
    let warning = w["warnings"][0]["message"].as_str().unwrap();
    assert!(
        warning.starts_with("14 of 28 sentences are scored as empty parses: 14 error sentence(s)")
            && warning.contains("sentences 1, 3, 5, 7, 9, …"),
        "{warning}"
    );
    // a shard whose every sentence is an error sentence writes its state; the merge
    // of such shards scores nothing, which is an error
    for i in 0..2 {
        std::fs::write(dir.join(format!("e.{i}")), "(S (NN a) (VB c))\n".repeat(3)).unwrap();
        std::fs::write(dir.join(format!("f.{i}")), "(S (NN a) (VB b))\n".repeat(3)).unwrap();
        let line = format!("brackets -q f.{i} e.{i} --emit-state n.{i}.json");
        let (code, err) = fails(&dir, &line);
        assert_eq!(code, 0, "{err}");
    }
    let (code, err) = fails(&dir, "merge n.0.json n.1.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(
            "error: nothing is scored: every sentence of e.0 + e.1 is an error sentence (6"
        ),
        "{err}"
    );
    // a state whose run stopped at MAX_ERROR (earlier builds) does not merge
    let text = std::fs::read_to_string(dir.join("s.1.json")).unwrap();
    let stopped = text.replace("\"stopped\":null", "\"stopped\":\"stopped at sentence 12\"");
    assert_ne!(text, stopped);
    std::fs::write(dir.join("s.2.json"), stopped).unwrap();
    let (code, err) = fails(&dir, "merge s.0.json s.2.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("the run that wrote this state stopped"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn align_states_of_other_options_or_mixed_numbering_do_not_merge() {
    let dir = scratch("a-options");
    std::fs::write(dir.join("g.0"), "0001 1 1 S\n0002 2 2 S\n").unwrap();
    std::fs::write(dir.join("h.0"), "0-0\n1-1\n").unwrap();
    std::fs::write(dir.join("g.1"), "0003 1 1 S\n").unwrap();
    std::fs::write(dir.join("g.2"), "0001 1 1 S\n").unwrap();
    std::fs::write(dir.join("h.1"), "0-0\n").unwrap();
    // the system of shard g.2 named as its shard (merge lines systems up by their names)
    std::fs::write(dir.join("h.2"), "0-0\n").unwrap();
    std::fs::write(dir.join("h.3"), "\n\n0-0\n").unwrap();
    // another shard numbered from 1 (one shard given twice is refused)
    std::fs::write(dir.join("g.4"), "0001 1 1 S\n").unwrap();
    std::fs::write(dir.join("h.4"), "0-0\n").unwrap();
    for line in [
        "align -q g.0 h.0 --emit-state s.0.json",
        "align -q g.2 h.2 --sentences 1 --emit-state given.json",
        "align -q g.2 h.2 --emit-state from1.json",
        "align -q g.4 h.4 --emit-state from1b.json",
        "align -q g.2 h.2 --null include --emit-state null.json",
    ] {
        let (code, err) = fails(&dir, line);
        assert_eq!(code, 0, "{line}: {err}");
    }
    let (code, err) = fails(&dir, "merge s.0.json null.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("null.json: option null is \"include\", and in s.0.json it is \"exclude\""),
        "{err}"
    );
    // the shards numbered on (sentence 3 after 1-2), then from 1 again: refused
    let (code, err) = fails(&dir, "merge s.0.json from1.json from1b.json");
    assert_eq!(code, 0, "numbered from 1 throughout: {err}");
    let (code, err) = fails(&dir, "merge s.0.json given.json");
    assert!(
        err.contains("given.json: option sentences_given is true, and in s.0.json it is false"),
        "{err}"
    );
    assert_eq!(code, 1);
    let (code, err) = fails(&dir, "align -q g.1 h.3 --emit-state on2.json");
    assert_eq!(code, 0, "{err}");
    let (code, err) = fails(&dir, "merge s.0.json from1.json on2.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("on2.json: its NAACL gold keeps the corpus' sentence numbers, and from1.json numbers its sentences from 1"),
        "{err}"
    );
    for (opts, says) in [
        (
            "--compat aer.py",
            "--compat prints a reference script's lines",
        ),
        (
            "--sent-id 1",
            "--sent-id with --emit-state: a sentence pair has no id but its number in the file, which restarts in every shard",
        ),
    ] {
        let (code, err) = fails(&dir, &format!("align g.0 h.0 --emit-state x.json {opts}"));
        assert_eq!(code, 2, "{opts}: {err}");
        assert!(err.contains(says), "{opts}: {err}");
    }
    // under a length selection, NAACL shards numbered on do not merge (the second
    // shard's pairs 1-3 would count those of the first as its own)
    std::fs::write(dir.join("src.0"), "a b\nc\n").unwrap();
    std::fs::write(dir.join("src.1"), "a\nb\nc d e\n").unwrap();
    for (i, line) in [
        "align -q g.0 h.0 --tokens src.0 src.0 --max-len 1 --emit-state sel.0.json",
        "align -q g.1 h.3 --tokens src.1 src.1 --max-len 1 --emit-state sel.1.json",
    ]
    .iter()
    .enumerate()
    {
        let (code, err) = fails(&dir, line);
        assert_eq!(code, 0, "shard {i}: {err}");
    }
    let (code, err) = fails(&dir, "merge sel.0.json sel.1.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("sel.1.json: its NAACL gold keeps the corpus' sentence numbers, and the states were evaluated under a sentence selection (--min-len, --max-len), whose counts add up only over shards numbered from 1"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
