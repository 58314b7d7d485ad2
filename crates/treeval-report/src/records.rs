//! The per-sentence records of `--per-sentence FILE`, one shape for every command
//! (schema [`SCHEMA`], `treeval.per-sentence/3`; docs/json-schema.md has its JSON Schema).
//!
//! A file is JSON lines: a [`Header`] (`schema`, `command`, `inputs`), then one
//! [`Record`] per unit (sentence, tree or sentence pair) and system: `sentence` (the
//! unit's 1-based position in the gold), `system` (0-based, the index into the report's
//! `systems`, as `sections[].rows[].system` of `--format json`), `sent_id` (a string or
//! `null`), `counts` (the family's [`Statistics`] columns by name, in column order) and
//! the family's extras under their own names (`gold_lines`, `status`, …).

use serde::ser::{Serialize, SerializeMap, Serializer};
use treeval_metrics::measure::Statistics;

/// The schema named by a per-sentence file's header.
pub const SCHEMA: &str = "treeval.per-sentence/3";

/// The keys of a record that extras may not take.
pub const RESERVED: [&str; 5] = ["schema", "sentence", "system", "sent_id", "counts"];

/// One input of the command, as the header names it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Input {
    /// Its role (`GOLD`, `SYS`, `--gold-a`, …).
    pub role: String,
    /// Its path as given.
    pub path: String,
}

/// The first line of a per-sentence file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Header {
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// The command that wrote the file (`deps`, `brackets`, …).
    pub command: String,
    /// Every input, in command-line order.
    pub inputs: Vec<Input>,
}

impl Header {
    /// The header of `command`'s file, its inputs given as `(role, path)`.
    pub fn new(command: &str, inputs: &[(&str, &str)]) -> Self {
        Header {
            schema: SCHEMA,
            command: command.to_owned(),
            inputs: inputs
                .iter()
                .map(|(role, path)| Input {
                    role: (*role).to_owned(),
                    path: (*path).to_owned(),
                })
                .collect(),
        }
    }
}

/// A row of named counts, in the order of the family's columns. A whole number is
/// written as a JSON integer, any other (a sum of sentence scores) as a number.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Counts(Vec<(&'static str, f64)>);

impl Counts {
    /// The row of `s`, named by its family's [`Statistics::columns`].
    pub fn of<S: Statistics>(s: &S) -> Self {
        let mut row = Vec::new();
        s.row(&mut row);
        Counts(S::columns().iter().copied().zip(row).collect())
    }

    /// Counts named here (a family without a [`Statistics`] type: `ted --distance`).
    pub fn named(pairs: &[(&'static str, f64)]) -> Self {
        Counts(pairs.to_vec())
    }

    /// The count of a column.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.0.iter().find(|(n, _)| *n == name).map(|&(_, x)| x)
    }

    /// The column names, in order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.iter().map(|&(n, _)| n)
    }
}

impl Serialize for Counts {
    fn serialize<Ser: Serializer>(&self, s: Ser) -> Result<Ser::Ok, Ser::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for &(name, x) in &self.0 {
            if x.fract() == 0.0 && (0.0..=u64::MAX as f64).contains(&x) {
                m.serialize_entry(name, &(x as u64))?;
            } else {
                m.serialize_entry(name, &x)?;
            }
        }
        m.end()
    }
}

/// One unit of one system.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The unit's 1-based position in the gold (kept sentences keep their number).
    pub sentence: u64,
    /// The system's index into the report's `systems` (0-based).
    pub system: u64,
    /// The gold sentence's `# sent_id`, where the family reads one.
    pub sent_id: Option<String>,
    /// The family's columns by name.
    pub counts: Counts,
    /// The family's other facts about the unit, by name (never a [`RESERVED`] key), in
    /// the order written.
    pub extras: Vec<(&'static str, Extra)>,
}

/// The value of an extra.
#[derive(Debug, Clone, PartialEq)]
pub enum Extra {
    /// Any JSON value.
    Value(serde_json::Value),
    /// Named counts (another family's columns: `pts`' sides), in column order.
    Counts(Counts),
}

