//! Sharded evaluation: `deps --emit-state` on every shard, then `treeval merge`, must give
//! the report of one run on the concatenated files (a property over random corpora and
//! random splits), and the states that cannot merge must be refused.

mod common;

use std::path::{Path, PathBuf};

use common::corpus::{
    conllu, fails, normalised, run, run_json, scratch, selection, sentence, words, Select, Triple,
};
use common::{stderr, treeval_in};
use proptest::prelude::*;
use serde_json::Value;

/// The cases: the command, the options of the evaluation (shards and the single run) and
/// those of the merge (how to show the merged sums).
const CASES: &[(&str, &str, &str)] = &[
    (
        "deps",
        "--by deprel,distance,length --per-relation --confusion=5",
        "--per-relation --confusion=5",
    ),
    (
        "deps",
        "--punct deprel=punct --by upos,direction,depth --where gold.upos=NOUN|VERB",
        "",
    ),
    (
        "deps",
        "--test ar --ci 95 --samples 300 --seed 7 --by deprel",
        "--test ar --ci 95 --samples 300 --seed 7",
    ),
    (
        "deps",
        "--test mcnemar --test bootstrap --samples 200 --labels universal",
        "--test mcnemar --test bootstrap --samples 200",
    ),
    (
        "ud",
        "--by deprel,distance,upos --per-relation",
        "--per-relation",
    ),
    (
        "ud",
        "--test ar --test bootstrap --ci 95 --samples 200 --seed 5 --test-metrics LAS,UAS,CLAS",
        "--test ar --test bootstrap --ci 95 --samples 200 --seed 5 --test-metrics LAS,UAS,CLAS",
    ),
    ("ud", "--where gold.deprel=nsubj|obj --by length", ""),
    ("relations", "", ""),
    (
        "relations",
        "--test ar --ci 95 --samples 200 --seed 9",
        "--test ar --ci 95 --samples 200 --seed 9",
    ),
];

/// Write column `k` of `sentences` (the corpus's from `first` on) to `name`, each with its
/// corpus-wide `# sent_id = sN` (a sentence's number restarts in each shard; its id does not).
fn write(dir: &Path, name: &str, sentences: &[Triple], first: usize, k: usize) -> String {
    std::fs::write(dir.join(name), conllu(sentences, k, first)).unwrap();
    name.to_owned()
}

