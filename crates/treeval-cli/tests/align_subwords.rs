//! `treeval align --hyp-subwords`: hypotheses aligned over subword pieces, projected onto
//! the gold's words (issue 19); and, with `--tokens`, the index base a file's links fit
//! and links with NULL on both sides.

use std::process::Output;

mod common;
use common::{stderr, stdout, treeval, value};

const T: &str = "testdata/align-subwords";

fn path(name: &str) -> String {
    format!("{T}/{name}")
}

fn run(args: &[&str]) -> Output {
    let mut a = vec!["align"];
    a.extend_from_slice(args);
    treeval(&a)
}

fn json(args: &[&str]) -> (serde_json::Value, String) {
    let mut a = vec!["--format", "json"];
    a.extend_from_slice(args);
    let o = run(&a);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    (serde_json::from_str(&stdout(&o)).unwrap(), stderr(&o))
}

fn close(x: Option<f64>, y: f64) {
    let x = x.expect("a number");
    assert!((x - y).abs() < 1e-9, "{x} ≠ {y}");
}

/// The toy case, hand-checked. Pieces (source; target), words in brackets:
/// `▁the ▁house s ▁are ▁ red` [the houses are red]; `▁les ▁maison s ▁sont ▁rouge s`
/// [les maisons sont rouges]; sentence 2 `▁hello` [hello]; `▁bon jour` [bonjour].
/// Piece links `0-0 1-1 2-2 2-1 3-3 4-4 5-5 1-3` give the word links (0,0) (1,1) (2,2)
/// (3,3) and (1,2) (house → sont); `0-1` gives (0,0). Gold: S = 1-1 2-2 3-3 of sentence
/// 1 and 1-1 of sentence 2, P = 4-4 of sentence 1. |A| = 6, |A∩S| = 4, |A∩P| = 5:
/// precision 5/6, recall 1, AER = 1 − (4 + 5)/(6 + 4) = 0.1.
fn toy(src: &str, tgt: &str, convention: &str) {
    let (gold, hyp) = (path("toy.gold.naacl"), path("toy.pieces.pharaoh"));
    let (src, tgt) = (path(src), path(tgt));
    let (tok_s, tok_t) = (path("toy.src.tok"), path("toy.tgt.tok"));
    let (v, err) = json(&[
        &gold,
        &hyp,
        "--hyp-subwords",
        &src,
        &tgt,
        "--tokens",
        &tok_s,
        &tok_t,
    ]);
    assert!(err.is_empty(), "{err}");
    close(value(&v, "scores", 0, "links"), 6.0);
    close(value(&v, "scores", 0, "A_and_S"), 4.0);
    close(value(&v, "scores", 0, "A_and_P"), 5.0);
    close(value(&v, "scores", 0, "precision"), 5.0 / 6.0);
    close(value(&v, "scores", 0, "recall"), 1.0);
    close(value(&v, "scores", 0, "AER"), 0.1);
    let sig = v["signature"].as_str().unwrap();
    assert!(sig.ends_with(&format!("|subwords:{convention}")), "{sig}");
    assert!(v["conventions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["name"] == "subwords" && c["value"] == convention));
    assert!(v["notes"][0].as_str().unwrap().contains("6 word link(s)"));
}

#[test]
fn sentencepiece_toy_is_projected_as_hand_checked() {
    toy("toy.sp.src", "toy.sp.tgt", "sentencepiece");
}

#[test]
fn wordpiece_toy_is_projected_as_hand_checked() {
    toy("toy.wp.src", "toy.wp.tgt", "wordpiece");
}

#[test]
fn pieces_that_do_not_make_the_tokens_words_are_an_error() {
    let (gold, hyp) = (path("toy.gold.naacl"), path("toy.pieces.pharaoh"));
    let (src, tgt) = (path("toy.sp.src"), path("toy.sp.tgt"));
    let o = run(&[
        &gold,
        &hyp,
        "--hyp-subwords",
        &src,
        &tgt,
        "--tokens",
        &path("toy.src.tok"),
        &path("toy.bad.tok"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty());
    let e = stderr(&o);
    assert!(
        e.contains(&format!("{tgt}:1: the pieces make 4 word(s) (sentencepiece), but line 1 of {T}/toy.bad.tok has 5 word(s)"))
            && e.contains("hint: "),
        "{e}"
    );
    // same counts, other characters: a warning naming the sentence
    let (_, err) = json(&[
        &gold,
        &hyp,
        "--hyp-subwords",
        &src,
        &tgt,
        "--tokens",
        &path("toy.other.tok"),
        &path("toy.tgt.tok"),
    ]);
    assert!(
        err.contains(&format!("{src}:1: 1 sentence(s) (e.g. sentence 1)")),
        "{err}"
    );
}

#[test]
fn a_piece_index_past_the_line_is_an_error_at_its_line() {
    let o = run(&[
        &path("toy.gold.naacl"),
        &path("toy.past.pharaoh"),
        "--hyp-subwords",
        &path("toy.sp.src"),
        &path("toy.sp.tgt"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty());
    let e = stderr(&o);
    assert!(
        e.contains(&format!(
            "{T}/toy.past.pharaoh:2:1: the target piece index 3 (0-based 2) is past the 2 piece(s) of sentence 2"
        )),
        "{e}"
    );
}

/// `align` of an alignment over the pieces of the WPT excerpt, projected onto its words.
fn wpt_excerpt(hyp: &str) -> (serde_json::Value, String) {
    json(&[
        &path("test50.wa"),
        &path(hyp),
        "--hyp-subwords",
        &path("test50.e.pieces"),
        &path("test50.f.pieces"),
        "--tokens",
        &path("test50.e"),
        &path("test50.f"),
    ])
}

/// The real case: the first 50 sentences of WPT 2003 en-fr test, SentencePiece pieces
/// and an IBM Model 1 alignment over them (testdata/align-subwords/README.md). The
/// independent projection of the README gives 1220 word links, |A∩S| = 330,
/// |A∩P| = 489 against 436 sure gold links: AER = 1 − 819/1656.
#[test]
fn real_sentencepiece_alignment_of_wpt_excerpt() {
    let (gold, hyp) = (path("test50.wa"), path("test50.pieces.pharaoh"));
    let (v, err) = wpt_excerpt("test50.pieces.pharaoh");
    // every projected link is within its sentence's words: no warning at all
    assert!(err.is_empty(), "{err}");
    close(value(&v, "scores", 0, "links"), 1220.0);
    close(value(&v, "scores", 0, "A_and_S"), 330.0);
    close(value(&v, "scores", 0, "A_and_P"), 489.0);
    let aer = value(&v, "scores", 0, "AER");
    close(aer, 1.0 - 819.0 / 1656.0);
    let aer = aer.unwrap();
    assert!(
        (0.3..0.7).contains(&aer),
        "plausible for IBM 1 on subwords: {aer}"
    );
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .ends_with("|subwords:sentencepiece"));
    // the pieces outnumber the words, and the piece-level file scored as words is worse
    let (raw, _) = json(&[&gold, &hyp]);
    assert!(value(&raw, "scores", 0, "AER").unwrap() > aer);
}

#[test]
fn the_html_browser_shows_the_projected_links() {
    let o = run(&[
        "--format",
        "html",
        &path("toy.gold.naacl"),
        &path("toy.pieces.pharaoh"),
        "--hyp-subwords",
        &path("toy.wp.src"),
        &path("toy.wp.tgt"),
        "--tokens",
        &path("toy.src.tok"),
        &path("toy.tgt.tok"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // the page's data block: the words, and the word links of the projection
    let html = stdout(&o);
    assert!(
        html.contains(r#""src":["the","houses","are","red"]"#),
        "{html}"
    );
    assert!(html.contains(r#""sys":[[[0,0],[1,1],[1,2],[2,2],[3,3]]]"#));
    assert!(html.contains(r#""sys":[[[0,0]]]"#));
}

/// A Pharaoh hypothesis written 1-based (the TALP system's output on the excerpt, every
/// position + 1): read 0-based, some links fall past the last word, none 1-based; the
/// warning names the base and the AER it gives (the 0-based original's).
#[test]
fn a_hypothesis_in_the_other_base_is_named_with_its_aer() {
    let gold = path("test50.wa");
    let toks = [path("test50.e"), path("test50.f")];
    let (right, _) = json(&[&gold, &path("talp50.pharaoh")]);
    let good = value(&right, "scores", 0, "AER").unwrap();
    let hyp = path("talp50.1based.pharaoh");
    let (v, err) = json(&[&gold, &hyp, "--tokens", &toks[0], &toks[1]]);
    let bad = value(&v, "scores", 0, "AER").unwrap();
    assert!(bad > good + 0.3, "{bad} vs {good}");
    assert!(
        err.contains(&format!("warning: {hyp}:1: WRONG INDEX BASE? 50 link(s) point past the last word of their sentence when read 0-based, none when read 1-based: the file is likely 1-based")),
        "{err}"
    );
    assert!(
        err.contains(&format!("with --hyp-base 1 the AER would be {good:.4}")),
        "{err}"
    );
    // given explicitly: no guess, the plain warning
    let (_, err) = json(&[
        &gold,
        &hyp,
        "--hyp-base",
        "0",
        "--tokens",
        &toks[0],
        &toks[1],
    ]);
    assert!(!err.contains("WRONG INDEX BASE"), "{err}");
    assert!(err.contains("link(s) point past the last word"), "{err}");
    // the right base: no warning
    let (_, err) = json(&[
        &gold,
        &path("talp50.pharaoh"),
        "--tokens",
        &toks[0],
        &toks[1],
    ]);
    assert!(err.is_empty(), "{err}");
}

#[test]
fn a_gold_in_the_other_base_is_named_with_its_aer() {
    let gold = path("gold50.1based.pharaoh");
    let hyp = path("talp50.pharaoh");
    let toks = [path("test50.e"), path("test50.f")];
    let (right, _) = json(&[&path("test50.wa"), &hyp]);
    let good = value(&right, "scores", 0, "AER").unwrap();
    let (_, err) = json(&[&gold, &hyp, "--tokens", &toks[0], &toks[1]]);
    assert!(
        err.contains(&format!(
            "{gold}:1: WRONG INDEX BASE? 50 link(s) point past the last word"
        )) && err.contains(&format!(
            "with --gold-base 1 the AER would be {good:.4} for {hyp}"
        )),
        "{err}"
    );
    let (v, _) = json(&[&gold, &hyp, "--gold-base", "1"]);
    close(value(&v, "scores", 0, "AER"), good);
}

#[test]
fn links_with_null_on_both_sides_are_counted_at_their_line() {
    let gold = path("gold-null-null.naacl");
    let (_, err) = json(&[&gold, &gold]);
    let lines = std::fs::read_to_string(common::root().join(&gold)).unwrap();
    let first = lines.lines().position(|l| l == "0003 0 0 S").unwrap() + 1;
    assert!(
        err.contains(&format!(
            "warning: {gold}:{first}: 2 link(s) have NULL on both sides"
        )),
        "{err}"
    );
}

/// fast_align (clab/fast_align, built from source) over the same SentencePiece pieces:
/// its forward alignment and the grow-diag-final-and symmetrisation of both directions
/// (testdata/align-subwords/README.md). The README's independent projection gives the
/// expected counts.
#[test]
fn fast_align_over_sentencepiece_pieces_is_projected_as_the_independent_check() {
    let cases = [
        // file, word links, |A∩S|, |A∩P| (436 sure gold links)
        ("test50.fastalign.pharaoh", 1051.0, 334.0, 524.0),
        ("test50.fastalign-gdfa.pharaoh", 926.0, 323.0, 508.0),
    ];
    for (file, links, a_s, a_p) in cases {
        let (v, err) = wpt_excerpt(file);
        assert!(err.is_empty(), "{file}: {err}");
        close(value(&v, "scores", 0, "links"), links);
        close(value(&v, "scores", 0, "A_and_S"), a_s);
        close(value(&v, "scores", 0, "A_and_P"), a_p);
        close(
            value(&v, "scores", 0, "AER"),
            1.0 - (a_s + a_p) / (links + 436.0),
        );
        close(value(&v, "scores", 0, "precision"), a_p / links);
        close(value(&v, "scores", 0, "recall"), a_s / 436.0);
    }
}
