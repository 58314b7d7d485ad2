//! `treeval ted`: TedEval of dependency parses across annotation schemes, and the tree
//! edit distance of tree pairs.

use std::collections::HashMap;
use std::io::Write;

use treeval_formats::ReaderBuilder;
use treeval_metrics::deps::Input;
use treeval_metrics::ted::{
    parse_apted, try_distance, try_distance_with_script, FreeRelabel, TooCostly, Tree, UnitCost,
    DEFAULT_MAX_COST,
};
use treeval_metrics::tedeval::run::{evaluate_counts, Experiment, TedEvalOptions, TedEvalResult};
use treeval_report::model::Warning;
use treeval_report::records::{Counts, Record};
use treeval_report::ted::{build, tested_name, tests, TedShown};
use treeval_report::Signature;
use treeval_stats::compare::{CompareConfig, TestKind};

use crate::args::{BracketLabels, Format, ReportArgs, TedArgs};
use crate::output::{check_outputs, outputs, InputRef, PerSentence};
use crate::Failure;

/// The files the command reads, with their roles.
fn inputs(a: &TedArgs) -> Vec<InputRef<'_>> {
    let mut v = Vec::new();
    v.extend(a.gold.iter().map(|p| ("--gold", p.as_str())));
    v.extend(a.parse.iter().map(|p| ("--parse", p.as_str())));
    for e in &a.exp {
        let mut parts = e.splitn(3, ':').skip(1);
        v.extend(parts.next().map(|p| ("--exp GOLD", p)));
        v.extend(parts.next().map(|p| ("--exp PARSE", p)));
    }
    v.extend(a.label_equiv.iter().map(|p| ("--label-equiv", p.as_str())));
    v.extend(a.distance.iter().map(|p| ("--distance", p.as_str())));
    v
}

/// Run the command.
pub fn run(a: &TedArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if a.distance.is_some() && a.report.format != Format::Text {
        return Err(Failure::Usage(
            "--distance prints one distance per line (and --script its edit script as JSON); --format does not apply".into(),
        ));
    }
    if a.distance.is_some() && a.report.errors {
        return Err(Failure::Usage(
            "--errors lists the edit operations behind TedEval's δ_new; with --distance, --script prints each pair's edit script".into(),
        ));
    }
    let can = crate::output::Capabilities {
        no_selection: a.distance.as_ref().map(|_| "--sent-id, --min-len and --max-len select sentences of a TedEval run; --distance measures every tree pair it is given"),
        state: true,
        // two or more parses are tested by approximate randomization unless --no-test
        always_tests: a.distance.is_none() && !a.no_test && a.exp.len() + a.parse.len() >= 2,
        ..crate::output::Capabilities::of("ted")
    };
    crate::output::check_report(&can, &a.report, false)?;
    check_state(a)?;
    check_outputs(&outputs(&a.report.out), &inputs(a), a.report.out.force)?;
    match &a.distance {
        Some(path) => distances(a, path, out),
        None => tedeval(a, out),
    }
}

/// `--emit-state` records a TedEval run: not the distances of `--distance`.
fn check_state(a: &TedArgs) -> Result<(), Failure> {
    if a.report.out.emit_state.is_none() {
        return Ok(());
    }
    if a.distance.is_some() {
        return Err(Failure::Usage(
            "--emit-state records the counts of a TedEval run; --distance prints one distance per tree pair: drop one of the two".into(),
        ));
    }
    Ok(())
}

/// What a TedEval report shows and how it was counted, from the command line or from
/// the options of a state (`treeval merge`).
pub(crate) struct TedSettings {
    /// `--unlabeled`.
    pub unlabeled: bool,
    /// `--micro`.
    pub micro: bool,
    /// `--no-test`.
    pub no_test: bool,
    /// `--max-cost`.
    pub max_cost: Option<u64>,
    /// `--label-equiv` as given.
    pub label_equiv: Option<String>,
    /// `--bracket-labels`.
    pub bracket_labels: BracketLabels,
}

impl TedSettings {
    fn of(a: &TedArgs) -> Self {
        TedSettings {
            unlabeled: a.unlabeled,
            micro: a.micro,
            no_test: a.no_test,
            max_cost: a.max_cost,
            label_equiv: a.label_equiv.clone(),
            bracket_labels: a.bracket_labels,
        }
    }
}

