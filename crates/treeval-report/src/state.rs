//! Mergeable evaluation states (`--emit-state FILE`, `treeval merge STATE...`): what a
//! report is built from, as versioned JSON (`treeval.state/2`, docs/json-schema.md).
//!
//! A state holds a family's options (every one that changes the counts), the inputs read,
//! every system's summed counts with the names of the labels and groups they are indexed
//! by, the warnings, and, when kept, the per-sentence rows. [`merge`] sums the states of
//! shards in the order given (= the order of the concatenated corpus) and
//! [`DepsState::into_result`] turns the sum back into the result the command's own
//! `build` takes, so a merged report is made by the same code as a direct one.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use std::sync::Arc;

use treeval_formats::{Diagnostic, Diagnostics, ErrorKind, Format, Position};
use treeval_metrics::deps::{
    DepsResult, FileSummary, GroupCounts, Observer, PairCounts, RelationCounts, SystemResult,
    Validity,
};
use treeval_metrics::{AttachmentCounts, ByKey, DepsOptions, LabelTable};

use treeval_metrics::relations::RelationSetCounts;
use treeval_metrics::ud::{RelationCounts as UdRelationCounts, SideStats, UdCounts, UdOptions};

use crate::model::Warning;
use crate::ud::{UdFileOut, UdSystemIn};

mod identity;
mod selection;
pub use identity::{shared_name, FileId, ShardInputs};
pub use selection::SelectionState;
mod pts;
mod ted;
pub use pts::{
    parse_weights, weights_text, PtsIndex, PtsMerged, PtsRow, PtsRun, PtsState, PtsSystemState,
};
pub use ted::{TedExperimentState, TedRow, TedState};
mod align;
mod brackets;
pub mod options;
pub use align::{AlignFileState, AlignState, AlignSubwords};
pub use brackets::{BracketsRows, BracketsState, BracketsSystemState};
pub use options::{
    AlignStateOptions, BracketsStateOptions, DepsStateOptions, Graph, NullLinks, PtsStateOptions,
    RelationsStateOptions, TedStateOptions, UdStateOptions,
};

/// The schema name and version of a state file (its first key).
pub const SCHEMA: &str = "treeval.state/3";

/// The families that can write a state.
pub const FAMILIES: &[&str] = &["deps", "ud", "relations", "brackets", "align", "ted", "pts"];

/// One evaluation's state (`treeval.state/3`): the schema, the version that wrote it,
/// the shards summed in it, their inputs, the sentence selection, and the family's typed options and
/// counts ([`Family`], flattened: `"family": "deps", "options": {…}, "counts": {…}`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct State {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// The treeval version that wrote it.
    pub treeval: String,
    /// Shards merged into this state (1 for a state written by a command).
    pub shards: u64,
    /// The sentence selection (`--sent-id`, `--min-len`, `--max-len`) and its counts;
    /// absent when every sentence is scored. States merge only when it is equal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<SelectionState>,
    /// The systems' names as the shard's report showed them, in order (absent in states
    /// written before names were kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// Whether [`State::names`] were given (`--name`) rather than made from the paths:
    /// given names must agree in every shard.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub named: bool,
    /// Each shard's input files (path and digest), in the order summed: what lines the
    /// shards' systems up and orders the shards ([`identity`](self::order)).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<ShardInputs>,
    /// The family, its options and its counts.
    #[serde(flatten)]
    pub family: Family,
}

/// A family's options (every one that changes the counts: states merge only when they
/// are equal) and counts, tagged by the family's name.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "family", rename_all = "lowercase")]
pub enum Family {
    /// `deps`.
    Deps {
        /// Its options.
        options: DepsStateOptions,
        /// Its counts.
        counts: DepsState,
    },
    /// `ud`.
    Ud {
        /// Its options.
        options: UdStateOptions,
        /// Its counts.
        counts: UdState,
    },
    /// `relations`.
    Relations {
        /// Its options.
        options: RelationsStateOptions,
        /// Its counts.
        counts: RelationsState,
    },
    /// `brackets`.
    Brackets {
        /// Its options.
        options: BracketsStateOptions,
        /// Its counts.
        counts: BracketsState,
    },
    /// `align`.
    Align {
        /// Its options.
        options: AlignStateOptions,
        /// Its counts.
        counts: AlignState,
    },
    /// `ted`.
    Ted {
        /// Its options.
        options: TedStateOptions,
        /// Its counts.
        counts: TedState,
    },
    /// `pts`.
    Pts {
        /// Its options.
        options: PtsStateOptions,
        /// Its counts.
        counts: PtsState,
    },
}

