//! Sanity warnings on real-looking files (testdata/sanity: the first 5 sentences of
//! UD_English-EWT dev, gold, and spaCy en_core_web_sm's greedy parse of them from
//! /work/shared/data/nbest), each in the report's warnings and in the signature; and the
//! MaltEval-style lists of `--punct`.

mod common;
use common::{cell, counts, keyed_cell, keys, stderr, treeval};

const GOLD: &str = "testdata/sanity/ewt-gold.conllu";
/// spaCy's parse: labels as gold's, except one `xcomp` (never in gold), and no
/// `nmod:desc` (gold has one).
const SYS: &str = "testdata/sanity/ewt-sys.conllu";
/// [`SYS`] with every `root` written `ROOT`.
const SYS_ROOT: &str = "testdata/sanity/ewt-sys-ROOT.conllu";
/// [`SYS`] with UD v1's `dobj` for every `obj`.
const SYS_DOBJ: &str = "testdata/sanity/ewt-sys-dobj.conllu";
/// [`GOLD`] with XPOS `_` on every word.
const GOLD_NOXPOS: &str = "testdata/sanity/ewt-gold-noxpos.conllu";

/// The JSON report of `treeval args…` (which must succeed) and its standard error.
fn json(args: &[&str]) -> (serde_json::Value, String) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let o = treeval(&all);
    assert!(o.status.success(), "{}", stderr(&o));
    (serde_json::from_slice(&o.stdout).unwrap(), stderr(&o))
}

/// The report's warning messages.
fn messages(v: &serde_json::Value) -> Vec<String> {
    v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["message"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn root_in_upper_case_warns_with_the_case_insensitive_las() {
    let (fixed, _) = json(&["deps", GOLD, SYS]);
    let (v, err) = json(&["deps", GOLD, SYS_ROOT]);
    // the LAS with the case fixed by hand is the figure the warning gives
    assert_eq!(counts(cell(&fixed, "scores", 0, "LAS")), [72, 86]);
    assert_eq!(counts(cell(&v, "scores", 0, "LAS")), [67, 86]);
    let m = "system labels never in gold differ from gold labels only by case: 'ROOT' (5 words) \
             vs gold 'root'; LAS would be 83.72 with labels compared case-insensitively (it is 77.91)";
    assert!(messages(&v).iter().any(|x| x == m), "{:?}", messages(&v));
    assert!(err.contains(m), "{err}");
    assert_eq!(
        v["signature"],
        "treeval 0.1.0|deps|punct:include|labels:full|avg:micro|warn:label-case,unseen-labels,subtypes"
    );
    // the case-fixed system has no case warning
    assert!(!messages(&fixed).iter().any(|x| x.contains("only by case")));
}

#[test]
fn labels_never_in_gold_are_listed_with_their_counts() {
    let (v, _) = json(&["deps", GOLD, SYS_DOBJ]);
    assert!(messages(&v).contains(
        &"2 system labels never occur in gold (their words all have a wrong label): \
          'dobj' (7 words), 'xcomp' (1)"
            .to_owned()
    ));
    let (v, _) = json(&["deps", GOLD, SYS]);
    assert!(messages(&v).contains(
        &"a system label never occurs in gold (its words all have a wrong label): 'xcomp' (1 word)"
            .to_owned()
    ));
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .ends_with("|warn:unseen-labels,subtypes"));
}

#[test]
fn subtypes_in_one_file_only_are_listed() {
    let (v, _) = json(&["deps", GOLD, SYS]);
    assert!(messages(&v)
        .contains(&"label subtypes in one file only: gold only 'nmod:desc' (1 word)".to_owned()));
    // the other way round: gold's nmod:desc is a subtype the "system" has and gold not
    let (v, _) = json(&["deps", SYS, GOLD]);
    let m = messages(&v);
    assert!(
        m.contains(&"label subtypes in one file only: system only 'nmod:desc' (1 word)".to_owned()),
        "{m:?}"
    );
    // universal labels have no subtypes: no warning
    let (v, _) = json(&["deps", "--labels", "universal", GOLD, SYS]);
    assert!(!messages(&v).iter().any(|x| x.contains("subtypes")));
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .ends_with("|warn:unseen-labels"));
}

#[test]
fn by_xpos_with_an_empty_gold_xpos_column_warns() {
    let (v, _) = json(&["deps", "--by", "xpos", GOLD_NOXPOS, SYS]);
    assert!(messages(&v).iter().any(|x| x
        == "the gold XPOS column is '_' on every word: the breakdown by xpos has one group, '_'"));
    assert!(v["signature"].as_str().unwrap().contains("empty-xpos"));
    let (v, _) = json(&["deps", "--by", "xpos", GOLD, SYS]);
    assert!(!messages(&v).iter().any(|x| x.contains("XPOS")));
}