/// Evaluate `corpus` whole and split at `cuts` (sorted, inside), with the selection
/// `select` when given, and compare.
fn check_split(corpus: &[Triple], cuts: &[usize], case: usize, select: Option<&Select>) {
    let dir = scratch(&format!("p{case}-{}", cuts.len()));
    let (command, eval, show) = CASES[case];
    let eval = format!("{eval}{}", select.map_or(String::new(), |s| s.args(&dir)));
    let eval = eval.as_str();
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(corpus.len());
    let whole: Vec<String> = ["g", "a", "b"]
        .iter()
        .enumerate()
        .map(|(k, n)| write(&dir, &format!("{n}.conllu"), corpus, 0, k))
        .collect();
    // the systems named alike in the shards and the whole run (their files' names differ)
    let names = "--name a --name b";
    let mut args = words(&format!("{command} -q --format json"));
    args.extend(whole.iter().cloned());
    args.extend(words(eval));
    args.extend(words(names));
    let single = match run(&dir, &args) {
        Ok(json) => Some(Ok(json)),
        Err(err) => {
            // a selection (or --where) that keeps nothing of the whole corpus: an
            // error, and so is the merge of its shards
            let _ = common::corpus::nothing_reason(&err);
            Some(Err(err))
        }
    };
    let mut states = Vec::new();
    let mut parts: [Vec<String>; 3] = Default::default();
    for (i, w) in bounds.windows(2).enumerate() {
        let files: Vec<String> = ["g", "a", "b"]
            .iter()
            .enumerate()
            .map(|(k, n)| {
                let name = format!("{n}.{i}.conllu");
                write(&dir, &name, &corpus[w[0]..w[1]], w[0], k)
            })
            .collect();
        for k in 0..3 {
            parts[k].push(files[k].clone());
        }
        let state = format!("state.{i}.json");
        let mut args = words(&format!("{command} -q --keep-sentences --emit-state"));
        args.push(state.clone());
        args.extend(files);
        args.extend(words(eval));
        args.extend(words(names));
        run_json(&dir, &args);
        states.push(state);
    }
    let mut args = words("merge --format json");
    args.extend(states);
    args.extend(words(show));
    let merged = run(&dir, &args);
    let single = match single {
        Some(Ok(single)) => single,
        _ => {
            let err = merged.expect_err("the merge of shards that keep nothing is an error");
            let whole = single.and_then(Result::err).unwrap_or_default();
            let reason = common::corpus::nothing_reason;
            assert_eq!(reason(&err), reason(&whole), "{err}");
            let _ = std::fs::remove_dir_all(&dir);
            return;
        }
    };
    let merged = merged.unwrap_or_else(|e| panic!("treeval {args:?}: {e}"));
    let roles = ["GOLD", "SYS-A", "SYS-B"];
    let merged_names: Vec<(String, &str)> =
        (0..3).map(|k| (parts[k].join(" + "), roles[k])).collect();
    let single_names: Vec<(String, &str)> = (0..3).map(|k| (whole[k].clone(), roles[k])).collect();
    let (m, s) = (
        normalised(&merged, &merged_names),
        normalised(&single, &single_names),
    );
    for (key, value) in s.as_object().unwrap() {
        assert_eq!(
            &m[key], value,
            "case {case}, cuts {cuts:?}: `{key}` differs"
        );
    }
    assert_eq!(m.as_object().unwrap().len(), s.as_object().unwrap().len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A corpus and 0–4 cut points inside it (1–5 shards, none empty).
fn corpus_and_cuts() -> impl Strategy<Value = (Vec<Triple>, Vec<usize>)> {
    proptest::collection::vec(sentence(), 1..14).prop_flat_map(|c| {
        let n = c.len();
        let cuts = proptest::collection::btree_set(1..n.max(2), 0..5.min(n));
        (Just(c), cuts).prop_map(|(c, cuts)| {
            let n = c.len();
            (c, cuts.into_iter().filter(|&x| x < n).collect())
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn merged_shards_equal_one_run((corpus, cuts) in corpus_and_cuts(), case in 0..CASES.len()) {
        check_split(&corpus, &cuts, case, None);
    }

    #[test]
    fn merged_shards_of_a_sentence_selection_equal_one_run(
        (corpus, cuts) in corpus_and_cuts(),
        case in 0..CASES.len(),
        select in selection(),
    ) {
        check_split(&corpus, &cuts, case, Some(&select));
    }
}

/// The two halves of testdata/sanity's gold and system, with a state of each written
/// with `opts` (`state.0.json`, `state.1.json`).
fn halves(name: &str, opts: &str) -> PathBuf {
    let dir = scratch(name);
    let root = common::root().join("testdata/sanity");
    for (file, short) in [("ewt-gold.conllu", "g"), ("ewt-sys.conllu", "s")] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let sentences: Vec<&str> = text.trim_end().split("\n\n").collect();
        let h = sentences.len() / 2;
        for (i, part) in [&sentences[..h], &sentences[h..]].iter().enumerate() {
            std::fs::write(
                dir.join(format!("{short}.{i}.conllu")),
                part.join("\n\n") + "\n\n",
            )
            .unwrap();
        }
    }
    for i in 0..2 {
        let line = format!("deps -q g.{i}.conllu s.{i}.conllu --emit-state state.{i}.json {opts}");
        let o = treeval_in(
            &dir,
            &words(&line).iter().map(String::as_str).collect::<Vec<_>>(),
        );
        assert!(o.status.success(), "{line}: {}", stderr(&o));
    }
    dir
}

#[test]
fn states_of_different_options_do_not_merge() {
    let dir = halves("options", "");
    let o = treeval_in(
        &dir,
        &words("deps -q g.1.conllu s.1.conllu --punct form --emit-state other.json")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let (code, err) = fails(&dir, "merge state.0.json other.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("other.json: option punct is \"form\", and in state.0.json it is \"include\""),
        "{err}"
    );
    // the profile follows: conll07 with --punct form is "custom"; punct is named first
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_state_of_another_schema_version_is_refused() {
    let dir = halves("schema", "");
    let text = std::fs::read_to_string(dir.join("state.1.json")).unwrap();
    // a newer and an older schema: both versions named, and what to do
    for (file, schema, which, hint) in [
        (
            "v4.json",
            "treeval.state/4",
            "a newer schema",
            "merge with the treeval version that wrote the states",
        ),
        (
            "v1.json",
            "treeval.state/1",
            "an older schema",
            "evaluate the shard again with this version",
        ),
    ] {
        std::fs::write(dir.join(file), text.replacen("treeval.state/3", schema, 1)).unwrap();
        let (code, err) = fails(&dir, &format!("merge state.0.json {file}"));
        assert_eq!(code, 1, "{err}");
        let want = format!(
            "{file}: expected a state file of schema treeval.state/3 (treeval {}), found {schema}, {which}, written by treeval {}\n  hint: {hint}",
            env!("CARGO_PKG_VERSION"),
            env!("CARGO_PKG_VERSION")
        );
        assert!(err.contains(&want), "{err}");
    }
    std::fs::write(dir.join("report.json"), "{\"schema\":\"treeval.report/3\"}").unwrap();
    let (code, err) = fails(&dir, "merge state.0.json report.json");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("found treeval.report/3"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same shard given twice, under its own name or as a copy (reformatted or not), is
/// refused with exit code 2 naming both files: merged, it would be counted twice.
#[test]
fn a_shard_given_twice_is_refused_whatever_its_name() {
    let dir = halves("twice", "--keep-sentences");
    let (code, err) = fails(&dir, "merge state.0.json state.1.json state.0.json");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("error: state.0.json: expected the state of another shard, found the same state as state.0.json (equal contents)"),
        "{err}"
    );
    assert!(err.contains("hint: give each shard's state once"), "{err}");
    // a copy under another name, pretty-printed: the same parsed state
    let text = std::fs::read_to_string(dir.join("state.1.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    std::fs::write(
        dir.join("copy.json"),
        serde_json::to_string_pretty(&v).unwrap(),
    )
    .unwrap();
    assert_ne!(
        std::fs::read_to_string(dir.join("copy.json")).unwrap(),
        text
    );
    let (code, err) = fails(&dir, "merge state.0.json state.1.json copy.json");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(
            "copy.json: expected the state of another shard, found the same state as state.1.json"
        ),
        "{err}"
    );
    // nothing on stdout, no state written
    let (code, _) = fails(&dir, "merge copy.json state.1.json --emit-state m.json");
    assert_eq!(code, 2);
    assert!(!dir.join("m.json").exists());
    // the two different halves still merge
    let (code, err) = fails(&dir, "merge -q state.0.json copy.json");
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_state_is_never_written_over_an_input() {
    let dir = halves("output", "");
    // the merge's inputs are its states
    let (code, err) = fails(
        &dir,
        "merge state.0.json state.1.json --emit-state state.1.json",
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--emit-state state.1.json would overwrite the input state.1.json (STATE)"),
        "{err}"
    );
    // deps: the option's value taken for the gold file
    let (code, err) = fails(&dir, "deps --emit-state g.0.conllu s.0.conllu s.1.conllu");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--emit-state g.0.conllu"), "{err}");
    assert!(std::fs::read_to_string(dir.join("g.0.conllu"))
        .unwrap()
        .contains("\t"));
    // a file that is not a state is not replaced without --force
    std::fs::write(dir.join("notes.json"), "my notes\n").unwrap();
    let (code, err) = fails(
        &dir,
        "deps -q g.0.conllu s.0.conllu --emit-state notes.json",
    );
    assert_eq!(code, 2, "{err}");
    // a state treeval wrote is replaced
    let (code, err) = fails(
        &dir,
        "deps -q g.0.conllu s.0.conllu --emit-state state.1.json",
    );
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tests_and_intervals_need_the_per_sentence_rows() {
    let dir = halves("rows", "");
    let (code, err) = fails(&dir, "merge state.0.json state.1.json --ci 95");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("state.0.json: no per-sentence rows, and --test and --ci resample sentences"),
        "{err}"
    );
    assert!(err.contains("--keep-sentences"), "{err}");
    let (code, err) = fails(&dir, "merge state.0.json state.1.json --confusion");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("written with --confusion"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_rows_the_merge_says_its_sentence_macro_averages_are_summed_per_shard() {
    let dir = halves("note", "");
    let o = treeval_in(
        &dir,
        &["merge", "state.0.json", "state.1.json", "--format", "json"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let notes = v["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n
            .as_str()
            .unwrap()
            .starts_with("merged without per-sentence rows")),
        "{notes:?}"
    );
    assert!(v["signature"].as_str().unwrap().ends_with("|merged:2"));
    // the micro counts are those of the whole files: 72 of 86 words (testdata/sanity,
    // as `treeval deps` counts the whole files)
    let whole = common::stdout_ok(&[
        "deps",
        "-q",
        "--format",
        "json",
        "testdata/sanity/ewt-gold.conllu",
        "testdata/sanity/ewt-sys.conllu",
    ]);
    let w: Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(v["sections"][0]["rows"], w["sections"][0]["rows"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn commands_without_a_state_refuse_emit_state() {
    let (code, err) = fails(
        &common::root(),
        "nbest testdata/nbest/alpino-example/example.gold.conllu testdata/nbest/alpino-example/example.nbest.conllu --emit-state x.json",
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--emit-state: `nbest` does not write a mergeable state yet; the commands that do: deps, ud, relations, brackets, align"),
        "{err}"
    );
}

#[test]
fn a_merged_state_merges_again_into_the_same_report() {
    let dir = halves("tree", "--keep-sentences --by deprel");
    let run = |line: &str| {
        let w = words(line);
        let o = treeval_in(&dir, &w.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(o.status.success(), "{line}: {}", stderr(&o));
        String::from_utf8(o.stdout).unwrap()
    };
    let direct = run("merge state.0.json state.1.json --format json --ci 95");
    run("merge state.0.json --emit-state first.json");
    let tree = run("merge first.json state.1.json --format json --ci 95");
    assert_eq!(tree, direct);
    let v: Value = serde_json::from_str(&tree).unwrap();
    assert!(v["signature"].as_str().unwrap().ends_with("|merged:2"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn states_of_different_sentence_selections_do_not_merge() {
    let dir = halves("selections", "--max-len 20");
    let line = "deps -q g.1.conllu s.1.conllu --max-len 30 --emit-state other.json";
    let (code, err) = fails(&dir, line);
    assert_eq!(code, 0, "{err}");
    let (code, err) = fails(&dir, "merge state.0.json other.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("other.json: sentence selection --max-len 30, and in state.0.json it is --max-len 20: shards merge only when evaluated with the same --sent-id, --min-len and --max-len"),
        "{err}"
    );
    // a shard without a selection does not merge with one that has one
    let (code, err) = fails(&dir, "deps -q g.1.conllu s.1.conllu --emit-state all.json");
    assert_eq!(code, 0, "{err}");
    let (code, err) = fails(&dir, "merge state.0.json all.json");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("all.json: sentence selection none (every sentence scored), and in state.0.json it is --max-len 20"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_shard_whose_selection_keeps_nothing_writes_its_state_and_scores_nothing() {
    // testdata/sanity's 5 sentences have 7, 19, 29, 1 and 30 words; shard 0 is the first 2
    let dir = halves("empty-part", "--max-len 1");
    let o = treeval_in(
        &dir,
        &[
            "deps",
            "g.0.conllu",
            "s.0.conllu",
            "--max-len",
            "1",
            "--emit-state",
            "state.0.json",
            "--format",
            "json",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "kept none of the 2 gold sentences of this part: nothing is scored in its report"
        ),
        "{}",
        stderr(&o)
    );
    // and no warning blames the punctuation policy for the words the selection left out
    assert!(!stderr(&o).contains("punctuation policy"), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(common::cell(&v, "scores", 0, "LAS")["value"].is_null());
    assert_eq!(v["selection"]["excluded_by_length"]["sentences"], 2);
    // the merge counts the one sentence of 1 word, kept in shard 1
    let o = treeval_in(
        &dir,
        &["merge", "state.0.json", "state.1.json", "--format", "json"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["selection"]["kept"]["sentences"], 1);
    assert_eq!(v["selection"]["kept"]["words"], 1);
    assert_eq!(v["selection"]["excluded_by_length"]["sentences"], 4);
    // without --emit-state nothing kept is an error, and so is the merge of such parts
    let (code, err) = fails(&dir, "deps g.0.conllu s.0.conllu --max-len 1");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("kept none of the 2 gold sentences"), "{err}");
    for i in 0..2 {
        let line =
            format!("deps -q g.{i}.conllu s.{i}.conllu --max-len 0 --emit-state none.{i}.json");
        let (code, err) = fails(&dir, &line);
        assert_eq!(code, 0, "{err}");
    }
    let (code, err) = fails(&dir, "merge none.0.json none.1.json");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("kept none of the 5 gold sentences"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--sent-id` in a part of a corpus reads each gold sentence's `# sent_id`; a sentence
/// without one is known by its number in the part's file, which is not its number in the
/// corpus, so writing a state is an error (exit 1) that says so, in every command that
/// reads CoNLL-U gold; without `--emit-state`, or with ids, the same line scores.
#[test]
fn sent_id_in_a_part_needs_the_sentences_ids() {
    let dir = scratch("numbered");
    let root = common::root().join("examples");
    for (from, to) in [("gold.conllu", "g.conllu"), ("sys.conllu", "s.conllu")] {
        let text = std::fs::read_to_string(root.join(from)).unwrap();
        let kept: String = text
            .lines()
            .filter(|l| !l.starts_with("# sent_id"))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(dir.join(to), kept).unwrap();
        std::fs::copy(root.join(from), dir.join(format!("ids.{to}"))).unwrap();
    }
    let lines = [
        "deps g.conllu s.conllu",
        "ud g.conllu s.conllu",
        "relations g.conllu s.conllu",
        "ted --gold g.conllu --parse s.conllu",
    ];
    for line in lines {
        let (code, err) = fails(&dir, &format!("{line} -q --sent-id 2 --emit-state st.json"));
        assert_eq!(code, 1, "{line}: {err}");
        assert!(
            err.contains(
                "--sent-id with --emit-state: 3 gold sentence(s) of this part have no `# sent_id`"
            ),
            "{line}: {err}"
        );
        assert_eq!(
            fails(&dir, &format!("{line} -q --sent-id 2")).0,
            0,
            "{line}"
        );
        let with_ids = line
            .replace("g.conllu", "ids.g.conllu")
            .replace("s.conllu", "ids.s.conllu");
        let (code, err) = fails(
            &dir,
            &format!("{with_ids} -q --sent-id .* --emit-state st.json"),
        );
        assert_eq!(code, 0, "{with_ids}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `merge --format html`: the page of the merged report (tables and charts), with a note
/// that it has no sentence browser (a state holds counts, not sentences); `--errors`, which
/// lists sentences' words, stays refused.
#[test]
fn a_merge_writes_an_html_page_without_a_sentence_browser() {
    let dir = scratch("html");
    let ex = common::root().join("examples");
    let (g, s) = (ex.join("gold.conllu"), ex.join("sys.conllu"));
    let (g, s) = (g.to_str().unwrap(), s.to_str().unwrap());
    let line = format!("deps -q --by deprel --emit-state st.json {g} {s}");
    assert_eq!(fails(&dir, &line).0, 0);
    let o = treeval_in(&dir, &["merge", "st.json", "--format", "html"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = String::from_utf8(o.stdout).unwrap();
    assert!(page.contains("<table class=\"report\""), "a report table");
    assert!(page.contains("<svg"), "a chart");
    assert!(page.contains("no sentence browser on this page"));
    assert!(!page.contains("id=\"browser\""), "no browser section");
    let (code, err) = fails(&dir, "merge st.json --errors");
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
