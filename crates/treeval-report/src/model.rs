//! The signature, warning and significance-settings types every report uses.

use serde::Serialize;
use treeval_formats::Diagnostic;
pub use treeval_formats::WarningKind;

/// A reproducibility signature in the spirit of sacrebleu:
/// `treeval 0.1.0|deps|punct:form|labels:full|avg:micro`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Signature(pub String);

impl std::fmt::Display for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Signature {
    /// Build from the command and its `key:value` conventions.
    pub fn new(command: &str, parts: &[(&str, String)]) -> Self {
        let mut s = format!("treeval {}|{}", env!("CARGO_PKG_VERSION"), command);
        for (k, v) in parts {
            s.push('|');
            s.push_str(k);
            s.push(':');
            s.push_str(v);
        }
        Signature(s)
    }

    /// Append a `key:value` convention.
    pub fn push(&mut self, key: &str, value: String) {
        self.0.push('|');
        self.0.push_str(key);
        self.0.push(':');
        self.0.push_str(&value);
    }
}

/// A warning as shown in the report: one entry per kind ([`WarningKind`]) and what it
/// says ([`group_warnings`]), with how many times it happened and where the first few
/// were.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Warning {
    /// What happened, as a stable name (`crlf_line_endings`); `other` in entries written
    /// before warnings had kinds.
    #[serde(default)]
    pub kind: WarningKind,
    /// `path:line:column`, or the path alone: the first occurrence.
    pub position: String,
    /// The message (of the first occurrence).
    pub message: String,
    /// How to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// How many warnings of this kind there were (1 for most).
    #[serde(default = "one")]
    pub count: u64,
    /// Where the first few were (at most [`GROUP_POSITIONS`], the first included), when
    /// there were more than one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<String>,
    /// In a merged report, how many shards gave this warning about their whole file word
    /// for word (listed once, as one run over the whole file gives it once); 0 otherwise.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shards: u64,
}

