//! Named option values → a family's typed [`Options`](crate::deps::Options) and
//! [`Common`]: the one rule behind Python's keyword arguments and the options column of a
//! `table` manifest (`--punct ptb --by deprel`).
//!
//! A name is a serde field (the long option with `_` for `-`); a value is JSON-shaped, as
//! the command line writes it: a string or a single value for a list option becomes a
//! list (`by="deprel,upos"`, `test="ar"`), `true` for `confusion` is its default count,
//! a number for a text option is its digits (`enhancements=14`), `false` or `null` leaves
//! an option out. An unknown name is an error listing the valid ones.
//!
//! ```
//! use serde_json::json;
//! use treeval::keywords::{split, Split};
//!
//! let pairs = [("by".to_string(), json!("deprel,upos")), ("test".to_string(), json!("ar"))];
//! let s: Split<treeval::deps::Options> = split(pairs, &[], &|_| true)?;
//! assert_eq!(s.family.by.len(), 2);
//! assert_eq!(s.common.test, [treeval::Test::Ar]);
//! # Ok::<(), treeval::keywords::KeywordError>(())
//! ```

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::Common;

/// Why named values are not options.
#[derive(Debug, Clone, PartialEq)]
pub enum KeywordError {
    /// A name that is no option; `valid` lists the names that are (sorted).
    Unknown {
        /// The name given.
        name: String,
        /// Every valid name.
        valid: Vec<String>,
    },
    /// A value of the wrong type or out of range (serde's message).
    Invalid(String),
}

impl std::fmt::Display for KeywordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeywordError::Unknown { name, valid } => write!(
                f,
                "unexpected option {name:?}; the options are: {}",
                valid.join(", ")
            ),
            KeywordError::Invalid(m) => f.write_str(m),
        }
    }
}