impl Family {
    /// The family's name (its command): `deps`.
    pub fn name(&self) -> &'static str {
        match self {
            Family::Deps { .. } => "deps",
            Family::Ud { .. } => "ud",
            Family::Relations { .. } => "relations",
            Family::Brackets { .. } => "brackets",
            Family::Align { .. } => "align",
            Family::Ted { .. } => "ted",
            Family::Pts { .. } => "pts",
        }
    }

    /// The first option whose value differs in `o` (a state of the same family): its
    /// name, its value here and in `o`; `None` when every option is equal.
    fn differs(&self, o: &Family) -> Option<(String, String, String)> {
        use options::differs;
        match (self, o) {
            (Family::Deps { options: a, .. }, Family::Deps { options: b, .. }) => differs(a, b),
            (Family::Ud { options: a, .. }, Family::Ud { options: b, .. }) => differs(a, b),
            (Family::Relations { options: a, .. }, Family::Relations { options: b, .. }) => {
                differs(a, b)
            }
            (Family::Brackets { options: a, .. }, Family::Brackets { options: b, .. }) => {
                differs(a, b)
            }
            (Family::Align { options: a, .. }, Family::Align { options: b, .. }) => differs(a, b),
            (Family::Ted { options: a, .. }, Family::Ted { options: b, .. }) => differs(a, b),
            (Family::Pts { options: a, .. }, Family::Pts { options: b, .. }) => differs(a, b),
            _ => Some(("family".into(), self.name().into(), o.name().into())),
        }
    }

    /// The number of systems.
    pub fn systems(&self) -> usize {
        match self {
            Family::Deps { counts, .. } => counts.systems.len(),
            Family::Ud { counts, .. } => counts.systems.len(),
            Family::Relations { counts, .. } => counts.systems.len(),
            Family::Brackets { counts, .. } => counts.systems.len(),
            Family::Align { counts, .. } => counts.hyps.len(),
            Family::Ted { counts, .. } => counts.experiments.len(),
            Family::Pts { counts, .. } => counts.systems.len(),
        }
    }

    /// Whether the per-sentence rows were kept (`relations` and `ted` keep them always).
    pub fn has_sentences(&self) -> bool {
        match self {
            Family::Deps { counts, .. } => counts.sentences.is_some(),
            Family::Ud { counts, .. } => counts.sentences.is_some(),
            Family::Relations { .. } | Family::Ted { .. } => true,
            Family::Brackets { counts, .. } => counts.has_sentences(),
            Family::Align { counts, .. } => counts.sentences.is_some(),
            Family::Pts { counts, .. } => counts.sentences.is_some(),
        }
    }

    /// Add a later shard of the same family (already [`check`]ed).
    fn add(&mut self, o: Family) {
        match (self, o) {
            (Family::Deps { counts: a, .. }, Family::Deps { counts: b, .. }) => a.add(b),
            (Family::Ud { counts: a, .. }, Family::Ud { counts: b, .. }) => a.add(b),
            (Family::Relations { counts: a, .. }, Family::Relations { counts: b, .. }) => a.add(b),
            (Family::Brackets { counts: a, .. }, Family::Brackets { counts: b, .. }) => a.add(b),
            (Family::Align { counts: a, .. }, Family::Align { counts: b, .. }) => a.add(b),
            (Family::Ted { counts: a, .. }, Family::Ted { counts: b, .. }) => a.add(b),
            (Family::Pts { counts: a, .. }, Family::Pts { counts: b, .. }) => a.add(b),
            _ => {}
        }
    }
}

/// What was read from one file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileState {
    /// The path as given (merged: the shards' paths joined by ` + `).
    pub path: String,
    /// Detected format (`conllu`, `conllx`, `conll09`), if any.
    pub format: Option<String>,
    /// Sentences read.
    pub sentences: u64,
    /// Syntactic words read.
    pub words: u64,
    /// Lines read.
    pub lines: u64,
}

/// The state of a `deps` evaluation.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DepsState {
    /// The `--where` conditions as given.
    pub where_specs: Vec<String>,
    /// The gold file.
    pub gold: FileState,
    /// Structural problems of the gold trees.
    pub gold_validity: Validity,
    /// Gold predicates counted.
    pub gold_predicates: u64,
    /// The label names, in id order (the order they were first seen).
    pub labels: Vec<String>,
    /// One per system file, in the order given.
    pub systems: Vec<DepsSystemState>,
    /// The warnings found while reading (the report's form), in the order found; not the
    /// corpus checks, which are made again on the merged counts.
    pub warnings: Vec<Warning>,
    /// Warnings seen but not kept.
    pub omitted_warnings: u64,
    /// Paired decisions of every two systems (with `--test mcnemar`).
    pub pairs: Vec<PairCounts>,
    /// Every sentence's counts, per system (with `--keep-sentences`, `--test` or `--ci`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sentences: Option<Vec<Vec<AttachmentCounts>>>,
}

/// One system's sums in a `deps` state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DepsSystemState {
    /// The system file.
    pub file: FileState,
    /// Headline counts.
    pub totals: AttachmentCounts,
    /// Per label id (of [`DepsState::labels`]).
    pub relations: Vec<RelationCounts>,
    /// Breakdowns (`--by`), in the order asked.
    pub by: Vec<ByState>,
    /// Label confusions: (gold label id, system label id, words), sorted.
    pub confusion: Vec<(u32, u32, u64)>,
    /// Structural problems of the system trees.
    pub validity: Validity,
    /// Words whose FORM differs from gold.
    pub form_mismatches: u64,
    /// System predicates counted.
    pub predicates: u64,
    /// Words `--where` did not keep.
    pub unmatched: u64,
    /// LAS numerator with labels compared ignoring case.
    pub las_caseless: u64,
}

