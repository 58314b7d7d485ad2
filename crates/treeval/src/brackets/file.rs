//! Scoring the test files one by one against the gold trees: readers from paths or
//! memory, EVALB's messages and treeval's warnings, the careful evaluation and its
//! judgments, per-sentence records, the state and the report.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use treeval_formats::bracket::{BracketReader, Layout as ReadLayout};
use treeval_formats::Diagnostic;
use treeval_metrics::brackets::by::BracketsKey;
use treeval_metrics::brackets::measures::CarefulUnit;
use treeval_metrics::brackets::{evaluate, BracketCounts, BracketResult, CarefulResult, Params};
use treeval_metrics::careful::{
    judge, read_judgments, CarefulOptions, Judged, JudgmentKey, Judgments, PairCounts,
};
use treeval_metrics::select::SelectionCounts;
use treeval_report::brackets::{BracketsIn, BracketsSystem};
use treeval_report::browse_brackets::BracketsBrowser;
use treeval_report::compat::evalb::evalb_text;
use treeval_report::model::{Warning, WarningKind};
use treeval_report::records::Record;
use treeval_report::state::{
    BracketsRows, BracketsState, BracketsStateOptions, BracketsSystemState, State,
};

use super::{Layout, Options, Present, Prm, LENGTH_UNIT};
use crate::files::JUDGING_HEADER;
use crate::records::Records;
use crate::{Common, Error, Evaluation, Input, Inputs, Result};

/// Judgments read from `judgments`, with each one's line.
pub(super) type JudgmentsFile = (Judgments, Vec<(u64, JudgmentKey)>);

/// How every test file is scored.
pub(super) struct Setting<'a> {
    pub options: &'a Options,
    pub common: &'a Common,
    pub inputs: &'a Inputs,
    pub params: &'a Params,
    pub layout: Layout,
    pub careful: Option<&'a CarefulOptions>,
    pub judgments: Option<&'a JudgmentsFile>,
}

impl Setting<'_> {
    fn compat(&self) -> bool {
        self.options.compat.is_some()
    }

    /// Whether every sentence's counts are kept for tests or intervals.
    fn resample(&self) -> bool {
        !self.common.test.is_empty() || self.common.ci.is_some()
    }
}

/// A reader of `input`, refused at once when it is not bracketed trees.
/// Under `--compat evalb` (`evalb`), words are read in `(TAG word)` only, and bytes as
/// they are (any encoding), as EVALB does; otherwise the file must be UTF-8 text.
fn reader(
    input: &Input,
    layout: Layout,
    evalb: bool,
) -> Result<BracketReader<treeval_formats::input::Input>> {
    use treeval_formats::input::Bytes;
    let bytes = if evalb { Bytes::Raw } else { Bytes::Utf8 };
    let read = input
        .open_as(bytes)
        .map_err(|e| Error::Eval(e.to_string()))?;
    let mut r = BracketReader::new(read, input.name(), layout.reader())
        .tags_only(evalb)
        .raw_bytes(evalb);
    r.sniff().map_err(|e| Error::Eval(e.to_string()))?;
    Ok(r)
}

/// What the test files scored so far have given.
pub(super) struct Scored {
    systems: Vec<BracketsSystem>,
    /// Per careful system: each treebank bracket's sentence and whether it was reproduced.
    reproduced: Vec<Vec<(u64, Vec<bool>)>>,
    gold_trees: u64,
    /// The gold trees the sentence selection and a `where` length condition keep: the
    /// sentences the HTML page's browser is about.
    page_total: u64,
    /// The compat output so far.
    text: String,
    /// EVALB's messages on standard error so far (compat).
    stderr: String,
    /// The pairing errors of every test file, reported together.
    pairing: Vec<String>,
    /// Judgments that applied to some bracket.
    used_judgments: HashSet<JudgmentKey>,
    warnings: Vec<Warning>,
    /// The HTML page's sentences.
    browser: Option<BracketsBrowser>,
    /// `errors`: each test file's unmatched brackets.
    listings: Vec<treeval_report::value::Listing>,
    /// The sentence selection's counts (the same for every test file: gold decides).
    selection: SelectionCounts,
    /// The warnings about the parameter file.
    prm_warnings: Vec<Warning>,
    /// With a state: every test file's state and its sentences' counts.
    states: Option<(Vec<BracketsSystemState>, Vec<BracketsRows>)>,
    /// Per test file: the units scored ([`super::scored`]) and why none would be.
    nothing: Vec<(u64, crate::select::Nothing)>,
    records: Records,
    /// The report's notes on each test file (`--align chars`).
    notes: Vec<String>,
}

