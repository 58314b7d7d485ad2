//! Unit tests: feature extraction, the objective's gradient, a separable case, the
//! model file.

use treeval_formats::{ReaderBuilder, Sentence};
use treeval_metrics::nbest::{CandidateScore, Metric, Triples};

use crate::data::TrainingSet;
use crate::features::{Extractor, Group};
use crate::objective::{fit, Objective, Target};

fn parse(text: &str) -> Sentence {
    let mut r = ReaderBuilder::new().from_reader("t.conllu", text.as_bytes());
    let mut s = Sentence::new();
    assert!(r.read_sentence(&mut s).unwrap());
    s
}

const EATS: &str = "1\tShe\tshe\tPRON\t_\t_\t2\tnsubj\t_\t_\n\
                    2\teats\teat\tVERB\t_\t_\t0\troot\t_\t_\n\
                    3\tapples\tapple\tNOUN\t_\t_\t2\tobj\t_\t_\n\n";

#[test]
fn features_of_a_hand_made_tree() {
    let s = parse(EATS);
    let mut got: Vec<(String, f64)> = Vec::new();
    Extractor::new(&Group::ALL).extract(&s, -0.5, &mut got);
    let want: Vec<(&str, f64)> = vec![
        ("score:", -0.5),
        ("rel:nsubj", 1.0),
        ("rel-pos:nsubj|VERB|PRON", 1.0),
        ("rel-dir-dist:nsubj|right|1", 1.0),
        ("lemma-rel:eat|nsubj", 1.0),
        ("grandparent:root|nsubj", 1.0),
        ("rel:root", 1.0),
        ("rel-pos:root|ROOT|VERB", 1.0),
        ("rel-dir-dist:root|root|root", 1.0),
        ("lemma-rel:ROOT|root", 1.0),
        ("rel:obj", 1.0),
        ("rel-pos:obj|VERB|NOUN", 1.0),
        ("rel-dir-dist:obj|left|1", 1.0),
        ("lemma-rel:eat|obj", 1.0),
        ("grandparent:root|obj", 1.0),
        ("sibling:nsubj|obj", 1.0),
        ("valency:PRON|", 1.0),
        ("valency:VERB|nsubj,obj", 1.0),
        ("valency:NOUN|", 1.0),
        ("roots:", 1.0),
        ("nonproj:", 0.0),
    ];
    let got: Vec<(&str, f64)> = got.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(got, want);
}

#[test]
fn non_projective_arcs_and_missing_heads_are_counted() {
    // 4→1 spans 2 and 3 (2 is the root: not under 1); 3→1 spans 2 (not under 3)
    let s = parse(
        "1\ta\ta\tX\t_\t_\t3\tdep\t_\t_\n2\tb\tb\tX\t_\t_\t0\troot\t_\t_\n\
         3\tc\tc\tX\t_\t_\t2\tdep\t_\t_\n4\td\td\tX\t_\t_\t1\tdep\t_\t_\n\n",
    );
    let mut got: Vec<(String, f64)> = Vec::new();
    Extractor::new(&[Group::Nonproj, Group::Roots]).extract(&s, 0.0, &mut got);
    assert_eq!(got, vec![("roots:".into(), 1.0), ("nonproj:".into(), 2.0)]);
    let s = parse("1\ta\ta\tX\t_\t_\t_\tdep\t_\t_\n2\tb\tb\tX\t_\t_\t0\troot\t_\t_\n\n");
    let mut got: Vec<(String, f64)> = Vec::new();
    Extractor::new(&[Group::Rel]).extract(&s, 0.0, &mut got);
    assert_eq!(got, vec![("rel:root".into(), 1.0), ("nohead:".into(), 1.0)]);
}