/// One breakdown of one system.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ByState {
    /// The `--by` key.
    pub key: String,
    /// Group names, in id order.
    pub groups: Vec<String>,
    /// Counts per group id.
    pub counts: Vec<GroupCounts>,
}

impl FileState {
    fn of(f: &FileSummary) -> Self {
        FileState {
            path: f.path.clone(),
            format: f.format.map(|x| x.name().to_owned()),
            sentences: f.sentences,
            words: f.words,
            lines: f.lines,
        }
    }

    fn summary(&self) -> FileSummary {
        let format = [
            Format::Conllu,
            Format::Conllx,
            Format::Conll09,
            Format::Malttab,
        ]
        .into_iter()
        .find(|f| Some(f.name()) == self.format.as_deref());
        FileSummary {
            path: self.path.clone(),
            format,
            sentences: self.sentences,
            words: self.words,
            lines: self.lines,
        }
    }

    /// Add a later shard's file.
    fn add(&mut self, o: &FileState) {
        self.path = format!("{} + {}", self.path, o.path);
        if self.format != o.format {
            self.format = None;
        }
        self.sentences += o.sentences;
        self.words += o.words;
        self.lines += o.lines;
    }
}

impl State {
    /// A state of one shard of `family`.
    pub fn new(family: Family) -> Self {
        State {
            schema: SCHEMA.into(),
            treeval: env!("CARGO_PKG_VERSION").into(),
            shards: 1,
            selection: None,
            names: Vec::new(),
            named: false,
            inputs: Vec::new(),
            family,
        }
    }

    /// The state with the inputs of its shard.
    pub fn with_inputs(mut self, inputs: ShardInputs) -> Self {
        self.inputs = vec![inputs];
        self
    }

    /// The state with its systems' names (`named`: given with `--name`).
    pub fn with_names(mut self, names: Vec<String>, named: bool) -> Self {
        self.names = names;
        self.named = named;
        self
    }

    /// The state of a `deps` evaluation under `opts` (`profile`: its name; `where_specs`:
    /// the `--where` conditions as given), with the per-sentence rows when the result
    /// kept them.
    pub fn of_deps(
        result: &DepsResult,
        opts: &DepsOptions,
        profile: &str,
        where_specs: &[String],
    ) -> Self {
        State::new(Family::Deps {
            options: DepsStateOptions::of(opts, profile),
            // a shard whose selection keeps no sentence keeps its (empty) rows too
            counts: DepsState::of(result, where_specs, opts.keep_sentences),
        })
    }
}

impl DepsState {
    /// The counts of a `deps` evaluation (`where_specs`: the `--where` conditions as
    /// given), with the per-sentence rows when `keep`.
    fn of(result: &DepsResult, where_specs: &[String], keep: bool) -> Self {
        DepsState {
            where_specs: where_specs.to_vec(),
            gold: FileState::of(&result.gold),
            gold_validity: result.gold_validity,
            gold_predicates: result.gold_predicates,
            labels: result.labels.to_names(),
            systems: result.systems.iter().map(system_state).collect(),
            warnings: crate::model::warnings_of(&result.warnings),
            omitted_warnings: crate::model::unlisted_warnings(&result.warnings),
            pairs: result.pairs.clone(),
            sentences: keep.then(|| result.sentences.clone()),
        }
    }
}

fn system_state(s: &SystemResult) -> DepsSystemState {
    let o = &s.observer;
    let mut confusion: Vec<(u32, u32, u64)> =
        o.confusion.iter().map(|(&(g, y), &n)| (g, y, n)).collect();
    confusion.sort_unstable();
    DepsSystemState {
        file: FileState::of(&s.file),
        totals: o.totals,
        relations: o.relations.clone(),
        by: o
            .by
            .iter()
            .map(|(k, names, counts)| ByState {
                key: k.name().into(),
                groups: names.to_names(),
                counts: counts.clone(),
            })
            .collect(),
        confusion,
        validity: o.validity,
        form_mismatches: o.form_mismatches,
        predicates: o.predicates,
        unmatched: o.unmatched,
        las_caseless: o.las_caseless,
    }
}

/// Why states cannot be merged, or a state cannot be read.
pub type MergeError = String;

