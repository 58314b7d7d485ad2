//! Comma-separated lists on the command line (`--punct xpos=,`, `--where COND,COND`), and
//! the one way to name an item that contains a comma: `\,` is a comma inside the item,
//! `\\` a backslash; any other backslash stands for itself. So `--punct 'xpos=\,,.'` is the
//! two tags `,` and `.`, and `--where 'xpos=\,'` keeps the words tagged `,`.

/// The items of `s`, split at the commas that are not escaped, escapes resolved.
pub fn split(s: &str) -> Vec<String> {
    let mut items = vec![String::new()];
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some(',' | '\\')) => {
                if let (Some(item), Some(next)) = (items.last_mut(), chars.next()) {
                    item.push(next);
                }
            }
            ',' => items.push(String::new()),
            c => {
                if let Some(item) = items.last_mut() {
                    item.push(c);
                }
            }
        }
    }
    items
}

/// One item as a list writes it: its commas and backslashes escaped, so that
/// [`split`] reads it back (`,` → `\,`).
pub fn escape(item: &str) -> String {
    let mut out = String::with_capacity(item.len());
    for c in item.chars() {
        if matches!(c, ',' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Items joined into a list that [`split`] reads back.
pub fn join<S: AsRef<str>>(items: &[S]) -> String {
    items
        .iter()
        .map(|i| escape(i.as_ref()))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_commas_stay_in_their_item() {
        assert_eq!(split("a,b"), ["a", "b"]);
        assert_eq!(split(r"\,"), [","]);
        assert_eq!(split(r"``,'',.,\,,:"), ["``", "''", ".", ",", ":"]);
        assert_eq!(split(r"a\\,b"), [r"a\", "b"]);
        assert_eq!(split(r"a\b"), [r"a\b"]);
        assert_eq!(split(r"a\"), [r"a\"]);
        assert_eq!(split(""), [""]);
        assert_eq!(split("a,"), ["a", ""]);
    }

    #[test]
    fn join_is_read_back_by_split() {
        for items in [
            vec!["punct"],
            vec![",", "."],
            vec![r"a\", ",", r"\,"],
            vec!["``", "''", ".", ",", ":"],
        ] {
            assert_eq!(split(&join(&items)), items, "{}", join(&items));
        }
        assert_eq!(join(&[",", ":"]), r"\,,:");
    }
}
