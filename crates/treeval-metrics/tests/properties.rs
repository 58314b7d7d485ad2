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

fn policies() -> impl Strategy<Value = DepsOptions> {
    (
        prop_oneof![
            Just(PunctPolicy::Include),
            Just(PunctPolicy::Form),
            Just(PunctPolicy::Deprel("punct".into())),
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
        prop_assert_eq!(c.las, c.words);
        prop_assert_eq!(c.uas, c.words);
        prop_assert_eq!(c.la, c.words);
        prop_assert_eq!(c.lem, c.scored_sentences);
        prop_assert_eq!(c.uem, c.scored_sentences);
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
        prop_assert_eq!(whole.words, sum.words);
        prop_assert_eq!(whole.las, sum.las);
        prop_assert_eq!(whole.uas, sum.uas);
        prop_assert_eq!(whole.la, sum.la);
        prop_assert_eq!(whole.lem, sum.lem);
        prop_assert_eq!(whole.uem, sum.uem);
        prop_assert_eq!(whole.root_correct, sum.root_correct);
        prop_assert_eq!(whole.excluded, sum.excluded);
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
    let input = |p: &std::path::Path| Input {
        path: p.to_str().unwrap().into(),
        builder: ReaderBuilder::new(),
    };
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
