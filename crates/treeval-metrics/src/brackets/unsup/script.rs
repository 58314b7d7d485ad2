//! How `compare_trees.py` (harvardnlp/compound-pcfg) reads its files, restated.
//!
//! The script reads the two files line by line in step (Python's universal newlines; it
//! stops at the end of the shorter file), strips each line, and walks its characters:
//! an opening bracket whose next bracket is an opening one is a constituent (its label
//! runs to the first space), one whose next bracket is a closing one is a terminal (`(TAG
//! word)`: exactly two whitespace-separated fields), and text between brackets is skipped.
//! A constituent's span runs from its first to its last word; spans over one word are not
//! kept; the spans are listed as the constituents close, and the *last one listed* (the
//! outermost) is dropped as the sentence span before the rest is made a set. A unary chain
//! over the whole sentence therefore keeps the sentence span once. A gold line of one word
//! or of more words than the cut-off is skipped (the system line is then not read). Where
//! the script stops with an exception (an assertion, an index out of range), [`read`] and
//! [`Read::tree`] return a [`ScriptError`] saying what was expected and what was found.

use std::collections::HashSet;

use super::CompareTrees;

/// What `compare_trees.py` would stop on, in a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// The column (1-based, in characters of the line as read) where it stops, if one.
    pub column: Option<usize>,
    /// What was expected, what was found.
    pub message: String,
}

/// A step of the script's reading of a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Open,
    Shift,
    Reduce,
}

/// A line read as the script reads it, before its spans are made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read {
    actions: Vec<Action>,
    /// The terminals (`(TAG word)`) of the line.
    pub words: usize,
}

/// A tree's spans as the script lists them (in the order the constituents close, spans
/// over one word left out).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScriptTree {
    /// The terminals of the line.
    pub words: usize,
    /// Word-index spans `(first, last)` (inclusive, 0-based), as listed.
    pub spans: Vec<(usize, usize)>,
}

impl ScriptTree {
    /// The spans the script compares: all but the last listed, as a set.
    pub fn span_set(&self) -> HashSet<(usize, usize)> {
        let keep = self.spans.len().saturating_sub(1);
        self.spans[..keep].iter().copied().collect()
    }
}

/// Python's `str.isspace` for the characters `strip` and `split` remove.
fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The lines of `text` as Python's text mode reads them (universal newlines: `\n`,
/// `\r\n` and `\r` end a line), without their line ends.
pub fn py_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let bytes = text.as_bytes();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                lines.push(&text[start..i]);
                start = i + 1;
            }
            b'\r' => {
                lines.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < bytes.len() {
        lines.push(&text[start..]);
    }
    lines
}

fn next_bracket(chars: &[char], from: usize) -> Option<usize> {
    (from..chars.len()).find(|&k| chars[k] == '(' || chars[k] == ')')
}

/// Read `line` as the script's `get_actions` and `get_tags_tokens_lowercase` do.
pub fn read(line: &str) -> Result<Read, ScriptError> {
    let lead = line.chars().take_while(|&c| py_space(c)).count();
    let chars: Vec<char> = line.trim_matches(py_space).chars().collect();
    let at = |i: usize, message: String| ScriptError {
        column: Some(lead + i + 1),
        message,
    };
    let Some(&first) = chars.first() else {
        return Err(ScriptError {
            column: None,
            message: "expected a tree, found an empty line".into(),
        });
    };
    if first != '(' {
        return Err(at(
            0,
            format!("expected '(' opening the tree, found {first:?}"),
        ));
    }
    let mut actions = Vec::new();
    let mut terminals = Vec::new();
    let mut i = 0;
    loop {
        if chars[i] == ')' {
            actions.push(Action::Reduce);
            if i == chars.len() - 1 {
                break;
            }
            i = next_bracket(&chars, i + 1).ok_or_else(|| {
                at(
                    i + 1,
                    "expected '(' or ')', found text after the last bracket".into(),
                )
            })?;
            continue;
        }
        let Some(j) = next_bracket(&chars, i + 1) else {
            return Err(at(
                i,
                "expected ')' closing this bracket, found the end of the line".into(),
            ));
        };
        if chars[j] == '(' {
            if !chars[i + 1..j].contains(&' ') {
                return Err(at(j, "expected a space after the label, found '('".into()));
            }
            actions.push(Action::Open);
            i = j;
            continue;
        }
        actions.push(Action::Shift);
        terminals.push((i, chars[i + 1..j].iter().collect::<String>()));
        i = next_bracket(&chars, j + 1).ok_or_else(|| {
            at(
                j + 1,
                "expected '(' or ')' after the word, found the end of the line".into(),
            )
        })?;
    }
    for (k, content) in &terminals {
        let fields = content.split(py_space).filter(|f| !f.is_empty()).count();
        if fields != 2 {
            return Err(at(
                *k,
                format!("expected a word under its tag, `(TAG word)`, found `({content})`"),
            ));
        }
    }
    Ok(Read {
        actions,
        words: terminals.len(),
    })
}