/// Check that `states` (named by `names`, their files) can be merged: the same family,
/// options, sentence selection and number of systems, and systems that line up (the
/// same names given, or files that name one system: [`identity`]).
pub fn check(states: &[State], names: &[String]) -> Result<(), MergeError> {
    let Some(first) = states.first() else {
        return Err("give at least one state file".into());
    };
    for (s, name) in states.iter().zip(names) {
        if s.family.name() != first.family.name() {
            return Err(format!(
                "{name}: a state of `{}`, and {} holds a state of `{}`: only states of one command merge",
                s.family.name(),
                names[0],
                first.family.name()
            ));
        }
        if let Some((k, v, other)) = first.family.differs(&s.family) {
            return Err(format!(
                "{name}: option {k} is {other}, and in {} it is {v}: shards merge only when evaluated with the same options\n  hint: evaluate every shard with the same command line",
                names[0]
            ));
        }
        selection::check(first, s, &names[0], name)?;
        let (a, b) = (first.family.systems(), s.family.systems());
        if a != b {
            return Err(format!(
                "{name}: {b} system(s), and {} has {a}: shards merge system by system (by position)",
                names[0]
            ));
        }
    }
    check_names(states, names)?;
    align::check(states, names)?;
    identity::check(states, names)
}

/// The order in which `states` merge, whatever the order given (see [`identity`]).
pub fn order(states: &[State]) -> Vec<usize> {
    identity::order(states)
}

/// Names given (`--name`) in two shards that differ at a position: the systems would be
/// merged by position with another's counts.
fn check_names(states: &[State], names: &[String]) -> Result<(), MergeError> {
    let named: Vec<(&State, &String)> = states.iter().zip(names).filter(|(s, _)| s.named).collect();
    let Some(&(first, first_name)) = named.first() else {
        return Ok(());
    };
    for &(s, name) in &named[1..] {
        if let Some(k) = (0..first.names.len()).find(|&k| first.names.get(k) != s.names.get(k)) {
            return Err(format!(
                "{name}: system {} is named '{}', and in {first_name} it is '{}': shards merge system by system (by position)\n  hint: give the systems in the same order, with the same --name, in every shard",
                k + 1,
                s.names.get(k).map_or("", String::as_str),
                first.names[k],
            ));
        }
    }
    Ok(())
}

/// The merged systems' names: the names given to the shards (`--name`), or those every
/// shard showed, or else what each system's names share (`sys.*`), or else its distinct
/// names joined by ` + ` ([`identity::shared_name`]).
pub fn merged_names(states: &[State]) -> Vec<String> {
    if let Some(s) = states.iter().find(|s| s.named) {
        return s.names.clone();
    }
    let n = states.iter().map(|s| s.names.len()).max().unwrap_or(0);
    (0..n)
        .map(|k| {
            let names: Vec<&str> = (states.iter())
                .filter_map(|s| s.names.get(k).map(String::as_str))
                .collect();
            identity::shared_name(&names)
        })
        .collect()
}

/// The first two of `states` whose contents are equal, whatever their files' names
/// (`(earlier, later)`): the same shard given twice, which a merge would count twice.
/// States are compared as parsed (so a copy, or the same file reformatted, is found),
/// by a hash of their serialization first and then byte for byte.
pub fn duplicate(states: &[State]) -> Option<(usize, usize)> {
    use std::collections::HashMap;
    use std::hash::{DefaultHasher, Hash, Hasher};
    let bytes = |s: &State| serde_json::to_vec(s).ok();
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
    for (k, s) in states.iter().enumerate() {
        let Some(b) = bytes(s) else { continue };
        let mut h = DefaultHasher::new();
        b.hash(&mut h);
        let same = seen.entry(h.finish()).or_default();
        if let Some(&j) = same
            .iter()
            .find(|&&j| bytes(&states[j]).as_ref() == Some(&b))
        {
            return Some((j, k));
        }
        same.push(k);
    }
    None
}

/// Read a state from JSON text (`name` is the file, for the messages): a state of another
/// schema version is refused naming both versions.
pub fn parse(text: &str, name: &str) -> Result<State, MergeError> {
    if text.trim().is_empty() {
        return Err(format!(
            "{name}: expected a state ({SCHEMA} JSON), found an empty file\n  hint: states are written by --emit-state"
        ));
    }
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| format!("{name}:{}:{}: not JSON: {e}", e.line(), e.column()))?;
    let schema = v.get("schema").and_then(|s| s.as_str()).unwrap_or("");
    if schema != SCHEMA {
        return Err(other_schema(name, schema, &v));
    }
    let family = v
        .get("family")
        .and_then(|s| s.as_str())
        .unwrap_or("")
        .to_owned();
    if family.is_empty() {
        return Err(format!(
            "{name}: expected a state's `family` ({}), found none",
            FAMILIES.join(", ")
        ));
    }
    if !FAMILIES.contains(&family.as_str()) {
        return Err(format!(
            "{name}: a state of `{family}`, which this version cannot merge (states: {})",
            FAMILIES.join(", ")
        ));
    }
    serde_json::from_value(v)
        .map_err(|e| format!("{name}: malformed {SCHEMA} state of `{family}`: {e}"))
}

