//! `brackets --compat compare-trees`: what harvardnlp/compound-pcfg's `compare_trees.py`
//! prints, from files as it reads them (see
//! [`treeval_metrics::brackets::unsup::script`]).

use treeval_formats::bracket::{BracketReader, BracketTree};
use treeval_metrics::bins::{length_bin, LENGTH_BINS};
use treeval_metrics::brackets::by::BracketsKey;
use treeval_metrics::brackets::unsup::profile::{self, UnsupCounts, UnsupTree};
use treeval_metrics::brackets::unsup::script::{self, py_lines, Side, Stop};
use treeval_metrics::brackets::unsup::ZeroDivision;
use treeval_report::model::Warning;
use treeval_report::value::Section;
use treeval_report::{Report, Signature};
use treeval_stats::compare::CompareConfig;

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
    let mut spans = Vec::new();
    let mut warnings = Vec::new();
    let missed = super::error_sentences(options)? == super::ErrorSentences::Missed;
    for sys in &inputs.systems {
        let gold = (&gold_trees[..], inputs.gold.name());
        let (u, t, w) = score_system(gold, sys, options.layout, missed)?;
        units.push(u);
        spans.push(t);
        warnings.extend(w);
    }
    if options.baselines {
        add_baselines(&gold_trees, &mut units, &mut spans, &mut names);
    }
    write_records(common, inputs, options.baselines, &units)?;
    let mut report = profile_report(inputs, &names, &units, common, missed);
    if common.errors {
        report.listings = spans
            .iter()
            .enumerate()
            .map(|(k, t)| errors_listing(k, &gold, &gold_trees, t))
            .collect();
    }
    if options.by.contains(&BracketsKey::Length) {
        report.sections.push(by_length(&units, &gold_trees));
    }
    report.warnings = warnings;
    profile_tests(&mut report, &units, (&cfg, &tested), common);
    report.name_systems(&names);
    Ok(Evaluation::new(report, None, None))
}

/// Usage errors of `--profile unsupervised`: the options it does not take.
fn check_profile(options: &Options, inputs: &Inputs, common: &Common) -> Result<()> {
    if options.by.contains(&BracketsKey::Label) {
        return Err(Error::Usage(
            "--by label: --profile unsupervised scores unlabeled spans; --by length works".into(),
        ));
    }
    let takes = Options {
        by: options.by.clone(),
        profile: options.profile,
        baselines: options.baselines,
        layout: options.layout,
        test_metrics: options.test_metrics.clone(),
        error_sentences: options.error_sentences,
        ..Options::default()
    };
    if *options != takes {
        return Err(Error::Usage(
            "--profile unsupervised scores unlabeled spans with its own conventions: it takes no --compat, --prm or careful option; drop them".into(),
        ));
    }
    let refused = [
        (!common.where_.is_empty(), "--where"),
        (common.state, "--emit-state"),
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

/// A system's per-sentence counts and spans (`None` where it is not scored), and a
/// warning for its sentences not scored.
type Scored = (Vec<UnsupCounts>, Vec<Option<UnsupTree>>, Vec<Warning>);

/// One system file's per-sentence counts and spans against the `gold` trees (and path),
/// and a warning for its sentences not scored (malformed, or another number of words
/// than the filtered gold): with `missed`, scored as empty parses.
fn score_system(
    (gold, gold_path): (&[(UnsupTree, Vec<bool>)], &str),
    sys: &crate::Input,
    layout: super::Layout,
    missed: bool,
) -> Result<Scored> {
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
    let mut spans = Vec::with_capacity(gold.len());
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
            units.push(match missed {
                true => UnsupCounts::missed(g),
                false => UnsupCounts::error(),
            });
            spans.push(None);
        } else {
            units.push(UnsupCounts::sentence(g, &s));
            spans.push(Some(s));
        }
    }
    let warnings = unscored.first().map(|first| {
        Warning::of(
            treeval_report::model::WarningKind::UnscoredSentences,
            sys.name(),
            format!(
                "{} sentences not scored (a malformed tree, or another number of words than the gold after PRPN's tag filter){}; the first: {first}",
                unscored.len(),
                if missed { ", scored as empty parses (their gold spans missed, sentence F1 0)" } else { "" }
            ),
            Some("the system must be a tree over the gold's words without punctuation and traces (the words PRPN's 36 word tags keep)".into()),
        )
    });
    Ok((units, spans, warnings.into_iter().collect()))
}