impl Scored {
    /// Nothing scored yet: the parameter file's messages (EVALB's under compat, else
    /// treeval's warnings), the per-sentence records' header written.
    pub(super) fn new(prm: &Prm, s: &Setting<'_>, page: bool) -> Self {
        let prm_warnings: Vec<Warning> = prm.warnings.iter().map(Warning::from).collect();
        let mut warnings = Vec::new();
        let mut stderr = String::new();
        if s.compat() {
            // what EVALB says about the parameter file, in its words
            for m in &prm.evalb_messages {
                stderr.push_str(m);
                stderr.push('\n');
            }
        } else {
            warnings.extend(prm_warnings.iter().cloned());
            if prm.params.debug > 0 {
                warnings.push(Warning::of(
                    WarningKind::ParameterDebug,
                    s.options.prm.clone().unwrap_or_default(),
                    format!("DEBUG {} asks for EVALB's per-sentence debug dump, printed with --compat evalb only; here --per-sentence (and JSON) give every sentence's counts", prm.params.debug),
                    None,
                ));
            }
        }
        use treeval_report::names::role;
        let mut roles = vec![(role::GOLD, s.inputs.gold.name())];
        roles.extend(s.inputs.systems.iter().map(|t| (role::SYSTEM, t.name())));
        roles.extend(s.options.prm.iter().map(|p| (role::PARAMETERS, p.as_str())));
        roles.extend(
            s.options
                .judgments
                .iter()
                .map(|j| (role::JUDGMENTS, j.as_str())),
        );
        Scored {
            systems: Vec::new(),
            reproduced: Vec::new(),
            gold_trees: 0,
            page_total: 0,
            text: String::new(),
            stderr,
            pairing: Vec::new(),
            used_judgments: HashSet::new(),
            warnings,
            browser: page.then(BracketsBrowser::new),
            listings: Vec::new(),
            selection: SelectionCounts::default(),
            prm_warnings,
            states: s.common.state.then(Default::default),
            nothing: Vec::new(),
            records: Records::open(s.common.per_sentence.as_ref(), "brackets", &roles),
            notes: Vec::new(),
        }
    }

    /// Score every test file; then the errors of the run as a whole: files that do not
    /// pair up, nothing scored, judgments that name no sentence.
    pub(super) fn files(&mut self, s: &Setting<'_>) -> Result<()> {
        for (k, input) in s.inputs.systems.iter().enumerate() {
            self.file(s, k, input)?;
        }
        if !self.pairing.is_empty() {
            return Err(Error::Eval(self.pairing.join("\n")));
        }
        if !s.compat() {
            let each = (self.nothing.drain(..))
                .map(|(n, why)| (n, Box::new(move || why) as Box<dyn FnOnce() -> _>));
            let sel = (&s.params.selection, &self.selection);
            crate::select::nothing_scored(each, sel, s.common.is_part())?;
        }
        self.check_judgments(s)
    }

    /// `e` with what was said until then: an evaluation error becomes
    /// [`Error::Partial`] holding EVALB's messages (compat) and the warnings (malformed
    /// trees, sentences not scored) that explain it, without output.
    pub(super) fn stopped(&mut self, e: Error) -> Error {
        match e {
            Error::Eval(message) if !(self.warnings.is_empty() && self.stderr.is_empty()) => {
                Error::Partial {
                    printed: String::new(),
                    message,
                    stderr: std::mem::take(&mut self.stderr),
                    warnings: std::mem::take(&mut self.warnings),
                }
            }
            e => e,
        }
    }

