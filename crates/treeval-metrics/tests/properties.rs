//! Property tests over generated treebanks.

use std::sync::Arc;

use proptest::prelude::*;
use treeval_formats::{ReaderBuilder, Sentence};
use treeval_metrics::deps::{evaluate, GoldSentence, Input, Observer, Validity};
use treeval_metrics::{AttachmentCounts, ByKey, DepsOptions, LabelMode, LabelTable, PunctPolicy};

const LABELS: [&str; 6] = ["nsubj", "obj", "obl", "obl:tmod", "punct", "root"];
const FORMS: [&str; 6] = ["dog", ".", "%", "$", "runs", "``"];

/// A sentence: (form index, head, label index) per word. Heads are arbitrary in
/// 0..=n+1 for system files (out of range, self-loops and cycles included).
fn sentence(max_len: usize, valid_tree: bool) -> impl Strategy<Value = Vec<(usize, u32, usize)>> {
    (1..=max_len).prop_flat_map(move |n| {
        let heads = if valid_tree {
            // word i attaches to an earlier word or the root: always a tree
            (0..n)
                .map(|i| (0..=i as u32).boxed())
                .collect::<Vec<_>>()
                .boxed()
        } else {
            (0..n)
                .map(|_| (0..=n as u32 + 1).boxed())
                .collect::<Vec<_>>()
                .boxed()
        };
        (
            proptest::collection::vec(0..FORMS.len(), n),
            heads,
            proptest::collection::vec(0..LABELS.len(), n),
        )
            .prop_map(|(f, h, l)| {
                f.into_iter()
                    .zip(h)
                    .zip(l)
                    .map(|((f, h), l)| (f, h, l))
                    .collect()
            })
    })
}

fn to_conllu(sents: &[Vec<(usize, u32, usize)>]) -> String {
    let mut s = String::new();
    for (k, sent) in sents.iter().enumerate() {
        s.push_str(&format!("# sent_id = s{k}\n"));
        for (i, &(f, h, l)) in sent.iter().enumerate() {
            s.push_str(&format!(
                "{}\t{}\t_\tX\tX\t_\t{}\t{}\t_\t_\n",
                i + 1,
                FORMS[f],
                h,
                LABELS[l]
            ));
        }
        s.push('\n');
    }
    s
}

/// Same words as `gold`, system heads and labels from `sys` (trimmed or padded).
fn system_for(
    gold: &[Vec<(usize, u32, usize)>],
    sys: &[Vec<(usize, u32, usize)>],
) -> Vec<Vec<(usize, u32, usize)>> {
    gold.iter()
        .enumerate()
        .map(|(k, g)| {
            g.iter()
                .enumerate()
                .map(|(i, &(f, h, l))| match sys.get(k).and_then(|s| s.get(i)) {
                    Some(&(_, sh, sl)) => (f, sh, sl),
                    None => (f, h, l),
                })
                .collect()
        })
        .collect()
}

fn read(text: &str) -> Vec<Sentence> {
    let mut r = ReaderBuilder::new().from_reader("mem.conllu", text.as_bytes());
    r.sentences().map(Result::unwrap).collect()
}

fn counts(gold: &str, sys: &str, opts: &DepsOptions) -> AttachmentCounts {
    let (g, s) = (read(gold), read(sys));
    assert_eq!(g.len(), s.len());
    let mut labels = LabelTable::new();
    let mut obs = Observer::new(opts);
    let mut prep = GoldSentence::new();
    let mut v = Validity::default();
    let mut diags = Vec::new();
    let p: Arc<str> = Arc::from("mem");
    for (g, s) in g.iter().zip(&s) {
        prep.prepare(g, &p, opts, &mut labels, &mut v, &mut diags);
        obs.observe(g, &prep, &p, s, &p, &mut labels, opts);
    }
    obs.totals
}

/// The whole-number counts that add up over the sentences of a file.
fn additive(c: &AttachmentCounts) -> [u64; 8] {
    [
        c.words,
        c.las,
        c.uas,
        c.la,
        c.lem,
        c.uem,
        c.root_correct,
        c.excluded,
    ]
}

