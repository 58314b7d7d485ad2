//! `--where`: which scored words a `deps` evaluation keeps. A condition names a `--by` key
//! ([`ByKey`]) of the gold word (`deprel=nsubj`, `gold.distance=3-6`) or of the system's
//! analysis of the same word (`sys.deprel=obj`), and the values it accepts; a word is kept
//! when every condition holds. The groups are the `--by` groups ([`ByKey::bins`] and the
//! `*_bin` functions of this module's parent), so that `--where distance=3-6` keeps
//! exactly the words of the `--by distance` cell `3-6`.

use treeval_formats::Sentence;

use super::{depth_bin, direction_bin, distance_bin, length_bin, projectivity_bin};
use super::{ByKey, LabelMode};
use crate::filter::Value;
use crate::tree::{Tree, NO_DEPTH};

/// Whose analysis of a word a condition reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The gold word (`KEY=…` or `gold.KEY=…`).
    Gold,
    /// The system's head and label of the same word (`sys.KEY=…`).
    System,
}

/// The keys a `sys.` condition may name: those the system's analysis of a word gives.
pub const SYSTEM_KEYS: [ByKey; 4] = [
    ByKey::Deprel,
    ByKey::Upos,
    ByKey::Distance,
    ByKey::Direction,
];

/// One condition: `side.key=value|value…`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cond {
    side: Side,
    key: ByKey,
    values: Vec<Value>,
}

impl Cond {
    /// Whether a word whose group is `bin` (and whose number is `num`, for the numeric
    /// keys) is accepted.
    fn accepts(&self, bin: &str, num: Option<u32>) -> bool {
        crate::filter::accepts_any(&self.values, bin, num)
    }
}

impl crate::filter::Named for Cond {
    /// `gold.deprel=nsubj|obj`, alternatives joined by `or`.
    fn name(&self, or: &str) -> String {
        let side = match self.side {
            Side::Gold => "gold",
            Side::System => "sys",
        };
        let values = crate::filter::join(&self.values, or);
        format!("{side}.{}={values}", self.key.name())
    }
}

/// Conditions on words, all of which must hold (none: every word).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Where {
    conds: Vec<Cond>,
}

/// What a malformed condition is told it should look like.
fn expected_keys() -> String {
    let gold: Vec<&str> = ByKey::ALL.iter().map(|k| k.name()).collect();
    let sys: Vec<String> = SYSTEM_KEYS
        .iter()
        .map(|k| format!("sys.{}", k.name()))
        .collect();
    format!(
        "{} (of the gold word; also written gold.KEY) or {} (the system's analysis of the same word)",
        gold.join(", "),
        sys.join(", ")
    )
}

/// One value of `key`, checked.
fn parse_value(key: ByKey, v: &str, labels: LabelMode) -> Result<Value, String> {
    if key == ByKey::Deprel && labels == LabelMode::Universal && v.contains(':') {
        return Err(format!(
            "deprel: --labels universal compares the part before ':' only, so '{v}' can match no word; write '{}' or use --labels full",
            LabelMode::Universal.apply(v)
        ));
    }
    let numeric = matches!(key, ByKey::Length | ByKey::Distance | ByKey::Depth);
    crate::filter::parse_value(key.name(), key.bins(), numeric, v)
}

/// One condition `[gold.|sys.]KEY=VALUE[|VALUE…]`.
fn parse_cond(c: &str, labels: LabelMode) -> Result<Cond, String> {
    let Some((k, vs)) = c.split_once('=') else {
        return Err(format!(
            "expected KEY=VALUE[|VALUE…], found '{c}'; KEY is one of {}",
            expected_keys()
        ));
    };
    let (side, name) = match k.split_once('.') {
        Some(("gold", n)) => (Side::Gold, n),
        Some(("sys", n)) => (Side::System, n),
        _ => (Side::Gold, k),
    };
    let key = ByKey::parse(name)
        .filter(|key| side == Side::Gold || SYSTEM_KEYS.contains(key))
        .ok_or_else(|| format!("expected one of {}; found '{k}'", expected_keys()))?;
    let values = vs
        .split('|')
        .map(|v| parse_value(key, v, labels))
        .collect::<Result<_, _>>()?;
    Ok(Cond { side, key, values })
}

