//! The per-sentence records' JSON Schema, read from docs/json-schema.md, and a checker of
//! it written by hand: it knows the draft 2020-12 keywords that block uses (`$ref` into
//! `$defs`, `allOf`, `anyOf`, `type`, `const`, `enum`, `required`, `properties`,
//! `additionalProperties`, `unevaluatedProperties: false`, `minProperties`, `items`,
//! `minItems`, `maxItems`, `minimum`) and fails on any other, so the document cannot use
//! a keyword that is not enforced. (The `jsonschema` crate would bring dozens of crates
//! to build for these few keywords.)

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::root;

/// The JSON block of docs/json-schema.md's section on per-sentence records.
pub fn per_sentence_schema() -> Value {
    let doc = std::fs::read_to_string(root().join("docs/json-schema.md")).unwrap();
    let section = doc
        .find("## Per-sentence records")
        .expect("docs/json-schema.md has a section 'Per-sentence records'");
    let rest = &doc[section..];
    let start = rest
        .find("```json\n")
        .expect("the section has a ```json block")
        + 8;
    let end = start
        + rest[start..]
            .find("\n```")
            .expect("the ```json block is closed");
    serde_json::from_str(&rest[start..end]).expect("the ```json block is JSON")
}

/// Checks values against the schema `root` and its `$defs`.
pub struct Checker<'a> {
    root: &'a Value,
}

impl<'a> Checker<'a> {
    /// A checker of `root`.
    pub fn new(root: &'a Value) -> Self {
        Checker { root }
    }

    /// Whether `v` satisfies `schema` (a part of the root); the first violation if not.
    pub fn check(&self, schema: &Value, v: &Value) -> Result<(), String> {
        self.eval(schema, v, "").map(|_| ())
    }