fn policies() -> impl Strategy<Value = DepsOptions> {
    (
        prop_oneof![
            Just(PunctPolicy::Include),
            Just(PunctPolicy::Form),
            Just(PunctPolicy::Deprel(vec!["punct".into()])),
        ],
        prop_oneof![Just(LabelMode::Full), Just(LabelMode::Universal)],
    )
        .prop_map(|(punct, labels)| DepsOptions {
            punct,
            labels,
            by: ByKey::ALL.to_vec(),
            confusion: true,
            ..DepsOptions::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn gold_against_itself_is_perfect(g in proptest::collection::vec(sentence(12, true), 1..6), opts in policies()) {
        let text = to_conllu(&g);
        let c = counts(&text, &text, &opts);
        prop_assert_eq!([c.las, c.uas, c.la], [c.words; 3]);
        prop_assert_eq!([c.lem, c.uem], [c.scored_sentences; 2]);
        prop_assert_eq!(c.root_correct, c.root_gold);
        prop_assert_eq!(c.words + c.excluded, g.iter().map(|s| s.len() as u64).sum::<u64>());
    }

    #[test]
    fn las_is_at_most_uas_and_la(
        g in proptest::collection::vec(sentence(12, true), 1..6),
        s in proptest::collection::vec(sentence(12, false), 1..6),
        opts in policies(),
    ) {
        let sys = system_for(&g, &s);
        let c = counts(&to_conllu(&g), &to_conllu(&sys), &opts);
        prop_assert!(c.las <= c.uas);
        prop_assert!(c.las <= c.la);
        prop_assert!(c.uas <= c.words && c.la <= c.words);
        prop_assert!(c.lem <= c.uem && c.uem <= c.scored_sentences);
        prop_assert!(c.sum_sentence_las <= c.sum_sentence_uas + 1e-9);
    }

    #[test]
    fn counts_add_up_when_a_file_is_split(
        g in proptest::collection::vec(sentence(10, true), 2..8),
        s in proptest::collection::vec(sentence(10, false), 2..8),
        cut in 1usize..7,
        opts in policies(),
    ) {
        let sys = system_for(&g, &s);
        let cut = cut.min(g.len() - 1);
        let whole = counts(&to_conllu(&g), &to_conllu(&sys), &opts);
        let a = counts(&to_conllu(&g[..cut]), &to_conllu(&sys[..cut]), &opts);
        let b = counts(&to_conllu(&g[cut..]), &to_conllu(&sys[cut..]), &opts);
        let sum = a + b;
        prop_assert_eq!(additive(&whole), additive(&sum));
        prop_assert!((whole.sum_sentence_las - sum.sum_sentence_las).abs() < 1e-9);
    }

    #[test]
    fn readers_never_panic_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut r = ReaderBuilder::new().from_reader("fuzz", bytes.as_slice());
        let mut s = Sentence::new();
        while let Ok(true) = r.read_sentence(&mut s) {
            for w in s.words() {
                let _ = (s.form(w), s.deprel(w), s.head_column(w), s.enhanced_edges(w).count());
            }
        }
    }

    #[test]
    fn readers_never_panic_on_near_conll_lines(
        lines in proptest::collection::vec(
            proptest::collection::vec(prop_oneof![
                Just("1".to_string()), Just("2".to_string()), Just("0".to_string()), Just("_".to_string()),
                Just("1-2".to_string()), Just("1.1".to_string()), Just("".to_string()), Just("x y".to_string()),
                Just("2:nsubj|0:root".to_string()), Just("#".to_string()), Just("\u{feff}".to_string()), Just("é".to_string()),
            ], 0..12).prop_map(|f| f.join("\t")),
            0..20),
        scored in proptest::bool::ANY,
    ) {
        let text = lines.join("\n");
        let mut r = ReaderBuilder::new().from_reader("fuzz.conllu", text.as_bytes());
        let mut s = Sentence::new();
        let opts = DepsOptions { by: ByKey::ALL.to_vec(), punct: if scored { PunctPolicy::Form } else { PunctPolicy::Include }, ..DepsOptions::default() };
        let mut labels = LabelTable::new();
        let mut obs = Observer::new(&opts);
        let mut prep = GoldSentence::new();
        let mut v = Validity::default();
        let mut diags = Vec::new();
        let p: Arc<str> = Arc::from("fuzz");
        while let Ok(true) = r.read_sentence(&mut s) {
            prep.prepare(&s, &p, &opts, &mut labels, &mut v, &mut diags);
            obs.observe(&s, &prep, &p, &s, &p, &mut labels, &opts);
        }
    }
}

#[test]
fn pipeline_equals_observer_and_splits_add_up() {
    // the threaded file pipeline gives the same sums as direct observation
    let g = "1\ta\t_\tX\tX\t_\t2\tnsubj\t_\t_\n2\tb\t_\tX\tX\t_\t0\troot\t_\t_\n\n";
    let s = "1\ta\t_\tX\tX\t_\t0\tnsubj\t_\t_\n2\tb\t_\tX\tX\t_\t0\troot\t_\t_\n\n";
    let dir = std::env::temp_dir().join(format!("treeval-prop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (gp, sp) = (dir.join("g.conllu"), dir.join("s.conllu"));
    std::fs::write(&gp, g.repeat(300)).unwrap();
    std::fs::write(&sp, s.repeat(300)).unwrap();
    let opts = DepsOptions::default();
    let input = |p: &std::path::Path| Input::path(p.to_str().unwrap(), ReaderBuilder::new());
    let r = evaluate(
        &input(&gp),
        &[input(&sp), input(&gp)],
        &opts,
        |_, _, _, _| {},
    )
    .unwrap();
    let direct = counts(&g.repeat(300), &s.repeat(300), &opts);
    assert_eq!(r.systems[0].observer.totals, direct);
    assert_eq!(direct.words, 600);
    assert_eq!(direct.uas, 300);
    assert_eq!(r.systems[1].observer.totals.las, 600);
}

mod ud_resync {
    use proptest::prelude::*;
    use treeval_formats::ReaderBuilder;
    use treeval_metrics::ud::{evaluate_sources, AlignMode, ReaderSource, UdOptions, UdResult};

    const VOCAB: [&str; 8] = ["the", "café", "dog", "runs", ".", "naïve", "über", "x"];

    fn conllu(sents: &[Vec<String>]) -> String {
        let mut o = String::new();
        for s in sents {
            for (k, w) in s.iter().enumerate() {
                let rel = if k == 0 { "root" } else { "dep" };
                o.push_str(&format!("{}\t{w}\t{w}\tX\t_\t_\t{k}\t{rel}\t_\t_\n", k + 1));
            }
            o.push('\n');
        }
        o
    }

    fn run(g: &str, s: &str, align: AlignMode) -> UdResult {
        let b = ReaderBuilder::new();
        let mut gs = ReaderSource::new(b.from_reader("g", g.as_bytes()));
        let mut ss = ReaderSource::new(b.from_reader("s", s.as_bytes()));
        let opts = UdOptions {
            align,
            keep_sentences: true,
            by: treeval_metrics::ByKey::ALL.to_vec(),
            ..UdOptions::default()
        };
        evaluate_sources(&mut gs, &mut ss, "g", "s", &opts).expect("valid files")
    }

    /// Edits of a system file: 0 drop a sentence, 1 NFD a word, 2 change a word,
    /// 3 split a word in two (same text), 4 join two sentences (same text), 5 cut the file.
    fn edit(sents: &mut Vec<Vec<String>>, op: u8, at: usize) -> bool {
        if sents.is_empty() {
            return true;
        }
        let k = at % sents.len();
        let w = (at / 7) % sents[k].len();
        match op {
            0 => {
                sents.remove(k);
                true
            }
            1 => {
                let nfd = sents[k][w]
                    .replace('é', "e\u{301}")
                    .replace('ï', "i\u{308}");
                let same = nfd == sents[k][w];
                sents[k][w] = nfd;
                same
            }
            2 => {
                sents[k][w] = format!("{}q", sents[k][w]);
                false
            }
            3 => {
                let word = sents[k][w].clone();
                if let Some((i, _)) = word.char_indices().nth(1) {
                    sents[k].splice(w..=w, [word[..i].to_owned(), word[i..].to_owned()]);
                }
                true
            }
            4 => {
                if k + 1 < sents.len() {
                    let next = sents.remove(k + 1);
                    sents[k].extend(next);
                }
                true
            }
            _ => {
                sents.truncate(k);
                true
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn resync_is_strict_on_equal_texts_and_consistent_otherwise(
            gold in proptest::collection::vec(proptest::collection::vec(0..VOCAB.len(), 1..6), 0..150),
            edits in proptest::collection::vec((0u8..6, 0usize..10_000), 0..6),
            unique in any::<bool>(),
        ) {
            // with `unique`, every sentence starts with its own number, so that no 32 bytes
            // of text repeat and the nearest resynchronisation is the true one
            let gold: Vec<Vec<String>> = gold
                .into_iter()
                .enumerate()
                .map(|(k, s)| {
                    let marker = unique.then(|| format!("s{k}"));
                    marker.into_iter().chain(s.into_iter().map(|w| VOCAB[w].to_owned())).collect()
                })
                .collect();
            let mut sys = gold.clone();
            let mut only_drops = true;
            for &(op, at) in &edits {
                let dropped_words = op == 0 || op == 5;
                let same_text = edit(&mut sys, op, at);
                only_drops &= dropped_words || (same_text && op == 1);
            }
            let text = |s: &[Vec<String>]| s.iter().flatten().cloned().collect::<String>();
            let (g, s) = (conllu(&gold), conllu(&sys));
            let r = run(&g, &s, AlignMode::Resync);
            let windows = r.resync.clone().expect("resync windows");
            let words = r.counts.metrics[treeval_metrics::ud::UdMetric::Words];
            let n_sys: u64 = sys.iter().map(|x| x.len() as u64).sum();
            prop_assert_eq!(words.system, n_sys);
            let in_windows = |gold: bool| -> u64 {
                windows.iter().map(|w| if gold { w.gold.words } else { w.system.words }).sum()
            };
            prop_assert!(words.correct + in_windows(true) <= words.gold);
            prop_assert!(words.correct + in_windows(false) <= words.system);
            for c in &r.counts.metrics {
                prop_assert!(c.correct <= c.gold.min(c.system));
            }
            // every breakdown partitions the words of each side and their LAS/UAS
            let (las, uas) = (r.counts.metrics[treeval_metrics::ud::UdMetric::Las], r.counts.metrics[treeval_metrics::ud::UdMetric::Uas]);
            for (key, groups) in &r.by {
                let sum = |f: &dyn Fn(&treeval_metrics::deps::GroupCounts) -> u64| -> u64 {
                    groups.iter().map(|(_, g)| f(g)).sum()
                };
                prop_assert_eq!(sum(&|g| g.gold), words.gold, "{:?}", key);
                prop_assert_eq!(sum(&|g| g.system), words.system, "{:?}", key);
                prop_assert_eq!(sum(&|g| g.gold_las), las.correct, "{:?}", key);
                prop_assert_eq!(sum(&|g| g.system_las), las.correct, "{:?}", key);
                prop_assert_eq!(sum(&|g| g.gold_uas), uas.correct, "{:?}", key);
            }
            if text(&gold) == text(&sys) {
                let strict = run(&g, &s, AlignMode::Strict);
                prop_assert_eq!(strict.counts, r.counts);
                prop_assert_eq!(strict.sentences, r.sentences);
                prop_assert!(windows.is_empty());
            } else if only_drops && unique {
                // every remaining system word aligns; only the dropped gold words are left
                prop_assert_eq!(words.correct, n_sys);
                prop_assert_eq!(in_windows(true), words.gold - n_sys);
                prop_assert_eq!(in_windows(false), 0);
            }
        }
    }
}

mod brackets {
    use proptest::prelude::*;
    use treeval_formats::bracket::{BracketReader, Layout};
    use treeval_metrics::brackets::{evaluate, evaluate_inline, Params, Status};

    /// `t` with every pre-terminal `(TAG word)` replaced by its word.
    fn strip_tags(t: &str) -> String {
        let tok = |s: &str| s.find([' ', '(', ')']).unwrap_or(s.len());
        let mut out = String::new();
        let mut rest = t;
        while let Some(i) = rest.find('(') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let leaf = after[tok(after)..].strip_prefix(' ').and_then(|w| {
                let b = tok(w);
                (b > 0 && w[b..].starts_with(')')).then(|| (&w[..b], &w[b + 1..]))
            });
            match leaf {
                Some((word, tail)) => {
                    out.push_str(word);
                    rest = tail;
                }
                None => {
                    out.push('(');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }

    #[test]
    fn strip_tags_leaves_the_words() {
        assert_eq!(
            strip_tags("(S (NP (DT a) (NN b)) (VB c))"),
            "(S (NP a b) c)"
        );
    }

    /// A random tree as text: labels from a small set (some deleted by COLLINS.prm).
    fn tree() -> impl Strategy<Value = String> {
        let leaf = (
            prop::sample::select(vec!["NN", "DT", ",", "-NONE-", "VB"]),
            "[a-z]{1,3}",
        )
            .prop_map(|(t, w)| format!("({t} {w})"));
        leaf.prop_recursive(5, 40, 4, |inner| {
            (
                prop::sample::select(vec!["S", "NP", "VP", "NP-SBJ", "TOP", "ADVP", "PRT"]),
                prop::collection::vec(inner, 1..4),
            )
                .prop_map(|(l, kids)| format!("({l} {})", kids.join(" ")))
        })
    }

    proptest! {
        #[test]
        fn a_tree_against_itself_is_perfect(trees in prop::collection::vec(tree(), 1..20)) {
            let text = trees.join("\n") + "\n";
            let mut g = BracketReader::new(text.as_bytes(), "g", Layout::Line);
            let mut t = BracketReader::new(text.as_bytes(), "t", Layout::Line);
            let r = evaluate(&mut g, &mut t, &Params::collins(), None).unwrap();
            prop_assert_eq!(r.all.sentences, trees.len() as u64);
            prop_assert_eq!(r.all.error_sentences, 0);
            for row in &r.rows {
                if row.status == Status::Ok {
                    prop_assert_eq!(row.matched, row.gold);
                    prop_assert_eq!(row.matched, row.test);
                    prop_assert_eq!(row.crossing, 0);
                    prop_assert_eq!(row.correct_tags, row.words);
                }
            }
            prop_assert_eq!(r.all.complete, r.all.valid());
            // the threaded reader gives what the inline one gives, on shifted pairs too
            let shifted = trees[1..].join("\n") + "\n";
            let mut g = BracketReader::new(text.as_bytes(), "g", Layout::Line);
            let mut t = BracketReader::new(shifted.as_bytes(), "t", Layout::Line);
            let a = evaluate(&mut g, &mut t, &Params::collins(), None).unwrap();
            let mut g = BracketReader::new(text.as_bytes(), "g", Layout::Line);
            let mut t = BracketReader::new(shifted.as_bytes(), "t", Layout::Line);
            let b = evaluate_inline(&mut g, &mut t, &Params::collins(), None).unwrap();
            prop_assert_eq!(&a.rows, &b.rows);
            prop_assert_eq!(&a.errors, &b.errors);
            // recording EVALB's debug dump changes no count (the replay of its loops
            // matches as many brackets as the scorer: checked inside, in debug builds),
            // and the dump holds one record per row
            let traced = Params { trace: true, count_wrapper: true, ..Params::collins() };
            let plain = Params { count_wrapper: true, ..Params::collins() };
            let mut g = BracketReader::new(text.as_bytes(), "g", Layout::Line);
            let mut t = BracketReader::new(shifted.as_bytes(), "t", Layout::Line);
            let c = evaluate_inline(&mut g, &mut t, &traced, None).unwrap();
            let mut g = BracketReader::new(text.as_bytes(), "g", Layout::Line);
            let mut t = BracketReader::new(shifted.as_bytes(), "t", Layout::Line);
            let d = evaluate_inline(&mut g, &mut t, &plain, None).unwrap();
            prop_assert_eq!(&c.rows, &d.rows);
            prop_assert_eq!(c.traces.len(), c.rows.len());
            for (row, tr) in c.rows.iter().zip(&c.traces) {
                if row.status == Status::Ok {
                    let matched = tr.brackets[0].iter().filter(|b| b.result == 1).count();
                    prop_assert_eq!(matched as u64, row.matched);
                }
            }
        }

        /// A system equal to the gold with its POS tags stripped (`(NN a)` → `a`, as
        /// language models write trees) keeps every bracket count, sentence by sentence:
        /// each word without a tag takes the gold word's deletion decision. A tree whose
        /// stripped form is not read as untagged (every word alone under its phrase, as
        /// `(S (NP a))`, reads as EVALB reads it) stays tagged: the file is mixed.
        #[test]
        fn stripping_the_tags_keeps_every_bracket_count(trees in prop::collection::vec(tree(), 1..20)) {
            let gold = trees.join("\n") + "\n";
            let mut stripped = 0;
            let system: Vec<String> = trees
                .iter()
                .map(|t| {
                    let s = strip_tags(t);
                    let mut r = BracketReader::new(s.as_bytes(), "s", Layout::Line);
                    let mut read = treeval_formats::bracket::BracketTree::default();
                    r.read_tree(&mut read).unwrap();
                    if read.untagged && read.problems.is_empty() {
                        stripped += 1;
                        s
                    } else {
                        t.clone()
                    }
                })
                .collect();
            let system = system.join("\n") + "\n";
            let run = |sys: &str| {
                let mut g = BracketReader::new(gold.as_bytes(), "g", Layout::Line);
                let mut t = BracketReader::new(sys.as_bytes(), "t", Layout::Line);
                evaluate_inline(&mut g, &mut t, &Params::collins(), None).unwrap()
            };
            let (a, b) = (run(&gold), run(&system));
            let counts = |r: &treeval_metrics::brackets::SentenceRow| {
                (r.status, r.length, r.matched, r.gold, r.test, r.crossing, r.words)
            };
            for (x, y) in a.rows.iter().zip(&b.rows) {
                prop_assert_eq!(counts(x), counts(y));
                prop_assert_eq!(y.correct_tags + y.untagged_words, y.words);
            }
            let (s, t) = (a.all.scores(), b.all.scores());
            prop_assert_eq!((s.recall, s.precision, s.fmeasure), (t.recall, t.precision, t.fmeasure));
            prop_assert_eq!(b.reading.untagged_trees, stripped);
            prop_assert_eq!(b.reading.untagged_unpaired, 0);
        }

        /// `--by label,length` and the browser's brackets count what the summary counts:
        /// over the groups, and over the matched flags of either side, the totals.
        #[test]
        fn breakdowns_and_kept_brackets_sum_to_the_summary(
            trees in prop::collection::vec(tree(), 1..12),
            relabel in prop::collection::vec(any::<bool>(), 12),
            labeled in any::<bool>(),
        ) {
            let gold = trees.join("\n") + "\n";
            // the same words: some labels changed, and every other sentence shifted
            let test: Vec<String> = trees
                .iter()
                .zip(&relabel)
                .map(|(t, &r)| if r { t.replacen("(NP ", "(VP ", 1).replacen("(S ", "(PRT ", 1) } else { t.clone() })
                .collect();
            let test = test.join("\n") + "\n";
            let p = Params { by_label: true, keep_brackets: true, labeled, ..Params::collins() };
            let mut g = BracketReader::new(gold.as_bytes(), "g", Layout::Line);
            let mut t = BracketReader::new(test.as_bytes(), "t", Layout::Line);
            let r = evaluate_inline(&mut g, &mut t, &p, None).unwrap();
            let sum = |it: &mut dyn Iterator<Item = &treeval_metrics::brackets::by::BracketGroup>| {
                it.fold((0, 0, 0, 0), |a, c| (a.0 + c.gold, a.1 + c.test, a.2 + c.matched, a.3 + c.sentences))
            };
            let want = (r.all.gold, r.all.test, r.all.matched);
            let l = sum(&mut r.by_label.iter().map(|x| &x.1));
            prop_assert_eq!((l.0, l.1, l.2), want);
            let lengths = treeval_metrics::brackets::by::by_length(&r.rows);
            let n = sum(&mut lengths.iter().map(|x| &x.1));
            prop_assert_eq!((n.0, n.1, n.2, n.3), (want.0, want.1, want.2, r.all.valid()));
            prop_assert!(r.by_label.iter().all(|(_, c)| c.matched <= c.gold && c.matched <= c.test));
            prop_assert_eq!(r.sentences.len() as u64, r.all.valid());
            let flags = |side: &dyn Fn(&treeval_metrics::brackets::by::ScoredBrackets) -> u64| -> u64 {
                r.sentences.iter().map(side).sum()
            };
            prop_assert_eq!(flags(&|s| s.gold.iter().filter(|b| b.matched).count() as u64), r.all.matched);
            prop_assert_eq!(flags(&|s| s.test.iter().filter(|b| b.matched).count() as u64), r.all.matched);
            prop_assert_eq!(flags(&|s| s.gold.len() as u64), r.all.gold);
            prop_assert_eq!(flags(&|s| s.test.len() as u64), r.all.test);
            for s in &r.sentences {
                prop_assert_eq!(s.words.len(), s.tags.len());
                let w = s.words.len() as u32;
                prop_assert!(s.gold.iter().chain(&s.test).all(|b| b.start < b.end && b.end <= w));
            }
            // collecting changes no count
            let plain = Params { labeled, ..Params::collins() };
            let mut g = BracketReader::new(gold.as_bytes(), "g", Layout::Line);
            let mut t = BracketReader::new(test.as_bytes(), "t", Layout::Line);
            let q = evaluate_inline(&mut g, &mut t, &plain, None).unwrap();
            prop_assert_eq!(&q.rows, &r.rows);
        }
    }
}

mod ted {
    use proptest::prelude::*;
    use treeval_metrics::ted::{
        distance, distance_with_script, script_cost, Edit, Node, Tree, UnitCost,
    };

    /// Random trees of up to ~60 nodes over 4 labels.
    fn node() -> impl Strategy<Value = Node> {
        let leaf = (0u32..4).prop_map(|label| Node {
            label,
            children: Vec::new(),
        });
        leaf.prop_recursive(6, 60, 5, |inner| {
            ((0u32..4), prop::collection::vec(inner, 1..5))
                .prop_map(|(label, children)| Node { label, children })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn metric_laws_and_scripts(a in node(), b in node(), c in node()) {
            let (a, b, c) = (Tree::from_node(&a), Tree::from_node(&b), Tree::from_node(&c));
            prop_assert_eq!(distance(&a, &a, &UnitCost), 0);
            let ab = distance(&a, &b, &UnitCost);
            prop_assert_eq!(ab, distance(&b, &a, &UnitCost));
            let (bc, ac) = (distance(&b, &c, &UnitCost), distance(&a, &c, &UnitCost));
            prop_assert!(ac <= ab + bc);
            prop_assert!(ab <= (a.len() + b.len()) as u32);
            let (d, s) = distance_with_script(&a, &b, &UnitCost);
            prop_assert_eq!(d, ab);
            prop_assert_eq!(script_cost(&s), d);
            // a valid mapping: every node once, and ancestors map to ancestors
            let maps: Vec<(u32, u32)> = s.iter().filter_map(|e| match *e {
                Edit::Map { a, b, .. } => Some((a, b)),
                _ => None,
            }).collect();
            let anc = |t: &Tree, x: u32, y: u32| {
                let mut p = t.parent[y as usize];
                while let Some(q) = p {
                    if q == x { return true; }
                    p = t.parent[q as usize];
                }
                false
            };
            for &(x1, y1) in &maps {
                for &(x2, y2) in &maps {
                    prop_assert_eq!(anc(&a, x1, x2), anc(&b, y1, y2));
                    prop_assert_eq!(x1 < x2, y1 < y2);
                }
            }
            prop_assert_eq!(s.len(), a.len() + b.len() - maps.len());
        }
    }
}
