//! The typed options of each family's state: every option that changes the counts (or
//! how the report reads them), as the command was given it. States merge only when these
//! are equal; [`differs`] names the first option that is not.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use treeval_metrics::brackets::Params;
use treeval_metrics::deps::filter::Where;
use treeval_metrics::ud::{AlignMode, EmptyNodes, Enhancements, UdOptions};
use treeval_metrics::{ByKey, DepsOptions, LabelMode, PunctPolicy};

use super::MergeError;

/// The options of a `deps` state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DepsStateOptions {
    /// The profile's name (`conll07`, …): it only names the other options.
    pub profile: String,
    /// `--punct`.
    pub punct: PunctPolicy,
    /// `--labels`.
    pub labels: LabelMode,
    /// `--by`, in the order asked.
    pub by: Vec<ByKey>,
    /// Whether the label confusions were counted (`--confusion`).
    pub confusion: bool,
    /// `--strict`.
    pub strict: bool,
    /// The `--where` filter as the report names it.
    #[serde(rename = "where")]
    pub where_: String,
    /// Whether McNemar's paired decisions were counted (`--test mcnemar`).
    pub pair_decisions: bool,
    /// Whether predicates were counted (CoNLL 2009 input).
    pub count_predicates: bool,
}

impl DepsStateOptions {
    /// The options of `opts` under the profile named `profile`.
    pub fn of(opts: &DepsOptions, profile: &str) -> Self {
        DepsStateOptions {
            profile: profile.to_owned(),
            punct: opts.punct.clone(),
            labels: opts.labels,
            by: opts.by.clone(),
            confusion: opts.confusion,
            strict: opts.strict,
            where_: opts.filter.name(),
            pair_decisions: opts.pair_decisions,
            count_predicates: opts.count_predicates,
        }
    }

    /// The options the counts were made with (`where_specs`: the `--where` conditions
    /// as given; `keep`: whether the per-sentence rows were kept).
    pub fn metric_options(
        &self,
        where_specs: &[String],
        keep: bool,
    ) -> Result<DepsOptions, MergeError> {
        let filter = Where::all(where_specs, self.labels).map_err(|_| bad("where"))?;
        Ok(DepsOptions {
            punct: self.punct.clone(),
            labels: self.labels,
            by: self.by.clone(),
            confusion: self.confusion,
            strict: self.strict,
            examples: 5,
            keep_sentences: keep,
            pair_decisions: self.pair_decisions,
            count_predicates: self.count_predicates,
            filter,
            selection: Default::default(),
        })
    }
}

/// The options of a `ud` state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UdStateOptions {
    /// `--align` (states are written with the strict alignment only).
    pub align: AlignMode,
    /// `--empty-nodes`.
    pub empty_nodes: EmptyNodes,
    /// `--enhancements`, as digits.
    pub enhancements: String,
    /// `--multiple-roots-okay`.
    pub multiple_roots_okay: bool,
    /// `--by`, in the order asked.
    pub by: Vec<ByKey>,
    /// The `--where` filter as the report names it.
    #[serde(rename = "where")]
    pub where_: String,
}

impl UdStateOptions {
    /// The options of `opts`.
    pub fn of(opts: &UdOptions) -> Self {
        UdStateOptions {
            align: opts.align,
            empty_nodes: opts.empty_nodes,
            enhancements: opts.enhancements.digits(),
            multiple_roots_okay: opts.multiple_roots_okay,
            by: opts.by.clone(),
            where_: opts.filter.name(),
        }
    }

    /// The options the counts were made with (`where_specs`: the `--where` conditions
    /// as given; `keep`: whether the per-sentence rows were kept).
    pub fn metric_options(
        &self,
        where_specs: &[String],
        keep: bool,
    ) -> Result<UdOptions, MergeError> {
        Ok(UdOptions {
            enhancements: Enhancements::parse(&self.enhancements)
                .map_err(|_| bad("enhancements"))?,
            keep_sentences: keep,
            by: self.by.clone(),
            filter: Where::all(where_specs, LabelMode::Universal).map_err(|_| bad("where"))?,
            ..alignment(self.align, self.empty_nodes, self.multiple_roots_okay)?
        })
    }
}

/// The options of the tokenization alignment (the strict one, the only one states are
/// written with).
fn alignment(
    align: AlignMode,
    empty_nodes: EmptyNodes,
    multiple_roots_okay: bool,
) -> Result<UdOptions, MergeError> {
    if align != AlignMode::Strict {
        return Err(bad("align"));
    }
    Ok(UdOptions {
        multiple_roots_okay,
        empty_nodes,
        ..UdOptions::default()
    })
}

/// Which graph `relations` compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Graph {
    /// The basic tree (HEAD, DEPREL).
    Basic,
    /// The enhanced graph (DEPS).
    Enhanced,
}

/// The options of a `relations` state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RelationsStateOptions {
    /// `--graph`.
    pub graph: Graph,
    /// `--align`.
    pub align: AlignMode,
    /// `--empty-nodes`.
    pub empty_nodes: EmptyNodes,
    /// `--multiple-roots-okay`.
    pub multiple_roots_okay: bool,
}

