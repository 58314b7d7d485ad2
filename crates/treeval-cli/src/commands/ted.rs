//! `treeval ted`: tree edit distance of tree pairs.

use std::collections::HashMap;
use std::io::{BufRead, Write};

use treeval_metrics::ted::{distance_with_script, parse_apted, FreeRelabel, Tree, UnitCost};

use crate::args::TedArgs;
use crate::Failure;

/// Run the command.
pub fn run(a: &TedArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let Some(path) = &a.distance else {
        return Err(Failure::Usage(
            "this version of treeval ted measures tree pairs: give --distance FILE (the TedEval evaluation of dependency files is not built yet)".into(),
        ));
    };
    let (input, _) =
        treeval_formats::input::open(path).map_err(|e| Failure::Eval(e.to_string()))?;
    let mut labels: HashMap<String, u32> = HashMap::new();
    let mut problems = Vec::new();
    let mut text = String::new();
    for (k, line) in input.lines().enumerate() {
        let line = line.map_err(|e| Failure::Eval(format!("{path}: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let mut intern = |x: &str| {
            let n = labels.len() as u32;
            *labels.entry(x.to_owned()).or_insert(n)
        };
        let Some((x, y)) = line.split_once('\t') else {
            problems.push(format!(
                "{path}:{}:1: expected two trees separated by a tab, found one",
                k + 1
            ));
            continue;
        };
        let (ta, tb) = match (parse_apted(x, &mut intern), parse_apted(y, &mut intern)) {
            (Ok(ta), Ok(tb)) => (Tree::from_node(&ta), Tree::from_node(&tb)),
            (Err(e), _) | (_, Err(e)) => {
                problems.push(format!("{path}:{}:1: {e}", k + 1));
                continue;
            }
        };
        let (d, script) = if a.unlabeled {
            distance_with_script(&ta, &tb, &FreeRelabel)
        } else {
            distance_with_script(&ta, &tb, &UnitCost)
        };
        if a.script {
            let s = serde_json::to_string(&script).unwrap_or_default();
            text.push_str(&format!("{d}\t{s}\n"));
        } else {
            text.push_str(&format!("{d}\n"));
        }
    }
    if !problems.is_empty() {
        return Err(Failure::Eval(problems.join("\n")));
    }
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}
