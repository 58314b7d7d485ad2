//! A system that is the gold (the same path, or a copy: the same text) scores 100 against
//! itself, which says nothing of a parser: every command that scores systems against a
//! gold warns, with one warning kind (`system_is_gold`), on stderr and in the JSON report
//! (issue 38). A system that is not the gold gets no such warning.

mod common;

use common::corpus::scratch;
use common::{root, stderr, treeval_in};
use serde_json::Value;

/// The warnings of kind `system_is_gold` of `treeval args --format json`, by position.
fn gold_warnings(args: &[&str]) -> Vec<String> {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let o = treeval_in(&root(), &a);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    let err = stderr(&o);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    // one message for the gold's path and a copy: warnings saying the same word for word
    // are one entry, its positions each system's
    let found: Vec<String> = (v["warnings"].as_array().unwrap().iter())
        .filter(|w| w["kind"] == "system_is_gold")
        .flat_map(|w| match w["positions"].as_array() {
            Some(ps) => ps.iter().map(|p| p.as_str().unwrap().to_owned()).collect(),
            None => vec![w["position"].as_str().unwrap().to_owned()],
        })
        .collect();
    // the same warnings on stderr, with what to do
    if let Some(p) = found.first() {
        assert!(
            err.contains(&format!("warning: {p}: expected a system's output, found ")),
            "{args:?}: {err}"
        );
    }
    for p in found.iter().skip(1) {
        assert!(err.contains(p.as_str()), "{args:?}: {err}");
    }
    if !found.is_empty() {
        assert!(
            err.contains("it scores 100 against itself\n  hint: give the system's own output"),
            "{err}"
        );
    }
    found
}

#[test]
fn every_command_warns_about_a_system_that_is_its_gold() {
    let dir = scratch("system-is-gold");
    let copy = dir.join("copy.conllu");
    std::fs::copy(root().join("examples/gold.conllu"), &copy).unwrap();
    let copy = copy.to_str().unwrap();
    let (g, s) = ("examples/gold.conllu", "examples/sys.conllu");
    for c in ["deps", "ud", "relations"] {
        // the gold's own path, a copy, and a real system (no warning)
        let found = gold_warnings(&[c, g, g, copy, s]);
        assert_eq!(found, [g, copy], "{c}");
        assert!(gold_warnings(&[c, g, s]).is_empty(), "{c}");
    }
    let b = "testdata/brackets/careful-paper";
    let (bg, bt) = (format!("{b}/gold.txt"), format!("{b}/test.txt"));
    assert_eq!(gold_warnings(&["brackets", &bg, &bg]), [bg.as_str()]);
    assert!(gold_warnings(&["brackets", &bg, &bt]).is_empty());
    let a = "testdata/align";
    let (ag, ah) = (format!("{a}/gold.naacl"), format!("{a}/hyp.pharaoh"));
    assert_eq!(gold_warnings(&["align", &ag, &ag]), [ag.as_str()]);
    assert!(gold_warnings(&["align", &ag, &ah]).is_empty());
    let t = "testdata/ted";
    let tg = format!("{t}/lexical-gold.conllu");
    let tp = format!("{t}/lexical-parse.conllu");
    assert_eq!(
        gold_warnings(&["ted", "--gold", &tg, "--system", &tg]),
        [tg.as_str()]
    );
    assert!(gold_warnings(&["ted", "--gold", &tg, "--system", &tp]).is_empty());
    // pts: a system's side a and its alignment are the gold's
    let p = "examples/pts/";
    let pts = common::pts_inputs(p);
    let mut args: Vec<String> = pts.split_whitespace().map(str::to_owned).collect();
    args.insert(0, "pts".into());
    let clean: Vec<&str> = args.iter().map(String::as_str).collect();
    assert!(gold_warnings(&clean).is_empty());
    let more = format!(
        "--sys-a {p}gold.en.conllu --sys-b {p}parser.de.conllu --sys-align {p}gold.en-de.naacl"
    );
    args.extend(more.split_whitespace().map(str::to_owned));
    let with: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(
        gold_warnings(&with),
        [format!("{p}gold.en.conllu"), format!("{p}gold.en-de.naacl")]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `table` evaluates each treebank with its command: a system row whose file is the
/// treebank's gold is warned about too.
#[test]
fn table_warns_about_a_system_that_is_its_gold() {
    let dir = scratch("table-gold");
    let ex = root().join("examples");
    for f in ["gold.conllu", "sys.conllu"] {
        std::fs::copy(ex.join(f), dir.join(f)).unwrap();
    }
    std::fs::write(
        dir.join("manifest.tsv"),
        "treebank\tgold\tsystem\tfile\nex\tgold.conllu\tparser\tsys.conllu\nex\tgold.conllu\toracle\tgold.conllu\n",
    )
    .unwrap();
    let o = treeval_in(&dir, &["table", "manifest.tsv", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let kinds: Vec<&Value> = (v["warnings"].as_array().unwrap().iter())
        .filter(|w| w["kind"] == "system_is_gold")
        .collect();
    assert_eq!(kinds.len(), 1, "{}", v["warnings"]);
    assert!(
        kinds[0]["message"]
            .as_str()
            .unwrap()
            .contains("found the same text as the gold file"),
        "{}",
        kinds[0]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