    /// The evaluation: the state, the report, and under compat EVALB's output.
    pub(super) fn finish(
        mut self,
        s: &Setting<'_>,
        p: &Present<'_>,
        (prm_name, by, by_note): (&str, &[BracketsKey], Option<String>),
    ) -> Result<Evaluation> {
        std::mem::replace(&mut self.records, Records::open(None, "", &[])).finish()?;
        let names = s.inputs.display_names(s.common)?;
        let state = s.common.state.then(|| {
            self.state(s, prm_name, by)
                .with_selection(&s.params.selection, &self.selection)
                .with_names(names.clone(), !s.common.names.is_empty())
                .with_inputs(s.inputs.identity())
        });
        let pairs = careful_pairs(&self.reproduced);
        let e = BracketsIn {
            gold: s.inputs.gold.name(),
            params: s.params,
            prm_name,
            gold_trees: self.gold_trees,
            systems: &self.systems,
            careful_pairs: &pairs,
            by,
        };
        let mut report = super::present(p, &e, std::mem::take(&mut self.warnings));
        report.notes.extend(by_note);
        report.notes.append(&mut self.notes);
        report.listings = std::mem::take(&mut self.listings);
        if let (Some(b), Some(limit)) = (self.browser.take(), s.common.page_sentences) {
            report.browser = Some(b.finish(self.page_total, limit));
        }
        report.name_systems(&names);
        crate::select::record(
            &mut report,
            &s.params.selection,
            &self.selection,
            (LENGTH_UNIT, true),
            s.common.is_part(),
        )?;
        let text = s.compat().then(|| std::mem::take(&mut self.text));
        report.warnings.extend(s.inputs.gold_copies());
        Ok(Evaluation::new(report, state, text).with_stderr(self.stderr))
    }

    /// With a state, keep test file `path`'s: its sums, what was `read`, and every
    /// sentence's counts when they are kept.
    fn keep_state(&mut self, s: &Setting<'_>, path: &str, r: &BracketResult, read: Vec<Warning>) {
        if let Some((states, rows)) = self.states.as_mut() {
            let keep = s.common.keeps_sentences();
            let system = BracketsSystem::new(path, r, s.params.cutoff_len, keep);
            states.push(BracketsSystemState::of(&system, (r.all, r.cutoff), read));
            rows.push(BracketsRows {
                all: system.all,
                cutoff: system.cutoff,
            });
        }
    }

    /// The state of the evaluation: the parameters and options that change the counts,
    /// and every test file's.
    fn state(&mut self, s: &Setting<'_>, prm_name: &str, by: &[BracketsKey]) -> State {
        let options = BracketsStateOptions {
            prm: prm_name.to_owned(),
            params: s.params.clone(),
            layout: s.layout.name().to_owned(),
            align: s.options.align.name().to_owned(),
            error_sentences: super::ErrorSentences::of(s.params).name().to_owned(),
            by: by.iter().map(|k| k.name().to_owned()).collect(),
            where_: s.params.filter.name(),
        };
        let mut b = BracketsState {
            gold: s.inputs.gold.name().to_owned(),
            gold_trees: self.gold_trees,
            params: s.params.clone(),
            prm_name: prm_name.to_owned(),
            where_specs: s.common.where_.clone(),
            warnings: self.prm_warnings.clone(),
            systems: Vec::new(),
            sentences: None,
        };
        if let Some((systems, rows)) = self.states.take() {
            b.systems = systems;
            b.sentences = s.common.keeps_sentences().then_some(rows);
        }
        State::of_brackets(options, b)
    }

    /// `errors` of test file `k`: its unmatched brackets (of the labels kept), then its
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