/// The report: conventions, inputs, the scores section with intervals, the notes.
fn profile_report(
    inputs: &Inputs,
    names: &[String],
    units: &[Vec<UnsupCounts>],
    common: &Common,
    missed: bool,
) -> Report {
    let ms = profile::measures();
    let errors = treeval_metrics::brackets::error_sentences_name(missed);
    let signature = Signature::new(
        "brackets",
        &[
            ("profile", "unsupervised".into()),
            ("words", "prpn-36-tags".into()),
            ("spans", "unlabeled,min2,no-sentence,set".into()),
            ("cutoff", profile::CUTOFF.to_string()),
            ("error-sentences", errors.into()),
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
    r.convention("error sentences", errors);
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

/// The breakdown by sentence length (the gold's filtered words, in the bins of `brackets
/// --by length`): each bin's summed counts, per system.
fn by_length(units: &[Vec<UnsupCounts>], gold: &[(UnsupTree, Vec<bool>)]) -> Section {
    let ms = profile::measures();
    let mut rows = Vec::new();
    for (k, system) in units.iter().enumerate() {
        let mut bins: Vec<UnsupCounts> = vec![UnsupCounts::default(); LENGTH_BINS.len()];
        for (u, (g, _)) in system.iter().zip(gold) {
            let bin = length_bin(g.words);
            if let Some(i) = LENGTH_BINS.iter().position(|b| *b == bin) {
                bins[i] += u.clone();
            }
        }
        let items = LENGTH_BINS.iter().map(|b| b.to_string()).zip(bins.iter());
        rows.extend(treeval_report::driver::keyed_rows(&ms, k, items));
    }
    Section {
        id: "by:length".into(),
        title: "by sentence length (gold words after the tag filter)".into(),
        key: Some("length".into()),
        columns: ms.iter().map(|m| m.name.to_string()).collect(),
        show_counts: true,
        compact: None,
        rows,
    }
}

/// `--per-sentence`: one record per gold tree and system (the baselines after the
/// files), with the profile's counts.
fn write_records(
    common: &Common,
    inputs: &Inputs,
    baselines: bool,
    units: &[Vec<UnsupCounts>],
) -> Result<()> {
    let mut roles = inputs.roles();
    if baselines {
        roles.push((treeval_report::names::role::SYSTEM, "left-branching"));
        roles.push((treeval_report::names::role::SYSTEM, "right-branching"));
    }
    let mut records =
        crate::records::Records::open(common.per_sentence.as_ref(), "brackets", &roles);
    if records.is_on() {
        for (system, rows) in units.iter().enumerate() {
            for (i, c) in rows.iter().enumerate() {
                records.write(&treeval_report::records::Record::of(
                    i as u64 + 1,
                    system,
                    c,
                ));
            }
        }
    }
    records.finish()
}

/// `--errors`: system `k`'s missed gold spans and extra spans, sentence by sentence (the
/// words they cover), and its sentences not scored; skipped sentences list nothing.
fn errors_listing(
    k: usize,
    gold: &[BracketTree],
    filtered: &[(UnsupTree, Vec<bool>)],
    system: &[Option<UnsupTree>],
) -> treeval_report::value::Listing {
    let mut l =
        treeval_report::value::Listing::new("errors", k, &["sentence", "span", "words", "error"]);
    for (i, ((t, (g, keep)), s)) in gold.iter().zip(filtered).zip(system).enumerate() {
        if g.words < 2 || g.words > profile::CUTOFF {
            continue;
        }
        let words: Vec<&str> = t
            .leaves
            .iter()
            .zip(keep)
            .filter(|(_, &k)| k)
            .map(|(w, _)| t.s(w.word))
            .collect();
        let row = |(a, b): (u32, u32), what: &str| {
            vec![
                (i + 1).to_string(),
                format!("{}-{}", a + 1, b),
                words[a as usize..b as usize].join(" "),
                what.to_owned(),
            ]
        };
        let Some(s) = s else {
            l.push(vec![
                (i + 1).to_string(),
                String::new(),
                String::new(),
                "not scored".into(),
            ]);
            continue;
        };
        for &span in g.spans.difference(&s.spans) {
            l.push(row(span, "missed gold span"));
        }
        for &span in s.spans.difference(&g.spans) {
            l.push(row(span, "extra system span"));
        }
    }
    l
}

/// The left- and right-branching baselines over the gold's filtered words, as two more
/// systems.
fn add_baselines(
    gold: &[(UnsupTree, Vec<bool>)],
    units: &mut Vec<Vec<UnsupCounts>>,
    spans: &mut Vec<Vec<Option<UnsupTree>>>,
    names: &mut Vec<String>,
) {
    type Make = fn(usize) -> UnsupTree;
    let makers: [(&str, Make); 2] = [
        ("left-branching", UnsupTree::left_branching),
        ("right-branching", UnsupTree::right_branching),
    ];
    for (name, make) in makers {
        let t: Vec<UnsupTree> = gold.iter().map(|(g, _)| make(g.words)).collect();
        units.push(
            gold.iter()
                .zip(&t)
                .map(|((g, _), s)| UnsupCounts::sentence(g, s))
                .collect(),
        );
        spans.push(t.into_iter().map(Some).collect());
        names.push(name.to_owned());
    }
}

/// The tests between the systems on the tested measures, and the significance settings.
fn profile_tests(
    report: &mut Report,
    units: &[Vec<UnsupCounts>],
    (cfg, tested): (&CompareConfig, &[String]),
    common: &Common,
) {
    if !cfg.tests.is_empty() {
        let ms = profile::measures();
        let chosen: Vec<treeval_report::driver::Tested> = ms
            .iter()
            .filter(|m| tested.iter().any(|t| t == m.name))
            .map(|m| (m, None))
            .collect();
        (report.comparisons, report.rankings) =
            treeval_report::driver::tests(&chosen, units, cfg, &|l, d, t| common.progress(l, d, t));
    }
    if !cfg.tests.is_empty() || common.ci.is_some() {
        crate::significance::sign(common, cfg, &mut report.signature);
    }
    report.significance = crate::significance::settings(common, cfg, tested);
}