/// The name of a `--bracket-labels` value.
pub(crate) fn bracket_labels_name(b: BracketLabels) -> &'static str {
    match b {
        BracketLabels::Category => "category",
        BracketLabels::Full => "full",
    }
}

/// Read a label-equivalence file: label → the first label of its line.
fn equivalences(path: &str) -> Result<HashMap<String, String>, Failure> {
    let text = treeval_formats::input::read_text(path, "label equivalences (labels per line)")
        .map_err(|e| Failure::Eval(e.to_string()))?;
    treeval_formats::equiv::parse_equivalences(&text, path)
        .map_err(|problems| Failure::Eval(problems.join("\n")))
}

fn experiments(a: &TedArgs) -> Result<Vec<Experiment>, Failure> {
    let mut builder = ReaderBuilder::new();
    builder.validate_deps(false);
    let input = |path: &str| Input::path(path, builder.clone());
    let mut out = Vec::new();
    if let Some(gold) = &a.gold {
        for p in &a.parse {
            out.push(Experiment {
                name: p.clone(),
                gold: input(gold),
                parse: input(p),
            });
        }
    }
    for e in &a.exp {
        let parts: Vec<&str> = e.splitn(3, ':').collect();
        match parts.as_slice() {
            [name, gold, parse] if !name.is_empty() && !gold.is_empty() && !parse.is_empty() => out
                .push(Experiment {
                    name: (*name).to_owned(),
                    gold: input(gold),
                    parse: input(parse),
                }),
            _ => {
                return Err(Failure::Usage(format!(
                    "--exp expects NAME:GOLD:PARSE (three parts separated by ':'), found '{e}'"
                )))
            }
        }
    }
    if out.is_empty() {
        return Err(Failure::Usage(
            "give --gold FILE --parse FILE, or one or more --exp NAME:GOLD:PARSE, or --distance FILE".into(),
        ));
    }
    let stdin = out
        .iter()
        .flat_map(|e| [&e.gold.path, &e.parse.path])
        .filter(|p| p.as_str() == "-")
        .count();
    if stdin > 0 {
        return Err(Failure::Usage(
            "treeval ted reads each gold file once per experiment: give file paths, not '-'".into(),
        ));
    }
    Ok(out)
}

fn tedeval(a: &TedArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let exps = experiments(a)?;
    let equivalences = match &a.label_equiv {
        Some(p) => equivalences(p)?,
        None => HashMap::new(),
    };
    let set = TedSettings::of(a);
    let cfg = test_config(&a.report, set.no_test, exps.len())?;
    let resample = !cfg.tests.is_empty() || a.report.sig.ci.is_some();
    let out_args = &a.report.out;
    let opts = TedEvalOptions {
        unlabeled: a.unlabeled,
        selection: crate::select::selection(&a.report.select)?,
        max_cost: a.max_cost,
        equivalences,
        keep_sentences: resample
            || out_args.per_sentence.is_some()
            || out_args.emit_state.is_some(),
        brackets: treeval_metrics::tedeval::BracketConversion {
            drop_tags: vec!["-NONE-".into()],
            cut_labels: a.bracket_labels == BracketLabels::Category,
        },
        keep_edits: a.report.errors,
    };
    let mut r = evaluate_counts(&exps, &opts).map_err(|e| Failure::Eval(e.to_string()))?;
    crate::select::check_kept_unless_part(&opts.selection, &r.selection, out_args)?;
    check_scored(&r, (&opts.selection, a.max_cost), out_args)?;
    if let Some(path) = out_args.emit_state.as_deref() {
        let o = treeval_report::state::TedStateOptions {
            unlabeled: set.unlabeled,
            micro: set.micro,
            no_test: set.no_test,
            max_cost: set.max_cost,
            label_equiv: set.label_equiv.as_deref(),
            equivalences: &opts.equivalences,
            bracket_labels: bracket_labels_name(set.bracket_labels),
        };
        let state = treeval_report::state::State::of_ted(&r, &o);
        let state = state.with_selection(&opts.selection, &r.selection);
        crate::output::write_state(path, &state)?;
    }
    // after the state, which holds the counts the checks are made again from
    r.corpus_checks();
    if a.report.out.per_sentence.is_some() {
        per_sentence(a, &r)?;
    }
    let mut report = present(&a.report, &set, &r, &cfg);
    if a.report.errors {
        report.listings = r
            .experiments
            .iter()
            .enumerate()
            .map(|(k, x)| treeval_report::errors::ted_errors(k, &x.edits))
            .collect();
        report.notes.push("--errors: per parse, the edit operations of its optimal script against the generalized gold that the script of its own gold does not have too (an operation is the same when its type, node yield and labels are); they make up δ_new, one each".into());
    }
    finish(&a.report, &set, &r, &cfg, &opts.selection, &mut report)?;
    let text = treeval_report::emit::to_string(&report, a.report.format);
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}

