//! How systems are named in every report: the names given (`--name`, one per system), or
//! else the shortest ends of their paths that tell them apart (`parser-a/…/pred`). The
//! inputs keep their full paths (the JSON's `inputs`, the text's input lines).

/// The roles of inputs, the same words in every command's report (JSON `inputs[].role`),
/// per-sentence header and text: a gold standard and the systems scored against it.
pub mod role {
    /// The gold standard.
    pub const GOLD: &str = "gold";
    /// A system's output (a parse, an alignment, an n-best list).
    pub const SYSTEM: &str = "system";
    /// pts: the gold parse of side a.
    pub const GOLD_A: &str = "gold a";
    /// pts: the gold parse of side b.
    pub const GOLD_B: &str = "gold b";
    /// pts: the gold alignment of sides a and b.
    pub const GOLD_ALIGNMENT: &str = "gold alignment";
    /// pts: a system's parse of side a.
    pub const SYSTEM_A: &str = "system a";
    /// pts: a system's parse of side b.
    pub const SYSTEM_B: &str = "system b";
    /// pts: a system's alignment.
    pub const SYSTEM_ALIGNMENT: &str = "system alignment";
    /// align: the sentences' tokens (source and target).
    pub const TOKENS: &str = "tokens";
    /// align: a system's subword pieces.
    pub const SYSTEM_SUBWORDS: &str = "system subwords";
    /// brackets: the careful evaluation's judgments.
    pub const JUDGMENTS: &str = "judgments";
    /// A parameter file (EVALB's `.prm`).
    pub const PARAMETERS: &str = "parameters";
    /// ted: label equivalences.
    pub const LABEL_EQUIVALENCES: &str = "label equivalences";
    /// ted `--distance`: tree pairs.
    pub const TREE_PAIRS: &str = "tree pairs";
}

/// The display names of systems whose inputs are `paths`: `given` when there are any (one
/// per system: the caller checks the count with [`check_given`]), else [`short`].
pub fn of(paths: &[&str], given: &[String]) -> Vec<String> {
    if given.is_empty() {
        short(paths)
    } else {
        given.to_vec()
    }
}

/// The display names of systems each read from several files (pts: a side a parse, a
/// side b parse and an alignment; `columns[c][k]` is system `k`'s file `c`): `given` when
/// there are any, else the [`short`] names of the files that differ between systems,
/// joined by ` + ` (of every file when there is one system; a name said once).
pub fn of_columns(columns: &[Vec<&str>], given: &[String]) -> Vec<String> {
    if !given.is_empty() {
        return given.to_vec();
    }
    let shorts: Vec<Vec<String>> = columns.iter().map(|c| short(c)).collect();
    let n = columns.first().map_or(0, Vec::len);
    // a column varies when its files differ between systems
    let varies: Vec<bool> = (columns.iter())
        .map(|c| c.iter().any(|x| *x != c[0]))
        .collect();
    let any = varies.contains(&true);
    let shown: Vec<&Vec<String>> = (shorts.iter().zip(&varies))
        .filter(|(_, &v)| v || !any)
        .map(|(c, _)| c)
        .collect();
    (0..n)
        .map(|k| {
            let mut parts: Vec<&str> = Vec::new();
            for c in &shown {
                if !parts.contains(&c[k].as_str()) {
                    parts.push(&c[k]);
                }
            }
            parts.join(" + ")
        })
        .collect()
}

/// A usage problem with the names given for `systems` systems (`what`: "system", "system
/// triple", …): not one per system, an empty one, or one given twice.
pub fn check_given(given: &[String], systems: usize, what: &str) -> Result<(), String> {
    if given.is_empty() {
        return Ok(());
    }
    if given.len() != systems {
        return Err(format!(
            "--name: expected one name per {what} ({systems}, in the order the {what}s are given), found {}",
            given.len()
        ));
    }
    if let Some(i) = given.iter().position(|n| n.trim().is_empty()) {
        return Err(format!("--name: name {} is empty", i + 1));
    }
    for (i, n) in given.iter().enumerate() {
        if let Some(j) = given[..i].iter().position(|m| m == n) {
            return Err(format!(
                "--name: '{n}' names {what}s {} and {}; each {what} needs a name of its own",
                j + 1,
                i + 1
            ));
        }
    }
    Ok(())
}