impl RelationsStateOptions {
    /// The options the counts were made with (every sentence's relation sets kept).
    pub fn metric_options(&self) -> Result<UdOptions, MergeError> {
        Ok(UdOptions {
            keep_sentences: true,
            relation_sets: true,
            ..alignment(self.align, self.empty_nodes, self.multiple_roots_okay)?
        })
    }
}

/// The options of a `brackets` state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BracketsStateOptions {
    /// The parameter file's name.
    pub prm: String,
    /// The parameters as read.
    pub params: Params,
    /// `--layout`.
    pub layout: String,
    /// `--align` (`words` or `chars`); a state without it is of `words`, which is left
    /// out.
    #[serde(default = "words", skip_serializing_if = "is_words")]
    pub align: String,
    /// `--error-sentences` (`missed` or `excluded`); a state without it was written
    /// before the option, when such sentences were `excluded`.
    #[serde(default = "excluded")]
    pub error_sentences: String,
    /// `--by`, in the order asked.
    pub by: Vec<String>,
    /// The `--where` filter as the report names it.
    #[serde(rename = "where")]
    pub where_: String,
}

/// `brackets --align`'s default.
fn words() -> String {
    "words".into()
}

/// The convention of a `brackets` state written before `--error-sentences`.
fn excluded() -> String {
    treeval_metrics::brackets::error_sentences_name(false).into()
}

/// Whether `align` is `brackets --align`'s default.
fn is_words(align: &str) -> bool {
    align == "words"
}

/// Whether links with a NULL side are scored (`--null`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NullLinks {
    /// Scored.
    Include,
    /// Left out.
    Exclude,
}

impl NullLinks {
    /// `Include` when `included`.
    pub fn of(included: bool) -> Self {
        if included {
            NullLinks::Include
        } else {
            NullLinks::Exclude
        }
    }

    /// Whether they are scored.
    pub fn included(self) -> bool {
        self == NullLinks::Include
    }
}

/// The options of an `align` state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlignStateOptions {
    /// `--gold-base`.
    pub gold_base: Option<u32>,
    /// `--hyp-base`.
    pub hyp_base: Option<u32>,
    /// `--reverse`.
    pub reverse: bool,
    /// `--reverse-gold`.
    pub reverse_gold: bool,
    /// Whether `--sentences` was given.
    pub sentences_given: bool,
    /// `--null`.
    pub null: NullLinks,
    /// `--f-alpha`.
    pub f_alpha: f64,
    /// The gold file's format.
    pub gold_format: String,
    /// Every hypothesis file's format.
    pub hyp_formats: Vec<String>,
    /// The subword conventions (`--subwords`), if projected.
    pub subwords: Option<[String; 2]>,
}

/// The options of a `ted` state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TedStateOptions {
    /// `--unlabeled`.
    pub unlabeled: bool,
    /// `--micro`.
    pub micro: bool,
    /// `--no-test`.
    pub no_test: bool,
    /// `--max-cost`.
    pub max_cost: Option<u64>,
    /// `--label-equiv` as given.
    pub label_equiv: Option<String>,
    /// Its equivalences (label → class).
    pub equivalences: BTreeMap<String, String>,
    /// `--bracket-labels`.
    pub bracket_labels: String,
}

/// The options of a `pts` state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PtsStateOptions {
    /// `--punct` (its name).
    pub punct: String,
    /// `--weights`.
    pub weights: String,
    /// `--reverse`.
    pub reverse: bool,
    /// `--gold-base`.
    pub gold_base: Option<u32>,
    /// `--hyp-base`.
    pub hyp_base: Option<u32>,
    /// `--null`.
    pub null: NullLinks,
    /// Whether McNemar's paired decisions were counted (`--test mcnemar`).
    pub pair_decisions: bool,
}

/// A state's option with a value this version does not read (a state edited by hand).
pub fn bad(k: &str) -> MergeError {
    format!("the states' option {k} is not one treeval knows")
}

/// The first option (in name order, the profile last: it only names the others) whose
/// value differs between `a` and `b`: its name and its values in `a` and in `b`, as JSON.
pub fn differs<T: Serialize>(a: &T, b: &T) -> Option<(String, String, String)> {
    let map = |x: &T| match serde_json::to_value(x) {
        Ok(serde_json::Value::Object(m)) => m.into_iter().collect::<BTreeMap<_, _>>(),
        _ => BTreeMap::new(),
    };
    let (x, y) = (map(a), map(b));
    let ordered = (x.iter().filter(|(k, _)| *k != "profile"))
        .chain(x.iter().filter(|(k, _)| *k == "profile"));
    // a key only `b` has (an option left out at its default in `a`) differs too
    let only_b = y.iter().filter(|(k, _)| !x.contains_key(*k));
    let absent = only_b.map(|(k, v)| (k.clone(), "absent".to_owned(), v.to_string()));
    let first = ordered.into_iter().find(|(k, v)| y.get(*k) != Some(v));
    let first = first.map(|(k, v)| {
        let other = y.get(k).map_or("absent".to_owned(), ToString::to_string);
        (k.clone(), v.to_string(), other)
    });
    first.or_else(|| absent.into_iter().next())
}
