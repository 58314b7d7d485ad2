//! `treeval brackets`: EVALB's bracket scores.

use std::io::Write;
use std::sync::Arc;

use treeval_formats::bracket::{BracketReader, Layout};
use treeval_formats::Diagnostic;
use treeval_metrics::brackets::by::BracketsKey;
use treeval_metrics::brackets::filter::BracketWhere;
use treeval_metrics::brackets::measures::{measures, measures_where_label, CarefulUnit};
use treeval_metrics::brackets::{
    evaluate, BracketCounts, BracketResult, Params, SentenceRow, BUILT_IN,
};
use treeval_metrics::careful::{
    judge, read_judgments, CarefulOptions, Judged, JudgmentKey, Judgments, PairCounts,
};
use treeval_report::brackets::{BracketsIn, BracketsSystem};
use treeval_report::browse_brackets::BracketsBrowser;
use treeval_report::compat::evalb::evalb_text;
use treeval_report::model::Warning;
use treeval_report::records::Record;
use treeval_report::state::{
    brackets_options, BracketsRows, BracketsState, BracketsSystemState, State,
};
use treeval_report::value::Report;
use treeval_report::Signature;

use crate::args::{BracketsArgs, LayoutArg};
use crate::output::{
    capped, check_outputs, outputs, InputRef, Output, OutputKind, PerSentence, JUDGING_HEADER,
    SHOWN,
};
use crate::Failure;

/// Why `--test mcnemar` is refused.
pub(crate) const NO_MCNEMAR: &str = "needs paired binary decisions; for brackets use --test ar or --test bootstrap (and --careful for McNemar on reproduced treebank brackets)";

/// The files the command reads, with their roles.
fn inputs(a: &BracketsArgs) -> Vec<InputRef<'_>> {
    let mut v = vec![("GOLD", a.gold.as_str())];
    v.extend(a.test_files.iter().map(|s| ("TEST", s.as_str())));
    v.extend(a.prm.iter().map(|s| ("--prm", s.as_str())));
    v.extend(a.judgments.iter().map(|s| ("--judgments", s.as_str())));
    v
}

/// A reader of `path`, refused at once when the file is not bracketed trees.
fn reader(
    path: &str,
    layout: Layout,
) -> Result<BracketReader<treeval_formats::input::Input>, Failure> {
    let (input, _) =
        treeval_formats::input::open(path).map_err(|e| Failure::Eval(e.to_string()))?;
    let mut r = BracketReader::new(input, path, layout);
    r.sniff().map_err(|e| Failure::Eval(e.to_string()))?;
    Ok(r)
}

/// Print at most [`SHOWN`] lines, then how many more there are and where they are.
fn eprint_capped(lines: &[String], what: &str) {
    for l in lines.iter().take(SHOWN) {
        eprintln!("{l}");
    }
    if lines.len() > SHOWN {
        eprintln!(
            "… and {} more {what} (all of them in --format json)",
            lines.len() - SHOWN
        );
    }
}

/// The parameters for `--prm NAME`: the file NAME when it exists, else the built-in
/// parameter file of that name (COLLINS.prm, new.prm, nk.prm); its name for the
/// signature; EVALB's own messages about it; treeval's warnings.
fn parameters(
    prm: Option<&str>,
) -> Result<(Params, String, Vec<String>, Vec<Diagnostic>), Failure> {
    let Some(path) = prm else {
        return Ok((
            Params::collins(),
            "COLLINS.prm (built in)".to_owned(),
            Vec::new(),
            Vec::new(),
        ));
    };
    if !std::path::Path::new(path).exists() {
        if let Some(p) = Params::built_in(path) {
            return Ok((p, format!("{path} (built in)"), Vec::new(), Vec::new()));
        }
    }
    let text = treeval_formats::input::read_text(path, "an EVALB parameter file").map_err(|e| {
        Failure::Eval(format!(
            "{e}\n  hint: built in (used when no such file exists): {}",
            BUILT_IN.join(", ")
        ))
    })?;
    let (p, w) = Params::parse(&text, &Arc::from(path));
    Ok((p, path.to_owned(), Params::evalb_messages(&text), w))
}

