//! The one report value every command returns (JSON schema `treeval.report/3`):
//! inputs, the measures it uses, sections of rows of cells, tests, warnings and the
//! signature. The renderers in [`crate::emit`] format it for every output format; they
//! never compute a score.
//!
//! ```text
//! Report { signature, conventions, inputs, measures, systems,
//!          sections: [ Section { key, columns, rows: [ Row { system, key,
//!                        cells: [ Cell { measure, value, counts, ci } ] } ] } ],
//!          matrices, significance, comparisons, rankings, notes, warnings }
//! ```

use serde::Serialize;
use treeval_metrics::measure::{Better, Kind, Measure, Statistics};
use treeval_stats::compare::{Comparison, Ranking};

use crate::model::{Signature, SignificanceSettings, Warning};

/// Version of the JSON contract of reports built on this value.
pub const SCHEMA_V3: &str = "treeval.report/3";

/// A measure as the report documents it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MeasureInfo {
    /// Name (`AER`).
    pub name: String,
    /// What it is.
    pub title: String,
    /// Its formula.
    pub formula: String,
    /// The paper or reference tool it follows.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// How its values are shown.
    pub kind: Kind,
    /// Which way is better.
    pub better: Better,
    /// The counts it reads, in the order of every cell's `counts`.
    pub reads: Vec<String>,
}

impl MeasureInfo {
    /// `m` of a family whose statistics have these `columns`.
    pub fn new(m: &Measure, columns: &[&str]) -> Self {
        MeasureInfo {
            name: m.name.into(),
            title: m.title.into(),
            formula: m.formula.into(),
            source: m.source.into(),
            kind: m.kind,
            better: m.better,
            reads: m
                .reads
                .iter()
                .map(|&c| columns.get(c).copied().unwrap_or("?").to_string())
                .collect(),
        }
    }
}

/// A convention that fixes the numbers (`f-alpha` = `0.5`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Convention {
    /// Its name, as in the signature.
    pub name: String,
    /// Its value.
    pub value: String,
}

/// One input file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Input {
    /// `gold` or `system` (or the family's own role names).
    pub role: String,
    /// The path as given.
    pub path: String,
    /// The format read.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub format: String,
    /// What it holds, in words (`3 sentences, 5 sure + 3 possible-only links`).
    pub description: String,
    /// The family's summed counts for it (all of them, named).
    pub counts: serde_json::Value,
    /// The system it belongs to (an index into [`Report::systems`]); `None` for gold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<usize>,
}

/// A cell: one measure of one row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// The measure's name (one of [`Report::measures`]).
    pub measure: String,
    /// Its value (a fraction for fractions, `null` where undefined).
    pub value: Option<f64>,
    /// The summed columns the measure read, in its order (`[correct, total]`).
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "whole_numbers"
    )]
    pub counts: Vec<f64>,
    /// The bootstrap confidence interval `[low, high]`, when asked (`--ci`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci: Option<[f64; 2]>,
    /// A mark shown after the value (`†`: significantly different from the baseline in
    /// `treeval table`; the report's notes say what it means).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<String>,
}

/// A row: one system (and one key of a breakdown).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The index of the system in [`Report::systems`].
    pub system: usize,
    /// The key of the row in a breakdown (`nsubj`, `length <= 40`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Its cells, in the order of [`Section::columns`].
    pub cells: Vec<Cell>,
}

/// A section: one table of rows × measures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Section {
    /// A stable identifier (`scores`, `by:deprel`).
    pub id: String,
    /// A title for people.
    pub title: String,
    /// The name of the key column, for breakdowns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The measures shown, by name, in order.
    pub columns: Vec<String>,
    /// Whether text shows each fraction's counts (`16/21`) beside it.
    #[serde(skip)]
    pub show_counts: bool,
    /// The one measure default text shows of a section with a key (ud: `F1`): one row per
    /// key, one column per system. `None`: every measure, a row per system and key.
    /// `--wide` text and the other formats show every measure.
    #[serde(skip)]
    pub compact: Option<String>,
    /// The rows.
    pub rows: Vec<Row>,
}

/// A matrix of counts: a label confusion matrix (gold labels × system labels).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Matrix {
    /// A stable identifier (`confusion`).
    pub id: String,
    /// A title for people.
    pub title: String,
    /// The index of the system in [`Report::systems`].
    pub system: usize,
    /// What the rows are (`gold`).
    pub rows_are: String,
    /// What the columns are (`system`).
    pub columns_are: String,
    /// The row labels.
    pub rows: Vec<String>,
    /// The column labels.
    pub columns: Vec<String>,
    /// `counts[row][column]`.
    pub counts: Vec<Vec<u64>>,
}

/// One system.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct System {
    /// Its name (the path as given, or the experiment's name).
    pub name: String,
    /// Its input files, as indexes into [`Report::inputs`].
    pub inputs: Vec<usize>,
}

/// The items behind a system's numbers, one per row (`--errors`: every wrong word, link or
/// bracket), with how many there are of each kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Listing {
    /// A stable identifier (`errors`).
    pub id: String,
    /// The index of the system in [`Report::systems`].
    pub system: usize,
    /// What each row's cells are.
    pub columns: Vec<String>,
    /// The rows (as many cells as columns).
    pub rows: Vec<Vec<String>>,
    /// Rows per kind (the last column), in order of first appearance.
    pub kinds: Vec<KindCount>,
}

/// How many rows of a [`Listing`] are of one kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KindCount {
    /// The kind (`head`, `label`, `missing sure link`, …).
    pub kind: String,
    /// Its rows.
    pub count: u64,
}