    /// Score test file `k` against the gold. Under compat, where EVALB stops (too many
    /// errors), its output so far comes back in [`Error::Partial`].
    fn file(&mut self, s: &Setting<'_>, k: usize, input: &Input) -> Result<()> {
        let path = input.name();
        let start = self.warnings.len();
        let mut g = reader(&s.inputs.gold, s.layout, s.compat())?;
        let mut t = reader(input, s.layout, s.compat())?;
        let chars = s.options.align == super::Align::Chars;
        let (mut r, aligned) = if chars {
            let (r, c) = treeval_metrics::brackets::chars::evaluate(&mut g, &mut t, s.params)
                .map_err(|e| Error::Eval(e.to_string()))?;
            (r, Some(c))
        } else {
            let r = evaluate(&mut g, &mut t, s.params, s.careful);
            (r.map_err(|e| Error::Eval(e.to_string()))?, None)
        };
        self.gold_trees = r.gold_trees;
        let (sel, w) = (&r.selection, &r.where_counts.sentences);
        self.page_total = r
            .gold_trees
            .saturating_sub(sel.by_id + sel.by_length + (w.1 - w.0));
        // a byte-order mark, CR LF: accepted, one warning per file
        let mut notes = if k == 0 { g.warnings() } else { Vec::new() };
        notes.extend(t.warnings());
        self.warnings.extend(notes.iter().map(Warning::from));
        if !s.compat() {
            let gold = s.inputs.gold.name();
            let read = |name, r: &BracketReader<_>| AsRead {
                name,
                lines: r.lines(),
                layout: r.layout(),
                open: r.open_at_end(),
            };
            if let Some(m) = pairing_error(read(gold, &g), read(path, &t), &r, chars) {
                if !self.pairing.contains(&m) {
                    self.pairing.push(m);
                }
                return Ok(());
            }
        }
        crate::select::check_kept_unless_part(
            &s.params.selection,
            &r.selection,
            s.common.is_part(),
        )?;
        self.selection = r.selection.clone();
        self.file_warnings(s, path, &r);
        if let Some(c) = &aligned {
            self.warnings.extend(super::chars::warning(path, c));
            self.listings.extend(super::chars::listing(k, c));
            self.notes.push(super::chars::note(path, c));
        }
        let n = super::scored(&r.all, &r.where_counts, s.params);
        (self.nothing).push((n, super::nothing(path, &r.all, r.gold_trees, s.params)));
        // what was read (the file's notes, the malformed trees), not what the sums say
        let read = self.warnings[start..start + notes.len() + r.problems.len()].to_vec();
        if s.compat() {
            self.compat(s, path, &r)?;
        }
        self.records(k, &r);
        let mut system = BracketsSystem::new(path, &r, s.params.cutoff_len, s.resample());
        self.keep_state(s, path, &r, read);
        if s.common.errors {
            self.listings(k, &r, s.params);
        }
        if let Some(b) = self.browser.as_mut() {
            b.add(path, &mut r);
        }
        if let Some(c) = &r.careful {
            careful_out(s, k, c, &mut self.used_judgments, &mut system)?;
            self.reproduced.push(c.reproduced.clone());
        }
        self.systems.push(system);
        Ok(())
    }

    /// EVALB's output of test file `path`; where EVALB stops (more than MAX_ERROR
    /// errors), the error with everything printed until then.
    fn compat(&mut self, s: &Setting<'_>, path: &str, r: &BracketResult) -> Result<()> {
        self.text
            .push_str(&evalb_text(r, s.params.cutoff_len, s.params.debug));
        if r.stopped.is_none() {
            return Ok(());
        }
        // EVALB exits here, with status 1 and without its summary
        let at = r.errors.last().map_or(0, |e| e.0);
        Err(Error::Partial {
            printed: std::mem::take(&mut self.text),
            message: format!(
                "{path}: stopped at sentence {at}: more than MAX_ERROR {} errors; EVALB exits here without its summary (exit status 1), and so does --compat evalb\n  hint: raise MAX_ERROR in the parameter file (nk.prm has 10000), or leave out --compat to score every sentence (MAX_ERROR is EVALB's process control: without --compat it does not stop the run)",
                s.params.max_error
            ),
            stderr: std::mem::take(&mut self.stderr),
            warnings: std::mem::take(&mut self.warnings),
        })
    }

    /// Per-sentence records: one per tree of test file `k`, with EVALB's row (length,
    /// status and why it was not scored) besides the counts.
    fn records(&mut self, k: usize, r: &BracketResult) {
        if !self.records.is_on() {
            return;
        }
        for row in &r.rows {
            let counts = BracketCounts::of_row(row);
            self.records.write(
                &Record::of(row.id, k, &counts)
                    .extra("length", row.length)
                    .extra("status", row.status)
                    .extra("message", &row.message),
            );
        }
    }

    /// A test file's error lines (EVALB's stderr under compat) and its malformed trees;
    /// the sentences not in the scores and those left out of the careful evaluation as
    /// warnings.
    fn file_warnings(&mut self, s: &Setting<'_>, path: &str, r: &BracketResult) {
        if s.compat() {
            // EVALB's error lines, all of them
            for (id, m) in &r.errors {
                self.stderr.push_str(&format!("{id} : {m}\n"));
            }
        }
        // where each malformed tree went wrong
        self.warnings.extend(r.problems.iter().map(Warning::from));
        if s.compat() {
            return;
        }
        self.warnings
            .extend(unscored_warning(path, &r.all, &r.errors));
        if let Some(c) = r.careful.as_ref().filter(|c| !c.left_out.is_empty()) {
            self.warnings.push(Warning::of(
                WarningKind::CarefulLeftOut,
                path.to_owned(),
                format!(
                    "{} scored sentence(s) left out of the careful evaluation: gold and test keep different numbers of words after its preparation (first: sentence {}, {}|{})",
                    c.left_out.len(),
                    c.left_out[0].0,
                    c.left_out[0].1,
                    c.left_out[0].2
                ),
                None,
            ));
        }
    }