impl Where {
    /// Parse one `--where` argument, `COND[,COND…]` (a comma inside a value written `\,`,
    /// as in every comma-separated list: [`crate::list`]), labels compared under `labels`.
    pub fn parse(spec: &str, labels: LabelMode) -> Result<Where, String> {
        let conds = crate::list::split(spec)
            .iter()
            .map(|c| parse_cond(c.trim(), labels))
            .collect::<Result<_, _>>()?;
        Ok(Where { conds })
    }

    /// Every condition of several `--where` arguments (all must hold).
    pub fn all(specs: &[String], labels: LabelMode) -> Result<Where, String> {
        let mut w = Where::default();
        for s in specs {
            w.conds.extend(Where::parse(s, labels)?.conds);
        }
        Ok(w)
    }

    /// Whether there is no condition (every word is kept).
    pub fn is_empty(&self) -> bool {
        self.conds.is_empty()
    }

    /// Whether a condition reads the system's analysis (then the words kept differ from
    /// one system to another).
    pub fn has_system_side(&self) -> bool {
        self.conds.iter().any(|c| c.side == Side::System)
    }

    /// Whether a gold condition reads the gold tree's shape (depth, projectivity).
    pub fn needs_gold_tree(&self) -> bool {
        self.conds
            .iter()
            .any(|c| c.side == Side::Gold && matches!(c.key, ByKey::Depth | ByKey::Projectivity))
    }

    /// The conditions as one canonical string for the signature, sides written out and
    /// alternatives joined by `/` (`|` separates the signature's parts):
    /// `gold.deprel=nsubj/obj,sys.deprel=obj`.
    pub fn name(&self) -> String {
        crate::filter::signature_name(&self.conds)
    }

    /// The conditions as written on the command line, sides written out, for a sentence:
    /// `gold.deprel=nsubj|obj and sys.deprel=obj`.
    pub fn describe(&self) -> String {
        crate::filter::described(&self.conds)
    }

    /// Whether word `i` (from 0) of gold sentence `s` meets the gold conditions; `tree`
    /// is `s`'s tree analysed (read only when [`Where::needs_gold_tree`]).
    pub fn gold_matches(&self, s: &Sentence, i: usize, tree: &Tree, labels: LabelMode) -> bool {
        let w = &s.words()[i];
        let dep = i as u32 + 1;
        let head = w.head().index().unwrap_or(u32::MAX);
        self.conds
            .iter()
            .filter(|c| c.side == Side::Gold)
            .all(|c| match c.key {
                ByKey::Deprel => c.accepts(labels.apply(s.deprel(w)), None),
                ByKey::Upos => c.accepts(s.upos(w), None),
                ByKey::Xpos => c.accepts(s.xpos(w), None),
                ByKey::Length => c.accepts(length_bin(s.len()), Some(s.len() as u32)),
                ByKey::Distance => c.accepts(distance_bin(head, dep), arc_length(head, dep)),
                ByKey::Direction => c.accepts(direction_bin(head, dep), None),
                ByKey::Depth => {
                    let d = tree.depth(dep);
                    c.accepts(depth_bin(d), (d != NO_DEPTH).then_some(d))
                }
                ByKey::Projectivity => c.accepts(projectivity_bin(tree.is_projective(dep)), None),
            })
    }