/// The shortest ends of `paths` that tell them apart, read by path component (`/` or `\`):
/// - a name is as many trailing components as make it differ from every other path's
///   (one, the file name, when that suffices), and a long one keeps its first and last
///   component with `…` between (`parser-a/epoch-20/pred` → `parser-a/…/pred`) when that
///   still tells it apart;
/// - an extension every path has (`.conllu`, `.conllu.gz`: the last one, with a
///   compression's) is left out;
/// - a path given more than once (two systems read from one file) is numbered (`sys #1`,
///   `sys #2`), and an in-memory input's name (`<input 2>`) or `-` stays as it is.
pub fn short(paths: &[&str]) -> Vec<String> {
    let ext = common_extension(paths);
    let parts: Vec<Vec<&str>> = paths
        .iter()
        .map(|p| {
            let p = p.strip_suffix(ext.as_str()).unwrap_or(p);
            p.split(['/', '\\']).filter(|c| !c.is_empty()).collect()
        })
        .collect();
    // a path given again is told apart by its number, not by its components
    let first = |i: usize| (0..i).all(|j| paths[j] != paths[i]);
    let distinct: Vec<usize> = (0..paths.len()).filter(|&i| first(i)).collect();
    let mut names: Vec<String> = (0..paths.len())
        .map(|i| {
            if is_memory(paths[i]) || parts[i].is_empty() {
                return paths[i].to_string();
            }
            let k = (1..=parts[i].len())
                .find(|&k| unique_suffix(&parts, &distinct, i, k))
                .unwrap_or(parts[i].len());
            parts[i][parts[i].len() - k..].join("/")
        })
        .collect();
    elide(&mut names);
    for i in 0..paths.len() {
        let same: Vec<usize> = (0..paths.len()).filter(|&j| paths[j] == paths[i]).collect();
        if same.len() > 1 && !is_memory(paths[i]) {
            let n = same.iter().position(|&j| j == i).unwrap_or(0) + 1;
            names[i] = format!("{} #{n}", names[i]);
        }
    }
    names
}

/// Whether the last `k` components of path `i` are not the last `k` of any other path of
/// `distinct` (the first of each path given more than once).
fn unique_suffix(parts: &[Vec<&str>], distinct: &[usize], i: usize, k: usize) -> bool {
    let mine = &parts[i][parts[i].len() - k..];
    distinct.iter().all(|&j| {
        let p = &parts[j];
        parts[j] == parts[i] || p.len() < k || &p[p.len() - k..] != mine
    })
}

/// Names of three or more components as `first/…/last`, where that leaves them distinct.
fn elide(names: &mut [String]) {
    let short: Vec<String> = names
        .iter()
        .map(|n| {
            let c: Vec<&str> = n.split('/').collect();
            if c.len() >= 3 && !n.starts_with('<') {
                format!("{}/…/{}", c[0], c[c.len() - 1])
            } else {
                n.clone()
            }
        })
        .collect();
    let distinct = short
        .iter()
        .enumerate()
        .all(|(i, a)| short[..i].iter().all(|b| b != a));
    if distinct {
        names.clone_from_slice(&short);
    }
}

/// An in-memory input's name (`<input 2>`) or standard input.
fn is_memory(p: &str) -> bool {
    p == "-" || (p.starts_with('<') && p.ends_with('>'))
}