/// The message for a state of schema `schema` (not [`SCHEMA`]): older, newer or none.
fn other_schema(name: &str, schema: &str, v: &serde_json::Value) -> MergeError {
    let version = |s: &str| {
        s.strip_prefix("treeval.state/")
            .and_then(|n| n.parse::<u32>().ok())
    };
    let ours = version(SCHEMA).unwrap_or(0);
    let writer = v.get("treeval").and_then(|s| s.as_str());
    let by = writer.map_or(String::new(), |w| format!(", written by treeval {w}"));
    let (found, hint) = match version(schema) {
        Some(2) => (
            format!("{schema}, an older schema{by}, whose states do not name their inputs (files and digests), by which shards are lined up and ordered"),
            "evaluate the shard again with this version (it reads only its own schema)",
        ),
        Some(n) if n < ours => (
            format!("{schema}, an older schema{by}"),
            "evaluate the shard again with this version (it reads only its own schema)",
        ),
        Some(_) => (
            format!("{schema}, a newer schema{by}"),
            "merge with the treeval version that wrote the states",
        ),
        None if schema.is_empty() => ("no schema".to_owned(), "states are written by --emit-state"),
        None => (schema.to_owned(), "states are written by --emit-state"),
    };
    format!(
        "{name}: expected a state file of schema {SCHEMA} (treeval {}), found {found}\n  hint: {hint}",
        env!("CARGO_PKG_VERSION")
    )
}

/// The sum of `states` (already [`check`]ed), in the order given; `None` for no state.
pub fn merge(states: Vec<State>) -> Option<State> {
    let mut it = states.into_iter();
    let mut acc = it.next()?;
    for s in it {
        acc.shards += s.shards;
        acc.inputs.extend(s.inputs);
        if let (Some(a), Some(b)) = (acc.selection.as_mut(), s.selection.as_ref()) {
            a.add(b);
        }
        acc.family.add(s.family);
    }
    Some(acc)
}

/// Map every name of `later` to its id in `names` (adding the new ones in their order).
fn remap(names: &mut Vec<String>, later: &[String]) -> Vec<u32> {
    let mut index: BTreeMap<String, u32> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i as u32))
        .collect();
    later
        .iter()
        .map(|n| {
            *index.entry(n.clone()).or_insert_with(|| {
                names.push(n.clone());
                (names.len() - 1) as u32
            })
        })
        .collect()
}

/// Add a later shard's paired decisions, pair by pair.
fn add_pairs(into: &mut [PairCounts], from: &[PairCounts]) {
    for (a, b) in into.iter_mut().zip(from) {
        for (x, y) in [
            (&mut a.uas, b.uas),
            (&mut a.las, b.las),
            (&mut a.la, b.la),
            (&mut a.lem, b.lem),
            (&mut a.uem, b.uem),
        ] {
            x.0 += y.0;
            x.1 += y.1;
        }
    }
}

/// Every system's rows of a later shard after the earlier's; `None` when either shard
/// did not keep them.
fn concat_rows<T>(a: Option<Vec<Vec<T>>>, b: Option<Vec<Vec<T>>>) -> Option<Vec<Vec<T>>> {
    let (mut a, b) = (a?, b?);
    for (x, y) in a.iter_mut().zip(b) {
        x.extend(y);
    }
    Some(a)
}

/// The warnings of merged shards as one run keeps them: each entry with its count (the
/// first few of a kind kept), the others counted with the shards' `omitted`.
pub(crate) fn diagnostics(warnings: Vec<Warning>, omitted: u64, limit: usize) -> Diagnostics {
    let mut out = Diagnostics::with_limit(limit);
    for w in warnings {
        let at = Position::new(Arc::from(w.position.as_str()), 0, 0);
        let mut d = Diagnostic::warning(at, ErrorKind::Other(w.message)).of_kind(w.kind);
        d.hint = w.hint;
        d.more = w.count.saturating_sub(1);
        out.push(d);
    }
    out.add_omitted_warnings(omitted);
    out
}

/// `into[map[i]] += from[i]`, growing `into` as needed.
fn add_indexed<T: Copy + Default + std::ops::AddAssign>(
    into: &mut Vec<T>,
    from: &[T],
    map: &[u32],
) {
    for (i, c) in from.iter().enumerate() {
        let at = map[i] as usize;
        if into.len() <= at {
            into.resize(at + 1, T::default());
        }
        into[at] += *c;
    }
}

impl DepsState {
    /// Add a later shard.
    fn add(&mut self, o: DepsState) {
        self.gold.add(&o.gold);
        self.gold_validity += o.gold_validity;
        self.gold_predicates += o.gold_predicates;
        let map = remap(&mut self.labels, &o.labels);
        for (a, b) in self.systems.iter_mut().zip(&o.systems) {
            a.add(b, &map);
        }
        for w in o.warnings {
            Warning::add_shard(&mut self.warnings, w, false);
        }
        self.omitted_warnings += o.omitted_warnings;
        add_pairs(&mut self.pairs, &o.pairs);
        self.sentences = concat_rows(self.sentences.take(), o.sentences);
    }