/// The error when a test file does not hold as many trees as the gold file (EVALB
/// stops at the shorter file and scores what came before; `--compat evalb` does so too).
fn pairing_error(
    gold: &str,
    test: &str,
    r: &treeval_metrics::brackets::BracketResult,
    gold_lines: u64,
    test_lines: u64,
) -> Option<String> {
    let (g, t) = (r.gold_trees, r.test_trees);
    if g == 0 || r.gold_words == 0 {
        return Some(format!(
            "{gold}:{}:1: expected bracketed trees with words in the gold file, found {}\n  hint: the gold file is empty or holds only blank lines or trees without words",
            gold_lines.max(1),
            if g == 0 { "none".to_owned() } else { format!("{g} tree(s) without words") }
        ));
    }
    if g != t {
        return Some(format!(
            "{test}:{}:1: expected {g} trees (as in {gold}), found {t}\n  hint: {}",
            test_lines.max(1),
            if t < g {
                "the test file ends early: is it truncated, or did the parser skip sentences? (a sentence the parser failed on must stay as an empty line; --compat evalb scores as EVALB does, up to the shorter file)"
            } else {
                "the test file has extra trees: were sentences split, or is it the output for another gold file?"
            }
        ));
    }
    if r.test_words == 0 {
        return Some(format!(
            "{test}:1:1: expected bracketed trees with words, found {t} tree(s) without any word\n  hint: every sentence would be skipped (EVALB status 2) and nothing scored: is this the parser's output?"
        ));
    }
    None
}

