//! The registry of each family's measures, as the options that name them read it: the
//! names `test_metrics` takes, checked in one place for every front end.

use treeval_metrics::measure::Measure;

/// Every family's measures as `treeval measures` lists them (name, formula, source,
/// reference tool), and the list written as text, Markdown or JSON.
pub use treeval_report::measures::{families, render, Family, MeasuresFormat};

/// A family's measures, as its metrics module defines them.
pub type Measures = fn() -> Vec<Measure>;

/// Every family whose command takes `--test-metrics`, with its measures: the values the
/// option takes are their names (those that are not counts, [`test_metric_names`]), and
/// `treeval merge` checks a family's states against the same list.
pub const TEST_METRIC_FAMILIES: [(&str, Measures); 6] = [
    ("deps", treeval_metrics::deps::measures),
    ("ud", treeval_metrics::ud::measures::metric_measures),
    ("relations", treeval_metrics::relations::measures),
    (
        "brackets",
        treeval_metrics::brackets::unsup::profile::brackets_measures,
    ),
    ("align", align_measures),
    ("nbest", treeval_metrics::nbest::pick_measures),
];

/// `align`'s measures (the names do not depend on `--f-alpha`).
pub fn align_measures() -> Vec<Measure> {
    treeval_metrics::align::measures(0.5)
}

/// The names `--test-metrics` takes from a family's measures: every measure but the
/// counts (a count has no interval and no test), in report order.
pub fn test_metric_names(measures: Measures) -> Vec<&'static str> {
    measures()
        .into_iter()
        .filter(|m| m.is_testable())
        .map(|m| m.name)
        .collect()
}

/// The measure of `measures` named `name` in any case, as the measure writes it (an error
/// lists the names).
pub fn test_metric(measures: Measures, name: &str) -> Result<String, String> {
    let names = test_metric_names(measures);
    match names.iter().find(|n| n.eq_ignore_ascii_case(name)) {
        Some(n) => Ok((*n).to_owned()),
        None => Err(format!(
            "expected one of {}; found '{name}'",
            names.join(", ")
        )),
    }
}

/// [`test_metric`] of every name, a usage error naming the option.
pub fn test_metrics(measures: Measures, names: &[String]) -> crate::Result<Vec<String>> {
    names
        .iter()
        .map(|n| {
            test_metric(measures, n)
                .map_err(|e| crate::Error::Usage(format!("--test-metrics: {e}")))
        })
        .collect()
}