    /// Whether word `i` (from 0) of system sentence `s` meets the system conditions (a
    /// head missing or beyond the sentence is in the group `invalid`, as in `--by`).
    pub fn sys_matches(&self, s: &Sentence, i: usize, labels: LabelMode) -> bool {
        let w = &s.words()[i];
        let dep = i as u32 + 1;
        let head = w.head().index().filter(|&h| h as usize <= s.len());
        self.conds
            .iter()
            .filter(|c| c.side == Side::System)
            .all(|c| match (c.key, head) {
                (ByKey::Deprel, _) => c.accepts(labels.apply(s.deprel(w)), None),
                (ByKey::Upos, _) => c.accepts(s.upos(w), None),
                (_, None) => c.accepts("invalid", None),
                (ByKey::Distance, Some(h)) => c.accepts(distance_bin(h, dep), arc_length(h, dep)),
                (ByKey::Direction, Some(h)) => c.accepts(direction_bin(h, dep), None),
                _ => false,
            })
    }
}

/// The length of an arc (none from the root).
fn arc_length(head: u32, dep: u32) -> Option<u32> {
    (head != 0).then(|| head.abs_diff(dep))
}

#[cfg(test)]
mod tests {
    use super::*;
    use treeval_formats::ReaderBuilder;

    fn parse(s: &str) -> Result<String, String> {
        Where::parse(s, LabelMode::Full).map(|w| w.describe().replace(" and ", ","))
    }

    #[test]
    fn good_conditions_parse_to_their_canonical_names() {
        for (spec, name) in [
            ("deprel=nsubj", "gold.deprel=nsubj"),
            (
                "gold.deprel=nsubj,sys.deprel=obj",
                "gold.deprel=nsubj,sys.deprel=obj",
            ),
            ("deprel=nsubj|obj", "gold.deprel=nsubj|obj"),
            ("distance=9+", "gold.distance=9+"),
            ("distance=3-6", "gold.distance=3-6"),
            ("distance=root|1", "gold.distance=root|1"),
            ("sys.distance=invalid", "sys.distance=invalid"),
            ("length=11-20", "gold.length=11-20"),
            ("length=15", "gold.length=15"),
            ("depth=unreachable|7+", "gold.depth=unreachable|7+"),
            (
                "direction=left, upos=NOUN",
                "gold.direction=left,gold.upos=NOUN",
            ),
            (
                "projectivity=non-projective",
                "gold.projectivity=non-projective",
            ),
            ("sys.upos=VERB", "sys.upos=VERB"),
            ("deprel=obl:tmod", "gold.deprel=obl:tmod"),
        ] {
            assert_eq!(parse(spec), Ok(name.to_owned()), "{spec}");
        }
    }

    #[test]
    fn bad_conditions_say_what_was_expected_and_found() {
        for (spec, says) in [
            ("deprel", "expected KEY=VALUE"),
            ("lemma=go", "found 'lemma'"),
            ("sys.xpos=NN", "found 'sys.xpos'"),
            ("sys.depth=1", "found 'sys.depth'"),
            ("foo.deprel=x", "found 'foo.deprel'"),
            ("deprel=", "expected a value"),
            ("deprel=a|", "expected a value"),
            ("deprel=nsubj,", "expected KEY=VALUE"),
            (
                "distance=far",
                "distance: expected one of root, 1, 2, 3-6, 7+, invalid, a number",
            ),
            ("distance=6-3", "found '6-3'"),
            ("distance=-3", "found '-3'"),
            (
                "direction=up",
                "direction: expected one of root, left, right, self, invalid; found 'up'",
            ),
            ("projectivity=yes", "found 'yes'"),
            ("length=x+", "found 'x+'"),
        ] {
            let e = parse(spec).expect_err(spec);
            assert!(e.contains(says), "{spec}: {e}");
        }
        // every key is listed when the key is wrong
        let e = parse("lemma=go").unwrap_err();
        assert!(
            e.contains("deprel, upos, xpos, length, distance, direction, depth, projectivity"),
            "{e}"
        );
        assert!(
            e.contains("sys.deprel, sys.upos, sys.distance, sys.direction"),
            "{e}"
        );
        // a subtype can match no word once subtypes are stripped
        let e = Where::parse("deprel=obl:tmod", LabelMode::Universal).unwrap_err();
        assert!(e.contains("write 'obl'"), "{e}");
    }