/// The names of a serde struct's fields (its `Default` serialised).
pub fn field_names<T: Serialize + Default>() -> Vec<String> {
    match serde_json::to_value(T::default()) {
        Ok(Value::Object(m)) => m.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// Options whose string value is a comma-separated list, as on the command line.
pub const COMMA_LISTS: [&str; 2] = ["by", "test_metrics"];

/// The [`Common`] fields a front end never takes by name (it sets them itself).
const NOT_NAMED: [&str; 2] = ["state", "page_sentences"];

/// `value` given for the option `key` whose default is `default`, in the shape serde
/// reads: a string or a single value for a list option becomes a list (`test="ar"`,
/// `by="deprel,upos"`); `true` for an option with a count means its default count
/// (`confusion=True`); a number for a text option is its digits.
pub fn shaped(key: &str, value: Value, default: &Value) -> Value {
    match (default, value) {
        (Value::Array(_), Value::String(s)) if COMMA_LISTS.contains(&key) => Value::Array(
            treeval_metrics::list::split(&s)
                .into_iter()
                .map(Value::String)
                .collect(),
        ),
        (Value::Array(_), v @ (Value::String(_) | Value::Number(_) | Value::Bool(_))) => {
            Value::Array(vec![v])
        }
        (_, Value::Bool(true)) if key == "confusion" => Value::from(crate::deps::DEFAULT_CONFUSION),
        // a number for a text option is its digits, as typed (`enhancements=14`)
        (Value::String(_), Value::Number(n)) => Value::String(n.to_string()),
        (_, v) => v,
    }
}

/// Named values split into a family's options, the shared ones and the front end's own.
#[derive(Debug, Clone)]
pub struct Split<F> {
    /// The family's options.
    pub family: F,
    /// The shared options (`state` and `page_sentences` at their defaults).
    pub common: Common,
    /// The values named in `front` (the front end's own: `quiet`, `per_sentence`, …), in
    /// the order given.
    pub front: Vec<(String, Value)>,
}

/// Split named values into the family's options `F`, [`Common`] (the names `common`
/// accepts) and the front end's names `front`. A name given twice adds to a list option
/// and is an error otherwise.
pub fn split<F: Serialize + DeserializeOwned + Default>(
    pairs: impl IntoIterator<Item = (String, Value)>,
    front: &[&str],
    common: &dyn Fn(&str) -> bool,
) -> Result<Split<F>, KeywordError> {
    let family_default = serde_json::to_value(F::default()).unwrap_or_default();
    let common_default = serde_json::to_value(Common::default()).unwrap_or_default();
    let (mut fam, mut com) = (Map::new(), Map::new());
    let mut own = Vec::new();
    for (key, value) in pairs {
        if value.is_null() {
            continue;
        }
        if front.contains(&key.as_str()) {
            own.push((key, value));
            continue;
        }
        let (target, default) = if let Some(d) = family_default.get(&key) {
            (&mut fam, d)
        } else if let Some(d) = common_default
            .get(&key)
            .filter(|_| !NOT_NAMED.contains(&key.as_str()) && common(&key))
        {
            (&mut com, d)
        } else {
            return Err(KeywordError::Unknown {
                name: key,
                valid: names::<F>(front, common),
            });
        };
        if value == Value::Bool(false) && !default.is_boolean() {
            continue;
        }
        let value = shaped(&key, value, default);
        match (target.get_mut(&key), value) {
            (Some(Value::Array(have)), Value::Array(more)) => have.extend(more),
            (Some(_), _) => {
                return Err(KeywordError::Invalid(format!(
                    "{key}: given twice (it takes one value)"
                )))
            }
            (None, value) => {
                target.insert(key, value);
            }
        }
    }
    Ok(Split {
        family: typed(fam)?,
        common: typed(com)?,
        front: own,
    })
}

/// The options of the named values `m`; an invalid value's error names its option.
fn typed<T: DeserializeOwned>(m: Map<String, Value>) -> Result<T, KeywordError> {
    serde_json::from_value(Value::Object(m.clone())).map_err(|e| {
        let bad = m.iter().find_map(|(k, v)| {
            let one = Map::from_iter([(k.clone(), v.clone())]);
            serde_json::from_value::<T>(Value::Object(one))
                .err()
                .map(|e| format!("{k}: {e}"))
        });
        KeywordError::Invalid(bad.unwrap_or_else(|| e.to_string()))
    })
}

/// Every name [`split`] accepts with these `front` names and `common` filter, sorted.
pub fn names<F: Serialize + Default>(front: &[&str], common: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut all = field_names::<F>();
    all.extend(
        field_names::<Common>()
            .into_iter()
            .filter(|k| !NOT_NAMED.contains(&k.as_str()) && common(k)),
    );
    all.extend(front.iter().map(|s| (*s).to_owned()));
    all.sort();
    all.dedup();
    all
}

/// Command-line options (`--punct ptb`, `--by=deprel`, a bare `--per-relation`) as named
/// values for [`split`] with the family options `F`: `--NAME VALUE` or `--NAME=VALUE`;
/// a boolean option, and `--confusion` without `=`, take no value (`true`); a value that
/// is a number is one (`--confusion=5`).
pub fn from_args<F: Serialize + Default>(args: &[String]) -> Result<Vec<(String, Value)>, String> {
    let defaults = serde_json::to_value(F::default()).unwrap_or_default();
    let common = serde_json::to_value(Common::default()).unwrap_or_default();
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let Some(long) = arg.strip_prefix("--").filter(|l| !l.is_empty()) else {
            return Err(format!("expected an option --NAME [VALUE], found '{arg}'"));
        };
        let (name, given) = match long.split_once('=') {
            Some((n, v)) => (n.replace('-', "_"), Some(v.to_owned())),
            None => (long.replace('-', "_"), None),
        };
        let Some(default) = defaults.get(&name).or_else(|| common.get(&name)) else {
            // no such option: [`split`] names the valid ones
            out.push((name, given.map_or(Value::Bool(true), scalar)));
            continue;
        };
        let is_flag = default.is_boolean();
        let value = match given {
            Some(v) => scalar(v),
            None if is_flag || name == "confusion" => Value::Bool(true),
            None => match it.next() {
                Some(v) if !v.starts_with("--") => scalar(v.clone()),
                _ => return Err(format!("--{}: expected a value, found none", long)),
            },
        };
        out.push((name, value));
    }
    Ok(out)
}

/// A command-line value: a number stays one (`5`), anything else is text.
fn scalar(v: String) -> Value {
    match serde_json::from_str::<Value>(&v) {
        Ok(n @ Value::Number(_)) => n,
        _ => Value::String(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn command_line_options_become_typed_options() {
        let pairs = from_args::<crate::deps::Options>(&args(
            "--punct ptb --by deprel --by=upos,distance --per-relation --confusion --labels universal",
        ))
        .unwrap();
        let s: Split<crate::deps::Options> = split(pairs, &[], &|_| false).unwrap();
        assert_eq!(s.family.by.len(), 3);
        assert!(s.family.per_relation);
        assert_eq!(s.family.confusion, Some(crate::deps::DEFAULT_CONFUSION));
        assert_eq!(s.family.labels, Some(crate::deps::Labels::Universal));
        let pairs = from_args::<crate::deps::Options>(&args("--confusion=5")).unwrap();
        let s: Split<crate::deps::Options> = split(pairs, &[], &|_| false).unwrap();
        assert_eq!(s.family.confusion, Some(5));
        let pairs = from_args::<crate::ud::Options>(&args("--enhancements 14")).unwrap();
        let s: Split<crate::ud::Options> = split(pairs, &[], &|_| false).unwrap();
        assert_eq!(s.family.enhancements, "14");
    }

    #[test]
    fn unknown_names_list_the_valid_ones_and_values_are_checked() {
        let e = split::<crate::deps::Options>([("bogus".into(), json!(1))], &["quiet"], &|_| true)
            .unwrap_err();
        let KeywordError::Unknown { name, valid } = e else {
            panic!("{e:?}")
        };
        assert_eq!(name, "bogus");
        assert!(valid.iter().any(|v| v == "punct") && valid.iter().any(|v| v == "quiet"));
        assert!(valid.iter().any(|v| v == "test") && !valid.iter().any(|v| v == "state"));
        // a common option the front end does not take is unknown
        let e =
            split::<crate::deps::Options>([("test".into(), json!("ar"))], &[], &|k| k == "where")
                .unwrap_err();
        assert!(matches!(e, KeywordError::Unknown { .. }), "{e:?}");
        let e = split::<crate::deps::Options>([("labels".into(), json!("nope"))], &[], &|_| true)
            .unwrap_err();
        assert!(matches!(e, KeywordError::Invalid(_)), "{e:?}");
        let twice =
            from_args::<crate::deps::Options>(&args("--labels full --labels full")).unwrap();
        assert!(split::<crate::deps::Options>(twice, &[], &|_| true).is_err());
        assert!(from_args::<crate::deps::Options>(&args("--punct")).is_err());
        assert!(from_args::<crate::deps::Options>(&args("ptb")).is_err());
    }
}