/// The extension (`.conllu`, `.conllu.gz`) every path's file name ends with, or "".
fn common_extension(paths: &[&str]) -> String {
    let ext = |p: &str| -> String {
        let file = p.rsplit(['/', '\\']).next().unwrap_or(p);
        // the last extension, with the one before a compression's (`.conllu.gz`); a
        // leading dot (`.hidden`) is not one
        let last = |f: &str| f.rfind('.').filter(|&i| i > 0).map_or(f.len(), |i| i);
        let mut i = last(file);
        if [".gz", ".zst", ".xz", ".bz2"].contains(&&file[i..]) {
            i = last(&file[..i]);
        }
        file[i..].to_string()
    };
    let Some(first) = paths.first() else {
        return String::new();
    };
    let e = ext(first);
    let all = paths.iter().all(|p| !is_memory(p) && ext(p) == e);
    if all {
        e
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(paths: &[&str]) -> Vec<String> {
        short(paths)
    }

    #[test]
    fn names_are_the_shortest_distinguishing_ends() {
        assert_eq!(
            s(&["examples/sys.conllu", "examples/sys2.conllu"]),
            ["sys", "sys2"]
        );
        assert_eq!(
            s(&[
                "runs/parser-a/epoch-20/pred.conllu",
                "runs/parser-b/epoch-20/pred.conllu"
            ]),
            ["parser-a/…/pred", "parser-b/…/pred"]
        );
        assert_eq!(
            s(&["a/x/pred.conllu", "a/y/pred.conllu"]),
            ["x/pred", "y/pred"]
        );
        // one system: its file name
        assert_eq!(s(&["/tmp/long folder/run 1/pred.conllu"]), ["pred"]);
        // extensions that differ are kept
        assert_eq!(
            s(&["a/pred.conllu", "b/pred.conllx"]),
            ["pred.conllu", "pred.conllx"]
        );
        assert_eq!(s(&["a/p.conllu.gz", "b/q.conllu.gz"]), ["p", "q"]);
        assert_eq!(
            s(&["p/parser.en.conllu", "p/gold.en.conllu"]),
            ["parser.en", "gold.en"]
        );
        assert_eq!(s(&["x/.hidden", "y/.hidden"]), ["x/.hidden", "y/.hidden"]);
    }

    #[test]
    fn odd_paths_keep_what_tells_them_apart() {
        // one file given twice: numbered
        assert_eq!(s(&["a/s.conllu", "a/s.conllu"]), ["s #1", "s #2"]);
        assert_eq!(
            s(&["a/s.conllu", "b/s.conllu", "a/s.conllu"]),
            ["a/s #1", "b/s", "a/s #2"]
        );
        // in memory and standard input stay as they are
        assert_eq!(s(&["<input 2>", "<input 3>"]), ["<input 2>", "<input 3>"]);
        assert_eq!(s(&["-", "b/s.conllu"]), ["-", "s.conllu"]);
        // a path that is the end of another
        assert_eq!(s(&["pred.conllu", "x/pred.conllu"]), ["pred", "x/pred"]);
        assert_eq!(s(&["a/b/c/p.txt", "a/d/c/p.txt"]), ["b/…/p", "d/…/p"]);
        // eliding would make two names equal: kept whole
        assert_eq!(
            s(&["x/a/p", "y/a/p", "x/b/p", "y/b/p"]),
            ["x/a/p", "y/a/p", "x/b/p", "y/b/p"]
        );
        assert_eq!(
            s(&["C:\\runs\\a\\pred.txt", "C:\\runs\\b\\pred.txt"]),
            ["a/pred", "b/pred"]
        );
        assert_eq!(s(&[]), Vec::<String>::new());
    }

    #[test]
    fn systems_of_several_files_are_named_by_the_files_that_differ() {
        let cols = vec![
            vec!["p/parser.en.conllu", "p/gold.en.conllu"],
            vec!["p/parser.de.conllu", "p/parser.de.conllu"],
            vec!["p/aligner.en-de.pharaoh", "p/gold.en-de.naacl"],
        ];
        assert_eq!(
            of_columns(&cols, &[]),
            [
                "parser.en + aligner.en-de.pharaoh",
                "gold.en + gold.en-de.naacl"
            ]
        );
        let one = vec![vec!["p/a.conllu"], vec!["p/b.conllu"], vec!["p/x.naacl"]];
        assert_eq!(of_columns(&one, &[]), ["a + b + x"]);
        let same = vec![
            vec!["p1.conllu", "p2.conllu"],
            vec!["p1.conllu", "p2.conllu"],
        ];
        assert_eq!(of_columns(&same, &[]), ["p1", "p2"]);
    }

    #[test]
    fn given_names_are_checked() {
        let n = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert!(check_given(&[], 3, "system").is_ok());
        assert!(check_given(&n(&["A", "B"]), 2, "system").is_ok());
        let e = check_given(&n(&["A"]), 2, "system").unwrap_err();
        assert!(
            e.contains("one name per system (2") && e.contains("found 1"),
            "{e}"
        );
        let e = check_given(&n(&["A", "A"]), 2, "system").unwrap_err();
        assert!(e.contains("'A' names systems 1 and 2"), "{e}");
        assert!(check_given(&n(&["A", " "]), 2, "system")
            .unwrap_err()
            .contains("empty"));
        assert_eq!(of(&["a/s.conllu"], &n(&["A"])), ["A"]);
        assert_eq!(of(&["a/s.conllu"], &[]), ["s"]);
    }
}
