//! Every family's count columns follow the one convention of
//! [`column_name_problem`] (docs/json-schema.md, "Count columns"), and no family names a
//! column twice.

use treeval_metrics::align::AlignCounts;
use treeval_metrics::brackets::by::BracketGroup;
use treeval_metrics::brackets::measures::CarefulUnit;
use treeval_metrics::brackets::BracketCounts;
use treeval_metrics::deps::{GroupCounts, RelationCounts, RelationMacro};
use treeval_metrics::measure::{column_name_problem, is_sum_column, Statistics};
use treeval_metrics::nbest::{GapCounts, PickCounts};
use treeval_metrics::pts::PtsCounts;
use treeval_metrics::relations::RelationSetCounts;
use treeval_metrics::tedeval::TedEvalCounts;
use treeval_metrics::ud::{self, UdCounts};
use treeval_metrics::AttachmentCounts;

fn families() -> Vec<(&'static str, &'static [&'static str])> {
    vec![
        ("deps", AttachmentCounts::columns()),
        ("deps by relation", RelationCounts::columns()),
        ("deps macro over relations", RelationMacro::columns()),
        ("deps breakdown", GroupCounts::columns()),
        ("ud", UdCounts::columns()),
        ("ud metric", ud::Count::columns()),
        ("ud by relation", ud::RelationCounts::columns()),
        ("relations", RelationSetCounts::columns()),
        ("brackets", BracketCounts::columns()),
        ("brackets breakdown", BracketGroup::columns()),
        ("brackets careful", CarefulUnit::columns()),
        ("ted", TedEvalCounts::columns()),
        ("align", AlignCounts::columns()),
        ("pts", PtsCounts::columns()),
        ("nbest picks", PickCounts::columns()),
        ("nbest gap", GapCounts::columns()),
    ]
}

#[test]
fn every_column_follows_the_convention() {
    let mut problems = Vec::new();
    for (family, columns) in families() {
        for c in columns {
            if let Some(p) = column_name_problem(c) {
                problems.push(format!("{family}: {p}"));
            }
        }
        let mut seen = std::collections::HashSet::new();
        for c in columns {
            if !seen.insert(c) {
                problems.push(format!("{family}: `{c}` twice"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_convention_refuses_the_old_names() {
    for old in [
        "LAS:overlap",
        "a_and_s",
        "s",
        "las",
        "TTB",
        "sum_las",
        "uas_a",
        "test",
        "test_brackets",
        "sys_words",
    ] {
        assert!(column_name_problem(old).is_some(), "{old} passed");
    }
    for new in [
        "las_correct",
        "words",
        "gold_brackets",
        "sentence_las_sum",
        "correct",
        "system_sure_links",
    ] {
        assert_eq!(column_name_problem(new), None, "{new}");
    }
    assert!(is_sum_column("sentence_las_sum") && !is_sum_column("sum_words"));
}
