//! Measures as data: a name, the formula and its source, the columns of a family's
//! per-unit sufficient statistics it reads, and the function from their sums to a score.
//!
//! Every family (deps, ud, relations, brackets, ted, align, pts) counts, per unit (a
//! sentence, a tree, a sentence pair), a row of numbers ([`Statistics`]); a [`Measure`]
//! reads some columns of the summed rows. Micro averages (the measure of the summed rows),
//! macro averages (the mean of the units' measures), breakdowns, confidence intervals and
//! significance tests are then the same code for every measure of every family: they
//! only sum columns and call [`Measure::score`].

use std::sync::Arc;

use serde::Serialize;

/// How a score is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A fraction in [0, 1], shown as a percentage with two decimals (`n/a` when undefined).
    Fraction,
    /// A whole number of items.
    Count,
    /// A mean of items per unit (average crossing brackets), shown with two decimals.
    Mean,
}

/// Which way is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Better {
    /// A higher score is better (LAS, F).
    Higher,
    /// A lower score is better (AER, edit distance).
    Lower,
}

/// The function from the summed columns a measure reads (in the order of
/// [`Measure::reads`]) to its score; `None` where it is undefined.
pub type ScoreFn = Arc<dyn Fn(&[f64]) -> Option<f64> + Send + Sync>;

/// One measure.
#[derive(Clone)]
pub struct Measure {
    /// The name the field writes (`LAS`, `AER`, `F`).
    pub name: &'static str,
    /// What it is, in words.
    pub title: &'static str,
    /// Its formula over the counts.
    pub formula: &'static str,
    /// The paper or definition it follows.
    pub source: &'static str,
    /// The reference tool whose number it equals (`eval07.pl, eval.pl`), empty when none.
    pub reference: &'static str,
    /// How it is shown.
    pub kind: Kind,
    /// Which way is better (for ranks and for the sign of test statistics).
    pub better: Better,
    /// The columns of the family's [`Statistics`] it reads, by index.
    pub reads: Vec<usize>,
    /// The score of the summed columns it reads.
    pub score: ScoreFn,
}

impl std::fmt::Debug for Measure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Measure")
            .field("name", &self.name)
            .field("reads", &self.reads)
            .finish_non_exhaustive()
    }
}

/// `n / d`, undefined when `d` is 0.
pub fn ratio(n: f64, d: f64) -> Option<f64> {
    (d > 0.0).then(|| n / d)
}

impl Measure {
    /// `columns[num] / columns[den]`: a fraction, higher is better.
    pub fn ratio(
        name: &'static str,
        title: &'static str,
        formula: &'static str,
        source: &'static str,
        num: usize,
        den: usize,
    ) -> Self {
        let score = |s: &[f64]| ratio(s[0], s[1]);
        Measure::fraction(name, title, formula, source, vec![num, den], score)
    }

    /// A fraction (higher is better) with its own score function over the columns it
    /// reads (in the order of `reads`).
    pub fn fraction(
        name: &'static str,
        title: &'static str,
        formula: &'static str,
        source: &'static str,
        reads: Vec<usize>,
        score: impl Fn(&[f64]) -> Option<f64> + Send + Sync + 'static,
    ) -> Self {
        Measure {
            name,
            title,
            formula,
            source,
            reference: "",
            kind: Kind::Fraction,
            better: Better::Higher,
            reads,
            score: Arc::new(score),
        }
    }

    /// The sum of one column: a count.
    pub fn count(name: &'static str, title: &'static str, column: usize) -> Self {
        Measure {
            name,
            title,
            formula: "the sum over units",
            source: "",
            reference: "",
            kind: Kind::Count,
            better: Better::Higher,
            reads: vec![column],
            score: Arc::new(|s: &[f64]| Some(s[0])),
        }
    }

    /// The same measure, equal to the number of reference tool `tool`.
    pub fn with_reference(self, tool: &'static str) -> Self {
        Measure {
            reference: tool,
            ..self
        }
    }

    /// Whether `--test-metrics` takes it: every measure but a count (a count has no
    /// interval and no test).
    pub fn is_testable(&self) -> bool {
        !self.is_count()
    }

    /// The score of a full row of summed columns (it picks the columns it reads).
    pub fn of(&self, sums: &[f64]) -> Option<f64> {
        let mut picked = [0.0; 8];
        if self.reads.len() <= picked.len() {
            for (p, &c) in picked.iter_mut().zip(&self.reads) {
                *p = sums[c];
            }
            (self.score)(&picked[..self.reads.len()])
        } else {
            let picked: Vec<f64> = self.reads.iter().map(|&c| sums[c]).collect();
            (self.score)(&picked)
        }
    }

    /// The columns it reads, taken from a full row.
    pub fn pick(&self, row: &[f64], out: &mut Vec<f64>) {
        out.clear();
        out.extend(self.reads.iter().map(|&c| row[c]));
    }

    /// Whether it is a count (no interval, no test).
    pub fn is_count(&self) -> bool {
        self.kind == Kind::Count
    }
}

/// The units a count column may count (the last word of its name, plural), in
/// alphabetical order: see [`column_name_problem`].
pub const COLUMN_UNITS: &[&str] = &[
    "brackets",
    "edits",
    "links",
    "nodes",
    "relations",
    "sentences",
    "spans",
    "tags",
    "triples",
    "words",
];

