//! The measures of `ud` over one metric's [`Count`] (precision, recall, F1 and aligned
//! accuracy, as conll18_ud_eval.py and udeval define them) and over a universal
//! relation's [`RelationCounts`]. A sentence's [`Count`] of a metric is its unit for
//! intervals and tests.

use crate::measure::{ratio, Measure, Statistics};

use super::{Count, RelationCounts, UdCounts, UdMetric};

impl std::ops::AddAssign for Count {
    fn add_assign(&mut self, o: Count) {
        self.correct += o.correct;
        self.gold += o.gold;
        self.system += o.system;
        self.aligned += o.aligned;
    }
}

impl Statistics for Count {
    fn columns() -> &'static [&'static str] {
        &["correct", "gold", "system", "aligned"]
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend([self.correct, self.gold, self.system, self.aligned].map(|x| x as f64));
    }
}

impl std::ops::AddAssign for RelationCounts {
    fn add_assign(&mut self, o: RelationCounts) {
        self.gold += o.gold;
        self.system += o.system;
        self.head += o.head;
        self.correct += o.correct;
    }
}

impl Statistics for RelationCounts {
    fn columns() -> &'static [&'static str] {
        &["las_correct", "gold_words", "system_words", "uas_correct"]
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend([self.correct, self.gold, self.system, self.head].map(|x| x as f64));
    }
}

const CONLL18: &str = "CoNLL 2018 shared task (conll18_ud_eval.py; udeval for ELAS/EULAS)";

/// F1 = 2·correct / (gold + system), as the reference scripts compute it.
fn f1() -> Measure {
    Measure::fraction(
        "F1",
        "F1",
        "2·correct / (gold + system)",
        CONLL18,
        vec![0, 1, 2],
        |s| ratio(2.0 * s[0], s[1] + s[2]),
    )
}

/// Precision, recall, F1 and aligned accuracy of one metric's [`Count`] (each `None`
/// where its denominator is 0).
pub fn measures() -> Vec<Measure> {
    let reference = |m: Measure| m.with_reference("conll18_ud_eval.py -v, udeval -v");
    let v = vec![
        Measure::ratio("precision", "precision", "correct / system", CONLL18, 0, 2),
        Measure::ratio("recall", "recall", "correct / gold", CONLL18, 0, 1),
        f1(),
        Measure::ratio(
            "aligned-accuracy",
            "aligned accuracy",
            "correct / aligned gold items",
            CONLL18,
            0,
            3,
        ),
    ];
    v.into_iter().map(reference).collect()
}

impl std::ops::AddAssign for UdCounts {
    fn add_assign(&mut self, o: UdCounts) {
        *self += &o;
    }
}

impl Statistics for UdCounts {
    /// `{metric}_{correct,gold,system,aligned}` for every [`UdMetric`], the metric in
    /// lower case (`las_correct`).
    fn columns() -> &'static [&'static str] {
        static COLUMNS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
        COLUMNS.get_or_init(|| {
            UdMetric::ALL
                .iter()
                .flat_map(|m| {
                    Count::columns().iter().map(move |c| {
                        &*Box::leak(format!("{}_{c}", m.name().to_lowercase()).into_boxed_str())
                    })
                })
                .collect()
        })
    }

    fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        for c in &self.metrics {
            out.extend([c.correct, c.gold, c.system, c.aligned].map(|x| x as f64));
        }
    }
}

/// The F1 of metric `m` over a sentence's [`UdCounts`], named after it (`LAS`): the
/// measure its tests and intervals are on.
pub fn f1_of(m: UdMetric) -> Measure {
    let at = Count::columns().len() * m as usize;
    let reference = if UdMetric::ENHANCED.contains(&m) {
        "udeval"
    } else {
        "conll18_ud_eval.py, udeval"
    };
    Measure {
        name: m.name(),
        title: m.title(),
        formula: m.formula(),
        reference,
        reads: vec![at, at + 1, at + 2],
        ..f1()
    }
}

/// The F1 of every [`UdMetric`], in report order: the measures `ud --test-metrics` takes.
pub fn metric_measures() -> Vec<Measure> {
    UdMetric::ALL.into_iter().map(f1_of).collect()
}

/// Precision, recall and F1 (LAS over the alignment) of a universal relation, and the
/// words with the right head.
pub fn relation_measures() -> Vec<Measure> {
    let mut v = measures();
    v.truncate(3);
    v.push(Measure::count(
        "head-ok",
        "aligned gold words with the right head",
        3,
    ));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::totals;

    #[test]
    fn the_reference_definitions() {
        let c = Count {
            correct: 6,
            gold: 8,
            system: 10,
            aligned: 7,
        };
        let t = totals(&[c]);
        let v: Vec<Option<f64>> = measures().iter().map(|m| m.of(&t)).collect();
        assert_eq!(
            v,
            [Some(0.6), Some(0.75), Some(12.0 / 18.0), Some(6.0 / 7.0)]
        );
        let none = totals(&[Count::default()]);
        assert!(measures().iter().all(|m| m.of(&none).is_none()));
        let las = UdMetric::Las;
        let mut u = UdCounts::default();
        u.metrics[las] = c;
        let t = totals(&[u]);
        assert_eq!(f1_of(las).name, "LAS");
        assert_eq!(f1_of(las).of(&t), Some(12.0 / 18.0));
        assert_eq!(UdCounts::columns()[f1_of(las).reads[1]], "las_gold");
        let names: Vec<&str> = metric_measures().iter().map(|m| m.name).collect();
        assert_eq!(names, UdMetric::ALL.map(UdMetric::name));
    }
}
