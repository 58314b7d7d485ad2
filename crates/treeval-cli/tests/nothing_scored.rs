//! Nothing scored is an error, in every command: a run whose units are all left out (a
//! limit, `--where`, error sentences, a punctuation policy, NULL links, a sentence
//! selection) exits 1 with `nothing is scored:`, the reason and the option that lifts it,
//! and prints no report; the same options that score something exit 0. A part written
//! with `--emit-state` is scored as nothing (exit 0, its state written) and `treeval
//! merge` applies the rule to the sum.

mod common;

use std::path::{Path, PathBuf};

use common::{outcome, stderr, treeval, treeval_in};

const GOLD: &str = "examples/gold.conllu";
const SYS: &str = "examples/sys.conllu";

/// A scratch folder of this process.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("treeval-nothing-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `treeval args` exits 1 with nothing on stdout and `nothing is scored: {why}…` then a
/// hint holding `lift` on stderr.
fn scores_nothing(args: &[&str], why: &str, lift: &str) {
    let o = treeval(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", outcome(&o));
    assert!(o.stdout.is_empty(), "{args:?}: no report");
    let at = err
        .find("error: nothing is scored: ")
        .unwrap_or_else(|| panic!("{args:?}: {err}"));
    let message = &err[at..];
    assert!(message.contains(why), "{args:?}: {message}");
    let hint = message.split_once("\n  hint: ").map(|x| x.1).unwrap_or("");
    assert!(hint.contains(lift), "{args:?}: {message}");
}

/// `treeval args` exits 0.
fn scores(args: &[&str]) {
    let o = treeval(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", outcome(&o));
}

#[test]
fn ted_with_every_sentence_over_max_cost() {
    let args = ["ted", "-q", "--gold", GOLD, "--parse", SYS];
    scores_nothing(
        &[&args[..], &["--max-cost", "1"]].concat(),
        "all 3 sentences kept of the 3 read are over the edit distance's limits (--max-cost 1",
        "raise --max-cost",
    );
    scores(&[&args[..], &["--max-cost", "2024"]].concat());
}

#[test]
fn deps_and_ud_where_that_keeps_no_word() {
    for command in ["deps", "ud"] {
        let args = [command, "-q", GOLD, SYS];
        scores_nothing(
            &[&args[..], &["--where", "deprel=expl"]].concat(),
            "--where gold.deprel=expl ",
            "widen or drop --where",
        );
        scores(&[&args[..], &["--where", "deprel=nsubj"]].concat());
    }
}

#[test]
fn deps_punctuation_policy_that_excludes_every_word() {
    let dir = scratch("punct");
    let text = "# sent_id = 1\n1\t\"\t\"\tPUNCT\t``\t_\t0\troot\t_\t_\n2\t!\t!\tPUNCT\t.\t_\t1\tpunct\t_\t_\n\n";
    std::fs::write(dir.join("p.conllu"), text).unwrap();
    let o = treeval_in(
        &dir,
        &["deps", "-q", "--punct", "form", "p.conllu", "p.conllu"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", outcome(&o));
    let err = stderr(&o);
    assert!(
        err.contains("nothing is scored: the punctuation policy 'form' excluded all 2 words of p.conllu (1 sentences read)")
            && err.contains("hint: choose another --punct policy (--punct include scores every word)"),
        "{err}"
    );
    let o = treeval_in(
        &dir,
        &["deps", "-q", "--punct", "include", "p.conllu", "p.conllu"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", outcome(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn brackets_where_that_keeps_no_bracket_or_no_sentence() {
    let (g, t) = (
        "testdata/brackets/debug/gold.txt",
        "testdata/brackets/debug/test.txt",
    );
    let args = ["brackets", "-q", g, t];
    scores_nothing(
        &[&args[..], &["--where", "label=SBAR"]].concat(),
        "--where label=SBAR keeps no bracket of testdata/brackets/debug/test.txt",
        "widen or drop --where",
    );
    scores_nothing(
        &[&args[..], &["--where", "length=51+"]].concat(),
        "keeps no scored sentence of",
        "widen or drop --where",
    );
    scores(&[&args[..], &["--where", "label=NP"]].concat());
}

#[test]
fn align_with_every_link_null_and_left_out() {
    let dir = scratch("null");
    std::fs::write(dir.join("g"), "0001 0 1 S\n0001 2 0 S\n").unwrap();
    std::fs::write(dir.join("h"), "0001 0 1 S\n").unwrap();
    let o = treeval_in(&dir, &["align", "-q", "g", "h"]);
    assert_eq!(o.status.code(), Some(1), "{}", outcome(&o));
    let err = stderr(&o);
    assert!(
        err.contains("nothing is scored: every link of g and h has a NULL side (3), and NULL links are left out (1 sentence pairs read)\n  hint: --null include scores them"),
        "{err}"
    );
    let o = treeval_in(&dir, &["align", "-q", "--null", "include", "g", "h"]);
    assert_eq!(o.status.code(), Some(0), "{}", outcome(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A sentence selection that keeps nothing: the same rule and wording in the commands
/// whose units are only ever left out by it (relations, pts, nbest), and in the others.
#[test]
fn a_selection_that_keeps_nothing_in_every_command() {
    let pts = common::pts_inputs("examples/pts/");
    let pts: Vec<&str> = pts.split(' ').collect();
    let runs: Vec<Vec<&str>> = vec![
        vec!["deps", GOLD, SYS],
        vec!["ud", GOLD, SYS],
        vec!["relations", GOLD, SYS],
        vec!["ted", "--gold", GOLD, "--parse", SYS],
        [&["pts"][..], &pts].concat(),
        vec![
            "nbest",
            "testdata/nbest/alpino-example/example.gold.conllu",
            "testdata/nbest/alpino-example/example.nbest.conllu",
        ],
        vec![
            "brackets",
            "testdata/brackets/debug/gold.txt",
            "testdata/brackets/debug/test.txt",
        ],
        vec![
            "align",
            "testdata/align/gold.naacl",
            "testdata/align/hyp.pharaoh",
            "--tokens",
            "testdata/align/tokens.src",
            "testdata/align/tokens.tgt",
        ],
    ];
    for run in runs {
        let args = [&run[..], &["-q", "--min-len", "1000"]].concat();
        scores_nothing(
            &args,
            "the sentence selection (",
            "check --sent-id, --min-len and --max-len",
        );
        scores(&[&run[..], &["-q", "--min-len", "1"]].concat());
    }
}

/// A part written with `--emit-state` scores nothing with exit 0 and writes its state; the
/// merge of such parts is the error of one run.
#[test]
fn a_part_that_scores_nothing_writes_its_state_and_the_merge_fails() {
    let dir = scratch("parts");
    let root = common::root();
    let (g, s) = (root.join(GOLD), root.join(SYS));
    let (g, s) = (path(&g), path(&s));
    for (command, args, why) in [
        (
            "ted",
            vec!["--gold", g, "--parse", s, "--max-cost", "1"],
            "over the edit distance's limits",
        ),
        (
            "deps",
            vec![g, s, "--where", "deprel=expl"],
            "--where gold.deprel=expl",
        ),
        (
            "ud",
            vec![g, s, "--where", "deprel=expl"],
            "--where gold.deprel=expl",
        ),
    ] {
        let state = format!("{command}.json");
        let args = [&[command, "-q", "--emit-state", state.as_str()][..], &args].concat();
        let o = treeval_in(&dir, &args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", outcome(&o));
        assert!(dir.join(&state).is_file());
        let o = treeval_in(&dir, &["merge", "-q", &state]);
        assert_eq!(o.status.code(), Some(1), "{command}: {}", outcome(&o));
        let err = stderr(&o);
        assert!(
            err.contains("nothing is scored: ") && err.contains(why),
            "{command}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// evaluate.pl's lines of a run without a sentence: nothing is scored (with --compat
/// alpino, evaluate.pl's own death, as before).
#[test]
fn nbest_without_a_sentence() {
    let empty = "testdata/nbest/alpino/no-lines.txt";
    scores_nothing(
        &["nbest", "--alpino", empty],
        "testdata/nbest/alpino/no-lines.txt holds no sentence with candidates",
        "give evaluate.pl's lines of a run (--alpino)",
    );
    let o = treeval(&["nbest", "--compat", "alpino", "--alpino", empty]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("evaluate.pl dies dividing by zero"));
    scores(&["nbest", "--alpino", "testdata/nbest/alpino/single.txt"]);
}
