//! Sentence selection (`--sent-id`, `--min-len`, `--max-len`) in every command: the
//! scores of a selection are exactly those of the files cut down to the kept sentences
//! beforehand (made here), the counts are shown in text and JSON, the signature records
//! the selection, and bad selections are errors.

mod common;

use std::path::{Path, PathBuf};

use common::{root, stderr, treeval_in};

/// A scratch folder for the filtered files.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("treeval-select-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap()
}

/// The sentences `keep` (1-based) of a CoNLL file.
fn conllu(text: &str, keep: &[usize]) -> String {
    let blocks: Vec<&str> = text
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .collect();
    let mut out = String::new();
    for &k in keep {
        out.push_str(blocks[k - 1].trim_matches('\n'));
        out.push_str("\n\n");
    }
    out
}

/// Lines `keep` (1-based) of a file with one sentence per line.
fn lines(text: &str, keep: &[usize]) -> String {
    let all: Vec<&str> = text.lines().collect();
    keep.iter().map(|&k| format!("{}\n", all[k - 1])).collect()
}

/// The links of sentences `keep` (1-based) of a NAACL file, renumbered 1, 2, ….
fn naacl(text: &str, keep: &[usize]) -> String {
    let mut out = String::new();
    for (new, &k) in keep.iter().enumerate() {
        for l in text.lines() {
            let mut f = l.split_whitespace();
            if f.next().and_then(|n| n.parse::<usize>().ok()) == Some(k) {
                let rest: Vec<&str> = f.collect();
                out.push_str(&format!("{} {}\n", new + 1, rest.join(" ")));
            }
        }
    }
    out
}