    #[test]
    fn several_arguments_and_their_conditions_all_hold() {
        let w = Where::all(
            &["deprel=nsubj".into(), "sys.deprel=obj,distance=1".into()],
            LabelMode::Full,
        )
        .unwrap();
        assert_eq!(
            w.describe(),
            "gold.deprel=nsubj and sys.deprel=obj and gold.distance=1"
        );
        assert!(w.has_system_side() && !w.needs_gold_tree());
        assert!(Where::default().is_empty());
        // the signature's form: `|` separates its parts, so alternatives take `/`
        let w = Where::parse("deprel=nsubj|obj,sys.distance=7+", LabelMode::Full).unwrap();
        assert_eq!(w.name(), "gold.deprel=nsubj/obj,sys.distance=7+");
    }

    /// Words: 1 ←2 (nsubj), 2 root, 3 →2 (obj:x, head 2), 4 → 8 (out of range in system).
    fn sentence(text: &str) -> Sentence {
        ReaderBuilder::new()
            .from_reader("t", text.as_bytes())
            .sentences()
            .next()
            .unwrap()
            .unwrap()
    }

    #[test]
    fn words_match_by_their_by_groups_and_numbers() {
        let g = sentence(
            "1\ta\t_\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n2\tb\t_\tVERB\tVB\t_\t0\troot\t_\t_\n\
             3\tc\t_\tNOUN\tNN\t_\t2\tobj:x\t_\t_\n4\td\t_\tNOUN\tNN\t_\t1\tdep\t_\t_\n\n",
        );
        let s = sentence(
            "1\ta\t_\tPRON\tPRP\t_\t3\tobj\t_\t_\n2\tb\t_\tVERB\tVB\t_\t0\troot\t_\t_\n\
             3\tc\t_\tNOUN\tNN\t_\t2\tobj\t_\t_\n4\td\t_\tNOUN\tNN\t_\t9\tdep\t_\t_\n\n",
        );
        let mut tree = Tree::new();
        tree.analyze(g.words().iter().map(|w| w.head().index()));
        let kept = |spec: &str, labels: LabelMode| -> Vec<usize> {
            let w = Where::parse(spec, labels).unwrap();
            (0..4)
                .filter(|&i| w.gold_matches(&g, i, &tree, labels) && w.sys_matches(&s, i, labels))
                .map(|i| i + 1)
                .collect()
        };
        let full = LabelMode::Full;
        assert_eq!(kept("deprel=nsubj", full), [1]);
        assert_eq!(kept("deprel=obj", full), [] as [usize; 0]);
        assert_eq!(kept("deprel=obj", LabelMode::Universal), [3]);
        assert_eq!(kept("distance=1", full), [1, 3]);
        assert_eq!(kept("distance=3-6|root", full), [2, 4]);
        assert_eq!(kept("distance=3+", full), [4]);
        assert_eq!(kept("direction=right", full), [1]);
        assert_eq!(kept("depth=2", full), [1, 3]);
        assert_eq!(kept("depth=3+", full), [4]);
        assert_eq!(kept("length=1-10", full), [1, 2, 3, 4]);
        assert_eq!(kept("length=5+", full), [] as [usize; 0]);
        assert_eq!(kept("upos=NOUN,xpos=NN", full), [3, 4]);
        assert_eq!(kept("projectivity=non-projective", full), [4]);
        // the system side: its label, its arc (a head beyond the sentence is invalid)
        assert_eq!(kept("gold.deprel=nsubj,sys.deprel=obj", full), [1]);
        assert_eq!(kept("sys.distance=2", full), [1]);
        assert_eq!(kept("sys.distance=invalid", full), [4]);
        assert_eq!(kept("sys.direction=right|invalid", full), [1, 4]);
        assert_eq!(kept("sys.upos=PRON", full), [1]);
    }
}