#[test]
fn hashing_is_fnv1a_of_the_feature_string() {
    // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c (the published test vector)
    let mut h = crate::features::Fnv::new();
    h.write(b"a");
    assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(crate::features::hash_index("a", 20), 0x1_ec8c);
    let mut v = Vec::new();
    crate::features::Hashed {
        bits: 20,
        out: &mut v,
    }
    .add_for_test("rel", &["nsubj"]);
    assert_eq!(v, vec![(crate::features::hash_index("rel:nsubj", 20), 1.0)]);
}

impl crate::features::Hashed<'_> {
    fn add_for_test(&mut self, g: &str, p: &[&str]) {
        crate::features::Sink::add(self, g, p, 1.0);
    }
}

/// A candidate with `right` of `words` words right.
fn cand(right: u64, words: u64) -> CandidateScore {
    CandidateScore {
        rank: 1,
        weight: 0.0,
        words,
        las: right,
        uas: right,
        la: right,
        triples: Triples {
            overlap: right,
            gold: words,
            system: words,
        },
        cgn: 0,
        cgn_total: 0,
    }
}

/// A candidate: its sparse features and how many of its 4 words are right.
type Cand = (Vec<(u32, f64)>, u64);

/// A set of sentences, each a list of candidates.
fn set(sents: &[Vec<Cand>], dim: u32) -> TrainingSet {
    let mut t = TrainingSet::new(Metric::Las);
    for s in sents {
        let group: Vec<(Vec<(u32, f64)>, CandidateScore)> =
            s.iter().map(|(f, r)| (f.clone(), cand(*r, 4))).collect();
        t.push_sentence(&group);
    }
    assert!(t.dimension() as u32 <= dim);
    t
}

#[test]
fn gradient_matches_finite_differences() {
    let t = set(
        &[
            vec![
                (vec![(0, 1.0), (1, 2.0)], 4),
                (vec![(1, 1.0), (2, -0.5)], 2),
                (vec![(0, 3.0)], 3),
            ],
            vec![(vec![(2, 1.0)], 1), (vec![(0, 1.0), (2, 2.0)], 4)],
        ],
        3,
    );
    for target in [Target::Proportional, Target::Sharp(0.3), Target::Best] {
        let obj = Objective::new(&t, target, 2.0);
        let w = vec![0.3, -0.2, 0.7];
        let (_, g) = obj.eval(&w);
        for i in 0..3 {
            let h = 1e-6;
            let mut a = w.clone();
            let mut b = w.clone();
            a[i] += h;
            b[i] -= h;
            let num = (obj.eval(&a).0 - obj.eval(&b).0) / (2.0 * h);
            assert!(
                (num - g[i]).abs() < 1e-6,
                "{target:?} {i}: {num} vs {}",
                g[i]
            );
        }
    }
}

#[test]
fn targets_by_hand() {
    let mut q = Vec::new();
    Target::Proportional.distribution(&[50.0, 100.0, 50.0], &mut q);
    assert_eq!(q, vec![0.25, 0.5, 0.25]);
    Target::Best.distribution(&[50.0, 100.0, 100.0], &mut q);
    assert_eq!(q, vec![0.0, 0.5, 0.5]);
    Target::Sharp(std::f64::consts::LN_2).distribution(&[99.0, 100.0], &mut q);
    assert!((q[0] - 1.0 / 3.0).abs() < 1e-12 && (q[1] - 2.0 / 3.0).abs() < 1e-12);
}

#[test]
fn separable_case_learns_to_pick_the_best() {
    // feature 0 marks the best candidate, feature 1 the others; rank 1 is never the best
    let t = set(
        &[
            vec![(vec![(1, 1.0)], 2), (vec![(0, 1.0)], 4)],
            vec![
                (vec![(1, 1.0)], 1),
                (vec![(1, 1.0)], 2),
                (vec![(0, 1.0)], 3),
            ],
        ],
        2,
    );
    let f = fit(&t, Target::Best, 100.0).unwrap();
    // dense numbers follow first appearance: hashed 1 is dense 0, hashed 0 dense 1
    assert_eq!(t.hashed, vec![1, 0]);
    assert!(f.weights[1] > f.weights[0] + 1.0, "{:?}", f.weights);
    let mut z = Vec::new();
    for s in 0..t.sentences() {
        crate::objective::scores(&t, &f.weights, t.sentence(s), &mut z);
        let k = crate::model::choose(&z);
        assert_eq!(t.features(t.sentence(s).start + k).0, &[1]);
    }
}