/// The report of a TedEval run `r` under `set` (shown as `ra` asks), before its
/// listings and [`finish`]: the warnings (on stderr unless `--quiet`), the signature
/// and the tables.
pub(crate) fn present(
    ra: &ReportArgs,
    set: &TedSettings,
    r: &TedEvalResult,
    cfg: &CompareConfig,
) -> treeval_report::Report {
    let warnings = warnings(ra.quiet, r);
    let signature = signature(set, r);
    let shown = TedShown {
        unlabeled: set.unlabeled,
        micro: set.micro,
        resample: !cfg.tests.is_empty() || ra.sig.ci.is_some(),
        ci: super::significance::intervals(&ra.sig),
    };
    build(signature, r, shown, warnings)
}

/// The end of a TedEval report: the sentence selection `sel`, the tests of `cfg` and
/// their settings.
pub(crate) fn finish(
    ra: &ReportArgs,
    set: &TedSettings,
    r: &TedEvalResult,
    cfg: &CompareConfig,
    sel: &treeval_metrics::select::Selection,
    report: &mut treeval_report::Report,
) -> Result<(), Failure> {
    let part = crate::select::is_part(&ra.out);
    crate::select::record_part(report, sel, &r.selection, ("words", true), ra.quiet, part)?;
    if !cfg.tests.is_empty() {
        let bar = super::significance::Progress::new(ra.quiet);
        (report.comparisons, report.rankings) =
            tests(r, set.micro, cfg, &|l, d, t| bar.update(l, d, t));
        bar.finish();
    }
    if !cfg.tests.is_empty() || ra.sig.ci.is_some() {
        super::significance::sign(&ra.sig, cfg, &mut report.signature);
    }
    report.significance =
        super::significance::settings(&ra.sig, cfg, &[tested_name(set.micro).to_owned()]);
    Ok(())
}

/// The tests asked for among `experiments`: McNemar is refused (no paired decisions), a
/// test needs two experiments, and two or more are tested by approximate randomization
/// unless `no_test` (`--no-test`).
pub(crate) fn test_config(
    ra: &ReportArgs,
    no_test: bool,
    experiments: usize,
) -> Result<CompareConfig, Failure> {
    let mut cfg = super::significance::config(&ra.sig);
    if cfg.tests.contains(&TestKind::Mcnemar) {
        return Err(Failure::Usage(
            "--test mcnemar needs paired binary decisions; TedEval scores are sentence distances: use --test ar or --test bootstrap".into(),
        ));
    }
    if !cfg.tests.is_empty() && experiments < 2 {
        return Err(Failure::Usage(
            "--test compares systems: give at least two parses or experiments".into(),
        ));
    }
    if cfg.tests.is_empty() && experiments >= 2 && !no_test {
        cfg.tests = vec![TestKind::Ar];
    }
    Ok(cfg)
}

/// The evaluation's warnings (printed on stderr unless `--quiet`), and one when no
/// sentence was scored.
fn warnings(quiet: bool, r: &TedEvalResult) -> Vec<Warning> {
    let mut warnings = treeval_report::model::warnings_of(&r.warnings);
    if !quiet {
        for w in &warnings {
            eprintln!("{}", super::significance::warning_line(w));
        }
    }
    if r.scored == 0 {
        let why = if r.sentences == 0 {
            "the files hold no sentence".to_owned()
        } else if r.selection.kept == 0 {
            format!(
                "the sentence selection kept none of the {} sentences",
                r.sentences
            )
        } else {
            format!(
                "all {} sentences were left out (over the size limit)",
                r.sentences
            )
        };
        let message =
            format!("no sentence was scored: {why}; TedEval is not applicable (n/a, null in JSON)");
        if !quiet {
            eprintln!("warning: {message}");
        }
        warnings.push(Warning::new(String::new(), message, None));
    }
    warnings
}