fn one() -> u64 {
    1
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The positions a warning entry lists at most.
pub use treeval_formats::error::GROUP_POSITIONS;

impl Warning {
    /// A warning of `kind` that happened once.
    pub fn of(
        kind: WarningKind,
        position: impl Into<String>,
        message: impl Into<String>,
        hint: Option<String>,
    ) -> Self {
        Warning {
            kind,
            ..Warning::new(position, message, hint)
        }
    }

    /// A warning of kind [`WarningKind::Other`] that happened once (a warning read from
    /// elsewhere; the library names the kind of each of its own: [`Warning::of`]).
    pub fn new(
        position: impl Into<String>,
        message: impl Into<String>,
        hint: Option<String>,
    ) -> Self {
        Warning {
            kind: WarningKind::Other,
            position: position.into(),
            message: message.into(),
            hint,
            count: 1,
            positions: Vec::new(),
            shards: 0,
        }
    }

    /// What makes two warnings of one file one entry: their kind, and the message without
    /// its digits and its `[sentence …]` tag and the hint without its digits (two
    /// warnings of a kind that say different things, such as two columns left empty,
    /// stay two entries: neither is lost).
    fn group_key(&self) -> (WarningKind, String, Option<String>) {
        let message = match self.message.rfind(" [sentence ") {
            Some(i) if self.message.ends_with(']') => &self.message[..i],
            _ => &self.message,
        };
        let message = treeval_formats::error::without_digits(message);
        let hint = (self.hint.as_deref()).map(treeval_formats::error::without_digits);
        (self.kind, message, hint)
    }

    /// Whether `other` counts in this entry: of its kind and saying the same, numbers
    /// aside, in the same file; or word for word in another file (a CR LF gold and
    /// system file with as many lines; the same file read as gold and as system), so that
    /// no file's numbers are lost.
    fn takes(&self, key: &(WarningKind, String, Option<String>), other: &Warning) -> bool {
        let same_file = path_of(&self.position) == path_of(&other.position);
        *key == other.group_key()
            && (same_file || (self.message == other.message && self.hint == other.hint))
    }

    /// Whether `other` is a warning this entry holds already, word for word and at the
    /// same position (a file read twice, as gold and as system): it is not counted again.
    fn repeats(&self, other: &Warning) -> bool {
        other.count == 1
            && other.message == self.message
            && other.hint == self.hint
            && (other.position == self.position || self.positions.contains(&other.position))
    }

    /// Whether it is about a whole file (its position a path, without a line).
    pub fn is_about_a_file(&self) -> bool {
        path_of(&self.position) == self.position
    }

    /// Add a later shard's warning to `into` (merged shards' warnings): a warning about a
    /// whole file that says word for word what an entry of an earlier shard says is that
    /// entry, given by one more shard (one run over the whole file gives it once); any
    /// other is added (`dedupe`: unless `into` holds it already, word for word).
    pub fn add_shard(into: &mut Vec<Warning>, w: Warning, dedupe: bool) {
        let same = |e: &Warning| {
            e.kind == w.kind && e.message == w.message && e.hint == w.hint && e.is_about_a_file()
        };
        if w.is_about_a_file() {
            if let Some(e) = into.iter_mut().find(|e| same(e)) {
                e.shards = e.shards.max(1) + w.shards.max(1);
                return;
            }
        }
        if !(dedupe && into.contains(&w)) {
            into.push(w);
        }
    }

    /// Count `other` (of this kind) in this entry.
    fn absorb(&mut self, other: Warning) {
        if self.positions.is_empty() {
            self.positions.push(self.position.clone());
        }
        let theirs = if other.positions.is_empty() {
            vec![other.position]
        } else {
            other.positions
        };
        for p in theirs {
            if self.positions.len() < GROUP_POSITIONS && !self.positions.contains(&p) {
                self.positions.push(p);
            }
        }
        self.count += other.count;
    }
}

/// The path of a position `path:line:column` or `path:line` (or of a bare path).
fn path_of(position: &str) -> &str {
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut rest = position;
    for _ in 0..2 {
        match rest.rsplit_once(':') {
            Some((head, n)) if numeric(n) && !head.is_empty() => rest = head,
            _ => break,
        }
    }
    rest
}

/// `warnings` with the entries of one kind that say the same merged into the first of
/// them (counts summed, the first few distinct positions kept), in the order each first
/// appears: in one file numbers aside, across files word for word
/// (`Warning::takes`).
pub fn group_warnings(warnings: Vec<Warning>) -> Vec<Warning> {
    let mut out: Vec<(Warning, _)> = Vec::with_capacity(warnings.len());
    for w in warnings {
        match out.iter_mut().find(|(e, key)| e.takes(key, &w)) {
            Some((e, _)) if e.repeats(&w) => {}
            Some((e, _)) => e.absorb(w),
            None => {
                let key = w.group_key();
                out.push((w, key));
            }
        }
    }
    out.into_iter().map(|(w, _)| w).collect()
}

/// The warnings of `d`, one entry per kind with its full count.
pub fn warnings_of(d: &treeval_formats::error::Diagnostics) -> Vec<Warning> {
    d.warning_groups().iter().map(Warning::from).collect()
}

/// The warnings `d` counted that no entry of [`warnings_of`] holds: those merged shards
/// counted without keeping them (states written before warnings had counts).
pub fn unlisted_warnings(d: &treeval_formats::error::Diagnostics) -> u64 {
    let listed: u64 = d.warning_groups().iter().map(|g| g.count).sum();
    d.warning_count().saturating_sub(listed)
}

/// `path:line:column: message`, the hint on its own line, and for a kind seen more than
/// once a line with the count and the first positions: by `line:column` when they are
/// all in the first's file, else each with its file.
impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.position.is_empty() {
            write!(f, "{}", self.message)?;
        } else {
            write!(f, "{}: {}", self.position, self.message)?;
        }
        if self.shards > 1 {
            write!(f, " (in {} shards)", self.shards)?;
        }
        if let Some(h) = &self.hint {
            write!(f, "\n  hint: {h}")?;
        }
        if self.count > 1 {
            write!(f, "\n  {} warnings of this kind", self.count)?;
            let mut distinct: Vec<&str> = Vec::with_capacity(self.positions.len());
            for p in &self.positions {
                if !distinct.contains(&p.as_str()) {
                    distinct.push(p);
                }
            }
            if distinct.len() > 1 {
                let path = path_of(&self.position);
                let one_file = distinct.iter().all(|p| path_of(p) == path);
                let short: Vec<&str> = distinct
                    .iter()
                    .map(|p| match one_file {
                        true => (p.strip_prefix(path))
                            .and_then(|r| r.strip_prefix(':'))
                            .unwrap_or(p),
                        false => p,
                    })
                    .collect();
                let more = if (distinct.len() as u64) < self.count {
                    ", …"
                } else {
                    ""
                };
                write!(f, " (at {}{more})", short.join(", "))?;
            }
        }
        Ok(())
    }
}