#[test]
fn model_round_trip_and_schema_check() {
    use crate::model::{FeatureSpec, Model};
    let t = set(&[vec![(vec![(1, 1.0)], 2), (vec![(0, 1.0)], 4)]], 2);
    let o = crate::TrainOptions {
        metric: Metric::Las,
        target: crate::TargetOption::Best,
        sigma2: Some(10.0),
        folds: 5,
        conventions: ("include".into(), "full".into()),
    };
    let (m, runs) = crate::train(&t, &o, FeatureSpec::new(&Group::ALL, 20), &|_, _, _| {}).unwrap();
    assert!(runs.is_empty());
    let back = Model::from_json("m.json", &m.to_json()).unwrap();
    // JSON keeps the shortest decimal of each float; reading may be 1 ulp off
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-15 * a.abs().max(1.0);
    assert_eq!(back.weights.len(), m.weights.len());
    for (a, b) in back.weights.iter().zip(&m.weights) {
        assert!(a.0 == b.0 && close(a.1, b.1), "{a:?} {b:?}");
    }
    assert!(close(back.training.cost, m.training.cost));
    let same = |x: &Model| Model {
        weights: Vec::new(),
        training: crate::model::Training {
            cost: 0.0,
            ..x.training.clone()
        },
        ..x.clone()
    };
    assert_eq!(same(&back), same(&m));
    let other = m.to_json().replace(crate::SCHEMA, "treeval.rerank-model/9");
    let e = Model::from_json("m.json", &other).unwrap_err();
    assert!(e.contains("expected a model of schema 'treeval.rerank-model/1', found schema 'treeval.rerank-model/9'"), "{e}");
    let e = Model::from_json("m.json", "{\"weights\": []}").unwrap_err();
    assert!(e.contains("found no schema"), "{e}");
    let e = Model::from_json("m.json", "{\"schema\": ").unwrap_err();
    assert!(e.starts_with("m.json:1:"), "{e}");
}

#[test]
fn round_off_weights_are_zero_and_small_real_ones_stay() {
    // 1.28e-17 beside a largest weight of 0.0154 is round-off (a feature equal on every
    // candidate); 5e-4 is a weight
    let w = crate::train::nonzero_weights(&[5, 3, 9, 7], &[1.28e-17, -0.0154, 0.0, 5e-4]);
    assert_eq!(w, vec![(3, -0.0154), (7, 5e-4)]);
    assert!(crate::train::nonzero_weights(&[1], &[0.0]).is_empty());
}

#[test]
fn named_features_keep_their_strings_under_their_index() {
    use crate::features::{hash_index, Hashed, Named, Sink, COLLIDED};
    let (mut out, mut names) = (Vec::new(), std::collections::HashMap::new());
    let mut n = Named {
        hashed: Hashed {
            bits: 20,
            out: &mut out,
        },
        names: &mut names,
    };
    n.add("rel", &["nsubj"], 1.0);
    n.add("rel", &["nsubj"], 1.0);
    let i = hash_index("rel:nsubj", 20);
    assert_eq!(out, vec![(i, 1.0), (i, 1.0)]);
    assert_eq!(names[&i], "rel:nsubj");
    // one bit: every feature collides with another
    let (mut out, mut names) = (Vec::new(), std::collections::HashMap::new());
    let mut n = Named {
        hashed: Hashed {
            bits: 1,
            out: &mut out,
        },
        names: &mut names,
    };
    for k in 0..8 {
        n.add("rel", &[&k.to_string()], 1.0);
    }
    assert!(names.values().all(|v| v.ends_with(COLLIDED)), "{names:?}");
}
