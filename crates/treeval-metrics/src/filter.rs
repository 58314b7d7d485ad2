//! The values of a `--where` condition, one definition for every family that has one
//! (`deps` and `ud` in [`crate::deps::filter`], `brackets` in
//! [`crate::brackets::filter`]): a value is a group as the `--by` table names it, any
//! name for a key without fixed groups (a label), and for a numeric key (length,
//! distance, depth) also a number, a range `N-M` or `N+`.

/// One accepted value: a group name as the `--by` table prints it, and for the numeric
/// keys the range of numbers it also stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Value {
    /// The value as written.
    pub text: String,
    /// `lo..=hi` (`hi` none: no upper bound).
    pub range: Option<(u32, Option<u32>)>,
}

impl Value {
    /// Whether an item whose group is `bin` (and whose number is `num`, for the numeric
    /// keys) is accepted.
    pub fn accepts(&self, bin: &str, num: Option<u32>) -> bool {
        self.text == bin
            || matches!((self.range, num), (Some((lo, hi)), Some(n)) if n >= lo && hi.map_or(true, |hi| n <= hi))
    }
}

/// Whether any of `values` accepts the item (see [`Value::accepts`]).
pub fn accepts_any(values: &[Value], bin: &str, num: Option<u32>) -> bool {
    values.iter().any(|v| v.accepts(bin, num))
}

/// The values joined by `or` (`|` on the command line, `/` in a signature), each as a
/// comma-separated list writes it (a comma in a value as `\,`: [`crate::list`]).
pub fn join(values: &[Value], or: &str) -> String {
    let texts: Vec<String> = values
        .iter()
        .map(|v| crate::list::escape(&v.text))
        .collect();
    texts.join(or)
}

/// A condition that can write itself with its alternatives joined by `or`.
pub(crate) trait Named {
    /// `key=value<or>value…`.
    fn name(&self, or: &str) -> String;
}

/// Conditions for a signature: alternatives joined by `/` (`|` separates the signature's
/// parts), conditions by `,`.
pub(crate) fn signature_name<C: Named>(conds: &[C]) -> String {
    let parts: Vec<String> = conds.iter().map(|c| c.name("/")).collect();
    parts.join(",")
}

/// Conditions as written on the command line, for a sentence: alternatives joined by
/// `|`, conditions by ` and `.
pub(crate) fn described<C: Named>(conds: &[C]) -> String {
    let parts: Vec<String> = conds.iter().map(|c| c.name("|")).collect();
    parts.join(" and ")
}

/// A number, `N-M` (N ≤ M) or `N+`.
pub fn parse_range(v: &str) -> Option<(u32, Option<u32>)> {
    if let Some(lo) = v.strip_suffix('+') {
        return Some((lo.parse().ok()?, None));
    }
    match v.split_once('-') {
        Some((lo, hi)) => {
            let (lo, hi): (u32, u32) = (lo.parse().ok()?, hi.parse().ok()?);
            (lo <= hi).then_some((lo, Some(hi)))
        }
        None => {
            let n = v.parse().ok()?;
            Some((n, Some(n)))
        }
    }
}

/// One value of the key named `key`, checked: one of its groups `bins` (any value when
/// it has none), or for a `numeric` key a number, a range `N-M` or `N+`.
pub fn parse_value(key: &str, bins: &[&str], numeric: bool, v: &str) -> Result<Value, String> {
    if v.is_empty() {
        return Err(format!("{key}: expected a value, found none"));
    }
    if bins.is_empty() {
        return Ok(Value {
            text: v.to_owned(),
            range: None,
        });
    }
    let range = if numeric { parse_range(v) } else { None };
    if range.is_none() && !bins.contains(&v) {
        let numbers = if numeric {
            ", a number, a range N-M or N+"
        } else {
            ""
        };
        return Err(format!(
            "{key}: expected one of {}{numbers}; found '{v}'",
            bins.join(", ")
        ));
    }
    Ok(Value {
        text: v.to_owned(),
        range,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_groups() {
        for (v, r) in [
            ("7", Some((7, Some(7)))),
            ("3-6", Some((3, Some(6)))),
            ("9+", Some((9, None))),
            ("6-3", None),
            ("-3", None),
            ("x+", None),
            ("far", None),
        ] {
            assert_eq!(parse_range(v), r, "{v}");
        }
        let bins = ["1-10", "11-20", "51+"];
        let v = parse_value("length", &bins, true, "11-20").unwrap();
        // the group by name, and every number it stands for
        assert!(v.accepts("11-20", Some(15)) && v.accepts("x", Some(11)));
        assert!(!v.accepts("1-10", Some(10)) && !v.accepts("51+", Some(21)));
        let v = parse_value("length", &bins, true, "51+").unwrap();
        assert!(v.accepts("51+", Some(51)) && v.accepts("x", Some(500)));
        let e = parse_value("length", &bins, true, "long").unwrap_err();
        assert_eq!(
            e,
            "length: expected one of 1-10, 11-20, 51+, a number, a range N-M or N+; found 'long'"
        );
        let e = parse_value("side", &["left"], false, "3").unwrap_err();
        assert_eq!(e, "side: expected one of left; found '3'");
        assert!(parse_value("label", &[], false, "").is_err());
        let any = parse_value("label", &[], false, "NP").unwrap();
        assert!(accepts_any(std::slice::from_ref(&any), "NP", None) && !any.accepts("VP", None));
        assert_eq!(join(&[any.clone(), any], "/"), "NP/NP");
    }
}
