//! Sharded evaluation, the shards' order and identity (issue 38): the same states given in
//! any order merge into the same bytes; shards whose systems are in another order, or are
//! other systems, are refused (never summed across systems); merged systems are named by
//! what their shards' names share; states and per-sentence files are compressed as their
//! names say.

mod common;

use std::io::Read;
use std::path::Path;

use common::corpus::{conllu, fails, run, scratch, sentence, words, Triple};
use common::{stderr, treeval_in};
use proptest::prelude::*;

/// Write the shards of `corpus` cut at `cuts` (gold `g.K.conllu`, systems `a.K.conllu`
/// and `b.K.conllu`, or `b` first in the shards of `swapped`) and their states
/// `state.K.json` written by `command` with `eval`; the states' names, in corpus order.
fn shards(
    dir: &Path,
    corpus: &[Triple],
    cuts: &[usize],
    (command, eval): (&str, &str),
    swapped: &[usize],
) -> Vec<String> {
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(corpus.len());
    let mut states = Vec::new();
    for (i, w) in bounds.windows(2).enumerate() {
        let files: Vec<String> = ["g", "a", "b"]
            .iter()
            .enumerate()
            .map(|(k, n)| {
                let name = format!("{n}.{i}.conllu");
                std::fs::write(dir.join(&name), conllu(&corpus[w[0]..w[1]], k, w[0])).unwrap();
                name
            })
            .collect();
        let systems = match swapped.contains(&i) {
            true => [files[2].clone(), files[1].clone()],
            false => [files[1].clone(), files[2].clone()],
        };
        let state = format!("state.{i}.json");
        let mut args = words(&format!("{command} -q --keep-sentences --emit-state"));
        args.push(state.clone());
        args.push(files[0].clone());
        args.extend(systems);
        args.extend(words(eval));
        run(dir, &args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        states.push(state);
    }
    states
}

/// A corpus of at least two sentences and 1–4 cut points inside it (2–5 shards).
fn corpus_and_cuts() -> impl Strategy<Value = (Vec<Triple>, Vec<usize>)> {
    proptest::collection::vec(sentence(), 2..12).prop_flat_map(|c| {
        let n = c.len();
        let cuts = proptest::collection::btree_set(1..n, 1..5.min(n));
        (Just(c), cuts).prop_map(|(c, cuts)| (c, cuts.into_iter().collect()))
    })
}

/// The merge of `states` given in `order`, with `show`: its stdout, or its error.
fn merge(dir: &Path, states: &[String], order: &[usize], show: &str) -> Result<String, String> {
    let mut args = words("merge");
    args.extend(order.iter().map(|&k| states[k].clone()));
    args.extend(words(show));
    run(dir, &args)
}

/// The commands whose states resample sentences, with what the shards and the merge show.
const CASES: &[(&str, &str)] = &[
    ("deps", "--ci 95 --test ar --samples 200 --seed 3"),
    ("ud", "--ci 95 --test bootstrap --samples 200 --seed 4"),
    ("relations", "--ci 95 --test ar --samples 200 --seed 5"),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Any order of the same shards' states merges into the same bytes as corpus order
    /// (text and JSON, intervals and tests included): the merge sums them in the order
    /// of their gold files' names, not in the order given. The systems are not named
    /// (`--name`): their paths line them up.
    #[test]
    fn the_same_shards_in_any_order_merge_into_the_same_bytes(
        (corpus, cuts) in corpus_and_cuts(),
        case in 0..CASES.len(),
        shuffle in proptest::collection::vec(any::<u32>(), 5),
    ) {
        let dir = scratch(&format!("order-{case}"));
        let (command, show) = CASES[case];
        let states = shards(&dir, &corpus, &cuts, (command, show), &[]);
        let mut order: Vec<usize> = (0..states.len()).collect();
        // a permutation from the random keys (ties keep their order)
        order.sort_by_key(|&k| shuffle[k % shuffle.len()].wrapping_mul(k as u32 + 1));
        let identity: Vec<usize> = (0..states.len()).collect();
        for format in ["", "--format json"] {
            let show = format!("{show} {format}");
            let given = merge(&dir, &states, &order, &show);
            let sorted = merge(&dir, &states, &identity, &show);
            match (given, sorted) {
                (Ok(a), Ok(b)) => prop_assert_eq!(a, b, "order {:?}", order),
                // nothing scored, or no test possible: the same error either way
                (Err(a), Err(b)) => prop_assert_eq!(a, b),
                (a, b) => prop_assert!(false, "order {:?}: {:?} and {:?}", order, a, b),
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Shards whose systems are in another order (one shard run as `GOLD b a`, the others
    /// `GOLD a b`), unnamed, are refused naming both states and both files: merged by
    /// position, one row would sum different systems.
    #[test]
    fn shards_with_their_systems_in_another_order_are_refused(
        (corpus, cuts) in corpus_and_cuts(),
        case in 0..CASES.len(),
        which in any::<prop::sample::Index>(),
    ) {
        let dir = scratch(&format!("swapped-{case}"));
        let n = cuts.len() + 1;
        let swapped = which.index(n);
        let states = shards(&dir, &corpus, &cuts, (CASES[case].0, ""), &[swapped]);
        let order: Vec<usize> = (0..n).collect();
        let err = merge(&dir, &states, &order, "").expect_err("refused");
        // the first shard is the one the others are compared with
        let (other, first) = match swapped {
            0 => (1, 0),
            k => (k, 0),
        };
        let (a, b) = (format!("a.{other}.conllu"), format!("b.{other}.conllu"));
        let theirs = if swapped == 0 { a.clone() } else { b.clone() };
        let ours = if swapped == 0 { format!("b.{first}.conllu") } else { format!("a.{first}.conllu") };
        let want = format!(
            "error: state.{other}.json: system 1 is {theirs}, and in state.{first}.json it is {ours}: the systems are in another order (its system 1 is system 2 there); merged, one row would sum different systems\n  hint: evaluate every shard with its systems in the same order"
        );
        prop_assert!(err.contains(&want), "{}\nwanted {}", err, want);
        let _ = (a, b);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// testdata/sanity's gold and system cut into `n` shards of one sentence or more, named
/// `{gold}.K.conllu` and `{sys}.K.conllu`, with their states `state.K.json` (`opts` added).
fn sanity_shards(dir: &Path, n: usize, (gold, sys): (&str, &str), opts: &str) -> Vec<String> {
    let root = common::root().join("testdata/sanity");
    let mut states = Vec::new();
    let read = |f: &str| std::fs::read_to_string(root.join(f)).unwrap();
    let (g, s) = (read("ewt-gold.conllu"), read("ewt-sys.conllu"));
    let (g, s): (Vec<&str>, Vec<&str>) = (
        g.trim_end().split("\n\n").collect(),
        s.trim_end().split("\n\n").collect(),
    );
    for k in 0..n {
        let part = |v: &[&str]| v[k * v.len() / n..(k + 1) * v.len() / n].join("\n\n") + "\n\n";
        let (gf, sf) = (format!("{gold}.{k}.conllu"), format!("{sys}.{k}.conllu"));
        std::fs::write(dir.join(&gf), part(&g)).unwrap();
        std::fs::write(dir.join(&sf), part(&s)).unwrap();
        let state = format!("state.{k}.json");
        let line = format!("deps -q {gf} {sf} --emit-state {state} {opts}");
        let (code, err) = fails(dir, &line);
        assert_eq!(code, 0, "{line}: {err}");
        states.push(state);
    }
    states
}

/// A system whose shard files are not named alike (another system's file in one shard)
/// is refused, naming both states and both files, and how to name them.
#[test]
fn a_shard_of_another_system_is_refused_naming_both() {
    let dir = scratch("other-system");
    let mut states = sanity_shards(&dir, 2, ("gold", "parser"), "");
    std::fs::copy(dir.join("parser.1.conllu"), dir.join("tagger.1.conllu")).unwrap();
    let (code, err) = fails(
        &dir,
        "deps -q gold.1.conllu tagger.1.conllu --emit-state other.1.json",
    );
    assert_eq!(code, 0, "{err}");
    states[1] = "other.1.json".into();
    let (code, err) = fails(&dir, &format!("merge {} {}", states[0], states[1]));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("error: other.1.json: system 1 is tagger.1.conllu, and in state.0.json it is parser.0.conllu: their names do not say they are one system"),
        "{err}"
    );
    assert!(
        err.contains("hint: name each system's shard files alike"),
        "{err}"
    );
    // with the same --name in every shard, the names are the systems' identity
    for (k, sys) in [(0, "parser"), (1, "tagger")] {
        let line =
            format!("deps -q gold.{k}.conllu {sys}.{k}.conllu --name p --emit-state n.{k}.json");
        assert_eq!(fails(&dir, &line).0, 0, "{line}");
    }
    let (code, err) = fails(&dir, "merge -q n.0.json n.1.json");
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Five shards of a system named by its files (`sysD10m.00` … `sysD10m.04`, the gold's
/// `gold.0` … `gold.4`): the merged system is named by what they share, `sysD10m.*`, not
/// by the five names joined, and so are the inputs in the text.
#[test]
fn a_merged_system_is_named_by_what_its_shards_share() {
    let dir = scratch("shared-name");
    // testdata/sanity has 5 sentences: 5 shards of one sentence each
    sanity_shards(&dir, 5, ("gold", "sysD10m"), "");
    let files: Vec<String> = (0..5).map(|k| format!("sysD10m.{k}.conllu")).collect();
    for (k, f) in files.iter().enumerate() {
        std::fs::rename(dir.join(f), dir.join(format!("sysD10m.{k:02}.conllu"))).unwrap();
    }
    let mut states = Vec::new();
    for k in 0..5 {
        let line = format!("deps -q gold.{k}.conllu sysD10m.{k:02}.conllu --emit-state s{k}.json");
        assert_eq!(fails(&dir, &line).0, 0, "{line}");
        states.push(format!("s{k}.json"));
    }
    let o = treeval_in(
        &dir,
        &[
            "merge", &states[3], &states[0], &states[4], &states[1], &states[2], "--format", "json",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["systems"][0]["name"], "sysD10m.*", "{}", v["systems"]);
    // the text names each input by what its shards' paths share, so no line grows with
    // the shards (JSON keeps every path, joined by ` + `)
    let mut args = vec!["merge"];
    args.extend(states.iter().map(String::as_str));
    let o = treeval_in(&dir, &args);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("\ngold: gold.*.conllu (5 shard files, conllu, 5 sentences, "),
        "{text}"
    );
    assert!(
        text.contains("\nsystem sysD10m.*: sysD10m.*.conllu (5 shard files, conllu, "),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 100), "{text}");
    let joined: Vec<String> = (0..5).map(|k| format!("sysD10m.{k:02}.conllu")).collect();
    assert_eq!(v["inputs"][1]["path"], joined.join(" + "));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Decompress `bytes` (gzip, or zstd by its magic) with the compression crates
/// themselves: the oracle of what pandas and `zcat` read.
fn decompressed(bytes: &[u8]) -> String {
    let mut text = String::new();
    if bytes.starts_with(&[0x1f, 0x8b]) {
        flate2::read::GzDecoder::new(bytes)
            .read_to_string(&mut text)
            .unwrap();
    } else {
        assert!(bytes.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]), "not zstd");
        text = String::from_utf8(zstd::stream::decode_all(bytes).unwrap()).unwrap();
    }
    text
}

/// `--per-sentence ps.jsonl.gz` and `--emit-state st.json.zst` write gzip and Zstandard
/// (what pandas and zcat read), holding what the plain names hold; merge reads them; a
/// compressed file treeval wrote is replaced as a plain one is.
#[test]
fn outputs_are_compressed_as_their_names_say() {
    let dir = scratch("compressed");
    let ex = common::root().join("examples");
    for f in ["gold.conllu", "sys.conllu"] {
        std::fs::copy(ex.join(f), dir.join(f)).unwrap();
    }
    for (ext, magic) in [
        ("gz", &[0x1f_u8, 0x8b][..]),
        ("zst", &[0x28, 0xb5, 0x2f, 0xfd][..]),
    ] {
        for _ in 0..2 {
            // the second run replaces the compressed files it wrote
            let line = format!("deps -q gold.conllu sys.conllu --per-sentence ps.jsonl.{ext} --emit-state st.json.{ext}");
            let (code, err) = fails(&dir, &line);
            assert_eq!(code, 0, "{line}: {err}");
        }
        let line = "deps -q gold.conllu sys.conllu --per-sentence ps.jsonl --emit-state st.json";
        assert_eq!(fails(&dir, line).0, 0);
        for (packed, plain) in [
            (format!("ps.jsonl.{ext}"), "ps.jsonl"),
            (format!("st.json.{ext}"), "st.json"),
        ] {
            let bytes = std::fs::read(dir.join(&packed)).unwrap();
            assert!(bytes.starts_with(magic), "{packed}");
            let want = std::fs::read_to_string(dir.join(plain)).unwrap();
            assert_eq!(decompressed(&bytes), want, "{packed}");
        }
        let a = treeval_in(&dir, &["merge", &format!("st.json.{ext}")]);
        let b = treeval_in(&dir, &["merge", "st.json"]);
        assert!(a.status.success(), "{}", stderr(&a));
        assert_eq!(a.stdout, b.stdout);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