/// `treeval args…` from `dir` as JSON (it must succeed).
#[track_caller]
fn json_in(dir: &Path, args: &[&str]) -> serde_json::Value {
    let o = treeval_in(dir, &[args, &["--format", "json", "-q"]].concat());
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The selection run (from the repository root) and the run on the pre-filtered files
/// (from `dir`) give the same sections; the selection's JSON object and signature are
/// there; returns the selection's JSON.
#[track_caller]
fn same_scores(selected: &[&str], dir: &Path, filtered: &[&str], sel: &str) -> serde_json::Value {
    let mut a = json_in(&root(), selected);
    let b = json_in(dir, filtered);
    // brackets titles its first section by the sentences it covers
    for (x, y) in a["sections"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .zip(b["sections"].as_array().unwrap())
    {
        if x["title"]
            .as_str()
            .is_some_and(|t| t.starts_with("kept sentences"))
        {
            assert_eq!(y["title"], "all sentences");
            x["title"] = y["title"].clone();
        }
    }
    assert_eq!(a["sections"], b["sections"], "{selected:?}");
    assert!(!a["sections"].as_array().unwrap().is_empty());
    let sig = a["signature"].as_str().unwrap();
    assert!(
        sig.ends_with(&format!("|sel:{sel}")) || sig.contains(&format!("|sel:{sel}|")),
        "{sig}"
    );
    assert!(b["selection"].is_null());
    assert!(!b["signature"].as_str().unwrap().contains("|sel:"));
    a["selection"].clone()
}

fn tally(j: &serde_json::Value, which: &str) -> (u64, Option<u64>) {
    (
        j[which]["sentences"].as_u64().unwrap(),
        j[which]["words"].as_u64(),
    )
}

// examples/gold.conllu: ex1 4 words, ex2 8, ex3 9.

#[test]
fn deps_max_len_and_sent_id_equal_the_prefiltered_files() {
    let d = scratch("deps");
    let (g, s) = (read("examples/gold.conllu"), read("examples/sys.conllu"));
    std::fs::write(d.join("g.conllu"), conllu(&g, &[1, 2])).unwrap();
    std::fs::write(d.join("s.conllu"), conllu(&s, &[1, 2])).unwrap();
    let base = ["deps", "examples/gold.conllu", "examples/sys.conllu"];
    let sel = same_scores(
        &[&base[..], &["--max-len", "8"]].concat(),
        &d,
        &["deps", "g.conllu", "s.conllu"],
        "len≤8",
    );
    assert_eq!(tally(&sel, "kept"), (2, Some(12)));
    assert_eq!(tally(&sel, "excluded_by_length"), (1, Some(9)));
    assert_eq!(sel["max_len"], 8);
    // the same by id, from a file of ids (a comment, a blank line, an id not in gold)
    std::fs::write(d.join("ids.txt"), "# dev\nex1\n\nex2\nex9\n").unwrap();
    let ids = d.join("ids.txt");
    let sel = same_scores(
        &[&base[..], &["--sent-id", ids.to_str().unwrap()]].concat(),
        &d,
        &["deps", "g.conllu", "s.conllu"],
        "id=file:ids.txt(3)",
    );
    assert_eq!(tally(&sel, "excluded_by_id"), (1, Some(9)));
    assert_eq!(sel["sent_id"]["kind"], "file");
    assert_eq!(sel["sent_id"]["missing"], 1);
    assert_eq!(sel["sent_id"]["missing_examples"][0], "ex9");
    // and by a regular expression over whole ids, with the counts shown in text
    let o = common::stdout_ok(&[&base[..], &["--sent-id", "ex[12]"]].concat());
    // the note wrapped at 100 columns, read as one line
    let o = o.replace("\n  ", " ");
    assert!(
        o.contains("selection (sentences whose id matches the regular expression 'ex[12]' (as a whole)): 2 of 3 sentences scored (12 words); excluded (read and checked, not scored): 1 by id (9 words)"),
        "{o}"
    );
    assert!(
        o.lines().next().unwrap().ends_with("|sel:id=re:ex[12]"),
        "{o}"
    );
    // CSV: the counts as lines of section `selection`
    let csv = common::stdout_ok(&[&base[..], &["--sent-id", "ex[12]", "--format", "csv"]].concat());
    for line in [
        "selection,,kept,sentences,2,",
        "selection,,excluded_by_id,words,9,",
    ] {
        assert!(csv.contains(line), "{csv}");
    }
    // ids must match whole: 'ex' keeps nothing, which is an error
    let o = common::treeval(&[&base[..], &["--sent-id", "ex"]].concat());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("kept none of the 3 gold sentences"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_selections_are_errors() {
    let base = ["deps", "examples/gold.conllu", "examples/sys.conllu"];
    let cases: [(&[&str], i32, &str); 4] = [
        (
            &["--sent-id", "ex["],
            2,
            "not a valid regular expression: unclosed character class",
        ),
        (
            &["--min-len", "9", "--max-len", "8"],
            2,
            "--min-len 9 is greater than --max-len 8",
        ),
        (&["--min-len", "10"], 1, "kept none of the 3 gold sentences"),
        (&["--max-len", "x"], 2, "invalid value 'x'"),
    ];
    for (extra, code, needle) in cases {
        let o = common::treeval(&[&base[..], extra].concat());
        assert_eq!(o.status.code(), Some(code), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{extra:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{extra:?}");
    }
    // the other commands refuse it where it cannot apply
    let refused: [&[&str]; 5] = [
        &[
            "deps",
            "--compat",
            "eval07",
            "examples/gold.conllu",
            "examples/sys.conllu",
        ],
        &["ted", "--distance", "testdata/ted/bad.txt"],
        &[
            "ud",
            "--compat",
            "conll18",
            "examples/gold.conllu",
            "examples/sys.conllu",
        ],
        &[
            "align",
            "testdata/align/gold.naacl",
            "testdata/align/hyp.pharaoh",
        ],
        &[
            "brackets",
            "--compat",
            "evalb",
            "testdata/brackets/skipped-blank/gold.txt",
            "testdata/brackets/skipped-blank/test.txt",
        ],
    ];
    for args in refused {
        let o = common::treeval(&[args, &["--max-len", "5"]].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn ud_and_relations_select_gold_sentences() {
    let d = scratch("ud");
    let (g, s) = (read("examples/gold.conllu"), read("examples/sys.conllu"));
    std::fs::write(d.join("g.conllu"), conllu(&g, &[1, 3])).unwrap();
    std::fs::write(d.join("s.conllu"), conllu(&s, &[1, 3])).unwrap();
    for cmd in ["ud", "relations"] {
        let sel = same_scores(
            &[
                cmd,
                "examples/gold.conllu",
                "examples/sys.conllu",
                "--sent-id",
                "ex1|ex3",
            ],
            &d,
            &[cmd, "g.conllu", "s.conllu"],
            "id=re:ex1\\|ex3",
        );
        assert_eq!(tally(&sel, "kept"), (2, Some(13)), "{cmd}");
        assert_eq!(sel["sent_id"]["kind"], "regex");
    }
    // ud --by and --per-relation only see the kept sentences too
    let a = json_in(
        &root(),
        &[
            "ud",
            "examples/gold.conllu",
            "examples/sys.conllu",
            "--min-len",
            "5",
            "--by",
            "upos",
        ],
    );
    std::fs::write(d.join("g2.conllu"), conllu(&g, &[2, 3])).unwrap();
    std::fs::write(d.join("s2.conllu"), conllu(&s, &[2, 3])).unwrap();
    let b = json_in(&d, &["ud", "g2.conllu", "s2.conllu", "--by", "upos"]);
    assert_eq!(a["sections"], b["sections"]);
    assert_eq!(
        a["signature"].as_str().unwrap().rsplit('|').next(),
        Some("sel:len≥5")
    );
}

#[test]
fn ted_selects_sentences() {
    let d = scratch("ted");
    let (g, s) = (read("examples/gold.conllu"), read("examples/sys.conllu"));
    std::fs::write(d.join("g.conllu"), conllu(&g, &[2, 3])).unwrap();
    std::fs::write(d.join("s.conllu"), conllu(&s, &[2, 3])).unwrap();
    let sel = same_scores(
        &[
            "ted",
            "--gold",
            "examples/gold.conllu",
            "--parse",
            "examples/sys.conllu",
            "--min-len",
            "5",
        ],
        &d,
        &["ted", "--gold", "g.conllu", "--parse", "s.conllu"],
        "len≥5",
    );
    assert_eq!(tally(&sel, "excluded_by_length"), (1, Some(4)));
}

#[test]
fn brackets_selects_trees_by_evalbs_length() {
    let d = scratch("brackets");
    // lengths 2, 3 and 5 (the -NONE- word is not counted, as CUTOFF_LEN counts)
    let gold = "(S (NP (DT a) (NN b)))\n(S (NP (DT a) (NN b)) (VP (VB c)))\n(S (NP (-NONE- *) (DT a) (NN b)) (VP (VB c) (NP (DT d) (NN e))))\n";
    let test = "(S (NP (DT a)) (NN b))\n(S (NP (DT a) (NN b)) (VP (VB c)))\n(S (NP (-NONE- *) (DT a)) (VP (NN b) (VB c) (NP (DT d) (NN e))))\n";
    std::fs::write(d.join("gold"), gold).unwrap();
    std::fs::write(d.join("test"), test).unwrap();
    std::fs::write(d.join("g13"), lines(gold, &[1, 3])).unwrap();
    std::fs::write(d.join("t13"), lines(test, &[1, 3])).unwrap();
    let (g, t) = (d.join("gold"), d.join("test"));
    let (g, t) = (g.to_str().unwrap(), t.to_str().unwrap());
    let sel = same_scores(
        &["brackets", g, t, "--sent-id", "1|3"],
        &d,
        &["brackets", "g13", "t13"],
        "id=re:1\\|3",
    );
    assert_eq!(tally(&sel, "kept"), (2, Some(7)));
    std::fs::write(d.join("g12"), lines(gold, &[1, 2])).unwrap();
    std::fs::write(d.join("t12"), lines(test, &[1, 2])).unwrap();
    let sel = same_scores(
        &["brackets", g, t, "--max-len", "4"],
        &d,
        &["brackets", "g12", "t12"],
        "len≤4",
    );
    assert_eq!(tally(&sel, "excluded_by_length"), (1, Some(5)));
}

#[test]
fn align_selects_sentence_pairs() {
    let d = scratch("align");
    let (g, h) = (
        read("testdata/align/gold.naacl"),
        read("testdata/align/hyp.pharaoh"),
    );
    let (src, tgt) = (
        read("testdata/align/tokens.src"),
        read("testdata/align/tokens.tgt"),
    );
    std::fs::write(d.join("g.naacl"), naacl(&g, &[1, 3])).unwrap();
    std::fs::write(d.join("h.pharaoh"), lines(&h, &[1, 3])).unwrap();
    std::fs::write(d.join("src"), lines(&src, &[1, 3])).unwrap();
    std::fs::write(d.join("tgt"), lines(&tgt, &[1, 3])).unwrap();
    let full = [
        "align",
        "testdata/align/gold.naacl",
        "testdata/align/hyp.pharaoh",
        "--tokens",
        "testdata/align/tokens.src",
        "testdata/align/tokens.tgt",
    ];
    let cut = ["align", "g.naacl", "h.pharaoh", "--tokens", "src", "tgt"];
    // sentence 2 has 4 source words, 1 has 4, 3 has 2: by id and by length
    let sel = same_scores(
        &[&full[..], &["--sent-id", "1|3"]].concat(),
        &d,
        &cut,
        "id=re:1\\|3",
    );
    assert_eq!(tally(&sel, "kept"), (2, Some(6)));
    let o = common::treeval(&[
        "align",
        "testdata/align/gold.naacl",
        "testdata/align/hyp.pharaoh",
        "--max-len",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--tokens"), "{}", stderr(&o));
}

#[test]
fn pts_selects_on_side_a() {
    let d = scratch("pts");
    let p = |f: &str| read(&format!("examples/pts/{f}"));
    for f in [
        "gold.en.conllu",
        "gold.de.conllu",
        "parser.en.conllu",
        "parser.de.conllu",
    ] {
        std::fs::write(d.join(f), conllu(&p(f), &[2, 3])).unwrap();
    }
    std::fs::write(
        d.join("gold.en-de.naacl"),
        naacl(&p("gold.en-de.naacl"), &[2, 3]),
    )
    .unwrap();
    std::fs::write(
        d.join("aligner.en-de.pharaoh"),
        lines(&p("aligner.en-de.pharaoh"), &[2, 3]),
    )
    .unwrap();
    let full = common::pts_inputs("examples/pts/");
    let cut = common::pts_inputs("");
    let sel = same_scores(
        &[&["pts"][..], &common::argv(&full), &["--min-len", "5"]].concat(),
        &d,
        &[&["pts"][..], &common::argv(&cut)].concat(),
        "len≥5",
    );
    assert_eq!(tally(&sel, "kept"), (2, Some(12)));
}

/// Per-sentence output and tests see only the kept sentences (numbered as in the gold).
#[test]
fn per_sentence_rows_are_the_kept_sentences() {
    let d = scratch("per-sentence");
    let out = d.join("rows.jsonl");
    let o = common::treeval(&[
        "deps",
        "examples/gold.conllu",
        "examples/sys.conllu",
        "examples/sys2.conllu",
        "--sent-id",
        "ex2|ex3",
        "--per-sentence",
        out.to_str().unwrap(),
        "--test",
        "ar",
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    let ids: Vec<String> = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["sent_id"].to_string())
        .collect();
    assert_eq!(ids, ["\"ex2\"", "\"ex2\"", "\"ex3\"", "\"ex3\""]);
    for cmd in ["ud", "relations"] {
        let o = common::treeval(&[
            cmd,
            "examples/gold.conllu",
            "examples/sys.conllu",
            "--max-len",
            "8",
            "--per-sentence",
            out.to_str().unwrap(),
            "-q",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(&out).unwrap();
        let numbers: Vec<u64> = text
            .lines()
            .skip(1)
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["sentence"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_eq!(numbers, [1, 2], "{cmd}");
    }
}

/// `nbest`: the gold sentence decides, its candidates follow it (testdata/nbest/
/// alpino-example: 3 sentences of 5, 4 and 8 syntactic words (the third has a range
/// 3-4 "des" = de + les) with 3, 4 and 4 candidates).
#[test]
fn nbest_selects_gold_sentences_with_their_candidates() {
    let d = scratch("nbest");
    let dir = "testdata/nbest/alpino-example";
    let g = read(&format!("{dir}/example.gold.conllu"));
    let n = read(&format!("{dir}/example.nbest.conllu"));
    let id = "emea-fr-test_00184";
    std::fs::write(d.join("g.conllu"), conllu(&g, &[2])).unwrap();
    let of_id: String = n
        .split("\n\n")
        .filter(|b| b.contains(&format!("# sent_id = {id}\n")))
        .map(|b| format!("{}\n\n", b.trim_matches('\n')))
        .collect();
    assert_eq!(of_id.matches("# rank = ").count(), 4);
    std::fs::write(d.join("n.conllu"), of_id).unwrap();
    let (gold, nbest) = (
        format!("{dir}/example.gold.conllu"),
        format!("{dir}/example.nbest.conllu"),
    );
    let sel = same_scores(
        &["nbest", &gold, &nbest, "--sent-id", "emea-.*"],
        &d,
        &["nbest", "g.conllu", "n.conllu"],
        "id=re:emea-.*",
    );
    assert_eq!(tally(&sel, "kept"), (1, Some(4)));
    assert_eq!(tally(&sel, "excluded_by_id"), (2, Some(5 + 8)));
    // --where is not an nbest option, and a selection does not apply to evaluate.pl's lines
    let o = common::treeval(&["nbest", &gold, &nbest, "--where", "deprel=nsubj"]);
    assert_eq!(o.status.code(), Some(2));
    let lines = format!("{dir}/example.parser.alpino.txt");
    let o = common::treeval(&["nbest", "--alpino", &lines, "--max-len", "5"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
