//! The tree edit distance of tree pairs in APTED's bracket notation (`--distance`).

use std::collections::HashMap;

use treeval_metrics::ted::{
    parse_apted, try_distance, try_distance_with_script, FreeRelabel, TooCostly, Tree, UnitCost,
    DEFAULT_MAX_COST,
};
use treeval_report::records::{Counts, Record};

use super::{Inputs, Options};
use crate::records::Records;
use crate::{Common, Error, Result};

/// One distance (and its edit script with `script`), or why there is none.
type Measured = std::result::Result<(u32, Option<Vec<treeval_metrics::ted::Edit>>), TooCostly>;

/// The distance of every tree pair of `inputs.distance` (two trees in APTED's bracket
/// notation, `{a{b}{c}}`, separated by a tab on each line): one line per pair, the
/// distance, and with `options.script` a tab and the edit script as JSON. Relabelling
/// costs nothing with `options.unlabeled`; `options.max_cost` limits each distance's
/// work. A malformed line or a pair over the limit is an error (every one of them is
/// listed). The per-sentence records of `common` get one record per pair.
pub fn distances(options: &Options, inputs: &Inputs, common: &Common) -> Result<String> {
    let Some(input) = &inputs.distance else {
        return Err(Error::Usage("give the tree pairs (--distance FILE)".into()));
    };
    common.refuse_where("ted")?;
    crate::select::refuse(common, "--sent-id, --min-len and --max-len select sentences of a TedEval run; --distance measures every tree pair it is given")?;
    if common.errors || common.state {
        return Err(Error::Usage("--errors and --emit-state are for a TedEval run; --distance prints one distance per tree pair (and --script its edit script)".into()));
    }
    let path = input.name();
    let text = crate::input::read_text(input, "tree pairs ({a{b}{c}} TAB {a{b}})")?;
    let mut sink = Records::open(common.per_sentence.as_ref(), "ted", &inputs.roles());
    let mut labels: HashMap<String, u32> = HashMap::new();
    let mut problems = Vec::new();
    let mut out = String::new();
    let limit = options.max_cost.unwrap_or(DEFAULT_MAX_COST);
    let mut pair = 0;
    for (k, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        pair += 1;
        let r = match measure(line, options, &mut labels) {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("{path}:{}:1: {e}", k + 1));
                continue;
            }
        };
        if let (Ok((d, script)), true) = (&r, sink.is_on()) {
            let counts = Counts::named(&[("distance", f64::from(*d))]);
            let mut v = Record::new(pair, 0, counts).extra("line", k + 1);
            if let Some(script) = script {
                v = v.extra("script", script);
            }
            sink.write(&v);
        }
        match r {
            Ok((d, Some(script))) => {
                let s = serde_json::to_string(&script).unwrap_or_default();
                out.push_str(&format!("{d}\t{s}\n"));
            }
            Ok((d, None)) => out.push_str(&format!("{d}\n")),
            Err(e) => problems.push(format!(
                "{path}:{}:1: expected an edit distance of at most {limit} table cells (--max-cost), found {e}\n  hint: --max-cost {} computes it (about 9 bytes of memory a cell)",
                k + 1,
                e.enough()
            )),
        }
    }
    if !problems.is_empty() {
        return Err(Error::Eval(crate::error::capped(problems)));
    }
    sink.finish()?;
    Ok(out)
}

/// One line's pair measured (an error message for a line that is not two trees).
fn measure(
    line: &str,
    options: &Options,
    labels: &mut HashMap<String, u32>,
) -> std::result::Result<Measured, String> {
    let mut intern = |x: &str| {
        let n = labels.len() as u32;
        *labels.entry(x.to_owned()).or_insert(n)
    };
    let Some((x, y)) = line.split_once('\t') else {
        return Err("expected two trees separated by a tab, found one".into());
    };
    let (ta, tb) = match (parse_apted(x, &mut intern), parse_apted(y, &mut intern)) {
        (Ok(ta), Ok(tb)) => (Tree::from_node(&ta), Tree::from_node(&tb)),
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    let limit = options.max_cost.unwrap_or(DEFAULT_MAX_COST);
    Ok(match (options.script, options.unlabeled) {
        (true, true) => {
            try_distance_with_script(&ta, &tb, &FreeRelabel, limit).map(|(d, s)| (d, Some(s)))
        }
        (true, false) => {
            try_distance_with_script(&ta, &tb, &UnitCost, limit).map(|(d, s)| (d, Some(s)))
        }
        (false, true) => try_distance(&ta, &tb, &FreeRelabel, limit).map(|d| (d, None)),
        (false, false) => try_distance(&ta, &tb, &UnitCost, limit).map(|d| (d, None)),
    })
}