    /// The result a `deps` report is built from, with the options `opts` (made from the
    /// state's options), before [`DepsResult::corpus_checks`] (which the caller runs on
    /// it, as `evaluate` does); the shards' warnings kept as a single run keeps them (the
    /// first `warn_limit`, the others counted). With the per-sentence rows, the totals' sums of per-sentence
    /// ratios are summed again sentence by sentence, in corpus order (as a single run
    /// sums them), so they are bit-identical to a single run's.
    pub fn into_result(self, opts: &DepsOptions, warn_limit: usize) -> DepsResult {
        let mut labels = LabelTable::new();
        for n in &self.labels {
            labels.intern(n);
        }
        let sentences = self.sentences.unwrap_or_default();
        let systems = self
            .systems
            .into_iter()
            .enumerate()
            .map(|(k, s)| s.into_result(opts, sentences.get(k).map(Vec::as_slice)))
            .collect();
        let warnings = diagnostics(self.warnings, self.omitted_warnings, warn_limit);
        DepsResult {
            gold: self.gold.summary(),
            gold_validity: self.gold_validity,
            gold_predicates: self.gold_predicates,
            systems,
            labels,
            warnings,
            sentences,
            pairs: self.pairs,
            sanity: Vec::new(),
            selection: Default::default(),
        }
    }
}

impl DepsSystemState {
    fn add(&mut self, o: &DepsSystemState, map: &[u32]) {
        self.file.add(&o.file);
        self.totals += o.totals;
        add_indexed(&mut self.relations, &o.relations, map);
        for (a, b) in self.by.iter_mut().zip(&o.by) {
            let gmap = remap(&mut a.groups, &b.groups);
            add_indexed(&mut a.counts, &b.counts, &gmap);
        }
        let mut cells: BTreeMap<(u32, u32), u64> = self
            .confusion
            .iter()
            .map(|&(g, s, n)| ((g, s), n))
            .collect();
        for &(g, s, n) in &o.confusion {
            *cells.entry((map[g as usize], map[s as usize])).or_default() += n;
        }
        self.confusion = cells.into_iter().map(|((g, s), n)| (g, s, n)).collect();
        self.validity += o.validity;
        self.form_mismatches += o.form_mismatches;
        self.predicates += o.predicates;
        self.unmatched += o.unmatched;
        self.las_caseless += o.las_caseless;
    }

    fn into_result(
        self,
        opts: &DepsOptions,
        sentences: Option<&[AttachmentCounts]>,
    ) -> SystemResult {
        let mut o = Observer::new(opts);
        o.totals = self.totals;
        if let Some(rows) = sentences.filter(|r| !r.is_empty()) {
            let mut sum = AttachmentCounts::default();
            for r in rows {
                sum += *r;
            }
            o.totals.sum_sentence_las = sum.sum_sentence_las;
            o.totals.sum_sentence_uas = sum.sum_sentence_uas;
            o.totals.sum_sentence_la = sum.sum_sentence_la;
        }
        o.relations = self.relations;
        o.by = self
            .by
            .into_iter()
            .map(|b| {
                let key = ByKey::parse(&b.key).unwrap_or(ByKey::Deprel);
                let mut names = LabelTable::new();
                for g in &b.groups {
                    names.intern(g);
                }
                (key, names, b.counts)
            })
            .collect();
        o.confusion = self
            .confusion
            .into_iter()
            .map(|(g, s, n)| ((g, s), n))
            .collect();
        o.validity = self.validity;
        o.form_mismatches = self.form_mismatches;
        o.predicates = self.predicates;
        o.unmatched = self.unmatched;
        o.las_caseless = self.las_caseless;
        SystemResult {
            file: self.file.summary(),
            observer: o,
        }
    }
}

/// The state of a `ud` evaluation (one gold file against every system).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UdState {
    /// The `--where` conditions as given.
    pub where_specs: Vec<String>,
    /// The gold file: path (merged: the shards' joined by ` + `) and what was read.
    pub gold: UdFileState,
    /// One per system file, in the order given.
    pub systems: Vec<UdSystemState>,
    /// The warnings found while reading, deduplicated (not the gold-columns warning,
    /// which is made again from the merged counts).
    pub warnings: Vec<Warning>,
    /// Every gold sentence's counts, per system (with `--keep-sentences`, `--test` or
    /// `--ci`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sentences: Option<Vec<Vec<UdCounts>>>,
}

/// A `ud` input file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UdFileState {
    /// Path as given.
    pub path: String,
    /// What was read.
    pub stats: SideStats,
}

/// One system's sums in a `ud` state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UdSystemState {
    /// The system file.
    pub file: UdFileState,
    /// Corpus totals of every metric.
    pub counts: UdCounts,
    /// Per universal relation, sorted by name.
    pub relations: Vec<(String, UdRelationCounts)>,
    /// Breakdowns: key and every group's counts.
    pub by: Vec<(String, Vec<(String, GroupCounts)>)>,
}

impl UdFileState {
    fn of(f: &UdFileOut) -> Self {
        UdFileState {
            path: f.path.clone(),
            stats: f.stats,
        }
    }

    fn add(&mut self, o: &UdFileState) {
        self.path = format!("{} + {}", self.path, o.path);
        self.stats += o.stats;
    }

    /// The file as the `ud` report takes it.
    pub fn out(&self) -> UdFileOut {
        UdFileOut::new(&self.path, &self.stats)
    }
}

