use super::*;
use proptest::prelude::*;

fn chars(s: &str) -> Vec<char> {
    s.chars().collect()
}

/// The windows of a diff as (gold, system) strings.
fn shown(a: &[char], b: &[char], d: &CharDiff) -> Vec<(String, String)> {
    (d.windows.iter())
        .map(|w| {
            let g = &a[w.gold.start as usize..w.gold.end as usize];
            let s = &b[w.system.start as usize..w.system.end as usize];
            (g.iter().collect(), s.iter().collect())
        })
        .collect()
}

fn run(a: &str, b: &str) -> (Vec<(String, String)>, CharDiff) {
    let (a, b) = (chars(a), chars(b));
    let d = diff_chars(&a, &b);
    (shown(&a, &b, &d), d)
}

/// Texts of words and trees (`|` between trees, ` ` between words), as the texts and
/// breaks `--align chars` diffs.
fn text(s: &str) -> (Vec<char>, Vec<Break>) {
    let (mut c, mut br) = (Vec::new(), vec![TREE]);
    for ch in s.chars() {
        match ch {
            '|' => *br.last_mut().unwrap() = TREE,
            ' ' => {
                let l = br.last_mut().unwrap();
                *l = (*l).max(WORD);
            }
            _ => {
                c.push(ch);
                br.push(IN_WORD);
            }
        }
    }
    *br.last_mut().unwrap() = TREE;
    (c, br)
}

fn run_words(a: &str, b: &str) -> Vec<(String, String)> {
    let ((a, ab), (b, bb)) = (text(a), text(b));
    let d = diff(
        Text {
            chars: &a,
            breaks: &ab,
        },
        Text {
            chars: &b,
            breaks: &bb,
        },
    );
    check(&a, &b, &d);
    shown(&a, &b, &d)
}

/// The length of a longest common subsequence, by dynamic programming.
fn lcs(a: &[char], b: &[char]) -> usize {
    let mut row = vec![0usize; b.len() + 1];
    for &x in a {
        let mut diag = 0;
        for (j, &y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y { diag + 1 } else { up.max(row[j]) };
            diag = up;
        }
    }
    row[b.len()]
}

/// The diff is consistent: shared characters equal and in order, windows in order, not
/// touching, holding exactly the characters not shared, and the lookups agree.
fn check(a: &[char], b: &[char], d: &CharDiff) {
    let mut last = None;
    for (j, &g) in d.to_gold.iter().enumerate() {
        if g != NONE {
            assert_eq!(a[g as usize], b[j]);
            assert!(last.map_or(true, |l| l < g));
            assert_eq!(d.at_gold[j], g);
            last = Some(g);
        }
    }
    let shared = d.to_gold.iter().filter(|&&g| g != NONE).count();
    assert_eq!(d.shared_before[a.len()] as usize, shared);
    let (mut gi, mut si) = (0, 0);
    for w in &d.windows {
        assert!(!w.gold.is_empty() || !w.system.is_empty(), "{w:?}");
        assert!(
            w.gold.start >= gi && w.system.start >= si,
            "{:?}",
            d.windows
        );
        // equal stretches between windows: as long in both texts
        assert_eq!(w.gold.start - gi, w.system.start - si, "{:?}", d.windows);
        assert!(
            gi == 0 && si == 0 || w.gold.start > gi,
            "touching: {:?}",
            d.windows
        );
        assert!((w.system.clone()).all(|j| d.to_gold[j as usize] == NONE));
        assert!((w.system.clone()).all(|j| d.at_gold[j as usize] == w.gold.start));
        assert!(!d.any_shared(w.gold.clone()));
        (gi, si) = (w.gold.end, w.system.end);
    }
    assert_eq!(a.len() as u32 - gi, b.len() as u32 - si);
    assert_eq!(d.at_gold[b.len()], a.len() as u32);
}

#[test]
fn equal_texts_share_every_character() {
    let (w, d) = run("thecatsat", "thecatsat");
    assert!(w.is_empty());
    assert_eq!(d.to_gold, (0..9).collect::<Vec<u32>>());
    assert!(d.any_shared(0..9));
}

#[test]
fn a_dropped_word_a_changed_word_and_an_extra_tail_are_windows() {
    let g = "Pierrevinken,61yearsold,willjoinstheboardasanonexecutivedirector.";
    let s = "Pierrevinken,61yearsold,willjoinboardasanonexecutivedirectorNov.29";
    let (w, d) = run(g, s);
    // `sthe` dropped; `Nov` and `29` added around the `.` both texts have
    let win = |g: &str, s: &str| (g.to_owned(), s.to_owned());
    assert_eq!(w, [win("sthe", ""), win("", "Nov"), win("", "29")]);
    // the system's `b` of `board` is the gold's
    let b = s.find("board").unwrap();
    assert_eq!(d.to_gold[b], g.find("board").unwrap() as u32);
    assert!(!d.gold_shared(g.find("sthe").unwrap() as u32));
    assert_eq!(d.at_gold[s.len()], g.len() as u32);
    check(&chars(g), &chars(s), &d);
}

#[test]
fn texts_with_nothing_in_common_are_one_window() {
    let (w, _) = run("abc", "xyz");
    assert_eq!(w, [("abc".to_owned(), "xyz".to_owned())]);
    let (w, d) = run("", "xyz");
    assert_eq!(w, [(String::new(), "xyz".to_owned())]);
    assert_eq!(d.at_gold, [0, 0, 0, 0]);
}

