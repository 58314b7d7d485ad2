//! Who a state's inputs are (`inputs` of `treeval.state/3`): every shard's gold and
//! system files by path and digest, so that `merge` lines the shards' systems up by
//! identity and puts the shards in one order whatever the order given.
//!
//! The shards of one corpus are different files, so a system's identity across shards is
//! its path with the shard's own part left out: the part in which the shards' gold paths
//! differ (their *tag*: `3` of `gold.3.conllu`, `aa` of `xaa`). Two shards' systems at
//! one position are the same system when their paths are equal after turning one shard's
//! tag into the other's (at places where the tag stands as a whole number or word:
//! `sys.3.conllu` and `shard3/sys.conllu`, not `sys13.conllu`).

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use super::{MergeError, State};

/// One input file: its path as given and a digest of its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileId {
    /// The path as given (an in-memory input's name).
    pub path: String,
    /// `crc32:XXXXXXXX:BYTES`: the CRC-32 (as gzip and zlib compute it) of the text read,
    /// after decompression, and its length in bytes; absent for standard input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

/// The inputs of one shard: the gold files (one; `pts`: side a, side b, alignment; `ted`:
/// `--gold`, if given) and each system's files, in the order the report shows them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardInputs {
    /// The gold files.
    pub gold: Vec<FileId>,
    /// Per system, its files.
    pub systems: Vec<Vec<FileId>>,
}

impl ShardInputs {
    /// The path that tells the shards apart: the first gold file's (the first system
    /// file's when there is no gold, as in `ted --exp`).
    fn anchor(&self) -> &str {
        (self.gold.first())
            .or_else(|| self.systems.first().and_then(|s| s.first()))
            .map_or("", |f| f.path.as_str())
    }

    fn anchor_digest(&self) -> &str {
        (self.gold.first())
            .and_then(|f| f.digest.as_deref())
            .unwrap_or("")
    }

