use super::super::tests::tree;
use super::*;
use crate::brackets::{evaluate_inline, BracketCounts};
use proptest::prelude::*;
use treeval_formats::bracket::{BracketReader, Layout};

fn trees(text: &str) -> Vec<BracketTree> {
    let mut r = BracketReader::new(text.as_bytes(), "t", Layout::Line);
    read_all(&mut r).unwrap()
}

fn chars(gold: &str, system: &str, p: &Params) -> (BracketResult, CharsResult) {
    score(&trees(gold), &trees(system), p)
}

/// What a row counts, for comparing the two modes.
fn key(r: &SentenceRow) -> (u64, u64, Status, [u64; 6]) {
    let c = [
        r.matched,
        r.gold,
        r.test,
        r.crossing,
        r.words,
        r.correct_tags,
    ];
    (r.id, r.length, r.status, c)
}

#[test]
fn the_hand_checked_fixture() {
    // COLLINS.prm (`.` deleted); offsets are characters of the kept words run together.
    // 1 `Thedogdoesn'tbark`, the same text in both: S NP VP VP all match (4/4/4); the
    //   words with the same span: The dog bark (3 tagged, 3 right), does n't untagged.
    // 2 `NewYorkislong-term`, the same text: S NP VP ADJP match (4/4/4); New York is
    //   tagged (3), long - term untagged (3).
    // 3+4 one system tree over `ItrainedWeleftparty`; gold has `the` between left and
    //   party: one window (gold `the`, system nothing). The system S starts in gold
    //   sentence 3 and ends in 4: counted in 3, matches nothing. Sentence 3: gold S NP VP,
    //   system S NP VP: 2 matched of 3/3. Sentence 4: gold S NP VP NP(the party), system
    //   NP VP NP(party): NP and VP (left the party: its ends are shared) match, 2 of
    //   4/3; gold NP(the party) starts in the window: unaligned. Words: It rained (2),
    //   We left party (3), the untagged (1).
    // 5 `Shesanganddanced` as two system trees: gold S NP VP(sang and danced), system
    //   S(She sang) NP VP(sang) | S(and danced) VP(and danced): only NP matches (1 of
    //   3/5); system S(She sang) crosses gold VP(sang and danced): 1 crossing; 4 words.
    let g = include_str!("../../../../../testdata/brackets/chars/gold.txt");
    let s = include_str!("../../../../../testdata/brackets/chars/system.txt");
    let (r, c) = chars(g, s, &Params::collins());
    let rows: Vec<[u64; 6]> = r.rows.iter().map(|r| key(r).3).collect();
    assert_eq!(
        rows,
        [
            [4, 4, 4, 0, 3, 3],
            [4, 4, 4, 0, 3, 3],
            [2, 3, 3, 0, 2, 2],
            [2, 4, 3, 0, 3, 3],
            [1, 3, 5, 1, 4, 4]
        ]
    );
    let a = r.all;
    assert_eq!((a.sentences, a.matched, a.gold, a.test), (5, 13, 18, 19));
    assert_eq!((a.complete, a.crossing, a.no_crossing), (2, 1, 4));
    assert_eq!((a.words, a.correct_tags), (15, 15));
    assert_eq!((r.gold_trees, r.test_trees), (5, 5));
    let w = CharWindow {
        sentence: 4,
        lines: (4, 3),
        gold: "the".into(),
        system: String::new(),
        gold_brackets: 1,
        system_brackets: 0,
    };
    assert_eq!(c.windows, [w]);
    assert_eq!(
        (c.unaligned_gold_brackets, c.unaligned_system_brackets),
        (1, 0)
    );
    assert_eq!(
        (c.split_sentences, c.joined_trees, c.untagged_words),
        (1, 1, 6)
    );
}

#[test]
fn ptb_escapes_and_their_characters_are_the_same_word() {
    // a literal parenthesis cannot be a word of a bracketed file; braces can
    let g = "(S (-LCB- -LCB-) (NP (NN x)) (-RSB- -RSB-) (`` ``) (NP (NN y)) ('' ''))";
    let s = "(S (-LCB- {) (NP (NN x)) (-RSB- ]) (`` \") (NP (NN y)) ('' \"))";
    let p = Params::default();
    let (r, c) = chars(g, s, &p);
    assert!(c.windows.is_empty(), "{:?}", c.windows);
    assert_eq!(key(&r.rows[0]).3, [3, 3, 3, 0, 6, 6]);
    assert_eq!(push_word_string("-LRB-"), "(");
    assert_eq!(push_word_string("-RRB-"), ")");
}

fn push_word_string(w: &str) -> String {
    let mut v = Vec::new();
    push_word(w, &mut v);
    v.into_iter().collect()
}