impl Serialize for Record {
    fn serialize<Ser: Serializer>(&self, s: Ser) -> Result<Ser::Ok, Ser::Error> {
        let mut m = s.serialize_map(Some(4 + self.extras.len()))?;
        m.serialize_entry("sentence", &self.sentence)?;
        m.serialize_entry("system", &self.system)?;
        m.serialize_entry("sent_id", &self.sent_id)?;
        m.serialize_entry("counts", &self.counts)?;
        for (name, x) in &self.extras {
            match x {
                Extra::Value(v) => m.serialize_entry(name, v)?,
                Extra::Counts(c) => m.serialize_entry(name, c)?,
            }
        }
        m.end()
    }
}

impl Record {
    /// Unit `sentence` (1-based) of system `system` (0-based), with these counts.
    pub fn new(sentence: u64, system: usize, counts: Counts) -> Self {
        Record {
            sentence,
            system: system as u64,
            sent_id: None,
            counts,
            extras: Vec::new(),
        }
    }

    /// Unit `sentence` of system `system` with the counts of `s`, named by its family's
    /// columns.
    pub fn of<S: Statistics>(sentence: u64, system: usize, s: &S) -> Self {
        Record::new(sentence, system, Counts::of(s))
    }

    /// With the gold sentence's id.
    pub fn sent_id(mut self, id: Option<&str>) -> Self {
        self.sent_id = id.map(str::to_owned);
        self
    }

    /// With one extra under `name` (not a [`RESERVED`] key: those are the record's own).
    pub fn extra(self, name: &'static str, value: impl Serialize) -> Self {
        let v = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
        self.with(name, Extra::Value(v))
    }

    /// With named counts as an extra under `name` (their column order kept).
    pub fn extra_counts(self, name: &'static str, counts: Counts) -> Self {
        self.with(name, Extra::Counts(counts))
    }

    fn with(mut self, name: &'static str, x: Extra) -> Self {
        debug_assert!(!RESERVED.contains(&name), "{name} is a record's own key");
        debug_assert!(self.extras.iter().all(|(n, _)| *n != name), "{name} twice");
        self.extras.push((name, x));
        self
    }
}

/// Write `v` (a [`Header`] or a [`Record`]) as one line of JSON.
pub fn json_line<W: std::io::Write + ?Sized, T: Serialize>(
    w: &mut W,
    v: &T,
) -> std::io::Result<()> {
    serde_json::to_writer(&mut *w, v)?;
    writeln!(w)
}

impl Record {
    /// With one extra under `name`: the fields of `value` (a struct of counts) that are
    /// not among the record's `counts`, when there are any.
    pub fn extra_beyond_counts(self, name: &'static str, value: impl Serialize) -> Self {
        let Ok(serde_json::Value::Object(mut m)) = serde_json::to_value(value) else {
            return self;
        };
        for n in self.counts.names() {
            m.remove(n);
        }
        if m.is_empty() {
            self
        } else {
            self.extra(name, m)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use treeval_metrics::align::AlignCounts;

    #[test]
    fn a_record_is_one_flat_object_in_a_fixed_order() {
        let c = AlignCounts {
            a: 3,
            s: 2,
            p: 4,
            a_and_s: 2,
            a_and_p: 3,
            ..AlignCounts::default()
        };
        let r = Record::new(2, 1, Counts::of(&c))
            .sent_id(Some("s-2"))
            .extra("lines", [3, 4]);
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"sentence":2,"system":1,"sent_id":"s-2","counts":{"system_links":3,"sure_links":2,"possible_links":4,"system_sure_links":2,"system_possible_links":3},"lines":[3,4]}"#
        );
        assert_eq!(Counts::of(&c).get("system_possible_links"), Some(3.0));
    }

    #[test]
    fn whole_counts_are_integers_and_sums_of_scores_numbers() {
        let c = Counts::named(&[("n", 4.0), ("sum", 0.75), ("none", -1.0)]);
        assert_eq!(
            serde_json::to_string(&c).unwrap(),
            r#"{"n":4,"sum":0.75,"none":-1.0}"#
        );
        let h = Header::new("deps", &[("GOLD", "g.conllu")]);
        assert_eq!(
            serde_json::to_string(&h).unwrap(),
            r#"{"schema":"treeval.per-sentence/3","command":"deps","inputs":[{"role":"GOLD","path":"g.conllu"}]}"#
        );
    }
}