impl From<&Diagnostic> for Warning {
    fn from(d: &Diagnostic) -> Self {
        let mut message = d.kind.to_string();
        if let Some(n) = d.position.sentence {
            match &d.position.sent_id {
                Some(id) => message.push_str(&format!(" [sentence {n}, sent_id {id}]")),
                None => message.push_str(&format!(" [sentence {n}]")),
            }
        }
        let mut w = Warning::of(
            d.warning_kind(),
            d.position.to_string(),
            message,
            d.hint.clone(),
        );
        w.count += d.more;
        w
    }
}

impl From<&treeval_formats::error::WarningGroup<'_>> for Warning {
    fn from(g: &treeval_formats::error::WarningGroup<'_>) -> Self {
        let mut w = Warning::from(g.first);
        w.count = g.count;
        if g.count > 1 {
            for p in g.positions.iter().map(|p| p.to_string()) {
                if !w.positions.contains(&p) {
                    w.positions.push(p);
                }
            }
        }
        w
    }
}

/// How tests and intervals were run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SignificanceSettings {
    /// Tests run.
    pub tests: Vec<treeval_stats::compare::TestKind>,
    /// Metrics tested.
    pub metrics: Vec<String>,
    /// `two-sided` or `greater` (Bikel's one-sided variant).
    pub alternative: treeval_stats::Alternative,
    /// Shuffles of approximate randomization.
    pub ar_samples: usize,
    /// Samples of the paired bootstrap.
    pub bootstrap_samples: usize,
    /// Significance level, applied to Holm–Bonferroni adjusted p-values.
    pub alpha: f64,
    /// Confidence level of the intervals, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci_level: Option<f64>,
    /// Bootstrap samples of the intervals.
    pub ci_samples: usize,
    /// The seed of every resampling.
    pub seed: u64,
}

