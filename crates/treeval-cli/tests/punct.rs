//! `--punct ptb` and `--punct xpos=LIST` (the words left out by their gold XPOS), and the
//! one escape of every comma-separated list, `\,` for a comma inside an item, on a
//! hand-checked sentence (testdata/punct): 14 words, PTB tags; the system gets the head
//! of `(` (-LRB-), the label of `%` (NN), and the heads of `,` (,) and `--` (:) wrong.

mod common;
use common::{cell, stderr, stdout_ok, treeval};

const G: &str = "testdata/punct/gold.conllu";
const S: &str = "testdata/punct/sys.conllu";

fn json(extra: &[&str]) -> serde_json::Value {
    let mut a = vec!["deps", "-q", "--format", "json"];
    a.extend_from_slice(extra);
    a.extend_from_slice(&[G, S]);
    serde_json::from_str(&stdout_ok(&a)).unwrap()
}

/// (LAS counts, UAS counts, the signature) under `--punct policy`.
fn scored(policy: &str) -> (Vec<u64>, Vec<u64>, String) {
    let v = json(&["--punct", policy]);
    let c = |m: &str| common::counts(cell(&v, "scores", 0, m));
    (
        c("LAS"),
        c("UAS"),
        v["signature"].as_str().unwrap().to_owned(),
    )
}

#[test]
fn ptb_leaves_out_the_five_ptb_punctuation_tags_by_gold_xpos() {
    // include: 14 words; wrong heads ( , -- and the label of % → LAS 10/14, UAS 11/14
    let (las, uas, _) = scored("include");
    assert_eq!((las, uas), (vec![10, 14], vec![11, 14]));
    // ptb: `` '' . , : out (5 words: , `` '' -- .), so -LRB- ( -RRB- ) $ and % (NN) stay:
    // 9 words, the wrong head of ( and the wrong label of % counted → LAS 7/9, UAS 8/9
    let (las, uas, sig) = scored("ptb");
    assert_eq!((las, uas), (vec![7, 9], vec![8, 9]));
    assert!(sig.contains("|punct:ptb|"), "{sig}");
    // form (eval.pl): ( % ) , '' -- . out, `` (Sk) and $ (Sc) stay: 7 words, all right
    let (las, uas, _) = scored("form");
    assert_eq!((las, uas), (vec![7, 7], vec![7, 7]));
    // the same set as a list, the comma escaped: the same words, named as given
    let (las, uas, sig) = scored(r"xpos=``,'',.,\,,:");
    assert_eq!((las, uas), (vec![7, 9], vec![8, 9]));
    assert!(sig.contains(r"|punct:xpos=``,'',.,\,,:|"), "{sig}");
    // the comma alone: 13 words, the wrong heads of ( and -- counted
    let (las, uas, sig) = scored(r"xpos=\,");
    assert_eq!((las, uas), (vec![10, 13], vec![11, 13]));
    assert!(sig.contains(r"|punct:xpos=\,|"), "{sig}");
    let v = json(&["--punct", "ptb"]);
    let conventions = v["conventions"].as_array().unwrap();
    assert!(conventions
        .iter()
        .any(|c| c["name"] == "punctuation" && c["value"] == "ptb"));
}

#[test]
fn an_unescaped_comma_item_is_a_usage_error_that_shows_the_escape() {
    for bad in ["xpos=,", "xpos=``,,,.", "deprel=punct,"] {
        let o = treeval(&["deps", "--punct", bad, G, S]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = stderr(&o);
        assert!(
            err.contains("ptb, deprel=LABEL[,LABEL…], upos=TAG[,TAG…] or xpos=TAG[,TAG…]"),
            "{err}"
        );
        assert!(err.contains(r"hint: a list has no empty item; an item that contains a comma is written with `\,`"), "{err}");
    }
    let help = stdout_ok(&["deps", "--help"]);
    assert!(
        help.contains(r"xpos='\,,.' is the tags ',' and '.'"),
        "{help}"
    );
}

#[test]
fn where_takes_the_same_escape_and_merge_reads_the_escaped_names_back() {
    // --where xpos=\, keeps the one word tagged ',' (its head is wrong)
    let v = json(&[r"--where", r"xpos=\,"]);
    assert_eq!(common::counts(cell(&v, "scores", 0, "UAS")), [0, 1]);
    let sig = v["signature"].as_str().unwrap();
    assert!(sig.contains(r"where:gold.xpos=\,"), "{sig}");
    // `xpos=\,|.`: the comma or the full stop
    let v = json(&[r"--where", r"xpos=\,|."]);
    assert_eq!(common::counts(cell(&v, "scores", 0, "UAS")), [1, 2]);
    // a state keeps the policy's name; merge parses it back to the same words
    let dir = std::env::temp_dir().join(format!("treeval-punct-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("part.json");
    let state = state.to_str().unwrap();
    let direct = json(&["--punct", r"xpos=\,,."]);
    stdout_ok(&[
        "deps",
        "-q",
        "--punct",
        r"xpos=\,,.",
        "--emit-state",
        state,
        G,
        S,
    ]);
    let merged: serde_json::Value =
        serde_json::from_str(&stdout_ok(&["merge", "-q", "--format", "json", state])).unwrap();
    for m in ["LAS", "UAS"] {
        assert_eq!(
            cell(&merged, "scores", 0, m)["counts"],
            cell(&direct, "scores", 0, m)["counts"]
        );
    }
    assert_eq!(common::counts(cell(&merged, "scores", 0, "UAS")), [10, 12]);
    let _ = std::fs::remove_dir_all(&dir);
}
