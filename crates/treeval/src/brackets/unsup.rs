//! `brackets --compat compare-trees`: what harvardnlp/compound-pcfg's `compare_trees.py`
//! prints, from files as it reads them (see
//! [`treeval_metrics::brackets::unsup::script`]).

use treeval_metrics::brackets::unsup::script::{self, py_lines, Side, Stop};
use treeval_metrics::brackets::unsup::ZeroDivision;
use treeval_report::model::Warning;
use treeval_report::{Report, Signature};

use super::Options;
use crate::{Common, Error, Evaluation, Inputs, Result};

/// `compare_trees.py`'s default `--length_cutoff`.
pub const SCRIPT_CUTOFF: usize = 150;

/// The line `compare_trees.py --tree1 GOLD --tree2 SYSTEM` prints, with a warning when
/// the files have different numbers of lines (the script scores up to the shorter one).
pub(super) fn compare_trees(
    options: &Options,
    inputs: &Inputs,
    common: &Common,
) -> Result<Evaluation> {
    let defaults = Options {
        compat: options.compat,
        test_metrics: options.test_metrics.clone(),
        ..Options::default()
    };
    if *options != defaults {
        return Err(Error::Usage(
            "--compat compare-trees takes no other brackets option (--prm, --layout, --by, --careful, ...): compare_trees.py has none; drop them".into(),
        ));
    }
    crate::select::refuse(common, "--sent-id, --min-len and --max-len are not options of compare_trees.py, so --compat compare-trees cannot print its output with them (its own cut-off: gold lines of more than 150 words are skipped)")?;
    if inputs.systems.len() != 1 {
        return Err(Error::Usage(format!(
            "--compat compare-trees compares one system file with the gold, as compare_trees.py --tree1 GOLD --tree2 SYSTEM does; {} were given",
            inputs.systems.len()
        )));
    }
    if !common.where_.is_empty() || common.state {
        return Err(Error::Usage(
            "--where and --emit-state do not apply with --compat compare-trees, which prints exactly what compare_trees.py prints; drop one of the two".into(),
        ));
    }
    let expected = "bracketed trees, one per line";
    let gold_text = crate::input::read_text(&inputs.gold, expected)?;
    let system_text = crate::input::read_text(&inputs.systems[0], expected)?;
    let (gold, system) = (inputs.gold.name(), inputs.systems[0].name());
    let sums = script::compare(&gold_text, &system_text, SCRIPT_CUTOFF)
        .map_err(|s| stopped(&s, gold, system))?;
    let line = sums.line().map_err(|z| {
        let why = match z {
            ZeroDivision::NoSystemSpan => "no system span in any scored sentence: corpus precision is 0/0",
            ZeroDivision::NoGoldSpan => "no gold span in any scored sentence: corpus recall is 0/0",
        };
        Error::Eval(format!(
            "{system}: {why}; compare_trees.py stops here (ZeroDivisionError) and prints nothing\n  hint: the script divides by the number of spans over the whole file; a flat or one-word tree has none"
        ))
    })?;
    let signature = Signature::new(
        "brackets",
        &[
            ("compat", "compare-trees".into()),
            ("cutoff", SCRIPT_CUTOFF.to_string()),
        ],
    );
    let mut report = Report::new("brackets", signature);
    let (g, s) = (py_lines(&gold_text).len(), py_lines(&system_text).len());
    if g != s {
        report.warnings.push(Warning::of(
            treeval_report::model::WarningKind::SentenceCount,
            if g < s { system } else { gold },
            format!("{gold} has {g} lines and {system} has {s}: compare_trees.py pairs them line by line and stops at the end of the shorter file, and so does --compat compare-trees; the last {} lines of the longer file are not scored", g.abs_diff(s)),
            Some("is one file truncated, or did the parser skip sentences? a sentence must keep its line".into()),
        ));
    }
    Ok(Evaluation::new(report, None, Some(format!("{line}\n"))))
}

/// The error where the script stops: the file, line and column, what was expected and
/// found.
fn stopped(s: &Stop, gold: &str, system: &str) -> Error {
    let path = match s.side {
        Side::Gold => gold,
        Side::System => system,
    };
    let at = match s.error.column {
        Some(c) => format!("{path}:{}:{c}", s.line),
        None => format!("{path}:{}", s.line),
    };
    Error::Eval(format!(
        "{at}: {}; compare_trees.py stops here (an assertion or index error) and prints nothing\n  hint: the script reads one tree per line, each word as `(TAG word)`",
        s.error.message
    ))
}