impl State {
    /// The state of a `ud` evaluation under `opts`: the gold file, the systems (with
    /// their per-sentence rows when kept) and the warnings found while reading
    /// (`warnings`, without the gold-columns warning).
    pub fn of_ud(
        opts: &UdOptions,
        where_specs: &[String],
        gold: &UdFileOut,
        systems: &[UdSystemIn],
        warnings: Vec<Warning>,
    ) -> Self {
        // a shard whose selection keeps no sentence keeps its (empty) rows too
        let keep = opts.keep_sentences;
        let ud = UdState {
            where_specs: where_specs.to_vec(),
            gold: UdFileState::of(gold),
            systems: systems
                .iter()
                .map(|s| UdSystemState {
                    file: UdFileState::of(&s.file),
                    counts: s.counts,
                    relations: s.relations.clone(),
                    by: s
                        .by
                        .iter()
                        .map(|(k, g)| (k.name().to_owned(), g.clone()))
                        .collect(),
                })
                .collect(),
            warnings,
            sentences: keep.then(|| systems.iter().map(|s| s.sentences.clone()).collect()),
        };
        State::new(Family::Ud {
            options: UdStateOptions::of(opts),
            counts: ud,
        })
    }
}

/// `into` plus `from`, by name, in name order (as `ud` sorts its relations).
fn add_named<T: Copy + std::ops::AddAssign>(into: &mut Vec<(String, T)>, from: &[(String, T)]) {
    let mut all: BTreeMap<String, T> = into.drain(..).collect();
    for (n, c) in from {
        match all.get_mut(n) {
            Some(x) => *x += *c,
            None => {
                all.insert(n.clone(), *c);
            }
        }
    }
    into.extend(all);
}

impl UdState {
    fn add(&mut self, o: UdState) {
        self.gold.add(&o.gold);
        for (a, b) in self.systems.iter_mut().zip(&o.systems) {
            a.file.add(&b.file);
            a.counts += &b.counts;
            add_named(&mut a.relations, &b.relations);
            for (x, y) in a.by.iter_mut().zip(&b.by) {
                add_named(&mut x.1, &y.1);
            }
        }
        for w in o.warnings {
            Warning::add_shard(&mut self.warnings, w, true);
        }
        self.sentences = concat_rows(self.sentences.take(), o.sentences);
    }

    /// The systems as the `ud` report takes them.
    pub fn systems_in(&self) -> Vec<UdSystemIn> {
        let rows = self.sentences.clone().unwrap_or_default();
        self.systems
            .iter()
            .enumerate()
            .map(|(k, s)| UdSystemIn {
                file: s.file.out(),
                counts: s.counts,
                relations: s.relations.clone(),
                by: s
                    .by
                    .iter()
                    .map(|(k, g)| (ByKey::parse(k).unwrap_or(ByKey::Deprel), g.clone()))
                    .collect(),
                resync: None,
                sentences: rows.get(k).cloned().unwrap_or_default(),
                trace: Vec::new(),
                trace_labels: Vec::new(),
            })
            .collect()
    }
}

/// The state of a `relations` evaluation: every sentence's relation-set counts (the
/// sufficient statistics of CA-macro, a mean over sentences), kept always.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RelationsState {
    /// The gold file (merged: the shards' paths joined by ` + `).
    pub gold: String,
    /// The format the gold file was read as (`conllu` in states written before it was
    /// kept, which read CoNLL-U only; merged: the first shard's).
    #[serde(default = "conllu")]
    pub format: String,
    /// The system files, in the order given.
    pub systems: Vec<String>,
    /// Per system, every gold sentence's counts, in corpus order.
    pub units: Vec<Vec<RelationSetCounts>>,
    /// The warnings found while reading, once each.
    pub warnings: Vec<Warning>,
}

fn conllu() -> String {
    "conllu".into()
}

impl RelationsState {
    fn add(&mut self, o: RelationsState) {
        self.gold = format!("{} + {}", self.gold, o.gold);
        for (a, b) in self.systems.iter_mut().zip(&o.systems) {
            *a = format!("{a} + {b}");
        }
        for (a, b) in self.units.iter_mut().zip(o.units) {
            a.extend(b);
        }
        for w in o.warnings {
            Warning::add_shard(&mut self.warnings, w, true);
        }
    }
}