#[test]
fn a_changed_word_is_a_window_and_the_sentence_is_still_scored() {
    let g = "(S (NP (DT the) (NN cat)) (VP (VBD sat)))\n";
    let s = "(S (NP (DT the) (NN cap)) (VP (VBD sat)))\n";
    let (r, c) = chars(g, s, &Params::collins());
    // NP ends on the changed character: it cannot match; S and VP do
    assert_eq!(key(&r.rows[0]).3, [2, 3, 3, 0, 2, 2]);
    assert_eq!(c.windows.len(), 1);
    assert_eq!(
        (c.windows[0].gold.as_str(), c.windows[0].system.as_str()),
        ("t", "p")
    );
    assert_eq!(
        (c.unaligned_gold_brackets, c.unaligned_system_brackets),
        (1, 1)
    );
    // the default mode cannot score it at all
    let mut gr = BracketReader::new(g.as_bytes(), "g", Layout::Line);
    let mut tr = BracketReader::new(s.as_bytes(), "s", Layout::Line);
    let d = evaluate_inline(&mut gr, &mut tr, &Params::collins(), None).unwrap();
    assert_eq!(d.all.error_sentences, 1);
}

#[test]
fn missing_and_malformed_system_text() {
    let g = "(S (NP (DT the) (NN cat)) (VP (VBD sat)))\n(S (VP (VB go)))\n";
    // the second sentence has no system text: skipped; a malformed system tree over
    // the first makes it an error sentence
    let (r, c) = chars(
        g,
        "(S (NP (DT the) (NN cat)) (VP (VBD sat)))\n",
        &Params::collins(),
    );
    assert_eq!(r.rows[1].status, Status::Skip);
    assert_eq!((r.all.valid(), c.windows.len()), (1, 1));
    let (r, _) = chars(
        g,
        "(S (NP (DT the) (NN cat)) (VP (VBD sat))\n(S (VP (VB go)))",
        &Params::collins(),
    );
    assert_eq!(r.rows[0].status, Status::Error, "{:?}", r.rows[0]);
    assert_eq!(r.rows[1].status, Status::Ok);
    assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
    // a malformed system tree over no gold text is still reported (its problem: two
    // brackets left open; `zzz` is a word without a tag under X)
    let (r, _) = chars(g, &format!("{g}(S (X zzz\n"), &Params::collins());
    assert_eq!(
        (r.problems.len(), r.all.valid()),
        (1, 2),
        "{:?}",
        r.problems
    );
}

#[test]
fn a_dropped_sentence_is_missed_as_in_the_default_mode() {
    // gold: 3 + 2 + 3 brackets (S NP VP; S VP over one word; S NP VP); the system drops
    // the second sentence. By hand: matched 6 of gold 8, system 6: recall 75, precision
    // 100; complete 2 of 3. Excluded (EVALB's convention): recall 100 over 2 sentences.
    let g = "(S (NP (DT the) (NN cat)) (VP (VBD sat)))\n(S (VP (VB go)))\n\
             (S (NP (DT a) (NN dog)) (VP (VBD ran)))\n";
    let s = "(S (NP (DT the) (NN cat)) (VP (VBD sat)))\n(S (NP (DT a) (NN dog)) (VP (VBD ran)))\n";
    let missed = Params {
        errors_missed: true,
        ..Params::collins()
    };
    let (r, _) = chars(g, s, &missed);
    assert_eq!((r.rows[1].status, r.rows[1].missed), (Status::Skip, true));
    let a = r.all;
    assert_eq!(
        (a.matched, a.gold, a.test, a.missed_sentences),
        (6, 8, 6, 1)
    );
    let sc = a.scores();
    assert_eq!((sc.recall, sc.precision), (Some(0.75), Some(1.0)));
    assert_eq!(sc.complete_match, Some(2.0 / 3.0));
    // tagging: 6 of 7 words (the dropped sentence's `go` has no system tag)
    assert_eq!(sc.tagging_accuracy, Some(6.0 / 7.0));
    // the default mode, the dropped sentence an empty line: the same counts
    let blank = s.replacen('\n', "\n\n", 1);
    let mut gr = BracketReader::new(g.as_bytes(), "g", Layout::Line);
    let mut tr = BracketReader::new(blank.as_bytes(), "s", Layout::Line);
    let d = evaluate_inline(&mut gr, &mut tr, &missed, None).unwrap();
    assert_eq!(d.all, r.all);
    // EVALB's convention
    let (r, _) = chars(g, s, &Params::collins());
    assert_eq!((r.all.gold, r.all.scores().recall), (6, Some(1.0)));
    // a malformed system tree over a sentence: missed; a malformed gold tree: not
    let bad = s.replacen("(VBD sat)))", "(VBD sat))", 1);
    let (r, _) = chars(g, &bad, &missed);
    assert_eq!((r.rows[0].status, r.rows[0].missed), (Status::Error, true));
    assert_eq!(r.rows[0].gold, 3);
    let (r, _) = chars(&g.replacen("(VBD sat)))", "(VBD sat))", 1), s, &missed);
    assert_eq!((r.rows[0].status, r.rows[0].missed), (Status::Error, false));
}