/// A confidence level (a fraction, 0.995) as the percentage it was given as, with every
/// digit it has and no float noise: `99.5`, `95.55`, `95` (legends, signatures and
/// messages print it so; never rounded to a whole percent).
pub fn level_percent(level: f64) -> String {
    let s = format!("{:.6}", level * 100.0);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_print_as_given() {
        for (level, shown) in [
            (0.95, "95"),
            (0.995, "99.5"),
            (0.9555, "95.55"),
            (0.5, "50"),
        ] {
            assert_eq!(level_percent(level), shown);
        }
        assert_eq!(level_percent(0.999_999), "99.9999");
    }

    /// Merged shards: a warning about a whole file that each shard gives word for word is
    /// one entry "in N shards", counted once (one run over the whole file gives it once);
    /// a warning at a line, or one that says something else, is added as it is.
    #[test]
    fn a_file_warning_every_shard_gives_is_listed_once_with_the_shard_count() {
        let file = |p: &str| Warning::new(p, "the file has no lemmas", None);
        let mut into = vec![file("s.0.conllu")];
        for k in 1..8 {
            Warning::add_shard(&mut into, file(&format!("s.{k}.conllu")), false);
        }
        assert_eq!(into.len(), 1);
        assert_eq!((into[0].count, into[0].shards), (1, 8));
        assert_eq!(
            into[0].to_string(),
            "s.0.conllu: the file has no lemmas (in 8 shards)"
        );
        // at a line: another occurrence, added
        let at = |p: &str| Warning::new(p, "the file has no lemmas", None);
        Warning::add_shard(&mut into, at("s.1.conllu:3:1"), false);
        // another message about the file: added
        Warning::add_shard(&mut into, Warning::new("s.1.conllu", "other", None), false);
        assert_eq!(into.len(), 3);
        // a merged state merged again adds its shards
        let mut twice = vec![into[0].clone()];
        Warning::add_shard(&mut twice, into[0].clone(), false);
        assert_eq!(twice[0].shards, 16);
    }

    fn crlf(path: &str, lines: u64) -> Warning {
        let d = treeval_formats::Diagnostic::warning(
            treeval_formats::Position::new(std::sync::Arc::from(path), 1, 1),
            treeval_formats::ErrorKind::CarriageReturn { lines },
        );
        Warning::from(&d)
    }

    /// Gold and system in CR LF with as many lines: one entry of kind
    /// `crlf_line_endings` whose positions name their files; the same file read twice (as
    /// gold and as system) is one warning; files with other numbers keep their entries.
    #[test]
    fn a_kind_spanning_files_names_each_file_and_repeats_no_position() {
        let g = group_warnings(vec![crlf("gold.conllu", 104), crlf("sys.conllu", 104)]);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].kind, WarningKind::CrlfLineEndings);
        assert_eq!(g[0].count, 2);
        let text = g[0].to_string();
        assert!(
            text.ends_with("2 warnings of this kind (at gold.conllu:1:1, sys.conllu:1:1)"),
            "{text}"
        );
        let two = group_warnings(vec![crlf("gold.conllu", 104), crlf("sys.conllu", 90)]);
        assert_eq!(two.len(), 2);
        let same = group_warnings(vec![crlf("x.conllu", 5), crlf("x.conllu", 5)]);
        assert_eq!((same.len(), same[0].count), (1, 1));
        assert!(same[0].positions.is_empty());
        let text = same[0].to_string();
        assert!(!text.contains("warnings of this kind"), "{text}");
        // in one file the positions are short
        let mut a = Warning::of(WarningKind::NoLinks, "h.txt:3", "m", None);
        a.absorb(Warning::of(WarningKind::NoLinks, "h.txt:9", "m", None));
        assert!(a.to_string().ends_with("(at 3, 9)"), "{a}");
    }

    /// An entry is a kind and what it says (numbers aside): two kinds never share an
    /// entry, and warnings of one kind that say different things keep theirs.
    #[test]
    fn warnings_group_by_kind_and_what_they_say() {
        let w = |kind, m: &str| Warning::of(kind, "a.conllu", m, None);
        let g = group_warnings(vec![
            w(WarningKind::OverMaxCost, "found 12"),
            w(WarningKind::OverMaxCost, "found 40"),
            w(WarningKind::SentenceTooLong, "found 40"),
            w(WarningKind::UnseenLabels, "never in gold: 'obj'"),
            w(WarningKind::UnseenLabels, "never in gold: 'pobj'"),
        ]);
        let counts: Vec<(WarningKind, u64)> = g.iter().map(|w| (w.kind, w.count)).collect();
        assert_eq!(
            counts,
            [
                (WarningKind::OverMaxCost, 2),
                (WarningKind::SentenceTooLong, 1),
                (WarningKind::UnseenLabels, 1),
                (WarningKind::UnseenLabels, 1)
            ]
        );
    }

    /// JSON writes the kind by name; an entry without one (a state or report written
    /// before warnings had kinds) or with a name this version does not know reads as
    /// `other`.
    #[test]
    fn kinds_are_snake_case_names_and_old_entries_read_as_other() {
        let v = serde_json::to_value(crlf("g.conllu", 2)).unwrap();
        assert_eq!(v["kind"], "crlf_line_endings");
        let old: Warning =
            serde_json::from_str(r#"{"position": "g.conllu", "message": "m", "count": 3}"#)
                .unwrap();
        assert_eq!((old.kind, old.count), (WarningKind::Other, 3));
        let newer: Warning =
            serde_json::from_str(r#"{"kind": "from_the_future", "position": "", "message": "m"}"#)
                .unwrap();
        assert_eq!(newer.kind, WarningKind::Other);
        for k in WarningKind::ALL {
            let name = serde_json::to_value(k).unwrap();
            assert_eq!(name, k.name(), "{k:?}");
            let back: WarningKind = serde_json::from_value(name).unwrap();
            assert_eq!(back, k);
        }
    }
}