    /// A judgment must name a gold sentence (else an error); one that fits no bracket is
    /// warned about.
    fn check_judgments(&mut self, s: &Setting<'_>) -> Result<()> {
        let (Some((_, lines)), Some(path)) = (s.judgments, &s.options.judgments) else {
            return Ok(());
        };
        let gold_trees = self.gold_trees;
        let mut problems = Vec::new();
        let mut unused = Vec::new();
        for &(line, key) in lines {
            let (n, start, end) = key;
            if n == 0 || n > gold_trees {
                problems.push(format!(
                    "{path}:{line}:1: expected a sentence number from 1 to {gold_trees} (the trees of {}), found {n}",
                    s.inputs.gold.name()
                ));
            } else if start >= end {
                problems.push(format!(
                    "{path}:{line}:1: expected a bracket with start < end, found {start} {end}"
                ));
            } else if !self.used_judgments.contains(&key) {
                unused.push(line);
            }
        }
        if !problems.is_empty() {
            return Err(Error::Eval(crate::error::capped(problems)));
        }
        if !unused.is_empty() {
            let shown: Vec<String> = unused.iter().take(10).map(u64::to_string).collect();
            let msg = format!(
                "{} judgment(s) fit no bracket of the parses (lines {}{}): they were not used",
                unused.len(),
                shown.join(", "),
                if unused.len() > 10 { ", …" } else { "" }
            );
            self.warnings.push(Warning::of(WarningKind::UnusedJudgments, path.clone(), msg, Some("a judgment names a system bracket by sentence, start and end (words counted after the careful preparation), as --export-for-judging writes them".into())));
        }
        Ok(())
    }
}

/// A file as its reader read it, for [`pairing_error`].
struct AsRead<'a> {
    /// The path as given.
    name: &'a str,
    /// Lines read.
    lines: u64,
    /// The layout it was read with.
    layout: ReadLayout,
    /// The first line of a tree the end of the file left open (read across lines).
    open: Option<u64>,
}

impl AsRead<'_> {
    fn layout_words(&self) -> &'static str {
        match self.layout {
            ReadLayout::MultiLine => "trees across lines",
            _ => "one tree per line",
        }
    }
}

/// The error when a test file does not hold as many trees as the gold file (EVALB
/// stops at the shorter file and scores what came before; compat does so too).
/// Under `--align chars` (`chars`) trees pair by their characters, not their number.
/// A tree left open to the end of a file read across lines is named first, in the file
/// that has it (the gold's, if both); a count that differs names the layout each file was
/// read with and `--layout`.
fn pairing_error(
    gold: AsRead<'_>,
    test: AsRead<'_>,
    r: &BracketResult,
    chars: bool,
) -> Option<String> {
    let (g, t) = (r.gold_trees, r.test_trees);
    if g == 0 || r.gold_words == 0 {
        return Some(format!(
            "{}:{}:1: expected bracketed trees with words in the gold file, found {}\n  hint: the gold file is empty or holds only blank lines or trees without words",
            gold.name,
            gold.lines.max(1),
            if g == 0 { "none".to_owned() } else { format!("{g} tree(s) without words") }
        ));
    }
    if g != t && !chars {
        let counts = format!("{g} trees in {}, {t} in {}", gold.name, test.name);
        if let Some((file, line)) = [&gold, &test]
            .into_iter()
            .find_map(|f| f.open.map(|l| (f.name, l)))
        {
            return Some(format!(
                "{file}:{line}:1: expected a ')' closing this tree before the end of the file, found none: read across lines, it took every line after it ({counts})\n  hint: this file is broken at this tree: add the missing ')' (or, if the file holds one tree per line, read it with --layout line)"
            ));
        }
        let layouts = if gold.layout == test.layout {
            format!("both files were read as {}", gold.layout_words())
        } else {
            format!(
                "the gold was read as {}, the system as {}",
                gold.layout_words(),
                test.layout_words()
            )
        };
        return Some(format!(
            "{}:{}:1: expected {g} trees (as in {}), found {t}\n  hint: {}\n  hint: {layouts}; --layout line or --layout multi-line sets it",
            test.name,
            test.lines.max(1),
            gold.name,
            if t < g {
                "the system file ends early: is it truncated, or did the parser skip sentences? (a sentence the parser failed on must stay as an empty line; --compat evalb scores as EVALB does, up to the shorter file)"
            } else {
                "the system file has extra trees: were sentences split, or is it the output for another gold file?"
            },
        ));
    }
    if r.test_words == 0 {
        let test = test.name;
        return Some(format!(
            "{test}:1:1: expected bracketed trees with words, found {t} tree(s) without any word\n  hint: every sentence would be skipped (EVALB status 2) and nothing scored: is this the parser's output?"
        ));
    }
    None
}