#[derive(Debug, Clone, Copy)]
enum Item {
    Open,
    Span(usize, usize),
}

impl Read {
    /// The spans, as the script's `get_nonbinary_spans` makes them.
    pub fn tree(&self) -> Result<ScriptTree, ScriptError> {
        let unclosed = |message: &str| ScriptError {
            column: None,
            message: message.into(),
        };
        let mut stack = Vec::new();
        let mut spans = Vec::new();
        let (mut word, mut reduces) = (0, 0);
        for a in &self.actions {
            match a {
                Action::Shift => {
                    stack.push(Item::Span(word, word));
                    word += 1;
                }
                Action::Open => stack.push(Item::Open),
                Action::Reduce => {
                    let Some(Item::Span(mut left, right)) = stack.pop() else {
                        return Err(unclosed(
                            "expected a bracket to close, found ')' with no constituent open",
                        ));
                    };
                    let mut n = 1;
                    loop {
                        match stack.last() {
                            None => return Err(unclosed(
                                "expected a bracket to close, found ')' with no constituent open",
                            )),
                            Some(Item::Open) => break,
                            Some(&Item::Span(l, _)) => {
                                left = l;
                                stack.pop();
                                n += 1;
                            }
                        }
                    }
                    if left != right {
                        spans.push((left, right));
                    }
                    stack.pop();
                    stack.push(Item::Span(left, right));
                    reduces += n - 1;
                }
            }
        }
        if stack.len() != 1 || word != reduces + 1 {
            let open = stack.iter().filter(|s| matches!(s, Item::Open)).count();
            return Err(unclosed(&if open > 0 {
                format!("expected ')' closing {open} open bracket(s), found the end of the line")
            } else {
                format!("expected one tree on the line, found {}", stack.len())
            }));
        }
        Ok(ScriptTree {
            words: self.words,
            spans,
        })
    }
}

/// Which file a [`ScriptError`] is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// `--tree1`, the gold.
    Gold,
    /// `--tree2`, the system.
    System,
}

/// Where the script stops: the file, the line (1-based) and what it stops on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stop {
    /// The file.
    pub side: Side,
    /// The line, 1-based.
    pub line: usize,
    /// What was expected and found.
    pub error: ScriptError,
}