    /// System `k`'s files' paths, for messages.
    fn system(&self, k: usize) -> String {
        (self.systems.get(k).into_iter().flatten())
            .map(|f| f.path.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The character class a tag must not run into: digits with digits, letters with letters.
fn class(c: char) -> u8 {
    if c.is_numeric() {
        1
    } else if c.is_alphabetic() {
        2
    } else {
        0
    }
}

/// Whether `c` continues a run of `d`'s class (a digit after a digit, a letter after a
/// letter).
fn joins(c: Option<char>, d: Option<char>) -> bool {
    matches!((c, d), (Some(c), Some(d)) if class(c) != 0 && class(c) == class(d))
}

/// The tag of each of `paths`: the part between their longest common prefix and suffix,
/// widened so that it never starts or ends inside a number or a word (`gold.10` and
/// `gold.11` have tags `10` and `11`, not `0` and `1`). All equal: every tag is empty.
pub(crate) fn tags(paths: &[&str]) -> Vec<String> {
    let chars: Vec<Vec<char>> = paths.iter().map(|p| p.chars().collect()).collect();
    match bounds(&chars) {
        None => vec![String::new(); paths.len()],
        Some((pre, suf)) => (chars.iter())
            .map(|c| c[pre..c.len() - suf].iter().collect())
            .collect(),
    }
}

/// The lengths of the common prefix and suffix of `chars` that [`tags`] leaves out;
/// `None` when they are all equal (or there are none).
fn bounds(chars: &[Vec<char>]) -> Option<(usize, usize)> {
    let first = chars.first()?;
    if chars.iter().all(|c| c == first) {
        return None;
    }
    let shortest = chars.iter().map(Vec::len).min().unwrap_or(0);
    let mut pre = (0..shortest)
        .take_while(|&i| chars.iter().all(|c| c[i] == first[i]))
        .count();
    while pre > 0
        && chars
            .iter()
            .any(|c| joins(c.get(pre).copied(), Some(c[pre - 1])))
    {
        pre -= 1;
    }
    let mut suf = (0..shortest - pre)
        .take_while(|&i| {
            let at = |c: &Vec<char>| c[c.len() - 1 - i];
            chars.iter().all(|c| at(c) == at(first))
        })
        .count();
    while suf > 0
        && chars.iter().any(|c| {
            let end = c.len() - suf;
            end > 0 && joins(Some(c[end - 1]), Some(c[end]))
        })
    {
        suf -= 1;
    }
    Some((pre, suf))
}

/// The length of `tag` standing whole at `at` in `s` (not inside a longer number or
/// word), if it does; a number stands as any number of equal value (`3` as `03`: a gold
/// `gold.3` and a system `sys.03` are of one shard).
fn stands_at(s: &[char], at: usize, tag: &[char]) -> Option<usize> {
    let before = at.checked_sub(1).map(|i| s[i]);
    if !tag.is_empty() && tag.iter().all(char::is_ascii_digit) {
        let run = s[at.min(s.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let value = |d: &[char]| -> String {
            let t: String = d.iter().collect();
            t.trim_start_matches('0').to_owned()
        };
        let whole = run > 0 && !before.is_some_and(|c| c.is_ascii_digit());
        return (whole && value(&s[at..at + run]) == value(tag)).then_some(run);
    }
    if tag.is_empty() || s.len() < at + tag.len() || s[at..at + tag.len()] != *tag {
        return None;
    }
    let after = s.get(at + tag.len()).copied();
    let whole = !joins(before, tag.first().copied()) && !joins(after, tag.last().copied());
    whole.then_some(tag.len())
}

/// Whether path `p` of a shard tagged `tp` and path `q` of a shard tagged `tq` name the
/// same file of their shards: equal, some of `p`'s whole `tp` standing where `q` has a
/// whole `tq`.
pub(crate) fn same_file(p: &str, tp: &str, q: &str, tq: &str) -> bool {
    let (p, q): (Vec<char>, Vec<char>) = (p.chars().collect(), q.chars().collect());
    let (tp, tq): (Vec<char>, Vec<char>) = (tp.chars().collect(), tq.chars().collect());
    // the positions (i in p, j in q) reachable from the start, row by row
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = vec![(0usize, 0usize)];
    while let Some((i, j)) = todo.pop() {
        if !seen.insert((i, j)) {
            continue;
        }
        if i == p.len() && j == q.len() {
            return true;
        }
        if i < p.len() && j < q.len() && p[i] == q[j] {
            todo.push((i + 1, j + 1));
        }
        if let (Some(a), Some(b)) = (stands_at(&p, i, &tp), stands_at(&q, j, &tq)) {
            todo.push((i + a, j + b));
        }
    }
    false
}

/// The key that orders numbers by value: `part-2` before `part-10`.
fn natural(a: &str, b: &str) -> Ordering {
    let runs = |s: &str| -> Vec<(bool, String)> {
        let mut out: Vec<(bool, String)> = Vec::new();
        for c in s.chars() {
            let digit = c.is_ascii_digit();
            match out.last_mut() {
                Some((d, run)) if *d == digit => run.push(c),
                _ => out.push((digit, c.to_string())),
            }
        }
        out
    };
    let (x, y) = (runs(a), runs(b));
    for ((dx, rx), (dy, ry)) in x.iter().zip(&y) {
        let o = match (dx, dy) {
            (true, true) => {
                let (tx, ty) = (rx.trim_start_matches('0'), ry.trim_start_matches('0'));
                tx.len().cmp(&ty.len()).then_with(|| tx.cmp(ty))
            }
            _ => rx.cmp(ry),
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    x.len().cmp(&y.len()).then_with(|| a.cmp(b))
}

/// The order in which `states` are merged, whatever the order given: by their first
/// shard's gold path in natural order (numbers by value: the order of `split`'s and most
/// tools' shard names, which is the shards' order in the corpus), then by that file's
/// digest, then by the state's JSON, so that any order of the same states gives the same
/// sum, and the same bytes.
pub fn order(states: &[State]) -> Vec<usize> {
    let first = |s: &State| s.inputs.first().cloned().unwrap_or_default();
    let json = |s: &State| serde_json::to_string(s).unwrap_or_default();
    let mut idx: Vec<usize> = (0..states.len()).collect();
    idx.sort_by(|&a, &b| {
        let (x, y) = (first(&states[a]), first(&states[b]));
        natural(x.anchor(), y.anchor())
            .then_with(|| x.anchor_digest().cmp(y.anchor_digest()))
            .then_with(|| json(&states[a]).cmp(&json(&states[b])))
    });
    idx
}

/// Check that the systems of `states` (named by `names`, their files) line up: at every
/// position, the same system in every shard (see the module documentation). States
/// whose systems were all named (`--name` in every shard) are lined up by those names
/// instead (checked by `check_names`); a state without inputs is refused.
pub fn check(states: &[State], names: &[String]) -> Result<(), MergeError> {
    if states.iter().all(|s| s.named) {
        return Ok(());
    }
    if let Some((_, name)) = (states.iter().zip(names)).find(|(s, _)| s.inputs.is_empty()) {
        return Err(format!(
            "{name}: the state names none of its inputs, so its systems cannot be lined up with the other shards'\n  hint: write the state with --emit-state of this version, or give the same --name to each system in every shard"
        ));
    }
    let shards: Vec<(&ShardInputs, &String)> = (states.iter().zip(names))
        .flat_map(|(s, n)| s.inputs.iter().map(move |i| (i, n)))
        .collect();
    let anchors: Vec<&str> = shards.iter().map(|(i, _)| i.anchor()).collect();
    let tags = tags(&anchors);
    let (first, first_name) = shards[0];
    let same = |a: usize, j: usize, b: usize, k: usize| {
        let (x, y) = (&shards[a].0.systems[j], &shards[b].0.systems[k]);
        x.len() == y.len()
            && (x.iter().zip(y)).all(|(f, g)| same_file(&f.path, &tags[a], &g.path, &tags[b]))
    };
    for (b, &(shard, name)) in shards.iter().enumerate().skip(1) {
        let n = first.systems.len().min(shard.systems.len());
        let Some(k) = (0..n).find(|&k| !same(0, k, b, k)) else {
            continue;
        };
        let (theirs, ours) = (shard.system(k), first.system(k));
        let moved = (0..first.systems.len()).find(|&j| j != k && same(0, j, b, k));
        let (why, hint) = match moved {
            Some(j) => (
                format!("the systems are in another order (its system {} is system {} there)", k + 1, j + 1),
                "evaluate every shard with its systems in the same order",
            ),
            None => (
                "their names do not say they are one system (its paths, with the shard's part of the gold's name left out, differ)".to_owned(),
                "name each system's shard files alike (differing only where the gold's do), or give the same --name to each system in every shard",
            ),
        };
        return Err(format!(
            "{name}: system {} is {theirs}, and in {first_name} it is {ours}: {why}; merged, one row would sum different systems\n  hint: {hint}",
            k + 1
        ));
    }
    Ok(())
}

/// The name of merged systems that were named `names` in the shards: the name itself when
/// every shard agrees, else what the names share around the part that differs
/// (`sysD10m.00` … `sysD10m.07`: `sysD10m.*`), else the names joined by ` + `.
pub fn shared_name(names: &[&str]) -> String {
    let mut distinct: Vec<&str> = Vec::new();
    for n in names {
        if !distinct.contains(n) {
            distinct.push(n);
        }
    }
    if distinct.len() <= 1 {
        return distinct.first().map_or(String::new(), |n| (*n).to_owned());
    }
    let chars: Vec<Vec<char>> = distinct.iter().map(|p| p.chars().collect()).collect();
    match bounds(&chars) {
        Some((pre, suf)) if pre + suf > 0 => {
            let n = &chars[0];
            let (a, b): (String, String) = (
                n[..pre].iter().collect(),
                n[n.len() - suf..].iter().collect(),
            );
            format!("{a}*{b}")
        }
        _ => distinct.join(" + "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_whole_numbers_and_words() {
        assert_eq!(tags(&["g.10.conllu", "g.11.conllu"]), ["10", "11"]);
        assert_eq!(
            tags(&["g0.conllu", "g1.conllu", "g2.conllu"]),
            ["0", "1", "2"]
        );
        assert_eq!(tags(&["x/xaa", "x/xab"]), ["xaa", "xab"]);
        assert_eq!(tags(&["s/3/g.conllu", "s/12/g.conllu"]), ["3", "12"]);
        assert_eq!(tags(&["g.conllu", "g.conllu"]), ["", ""]);
    }

    #[test]
    fn files_are_the_same_system_when_they_differ_by_the_shards_tags() {
        assert!(same_file("s0.conllu", "0", "s1.conllu", "1"));
        assert!(!same_file("h0.conllu", "0", "s1.conllu", "1"));
        assert!(same_file(
            "out/3/sys.conllu",
            "3",
            "out/12/sys.conllu",
            "12"
        ));
        // the tag inside a longer number is not the shard's
        assert!(!same_file("sys13.conllu", "3", "sys14.conllu", "4"));
        // a number that happens to equal a tag stays as it is where it is not the tag
        assert!(same_file("m1.0.conllu", "0", "m1.1.conllu", "1"));
        assert!(same_file("a.conllu", "", "a.conllu", ""));
        // a shard's number written with leading zeros in the system's name
        assert!(same_file("sys.00.conllu", "0", "sys.07.conllu", "7"));
        assert!(!same_file("sys.00.conllu", "0", "sys.17.conllu", "7"));
        assert!(!same_file("a.conllu", "", "b.conllu", ""));
    }

    #[test]
    fn natural_order_compares_numbers_by_value() {
        let mut v = vec!["p-10", "p-2", "p-1", "p-02"];
        v.sort_by(|a, b| natural(a, b));
        assert_eq!(v, ["p-1", "p-02", "p-2", "p-10"]);
    }

    #[test]
    fn shared_names_keep_what_the_shards_share() {
        let names: Vec<String> = (0..8).map(|k| format!("sysD10m.{k:02}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(shared_name(&names), "sysD10m.*");
        assert_eq!(shared_name(&["s0", "s1", "s2"]), "s*");
        assert_eq!(shared_name(&["parser", "parser"]), "parser");
        assert_eq!(shared_name(&["a", "b"]), "a + b");
    }
}