/// The last word of a column that belongs to a measure (`las_correct`): its numerator
/// (`correct`) or the errors an error rate counts (`errors`), its own gold and system
/// counts (`gold`, `system`), the aligned units of its denominator (`aligned`), the larger
/// of gold and system (`max`), a sum of per-unit scores behind a macro mean (`sum`).
pub const COLUMN_PARTS: &[&str] = &[
    "aligned", "correct", "errors", "gold", "max", "sum", "system",
];

/// Whether column `name` sums per-unit scores (a macro mean's numerator, `…_sum`): a
/// number, not a count of items.
pub fn is_sum_column(name: &str) -> bool {
    name.ends_with("_sum")
}

/// What is wrong with a count column's name, if anything. One convention in every
/// family (docs/json-schema.md, "Count columns"): lower snake_case ASCII; either a count
/// of units, its last word one of [`COLUMN_UNITS`] (`words`, `gold_brackets`,
/// `crossing_brackets`), or a measure's count, `<measure>_<part>` with the part one of
/// [`COLUMN_PARTS`] (`las_correct`, `clas_gold`, `sentence_las_sum`; the part alone in a
/// family whose rows are the measures, as ud's `correct`, `gold`, `system`); the only
/// roles are `gold` and `system`.
pub fn column_name_problem(name: &str) -> Option<String> {
    let words: Vec<&str> = name.split('_').collect();
    let snake = !name.is_empty()
        && words.iter().all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
        && name.as_bytes()[0].is_ascii_lowercase();
    if !snake {
        return Some(format!("`{name}` is not lower snake_case"));
    }
    const OTHER_ROLES: [&str; 6] = ["test", "sys", "hyp", "parse", "pred", "nbest"];
    if let Some(w) = words.iter().find(|w| OTHER_ROLES.contains(w)) {
        return Some(format!(
            "`{name}` names a role `{w}`: the roles are gold and system"
        ));
    }
    let last = words[words.len() - 1];
    let unit = COLUMN_UNITS.contains(&last);
    let part = COLUMN_PARTS.contains(&last);
    (!unit && !part).then(|| {
        format!(
            "`{name}` ends in neither a unit ({}) nor a measure's part ({})",
            COLUMN_UNITS.join(", "),
            COLUMN_PARTS.join(", ")
        )
    })
}

/// A family's per-unit sufficient statistics: a row of named columns, summed with `+=`.
pub trait Statistics: Default + Clone + std::ops::AddAssign {
    /// The column names, in order; each follows [`column_name_problem`]'s convention.
    fn columns() -> &'static [&'static str];
    /// This unit's row (as many values as [`Statistics::columns`]).
    fn row(&self, out: &mut Vec<f64>);
}

/// Sums of `u64` counts: `AddAssign<&T>` adding the named fields one by one, and
/// `T::fields`, the counts in the order named (as a [`Statistics`] row reads them).
macro_rules! sum_fields {
    ($t:ty { $($f:ident),+ $(,)? }) => {
        impl std::ops::AddAssign<&$t> for $t {
            fn add_assign(&mut self, o: &$t) {
                $(self.$f += o.$f;)+
            }
        }

        impl $t {
            /// The counts, in the order of the columns.
            pub(crate) fn fields(&self) -> [u64; [$(stringify!($f)),+].len()] {
                [$(self.$f),+]
            }
        }
    };
}
pub(crate) use sum_fields;

/// The sum of every column over `units`.
pub fn totals<S: Statistics>(units: &[S]) -> Vec<f64> {
    let mut sum = S::default();
    for u in units {
        sum += u.clone();
    }
    let mut out = Vec::new();
    sum.row(&mut out);
    out
}

/// The macro average of a measure: the mean of the units' scores, over the units where
/// it is defined; with the number of those units.
pub fn macro_average<S: Statistics>(m: &Measure, units: &[S]) -> (u64, Option<f64>) {
    let (mut n, mut sum) = (0u64, 0.0);
    let mut row = Vec::new();
    for u in units {
        u.row(&mut row);
        if let Some(v) = m.of(&row) {
            n += 1;
            sum += v;
        }
    }
    (n, (n > 0).then(|| sum / n as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default, Clone)]
    struct Two {
        right: u64,
        all: u64,
    }
    impl std::ops::AddAssign for Two {
        fn add_assign(&mut self, o: Self) {
            self.right += o.right;
            self.all += o.all;
        }
    }
    impl Statistics for Two {
        fn columns() -> &'static [&'static str] {
            &["right", "all"]
        }
        fn row(&self, out: &mut Vec<f64>) {
            out.clear();
            out.extend([self.right as f64, self.all as f64]);
        }
    }

    #[test]
    fn micro_and_macro_from_counts() {
        // the seed paper's point: word-based and sentence-based averages differ
        let units = [
            Two { right: 1, all: 10 },
            Two { right: 3, all: 3 },
            Two { right: 0, all: 0 },
        ];
        let m = Measure::ratio("acc", "accuracy", "right / all", "", 0, 1);
        assert_eq!(m.of(&totals(&units)), Some(4.0 / 13.0));
        let (n, avg) = macro_average(&m, &units);
        assert_eq!(n, 2, "the empty unit has no score");
        assert_eq!(avg, Some((0.1 + 1.0) / 2.0));
        assert_eq!(m.of(&[0.0, 0.0]), None);
        let c = Measure::count("n", "items", 1);
        assert_eq!(c.of(&totals(&units)), Some(13.0));
        assert!(c.is_count());
        let mut picked = Vec::new();
        m.pick(&[5.0, 7.0], &mut picked);
        assert_eq!(picked, [5.0, 7.0]);
    }
}
