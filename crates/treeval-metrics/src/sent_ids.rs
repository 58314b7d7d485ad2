//! Whether the `# sent_id`s of paired sentences agree. Sentences are paired by position
//! (`deps`, `pts`, `ted` on CoNLL files) or by their text (`ud`, `relations`: a gold and a
//! system sentence that start at the same character), never by id; when both carry an id
//! and the ids differ, the files may hold other sentences or another order, and one
//! warning says how many pairs differ and shows the first.

use std::sync::Arc;

use treeval_formats::{Diagnostic, ErrorKind, Position};

/// The first pair whose ids differ.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FirstPair {
    gold: String,
    gold_line: u64,
    system: String,
    system_line: u64,
}

/// The sent_id comparison of one gold file against one system file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SentIdCheck {
    /// Pairs where both sentences carry a `# sent_id`.
    pub both: u64,
    /// Of those, the pairs whose ids differ.
    pub differ: u64,
    first: Option<FirstPair>,
}

impl SentIdCheck {
    /// One pair: the gold sentence's id and first line, the system sentence's.
    pub fn observe(
        &mut self,
        (gold, gold_line): (Option<&str>, u64),
        (system, system_line): (Option<&str>, u64),
    ) {
        let (Some(g), Some(s)) = (gold, system) else {
            return;
        };
        self.both += 1;
        if g != s {
            self.differ += 1;
            if self.first.is_none() {
                self.first = Some(FirstPair {
                    gold: g.to_owned(),
                    gold_line,
                    system: s.to_owned(),
                    system_line,
                });
            }
        }
    }

    /// The warning, when some ids differ: at the first differing system sentence, naming
    /// how many pairs differ and the first pair (`paired`: how the command pairs
    /// sentences, "by position" or "by their text").
    pub fn warning(&self, gold_path: &str, sys_path: &str, paired: &str) -> Option<Diagnostic> {
        let f = self.first.as_ref()?;
        let first = format!(
            "gold '{}' ({gold_path}:{}) and system '{}' ({sys_path}:{})",
            f.gold, f.gold_line, f.system, f.system_line
        );
        let msg = if self.differ == self.both {
            format!(
                "no system sentence has the `# sent_id` of the gold sentence it is paired with ({} pairs with ids; the first: {first}): sentences are paired {paired}, not by sent_id",
                self.both
            )
        } else {
            format!(
                "{} of {} paired sentences with ids have a `# sent_id` other than their gold sentence's; the first: {first} (sentences are paired {paired}, not by sent_id)",
                self.differ, self.both
            )
        };
        Some(
            Diagnostic::warning(
                Position::new(Arc::from(sys_path), f.system_line.max(1), 1),
                ErrorKind::Other(msg),
            )
            .with_hint("check that the system file holds the gold file's sentences in the gold's order (not a shuffled, filtered or other split's output); ids a system renumbers itself do not matter")
            .of_kind(treeval_formats::WarningKind::SentIdMismatch),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_pairs_with_ids_and_keeps_the_first_difference() {
        let mut c = SentIdCheck::default();
        c.observe((Some("a"), 1), (Some("a"), 1));
        c.observe((Some("b"), 5), (None, 5));
        c.observe((Some("c"), 9), (Some("x"), 8));
        c.observe((Some("d"), 13), (Some("y"), 12));
        assert_eq!((c.both, c.differ), (3, 2));
        let w = c.warning("g.conllu", "s.conllu", "by position").unwrap();
        let text = w.to_string();
        assert!(text.starts_with("s.conllu:8:1: 2 of 3 paired sentences with ids have a `# sent_id` other than their gold sentence's; the first: gold 'c' (g.conllu:9) and system 'x' (s.conllu:8)"), "{text}");
        let mut none = SentIdCheck::default();
        none.observe((Some("c"), 9), (Some("x"), 8));
        let text = none.warning("g", "s", "by position").unwrap().to_string();
        assert!(text.contains("no system sentence has the `# sent_id` of the gold sentence it is paired with (1 pairs with ids"), "{text}");
        assert!(
            text.contains("sentences are paired by position, not by sent_id"),
            "{text}"
        );
        let mut same = SentIdCheck::default();
        same.observe((Some("a"), 1), (Some("a"), 1));
        same.observe((None, 3), (Some("b"), 3));
        assert_eq!(same.warning("g", "s", "by position"), None);
    }
}
