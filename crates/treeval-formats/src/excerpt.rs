//! Short excerpts of the inputs that messages quote: no error message echoes more than a
//! short excerpt of a value it found or of a path it names, whatever the input holds (a
//! field of 600,000 characters, or a whole file's text given where a path was expected).

use std::borrow::Cow;

/// Characters of a value, or of a path too long or too strange to be one, that a message
/// shows.
pub const EXCERPT_CHARS: usize = 80;

/// Characters of a path a message shows whole (Linux's `PATH_MAX`; a merged input's name,
/// its shards' paths joined by ` + `, can be hundreds): longer ones, and ones with a line
/// break or a tab (text given as a path), are cut to [`EXCERPT_CHARS`].
pub const PATH_CHARS: usize = 4096;

/// `s` as a message quotes it: whole when it has at most [`EXCERPT_CHARS`] characters and
/// no control character, else its first [`EXCERPT_CHARS`] characters (control characters
/// escaped, `\t`, `\n`), `…` and its length: `1\tThe\tthe… (612345 characters)`.
pub fn excerpt(s: &str) -> Cow<'_, str> {
    cut(s, EXCERPT_CHARS)
}

/// A path as a message names it: whole when it has at most [`PATH_CHARS`] characters and
/// no control character, else as [`excerpt`] shows it.
pub fn path_excerpt(s: &str) -> Cow<'_, str> {
    cut(s, PATH_CHARS)
}

/// `s` whole when it has at most `max` characters and no control character, else cut.
fn cut(s: &str, max: usize) -> Cow<'_, str> {
    if s.chars().any(char::is_control) || s.chars().nth(max).is_some() {
        return cut_always(s);
    }
    Cow::Borrowed(s)
}

/// The first [`EXCERPT_CHARS`] characters, escaped, with `…` and the length when cut.
fn cut_always(s: &str) -> Cow<'_, str> {
    let mut out = String::new();
    for c in s.chars().take(EXCERPT_CHARS) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    let n = s.chars().count();
    if n > EXCERPT_CHARS {
        out.push_str(&format!("… ({n} characters)"));
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_and_paths_are_shown_whole() {
        assert_eq!(excerpt("foo"), "foo");
        let path = format!("/data/{}/en_ewt-ud-dev.conllu", "x".repeat(150));
        assert_eq!(path_excerpt(&path), path.as_str());
        // a merged input: its shards' paths joined by ` + `
        let joined = [path.as_str(); 20].join(" + ");
        assert_eq!(path_excerpt(&joined), joined.as_str());
        let flat = "x".repeat(PATH_CHARS + 1);
        assert!(path_excerpt(&flat).ends_with("… (4097 characters)"));
        assert_eq!(excerpt(&"é".repeat(80)), "é".repeat(80));
    }

    #[test]
    fn long_or_multiline_inputs_are_cut_with_their_length() {
        let text = "1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n".repeat(20_000);
        let n = text.chars().count();
        let shown = path_excerpt(&text);
        assert!(shown.ends_with(&format!("… ({n} characters)")), "{shown}");
        assert!(shown.starts_with("1\\tThe\\tthe\\tDET"), "{shown}");
        assert!(!shown.contains('\n') && shown.chars().count() < 200);
        let long = "é".repeat(81);
        assert_eq!(
            excerpt(&long),
            format!("{}… (81 characters)", "é".repeat(80))
        );
        // a short value with a line break: escaped, not cut
        assert_eq!(excerpt("a\nb"), "a\\nb");
    }
}