impl State {
    /// The state of a `relations` evaluation: its options (graph, alignment, empty nodes,
    /// roots), files, every sentence's counts and the reading's `warnings`.
    pub fn of_relations(e: &crate::relations::RelationsIn<'_>, warnings: Vec<Warning>) -> Self {
        let graph = if e.enhanced {
            Graph::Enhanced
        } else {
            Graph::Basic
        };
        State::new(Family::Relations {
            options: RelationsStateOptions {
                graph,
                align: e.opts.align,
                empty_nodes: e.opts.empty_nodes,
                multiple_roots_okay: e.opts.multiple_roots_okay,
            },
            counts: RelationsState {
                gold: e.gold.to_owned(),
                format: e.format.to_owned(),
                systems: e.systems.to_vec(),
                units: e.units.to_vec(),
                warnings,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn later_names_map_to_their_first_ids_and_new_ones_follow_in_order() {
        // one run over shard 1 then shard 2 meets nsubj, det, obj, then amod
        let mut all = names(&["nsubj", "det", "obj"]);
        let map = remap(&mut all, &names(&["obj", "amod", "nsubj"]));
        assert_eq!(map, vec![2, 3, 0]);
        assert_eq!(all, names(&["nsubj", "det", "obj", "amod"]));
    }

    #[test]
    fn indexed_counts_add_at_their_mapped_ids() {
        let mut into = vec![1u64, 2, 3];
        add_indexed(&mut into, &[10, 20, 30], &[2, 3, 0]);
        assert_eq!(into, vec![31, 2, 13, 20]);
    }

    #[test]
    fn named_counts_add_by_name_in_name_order() {
        let mut into = vec![("obj".to_owned(), 1u64), ("nsubj".to_owned(), 2)];
        add_named(&mut into, &[("amod".to_owned(), 5), ("obj".to_owned(), 4)]);
        assert_eq!(
            into,
            vec![
                ("amod".to_owned(), 5),
                ("nsubj".to_owned(), 2),
                ("obj".to_owned(), 5)
            ]
        );
    }

    #[test]
    fn merged_file_names_join_the_shards_and_add_their_counts() {
        let mut a = FileState {
            path: "g.0.conllu".into(),
            format: Some("conllu".into()),
            sentences: 2,
            words: 20,
            lines: 25,
        };
        let b = FileState {
            path: "g.1.conllu".into(),
            format: Some("conllu".into()),
            sentences: 3,
            words: 31,
            lines: 40,
        };
        a.add(&b);
        assert_eq!(a.path, "g.0.conllu + g.1.conllu");
        assert_eq!((a.sentences, a.words, a.lines), (5, 51, 65));
        assert_eq!(a.summary().format, Some(Format::Conllu));
    }

    #[test]
    fn a_state_of_another_schema_or_family_is_refused() {
        let ours = env!("CARGO_PKG_VERSION");
        let e = parse("{\"schema\":\"treeval.state/9\"}", "s.json").unwrap_err();
        let want = format!("s.json: expected a state file of schema treeval.state/3 (treeval {ours}), found treeval.state/9, a newer schema\n  hint: merge with the treeval version that wrote the states");
        assert_eq!(e, want);
        let old = "{\"schema\":\"treeval.state/1\",\"family\":\"deps\",\"treeval\":\"0.3.0\",\"options\":{},\"shards\":1}";
        let e = parse(old, "s.json").unwrap_err();
        assert!(e.starts_with(&format!("s.json: expected a state file of schema treeval.state/3 (treeval {ours}), found treeval.state/1, an older schema, written by treeval 0.3.0\n  hint: evaluate the shard again")), "{e}");
        // version 2 did not name its inputs, by which shards line up: refused, saying so
        let e = parse(&old.replace("state/1", "state/2"), "s.json").unwrap_err();
        assert!(e.contains("found treeval.state/2, an older schema, written by treeval 0.3.0, whose states do not name their inputs"), "{e}");
        let e = parse("{}", "s.json").unwrap_err();
        assert!(
            e.ends_with("found no schema\n  hint: states are written by --emit-state"),
            "{e}"
        );
        let e = parse("[1,", "s.json").unwrap_err();
        assert!(e.starts_with("s.json:1:3: not JSON"), "{e}");
        let e = parse(" \r\n", "s.json").unwrap_err();
        assert!(
            e.starts_with("s.json: expected a state (treeval.state/3 JSON), found an empty file"),
            "{e}"
        );
        let e = parse("{\"schema\":\"treeval.state/3\"}", "s.json").unwrap_err();
        assert!(
            e.starts_with("s.json: expected a state's `family` (deps, ud, "),
            "{e}"
        );
        let text = "{\"schema\":\"treeval.state/3\",\"family\":\"nbest\",\"treeval\":\"0\",\"options\":{},\"shards\":1}";
        let e = parse(text, "s.json").unwrap_err();
        let want = format!(
            "a state of `nbest`, which this version cannot merge (states: {})",
            FAMILIES.join(", ")
        );
        assert!(e.contains(&want), "{e}");
        // a family's name without its counts
        let e = parse(&text.replace("nbest", "ted"), "s.json").unwrap_err();
        assert!(
            e.contains("malformed treeval.state/3 state of `ted`"),
            "{e}"
        );
    }

    /// A state's float sums (deps' and ud's sentence macro sums) read back bit for bit:
    /// serde_json without its `float_roundtrip` feature reads 20.748512955752282 as
    /// 20.74851295575228 (about one float in nine of [0, 37) is off by a unit).
    #[test]
    fn float_sums_read_back_exactly() {
        for x in [
            20.748512955752282_f64,
            7.6945870020911205,
            2.4166666666666665,
        ] {
            let text = serde_json::to_string(&x).unwrap();
            let back: f64 = serde_json::from_str(&text).unwrap();
            assert_eq!(back.to_bits(), x.to_bits(), "{text}");
        }
    }
}