/// The LAS and UAS counts summed over the gold groups of breakdown `section` whose key
/// is not in `skip`.
fn summed_without(v: &serde_json::Value, section: &str, skip: &[&str]) -> [u64; 3] {
    let mut t = [0; 3];
    for k in keys(v, section, 0) {
        if skip.contains(&k.as_str()) {
            continue;
        }
        let las = counts(keyed_cell(v, section, 0, &k, "LAS"));
        let uas = counts(keyed_cell(v, section, 0, &k, "UAS"));
        t[0] += las[0];
        t[1] += uas[0];
        t[2] += las[1];
    }
    t
}

#[test]
fn punct_lists_skip_every_listed_label_or_tag() {
    let (all, _) = json(&["deps", "--by", "deprel,upos", GOLD, SYS]);
    for (policy, section, skip, excluded) in [
        ("deprel=punct,flat", "by:deprel", &["punct", "flat"][..], 17),
        ("upos=PUNCT,NUM", "by:upos", &["PUNCT", "NUM"][..], 12),
        ("deprel=punct", "by:deprel", &["punct"][..], 8),
    ] {
        let (v, _) = json(&["deps", "--punct", policy, GOLD, SYS]);
        let las = counts(cell(&v, "scores", 0, "LAS"));
        let uas = counts(cell(&v, "scores", 0, "UAS"));
        // the scores of the words left are those of the run scoring all, without them
        assert_eq!(
            [las[0], uas[0], las[1]],
            summed_without(&all, section, skip),
            "{policy}"
        );
        assert_eq!(las[1], 86 - excluded, "{policy}");
        assert_eq!(
            v["inputs"][1]["counts"]["excluded_words"], excluded,
            "{policy}"
        );
        assert!(v["signature"]
            .as_str()
            .unwrap()
            .contains(&format!("|punct:{policy}|")));
    }
}

#[test]
fn punct_lists_reject_empty_items() {
    for bad in ["deprel=", "deprel=punct,", "upos=,PUNCT", "upos=PUNCT,,SYM"] {
        let o = treeval(&["deps", "--punct", bad, GOLD, SYS]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&o).contains("deprel=LABEL[,LABEL…]"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn ud_gold_without_xpos_makes_xpos_and_alltags_not_applicable() {
    let (v, err) = json(&["ud", GOLD_NOXPOS, SYS]);
    let m = "the gold XPOS column is '_' on every word: XPOS, AllTags not applicable (n/a) in the report";
    // the system (the sanity fixture has no enhanced graph) gets its own warning
    let deps = "the system DEPS column is '_' on every word (no enhanced graph): ELAS, EULAS not applicable (n/a) for this system in the report";
    assert_eq!(messages(&v), [m, deps]);
    assert!(err.contains(m), "{err}");
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .ends_with("|roots:one|warn:empty-xpos"));
    let f1 = |v: &serde_json::Value, metric: &str| {
        keyed_cell(v, "scores", 0, metric, "F1")["value"].as_f64()
    };
    let (full, _) = json(&["ud", GOLD, SYS]);
    for metric in ["XPOS", "AllTags"] {
        assert_eq!(f1(&v, metric), None, "{metric}");
        assert!(f1(&full, metric).is_some(), "{metric}");
    }
    // the measures that do not read XPOS keep their numbers
    for metric in ["UPOS", "UFeats", "Lemmas", "LAS", "MLAS", "BLEX"] {
        assert_eq!(f1(&v, metric), f1(&full, metric), "{metric}");
    }
    assert_eq!(messages(&full), [deps], "{:?}", messages(&full));
}

#[test]
fn ud_compat_outputs_keep_the_reference_numbers_with_an_empty_gold_column() {
    for compat in ["conll18", "udeval"] {
        let o = treeval(&["ud", "--compat", compat, "-v", GOLD_NOXPOS, SYS]);
        assert!(o.status.success());
        let out = common::stdout(&o);
        // conll18_ud_eval.py compares '_' with the system's tags: XPOS 0
        assert!(
            out.contains("XPOS       |      0.00 |      0.00 |      0.00 |      0.00"),
            "{out}"
        );
        assert!(!out.contains("n/a"), "{out}");
        assert!(stderr(&o).contains("the gold XPOS column is '_' on every word"));
        let a = common::stdout(&treeval(&["ud", "--compat", compat, GOLD_NOXPOS, SYS]));
        let b = common::stdout(&treeval(&["ud", "--compat", compat, GOLD, SYS]));
        assert_eq!(a, b, "{compat}: LAS, MLAS and BLEX do not read XPOS");
    }
}
