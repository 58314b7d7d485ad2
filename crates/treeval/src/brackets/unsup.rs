//! `brackets --compat compare-trees`: what harvardnlp/compound-pcfg's `compare_trees.py`
//! prints, from files as it reads them (see
//! [`treeval_metrics::brackets::unsup::script`]).

use treeval_formats::bracket::{BracketReader, BracketTree};
use treeval_metrics::brackets::unsup::profile::{self, UnsupCounts, UnsupTree};
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

/// `--profile unsupervised`: the report of the unsupervised conventions
/// ([`treeval_metrics::brackets::unsup::profile`]) of every system file (and with
/// `baselines`, of left- and right-branching trees over the gold's filtered words).
pub(super) fn profile(options: &Options, inputs: &Inputs, common: &Common) -> Result<Evaluation> {
    check_profile(options, inputs, common)?;
    let tested = crate::measures::test_metrics(profile::measures, &options.test_metrics)?;
    let baselines = if options.baselines { 2 } else { 0 };
    let (cfg, _) = crate::significance::resampling_config(
        common,
        inputs.systems.len() + baselines,
        "systems",
        super::NO_MCNEMAR,
    )?;
    let mut names = inputs.display_names(common)?;
    let gold = read_trees(&inputs.gold, options.layout)?;
    for t in &gold {
        if let Some(p) = t.problems.first() {
            return Err(Error::Eval(format!(
                "{p}\n  hint: the gold must be well-formed trees; --profile unsupervised filters its words by their tags"
            )));
        }
    }
    let gold_trees: Vec<(UnsupTree, Vec<bool>)> = gold
        .iter()
        .map(|t| (UnsupTree::of(t, true), UnsupTree::kept_words(t)))
        .collect();
    let mut units = Vec::new();
    let mut warnings = Vec::new();
    for sys in &inputs.systems {
        let (u, w) = score_system(&gold_trees, inputs.gold.name(), sys, options.layout)?;
        units.push(u);
        warnings.extend(w);
    }
    if options.baselines {
        for (name, make) in [
            (
                "left-branching",
                UnsupTree::left_branching as fn(usize) -> UnsupTree,
            ),
            ("right-branching", UnsupTree::right_branching),
        ] {
            let u = gold_trees
                .iter()
                .map(|(g, _)| UnsupCounts::sentence(g, &make(g.words)))
                .collect();
            units.push(u);
            names.push(name.to_owned());
        }
    }
    let mut report = profile_report(inputs, &names, &units, common);
    report.warnings = warnings;
    if !cfg.tests.is_empty() {
        let ms = profile::measures();
        let chosen: Vec<treeval_report::driver::Tested> = ms
            .iter()
            .filter(|m| tested.iter().any(|t| t == m.name))
            .map(|m| (m, None))
            .collect();
        (report.comparisons, report.rankings) =
            treeval_report::driver::tests(&chosen, &units, &cfg, &|l, d, t| {
                common.progress(l, d, t)
            });
    }
    if !cfg.tests.is_empty() || common.ci.is_some() {
        crate::significance::sign(common, &cfg, &mut report.signature);
    }
    report.significance = crate::significance::settings(common, &cfg, &tested);
    report.name_systems(&names);
    Ok(Evaluation::new(report, None, None))
}

/// Usage errors of `--profile unsupervised`: the options it does not take.
fn check_profile(options: &Options, inputs: &Inputs, common: &Common) -> Result<()> {
    let takes = Options {
        profile: options.profile,
        baselines: options.baselines,
        layout: options.layout,
        test_metrics: options.test_metrics.clone(),
        ..Options::default()
    };
    if *options != takes {
        return Err(Error::Usage(
            "--profile unsupervised scores unlabeled spans with its own conventions: it takes no --compat, --prm, --by or careful option; drop them".into(),
        ));
    }
    let refused = [
        (!common.where_.is_empty(), "--where"),
        (common.state, "--emit-state"),
        (common.errors, "--errors"),
        (common.per_sentence.is_some(), "--per-sentence"),
        (common.sent_id.is_some(), "--sent-id"),
        (
            common.min_len.is_some() || common.max_len.is_some(),
            "--min-len and --max-len",
        ),
    ];
    if let Some((_, what)) = refused.iter().find(|(given, _)| *given) {
        return Err(Error::Usage(format!(
            "{what} is not available with --profile unsupervised yet; its cut-off is its own (gold sentences of one word or over 150 words are skipped)"
        )));
    }
    if inputs.systems.is_empty() {
        return Err(Error::Usage("give at least one system file".into()));
    }
    Ok(())
}

/// Every tree of `input` (well-formed or not: a tree's problems say why not).
fn read_trees(input: &crate::Input, layout: super::Layout) -> Result<Vec<BracketTree>> {
    let read = input.open().map_err(|e| Error::Eval(e.to_string()))?;
    let mut r = BracketReader::new(read, input.name(), layout.reader());
    r.sniff().map_err(|e| Error::Eval(e.to_string()))?;
    let mut trees = Vec::new();
    let mut t = BracketTree::default();
    while r
        .read_tree(&mut t)
        .map_err(|e| Error::Eval(e.to_string()))?
    {
        trees.push(std::mem::take(&mut t));
    }
    Ok(trees)
}