#[test]
fn a_dropped_sentence_is_one_window_over_it_whatever_follows() {
    // the case: the dropped sentence starts with the letter the next one starts
    // with (`Although …` then `A Lorillard …`): the window is the sentence, not
    // `lthough … A`
    let g = "Pierre joins the board|Although findings were reported|A Lorillard spokeswoman said";
    let s = "Pierre joins the board|A Lorillard spokeswoman said";
    let w = run_words(g, s);
    assert_eq!(
        w,
        [("Althoughfindingswerereported".to_owned(), String::new())]
    );
    // `Now, …` then `Now …`: the whole of the dropped sentence, not its `Now` matched to
    // the next one's
    let g = "it was quiet|Now he said the field is less cluttered|Now the group plans more";
    let s = "it was quiet|Now the group plans more";
    let w = run_words(g, s);
    assert_eq!(
        w,
        [("Nowhesaidthefieldislesscluttered".to_owned(), String::new())]
    );
    // the same at the start and at the end of the texts, and for an added sentence
    let w = run_words("Now he said|Now the group", "Now the group");
    assert_eq!(w, [("Nowhesaid".to_owned(), String::new())]);
    let w = run_words("the group said|the group", "the group said");
    assert_eq!(w, [("thegroup".to_owned(), String::new())]);
    let w = run_words("a b|Now x", "a b|Now y z|Now x");
    assert_eq!(w, [(String::new(), "Nowyz".to_owned())]);
}

#[test]
fn equal_characters_between_two_edits_stay_shared() {
    // `[note]` against `(note)`: two changed windows, `note` shared
    let w = run_words("[ note ]", "( note )");
    let win = |g: &str, s: &str| (g.to_owned(), s.to_owned());
    assert_eq!(w, [win("[", "("), win("]", ")")]);
    // a dropped word slides to the word it is: `the the` against `the`
    assert_eq!(run_words("of the the cat", "of the cat"), [win("the", "")]);
}

#[test]
fn long_texts_use_anchors_and_stay_minimal() {
    // 3 x 2,000 characters, a sentence dropped in the middle and one added at the end
    let words = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
    ];
    let mut g = String::new();
    let mut x = 12345u64;
    for i in 0..900 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        g += words[(x >> 33) as usize % words.len()];
        g += if i % 13 == 12 { "|" } else { " " };
    }
    let gold = g.trim_end_matches(['|', ' ']).to_owned();
    let parts: Vec<&str> = gold.split('|').collect();
    let mut sys: Vec<&str> = parts.clone();
    let dropped = sys.remove(30);
    sys.push("omega psi chi");
    let w = run_words(&gold, &sys.join("|"));
    assert_eq!(
        w,
        [
            (dropped.replace(' ', ""), String::new()),
            (String::new(), "omegapsichi".to_owned())
        ]
    );
}

#[test]
fn past_the_budget_a_stretch_is_one_window() {
    // two unrelated texts of 30,000 characters without a shared run of 16: Myers would
    // take about 30,000 x 30,000 steps
    let a: Vec<char> = (0..30_000)
        .map(|i| ['a', 'b', 'c'][(i * i / 7) % 3])
        .collect();
    let b: Vec<char> = (0..30_000).map(|i| ['c', 'd'][(i / 3) % 2]).collect();
    let d = diff_chars(&a, &b);
    check(&a, &b, &d);
    assert!(!d.windows.is_empty());
}

fn small_text() -> impl Strategy<Value = Vec<char>> {
    proptest::collection::vec(
        prop_oneof![Just('a'), Just('b'), Just('c'), Just('d')],
        0..40,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_diff_is_a_minimal_edit_script(a in small_text(), b in small_text()) {
        let d = diff_chars(&a, &b);
        check(&a, &b, &d);
        let shared = d.to_gold.iter().filter(|&&g| g != NONE).count();
        prop_assert_eq!(shared, lcs(&a, &b));
    }
}

/// A text of `n` words over a small vocabulary (repeated runs), with words and trees.
fn word_text(n: usize) -> impl Strategy<Value = Vec<String>> {
    let words = [
        "the", "cat", "sat", "on", "a", "mat", "and", "then", "it", "ran", "far",
    ];
    proptest::collection::vec(0..words.len(), n)
        .prop_map(move |v| v.into_iter().map(|k| words[k].to_owned()).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// Over texts longer than EXACT (anchors used) with a few edits far apart, the diff
    /// stays minimal.
    #[test]
    fn anchored_diffs_stay_minimal(
        words in word_text(1500),
        edits in proptest::collection::vec((0usize..1500, 0usize..3, 1usize..4), 1..5),
    ) {
        let mut sys = words.clone();
        let mut edits = edits;
        edits.sort();
        edits.dedup_by_key(|e| e.0 / 100);
        for &(at, kind, len) in edits.iter().rev() {
            let end = (at + len).min(sys.len());
            match kind {
                0 => { sys.drain(at..end); }
                1 => { sys.insert(at, "zebra".to_owned()); }
                _ => { sys[at] = "xylophone".to_owned(); }
            }
        }
        let (a, b): (Vec<char>, Vec<char>) = (words.concat().chars().collect(), sys.concat().chars().collect());
        let d = diff_chars(&a, &b);
        check(&a, &b, &d);
        let shared = d.to_gold.iter().filter(|&&g| g != NONE).count();
        prop_assert_eq!(shared, lcs(&a, &b));
    }
}

#[test]
fn an_added_sentence_is_one_window_whatever_text_precedes_it() {
    // a minimal script can spread the added sentence's letters around the `ed` that ends
    // the sentence before it (`add|ed Touristsqu|e|ued outsi|d|e`): the windows that
    // slide onto each other are one, placed on the trees' boundaries
    let w = run_words(
        "the conductor added|Now the orchestra plans",
        "the conductor added|Tourists queued outside|Now the orchestra plans",
    );
    assert_eq!(w, [(String::new(), "Touristsqueuedoutside".to_owned())]);
}
