//! Label-equivalence files (`treeval ted --label-equiv`): each line lists labels that count
//! as one, separated by spaces, tabs or `=`; `#` starts a comment. Every label maps to the
//! first label of its line.

use std::collections::HashMap;

/// Read a label-equivalence file's text: label → the first label of its line. Every
/// problem is collected as a `path:line:column: message` line.
pub fn parse_equivalences(text: &str, path: &str) -> Result<HashMap<String, String>, Vec<String>> {
    let mut map: HashMap<String, String> = HashMap::new();
    let mut problems = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line
            .strip_prefix('\u{feff}')
            .filter(|_| k == 0)
            .unwrap_or(line);
        let line = line.split('#').next().unwrap_or("");
        let labels: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == '=')
            .filter(|x| !x.is_empty())
            .collect();
        match labels.as_slice() {
            [] => {}
            [one] => problems.push(format!(
                "{path}:{}:1: expected two or more equivalent labels on a line, found only '{one}'",
                k + 1
            )),
            [first, rest @ ..] => {
                for l in rest {
                    if let Some(prev) = map.get(*l) {
                        if prev != first {
                            problems.push(format!(
                                "{path}:{}:1: '{l}' is already equivalent to '{prev}'; a label can be in one class only (merge the lines)",
                                k + 1
                            ));
                            continue;
                        }
                    }
                    map.insert((*l).to_owned(), (*first).to_owned());
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(map)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::parse_equivalences;

    #[test]
    fn classes_comments_and_problems() {
        let m = parse_equivalences(
            "\u{feff}SBJ SUB = nsubj # subjects\r\n\nOBJ\tdobj obj\n",
            "e",
        )
        .unwrap();
        assert_eq!(m["SUB"], "SBJ");
        assert_eq!(m["nsubj"], "SBJ");
        assert_eq!(m["obj"], "OBJ");
        assert!(!m.contains_key("SBJ"));
        let e = parse_equivalences("a b\nlonely\nc b\n", "e").unwrap_err();
        assert_eq!(
            e,
            [
                "e:2:1: expected two or more equivalent labels on a line, found only 'lonely'",
                "e:3:1: 'b' is already equivalent to 'a'; a label can be in one class only (merge the lines)"
            ]
        );
    }
}