const WORDS: [&str; 8] = ["the", "cat", "-LRB-", "``", "n't", ",", "long-term", "."];
const TAGS: [&str; 6] = ["NN", "VB", "DT", ",", ".", "-NONE-"];
const LABELS: [&str; 6] = ["S", "NP", "VP-SBJ", "ADVP", "PRT", "-NONE-"];

/// A tree over `words` (word, tag) shaped by `choices`.
fn build(
    words: &[(usize, usize)],
    lo: usize,
    hi: usize,
    c: &mut dyn Iterator<Item = u8>,
    depth: u32,
) -> String {
    let mut next = || c.next().unwrap_or(0);
    if hi - lo == 1 && (depth > 3 || next() % 2 == 0) {
        let (w, t) = words[lo];
        return format!("({} {})", TAGS[t], WORDS[w]);
    }
    let label = LABELS[next() as usize % LABELS.len()];
    let mut parts = vec![lo];
    for k in lo + 1..hi {
        if depth > 3 || next() % 3 == 0 {
            parts.push(k);
        }
    }
    parts.push(hi);
    let kids: Vec<String> = (parts.windows(2))
        .map(|p| build(words, p[0], p[1], c, depth + 1))
        .collect();
    format!("({label} {})", kids.join(" "))
}

fn sentences() -> impl Strategy<Value = (String, String)> {
    let sentence = (1usize..9).prop_flat_map(|n| {
        (
            proptest::collection::vec((0..WORDS.len(), 0..TAGS.len()), n),
            proptest::collection::vec(0..4usize, n),
            proptest::collection::vec(any::<u8>(), 64),
            proptest::collection::vec(any::<u8>(), 64),
        )
    });
    proptest::collection::vec(sentence, 1..6).prop_map(|v| {
        let (mut g, mut s) = (String::new(), String::new());
        for (words, retag, a, b) in v {
            // the system's tags differ, but a deleted tag stays deleted and a kept one kept
            let sys: Vec<(usize, usize)> = (words.iter().zip(&retag))
                .map(|(&(w, t), &r)| (w, if t < 2 { r % 2 } else { t }))
                .collect();
            g += &build(&words, 0, words.len(), &mut a.into_iter(), 0);
            s += &build(&sys, 0, sys.len(), &mut b.into_iter(), 0);
            g.push('\n');
            s.push('\n');
        }
        (g, s)
    })
}

fn default_mode(g: &str, s: &str, p: &Params) -> BracketResult {
    let mut gr = BracketReader::new(g.as_bytes(), "g", Layout::Line);
    let mut tr = BracketReader::new(s.as_bytes(), "s", Layout::Line);
    evaluate_inline(&mut gr, &mut tr, p, None).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn with_the_same_words_chars_gives_the_default_counts((g, s) in sentences(), labeled in any::<bool>()) {
        let mut p = Params::collins();
        p.labeled = labeled;
        p.by_label = true;
        let d = default_mode(&g, &s, &p);
        let (c, x) = chars(&g, &s, &p);
        prop_assert!(x.windows.is_empty());
        let a: Vec<_> = d.rows.iter().map(key).collect();
        let b: Vec<_> = c.rows.iter().map(key).collect();
        prop_assert_eq!(a, b);
        prop_assert_eq!(d.all, c.all);
        prop_assert_eq!(d.cutoff, c.cutoff);
        prop_assert_eq!(d.by_label, c.by_label);
        prop_assert_eq!(BracketCounts::default().sentences, 0);
    }
}

#[test]
fn one_tree_reads_as_in_the_default_mode() {
    // the shared helper of the scorer's tests reads the same trees
    let t = tree("(S (NP (DT the)))");
    assert_eq!(trees("(S (NP (DT the)))")[0].leaves.len(), t.leaves.len());
}

/// Sentence `k` (1-based) of `r`: (matched, gold, system brackets).
fn counts(r: &BracketResult, k: usize) -> (u64, u64, u64) {
    let row = &r.rows[k - 1];
    (row.matched, row.gold, row.test)
}