    /// The schema at `#/$defs/name`.
    pub fn def(&self, name: &str) -> &'a Value {
        let d = &self.root["$defs"][name];
        assert!(d.is_object(), "the schema has no $defs/{name}");
        d
    }

    fn resolve(&self, r: &Value) -> Result<&'a Value, String> {
        let name = r
            .as_str()
            .and_then(|r| r.strip_prefix("#/$defs/"))
            .ok_or_else(|| format!("$ref {r} is not #/$defs/NAME"))?;
        match &self.root["$defs"][name] {
            Value::Null => Err(format!("$ref {r}: no such definition")),
            d => Ok(d),
        }
    }

    /// Check `v` at `at`; the names of the properties of `v` evaluated (for
    /// `unevaluatedProperties`).
    fn eval(&self, schema: &Value, v: &Value, at: &str) -> Result<BTreeSet<String>, String> {
        let Value::Object(s) = schema else {
            return Err(format!("{at}: a schema is an object, found {schema}"));
        };
        let mut seen = BTreeSet::new();
        for (k, x) in s {
            match k.as_str() {
                "$schema" | "title" | "$defs" | "unevaluatedProperties" => {}
                "$ref" => seen.extend(self.eval(self.resolve(x)?, v, at)?),
                "allOf" => {
                    for sub in list(x)? {
                        seen.extend(self.eval(sub, v, at)?);
                    }
                }
                "anyOf" => seen.extend(self.any_of(list(x)?, v, at)?),
                "type" => type_is(x, v, at)?,
                "const" if v != x => return Err(format!("{at}: expected {x}, found {v}")),
                "enum" if !list(x)?.contains(v) => {
                    return Err(format!("{at}: expected one of {x}, found {v}"))
                }
                "const" | "enum" => {}
                "minimum" => {
                    if let (Some(n), Some(m)) = (v.as_f64(), x.as_f64()) {
                        if n < m {
                            return Err(format!("{at}: expected at least {m}, found {n}"));
                        }
                    }
                }
                "items" => {
                    for (i, y) in v.as_array().into_iter().flatten().enumerate() {
                        self.eval(x, y, &format!("{at}/{i}"))?;
                    }
                }
                "minItems" | "maxItems" => bound(k, x, v.as_array().map(Vec::len), at)?,
                "minProperties" => bound(k, x, v.as_object().map(|o| o.len()), at)?,
                "required" | "properties" | "additionalProperties" => {
                    if let Value::Object(o) = v {
                        seen.extend(self.object(k, x, s, o, at)?);
                    }
                }
                other => return Err(format!("keyword {other} is not checked by this test")),
            }
        }
        if let Some(u) = s.get("unevaluatedProperties") {
            if u != &Value::Bool(false) {
                return Err("only unevaluatedProperties: false is checked".into());
            }
            if let Some(extra) = v
                .as_object()
                .and_then(|o| o.keys().find(|k| !seen.contains(*k)))
            {
                return Err(format!("{at}: property {extra} is not in the schema"));
            }
        }
        Ok(seen)
    }

    fn any_of(&self, subs: &[Value], v: &Value, at: &str) -> Result<BTreeSet<String>, String> {
        let (mut seen, mut errors, mut ok) = (BTreeSet::new(), Vec::new(), false);
        for sub in subs {
            match self.eval(sub, v, at) {
                Ok(e) => {
                    ok = true;
                    seen.extend(e);
                }
                Err(e) => errors.push(e),
            }
        }
        if ok {
            Ok(seen)
        } else {
            Err(format!(
                "{at}: no anyOf branch holds: {}",
                errors.join("; ")
            ))
        }
    }

    /// `required`, `properties` or `additionalProperties` of `s` on the object `o`.
    fn object(
        &self,
        k: &str,
        x: &Value,
        s: &serde_json::Map<String, Value>,
        o: &serde_json::Map<String, Value>,
        at: &str,
    ) -> Result<BTreeSet<String>, String> {
        let mut seen = BTreeSet::new();
        match k {
            "required" => {
                for name in list(x)? {
                    let name = name.as_str().ok_or("required lists strings")?;
                    if !o.contains_key(name) {
                        return Err(format!("{at}: property {name} is required"));
                    }
                }
            }
            "properties" => {
                for (name, sub) in x.as_object().ok_or("properties is an object")? {
                    if let Some(y) = o.get(name) {
                        self.eval(sub, y, &format!("{at}/{name}"))?;
                        seen.insert(name.clone());
                    }
                }
            }
            _ => {
                let named = s.get("properties").and_then(Value::as_object);
                for (name, y) in o {
                    if named.is_some_and(|p| p.contains_key(name)) {
                        continue;
                    }
                    if x == &Value::Bool(false) {
                        return Err(format!("{at}: property {name} is not allowed"));
                    }
                    self.eval(x, y, &format!("{at}/{name}"))?;
                    seen.insert(name.clone());
                }
            }
        }
        Ok(seen)
    }
}

fn list(x: &Value) -> Result<&[Value], String> {
    x.as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| format!("expected an array in the schema, found {x}"))
}

fn bound(k: &str, x: &Value, n: Option<usize>, at: &str) -> Result<(), String> {
    let (Some(n), Some(m)) = (n, x.as_u64()) else {
        return Ok(());
    };
    let ok = if k.starts_with("min") {
        n as u64 >= m
    } else {
        n as u64 <= m
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{at}: {k} {m}, found {n}"))
    }
}

fn type_is(x: &Value, v: &Value, at: &str) -> Result<(), String> {
    let one = |t: &str| match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "number" => v.is_number(),
        "integer" => v.is_u64() || v.is_i64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    };
    let ok = match x {
        Value::String(t) => one(t),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(one),
        _ => return Err(format!("type {x} is not a name or a list of names")),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{at}: expected type {x}, found {v}"))
    }
}

/// What a command's per-sentence file must hold besides what the schema says.
pub struct Expect<'a> {
    /// The command (the header's, and the `$defs` entry its records satisfy).
    pub command: &'a str,
    /// The gold units: every `sentence` is in 1..=units.
    pub units: u64,
    /// The systems: every `system` is in 0..systems, and each has records.
    pub systems: u64,
    /// The names of the family's columns: every record's `counts` has exactly these.
    pub columns: &'a [&'a str],
}