/// Read the judgments file at `path`; every malformed line is an error.
pub(super) fn judgments_file(path: Option<&str>) -> Result<Option<JudgmentsFile>> {
    let Some(path) = path else {
        return Ok(None);
    };
    let text = treeval_formats::input::read_text(path, "judgments (tab-separated lines)")
        .map_err(|e| Error::Eval(e.to_string()))?;
    let (j, lines, problems) = read_judgments(&text);
    if !problems.is_empty() {
        return Err(Error::Eval(crate::error::capped(
            problems
                .iter()
                .map(|(l, m)| format!("{path}:{l}:1: {m}"))
                .collect(),
        )));
    }
    Ok(Some((j, lines)))
}

/// How many error sentences the warning about the unscored sentences names.
const FIRST_ERRORS: usize = 5;

/// The warning about the sentences of test file `path` that are not in the scores
/// (EVALB's status 1 and 2), from its sums `c`: one line with their numbers and the
/// first error sentences of `errors` (by number in the corpus, as a merge of states
/// knows them too; `errors` gives their lines).
pub fn unscored_warning(
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
    let total = c.error_sentences + c.skip_sentences;
    let (missed, out) = (c.missed_sentences, total - c.missed_sentences.min(total));
    let (what, hint) = if out == 0 {
        (
            format!("{total} of {} sentences are scored as empty parses", c.sentences),
            "the system failed on them: their gold brackets are missed (recall falls) and their words count in tagging accuracy without a correct tag (--error-sentences missed); --error-sentences excluded leaves them out of the scores, as EVALB does; --errors lists them all, with their lines",
        )
    } else if missed == 0 {
        (
            format!("{total} of {} sentences are not in the scores", c.sentences),
            "every other sentence is scored (EVALB stops after MAX_ERROR errors; --compat evalb does too); their gold brackets count neither in recall nor in precision, which can raise F; --errors lists them all, with their lines",
        )
    } else {
        (
            format!(
                "{total} of {} sentences are not scored as parsed, {missed} of them scored as empty parses (their gold brackets missed) and {out} not in the scores (a malformed gold tree, or no gold word kept)",
                c.sentences
            ),
            "--errors lists them all, with their lines; --error-sentences excluded leaves them all out of the scores, as EVALB does",
        )
    };
    let d = Diagnostic::warning(
        treeval_formats::Position::new(Arc::from(path), 0, 0),
        treeval_formats::ErrorKind::Other(format!("{what}: {}", parts.join(", "))),
    )
    .with_hint(hint);
    Some(Warning::of(
        WarningKind::UnscoredSentences,
        path.to_owned(),
        d.kind.to_string(),
        d.hint,
    ))
}

/// A test file's careful evaluation, judged with the judgments; the first file's
/// brackets to judge written to `export_for_judging`.
fn careful_out(
    s: &Setting<'_>,
    k: usize,
    c: &CarefulResult,
    used: &mut HashSet<JudgmentKey>,
    system: &mut BracketsSystem,
) -> Result<()> {
    let mut judged = None;
    let mut unjudged = None;
    if let Some((j, _)) = s.judgments {
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
    if let (0, Some(out)) = (k, &s.options.export_for_judging) {
        let mut body = format!("{JUDGING_HEADER}\n");
        for line in &c.export {
            body.push_str(line);
            body.push('\n');
        }
        let o = crate::files::Output {
            flag: "--export-for-judging",
            path: out,
            kind: crate::files::OutputKind::Judging,
        };
        crate::files::write_all(&o, &body)?;
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

/// Every pair of systems' reproduced treebank brackets, over the sentences both scored.
fn careful_pairs(reproduced: &[Vec<(u64, Vec<bool>)>]) -> Vec<(usize, usize, PairCounts)> {
    let mut pairs = Vec::new();
    for i in 0..reproduced.len() {
        for j in i + 1..reproduced.len() {
            let mut pc = PairCounts::default();
            let other: HashMap<u64, &Vec<bool>> =
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