fn window(sentence: u64, lines: (u64, u64), gold: &str, system: &str, b: (u64, u64)) -> CharWindow {
    CharWindow {
        sentence,
        lines,
        gold: gold.into(),
        system: system.into(),
        gold_brackets: b.0,
        system_brackets: b.1,
    }
}

#[test]
fn a_dropped_sentence_is_one_window_whatever_text_follows() {
    // issue 38: sentence 2 starts with the letter sentence 3 starts with (`Although …`,
    // `A spokeswoman …`); dropping it left `A` matched to sentence 3's and the window
    // `lthough…A`, so sentence 3's S and NP were counted in sentence 2. Now: one window
    // over sentence 2 (its 8 brackets: S SBAR S NP VP VP NP VP), sentences 1 and 3
    // scored as if nothing were dropped.
    let g = "(S (NP (NNP Pierre)) (VP (VBZ joins) (NP (DT the) (NN board))))
(S (SBAR (IN Although) (S (NP (NNS findings)) (VP (VBD were) (VP (VBN reported))))) (NP (PRP it)) (VP (VBD stood)))
(S (NP (DT A) (NN spokeswoman)) (VP (VBD said)))
";
    let s = "(S (NP (NNP Pierre)) (VP (VBZ joins) (NP (DT the) (NN board))))
(S (NP (DT A) (NN spokeswoman)) (VP (VBD said)))
";
    let (r, c) = chars(g, s, &Params::collins());
    // sentence 1: S NP VP NP; sentence 3: S NP VP; sentence 2: nothing of it matched
    // and no system bracket counted in it (whether its 8 gold brackets count as missed
    // is the counting rule's, not the alignment's)
    assert_eq!(counts(&r, 1), (4, 4, 4));
    assert_eq!(counts(&r, 3), (3, 3, 3));
    assert_eq!((r.rows[1].matched, r.rows[1].test), (0, 0));
    assert_eq!((r.all.matched, r.all.test), (7, 7));
    let gold2 = "Althoughfindingswerereporteditstood";
    assert_eq!(c.windows, [window(2, (2, 2), gold2, "", (8, 0))]);
    assert_eq!((c.split_sentences, c.joined_trees), (0, 0));
}

#[test]
fn a_dropped_sentence_starting_as_the_next_one_is_one_window() {
    // issue 38's "Now, …" case: sentence 2 `Now , the group …`, sentence 3 `Now the
    // tickets …`; dropping 2 matched its `Now` to sentence 3's. Now: one window over
    // sentence 2, sentence 3 scored whole (S ADVP NP VP NP: 5 of 5).
    let g = "(S (NP (PRP It)) (VP (VBD was) (ADJP (JJ quiet))) (. .))
(S (ADVP (RB Now)) (, ,) (NP (DT the) (NN group)) (VP (VBZ plans) (NP (NN more))) (. .))
(S (ADVP (RB Now)) (NP (DT the) (NNS tickets)) (VP (VBP cost) (NP (CD 12) (NNS dollars))) (. .))
";
    let s = "(S (NP (PRP It)) (VP (VBD was) (ADJP (JJ quiet))) (. .))
(S (ADVP (RB Now)) (NP (DT the) (NNS tickets)) (VP (VBP cost) (NP (CD 12) (NNS dollars))) (. .))
";
    let (r, c) = chars(g, s, &Params::collins());
    assert_eq!(counts(&r, 1), (4, 4, 4));
    assert_eq!(counts(&r, 3), (5, 5, 5));
    assert_eq!((r.rows[1].matched, r.rows[1].test), (0, 0));
    assert_eq!(
        c.windows,
        [window(2, (2, 2), "Nowthegroupplansmore", "", (5, 0))]
    );
}

#[test]
fn windows_do_not_merge_across_equal_characters() {
    // issue 38: `(-LRB- [) (NN note) (-RRB- ])` against `-LRB- note -RRB-` made one
    // window `[note]`/`(note)`. The texts `aword[note]`, `aword(note)` differ in two
    // characters: two windows, `note` shared. Brackets S (ends on `]`) and PRN (both
    // ends in windows) cannot match; NP `a word` and NP `note` match: 2 of 4 and 4.
    let g = "(S (NP (DT a) (NN word)) (PRN (-LRB- [) (NP (NN note)) (-RRB- ])))\n";
    let s = "(S (NP (DT a) (NN word)) (PRN (-LRB- -LRB-) (NP (NN note)) (-RRB- -RRB-)))\n";
    let (r, c) = chars(g, s, &Params::collins());
    assert_eq!(counts(&r, 1), (2, 4, 4));
    let w = [
        window(1, (1, 1), "[", "(", (1, 1)),
        window(1, (1, 1), "]", ")", (2, 2)),
    ];
    assert_eq!(c.windows, w);
}