/// The signature of the run (without the tests', which come after them).
fn signature(a: &TedSettings, r: &TedEvalResult) -> Signature {
    let mut signature = Signature::new(
        "ted",
        &[
            ("experiments", r.experiments.len().to_string()),
            (
                "labels",
                if a.unlabeled { "unlabeled" } else { "labeled" }.into(),
            ),
            ("costs", "unit".into()),
            ("average", if a.micro { "micro" } else { "global" }.into()),
            (
                "equiv",
                a.label_equiv.clone().unwrap_or_else(|| "none".into()),
            ),
        ],
    );
    if let Some(n) = a.max_cost {
        signature.push("max-cost", n.to_string());
    }
    // a bracketed side leaves an experiment without attachment scores
    if r.experiments.iter().any(|x| x.attachment.is_none()) {
        signature.push(
            "bracket-labels",
            bracket_labels_name(a.bracket_labels).into(),
        );
    }
    signature
}

/// `--per-sentence`: one object per sentence and experiment.
fn per_sentence(a: &TedArgs, r: &TedEvalResult) -> Result<(), Failure> {
    let mut sink = PerSentence::open(a.report.out.per_sentence.as_deref(), "ted", &inputs(a))?;
    for (k, x) in r.experiments.iter().enumerate() {
        for (&i, c) in r.numbers.iter().zip(&x.sentences) {
            let scored = c.sentences == 1;
            sink.write(
                &Record::of(i, k, c)
                    .extra("experiment", &x.name)
                    .extra("scored", scored)
                    .extra("score", scored.then_some(c.sum_sentence_score)),
            );
        }
    }
    sink.finish()
}

fn distances(a: &TedArgs, path: &str, out: &mut dyn Write) -> Result<(), Failure> {
    let input = treeval_formats::input::read_text(path, "tree pairs ({a{b}{c}} TAB {a{b}})")
        .map_err(|e| Failure::Eval(e.to_string()))?;
    let mut sink = PerSentence::open(a.report.out.per_sentence.as_deref(), "ted", &inputs(a))?;
    let mut labels: HashMap<String, u32> = HashMap::new();
    let mut problems = Vec::new();
    let mut text = String::new();
    let mut pair = 0;
    for (k, line) in input.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        pair += 1;
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
        let limit = a.max_cost.unwrap_or(DEFAULT_MAX_COST);
        let r: Result<(u32, Option<_>), TooCostly> = match (a.script, a.unlabeled) {
            (true, true) => {
                try_distance_with_script(&ta, &tb, &FreeRelabel, limit).map(|(d, s)| (d, Some(s)))
            }
            (true, false) => {
                try_distance_with_script(&ta, &tb, &UnitCost, limit).map(|(d, s)| (d, Some(s)))
            }
            (false, true) => try_distance(&ta, &tb, &FreeRelabel, limit).map(|d| (d, None)),
            (false, false) => try_distance(&ta, &tb, &UnitCost, limit).map(|d| (d, None)),
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
                text.push_str(&format!("{d}\t{s}\n"));
            }
            Ok((d, None)) => text.push_str(&format!("{d}\n")),
            Err(e) => problems.push(format!(
                "{path}:{}:1: expected an edit distance of at most {limit} table cells (--max-cost), found {e}\n  hint: --max-cost {} computes it (about 9 bytes of memory a cell)",
                k + 1,
                e.enough()
            )),
        }
    }
    if !problems.is_empty() {
        return Err(Failure::Eval(crate::output::capped(problems)));
    }
    sink.finish()?;
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}

/// The rule of [`crate::select::nothing_scored`] for a TedEval run `r` (the command's and
/// a merge's): every kept sentence over the edit distance's limits (`--max-cost`, 5000
/// words) leaves nothing to score.
pub(crate) fn check_scored(
    r: &TedEvalResult,
    (sel, max_cost): (&treeval_metrics::select::Selection, Option<u64>),
    out: &crate::args::OutputArgs,
) -> Result<(), Failure> {
    // a sentence is scored for every experiment or for none
    let why = move || {
        crate::select::Nothing {
        why: format!(
            "all {} sentences kept of the {} read are over the edit distance's limits (--max-cost {}, at most {} words)",
            r.too_large.0,
            r.sentences,
            max_cost.unwrap_or(DEFAULT_MAX_COST),
            treeval_metrics::tedeval::run::MAX_WORDS
        ),
        lift: "raise --max-cost: each sentence's warning (without -q) names the --max-cost that scores it".into(),
    }
    };
    let each = [(r.scored, Box::new(why) as Box<dyn FnOnce() -> _>)];
    crate::select::nothing_scored(each, (sel, &r.selection), out)
}