/// One system file's per-sentence counts, and a warning for its sentences not scored
/// (malformed, or another number of words than the filtered gold).
fn score_system(
    gold: &[(UnsupTree, Vec<bool>)],
    gold_path: &str,
    sys: &crate::Input,
    layout: super::Layout,
) -> Result<(Vec<UnsupCounts>, Vec<Warning>)> {
    let trees = read_trees(sys, layout)?;
    if trees.len() != gold.len() {
        return Err(Error::Eval(format!(
            "{}: {} trees, and the gold {} has {}: sentences are paired by position\n  hint: a sentence the parser failed on must stay, as a tree over its words",
            sys.name(),
            trees.len(),
            gold_path,
            gold.len()
        )));
    }
    let mut units = Vec::with_capacity(gold.len());
    let mut unscored: Vec<String> = Vec::new();
    for (k, ((g, keep), t)) in gold.iter().zip(&trees).enumerate() {
        // a system over all the gold's words loses the words the gold's tags filter out
        let s = if t.leaves.len() == keep.len() && t.leaves.len() != g.words {
            UnsupTree::of_kept(t, keep)
        } else {
            UnsupTree::of(t, false)
        };
        let skipped = g.words < 2 || g.words > profile::CUTOFF;
        if !skipped && (!t.problems.is_empty() || s.words != g.words) {
            unscored.push(match t.problems.first() {
                Some(p) => format!("{p}"),
                None => format!(
                    "{}:{}: tree {}: {} words, the filtered gold {}",
                    sys.name(),
                    t.line,
                    k + 1,
                    s.words,
                    g.words
                ),
            });
            units.push(UnsupCounts::error());
        } else {
            units.push(UnsupCounts::sentence(g, &s));
        }
    }
    let warnings = unscored.first().map(|first| {
        Warning::of(
            treeval_report::model::WarningKind::UnscoredSentences,
            sys.name(),
            format!("{} sentences not scored (a malformed tree, or another number of words than the gold after PRPN's tag filter); the first: {first}", unscored.len()),
            Some("the system must be a tree over the gold's words without punctuation and traces (the words PRPN's 36 word tags keep)".into()),
        )
    });
    Ok((units, warnings.into_iter().collect()))
}

/// The report: conventions, inputs, the scores section with intervals, the notes.
fn profile_report(
    inputs: &Inputs,
    names: &[String],
    units: &[Vec<UnsupCounts>],
    common: &Common,
) -> Report {
    let ms = profile::measures();
    let signature = Signature::new(
        "brackets",
        &[
            ("profile", "unsupervised".into()),
            ("words", "prpn-36-tags".into()),
            ("spans", "unlabeled,min2,no-sentence,set".into()),
            ("cutoff", profile::CUTOFF.to_string()),
        ],
    );
    let mut r = Report::new("brackets", signature);
    r.convention(
        "profile",
        "unsupervised (Kim, Dyer & Rush 2019; Shen et al. 2018)",
    );
    r.convention(
        "gold words",
        "PRPN's 36 word tags; constituents left empty dropped",
    );
    r.convention(
        "spans",
        "unlabeled, two words or more, the whole sentence left out, each once",
    );
    r.convention("sentences", "skipped: one word, or more than 150 words");
    r.inputs.push(treeval_report::value::Input {
        role: "gold".into(),
        path: inputs.gold.name().into(),
        format: "brackets".into(),
        description: "bracketed trees".into(),
        counts: serde_json::Value::Null,
        system: None,
    });
    for (k, (name, rows)) in names.iter().zip(units).enumerate() {
        let mut t = UnsupCounts::default();
        for u in rows {
            t += u.clone();
        }
        let (path, made) = match inputs.systems.get(k) {
            Some(s) => (s.name(), ""),
            None => (name.as_str(), ", a baseline over the gold's filtered words"),
        };
        r.inputs.push(treeval_report::value::Input {
            role: "system".into(),
            path: path.into(),
            format: "brackets".into(),
            description: format!("{} sentences scored{made}", t.sentences),
            counts: serde_json::to_value(&t).unwrap_or_default(),
            system: Some(k),
        });
        r.systems.push(treeval_report::value::System {
            name: name.clone(),
            inputs: vec![r.inputs.len() - 1],
        });
    }
    r.add_measures::<UnsupCounts>(&ms);
    let ci = crate::significance::intervals(common);
    let mut section =
        treeval_report::driver::section("scores", "unsupervised spans", &ms, units, ci);
    section.show_counts = true;
    r.sections.push(section);
    r.notes.extend(profile_notes(units));
    r
}

/// What the report's numbers leave out, and how they differ from compare_trees.py.
fn profile_notes(units: &[Vec<UnsupCounts>]) -> Vec<String> {
    let mut t = UnsupCounts::default();
    for u in units.first().into_iter().flatten() {
        t += u.clone();
    }
    vec![
        format!(
            "{} gold sentences skipped: {} of one word, {} over 150 words (after the tag filter), as compare_trees.py skips them",
            t.short_sentences + t.long_sentences,
            t.short_sentences,
            t.long_sentences
        ),
        "sentence F1 is the mean of the sentences' F1 (recall 1 without gold spans, precision 1 if none is predicted either); compare_trees.py adds 1e-8 to its denominators (a perfect sentence scores 0.99999999) and keeps the sentence span where a unary chain repeats it at the top: --compat compare-trees prints its numbers".into(),
    ]
}