impl Listing {
    /// An empty listing `id` of system `system` with these columns (the last one is the
    /// kind of each row).
    pub fn new(id: &str, system: usize, columns: &[&str]) -> Self {
        Listing {
            id: id.into(),
            system,
            columns: columns.iter().map(|c| (*c).to_owned()).collect(),
            rows: Vec::new(),
            kinds: Vec::new(),
        }
    }

    /// Add a row; its last cell is its kind.
    pub fn push(&mut self, row: Vec<String>) {
        if let Some(kind) = row.last() {
            match self.kinds.iter_mut().find(|k| &k.kind == kind) {
                Some(k) => k.count += 1,
                None => self.kinds.push(KindCount {
                    kind: kind.clone(),
                    count: 1,
                }),
            }
        }
        self.rows.push(row);
    }
}

/// The report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// [`SCHEMA_V3`].
    pub schema: &'static str,
    /// The command.
    pub command: String,
    /// The reproducibility signature.
    pub signature: Signature,
    /// The conventions in force.
    pub conventions: Vec<Convention>,
    /// Every input file.
    pub inputs: Vec<Input>,
    /// The systems compared.
    pub systems: Vec<System>,
    /// The measures used in the sections.
    pub measures: Vec<MeasureInfo>,
    /// The tables.
    pub sections: Vec<Section>,
    /// Matrices of counts (label confusions), when asked.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub matrices: Vec<Matrix>,
    /// The items behind the numbers, when asked (`--errors`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub listings: Vec<Listing>,
    /// How tests and intervals were run, when they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub significance: Option<SignificanceSettings>,
    /// The sentence selection (`--sent-id`, `--min-len`, `--max-len`) and its counts, when
    /// one was asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection: Option<treeval_metrics::select::Summary>,
    /// Pairwise tests: one per measure, test and pair of systems.
    pub comparisons: Vec<Comparison>,
    /// Ranks per measure and test (1 + systems significantly better).
    pub rankings: Vec<Ranking>,
    /// Remarks on the numbers that belong with them (text shows them under the tables).
    pub notes: Vec<String>,
    /// The notes that explain a table's marks and order (`treeval table`: what † means,
    /// the ranking), among [`Report::notes`] too; LaTeX sets them under the tables, as
    /// text (the other notes are comments there).
    #[serde(skip)]
    pub legend: Vec<String>,
    /// Warnings (all of them; also printed on stderr).
    pub warnings: Vec<Warning>,
    /// The sentences behind the numbers, for the HTML page's browser (collected only for
    /// `--format html`; never in the JSON report).
    #[serde(skip)]
    pub browser: Option<crate::browse::Browser>,
}

impl Report {
    /// An empty report of `command` with its signature.
    pub fn new(command: &str, signature: Signature) -> Self {
        Report {
            schema: SCHEMA_V3,
            command: command.into(),
            signature,
            conventions: Vec::new(),
            inputs: Vec::new(),
            systems: Vec::new(),
            measures: Vec::new(),
            sections: Vec::new(),
            matrices: Vec::new(),
            listings: Vec::new(),
            significance: None,
            selection: None,
            comparisons: Vec::new(),
            rankings: Vec::new(),
            notes: Vec::new(),
            legend: Vec::new(),
            warnings: Vec::new(),
            browser: None,
        }
    }

    /// A convention (kept in order).
    pub fn convention(&mut self, name: &str, value: impl ToString) {
        self.conventions.push(Convention {
            name: name.into(),
            value: value.to_string(),
        });
    }

    /// The measure named `name`.
    pub fn measure(&self, name: &str) -> Option<&MeasureInfo> {
        self.measures.iter().find(|m| m.name == name)
    }

    /// Document `measures` of a family with statistics `S` (each once).
    pub fn add_measures<'a, S: Statistics>(
        &mut self,
        measures: impl IntoIterator<Item = &'a Measure>,
    ) {
        for m in measures {
            if self.measure(m.name).is_none() {
                self.measures.push(MeasureInfo::new(m, S::columns()));
            }
        }
    }

    /// The headline cell of `measure` for system `system` (0-based): the first row of
    /// that system without a breakdown key, in the first section that has the measure.
    pub fn cell(&self, measure: &str, system: usize) -> Option<&Cell> {
        self.sections.iter().find_map(|s| {
            s.rows
                .iter()
                .filter(|r| r.system == system && r.key.is_none())
                .find_map(|r| r.cells.iter().find(|c| c.measure == measure))
        })
    }

    /// Name the systems in order (`names[i]` for system `i`; see [`crate::names`]), in
    /// the tables and in the page's sentence browser (whose systems are the report's).
    pub fn name_systems(&mut self, names: &[String]) {
        for (s, n) in self.systems.iter_mut().zip(names) {
            s.name.clone_from(n);
        }
        if let Some(b) = self.browser.as_mut() {
            if b.systems.len() == names.len() {
                b.systems = names.to_vec();
            }
        }
    }

    /// The display name of system `i`.
    pub fn system_name(&self, i: usize) -> &str {
        self.systems.get(i).map_or("", |s| s.name.as_str())
    }
}

/// Counts are whole numbers in JSON (`16`, not `16.0`); a fractional one (a weighted
/// edit cost) stays a float.
fn whole_numbers<S: serde::Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for &x in v {
        if x.fract() == 0.0 && (0.0..9.0e15).contains(&x) {
            seq.serialize_element(&(x as u64))?;
        } else {
            seq.serialize_element(&x)?;
        }
    }
    seq.end()
}