/// The format and the output files (none may be an input).
fn check_usage(a: &BracketsArgs, ins: &[InputRef<'_>]) -> Result<(), Failure> {
    let mut outs = outputs(&a.report.out);
    if let Some(path) = &a.export_for_judging {
        outs.push(Output {
            flag: "--export-for-judging",
            path,
            kind: OutputKind::Judging,
        });
    }
    let can = crate::output::Capabilities {
        where_: true,
        no_selection: a.compat.map(|_| "--sent-id, --min-len and --max-len are not EVALB options, so --compat evalb cannot print EVALB's output with them (EVALB's own cut-off is CUTOFF_LEN of the parameter file: its len<=40 summary)"),
        state: true,
        browser: true,
        ..crate::output::Capabilities::of("brackets")
    };
    crate::output::check_report(&can, &a.report, a.compat.is_some())?;
    check_state(a)?;
    check_outputs(&outs, ins, a.report.out.force)
}

/// `--emit-state` records the counts of treeval's report: not with `--compat` (EVALB's
/// lines), `--careful` (its judgments name sentences by their number in the file) or
/// `--sent-id` (a tree has no id but its number in the file, which restarts in every
/// shard: see [`crate::select::refuse_numbered_ids`]).
fn check_state(a: &BracketsArgs) -> Result<(), Failure> {
    if a.report.out.emit_state.is_none() {
        return Ok(());
    }
    if a.compat.is_some() {
        return Err(Failure::Usage(
            "--emit-state records the counts of treeval's report; --compat prints a reference script's lines: drop one of the two".into(),
        ));
    }
    if a.careful {
        return Err(Failure::Usage(
            "--emit-state does not record the careful evaluation (its judgments and brackets to judge name sentences by their number in each file): evaluate --careful on the whole corpus".into(),
        ));
    }
    crate::select::refuse_numbered_ids(&a.report.select, "a tree")
}

/// Run the command.
pub fn run(a: &BracketsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let ins = inputs(a);
    check_usage(a, &ins)?;
    let mut per_sentence =
        PerSentence::open(a.report.out.per_sentence.as_deref(), "brackets", &ins)?;
    let (by, by_note) = breakdowns(a);
    let (mut params, prm_name, layout, warnings) = setup(a)?;
    let html = a.compat.is_none() && a.report.format == crate::args::Format::Html;
    params.by_label = a.compat.is_none() && by.contains(&BracketsKey::Label);
    params.keep_brackets = html || (a.report.errors && a.compat.is_none());
    params.selection = crate::select::selection(&a.report.select)?;
    params.filter = where_filter(a, &params)?;
    let judgments = judgments_file(a)?;
    let careful = careful_options(a, &params, judgments.is_some());
    let (cfg, resample) = super::significance::resampling_config(
        &a.report.sig,
        a.test_files.len(),
        "test files",
        NO_MCNEMAR,
    )?;
    let setting = Setting {
        params: &params,
        layout,
        careful: careful.as_ref(),
        judgments: judgments.as_ref(),
        resample,
    };
    let emit = a.report.out.emit_state.is_some();
    let mut scored = Scored {
        prm_warnings: warnings.clone(),
        warnings,
        browser: html.then(BracketsBrowser::new),
        states: emit.then(Default::default),
        ..Scored::default()
    };
    for (k, path) in a.test_files.iter().enumerate() {
        scored.file(a, &setting, k, path, &mut per_sentence, out)?;
    }
    if !scored.pairing.is_empty() {
        return Err(Failure::Eval(scored.pairing.join("\n")));
    }
    if a.compat.is_none() {
        let each = (scored.nothing.drain(..))
            .map(|(n, why)| (n, Box::new(move || why) as Box<dyn FnOnce() -> _>));
        let sel = (&params.selection, &scored.selection);
        crate::select::nothing_scored(each, sel, &a.report.out)?;
    }
    check_judgments(
        a,
        judgments.as_ref(),
        scored.gold_trees,
        &scored.used_judgments,
        &mut scored.warnings,
    )?;
    per_sentence.finish()?;
    if let Some(path) = a.report.out.emit_state.as_deref() {
        let state = scored
            .state(a, (&params, &prm_name), layout, &by)
            .with_selection(&params.selection, &scored.selection);
        crate::output::write_state(path, &state)?;
    }
    if a.compat.is_none() {
        let p = Present {
            report: &a.report,
            test_metrics: &a.test_metrics,
            layout,
            careful: careful.as_ref(),
            tests: (&cfg, resample),
        };
        scored.report(a, &p, (&params, &prm_name), (&by, by_note))?;
    }
    out.write_all(scored.text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}

/// The `--where` conditions, checked against the parameter file (a label it deletes,
/// cuts or counts under another name can match no bracket).
fn where_filter(a: &BracketsArgs, params: &Params) -> Result<BracketWhere, Failure> {
    let w = BracketWhere::all(&a.report.where_)
        .and_then(|w| w.check_labels(params).map(|()| w))
        .map_err(|e| Failure::Usage(format!("--where: {e}")))?;
    if !w.is_empty() && a.careful {
        return Err(Failure::Usage(format!(
            "--where {} does not apply to --careful, whose preparation and classes are over every bracket of the sentence; drop one of the two",
            w.describe()
        )));
    }
    Ok(w)
}

/// The breakdowns (`--by`, each key once, in the order given); with `--format html`
/// and no `--by`, both, with a note saying so.
fn breakdowns(a: &BracketsArgs) -> (Vec<BracketsKey>, Option<String>) {
    if a.by.is_empty() && a.report.format == crate::args::Format::Html && a.compat.is_none() {
        return (
            BracketsKey::ALL.to_vec(),
            Some(
                "the HTML page adds the breakdowns by label and by length (--by label,length)"
                    .into(),
            ),
        );
    }
    let mut by = Vec::new();
    for k in &a.by {
        if !by.contains(k) {
            by.push(*k);
        }
    }
    (by, None)
}

/// The careful evaluation's options (`--careful`).
fn careful_options(a: &BracketsArgs, params: &Params, judged: bool) -> Option<CarefulOptions> {
    a.careful.then(|| CarefulOptions {
        labeled: a.labeled,
        remove_tags: params.delete_label.clone(),
        remove_punct_forms: a.remove_punct_forms,
        collapse_double: a.collapse_double,
        remove_trivial: a.remove_trivial,
        keep_brackets: judged,
        export: a.export_for_judging.is_some(),
    })
}

/// The name of a layout, as the signature and a state give it.
fn layout_name(layout: Layout) -> String {
    format!("{layout:?}").to_lowercase()
}

/// The layout named `name` ([`layout_name`]).
pub(crate) fn layout_named(name: &str) -> Option<Layout> {
    [Layout::Line, Layout::Auto, Layout::MultiLine]
        .into_iter()
        .find(|l| layout_name(*l) == name)
}

/// The signature of the scoring conventions (with `--where`, its conditions).
fn signature(
    params: &Params,
    prm_name: &str,
    layout: Layout,
    careful: Option<&CarefulOptions>,
) -> Signature {
    let mut signature = Signature::new(
        "brackets",
        &[
            ("prm", prm_name.to_owned()),
            ("labeled", u8::from(params.labeled).to_string()),
            ("cutoff", params.cutoff_len.to_string()),
            ("layout", layout_name(layout)),
            ("wrapper", "ignored".into()),
        ],
    );
    if let Some(c) = careful {
        signature.push("careful", careful_name(c));
    }
    if !params.filter.is_empty() {
        signature.push("where", params.filter.name());
    }
    signature
}

/// What a `brackets` report shows besides the counts (the command's options, or those
/// of `treeval merge`).
pub(crate) struct Present<'a> {
    /// The report's options.
    pub report: &'a crate::args::ReportArgs,
    /// `--test-metrics`.
    pub test_metrics: &'a [String],
    /// The layout the trees were read with.
    pub layout: Layout,
    /// The careful evaluation's options.
    pub careful: Option<&'a CarefulOptions>,
    /// The tests' settings, and whether there are tests or intervals.
    pub tests: (&'a treeval_stats::compare::CompareConfig, bool),
}

/// The report of `e` with its signature, intervals, tests and `warnings`: made by the
/// command and, from summed states, by `treeval merge`.
pub(crate) fn present(p: &Present<'_>, e: &BracketsIn<'_>, warnings: Vec<Warning>) -> Report {
    let (cfg, resample) = p.tests;
    let mut signature = signature(e.params, e.prm_name, p.layout, p.careful);
    if resample {
        super::significance::sign(&p.report.sig, cfg, &mut signature);
        signature.push("test-metrics", p.test_metrics.join(","));
    }
    let ci = super::significance::intervals(&p.report.sig);
    let mut report = treeval_report::brackets::build(signature, e, ci);
    tests(p, e.params, e.systems, &mut report);
    report.warnings = warnings;
    report
}

/// What a length of the sentence selection counts in brackets.
pub(crate) const LENGTH_UNIT: &str = "words (as CUTOFF_LEN counts them)";

/// How every test file is scored.
struct Setting<'a> {
    params: &'a Params,
    layout: Layout,
    careful: Option<&'a CarefulOptions>,
    judgments: Option<&'a JudgmentsFile>,
    resample: bool,
}

/// What the test files scored so far have given.
#[derive(Default)]
struct Scored {
    systems: Vec<BracketsSystem>,
    /// Per careful system: each treebank bracket's sentence and whether it was reproduced.
    reproduced: Vec<Vec<(u64, Vec<bool>)>>,
    gold_trees: u64,
    /// The gold trees the sentence selection and a `--where` length condition keep: the
    /// sentences the HTML page's browser is about.
    page_total: u64,
    /// The compat output so far.
    text: String,
    /// The pairing errors of every test file, reported together.
    pairing: Vec<String>,
    /// Judgments that applied to some bracket.
    used_judgments: std::collections::HashSet<JudgmentKey>,
    warnings: Vec<Warning>,
    /// The HTML page's sentences (`--format html`).
    browser: Option<BracketsBrowser>,
    /// `--errors`: each test file's unmatched brackets.
    listings: Vec<treeval_report::value::Listing>,
    /// The sentence selection's counts (the same for every test file: gold decides).
    selection: treeval_metrics::select::SelectionCounts,
    /// The warnings about the parameter file.
    prm_warnings: Vec<Warning>,
    /// With `--emit-state`: every test file's state and its sentences' counts.
    states: Option<(Vec<BracketsSystemState>, Vec<BracketsRows>)>,
    /// Per test file: the units scored ([`scored`]) and why none would be.
    nothing: Vec<(u64, crate::select::Nothing)>,
}

impl Scored {
    /// With `--emit-state`, keep test file `path`'s state: its sums, what was `read`,
    /// and every sentence's counts with `--keep-sentences`, `--test` or `--ci`.
    fn keep_state(
        &mut self,
        a: &BracketsArgs,
        s: &Setting<'_>,
        path: &str,
        r: &BracketResult,
        read: Vec<Warning>,
    ) {
        if let Some((states, rows)) = self.states.as_mut() {
            let keep = a.report.out.keep_sentences || s.resample;
            let system = BracketsSystem::new(path, r, s.params.cutoff_len, keep);
            states.push(BracketsSystemState::of(&system, (r.all, r.cutoff), read));
            rows.push(BracketsRows {
                all: system.all,
                cutoff: system.cutoff,
            });
        }
    }

    /// The report of the test files scored, as text in `--format`.
    fn report(
        &mut self,
        a: &BracketsArgs,
        p: &Present<'_>,
        prm: (&Params, &str),
        by: (&[BracketsKey], Option<String>),
    ) -> Result<(), Failure> {
        let (params, prm_name) = prm;
        let pairs = careful_pairs(&self.reproduced);
        let e = BracketsIn {
            gold: &a.gold,
            params,
            prm_name,
            gold_trees: self.gold_trees,
            systems: &self.systems,
            careful_pairs: &pairs,
            by: by.0,
        };
        let mut report = present(p, &e, std::mem::take(&mut self.warnings));
        report.notes.extend(by.1);
        report.listings = std::mem::take(&mut self.listings);
        report.browser = self
            .browser
            .take()
            .map(|b| b.finish(self.page_total, a.report.html_sentences()));
        crate::select::record_part(
            &mut report,
            &params.selection,
            &self.selection,
            (LENGTH_UNIT, true),
            a.report.quiet,
            crate::select::is_part(&a.report.out),
        )?;
        self.text = treeval_report::emit::to_string(&report, a.report.format);
        Ok(())
    }

    /// The state of the evaluation (`--emit-state`): the parameters and options that
    /// change the counts, and every test file's.
    fn state(
        &mut self,
        a: &BracketsArgs,
        prm: (&Params, &str),
        layout: Layout,
        by: &[BracketsKey],
    ) -> State {
        let (params, prm_name) = prm;
        let keys: Vec<&str> = by.iter().map(|k| k.name()).collect();
        let options = brackets_options(params, prm_name, &layout_name(layout), &keys);
        let mut b = BracketsState {
            gold: a.gold.clone(),
            gold_trees: self.gold_trees,
            params: params.clone(),
            prm_name: prm_name.to_owned(),
            where_specs: a.report.where_.clone(),
            warnings: self.prm_warnings.clone(),
            systems: Vec::new(),
            sentences: None,
        };
        if let Some((systems, rows)) = self.states.take() {
            b.systems = systems;
            let keep = a.report.out.keep_sentences
                || !a.report.sig.tests.is_empty()
                || a.report.sig.ci.is_some();
            b.sentences = keep.then_some(rows);
        }
        State::of_brackets(options, b)
    }

    /// `--errors` of test file `k`: its unmatched brackets (of the labels kept), then its
    /// sentences not in the scores, if any.
    fn listings(&mut self, k: usize, r: &BracketResult, params: &Params) {
        let keep = |label: &str| params.filter.label_matches(label);
        let listing = treeval_report::errors::brackets_errors(k, r, &keep);
        self.listings.push(listing);
        if r.all.error_sentences + r.all.skip_sentences > 0 {
            let unscored = treeval_report::errors::brackets_unscored(k, r);
            self.listings.push(unscored);
        }
    }

    /// Score test file `k` against the gold. Under `--compat evalb`, where EVALB stops
    /// (too many errors), its output so far goes to `out` and the command fails.
    fn file(
        &mut self,
        a: &BracketsArgs,
        s: &Setting<'_>,
        k: usize,
        path: &str,
        per_sentence: &mut PerSentence,
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let compat = a.compat.is_some();
        let start = self.warnings.len();
        let mut g = reader(&a.gold, s.layout)?;
        let mut t = reader(path, s.layout)?;
        let mut r = evaluate(&mut g, &mut t, s.params, s.careful)
            .map_err(|e| Failure::Eval(e.to_string()))?;
        self.gold_trees = r.gold_trees;
        let (sel, w) = (&r.selection, &r.where_counts.sentences);
        self.page_total = r
            .gold_trees
            .saturating_sub(sel.by_id + sel.by_length + (w.1 - w.0));
        // a byte-order mark, CR LF: accepted, one warning per file
        let mut notes = if k == 0 { g.warnings() } else { Vec::new() };
        notes.extend(t.warnings());
        if !a.report.quiet {
            for d in &notes {
                eprintln!("warning: {d}");
            }
        }
        self.warnings.extend(notes.iter().map(Warning::from));
        if !compat {
            if let Some(m) = pairing_error(&a.gold, path, &r, g.lines(), t.lines()) {
                if !self.pairing.contains(&m) {
                    self.pairing.push(m);
                }
                return Ok(());
            }
        }
        crate::select::check_kept_unless_part(&s.params.selection, &r.selection, &a.report.out)?;
        self.selection = r.selection.clone();
        file_warnings(a, path, &r, &mut self.warnings);
        let n = scored(&r.all, &r.where_counts, s.params);
        (self.nothing).push((n, nothing(path, &r.all, r.gold_trees, s.params)));
        // what was read (the file's notes, the malformed trees), not what the sums say
        let read = self.warnings[start..start + notes.len() + r.problems.len()].to_vec();
        if compat {
            self.text
                .push_str(&evalb_text(&r, s.params.cutoff_len, s.params.debug));
            if r.stopped.is_some() {
                // EVALB exits here, with status 1 and without its summary
                out.write_all(self.text.as_bytes()).map_err(Failure::Io)?;
                out.flush().map_err(Failure::Io)?;
                let at = r.errors.last().map_or(0, |e| e.0);
                return Err(Failure::Eval(format!(
                    "{path}: stopped at sentence {at}: more than MAX_ERROR {} errors; EVALB exits here without its summary (exit status 1), and so does --compat evalb\n  hint: raise MAX_ERROR in the parameter file (nk.prm has 10000), or leave out --compat to score every sentence (MAX_ERROR is EVALB's process control: without --compat it does not stop the run)",
                    s.params.max_error
                )));
            }
        }
        per_sentence_records(per_sentence, k, &r.rows);
        let mut system = BracketsSystem::new(path, &r, s.params.cutoff_len, s.resample);
        self.keep_state(a, s, path, &r, read);
        if a.report.errors {
            self.listings(k, &r, s.params);
        }
        if let Some(b) = self.browser.as_mut() {
            b.add(path, &mut r);
        }
        if let Some(c) = &r.careful {
            careful_out(a, k, c, s.judgments, &mut self.used_judgments, &mut system)?;
            self.reproduced.push(c.reproduced.clone());
        }
        self.systems.push(system);
        Ok(())
    }
}

/// `--per-sentence`: one record per tree of test file `k`, with EVALB's row (length,
/// status and why it was not scored) besides the counts.
fn per_sentence_records(per_sentence: &mut PerSentence, k: usize, rows: &[SentenceRow]) {
    if !per_sentence.is_on() {
        return;
    }
    for row in rows {
        let counts = BracketCounts::of_row(row);
        per_sentence.write(
            &Record::of(row.id, k, &counts)
                .extra("length", row.length)
                .extra("status", row.status)
                .extra("message", &row.message),
        );
    }
}

/// The parameter file (and what EVALB says about it), its name, the layout, and the
/// warnings so far.
fn setup(a: &BracketsArgs) -> Result<(Params, String, Layout, Vec<Warning>), Failure> {
    let (mut params, prm_name, evalb_messages, w) = parameters(a.prm.as_deref())?;
    if a.compat.is_some() {
        // what EVALB says about the parameter file, in its words
        for m in &evalb_messages {
            eprintln!("{m}");
        }
    } else if !a.report.quiet {
        for d in &w {
            eprintln!("warning: {d}");
        }
    }
    if a.gold == "-" && a.test_files.len() > 1 {
        return Err(Failure::Usage(
            "a gold file on standard input can be scored against one test file only".into(),
        ));
    }
    params.count_wrapper = a.compat.is_some();
    // MAX_ERROR is EVALB's process control, not a scoring convention: only --compat
    // evalb stops there
    params.stop_at_max_error = a.compat.is_some();
    // EVALB's debug dump is part of its output: reproduced with --compat evalb
    params.trace = a.compat.is_some() && params.debug > 0;
    if params.debug > 0 && a.compat.is_none() && !a.report.quiet {
        eprintln!(
            "warning: DEBUG {} asks for EVALB's per-sentence debug dump, printed with --compat evalb only; here --per-sentence (and JSON) give every sentence's counts",
            params.debug
        );
    }
    let layout = match (a.compat.is_some(), a.layout) {
        (true, _) | (false, LayoutArg::Line) => Layout::Line,
        (false, LayoutArg::Auto) => Layout::Auto,
        (false, LayoutArg::MultiLine) => Layout::MultiLine,
    };
    let careful_flags = a.labeled
        || a.remove_punct_forms
        || a.collapse_double
        || a.remove_trivial
        || a.judgments.is_some()
        || a.export_for_judging.is_some();
    if careful_flags && !a.careful {
        return Err(Failure::Usage(
            "--labeled, --remove-punct-forms, --collapse-double, --remove-trivial, --judgments and --export-for-judging belong to --careful".into(),
        ));
    }
    Ok((
        params,
        prm_name,
        layout,
        w.iter().map(Warning::from).collect(),
    ))
}

/// Judgments read from `--judgments`, with each one's line.
type JudgmentsFile = (Judgments, Vec<(u64, JudgmentKey)>);

/// Read `--judgments`; every malformed line is an error.
fn judgments_file(a: &BracketsArgs) -> Result<Option<JudgmentsFile>, Failure> {
    let Some(path) = &a.judgments else {
        return Ok(None);
    };
    let text = treeval_formats::input::read_text(path, "judgments (tab-separated lines)")
        .map_err(|e| Failure::Eval(e.to_string()))?;
    let (j, lines, problems) = read_judgments(&text);
    if !problems.is_empty() {
        return Err(Failure::Eval(capped(
            problems
                .iter()
                .map(|(l, m)| format!("{path}:{l}:1: {m}"))
                .collect(),
        )));
    }
    Ok(Some((j, lines)))
}

/// A test file's error lines and problems on stderr; the sentences not in the scores
/// and those left out of the careful evaluation as warnings (stderr and report).
fn file_warnings(a: &BracketsArgs, path: &str, r: &BracketResult, warnings: &mut Vec<Warning>) {
    let compat = a.compat.is_some();
    let error_lines: Vec<String> = r
        .errors
        .iter()
        .map(|(id, m)| format!("{id} : {m}"))
        .collect();
    if compat {
        // EVALB's error lines, all of them
        for l in &error_lines {
            eprintln!("{l}");
        }
    }
    if !a.report.quiet {
        // where each malformed tree went wrong
        let problems: Vec<String> = r.problems.iter().map(|d| d.to_string()).collect();
        eprint_capped(&problems, "problems in malformed trees");
        if let Some(m) = &r.stopped {
            eprintln!("{path}: {m}");
        }
    }
    warnings.extend(r.problems.iter().map(Warning::from));
    if compat {
        return;
    }
    let mut warn = |message: String, hint: Option<&str>| {
        if !a.report.quiet {
            match hint {
                Some(h) => eprintln!("warning: {path}: {message}\n  hint: {h}"),
                None => eprintln!("warning: {path}: {message}"),
            }
        }
        warnings.push(Warning::new(
            path.to_owned(),
            message,
            hint.map(str::to_owned),
        ));
    };
    if let Some(w) = unscored_warning(path, &r.all, &r.errors) {
        warn(w.message, w.hint.as_deref());
    }
    if let Some(c) = r.careful.as_ref().filter(|c| !c.left_out.is_empty()) {
        warn(
            format!(
                "{} scored sentence(s) left out of the careful evaluation: gold and test keep different numbers of words after its preparation (first: sentence {}, {}|{})",
                c.left_out.len(),
                c.left_out[0].0,
                c.left_out[0].1,
                c.left_out[0].2
            ),
            None,
        );
    }
}

/// How many error sentences the warning about the unscored sentences names.
const FIRST_ERRORS: usize = 5;

/// The warning about the sentences of test file `path` that are not in the scores
/// (EVALB's status 1 and 2), from its sums `c`: one line with their numbers and the
/// first error sentences of `errors` (by number in the corpus, as a merge of states
/// knows them too; `--errors` gives their lines).
pub(crate) fn unscored_warning(
    path: &str,
    c: &BracketCounts,
    errors: &[(u64, String)],
) -> Option<Warning> {
    if c.error_sentences + c.skip_sentences == 0 {
        return None;
    }
    let mut first: Vec<String> = (errors.iter().take(FIRST_ERRORS))
        .map(|(id, _)| id.to_string())
        .collect();
    if errors.len() > FIRST_ERRORS {
        first.push("…".into());
    }
    let first = match first.len() {
        0 => String::new(),
        1 => format!("; sentence {}", first[0]),
        _ => format!("; sentences {}", first.join(", ")),
    };
    let mut parts = Vec::new();
    if c.error_sentences > 0 {
        parts.push(format!(
            "{} error sentence(s) (EVALB status 1: a different number of words, a different word, or a malformed tree{first})",
            c.error_sentences
        ));
    }
    if c.skip_sentences > 0 {
        parts.push(format!(
            "{} skipped (the test tree has no words, EVALB status 2)",
            c.skip_sentences
        ));
    }
    let d = Diagnostic::warning(
        treeval_formats::Position::new(Arc::from(path), 0, 0),
        treeval_formats::ErrorKind::Other(format!(
            "{} of {} sentences are not in the scores: {}",
            c.error_sentences + c.skip_sentences,
            c.sentences,
            parts.join(", ")
        )),
    )
    .with_hint("every other sentence is scored (EVALB stops after MAX_ERROR errors; --compat evalb does too); their gold brackets count neither in recall nor in precision, which can raise F; --errors lists them all, with their lines");
    Some(Warning::new(path.to_owned(), d.kind.to_string(), d.hint))
}

/// The units a test file's report is about: its scored sentences, or with a label
/// condition of `--where` the brackets it kept in them.
pub(crate) fn scored(
    all: &BracketCounts,
    kept: &treeval_metrics::brackets::filter::WhereCounts,
    params: &Params,
) -> u64 {
    if params.filter.has_label() && all.valid() > 0 {
        return kept.gold.0 + kept.test.0;
    }
    all.valid()
}

/// Why test file `path` scored nothing ([`scored`]), and what would let it.
pub(crate) fn nothing(
    path: &str,
    c: &BracketCounts,
    gold_trees: u64,
    params: &Params,
) -> crate::select::Nothing {
    let w = &params.filter;
    let (why, lift) = if c.sentences > 0 && c.valid() == 0 {
        (
            format!(
                "every sentence of {path} is an error sentence ({}: a different number of words, a different word, or a malformed tree) or skipped ({}: the test tree has no words)",
                c.error_sentences, c.skip_sentences
            ),
            "is it the parser's output for this gold file? the warning above names the first error sentences; EQ_WORD in the parameter file (--prm) makes word pairs equal".to_owned(),
        )
    } else {
        (
            format!(
                "--where {} keeps no {} of {path}",
                w.describe(),
                if c.sentences == 0 {
                    "scored sentence"
                } else {
                    "bracket"
                }
            ),
            "widen or drop --where (--by label and --by length show what there is)".to_owned(),
        )
    };
    crate::select::Nothing {
        why: format!("{why} ({gold_trees} gold trees read)"),
        lift,
    }
}

/// A test file's careful evaluation, judged with `--judgments`; the first file's
/// brackets to judge written to `--export-for-judging`.
fn careful_out(
    a: &BracketsArgs,
    k: usize,
    c: &treeval_metrics::brackets::CarefulResult,
    judgments: Option<&JudgmentsFile>,
    used: &mut std::collections::HashSet<JudgmentKey>,
    system: &mut BracketsSystem,
) -> Result<(), Failure> {
    let mut judged = None;
    let mut unjudged = None;
    if let Some((j, _)) = judgments {
        let (mut x, mut u) = (Judged::default(), 0u64);
        for (id, brackets, classes) in &c.brackets {
            judge(j, *id, brackets, classes, &mut x, &mut u);
            for b in brackets {
                if j.contains_key(&(*id, b.start, b.end)) {
                    used.insert((*id, b.start, b.end));
                }
            }
        }
        judged = Some(x);
        unjudged = Some(u);
    }
    if let (0, Some(out)) = (k, &a.export_for_judging) {
        let mut body = format!("{JUDGING_HEADER}\n");
        for line in &c.export {
            body.push_str(line);
            body.push('\n');
        }
        std::fs::write(out, body)
            .map_err(|e| Failure::Eval(format!("{out}: cannot write: {e}")))?;
    }
    system.careful = Some(CarefulUnit {
        counts: c.counts,
        with_judgments: u64::from(judged.is_some()),
        judged: judged.unwrap_or_default(),
    });
    system.unjudged = unjudged;
    system.left_out = c.left_out.len();
    Ok(())
}

/// A judgment must name a gold sentence (else an error); one that fits no bracket is
/// warned about.
fn check_judgments(
    a: &BracketsArgs,
    judgments: Option<&JudgmentsFile>,
    gold_trees: u64,
    used: &std::collections::HashSet<JudgmentKey>,
    warnings: &mut Vec<Warning>,
) -> Result<(), Failure> {
    let (Some((_, lines)), Some(path)) = (judgments, &a.judgments) else {
        return Ok(());
    };
    let mut problems = Vec::new();
    let mut unused = Vec::new();
    for &(line, key) in lines {
        let (s, start, end) = key;
        if s == 0 || s > gold_trees {
            problems.push(format!(
                "{path}:{line}:1: expected a sentence number from 1 to {gold_trees} (the trees of {}), found {s}",
                a.gold
            ));
        } else if start >= end {
            problems.push(format!(
                "{path}:{line}:1: expected a bracket with start < end, found {start} {end}"
            ));
        } else if !used.contains(&key) {
            unused.push(line);
        }
    }
    if !problems.is_empty() {
        return Err(Failure::Eval(capped(problems)));
    }
    if !unused.is_empty() {
        let shown: Vec<String> = unused.iter().take(10).map(u64::to_string).collect();
        let msg = format!(
            "{} judgment(s) fit no bracket of the parses (lines {}{}): they were not used",
            unused.len(),
            shown.join(", "),
            if unused.len() > 10 { ", …" } else { "" }
        );
        if !a.report.quiet {
            eprintln!("warning: {path}: {msg}\n  hint: a judgment names a parse bracket by sentence, start and end (words counted after the careful preparation), as --export-for-judging writes them");
        }
        warnings.push(Warning::new(path.clone(), msg, None));
    }
    Ok(())
}

/// Every pair of systems' reproduced treebank brackets, over the sentences both scored.
fn careful_pairs(reproduced: &[Vec<(u64, Vec<bool>)>]) -> Vec<(usize, usize, PairCounts)> {
    let mut pairs = Vec::new();
    for i in 0..reproduced.len() {
        for j in i + 1..reproduced.len() {
            let mut pc = PairCounts::default();
            let other: std::collections::HashMap<u64, &Vec<bool>> =
                reproduced[j].iter().map(|(id, v)| (*id, v)).collect();
            for (id, x) in &reproduced[i] {
                if let Some(y) = other.get(id) {
                    pc.add(x, y);
                }
            }
            pairs.push((i, j, pc));
        }
    }
    pairs
}

/// The tests between test files on the `--test-metrics`, sentences paired by position
/// (a shorter run padded with unscored sentences).
fn tests(p: &Present<'_>, params: &Params, systems: &[BracketsSystem], report: &mut Report) {
    let cfg = p.tests.0;
    if !cfg.tests.is_empty() {
        let ms = if params.filter.has_label() {
            measures_where_label()
        } else {
            measures()
        };
        let tested: Vec<treeval_report::driver::Tested> = ms
            .iter()
            .filter(|m| p.test_metrics.iter().any(|t| t == m.name))
            .map(|m| (m, None))
            .collect();
        let n = systems.iter().map(|s| s.all.len()).max().unwrap_or(0);
        let units: Vec<Vec<BracketCounts>> = systems
            .iter()
            .map(|s| {
                let mut u = s.all.clone();
                u.resize(n, BracketCounts::default());
                u
            })
            .collect();
        let bar = super::significance::Progress::new(p.report.quiet);
        (report.comparisons, report.rankings) =
            treeval_report::driver::tests(&tested, &units, cfg, &|l, d, t| bar.update(l, d, t));
        bar.finish();
    }
    report.significance = super::significance::settings(&p.report.sig, cfg, p.test_metrics);
}

/// How the careful evaluation prepared the brackets, for the signature.
fn careful_name(c: &CarefulOptions) -> String {
    let mut prep = vec![if c.labeled { "labeled" } else { "unlabeled" }];
    if c.remove_punct_forms {
        prep.push("punct-forms");
    }
    if c.collapse_double {
        prep.push("collapse-double");
    }
    if c.remove_trivial {
        prep.push("remove-trivial");
    }
    prep.join("+")
}