/// The script's sums over the lines of `gold` and `system` paired in step up to the
/// shorter file, gold lines of one word or of more than `cutoff` words skipped; also
/// the number of lines each file has.
pub fn compare(gold: &str, system: &str, cutoff: usize) -> Result<CompareTrees, Stop> {
    let mut sums = CompareTrees::default();
    for (k, (g, s)) in py_lines(gold).into_iter().zip(py_lines(system)).enumerate() {
        let stop = |side| {
            move |error| Stop {
                side,
                line: k + 1,
                error,
            }
        };
        let g = read(g).map_err(stop(Side::Gold))?;
        if g.words > cutoff || g.words == 1 {
            continue;
        }
        let g = g.tree().map_err(stop(Side::Gold))?;
        let s = read(s).and_then(|r| r.tree()).map_err(stop(Side::System))?;
        sums.add(&g, &s);
    }
    Ok(sums)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(line: &str) -> Vec<(usize, usize)> {
        read(line).unwrap().tree().unwrap().spans
    }

    #[test]
    fn spans_are_listed_as_constituents_close_and_the_last_is_dropped() {
        let t = "(S (NP (DT the) (NN cat)) (VP (VBD sat) (PP (IN on) (NN mats))))";
        assert_eq!(spans(t), vec![(0, 1), (3, 4), (2, 4), (0, 4)]);
        let set = read(t).unwrap().tree().unwrap().span_set();
        assert_eq!(set, [(0, 1), (3, 4), (2, 4)].into_iter().collect());
        // a unary chain at the top keeps the sentence span once
        let u = read("(ROOT (S (NN a) (NN b) (NN c)))")
            .unwrap()
            .tree()
            .unwrap();
        assert_eq!(u.spans, vec![(0, 2), (0, 2)]);
        assert_eq!(u.span_set(), [(0, 2)].into_iter().collect());
        // unary over one word: no span
        assert_eq!(spans("(S (NP (NN a)) (VB b))"), vec![(0, 1)]);
    }

    #[test]
    fn what_the_script_stops_on_is_an_error_with_its_column() {
        let e = |l: &str| read(l).and_then(|r| r.tree()).unwrap_err();
        assert_eq!(e("").column, None);
        assert_eq!(e("  x").column, Some(3));
        assert!(e("(S (NP the cat))").message.contains("`(NP the cat)`"));
        assert!(e("(S (NN a)").message.contains("after the word"));
        assert!(e("(S (NP (NN a) (NN b))")
            .message
            .contains("1 open bracket"));
        assert!(e("(S (NN a) (NN b)))")
            .message
            .contains("no constituent open"));
        assert!(e("(S (NN a)) x").message.contains("after the last bracket"));
        assert!(e("(NN a)").message.contains("after the word"));
        assert!(e("((S (NN a)))").message.contains("space after the label"));
        assert!(e("(S (NN a)) (S (NN b))").message.contains("found 2"));
    }

    #[test]
    fn universal_newlines() {
        assert_eq!(py_lines("a\r\nb\rc\n\nd"), vec!["a", "b", "c", "", "d"]);
        assert_eq!(py_lines("a\n"), vec!["a"]);
    }
}

#[cfg(test)]
mod oracle {
    use super::*;

    /// The lines of testdata/brackets/unsup/edges-*.txt: a one-word gold line, two
    /// words, unary chains (over one word, over two, at the top), a flat tree, a 151-word
    /// gold line (its system line is malformed and never read), spaces around a line.
    /// compare_trees.py (compound-pcfg, its torch imports removed, numpy 2.4.6) printed
    /// `Corpus F1: 53.33, Sentence F1: 65.31` on those files; its sent_f1 list and [tp,
    /// fp, fn] were printed from a copy of it in /tmp and are restated here.
    #[test]
    fn edges_give_the_scripts_sums() {
        let long: Vec<String> = (0..151).map(|i| format!("(NN w{i})")).collect();
        let long = format!("(S {})", long.join(" "));
        let gold = [
            "(S (NN alone))",
            "(S (DT the) (NN cat))",
            "(S (NP (DT the) (NN cat)) (VP (VBD sat)))",
            "(ROOT (S (NP (DT a) (NN b)) (VP (VB c) (NP (NN d) (NN e)))))",
            "(S (NN a) (NN b) (NN c) (NN d))",
            "(S (NP (NP (DT x) (NN y))) (VB z))",
            &long,
            "  (S   (NP (DT one)  (NN two)) (VB three))  ",
            "(S (A a) (B b) (C c))",
        ]
        .join("\n");
        let system = [
            "(X (Y (Z alone)))",
            "(S (DT the) (NN cat))",
            "(S (DT the) (S (NN cat) (VBD sat)))",
            "(S (DT a) (S (NN b) (S (VB c) (S (NN d) (NN e)))))",
            "(S (S (NN a) (NN b)) (S (NN c) (NN d)))",
            "(S (NP (DT x) (NN y)) (VB z))",
            "(S broken",
            "(S (S (DT one) (NN two)) (VB three))",
            "(S (A a) (B b) (C c))",
        ]
        .join("\n");
        let (gold, system) = (gold.as_str(), system.as_str());
        let sums = compare(gold, system, 150).unwrap();
        assert_eq!(
            sums.sentence_f1,
            vec![
                0.999999995,
                0.0,
                0.5714285648979592,
                0.0,
                0.9999999850000002,
                0.9999999850000002,
                0.999999995
            ]
        );
        assert_eq!((sums.tp, sums.fp, sums.fn_), (4.0, 4.0, 3.0));
        assert_eq!(sums.line().unwrap(), "Corpus F1: 53.33, Sentence F1: 65.31");
    }
}