/// Check a per-sentence file: its header and every record against the schema of
/// docs/json-schema.md, and against `e`. Its records.
pub fn check_per_sentence_file(text: &str, e: &Expect<'_>) -> Vec<Value> {
    let schema = per_sentence_schema();
    let c = Checker::new(&schema);
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().expect("a header line")).unwrap();
    for s in [&schema, c.def("header")] {
        c.check(s, &header)
            .unwrap_or_else(|m| panic!("{}: header {header}: {m}", e.command));
    }
    assert_eq!(header["command"], e.command);
    let columns: BTreeSet<&str> = e.columns.iter().copied().collect();
    let (mut units, mut systems) = (BTreeSet::new(), BTreeSet::new());
    let mut records = Vec::new();
    for (i, line) in lines.enumerate() {
        let r: Value = serde_json::from_str(line).unwrap();
        for s in [&schema, c.def(e.command)] {
            c.check(s, &r)
                .unwrap_or_else(|m| panic!("{}: line {}: {m}\n{line}", e.command, i + 2));
        }
        let (sentence, system) = (
            r["sentence"].as_u64().unwrap(),
            r["system"].as_u64().unwrap(),
        );
        assert!((1..=e.units).contains(&sentence), "{}: {line}", e.command);
        assert!(system < e.systems, "{}: {line}", e.command);
        assert!(
            units.insert((sentence, system)),
            "{}: twice: {line}",
            e.command
        );
        systems.insert(system);
        let names: BTreeSet<&str> = r["counts"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(names, columns, "{}: the family's columns", e.command);
        records.push(r);
    }
    assert_eq!(
        systems,
        (0..e.systems).collect(),
        "{}: every system has records",
        e.command
    );
    records
}

/// The report's cells whose counts the records sum to: every cell of a row without a key
/// whose measure reads columns of the records (`ud`: a row keyed by metric reads
/// `{metric}_{column}`), but in `brackets`' `cutoff` section. The cells compared.
pub fn sums_equal_the_report(report: &Value, records: &[Value], what: &str) -> usize {
    let reads: BTreeMap<&str, Vec<&str>> = report["measures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let names = m["reads"].as_array().unwrap();
            (
                m["name"].as_str().unwrap(),
                names.iter().map(|r| r.as_str().unwrap()).collect(),
            )
        })
        .collect();
    // a system without records (nbest's n-best list itself, the row of its candidates
    // table) has nothing to sum
    let sum = |system: &Value, name: &str| -> Option<f64> {
        let mut of_system = records.iter().filter(|r| &r["system"] == system).peekable();
        of_system.peek()?;
        of_system.map(|r| r["counts"].get(name)?.as_f64()).sum()
    };
    let mut compared = 0;
    for section in report["sections"].as_array().unwrap() {
        if section["id"] == "cutoff" {
            // brackets: the sentences up to CUTOFF_LEN only (the records' `length`)
            continue;
        }
        for row in section["rows"].as_array().unwrap() {
            let key = row["key"].as_str();
            for cell in row["cells"].as_array().unwrap() {
                let Some(names) = reads.get(cell["measure"].as_str().unwrap()) else {
                    continue;
                };
                let names: Vec<String> = match key {
                    None => names.iter().map(|n| n.to_string()).collect(),
                    Some(k) => names
                        .iter()
                        .map(|n| format!("{}_{n}", k.to_lowercase()))
                        .collect(),
                };
                let sums: Option<Vec<f64>> = names.iter().map(|n| sum(&row["system"], n)).collect();
                let Some(sums) = sums else { continue };
                let counts = cell["counts"].as_array().unwrap();
                for ((name, x), c) in names.iter().zip(&sums).zip(counts) {
                    let c = c.as_f64().unwrap();
                    assert!(
                        (x - c).abs() <= 1e-9 * c.abs().max(1.0),
                        "{what}: section {}, system {}, {name}: the records sum to {x}, the report has {c}",
                        section["id"],
                        row["system"]
                    );
                }
                compared += 1;
            }
        }
    }
    compared
}
